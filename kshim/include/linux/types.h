/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel integer types, with the widths and signedness of x86-64 kernels. */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef signed char s8;
typedef unsigned char u8;
typedef short s16;
typedef unsigned short u16;
typedef int s32;
typedef unsigned int u32;
typedef long long s64;
typedef unsigned long long u64;

typedef s64 ktime_t;

#endif /* _LINUX_TYPES_H */
