// SPDX-License-Identifier: GPL-2.0
/*
 * Shared (non-private) futex_waitv entries across two processes, for the
 * three kinds of shared memory: SysV shm, MAP_SHARED anonymous memory and a
 * file mapped separately by each process.  The child waits on 8 futexes;
 * the parent wakes entry 5 through its own mapping with a plain FUTEX_WAKE.
 */
#include <fcntl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include "tap.h"
#include "futex2.h"

#define N 8
#define WOKEN 5

/* Child: wait on N shared futexes at @base; exit status = returned index. */
static void child_wait(uint32_t *base)
{
	struct hx_waitv w[N];
	struct timespec ts = deadline_ms(CLOCK_MONOTONIC, 20000);
	long r;
	int i;

	for (i = 0; i < N; i++)
		waitv_set(&w[i], &base[i * 16], 0, FUTEX2_SIZE_U32);
	r = futex_waitv(w, N, 0, &ts, CLOCK_MONOTONIC);
	_exit(r >= 0 ? (int)r : 100 + errno % 100);
}

/* Parent: wake entry WOKEN through @base until the child was woken. */
static void run(const char *what, uint32_t *child_base, uint32_t *parent_base)
{
	long woke = 0;
	int status = -1, i;
	pid_t pid = fork();

	if (pid == 0)
		child_wait(child_base);
	for (i = 0; i < 20000 && woke == 0; i++) {
		usleep(500);
		woke = futex1_wake(&parent_base[WOKEN * 16], 1, 0);
	}
	waitpid(pid, &status, 0);
	tap_result(woke == 1 && WIFEXITED(status) && WEXITSTATUS(status) == WOKEN,
		   "%s: shared wake reaches the other process (woke %ld, child returned %d)",
		   what, woke, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(void)
{
	int id, fd;
	uint32_t *a, *b;

	id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	a = shmat(id, NULL, 0);
	b = shmat(id, NULL, 0);	/* a second attach: another address */
	memset(a, 0, 4096);
	run("SysV shm, attached twice", a, b);
	shmdt(a);
	shmdt(b);
	shmctl(id, IPC_RMID, NULL);

	a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	run("MAP_SHARED anonymous", a, a);
	munmap(a, 4096);

	fd = open("/tmp/futex-shared-file", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (ftruncate(fd, 8192))
		return 1;
	a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
	b = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
	run("file-backed MAP_SHARED, mapped twice", a, b);
	munmap(a, 4096);
	munmap(b, 4096);
	close(fd);
	unlink("/tmp/futex-shared-file");

	/* A shared entry on shared memory times out like a private one. */
	a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	{
		struct hx_waitv w;
		struct timespec ts = { 0, 0 };

		waitv_set(&w, a, 0, FUTEX2_SIZE_U32);
		tap_errno(futex_waitv(&w, 1, 0, &ts, CLOCK_MONOTONIC), ETIMEDOUT,
			  "shared entry with an expired deadline");
	}
	return tap_done();
}
