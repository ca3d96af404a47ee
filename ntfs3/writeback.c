// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback and delayed allocation.  A write that extends a plain file past
 * its allocation only reserves clusters; the clusters are taken later, all
 * at once, when the data is about to be written (writeback, fsync, the
 * last close, or any change that needs the runs as they will be).  The
 * record keeps the sizes it had until then: it never names a size its
 * allocation does not cover.  Also the transaction-per-change helper the
 * writers share (ntfs_change()), and the address space operations.
 */

#include <linux/iomap.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>

#include "ntfs3.h"

/* ---- one change to one file ---------------------------------------------- */

/* Run @fn(@a, @b) on @inode in a transaction under its ni_lock. */
static int ntfs_change_once(struct inode *inode,
			    int (*fn)(struct ntfs_trans *t, struct inode *inode, u64 a, u64 b),
			    u64 a, u64 b)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_trans t;
	int err = ntfs_trans_begin(NTFS_SB(inode->i_sb), &t);

	if (err)
		return err;
	mutex_lock(&ni->ni_lock);
	err = fn(&t, inode, a, b);
	if (!err) {
		err = ntfs_trans_commit(&t);
	} else {
		/* The stream in memory may have gone ahead of its record. */
		ntfs_trans_fail(&t, err);
		ntfs_stream_reload(inode);
	}
	mutex_unlock(&ni->ni_lock);
	return err;
}

/**
 * ntfs_change() - Change one file in one transaction
 * @inode:	the file
 * @fn:		the change, called with a transaction and the file's ni_lock
 * @a:		its first argument
 * @b:		its second argument
 *
 * As ntfs_change_once(), once more after $MFT has grown when it ran out
 * of room: a stream whose runs spill into a new extent needs a free MFT
 * record, and $MFT grows only in a transaction of its own.
 *
 * Return: what @fn or the commit returned.
 */
int ntfs_change(struct inode *inode,
		int (*fn)(struct ntfs_trans *t, struct inode *inode, u64 a, u64 b),
		u64 a, u64 b)
{
	int err = ntfs_change_once(inode, fn, a, b);

	if (err == -ENOSPC && !ntfs_mft_ensure_free(NTFS_SB(inode->i_sb)))
		err = ntfs_change_once(inode, fn, a, b);
	return err;
}

/* ---- delayed allocation ---------------------------------------------------- */

/*
 * Clusters kept free for what is not reserved: metadata (index blocks,
 * extension records, $MFT growing) and the allocation of a delayed tail
 * that needs more runs than its record holds.  Writes that would reserve
 * into it allocate at once instead, so ENOSPC comes from the write.
 */
static u64 ntfs_delay_margin(const struct ntfs_sb *sbi)
{
	return max_t(u64, sbi->total_clusters >> 6, 64);
}

/* Clusters a plain stream lacks to hold @size bytes. */
static u64 ntfs_delay_need(struct inode *inode, u64 size)
{
	const struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	u64 have = NTFS_I(inode)->stream.alloc_size >> sbi->cluster_bits;
	u64 want = (size + sbi->cluster_size - 1) >> sbi->cluster_bits;

	return want > have ? want - have : 0;
}

/* Reserve @n clusters; false when that would eat into the margin. */
static bool ntfs_delay_take(struct ntfs_sb *sbi, u64 n)
{
	s64 avail;
	bool ok;

	mutex_lock(&sbi->bitmap_lock);
	avail = ntfs_unreserved_clusters(sbi);
	ok = avail >= 0 && (u64)avail >= n + ntfs_delay_margin(sbi);
	if (ok)
		sbi->da_reserved += n;
	mutex_unlock(&sbi->bitmap_lock);
	return ok;
}

/* Give back @n reserved clusters of @ni (its ni_lock held). */
static void ntfs_delay_give(struct ntfs_sb *sbi, struct ntfs_inode *ni, u64 n)
{
	if (!n)
		return;
	mutex_lock(&sbi->bitmap_lock);
	sbi->da_reserved -= min(n, sbi->da_reserved);
	mutex_unlock(&sbi->bitmap_lock);
	ni->da_reserved -= n;
}

/* Files whose data may wait for its clusters: plain streams of user files. */
static bool ntfs_delay_allowed(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	const struct ntfs_stream *ns = &ni->stream;

	return S_ISREG(inode->i_mode) && !ni->owner && ni->record >= NTFS_FIRST_USER_INO &&
	       !ns->resident && !ns->sparse && !ns->compressed && !ns->encrypted &&
	       !NTFS_SB(inode->i_sb)->opt.nodelalloc;
}

/**
 * ntfs_delay_begin() - Whether a buffered write may leave its clusters for later
 * @inode:	the file, i_rwsem held
 * @pos:	where the write starts
 * @count:	bytes it writes
 *
 * A write may when the file's data runs without a gap from its start to
 * @pos: the file has delayed data and @pos is not past its end, or it has
 * none, its valid size is its size and @pos not past that, and the write
 * reaches past the allocation.  Then everything up to the end of the file
 * is data written since, and the size recorded later is also the valid
 * size.  The clusters it lacks are reserved (if they can be).  A true
 * return must be followed by ntfs_delay_end().
 *
 * Return: true when the write goes on with ntfs_delay_iomap_ops.
 */
bool ntfs_delay_begin(struct inode *inode, loff_t pos, size_t count)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_stream *ns = &ni->stream;
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	loff_t end = max_t(loff_t, pos + count, i_size_read(inode));
	bool ok;
	u64 need;

	if (!ntfs_delay_allowed(inode))
		return false;
	/* Only writers set the flag, and they hold i_rwsem as we do. */
	if (!test_bit(NTFS_NI_DELAYED, &ni->flags) && pos + count <= READ_ONCE(ns->alloc_size))
		return false;
	mutex_lock(&ni->ni_lock);
	if (test_bit(NTFS_NI_DELAYED, &ni->flags))
		ok = pos <= i_size_read(inode);
	else
		ok = ns->valid_size == ns->data_size && i_size_read(inode) == ns->data_size &&
		     pos <= ns->valid_size && pos + count > ns->alloc_size;
	if (ok) {
		need = ntfs_delay_need(inode, end);
		if (need > ni->da_reserved) {
			ok = ntfs_delay_take(sbi, need - ni->da_reserved);
			if (ok)
				ni->da_reserved = need;
		}
	}
	if (ok) {
		set_bit(NTFS_NI_DELAYED, &ni->flags);
		ni->da_writers++;
	}
	mutex_unlock(&ni->ni_lock);
	return ok;
}

/**
 * ntfs_delay_end() - After a write that ntfs_delay_begin() let through
 * @inode:	the file, i_rwsem held
 *
 * A short write gives back what it reserved beyond the new end of the
 * file.  The inode is marked dirty so that writeback's write_inode
 * records the sizes even when every folio was written before.
 */
void ntfs_delay_end(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	u64 need;

	mutex_lock(&ni->ni_lock);
	ni->da_writers--;
	need = ntfs_delay_need(inode, i_size_read(inode));
	if (ni->da_reserved > need)
		ntfs_delay_give(NTFS_SB(inode->i_sb), ni, ni->da_reserved - need);
	mutex_unlock(&ni->ni_lock);
	__mark_inode_dirty(inode, I_DIRTY_DATASYNC);
}

/*
 * The delayed tail gets its clusters (one request: the allocator looks
 * right after the file's last run first) and the record the sizes of
 * the file in memory.  The reservation is given back first: the clusters
 * taken here are the ones it kept free.
 */
static int ntfs_do_settle(struct ntfs_trans *t, struct inode *inode, u64 a, u64 b)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_stream *ns = &ni->stream;
	u8 cb = NTFS_SB(inode->i_sb)->cluster_bits;
	u64 size = i_size_read(inode), need;
	int err = 0;

	if (!test_bit(NTFS_NI_DELAYED, &ni->flags))
		return 0;
	ntfs_delay_give(NTFS_SB(inode->i_sb), ni, ni->da_reserved);
	need = ntfs_delay_need(inode, size);
	if (need)
		err = ntfs_stream_allocate(t, inode, ns->alloc_size >> cb, need);
	if (!err && size > ns->data_size)
		err = ntfs_stream_set_size(t, inode, size);
	if (!err && size > ns->valid_size)
		err = ntfs_stream_set_valid(t, inode, size);
	return err;
}

/**
 * ntfs_delay_settle() - Give a file's delayed data its clusters and sizes
 * @inode:	the file
 *
 * Called before the data is written, and before anything that needs the
 * runs and sizes as they will be (truncate, fallocate, fiemap, direct
 * I/O, SEEK_DATA, a shared mapping's fault, the names' copies).  Needs no
 * folio lock of the file's own but may be called under one: writeback
 * takes ni_lock and a transaction under the folio lock only for a file
 * with delayed data, and nothing that locks a file's folios under its
 * ni_lock or in a transaction runs while it has some (i_rwsem keeps the
 * writers that make delayed data out of those paths).
 *
 * Return: 0, or the error of the allocation (-ENOSPC, -EIO, ...).
 */
int ntfs_delay_settle(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	int err;

	if (!test_bit(NTFS_NI_DELAYED, &ni->flags))
		return 0;
	err = ntfs_change(inode, ntfs_do_settle, 0, 0);
	if (err)
		return err;
	/* A writer still copying keeps it: its folios may need clusters too. */
	mutex_lock(&ni->ni_lock);
	if (!ni->da_writers && i_size_read(inode) <= ni->stream.data_size)
		clear_bit(NTFS_NI_DELAYED, &ni->flags);
	mutex_unlock(&ni->ni_lock);
	return 0;
}

/**
 * ntfs_delay_drop() - Forget a file's reservation (eviction)
 * @inode:	the file, its page cache already dropped
 */
void ntfs_delay_drop(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);

	mutex_lock(&ni->ni_lock);
	ntfs_delay_give(NTFS_SB(inode->i_sb), ni, ni->da_reserved);
	clear_bit(NTFS_NI_DELAYED, &ni->flags);
	mutex_unlock(&ni->ni_lock);
}

/**
 * ntfs_delay_reserved() - Clusters reserved for delayed data of a file
 * @inode:	the file
 *
 * Return: the count (st_blocks shows them, as it will once they are taken).
 */
u64 ntfs_delay_reserved(struct inode *inode)
{
	return READ_ONCE(NTFS_I(inode)->da_reserved);
}

/*
 * Mapping for a delayed write: the allocated part as it is, the rest
 * (past the allocation) delayed, which iomap treats as new blocks.
 */
static int ntfs_delay_iomap_begin(struct inode *inode, loff_t pos, loff_t length,
				  unsigned int flags, struct iomap *iomap, struct iomap *srcmap)
{
	int err = ntfs_iomap_ops.iomap_begin(inode, pos, length, flags, iomap, srcmap);

	if (!err && iomap->type == IOMAP_HOLE)
		iomap->type = IOMAP_DELALLOC;
	return err;
}

const struct iomap_ops ntfs_delay_iomap_ops = {
	.iomap_begin = ntfs_delay_iomap_begin,
};

/* ---- writeback ---------------------------------------------------------- */

/*
 * A compressed stream is written back only into units stored plainly
 * (file.c stores them so before a write): the mapping ends with its unit,
 * so that the next unit is looked at too.  Return: 0, or -EIO for a packed
 * unit.
 */
static int ntfs_map_unit(struct iomap_writepage_ctx *wpc, struct ntfs_stream *ns, u8 cb)
{
	u64 cu = (wpc->iomap.offset >> cb) >> ns->compression_unit;
	u64 unit_end = (cu + 1) << (ns->compression_unit + cb);

	if (!ntfs_cu_plain(ns, cu, cb))
		return -EIO;
	wpc->iomap.length = min(wpc->iomap.length, unit_end - wpc->iomap.offset);
	return 0;
}

/*
 * Map the block at @offset for writeback: allocated clusters are written
 * where they are.  Data reaches the page cache over allocated clusters or
 * as delayed data, which gets its clusters here when the folio reaches
 * past what the record says (a writer may have added to the file since
 * ntfs_writepages() settled it): nothing is written past the recorded
 * valid size, where a read after the folio is dropped would see zeros.
 * A hole is then a bug or a damaged runlist, but for the stale blocks of
 * a folio of smaller blocks (see below).
 */
static int ntfs_map_blocks(struct iomap_writepage_ctx *wpc, struct inode *inode,
			   loff_t offset, unsigned int len)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u8 cb = sbi->cluster_bits;
	const struct ntfs_run *run;
	u64 vcn = offset >> cb;
	int err;

	if (test_bit(NTFS_NI_DELAYED, &NTFS_I(inode)->flags) &&
	    offset + len > READ_ONCE(ns->valid_size)) {
		err = ntfs_delay_settle(inode);
		if (err)
			return err;
		wpc->iomap.length = 0;	/* the runs may have changed */
	}
	if (offset >= wpc->iomap.offset && offset < wpc->iomap.offset + wpc->iomap.length &&
	    wpc->iomap.type == IOMAP_MAPPED)
		return 0;
	down_read(&ns->run_lock);
	run = ns->resident ? NULL : ntfs_run_lookup(ns->runs, ns->nr_runs, vcn);
	/*
	 * Blocks smaller than a folio keep their dirty state in it when a
	 * truncation or a punched hole takes their clusters and the folio
	 * stays (the page cache zeroes them, and a large folio it cannot
	 * split stays whole): a hole then reads as what they hold, and
	 * nothing is written for them.  Only such mappings skip holes.
	 */
	if (run && run->lcn == NTFS_LCN_HOLE &&
	    i_blocksize(inode) < mapping_max_folio_size(inode->i_mapping)) {
		wpc->iomap.flags = 0;
		ntfs_iomap_hole(&wpc->iomap, vcn << cb, (run->vcn + run->len - vcn) << cb);
		up_read(&ns->run_lock);
		return 0;
	}
	if (!run || run->lcn == NTFS_LCN_HOLE) {
		up_read(&ns->run_lock);
		return ntfs_err_ratelimited(inode->i_sb, ns->record,
					    "attribute 0x%x: writeback over unallocated VCN %llu",
					    ns->type, vcn);
	}
	wpc->iomap.type = IOMAP_MAPPED;
	wpc->iomap.flags = 0;
	wpc->iomap.bdev = inode->i_sb->s_bdev;
	wpc->iomap.offset = vcn << cb;
	wpc->iomap.length = (run->vcn + run->len - vcn) << cb;
	wpc->iomap.addr = (run->lcn + vcn - run->vcn) << cb;
	if (ns->compressed && ntfs_map_unit(wpc, ns, cb)) {
		up_read(&ns->run_lock);
		return ntfs_err_ratelimited(inode->i_sb, ns->record,
					    "attribute 0x%x: writeback into packed unit at VCN %llu",
					    ns->type, vcn);
	}
	up_read(&ns->run_lock);
	return 0;
}

static const struct iomap_writeback_ops ntfs_writeback_ops = {
	.map_blocks		= ntfs_map_blocks,
};

static int ntfs_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	struct ntfs_stream *ns = &NTFS_I(mapping->host)->stream;
	struct iomap_writepage_ctx wpc = {};
	int err;

	/* After a shutdown the device gets nothing more, as after a crash. */
	if (READ_ONCE(NTFS_SB(mapping->host->i_sb)->shutdown))
		return -EIO;
	/* Resident data reaches the disk through its record. */
	if (ns->resident || ns->encrypted)
		return 0;
	err = ntfs_delay_settle(mapping->host);
	if (err)
		return err;
	return iomap_writepages(mapping, wbc, &wpc, &ntfs_writeback_ops);
}

/* FIBMAP and swap files want the clusters delayed data will have. */
static sector_t ntfs_settled_bmap(struct address_space *mapping, sector_t block)
{
	if (ntfs_delay_settle(mapping->host))
		return 0;
	return ntfs_bmap(mapping, block);
}

const struct address_space_operations ntfs_aops = {
	.read_folio		= ntfs_read_folio,
	.readahead		= ntfs_readahead,
	.writepages		= ntfs_writepages,
	.dirty_folio		= iomap_dirty_folio,
	.bmap			= ntfs_settled_bmap,
	.direct_IO		= noop_direct_IO,
	.release_folio		= iomap_release_folio,
	.invalidate_folio	= iomap_invalidate_folio,
	.is_partially_uptodate	= iomap_is_partially_uptodate,
	.error_remove_folio	= generic_error_remove_folio,
	.migrate_folio		= filemap_migrate_folio,
};
