// SPDX-License-Identifier: GPL-2.0
/*
 * Extended attributes: $EA (user.* xattrs, and WSL's POSIX metadata in its
 * $LX* EAs), security descriptors ($Secure:$SDS, or NTFS 1.2's own
 * $SECURITY_DESCRIPTOR), and the system.* and user.* xattr handlers.
 */

#include <linux/slab.h>
#include <linux/unaligned.h>
#include <linux/xattr.h>

#include "ntfs3.h"

/* ---- $EA: user.* xattrs and WSL metadata -------------------------------- */

#define NTFS_MAX_EA_SIZE	65536

/* Read a file's $EA value into a new buffer; *@len is 0 when it has none. */
static int ntfs_read_ea_value(struct inode *inode, void **buf, u32 *len)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_recset_pos pos = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a;
	int err = ntfs_recset_load(sbi, inode->i_ino, &rs);

	*buf = NULL;
	*len = 0;
	while (!err && (a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
		u64 size;

		if (le32_to_cpu(a->type) != NTFS_AT_EA)
			continue;
		size = a->non_resident ? le64_to_cpu(a->nr.data_size) :
					 le32_to_cpu(a->r.value_length);
		if (size > NTFS_MAX_EA_SIZE || (a->non_resident && a->nr.lowest_vcn)) {
			err = ntfs_err_ratelimited(inode->i_sb, inode->i_ino,
						   "$EA over 64 KiB or in extents");
			break;
		}
		*buf = kmalloc(size ? size : 1, GFP_NOFS);
		if (!*buf) {
			err = -ENOMEM;
			break;
		}
		if (a->non_resident)
			err = ntfs_read_nonres_attr(sbi, inode->i_ino, a, *buf, size);
		else
			memcpy(*buf, ntfs_attr_value(a, 0), size);
		*len = size;
		break;
	}
	if (!err && IS_ERR(a))
		err = PTR_ERR(a);
	ntfs_recset_free(&rs);
	if (err) {
		kfree(*buf);
		*buf = NULL;
		*len = 0;
	}
	return err;
}

/*
 * Walk the entries of an $EA value.  Returns the entry after @prev (NULL:
 * the first), NULL at the end, ERR_PTR(-EIO) for a malformed entry.
 */
static const struct ntfs_ea *ntfs_next_ea(const void *buf, u32 len, const struct ntfs_ea *prev)
{
	const struct ntfs_ea *ea;
	u32 ofs = 0, need;

	if (prev) {
		u32 next = le32_to_cpu(prev->next_offset);

		if (!next)
			return NULL;
		ofs = (const u8 *)prev - (const u8 *)buf;
		if (next > len - ofs)
			return ERR_PTR(-EIO);
		ofs += next;
	}
	if (ofs >= len)
		return NULL;
	if (len - ofs < sizeof(*ea))
		return ERR_PTR(-EIO);
	ea = buf + ofs;
	need = sizeof(*ea) + ea->name_length + 1 + le16_to_cpu(ea->value_length);
	if (need > len - ofs || ea->name[ea->name_length] != 0)
		return ERR_PTR(-EIO);
	return ea;
}

static const void *ntfs_ea_value(const struct ntfs_ea *ea)
{
	return ea->name + ea->name_length + 1;
}

/* Find EA @name; returns it, NULL, or ERR_PTR(-EIO). */
static const struct ntfs_ea *ntfs_find_ea(const void *buf, u32 len, const char *name)
{
	const struct ntfs_ea *ea = NULL;
	size_t n = strlen(name);

	while ((ea = ntfs_next_ea(buf, len, ea)) && !IS_ERR(ea))
		if (ea->name_length == n && !memcmp(ea->name, name, n))
			return ea;
	return ea;
}

static bool ntfs_ea_u32(const void *buf, u32 len, const char *name, u32 *v)
{
	const struct ntfs_ea *ea = ntfs_find_ea(buf, len, name);

	if (IS_ERR_OR_NULL(ea) || le16_to_cpu(ea->value_length) < 4)
		return false;
	*v = get_unaligned_le32(ntfs_ea_value(ea));
	return true;
}

/*
 * Permission bits from $LXMOD, unless a mask option for this kind of
 * object was given: then the mount's permissions stand.
 */
static umode_t ntfs_wsl_perm(struct inode *inode, u32 v, bool is_dir)
{
	const struct ntfs_options *o = &NTFS_SB(inode->i_sb)->opt;

	if (is_dir ? o->dmask_set : o->fmask_set)
		return inode->i_mode & 07777;
	return v & 07777;
}

/* $LXDEV: major and minor of a device node, if present and representable. */
static bool ntfs_wsl_dev(const void *buf, u32 len, dev_t *dev)
{
	const struct ntfs_ea *ea = ntfs_find_ea(buf, len, "$LXDEV");
	u32 major, minor;

	*dev = 0;
	if (IS_ERR_OR_NULL(ea) || le16_to_cpu(ea->value_length) < 8)
		return false;
	major = get_unaligned_le32(ntfs_ea_value(ea));
	minor = get_unaligned_le32(ntfs_ea_value(ea) + 4);
	if (major >= 1U << (32 - MINORBITS) || minor > MINORMASK)
		return false;
	*dev = MKDEV(major, minor);
	return true;
}

/*
 * The mode from $LXMOD: permissions for what the records say the object
 * is; a regular file may become a FIFO or socket, or a device node when
 * $LXDEV gives its numbers (without them it stays a regular file).
 */
static void ntfs_wsl_mode(struct inode *inode, u32 v, bool have_dev)
{
	umode_t type = v & S_IFMT, cur = inode->i_mode & S_IFMT;

	if (!type || type == cur) {
		inode->i_mode = cur | ntfs_wsl_perm(inode, v, S_ISDIR(cur));
		return;
	}
	if (!S_ISREG(cur))
		return;
	if (S_ISFIFO(type) || S_ISSOCK(type) ||
	    ((S_ISCHR(type) || S_ISBLK(type)) && have_dev))
		inode->i_mode = type | ntfs_wsl_perm(inode, v, false);
}

/**
 * ntfs_apply_wsl_ea() - Owner, group, mode and device from WSL's EAs
 * @inode:	a file being read
 *
 * WSL keeps POSIX metadata in the $LXUID, $LXGID, $LXMOD and $LXDEV EAs.
 * They win over the defaults, never over options the mount gave
 * explicitly: uid= beats $LXUID, gid= beats $LXGID, and umask=/fmask=
 * (files) or umask=/dmask= (directories) beat $LXMOD's permission bits
 * (its file type is still taken).  Set-id bits and device numbers from the
 * image mean what they mean on any file system: nosuid and nodev mounts
 * neutralise them in the VFS.  Owners that are not valid ids are ignored.
 */
void ntfs_apply_wsl_ea(struct inode *inode)
{
	const struct ntfs_options *o = &NTFS_SB(inode->i_sb)->opt;
	bool have_dev;
	dev_t dev;
	u32 len, v;
	void *buf;

	if (ntfs_read_ea_value(inode, &buf, &len) || !len)
		return;
	if (!o->uid_set && ntfs_ea_u32(buf, len, "$LXUID", &v) &&
	    uid_valid(make_kuid(&init_user_ns, v)))
		inode->i_uid = make_kuid(&init_user_ns, v);
	if (!o->gid_set && ntfs_ea_u32(buf, len, "$LXGID", &v) &&
	    gid_valid(make_kgid(&init_user_ns, v)))
		inode->i_gid = make_kgid(&init_user_ns, v);
	have_dev = ntfs_wsl_dev(buf, len, &dev);
	if (ntfs_ea_u32(buf, len, "$LXMOD", &v))
		ntfs_wsl_mode(inode, v, have_dev);
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
		init_special_inode(inode, inode->i_mode, dev);
	else if (S_ISFIFO(inode->i_mode) || S_ISSOCK(inode->i_mode))
		init_special_inode(inode, inode->i_mode, 0);
	kfree(buf);
}

static int ntfs_user_xattr_get(const struct xattr_handler *h, struct dentry *unused,
			       struct inode *inode, const char *name, void *out, size_t size)
{
	char full[XATTR_NAME_MAX + 1];
	const struct ntfs_ea *ea;
	u32 len;
	void *buf;
	int err;

	if (snprintf(full, sizeof(full), XATTR_USER_PREFIX "%s", name) >= sizeof(full))
		return -ERANGE;
	err = ntfs_read_ea_value(inode, &buf, &len);
	if (err)
		return err;
	ea = ntfs_find_ea(buf, len, full);
	if (IS_ERR(ea))
		err = -EIO;
	else if (!ea)
		err = -ENODATA;
	else if (size && size < le16_to_cpu(ea->value_length))
		err = -ERANGE;
	else
		err = le16_to_cpu(ea->value_length);
	if (err > 0 && size)
		memcpy(out, ntfs_ea_value(ea), err);
	kfree(buf);
	return err;
}

/**
 * ntfs_listxattr() - List the user.* extended attributes of a file
 * @dentry:	the object
 * @out:	output, or NULL for the size
 * @size:	size of @out
 *
 * These are the $EA entries whose names start with "user."; system.*
 * names are not listed, as usual.
 *
 * Return: bytes needed or written, -ERANGE, -EIO.
 */
ssize_t ntfs_listxattr(struct dentry *dentry, char *out, size_t size)
{
	const struct ntfs_ea *ea = NULL;
	ssize_t total = 0;
	u32 len;
	void *buf;
	int err = ntfs_read_ea_value(d_inode(dentry), &buf, &len);

	if (err)
		return err;
	while ((ea = ntfs_next_ea(buf, len, ea)) && !IS_ERR(ea)) {
		if (ea->name_length <= XATTR_USER_PREFIX_LEN ||
		    memcmp(ea->name, XATTR_USER_PREFIX, XATTR_USER_PREFIX_LEN))
			continue;
		if (size) {
			if (total + ea->name_length + 1 > size) {
				total = -ERANGE;
				break;
			}
			memcpy(out + total, ea->name, ea->name_length + 1);
		}
		total += ea->name_length + 1;
	}
	if (IS_ERR(ea))
		total = -EIO;
	kfree(buf);
	return total;
}

/* ---- security descriptors ----------------------------------------------- */

/*
 * Index $Secure:$SDS by security id, once: each 256 KiB block of $SDS is
 * followed by a mirror copy, entries are 16-byte aligned, and an entry
 * records its own offset, which guards against reading garbage.
 */
static int ntfs_sds_index(struct ntfs_sb *sbi)
{
	static const __le16 sds[] = { cpu_to_le16('$'), cpu_to_le16('S'),
				      cpu_to_le16('D'), cpu_to_le16('S') };
	struct ntfs_sds_header h;
	struct inode *inode;
	u64 pos = 0, size;
	int err = 0;

	inode = ntfs_stream_iget(sbi->sb, NTFS_SECURE_INO, NTFS_AT_DATA, sds, ARRAY_SIZE(sds));
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	/* Bounded by the size only because every byte of it is on disk. */
	err = ntfs_stream_check_meta(sbi, &NTFS_I(inode)->stream);
	size = NTFS_I(inode)->stream.data_size;
	while (!err && pos + sizeof(h) <= size) {
		u64 block_end = round_up(pos + 1, NTFS_SDS_BLOCK);
		u32 len;

		err = ntfs_walk_step();
		if (err)
			break;

		if ((pos / NTFS_SDS_BLOCK) & 1) {	/* a mirror block */
			pos = block_end;
			continue;
		}
		err = ntfs_read_stream(inode, pos, &h, sizeof(h));
		if (err)
			break;
		len = le32_to_cpu(h.length);
		if (len < sizeof(h) || pos + len > block_end || le64_to_cpu(h.offset) != pos) {
			pos = block_end;	/* rest of the block is padding */
			continue;
		}
		if (h.security_id) {
			err = xa_err(xa_store(&sbi->sds_map, le32_to_cpu(h.security_id),
					      xa_mk_value(pos), GFP_NOFS));
			if (err)
				break;
		}
		pos += round_up(len, 16);
	}
	if (!err)
		sbi->sds = inode;
	else
		iput(inode);
	return err;
}

/* The descriptor of @id from $SDS into a new buffer. */
static int ntfs_sds_get(struct ntfs_sb *sbi, u32 id, void **out, u32 *len)
{
	struct ntfs_sds_header h;
	void *entry;
	u64 pos;
	int err = 0;

	if (mutex_lock_killable(&sbi->sds_lock))
		return -EINTR;
	if (!sbi->sds && !sbi->sds_failed) {
		err = ntfs_sds_index(sbi);
		/* Only corruption is final: a kill or ENOMEM may do better next time. */
		sbi->sds_failed = err == -EIO;
		if (err)
			xa_destroy(&sbi->sds_map);
	}
	mutex_unlock(&sbi->sds_lock);
	if (!sbi->sds)
		return err ? err : -EIO;
	entry = xa_load(&sbi->sds_map, id);
	if (!entry)
		return -ENODATA;
	pos = xa_to_value(entry);
	err = ntfs_read_stream(sbi->sds, pos, &h, sizeof(h));
	if (err)
		return err;
	/* Checked when indexed, but the device may have changed since. */
	if (le32_to_cpu(h.length) < sizeof(h) || le32_to_cpu(h.length) > NTFS_SDS_BLOCK ||
	    le64_to_cpu(h.offset) != pos)
		return -EIO;
	*len = le32_to_cpu(h.length) - sizeof(h);
	*out = kmalloc(*len ? *len : 1, GFP_NOFS);
	if (!*out)
		return -ENOMEM;
	err = ntfs_read_stream(sbi->sds, pos + sizeof(h), *out, *len);
	if (err)
		kfree(*out);
	return err;
}

/* A descriptor kept in the file's own $SECURITY_DESCRIPTOR (NTFS 1.2 style). */
static int ntfs_legacy_sd_get(struct inode *inode, void **out, u32 *len)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_recset_pos pos = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a;
	int err = ntfs_recset_load(sbi, inode->i_ino, &rs);

	while (!err && (a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
		u64 size;

		if (le32_to_cpu(a->type) != NTFS_AT_SECURITY)
			continue;
		size = a->non_resident ? le64_to_cpu(a->nr.data_size) :
					 le32_to_cpu(a->r.value_length);
		if (size > 65536 || (a->non_resident && a->nr.lowest_vcn)) {
			err = ntfs_err_ratelimited(inode->i_sb, inode->i_ino,
						   "$SECURITY_DESCRIPTOR over 64 KiB or in extents");
			break;
		}
		*out = kmalloc(size ? size : 1, GFP_NOFS);
		if (!*out) {
			err = -ENOMEM;
			break;
		}
		*len = size;
		if (a->non_resident)
			err = ntfs_read_nonres_attr(sbi, inode->i_ino, a, *out, size);
		else
			memcpy(*out, ntfs_attr_value(a, 0), size);
		if (err)
			kfree(*out);
		ntfs_recset_free(&rs);
		return err;
	}
	ntfs_recset_free(&rs);
	return err ? err : -ENODATA;
}

static int ntfs_security_get(struct inode *inode, void *buf, size_t size)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	void *sd = NULL;
	u32 len;
	int err = -ENODATA;

	if (ni->security_id)
		err = ntfs_sds_get(NTFS_SB(inode->i_sb), ni->security_id, &sd, &len);
	if (err == -ENODATA)
		err = ntfs_legacy_sd_get(inode, &sd, &len);
	if (err)
		return err;
	if (size && size < len)
		err = -ERANGE;
	else if (size)
		memcpy(buf, sd, len);
	kfree(sd);
	return err ? err : len;
}

/* ---- xattr handlers ----------------------------------------------------- */

static int ntfs_xattr_get(const struct xattr_handler *h, struct dentry *unused,
			  struct inode *inode, const char *name, void *buf, size_t size)
{
	u32 attr = NTFS_I(inode)->attributes;
	size_t len;
	union {
		__le32 le;
		__be32 be;
		u8 b;
	} v;

	/*
	 * As Windows reports them: directories carry their flag in $FILE_NAME
	 * only, and a file with no attribute at all is "normal".
	 */
	if (NTFS_I(inode)->dir_record)
		attr |= FILE_ATTRIBUTE_DIRECTORY;
	else if (!attr)
		attr = FILE_ATTRIBUTE_NORMAL;

	if (!strcmp(name, "ntfs_attrib")) {
		v.le = cpu_to_le32(attr);
		len = 4;
	} else if (!strcmp(name, "ntfs_attrib_be")) {
		v.be = cpu_to_be32(attr);
		len = 4;
	} else if (!strcmp(name, "dos_attrib")) {
		v.b = attr;
		len = 1;
	} else if (!strcmp(name, "ntfs_security")) {
		return ntfs_security_get(inode, buf, size);
	} else {
		return -EOPNOTSUPP;
	}
	if (!size)
		return len;
	if (size < len)
		return -ERANGE;
	memcpy(buf, &v, len);
	return len;
}

static const struct xattr_handler ntfs_system_xattr_handler = {
	.prefix	= XATTR_SYSTEM_PREFIX,
	.get	= ntfs_xattr_get,
};

static const struct xattr_handler ntfs_user_xattr_handler = {
	.prefix	= XATTR_USER_PREFIX,
	.get	= ntfs_user_xattr_get,
};

const struct xattr_handler * const ntfs_xattr_handlers[] = {
	&ntfs_system_xattr_handler,
	&ntfs_user_xattr_handler,
	NULL,
};
