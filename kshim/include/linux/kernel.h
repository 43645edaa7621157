/* SPDX-License-Identifier: GPL-2.0 */
/* The grab bag: limits, min/max, WARN_ON, and the headers the kernel's kernel.h pulls in. */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <limits.h>

#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		((s64)(-S64_MAX - 1))

#endif /* _LINUX_KERNEL_H */
