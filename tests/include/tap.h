/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP output for the in-VM test programs: one "ok"/"not ok" line per
 * check, a plan at the end, and an exit status that says whether all passed.
 */
#ifndef HX_TAP_H
#define HX_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

static inline void tap_result(int pass, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!pass)
		tap_failed++;
}

static inline void tap_skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_count, why);
	fflush(stdout);
}

/* Expect a syscall-style result: -1 with errno @err (0: expect success). */
#define tap_errno(ret, err, name)					\
	do {								\
		long __r = (ret);					\
		int __e = __r == -1 ? errno : 0;			\
		if (err)						\
			tap_result(__r == -1 && __e == (err),		\
				   "%s: errno %s (got ret %ld, %s)",	\
				   name, strerrorname_np(err), __r,	\
				   __e ? strerrorname_np(__e) : "no error"); \
		else							\
			tap_result(__r != -1, "%s: succeeds (got ret %ld, %s)", \
				   name, __r, __e ? strerrorname_np(__e) : "no error"); \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
