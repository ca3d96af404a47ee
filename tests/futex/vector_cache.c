// SPDX-License-Identifier: GPL-2.0
/*
 * One thread calls futex_waitv() again and again while the entries change
 * between calls: a different address, size or private flag at an index, a
 * requeue that moved an entry, a vector that grows and shrinks.  The kernel
 * keeps each thread's vector between calls and reuses private keys; every
 * call must still wait on exactly the futexes it was given.
 */
#include <pthread.h>
#include "tap.h"
#include "futex2.h"

#define P32 (FUTEX2_SIZE_U32 | FUTEX2_PRIVATE)

static uint32_t w[8], big[WAITV_MAX], x __attribute__((aligned(8))), y;
static struct hx_waitv vec[WAITV_MAX];
static int nvec;
static volatile int go, entered, done;
static int calls;
static volatile long result;
static pid_t waiter_tid;

static void *waiter(void *arg)
{
	struct timespec ts;
	int round = 0;

	(void)arg;
	waiter_tid = gettid();
	for (;;) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) == round)
			;
		round = go;
		if (round < 0)
			return NULL;
		ts = deadline_ms(CLOCK_MONOTONIC, 20000);
		__atomic_store_n(&entered, round, __ATOMIC_RELEASE);
		result = futex_waitv(vec, nvec, 0, &ts, CLOCK_MONOTONIC);
		if (result < 0)
			result = -errno;
		__atomic_store_n(&done, round, __ATOMIC_RELEASE);
	}
}

/* Start the waiter's next call and return once it sleeps in it. */
static int start_call(void)
{
	__atomic_store_n(&go, ++calls, __ATOMIC_RELEASE);
	while (__atomic_load_n(&entered, __ATOMIC_ACQUIRE) != calls)
		;
	return wait_task_sleeping(waiter_tid);
}

static long finish_call(void)
{
	while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) != go)
		;
	return result;
}

static void set_words(uint32_t *words, int n, uint32_t flags)
{
	int i;

	nvec = n;
	for (i = 0; i < n; i++)
		waitv_set(&vec[i], &words[i], 0, flags);
}

static long wake32(void *uaddr, int private)
{
	return futex1_wake(uaddr, 1, private);
}

/*
 * The waiter shows as sleeping ('S') from the moment futex_waitv() sets
 * its task state, which comes before all entries are queued; with 128
 * entries on a loaded emulator a wake can arrive in between.  A wake that
 * must find the waiter retries for up to 5 s; one that never finds it
 * still fails (and the waiter then times out).
 */
#define RETRY_WHILE_ZERO(expr)						\
({									\
	long __r = 0;							\
	for (int __i = 0; __i < 5000 && !(__r = (expr)); __i++)		\
		usleep(1000);						\
	__r;								\
})

int main(void)
{
	long r, stale, fresh;
	pthread_t t;
	int i, asleep;

	pthread_create(&t, NULL, waiter, NULL);

	set_words(w, 8, P32);
	asleep = start_call();
	r = RETRY_WHILE_ZERO(wake32(&w[3], 1));
	tap_result(asleep && r == 1 && finish_call() == 3,
		   "first call: a wake at index 3 returns 3 (woke %ld)", r);

	waitv_set(&vec[3], &x, 0, P32);
	asleep = start_call();
	stale = wake32(&w[3], 1);
	fresh = RETRY_WHILE_ZERO(wake32(&x, 1));
	tap_result(asleep && stale == 0 && fresh == 1 && finish_call() == 3,
		   "index 3 moved to another address: old one finds nobody (%ld), new one wakes (%ld)",
		   stale, fresh);

	waitv_set(&vec[3], &x, 0, FUTEX2_SIZE_U16 | FUTEX2_PRIVATE);
	asleep = start_call();
	stale = futex2_wake(&x, 0xffffffffUL, 1, P32);
	fresh = RETRY_WHILE_ZERO(futex2_wake(&x, 0xffff, 1, FUTEX2_SIZE_U16 | FUTEX2_PRIVATE));
	tap_result(asleep && stale == 0 && fresh == 1 && finish_call() == 3,
		   "index 3 changed to U16 at the same address: U32 wake finds nobody (%ld), U16 wakes (%ld)",
		   stale, fresh);

	set_words(w, 8, P32);
	waitv_set(&vec[5], &w[5], 0, FUTEX2_SIZE_U32);
	asleep = start_call();
	stale = wake32(&w[5], 1);
	fresh = RETRY_WHILE_ZERO(wake32(&w[5], 0));
	tap_result(asleep && stale == 0 && fresh == 1 && finish_call() == 5,
		   "index 5 changed to shared: private wake finds nobody (%ld), shared wakes (%ld)",
		   stale, fresh);

	set_words(w, 8, P32);
	asleep = start_call();
	r = RETRY_WHILE_ZERO(syscall(SYS_futex, &w[6], FUTEX_CMP_REQUEUE_PRIVATE, 0, 1, &y, 0));
	fresh = RETRY_WHILE_ZERO(wake32(&y, 1));
	tap_result(asleep && r == 1 && fresh == 1 && finish_call() == 6,
		   "entry 6 requeued to another futex and woken there (moved %ld, woke %ld)", r, fresh);

	asleep = start_call();
	stale = wake32(&y, 1);
	fresh = RETRY_WHILE_ZERO(wake32(&w[6], 1));
	tap_result(asleep && stale == 0 && fresh == 1 && finish_call() == 6,
		   "next call after the requeue waits at index 6's own address (%ld, %ld)",
		   stale, fresh);

	set_words(big, WAITV_MAX, P32);
	asleep = start_call();
	r = RETRY_WHILE_ZERO(wake32(&big[WAITV_MAX - 1], 1));
	tap_result(asleep && r == 1 && finish_call() == WAITV_MAX - 1,
		   "vector grown to 128 entries: index 127 woken (%ld)", r);

	set_words(w, 8, P32);
	asleep = start_call();
	stale = wake32(&big[1], 1);
	fresh = RETRY_WHILE_ZERO(wake32(&w[1], 1));
	tap_result(asleep && stale == 0 && fresh == 1 && finish_call() == 1,
		   "back to 8 entries: the 128-entry call's futex finds nobody (%ld), index 1 wakes (%ld)",
		   stale, fresh);

	w[2] = 1;
	__atomic_store_n(&go, ++calls, __ATOMIC_RELEASE);
	r = finish_call();
	w[2] = 0;
	tap_result(r == -EAGAIN, "value changed at index 2 of an unchanged vector: EAGAIN (%ld)", r);

	r = 0;
	for (i = 0; i < 8; i++)
		r += wake32(&w[i], 1) + wake32(&big[i], 1);
	r += wake32(&x, 1) + wake32(&y, 1) + wake32(&big[WAITV_MAX - 1], 1);
	tap_result(r == 0, "no entry is left queued afterwards (%ld woken)", r);

	__atomic_store_n(&go, -1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	return tap_done();
}
