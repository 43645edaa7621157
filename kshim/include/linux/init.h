/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Initcalls.  A governor registers itself from an initcall, as in the
 * kernel; here postcore_initcall() puts the function into the
 * "kshim_initcalls" section together with the identity of the governor
 * object it was compiled into (KSHIM_GOVERNOR_META, a -D of the build) and
 * the cpuidle core of its API generation.  kshim_registry_init() runs them.
 */
#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H

#include <kshim/initcall.h>

#define __init

#define postcore_initcall(fn)	KSHIM_INITCALL(fn)

#endif /* _LINUX_INIT_H */
