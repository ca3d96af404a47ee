// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of ntfs3/lznt1.c.
 *
 *   lznt1_test                       run the tests, TAP on stdout
 *   lznt1_test decompress IN OUT     decompress file IN (one compression
 *                                    unit) into OUT, 64 KiB output buffer
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lznt1.h"
#include "lznt1_compress.h"
#include "units.h"

#define CHUNK	NTFS_LZNT1_CHUNK_SIZE
#define UNIT	65536

struct res {
	int ret;
	size_t out_len;
	u8 *dst;	/* dst_len bytes, 0xaa where nothing was written */
};

/*
 * Decompress from a private copy of exactly @n bytes into a buffer of
 * exactly @dst_len bytes, so that AddressSanitizer sees any access past
 * either end.
 */
static struct res dec(const void *src, size_t n, size_t dst_len)
{
	u8 *s = malloc(n ? n : 1);
	struct res r;

	if (n)
		memcpy(s, src, n);
	r.dst = malloc(dst_len ? dst_len : 1);
	memset(r.dst, 0xaa, dst_len);
	r.out_len = (size_t)-1;
	r.ret = ntfs_lznt1_decompress(n ? s : NULL, n, r.dst, dst_len,
				      &r.out_len);
	free(s);
	return r;
}

static int all_bytes(const u8 *p, size_t n, u8 v)
{
	while (n--)
		if (*p++ != v)
			return 0;
	return 1;
}

/* Append one chunk with data @body of @len bytes; return the new end. */
static size_t put_chunk(u8 *out, size_t at, int compressed, const u8 *body,
			size_t len)
{
	unsigned int hdr = (compressed ? 0xb000 : 0x3000) | (len - 1);

	out[at] = hdr & 0xff;
	out[at + 1] = hdr >> 8;
	memcpy(out + at + 2, body, len);
	return at + 2 + len;
}

/* Expect ret == -EIO for a one-chunk compressed stream with @body. */
static void expect_bad_chunk(const char *what, const u8 *body, size_t len,
			     size_t dst_len)
{
	u8 buf[2 + CHUNK + 2] = { 0 };
	size_t n = put_chunk(buf, 0, 1, body, len);
	struct res r = dec(buf, n + 2, dst_len);

	tap_result(r.ret == -EIO, "corrupt: %s gives -EIO (got %d)", what, r.ret);
	free(r.dst);
}

static void test_spec_example(void)
{
	/* [MS-XCA] 3.3: a 142-byte string (with its NUL) in one chunk. */
	static const u8 in[] = {
		0x38, 0xb0, 0x88, 0x46, 0x23, 0x20, 0x00, 0x20,
		0x47, 0x20, 0x41, 0x00, 0x10, 0xa2, 0x47, 0x01,
		0xa0, 0x45, 0x20, 0x44, 0x00, 0x08, 0x45, 0x01,
		0x50, 0x79, 0x00, 0xc0, 0x45, 0x20, 0x05, 0x24,
		0x13, 0x88, 0x05, 0xb4, 0x02, 0x4a, 0x44, 0xef,
		0x03, 0x58, 0x02, 0x8c, 0x09, 0x16, 0x01, 0x48,
		0x45, 0x00, 0xbe, 0x00, 0x9e, 0x00, 0x04, 0x01,
		0x18, 0x90, 0x00,
	};
	static const char want[] =
		"F# F# G A A G F# E D D E F# F# E E F# F# G A A G F# E D D E "
		"F# E D D E E F# D E F# G F# D E F# G F# E D E A F# F# G A A "
		"G F# E D D E F# E D D";
	struct res r = dec(in, sizeof(in), UNIT);

	tap_result(r.ret == 0 && r.out_len == sizeof(want) &&
		   !memcmp(r.dst, want, sizeof(want)) &&
		   all_bytes(r.dst + sizeof(want), UNIT - sizeof(want), 0xaa),
		   "[MS-XCA] 3.3 example: 59 bytes decode to the 142-byte string");
	free(r.dst);

	/* Same, with the stream cut short: the chunk runs past the end. */
	r = dec(in, sizeof(in) - 1, UNIT);
	tap_result(r.ret == -EIO, "[MS-XCA] 3.3 example cut by one byte: -EIO");
	free(r.dst);
}

static void test_edges(void)
{
	static const u8 end[] = { 0, 0, 0x41, 0x42 };
	static const u8 one[] = { 0xb0 };
	u8 raw[2 + CHUNK + 2];
	u8 body[CHUNK];
	struct res r;
	size_t n;
	int i;

	r = dec(NULL, 0, UNIT);
	tap_result(r.ret == 0 && r.out_len == 0, "empty source: nothing produced");
	free(r.dst);
	r = dec(end, sizeof(end), UNIT);
	tap_result(r.ret == 0 && r.out_len == 0 && all_bytes(r.dst, UNIT, 0xaa),
		   "zero header first: nothing produced, dst untouched");
	free(r.dst);
	r = dec(one, sizeof(one), UNIT);
	tap_result(r.ret == 0 && r.out_len == 0,
		   "a lone byte (no room for a header) ends the stream");
	free(r.dst);

	for (i = 0; i < CHUNK; i++)
		body[i] = (u8)(i * 7 + (i >> 8));
	n = put_chunk(raw, 0, 0, body, CHUNK);
	r = dec(raw, n, 2 * CHUNK);
	tap_result(r.ret == 0 && r.out_len == CHUNK && !memcmp(r.dst, body, CHUNK) &&
		   all_bytes(r.dst + CHUNK, CHUNK, 0xaa),
		   "uncompressed 4096-byte chunk, no terminator, end of source");
	free(r.dst);

	r = dec(raw, n, 0);
	tap_result(r.ret == 0 && r.out_len == 0, "dst_len 0: nothing decoded");
	free(r.dst);
}

static void test_windows(void)
{
	/* "abc" as literals, then "xyz": two short compressed chunks. */
	static const u8 c1[] = { 0x00, 'a', 'b', 'c' };
	static const u8 c2[] = { 0x00, 'x', 'y', 'z' };
	u8 buf[64];
	size_t n = 0;
	struct res r;

	n = put_chunk(buf, n, 1, c1, sizeof(c1));
	n = put_chunk(buf, n, 1, c2, sizeof(c2));
	buf[n++] = 0;
	buf[n++] = 0;
	r = dec(buf, n, UNIT);
	tap_result(r.ret == 0 && r.out_len == CHUNK + 3 &&
		   !memcmp(r.dst, "abc", 3) && all_bytes(r.dst + 3, CHUNK - 3, 0) &&
		   !memcmp(r.dst + CHUNK, "xyz", 3) &&
		   all_bytes(r.dst + CHUNK + 3, UNIT - CHUNK - 3, 0xaa),
		   "short chunk followed by another: zeros to the 4 KiB boundary, nothing after the last");
	free(r.dst);

	/* The output is full at a chunk boundary: the rest is not read. */
	n = put_chunk(buf, 0, 1, c1, sizeof(c1));
	buf[n++] = 0x12;
	buf[n++] = 0x34;	/* bad signature, never looked at */
	r = dec(buf, n, CHUNK);
	tap_result(r.ret == 0 && r.out_len == 3,
		   "output full at a chunk boundary: following bytes ignored");
	free(r.dst);
	r = dec(buf, n, CHUNK + 1);
	tap_result(r.ret == -EIO,
		   "same stream with room for another chunk: its bad header is -EIO");
	free(r.dst);

	/* Garbage after the terminator is not read. */
	n = put_chunk(buf, 0, 1, c1, sizeof(c1));
	buf[n++] = 0;
	buf[n++] = 0;
	buf[n++] = 0xff;
	buf[n++] = 0xff;
	buf[n++] = 0xff;
	r = dec(buf, n, UNIT);
	tap_result(r.ret == 0 && r.out_len == 3, "bytes after the zero header are ignored");
	free(r.dst);
}

/* Builds the data of one compressed chunk element by element. */
struct chunk_body {
	u8 b[CHUNK];
	size_t op, flag_at;
	unsigned int items;
};

static void body_item(struct chunk_body *c, int copy, u16 v)
{
	if (!(c->items % 8)) {
		c->flag_at = c->op++;
		c->b[c->flag_at] = 0;
	}
	if (copy) {
		c->b[c->flag_at] |= 1 << (c->items % 8);
		c->b[c->op++] = v & 0xff;
		c->b[c->op++] = v >> 8;
	} else {
		c->b[c->op++] = v;
	}
	c->items++;
}

/*
 * A compressed chunk that produces @lits bytes, then one copy word @word;
 * check that the word copies @len bytes from @disp back.  With @period 0
 * the first bytes are @lits distinct literals; otherwise @period literals
 * repeated by one overlapping copy up to @lits bytes (for prefixes whose
 * literals would not fit in the 4096 bytes of chunk data).
 */
static void check_copy(const char *what, unsigned int period,
		       unsigned int lits, u16 word, unsigned int disp,
		       unsigned int len)
{
	static struct chunk_body c;
	static u8 want[CHUNK + 8];
	u8 buf[2 + CHUNK + 2];
	unsigned int i, n_lit = period ? period : lits;
	size_t n;
	struct res r;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < n_lit; i++) {
		want[i] = (u8)(i * 13 + 1 + (i >> 8) * 3);
		body_item(&c, 0, want[i]);
	}
	if (period) {
		/* Position @period < 16: 4 displacement bits. */
		body_item(&c, 1, (period - 1) << 12 | (lits - period - 3));
		for (; i < lits; i++)
			want[i] = want[i - period];
	}
	body_item(&c, 1, word);
	for (i = 0; i < len; i++)
		want[lits + i] = want[lits + i - disp];
	n = put_chunk(buf, 0, 1, c.b, c.op);
	r = dec(buf, n, UNIT);
	tap_result(r.ret == 0 && r.out_len == lits + len &&
		   !memcmp(r.dst, want, lits + len), "copy word: %s", what);
	free(r.dst);
}

static void test_copies(void)
{
	check_copy("at 1, disp 1 len 10 (overlapping run)", 0, 1, 0x0007, 1, 10);
	check_copy("at 2, disp 2 len 7 (overlapping pattern)", 0, 2, 0x1004, 2, 7);
	check_copy("at 3, disp 3 len 3 ([MS-XCA] 0x2000)", 0, 3, 0x2000, 3, 3);
	check_copy("at 16, 4 displacement bits: disp 16", 0, 16, 0xf000, 16, 3);
	check_copy("at 17, 5 displacement bits: disp 17", 0, 17, 0x8000, 17, 3);
	check_copy("at 17, 5 displacement bits: disp 1 len 34", 0, 17, 0x001f,
		   1, 34);
	check_copy("at 32, 5 displacement bits: disp 32 len 4", 0, 32, 0xf801,
		   32, 4);
	check_copy("at 33, 6 displacement bits: disp 33", 0, 33, 0x8000, 33, 3);
	check_copy("at 100, 7 displacement bits: disp 50 len 130 (overlapping)",
		   0, 100, (49 << 9) | 127, 50, 130);
	check_copy("at 2048, 11 displacement bits: disp 2048", 0, 2048, 0xffe0,
		   2048, 3);
	check_copy("at 2049, 12 displacement bits: disp 2049", 0, 2049, 0x8000,
		   2049, 3);
	check_copy("at 2049, 12 displacement bits: disp 16 len 18 (longest)",
		   0, 2049, 0x00ff, 16, 18);
	check_copy("at 4093, 12 displacement bits: disp 4093 ends the chunk",
		   5, 4093, 0xffc0, 4093, 3);
	check_copy("at 1, length 4095 fills the chunk", 0, 1, 0x0ffc, 1, 4095);
}

static void test_corrupt(void)
{
	static u8 big[CHUNK];
	u8 buf[2 * (2 + CHUNK) + 2];
	struct res r;
	size_t n;

	{
		static const u8 b[] = { 0x01, 0x00, 0x00 };

		expect_bad_chunk("copy word at position 0", b, sizeof(b), UNIT);
	}
	{
		static const u8 b[] = { 0x04, 'a', 'b', 0x00, 0x20 };

		expect_bad_chunk("displacement 3 at position 2", b, sizeof(b),
				 UNIT);
	}
	{
		static const u8 b[] = { 0x02, 'a', 0xfc };

		expect_bad_chunk("copy word cut by the end of the chunk", b,
				 sizeof(b), UNIT);
	}
	{
		static const u8 b[] = { 0x02, 'a', 0xfd, 0x0f };

		expect_bad_chunk("copy running past 4096 bytes", b, sizeof(b),
				 UNIT);
	}
	{
		static const u8 b[] = { 0x02, 'a', 0xfc, 0x0f, 'b' };

		expect_bad_chunk("literal after a full chunk", b, sizeof(b),
				 UNIT);
	}
	{
		static const u8 b[] = { 0x02, 'a', 0x07, 0x00 };

		expect_bad_chunk("copy past a 5-byte dst", b, sizeof(b), 5);
	}
	{
		static const u8 b[] = { 0x00, 'a', 'b', 'c', 'd', 'e', 'f' };

		expect_bad_chunk("literals past a 5-byte dst", b, sizeof(b), 5);
	}

	/* Signatures other than 3, compressed or not. */
	buf[0] = 0x03;
	buf[1] = 0xa0;	/* compressed, signature 2 */
	buf[2] = 0x00;	/* four literals */
	memcpy(buf + 3, "abcd", 4);
	r = dec(buf, 7, UNIT);
	tap_result(r.ret == -EIO, "corrupt: signature 2 gives -EIO");
	free(r.dst);
	buf[1] = 0x80;	/* compressed, signature 0 */
	r = dec(buf, 7, UNIT);
	tap_result(r.ret == -EIO, "corrupt: signature 0 gives -EIO");
	free(r.dst);
	buf[1] = 0x70;	/* uncompressed, signature 7 */
	r = dec(buf, 7, UNIT);
	tap_result(r.ret == -EIO, "corrupt: uncompressed, signature 7 gives -EIO");
	free(r.dst);

	/* Chunk data running past the source. */
	n = put_chunk(buf, 0, 0, big, CHUNK);
	r = dec(buf, n - 1, UNIT);
	tap_result(r.ret == -EIO, "corrupt: chunk data past src_len gives -EIO");
	free(r.dst);

	/* An uncompressed chunk larger than dst. */
	r = dec(buf, n, 100);
	tap_result(r.ret == -EIO, "corrupt: uncompressed chunk larger than dst gives -EIO");
	free(r.dst);

	/* The second chunk has only 904 bytes of room. */
	n = put_chunk(buf, n, 0, big, CHUNK);
	r = dec(buf, n, 5000);
	tap_result(r.ret == -EIO, "corrupt: second chunk past a 5000-byte dst gives -EIO");
	free(r.dst);

	/* No back-reference into the previous chunk. */
	{
		static const u8 c1[] = { 0x00, 'a', 'b', 'c', 'd' };
		static const u8 c2[] = { 0x01, 0x00, 0x00 };

		n = put_chunk(buf, 0, 1, c1, sizeof(c1));
		n = put_chunk(buf, n, 1, c2, sizeof(c2));
		r = dec(buf, n, UNIT);
		tap_result(r.ret == -EIO,
			   "corrupt: copy word reaching into the previous chunk gives -EIO");
		free(r.dst);
	}
}

/* Data generators for the round trips. */
static void gen_text(u8 *p, size_t n)
{
	static const char *const words[] = {
		"the ", "cluster ", "run ", "of ", "a ", "file ", "record ",
		"index ", "volume ", "and ", "to ", "compression ", "unit ",
		"\n", ", ", ". ",
	};
	size_t i = 0;

	while (i < n) {
		const char *w = words[rnd_below(16)];

		while (*w && i < n)
			p[i++] = *w++;
	}
}

static void gen_kind(u8 *p, size_t n, unsigned int kind)
{
	size_t i, j;

	switch (kind) {
	case 0:		/* random */
		for (i = 0; i < n; i++)
			p[i] = rnd();
		break;
	case 1:		/* zeros */
		memset(p, 0, n);
		break;
	case 2:		/* text */
		gen_text(p, n);
		break;
	case 3:		/* short repeating patterns */
		j = 1 + rnd_below(40);
		for (i = 0; i < n; i++)
			p[i] = i < j ? rnd() : p[i - j];
		break;
	case 4:		/* low entropy */
		for (i = 0; i < n; i++)
			p[i] = rnd() & 3;
		break;
	default:	/* mixture: blocks of the other kinds */
		for (i = 0; i < n; i += j) {
			j = 1 + rnd_below(3000);
			if (j > n - i)
				j = n - i;
			gen_kind(p + i, j, rnd_below(5));
			if (rnd_below(4) == 0)	/* zeros at a chunk end */
				memset(p + i, 0, j);
		}
		break;
	}
}

static const char *const kind_name[] = {
	"random", "zeros", "text", "patterns", "low-entropy", "mixed",
};

static int round_trip(const u8 *data, size_t len, unsigned int flags)
{
	size_t cap = lznt1_compress_bound(len);
	u8 *c = malloc(cap);
	size_t clen = lznt1_compress(data, len, c, cap, flags);
	size_t dst_len = (len + CHUNK - 1) / CHUNK * CHUNK;
	struct res r;
	int ok;

	if (!clen) {
		free(c);
		return 0;
	}
	r = dec(c, clen, dst_len);
	ok = r.ret == 0 && r.out_len <= len &&
	     !memcmp(r.dst, data, r.out_len) &&
	     all_bytes(data + r.out_len, len - r.out_len, 0);
	if (!(flags & LZNT1C_TRIM_ZEROS))
		ok = ok && r.out_len == len;
	free(r.dst);
	free(c);
	return ok;
}

static void test_round_trips(void)
{
	static u8 data[UNIT + 1];
	static const unsigned int modes[] = {
		0, LZNT1C_TRIM_ZEROS, LZNT1C_STORE, LZNT1C_NO_END,
		LZNT1C_TRIM_ZEROS | LZNT1C_NO_END,
	};
	unsigned int kind, m, i;

	for (kind = 0; kind < 6; kind++) {
		unsigned int good = 0, total = 0;

		for (i = 0; i < 60; i++) {
			size_t len;

			switch (i % 4) {
			case 0:
				len = UNIT;
				break;
			case 1:
				len = 1 + rnd_below(UNIT);
				break;
			case 2:
				len = CHUNK * (1 + rnd_below(16));
				break;
			default:
				len = 1 + rnd_below(300);
				break;
			}
			gen_kind(data, len, kind);
			for (m = 0; m < 5; m++) {
				good += round_trip(data, len, modes[m]);
				total++;
			}
		}
		tap_result(good == total,
			   "round trip of %s data, 5 compressor modes: %u/%u",
			   kind_name[kind], good, total);
	}
}

/* Decompress-only timing, for the log. */
static void test_speed(void)
{
	static u8 data[UNIT];
	size_t cap = lznt1_compress_bound(UNIT);
	u8 *c = malloc(cap);
	u8 *out = malloc(UNIT);
	size_t clen, out_len = 0;
	struct timespec t0, t1;
	int i, ok = 1;
	double s;

	gen_kind(data, UNIT, 2);
	clen = lznt1_compress(data, UNIT, c, cap, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 200; i++)
		ok &= ntfs_lznt1_decompress(c, clen, out, UNIT, &out_len) == 0 &&
		      out_len == UNIT;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_result(ok && !memcmp(out, data, UNIT),
		   "200 decompressions of a 64 KiB text unit (%zu compressed bytes)",
		   clen);
	diag("%.1f MiB/s decompressed (sanitizer build)", 200 * UNIT / s / 1048576);
	free(c);
	free(out);
}

/*
 * One fuzz case: decompress @n bytes into @dst_len and check the contract:
 * 0 or -EIO, and on success nothing written past *out_len.  Return -1 if
 * the contract is broken, else 1 for success and 0 for -EIO.
 */
static int fuzz_one(const u8 *in, size_t n, size_t dst_len)
{
	struct res r = dec(in, n, dst_len);
	int ok;

	if (r.ret == 0)
		ok = r.out_len <= dst_len &&
		     all_bytes(r.dst + r.out_len, dst_len - r.out_len, 0xaa);
	else
		ok = r.ret == -EIO;
	free(r.dst);
	return ok ? r.ret == 0 : -1;
}

#define POOL	48

static void test_fuzz(void)
{
	static u8 data[UNIT], buf[2 * UNIT + 64];
	static u8 *pool[POOL];
	static size_t pool_len[POOL];
	unsigned int i, bad = 0, good = 0;
	const unsigned int iters = 100000;

	/* Valid streams to mutate. */
	for (i = 0; i < POOL; i++) {
		size_t len = 1 + rnd_below(i % 4 ? 9000 : UNIT);
		size_t cap = lznt1_compress_bound(len);

		gen_kind(data, len, i % 6);
		pool[i] = malloc(cap);
		pool_len[i] = lznt1_compress(data, len, pool[i], cap,
					     i % 3 ? 0 : LZNT1C_TRIM_ZEROS);
	}

	for (i = 0; i < iters; i++) {
		size_t n, dst_len = rnd_below(4) ? UNIT : rnd_below(UNIT + 1);
		unsigned int how = i % 3;
		int ret;

		if (how == 0) {
			/* Random bytes. */
			n = rnd_below(600);
			gen_kind(buf, n, 0);
		} else if (how == 1) {
			/* Random chunks with plausible headers. */
			size_t at = 0;

			while (at + 2 < 600 && rnd_below(5)) {
				size_t size = 1 + rnd_below(rnd_below(3) ? 64 : CHUNK);
				unsigned int hdr = (rnd_below(4) ? 0xb000 : 0x3000) |
						   (size - 1);

				buf[at] = hdr & 0xff;
				buf[at + 1] = hdr >> 8;
				gen_kind(buf + at + 2, size, rnd_below(2) ? 0 : 4);
				at += 2 + size;
			}
			/* Sometimes cut it anywhere. */
			n = rnd_below(3) ? at : rnd_below(at + 1);
		} else {
			/* A valid stream with a few bytes changed, or cut. */
			unsigned int k, p = rnd_below(POOL);
			unsigned int flips = 1 + rnd_below(4);

			n = pool_len[p];
			memcpy(buf, pool[p], n);
			for (k = 0; k < flips && n; k++) {
				size_t at = rnd_below(n);

				if (rnd_below(2))
					buf[at] ^= 1 << rnd_below(8);
				else
					buf[at] = rnd();
			}
			if (n && !rnd_below(8))
				n = rnd_below(n);
		}
		ret = fuzz_one(buf, n, dst_len);
		if (ret < 0)
			bad++;
		else
			good += ret;
	}
	tap_result(!bad, "fuzz: %u streams (random, random chunks, mutated): %u broke the contract",
		   iters, bad);
	diag("fuzz: %u decoded, %u rejected with -EIO", good, iters - bad - good);
	for (i = 0; i < POOL; i++)
		free(pool[i]);
}

static int decompress_file(const char *in, const char *out)
{
	static u8 src[UNIT + 1], dst[UNIT];
	size_t n, out_len;
	FILE *f = fopen(in, "rb");
	int ret;

	if (!f) {
		perror(in);
		return 2;
	}
	n = fread(src, 1, sizeof(src), f);
	fclose(f);
	if (n > UNIT) {
		fprintf(stderr, "%s: larger than a compression unit\n", in);
		return 2;
	}
	ret = ntfs_lznt1_decompress(src, n, dst, UNIT, &out_len);
	if (ret) {
		fprintf(stderr, "%s: error %d\n", in, ret);
		return 1;
	}
	f = fopen(out, "wb");
	if (!f || fwrite(dst, 1, out_len, f) != out_len || fclose(f)) {
		perror(out);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "decompress"))
		return decompress_file(argv[2], argv[3]);
	if (argc != 1) {
		fprintf(stderr, "usage: %s [decompress IN OUT]\n", argv[0]);
		return 2;
	}

	test_spec_example();
	test_edges();
	test_windows();
	test_copies();
	test_corrupt();
	test_round_trips();
	test_speed();
	test_fuzz();
	return tap_done();
}
