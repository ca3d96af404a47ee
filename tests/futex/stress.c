// SPDX-License-Identifier: GPL-2.0
/*
 * Stress: counting semaphores built on futex_waitv.  Producers post tokens
 * to 16 semaphores (increment, then wake one waiter); consumer threads each
 * wait on a different subset of them and take a token from whichever woke.
 * Every post must be consumed exactly once, and no consumer may sleep out
 * its (generous) deadline while tokens are available: a lost wake-up shows
 * as a timeout or a count mismatch.  Runs a fixed amount of work.
 */
#include <pthread.h>
#include <stdlib.h>
#include "tap.h"
#include "futex2.h"

#define NSEM		16
#define NCONSUMERS	6
#define NPRODUCERS	2
#define PER_SEM_WAIT	8
#define POSTS		20000	/* per producer */

static uint32_t sem[NSEM];
static long consumed[NCONSUMERS];
static long timeouts, errors;
static volatile int producers_done;

static int try_take(uint32_t *s)
{
	uint32_t v = __atomic_load_n(s, __ATOMIC_ACQUIRE);

	while (v > 0) {
		if (__atomic_compare_exchange_n(s, &v, v - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return 1;
	}
	return 0;
}

static void *consumer(void *arg)
{
	long id = (long)arg;
	struct hx_waitv w[PER_SEM_WAIT];
	int idx[PER_SEM_WAIT];
	int i;

	for (i = 0; i < PER_SEM_WAIT; i++)
		idx[i] = (id * 3 + i * 2) % NSEM;
	for (;;) {
		int got = 0;
		struct timespec ts;
		long r;

		for (i = 0; i < PER_SEM_WAIT && !got; i++)
			got = try_take(&sem[idx[i]]);
		if (got) {
			consumed[id]++;
			continue;
		}
		if (producers_done)
			return NULL;
		for (i = 0; i < PER_SEM_WAIT; i++)
			waitv_set(&w[i], &sem[idx[i]], 0, FUTEX2_SIZE_U32 | FUTEX2_PRIVATE);
		ts = deadline_ms(CLOCK_MONOTONIC, 30000);
		r = futex_waitv(w, PER_SEM_WAIT, 0, &ts, CLOCK_MONOTONIC);
		if (r < 0 && errno == ETIMEDOUT)
			__atomic_fetch_add(&timeouts, 1, __ATOMIC_RELAXED);
		else if (r < 0 && errno != EAGAIN)
			__atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED);
	}
}

static void *producer(void *arg)
{
	unsigned int seed = (unsigned long)arg;
	int i;

	for (i = 0; i < POSTS; i++) {
		int s = rand_r(&seed) % NSEM;

		__atomic_fetch_add(&sem[s], 1, __ATOMIC_RELEASE);
		futex1_wake(&sem[s], 1, 1);
	}
	return NULL;
}

int main(void)
{
	pthread_t c[NCONSUMERS], p[NPRODUCERS];
	long total = 0, left = 0, release_left = 0;
	long i;

	for (i = 0; i < NCONSUMERS; i++)
		pthread_create(&c[i], NULL, consumer, (void *)i);
	for (i = 0; i < NPRODUCERS; i++)
		pthread_create(&p[i], NULL, producer, (void *)(i + 1));
	for (i = 0; i < NPRODUCERS; i++)
		pthread_join(p[i], NULL);
	/* Let the consumers drain, then release them. */
	for (i = 0; i < 20000; i++) {
		long sum = 0;
		int k;

		for (k = 0; k < NSEM; k++)
			sum += __atomic_load_n(&sem[k], __ATOMIC_ACQUIRE);
		if (!sum)
			break;
		usleep(1000);
	}
	producers_done = 1;
	for (i = 0; i < NSEM; i++) {
		left += sem[i];
		__atomic_fetch_add(&sem[i], 1, __ATOMIC_RELEASE);	/* wake everyone */
		futex1_wake(&sem[i], NCONSUMERS, 1);
	}
	for (i = 0; i < NCONSUMERS; i++) {
		pthread_join(c[i], NULL);
		total += consumed[i];
	}
	/* The NSEM release tokens may or may not have been taken: subtract those taken. */
	for (i = 0; i < NSEM; i++)
		release_left += sem[i];
	total -= NSEM - release_left;
	tap_result(left == 0, "all tokens were consumed before the release (%ld left)", left);
	tap_result(total == NPRODUCERS * POSTS, "every post consumed exactly once: %ld of %d",
		   total, NPRODUCERS * POSTS);
	tap_result(timeouts == 0, "no consumer slept out its deadline with tokens pending (%ld)", timeouts);
	tap_result(errors == 0, "no unexpected futex_waitv errors (%ld)", errors);
	return tap_done();
}
