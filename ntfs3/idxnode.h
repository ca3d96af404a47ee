/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntfs3: editing one node of an index B+tree (the root's entries or one
 * index block's), whatever the index keys: checking a node, finding a key
 * through a comparison callback, inserting and removing entries, splitting
 * an overfull node at its median and merging two siblings.  No kernel
 * headers beyond the types: the host unit tests build idxnode.c in user
 * space (tests/host/ntfs-units.sh).
 *
 * A node is a struct ntfs_index_header followed by its entries; offsets
 * are from the header.  "Entry bytes" are the bytes of the entries before
 * the end entry.
 */
#ifndef _NTFS3_IDXNODE_H
#define _NTFS3_IDXNODE_H

#include <linux/types.h>

#include "ntfs.h"

#define NTFS_IE_HDR		16U	/* struct ntfs_index_entry */
#define NTFS_IX_HDR		16U	/* struct ntfs_index_header */
/* The longest entry any index has: a $FILE_NAME key of 255 units and a child. */
#define NTFS_IE_MAX		(NTFS_IE_HDR + 0x42 + 2 * 255 + 8 + 8)

/* Order of the key against entry @e (not the end entry): <0, 0, >0. */
typedef int (*ntfs_ix_cmp_t)(const void *key, const struct ntfs_index_entry *e);

static inline u32 ntfs_ie_len(const struct ntfs_index_entry *e)
{
	return le16_to_cpu(e->length);
}

static inline bool ntfs_ie_is_last(const struct ntfs_index_entry *e)
{
	return le16_to_cpu(e->flags) & NTFS_IE_LAST;
}

static inline bool ntfs_ie_has_child(const struct ntfs_index_entry *e)
{
	return le16_to_cpu(e->flags) & NTFS_IE_HAS_CHILD;
}

static inline struct ntfs_index_entry *ntfs_ix_at(const struct ntfs_index_header *h, u32 ofs)
{
	return (struct ntfs_index_entry *)((u8 *)h + ofs);
}

static inline u32 ntfs_ix_first(const struct ntfs_index_header *h)
{
	return le32_to_cpu(h->entries_offset);
}

static inline u32 ntfs_ix_used(const struct ntfs_index_header *h)
{
	return le32_to_cpu(h->index_length);
}

static inline u32 ntfs_ix_free(const struct ntfs_index_header *h)
{
	return le32_to_cpu(h->allocated_size) - le32_to_cpu(h->index_length);
}

static inline bool ntfs_ix_children(const struct ntfs_index_header *h)
{
	return h->flags & NTFS_INDEX_HAS_CHILDREN;
}

u64 ntfs_ie_child(const struct ntfs_index_entry *e);
void ntfs_ie_set_child(struct ntfs_index_entry *e, u64 vcn);
u32 ntfs_ie_copy(struct ntfs_index_entry *dst, const struct ntfs_index_entry *src,
		 bool child, u64 vcn);
const char *ntfs_ix_check(const struct ntfs_index_header *h, u32 size, u32 min_key);
int ntfs_ix_find(const struct ntfs_index_header *h, ntfs_ix_cmp_t cmp, const void *key,
		 u32 *ofs);
u32 ntfs_ix_end(const struct ntfs_index_header *h);
u32 ntfs_ix_prev(const struct ntfs_index_header *h, u32 ofs);
u32 ntfs_ix_entry_bytes(const struct ntfs_index_header *h);
void ntfs_ix_init(struct ntfs_index_header *h, u32 first, u32 alloc, bool children, u64 end_child);
void ntfs_ix_insert(struct ntfs_index_header *h, u32 ofs, const struct ntfs_index_entry *e);
void ntfs_ix_remove(struct ntfs_index_header *h, u32 ofs);
void ntfs_ix_append(struct ntfs_index_header *dst, const struct ntfs_index_header *src);
void ntfs_ix_split(struct ntfs_index_header *full, struct ntfs_index_header *left,
		   struct ntfs_index_entry *median);
u32 ntfs_ix_merge_size(const struct ntfs_index_header *left, const struct ntfs_index_entry *sep,
		       const struct ntfs_index_header *right);
void ntfs_ix_merge(struct ntfs_index_header *left, const struct ntfs_index_entry *sep,
		   struct ntfs_index_header *right, struct ntfs_index_entry *tmp);

#endif /* _NTFS3_IDXNODE_H */
