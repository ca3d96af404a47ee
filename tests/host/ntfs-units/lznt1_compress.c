// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only LZNT1 compressor, written from [MS-XCA] 2.5 so that the unit
 * test can round-trip data through ntfs3/lznt1.c.  Greedy LZ77 with hash
 * chains over 3-byte prefixes; each 4096-byte chunk is compressed on its
 * own and stored uncompressed when compression does not make it smaller.
 * Not for the kernel: it is neither fast nor careful about memory.
 */
#include <string.h>

#include "lznt1_compress.h"

#define CHUNK		4096
#define HASH_BITS	12
#define MAX_CHAIN	256

/* Smallest D in 4..12 with 2^D >= pos: bits of displacement at @pos. */
static unsigned int disp_bits(unsigned int pos)
{
	unsigned int d = 4;

	while ((1U << d) < pos)
		d++;
	return d;
}

static unsigned int hash3(const uint8_t *p)
{
	return ((p[0] << 8 ^ p[1] << 4 ^ p[2]) * 2654435761U) >> (32 - HASH_BITS);
}

/*
 * Compress @n (1..4096) bytes into @out, which has room for 4096 + 4096 / 8
 * + 2 bytes.  Return the size of the chunk data.
 */
static size_t compress_chunk(const uint8_t *in, unsigned int n, uint8_t *out)
{
	int head[1 << HASH_BITS];
	int prev[CHUNK];
	unsigned int pos = 0, items = 0;
	size_t op = 0, flag_at = 0;

	memset(head, -1, sizeof(head));
	while (pos < n) {
		unsigned int d = disp_bits(pos);
		unsigned int max_disp = pos < (1U << d) ? pos : (1U << d);
		unsigned int max_len = (1U << (16 - d)) + 2;
		unsigned int best_len = 0, best_disp = 0, step, i;

		if (max_len > n - pos)
			max_len = n - pos;
		if (!(items % 8)) {
			flag_at = op++;
			out[flag_at] = 0;
		}
		if (max_len >= 3) {
			int cand = head[hash3(in + pos)];
			unsigned int chain = 0;

			while (cand >= 0 && pos - cand <= max_disp &&
			       chain++ < MAX_CHAIN) {
				unsigned int l = 0;

				while (l < max_len && in[cand + l] == in[pos + l])
					l++;
				if (l > best_len) {
					best_len = l;
					best_disp = pos - cand;
					if (l == max_len)
						break;
				}
				cand = prev[cand];
			}
		}
		if (best_len >= 3) {
			unsigned int w = (best_disp - 1) << (16 - d) |
					 (best_len - 3);

			out[flag_at] |= 1U << (items % 8);
			out[op++] = w & 0xff;
			out[op++] = w >> 8;
			step = best_len;
		} else {
			out[op++] = in[pos];
			step = 1;
		}
		for (i = 0; i < step; i++, pos++) {
			if (pos + 3 <= n) {
				unsigned int h = hash3(in + pos);

				prev[pos] = head[h];
				head[h] = pos;
			}
		}
		items++;
	}
	return op;
}

size_t lznt1_compress_bound(size_t len)
{
	return (len / CHUNK + 1) * (CHUNK + 2) + 2;
}

/*
 * Compress @len bytes into @dst (room for @cap bytes).  Return the size of
 * the stream, or 0 if it does not fit.
 */
size_t lznt1_compress(const uint8_t *src, size_t len, uint8_t *dst,
		      size_t cap, unsigned int flags)
{
	uint8_t body[CHUNK + CHUNK / 8 + 16];
	size_t op = 0, at;

	for (at = 0; at < len; at += CHUNK) {
		unsigned int n = len - at < CHUNK ? len - at : CHUNK;
		const uint8_t *data;
		size_t size;
		unsigned int hdr;

		if (flags & LZNT1C_TRIM_ZEROS)
			while (n && !src[at + n - 1])
				n--;
		size = n;
		if (n && !(flags & LZNT1C_STORE))
			size = compress_chunk(src + at, n, body);
		if (!n) {
			/* Nothing left: a chunk of one empty flag group. */
			body[0] = 0;
			data = body;
			size = 1;
			hdr = 0xb000;
		} else if (size < n) {
			data = body;
			hdr = 0xb000;
		} else {
			data = src + at;
			size = n;
			hdr = 0x3000;
		}
		if (cap - op < size + 2)
			return 0;
		hdr |= size - 1;
		dst[op++] = hdr & 0xff;
		dst[op++] = hdr >> 8;
		memcpy(dst + op, data, size);
		op += size;
	}
	if (!(flags & LZNT1C_NO_END)) {
		if (cap - op < 2)
			return 0;
		dst[op++] = 0;
		dst[op++] = 0;
	}
	return op;
}
