/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntfs3: editing the attributes of one MFT record in memory (attrrec.c).
 * No kernel headers beyond the basic types: the host unit tests build
 * attrrec.c in user space.
 */
#ifndef _NTFS3_ATTRREC_H
#define _NTFS3_ATTRREC_H

#include <linux/types.h>

struct ntfs_attr;

/* Bytes that precede the name of a new attribute, by kind. */
#define NTFS_AREC_RESIDENT	0x18	/* resident */
#define NTFS_AREC_NONRES	0x40	/* non-resident, plain */
#define NTFS_AREC_NONRES_C	0x48	/* non-resident, compressed or sparse */

/*
 * An MFT record's upcase table and size: what ordering and bounds need.
 * @upcase may be NULL (names are then ordered by their units as they are).
 */
struct ntfs_arec_ctx {
	u32		rec_size;
	const __le16	*upcase;
	u32		upcase_len;
};

int ntfs_arec_name_cmp(const struct ntfs_arec_ctx *c, const __le16 *a, u8 alen,
		       const __le16 *b, u8 blen);
struct ntfs_attr *ntfs_arec_by_instance(const struct ntfs_arec_ctx *c, void *rec, u16 instance);
struct ntfs_attr *ntfs_rec_find(void *rec, u32 type, const __le16 *name, u8 name_len);
void ntfs_rec_remove(void *rec, struct ntfs_attr *a);
struct ntfs_attr *ntfs_arec_insert(const struct ntfs_arec_ctx *c, void *rec, u32 type,
				   const __le16 *name, u8 name_len, u32 hdr, u32 body_len);
int ntfs_arec_resize(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *a,
		     u32 new_len);
int ntfs_arec_set_value_len(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *a,
			    u32 len);
int ntfs_arec_set_mp_len(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *a,
			 u32 len);
u32 ntfs_arec_free(const struct ntfs_arec_ctx *c, const void *rec);

#endif /* _NTFS3_ATTRREC_H */
