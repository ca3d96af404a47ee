// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation: clusters from $Bitmap and MFT records from $MFT:$BITMAP,
 * both bitmaps searched and changed in their stream inodes' page caches
 * (bit n is bit n % 8 of byte n / 8).  Bits are taken at once inside a
 * transaction, so two transactions never get the same cluster; frees wait
 * for the commit (trans.c applies them).  Also the free-cluster count for
 * statfs and FITRIM.
 */

#include <linux/bitmap.h>
#include <linux/blkdev.h>
#include <linux/highmem.h>
#include <linux/pagemap.h>
#include <linux/slab.h>

#include "ntfs3.h"

/*
 * Records below this are never given to files: 0-15 are the system files
 * and reserved, 16-23 are kept for $MFT's own extension records, as
 * Windows does.
 */
#define NTFS_FIRST_FREE_RECORD	24

/* Bits per page of a bitmap stream. */
#define NTFS_BITS_PER_PAGE	(PAGE_SIZE * BITS_PER_BYTE)

/*
 * Find, in the bitmap inode, the first clear bit at or after @from and
 * before @end, and the end of the clear run there (at most @want long).
 * Returns the bit or @end when none; *@run_len gets the run length.
 */
static int ntfs_find_clear(struct inode *bm, u64 from, u64 end, u64 want, u64 *found,
			   u64 *run_len)
{
	u64 bit = from, start = end;
	int err;

	*run_len = 0;
	while (bit < end) {
		struct folio *folio;
		unsigned long *map;
		u64 base = bit & ~(u64)(NTFS_BITS_PER_PAGE - 1);
		u32 n = min_t(u64, NTFS_BITS_PER_PAGE, end - base), i = bit - base;

		err = ntfs_walk_step();
		if (err)
			return err;
		folio = ntfs_stream_folio(bm, bit / NTFS_BITS_PER_PAGE, NTFS_BITMAP_READ_AROUND);
		if (IS_ERR(folio))
			return -EIO;
		map = kmap_local_folio(folio, offset_in_folio(folio, base / BITS_PER_BYTE));
		if (start == end) {
			i = find_next_zero_bit_le(map, n, i);
			if (i < n)
				start = base + i;
		}
		if (start != end) {
			u32 stop = find_next_bit_le(map, n, i);

			*run_len += stop - i;
			if (stop < n || *run_len >= want) {
				kunmap_local(map);
				folio_put(folio);
				break;
			}
		}
		kunmap_local(map);
		folio_put(folio);
		bit = base + n;
	}
	*found = start;
	*run_len = min(*run_len, want);
	return 0;
}

/*
 * Look for a free run in [@from, @end), then from the start: the first
 * run of @want bits, else the longest one met.  Caller holds the lock.
 */
static int ntfs_pick_run(struct inode *bm, u64 from, u64 end, u64 want, u64 *start,
			 u64 *len)
{
	u64 pos = from, best = 0, best_len = 0, found, n;
	bool wrapped = false;
	int err;

	for (;;) {
		if (pos >= end) {
			if (wrapped || !from)
				break;
			wrapped = true;
			pos = 0;
			end = from;
		}
		err = ntfs_find_clear(bm, pos, end, want, &found, &n);
		if (err)
			return err;
		if (found >= end) {
			pos = end;
			continue;
		}
		if (n > best_len) {
			best = found;
			best_len = n;
		}
		if (n >= want)
			break;
		pos = found + n;
	}
	*start = best;
	*len = best_len;
	return best_len ? 0 : -ENOSPC;
}

/**
 * ntfs_unreserved_clusters() - Free clusters not reserved for delayed data
 * @sbi:	the volume; bitmap_lock held for an answer that stays true
 *		(statfs takes a look without it)
 *
 * Return: the count, or -1 while the free clusters are not counted.
 */
s64 ntfs_unreserved_clusters(struct ntfs_sb *sbi)
{
	s64 free = atomic64_read(&sbi->free_clusters);
	u64 reserved = READ_ONCE(sbi->da_reserved);

	if (free < 0)
		return -1;
	return (u64)free > reserved ? free - reserved : 0;
}

/*
 * Clusters reserved for delayed data (writeback.c) are not free for
 * anyone else: @want shrinks to what is left.  Caller holds bitmap_lock.
 */
static int ntfs_cap_unreserved(struct ntfs_sb *sbi, u64 *want)
{
	s64 avail = ntfs_unreserved_clusters(sbi);

	if (avail < 0)
		return 0;
	if (!avail)
		return -ENOSPC;
	*want = min_t(u64, *want, avail);
	return 0;
}

/**
 * ntfs_alloc_clusters() - Take one contiguous run of free clusters
 * @t:		the transaction (abort gives them back)
 * @hint:	the cluster to look from (after the file's last run), or 0
 * @want:	clusters wanted, at least 1
 * @got:	set to the run taken (@got->vcn untouched): 1..@want clusters
 *
 * The first free run of @want clusters from @hint on (wrapping once) is
 * taken; when there is none, the longest free run met, and the caller
 * asks again for the rest.  Clusters reserved for delayed data are left.
 *
 * Return: 0, -ENOSPC when no cluster is free, -EIO, -ENOMEM, -EINTR.
 */
int ntfs_alloc_clusters(struct ntfs_trans *t, u64 hint, u64 want, struct ntfs_run *got)
{
	struct ntfs_sb *sbi = t->sbi;
	u64 start, len;
	int err;

	if (!want)
		return -EINVAL;
	if (hint >= sbi->total_clusters)
		hint = 0;
	if (!hint)
		hint = READ_ONCE(sbi->next_lcn);
	mutex_lock(&sbi->bitmap_lock);
	err = ntfs_cap_unreserved(sbi, &want);
	if (!err)
		err = ntfs_pick_run(sbi->bitmap, hint, sbi->total_clusters, want, &start, &len);
	if (!err)
		err = ntfs_trans_note_bits(t, false, false, start, len);
	if (!err) {
		err = ntfs_stream_change_bits(sbi->bitmap, start, len, true);
		if (err)
			t->nr_bits--;
	}
	if (!err && atomic64_read(&sbi->free_clusters) >= 0)
		atomic64_sub(len, &sbi->free_clusters);
	if (!err)
		WRITE_ONCE(sbi->next_lcn, start + len);
	mutex_unlock(&sbi->bitmap_lock);
	if (err)
		return err;
	got->lcn = start;
	got->len = len;
	return 0;
}

/**
 * ntfs_free_clusters() - Free clusters when the transaction commits
 * @t:		the transaction
 * @lcn:	first cluster
 * @len:	number of clusters
 *
 * Return: 0, -EIO for a run outside the volume, -ENOMEM.
 */
int ntfs_free_clusters(struct ntfs_trans *t, u64 lcn, u64 len)
{
	struct ntfs_sb *sbi = t->sbi;

	if (lcn >= sbi->total_clusters || len > sbi->total_clusters - lcn)
		return ntfs_err_ratelimited(sbi->sb, NTFS_BITMAP_INO,
					    "freeing clusters %llu+%llu outside the volume",
					    lcn, len);
	return ntfs_trans_note_bits(t, false, true, lcn, len);
}

/**
 * ntfs_find_free_record() - The first free record for a file, not taken
 * @sbi:	the volume; caller holds mft_lock
 * @nr:		set to the record number
 *
 * Looks from the record after the last one handed out, wrapping to 24.
 *
 * Return: 0, -ENOSPC when $MFT is full, -EIO, -EINTR.
 */
int ntfs_find_free_record(struct ntfs_sb *sbi, u64 *nr)
{
	u64 from = max_t(u64, READ_ONCE(sbi->next_record), NTFS_FIRST_FREE_RECORD);
	u64 end = min_t(u64, sbi->mft_records,
			NTFS_I(sbi->mft_bitmap)->stream.data_size * BITS_PER_BYTE);
	u64 found, n;
	int err;

	lockdep_assert_held(&sbi->mft_lock);
	if (from >= end)
		from = NTFS_FIRST_FREE_RECORD;
	err = ntfs_find_clear(sbi->mft_bitmap, from, end, 1, &found, &n);
	if (!err && found >= end && from > NTFS_FIRST_FREE_RECORD) {
		/* The wrapped search ends at @from: "none" comes back as @from. */
		err = ntfs_find_clear(sbi->mft_bitmap, NTFS_FIRST_FREE_RECORD, from, 1,
				      &found, &n);
		if (!err && found >= from)
			found = end;
	}
	if (!err && found >= end)
		err = -ENOSPC;
	if (!err)
		*nr = found;
	return err;
}

/*
 * Set record @nr's bit in $MFT:$BITMAP, noted in @t first so that abort
 * clears it again; a failed change takes the note back.  mft_lock held.
 */
static int ntfs_take_record_bit(struct ntfs_trans *t, u64 nr)
{
	int err;

	lockdep_assert_held(&t->sbi->mft_lock);
	err = ntfs_trans_note_bits(t, true, false, nr, 1);
	if (err)
		return err;
	err = ntfs_stream_change_bits(t->sbi->mft_bitmap, nr, 1, true);
	if (err)
		t->nr_bits--;
	return err;
}

/**
 * ntfs_alloc_record() - Take a free MFT record for a new file
 * @t:		the transaction (abort gives it back)
 * @nr:		set to the record number
 *
 * Records from 24 on; the caller formats it with ntfs_trans_new_record().
 * A full $MFT is -ENOSPC: mft.c grows it before the caller's transaction.
 *
 * Return: 0, -ENOSPC, -EIO, -ENOMEM, -EINTR.
 */
int ntfs_alloc_record(struct ntfs_trans *t, u64 *nr)
{
	struct ntfs_sb *sbi = t->sbi;
	u64 found;
	int err;

	mutex_lock(&sbi->mft_lock);
	err = ntfs_find_free_record(sbi, &found);
	if (!err)
		err = ntfs_take_record_bit(t, found);
	if (!err)
		WRITE_ONCE(sbi->next_record, found + 1);
	mutex_unlock(&sbi->mft_lock);
	if (!err)
		*nr = found;
	return err;
}

/* Whether record @nr lies in $MFT's first run, readable from record 0 alone. */
static bool ntfs_mft_first_run_holds(struct ntfs_sb *sbi, u64 nr)
{
	struct ntfs_stream *ns = &NTFS_I(sbi->mft)->stream;
	bool ok;

	down_read(&ns->run_lock);
	ok = ns->nr_runs && !ns->runs[0].vcn && ns->runs[0].lcn >= 0 &&
	     ((nr + 1) << sbi->record_bits) <= (ns->runs[0].len << sbi->cluster_bits);
	up_read(&ns->run_lock);
	return ok;
}

/**
 * ntfs_alloc_mft_xrecord() - Take a record kept for $MFT's own extents
 * @t:		the transaction (abort gives it back); caller holds mft_lock
 * @nr:		set to the record number
 *
 * When $MFT's runs outgrow record 0, its later extents go to extension
 * records, found through its attribute list.  A reader must find them
 * before it knows where the rest of $MFT is, so they come from records
 * 16-23 (kept free for this, as Windows does), which lie in $MFT's first
 * run.  The caller formats it with ntfs_trans_new_record().
 *
 * Return: 0, -ENOSPC when all eight are taken (or not in the first run),
 * -EIO, -ENOMEM, -EINTR.
 */
int ntfs_alloc_mft_xrecord(struct ntfs_trans *t, u64 *nr)
{
	struct ntfs_sb *sbi = t->sbi;
	u64 found, n;
	int err;

	lockdep_assert_held(&sbi->mft_lock);
	err = ntfs_find_clear(sbi->mft_bitmap, NTFS_FIRST_USER_INO, NTFS_FIRST_FREE_RECORD, 1,
			      &found, &n);
	if (!err && (found >= NTFS_FIRST_FREE_RECORD || !ntfs_mft_first_run_holds(sbi, found)))
		err = -ENOSPC;
	if (!err)
		err = ntfs_take_record_bit(t, found);
	if (!err)
		*nr = found;
	return err;
}

/**
 * ntfs_free_record() - Free an MFT record when the transaction commits
 * @t:		the transaction
 * @nr:		the record; the caller clears its in-use flag and advances
 *		its sequence number in the same transaction
 *
 * Return: 0, -EIO, -ENOMEM.
 */
int ntfs_free_record(struct ntfs_trans *t, u64 nr)
{
	if (nr < NTFS_FIRST_USER_INO || nr >= t->sbi->mft_records)
		return ntfs_err_ratelimited(t->sbi->sb, nr, "freeing a system or missing record");
	return ntfs_trans_note_bits(t, true, true, nr, 1);
}

/**
 * ntfs_trim() - FITRIM: discard the free runs of clusters in a range
 * @sbi:	the volume
 * @start:	first cluster
 * @end:	cluster after the range
 * @minlen:	shortest run worth discarding, in clusters
 * @trimmed:	set to the clusters discarded
 *
 * Each run is discarded under the bitmap lock, so that no cluster is
 * handed out while the device forgets it.
 *
 * Return: 0, -EINTR, -EIO.
 */
int ntfs_trim(struct ntfs_sb *sbi, u64 start, u64 end, u64 minlen, u64 *trimmed)
{
	u64 found, n;
	int err = 0;

	*trimmed = 0;
	end = min(end, sbi->total_clusters);
	while (!err && start < end) {
		mutex_lock(&sbi->bitmap_lock);
		err = ntfs_find_clear(sbi->bitmap, start, end, end - start, &found, &n);
		if (!err && found < end && n >= minlen && !ntfs_discard_clusters(sbi, found, n))
			*trimmed += n;
		mutex_unlock(&sbi->bitmap_lock);
		start = found + max_t(u64, n, 1);
	}
	return err;
}

/**
 * ntfs_count_free_clusters() - Free clusters, from $Bitmap, counted once
 * @sbi:	the volume
 *
 * Afterwards allocation and freeing keep the count exact.
 *
 * Return: the count, or -1 when $Bitmap is unreadable.
 */
s64 ntfs_count_free_clusters(struct ntfs_sb *sbi)
{
	s64 cached = atomic64_read(&sbi->free_clusters);
	u64 bits = sbi->total_clusters, used = 0, pos = 0;
	struct inode *bm = sbi->bitmap;

	if (cached >= 0)
		return cached;
	if (!bm)
		return -1;
	mutex_lock(&sbi->bitmap_lock);
	while (pos < bits) {
		struct folio *folio;
		unsigned long *map;
		u64 n;

		if (ntfs_walk_step())
			break;
		folio = ntfs_stream_folio(bm, (pos / 8) >> PAGE_SHIFT, NTFS_BITMAP_READ_AROUND);
		if (IS_ERR(folio))
			break;
		n = min_t(u64, bits - pos, (u64)folio_size(folio) * 8);
		map = kmap_local_folio(folio, 0);
		used += bitmap_weight(map, n);
		kunmap_local(map);
		folio_put(folio);
		pos += n;
	}
	if (pos >= bits)
		atomic64_set(&sbi->free_clusters, bits - used);
	mutex_unlock(&sbi->bitmap_lock);
	return pos >= bits ? (s64)(bits - used) : -1;
}

/**
 * ntfs_free_attr_clusters() - Free the clusters of one extent of an attribute
 * @t:		the transaction (the clusters are freed when it commits)
 * @nr:		the record of the file, for messages
 * @a:		a non-resident attribute
 *
 * Return: 0, -EIO for mapping pairs that do not decode, -ENOMEM.
 */
int ntfs_free_attr_clusters(struct ntfs_trans *t, u64 nr, const struct ntfs_attr *a)
{
	struct ntfs_sb *sbi = t->sbi;
	u32 mp = le16_to_cpu(a->nr.mp_offset);
	struct ntfs_run *runs = NULL;
	unsigned int n = 0, cap = 0, i;
	const char *why;
	int err;

	err = ntfs_decode_runs((const u8 *)a + mp, le32_to_cpu(a->length) - mp,
			       le64_to_cpu(a->nr.lowest_vcn), le64_to_cpu(a->nr.highest_vcn),
			       sbi->total_clusters, &runs, &n, &cap, &why);
	if (err)
		err = ntfs_err_ratelimited(sbi->sb, nr, "attribute 0x%x: %s",
					   le32_to_cpu(a->type), why);
	for (i = 0; !err && i < n; i++)
		if (runs[i].lcn != NTFS_LCN_HOLE)
			err = ntfs_free_clusters(t, runs[i].lcn, runs[i].len);
	kvfree(runs);
	return err;
}

/**
 * ntfs_alloc_runs() - Clusters for a small value that is written at once
 * @t:		the transaction (returned by its abort)
 * @clusters:	how many
 * @runs:	filled with the runs, VCN 0 on; room for @clusters runs
 * @nr:		set to the runs used
 *
 * Return: 0, -ENOSPC, -EIO, -ENOMEM.
 */
int ntfs_alloc_runs(struct ntfs_trans *t, u64 clusters, struct ntfs_run *runs, unsigned int *nr)
{
	u64 vcn = 0, hint = 0;
	int err = 0;

	*nr = 0;
	while (!err && vcn < clusters) {
		struct ntfs_run got;

		err = ntfs_alloc_clusters(t, hint, clusters - vcn, &got);
		if (err)
			break;
		runs[*nr].vcn = vcn;
		runs[*nr].lcn = got.lcn;
		runs[*nr].len = min(got.len, clusters - vcn);
		vcn += runs[*nr].len;
		hint = got.lcn + got.len;
		(*nr)++;
	}
	return err;
}
