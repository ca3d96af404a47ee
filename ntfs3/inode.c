// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs inodes: reading one from its MFT records, the stream it exposes,
 * and how that stream reaches the page cache (iomap for plain and sparse
 * streams, a copy for resident ones, LZNT1 for compressed ones).
 */

#include <linux/bio.h>
#include <linux/iomap.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uio.h>
#include <linux/buffer_head.h>

#include "ntfs3.h"
#include "lznt1.h"

static struct kmem_cache *ntfs_inode_cachep;

/**
 * ntfs_time() - Convert an NTFS time (100 ns units since 1601) to a timespec
 * @t:	the on-disk time
 */
struct timespec64 ntfs_time(__le64 t)
{
	s64 v = le64_to_cpu(t);
	struct timespec64 ts;
	s32 rem;

	ts.tv_sec = div_s64_rem(v, 10000000, &rem) - NTFS_TIME_OFFSET;
	if (rem < 0) {
		rem += 10000000;
		ts.tv_sec--;
	}
	ts.tv_nsec = rem * 100;
	return ts;
}

struct inode *ntfs_alloc_inode(struct super_block *sb)
{
	struct ntfs_inode *ni = alloc_inode_sb(sb, ntfs_inode_cachep, GFP_NOFS);

	if (!ni)
		return NULL;
	ni->record = 0;
	ni->seq = 0;
	ni->attributes = 0;
	ni->security_id = 0;
	ni->reparse_tag = 0;
	ni->link_drive_rooted = false;
	ni->dir_record = false;
	ni->link = NULL;
	ni->owner = NULL;
	ni->index_root = NULL;
	ni->index_root_size = 0;
	ni->index_block_size = 0;
	ni->index_collation = 0;
	atomic64_set(&ni->lookup_hint, 0);
	memset(&ni->stream, 0, sizeof(ni->stream));
	init_rwsem(&ni->stream.run_lock);
	return &ni->vfs_inode;
}

void ntfs_stream_release(struct ntfs_stream *ns)
{
	kvfree(ns->runs);
	kfree(ns->resident_data);
	ns->runs = NULL;
	ns->resident_data = NULL;
	ns->nr_runs = 0;
	ns->cap_runs = 0;
}

void ntfs_free_inode(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);

	kfree(ni->link);
	kfree(ni->index_root);
	ntfs_stream_release(&ni->stream);
	kmem_cache_free(ntfs_inode_cachep, ni);
}

void ntfs_evict_inode(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);

	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	if (ni->owner) {
		iput(ni->owner);
		ni->owner = NULL;
	}
}

static void ntfs_inode_init_once(void *p)
{
	struct ntfs_inode *ni = p;

	inode_init_once(&ni->vfs_inode);
}

int __init ntfs_inode_cache_init(void)
{
	ntfs_inode_cachep = kmem_cache_create("ntfs3_ours_inode", sizeof(struct ntfs_inode), 0,
					      SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
					      ntfs_inode_init_once);
	return ntfs_inode_cachep ? 0 : -ENOMEM;
}

void ntfs_inode_cache_destroy(void)
{
	rcu_barrier();
	kmem_cache_destroy(ntfs_inode_cachep);
}

/* ---- streams ------------------------------------------------------------ */

/* Report which rule of the format a stream breaks; returns -EIO. */
static int ntfs_stream_bad(struct ntfs_sb *sbi, const struct ntfs_stream *ns, const char *rule)
{
	return ntfs_err_ratelimited(sbi->sb, ns->record, "attribute 0x%x: %s", ns->type, rule);
}

/**
 * ntfs_stream_from_attr() - Describe a stream from its first attribute extent
 * @sbi:	the volume
 * @ns:		stream to fill (type and name are set by the caller)
 * @a:		the attribute, checked by ntfs_next_attr(); for a non-resident
 *		one, the extent with lowest VCN 0
 *
 * Return: 0, -EIO for inconsistent sizes, -ENOMEM.
 */
int ntfs_stream_from_attr(struct ntfs_sb *sbi, struct ntfs_stream *ns,
			  const struct ntfs_attr *a)
{
	u16 flags = le16_to_cpu(a->flags);

	ns->compressed = flags & NTFS_ATTR_COMPR_MASK;
	ns->sparse = flags & NTFS_ATTR_SPARSE;
	ns->encrypted = flags & NTFS_ATTR_ENCRYPTED;
	/*
	 * On a directory these flags are only the default for new files:
	 * index blocks are always stored as they are.
	 */
	if (ns->type == NTFS_AT_INDEX_ALLOC) {
		ns->compressed = false;
		ns->encrypted = false;
	}

	if (!a->non_resident) {
		u32 len = le32_to_cpu(a->r.value_length);

		ns->resident = true;
		ns->compressed = false;
		ns->data_size = len;
		ns->valid_size = len;
		ns->alloc_size = len;
		ns->resident_data = kmemdup(ntfs_attr_value(a, 0), len ? len : 1, GFP_NOFS);
		return ns->resident_data ? 0 : -ENOMEM;
	}

	ns->resident = false;
	ns->data_size = le64_to_cpu(a->nr.data_size);
	ns->valid_size = le64_to_cpu(a->nr.valid_size);
	ns->alloc_size = le64_to_cpu(a->nr.allocated_size);
	ns->compression_unit = a->nr.compression_unit;
	if (ns->alloc_size & (sbi->cluster_size - 1))
		return ntfs_stream_bad(sbi, ns,
				       "allocated size is not a multiple of the cluster size");
	if (ns->compressed &&
	    (ns->compression_unit != 4 || sbi->cluster_size > 4096))
		return ntfs_stream_bad(sbi, ns,
				       "compressed, but not in 16-cluster units of clusters up to 4 KiB");
	return 0;
}

/**
 * ntfs_stream_add_extent() - Decode one extent's runs into a stream's cache
 * @sbi:	the volume
 * @ns:		the stream
 * @a:		a non-resident attribute extent of that stream
 *
 * Return: 0, -EIO for invalid mapping pairs, -ENOMEM.
 */
int ntfs_stream_add_extent(struct ntfs_sb *sbi, struct ntfs_stream *ns,
			   const struct ntfs_attr *a)
{
	u32 mp = le16_to_cpu(a->nr.mp_offset);
	u64 end_vcn = le64_to_cpu(a->nr.highest_vcn) + 1, end_byte;
	const char *why = "mapping pairs";
	int err;

	/* Every VCN of the extent must have a byte offset that fits a loff_t. */
	if (check_shl_overflow(end_vcn, sbi->cluster_bits, &end_byte) ||
	    end_byte > MAX_LFS_FILESIZE)
		return ntfs_stream_bad(sbi, ns, "highest_vcn has no byte offset below 2^63");
	down_write(&ns->run_lock);
	err = ntfs_decode_runs((const u8 *)a + mp, le32_to_cpu(a->length) - mp,
			       le64_to_cpu(a->nr.lowest_vcn),
			       le64_to_cpu(a->nr.highest_vcn),
			       sbi->total_clusters, &ns->runs, &ns->nr_runs,
			       &ns->cap_runs, &why);
	up_write(&ns->run_lock);
	return err == -EIO ? ntfs_stream_bad(sbi, ns, why) : err;
}

static int ntfs_run_cmp(const void *a, const void *b)
{
	const struct ntfs_run *x = a, *y = b;

	return x->vcn < y->vcn ? -1 : x->vcn > y->vcn;
}

/**
 * ntfs_stream_finish_runs() - Sort and check a stream's runs once all are in
 * @sbi:	the volume
 * @ns:		the stream
 *
 * The runs must not overlap and must cover the allocation exactly.
 *
 * Return: 0 or -EIO.
 */
int ntfs_stream_finish_runs(struct ntfs_sb *sbi, struct ntfs_stream *ns)
{
	u64 end;

	if (ns->resident)
		return 0;
	sort(ns->runs, ns->nr_runs, sizeof(*ns->runs), ntfs_run_cmp, NULL);
	if (ntfs_runs_merge_check(ns->runs, ns->nr_runs))
		return ntfs_stream_bad(sbi, ns, "extents overlap");
	end = ns->nr_runs ? ns->runs[ns->nr_runs - 1].vcn + ns->runs[ns->nr_runs - 1].len : 0;
	if (ns->nr_runs && ns->runs[0].vcn)
		return ntfs_stream_bad(sbi, ns, "no extent starts at VCN 0");
	/*
	 * Compared in clusters: shifting @end to bytes could wrap and let
	 * runs far longer than the allocation pass (the size is a multiple
	 * of the cluster size, ntfs_stream_from_attr() checked that).
	 */
	if (end != ns->alloc_size >> sbi->cluster_bits)
		return ntfs_stream_bad(sbi, ns, "runs do not cover the allocated size exactly");
	ns->runs_loaded = true;
	return 0;
}

/**
 * ntfs_stream_check_meta() - Refuse a metadata stream the format never makes
 * @sbi:	the volume
 * @ns:		a metadata stream whose runs are all loaded ($MFT, an index
 *		allocation, $Secure:$SDS, $Bitmap, a non-resident attribute
 *		list, $EA, ...)
 *
 * Metadata is never sparse, compressed or encrypted, and never larger
 * than the volume.  Walks over such a stream are bounded by its size, so
 * a sparse tail claiming petabytes would make them run for days on a
 * tiny image: every byte of a metadata stream must be on the disk.
 *
 * Return: 0 or -EIO.
 */
int ntfs_stream_check_meta(struct ntfs_sb *sbi, const struct ntfs_stream *ns)
{
	unsigned int i;

	if (ns->resident)
		return 0;
	if (!ns->runs_loaded)
		return ntfs_stream_bad(sbi, ns, "metadata whose runs are not all loaded");
	if (ns->compressed || ns->encrypted)
		return ntfs_stream_bad(sbi, ns, "metadata is never compressed or encrypted");
	if (ns->alloc_size >> sbi->cluster_bits > sbi->total_clusters)
		return ntfs_stream_bad(sbi, ns, "metadata larger than the volume");
	for (i = 0; i < ns->nr_runs; i++)
		if (ns->runs[i].lcn == NTFS_LCN_HOLE)
			return ntfs_stream_bad(sbi, ns, "metadata is never sparse");
	return 0;
}

/* ---- iomap ---------------------------------------------------------------- */

static void ntfs_iomap_hole(struct iomap *iomap, loff_t offset, u64 length)
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

	if (flags & (IOMAP_WRITE | IOMAP_ZERO))
		return -EROFS;
	if (ns->resident || ns->compressed || ns->encrypted)
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
	 * lie past it, and the mapping only matters from @pos on.
	 */
	valid = round_up(ns->valid_size, i_blocksize(inode));
	iomap->type = IOMAP_MAPPED;
	if (pos >= valid)
		iomap->type = IOMAP_UNWRITTEN;
	else if (iomap->offset + iomap->length > valid)
		iomap->length = valid - iomap->offset;
	return 0;
}

const struct iomap_ops ntfs_iomap_ops = {
	.iomap_begin = ntfs_iomap_begin,
};

/* ---- address space -------------------------------------------------------- */

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
 * may hold anything (Windows' SetFileValidData skips zeroing).  Past the
 * end of the file, the tail of its last block is read as it is on disk,
 * as every block file system does (writers zero it).
 */
static void ntfs_zero_past_valid(struct ntfs_stream *ns, struct folio *folio)
{
	loff_t pos = folio_pos(folio);
	size_t len = folio_size(folio);

	if (ns->valid_size < ns->data_size && ns->valid_size < pos + len)
		folio_zero_segment(folio, max_t(loff_t, ns->valid_size - pos, 0), len);
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

	ntfs_ra_folio(&ra, folio, 1);
	ntfs_ra_submit(&ra);
	return 0;
}

static int ntfs_read_resident_folio(struct ntfs_stream *ns, struct folio *folio)
{
	loff_t pos = folio_pos(folio);
	size_t len = folio_size(folio), n = 0;

	if (pos < ns->data_size)
		n = min_t(u64, len, ns->data_size - pos);
	if (n)
		memcpy_to_folio(folio, 0, ns->resident_data + pos, n);
	folio_zero_range(folio, n, len - n);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static int ntfs_read_folio(struct file *file, struct folio *folio)
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

static void ntfs_readahead(struct readahead_control *rac)
{
	struct ntfs_stream *ns = &NTFS_I(rac->mapping->host)->stream;

	if (ns->compressed && !ns->encrypted)
		ntfs_readahead_compressed(rac);
	else if (!ns->resident && !ns->encrypted)
		ntfs_readahead_plain(rac);
}

static sector_t ntfs_bmap(struct address_space *mapping, sector_t block)
{
	struct ntfs_stream *ns = &NTFS_I(mapping->host)->stream;

	if (ns->resident || ns->compressed || ns->encrypted)
		return 0;
	return iomap_bmap(mapping, block, &ntfs_iomap_ops);
}

const struct address_space_operations ntfs_aops = {
	.read_folio		= ntfs_read_folio,
	.readahead		= ntfs_readahead,
	.bmap			= ntfs_bmap,
	.direct_IO		= noop_direct_IO,
	.release_folio		= iomap_release_folio,
	.invalidate_folio	= iomap_invalidate_folio,
	.is_partially_uptodate	= iomap_is_partially_uptodate,
	.error_remove_folio	= generic_error_remove_folio,
	.migrate_folio		= filemap_migrate_folio,
};

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

	if (pos > ns->data_size || len > ns->data_size - pos)
		return -EIO;
	if (ns->resident) {
		memcpy(buf, ns->resident_data + pos, len);
		return 0;
	}
	while (len) {
		struct folio *folio = ntfs_stream_folio(inode, pos >> PAGE_SHIFT, ns->read_around);
		size_t off, n;

		if (IS_ERR(folio))
			return -EIO;
		off = offset_in_folio(folio, pos);
		n = min_t(size_t, len, folio_size(folio) - off);
		memcpy_from_folio(buf, folio, off, n);
		folio_put(folio);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
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
 * ntfs_read_nonres_attr() - Read the value of a one-extent non-resident attribute
 * @sbi:	the volume
 * @nr:		base record of the file it belongs to (for messages)
 * @a:		the attribute (lowest VCN 0, holding the whole value)
 * @buf:	destination
 * @len:	bytes to read, at most the attribute's data size
 *
 * For small metadata that has no inode of its own (attribute lists,
 * $EA, reparse data); bypasses the page cache.  The attribute must pass
 * ntfs_stream_check_meta(): such metadata is never sparse.
 *
 * Return: 0, -EIO, -ENOMEM.
 */
int ntfs_read_nonres_attr(struct ntfs_sb *sbi, u64 nr, const struct ntfs_attr *a,
			  void *buf, u64 len)
{
	struct ntfs_stream ns = { .record = nr, .type = le32_to_cpu(a->type) };
	u64 pos = 0;
	int err;

	init_rwsem(&ns.run_lock);
	err = ntfs_stream_from_attr(sbi, &ns, a);
	if (!err && len > ns.data_size)
		err = -EIO;
	if (!err)
		err = ntfs_stream_add_extent(sbi, &ns, a);
	if (!err)
		err = ntfs_stream_finish_runs(sbi, &ns);
	if (!err)
		err = ntfs_stream_check_meta(sbi, &ns);
	while (!err && pos < len) {
		const struct ntfs_run *run = ntfs_run_lookup(ns.runs, ns.nr_runs,
							     pos >> sbi->cluster_bits);
		u64 in_run, n;

		if (!run) {
			err = -EIO;
			break;
		}
		in_run = ((run->vcn + run->len) << sbi->cluster_bits) - pos;
		n = min(in_run, len - pos);
		if (!n) {		/* the checks above rule it out; never loop */
			err = -EIO;
			break;
		}
		if (run->lcn == NTFS_LCN_HOLE || pos >= ns.valid_size)
			memset(buf + pos, 0, n);
		else
			err = ntfs_read_volume(sbi->sb, (run->lcn << sbi->cluster_bits) +
					       pos - (run->vcn << sbi->cluster_bits),
					       buf + pos, n);
		pos += n;
	}
	ntfs_stream_release(&ns);
	return err;
}

/**
 * ntfs_new_stream_inode() - An unhashed inode whose page cache reads a stream
 * @sb:		the super block
 * @owner:	the file the stream belongs to (a reference is taken), or NULL
 * @ns:		the stream; moved into the new inode
 *
 * Return: the inode or an ERR_PTR().
 */
struct inode *ntfs_new_stream_inode(struct super_block *sb, struct inode *owner,
				    struct ntfs_stream *ns)
{
	struct inode *inode = new_inode(sb);
	struct ntfs_inode *ni;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	ni = NTFS_I(inode);
	ni->stream = *ns;
	init_rwsem(&ni->stream.run_lock);
	memset(ns, 0, sizeof(*ns));
	init_rwsem(&ns->run_lock);
	if (owner) {
		ni->owner = igrab(owner);
		inode->i_ino = owner->i_ino;
	}
	inode->i_mode = S_IFREG;
	inode->i_size = ni->stream.data_size;
	inode->i_mapping->a_ops = &ntfs_aops;
	mapping_set_gfp_mask(inode->i_mapping, GFP_NOFS);
	return inode;
}
