// SPDX-License-Identifier: GPL-2.0
/*
 * The journal: whether it is clean, from the two restart pages at its
 * start.  Replay is not implemented yet: a volume whose journal is not
 * clean is only mounted read-only.
 */

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
