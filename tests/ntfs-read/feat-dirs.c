// SPDX-License-Identifier: GPL-2.0
/*
 * feat-dirs: directories on our ntfs3, against the manifests of
 * scripts/images/make-ntfs-images.sh (/ntfs-images) and special.meta:
 *
 *   bigdir  readdir of big/ (100 004 names, a deep $I30 B+tree) returns
 *           every name once: the count is the manifest's + "." + ".."
 *           (what `ls -f | wc -l` counts; busybox ls has no -f), no
 *           duplicate; telldir in the middle, seekdir back, same entries
 *   many/   (600 names, several index blocks, c4k-r1k): telldir/seekdir to
 *           the start, the middle and the end resume at the right entry
 *           and the rest of the listing follows in the same order; after
 *           EOF too; a position taken on one open file works on another;
 *           rewinddir restarts
 *   dosname/ (c4k-r1k, c512, s4k-r4k): the Win32 names once each, never a
 *           DOS 8.3 alias
 *   names with characters outside the BMP (surrogate pairs in UTF-16):
 *           each one from a manifest is found by lookup, is listed by
 *           readdir with the same bytes and the inode lookup gives, and
 *           reads the right contents
 *
 * The in-tree ntfs3 runs the same steps afterwards; its results are shown
 * as "# in-tree:" diagnostics only.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tap.h"
#include "sha256.h"
#include "ntfs-special.h"

#define MNT "/mnt/feat-dirs"
#define META "/ntfs-images"

static int mount_disk(const char *name, const char *drv)
{
	char dev[64];
	int is_intree = !strcmp(drv, "intree");

	umount(MNT);
	if (hx_disk_of(name, dev, sizeof(dev))) {
		ck(0, "%s: the disk is attached", name);
		return -1;
	}
	if (ntfs_mount(dev, MNT, is_intree ? "iocharset=utf8" : "")) {
		ck(0, "%s: mounts (%s)", name, strerrorname_np(errno));
		return -1;
	}
	return 0;
}

/* ---- manifests ---- */

struct entry {
	char *path;	/* "./a/b" */
	char *sha;
};

static struct entry *manifest(const char *image, int *count)
{
	char file[256], *line = NULL;
	size_t cap = 0;
	struct entry *e = NULL;
	int n = 0;
	FILE *f;

	snprintf(file, sizeof(file), META "/%s.manifest", image);
	f = fopen(file, "r");
	while (f && getline(&line, &cap, f) > 0) {
		char *fld[6], *s = line, *save = NULL;
		int k = 0;

		line[strcspn(line, "\n")] = 0;
		for (s = strtok_r(line, "\t", &save); s && k < 6; s = strtok_r(NULL, "\t", &save))
			fld[k++] = s;
		if (k < 4)
			continue;
		if (!(n & 1023))
			e = realloc(e, (n + 1024) * sizeof(*e));
		e[n].path = strdup(fld[1]);
		e[n].sha = strdup(fld[3]);
		n++;
	}
	if (f)
		fclose(f);
	free(line);
	*count = n;
	return e;
}

/* Children of @dir ("./x") in a manifest. */
static int children(struct entry *m, int n, const char *dir, char ***out)
{
	size_t len = strlen(dir);
	char **names = NULL;
	int k = 0, i;

	for (i = 0; i < n; i++) {
		const char *p = m[i].path;

		if (strncmp(p, dir, len) || p[len] != '/' || strchr(p + len + 1, '/'))
			continue;
		names = realloc(names, (k + 1) * sizeof(*names));
		names[k++] = strdup(p + len + 1);
	}
	*out = names;
	return k;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- listing with positions ---- */

struct listing {
	char **name;
	long *pos;	/* telldir() before the entry */
	ino_t *ino;
	int n;
};

static int list_dir(DIR *d, struct listing *l)
{
	struct dirent *e;
	int cap = 0;

	l->n = 0;
	for (;;) {
		long pos = telldir(d);

		errno = 0;
		e = readdir(d);
		if (!e)
			return errno ? -1 : 0;
		if (l->n == cap) {
			cap = cap ? 2 * cap : 1024;
			l->name = realloc(l->name, cap * sizeof(*l->name));
			l->pos = realloc(l->pos, cap * sizeof(*l->pos));
			l->ino = realloc(l->ino, cap * sizeof(*l->ino));
		}
		l->name[l->n] = strdup(e->d_name);
		l->pos[l->n] = pos;
		l->ino[l->n] = e->d_ino;
		l->n++;
	}
}

static void free_listing(struct listing *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->name[i]);
	free(l->name);
	free(l->pos);
	free(l->ino);
	memset(l, 0, sizeof(*l));
}

/* Count of names listed more than once (sorted copy). */
static int duplicates(struct listing *l, char *first, size_t len)
{
	char **s = malloc(l->n * sizeof(*s));
	int i, dup = 0;

	memcpy(s, l->name, l->n * sizeof(*s));
	qsort(s, l->n, sizeof(*s), cmpstr);
	for (i = 1; i < l->n; i++)
		if (!strcmp(s[i], s[i - 1]) && !dup++)
			snprintf(first, len, "%s", s[i]);
	free(s);
	return dup;
}

/* seekdir(@pos) then read @k entries: do they equal l->name[i..i+k)? */
static int resumes(DIR *d, struct listing *l, long pos, int i, int k, char *got, size_t len)
{
	struct dirent *e;
	int j;

	seekdir(d, pos);
	for (j = i; j < i + k && j < l->n; j++) {
		e = readdir(d);
		if (!e || strcmp(e->d_name, l->name[j])) {
			snprintf(got, len, "entry %d: got \"%s\", want \"%s\"", j,
				 e ? e->d_name : "(end)", l->name[j]);
			return 0;
		}
	}
	if (j == l->n && (e = readdir(d))) {
		snprintf(got, len, "an entry \"%s\" after the last one", e->d_name);
		return 0;
	}
	return 1;
}

static void test_seekdir(const char *image, const char *dir, int sample)
{
	char path[512], got[600] = "";
	struct listing l = {};
	struct entry *m;
	char **kids;
	int n, nk, i, ok, dup;
	DIR *d, *d2;

	m = manifest(image, &n);
	nk = children(m, n, dir, &kids);
	snprintf(path, sizeof(path), MNT "/%s", dir + 2);
	d = opendir(path);
	if (!d || list_dir(d, &l)) {
		ck(0, "%s %s: readdir works (%s)", image, dir, strerrorname_np(errno));
		goto out;
	}
	dup = duplicates(&l, got, sizeof(got));
	ck(l.n == nk + 2, "%s %s: readdir returns %d entries, the manifest's %d names + . + .. (got %d)",
	   image, dir, nk + 2, nk, l.n);
	ck(!dup, "%s %s: no name listed twice (%d duplicates%s%s)", image, dir, dup,
	   dup ? ", first " : "", dup ? got : "");
	if (l.n < 8)
		goto out;
	{
		int at[] = { 0, 1, 2, 3, l.n / 3, l.n / 2, l.n - 2, l.n - 1 };
		int bad = 0;

		for (i = 0; i < (int)(sizeof(at) / sizeof(*at)); i++)
			if (!resumes(d, &l, l.pos[at[i]], at[i], sample, got, sizeof(got)) && !bad++)
				printf("#   seekdir to entry %d: %s\n", at[i], got);
		ck(!bad, "%s %s: seekdir to the telldir() positions of entries 0-3, %d, %d, %d, %d of %d resumes there (%d wrong)",
		   image, dir, l.n / 3, l.n / 2, l.n - 2, l.n - 1, l.n, bad);
	}
	/* after EOF: back to the middle, the whole rest */
	while (readdir(d))
		;
	ok = resumes(d, &l, l.pos[l.n / 2], l.n / 2, l.n, got, sizeof(got));
	ck(ok, "%s %s: after EOF, seekdir to the middle lists the second half again%s%s", image,
	   dir, ok ? "" : ": ", ok ? "" : got);
	/* another open file: positions are positions in the directory */
	d2 = opendir(path);
	ok = d2 && resumes(d2, &l, l.pos[l.n / 2 + 1], l.n / 2 + 1, sample, got, sizeof(got));
	ck(ok, "%s %s: a telldir() position used on another open of the directory resumes there%s%s",
	   image, dir, ok ? "" : ": ", ok ? "" : got);
	if (d2)
		closedir(d2);
	rewinddir(d);
	{
		struct dirent *e = readdir(d);

		ck(e && !strcmp(e->d_name, l.name[0]), "%s %s: rewinddir starts again at \"%s\"",
		   image, dir, l.name[0]);
	}
out:
	if (d)
		closedir(d);
	free_listing(&l);
	for (i = 0; i < nk; i++)
		free(kids[i]);
	free(kids);
	for (i = 0; i < n; i++) {
		free(m[i].path);
		free(m[i].sha);
	}
	free(m);
}

/* ---- DOS names ---- */

static void test_dosnames(const char *image)
{
	char file[256], line[1024], path[512], got[512] = "";
	char *dos[16];
	int ndos = 0, n, nk, i, j, bad = 0, dup;
	struct entry *m = manifest(image, &n);
	struct listing l = {};
	char **kids;
	FILE *f;
	DIR *d;

	snprintf(file, sizeof(file), META "/%s.attrib", image);
	f = fopen(file, "r");
	while (f && fgets(line, sizeof(line), f) && ndos < 16) {
		char *t = strrchr(line, '\t');

		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "./dosname/", 10) && t && strcmp(t + 1, "-"))
			dos[ndos++] = strdup(t + 1);
	}
	if (f)
		fclose(f);
	nk = children(m, n, "./dosname", &kids);
	snprintf(path, sizeof(path), MNT "/dosname");
	d = opendir(path);
	if (!d || list_dir(d, &l)) {
		ck(0, "%s dosname/: readdir works", image);
		goto out;
	}
	for (i = 0; i < l.n; i++) {
		for (j = 0; j < ndos; j++)
			if (!strcmp(l.name[i], dos[j]) && !bad++)
				snprintf(got, sizeof(got), "%s", dos[j]);
	}
	ck(!bad && ndos > 0, "%s dosname/: none of the %d DOS 8.3 aliases is listed%s%s", image, ndos,
	   bad ? ", got " : "", got);
	dup = duplicates(&l, got, sizeof(got));
	ck(!dup && l.n == nk + 2, "%s dosname/: the %d Win32/POSIX names once each (got %d entries, %d twice)",
	   image, nk, l.n - 2, dup);
	for (i = 0; i < ndos && !judging; i++) {
		struct stat st;

		snprintf(path, sizeof(path), MNT "/dosname/%s", dos[i]);
		printf("# in-tree: lookup by the DOS name %s: %s\n", dos[i],
		       stat(path, &st) ? strerrorname_np(errno) : "found");
	}
out:
	if (d)
		closedir(d);
	free_listing(&l);
	for (i = 0; i < ndos; i++)
		free(dos[i]);
	for (i = 0; i < nk; i++)
		free(kids[i]);
	free(kids);
	for (i = 0; i < n; i++) {
		free(m[i].path);
		free(m[i].sha);
	}
	free(m);
}

/* ---- names outside the BMP ---- */

static int has_astral(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0xf0)
			return 1;
	return 0;
}

static void check_astral(const char *where, const char *rel, const char *sha)
{
	char path[1024], dir[1024], buf[65536], hex[65], *leaf;
	struct dirent *e;
	struct stat st;
	int listed = 0, same_ino = 0, fd, ok_data = 1;
	ssize_t r;
	DIR *d;

	snprintf(path, sizeof(path), MNT "/%s", rel);
	if (lstat(path, &st)) {
		ck(0, "%s: lookup of \"%s\" (%s)", where, rel, strerrorname_np(errno));
		return;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	leaf = strrchr(dir, '/');
	*leaf++ = 0;
	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (!strcmp(e->d_name, leaf)) {
			listed++;
			same_ino = e->d_ino == st.st_ino;
		}
	if (d)
		closedir(d);
	if (S_ISREG(st.st_mode) && sha && strcmp(sha, "-")) {
		struct sha256_ctx c;

		sha256_init(&c);
		fd = open(path, O_RDONLY);
		while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) > 0)
			sha256_update(&c, buf, r);
		sha256_final(&c, hex);
		ok_data = fd >= 0 && !strcmp(hex, sha);
		if (fd >= 0)
			close(fd);
	}
	ck(listed == 1 && same_ino && ok_data,
	   "%s: \"%s\" found by lookup, listed once by readdir with the same inode, right contents (listed %d, same inode %d, contents %s)",
	   where, rel, listed, same_ino, ok_data ? "ok" : "differ");
}

static void test_astral_manifest(const char *image)
{
	int n, i, k = 0;
	struct entry *m = manifest(image, &n);

	for (i = 0; i < n; i++) {
		if (has_astral(m[i].path)) {
			check_astral(image, m[i].path + 2, m[i].sha);
			k++;
		}
		free(m[i].path);
		free(m[i].sha);
	}
	free(m);
	if (!k)
		ck(0, "%s: the manifest has names outside the BMP", image);
}

static void test_astral_opts(void)
{
	struct meta_line *l;
	int i, k = 0;

	for (i = 0; (l = meta_get("opts", "file", NULL, i)); i++)
		if (has_astral(l->f[2])) {
			check_astral("opts", l->f[2], l->f[4]);
			k++;
		}
	if (!k)
		ck(0, "opts: special.meta has names outside the BMP");
}

static void run_all(const char *drv)
{
	char dev[64];

	use_driver(drv);
	if (!mount_disk("bigdir", drv)) {
		test_seekdir("bigdir", "./big", 3);
		test_astral_manifest("bigdir");
	}
	if (!mount_disk("c4k-r1k", drv)) {
		test_seekdir("c4k-r1k", "./many", 5);
		test_dosnames("c4k-r1k");
		test_astral_manifest("c4k-r1k");
	}
	if (!mount_disk("c512", drv))
		test_dosnames("c512");
	if (!mount_disk("s4k-r4k", drv))
		test_dosnames("s4k-r4k");
	umount(MNT);
	if (!hx_vol_dev("opts", dev, sizeof(dev)) &&
	    !ntfs_mount(dev, MNT, !strcmp(drv, "intree") ? "iocharset=utf8" : ""))
		test_astral_opts();
	else
		ck(0, "opts: the special volume mounts");
	umount(MNT);
}

int main(void)
{
	if (meta_load())
		printf("# %s missing: the opts volume's names are not checked\n", SPECIAL_META);
	run_all("ours");
	judging = 0;
	printf("# the in-tree ntfs3 on the same steps (reference, not judged):\n");
	run_all("intree");
	use_driver("ours");
	return tap_done();
}
