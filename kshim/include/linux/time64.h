/* SPDX-License-Identifier: GPL-2.0 */
/* Unit constants; their types (long) match the kernel's, which matters in mixed-sign comparisons. */
#ifndef _LINUX_TIME64_H
#define _LINUX_TIME64_H

#define MSEC_PER_SEC	1000L
#define USEC_PER_MSEC	1000L
#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define USEC_PER_SEC	1000000L
#define NSEC_PER_SEC	1000000000L

#endif /* _LINUX_TIME64_H */
