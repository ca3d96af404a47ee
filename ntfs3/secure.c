// SPDX-License-Identifier: GPL-2.0
/*
 * $Secure: the security descriptors that files share by id.  $SDS holds
 * them, each after a header naming its hash, id, offset and length, in
 * 256 KiB blocks that are each followed by a mirror copy; $SII indexes
 * the entries by id, $SDH by hash and id; a file names its descriptor's
 * id in $STANDARD_INFORMATION.  Reading looks ids up in a map built from
 * $SDS once.  A descriptor set through system.ntfs_security reuses an
 * identical one, or goes to the end of $SDS (and its mirror) under a new
 * id, indexed in $SII and $SDH in the same transaction.
 */

#include <linux/bitops.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <linux/xarray.h>

#include "ntfs3.h"

static const __le16 ntfs_sds_name[] = { cpu_to_le16('$'), cpu_to_le16('S'),
					cpu_to_le16('D'), cpu_to_le16('S') };
static const __le16 ntfs_sii_name[] = { cpu_to_le16('$'), cpu_to_le16('S'),
					cpu_to_le16('I'), cpu_to_le16('I') };
static const __le16 ntfs_sdh_name[] = { cpu_to_le16('$'), cpu_to_le16('S'),
					cpu_to_le16('D'), cpu_to_le16('H') };

/* Lockdep subclass of $Secure's stream and index inodes: after a file's. */
#define NTFS_SECURE_LOCK_CLASS	6

/* Ids below this one are never given (Windows starts at 0x100). */
#define NTFS_FIRST_SECURITY_ID	0x100

/* ---- reading ------------------------------------------------------------ */

/*
 * Set one of $Secure's inode pointers (@inode may be NULL): under
 * sds_ptr_lock too, for ntfs_trans_flush(), which pins them without
 * sds_lock.  The old inode's reference is dropped.
 */
static void ntfs_secure_publish(struct ntfs_sb *sbi, struct inode **where, struct inode *inode)
{
	struct inode *old;

	spin_lock(&sbi->sds_ptr_lock);
	old = *where;
	*where = inode;
	spin_unlock(&sbi->sds_ptr_lock);
	iput(old);
}

/* Note the entry at @pos: its id's place, its hash, the end of $SDS used. */
static int ntfs_sds_note(struct ntfs_sb *sbi, const struct ntfs_sds_header *h, u64 pos)
{
	u32 id = le32_to_cpu(h->security_id);
	int err;

	sbi->sds_end = max(sbi->sds_end, pos + round_up(le32_to_cpu(h->length), 16));
	if (!id)
		return 0;
	sbi->sds_next_id = max(sbi->sds_next_id, id + 1);
	err = xa_err(xa_store(&sbi->sds_map, id, xa_mk_value(pos), GFP_NOFS));
	if (!err)	/* the first id of a hash; others are found by a scan */
		err = xa_err(xa_cmpxchg(&sbi->sdh_map, le32_to_cpu(h->hash), NULL,
					xa_mk_value(id), GFP_NOFS));
	return err;
}

/*
 * Index $Secure:$SDS by security id, once: each 256 KiB block of $SDS is
 * followed by a mirror copy, entries are 16-byte aligned, and an entry
 * records its own offset, which guards against reading garbage.
 */
static int ntfs_sds_index(struct ntfs_sb *sbi)
{
	struct ntfs_sds_header h;
	struct inode *inode;
	u64 pos = 0, size;
	int err = 0;

	inode = ntfs_stream_iget(sbi->sb, NTFS_SECURE_INO, NTFS_AT_DATA, ntfs_sds_name,
				 ARRAY_SIZE(ntfs_sds_name));
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	/* attrib.c finds the stream's attribute by its name when $SDS grows. */
	NTFS_I(inode)->stream.name = (__le16 *)ntfs_sds_name;
	NTFS_I(inode)->stream.name_len = ARRAY_SIZE(ntfs_sds_name);
	sbi->sds_next_id = NTFS_FIRST_SECURITY_ID;
	sbi->sds_end = 0;
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
		err = ntfs_sds_note(sbi, &h, pos);
		pos += round_up(len, 16);
	}
	if (!err)
		ntfs_secure_publish(sbi, &sbi->sds, inode);
	else
		iput(inode);
	return err;
}

/* $SDS indexed, under sds_lock: 0, or why it cannot be. */
static int ntfs_sds_ready(struct ntfs_sb *sbi)
{
	int err = 0;

	lockdep_assert_held(&sbi->sds_lock);
	if (!sbi->sds && !sbi->sds_failed) {
		err = ntfs_sds_index(sbi);
		/* Only corruption is final: a kill or ENOMEM may do better next time. */
		sbi->sds_failed = err == -EIO;
		if (err) {
			xa_destroy(&sbi->sds_map);
			xa_destroy(&sbi->sdh_map);
		}
	}
	if (!sbi->sds)
		return err ? err : -EIO;
	return 0;
}

/* The header of the entry at @pos, checked against its place. */
static int ntfs_sds_header(struct ntfs_sb *sbi, u64 pos, struct ntfs_sds_header *h)
{
	int err = ntfs_read_stream(sbi->sds, pos, h, sizeof(*h));

	if (err)
		return err;
	/* Checked when indexed, but the device may have changed since. */
	if (le32_to_cpu(h->length) < sizeof(*h) || le32_to_cpu(h->length) > NTFS_SDS_BLOCK ||
	    le64_to_cpu(h->offset) != pos)
		return -EIO;
	return 0;
}

/* The descriptor of the entry at @pos, whose header is @h, into a new buffer. */
static int ntfs_sds_body(struct ntfs_sb *sbi, u64 pos, const struct ntfs_sds_header *h,
			 void **out, u32 *len)
{
	int err;

	*len = le32_to_cpu(h->length) - sizeof(*h);
	*out = kmalloc(*len ? *len : 1, GFP_NOFS);
	if (!*out)
		return -ENOMEM;
	err = ntfs_read_stream(sbi->sds, pos + sizeof(*h), *out, *len);
	if (err)
		kfree(*out);
	return err;
}

/**
 * ntfs_sds_get() - The security descriptor of an id
 * @sbi:	the volume
 * @id:		the security id
 * @out:	set to a new buffer with the descriptor (kfree() it)
 * @len:	set to its bytes
 *
 * Return: 0, -ENODATA for an id $SDS does not have, -EIO, -ENOMEM, -EINTR.
 */
int ntfs_sds_get(struct ntfs_sb *sbi, u32 id, void **out, u32 *len)
{
	struct ntfs_sds_header h;
	void *entry;
	int err;

	/* Under the lock: a failed change drops sds and the maps. */
	if (mutex_lock_killable(&sbi->sds_lock))
		return -EINTR;
	err = ntfs_sds_ready(sbi);
	entry = err ? NULL : xa_load(&sbi->sds_map, id);
	if (!err && !entry)
		err = -ENODATA;
	if (!err)
		err = ntfs_sds_header(sbi, xa_to_value(entry), &h);
	if (!err)
		err = ntfs_sds_body(sbi, xa_to_value(entry), &h, out, len);
	mutex_unlock(&sbi->sds_lock);
	return err;
}

/* ---- checking a descriptor ---------------------------------------------- */

/* Self-relative SECURITY_DESCRIPTOR ([MS-DTYP] 2.4.6), its control bits. */
#define NTFS_SD_HDR		20
#define NTFS_SE_DACL_PRESENT	0x0004
#define NTFS_SE_SACL_PRESENT	0x0010
#define NTFS_SE_SELF_RELATIVE	0x8000

/* A SID at @off of @sd (@len bytes): revision 1, its sub-authorities inside. */
static bool ntfs_sid_ok(const u8 *sd, u32 len, u32 off)
{
	if (off < NTFS_SD_HDR || off > len || len - off < 8)
		return false;
	return sd[off] == 1 && sd[off + 1] <= 15 && 8 + 4 * sd[off + 1] <= len - off;
}

/* An ACL at @off of @sd: revision 2 or 4, its ACEs inside its size. */
static bool ntfs_acl_ok(const u8 *sd, u32 len, u32 off)
{
	u32 size, count, at, i;

	if (off < NTFS_SD_HDR || off > len || len - off < 8)
		return false;
	size = get_unaligned_le16(sd + off + 2);
	count = get_unaligned_le16(sd + off + 4);
	if ((sd[off] != 2 && sd[off] != 4) || size < 8 || size > len - off)
		return false;
	for (at = 8, i = 0; i < count; i++) {
		u32 ace;

		if (size - at < 4)
			return false;
		ace = get_unaligned_le16(sd + off + at + 2);
		if (ace < 4 || ace > size - at)
			return false;
		at += ace;
	}
	return true;
}

/*
 * Whether @sd (@len bytes) is a self-relative security descriptor whose
 * owner, group and ACLs lie inside it, as Windows checks before use.
 */
static bool ntfs_sd_ok(const u8 *sd, u32 len)
{
	u16 control;
	u32 owner, group, sacl, dacl;

	if (len < NTFS_SD_HDR || len > NTFS_SDS_BLOCK / 4 || sd[0] != 1)
		return false;
	control = get_unaligned_le16(sd + 2);
	owner = get_unaligned_le32(sd + 4);
	group = get_unaligned_le32(sd + 8);
	sacl = get_unaligned_le32(sd + 12);
	dacl = get_unaligned_le32(sd + 16);
	if (!(control & NTFS_SE_SELF_RELATIVE))
		return false;
	if (!ntfs_sid_ok(sd, len, owner) || !ntfs_sid_ok(sd, len, group))
		return false;
	if ((control & NTFS_SE_SACL_PRESENT) && sacl && !ntfs_acl_ok(sd, len, sacl))
		return false;
	return !(control & NTFS_SE_DACL_PRESENT) || !dacl || ntfs_acl_ok(sd, len, dacl);
}

/* The hash $SDH keys on: each little-endian u32 added to the sum rotated. */
static u32 ntfs_sd_hash(const u8 *sd, u32 len)
{
	u32 hash = 0, i;

	for (i = 0; i + 4 <= len; i += 4)
		hash = rol32(hash, 3) + get_unaligned_le32(sd + i);
	return hash;
}

/* ---- finding or adding a descriptor ------------------------------------- */

/* Whether the entry at @pos holds @sd with @hash. */
static int ntfs_sds_same(struct ntfs_sb *sbi, u64 pos, u32 hash, const void *sd, u32 len)
{
	struct ntfs_sds_header h;
	void *have;
	u32 n;
	int err = ntfs_sds_header(sbi, pos, &h);

	/* Only an entry with the same hash and length is read whole. */
	if (err || le32_to_cpu(h.hash) != hash || le32_to_cpu(h.length) != sizeof(h) + len)
		return err;
	err = ntfs_sds_body(sbi, pos, &h, &have, &n);
	if (err)
		return err;
	err = !memcmp(have, sd, len);
	kfree(have);
	return err;
}

/*
 * The id of a descriptor equal to @sd already in $SDS, 0 when none: the
 * first id of its hash, else (a collision) every entry with that hash.
 */
static int ntfs_sds_find(struct ntfs_sb *sbi, u32 hash, const void *sd, u32 len, u32 *id)
{
	unsigned long i;
	void *entry;
	int err;

	*id = 0;
	entry = xa_load(&sbi->sdh_map, hash);
	if (!entry)
		return 0;
	i = xa_to_value(entry);
	entry = xa_load(&sbi->sds_map, i);
	err = entry ? ntfs_sds_same(sbi, xa_to_value(entry), hash, sd, len) : 0;
	if (err > 0)
		*id = i;
	if (err)
		return err < 0 ? err : 0;
	xa_for_each(&sbi->sds_map, i, entry) {
		err = ntfs_walk_step();
		if (!err)
			err = ntfs_sds_same(sbi, xa_to_value(entry), hash, sd, len);
		if (err > 0)
			*id = i;
		if (err)
			return err < 0 ? err : 0;
	}
	return 0;
}

/*
 * Where a new entry of @len bytes goes: after the last one, in its block
 * when it fits, else at the start of the next block of $SDS that is not a
 * mirror (entries never cross a block's end).
 */
static u64 ntfs_sds_place(u64 end, u32 len)
{
	if (end % (2 * NTFS_SDS_BLOCK) >= NTFS_SDS_BLOCK ||
	    end % (2 * NTFS_SDS_BLOCK) + len > NTFS_SDS_BLOCK)
		end = round_up(end + 1, 2 * NTFS_SDS_BLOCK);
	return end;
}

/* Zeros into [@from, @to) of $SDS: the part it grew by, before it is valid. */
static int ntfs_sds_zero(struct inode *sds, u64 from, u64 to)
{
	void *zero = kzalloc(PAGE_SIZE, GFP_NOFS);
	int err = zero ? 0 : -ENOMEM;

	while (!err && from < to) {
		u32 n = min_t(u64, to - from, PAGE_SIZE - offset_in_page(from));

		err = ntfs_write_stream(sds, from, zero, n);
		from += n;
	}
	kfree(zero);
	return err;
}

/* Write entry @h + @sd at its offset and at its mirror's, growing $SDS. */
static int ntfs_sds_write(struct ntfs_trans *t, struct inode *sds,
			  const struct ntfs_sds_header *h, const void *sd)
{
	struct ntfs_inode *ni = NTFS_I(sds);
	u64 pos = le64_to_cpu(h->offset), mirror = pos + NTFS_SDS_BLOCK;
	u64 old = ni->stream.data_size, size = max(old, mirror + le32_to_cpu(h->length));
	u32 len = le32_to_cpu(h->length) - sizeof(*h);
	int err = 0;

	mutex_lock_nested(&ni->ni_lock, NTFS_SECURE_LOCK_CLASS);
	if (size > old) {
		err = ntfs_stream_set_size(t, sds, size);
		if (!err)
			err = ntfs_sds_zero(sds, old, size);
	}
	if (!err)
		err = ntfs_write_stream(sds, pos, h, sizeof(*h));
	if (!err)
		err = ntfs_write_stream(sds, pos + sizeof(*h), sd, len);
	if (!err)
		err = ntfs_write_stream(sds, mirror, h, sizeof(*h));
	if (!err)
		err = ntfs_write_stream(sds, mirror + sizeof(*h), sd, len);
	if (!err && size > old)
		err = ntfs_stream_set_valid(t, sds, size);
	mutex_unlock(&ni->ni_lock);
	return err;
}

/* COLLATION_NTOFS_ULONG: the id. */
static int ntfs_sii_cmp(const void *key, const struct ntfs_index_entry *e)
{
	return ntfs_ulongs_cmp(key, e, 4);
}

/* COLLATION_NTOFS_SECURITY_HASH: the hash, then the id. */
static int ntfs_sdh_cmp(const void *key, const struct ntfs_index_entry *e)
{
	return ntfs_ulongs_cmp(key, e, 8);
}

static const struct ntfs_view ntfs_sii_view = {
	.name		= ntfs_sii_name,
	.name_len	= ARRAY_SIZE(ntfs_sii_name),
	.key_len	= 4,
	.collation	= NTFS_COLLATION_ULONG,
	.cmp		= ntfs_sii_cmp,
};

static const struct ntfs_view ntfs_sdh_view = {
	.name		= ntfs_sdh_name,
	.name_len	= ARRAY_SIZE(ntfs_sdh_name),
	.key_len	= 8,
	.collation	= NTFS_COLLATION_SECURITY_HASH,
	.cmp		= ntfs_sdh_cmp,
};

/* $SII's and $SDH's inodes, loaded the first time a descriptor is added. */
static int ntfs_secure_views(struct ntfs_sb *sbi)
{
	struct inode *sii, *sdh;
	void *rec;
	int err;

	if (sbi->sii_ix && sbi->sdh_ix)
		return 0;
	rec = kmalloc(sbi->record_size, GFP_NOFS);
	if (!rec)
		return -ENOMEM;
	err = ntfs_read_record(sbi, NTFS_SECURE_INO, rec);
	sii = err ? ERR_PTR(err) : ntfs_view_iget(sbi, NTFS_SECURE_INO, rec, &ntfs_sii_view);
	sdh = IS_ERR(sii) ? sii : ntfs_view_iget(sbi, NTFS_SECURE_INO, rec, &ntfs_sdh_view);
	kfree(rec);
	if (IS_ERR(sdh)) {
		if (!IS_ERR(sii))
			iput(sii);
		return PTR_ERR(sdh);
	}
	ntfs_secure_publish(sbi, &sbi->sii_ix, sii);
	ntfs_secure_publish(sbi, &sbi->sdh_ix, sdh);
	return 0;
}

/* Insert @key with @h as data into the view of @ix. */
static int ntfs_secure_index(struct ntfs_trans *t, struct inode *ix, const struct ntfs_view *v,
			     const void *key, const struct ntfs_sds_header *h)
{
	struct ntfs_inode *ni = NTFS_I(ix);
	int err;

	mutex_lock_nested(&ni->ni_lock, NTFS_SECURE_LOCK_CLASS);
	err = ntfs_view_insert(t, ix, v, key, h, sizeof(*h));
	mutex_unlock(&ni->ni_lock);
	return err;
}

/* Add @sd (@len bytes, hash @hash) to $SDS, $SII and $SDH as @h says. */
static int ntfs_sds_add(struct ntfs_trans *t, const struct ntfs_sds_header *h, const void *sd)
{
	struct ntfs_sb *sbi = t->sbi;
	__le32 sdh_key[2] = { h->hash, h->security_id };
	int err = ntfs_sds_write(t, sbi->sds, h, sd);

	if (!err)
		err = ntfs_secure_index(t, sbi->sii_ix, &ntfs_sii_view, &h->security_id, h);
	if (!err)
		err = ntfs_secure_index(t, sbi->sdh_ix, &ntfs_sdh_view, sdh_key, h);
	return err;
}

/* Point the file's $STANDARD_INFORMATION at security id @id. */
static int ntfs_si_set_security(struct ntfs_trans *t, struct inode *inode, u32 id)
{
	struct ntfs_inode *ni = NTFS_I(inode);
	struct ntfs_record *r = ntfs_trans_record(t, ni->record);
	struct ntfs_std_info *si = NULL;
	struct ntfs_attr *a;

	if (IS_ERR(r))
		return PTR_ERR(r);
	a = ntfs_rec_find(r, NTFS_AT_STANDARD_INFO, NULL, 0);
	if (a && !a->non_resident)
		si = ntfs_attr_value(a, offsetofend(struct ntfs_std_info, security_id));
	if (!si)
		return -EOPNOTSUPP;	/* NTFS 1.2's: no security id */
	si->security_id = cpu_to_le32(id);
	return 0;
}

/*
 * After a change of $Secure that did not commit, or whose maps could not
 * follow: forget what memory holds of it, to read it again from the disk
 * (the pages of $SDS were written before the change began).
 */
static void ntfs_secure_forget(struct ntfs_sb *sbi)
{
	if (sbi->sds)
		truncate_inode_pages(sbi->sds->i_mapping, 0);
	ntfs_secure_publish(sbi, &sbi->sds, NULL);
	ntfs_secure_publish(sbi, &sbi->sii_ix, NULL);
	ntfs_secure_publish(sbi, &sbi->sdh_ix, NULL);
	xa_destroy(&sbi->sds_map);
	xa_destroy(&sbi->sdh_map);
}

/*
 * Under sds_lock: the id of @sd in @id, added when new, and given to
 * @inode when not NULL; one transaction.
 */
static int ntfs_security_store(struct ntfs_sb *sbi, struct inode *inode, const void *sd, u32 len,
			       u32 *out)
{
	struct ntfs_sds_header h = {};
	u32 hash = ntfs_sd_hash(sd, len), id;
	struct ntfs_trans t;
	int err;

	err = ntfs_sds_find(sbi, hash, sd, len, &id);
	if (!err && !id)
		err = ntfs_secure_views(sbi);
	if (err)
		return err;
	if (!id) {
		h.hash = cpu_to_le32(hash);
		h.security_id = cpu_to_le32(sbi->sds_next_id);
		h.offset = cpu_to_le64(ntfs_sds_place(sbi->sds_end, sizeof(h) + len));
		h.length = cpu_to_le32(sizeof(h) + len);
	}
	if (!id)
		err = filemap_write_and_wait(sbi->sds->i_mapping);
	if (!err)
		err = ntfs_trans_begin(sbi, &t);
	if (err)
		return err;
	if (!id)
		err = ntfs_sds_add(&t, &h, sd);
	if (!err && inode) {
		mutex_lock(&NTFS_I(inode)->ni_lock);
		err = ntfs_si_set_security(&t, inode, id ? id : le32_to_cpu(h.security_id));
		mutex_unlock(&NTFS_I(inode)->ni_lock);
	}
	if (err) {
		ntfs_trans_fail(&t, err);
		if (!id)
			ntfs_secure_forget(sbi);
		return err;
	}
	err = ntfs_trans_commit(&t);
	if (err && !id)
		ntfs_secure_forget(sbi);
	if (err)
		return err;
	if (!id) {
		id = le32_to_cpu(h.security_id);
		if (ntfs_sds_note(sbi, &h, le64_to_cpu(h.offset)))
			ntfs_secure_forget(sbi);
	}
	if (inode)
		NTFS_I(inode)->security_id = id;
	*out = id;
	return 0;
}

/**
 * ntfs_security_set() - Give a file a security descriptor
 * @inode:	the file
 * @sd:		a self-relative security descriptor
 * @len:	its bytes
 *
 * An identical descriptor already in $Secure is shared; else the new one
 * is added under the next id.  The file's $STANDARD_INFORMATION then names
 * it, in the same transaction.
 *
 * Return: 0; -EINVAL for a descriptor that is not valid; -EOPNOTSUPP on a
 * volume or file without $Secure ids (NTFS 1.2); -ENOSPC, -EIO, -ENOMEM,
 * -EINTR.
 */
int ntfs_security_set(struct inode *inode, const void *sd, size_t len)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	u32 id;
	int err;

	if (!ntfs_sd_ok(sd, len))
		return -EINVAL;
	if (sbi->major < 3)
		return -EOPNOTSUPP;
	if (mutex_lock_killable(&sbi->sds_lock))
		return -EINTR;
	err = ntfs_sds_ready(sbi);
	if (!err)
		err = ntfs_security_store(sbi, inode, sd, len, &id);
	mutex_unlock(&sbi->sds_lock);
	return err;
}

/*
 * The descriptor of new files in a directory without a security id (the
 * root of a volume made by mkntfs keeps its own, NTFS 1.2 style):
 * owner Administrators, group SYSTEM, and Everyone allowed everything,
 * inherited by files and directories below; what Windows gives a volume
 * formatted without permissions.
 */
static const u8 ntfs_default_sd[] = {
	0x01, 0x00, 0x04, 0x80,			/* revision, DACL present, self-relative */
	0x14, 0x00, 0x00, 0x00,			/* owner at 20 */
	0x24, 0x00, 0x00, 0x00,			/* group at 36 */
	0x00, 0x00, 0x00, 0x00,			/* no SACL */
	0x30, 0x00, 0x00, 0x00,			/* DACL at 48 */
	0x01, 0x02, 0, 0, 0, 0, 0, 0x05,	/* S-1-5-32-544 */
	0x20, 0x00, 0x00, 0x00, 0x20, 0x02, 0x00, 0x00,
	0x01, 0x01, 0, 0, 0, 0, 0, 0x05,	/* S-1-5-18 */
	0x12, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x1c, 0x00,			/* ACL revision 2, 28 bytes */
	0x01, 0x00, 0x00, 0x00,			/* one ACE */
	0x00, 0x03, 0x14, 0x00,			/* allow, object and container inherit */
	0xff, 0x01, 0x1f, 0x00,			/* FILE_ALL_ACCESS */
	0x01, 0x01, 0, 0, 0, 0, 0, 0x01,	/* S-1-1-0 */
	0x00, 0x00, 0x00, 0x00,
};

/**
 * ntfs_security_default() - The security id new files get by default
 * @sbi:	the volume, writable
 * @id:		set to the id of the default descriptor
 *
 * A new file shares its directory's security id; under a directory that
 * has none it shares this one, added to $Secure the first time (in a
 * transaction of its own) and remembered for the mount.
 *
 * Return: 0, -EOPNOTSUPP on NTFS 1.2 (no $Secure ids: @id is 0), or the
 * error of adding the descriptor.
 */
int ntfs_security_default(struct ntfs_sb *sbi, u32 *id)
{
	int err = 0;

	*id = 0;
	if (sbi->major < 3)
		return -EOPNOTSUPP;
	if (mutex_lock_killable(&sbi->sds_lock))
		return -EINTR;
	if (!sbi->default_security_id) {
		err = ntfs_sds_ready(sbi);
		if (!err)
			err = ntfs_security_store(sbi, NULL, ntfs_default_sd,
						  sizeof(ntfs_default_sd),
						  &sbi->default_security_id);
	}
	*id = sbi->default_security_id;
	mutex_unlock(&sbi->sds_lock);
	return err;
}
