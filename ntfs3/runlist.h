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
/* A run array being built: @nr runs in room for @cap. */
struct ntfs_runs {
	struct ntfs_run *runs;
	unsigned int nr;
	unsigned int cap;
};

/*
 * Where new clusters come from and where cut ones go (balloc.c in the
 * driver, a model in the host tests).  @alloc gives 1..@want clusters,
 * preferably at @hint; @free frees clusters (at commit, in the driver).
 */
struct ntfs_run_source {
	int (*alloc)(void *ctx, u64 hint, u64 want, struct ntfs_run *got);
	int (*free)(void *ctx, u64 lcn, u64 len);
	void *ctx;
};

/* ntfs_runs_fill() flags */
#define NTFS_FILL_GAP_HOLE	0x1	/* a gap before the range stays a hole */
#define NTFS_FILL_HOLES		0x2	/* holes stay, the extension is a hole */

int ntfs_runs_merge_check(const struct ntfs_run *runs, unsigned int nr);
const struct ntfs_run *ntfs_run_lookup(const struct ntfs_run *runs,
				       unsigned int nr, u64 vcn);
int ntfs_encode_runs(const struct ntfs_run *runs, unsigned int nr,
		     u64 first_vcn, u64 end_vcn, u8 *mp, size_t size, size_t *used);

u64 ntfs_runs_fit(const struct ntfs_run *runs, unsigned int nr, u64 first_vcn,
		  u64 end_vcn, size_t size);

int ntfs_runs_add(struct ntfs_runs *ra, u64 vcn, s64 lcn, u64 len);
int ntfs_runs_fill(const struct ntfs_run *runs, unsigned int nr, u64 old_end,
		   u64 vcn, u64 end, unsigned int flags,
		   const struct ntfs_run_source *src, struct ntfs_runs *out);
int ntfs_runs_cut(const struct ntfs_run *runs, unsigned int nr, u64 end,
		  const struct ntfs_run_source *src, struct ntfs_runs *out);
int ntfs_runs_punch(const struct ntfs_run *runs, unsigned int nr, u64 vcn, u64 end,
		    const struct ntfs_run_source *src, struct ntfs_runs *out);
int ntfs_runs_collapse(const struct ntfs_run *runs, unsigned int nr, u64 vcn, u64 end,
		       const struct ntfs_run_source *src, struct ntfs_runs *out);
int ntfs_runs_insert_hole(const struct ntfs_run *runs, unsigned int nr, u64 old_end, u64 vcn,
			  u64 len, struct ntfs_runs *out);

#endif /* _NTFS3_RUNLIST_H */
