// SPDX-License-Identifier: GPL-2.0
/*
 * FUTEX_WAIT_REQUEUE_PI waiters that time out or take signals while
 * FUTEX_CMP_REQUEUE_PI keeps moving them to a PI futex: the early
 * wake-up races the requeue (the requeue-PI handshake in
 * kernel/futex/requeue.c; on PREEMPT_RT the hash bucket locks sleep).
 *
 * Every return must be one the ABI allows (0 = the PI lock is ours,
 * ETIMEDOUT, EAGAIN), the lock word must name the caller exactly when it
 * returned 0, no two threads may ever own the lock at once, and the lock
 * must end free.  A hang is caught by alarm().
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "tap.h"
#include "futex2.h"

#define WAITERS		6
#define RUN_SECONDS	3
#define WATCHDOG	60
#define PRIV		FUTEX_PRIVATE_FLAG

static _Atomic uint32_t cond_word;	/* the plain futex (uaddr1) */
static _Atomic uint32_t pi_word;	/* the PI futex (uaddr2) */
static atomic_int stop, inside, max_inside;
static atomic_long n_locked, n_timedout, n_again, n_bad, n_owner_wrong;
static atomic_long n_requeued, n_signals;
static pthread_t waiters[WAITERS];

static long futex(_Atomic uint32_t *uaddr, int op, uint32_t val,
		  const struct timespec *ts, _Atomic uint32_t *uaddr2, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op | PRIV, val, ts, uaddr2, val3);
}

static void on_signal(int sig)
{
	(void)sig;
}

/* Absolute CLOCK_MONOTONIC deadline 0-63 us from now: often mid-requeue. */
static void short_deadline(struct timespec *ts, unsigned int *seed)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_nsec += (rand_r(seed) % 64) * 1000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_nsec -= 1000000000;
		ts->tv_sec++;
	}
}

static void unlock_pi(uint32_t tid)
{
	uint32_t expect = tid;

	if (!atomic_compare_exchange_strong(&pi_word, &expect, 0))
		futex(&pi_word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
}

/* We own the PI lock: prove nobody else does, then let it go. */
static void hold_pi(uint32_t tid)
{
	int n = atomic_fetch_add(&inside, 1) + 1;
	int m = atomic_load(&max_inside);

	while (n > m && !atomic_compare_exchange_weak(&max_inside, &m, n))
		;
	if ((atomic_load(&pi_word) & FUTEX_TID_MASK) != tid)
		atomic_fetch_add(&n_owner_wrong, 1);
	atomic_fetch_sub(&inside, 1);
	unlock_pi(tid);
}

static void *waiter(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	uint32_t tid = gettid();
	struct timespec ts;
	long ret;

	while (!atomic_load(&stop)) {
		uint32_t seen = atomic_load(&cond_word);

		short_deadline(&ts, &seed);
		ret = futex(&cond_word, FUTEX_WAIT_REQUEUE_PI, seen, &ts, &pi_word, 0);
		if (!ret) {
			atomic_fetch_add(&n_locked, 1);
			hold_pi(tid);
			continue;
		}
		/* Not ours on any error, also after a requeue. */
		if ((atomic_load(&pi_word) & FUTEX_TID_MASK) == tid) {
			atomic_fetch_add(&n_owner_wrong, 1);
			unlock_pi(tid);
		}
		if (errno == ETIMEDOUT)
			atomic_fetch_add(&n_timedout, 1);
		else if (errno == EAGAIN)
			atomic_fetch_add(&n_again, 1);
		else
			atomic_fetch_add(&n_bad, 1);
	}
	return NULL;
}

/* Broadcast: bump the word, wake one waiter onto the lock, move the rest. */
static void *requeuer(void *arg)
{
	long ret;

	(void)arg;
	while (!atomic_load(&stop)) {
		uint32_t v = atomic_fetch_add(&cond_word, 1) + 1;

		ret = futex(&cond_word, FUTEX_CMP_REQUEUE_PI, 1,
			    (const struct timespec *)(uintptr_t)INT_MAX, &pi_word, v);
		if (ret > 0)
			atomic_fetch_add(&n_requeued, ret);
		else if (ret < 0 && errno != EAGAIN)
			atomic_fetch_add(&n_bad, 1);
		sched_yield();
	}
	return NULL;
}

static void *signaller(void *arg)
{
	unsigned int seed = 7;

	(void)arg;
	while (!atomic_load(&stop)) {
		pthread_kill(waiters[rand_r(&seed) % WAITERS], SIGUSR1);
		atomic_fetch_add(&n_signals, 1);
		usleep(200);
	}
	return NULL;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	pthread_t req, sig;
	int i;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	alarm(WATCHDOG);

	for (i = 0; i < WAITERS; i++)
		pthread_create(&waiters[i], NULL, waiter, (void *)(uintptr_t)(i + 1));
	pthread_create(&req, NULL, requeuer, NULL);
	pthread_create(&sig, NULL, signaller, NULL);
	sleep(RUN_SECONDS);
	atomic_store(&stop, 1);
	pthread_join(sig, NULL);
	for (i = 0; i < WAITERS; i++)
		pthread_join(waiters[i], NULL);
	pthread_join(req, NULL);

	printf("# %ld locked, %ld timed out, %ld EAGAIN, %ld woken/requeued by the requeuer, %ld signals\n",
	       atomic_load(&n_locked), atomic_load(&n_timedout), atomic_load(&n_again),
	       atomic_load(&n_requeued), atomic_load(&n_signals));
	tap_result(atomic_load(&n_bad) == 0,
		   "every return is 0, ETIMEDOUT or EAGAIN (%ld others)", atomic_load(&n_bad));
	tap_result(atomic_load(&n_owner_wrong) == 0,
		   "the lock word names the caller exactly when it returned 0 (%ld wrong)",
		   atomic_load(&n_owner_wrong));
	tap_result(atomic_load(&max_inside) <= 1,
		   "never two owners of the PI lock (at most %d)", atomic_load(&max_inside));
	tap_result(atomic_load(&pi_word) == 0, "PI lock free at the end (word %#x)",
		   atomic_load(&pi_word));
	tap_result(atomic_load(&n_locked) > 0 && atomic_load(&n_timedout) > 0,
		   "both outcomes happened: lock taken %ld times, timed out %ld times",
		   atomic_load(&n_locked), atomic_load(&n_timedout));
	return tap_done();
}
