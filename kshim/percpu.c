// SPDX-License-Identifier: GPL-2.0
/* Per-CPU areas: one copy of the kshim_percpu section per CPU of a machine. */
#include <stdlib.h>
#include <string.h>

#include <linux/percpu.h>
#include "percpu-area.h"

char **kshim_percpu_alloc(unsigned int nr_cpus)
{
	size_t size = (size_t)(__stop_kshim_percpu - __start_kshim_percpu);
	char **areas = calloc(nr_cpus, sizeof(*areas));
	unsigned int cpu;

	if (!areas)
		return NULL;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		/* Never zero bytes, so that every CPU has a distinct area. */
		areas[cpu] = aligned_alloc(KSHIM_PERCPU_ALIGN,
					   size ? size : KSHIM_PERCPU_ALIGN);
		if (!areas[cpu]) {
			kshim_percpu_free(areas, cpu);
			return NULL;
		}
		if (size)
			memcpy(areas[cpu], __start_kshim_percpu, size);
	}
	return areas;
}

void kshim_percpu_free(char **areas, unsigned int nr_cpus)
{
	unsigned int cpu;

	if (!areas)
		return;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		free(areas[cpu]);
	free(areas);
}
