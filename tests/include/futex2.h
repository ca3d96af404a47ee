/* SPDX-License-Identifier: GPL-2.0 */
/* Raw futex2 / futex_waitv syscall wrappers for the tests (no libc support). */
#ifndef HX_FUTEX2_H
#define HX_FUTEX2_H

#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NR_futex_waitv		449
#define NR_futex_wake		454
#define NR_futex_wait		455
#define NR_futex_requeue	456

#ifndef FUTEX2_SIZE_U8
#define FUTEX2_SIZE_U8		0x00
#define FUTEX2_SIZE_U16		0x01
#define FUTEX2_SIZE_U32		0x02
#define FUTEX2_SIZE_U64		0x03
#define FUTEX2_NUMA		0x04
#define FUTEX2_PRIVATE		128
#endif
#define WAITV_MAX		128

struct hx_waitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

_Static_assert(sizeof(struct hx_waitv) == 24, "struct futex_waitv is 24 bytes");

static inline long futex_waitv(struct hx_waitv *w, unsigned int nr, unsigned int flags,
			       struct timespec *abs, int clockid)
{
	/* struct __kernel_timespec: 64-bit seconds and nanoseconds on every ABI */
	struct { int64_t tv_sec; int64_t tv_nsec; } kts, *p = NULL;

	if (abs) {
		kts.tv_sec = abs->tv_sec;
		kts.tv_nsec = abs->tv_nsec;
		p = &kts;
	}
	return syscall(NR_futex_waitv, w, nr, flags, p, clockid);
}

/* futex_waitv with a raw (possibly bad) timeout pointer */
static inline long futex_waitv_raw(void *w, unsigned int nr, unsigned int flags,
				   void *ts, int clockid)
{
	return syscall(NR_futex_waitv, w, nr, flags, ts, clockid);
}

static inline long futex2_wake(void *uaddr, unsigned long mask, int nr, unsigned int flags)
{
	return syscall(NR_futex_wake, uaddr, mask, nr, flags);
}

static inline long futex2_wait(void *uaddr, unsigned long val, unsigned long mask,
			       unsigned int flags, void *ts, int clockid)
{
	return syscall(NR_futex_wait, uaddr, val, mask, flags, ts, clockid);
}

static inline long futex1_wake(void *uaddr, int nr, int private)
{
	return syscall(SYS_futex, uaddr, private ? FUTEX_WAKE_PRIVATE : FUTEX_WAKE,
		       nr, NULL, NULL, 0);
}

static inline void waitv_set(struct hx_waitv *w, void *uaddr, uint64_t val, uint32_t flags)
{
	w->val = val;
	w->uaddr = (uintptr_t)uaddr;
	w->flags = flags;
	w->reserved = 0;
}

/* An absolute deadline @ms milliseconds from now on @clock. */
static inline struct timespec deadline_ms(int clock, long ms)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

/*
 * futex_waitv() on @n private 32-bit futexes @words[0..n-1] that must hold 0,
 * with a CLOCK_MONOTONIC deadline @ms from now; at most 8 futexes.
 */
static inline long waitv_zero_words(uint32_t *words, int n, long ms)
{
	struct hx_waitv w[8];
	struct timespec ts = deadline_ms(CLOCK_MONOTONIC, ms);
	int i;

	for (i = 0; i < n && i < 8; i++)
		waitv_set(&w[i], &words[i], 0, FUTEX2_SIZE_U32 | FUTEX2_PRIVATE);
	return futex_waitv(w, i, 0, &ts, CLOCK_MONOTONIC);
}

/*
 * Wait until thread @tid of this process sleeps (state S in its stat file):
 * a thread in futex_waitv() only sleeps once all its entries are queued.
 * Returns 1 when it does, 0 after about 10 s.
 */
static inline int wait_task_sleeping(pid_t tid)
{
	char path[64], buf[256], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	for (i = 0; i < 40000; i++) {
		FILE *f = fopen(path, "r");

		usleep(250);
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
		p = p ? strrchr(buf, ')') : NULL;
		if (p && p[2] == 'S')
			return 1;
	}
	return 0;
}

#endif
