// SPDX-License-Identifier: GPL-2.0
/*
 * The governor registry.  Each governor object carries one entry in the
 * "kshim_initcalls" section (linux/init.h); running an entry's initcall
 * makes the governor call cpuidle_register_governor(), which lands in
 * kshim_register_governor() and completes the registry slot.  The
 * program's own section holds the built-in governors; a governor module
 * brings a section of its own (kshim/module.h).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kshim/initcall.h>
#include <kshim/module.h>
#include <kshim/registry.h>

extern const struct kshim_initcall __start_kshim_initcalls[] __attribute__((weak));
extern const struct kshim_initcall __stop_kshim_initcalls[] __attribute__((weak));
extern const char __start_kshim_percpu[] __attribute__((weak));
extern const char __stop_kshim_percpu[] __attribute__((weak));

/* Pointers, so that a governor handed out stays put when modules are added. */
static struct kshim_governor **governors;
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

/* Runs one initcall into g; whether the governor registered. */
static int run_initcall(const struct kshim_initcall *ic, struct kshim_governor *g)
{
	g->meta = ic->meta;
	g->core = ic->core;
	registering = g;
	int ok = ic->fn() == 0 && g->gov;
	registering = NULL;
	return ok;
}

static void run_initcalls(void)
{
	size_t n = (size_t)(__stop_kshim_initcalls - __start_kshim_initcalls);
	struct kshim_governor *slots = calloc(n ? n : 1, sizeof(*slots));

	governors = calloc(n ? n : 1, sizeof(*governors));
	if (!slots || !governors)
		abort();
	for (size_t i = 0; i < n; i++) {
		struct kshim_governor *g = &slots[nr_governors];

		g->percpu_start = __start_kshim_percpu;
		g->percpu_stop = __stop_kshim_percpu;
		if (run_initcall(&__start_kshim_initcalls[i], g))
			governors[nr_governors++] = g;
		else
			fprintf(stderr, "kshim: governor %s did not register\n",
				__start_kshim_initcalls[i].meta->name);
	}
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
	return index < nr_governors ? governors[index] : NULL;
}

const struct kshim_governor *kshim_governor_find(const char *name)
{
	kshim_registry_init();
	for (size_t i = 0; i < nr_governors; i++)
		if (strcmp(governors[i]->meta->name, name) == 0)
			return governors[i];
	return NULL;
}

static const struct kshim_governor *refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return NULL;
}

const struct kshim_governor *kshim_registry_add_module(const struct kshim_module_info *info,
							char *err, size_t errlen)
{
	struct kshim_governor **grown, *g;

	kshim_registry_init();
	if (info->abi != KSHIM_MODULE_ABI)
		return refuse(err, errlen, "built for kshim module ABI %u, this teosim has %u: build it again",
			      info->abi, KSHIM_MODULE_ABI);
	if (info->max_cpus != KSHIM_MAX_CPUS)
		return refuse(err, errlen, "built for %u CPUs at most, this teosim for %u: build it again",
			      info->max_cpus, KSHIM_MAX_CPUS);
	if (info->initcalls_stop - info->initcalls_start != 1)
		return refuse(err, errlen, "holds %td governors, a module holds one",
			      info->initcalls_stop - info->initcalls_start);
	if (kshim_governor_find(info->initcalls_start->meta->name))
		return refuse(err, errlen, "its governor is named %s, as one already here is: build it with another name",
			      info->initcalls_start->meta->name);
	grown = realloc(governors, (nr_governors + 1) * sizeof(*governors));
	if (!grown)
		return refuse(err, errlen, "out of memory");
	governors = grown;
	g = calloc(1, sizeof(*g));
	if (!g)
		return refuse(err, errlen, "out of memory");
	g->percpu_start = info->percpu_start;
	g->percpu_stop = info->percpu_stop;
	if (!run_initcall(info->initcalls_start, g)) {
		free(g);
		return refuse(err, errlen, "governor %s did not register",
			      info->initcalls_start->meta->name);
	}
	governors[nr_governors++] = g;
	return g;
}
