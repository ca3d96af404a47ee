// SPDX-License-Identifier: GPL-2.0
/*
 * Compressed streams: LZNT1-compressed data (lznt1.c decodes it) read one
 * compression unit at a time, for read_folio and readahead; and units
 * stored uncompressed before they are written to.  Units are read around
 * the buffer cache: once stored plainly, their data is written by the page
 * cache straight to the device.
 */

#include <linux/pagemap.h>
#include <linux/slab.h>

#include "ntfs3.h"
#include "lznt1.h"

/*
 * Fill @dst with compression unit @cu of a compressed stream.  A unit
 * whose clusters are all allocated is stored as is; one with no clusters
 * is zeros; otherwise its allocated clusters (the first ones) hold LZNT1
 * data.
 */
static int ntfs_read_cu(struct inode *inode, u64 cu, u8 *dst, u8 *src)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u32 cu_clusters = 1U << ns->compression_unit;
	u32 cu_bytes = cu_clusters << sbi->cluster_bits;
	u64 vcn = cu << ns->compression_unit, end = vcn + cu_clusters;
	u32 have = 0;
	size_t out;
	int err = 0;

	down_read(&ns->run_lock);
	while (vcn < end) {
		const struct ntfs_run *run = ntfs_run_lookup(ns->runs, ns->nr_runs, vcn);
		u64 n;

		if (!run) {
			if ((vcn << sbi->cluster_bits) >= ns->alloc_size)
				break;
			err = -EIO;
			break;
		}
		n = min(run->vcn + run->len, end) - vcn;
		if (run->lcn != NTFS_LCN_HOLE) {
			u64 at = (run->lcn + vcn - run->vcn) << sbi->cluster_bits;

			err = ntfs_volume_io(inode->i_sb, at,
					     src + ((u64)have << sbi->cluster_bits),
					     n << sbi->cluster_bits, REQ_OP_READ);
			if (err)
				break;
			have += n;
		}
		vcn += n;
	}
	up_read(&ns->run_lock);
	if (err)
		return err;

	if (have == cu_clusters) {
		memcpy(dst, src, cu_bytes);
		return 0;
	}
	if (!have) {
		memset(dst, 0, cu_bytes);
		return 0;
	}
	err = ntfs_lznt1_decompress(src, (size_t)have << sbi->cluster_bits, dst, cu_bytes, &out);
	if (err)
		return -EIO;
	memset(dst + out, 0, cu_bytes - out);
	return 0;
}

/* The last compression unit decompressed, reused while folios fall in it. */
struct ntfs_cu_cache {
	u64 cu;
	bool valid;
	u32 cu_bytes;
	u8 *src;
	u8 *dst;
};

static int ntfs_cu_cache_init(struct inode *inode, struct ntfs_cu_cache *cc)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	cc->valid = false;
	cc->cu_bytes = (1U << ns->compression_unit) << NTFS_SB(inode->i_sb)->cluster_bits;
	cc->src = kvmalloc(cc->cu_bytes, GFP_NOFS);
	cc->dst = kvmalloc(cc->cu_bytes, GFP_NOFS);
	return cc->src && cc->dst ? 0 : -ENOMEM;
}

static void ntfs_cu_cache_free(struct ntfs_cu_cache *cc)
{
	kvfree(cc->src);
	kvfree(cc->dst);
}

/* Make @cc hold unit @cu, zeroed past the valid size. */
static int ntfs_cu_cache_load(struct inode *inode, struct ntfs_cu_cache *cc, u64 cu)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u64 valid = min(ns->valid_size, ns->data_size), cu_pos = cu * cc->cu_bytes;
	int err;

	if (cc->valid && cc->cu == cu)
		return 0;
	cc->valid = false;
	err = ntfs_read_cu(inode, cu, cc->dst, cc->src);
	if (err)
		return err;
	if (cu_pos + cc->cu_bytes > valid)
		memset(cc->dst + (valid > cu_pos ? valid - cu_pos : 0), 0,
		       cu_pos + cc->cu_bytes - max(valid, cu_pos));
	cc->cu = cu;
	cc->valid = true;
	return 0;
}

/* Fill a locked folio from the units it overlaps; it stays locked. */
static int ntfs_fill_compressed_folio(struct inode *inode, struct folio *folio,
				      struct ntfs_cu_cache *cc)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u64 pos = folio_pos(folio), end = pos + folio_size(folio);
	int err;

	while (pos < end) {
		u64 cu = div_u64(pos, cc->cu_bytes);
		u32 off = pos - cu * cc->cu_bytes;
		u32 n = min_t(u64, end - pos, cc->cu_bytes - off);

		if (pos >= ns->data_size) {
			folio_zero_range(folio, pos - folio_pos(folio), end - pos);
			break;
		}
		err = ntfs_cu_cache_load(inode, cc, cu);
		if (err) {
			if (err == -EIO)
				ntfs_err_ratelimited(inode->i_sb, inode->i_ino,
						     "damaged compressed data");
			return err;
		}
		memcpy_to_folio(folio, pos - folio_pos(folio), cc->dst + off, n);
		pos += n;
	}
	folio_mark_uptodate(folio);
	return 0;
}

/*
 * After one folio of a unit is read, put the unit's other pages into the
 * page cache too, from the same decompression, where that needs no wait.
 */
static void ntfs_fill_unit_siblings(struct inode *inode, struct folio *done,
				    struct ntfs_cu_cache *cc)
{
	struct address_space *mapping = inode->i_mapping;
	pgoff_t first = (cc->cu * cc->cu_bytes) >> PAGE_SHIFT;
	pgoff_t last = ((cc->cu + 1) * cc->cu_bytes - 1) >> PAGE_SHIFT;
	pgoff_t eof = (i_size_read(inode) - 1) >> PAGE_SHIFT;
	pgoff_t idx;

	if (!i_size_read(inode))
		return;
	for (idx = first; idx <= min(last, eof); idx++) {
		struct folio *folio;

		if (idx >= done->index && idx < done->index + folio_nr_pages(done))
			continue;
		folio = __filemap_get_folio(mapping, idx, FGP_LOCK | FGP_CREAT | FGP_NOWAIT,
					    mapping_gfp_mask(mapping) | __GFP_NORETRY);
		if (IS_ERR(folio))
			continue;
		if (!folio_test_uptodate(folio))
			ntfs_fill_compressed_folio(inode, folio, cc);
		folio_unlock(folio);
		folio_put(folio);
	}
}

/**
 * ntfs_read_compressed_folio() - read_folio for an LZNT1-compressed stream
 * @inode:	the file
 * @folio:	locked folio to fill
 *
 * Decompresses the compression units the folio overlaps, and fills the
 * other pages of the unit from the same decompression.
 *
 * Return: 0 or a negative error; the folio is unlocked either way.
 */
int ntfs_read_compressed_folio(struct inode *inode, struct folio *folio)
{
	struct ntfs_cu_cache cc;
	int err = ntfs_cu_cache_init(inode, &cc);

	if (!err)
		err = ntfs_fill_compressed_folio(inode, folio, &cc);
	folio_unlock(folio);
	if (!err && cc.valid)
		ntfs_fill_unit_siblings(inode, folio, &cc);
	ntfs_cu_cache_free(&cc);
	return err;
}

/**
 * ntfs_readahead_compressed() - readahead for an LZNT1-compressed stream
 * @rac:	the readahead request
 *
 * Decompresses each unit once for all the folios of the request in it.
 */
void ntfs_readahead_compressed(struct readahead_control *rac)
{
	struct inode *inode = rac->mapping->host;
	struct ntfs_cu_cache cc;
	struct folio *folio;
	int err = ntfs_cu_cache_init(inode, &cc);

	while ((folio = readahead_folio(rac))) {
		if (!err && ntfs_fill_compressed_folio(inode, folio, &cc))
			err = -EIO;	/* leave the rest to read_folio */
		folio_unlock(folio);
	}
	ntfs_cu_cache_free(&cc);
}

/* ---- writing ------------------------------------------------------------ */

/*
 * How many of the clusters of unit @cu are allocated (those past the
 * allocation are not); @ns's run_lock held.  -EIO when the runs do not
 * cover the allocation.
 */
static int ntfs_cu_allocated(struct ntfs_stream *ns, u64 cu, u8 cb)
{
	u64 vcn = cu << ns->compression_unit;
	u64 end = min(vcn + (1U << ns->compression_unit), ns->alloc_size >> cb);
	const struct ntfs_run *run;
	int have = 0;

	while (vcn < end) {
		run = ntfs_run_lookup(ns->runs, ns->nr_runs, vcn);
		if (!run)
			return -EIO;
		if (run->lcn != NTFS_LCN_HOLE)
			have += min(run->vcn + run->len, end) - vcn;
		vcn = run->vcn + run->len;
	}
	return have;
}

/**
 * ntfs_cu_plain() - Whether a compression unit holds its data uncompressed
 * @ns:		a compressed stream; its run_lock held
 * @cu:		the unit
 * @cb:		the volume's cluster bits
 *
 * Return: true when every cluster of the unit is allocated.
 */
bool ntfs_cu_plain(struct ntfs_stream *ns, u64 cu, u8 cb)
{
	return ntfs_cu_allocated(ns, cu, cb) == 1U << ns->compression_unit;
}

/**
 * ntfs_cu_needs_store() - Whether a unit must be stored before a write
 * @inode:	the file, a compressed stream
 * @cu:		the unit
 * @holes:	whether a hole must be too (a write; zeroing leaves holes)
 *
 * Return: true for a packed unit, and for a hole when @holes; also on
 * damaged runs (ntfs_cu_unpack() reports them).
 */
bool ntfs_cu_needs_store(struct inode *inode, u64 cu, bool holes)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	int have;

	down_read(&ns->run_lock);
	have = ntfs_cu_allocated(ns, cu, NTFS_SB(inode->i_sb)->cluster_bits);
	up_read(&ns->run_lock);
	if (have == 1U << ns->compression_unit)
		return false;
	return have || holes;
}

/**
 * ntfs_cu_unpack() - A compression unit as it reads, to be stored plainly
 * @inode:	the file, a non-resident compressed stream
 * @cu:		the unit
 *
 * A write into a compressed stream goes to units that hold their data as
 * it reads (every cluster allocated, which NTFS allows in any compressed
 * stream): the page cache then writes them like plain data.  This gives
 * what such a unit must hold: a packed unit decompressed, a hole as
 * zeros, zeros past the valid size.
 *
 * Return: a buffer of the unit's bytes (kvfree() it); ERR_PTR(-EIO) for
 * damaged data or runs, ERR_PTR(-ENOMEM).
 */
void *ntfs_cu_unpack(struct inode *inode, u64 cu)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u8 cb = NTFS_SB(inode->i_sb)->cluster_bits;
	struct ntfs_cu_cache cc;
	int have, err;

	down_read(&ns->run_lock);
	have = ntfs_cu_allocated(ns, cu, cb);
	up_read(&ns->run_lock);
	if (have < 0)
		return ERR_PTR(ntfs_err_ratelimited(inode->i_sb, ns->record,
						    "compressed stream: runs do not cover unit %llu",
						    cu));
	err = ntfs_cu_cache_init(inode, &cc);
	if (!err && have)
		err = ntfs_cu_cache_load(inode, &cc, cu);
	else if (!err)
		memset(cc.dst, 0, cc.cu_bytes);
	if (err == -EIO)
		ntfs_err_ratelimited(inode->i_sb, ns->record,
				     "compressed stream: unit %llu is damaged", cu);
	kvfree(cc.src);
	if (err) {
		kvfree(cc.dst);
		return ERR_PTR(err);
	}
	return cc.dst;
}
