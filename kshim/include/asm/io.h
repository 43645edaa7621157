/* SPDX-License-Identifier: GPL-2.0 */
/* Included by a governor for nothing it uses here; empty on purpose. */
#ifndef _ASM_IO_H
#define _ASM_IO_H

#endif /* _ASM_IO_H */
