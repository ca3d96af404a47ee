// SPDX-License-Identifier: GPL-2.0
/*
 * futex_waitv() and signals: a handler installed with SA_RESTART restarts
 * the wait (it still returns the woken index later), one without it makes
 * the call fail with EINTR.
 */
#include <pthread.h>
#include <signal.h>
#include "tap.h"
#include "futex2.h"

static uint32_t words[4];
static volatile int handled;
static volatile long result;
static volatile int result_errno;

static void handler(int sig)
{
	(void)sig;
	handled++;
}

static void *waiter(void *arg)
{
	(void)arg;
	result = waitv_zero_words(words, 4, 20000);
	result_errno = errno;
	return NULL;
}

static void run(int flags, const char *what)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = flags };
	pthread_t t;
	long woke = 0;
	int i;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	handled = 0;
	result = -2;
	pthread_create(&t, NULL, waiter, NULL);
	usleep(100000);
	pthread_kill(t, SIGUSR1);
	for (i = 0; i < 200 && !handled; i++)
		usleep(1000);
	usleep(50000);
	if (flags & SA_RESTART) {
		tap_result(result == -2, "%s: still waiting after the handler ran", what);
		for (i = 0; i < 20000 && woke == 0; i++) {
			woke = futex1_wake(&words[2], 1, 1);
			usleep(500);
		}
		pthread_join(t, NULL);
		tap_result(handled == 1 && woke == 1 && result == 2,
			   "%s: restarted wait returns the woken index (handled %d, woke %ld, got %ld)",
			   what, handled, woke, result);
	} else {
		pthread_join(t, NULL);
		tap_result(handled == 1 && result == -1 && result_errno == EINTR,
			   "%s: fails with EINTR (handled %d, got %ld, %s)", what, handled,
			   result, strerrorname_np(result_errno));
	}
}

int main(void)
{
	run(SA_RESTART, "handler with SA_RESTART");
	run(0, "handler without SA_RESTART");
	return tap_done();
}
