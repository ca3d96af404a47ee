// SPDX-License-Identifier: GPL-2.0
/* Smoke test: the futex syscalls exist and do the basic thing. */
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tap.h"

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif
#define SYS_futex_wake_nr 454
#define SYS_futex_wait_nr 455

static uint32_t word;

static void *waiter(void *arg)
{
	long r = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);

	(void)arg;
	return (void *)r;
}

int main(void)
{
	pthread_t t;
	long woken = 0;
	int i;

	tap_errno(syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0), 0,
		  "FUTEX_WAKE with no waiter");
	tap_errno(syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0), EAGAIN,
		  "FUTEX_WAIT on a changed value");
	tap_errno(syscall(SYS_futex_waitv, NULL, 0, 0, NULL, 0), EINVAL,
		  "futex_waitv(NULL, 0) exists");
	tap_errno(syscall(SYS_futex_wait_nr, &word, 1, 0xffffffffUL, 0x82, NULL, 0), EAGAIN,
		  "futex_wait on a changed value");
	tap_errno(syscall(SYS_futex_wake_nr, &word, 0xffffffffUL, 1, 0x82), 0,
		  "futex_wake with no waiter");

	/* A real sleep and wake: retry the wake until the thread is queued. */
	pthread_create(&t, NULL, waiter, NULL);
	for (i = 0; i < 5000 && woken == 0; i++) {
		usleep(1000);
		woken = syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
	tap_result(woken == 1, "FUTEX_WAKE wakes a sleeping thread (woke %ld)", woken);
	pthread_join(t, NULL);
	return tap_done();
}
