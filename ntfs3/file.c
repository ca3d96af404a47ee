// SPDX-License-Identifier: GPL-2.0
/*
 * Regular files as the VFS sees them: the file operations (open, buffered
 * and direct read, llseek with SEEK_HOLE/SEEK_DATA, mmap), fiemap, and the
 * volume label ioctl, which directories share.
 */

#include <linux/iomap.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include "ntfs3.h"

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

/**
 * ntfs_ioctl() - FS_IOC_GETFSLABEL
 * @file:	any file of the volume
 * @cmd:	the ioctl
 * @arg:	user buffer of FSLABEL_MAX bytes
 */
long ntfs_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ntfs_sb *sbi = NTFS_SB(file_inode(file)->i_sb);
	char label[FSLABEL_MAX] = {};

	if (cmd != FS_IOC_GETFSLABEL)
		return -ENOTTY;
	strscpy(label, sbi->label, sizeof(label));
	return copy_to_user((void __user *)arg, label, sizeof(label)) ? -EFAULT : 0;
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
