// SPDX-License-Identifier: GPL-2.0
/*
 * Reading an attribute's value: resident bytes straight from the $MFT copy,
 * or through the runs of all its extents (base and extension records),
 * put in VCN order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

struct extent {
	u64 vcn;
	const struct ntfs_attr *a;
};

static int extent_cmp(const void *x, const void *y)
{
	const struct extent *a = x, *b = y;

	return a->vcn < b->vcn ? -1 : a->vcn > b->vcn;
}

/* Collect the extents of (type, name) from record @rec and its extensions. */
static size_t find_extents(struct vol *v, u64 rec, u32 type, const char *name,
			   struct extent **out)
{
	size_t n = 0, cap = 0;
	struct ntfs_attr *a;
	u64 r = rec;

	*out = NULL;
	while (rec_ok(v, r)) {
		for_each_attr(v, r, a) {
			if (le32(a->type) != type || !attr_name_is(a, name))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 4;
				*out = xrealloc(*out, cap, sizeof(**out));
			}
			(*out)[n].vcn = a->non_resident ? le64(a->nr.lowest_vcn) : 0;
			(*out)[n++].a = a;
		}
		r = r == rec ? v->recs[rec].ext_first : v->recs[r].ext_next;
		if (!r)
			break;
	}
	return n;
}

/* Decode extents in VCN order; each must start where the last ended. */
static int gather_runs(struct vol *v, struct extent *e, size_t n, struct stream *s)
{
	u64 next = 0;
	const char *why;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ntfs_attr *a = e[i].a;

		if (!a->non_resident || e[i].vcn != next)
			return -EIO;
		if (le64(a->nr.highest_vcn) == UINT64_MAX)
			continue;
		if (runs_decode(v, a, &s->runs, &why))
			return -EIO;
		next = le64(a->nr.highest_vcn) + 1;
	}
	return 0;
}

/**
 * stream_open() - find attribute (@type, ASCII @name, "" for unnamed) of
 * base record @rec, across its extension records.
 * Return: 0, -ENOENT when absent, -EIO when its extents do not fit together.
 */
int stream_open(struct vol *v, u64 rec, u32 type, const char *name, struct stream *s)
{
	struct extent *e;
	size_t n = find_extents(v, rec, type, name, &e);
	const struct ntfs_attr *a;
	int err = 0;

	memset(s, 0, sizeof(*s));
	s->rec = rec;
	s->type = type;
	if (!n)
		return -ENOENT;
	qsort(e, n, sizeof(*e), extent_cmp);
	a = e[0].a;
	s->flags = le16(a->flags);
	if (!a->non_resident) {
		s->resident = true;
		s->value = attr_value(a, &s->value_len);
		s->data_size = s->value_len;
		s->valid_size = s->value_len;
		s->alloc_size = s->value_len;
		if (n > 1 || !s->value)
			err = -EIO;
	} else {
		s->alloc_size = le64(a->nr.allocated_size);
		s->data_size = le64(a->nr.data_size);
		s->valid_size = le64(a->nr.valid_size);
		err = gather_runs(v, e, n, s);
	}
	free(e);
	if (err)
		stream_free(s);
	return err;
}

/**
 * stream_mapped_bytes() - bytes the runs of a stream map (holes included),
 * never more than the volume holds: a bound for sizes read from the disk.
 */
u64 stream_mapped_bytes(struct vol *v, const struct stream *s)
{
	const struct run *last;
	u64 end;

	if (s->resident)
		return s->value_len;
	if (!s->runs.n)
		return 0;
	last = &s->runs.v[s->runs.n - 1];
	end = last->vcn + last->len;
	if (end > v->clusters)
		end = v->clusters;
	return end << v->cluster_bits;
}

void stream_free(struct stream *s)
{
	runs_free(&s->runs);
}

/* Index of the run holding @vcn (binary search), or -1. */
static ssize_t run_at(const struct runs *r, u64 vcn)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct run *x = &r->v[mid];

		if (vcn < x->vcn)
			hi = mid;
		else if (vcn - x->vcn >= x->len)
			lo = mid + 1;
		else
			return mid;
	}
	return -1;
}

/* Copy from the runs; holes and bytes past the initialized size read 0. */
static int read_runs(struct vol *v, const struct stream *s, u64 pos, u8 *buf, size_t len)
{
	while (len) {
		u64 vcn = pos >> v->cluster_bits, in = pos & (v->cluster_size - 1);
		ssize_t i = run_at(&s->runs, vcn);
		const struct run *x;
		u64 n;

		if (i < 0)
			return -EIO;
		x = &s->runs.v[i];
		n = x->len - (vcn - x->vcn);
		n = n > (len >> v->cluster_bits) + 1 ? len : (n << v->cluster_bits) - in;
		if (n > len)
			n = len;
		if (x->lcn != LCN_HOLE && x->lcn >= v->clusters)
			return -EIO;
		if (pos >= s->valid_size || x->lcn == LCN_HOLE) {
			memset(buf, 0, n);
		} else {
			if (pos + n > s->valid_size)
				n = s->valid_size - pos;
			if (vol_read(v, ((x->lcn + (vcn - x->vcn)) << v->cluster_bits) + in,
				     buf, n))
				return -EIO;
		}
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * stream_read() - read @len bytes at @pos of an opened stream.
 * Return: 0, or -EIO when the range lies past the data size, the runs do
 * not cover it, the value is compressed or encrypted, or the device fails.
 */
int stream_read(struct vol *v, const struct stream *s, u64 pos, void *buf, size_t len)
{
	u64 end;

	if (__builtin_add_overflow(pos, (u64)len, &end) || end > s->data_size)
		return -EIO;
	if (s->resident) {
		memcpy(buf, s->value + pos, len);
		return 0;
	}
	if (s->flags & (NTFS_ATTR_COMPR_MASK | NTFS_ATTR_ENCRYPTED))
		return -EIO;
	return read_runs(v, s, pos, buf, len);
}
