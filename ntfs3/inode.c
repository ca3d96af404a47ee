// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs inodes as objects: allocation and freeing, stream inodes
 * (unhashed inodes whose page cache reads one attribute), NTFS times, a new
 * file's attributes, write_inode, permission and getattr, which every kind
 * of inode shares.  ntfs_iget(), which reads a file's inode from its
 * records, and eviction, which deletes a file whose last name is gone (it
 * takes the file out of the $Reparse index, above this file), are in
 * namei.c.
 */

#include <linux/pagemap.h>
#include <linux/slab.h>

#include "ntfs3.h"

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

/**
 * ntfs_time_to_disk() - Convert a timespec to an NTFS time
 * @ts:	the time
 */
__le64 ntfs_time_to_disk(struct timespec64 ts)
{
	return cpu_to_le64((ts.tv_sec + NTFS_TIME_OFFSET) * 10000000LL + ts.tv_nsec / 100);
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
	ni->flags = 0;
	INIT_LIST_HEAD(&ni->dup_entry);
	ni->link_drive_rooted = false;
	ni->dir_record = false;
	ni->link = NULL;
	ni->owner = NULL;
	ni->index_root = NULL;
	ni->index_root_size = 0;
	ni->index_block_size = 0;
	ni->index_collation = 0;
	atomic64_set(&ni->lookup_hint, 0);
	mutex_init(&ni->ni_lock);
	ni->index_gen = 0;
	ni->da_reserved = 0;
	ni->da_writers = 0;
	memset(&ni->stream, 0, sizeof(ni->stream));
	init_rwsem(&ni->stream.run_lock);
	return &ni->vfs_inode;
}

void ntfs_free_inode(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);

	kfree(ni->link);
	kfree(ni->index_root);
	ntfs_stream_release(&ni->stream);
	kmem_cache_free(ntfs_inode_cachep, ni);
}

/**
 * ntfs_trans_std_info() - A file's $STANDARD_INFORMATION, to be changed
 * @t:		the transaction
 * @inode:	the file (its ni_lock held)
 *
 * Return: the value in the transaction's copy of the base record, or an
 * ERR_PTR() (-EIO when the record has none).
 */
struct ntfs_std_info *ntfs_trans_std_info(struct ntfs_trans *t, struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_record *r = ntfs_trans_record(t, ni->record);
	struct ntfs_std_info *si;
	struct ntfs_attr *a;

	if (IS_ERR(r))
		return ERR_CAST(r);
	a = ntfs_rec_find(r, NTFS_AT_STANDARD_INFO, NULL, 0);
	si = a ? ntfs_attr_value(a, NTFS_STD_INFO_V1_SIZE) : NULL;
	if (!si)
		return ERR_PTR(ntfs_err_ratelimited(inode->i_sb, ni->record,
						    "no $STANDARD_INFORMATION in the base record"));
	return si;
}

/* Copy the inode's times into its $STANDARD_INFORMATION. */
static int ntfs_store_times(struct ntfs_trans *t, struct inode *inode)
{
	struct ntfs_std_info *si = ntfs_trans_std_info(t, inode);

	if (IS_ERR(si))
		return PTR_ERR(si);
	si->data_time = ntfs_time_to_disk(inode_get_mtime(inode));
	si->mft_time = ntfs_time_to_disk(inode_get_ctime(inode));
	si->access_time = ntfs_time_to_disk(inode_get_atime(inode));
	return 0;
}

/**
 * ntfs_write_inode() - Store what the VFS keeps of a file: its times
 * @inode:	the file
 * @wbc:	writeback control (unused: records reach the disk with $MFT)
 *
 * Return: 0 or an error.
 */
int ntfs_write_inode(struct inode *inode, struct writeback_control *wbc)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_trans t;
	int err;

	if (ni->owner || is_bad_inode(inode) || sb_rdonly(inode->i_sb) ||
	    (ni->record < NTFS_FIRST_USER_INO && ni->record != NTFS_ROOT_INO))
		return 0;
	/* Sizes that delayed data left unrecorded (no folio was dirty). */
	err = ntfs_delay_settle(inode);
	if (!err)
		err = ntfs_trans_begin(NTFS_SB(inode->i_sb), &t);
	if (err)
		return err;
	mutex_lock(&ni->ni_lock);
	err = ntfs_store_times(&t, inode);
	if (!err)
		err = ntfs_trans_commit(&t);
	else
		ntfs_trans_fail(&t, err);
	mutex_unlock(&ni->ni_lock);
	return err;
}

/* Copy the file's times, sizes and attributes into its name @fn. */
static void ntfs_fill_dup(struct inode *inode, struct ntfs_file_name *fn)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_stream *ns = &ni->stream;

	fn->data_time = ntfs_time_to_disk(inode_get_mtime(inode));
	fn->mft_time = ntfs_time_to_disk(inode_get_ctime(inode));
	fn->access_time = ntfs_time_to_disk(inode_get_atime(inode));
	fn->data_size = cpu_to_le64(ns->resident ? ns->data_size : i_size_read(inode));
	fn->allocated_size = cpu_to_le64(ns->resident ? 0 : ns->alloc_size);
	fn->attributes = cpu_to_le32(ni->attributes & ~FILE_ATTRIBUTE_DIRECTORY);
}

/*
 * Update every name of @inode in directory @dir: the $FILE_NAME in its
 * record (base or extension) and its entry in @dir's index.  Both
 * ni_locks are held.
 */
static int ntfs_update_names_in(struct ntfs_trans *t, struct inode *dir, struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	u64 ref = ni->record | (u64)ni->seq << 48;
	struct ntfs_record *r = ntfs_trans_record(t, ni->record);
	struct ntfs_file_name *fn;
	struct ntfs_attr *a = NULL;
	struct ntfs_fwalk w;
	u32 len;
	int err = 0;

	if (IS_ERR(r))
		return PTR_ERR(r);
	ntfs_fwalk_start(&w, t, r, ni->record);
	while (!err && (a = ntfs_fwalk_next(&w)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) != NTFS_AT_FILE_NAME || a->non_resident)
			continue;
		len = le32_to_cpu(a->r.value_length);
		fn = ntfs_attr_value(a, sizeof(*fn));
		if (!fn || len < sizeof(*fn) + 2 * fn->name_length ||
		    NTFS_REF_RECORD(le64_to_cpu(fn->parent)) != NTFS_I(dir)->record)
			continue;
		ntfs_fill_dup(inode, fn);
		err = ntfs_index_update(t, dir, fn, ref);
		/* A name the index lacks was reported; the others still count. */
		if (err == -ENOENT)
			err = 0;
	}
	ntfs_fwalk_end(&w);
	return IS_ERR(a) ? PTR_ERR(a) : err;
}

/*
 * Update the names of @inode in @dir: its i_rwsem (or -EBUSY when @wait
 * is false and another task holds it), then both ni_locks.
 */
static int ntfs_update_dup_in(struct inode *dir, struct inode *inode, bool wait)
{
	struct ntfs_inode *ni = NTFS_I(inode), *dni = NTFS_I(dir);
	struct ntfs_inode *lo = ni->record < dni->record ? ni : dni;
	struct ntfs_inode *hi = lo == ni ? dni : ni;
	struct ntfs_trans t;
	int err;

	if (!wait && !inode_trylock(dir))
		return -EBUSY;
	if (wait)
		inode_lock(dir);
	err = ntfs_trans_begin(NTFS_SB(inode->i_sb), &t);
	if (err)
		goto out;
	mutex_lock(&lo->ni_lock);
	mutex_lock_nested(&hi->ni_lock, SINGLE_DEPTH_NESTING);
	/*
	 * A file whose last name went keeps that name in its record until
	 * eviction frees it, but no index has its entry any more.
	 */
	err = inode->i_nlink ? ntfs_update_names_in(&t, dir, inode) : 0;
	if (!err) {
		err = ntfs_trans_commit(&t);
	} else {
		ntfs_trans_fail(&t, err);
		ntfs_index_forget(dir);
	}
	mutex_unlock(&hi->ni_lock);
	mutex_unlock(&lo->ni_lock);
out:
	inode_unlock(dir);
	return err;
}

/* The directories of @inode's names (up to @max, without repeats). */
static int ntfs_name_parents(struct inode *inode, u64 *dirs, int max)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	const struct ntfs_file_name *fn;
	struct ntfs_attr *a = NULL;
	struct ntfs_fwalk w = {};
	struct ntfs_record *r;
	struct ntfs_trans t;
	int n = 0, i, err = ntfs_trans_begin(NTFS_SB(inode->i_sb), &t);
	u64 p;

	if (err)
		return err;
	mutex_lock(&ni->ni_lock);
	r = ntfs_trans_record(&t, ni->record);
	if (!IS_ERR(r))
		ntfs_fwalk_start(&w, &t, r, ni->record);
	while (!IS_ERR(r) && n < max && (a = ntfs_fwalk_next(&w)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) != NTFS_AT_FILE_NAME || a->non_resident)
			continue;
		fn = ntfs_attr_value(a, sizeof(*fn));
		if (!fn)
			continue;
		p = NTFS_REF_RECORD(le64_to_cpu(fn->parent));
		for (i = 0; i < n && dirs[i] != p; i++)
			;
		if (i == n)
			dirs[n++] = p;
	}
	ntfs_fwalk_end(&w);
	ntfs_trans_abort(&t);
	mutex_unlock(&ni->ni_lock);
	return IS_ERR(r) ? PTR_ERR(r) : n;
}

/* Queue @inode for ntfs_dup_work(), once, holding a reference. */
static void ntfs_dup_later(struct inode *inode)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_inode *ni = NTFS_I(inode);

	spin_lock(&sbi->dup_lock);
	if (list_empty(&ni->dup_entry)) {
		ihold(inode);
		list_add_tail(&ni->dup_entry, &sbi->dup_later);
	}
	spin_unlock(&sbi->dup_lock);
	queue_work(system_unbound_wq, &sbi->dup_work);
}

/* Directories whose names of one file are brought up to date at a time. */
#define NTFS_DUP_DIRS	8

/**
 * ntfs_update_dup() - Copy a file's sizes and times to its names
 * @inode:	a regular file that was written
 * @hint:	the directory it was opened through, or NULL
 * @wait:	false when the caller holds @inode's i_rwsem: a directory's
 *		i_rwsem comes before it, so for a busy one the file is
 *		queued for ntfs_dup_work()
 *
 * NTFS keeps a copy of the sizes, times and attributes of a file in each
 * of its $FILE_NAME attributes and in each name's directory entry, which
 * Windows lists a directory from.  Create, link and rename write them;
 * this brings them up to date after the data changed (called when a file
 * opened for writing is closed): the names in @hint and in every other
 * directory of the file that is in the inode cache (the first
 * NTFS_DUP_DIRS directories); a name in a directory nobody has looked at
 * since the mount keeps its copy until it is renamed.
 *
 * Return: 0, or the first error (the copies of that directory stay).
 */
int ntfs_update_dup(struct inode *inode, struct inode *hint, bool wait)
{
	u64 dirs[NTFS_DUP_DIRS];
	struct inode *dir;
	int n, i, err = 0, e;

	/* Names removed: nothing to copy to (see ntfs_update_dup_in()). */
	if (!inode->i_nlink)
		return 0;
	n = ntfs_name_parents(inode, dirs, NTFS_DUP_DIRS);
	for (i = 0; i < n; i++) {
		if (hint && dirs[i] == NTFS_I(hint)->record)
			dir = igrab(hint);
		else
			dir = ilookup(inode->i_sb, dirs[i]);
		if (!dir)
			continue;
		e = S_ISDIR(dir->i_mode) ? ntfs_update_dup_in(dir, inode, wait) : 0;
		iput(dir);
		if (e == -EBUSY) {
			ntfs_dup_later(inode);
			e = 0;
		}
		if (!err)
			err = e;
	}
	return n < 0 ? n : err;
}

/**
 * ntfs_dup_work() - Copy sizes and times to the names of files that had to wait
 * @work:	the volume's dup_work
 *
 * A truncate(2) holds the file's i_rwsem, which comes after its
 * directory's: when the directory was busy the file waits on the
 * volume's list, with a reference, and is brought up to date here, where
 * the directory's lock can be waited for.
 */
void ntfs_dup_work(struct work_struct *work)
{
	struct ntfs_sb *sbi = container_of(work, struct ntfs_sb, dup_work);
	struct ntfs_inode *ni;

	for (;;) {
		spin_lock(&sbi->dup_lock);
		ni = list_first_entry_or_null(&sbi->dup_later, struct ntfs_inode, dup_entry);
		if (ni)
			list_del_init(&ni->dup_entry);
		spin_unlock(&sbi->dup_lock);
		if (!ni)
			return;
		if (!sb_rdonly(sbi->sb))
			ntfs_update_dup(&ni->vfs_inode, NULL, true);
		iput(&ni->vfs_inode);
		cond_resched();
	}
}

/**
 * ntfs_dup_flush() - Wait until the files on the volume's list are up to date
 * @sbi:	the volume
 *
 * Called before the volume is written clean (sync, freeze, remount
 * read-only, unmount), without the transaction lock.
 */
void ntfs_dup_flush(struct ntfs_sb *sbi)
{
	flush_work(&sbi->dup_work);
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

/* The empty $I30 index of a new directory: a root with only the end entry. */
static int ntfs_add_empty_index(struct ntfs_trans *t, struct ntfs_record *r)
{
	struct ntfs_sb *sbi = t->sbi;
	static const __le16 i30[] = { cpu_to_le16('$'), cpu_to_le16('I'),
				      cpu_to_le16('3'), cpu_to_le16('0') };
	u32 len = sizeof(struct ntfs_index_root) + sizeof(struct ntfs_index_entry);
	struct ntfs_index_root *ir;
	struct ntfs_index_entry *end;
	struct ntfs_attr *a;

	a = ntfs_rec_insert(t, r, NTFS_AT_INDEX_ROOT, i30, ARRAY_SIZE(i30), false, len);
	if (IS_ERR(a))
		return PTR_ERR(a);
	a->r.value_length = cpu_to_le32(len);
	ir = ntfs_attr_value(a, len);
	memset(ir, 0, len);
	ir->type = cpu_to_le32(NTFS_AT_FILE_NAME);
	ir->collation = cpu_to_le32(NTFS_COLLATION_FILE_NAME);
	ir->block_size = cpu_to_le32(sbi->index_size);
	/* Clusters per block, or 512-byte units when a block is smaller. */
	ir->clusters_per_block = sbi->index_size >= sbi->cluster_size ?
				 sbi->index_size >> sbi->cluster_bits : sbi->index_size >> 9;
	ir->hdr.entries_offset = cpu_to_le32(sizeof(ir->hdr));
	ir->hdr.index_length = cpu_to_le32(sizeof(ir->hdr) + sizeof(*end));
	ir->hdr.allocated_size = ir->hdr.index_length;
	end = (void *)(ir + 1);
	end->length = cpu_to_le16(sizeof(*end));
	end->flags = cpu_to_le16(NTFS_IE_LAST);
	r->flags |= cpu_to_le16(NTFS_RECORD_IS_DIR);
	return 0;
}

/**
 * ntfs_fill_new_record() - The attributes of a new file, but its name
 * @t:		the transaction
 * @r:		a record formatted by ntfs_trans_new_record()
 * @dir:	a directory (empty $I30 index) rather than a file (empty,
 *		resident $DATA)
 * @security_id: the shared security descriptor it refers to
 * @now:	its four times
 *
 * Return: 0 or -ENOSPC (cannot happen in an empty record).
 */
int ntfs_fill_new_record(struct ntfs_trans *t, struct ntfs_record *r, bool dir,
			 u32 security_id, __le64 now)
{
	struct ntfs_std_info *si;
	struct ntfs_attr *a;

	a = ntfs_rec_insert(t, r, NTFS_AT_STANDARD_INFO, NULL, 0, false, sizeof(*si));
	if (IS_ERR(a))
		return PTR_ERR(a);
	a->r.value_length = cpu_to_le32(sizeof(*si));
	si = ntfs_attr_value(a, sizeof(*si));
	memset(si, 0, sizeof(*si));
	si->creation_time = now;
	si->data_time = now;
	si->mft_time = now;
	si->access_time = now;
	si->attributes = cpu_to_le32(dir ? 0 : FILE_ATTRIBUTE_ARCHIVE);
	si->security_id = cpu_to_le32(security_id);
	if (dir)
		return ntfs_add_empty_index(t, r);
	a = ntfs_rec_insert(t, r, NTFS_AT_DATA, NULL, 0, false, 0);
	return PTR_ERR_OR_ZERO(a);
}

static struct lock_class_key ntfs_stream_invalidate_key;

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
	/*
	 * Readahead of these streams (the $MFT bitmap, ...) takes their
	 * invalidate lock inside transactions; a file's own is held around
	 * transactions (hole punching): two classes, or lockdep sees a cycle
	 * between locks that are never the same.
	 */
	lockdep_set_class(&inode->i_mapping->invalidate_lock, &ntfs_stream_invalidate_key);
	return inode;
}

/**
 * ntfs_stream_iget() - A stream inode for one named attribute of a file
 * @sb:		the volume
 * @nr:		record number of the file
 * @type:	attribute type
 * @name:	UTF-16 attribute name
 * @name_len:	units in @name
 *
 * Return: the stream inode (put it with iput()), or an ERR_PTR.
 */
struct inode *ntfs_stream_iget(struct super_block *sb, u64 nr, u32 type,
			       const __le16 *name, u8 name_len)
{
	struct ntfs_sb *sbi = NTFS_SB(sb);
	struct ntfs_recset_pos pos = {};
	struct ntfs_stream ns = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a, *first = NULL;
	struct inode *inode;
	int err;

	init_rwsem(&ns.run_lock);
	ns.record = nr;
	ns.type = type;
	err = ntfs_recset_load(sbi, nr, &rs);
	while (!err && (a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) != type || !ntfs_attr_name_is(a, name, name_len))
			continue;
		if (!a->non_resident || !a->nr.lowest_vcn) {
			/* Two first extents (or two values): corrupt, not a leak. */
			if (first) {
				err = ntfs_err_ratelimited(sb, nr, "attribute 0x%x: %s", type,
							   "two first extents");
				break;
			}
			first = a;
			err = ntfs_stream_from_attr(sbi, &ns, a);
		}
		if (!err && a->non_resident)
			err = ntfs_stream_add_extent(sbi, &ns, a);
	}
	if (!err && !first)
		err = -ENOENT;
	if (!err)
		err = ntfs_stream_finish_runs(sbi, &ns);
	ntfs_recset_free(&rs);
	if (err) {
		ntfs_stream_release(&ns);
		return ERR_PTR(err);
	}
	inode = ntfs_new_stream_inode(sb, NULL, &ns);
	if (IS_ERR(inode))
		ntfs_stream_release(&ns);
	return inode;
}

/* The resident root of view index @v in record @rec (number @nr), checked. */
static const struct ntfs_index_root *ntfs_view_root(struct ntfs_sb *sbi, u64 nr, void *rec,
						    const struct ntfs_view *v, u32 *len)
{
	struct ntfs_record *r = rec;
	const struct ntfs_index_root *ir;
	struct ntfs_attr *a;
	u32 bs;

	a = ntfs_rec_find(rec, NTFS_AT_INDEX_ROOT, v->name, v->name_len);
	ir = a && !a->non_resident ? ntfs_attr_value(a, sizeof(*ir)) : NULL;
	if (!(le16_to_cpu(r->flags) & NTFS_RECORD_IN_USE) || !ir ||
	    le32_to_cpu(ir->collation) != v->collation) {
		ntfs_err_ratelimited(sbi->sb, nr, "no $INDEX_ROOT of collation 0x%x for a view index",
				     v->collation);
		return NULL;
	}
	bs = le32_to_cpu(ir->block_size);
	if (bs < 512 || bs > 65536 || !is_power_of_2(bs)) {
		ntfs_err_ratelimited(sbi->sb, nr, "view index block size %u", bs);
		return NULL;
	}
	*len = le32_to_cpu(a->r.value_length);
	return ir;
}

/**
 * ntfs_view_iget() - An inode through which a view index is changed
 * @sbi:	the volume
 * @nr:		number of the record that holds the index
 * @rec:	that record, read
 * @v:		the index: its name and collation
 *
 * The index core changes a view index ($R of $Reparse, $SII and $SDH of
 * $Secure) as it changes a directory's $I30: through an inode with the
 * base record, a copy of the root, the block size, and
 * $INDEX_ALLOCATION:@v->name as its stream (empty while the root holds
 * every entry).  Unhashed: ntfs_iget() of the record is another inode,
 * which never reads the view.
 *
 * Return: the inode (put it with iput()); ERR_PTR(-EIO) for a missing or
 * damaged root, ERR_PTR(-ENOMEM).
 */
struct inode *ntfs_view_iget(struct ntfs_sb *sbi, u64 nr, void *rec, const struct ntfs_view *v)
{
	const struct ntfs_index_root *ir;
	struct ntfs_stream ns = {};
	struct ntfs_inode *ni;
	struct inode *ix;
	u32 len;

	ir = ntfs_view_root(sbi, nr, rec, v, &len);
	if (!ir)
		return ERR_PTR(-EIO);
	ix = ntfs_stream_iget(sbi->sb, nr, NTFS_AT_INDEX_ALLOC, v->name, v->name_len);
	if (ix == ERR_PTR(-ENOENT)) {
		init_rwsem(&ns.run_lock);
		ns.record = nr;
		ix = ntfs_new_stream_inode(sbi->sb, NULL, &ns);
	}
	if (IS_ERR(ix))
		return ix;
	ni = NTFS_I(ix);
	ni->record = nr;
	ni->seq = le16_to_cpu(((struct ntfs_record *)rec)->sequence);
	ni->index_block_size = le32_to_cpu(ir->block_size);
	ni->index_collation = v->collation;
	ni->stream.name = (__le16 *)v->name;
	ni->stream.name_len = v->name_len;
	ni->stream.read_around = NTFS_META_READ_AROUND;
	ni->index_root = kmemdup(ir, len, GFP_NOFS);
	ni->index_root_size = len;
	if (!ni->index_root) {
		iput(ix);
		return ERR_PTR(-ENOMEM);
	}
	return ix;
}

/**
 * ntfs_extend_view_iget() - The view index of one of $Extend's files
 * @ext:	the $Extend directory
 * @name:	the file's name ($Reparse, $ObjId)
 * @len:	units in @name
 * @v:		its index
 *
 * Return: as ntfs_view_iget(); ERR_PTR(-ENOENT) when $Extend has no such
 * file (or is not a directory).
 */
struct inode *ntfs_extend_view_iget(struct inode *ext, const __le16 *name, u8 len,
				    const struct ntfs_view *v)
{
	struct ntfs_sb *sbi = NTFS_SB(ext->i_sb);
	struct inode *ix;
	void *rec;
	u64 ref;
	int err;

	err = S_ISDIR(ext->i_mode) ? ntfs_dir_lookup(ext, name, len, &ref) : -ENOENT;
	if (err)
		return ERR_PTR(err);
	rec = kmalloc(sbi->record_size, GFP_NOFS);
	if (!rec)
		return ERR_PTR(-ENOMEM);
	err = ntfs_read_record(sbi, NTFS_REF_RECORD(ref), rec);
	ix = err ? ERR_PTR(err) : ntfs_view_iget(sbi, NTFS_REF_RECORD(ref), rec, v);
	kfree(rec);
	return ix;
}

/**
 * ntfs_permission() - Access checks, or none under noacsrules
 * @idmap:	idmap of the mount
 * @inode:	the file
 * @mask:	MAY_* wanted
 *
 * noacsrules (the in-tree driver's no_acs_rules) lets every user do
 * everything the mount allows: read-only and immutable are checked by the
 * VFS before this.
 */
int ntfs_permission(struct mnt_idmap *idmap, struct inode *inode, int mask)
{
	if (NTFS_SB(inode->i_sb)->opt.noacsrules)
		return 0;
	return generic_permission(idmap, inode, mask);
}

/**
 * ntfs_getattr() - stat: the generic attributes plus creation time and flags
 * @idmap:	idmap of the mount
 * @path:	what is being stat'ed
 * @stat:	result
 * @mask:	what the caller wants
 * @flags:	AT_* flags
 */
int ntfs_getattr(struct mnt_idmap *idmap, const struct path *path,
		 struct kstat *stat, u32 mask, unsigned int flags)
{
	struct inode *inode = d_inode(path->dentry);
	struct ntfs_inode *ni = NTFS_I(inode);

	generic_fillattr(idmap, mask, inode, stat);
	stat->result_mask |= STATX_BTIME;
	stat->btime = ni->btime;
	/* Delayed data counts as it will once its clusters are taken. */
	stat->blocks += ntfs_delay_reserved(inode) << (NTFS_SB(inode->i_sb)->cluster_bits - 9);
	if (ni->stream.compressed)
		stat->attributes |= STATX_ATTR_COMPRESSED;
	if (ni->stream.encrypted)
		stat->attributes |= STATX_ATTR_ENCRYPTED;
	if (inode->i_flags & S_IMMUTABLE)
		stat->attributes |= STATX_ATTR_IMMUTABLE;
	stat->attributes_mask |= STATX_ATTR_COMPRESSED | STATX_ATTR_ENCRYPTED |
				 STATX_ATTR_IMMUTABLE;
	return 0;
}
