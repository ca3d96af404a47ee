// SPDX-License-Identifier: GPL-2.0
/*
 * Extended attributes: $EA (user.* xattrs, POSIX ACLs, and WSL's POSIX
 * metadata in its $LX* EAs), security descriptors ($Secure:$SDS, or NTFS
 * 1.2's own $SECURITY_DESCRIPTOR), and the system.* and user.* xattr
 * handlers.
 */

#include <linux/buffer_head.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <linux/xattr.h>

#include "ntfs3.h"

/* ---- $EA: user.* xattrs and WSL metadata -------------------------------- */

#define NTFS_MAX_EA_SIZE	65536

/*
 * The $EA value of the file whose records @rs holds, into a new buffer;
 * *@len is 0 when it has none.
 */
static int ntfs_ea_value_of(struct inode *inode, const struct ntfs_recset *rs, void **buf,
			    u32 *len)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_recset_pos pos = {};
	struct ntfs_attr *a;
	int err = 0;

	*buf = NULL;
	*len = 0;
	while ((a = ntfs_recset_next(rs, &pos)) && !IS_ERR(a)) {
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
	if (err) {
		kfree(*buf);
		*buf = NULL;
		*len = 0;
	}
	return err;
}

/* Read a file's $EA value into a new buffer; *@len is 0 when it has none. */
static int ntfs_read_ea_value(struct inode *inode, void **buf, u32 *len)
{
	struct ntfs_recset rs;
	int err = ntfs_recset_load(NTFS_SB(inode->i_sb), inode->i_ino, &rs);

	*buf = NULL;
	*len = 0;
	if (!err)
		err = ntfs_ea_value_of(inode, &rs, buf, len);
	ntfs_recset_free(&rs);
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

/* ---- POSIX ACLs: reading ------------------------------------------------ */

#ifdef CONFIG_FS_POSIX_ACL
/*
 * A POSIX ACL is the EA system.posix_acl_access or system.posix_acl_default
 * holding the ACL as the xattr system calls carry it (struct
 * posix_acl_xattr_header and its entries, ids of the initial user
 * namespace): the names and format of the in-tree ntfs3 driver, so that a
 * volume keeps its ACLs when it changes drivers.
 */

/* The ACL of @type in EA set @buf: NULL for none, ERR_PTR(-EIO) if damaged. */
static struct posix_acl *ntfs_acl_from_eas(struct inode *inode, const void *buf, u32 len,
					   int type)
{
	const char *name = posix_acl_xattr_name(type);
	const struct ntfs_ea *ea = ntfs_find_ea(buf, len, name);
	struct posix_acl *acl;

	if (IS_ERR_OR_NULL(ea))
		return ERR_CAST(ea);
	acl = posix_acl_from_xattr(&init_user_ns, ntfs_ea_value(ea),
				   le16_to_cpu(ea->value_length));
	if (IS_ERR(acl) && PTR_ERR(acl) != -ENOMEM)
		return ERR_PTR(ntfs_err_ratelimited(inode->i_sb, inode->i_ino,
						    "damaged %s EA", name));
	return acl;
}

/*
 * Cache the ACLs of a file being read from its EA set, which is at hand:
 * permission checks in RCU walk mode find them there.  A damaged one is
 * left to be read (and refused) when wanted.
 */
static void ntfs_acl_prime(struct inode *inode, const void *buf, u32 len)
{
	static const int types[] = { ACL_TYPE_ACCESS, ACL_TYPE_DEFAULT };
	struct posix_acl *acl;
	int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		acl = ntfs_acl_from_eas(inode, buf, len, types[i]);
		if (IS_ERR(acl))
			continue;
		set_cached_acl(inode, types[i], acl);
		posix_acl_release(acl);
	}
}

/**
 * ntfs_get_inode_acl() - Read a POSIX ACL of a file
 * @inode:	the file
 * @type:	ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT
 * @rcu:	RCU walk mode, which cannot read the records: -ECHILD
 *
 * The VFS caches what this returns; ntfs_set_acl() and chmod keep the
 * cache in step, and reading an inode fills it (ntfs_apply_wsl_ea()).
 *
 * Return: the ACL, NULL when the file has none, or an ERR_PTR(): -EIO
 * for a damaged $EA or ACL, -ENOMEM.
 */
struct posix_acl *ntfs_get_inode_acl(struct inode *inode, int type, bool rcu)
{
	struct posix_acl *acl;
	void *buf;
	u32 len;
	int err;

	if (rcu)
		return ERR_PTR(-ECHILD);
	err = ntfs_read_ea_value(inode, &buf, &len);
	if (err)
		return ERR_PTR(err);
	acl = ntfs_acl_from_eas(inode, buf, len, type);
	kfree(buf);
	return acl;
}
#else
static void ntfs_acl_prime(struct inode *inode, const void *buf, u32 len)
{
}
#endif

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
 * @rs:		its records, as read for it: the $EA is taken from them, not
 *		read again
 *
 * WSL keeps POSIX metadata in the $LXUID, $LXGID, $LXMOD and $LXDEV EAs.
 * They win over the defaults, never over options the mount gave
 * explicitly: uid= beats $LXUID, gid= beats $LXGID, and umask=/fmask=
 * (files) or umask=/dmask= (directories) beat $LXMOD's permission bits
 * (its file type is still taken).  Set-id bits and device numbers from the
 * image mean what they mean on any file system: nosuid and nodev mounts
 * neutralise them in the VFS.  Owners that are not valid ids are ignored.
 * The POSIX ACLs in the set go to the inode's ACL cache.
 */
void ntfs_apply_wsl_ea(struct inode *inode, const struct ntfs_recset *rs)
{
	const struct ntfs_options *o = &NTFS_SB(inode->i_sb)->opt;
	bool have_dev;
	dev_t dev;
	u32 len, v;
	void *buf;

	if (ntfs_ea_value_of(inode, rs, &buf, &len) || !len)
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
	ntfs_acl_prime(inode, buf, len);
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

/* Whether @ea is named @name. */
static bool ntfs_ea_is(const struct ntfs_ea *ea, const char *name)
{
	return ea->name_length == strlen(name) && !memcmp(ea->name, name, ea->name_length);
}

/* Whether listxattr names EA @ea: user.* ones, and the ACLs on acl mounts. */
static bool ntfs_ea_listed(struct inode *inode, const struct ntfs_ea *ea)
{
	if (ea->name_length > XATTR_USER_PREFIX_LEN &&
	    !memcmp(ea->name, XATTR_USER_PREFIX, XATTR_USER_PREFIX_LEN))
		return true;
	return IS_POSIXACL(inode) && (ntfs_ea_is(ea, XATTR_NAME_POSIX_ACL_ACCESS) ||
				      ntfs_ea_is(ea, XATTR_NAME_POSIX_ACL_DEFAULT));
}

/**
 * ntfs_listxattr() - List the extended attributes of a file
 * @dentry:	the object
 * @out:	output, or NULL for the size
 * @size:	size of @out
 *
 * These are the $EA entries whose names start with "user.", and on a
 * mount with acl system.posix_acl_access and system.posix_acl_default
 * when the file has them (the VFS serves those through ->get_inode_acl).
 * Other system.* names are not listed, as usual.
 *
 * Return: bytes needed or written, -ERANGE, -EIO.
 */
ssize_t ntfs_listxattr(struct dentry *dentry, char *out, size_t size)
{
	struct inode *inode = d_inode(dentry);
	const struct ntfs_ea *ea = NULL;
	ssize_t total = 0;
	u32 len;
	void *buf;
	int err = ntfs_read_ea_value(inode, &buf, &len);

	if (err)
		return err;
	while ((ea = ntfs_next_ea(buf, len, ea)) && !IS_ERR(ea)) {
		if (!ntfs_ea_listed(inode, ea))
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

/* ---- changing $EA -------------------------------------------------------- */

#define NTFS_EA_NEED_EA		0x80
#define NTFS_EA_MAX_NAME	255
#define NTFS_EA_MAX_VALUE	65535

/*
 * One EA of a change to a file's EA set: set to @value (@value_len bytes),
 * or removed when @value is NULL.  @found: the set had it.  @may_miss: a
 * removal of an EA the set lacks is no error (ACLs).
 */
struct ntfs_ea_op {
	const char	*name;
	u8		name_len;
	const void	*value;
	u16		value_len;
	bool		found;
	bool		may_miss;
};

/* Bytes an entry takes in $EA: entries start 4-byte aligned. */
static u32 ntfs_ea_entry_size(u32 name_len, u32 value_len)
{
	return ALIGN(sizeof(struct ntfs_ea) + name_len + 1 + value_len, 4);
}

/*
 * Append an entry at *@ofs of @out (NULL: only count).  Every entry's
 * next_offset is its own size, the last one's too, as NTFS stores them
 * (0 means "last" only in the FILE_FULL_EA_INFORMATION of the API).
 */
static void ntfs_ea_put(void *out, u32 *ofs, u8 flags, const char *name, u8 name_len,
			const void *value, u16 value_len)
{
	u32 size = ntfs_ea_entry_size(name_len, value_len);
	struct ntfs_ea *ea;

	if (out && *ofs + size <= NTFS_MAX_EA_SIZE) {
		ea = out + *ofs;
		memset(ea, 0, size);
		ea->next_offset = cpu_to_le32(size);
		ea->flags = flags;
		ea->name_length = name_len;
		ea->value_length = cpu_to_le16(value_len);
		memcpy(ea->name, name, name_len);
		memcpy(ea->name + name_len + 1, value, value_len);
	}
	*ofs += size;
}

static struct ntfs_ea_op *ntfs_ea_op_for(struct ntfs_ea_op *ops, int nr, const struct ntfs_ea *ea)
{
	int i;

	for (i = 0; i < nr; i++)
		if (ops[i].name_len == ea->name_length &&
		    !memcmp(ops[i].name, ea->name, ea->name_length))
			return &ops[i];
	return NULL;
}

/*
 * The EA set @old with @ops applied, into @out (NULL: only its size in
 * *@len).  A replaced EA keeps its place (and flags), a new one goes at
 * the end; a name the set holds twice (damage) is kept once.
 */
static int ntfs_ea_rebuild(const void *old, u32 old_len, struct ntfs_ea_op *ops, int nr,
			   void *out, u32 *len)
{
	const struct ntfs_ea *ea = NULL;
	struct ntfs_ea_op *op;
	u32 ofs = 0;
	int i;

	for (i = 0; i < nr; i++)
		ops[i].found = false;
	while ((ea = ntfs_next_ea(old, old_len, ea)) && !IS_ERR(ea)) {
		op = ntfs_ea_op_for(ops, nr, ea);
		if (!op)
			ntfs_ea_put(out, &ofs, ea->flags, ea->name, ea->name_length,
				    ntfs_ea_value(ea), le16_to_cpu(ea->value_length));
		else if (op->value && !op->found)
			ntfs_ea_put(out, &ofs, ea->flags, op->name, op->name_len,
				    op->value, op->value_len);
		if (op)
			op->found = true;
	}
	if (IS_ERR(ea))
		return -EIO;
	for (i = 0; i < nr; i++)
		if (ops[i].value && !ops[i].found)
			ntfs_ea_put(out, &ofs, 0, ops[i].name, ops[i].name_len,
				    ops[i].value, ops[i].value_len);
	*len = ofs;
	return 0;
}

/*
 * $EA_INFORMATION of an EA set: the packed size counts each EA as OS/2
 * packed it (flags, name length, value length, name, NUL, value: no
 * offset, no padding), the unpacked size is the $EA value's length.
 */
static void ntfs_ea_info_of(const void *buf, u32 len, struct ntfs_ea_info *info)
{
	const struct ntfs_ea *ea = NULL;
	u32 packed = 0, need = 0;

	while ((ea = ntfs_next_ea(buf, len, ea)) && !IS_ERR(ea)) {
		packed += 5 + ea->name_length + le16_to_cpu(ea->value_length);
		need += !!(ea->flags & NTFS_EA_NEED_EA);
	}
	info->packed_size = cpu_to_le16(min_t(u32, packed, U16_MAX));
	info->need_ea_count = cpu_to_le16(need);
	info->unpacked_size = cpu_to_le32(len);
}

/* Set resident attribute @type of @r to @len bytes of @value, adding it if missing. */
static int ntfs_put_resident(struct ntfs_trans *t, struct ntfs_record *r, u32 type,
			     const void *value, u32 len)
{
	struct ntfs_attr *a = ntfs_rec_find(r, type, NULL, 0);
	int err;

	if (!a)
		a = ntfs_rec_insert(t, r, type, NULL, 0, false, len);
	if (IS_ERR(a))
		return PTR_ERR(a);
	err = ntfs_rec_set_value_len(t->sbi, r, a, len);
	if (!err)
		memcpy(ntfs_attr_value(a, len), value, len);
	return err;
}

/* A non-resident $EA holding @buf, in new clusters. */
static int ntfs_ea_put_nonres(struct ntfs_trans *t, struct ntfs_record *r, const void *buf,
			      u32 len)
{
	struct ntfs_attr *a = ntfs_rec_insert(t, r, NTFS_AT_EA, NULL, 0, true, 8);

	if (IS_ERR(a))
		return PTR_ERR(a);
	return ntfs_store_value(t, r, a, buf, len, len);
}

/*
 * Make $EA and $EA_INFORMATION of base record @r hold @buf (@len 0:
 * none); $EA resident unless @nonres.  An $EA that is replaced rather
 * than resized gives its clusters back at commit.
 */
static int ntfs_ea_store(struct ntfs_trans *t, struct ntfs_record *r, u64 nr,
			 const void *buf, u32 len, bool nonres)
{
	struct ntfs_attr *a = ntfs_rec_find(r, NTFS_AT_EA, NULL, 0);
	struct ntfs_ea_info info;
	int err = 0;

	if (a && (a->non_resident || nonres || !len)) {
		if (a->non_resident)
			err = ntfs_free_attr_clusters(t, nr, a);
		if (!err)
			err = ntfs_rec_drop(t, r, a);
		if (err)
			return err;
	}
	if (!len) {
		a = ntfs_rec_find(r, NTFS_AT_EA_INFO, NULL, 0);
		return a ? ntfs_rec_drop(t, r, a) : 0;
	}
	ntfs_ea_info_of(buf, len, &info);
	err = ntfs_put_resident(t, r, NTFS_AT_EA_INFO, &info, sizeof(info));
	if (err)
		return err;
	if (nonres)
		return ntfs_ea_put_nonres(t, r, buf, len);
	return ntfs_put_resident(t, r, NTFS_AT_EA, buf, len);
}

/*
 * The base record of @inode in @t, ready for an $EA change, and a copy
 * of its $EA value in *@old (NULL, 0: none; kfree() it).  EAs that a
 * file's attribute list placed in an extension record move home first.
 */
static struct ntfs_record *ntfs_ea_record(struct ntfs_trans *t, struct inode *inode,
					  void **old, u32 *old_len)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_record *r = ntfs_trans_record(t, ni->record);
	struct ntfs_attr *a;
	u64 size;
	int err;

	*old = NULL;
	*old_len = 0;
	if (IS_ERR(r))
		return r;
	err = ntfs_rec_check(t->sbi, r, ni->record);
	if (err)
		return ERR_PTR(err);
	err = ntfs_file_bring_home(t, r, ni->record, NTFS_AT_EA_INFO, NULL, 0);
	if (!err)
		err = ntfs_file_bring_home(t, r, ni->record, NTFS_AT_EA, NULL, 0);
	if (err)
		return ERR_PTR(err);
	a = ntfs_rec_find(r, NTFS_AT_EA, NULL, 0);
	if (!a)
		return r;
	size = a->non_resident ? le64_to_cpu(a->nr.data_size) : le32_to_cpu(a->r.value_length);
	if (size > NTFS_MAX_EA_SIZE || (a->non_resident && a->nr.lowest_vcn))
		return ERR_PTR(ntfs_err_ratelimited(inode->i_sb, ni->record,
						    "$EA over 64 KiB or in extents"));
	*old = kmalloc(size ? size : 1, GFP_NOFS);
	if (!*old)
		return ERR_PTR(-ENOMEM);
	if (a->non_resident)
		err = ntfs_read_nonres_attr(t->sbi, ni->record, a, *old, size);
	else
		memcpy(*old, ntfs_attr_value(a, 0), size);
	if (err) {
		kfree(*old);
		*old = NULL;
		return ERR_PTR(err);
	}
	*old_len = size;
	return r;
}

/**
 * ntfs_ea_move_out() - Move the resident $EA of a file to clusters
 * @t:		the transaction
 * @inode:	the file, its ni_lock held
 *
 * Makes room in the base record, for a new name of a file whose EAs fill
 * it.  A file without EAs, or with them in clusters already, is left alone.
 *
 * Return: 0, -ENOSPC (no free cluster), -EIO, -ENOMEM; on an error the
 * transaction must be aborted.
 */
int ntfs_ea_move_out(struct ntfs_trans *t, struct inode *inode)
{
	struct ntfs_attr *a;
	struct ntfs_record *r;
	void *value;
	u32 len;
	int err = 0;

	r = ntfs_ea_record(t, inode, &value, &len);
	if (IS_ERR(r))
		return PTR_ERR(r);
	a = ntfs_rec_find(r, NTFS_AT_EA, NULL, 0);
	if (a && !a->non_resident && len)
		err = ntfs_ea_store(t, r, NTFS_I(inode)->record, value, len, true);
	kfree(value);
	return err;
}

/*
 * Base record bytes a non-resident $EA of up to 64 KiB takes, with its
 * list entry: the header, mapping pairs of a few runs, the entry.
 */
#define NTFS_EA_NONRES_ROOM	(0x48 + 24 + 32)

/*
 * Store the new EA set into the base record: resident if it fits, after
 * moving the file's resident data out if that makes it fit (*@moved: the
 * caller reloads the stream on abort), else in clusters, after names and
 * extents made the room for its header where needed.
 */
static int ntfs_ea_write(struct ntfs_trans *t, struct inode *inode, struct ntfs_record *r,
			 const void *buf, u32 len, bool *moved)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	int err = ntfs_ea_store(t, r, ni->record, buf, len, false);
	struct ntfs_attr *a;
	u32 freed;

	if (err == -ENOSPC && S_ISREG(inode->i_mode) && ni->stream.resident &&
	    ni->stream.data_size && ni->stream.type == NTFS_AT_DATA) {
		*moved = true;
		err = ntfs_stream_make_nonresident(t, inode);
		if (!err)
			err = ntfs_ea_store(t, r, ni->record, buf, len, false);
	}
	if (err != -ENOSPC)
		return err;
	/* The resident $EA it replaces gives its room. */
	a = ntfs_rec_find(r, NTFS_AT_EA, NULL, 0);
	freed = a && !a->non_resident ? le32_to_cpu(a->length) : 0;
	if (freed < NTFS_EA_NONRES_ROOM)
		err = ntfs_file_make_room(t, r, ni->record, NTFS_EA_NONRES_ROOM - freed);
	else
		err = 0;
	return err ? err : ntfs_ea_store(t, r, ni->record, buf, len, true);
}

/**
 * ntfs_ea_apply() - Change EAs of a file inside a transaction
 * @t:		the transaction
 * @inode:	the file, its ni_lock held
 * @ops:	the EAs to set or remove
 * @nr:		entries in @ops
 * @flags:	XATTR_CREATE (none of them may exist), XATTR_REPLACE (all
 *		must exist; a removal always needs the EA)
 * @moved:	set when the file's data moved out of the record for room
 *
 * Return: 0, -EEXIST, -ENODATA, -ENOSPC (the set exceeds 64 KiB, the
 * record or the volume), -EOPNOTSUPP, -EIO for a damaged set, -ENOMEM.
 */
static int ntfs_ea_apply(struct ntfs_trans *t, struct inode *inode, struct ntfs_ea_op *ops,
			 int nr, int flags, bool *moved)
{
	struct ntfs_record *r;
	u32 old_len, len;
	void *old, *buf;
	int i, err;

	r = ntfs_ea_record(t, inode, &old, &old_len);
	if (IS_ERR(r))
		return PTR_ERR(r);
	err = ntfs_ea_rebuild(old, old_len, ops, nr, NULL, &len);
	if (err)
		err = ntfs_err_ratelimited(inode->i_sb, inode->i_ino, "damaged $EA");
	for (i = 0; !err && i < nr; i++) {
		if (ops[i].found && (flags & XATTR_CREATE))
			err = -EEXIST;
		else if (!ops[i].found && ((!ops[i].value && !ops[i].may_miss) ||
					   (flags & XATTR_REPLACE)))
			err = -ENODATA;
	}
	if (!err && len > NTFS_MAX_EA_SIZE)
		err = -ENOSPC;
	buf = err ? NULL : kmalloc(len ? len : 1, GFP_NOFS);
	if (!err && !buf)
		err = -ENOMEM;
	if (!err) {
		ntfs_ea_rebuild(old, old_len, ops, nr, buf, &len);
		err = ntfs_ea_write(t, inode, r, buf, len, moved);
	}
	kfree(buf);
	kfree(old);
	return err;
}

/*
 * Begin a transaction that changes EAs.  A base record full of names
 * moves some to a new extension record to make room (extrec.c), so a
 * full $MFT grows first, as for a new name.
 */
static int ntfs_ea_begin(struct inode *inode, struct ntfs_trans *t)
{
	int err = ntfs_mft_ensure_free(NTFS_SB(inode->i_sb));

	return err ? err : ntfs_trans_begin(NTFS_SB(inode->i_sb), t);
}

/* ntfs_ea_apply() in a transaction of its own; ctime follows a change. */
static int ntfs_ea_change(struct inode *inode, struct ntfs_ea_op *ops, int nr, int flags)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	bool moved = false;
	struct ntfs_trans t;
	int err = ntfs_ea_begin(inode, &t);

	if (err)
		return err;
	mutex_lock(&ni->ni_lock);
	err = ntfs_ea_apply(&t, inode, ops, nr, flags, &moved);
	if (!err) {
		err = ntfs_trans_commit(&t);
	} else {
		ntfs_trans_fail(&t, err);
		if (moved)
			ntfs_stream_reload(inode);
	}
	mutex_unlock(&ni->ni_lock);
	if (!err) {
		inode_set_ctime_current(inode);
		mark_inode_dirty(inode);
	}
	return err;
}

static int ntfs_user_xattr_set(const struct xattr_handler *h, struct mnt_idmap *idmap,
			       struct dentry *unused, struct inode *inode, const char *name,
			       const void *value, size_t size, int flags)
{
	char full[XATTR_NAME_MAX + 1];
	struct ntfs_ea_op op;
	int n;

	n = snprintf(full, sizeof(full), XATTR_USER_PREFIX "%s", name);
	if (n > NTFS_EA_MAX_NAME)
		return -ERANGE;
	if (value && size > NTFS_EA_MAX_VALUE)
		return -E2BIG;
	if (ntfs_is_metafile(inode))
		return -EPERM;
	if (NTFS_I(inode)->reparse_tag)
		return -EOPNOTSUPP;	/* NTFS keeps EAs and reparse points apart */
	op.name = full;
	op.name_len = n;
	op.value = value;	/* NULL: removexattr() (the VFS passes "" for 0 bytes) */
	op.value_len = value ? size : 0;
	return ntfs_ea_change(inode, &op, 1, flags);
}

/* ---- POSIX ACLs: changes ------------------------------------------------ */

#ifdef CONFIG_FS_POSIX_ACL
/*
 * A change of one POSIX ACL of a file: @acl (a reference; NULL removes
 * the ACL) as the EA operation @op that stores it, its value in @blob.
 * @op.name is NULL for no change.
 */
struct ntfs_acl_change {
	int			type;
	struct posix_acl	*acl;
	void			*blob;
	struct ntfs_ea_op	op;
};

/*
 * Make @c the change that stores @acl as the ACL of @type; removing an
 * ACL the file does not have is no error, as on other file systems.
 */
static int ntfs_acl_change_init(struct ntfs_acl_change *c, int type, struct posix_acl *acl)
{
	const char *name = posix_acl_xattr_name(type);
	size_t size;
	int n;

	*c = (struct ntfs_acl_change){ .type = type };
	c->op.name = name;
	c->op.name_len = strlen(name);
	c->op.may_miss = true;
	if (!acl)
		return 0;
	size = posix_acl_xattr_size(acl->a_count);
	if (size > NTFS_EA_MAX_VALUE)
		return -ENOSPC;		/* as for a set over 64 KiB */
	c->blob = kmalloc(size, GFP_NOFS);
	if (!c->blob)
		return -ENOMEM;
	n = posix_acl_to_xattr(&init_user_ns, acl, c->blob, size);
	if (n < 0) {
		kfree(c->blob);
		c->blob = NULL;
		return n;
	}
	c->acl = posix_acl_dup(acl);
	c->op.value = c->blob;
	c->op.value_len = n;
	return 0;
}

/* The EA operation of @c, NULL for none. */
static struct ntfs_ea_op *ntfs_acl_change_op(struct ntfs_acl_change *c)
{
	return c->op.name ? &c->op : NULL;
}

/* After @c was stored (@stored) or not: the ACL cache, then @c's memory. */
static void ntfs_acl_change_end(struct inode *inode, struct ntfs_acl_change *c, bool stored)
{
	if (stored && c->op.name)
		set_cached_acl(inode, c->type, c->acl);
	posix_acl_release(c->acl);
	kfree(c->blob);
}

/*
 * chmod on an acl mount: a file's access ACL takes the new mode's bits in
 * its owner, mask (or group) and other entries (__posix_acl_chmod()).
 * *@c, zeroed by the caller, becomes the change to store with the mode; it
 * stays no change for a file without one.
 */
static int ntfs_acl_chmod(struct inode *inode, struct ntfs_acl_change *c)
{
	struct posix_acl *acl;
	int err;

	if (!IS_POSIXACL(inode))
		return 0;
	acl = get_inode_acl(inode, ACL_TYPE_ACCESS);
	if (IS_ERR_OR_NULL(acl))
		return PTR_ERR_OR_ZERO(acl);
	err = __posix_acl_chmod(&acl, GFP_NOFS, inode->i_mode);
	if (err)
		return err;
	err = ntfs_acl_change_init(c, ACL_TYPE_ACCESS, acl);
	posix_acl_release(acl);
	return err;
}
#else
struct ntfs_acl_change {
	struct ntfs_ea_op	op;
};

static struct ntfs_ea_op *ntfs_acl_change_op(struct ntfs_acl_change *c)
{
	return NULL;
}

static void ntfs_acl_change_end(struct inode *inode, struct ntfs_acl_change *c, bool stored)
{
}

static int ntfs_acl_chmod(struct inode *inode, struct ntfs_acl_change *c)
{
	return 0;
}
#endif

/* ---- owner, mode and file attributes when writing ------------------------ */

/* FILE_ATTRIBUTE_* a user may change; the others say what the file is. */
#define NTFS_SETTABLE_ATTRS	(FILE_ATTRIBUTE_READONLY | FILE_ATTRIBUTE_HIDDEN |	\
				 FILE_ATTRIBUTE_SYSTEM | FILE_ATTRIBUTE_ARCHIVE |	\
				 FILE_ATTRIBUTE_TEMPORARY | FILE_ATTRIBUTE_OFFLINE |	\
				 FILE_ATTRIBUTE_NOT_INDEXED)

/*
 * Give the @mask bits of the file attributes in $STANDARD_INFORMATION the
 * values they have in @attrs; *@now: all of them afterwards.
 */
static int ntfs_si_set_attrs(struct ntfs_trans *t, struct inode *inode, u32 mask, u32 attrs,
			     u32 *now)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_record *r = ntfs_trans_record(t, ni->record);
	struct ntfs_std_info *si;
	struct ntfs_attr *a;
	int err;

	if (IS_ERR(r))
		return PTR_ERR(r);
	err = ntfs_rec_check(t->sbi, r, ni->record);
	if (err)
		return err;
	a = ntfs_rec_find(r, NTFS_AT_STANDARD_INFO, NULL, 0);
	si = a ? ntfs_attr_value(a, NTFS_STD_INFO_V1_SIZE) : NULL;
	if (!si)
		return ntfs_err_ratelimited(inode->i_sb, ni->record,
					    "no $STANDARD_INFORMATION in the base record");
	*now = (le32_to_cpu(si->attributes) & ~mask) | (attrs & mask);
	si->attributes = cpu_to_le32(*now);
	return 0;
}

/*
 * What changed of owner, group and mode as WSL stores them: $LXUID,
 * $LXGID and $LXMOD, 4-byte little-endian values, $LXMOD with the type
 * bits.  Only what @valid names is written, so a chmod does not pin the
 * owner a mount gave by default.  @acl: an ACL's EA to change with them,
 * or NULL.
 */
static int ntfs_wsl_store(struct ntfs_trans *t, struct inode *inode, unsigned int valid,
			  const struct ntfs_ea_op *acl, bool *moved)
{
	__le32 uid = cpu_to_le32(from_kuid(&init_user_ns, inode->i_uid));
	__le32 gid = cpu_to_le32(from_kgid(&init_user_ns, inode->i_gid));
	__le32 mode = cpu_to_le32(inode->i_mode);
	struct ntfs_ea_op ops[4];
	int nr = 0;

	if (valid & ATTR_UID)
		ops[nr++] = (struct ntfs_ea_op){ "$LXUID", 6, &uid, 4 };
	if (valid & ATTR_GID)
		ops[nr++] = (struct ntfs_ea_op){ "$LXGID", 6, &gid, 4 };
	if (valid & ATTR_MODE)
		ops[nr++] = (struct ntfs_ea_op){ "$LXMOD", 6, &mode, 4 };
	if (acl)
		ops[nr++] = *acl;
	return nr ? ntfs_ea_apply(t, inode, ops, nr, 0, moved) : 0;
}

/* The reparse tags WSL gives FIFOs, sockets and device nodes. */
static bool ntfs_wsl_special_tag(u32 tag)
{
	return tag == IO_REPARSE_TAG_LX_FIFO || tag == IO_REPARSE_TAG_AF_UNIX ||
	       tag == IO_REPARSE_TAG_LX_CHR || tag == IO_REPARSE_TAG_LX_BLK;
}

/**
 * ntfs_wsl_make_special() - Give a new file the EAs of a WSL special file
 * @inode:	the new file, a reparse point with the WSL tag of its type
 * @mode:	its type and permission bits
 * @rdev:	its device numbers, for character and block devices
 *
 * WSL knows a FIFO, socket or device node by that tag and by $LXMOD, the
 * whole st_mode; $LXDEV holds major and minor, $LXUID and $LXGID the owner
 * the file shows.  The inode turns special once they are written.
 *
 * Return: 0, -ENOSPC, -ENOMEM, -EIO.
 */
int ntfs_wsl_make_special(struct inode *inode, umode_t mode, dev_t rdev)
{
	__le32 uid = cpu_to_le32(from_kuid(&init_user_ns, inode->i_uid));
	__le32 gid = cpu_to_le32(from_kgid(&init_user_ns, inode->i_gid));
	__le32 dev[2] = { cpu_to_le32(MAJOR(rdev)), cpu_to_le32(MINOR(rdev)) };
	__le32 lxmod = cpu_to_le32(mode);
	struct ntfs_ea_op ops[] = {
		{ "$LXUID", 6, &uid, 4 },
		{ "$LXGID", 6, &gid, 4 },
		{ "$LXMOD", 6, &lxmod, 4 },
		{ "$LXDEV", 6, dev, sizeof(dev) },
	};
	int err = ntfs_ea_change(inode, ops, S_ISCHR(mode) || S_ISBLK(mode) ? 4 : 3,
				 XATTR_CREATE);

	if (!err)
		init_special_inode(inode, mode, rdev);
	return err;
}

/*
 * The WSL EAs, an ACL's EA (@acl, or NULL) and, for a file's mode, the
 * read-only flag; one transaction.
 */
static int ntfs_store_ids(struct inode *inode, unsigned int valid, const struct ntfs_ea_op *acl)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	bool ro = !(inode->i_mode & 0222), moved = false;
	u32 attrs = ni->attributes;
	struct ntfs_trans t;
	int err = ntfs_ea_begin(inode, &t);

	if (err)
		return err;
	mutex_lock(&ni->ni_lock);
	err = ntfs_wsl_store(&t, inode, valid, acl, &moved);
	if (!err && (valid & ATTR_MODE) && S_ISREG(inode->i_mode))
		err = ntfs_si_set_attrs(&t, inode, FILE_ATTRIBUTE_READONLY,
					ro ? FILE_ATTRIBUTE_READONLY : 0, &attrs);
	if (!err) {
		err = ntfs_trans_commit(&t);
		if (!err)
			ni->attributes = attrs;
	} else {
		ntfs_trans_fail(&t, err);
		if (moved)
			ntfs_stream_reload(inode);
	}
	mutex_unlock(&ni->ni_lock);
	return err;
}

/**
 * ntfs_setattr_ids() - chmod and chown that survive a remount
 * @idmap:	idmap of the mount
 * @inode:	the object, i_rwsem held
 * @attr:	the changes, checked by setattr_prepare()
 *
 * Copies @attr into the inode (setattr_copy(): it settles what a chown
 * does to the set-id bits), then stores what changed of owner, group and
 * mode as WSL's EAs, and for a regular file whether any write bit is left
 * as FILE_ATTRIBUTE_READONLY (chmod a-w sets it, chmod +w clears it).
 * The EAs are stored even when uid=, gid=, umask=, fmask= or dmask= were
 * given: the read path then ignores them, a mount without the options
 * applies them.  Objects with a reparse point (symlinks, junctions) keep
 * the change in memory only: NTFS gives them no EAs; WSL's FIFOs, sockets
 * and device nodes are reparse points with EAs and store it.  Metafiles (shown
 * with showmeta) refuse the change.  On an acl mount, a chmod changes the
 * file's access ACL to match, in the same transaction.
 *
 * Return: 0, -EPERM for a metafile, or an error with owner, group and
 * mode as they were.
 */
int ntfs_setattr_ids(struct mnt_idmap *idmap, struct inode *inode, struct iattr *attr)
{
	unsigned int valid = attr->ia_valid & (ATTR_UID | ATTR_GID | ATTR_MODE);
	struct ntfs_acl_change acl = {};
	umode_t mode = inode->i_mode;
	kuid_t uid = inode->i_uid;
	kgid_t gid = inode->i_gid;
	u32 tag;
	int err = 0;

	if (valid && ntfs_is_metafile(inode))
		return -EPERM;
	setattr_copy(idmap, inode, attr);
	/* Links and other reparse points keep no mode; WSL's special files do. */
	tag = NTFS_I(inode)->reparse_tag;
	if (!valid || (tag && !ntfs_wsl_special_tag(tag)))
		return 0;
	if (valid & ATTR_MODE)
		err = ntfs_acl_chmod(inode, &acl);
	if (!err) {
		err = ntfs_store_ids(inode, valid, ntfs_acl_change_op(&acl));
		ntfs_acl_change_end(inode, &acl, !err);
	}
	if (err) {
		inode->i_mode = mode;
		inode->i_uid = uid;
		inode->i_gid = gid;
	}
	return err;
}

/* ---- POSIX ACLs: setfacl and new files ---------------------------------- */

/**
 * ntfs_ea_create() - Give a new file its first EAs
 * @t:		the transaction that creates it
 * @r:		its base record, new in @t, its names in it
 * @nr:		the record's number
 * @ne:		the EA set, from ntfs_acl_create()
 *
 * The set goes into the record when it fits, else into clusters, after
 * names moved to an extension record made the room for the header.
 *
 * Return: 0, -ENOSPC, -EIO, -ENOMEM; on an error the transaction must be
 * aborted.
 */
int ntfs_ea_create(struct ntfs_trans *t, struct ntfs_record *r, u64 nr,
		   const struct ntfs_new_eas *ne)
{
	int err;

	if (!ne->len)
		return 0;
	err = ntfs_ea_store(t, r, nr, ne->buf, ne->len, false);
	if (err != -ENOSPC)
		return err;
	err = ntfs_file_make_room(t, r, nr, NTFS_EA_NONRES_ROOM);
	return err ? err : ntfs_ea_store(t, r, nr, ne->buf, ne->len, true);
}

#ifdef CONFIG_FS_POSIX_ACL
/**
 * ntfs_set_acl() - Store or remove a POSIX ACL (setfacl)
 * @idmap:	idmap of the mount
 * @dentry:	the object, its i_rwsem held
 * @acl:	the ACL, checked by the VFS; NULL removes it
 * @type:	ACL_TYPE_ACCESS, or ACL_TYPE_DEFAULT (directories: the VFS
 *		checks)
 *
 * An access ACL gives the mode its permission bits, and one that says no
 * more than the mode is not kept (posix_acl_update_mode()); the mode is
 * stored as chmod stores it ($LXMOD, the read-only flag) in the
 * transaction that writes the EA.  Reparse points other than WSL's
 * special files have no EAs.
 *
 * Return: 0, -EPERM for a metafile, -EOPNOTSUPP for a reparse point (or
 * a file with an attribute list), -ENOSPC when the file's EAs would pass
 * 64 KiB or the volume is full, -EIO, -ENOMEM.
 */
int ntfs_set_acl(struct mnt_idmap *idmap, struct dentry *dentry, struct posix_acl *acl,
		 int type)
{
	struct inode *inode = d_inode(dentry);
	u32 tag = NTFS_I(inode)->reparse_tag;
	umode_t old = inode->i_mode, mode = old;
	struct ntfs_acl_change c;
	int err;

	if (ntfs_is_metafile(inode))
		return -EPERM;
	if (tag && !ntfs_wsl_special_tag(tag))
		return -EOPNOTSUPP;
	if (type == ACL_TYPE_ACCESS && acl) {
		err = posix_acl_update_mode(idmap, inode, &mode, &acl);
		if (err)
			return err;
	}
	err = ntfs_acl_change_init(&c, type, acl);
	if (err)
		return err;
	inode->i_mode = mode;
	err = ntfs_store_ids(inode, mode != old ? ATTR_MODE : 0, &c.op);
	ntfs_acl_change_end(inode, &c, !err);
	if (err) {
		inode->i_mode = old;
		return err;
	}
	inode_set_ctime_current(inode);
	mark_inode_dirty(inode);
	return 0;
}

/* The EA set of @ops alone (no removals), in a new buffer *@buf. */
static int ntfs_ea_build(struct ntfs_ea_op *ops, int nr, void **buf, u32 *len)
{
	int err = ntfs_ea_rebuild(NULL, 0, ops, nr, NULL, len);

	if (err)
		return err;
	if (*len > NTFS_MAX_EA_SIZE)
		return -ENOSPC;
	*buf = kmalloc(*len ? *len : 1, GFP_NOFS);
	if (!*buf)
		return -ENOMEM;
	return ntfs_ea_rebuild(NULL, 0, ops, nr, *buf, len);
}

/* The EAs of a new file: @lxmod its mode, @acl and @dacl its ACLs (or NULL). */
static int ntfs_acl_new_eas(__le32 *lxmod, struct posix_acl *acl, struct posix_acl *dacl,
			    struct ntfs_new_eas *ne)
{
	struct ntfs_acl_change c[2] = {};
	struct ntfs_ea_op ops[3];
	int nr = 0, err = 0;

	if (lxmod)
		ops[nr++] = (struct ntfs_ea_op){ "$LXMOD", 6, lxmod, 4 };
	if (acl) {
		err = ntfs_acl_change_init(&c[0], ACL_TYPE_ACCESS, acl);
		ops[nr++] = c[0].op;
	}
	if (!err && dacl) {
		err = ntfs_acl_change_init(&c[1], ACL_TYPE_DEFAULT, dacl);
		ops[nr++] = c[1].op;
	}
	if (!err)
		err = ntfs_ea_build(ops, nr, &ne->buf, &ne->len);
	ntfs_acl_change_end(NULL, &c[0], false);
	ntfs_acl_change_end(NULL, &c[1], false);
	return err;
}

/**
 * ntfs_acl_create() - Mode and EAs of a new file on an acl mount
 * @dir:	the directory it is made in
 * @mode:	its type and the permissions asked for (the VFS leaves the
 *		umask to posix_acl_create() on acl mounts)
 * @lxmod:	store the mode as $LXMOD (WSL's FIFOs, sockets and device
 *		nodes get theirs from ntfs_wsl_make_special())
 * @ne:		set to the mode and the EA set (kfree() ne->buf)
 *
 * posix_acl_create() applies @dir's default ACL, or the umask when it has
 * none: the file takes the access ACL it derives, a directory the default
 * ACL too.  ntfs_ea_create() stores them in the transaction that makes
 * the file, and reading the new inode caches them.
 *
 * Return: 0, -EIO (a damaged default ACL), -ENOSPC (ACLs over 64 KiB),
 * -ENOMEM.
 */
int ntfs_acl_create(struct inode *dir, umode_t mode, bool lxmod, struct ntfs_new_eas *ne)
{
	struct posix_acl *acl, *dacl;
	__le32 lx;
	int err;

	*ne = (struct ntfs_new_eas){};
	err = posix_acl_create(dir, &mode, &dacl, &acl);
	if (err)
		return err;
	ne->mode = mode;
	lx = cpu_to_le32(mode);
	err = ntfs_acl_new_eas(lxmod ? &lx : NULL, acl, dacl, ne);
	posix_acl_release(acl);
	posix_acl_release(dacl);
	return err;
}
#endif

/*
 * The write bits follow the read-only flag as a new mount would set them
 * (without $LXMOD): gone when it is set, the mask's back when cleared.
 */
static void ntfs_readonly_mode(struct inode *inode, u32 old, u32 now)
{
	const struct ntfs_options *o = &NTFS_SB(inode->i_sb)->opt;

	if (!S_ISREG(inode->i_mode) || !((old ^ now) & FILE_ATTRIBUTE_READONLY))
		return;
	if (now & FILE_ATTRIBUTE_READONLY)
		inode->i_mode &= ~0222;
	else if (!(inode->i_mode & 0222))
		inode->i_mode |= 0222 & ~o->fmask;
}

/* Store the settable attributes of @attrs (@mask: the bits the format carries). */
static int ntfs_set_attributes(struct inode *inode, u32 attrs, u32 mask)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_trans t;
	u32 old = ni->attributes, now;
	int err = ntfs_trans_begin(NTFS_SB(inode->i_sb), &t);

	if (err)
		return err;
	mutex_lock(&ni->ni_lock);
	err = ntfs_si_set_attrs(&t, inode, NTFS_SETTABLE_ATTRS & mask, attrs, &now);
	if (!err) {
		err = ntfs_trans_commit(&t);
		if (!err)
			ni->attributes = now;
	} else {
		ntfs_trans_fail(&t, err);
	}
	mutex_unlock(&ni->ni_lock);
	if (err)
		return err;
	ntfs_readonly_mode(inode, old, now);
	if (NTFS_SB(inode->i_sb)->opt.sys_immutable && ni->record >= NTFS_FIRST_USER_INO)
		inode_set_flags(inode, (now & FILE_ATTRIBUTE_SYSTEM) ? S_IMMUTABLE : 0,
				S_IMMUTABLE);
	inode_set_ctime_current(inode);
	mark_inode_dirty(inode);
	return 0;
}

/*
 * system.ntfs_attrib (4 bytes, little-endian), system.ntfs_attrib_be (big-
 * endian) and system.dos_attrib (1 byte, the DOS bits only): the formats
 * of the getters.  Bits that say what the file is (directory, reparse
 * point, compressed, sparse, encrypted, ...) are ignored, so that a value
 * read can be written back.
 */
/*
 * system.ntfs_security: a self-relative descriptor for the file, shared
 * through $Secure (secure.c).  Every file has one: it cannot be removed.
 * Changing it takes the owner or CAP_FOWNER, as a chmod does.
 */
static int ntfs_security_xattr_set(struct mnt_idmap *idmap, struct inode *inode,
				   const void *value, size_t size, int flags)
{
	if (!value)
		return -EOPNOTSUPP;
	if (flags & XATTR_CREATE)
		return -EEXIST;
	if (!inode_owner_or_capable(idmap, inode) || ntfs_is_metafile(inode))
		return -EPERM;
	return ntfs_security_set(inode, value, size);
}

static int ntfs_xattr_set(const struct xattr_handler *h, struct mnt_idmap *idmap,
			  struct dentry *unused, struct inode *inode, const char *name,
			  const void *value, size_t size, int flags)
{
	bool be = !strcmp(name, "ntfs_attrib_be");
	u32 attrs, mask = ~0U;

	if (!strcmp(name, "ntfs_security"))
		return ntfs_security_xattr_set(idmap, inode, value, size, flags);
	if (be || !strcmp(name, "ntfs_attrib")) {
		if (!value || size != 4)
			return value ? -EINVAL : -EOPNOTSUPP;	/* every file has them */
		attrs = be ? get_unaligned_be32(value) : get_unaligned_le32(value);
	} else if (!strcmp(name, "dos_attrib")) {
		if (!value || size != 1)
			return value ? -EINVAL : -EOPNOTSUPP;
		attrs = *(const u8 *)value;
		mask = 0xff;
	} else {
		return -EOPNOTSUPP;
	}
	if (flags & XATTR_CREATE)
		return -EEXIST;
	if (!inode_owner_or_capable(idmap, inode))
		return -EPERM;
	if (ntfs_is_metafile(inode))
		return -EPERM;
	return ntfs_set_attributes(inode, attrs, mask);
}

/* ---- security descriptors ----------------------------------------------- */

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
	.set	= ntfs_xattr_set,
};

static const struct xattr_handler ntfs_user_xattr_handler = {
	.prefix	= XATTR_USER_PREFIX,
	.get	= ntfs_user_xattr_get,
	.set	= ntfs_user_xattr_set,
};

const struct xattr_handler * const ntfs_xattr_handlers[] = {
	&ntfs_system_xattr_handler,
	&ntfs_user_xattr_handler,
	NULL,
};
