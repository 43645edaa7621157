/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU variables, laid out as the kernel lays them out.
 *
 * DEFINE_PER_CPU() places the variable in the "kshim_percpu" section, which
 * is only a template: each machine allocates one copy of the whole section
 * per CPU (kshim/percpu.c), and per_cpu_ptr() turns the template address
 * into the same offset inside the calling machine's copy for that CPU.
 * Machines in different threads therefore never share per-CPU data.
 *
 * Each variable is cache-line aligned (the kernel only does that for
 * DEFINE_PER_CPU_ALIGNED).  It changes no governor's arithmetic, and it
 * keeps a write just past the end of one governor's per-CPU data inside
 * padding rather than in another governor's data: TEO v8 makes exactly such
 * a write (see teo/README.md, "Sanitizer findings").
 */
#ifndef _LINUX_PERCPU_H
#define _LINUX_PERCPU_H

#include <linux/types.h>
#include <kshim/context.h>

#define KSHIM_PERCPU_ALIGN	64

/* Weak, so that a program with no per-CPU variable still links. */
extern char __start_kshim_percpu[] __attribute__((weak));
extern char __stop_kshim_percpu[] __attribute__((weak));

#define DEFINE_PER_CPU(type, name)					\
	__attribute__((section("kshim_percpu"), aligned(KSHIM_PERCPU_ALIGN))) \
	__typeof__(type) name

#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name

static inline void *kshim_percpu_ptr(const void *var, unsigned int cpu)
{
	return kshim_cur->percpu_areas[cpu] +
	       ((const char *)var - __start_kshim_percpu);
}

#define per_cpu_ptr(ptr, cpu)	((__typeof__(ptr))kshim_percpu_ptr((ptr), (cpu)))
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, kshim_cur_cpu)
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))

#endif /* _LINUX_PERCPU_H */
