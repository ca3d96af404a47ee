// SPDX-License-Identifier: GPL-2.0
/*
 * xattr-names PATH...: for each PATH, one line "PATH<TAB>NAMES": the names
 * llistxattr() gives, space-separated, "-" for none, or "ERROR:<errno>"
 * when it fails; exit 1 when one failed.  busybox has no getfattr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

int main(int argc, char **argv)
{
	static char names[65536];
	int i, failed = 0;

	for (i = 1; i < argc; i++) {
		ssize_t n = llistxattr(argv[i], names, sizeof(names));
		char *p;

		printf("%s\t", argv[i]);
		if (n < 0) {
			printf("ERROR:%d\n", errno);
			failed = 1;
			continue;
		}
		if (!n)
			printf("-");
		for (p = names; p < names + n; p += strlen(p) + 1)
			printf("%s%s", p == names ? "" : " ", p);
		putchar('\n');
	}
	return failed;
}
