/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One entry of the "kshim_initcalls" section: a governor object's initcall
 * with the object's identity and its API generation's core.
 *
 * The build compiles each governor source with
 *   -DKSHIM_API=<generation> -DKSHIM_GOVERNOR_META=<symbol>
 * where <symbol> is a struct kshim_governor_meta generated beside it
 * (name, origin, path, SHA-256 of the exact file compiled).
 */
#ifndef KSHIM_INITCALL_H
#define KSHIM_INITCALL_H

#include <kshim/core.h>
#include <kshim/registry.h>

struct kshim_initcall {
	int (*fn)(void);
	const struct kshim_governor_meta *meta;
	const struct kshim_core_ops *core;
};

#define __kshim_core_for(api)	__kshim_core_for2(api)
#define __kshim_core_for2(api)	kshim_core_##api

#define KSHIM_INITCALL(initfn)						\
	extern const struct kshim_governor_meta KSHIM_GOVERNOR_META;	\
	static const struct kshim_initcall __kshim_initcall_##initfn	\
	__attribute__((used, section("kshim_initcalls"),		\
		       aligned(sizeof(void *)))) = {			\
		.fn = initfn,						\
		.meta = &KSHIM_GOVERNOR_META,				\
		.core = &__kshim_core_for(KSHIM_API),			\
	}

#endif /* KSHIM_INITCALL_H */
