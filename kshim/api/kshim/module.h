/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a governor module (a governor source compiled at run time into a
 * shared object, cli/cmd-build-governor.c) tells the program that loads it.
 *
 * kshim/module-entry.c is compiled into every module and defines one
 * kshim_module_info named KSHIM_MODULE_SYMBOL.  Inside a module, the
 * linker's __start_ and __stop_ symbols of the kshim_initcalls and
 * kshim_percpu sections are the module's own (it is linked with
 * -z start-stop-visibility=hidden), so the module's per_cpu_ptr() offsets
 * are taken from its own per-CPU template, as a built-in governor's are
 * from the program's.  What a module needs of the program (the calling
 * context, the cpuidle cores, registration) the program exports:
 * kshim/module-exports.list.
 */
#ifndef KSHIM_MODULE_H
#define KSHIM_MODULE_H

/* Bumped whenever this struct, the registry's or the cores' change shape. */
#define KSHIM_MODULE_ABI	1
#define KSHIM_MODULE_SYMBOL	"kshim_module"

struct kshim_initcall;

struct kshim_module_info {
	unsigned int abi;		/* KSHIM_MODULE_ABI when it was built */
	unsigned int max_cpus;		/* KSHIM_MAX_CPUS when it was built */
	const struct kshim_initcall *initcalls_start;
	const struct kshim_initcall *initcalls_stop;
	const char *percpu_start;
	const char *percpu_stop;
};

#endif /* KSHIM_MODULE_H */
