// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-input.h"

#define FUZZ_SLOTS	4

static int slot_fd[FUZZ_SLOTS];
static char slot_path[FUZZ_SLOTS][32];

_Noreturn void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: harness invariant does not hold: %s\n", file, line, what);
	abort();
}

const char *fuzz_input_path(unsigned int slot, const uint8_t *data, size_t size)
{
	FUZZ_ASSERT(slot < FUZZ_SLOTS);
	if (!slot_fd[slot]) {
		slot_fd[slot] = memfd_create("teosim-fuzz", 0);
		FUZZ_ASSERT(slot_fd[slot] > 0);
		snprintf(slot_path[slot], sizeof(slot_path[slot]), "/proc/self/fd/%d",
			 slot_fd[slot]);
	}
	FUZZ_ASSERT(ftruncate(slot_fd[slot], 0) == 0);
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(slot_fd[slot], data + done, size - done, (off_t)done);

		FUZZ_ASSERT(n > 0);
		done += (size_t)n;
	}
	return slot_path[slot];
}

const char *fuzz_slot_path(unsigned int slot)
{
	FUZZ_ASSERT(slot < FUZZ_SLOTS && slot_fd[slot]);
	return slot_path[slot];
}

FILE *fuzz_output(unsigned int slot)
{
	FILE *out = fopen(fuzz_input_path(slot, NULL, 0), "w");

	FUZZ_ASSERT(out);
	return out;
}

static char *slot_contents(unsigned int slot, size_t *size)
{
	off_t end = lseek(slot_fd[slot], 0, SEEK_END);
	char *buf;

	FUZZ_ASSERT(end >= 0);
	buf = malloc((size_t)end + 1);
	FUZZ_ASSERT(buf);
	FUZZ_ASSERT(pread(slot_fd[slot], buf, (size_t)end, 0) == end);
	*size = (size_t)end;
	return buf;
}

bool fuzz_same_contents(unsigned int a, unsigned int b)
{
	size_t size_a, size_b;
	char *text_a = slot_contents(a, &size_a);
	char *text_b = slot_contents(b, &size_b);
	bool same = size_a == size_b && !memcmp(text_a, text_b, size_a);

	free(text_a);
	free(text_b);
	return same;
}
