// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs-mutate: apply byte patches to an image, and the corruption fuzzer's
 * per-case loop (tests/ntfs-fuzz/fuzz.sh; cases from scripts/images/ntfs-fuzz-gen.py).
 *
 *   ntfs-mutate apply FILE SPEC
 *	SPEC is "offset:hexbytes[,offset:hexbytes...]"; writes the bytes at
 *	the offsets and prints the SPEC that undoes it.
 *
 *   ntfs-mutate run WORKDIR CASES MNT REFDIR
 *	For every line "id<TAB>category<TAB>SPEC<TAB>image<TAB>what" of
 *	CASES: patch WORKDIR/image (a copy of REFDIR/image), attach it to a
 *	loop device, mount it read-only as ntfs3 on MNT, walk everything,
 *	unmount, detach, undo the patch.  The walk: statfs and
 *	FS_IOC_GETFSLABEL on the root; for every object lstat, listxattr and
 *	every listed xattr, the system.* xattrs ntfs3 may know, a file
 *	handle (name_to_handle_at, open_by_handle_at, same inode?); files
 *	read (4 MiB, and the end of a bigger size), mapped and touched (a
 *	SIGBUS is an error like EIO), SEEK_DATA/SEEK_HOLE to the end,
 *	FIEMAP to the last extent, FIBMAP, O_DIRECT reads; directories
 *	listed with a 64 KiB and a 280-byte getdents64 buffer and from a
 *	seek position, an absent name looked up; symlinks read and followed.
 *	Every loop is bounded: 20000 objects per case, 5000 names visited
 *	per directory, 24 levels; a listing of more than 100000 entries
 *	(or 10000 repeated names) fails the case.  The mount and the walk
 *	run in a child under a deadline (FUZZ_TIMEOUT seconds, default
 *	60).  One TAP line per case: the mount failing with an errno or
 *	succeeding passes (refused / partly readable / fully readable); a
 *	case that does not finish in time (task states, all stacks and CPU
 *	backtraces go to the console through sysrq first), a child killed
 *	by a signal, a walk failure (readdir without end, a file handle
 *	opening another inode) or a failed unmount does not; no case
 *	starts after FUZZ_DEADLINE seconds (the rest are reported as not
 *	run).  Kernel messages are read from /dev/kmsg and counted per
 *	case.  Ends with a summary (also per category), a check that each
 *	image equals its REFDIR copy again, and the plan.
 *	Write phase (on unless FUZZ_WRITE=0): every case that mounted is
 *	copied, mounted read-write and given a short workload (create,
 *	write, rename, link, truncate, unlink, rmdir in a new directory;
 *	appends, truncation, a punched hole, a range inserted and collapsed
 *	and a create/unlink in what the root already holds; syncfs), then
 *	unmounted.  Errors are expected there (EIO,
 *	EROFS, ENOSPC); a hang, a killed child or a failed unmount fails the
 *	case, and the console is judged for oopses as for the walk.
 *	FUZZ_WALK=MASK limits the walk (for timing it): 1 listed xattrs,
 *	2 system.* xattrs, 4 reads, 8 SEEK_DATA/HOLE and FIEMAP, 16 O_DIRECT,
 *	32 directory seeks and lookups of absent names, 64 mmap, 128 FIBMAP,
 *	256 file handles, 512 listings with a small buffer.
 *
 * Only the kernel console shows oopses and KASAN reports; the host scans
 * it after the boot.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define MAX_PATCH 4096

struct patch {
	long long off;
	int len;
	unsigned char *data;
};

static int parse_spec(const char *spec, struct patch *p, int max)
{
	int n = 0;
	const char *s = spec;

	while (*s) {
		char *end;
		int len = 0;

		if (n == max)
			return -1;
		p[n].off = strtoll(s, &end, 0);
		if (end == s || *end != ':' || p[n].off < 0)
			return -1;
		s = end + 1;
		while (isxdigit((unsigned char)s[2 * len]) && isxdigit((unsigned char)s[2 * len + 1]))
			len++;
		if (!len)
			return -1;
		p[n].len = len;
		p[n].data = malloc(len);
		for (int i = 0; i < len; i++)
			sscanf(s + 2 * i, "%2hhx", &p[n].data[i]);
		s += 2 * len;
		n++;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
		else
			break;
	}
	return n;
}

/* Apply patches in order; saved[] gets the bytes they replaced. */
static int apply(int fd, struct patch *p, int n, struct patch *saved)
{
	for (int i = 0; i < n; i++) {
		saved[i].off = p[i].off;
		saved[i].len = p[i].len;
		saved[i].data = malloc(p[i].len);
		if (pread(fd, saved[i].data, p[i].len, p[i].off) != p[i].len ||
		    pwrite(fd, p[i].data, p[i].len, p[i].off) != p[i].len)
			return -1;
	}
	return 0;
}

/* Undo in reverse order, so overlapping patches restore the original. */
static int undo(int fd, struct patch *saved, int n)
{
	int err = 0;

	for (int i = n - 1; i >= 0; i--) {
		if (pwrite(fd, saved[i].data, saved[i].len, saved[i].off) != saved[i].len)
			err = -1;
		free(saved[i].data);
	}
	return err;
}

static void free_patches(struct patch *p, int n)
{
	for (int i = 0; i < n; i++)
		free(p[i].data);
}

static int cmd_apply(const char *file, const char *spec)
{
	static struct patch p[MAX_PATCH], saved[MAX_PATCH];
	int n = parse_spec(spec, p, MAX_PATCH);
	int fd = open(file, O_RDWR);
	struct stat st;

	if (n <= 0) {
		fprintf(stderr, "ntfs-mutate: bad SPEC\n");
		return 2;
	}
	if (fd < 0 || fstat(fd, &st)) {
		perror(file);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		if (p[i].off + p[i].len > st.st_size) {
			fprintf(stderr, "ntfs-mutate: patch at %lld beyond the end of %s\n", p[i].off, file);
			return 2;
		}
	}
	if (apply(fd, p, n, saved)) {
		perror(file);
		return 1;
	}
	for (int i = n - 1; i >= 0; i--) {
		printf("%lld:", saved[i].off);
		for (int k = 0; k < saved[i].len; k++)
			printf("%02x", saved[i].data[k]);
		putchar(i ? ',' : '\n');
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The walk (in the child).                                           */

/* What the child is doing, in memory shared with the parent: shown when
 * a case hangs. */
struct shared {
	char op[512];
	int loop;
};
static struct shared *sh;

enum {
	MAX_ERRNO = 256,	/* errno slots; the outcomes below follow them */
	MAX_OBJECTS = 20000,	/* objects visited per case */
	MAX_DEPTH = 24,
	READ_CAP = 4 << 20,	/* bytes read, and mapped, of one file */
	DIR_VISIT_CAP = 5000,	/* names of one directory visited */
	DIR_LIST_CAP = 100000,	/* entries of one listing: beyond, it does not terminate */
	DUP_CAP = 10000,	/* names one listing repeats: beyond, it repeats endlessly */
	STEP_CAP = 1000,	/* SEEK_DATA/SEEK_HOLE steps and FIEMAP calls per file */
	BIG_DENTS = 64 << 10,	/* getdents64 buffers: many entries, */
	SMALL_DENTS = 280,	/* about one (a longer name: one retry with 1024 bytes) */
};

/* Outcomes on an object that are no errno, tallied with the errnos. */
enum {
	E_SIGBUS = MAX_ERRNO,	/* touching a mapped page of the file */
	E_DUP,			/* a listing gives a name twice */
	E_DIFF,			/* two ways of reading the same thing disagree */
	E_BADVAL,		/* an impossible value (an offset going back, a block past the volume) */
	NERR
};

static const char *errname(int e)
{
	static const char *const pseudo[] = { "SIGBUS", "DUP", "DIFF", "BADVAL" };

	if (e >= MAX_ERRNO && e < NERR)
		return pseudo[e - MAX_ERRNO];
	return e > 0 && e < MAX_ERRNO ? strerrorname_np(e) ?: "E?" : "E?";
}

static int errnum(const char *name)
{
	for (int e = 1; e < NERR; e++)
		if (!strcmp(errname(e), name))
			return e;
	return 0;
}

/* Where the walk spends its time (summed over the cases in the summary). */
enum { P_MOUNT, P_OTHER, P_XATTR, P_HANDLE, P_READ, P_MMAP, P_SEEK, P_FIBMAP, P_DIRECT,
       P_LIST, P_SMALL, P_DIRSEEK, P_WRITE, NPARTS };
static const char *const part_name[NPARTS] = {
	"mount+umount", "lstat/readlink/open", "xattrs", "file handles", "read", "mmap",
	"SEEK_DATA/HOLE+FIEMAP", "FIBMAP", "O_DIRECT", "getdents64 64 KiB", "getdents64 280 B",
	"dir seek+lookup", "write phase",
};
static double part_time[NPARTS];
static int cur_part;
static struct timespec part_t0;

/* From now on the time goes to part p. */
static void part(int p)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	part_time[cur_part] += (t.tv_sec - part_t0.tv_sec) + (t.tv_nsec - part_t0.tv_nsec) / 1e9;
	part_t0 = t;
	cur_part = p;
}

static struct {
	int objects, bad_objects, cur_bad;
	int objcap, dircap;	/* the global cap was hit; directories not visited in full */
	int stop;		/* a walk failure: visit nothing more */
	int err[NERR];
	char first[400];	/* the first error */
	char failure[400];	/* the first failure of the case */
} w;

static unsigned char *buf;	/* 256 KiB, also O_DIRECT aligned */
static char *dents;		/* BIG_DENTS */
static const char *mnt_path = "";
static int mnt_fd = -1;
static unsigned long long dev_bytes;	/* size of the loop device */
static int mask = ~0;		/* FUZZ_WALK: which parts of the walk run */
static volatile unsigned char sink;

/* The path below the mount point, for messages. */
static const char *rel(const char *path)
{
	size_t l = strlen(mnt_path);

	if (l && !strncmp(path, mnt_path, l) && (path[l] == '/' || !path[l]))
		return path[l] ? path + l : "/";
	return path;
}

/* Names on a fuzzed volume may hold any byte: keep result lines lines. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void note(const char *op, const char *path)
{
	snprintf(sh->op, sizeof(sh->op), "%s %s", op, rel(path));
	sanitize(sh->op);
}

/* An error (errno or E_*) of an operation on the current object. */
static void __attribute__((format(printf, 4, 5)))
failx(const char *op, const char *path, int e, const char *fmt, ...)
{
	int l;

	w.err[e > 0 && e < NERR ? e : 0]++;
	if (!w.cur_bad++)
		w.bad_objects++;
	if (w.first[0])
		return;
	l = snprintf(w.first, sizeof(w.first), "%s %s: %s", op, rel(path), errname(e));
	if (fmt && l > 0 && l < (int)sizeof(w.first) - 4) {
		va_list ap;

		w.first[l++] = ' ';
		w.first[l++] = '(';
		va_start(ap, fmt);
		l += vsnprintf(w.first + l, sizeof(w.first) - l - 1, fmt, ap);
		va_end(ap);
		if (l < (int)sizeof(w.first) - 1)
			strcpy(w.first + l, ")");
	}
	sanitize(w.first);
}

static void fail(const char *op, const char *path, int e)
{
	failx(op, path, e, NULL);
}

/* A failure of the case (the kernel misbehaves beyond returning errors):
 * the walk stops. */
static void __attribute__((format(printf, 1, 2))) broken(const char *fmt, ...)
{
	va_list ap;

	w.stop = 1;
	if (w.failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(w.failure, sizeof(w.failure), fmt, ap);
	va_end(ap);
	sanitize(w.failure);
}

/* A set of names (directory entries, inode numbers): a hash table of
 * offsets into a pool of NUL-terminated strings, kept in insertion order. */
struct nameset {
	char *pool;
	size_t len, cap;
	size_t *slot, nslots, n;	/* slot: pool offset + 1, 0 when empty */
};

static size_t hash_name(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static size_t *ns_find(const struct nameset *s, const char *name)
{
	size_t i = hash_name(name) & (s->nslots - 1);

	while (s->slot[i] && strcmp(s->pool + s->slot[i] - 1, name))
		i = (i + 1) & (s->nslots - 1);
	return &s->slot[i];
}

static int ns_has(const struct nameset *s, const char *name)
{
	return s->nslots && *ns_find(s, name);
}

/* Add a name: 1, or 0 when it is there already. */
static int ns_add(struct nameset *s, const char *name)
{
	size_t l = strlen(name) + 1, *p;

	if (2 * (s->n + 1) > s->nslots) {
		struct nameset t = *s;

		t.nslots = s->nslots ? 2 * s->nslots : 256;
		t.slot = calloc(t.nslots, sizeof(*t.slot));
		if (!t.slot)
			abort();
		for (size_t o = 0; o < s->len; o += strlen(s->pool + o) + 1)
			*ns_find(&t, s->pool + o) = o + 1;
		free(s->slot);
		*s = t;
	}
	p = ns_find(s, name);
	if (*p)
		return 0;
	if (s->len + l > s->cap) {
		s->cap = 2 * (s->cap + l);
		s->pool = realloc(s->pool, s->cap);
		if (!s->pool)
			abort();
	}
	memcpy(s->pool + s->len, name, l);
	*p = s->len + 1;
	s->len += l;
	s->n++;
	return 1;
}

static void ns_free(struct nameset *s)
{
	free(s->pool);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

static struct nameset dirs_seen;	/* inode numbers of the directories walked */

/* ---- xattrs ---- */

/* 0, or -1 when the name is not listed and ntfs3 does not know it. */
static int get_xattr(const char *path, const char *name, int listed)
{
	char op[300];
	ssize_t len, r;

	snprintf(op, sizeof(op), "getxattr %s", name);
	note(op, path);
	len = lgetxattr(path, name, NULL, 0);	/* the size alone */
	if (len < 0) {
		if (!listed && errno == EOPNOTSUPP)
			return -1;
		if (errno != ENODATA)
			fail(op, path, errno);
		return 0;
	}
	r = lgetxattr(path, name, buf, 65536);
	if (r < 0) {
		if (errno != ERANGE || len <= 65536)
			fail(op, path, errno);
	} else if (r != len) {
		failx(op, path, E_DIFF, "%zd bytes, the size query said %zd", r, len);
	}
	return 0;
}

static void do_xattrs(const char *path)
{
	/* The system.* names ntfs3 may know: those it does not give
	 * EOPNOTSUPP, those it has not got for this object ENODATA. */
	static const char *const sys[] = {
		"system.ntfs_security", "system.ntfs_attrib", "system.ntfs_attrib_be",
		"system.dos_attrib", "system.ntfs_dos_name", "system.ntfs_times",
		"system.ntfs_times_be", "system.ntfs_crtime", "system.ntfs_crtime_be",
	};
	static char names[65536];
	static int unknown[sizeof(sys) / sizeof(sys[0])];	/* EOPNOTSUPP once: not asked again this case */
	ssize_t n, len;

	if (!(mask & 1))
		goto sys;
	note("listxattr", path);
	len = llistxattr(path, NULL, 0);
	if (len < 0 && errno != EOPNOTSUPP)
		fail("listxattr", path, errno);
	n = llistxattr(path, names, sizeof(names));
	if (n < 0) {
		if (len >= 0 && (errno != ERANGE || len <= (ssize_t)sizeof(names)))
			fail("listxattr", path, errno);
	} else if (len >= 0 && n != len) {
		failx("listxattr", path, E_DIFF, "%zd bytes, the size query said %zd", n, len);
	}
	/* Bounded: at most sizeof(names) bytes of names. */
	for (char *p = names, *z; n > 0 && p < names + n; p = z + 1) {
		z = memchr(p, 0, names + n - p);
		if (!z)
			break;
		if (*p)
			get_xattr(path, p, 1);
	}
sys:
	for (unsigned int i = 0; mask & 2 && i < sizeof(sys) / sizeof(sys[0]); i++)
		if (!unknown[i] && get_xattr(path, sys[i], 0) < 0)
			unknown[i] = 1;
}

/* ---- NFS file handles ---- */

static void do_handle(int dirfd, const char *name, const char *path, const struct stat *st)
{
	struct {
		struct file_handle fh;
		unsigned char data[MAX_HANDLE_SZ];
	} h;
	struct stat st2;
	int mid, fd;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	note("name_to_handle_at", path);
	if (name_to_handle_at(dirfd, name, &h.fh, &mid, 0)) {
		if (errno != EOPNOTSUPP)
			fail("name_to_handle_at", path, errno);
		return;
	}
	note("open_by_handle_at", path);
	/* Only files and directories are opened: a FIFO would wait for a
	 * writer, a device node would be a device. */
	fd = open_by_handle_at(mnt_fd, &h.fh, S_ISREG(st->st_mode) || S_ISDIR(st->st_mode) ?
				O_RDONLY | O_NONBLOCK : O_PATH);
	if (fd < 0) {
		fail("open_by_handle_at", path, errno);
		return;
	}
	if (fstat(fd, &st2))
		fail("fstat of open_by_handle_at", path, errno);
	else if (st2.st_ino != st->st_ino)
		broken("open_by_handle_at %s opens inode %llu, lstat said %llu", rel(path),
		       (unsigned long long)st2.st_ino, (unsigned long long)st->st_ino);
	close(fd);
}

/* ---- regular files ---- */

static sigjmp_buf bus_env;
static volatile sig_atomic_t bus_armed;

static void on_sigbus(int sig)
{
	if (bus_armed) {
		bus_armed = 0;
		siglongjmp(bus_env, 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Map [off, off + len) and touch every page: compare it with pread where
 * that works.  A SIGBUS is the mapping's EIO. */
static void map_range(int fd, const char *path, off_t off, size_t len)
{
	volatile size_t pos = 0;
	unsigned char *p;

	note("mmap read", path);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);
	if (p == MAP_FAILED) {
		fail("mmap", path, errno);
		return;
	}
	if (sigsetjmp(bus_env, 1)) {
		failx("mmap read", path, E_SIGBUS, "byte %lld", (long long)(off + pos));
		goto out;
	}
	bus_armed = 1;
	for (pos = 0; pos < len; pos += 256 << 10) {
		size_t n = len - pos < (256 << 10) ? len - pos : 256 << 10;

		if (pread(fd, buf, n, off + pos) == (ssize_t)n) {
			if (memcmp(p + pos, buf, n)) {
				bus_armed = 0;
				failx("mmap read", path, E_DIFF, "differs from read() in bytes %lld-%lld",
				      (long long)(off + pos), (long long)(off + pos + n - 1));
				goto out;
			}
		} else {
			for (size_t k = 0; k < n; k += 4096)
				sink += p[pos + k];
		}
	}
	bus_armed = 0;
out:
	munmap(p, len);
}

static void do_seek(int fd, const char *path, off_t size)
{
	off_t off = 0, d, h;

	note("lseek SEEK_DATA/SEEK_HOLE", path);
	for (int step = 0; step < STEP_CAP && off < size; step++) {
		d = lseek(fd, off, SEEK_DATA);
		if (d < 0) {
			if (errno != ENXIO && errno != EINVAL)
				fail("SEEK_DATA", path, errno);
			return;
		}
		if (d < off || d >= size) {
			failx("SEEK_DATA", path, E_BADVAL, "from %lld to %lld, size %lld",
			      (long long)off, (long long)d, (long long)size);
			return;
		}
		h = lseek(fd, d, SEEK_HOLE);
		if (h < 0) {
			if (errno != ENXIO && errno != EINVAL)
				fail("SEEK_HOLE", path, errno);
			return;
		}
		if (h <= d || h > size) {
			failx("SEEK_HOLE", path, E_BADVAL, "from %lld to %lld, size %lld",
			      (long long)d, (long long)h, (long long)size);
			return;
		}
		off = h;
	}
}

static int fiemap_unsupported(int e)
{
	return e == EOPNOTSUPP || e == EBADR || e == ENOTTY || e == EINVAL;
}

static void do_fiemap(int fd, const char *path)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[32];
	} fm;
	uint64_t start = 0, end = 0;

	note("FIEMAP", path);
	memset(&fm, 0, sizeof(fm));
	fm.fm.fm_length = FIEMAP_MAX_OFFSET;
	if (ioctl(fd, FS_IOC_FIEMAP, &fm) < 0) {	/* count only */
		if (!fiemap_unsupported(errno))
			fail("FIEMAP", path, errno);
		return;
	}
	for (int call = 0; call < STEP_CAP; call++) {
		int last = 0;

		memset(&fm, 0, sizeof(fm));
		fm.fm.fm_start = start;
		fm.fm.fm_length = FIEMAP_MAX_OFFSET - start;
		fm.fm.fm_extent_count = 32;
		if (ioctl(fd, FS_IOC_FIEMAP, &fm) < 0) {
			if (!fiemap_unsupported(errno))
				fail("FIEMAP", path, errno);
			return;
		}
		if (!fm.fm.fm_mapped_extents || fm.fm.fm_mapped_extents > 32)
			return;
		for (unsigned int i = 0; i < fm.fm.fm_mapped_extents; i++) {
			struct fiemap_extent *e = &fm.ext[i];

			if (e->fe_logical < end && (call || i)) {
				failx("FIEMAP", path, E_BADVAL, "extent at %llu before the end %llu of the previous",
				      (unsigned long long)e->fe_logical, (unsigned long long)end);
				return;
			}
			if (!(e->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DATA_INLINE)) && dev_bytes &&
			    e->fe_physical + e->fe_length > dev_bytes) {
				failx("FIEMAP", path, E_BADVAL, "extent at byte %llu+%llu of a %llu-byte volume",
				      (unsigned long long)e->fe_physical, (unsigned long long)e->fe_length,
				      dev_bytes);
				return;
			}
			end = e->fe_logical + e->fe_length;
			last |= e->fe_flags & FIEMAP_EXTENT_LAST;
		}
		if (last || end <= start || end >= FIEMAP_MAX_OFFSET)
			return;
		start = end;
	}
}

static void do_fibmap(int fd, const char *path, const struct stat *st)
{
	long long bs = st->st_blksize > 0 ? st->st_blksize : 4096;
	long long nb = (st->st_size + bs - 1) / bs, idx[4] = { 0, 1, nb / 2, nb - 1 };

	note("FIBMAP", path);
	for (int i = 0; i < 4; i++) {
		int blk = idx[i];

		if (idx[i] < 0 || idx[i] >= nb || idx[i] > INT_MAX || (i && idx[i] <= idx[i - 1]))
			continue;
		if (ioctl(fd, FIBMAP, &blk) < 0) {
			if (errno != EINVAL && errno != ERANGE && errno != ENOTTY && errno != EPERM)
				fail("FIBMAP", path, errno);
			return;
		}
		if (dev_bytes && blk < 0) {
			failx("FIBMAP", path, E_BADVAL, "block %lld is at block %d", idx[i], blk);
			return;
		}
		if (dev_bytes && (unsigned long long)blk * bs >= dev_bytes) {
			failx("FIBMAP", path, E_BADVAL, "block %lld is at block %d of a %llu-byte volume",
			      idx[i], blk, dev_bytes);
			return;
		}
	}
}

static void do_direct(int dirfd, const char *name, const char *path, off_t size)
{
	off_t offs[3] = { 0, (size / 2) & ~4095LL, (size - 1) & ~4095LL };
	int fd;

	note("open O_DIRECT", path);
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_DIRECT);
	if (fd < 0) {
		if (errno != EINVAL)
			fail("open O_DIRECT", path, errno);
		return;
	}
	note("read O_DIRECT", path);
	for (int i = 0; i < 3; i++) {
		if (i && (offs[i] <= offs[i - 1] || offs[i] < 0))
			continue;
		if (pread(fd, buf, 64 << 10, offs[i]) < 0) {
			if (errno != EINVAL)
				fail("read O_DIRECT", path, errno);
			break;
		}
	}
	close(fd);
}

static void do_file(int dirfd, const char *name, const char *path, const struct stat *st)
{
	long long off = 0;
	ssize_t r = 0;
	int fd;

	part(P_READ);
	note("open", path);
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW);
	if (fd < 0) {
		fail("open", path, errno);
		return;
	}
	note("read", path);
	while (mask & 4 && off < READ_CAP && (r = read(fd, buf, 256 << 10)) > 0)
		off += r;
	if (off < READ_CAP && r < 0)
		fail("read", path, errno);
	if (mask & 4 && st->st_size > READ_CAP) {	/* a size the corruption made up? its end */
		note("pread", path);
		if (pread(fd, buf, 4096, st->st_size - 4096) < 0)
			fail("pread", path, errno);
		if (pread(fd, buf, 4096, st->st_size / 2) < 0)
			fail("pread", path, errno);
	}
	part(P_MMAP);
	if (mask & 64 && st->st_size > 0) {
		map_range(fd, path, 0, st->st_size < READ_CAP ? st->st_size : READ_CAP);
		if (st->st_size > READ_CAP) {
			off_t tail = (st->st_size - 1) & ~4095LL;

			map_range(fd, path, tail, st->st_size - tail);
		}
	}
	part(P_SEEK);
	if (mask & 8) {
		do_seek(fd, path, st->st_size);
		do_fiemap(fd, path);
	}
	part(P_FIBMAP);
	if (mask & 128)
		do_fibmap(fd, path, st);
	close(fd);
	part(P_DIRECT);
	if (mask & 16)
		do_direct(dirfd, name, path, st->st_size);
	part(P_OTHER);
}

/* ---- directories ---- */

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

struct listing {
	long entries;	/* all entries, . and .. too */
	long names;	/* other entries, repeats included */
	long dups;	/* names given again */
	off_t third;	/* d_off of the third name: a position to seek to */
	int err;	/* errno of the getdents64 that failed */
	int runaway;	/* stopped: 1 more than limit entries, 2 more than DUP_CAP repeats */
};

/* List fd from its position with getdents64 calls of bufsize bytes; names
 * other than . and .. go to set (when there is one).  Ends after limit
 * entries at most. */
static void list_dir(int fd, size_t bufsize, long limit, struct nameset *set, struct listing *l)
{
	long n;

	memset(l, 0, sizeof(*l));
	l->third = -1;
	for (;;) {
		n = syscall(SYS_getdents64, fd, dents, bufsize);
		if (n < 0 && errno == EINVAL && bufsize < 1024)	/* a long name: 765 bytes at most */
			n = syscall(SYS_getdents64, fd, dents, 1024);
		if (n < 0)
			l->err = errno;
		if (n <= 0)
			return;
		for (long o = 0; o < n;) {
			struct linux_dirent64 *d = (void *)(dents + o);

			if (d->d_reclen < sizeof(*d) || o + d->d_reclen > n)
				break;
			o += d->d_reclen;
			l->entries++;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (++l->names == 3)
				l->third = d->d_off;
			if (set && !ns_add(set, d->d_name))
				l->dups++;
		}
		if (l->entries > limit) {
			l->runaway = 1;
			return;
		}
		if (l->dups > DUP_CAP) {
			l->runaway = 2;
			return;
		}
	}
}

static void visit(int dirfd, const char *name, const char *path, int depth);

static void walk_dir(int fd, const char *path, int depth)
{
	struct nameset set = { 0 }, again = { 0 };
	struct listing big, l;
	char sub[4096];
	struct stat st;
	long k = 0;

	part(P_LIST);
	note("getdents64 (64 KiB buffer)", path);
	list_dir(fd, BIG_DENTS, DIR_LIST_CAP, &set, &big);
	if (big.runaway == 1) {
		broken("readdir %s does not terminate: more than %d entries", rel(path), DIR_LIST_CAP);
		goto out;
	}
	if (big.runaway == 2) {
		broken("readdir %s repeats names endlessly: %ld repeats in %ld entries", rel(path),
		       big.dups, big.entries);
		goto out;
	}
	if (big.err)
		fail("getdents64", path, big.err);
	if (big.dups)
		failx("getdents64", path, E_DUP, "%ld of %ld names repeated", big.dups, big.names);
	/* Again with room for about one entry per call: the position must
	 * carry on from every entry. */
	part(P_SMALL);
	if (mask & 512 && !big.err) {
		note("getdents64 (280-byte buffer)", path);
		if (lseek(fd, 0, SEEK_SET) < 0) {
			fail("rewinddir", path, errno);
		} else {
			list_dir(fd, SMALL_DENTS, big.entries + 1000, &again, &l);
			if (l.runaway == 1)
				failx("getdents64 (280-byte buffer)", path, E_DIFF,
				      "more than %ld entries, %ld with a 64 KiB buffer", big.entries + 1000,
				      big.entries);
			else if (l.err)
				fail("getdents64 (280-byte buffer)", path, l.err);
			else if (l.names != big.names || again.n != set.n)
				failx("getdents64 (280-byte buffer)", path, E_DIFF,
				      "%ld names, %ld with a 64 KiB buffer", l.names, big.names);
			else
				for (size_t o = 0; o < again.len; o += strlen(again.pool + o) + 1)
					if (!ns_has(&set, again.pool + o)) {
						failx("getdents64 (280-byte buffer)", path, E_DIFF,
						      "names differ from those with a 64 KiB buffer");
						break;
					}
		}
		ns_free(&again);
	}
	/* Seek back to a position readdir handed out, list the rest again. */
	part(P_DIRSEEK);
	if (big.third > 0 && mask & 32) {
		note("getdents64 after lseek", path);
		if (lseek(fd, big.third, SEEK_SET) < 0) {
			fail("seekdir", path, errno);
		} else {
			list_dir(fd, BIG_DENTS, big.entries + 1000, NULL, &l);
			if (l.runaway)
				failx("getdents64 after seekdir", path, E_DIFF,
				      "more than %ld entries, %ld from the start", big.entries + 1000,
				      big.entries);
			else if (l.err)
				fail("getdents64 after seekdir", path, l.err);
		}
	}
	/* A lookup that walks the index down to where the name would be. */
	note("lookup of an absent name", path);
	if (mask & 32 && fstatat(fd, "zz-no-such-name.fuzz", &st, AT_SYMLINK_NOFOLLOW) &&
	    errno != ENOENT)
		fail("lookup of an absent name", path, errno);
	part(P_OTHER);
	for (size_t o = 0; o < set.len && !w.stop && !w.objcap; o += strlen(set.pool + o) + 1) {
		if (k++ == DIR_VISIT_CAP) {
			w.dircap++;
			break;
		}
		snprintf(sub, sizeof(sub), "%s/%s", path, set.pool + o);
		visit(fd, set.pool + o, sub, depth);
	}
out:
	part(P_OTHER);
	ns_free(&set);
}

static void visit(int dirfd, const char *name, const char *path, int depth)
{
	struct stat st;
	char target[4096];

	if (w.stop)
		return;
	if (w.objects >= MAX_OBJECTS) {
		w.objcap = 1;
		return;
	}
	w.objects++;
	w.cur_bad = 0;
	note("lstat", path);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		fail("lstat", path, errno);
		return;
	}
	part(P_XATTR);
	do_xattrs(path);
	part(P_HANDLE);
	if (mask & 256)
		do_handle(dirfd, name, path, &st);
	part(P_OTHER);
	if (S_ISDIR(st.st_mode)) {
		char ino[32];
		int fd;

		/* A directory under two names (a loop, say) is walked once. */
		snprintf(ino, sizeof(ino), "%llu", (unsigned long long)st.st_ino);
		if (depth >= MAX_DEPTH || !ns_add(&dirs_seen, ino))
			return;
		note("opendir", path);
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (fd < 0) {
			fail("opendir", path, errno);
			return;
		}
		walk_dir(fd, path, depth + 1);
		close(fd);
	} else if (S_ISREG(st.st_mode)) {
		do_file(dirfd, name, path, &st);
	} else if (S_ISLNK(st.st_mode)) {
		note("readlink", path);
		if (readlinkat(dirfd, name, target, sizeof(target)) < 0)
			fail("readlink", path, errno);
		note("stat (follow)", path);
		if (fstatat(dirfd, name, &st, 0) && errno != ENOENT && errno != ELOOP &&
		    errno != ENOTDIR && errno != EXDEV)
			fail("stat (follow)", path, errno);
	}
}

static int loop_attach_rw(const char *img, char *dev, size_t devlen, int rw);

static int loop_attach(const char *img, char *dev, size_t devlen)
{
	return loop_attach_rw(img, dev, devlen, 0);
}

static int loop_attach_rw(const char *img, char *dev, size_t devlen, int rw)
{
	struct loop_config cfg;
	int ctl, n, lfd, bfd;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (n < 0)
		return -errno;
	snprintf(dev, devlen, "/dev/loop%d", n);
	sh->loop = n;
	lfd = open(dev, O_RDWR | O_CLOEXEC);
	if (lfd < 0)
		return -errno;
	bfd = open(img, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (bfd < 0)
		return -errno;
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = bfd;
	cfg.info.lo_flags = rw ? 0 : LO_FLAGS_READ_ONLY;
	if (ioctl(lfd, LOOP_CONFIGURE, &cfg) < 0) {
		n = -errno;
		close(bfd);
		close(lfd);
		return n;
	}
	close(bfd);
	ioctl(lfd, BLKFLSBUF, 0);
	return lfd;
}

/* The volume as a whole: statfs and the label, on the mount root. */
static void do_volume(const char *mnt)
{
	char label[FSLABEL_MAX + 1];
	struct statfs sfs;

	note("statfs", mnt);
	if (fstatfs(mnt_fd, &sfs))
		fail("statfs", mnt, errno);
	else if (sfs.f_bfree > sfs.f_blocks || sfs.f_bavail > sfs.f_blocks)
		failx("statfs", mnt, E_BADVAL, "%llu of %llu blocks free", (unsigned long long)sfs.f_bfree,
		      (unsigned long long)sfs.f_blocks);
	note("FS_IOC_GETFSLABEL", mnt);
	memset(label, 0, sizeof(label));
	if (ioctl(mnt_fd, FS_IOC_GETFSLABEL, label) < 0) {
		if (errno != ENOTTY)
			fail("FS_IOC_GETFSLABEL", mnt, errno);
	} else if (!memchr(label, 0, FSLABEL_MAX)) {
		failx("FS_IOC_GETFSLABEL", mnt, E_BADVAL, "no NUL in %d bytes", FSLABEL_MAX);
	}
}

/* ------------------------------------------------------------------ */
/* The write phase (in the child, after the read-only walk).          */

/* Copy file from to file to; 0 or -1. */
static int copy_image(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n = 0;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, 256 << 10)) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	close(in);
	close(out);
	return n < 0 ? -1 : 0;
}

/* Write n bytes of a pattern to path (opened with flags); errors ignored. */
static void put_bytes(const char *path, int flags, size_t n)
{
	static char pattern[4096];
	int fd;

	memset(pattern, 'w', sizeof(pattern));
	note("write", path);
	fd = open(path, flags | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	while (n) {
		size_t k = n < sizeof(pattern) ? n : sizeof(pattern);

		if (write(fd, pattern, k) != (ssize_t)k)
			break;
		n -= k;
	}
	note("fsync", path);
	fsync(fd);
	close(fd);
}

/* A new directory with a file moved, linked, cut and removed again. */
static void write_new_things(const char *mnt)
{
	char d[PATH_MAX], a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];

	snprintf(d, sizeof(d), "%s/fuzz-w", mnt);
	snprintf(a, sizeof(a), "%s/fuzz-w/a", mnt);
	snprintf(b, sizeof(b), "%s/fuzz-w/b", mnt);
	snprintf(c, sizeof(c), "%s/fuzz-w/c", mnt);
	note("mkdir", d);
	mkdir(d, 0755);
	put_bytes(a, O_CREAT | O_TRUNC, 100);
	put_bytes(a, O_APPEND, 70000);
	note("rename", a);
	rename(a, b);
	note("link", b);
	link(b, c);
	note("truncate", b);
	truncate(b, 5000);
	truncate(b, 200000);
	note("unlink", c);
	unlink(c);
	unlink(b);
	note("rmdir", d);
	rmdir(d);
}

/* A hole punched, a range inserted and taken out again; errors ignored. */
static void move_ranges(const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	note("fallocate", path);
	fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4096, 8192);
	fallocate(fd, FALLOC_FL_INSERT_RANGE, 0, 4096);
	fallocate(fd, FALLOC_FL_COLLAPSE_RANGE, 0, 4096);
	close(fd);
}

/* What the root already holds: appends and cuts to files, a create in directories. */
static void write_old_things(const char *mnt)
{
	int files = 0, dirs = 0, fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char path[PATH_MAX], name[64][256];
	int n = 0, i;
	DIR *dp;
	struct dirent *de;

	if (fd < 0)
		return;
	dp = fdopendir(fd);
	if (!dp) {
		close(fd);
		return;
	}
	note("readdir", mnt);
	while (n < 64 && (de = readdir(dp)))
		if (de->d_name[0] != '.' && de->d_name[0] != '$')
			snprintf(name[n++], sizeof(name[0]), "%s", de->d_name);
	closedir(dp);
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", mnt, name[i]);
		note("lstat", path);
		if (lstat(path, &st))
			continue;
		if (S_ISREG(st.st_mode) && files++ < 4) {
			put_bytes(path, O_APPEND, 3000);
			note("truncate", path);
			truncate(path, st.st_size / 2);
			move_ranges(path);
		} else if (S_ISDIR(st.st_mode) && dirs++ < 2) {
			char f[PATH_MAX];

			snprintf(f, sizeof(f), "%s/%s/fuzz-new", mnt, name[i]);
			put_bytes(f, O_CREAT | O_EXCL, 10);
			note("unlink", f);
			unlink(f);
		}
	}
}

/* Copy the patched image, mount it read-write, change it, unmount it. */
static void write_phase(const char *img, const char *mnt)
{
	const char *env = getenv("FUZZ_WRITE");
	char copy[PATH_MAX], dev[64];
	int lfd, mfd;

	if (env && !strcmp(env, "0"))
		return;
	part(P_WRITE);
	snprintf(copy, sizeof(copy), "%s.w", img);
	note("copy", img);
	if (copy_image(img, copy))
		return;
	lfd = loop_attach_rw(copy, dev, sizeof(dev), 1);
	if (lfd < 0) {
		unlink(copy);
		return;
	}
	note("mount rw", dev);
	if (!mount(dev, mnt, "ntfs3", 0, "")) {
		write_new_things(mnt);
		write_old_things(mnt);
		mfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		note("syncfs", mnt);
		if (mfd >= 0) {
			syncfs(mfd);
			close(mfd);
		}
		note("umount rw", mnt);
		if (umount(mnt))
			broken("umount after the write phase: %s", strerrorname_np(errno) ?: "?");
	}
	ioctl(lfd, LOOP_CLR_FD, 0);
	close(lfd);
	unlink(copy);
}

/* The child: mount, walk, unmount.  The result on fd out, in one write:
 *   refused ERRNO
 *   mounted OBJECTS BAD umount=ERRNO objcap=0|1 dircap=N [ERRNO:COUNT...]
 *   first: the first error
 *   fail: the failure of the case (the walk stopped there) */
static void run_child(const char *img, const char *mnt, int out)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	char dev[64], res[2048];
	int lfd, len, rc;

	mnt_path = mnt;
	sigaction(SIGBUS, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &part_t0);
	part(P_MOUNT);
	note("loop", img);
	lfd = loop_attach(img, dev, sizeof(dev));
	if (lfd < 0) {
		dprintf(out, "harness loop setup failed: %s\n", strerrorname_np(-lfd) ?: "?");
		_exit(3);
	}
	if (ioctl(lfd, BLKGETSIZE64, &dev_bytes) < 0)
		dev_bytes = 0;
	note("mount", dev);
	if (mount(dev, mnt, "ntfs3", MS_RDONLY, "")) {
		dprintf(out, "refused %s\n", strerrorname_np(errno) ?: "?");
		ioctl(lfd, LOOP_CLR_FD, 0);
		_exit(0);
	}
	part(P_OTHER);
	mnt_fd = open(mnt, O_RDONLY | O_DIRECTORY);
	if (mnt_fd < 0)
		fail("open", mnt, errno);
	else
		do_volume(mnt);
	visit(AT_FDCWD, mnt, mnt, 0);
	if (mnt_fd >= 0)
		close(mnt_fd);
	part(P_MOUNT);
	note("umount", mnt);
	rc = umount(mnt) ? errno : 0;
	ioctl(lfd, LOOP_CLR_FD, 0);
	if (!rc)
		write_phase(img, mnt);
	part(P_OTHER);
	len = snprintf(res, sizeof(res), "mounted %d %d umount=%d objcap=%d dircap=%d", w.objects,
		       w.bad_objects, rc, w.objcap, w.dircap);
	for (int e = 0; e < NERR; e++)
		if (w.err[e])
			len += snprintf(res + len, sizeof(res) - len, " %s:%d", errname(e), w.err[e]);
	if (w.first[0])
		len += snprintf(res + len, sizeof(res) - len, "\nfirst: %s", w.first);
	if (w.failure[0])
		len += snprintf(res + len, sizeof(res) - len, "\nfail: %s", w.failure);
	len += snprintf(res + len, sizeof(res) - len, "\ntimes:");
	for (int i = 0; i < NPARTS; i++)
		len += snprintf(res + len, sizeof(res) - len, " %.4f", part_time[i]);
	dprintf(out, "%s\n", res);
	_exit(0);
}

/* ------------------------------------------------------------------ */
/* The parent.                                                        */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Kernel messages: count those of the case, keep a histogram of their
 * shapes (digits dropped) for the summary. */
#define MAX_SHAPES 64
static struct {
	char text[120];
	int count;
} shapes[MAX_SHAPES];
static int nshapes, kmsg_total;

/* Read what /dev/kmsg has; count (and tally) the messages naming ntfs3
 * unless discard (the stacks of a sysrq dump name it too). */
static int read_kmsg(int fd, int discard)
{
	char rec[2048], shape[120];
	int n = 0;
	ssize_t r;

	if (fd < 0)
		return 0;
	while ((r = read(fd, rec, sizeof(rec) - 1)) != 0) {
		char *msg, *s, *d;

		if (r < 0) {
			if (errno == EPIPE)
				continue;
			break;
		}
		rec[r] = 0;
		msg = strchr(rec, ';');
		if (discard || !msg || !strstr(msg, "ntfs3"))
			continue;
		msg++;
		n++;
		/* Numbers become '#', digits in words stay (ntfs3, loop12). */
		int word = 0;

		for (s = msg, d = shape; *s && *s != '\n' && d < shape + sizeof(shape) - 1; s++) {
			unsigned char c = *s;

			if (isalpha(c))
				word = 1;
			else if (!isdigit(c))
				word = 0;
			if (!isdigit(c) || word)
				*d++ = c;
			else if (d == shape || d[-1] != '#')
				*d++ = '#';
		}
		*d = 0;
		int i;

		for (i = 0; i < nshapes && strcmp(shapes[i].text, shape); i++)
			;
		if (i == nshapes && nshapes < MAX_SHAPES)
			strcpy(shapes[nshapes++].text, shape);
		if (i < nshapes)
			shapes[i].count++;
	}
	kmsg_total += n;
	return n;
}

static int wait_child(pid_t pid, int ms)
{
	int pfd = syscall(SYS_pidfd_open, pid, 0), rc = 0;
	struct pollfd p = { .fd = pfd, .events = POLLIN };

	if (pfd < 0)
		return -1;
	rc = poll(&p, 1, ms);
	close(pfd);
	return rc;	/* 1: exited, 0: timed out */
}

/* The state letter (R, D, S...) and kernel stack of a hung child. */
static void task_info(pid_t pid, char *state, size_t slen, char *stack, size_t stlen)
{
	char path[64], line[512], *s;
	size_t len = 0;
	FILE *f;

	snprintf(state, slen, "?");
	stack[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(line, sizeof(line), f) && (s = strrchr(line, ')')) && s[1] == ' ')
			snprintf(state, slen, "%c", s[2]);
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && len + strlen(line) + 6 < stlen)
		len += snprintf(stack + len, stlen - len, "#   %s", line);
	fclose(f);
}

static void write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		/* the dump is a best effort */
		if (write(fd, s, strlen(s)) < 0)
			errno = 0;
		close(fd);
	}
}

/* Task states, every task's stack and every CPU's backtrace on the
 * console, between two marker lines (scripts/vm/results.py counts the dump
 * as one report, with its reason).  At most three dumps per run. */
static int sysrq_dump(const char *reason)
{
	static int dumps;
	char msg[1100];

	if (dumps >= 3 || access("/proc/sysrq-trigger", W_OK))
		return 0;
	dumps++;
	write_str("/proc/sys/kernel/sysrq", "1");
	snprintf(msg, sizeof(msg), "<5>hx-sysrq-dump: begin %s\n", reason);
	write_str("/dev/kmsg", msg);
	write_str("/proc/sysrq-trigger", "w");
	write_str("/proc/sysrq-trigger", "t");
	write_str("/proc/sysrq-trigger", "l");
	write_str("/dev/kmsg", "<5>hx-sysrq-dump: end\n");
	return 1;
}

static int cmp_files(const char *a, const char *b)
{
	static unsigned char x[1 << 16], y[1 << 16];
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY), same = fa >= 0 && fb >= 0;
	ssize_t ra, rb;

	while (same && (ra = read(fa, x, sizeof(x))) >= 0) {
		rb = read(fb, y, sizeof(y));
		if (ra != rb || memcmp(x, y, ra))
			same = 0;
		if (ra == 0)
			break;
	}
	close(fa);
	close(fb);
	return same;
}

/* The images the cases patch: WORKDIR/NAME, opened once. */
#define MAX_IMAGES 16
static struct {
	char name[64], path[300];
	int fd;
} images[MAX_IMAGES];
static int nimages;

static int image(const char *dir, const char *name)
{
	int i;

	for (i = 0; i < nimages; i++)
		if (!strcmp(images[i].name, name))
			return i;
	if (nimages == MAX_IMAGES || strlen(name) >= sizeof(images[0].name) || strchr(name, '/'))
		return -1;
	snprintf(images[i].name, sizeof(images[i].name), "%s", name);
	snprintf(images[i].path, sizeof(images[i].path), "%s/%s", dir, name);
	images[i].fd = open(images[i].path, O_RDWR);
	if (images[i].fd < 0)
		return -1;
	return nimages++;
}

/* Outcomes per category, for the summary; the last slot takes the rest. */
#define MAX_CATS 48
static struct cat {
	char name[40];
	int refused, partly, fully, failed;
} cats[MAX_CATS + 1];
static int ncats;

static struct cat *category(const char *name)
{
	int i;

	for (i = 0; i < ncats && strcmp(cats[i].name, name); i++)
		;
	if (i == ncats) {
		if (ncats == MAX_CATS) {
			snprintf(cats[MAX_CATS].name, sizeof(cats[0].name), "(others)");
			return &cats[MAX_CATS];
		}
		snprintf(cats[ncats++].name, sizeof(cats[0].name), "%s", name);
	}
	return &cats[i];
}

static int cmd_run(const char *workdir, const char *cases, const char *mntbase, const char *refdir)
{
	static struct patch p[MAX_PATCH], saved[MAX_PATCH];
	int timeout = getenv("FUZZ_TIMEOUT") ? atoi(getenv("FUZZ_TIMEOUT")) : 60;
	/* FUZZ_DEADLINE: seconds after which no case starts (the suite's
	 * time limit is near); the cases left are reported as not run. */
	double deadline = getenv("FUZZ_DEADLINE") ? atof(getenv("FUZZ_DEADLINE")) : 1e9;
	int refused = 0, with_errors = 0, clean = 0, failed = 0, skipped = 0, tap = 0, stuck = 0;
	int not_run = 0, hangs = 0, died = 0, walk_failed = 0, umount_failed = 0, capped = 0;
	int refused_by[NERR] = { 0 }, errors_by[NERR] = { 0 };
	double t0 = now(), slowest = 0, case_parts[NPARTS] = { 0 }, walk_total = 0;
	char *line = NULL, mnt[256], slowest_id[32] = "-", seed[32] = "?";
	size_t cap = 0;
	FILE *cf = fopen(cases, "r");
	int kfd;

	if (!cf) {
		perror(cases);
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	buf = aligned_alloc(4096, 256 << 10);
	dents = malloc(BIG_DENTS);
	if (sh == MAP_FAILED || !buf || !dents)
		return 2;
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	snprintf(mnt, sizeof(mnt), "%s", mntbase);
	mkdir(mnt, 0755);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("FUZZ_WALK") && *getenv("FUZZ_WALK"))
		mask = strtol(getenv("FUZZ_WALK"), NULL, 0);
	if (getenv("FUZZ_SEED") && *getenv("FUZZ_SEED"))
		snprintf(seed, sizeof(seed), "%s", getenv("FUZZ_SEED"));

	while (getline(&line, &cap, cf) > 0) {
		char *id, *cat, *spec, *iname, *what, *save, res[4096] = "", label[160];
		char *first = NULL, *failure = NULL, *s;
		int np, status = 0, rc, pipefd[2], msgs, fd, im;
		struct cat *c;
		const char *img;
		size_t got = 0;
		double t, pt;
		pid_t pid;
		ssize_t r;

		if (line[0] == '#') {	/* "# ntfs-fuzz-gen seed=1 n=300 ..." */
			if ((s = strstr(line, " seed=")))
				sscanf(s + 6, "%31[^ \t\n]", seed);
			continue;
		}
		if (line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = 0;
		id = strtok_r(line, "\t", &save);
		cat = strtok_r(NULL, "\t", &save);
		spec = strtok_r(NULL, "\t", &save);
		iname = strtok_r(NULL, "\t", &save);
		what = strtok_r(NULL, "", &save);
		if (!what)
			what = "";
		tap++;
		if (!cat || !spec || !iname) {
			printf("not ok %d - case %s: malformed line\n", tap, id);
			category("?")->failed++;
			failed++;
			continue;
		}
		if (!strcmp(cat, "skip")) {
			printf("ok %d - case %s # SKIP FUZZ_SKIP\n", tap, id);
			skipped++;
			continue;
		}
		c = category(cat);
		if (now() - t0 > deadline) {
			if (!not_run++)
				printf("# ntfs-fuzz: the time limit is near (FUZZ_DEADLINE=%.0f s): no more cases\n",
				       deadline);
			printf("not ok %d - case %s %s: not run, out of time (raise TEST_TIMEOUT)\n", tap, id, cat);
			c->failed++;
			failed++;
			continue;
		}
		im = image(workdir, iname);
		if (im < 0) {
			printf("not ok %d - case %s %s: cannot open image %s/%s\n", tap, id, cat, workdir, iname);
			c->failed++;
			failed++;
			continue;
		}
		fd = images[im].fd;
		img = images[im].path;
		/* "case 17 runlist", "case 18 index-root on base-c512.img" */
		if (strcmp(iname, "base.img"))
			snprintf(label, sizeof(label), "%s on %s", cat, iname);
		else
			snprintf(label, sizeof(label), "%s", cat);
		np = parse_spec(spec, p, MAX_PATCH);
		if (np <= 0 || apply(fd, p, np, saved)) {
			printf("not ok %d - case %s %s: bad patch '%s'\n", tap, id, label, spec);
			c->failed++;
			failed++;
			continue;
		}
		t = now();
		memset(sh, 0, sizeof(*sh));
		sh->loop = -1;
		if (pipe(pipefd))
			return 2;
		pid = fork();
		if (pid == 0) {
			close(pipefd[0]);
			run_child(img, mnt, pipefd[1]);
		}
		close(pipefd[1]);
		rc = wait_child(pid, timeout * 1000);
		if (rc == 0) {
			char op[sizeof(sh->op)], state[8], stack[4096], reason[1024], later[600] = "";
			double th = now();
			int dumped;

			/* The hang report: the child's state and stack, then
			 * (before the kill changes them) all tasks' on the
			 * console. */
			snprintf(op, sizeof(op), "%s", sh->op);
			task_info(pid, state, sizeof(state), stack, sizeof(stack));
			read_kmsg(kfd, 0);
			snprintf(reason, sizeof(reason),
				 "hang: case %s (seed %s, %s, %s) did not finish in %d s in %s", id, seed, cat,
				 iname, timeout, op);
			dumped = sysrq_dump(reason);
			read_kmsg(kfd, 1);
			/* Slow rather than stuck? */
			if (strcmp(op, sh->op))
				snprintf(later, sizeof(later), ", still moving: %.0f s later in %.500s",
					 now() - th, sh->op);
			kill(pid, SIGKILL);
			rc = wait_child(pid, 20000);
			printf("not ok %d - %s (task state %s%s, %s); %s [%s]\n", tap, reason, state, later,
			       rc == 0 ? "unkillable" : "killed",
			       dumped ? "stacks dumped on the console" : "no console dump (3 made already)", what);
			printf("#   kernel stack of the walker when its time was up:\n%s", stack);
			c->failed++;
			failed++;
			hangs++;
			if (rc == 0) {
				/* It holds the loop device and the mount point:
				 * carry on with fresh ones. */
				snprintf(mnt, sizeof(mnt), "%s.%d", mntbase, ++stuck);
				mkdir(mnt, 0755);
				close(pipefd[0]);
				undo(fd, saved, np);
				free_patches(p, np);
				read_kmsg(kfd, 0);
				if (stuck >= 3) {
					printf("Bail out! three cases hang in the kernel\n");
					return 1;
				}
				continue;
			}
			waitpid(pid, &status, 0);
			umount2(mnt, MNT_DETACH);
			if (sh->loop >= 0) {
				char dev[64];
				int lfd;

				snprintf(dev, sizeof(dev), "/dev/loop%d", sh->loop);
				lfd = open(dev, O_RDWR);
				if (lfd >= 0) {
					ioctl(lfd, LOOP_CLR_FD, 0);
					close(lfd);
				}
			}
			close(pipefd[0]);
			undo(fd, saved, np);
			free_patches(p, np);
			read_kmsg(kfd, 0);
			continue;
		}
		while (got < sizeof(res) - 1 && (r = read(pipefd[0], res + got, sizeof(res) - 1 - got)) > 0)
			got += r;
		res[got] = 0;
		close(pipefd[0]);
		waitpid(pid, &status, 0);
		t = now() - t;
		if (t > slowest) {
			slowest = t;
			snprintf(slowest_id, sizeof(slowest_id), "%s", id);
		}
		if (undo(fd, saved, np)) {
			printf("Bail out! cannot restore %s\n", img);
			return 1;
		}
		free_patches(p, np);
		msgs = read_kmsg(kfd, 0);
		/* The result: its first line, then "first: ..." and "fail: ...". */
		for (char *l = strchr(res, '\n'); l; l = strchr(l, '\n')) {
			*l++ = 0;
			if (!strncmp(l, "first: ", 7))
				first = l + 7;
			else if (!strncmp(l, "fail: ", 6))
				failure = l + 6;
			else if (!strncmp(l, "times:", 6))
				for (int i = 0, n; i < NPARTS && sscanf(l + 6, "%lf%n", &pt, &n) == 1; i++, l += n)
					case_parts[i] += pt;
		}

		char tail[64];

		snprintf(tail, sizeof(tail), "%.1f s, %d ntfs3 msg%s", t, msgs, msgs == 1 ? "" : "s");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("not ok %d - case %s %s: walker died (status 0x%x): %s; last operation: %s (%s) [%s]\n",
			       tap, id, label, status, res, sh->op, tail, what);
			c->failed++;
			failed++;
			died++;
		} else if (!strncmp(res, "refused ", 8)) {
			refused_by[errnum(res + 8)]++;
			refused++;
			c->refused++;
			printf("ok %d - case %s %s: mount refused (%s) (%s) [%s]\n", tap, id, label, res + 8, tail,
			       what);
		} else if (!strncmp(res, "mounted ", 8)) {
			int objs = 0, bad = 0, um = 0, objcap = 0, dircap = 0, off = 0;
			char caps[160] = "", *errs;

			sscanf(res + 8, "%d %d umount=%d objcap=%d dircap=%d %n", &objs, &bad, &um, &objcap,
			       &dircap, &off);
			errs = res + 8 + off;
			if (objcap || dircap) {
				int l = 0;

				capped++;
				if (objcap)
					l += snprintf(caps + l, sizeof(caps) - l, ", walk capped at %d objects",
						      MAX_OBJECTS);
				if (dircap)
					snprintf(caps + l, sizeof(caps) - l,
						 ", %d director%s visited only in part (%d names)", dircap,
						 dircap == 1 ? "y" : "ies", DIR_VISIT_CAP);
			}
			if (um) {
				printf("not ok %d - case %s %s: umount failed (%s): %s (%s) [%s]\n",
				       tap, id, label, strerrorname_np(um) ?: "?", res + 8, tail, what);
				c->failed++;
				failed++;
				umount_failed++;
			} else if (failure) {
				printf("not ok %d - case %s %s: mounted, the walk failed: %s (after %d objects%s%s%s) (%s) [%s]\n",
				       tap, id, label, failure, objs, bad ? ", errors: " : "", bad ? errs : "",
				       caps, tail, what);
				c->failed++;
				failed++;
				walk_failed++;
			} else if (bad) {
				char *tok = errs, name[32];
				int n, cnt;

				/* Tally the errnos ("EIO:3 SIGBUS:1"). */
				while (sscanf(tok, "%31[^: ]:%d %n", name, &cnt, &n) == 2) {
					errors_by[errnum(name)] += cnt;
					tok += n;
				}
				with_errors++;
				c->partly++;
				printf("ok %d - case %s %s: mounted, %d of %d objects gave errors: %s | first: %s%s (%s) [%s]\n",
				       tap, id, label, bad, objs, errs, first ?: "?", caps, tail, what);
			} else {
				clean++;
				c->fully++;
				printf("ok %d - case %s %s: mounted, all %d objects readable%s (%s) [%s]\n",
				       tap, id, label, objs, caps, tail, what);
			}
		} else {
			printf("not ok %d - case %s %s: no result from the walker: '%s' (%s) [%s]\n",
			       tap, id, label, res, tail, what);
			c->failed++;
			failed++;
			died++;
		}
	}

	double total = now() - t0;
	int ran = refused + with_errors + clean + failed - not_run;

	printf("# ntfs-fuzz summary: %d cases: %d mounts refused, %d mounted with errors on some objects, "
	       "%d mounted fully readable, %d failed (hang/crash/walk/umount/not run), %d skipped\n",
	       tap, refused, with_errors, clean, failed, skipped);
	printf("# ntfs-fuzz failures: %d hangs, %d walkers died, %d walks failed, %d unmounts failed, "
	       "%d not run; %d walks capped (%d objects, %d names per directory)\n",
	       hangs, died, walk_failed, umount_failed, not_run, capped, MAX_OBJECTS, DIR_VISIT_CAP);
	printf("# ntfs-fuzz by category: refused / partly readable / fully readable / failed\n");
	for (int i = 0; i <= MAX_CATS; i++)
		if (i < ncats || (i == MAX_CATS && cats[i].name[0]))
			printf("#   %-22s %5d %5d %5d %5d\n", cats[i].name, cats[i].refused, cats[i].partly,
			       cats[i].fully, cats[i].failed);
	printf("# ntfs-fuzz mounts refused by errno:%s", refused ? "" : " none");
	for (int e = 0; e < NERR; e++)
		if (refused_by[e])
			printf(" %s %d", e ? errname(e) : "other", refused_by[e]);
	printf("\n# ntfs-fuzz errors on objects of mounted volumes, by errno:%s", with_errors ? "" : " none");
	for (int e = 0; e < NERR; e++)
		if (errors_by[e])
			printf(" %s %d", e ? errname(e) : "other", errors_by[e]);
	printf("\n# ntfs-fuzz time: %.0f s, %.2f s per case, slowest case %s (%.1f s)\n",
	       total, ran ? total / ran : 0, slowest_id, slowest);
	for (int i = 0; i < NPARTS; i++)
		walk_total += case_parts[i];
	printf("# ntfs-fuzz time of the cases that finished, by part:");
	for (int i = 0; i < NPARTS; i++)
		printf("%s %s %.0f s (%.0f%%)", i ? "," : "", part_name[i], case_parts[i],
		       walk_total > 0 ? 100 * case_parts[i] / walk_total : 0);
	printf("\n");
	printf("# ntfs-fuzz kernel messages naming ntfs3: %d; most frequent shapes:\n", kmsg_total);
	for (int k = 0; k < 12; k++) {
		int best = -1;

		for (int i = 0; i < nshapes; i++)
			if (shapes[i].count > 0 && (best < 0 || shapes[i].count > shapes[best].count))
				best = i;
		if (best < 0)
			break;
		printf("#   %5d  %s\n", shapes[best].count, shapes[best].text);
		shapes[best].count = -shapes[best].count;
	}
	for (int i = 0; i < nimages; i++) {
		char ref[PATH_MAX];
		int same;

		close(images[i].fd);
		same = snprintf(ref, sizeof(ref), "%s/%s", refdir, images[i].name) < (int)sizeof(ref) &&
		       cmp_files(images[i].path, ref);
		tap++;
		if (same) {
			printf("ok %d - %s is unchanged after all cases (every patch undone)\n", tap, images[i].name);
		} else {
			printf("not ok %d - %s differs from %s after undoing every patch\n", tap, images[i].path, ref);
			failed++;
		}
	}
	printf("1..%d\n", tap);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "apply"))
		return cmd_apply(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "run"))
		return cmd_run(argv[2], argv[3], argv[4], argv[5]);
	fprintf(stderr, "usage: ntfs-mutate apply FILE SPEC\n"
			"       ntfs-mutate run WORKDIR CASES MNT REFDIR\n");
	return 2;
}
