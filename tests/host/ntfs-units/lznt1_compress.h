/* SPDX-License-Identifier: GPL-2.0 */
/* Test-only LZNT1 compressor: see lznt1_compress.c. */
#ifndef NTFS_UNITS_LZNT1_COMPRESS_H
#define NTFS_UNITS_LZNT1_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* Drop the trailing zero bytes of every chunk (the decoder zero-fills). */
#define LZNT1C_TRIM_ZEROS	0x1
/* Do not write the 0x0000 end header. */
#define LZNT1C_NO_END		0x2
/* Store every chunk uncompressed. */
#define LZNT1C_STORE		0x4

size_t lznt1_compress_bound(size_t len);
size_t lznt1_compress(const uint8_t *src, size_t len, uint8_t *dst,
		      size_t cap, unsigned int flags);

#endif
