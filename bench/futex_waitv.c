// SPDX-License-Identifier: GPL-2.0
/*
 * futex_waitv ping-pong: a waiter thread sleeps in futex_waitv() on n private
 * 32-bit futexes, a waker thread on the other CPU wakes one of them (retrying
 * FUTEX_WAKE until it finds the waiter queued there), then sleeps until the
 * waiter answers on a separate futex.  The futex values never change, so
 * every round is a real queue, sleep, wake and unqueue of all n entries.
 * For n in {1, 2, 8, 32, 128} and woken index 0, n/2, n-1 it prints wakes per
 * second and the median and p99 round trip, as "BENCH key value unit better",
 * from the median of three runs of about 0.4 s each.
 * Output is for comparing kernels in one run; absolute numbers under
 * software emulation mean little.
 */
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX2_SIZE_U32
#define FUTEX2_SIZE_U32 0x02
#endif
#ifndef FUTEX2_PRIVATE
#define FUTEX2_PRIVATE 128
#endif

struct waitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

#define MAXN 128

static uint32_t words[MAXN];
static uint32_t pong;
static int nfutex, rounds;
static long raced, wrong;
static int woken_index;
static long total_wrong;
static double seconds_per_config = 0.4;

static long sys_futex(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait on all words; answer on pong.  Counts wakes reported at the wrong index. */
static void *waiter(void *arg)
{
	struct waitv wv[MAXN];
	int i, r;

	(void)arg;
	pin(0);
	for (i = 0; i < nfutex; i++) {
		wv[i].val = 0;
		wv[i].uaddr = (uintptr_t)&words[i];
		wv[i].flags = FUTEX2_SIZE_U32 | FUTEX2_PRIVATE;
		wv[i].reserved = 0;
	}
	for (r = 1; r <= rounds; r++) {
		long ret = syscall(SYS_futex_waitv, wv, nfutex, 0, NULL, 0);

		if (ret < 0) {	/* spurious: wait again for the same round */
			raced++;
			r--;
			continue;
		}
		if (ret != woken_index)
			wrong++;
		__atomic_store_n(&pong, r, __ATOMIC_RELEASE);
		sys_futex(&pong, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct result {
	double wakes, median, p99;
};

#define REPEATS 3

static void run(int n, int idx, struct result *out)
{
	static double rtt[1 << 20];
	double t0, t1;
	pthread_t t;
	int r;

	nfutex = n;
	woken_index = idx;
	raced = wrong = 0;
	pong = 0;
	memset(words, 0, sizeof(words));

	/* Calibrate the number of rounds to about seconds_per_config. */
	rounds = 200;
	for (;;) {
		pthread_create(&t, NULL, waiter, NULL);
		t0 = now();
		for (r = 1; r <= rounds; r++) {
			double s = now();

			while (sys_futex(&words[idx], FUTEX_WAKE_PRIVATE, 1) < 1)
				;
			while (__atomic_load_n(&pong, __ATOMIC_ACQUIRE) != (uint32_t)r)
				sys_futex(&pong, FUTEX_WAIT_PRIVATE, r - 1);
			rtt[r - 1] = (now() - s) * 1e6;
		}
		t1 = now();
		pthread_join(t, NULL);
		if (t1 - t0 >= seconds_per_config * 0.5 || rounds >= (1 << 19))
			break;
		rounds = rounds * 2 * seconds_per_config / (t1 - t0 + 1e-6);
		if (rounds > (1 << 20))
			rounds = 1 << 20;
		raced = wrong = 0;
		pong = 0;
	}
	total_wrong += wrong;
	qsort(rtt, rounds, sizeof(rtt[0]), cmp_double);
	printf("# n=%d idx=%d rounds=%d spurious=%ld wrong_index=%ld\n", n, idx, rounds, raced, wrong);
	fflush(stdout);
	out->wakes = rounds / (t1 - t0);
	out->median = rtt[rounds / 2];
	out->p99 = rtt[rounds * 99 / 100];
}

static int cmp_result(const void *a, const void *b)
{
	const struct result *x = a, *y = b;

	return x->wakes < y->wakes ? -1 : x->wakes > y->wakes;
}

/* Three runs of one configuration; report the one with the median rate. */
static void measure(int n, int idx, const char *where)
{
	struct result r[REPEATS];
	int i;

	for (i = 0; i < REPEATS; i++)
		run(n, idx, &r[i]);
	qsort(r, REPEATS, sizeof(r[0]), cmp_result);
	printf("BENCH futex_waitv.n%d.%s.wakes_per_s %.1f wakes/s higher\n", n, where, r[REPEATS / 2].wakes);
	printf("BENCH futex_waitv.n%d.%s.rtt_median_us %.2f us lower\n", n, where, r[REPEATS / 2].median);
	printf("BENCH futex_waitv.n%d.%s.rtt_p99_us %.2f us lower\n", n, where, r[REPEATS / 2].p99);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 1, 2, 8, 32, 128 };
	unsigned int i;

	if (argc > 1)
		seconds_per_config = atof(argv[1]);
	pin(1);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int n = sizes[i];

		measure(n, 0, "first");
		if (n > 2)
			measure(n, n / 2, "middle");
		if (n > 1)
			measure(n, n - 1, "last");
	}
	printf("%s 1 - every wake reported the woken index (%ld wrong)\n1..1\n",
	       total_wrong ? "not ok" : "ok", total_wrong);
	return total_wrong != 0;
}
