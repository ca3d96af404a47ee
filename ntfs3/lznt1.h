/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntfs3: LZNT1 decompression ([MS-XCA] 2.5), the format of compressed
 * NTFS data streams.
 */
#ifndef _NTFS3_LZNT1_H
#define _NTFS3_LZNT1_H

#include <linux/types.h>

/* Every LZNT1 chunk stands for this many bytes of decompressed data. */
#define NTFS_LZNT1_CHUNK_SIZE	4096

int ntfs_lznt1_decompress(const u8 *src, size_t src_len, u8 *dst,
			  size_t dst_len, size_t *out_len);

#endif /* _NTFS3_LZNT1_H */
