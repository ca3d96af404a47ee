// SPDX-License-Identifier: GPL-2.0
/*
 * Files, directories and symlinks as the VFS sees them: reading an inode
 * from its records (ntfs_iget), its mode, owner and times, and the file
 * and symlink operations.
 */

#include <linux/iomap.h>
#include <linux/nls.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include "ntfs3.h"

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
}

static const struct inode_operations ntfs_symlink_iops;

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
		ntfs_apply_wsl_ea(inode);
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
	int err;

	ni->record = inode->i_ino;
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

/* ---- regular files ------------------------------------------------------ */

static int ntfs_file_open(struct inode *inode, struct file *file)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if (ns->encrypted)
		return -EOPNOTSUPP;
	if (NTFS_I(inode)->reparse_tag == IO_REPARSE_TAG_WOF) {
		ntfs_err_ratelimited(inode->i_sb, inode->i_ino,
				     "WOF-compressed file (compact /exe): not supported yet");
		return -EOPNOTSUPP;
	}
	if ((file->f_flags & O_DIRECT) && (ns->resident || ns->compressed))
		return -EINVAL;
	return generic_file_open(inode, file);
}

/*
 * A direct read gets the block that holds the initialized size straight
 * from the disk (blocks past it are zeros already, IOMAP_UNWRITTEN): zero
 * what it returned from the initialized size on.
 */
static void ntfs_dio_zero_past_valid(struct ntfs_stream *ns, struct iov_iter *start,
				     loff_t pos, ssize_t done)
{
	loff_t skip = ns->valid_size - pos;

	if (ns->valid_size >= ns->data_size || done <= 0 || pos + done <= ns->valid_size)
		return;
	if (skip > 0)
		iov_iter_advance(start, skip);
	iov_iter_zero(done - max_t(loff_t, skip, 0), start);
}

static ssize_t ntfs_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	loff_t pos = iocb->ki_pos;
	unsigned int flags = 0;
	struct iov_iter start;
	ssize_t ret;

	if (!(iocb->ki_flags & IOCB_DIRECT))
		return generic_file_read_iter(iocb, to);
	if (!iov_iter_count(to))
		return 0;
	start = *to;
	/* The zeroing below needs the result: no async completion then. */
	if (ns->valid_size < ns->data_size)
		flags = IOMAP_DIO_FORCE_WAIT;
	inode_lock_shared(inode);
	ret = iomap_dio_rw(iocb, to, &ntfs_iomap_ops, NULL, flags, NULL, 0);
	inode_unlock_shared(inode);
	ntfs_dio_zero_past_valid(ns, &start, pos, ret);
	return ret;
}

static loff_t ntfs_file_llseek(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file_inode(file);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if ((whence == SEEK_HOLE || whence == SEEK_DATA) && !ns->resident &&
	    !ns->compressed) {
		offset = whence == SEEK_HOLE ?
			 iomap_seek_hole(inode, offset, &ntfs_iomap_ops) :
			 iomap_seek_data(inode, offset, &ntfs_iomap_ops);
		return offset < 0 ? offset : vfs_setpos(file, offset, inode->i_sb->s_maxbytes);
	}
	return generic_file_llseek(file, offset, whence);
}

static int ntfs_fiemap(struct inode *inode, struct fiemap_extent_info *fi, u64 start, u64 len)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	if (ns->resident || ns->compressed)
		return -EOPNOTSUPP;
	return iomap_fiemap(inode, fi, start, len, &ntfs_iomap_ops);
}

const struct file_operations ntfs_file_fops = {
	.open		= ntfs_file_open,
	.llseek		= ntfs_file_llseek,
	.read_iter	= ntfs_file_read_iter,
	.mmap		= generic_file_readonly_mmap,
	.splice_read	= filemap_splice_read,
	.unlocked_ioctl	= ntfs_ioctl,
	.compat_ioctl	= ntfs_ioctl,
};

const struct inode_operations ntfs_file_iops = {
	.getattr	= ntfs_getattr,
	.fiemap		= ntfs_fiemap,
	.listxattr	= ntfs_listxattr,
};

static const struct inode_operations ntfs_symlink_iops = {
	.get_link	= ntfs_get_link,
	.getattr	= ntfs_getattr,
	.listxattr	= ntfs_listxattr,
};

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
