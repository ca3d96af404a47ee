// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs3: the attributes of one MFT record, edited in memory: find, insert
 * at the sorted place, remove, resize.  The caller holds the record's
 * fixed-up copy (a transaction's, see trans.c) and checked its attributes
 * with ntfs_next_attr() once; these functions keep the record sound:
 *
 * - attributes are sorted by type, then by name (upcased first, exact
 *   to break ties, the unnamed one first); a new attribute goes after those
 *   that sort equal to it, so several $FILE_NAME stay in the order they were
 *   added;
 * - every attribute gets the record's next instance number, which then
 *   grows (instances are unique within a record; a full counter looks for
 *   a free one);
 * - attribute lengths are multiples of 8; the end marker (0xffffffff)
 *   follows the last attribute and bytes_in_use ends 8 bytes after it;
 * - space given back is zeroed, space handed out is zeroed.
 *
 * The walk here only trusts the length fields as far as it needs to move
 * bytes (header inside bytes_in_use, length at least a resident header,
 * aligned, inside the record), so damage that slipped past the caller
 * stops it instead of sending it out of the buffer.
 *
 * No kernel headers beyond the basic ones: tests/host/ntfs-units.sh builds
 * this file in user space.
 */

#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

#include "ntfs.h"
#include "attrrec.h"

/* Size of the end marker with its padding, as bytes_in_use counts it. */
#define NTFS_AREC_END_SIZE	8

/* Counter value that cannot be handed out: the next would wrap to 0. */
#define NTFS_AREC_INSTANCE_MAX	0xffff

static inline u32 ntfs_align8(u32 v)
{
	return (v + 7) & ~7U;
}

/*
 * Offset of the attribute after the one at @ofs (or of the first, for
 * @ofs 0); 0 when the walk cannot go on: the end marker, or a header that
 * is not sound.  *@end is set to @ofs when @ofs holds the end marker.
 */
static u32 ntfs_arec_step(const u8 *rec, u32 size, u32 ofs, u32 *end)
{
	const struct ntfs_record *r = (const void *)rec;
	u32 used = le32_to_cpu(r->bytes_in_use);
	const struct ntfs_attr *a;
	u32 len, name_end;

	if (used > size)
		return 0;
	if (!ofs) {
		ofs = le16_to_cpu(r->attrs_offset);
	} else {
		a = (const void *)(rec + ofs);
		ofs += le32_to_cpu(a->length);
	}
	if (ofs % 8 || ofs > used || used - ofs < 4)
		return 0;
	if (*(const __le32 *)(rec + ofs) == cpu_to_le32(NTFS_AT_END)) {
		*end = ofs;
		return 0;
	}
	a = (const void *)(rec + ofs);
	if (used - ofs < NTFS_AREC_RESIDENT)
		return 0;
	len = le32_to_cpu(a->length);
	name_end = le16_to_cpu(a->name_offset) + 2 * a->name_length;
	if (len < NTFS_AREC_RESIDENT || len % 8 || len > used - ofs ||
	    (a->name_length && name_end > len))
		return 0;
	return ofs;
}

/* Offset of the end marker, or 0 if the walk does not reach it. */
static u32 ntfs_arec_end(const u8 *rec, u32 size)
{
	u32 ofs = 0, end = 0;
	unsigned int steps = 0;

	/* Each attribute takes at least 24 bytes: this bounds the walk. */
	do {
		ofs = ntfs_arec_step(rec, size, ofs, &end);
	} while (ofs && ++steps <= size / NTFS_AREC_RESIDENT);
	if (end && size - end < NTFS_AREC_END_SIZE)
		return 0;
	return end;
}

static const __le16 *ntfs_arec_name(const struct ntfs_attr *a)
{
	return (const void *)((const u8 *)a + le16_to_cpu(a->name_offset));
}

static u16 ntfs_arec_upcase(const struct ntfs_arec_ctx *c, u16 u)
{
	return c->upcase && u < c->upcase_len ? le16_to_cpu(c->upcase[u]) : u;
}

/**
 * ntfs_arec_name_cmp() - Order of two attribute names
 * @c:		the upcase table
 * @a:		one name
 * @alen:	its units
 * @b:		the other
 * @blen:	its units
 *
 * Upcased first, then the shorter one first, then exact units.
 *
 * Return: <0, 0 or >0 as @a sorts before, equal to or after @b.
 */
int ntfs_arec_name_cmp(const struct ntfs_arec_ctx *c, const __le16 *a, u8 alen,
		       const __le16 *b, u8 blen)
{
	unsigned int i, n = alen < blen ? alen : blen;

	for (i = 0; i < n; i++) {
		u16 x = ntfs_arec_upcase(c, le16_to_cpu(a[i]));
		u16 y = ntfs_arec_upcase(c, le16_to_cpu(b[i]));

		if (x != y)
			return x < y ? -1 : 1;
	}
	if (alen != blen)
		return alen < blen ? -1 : 1;
	for (i = 0; i < n; i++) {
		u16 x = le16_to_cpu(a[i]), y = le16_to_cpu(b[i]);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Whether an attribute of (@type, @name) sorts after the existing @a. */
static bool ntfs_arec_sorts_before(const struct ntfs_arec_ctx *c, const struct ntfs_attr *a,
				   u32 type, const __le16 *name, u8 name_len)
{
	u32 at = le32_to_cpu(a->type);

	if (at != type)
		return type < at;
	return ntfs_arec_name_cmp(c, name, name_len, ntfs_arec_name(a), a->name_length) < 0;
}

/**
 * ntfs_rec_find() - The first attribute of a type and name in one record
 * @rec:	the record, fixed up, its attributes checked
 * @type:	attribute type
 * @name:	UTF-16 name, NULL for the unnamed attribute
 * @name_len:	units in @name
 *
 * The name must match exactly.  A non-resident attribute counts only in
 * its first extent (lowest VCN 0).
 *
 * Return: the attribute, or NULL if the record has none.
 */
struct ntfs_attr *ntfs_rec_find(void *rec, u32 type, const __le16 *name, u8 name_len)
{
	const struct ntfs_record *r = rec;
	u32 size = le32_to_cpu(r->bytes_allocated), ofs = 0, end;

	while ((ofs = ntfs_arec_step(rec, size, ofs, &end))) {
		struct ntfs_attr *a = rec + ofs;

		if (le32_to_cpu(a->type) != type || a->name_length != name_len)
			continue;
		if (name_len && memcmp(ntfs_arec_name(a), name, 2 * name_len))
			continue;
		if (a->non_resident && a->nr.lowest_vcn)
			continue;
		return a;
	}
	return NULL;
}

/**
 * ntfs_arec_by_instance() - The attribute of a record with an instance number
 * @c:		record size
 * @rec:	the record, fixed up, its attributes checked
 * @instance:	the number
 *
 * Return: the attribute, or NULL if none has it.
 */
struct ntfs_attr *ntfs_arec_by_instance(const struct ntfs_arec_ctx *c, void *rec, u16 instance)
{
	u32 ofs = 0, end;

	while ((ofs = ntfs_arec_step(rec, c->rec_size, ofs, &end))) {
		struct ntfs_attr *a = rec + ofs;

		if (le16_to_cpu(a->instance) == instance)
			return a;
	}
	return NULL;
}

/* An instance number no attribute of @rec uses; the counter moves on. */
static u16 ntfs_arec_instance(u8 *rec, u32 size)
{
	struct ntfs_record *r = (void *)rec;
	u16 next = le16_to_cpu(r->next_instance), id;
	u32 ofs, end;

	if (next < NTFS_AREC_INSTANCE_MAX) {
		r->next_instance = cpu_to_le16(next + 1);
		return next;
	}
	/*
	 * The counter is exhausted (a record changed 65535 times): take the
	 * lowest number in use by none.  A record holds fewer than
	 * size / 24 attributes, so one of those numbers is free.
	 */
	for (id = 0; id < NTFS_AREC_INSTANCE_MAX; id++) {
		bool used = false;

		ofs = 0;
		while (!used && (ofs = ntfs_arec_step(rec, size, ofs, &end)))
			used = le16_to_cpu(((struct ntfs_attr *)(rec + ofs))->instance) == id;
		if (!used)
			break;
	}
	return id;
}

/**
 * ntfs_arec_insert() - Insert a new attribute at its sorted place
 * @c:		record size and upcase table
 * @rec:	the record, fixed up, its attributes checked
 * @type:	attribute type
 * @name:	UTF-16 name, NULL for none
 * @name_len:	units in @name
 * @hdr:	header size: %NTFS_AREC_RESIDENT, %NTFS_AREC_NONRES or
 *		%NTFS_AREC_NONRES_C (the name follows it)
 * @body_len:	resident: value length; non-resident: bytes of mapping pairs
 *
 * The attribute is zeroed, then filled: type, length, non-resident flag,
 * name and its offset, a new instance number, and value offset and length
 * (resident) or mapping pairs offset (non-resident, 8-aligned after the
 * name).  A non-resident attribute starts out as a valid empty one: highest
 * VCN -1, mapping pairs a lone terminator, all sizes 0.
 *
 * Return: the attribute, ERR_PTR(-ENOSPC) when the record lacks the room,
 * ERR_PTR(-EIO) when its attributes cannot be walked, ERR_PTR(-EINVAL) for
 * a header size not listed.
 */
struct ntfs_attr *ntfs_arec_insert(const struct ntfs_arec_ctx *c, void *rec, u32 type,
				   const __le16 *name, u8 name_len, u32 hdr, u32 body_len)
{
	u8 *p = rec;
	struct ntfs_record *r = rec;
	u32 end = ntfs_arec_end(p, c->rec_size), used, body_ofs, len, pos, ofs = 0, e;
	bool nonres = hdr != NTFS_AREC_RESIDENT;
	struct ntfs_attr *a;

	if (hdr != NTFS_AREC_RESIDENT && hdr != NTFS_AREC_NONRES && hdr != NTFS_AREC_NONRES_C)
		return ERR_PTR(-EINVAL);
	if (!end)
		return ERR_PTR(-EIO);
	used = end + NTFS_AREC_END_SIZE;
	if (nonres && !body_len)
		body_len = 1;
	body_ofs = ntfs_align8(hdr + 2 * name_len);
	if (body_len > c->rec_size)
		return ERR_PTR(-ENOSPC);
	len = ntfs_align8(body_ofs + body_len);
	if (len > c->rec_size - used)
		return ERR_PTR(-ENOSPC);

	while ((ofs = ntfs_arec_step(p, c->rec_size, ofs, &e)))
		if (ntfs_arec_sorts_before(c, (void *)(p + ofs), type, name, name_len))
			break;
	pos = ofs ? ofs : end;

	memmove(p + pos + len, p + pos, used - pos);
	memset(p + pos, 0, len);
	a = (void *)(p + pos);
	a->type = cpu_to_le32(type);
	a->length = cpu_to_le32(len);
	a->non_resident = nonres;
	a->name_length = name_len;
	a->name_offset = cpu_to_le16(hdr);
	if (name_len)
		memcpy(p + pos + hdr, name, 2 * name_len);
	if (nonres) {
		a->nr.highest_vcn = cpu_to_le64(~0ULL);
		a->nr.mp_offset = cpu_to_le16(body_ofs);
	} else {
		a->r.value_length = cpu_to_le32(body_len);
		a->r.value_offset = cpu_to_le16(body_ofs);
	}
	r->bytes_in_use = cpu_to_le32(used + len);
	/* Not 0 while the free numbers are looked for: 0 may be free. */
	a->instance = cpu_to_le16(NTFS_AREC_INSTANCE_MAX);
	a->instance = cpu_to_le16(ntfs_arec_instance(p, c->rec_size));
	return a;
}

/**
 * ntfs_rec_remove() - Remove an attribute from its record
 * @rec:	the record
 * @a:		an attribute of it
 *
 * The attributes after @a move down; the bytes freed at the end are zeroed.
 */
void ntfs_rec_remove(void *rec, struct ntfs_attr *a)
{
	struct ntfs_record *r = rec;
	u32 size = le32_to_cpu(r->bytes_allocated);
	u32 end = ntfs_arec_end(rec, size), used = end + NTFS_AREC_END_SIZE;
	u32 ofs = (u8 *)a - (u8 *)rec, len = le32_to_cpu(a->length);

	if (!end || ofs >= end || len > end - ofs)
		return;
	memmove(a, (u8 *)a + len, used - ofs - len);
	memset((u8 *)rec + used - len, 0, len);
	r->bytes_in_use = cpu_to_le32(used - len);
}

/**
 * ntfs_arec_resize() - Change the length of an attribute
 * @c:		record size
 * @rec:	the record
 * @a:		an attribute of it
 * @new_len:	its new length, a multiple of 8, at least a resident header
 *
 * The attributes after @a move; new bytes at the end of @a are zeroed, and
 * so are the bytes freed at the end of the record.
 *
 * Return: 0, -ENOSPC when the record lacks the room, -EINVAL for a bad
 * length, -EIO when the record cannot be walked.
 */
int ntfs_arec_resize(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *a,
		     u32 new_len)
{
	struct ntfs_record *r = rec;
	u8 *p = rec;
	u32 end = ntfs_arec_end(p, c->rec_size), used = end + NTFS_AREC_END_SIZE;
	u32 ofs = (u8 *)a - p, old = le32_to_cpu(a->length), tail;

	if (new_len % 8 || new_len < NTFS_AREC_RESIDENT)
		return -EINVAL;
	if (!end || ofs >= end || old > end - ofs)
		return -EIO;
	if (new_len > old && new_len - old > c->rec_size - used)
		return -ENOSPC;
	tail = ofs + old;
	memmove(p + ofs + new_len, p + tail, used - tail);
	if (new_len > old)
		memset(p + tail, 0, new_len - old);
	else
		memset(p + used - (old - new_len), 0, old - new_len);
	a->length = cpu_to_le32(new_len);
	r->bytes_in_use = cpu_to_le32(used - old + new_len);
	return 0;
}

/*
 * Resize @a to hold @len bytes from @ofs on, and zero what follows them:
 * the padding may hold bytes of a longer former body.
 */
static int ntfs_arec_set_body(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *a,
			      u32 ofs, u32 len)
{
	u32 new_len;
	int err;

	if (len > c->rec_size)
		return -ENOSPC;
	new_len = ntfs_align8(ofs + len);
	err = ntfs_arec_resize(c, rec, a, new_len);
	if (!err)
		memset((u8 *)a + ofs + len, 0, new_len - ofs - len);
	return err;
}

/**
 * ntfs_arec_set_value_len() - Resize the value of a resident attribute
 * @c:		record size
 * @rec:	the record
 * @a:		a resident attribute of it
 * @len:	the new value length
 *
 * A longer value is zero-filled at its end.
 *
 * Return: 0, -ENOSPC when the record lacks the room, -EINVAL if @a is not
 * resident, -EIO when the record cannot be walked.
 */
int ntfs_arec_set_value_len(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *a,
			    u32 len)
{
	u32 vofs = le16_to_cpu(a->r.value_offset), old = le32_to_cpu(a->r.value_length);
	int err;

	if (a->non_resident)
		return -EINVAL;
	err = ntfs_arec_set_body(c, rec, a, vofs, len);
	if (err)
		return err;
	if (len > old)
		memset((u8 *)a + vofs + old, 0, len - old);
	a->r.value_length = cpu_to_le32(len);
	return 0;
}

/**
 * ntfs_arec_set_mp_len() - Make room for mapping pairs of a new length
 * @c:		record size
 * @rec:	the record
 * @a:		a non-resident attribute of it
 * @len:	bytes of mapping pairs, terminator included
 *
 * The caller writes the mapping pairs afterwards; bytes past @len are zero.
 *
 * Return: as ntfs_arec_resize(); -EINVAL if @a is resident.
 */
int ntfs_arec_set_mp_len(const struct ntfs_arec_ctx *c, void *rec, struct ntfs_attr *a,
			 u32 len)
{
	u32 mofs = le16_to_cpu(a->nr.mp_offset);

	if (!a->non_resident)
		return -EINVAL;
	return ntfs_arec_set_body(c, rec, a, mofs, len);
}

/**
 * ntfs_arec_free() - Bytes an attribute could still grow by in a record
 * @c:		record size
 * @rec:	the record
 *
 * Return: the free bytes, 0 when the record cannot be walked.
 */
u32 ntfs_arec_free(const struct ntfs_arec_ctx *c, const void *rec)
{
	u32 end = ntfs_arec_end(rec, c->rec_size);

	return end ? c->rec_size - end - NTFS_AREC_END_SIZE : 0;
}
