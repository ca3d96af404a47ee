// SPDX-License-Identifier: GPL-2.0
/*
 * Smaller pieces of the read path: compressed (LZNT1) data, reparse points
 * as symlinks, the free-cluster count, a file's parent, the volume label
 * ioctl and the system.* attribute xattrs.
 */

#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xattr.h>
#include <linux/buffer_head.h>
#include <linux/unaligned.h>

#include "ntfs3.h"
#include "lznt1.h"

/* ---- compressed streams ------------------------------------------------ */

/*
 * Fill @dst with compression unit @cu of a compressed stream.  A unit
 * whose clusters are all allocated is stored as is; one with no clusters
 * is zeros; otherwise its allocated clusters (the first ones) hold LZNT1
 * data.
 */
static int ntfs_read_cu(struct inode *inode, u64 cu, u8 *dst, u8 *src)
{
	struct ntfs_sb *sbi = NTFS_SB(inode->i_sb);
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u32 cu_clusters = 1U << ns->compression_unit;
	u32 cu_bytes = cu_clusters << sbi->cluster_bits;
	u64 vcn = cu << ns->compression_unit, end = vcn + cu_clusters;
	u32 have = 0;
	size_t out;
	int err = 0;

	down_read(&ns->run_lock);
	while (vcn < end) {
		const struct ntfs_run *run = ntfs_run_lookup(ns->runs, ns->nr_runs, vcn);
		u64 n;

		if (!run) {
			if ((vcn << sbi->cluster_bits) >= ns->alloc_size)
				break;
			err = -EIO;
			break;
		}
		n = min(run->vcn + run->len, end) - vcn;
		if (run->lcn != NTFS_LCN_HOLE) {
			u64 at = (run->lcn + vcn - run->vcn) << sbi->cluster_bits;

			err = ntfs_read_volume(inode->i_sb, at,
					       src + ((u64)have << sbi->cluster_bits),
					       n << sbi->cluster_bits);
			if (err)
				break;
			have += n;
		}
		vcn += n;
	}
	up_read(&ns->run_lock);
	if (err)
		return err;

	if (have == cu_clusters) {
		memcpy(dst, src, cu_bytes);
		return 0;
	}
	if (!have) {
		memset(dst, 0, cu_bytes);
		return 0;
	}
	err = ntfs_lznt1_decompress(src, (size_t)have << sbi->cluster_bits, dst, cu_bytes, &out);
	if (err)
		return -EIO;
	memset(dst + out, 0, cu_bytes - out);
	return 0;
}

/* The last compression unit decompressed, reused while folios fall in it. */
struct ntfs_cu_cache {
	u64 cu;
	bool valid;
	u32 cu_bytes;
	u8 *src;
	u8 *dst;
};

static int ntfs_cu_cache_init(struct inode *inode, struct ntfs_cu_cache *cc)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;

	cc->valid = false;
	cc->cu_bytes = (1U << ns->compression_unit) << NTFS_SB(inode->i_sb)->cluster_bits;
	cc->src = kvmalloc(cc->cu_bytes, GFP_NOFS);
	cc->dst = kvmalloc(cc->cu_bytes, GFP_NOFS);
	return cc->src && cc->dst ? 0 : -ENOMEM;
}

static void ntfs_cu_cache_free(struct ntfs_cu_cache *cc)
{
	kvfree(cc->src);
	kvfree(cc->dst);
}

/* Make @cc hold unit @cu, zeroed past the valid size. */
static int ntfs_cu_cache_load(struct inode *inode, struct ntfs_cu_cache *cc, u64 cu)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u64 valid = min(ns->valid_size, ns->data_size), cu_pos = cu * cc->cu_bytes;
	int err;

	if (cc->valid && cc->cu == cu)
		return 0;
	cc->valid = false;
	err = ntfs_read_cu(inode, cu, cc->dst, cc->src);
	if (err)
		return err;
	if (cu_pos + cc->cu_bytes > valid)
		memset(cc->dst + (valid > cu_pos ? valid - cu_pos : 0), 0,
		       cu_pos + cc->cu_bytes - max(valid, cu_pos));
	cc->cu = cu;
	cc->valid = true;
	return 0;
}

/* Fill a locked folio from the units it overlaps; it stays locked. */
static int ntfs_fill_compressed_folio(struct inode *inode, struct folio *folio,
				      struct ntfs_cu_cache *cc)
{
	struct ntfs_stream *ns = &NTFS_I(inode)->stream;
	u64 pos = folio_pos(folio), end = pos + folio_size(folio);
	int err;

	while (pos < end) {
		u64 cu = div_u64(pos, cc->cu_bytes);
		u32 off = pos - cu * cc->cu_bytes;
		u32 n = min_t(u64, end - pos, cc->cu_bytes - off);

		if (pos >= ns->data_size) {
			folio_zero_range(folio, pos - folio_pos(folio), end - pos);
			break;
		}
		err = ntfs_cu_cache_load(inode, cc, cu);
		if (err) {
			if (err == -EIO)
				ntfs_err_ratelimited(inode->i_sb, inode->i_ino,
						     "damaged compressed data");
			return err;
		}
		memcpy_to_folio(folio, pos - folio_pos(folio), cc->dst + off, n);
		pos += n;
	}
	folio_mark_uptodate(folio);
	return 0;
}

/*
 * After one folio of a unit is read, put the unit's other pages into the
 * page cache too, from the same decompression, where that needs no wait.
 */
static void ntfs_fill_unit_siblings(struct inode *inode, struct folio *done,
				    struct ntfs_cu_cache *cc)
{
	struct address_space *mapping = inode->i_mapping;
	pgoff_t first = (cc->cu * cc->cu_bytes) >> PAGE_SHIFT;
	pgoff_t last = ((cc->cu + 1) * cc->cu_bytes - 1) >> PAGE_SHIFT;
	pgoff_t eof = (i_size_read(inode) - 1) >> PAGE_SHIFT;
	pgoff_t idx;

	if (!i_size_read(inode))
		return;
	for (idx = first; idx <= min(last, eof); idx++) {
		struct folio *folio;

		if (idx >= done->index && idx < done->index + folio_nr_pages(done))
			continue;
		folio = __filemap_get_folio(mapping, idx, FGP_LOCK | FGP_CREAT | FGP_NOWAIT,
					    mapping_gfp_mask(mapping) | __GFP_NORETRY);
		if (IS_ERR(folio))
			continue;
		if (!folio_test_uptodate(folio))
			ntfs_fill_compressed_folio(inode, folio, cc);
		folio_unlock(folio);
		folio_put(folio);
	}
}

/**
 * ntfs_read_compressed_folio() - read_folio for an LZNT1-compressed stream
 * @inode:	the file
 * @folio:	locked folio to fill
 *
 * Decompresses the compression units the folio overlaps, and fills the
 * other pages of the unit from the same decompression.
 *
 * Return: 0 or a negative error; the folio is unlocked either way.
 */
int ntfs_read_compressed_folio(struct inode *inode, struct folio *folio)
{
	struct ntfs_cu_cache cc;
	int err = ntfs_cu_cache_init(inode, &cc);

	if (!err)
		err = ntfs_fill_compressed_folio(inode, folio, &cc);
	folio_unlock(folio);
	if (!err && cc.valid)
		ntfs_fill_unit_siblings(inode, folio, &cc);
	ntfs_cu_cache_free(&cc);
	return err;
}

/**
 * ntfs_readahead_compressed() - readahead for an LZNT1-compressed stream
 * @rac:	the readahead request
 *
 * Decompresses each unit once for all the folios of the request in it.
 */
void ntfs_readahead_compressed(struct readahead_control *rac)
{
	struct inode *inode = rac->mapping->host;
	struct ntfs_cu_cache cc;
	struct folio *folio;
	int err = ntfs_cu_cache_init(inode, &cc);

	while ((folio = readahead_folio(rac))) {
		if (!err && ntfs_fill_compressed_folio(inode, folio, &cc))
			err = -EIO;	/* leave the rest to read_folio */
		folio_unlock(folio);
	}
	ntfs_cu_cache_free(&cc);
}

/* ---- reparse points ---------------------------------------------------- */

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
const char *ntfs_get_link(struct dentry *dentry, struct inode *inode,
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

/* ---- volume-wide -------------------------------------------------------- */

/**
 * ntfs_count_free_clusters() - Free clusters, from $Bitmap, counted once
 * @sbi:	the volume
 *
 * Return: the count, or -1 when $Bitmap is unreadable.
 */
s64 ntfs_count_free_clusters(struct ntfs_sb *sbi)
{
	s64 cached = atomic64_read(&sbi->free_clusters);
	u64 bits = sbi->total_clusters, used = 0, pos = 0;
	struct inode *bm;

	if (cached >= 0)
		return cached;
	bm = ntfs_iget(sbi->sb, NTFS_BITMAP_INO);
	if (IS_ERR(bm))
		return -1;
	if (NTFS_I(bm)->stream.data_size < DIV_ROUND_UP(bits, 8) ||
	    ntfs_stream_check_meta(sbi, &NTFS_I(bm)->stream)) {
		iput(bm);
		return -1;
	}
	while (pos < bits) {
		struct folio *folio;
		unsigned long *map;
		u64 n;

		if (ntfs_walk_step()) {
			iput(bm);
			return -1;
		}
		folio = ntfs_stream_folio(bm, (pos / 8) >> PAGE_SHIFT, NTFS_BITMAP_READ_AROUND);
		if (IS_ERR(folio)) {
			iput(bm);
			return -1;
		}
		n = min_t(u64, bits - pos, (u64)folio_size(folio) * 8);
		map = kmap_local_folio(folio, 0);
		used += bitmap_weight(map, n);
		kunmap_local(map);
		folio_put(folio);
		pos += n;
	}
	iput(bm);
	atomic64_set(&sbi->free_clusters, bits - used);
	return bits - used;
}

/**
 * ntfs_parent_of() - The directory a file is named in (its first name)
 * @inode:	the file
 * @parent:	set to the parent's record number
 *
 * Return: 0, -EIO, -ENOENT, -ENOMEM.
 */
int ntfs_parent_of(struct inode *inode, u64 *parent)
{
	struct ntfs_recset_pos pos = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a;
	int err = ntfs_recset_load(NTFS_SB(inode->i_sb), inode->i_ino, &rs);

	if (!err) {
		err = -ENOENT;
		while ((a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
			const struct ntfs_file_name *fn;

			if (le32_to_cpu(a->type) != NTFS_AT_FILE_NAME)
				continue;
			fn = ntfs_attr_value(a, sizeof(*fn));
			if (fn) {
				*parent = NTFS_REF_RECORD(le64_to_cpu(fn->parent));
				err = 0;
				break;
			}
		}
	}
	ntfs_recset_free(&rs);
	return err;
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

/* ---- $EA: user.* xattrs and WSL metadata ---------------------------- */

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

/**
 * ntfs_stream_iget() - A stream inode for one named attribute of a file
 * @sb:		the volume
 * @nr:		record number of the file
 * @type:	attribute type
 * @name:	UTF-16 attribute name
 * @name_len:	units in @name
 *
 * Return: the stream inode (put it with iput()), or an ERR_PTR.
 */
struct inode *ntfs_stream_iget(struct super_block *sb, u64 nr, u32 type,
			       const __le16 *name, u8 name_len)
{
	struct ntfs_sb *sbi = NTFS_SB(sb);
	struct ntfs_recset_pos pos = {};
	struct ntfs_stream ns = {};
	struct ntfs_recset rs;
	struct ntfs_attr *a, *first = NULL;
	struct inode *inode;
	int err;

	init_rwsem(&ns.run_lock);
	ns.record = nr;
	ns.type = type;
	err = ntfs_recset_load(sbi, nr, &rs);
	while (!err && (a = ntfs_recset_next(&rs, &pos)) && !IS_ERR(a)) {
		if (le32_to_cpu(a->type) != type || !ntfs_attr_name_is(a, name, name_len))
			continue;
		if (!a->non_resident || !a->nr.lowest_vcn) {
			/* Two first extents (or two values): corrupt, not a leak. */
			if (first) {
				err = ntfs_err_ratelimited(sb, nr, "attribute 0x%x: %s", type,
							   "two first extents");
				break;
			}
			first = a;
			err = ntfs_stream_from_attr(sbi, &ns, a);
		}
		if (!err && a->non_resident)
			err = ntfs_stream_add_extent(sbi, &ns, a);
	}
	if (!err && !first)
		err = -ENOENT;
	if (!err)
		err = ntfs_stream_finish_runs(sbi, &ns);
	ntfs_recset_free(&rs);
	if (err) {
		ntfs_stream_release(&ns);
		return ERR_PTR(err);
	}
	inode = ntfs_new_stream_inode(sb, NULL, &ns);
	if (IS_ERR(inode))
		ntfs_stream_release(&ns);
	return inode;
}

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

/* ---- xattrs ------------------------------------------------------------ */

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
