// SPDX-License-Identifier: GPL-2.0
/*
 * Reparse points: a file's reparse tag, and the ones that are symlinks -
 * Windows symlinks and junctions, WSL symlinks, and the Interix symlinks
 * ntfs-3g makes - with their targets as Linux paths, and the symlink inode
 * operations.
 */

#include <linux/ctype.h>
#include <linux/nls.h>
#include <linux/slab.h>

#include "ntfs3.h"

/*
 * A UTF-16 path from a symlink or junction as a Linux path.  An absolute
 * Windows path ("\??\C:\dir\file", "C:\dir\file") names a drive Linux does
 * not know; like the in-tree driver, it is taken to mean this volume and
 * becomes "/dir/file" with @drive_rooted set, for ntfs_get_link() to make
 * relative to the link's place on the volume.
 */
static char *ntfs_link_target(struct ntfs_sb *sbi, const __le16 *name, u32 units,
			      bool relative, bool *drive_rooted)
{
	char *buf = kmalloc(PATH_MAX, GFP_NOFS), *p, *q;
	int n;

	*drive_rooted = false;
	if (!buf)
		return NULL;
	if (!relative && units >= 4 && name[0] == cpu_to_le16('\\') &&
	    name[1] == cpu_to_le16('?') && name[2] == cpu_to_le16('?') &&
	    name[3] == cpu_to_le16('\\')) {
		name += 4;
		units -= 4;
	}
	if (!relative && units >= 2 && name[1] == cpu_to_le16(':') &&
	    le16_to_cpu(name[0]) < 0x80 && isalpha(le16_to_cpu(name[0]))) {
		name += 2;
		units -= 2;
		*drive_rooted = true;
	}
	n = ntfs_name_from_utf16(sbi, name, units, buf, PATH_MAX - 2);
	if (n < 0 || (!n && !*drive_rooted)) {
		kfree(buf);
		return NULL;
	}
	buf[n] = 0;
	for (p = buf; *p; p++)
		if (*p == '\\')
			*p = '/';
	if (*drive_rooted && buf[0] != '/') {
		for (q = buf + n; q >= buf; q--)
			q[1] = q[0];
		buf[0] = '/';
	}
	return buf;
}

/**
 * ntfs_get_link() - Target of a symlink; drive-rooted ones made relative
 * @dentry:	the link, or NULL in RCU walk mode
 * @inode:	its inode
 * @done:	to free the built path
 *
 * Return: the target, or an ERR_PTR.
 */
static const char *ntfs_get_link(struct dentry *dentry, struct inode *inode,
				 struct delayed_call *done)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	char *path, *buf, *out;
	size_t len;
	int depth = 0;

	if (!ni->link_drive_rooted)
		return ni->link;
	if (!dentry)
		return ERR_PTR(-ECHILD);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	out = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf || !out)
		goto nomem;
	path = dentry_path_raw(dentry, buf, PATH_MAX);
	if (IS_ERR(path)) {
		kfree(buf);
		kfree(out);
		return ERR_CAST(path);
	}
	/* One "../" per directory between the link and the volume's root. */
	for (path++; *path; path++)
		depth += *path == '/';
	strscpy(out, ".", PATH_MAX);
	len = 1;
	while (depth-- > 0 && len + 4 < PATH_MAX)
		len += strscpy(out + len, "/..", PATH_MAX - len);
	if (strlcat(out, ni->link, PATH_MAX) >= PATH_MAX) {
		kfree(buf);
		kfree(out);
		return ERR_PTR(-ENAMETOOLONG);
	}
	kfree(buf);
	set_delayed_call(done, kfree_link, out);
	return out;
nomem:
	kfree(buf);
	kfree(out);
	return ERR_PTR(-ENOMEM);
}

static char *ntfs_parse_reparse(struct ntfs_sb *sbi, const struct ntfs_reparse *rp, u32 len,
				bool *drive_rooted)
{
	const struct ntfs_reparse_link *l = (const void *)rp->data;
	u32 dlen = le16_to_cpu(rp->data_length), hdr, so, sl;
	u32 tag = le32_to_cpu(rp->tag);
	char *t;

	if (dlen > len - sizeof(*rp))
		return NULL;
	switch (tag) {
	case IO_REPARSE_TAG_SYMLINK:
	case IO_REPARSE_TAG_MOUNT_POINT:
		hdr = tag == IO_REPARSE_TAG_SYMLINK ? sizeof(*l) : sizeof(*l) - 4;
		if (dlen < hdr)
			return NULL;
		so = le16_to_cpu(l->subst_offset);
		sl = le16_to_cpu(l->subst_length);
		if ((so | sl) & 1 || so + sl > dlen - hdr || !sl)
			return NULL;
		return ntfs_link_target(sbi, (const void *)(rp->data + hdr + so), sl / 2,
					tag == IO_REPARSE_TAG_SYMLINK &&
					(le32_to_cpu(l->flags) & NTFS_SYMLINK_RELATIVE),
					drive_rooted);
	case IO_REPARSE_TAG_LX_SYMLINK:
		/* A version word, then the target in UTF-8. */
		if (dlen <= 4 || dlen - 4 >= PATH_MAX)
			return NULL;
		t = kmemdup_nul(rp->data + 4, dlen - 4, GFP_NOFS);
		return t;
	}
	return NULL;
}

/**
 * ntfs_load_reparse() - Note a file's reparse tag; make links into symlinks
 * @inode:	the inode being read
 * @rs:		its records
 * @a:		its $REPARSE_POINT attribute
 *
 * Symlinks, junctions and WSL symlinks get their target in inode->i_link;
 * other tags leave the file a regular object.
 *
 * Return: 0, -ENOMEM, or -EIO when the attribute cannot be read.
 */
int ntfs_load_reparse(struct inode *inode, const struct ntfs_recset *rs,
		      const struct ntfs_attr *a)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_reparse *rp;
	u64 len;
	int err = 0;

	len = a->non_resident ? le64_to_cpu(a->nr.data_size) : le32_to_cpu(a->r.value_length);
	if (len < sizeof(*rp) || len > 16 * 1024)
		return 0;
	if (!a->non_resident) {
		rp = ntfs_attr_value(a, sizeof(*rp));
	} else {
		rp = kmalloc(len, GFP_NOFS);
		if (!rp)
			return -ENOMEM;
		err = a->nr.lowest_vcn ?
		      ntfs_err_ratelimited(inode->i_sb, inode->i_ino,
					   "$REPARSE_POINT in extents") :
		      ntfs_read_nonres_attr(sbi, inode->i_ino, a, rp, len);
	}
	if (!err) {
		NTFS_I(inode)->reparse_tag = le32_to_cpu(rp->tag);
		struct ntfs_inode *ni = NTFS_I(inode);

		ni->link = ntfs_parse_reparse(sbi, rp, len, &ni->link_drive_rooted);
	}
	if (a->non_resident)
		kfree(rp);
	return err;
}

/**
 * ntfs_interix_link() - The target of an Interix symlink, as ntfs-3g makes them
 * @inode:	a regular file with the SYSTEM attribute, being read
 *
 * Such a file holds "IntxLNK\1" and the target in UTF-16.
 *
 * Return: the target (kmalloc'd) or NULL when the file is not one.
 */
char *ntfs_interix_link(struct inode *inode)
{
	static const u8 magic[8] = { 'I', 'n', 't', 'x', 'L', 'N', 'K', 1 };
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u32 len = ns->data_size;
	char *target = NULL;
	u8 *buf;

	if (ns->compressed || ns->encrypted || len <= sizeof(magic) || len > 2 * 1024 ||
	    (len & 1))
		return NULL;
	buf = kmalloc(len, GFP_NOFS);
	if (buf && !ntfs_read_stream(inode, 0, buf, len) && !memcmp(buf, magic, sizeof(magic)))
		target = ntfs_link_target(NTFS_SB(inode->i_sb), (const __le16 *)(buf + 8),
					  (len - 8) / 2, true, &NTFS_I(inode)->link_drive_rooted);
	kfree(buf);
	return target;
}

/**
 * ntfs_symlink_reparse() - The reparse point of a new symlink
 * @sbi:	the volume
 * @target:	the Linux target, NUL-terminated
 * @len:	set to the size of the buffer returned
 *
 * A Windows symlink (IO_REPARSE_TAG_SYMLINK) with the target as both its
 * substitute and print name, '/' turned into '\'.  A relative target is
 * flagged relative and stays relative.  An absolute one has no drive to
 * name: like the in-tree driver it is stored relative to the root of the
 * volume's drive ("\dir\file", relative flag set), which Windows resolves
 * on the volume itself and ntfs_link_target() reads back as "/dir/file".
 *
 * Return: the buffer (kfree() it) or an ERR_PTR().
 */
struct ntfs_reparse *ntfs_symlink_reparse(struct ntfs_sb *sbi, const char *target, u32 *len)
{
	size_t tlen = strlen(target);
	struct ntfs_reparse_link *l;
	struct ntfs_reparse *rp;
	__le16 *name;
	int n, i;

	if (!tlen || tlen >= PATH_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	name = kmalloc_array(PATH_MAX, sizeof(*name), GFP_NOFS);
	if (!name)
		return ERR_PTR(-ENOMEM);
	n = utf8s_to_utf16s(target, tlen, UTF16_LITTLE_ENDIAN, (wchar_t *)name, PATH_MAX);
	/* Both names must fit the 16-bit lengths of the buffer. */
	if (n <= 0 || 4 * n + sizeof(*l) > U16_MAX) {
		kfree(name);
		return ERR_PTR(n < 0 ? -EINVAL : -ENAMETOOLONG);
	}
	for (i = 0; i < n; i++)
		if (name[i] == cpu_to_le16('/'))
			name[i] = cpu_to_le16('\\');
	*len = sizeof(*rp) + sizeof(*l) + 4 * n;
	rp = kzalloc(*len, GFP_NOFS);
	if (rp) {
		rp->tag = cpu_to_le32(IO_REPARSE_TAG_SYMLINK);
		rp->data_length = cpu_to_le16(*len - sizeof(*rp));
		l = (void *)rp->data;
		l->subst_length = cpu_to_le16(2 * n);
		l->print_offset = cpu_to_le16(2 * n);
		l->print_length = cpu_to_le16(2 * n);
		l->flags = cpu_to_le32(NTFS_SYMLINK_RELATIVE);
		memcpy((u8 *)(l + 1), name, 2 * n);
		memcpy((u8 *)(l + 1) + 2 * n, name, 2 * n);
	}
	kfree(name);
	return rp ? rp : ERR_PTR(-ENOMEM);
}

const struct inode_operations ntfs_symlink_iops = {
	.get_link	= ntfs_get_link,
	.getattr	= ntfs_getattr,
	.listxattr	= ntfs_listxattr,
};

/*
 * $Extend\$Reparse lists every reparse point of the volume in its view
 * index $R: key = tag, file reference; no data; ULONGS collation (the key
 * compared as three little-endian u32s in turn).  Windows looks reparse
 * points up there, chkdsk checks it against the files both ways.
 */

static const __le16 ntfs_reparse_name[] = { cpu_to_le16('$'), cpu_to_le16('R'), cpu_to_le16('e'),
					    cpu_to_le16('p'), cpu_to_le16('a'), cpu_to_le16('r'),
					    cpu_to_le16('s'), cpu_to_le16('e') };
static const __le16 ntfs_r_name[] = { cpu_to_le16('$'), cpu_to_le16('R') };

/* Lockdep subclass of $Reparse's ni_lock: after namei.c's ntfs_lockset. */
#define NTFS_REPARSE_LOCK_CLASS	5

struct ntfs_r_key {
	__le32	tag;
	__le64	ref;
} __packed;

/* ULONGS collation: tag, then the reference's low and high halves. */
static int ntfs_r_cmp(const void *key, const struct ntfs_index_entry *e)
{
	return ntfs_ulongs_cmp(key, e, sizeof(struct ntfs_r_key));
}

static const struct ntfs_view ntfs_r_view = {
	.name		= ntfs_r_name,
	.name_len	= ARRAY_SIZE(ntfs_r_name),
	.key_len	= sizeof(struct ntfs_r_key),
	.collation	= NTFS_COLLATION_ULONGS,
	.cmp		= ntfs_r_cmp,
};

/**
 * ntfs_reparse_index_open() - Load $Extend\$Reparse's $R for writing
 * @sbi:	the volume, being made writable
 * @ext:	the $Extend directory (super.c opens it: this file is below
 *		ntfs_iget())
 *
 * A volume without a usable $R is said once; reparse points are then not
 * indexed.
 *
 * Return: 0, or -ENOMEM (the mount may try again).
 */
int ntfs_reparse_index_open(struct ntfs_sb *sbi, struct inode *ext)
{
	struct inode *ix = ntfs_extend_view_iget(ext, ntfs_reparse_name,
						 ARRAY_SIZE(ntfs_reparse_name), &ntfs_r_view);

	if (IS_ERR(ix) && PTR_ERR(ix) == -ENOMEM)
		return -ENOMEM;
	if (IS_ERR(ix)) {
		pr_warn("ntfs3 (%s): no usable $Extend\\$Reparse (%ld): reparse points are not indexed\n",
			sbi->sb->s_id, PTR_ERR(ix));
		ix = NULL;
	}
	mutex_lock(&sbi->reparse_lock);
	iput(sbi->reparse_ix);
	sbi->reparse_ix = ix;
	sbi->reparse_tried = true;
	mutex_unlock(&sbi->reparse_lock);
	return 0;
}

/* $R's inode, loaded when the volume was made writable; NULL without one. */
static struct inode *ntfs_r_get(struct ntfs_sb *sbi)
{
	struct inode *ix;

	mutex_lock(&sbi->reparse_lock);
	ix = sbi->reparse_ix;
	mutex_unlock(&sbi->reparse_lock);
	return ix;
}

/* Change $R: add (@add) or delete the key of @tag and @ref. */
static int ntfs_r_change(struct ntfs_trans *t, u32 tag, u64 ref, bool add)
{
	struct ntfs_r_key key = { cpu_to_le32(tag), cpu_to_le64(ref) };
	struct inode *ix = ntfs_r_get(t->sbi);
	struct ntfs_inode *ni;
	int err;

	if (IS_ERR_OR_NULL(ix))
		return PTR_ERR_OR_ZERO(ix);
	ni = NTFS_I(ix);
	err = ntfs_trans_lock(t, ni, NTFS_REPARSE_LOCK_CLASS);
	if (err)
		return err;
	err = add ? ntfs_view_insert(t, ix, &ntfs_r_view, &key, NULL, 0) :
		    ntfs_view_delete(t, ix, &ntfs_r_view, &key);
	/* A damaged $R is reported, and never keeps a file from changing. */
	if (err == -EEXIST || err == -ENOENT) {
		ntfs_err_ratelimited(t->sbi->sb, ni->record,
				     "$R %s record %llu (tag 0x%08x)",
				     add ? "already lists" : "does not list",
				     NTFS_REF_RECORD(ref), tag);
		err = 0;
	}
	return err;
}

/**
 * ntfs_reparse_index_add() - List a new reparse point in $Extend\$Reparse
 * @t:		the transaction that gives the file its $REPARSE_POINT
 * @tag:	its reparse tag
 * @ref:	the file's reference
 *
 * Takes $Reparse's ni_lock (after the file's) until @t ends.  A volume without
 * $Extend\$Reparse (NTFS 1.x) has nothing to keep in step.
 *
 * Return: 0, -ENOSPC, -ENOMEM, -EIO, -EOPNOTSUPP.
 */
int ntfs_reparse_index_add(struct ntfs_trans *t, u32 tag, u64 ref)
{
	return ntfs_r_change(t, tag, ref, true);
}

/**
 * ntfs_reparse_index_del() - Take a reparse point out of $Extend\$Reparse
 * @t:		the transaction that removes the $REPARSE_POINT or the file
 * @tag:	its reparse tag
 * @ref:	the file's reference
 *
 * An entry that is not there is reported and ignored.
 *
 * Return: 0, -ENOMEM, -EIO.
 */
int ntfs_reparse_index_del(struct ntfs_trans *t, u32 tag, u64 ref)
{
	return ntfs_r_change(t, tag, ref, false);
}
