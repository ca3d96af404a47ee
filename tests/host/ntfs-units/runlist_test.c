// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of ntfs3/runlist.c.
 *
 *   runlist_test [VECTOR_DIR]   run the tests, TAP on stdout; with
 *                               VECTOR_DIR also decode the *.runs vectors
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runlist.h"
#include "units.h"

#define HOLE	NTFS_LCN_HOLE
#define BIG	(1ULL << 40)	/* a volume size that does not get in the way */

struct arr {
	struct ntfs_run *runs;
	unsigned int nr, cap;
};

static void arr_free(struct arr *a)
{
	free(a->runs);
	memset(a, 0, sizeof(*a));
}

/* Decode from a private copy of exactly @len bytes, for AddressSanitizer. */
static int dec(struct arr *a, const u8 *mp, size_t len, u64 lo, u64 hi,
	       u64 total)
{
	u8 *p = malloc(len ? len : 1);
	const char *why = NULL;
	int ret;

	if (len)
		memcpy(p, mp, len);
	ret = ntfs_decode_runs(len ? p : NULL, len, lo, hi, total, &a->runs,
			       &a->nr, &a->cap, &why);
	free(p);
	/* Every refusal names the rule it enforces. */
	if (ret == -EIO && !why)
		ret = -EINVAL;
	return ret;
}

static int same_runs(const struct arr *a, unsigned int from,
		     const struct ntfs_run *want, unsigned int n)
{
	unsigned int i;

	if (a->nr != from + n)
		return 0;
	for (i = 0; i < n; i++) {
		const struct ntfs_run *r = &a->runs[from + i];

		if (r->vcn != want[i].vcn || r->lcn != want[i].lcn ||
		    r->len != want[i].len)
			return 0;
	}
	return 1;
}

#define MP(...)		((const u8[]){ __VA_ARGS__ }), sizeof((const u8[]){ __VA_ARGS__ })
#define RUNS(...)	((const struct ntfs_run[]){ __VA_ARGS__ }), \
			sizeof((const struct ntfs_run[]){ __VA_ARGS__ }) / sizeof(struct ntfs_run)

static void expect_runs(const char *what, const u8 *mp, size_t len, u64 lo,
			u64 hi, u64 total, const struct ntfs_run *want,
			unsigned int n)
{
	struct arr a = { 0 };
	int ret = dec(&a, mp, len, lo, hi, total);

	tap_result(ret == 0 && same_runs(&a, 0, want, n) &&
		   !ntfs_runs_merge_check(a.runs, a.nr), "%s", what);
	arr_free(&a);
}

static void test_examples(void)
{
	/*
	 * The examples of the Linux-NTFS "Data Runs" page, as bytes written
	 * from their descriptions.
	 */
	expect_runs("one run: 0x18 clusters at LCN 0x5634",
		    MP(0x21, 0x18, 0x34, 0x56, 0x00), 0, 0x17, BIG,
		    RUNS({ 0, 0x5634, 0x18 }));
	expect_runs("fragmented: LCNs 0x60, 0x160, then back to 0x140",
		    MP(0x11, 0x20, 0x60, 0x21, 0x20, 0x00, 0x01,
		       0x11, 0x20, 0xe0, 0x00), 0, 0x5f, BIG,
		    RUNS({ 0, 0x60, 0x20 }, { 0x20, 0x160, 0x20 },
			 { 0x40, 0x140, 0x20 }));
	expect_runs("sparse: a hole of 0x60 between runs at 0x20 and 0x50",
		    MP(0x11, 0x20, 0x20, 0x01, 0x60, 0x11, 0x20, 0x30, 0x00),
		    0, 0x9f, BIG,
		    RUNS({ 0, 0x20, 0x20 }, { 0x20, HOLE, 0x60 },
			 { 0x80, 0x50, 0x20 }));
	expect_runs("compressed: units of 16 clusters padded with holes",
		    MP(0x11, 0x08, 0x40, 0x01, 0x08, 0x11, 0x10, 0x08,
		       0x11, 0x08, 0x10, 0x01, 0x08, 0x00), 0, 0x2f, BIG,
		    RUNS({ 0, 0x40, 8 }, { 8, HOLE, 8 }, { 0x10, 0x48, 0x10 },
			 { 0x20, 0x58, 8 }, { 0x28, HOLE, 8 }));
	expect_runs("only a hole", MP(0x01, 0x10, 0x00), 0, 15, BIG,
		    RUNS({ 0, HOLE, 16 }));
	expect_runs("8-byte length and 8-byte offset",
		    MP(0x88, 5, 0, 0, 0, 0, 0, 0, 0,
		       0, 0, 0, 0, 0x80, 0, 0, 0, 0x00), 0, 4, BIG,
		    RUNS({ 0, 1LL << 39, 5 }));
	expect_runs("length with its top bit set reads as unsigned (0x80)",
		    MP(0x11, 0x80, 0x10, 0x00), 0, 0x7f, BIG,
		    RUNS({ 0, 0x10, 0x80 }));
	expect_runs("offset 0x80 in two bytes is +128, in one byte -128",
		    MP(0x21, 1, 0x80, 0x00, 0x11, 1, 0x80, 0x00), 0, 1, BIG,
		    RUNS({ 0, 128, 1 }, { 1, 0, 1 }));
	expect_runs("extent starting at VCN 0x20", MP(0x11, 0x10, 0x60, 0x00),
		    0x20, 0x2f, BIG, RUNS({ 0x20, 0x60, 0x10 }));
	expect_runs("run ending exactly at the end of the volume",
		    MP(0x11, 0x04, 0x60, 0x00), 0, 3, 100,
		    RUNS({ 0, 96, 4 }));
	expect_runs("bytes after the terminator are not looked at",
		    MP(0x11, 0x04, 0x60, 0x00, 0xff, 0xff), 0, 3, 100,
		    RUNS({ 0, 96, 4 }));

	{
		struct arr a = { 0 };
		int ret = dec(&a, MP(0x00), 0, U64_MAX, BIG);

		tap_result(ret == 0 && a.nr == 0,
			   "empty attribute (highest VCN -1): just the terminator");
		ret = dec(&a, MP(0x22, 0x00, 0x04, 0x24, 0x19, 0x00), 0, U64_MAX, BIG);
		tap_result(ret == 0 && a.nr == 0,
			   "empty attribute with stale mapping pairs (cut to zero in place): no runs");
		ret = dec(&a, MP(0x00), 5, 4, BIG);
		tap_result(ret == 0 && a.nr == 0,
			   "extent without runs (highest VCN = lowest VCN - 1): just the terminator");
		ret = dec(&a, MP(0xff), 5, 4, BIG);
		tap_result(ret == 0 && a.nr == 0,
			   "extent without runs: its mapping pairs are not read");
		arr_free(&a);
	}
}

static void expect_eio(const char *what, const u8 *mp, size_t len, u64 lo,
		       u64 hi, u64 total)
{
	struct arr a = { 0 };
	int ret;

	/* Start with one run in the array: it must survive unchanged. */
	ret = dec(&a, MP(0x11, 0x05, 0x07, 0x00), 0, 4, BIG);
	ret |= dec(&a, mp, len, lo, hi, total) != -EIO;
	tap_result(!ret && same_runs(&a, 0, RUNS({ 0, 7, 5 })),
		   "corrupt: %s gives -EIO, array unchanged", what);
	arr_free(&a);
}

static void test_corrupt(void)
{
	expect_eio("no bytes at all", NULL, 0, 0, 0, BIG);
	expect_eio("no terminator", MP(0x21, 0x18, 0x34, 0x56), 0, 0x17, BIG);
	expect_eio("terminator past mp_len",
		   (const u8 *)"\x21\x18\x34\x56\x00", 4, 0, 0x17, BIG);
	expect_eio("length size 0", MP(0x10, 0x05, 0x00), 0, 4, BIG);
	expect_eio("length size 9",
		   MP(0x19, 1, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0x00), 0, 0, BIG);
	expect_eio("offset size 9",
		   MP(0x91, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0x00), 0, 0, BIG);
	expect_eio("header 0xff", MP(0xff, 0x00), 0, 0, BIG);
	expect_eio("length bytes cut off", MP(0x03, 0x01, 0x00), 0, 0, BIG);
	expect_eio("offset bytes cut off", MP(0x21, 0x18, 0x34), 0, 0x17, BIG);
	expect_eio("length 0", MP(0x11, 0x00, 0x05, 0x00), 0, 0, BIG);
	expect_eio("length 0 in two bytes, sparse", MP(0x02, 0x00, 0x00, 0x00),
		   0, 0, BIG);
	expect_eio("first LCN negative", MP(0x11, 0x01, 0xff, 0x00), 0, 0, BIG);
	expect_eio("LCN going negative",
		   MP(0x11, 0x01, 0x05, 0x11, 0x01, 0xf0, 0x00), 0, 1, BIG);
	expect_eio("run past the end of the volume", MP(0x11, 0x10, 0x60, 0x00),
		   0, 15, 100);
	expect_eio("run starting at the end of the volume",
		   MP(0x11, 0x01, 0x64, 0x00), 0, 0, 100);
	expect_eio("LCN offset overflowing s64",
		   MP(0x11, 0x01, 0x0a,
		      0x81, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
		      0x00), 0, 1, (u64)S64_MAX);
	expect_eio("LCN offset underflowing s64",
		   MP(0x11, 0x01, 0x0a,
		      0x81, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
		      0x00), 0, 1, (u64)S64_MAX);
	expect_eio("runs past highest VCN", MP(0x11, 0x20, 0x60, 0x00),
		   0, 0x1e, BIG);
	expect_eio("runs ending before highest VCN", MP(0x11, 0x10, 0x60, 0x00),
		   0, 0x1f, BIG);
	expect_eio("length 2^64 - 1",
		   MP(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00),
		   0, 0x1f, BIG);
	expect_eio("VCN wrapping around 2^64",
		   MP(0x01, 0x10, 0x08, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		      0xff, 0x00), 0, 0x1f, BIG);
	expect_eio("lowest VCN above highest VCN + 1", MP(0x00), 6, 4, BIG);
	expect_eio("highest VCN 2^63 - 1", MP(0x00), 0, (u64)S64_MAX, BIG);
	expect_eio("highest VCN -1 with lowest VCN 1", MP(0x00), 1, U64_MAX,
		   BIG);
	expect_eio("volume size above 2^63 - 1", MP(0x11, 0x01, 0x05, 0x00),
		   0, 0, U64_MAX);
}

static void test_append(void)
{
	struct arr a = { 0 };
	unsigned int i, ok = 1;
	const struct ntfs_run *r;
	int ret;

	/* Two extents; the second starts again from LCN 0. */
	ret = dec(&a, MP(0x11, 0x10, 0x60, 0x01, 0x10, 0x00), 0, 0x1f, BIG);
	ret |= dec(&a, MP(0x11, 0x08, 0x70, 0x00), 0x20, 0x27, BIG);
	tap_result(!ret && same_runs(&a, 0, RUNS({ 0, 0x60, 0x10 },
					    { 0x10, HOLE, 0x10 },
					    { 0x20, 0x70, 8 })) &&
		   !ntfs_runs_merge_check(a.runs, a.nr),
		   "second extent appended, its LCNs relative to 0");
	r = ntfs_run_lookup(a.runs, a.nr, 0x24);
	tap_result(r == &a.runs[2], "lookup finds a VCN in the second extent");
	arr_free(&a);

	/* Many extents of one run each: the array grows from NULL. */
	for (i = 0; i < 5000 && ok; i++) {
		u8 mp[] = { 0x21, 0x03, (u8)i, (u8)(i >> 8), 0x00 };

		ok = !dec(&a, mp, sizeof(mp), 3 * i, 3 * i + 2, BIG) &&
		     a.nr == i + 1 && a.cap >= a.nr;
	}
	for (i = 0; i < a.nr && ok; i++)
		ok = a.runs[i].vcn == 3 * i && a.runs[i].lcn == (s64)i &&
		     a.runs[i].len == 3;
	tap_result(ok && a.nr == 5000 && !ntfs_runs_merge_check(a.runs, a.nr),
		   "5000 extents appended one by one (capacity %u)", a.cap);
	arr_free(&a);
}

static void test_merge_check(void)
{
	static const struct ntfs_run good[] = {
		{ 0, 5, 10 }, { 10, HOLE, 6 }, { 20, 0, 1 }, { 21, 9, 3 },
	};
	struct ntfs_run bad[4];

	tap_result(!ntfs_runs_merge_check(good, 4), "merge check: sorted, with a gap");
	tap_result(!ntfs_runs_merge_check(NULL, 0), "merge check: empty array");

	memcpy(bad, good, sizeof(bad));
	bad[1].vcn = 9;
	tap_result(ntfs_runs_merge_check(bad, 4) == -EIO, "merge check: overlap");
	memcpy(bad, good, sizeof(bad));
	bad[2] = good[3];
	bad[3] = good[2];
	tap_result(ntfs_runs_merge_check(bad, 4) == -EIO, "merge check: unsorted");
	memcpy(bad, good, sizeof(bad));
	bad[3].len = 0;
	tap_result(ntfs_runs_merge_check(bad, 4) == -EIO, "merge check: empty run");
	memcpy(bad, good, sizeof(bad));
	bad[3].len = U64_MAX - 20;
	tap_result(ntfs_runs_merge_check(bad, 4) == -EIO,
		   "merge check: run past VCN 2^64 - 1");
	memcpy(bad, good, sizeof(bad));
	bad[0].lcn = -2;
	tap_result(ntfs_runs_merge_check(bad, 4) == -EIO,
		   "merge check: negative LCN other than the hole");
}

static const struct ntfs_run *lookup_linear(const struct ntfs_run *runs,
					    unsigned int nr, u64 vcn)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (vcn >= runs[i].vcn && vcn - runs[i].vcn < runs[i].len)
			return &runs[i];
	return NULL;
}

static void test_lookup(void)
{
	static const struct ntfs_run r[] = {
		{ 10, 5, 10 }, { 20, HOLE, 6 }, { 30, 0, 1 }, { 31, 9, 3 },
	};
	static struct ntfs_run big[300];
	unsigned int i, k, ok = 1;

	tap_result(ntfs_run_lookup(r, 4, 9) == NULL, "lookup: before the first run");
	tap_result(ntfs_run_lookup(r, 4, 10) == &r[0], "lookup: first VCN of a run");
	tap_result(ntfs_run_lookup(r, 4, 19) == &r[0], "lookup: last VCN of a run");
	tap_result(ntfs_run_lookup(r, 4, 20) == &r[1], "lookup: a hole run");
	tap_result(ntfs_run_lookup(r, 4, 27) == NULL, "lookup: in a gap");
	tap_result(ntfs_run_lookup(r, 4, 33) == &r[3], "lookup: last VCN");
	tap_result(ntfs_run_lookup(r, 4, 34) == NULL, "lookup: after the last run");
	tap_result(ntfs_run_lookup(r, 4, U64_MAX) == NULL, "lookup: VCN 2^64 - 1");
	tap_result(ntfs_run_lookup(NULL, 0, 0) == NULL, "lookup: empty array");

	for (k = 0; k < 2000 && ok; k++) {
		unsigned int n = rnd_below(300);
		u64 vcn = rnd_below(50);

		for (i = 0; i < n; i++) {
			big[i].vcn = vcn;
			big[i].len = 1 + rnd_below(k % 2 ? 3 : 1000);
			big[i].lcn = rnd_below(4) ? (s64)rnd_below(BIG) : HOLE;
			vcn += big[i].len + (rnd_below(3) ? 0 : rnd_below(20));
		}
		for (i = 0; i < 200 && ok; i++) {
			u64 v = rnd_below(vcn + 10);

			ok = ntfs_run_lookup(big, n, v) == lookup_linear(big, n, v);
		}
	}
	tap_result(ok, "lookup agrees with a linear search on 2000 random arrays");
}

/* Test encoder: minimal bytes; lengths as writers do (top bit clear). */
static unsigned int enc_bytes(u64 v, int is_signed)
{
	unsigned int n = 1;

	if (is_signed) {
		while (n < 8 && ((s64)v < -(1LL << (8 * n - 1)) ||
				 (s64)v >= (1LL << (8 * n - 1))))
			n++;
	} else {
		while (n < 8 && v >> (8 * n - 1))
			n++;
	}
	return n;
}

/* Encode @n runs as one extent into @out; return its size. */
static size_t encode(const struct ntfs_run *runs, unsigned int n, u8 *out)
{
	size_t p = 0;
	s64 prev = 0;
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		unsigned int ls = enc_bytes(runs[i].len, 0), os = 0;
		u64 delta = 0;

		if (runs[i].lcn != HOLE) {
			delta = (u64)(runs[i].lcn - prev);
			os = enc_bytes(delta, 1);
			prev = runs[i].lcn;
		}
		out[p++] = os << 4 | ls;
		for (k = 0; k < ls; k++)
			out[p++] = runs[i].len >> (8 * k);
		for (k = 0; k < os; k++)
			out[p++] = delta >> (8 * k);
	}
	out[p++] = 0;
	return p;
}

static void test_round_trip(void)
{
	static struct ntfs_run want[200];
	static u8 mp[200 * 17 + 1];
	unsigned int iter, i, ok = 1;

	for (iter = 0; iter < 10000 && ok; iter++) {
		struct arr a = { 0 };
		unsigned int n = 1 + rnd_below(200), parts, at = 0;
		u64 vcn = 0, total = 1 + rnd_below(iter % 3 ? 1ULL << 20 : BIG);

		for (i = 0; i < n; i++) {
			u64 max = iter % 5 ? 64 : total;

			want[i].vcn = vcn;
			want[i].len = 1 + rnd_below(max < total ? max : total);
			if (rnd_below(4))
				want[i].lcn = rnd_below(total - want[i].len + 1);
			else
				want[i].lcn = HOLE;
			vcn += want[i].len;
		}
		/* Cut into extents, each encoded on its own. */
		parts = 1 + rnd_below(4);
		while (at < n && ok) {
			unsigned int cnt = parts == 1 ? n - at :
					   1 + rnd_below(n - at);
			size_t len = encode(want + at, cnt, mp);

			ok = !dec(&a, mp, len, want[at].vcn,
				  want[at + cnt - 1].vcn + want[at + cnt - 1].len - 1,
				  total);
			at += cnt;
			if (parts > 1)
				parts--;
		}
		ok = ok && same_runs(&a, 0, want, n) &&
		     !ntfs_runs_merge_check(a.runs, a.nr);
		arr_free(&a);
	}
	tap_result(ok, "round trip: 10000 random runlists encoded and decoded");
}

/* Contract of a decode call; see test_fuzz. */
static int fuzz_ok(const struct arr *a, unsigned int nr0, int ret, u64 lo,
		   u64 hi, u64 total)
{
	u64 vcn = lo;
	unsigned int i;

	if (ret)
		return ret == -EIO && a->nr == nr0;
	for (i = nr0; i < a->nr; i++) {
		const struct ntfs_run *r = &a->runs[i];

		if (r->vcn != vcn || !r->len)
			return 0;
		if (r->lcn != HOLE &&
		    (r->lcn < 0 || (u64)r->lcn + r->len > total))
			return 0;
		vcn += r->len;
	}
	return vcn == (hi == U64_MAX ? 0 : hi + 1) && a->cap >= a->nr;
}

static void test_fuzz(void)
{
	static u8 mp[512];
	static struct ntfs_run want[40];
	struct arr a = { 0 };
	unsigned int i, bad = 0, good = 0;
	const unsigned int iters = 100000;

	for (i = 0; i < iters; i++) {
		size_t len;
		u64 lo = 0, hi, total;
		unsigned int nr0;
		int ret;

		if (i % 2) {
			/* Random bytes, with random ranges. */
			len = rnd_below(64);
			for (size_t k = 0; k < len; k++)
				mp[k] = rnd();
			if (len && rnd_below(2))
				mp[len - 1] = 0;
			lo = rnd_below(3) ? 0 : rnd();
			hi = rnd_below(3) ? rnd_below(2000) : rnd();
			total = rnd_below(4) ? rnd_below(1ULL << 20) : rnd();
		} else {
			/* A valid encoding, a few bytes changed or cut. */
			unsigned int n = 1 + rnd_below(40), k, flips;
			u64 vcn = 0;

			total = 1 + rnd_below(1ULL << 16);
			for (k = 0; k < n; k++) {
				want[k].vcn = vcn;
				want[k].len = 1 + rnd_below(total > 100 ? 100 : total);
				want[k].lcn = rnd_below(4) ?
					(s64)rnd_below(total - want[k].len + 1) : HOLE;
				vcn += want[k].len;
			}
			len = encode(want, n, mp);
			hi = vcn - 1;
			flips = rnd_below(4);
			for (k = 0; k < flips; k++) {
				size_t at = rnd_below(len);

				if (rnd_below(2))
					mp[at] ^= 1 << rnd_below(8);
				else
					mp[at] = rnd();
			}
			if (!rnd_below(8))
				len = rnd_below(len + 1);
			if (!rnd_below(8))
				hi += rnd_below(5) - 2;
		}
		if (a.nr > 1000)
			arr_free(&a);
		nr0 = a.nr;
		ret = dec(&a, mp, len, lo, hi, total);
		if (!fuzz_ok(&a, nr0, ret, lo, hi, total))
			bad++;
		else if (!ret)
			good++;
	}
	tap_result(!bad, "fuzz: %u mapping pairs (random, mutated): %u broke the contract",
		   iters, bad);
	diag("fuzz: %u decoded, %u rejected with -EIO", good, iters - bad - good);
	arr_free(&a);
}


/*
 * ntfs_encode_runs() into a buffer of exactly @size bytes (for
 * AddressSanitizer); the bytes are copied to @out, which has room for
 * them.  Return its result; *@used as it set it.
 */
static int enc(const struct ntfs_run *runs, unsigned int n, u64 first,
	       u64 end, u8 *out, size_t size, size_t *used)
{
	u8 *p = malloc(size ? size : 1);
	int ret;

	ret = ntfs_encode_runs(runs, n, first, end, size ? p : NULL, size, used);
	if (size)
		memcpy(out, p, size);
	free(p);
	return ret;
}

/*
 * What the runs of [@first, @end) look like after a round trip: clipped to
 * the range, and neighbours that continue each other on disk (or are both
 * holes) joined.  Return the number of runs stored at @out.
 */
static unsigned int expected_runs(const struct ntfs_run *runs, unsigned int n,
				  u64 first, u64 end, struct ntfs_run *out)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		u64 s = runs[i].vcn, e = runs[i].vcn + runs[i].len;
		struct ntfs_run c;

		if (e <= first || s >= end)
			continue;
		c.vcn = s < first ? first : s;
		c.len = (e > end ? end : e) - c.vcn;
		c.lcn = runs[i].lcn == HOLE ? HOLE :
			runs[i].lcn + (s64)(c.vcn - s);
		if (k && out[k - 1].vcn + out[k - 1].len == c.vcn &&
		    (c.lcn == HOLE ? out[k - 1].lcn == HOLE :
		     out[k - 1].lcn != HOLE &&
		     out[k - 1].lcn + (s64)out[k - 1].len == c.lcn)) {
			out[k - 1].len += c.len;
			continue;
		}
		out[k++] = c;
	}
	return k;
}

static void expect_encoding(const char *what, const struct ntfs_run *runs,
			    unsigned int n, u64 first, u64 end,
			    const u8 *want, size_t want_len)
{
	u8 out[256];
	size_t used = 0, measured = 0;
	int ret = enc(runs, n, first, end, out, want_len, &used);

	ret |= enc(runs, n, first, end, NULL, 0, &measured);
	tap_result(!ret && used == want_len && measured == want_len &&
		   !memcmp(out, want, want_len), "encode: %s", what);
}

static void test_encode_examples(void)
{
	expect_encoding("one run: 0x18 clusters at LCN 0x5634",
			RUNS({ 0, 0x5634, 0x18 }), 0, 0x18,
			MP(0x21, 0x18, 0x34, 0x56, 0x00));
	expect_encoding("fragmented: LCNs 0x60, 0x160, then back to 0x140",
			RUNS({ 0, 0x60, 0x20 }, { 0x20, 0x160, 0x20 },
			     { 0x40, 0x140, 0x20 }), 0, 0x60,
			MP(0x11, 0x20, 0x60, 0x21, 0x20, 0x00, 0x01,
			   0x11, 0x20, 0xe0, 0x00));
	expect_encoding("sparse: a hole has no LCN bytes, the next offset skips it",
			RUNS({ 0, 0x20, 0x20 }, { 0x20, HOLE, 0x60 },
			     { 0x80, 0x50, 0x20 }), 0, 0xa0,
			MP(0x11, 0x20, 0x20, 0x01, 0x60, 0x11, 0x20, 0x30, 0x00));
	expect_encoding("length 0x80 takes two bytes (top bit clear)",
			RUNS({ 0, 0x10, 0x80 }), 0, 0x80,
			MP(0x12, 0x80, 0x00, 0x10, 0x00));
	expect_encoding("offset +0x7f in one byte, +0x80 in two, -0x80 in one",
			RUNS({ 0, 0x7f, 1 }, { 1, 0xff, 1 }, { 2, 0x7f, 1 }),
			0, 3,
			MP(0x11, 1, 0x7f, 0x21, 1, 0x80, 0x00, 0x11, 1, 0x80,
			   0x00));
	expect_encoding("offset -0x81 in two bytes",
			RUNS({ 0, 0x181, 1 }, { 1, 0x100, 1 }), 0, 2,
			MP(0x21, 1, 0x81, 0x01, 0x21, 1, 0x7f, 0xff, 0x00));
	expect_encoding("runs that continue each other become one",
			RUNS({ 0, 0x60, 0x10 }, { 0x10, 0x70, 0x10 },
			     { 0x20, HOLE, 4 }, { 0x24, HOLE, 4 }), 0, 0x28,
			MP(0x11, 0x20, 0x60, 0x01, 0x08, 0x00));
	expect_encoding("clipped at both ends: the first LCN moves along",
			RUNS({ 0, 0x60, 0x10 }, { 0x10, 0x200, 0x10 }),
			4, 0x14,
			MP(0x11, 0x0c, 0x64, 0x21, 0x04, 0x9c, 0x01, 0x00));
	expect_encoding("an extent after the first starts again from LCN 0",
			RUNS({ 0, 0x60, 0x10 }, { 0x10, 0x70, 0x10 }),
			0x10, 0x20, MP(0x11, 0x10, 0x70, 0x00));
	expect_encoding("empty range: only the terminator", NULL, 0, 7, 7,
			MP(0x00));
	expect_encoding("8-byte offset", RUNS({ 0, 1LL << 56, 5 }), 0, 5,
			MP(0x81, 5, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x00));
	expect_encoding("length 2^62 - 1 in 8 bytes",
			RUNS({ 0, HOLE, (1ULL << 62) - 1 }), 0, (1ULL << 62) - 1,
			MP(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f,
			   0x00));
}

static void test_encode_errors(void)
{
	static const struct ntfs_run gap[] = {
		{ 0, 5, 10 }, { 12, 40, 4 },
	};
	u8 out[64];
	size_t used;

	tap_result(enc(gap, 2, 0, 16, out, sizeof(out), &used) == -EINVAL,
		   "encode: a gap between runs is -EINVAL");
	tap_result(enc(gap, 2, 0, 17, out, sizeof(out), &used) == -EINVAL,
		   "encode: a range past the last run is -EINVAL");
	tap_result(enc(gap, 2, 10, 11, out, sizeof(out), &used) == -EINVAL,
		   "encode: a range starting in a gap is -EINVAL");
	tap_result(enc(gap, 2, 5, 4, out, sizeof(out), &used) == -EINVAL,
		   "encode: a reversed range is -EINVAL");
	tap_result(enc(NULL, 0, 0, 1, out, sizeof(out), &used) == -EINVAL,
		   "encode: no runs for a range is -EINVAL");
	tap_result(enc(gap, 2, 0, 10, out, 4, &used) == 0 && used == 4,
		   "encode: exactly the room needed is enough");
	tap_result(enc(gap, 2, 0, 10, out, 3, &used) == -ENOSPC && used == 4,
		   "encode: one byte short is -ENOSPC, the size still reported");
	tap_result(enc(gap, 2, 12, 16, out, 3, &used) == -ENOSPC && used == 4,
		   "encode: no room for the terminator is -ENOSPC");
}

/* Random runlists: holes, backward jumps, LCNs near the 1/2/4/8-byte edges. */
static void random_runs(struct ntfs_run *r, unsigned int n, u64 total)
{
	static const s64 edges[] = {
		0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0x7fffff, 0x800000,
		0x7fffffff, 0x80000000LL, 0x7fffffffffLL, 0x8000000000LL,
	};
	u64 vcn = 0;
	s64 last = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 max = rnd_below(4) ? 300 : total / 4;

		r[i].vcn = vcn;
		r[i].len = 1 + rnd_below(max ? max : 1);
		if (r[i].len > total)
			r[i].len = total;
		switch (rnd_below(6)) {
		case 0:
			r[i].lcn = HOLE;
			break;
		case 1:	/* a jump of exactly an edge value, either way */
			r[i].lcn = last + (rnd_below(2) ? 1 : -1) *
				   edges[rnd_below(sizeof(edges) / sizeof(edges[0]))];
			if (r[i].lcn < 0 || (u64)r[i].lcn + r[i].len > total)
				r[i].lcn = rnd_below(total - r[i].len + 1);
			break;
		case 2:	/* right after the previous run: joined */
			r[i].lcn = rnd_below(total - r[i].len + 1);
			if (i && r[i - 1].lcn != HOLE &&
			    (u64)r[i - 1].lcn + r[i - 1].len + r[i].len <= total)
				r[i].lcn = r[i - 1].lcn + r[i - 1].len;
			break;
		default:
			r[i].lcn = rnd_below(total - r[i].len + 1);
		}
		if (r[i].lcn != HOLE)
			last = r[i].lcn;
		vcn += r[i].len;
	}
}

static void test_encode_round_trip(void)
{
	static struct ntfs_run runs[300], want[300];
	static u8 mp[300 * 17 + 1];
	unsigned int iter, ok = 1, fails = 0;

	for (iter = 0; iter < 20000; iter++) {
		unsigned int n = 1 + rnd_below(300), nwant;
		u64 total = iter % 4 ? 1ULL << 40 : 1 + rnd_below(1ULL << 20);
		u64 end, first, last;
		size_t used, measured;
		struct arr a = { 0 };
		int ret;

		if (total < 1000)
			total = 1000;
		random_runs(runs, n, total);
		end = runs[n - 1].vcn + runs[n - 1].len;
		/* Half the time the whole range, else a random piece of it. */
		first = iter % 2 ? rnd_below(end) : 0;
		last = iter % 2 ? first + 1 + rnd_below(end - first) : end;
		nwant = expected_runs(runs, n, first, last, want);
		ret = enc(runs, n, first, last, NULL, 0, &measured);
		ret |= enc(runs, n, first, last, mp, sizeof(mp), &used);
		ok = !ret && used == measured && mp[used - 1] == 0 &&
		     !dec(&a, mp, used, first, last - 1, total) &&
		     same_runs(&a, 0, want, nwant);
		/* The test encoder writes the same minimal bytes. */
		if (ok) {
			static u8 ref[300 * 17 + 1];

			ok = encode(want, nwant, ref) == used &&
			     !memcmp(ref, mp, used);
		}
		if (ok) {
			ret = enc(runs, n, first, last, mp, used - 1, &measured);
			ok = ret == -ENOSPC && measured == used;
		}
		if (!ok && fails++ < 3)
			diag("round trip %u failed: %u runs, [%llu, %llu)", iter, n,
			     (unsigned long long)first, (unsigned long long)last);
		arr_free(&a);
	}
	tap_result(!fails,
		   "encode round trip: 20000 random runlists (holes, backward and edge offsets, pieces) decode back, minimal, -ENOSPC one byte short");
}

/*
 * ntfs_runs_fit() splits random runlists into extents of a random byte
 * budget: each extent's mapping pairs fit the budget, are as long as it
 * allows (the extent one piece longer does not fit), and the extents
 * decoded one after the other give back the runs.
 */
static void test_runs_fit(void)
{
	static struct ntfs_run runs[300], want[300];
	static u8 mp[300 * 17 + 1];
	unsigned int iter, fails = 0, extents = 0;

	for (iter = 0; iter < 5000; iter++) {
		unsigned int n = 1 + rnd_below(300), nwant;
		size_t budget = 18 + rnd_below(200), used, longer;
		u64 end, vcn = 0, next;
		struct arr a = { 0 };
		int ok = 1;

		random_runs(runs, n, 1ULL << 40);
		end = runs[n - 1].vcn + runs[n - 1].len;
		nwant = expected_runs(runs, n, 0, end, want);
		while (ok && vcn < end) {
			next = ntfs_runs_fit(runs, n, vcn, end, budget);
			ok = next > vcn &&
			     !enc(runs, n, vcn, next, mp, sizeof(mp), &used) &&
			     used <= budget &&
			     !dec(&a, mp, used, vcn, next - 1, 1ULL << 40);
			/* One piece more (the fit of a bigger budget) would not fit. */
			if (ok && next < end) {
				u64 more = ntfs_runs_fit(runs, n, vcn, end, budget + 17);

				ok = more > next &&
				     !enc(runs, n, vcn, more, NULL, 0, &longer) &&
				     longer > budget;
			}
			vcn = next;
			extents++;
		}
		ok = ok && same_runs(&a, 0, want, nwant) &&
		     ntfs_runs_fit(runs, n, 0, end, 1) == 0 &&
		     ntfs_runs_fit(runs, n, end, end, budget) == end;
		if (!ok && fails++ < 3)
			diag("fit %u failed: %u runs, budget %zu, at VCN %llu", iter, n, budget,
			     (unsigned long long)vcn);
		arr_free(&a);
	}
	tap_result(!fails && extents > 5000,
		   "runs fit: 5000 random runlists split by byte budgets (%u extents): each fits, is longest, and they decode back",
		   extents);
}

/* Encode a vector's runs per extent and compare with ntfs-3g's bytes. */
static int vector_encodes(const char *dir, const char *file,
			  const struct ntfs_run *want, unsigned int nwant,
			  u64 lo, u64 hi)
{
	static u8 mp[65536], got[65536];
	char mpath[4096];
	size_t len, used;
	FILE *m;

	snprintf(mpath, sizeof(mpath), "%s/%s", dir, file);
	m = fopen(mpath, "rb");
	if (!m)
		return 0;
	len = fread(mp, 1, sizeof(mp), m);
	fclose(m);
	if (enc(want, nwant, lo, hi + 1, got, sizeof(got), &used) || used > len) {
		diag("%s: encoding failed or longer (%zu bytes) than ntfs-3g's %zu",
		     file, used, len);
		return 0;
	}
	if (memcmp(got, mp, used)) {
		diag("%s: the %zu bytes differ from ntfs-3g's", file, used);
		return 0;
	}
	return 1;
}

/* ---- ntfs_runs_fill() and ntfs_runs_cut() against a per-VCN model ---- */

#define FT_CLUSTERS	2048
#define FT_VCNS		400

/* A volume of FT_CLUSTERS clusters for the fake allocator. */
struct ftvol {
	unsigned char used[FT_CLUSTERS];
	unsigned char freed[FT_CLUSTERS];
	unsigned int calls;
	int fail_at;		/* make this call fail with -ENOSPC, or -1 */
};

/* First free run at or after @hint (wrapping once), randomly shortened. */
static int ft_alloc(void *ctx, u64 hint, u64 want, struct ntfs_run *got)
{
	struct ftvol *v = ctx;
	u64 i, n, start;

	if (v->fail_at >= 0 && v->calls++ == (unsigned int)v->fail_at)
		return -ENOSPC;
	if (hint >= FT_CLUSTERS)
		hint = 0;
	for (n = 0; n < FT_CLUSTERS; n++) {
		start = (hint + n) % FT_CLUSTERS;
		if (!v->used[start])
			break;
	}
	if (n == FT_CLUSTERS)
		return -ENOSPC;
	for (i = start; i < FT_CLUSTERS && !v->used[i] && i - start < want; i++)
		;
	n = i - start;
	if (n > 1 && !rnd_below(4))
		n = 1 + rnd_below(n);
	memset(v->used + start, 1, n);
	got->lcn = start;
	got->len = n;
	return 0;
}

static int ft_free(void *ctx, u64 lcn, u64 len)
{
	struct ftvol *v = ctx;
	u64 i;

	for (i = lcn; i < lcn + len; i++) {
		if (i >= FT_CLUSTERS || !v->used[i] || v->freed[i])
			return -EINVAL;
		v->freed[i] = 1;
	}
	return 0;
}

/* The LCN of every VCN of @ra (HOLE for holes); 0 unless it covers [0, end). */
static int ft_map(const struct ntfs_runs *ra, u64 end, s64 *map)
{
	u64 vcn = 0;
	unsigned int i;

	for (i = 0; i < ra->nr; i++) {
		const struct ntfs_run *r = &ra->runs[i];

		if (r->vcn != vcn || !r->len || r->vcn + r->len > end)
			return 0;
		for (u64 k = 0; k < r->len; k++)
			map[vcn + k] = r->lcn == HOLE ? HOLE : r->lcn + (s64)k;
		vcn += r->len;
		/* Joined: no neighbour that continues this run. */
		if (i + 1 < ra->nr && (r->lcn == HOLE ? ra->runs[i + 1].lcn == HOLE :
				       ra->runs[i + 1].lcn == r->lcn + (s64)r->len))
			return 0;
	}
	return vcn == end;
}

/* A random allocation of @end VCNs with holes, taken from @v. */
static int ft_old(struct ftvol *v, struct ntfs_runs *ra, u64 end)
{
	const struct ntfs_run_source src = { ft_alloc, ft_free, v };
	u64 vcn = 0;

	while (vcn < end) {
		u64 len = 1 + rnd_below(end - vcn < 40 ? end - vcn : 40);
		struct ntfs_runs piece = { 0 };
		int err;

		if (rnd_below(3)) {
			err = ntfs_runs_add(ra, vcn, HOLE, len);
		} else {
			/* Allocate through fill, one piece after the runs so far. */
			err = ntfs_runs_fill(ra->runs, ra->nr, vcn, vcn, vcn + len, 0,
					     &src, &piece);
			free(ra->runs);
			*ra = piece;
		}
		if (err)
			return err;
		vcn += len;
	}
	return 0;
}

/* A volume a third full and a random allocation of @old_end VCNs on it. */
static int ft_start(struct ftvol *v, struct ntfs_runs *old, u64 old_end, s64 *before)
{
	u64 k;

	memset(v, 0, sizeof(*v));
	v->fail_at = -1;
	for (k = 0; k < FT_CLUSTERS; k++)
		v->used[k] = !rnd_below(3);
	return ft_old(v, old, old_end) || !ft_map(old, old_end, before);
}

static void test_runs_edit(void)
{
	static s64 before[FT_VCNS * 2], after[FT_VCNS * 2];
	unsigned int iter, bad = 0, fills = 0, cuts = 0, enospc = 0;

	for (iter = 0; iter < 20000 && bad < 3; iter++) {
		static struct ftvol v;
		const struct ntfs_run_source src = { ft_alloc, ft_free, &v };
		static unsigned char used0[FT_CLUSTERS];
		struct ntfs_runs old = { 0 }, out = { 0 };
		u64 old_end = rnd_below(FT_VCNS), k;
		const char *why = NULL;
		int err;

		if (ft_start(&v, &old, old_end, before)) {
			bad++;
			diag("runs edit %u: the starting runlist is wrong", iter);
			continue;
		}
		memcpy(used0, v.used, sizeof(used0));

		if (iter % 3 == 0) {
			u64 end = rnd_below(old_end + 1);

			cuts++;
			err = ntfs_runs_cut(old.runs, old.nr, end, &src, &out);
			if (err || !ft_map(&out, end, after))
				why = "cut: runs do not cover [0, end), or not joined";
			for (k = 0; !why && k < old_end; k++) {
				if (k < end && after[k] != before[k])
					why = "cut: a kept VCN moved";
				if (k >= end && before[k] != HOLE && !v.freed[before[k]])
					why = "cut: a cluster past the end was not freed";
			}
			for (k = 0; !why && k < FT_CLUSTERS; k++)
				if (v.freed[k]) {
					u64 j;

					for (j = end; j < old_end && before[j] != (s64)k; j++)
						;
					if (j == old_end)
						why = "cut: a cluster freed that was not cut off";
				}
		} else {
			u64 vcn = rnd_below(old_end + 20);
			u64 end = vcn + 1 + rnd_below(60);
			unsigned int flags = rnd_below(4);
			u64 new_end = end > old_end ? end : old_end;

			fills++;
			if (!rnd_below(10))
				v.fail_at = rnd_below(3);
			err = ntfs_runs_fill(old.runs, old.nr, old_end, vcn, end, flags,
					     &src, &out);
			if (err == -ENOSPC) {
				enospc++;
				free(old.runs);
				free(out.runs);
				continue;
			}
			if (err || !ft_map(&out, new_end, after))
				why = "fill: runs do not cover [0, new end), or not joined";
			for (k = 0; !why && k < new_end; k++) {
				bool in = k >= vcn && k < end, gap = k >= old_end && k < vcn;
				bool was_hole = k >= old_end || before[k] == HOLE;
				bool hole = (gap && (flags & NTFS_FILL_GAP_HOLE)) ||
					    (!gap && !in && was_hole) ||
					    (in && (flags & NTFS_FILL_HOLES) && was_hole);

				if (!was_hole && after[k] != before[k])
					why = "fill: an allocated VCN moved";
				else if (was_hole && hole != (after[k] == HOLE))
					why = "fill: a hole where clusters belong, or the other way";
				else if (was_hole && !hole && used0[after[k]])
					why = "fill: a new cluster that was in use";
			}
			/* Every new cluster is used once. */
			for (k = 0; !why && k < new_end; k++)
				for (u64 j = k + 1; !why && j < new_end; j++)
					if (after[k] != HOLE && after[k] == after[j])
						why = "fill: a cluster given twice";
		}
		if (why) {
			bad++;
			diag("runs edit %u: %s", iter, why);
		}
		free(old.runs);
		free(out.runs);
	}
	tap_result(!bad,
		   "runs fill and cut: 20000 random edits (%u fills, %u cuts, %u -ENOSPC) match the per-VCN model",
		   fills, cuts, enospc);
}

/*
 * ntfs_runs_punch() on random runlists: inside the range every VCN is a
 * hole and exactly the clusters it had are freed; outside nothing moves;
 * the allocation keeps its length and the runs stay joined.
 */
static void test_runs_punch(void)
{
	static s64 before[FT_VCNS * 2], after[FT_VCNS * 2];
	unsigned int iter, bad = 0;

	for (iter = 0; iter < 20000 && bad < 3; iter++) {
		static struct ftvol v;
		const struct ntfs_run_source src = { ft_alloc, ft_free, &v };
		struct ntfs_runs old = { 0 }, out = { 0 };
		u64 old_end = 1 + rnd_below(FT_VCNS - 1), k;
		u64 vcn = rnd_below(old_end), end = vcn + 1 + rnd_below(old_end + 10 - vcn);
		const char *why = NULL;

		if (ft_start(&v, &old, old_end, before)) {
			bad++;
			diag("punch %u: the starting runlist is wrong", iter);
			continue;
		}
		if (ntfs_runs_punch(old.runs, old.nr, vcn, end, &src, &out) ||
		    !ft_map(&out, old_end, after))
			why = "runs do not cover the allocation, or not joined";
		for (k = 0; !why && k < old_end; k++) {
			bool in = k >= vcn && k < end;

			if (in && after[k] != HOLE)
				why = "a VCN of the range kept clusters";
			else if (!in && after[k] != before[k])
				why = "a VCN outside the range moved";
			else if (in && before[k] != HOLE && !v.freed[before[k]])
				why = "a cluster of the range was not freed";
		}
		for (k = 0; !why && k < FT_CLUSTERS; k++)
			if (v.freed[k]) {
				u64 j = vcn;

				while (j < end && j < old_end && before[j] != (s64)k)
					j++;
				if (j == end || j == old_end)
					why = "a cluster freed that the range did not have";
			}
		if (why) {
			bad++;
			diag("punch %u: [%llu, %llu) of %llu: %s", iter, (unsigned long long)vcn,
			     (unsigned long long)end, (unsigned long long)old_end, why);
		}
		free(old.runs);
		free(out.runs);
	}
	tap_result(!bad, "runs punch: 20000 random holes punched match the per-VCN model");
}

/*
 * ntfs_runs_collapse() and ntfs_runs_insert_hole() on random runlists
 * against the per-VCN model: what follows the range moves by its length,
 * what comes before stays, a collapsed range's clusters (and only those)
 * are freed, an inserted range is a hole; the runs stay joined.
 */
static void test_runs_shift(void)
{
	static s64 before[FT_VCNS * 2], after[FT_VCNS * 2];
	unsigned int iter, bad = 0, collapses = 0, inserts = 0;

	for (iter = 0; iter < 20000 && bad < 3; iter++) {
		static struct ftvol v;
		const struct ntfs_run_source src = { ft_alloc, ft_free, &v };
		struct ntfs_runs old = { 0 }, out = { 0 };
		u64 old_end = 2 + rnd_below(FT_VCNS - 2), k, vcn, n, new_end;
		const char *why = NULL;
		bool collapse = iter % 2;

		if (ft_start(&v, &old, old_end, before)) {
			bad++;
			diag("shift %u: the starting runlist is wrong", iter);
			continue;
		}
		if (collapse) {
			collapses++;
			vcn = rnd_below(old_end - 1);
			n = 1 + rnd_below(old_end - 1 - vcn);
			new_end = old_end - n;
			if (ntfs_runs_collapse(old.runs, old.nr, vcn, vcn + n, &src, &out))
				why = "collapse failed";
		} else {
			inserts++;
			vcn = rnd_below(old_end + 1);
			n = 1 + rnd_below(FT_VCNS - 1);
			new_end = old_end + n;
			if (ntfs_runs_insert_hole(old.runs, old.nr, old_end, vcn, n, &out))
				why = "insert failed";
		}
		if (!why && !ft_map(&out, new_end, after))
			why = "runs do not cover the new allocation, or not joined";
		for (k = 0; !why && k < new_end; k++) {
			s64 want = k < vcn ? before[k] :
				   collapse ? before[k + n] :
				   k < vcn + n ? HOLE : before[k - n];

			if (after[k] != want)
				why = "a VCN maps to the wrong cluster";
		}
		for (k = 0; !why && k < FT_CLUSTERS; k++) {
			bool in_range = false;

			for (u64 j = vcn; collapse && j < vcn + n; j++)
				in_range |= before[j] == (s64)k;
			if (!!v.freed[k] != in_range)
				why = "a cluster freed that the range did not have, or kept that it had";
		}
		if (why) {
			bad++;
			diag("shift %u: %s [%llu, +%llu) of %llu: %s", iter,
			     collapse ? "collapse" : "insert", (unsigned long long)vcn,
			     (unsigned long long)n, (unsigned long long)old_end, why);
		}
		free(old.runs);
		free(out.runs);
	}
	tap_result(!bad, "runs collapse and insert: 20000 random shifts (%u collapses, %u inserts) match the per-VCN model",
		   collapses, inserts);
}

/* One *.runs vector: decode its extents, compare with ntfsinfo's runs. */
static void test_vector(const char *dir, const char *name)
{
	char path[4096], line[512], file[256];
	struct ntfs_run *want = NULL;
	unsigned int nwant = 0, extents = 0, i, ok = 1, enc_ok = 1;
	struct { unsigned long long lo, hi; char file[256]; } ext[16];
	unsigned long long clusters = 0, lo, hi, v, l;
	long long lcn;
	struct arr a = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		tap_result(0, "vector %s: cannot open", name);
		return;
	}
	while (ok && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "clusters %llu", &clusters) == 1)
			continue;
		if (sscanf(line, "extent %llu %llu %255s", &lo, &hi, file) == 3) {
			static u8 mp[65536];
			char mpath[4096];
			FILE *m;
			size_t len;

			snprintf(mpath, sizeof(mpath), "%s/%s", dir, file);
			m = fopen(mpath, "rb");
			if (!m) {
				ok = 0;
				break;
			}
			len = fread(mp, 1, sizeof(mp), m);
			fclose(m);
			ok = !dec(&a, mp, len, lo, hi, clusters) && extents < 16;
			if (ok) {
				ext[extents].lo = lo;
				ext[extents].hi = hi;
				strcpy(ext[extents].file, file);
			}
			extents++;
			continue;
		}
		if (sscanf(line, "run %llu %lld %llu", &v, &lcn, &l) == 3) {
			want = realloc(want, (nwant + 1) * sizeof(*want));
			want[nwant].vcn = v;
			want[nwant].lcn = lcn;
			want[nwant].len = l;
			nwant++;
		}
	}
	fclose(f);
	ok = ok && nwant && same_runs(&a, 0, want, nwant) &&
	     !ntfs_runs_merge_check(a.runs, a.nr);
	for (i = 0; ok && i < nwant; i++)
		ok = ntfs_run_lookup(a.runs, a.nr, want[i].vcn) == &a.runs[i] &&
		     ntfs_run_lookup(a.runs, a.nr, want[i].vcn + want[i].len - 1) ==
		     &a.runs[i];
	tap_result(ok, "ntfs-3g vector %s: %u extents decode to the %u runs ntfsinfo lists",
		   name, extents, nwant);
	for (i = 0; ok && i < extents; i++)
		enc_ok &= vector_encodes(dir, ext[i].file, want, nwant,
					 ext[i].lo, ext[i].hi);
	tap_result(ok && enc_ok,
		   "ntfs-3g vector %s: its runs encode to ntfs-3g's bytes, extent by extent",
		   name);
	free(want);
	arr_free(&a);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_vectors(const char *dir)
{
	char *names[64];
	unsigned int n = 0, i;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d) {
		tap_result(0, "vector directory %s", dir);
		return;
	}
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);

		if (len > 5 && !strcmp(e->d_name + len - 5, ".runs"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	tap_result(n > 0, "vector directory has %u runlist vectors", n);
	for (i = 0; i < n; i++) {
		test_vector(dir, names[i]);
		free(names[i]);
	}
}

int main(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "usage: %s [VECTOR_DIR]\n", argv[0]);
		return 2;
	}
	test_examples();
	test_corrupt();
	test_append();
	test_merge_check();
	test_lookup();
	test_round_trip();
	test_fuzz();
	test_encode_examples();
	test_encode_errors();
	test_encode_round_trip();
	test_runs_fit();
	test_runs_edit();
	test_runs_punch();
	test_runs_shift();
	if (argc == 2)
		test_vectors(argv[1]);
	return tap_done();
}
