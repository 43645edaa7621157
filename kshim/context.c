// SPDX-License-Identifier: GPL-2.0
/* The thread-local calling context and the kernel's warning hooks. */
#include <stdio.h>
#include <stdlib.h>

#include <kshim/context.h>

_Thread_local struct kshim_machine_ctx *kshim_cur;
_Thread_local unsigned int kshim_cur_cpu;

void kshim_warn(const char *file, int line, const char *cond)
{
	fprintf(stderr, "kshim: WARN_ON(%s) at %s:%d on cpu %u\n",
		cond, file, line, kshim_cur_cpu);
}

void kshim_bug(const char *file, int line, const char *cond)
{
	fprintf(stderr, "kshim: BUG_ON(%s) at %s:%d on cpu %u\n",
		cond, file, line, kshim_cur_cpu);
	abort();
}
