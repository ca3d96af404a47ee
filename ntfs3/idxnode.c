// SPDX-License-Identifier: GPL-2.0
/*
 * One node of an index B+tree, edited in memory: see idxnode.h.  index.c
 * checks a node with ntfs_ix_check() when it reads it for a change; every
 * other function here trusts a checked node (and the room its caller made),
 * so that the B+tree code above reads as the algorithm it is.
 */

#include <linux/string.h>
#include <linux/types.h>

#include "idxnode.h"

/**
 * ntfs_ie_child() - The child VCN of an entry that has one
 * @e:		the entry: NTFS_IE_HAS_CHILD set, length checked
 *
 * Return: the VCN in the entry's last 8 bytes.
 */
u64 ntfs_ie_child(const struct ntfs_index_entry *e)
{
	return le64_to_cpu(*(const __le64 *)((const u8 *)e + ntfs_ie_len(e) - 8));
}

void ntfs_ie_set_child(struct ntfs_index_entry *e, u64 vcn)
{
	*(__le64 *)((u8 *)e + ntfs_ie_len(e) - 8) = cpu_to_le64(vcn);
}

/**
 * ntfs_ie_copy() - Copy an entry, giving it a child pointer or taking it away
 * @dst:	room for the result (NTFS_IE_MAX bytes)
 * @src:	the entry
 * @child:	whether the copy has a child (it goes to a node with children)
 * @vcn:	the child's VCN when @child
 *
 * An entry moving between a leaf and an interior node (a median going up,
 * a separator coming down) gains or loses its last 8 bytes.
 *
 * Return: the length of the copy.
 */
u32 ntfs_ie_copy(struct ntfs_index_entry *dst, const struct ntfs_index_entry *src,
		 bool child, u64 vcn)
{
	u32 base = ntfs_ie_len(src) - (ntfs_ie_has_child(src) ? 8 : 0);
	u16 flags = le16_to_cpu(src->flags) & ~NTFS_IE_HAS_CHILD;

	memmove(dst, src, base);
	if (child)
		flags |= NTFS_IE_HAS_CHILD;
	dst->flags = cpu_to_le16(flags);
	dst->length = cpu_to_le16(base + (child ? 8 : 0));
	if (child)
		ntfs_ie_set_child(dst, vcn);
	return ntfs_ie_len(dst);
}

/* Check the entry at @ofs of a node whose header was checked. */
static const char *ntfs_ix_check_entry(const struct ntfs_index_header *h, u32 ofs, u32 min_key)
{
	const struct ntfs_index_entry *e = ntfs_ix_at(h, ofs);
	u32 used = ntfs_ix_used(h), extra = ntfs_ix_children(h) ? 8 : 0;
	u32 len;

	if (used - ofs < NTFS_IE_HDR)
		return "an entry runs past the bytes its node uses";
	len = ntfs_ie_len(e);
	if (len < NTFS_IE_HDR + extra || len % 8 || len > used - ofs)
		return "an entry's length is short, unaligned or past its node";
	if (ntfs_ie_has_child(e) != !!extra)
		return "an entry's child pointer disagrees with its node's flag";
	if (ntfs_ie_is_last(e))
		return ofs + len == used ? NULL : "the end entry is not at the end of its node";
	if (le16_to_cpu(e->key_length) < min_key ||
	    le16_to_cpu(e->key_length) > len - NTFS_IE_HDR - extra)
		return "an entry's key is shorter than a key or longer than the entry";
	return NULL;
}

/**
 * ntfs_ix_check() - Check a node before it is changed
 * @h:		the node
 * @size:	bytes from @h to the end of the buffer holding it
 * @min_key:	the shortest key this index has
 *
 * Checks the header (offsets aligned and inside @size), that the entries
 * tile the used bytes with the end entry last, that every entry has a
 * child exactly when the node says it has children, and the key lengths.
 * The walk is bounded: each step advances at least 16 bytes.
 *
 * Return: NULL when the node is sound, else the rule it breaks.
 */
const char *ntfs_ix_check(const struct ntfs_index_header *h, u32 size, u32 min_key)
{
	u32 first = ntfs_ix_first(h), used = ntfs_ix_used(h);
	u32 alloc = le32_to_cpu(h->allocated_size);
	u32 ofs;

	if (size < NTFS_IX_HDR || first < NTFS_IX_HDR || first % 8 || used > alloc ||
	    alloc > size || first > used)
		return "node header offsets out of order or past the node";
	for (ofs = first; ofs < used; ofs += ntfs_ie_len(ntfs_ix_at(h, ofs))) {
		const char *why = ntfs_ix_check_entry(h, ofs, min_key);

		if (why)
			return why;
		if (ntfs_ie_is_last(ntfs_ix_at(h, ofs)))
			return NULL;
	}
	return "a node without an end entry";
}

/* Entries of a node that ntfs_ix_find() searches by halves. */
#define NTFS_IX_BSEARCH_MAX	128

/* ntfs_ix_find() in a node with too many entries: one comparison each. */
static int ntfs_ix_find_linear(const struct ntfs_index_header *h, ntfs_ix_cmp_t cmp,
			       const void *key, u32 *ofs)
{
	const struct ntfs_index_entry *e;
	int c;

	for (*ofs = ntfs_ix_first(h);; *ofs += ntfs_ie_len(e)) {
		e = ntfs_ix_at(h, *ofs);
		if (ntfs_ie_is_last(e))
			return 1;
		c = cmp(key, e);
		if (c <= 0)
			return c;
	}
}

/**
 * ntfs_ix_find() - Find where a key is, or would go, in a checked node
 * @h:		the node
 * @cmp:	the index's order
 * @key:	the key, handed to @cmp
 * @ofs:	set to the first entry not below @key (the end entry if none)
 *
 * Entries have different lengths: their offsets are gathered first (no
 * comparison), then searched by halves, so that a key that goes at the
 * end of a full node (a directory filled in name order) costs a handful
 * of name comparisons instead of one per entry.
 *
 * Return: @cmp's result for that entry, 1 when it is the end entry.
 */
int ntfs_ix_find(const struct ntfs_index_header *h, ntfs_ix_cmp_t cmp, const void *key,
		 u32 *ofs)
{
	u16 at[NTFS_IX_BSEARCH_MAX];
	u32 n = 0, lo = 0, hi, mid, o;
	int c, c_hi = 1;

	for (o = ntfs_ix_first(h); !ntfs_ie_is_last(ntfs_ix_at(h, o));
	     o += ntfs_ie_len(ntfs_ix_at(h, o))) {
		if (n == NTFS_IX_BSEARCH_MAX || o > 0xffff)
			return ntfs_ix_find_linear(h, cmp, key, ofs);
		at[n++] = o;
	}
	hi = n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = cmp(key, ntfs_ix_at(h, at[mid]));
		if (c > 0) {
			lo = mid + 1;
		} else {
			hi = mid;
			c_hi = c;
		}
	}
	*ofs = lo < n ? at[lo] : o;
	return lo < n ? c_hi : 1;
}

/* Offset of the end entry of a checked node. */
u32 ntfs_ix_end(const struct ntfs_index_header *h)
{
	u32 ofs = ntfs_ix_first(h);

	while (!ntfs_ie_is_last(ntfs_ix_at(h, ofs)))
		ofs += ntfs_ie_len(ntfs_ix_at(h, ofs));
	return ofs;
}

/* Offset of the entry before the one at @ofs, or 0 when that is the first. */
u32 ntfs_ix_prev(const struct ntfs_index_header *h, u32 ofs)
{
	u32 p = ntfs_ix_first(h), prev = 0;

	while (p < ofs) {
		prev = p;
		p += ntfs_ie_len(ntfs_ix_at(h, p));
	}
	return prev;
}

u32 ntfs_ix_entry_bytes(const struct ntfs_index_header *h)
{
	return ntfs_ix_end(h) - ntfs_ix_first(h);
}

/**
 * ntfs_ix_init() - Make an empty node: the end entry alone
 * @h:		the node
 * @first:	offset of its entries
 * @alloc:	bytes the node may use (its allocated size)
 * @children:	an interior node: the end entry gets a child
 * @end_child:	that child's VCN
 */
void ntfs_ix_init(struct ntfs_index_header *h, u32 first, u32 alloc, bool children, u64 end_child)
{
	struct ntfs_index_entry *end = ntfs_ix_at(h, first);
	u32 len = NTFS_IE_HDR + (children ? 8 : 0);

	memset(end, 0, len);
	end->length = cpu_to_le16(len);
	end->flags = cpu_to_le16(NTFS_IE_LAST | (children ? NTFS_IE_HAS_CHILD : 0));
	if (children)
		ntfs_ie_set_child(end, end_child);
	h->entries_offset = cpu_to_le32(first);
	h->index_length = cpu_to_le32(first + len);
	h->allocated_size = cpu_to_le32(alloc);
	h->flags = children ? NTFS_INDEX_HAS_CHILDREN : 0;
}

/* Insert @e before the entry at @ofs; the caller made room for it. */
void ntfs_ix_insert(struct ntfs_index_header *h, u32 ofs, const struct ntfs_index_entry *e)
{
	u32 len = ntfs_ie_len(e), used = ntfs_ix_used(h);

	memmove(ntfs_ix_at(h, ofs + len), ntfs_ix_at(h, ofs), used - ofs);
	memcpy(ntfs_ix_at(h, ofs), e, len);
	h->index_length = cpu_to_le32(used + len);
}

/* Remove the entry at @ofs (not the end entry). */
void ntfs_ix_remove(struct ntfs_index_header *h, u32 ofs)
{
	u32 len = ntfs_ie_len(ntfs_ix_at(h, ofs)), used = ntfs_ix_used(h);

	memmove(ntfs_ix_at(h, ofs), ntfs_ix_at(h, ofs + len), used - ofs - len);
	h->index_length = cpu_to_le32(used - len);
}

/* Insert @n bytes of entries at @ofs; the caller made room. */
static void ntfs_ix_insert_bytes(struct ntfs_index_header *h, u32 ofs, const void *src, u32 n)
{
	u32 used = ntfs_ix_used(h);

	memmove(ntfs_ix_at(h, ofs + n), ntfs_ix_at(h, ofs), used - ofs);
	memcpy(ntfs_ix_at(h, ofs), src, n);
	h->index_length = cpu_to_le32(used + n);
}

/* Append the entries of @src (not its end entry) to @dst, before its end entry. */
void ntfs_ix_append(struct ntfs_index_header *dst, const struct ntfs_index_header *src)
{
	ntfs_ix_insert_bytes(dst, ntfs_ix_end(dst), ntfs_ix_at(src, ntfs_ix_first(src)),
			     ntfs_ix_entry_bytes(src));
}

/* The median of a node of two or more entries: halves of about equal bytes. */
static u32 ntfs_ix_median(const struct ntfs_index_header *h)
{
	u32 first = ntfs_ix_first(h), half = ntfs_ix_entry_bytes(h) / 2;
	u32 ofs = first, len;

	for (;;) {
		len = ntfs_ie_len(ntfs_ix_at(h, ofs));
		if (ntfs_ie_is_last(ntfs_ix_at(h, ofs + len)))
			return ofs;	/* the last entry: the right half is empty */
		if (ofs > first && ofs - first + len / 2 >= half)
			return ofs;
		ofs += len;
	}
}

/**
 * ntfs_ix_split() - Split an overfull node at its median
 * @full:	the node, with every entry; keeps the entries after the median
 * @left:	an empty node (ntfs_ix_init()) with room for half of @full:
 *		gets the entries before the median
 * @median:	room for NTFS_IE_MAX bytes: gets the median entry as it was
 *
 * In an interior node the median's child (the keys between the left half
 * and the median) becomes the child of @left's end entry.  The caller
 * gives the median its new child, @left, and inserts it into the parent.
 */
void ntfs_ix_split(struct ntfs_index_header *full, struct ntfs_index_header *left,
		   struct ntfs_index_entry *median)
{
	u32 first = ntfs_ix_first(full), m = ntfs_ix_median(full);
	const struct ntfs_index_entry *me = ntfs_ix_at(full, m);
	u32 mlen = ntfs_ie_len(me), used = ntfs_ix_used(full);

	memcpy(median, me, mlen);
	ntfs_ix_init(left, ntfs_ix_first(left), le32_to_cpu(left->allocated_size),
		     ntfs_ix_children(full), ntfs_ix_children(full) ? ntfs_ie_child(me) : 0);
	ntfs_ix_insert_bytes(left, ntfs_ix_first(left), ntfs_ix_at(full, first), m - first);
	memmove(ntfs_ix_at(full, first), ntfs_ix_at(full, m + mlen), used - m - mlen);
	full->index_length = cpu_to_le32(used - (m + mlen - first));
}

/* Length of @sep as a separator coming down into a node like @right. */
static u32 ntfs_ix_sep_len(const struct ntfs_index_entry *sep,
			   const struct ntfs_index_header *right)
{
	return ntfs_ie_len(sep) - (ntfs_ie_has_child(sep) ? 8 : 0) +
	       (ntfs_ix_children(right) ? 8 : 0);
}

/**
 * ntfs_ix_merge_size() - Bytes @right would use after ntfs_ix_merge()
 * @left:	the left sibling
 * @sep:	the parent's entry between them
 * @right:	the right sibling
 *
 * Return: the merged node's index length.
 */
u32 ntfs_ix_merge_size(const struct ntfs_index_header *left, const struct ntfs_index_entry *sep,
		       const struct ntfs_index_header *right)
{
	return ntfs_ix_used(right) + ntfs_ix_entry_bytes(left) + ntfs_ix_sep_len(sep, right);
}

/**
 * ntfs_ix_merge() - Merge two siblings and their separator into the right one
 * @left:	the left sibling (unchanged; its block is freed by the caller)
 * @sep:	the parent's entry between them
 * @right:	the right sibling, with room for ntfs_ix_merge_size()
 * @tmp:	room for NTFS_IE_MAX bytes
 *
 * The separator comes down between the two halves; in an interior node it
 * takes over the left node's end child (the keys between the left node's
 * last entry and the separator).
 */
void ntfs_ix_merge(struct ntfs_index_header *left, const struct ntfs_index_entry *sep,
		   struct ntfs_index_header *right, struct ntfs_index_entry *tmp)
{
	bool children = ntfs_ix_children(right);
	u64 vcn = children ? ntfs_ie_child(ntfs_ix_at(left, ntfs_ix_end(left))) : 0;
	u32 first = ntfs_ix_first(right);

	ntfs_ie_copy(tmp, sep, children, vcn);
	ntfs_ix_insert(right, first, tmp);
	ntfs_ix_insert_bytes(right, first, ntfs_ix_at(left, ntfs_ix_first(left)),
			     ntfs_ix_entry_bytes(left));
}
