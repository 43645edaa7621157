// SPDX-License-Identifier: GPL-2.0
/*
 * The governor registry.  Each governor object carries one entry in the
 * "kshim_initcalls" section (linux/init.h); running an entry's initcall
 * makes the governor call cpuidle_register_governor(), which lands in
 * kshim_register_governor() and completes the registry slot.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kshim/initcall.h>
#include <kshim/registry.h>

extern const struct kshim_initcall __start_kshim_initcalls[] __attribute__((weak));
extern const struct kshim_initcall __stop_kshim_initcalls[] __attribute__((weak));

static struct kshim_governor *governors;
static size_t nr_governors;
static struct kshim_governor *registering;
static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

int kshim_register_governor(const void *gov)
{
	if (!registering) {
		fprintf(stderr, "kshim: cpuidle_register_governor() outside an initcall\n");
		abort();
	}
	registering->gov = gov;
	return 0;
}

static void run_initcalls(void)
{
	size_t n = (size_t)(__stop_kshim_initcalls - __start_kshim_initcalls);
	size_t i;

	governors = calloc(n ? n : 1, sizeof(*governors));
	if (!governors)
		abort();
	for (i = 0; i < n; i++) {
		const struct kshim_initcall *ic = &__start_kshim_initcalls[i];
		struct kshim_governor *g = &governors[nr_governors];

		g->meta = ic->meta;
		g->core = ic->core;
		registering = g;
		if (ic->fn() == 0 && g->gov)
			nr_governors++;
		else
			fprintf(stderr, "kshim: governor %s did not register\n",
				ic->meta->name);
	}
	registering = NULL;
}

void kshim_registry_init(void)
{
	pthread_once(&registry_once, run_initcalls);
}

size_t kshim_governor_count(void)
{
	kshim_registry_init();
	return nr_governors;
}

const struct kshim_governor *kshim_governor_at(size_t index)
{
	kshim_registry_init();
	return index < nr_governors ? &governors[index] : NULL;
}

const struct kshim_governor *kshim_governor_find(const char *name)
{
	size_t i;

	kshim_registry_init();
	for (i = 0; i < nr_governors; i++)
		if (strcmp(governors[i].meta->name, name) == 0)
			return &governors[i];
	return NULL;
}
