/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the ntfs3 host unit tests: TAP output (the in-VM tests'
 * tests/include/tap.h), comment lines, reproducible random numbers, and
 * the name order of the attribute models.
 */
#ifndef NTFS_UNITS_H
#define NTFS_UNITS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "../../include/tap.h"

static inline void __attribute__((format(printf, 1, 2)))
diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* xorshift64*: the same numbers on every run. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static inline uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* In [0, n), n > 0. */
static inline uint64_t rnd_below(uint64_t n)
{
	return rnd() % n;
}

/*
 * The order of two attribute names in a model, written independently of
 * attrrec.c: upcased (through @up, ASCII only), then the shorter first,
 * then the exact units.
 */
static inline int model_name_cmp(const uint16_t *x, unsigned int xl, const uint16_t *y,
				 unsigned int yl, const uint16_t *up)
{
	unsigned int i, n = xl < yl ? xl : yl;

	for (i = 0; i < n; i++) {
		uint16_t a = x[i] < 128 ? up[x[i]] : x[i];
		uint16_t b = y[i] < 128 ? up[y[i]] : y[i];

		if (a != b)
			return a < b ? -1 : 1;
	}
	if (xl != yl)
		return xl < yl ? -1 : 1;
	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

#endif
