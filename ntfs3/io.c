// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the volume: bytes of a stream inode through its page cache (with
 * read-around for metadata streams), and bytes at a device offset through
 * the buffer cache (or around it, for file data).  Every parser gets
 * on-disk data through these; how a stream's page cache is filled is
 * data.c's concern.
 */

#include <linux/bio.h>
#include <linux/bitops.h>
#include <linux/buffer_head.h>
#include <linux/highmem.h>
#include <linux/pagemap.h>
#include <linux/vmalloc.h>

#include "ntfs3.h"

/*
 * Read the @window-aligned block of pages around @index in one request,
 * skipping pages already cached.  Metadata is fetched a record or an index
 * block at a time and its neighbours are usually wanted next (the records
 * of one directory's files, the index blocks of one directory, the rest of
 * $Bitmap): one request instead of one per page.
 */
static void ntfs_stream_read_around(struct inode *inode, pgoff_t index, unsigned int window)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	pgoff_t end = DIV_ROUND_UP(ns->data_size, PAGE_SIZE);
	pgoff_t start = round_down(index, window);
	DEFINE_READAHEAD(ractl, NULL, NULL, inode->i_mapping, start);

	if (start < end)
		page_cache_ra_unbounded(&ractl, min_t(pgoff_t, window, end - start), 0);
}

/**
 * ntfs_stream_folio() - An uptodate page-cache folio of a stream
 * @inode:	the inode whose page cache holds the stream
 * @index:	page index
 * @window:	on a miss, read the aligned block of this many pages around
 *		@index in one request (a power of two); 0 or 1 reads one page
 *
 * Return: the folio (a reference the caller drops) or an ERR_PTR().
 */
struct folio *ntfs_stream_folio(struct inode *inode, pgoff_t index, unsigned int window)
{
	struct folio *folio = filemap_get_folio(inode->i_mapping, index);

	if (!IS_ERR(folio)) {
		if (folio_test_uptodate(folio))
			return folio;
		folio_put(folio);
	} else if (window > 1) {
		ntfs_stream_read_around(inode, index, window);
	}
	return read_mapping_folio(inode->i_mapping, index, NULL);
}

/*
 * Copy @len bytes at @pos of a non-resident stream's page cache into @to,
 * or from @from (the other is NULL), each folio under its lock: a reader
 * never sees half of a block a writer is copying in.  Written folios are
 * marked dirty for writeback.
 */
static int ntfs_stream_copy(struct inode *inode, u64 pos, void *to, const void *from, u32 len)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if (pos > ns->data_size || len > ns->data_size - pos)
		return -EIO;
	while (len) {
		struct folio *folio = ntfs_stream_folio(inode, pos >> PAGE_SHIFT, ns->read_around);
		size_t off, n;

		if (IS_ERR(folio))
			return -EIO;
		off = offset_in_folio(folio, pos);
		n = min_t(size_t, len, folio_size(folio) - off);
		folio_lock(folio);
		if (from) {
			memcpy_to_folio(folio, off, from, n);
			folio_mark_dirty(folio);
			from += n;
		} else {
			memcpy_from_folio(to, folio, off, n);
			to += n;
		}
		folio_unlock(folio);
		folio_put(folio);
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * ntfs_read_stream() - Copy bytes of a stream inode out of its page cache
 * @inode:	the inode
 * @pos:	byte offset in the stream
 * @buf:	destination
 * @len:	bytes to copy; must lie inside the stream
 *
 * Return: 0, -EIO for a range outside the stream or an I/O error.
 */
int ntfs_read_stream(struct inode *inode, u64 pos, void *buf, u32 len)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if (ns->resident) {
		int err = 0;

		/* attrib.c swaps the value's buffer under run_lock when it changes. */
		down_read(&ns->run_lock);
		if (pos > ns->data_size || len > ns->data_size - pos)
			err = -EIO;
		else
			memcpy(buf, ns->resident_data + pos, len);
		up_read(&ns->run_lock);
		return err;
	}
	return ntfs_stream_copy(inode, pos, buf, NULL, len);
}

/**
 * ntfs_read_volume() - Read bytes of the volume through the buffer cache
 * @sb:		the volume
 * @pos:	byte offset on the device
 * @buf:	destination
 * @len:	bytes to read
 *
 * Return: 0 or -EIO.
 */
int ntfs_read_volume(struct super_block *sb, u64 pos, void *buf, u32 len)
{
	while (len) {
		struct buffer_head *bh = sb_bread(sb, pos >> sb->s_blocksize_bits);
		u32 off = pos & (sb->s_blocksize - 1);
		u32 n = min_t(u32, len, sb->s_blocksize - off);

		if (!bh)
			return -EIO;
		memcpy(buf, bh->b_data + off, n);
		brelse(bh);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * ntfs_volume_io() - Read or write bytes of the volume around the buffer cache
 * @sb:		the volume
 * @pos:	byte offset on the device, a multiple of 512
 * @buf:	the bytes (kmalloc'ed or vmalloc'ed)
 * @len:	how many, a multiple of 512
 * @op:		REQ_OP_READ or REQ_OP_WRITE
 *
 * For file data outside the page cache (compression units): the page
 * cache writes file data straight to the device, so a copy of it in the
 * buffer cache would be stale.
 *
 * Return: 0 or the error of the I/O.
 */
int ntfs_volume_io(struct super_block *sb, u64 pos, void *buf, u32 len, blk_opf_t op)
{
	int err = 0;

	while (!err && len) {
		unsigned short vecs = bio_max_segs(DIV_ROUND_UP(len, PAGE_SIZE) + 1);
		struct bio *bio = bio_alloc(sb->s_bdev, vecs, op | REQ_SYNC, GFP_NOFS);

		bio->bi_iter.bi_sector = pos >> SECTOR_SHIFT;
		while (len) {
			u32 off = offset_in_page(buf), n = min_t(u32, len, PAGE_SIZE - off);
			struct page *page = is_vmalloc_addr(buf) ? vmalloc_to_page(buf) :
					    virt_to_page(buf);

			if (bio_add_page(bio, page, n, off) != n)
				break;
			buf += n;
			pos += n;
			len -= n;
		}
		err = submit_bio_wait(bio);
		bio_put(bio);
	}
	return err;
}

/**
 * ntfs_write_stream() - Copy bytes into a stream inode's page cache
 * @inode:	the inode (a metadata stream or a directory's index)
 * @pos:	byte offset in the stream
 * @buf:	source
 * @len:	bytes; the range must lie inside the stream's data
 *
 * The folios are read first where needed, changed under their lock and
 * marked dirty; writeback writes them.  Only for allocated, non-resident
 * streams (metadata never has holes: ntfs_stream_check_meta()).
 *
 * Return: 0, -EIO for a range outside the stream or an I/O error.
 */
int ntfs_write_stream(struct inode *inode, u64 pos, const void *buf, u32 len)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if (ns->resident)
		return -EIO;
	return ntfs_stream_copy(inode, pos, NULL, buf, len);
}

/**
 * ntfs_write_stream_used() - Write the bytes of a block that mean something
 * @inode:	the stream inode, as for ntfs_write_stream()
 * @pos:	byte offset of the block, a multiple of 512
 * @buf:	the block, its update sequence applied
 * @size:	its bytes, a multiple of 512
 * @used:	the bytes from its start that matter, the header included
 *
 * The bytes of an MFT record or an index block past the ones in use mean
 * nothing, but the update sequence makes the last two bytes of every 512
 * belong to the block: those of each stride past @used are written with
 * the first @used bytes, and the rest stays what the page cache holds.
 *
 * Return: 0, -EIO for a range outside the stream or an I/O error.
 */
int ntfs_write_stream_used(struct inode *inode, u64 pos, const void *buf, u32 size, u32 used)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	const u8 *from = buf;
	u32 done = 0;

	if (used >= size)
		return ntfs_write_stream(inode, pos, buf, size);
	if (ns->resident || pos > ns->data_size || size > ns->data_size - pos ||
	    (pos | size) % NTFS_USA_STRIDE)
		return -EIO;
	while (done < size) {
		struct folio *folio = ntfs_stream_folio(inode, (pos + done) >> PAGE_SHIFT,
							ns->read_around);
		size_t off, n, k;

		if (IS_ERR(folio))
			return -EIO;
		off = offset_in_folio(folio, pos + done);
		n = min_t(size_t, size - done, folio_size(folio) - off);
		folio_lock(folio);
		if (used > done)
			memcpy_to_folio(folio, off, from + done, min_t(size_t, n, used - done));
		/* Every stride past @used: its last two bytes. */
		for (k = round_up(max(used, done) + 1, NTFS_USA_STRIDE); k <= done + n;
		     k += NTFS_USA_STRIDE)
			memcpy_to_folio(folio, off + k - done - 2, from + k - 2, 2);
		folio_mark_dirty(folio);
		folio_unlock(folio);
		folio_put(folio);
		done += n;
	}
	return 0;
}

/**
 * ntfs_stream_change_bits() - Set or clear bits of a bitmap stream
 * @bm:		the stream inode ($Bitmap, $MFT:$BITMAP)
 * @start:	first bit (bit n is bit n % 8 of byte n / 8)
 * @len:	number of bits
 * @set:	set them, else clear them
 *
 * The folios are changed under their lock and marked dirty; the caller
 * serialises changes of one bitmap.
 *
 * Return: 0 or -EIO.
 */
int ntfs_stream_change_bits(struct inode *bm, u64 start, u64 len, bool set)
{
	while (len) {
		u64 base = start & ~(u64)((PAGE_SIZE * BITS_PER_BYTE) - 1);
		u32 i = start - base, n = min_t(u64, len, (PAGE_SIZE * BITS_PER_BYTE) - i), k;
		struct folio *folio = ntfs_stream_folio(bm, start / (PAGE_SIZE * BITS_PER_BYTE), 0);
		unsigned long *map;

		if (IS_ERR(folio))
			return -EIO;
		folio_lock(folio);
		map = kmap_local_folio(folio, offset_in_folio(folio, base / BITS_PER_BYTE));
		for (k = i; k < i + n; k++) {
			if (set)
				__set_bit_le(k, map);
			else
				__clear_bit_le(k, map);
		}
		kunmap_local(map);
		folio_mark_dirty(folio);
		folio_unlock(folio);
		folio_put(folio);
		start += n;
		len -= n;
	}
	return 0;
}

/*
 * Put @n bytes of @src (NULL: zeros) at @off of device block @blk, zero
 * the rest of the block when @zero_rest, and write the block now.
 */
static int ntfs_write_block(struct super_block *sb, sector_t blk, u32 off, const void *src,
			    u32 n, bool zero_rest)
{
	bool whole = zero_rest && !off;
	struct buffer_head *bh = whole ? sb_getblk(sb, blk) : sb_bread(sb, blk);
	int err;

	if (!bh)
		return whole ? -ENOMEM : -EIO;
	lock_buffer(bh);
	if (src)
		memcpy(bh->b_data + off, src, n);
	else
		memset(bh->b_data + off, 0, n);
	if (zero_rest)
		memset(bh->b_data + off + n, 0, sb->s_blocksize - off - n);
	set_buffer_uptodate(bh);
	mark_buffer_dirty(bh);
	unlock_buffer(bh);
	err = sync_dirty_buffer(bh);
	brelse(bh);
	return err;
}

/**
 * ntfs_write_volume() - Write bytes of the volume through the buffer cache
 * @sb:		the volume
 * @pos:	byte offset on the device
 * @buf:	the bytes
 * @len:	how many
 *
 * Synchronous: the clusters of metadata written this way may be freed and
 * handed to file data, which the page cache writes around this cache, so
 * no dirty copy may stay behind.  ntfs_read_volume() reads them back.
 *
 * Return: 0, -EIO, or the error of the write.
 */
int ntfs_write_volume(struct super_block *sb, u64 pos, const void *buf, u32 len)
{
	int err = 0;

	while (!err && len) {
		u32 off = pos & (sb->s_blocksize - 1);
		u32 n = min_t(u32, len, sb->s_blocksize - off);

		err = ntfs_write_block(sb, pos >> sb->s_blocksize_bits, off, buf, n,
				       n == sb->s_blocksize);
		buf += n;
		pos += n;
		len -= n;
	}
	return err;
}

/**
 * ntfs_write_runs() - Write a small value to its clusters, synchronously
 * @sbi:	the volume
 * @runs:	the clusters, in order (no holes)
 * @nr:		runs in @runs
 * @buf:	the value
 * @len:	its bytes; the rest of the last cluster is zeroed
 *
 * For metadata that has no page cache of its own ($EA, attribute lists,
 * $BITMAP:$I30) and is written to clusters it just got.
 *
 * Return: 0, -EIO, -ENOMEM.
 */
int ntfs_write_runs(struct ntfs_sb *sbi, const struct ntfs_run *runs, unsigned int nr,
		    const void *buf, u32 len)
{
	struct super_block *sb = sbi->sb;
	u32 per = 1U << (sbi->cluster_bits - sb->s_blocksize_bits);
	u64 pos = 0, blk, end;
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		blk = (u64)runs[i].lcn * per;
		end = blk + runs[i].len * per;
		for (; !err && blk < end; blk++, pos += sb->s_blocksize) {
			u32 n = pos < len ? min_t(u64, len - pos, sb->s_blocksize) : 0;

			err = ntfs_write_block(sb, blk, 0, n ? buf + pos : NULL, n, true);
		}
	}
	return err;
}
