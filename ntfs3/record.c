// SPDX-License-Identifier: GPL-2.0
/*
 * MFT records: reading one through the $MFT stream, the update sequence
 * (fixup) check, and walking the attributes of one record with every offset
 * and length checked before it is used.  The attributes of a file whose
 * records are several are attrib.c's.
 */

#include "ntfs3.h"

/**
 * ntfs_fixup() - Check and undo the update sequence of a protected block
 * @buf:	the block (an MFT record, an index block, ...)
 * @size:	its size in bytes, a multiple of 512
 * @magic:	the magic it must start with
 *
 * The last two bytes of every 512-byte stride were replaced by the update
 * sequence number when the block was written; they must all still hold it
 * (otherwise the write was torn) and get their saved values back.
 *
 * Return: 0, or -EIO when the block is not intact.
 */
int ntfs_fixup(void *buf, u32 size, u32 magic)
{
	struct ntfs_usa_header *h = buf;
	u32 ofs = le16_to_cpu(h->usa_offset);
	u32 count = le16_to_cpu(h->usa_count);
	__le16 *usa = buf + ofs;
	u32 i;

	if (size < NTFS_USA_STRIDE || size % NTFS_USA_STRIDE ||
	    le32_to_cpu(h->magic) != magic)
		return -EIO;
	if (count != size / NTFS_USA_STRIDE + 1 || (ofs & 1) ||
	    ofs < sizeof(*h) || ofs + 2 * count > NTFS_USA_STRIDE - 2)
		return -EIO;

	for (i = 1; i < count; i++) {
		__le16 *tail = buf + i * NTFS_USA_STRIDE - 2;

		if (*tail != usa[0])
			return -EIO;
		*tail = usa[i];
	}
	return 0;
}

/**
 * ntfs_unfixup() - Apply the update sequence to a block before it is written
 * @buf:	the block, fixups removed (as ntfs_fixup() left it); its update
 *		sequence array was checked then
 * @size:	its size in bytes, a multiple of 512
 *
 * The sequence number advances (skipping 0 and 0xffff, which readers may
 * take for "never written"), each stride's last two bytes are saved in
 * the array and replaced by the number, so that a write torn between
 * sectors is detected when the block is read.
 */
void ntfs_unfixup(void *buf, u32 size)
{
	struct ntfs_usa_header *h = buf;
	__le16 *usa = buf + le16_to_cpu(h->usa_offset);
	u16 usn = le16_to_cpu(usa[0]) + 1;
	u32 i;

	if (!usn || usn == 0xffff)
		usn = 1;
	usa[0] = cpu_to_le16(usn);
	for (i = 1; i <= size / NTFS_USA_STRIDE; i++) {
		__le16 *tail = buf + i * NTFS_USA_STRIDE - 2;

		usa[i] = *tail;
		*tail = usa[0];
	}
}

/* Checks of the record header that every later offset relies on. */
int ntfs_check_record_header(struct ntfs_sb *sbi, const struct ntfs_record *r)
{
	u32 used = le32_to_cpu(r->bytes_in_use);
	u32 first = le16_to_cpu(r->attrs_offset);
	u32 usa_end = le16_to_cpu(r->usa.usa_offset) + 2 * le16_to_cpu(r->usa.usa_count);

	if (le32_to_cpu(r->bytes_allocated) != sbi->record_size)
		return -EIO;
	if (used > sbi->record_size || first < usa_end || first % 8 ||
	    first + 8 > used)
		return -EIO;
	return 0;
}

/**
 * ntfs_read_record() - Read and check one MFT record
 * @sbi:	the volume
 * @nr:		record number
 * @buf:	a buffer of @sbi->record_size bytes
 *
 * Return: 0; -EIO for a record that is damaged or beyond $MFT; another
 * error from the page cache.
 */
int ntfs_read_record(struct ntfs_sb *sbi, u64 nr, void *buf)
{
	int err;

	if (nr >= sbi->mft_records)
		return ntfs_err_ratelimited(sbi->sb, nr, "referenced, but beyond the end of $MFT");
	err = ntfs_read_stream(sbi->mft, nr << sbi->record_bits, buf, sbi->record_size);
	if (err)
		return err;
	if (ntfs_fixup(buf, sbi->record_size, NTFS_MAGIC_FILE))
		return ntfs_err_ratelimited(sbi->sb, nr,
					    "no FILE magic, or update sequence broken (torn write)");
	if (ntfs_check_record_header(sbi, buf))
		return ntfs_err_ratelimited(sbi->sb, nr,
					    "header: record size, bytes_in_use or attrs_offset out of bounds");
	return 0;
}

/*
 * The VCN range of one extent of a non-resident attribute.  VCNs are
 * below 2^62 (no volume reaches that many clusters).  An extent without
 * runs is legal: its highest VCN is its lowest minus one, which for the
 * first extent is -1 on disk (a stream truncated to zero, as Windows and
 * the in-tree driver leave it, or an extent whose runs were all removed).
 */
static bool ntfs_extent_vcns_ok(u64 lowest, u64 highest)
{
	if (lowest >= NTFS_MAX_VCN)
		return false;
	if (highest == U64_MAX)
		return lowest == 0;
	return highest < NTFS_MAX_VCN && lowest <= highest + 1;
}

/*
 * Checks of one attribute header at @ofs of a record with @used bytes.
 * Return NULL when it is sound, else the rule it breaks.
 */
static const char *ntfs_attr_problem(const u8 *rec, u32 used, u32 ofs)
{
	const struct ntfs_attr *a = (const void *)(rec + ofs);
	u32 len, name_end;

	if (ofs + 16 > used)
		return "attribute header past bytes_in_use";
	len = le32_to_cpu(a->length);
	if (len < NTFS_ATTR_RESIDENT_HDR || len % 8 || len > used - ofs)
		return "attribute length too small, unaligned or past bytes_in_use";
	name_end = le16_to_cpu(a->name_offset) + 2 * a->name_length;
	if (a->name_length && name_end > len)
		return "attribute name past the attribute";

	if (!a->non_resident) {
		u32 vofs = le16_to_cpu(a->r.value_offset);
		u32 vlen = le32_to_cpu(a->r.value_length);

		return vofs <= len && vlen <= len - vofs ? NULL :
		       "resident value past the attribute";
	}
	if (len < NTFS_ATTR_NONRES_HDR || le16_to_cpu(a->nr.mp_offset) >= len ||
	    (a->nr.compression_unit && len < NTFS_ATTR_NONRES_HDR_C))
		return "non-resident header or mapping pairs past the attribute";
	if (!ntfs_extent_vcns_ok(le64_to_cpu(a->nr.lowest_vcn),
				 le64_to_cpu(a->nr.highest_vcn)))
		return "VCN range: lowest_vcn <= highest_vcn + 1 < 2^62";
	/* Sizes are only meaningful in the first extent. */
	if (!a->nr.lowest_vcn &&
	    (le64_to_cpu(a->nr.data_size) > le64_to_cpu(a->nr.allocated_size) ||
	     le64_to_cpu(a->nr.valid_size) > le64_to_cpu(a->nr.data_size) ||
	     le64_to_cpu(a->nr.allocated_size) >= NTFS_MAX_VCN))
		return "sizes: initialized <= data <= allocated < 2^62";
	return NULL;
}

/**
 * ntfs_next_attr() - The attribute after @prev in a record
 * @rec:	a record that passed ntfs_read_record()
 * @prev:	the previous attribute, or NULL for the first
 * @why:	if not NULL, set to the rule a damaged header breaks
 *
 * Return: the next attribute, NULL at the end marker, or an ERR_PTR(-EIO)
 * when a header is out of bounds.
 */
struct ntfs_attr *ntfs_next_attr(const void *rec, const struct ntfs_attr *prev,
				 const char **why)
{
	const struct ntfs_record *r = rec;
	u32 used = le32_to_cpu(r->bytes_in_use);
	const char *problem;
	u32 ofs;

	if (!prev)
		ofs = le16_to_cpu(r->attrs_offset);
	else
		ofs = (const u8 *)prev - (const u8 *)rec + le32_to_cpu(prev->length);

	if (ofs + 4 > used) {
		problem = "no end marker before bytes_in_use";
	} else {
		if (*(const __le32 *)((const u8 *)rec + ofs) == cpu_to_le32(NTFS_AT_END))
			return NULL;
		problem = ntfs_attr_problem(rec, used, ofs);
	}
	if (!problem)
		return (struct ntfs_attr *)((u8 *)rec + ofs);
	if (why)
		*why = problem;
	return ERR_PTR(-EIO);
}

/**
 * ntfs_attr_value() - Value of a resident attribute
 * @a:		the attribute, checked by ntfs_next_attr()
 * @min_len:	smallest acceptable value length
 *
 * Return: the value, or NULL when @a is non-resident or shorter.
 */
void *ntfs_attr_value(const struct ntfs_attr *a, u32 min_len)
{
	if (a->non_resident || le32_to_cpu(a->r.value_length) < min_len)
		return NULL;
	return (u8 *)a + le16_to_cpu(a->r.value_offset);
}

/**
 * ntfs_attr_name_is() - Whether an attribute has the given name
 * @a:		the attribute
 * @name:	UTF-16 name, or NULL for the unnamed attribute
 * @len:	units in @name
 */
bool ntfs_attr_name_is(const struct ntfs_attr *a, const __le16 *name, u8 len)
{
	if (a->name_length != len)
		return false;
	return !len || !memcmp((const u8 *)a + le16_to_cpu(a->name_offset), name, 2 * len);
}

/*
 * The record cache: a few MFT records, fixups removed, each exactly what
 * $MFT's page cache holds in its bytes in use.  A record one transaction
 * wrote, or an inode read, is often the next one another transaction
 * changes (a file looked up, then unlinked, then deleted at eviction; a
 * small directory's record at each change of its index): it takes the
 * copy instead of copying the record out of the page cache again.  A
 * copy is taken, not shared: the taker owns it, and the page cache is the
 * truth again until a commit keeps the new one.  Every write of a record
 * into the page cache counts in rcache_gen and drops the record's copy,
 * so a copy read, or written, before a write that another thread has
 * already finished is never kept.  Records that $MFTMirr mirrors are
 * never kept: the mirror gets whole records.
 */

/**
 * ntfs_rcache_gen() - The record cache's count of writes
 * @sbi:	the volume
 *
 * Return: the count to give ntfs_rcache_keep() for a record read, or
 * written, after this.
 */
u64 ntfs_rcache_gen(struct ntfs_sb *sbi)
{
	u64 gen;

	spin_lock(&sbi->rcache_lock);
	gen = sbi->rcache_gen;
	spin_unlock(&sbi->rcache_lock);
	return gen;
}

/* The slot holding record @nr, or NULL; under rcache_lock. */
static struct ntfs_rcache_slot *ntfs_rcache_find(struct ntfs_sb *sbi, u64 nr)
{
	unsigned int i;

	for (i = 0; i < NTFS_RCACHE; i++)
		if (sbi->rcache[i].buf && sbi->rcache[i].nr == nr)
			return &sbi->rcache[i];
	return NULL;
}

/**
 * ntfs_rcache_keep() - Offer a record to the record cache
 * @sbi:	the volume
 * @nr:		its number
 * @buf:	the record, fixups removed, @sbi->record_size bytes from
 *		kmalloc(); consumed (kept or freed)
 * @gen:	ntfs_rcache_gen() from before it was read or written
 * @written:	@buf was just written into the page cache (else read from it)
 *
 * @buf is kept when no record was written since @gen: then it is what the
 * page cache holds.  A write also drops any older copy of @nr.
 */
void ntfs_rcache_keep(struct ntfs_sb *sbi, u64 nr, void *buf, u64 gen, bool written)
{
	struct ntfs_rcache_slot *s;
	void *old = NULL;

	spin_lock(&sbi->rcache_lock);
	s = ntfs_rcache_find(sbi, nr);
	if (s && written) {
		old = s->buf;
		s->buf = NULL;
	}
	if (sbi->rcache_gen != gen || nr < sbi->mirror_records || (s && !written)) {
		/* A copy of @nr that this one replaces would be older still. */
		if (written)
			sbi->rcache_gen++;
		spin_unlock(&sbi->rcache_lock);
		kfree(old);
		kfree(buf);
		return;
	}
	if (written)
		sbi->rcache_gen++;
	if (!s) {
		s = &sbi->rcache[sbi->rcache_next];
		sbi->rcache_next = (sbi->rcache_next + 1) % NTFS_RCACHE;
		old = s->buf;
	}
	s->nr = nr;
	s->buf = buf;
	spin_unlock(&sbi->rcache_lock);
	kfree(old);
}

/**
 * ntfs_rcache_take() - Take record @nr out of the record cache
 * @sbi:	the volume
 * @nr:		record number
 *
 * Return: the copy, now the caller's to change and kfree(); NULL when
 * there is none.
 */
void *ntfs_rcache_take(struct ntfs_sb *sbi, u64 nr)
{
	struct ntfs_rcache_slot *s;
	void *buf = NULL;

	spin_lock(&sbi->rcache_lock);
	s = ntfs_rcache_find(sbi, nr);
	if (s) {
		buf = s->buf;
		s->buf = NULL;
	}
	spin_unlock(&sbi->rcache_lock);
	return buf;
}

/**
 * ntfs_rcache_forget() - Record @nr was written into the page cache
 * @sbi:	the volume
 * @nr:		its number
 *
 * For a write outside ntfs_rcache_keep(): the cached copy goes.
 */
void ntfs_rcache_forget(struct ntfs_sb *sbi, u64 nr)
{
	struct ntfs_rcache_slot *s;
	void *old = NULL;

	spin_lock(&sbi->rcache_lock);
	sbi->rcache_gen++;
	s = ntfs_rcache_find(sbi, nr);
	if (s) {
		old = s->buf;
		s->buf = NULL;
	}
	spin_unlock(&sbi->rcache_lock);
	kfree(old);
}

/**
 * ntfs_rcache_drop() - Empty the record cache
 * @sbi:	the volume
 *
 * At unmount, when the volume's structures are freed.  (Growing $MFT
 * forgets each record it formats through ntfs_rcache_forget().)
 */
void ntfs_rcache_drop(struct ntfs_sb *sbi)
{
	void *old[NTFS_RCACHE];
	unsigned int i;

	spin_lock(&sbi->rcache_lock);
	sbi->rcache_gen++;
	for (i = 0; i < NTFS_RCACHE; i++) {
		old[i] = sbi->rcache[i].buf;
		sbi->rcache[i].buf = NULL;
	}
	spin_unlock(&sbi->rcache_lock);
	for (i = 0; i < NTFS_RCACHE; i++)
		kfree(old[i]);
}
