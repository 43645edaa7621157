// SPDX-License-Identifier: GPL-2.0
/* Per-CPU areas: one copy of a governor's kshim_percpu section per CPU of a machine. */
#include <stdlib.h>
#include <string.h>

#include <linux/percpu.h>
#include "percpu-area.h"

char **kshim_percpu_alloc(const char *start, const char *stop, unsigned int nr_cpus)
{
	/*
	 * Whole cache lines, as DEFINE_PER_CPU aligns every variable: a write
	 * just past the last variable stays inside the area (teo-v8 makes one).
	 */
	size_t used = (size_t)(stop - start);
	size_t size = (used + KSHIM_PERCPU_ALIGN - 1) & ~(size_t)(KSHIM_PERCPU_ALIGN - 1);
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
		memset(areas[cpu], 0, size);
		if (used)
			memcpy(areas[cpu], start, used);
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
