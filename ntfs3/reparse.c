// SPDX-License-Identifier: GPL-2.0
/*
 * Reparse points: a file's reparse tag, and the ones that are symlinks -
 * Windows symlinks and junctions, WSL symlinks, and the Interix symlinks
 * ntfs-3g makes - with their targets as Linux paths, and the symlink inode
 * operations.
 */

#include <linux/ctype.h>
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

const struct inode_operations ntfs_symlink_iops = {
	.get_link	= ntfs_get_link,
	.getattr	= ntfs_getattr,
	.listxattr	= ntfs_listxattr,
};
