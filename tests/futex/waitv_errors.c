// SPDX-License-Identifier: GPL-2.0
/*
 * futex_waitv(): every documented error, each as its own case, with the
 * exact errno, in the order the kernel checks them.
 */
#include <sys/mman.h>
#include <stdlib.h>
#include "tap.h"
#include "futex2.h"

#define P32 (FUTEX2_SIZE_U32 | FUTEX2_PRIVATE)

static uint32_t w32[4] __attribute__((aligned(8)));
static void *unmapped;

static long wait1(void *uaddr, uint64_t val, uint32_t flags)
{
	struct hx_waitv w;
	struct timespec ts = { 0, 0 };	/* already expired: never sleeps */

	waitv_set(&w, uaddr, val, flags);
	return futex_waitv(&w, 1, 0, &ts, CLOCK_MONOTONIC);
}

static void arguments(void)
{
	struct hx_waitv w[WAITV_MAX + 1];
	struct timespec ts = { 0, 0 };
	int i;

	for (i = 0; i <= WAITV_MAX; i++)
		waitv_set(&w[i], &w32[0], 0, P32);
	tap_errno(futex_waitv(w, 1, 1, &ts, CLOCK_MONOTONIC), EINVAL, "syscall flags 1");
	tap_errno(futex_waitv(w, 1, 0x80, &ts, CLOCK_MONOTONIC), EINVAL, "syscall flags FUTEX2_PRIVATE");
	tap_errno(futex_waitv(w, 0, 0, &ts, CLOCK_MONOTONIC), EINVAL, "nr_futexes 0");
	tap_errno(futex_waitv(w, WAITV_MAX + 1, 0, &ts, CLOCK_MONOTONIC), EINVAL, "nr_futexes 129");
	tap_errno(futex_waitv(NULL, 1, 0, &ts, CLOCK_MONOTONIC), EINVAL, "waiters NULL");
	tap_errno(futex_waitv(unmapped, 1, 0, &ts, CLOCK_MONOTONIC), EFAULT, "waiters unmapped");
	tap_errno(futex_waitv(w, WAITV_MAX, 0, &ts, CLOCK_MONOTONIC), ETIMEDOUT,
		  "128 entries on one address, expired deadline");
	tap_errno(futex_waitv(NULL, 0, 0, NULL, 0), EINVAL, "Proton probe (NULL, 0, 0, NULL, 0)");
}

static void timeouts(void)
{
	struct hx_waitv w;
	struct { int64_t s, ns; } bad[] = { { 0, 1000000000 }, { 0, -1 }, { -1, 0 } };
	const char *what[] = { "tv_nsec 1e9", "tv_nsec -1", "tv_sec -1" };
	unsigned int i;

	waitv_set(&w, &w32[0], 0, P32);
	for (i = 0; i < 3; i++)
		tap_errno(futex_waitv_raw(&w, 1, 0, &bad[i], CLOCK_MONOTONIC), EINVAL, what[i]);
	tap_errno(futex_waitv_raw(&w, 1, 0, unmapped, CLOCK_MONOTONIC), EFAULT, "timeout unmapped");
	tap_errno(futex_waitv_raw(&w, 1, 0, &bad[0], CLOCK_TAI), EINVAL, "CLOCK_TAI");
	tap_errno(futex_waitv_raw(&w, 1, 0, &bad[0], CLOCK_BOOTTIME), EINVAL, "CLOCK_BOOTTIME");
	tap_errno(futex_waitv_raw(&w, 1, 0, unmapped, 999), EINVAL,
		  "bad clockid is checked before the timeout is read");
	w.val = 1;	/* mismatch: returns at once */
	tap_errno(futex_waitv_raw(&w, 1, 0, NULL, 999), EAGAIN, "clockid ignored without timeout");
}

static void entries(void)
{
	static const struct { uint32_t flags; const char *name; } badflags[] = {
		{ P32 | 0x04, "FUTEX2_NUMA" }, { P32 | 0x08, "flag 0x08" },
		{ P32 | 0x10, "flag 0x10" }, { P32 | 0x100, "flag 0x100" },
		{ P32 | 0x80000000u, "flag 0x80000000" },
	};
	struct hx_waitv w[3];
	struct timespec ts = { 0, 0 };
	unsigned int i;
	char name[64];
	uint8_t *b = (uint8_t *)w32;

	for (i = 0; i < sizeof(badflags) / sizeof(badflags[0]); i++)
		tap_errno(wait1(&w32[0], 0, badflags[i].flags), EINVAL, badflags[i].name);

	waitv_set(&w[0], &w32[0], 0, P32);
	w[0].reserved = 1;
	tap_errno(futex_waitv(w, 1, 0, &ts, CLOCK_MONOTONIC), EINVAL, "__reserved 1");
	w[0].reserved = 0x80000000u;
	tap_errno(futex_waitv(w, 1, 0, &ts, CLOCK_MONOTONIC), EINVAL, "__reserved 0x80000000");

	/* val must fit the size */
	tap_errno(wait1(b, 0x100, FUTEX2_SIZE_U8 | FUTEX2_PRIVATE), EINVAL, "U8 val 0x100");
	tap_errno(wait1(b, 0x10000, FUTEX2_SIZE_U16 | FUTEX2_PRIVATE), EINVAL, "U16 val 0x10000");
	tap_errno(wait1(b, 1ULL << 32, P32), EINVAL, "U32 val 1<<32");
	tap_errno(wait1(b, 0xff, FUTEX2_SIZE_U8 | FUTEX2_PRIVATE), EAGAIN, "U8 val 0xff fits");

	/* natural alignment per size */
	tap_errno(wait1(b + 1, 0, FUTEX2_SIZE_U8 | FUTEX2_PRIVATE), ETIMEDOUT, "U8 at odd address is fine");
	tap_errno(wait1(b + 1, 0, FUTEX2_SIZE_U16 | FUTEX2_PRIVATE), EINVAL, "U16 at odd address");
	tap_errno(wait1(b + 2, 0, FUTEX2_SIZE_U16 | FUTEX2_PRIVATE), ETIMEDOUT, "U16 at +2 is fine");
	tap_errno(wait1(b + 2, 0, P32), EINVAL, "U32 at +2");
	tap_errno(wait1(b + 4, 0, FUTEX2_SIZE_U64 | FUTEX2_PRIVATE), EINVAL, "U64 at +4");
	tap_errno(wait1(b + 1, 0, FUTEX2_SIZE_U32), EINVAL, "shared U32 at +1");

	/* addresses that cannot be read */
	tap_errno(wait1(NULL, 0, P32), EFAULT, "private NULL uaddr");
	tap_errno(wait1(NULL, 0, FUTEX2_SIZE_U32), EFAULT, "shared NULL uaddr");
	tap_errno(wait1(unmapped, 0, P32), EFAULT, "private unmapped uaddr");
	tap_errno(wait1(unmapped, 0, FUTEX2_SIZE_U32), EFAULT, "shared unmapped uaddr");

	/* all entries are parsed before any value is compared */
	waitv_set(&w[0], &w32[0], 1, P32);	/* mismatch */
	waitv_set(&w[1], &w32[1], 0, P32 | 0x100);
	tap_errno(futex_waitv(w, 2, 0, &ts, CLOCK_MONOTONIC), EINVAL,
		  "bad flags at index 1 win over a mismatch at index 0");

	/* a mismatch before a fault is EAGAIN, a fault before a mismatch EFAULT */
	waitv_set(&w[0], &w32[0], 1, P32);
	waitv_set(&w[1], unmapped, 0, P32);
	tap_errno(futex_waitv(w, 2, 0, &ts, CLOCK_MONOTONIC), EAGAIN, "mismatch at 0, fault at 1");
	waitv_set(&w[0], unmapped, 0, P32);
	waitv_set(&w[1], &w32[1], 1, P32);
	tap_errno(futex_waitv(w, 2, 0, &ts, CLOCK_MONOTONIC), EFAULT, "fault at 0, mismatch at 1");

	for (i = 0; i < 3; i++) {
		int k;

		for (k = 0; k < 3; k++)
			waitv_set(&w[k], &w32[k], k == (int)i, P32);
		snprintf(name, sizeof(name), "mismatch at index %u", i);
		tap_errno(futex_waitv(w, 3, 0, NULL, 0), EAGAIN, name);
		/* and nothing stays queued: a wake finds no waiter */
		tap_result(futex1_wake(&w32[0], 10, 1) == 0 && futex1_wake(&w32[1], 10, 1) == 0 &&
			   futex1_wake(&w32[2], 10, 1) == 0,
			   "no waiter left queued after the mismatch at %u", i);
	}
}

/*
 * An array whose second entry lies on an unmapped page: the first entry is
 * still checked first, so its own error wins over the fault.
 */
static void array_across_unmapped_page(void)
{
	char *pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct hx_waitv *w = (struct hx_waitv *)(pages + 4096 - sizeof(*w));
	struct timespec ts = { 0, 0 };

	munmap(pages + 4096, 4096);
	waitv_set(w, &w32[0], 0, P32 | 0x100);
	tap_errno(futex_waitv(w, 2, 0, &ts, CLOCK_MONOTONIC), EINVAL,
		  "bad entry 0 before an unreadable entry 1");
	waitv_set(w, &w32[0], 0, P32);
	tap_errno(futex_waitv(w, 2, 0, &ts, CLOCK_MONOTONIC), EFAULT,
		  "good entry 0 before an unreadable entry 1");
	tap_errno(futex_waitv(w, 1, 0, &ts, CLOCK_MONOTONIC), ETIMEDOUT,
		  "the readable entry alone is fine");
	munmap(pages, 4096);
}

int main(void)
{
	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(unmapped, 4096);
	arguments();
	timeouts();
	entries();
	array_across_unmapped_page();
	return tap_done();
}
