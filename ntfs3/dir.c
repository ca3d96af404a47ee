// SPDX-License-Identifier: GPL-2.0
/*
 * Directories as open files: readdir, which walks the $I30 index in order
 * with a cursor kept in the open file between getdents calls, lists each
 * file once under one of its names, and hides what the options hide.
 */

#include <linux/blkdev.h>
#include <linux/nls.h>
#include <linux/slab.h>

#include "ntfs3.h"

/*
 * A readdir in progress, kept in the open file between getdents calls so
 * that listing a directory reads each index block once.  It also keeps the
 * key of the last entry its walk returned: when the index changed since
 * (the directory's index_gen moved), the nodes the walk holds are stale,
 * and the walk starts again right after that key.
 */
struct ntfs_dir_cursor {
	loff_t pos;			/* ctx->pos the cursor is at */
	u64 gen;			/* the directory's index_gen the walk is of */
	bool have_key;			/* @key holds the last entry walked */
	union {
		struct ntfs_file_name fn;
		u8 bytes[sizeof(struct ntfs_file_name) + 2 * NTFS_MAX_NAME];
	} key;
	/* An entry the caller's buffer had no room for: emitted first next time. */
	bool pending;
	int pending_len;
	u64 pending_ino;
	unsigned char pending_type;
	char pending_name[NTFS_MAX_NAME * NLS_MAX_CHARSET_SIZE + 1];
	struct ntfs_index_cursor walk;	/* the walk of the index */
};

static void ntfs_dir_cursor_reset(struct ntfs_dir_cursor *c)
{
	ntfs_index_cursor_reset(&c->walk);
	c->pending = false;
	c->have_key = false;
	c->pos = 2;
}

/*
 * The index changed under the cursor: walk on from the first key after the
 * last one walked.  Entries present all along are thus listed once, and
 * removing the entries already listed (rm -rf) makes none be skipped.
 */
static int ntfs_dir_cursor_resume(struct ntfs_inode *ni, struct ntfs_dir_cursor *c)
{
	int err;

	ntfs_index_cursor_reset(&c->walk);
	if (!c->have_key)
		return 0;
	err = ntfs_index_cursor_seek(ni, &c->walk, &c->key.fn);
	if (err)
		ntfs_index_cursor_reset(&c->walk);
	return err;
}

/* Remember the key of the entry the walk just returned. */
static void ntfs_dir_cursor_note(struct ntfs_dir_cursor *c, const struct ntfs_file_name *fn)
{
	memcpy(&c->key, fn, sizeof(*fn) + 2 * fn->name_length);
	c->have_key = true;
}

/*
 * Whether an entry's name can be handed to user space: the VFS refuses
 * names with '/' (and a NUL would cut the name short), and "." and ".."
 * are the VFS's own.  Windows never writes such names; a crafted volume
 * may, and one bad entry must not stop the listing.
 */
static bool ntfs_name_listable(const struct ntfs_file_name *fn, const char *buf, int n)
{
	const __le16 *u = fn->name;
	u32 i;

	/* Checked on the units: the conversion stops at a NUL. */
	for (i = 0; i < fn->name_length; i++)
		if (!u[i])
			return false;
	if (n <= 0 || memchr(buf, '/', n))
		return false;
	return !(buf[0] == '.' && (n == 1 || (n == 2 && buf[1] == '.')));
}

/* Whether a directory entry is listed (each file once, metafiles hidden). */
static bool ntfs_entry_visible(struct ntfs_sb *sbi, struct ntfs_inode *dir,
			       const struct ntfs_index_entry *e)
{
	const struct ntfs_file_name *fn = ntfs_entry_name(e);
	u64 nr = NTFS_REF_RECORD(le64_to_cpu(e->ref));

	if (fn->name_space == NTFS_NS_DOS)
		return false;
	if (nr == dir->record)
		return false;
	/* Not a record of this volume: not listed (nor could it be looked up). */
	if (nr >= sbi->mft_records)
		return false;
	/* $MFT is record 0: an entry with inode number 0 is skipped by readdir users. */
	if (nr == NTFS_MFT_INO)
		return false;
	if (nr < NTFS_FIRST_USER_INO && !sbi->opt.showmeta)
		return false;
	if (sbi->opt.nohidden && (le32_to_cpu(fn->attributes) & FILE_ATTRIBUTE_HIDDEN))
		return false;
	return true;
}

static unsigned char ntfs_entry_dtype(const struct ntfs_index_entry *e)
{
	const struct ntfs_file_name *fn = ntfs_entry_name(e);
	u32 attr = le32_to_cpu(fn->attributes);

	if (attr & FILE_ATTRIBUTE_REPARSE_POINT)
		return DT_UNKNOWN;
	return attr & FILE_ATTRIBUTE_DUP_DIRECTORY ? DT_DIR : DT_REG;
}

static int ntfs_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	struct ntfs_sb *sbi = NTFS_SB(dir->i_sb);
	struct ntfs_dir_cursor *c = file->private_data;
	const struct ntfs_index_entry *e = NULL;
	struct ntfs_inode *ni = NTFS_I(dir);
	char *buf;
	int err = 0;

	if (!dir_emit_dots(file, ctx))
		return 0;
	if (!c) {
		c = kvzalloc(sizeof(*c), GFP_KERNEL);
		if (!c)
			return -ENOMEM;
		ntfs_index_cursor_init(&c->walk);
		c->pos = 2;
		file->private_data = c;
	}
	/* A seek elsewhere: walk again from the start to that position. */
	if (ctx->pos != c->pos || ctx->pos == 2)
		ntfs_dir_cursor_reset(c);
	else if (c->gen != READ_ONCE(ni->index_gen))
		err = ntfs_dir_cursor_resume(ni, c);
	c->gen = READ_ONCE(ni->index_gen);
	if (err)
		return err;
	if (c->pending) {
		if (!dir_emit(ctx, c->pending_name, c->pending_len, c->pending_ino,
			      c->pending_type))
			return 0;
		c->pending = false;
		ctx->pos++;
		c->pos = ctx->pos;
	}
	buf = c->pending_name;

	while ((e = ntfs_index_cursor_next(ni, &c->walk)) && !IS_ERR(e)) {
		const struct ntfs_file_name *fn = ntfs_entry_name(e);
		int n;

		ntfs_dir_cursor_note(c, fn);
		if (!ntfs_entry_visible(sbi, ni, e))
			continue;
		n = ntfs_name_from_utf16(sbi, fn->name, fn->name_length, buf,
					 NTFS_MAX_NAME * NLS_MAX_CHARSET_SIZE);
		if (n <= 0) {
			ntfs_err_ratelimited(dir->i_sb, dir->i_ino,
					     "a name cannot be converted to %s, skipped",
					     sbi->opt.iocharset ? sbi->opt.iocharset : "utf8");
			continue;
		}
		if (!ntfs_name_listable(fn, buf, n)) {
			ntfs_err_ratelimited(dir->i_sb, dir->i_ino,
					     "a name with '/' or NUL, or \".\" or \"..\", skipped");
			continue;
		}
		if (c->pos < ctx->pos) {	/* catching up after a seek */
			c->pos++;
			continue;
		}
		if (!dir_emit(ctx, buf, n, NTFS_REF_RECORD(le64_to_cpu(e->ref)),
			      ntfs_entry_dtype(e))) {
			/* No room: keep it (its name is in @buf already). */
			c->pending = true;
			c->pending_len = n;
			c->pending_ino = NTFS_REF_RECORD(le64_to_cpu(e->ref));
			c->pending_type = ntfs_entry_dtype(e);
			break;
		}
		ctx->pos++;
		c->pos = ctx->pos;
	}
	if (IS_ERR(e))
		err = PTR_ERR(e);
	if (err == -EIO)
		ntfs_err_ratelimited(dir->i_sb, dir->i_ino, "damaged directory index");
	return err;
}

static int ntfs_dir_release(struct inode *inode, struct file *file)
{
	struct ntfs_dir_cursor *c = file->private_data;

	if (c) {
		ntfs_dir_cursor_reset(c);
		kvfree(c);
	}
	return 0;
}

/**
 * ntfs_dir_fsync() - Bring a directory's entries and record to the device
 * @file:	the open directory
 * @start:	unused (a directory has no data range)
 * @end:	unused
 * @datasync:	unused: the entries are the directory's data
 *
 * Programs that make a file durable by renaming it into place (editors,
 * package managers, git) fsync the directory afterwards: its record (the
 * root of its index, its times), its index blocks and the metadata
 * streams the entries' changes touched are written and waited for, then
 * the device's cache is flushed.
 *
 * Return: 0 or the first error.
 */
static int ntfs_dir_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct inode *dir = file_inode(file);
	int err;

	if (sb_rdonly(dir->i_sb))
		return 0;
	err = sync_inode_metadata(dir, 1);
	if (!err)
		err = ntfs_trans_flush_dir(NTFS_SB(dir->i_sb), dir);
	if (!err)
		err = blkdev_issue_flush(dir->i_sb->s_bdev);
	return err;
}

const struct file_operations ntfs_dir_fops = {
	.llseek		= generic_file_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= ntfs_readdir,
	.release	= ntfs_dir_release,
	.fsync		= ntfs_dir_fsync,
	.unlocked_ioctl	= ntfs_ioctl,
	.compat_ioctl	= ntfs_ioctl,
};
