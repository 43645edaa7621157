/* SPDX-License-Identifier: GPL-2.0 */
/*
 * WARN_ON() prints the condition, file and line on stderr where the kernel
 * would print its warning, and goes on as the kernel does; BUG_ON() prints
 * and aborts, so a condition the kernel would stop on stops the run.
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
