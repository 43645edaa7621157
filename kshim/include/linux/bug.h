/* SPDX-License-Identifier: GPL-2.0 */
/*
 * WARN_ON() and BUG_ON() report through the host's assertion hook, so a
 * condition the kernel would warn about becomes a visible failure instead
 * of passing silently.
 */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H

#include <linux/compiler.h>
#include <kshim/context.h>

#define WARN_ON(cond) ({						\
	int __ret_warn_on = !!(cond);					\
	if (unlikely(__ret_warn_on))					\
		kshim_warn(__FILE__, __LINE__, #cond);			\
	unlikely(__ret_warn_on);					\
})

#define BUG_ON(cond) do {						\
	if (unlikely(cond))						\
		kshim_bug(__FILE__, __LINE__, #cond);			\
} while (0)

#endif /* _LINUX_BUG_H */
