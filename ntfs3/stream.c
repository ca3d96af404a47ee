// SPDX-License-Identifier: GPL-2.0
/*
 * Streams (struct ntfs_stream): the in-memory description of one attribute's
 * contents - sizes, flags and the run cache - built from its attribute
 * extents and checked against the rules of the format; and reading the value
 * of a small non-resident attribute that has no inode of its own.
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "ntfs3.h"

void ntfs_stream_release(struct ntfs_stream *ns)
{
	kvfree(ns->runs);
	kfree(ns->resident_data);
	ns->runs = NULL;
	ns->resident_data = NULL;
	ns->nr_runs = 0;
	ns->cap_runs = 0;
}

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
 * ntfs_read_attr_list() - Read a non-resident attribute list value
 * @sbi:	the volume
 * @nr:		the base record holding the list (for messages)
 * @a:		the non-resident $ATTRIBUTE_LIST attribute
 * @room:	bytes to allocate past the value (for an entry to be added)
 * @size:	set to the value's length
 *
 * A list is one extent of at most 256 KiB: a list in extents would need
 * a list of its own, and the format's longest lists are far shorter.
 *
 * Return: the value in a kvmalloc() buffer of *@size + @room bytes, or an
 * ERR_PTR(): -EIO (reported) for a list that breaks those rules or cannot
 * be read, -ENOMEM.
 */
void *ntfs_read_attr_list(struct ntfs_sb *sbi, u64 nr, const struct ntfs_attr *a, u32 room,
			  u32 *size)
{
	u64 len = le64_to_cpu(a->nr.data_size);
	void *buf;
	int err;

	if (a->nr.lowest_vcn || len > NTFS_MAX_ATTR_LIST)
		return ERR_PTR(ntfs_err_ratelimited(sbi->sb, nr,
						    "attribute list in extents, or over 256 KiB"));
	buf = kvmalloc(max_t(u64, len + room, 1), GFP_NOFS);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	err = ntfs_read_nonres_attr(sbi, nr, a, buf, len);
	if (err) {
		kvfree(buf);
		return ERR_PTR(err);
	}
	*size = len;
	return buf;
}
