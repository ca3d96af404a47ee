// SPDX-License-Identifier: GPL-2.0
/*
 * Clusters: the cluster bitmap, $Bitmap.  Today only the free-cluster count
 * for statfs, counted once.
 */

#include <linux/bitmap.h>
#include <linux/highmem.h>
#include <linux/pagemap.h>

#include "ntfs3.h"

/**
 * ntfs_count_free_clusters() - Free clusters, from $Bitmap, counted once
 * @sbi:	the volume
 *
 * Return: the count, or -1 when $Bitmap is unreadable.
 */
s64 ntfs_count_free_clusters(struct ntfs_sb *sbi)
{
	s64 cached = atomic64_read(&sbi->free_clusters);
	u64 bits = sbi->total_clusters, used = 0, pos = 0;
	struct inode *bm;

	if (cached >= 0)
		return cached;
	bm = ntfs_iget(sbi->sb, NTFS_BITMAP_INO);
	if (IS_ERR(bm))
		return -1;
	if (NTFS_I(bm)->stream.data_size < DIV_ROUND_UP(bits, 8) ||
	    ntfs_stream_check_meta(sbi, &NTFS_I(bm)->stream)) {
		iput(bm);
		return -1;
	}
	while (pos < bits) {
		struct folio *folio;
		unsigned long *map;
		u64 n;

		if (ntfs_walk_step()) {
			iput(bm);
			return -1;
		}
		folio = ntfs_stream_folio(bm, (pos / 8) >> PAGE_SHIFT, NTFS_BITMAP_READ_AROUND);
		if (IS_ERR(folio)) {
			iput(bm);
			return -1;
		}
		n = min_t(u64, bits - pos, (u64)folio_size(folio) * 8);
		map = kmap_local_folio(folio, 0);
		used += bitmap_weight(map, n);
		kunmap_local(map);
		folio_put(folio);
		pos += n;
	}
	iput(bm);
	atomic64_set(&sbi->free_clusters, bits - used);
	return bits - used;
}
