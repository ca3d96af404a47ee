// SPDX-License-Identifier: GPL-2.0
/*
 * Cluster and record allocation: $MFTMirr against $MFT, $MFT:$BITMAP
 * against the records in use, and the owners of every cluster against
 * $Bitmap.
 *
 * Ownership is built from the runs of every non-resident attribute of every
 * record in use: one bit per cluster (the "claimed" bitmap) and a list of
 * extents sorted by LCN, so that two claims on one cluster can name both
 * owners.  $Bitmap is then read in chunks and compared word by word with the
 * claimed bitmap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

/* Lines printed per class of problem before one "... and N more" line. */
#define RANGE_LINES_MAX	50

/* $Bitmap is read this many bytes at a time. */
#define BITMAP_CHUNK	BIT(20)

/*
 * The first four records ($MFT, $MFTMirr, the log file, $Volume) are what a
 * driver needs to mount when $MFT's start is unreadable: the mirror must
 * hold at least these.  mkntfs makes the mirror max(4 records, 1 cluster)
 * and ntfs-3g keeps all of it current, but the format only promises the
 * first four, so only those are compared.
 */
#define MIRROR_RECORDS	4

/* Count of lines reported for one class, with the overflow summary. */
struct line_cap {
	const char	*cls;
	unsigned long	lines;
};

/* May one more line of this class be printed?  Counts the ones that may not. */
static bool cap_allow(struct line_cap *c)
{
	return c->lines++ < RANGE_LINES_MAX;
}

static void cap_finish(struct vol *v, struct line_cap *c, const char *where)
{
	if (c->lines > RANGE_LINES_MAX)
		report(v, c->cls, NO_REC, where, "... and %lu more",
		       c->lines - RANGE_LINES_MAX);
}

/* ------------------------------------------------------------------------
 * $MFTMirr
 */

/*
 * Compare one record with its mirror copy (both after fixups), leaving out
 * the update sequence array: its number counts writes, not content, and the
 * saved sector tails it holds are compared where they were put back.
 * Return: the first differing offset, or -1 when they agree.
 */
static s64 record_diff(const u8 *a, const u8 *b, u32 size)
{
	const struct ntfs_usa_header *h = (const void *)a;
	u32 usa = le16(h->usa_offset), usa_end = usa + 2 * le16(h->usa_count);
	u32 i;

	for (i = 0; i < size; i++) {
		if (i >= usa && i < usa_end)
			continue;
		if (a[i] != b[i])
			return i;
	}
	return -1;
}

/* Check the mirror copy of record @r, at @copy (fixups still applied). */
static void mirror_record(struct vol *v, u64 r, u8 *copy)
{
	const struct ntfs_usa_header *h = (const void *)copy;
	const char *why;
	s64 diff;

	if (le32(h->magic) != NTFS_MAGIC_FILE) {
		report(v, P_MFTMIRR, r, "$MFTMirr", "mirror copy has magic 0x%08x, not FILE",
		       le32(h->magic));
		return;
	}
	if (fixup_apply(copy, v->record_size, v->sector_size, &why)) {
		report(v, P_MFTMIRR, r, "$MFTMirr", "mirror copy: %s", why);
		return;
	}
	diff = record_diff(rec_buf(v, r), copy, v->record_size);
	if (diff >= 0)
		report(v, P_MFTMIRR, r, "$MFTMirr",
		       "mirror copy differs from $MFT from offset 0x%llx (0x%02x in $MFT, 0x%02x in $MFTMirr)",
		       (unsigned long long)diff, rec_buf(v, r)[diff], copy[diff]);
}

/* The boot sector's mftmirr_lcn must be where $MFTMirr:$DATA starts. */
static void mirror_location(struct vol *v, const struct stream *s)
{
	const struct run *first = s->runs.n ? &s->runs.v[0] : NULL;

	if (!first || first->vcn || first->lcn == LCN_HOLE)
		report(v, P_MFTMIRR, NTFS_MFTMIRR_INO, "$DATA",
		       "no cluster at VCN 0; the boot sector puts the mirror at LCN %llu",
		       (unsigned long long)v->mftmirr_lcn);
	else if (first->lcn != v->mftmirr_lcn)
		report(v, P_MFTMIRR, NTFS_MFTMIRR_INO, "$DATA",
		       "starts at LCN %llu, the boot sector's mftmirr_lcn is %llu",
		       (unsigned long long)first->lcn,
		       (unsigned long long)v->mftmirr_lcn);
}

/**
 * check_mftmirr() - $MFTMirr's location, size and its copies of the first
 * records of $MFT.
 */
void check_mftmirr(struct vol *v)
{
	u64 n = MIRROR_RECORDS, r;
	struct stream s = { 0 };
	u8 *buf;

	if (!rec_ok(v, NTFS_MFTMIRR_INO))
		return;
	/* A missing $DATA is the required-attribute rule of check_records(). */
	if (stream_open(v, NTFS_MFTMIRR_INO, NTFS_AT_DATA, "", &s))
		return;
	if (s.resident) {
		report(v, P_MFTMIRR, NTFS_MFTMIRR_INO, "$DATA", "resident, not in clusters");
		goto out;
	}
	mirror_location(v, &s);
	if (s.data_size < n * v->record_size) {
		report(v, P_MFTMIRR, NTFS_MFTMIRR_INO, "$DATA",
		       "data size %llu holds fewer than %llu records of %u bytes",
		       (unsigned long long)s.data_size, (unsigned long long)n,
		       v->record_size);
		n = s.data_size / v->record_size;
	}
	if (n > v->nrec)
		n = v->nrec;
	buf = xcalloc(1, v->record_size);
	for (r = 0; r < n; r++) {
		/* A broken record was reported; its mirror copy cannot be judged. */
		if (!rec_ok(v, r))
			continue;
		if (stream_read(v, &s, r * v->record_size, buf, v->record_size)) {
			report(v, P_MFTMIRR, r, "$MFTMirr", "mirror copy unreadable");
			continue;
		}
		mirror_record(v, r, buf);
	}
	free(buf);
	checked(v, "$MFTMirr: %llu records compared with $MFT", (unsigned long long)n);
out:
	stream_free(&s);
}

/* ------------------------------------------------------------------------
 * $MFT:$BITMAP
 */

/*
 * Is record @r in use, as far as its header tells?  -1: cannot tell.
 *
 * The rule, checked on mkntfs, ntfs-3g and Windows volumes: a bit is set
 * exactly for the records whose header is a FILE record with the in-use
 * flag.  mkntfs and Windows format records 12-15 (reserved) and 16-23 (kept
 * for $MFT's own extension records) and mark them in use exactly when their
 * header says so, so no range needs an exception.
 */
static int record_in_use(struct vol *v, u64 r)
{
	const struct ntfs_usa_header *h;

	if (r >= v->nrec)
		return 0;
	/* A record in use whose fixups failed was reported as [fixup]. */
	if (v->recs[r].state == REC_BAD)
		return (v->recs[r].flags & NTFS_RECORD_IN_USE) ? 1 : -1;
	h = (const void *)rec_buf(v, r);
	if (le32(h->magic) != NTFS_MAGIC_FILE)
		return 0;
	return !!(v->recs[r].flags & NTFS_RECORD_IN_USE);
}

/* One range of records whose bit disagrees the same way. */
struct rec_range {
	u64	first, last;
	int	bit;		/* -1: no open range */
};

static void rec_range_flush(struct vol *v, struct rec_range *rr, struct line_cap *c)
{
	if (rr->bit < 0)
		return;
	if (cap_allow(c)) {
		const char *what = rr->bit ? "bit set, record not in use" :
					     "bit clear, record in use";

		if (rr->first == rr->last)
			report(v, P_MFTBITMAP, rr->first, "$MFT:$BITMAP", "%s", what);
		else
			report(v, P_MFTBITMAP, rr->first, "$MFT:$BITMAP",
			       "records %llu-%llu: %s",
			       (unsigned long long)rr->first,
			       (unsigned long long)rr->last, what);
	}
	rr->bit = -1;
}

/* Record @r disagrees with its bit @bit: extend or start a range. */
static void rec_range_add(struct vol *v, struct rec_range *rr, struct line_cap *c,
			  u64 r, int bit)
{
	if (rr->bit == bit && rr->last + 1 == r) {
		rr->last = r;
		return;
	}
	rec_range_flush(v, rr, c);
	*rr = (struct rec_range){ .first = r, .last = r, .bit = bit };
}

/*
 * Bytes of $MFT:$BITMAP to compare: those covering the records, and past
 * them (bits that must be clear) at most one chunk, so that a crafted data
 * size cannot make the check run for ever.
 */
static u64 mft_bitmap_bytes(struct vol *v, const struct stream *s)
{
	u64 limit = (v->nrec + 7) / 8 + BITMAP_CHUNK;

	return s->data_size < limit ? s->data_size : limit;
}

/* Compare the records covered by one chunk of $MFT:$BITMAP at byte @pos. */
static void mft_bitmap_chunk(struct vol *v, const u8 *buf, u64 pos, size_t len,
			     struct rec_range *rr, struct line_cap *cap)
{
	u64 r, end = (pos + len) * 8;

	for (r = pos * 8; r < end; r++) {
		int bit = buf[r / 8 - pos] >> (r % 8) & 1;
		int used;

		/* Past the last record: only set bits matter, skip clear bytes. */
		if (r >= v->nrec && r % 8 == 0 && !buf[r / 8 - pos]) {
			r += 7;
			continue;
		}
		used = record_in_use(v, r);
		if (used >= 0 && used != bit)
			rec_range_add(v, rr, cap, r, bit);
	}
}

/**
 * check_mft_bitmap() - $MFT:$BITMAP has a bit set exactly for each record in
 * use; bits past the last record must be clear.
 */
void check_mft_bitmap(struct vol *v)
{
	struct line_cap cap = { .cls = P_MFTBITMAP };
	struct rec_range rr = { .bit = -1 };
	struct stream s = { 0 };
	u64 bytes, pos, r;
	u8 *buf;

	if (!rec_ok(v, NTFS_MFT_INO))
		return;
	/* A missing $BITMAP is the required-attribute rule of check_records(). */
	if (stream_open(v, NTFS_MFT_INO, NTFS_AT_BITMAP, "", &s))
		return;
	bytes = mft_bitmap_bytes(v, &s);
	buf = xcalloc(1, BITMAP_CHUNK);
	for (pos = 0; pos < bytes; pos += BITMAP_CHUNK) {
		size_t n = bytes - pos < BITMAP_CHUNK ? bytes - pos : BITMAP_CHUNK;

		if (stream_read(v, &s, pos, buf, n)) {
			report(v, P_MFTBITMAP, NTFS_MFT_INO, "$BITMAP",
			       "unreadable at byte %llu", (unsigned long long)pos);
			goto out;
		}
		mft_bitmap_chunk(v, buf, pos, n, &rr, &cap);
	}
	/* Records past the end of $BITMAP have no bit: they must be free. */
	for (r = bytes * 8; r < v->nrec; r++)
		if (record_in_use(v, r) == 1)
			rec_range_add(v, &rr, &cap, r, 0);
	rec_range_flush(v, &rr, &cap);
	cap_finish(v, &cap, "$MFT:$BITMAP");
	checked(v, "$MFT:$BITMAP: %llu bytes for %llu records", (unsigned long long)bytes,
		(unsigned long long)v->nrec);
out:
	free(buf);
	stream_free(&s);
}

/* ------------------------------------------------------------------------
 * Cluster ownership
 */

/* Clusters [lcn, lcn + len) of the attribute at byte @aoff of record @rec. */
struct extent {
	u64	lcn;
	u64	len;
	u64	rec;		/* the record holding the attribute's extent */
	u64	base;		/* its base record: one file */
	u32	aoff;		/* attribute offset in the record */
};

struct owners {
	u64		*claimed;	/* one bit per cluster */
	struct extent	*ext;
	size_t		n, cap;
	bool		incomplete;	/* some owners unknown: leaks unknowable */
	bool		overlaps;	/* a runlist points at others' clusters */
};

static void claim_bits(u64 *map, u64 lcn, u64 len)
{
	u64 end = lcn + len;

	while (lcn < end && lcn % 64) {
		map[lcn / 64] |= 1ull << (lcn % 64);
		lcn++;
	}
	for (; lcn + 64 <= end; lcn += 64)
		map[lcn / 64] = ~0ull;
	for (; lcn < end; lcn++)
		map[lcn / 64] |= 1ull << (lcn % 64);
}

static void owners_add(struct vol *v, struct owners *o, u64 rec, u64 base,
		       u32 aoff, u64 lcn, u64 len)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 1024;
		o->ext = xrealloc(o->ext, o->cap, sizeof(*o->ext));
	}
	o->ext[o->n++] = (struct extent){ lcn, len, rec, base, aoff };
	claim_bits(o->claimed, lcn, len);
}

/*
 * Add the clusters of one extent of a non-resident attribute.  Runs outside
 * the extent's VCN range or the volume, and a runlist that does not decode,
 * are check_records()'s to report: only what is valid is counted here.
 */
static void claim_attr(struct vol *v, struct owners *o, u64 r, u64 base,
		       const struct ntfs_attr *a, struct runs *runs)
{
	u64 low = le64(a->nr.lowest_vcn), high = le64(a->nr.highest_vcn);
	u32 aoff = (const u8 *)a - rec_buf(v, r);
	const char *why;
	size_t i;

	runs->n = 0;
	if (runs_decode(v, a, runs, &why))
		o->incomplete = true;
	/* highest_vcn -1: a stream cut to nothing, stale pairs own nothing. */
	if ((s64)high < (s64)low)
		return;
	for (i = 0; i < runs->n; i++) {
		u64 vcn = runs->v[i].vcn, lcn = runs->v[i].lcn, len = runs->v[i].len;

		if (lcn == LCN_HOLE)
			continue;
		/* Clusters cut off here may be the file's real ones: leaks unknowable. */
		if (vcn > high || lcn >= v->clusters) {
			o->incomplete = true;
			continue;
		}
		if (len > high - vcn + 1) {
			len = high - vcn + 1;
			o->incomplete = true;
		}
		if (len > v->clusters - lcn) {
			len = v->clusters - lcn;
			o->incomplete = true;
		}
		if (len)
			owners_add(v, o, r, base, aoff, lcn, len);
	}
}

static void claim_all(struct vol *v, struct owners *o)
{
	struct runs runs = { 0 };
	struct ntfs_attr *a;
	u64 r;

	for (r = 0; r < v->nrec; r++) {
		if (v->recs[r].state == REC_BAD)
			o->incomplete = true;
		if (!rec_ok(v, r))
			continue;
		for_each_attr(v, r, a)
			if (a->non_resident)
				claim_attr(v, o, r, record_base(v, r), a, &runs);
	}
	runs_free(&runs);
}

static int extent_cmp(const void *x, const void *y)
{
	const struct extent *a = x, *b = y;

	if (a->lcn != b->lcn)
		return a->lcn < b->lcn ? -1 : 1;
	return a->rec < b->rec ? -1 : a->rec > b->rec;
}

static const char *extent_desc(struct vol *v, const struct extent *e, char *buf,
			       size_t len)
{
	return attr_desc((const struct ntfs_attr *)(rec_buf(v, e->rec) + e->aoff), buf, len);
}

/* "cluster N" or "clusters A-B (n)" for clusters [first, end). */
static const char *clusters_str(char *buf, size_t len, u64 first, u64 end)
{
	if (end - first == 1)
		snprintf(buf, len, "cluster %llu", (unsigned long long)first);
	else
		snprintf(buf, len, "clusters %llu-%llu (%llu)", (unsigned long long)first,
			 (unsigned long long)end - 1, (unsigned long long)(end - first));
	return buf;
}

/* Clusters [lcn, end) are claimed by both @a (earlier) and @b. */
static void report_overlap(struct vol *v, struct owners *o, struct line_cap *cross,
			   struct line_cap *self, const struct extent *a,
			   const struct extent *b, u64 lcn, u64 end)
{
	char da[96], db[96], cl[80];
	bool same = a->base == b->base;

	o->overlaps = true;
	if (!cap_allow(same ? self : cross))
		return;
	extent_desc(v, a, da, sizeof(da));
	extent_desc(v, b, db, sizeof(db));
	if (same)
		report(v, P_RUNLIST, b->rec, db,
		       "%s claimed twice by one file (also record %llu, %s)",
		       clusters_str(cl, sizeof(cl), lcn, end), (unsigned long long)a->rec, da);
	else
		report(v, P_CROSSLINK, b->rec, db,
		       "%s also belong to record %llu, %s",
		       clusters_str(cl, sizeof(cl), lcn, end), (unsigned long long)a->rec, da);
}

/*
 * Sort the extents by LCN and sweep: an extent starting before the furthest
 * end seen so far overlaps the extent that reached it.
 */
static void find_overlaps(struct vol *v, struct owners *o)
{
	struct line_cap cross = { .cls = P_CROSSLINK }, self = { .cls = P_RUNLIST };
	const struct extent *far = NULL;
	u64 far_end = 0;
	size_t i;

	if (o->n)
		qsort(o->ext, o->n, sizeof(*o->ext), extent_cmp);
	for (i = 0; i < o->n; i++) {
		const struct extent *e = &o->ext[i];
		u64 end = e->lcn + e->len;

		if (far && e->lcn < far_end)
			report_overlap(v, o, &cross, &self, far, e, e->lcn,
				       end < far_end ? end : far_end);
		if (!far || end > far_end) {
			far = e;
			far_end = end;
		}
	}
	cap_finish(v, &cross, "clusters");
	cap_finish(v, &self, "clusters");
}

/*
 * First extent, in LCN order, that ends after @lcn.  The extents are sorted
 * by start; with overlaps (already reported) any owner found will do.
 */
static size_t extent_find(const struct owners *o, u64 lcn)
{
	size_t lo = 0, hi = o->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->ext[mid].lcn + o->ext[mid].len <= lcn)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Extents sorted by start, not end: step back over any still covering. */
	while (lo > 0 && o->ext[lo - 1].lcn + o->ext[lo - 1].len > lcn)
		lo--;
	return lo;
}

/* Owned clusters [lcn, end) are clear in $Bitmap: name their owners. */
static void report_unmarked(struct vol *v, struct owners *o, struct line_cap *c,
			    u64 lcn, u64 end)
{
	size_t i;

	/* Past the cap only the count matters: no owner look-up. */
	if (c->lines >= RANGE_LINES_MAX) {
		cap_allow(c);
		return;
	}
	for (i = extent_find(o, lcn); i < o->n && o->ext[i].lcn < end; i++) {
		const struct extent *e = &o->ext[i];
		u64 a = e->lcn > lcn ? e->lcn : lcn;
		u64 b = e->lcn + e->len < end ? e->lcn + e->len : end;
		char d[96], cl[80];

		if (a >= b)
			continue;
		if (cap_allow(c))
			report(v, P_UNMARKED, e->rec, extent_desc(v, e, d, sizeof(d)),
			       "%s in use, clear in $Bitmap", clusters_str(cl, sizeof(cl), a, b));
		lcn = b;
	}
}

/* A range of clusters disagreeing with $Bitmap one way. */
struct clu_range {
	u64	first, end;	/* [first, end), empty when equal */
};

struct bitmap_cmp {
	struct clu_range	leak, unmarked;
	struct line_cap		leak_cap, unmarked_cap;
};

static void flush_leak(struct vol *v, struct bitmap_cmp *b)
{
	struct clu_range *x = &b->leak;
	char cl[80];

	if (x->first == x->end)
		return;
	if (cap_allow(&b->leak_cap))
		report(v, P_LEAKED, NO_REC, "$Bitmap",
		       "%s marked in use, no owner",
		       clusters_str(cl, sizeof(cl), x->first, x->end));
	x->first = 0;
	x->end = 0;
}

static void flush_unmarked(struct vol *v, struct owners *o, struct bitmap_cmp *b)
{
	struct clu_range *x = &b->unmarked;

	if (x->first != x->end)
		report_unmarked(v, o, &b->unmarked_cap, x->first, x->end);
	x->first = 0;
	x->end = 0;
}

/* Add the set bits of @mask (64 clusters from @lcn) to their range. */
static void add_bits(struct vol *v, struct owners *o, struct bitmap_cmp *b,
		     bool leak, u64 lcn, u64 mask)
{
	struct clu_range *x = leak ? &b->leak : &b->unmarked;

	while (mask) {
		unsigned int start = __builtin_ctzll(mask);
		u64 zeros = ~(mask >> start);
		unsigned int run = zeros ? __builtin_ctzll(zeros) : 64 - start;
		u64 first = lcn + start;

		if (x->first != x->end && x->end != first) {
			if (leak)
				flush_leak(v, b);
			else
				flush_unmarked(v, o, b);
		}
		if (x->first == x->end)
			x->first = first;
		x->end = first + run;
		mask = start + run >= 64 ? 0 : mask & (~0ull << (start + run));
	}
}

/* Compare 64 clusters from @lcn: @have from $Bitmap, @want claimed. */
static void compare_word(struct vol *v, struct owners *o, struct bitmap_cmp *b,
			 u64 lcn, u64 have, u64 want)
{
	u64 leak = have & ~want, unmarked = want & ~have;

	/* A range that does not go on at this word's first cluster ends. */
	if (b->leak.first != b->leak.end && !(leak & 1))
		flush_leak(v, b);
	if (b->unmarked.first != b->unmarked.end && !(unmarked & 1))
		flush_unmarked(v, o, b);
	if (leak && !o->incomplete && !o->overlaps)
		add_bits(v, o, b, true, lcn, leak);
	if (unmarked)
		add_bits(v, o, b, false, lcn, unmarked);
}

/* Little-endian 64 bits of $Bitmap from @p, only @n (< 8) bytes valid. */
static u64 bitmap_word(const u8 *p, size_t n)
{
	u64 w = 0;
	size_t i;

	for (i = 0; i < n && i < 8; i++)
		w |= (u64)p[i] << (8 * i);
	return w;
}

/*
 * Read $Bitmap chunk by chunk and compare it with the claimed bitmap.
 *
 * Bits past the last cluster are not compared: mkntfs and Windows both set
 * the first one (the cluster-sized piece holding the backup boot sector,
 * which lies after the last cluster, in sector total_sectors), and the
 * format says nothing of the others.
 */
static void compare_bitmap(struct vol *v, struct owners *o, const struct stream *s,
			   u64 bytes)
{
	struct bitmap_cmp b = { .leak_cap = { .cls = P_LEAKED },
				.unmarked_cap = { .cls = P_UNMARKED } };
	u8 *buf = xcalloc(1, BITMAP_CHUNK);
	u64 pos, i;

	for (pos = 0; pos < bytes; pos += BITMAP_CHUNK) {
		size_t n = bytes - pos < BITMAP_CHUNK ? bytes - pos : BITMAP_CHUNK;

		if (stream_read(v, s, pos, buf, n)) {
			report(v, P_UNMARKED, NTFS_BITMAP_INO, "$DATA",
			       "unreadable at byte %llu", (unsigned long long)pos);
			break;
		}
		for (i = 0; i < n; i += 8) {
			u64 lcn = (pos + i) * 8, have, want;

			have = bitmap_word(buf + i, n - i);
			want = o->claimed[lcn / 64];
			if (v->clusters - lcn < 64)
				have &= (1ull << (v->clusters - lcn)) - 1;
			compare_word(v, o, &b, lcn, have, want);
		}
	}
	flush_leak(v, &b);
	flush_unmarked(v, o, &b);
	cap_finish(v, &b.leak_cap, "$Bitmap");
	cap_finish(v, &b.unmarked_cap, "$Bitmap");
	free(buf);
}

/* Open $Bitmap:$DATA and compare the part covering the volume. */
static void check_bitmap_file(struct vol *v, struct owners *o)
{
	u64 need = (v->clusters + 7) / 8;
	struct stream s = { 0 };

	if (!rec_ok(v, NTFS_BITMAP_INO) ||
	    stream_open(v, NTFS_BITMAP_INO, NTFS_AT_DATA, "", &s))
		return;
	if (s.data_size < need) {
		report(v, P_UNMARKED, NTFS_BITMAP_INO, "$DATA",
		       "data size %llu, the volume's %llu clusters need %llu bytes",
		       (unsigned long long)s.data_size, (unsigned long long)v->clusters,
		       (unsigned long long)need);
		need = s.data_size & ~7ull;
	}
	compare_bitmap(v, o, &s, need);
	stream_free(&s);
}

/**
 * check_clusters() - every cluster in use has one owner and is set in
 * $Bitmap; every cluster set in $Bitmap has an owner.
 */
void check_clusters(struct vol *v)
{
	struct owners o = { 0 };
	u64 words = v->clusters / 64 + 1;

	if (!v->clusters)
		return;
	o.claimed = calloc(words, sizeof(u64));
	if (!o.claimed) {
		fprintf(stderr,
			"fsck.ntfs3: no memory for a bitmap of %llu clusters: cluster ownership not checked\n",
			(unsigned long long)v->clusters);
		return;
	}
	claim_all(v, &o);
	find_overlaps(v, &o);
	check_bitmap_file(v, &o);
	/*
	 * Clusters set in $Bitmap without an owner are only reported when all
	 * owners are known: a broken record or runlist hides its clusters, and
	 * a runlist pointing at another file's clusters has usually left its
	 * own ones behind - both already reported, leaks would repeat them.
	 */
	if (o.incomplete || o.overlaps)
		checked(v,
			"clusters: some records or runlists are broken, clusters set in $Bitmap without an owner are not reported");
	checked(v, "clusters: %llu, %zu extents", (unsigned long long)v->clusters, o.n);
	free(o.ext);
	free(o.claimed);
}
