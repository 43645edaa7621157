/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the fuzz harnesses (fuzz-*.c beside each reader): teosim's readers take paths, so each
 * input is handed to them as a file.  The file lives in memory (memfd) and
 * is rewritten for every input; its path stays the same.
 */
#ifndef TEOSIM_FUZZ_INPUT_H
#define TEOSIM_FUZZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A path that reads as data[0..size) until the next call with the same slot. */
const char *fuzz_input_path(unsigned int slot, const uint8_t *data, size_t size);

/* The path of a slot's file as last written. */
const char *fuzz_slot_path(unsigned int slot);

/* A slot's file, emptied, opened for writing: an output to read back. */
FILE *fuzz_output(unsigned int slot);

/* Whether two slots hold the same bytes. */
bool fuzz_same_contents(unsigned int a, unsigned int b);

/* A harness's invariant does not hold: report it as the crash it is. */
#define FUZZ_ASSERT(cond) \
	((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #cond))
_Noreturn void fuzz_fail(const char *file, int line, const char *what);

/* The engine's entry point, defined by each harness. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* TEOSIM_FUZZ_INPUT_H */
