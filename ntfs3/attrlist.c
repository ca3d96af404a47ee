// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs3: the $ATTRIBUTE_LIST of a base record, edited in memory.  A file
 * whose attributes do not fit in one record keeps, in its base record, a
 * list with one entry per attribute (per extent of a non-resident one)
 * saying which record holds it.  Every attribute added to or removed from
 * any record of such a file must be added to or removed from the list in
 * the same change, or other readers (which look attributes up through the
 * list) miss it or find a stale one.
 *
 * The list kept here is the resident value of the base record's
 * $ATTRIBUTE_LIST: entries are sorted by type, then name (the order of
 * attribute names in a record), then lowest VCN; a new entry goes after
 * those that sort equal to it.  Each entry is 8-byte aligned, 0x1a bytes
 * of header followed by the name.
 *
 * No kernel headers beyond the basic ones: tests/host/ntfs-units.sh builds
 * this file in user space.
 */

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

#include "ntfs.h"
#include "attrrec.h"
#include "attrlist.h"

/**
 * ntfs_alist_entry_len() - Bytes of the entry of an attribute
 * @name_len:	units in the attribute's name
 *
 * Return: the entry's length, a multiple of 8.
 */
u32 ntfs_alist_entry_len(u8 name_len)
{
	return (NTFS_ALIST_HDR + 2 * name_len + 7) & ~7U;
}

static const struct ntfs_attr_list_entry *ntfs_alist_at(const void *list, u32 ofs)
{
	return (const void *)((const u8 *)list + ofs);
}

static const __le16 *ntfs_alist_name(const struct ntfs_attr_list_entry *e)
{
	return (const void *)((const u8 *)e + e->name_offset);
}

/**
 * ntfs_alist_check() - Check that every entry of a list can be walked
 * @list:	the list value
 * @size:	its bytes
 *
 * Each entry must be at least a header long, a multiple of 8, inside the
 * value, and hold its name.
 *
 * Return: 0, or -EIO.
 */
int ntfs_alist_check(const void *list, u32 size)
{
	u32 ofs = 0;

	while (ofs < size) {
		const struct ntfs_attr_list_entry *e = ntfs_alist_at(list, ofs);
		u32 len;

		if (size - ofs < NTFS_ALIST_HDR)
			return -EIO;
		len = le16_to_cpu(e->length);
		if (len < NTFS_ALIST_HDR || len % 8 || len > size - ofs ||
		    e->name_offset + 2U * e->name_length > len)
			return -EIO;
		ofs += len;
	}
	return 0;
}

/**
 * ntfs_alist_base_ref() - File reference of the base record, from its list
 * @list:	the list value, checked
 * @size:	its bytes
 * @ref:	set to the reference
 *
 * $STANDARD_INFORMATION always lives in the base record, so its entry
 * names the base record with its sequence number (NTFS 3.0 records do not
 * carry their own number).
 *
 * Return: 0, or -EIO for a list without that entry.
 */
int ntfs_alist_base_ref(const void *list, u32 size, u64 *ref)
{
	u32 ofs = 0;

	while (ofs < size) {
		const struct ntfs_attr_list_entry *e = ntfs_alist_at(list, ofs);

		if (le32_to_cpu(e->type) == NTFS_AT_STANDARD_INFO) {
			*ref = le64_to_cpu(e->record);
			return 0;
		}
		ofs += le16_to_cpu(e->length);
	}
	return -EIO;
}

/**
 * ntfs_alist_find() - The entry of one attribute
 * @list:	the list value, checked
 * @size:	its bytes
 * @type:	the attribute's type
 * @recnr:	number of the record holding it
 * @instance:	its instance number there
 *
 * Return: the entry's offset in @list, or -ENOENT.
 */
int ntfs_alist_find(const void *list, u32 size, u32 type, u64 recnr, u16 instance)
{
	u32 ofs = 0;

	while (ofs < size) {
		const struct ntfs_attr_list_entry *e = ntfs_alist_at(list, ofs);

		if (le32_to_cpu(e->type) == type && le16_to_cpu(e->instance) == instance &&
		    NTFS_REF_RECORD(le64_to_cpu(e->record)) == recnr)
			return ofs;
		ofs += le16_to_cpu(e->length);
	}
	return -ENOENT;
}

/**
 * ntfs_alist_names_elsewhere() - Whether an attribute has a part outside a record
 * @list:	the list value, checked
 * @size:	its bytes
 * @type:	attribute type
 * @name:	its name (exact), NULL for none
 * @name_len:	units in @name
 * @recnr:	the record
 *
 * Return: true when an entry of that type and name names another record.
 */
bool ntfs_alist_names_elsewhere(const void *list, u32 size, u32 type, const __le16 *name,
				u8 name_len, u64 recnr)
{
	u32 ofs = 0;

	while (ofs < size) {
		const struct ntfs_attr_list_entry *e = ntfs_alist_at(list, ofs);

		ofs += le16_to_cpu(e->length);
		if (le32_to_cpu(e->type) != type || e->name_length != name_len)
			continue;
		if (name_len && memcmp(ntfs_alist_name(e), name, 2 * name_len))
			continue;
		if (NTFS_REF_RECORD(le64_to_cpu(e->record)) != recnr)
			return true;
	}
	return false;
}

/* Whether the existing entry @e sorts after the new entry @k. */
static bool ntfs_alist_after(const struct ntfs_arec_ctx *c, const struct ntfs_attr_list_entry *e,
			     const struct ntfs_alist_key *k)
{
	u32 type = le32_to_cpu(e->type);
	int order;

	if (type != k->type)
		return type > k->type;
	order = ntfs_arec_name_cmp(c, ntfs_alist_name(e), e->name_length, k->name, k->name_len);
	if (order)
		return order > 0;
	return le64_to_cpu(e->lowest_vcn) > k->lowest_vcn;
}

static void ntfs_alist_fill(struct ntfs_attr_list_entry *e, u32 len,
			    const struct ntfs_alist_key *k)
{
	e->type = cpu_to_le32(k->type);
	e->length = cpu_to_le16(len);
	e->name_length = k->name_len;
	e->name_offset = NTFS_ALIST_HDR;
	e->lowest_vcn = cpu_to_le64(k->lowest_vcn);
	e->record = cpu_to_le64(k->ref);
	e->instance = cpu_to_le16(k->instance);
	if (k->name_len)
		memcpy(e->name, k->name, 2 * k->name_len);
}

/* Offset in the checked list @v where the entry @k goes. */
static u32 ntfs_alist_slot(const struct ntfs_arec_ctx *c, const u8 *v, u32 size,
			   const struct ntfs_alist_key *k)
{
	u32 ofs = 0;

	while (ofs < size && !ntfs_alist_after(c, ntfs_alist_at(v, ofs), k))
		ofs += le16_to_cpu(ntfs_alist_at(v, ofs)->length);
	return ofs;
}

/**
 * ntfs_alist_insert() - Add an entry to a list value in a buffer
 * @c:		the upcase table
 * @v:		the list value, with room for the new entry after its end
 * @size:	its bytes
 * @k:		the entry
 *
 * Return: the new size, or -EIO for a list that cannot be walked.
 */
int ntfs_alist_insert(const struct ntfs_arec_ctx *c, u8 *v, u32 size,
		      const struct ntfs_alist_key *k)
{
	u32 len = ntfs_alist_entry_len(k->name_len), ofs;

	if (ntfs_alist_check(v, size))
		return -EIO;
	ofs = ntfs_alist_slot(c, v, size, k);
	memmove(v + ofs + len, v + ofs, size - ofs);
	memset(v + ofs, 0, len);
	ntfs_alist_fill((void *)(v + ofs), len, k);
	return size + len;
}

/*
 * Check list @v, then find the entry of one attribute: its offset (and
 * *@len its length), -ENOENT, or -EIO.
 */
static int ntfs_alist_locate(const u8 *v, u32 size, u32 type, u64 recnr, u16 instance,
			     u32 *len)
{
	int ofs;

	if (ntfs_alist_check(v, size))
		return -EIO;
	ofs = ntfs_alist_find(v, size, type, recnr, instance);
	if (ofs >= 0)
		*len = le16_to_cpu(ntfs_alist_at(v, ofs)->length);
	return ofs;
}

/**
 * ntfs_alist_remove() - Remove the entry of one attribute from a list value in a buffer
 * @v:		the list value
 * @size:	its bytes
 * @type:	the attribute's type
 * @recnr:	number of the record holding it
 * @instance:	its instance number there
 *
 * Return: the new size, -ENOENT when there is no such entry, -EIO for a
 * list that cannot be walked.
 */
int ntfs_alist_remove(u8 *v, u32 size, u32 type, u64 recnr, u16 instance)
{
	u32 len;
	int ofs = ntfs_alist_locate(v, size, type, recnr, instance, &len);

	if (ofs < 0)
		return ofs;
	memmove(v + ofs, v + ofs + len, size - ofs - len);
	return size - len;
}

/**
 * ntfs_alist_add() - Add an entry to a resident list at its sorted place
 * @c:		record size and upcase table
 * @rec:	the base record
 * @list:	its resident $ATTRIBUTE_LIST
 * @k:		the entry
 *
 * The list grows in place: @list stays where it is, the attributes after
 * it move (pointers to them are stale afterwards).
 *
 * Return: 0, -ENOSPC when the record lacks the room (nothing changed),
 * -EIO for a list that cannot be walked, -EINVAL for a non-resident one.
 */
int ntfs_alist_add(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *list,
		   const struct ntfs_alist_key *k)
{
	u32 size = le32_to_cpu(list->r.value_length);
	u32 len = ntfs_alist_entry_len(k->name_len);
	u8 *v;
	int err;

	if (list->non_resident)
		return -EINVAL;
	v = (u8 *)list + le16_to_cpu(list->r.value_offset);
	if (ntfs_alist_check(v, size))
		return -EIO;
	err = ntfs_arec_set_value_len(c, rec, list, size + len);
	if (err)
		return err;
	err = ntfs_alist_insert(c, v, size, k);
	return err < 0 ? err : 0;
}

/* Reverse @n bytes at @p. */
static void ntfs_alist_reverse(u8 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n / 2; i++) {
		u8 x = p[i];

		p[i] = p[n - 1 - i];
		p[n - 1 - i] = x;
	}
}

/* Rotate @n bytes at @p left by @k, in place. */
static void ntfs_alist_rotate(u8 *p, u32 n, u32 k)
{
	ntfs_alist_reverse(p, k);
	ntfs_alist_reverse(p + k, n - k);
	ntfs_alist_reverse(p, n);
}

/**
 * ntfs_alist_del() - Remove the entry of one attribute from a resident list
 * @c:		record size
 * @rec:	the base record
 * @list:	its resident $ATTRIBUTE_LIST
 * @type:	the attribute's type
 * @recnr:	number of the record holding it
 * @instance:	its instance number there
 *
 * Return: 0, -ENOENT when the list has no such entry, -EIO for a list that
 * cannot be walked, -EINVAL for a non-resident one.
 */
int ntfs_alist_del(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *list,
		   u32 type, u64 recnr, u16 instance)
{
	u32 size = le32_to_cpu(list->r.value_length), len;
	int ofs, err;
	u8 *v;

	if (list->non_resident)
		return -EINVAL;
	v = (u8 *)list + le16_to_cpu(list->r.value_offset);
	ofs = ntfs_alist_locate(v, size, type, recnr, instance, &len);
	if (ofs < 0)
		return ofs;
	/*
	 * The entry goes to the end of the value, which then shrinks; if the
	 * record cannot be resized, the entries go back where they were.
	 */
	ntfs_alist_rotate(v + ofs, size - ofs, len);
	err = ntfs_arec_set_value_len(c, rec, list, size - len);
	if (err)
		ntfs_alist_rotate(v + ofs, size - ofs, size - ofs - len);
	return err;
}
