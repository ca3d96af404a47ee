// SPDX-License-Identifier: GPL-2.0
/*
 * From names and numbers to inodes: ntfs_iget() reads a file's inode from
 * its MFT records (mode, owner, times, links, its stream) and chooses its
 * operations; lookup finds a name in a directory; nocase dentries; NFS file
 * handles and parents.  ntfs_iget() and the directory inode operations
 * share this file because each needs the other: ntfs_iget() gives
 * directories ntfs_dir_iops, whose lookup calls ntfs_iget().
 */

#include <linux/exportfs.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/posix_acl.h>
#include <linux/slab.h>

#include "ntfs3.h"

/* ---- reading an inode --------------------------------------------------- */

static const __le16 ntfs_i30[] = { cpu_to_le16('$'), cpu_to_le16('I'),
				   cpu_to_le16('3'), cpu_to_le16('0') };

/* What ntfs_read_inode() learns from the attributes of a file. */
struct ntfs_inode_scan {
	const struct ntfs_std_info *si;
	u32 si_len;
	unsigned int names;
	const struct ntfs_attr *data0;
	const struct ntfs_attr *index_root;
	const struct ntfs_attr *index_alloc0;
	const struct ntfs_attr *reparse;
	bool has_ea;
};

static bool ntfs_is_i30(const struct ntfs_attr *a)
{
	return ntfs_attr_name_is(a, ntfs_i30, ARRAY_SIZE(ntfs_i30));
}

/* Report which rule of the format a file breaks; returns -EIO. */
static int ntfs_inode_bad(struct ntfs_inode *ni, const char *rule)
{
	return ntfs_err_ratelimited(ni->vfs_inode.i_sb, ni->record, "%s", rule);
}

static int ntfs_scan_attr(struct ntfs_inode *ni, struct ntfs_inode_scan *s,
			  const struct ntfs_attr *a)
{
	const struct ntfs_file_name *fn;
	bool first = !a->non_resident || !a->nr.lowest_vcn;

	switch (le32_to_cpu(a->type)) {
	case NTFS_AT_STANDARD_INFO:
		s->si = ntfs_attr_value(a, NTFS_STD_INFO_V1_SIZE);
		if (!s->si)
			return ntfs_inode_bad(ni, "$STANDARD_INFORMATION is non-resident or short");
		s->si_len = le32_to_cpu(a->r.value_length);
		break;
	case NTFS_AT_FILE_NAME:
		fn = ntfs_attr_value(a, sizeof(*fn));
		if (!fn)
			return ntfs_inode_bad(ni, "$FILE_NAME is non-resident or short");
		if (fn->name_space != NTFS_NS_DOS)
			s->names++;
		break;
	case NTFS_AT_DATA:
		if (!a->name_length && first)
			s->data0 = a;
		break;
	case NTFS_AT_INDEX_ROOT:
		if (ntfs_is_i30(a))
			s->index_root = a;
		break;
	case NTFS_AT_INDEX_ALLOC:
		if (ntfs_is_i30(a) && first)
			s->index_alloc0 = a;
		break;
	case NTFS_AT_REPARSE:
		s->reparse = a;
		break;
	case NTFS_AT_EA:
		s->has_ea = true;
		break;
	}
	return 0;
}

/* Decode the runs of every extent of the stream (@type, unnamed or $I30). */
static int ntfs_load_runs(struct ntfs_sb *sbi, const struct ntfs_recset *rs,
			  struct ntfs_stream *ns, u32 type, bool i30)
{
	struct ntfs_recset_pos pos = {};
	struct ntfs_attr *a;
	int err;

	while ((a = ntfs_recset_next(rs, &pos)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) != type || !a->non_resident)
			continue;
		if (i30 ? !ntfs_is_i30(a) : a->name_length != 0)
			continue;
		err = ntfs_stream_add_extent(sbi, ns, a);
		if (err)
			return err;
	}
	if (IS_ERR(a))
		return PTR_ERR(a);
	return ntfs_stream_finish_runs(sbi, ns);
}

static int ntfs_load_stream(struct ntfs_sb *sbi, const struct ntfs_recset *rs,
			    struct ntfs_stream *ns, const struct ntfs_attr *first, bool i30)
{
	int err;

	ns->record = rs->base;
	ns->type = le32_to_cpu(first->type);
	/* Changes (and their undo) find the attribute by type and name. */
	if (i30) {
		ns->name = (__le16 *)ntfs_i30;
		ns->name_len = ARRAY_SIZE(ntfs_i30);
	}
	err = ntfs_stream_from_attr(sbi, ns, first);
	if (!err && !ns->resident)
		err = ntfs_load_runs(sbi, rs, ns, ns->type, i30);
	return err;
}

static int ntfs_load_index(struct ntfs_sb *sbi, struct ntfs_inode *ni,
			   const struct ntfs_recset *rs, const struct ntfs_inode_scan *s)
{
	const struct ntfs_index_root *ir;
	u32 len = le32_to_cpu(s->index_root->r.value_length);
	u32 bs;
	int err;

	ir = ntfs_attr_value(s->index_root, sizeof(*ir));
	if (!ir || le32_to_cpu(ir->type) != NTFS_AT_FILE_NAME)
		return ntfs_inode_bad(ni, "$INDEX_ROOT:$I30 is short or does not index $FILE_NAME");
	bs = le32_to_cpu(ir->block_size);
	if (bs < 512 || bs > 65536 || !is_power_of_2(bs))
		return ntfs_inode_bad(ni, "index block size is not a power of two in 512..65536");
	ni->index_block_size = bs;
	ni->index_collation = le32_to_cpu(ir->collation);
	ni->index_root = kmemdup(ir, len, GFP_NOFS);
	if (!ni->index_root)
		return -ENOMEM;
	ni->index_root_size = len;
	if (!s->index_alloc0)
		return 0;
	if (!s->index_alloc0->non_resident)
		return ntfs_inode_bad(ni, "$INDEX_ALLOCATION is resident");
	err = ntfs_load_stream(sbi, rs, &ni->stream, s->index_alloc0, true);
	return err ? err : ntfs_stream_check_meta(sbi, &ni->stream);
}

static int ntfs_empty_stream(struct ntfs_stream *ns)
{
	ns->type = NTFS_AT_DATA;
	ns->resident = true;
	ns->resident_data = kzalloc(1, GFP_NOFS);
	return ns->resident_data ? 0 : -ENOMEM;
}

static umode_t ntfs_mode(struct ntfs_sb *sbi, struct ntfs_inode *ni, bool dir)
{
	umode_t mode;

	if (dir)
		return S_IFDIR | (0777 & ~sbi->opt.dmask);
	mode = S_IFREG | (0777 & ~sbi->opt.fmask);
	if (ni->attributes & FILE_ATTRIBUTE_READONLY)
		mode &= ~0222;
	return mode;
}

static void ntfs_set_times(struct inode *inode, const struct ntfs_std_info *si)
{
	inode_set_mtime_to_ts(inode, ntfs_time(si->data_time));
	inode_set_ctime_to_ts(inode, ntfs_time(si->mft_time));
	inode_set_atime_to_ts(inode, ntfs_time(si->access_time));
	NTFS_I(inode)->btime = ntfs_time(si->creation_time);
}

static struct lock_class_key ntfs_dir_invalidate_key;

/*
 * Large folios for the page cache of plain user files, resident ones too
 * (most files start resident and move out as they grow, and the flag must
 * be set before the first folio is cached): fewer folios to allocate, map,
 * dirty and write back per byte.  Every path that fills or empties a
 * file's page cache goes by folio_pos()/folio_size() and blocks (see
 * "Large folios" in docs/design/ntfs3.md).  Compressed streams keep
 * single pages: a unit's pages are filled from one decompression, one
 * page at a time.  Metafiles, directories and the streams the driver
 * reads for itself keep them too: their readers go a page at a time and
 * gain nothing.
 */
static void ntfs_set_folio_orders(struct inode *inode)
{
	const struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if (S_ISREG(inode->i_mode) && !ntfs_is_metafile(inode) && !ns->compressed &&
	    !ns->encrypted)
		mapping_set_large_folios(inode->i_mapping);
}

static int ntfs_setup_inode(struct inode *inode, const struct ntfs_recset *rs,
			    const struct ntfs_inode_scan *s)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_inode *ni = NTFS_I(inode);
	const struct ntfs_record *r = rs->rec[0];
	bool dir = le16_to_cpu(r->flags) & NTFS_RECORD_IS_DIR;
	int err;

	if (!s->si)
		return ntfs_inode_bad(ni, "no $STANDARD_INFORMATION");
	ni->attributes = le32_to_cpu(s->si->attributes);
	if (s->si_len >= sizeof(*s->si))
		ni->security_id = le32_to_cpu(s->si->security_id);
	ntfs_set_times(inode, s->si);
	inode->i_uid = sbi->opt.uid;
	inode->i_gid = sbi->opt.gid;
	inode->i_generation = ni->seq;

	if (s->reparse) {
		err = ntfs_load_reparse(inode, rs, s->reparse);
		if (err)
			return err;
	}
	ni->dir_record = dir;
	if (ni->link) {
		/* Drive-rooted targets are built per lookup by ntfs_get_link(). */
		if (!ni->link_drive_rooted)
			inode->i_link = ni->link;
		inode->i_mode = S_IFLNK | 0777;
		inode->i_op = &ntfs_symlink_iops;
		inode->i_size = strlen(ni->link);
		set_nlink(inode, max(1U, s->names));
		return 0;
	}

	if (dir && s->index_root) {
		err = ntfs_load_index(sbi, ni, rs, s);
		if (err)
			return err;
		/*
		 * Index blocks are read ahead under the directory's ni_lock;
		 * a file's invalidate lock is held around its own ni_lock
		 * (hole punching): two classes, never the same lock.
		 */
		lockdep_set_class(&inode->i_mapping->invalidate_lock, &ntfs_dir_invalidate_key);
		inode->i_mode = ntfs_mode(sbi, ni, true);
		inode->i_op = &ntfs_dir_iops;
		inode->i_fop = &ntfs_dir_fops;
		inode->i_size = ni->stream.data_size;
		ni->stream.read_around = NTFS_META_READ_AROUND;
		set_nlink(inode, 1);
	} else {
		/* Some metafiles ($Secure, $Quota) have named streams only: empty. */
		if (s->data0)
			err = ntfs_load_stream(sbi, rs, &ni->stream, s->data0, false);
		else
			err = ntfs_empty_stream(&ni->stream);
		if (err)
			return err;
		/*
		 * A file marked sparse whose data is still in its record (made
		 * with the sparse option) gets a sparse stream when it moves out.
		 */
		if (ni->stream.resident && (ni->attributes & FILE_ATTRIBUTE_SPARSE_FILE))
			ni->stream.sparse = true;
		inode->i_mode = ntfs_mode(sbi, ni, false);
		inode->i_op = &ntfs_file_iops;
		inode->i_fop = &ntfs_file_fops;
		inode->i_size = ni->stream.data_size;
		set_nlink(inode, max(1U, s->names));
	}
	inode->i_mapping->a_ops = &ntfs_aops;
	inode->i_blocks = (ni->stream.resident ? 0 : ni->stream.alloc_size) >> 9;
	if (S_ISREG(inode->i_mode) && (ni->attributes & FILE_ATTRIBUTE_SYSTEM)) {
		ni->link = ntfs_interix_link(inode);
		inode->i_link = ni->link;
		if (ni->link) {
			inode->i_mode = S_IFLNK | 0777;
			inode->i_op = &ntfs_symlink_iops;
			inode->i_fop = NULL;
			inode->i_size = strlen(ni->link);
		}
	}
	if (s->has_ea)
		ntfs_apply_wsl_ea(inode, rs);
	else
		cache_no_acl(inode);
	/* After the WSL EAs: they may make it a symlink or a device. */
	ntfs_set_folio_orders(inode);
	if (sbi->opt.sys_immutable && (ni->attributes & FILE_ATTRIBUTE_SYSTEM) &&
	    ni->record >= NTFS_FIRST_USER_INO)
		inode->i_flags |= S_IMMUTABLE;
	return 0;
}

static int ntfs_read_inode(struct inode *inode)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_inode_scan s = {};
	struct ntfs_recset_pos pos = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a;
	u64 gen;
	int err;

	ni->record = inode->i_ino;
	gen = ntfs_rcache_gen(sbi);
	err = ntfs_recset_load(sbi, ni->record, &rs);
	if (err)
		goto out;
	ni->seq = le16_to_cpu(((struct ntfs_record *)rs.rec[0])->sequence);

	while ((a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
		err = ntfs_scan_attr(ni, &s, a);
		if (err)
			goto out;
	}
	err = PTR_ERR_OR_ZERO(a);
	if (!err)
		err = ntfs_setup_inode(inode, &rs, &s);
	/* A file looked up is often changed next (unlink, rm -r): keep its record. */
	if (!err) {
		ntfs_rcache_keep(sbi, ni->record, rs.rec[0], gen, false);
		rs.rec[0] = NULL;
	}
out:
	ntfs_recset_free(&rs);
	if (err == -EIO)
		ntfs_err_ratelimited(inode->i_sb, inode->i_ino, "damaged MFT record or attribute");
	return err;
}

/**
 * ntfs_iget() - The inode of a file by its base MFT record number
 * @sb:		the super block
 * @nr:		record number
 *
 * Return: the inode, or ERR_PTR(-EIO) for a damaged record, -ENOENT for a
 * record that is not a file in use, -ENOMEM.
 */
struct inode *ntfs_iget(struct super_block *sb, u64 nr)
{
	struct inode *inode = iget_locked(sb, nr);
	int err;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;
	err = ntfs_read_inode(inode);
	if (err) {
		iget_failed(inode);
		return ERR_PTR(err);
	}
	unlock_new_inode(inode);
	return inode;
}

/* ---- lookup: the directory inode operations ----------------------------- */

static struct dentry *ntfs_lookup(struct inode *dir, struct dentry *dentry, unsigned int flags)
{
	struct ntfs_sb *sbi = NTFS_SB(dir->i_sb);
	struct inode *inode = NULL;
	__le16 *uname;
	u64 ref;
	int len, err;

	uname = kmalloc_array(NTFS_MAX_NAME + 1, sizeof(*uname), GFP_KERNEL);
	if (!uname)
		return ERR_PTR(-ENOMEM);
	len = ntfs_name_to_utf16(sbi, dentry->d_name.name, dentry->d_name.len, uname);
	err = len < 0 ? len : ntfs_dir_lookup(dir, uname, len, &ref);
	kfree(uname);
	if (err == -ENOENT || err == -EINVAL)
		return d_splice_alias(NULL, dentry);
	if (err)
		return ERR_PTR(err);

	inode = ntfs_iget(dir->i_sb, NTFS_REF_RECORD(ref));
	if (!IS_ERR(inode) && NTFS_I(inode)->seq != NTFS_REF_SEQ(ref)) {
		iput(inode);
		inode = ERR_PTR(ntfs_err_ratelimited(dir->i_sb, dir->i_ino,
						     "an entry names record %llu with another sequence number",
						     NTFS_REF_RECORD(ref)));
	}
	return d_splice_alias(inode, dentry);
}

/* ---- changing the namespace -------------------------------------------- */

static u64 ntfs_ref_of(const struct ntfs_inode *ni)
{
	return ni->record | (u64)ni->seq << 48;
}

/* A $FILE_NAME naming @q in @dir, for a new entry; kfree() it. */
static struct ntfs_file_name *ntfs_new_fn(struct inode *dir, const struct qstr *q, u32 attrs,
					  __le64 now, u32 *size)
{
	struct ntfs_sb *sbi = NTFS_SB(dir->i_sb);
	struct ntfs_file_name *fn;
	int n;

	fn = kzalloc(sizeof(*fn) + 2 * (NTFS_MAX_NAME + 1), GFP_NOFS);
	if (!fn)
		return ERR_PTR(-ENOMEM);
	n = ntfs_name_to_utf16(sbi, q->name, q->len, fn->name);
	if (n > 0 && sbi->opt.windows_names && !ntfs_name_windows_ok(fn->name, n))
		n = -EINVAL;
	if (n <= 0) {
		kfree(fn);
		return ERR_PTR(n ? n : -EINVAL);
	}
	fn->parent = cpu_to_le64(ntfs_ref_of(NTFS_I(dir)));
	fn->creation_time = now;
	fn->data_time = now;
	fn->mft_time = now;
	fn->access_time = now;
	fn->attributes = cpu_to_le32(attrs);
	fn->name_length = n;
	/*
	 * POSIX namespace: any name Linux can make is valid in it, case
	 * twins included, and Windows lists and opens such names.
	 */
	fn->name_space = NTFS_NS_POSIX;
	*size = sizeof(*fn) + 2 * n;
	return fn;
}

/*
 * Add @fn to the file of base record @r (number @nr) as a $FILE_NAME
 * attribute (indexed): in the base record, or where the file has room.
 */
static int ntfs_add_name_attr(struct ntfs_trans *t, struct ntfs_record *r, u64 nr,
			      const struct ntfs_file_name *fn, u32 size)
{
	struct ntfs_record *where;
	struct ntfs_attr *a;
	u64 where_nr;

	a = ntfs_file_add(t, r, nr, NTFS_AT_FILE_NAME, NULL, 0, false, size,
			  &where, &where_nr);
	if (IS_ERR(a))
		return PTR_ERR(a);
	a->r.value_length = cpu_to_le32(size);
	a->r.indexed = 1;
	memcpy(ntfs_attr_value(a, size), fn, size);
	return 0;
}

/* Set the change times of a file's $STANDARD_INFORMATION (and data time). */
static int ntfs_touch_record(struct ntfs_trans *t, struct inode *inode, __le64 now, bool data)
{
	struct ntfs_std_info *si = ntfs_trans_std_info(t, inode);

	if (IS_ERR(si))
		return PTR_ERR(si);
	si->mft_time = now;
	if (data)
		si->data_time = now;
	return 0;
}

/*
 * Abort an operation that may have changed the indexes of @dir and
 * @dir2: their in-memory views (root copy, cached blocks, stream) go back
 * to what the records say.
 */
static void ntfs_fail_dirs(struct ntfs_trans *t, int err, struct inode *dir, struct inode *dir2)
{
	ntfs_trans_fail(t, err);
	ntfs_index_forget(dir);
	ntfs_stream_reload(dir);
	if (dir2 && dir2 != dir) {
		ntfs_index_forget(dir2);
		ntfs_stream_reload(dir2);
	}
}

/* Commit a change of directories, or undo their in-memory views; returns err. */
static int ntfs_end_dirs(struct ntfs_trans *t, int err, struct inode *dir, struct inode *dir2)
{
	if (!err)
		return ntfs_trans_commit(t);
	ntfs_fail_dirs(t, err, dir, dir2);
	return err;
}

/* A directory's times after an entry was added or removed. */
static void ntfs_dir_changed(struct inode *dir, struct timespec64 ts)
{
	inode_set_mtime_to_ts(dir, ts);
	inode_set_ctime_to_ts(dir, ts);
}

/*
 * As ntfs_dir_changed(), for a change that left the directory's record
 * alone: the times reach it with the inode (ntfs_write_inode()), so that
 * a change of one index block does not read and write the record too.
 */
static void ntfs_dir_changed_later(struct inode *dir, struct timespec64 ts)
{
	ntfs_dir_changed(dir, ts);
	mark_inode_dirty(dir);
}

/* Lock the ni_locks of two files in ascending record order. */
static void ntfs_lock_two(struct ntfs_inode *a, struct ntfs_inode *b)
{
	if (a->record > b->record)
		swap(a, b);
	mutex_lock(&a->ni_lock);
	mutex_lock_nested(&b->ni_lock, SINGLE_DEPTH_NESTING);
}

static void ntfs_unlock_two(struct ntfs_inode *a, struct ntfs_inode *b)
{
	mutex_unlock(&a->ni_lock);
	mutex_unlock(&b->ni_lock);
}

/*
 * What a new file is: a file, a directory, or a file with a reparse point
 * (a symlink, or with @special a FIFO, socket or device node).
 */
struct ntfs_new_kind {
	bool dir;
	const struct ntfs_reparse *rp;	/* its reparse point */
	u32 rp_len;
	umode_t special;		/* mknod: type and permissions */
	dev_t rdev;
	umode_t mode;			/* create, mkdir: what the VFS asks */
	struct ntfs_new_eas eas;	/* acl mounts: mode and EAs it gets */
	u32 security_id;		/* its directory's, or the default */
};

/*
 * The attributes a new file's names carry.  WSL marks its FIFOs, sockets
 * and device nodes recall-on-open as well; ntfs-3g knows them by that too.
 */
static u32 ntfs_new_attrs(struct ntfs_sb *sbi, const struct ntfs_new_kind *kind)
{
	u32 attrs = kind->dir ? FILE_ATTRIBUTE_DUP_DIRECTORY : FILE_ATTRIBUTE_ARCHIVE;

	/* The sparse option: new regular files are sparse. */
	if (sbi->opt.sparse && !kind->dir && !kind->rp && !kind->special)
		attrs |= FILE_ATTRIBUTE_SPARSE_FILE;
	/* acl mounts: a file made without write bits is read-only, as by chmod. */
	if (S_ISREG(kind->eas.mode) && !(kind->eas.mode & 0222))
		attrs |= FILE_ATTRIBUTE_READONLY;

	if (kind->rp)
		attrs |= FILE_ATTRIBUTE_REPARSE_POINT;
	if (kind->special)
		attrs |= FILE_ATTRIBUTE_RECALL_ON_OPEN;
	return attrs;
}

/* Give a new file its reparse point; it is a reparse point in every copy. */
static int ntfs_add_reparse(struct ntfs_trans *t, struct ntfs_record *r,
			    const struct ntfs_new_kind *kind, u64 ref)
{
	struct ntfs_std_info *si;
	struct ntfs_attr *a;

	a = ntfs_rec_insert(t, r, NTFS_AT_REPARSE, NULL, 0, false, kind->rp_len);
	if (IS_ERR(a))
		return PTR_ERR(a);
	a->r.value_length = cpu_to_le32(kind->rp_len);
	memcpy(ntfs_attr_value(a, kind->rp_len), kind->rp, kind->rp_len);
	a = ntfs_rec_find(r, NTFS_AT_STANDARD_INFO, NULL, 0);
	si = a ? ntfs_attr_value(a, NTFS_STD_INFO_V1_SIZE) : NULL;
	if (!si)
		return -EIO;
	si->attributes |= cpu_to_le32(ntfs_new_attrs(t->sbi, kind) & ~FILE_ATTRIBUTE_ARCHIVE);
	return ntfs_reparse_index_add(t, le32_to_cpu(kind->rp->tag), ref);
}

/* The new file's $STANDARD_INFORMATION gets @attrs (sparse, read-only). */
static int ntfs_new_si_attrs(struct ntfs_record *r, u32 attrs)
{
	struct ntfs_attr *a = ntfs_rec_find(r, NTFS_AT_STANDARD_INFO, NULL, 0);
	struct ntfs_std_info *si = a ? ntfs_attr_value(a, NTFS_STD_INFO_V1_SIZE) : NULL;

	if (!si)
		return -EIO;
	si->attributes |= cpu_to_le32(attrs);
	return 0;
}

/* The new file's record, its name in @dir's index; returns its number. */
static int ntfs_make_file(struct ntfs_trans *t, struct inode *dir,
			  const struct ntfs_file_name *fn, u32 fn_size,
			  const struct ntfs_new_kind *kind, __le64 now, u64 *nr)
{
	u32 si_attrs = ntfs_new_attrs(t->sbi, kind) &
		       (FILE_ATTRIBUTE_SPARSE_FILE | FILE_ATTRIBUTE_READONLY);
	struct ntfs_record *r;
	u64 ref;
	int err = ntfs_alloc_record(t, nr);

	/* $MFT filled up since ntfs_mft_ensure_free(): the caller tries again. */
	if (err == -ENOSPC)
		return -EAGAIN;
	if (err)
		return err;
	r = ntfs_trans_new_record(t, *nr);
	if (IS_ERR(r))
		return PTR_ERR(r);
	ref = *nr | (u64)le16_to_cpu(r->sequence) << 48;
	err = ntfs_fill_new_record(t, r, kind->dir, kind->security_id, now);
	if (!err && si_attrs)
		err = ntfs_new_si_attrs(r, si_attrs);
	if (!err)
		err = ntfs_add_name_attr(t, r, *nr, fn, fn_size);
	if (!err && kind->rp)
		err = ntfs_add_reparse(t, r, kind, ref);
	if (!err)
		err = ntfs_ea_create(t, r, *nr, &kind->eas);
	if (err)
		return err;
	r->link_count = cpu_to_le16(1);
	return ntfs_index_insert(t, dir, fn, ref);
}

/*
 * acl mounts: the new file's mode and the ACLs it inherits from @dir
 * (ntfs_acl_create()); a FIFO, socket or device node keeps its mode in
 * its WSL EAs.  Symlinks have neither.  Other mounts give new files the
 * mode the mount options say.
 */
static int ntfs_new_kind_acl(struct inode *dir, struct ntfs_new_kind *kind)
{
	umode_t mode = kind->special ? kind->special : kind->mode;
	int err;

	if (!IS_POSIXACL(dir) || !mode)
		return 0;
	err = ntfs_acl_create(dir, mode, !kind->special, &kind->eas);
	if (!err && kind->special)
		kind->special = kind->eas.mode;
	return err;
}

/* The inode of new file @nr for @dentry; WSL's special files get their EAs. */
static int ntfs_new_inode(struct inode *dir, struct dentry *dentry, u64 nr,
			  const struct ntfs_new_kind *kind)
{
	struct inode *inode = ntfs_iget(dir->i_sb, nr);
	int err;

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	/* Special before the dentry takes the inode's type. */
	if (kind->special) {
		err = ntfs_wsl_make_special(inode, kind->special, kind->rdev);
		if (err) {
			iput(inode);
			return err;
		}
	}
	d_instantiate(dentry, inode);
	return 0;
}

/*
 * Metafiles keep their names, and $Extend holds only what Windows puts
 * there: neither changes through the namespace (-EPERM).
 */
static bool ntfs_names_frozen(struct inode *dir, struct inode *inode)
{
	return NTFS_I(dir)->record == NTFS_EXTEND_INO || (inode && ntfs_is_metafile(inode));
}

/* create, mkdir, symlink, mknod: a new file named @dentry in @dir. */
static int ntfs_new_entry(struct inode *dir, struct dentry *dentry, struct ntfs_new_kind *kind)
{
	struct ntfs_sb *sbi = NTFS_SB(dir->i_sb);
	struct ntfs_inode *dni = NTFS_I(dir);
	struct timespec64 ts = current_time(dir);
	__le64 now = ntfs_time_to_disk(ts);
	struct ntfs_file_name *fn = NULL;
	struct ntfs_trans t;
	u32 fn_size, attrs;
	int err, tries;
	u64 nr;

	err = ntfs_names_frozen(dir, NULL) ? -EPERM : ntfs_new_kind_acl(dir, kind);
	if (err)
		goto out;
	attrs = ntfs_new_attrs(sbi, kind);
	fn = ntfs_new_fn(dir, &dentry->d_name, attrs, now, &fn_size);
	if (IS_ERR(fn)) {
		err = PTR_ERR(fn);
		fn = NULL;
		goto out;
	}
	if (kind->rp)
		fn->ea_or_reparse = kind->rp->tag;
	/*
	 * A new file shares its directory's descriptor, else the default one
	 * (secure.c); without either (NTFS 1.2, $Secure damaged) it has none.
	 */
	kind->security_id = dni->security_id;
	if (!kind->security_id)
		ntfs_security_default(sbi, &kind->security_id);
	/* A full $MFT grows first; a racing creator may take the record: again. */
	for (tries = 0; tries < 3; tries++) {
		err = ntfs_mft_ensure_free(sbi);
		if (!err)
			err = ntfs_trans_begin(sbi, &t);
		if (err)
			goto out;
		mutex_lock(&dni->ni_lock);
		err = ntfs_make_file(&t, dir, fn, fn_size, kind, now, &nr);
		if (err != -EAGAIN)
			break;
		ntfs_trans_abort(&t);
		mutex_unlock(&dni->ni_lock);
	}
	if (err == -EAGAIN)
		err = -ENOSPC;
	err = ntfs_end_dirs(&t, err, dir, NULL);
	if (!err)
		ntfs_dir_changed_later(dir, ts);
	mutex_unlock(&dni->ni_lock);
	if (!err)
		err = ntfs_new_inode(dir, dentry, nr, kind);
out:
	kfree(kind->eas.buf);
	kfree(fn);
	return err;
}

static int ntfs_create(struct mnt_idmap *idmap, struct inode *dir, struct dentry *dentry,
		       umode_t mode, bool excl)
{
	struct ntfs_new_kind file = { .mode = S_IFREG | mode };

	return ntfs_new_entry(dir, dentry, &file);
}

static int ntfs_mkdir(struct mnt_idmap *idmap, struct inode *dir, struct dentry *dentry,
		      umode_t mode)
{
	struct ntfs_new_kind dir_kind = { .dir = true, .mode = S_IFDIR | mode };

	return ntfs_new_entry(dir, dentry, &dir_kind);
}

static int ntfs_symlink(struct mnt_idmap *idmap, struct inode *dir, struct dentry *dentry,
			const char *target)
{
	struct ntfs_new_kind link = {};
	struct ntfs_reparse *rp;
	int err;

	rp = ntfs_symlink_reparse(NTFS_SB(dir->i_sb), target, &link.rp_len);
	if (IS_ERR(rp))
		return PTR_ERR(rp);
	link.rp = rp;
	err = ntfs_new_entry(dir, dentry, &link);
	kfree(rp);
	return err;
}

/*
 * mknod: FIFOs, sockets and device nodes as WSL stores them, a reparse
 * point with no data whose tag names the type, plus WSL's EAs.
 */
static int ntfs_mknod(struct mnt_idmap *idmap, struct inode *dir, struct dentry *dentry,
		      umode_t mode, dev_t rdev)
{
	struct ntfs_reparse rp = {};
	struct ntfs_new_kind kind = { .rp = &rp, .rp_len = sizeof(rp), .special = mode,
				      .rdev = rdev };

	switch (mode & S_IFMT) {
	case S_IFREG:
		return ntfs_create(idmap, dir, dentry, mode, true);
	case S_IFIFO:
		rp.tag = cpu_to_le32(IO_REPARSE_TAG_LX_FIFO);
		break;
	case S_IFSOCK:
		rp.tag = cpu_to_le32(IO_REPARSE_TAG_AF_UNIX);
		break;
	case S_IFCHR:
		rp.tag = cpu_to_le32(IO_REPARSE_TAG_LX_CHR);
		break;
	case S_IFBLK:
		rp.tag = cpu_to_le32(IO_REPARSE_TAG_LX_BLK);
		break;
	default:
		return -EINVAL;
	}
	return ntfs_new_entry(dir, dentry, &kind);
}

/* Whether $FILE_NAME @fn is the name @u (@n units) in directory @dir. */
static bool ntfs_fn_is(struct ntfs_sb *sbi, const struct ntfs_file_name *fn, u64 dir,
		       const __le16 *u, int n)
{
	int i;

	if (NTFS_REF_RECORD(le64_to_cpu(fn->parent)) != dir || fn->name_length != n)
		return false;
	if (!memcmp(fn->name, u, 2 * n))
		return true;
	if (!sbi->opt.nocase)
		return false;
	for (i = 0; i < n; i++)
		if (ntfs_upcase(sbi, le16_to_cpu(fn->name[i])) !=
		    ntfs_upcase(sbi, le16_to_cpu(u[i])))
			return false;
	return true;
}

/*
 * The $FILE_NAME attribute to remove for the name @u in @dir, in any
 * record of the file @w walks (w->rec and w->nr then hold it): the name
 * itself, or after it, the DOS name paired with a Win32 name that was
 * removed (@dos set).  NULL when there is none, an ERR_PTR() when the
 * records cannot be walked.
 */
static struct ntfs_attr *ntfs_find_name_attr(struct ntfs_sb *sbi, struct ntfs_fwalk *w,
					     u64 dir, const __le16 *u, int n, bool dos)
{
	struct ntfs_attr *a;

	while ((a = ntfs_fwalk_next(w)) && !IS_ERR(a)) {
		const struct ntfs_file_name *fn;

		if (le32_to_cpu(a->type) != NTFS_AT_FILE_NAME)
			continue;
		fn = ntfs_attr_value(a, sizeof(*fn));
		if (!fn || le32_to_cpu(a->r.value_length) < sizeof(*fn) + 2 * fn->name_length)
			continue;
		if (dos && fn->name_space == NTFS_NS_DOS &&
		    NTFS_REF_RECORD(le64_to_cpu(fn->parent)) == dir)
			return a;
		if (!dos && fn->name_space != NTFS_NS_DOS && ntfs_fn_is(sbi, fn, dir, u, n))
			return a;
	}
	return a;
}

/*
 * Remove one $FILE_NAME attribute (found by @w in w->rec of the file of
 * base record @r) and its index entry; returns its namespace.  With
 * @index_only the record keeps it (see ntfs_remove_name()).
 */
static int ntfs_drop_name(struct ntfs_trans *t, struct inode *dir, struct inode *inode,
			  struct ntfs_record *r, struct ntfs_fwalk *w, struct ntfs_attr *a,
			  bool index_only)
{
	const struct ntfs_file_name *fn = ntfs_attr_value(a, sizeof(*fn));
	u8 ns = fn->name_space;
	int err = ntfs_index_delete(t, dir, fn, ntfs_ref_of(NTFS_I(inode)));

	if (!err && !index_only)
		err = ntfs_file_drop(t, r, w->rec, w->nr, a);
	return err ? err : ns;
}

/*
 * The names in all records of the file of base record @r (number @nr)
 * that count as links (a DOS name pairs with a Win32 one), or a negative
 * errno.
 */
static int ntfs_links_of(struct ntfs_trans *t, struct ntfs_record *r, u64 nr)
{
	struct ntfs_fwalk w;
	struct ntfs_attr *a;
	int links = 0;

	ntfs_fwalk_start(&w, t, r, nr);
	while ((a = ntfs_fwalk_next(&w)) && !IS_ERR(a)) {
		const struct ntfs_file_name *fn;

		if (le32_to_cpu(a->type) != NTFS_AT_FILE_NAME)
			continue;
		fn = ntfs_attr_value(a, sizeof(*fn));
		if (fn && fn->name_space != NTFS_NS_DOS)
			links++;
	}
	ntfs_fwalk_end(&w);
	return IS_ERR(a) ? PTR_ERR(a) : links;
}

/* Set the link count of the file of base record @r (number @nr); see ntfs_links_of(). */
static int ntfs_count_links(struct ntfs_trans *t, struct ntfs_record *r, u64 nr)
{
	int links = ntfs_links_of(t, r, nr);

	if (links >= 0)
		r->link_count = cpu_to_le16(links);
	return links;
}

/*
 * Remove the name @q of @inode from @dir: its $FILE_NAME (and the DOS
 * name paired with it) from the record and from the index.  *@links gets
 * the names left.
 *
 * @last: the caller expects this to be the file's last name.  When it is,
 * only the index entries go: the record, name and link count included,
 * stays as it is until eviction frees it (ntfs_delete_file()), so an
 * unlink followed by the eviction writes the file's record once instead
 * of twice.  Between the two the file is open or about to be evicted, and
 * is found through no directory; a crash there leaves a record in use
 * that no index names, as it did before with a record without names
 * (chkdsk frees or recovers it; the volume is marked dirty anyway).
 */
static int ntfs_remove_name(struct ntfs_trans *t, struct inode *dir, struct inode *inode,
			    const struct qstr *q, unsigned int *links, bool last)
{
	struct ntfs_sb *sbi = t->sbi;
	u64 dnr = NTFS_I(dir)->record, nr = NTFS_I(inode)->record;
	struct ntfs_record *r;
	struct ntfs_fwalk w;
	struct ntfs_attr *a;
	__le16 *u;
	int n, ns;

	/* A name goes from it, whatever else happens. */
	r = last ? ntfs_trans_record_peek(t, nr) : ntfs_trans_record_changed(t, nr);
	if (IS_ERR(r))
		return PTR_ERR(r);
	if (last) {
		/* Only if no other name stays: else the record changes as usual. */
		n = ntfs_links_of(t, r, nr);
		if (n < 0)
			return n;
		last = n == 1;
		if (!last)
			r = ntfs_trans_record_changed(t, nr);
		if (IS_ERR(r))
			return PTR_ERR(r);
	}
	u = kmalloc_array(NTFS_MAX_NAME + 1, sizeof(*u), GFP_NOFS);
	if (!u)
		return -ENOMEM;
	n = ntfs_name_to_utf16(sbi, q->name, q->len, u);
	ntfs_fwalk_start(&w, t, r, nr);
	a = n > 0 ? ntfs_find_name_attr(sbi, &w, dnr, u, n, false) : NULL;
	kfree(u);
	/* w.rec and w.nr still name the record that holds @a. */
	ntfs_fwalk_end(&w);
	if (IS_ERR(a))
		return PTR_ERR(a);
	if (!a)
		return ntfs_err_ratelimited(dir->i_sb, nr,
					    "the name being removed is not in the file's records");
	ns = ntfs_drop_name(t, dir, inode, r, &w, a, last);
	if (ns == NTFS_NS_WIN32) {
		ntfs_fwalk_start(&w, t, r, nr);
		a = ntfs_find_name_attr(sbi, &w, dnr, NULL, 0, true);
		ntfs_fwalk_end(&w);
		if (IS_ERR(a))
			return PTR_ERR(a);
		if (a)
			ns = ntfs_drop_name(t, dir, inode, r, &w, a, last);
	}
	if (ns < 0)
		return ns;
	n = last ? 0 : ntfs_count_links(t, r, nr);
	if (n < 0)
		return n;
	*links = n;
	return 0;
}

/*
 * Whether the name @dentry being removed is the file's last and the file
 * will be evicted right after (see ntfs_remove_name()): a directory
 * with one name (a removed directory takes no new entries, open or not),
 * or a file with one name that nothing else holds through this dentry
 * (the unlink's own reference only).  A file still open when its last
 * name goes would keep that name in its record for as long as it stays
 * open; such a file has its record changed at once instead.  A race with
 * an open only makes the wait longer: eviction frees the record either way.
 */
static bool ntfs_evicted_next(struct dentry *dentry, bool is_dir)
{
	return is_dir || (d_inode(dentry)->i_nlink == 1 && d_count(dentry) == 1);
}

/* unlink and rmdir: the name goes; the file goes with its last user. */
static int ntfs_remove_entry(struct inode *dir, struct dentry *dentry, bool is_dir)
{
	struct ntfs_sb *sbi = NTFS_SB(dir->i_sb);
	struct inode *inode = d_inode(dentry);
	struct timespec64 ts = current_time(dir);
	__le64 now = ntfs_time_to_disk(ts);
	unsigned int links = 0;
	struct ntfs_trans t;
	int err;

	if (ntfs_names_frozen(dir, inode))
		return -EPERM;
	if (is_dir) {
		err = ntfs_index_is_empty(inode);
		if (err <= 0)
			return err ? err : -ENOTEMPTY;
	}
	err = ntfs_trans_begin(sbi, &t);
	if (err)
		return err;
	ntfs_lock_two(NTFS_I(dir), NTFS_I(inode));
	err = ntfs_remove_name(&t, dir, inode, &dentry->d_name, &links,
			       ntfs_evicted_next(dentry, is_dir));
	if (!err && links)
		err = ntfs_touch_record(&t, inode, now, false);
	err = ntfs_end_dirs(&t, err, dir, NULL);
	if (!err) {
		ntfs_dir_changed_later(dir, ts);
		inode_set_ctime_to_ts(inode, ts);
		if (is_dir)
			clear_nlink(inode);
		else
			set_nlink(inode, links);
	}
	ntfs_unlock_two(NTFS_I(dir), NTFS_I(inode));
	return err;
}

/* Windows keeps at most this many names per file. */
#define NTFS_LINK_MAX	1024

/*
 * A name that does not fit the base record of a file without a list gives
 * it one, and the list needs room in the base record too, where a name or
 * extent may have left already: a file with resident data moves the data
 * to clusters first (*@moved set: on abort its stream is reloaded), then,
 * if that was not enough, its resident EAs.
 */
static int ntfs_name_room(struct ntfs_trans *t, struct inode *inode, struct ntfs_record *r,
			  u32 size, bool *moved)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	int fits = ntfs_file_fits(t, r, size), err;

	if (fits)
		return min(fits, 0);
	if (S_ISREG(inode->i_mode) && ns->resident && ns->data_size &&
	    ns->type == NTFS_AT_DATA) {
		*moved = true;
		err = ntfs_stream_make_nonresident(t, inode);
		if (err)
			return err;
		fits = ntfs_file_fits(t, r, size);
		if (fits)
			return min(fits, 0);
	}
	return ntfs_ea_move_out(t, inode);
}

/*
 * Give @inode the name @q in @dir: a $FILE_NAME in its base record and
 * the entry in @dir's index; the link count follows.  *@moved: see
 * ntfs_name_room().
 */
static int ntfs_add_name(struct ntfs_trans *t, struct inode *dir, struct inode *inode,
			 const struct qstr *q, __le64 now, bool *moved)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	u32 attrs = ni->attributes & ~FILE_ATTRIBUTE_DIRECTORY;
	struct ntfs_file_name *fn;
	struct ntfs_record *r;
	u32 size;
	int err;

	if (S_ISDIR(inode->i_mode))
		attrs |= FILE_ATTRIBUTE_DUP_DIRECTORY;
	fn = ntfs_new_fn(dir, q, attrs, now, &size);
	if (IS_ERR(fn))
		return PTR_ERR(fn);
	fn->data_size = cpu_to_le64(ni->stream.resident ? ni->stream.data_size :
				    i_size_read(inode));
	fn->allocated_size = cpu_to_le64(ni->stream.resident ? 0 : ni->stream.alloc_size);
	r = ntfs_trans_record(t, ni->record);
	err = PTR_ERR_OR_ZERO(r);
	if (!err)
		err = ntfs_name_room(t, inode, r, size, moved);
	if (!err)
		err = ntfs_add_name_attr(t, r, ni->record, fn, size);
	if (!err)
		err = ntfs_index_insert(t, dir, fn, ntfs_ref_of(ni));
	if (!err) {
		err = ntfs_count_links(t, r, ni->record);
		err = min(err, 0);
	}
	kfree(fn);
	return err;
}

/* Lock the ni_locks of up to four files in ascending record order, once each. */
struct ntfs_lockset {
	struct ntfs_inode *ni[4];
	unsigned int nr;
};

static void ntfs_lockset_lock(struct ntfs_lockset *ls, struct inode **inodes, unsigned int n)
{
	unsigned int i, j;

	ls->nr = 0;
	for (i = 0; i < n; i++) {
		struct ntfs_inode *ni = inodes[i] ? NTFS_I(inodes[i]) : NULL;

		for (j = 0; ni && j < ls->nr; j++)
			if (ls->ni[j] == ni)
				ni = NULL;
		if (ni)
			ls->ni[ls->nr++] = ni;
	}
	for (i = 1; i < ls->nr; i++)
		for (j = i; j > 0 && ls->ni[j - 1]->record > ls->ni[j]->record; j--)
			swap(ls->ni[j - 1], ls->ni[j]);
	for (i = 0; i < ls->nr; i++)
		mutex_lock_nested(&ls->ni[i]->ni_lock, i);
}

static void ntfs_lockset_unlock(struct ntfs_lockset *ls)
{
	while (ls->nr)
		mutex_unlock(&ls->ni[--ls->nr]->ni_lock);
}

static int ntfs_link(struct dentry *old, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = d_inode(old);
	struct timespec64 ts = current_time(dir);
	__le64 now = ntfs_time_to_disk(ts);
	bool moved = false;
	struct ntfs_trans t;
	int err;

	if (ntfs_names_frozen(dir, inode))
		return -EPERM;
	if (inode->i_nlink >= NTFS_LINK_MAX)
		return -EMLINK;
	/* A name that does not fit may need a new extension record. */
	err = ntfs_mft_ensure_free(NTFS_SB(dir->i_sb));
	if (!err)
		err = ntfs_trans_begin(NTFS_SB(dir->i_sb), &t);
	if (err)
		return err;
	ntfs_lock_two(NTFS_I(dir), NTFS_I(inode));
	err = ntfs_add_name(&t, dir, inode, &dentry->d_name, now, &moved);
	if (!err)
		err = ntfs_touch_record(&t, dir, now, true);
	if (!err)
		err = ntfs_touch_record(&t, inode, now, false);
	err = ntfs_end_dirs(&t, err, dir, NULL);
	if (err && moved)
		ntfs_stream_reload(inode);
	if (!err) {
		inc_nlink(inode);
		ntfs_dir_changed(dir, ts);
		inode_set_ctime_to_ts(inode, ts);
		ihold(inode);
		d_instantiate(dentry, inode);
	}
	ntfs_unlock_two(NTFS_I(dir), NTFS_I(inode));
	return err;
}

/*
 * 1 when a $FILE_NAME for @q needs no new attribute list in @inode (see
 * ntfs_file_fits(); its length in bytes bounds its UTF-16 units), 0 when
 * it does, or an errno.
 */
static int ntfs_name_fits(struct ntfs_trans *t, struct inode *inode, const struct qstr *q)
{
	struct ntfs_record *r = ntfs_trans_record(t, NTFS_I(inode)->record);

	if (IS_ERR(r))
		return PTR_ERR(r);
	return ntfs_file_fits(t, r, sizeof(struct ntfs_file_name) + 2 * q->len);
}

/* The names of a rename: each file loses one name and gains another. */
static int ntfs_rename_names(struct ntfs_trans *t, struct inode *old_dir, struct dentry *old,
			     struct inode *new_dir, struct dentry *new, unsigned int flags,
			     __le64 now, bool *moved)
{
	struct inode *inode = d_inode(old), *target = d_inode(new);
	unsigned int links;
	int err = 0, fits;

	if (target)
		err = ntfs_remove_name(t, new_dir, target, &new->d_name, &links, false);
	fits = err ? err : ntfs_name_fits(t, inode, &new->d_name);
	if (fits < 0)
		return fits;
	/*
	 * A new name that does not fit the base record comes before the old
	 * one goes: the old name can move to an extension record to make room
	 * for an attribute list, a base record without names has nothing that
	 * can move.
	 */
	if (!fits)
		err = ntfs_add_name(t, new_dir, inode, &new->d_name, now, moved);
	if (!err)
		err = ntfs_remove_name(t, old_dir, inode, &old->d_name, &links, false);
	if (!err && fits)
		err = ntfs_add_name(t, new_dir, inode, &new->d_name, now, moved);
	if (!err && (flags & RENAME_EXCHANGE))
		err = ntfs_add_name(t, old_dir, target, &old->d_name, now, moved);
	if (!err)
		err = ntfs_touch_record(t, inode, now, false);
	if (!err && target)
		err = ntfs_touch_record(t, target, now, false);
	if (!err)
		err = ntfs_touch_record(t, old_dir, now, true);
	if (!err && new_dir != old_dir)
		err = ntfs_touch_record(t, new_dir, now, true);
	return err;
}

/* In-memory link counts and times after a rename was committed. */
static void ntfs_renamed(struct inode *old_dir, struct inode *new_dir, struct inode *inode,
			 struct inode *target, unsigned int flags, struct timespec64 ts)
{
	ntfs_dir_changed(old_dir, ts);
	ntfs_dir_changed(new_dir, ts);
	inode_set_ctime_to_ts(inode, ts);
	if (!target)
		return;
	inode_set_ctime_to_ts(target, ts);
	if (flags & RENAME_EXCHANGE)
		return;
	if (S_ISDIR(target->i_mode))
		clear_nlink(target);
	else
		drop_nlink(target);
}

static int ntfs_rename(struct mnt_idmap *idmap, struct inode *old_dir, struct dentry *old,
		       struct inode *new_dir, struct dentry *new, unsigned int flags)
{
	struct inode *inode = d_inode(old), *target = d_inode(new);
	struct inode *all[4] = { old_dir, new_dir, inode, target };
	struct timespec64 ts = current_time(old_dir);
	__le64 now = ntfs_time_to_disk(ts);
	struct ntfs_lockset ls;
	bool moved = false;
	struct ntfs_trans t;
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE))
		return -EINVAL;
	if (ntfs_names_frozen(old_dir, inode) || ntfs_names_frozen(new_dir, target))
		return -EPERM;
	if (target && !(flags & RENAME_EXCHANGE) && S_ISDIR(target->i_mode)) {
		err = ntfs_index_is_empty(target);
		if (err <= 0)
			return err ? err : -ENOTEMPTY;
	}
	/* A name that does not fit may need a new extension record. */
	err = ntfs_mft_ensure_free(NTFS_SB(old_dir->i_sb));
	if (!err)
		err = ntfs_trans_begin(NTFS_SB(old_dir->i_sb), &t);
	if (err)
		return err;
	ntfs_lockset_lock(&ls, all, ARRAY_SIZE(all));
	err = ntfs_rename_names(&t, old_dir, old, new_dir, new, flags, now, &moved);
	err = ntfs_end_dirs(&t, err, old_dir, new_dir);
	if (err && moved) {
		ntfs_stream_reload(inode);
		if (target)
			ntfs_stream_reload(target);
	}
	if (!err)
		ntfs_renamed(old_dir, new_dir, inode, target, flags, ts);
	ntfs_lockset_unlock(&ls);
	return err;
}

/* Mark record @r (number @nr) of a deleted file free, its sequence number advanced. */
static int ntfs_free_file_record(struct ntfs_trans *t, struct ntfs_record *r, u64 nr)
{
	u16 seq = le16_to_cpu(r->sequence) + 1;

	r->sequence = cpu_to_le16(seq ? seq : 1);
	r->flags &= ~cpu_to_le16(NTFS_RECORD_IN_USE);
	ntfs_trans_record_head(t, nr);
	return ntfs_free_record(t, nr);
}

/* Mark each record of a deleted file free. */
static int ntfs_free_records(struct ntfs_trans *t, const struct ntfs_recset *rs)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < rs->nr; i++) {
		struct ntfs_record *r = ntfs_trans_record_changed(t, rs->recnr[i]);

		if (IS_ERR(r))
			return PTR_ERR(r);
		err = ntfs_free_file_record(t, r, rs->recnr[i]);
	}
	return err;
}

/* The GUID of a resident $OBJECT_ID @a into @oid; false when too short. */
static bool ntfs_object_id_of(struct ntfs_attr *a, u8 *oid)
{
	const u8 *v = ntfs_attr_value(a, NTFS_OBJECT_ID_LEN);

	if (v)
		memcpy(oid, v, NTFS_OBJECT_ID_LEN);
	return v;
}

/*
 * What a deleted file leaves besides its records: the clusters of
 * non-resident attribute @a are freed (at commit), and *@has_oid is set
 * when @a is the object id, copied to @oid.
 */
static int ntfs_delete_attr(struct ntfs_trans *t, u64 nr, struct ntfs_attr *a, u8 *oid,
			    bool *has_oid)
{
	if (a->non_resident)
		return ntfs_free_attr_clusters(t, nr, a);
	if (le32_to_cpu(a->type) == NTFS_AT_OBJECT_ID)
		*has_oid = ntfs_object_id_of(a, oid);
	return 0;
}

/*
 * Free the clusters and records of a file with extension records: all
 * its records are read as a set first (ntfs_recset_load() checks that
 * each one the list names belongs to the file), then freed.
 */
static int ntfs_delete_records(struct ntfs_trans *t, u64 nr, u8 *oid, bool *has_oid)
{
	struct ntfs_recset_pos pos = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a;
	int err = ntfs_recset_load(t->sbi, nr, &rs);

	while (!err && (a = ntfs_recset_next(&rs, &pos)))
		err = IS_ERR(a) ? PTR_ERR(a) : ntfs_delete_attr(t, nr, a, oid, has_oid);
	if (!err)
		err = ntfs_free_records(t, &rs);
	ntfs_recset_free(&rs);
	return err;
}

/*
 * A file whose last name is gone: when its last user lets go, its
 * clusters and records are freed in one transaction.  Most files have
 * one record: it is read once, into the transaction, and walked there.
 */
static void ntfs_delete_file(struct inode *inode)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_inode *ni = NTFS_I(inode);
	u8 oid[NTFS_OBJECT_ID_LEN];
	struct ntfs_attr *a = NULL;
	struct ntfs_record *r;
	const char *why = NULL;
	struct ntfs_trans t;
	bool has_oid = false;
	int err = ntfs_trans_begin(sbi, &t);

	if (err)
		goto out;
	r = ntfs_trans_record_changed(&t, ni->record);
	err = PTR_ERR_OR_ZERO(r);
	if (!err && (!(le16_to_cpu(r->flags) & NTFS_RECORD_IN_USE) || r->base_record))
		err = -ENOENT;
	if (!err && ntfs_rec_find(r, NTFS_AT_ATTR_LIST, NULL, 0)) {
		err = ntfs_delete_records(&t, ni->record, oid, &has_oid);
	} else if (!err) {
		while ((a = ntfs_next_attr(r, a, &why)) && !IS_ERR(a) && !err)
			err = ntfs_delete_attr(&t, ni->record, a, oid, &has_oid);
		if (IS_ERR(a))
			err = ntfs_err_ratelimited(inode->i_sb, ni->record, "%s", why);
		if (!err)
			err = ntfs_free_file_record(&t, r, ni->record);
	}
	/* A reparse point and an object id leave their indexes with the file. */
	if (!err && ni->reparse_tag)
		err = ntfs_reparse_index_del(&t, ni->reparse_tag,
					     ni->record | (u64)ni->seq << 48);
	if (!err && has_oid)
		err = ntfs_objid_index_del(&t, oid);
	if (!err)
		err = ntfs_trans_commit(&t);
	else
		ntfs_trans_fail(&t, err);
out:
	if (err)
		ntfs_err_ratelimited(inode->i_sb, ni->record,
				     "a deleted file's space could not be freed (%d): run chkdsk",
				     err);
}

void ntfs_evict_inode(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);

	truncate_inode_pages_final(&inode->i_data);
	ntfs_delay_drop(inode);
	if (!inode->i_nlink && !ni->owner && ni->record >= NTFS_FIRST_USER_INO &&
	    !is_bad_inode(inode) && !sb_rdonly(inode->i_sb))
		ntfs_delete_file(inode);
	clear_inode(inode);
	if (ni->owner) {
		iput(ni->owner);
		ni->owner = NULL;
	}
}

static int ntfs_unlink(struct inode *dir, struct dentry *dentry)
{
	return ntfs_remove_entry(dir, dentry, false);
}

static int ntfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	return ntfs_remove_entry(dir, dentry, true);
}

const struct inode_operations ntfs_dir_iops = {
	.lookup		= ntfs_lookup,
	.create		= ntfs_create,
	.mkdir		= ntfs_mkdir,
	.symlink	= ntfs_symlink,
	.mknod		= ntfs_mknod,
	.link		= ntfs_link,
	.unlink		= ntfs_unlink,
	.rmdir		= ntfs_rmdir,
	.rename		= ntfs_rename,
	.permission	= ntfs_permission,
	.setattr	= ntfs_setattr,
	.getattr	= ntfs_getattr,
	.listxattr	= ntfs_listxattr,
	.get_inode_acl	= ntfs_get_inode_acl,
	.set_acl	= ntfs_set_acl,
};

/* ---- nocase: one dentry per name regardless of case ------------------ */

/* @name upcased into @out (NTFS_MAX_NAME + 1 units); returns units or < 0. */
static int ntfs_upcased(struct ntfs_sb *sbi, const char *name, int len, __le16 *out)
{
	int n = ntfs_name_to_utf16(sbi, name, len, out), i;

	for (i = 0; i < n; i++)
		out[i] = cpu_to_le16(ntfs_upcase(sbi, le16_to_cpu(out[i])));
	return n;
}

static int ntfs_d_hash(const struct dentry *dentry, struct qstr *q)
{
	struct ntfs_sb *sbi = NTFS_SB(dentry->d_sb);
	__le16 *u = kmalloc_array(NTFS_MAX_NAME + 1, sizeof(*u), GFP_ATOMIC);
	unsigned long hash;
	int n, i;

	if (!u)
		return -ENOMEM;
	n = ntfs_upcased(sbi, q->name, q->len, u);
	if (n >= 0) {
		hash = init_name_hash(dentry);
		for (i = 0; i < n; i++)
			hash = partial_name_hash(le16_to_cpu(u[i]), hash);
		q->hash = end_name_hash(hash);
	}
	kfree(u);
	return 0;	/* unconvertible names keep the default hash */
}

static int ntfs_d_compare(const struct dentry *dentry, unsigned int len,
			  const char *str, const struct qstr *name)
{
	struct ntfs_sb *sbi = NTFS_SB(dentry->d_sb);
	__le16 *a = kmalloc_array(2 * (NTFS_MAX_NAME + 1), sizeof(*a), GFP_ATOMIC);
	int na, nb, differ = 1;

	if (!a)
		return len != name->len || memcmp(str, name->name, len);
	na = ntfs_upcased(sbi, str, len, a);
	nb = ntfs_upcased(sbi, name->name, name->len, a + NTFS_MAX_NAME + 1);
	if (na < 0 || nb < 0)
		differ = len != name->len || memcmp(str, name->name, len);
	else
		differ = na != nb || memcmp(a, a + NTFS_MAX_NAME + 1, 2 * na);
	kfree(a);
	return differ;
}

const struct dentry_operations ntfs_nocase_dops = {
	.d_hash		= ntfs_d_hash,
	.d_compare	= ntfs_d_compare,
};

/* ---- NFS export --------------------------------------------------------- */

static struct inode *ntfs_nfs_get_inode(struct super_block *sb, u64 ino, u32 gen)
{
	struct inode *inode;

	if (ino < NTFS_ROOT_INO || ino >= NTFS_SB(sb)->mft_records)
		return ERR_PTR(-ESTALE);
	inode = ntfs_iget(sb, ino);
	if (IS_ERR(inode))
		return ERR_PTR(-ESTALE);
	if (gen && inode->i_generation != gen) {
		iput(inode);
		return ERR_PTR(-ESTALE);
	}
	return inode;
}

static struct dentry *ntfs_fh_to_dentry(struct super_block *sb, struct fid *fid,
					int len, int type)
{
	return generic_fh_to_dentry(sb, fid, len, type, ntfs_nfs_get_inode);
}

static struct dentry *ntfs_fh_to_parent(struct super_block *sb, struct fid *fid,
					int len, int type)
{
	return generic_fh_to_parent(sb, fid, len, type, ntfs_nfs_get_inode);
}

/**
 * ntfs_parent_of() - The directory a file is named in (its first name)
 * @inode:	the file
 * @parent:	set to the parent's record number
 *
 * Return: 0, -EIO, -ENOENT, -ENOMEM.
 */
static int ntfs_parent_of(struct inode *inode, u64 *parent)
{
	struct ntfs_recset_pos pos = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a;
	int err = ntfs_recset_load(NTFS_SB(inode->i_sb), inode->i_ino, &rs);

	if (!err) {
		err = -ENOENT;
		while ((a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
			const struct ntfs_file_name *fn;

			if (le32_to_cpu(a->type) != NTFS_AT_FILE_NAME)
				continue;
			fn = ntfs_attr_value(a, sizeof(*fn));
			if (fn) {
				*parent = NTFS_REF_RECORD(le64_to_cpu(fn->parent));
				err = 0;
				break;
			}
		}
	}
	ntfs_recset_free(&rs);
	return err;
}

static struct dentry *ntfs_get_parent(struct dentry *child)
{
	struct inode *inode = d_inode(child);
	u64 parent;
	int err = ntfs_parent_of(inode, &parent);

	if (err)
		return ERR_PTR(err);
	return d_obtain_alias(ntfs_iget(inode->i_sb, parent));
}

const struct export_operations ntfs_export_ops = {
	.encode_fh	= generic_encode_ino32_fh,
	.fh_to_dentry	= ntfs_fh_to_dentry,
	.fh_to_parent	= ntfs_fh_to_parent,
	.get_parent	= ntfs_get_parent,
};
