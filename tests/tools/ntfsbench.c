// SPDX-License-Identifier: GPL-2.0
/*
 * ntfsbench: the timed parts of bench/ntfs/ntfs.sh (the NTFS benchmark),
 * and the copy that puts the benchmark's volumes into guest RAM.
 * Every timing is CLOCK_MONOTONIC around the work only and is printed as
 * one line "<seconds> <count>" (count: bytes, reads or files done).
 *
 *   ntfsbench seq [-d] FILE [BYTES]   read sequentially, 1 MiB a read()
 *                                     (-d: O_DIRECT)
 *   ntfsbench rand FILE COUNT [BYTES] COUNT pread()s of 4 KiB at 4 KiB-aligned
 *                                     pseudo-random offsets (fixed seed) in
 *                                     the first BYTES (a file or a device)
 *   ntfsbench tree DIR                read every regular file below DIR
 *                                     (a third field: the bytes read)
 *   ntfsbench time [-s|-f PATH] CMD [ARG...]
 *                                     run CMD, stdout and stderr to
 *                                     /dev/null, fail when it fails; then
 *                                     stat() (-s) or statfs() (-f) PATH
 *   ntfsbench clone SRC DST           SRC's tree under DST: names, types,
 *                                     modes, sizes (contents: holes)
 *   ntfsbench load DEV FILE SIZE EXTENTS
 *                                     make FILE (sparse, SIZE bytes) and copy
 *                                     into it the byte ranges of DEV listed
 *                                     in EXTENTS ("offset length" a line)
 * The writing rows (a failure prints the errno's name, "(ENOSPC)", so that
 * the table can say how a driver failed):
 *   ntfsbench wseq FILE MIB           write MIB MiB, 1 MiB a write(), fsync
 *                                     (FILE may be a block device)
 *   ntfsbench wpar DIR N MIB          N processes each write DIR/pI (MIB MiB,
 *                                     1 MiB a write()), then sync; a third
 *                                     field: the extents of all N files
 *                                     (FIEMAP), after the sync; "-" without
 *                                     FIEMAP (ntfs-3g: FUSE has none)
 *   ntfsbench wrand FILE COUNT        COUNT pwrite()s of 4 KiB at 4 KiB-aligned
 *                                     pseudo-random offsets of FILE (its
 *                                     size), then fsync
 *   ntfsbench files DIR N             create N empty files in DIR, then
 *                                     unlink them, then sync (count: 2N)
 *   ntfsbench fsyncs DIR N            N times: create DIR/sI, write 4 KiB,
 *                                     fsync, close
 *   ntfsbench fsyncs-raw DEV N PAGES  N times: write PAGES 4 KiB pages of
 *                                     the device DEV, each in its own
 *                                     region, then fdatasync: the I/O an
 *                                     fsync of a new file costs at least
 *                                     when it writes that many pages
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUF (1 << 20)

static char *buf;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "ntfsbench: %s %s: %s (%s)\n", what, arg ? arg : "", strerror(errno),
		strerrorname_np(errno) ? strerrorname_np(errno) : "?");
	exit(1);
}

static int cmd_seq(const char *path, long long limit, int flags)
{
	long long done = 0;
	double t0, t1;
	ssize_t n;
	int fd;

	t0 = now();
	fd = open(path, O_RDONLY | flags);
	if (fd < 0)
		die("open", path);
	while (limit <= 0 || done < limit) {
		size_t want = BUF;

		if (limit > 0 && limit - done < (long long)want)
			want = limit - done;
		n = read(fd, buf, want);
		if (n < 0)
			die("read", path);
		if (n == 0)
			break;
		done += n;
	}
	close(fd);
	t1 = now();
	printf("%.6f %lld\n", t1 - t0, done);
	return 0;
}

/* xorshift64*: the same offsets for every driver. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

static int cmd_rand(const char *path, long count, long long limit)
{
	struct stat st;
	uint64_t size, blocks;
	double t0, t1;
	long i;
	int fd;

	t0 = now();
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("open", path);
	size = st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &size))
		die("BLKGETSIZE64", path);
	if (limit > 0 && (uint64_t)limit < size)
		size = limit;
	blocks = size / 4096;
	if (!blocks) {
		fprintf(stderr, "ntfsbench: %s is smaller than 4 KiB\n", path);
		return 1;
	}
	for (i = 0; i < count; i++) {
		off_t off = (off_t)(rnd() % blocks) * 4096;

		if (pread(fd, buf, 4096, off) != 4096)
			die("pread", path);
	}
	close(fd);
	t1 = now();
	printf("%.6f %ld\n", t1 - t0, count);
	return 0;
}

static long tree_files;
static long long tree_bytes;

static void tree(int dirfd, const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		die("open", name);
	d = fdopendir(fd);
	if (!d)
		die("fdopendir", name);
	while ((de = readdir(d))) {
		unsigned char type = de->d_type;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
				die("stat", de->d_name);
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
		}
		if (type == DT_DIR) {
			tree(fd, de->d_name);
		} else if (type == DT_REG) {
			int f = openat(fd, de->d_name, O_RDONLY);
			ssize_t n;

			if (f < 0)
				die("open", de->d_name);
			while ((n = read(f, buf, BUF)) > 0)
				tree_bytes += n;
			if (n < 0)
				die("read", de->d_name);
			close(f);
			tree_files++;
		}
	}
	closedir(d);
}

static int cmd_tree(const char *dir)
{
	double t0, t1;

	t0 = now();
	tree(AT_FDCWD, dir);
	t1 = now();
	printf("%.6f %ld %lld\n", t1 - t0, tree_files, tree_bytes);
	return 0;
}

/* time [-s PATH | -f PATH] CMD...: after CMD, stat() or statfs() PATH. */
/*
 * clone SRC DST: SRC's tree under DST: names, types, modes, sizes and
 * symlink targets; file contents are holes.
 */
static void clone_dir(int s, int t, const char *name)
{
	struct dirent *de;
	struct stat st;
	DIR *d;

	d = fdopendir(s);
	if (!d)
		die("fdopendir", name);
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (fstatat(s, n, &st, AT_SYMLINK_NOFOLLOW))
			die("stat", n);
		if (S_ISDIR(st.st_mode)) {
			int cs = openat(s, n, O_RDONLY | O_DIRECTORY), ct;

			if (cs < 0 || mkdirat(t, n, st.st_mode & 07777))
				die("mkdir", n);
			ct = openat(t, n, O_RDONLY | O_DIRECTORY);
			if (ct < 0)
				die("open", n);
			clone_dir(cs, ct, n);
			close(ct);
		} else if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t len = readlinkat(s, n, target, sizeof(target) - 1);

			if (len < 0)
				die("readlink", n);
			target[len] = 0;
			if (symlinkat(target, t, n))
				die("symlink", n);
		} else {
			int f = openat(t, n, O_WRONLY | O_CREAT | O_EXCL, st.st_mode & 07777);

			if (f < 0 || ftruncate(f, st.st_size))
				die("create", n);
			close(f);
		}
	}
	closedir(d);
}

static int cmd_clone(const char *src, const char *dst)
{
	int s, t;

	s = open(src, O_RDONLY | O_DIRECTORY);
	if (s < 0)
		die("open", src);
	if (mkdir(dst, 0755) && errno != EEXIST)
		die("mkdir", dst);
	t = open(dst, O_RDONLY | O_DIRECTORY);
	if (t < 0)
		die("open", dst);
	clone_dir(s, t, src);
	close(t);
	return 0;
}

static int cmd_time(char **argv)
{
	const char *after = NULL;
	struct statfs sfs;
	struct stat st;
	char how = 0;
	double t0, t1;
	int status;
	pid_t pid;

	if (argv[0] && argv[1] && (!strcmp(argv[0], "-s") || !strcmp(argv[0], "-f"))) {
		how = argv[0][1];
		after = argv[1];
		argv += 2;
	}
	if (!argv[0]) {
		fprintf(stderr, "ntfsbench: time: no command\n");
		return 2;
	}
	t0 = now();
	pid = fork();
	if (pid < 0)
		die("fork", NULL);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		/* stderr stays: a failing command's message names the errno */
		dup2(null, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid", NULL);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "ntfsbench: %s failed (status %#x)\n", argv[0], status);
		return 1;
	}
	if (how == 's' && stat(after, &st))
		die("stat", after);
	if (how == 'f' && statfs(after, &sfs))
		die("statfs", after);
	t1 = now();
	printf("%.6f 1\n", t1 - t0);
	return 0;
}

static int cmd_load(const char *dev, const char *file, long long size, const char *extents)
{
	long long off, len, total = 0;
	FILE *ex;
	int in, out;

	in = open(dev, O_RDONLY);
	if (in < 0)
		die("open", dev);
	out = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out < 0)
		die("create", file);
	if (ftruncate(out, size))
		die("truncate", file);
	ex = fopen(extents, "r");
	if (!ex)
		die("open", extents);
	while (fscanf(ex, "%lld %lld", &off, &len) == 2) {
		while (len > 0) {
			size_t want = len < BUF ? len : BUF;
			ssize_t n = pread(in, buf, want, off);

			if (n <= 0)
				die("read", dev);
			if (pwrite(out, buf, n, off) != n)
				die("write", file);
			off += n;
			len -= n;
			total += n;
		}
	}
	fclose(ex);
	if (close(out))
		die("close", file);
	close(in);
	fprintf(stderr, "ntfsbench: %lld bytes of %s in %s\n", total, dev, file);
	return 0;
}

/* Write MIB MiB to fd, 1 MiB a write(); pattern bytes so nothing is zero. */
static void write_mib(int fd, const char *path, long mib)
{
	long i;

	memset(buf, 0x5a, BUF);
	for (i = 0; i < mib; i++)
		if (write(fd, buf, BUF) != BUF)
			die("write", path);
}

static int cmd_wseq(const char *path, long mib)
{
	double t0, t1;
	int fd;

	t0 = now();
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("create", path);
	write_mib(fd, path, mib);
	if (fsync(fd))
		die("fsync", path);
	if (close(fd))
		die("close", path);
	t1 = now();
	printf("%.6f %lld\n", t1 - t0, (long long)mib << 20);
	return 0;
}

/* The number of extents of path, by FIEMAP (after a sync: no delalloc);
 * -1 where FIEMAP is not there (FUSE has none): the timing still counts. */
static long extents(const char *path)
{
	struct fiemap fm = { .fm_length = FIEMAP_MAX_OFFSET, .fm_flags = FIEMAP_FLAG_SYNC };
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("open", path);
	if (ioctl(fd, FS_IOC_FIEMAP, &fm)) {
		if (errno != EOPNOTSUPP && errno != ENOTTY)
			die("FIEMAP", path);
		fm.fm_mapped_extents = -1;
	}
	close(fd);
	return fm.fm_mapped_extents == (__u32)-1 ? -1 : (long)fm.fm_mapped_extents;
}

static int cmd_wpar(const char *dir, int n, long mib)
{
	char path[4096];
	long ext = 0;
	double t0, t1;
	int i, status, failed = 0;

	t0 = now();
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork", NULL);
		if (pid == 0) {
			int fd;

			snprintf(path, sizeof(path), "%s/p%d", dir, i);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0)
				die("create", path);
			write_mib(fd, path, mib);
			if (close(fd))
				die("close", path);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	if (failed)
		return 1;
	/* sync(), not syncfs(): ntfs-3g writes the block device's page
	 * cache, which only a global sync flushes */
	sync();
	t1 = now();
	for (i = 0; i < n && ext >= 0; i++) {
		long e;

		snprintf(path, sizeof(path), "%s/p%d", dir, i);
		e = extents(path);
		ext = e < 0 ? -1 : ext + e;
	}
	if (ext < 0)
		printf("%.6f %lld -\n", t1 - t0, (long long)n * mib << 20);
	else
		printf("%.6f %lld %ld\n", t1 - t0, (long long)n * mib << 20, ext);
	return 0;
}

static int cmd_wrand(const char *path, long count)
{
	unsigned long long x = 88172645463325252ULL, blocks;
	double t0, t1;
	struct stat st;
	long i;
	int fd;

	memset(buf, 0xa5, 4096);
	t0 = now();
	fd = open(path, O_WRONLY);
	if (fd < 0 || fstat(fd, &st))
		die("open", path);
	blocks = st.st_size / 4096;
	if (!blocks) {
		fprintf(stderr, "ntfsbench: %s is empty\n", path);
		return 1;
	}
	for (i = 0; i < count; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift64 */
		if (pwrite(fd, buf, 4096, (x % blocks) * 4096) != 4096)
			die("pwrite", path);
	}
	if (fsync(fd))
		die("fsync", path);
	close(fd);
	t1 = now();
	printf("%.6f %ld\n", t1 - t0, count);
	return 0;
}

static int cmd_files(const char *dir, long n)
{
	char path[4096];
	double t0, t1;
	long i;
	int fd;

	t0 = now();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%07ld", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			die("create", path);
		close(fd);
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%07ld", dir, i);
		if (unlink(path))
			die("unlink", path);
	}
	sync();	/* see cmd_wpar() */
	t1 = now();
	printf("%.6f %ld\n", t1 - t0, 2 * n);
	return 0;
}

static int cmd_fsyncs(const char *dir, long n)
{
	char path[4096];
	double t0, t1;
	long i;
	int fd;

	memset(buf, 0x3c, 4096);
	t0 = now();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/s%05ld", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die("create", path);
		if (write(fd, buf, 4096) != 4096)
			die("write", path);
		if (fsync(fd))
			die("fsync", path);
		if (close(fd))
			die("close", path);
	}
	t1 = now();
	printf("%.6f %ld\n", t1 - t0, n);
	return 0;
}

/*
 * The floor of the fsync row: a file system that writes PAGES pages for
 * each new file (NTFS: the data, the MFT record, the directory's index
 * block or record, and the $MFT and $Bitmap bits) waits for them once and
 * then flushes the device's cache, which is what fdatasync() on a block
 * device does.  Page k of round i goes to region k (64 MiB apart), so no
 * two pages of one round merge into one request.
 */
static int cmd_fsyncs_raw(const char *dev, long n, int pages)
{
	double t0, t1;
	long i;
	int fd, k;
	off_t at;

	if (pages < 1 || pages > 16)
		die("pages (1-16)", dev);
	fd = open(dev, O_WRONLY);
	if (fd < 0)
		die("open", dev);
	memset(buf, 0x3c, 4096);
	t0 = now();
	for (i = 0; i < n; i++) {
		for (k = 0; k < pages; k++) {
			at = ((off_t)k << 26) + ((off_t)i << 12);
			if (pwrite(fd, buf, 4096, at) != 4096)
				die("pwrite", dev);
		}
		if (fdatasync(fd))
			die("fdatasync", dev);
	}
	t1 = now();
	close(fd);
	printf("%.6f %ld\n", t1 - t0, n);
	return 0;
}

int main(int argc, char **argv)
{
	buf = aligned_alloc(4096, BUF);
	if (!buf)
		return 1;
	memset(buf, 0, BUF);
	if (argc >= 4 && !strcmp(argv[1], "seq") && !strcmp(argv[2], "-d"))
		return cmd_seq(argv[3], argc > 4 ? atoll(argv[4]) : 0, O_DIRECT);
	if (argc >= 3 && !strcmp(argv[1], "seq"))
		return cmd_seq(argv[2], argc > 3 ? atoll(argv[3]) : 0, 0);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "rand"))
		return cmd_rand(argv[2], atol(argv[3]), argc > 4 ? atoll(argv[4]) : 0);
	if (argc == 3 && !strcmp(argv[1], "tree"))
		return cmd_tree(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "time"))
		return cmd_time(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "clone"))
		return cmd_clone(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "load"))
		return cmd_load(argv[2], argv[3], atoll(argv[4]), argv[5]);
	if (argc == 4 && !strcmp(argv[1], "wseq"))
		return cmd_wseq(argv[2], atol(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "wpar"))
		return cmd_wpar(argv[2], atoi(argv[3]), atol(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "wrand"))
		return cmd_wrand(argv[2], atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "files"))
		return cmd_files(argv[2], atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "fsyncs"))
		return cmd_fsyncs(argv[2], atol(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "fsyncs-raw"))
		return cmd_fsyncs_raw(argv[2], atol(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: ntfsbench seq [-d] FILE [BYTES] | rand FILE COUNT [BYTES] | tree DIR |\n"
		"       time [-s|-f PATH] CMD [ARG...] | clone SRC DST |\n"
		"       load DEV FILE SIZE EXTENTS | wseq FILE MIB | wpar DIR N MIB |\n"
		"       wrand FILE COUNT | files DIR N | fsyncs DIR N |\n"
		"       fsyncs-raw DEV N PAGES\n");
	return 2;
}
