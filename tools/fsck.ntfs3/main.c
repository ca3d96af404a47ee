// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.ntfs3 entry point: options, the order of the passes, the problem
 * report and the exit code (fsck(8): 0 clean, 4 errors left, 8 failed).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsck.h"

/* The project's version (top-level VERSION file), passed by tools/Makefile. */
#ifndef FSCK_VERSION
#define FSCK_VERSION	"unknown"
#endif
/* A fuzzed volume can produce millions of problems; print the first ones. */
#define MAX_PRINTED	10000

static const char *progname = "fsck.ntfs3";

void fatal(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(FSCK_FAILED);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		fatal("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		fatal("out of memory (%zu x %zu bytes)", n, size);
	p = realloc(p, bytes ? bytes : 1);
	if (!p)
		fatal("out of memory (%zu bytes)", bytes);
	return p;
}

/**
 * report() - print one problem: "[class] record N, where: text".
 * @rec is NO_REC for problems of the volume as a whole.
 */
void report(struct vol *v, const char *cls, u64 rec, const char *where,
	    const char *fmt, ...)
{
	va_list ap;

	if (++v->problems > MAX_PRINTED)
		return;
	if (rec == NO_REC)
		printf("[%s] volume", cls);
	else
		printf("[%s] record %llu", cls, (unsigned long long)rec);
	if (where && *where)
		printf(", %s", where);
	fputs(": ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* What begins each line of -v. */
#define CHECKED_PREFIX	"checked: "

/* -v: one line per structure checked. */
void checked(struct vol *v, const char *fmt, ...)
{
	va_list ap;

	if (!v->verbose)
		return;
	fputs(CHECKED_PREFIX, stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-n|-a|-y|-p] [-v|-q] [--offset BYTES [--size BYTES]] DEVICE|IMAGE\n"
		"Check an NTFS volume without writing to it.\n"
		"  -n            check only (the default)\n"
		"  -a, -p, -y    repair: not supported yet (exits 8)\n"
		"  -f            check even if clean (always done)\n"
		"  -v            list what was checked\n"
		"  -q            print problems only\n"
		"  --offset N    the volume starts N bytes into the file\n"
		"  --size N      the volume (partition) is N bytes long\n"
		"  -V            print the version\n"
		"Exit status: 0 clean, 4 problems found, 8 operational error.\n",
		progname);
}

/* Is the block device @st mounted?  Compare with /proc/self/mountinfo. */
static bool device_mounted(const struct stat *st)
{
	unsigned int maj, min;
	char line[4096];
	bool found = false;
	FILE *f;

	if (!S_ISBLK(st->st_mode))
		return false;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) == 2 &&
		    maj == major(st->st_rdev) && min == minor(st->st_rdev))
			found = true;
	}
	fclose(f);
	return found;
}

static u64 parse_offset(const char *s)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		fatal("'%s' is not a byte count", s);
	return n;
}

struct opts {
	const char *dev;
	u64 offset;
	u64 size;
	int verbose;
	int quiet;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "offset", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "naypfvqVhC:t:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
		case 'f':
		case 'C':	/* fsck(8) progress fd: no progress bar */
		case 't':
			break;
		case 'a':
		case 'y':
		case 'p':
			fprintf(stderr, "%s: repair is not supported yet; run with -n to check\n",
				progname);
			exit(FSCK_FAILED);
		case 'v':
			o->verbose = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'o':
			o->offset = parse_offset(optarg);
			break;
		case 's':
			o->size = parse_offset(optarg);
			break;
		case 'V':
			printf("%s %s\n", progname, FSCK_VERSION);
			exit(FSCK_OK);
		case 'h':
			print_usage(stdout);
			exit(FSCK_OK);
		default:
			print_usage(stderr);
			exit(FSCK_FAILED);
		}
	}
	if (optind != argc - 1) {
		print_usage(stderr);
		exit(FSCK_FAILED);
	}
	o->dev = argv[optind];
}

/* The passes, in dependency order (see fsck.h). */
static void run_passes(struct vol *v)
{
	check_records(v);
	check_mftmirr(v);
	check_mft_bitmap(v);
	check_clusters(v);
	check_attr_lists(v);
	load_upcase(v);
	check_volume(v);
	check_directories(v);
	check_secure(v);
	check_reparse(v);
	check_objid(v);
	check_quota(v);
}

static void summary(struct vol *v)
{
	u64 r, used = 0, dirs = 0;

	if (v->quiet)
		return;
	for (r = 0; r < v->nrec; r++) {
		if (v->recs[r].state == REC_FREE || v->recs[r].base_ref)
			continue;
		used++;
		if (v->recs[r].flags & NTFS_RECORD_IS_DIR)
			dirs++;
	}
	printf("%s: %llu records in use (%llu directories), %llu clusters of %u bytes: ",
	       v->dev, (unsigned long long)used, (unsigned long long)dirs,
	       (unsigned long long)v->clusters, v->cluster_size);
	if (!v->problems)
		printf("clean\n");
	else
		printf("%lu problem%s found%s\n", v->problems,
		       v->problems == 1 ? "" : "s",
		       v->problems > MAX_PRINTED ? " (the first 10000 shown)" : "");
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct vol v = { 0 };
	struct stat st;

	parse_args(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (stat(o.dev, &st))
		fatal("%s: %s", o.dev, strerror(errno));
	if (device_mounted(&st))
		fatal("%s is mounted; unmount it before checking", o.dev);
	v.verbose = o.verbose;
	v.quiet = o.quiet;
	if (vol_open(&v, o.dev, o.offset, o.size))
		return FSCK_FAILED;
	if (vol_check_boot(&v) || vol_load_mft(&v)) {
		summary(&v);
		vol_close(&v);
		return v.problems ? FSCK_ERRORS : FSCK_FAILED;
	}
	run_passes(&v);
	summary(&v);
	vol_close(&v);
	return v.problems ? FSCK_ERRORS : FSCK_OK;
}
