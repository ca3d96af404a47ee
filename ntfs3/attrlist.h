/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntfs3: the resident $ATTRIBUTE_LIST of a base record, edited in memory
 * (attrlist.c).  No kernel headers beyond the basic types: the host unit
 * tests build attrlist.c in user space.
 */
#ifndef _NTFS3_ATTRLIST_H
#define _NTFS3_ATTRLIST_H

#include <linux/types.h>

struct ntfs_attr;
struct ntfs_arec_ctx;

/* Bytes of an entry before its name. */
#define NTFS_ALIST_HDR		0x1a
/* The longest entry: a name of 255 units. */
#define NTFS_ALIST_ENTRY_MAX	((NTFS_ALIST_HDR + 2 * 255 + 7) & ~7)

/**
 * struct ntfs_alist_key - What one list entry says about one attribute
 * @type:	attribute type
 * @name:	its UTF-16 name, NULL for none
 * @name_len:	units in @name
 * @lowest_vcn:	first VCN of the extent (0 for a resident attribute)
 * @ref:	file reference of the record holding it
 * @instance:	its instance number in that record
 */
struct ntfs_alist_key {
	u32		type;
	const __le16	*name;
	u8		name_len;
	u64		lowest_vcn;
	u64		ref;
	u16		instance;
};

u32 ntfs_alist_entry_len(u8 name_len);
int ntfs_alist_check(const void *list, u32 size);
int ntfs_alist_base_ref(const void *list, u32 size, u64 *ref);
int ntfs_alist_find(const void *list, u32 size, u32 type, u64 recnr, u16 instance);
bool ntfs_alist_names_elsewhere(const void *list, u32 size, u32 type, const __le16 *name,
				u8 name_len, u64 recnr);
int ntfs_alist_insert(const struct ntfs_arec_ctx *c, u8 *v, u32 size,
		      const struct ntfs_alist_key *k);
int ntfs_alist_remove(u8 *v, u32 size, u32 type, u64 recnr, u16 instance);
int ntfs_alist_add(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *list,
		   const struct ntfs_alist_key *k);
int ntfs_alist_del(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *list,
		   u32 type, u64 recnr, u16 instance);

#endif /* _NTFS3_ATTRLIST_H */
