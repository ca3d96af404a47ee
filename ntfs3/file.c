// SPDX-License-Identifier: GPL-2.0
/*
 * Regular files as the VFS sees them: the file operations (open, buffered
 * and direct read, buffered write, llseek with SEEK_HOLE/SEEK_DATA, mmap,
 * fsync), truncate and setattr, fiemap, and the volume label ioctl, which
 * directories share.
 */

#include <linux/blkdev.h>
#include <linux/falloc.h>
#include <linux/mount.h>
#include <linux/nls.h>
#include <linux/iomap.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include "ntfs3.h"

static int ntfs_file_open(struct inode *inode, struct file *file)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if (ns->encrypted)
		return -EOPNOTSUPP;
	if (NTFS_I(inode)->reparse_tag == IO_REPARSE_TAG_WOF) {
		ntfs_err_ratelimited(inode->i_sb, inode->i_ino,
				     "WOF-compressed file (compact /exe): not supported yet");
		return -EOPNOTSUPP;
	}
	/* O_DIRECT on resident or compressed data goes through the page cache. */
	return generic_file_open(inode, file);
}

/*
 * A direct read gets the block that holds the initialized size @valid
 * straight from the disk (blocks past it are zeros already,
 * IOMAP_UNWRITTEN): zero what it returned from @valid on.
 */
static void ntfs_dio_zero_past_valid(struct iov_iter *start, loff_t pos, ssize_t done,
				     loff_t valid)
{
	loff_t skip = valid - pos;

	if (done <= 0 || pos + done <= valid)
		return;
	if (skip > 0)
		iov_iter_advance(start, skip);
	iov_iter_zero(done - max_t(loff_t, skip, 0), start);
}

static ssize_t ntfs_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	loff_t pos = iocb->ki_pos, valid;
	unsigned int flags = 0;
	struct iov_iter start;
	ssize_t ret;

	if (!(iocb->ki_flags & IOCB_DIRECT))
		return generic_file_read_iter(iocb, to);
	/* Resident and compressed data have no blocks to read directly. */
	if (READ_ONCE(ns->resident) || ns->compressed) {
		iocb->ki_flags &= ~IOCB_DIRECT;
		return generic_file_read_iter(iocb, to);
	}
	if (!iov_iter_count(to))
		return 0;
	start = *to;
	inode_lock_shared(inode);
	/*
	 * The initialized size the zeroing uses is read once the range's
	 * dirty folios are written (their writeback may raise it) and before
	 * any block is read; under i_rwsem it only grows, so a block that
	 * turns valid during the read comes back as zeros at worst, never as
	 * stale disk bytes.
	 */
	ret = filemap_write_and_wait_range(inode->i_mapping, pos,
					   pos + iov_iter_count(to) - 1);
	valid = READ_ONCE(ns->valid_size);
	if (!ret) {
		/* The zeroing needs the result: no async completion then. */
		if (valid < READ_ONCE(ns->data_size))
			flags = IOMAP_DIO_FORCE_WAIT;
		ret = iomap_dio_rw(iocb, to, &ntfs_iomap_ops, NULL, flags, NULL, 0);
	}
	inode_unlock_shared(inode);
	if (flags)
		ntfs_dio_zero_past_valid(&start, pos, ret, valid);
	return ret;
}

static loff_t ntfs_file_llseek(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file_inode(file);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	int err;

	/*
	 * Only a sparse stream has holes.  A plain one's clusters past its
	 * valid size read as zeros but are allocated: iomap would call them
	 * holes after a truncation and data after a write past the end filled
	 * the same gap with zeros, and programs that probe hole support
	 * (fstests' seek_sanity_test) then expect holes where writes leave
	 * none.  So it has none: the default answers (data to the end).
	 */
	if ((whence == SEEK_HOLE || whence == SEEK_DATA) && !ns->resident &&
	    !ns->compressed && ns->sparse) {
		/* Delayed data is data: it needs its clusters to be seen. */
		err = ntfs_delay_settle(inode);
		if (err)
			return err;
		offset = whence == SEEK_HOLE ?
			 iomap_seek_hole(inode, offset, &ntfs_iomap_ops) :
			 iomap_seek_data(inode, offset, &ntfs_iomap_ops);
		return offset < 0 ? offset : vfs_setpos(file, offset, inode->i_sb->s_maxbytes);
	}
	return generic_file_llseek(file, offset, whence);
}

static int ntfs_fiemap(struct inode *inode, struct fiemap_extent_info *fi, u64 start, u64 len)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	int err;

	if (ns->resident || ns->compressed)
		return -EOPNOTSUPP;
	err = ntfs_delay_settle(inode);
	if (err)
		return err;
	return iomap_fiemap(inode, fi, start, len, &ntfs_iomap_ops);
}

/* ---- writing ------------------------------------------------------------ */

/* Whether every cluster in [@first, @last] is allocated (not a hole). */
static bool ntfs_range_allocated(struct ntfs_stream *ns, u64 first, u64 last)
{
	const struct ntfs_run *run;
	bool ok = true;

	down_read(&ns->run_lock);
	while (ok && first <= last) {
		run = ntfs_run_lookup(ns->runs, ns->nr_runs, first);
		ok = run && run->lcn != NTFS_LCN_HOLE;
		if (ok)
			first = run->vcn + run->len;
	}
	up_read(&ns->run_lock);
	return ok;
}

static int ntfs_do_allocate(struct ntfs_trans *t, struct inode *inode, u64 first, u64 count)
{
	return ntfs_stream_allocate(t, inode, first, count);
}

/*
 * Compression units [@first, @last] stored plainly (see ntfs_cu_unpack()),
 * holes too or not; the units already plain stay.
 */
static int ntfs_do_store_units(struct ntfs_trans *t, struct inode *inode, u64 first, u64 last,
			       bool holes)
{
	u8 u = NTFS_I(inode)->stream.compression_unit;
	void *data;
	int err = 0;

	for (; !err && first <= last; first++) {
		if (!ntfs_cu_needs_store(inode, first, holes))
			continue;
		data = ntfs_cu_unpack(inode, first);
		if (IS_ERR(data))
			return PTR_ERR(data);
		err = ntfs_stream_store_unit(t, inode, first << u, 1ULL << u, data);
		kvfree(data);
	}
	return err;
}

static int ntfs_do_store_all(struct ntfs_trans *t, struct inode *inode, u64 first, u64 last)
{
	return ntfs_do_store_units(t, inode, first, last, true);
}

static int ntfs_do_store_packed(struct ntfs_trans *t, struct inode *inode, u64 first, u64 last)
{
	return ntfs_do_store_units(t, inode, first, last, false);
}

/* Units stored in one transaction at most: 1 MiB of 64 KiB units. */
#define NTFS_STORE_UNITS	16

/*
 * Before a compressed stream is written (or zeroed) in [@pos, @pos + @len)
 * the compression units there hold their data plainly (compress.c): the
 * packed ones, and holes when @holes (zeroing leaves them: they read as
 * zeros).  Units already plain cost a look at the runs.
 */
static int ntfs_store_units(struct inode *inode, loff_t pos, loff_t len, bool holes)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u8 shift = NTFS_SB(inode->i_sb)->cluster_bits + ns->compression_unit;
	u64 cu, last, end;
	int err = 0;

	if (len <= 0)
		return 0;
	last = (u64)(pos + len - 1) >> shift;
	for (cu = (u64)pos >> shift; !err && cu <= last; cu++) {
		if (!ntfs_cu_needs_store(inode, cu, holes))
			continue;
		end = min(last, cu + NTFS_STORE_UNITS - 1);
		err = ntfs_change(inode, holes ? ntfs_do_store_all : ntfs_do_store_packed, cu, end);
		cu = end;
		if (!err && fatal_signal_pending(current))
			err = -EINTR;
		cond_resched();
	}
	return err;
}

/*
 * Allocate what a write of [@pos, @pos + @len) needs: the holes inside it
 * and, unless the stream is sparse, every cluster from the end of the
 * allocation on (a non-sparse stream has no holes).
 */
static int ntfs_write_alloc(struct inode *inode, loff_t pos, loff_t len)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u8 cb = NTFS_SB(inode->i_sb)->cluster_bits;
	u64 first = pos >> cb, last = (pos + len - 1) >> cb;

	if (len <= 0)
		return 0;
	if (ns->compressed)
		return ntfs_store_units(inode, pos, len, true);
	if (!ns->sparse)
		first = min(first, ns->alloc_size >> cb);
	if (ntfs_range_allocated(ns, first, last))
		return 0;
	return ntfs_change(inode, ntfs_do_allocate, first, last + 1 - first);
}

/*
 * A compressed stream is mapped for a write or zeroing once the units of
 * the range are plain; a range of many units in steps, so that each call
 * stores few and the mapping ends where they do.  Holes left by zeroing
 * are mapped whole: they are skipped.
 */
static int ntfs_write_iomap_compressed(struct inode *inode, loff_t pos, loff_t length,
				       unsigned int flags, struct iomap *iomap,
				       struct iomap *srcmap)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u8 shift = NTFS_SB(inode->i_sb)->cluster_bits + ns->compression_unit;
	loff_t end = min(pos + length, round_down(pos, 1LL << shift) +
			 ((loff_t)NTFS_STORE_UNITS << shift));
	int err = ntfs_store_units(inode, pos, end - pos, !(flags & IOMAP_ZERO));

	if (!err)
		err = ntfs_iomap_ops.iomap_begin(inode, pos, end - pos, flags, iomap, srcmap);
	if (!err && iomap->type != IOMAP_HOLE)
		iomap->length = min_t(u64, iomap->length, end - iomap->offset);
	return err;
}

static int ntfs_write_iomap_begin(struct inode *inode, loff_t pos, loff_t length,
				  unsigned int flags, struct iomap *iomap, struct iomap *srcmap)
{
	int err;

	if (NTFS_I(inode)->stream.compressed)
		return ntfs_write_iomap_compressed(inode, pos, length, flags, iomap, srcmap);

	/* Zeroing leaves a sparse stream's holes alone: they read as zeros. */
	if ((flags & IOMAP_WRITE) &&
	    !((flags & IOMAP_ZERO) && NTFS_I(inode)->stream.sparse)) {
		err = ntfs_write_alloc(inode, pos, length);
		if (err)
			return err;
	}
	return ntfs_iomap_ops.iomap_begin(inode, pos, length, flags, iomap, srcmap);
}

static const struct iomap_ops ntfs_write_iomap_ops = {
	.iomap_begin = ntfs_write_iomap_begin,
};

/**
 * ntfs_hold_valid_end() - Cache the block that holds the end of the data
 * @inode:	a plain or sparse non-resident stream
 *
 * iomap reads a block that a write or a zeroing covers in part straight
 * from the disk, and past the initialized size (or the end of the file)
 * the disk may hold anything in that block: bytes Windows never zeroed
 * (SetFileValidData) or that another driver left after a truncation.
 * Read through ntfs_read_folio() instead, the folio has zeros there, and
 * held by the caller until its write is done it stays cached, so iomap
 * does not read it again.  An uptodate folio is only looked up.
 *
 * Return: the folio, referenced; NULL when that end is block-aligned,
 * outside the allocation, or its folio could not be read (the write then
 * meets the error itself).
 */
static struct folio *ntfs_hold_valid_end(struct inode *inode)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	loff_t end = min_t(loff_t, READ_ONCE(ns->valid_size), i_size_read(inode));
	struct folio *folio;

	if (ns->resident || ns->compressed || ns->encrypted ||
	    !(end & (i_blocksize(inode) - 1)) || end >= ns->alloc_size)
		return NULL;
	folio = read_mapping_folio(inode->i_mapping, end >> PAGE_SHIFT, NULL);
	return IS_ERR(folio) ? NULL : folio;
}

static void ntfs_release_valid_end(struct folio *folio)
{
	if (folio)
		folio_put(folio);
}

/*
 * Zeros into [@pos, @pos + @len) of the page cache.  An empty range does
 * nothing: iomap_zero_range() would still take the folio at @pos and mark
 * it uptodate without reading it, its old memory then shown as the file's.
 */
static int ntfs_zero_cached(struct inode *inode, loff_t pos, loff_t len)
{
	struct folio *held;
	int err;

	if (len <= 0)
		return 0;
	held = ntfs_hold_valid_end(inode);
	err = iomap_zero_range(inode, pos, len, NULL, &ntfs_write_iomap_ops);
	ntfs_release_valid_end(held);
	return err;
}

static int ntfs_do_make_nonresident(struct ntfs_trans *t, struct inode *inode, u64 a, u64 b)
{
	return ntfs_stream_make_nonresident(t, inode);
}

/* The same, when nobody did it since the caller looked (no i_rwsem held). */
static int ntfs_do_make_nonresident_if(struct ntfs_trans *t, struct inode *inode, u64 a,
				       u64 b)
{
	if (!NTFS_I(inode)->stream.resident)
		return 0;
	return ntfs_stream_make_nonresident(t, inode);
}

/* The record's sizes after a write that ended at @end. */
static int ntfs_do_write_sizes(struct ntfs_trans *t, struct inode *inode, u64 end, u64 b)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u64 size = i_size_read(inode);
	int err = 0;

	if (size > ns->data_size)
		err = ntfs_stream_set_size(t, inode, size);
	if (!err && min(end, size) > ns->valid_size)
		err = ntfs_stream_set_valid(t, inode, min(end, size));
	return err;
}

/*
 * Bytes between the valid size and a write past it must be zeros on disk
 * before the valid size moves over them.  They are zeroed in the page
 * cache; but writeback drops the dirty blocks that lie wholly past the end
 * of the file (iomap_zero_range() itself writes back the range when it
 * meets a hole in it), and the write has not moved the end yet: the blocks
 * from the one past the end of the file to the one the write starts in
 * are zeroed on disk as well.
 */
static int ntfs_zero_gap(struct inode *inode, loff_t pos)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u32 cs = NTFS_SB(inode->i_sb)->cluster_size;
	unsigned int bs = i_blocksize(inode);
	loff_t valid = ns->valid_size;
	loff_t past_eof = max(round_up(i_size_read(inode), bs), valid);
	loff_t head;
	int err;

	if (pos <= valid)
		return 0;
	/*
	 * A sparse stream's holes read as zeros already: only a plain one
	 * allocates the gap.  But the write will allocate its first cluster
	 * whole, and what of it lies before @pos in the gap would keep the
	 * cluster's old bytes: that part is allocated now and zeroed too.
	 */
	if (ns->compressed)
		cs <<= ns->compression_unit;	/* allocated in whole units */
	head = ns->sparse || ns->compressed ? max(valid, round_down(pos, cs)) : valid;
	err = ntfs_write_alloc(inode, head, pos - head);
	if (err)
		return err;
	err = ntfs_zero_cached(inode, valid, pos - valid);
	if (!err && past_eof < round_down(pos, bs))
		err = ntfs_zero_on_disk(inode, past_eof, round_down(pos, bs));
	return err;
}

/* A write into a resident value; -ENOSPC when it does not fit the record. */
static ssize_t ntfs_write_resident(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	struct ntfs_inode *ni = NTFS_I(inode);
	size_t len = iov_iter_count(from);
	struct ntfs_trans t;
	void *buf;
	int err;

	if (iocb->ki_pos + len > NTFS_SB(inode->i_sb)->record_size)
		return -ENOSPC;
	buf = kmalloc(len ? len : 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (!copy_from_iter_full(buf, len, from)) {
		kfree(buf);
		return -EFAULT;
	}
	err = ntfs_trans_begin(NTFS_SB(inode->i_sb), &t);
	if (!err) {
		mutex_lock(&ni->ni_lock);
		err = ntfs_stream_write_resident(&t, inode, iocb->ki_pos, buf, len);
		if (!err)
			err = ntfs_trans_commit(&t);
		else
			ntfs_trans_fail(&t, err);
		mutex_unlock(&ni->ni_lock);
	}
	kfree(buf);
	/* A shared writable mmap moved the value out meanwhile: write it there. */
	if (err == -EINVAL && !ni->stream.resident)
		err = -ENOSPC;
	if (err) {
		iov_iter_revert(from, len);
		return err;
	}
	/*
	 * The size first: a buffered reader (no i_rwsem) that reads the value
	 * again after the invalidation must not stop at the old end.  The
	 * page cache copies the value: the next read takes it afresh.
	 */
	iocb->ki_pos += len;
	if (iocb->ki_pos > i_size_read(inode))
		i_size_write(inode, iocb->ki_pos);
	invalidate_inode_pages2(inode->i_mapping);
	return len;
}

/*
 * Buffered write of a non-resident stream, then its sizes in the record;
 * or, when it may (writeback.c), with its clusters and sizes left for
 * later.  Data already waiting that way gets its clusters first: the gap
 * and the sizes below go by what the record says.
 */
static ssize_t ntfs_write_nonresident(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	struct folio *held = ntfs_hold_valid_end(inode);
	ssize_t ret;
	int err;

	if (ntfs_delay_begin(inode, iocb->ki_pos, iov_iter_count(from))) {
		ret = iomap_file_buffered_write(iocb, from, &ntfs_delay_iomap_ops, NULL);
		ntfs_delay_end(inode);
		goto out;
	}
	err = ntfs_delay_settle(inode);
	if (!err)
		err = ntfs_zero_gap(inode, iocb->ki_pos);
	if (err) {
		ret = err;
		goto out;
	}
	ret = iomap_file_buffered_write(iocb, from, &ntfs_write_iomap_ops, NULL);
	if (ret > 0) {
		err = ntfs_change(inode, ntfs_do_write_sizes, iocb->ki_pos, 0);
		if (err)
			ret = err;
	}
out:
	ntfs_release_valid_end(held);
	return ret;
}

/* Writes go through to the disk only on streams we can store back as they are. */
static int ntfs_check_writable(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);

	/* $Bitmap, $MFT, ... are written by the driver alone. */
	if (ntfs_is_metafile(inode))
		return -EPERM;
	if (READ_ONCE(NTFS_SB(inode->i_sb)->shutdown))
		return -EIO;
	if (ni->stream.encrypted || ni->reparse_tag == IO_REPARSE_TAG_WOF) {
		ntfs_err_ratelimited(inode->i_sb, ni->record,
				     "writing to an encrypted or WOF-compressed file is not supported");
		return -EOPNOTSUPP;
	}
	/* Whatever the caller changes, the names' copies follow at close. */
	set_bit(NTFS_NI_DUP_STALE, &ni->flags);
	return 0;
}

/*
 * Whether a direct write of [@pos, @pos + @len) can go to the device as
 * it is: every block of it allocated and below the valid size, aligned to
 * the device's logical blocks.  Anything else (holes to allocate, a valid
 * size to move, resident or compressed data) goes through the page cache.
 */
static bool ntfs_direct_ok(struct inode *inode, loff_t pos, size_t len,
			   const struct iov_iter *from)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	unsigned int mask = bdev_logical_block_size(inode->i_sb->s_bdev) - 1;
	u8 cb = NTFS_SB(inode->i_sb)->cluster_bits;

	if (!len || ns->resident || ns->compressed || ns->encrypted)
		return false;
	if ((pos | len | iov_iter_alignment(from)) & mask)
		return false;
	if (pos + len > READ_ONCE(ns->valid_size))
		return false;
	return ntfs_range_allocated(ns, pos >> cb, (pos + len - 1) >> cb);
}

/*
 * A direct write that cannot go to the device as it is: through the page
 * cache, then written and dropped from it before returning, as O_DIRECT
 * promises (a direct read after it finds the data on the device).
 */
static ssize_t ntfs_direct_flush(struct kiocb *iocb, loff_t pos, ssize_t ret)
{
	struct address_space *mapping = iocb->ki_filp->f_mapping;
	int err;

	if (ret <= 0)
		return ret;
	err = filemap_write_and_wait_range(mapping, pos, pos + ret - 1);
	if (!err)
		invalidate_inode_pages2_range(mapping, pos >> PAGE_SHIFT,
					      (pos + ret - 1) >> PAGE_SHIFT);
	return err ? err : ret;
}

static ssize_t ntfs_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	bool direct = iocb->ki_flags & IOCB_DIRECT;
	loff_t pos;
	ssize_t ret;

	iocb->ki_flags &= ~IOCB_DIRECT;
	inode_lock(inode);
	ret = generic_write_checks(iocb, from);
	if (ret > 0)
		ret = ntfs_check_writable(inode);
	if (!ret)
		ret = file_modified(iocb->ki_filp);
	if (ret)
		goto out;
	pos = iocb->ki_pos;
	if (direct)
		ret = ntfs_delay_settle(inode);
	if (ret)
		goto out;
	if (direct && ntfs_direct_ok(inode, pos, iov_iter_count(from), from)) {
		/* Inside the valid size: no size changes, so no waiting for it. */
		iocb->ki_flags |= IOCB_DIRECT;
		ret = iomap_dio_rw(iocb, from, &ntfs_iomap_ops, NULL, 0, NULL, 0);
		if (ret != -ENOTBLK)	/* else nothing was sent: the page cache */
			goto out;
		iocb->ki_flags &= ~IOCB_DIRECT;
	}
	ret = -ENOSPC;
	if (ns->resident)
		ret = ntfs_write_resident(iocb, from);
	if (ret == -ENOSPC && ns->resident)
		ret = ntfs_change(inode, ntfs_do_make_nonresident, 0, 0);
	if (!ret || (ret == -ENOSPC && !ns->resident))
		ret = ntfs_write_nonresident(iocb, from);
	if (direct)
		ret = ntfs_direct_flush(iocb, pos, ret);
out:
	inode_unlock(inode);
	if (ret > 0)
		ret = generic_write_sync(iocb, ret);
	return ret;
}

/* ---- truncate ----------------------------------------------------------- */

static int ntfs_do_set_size(struct ntfs_trans *t, struct inode *inode, u64 size, u64 b)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	int err = ntfs_stream_set_size(t, inode, size);

	if (!err && ns->valid_size > size)
		err = ntfs_stream_set_valid(t, inode, size);
	return err;
}

/**
 * ntfs_size_grown() - Make the page of the old end fault again after growth
 * @inode:	the file, i_rwsem held, its size just grown
 * @from:	the old size
 * @to:		the new size
 *
 * A store through a shared mapping past the valid size must fault:
 * ntfs_page_mkwrite() moves the valid size over the folio first.  The
 * page holding the old end of the file can be writable without that (it
 * was made so when the valid size lay past it, before a truncation moved
 * both into it), and a store there would now land inside the file and
 * past the valid size unseen: the next fault further on would zero it, or
 * the valid size on disk would hide it.  Its bytes past the old end are
 * not the file's (a store there was past the end): zeroed, and the page
 * write-protected, kept dirty if a store made it so.  The generic
 * pagecache_isize_extended() does the same only for blocks smaller than a
 * page, and zeroes nothing.
 */
static void ntfs_size_grown(struct inode *inode, loff_t from, loff_t to)
{
	struct folio *folio;
	size_t off;

	if (to <= from || !(from & (PAGE_SIZE - 1)) || !mapping_mapped(inode->i_mapping))
		return;
	folio = filemap_lock_folio(inode->i_mapping, from >> PAGE_SHIFT);
	if (IS_ERR(folio))
		return;
	off = offset_in_folio(folio, from);
	folio_zero_range(folio, off, min_t(loff_t, to - from, folio_size(folio) - off));
	if (folio_mkclean(folio))
		folio_mark_dirty(folio);
	folio_unlock(folio);
	folio_put(folio);
}

/*
 * Change the size.  Growing a non-sparse stream allocates the clusters
 * (reads past the valid size give zeros, so nothing is written); a
 * resident value that no longer fits the record moves out first.
 */
static int ntfs_truncate(struct inode *inode, loff_t size)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	loff_t old = i_size_read(inode);
	int err = ntfs_check_writable(inode);

	if (!err)
		err = ntfs_delay_settle(inode);
	if (err)
		return err;
	if (ns->resident && size > NTFS_SB(inode->i_sb)->record_size / 2) {
		err = ntfs_change(inode, ntfs_do_make_nonresident, 0, 0);
		if (err)
			return err;
	}
	if (size > old && !ns->resident && !ns->sparse && !ns->compressed) {
		err = ntfs_write_alloc(inode, size - 1, 1);
		if (err)
			return err;
	}
	if (size < old)
		truncate_setsize(inode, size);
	err = ntfs_change(inode, ntfs_do_set_size, size, 0);
	if (err == -ENOSPC && ns->resident) {
		err = ntfs_change(inode, ntfs_do_make_nonresident, 0, 0);
		if (!err)
			err = ntfs_change(inode, ntfs_do_set_size, size, 0);
	}
	if (!err && size >= old) {
		truncate_setsize(inode, size);
		ntfs_size_grown(inode, old, size);
	}
	/*
	 * The cut block keeps its old bytes past the new end on disk, and the
	 * valid size now ends inside it: a later write into that block reads
	 * it whole (iomap) and a growth of the file would show them.  Zeroed
	 * through the page cache; writeback puts the zeros on disk.
	 */
	if (!err && size < old && !ns->resident && !ns->compressed)
		err = ntfs_zero_cached(inode, size,
				       round_up(size, i_blocksize(inode)) - size);
	if (ns->resident)
		invalidate_inode_pages2(inode->i_mapping);
	return err;
}

/* After a size change: the names' copies, without waiting for a directory. */
static void ntfs_setattr_dup(struct dentry *dentry, struct inode *inode)
{
	struct dentry *parent = dget_parent(dentry);
	struct inode *dir = d_inode(parent);

	ntfs_update_dup(inode, dir && dir != inode ? dir : NULL, false);
	dput(parent);
}

/**
 * ntfs_setattr() - chmod, chown, utimes and truncate
 * @idmap:	idmap of the mount
 * @dentry:	what is changed
 * @attr:	the changes
 *
 * Sizes go to the record at once, times with the inode (write_inode),
 * mode and owner to the WSL EAs and the read-only flag
 * (ntfs_setattr_ids()).
 *
 * Return: 0 or an error.
 */
int ntfs_setattr(struct mnt_idmap *idmap, struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	int err = setattr_prepare(idmap, dentry, attr);

	if (err)
		return err;
	if ((attr->ia_valid & ATTR_SIZE) && attr->ia_size != i_size_read(inode)) {
		if (!S_ISREG(inode->i_mode))
			return -EINVAL;
		inode_dio_wait(inode);
		err = ntfs_truncate(inode, attr->ia_size);
		if (err)
			return err;
		/* truncate(2) asks for no times, yet a size change sets them. */
		inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
		/* truncate(2) closes no file: the names' copies follow now. */
		ntfs_setattr_dup(dentry, inode);
	}
	err = ntfs_setattr_ids(idmap, inode, attr);
	if (err)
		return err;
	mark_inode_dirty(inode);
	return 0;
}

/* ---- fallocate ---------------------------------------------------------- */

/* Zero [@pos, @pos + @len) of a stream below its valid size. */
static int ntfs_zero_valid(struct inode *inode, loff_t pos, loff_t len)
{
	loff_t valid = NTFS_I(inode)->stream.valid_size;

	if (pos >= valid)
		return 0;
	return ntfs_zero_cached(inode, pos, min(len, valid - pos));
}

/*
 * PUNCH_HOLE: the whole clusters inside [@pos, @pos + @len) lose their
 * clusters (the stream becomes sparse), the bytes of the clusters at the
 * edges are zeroed.  Dirty data of the range is written first and the
 * range leaves the page cache before the clusters are freed, with page
 * faults held off, so nothing is written to clusters given back.
 */
static int ntfs_punch_hole(struct inode *inode, loff_t pos, loff_t len)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	u64 first = DIV_ROUND_UP_ULL(pos, sbi->cluster_size);
	u64 last = (u64)(pos + len) >> sbi->cluster_bits;
	int err;

	filemap_invalidate_lock(inode->i_mapping);
	if (first >= last) {
		err = ntfs_zero_valid(inode, pos, len);
		goto out;
	}
	err = ntfs_zero_valid(inode, pos, (first << sbi->cluster_bits) - pos);
	if (!err)
		err = ntfs_zero_valid(inode, last << sbi->cluster_bits,
				      pos + len - (last << sbi->cluster_bits));
	if (!err)
		err = filemap_write_and_wait_range(inode->i_mapping, pos, pos + len - 1);
	if (err)
		goto out;
	truncate_pagecache_range(inode, first << sbi->cluster_bits,
				 (last << sbi->cluster_bits) - 1);
	err = ntfs_change(inode, ntfs_stream_punch, first, last - first);
	if (!err)
		NTFS_I(inode)->attributes |= FILE_ATTRIBUTE_SPARSE_FILE;
out:
	filemap_invalidate_unlock(inode->i_mapping);
	return err;
}

/*
 * COLLAPSE_RANGE and INSERT_RANGE on whole clusters: everything from @pos
 * on moves, so it is written back and leaves the page cache first (page
 * faults held off), then the runs move.  Called with i_rwsem held.
 */
static int ntfs_shift_range(struct inode *inode, int mode, loff_t pos, loff_t len)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	loff_t size = i_size_read(inode);
	int err;

	if ((pos | len) & (sbi->cluster_size - 1))
		return -EINVAL;
	if (mode == FALLOC_FL_COLLAPSE_RANGE ? pos + len >= size : pos >= size)
		return -EINVAL;
	if (mode == FALLOC_FL_INSERT_RANGE && len > inode->i_sb->s_maxbytes - size)
		return -EFBIG;
	if (NTFS_I(inode)->stream.resident) {
		err = ntfs_change(inode, ntfs_do_make_nonresident, 0, 0);
		if (err)
			return err;
	}
	filemap_invalidate_lock(inode->i_mapping);
	inode_dio_wait(inode);
	/*
	 * Everything from the page holding @pos on moves: a cluster smaller
	 * than a page would leave that page cached with its tail zeroed.  A
	 * large folio across it is clean once written back: the truncation
	 * splits it or drops it whole.
	 */
	err = filemap_write_and_wait_range(inode->i_mapping, round_down(pos, PAGE_SIZE),
					   LLONG_MAX);
	if (!err) {
		truncate_pagecache(inode, round_down(pos, PAGE_SIZE));
		err = ntfs_change(inode, mode == FALLOC_FL_COLLAPSE_RANGE ? ntfs_stream_collapse :
				  ntfs_stream_insert, pos >> sbi->cluster_bits,
				  len >> sbi->cluster_bits);
	}
	if (!err && mode == FALLOC_FL_INSERT_RANGE)
		NTFS_I(inode)->attributes |= FILE_ATTRIBUTE_SPARSE_FILE;
	filemap_invalidate_unlock(inode->i_mapping);
	return err;
}

/* PUNCH_HOLE: a resident value moves out first; see ntfs_punch_hole(). */
static int ntfs_punch_range(struct inode *inode, loff_t pos, loff_t len)
{
	loff_t end = pos + len;
	int err = 0;

	if (NTFS_I(inode)->stream.resident)
		err = ntfs_change(inode, ntfs_do_make_nonresident, 0, 0);
	/* A range that reaches the end takes the last cluster whole. */
	if (end >= i_size_read(inode))
		end = round_up(i_size_read(inode), NTFS_SB(inode->i_sb)->cluster_size);
	if (!err && pos < end)
		err = ntfs_punch_hole(inode, pos, end - pos);
	return err;
}

/* Modes 0, KEEP_SIZE and ZERO_RANGE: clusters for the range, zeros in it. */
static int ntfs_allocate_range(struct inode *inode, int mode, loff_t pos, loff_t len)
{
	loff_t end = pos + len, old = i_size_read(inode);
	int err = 0;

	if (NTFS_I(inode)->stream.resident)
		err = ntfs_change(inode, ntfs_do_make_nonresident, 0, 0);
	if (!err)
		err = ntfs_write_alloc(inode, pos, len);
	if (!err && (mode & FALLOC_FL_ZERO_RANGE))
		err = ntfs_zero_valid(inode, pos, len);
	if (!err && !(mode & FALLOC_FL_KEEP_SIZE) && end > i_size_read(inode)) {
		err = ntfs_change(inode, ntfs_do_set_size, end, 0);
		if (!err) {
			i_size_write(inode, end);
			ntfs_size_grown(inode, old, end);
		}
	}
	return err;
}

/*
 * fallocate: allocate (mode 0, KEEP_SIZE), zero (ZERO_RANGE) ranges,
 * punch holes (PUNCH_HOLE, with KEEP_SIZE as the VFS requires), take out
 * and insert whole clusters (COLLAPSE_RANGE, INSERT_RANGE).  Clusters
 * past the valid size read as zeros without being written.
 */
static long ntfs_fallocate(struct file *file, int mode, loff_t pos, loff_t len)
{
	const int moves = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_INSERT_RANGE;
	struct inode *inode = file_inode(file);
	int err;

	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_ZERO_RANGE | moves))
		return -EOPNOTSUPP;
	inode_lock(inode);
	err = ntfs_check_writable(inode);
	if (!err)
		err = ntfs_delay_settle(inode);
	/* Compression units would have to be stored plainly first: not yet. */
	if (!err && NTFS_I(inode)->stream.compressed)
		err = -EOPNOTSUPP;
	/* Only allocating may grow the file. */
	if (!err && !(mode & moves))
		err = inode_newsize_ok(inode, pos + len);
	if (!err)
		err = file_modified(file);
	if (!err && (mode & (FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_INSERT_RANGE)))
		err = ntfs_shift_range(inode, mode, pos, len);
	else if (!err && (mode & FALLOC_FL_PUNCH_HOLE))
		err = ntfs_punch_range(inode, pos, len);
	else if (!err)
		err = ntfs_allocate_range(inode, mode, pos, len);
	inode_unlock(inode);
	return err;
}

/* ---- mmap and fsync ----------------------------------------------------- */

/**
 * ntfs_extend_valid() - Move the valid size of a non-resident stream forward
 * @inode:	the inode, i_rwsem held
 * @to:		the new valid size, at most the file size
 *
 * Stores through a shared mapping past the valid size would stay past it
 * (and read back as zeros); the bytes between become zeros on disk before
 * it moves.  i_rwsem keeps writes out, and with them every dirty folio
 * past the valid size (page faults extend it before they dirty one): the
 * whole blocks between are zeroed on disk, the partial ones at both ends
 * in the page cache.
 *
 * Return: 0 or the error of the zeroing or of the record's update.
 */
static int ntfs_extend_valid(struct inode *inode, loff_t to)
{
	loff_t valid = NTFS_I(inode)->stream.valid_size;
	unsigned int bs = i_blocksize(inode);
	loff_t head, tail;
	int err;

	if (to <= valid || NTFS_I(inode)->stream.resident)
		return 0;
	head = min(round_up(valid, bs), to);
	tail = max(round_down(to, bs), head);
	err = ntfs_zero_cached(inode, valid, head - valid);
	/* Packed units there are stored plainly first (and zeroed so). */
	if (!err && head < tail && NTFS_I(inode)->stream.compressed)
		err = ntfs_store_units(inode, head, tail - head, false);
	if (!err && head < tail)
		err = ntfs_zero_on_disk(inode, head, tail);
	if (!err)
		err = ntfs_zero_cached(inode, tail, to - tail);
	if (!err)
		err = ntfs_change(inode, ntfs_do_write_sizes, to, 0);
	return err;
}

/* Valid size wanted before a store into the faulting folio, 0 when none. */
static loff_t ntfs_fault_valid_end(struct vm_fault *vmf)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	struct folio *folio = page_folio(vmf->page);
	loff_t size = i_size_read(inode);
	loff_t end = min(size, folio_pos(folio) + (loff_t)folio_size(folio));

	if (end <= READ_ONCE(NTFS_I(inode)->stream.valid_size))
		return 0;
	/* A store far past it makes the rest of its megabyte valid too. */
	return min(size, round_up(end, SZ_1M));
}

/*
 * The valid size moves under i_rwsem, which a fault must not wait for
 * under its mmap lock (writes fault user pages in under i_rwsem), and
 * page_mkwrite cannot drop that lock and retry: the lock is only tried.
 * When it is busy the fault ends without a writable mapping and the store
 * faults again.
 */
static vm_fault_t ntfs_fault_extend_valid(struct inode *inode, loff_t to)
{
	int err;

	if (!inode_trylock(inode)) {
		cond_resched();
		return VM_FAULT_NOPAGE;
	}
	err = ntfs_extend_valid(inode, to);
	inode_unlock(inode);
	return err ? vmf_error(err) : 0;
}

static vm_fault_t ntfs_page_mkwrite(struct vm_fault *vmf)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	vm_fault_t ret = 0;
	loff_t to = 0;

	sb_start_pagefault(inode->i_sb);
	file_update_time(vmf->vma->vm_file);
	/*
	 * Held off while a hole is punched or a range moves: a folio dirtied
	 * between their writeback and their truncation would be written over
	 * clusters given back or moved (a large folio the page cache fails
	 * to split stays cached when dirty).
	 */
	filemap_invalidate_lock_shared(inode->i_mapping);
	/* The valid size below must be the file's, not one delayed data left behind. */
	if (ntfs_check_writable(inode) || NTFS_I(inode)->stream.resident ||
	    ntfs_delay_settle(inode))
		ret = VM_FAULT_SIGBUS;
	else
		to = ntfs_fault_valid_end(vmf);
	if (to)
		ret = ntfs_fault_extend_valid(inode, to);
	if (!ret)
		ret = iomap_page_mkwrite(vmf, &ntfs_write_iomap_ops);
	filemap_invalidate_unlock_shared(inode->i_mapping);
	sb_end_pagefault(inode->i_sb);
	return ret;
}

static const struct vm_operations_struct ntfs_file_vm_ops = {
	.fault		= filemap_fault,
	.map_pages	= filemap_map_pages,
	.page_mkwrite	= ntfs_page_mkwrite,
};

/*
 * A shared writable mapping needs the data out of the record first: its
 * pages are written back into clusters.
 */
static int ntfs_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct inode *inode = file_inode(file);
	int err = 0;

	/*
	 * mmap_lock is held here: i_rwsem must not be taken under it (writes
	 * fault user pages in under i_rwsem).  The change runs under ni_lock
	 * alone; a write racing with it finds the value moved out and writes
	 * there (ntfs_write_resident()).
	 */
	if ((vma->vm_flags & VM_SHARED) && (vma->vm_flags & VM_MAYWRITE)) {
		err = ntfs_check_writable(inode);
		if (!err && NTFS_I(inode)->stream.resident)
			err = ntfs_change(inode, ntfs_do_make_nonresident_if, 0, 0);
		if (err)
			return err;
	}
	file_accessed(file);
	vma->vm_ops = &ntfs_file_vm_ops;
	return 0;
}

/*
 * Whether the VFS may hold times the record lacks: the inode is dirty, or
 * the flusher is writing it (it clears the dirty bits before it calls
 * ->write_inode and I_SYNC only after that returns).
 */
static bool ntfs_times_pending(struct inode *inode)
{
	bool pending;

	spin_lock(&inode->i_lock);
	pending = inode->i_state & (I_DIRTY_SYNC | I_DIRTY_DATASYNC | I_SYNC);
	spin_unlock(&inode->i_lock);
	return pending;
}

/**
 * ntfs_fsync() - Bring a file's data, record and name to the device
 * @file:	the open file
 * @start:	first byte of the data range
 * @end:	last byte
 * @datasync:	fdatasync (same work: the sizes and runs are the record)
 *
 * The data is started first (writeback settles delayed data, so the
 * record gets its clusters and sizes), then the times go to the record
 * without waiting for the data: the record's sizes were set before its
 * folios were submitted, and nothing at I/O completion changes the
 * record.  The metadata streams and the index of the directory the file
 * was opened through (a new file must be found after a crash) are then
 * written, and one wait covers them and the data before the device's
 * cache is flushed: two round trips through the device's queue in all.
 * sync_inode_metadata() would wait for the data on its own first; the
 * price of calling ->write_inode directly is that the inode stays dirty
 * for the VFS, which later stores the same times once more.
 *
 * Return: 0 or the first error.
 */
static int ntfs_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct inode *inode = file_inode(file);
	struct dentry *parent;
	int err, e;

	err = filemap_fdatawrite_range(inode->i_mapping, start, end);
	/* Folios written before the last delayed write ended leave sizes to record. */
	if (!err)
		err = ntfs_delay_settle(inode);
	if (!err && ntfs_times_pending(inode))
		err = ntfs_write_inode(inode, NULL);
	if (!err) {
		parent = dget_parent(file_dentry(file));
		err = ntfs_trans_flush_dir(NTFS_SB(inode->i_sb), d_inode(parent));
		dput(parent);
	}
	e = file_fdatawait_range(file, start, end);
	if (!err)
		err = e;
	if (!err)
		err = blkdev_issue_flush(inode->i_sb->s_bdev);
	return err;
}

/* ---- ioctls -------------------------------------------------------------- */

/*
 * The shutdown ioctl shared by ext4, XFS, f2fs and btrfs (the header of
 * this kernel does not name it yet), with its flags.
 */
#define NTFS_IOC_SHUTDOWN		_IOR('X', 125, __u32)
#define NTFS_SHUTDOWN_DEFAULT		0	/* write everything, then stop */
#define NTFS_SHUTDOWN_LOGFLUSH		1	/* likewise (no journal yet) */
#define NTFS_SHUTDOWN_NOLOGFLUSH	2	/* stop at once */

static int ntfs_get_label(struct ntfs_sb *sbi, void __user *arg)
{
	char label[FSLABEL_MAX] = {};

	strscpy(label, sbi->label, sizeof(label));
	return copy_to_user(arg, label, sizeof(label)) ? -EFAULT : 0;
}

/* Store @u (@n units) as the $VOLUME_NAME of record 3. */
static int ntfs_store_label(struct ntfs_trans *t, const __le16 *u, int n)
{
	struct ntfs_record *r = ntfs_trans_record(t, NTFS_VOLUME_INO);
	struct ntfs_attr *a;
	int err;

	if (IS_ERR(r))
		return PTR_ERR(r);
	a = ntfs_rec_find(r, NTFS_AT_VOLUME_NAME, NULL, 0);
	if (a && a->non_resident)
		return ntfs_err_ratelimited(t->sbi->sb, NTFS_VOLUME_INO,
					    "$VOLUME_NAME is non-resident");
	if (!a)
		a = ntfs_rec_insert(t, r, NTFS_AT_VOLUME_NAME, NULL, 0, false, 2 * n);
	if (IS_ERR(a))
		return PTR_ERR(a);
	err = ntfs_rec_set_value_len(t->sbi, r, a, 2 * n);
	if (!err)
		memcpy(ntfs_attr_value(a, 2 * n), u, 2 * n);
	return err;
}

static int ntfs_set_label(struct file *file, struct ntfs_sb *sbi, void __user *arg)
{
	char label[FSLABEL_MAX];
	struct ntfs_trans t;
	__le16 *u;
	int n, err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(label, arg, sizeof(label)))
		return -EFAULT;
	label[FSLABEL_MAX - 1] = 0;
	u = kmalloc_array(FSLABEL_MAX, sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	n = utf8s_to_utf16s(label, strlen(label), UTF16_LITTLE_ENDIAN, (wchar_t *)u, 128);
	err = n < 0 ? -EINVAL : mnt_want_write_file(file);
	if (!err) {
		err = ntfs_trans_begin(sbi, &t);
		if (!err) {
			err = ntfs_store_label(&t, u, n);
			if (!err)
				err = ntfs_trans_commit(&t);
			else
				ntfs_trans_fail(&t, err);
		}
		mnt_drop_write_file(file);
	}
	if (!err)
		strscpy(sbi->label, label, sizeof(sbi->label));
	kfree(u);
	return err;
}

static int ntfs_trim_ioctl(struct ntfs_sb *sbi, void __user *arg)
{
	struct fstrim_range range;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!bdev_max_discard_sectors(sbi->sb->s_bdev))
		return -EOPNOTSUPP;
	if (copy_from_user(&range, arg, sizeof(range)))
		return -EFAULT;
	if (sb_rdonly(sbi->sb))
		return -EROFS;
	err = ntfs_trim(sbi, range.start >> sbi->cluster_bits,
			(range.start + range.len) >> sbi->cluster_bits,
			max_t(u64, 1, range.minlen >> sbi->cluster_bits), &range.len);
	if (err)
		return err;
	range.len <<= sbi->cluster_bits;
	return copy_to_user(arg, &range, sizeof(range)) ? -EFAULT : 0;
}

static int ntfs_shutdown(struct ntfs_sb *sbi, u32 __user *arg)
{
	struct super_block *sb = sbi->sb;
	u32 how;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (get_user(how, arg))
		return -EFAULT;
	if (how > NTFS_SHUTDOWN_NOLOGFLUSH)
		return -EINVAL;
	/* sync_filesystem() wants s_umount: no remount or freeze meanwhile. */
	if (how != NTFS_SHUTDOWN_NOLOGFLUSH) {
		down_read(&sb->s_umount);
		if (!sb_rdonly(sb)) {
			sync_filesystem(sb);
			ntfs_trans_flush(sbi, true);
		}
		up_read(&sb->s_umount);
	}
	WRITE_ONCE(sbi->shutdown, true);
	pr_info("ntfs3 (%s): shut down: no more changes until unmount\n", sb->s_id);
	return 0;
}

/**
 * ntfs_ioctl() - Volume ioctls: labels, FITRIM, shutdown
 * @file:	any file of the volume
 * @cmd:	the ioctl
 * @arg:	its argument
 *
 * Return: 0, -ENOTTY for an ioctl we do not have, or an error.
 */
long ntfs_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ntfs_sb *sbi = NTFS_SB(file_inode(file)->i_sb);
	void __user *p = (void __user *)arg;

	switch (cmd) {
	case FS_IOC_GETFSLABEL:
		return ntfs_get_label(sbi, p);
	case FS_IOC_SETFSLABEL:
		return ntfs_set_label(file, sbi, p);
	case FITRIM:
		return ntfs_trim_ioctl(sbi, p);
	case NTFS_IOC_SHUTDOWN:
		return ntfs_shutdown(sbi, p);
	}
	return -ENOTTY;
}

/*
 * The last close of a written file copies its sizes and times into its
 * names (Windows lists directories from those copies; see
 * ntfs_update_dup()).  An error is not the closer's: the copies stay.
 */
static int ntfs_file_release(struct inode *inode, struct file *file)
{
	struct dentry *parent;
	struct inode *dir;

	if (!(file->f_mode & FMODE_WRITE) || sb_rdonly(inode->i_sb) ||
	    !test_and_clear_bit(NTFS_NI_DUP_STALE, &NTFS_I(inode)->flags))
		return 0;
	/* The copies take the sizes from the record: delayed data first. */
	if (ntfs_delay_settle(inode)) {
		set_bit(NTFS_NI_DUP_STALE, &NTFS_I(inode)->flags);
		return 0;
	}
	parent = dget_parent(file->f_path.dentry);
	dir = d_inode(parent);
	ntfs_update_dup(inode, dir && dir != inode ? dir : NULL, true);
	dput(parent);
	return 0;
}

const struct file_operations ntfs_file_fops = {
	.open		= ntfs_file_open,
	.release	= ntfs_file_release,
	.llseek		= ntfs_file_llseek,
	.read_iter	= ntfs_file_read_iter,
	.write_iter	= ntfs_file_write_iter,
	.mmap		= ntfs_file_mmap,
	.fsync		= ntfs_fsync,
	.fallocate	= ntfs_fallocate,
	.splice_read	= filemap_splice_read,
	.splice_write	= iter_file_splice_write,
	.unlocked_ioctl	= ntfs_ioctl,
	.compat_ioctl	= ntfs_ioctl,
};

const struct inode_operations ntfs_file_iops = {
	.permission	= ntfs_permission,
	.getattr	= ntfs_getattr,
	.setattr	= ntfs_setattr,
	.fiemap		= ntfs_fiemap,
	.listxattr	= ntfs_listxattr,
	.get_inode_acl	= ntfs_get_inode_acl,
	.set_acl	= ntfs_set_acl,
};
