// SPDX-License-Identifier: GPL-2.0
/*
 * feat-syscalls: system calls on our ntfs3, against what the host recorded
 * in /ntfs-images/special.meta (scripts/images/make-ntfs-special.sh) for the
 * volumes "sys", "opts", "4k" and "small" (512-byte clusters):
 *
 *   FS_IOC_GETFSLABEL     the mkntfs label (UTF-8), on a directory and a file
 *   statfs                f_blocks, f_bfree in bytes = ntfsinfo -m's total
 *                         and free clusters
 *   FS_IOC_FIEMAP         fragmented, sparse and contiguous files: one extent
 *                         per allocated run of ntfsinfo's runlist, same
 *                         logical and physical offsets, LAST on the last
 *   SEEK_DATA/SEEK_HOLE   the hole layout of the runlists, ENXIO past data
 *   O_DIRECT              an aligned range equals the buffered read; whole
 *                         files read direct hash as on the host
 *   mmap                  plain, fragmented, sparse and compressed files hash
 *                         as on the host; the tail of the last page is zero
 *   file handles          name_to_handle_at + open_by_handle_at reopen a file
 *                         and a directory, also after drop_caches (the
 *                         directory reconnected to its path); a wrong
 *                         generation or record number gives ESTALE
 *   WOF                   IO_REPARSE_TAG_WOF file: stat works, reading fails
 *                         with EOPNOTSUPP, a kernel message names WOF
 *   EFS                   $DATA flagged encrypted (0x4000): EOPNOTSUPP
 *   initialized size      valid.bin (12 KiB, initialized size 5000) reads
 *                         zeros from byte 5000 on through read(), mmap and
 *                         O_DIRECT, on "sys" and on "small"; "small"'s
 *                         fragmented file through mmap and O_DIRECT (its
 *                         pages span several runs)
 *
 * Then the in-tree ntfs3 runs the same steps as a reference: its results are
 * printed as "# in-tree:" diagnostics, not judged.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/fiemap.h>

#include "tap.h"
#include "sha256.h"
#include "ntfs-special.h"

#ifndef FS_IOC_GETFSLABEL
#define FS_IOC_GETFSLABEL _IOR(0x94, 49, char[256])
#endif
#ifndef FS_IOC_FIEMAP
#define FS_IOC_FIEMAP _IOWR('f', 11, struct fiemap)
#endif

#define MNT "/mnt/feat-sys"

static void note(const char *fmt, ...)
{
	va_list ap;

	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static const char *path_in(const char *rel)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), MNT "/%s", rel);
	return buf[i];
}

static const char *meta_sha(const char *vol, const char *rel)
{
	struct meta_line *m = meta_get(vol, "file", rel, 0);

	return m && m->n >= 5 ? m->f[4] : "(not in special.meta)";
}

static long long meta_size(const char *vol, const char *rel)
{
	struct meta_line *m = meta_get(vol, "file", rel, 0);

	return m && m->n >= 5 ? atoll(m->f[3]) : -1;
}

static long long cluster_size(const char *vol)
{
	struct meta_line *m = meta_get(vol, "geometry", NULL, 0);

	return m ? atoll(m->f[2]) : 4096;
}

/* ---- label, statfs ---- */

static void test_label(const char *vol)
{
	struct meta_line *m = meta_get(vol, "label", NULL, 0);
	const char *want = m ? m->f[2] : "?";
	char label[256 + 1];
	const char *objs[2] = { MNT, NULL };
	int i;

	/* a file of the volume too */
	objs[1] = MNT "/hello.txt";
	for (i = 0; i < 2; i++) {
		int fd = open(objs[i], O_RDONLY);
		int r;

		memset(label, 0, sizeof(label));
		r = fd < 0 ? -1 : ioctl(fd, FS_IOC_GETFSLABEL, label);
		ck(r == 0 && !strcmp(label, want),
		   "%s: FS_IOC_GETFSLABEL on %s gives the mkntfs label \"%s\" (got %d%s%s, \"%s\")",
		   vol, i ? "a file" : "the root", want, r, r ? " " : "",
		   r ? strerrorname_np(errno) : "", label);
		if (fd >= 0)
			close(fd);
	}
}

static void test_statfs(const char *vol)
{
	struct meta_line *m = meta_get(vol, "geometry", NULL, 0);
	struct statfs st;
	unsigned long long cs, total, freec;
	int r = statfs(MNT, &st);

	if (!m) {
		ck(0, "%s: geometry in special.meta", vol);
		return;
	}
	cs = atoll(m->f[2]);
	total = atoll(m->f[3]);
	freec = atoll(m->f[4]);
	ck(r == 0 && (unsigned long long)st.f_blocks * st.f_bsize == total * cs,
	   "%s: statfs f_blocks x f_bsize = %llu clusters of %llu (ntfsinfo -m) (got %llu x %lu)",
	   vol, total, cs, r ? 0ULL : (unsigned long long)st.f_blocks, r ? 0UL : (unsigned long)st.f_bsize);
	ck(r == 0 && (unsigned long long)st.f_bfree * st.f_bsize == freec * cs,
	   "%s: statfs f_bfree x f_bsize = %llu free clusters (ntfsinfo -m) (got %llu x %lu)",
	   vol, freec, r ? 0ULL : (unsigned long long)st.f_bfree, r ? 0UL : (unsigned long)st.f_bsize);
}

/* ---- runlists: fiemap, SEEK_DATA/SEEK_HOLE ---- */

struct run {
	long long vcn, lcn, len;
};

/* The runs of @rel from special.meta in VCN order. */
static int meta_runs(const char *rel, struct run *r, int max)
{
	struct meta_line *m;
	int n = 0, i, j;

	while (n < max && (m = meta_get("sys", "run", rel, n))) {
		r[n].vcn = atoll(m->f[3]);
		r[n].lcn = atoll(m->f[4]);
		r[n].len = atoll(m->f[5]);
		n++;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && r[j].vcn < r[j - 1].vcn; j--) {
			struct run t = r[j];

			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	return n;
}

static void test_fiemap(const char *rel)
{
	long long cs = cluster_size("sys"), size = meta_size("sys", rel);
	struct run runs[256];
	int n = meta_runs(rel, runs, 256), want = 0, i, k, bad = -1, fd;
	struct fiemap *fm = calloc(1, sizeof(*fm) + 512 * sizeof(struct fiemap_extent));
	int r;

	for (i = 0; i < n; i++)
		want += runs[i].lcn >= 0;
	fd = open(path_in(rel), O_RDONLY);
	fm->fm_start = 0;
	fm->fm_length = FIEMAP_MAX_OFFSET;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = 512;
	r = fd < 0 ? -1 : ioctl(fd, FS_IOC_FIEMAP, fm);
	if (r) {
		ck(0, "fiemap %s: works (got %s)", rel, strerrorname_np(errno));
		goto out;
	}
	ck((int)fm->fm_mapped_extents == want,
	   "fiemap %s: %d extents, one per allocated run of ntfsinfo's runlist (got %u)",
	   rel, want, fm->fm_mapped_extents);
	for (i = 0, k = 0; i < n && k < (int)fm->fm_mapped_extents; i++) {
		struct fiemap_extent *e = &fm->fm_extents[k];
		long long lo = runs[i].vcn * cs, ph = runs[i].lcn * cs, ln = runs[i].len * cs;
		int last = k == want - 1;

		if (runs[i].lcn < 0)
			continue;
		k++;
		/* The last extent may end at EOF rounded to a block (when its run
		 * reaches EOF). */
		if ((long long)e->fe_logical != lo || (long long)e->fe_physical != ph ||
		    (!last && (long long)e->fe_length != ln) ||
		    (last && ((long long)e->fe_length > ln ||
			      (long long)(e->fe_logical + e->fe_length) < (lo + ln < size ? lo + ln : size))) ||
		    !!(e->fe_flags & FIEMAP_EXTENT_LAST) != last) {
			if (bad < 0)
				note("%s extent %d: got logical %llu physical %llu length %llu flags 0x%x, "
				     "want %lld %lld %lld%s", rel, k - 1,
				     (unsigned long long)e->fe_logical,
				     (unsigned long long)e->fe_physical,
				     (unsigned long long)e->fe_length, e->fe_flags, lo, ph, ln,
				     last ? " (or up to EOF), LAST" : "");
			bad = k - 1;
		}
	}
	ck(bad < 0 && k == want,
	   "fiemap %s: every extent's logical and physical offset and length match the runlist", rel);
out:
	free(fm);
	if (fd >= 0)
		close(fd);
}

/* Data segments of @rel: merged allocated runs, clipped to the size. */
static int data_segments(const char *rel, long long seg[][2], int max)
{
	long long cs = cluster_size("sys"), size = meta_size("sys", rel);
	struct run runs[256];
	int n = meta_runs(rel, runs, 256), i, k = 0;

	for (i = 0; i < n && k < max; i++) {
		long long s = runs[i].vcn * cs, e = (runs[i].vcn + runs[i].len) * cs;

		if (runs[i].lcn < 0 || s >= size)
			continue;
		if (e > size)
			e = size;
		if (k && seg[k - 1][1] == s)
			seg[k - 1][1] = e;
		else {
			seg[k][0] = s;
			seg[k][1] = e;
			k++;
		}
	}
	return k;
}

static void test_seek(const char *rel)
{
	long long seg[64][2], size = meta_size("sys", rel), pos = 0, r;
	int n = data_segments(rel, seg, 64), i, fd = open(path_in(rel), O_RDONLY);
	int errs = 0;
	char desc[256] = "";

	if (fd < 0) {
		ck(0, "SEEK_DATA/SEEK_HOLE %s: open (%s)", rel, strerrorname_np(errno));
		return;
	}
#define EXPECT(whence, off, want)						\
	do {									\
		errno = 0;							\
		r = lseek(fd, (off), (whence));					\
		if (r != (want) || ((want) < 0 && errno != ENXIO)) {		\
			if (!errs++)						\
				note("%s: lseek(%lld, %s) = %lld (%s), want %lld%s", rel, \
				     (long long)(off), #whence, r,			\
				     r < 0 ? strerrorname_np(errno) : "ok",	\
				     (long long)(want), (want) < 0 ? " ENXIO" : ""); \
		}							\
	} while (0)
	for (i = 0; i < n; i++) {
		long long s = seg[i][0], e = seg[i][1];

		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), "%s[%lld,%lld)",
			 i ? " " : "", s, e);
		EXPECT(SEEK_DATA, pos, s);		/* from the hole (or start) before */
		if (pos < s) {
			EXPECT(SEEK_HOLE, pos, pos);	/* inside a hole */
			EXPECT(SEEK_DATA, (pos + s) / 2, s);
		}
		EXPECT(SEEK_DATA, s + 1, s + 1);	/* inside data */
		EXPECT(SEEK_HOLE, s, e);
		EXPECT(SEEK_HOLE, s + 1, e);
		pos = e;
	}
	if (pos < size) {
		EXPECT(SEEK_DATA, pos, -1);		/* only a hole left */
		EXPECT(SEEK_HOLE, pos, pos);
	}
	EXPECT(SEEK_DATA, size, -1);
	EXPECT(SEEK_HOLE, size, -1);
#undef EXPECT
	close(fd);
	ck(!errs, "SEEK_DATA/SEEK_HOLE %s: data at %s of %lld bytes, holes elsewhere (%d wrong answers)",
	   rel, n ? desc : "nowhere", size, errs);
}

/* ---- O_DIRECT and mmap ---- */

/* The volume whose special.meta lines test_direct() and test_mmap() use. */
static const char *data_vol = "sys";

static void test_direct(const char *rel)
{
	const size_t chunk = 1 << 20;
	long long size = meta_size(data_vol, rel);
	char hex[65];
	unsigned char *d = NULL, *b = malloc(chunk);
	int fd = open(path_in(rel), O_RDONLY | O_DIRECT), fb = open(path_in(rel), O_RDONLY);
	struct sha256_ctx c;
	long long off = 0, got = 0;
	off_t at = size > 2 * 65536 ? 65536 : 0;
	ssize_t rd, rb;
	size_t want;

	if (fd < 0 || fb < 0 || posix_memalign((void **)&d, 4096, chunk)) {
		ck(0, "O_DIRECT %s: open (%s)", rel, strerrorname_np(errno));
		goto out;
	}
	/* An aligned range in the middle: direct = buffered. */
	want = size - at < (long long)chunk ? (size_t)((size - at) & ~4095LL) : chunk;
	rd = pread(fd, d, want, at);
	rb = pread(fb, b, want, at);
	ck(rd == (ssize_t)want && rb == rd && !memcmp(d, b, want),
	   "O_DIRECT %s: %zu bytes at %lld equal the buffered read (direct %zd%s%s, buffered %zd)",
	   rel, want, (long long)at, rd, rd < 0 ? " " : "", rd < 0 ? strerrorname_np(errno) : "", rb);
	/* The whole file, read direct in 1 MiB pieces. */
	sha256_init(&c);
	for (off = 0; off < size; off += got) {
		got = pread(fd, d, chunk, off);
		if (got <= 0)
			break;
		sha256_update(&c, d, got);
	}
	sha256_final(&c, hex);
	ck(off == size && !strcmp(hex, meta_sha(data_vol, rel)),
	   "O_DIRECT %s: the whole file (%lld bytes) hashes as on the host (read %lld%s%s)",
	   rel, size, off, got < 0 ? ", " : "", got < 0 ? strerrorname_np(errno) : "");
	if (strcmp(hex, meta_sha(data_vol, rel)))
		note("sha256 %s, want %s", hex, meta_sha(data_vol, rel));
out:
	free(d);
	free(b);
	if (fd >= 0)
		close(fd);
	if (fb >= 0)
		close(fb);
}

static void test_mmap(const char *rel, const char *what)
{
	long long size = meta_size(data_vol, rel);
	long pg = sysconf(_SC_PAGESIZE);
	size_t maplen = (size + pg - 1) / pg * pg;
	int fd = open(path_in(rel), O_RDONLY);
	unsigned char *p;
	char hex[65];
	size_t i, nz = 0;

	p = fd < 0 ? MAP_FAILED : mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		ck(0, "mmap %s (%s): maps (%s)", rel, what, strerrorname_np(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	sha256_hex(p, size, hex);
	for (i = size; i < maplen; i++)
		nz += p[i] != 0;
	ck(!strcmp(hex, meta_sha(data_vol, rel)) && !nz,
	   "mmap %s (%s, %lld bytes): hashes as on the host, the last page's tail is zero (%zu non-zero)",
	   rel, what, size, nz);
	if (strcmp(hex, meta_sha(data_vol, rel)))
		note("sha256 %s, want %s", hex, meta_sha(data_vol, rel));
	munmap(p, maplen);
	close(fd);
}

/* ---- NFS export: file handles ---- */

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		note("drop_caches: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

static struct file_handle *get_handle(const char *rel)
{
	struct file_handle *fh = calloc(1, sizeof(*fh) + MAX_HANDLE_SZ);
	int mid;

	fh->handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, path_in(rel), fh, &mid, 0)) {
		ck(0, "name_to_handle_at %s: works (%s)", rel, strerrorname_np(errno));
		free(fh);
		return NULL;
	}
	return fh;
}

/* Reopen @fh and check it is @rel: same inode; a file's contents, a
 * directory's path once reconnected. */
static void reopen(int mfd, struct file_handle *fh, const char *rel, int dir, const char *when)
{
	struct stat a, b;
	char buf[256], link[512], fdp[64];
	int fd = open_by_handle_at(mfd, fh, O_RDONLY | (dir ? O_DIRECTORY : 0));
	int ok;
	ssize_t n;

	if (fd < 0) {
		ck(0, "open_by_handle_at %s %s: reopens it (%s)", rel, when, strerrorname_np(errno));
		return;
	}
	ok = !fstat(fd, &a) && !stat(path_in(rel), &b) && a.st_ino == b.st_ino;
	if (dir) {
		snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", fd);
		n = readlink(fdp, link, sizeof(link) - 1);
		link[n < 0 ? 0 : n] = 0;
		ck(ok && !strcmp(link, path_in(rel)),
		   "open_by_handle_at %s %s: the same directory, at its path (got %s)", rel, when,
		   link);
	} else {
		n = read(fd, buf, sizeof(buf) - 1);
		buf[n < 0 ? 0 : n] = 0;
		sha256_hex(buf, n < 0 ? 0 : n, link);
		ck(ok && !strcmp(link, meta_sha("sys", rel)),
		   "open_by_handle_at %s %s: the same file, same contents", rel, when);
	}
	close(fd);
}

/* A copy of @fh with another generation (or record number) in it. */
static struct file_handle *edit_handle(const struct file_handle *fh, int what)
{
	struct file_handle *e = malloc(sizeof(*fh) + MAX_HANDLE_SZ);
	uint32_t v;
	int at;

	memcpy(e, fh, sizeof(*fh) + fh->handle_bytes);
	switch (fh->handle_type) {
	case 1:		/* FILEID_INO32_GEN: u32 ino, u32 gen */
	case 2:		/* FILEID_INO32_GEN_PARENT */
		at = what ? 0 : 4;
		break;
	case 0x81:	/* FILEID_INO64_GEN: u64 ino, u32 gen */
	case 0x82:
		at = what ? 0 : 8;
		break;
	default:
		free(e);
		return NULL;
	}
	memcpy(&v, e->f_handle + at, 4);
	v = what ? 0x7ffffff0 : v ^ 0x5a5a;
	memcpy(e->f_handle + at, &v, 4);
	return e;
}

static void stale(int mfd, const struct file_handle *fh, int what, const char *when)
{
	struct file_handle *e = edit_handle(fh, what);
	int fd;

	if (!e) {
		ck(0, "handle type 0x%x is one of FILEID_INO32_GEN(_PARENT), FILEID_INO64_GEN(_PARENT)",
		   fh->handle_type);
		return;
	}
	fd = open_by_handle_at(mfd, e, O_RDONLY);
	ck(fd < 0 && errno == ESTALE, "open_by_handle_at with a wrong %s %s: ESTALE (got %s)",
	   what ? "record number" : "generation", when, fd < 0 ? strerrorname_np(errno) : "a file");
	if (fd >= 0)
		close(fd);
	free(e);
}

static void test_handles(void)
{
	struct file_handle *f = get_handle("dir/file.txt");
	struct file_handle *d = get_handle("dir/sub");
	int mfd = open(MNT, O_RDONLY | O_DIRECTORY);

	if (!f || !d || mfd < 0)
		goto out;
	note("file handle type 0x%x, %u bytes", f->handle_type, f->handle_bytes);
	reopen(mfd, f, "dir/file.txt", 0, "(cached)");
	reopen(mfd, d, "dir/sub", 1, "(cached)");
	stale(mfd, f, 0, "(cached)");
	drop_caches();
	reopen(mfd, f, "dir/file.txt", 0, "after drop_caches");
	drop_caches();
	reopen(mfd, d, "dir/sub", 1, "after drop_caches");
	drop_caches();
	stale(mfd, f, 0, "after drop_caches");
	stale(mfd, f, 1, "");
out:
	free(f);
	free(d);
	if (mfd >= 0)
		close(mfd);
}

/* ---- unsupported formats ---- */

/* Open and read @rel: 0, or the errno of the first failing step. */
static int open_read(const char *rel, const char **step)
{
	char buf[4096];
	int fd = open(path_in(rel), O_RDONLY);

	*step = "open";
	if (fd < 0)
		return errno;
	*step = "read";
	if (read(fd, buf, sizeof(buf)) < 0) {
		int e = errno;

		close(fd);
		return e;
	}
	close(fd);
	return 0;
}

static void test_wof(void)
{
	struct meta_line *m = meta_get("sys", "wof", NULL, 0);
	struct stat st;
	const char *step;
	char *log;
	int e, r = stat(path_in("wof.bin"), &st);

	ck(r == 0 && m && st.st_size == atoll(m->f[3]),
	   "WOF file: stat works, st_size %s = the uncompressed size (got %lld)",
	   m ? m->f[3] : "?", r ? -1LL : (long long)st.st_size);
	kmsg_mark();
	e = open_read("wof.bin", &step);
	log = kmsg_since();
	ck(e == EOPNOTSUPP, "WOF file: reading fails with EOPNOTSUPP (got %s at %s)",
	   e ? strerrorname_np(e) : "success", step);
	ck(kmsg_has(log, "WOF"), "WOF file: a kernel message names WOF");
	kmsg_show(log, 3);
	free(log);
	if (!e && m) {	/* a driver that decompresses it: is it right? */
		char buf[16384], hex[65];
		int fd = open(path_in("wof.bin"), O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));

		sha256_hex(buf, n < 0 ? 0 : n, hex);
		note("WOF file read %zd bytes, %s the uncompressed contents", n,
		     strcmp(hex, m->f[4]) ? "NOT" : "equal to");
		if (fd >= 0)
			close(fd);
	}
}

static void test_efs(void)
{
	struct stat st;
	const char *step;
	int e, r = stat(path_in("efs.bin"), &st);

	ck(r == 0 && st.st_size == 8192, "EFS file: stat works, st_size 8192 (got %lld)",
	   r ? -1LL : (long long)st.st_size);
	e = open_read("efs.bin", &step);
	ck(e == EOPNOTSUPP, "EFS file ($DATA flagged encrypted): EOPNOTSUPP (got %s at %s)",
	   e ? strerrorname_np(e) : "success", step);
}

/*
 * valid.bin: 12 KiB on disk, initialized size 5000.  NTFS defines every
 * byte past the initialized size as zero whatever the clusters hold, also
 * inside the block that holds the boundary: read(), mmap and O_DIRECT.
 */
static void test_valid(void)
{
	const char *want = meta_sha(data_vol, "valid.bin");
	unsigned char buf[16384];
	char hex[65];
	ssize_t n;
	int fd = open(path_in("valid.bin"), O_RDONLY);

	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	sha256_hex(buf, n < 0 ? 0 : n, hex);
	ck(n == meta_size(data_vol, "valid.bin") && !strcmp(hex, want),
	   "%s: initialized size 5000 of 12288: read() gives the data, then zeros (read %zd)",
	   data_vol, n);
	if (strcmp(hex, want))
		note("sha256 %s, want %s", hex, want);
	if (fd >= 0)
		close(fd);
	test_mmap("valid.bin", "initialized size 5000");
	test_direct("valid.bin");
}

/* ---- the runs ---- */

static int mount_vol(const char *vol, const char *drv)
{
	char dev[64];

	umount(MNT);
	if (hx_vol_dev(vol, dev, sizeof(dev))) {
		ck(0, "%s: the volume is attached (disk \"special\"/\"special-4k\" in HX_DISK_NAMES)", vol);
		return -1;
	}
	if (ntfs_mount(dev, MNT, drv && !strcmp(drv, "intree") ? "iocharset=utf8" : "")) {
		ck(0, "%s: mounts (%s) (%s)", vol, dev, strerrorname_np(errno));
		return -1;
	}
	return 0;
}

static void run_all(const char *drv)
{
	static const char *const fiemaps[] = { "frag.bin", "sparse/holes.bin", "big.bin" };
	static const char *const seeks[] = {
		"sparse/holes.bin", "sparse/lead.bin", "sparse/all-hole.bin", "big.bin",
	};
	static const char *const directs[] = { "big.bin", "frag.bin", "sparse/holes.bin" };
	unsigned int i;

	use_driver(drv);
	if (!mount_vol("opts", drv)) {
		test_label("opts");
		test_statfs("opts");
	}
	if (!mount_vol("4k", drv))
		test_statfs("4k");
	if (mount_vol("sys", drv))
		return;
	test_label("sys");
	test_statfs("sys");
	/*
	 * The in-tree driver's fiemap copies to user space under ni_lock, and
	 * its read_folio takes ni_lock for compressed files under the
	 * mapping's invalidate_lock: once both ran, lockdep reports the
	 * ni_lock -> mmap_lock -> invalidate_lock -> ni_lock cycle on the
	 * debug kernel.  The reference skips fiemap.
	 */
	if (strcmp(drv, "intree"))
		for (i = 0; i < sizeof(fiemaps) / sizeof(*fiemaps); i++)
			test_fiemap(fiemaps[i]);
	else
		printf("# in-tree: fiemap skipped (its ni_lock vs mmap_lock inversion)\n");
	for (i = 0; i < sizeof(seeks) / sizeof(*seeks); i++)
		test_seek(seeks[i]);
	for (i = 0; i < sizeof(directs) / sizeof(*directs); i++)
		test_direct(directs[i]);
	test_mmap("big.bin", "plain");
	test_mmap("frag.bin", "fragmented");
	test_mmap("sparse/holes.bin", "sparse");
	test_mmap("compressed/text.bin", "LZNT1-compressed");
	test_valid();
	test_handles();
	test_wof();
	test_efs();
	umount(MNT);
	/* 512-byte clusters: every page of frag.bin spans several runs. */
	if (mount_vol("small", drv))
		return;
	data_vol = "small";
	test_valid();
	test_mmap("frag.bin", "512-byte clusters, fragmented");
	test_direct("frag.bin");
	data_vol = "sys";
	umount(MNT);
}

int main(void)
{
	if (meta_load()) {
		tap_result(0, "%s is in the guest (check.sh's ntfs_disks)", SPECIAL_META);
		return tap_done();
	}
	run_all("ours");
	judging = 0;
	printf("# the in-tree ntfs3 on the same steps (reference, not judged):\n");
	run_all("intree");
	use_driver("ours");
	return tap_done();
}
