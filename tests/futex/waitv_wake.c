// SPDX-License-Identifier: GPL-2.0
/*
 * futex_waitv(): wake-ups.  Every index position of a 128-entry wait is
 * woken and reported; when several entries are woken before the waiter runs,
 * the lowest woken index is returned; deadlines on both clocks.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include "tap.h"
#include "futex2.h"

#define P32 (FUTEX2_SIZE_U32 | FUTEX2_PRIVATE)

static uint32_t words[WAITV_MAX];
static struct hx_waitv wv[WAITV_MAX];
static int nr;
static long result;
static int result_errno;
static volatile pid_t waiter_tid;

static void *waiter(void *arg)
{
	struct timespec ts = deadline_ms(CLOCK_MONOTONIC, 20000);

	(void)arg;
	waiter_tid = gettid();
	result = futex_waitv(wv, nr, 0, &ts, CLOCK_MONOTONIC);
	result_errno = errno;
	return NULL;
}

/* Wake @idx until one waiter was woken; returns the futex_wake count. */
static long wake_until_woken(uint32_t *uaddr)
{
	long n = 0;
	int i;

	for (i = 0; i < 20000 && n == 0; i++) {
		usleep(500);
		n = futex1_wake(uaddr, 1, 1);
	}
	return n;
}

static void each_index(void)
{
	int i, bad = 0, first_bad = -1;
	long woke;

	nr = WAITV_MAX;
	for (i = 0; i < nr; i++)
		waitv_set(&wv[i], &words[i], 0, P32);
	for (i = 0; i < nr; i++) {
		pthread_t t;

		pthread_create(&t, NULL, waiter, NULL);
		woke = wake_until_woken(&words[i]);
		pthread_join(t, NULL);
		if (woke != 1 || result != i) {
			bad++;
			if (first_bad < 0)
				first_bad = i;
		}
	}
	tap_result(bad == 0, "each of 128 positions woken returns its index (%d wrong, first %d)",
		   bad, first_bad);
}

/*
 * FUTEX_WAKE_OP wakes two futexes while holding both bucket locks, so the
 * waiter cannot run in between: both entries are woken when it looks.
 */
static void lowest_index(int lo, int hi)
{
	pthread_t t;
	long r = 0;
	int i;

	nr = 8;
	for (i = 0; i < nr; i++)
		waitv_set(&wv[i], &words[i], 0, P32);
	waiter_tid = 0;
	pthread_create(&t, NULL, waiter, NULL);
	while (!waiter_tid)
		usleep(100);
	if (wait_task_sleeping(waiter_tid))
		/* op: words[lo] = 0 (unchanged), cmp: old == 0 -> wake lo too */
		r = syscall(SYS_futex, &words[hi], FUTEX_WAKE_OP_PRIVATE, 1, 1, &words[lo],
			    FUTEX_OP(FUTEX_OP_SET, 0, FUTEX_OP_CMP_EQ, 0));
	if (r == 0)
		futex1_wake(&words[lo], 1, 1);
	pthread_join(t, NULL);
	tap_result(r == 2 && result == lo,
		   "entries %d and %d woken together: returns the lowest, %d (wake_op %ld, got %ld)",
		   hi, lo, lo, r, result);
}

static void deadline(int clock, const char *name)
{
	struct hx_waitv w;
	struct timespec ts, before, after;
	long r, ms;

	waitv_set(&w, &words[0], 0, P32);
	clock_gettime(clock, &before);
	ts = deadline_ms(clock, 100);
	r = futex_waitv(&w, 1, 0, &ts, clock);
	tap_errno(r, ETIMEDOUT, name);
	clock_gettime(clock, &after);
	ms = (after.tv_sec - before.tv_sec) * 1000 + (after.tv_nsec - before.tv_nsec) / 1000000;
	tap_result(ms >= 100, "%s: did not return before the deadline (%ld ms >= 100)", name, ms);
	ts.tv_sec -= 10;
	tap_errno(futex_waitv(&w, 1, 0, &ts, clock), ETIMEDOUT, "deadline in the past");
}

/*
 * A CLOCK_MONOTONIC deadline is read in the caller's time namespace: in a
 * namespace whose monotonic clock runs 1000 s ahead, "now + 100 ms" must
 * expire after 100 ms, not immediately and not 1000 s later.
 */
static void timens_deadline(void)
{
	struct hx_waitv w;
	int status = -1, fd, i;
	pid_t pid;

	if (unshare(CLONE_NEWTIME)) {
		tap_skip("time namespaces not available");
		return;
	}
	fd = open("/proc/self/timens_offsets", O_WRONLY);
	if (fd < 0 || write(fd, "monotonic 1000 0", 16) != 16) {
		tap_result(0, "set a +1000 s monotonic offset (%s)", strerror(errno));
		return;
	}
	close(fd);
	pid = fork();
	if (pid == 0) {
		struct timespec before, after, ts;
		long ms;

		waitv_set(&w, &words[0], 0, FUTEX2_SIZE_U32 | FUTEX2_PRIVATE);
		clock_gettime(CLOCK_MONOTONIC, &before);
		ts = deadline_ms(CLOCK_MONOTONIC, 100);
		if (futex_waitv(&w, 1, 0, &ts, CLOCK_MONOTONIC) != -1 || errno != ETIMEDOUT)
			_exit(2);
		clock_gettime(CLOCK_MONOTONIC, &after);
		ms = (after.tv_sec - before.tv_sec) * 1000 +
		     (after.tv_nsec - before.tv_nsec) / 1000000;
		_exit(ms >= 100 ? 0 : 3);
	}
	for (i = 0; i < 300; i++) {	/* 30 s: a deadline 1000 s off never ends */
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		usleep(100000);
	}
	if (i == 300) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	tap_result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "CLOCK_MONOTONIC deadline honours the time namespace offset (status %d)",
		   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(void)
{
	each_index();
	lowest_index(1, 6);
	lowest_index(0, 7);
	lowest_index(3, 4);
	deadline(CLOCK_MONOTONIC, "CLOCK_MONOTONIC deadline");
	deadline(CLOCK_REALTIME, "CLOCK_REALTIME deadline");
	timens_deadline();
	return tap_done();
}
