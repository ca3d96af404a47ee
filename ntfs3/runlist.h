/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntfs3: runlists, the decoded form of the mapping pairs of non-resident
 * attributes.
 */
#ifndef _NTFS3_RUNLIST_H
#define _NTFS3_RUNLIST_H

#include <linux/types.h>

/* LCN of a run that has no clusters on disk (sparse, or a compressed tail). */
#define NTFS_LCN_HOLE		((s64)-1)

/**
 * struct ntfs_run - one run of clusters of a non-resident attribute
 * @vcn: first virtual cluster number (cluster index inside the attribute)
 * @lcn: first logical cluster number on the volume, or %NTFS_LCN_HOLE
 * @len: number of clusters, never 0
 */
struct ntfs_run {
	u64 vcn;
	s64 lcn;
	u64 len;
};

int ntfs_decode_runs(const u8 *mp, size_t mp_len, u64 lowest_vcn,
		     u64 highest_vcn, u64 total_clusters,
		     struct ntfs_run **runs, unsigned int *nr,
		     unsigned int *cap, const char **why);
int ntfs_runs_merge_check(const struct ntfs_run *runs, unsigned int nr);
const struct ntfs_run *ntfs_run_lookup(const struct ntfs_run *runs,
				       unsigned int nr, u64 vcn);
int ntfs_encode_runs(const struct ntfs_run *runs, unsigned int nr,
		     u64 first_vcn, u64 end_vcn, u8 *mp, size_t size, size_t *used);

#endif /* _NTFS3_RUNLIST_H */
