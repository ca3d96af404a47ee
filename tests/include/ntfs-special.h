/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the ntfs3 feature tests (tests/ntfs-read/feat-*.c): where the
 * test volumes are, what the host recorded about them, which driver is
 * loaded, and the kernel messages a step caused.
 *
 * The special volumes (scripts/images/make-ntfs-special.sh) are partitions of the
 * disk named "special" in HX_DISK_NAMES (GPT partition name = volume name)
 * and the disk "special-4k"; /ntfs-images/special.meta says what they hold.
 */
#ifndef HX_NTFS_SPECIAL_H
#define HX_NTFS_SPECIAL_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"

#define SPECIAL_META "/ntfs-images/special.meta"

/* /dev/vdX of the disk called @name in HX_DISK_NAMES (/hx/env). */
static inline int hx_disk_of(const char *name, char *dev, size_t len)
{
	char line[4096], *p, *tok;
	FILE *f = fopen("/hx/env", "r");
	int i = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "HX_DISK_NAMES='", 15))
			continue;
		p = line + 15;
		p[strcspn(p, "'")] = 0;
		for (tok = strtok(p, " "); tok; tok = strtok(NULL, " "), i++) {
			if (!strcmp(tok, name)) {
				/* vda..vdz, then vdaa..: as virtio_blk names them */
				if (i < 26)
					snprintf(dev, len, "/dev/vd%c", 'a' + i);
				else
					snprintf(dev, len, "/dev/vd%c%c", 'a' + i / 26 - 1,
						 'a' + i % 26);
				fclose(f);
				return 0;
			}
		}
	}
	fclose(f);
	return -1;
}

/* The block device of special volume @vol ("4k": the disk special-4k). */
static inline int hx_vol_dev(const char *vol, char *dev, size_t len)
{
	char disk[32], path[128], line[256], want[128];
	int i;

	if (!strcmp(vol, "4k"))
		return hx_disk_of("special-4k", dev, len);
	if (hx_disk_of("special", disk, sizeof(disk)))
		return -1;
	snprintf(want, sizeof(want), "PARTNAME=%s\n", vol);
	for (i = 1; i < 64; i++) {
		FILE *f;
		int hit = 0;

		snprintf(path, sizeof(path), "/sys/class/block/%s%d/uevent", disk + 5, i);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			hit |= !strcmp(line, want);
		fclose(f);
		if (hit) {
			snprintf(dev, len, "%s%d", disk, i);
			return 0;
		}
	}
	return -1;
}

/* special.meta: "VOLUME \t KEY \t field...", kept in memory. */
struct meta_line {
	char *f[8];
	int n;
};
static struct meta_line *meta_lines;
static int meta_count;

static inline int meta_load(void)
{
	char buf[1024];
	FILE *f = fopen(SPECIAL_META, "r");

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		struct meta_line *m;
		char *s, *save = NULL;

		buf[strcspn(buf, "\n")] = 0;
		meta_lines = realloc(meta_lines, (meta_count + 1) * sizeof(*meta_lines));
		m = &meta_lines[meta_count++];
		m->n = 0;
		for (s = strtok_r(strdup(buf), "\t", &save); s && m->n < 8;
		     s = strtok_r(NULL, "\t", &save))
			m->f[m->n++] = s;
	}
	fclose(f);
	return 0;
}

/* The @idx-th line (0, 1, ...) of volume @vol with key @key and, when
 * @path is not NULL, third field @path. */
static inline struct meta_line *meta_get(const char *vol, const char *key, const char *path,
					 int idx)
{
	int i;

	for (i = 0; i < meta_count; i++) {
		struct meta_line *m = &meta_lines[i];

		if (m->n < 3 || strcmp(m->f[0], vol) || strcmp(m->f[1], key))
			continue;
		if (path && strcmp(m->f[2], path))
			continue;
		if (!idx--)
			return m;
	}
	return NULL;
}

static inline void use_driver(const char *which)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd),
		 "rmmod ntfs3 2>/dev/null; insmod /lib/modules/%s/ntfs3.ko", which);
	if (system(cmd))
		printf("# insmod of the %s ntfs3 failed\n", which);
}

/* Mount read-only with @opts; returns 0 or -1 with errno. */
static inline int ntfs_mount(const char *dev, const char *dir, const char *opts)
{
	mkdir(dir, 0755);
	return mount(dev, dir, "ntfs3", MS_RDONLY, opts);
}

/* Kernel messages: kmsg_mark() before a step, kmsg_since() after it gives
 * what the kernel logged in between (malloc'd). */
static int kmsg_seq;

static inline void kmsg_mark(void)
{
	char buf[64];
	int fd = open("/dev/kmsg", O_WRONLY);
	int n = snprintf(buf, sizeof(buf), "<7>hx-mark %d-%d\n", getpid(), ++kmsg_seq);

	if (fd >= 0) {
		if (write(fd, buf, n) != n)
			perror("kmsg");
		close(fd);
	}
}

static inline char *kmsg_since(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *p, *hit = NULL, mark[64];
	int n;

	if (size < 4096)
		size = 1 << 20;
	buf = calloc(1, size + 1);
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0)
		n = 0;
	buf[n] = 0;
	snprintf(mark, sizeof(mark), "hx-mark %d-%d\n", getpid(), kmsg_seq);
	for (p = buf; (p = strstr(p, mark)); p++)
		hit = p + strlen(mark);
	memmove(buf, hit ? hit : buf + n, strlen(hit ? hit : buf + n) + 1);
	return buf;
}

/* Case-insensitive: does @log have a line containing @word? */
static inline int kmsg_has(const char *log, const char *word)
{
	return strcasestr(log, word) != NULL;
}

/* Print @log as TAP diagnostics, at most @max lines. */
static inline void kmsg_show(const char *log, int max)
{
	const char *p = log;

	while (*p && max--) {
		int len = strcspn(p, "\n");

		printf("#   kmsg: %.*s\n", len, p);
		p += len + (p[len] == '\n');
	}
}

/*
 * The feature tests run every step twice: on our driver, judged (TAP), then
 * on the in-tree ntfs3 as a reference that is only printed.  ck() is one
 * check of a step; clear judging before the reference run.
 */
static int judging = 1;

static inline void ck(int pass, const char *fmt, ...)
{
	va_list ap;
	char msg[768];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (judging)
		tap_result(pass, "%s", msg);
	else
		printf("# in-tree: %s - %s\n", pass ? "ok" : "differs", msg);
}

#endif
