// SPDX-License-Identifier: GPL-2.0
/*
 * Reporting damage: the rate-limited message with which every refusal of a
 * corrupt on-disk structure names the rule it breaks.
 */

#include <linux/ratelimit.h>

#include "ntfs3.h"

/**
 * ntfs_err_ratelimited() - Report a damaged object once in a while
 * @sb:		the volume
 * @nr:		MFT record of the object
 * @fmt:	what is wrong
 *
 * Return: -EIO, so that a refusal can report its rule and fail in one
 * statement.
 */
int ntfs_err_ratelimited(struct super_block *sb, u64 nr, const char *fmt, ...)
{
	static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);
	struct va_format vaf;
	va_list args;

	if (!__ratelimit(&rs))
		return -EIO;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("ntfs3 (%s): record %llu: %pV\n", sb->s_id, nr, &vaf);
	va_end(args);
	return -EIO;
}
