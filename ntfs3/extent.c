// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs3: a non-resident stream's runs written into its attribute extents.
 *
 * The mapping pairs of a stream live in one attribute while they fit in
 * its record.  A stream with more runs (a large file written on a
 * fragmented volume, a sparse file with many holes) is split into
 * extents: attributes of the same type and name, each describing a range
 * of VCNs from its lowest to its highest VCN, each entered in the file's
 * $ATTRIBUTE_LIST under its lowest VCN.  Only the extent of VCN 0 carries
 * the sizes; the others have them zero.
 *
 * A change rewrites the extents from the one holding the first VCN whose
 * mapping changed: the extents before it describe VCNs the change did not
 * touch and stay as they are; that one takes as many runs as its record
 * has room for; the extents after it are removed, and the runs left over
 * go into new extents, each in the record of the extent before it while
 * that has room, else in a new extension record.  An append so touches
 * the last extent only, and adds one when that fills.
 */

#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "ntfs3.h"
#include "attrrec.h"

/*
 * One rewrite of a stream's extents: where they go and what every new
 * extent copies from the first (its name is copied: records move bytes).
 */
struct ntfs_xstore {
	struct ntfs_trans	*t;
	struct ntfs_sb		*sbi;
	struct ntfs_record	*base;
	u64			base_nr;
	struct ntfs_arec_ctx	c;
	const struct ntfs_run	*runs;
	unsigned int		nr;
	u64			end;
	u32			type;
	__le16			*name;
	u8			name_len;
	__le16			flags;
	u8			cunit;
	u32			hdr;
};

/* Report an extent that is not what the list says; returns -EIO. */
static int ntfs_xstore_bad(struct ntfs_xstore *s, const char *what, u64 vcn)
{
	struct super_block *sb = s->sbi->sb;

	return ntfs_err_ratelimited(sb, s->base_nr, "attribute 0x%x: the extent of VCN %llu %s",
				    s->type, vcn, what);
}

/* The attribute of extent @x in the transaction's copy of its record. */
static struct ntfs_attr *ntfs_xstore_attr(struct ntfs_xstore *s, const struct ntfs_xent *x,
					  struct ntfs_record **rec)
{
	struct ntfs_attr *a;

	*rec = x->nr == s->base_nr ? s->base : ntfs_file_xrec(s->t, s->base_nr, x->nr);
	if (IS_ERR(*rec))
		return ERR_CAST(*rec);
	a = ntfs_arec_by_instance(&s->c, *rec, x->instance);
	if (!a || !a->non_resident || le32_to_cpu(a->type) != s->type ||
	    le64_to_cpu(a->nr.lowest_vcn) != x->vcn || !ntfs_attr_name_is(a, s->name, s->name_len))
		return ERR_PTR(ntfs_xstore_bad(s, "is not where the attribute list says", x->vcn));
	return a;
}

/* Take what new extents copy from the first extent @a. */
static int ntfs_xstore_init(struct ntfs_xstore *s, const struct ntfs_attr *a)
{
	s->type = le32_to_cpu(a->type);
	s->name_len = a->name_length;
	s->flags = a->flags;
	s->cunit = a->nr.compression_unit;
	s->hdr = le16_to_cpu(a->flags) & (NTFS_ATTR_COMPR_MASK | NTFS_ATTR_SPARSE) ?
		 NTFS_AREC_NONRES_C : NTFS_AREC_NONRES;
	if (!a->name_length)
		return 0;
	s->name = kmemdup((const u8 *)a + le16_to_cpu(a->name_offset), 2 * a->name_length,
			  GFP_NOFS);
	return s->name ? 0 : -ENOMEM;
}

/* Write the runs of VCNs [@vcn, @w) into extent @a of record @rec. */
static int ntfs_xstore_put(struct ntfs_xstore *s, struct ntfs_record *rec, struct ntfs_attr *a,
			   u64 vcn, u64 w)
{
	size_t used;
	int err;

	err = ntfs_encode_runs(s->runs, s->nr, vcn, w, NULL, 0, &used);
	if (!err)
		err = ntfs_arec_set_mp_len(&s->c, rec, a, used);
	if (!err)
		err = ntfs_encode_runs(s->runs, s->nr, vcn, w,
				       (u8 *)a + le16_to_cpu(a->nr.mp_offset), used, &used);
	if (err == -EINVAL)
		return ntfs_xstore_bad(s, "has runs that do not cover it", vcn);
	if (err)
		return err;
	a->nr.highest_vcn = cpu_to_le64(w - 1);
	return 0;
}

/*
 * Mapping pairs bytes the next new extent gets: the room left in the
 * record @near (the previous extent's) when it is an extension record
 * with some, else what a new record holds.
 */
static u32 ntfs_xstore_budget(struct ntfs_xstore *s, u64 near)
{
	u32 hdr = ALIGN(s->hdr + 2 * s->name_len, 8);
	struct ntfs_record *r;
	u32 free;

	if (near != s->base_nr) {
		r = ntfs_file_xrec(s->t, s->base_nr, near);
		free = IS_ERR(r) ? 0 : ntfs_arec_free(&s->c, r);
		/* Not worth an extent of a handful of runs. */
		if (free >= hdr + 64)
			return (free - hdr) & ~7U;
	}
	return ntfs_record_room(s->sbi) - hdr;
}

/*
 * Put the runs from *@vcn on into one new extent placed after the record
 * *@near; both move on to the new extent.
 */
static int ntfs_xstore_add(struct ntfs_xstore *s, u64 *vcn, u64 *near)
{
	struct ntfs_new_attr na = {
		.type = s->type, .name = s->name, .name_len = s->name_len, .hdr = s->hdr,
		.lowest_vcn = *vcn,
	};
	struct ntfs_record *rec;
	struct ntfs_attr *a;
	size_t used;
	u64 w, rec_nr;
	int err;

	w = ntfs_runs_fit(s->runs, s->nr, *vcn, s->end, ntfs_xstore_budget(s, *near));
	if (w == *vcn)
		return ntfs_xstore_bad(s, "cannot hold a single run", *vcn);
	err = ntfs_encode_runs(s->runs, s->nr, *vcn, w, NULL, 0, &used);
	if (err)
		return ntfs_xstore_bad(s, "has runs that do not cover it", *vcn);
	na.body_len = used;
	a = ntfs_file_add_extent(s->t, s->base, s->base_nr, &na, *near, &rec, &rec_nr);
	if (IS_ERR(a))
		return PTR_ERR(a);
	a->flags = s->flags;
	a->nr.compression_unit = s->cunit;
	err = ntfs_xstore_put(s, rec, a, *vcn, w);
	*vcn = w;
	*near = rec_nr;
	return err;
}

/*
 * Rewrite extent @x with the runs from its first VCN on, as many as its
 * record holds (keeping the room of the list in the base record when the
 * runs spill over), and the rest in new extents.
 */
static int ntfs_xstore_from(struct ntfs_xstore *s, struct ntfs_xent *x)
{
	struct ntfs_record *rec;
	struct ntfs_attr *a;
	u64 w, vcn = x->vcn, near = x->nr;
	size_t used, room;
	int err;

	a = ntfs_xstore_attr(s, x, &rec);
	if (IS_ERR(a))
		return PTR_ERR(a);
	err = ntfs_encode_runs(s->runs, s->nr, vcn, s->end, NULL, 0, &used);
	if (err)
		return ntfs_xstore_bad(s, "has runs that do not cover it", vcn);
	room = ntfs_arec_free(&s->c, rec) + le32_to_cpu(a->length) - le16_to_cpu(a->nr.mp_offset);
	if (used <= room)
		return ntfs_xstore_put(s, rec, a, vcn, s->end);
	if (rec == s->base)
		room -= min_t(size_t, room, ntfs_file_list_reserve(s->t, s->base));
	w = ntfs_runs_fit(s->runs, s->nr, vcn, s->end, room);
	/*
	 * Names and EAs filled the base record, or other attributes an
	 * extension record: the extent moves to another record (@x follows).
	 */
	if (w == vcn) {
		/* $MFT's first extent stays in record 0, where readers start. */
		if (s->base_nr == NTFS_MFT_INO && rec == s->base)
			return -ENOSPC;
		a = rec == s->base ?
		    ntfs_file_move_out(s->t, s->base, s->base_nr, a, &rec, &near) :
		    ntfs_file_rehome(s->t, s->base, s->base_nr, rec, x->nr, a, &rec, &near);
		if (IS_ERR(a))
			return PTR_ERR(a);
		x->nr = near;
		x->instance = le16_to_cpu(a->instance);
		room = ntfs_arec_free(&s->c, rec) + le32_to_cpu(a->length) -
		       le16_to_cpu(a->nr.mp_offset);
		w = ntfs_runs_fit(s->runs, s->nr, vcn, s->end, room);
	}
	if (w == vcn)
		return ntfs_xstore_bad(s, "has no room in its record for a single run", vcn);
	err = ntfs_xstore_put(s, rec, a, vcn, w);
	while (!err && w < s->end) {
		/* A stream may have tens of thousands of runs. */
		cond_resched();
		if (fatal_signal_pending(current))
			return -EINTR;
		err = ntfs_xstore_add(s, &w, &near);
	}
	return err;
}

/* Remove extent @x from its record (and its list entry). */
static int ntfs_xstore_drop(struct ntfs_xstore *s, const struct ntfs_xent *x)
{
	struct ntfs_record *rec;
	struct ntfs_attr *a = ntfs_xstore_attr(s, x, &rec);

	if (IS_ERR(a))
		return PTR_ERR(a);
	return ntfs_file_drop(s->t, s->base, rec, x->nr, a);
}

/*
 * The extent the rewrite starts at: the last one starting at or before
 * @from that still starts inside the allocation (the first one always).
 */
static unsigned int ntfs_xstore_pick(const struct ntfs_xent *xs, unsigned int n, u64 from,
				     u64 end)
{
	u64 last = min(from, end ? end - 1 : 0);
	unsigned int j = 0;

	while (j + 1 < n && xs[j + 1].vcn <= last)
		j++;
	return j;
}

/* The extents of the stream in order of VCN: the list's, or just @first. */
static int ntfs_xstore_list(struct ntfs_xstore *s, const struct ntfs_xent *first,
			    struct ntfs_xent **xs, unsigned int *n)
{
	int err = ntfs_file_extents(s->t, s->base, s->type, s->name, s->name_len, xs, n);

	if (err)
		return err;
	if (!*xs) {
		*xs = kmemdup(first, sizeof(*first), GFP_NOFS);
		*n = 1;
		return *xs ? 0 : -ENOMEM;
	}
	if (!*n || (*xs)[0].nr != first->nr || (*xs)[0].instance != first->instance)
		return ntfs_xstore_bad(s, "is not the one the attribute list names", 0);
	return 0;
}

/**
 * ntfs_extents_store() - Write a non-resident stream's runs into its extents
 * @t:		the transaction
 * @base:	the file's base record (the transaction's copy), checked
 * @base_nr:	its number
 * @first:	the first extent (VCN 0): its record and instance
 * @runs:	the stream's runs, covering VCNs [0, @end)
 * @nr:		their number
 * @end:	VCNs allocated
 * @from:	the first VCN whose mapping differs from what the extents say
 *
 * The extents before the one holding @from are left alone; the rest are
 * rewritten, removed or added (see the top of this file), with the list
 * kept in step.  The caller sets the sizes in the first extent, which
 * may have moved inside its record or out of the base record: *@first
 * says where it is then.
 *
 * Return: 0; -ENOSPC when no MFT record is left for a new extent ($MFT's
 * own: records 16-23 taken); -EIO for extents that are not where
 * the list says; -ENOMEM.  On error the transaction must be aborted.
 */
int ntfs_extents_store(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
		       struct ntfs_xent *first, const struct ntfs_run *runs,
		       unsigned int nr, u64 end, u64 from)
{
	struct ntfs_xstore s = {
		.t = t, .sbi = t->sbi, .base = base, .base_nr = base_nr,
		.runs = runs, .nr = nr, .end = end,
	};
	struct ntfs_record *rec;
	struct ntfs_xent *xs = NULL;
	struct ntfs_attr *a;
	unsigned int n = 0, j = 0, i;
	int err;

	ntfs_rec_ctx(s.sbi, &s.c);
	rec = first->nr == base_nr ? base : ntfs_file_xrec(t, base_nr, first->nr);
	if (IS_ERR(rec))
		return PTR_ERR(rec);
	a = ntfs_arec_by_instance(&s.c, rec, first->instance);
	if (!a || !a->non_resident)
		return -EIO;
	err = ntfs_xstore_init(&s, a);
	if (!err)
		err = ntfs_xstore_list(&s, first, &xs, &n);
	if (!err) {
		j = ntfs_xstore_pick(xs, n, from, end);
		for (i = n - 1; !err && i > j; i--)
			err = ntfs_xstore_drop(&s, &xs[i]);
	}
	if (!err)
		err = ntfs_xstore_from(&s, &xs[j]);
	if (!err && !j)
		*first = xs[0];
	kvfree(xs);
	kfree(s.name);
	return err;
}
