// SPDX-License-Identifier: GPL-2.0
/*
 * walk: list a mounted tree in the formats of scripts/images/make-ntfs-images.sh,
 * fast enough for 100 000 files under emulation (no fork per file).
 *
 *   walk manifest DIR   type, path, size, sha256 (up to 1 GiB), nlink, symlink target
 *   walk xattrs DIR     path, user.* name, value in hex ("-" when empty)
 *   walk attrib DIR     path, system.ntfs_attrib as 0x%08x
 *
 *   walk range FILE OFF LEN  SHA-256 of a byte range
 *   walk setxattr FILE NAME VALUE
 *
 * Paths are "./relative"; output is unsorted (pipe it through sort).
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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "sha256.h"

/* ---- the walk ---- */

enum mode { MANIFEST, XATTRS, ATTRIB };
static enum mode mode;
static int errors;

static int hash_file(int dirfd, const char *name, char out[65])
{
	static unsigned char buf[1 << 16];
	struct sha256_ctx s;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return -errno;
	sha256_init(&s);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&s, buf, n);
	close(fd);
	if (n < 0)
		return -EIO;
	sha256_final(&s, out);
	return 0;
}

static void print_hex(const unsigned char *v, ssize_t n)
{
	ssize_t i;

	if (n <= 0) {
		fputs("-", stdout);
		return;
	}
	for (i = 0; i < n; i++)
		printf("%02x", v[i]);
}

static void do_xattrs(const char *path)
{
	char names[65536], *p;
	unsigned char val[65536];
	ssize_t n = llistxattr(path, names, sizeof(names)), v;

	if (n < 0) {
		if (errno != ENOTSUP)
			errors++;
		return;
	}
	for (p = names; p < names + n; p += strlen(p) + 1) {
		if (strncmp(p, "user.", 5))
			continue;
		v = lgetxattr(path, p, val, sizeof(val));
		printf("%s\t%s\t", path, p);
		if (v < 0) {
			printf("ERROR:%d", errno);
			errors++;
		} else {
			print_hex(val, v);
		}
		putchar('\n');
	}
}

static void do_entry(int dirfd, const char *name, const char *path)
{
	struct stat st;
	char hash[65], target[4096];
	uint32_t attr;
	ssize_t n;
	int err;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		printf("?\t%s\tERROR:%d\t-\t-\t-\n", path, errno);
		errors++;
		return;
	}
	if (mode == XATTRS) {
		do_xattrs(path);
		return;
	}
	if (mode == ATTRIB) {
		n = lgetxattr(path, "system.ntfs_attrib", &attr, sizeof(attr));
		if (n == 4)
			printf("%s\t0x%08x\t-\n", path, attr);
		else
			printf("%s\tERROR:%d\t-\n", path, errno);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		printf("d\t%s\t-\t-\t-\t-\n", path);
	} else if (S_ISLNK(st.st_mode)) {
		n = readlinkat(dirfd, name, target, sizeof(target) - 1);
		if (n < 0) {
			n = 0;
			errors++;
		}
		target[n] = 0;
		printf("l\t%s\t%zd\t-\t%lu\t%s\n", path, n, (unsigned long)st.st_nlink, target);
	} else if (S_ISREG(st.st_mode) && st.st_size > (1LL << 30)) {
		/* Like the manifests: no hash above 1 GiB (see the .samples files). */
		printf("f\t%s\t%lld\t-\t%lu\t-\n", path, (long long)st.st_size,
		       (unsigned long)st.st_nlink);
	} else if (S_ISREG(st.st_mode)) {
		err = hash_file(dirfd, name, hash);
		if (err) {
			snprintf(hash, sizeof(hash), "ERROR:%d", -err);
			errors++;
		}
		printf("f\t%s\t%lld\t%s\t%lu\t-\n", path, (long long)st.st_size, hash,
		       (unsigned long)st.st_nlink);
	} else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		printf("o\t%s\t%lld\t-\t%lu\t%o:%u,%u\n", path, (long long)st.st_size,
		       (unsigned long)st.st_nlink, st.st_mode & S_IFMT, major(st.st_rdev),
		       minor(st.st_rdev));
	} else {
		printf("o\t%s\t%lld\t-\t%lu\t%o\n", path, (long long)st.st_size,
		       (unsigned long)st.st_nlink, st.st_mode & S_IFMT);
	}
}

static void walk(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char *sub;

	if (!d) {
		printf("?\t%s\tERROR:%d\t-\t-\t-\n", path, errno);
		errors++;
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (asprintf(&sub, "%s/%s", path, e->d_name) < 0)
			exit(2);
		do_entry(dirfd(d), e->d_name, sub);
		if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN) {
			struct stat st;

			if (!lstat(sub, &st) && S_ISDIR(st.st_mode))
				walk(sub);
		}
		free(sub);
	}
	closedir(d);
}

/* walk range FILE OFFSET LENGTH: SHA-256 of that byte range. */
static int hash_range(const char *path, long long off, long long len)
{
	static unsigned char buf[1 << 16];
	struct sha256_ctx s;
	char hex[65];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		perror(path);
		return 1;
	}
	sha256_init(&s);
	while (len > 0) {
		n = pread(fd, buf, len < (long long)sizeof(buf) ? len : (long long)sizeof(buf), off);
		if (n <= 0) {
			fprintf(stderr, "%s: read error at %lld\n", path, off);
			return 1;
		}
		sha256_update(&s, buf, n);
		off += n;
		len -= n;
	}
	close(fd);
	sha256_final(&s, hex);
	printf("%s\n", hex);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "setxattr"))
		return lsetxattr(argv[2], argv[3], argv[4], strlen(argv[4]), 0) ? perror(argv[2]), 1 : 0;
	if (argc == 5 && !strcmp(argv[1], "range"))
		return hash_range(argv[2], atoll(argv[3]), atoll(argv[4]));
	if (argc != 3) {
		fprintf(stderr, "usage: walk manifest|xattrs|attrib DIR\n");
		return 2;
	}
	mode = !strcmp(argv[1], "xattrs") ? XATTRS : !strcmp(argv[1], "attrib") ? ATTRIB : MANIFEST;
	if (chdir(argv[2])) {
		perror(argv[2]);
		return 2;
	}
	if (mode == MANIFEST)
		printf("d\t.\t-\t-\t-\t-\n");
	else
		do_entry(AT_FDCWD, ".", ".");
	walk(".");
	fflush(stdout);
	return errors ? 1 : 0;
}
