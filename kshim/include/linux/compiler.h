/* SPDX-License-Identifier: GPL-2.0 */
/* Branch hints and attributes the governors use; they change no behaviour. */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* glibc's sys/cdefs.h defines it too, with the same meaning. */
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __maybe_unused	__attribute__((__unused__))

#endif /* _LINUX_COMPILER_H */
