// SPDX-License-Identifier: GPL-2.0
/*
 * The journal: whether it is clean, from the two restart pages at its
 * start, and emptying it before a read-write mount changes the volume.
 * Replay is not implemented yet: a volume whose journal is not clean is
 * only mounted read-only.
 */

#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/unaligned.h>

#include "ntfs3.h"

/*
 * Whether the restart page at @pos of the journal (@ps bytes, read into @p)
 * says the journal is clean: emptied (all 0xff), or a restart area with
 * no client in use or with the clean flag.  The page is fixup-protected
 * like an MFT record: its fields are only looked at once the update
 * sequence is checked and undone.  Returns 1 clean, 0 not, -EIO unusable.
 */
static int ntfs_restart_page_clean(struct inode *log, u64 pos, u8 *p, u32 ps)
{
	u32 ra;

	if (ntfs_read_stream(log, pos, p, ps))
		return -EIO;
	if (!memchr_inv(p, 0xff, ps))
		return 1;
	if (ntfs_fixup(p, ps, NTFS_MAGIC_RSTR))
		return -EIO;
	ra = get_unaligned_le16(p + 0x18);
	/* client_in_use_list (+0x0c) empty, or flags (+0x0e) bit 1: clean */
	if (ra % 8 || ra + 0x10 > ps)
		return -EIO;
	return get_unaligned_le16(p + ra + 0x0c) == 0xffff ||
	       (get_unaligned_le16(p + ra + 0x0e) & 0x0002);
}

/*
 * Whether the journal is clean, from the first intact one of its two
 * restart pages.  Their size is in the page's own header (system page
 * size, 4 KiB on x86 Windows).
 */
bool ntfs_logfile_clean(struct super_block *sb, struct ntfs_sb *sbi)
{
	struct inode *inode = ntfs_iget(sb, NTFS_LOGFILE_INO);
	int clean = -EIO;
	u64 size;
	u32 ps, i;
	u8 *p;

	if (IS_ERR(inode))
		return false;
	size = NTFS_I(inode)->stream.data_size;
	p = kmalloc(SZ_64K, GFP_KERNEL);
	if (p && size >= 512 && !ntfs_read_stream(inode, 0, p, 512)) {
		ps = get_unaligned_le32(p + 0x10);
		/* No usable page size (an emptied journal is 0xff throughout): 4 KiB. */
		if (ps < 512 || ps > SZ_64K || !is_power_of_2(ps))
			ps = 4096;
		for (i = 0; i < 2 && clean < 0 && (u64)(i + 1) * ps <= size; i++)
			clean = ntfs_restart_page_clean(inode, (u64)i * ps, p, ps);
	}
	kfree(p);
	iput(inode);
	return clean > 0;
}

/* Bytes of the journal emptied per step: the unit of progress and of kill checks. */
#define NTFS_LOG_FILL_STEP	SZ_64K

/*
 * The head of the journal: its two restart pages (of at most 64 KiB each,
 * ntfs_logfile_clean()).  The reset writes it last.
 */
#define NTFS_LOG_HEAD		(2 * SZ_64K)

/*
 * Whether the journal was emptied: its head reads as 0xff.  The reset
 * fills the pages after the head first and the head only once they are on
 * the device, and every writer of log pages writes a restart page too
 * (Windows at each mount, chkdsk), so an empty head means an empty
 * journal: a mount reads 128 KiB, not the whole file (64 MiB on large
 * volumes).
 */
static int ntfs_logfile_is_empty(struct inode *log, u8 *buf)
{
	u64 size = NTFS_I(log)->stream.data_size;
	u32 n = min_t(u64, NTFS_LOG_HEAD, size);
	int err = ntfs_read_stream(log, 0, buf, n);

	if (err)
		return err;
	return !memchr_inv(buf, 0xff, n);
}

/* Fill [@from, @to) of the journal with 0xff (in @buf) and write it now. */
static int ntfs_logfile_fill(struct inode *log, u8 *buf, u64 from, u64 to)
{
	u64 pos;
	int err = 0;

	for (pos = from; !err && pos < to; pos += NTFS_LOG_FILL_STEP) {
		err = ntfs_walk_step();
		if (!err)
			err = ntfs_write_stream(log, pos, buf,
						min_t(u64, NTFS_LOG_FILL_STEP, to - pos));
	}
	if (!err && from < to)
		err = filemap_write_and_wait_range(log->i_mapping, from, to - 1);
	return err;
}

/**
 * ntfs_logfile_reset() - Empty the journal before the volume is changed
 * @sbi:	the volume, being made writable; its journal was found clean
 *
 * We do not journal yet.  A clean journal could still hold records of
 * Windows' last session after its restart area; once we have changed the
 * records they describe, nothing in it may ever be replayed over them.
 * So the whole journal file is filled with 0xff and written before the first
 * change: both restart pages and every log page then read as "never
 * used", which Windows (and ntfs-3g, chkdsk) treat as an empty journal
 * and initialise afresh on their next mount.  The log pages go first and
 * the restart pages last: a reset cut short leaves the old (clean)
 * restart area, and the next mount starts over.  A journal whose restart
 * pages already read as 0xff is left alone (ntfs_logfile_is_empty()).
 *
 * Return: 0 or an error (the mount then stays read-only).
 */
int ntfs_logfile_reset(struct ntfs_sb *sbi)
{
	struct inode *log = ntfs_iget(sbi->sb, NTFS_LOGFILE_INO);
	u64 size, head;
	u8 *buf;
	int err;

	if (IS_ERR(log))
		return PTR_ERR(log);
	size = NTFS_I(log)->stream.data_size;
	head = min_t(u64, NTFS_LOG_HEAD, size);
	buf = kvmalloc(max(NTFS_LOG_FILL_STEP, NTFS_LOG_HEAD), GFP_KERNEL);
	err = buf ? 0 : -ENOMEM;
	if (!err && (NTFS_I(log)->stream.resident ||
		     ntfs_stream_check_meta(sbi, &NTFS_I(log)->stream)))
		err = -EIO;
	if (!err)
		err = ntfs_logfile_is_empty(log, buf);
	if (err == 0) {
		memset(buf, 0xff, NTFS_LOG_FILL_STEP);
		err = ntfs_logfile_fill(log, buf, head, size);
		if (!err)
			err = ntfs_logfile_fill(log, buf, 0, head);
	} else if (err == 1) {
		err = 0;
	}
	kvfree(buf);
	iput(log);
	return err;
}
