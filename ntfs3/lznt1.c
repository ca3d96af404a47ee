// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs3: LZNT1 decompression.
 *
 * The format ([MS-XCA] 2.5):
 *
 * A stream is a sequence of chunks.  A chunk starts with a 16-bit
 * little-endian header: bit 15 is set if the chunk is compressed, bits 14-12
 * hold the signature 3, bits 11-0 the number of data bytes that follow the
 * header, minus one.  A header of 0 ends the stream.
 *
 * Each chunk stands for (at most) 4096 bytes of decompressed data and is
 * decoded on its own: nothing in a chunk refers to data of another chunk.
 * An uncompressed chunk holds its bytes as they are.  A compressed chunk is
 * a sequence of groups: a flag byte, then up to eight elements, the first
 * one belonging to the least significant flag bit.  For a clear bit the
 * element is one literal byte.  For a set bit it is a 16-bit little-endian
 * word that repeats earlier output of the same chunk: the displacement minus
 * one sits in the high D bits, the length minus three in the low 16 - D
 * bits, where D is the smallest number from 4 to 12 for which 2^D is at
 * least the number of bytes the chunk has produced so far.  Early in a chunk
 * only short displacements are possible, so lengths get the bits; the split
 * moves towards the displacement as the output grows.  A copy whose length
 * exceeds its displacement overlaps its own output and repeats the last
 * displacement bytes.
 *
 * What NTFS expects:
 *
 * A compressed NTFS stream is cut into compression units of 16 clusters
 * (64 KiB with 4 KiB clusters).  A unit that is stored in fewer clusters than
 * it has is one LZNT1 stream, read from those clusters; chunk k of the
 * stream decodes into bytes [4096 k, 4096 k + 4096) of the unit.  When a
 * chunk produces fewer than 4096 bytes and another chunk follows, the rest of
 * its 4 KiB window is zeros.  After the last chunk nothing is filled in: the
 * stream ends at a zero header or at the end of the clusters that hold it
 * (a stream that ends exactly there has no room for a terminator), and the
 * part of the unit that the stream did not produce, typically what lies past
 * the end of the file, is zero-filled by the caller, who learns from
 * *out_len where the produced data ends.  (A unit stored in all of its
 * clusters is plain data, and a unit without clusters is zeros; neither
 * comes here.)  In the units ntfs-3g writes, which the host unit test
 * checks, every chunk but the last produces 4096 bytes, uncompressed chunks
 * (header 0x3fff) appear between compressed ones, and the last chunk ends
 * with the file's data.
 *
 * Corrupt data is reported as -EIO, like every other on-disk inconsistency
 * of this driver.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>

#include "lznt1.h"

#define LZNT1_HDR_COMPRESSED	0x8000
#define LZNT1_HDR_SIG_MASK	0x7000
#define LZNT1_HDR_SIG		0x3000
#define LZNT1_HDR_SIZE_MASK	0x0fff

/*
 * Decode the data of one compressed chunk, @len bytes at @in, into @out,
 * which has room for @room bytes (at most NTFS_LZNT1_CHUNK_SIZE).
 * Return the number of bytes produced or -EIO.
 */
static int lznt1_decode_chunk(const u8 *in, unsigned int len, u8 *out,
			      unsigned int room)
{
	unsigned int ip = 0;	/* next input byte */
	unsigned int op = 0;	/* bytes produced */
	unsigned int dbits = 4;	/* displacement bits at the current @op */

	while (ip < len) {
		unsigned int flags = in[ip++];
		unsigned int i;

		/* Eight literals: common in data that compresses poorly. */
		if (!flags && len - ip >= 8 && room - op >= 8) {
			memcpy(out + op, in + ip, 8);
			ip += 8;
			op += 8;
			continue;
		}

		for (i = 0; i < 8 && ip < len; i++, flags >>= 1) {
			unsigned int word, disp, count, k;
			const u8 *from;
			u8 *to;

			if (!(flags & 1)) {
				if (unlikely(op >= room))
					return -EIO;
				out[op++] = in[ip++];
				continue;
			}

			if (unlikely(len - ip < 2))
				return -EIO;
			word = get_unaligned_le16(in + ip);
			ip += 2;

			/* @op only grows, and @op <= 4096 keeps dbits <= 12. */
			while (op > (1U << dbits))
				dbits++;
			disp = (word >> (16 - dbits)) + 1;
			count = (word & (0xffffU >> dbits)) + 3;
			if (unlikely(disp > op || count > room - op))
				return -EIO;

			to = out + op;
			from = to - disp;
			if (disp >= count) {
				memcpy(to, from, count);
			} else if (disp == 1) {
				memset(to, *from, count);
			} else {
				/* Overlapping: each byte may be one just made. */
				for (k = 0; k < count; k++)
					to[k] = from[k];
			}
			op += count;
		}
	}
	return op;
}

/**
 * ntfs_lznt1_decompress() - decompress an LZNT1 stream
 * @src: the compressed stream
 * @src_len: number of bytes at @src; nothing past them is read
 * @dst: output buffer
 * @dst_len: size of @dst; nothing past it is written
 * @out_len: on success, set to the end of the produced data in @dst
 *
 * Decodes chunks until a zero chunk header, until fewer than two bytes of
 * @src are left, or until @dst is full at a chunk boundary (what follows in
 * @src is then not looked at).  Chunk k is decoded into @dst at offset
 * 4096 * k.  A chunk that produces fewer than 4096 bytes and is followed by
 * another has the rest of its 4 KiB window zero-filled; after the last chunk
 * nothing is filled, and @dst past *@out_len is left untouched: zero-filling
 * the rest of a compression unit is the caller's job.
 *
 * An uncompressed chunk of fewer than 4096 bytes is accepted; it is treated
 * like a compressed chunk that produced that many bytes.
 *
 * Context: Any context.  Does not sleep and does not allocate.
 * Return: 0 on success.  -EIO if the stream is corrupt: a chunk header
 * without the signature 3, chunk data running past @src_len, a copy word cut
 * off by the end of its chunk or reaching back before the start of its
 * chunk, or a chunk producing more than 4096 bytes or more than fits in
 * @dst.  On error the contents of @dst are undefined and *@out_len is not
 * set.
 */
int ntfs_lznt1_decompress(const u8 *src, size_t src_len, u8 *dst,
			  size_t dst_len, size_t *out_len)
{
	size_t ip = 0;		/* next chunk header in @src */
	size_t base = 0;	/* start of the current chunk's window */
	size_t done = 0;	/* end of the data produced so far */

	while (base < dst_len && src_len - ip >= 2) {
		unsigned int hdr = get_unaligned_le16(src + ip);
		unsigned int size = (hdr & LZNT1_HDR_SIZE_MASK) + 1;
		unsigned int room = min_t(size_t, dst_len - base,
					  NTFS_LZNT1_CHUNK_SIZE);
		int got;

		if (!hdr)
			break;
		if (unlikely((hdr & LZNT1_HDR_SIG_MASK) != LZNT1_HDR_SIG))
			return -EIO;
		ip += 2;
		if (unlikely(size > src_len - ip))
			return -EIO;

		/* The previous chunk was short: zeros up to this window. */
		if (done < base)
			memset(dst + done, 0, base - done);

		if (hdr & LZNT1_HDR_COMPRESSED) {
			got = lznt1_decode_chunk(src + ip, size, dst + base,
						 room);
			if (unlikely(got < 0))
				return got;
		} else {
			if (unlikely(size > room))
				return -EIO;
			memcpy(dst + base, src + ip, size);
			got = size;
		}
		ip += size;
		done = base + got;
		base += NTFS_LZNT1_CHUNK_SIZE;
	}

	*out_len = done;
	return 0;
}
