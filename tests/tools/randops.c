// SPDX-License-Identifier: GPL-2.0
/*
 * randops: seeded random file system operations in several processes, for
 * the write tests (tests/ntfs-write/96-stress.sh, make stress-ntfs).
 *
 *   randops [-p WRITERS] [-r READERS] [-s SEED] [-n OPS[,OPS...]]
 *           [-t SECONDS] [-a ALIGN] [-e] [-v] DIR
 *
 * Writer W works in DIR/wW only: create, write, append, truncate, rename
 * (in and across its directories, over an existing file), link, unlink,
 * mkdir, rmdir (also of a non-empty directory: ENOTEMPTY), directory
 * rename, fallocate (mode 0, KEEP_SIZE, PUNCH_HOLE, and with ALIGN > 0
 * COLLAPSE_RANGE and INSERT_RANGE on ALIGN-aligned ranges), user.* xattrs
 * set and removed, fsync, stores through a shared mapping (inside the
 * file's size, then msync).  Its choices depend only on SEED, W and its own
 * model of its tree, never on timing, so the same command leaves the same
 * tree on any file system: the tests run it on the volume, then again on
 * tmpfs with the counts it printed, and compare the two trees.  Every
 * call must give what the model expects (success, or ENOTEMPTY); the
 * first that does not stops the writer with a message naming it.  At the
 * end each writer checks its model against the tree (sizes, link counts,
 * entries per directory, xattr counts).
 *
 * Readers walk all of DIR meanwhile (readdir, lstat, read, listxattr):
 * lookups and listings racing the writers' renames and unlinks.  ENOENT,
 * ENOTDIR and ENODATA are what a race gives; any other error fails.
 *
 * -n OPS: operations per writer (one count for all, or one per writer);
 * -t SECONDS: stop earlier when the time is up.  Each writer prints
 * "writer W: N ops"; those counts, as a list to -n, replay the run.  -e: emulate
 * COLLAPSE_RANGE and INSERT_RANGE with read and write where fallocate
 * answers EOPNOTSUPP (tmpfs has neither).  -v: each operation's number
 * and kind (the order of the switch in one_op()) on stderr, and what each
 * operation on a file does, with the file's number.  Exit 0 when every
 * writer and reader succeeded, 1 otherwise, 2 on a usage error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/falloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAX_WRITERS	16
#define MAX_DIRS	48
#define MAX_INODES	160
#define MAX_NAMES	6
#define MAX_XATTRS	4
#define MAX_DEPTH	4
#define FILE_CAP	(2 << 20)	/* largest file a writer makes */
#define WRITER_CAP	(12 << 20)	/* bytes of all its files */
#define NAME_LEN	120

struct dir {
	bool live;
	int parent;		/* -1 for the writer's top directory */
	int entries;		/* names and subdirectories in it */
	char name[NAME_LEN];
};

struct link {
	int dir;
	char name[NAME_LEN];
};

struct inode {
	bool live;
	long long size;
	int nlinks;
	struct link links[MAX_NAMES];
	int nx;
	unsigned int xattrs[MAX_XATTRS];
};

struct writer {
	int id;
	uint64_t rng;
	long op;
	unsigned int counter;
	long long bytes;
	const char *top;
	struct dir dirs[MAX_DIRS];
	struct inode inodes[MAX_INODES];
};

static unsigned long align;
static bool emulate, verbose;
static volatile sig_atomic_t stop_readers;

static uint64_t next(struct writer *w)
{
	uint64_t z = (w->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static long below(struct writer *w, long n)
{
	return n > 0 ? (long)(next(w) % (uint64_t)n) : 0;
}

/* Byte at OFF of data stream SEED: the same on every run. */
static unsigned char data_byte(uint64_t seed, long long off)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)(off >> 3);

	z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ULL;
	z ^= z >> 29;
	return (unsigned char)(z >> ((off & 7) * 8));
}

static int fail(struct writer *w, const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	fprintf(stderr, "randops: writer %d, op %ld: ", w->id, w->op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", e ? strerrorname_np(e) : "wrong result");
	return -1;
}

/* With -v: what the data operation on inode @k does, before it does it. */
static void trace(struct writer *w, int k, const char *fmt, ...)
{
	char line[PATH_MAX + 100];
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one call: the writers' lines must not interleave */
	fprintf(stderr, "randops: writer %d, op %ld, inode %d: %s\n", w->id, w->op, k, line);
}

static void dir_path(struct writer *w, int d, char *buf, size_t size)
{
	if (w->dirs[d].parent < 0) {
		snprintf(buf, size, "%s/w%d", w->top, w->id);
		return;
	}
	dir_path(w, w->dirs[d].parent, buf, size);
	strncat(buf, "/", size - strlen(buf) - 1);
	strncat(buf, w->dirs[d].name, size - strlen(buf) - 1);
}

static void link_path(struct writer *w, const struct link *l, char *buf, size_t size)
{
	dir_path(w, l->dir, buf, size);
	strncat(buf, "/", size - strlen(buf) - 1);
	strncat(buf, l->name, size - strlen(buf) - 1);
}

static bool name_taken(struct writer *w, int d, const char *name)
{
	int i, j;

	for (i = 0; i < MAX_DIRS; i++)
		if (w->dirs[i].live && w->dirs[i].parent == d && !strcmp(w->dirs[i].name, name))
			return true;
	for (i = 0; i < MAX_INODES; i++)
		for (j = 0; w->inodes[i].live && j < w->inodes[i].nlinks; j++)
			if (w->inodes[i].links[j].dir == d && !strcmp(w->inodes[i].links[j].name, name))
				return true;
	return false;
}

/* A new name in directory D: short, long, non-ASCII, or a case twin. */
static void new_name(struct writer *w, int d, char *buf)
{
	static const char *const shapes[] = {
		"n%u", "a-longer-name-with-some-words-in-it-%u", "caf\xc3\xa9-%u",
		"\xe6\x97\xa5\xe6\x9c\xac-%u", "Twin%u", "tWIN%u", "x%u.txt",
		"name with spaces %u",
	};
	unsigned int shape = below(w, 8), n;

	/* twins share the number of the last name made */
	n = shape >= 4 && shape <= 5 ? w->counter : ++w->counter;
	snprintf(buf, NAME_LEN, shapes[shape], n);
	while (name_taken(w, d, buf))
		strncat(buf, "+", NAME_LEN - strlen(buf) - 1);
}

static int pick_dir(struct writer *w)
{
	int d;

	do
		d = below(w, MAX_DIRS);
	while (!w->dirs[d].live);
	return d;
}

static int depth(struct writer *w, int d)
{
	int n = 0;

	while (w->dirs[d].parent >= 0) {
		d = w->dirs[d].parent;
		n++;
	}
	return n;
}

/* A live inode, or -1; with WANT_FREE a free slot instead. */
static int pick_inode(struct writer *w, bool want_free)
{
	int start = below(w, MAX_INODES), i;

	for (i = 0; i < MAX_INODES; i++) {
		int k = (start + i) % MAX_INODES;

		if (w->inodes[k].live != want_free)
			return k;
	}
	return -1;
}

static int write_data(int fd, long long off, long long len, uint64_t seed, bool append)
{
	unsigned char buf[65536];
	long long done = 0;

	while (done < len) {
		long long k = len - done < (long long)sizeof(buf) ? len - done : (long long)sizeof(buf);
		long long i;
		ssize_t r;

		for (i = 0; i < k; i++)
			buf[i] = data_byte(seed, off + done + i);
		r = append ? write(fd, buf, k) : pwrite(fd, buf, k, off + done);
		if (r != k) {
			if (r >= 0)
				errno = EIO;
			return -1;
		}
		done += k;
	}
	return 0;
}

static long long pick_length(struct writer *w)
{
	static const long long scale[] = { 512, 8192, 65536, 300000 };

	return 1 + below(w, scale[below(w, 4)]);
}

static void resize(struct writer *w, struct inode *ino, long long size)
{
	w->bytes += size - ino->size;
	ino->size = size;
}

static int op_create(struct writer *w)
{
	int k = pick_inode(w, true), d = pick_dir(w), fd;
	struct inode *ino;
	char path[PATH_MAX];
	long long len;

	if (k < 0)
		return 0;
	ino = &w->inodes[k];
	memset(ino, 0, sizeof(*ino));
	ino->links[0].dir = d;
	new_name(w, d, ino->links[0].name);
	link_path(w, &ino->links[0], path, sizeof(path));
	len = below(w, 3) ? pick_length(w) : 0;
	trace(w, k, "create %s, %lld bytes", path, len);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0)
		return fail(w, "create %s", path);
	ino->live = true;
	ino->nlinks = 1;
	w->dirs[d].entries++;
	if (write_data(fd, 0, len, next(w), false)) {
		close(fd);
		return fail(w, "write %lld bytes to new %s", len, path);
	}
	resize(w, ino, len);
	return close(fd) ? fail(w, "close %s", path) : 0;
}

/* Open inode K by one of its names with FLAGS; PATH gets the name. */
static int open_inode(struct writer *w, int k, int flags, char *path)
{
	struct inode *ino = &w->inodes[k];
	int fd;

	link_path(w, &ino->links[below(w, ino->nlinks)], path, PATH_MAX);
	fd = open(path, flags);
	if (fd < 0)
		fail(w, "open %s", path);
	return fd;
}

/*
 * A live inode (*@k, -1 when none) and a range of it to change: from its
 * end with @append, else anywhere up to 64 KiB past it.  False when the
 * range would pass the caps (nothing is done then).
 */
static bool pick_range(struct writer *w, bool append, int *k, long long *off, long long *len)
{
	*k = pick_inode(w, false);
	if (*k < 0)
		return false;
	*len = pick_length(w);
	*off = append ? w->inodes[*k].size : below(w, w->inodes[*k].size + 65536);
	return *off + *len <= FILE_CAP && w->bytes + *len <= WRITER_CAP;
}

static int op_write(struct writer *w, bool append)
{
	long long off, len;
	char path[PATH_MAX];
	struct inode *ino;
	int k, fd;

	if (!pick_range(w, append, &k, &off, &len))
		return k < 0 ? op_create(w) : 0;
	ino = &w->inodes[k];
	fd = open_inode(w, k, O_WRONLY | (append ? O_APPEND : 0), path);
	if (fd < 0)
		return -1;
	trace(w, k, "write %lld at %lld", len, off);
	if (write_data(fd, off, len, next(w), append)) {
		close(fd);
		return fail(w, "write %lld at %lld to %s", len, off, path);
	}
	if (off + len > ino->size)
		resize(w, ino, off + len);
	return close(fd) ? fail(w, "close %s", path) : 0;
}

static int op_truncate(struct writer *w)
{
	int k = pick_inode(w, false);
	char path[PATH_MAX];
	long long size;
	struct inode *ino;

	if (k < 0)
		return op_create(w);
	ino = &w->inodes[k];
	size = below(w, 2) ? below(w, ino->size + 1) : below(w, ino->size + 200000);
	if (size > FILE_CAP || w->bytes + size - ino->size > WRITER_CAP)
		size = ino->size / 2;
	link_path(w, &ino->links[below(w, ino->nlinks)], path, sizeof(path));
	trace(w, k, "truncate to %lld (size %lld)", size, ino->size);
	if (truncate(path, size))
		return fail(w, "truncate %s to %lld", path, size);
	resize(w, ino, size);
	return 0;
}

/* Moves name L of an inode into directory D under a new name. */
static int op_rename(struct writer *w)
{
	int k = pick_inode(w, false), d = pick_dir(w);
	char from[PATH_MAX], to[PATH_MAX], name[NAME_LEN];
	struct link *l;

	if (k < 0)
		return op_create(w);
	l = &w->inodes[k].links[below(w, w->inodes[k].nlinks)];
	link_path(w, l, from, sizeof(from));
	new_name(w, d, name);
	trace(w, k, "rename %s to %s", from, name);
	w->dirs[l->dir].entries--;
	l->dir = d;
	strcpy(l->name, name);
	w->dirs[d].entries++;
	link_path(w, l, to, sizeof(to));
	return rename(from, to) ? fail(w, "rename %s to %s", from, to) : 0;
}

static void drop_link(struct writer *w, int k, int i)
{
	struct inode *ino = &w->inodes[k];

	w->dirs[ino->links[i].dir].entries--;
	ino->links[i] = ino->links[--ino->nlinks];
	if (!ino->nlinks) {
		resize(w, ino, 0);
		ino->live = false;
	}
}

/* One name of an inode renamed over a name of another inode. */
static int op_replace(struct writer *w)
{
	int a = pick_inode(w, false), b = pick_inode(w, false), ia, ib;
	char from[PATH_MAX], to[PATH_MAX];

	if (a < 0 || a == b)
		return op_create(w);
	ia = below(w, w->inodes[a].nlinks);
	ib = below(w, w->inodes[b].nlinks);
	link_path(w, &w->inodes[a].links[ia], from, sizeof(from));
	link_path(w, &w->inodes[b].links[ib], to, sizeof(to));
	trace(w, a, "rename %s over %s (inode %d)", from, to, b);
	if (rename(from, to))
		return fail(w, "rename %s over %s", from, to);
	w->dirs[w->inodes[a].links[ia].dir].entries--;
	w->inodes[a].links[ia] = w->inodes[b].links[ib];
	w->dirs[w->inodes[b].links[ib].dir].entries++;
	drop_link(w, b, ib);
	return 0;
}

static int op_link(struct writer *w)
{
	int k = pick_inode(w, false), d = pick_dir(w);
	char from[PATH_MAX], to[PATH_MAX];
	struct inode *ino;
	struct link *l;

	if (k < 0 || w->inodes[k].nlinks == MAX_NAMES)
		return op_create(w);
	ino = &w->inodes[k];
	link_path(w, &ino->links[below(w, ino->nlinks)], from, sizeof(from));
	l = &ino->links[ino->nlinks];
	l->dir = d;
	new_name(w, d, l->name);
	link_path(w, l, to, sizeof(to));
	trace(w, k, "link %s to %s", from, to);
	if (link(from, to))
		return fail(w, "link %s to %s", from, to);
	ino->nlinks++;
	w->dirs[d].entries++;
	return 0;
}

static int op_unlink(struct writer *w)
{
	int k = pick_inode(w, false), i;
	char path[PATH_MAX];

	if (k < 0)
		return op_create(w);
	i = below(w, w->inodes[k].nlinks);
	link_path(w, &w->inodes[k].links[i], path, sizeof(path));
	trace(w, k, "unlink %s", path);
	if (unlink(path))
		return fail(w, "unlink %s", path);
	drop_link(w, k, i);
	return 0;
}

static int free_dir_slot(struct writer *w)
{
	int i;

	for (i = 1; i < MAX_DIRS; i++)
		if (!w->dirs[i].live)
			return i;
	return -1;
}

static int op_mkdir(struct writer *w)
{
	int d = pick_dir(w), n = free_dir_slot(w);
	char path[PATH_MAX];

	if (n < 0 || depth(w, d) >= MAX_DEPTH)
		return 0;
	w->dirs[n].parent = d;
	new_name(w, d, w->dirs[n].name);
	w->dirs[n].entries = 0;
	dir_path(w, n, path, sizeof(path));
	if (mkdir(path, 0755))
		return fail(w, "mkdir %s", path);
	w->dirs[n].live = true;
	w->dirs[d].entries++;
	return 0;
}

/* rmdir of a directory other than the top: ENOTEMPTY when it has entries. */
static int op_rmdir(struct writer *w)
{
	int d = pick_dir(w);
	char path[PATH_MAX];
	int rc;

	if (!d)
		return 0;
	dir_path(w, d, path, sizeof(path));
	rc = rmdir(path);
	if (w->dirs[d].entries) {
		if (!rc || errno != ENOTEMPTY)
			return fail(w, "rmdir of non-empty %s gave %d, not ENOTEMPTY", path, rc);
		return 0;
	}
	if (rc)
		return fail(w, "rmdir %s", path);
	w->dirs[d].live = false;
	w->dirs[w->dirs[d].parent].entries--;
	return 0;
}

static bool below_dir(struct writer *w, int d, int ancestor)
{
	for (; d >= 0; d = w->dirs[d].parent)
		if (d == ancestor)
			return true;
	return false;
}

/* A directory moved under another one (never into itself). */
static int op_rename_dir(struct writer *w)
{
	int d = pick_dir(w), to = pick_dir(w);
	char from[PATH_MAX], dest[PATH_MAX], name[NAME_LEN];

	if (!d || below_dir(w, to, d) || depth(w, to) >= MAX_DEPTH)
		return 0;
	dir_path(w, d, from, sizeof(from));
	new_name(w, to, name);
	w->dirs[w->dirs[d].parent].entries--;
	w->dirs[d].parent = to;
	strcpy(w->dirs[d].name, name);
	w->dirs[to].entries++;
	dir_path(w, d, dest, sizeof(dest));
	return rename(from, dest) ? fail(w, "rename directory %s to %s", from, dest) : 0;
}

static int op_fallocate(struct writer *w)
{
	static const int modes[] = {
		0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	};
	int mode = modes[below(w, 3)], k, fd;
	long long off, len;
	char path[PATH_MAX];
	struct inode *ino;

	if (!pick_range(w, false, &k, &off, &len))
		return k < 0 ? op_create(w) : 0;
	ino = &w->inodes[k];
	fd = open_inode(w, k, O_WRONLY, path);
	if (fd < 0)
		return -1;
	trace(w, k, "fallocate mode %#x at %lld, %lld bytes", mode, off, len);
	if (fallocate(fd, mode, off, len)) {
		close(fd);
		return fail(w, "fallocate mode %#x at %lld, %lld bytes of %s", mode, off, len, path);
	}
	if (!mode && off + len > ino->size)
		resize(w, ino, off + len);
	return close(fd) ? fail(w, "close %s", path) : 0;
}

/* COLLAPSE_RANGE or INSERT_RANGE done by copying, for a reference on tmpfs. */
static int shift_by_copy(int fd, long long size, long long off, long long len, bool insert)
{
	long long tail = size - off - (insert ? 0 : len);
	char *buf = malloc(tail > 0 ? tail : 1);
	int rc = -1;

	if (!buf)
		return -1;
	if (pread(fd, buf, tail, insert ? off : off + len) != tail)
		goto out;
	if (insert) {
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, size - off) ||
		    pwrite(fd, buf, tail, off + len) != tail)
			goto out;
	} else if (pwrite(fd, buf, tail, off) != tail || ftruncate(fd, size - len)) {
		goto out;
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

static int op_shift(struct writer *w, bool insert)
{
	int k = pick_inode(w, false), fd;
	long long units, off, len, size;
	char path[PATH_MAX];
	struct inode *ino;
	int mode = insert ? FALLOC_FL_INSERT_RANGE : FALLOC_FL_COLLAPSE_RANGE;

	if (k < 0 || !align)
		return op_truncate(w);
	ino = &w->inodes[k];
	size = ino->size;
	units = size / align;
	if (units < 2)
		return 0;
	off = below(w, units - 1) * align;
	len = (1 + below(w, insert ? 4 : units - off / align - 1)) * align;
	if (!insert && off + len >= size)
		return 0;
	if (insert && (size + len > FILE_CAP || w->bytes + len > WRITER_CAP))
		return 0;
	fd = open_inode(w, k, O_RDWR, path);
	if (fd < 0)
		return -1;
	trace(w, k, "%s %lld bytes at %lld (size %lld)", insert ? "insert" : "collapse", len, off,
	      size);
	if (fallocate(fd, mode, off, len) &&
	    (errno != EOPNOTSUPP || !emulate || shift_by_copy(fd, size, off, len, insert))) {
		close(fd);
		return fail(w, "%s %lld bytes at %lld of %s (size %lld)",
			    insert ? "insert" : "collapse", len, off, path, size);
	}
	resize(w, ino, insert ? size + len : size - len);
	return close(fd) ? fail(w, "close %s", path) : 0;
}

/* Bytes stored through a shared mapping of a part of the file, msync'ed. */
static int op_mwrite(struct writer *w)
{
	long long off, len, head, i;
	char path[PATH_MAX];
	unsigned char *map;
	uint64_t seed;
	int k, fd;

	k = pick_inode(w, false);
	if (k < 0 || !w->inodes[k].size)
		return op_write(w, false);
	off = below(w, w->inodes[k].size);
	len = 1 + below(w, w->inodes[k].size - off < 65536 ? w->inodes[k].size - off : 65536);
	seed = next(w);
	head = off % 4096;
	fd = open_inode(w, k, O_RDWR, path);
	if (fd < 0)
		return -1;
	trace(w, k, "store %lld at %lld through a mapping", len, off);
	map = mmap(NULL, head + len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off - head);
	close(fd);
	if (map == MAP_FAILED)
		return fail(w, "mmap %lld bytes at %lld of %s", len, off, path);
	for (i = 0; i < len; i++)
		map[head + i] = data_byte(seed, off + i);
	if (msync(map, head + len, MS_SYNC)) {
		munmap(map, head + len);
		return fail(w, "msync %lld bytes at %lld of %s", len, off, path);
	}
	return munmap(map, head + len) ? fail(w, "munmap %s", path) : 0;
}

static int op_setxattr(struct writer *w)
{
	int k = pick_inode(w, false);
	unsigned char value[300];
	char path[PATH_MAX], name[32];
	struct inode *ino;
	unsigned int key;
	uint64_t seed;
	int len, i;

	if (k < 0)
		return op_create(w);
	ino = &w->inodes[k];
	if (ino->nx && below(w, 2)) {
		key = ino->xattrs[below(w, ino->nx)];
	} else {
		if (ino->nx == MAX_XATTRS)
			return 0;
		key = ++w->counter;
		ino->xattrs[ino->nx++] = key;
	}
	snprintf(name, sizeof(name), "user.k%u", key);
	len = below(w, sizeof(value));
	seed = next(w);
	for (i = 0; i < len; i++)
		value[i] = data_byte(seed, i);
	link_path(w, &ino->links[below(w, ino->nlinks)], path, sizeof(path));
	trace(w, k, "setxattr %s, %d bytes", name, len);
	return setxattr(path, name, value, len, 0) ? fail(w, "setxattr %s on %s", name, path) : 0;
}

static int op_rmxattr(struct writer *w)
{
	int k = pick_inode(w, false), i;
	char path[PATH_MAX], name[32];
	struct inode *ino;

	if (k < 0 || !w->inodes[k].nx)
		return op_setxattr(w);
	ino = &w->inodes[k];
	i = below(w, ino->nx);
	snprintf(name, sizeof(name), "user.k%u", ino->xattrs[i]);
	ino->xattrs[i] = ino->xattrs[--ino->nx];
	link_path(w, &ino->links[below(w, ino->nlinks)], path, sizeof(path));
	trace(w, k, "removexattr %s", name);
	return removexattr(path, name) ? fail(w, "removexattr %s on %s", name, path) : 0;
}

static int op_fsync(struct writer *w)
{
	int k = pick_inode(w, false), fd, rc;
	char path[PATH_MAX];

	if (k < 0)
		return op_create(w);
	fd = open_inode(w, k, O_WRONLY, path);
	if (fd < 0)
		return -1;
	trace(w, k, "fsync");
	rc = below(w, 2) ? fsync(fd) : fdatasync(fd);
	if (rc) {
		close(fd);
		return fail(w, "fsync %s", path);
	}
	return close(fd) ? fail(w, "close %s", path) : 0;
}

/* One operation, chosen by weight; growth yields to removal near the cap. */
static int one_op(struct writer *w)
{
	static const unsigned char weights[] = {
		14, 14, 6, 6, 8, 3, 4, 8, 4, 3, 2, 6, 2, 2, 5, 3, 2, 4,
	};
	long r = below(w, 96), i = 0;

	while (r >= weights[i])
		r -= weights[i++];
	if (w->bytes > WRITER_CAP / 2 * 3 / 2 && i < 3)
		i = 7;
	if (verbose)
		fprintf(stderr, "randops: writer %d, op %ld: kind %ld\n", w->id, w->op, i);
	switch (i) {
	case 0: return op_create(w);
	case 1: return op_write(w, false);
	case 2: return op_write(w, true);
	case 3: return op_truncate(w);
	case 4: return op_rename(w);
	case 5: return op_replace(w);
	case 6: return op_link(w);
	case 7: return op_unlink(w);
	case 8: return op_mkdir(w);
	case 9: return op_rmdir(w);
	case 10: return op_rename_dir(w);
	case 11: return op_fallocate(w);
	case 12: return op_shift(w, false);
	case 13: return op_shift(w, true);
	case 14: return op_setxattr(w);
	case 15: return op_rmxattr(w);
	case 16: return op_fsync(w);
	default: return op_mwrite(w);
	}
}

static int count_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* The model against the tree: sizes, link counts, xattrs, entries. */
static int check_model(struct writer *w)
{
	char path[PATH_MAX];
	struct stat st;
	int i, bad = 0;

	w->op = -1;
	for (i = 0; i < MAX_INODES; i++) {
		struct inode *ino = &w->inodes[i];
		ssize_t xl;

		if (!ino->live)
			continue;
		link_path(w, &ino->links[0], path, sizeof(path));
		if (lstat(path, &st) || st.st_size != ino->size || (int)st.st_nlink != ino->nlinks) {
			bad = fail(w, "check %s: size %lld, %d links expected", path, ino->size, ino->nlinks);
			continue;
		}
		xl = listxattr(path, NULL, 0);
		if (xl < 0 || (ino->nx && !xl) || (!ino->nx && xl))
			bad = fail(w, "check %s: %d xattrs expected", path, ino->nx);
	}
	for (i = 0; i < MAX_DIRS; i++) {
		if (!w->dirs[i].live)
			continue;
		dir_path(w, i, path, sizeof(path));
		errno = 0;
		if (count_entries(path) != w->dirs[i].entries)
			bad = fail(w, "check %s: %d entries expected", path, w->dirs[i].entries);
	}
	return bad;
}

static int run_writer(struct writer *w, long ops, time_t end)
{
	char path[PATH_MAX];

	w->dirs[0].live = true;
	w->dirs[0].parent = -1;
	dir_path(w, 0, path, sizeof(path));
	if (mkdir(path, 0755))
		return fail(w, "mkdir %s", path);
	for (w->op = 0; w->op < ops; w->op++) {
		if (end && time(NULL) >= end)
			break;
		if (one_op(w))
			return -1;
	}
	printf("writer %d: %ld ops\n", w->id, w->op);
	fflush(stdout);
	return check_model(w);
}

/* A reader's walk; errors a race can give are fine, others are counted. */
static int walk(const char *path, int level)
{
	char sub[PATH_MAX], buf[4096];
	struct dirent *e;
	struct stat st;
	int bad = 0, fd;
	DIR *d;

	d = opendir(path);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	while (!stop_readers && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (lstat(sub, &st)) {
			bad |= errno != ENOENT;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (level < 8)
				bad |= walk(sub, level + 1);
			continue;
		}
		if (listxattr(sub, buf, sizeof(buf)) < 0)
			bad |= errno != ENOENT && errno != ERANGE;
		fd = open(sub, O_RDONLY);
		if (fd < 0) {
			bad |= errno != ENOENT;
			continue;
		}
		bad |= read(fd, buf, sizeof(buf)) < 0;
		close(fd);
	}
	closedir(d);
	if (bad)
		fprintf(stderr, "randops: reader: an error under %s\n", path);
	return bad ? -1 : 0;
}

static void on_term(int sig)
{
	(void)sig;
	stop_readers = 1;
}

static int run_reader(const char *top)
{
	long walks = 0;
	int bad = 0;

	signal(SIGTERM, on_term);
	while (!stop_readers) {
		bad |= walk(top, 0);
		walks++;
	}
	printf("reader: %ld walks\n", walks);
	return bad;
}

static int usage(void)
{
	fprintf(stderr, "usage: randops [-p WRITERS] [-r READERS] [-s SEED] [-n OPS[,OPS...]]\n"
			"               [-t SECONDS] [-a ALIGN] [-e] [-v] DIR\n");
	return 2;
}

static int parse_ops(char *arg, long *ops, int n)
{
	int i = 0;
	char *tok;

	for (tok = strtok(arg, ","); tok && i < MAX_WRITERS; tok = strtok(NULL, ","))
		ops[i++] = atol(tok);
	if (i == 1)
		while (i < n)
			ops[i] = ops[i - 1], i++;
	return i;
}

static int wait_all(pid_t *pids, int n)
{
	int i, status, bad = 0;

	for (i = 0; i < n; i++)
		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	return bad;
}

int main(int argc, char **argv)
{
	int writers = 4, readers = 2, c, i, bad;
	pid_t wp[MAX_WRITERS], rp[MAX_WRITERS];
	long ops[MAX_WRITERS] = { 0 };
	char *ops_arg = NULL;
	unsigned long seed = 1;
	time_t end = 0;

	while ((c = getopt(argc, argv, "p:r:s:n:t:a:ev")) != -1) {
		switch (c) {
		case 'p': writers = atoi(optarg); break;
		case 'r': readers = atoi(optarg); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'n': ops_arg = optarg; break;
		case 't': end = time(NULL) + atol(optarg); break;
		case 'a': align = strtoul(optarg, NULL, 0); break;
		case 'e': emulate = true; break;
		case 'v': verbose = true; break;
		default: return usage();
		}
	}
	if (optind != argc - 1 || writers < 1 || writers > MAX_WRITERS ||
	    readers < 0 || readers > MAX_WRITERS)
		return usage();
	if (ops_arg) {
		if (parse_ops(ops_arg, ops, writers) != writers)
			return usage();
	} else {
		for (i = 0; i < writers; i++)
			ops[i] = end ? LONG_MAX : 1000;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < writers; i++) {
		wp[i] = fork();
		if (!wp[i]) {
			static struct writer w;

			w.id = i;
			w.rng = seed * 1000003 + i;
			w.top = argv[optind];
			_exit(run_writer(&w, ops[i], end) ? 1 : 0);
		}
	}
	for (i = 0; i < readers; i++) {
		rp[i] = fork();
		if (!rp[i])
			_exit(run_reader(argv[optind]) ? 1 : 0);
	}
	bad = wait_all(wp, writers);
	for (i = 0; i < readers; i++)
		kill(rp[i], SIGTERM);
	bad |= wait_all(rp, readers);
	return bad;
}
