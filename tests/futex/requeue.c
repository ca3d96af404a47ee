// SPDX-License-Identifier: GPL-2.0
/*
 * futex_requeue() (futex2, syscall 456) on top of the new key layout: a
 * waiter moved from one futex to another is woken there, not at the old
 * address; mismatched flags and sizes other than 32 bits are refused.
 */
#include <pthread.h>
#include "tap.h"
#include "futex2.h"

#define P32 (FUTEX2_SIZE_U32 | FUTEX2_PRIVATE)

static uint32_t a, b;
static uint8_t c8[2];
static volatile long result = -2;

static void *waiter(void *arg)
{
	(void)arg;
	result = futex2_wait(&a, 0, 0xffffffffUL, P32, NULL, 0);
	return NULL;
}

static long requeue(void *from, uint32_t ff, void *to, uint32_t tf, uint64_t cmp,
		    int nr_wake, int nr_requeue)
{
	struct hx_waitv w[2];

	waitv_set(&w[0], from, cmp, ff);
	waitv_set(&w[1], to, 0, tf);
	return syscall(NR_futex_requeue, w, 0, nr_wake, nr_requeue);
}

int main(void)
{
	pthread_t t;
	long moved = 0, at_a, at_b = 0;
	int i;

	pthread_create(&t, NULL, waiter, NULL);
	for (i = 0; i < 20000 && moved == 0; i++) {
		usleep(500);
		moved = requeue(&a, P32, &b, P32, 0, 0, 1);
	}
	at_a = futex2_wake(&a, 0xffffffffUL, 1, P32);
	for (i = 0; i < 200 && at_b == 0; i++)
		at_b = futex2_wake(&b, 0xffffffffUL, 1, P32);
	pthread_join(t, NULL);
	tap_result(moved == 1, "requeue moved one waiter (%ld)", moved);
	tap_result(at_a == 0, "a wake at the old futex finds nobody (%ld)", at_a);
	tap_result(at_b == 1 && result == 0, "a wake at the new futex wakes it (%ld, wait returned %ld)",
		   at_b, result);
	tap_errno(requeue(&a, P32, &b, P32, 1, 1, 1), EAGAIN, "compare value mismatch");
	tap_errno(requeue(&a, P32, &b, FUTEX2_SIZE_U32, 0, 1, 1), EINVAL, "flags differ");
	tap_errno(requeue(&c8[0], FUTEX2_SIZE_U8 | FUTEX2_PRIVATE, &c8[1],
			  FUTEX2_SIZE_U8 | FUTEX2_PRIVATE, 0, 1, 1), EINVAL, "U8 futexes");
	tap_errno(syscall(NR_futex_requeue, NULL, 0, 1, 1), EINVAL, "NULL waiters");
	return tap_done();
}
