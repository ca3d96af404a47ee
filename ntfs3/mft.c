// SPDX-License-Identifier: GPL-2.0
/*
 * Growing $MFT: when $MFT:$BITMAP has no free record for a new file,
 * $MFT:$DATA gets more clusters, the new records are formatted as free
 * ones, and $MFT:$BITMAP grows to cover them, in a transaction of its own
 * (so that what a file operation aborts never shrinks $MFT back under the
 * records it handed out).
 */

#include <linux/slab.h>

#include "ntfs3.h"

/* Records added at a time (64 KiB of 1 KiB records), at least a cluster's worth. */
#define NTFS_MFT_GROW_RECORDS	64

/* Whether a record from 24 on is free (caller holds mft_lock). */
static bool ntfs_mft_has_free(struct ntfs_sb *sbi)
{
	u64 nr;

	return !ntfs_find_free_record(sbi, &nr);
}

/* Write free, formatted records over [@from, @to) of $MFT's page cache. */
static int ntfs_format_free_records(struct ntfs_sb *sbi, u64 from, u64 to)
{
	void *buf = kmalloc(sbi->record_size, GFP_NOFS);
	int err = buf ? 0 : -ENOMEM;
	u64 nr;

	for (nr = from; !err && nr < to; nr++) {
		ntfs_format_record(sbi, buf, nr, 1, 1, false);
		ntfs_unfixup(buf, sbi->record_size);
		err = ntfs_write_stream(sbi->mft, nr << sbi->record_bits, buf, sbi->record_size);
		ntfs_rcache_forget(sbi, nr);
	}
	kfree(buf);
	return err;
}

/* Make a metadata stream @size bytes long, allocated, and initialized to there. */
static int ntfs_meta_stream_grow(struct ntfs_trans *t, struct inode *inode, u64 size)
{
	struct ntfs_sb *sbi = t->sbi;
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u64 have = ns->alloc_size >> sbi->cluster_bits;
	u64 need = DIV_ROUND_UP(size, sbi->cluster_size);
	int err = 0;

	if (need > have)
		err = ntfs_stream_allocate(t, inode, have, need - have);
	if (!err)
		err = ntfs_stream_set_size(t, inode, size);
	if (!err)
		err = ntfs_stream_set_valid(t, inode, size);
	if (!err)
		i_size_write(inode, size);
	return err;
}

/* Zero the bytes [@from, @to) of a stream through its page cache. */
static int ntfs_zero_stream(struct inode *inode, u64 from, u64 to)
{
	static const u8 zeros[64];
	int err = 0;

	while (!err && from < to) {
		u32 n = min_t(u64, sizeof(zeros), to - from);

		err = ntfs_write_stream(inode, from, zeros, n);
		from += n;
	}
	return err;
}

/* The growth itself; caller holds both streams' ni_locks and mft_lock. */
static int ntfs_mft_grow(struct ntfs_trans *t)
{
	struct ntfs_sb *sbi = t->sbi;
	struct inode *bm = sbi->mft_bitmap;
	u64 old = sbi->mft_records, old_bm = NTFS_I(bm)->stream.data_size;
	u64 size = round_up((old + NTFS_MFT_GROW_RECORDS) << sbi->record_bits,
			    sbi->cluster_size);
	u64 records = size >> sbi->record_bits;
	u64 bm_size = round_up(DIV_ROUND_UP(records, 8), 8);
	int err;

	if (records > U32_MAX)
		return -ENOSPC;
	err = ntfs_meta_stream_grow(t, sbi->mft, size);
	if (!err)
		err = ntfs_format_free_records(sbi, old, records);
	if (!err && bm_size > old_bm) {
		err = ntfs_meta_stream_grow(t, bm, bm_size);
		if (!err)
			err = ntfs_zero_stream(bm, old_bm, bm_size);
	}
	if (!err)
		sbi->mft_records = records;
	return err;
}

/**
 * ntfs_mft_ensure_free() - Make sure $MFT has a free record for a new file
 * @sbi:	the volume
 *
 * Called before the transaction that takes the record; when none is free,
 * $MFT grows by NTFS_MFT_GROW_RECORDS records in a transaction of its own.
 *
 * Return: 0, -ENOSPC when the volume has no clusters for it, -EIO, ...
 */
int ntfs_mft_ensure_free(struct ntfs_sb *sbi)
{
	struct ntfs_inode *mni = NTFS_I(sbi->mft), *bni = NTFS_I(sbi->mft_bitmap);
	struct ntfs_trans t;
	int err;

	err = ntfs_trans_begin(sbi, &t);
	if (err)
		return err;
	mutex_lock(&mni->ni_lock);
	mutex_lock_nested(&bni->ni_lock, SINGLE_DEPTH_NESTING);
	mutex_lock(&sbi->mft_lock);
	if (ntfs_mft_has_free(sbi)) {
		mutex_unlock(&sbi->mft_lock);
		ntfs_trans_abort(&t);
		goto out;
	}
	err = ntfs_mft_grow(&t);
	mutex_unlock(&sbi->mft_lock);
	if (!err) {
		err = ntfs_trans_commit(&t);
	} else {
		/* The streams in memory went ahead of their records: back. */
		ntfs_trans_fail(&t, err);
		ntfs_stream_reload(sbi->mft);
		ntfs_stream_reload(sbi->mft_bitmap);
		i_size_write(sbi->mft, mni->stream.data_size);
		i_size_write(sbi->mft_bitmap, bni->stream.data_size);
	}
out:
	mutex_unlock(&bni->ni_lock);
	mutex_unlock(&mni->ni_lock);
	return err;
}
