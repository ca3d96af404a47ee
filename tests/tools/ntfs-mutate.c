// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs-mutate: apply byte patches to an image, and the corruption fuzzer's
 * per-case loop (tests/ntfs-fuzz/fuzz.sh; cases from scripts/ntfs-fuzz-gen.py).
 *
 *   ntfs-mutate apply FILE SPEC
 *	SPEC is "offset:hexbytes[,offset:hexbytes...]"; writes the bytes at
 *	the offsets and prints the SPEC that undoes it.
 *
 *   ntfs-mutate run WORKDIR CASES MNT REFDIR
 *	For every line "id<TAB>category<TAB>SPEC<TAB>image<TAB>what" of
 *	CASES: patch WORKDIR/image (a copy of REFDIR/image), attach it to a
 *	loop device, mount it read-only as ntfs3 on MNT, walk everything (readdir and seeks in directories, lookups of absent
 *	names, stat, every xattr, reads of whole files, O_DIRECT, FIEMAP,
 *	SEEK_DATA, readlink, statfs), unmount, detach, undo the patch.  The
 *	mount and the walk run in a child under a deadline (FUZZ_TIMEOUT
 *	seconds, default 60).  One TAP line per case: the mount failing with
 *	an errno or succeeding passes; a case that does not finish in time, a
 *	child killed by a signal or a failed unmount does not; no case starts
 *	after FUZZ_DEADLINE seconds (the rest are reported as not run).  Kernel
 *	messages are read from /dev/kmsg and counted per case.  Ends with a
 *	summary, a check that each image equals its REFDIR copy again, and
 *	the plan.
 *	FUZZ_WALK=MASK limits the walk (for timing it): 1 user xattrs,
 *	2 system.* xattrs, 4 reads, 8 SEEK_DATA/HOLE and FIEMAP, 16 O_DIRECT,
 *	32 directory seeks and lookups of absent names.
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
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <poll.h>
#include <signal.h>
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

enum { MAX_ERRNO = 256, MAX_OBJECTS = 20000, MAX_DEPTH = 24, READ_CAP = 4 << 20 };

static struct {
	int objects, bad_objects, cur_bad;
	int err[MAX_ERRNO];
	char first[300];
} w;

static unsigned char *buf;	/* 256 KiB, also O_DIRECT aligned */
static const char *mnt_path = "";
static int mask = ~0;		/* FUZZ_WALK: which parts of the walk run */

static void note(const char *op, const char *path)
{
	snprintf(sh->op, sizeof(sh->op), "%s %s", op, path);
}

/* An unexpected error of an operation on the current object. */
static void fail(const char *op, const char *path, int e)
{
	w.err[e > 0 && e < MAX_ERRNO ? e : 0]++;
	if (!w.cur_bad++)
		w.bad_objects++;
	if (!w.first[0]) {
		size_t l = strlen(mnt_path);

		if (!strncmp(path, mnt_path, l))
			path = path[l] ? path + l : "/";
		snprintf(w.first, sizeof(w.first), "%s %s: %s", op, path, strerrorname_np(e) ?: "?");
	}
}

static void do_xattrs(const char *path)
{
	static const char *sys[] = { "system.ntfs_attrib", "system.ntfs_attrib_be",
				     "system.dos_attrib", "system.ntfs_security" };
	char names[16384], *p;
	ssize_t n;

	if (!(mask & 1))
		goto sys;
	note("listxattr", path);
	n = llistxattr(path, names, sizeof(names));
	if (n < 0 && errno != EOPNOTSUPP && errno != ERANGE)
		fail("listxattr", path, errno);
	for (p = names; n > 0 && p < names + n; p += strlen(p) + 1) {
		note("getxattr", path);
		if (lgetxattr(path, p, buf, 65536) < 0 && errno != ENODATA && errno != ERANGE)
			fail("getxattr", path, errno);
	}
sys:
	for (unsigned int i = 0; mask & 2 && i < sizeof(sys) / sizeof(sys[0]); i++) {
		note("getxattr", path);
		if (lgetxattr(path, sys[i], buf, 65536) < 0 && errno != ENODATA &&
		    errno != EOPNOTSUPP && errno != ERANGE)
			fail("getxattr", path, errno);
	}
}

static void do_file(int dirfd, const char *name, const char *path, const struct stat *st)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[32];
	} fm;
	long long off = 0;
	ssize_t r = 0;
	int fd;

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
	if (st->st_size > READ_CAP) {	/* a size the corruption made up? its end */
		note("pread-end", path);
		if (pread(fd, buf, 4096, st->st_size - 4096) < 0)
			fail("pread", path, errno);
		if (pread(fd, buf, 4096, st->st_size / 2) < 0)
			fail("pread", path, errno);
	}
	if (!(mask & 8))
		goto direct;
	note("seek-data", path);
	if (lseek(fd, 0, SEEK_DATA) < 0 && errno != ENXIO && errno != EINVAL)
		fail("SEEK_DATA", path, errno);
	if (lseek(fd, 0, SEEK_HOLE) < 0 && errno != ENXIO && errno != EINVAL)
		fail("SEEK_HOLE", path, errno);
	memset(&fm, 0, sizeof(fm));
	fm.fm.fm_length = ~0ULL;
	fm.fm.fm_extent_count = 32;
	note("fiemap", path);
	if (ioctl(fd, FS_IOC_FIEMAP, &fm) < 0 && errno != EOPNOTSUPP && errno != EBADR &&
	    errno != ENOTTY && errno != EINVAL)
		fail("FIEMAP", path, errno);
direct:
	close(fd);
	if (!(mask & 16))
		return;
	note("open-direct", path);
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_DIRECT);
	if (fd < 0) {
		if (errno != EINVAL)
			fail("open O_DIRECT", path, errno);
		return;
	}
	note("read-direct", path);
	if (read(fd, buf, 64 << 10) < 0 && errno != EINVAL)
		fail("read O_DIRECT", path, errno);
	close(fd);
}

static void walk_dir(int fd, const char *path, int depth);

static void visit(int dirfd, const char *name, const char *path, int depth)
{
	struct stat st;
	char target[4096];

	w.objects++;
	w.cur_bad = 0;
	note("lstat", path);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		fail("lstat", path, errno);
		return;
	}
	do_xattrs(path);
	if (S_ISDIR(st.st_mode)) {
		int fd;

		if (depth >= MAX_DEPTH)
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
		note("stat-follow", path);
		if (fstatat(dirfd, name, &st, 0) && errno != ENOENT && errno != ELOOP &&
		    errno != ENOTDIR && errno != EXDEV)
			fail("stat (follow)", path, errno);
	}
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static void walk_dir(int fd, const char *path, int depth)
{
	char dents[32768], sub[4096], *names = NULL;
	size_t nlen = 0, ncap = 0;
	long n, count = 0;
	off_t mid = -1;
	struct stat st;

	note("readdir", path);
	while ((n = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0) {
		for (long o = 0; o < n;) {
			struct linux_dirent64 *d = (void *)(dents + o);
			size_t l = strlen(d->d_name) + 1;

			o += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (++count == 3)
				mid = d->d_off;
			if (w.objects + count > MAX_OBJECTS)
				break;
			if (nlen + l > ncap) {
				ncap = 2 * (ncap + l);
				names = realloc(names, ncap);
			}
			memcpy(names + nlen, d->d_name, l);
			nlen += l;
		}
		if (w.objects + count > MAX_OBJECTS)
			break;
	}
	if (n < 0)
		fail("readdir", path, errno);
	/* Seek back to a position readdir handed out, list the rest again. */
	if (mid > 0 && mask & 32) {
		note("readdir-seek", path);
		if (lseek(fd, mid, SEEK_SET) < 0)
			fail("seekdir", path, errno);
		else
			while ((n = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0)
				;
		if (n < 0)
			fail("readdir after seek", path, errno);
	}
	/* A lookup that walks the index down to where the name would be. */
	note("lookup-absent", path);
	if (mask & 32 && fstatat(fd, "zz-no-such-name.fuzz", &st, AT_SYMLINK_NOFOLLOW) &&
	    errno != ENOENT)
		fail("lookup of an absent name", path, errno);
	for (size_t o = 0; o < nlen; o += strlen(names + o) + 1) {
		snprintf(sub, sizeof(sub), "%s/%s", path, names + o);
		visit(fd, names + o, sub, depth);
	}
	free(names);
}

static int loop_attach(const char *img, char *dev, size_t devlen)
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
	bfd = open(img, O_RDONLY | O_CLOEXEC);
	if (bfd < 0)
		return -errno;
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = bfd;
	cfg.info.lo_flags = LO_FLAGS_READ_ONLY;
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

/* The child: mount, walk, unmount.  One result line on fd out. */
static void run_child(const char *img, const char *mnt, int out)
{
	char dev[64], res[1024];
	struct statfs sfs;
	int lfd, len, rc;

	mnt_path = mnt;
	note("loop", img);
	lfd = loop_attach(img, dev, sizeof(dev));
	if (lfd < 0) {
		dprintf(out, "harness loop setup failed: %s\n", strerrorname_np(-lfd) ?: "?");
		_exit(3);
	}
	note("mount", dev);
	if (mount(dev, mnt, "ntfs3", MS_RDONLY, "")) {
		dprintf(out, "refused %s\n", strerrorname_np(errno) ?: "?");
		ioctl(lfd, LOOP_CLR_FD, 0);
		_exit(0);
	}
	note("statfs", mnt);
	if (statfs(mnt, &sfs))
		fail("statfs", "/", errno);
	visit(AT_FDCWD, mnt, mnt, 0);
	note("umount", mnt);
	rc = umount(mnt) ? errno : 0;
	ioctl(lfd, LOOP_CLR_FD, 0);
	len = snprintf(res, sizeof(res), "mounted %d %d umount=%d", w.objects, w.bad_objects, rc);
	for (int e = 0; e < MAX_ERRNO; e++)
		if (w.err[e])
			len += snprintf(res + len, sizeof(res) - len, " %s:%d",
					e ? strerrorname_np(e) ?: "?" : "E?", w.err[e]);
	if (w.first[0])
		len += snprintf(res + len, sizeof(res) - len, " | first: %s", w.first);
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

static int read_kmsg(int fd)
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
		if (!msg || !strstr(msg, "ntfs3"))
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

static void show_stack(pid_t pid)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		printf("#   %s", line);
	fclose(f);
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

static int cmd_run(const char *workdir, const char *cases, const char *mntbase, const char *refdir)
{
	static struct patch p[MAX_PATCH], saved[MAX_PATCH];
	int timeout = getenv("FUZZ_TIMEOUT") ? atoi(getenv("FUZZ_TIMEOUT")) : 60;
	/* FUZZ_DEADLINE: seconds after which no case starts (the suite's
	 * time limit is near); the cases left are reported as not run. */
	double deadline = getenv("FUZZ_DEADLINE") ? atof(getenv("FUZZ_DEADLINE")) : 1e9;
	int not_run = 0;
	int refused = 0, with_errors = 0, clean = 0, failed = 0, skipped = 0, tap = 0, stuck = 0;
	int refused_by[MAX_ERRNO] = { 0 }, errors_by[MAX_ERRNO] = { 0 };
	double t0 = now(), slowest = 0;
	char *line = NULL, mnt[256], slowest_id[32] = "-";
	size_t cap = 0;
	FILE *cf = fopen(cases, "r");
	int kfd;

	if (!cf) {
		perror(cases);
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	buf = aligned_alloc(4096, 256 << 10);
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	snprintf(mnt, sizeof(mnt), "%s", mntbase);
	mkdir(mnt, 0755);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("FUZZ_WALK"))
		mask = strtol(getenv("FUZZ_WALK"), NULL, 0);

	while (getline(&line, &cap, cf) > 0) {
		char *id, *cat, *spec, *iname, *what, *save, res[1024] = "", label[160];
		int np, status = 0, rc, pipefd[2], msgs, fd, im;
		const char *img;
		double t;
		pid_t pid;
		ssize_t r;

		if (line[0] == '#' || line[0] == '\n')
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
			failed++;
			continue;
		}
		if (now() - t0 > deadline) {
			if (!not_run++)
				printf("# ntfs-fuzz: the time limit is near (FUZZ_DEADLINE=%.0f s): no more cases\n",
				       deadline);
			printf("not ok %d - case %s %s: not run, out of time (raise TEST_TIMEOUT)\n", tap, id, cat);
			failed++;
			continue;
		}
		if (!strcmp(cat, "skip")) {
			printf("ok %d - case %s # SKIP FUZZ_SKIP\n", tap, id);
			skipped++;
			continue;
		}
		im = image(workdir, iname);
		if (im < 0) {
			printf("not ok %d - case %s %s: cannot open image %s/%s\n", tap, id, cat, workdir, iname);
			failed++;
			continue;
		}
		fd = images[im].fd;
		img = images[im].path;
		/* "case 17 runlist", "case 18 index-root on base-c512.img" */
		if (strcmp(iname, "base.img")) {
			snprintf(label, sizeof(label), "%s on %s", cat, iname);
			cat = label;
		}
		np = parse_spec(spec, p, MAX_PATCH);
		if (np <= 0 || apply(fd, p, np, saved)) {
			printf("not ok %d - case %s %s: bad patch '%s'\n", tap, id, cat, spec);
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
			char op[sizeof(sh->op)];

			snprintf(op, sizeof(op), "%s", sh->op);
			kill(pid, SIGKILL);
			rc = wait_child(pid, 20000);
			printf("not ok %d - case %s %s: HANG: not done after %d s%s, last operation: %s [%s]\n",
			       tap, id, cat, timeout, rc == 0 ? " and unkillable" : " (killed)", op, what);
			failed++;
			if (rc == 0) {
				show_stack(pid);
				/* It holds the loop device and the mount point:
				 * carry on with fresh ones. */
				snprintf(mnt, sizeof(mnt), "%s.%d", mntbase, ++stuck);
				mkdir(mnt, 0755);
				close(pipefd[0]);
				undo(fd, saved, np);
				free_patches(p, np);
				read_kmsg(kfd);
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
			read_kmsg(kfd);
			continue;
		}
		r = read(pipefd[0], res, sizeof(res) - 1);
		res[r > 0 ? r : 0] = 0;
		res[strcspn(res, "\n")] = 0;
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
		msgs = read_kmsg(kfd);

		char tail[64];

		snprintf(tail, sizeof(tail), "%.1f s, %d ntfs3 msg%s", t, msgs, msgs == 1 ? "" : "s");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("not ok %d - case %s %s: walker died (status 0x%x): %s; last operation: %s (%s) [%s]\n",
			       tap, id, cat, status, res, sh->op, tail, what);
			failed++;
		} else if (!strncmp(res, "refused ", 8)) {
			int e;

			for (e = 1; e < MAX_ERRNO && strcmp(strerrorname_np(e) ?: "", res + 8); e++)
				;
			refused_by[e < MAX_ERRNO ? e : 0]++;
			refused++;
			printf("ok %d - case %s %s: mount refused (%s) (%s) [%s]\n", tap, id, cat, res + 8, tail, what);
		} else if (!strncmp(res, "mounted ", 8)) {
			int objs = 0, bad = 0, um = 0, off = 0;

			sscanf(res + 8, "%d %d umount=%d %n", &objs, &bad, &um, &off);
			if (um) {
				printf("not ok %d - case %s %s: umount failed (%s): %s (%s) [%s]\n",
				       tap, id, cat, strerrorname_np(um) ?: "?", res + 8, tail, what);
				failed++;
			} else if (bad) {
				char *tok = res + 8 + off, name[32];
				int n, cnt, e;

				/* Tally the errnos ("EIO:3 ENOENT:1 | first: ..."). */
				while (sscanf(tok, "%31[^: |]:%d %n", name, &cnt, &n) == 2) {
					for (e = 1; e < MAX_ERRNO && strcmp(strerrorname_np(e) ?: "", name); e++)
						;
					errors_by[e < MAX_ERRNO ? e : 0] += cnt;
					tok += n;
				}
				with_errors++;
				printf("ok %d - case %s %s: mounted, %d of %d objects gave errors: %s (%s) [%s]\n",
				       tap, id, cat, bad, objs, res + 8 + off, tail, what);
			} else {
				clean++;
				printf("ok %d - case %s %s: mounted, all %d objects readable (%s) [%s]\n",
				       tap, id, cat, objs, tail, what);
			}
		} else {
			printf("not ok %d - case %s %s: no result from the walker: '%s' (%s) [%s]\n",
			       tap, id, cat, res, tail, what);
			failed++;
		}
	}

	double total = now() - t0;
	int ran = refused + with_errors + clean + failed - not_run;

	printf("# ntfs-fuzz summary: %d cases: %d mounts refused, %d mounted with errors on some objects, "
	       "%d mounted fully readable, %d failed (hang/crash/umount/not run), %d skipped\n",
	       tap, refused, with_errors, clean, failed, skipped);
	printf("# ntfs-fuzz mounts refused by errno:%s", refused ? "" : " none");
	for (int e = 0; e < MAX_ERRNO; e++)
		if (refused_by[e])
			printf(" %s %d", e ? strerrorname_np(e) ?: "?" : "other", refused_by[e]);
	printf("\n# ntfs-fuzz errors on objects of mounted volumes, by errno:%s", with_errors ? "" : " none");
	for (int e = 0; e < MAX_ERRNO; e++)
		if (errors_by[e])
			printf(" %s %d", e ? strerrorname_np(e) ?: "?" : "other", errors_by[e]);
	printf("\n# ntfs-fuzz time: %.0f s, %.2f s per case, slowest case %s (%.1f s)\n",
	       total, ran ? total / ran : 0, slowest_id, slowest);
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
