// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled into every governor module beside the governor source: tells
 * the loading program where the module's initcall and per-CPU template
 * are (kshim/api/kshim/module.h).
 */
#include <kshim/initcall.h>
#include <kshim/module.h>

/* Hidden: this module's sections, never the program's of the same name. */
extern const struct kshim_initcall __start_kshim_initcalls[] __attribute__((visibility("hidden")));
extern const struct kshim_initcall __stop_kshim_initcalls[] __attribute__((visibility("hidden")));
extern const char __start_kshim_percpu[] __attribute__((weak, visibility("hidden")));
extern const char __stop_kshim_percpu[] __attribute__((weak, visibility("hidden")));

__attribute__((visibility("default")))
const struct kshim_module_info kshim_module = {
	.abi = KSHIM_MODULE_ABI,
	.max_cpus = KSHIM_MAX_CPUS,
	.initcalls_start = __start_kshim_initcalls,
	.initcalls_stop = __stop_kshim_initcalls,
	.percpu_start = __start_kshim_percpu,
	.percpu_stop = __stop_kshim_percpu,
};
