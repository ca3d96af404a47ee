// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs3: NTFS driver, out-of-tree.  Module init, mount options, the boot
 * sector, bringing up $MFT and the system files ($Volume, $UpCase, $AttrDef,
 * the $MFTMirr check), the checks that keep a volume read-only (dirty,
 * hibernated, journal), statfs and the super operations.
 * docs/design/ntfs3.md describes the design and which file calls which.
 */

#include <linux/blkdev.h>
#include <linux/buffer_head.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/module.h>
#include <linux/nls.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/unaligned.h>

#include "ntfs3.h"

/* ---- options ----------------------------------------------------------- */

enum {
	OPT_UID, OPT_GID, OPT_UMASK, OPT_FMASK, OPT_DMASK, OPT_IOCHARSET,
	OPT_SHOWMETA, OPT_HIDDEN, OPT_NOHIDDEN, OPT_HIDE_DOT_FILES,
	OPT_SYS_IMMUTABLE, OPT_NOCASE, OPT_FORCE, OPT_DISCARD, OPT_SPARSE,
	OPT_PREALLOC, OPT_DELALLOC, OPT_ACL, OPT_WINDOWS_NAMES, OPT_ACSRULES, OPT_NO_ACS_RULES,
	OPT_ERRORS,
};

static const struct constant_table ntfs_errors_table[] = {
	{ "continue",	NTFS_ERRORS_CONTINUE },
	{ "remount-ro",	NTFS_ERRORS_REMOUNT_RO },
	{}
};

static const struct fs_parameter_spec ntfs_param_spec[] = {
	fsparam_u32("uid", OPT_UID),
	fsparam_u32("gid", OPT_GID),
	fsparam_u32oct("umask", OPT_UMASK),
	fsparam_u32oct("fmask", OPT_FMASK),
	fsparam_u32oct("dmask", OPT_DMASK),
	fsparam_string("iocharset", OPT_IOCHARSET),
	fsparam_string("nls", OPT_IOCHARSET),		/* the in-tree driver's name */
	fsparam_flag_no("showmeta", OPT_SHOWMETA),
	fsparam_flag("hidden", OPT_HIDDEN),
	fsparam_flag("nohidden", OPT_NOHIDDEN),
	fsparam_flag_no("hide_dot_files", OPT_HIDE_DOT_FILES),
	fsparam_flag_no("sys_immutable", OPT_SYS_IMMUTABLE),
	fsparam_flag_no("nocase", OPT_NOCASE),
	fsparam_flag_no("force", OPT_FORCE),
	fsparam_flag_no("discard", OPT_DISCARD),
	fsparam_flag_no("sparse", OPT_SPARSE),
	fsparam_flag_no("prealloc", OPT_PREALLOC),
	fsparam_flag_no("delalloc", OPT_DELALLOC),
	fsparam_flag_no("acl", OPT_ACL),
	fsparam_flag_no("windows_names", OPT_WINDOWS_NAMES),
	fsparam_flag_no("acsrules", OPT_ACSRULES),
	fsparam_flag("no_acs_rules", OPT_NO_ACS_RULES),	/* the in-tree spelling */
	fsparam_enum("errors", OPT_ERRORS, ntfs_errors_table),
	{}
};

/* The options that only matter when writing. */
static int ntfs_parse_write_param(struct fs_context *fc, struct ntfs_options *o, int opt,
				  const struct fs_parse_result *r)
{
	switch (opt) {
	case OPT_DISCARD:
		o->discard = !r->negated;
		break;
	case OPT_SPARSE:
		o->sparse = !r->negated;
		break;
	case OPT_PREALLOC:
		o->prealloc = !r->negated;
		break;
	case OPT_DELALLOC:
		o->nodelalloc = r->negated;
		break;
	case OPT_ACL:
		if (!r->negated && !IS_ENABLED(CONFIG_FS_POSIX_ACL))
			return invalfc(fc, "acl: the kernel has no POSIX ACL support");
		o->acl = !r->negated;
		o->acl_set = 1;
		break;
	case OPT_WINDOWS_NAMES:
		o->windows_names = !r->negated;
		break;
	case OPT_ACSRULES:
		o->noacsrules = r->negated;
		break;
	case OPT_NO_ACS_RULES:
		o->noacsrules = 1;
		break;
	case OPT_ERRORS:
		o->errors = r->uint_32;
		break;
	}
	return 0;
}

static int ntfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct ntfs_options *o = fc->fs_private;
	struct fs_parse_result r;
	int opt = fs_parse(fc, ntfs_param_spec, param, &r);

	/* -ENOPARAM: "source" is the VFS's; others it refuses by name. */
	if (opt < 0)
		return opt;

	switch (opt) {
	case OPT_UID:
		o->uid = make_kuid(current_user_ns(), r.uint_32);
		if (!uid_valid(o->uid))
			return invalfc(fc, "invalid uid %u", r.uint_32);
		o->uid_set = 1;
		break;
	case OPT_GID:
		o->gid = make_kgid(current_user_ns(), r.uint_32);
		if (!gid_valid(o->gid))
			return invalfc(fc, "invalid gid %u", r.uint_32);
		o->gid_set = 1;
		break;
	case OPT_UMASK:
		o->fmask = r.uint_32 & 0777;
		o->dmask = o->fmask;
		o->fmask_set = 1;
		o->dmask_set = 1;
		break;
	case OPT_FMASK:
		o->fmask = r.uint_32 & 0777;
		o->fmask_set = 1;
		break;
	case OPT_DMASK:
		o->dmask = r.uint_32 & 0777;
		o->dmask_set = 1;
		break;
	case OPT_IOCHARSET:
		kfree(o->iocharset);
		o->iocharset = param->string;
		param->string = NULL;
		break;
	case OPT_SHOWMETA:
		o->showmeta = !r.negated;
		break;
	case OPT_HIDDEN:
		o->nohidden = 0;
		break;
	case OPT_NOHIDDEN:
		o->nohidden = 1;
		break;
	case OPT_HIDE_DOT_FILES:
		o->hide_dot_files = !r.negated;
		break;
	case OPT_SYS_IMMUTABLE:
		o->sys_immutable = !r.negated;
		break;
	case OPT_NOCASE:
		o->nocase = !r.negated;
		break;
	case OPT_FORCE:
		o->force = !r.negated;
		break;
	default:
		return ntfs_parse_write_param(fc, o, opt, &r);
	}
	return 0;
}

/* ---- boot sector ------------------------------------------------------- */

static int ntfs_log2_size(s8 v, u32 cluster_size)
{
	if (v > 0)
		return (u64)v * cluster_size <= (1U << 16) ? v * cluster_size : -1;
	if (v < -31 || v > -9)
		return -1;
	return 1U << -v;
}

/*
 * Check every field of a boot sector and derive the geometry.  Returns 0
 * when the sector describes a usable volume of at most @dev_bytes.
 */
static int ntfs_parse_boot(struct ntfs_sb *sbi, const struct ntfs_boot *b, u64 dev_bytes)
{
	u32 sector = le16_to_cpu(b->bytes_per_sector);
	u32 spc = b->sectors_per_cluster;
	u64 cluster, sectors;
	int rec, idx;

	if (memcmp(b->oem_id, "NTFS    ", 8) || le16_to_cpu(b->end_marker) != 0xaa55)
		return -EINVAL;
	if (sector < 256 || sector > 4096 || !is_power_of_2(sector))
		return -EINVAL;
	if (spc > 0x80) {
		if (spc < 0xf4)		/* up to 2^12 sectors */
			return -EINVAL;
		spc = 1U << (256 - spc);
	}
	if (!spc || !is_power_of_2(spc))
		return -EINVAL;
	cluster = (u64)sector * spc;
	if (cluster < 512 || cluster > SZ_2M)
		return -EINVAL;
	if (b->reserved_sectors || b->fats || b->root_entries || b->sectors16 ||
	    b->sectors_per_fat || b->sectors32)
		return -EINVAL;
	sectors = le64_to_cpu(b->total_sectors);
	if (!sectors || sectors > dev_bytes / sector)
		return -EINVAL;

	rec = ntfs_log2_size(b->record_size, cluster);
	idx = ntfs_log2_size(b->index_size, cluster);
	if (rec < 1024 || rec > 4096 || !is_power_of_2(rec) || rec < sector)
		return -EINVAL;
	if (idx < 512 || idx > 65536 || !is_power_of_2(idx))
		return -EINVAL;

	sbi->sector_size = sector;
	sbi->cluster_size = cluster;
	sbi->cluster_bits = ilog2(cluster);
	sbi->record_size = rec;
	sbi->record_bits = ilog2(rec);
	sbi->index_size = idx;
	sbi->total_clusters = sectors * sector >> sbi->cluster_bits;
	sbi->mft_lcn = le64_to_cpu(b->mft_lcn);
	sbi->mftmirr_lcn = le64_to_cpu(b->mftmirr_lcn);
	sbi->serial = le64_to_cpu(b->serial);
	if (sbi->mft_lcn >= sbi->total_clusters || sbi->mftmirr_lcn >= sbi->total_clusters)
		return -EINVAL;
	return 0;
}

/* Read the boot sector at @pos of the device into @b. */
static int ntfs_read_boot_at(struct super_block *sb, u64 pos, struct ntfs_boot *b)
{
	struct buffer_head *bh = sb_bread(sb, pos >> sb->s_blocksize_bits);

	if (!bh)
		return -EIO;
	memcpy(b, bh->b_data + (pos & (sb->s_blocksize - 1)), sizeof(*b));
	brelse(bh);
	return 0;
}

static int ntfs_load_boot(struct super_block *sb, struct ntfs_sb *sbi)
{
	u64 dev_bytes = bdev_nr_bytes(sb->s_bdev);
	struct ntfs_boot *b;
	int err;

	b = kmalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	err = ntfs_read_boot_at(sb, 0, b);
	if (!err)
		err = ntfs_parse_boot(sbi, b, dev_bytes);
	if (err) {
		/* The backup is in the last sector of the volume: try 512 and 4096. */
		u32 s[] = { 512, 4096 }, i;

		for (i = 0; i < ARRAY_SIZE(s) && err; i++) {
			if (dev_bytes < s[i] || s[i] < sb->s_blocksize)
				continue;
			err = ntfs_read_boot_at(sb, dev_bytes - s[i], b);
			if (!err)
				err = ntfs_parse_boot(sbi, b, dev_bytes);
		}
		if (!err)
			pr_warn("ntfs3 (%s): primary boot sector is invalid, using the backup\n",
				sb->s_id);
	}
	kfree(b);
	if (err)
		pr_err("ntfs3 (%s): no valid NTFS boot sector (primary nor backup)\n", sb->s_id);
	return err ? -EINVAL : 0;
}

/* ---- $MFT ---------------------------------------------------------------- */

/*
 * Bring up the $MFT stream from record 0, read directly from disk: its
 * first $DATA extent maps enough of $MFT to read the extension records its
 * attribute list names, which hold the other extents.
 */
static int ntfs_load_mft(struct super_block *sb, struct ntfs_sb *sbi)
{
	struct ntfs_stream ns = {};
	struct ntfs_recset rs;
	struct ntfs_recset_pos pos = {};
	struct ntfs_attr *a = NULL;
	struct ntfs_inode *ni;
	void *rec;
	int err;

	init_rwsem(&ns.run_lock);
	rec = kmalloc(sbi->record_size, GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	err = -EIO;
	{
		struct buffer_head *bh;
		u64 p = sbi->mft_lcn << sbi->cluster_bits;
		u32 done = 0;

		while (done < sbi->record_size) {
			bh = sb_bread(sb, (p + done) >> sb->s_blocksize_bits);
			if (!bh)
				goto out;
			memcpy(rec + done, bh->b_data, min_t(u32, sb->s_blocksize,
							     sbi->record_size - done));
			done += sb->s_blocksize;
			brelse(bh);
		}
	}
	if (ntfs_fixup(rec, sbi->record_size, NTFS_MAGIC_FILE) ||
	    ntfs_check_record_header(sbi, rec))
		goto out;
	while ((a = ntfs_next_attr(rec, a, NULL)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) == NTFS_AT_DATA && !a->name_length &&
		    a->non_resident && !a->nr.lowest_vcn)
			break;
	}
	if (IS_ERR_OR_NULL(a))
		goto out;
	ns.type = NTFS_AT_DATA;
	err = ntfs_stream_from_attr(sbi, &ns, a);
	if (!err)
		err = ntfs_stream_add_extent(sbi, &ns, a);
	if (err)
		goto out;
	sbi->mft_records = ns.data_size >> sbi->record_bits;
	sbi->mft = ntfs_new_stream_inode(sb, NULL, &ns);
	if (IS_ERR(sbi->mft)) {
		err = PTR_ERR(sbi->mft);
		sbi->mft = NULL;
		goto out;
	}
	sbi->mft->i_ino = NTFS_MFT_INO;
	ni = NTFS_I(sbi->mft);

	/* Now the whole record set, through the partly mapped stream. */
	err = ntfs_recset_load(sbi, NTFS_MFT_INO, &rs);
	if (err)
		goto out;
	if (rs.nr > 1) {
		while ((a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
			if (le32_to_cpu(a->type) != NTFS_AT_DATA || a->name_length ||
			    !a->non_resident || !a->nr.lowest_vcn)
				continue;
			err = ntfs_stream_add_extent(sbi, &ni->stream, a);
			if (err)
				break;
		}
		if (IS_ERR(a))
			err = PTR_ERR(a);
	}
	ntfs_recset_free(&rs);
	if (!err)
		err = ntfs_stream_finish_runs(sbi, &ni->stream);
	if (!err)
		err = ntfs_stream_check_meta(sbi, &ni->stream);
	/* Only now: a window must not reach runs that are not mapped yet. */
	if (!err)
		ni->stream.read_around = NTFS_META_READ_AROUND;
out:
	kfree(rec);
	if (err)
		pr_err("ntfs3 (%s): $MFT is damaged (%d)\n", sb->s_id, err);
	return err;
}

/*
 * $MFTMirr must hold the first records of $MFT.  A mismatch is reported;
 * it keeps the volume from being mounted read-write.
 */
static bool ntfs_check_mftmirr(struct super_block *sb, struct ntfs_sb *sbi)
{
	u32 n = min_t(u32, 4, sbi->mft_records), i;
	void *a = kmalloc(sbi->record_size, GFP_KERNEL);
	void *b = kmalloc(sbi->record_size, GFP_KERNEL);
	struct inode *mirr = NULL;
	bool same = true;

	if (!a || !b)
		goto out;
	mirr = ntfs_iget(sb, NTFS_MFTMIRR_INO);
	if (IS_ERR(mirr)) {
		mirr = NULL;
		same = false;
		goto out;
	}
	n = min_t(u64, n, NTFS_I(mirr)->stream.data_size >> sbi->record_bits);
	for (i = 0; i < n && same; i++) {
		same = !ntfs_read_stream(sbi->mft, (u64)i << sbi->record_bits, a,
					 sbi->record_size) &&
		       !ntfs_read_stream(mirr, (u64)i << sbi->record_bits, b,
					 sbi->record_size) &&
		       !memcmp(a, b, sbi->record_size);
	}
out:
	if (!same)
		pr_warn("ntfs3 (%s): $MFTMirr does not match $MFT; run chkdsk\n", sb->s_id);
	iput(mirr);
	kfree(a);
	kfree(b);
	return same && a && b;
}

/* ---- system files ----------------------------------------------------- */

/* Any real table maps ASCII letters up and leaves digits alone. */
static bool ntfs_upcase_sane(const __le16 *t)
{
	u16 c;

	for (c = 'a'; c <= 'z'; c++)
		if (le16_to_cpu(t[c]) != c - 32 || le16_to_cpu(t[c - 32]) != c - 32)
			return false;
	for (c = '0'; c <= '9'; c++)
		if (le16_to_cpu(t[c]) != c)
			return false;
	return true;
}

static int ntfs_load_upcase(struct super_block *sb, struct ntfs_sb *sbi)
{
	struct inode *inode = ntfs_iget(sb, NTFS_UPCASE_INO);
	u64 size;
	u32 i;

	sbi->upcase = kvmalloc_array(65536, sizeof(__le16), GFP_KERNEL);
	if (!sbi->upcase)
		return -ENOMEM;
	if (!IS_ERR(inode)) {
		size = NTFS_I(inode)->stream.data_size;
		if (size >= 2 * 128 && size <= 2 * 65536 && !(size & 1) &&
		    !ntfs_read_stream(inode, 0, sbi->upcase, size) &&
		    ntfs_upcase_sane(sbi->upcase)) {
			sbi->upcase_len = size / 2;
			iput(inode);
			return 0;
		}
		iput(inode);
	}
	pr_warn("ntfs3 (%s): $UpCase is unreadable, using a built-in ASCII table\n", sb->s_id);
	for (i = 0; i < 128; i++)
		sbi->upcase[i] = cpu_to_le16(i >= 'a' && i <= 'z' ? i - 32 : i);
	sbi->upcase_len = 128;
	return 0;
}

/*
 * $AttrDef: 0xa0-byte definitions (name, type, flags, size limits).  The
 * read path only needs it to be sane; the write path will check attribute
 * sizes against it.
 */
#define NTFS_ATTRDEF_SIZE	0xa0

static void ntfs_load_attrdef(struct super_block *sb, struct ntfs_sb *sbi)
{
	struct inode *inode = ntfs_iget(sb, NTFS_ATTRDEF_INO);
	u64 size = IS_ERR(inode) ? 0 : NTFS_I(inode)->stream.data_size;
	u8 *buf = NULL;
	u32 i, n = 0;

	if (size && size % NTFS_ATTRDEF_SIZE == 0 && size <= 64 * NTFS_ATTRDEF_SIZE)
		buf = kmalloc(size, GFP_KERNEL);
	if (buf && !ntfs_read_stream(inode, 0, buf, size)) {
		for (i = 0; i < size; i += NTFS_ATTRDEF_SIZE)
			n += get_unaligned_le32(buf + i + 0x80) != 0;
	}
	if (n)
		sbi->attrdef_count = n;
	else
		pr_warn("ntfs3 (%s): $AttrDef is unreadable or empty\n", sb->s_id);
	kfree(buf);
	if (!IS_ERR(inode))
		iput(inode);
}

static int ntfs_load_volume(struct super_block *sb, struct ntfs_sb *sbi)
{
	struct ntfs_recset_pos pos = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a;
	bool have_info = false;
	int err = ntfs_recset_load(sbi, NTFS_VOLUME_INO, &rs);

	if (err)
		goto out;
	while ((a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
		const struct ntfs_volume_info *vi;
		const __le16 *name;
		int n;

		switch (le32_to_cpu(a->type)) {
		case NTFS_AT_VOLUME_INFO:
			vi = ntfs_attr_value(a, sizeof(*vi));
			if (!vi)
				break;
			sbi->major = vi->major;
			sbi->minor = vi->minor;
			sbi->vol_flags = le16_to_cpu(vi->flags);
			have_info = true;
			break;
		case NTFS_AT_VOLUME_NAME:
			name = ntfs_attr_value(a, 0);
			if (!name)
				break;
			n = min_t(u32, 128, le32_to_cpu(a->r.value_length) / 2);
			n = utf16s_to_utf8s((const wchar_t *)name, n, UTF16_LITTLE_ENDIAN,
					    sbi->label, sizeof(sbi->label) - 1);
			sbi->label[max(n, 0)] = 0;
			break;
		}
	}
	if (IS_ERR(a) || !have_info)
		err = -EIO;
out:
	ntfs_recset_free(&rs);
	if (err) {
		pr_err("ntfs3 (%s): $Volume is damaged\n", sb->s_id);
		return err;
	}
	if (sbi->major != 3 && !(sbi->major == 1 && sbi->minor == 2)) {
		pr_err("ntfs3 (%s): NTFS version %u.%u is not supported\n", sb->s_id,
		       sbi->major, sbi->minor);
		return -EINVAL;
	}
	if (sbi->major == 1)
		sbi->ro_reason = "NTFS 1.2 is read-only";
	return 0;
}

/* Windows hibernated (or Fast Startup): hiberfil.sys has a non-zero header. */
static bool ntfs_hibernated(struct super_block *sb, struct ntfs_sb *sbi, struct inode *root)
{
	static const char name[] = "hiberfil.sys";
	__le16 uname[ARRAY_SIZE(name) - 1];
	struct inode *inode;
	bool hib = false;
	u8 *p;
	u64 ref;
	u32 i, len;

	for (i = 0; i < ARRAY_SIZE(uname); i++)
		uname[i] = cpu_to_le16(name[i]);
	if (ntfs_dir_lookup(root, uname, ARRAY_SIZE(uname), &ref))
		return false;
	inode = ntfs_iget(sb, NTFS_REF_RECORD(ref));
	if (IS_ERR(inode))
		return false;
	len = min_t(u64, 4096, NTFS_I(inode)->stream.data_size);
	p = kzalloc(4096, GFP_KERNEL);
	if (p && S_ISREG(inode->i_mode) && !ntfs_read_stream(inode, 0, p, len))
		hib = !!memchr_inv(p, 0, len);
	kfree(p);
	iput(inode);
	return hib;
}

static void ntfs_check_clean(struct super_block *sb, struct ntfs_sb *sbi, struct inode *root)
{
	/* force overrides a dirty flag, never hibernation or a journal to replay. */
	if (!sbi->ro_reason && (sbi->vol_flags & NTFS_VOLUME_DIRTY) && !sbi->opt.force)
		sbi->ro_reason = "the volume is marked dirty (run chkdsk, or mount with force)";
	if (!sbi->ro_reason && ntfs_hibernated(sb, sbi, root))
		sbi->ro_reason = "Windows is hibernated on it (or Fast Startup is on)";
	if (!sbi->ro_reason && !ntfs_logfile_clean(sb, sbi))
		sbi->ro_reason = "the journal is not clean (replay is not implemented yet)";
}

/* ---- writing ------------------------------------------------------------ */

/* A stream inode of a system file's attribute, numbered after its record. */
static struct inode *ntfs_meta_stream(struct super_block *sb, u64 nr, u32 type)
{
	struct inode *inode = ntfs_stream_iget(sb, nr, type, NULL, 0);

	if (IS_ERR(inode))
		return NULL;
	inode->i_ino = nr;
	if (NTFS_I(inode)->stream.resident ||
	    ntfs_stream_check_meta(NTFS_SB(sb), &NTFS_I(inode)->stream)) {
		iput(inode);
		return NULL;
	}
	return inode;
}

/* $Bitmap, also for read-only mounts (statfs counts its free clusters). */
static void ntfs_load_bitmap(struct super_block *sb, struct ntfs_sb *sbi)
{
	sbi->bitmap = ntfs_meta_stream(sb, NTFS_BITMAP_INO, NTFS_AT_DATA);
	if (sbi->bitmap &&
	    NTFS_I(sbi->bitmap)->stream.data_size < DIV_ROUND_UP(sbi->total_clusters, 8)) {
		iput(sbi->bitmap);
		sbi->bitmap = NULL;
	}
}

/*
 * $Extend\$UsnJrnl, the change journal.  This driver writes no records to
 * it, so its readers must not take it for complete after this mount: the
 * first change stamps it with a new id and makes the next USN the lowest
 * valid one (trans.c), as Windows stamps a journal whose records may have
 * missed changes.  Here: its record, the next USN (the size of $J), the id.
 */
static void ntfs_find_usnjrnl(struct super_block *sb, struct ntfs_sb *sbi, struct inode *ext)
{
	static const __le16 usnjrnl[] = { cpu_to_le16('$'), cpu_to_le16('U'), cpu_to_le16('s'),
					   cpu_to_le16('n'), cpu_to_le16('J'), cpu_to_le16('r'),
					   cpu_to_le16('n'), cpu_to_le16('l') };
	static const __le16 j[] = { cpu_to_le16('$'), cpu_to_le16('J') };
	struct timespec64 now;
	struct inode *js;
	u64 ref;

	sbi->usn_record = 0;
	if (!S_ISDIR(ext->i_mode) || ntfs_dir_lookup(ext, usnjrnl, ARRAY_SIZE(usnjrnl), &ref))
		return;		/* no change journal: nothing to stamp */
	js = ntfs_stream_iget(sb, NTFS_REF_RECORD(ref), NTFS_AT_DATA, j, ARRAY_SIZE(j));
	if (IS_ERR(js)) {
		pr_warn("ntfs3 (%s): $UsnJrnl has no usable $J (%ld): it is not stamped\n",
			sb->s_id, PTR_ERR(js));
		return;
	}
	sbi->usn_next = NTFS_I(js)->stream.data_size;
	iput(js);
	ktime_get_real_ts64(&now);
	sbi->usn_id = le64_to_cpu(ntfs_time_to_disk(now));
	sbi->usn_record = NTFS_REF_RECORD(ref);
}

/*
 * $Extend's files kept in step with what is written: $Reparse's index
 * (reparse.c), $ObjId's (objid.c), the quotas' out-of-date flag
 * (quota.c) and the change journal's stamp.
 */
static void ntfs_open_extend(struct super_block *sb, struct ntfs_sb *sbi)
{
	struct inode *ext = ntfs_iget(sb, NTFS_EXTEND_INO);

	if (IS_ERR(ext)) {
		pr_warn("ntfs3 (%s): no $Extend: reparse points are not indexed\n", sb->s_id);
		sbi->reparse_tried = true;
		sbi->usn_record = 0;
		return;
	}
	ntfs_reparse_index_open(sbi, ext);
	ntfs_objid_index_open(sbi, ext);
	ntfs_quota_open(sbi, ext);
	ntfs_find_usnjrnl(sb, sbi, ext);
	iput(ext);
}

/* Refuse to make a volume writable; returns -EINVAL. */
static int ntfs_refuse_rw(struct super_block *sb, const char *why)
{
	pr_err("ntfs3 (%s): cannot mount read-write: %s (a read-only mount works)\n",
	       sb->s_id, why);
	return -EINVAL;
}

/*
 * Load what writing needs and check the metafiles it changes; then empty
 * the journal (journal.c says why).  The dirty flag is set by the first
 * transaction.
 */
static int ntfs_make_writable(struct super_block *sb, struct ntfs_sb *sbi)
{
	if (!sbi->mirror_ok)
		return ntfs_refuse_rw(sb, "$MFTMirr does not match $MFT (run chkdsk)");
	if (!sbi->bitmap)
		return ntfs_refuse_rw(sb, "$Bitmap is damaged or shorter than the volume");
	if (!sbi->mftmirr)
		sbi->mftmirr = ntfs_meta_stream(sb, NTFS_MFTMIRR_INO, NTFS_AT_DATA);
	if (!sbi->mft_bitmap)
		sbi->mft_bitmap = ntfs_meta_stream(sb, NTFS_MFT_INO, NTFS_AT_BITMAP);
	if (!sbi->mftmirr || !sbi->mft_bitmap)
		return ntfs_refuse_rw(sb, "$MFTMirr or $MFT:$BITMAP is damaged");
	if (NTFS_I(sbi->mft_bitmap)->stream.data_size * 8 < sbi->mft_records)
		return ntfs_refuse_rw(sb, "$MFT:$BITMAP is shorter than $MFT");
	sbi->mirror_records = min_t(u64, NTFS_I(sbi->mftmirr)->stream.data_size >>
				    sbi->record_bits, sbi->mft_records);
	if (sbi->mirror_records < 4)
		return ntfs_refuse_rw(sb, "$MFTMirr holds fewer than 4 records");
	if (ntfs_count_free_clusters(sbi) < 0)
		return ntfs_refuse_rw(sb, "$Bitmap cannot be read");
	if (ntfs_logfile_reset(sbi))
		return ntfs_refuse_rw(sb, "the journal cannot be emptied");
	if (!sbi->reparse_tried)
		ntfs_open_extend(sb, sbi);
	sbi->volume_dirtied = false;
	return 0;
}

static void ntfs_meta_flush_work(struct work_struct *work)
{
	struct ntfs_sb *sbi = container_of(to_delayed_work(work), struct ntfs_sb, meta_flush);

	ntfs_trans_flush(sbi, false);
}

/*
 * Bring the volume to a clean state on disk: no transaction in flight,
 * every metadata stream written, then the dirty flag cleared.  Files'
 * data and directories were written by sync_filesystem() before.
 */
static int ntfs_write_clean(struct ntfs_sb *sbi)
{
	int err;

	/* A shut down volume stays as it was on disk, dirty flag and all. */
	if (READ_ONCE(sbi->shutdown))
		return -EIO;
	ntfs_dup_flush(sbi);
	ntfs_quota_flush(sbi);
	down_write(&sbi->trans_rwsem);
	cancel_delayed_work_sync(&sbi->meta_flush);
	err = ntfs_trans_flush(sbi, true);
	if (!err)
		err = sync_blockdev(sbi->sb->s_bdev);
	if (!err && sbi->volume_dirtied) {
		err = ntfs_volume_set_flags(sbi, 0, NTFS_VOLUME_DIRTY);
		if (!err)
			sbi->volume_dirtied = false;
	}
	up_write(&sbi->trans_rwsem);
	if (err)
		pr_err("ntfs3 (%s): the volume could not be left clean (%d): run chkdsk\n",
		       sbi->sb->s_id, err);
	return err;
}

static int ntfs_sync_fs(struct super_block *sb, int wait)
{
	if (sb_rdonly(sb))
		return 0;
	if (wait)
		ntfs_dup_flush(NTFS_SB(sb));
	return ntfs_trans_flush(NTFS_SB(sb), wait);
}

/* A frozen volume is clean on disk, like after an unmount. */
static int ntfs_freeze_fs(struct super_block *sb)
{
	return ntfs_write_clean(NTFS_SB(sb));
}

static int ntfs_unfreeze_fs(struct super_block *sb)
{
	return 0;
}

/* ---- super operations -------------------------------------------------- */

static int ntfs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct ntfs_sb *sbi = NTFS_SB(sb);
	s64 free = ntfs_count_free_clusters(sbi);

	buf->f_type = sb->s_magic;
	buf->f_bsize = sbi->cluster_size;
	buf->f_blocks = sbi->total_clusters;
	/* Clusters reserved for delayed data are as good as taken. */
	if (free >= 0)
		free = ntfs_unreserved_clusters(sbi);
	buf->f_bfree = free < 0 ? 0 : free;
	buf->f_bavail = buf->f_bfree;
	buf->f_files = sbi->mft_records;
	buf->f_ffree = 0;
	buf->f_fsid = u64_to_fsid(sbi->serial);
	buf->f_namelen = 255;
	return 0;
}

static int ntfs_show_options(struct seq_file *m, struct dentry *root)
{
	struct ntfs_sb *sbi = NTFS_SB(root->d_sb);
	struct ntfs_options *o = &sbi->opt;

	seq_printf(m, ",uid=%u,gid=%u", from_kuid_munged(&init_user_ns, o->uid),
		   from_kgid_munged(&init_user_ns, o->gid));
	seq_printf(m, ",fmask=%04o,dmask=%04o", o->fmask, o->dmask);
	seq_printf(m, ",iocharset=%s", o->iocharset ? o->iocharset : "utf8");
	if (o->showmeta)
		seq_puts(m, ",showmeta");
	if (o->nohidden)
		seq_puts(m, ",nohidden");
	if (o->hide_dot_files)
		seq_puts(m, ",hide_dot_files");
	if (o->sys_immutable)
		seq_puts(m, ",sys_immutable");
	if (o->nocase)
		seq_puts(m, ",nocase");
	if (o->force)
		seq_puts(m, ",force");
	if (o->discard)
		seq_puts(m, ",discard");
	if (o->sparse)
		seq_puts(m, ",sparse");
	if (o->prealloc)
		seq_puts(m, ",prealloc");
	if (o->nodelalloc)
		seq_puts(m, ",nodelalloc");
	if (o->windows_names)
		seq_puts(m, ",windows_names");
	if (o->noacsrules)
		seq_puts(m, ",noacsrules");
	if (root->d_sb->s_flags & SB_POSIXACL)
		seq_puts(m, ",acl");
	seq_printf(m, ",errors=%s",
		   o->errors == NTFS_ERRORS_CONTINUE ? "continue" : "remount-ro");
	return 0;
}

static void ntfs_free_sbi(struct ntfs_sb *sbi)
{
	if (!sbi)
		return;
	if (sbi->nls)
		unload_nls(sbi->nls);
	ntfs_iblock_cache_drop(sbi);
	ntfs_rcache_drop(sbi);
	xa_destroy(&sbi->sds_map);
	xa_destroy(&sbi->sdh_map);
	kvfree(sbi->upcase);
	kfree(sbi->opt.iocharset);
	kfree(sbi);
}

/*
 * The device went away (a USB disk pulled out, fs_bdev_mark_dead()):
 * nothing more is written, as after FS_IOC_SHUTDOWN without a flush.
 */
static void ntfs_bdev_gone(struct super_block *sb)
{
	struct ntfs_sb *sbi = NTFS_SB(sb);

	if (!READ_ONCE(sbi->shutdown))
		pr_warn("ntfs3 (%s): the device is gone: no more changes until unmount\n",
			sb->s_id);
	WRITE_ONCE(sbi->shutdown, true);
}

static const struct super_operations ntfs_sops = {
	.alloc_inode	= ntfs_alloc_inode,
	.free_inode	= ntfs_free_inode,
	.evict_inode	= ntfs_evict_inode,
	.write_inode	= ntfs_write_inode,
	.statfs		= ntfs_statfs,
	.show_options	= ntfs_show_options,
	.sync_fs	= ntfs_sync_fs,
	.freeze_fs	= ntfs_freeze_fs,
	.unfreeze_fs	= ntfs_unfreeze_fs,
	.shutdown	= ntfs_bdev_gone,
};

/* ---- mount ------------------------------------------------------------- */

static int ntfs_setup_blocksize(struct super_block *sb, struct ntfs_sb *sbi)
{
	u32 bs = min_t(u32, sbi->cluster_size, PAGE_SIZE);

	if (bs < bdev_logical_block_size(sb->s_bdev) || !sb_set_blocksize(sb, bs)) {
		pr_err("ntfs3 (%s): cluster size %u is smaller than the device's sectors\n",
		       sb->s_id, sbi->cluster_size);
		return -EINVAL;
	}
	return 0;
}

static int ntfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct ntfs_sb *sbi = sb->s_fs_info;
	bool want_rw = !(sb->s_flags & SB_RDONLY);
	struct inode *root;
	int err;

	sbi->sb = sb;
	sb->s_magic = 0x7366746e;
	sb->s_op = &ntfs_sops;
	sb->s_export_op = &ntfs_export_ops;
	sb->s_xattr = ntfs_xattr_handlers;
	sb->s_time_gran = 100;
	sb->s_maxbytes = MAX_LFS_FILESIZE;
	if (sbi->opt.nocase)
		sb->s_d_op = &ntfs_nocase_dops;
	if (sbi->opt.acl)
		sb->s_flags |= SB_POSIXACL;
	sb->s_flags |= SB_RDONLY;
	atomic64_set(&sbi->free_clusters, -1);

	if (sbi->opt.iocharset && strcmp(sbi->opt.iocharset, "utf8")) {
		sbi->nls = load_nls(sbi->opt.iocharset);
		if (!sbi->nls)
			return invalfc(fc, "cannot load iocharset %s", sbi->opt.iocharset);
	}
	if (!sb_min_blocksize(sb, 512))
		return -EINVAL;
	err = ntfs_load_boot(sb, sbi);
	if (!err)
		err = ntfs_setup_blocksize(sb, sbi);
	if (!err)
		err = ntfs_load_mft(sb, sbi);
	if (!err)
		err = ntfs_load_volume(sb, sbi);
	if (!err)
		err = ntfs_load_upcase(sb, sbi);
	if (err)
		return err;
	sbi->mirror_ok = ntfs_check_mftmirr(sb, sbi);
	ntfs_load_attrdef(sb, sbi);
	ntfs_load_bitmap(sb, sbi);

	root = ntfs_iget(sb, NTFS_ROOT_INO);
	if (IS_ERR(root)) {
		pr_err("ntfs3 (%s): the root directory is damaged\n", sb->s_id);
		return PTR_ERR(root);
	}
	if (!S_ISDIR(root->i_mode)) {
		iput(root);
		return -EIO;
	}
	ntfs_check_clean(sb, sbi, root);
	if (sbi->ro_reason)
		pr_warn("ntfs3 (%s): mounted read-only: %s\n", sb->s_id, sbi->ro_reason);
	else if (want_rw)
		err = ntfs_make_writable(sb, sbi);
	if (err) {
		iput(root);
		return err;
	}
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;
	if (want_rw && !sbi->ro_reason)
		sb->s_flags &= ~SB_RDONLY;
	return 0;
}

static int ntfs_get_tree(struct fs_context *fc)
{
	return get_tree_bdev(fc, ntfs_fill_super);
}

/* Read-write or read-only, as a remount asks. */
static int ntfs_reconfigure_rw(struct fs_context *fc, struct super_block *sb)
{
	struct ntfs_sb *sbi = NTFS_SB(sb);
	bool to_rw = !(fc->sb_flags & SB_RDONLY);

	if (to_rw && sb_rdonly(sb)) {
		if (sbi->ro_reason)
			return invalfc(fc, "read-only: %s", sbi->ro_reason);
		return ntfs_make_writable(sb, sbi);
	}
	if (!to_rw && !sb_rdonly(sb)) {
		sync_filesystem(sb);
		return ntfs_write_clean(sbi);
	}
	return 0;
}

/*
 * A remount changes read-write and, when given, acl; the other options
 * stay as mounted.  SB_POSIXACL is set here, not through the fs_context:
 * the VFS refuses to change it at remount itself.
 */
static int ntfs_reconfigure(struct fs_context *fc)
{
	const struct ntfs_options *o = fc->fs_private;
	struct super_block *sb = fc->root->d_sb;
	int err = ntfs_reconfigure_rw(fc, sb);

	if (err || !o->acl_set)
		return err;
	if (o->acl)
		sb->s_flags |= SB_POSIXACL;
	else
		sb->s_flags &= ~SB_POSIXACL;
	return 0;
}

static void ntfs_free_fc(struct fs_context *fc)
{
	struct ntfs_options *o = fc->fs_private;

	if (fc->purpose == FS_CONTEXT_FOR_RECONFIGURE && o) {
		kfree(o->iocharset);
		kfree(o);
		return;
	}
	ntfs_free_sbi(fc->s_fs_info);
}

static const struct fs_context_operations ntfs_context_ops = {
	.parse_param	= ntfs_parse_param,
	.get_tree	= ntfs_get_tree,
	.reconfigure	= ntfs_reconfigure,
	.free		= ntfs_free_fc,
};

static int ntfs_init_fs_context(struct fs_context *fc)
{
	struct ntfs_sb *sbi;

	if (fc->purpose == FS_CONTEXT_FOR_RECONFIGURE) {
		/* Options are parsed into a scratch copy and not changed. */
		struct ntfs_options *scratch = kzalloc(sizeof(*scratch), GFP_KERNEL);

		fc->fs_private = scratch;
		fc->ops = &ntfs_context_ops;
		return fc->fs_private ? 0 : -ENOMEM;
	}
	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	mutex_init(&sbi->sds_lock);
	mutex_init(&sbi->reparse_lock);
	mutex_init(&sbi->mft_lock);
	mutex_init(&sbi->bitmap_lock);
	init_rwsem(&sbi->trans_rwsem);
	INIT_DELAYED_WORK(&sbi->meta_flush, ntfs_meta_flush_work);
	spin_lock_init(&sbi->dup_lock);
	INIT_LIST_HEAD(&sbi->dup_later);
	INIT_WORK(&sbi->dup_work, ntfs_dup_work);
	INIT_WORK(&sbi->quota_work, ntfs_quota_work);
	spin_lock_init(&sbi->iblock_lock);
	spin_lock_init(&sbi->rcache_lock);
	xa_init(&sbi->sds_map);
	xa_init(&sbi->sdh_map);
	spin_lock_init(&sbi->sds_ptr_lock);
	sbi->opt.uid = current_fsuid();
	sbi->opt.gid = current_fsgid();
	sbi->opt.fmask = current_umask();
	sbi->opt.dmask = sbi->opt.fmask;
	fc->s_fs_info = sbi;
	fc->fs_private = &sbi->opt;
	fc->ops = &ntfs_context_ops;
	return 0;
}

static void ntfs_kill_sb(struct super_block *sb)
{
	struct ntfs_sb *sbi = sb->s_fs_info;

	/*
	 * A writable volume is written and left clean first, while the stream
	 * inodes still exist; they are unhashed, so the last iput evicts them.
	 */
	if (sbi && sb->s_root && !sb_rdonly(sb) && !READ_ONCE(sbi->shutdown)) {
		sync_filesystem(sb);
		ntfs_write_clean(sbi);
	} else if (sbi && sb->s_root && sbi->errors_ro) {
		/*
		 * Made read-only by errors=remount-ro: what was committed before
		 * is whole and still goes to the disk; the dirty flag stays.
		 */
		sync_inodes_sb(sb);
		ntfs_trans_flush(sbi, true);
		sync_blockdev(sb->s_bdev);
	}
	if (sbi) {
		/* Files queued for their names' copies hold references. */
		ntfs_dup_flush(sbi);
		ntfs_quota_flush(sbi);
		cancel_delayed_work_sync(&sbi->meta_flush);
		iput(sbi->reparse_ix);
		iput(sbi->objid_ix);
		iput(sbi->quota_ix);
		iput(sbi->sds);
		iput(sbi->sii_ix);
		iput(sbi->sdh_ix);
		iput(sbi->bitmap);
		iput(sbi->mft_bitmap);
		iput(sbi->mftmirr);
		iput(sbi->mft);
		sbi->reparse_ix = NULL;
		sbi->objid_ix = NULL;
		sbi->quota_ix = NULL;
		sbi->sds = NULL;
		sbi->sii_ix = NULL;
		sbi->sdh_ix = NULL;
		sbi->bitmap = NULL;
		sbi->mft_bitmap = NULL;
		sbi->mftmirr = NULL;
		sbi->mft = NULL;
	}
	kill_block_super(sb);
	ntfs_free_sbi(sbi);
}

static struct file_system_type ntfs_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "ntfs3",
	.init_fs_context	= ntfs_init_fs_context,
	.parameters		= ntfs_param_spec,
	.kill_sb		= ntfs_kill_sb,
	.fs_flags		= FS_REQUIRES_DEV,
};

static int __init ntfs3_init(void)
{
	int err = ntfs_inode_cache_init();

	if (err)
		return err;
	err = register_filesystem(&ntfs_fs_type);
	if (err)
		ntfs_inode_cache_destroy();
	return err;
}

static void __exit ntfs3_exit(void)
{
	unregister_filesystem(&ntfs_fs_type);
	ntfs_inode_cache_destroy();
}

module_init(ntfs3_init);

module_exit(ntfs3_exit);

MODULE_DESCRIPTION("NTFS filesystem (out-of-tree, read path)");

MODULE_LICENSE("GPL");

/* The project's version: VERSION at the top of the tree (tests/host/version.sh) */
MODULE_VERSION("0.2.0");

MODULE_ALIAS_FS("ntfs3");
