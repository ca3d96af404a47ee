// SPDX-License-Identifier: GPL-2.0
/*
 * futex2 sizes: 8, 16, 32 and 64-bit futexes with futex_wait(), futex_wake()
 * and futex_waitv(): values compared at their width only, wakes matching
 * only the same size at the same address, mixed sizes in one futex_waitv().
 */
#include <pthread.h>
#include <stdlib.h>
#include "tap.h"
#include "futex2.h"

static const struct { uint32_t size; const char *name; int bytes; } sizes[] = {
	{ FUTEX2_SIZE_U8, "U8", 1 }, { FUTEX2_SIZE_U16, "U16", 2 },
	{ FUTEX2_SIZE_U32, "U32", 4 }, { FUTEX2_SIZE_U64, "U64", 8 },
};

static union { uint64_t u64[4]; uint8_t u8[32]; } mem __attribute__((aligned(8)));
static struct hx_waitv wv[8];
static int nwv;
static volatile long result;
static volatile pid_t tid;
static char name[128];

#define NAME(...) (snprintf(name, sizeof(name), __VA_ARGS__), name)

static void *waitv_thread(void *arg)
{
	struct timespec ts = deadline_ms(CLOCK_MONOTONIC, 20000);

	(void)arg;
	tid = gettid();
	result = futex_waitv(wv, nwv, 0, &ts, CLOCK_MONOTONIC);
	if (result < 0)
		result = -errno;
	return NULL;
}

/* Start the waiter and return once it sleeps, i.e. all entries are queued. */
static void start_waiter(pthread_t *t)
{
	tid = 0;
	pthread_create(t, NULL, waitv_thread, NULL);
	while (!tid)
		usleep(100);
	wait_task_sleeping(tid);
}

static uint64_t all_ones(int bytes)
{
	return bytes == 8 ? ~0ULL : (1ULL << (8 * bytes)) - 1;
}

static void compare_width(int k)
{
	uint32_t f = sizes[k].size | FUTEX2_PRIVATE;
	uint64_t full = all_ones(sizes[k].bytes);
	struct { int64_t s, ns; } past = { 0, 0 };
	struct timespec tpast = { 0, 0 };

	memset(&mem, 0, sizeof(mem));
	if (sizes[k].bytes < 8)
		mem.u8[sizes[k].bytes] = 0xff;	/* the byte just above the futex */
	tap_errno(futex2_wait(&mem, 0, full, f, &past, CLOCK_MONOTONIC), ETIMEDOUT,
		  NAME("%s futex_wait: bytes beyond the futex are ignored", sizes[k].name));
	mem.u8[sizes[k].bytes - 1] = 1;	/* the futex's most significant byte */
	tap_errno(futex2_wait(&mem, 0, full, f, &past, CLOCK_MONOTONIC), EAGAIN,
		  NAME("%s futex_wait: its top byte is compared", sizes[k].name));
	memset(&mem, 0, sizeof(mem));
	memset(&mem, 0xff, sizes[k].bytes);
	waitv_set(&wv[0], &mem, full, f);
	tap_errno(futex_waitv(wv, 1, 0, &tpast, CLOCK_MONOTONIC), ETIMEDOUT,
		  NAME("%s futex_waitv: all-ones value matches", sizes[k].name));
	waitv_set(&wv[0], &mem, full - 1, f);
	tap_errno(futex_waitv(wv, 1, 0, &tpast, CLOCK_MONOTONIC), EAGAIN,
		  NAME("%s futex_waitv: low bit differs", sizes[k].name));
	tap_errno(futex2_wake(&mem, full, 1, f), 0,
		  NAME("%s futex_wake: all-ones mask accepted", sizes[k].name));
	if (sizes[k].bytes < 8)
		tap_errno(futex2_wake(&mem, full + 1, 1, f), EINVAL,
			  NAME("%s futex_wake: mask wider than the size", sizes[k].name));
}

static void wake_matches_size(int k)
{
	uint32_t f = sizes[k].size | FUTEX2_PRIVATE;
	int other = (k + 1) % 4;
	pthread_t t;
	long r, r2;

	memset(&mem, 0, sizeof(mem));
	nwv = 1;
	waitv_set(&wv[0], &mem, 0, f);
	start_waiter(&t);
	r = futex2_wake(&mem, 0xff, 1, sizes[other].size | FUTEX2_PRIVATE);
	r2 = futex2_wake(&mem, 0xff, 1, f);
	pthread_join(t, NULL);
	tap_result(r == 0, "%s waiter: a %s wake at the same address wakes nobody (woke %ld)",
		   sizes[k].name, sizes[other].name, r);
	tap_result(r2 == 1 && result == 0, "%s waiter: a %s wake wakes it (woke %ld, index %ld)",
		   sizes[k].name, sizes[k].name, r2, result);
}

/* One waitv over all four sizes in distinct words; wake each in turn. */
static void mixed(void)
{
	void *addr[4] = { &mem.u8[1], &mem.u8[2], &mem.u8[4], &mem.u8[8] };
	int k, bad = 0;

	for (k = 0; k < 4; k++) {
		pthread_t t;
		long r;
		int j;

		memset(&mem, 0, sizeof(mem));
		nwv = 4;
		for (j = 0; j < 4; j++)
			waitv_set(&wv[j], addr[j], 0, sizes[j].size | FUTEX2_PRIVATE);
		start_waiter(&t);
		r = futex2_wake(addr[k], 0xff, 1, sizes[k].size | FUTEX2_PRIVATE);
		pthread_join(t, NULL);
		if (r != 1 || result != k) {
			printf("# mixed: waking %s woke %ld, returned %ld\n", sizes[k].name, r, result);
			bad++;
		}
	}
	tap_result(bad == 0, "mixed U8/U16/U32/U64 in one futex_waitv: each wake returns its index");

	/* and a mismatch in any of them is EAGAIN */
	memset(&mem, 0, sizeof(mem));
	mem.u8[8] = 1;
	for (k = 0; k < 4; k++)
		waitv_set(&wv[k], addr[k], 0, sizes[k].size | FUTEX2_PRIVATE);
	tap_errno(futex_waitv(wv, 4, 0, NULL, 0), EAGAIN, "mixed sizes: U64 mismatch is EAGAIN");
}

int main(void)
{
	int k;

	for (k = 0; k < 4; k++)
		compare_width(k);
	for (k = 0; k < 4; k++)
		wake_matches_size(k);
	mixed();
	return tap_done();
}
