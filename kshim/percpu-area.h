/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KSHIM_PERCPU_AREA_H
#define KSHIM_PERCPU_AREA_H

/* nr_cpus areas, each starting as a copy of the template [start, stop). */
char **kshim_percpu_alloc(const char *start, const char *stop, unsigned int nr_cpus);
void kshim_percpu_free(char **areas, unsigned int nr_cpus);

#endif /* KSHIM_PERCPU_AREA_H */
