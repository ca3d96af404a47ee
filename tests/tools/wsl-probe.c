// SPDX-License-Identifier: GPL-2.0
/*
 * wsl-probe: small probes for tests/ntfs-read/feat-wsl.sh, which busybox
 * cannot do (binary xattr values, errno names, statvfs flags, exec as
 * another user).  Failures print "WHAT ERRNO-NAME" on stdout, exit 1.
 *
 *   wsl-probe stat PATH            "UID GID MODE MAJOR:MINOR" (lstat; MODE in
 *                                  octal with the type bits, st_rdev split)
 *   wsl-probe setx PATH NAME HEX   lsetxattr NAME to the bytes HEX spells
 *   wsl-probe getx PATH NAME       the value of NAME in hex
 *   wsl-probe open PATH            open O_RDONLY, one read of up to 4096
 *                                  bytes: "read N" (+ " zeros" when N > 0
 *                                  and all are 0)
 *   wsl-probe mntflags DIR         statvfs f_flag: "ro nosuid nodev noexec",
 *                                  those set, or "none"
 *   wsl-probe ids                  "euid=U egid=G"
 *   wsl-probe runas ID PATH ARG... drop to uid and gid ID (no supplementary
 *                                  groups), then execv(PATH, {PATH, ARG...})
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

static int fail(const char *what)
{
	const char *name = strerrorname_np(errno);

	printf("%s %s\n", what, name ? name : "E?");
	return 1;
}

static int do_stat(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return fail("stat");
	printf("%u %u %o %u:%u\n", (unsigned int)st.st_uid, (unsigned int)st.st_gid,
	       (unsigned int)st.st_mode, major(st.st_rdev), minor(st.st_rdev));
	return 0;
}

static int do_setx(const char *path, const char *name, const char *hex)
{
	unsigned char buf[4096];
	size_t n = strlen(hex) / 2, i;

	if (strlen(hex) % 2 || n > sizeof(buf)) {
		fprintf(stderr, "wsl-probe: bad hex value\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1) {
			fprintf(stderr, "wsl-probe: bad hex value\n");
			return 2;
		}
		buf[i] = b;
	}
	if (lsetxattr(path, name, buf, n, 0))
		return fail("setxattr");
	return 0;
}

static int do_getx(const char *path, const char *name)
{
	unsigned char buf[4096];
	ssize_t n = lgetxattr(path, name, buf, sizeof(buf)), i;

	if (n < 0)
		return fail("getxattr");
	for (i = 0; i < n; i++)
		printf("%02x", buf[i]);
	printf("%s\n", n ? "" : "-");
	return 0;
}

static int do_open(const char *path)
{
	static unsigned char buf[4096];
	ssize_t n, i;
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	int zeros = 1;

	if (fd < 0)
		return fail("open");
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		return fail("read");
	close(fd);
	for (i = 0; i < n; i++)
		zeros &= !buf[i];
	printf("read %zd%s\n", n, n && zeros ? " zeros" : "");
	return 0;
}

static int do_mntflags(const char *dir)
{
	struct statvfs v;
	int any = 0;

	if (statvfs(dir, &v))
		return fail("statvfs");
	if (v.f_flag & ST_RDONLY)
		any = printf("ro");
	if (v.f_flag & ST_NOSUID)
		any = printf("%snosuid", any ? " " : "");
	if (v.f_flag & ST_NODEV)
		any = printf("%snodev", any ? " " : "");
	if (v.f_flag & ST_NOEXEC)
		any = printf("%snoexec", any ? " " : "");
	printf("%s\n", any ? "" : "none");
	return 0;
}

static int do_runas(const char *id, char **argv)
{
	unsigned int n = strtoul(id, NULL, 10);

	if (setgroups(0, NULL))
		return fail("setgroups");
	if (setgid(n))
		return fail("setgid");
	if (setuid(n))
		return fail("setuid");
	fflush(stdout);
	execv(argv[0], argv);
	return fail("exec");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "stat"))
		return do_stat(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "setx"))
		return do_setx(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "getx"))
		return do_getx(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "open"))
		return do_open(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mntflags"))
		return do_mntflags(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "ids")) {
		printf("euid=%u egid=%u\n", (unsigned int)geteuid(), (unsigned int)getegid());
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "runas"))
		return do_runas(argv[2], argv + 3);
	fprintf(stderr, "usage: wsl-probe stat|setx|getx|open|mntflags|ids|runas ...\n");
	return 2;
}
