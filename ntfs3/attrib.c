// SPDX-License-Identifier: GPL-2.0
/*
 * The attributes of a file across its records: the record set (the base
 * record and the extension records its $ATTRIBUTE_LIST names, each checked to
 * belong to the base record) and the walk over all their attributes.
 */

#include <linux/blkdev.h>
#include <linux/pagemap.h>
#include <linux/slab.h>

#include "ntfs3.h"
#include "attrrec.h"

void ntfs_recset_free(struct ntfs_recset *rs)
{
	unsigned int i;

	for (i = 0; i < rs->nr; i++)
		kfree(rs->rec[i]);
	kfree(rs->rec);
	kfree(rs->recnr);
	kvfree(rs->attr_list);
	memset(rs, 0, sizeof(*rs));
}

/* Report which rule of the format a file's records break; returns -EIO. */
static int ntfs_recset_bad(const struct ntfs_recset *rs, const char *rule)
{
	return ntfs_err_ratelimited(rs->sbi->sb, rs->base, "%s", rule);
}

static int ntfs_recset_add(struct ntfs_sb *sbi, struct ntfs_recset *rs, u64 nr)
{
	void **grown;
	u64 *grown_nr;
	void *buf;
	int err;

	if (rs->nr == rs->cap) {
		unsigned int cap = rs->cap ? 2 * rs->cap : 4;

		if (cap > NTFS_MAX_EXT_RECORDS)
			return ntfs_recset_bad(rs, "more than 4096 extension records");
		grown = krealloc_array(rs->rec, cap, sizeof(*grown), GFP_NOFS);
		if (!grown)
			return -ENOMEM;
		rs->rec = grown;
		grown_nr = krealloc_array(rs->recnr, cap, sizeof(*grown_nr), GFP_NOFS);
		if (!grown_nr)
			return -ENOMEM;
		rs->recnr = grown_nr;
		rs->cap = cap;
	}
	buf = kmalloc(sbi->record_size, GFP_NOFS);
	if (!buf)
		return -ENOMEM;
	err = ntfs_read_record(sbi, nr, buf);
	if (err) {
		kfree(buf);
		return err;
	}
	rs->recnr[rs->nr] = nr;
	rs->rec[rs->nr++] = buf;
	return 0;
}

static bool ntfs_recset_has(const struct ntfs_recset *rs, u64 nr)
{
	unsigned int i;

	for (i = 0; i < rs->nr; i++)
		if (rs->recnr[i] == nr)
			return true;
	return false;
}

/*
 * Load the extension records an attribute list names.  Each must be in use
 * and point back at the base record with the right sequence number.
 */
static int ntfs_recset_load_list(struct ntfs_sb *sbi, struct ntfs_recset *rs)
{
	const u8 *p = rs->attr_list, *end = p + rs->attr_list_size;
	u16 base_seq = le16_to_cpu(((struct ntfs_record *)rs->rec[0])->sequence);

	while (p < end) {
		const struct ntfs_attr_list_entry *e = (const void *)p;
		u64 ref, nr;
		u16 len;
		int err;

		if (end - p < sizeof(*e))
			return ntfs_recset_bad(rs, "attribute list ends inside an entry");
		len = le16_to_cpu(e->length);
		if (len < sizeof(*e) || len % 8 > 0 || len > end - p ||
		    e->name_offset + 2 * e->name_length > len)
			return ntfs_recset_bad(rs,
					       "attribute list entry: length or name out of bounds");
		ref = le64_to_cpu(e->record);
		nr = NTFS_REF_RECORD(ref);
		p += len;
		if (ntfs_recset_has(rs, nr))
			continue;
		err = ntfs_recset_add(sbi, rs, nr);
		if (err)
			return err;
		{
			const struct ntfs_record *x = rs->rec[rs->nr - 1];
			u64 back = le64_to_cpu(x->base_record);

			if (!(le16_to_cpu(x->flags) & NTFS_RECORD_IN_USE) ||
			    NTFS_REF_RECORD(back) != rs->base ||
			    NTFS_REF_SEQ(back) != base_seq ||
			    le16_to_cpu(x->sequence) != NTFS_REF_SEQ(ref))
				return ntfs_recset_bad(rs,
						       "attribute list names a record that is free, not ours, or of another sequence number");
		}
	}
	return 0;
}

/* Copy an attribute list value, resident or not, into @rs. */
static int ntfs_recset_read_list(struct ntfs_sb *sbi, struct ntfs_recset *rs,
				 const struct ntfs_attr *a)
{
	u64 size;

	if (!a->non_resident) {
		size = le32_to_cpu(a->r.value_length);
		rs->attr_list = kmemdup(ntfs_attr_value(a, 0), size, GFP_NOFS);
		if (!rs->attr_list)
			return -ENOMEM;
		rs->attr_list_size = size;
		return 0;
	}
	rs->attr_list = ntfs_read_attr_list(sbi, rs->base, a, 0, &rs->attr_list_size);
	if (IS_ERR(rs->attr_list)) {
		int err = PTR_ERR(rs->attr_list);

		rs->attr_list = NULL;
		return err;
	}
	return 0;
}

/**
 * ntfs_recset_load() - Read a file's base record and its extension records
 * @sbi:	the volume
 * @nr:		base record number
 * @rs:		set to fill; free it with ntfs_recset_free()
 *
 * Return: 0, -ENOENT for a record not in use or not a base record, -EIO
 * for a damaged record or attribute list, -ENOMEM.
 */
int ntfs_recset_load(struct ntfs_sb *sbi, u64 nr, struct ntfs_recset *rs)
{
	const struct ntfs_record *r;
	struct ntfs_attr *a = NULL;
	const char *why = NULL;
	int err;

	memset(rs, 0, sizeof(*rs));
	rs->sbi = sbi;
	rs->base = nr;
	err = ntfs_recset_add(sbi, rs, nr);
	if (err)
		return err;
	r = rs->rec[0];
	if (!(le16_to_cpu(r->flags) & NTFS_RECORD_IN_USE) || r->base_record)
		return -ENOENT;

	while ((a = ntfs_next_attr(r, a, &why)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) != NTFS_AT_ATTR_LIST)
			continue;
		err = ntfs_recset_read_list(sbi, rs, a);
		if (!err)
			err = ntfs_recset_load_list(sbi, rs);
		return err;
	}
	if (IS_ERR(a))
		ntfs_err_ratelimited(sbi->sb, nr, "%s", why);
	return PTR_ERR_OR_ZERO(a);
}

/**
 * ntfs_recset_next() - Walk every attribute of every record of a set
 * @rs:		the set
 * @pos:	cursor, zeroed before the first call
 *
 * Return: the next attribute, NULL at the end, ERR_PTR(-EIO) for a damaged
 * attribute header.
 */
struct ntfs_attr *ntfs_recset_next(const struct ntfs_recset *rs, struct ntfs_recset_pos *pos)
{
	const char *why = NULL;
	struct ntfs_attr *a;

	while (pos->rec < rs->nr) {
		a = ntfs_next_attr(rs->rec[pos->rec], pos->attr, &why);
		if (IS_ERR(a)) {
			ntfs_err_ratelimited(rs->sbi->sb, rs->recnr[pos->rec], "%s", why);
			return a;
		}
		if (a) {
			pos->attr = a;
			return a;
		}
		pos->rec++;
		pos->attr = NULL;
	}
	return NULL;
}

/* ---- changing one record's attributes --------------------------------- */

/**
 * ntfs_rec_set_value_len() - Resize a resident value in its record
 * @sbi:	the volume
 * @rec:	the record
 * @a:		a resident attribute of it
 * @len:	new value length; a longer value is zero-filled
 *
 * Return: 0, -ENOSPC when the record lacks the room (nothing changed),
 * -EINVAL for a non-resident attribute, -EIO for a record that cannot be
 * walked.
 */
int ntfs_rec_set_value_len(struct ntfs_sb *sbi, void *rec, struct ntfs_attr *a, u32 len)
{
	struct ntfs_arec_ctx c;

	ntfs_rec_ctx(sbi, &c);
	return ntfs_arec_set_value_len(&c, rec, a, len);
}

/* ---- changing a stream ------------------------------------------------- */

/*
 * One change of an inode's stream in a transaction: the file's base
 * record, the record holding the stream's attribute (its first extent)
 * and that attribute (NULL while the stream has none: a file without
 * $DATA, a directory without index blocks; the record is then the base
 * record), all the transaction's copies.
 */
struct ntfs_sedit {
	struct ntfs_trans	*t;
	struct ntfs_sb		*sbi;
	struct inode		*inode;
	struct ntfs_stream	*ns;
	struct ntfs_record	*base;
	u64			base_nr;
	u64			nr;
	struct ntfs_record	*rec;
	struct ntfs_attr	*a;
	struct ntfs_arec_ctx	c;
};

/*
 * Base record of the file a stream belongs to: its owner's for a stream
 * inode that has one; the one the stream was loaded from for the others
 * (stream inodes of metafiles have no record of their own: @ni->record is
 * 0); a file's own when its stream was never loaded (no attribute).
 */
static u64 ntfs_stream_base(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);

	if (ni->owner)
		return NTFS_I(ni->owner)->record;
	return ni->stream.record ? ni->stream.record : ni->record;
}

static int ntfs_sedit_unsupported(struct ntfs_sedit *e, const char *what)
{
	ntfs_err_ratelimited(e->sbi->sb, e->nr, "attribute 0x%x: writing %s is not supported yet",
			     e->ns->type, what);
	return -EOPNOTSUPP;
}

/*
 * A non-resident attribute must be the stream's first extent (lowest VCN
 * 0) and have the allocated size the stream knows.
 */
static int ntfs_sedit_check_extent(struct ntfs_sedit *e)
{
	const struct ntfs_attr *a = e->a;

	if (!a->non_resident)
		return 0;
	if (a->nr.lowest_vcn || le64_to_cpu(a->nr.allocated_size) != e->ns->alloc_size)
		return ntfs_err_ratelimited(e->sbi->sb, e->nr,
					    "attribute 0x%x: first extent or allocated size not as loaded",
					    e->ns->type);
	/* The stream knows whether the flags count (not on index blocks). */
	if (e->ns->encrypted)
		return ntfs_sedit_unsupported(e, "an encrypted stream");
	return 0;
}

/**
 * ntfs_sedit_begin() - Find a stream's attribute in the transaction's record
 * @e:		filled in
 * @t:		the transaction
 * @inode:	the inode of the stream
 *
 * The attribute (its first extent) is looked up where the file's
 * attribute list places it, the base record or an extension record.  It
 * must agree with the inode about being resident.
 *
 * Return: 0, -EOPNOTSUPP (compressed, encrypted), -EIO, or the error of
 * reading the record.
 */
static int ntfs_sedit_begin(struct ntfs_sedit *e, struct ntfs_trans *t, struct inode *inode)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	int err;

	memset(e, 0, sizeof(*e));
	e->t = t;
	e->sbi = t->sbi;
	e->inode = inode;
	e->ns = ns;
	e->base_nr = ntfs_stream_base(inode);
	ntfs_rec_ctx(e->sbi, &e->c);
	e->base = ntfs_trans_record(t, e->base_nr);
	if (IS_ERR(e->base))
		return PTR_ERR(e->base);
	err = ntfs_rec_check(e->sbi, e->base, e->base_nr);
	if (err)
		return err;
	e->a = ntfs_file_find(t, e->base, e->base_nr, ns->type, ns->name, ns->name_len,
			      &e->rec, &e->nr);
	if (IS_ERR(e->a)) {
		err = PTR_ERR(e->a);
		e->a = NULL;
		return err;
	}
	if (!e->a)
		return 0;
	if (!e->a->non_resident != ns->resident)
		return ntfs_err_ratelimited(e->sbi->sb, e->nr,
					    "attribute 0x%x: resident on disk but not in memory, or the other way",
					    ns->type);
	return ntfs_sedit_check_extent(e);
}

/* As ntfs_sedit_begin(), for a change that needs a non-resident attribute. */
static int ntfs_sedit_begin_nonres(struct ntfs_sedit *e, struct ntfs_trans *t,
				   struct inode *inode)
{
	int err = ntfs_sedit_begin(e, t, inode);

	if (!err && (e->ns->resident || !e->a))
		err = -EINVAL;
	return err;
}

/*
 * Whether the header of a non-resident @a has the compressed size field
 * (0x48 bytes: compressed or sparse attributes), not taken by its name or
 * mapping pairs.
 */
static bool ntfs_attr_has_csize(const struct ntfs_attr *a)
{
	if (!(le16_to_cpu(a->flags) & (NTFS_ATTR_COMPR_MASK | NTFS_ATTR_SPARSE)))
		return false;
	return le16_to_cpu(a->nr.mp_offset) >= NTFS_ATTR_NONRES_HDR_C &&
	       (!a->name_length || le16_to_cpu(a->name_offset) >= NTFS_ATTR_NONRES_HDR_C);
}

/* Bytes of clusters that runs really take on disk (holes not counted). */
static u64 ntfs_runs_on_disk(const struct ntfs_run *runs, unsigned int nr, u8 cluster_bits)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (runs[i].lcn != NTFS_LCN_HOLE)
			n += runs[i].len;
	return n << cluster_bits;
}

/* The 512-byte blocks a stream takes, for stat (not for stream inodes). */
static void ntfs_set_blocks(struct inode *inode, u8 cluster_bits)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u64 bytes = ns->alloc_size;

	if (ns->resident)
		bytes = 0;
	else if (ns->sparse || ns->compressed)
		bytes = ntfs_runs_on_disk(ns->runs, ns->nr_runs, cluster_bits);
	if (!NTFS_I(inode)->owner)
		inode->i_blocks = bytes >> 9;
}

static void ntfs_runs_free(struct ntfs_runs *ra)
{
	kvfree(ra->runs);
	memset(ra, 0, sizeof(*ra));
}

/* Clusters for the run edits of runlist.c: from $Bitmap, in the transaction. */
static int ntfs_sedit_alloc(void *ctx, u64 hint, u64 want, struct ntfs_run *got)
{
	struct ntfs_sedit *e = ctx;

	return ntfs_alloc_clusters(e->t, hint, want, got);
}

static int ntfs_sedit_free(void *ctx, u64 lcn, u64 len)
{
	struct ntfs_sedit *e = ctx;

	return ntfs_free_clusters(e->t, lcn, len);
}

static void ntfs_sedit_source(struct ntfs_sedit *e, struct ntfs_run_source *src)
{
	src->alloc = ntfs_sedit_alloc;
	src->free = ntfs_sedit_free;
	src->ctx = e;
}

/*
 * The stream's runs with every hole in [@vcn, @end) allocated and the
 * allocation extended to @end (see ntfs_runs_fill(); a gap before @vcn
 * stays a hole in a sparse stream).
 */
static int ntfs_sedit_fill(struct ntfs_sedit *e, struct ntfs_runs *out, u64 vcn, u64 end,
			   unsigned int flags)
{
	struct ntfs_stream *ns = e->ns;
	struct ntfs_run_source src;

	ntfs_sedit_source(e, &src);
	if (ns->sparse || ns->compressed)
		flags |= NTFS_FILL_GAP_HOLE;
	return ntfs_runs_fill(ns->runs, ns->nr_runs, ns->alloc_size >> e->sbi->cluster_bits,
			      vcn, end, flags, &src, out);
}

/* The stream's runs cut at @end; the clusters past it are freed at commit. */
static int ntfs_sedit_cut(struct ntfs_sedit *e, struct ntfs_runs *out, u64 end)
{
	struct ntfs_run_source src;

	ntfs_sedit_source(e, &src);
	return ntfs_runs_cut(e->ns->runs, e->ns->nr_runs, end, &src, out);
}

/*
 * Store @rb, which covers VCNs [0, @end), in the stream's extents (the
 * mapping pairs of VCNs from @from on changed) and set the allocated (and
 * compressed) size in the first.
 */
static int ntfs_sedit_store_runs(struct ntfs_sedit *e, const struct ntfs_runs *rb, u64 end,
				 u64 from)
{
	struct ntfs_xent first = { .nr = e->nr, .instance = le16_to_cpu(e->a->instance) };
	struct ntfs_attr *a;
	int err;

	err = ntfs_extents_store(e->t, e->base, e->base_nr, &first, rb->runs, rb->nr, end, from);
	if (err)
		return err;
	/* Records changed: the first extent may have moved, in or out of its record. */
	if (first.nr != e->nr) {
		struct ntfs_record *rec = ntfs_file_xrec(e->t, e->base_nr, first.nr);

		if (IS_ERR(rec))
			return PTR_ERR(rec);
		e->rec = rec;
		e->nr = first.nr;
	}
	a = ntfs_arec_by_instance(&e->c, e->rec, first.instance);
	e->a = a;
	if (!a)
		return -EIO;
	a->nr.allocated_size = cpu_to_le64(end << e->sbi->cluster_bits);
	if (ntfs_attr_has_csize(a))
		a->nr.compressed_size =
			cpu_to_le64(ntfs_runs_on_disk(rb->runs, rb->nr, e->sbi->cluster_bits));
	return 0;
}

/*
 * The change is in the record: make the stream in memory match it (@rb,
 * when not NULL, becomes the run cache and is emptied).
 */
static void ntfs_sedit_install(struct ntfs_sedit *e, struct ntfs_runs *rb, u64 alloc,
			       u64 data, u64 valid)
{
	struct ntfs_stream *ns = e->ns;
	struct ntfs_runs old = {};

	down_write(&ns->run_lock);
	if (e->a)
		ns->resident = !e->a->non_resident;
	if (rb) {
		old.runs = ns->runs;
		ns->runs = rb->runs;
		ns->nr_runs = rb->nr;
		ns->cap_runs = rb->cap;
		ns->runs_loaded = true;
		memset(rb, 0, sizeof(*rb));
	}
	ns->alloc_size = alloc;
	ns->data_size = data;
	ns->valid_size = valid;
	up_write(&ns->run_lock);
	ntfs_runs_free(&old);
	ntfs_set_blocks(e->inode, e->sbi->cluster_bits);
}

/* The data and initialized sizes of the non-resident attribute. */
static void ntfs_sedit_put_sizes(struct ntfs_sedit *e, u64 data, u64 valid)
{
	e->a->nr.data_size = cpu_to_le64(data);
	e->a->nr.valid_size = cpu_to_le64(valid);
}

/*
 * Zero on disk the clusters that @rb gives to VCNs [@vcn, @end) which were
 * holes below the initialized size: they read as zeros until now, and a
 * write that covers a part of one (or a page of a cluster larger than a
 * page) must not bring back what the cluster held before.  Clusters past
 * the initialized size read as zeros until it moves over them, and it
 * moves only over written data.
 */
static int ntfs_zero_filled_holes(struct ntfs_sedit *e, const struct ntfs_runs *rb, u64 vcn,
				  u64 end)
{
	struct ntfs_stream *ns = e->ns;
	u8 shift = e->sbi->cluster_bits - SECTOR_SHIFT;
	u64 valid = DIV_ROUND_UP_ULL(ns->valid_size, e->sbi->cluster_size);
	const struct ntfs_run *old, *now;
	int err = 0;

	end = min(end, valid);
	while (!err && vcn < end) {
		u64 n;

		old = ntfs_run_lookup(ns->runs, ns->nr_runs, vcn);
		now = ntfs_run_lookup(rb->runs, rb->nr, vcn);
		if (!old || !now)
			return -EIO;
		n = min3(old->vcn + old->len, now->vcn + now->len, end) - vcn;
		if (old->lcn == NTFS_LCN_HOLE && now->lcn != NTFS_LCN_HOLE)
			err = blkdev_issue_zeroout(e->sbi->sb->s_bdev,
						   (now->lcn + vcn - now->vcn) << shift,
						   n << shift, GFP_NOFS, 0);
		vcn += n;
		cond_resched();
	}
	return err;
}

/* Limits of a VCN range a caller asks for: inside what a loff_t reaches. */
static int ntfs_check_vcn_range(struct ntfs_sb *sbi, u64 vcn, u64 len)
{
	u64 max_vcn = (u64)MAX_LFS_FILESIZE >> sbi->cluster_bits;

	if (vcn > max_vcn || len > max_vcn - vcn)
		return -EFBIG;
	return 0;
}

/**
 * ntfs_stream_allocate() - Give clusters to a range of a stream's VCNs
 * @t:		the transaction
 * @inode:	the inode of a non-resident stream; its ni_lock held
 * @vcn:	first VCN
 * @len:	number of VCNs
 *
 * Every hole in [@vcn, @vcn + @len) gets clusters, and an allocation that
 * ends before @vcn + @len grows to it (a gap before @vcn stays a hole in a
 * sparse stream and gets clusters in any other).  New clusters come from
 * right after the last run before them when free (ntfs_alloc_clusters()
 * takes one extent at a time; as many as needed are taken).  The mapping
 * pairs in the record, the allocated (and compressed) size and the run
 * cache follow; the data size does not change.
 *
 * Return: 0; -ENOSPC when the volume has no clusters left or the record
 * no room for the mapping pairs (the transaction must then be aborted);
 * -EOPNOTSUPP for encrypted streams; -EFBIG, -EIO, -ENOMEM.
 */
int ntfs_stream_allocate(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len)
{
	struct ntfs_runs rb = {};
	struct ntfs_sedit e;
	u64 end, old_end;
	int err;

	if (!len)
		return 0;
	err = ntfs_sedit_begin_nonres(&e, t, inode);
	if (!err)
		err = ntfs_check_vcn_range(e.sbi, vcn, len);
	if (err)
		return err;
	old_end = e.ns->alloc_size >> e.sbi->cluster_bits;
	end = max(vcn + len, old_end);
	err = ntfs_sedit_fill(&e, &rb, vcn, vcn + len, 0);
	if (!err)
		err = ntfs_zero_filled_holes(&e, &rb, vcn, min(vcn + len, old_end));
	if (!err)
		err = ntfs_sedit_store_runs(&e, &rb, end, min(vcn, old_end));
	if (!err)
		ntfs_sedit_install(&e, &rb, end << e.sbi->cluster_bits, e.ns->data_size,
				   e.ns->valid_size);
	ntfs_runs_free(&rb);
	return err;
}

/* Write @data to the clusters that @rb gives to VCNs [@vcn, @end). */
static int ntfs_sedit_write_data(struct ntfs_sedit *e, const struct ntfs_runs *rb, u64 vcn,
				 u64 end, void *data)
{
	u8 cb = e->sbi->cluster_bits;
	const struct ntfs_run *run;
	u64 at = vcn, n;
	int err = 0;

	while (!err && at < end) {
		run = ntfs_run_lookup(rb->runs, rb->nr, at);
		if (!run || run->lcn == NTFS_LCN_HOLE)
			return -EIO;
		n = min(run->vcn + run->len, end) - at;
		err = ntfs_volume_io(e->sbi->sb, (run->lcn + at - run->vcn) << cb,
				     data + ((at - vcn) << cb), n << cb, REQ_OP_WRITE);
		at += n;
	}
	return err;
}

/**
 * ntfs_stream_store_unit() - Store a compression unit uncompressed
 * @t:		the transaction
 * @inode:	the inode of a non-resident compressed stream; its ni_lock held
 * @vcn:	first VCN of the unit
 * @len:	VCNs in a unit
 * @data:	the unit's bytes as they read (@len clusters)
 *
 * The unit's clusters (a packed unit's, none for a hole) are freed at
 * commit and new ones take @data before the stream's runs point at them,
 * so that a reader meanwhile decompresses the old ones.  A unit of which
 * every cluster is allocated holds its data as it is: valid in a
 * compressed stream, and the page cache writes it back like any other.
 * The allocation grows to the unit's end when it ends before.
 *
 * Return: 0; -ENOSPC, -EIO, -ENOMEM or the error of the write (the
 * transaction must then be aborted); -EINVAL for a stream that is not
 * compressed.
 */
int ntfs_stream_store_unit(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len,
			   void *data)
{
	struct ntfs_runs cut = {}, rb = {};
	const struct ntfs_run *runs;
	struct ntfs_run_source src;
	struct ntfs_sedit e;
	unsigned int nr;
	u64 old_end;
	int err;

	err = ntfs_sedit_begin_nonres(&e, t, inode);
	if (!err && !e.ns->compressed)
		err = -EINVAL;
	if (!err)
		err = ntfs_check_vcn_range(e.sbi, vcn, len);
	if (err)
		return err;
	old_end = e.ns->alloc_size >> e.sbi->cluster_bits;
	ntfs_sedit_source(&e, &src);
	runs = e.ns->runs;
	nr = e.ns->nr_runs;
	if (vcn < old_end) {
		err = ntfs_runs_punch(runs, nr, vcn, min(vcn + len, old_end), &src, &cut);
		runs = cut.runs;
		nr = cut.nr;
	}
	if (!err)
		err = ntfs_runs_fill(runs, nr, old_end, vcn, vcn + len, NTFS_FILL_GAP_HOLE, &src,
				     &rb);
	if (!err)
		err = ntfs_sedit_write_data(&e, &rb, vcn, vcn + len, data);
	if (!err)
		err = ntfs_sedit_store_runs(&e, &rb, max(vcn + len, old_end), min(vcn, old_end));
	if (!err)
		ntfs_sedit_install(&e, &rb, max(vcn + len, old_end) << e.sbi->cluster_bits,
				   e.ns->data_size, e.ns->valid_size);
	ntfs_runs_free(&cut);
	ntfs_runs_free(&rb);
	return err;
}

/*
 * The resident value changed in the record: copy it into the stream (the
 * copy readers use) and set the sizes.  The old copy is freed under the
 * run lock, which readers of the copy take.
 */
static int ntfs_sedit_resident_copy(struct ntfs_sedit *e)
{
	struct ntfs_stream *ns = e->ns;
	u32 len = le32_to_cpu(e->a->r.value_length);
	void *copy = kmalloc(len ? len : 1, GFP_NOFS), *old;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, ntfs_attr_value(e->a, 0), len);
	down_write(&ns->run_lock);
	old = ns->resident_data;
	ns->resident_data = copy;
	ns->data_size = len;
	ns->valid_size = len;
	ns->alloc_size = len;
	up_write(&ns->run_lock);
	kfree(old);
	if (!NTFS_I(e->inode)->owner)
		i_size_write(e->inode, len);
	return 0;
}

/* Give a resident stream without an attribute one holding @len zeros. */
static int ntfs_sedit_add_resident(struct ntfs_sedit *e, u32 len)
{
	struct ntfs_attr *a = ntfs_rec_add(e->t, e->rec, e->ns->type, e->ns->name,
					   e->ns->name_len, NTFS_AREC_RESIDENT, len);

	if (IS_ERR(a))
		return PTR_ERR(a);
	e->a = a;
	return 0;
}

/* Make the resident value @len bytes long (zeros added at its end). */
static int ntfs_sedit_resident_len(struct ntfs_sedit *e, u64 len)
{
	if (len > e->c.rec_size)
		return -ENOSPC;
	if (!e->a)
		return ntfs_sedit_add_resident(e, len);
	return ntfs_arec_set_value_len(&e->c, e->rec, e->a, len);
}

/**
 * ntfs_stream_write_resident() - Write into a resident stream's value
 * @t:		the transaction
 * @inode:	the inode of a resident stream; its ni_lock held
 * @pos:	byte offset in the value
 * @buf:	the bytes
 * @len:	how many
 *
 * The value grows (zero-filled up to @pos) when the write ends past it;
 * a stream without an attribute gets one.  The in-memory copy, the sizes
 * and i_size follow.
 *
 * Return: 0; -ENOSPC when the record cannot hold the value (nothing
 * changed: convert the stream with ntfs_stream_make_nonresident());
 * -EINVAL for a non-resident stream; -EOPNOTSUPP, -EIO, -ENOMEM.
 */
int ntfs_stream_write_resident(struct ntfs_trans *t, struct inode *inode, u64 pos,
			       const void *buf, u32 len)
{
	struct ntfs_sedit e;
	u64 end = pos + len;
	int err;

	err = ntfs_sedit_begin(&e, t, inode);
	if (!err && !e.ns->resident)
		err = -EINVAL;
	if (err)
		return err;
	if (pos > e.c.rec_size || end > e.c.rec_size)
		return -ENOSPC;
	if (!e.a || end > le32_to_cpu(e.a->r.value_length))
		err = ntfs_sedit_resident_len(&e, end);
	if (err)
		return err;
	memcpy((u8 *)ntfs_attr_value(e.a, 0) + pos, buf, len);
	return ntfs_sedit_resident_copy(&e);
}

/**
 * ntfs_stream_set_size() - Set a stream's data size
 * @t:		the transaction
 * @inode:	the inode of the stream; its ni_lock held
 * @size:	the new data size
 *
 * Resident: the value is cut or zero-extended (-ENOSPC when the record
 * cannot hold it).  Non-resident: a smaller size cuts the allocation to
 * the clusters @size needs, the clusters past it freed at commit (a larger
 * size keeps an allocation made ahead of the data); a larger size that
 * the allocation does not cover yet gets a hole (sparse streams) or
 * clusters (others: the format wants data size <= allocated size; a
 * caller that wants them elsewhere allocates first).  The valid size is
 * clipped to @size.  i_size follows for files when it grows.
 *
 * Return: 0, -ENOSPC, -EOPNOTSUPP, -EFBIG, -EIO, -ENOMEM.
 */
int ntfs_stream_set_size(struct ntfs_trans *t, struct inode *inode, u64 size)
{
	struct ntfs_runs rb = {};
	struct ntfs_sedit e;
	u64 end, old_end;
	int err;

	err = ntfs_sedit_begin(&e, t, inode);
	if (err)
		return err;
	if (e.ns->resident) {
		if (!e.a && !size)
			return 0;
		err = ntfs_sedit_resident_len(&e, size);
		return err ? err : ntfs_sedit_resident_copy(&e);
	}
	if (!e.a)
		return -EINVAL;
	err = ntfs_check_vcn_range(e.sbi, 0, DIV_ROUND_UP_ULL(size, e.sbi->cluster_size));
	if (err)
		return err;
	end = DIV_ROUND_UP_ULL(size, e.sbi->cluster_size);
	/* A compressed stream is allocated in whole compression units. */
	if (e.ns->compressed)
		end = round_up(end, 1ULL << e.ns->compression_unit);
	old_end = e.ns->alloc_size >> e.sbi->cluster_bits;
	/* Growing within an allocation made ahead (fallocate) keeps it. */
	if (size >= e.ns->data_size && end < old_end)
		end = old_end;
	if (end < old_end)
		err = ntfs_sedit_cut(&e, &rb, end);
	else if (end > old_end)
		err = ntfs_sedit_fill(&e, &rb, old_end, end,
				      e.ns->sparse || e.ns->compressed ? NTFS_FILL_HOLES : 0);
	if (!err && end != old_end)
		err = ntfs_sedit_store_runs(&e, &rb, end, min(end, old_end));
	if (!err) {
		u64 valid = min(e.ns->valid_size, size);

		ntfs_sedit_put_sizes(&e, size, valid);
		ntfs_sedit_install(&e, end != old_end ? &rb : NULL,
				   end != old_end ? end << e.sbi->cluster_bits : e.ns->alloc_size,
				   size, valid);
		/*
		 * Only upwards: a truncation sets i_size itself, and writeback
		 * settling delayed data (no i_rwsem) passes the size it read,
		 * which a writer may have moved past since.
		 */
		if (!NTFS_I(inode)->owner && size > i_size_read(inode))
			i_size_write(inode, size);
	}
	ntfs_runs_free(&rb);
	return err;
}

/*
 * Rebuild the first extent with the header of a sparse attribute (0x48
 * bytes, with the compressed size) and the sparse flag: same place in the
 * record, same instance (so the same list entry), same mapping pairs.
 */
static int ntfs_sedit_sparse_header(struct ntfs_sedit *e)
{
	u32 len = le32_to_cpu(e->a->length), mp = le16_to_cpu(e->a->nr.mp_offset);
	struct ntfs_attr *old, *a;

	if (mp > len)
		return -EIO;
	/*
	 * Eight bytes more: a full base record lets the extent go first, to
	 * an extension record with room for it as it is; one without the
	 * eight bytes then gives it to a new record.
	 */
	if (ntfs_arec_free(&e->c, e->rec) < 8 && e->rec == e->base) {
		a = ntfs_file_move_out(e->t, e->base, e->base_nr, e->a, &e->rec, &e->nr);
		if (IS_ERR(a))
			return PTR_ERR(a);
		e->a = a;
	}
	if (ntfs_arec_free(&e->c, e->rec) < 8) {
		a = ntfs_file_rehome(e->t, e->base, e->base_nr, e->rec, e->nr, e->a, &e->rec,
				     &e->nr);
		if (IS_ERR(a))
			return PTR_ERR(a);
		e->a = a;
	}
	old = kmemdup(e->a, len, GFP_NOFS);
	if (!old)
		return -ENOMEM;
	ntfs_rec_remove(e->rec, e->a);
	e->a = NULL;
	a = ntfs_arec_insert(&e->c, e->rec, e->ns->type, e->ns->name, e->ns->name_len,
			     NTFS_AREC_NONRES_C, len - mp);
	if (!IS_ERR(a)) {
		a->instance = old->instance;
		a->flags = old->flags | cpu_to_le16(NTFS_ATTR_SPARSE);
		a->nr.lowest_vcn = old->nr.lowest_vcn;
		a->nr.highest_vcn = old->nr.highest_vcn;
		a->nr.allocated_size = old->nr.allocated_size;
		a->nr.data_size = old->nr.data_size;
		a->nr.valid_size = old->nr.valid_size;
		memcpy((u8 *)a + le16_to_cpu(a->nr.mp_offset), (u8 *)old + mp, len - mp);
		e->a = a;
	}
	kfree(old);
	return PTR_ERR_OR_ZERO(a);
}

/* Mark the file sparse in $STANDARD_INFORMATION (Windows shows the flag). */
static int ntfs_sedit_si_sparse(struct ntfs_sedit *e)
{
	struct ntfs_attr *a = ntfs_rec_find(e->base, NTFS_AT_STANDARD_INFO, NULL, 0);
	struct ntfs_std_info *si = a ? ntfs_attr_value(a, NTFS_STD_INFO_V1_SIZE) : NULL;

	if (!si)
		return ntfs_err_ratelimited(e->sbi->sb, e->base_nr,
					    "no $STANDARD_INFORMATION in the base record");
	si->attributes |= cpu_to_le32(FILE_ATTRIBUTE_SPARSE_FILE);
	return 0;
}

/*
 * Make the stream of @e sparse: its header (the other extents follow
 * when they are stored from VCN 0) and $STANDARD_INFORMATION.
 */
static int ntfs_sedit_make_sparse(struct ntfs_sedit *e)
{
	int err = ntfs_sedit_sparse_header(e);

	return err ? err : ntfs_sedit_si_sparse(e);
}

/**
 * ntfs_stream_punch() - Make a range of a stream's clusters a hole
 * @t:		the transaction
 * @inode:	the inode of a non-resident stream; its ni_lock held, the
 *		range written back and out of the page cache
 * @vcn:	first VCN
 * @len:	number of VCNs (clipped to the allocation)
 *
 * A stream that is not sparse becomes sparse first: its first extent gets
 * the sparse flag and the header with the compressed size, its other
 * extents are written again the same way, and $STANDARD_INFORMATION gets
 * FILE_ATTRIBUTE_SPARSE_FILE.  The range's clusters are freed at commit;
 * the sizes do not change.
 *
 * Return: 0; -EINVAL for a resident stream; -EOPNOTSUPP (compressed,
 * encrypted), -ENOSPC, -EIO, -ENOMEM (the transaction must then be
 * aborted).
 */
int ntfs_stream_punch(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len)
{
	struct ntfs_runs rb = {};
	struct ntfs_run_source src;
	struct ntfs_sedit e;
	u64 end, from = vcn;
	int err;

	err = ntfs_sedit_begin_nonres(&e, t, inode);
	if (err)
		return err;
	if (e.ns->compressed)
		return ntfs_sedit_unsupported(&e, "holes or shifts in a compressed stream");
	end = e.ns->alloc_size >> e.sbi->cluster_bits;
	if (vcn >= end || !len)
		return 0;
	if (!e.ns->sparse) {
		err = ntfs_sedit_make_sparse(&e);
		from = 0;
	}
	ntfs_sedit_source(&e, &src);
	if (!err)
		err = ntfs_runs_punch(e.ns->runs, e.ns->nr_runs, vcn, vcn + min(len, end - vcn),
				      &src, &rb);
	if (!err)
		err = ntfs_sedit_store_runs(&e, &rb, end, from);
	if (!err) {
		down_write(&e.ns->run_lock);
		e.ns->sparse = true;
		up_write(&e.ns->run_lock);
		ntfs_sedit_install(&e, &rb, e.ns->alloc_size, e.ns->data_size, e.ns->valid_size);
	}
	ntfs_runs_free(&rb);
	return err;
}

/**
 * ntfs_stream_collapse() - Take a range of VCNs out of a stream
 * @t:		the transaction
 * @inode:	the inode of a non-resident stream; its ni_lock held, the
 *		page cache from the range on written back and dropped
 * @vcn:	first VCN
 * @len:	number of VCNs; the range ends before the data size does
 *
 * The range's clusters are freed at commit; the VCNs after it move down,
 * and the allocated, data and initialized sizes shrink by the range
 * (i_size follows).
 *
 * Return: 0; -EINVAL for a resident stream or a range that reaches the
 * end of the data; -EOPNOTSUPP, -ENOSPC, -EIO, -ENOMEM (the transaction
 * must then be aborted).
 */
int ntfs_stream_collapse(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len)
{
	struct ntfs_runs rb = {};
	struct ntfs_run_source src;
	struct ntfs_sedit e;
	u64 end, bytes, data, valid, at;
	int err;

	err = ntfs_sedit_begin_nonres(&e, t, inode);
	if (err)
		return err;
	if (e.ns->compressed)
		return ntfs_sedit_unsupported(&e, "holes or shifts in a compressed stream");
	end = e.ns->alloc_size >> e.sbi->cluster_bits;
	bytes = len << e.sbi->cluster_bits;
	at = vcn << e.sbi->cluster_bits;
	if (!len || vcn >= end || len > end - vcn || at + bytes >= e.ns->data_size)
		return -EINVAL;
	ntfs_sedit_source(&e, &src);
	err = ntfs_runs_collapse(e.ns->runs, e.ns->nr_runs, vcn, vcn + len, &src, &rb);
	if (!err)
		err = ntfs_sedit_store_runs(&e, &rb, end - len, vcn);
	if (!err) {
		data = e.ns->data_size - bytes;
		valid = e.ns->valid_size;
		if (valid > at)
			valid = valid > at + bytes ? valid - bytes : at;
		ntfs_sedit_put_sizes(&e, data, valid);
		ntfs_sedit_install(&e, &rb, (end - len) << e.sbi->cluster_bits, data, valid);
		if (!NTFS_I(inode)->owner)
			i_size_write(inode, data);
	}
	ntfs_runs_free(&rb);
	return err;
}

/**
 * ntfs_stream_insert() - Insert a hole into a stream at a VCN
 * @t:		the transaction
 * @inode:	the inode of a non-resident stream; its ni_lock held, the
 *		page cache from @vcn on written back and dropped
 * @vcn:	where the hole goes, inside the data
 * @len:	number of VCNs
 *
 * The stream becomes sparse when it is not (as for a punched hole); the
 * VCNs from @vcn on move up by @len, and the allocated and data sizes grow
 * by it (the initialized size too when it reaches past @vcn; i_size
 * follows).
 *
 * Return: 0; -EINVAL for a resident stream or @vcn past the data; -EFBIG;
 * -EOPNOTSUPP, -ENOSPC, -EIO, -ENOMEM (the transaction must then be
 * aborted).
 */
int ntfs_stream_insert(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len)
{
	struct ntfs_runs rb = {};
	struct ntfs_sedit e;
	u64 end, bytes, data, valid, at, from = vcn;
	int err;

	err = ntfs_sedit_begin_nonres(&e, t, inode);
	if (err)
		return err;
	if (e.ns->compressed)
		return ntfs_sedit_unsupported(&e, "holes or shifts in a compressed stream");
	end = e.ns->alloc_size >> e.sbi->cluster_bits;
	at = vcn << e.sbi->cluster_bits;
	if (!len || at >= e.ns->data_size)
		return -EINVAL;
	err = ntfs_check_vcn_range(e.sbi, end, len);
	if (err)
		return err;
	bytes = len << e.sbi->cluster_bits;
	if (!e.ns->sparse) {
		err = ntfs_sedit_make_sparse(&e);
		from = 0;
	}
	if (!err)
		err = ntfs_runs_insert_hole(e.ns->runs, e.ns->nr_runs, end, vcn, len, &rb);
	if (!err)
		err = ntfs_sedit_store_runs(&e, &rb, end + len, from);
	if (!err) {
		data = e.ns->data_size + bytes;
		valid = e.ns->valid_size > at ? e.ns->valid_size + bytes : e.ns->valid_size;
		ntfs_sedit_put_sizes(&e, data, valid);
		down_write(&e.ns->run_lock);
		e.ns->sparse = true;
		up_write(&e.ns->run_lock);
		ntfs_sedit_install(&e, &rb, (end + len) << e.sbi->cluster_bits, data, valid);
		if (!NTFS_I(inode)->owner)
			i_size_write(inode, data);
	}
	ntfs_runs_free(&rb);
	return err;
}

/**
 * ntfs_stream_set_valid() - Set a non-resident stream's initialized size
 * @t:		the transaction
 * @inode:	the inode of the stream; its ni_lock held
 * @valid:	the new initialized size, at most the data size
 *
 * Bytes past the initialized size read as zeros, so it moves forward only
 * over data that is on disk.  A resident value is initialized as a whole:
 * nothing changes.
 *
 * Return: 0, -EINVAL past the data size, -EOPNOTSUPP, -EIO.
 */
int ntfs_stream_set_valid(struct ntfs_trans *t, struct inode *inode, u64 valid)
{
	struct ntfs_sedit e;
	int err;

	err = ntfs_sedit_begin(&e, t, inode);
	if (err)
		return err;
	if (valid > e.ns->data_size)
		return -EINVAL;
	if (e.ns->resident)
		return 0;
	if (!e.a)
		return -EINVAL;
	ntfs_sedit_put_sizes(&e, e.ns->data_size, valid);
	ntfs_sedit_install(&e, NULL, e.ns->alloc_size, e.ns->data_size, valid);
	return 0;
}

/* Folios of a value moving out of its record: one page each at most 64 KiB. */
#define NTFS_MOVE_FOLIOS	(SZ_64K / PAGE_SIZE + 1)

struct ntfs_move {
	struct folio	*folio[NTFS_MOVE_FOLIOS];
	unsigned int	nr;
};

static void ntfs_move_release(struct ntfs_move *m, bool dirty)
{
	while (m->nr--) {
		struct folio *folio = m->folio[m->nr];

		if (dirty)
			folio_mark_dirty(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	m->nr = 0;
}

/*
 * Lock the page cache folios that hold the first @size bytes of @inode
 * and fill those that are not uptodate from @data.  Held locked, they keep
 * readers from going to the disk before writeback has put the data there.
 */
static int ntfs_move_grab(struct inode *inode, const u8 *data, u32 size, struct ntfs_move *m)
{
	u64 pos = 0;

	m->nr = 0;
	while (pos < size) {
		struct folio *folio;
		u64 fpos;
		size_t n;

		if (m->nr == NTFS_MOVE_FOLIOS) {
			ntfs_move_release(m, false);
			return -EFBIG;
		}
		folio = filemap_grab_folio(inode->i_mapping, pos >> PAGE_SHIFT);
		if (IS_ERR(folio)) {
			ntfs_move_release(m, false);
			return PTR_ERR(folio);
		}
		fpos = folio_pos(folio);
		if (!folio_test_uptodate(folio)) {
			n = min_t(u64, folio_size(folio), size - fpos);
			memcpy_to_folio(folio, 0, data + fpos, n);
			folio_zero_range(folio, n, folio_size(folio) - n);
			folio_mark_uptodate(folio);
		}
		m->folio[m->nr++] = folio;
		pos = fpos + folio_size(folio);
	}
	return 0;
}

/*
 * Replace the resident attribute of @e by an empty non-resident one of the
 * same type, name, flags and instance, with room for @mp_len bytes of
 * mapping pairs (a sparse stream gets the header with the compressed size).
 */
static int ntfs_sedit_replace_nonres(struct ntfs_sedit *e, u32 mp_len)
{
	struct ntfs_stream *ns = e->ns;
	u16 flags = 0, instance = 0;
	bool had = e->a;
	struct ntfs_attr *a;
	u32 hdr;

	if (had) {
		flags = le16_to_cpu(e->a->flags);
		instance = le16_to_cpu(e->a->instance);
		ntfs_rec_remove(e->rec, e->a);
		e->a = NULL;
	}
	/*
	 * A resident value has no compression units: it moves out stored
	 * plainly, which is valid NTFS for a file of a compressed directory.
	 */
	flags &= NTFS_ATTR_SPARSE;
	if (ns->sparse)
		flags |= NTFS_ATTR_SPARSE;
	hdr = flags & NTFS_ATTR_SPARSE ? NTFS_AREC_NONRES_C : NTFS_AREC_NONRES;
	/*
	 * The same attribute, moved, keeps its number and so its entry in
	 * an attribute list; a new one gets an entry.
	 */
	if (had)
		a = ntfs_arec_insert(&e->c, e->rec, ns->type, ns->name, ns->name_len, hdr,
				     mp_len);
	else
		a = ntfs_rec_add(e->t, e->rec, ns->type, ns->name, ns->name_len, hdr, mp_len);
	if (IS_ERR(a))
		return PTR_ERR(a);
	a->flags = cpu_to_le16(flags);
	if (had)
		a->instance = cpu_to_le16(instance);
	e->a = a;
	return 0;
}

/*
 * Allocate clusters for @size bytes, replace the attribute by a
 * non-resident one describing them.
 */
static int ntfs_sedit_move_out(struct ntfs_sedit *e, struct ntfs_runs *rb, u32 size)
{
	u64 end = DIV_ROUND_UP(size, e->sbi->cluster_size);
	struct ntfs_run_source src;
	size_t mp_len;
	int err;

	ntfs_sedit_source(e, &src);
	err = ntfs_runs_fill(NULL, 0, 0, 0, end, 0, &src, rb);
	if (!err)
		err = ntfs_encode_runs(rb->runs, rb->nr, 0, end, NULL, 0, &mp_len);
	if (!err)
		err = ntfs_sedit_replace_nonres(e, mp_len);
	if (!err)
		err = ntfs_sedit_store_runs(e, rb, end, 0);
	if (!err)
		ntfs_sedit_put_sizes(e, size, size);
	return err;
}

/**
 * ntfs_stream_make_nonresident() - Move a resident stream's value out of its record
 * @t:		the transaction
 * @inode:	the inode of the stream; its ni_lock held, none of its page
 *		cache folios locked by the caller
 *
 * Clusters are allocated for the value (as few extents as the allocator
 * gives), the resident attribute is replaced by a non-resident one of the
 * same type, name and instance describing them, and the value goes to the
 * disk through the inode's page cache: the folios that hold it are filled
 * where they are not uptodate already and marked dirty, and writeback
 * writes them.  They stay locked until the stream is non-resident in
 * memory too, so no reader meets the clusters before their data.  A stream
 * without an attribute, or an empty one, becomes non-resident without runs.
 * An already non-resident stream is left alone.
 *
 * Return: 0; -ENOSPC without free clusters or when the record cannot hold
 * the non-resident header (the transaction must then be aborted);
 * -EOPNOTSUPP, -EIO, -ENOMEM.
 */
int ntfs_stream_make_nonresident(struct ntfs_trans *t, struct inode *inode)
{
	struct ntfs_runs rb = {};
	struct ntfs_move m = {};
	struct ntfs_sedit e;
	void *data = NULL;
	u32 size = 0;
	int err;

	err = ntfs_sedit_begin(&e, t, inode);
	if (err || !e.ns->resident)
		return err;
	if (e.ns->compressed || e.ns->encrypted)
		return ntfs_sedit_unsupported(&e, "a compressed or encrypted stream");
	if (e.a) {
		size = le32_to_cpu(e.a->r.value_length);
		data = kmemdup(ntfs_attr_value(e.a, 0), size ? size : 1, GFP_NOFS);
		if (!data)
			return -ENOMEM;
	}
	err = ntfs_sedit_move_out(&e, &rb, size);
	if (!err && size)
		err = ntfs_move_grab(inode, data, size, &m);
	if (!err) {
		ntfs_sedit_install(&e, &rb, (u64)DIV_ROUND_UP(size, e.sbi->cluster_size) <<
				   e.sbi->cluster_bits, size, size);
		ntfs_move_release(&m, true);
	}
	ntfs_runs_free(&rb);
	kfree(data);
	return err;
}

/* Take over the description of @from into @ns, under its run lock. */
static void ntfs_stream_take(struct ntfs_stream *ns, struct ntfs_stream *from)
{
	void *old_runs, *old_data;

	down_write(&ns->run_lock);
	old_runs = ns->runs;
	old_data = ns->resident_data;
	ns->resident = from->resident;
	ns->compressed = from->compressed;
	ns->sparse = from->sparse;
	ns->encrypted = from->encrypted;
	ns->compression_unit = from->compression_unit;
	ns->data_size = from->data_size;
	ns->valid_size = from->valid_size;
	ns->alloc_size = from->alloc_size;
	ns->resident_data = from->resident_data;
	ns->runs = from->runs;
	ns->nr_runs = from->nr_runs;
	ns->cap_runs = from->cap_runs;
	ns->runs_loaded = true;
	ns->runs_error = 0;
	up_write(&ns->run_lock);
	kvfree(old_runs);
	kfree(old_data);
	from->runs = NULL;
	from->resident_data = NULL;
}

/*
 * Describe the stream of @ns as the records of set @rs hold it (all its
 * extents), into @to.
 */
static int ntfs_stream_describe(struct ntfs_sb *sbi, const struct ntfs_stream *ns,
				const struct ntfs_recset *rs, struct ntfs_stream *to)
{
	struct ntfs_recset_pos pos = {};
	struct ntfs_attr *a, *first = NULL;
	int err = 0;

	to->record = ns->record;
	to->type = ns->type;
	init_rwsem(&to->run_lock);
	while (!err && (a = ntfs_recset_next(rs, &pos)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) != ns->type ||
		    !ntfs_attr_name_is(a, ns->name, ns->name_len))
			continue;
		if (!a->non_resident || !a->nr.lowest_vcn) {
			if (first)
				return ntfs_err_ratelimited(sbi->sb, rs->base,
							    "attribute 0x%x: two first extents",
							    ns->type);
			first = a;
			err = ntfs_stream_from_attr(sbi, to, a);
		}
		if (!err && a->non_resident)
			err = ntfs_stream_add_extent(sbi, to, a);
	}
	if (IS_ERR(a))
		return PTR_ERR(a);
	if (err)
		return err;
	if (!first) {
		/* No attribute (yet): an empty resident stream, as at iget. */
		to->resident = true;
		to->resident_data = kzalloc(1, GFP_NOFS);
		return to->resident_data ? 0 : -ENOMEM;
	}
	return ntfs_stream_finish_runs(sbi, to);
}

/**
 * ntfs_stream_reload() - Describe a stream again as its records on disk have it
 * @inode:	the inode of the stream; its ni_lock held, no transaction
 *		changing its records active
 *
 * After ntfs_trans_abort() of a transaction in which an ntfs_stream_*()
 * change succeeded, the stream in memory is ahead of the records (runs
 * whose clusters the abort gave back, sizes): this puts it back, reading
 * every extent the file's attribute list names.  A stream that turns
 * resident again loses its page cache (the value is in the record, and
 * the folios filled when it moved out were dirty); its folios must not be
 * locked by the caller.
 *
 * Return: 0, -EIO, -ENOMEM; on error the stream is unchanged.
 */
int ntfs_stream_reload(struct inode *inode)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	struct ntfs_stream fresh = {};
	struct ntfs_recset rs;
	int err;

	err = ntfs_recset_load(sbi, ntfs_stream_base(inode), &rs);
	if (!err)
		err = ntfs_stream_describe(sbi, ns, &rs, &fresh);
	if (!err) {
		bool back_in = fresh.resident && !ns->resident;

		ntfs_stream_take(ns, &fresh);
		ntfs_set_blocks(inode, sbi->cluster_bits);
		/*
		 * A value moved out and back: the folios it was dirtied in
		 * are never written (writeback skips resident streams), and
		 * reads refill them from it.
		 */
		if (back_in)
			truncate_inode_pages(inode->i_mapping, 0);
	}
	ntfs_stream_release(&fresh);
	ntfs_recset_free(&rs);
	return err;
}
