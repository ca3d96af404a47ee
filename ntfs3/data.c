// SPDX-License-Identifier: GPL-2.0
/*
 * The address space of ntfs inodes, reading side: how a stream's contents
 * reach the page cache.  iomap maps plain and sparse streams (for bmap,
 * fiemap, direct I/O and SEEK_HOLE/SEEK_DATA too), readahead builds its
 * bios itself, resident streams are copied, compressed ones are read by
 * compress.c.  Writeback and the address space operations are in
 * writeback.c (they allocate delayed clusters, above this layer).
 */

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/iomap.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>

#include "ntfs3.h"

/* ---- iomap -------------------------------------------------------------- */

/* Describe [@offset, @offset + @length) as a hole in @iomap. */
void ntfs_iomap_hole(struct iomap *iomap, loff_t offset, u64 length)
{
	iomap->type = IOMAP_HOLE;
	iomap->addr = IOMAP_NULL_ADDR;
	iomap->offset = offset;
	iomap->length = length;
}

static int ntfs_iomap_begin(struct inode *inode, loff_t pos, loff_t length,
			    unsigned int flags, struct iomap *iomap, struct iomap *srcmap)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u8 cb = sbi->cluster_bits;
	u64 vcn = pos >> cb, valid, run_end;
	const struct ntfs_run *run;

	if (ns->resident || ns->encrypted)
		return -EOPNOTSUPP;
	/* Compressed: only units stored plainly, by writers (file.c). */
	if (ns->compressed && !(flags & (IOMAP_WRITE | IOMAP_ZERO)))
		return -EOPNOTSUPP;

	iomap->bdev = inode->i_sb->s_bdev;
	iomap->flags = 0;
	if (pos >= ns->alloc_size) {
		ntfs_iomap_hole(iomap, pos, round_up(length, i_blocksize(inode)));
		return 0;
	}

	down_read(&ns->run_lock);
	run = ntfs_run_lookup(ns->runs, ns->nr_runs, vcn);
	if (!run) {
		up_read(&ns->run_lock);
		return -EIO;
	}
	/*
	 * The runs were checked against the allocated size (below 2^62
	 * bytes), so these shifts cannot wrap; a mapping of 0 bytes would
	 * stop every iomap walk from advancing, refuse it all the same.
	 */
	iomap->offset = vcn << cb;
	if (check_shl_overflow(run->vcn + run->len, cb, &run_end) ||
	    run_end <= iomap->offset) {
		up_read(&ns->run_lock);
		return -EIO;
	}
	iomap->length = run_end - iomap->offset;
	if (run->lcn == NTFS_LCN_HOLE) {
		up_read(&ns->run_lock);
		ntfs_iomap_hole(iomap, iomap->offset, iomap->length);
		return 0;
	}
	iomap->addr = (run->lcn + (vcn - run->vcn)) << cb;
	up_read(&ns->run_lock);

	/*
	 * Allocated but never written: zeros, without reading the disk.  The
	 * test is on @pos: a cluster may start below the valid size and @pos
	 * lie past it, and the mapping only matters from @pos on.  A writer
	 * gets such blocks as new (iomap zeroes what it does not overwrite
	 * instead of reading it), since the valid size will move past them.
	 */
	valid = round_up(ns->valid_size, i_blocksize(inode));
	iomap->type = IOMAP_MAPPED;
	if (pos >= valid) {
		if (flags & (IOMAP_WRITE | IOMAP_ZERO))
			iomap->flags |= IOMAP_F_NEW;
		else
			iomap->type = IOMAP_UNWRITTEN;
	} else if (iomap->offset + iomap->length > valid) {
		iomap->length = valid - iomap->offset;
	}
	return 0;
}

const struct iomap_ops ntfs_iomap_ops = {
	.iomap_begin = ntfs_iomap_begin,
};

/* Whether the units of VCNs [@first, @last] of a compressed stream are plain. */
static bool ntfs_units_plain(struct ntfs_stream *ns, u64 first, u64 last, u8 cb)
{
	u64 cu;

	for (cu = first >> ns->compression_unit; cu <= last >> ns->compression_unit; cu++)
		if (!ntfs_cu_plain(ns, cu, cb))
			return false;
	return true;
}

/**
 * ntfs_zero_on_disk() - Write zeros over the clusters behind a byte range
 * @inode:	the inode of a non-resident stream (plain, sparse, or
 *		compressed with the range's allocated units stored plainly)
 * @start:	first byte, a multiple of the block size
 * @end:	end of the range, a multiple of the block size
 *
 * Holes (and what lies past the allocation) are left alone, and the page
 * cache is not looked at: this is for blocks past the end of the file,
 * whose dirty folios writeback drops instead of writing (see
 * ntfs_zero_gap() in file.c).
 *
 * Return: 0, -EIO when the runs do not cover the range or it meets a
 * packed compression unit, or the error of the write.
 */
int ntfs_zero_on_disk(struct inode *inode, loff_t start, loff_t end)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u8 cb = NTFS_SB(inode->i_sb)->cluster_bits;
	const struct ntfs_run *run;
	u64 run_end, n, disk;
	int err = 0;

	down_read(&ns->run_lock);
	/* Past the allocation a stream has no clusters (a sparse one's hole). */
	end = min_t(u64, end, ns->alloc_size);
	while (!err && start < end) {
		run = ntfs_run_lookup(ns->runs, ns->nr_runs, start >> cb);
		if (!run || check_shl_overflow(run->vcn + run->len, cb, &run_end)) {
			err = -EIO;
			break;
		}
		n = min_t(u64, end, run_end) - start;
		if (run->lcn != NTFS_LCN_HOLE && ns->compressed &&
		    !ntfs_units_plain(ns, start >> cb, (start + n - 1) >> cb, cb)) {
			err = -EIO;
			break;
		}
		if (run->lcn != NTFS_LCN_HOLE) {
			disk = (run->lcn << cb) + start - (run->vcn << cb);
			err = blkdev_issue_zeroout(inode->i_sb->s_bdev, disk >> SECTOR_SHIFT,
						   n >> SECTOR_SHIFT, GFP_NOFS, 0);
		}
		start += n;
		cond_resched();
	}
	up_read(&ns->run_lock);
	return err;
}

/* ---- address space ------------------------------------------------------ */

/*
 * Plain streams: readahead builds the bios itself.  A 4 KiB page costs
 * iomap's generic per-folio path (block ranges, per-block state, zeroing
 * checks) about 280 instructions and mpage about 190; walking the folios
 * against the cached run and adding each to the current bio costs far
 * less.  iomap stays for everything else (read_folio of odd folios, direct
 * I/O, fiemap, SEEK_HOLE/SEEK_DATA) and for the write path.
 */
struct ntfs_ra {
	struct inode *inode;
	blk_opf_t opf;			/* REQ_RAHEAD unless a reader waits */
	struct iomap map;		/* the extent the last folio was in */
	struct bio *bio;
	sector_t next;			/* sector that continues @bio */
};

/*
 * Bytes past the valid (initialized) size read as zeros, also inside the
 * block that holds it: between the valid size and the data size the disk
 * may hold anything (Windows' SetFileValidData skips zeroing).  So do the
 * bytes past the end of the file in its last folio, which a shared
 * mapping shows: a truncation leaves the old data of the last block on
 * disk when its folio is not cached (O_DIRECT writers, fsx found it), and
 * other drivers need not zero that tail either.
 */
static void ntfs_zero_past_valid(struct ntfs_stream *ns, struct folio *folio)
{
	loff_t pos = folio_pos(folio);
	size_t len = folio_size(folio);
	loff_t end = min_t(loff_t, ns->valid_size, i_size_read(folio->mapping->host));

	if (end < pos + len)
		folio_zero_segment(folio, max_t(loff_t, end - pos, 0), len);
}

static void ntfs_read_end_io(struct bio *bio)
{
	struct ntfs_stream *ns = bio->bi_private;
	bool ok = !bio->bi_status;
	struct folio_iter fi;

	bio_for_each_folio_all(fi, bio) {
		if (ok)
			ntfs_zero_past_valid(ns, fi.folio);
		folio_end_read(fi.folio, ok);
	}
	bio_put(bio);
}

static void ntfs_ra_submit(struct ntfs_ra *ra)
{
	if (ra->bio)
		submit_bio(ra->bio);
	ra->bio = NULL;
}

/* Add @folio, which lies inside the mapped extent @ra->map, to a bio. */
static void ntfs_ra_add(struct ntfs_ra *ra, struct folio *folio, unsigned int nr_left)
{
	size_t len = folio_size(folio);
	sector_t sector = (ra->map.addr + folio_pos(folio) - ra->map.offset) >> SECTOR_SHIFT;

	if (ra->bio && (sector != ra->next || !bio_add_folio(ra->bio, folio, len, 0)))
		ntfs_ra_submit(ra);
	if (!ra->bio) {
		ra->bio = bio_alloc(ra->map.bdev, bio_max_segs(nr_left + 1),
				    REQ_OP_READ | ra->opf, GFP_NOFS);
		ra->bio->bi_iter.bi_sector = sector;
		ra->bio->bi_end_io = ntfs_read_end_io;
		ra->bio->bi_private = &NTFS_I(ra->inode)->stream;
		bio_add_folio_nofail(ra->bio, folio, len, 0);
	}
	ra->next = sector + (len >> SECTOR_SHIFT);
}

/*
 * A folio that spans several runs (clusters smaller than a page, at a
 * fragment boundary, or the block that holds the end of the valid data):
 * read each piece synchronously, zero the holes, then finish the folio.
 * Rare, so simplicity wins over overlapping the pieces' I/O.
 */
static void ntfs_read_folio_pieces(struct inode *inode, struct folio *folio)
{
	loff_t pos = folio_pos(folio);
	size_t len = folio_size(folio), off = 0;
	struct iomap map;
	int err = 0;

	while (!err && off < len) {
		size_t n;

		err = ntfs_iomap_begin(inode, pos + off, len - off, 0, &map, NULL);
		if (err)
			break;
		n = min_t(u64, len - off, map.offset + map.length - (pos + off));
		if (!n) {
			err = -EIO;
			break;
		}
		if (map.type == IOMAP_MAPPED) {
			struct bio *bio = bio_alloc(map.bdev, 1, REQ_OP_READ, GFP_NOFS);

			bio->bi_iter.bi_sector =
				(map.addr + pos + off - map.offset) >> SECTOR_SHIFT;
			bio_add_folio_nofail(bio, folio, n, off);
			err = submit_bio_wait(bio);
			bio_put(bio);
		} else {
			folio_zero_range(folio, off, n);
		}
		off += n;
	}
	if (!err)
		ntfs_zero_past_valid(&NTFS_I(inode)->stream, folio);
	folio_end_read(folio, !err);
}

/* Read one locked folio of a plain stream for readahead. */
static void ntfs_ra_folio(struct ntfs_ra *ra, struct folio *folio, unsigned int nr_left)
{
	loff_t pos = folio_pos(folio), end = pos + folio_size(folio);

	if (pos < ra->map.offset || pos >= ra->map.offset + ra->map.length) {
		if (ntfs_iomap_begin(ra->inode, pos, end - pos, 0, &ra->map, NULL)) {
			ra->map.length = 0;
			folio_unlock(folio);	/* not uptodate: the reader gets -EIO */
			return;
		}
	}
	if (end > ra->map.offset + ra->map.length) {
		ntfs_ra_submit(ra);
		ntfs_read_folio_pieces(ra->inode, folio);
		ra->map.length = 0;
		return;
	}
	if (ra->map.type != IOMAP_MAPPED) {
		folio_zero_range(folio, 0, folio_size(folio));
		folio_end_read(folio, true);
		return;
	}
	ntfs_ra_add(ra, folio, nr_left);
}

static void ntfs_readahead_plain(struct readahead_control *rac)
{
	struct ntfs_ra ra = { .inode = rac->mapping->host, .opf = REQ_RAHEAD };
	struct folio *folio;

	while ((folio = readahead_folio(rac)))
		ntfs_ra_folio(&ra, folio, readahead_count(rac));
	ntfs_ra_submit(&ra);
}

/* A plain stream's folio, read alone (no readahead): the same bio path. */
static int ntfs_read_plain_folio(struct inode *inode, struct folio *folio)
{
	struct ntfs_ra ra = { .inode = inode };

	/*
	 * A write of part of a folio whose blocks are smaller than a page
	 * (clusters below 4 KiB) left it partly uptodate, its block states
	 * kept by iomap: iomap reads the other blocks, keeping the written.
	 */
	if (folio_test_private(folio))
		return iomap_read_folio(folio, &ntfs_iomap_ops);

	ntfs_ra_folio(&ra, folio, 1);
	ntfs_ra_submit(&ra);
	return 0;
}

static int ntfs_read_resident_folio(struct ntfs_stream *ns, struct folio *folio)
{
	loff_t pos = folio_pos(folio);
	size_t len = folio_size(folio), n = 0;

	/* attrib.c swaps the value's buffer under run_lock when it changes. */
	down_read(&ns->run_lock);
	if (pos < ns->data_size)
		n = min_t(u64, len, ns->data_size - pos);
	if (n)
		memcpy_to_folio(folio, 0, ns->resident_data + pos, n);
	up_read(&ns->run_lock);
	folio_zero_range(folio, n, len - n);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

int ntfs_read_folio(struct file *file, struct folio *folio)
{
	struct inode *inode = folio->mapping->host;
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if (ns->resident)
		return ntfs_read_resident_folio(ns, folio);
	if (ns->compressed)
		return ntfs_read_compressed_folio(inode, folio);
	if (ns->encrypted) {
		folio_unlock(folio);
		return -EOPNOTSUPP;
	}
	return ntfs_read_plain_folio(inode, folio);
}

void ntfs_readahead(struct readahead_control *rac)
{
	struct ntfs_stream *ns = &NTFS_I(rac->mapping->host)->stream;

	if (ns->compressed && !ns->encrypted)
		ntfs_readahead_compressed(rac);
	else if (!ns->resident && !ns->encrypted)
		ntfs_readahead_plain(rac);
}

sector_t ntfs_bmap(struct address_space *mapping, sector_t block)
{
	struct ntfs_stream *ns = &NTFS_I(mapping->host)->stream;

	if (ns->resident || ns->compressed || ns->encrypted)
		return 0;
	return iomap_bmap(mapping, block, &ntfs_iomap_ops);
}
