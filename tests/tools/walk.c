// SPDX-License-Identifier: GPL-2.0
/*
 * walk: list a mounted tree in the formats of scripts/make-ntfs-images.sh,
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
#include <sys/xattr.h>
#include <unistd.h>

/* ---- SHA-256 (FIPS 180-4) ---- */

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t fill;
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | p[4 * i + 1] << 16 | p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       w[i - 7] + (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->fill = 0;
}

static void sha256_update(struct sha256 *s, const unsigned char *p, size_t n)
{
	s->len += n;
	while (n) {
		size_t k = 64 - s->fill < n ? 64 - s->fill : n;

		memcpy(s->buf + s->fill, p, k);
		s->fill += k;
		p += k;
		n -= k;
		if (s->fill == 64) {
			sha256_block(s, s->buf);
			s->fill = 0;
		}
	}
}

static void sha256_hex(struct sha256 *s, char out[65])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, zero = 0, lenb[8];
	int i;

	sha256_update(s, &pad, 1);
	while (s->fill != 56)
		sha256_update(s, &zero, 1);
	for (i = 0; i < 8; i++)
		lenb[i] = bits >> (56 - 8 * i);
	sha256_update(s, lenb, 8);
	for (i = 0; i < 8; i++)
		sprintf(out + 8 * i, "%08x", s->h[i]);
}

/* ---- the walk ---- */

enum mode { MANIFEST, XATTRS, ATTRIB };
static enum mode mode;
static int errors;

static int hash_file(int dirfd, const char *name, char out[65])
{
	static unsigned char buf[1 << 16];
	struct sha256 s;
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
	sha256_hex(&s, out);
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
	struct sha256 s;
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
	sha256_hex(&s, hex);
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
