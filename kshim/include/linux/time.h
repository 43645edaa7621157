/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TIME_H
#define _LINUX_TIME_H

#include <linux/time64.h>

#endif /* _LINUX_TIME_H */
