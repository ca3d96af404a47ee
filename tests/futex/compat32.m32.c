// SPDX-License-Identifier: GPL-2.0
/*
 * futex_waitv() from a 32-bit (i386) task: same syscall number and struct
 * layout, zero-extended addresses, 64-bit timespec; U64 futexes refused.
 */
#include <pthread.h>
#include "tap.h"
#include "futex2.h"

static uint32_t words[4];
static uint64_t big __attribute__((aligned(8)));
static uint16_t halves[4];
static volatile long result;

static void *waiter(void *arg)
{
	(void)arg;
	result = waitv_zero_words(words, 4, 20000);
	return NULL;
}

int main(void)
{
	struct hx_waitv w;
	struct timespec past = { 0, 0 };
	pthread_t t;
	long woke = 0;
	int i;

	tap_result(sizeof(void *) == 4, "built as a 32-bit program");
	pthread_create(&t, NULL, waiter, NULL);
	for (i = 0; i < 20000 && !woke; i++) {
		usleep(500);
		woke = futex1_wake(&words[1], 1, 1);
	}
	pthread_join(t, NULL);
	tap_result(woke == 1 && result == 1, "32-bit wait woken at index 1 (woke %ld, got %ld)",
		   woke, result);

	waitv_set(&w, &big, 0, FUTEX2_SIZE_U64 | FUTEX2_PRIVATE);
	tap_errno(futex_waitv(&w, 1, 0, &past, CLOCK_MONOTONIC), EINVAL, "U64 in a 32-bit task");
	tap_errno(futex2_wait(&big, 0, 0xffffffffUL, FUTEX2_SIZE_U64 | FUTEX2_PRIVATE, NULL, 0),
		  EINVAL, "futex_wait U64 in a 32-bit task");
	waitv_set(&w, &halves[1], 0, FUTEX2_SIZE_U16 | FUTEX2_PRIVATE);
	tap_errno(futex_waitv(&w, 1, 0, &past, CLOCK_MONOTONIC), ETIMEDOUT, "U16 in a 32-bit task");
	waitv_set(&w, &words[0], 0, FUTEX2_SIZE_U32 | FUTEX2_PRIVATE);
	w.uaddr |= 1ULL << 40;	/* not a valid 32-bit address */
	tap_errno(futex_waitv(&w, 1, 0, &past, CLOCK_MONOTONIC), EFAULT,
		  "upper address bits set");
	return tap_done();
}
