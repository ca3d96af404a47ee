// SPDX-License-Identifier: GPL-2.0
/*
 * futex_waitv() and ENOMEM, with the kernel's fault injection (failslab and
 * fail_page_alloc, task-filtered so that only the test thread's allocations
 * fail).  Each case runs in a new thread, because the kernel keeps one
 * vector per thread between calls.  Needs CONFIG_FAILSLAB and
 * CONFIG_FAIL_PAGE_ALLOC with debugfs (the debug kernel).
 */
#include <fcntl.h>
#include <pthread.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "tap.h"
#include "futex2.h"

#define P32 (FUTEX2_SIZE_U32 | FUTEX2_PRIVATE)
#define DBG "/sys/kernel/debug"

static uint32_t words[WAITV_MAX];

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return 0;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok;
}

/* Make every GFP_KERNEL allocation of a task with make-it-fail set fail. */
static int setup_injector(const char *name)
{
	static const char *const settings[][2] = {
		{ "probability", "100" }, { "interval", "1" }, { "times", "-1" },
		{ "task-filter", "Y" }, { "ignore-gfp-wait", "N" }, { "verbose", "0" },
	};
	char path[128];
	unsigned int i;

	for (i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		snprintf(path, sizeof(path), DBG "/%s/%s", name, settings[i][0]);
		if (!write_str(path, settings[i][1]))
			return 0;
	}
	if (!strcmp(name, "fail_page_alloc")) {
		snprintf(path, sizeof(path), DBG "/%s/ignore-gfp-highmem", name);
		return write_str(path, "N");
	}
	return 1;
}

struct call {
	unsigned int nr;	/* entries; words[0..nr-1], all expecting 0 */
	int mismatch;		/* index whose expected value is 1, or -1 */
	int bad_array;		/* pass an unmapped array */
	int bad_clock;		/* pass a timeout with an invalid clock */
	int warm_up;		/* first make one call with memory available */
	long ret;
	int err;
};

static long do_call(struct call *c)
{
	struct hx_waitv w[WAITV_MAX];
	struct timespec ts = deadline_ms(CLOCK_MONOTONIC, 0);
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		waitv_set(&w[i], &words[i], (int)i == c->mismatch, P32);
	if (c->bad_array)
		return futex_waitv_raw((void *)16, c->nr, 0, NULL, 0);
	return futex_waitv(w, c->nr, 0, &ts, c->bad_clock ? 12345 : CLOCK_MONOTONIC);
}

/* Thread body: the call under make-it-fail, on a thread of its own. */
static void *run_call(void *arg)
{
	struct call *c = arg;
	int fd = open("/proc/thread-self/make-it-fail", O_WRONLY);

	if (fd < 0) {
		c->ret = -2;
		return NULL;
	}
	if (c->warm_up)
		do_call(c);
	if (write(fd, "1", 1) != 1) {
		c->ret = -3;
		close(fd);
		return NULL;
	}
	c->ret = do_call(c);
	c->err = c->ret == -1 ? errno : 0;
	if (pwrite(fd, "0", 1, 0) != 1)
		c->ret = -4;
	close(fd);
	return NULL;
}

static void check(struct call c, int want_err, const char *what)
{
	pthread_t t;

	pthread_create(&t, NULL, run_call, &c);
	pthread_join(t, NULL);
	tap_result(c.ret == -1 && c.err == want_err, "%s: errno %s (got ret %ld, %s)", what,
		   strerrorname_np(want_err), c.ret, c.err ? strerrorname_np(c.err) : "no error");
}

int main(void)
{
	struct stat st;

	if (stat(DBG "/failslab", &st))
		mount("debugfs", DBG, "debugfs", 0, NULL);
	if (!setup_injector("failslab") || !setup_injector("fail_page_alloc")) {
		tap_result(0, "fault injection unavailable: needs CONFIG_FAILSLAB, "
			   "CONFIG_FAIL_PAGE_ALLOC and debugfs (the debug kernel)");
		return tap_done();
	}

	check((struct call){ .nr = 5, .mismatch = -1 }, ENOMEM,
	      "first call with 5 entries, slab allocations failing");
	check((struct call){ .nr = 128, .mismatch = -1 }, ENOMEM,
	      "first call with 128 entries, allocations failing");
	check((struct call){ .nr = 4, .mismatch = 3 }, EAGAIN,
	      "4 entries need no allocation: value mismatch at 3 still reported");
	check((struct call){ .nr = 5, .mismatch = 4, .warm_up = 1 }, EAGAIN,
	      "second call of a thread allocates nothing: mismatch at 4 reported");
	check((struct call){ .nr = 128, .mismatch = 127, .warm_up = 1 }, EAGAIN,
	      "second 128-entry call of a thread allocates nothing: mismatch at 127");
	check((struct call){ .nr = 5, .mismatch = -1, .bad_clock = 1 }, EINVAL,
	      "a bad clockid is reported before ENOMEM");
	check((struct call){ .nr = 5, .mismatch = -1, .bad_array = 1 }, ENOMEM,
	      "ENOMEM is reported before the array is read (unmapped array)");
	check((struct call){ .nr = 3, .mismatch = -1, .bad_array = 1 }, EFAULT,
	      "without an allocation the unmapped array gives EFAULT");

	write_str(DBG "/failslab/probability", "0");
	write_str(DBG "/fail_page_alloc/probability", "0");
	return tap_done();
}
