// SPDX-License-Identifier: GPL-2.0
/*
 * Mapping pairs: decoding a non-resident attribute's runlist.
 *
 * Each pair starts with a header byte: the low nibble is the size of the
 * run length, the high nibble the size of the signed LCN delta (0: a hole).
 * A zero header ends the list.
 */
#include <stdlib.h>

#include "fsck.h"

static void runs_push(struct runs *r, u64 vcn, u64 lcn, u64 len)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->v = xrealloc(r->v, r->cap, sizeof(*r->v));
	}
	r->v[r->n++] = (struct run){ .vcn = vcn, .lcn = lcn, .len = len };
}

void runs_free(struct runs *r)
{
	free(r->v);
	*r = (struct runs){ 0 };
}

/* Little-endian integer of @n bytes, sign-extended when @sign. */
static s64 read_varint(const u8 *p, unsigned int n, bool sign)
{
	u64 x = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		x |= (u64)p[i] << (8 * i);
	if (sign && n < 8 && (p[n - 1] & 0x80))
		x |= ~0ull << (8 * n);
	return (s64)x;
}

/**
 * runs_decode() - append the runs of one extent to @out.
 * The runs before a broken pair stay appended, so that callers can still
 * account for the clusters they name.
 * Return: 0, or -1 with *why naming the rule that failed.
 */
int runs_decode(struct vol *v, const struct ntfs_attr *a, struct runs *out,
		const char **why)
{
	u32 len = le32(a->length), off = le16(a->nr.mp_offset);
	const u8 *p = (const u8 *)a;
	u64 vcn = le64(a->nr.lowest_vcn);
	s64 lcn = 0;

	/* A stream cut to nothing may keep stale pairs: there are no runs. */
	if (le64(a->nr.highest_vcn) == UINT64_MAX)
		return 0;
	if (off < NTFS_ATTR_NONRES_HDR || off >= len) {
		*why = "mapping pairs offset outside the attribute";
		return -1;
	}
	while (off < len && p[off]) {
		unsigned int nl = p[off] & 0xf, nd = p[off] >> 4;
		s64 rl, delta;

		if (!nl || nl > 8 || nd > 8) {
			*why = "mapping pair header with a field over 8 bytes";
			return -1;
		}
		if (1 + nl + nd > len - off) {
			*why = "mapping pair runs past the end of the attribute";
			return -1;
		}
		rl = read_varint(p + off + 1, nl, true);
		if (rl <= 0) {
			*why = "run length is zero or negative";
			return -1;
		}
		if (__builtin_add_overflow(vcn, (u64)rl, &(u64){ 0 })) {
			*why = "runs overflow the VCN range";
			return -1;
		}
		if (!nd) {
			runs_push(out, vcn, LCN_HOLE, rl);
		} else {
			delta = read_varint(p + off + 1 + nl, nd, true);
			if (__builtin_add_overflow(lcn, delta, &lcn) || lcn < 0) {
				*why = "run starts before cluster 0";
				return -1;
			}
			runs_push(out, vcn, lcn, rl);
		}
		vcn += rl;
		off += 1 + nl + nd;
	}
	if (off >= len) {
		*why = "mapping pairs have no terminating zero byte";
		return -1;
	}
	return 0;
}
