// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs3: the records of one file inside a transaction.  A file whose
 * attributes outgrow its base record keeps some of them in extension
 * records, and an $ATTRIBUTE_LIST in the base record with one entry per
 * attribute saying where it is.  Readers look attributes up through that
 * list, so every attribute added to or removed from any record of such a
 * file changes the list in the same transaction.  This file:
 *
 * - inserts and removes attributes of a base record with the list kept in
 *   step (ntfs_rec_insert(), ntfs_rec_drop());
 * - walks every attribute of a file across its records
 *   (ntfs_fwalk_next());
 * - adds an attribute where there is room (ntfs_file_add()): the base
 *   record, an extension record named in the list, or a new extension
 *   record; the list is created when the file has none, and attributes
 *   that may live anywhere ($FILE_NAME) move out of the base record when
 *   the list needs the room;
 * - removes an attribute from any record (ntfs_file_drop()), freeing an
 *   extension record that it leaves empty.
 *
 * A list is kept resident while the base record holds it and moves to
 * clusters when it does not; a non-resident list is rewritten to new
 * clusters at each change (ntfs_store_value()).  Index roots and EAs are
 * changed in the base record: one that a list placed in an extension
 * record moves home first (ntfs_file_bring_home()); streams are changed
 * wherever their extents are.
 */

#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "ntfs3.h"
#include "attrrec.h"
#include "attrlist.h"

/**
 * ntfs_rec_ctx() - What attrrec.c needs of the volume to edit its records
 * @sbi:	the volume
 * @c:		filled in: record size, upcase table
 */
void ntfs_rec_ctx(struct ntfs_sb *sbi, struct ntfs_arec_ctx *c)
{
	c->rec_size = sbi->record_size;
	c->upcase = sbi->upcase;
	c->upcase_len = sbi->upcase_len;
}

/* The file reference of record @nr, with the sequence number it carries. */
static u64 ntfs_xrec_ref(const struct ntfs_record *r, u64 nr)
{
	return nr | (u64)le16_to_cpu(r->sequence) << 48;
}

/**
 * struct ntfs_xlist - The attribute list of a base record, as a change sees it
 * @attr:	the $ATTRIBUTE_LIST attribute in the base record, NULL if none
 * @v:		its value: in the record (resident), or @copy
 * @size:	bytes of the value
 * @ref:	the base record's file reference, from the list
 * @copy:	a non-resident value read into memory, with room for one
 *		more entry
 */
struct ntfs_xlist {
	struct ntfs_attr	*attr;
	u8			*v;
	u32			size;
	u64			ref;
	void			*copy;
};

static void ntfs_xlist_put(struct ntfs_xlist *l)
{
	kvfree(l->copy);
	memset(l, 0, sizeof(*l));
}

/* Read a non-resident list value into l->copy, with room for one more entry. */
static int ntfs_xlist_read(struct ntfs_sb *sbi, u64 nr, struct ntfs_xlist *l)
{
	l->copy = ntfs_read_attr_list(sbi, nr, l->attr, NTFS_ALIST_ENTRY_MAX, &l->size);
	if (IS_ERR(l->copy)) {
		int err = PTR_ERR(l->copy);

		l->copy = NULL;
		return err;
	}
	l->v = l->copy;
	return 0;
}

/*
 * The attribute list of base record @rec into @l (l->attr NULL when @rec
 * is an extension record or its file has none); ntfs_xlist_put() it.
 * -EIO for a list that cannot be walked or lacks the base record's entry.
 */
static int ntfs_xlist_get(struct ntfs_sb *sbi, void *rec, struct ntfs_xlist *l)
{
	struct ntfs_record *r = rec;
	/* For messages only: NTFS 3.0 records lack the field. */
	u64 nr = le32_to_cpu(r->record_number);
	int err = 0;

	memset(l, 0, sizeof(*l));
	if (r->base_record)
		return 0;
	l->attr = ntfs_rec_find(rec, NTFS_AT_ATTR_LIST, NULL, 0);
	if (!l->attr)
		return 0;
	if (l->attr->non_resident) {
		err = ntfs_xlist_read(sbi, nr, l);
	} else {
		l->v = ntfs_attr_value(l->attr, 0);
		l->size = le32_to_cpu(l->attr->r.value_length);
	}
	/* Empty only while ntfs_xrec_make_list() fills it. */
	if (!err && (ntfs_alist_check(l->v, l->size) ||
		     (l->size && ntfs_alist_base_ref(l->v, l->size, &l->ref))))
		err = ntfs_err_ratelimited(sbi->sb, nr,
					   "attribute list: damaged entry, or none for $STANDARD_INFORMATION");
	if (err)
		ntfs_xlist_put(l);
	return err;
}

/**
 * ntfs_store_value() - Put a small non-resident value in new clusters
 * @t:		the transaction
 * @rec:	the record holding @a
 * @a:		a non-resident attribute whose one extent holds the whole value
 * @buf:	the value
 * @len:	its bytes
 * @room:	bytes to allocate clusters for, at least @len
 *
 * The value is written to clusters it gets now, and @a's mapping pairs
 * and sizes are replaced to describe them; its old clusters are freed
 * when the transaction commits.  Writing elsewhere keeps the old value
 * whole on disk until the record naming the new one is written.
 *
 * Return: 0, -ENOSPC, -EIO, -ENOMEM, or -ENOSPC when @rec has no room
 * for the new mapping pairs.
 */
int ntfs_store_value(struct ntfs_trans *t, void *rec, struct ntfs_attr *a, const void *buf,
		     u32 len, u32 room)
{
	struct ntfs_sb *sbi = t->sbi;
	u64 nr = le32_to_cpu(((struct ntfs_record *)rec)->record_number);
	u64 clusters = DIV_ROUND_UP(max(len, room), sbi->cluster_size);
	struct ntfs_arec_ctx c;
	struct ntfs_run *runs;
	unsigned int n = 0;
	size_t used = 0;
	int err;

	ntfs_rec_ctx(sbi, &c);
	runs = kcalloc(max(clusters, 1ULL), sizeof(*runs), GFP_NOFS);
	if (!runs)
		return -ENOMEM;
	err = ntfs_alloc_runs(t, clusters, runs, &n);
	if (!err)
		err = ntfs_write_runs(sbi, runs, n, buf, len);
	if (!err && ntfs_encode_runs(runs, n, 0, clusters, NULL, 0, &used))
		err = -EIO;
	if (!err && a->nr.allocated_size)
		err = ntfs_free_attr_clusters(t, nr, a);
	if (!err)
		err = ntfs_arec_set_mp_len(&c, rec, a, used);
	if (!err && ntfs_encode_runs(runs, n, 0, clusters,
				     (u8 *)a + le16_to_cpu(a->nr.mp_offset), used, &used))
		err = -EIO;
	if (!err) {
		a->nr.highest_vcn = cpu_to_le64(clusters - 1);
		a->nr.allocated_size = cpu_to_le64(clusters << sbi->cluster_bits);
		a->nr.data_size = cpu_to_le64(len);
		a->nr.valid_size = cpu_to_le64(len);
	}
	kfree(runs);
	return err;
}

/*
 * A resident list that the base record has no room to grow becomes
 * non-resident: its value (with the entry @k added) goes to clusters.
 */
static int ntfs_xlist_move_out(struct ntfs_trans *t, void *base, struct ntfs_xlist *l,
			       const struct ntfs_alist_key *k)
{
	struct ntfs_arec_ctx c;
	__le16 instance = l->attr->instance;
	struct ntfs_attr *a;
	void *copy;
	int size;

	ntfs_rec_ctx(t->sbi, &c);
	copy = kvmalloc(l->size + NTFS_ALIST_ENTRY_MAX, GFP_NOFS);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, l->v, l->size);
	size = ntfs_alist_insert(&c, copy, l->size, k);
	if (size < 0) {
		kvfree(copy);
		return size;
	}
	ntfs_rec_remove(base, l->attr);
	a = ntfs_arec_insert(&c, base, NTFS_AT_ATTR_LIST, NULL, 0, NTFS_AREC_NONRES, 0);
	if (IS_ERR(a)) {
		kvfree(copy);
		return PTR_ERR(a);
	}
	a->instance = instance;
	l->attr = a;
	l->copy = copy;
	l->v = copy;
	l->size = size;
	return ntfs_store_value(t, base, l->attr, l->v, l->size, l->size);
}

/* The list entry of @a, which record @ref holds; its name is copied. */
static int ntfs_xlist_key(const struct ntfs_attr *a, u64 ref, struct ntfs_alist_key *k)
{
	memset(k, 0, sizeof(*k));
	k->type = le32_to_cpu(a->type);
	k->name_len = a->name_length;
	k->lowest_vcn = a->non_resident ? le64_to_cpu(a->nr.lowest_vcn) : 0;
	k->ref = ref;
	k->instance = le16_to_cpu(a->instance);
	if (a->name_length) {
		k->name = kmemdup((u8 *)a + le16_to_cpu(a->name_offset), 2 * a->name_length,
				  GFP_NOFS);
		if (!k->name)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Enter @a, which record @ref holds, in the list of base record @base.
 * Growing a resident list moves @a when @a is in @base.
 */
static int ntfs_xlist_enter(struct ntfs_trans *t, void *base, u64 ref, const struct ntfs_attr *a)
{
	struct ntfs_alist_key k;
	struct ntfs_arec_ctx c;
	struct ntfs_xlist l;
	int err;

	ntfs_rec_ctx(t->sbi, &c);
	err = ntfs_xlist_key(a, ref, &k);
	if (!err)
		err = ntfs_xlist_get(t->sbi, base, &l);
	if (!err && !l.attr)
		err = -EIO;
	if (!err && !l.attr->non_resident) {
		err = ntfs_alist_add(&c, base, l.attr, &k);
		if (err == -ENOSPC)
			err = ntfs_xlist_move_out(t, base, &l, &k);
	} else if (!err) {
		err = ntfs_alist_insert(&c, l.v, l.size, &k);
		if (err >= 0) {
			l.size = err;
			err = ntfs_store_value(t, base, l.attr, l.v, l.size, l.size);
		}
	}
	ntfs_xlist_put(&l);
	kfree(k.name);
	return err;
}

/*
 * Remove the list entry of the attribute of @type and @instance in record
 * @nr from the list of base record @base.
 */
static int ntfs_xlist_forget(struct ntfs_trans *t, void *base, u32 type, u64 nr, u16 instance)
{
	struct ntfs_arec_ctx c;
	struct ntfs_xlist l;
	int err;

	ntfs_rec_ctx(t->sbi, &c);
	err = ntfs_xlist_get(t->sbi, base, &l);
	if (!err && !l.attr)
		err = -EIO;
	if (!err && !l.attr->non_resident) {
		err = ntfs_alist_del(&c, base, l.attr, type, nr, instance);
	} else if (!err) {
		err = ntfs_alist_remove(l.v, l.size, type, nr, instance);
		if (err >= 0) {
			l.size = err;
			err = ntfs_store_value(t, base, l.attr, l.v, l.size, l.size);
		}
	}
	ntfs_xlist_put(&l);
	if (err == -ENOENT)
		return ntfs_err_ratelimited(t->sbi->sb, nr,
					    "attribute 0x%x is missing from the attribute list",
					    type);
	return err;
}

/*
 * ntfs_rec_add_here() - Insert a new attribute into a record, list kept in step
 * @t:		the transaction
 * @rec:	the record, fixed up (a transaction's copy)
 * @type:	attribute type
 * @name:	UTF-16 name, NULL for none
 * @name_len:	units in @name
 * @hdr:	header size (see ntfs_arec_insert())
 * @body_len:	resident: value length; non-resident: mapping pairs bytes
 *
 * In a base record with an attribute list, the list gets the attribute's
 * entry; an extension record's attribute is entered by the caller.
 *
 * Return: the attribute, or ERR_PTR(-ENOSPC) when the record lacks the
 * room, ERR_PTR(-EIO), ERR_PTR(-ENOMEM); on error the transaction must
 * be aborted.
 */
static struct ntfs_attr *ntfs_rec_add_here(struct ntfs_trans *t, void *rec, u32 type,
					   const __le16 *name, u8 name_len, u32 hdr,
					   u32 body_len)
{
	struct ntfs_arec_ctx c;
	struct ntfs_xlist l;
	struct ntfs_attr *a;
	bool listed;
	u16 instance;
	u64 ref;
	int err;

	ntfs_rec_ctx(t->sbi, &c);
	err = ntfs_xlist_get(t->sbi, rec, &l);
	if (err)
		return ERR_PTR(err);
	listed = l.attr;
	ref = l.ref;
	ntfs_xlist_put(&l);
	a = ntfs_arec_insert(&c, rec, type, name, name_len, hdr, body_len);
	if (IS_ERR(a) || !listed)
		return a;
	instance = le16_to_cpu(a->instance);
	err = ntfs_xlist_enter(t, rec, ref, a);
	a = ntfs_arec_by_instance(&c, rec, instance);
	if (err) {
		ntfs_rec_remove(rec, a);
		return ERR_PTR(err);
	}
	return a;
}

/**
 * ntfs_rec_drop() - Remove an attribute from a base record
 * @t:		the transaction
 * @rec:	the record, fixed up (a transaction's copy)
 * @a:		an attribute of it
 *
 * In a base record with an attribute list the attribute's entry goes too.
 *
 * Return: 0; -EIO when the list has no entry for @a or cannot be walked,
 * -ENOSPC, -ENOMEM (the transaction must then be aborted).
 */
int ntfs_rec_drop(struct ntfs_trans *t, void *rec, struct ntfs_attr *a)
{
	u16 instance = le16_to_cpu(a->instance);
	struct ntfs_arec_ctx c;
	struct ntfs_xlist l;
	bool listed;
	u64 ref;
	int err;

	err = ntfs_xlist_get(t->sbi, rec, &l);
	if (err)
		return err;
	listed = l.attr;
	ref = l.ref;
	ntfs_xlist_put(&l);
	if (listed) {
		err = ntfs_xlist_forget(t, rec, le32_to_cpu(a->type), NTFS_REF_RECORD(ref),
					instance);
		if (err)
			return err;
		ntfs_rec_ctx(t->sbi, &c);
		a = ntfs_arec_by_instance(&c, rec, instance);
	}
	ntfs_rec_remove(rec, a);
	return 0;
}

/*
 * ntfs_rec_elsewhere() - Whether a file's list places an attribute outside its base record
 * @sbi:	the volume
 * @rec:	the base record
 * @type:	attribute type
 * @name:	its name (exact), NULL for none
 * @name_len:	units in @name
 *
 * Return: 1 if (a part of) that attribute is in another record, 0 if not
 * (or the file has no list), a negative errno for a list that cannot be
 * read.
 */
static int ntfs_rec_elsewhere(struct ntfs_sb *sbi, void *rec, u32 type, const __le16 *name,
			      u8 name_len)
{
	struct ntfs_xlist l;
	int err = ntfs_xlist_get(sbi, rec, &l);

	if (err || !l.attr)
		return err;
	err = ntfs_alist_names_elsewhere(l.v, l.size, type, name, name_len,
					 NTFS_REF_RECORD(l.ref));
	ntfs_xlist_put(&l);
	return err;
}

/**
 * ntfs_rec_check() - Check every attribute header of a record before a change
 * @sbi:	the volume
 * @rec:	the record, as ntfs_trans_record() returned it
 * @nr:		its number, for the message
 *
 * ntfs_read_record() checks the record header only; the attribute headers
 * are checked as they are walked.  A change moves bytes by the lengths of
 * every attribute after the one it touches, so all of them are checked
 * first, each with the rules of ntfs_next_attr().
 *
 * Return: 0, or -EIO (reported) for a damaged attribute header.
 */
int ntfs_rec_check(struct ntfs_sb *sbi, void *rec, u64 nr)
{
	struct ntfs_attr *a = NULL;
	const char *why = "";

	while ((a = ntfs_next_attr(rec, a, &why)))
		if (IS_ERR(a))
			return ntfs_err_ratelimited(sbi->sb, nr, "%s", why);
	return 0;
}

/* ---- every record of a file ------------------------------------------ */

/**
 * ntfs_fwalk_start() - Start a walk over every attribute of a file
 * @w:		the walk
 * @t:		the transaction whose copies are walked
 * @base:	the base record (ntfs_trans_record()), its attributes checked
 * @base_nr:	its number
 *
 * End it with ntfs_fwalk_end().
 */
void ntfs_fwalk_start(struct ntfs_fwalk *w, struct ntfs_trans *t, struct ntfs_record *base,
		      u64 base_nr)
{
	memset(w, 0, sizeof(*w));
	w->t = t;
	w->base = base;
	w->base_nr = base_nr;
}

/**
 * ntfs_fwalk_end() - Free what a walk holds
 * @w:		the walk; start it again before another use
 */
void ntfs_fwalk_end(struct ntfs_fwalk *w)
{
	kvfree(w->list);
	kvfree(w->seen);
	w->list = NULL;
	w->seen = NULL;
	w->list_read = false;
	w->nr_seen = 0;
	w->cap_seen = 0;
}

/* Whether the walk has been through extension record @nr already. */
static bool ntfs_fwalk_seen(const struct ntfs_fwalk *w, u64 nr)
{
	unsigned int i;

	for (i = 0; i < w->nr_seen; i++)
		if (w->seen[i] == nr)
			return true;
	return false;
}

/* Note extension record @nr as walked. */
static int ntfs_fwalk_mark(struct ntfs_fwalk *w, u64 nr)
{
	if (w->nr_seen == w->cap_seen) {
		unsigned int cap = w->cap_seen ? 2 * w->cap_seen : 16;
		u64 *grown = kvrealloc(w->seen, cap * sizeof(*grown), GFP_NOFS);

		if (!grown)
			return -ENOMEM;
		w->seen = grown;
		w->cap_seen = cap;
	}
	w->seen[w->nr_seen++] = nr;
	return 0;
}

/*
 * Copy the list of the walk's file once: the walk goes on from it without
 * reading a non-resident list again at each record.
 */
static int ntfs_fwalk_read_list(struct ntfs_fwalk *w)
{
	struct ntfs_xlist l;
	int err;

	w->list_read = true;
	err = ntfs_xlist_get(w->t->sbi, w->base, &l);
	if (err || !l.attr)
		return err;
	if (l.copy) {
		w->list = l.copy;
		l.copy = NULL;
	} else {
		w->list = kvmalloc(max(l.size, 1U), GFP_NOFS);
		if (w->list)
			memcpy(w->list, l.v, l.size);
	}
	w->list_size = l.size;
	ntfs_xlist_put(&l);
	return w->list ? 0 : -ENOMEM;
}

/**
 * ntfs_file_xrec() - An extension record of a file, for a change
 * @t:		the transaction
 * @base_nr:	the file's base record number
 * @nr:		the record an attribute list names
 *
 * The record must be in use, point back at the base record and have
 * sound attribute headers.
 *
 * Return: the transaction's copy, or an ERR_PTR (-EIO reported).
 */
struct ntfs_record *ntfs_file_xrec(struct ntfs_trans *t, u64 base_nr, u64 nr)
{
	struct ntfs_sb *sbi = t->sbi;
	struct ntfs_record *r = ntfs_trans_record(t, nr);
	int err;

	if (IS_ERR(r))
		return r;
	if (!(le16_to_cpu(r->flags) & NTFS_RECORD_IN_USE) ||
	    NTFS_REF_RECORD(le64_to_cpu(r->base_record)) != base_nr)
		return ERR_PTR(ntfs_err_ratelimited(sbi->sb, base_nr,
						    "attribute list names record %llu, which is free or not ours",
						    nr));
	err = ntfs_rec_check(sbi, r, nr);
	return err ? ERR_PTR(err) : r;
}

/*
 * Move the walk to the next record of the file: 1, 0 at the end, or a
 * negative errno (-EINTR when a fatal signal is pending).
 */
static int ntfs_fwalk_next_rec(struct ntfs_fwalk *w)
{
	struct ntfs_record *r;
	int err;

	if (!w->rec) {
		w->rec = w->base;
		w->nr = w->base_nr;
		return 1;
	}
	/* A file may have thousands of extension records. */
	cond_resched();
	if (fatal_signal_pending(current))
		return -EINTR;
	if (!w->list_read) {
		err = ntfs_fwalk_read_list(w);
		if (err)
			return err;
	}
	while (w->next < w->list_size) {
		const struct ntfs_attr_list_entry *e = (const void *)(w->list + w->next);
		u64 nr = NTFS_REF_RECORD(le64_to_cpu(e->record));

		w->next += le16_to_cpu(e->length);
		if (nr == w->base_nr || ntfs_fwalk_seen(w, nr))
			continue;
		err = ntfs_fwalk_mark(w, nr);
		if (err)
			return err;
		r = ntfs_file_xrec(w->t, w->base_nr, nr);
		if (IS_ERR(r))
			return PTR_ERR(r);
		w->rec = r;
		w->nr = nr;
		return 1;
	}
	return 0;
}

/**
 * ntfs_fwalk_next() - The next attribute of the walk's file
 * @w:		the walk; w->rec and w->nr name the record holding the result
 *
 * The base record first, then each extension record the list names, in
 * the order of their first entries.  Changing a record ends the walk:
 * start a new one.
 *
 * Return: the attribute, NULL at the end, or an ERR_PTR (-EIO for damage,
 * -EOPNOTSUPP for a list that is not resident).
 */
struct ntfs_attr *ntfs_fwalk_next(struct ntfs_fwalk *w)
{
	const char *why = NULL;
	struct ntfs_attr *a;
	int more;

	for (;;) {
		if (w->rec) {
			a = ntfs_next_attr(w->rec, w->a, &why);
			if (IS_ERR(a))
				return ERR_PTR(ntfs_err_ratelimited(w->t->sbi->sb, w->nr, "%s",
								    why));
			if (a) {
				w->a = a;
				return a;
			}
		}
		more = ntfs_fwalk_next_rec(w);
		if (more <= 0)
			return ERR_PTR(more) ?: NULL;
		w->a = NULL;
	}
}

/* Whether a record holds no attribute. */
static bool ntfs_xrec_empty(struct ntfs_record *r)
{
	return !ntfs_next_attr(r, NULL, NULL);
}

/* Free extension record @nr (in the transaction), emptied of attributes. */
static int ntfs_xrec_free(struct ntfs_trans *t, struct ntfs_record *r, u64 nr)
{
	u16 seq = le16_to_cpu(r->sequence) + 1;

	r->sequence = cpu_to_le16(seq ? seq : 1);
	r->flags &= ~cpu_to_le16(NTFS_RECORD_IN_USE);
	r->base_record = 0;
	return ntfs_free_record(t, nr);
}

/**
 * ntfs_file_drop() - Remove an attribute from any record of a file
 * @t:		the transaction
 * @base:	the base record
 * @rec:	the record holding @a (@base or an extension record)
 * @nr:		its number
 * @a:		the attribute
 *
 * The list entry goes with it; an extension record left without
 * attributes is freed.
 *
 * Return: 0, -EIO, -EOPNOTSUPP, -ENOMEM.
 */
int ntfs_file_drop(struct ntfs_trans *t, struct ntfs_record *base, struct ntfs_record *rec,
		   u64 nr, struct ntfs_attr *a)
{
	int err;

	if (rec == base)
		return ntfs_rec_drop(t, base, a);
	err = ntfs_xlist_forget(t, base, le32_to_cpu(a->type), nr, le16_to_cpu(a->instance));
	if (err)
		return err;
	ntfs_rec_remove(rec, a);
	return ntfs_xrec_empty(rec) ? ntfs_xrec_free(t, rec, nr) : 0;
}

/*
 * A new extension record of the file whose base record is @base_nr;
 * $MFT's own come from the records kept for them.
 */
static struct ntfs_record *ntfs_xrec_new(struct ntfs_trans *t, struct ntfs_record *base,
					 u64 base_nr, u64 *nr)
{
	struct ntfs_record *r;
	int err = base_nr == NTFS_MFT_INO ? ntfs_alloc_mft_xrecord(t, nr) :
					   ntfs_alloc_record(t, nr);

	if (err)
		return ERR_PTR(err);
	r = ntfs_trans_new_record(t, *nr);
	if (!IS_ERR(r))
		r->base_record = cpu_to_le64(ntfs_xrec_ref(base, base_nr));
	return r;
}

/*
 * Copy attribute @a into record @to as a new attribute of it (its own
 * instance number), body and flags as they are.  Only attributes laid out
 * as ntfs_arec_insert() lays them out are copied: -EINVAL for others.
 */
static struct ntfs_attr *ntfs_xrec_copy(const struct ntfs_arec_ctx *c, void *to,
					const struct ntfs_attr *a)
{
	u32 hdr = le16_to_cpu(a->name_offset), body, len = le32_to_cpu(a->length);
	const __le16 *name = (const void *)((const u8 *)a + hdr);
	struct ntfs_attr *n;
	__le16 instance;

	body = le16_to_cpu(a->non_resident ? a->nr.mp_offset : a->r.value_offset);
	/*
	 * The name offset of an unnamed attribute means nothing (the in-tree
	 * driver leaves it 0): its header ends where its body starts.
	 */
	if (!a->name_length)
		hdr = body;
	if (a->non_resident ? hdr != NTFS_AREC_NONRES && hdr != NTFS_AREC_NONRES_C :
			      hdr != NTFS_AREC_RESIDENT)
		return ERR_PTR(-EINVAL);
	if (body != ALIGN(hdr + 2 * a->name_length, 8) || body > len)
		return ERR_PTR(-EINVAL);
	n = ntfs_arec_insert(c, to, le32_to_cpu(a->type), a->name_length ? name : NULL,
			     a->name_length, hdr, len - body);
	if (IS_ERR(n))
		return n;
	if (le32_to_cpu(n->length) != len) {
		ntfs_rec_remove(to, n);
		return ERR_PTR(-EINVAL);
	}
	instance = n->instance;
	memcpy(n, a, len);
	n->instance = instance;
	return n;
}

/*
 * Attributes that may leave the base record: names, and with @streams the
 * extents of data streams and index allocations, which are found through
 * the list wherever they are.  The others are changed in the base record
 * only.
 */
static bool ntfs_xrec_movable(const struct ntfs_attr *a, bool streams)
{
	switch (le32_to_cpu(a->type)) {
	case NTFS_AT_FILE_NAME:
		return !a->non_resident;
	case NTFS_AT_DATA:
	case NTFS_AT_INDEX_ALLOC:
		return streams && a->non_resident;
	default:
		return false;
	}
}

/*
 * Move attribute @a of base record @base into record @to (number @to_nr),
 * which has the room; with @listed the list entry follows it, without
 * the file has no list yet.  Returns the attribute at its new place.
 */
static struct ntfs_attr *ntfs_xrec_move(struct ntfs_trans *t, struct ntfs_record *base,
					struct ntfs_attr *a, struct ntfs_record *to, u64 to_nr,
					bool listed)
{
	struct ntfs_arec_ctx c;
	struct ntfs_attr *n;
	u16 instance;
	int err;

	ntfs_rec_ctx(t->sbi, &c);
	n = ntfs_xrec_copy(&c, to, a);
	if (IS_ERR(n))
		return n;
	if (!listed) {
		ntfs_rec_remove(base, a);
		return n;
	}
	instance = le16_to_cpu(n->instance);
	/* The entry is replaced by one of the same length: no room needed. */
	err = ntfs_rec_drop(t, base, a);
	if (!err)
		err = ntfs_xlist_enter(t, base, ntfs_xrec_ref(to, to_nr), n);
	return err ? ERR_PTR(err) : ntfs_arec_by_instance(&c, to, instance);
}

/*
 * Move the largest movable attribute of base record @base that fits into
 * record @to (number @to_nr).  With @listed, the list entry follows it;
 * without, the file has no list yet.  -ENOSPC when none moves.
 */
static int ntfs_xrec_move_one(struct ntfs_trans *t, struct ntfs_record *base,
			      struct ntfs_record *to, u64 to_nr, bool listed, bool streams)
{
	struct ntfs_attr *a = NULL, *best = NULL;
	struct ntfs_arec_ctx c;

	ntfs_rec_ctx(t->sbi, &c);
	while ((a = ntfs_next_attr(base, a, NULL)) && !IS_ERR(a))
		if (ntfs_xrec_movable(a, streams) &&
		    (!best || le32_to_cpu(a->length) > le32_to_cpu(best->length)) &&
		    le32_to_cpu(a->length) <= ntfs_arec_free(&c, to))
			best = a;
	if (IS_ERR(a))
		return PTR_ERR(a);
	if (!best)
		return -ENOSPC;
	return PTR_ERR_OR_ZERO(ntfs_xrec_move(t, base, best, to, to_nr, listed));
}

/* Bytes a new attribute takes in a record (see ntfs_arec_insert()). */
static u32 ntfs_xrec_attr_len(u32 hdr, u8 name_len, u32 body_len)
{
	return ALIGN(ALIGN(hdr + 2 * name_len, 8) + max(body_len, 1U), 8);
}

/* Bytes of a list entry for an attribute of a name of @name_len units. */
static u32 ntfs_xrec_entry_len(u8 name_len)
{
	return ALIGN(NTFS_ALIST_HDR + 2 * name_len, 8);
}

/* The @k-th attribute of record @r (from 0), NULL past the last. */
static struct ntfs_attr *ntfs_xrec_nth(struct ntfs_record *r, unsigned int k)
{
	struct ntfs_attr *a = NULL;

	while ((a = ntfs_next_attr(r, a, NULL)) && !IS_ERR(a))
		if (!k--)
			break;
	return a;
}

/*
 * Enter every attribute of base record @base (reference @ref) but its
 * list, then every attribute of extension record @x (@x_ref), in the
 * base record's new, empty list.  Entering moves the attributes after the
 * list, not their order: the base record's are taken by position.
 */
static int ntfs_xrec_enter_all(struct ntfs_trans *t, struct ntfs_record *base, u64 ref,
			       struct ntfs_record *x, u64 x_ref)
{
	struct ntfs_attr *a;
	unsigned int k;
	int err;

	for (k = 0; ; k++) {
		a = ntfs_xrec_nth(base, k);
		if (IS_ERR_OR_NULL(a))
			break;
		if (le32_to_cpu(a->type) == NTFS_AT_ATTR_LIST)
			continue;
		err = ntfs_xlist_enter(t, base, ref, a);
		if (err)
			return err;
	}
	if (IS_ERR(a))
		return PTR_ERR(a);
	while ((a = ntfs_next_attr(x, a, NULL)) && !IS_ERR(a)) {
		err = ntfs_xlist_enter(t, base, x_ref, a);
		if (err)
			return err;
	}
	return PTR_ERR_OR_ZERO(a);
}

/*
 * Add a new attribute @na to extension record @r (number @r_nr) of the
 * file of @base, which has a list: room for its entry in a resident list
 * is made in the base record first by moving attributes to @r.
 */
static struct ntfs_attr *ntfs_xrec_add_to(struct ntfs_trans *t, struct ntfs_record *base,
					  struct ntfs_record *r, u64 r_nr,
					  const struct ntfs_new_attr *na)
{
	struct ntfs_arec_ctx c;
	struct ntfs_xlist l;
	struct ntfs_attr *a;
	bool resident;
	int err;

	ntfs_rec_ctx(t->sbi, &c);
	err = ntfs_xlist_get(t->sbi, base, &l);
	if (err)
		return ERR_PTR(err);
	resident = l.attr && !l.attr->non_resident;
	ntfs_xlist_put(&l);
	/*
	 * Names leave the base record to keep a resident list growing there;
	 * when none is left to move, the list moves to clusters instead.
	 */
	while (resident && ntfs_arec_free(&c, base) < ntfs_xrec_entry_len(na->name_len)) {
		err = ntfs_xrec_move_one(t, base, r, r_nr, true, false);
		if (err == -ENOSPC)
			break;
		if (err)
			return ERR_PTR(err);
	}
	a = ntfs_arec_insert(&c, r, na->type, na->name, na->name_len, na->hdr, na->body_len);
	if (IS_ERR(a))
		return a;
	/* The list entry carries the extent's first VCN: set it first. */
	if (a->non_resident)
		a->nr.lowest_vcn = cpu_to_le64(na->lowest_vcn);
	err = ntfs_xlist_enter(t, base, ntfs_xrec_ref(r, r_nr), a);
	if (err) {
		ntfs_rec_remove(r, a);
		return ERR_PTR(err);
	}
	return a;
}

/*
 * Add @na to the first extension record, named by the list of @base, that
 * has the room for it; ERR_PTR(-ENOSPC) when none has.
 */
static struct ntfs_attr *ntfs_xrec_add_existing(struct ntfs_trans *t, struct ntfs_record *base,
						u64 base_nr, const struct ntfs_new_attr *na,
						struct ntfs_record **where, u64 *where_nr)
{
	u32 need = ntfs_xrec_attr_len(na->hdr, na->name_len, na->body_len);
	struct ntfs_arec_ctx c;
	struct ntfs_fwalk w;
	struct ntfs_attr *a;
	int more;

	ntfs_rec_ctx(t->sbi, &c);
	ntfs_fwalk_start(&w, t, base, base_nr);
	while ((more = ntfs_fwalk_next_rec(&w)) > 0) {
		if (w.rec == base || ntfs_arec_free(&c, w.rec) < need)
			continue;
		ntfs_fwalk_end(&w);
		a = ntfs_xrec_add_to(t, base, w.rec, w.nr, na);
		if (!IS_ERR(a)) {
			*where = w.rec;
			*where_nr = w.nr;
		}
		return a;
	}
	ntfs_fwalk_end(&w);
	return ERR_PTR(more < 0 ? more : -ENOSPC);
}

/*
 * Give base record @base an attribute list naming each of its attributes
 * and those of the new extension record @x, moving movable attributes
 * to @x until the list fits with @extra bytes to spare (the entry of the
 * attribute the caller adds next).
 */
static int ntfs_xrec_make_list(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
			       struct ntfs_record *x, u64 x_nr, u32 extra, bool streams)
{
	struct ntfs_sb *sbi = t->sbi;
	u64 ref = ntfs_xrec_ref(base, base_nr);
	struct ntfs_attr *a = NULL, *list;
	struct ntfs_arec_ctx c;
	u32 need = extra;
	int err;

	ntfs_rec_ctx(sbi, &c);
	while ((a = ntfs_next_attr(base, a, NULL)) && !IS_ERR(a))
		need += ntfs_xrec_entry_len(a->name_length);
	if (IS_ERR(a))
		return PTR_ERR(a);
	need = ALIGN(NTFS_AREC_RESIDENT + need, 8);
	/* Record 0 keeps all its attributes: readers need them to find $MFT. */
	if (base_nr == NTFS_MFT_INO && ntfs_arec_free(&c, base) < need)
		return -ENOSPC;
	while (ntfs_arec_free(&c, base) < need) {
		err = ntfs_xrec_move_one(t, base, x, x_nr, false, streams);
		if (err)
			return err;
	}
	list = ntfs_arec_insert(&c, base, NTFS_AT_ATTR_LIST, NULL, 0, NTFS_AREC_RESIDENT, 0);
	if (IS_ERR(list))
		return PTR_ERR(list);
	/* Each entry moves what follows the list: walk again after each. */
	return ntfs_xrec_enter_all(t, base, ref, x, ntfs_xrec_ref(x, x_nr));
}

/* Bytes a base record with a list keeps free for the list's own growth. */
#define NTFS_XREC_BASE_RESERVE	64

/* Length of the largest movable attribute of @base, 0 if none. */
static u32 ntfs_xrec_largest_movable(struct ntfs_record *base)
{
	struct ntfs_attr *a = NULL;
	u32 len = 0;

	while ((a = ntfs_next_attr(base, a, NULL)) && !IS_ERR(a))
		if (ntfs_xrec_movable(a, false))
			len = max(len, le32_to_cpu(a->length));
	return len;
}

/*
 * An extension record of the file of @base with @len bytes free, or a new
 * one.
 */
static struct ntfs_record *ntfs_xrec_with_room(struct ntfs_trans *t, struct ntfs_record *base,
					       u64 base_nr, u32 len, u64 *nr)
{
	struct ntfs_arec_ctx c;
	struct ntfs_fwalk w;
	int more;

	ntfs_rec_ctx(t->sbi, &c);
	ntfs_fwalk_start(&w, t, base, base_nr);
	while ((more = ntfs_fwalk_next_rec(&w)) > 0) {
		if (w.rec != base && ntfs_arec_free(&c, w.rec) >= len) {
			ntfs_fwalk_end(&w);
			*nr = w.nr;
			return w.rec;
		}
	}
	ntfs_fwalk_end(&w);
	if (more < 0)
		return ERR_PTR(more);
	return ntfs_xrec_new(t, base, base_nr, nr);
}

/*
 * Make @need bytes free in base record @base (number @base_nr) of a file
 * with a list, moving its names to extension records, the largest first.
 */
static int ntfs_xrec_make_room(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
			       u32 need)
{
	struct ntfs_arec_ctx c;
	struct ntfs_record *to;
	u32 len;
	u64 nr;
	int err;

	ntfs_rec_ctx(t->sbi, &c);
	while (ntfs_arec_free(&c, base) < need) {
		len = ntfs_xrec_largest_movable(base);
		if (!len)
			return -ENOSPC;
		to = ntfs_xrec_with_room(t, base, base_nr, len, &nr);
		if (IS_ERR(to))
			return PTR_ERR(to);
		err = ntfs_xrec_move_one(t, base, to, nr, true, false);
		if (err)
			return err;
	}
	return 0;
}

/* Whether @base has a list; *@base_nr is then its number, from the list. */
static int ntfs_xrec_listed(struct ntfs_trans *t, struct ntfs_record *base, u64 *base_nr)
{
	struct ntfs_xlist l;
	int err = ntfs_xlist_get(t->sbi, base, &l);

	if (err)
		return err;
	err = !!l.attr;
	*base_nr = NTFS_REF_RECORD(l.ref);
	ntfs_xlist_put(&l);
	return err;
}

/**
 * ntfs_rec_add() - Insert a new attribute into a record, list kept in step
 * @t:		the transaction
 * @rec:	the record, fixed up (a transaction's copy)
 * @type:	attribute type
 * @name:	UTF-16 name, NULL for none
 * @name_len:	units in @name
 * @hdr:	header size (see ntfs_arec_insert())
 * @body_len:	resident: value length; non-resident: mapping pairs bytes
 *
 * In a base record with an attribute list, the list gets the attribute's
 * entry, and names move to extension records when the base record lacks
 * the room; an extension record's attribute is entered by the caller.
 *
 * Return: the attribute, or ERR_PTR(-ENOSPC) when the record lacks the
 * room, ERR_PTR(-EIO), ERR_PTR(-ENOMEM); on error the transaction must
 * be aborted.
 */
struct ntfs_attr *ntfs_rec_add(struct ntfs_trans *t, void *rec, u32 type, const __le16 *name,
			       u8 name_len, u32 hdr, u32 body_len)
{
	struct ntfs_attr *a = ntfs_rec_add_here(t, rec, type, name, name_len, hdr, body_len);
	u64 base_nr;
	int err;

	if (!IS_ERR(a) || PTR_ERR(a) != -ENOSPC)
		return a;
	err = ntfs_xrec_listed(t, rec, &base_nr);
	if (err <= 0)
		return err ? ERR_PTR(err) : a;
	err = ntfs_xrec_make_room(t, rec, base_nr, ntfs_xrec_attr_len(hdr, name_len, body_len) +
				  NTFS_XREC_BASE_RESERVE);
	if (err)
		return ERR_PTR(err);
	return ntfs_rec_add_here(t, rec, type, name, name_len, hdr, body_len);
}

/**
 * ntfs_rec_insert() - Insert a new attribute into a record at its sorted place
 * @t:		the transaction
 * @rec:	the record, fixed up (a transaction's copy)
 * @type:	attribute type
 * @name:	UTF-16 name, NULL for none
 * @name_len:	units in @name
 * @nonres:	non-resident (plain header of 0x40 bytes) rather than resident
 * @body_len:	resident: value length; non-resident: mapping pairs bytes
 *
 * As ntfs_rec_add() with the plain header of its kind: the header is
 * zeroed and filled, the instance is the record's next one; a
 * non-resident attribute starts empty.
 *
 * Return: as ntfs_rec_add().
 */
struct ntfs_attr *ntfs_rec_insert(struct ntfs_trans *t, void *rec, u32 type,
				  const __le16 *name, u8 name_len, bool nonres, u32 body_len)
{
	return ntfs_rec_add(t, rec, type, name, name_len,
			    nonres ? NTFS_AREC_NONRES : NTFS_AREC_RESIDENT, body_len);
}

/*
 * Add @na to a new extension record of the file of @base, giving the file
 * its list first when it has none (@listed false).
 */
static struct ntfs_attr *ntfs_xrec_add_new(struct ntfs_trans *t, struct ntfs_record *base,
					   u64 base_nr, const struct ntfs_new_attr *na,
					   bool listed, struct ntfs_record **where, u64 *where_nr)
{
	struct ntfs_record *x;
	u64 x_nr;
	int err;

	x = ntfs_xrec_new(t, base, base_nr, &x_nr);
	if (IS_ERR(x))
		return ERR_CAST(x);
	if (!listed) {
		err = ntfs_xrec_make_list(t, base, base_nr, x, x_nr,
					  ntfs_xrec_entry_len(na->name_len), na->streams);
		if (err)
			return ERR_PTR(err);
	}
	*where = x;
	*where_nr = x_nr;
	return ntfs_xrec_add_to(t, base, x, x_nr, na);
}

/**
 * ntfs_file_move_out() - Move an attribute of a base record to an extension record
 * @t:		the transaction
 * @base:	the file's base record, its attributes checked
 * @base_nr:	its number
 * @a:		the attribute, in @base (not $STANDARD_INFORMATION or the list)
 * @where:	set to the record that holds it then
 * @where_nr:	set to its number
 *
 * For an extent that has no room left in the base record: it goes to an
 * extension record of the file with the room, or a new one (the file
 * gets its list then).
 *
 * Return: the attribute at its new place, or an ERR_PTR(): -ENOSPC (no
 * free record, or no room for the new list), -EINVAL (an attribute laid
 * out otherwise than this driver writes them), -EIO, -ENOMEM.  On an
 * error the transaction must be aborted.
 */
struct ntfs_attr *ntfs_file_move_out(struct ntfs_trans *t, struct ntfs_record *base,
				     u64 base_nr, struct ntfs_attr *a,
				     struct ntfs_record **where, u64 *where_nr)
{
	u32 len = le32_to_cpu(a->length);
	struct ntfs_arec_ctx c;
	struct ntfs_record *to;
	struct ntfs_attr *n;
	int listed, err;
	u16 instance;
	u64 ref;

	listed = ntfs_xrec_listed(t, base, &ref);
	if (listed < 0)
		return ERR_PTR(listed);
	to = listed ? ntfs_xrec_with_room(t, base, base_nr, len, where_nr) :
		      ntfs_xrec_new(t, base, base_nr, where_nr);
	if (IS_ERR(to))
		return ERR_CAST(to);
	*where = to;
	n = ntfs_xrec_move(t, base, a, to, *where_nr, listed);
	if (IS_ERR(n) || listed)
		return n;
	/* Names may follow it into @to for the list's room: find it again. */
	instance = le16_to_cpu(n->instance);
	err = ntfs_xrec_make_list(t, base, base_nr, to, *where_nr,
				  ntfs_xrec_entry_len(n->name_length), false);
	if (err)
		return ERR_PTR(err);
	ntfs_rec_ctx(t->sbi, &c);
	n = ntfs_arec_by_instance(&c, to, instance);
	return n ? n : ERR_PTR(-EIO);
}

/**
 * ntfs_file_rehome() - Move an attribute of an extension record to a new one
 * @t:		the transaction
 * @base:	the file's base record (it holds the list)
 * @base_nr:	its number
 * @rec:	the extension record holding @a
 * @rec_nr:	its number
 * @a:		the attribute
 * @where:	set to the new record
 * @where_nr:	set to its number
 *
 * For an extent that has no room left in an extension record full of
 * other attributes (the first extent of a stream that turns sparse grows
 * by eight bytes).  Its list entry follows it; @rec is freed when it is
 * left empty.
 *
 * Return: the attribute at its new place, or an ERR_PTR(): -ENOSPC (no
 * free record), -EINVAL (an attribute laid out otherwise than this driver
 * writes them), -EIO, -ENOMEM.  On an error the transaction must be
 * aborted.
 */
struct ntfs_attr *ntfs_file_rehome(struct ntfs_trans *t, struct ntfs_record *base,
				   u64 base_nr, struct ntfs_record *rec, u64 rec_nr,
				   struct ntfs_attr *a, struct ntfs_record **where, u64 *where_nr)
{
	struct ntfs_arec_ctx c;
	struct ntfs_record *to;
	struct ntfs_attr *n;
	u16 instance;
	int err;

	to = ntfs_xrec_new(t, base, base_nr, where_nr);
	if (IS_ERR(to))
		return ERR_CAST(to);
	ntfs_rec_ctx(t->sbi, &c);
	n = ntfs_xrec_copy(&c, to, a);
	if (IS_ERR(n))
		return n;
	instance = le16_to_cpu(n->instance);
	/* The entry is replaced by one of the same length: no room needed. */
	err = ntfs_file_drop(t, base, rec, rec_nr, a);
	if (!err)
		err = ntfs_xlist_enter(t, base, ntfs_xrec_ref(to, *where_nr), n);
	if (err)
		return ERR_PTR(err);
	*where = to;
	return ntfs_arec_by_instance(&c, to, instance) ?: ERR_PTR(-EIO);
}

/* The attribute of record @rec with @instance, or -EIO when it is gone. */
static struct ntfs_attr *ntfs_xrec_by_instance(struct ntfs_trans *t, struct ntfs_record *rec,
					       u16 instance)
{
	struct ntfs_arec_ctx c;

	ntfs_rec_ctx(t->sbi, &c);
	return ntfs_arec_by_instance(&c, rec, instance) ?: ERR_PTR(-EIO);
}

/*
 * Whether the attribute (@type, @name) is one piece, as only those are
 * moved: -EOPNOTSUPP (reported) for one in several extents.
 */
static int ntfs_xrec_one_piece(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
			       u32 type, const __le16 *name, u8 name_len)
{
	struct ntfs_xent *xs;
	unsigned int n;
	int err;

	err = ntfs_file_extents(t, base, type, name, name_len, &xs, &n);
	if (err)
		return err;
	kvfree(xs);
	if (n == 1)
		return 0;
	ntfs_err_ratelimited(t->sbi->sb, base_nr,
			     "attribute 0x%x in %u extents: changing it is not supported yet",
			     type, n);
	return -EOPNOTSUPP;
}

/**
 * ntfs_file_bring_home() - Move an attribute that the list places elsewhere into the base record
 * @t:		the transaction
 * @base:	the file's base record
 * @base_nr:	its number
 * @type:	attribute type
 * @name:	its name (exact), NULL for none
 * @name_len:	units in @name
 *
 * Indexes and EAs are edited in the base record (index.c, xattr.c), but
 * Windows and the other drivers may have put a directory's $INDEX_ROOT or
 * $BITMAP, or a file's $EA, into an extension record when the base
 * record was full.  Before such an attribute is changed, it moves into
 * the base record (names make the room, as for a new attribute); its list
 * entry follows it, and the extension record is freed when it is left
 * empty.  A file without a list, or with the attribute at home, is not
 * touched.
 *
 * Return: 0, -EOPNOTSUPP (reported) for an attribute in several extents,
 * -ENOSPC when the base record cannot make the room, -EINVAL for an
 * attribute laid out otherwise than this driver writes them, -EIO,
 * -ENOMEM.  On an error the transaction must be aborted.
 */
int ntfs_file_bring_home(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
			 u32 type, const __le16 *name, u8 name_len)
{
	struct ntfs_attr *a, *home;
	struct ntfs_record *rec;
	struct ntfs_arec_ctx c;
	u16 instance;
	u64 rec_nr;
	int err;

	err = ntfs_rec_elsewhere(t->sbi, base, type, name, name_len);
	if (err <= 0)
		return err;
	err = ntfs_rec_check(t->sbi, base, base_nr);
	if (!err)
		err = ntfs_xrec_one_piece(t, base, base_nr, type, name, name_len);
	if (err)
		return err;
	a = ntfs_file_find(t, base, base_nr, type, name, name_len, &rec, &rec_nr);
	if (IS_ERR_OR_NULL(a))
		return a ? PTR_ERR(a) : -EIO;
	instance = le16_to_cpu(a->instance);
	/* Names moving out may land in @rec, before @a: find it again. */
	err = ntfs_file_make_room(t, base, base_nr, le32_to_cpu(a->length));
	if (err)
		return err;
	a = ntfs_xrec_by_instance(t, rec, instance);
	if (IS_ERR(a))
		return PTR_ERR(a);
	ntfs_rec_ctx(t->sbi, &c);
	home = ntfs_xrec_copy(&c, base, a);
	if (IS_ERR(home))
		return PTR_ERR(home);
	instance = le16_to_cpu(home->instance);
	/* The list entry is replaced by one of the same length. */
	err = ntfs_file_drop(t, base, rec, rec_nr, a);
	if (err)
		return err;
	home = ntfs_xrec_by_instance(t, base, instance);
	if (IS_ERR(home))
		return PTR_ERR(home);
	return ntfs_xlist_enter(t, base, ntfs_xrec_ref(base, base_nr), home);
}

/**
 * ntfs_file_make_room() - Free room in a base record for an attribute that must be there
 * @t:		the transaction
 * @base:	the file's base record, its attributes checked
 * @base_nr:	its number
 * @need:	bytes that must be free (the attribute and its list entry)
 *
 * Names move to extension records; a file without a list gets one, and
 * then the extents of its data streams and index allocations may move
 * too.  Nothing moves when the room is there.
 *
 * Return: 0, -ENOSPC (nothing left to move, or no free record), -EIO,
 * -ENOMEM; on an error the transaction must be aborted.
 */
int ntfs_file_make_room(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr, u32 need)
{
	struct ntfs_arec_ctx c;
	struct ntfs_record *x;
	u64 ref, x_nr;
	int listed;

	ntfs_rec_ctx(t->sbi, &c);
	if (ntfs_arec_free(&c, base) >= need)
		return 0;
	listed = ntfs_xrec_listed(t, base, &ref);
	if (listed < 0)
		return listed;
	if (listed)
		return ntfs_xrec_make_room(t, base, base_nr, need + NTFS_XREC_BASE_RESERVE);
	x = ntfs_xrec_new(t, base, base_nr, &x_nr);
	if (IS_ERR(x))
		return PTR_ERR(x);
	return ntfs_xrec_make_list(t, base, base_nr, x, x_nr, need + NTFS_XREC_BASE_RESERVE, true);
}

/**
 * ntfs_file_fits() - Whether a new resident attribute needs no new attribute list
 * @t:		the transaction
 * @base:	the base record
 * @body_len:	the value length of an attribute without a name
 *
 * Return: 1 when ntfs_file_add() would place it without giving the file an
 * attribute list (it has one, or @base has the room), 0 when it would,
 * or a negative errno (a damaged list).
 */
int ntfs_file_fits(struct ntfs_trans *t, struct ntfs_record *base, u32 body_len)
{
	struct ntfs_arec_ctx c;
	int listed;
	u64 ref;

	listed = ntfs_xrec_listed(t, base, &ref);
	if (listed)
		return min(listed, 1);
	ntfs_rec_ctx(t->sbi, &c);
	return ntfs_arec_free(&c, base) >=
	       ntfs_xrec_attr_len(NTFS_AREC_RESIDENT, 0, body_len) + NTFS_XREC_BASE_RESERVE;
}

/**
 * ntfs_file_add() - Add an attribute to a file where there is room
 * @t:		the transaction
 * @base:	the file's base record, its attributes checked
 * @base_nr:	its number
 * @type:	attribute type
 * @name:	UTF-16 name, NULL for none
 * @name_len:	units in @name
 * @nonres:	non-resident (plain header) rather than resident
 * @body_len:	resident: value length; non-resident: mapping pairs bytes
 * @where:	set to the record that holds the new attribute
 * @where_nr:	set to its number
 *
 * The base record if it has the room; else an extension record of the
 * file with room; else a new extension record (the file gets an attribute
 * list if it has none).  Names, and the extents of data streams and index
 * allocations when a new list needs their room, leave the base
 * record when the list needs their room there.  On an error the
 * transaction must be aborted (records may have changed).
 *
 * Return: the attribute, or an ERR_PTR(): -ENOSPC (no free record, or an
 * attribute too large for any record), -EOPNOTSUPP (a list that is not
 * resident), -EIO, -ENOMEM.
 */
struct ntfs_attr *ntfs_file_add(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
				u32 type, const __le16 *name, u8 name_len, bool nonres,
				u32 body_len, struct ntfs_record **where, u64 *where_nr)
{
	struct ntfs_new_attr na = {
		.type = type, .name = name, .name_len = name_len, .body_len = body_len,
		.hdr = nonres ? NTFS_AREC_NONRES : NTFS_AREC_RESIDENT, .streams = true,
	};
	struct ntfs_arec_ctx c;
	struct ntfs_xlist l;
	struct ntfs_attr *a;
	bool listed;
	int err;

	*where = base;
	*where_nr = base_nr;
	err = ntfs_xlist_get(t->sbi, base, &l);
	if (err)
		return ERR_PTR(err);
	listed = l.attr;
	ntfs_xlist_put(&l);
	/* With a list, the base record keeps room for the list to grow. */
	ntfs_rec_ctx(t->sbi, &c);
	if (!listed || ntfs_arec_free(&c, base) >= ntfs_xrec_attr_len(na.hdr, name_len, body_len) +
						    NTFS_XREC_BASE_RESERVE) {
		a = ntfs_rec_add_here(t, base, type, name, name_len, na.hdr, body_len);
		if (!IS_ERR(a) || PTR_ERR(a) != -ENOSPC)
			return a;
	}
	if (listed) {
		a = ntfs_xrec_add_existing(t, base, base_nr, &na, where, where_nr);
		if (!IS_ERR(a) || PTR_ERR(a) != -ENOSPC)
			return a;
	}
	return ntfs_xrec_add_new(t, base, base_nr, &na, listed, where, where_nr);
}

/**
 * ntfs_file_add_extent() - Add an extent of a non-resident attribute outside the base record
 * @t:		the transaction
 * @base:	the file's base record, its attributes checked
 * @base_nr:	its number
 * @na:		the extent: a non-resident header, its mapping pairs bytes and
 *		first VCN (entered in the list with it)
 * @near:	the record of the extent before it, tried first when it is
 *		an extension record
 * @where:	set to the record that holds the new extent
 * @where_nr:	set to its number
 *
 * Extents after the first are found through the attribute list only, so
 * they never go into a base record without one: the file gets a list
 * when it has none.  A new extension record is taken when @near lacks
 * the room (no walk over the file's other records: a stream of thousands
 * of extents adds them one after another).
 *
 * Return: the new attribute (its header zeroed but for the VCN), or an
 * ERR_PTR(): -ENOSPC (no free record), -EIO, -ENOMEM; the transaction
 * must then be aborted.
 */
struct ntfs_attr *ntfs_file_add_extent(struct ntfs_trans *t, struct ntfs_record *base,
				       u64 base_nr, const struct ntfs_new_attr *na, u64 near,
				       struct ntfs_record **where, u64 *where_nr)
{
	u32 need = ntfs_xrec_attr_len(na->hdr, na->name_len, na->body_len);
	struct ntfs_arec_ctx c;
	struct ntfs_record *r;
	struct ntfs_attr *a;
	u64 ref;
	int listed;

	listed = ntfs_xrec_listed(t, base, &ref);
	if (listed < 0)
		return ERR_PTR(listed);
	ntfs_rec_ctx(t->sbi, &c);
	if (listed && near != base_nr) {
		r = ntfs_file_xrec(t, base_nr, near);
		if (IS_ERR(r))
			return ERR_CAST(r);
		if (ntfs_arec_free(&c, r) >= need) {
			a = ntfs_xrec_add_to(t, base, r, near, na);
			if (!IS_ERR(a)) {
				*where = r;
				*where_nr = near;
			}
			if (!IS_ERR(a) || PTR_ERR(a) != -ENOSPC)
				return a;
		}
	}
	return ntfs_xrec_add_new(t, base, base_nr, na, listed, where, where_nr);
}

/* Whether list entry @e is of the attribute @type named @name (exactly). */
static bool ntfs_xent_is(const struct ntfs_attr_list_entry *e, u32 type, const __le16 *name,
			 u8 name_len)
{
	return le32_to_cpu(e->type) == type && e->name_length == name_len &&
	       (!name_len || !memcmp((const u8 *)e + e->name_offset, name, 2 * name_len));
}

/*
 * Collect the entries of the attribute from list @l into @xs (room for
 * every entry), checking that their first VCNs rise.
 */
static int ntfs_xent_collect(struct ntfs_sb *sbi, const struct ntfs_xlist *l, u32 type,
			     const __le16 *name, u8 name_len, struct ntfs_xent *xs,
			     unsigned int *n)
{
	u32 p = 0;

	*n = 0;
	while (p < l->size) {
		const struct ntfs_attr_list_entry *e = (const void *)(l->v + p);

		p += le16_to_cpu(e->length);
		if (!ntfs_xent_is(e, type, name, name_len))
			continue;
		xs[*n].vcn = le64_to_cpu(e->lowest_vcn);
		xs[*n].nr = NTFS_REF_RECORD(le64_to_cpu(e->record));
		xs[*n].instance = le16_to_cpu(e->instance);
		if (*n ? xs[*n].vcn <= xs[*n - 1].vcn : xs[*n].vcn != 0)
			return ntfs_err_ratelimited(sbi->sb, NTFS_REF_RECORD(l->ref),
						    "attribute 0x%x: its extents are not listed in order from VCN 0",
						    type);
		(*n)++;
	}
	return 0;
}

/**
 * ntfs_file_extents() - Where the extents of a file's attribute are, by its list
 * @t:		the transaction
 * @base:	the file's base record, its attributes checked
 * @type:	attribute type
 * @name:	its name (exact), NULL for none
 * @name_len:	units in @name
 * @out:	set to the extents in order of VCN (kvfree() them), NULL
 *		when the file has no list
 * @n:		set to their number (0: no list, or no such attribute)
 *
 * Return: 0, -EIO for a list that cannot be read or lists the extents
 * out of order, -ENOMEM.
 */
int ntfs_file_extents(struct ntfs_trans *t, struct ntfs_record *base, u32 type,
		      const __le16 *name, u8 name_len, struct ntfs_xent **out, unsigned int *n)
{
	struct ntfs_xlist l;
	struct ntfs_xent *xs;
	int err;

	*out = NULL;
	*n = 0;
	err = ntfs_xlist_get(t->sbi, base, &l);
	if (err || !l.attr)
		return err;
	xs = kvmalloc_array(l.size / NTFS_ALIST_HDR + 1, sizeof(*xs), GFP_NOFS);
	if (!xs)
		err = -ENOMEM;
	if (!err)
		err = ntfs_xent_collect(t->sbi, &l, type, name, name_len, xs, n);
	ntfs_xlist_put(&l);
	if (err) {
		kvfree(xs);
		*n = 0;
		return err;
	}
	*out = xs;
	return 0;
}

/**
 * ntfs_file_find() - A file's attribute (its first extent) wherever it lives
 * @t:		the transaction
 * @base:	the file's base record, its attributes checked
 * @base_nr:	its number
 * @type:	attribute type
 * @name:	its name (exact), NULL for none
 * @name_len:	units in @name
 * @where:	set to the record holding it
 * @where_nr:	set to its number
 *
 * With an attribute list, the list says which record holds the attribute
 * (for a non-resident one: the extent of VCN 0); without one, the base
 * record does.
 *
 * Return: the attribute, NULL when the file has none, or an ERR_PTR
 * (-EIO for a list entry naming an attribute that is not there).
 */
struct ntfs_attr *ntfs_file_find(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
				 u32 type, const __le16 *name, u8 name_len,
				 struct ntfs_record **where, u64 *where_nr)
{
	struct ntfs_xent *xs;
	struct ntfs_arec_ctx c;
	struct ntfs_attr *a;
	unsigned int n;
	int err;

	*where = base;
	*where_nr = base_nr;
	err = ntfs_file_extents(t, base, type, name, name_len, &xs, &n);
	if (err)
		return ERR_PTR(err);
	if (!xs)
		return ntfs_rec_find(base, type, name, name_len);
	if (!n) {
		kvfree(xs);
		/* The list must name every attribute of the file. */
		if (ntfs_rec_find(base, type, name, name_len))
			return ERR_PTR(ntfs_err_ratelimited(t->sbi->sb, base_nr,
							    "attribute 0x%x is missing from the attribute list",
							    type));
		return NULL;
	}
	*where_nr = xs[0].nr;
	if (xs[0].nr != base_nr)
		*where = ntfs_file_xrec(t, base_nr, xs[0].nr);
	a = ERR_CAST(*where);
	if (!IS_ERR(*where)) {
		ntfs_rec_ctx(t->sbi, &c);
		a = ntfs_arec_by_instance(&c, *where, xs[0].instance);
		if (!a || le32_to_cpu(a->type) != type || !ntfs_attr_name_is(a, name, name_len) ||
		    (a->non_resident && a->nr.lowest_vcn))
			a = ERR_PTR(ntfs_err_ratelimited(t->sbi->sb, base_nr,
							 "attribute list entry for attribute 0x%x names one that record %llu does not hold",
							 type, xs[0].nr));
	}
	kvfree(xs);
	return a;
}

/**
 * ntfs_file_list_reserve() - Room a base record keeps for its list when a stream splits
 * @t:		the transaction
 * @base:	the base record, its attributes checked
 *
 * A stream whose mapping pairs spill over into extension records needs
 * the file's attribute list in the base record, with an entry for each
 * of its attributes when the file has none yet.
 *
 * Return: bytes to leave free in the base record.
 */
u32 ntfs_file_list_reserve(struct ntfs_trans *t, struct ntfs_record *base)
{
	struct ntfs_attr *a = NULL;
	u32 need = 2 * ntfs_xrec_entry_len(0);
	u64 ref;

	if (ntfs_xrec_listed(t, base, &ref) != 0)
		return NTFS_XREC_BASE_RESERVE;
	while ((a = ntfs_next_attr(base, a, NULL)) && !IS_ERR(a))
		need += ntfs_xrec_entry_len(a->name_length);
	return ALIGN(NTFS_AREC_RESIDENT + need, 8) + NTFS_XREC_BASE_RESERVE;
}
