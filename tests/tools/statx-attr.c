// SPDX-License-Identifier: GPL-2.0
/*
 * statx-attr PATH: print the statx() attribute flags of PATH that the VFS
 * derives from inode flags, one word each ("immutable", "append"), or
 * "none"; exit 1 when statx fails.  busybox has no tool that shows them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	struct statx st;
	int any = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: statx-attr PATH\n");
		return 2;
	}
	if (statx(AT_FDCWD, argv[1], AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &st)) {
		perror(argv[1]);
		return 1;
	}
	if (st.stx_attributes & STATX_ATTR_IMMUTABLE) {
		printf("immutable");
		any = 1;
	}
	if (st.stx_attributes & STATX_ATTR_APPEND) {
		printf("%sappend", any ? " " : "");
		any = 1;
	}
	printf("%s\n", any ? "" : "none");
	return 0;
}
