// SPDX-License-Identifier: GPL-2.0
/*
 * The attributes of a file across its records: the record set (the base
 * record and the extension records its $ATTRIBUTE_LIST names, each checked to
 * belong to the base record) and the walk over all their attributes.
 */

#include <linux/slab.h>

#include "ntfs3.h"

void ntfs_recset_free(struct ntfs_recset *rs)
{
	unsigned int i;

	for (i = 0; i < rs->nr; i++)
		kfree(rs->rec[i]);
	kfree(rs->rec);
	kfree(rs->recnr);
	kvfree(rs->attr_list);
	memset(rs, 0, sizeof(*rs));
}

/* Report which rule of the format a file's records break; returns -EIO. */
static int ntfs_recset_bad(const struct ntfs_recset *rs, const char *rule)
{
	return ntfs_err_ratelimited(rs->sbi->sb, rs->base, "%s", rule);
}

static int ntfs_recset_add(struct ntfs_sb *sbi, struct ntfs_recset *rs, u64 nr)
{
	void **grown;
	u64 *grown_nr;
	void *buf;
	int err;

	if (rs->nr == rs->cap) {
		unsigned int cap = rs->cap ? 2 * rs->cap : 4;

		if (cap > NTFS_MAX_EXT_RECORDS)
			return ntfs_recset_bad(rs, "more than 4096 extension records");
		grown = krealloc_array(rs->rec, cap, sizeof(*grown), GFP_NOFS);
		if (!grown)
			return -ENOMEM;
		rs->rec = grown;
		grown_nr = krealloc_array(rs->recnr, cap, sizeof(*grown_nr), GFP_NOFS);
		if (!grown_nr)
			return -ENOMEM;
		rs->recnr = grown_nr;
		rs->cap = cap;
	}
	buf = kmalloc(sbi->record_size, GFP_NOFS);
	if (!buf)
		return -ENOMEM;
	err = ntfs_read_record(sbi, nr, buf);
	if (err) {
		kfree(buf);
		return err;
	}
	rs->recnr[rs->nr] = nr;
	rs->rec[rs->nr++] = buf;
	return 0;
}

static bool ntfs_recset_has(const struct ntfs_recset *rs, u64 nr)
{
	unsigned int i;

	for (i = 0; i < rs->nr; i++)
		if (rs->recnr[i] == nr)
			return true;
	return false;
}

/*
 * Load the extension records an attribute list names.  Each must be in use
 * and point back at the base record with the right sequence number.
 */
static int ntfs_recset_load_list(struct ntfs_sb *sbi, struct ntfs_recset *rs)
{
	const u8 *p = rs->attr_list, *end = p + rs->attr_list_size;
	u16 base_seq = le16_to_cpu(((struct ntfs_record *)rs->rec[0])->sequence);

	while (p < end) {
		const struct ntfs_attr_list_entry *e = (const void *)p;
		u64 ref, nr;
		u16 len;
		int err;

		if (end - p < sizeof(*e))
			return ntfs_recset_bad(rs, "attribute list ends inside an entry");
		len = le16_to_cpu(e->length);
		if (len < sizeof(*e) || len % 8 > 0 || len > end - p ||
		    e->name_offset + 2 * e->name_length > len)
			return ntfs_recset_bad(rs,
					       "attribute list entry: length or name out of bounds");
		ref = le64_to_cpu(e->record);
		nr = NTFS_REF_RECORD(ref);
		p += len;
		if (ntfs_recset_has(rs, nr))
			continue;
		err = ntfs_recset_add(sbi, rs, nr);
		if (err)
			return err;
		{
			const struct ntfs_record *x = rs->rec[rs->nr - 1];
			u64 back = le64_to_cpu(x->base_record);

			if (!(le16_to_cpu(x->flags) & NTFS_RECORD_IN_USE) ||
			    NTFS_REF_RECORD(back) != rs->base ||
			    NTFS_REF_SEQ(back) != base_seq ||
			    le16_to_cpu(x->sequence) != NTFS_REF_SEQ(ref))
				return ntfs_recset_bad(rs,
						       "attribute list names a record that is free, not ours, or of another sequence number");
		}
	}
	return 0;
}

/* Copy an attribute list value, resident or not, into @rs. */
static int ntfs_recset_read_list(struct ntfs_sb *sbi, struct ntfs_recset *rs,
				 const struct ntfs_attr *a)
{
	u64 size;

	if (!a->non_resident) {
		size = le32_to_cpu(a->r.value_length);
		rs->attr_list = kmemdup(ntfs_attr_value(a, 0), size, GFP_NOFS);
		if (!rs->attr_list)
			return -ENOMEM;
		rs->attr_list_size = size;
		return 0;
	}
	size = le64_to_cpu(a->nr.data_size);
	if (a->nr.lowest_vcn || size > NTFS_MAX_ATTR_LIST)
		return ntfs_recset_bad(rs, "attribute list in extents, or over 256 KiB");
	rs->attr_list = kvmalloc(size, GFP_NOFS);
	if (!rs->attr_list)
		return -ENOMEM;
	rs->attr_list_size = size;
	return ntfs_read_nonres_attr(sbi, rs->base, a, rs->attr_list, size);
}

/**
 * ntfs_recset_load() - Read a file's base record and its extension records
 * @sbi:	the volume
 * @nr:		base record number
 * @rs:		set to fill; free it with ntfs_recset_free()
 *
 * Return: 0, -ENOENT for a record not in use or not a base record, -EIO
 * for a damaged record or attribute list, -ENOMEM.
 */
int ntfs_recset_load(struct ntfs_sb *sbi, u64 nr, struct ntfs_recset *rs)
{
	const struct ntfs_record *r;
	struct ntfs_attr *a = NULL;
	const char *why = NULL;
	int err;

	memset(rs, 0, sizeof(*rs));
	rs->sbi = sbi;
	rs->base = nr;
	err = ntfs_recset_add(sbi, rs, nr);
	if (err)
		return err;
	r = rs->rec[0];
	if (!(le16_to_cpu(r->flags) & NTFS_RECORD_IN_USE) || r->base_record)
		return -ENOENT;

	while ((a = ntfs_next_attr(r, a, &why)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) != NTFS_AT_ATTR_LIST)
			continue;
		err = ntfs_recset_read_list(sbi, rs, a);
		if (!err)
			err = ntfs_recset_load_list(sbi, rs);
		return err;
	}
	if (IS_ERR(a))
		ntfs_err_ratelimited(sbi->sb, nr, "%s", why);
	return PTR_ERR_OR_ZERO(a);
}

/**
 * ntfs_recset_next() - Walk every attribute of every record of a set
 * @rs:		the set
 * @pos:	cursor, zeroed before the first call
 *
 * Return: the next attribute, NULL at the end, ERR_PTR(-EIO) for a damaged
 * attribute header.
 */
struct ntfs_attr *ntfs_recset_next(const struct ntfs_recset *rs, struct ntfs_recset_pos *pos)
{
	const char *why = NULL;
	struct ntfs_attr *a;

	while (pos->rec < rs->nr) {
		a = ntfs_next_attr(rs->rec[pos->rec], pos->attr, &why);
		if (IS_ERR(a)) {
			ntfs_err_ratelimited(rs->sbi->sb, rs->recnr[pos->rec], "%s", why);
			return a;
		}
		if (a) {
			pos->attr = a;
			return a;
		}
		pos->rec++;
		pos->attr = NULL;
	}
	return NULL;
}
