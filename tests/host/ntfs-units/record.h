/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the host unit tests that edit MFT records (attrrec_test.c,
 * attrlist_test.c): an empty record to start from.  Include after ntfs.h.
 */
#ifndef NTFS_UNITS_RECORD_H
#define NTFS_UNITS_RECORD_H

#include <string.h>

/* An empty record of @size bytes: header, end marker at @first, bytes_in_use after it. */
static inline void fresh_record(u8 *rec, u32 size, u16 first)
{
	struct ntfs_record *r = (void *)rec;

	memset(rec, 0, size);
	r->usa.magic = NTFS_MAGIC_FILE;
	r->usa.usa_offset = 0x30;
	r->usa.usa_count = 3;
	r->attrs_offset = first;
	r->flags = NTFS_RECORD_IN_USE;
	r->bytes_allocated = size;
	r->bytes_in_use = first + 8;
	memset(rec + first, 0xff, 4);
}

#endif
