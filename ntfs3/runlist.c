// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs3: mapping pairs decoding and encoding, the run array, VCN lookup, and
 * run arrays rebuilt with a range allocated or cut off.
 *
 * The format (Linux-NTFS documentation, "Data Runs"; libyal NTFS document):
 *
 * The clusters of a non-resident attribute are described, per attribute
 * extent, by its mapping pairs: a sequence of runs ended by a 0x00 byte.  A
 * run starts with a header byte whose low nibble is the number of bytes of
 * the run length and whose high nibble is the number of bytes of the LCN
 * offset; the length follows, then the offset, both little-endian.  The
 * offset is signed and relative to the LCN of the previous run that has
 * one (the first run of every extent is relative to 0).  A run without an
 * offset (high nibble 0) has no clusters on disk: it is sparse, or the
 * unused tail of a compression unit, and reads as zeros.  The runs of an
 * extent cover its VCNs from lowest_vcn to highest_vcn without a gap.
 *
 * The length is read as unsigned: writers encode it like the signed offset,
 * with enough bytes that its top bit is clear, and such a value reads the
 * same either way.
 *
 * Every violation of the format is reported as -EIO: the stream is then
 * unreadable, which is this driver's policy for a corrupt attribute.
 */

#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/types.h>

#include "runlist.h"

/* kvmalloc() does not hand out more than INT_MAX bytes. */
#define NTFS_RUNS_MAX	(INT_MAX / sizeof(struct ntfs_run))

/* An unsigned little-endian number of @n (1..8) bytes. */
static u64 ntfs_mp_get(const u8 *p, unsigned int n)
{
	u64 v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* A signed little-endian number of @n (1..8) bytes. */
static s64 ntfs_mp_get_signed(const u8 *p, unsigned int n)
{
	u64 v = ntfs_mp_get(p, n);

	if (n < 8 && (p[n - 1] & 0x80))
		v |= U64_MAX << (8 * n);
	return (s64)v;
}

/*
 * Walk the mapping pairs of one extent that covers the VCNs [@vcn, @end).
 * With @out NULL, only check them and count the runs; otherwise also store
 * the runs at @out, which has room for the count of a checking walk.
 * Return 0 and set *@count, or -EIO with *@why naming the rule broken.
 */
static int ntfs_mp_walk(const u8 *mp, size_t mp_len, u64 vcn, u64 end,
			u64 total_clusters, struct ntfs_run *out,
			unsigned int *count, const char **why)
{
	size_t pos = 0;
	s64 lcn = 0;
	unsigned int n = 0;

	for (;;) {
		unsigned int lsz, osz;
		s64 run_lcn = NTFS_LCN_HOLE;
		u64 len;
		u8 hdr;

		/* The terminating 0x00 must be there. */
		if (pos >= mp_len) {
			*why = "no terminating 0x00 inside the attribute";
			return -EIO;
		}
		hdr = mp[pos++];
		if (!hdr)
			break;

		lsz = hdr & 0x0f;
		osz = hdr >> 4;
		if (lsz < 1 || lsz > 8 || osz > 8 || mp_len - pos < lsz + osz) {
			*why = "run header: length of 1-8 bytes, offset of 0-8, inside";
			return -EIO;
		}

		len = ntfs_mp_get(mp + pos, lsz);
		pos += lsz;
		/* vcn <= end holds, so this also keeps vcn + len from wrapping. */
		if (!len || len > end - vcn) {
			*why = len ? "runs reach past highest_vcn" : "a run of length 0";
			return -EIO;
		}

		if (osz) {
			s64 delta = ntfs_mp_get_signed(mp + pos, osz);

			pos += osz;
			/* lcn >= 0, so only a positive delta can overflow. */
			if (delta > 0 && lcn > S64_MAX - delta) {
				*why = "LCN offsets overflow";
				return -EIO;
			}
			lcn += delta;
			if (lcn < 0 || (u64)lcn > total_clusters ||
			    len > total_clusters - lcn) {
				*why = "a run lies outside the volume";
				return -EIO;
			}
			run_lcn = lcn;
		}

		if (n >= NTFS_RUNS_MAX) {
			*why = "too many runs";
			return -EIO;
		}
		if (out) {
			out[n].vcn = vcn;
			out[n].lcn = run_lcn;
			out[n].len = len;
		}
		n++;
		vcn += len;
	}

	/* The extent must end exactly after highest_vcn. */
	if (vcn != end) {
		*why = "runs end before highest_vcn";
		return -EIO;
	}
	*count = n;
	return 0;
}

/**
 * ntfs_decode_runs() - decode the mapping pairs of one attribute extent
 * @mp: the mapping pairs
 * @mp_len: bytes available at @mp (to the end of the attribute); nothing
 *	past them is read
 * @lowest_vcn: first VCN of the extent, from its attribute header
 * @highest_vcn: last VCN of the extent, from its attribute header;
 *	@lowest_vcn - 1 for an extent without runs (U64_MAX, -1 on disk, for
 *	the first extent: an attribute without clusters)
 * @total_clusters: number of clusters of the volume
 * @runs: the run array, grown with kvrealloc() as needed; free it with
 *	kvfree().  May be NULL with *@cap 0.
 * @nr: number of runs in *@runs; the new runs are appended
 * @cap: number of runs *@runs has room for
 * @why: set to the rule a corrupt extent breaks (for the error message)
 *
 * An extent without VCNs (@highest_vcn + 1 == @lowest_vcn) has no runs:
 * its mapping pairs are not looked at.
 *
 * Checks the whole extent before it changes anything: every header has a
 * length size of 1 to 8 bytes and an offset size of 0 to 8 bytes, all of
 * which are within @mp_len; no run is empty; the LCN offsets add up without
 * overflow; every run with clusters lies inside [0, @total_clusters); the
 * runs never go past @highest_vcn and end exactly after it; the terminating
 * 0x00 byte is present.  Runs without an offset are stored with
 * lcn == %NTFS_LCN_HOLE.
 *
 * The runs are appended as they are; whether the extents put together are
 * in order and do not overlap is for ntfs_runs_merge_check().
 *
 * Context: Process context, may sleep (GFP_NOFS allocation).  The caller
 * serialises changes to the array.
 * Return: 0 on success.  -EIO if the mapping pairs or the VCN range are
 * corrupt, -ENOMEM if the array cannot grow.  On error *@nr is unchanged and
 * so are the runs in the array (it may have been reallocated, with *@runs
 * and *@cap updated).
 */
int ntfs_decode_runs(const u8 *mp, size_t mp_len, u64 lowest_vcn,
		     u64 highest_vcn, u64 total_clusters,
		     struct ntfs_run **runs, unsigned int *nr,
		     unsigned int *cap, const char **why)
{
	unsigned int count, need;
	u64 end;
	int err;

	/*
	 * VCNs are signed 64-bit numbers on disk.  highest_vcn + 1 ==
	 * lowest_vcn is an extent without runs (-1 for the first extent).
	 */
	end = highest_vcn + 1;
	if (lowest_vcn > S64_MAX || end > S64_MAX || lowest_vcn > end ||
	    total_clusters > S64_MAX) {
		*why = "lowest_vcn above highest_vcn + 1, or VCNs beyond 2^63";
		return -EIO;
	}

	/*
	 * An extent without VCNs has no runs, whatever bytes follow: a
	 * stream cut to zero in place keeps its old mapping pairs (the
	 * in-tree driver leaves them), and no reader decodes them.
	 */
	if (lowest_vcn == end)
		return 0;

	err = ntfs_mp_walk(mp, mp_len, lowest_vcn, end, total_clusters, NULL,
			   &count, why);
	if (err)
		return err;
	if (!count)
		return 0;

	if (*nr > NTFS_RUNS_MAX || count > NTFS_RUNS_MAX - *nr)
		return -ENOMEM;
	need = *nr + count;
	if (need > *cap) {
		unsigned int new_cap = max(need, 16U);
		struct ntfs_run *p;

		if (*cap <= NTFS_RUNS_MAX / 2)
			new_cap = max(new_cap, *cap * 2);
		p = kvrealloc(*runs, array_size(new_cap, sizeof(*p)), GFP_NOFS);
		if (!p)
			return -ENOMEM;
		*runs = p;
		*cap = new_cap;
	}

	/* Cannot fail: the same walk just succeeded. */
	ntfs_mp_walk(mp, mp_len, lowest_vcn, end, total_clusters, *runs + *nr,
		     &count, why);
	*nr = need;
	return 0;
}

/**
 * ntfs_runs_merge_check() - check that a run array can be searched
 * @runs: the runs, e.g. of all extents of an attribute
 * @nr: number of runs
 *
 * The runs must be sorted by VCN and must not overlap; gaps between them
 * (extents not loaded) are allowed.  Every run must be non-empty, must not
 * reach past the largest VCN, and must have an LCN that is either not
 * negative or %NTFS_LCN_HOLE.
 *
 * Context: Any context.
 * Return: 0 if the array is fit for ntfs_run_lookup(), -EIO otherwise.
 */
int ntfs_runs_merge_check(const struct ntfs_run *runs, unsigned int nr)
{
	u64 next = 0;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const struct ntfs_run *r = &runs[i];

		if (!r->len || r->vcn < next || r->len > U64_MAX - r->vcn)
			return -EIO;
		if (r->lcn < 0 && r->lcn != NTFS_LCN_HOLE)
			return -EIO;
		next = r->vcn + r->len;
	}
	return 0;
}

/**
 * ntfs_run_lookup() - find the run that holds a VCN
 * @runs: the runs, checked with ntfs_runs_merge_check()
 * @nr: number of runs
 * @vcn: the VCN to look up
 *
 * Binary search, O(log @nr).
 *
 * Context: Any context.  The caller keeps the array stable (holds the run
 * lock at least for reading).
 * Return: the run with @vcn in [vcn, vcn + len), or NULL if no run covers
 * @vcn (before the first run, in a gap, or after the last one).
 */
const struct ntfs_run *ntfs_run_lookup(const struct ntfs_run *runs,
				       unsigned int nr, u64 vcn)
{
	unsigned int lo = 0, hi = nr;
	const struct ntfs_run *r;

	/* Find the first run that starts after @vcn. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (runs[mid].vcn <= vcn)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	r = &runs[lo - 1];
	return vcn - r->vcn < r->len ? r : NULL;
}

/*
 * Bytes needed for @v as a little-endian two's complement number whose
 * sign comes out right when read back signed: 1 to 8.  Lengths are
 * written the same way (they are below 2^62, so the top bit stays clear
 * and an unsigned reader sees the same value).
 */
static unsigned int ntfs_mp_bytes(s64 v)
{
	unsigned int n = 1;

	while (n < 8 && (v < -(1LL << (8 * n - 1)) || v >= 1LL << (8 * n - 1)))
		n++;
	return n;
}

/* Store the low @n bytes of @v at @p, little-endian. */
static void ntfs_mp_put(u8 *p, u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

/*
 * The longest piece of clusters that starts at @vcn and continues on disk
 * (or stays a hole) across run boundaries, clipped at @end.  *@i is the run
 * holding @vcn and is moved to the last run used.  Return the length and
 * set *@lcn to its first LCN (%NTFS_LCN_HOLE for a hole), or return 0 when
 * no run holds @vcn.
 */
static u64 ntfs_mp_piece(const struct ntfs_run *runs, unsigned int nr,
			 unsigned int *i, u64 vcn, u64 end, s64 *lcn)
{
	const struct ntfs_run *r = &runs[*i];
	u64 len;

	if (vcn < r->vcn || vcn - r->vcn >= r->len)
		return 0;
	*lcn = r->lcn == NTFS_LCN_HOLE ? NTFS_LCN_HOLE : r->lcn + (s64)(vcn - r->vcn);
	len = min(r->vcn + r->len, end) - vcn;
	while (vcn + len < end && *i + 1 < nr) {
		const struct ntfs_run *next = &runs[*i + 1];
		bool joins = *lcn == NTFS_LCN_HOLE ? next->lcn == NTFS_LCN_HOLE :
			     next->lcn == *lcn + (s64)len;

		if (next->vcn != vcn + len || !joins)
			break;
		len = min(next->vcn + next->len, end) - vcn;
		(*i)++;
	}
	return len;
}

/**
 * ntfs_encode_runs() - encode runs as the mapping pairs of one extent
 * @runs: the runs, sorted by VCN, not overlapping (ntfs_runs_merge_check())
 * @nr: number of runs
 * @first_vcn: first VCN of the extent (its lowest_vcn)
 * @end_vcn: VCN after its last one (highest_vcn + 1)
 * @mp: where to write the mapping pairs, or NULL to only measure them
 * @size: bytes available at @mp
 * @used: set to the bytes the mapping pairs take, terminator included,
 *	also when they do not fit
 *
 * The runs must cover [@first_vcn, @end_vcn) without a gap; runs that reach
 * outside it are clipped.  Neighbouring runs that continue each other on
 * disk (or are both holes) become one, every number takes the fewest bytes
 * that read back right (the LCN as a signed offset from the previous run of
 * the extent that has clusters, the first one from 0), holes have no LCN
 * bytes, and a 0x00 byte ends the list.  An empty range is just the 0x00.
 *
 * Context: Any context.
 * Return: 0; -ENOSPC if @mp is not NULL and @size is too small (nothing
 * beyond @size is written); -EINVAL if the runs do not cover the range or
 * the range is reversed.
 */
int ntfs_encode_runs(const struct ntfs_run *runs, unsigned int nr,
		     u64 first_vcn, u64 end_vcn, u8 *mp, size_t size, size_t *used)
{
	const struct ntfs_run *r = NULL;
	unsigned int i = 0;
	size_t pos = 0;
	u64 vcn = first_vcn;
	s64 prev = 0;

	*used = 0;
	/* Lengths and LCN offsets are computed as s64. */
	if (first_vcn > end_vcn || end_vcn > S64_MAX)
		return -EINVAL;
	if (vcn < end_vcn) {
		r = ntfs_run_lookup(runs, nr, vcn);
		if (!r)
			return -EINVAL;
		i = r - runs;
	}

	while (vcn < end_vcn) {
		unsigned int lsz, osz = 0;
		s64 lcn, delta = 0;
		u64 len;

		if (vcn > first_vcn && ++i >= nr)
			return -EINVAL;
		len = ntfs_mp_piece(runs, nr, &i, vcn, end_vcn, &lcn);
		if (!len || (lcn < 0 && lcn != NTFS_LCN_HOLE))
			return -EINVAL;
		lsz = ntfs_mp_bytes(len);
		if (lcn != NTFS_LCN_HOLE) {
			delta = lcn - prev;
			osz = ntfs_mp_bytes(delta);
			prev = lcn;
		}
		if (mp && pos + 1 + lsz + osz <= size) {
			mp[pos] = osz << 4 | lsz;
			ntfs_mp_put(mp + pos + 1, len, lsz);
			ntfs_mp_put(mp + pos + 1 + lsz, (u64)delta, osz);
		}
		pos += 1 + lsz + osz;
		vcn += len;
	}
	if (mp && pos < size)
		mp[pos] = 0;
	*used = ++pos;
	return mp && pos > size ? -ENOSPC : 0;
}

/**
 * ntfs_runs_fit() - How far an extent's mapping pairs reach in a byte budget
 * @runs: the runs, as for ntfs_encode_runs()
 * @nr: number of runs
 * @first_vcn: first VCN of the extent
 * @end_vcn: VCN after the last one the runs should cover
 * @size: bytes the extent's mapping pairs may take, terminator included
 *
 * A stream whose mapping pairs do not fit in one MFT record is split into
 * extents; this says where the extent that starts at @first_vcn has to
 * end.  The pieces are those ntfs_encode_runs() makes, so encoding
 * [@first_vcn, return value) takes at most @size bytes.
 *
 * Context: Any context.
 * Return: @end_vcn when everything fits; the end of the last piece that
 * fits; @first_vcn when none does or the runs do not cover @first_vcn.
 */
u64 ntfs_runs_fit(const struct ntfs_run *runs, unsigned int nr, u64 first_vcn,
		  u64 end_vcn, size_t size)
{
	const struct ntfs_run *r;
	u64 vcn = first_vcn;
	size_t pos = 1;
	unsigned int i;
	s64 prev = 0;

	if (first_vcn >= end_vcn || end_vcn > S64_MAX)
		return first_vcn;
	r = ntfs_run_lookup(runs, nr, vcn);
	if (!r)
		return first_vcn;
	i = r - runs;
	while (vcn < end_vcn) {
		size_t bytes;
		s64 lcn;
		u64 len;

		if (vcn > first_vcn && ++i >= nr)
			break;
		len = ntfs_mp_piece(runs, nr, &i, vcn, end_vcn, &lcn);
		if (!len || (lcn < 0 && lcn != NTFS_LCN_HOLE))
			break;
		bytes = 1 + ntfs_mp_bytes(len);
		if (lcn != NTFS_LCN_HOLE)
			bytes += ntfs_mp_bytes(lcn - prev);
		if (pos + bytes > size)
			break;
		pos += bytes;
		if (lcn != NTFS_LCN_HOLE)
			prev = lcn;
		vcn += len;
	}
	return vcn;
}

/**
 * ntfs_runs_add() - Append a run to a run array, joined to the last one
 * @ra: the array; its runs end at @vcn
 * @vcn: first VCN of the run
 * @lcn: its first LCN, or %NTFS_LCN_HOLE
 * @len: its length, at least 1
 *
 * A run that continues the last one on disk (or a hole after a hole) makes
 * it longer instead, so arrays built this way are as short as their
 * mapping pairs.
 *
 * Context: Process context (GFP_NOFS allocation).
 * Return: 0 or -ENOMEM.
 */
int ntfs_runs_add(struct ntfs_runs *ra, u64 vcn, s64 lcn, u64 len)
{
	struct ntfs_run *last = ra->nr ? &ra->runs[ra->nr - 1] : NULL;

	if (last && last->vcn + last->len == vcn &&
	    (lcn == NTFS_LCN_HOLE ? last->lcn == NTFS_LCN_HOLE :
	     last->lcn != NTFS_LCN_HOLE && last->lcn + (s64)last->len == lcn)) {
		last->len += len;
		return 0;
	}
	if (ra->nr == ra->cap) {
		unsigned int cap = ra->cap ? 2 * ra->cap : 16;
		struct ntfs_run *p;

		if (cap <= ra->cap || cap > NTFS_RUNS_MAX)
			return -ENOMEM;
		p = kvrealloc(ra->runs, array_size(cap, sizeof(*p)), GFP_NOFS);
		if (!p)
			return -ENOMEM;
		ra->runs = p;
		ra->cap = cap;
	}
	ra->runs[ra->nr].vcn = vcn;
	ra->runs[ra->nr].lcn = lcn;
	ra->runs[ra->nr].len = len;
	ra->nr++;
	return 0;
}

/* The cluster after the last one with clusters: where to allocate next. */
static u64 ntfs_runs_hint(const struct ntfs_runs *ra)
{
	unsigned int i = ra->nr;

	while (i--)
		if (ra->runs[i].lcn != NTFS_LCN_HOLE)
			return ra->runs[i].lcn + ra->runs[i].len;
	return 0;
}

/* Append [@vcn, @vcn + @len) on new clusters, each asked near the last. */
static int ntfs_runs_alloc(struct ntfs_runs *ra, u64 vcn, u64 len,
			   const struct ntfs_run_source *src)
{
	while (len) {
		struct ntfs_run got = { 0 };
		int err = src->alloc(src->ctx, ntfs_runs_hint(ra), len, &got);

		if (err)
			return err;
		if (!got.len || got.len > len || got.lcn < 0)
			return -EIO;
		err = ntfs_runs_add(ra, vcn, got.lcn, got.len);
		if (err)
			return err;
		vcn += got.len;
		len -= got.len;
	}
	return 0;
}

/* Append [@vcn, @vcn + @len) as a hole or on new clusters. */
static int ntfs_runs_extend(struct ntfs_runs *ra, u64 vcn, u64 len, bool hole,
			    const struct ntfs_run_source *src)
{
	if (!len)
		return 0;
	return hole ? ntfs_runs_add(ra, vcn, NTFS_LCN_HOLE, len) :
		      ntfs_runs_alloc(ra, vcn, len, src);
}

static s64 ntfs_run_lcn_at(const struct ntfs_run *r, u64 vcn)
{
	return r->lcn == NTFS_LCN_HOLE ? NTFS_LCN_HOLE : r->lcn + (s64)(vcn - r->vcn);
}

/**
 * ntfs_runs_fill() - A run array with a range of VCNs given clusters
 * @runs: the runs of the stream, covering [0, @old_end) without a gap
 * @nr: number of runs
 * @old_end: the VCN after the allocation
 * @vcn: first VCN of the range
 * @end: VCN after the range
 * @flags: %NTFS_FILL_GAP_HOLE: VCNs between @old_end and @vcn become a
 *	hole (else they get clusters); %NTFS_FILL_HOLES: the range keeps its
 *	holes and what it adds past @old_end is a hole too
 * @src: where clusters come from
 * @out: an empty array, filled with the new runs (joined where they
 *	continue each other); the caller frees it with kvfree() also on error
 *
 * Every hole in [@vcn, @end) gets new clusters, and the allocation grows
 * to @end when it is shorter.  Runs outside the range are copied.
 *
 * Context: Process context.
 * Return: 0, the error of @src->alloc(), -EIO if it misbehaves, -ENOMEM.
 */
int ntfs_runs_fill(const struct ntfs_run *runs, unsigned int nr, u64 old_end,
		   u64 vcn, u64 end, unsigned int flags,
		   const struct ntfs_run_source *src, struct ntfs_runs *out)
{
	bool holes = flags & NTFS_FILL_HOLES;
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		const struct ntfs_run *r = &runs[i];
		u64 r_end = r->vcn + r->len, in = max(r->vcn, vcn);
		u64 in_end = min(r_end, end), after = max(r->vcn, end);

		if (r->vcn < vcn)
			err = ntfs_runs_add(out, r->vcn, r->lcn, min(r_end, vcn) - r->vcn);
		if (!err && in < in_end)
			err = r->lcn == NTFS_LCN_HOLE && !holes ?
			      ntfs_runs_alloc(out, in, in_end - in, src) :
			      ntfs_runs_add(out, in, ntfs_run_lcn_at(r, in), in_end - in);
		if (!err && after < r_end)
			err = ntfs_runs_add(out, after, ntfs_run_lcn_at(r, after), r_end - after);
	}
	if (err || end <= old_end)
		return err;
	if (vcn > old_end)
		err = ntfs_runs_extend(out, old_end, vcn - old_end,
				       flags & NTFS_FILL_GAP_HOLE, src);
	if (!err)
		err = ntfs_runs_extend(out, max(vcn, old_end), end - max(vcn, old_end),
				       holes, src);
	return err;
}

/**
 * ntfs_runs_cut() - A run array cut at a VCN
 * @runs: the runs of the stream
 * @nr: number of runs
 * @end: the VCN after the last one kept
 * @src: @src->free() gets the clusters past @end
 * @out: an empty array, filled with the runs kept; the caller frees it
 *	with kvfree() also on error
 *
 * Context: Process context.
 * Return: 0, the error of @src->free(), -ENOMEM.
 */
int ntfs_runs_cut(const struct ntfs_run *runs, unsigned int nr, u64 end,
		  const struct ntfs_run_source *src, struct ntfs_runs *out)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		const struct ntfs_run *r = &runs[i];
		u64 keep = r->vcn < end ? min(r->len, end - r->vcn) : 0;

		if (keep)
			err = ntfs_runs_add(out, r->vcn, r->lcn, keep);
		if (!err && keep < r->len && r->lcn != NTFS_LCN_HOLE)
			err = src->free(src->ctx, r->lcn + keep, r->len - keep);
	}
	return err;
}

/*
 * The runs with [@vcn, @end) taken out: the range's clusters go to
 * @src->free(); the range becomes a hole (@collapse false) or goes, and
 * what follows moves down by its length (@collapse true).
 */
static int ntfs_runs_take_out(const struct ntfs_run *runs, unsigned int nr, u64 vcn, u64 end,
			      bool collapse, const struct ntfs_run_source *src,
			      struct ntfs_runs *out)
{
	u64 shift = collapse ? end - vcn : 0;
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		const struct ntfs_run *r = &runs[i];
		u64 r_end = r->vcn + r->len;
		u64 a = clamp(vcn, r->vcn, r_end), b = clamp(end, r->vcn, r_end);

		if (a > r->vcn)
			err = ntfs_runs_add(out, r->vcn, r->lcn, a - r->vcn);
		if (!err && b > a && !collapse)
			err = ntfs_runs_add(out, a, NTFS_LCN_HOLE, b - a);
		if (!err && b > a && r->lcn != NTFS_LCN_HOLE)
			err = src->free(src->ctx, ntfs_run_lcn_at(r, a), b - a);
		if (!err && r_end > b)
			err = ntfs_runs_add(out, b - shift, ntfs_run_lcn_at(r, b), r_end - b);
	}
	return err;
}

/**
 * ntfs_runs_punch() - A run array with a range of VCNs made a hole
 * @runs: the runs of the stream, covering its allocation without a gap
 * @nr: number of runs
 * @vcn: first VCN of the range
 * @end: VCN after the range (clipped to the allocation)
 * @src: @src->free() gets the clusters the range had
 * @out: an empty array, filled with the new runs (the hole joined to the
 *	holes next to it); the caller frees it with kvfree() also on error
 *
 * The allocation keeps its size: a sparse stream's hole has no clusters
 * but still counts as allocated VCNs.
 *
 * Context: Process context.
 * Return: 0, the error of @src->free(), -ENOMEM.
 */
int ntfs_runs_punch(const struct ntfs_run *runs, unsigned int nr, u64 vcn, u64 end,
		    const struct ntfs_run_source *src, struct ntfs_runs *out)
{
	return ntfs_runs_take_out(runs, nr, vcn, end, false, src, out);
}

/**
 * ntfs_runs_collapse() - A run array with a range of VCNs taken out
 * @runs: the runs of the stream, covering its allocation without a gap
 * @nr: number of runs
 * @vcn: first VCN of the range
 * @end: VCN after the range
 * @src: @src->free() gets the clusters the range had
 * @out: an empty array, filled with the new runs, the allocation shorter
 *	by the range; the caller frees it with kvfree() also on error
 *
 * The runs after the range move down by its length.
 *
 * Context: Process context.
 * Return: 0, the error of @src->free(), -ENOMEM.
 */
int ntfs_runs_collapse(const struct ntfs_run *runs, unsigned int nr, u64 vcn, u64 end,
		       const struct ntfs_run_source *src, struct ntfs_runs *out)
{
	return ntfs_runs_take_out(runs, nr, vcn, end, true, src, out);
}

/**
 * ntfs_runs_insert_hole() - A run array with a hole inserted at a VCN
 * @runs: the runs of the stream, covering [0, @old_end) without a gap
 * @nr: number of runs
 * @old_end: the VCN after the allocation
 * @vcn: where the hole goes, at most @old_end
 * @len: its length in VCNs
 * @out: an empty array, filled with the new runs (the runs from @vcn on
 *	moved up by @len); the caller frees it with kvfree() also on error
 *
 * Context: Process context.
 * Return: 0, -ENOMEM.
 */
int ntfs_runs_insert_hole(const struct ntfs_run *runs, unsigned int nr, u64 old_end, u64 vcn,
			  u64 len, struct ntfs_runs *out)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		const struct ntfs_run *r = &runs[i];
		u64 r_end = r->vcn + r->len, a = clamp(vcn, r->vcn, r_end);

		if (a > r->vcn)
			err = ntfs_runs_add(out, r->vcn, r->lcn, a - r->vcn);
		if (!err && a == vcn && r->vcn <= vcn && vcn < r_end)
			err = ntfs_runs_add(out, vcn, NTFS_LCN_HOLE, len);
		if (!err && r_end > a)
			err = ntfs_runs_add(out, a + len, ntfs_run_lcn_at(r, a), r_end - a);
	}
	if (!err && vcn == old_end && len)
		err = ntfs_runs_add(out, vcn, NTFS_LCN_HOLE, len);
	return err;
}
