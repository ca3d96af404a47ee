// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luring
/*
 * IORING_OP_FUTEX_WAITV on top of our futex_waitv code: the completion
 * carries the woken index, a mismatch completes with -EAGAIN, and sizes
 * other than 32 bits work asynchronously too.
 */
#include <liburing.h>
#include "tap.h"
#include "futex2.h"

#define OP_FUTEX_WAITV	53	/* IORING_OP_FUTEX_WAITV, 6.7+; not in liburing 2.3 */

static uint32_t words[8];
static uint8_t bytes[8];

static void prep_waitv(struct io_uring *ring, struct hx_waitv *w, unsigned int nr)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	/* a NOP with nothing set, then turned into FUTEX_WAITV */
	io_uring_prep_nop(sqe);
	sqe->opcode = OP_FUTEX_WAITV;
	sqe->fd = 0;
	sqe->addr = (uintptr_t)w;
	sqe->len = nr;
	sqe->user_data = 42;
}

/* Submit a waitv; returns the completion's res, waking @wake_addr if set. */
static int run(struct io_uring *ring, struct hx_waitv *w, unsigned int nr,
	       void *wake_addr, uint32_t wake_flags, int *pending_before_wake)
{
	struct io_uring_cqe *cqe;
	int res, i;

	prep_waitv(ring, w, nr);
	io_uring_submit(ring);
	*pending_before_wake = io_uring_peek_cqe(ring, &cqe) == -EAGAIN;
	if (wake_addr) {
		long n = 0;

		for (i = 0; i < 2000 && n == 0; i++) {
			n = futex2_wake(wake_addr, 0xff, 1, wake_flags);
			if (!n)
				usleep(1000);
		}
	}
	if (io_uring_wait_cqe(ring, &cqe))
		return -9999;
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return res;
}

int main(void)
{
	struct io_uring ring;
	struct hx_waitv w[8];
	int res, pending, i;

	if (io_uring_queue_init(8, &ring, 0)) {
		tap_result(0, "io_uring_queue_init");
		return tap_done();
	}
	for (i = 0; i < 8; i++)
		waitv_set(&w[i], &words[i], 0, FUTEX2_SIZE_U32 | FUTEX2_PRIVATE);
	res = run(&ring, w, 8, &words[6], FUTEX2_SIZE_U32 | FUTEX2_PRIVATE, &pending);
	tap_result(pending, "waitv request stays pending until a wake");
	tap_result(res == 6, "completion carries the woken index 6 (res %d)", res);

	words[3] = 1;
	res = run(&ring, w, 8, NULL, 0, &pending);
	tap_result(res == -EAGAIN, "mismatch at index 3 completes with -EAGAIN (res %d)", res);
	words[3] = 0;

	for (i = 0; i < 8; i++)
		waitv_set(&w[i], &bytes[i], 0, FUTEX2_SIZE_U8 | FUTEX2_PRIVATE);
	res = run(&ring, w, 8, &bytes[5], FUTEX2_SIZE_U8 | FUTEX2_PRIVATE, &pending);
	tap_result(pending && res == 5, "U8 futexes through io_uring: index 5 (res %d)", res);

	w[0].reserved = 1;
	res = run(&ring, w, 1, NULL, 0, &pending);
	tap_result(res == -EINVAL, "__reserved != 0 completes with -EINVAL (res %d)", res);
	io_uring_queue_exit(&ring);
	return tap_done();
}
