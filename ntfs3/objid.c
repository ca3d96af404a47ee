// SPDX-License-Identifier: GPL-2.0
/*
 * Object ids: $Extend\$ObjId:$O lists every file's $OBJECT_ID by its GUID
 * (collation ULONGS; the data: the file's reference and its birth ids),
 * where Windows' link tracking looks files up and chkdsk checks them.
 * This driver gives no file an object id; a file that has one leaves the
 * index with its last name.
 */

#include "ntfs3.h"

static const __le16 ntfs_objid_name[] = { cpu_to_le16('$'), cpu_to_le16('O'), cpu_to_le16('b'),
					  cpu_to_le16('j'), cpu_to_le16('I'), cpu_to_le16('d') };
static const __le16 ntfs_o_name[] = { cpu_to_le16('$'), cpu_to_le16('O') };

/* Lockdep subclass of $ObjId's ni_lock: after the file's, apart from $R's. */
#define NTFS_OBJID_LOCK_CLASS	7

/* ULONGS collation of the 16-byte GUID: four little-endian u32s in turn. */
static int ntfs_o_cmp(const void *key, const struct ntfs_index_entry *e)
{
	return ntfs_ulongs_cmp(key, e, NTFS_OBJECT_ID_LEN);
}

static const struct ntfs_view ntfs_o_view = {
	.name		= ntfs_o_name,
	.name_len	= ARRAY_SIZE(ntfs_o_name),
	.key_len	= NTFS_OBJECT_ID_LEN,
	.collation	= NTFS_COLLATION_ULONGS,
	.cmp		= ntfs_o_cmp,
};

/**
 * ntfs_objid_index_open() - Load $Extend\$ObjId's $O for writing
 * @sbi:	the volume, being made writable
 * @ext:	the $Extend directory
 *
 * A volume without a usable $O is said once (none at all is normal for
 * one mkntfs made without it): object ids then stay listed after their
 * files.
 */
void ntfs_objid_index_open(struct ntfs_sb *sbi, struct inode *ext)
{
	struct inode *ix = ntfs_extend_view_iget(ext, ntfs_objid_name,
						 ARRAY_SIZE(ntfs_objid_name), &ntfs_o_view);

	if (IS_ERR(ix)) {
		if (PTR_ERR(ix) != -ENOENT)
			pr_warn("ntfs3 (%s): no usable $Extend\\$ObjId (%ld): object ids stay listed after their files\n",
				sbi->sb->s_id, PTR_ERR(ix));
		ix = NULL;
	}
	mutex_lock(&sbi->reparse_lock);
	iput(sbi->objid_ix);
	sbi->objid_ix = ix;
	mutex_unlock(&sbi->reparse_lock);
}

/**
 * ntfs_objid_index_del() - Take a deleted file's object id out of $O
 * @t:		the transaction that frees the file
 * @oid:	the first 16 bytes of its $OBJECT_ID
 *
 * Takes $ObjId's ni_lock (after the file's) until @t ends.  An id $O does not list is
 * reported and ignored: a damaged index never keeps a file from going.
 *
 * Return: 0, -ENOMEM, -EIO.
 */
int ntfs_objid_index_del(struct ntfs_trans *t, const u8 *oid)
{
	struct ntfs_sb *sbi = t->sbi;
	struct ntfs_inode *ni;
	struct inode *ix;
	int err;

	mutex_lock(&sbi->reparse_lock);
	ix = sbi->objid_ix;
	mutex_unlock(&sbi->reparse_lock);
	if (!ix)
		return 0;
	ni = NTFS_I(ix);
	err = ntfs_trans_lock(t, ni, NTFS_OBJID_LOCK_CLASS);
	if (err)
		return err;
	err = ntfs_view_delete(t, ix, &ntfs_o_view, oid);
	if (err == -ENOENT) {
		ntfs_err_ratelimited(sbi->sb, ni->record, "$O does not list object id %pUl",
				     oid);
		err = 0;
	}
	return err;
}
