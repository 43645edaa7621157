// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "progress.h"

void progress_init(struct progress *pr, bool show, unsigned int nr_groups)
{
	*pr = (struct progress){ .show = show, .nr_groups = nr_groups,
				 .permille = g_new0(unsigned int, MAX(nr_groups, 1)) };
	g_mutex_init(&pr->lock);
}

void progress_clear(struct progress *pr)
{
	g_mutex_clear(&pr->lock);
	g_free(pr->permille);
}

void progress_at(struct progress *pr, unsigned int group, uint64_t at_ns, uint64_t end_ns)
{
	uint64_t sum = 0;
	unsigned int percent;

	if (!pr->show)
		return;
	g_mutex_lock(&pr->lock);
	pr->permille[group] = (unsigned int)(MIN(at_ns, end_ns) * 1000.0 / (double)end_ns);
	for (unsigned int k = 0; k < pr->nr_groups; k++)
		sum += pr->permille[k];
	percent = (unsigned int)(sum / 10 / pr->nr_groups);
	if (percent != pr->shown) {
		pr->shown = percent;
		fprintf(stderr, "\rteosim: %u%% simulated", percent);
		if (percent == 100)
			fputc('\n', stderr);
	}
	g_mutex_unlock(&pr->lock);
}
