// SPDX-License-Identifier: GPL-2.0
/*
 * Disk quotas: $Extend\$Quota:$Q holds a quota control entry per owner id
 * (ULONG collation), with what Windows charged to the owner; owner id 1
 * is the volume's defaults entry, whose flags say whether quotas are
 * tracked.  This driver charges nothing, so after it changed a volume
 * whose quotas are tracked the charges are wrong.  Its first change of a
 * mount therefore marks the defaults entry out of date: Windows then
 * rebuilds the charges from the files, as it does after its own crash
 * recovery finds them unreliable.  A volume whose quotas are not tracked
 * is left alone: Windows rebuilds the charges anyway when tracking is
 * turned on.
 */

#include "ntfs3.h"

static const __le16 ntfs_quota_name[] = { cpu_to_le16('$'), cpu_to_le16('Q'), cpu_to_le16('u'),
					  cpu_to_le16('o'), cpu_to_le16('t'), cpu_to_le16('a') };
static const __le16 ntfs_q_name[] = { cpu_to_le16('$'), cpu_to_le16('Q') };

/* Flags under which the charges are in use. */
#define NTFS_QUOTA_IN_USE	(NTFS_QUOTA_TRACKING | NTFS_QUOTA_ENFORCING | \
				 NTFS_QUOTA_TRACKING_REQUESTED)

/* What ntfs_quota_edit() says of a defaults entry it cannot read. */
#define NTFS_QUOTA_MALFORMED	EBADMSG

/* ULONG collation of the owner id. */
static int ntfs_q_cmp(const void *key, const struct ntfs_index_entry *e)
{
	return ntfs_ulongs_cmp(key, e, sizeof(__le32));
}

static const struct ntfs_view ntfs_q_view = {
	.name		= ntfs_q_name,
	.name_len	= ARRAY_SIZE(ntfs_q_name),
	.key_len	= sizeof(__le32),
	.collation	= NTFS_COLLATION_ULONG,
	.cmp		= ntfs_q_cmp,
};

/**
 * ntfs_quota_open() - Load $Extend\$Quota's $Q for the first change
 * @sbi:	the volume, being made writable
 * @ext:	the $Extend directory
 *
 * No $Quota at all (NTFS 1.2, or a volume made without one) is said
 * nothing of; one that cannot be used is said once, and the mount goes
 * on without it.
 */
void ntfs_quota_open(struct ntfs_sb *sbi, struct inode *ext)
{
	struct inode *ix = ntfs_extend_view_iget(ext, ntfs_quota_name,
						 ARRAY_SIZE(ntfs_quota_name), &ntfs_q_view);

	if (IS_ERR(ix)) {
		if (PTR_ERR(ix) != -ENOENT)
			pr_warn("ntfs3 (%s): no usable $Extend\\$Quota:$Q (%ld): quotas are not marked out of date\n",
				sbi->sb->s_id, PTR_ERR(ix));
		ix = NULL;
	}
	iput(sbi->quota_ix);
	sbi->quota_ix = ix;
	sbi->quota_done = false;
}

/*
 * The defaults entry: out of date from now on when quotas are in use, and
 * left as it is when they are not or it says so already.
 */
static int ntfs_quota_edit(void *data, u32 len, void *arg)
{
	struct ntfs_quota_entry *q = data;
	u32 flags;

	if (len < sizeof(*q) || le32_to_cpu(q->version) != NTFS_QUOTA_VERSION)
		return -NTFS_QUOTA_MALFORMED;
	flags = le32_to_cpu(q->flags);
	if (!(flags & NTFS_QUOTA_IN_USE) || (flags & NTFS_QUOTA_OUT_OF_DATE))
		return 0;
	q->flags = cpu_to_le32(flags | NTFS_QUOTA_OUT_OF_DATE);
	return 1;
}

/* Mark the quotas out of date in a transaction of its own: 0 or an errno. */
static int ntfs_quota_mark(struct ntfs_sb *sbi, struct inode *ix)
{
	static const __le32 id = cpu_to_le32(NTFS_QUOTA_DEFAULTS_ID);
	struct ntfs_trans t;
	int err;

	err = ntfs_trans_begin(sbi, &t);
	if (err)
		return err;
	err = ntfs_trans_lock(&t, NTFS_I(ix), 0);
	if (!err)
		err = ntfs_view_update(&t, ix, &ntfs_q_view, &id, ntfs_quota_edit, NULL);
	if (err > 0)
		return ntfs_trans_commit(&t);
	ntfs_trans_abort(&t);
	return err;
}

/**
 * ntfs_quota_work() - Mark the quotas out of date, once a mount
 * @work:	the volume's quota_work, queued by its first change
 *
 * Runs apart from the change that queued it, which holds locks a
 * transaction of its own cannot be begun under.  A failure is said once
 * (a damaged index names its record itself) and never fails a change.
 */
void ntfs_quota_work(struct work_struct *work)
{
	struct ntfs_sb *sbi = container_of(work, struct ntfs_sb, quota_work);
	struct inode *ix = sbi->quota_ix;
	int err;

	if (!ix || READ_ONCE(sbi->quota_done))
		return;
	WRITE_ONCE(sbi->quota_done, true);
	err = ntfs_quota_mark(sbi, ix);
	if (err == -NTFS_QUOTA_MALFORMED)
		pr_warn("ntfs3 (%s): $Extend\\$Quota's defaults entry is malformed: quotas are not marked out of date\n",
			sbi->sb->s_id);
	else if (err < 0 && err != -EIO && err != -EROFS)
		pr_warn("ntfs3 (%s): quotas not marked out of date (%d)\n", sbi->sb->s_id, err);
}

/**
 * ntfs_quota_flush() - Wait for the quotas to be marked, when that is queued
 * @sbi:	the volume
 *
 * Called before the volume is written clean, without the transaction
 * lock, and before it goes away.
 */
void ntfs_quota_flush(struct ntfs_sb *sbi)
{
	flush_work(&sbi->quota_work);
}
