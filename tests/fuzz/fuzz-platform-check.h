/* SPDX-License-Identifier: GPL-2.0 */
/* For the platform harnesses: what teosim accepts as a platform, it writes in a form it reads back. */
#ifndef TEOSIM_FUZZ_PLATFORM_CHECK_H
#define TEOSIM_FUZZ_PLATFORM_CHECK_H

/*
 * Loads spec (platform_load()); when it is accepted, writes it as a key
 * file, which must load again and be written the same way a second time.
 */
void fuzz_platform_round_trip(const char *spec);

#endif /* TEOSIM_FUZZ_PLATFORM_CHECK_H */
