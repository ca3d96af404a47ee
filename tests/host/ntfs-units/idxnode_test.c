// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of ntfs3/idxnode.c: the node operations of the index
 * B+tree (check, find, insert, remove, split, merge, child pointers) on
 * nodes of synthetic entries whose key is a 32-bit number padded to a
 * random length, so entries have the varied sizes of file names.
 *
 *   idxnode_test        run the tests, TAP on stdout
 *
 * idxnode.c is compiled into this file (the shim gives it the kernel
 * names it needs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>

#include "idxnode.c"
#include "units.h"

#define BS		4096U		/* an index block */
#define FIRST		0x28U		/* its entries' offset from the header */
#define CAP		(BS - 0x18)	/* its allocated size */

static u64 ebuf[NTFS_IE_MAX / 8 + 1];

static u32 key_of(const struct ntfs_index_entry *e)
{
	u32 k;

	memcpy(&k, e + 1, 4);
	return le32_to_cpu(k);
}

static int cmp_u32(const void *key, const struct ntfs_index_entry *e)
{
	u32 a = *(const u32 *)key, b = key_of(e);

	return a < b ? -1 : a > b;
}

/* An entry with key @k, a key of @klen bytes, and a child when @child. */
static struct ntfs_index_entry *mk(u32 k, u32 klen, bool child, u64 vcn)
{
	struct ntfs_index_entry *e = (void *)ebuf;
	u32 len = (NTFS_IE_HDR + klen + 7) / 8 * 8 + (child ? 8 : 0);

	memset(ebuf, 0xa5, sizeof(ebuf));
	memset(e, 0, len);
	e->ref = cpu_to_le64(k);
	e->length = cpu_to_le16(len);
	e->key_length = cpu_to_le16(klen);
	e->flags = cpu_to_le16(child ? NTFS_IE_HAS_CHILD : 0);
	k = le32_to_cpu(k);
	memcpy(e + 1, &k, 4);
	if (child)
		ntfs_ie_set_child(e, vcn);
	return e;
}

static u32 rnd_klen(void)
{
	return 4 + 2 * rnd_below(256);
}

static struct ntfs_index_header *node_new(u32 size, bool children, u64 end_child)
{
	struct ntfs_index_header *h = calloc(1, size);

	ntfs_ix_init(h, FIRST, size, children, end_child);
	return h;
}

/* Keys strictly ascending; children (when @vcns) listed in order. */
static bool node_sorted(const struct ntfs_index_header *h, u32 *count, u64 *vcns)
{
	u32 ofs, n = 0;
	u32 prev = 0;

	for (ofs = ntfs_ix_first(h);; ofs += ntfs_ie_len(ntfs_ix_at(h, ofs))) {
		const struct ntfs_index_entry *e = ntfs_ix_at(h, ofs);

		if (vcns && ntfs_ie_has_child(e))
			vcns[n] = ntfs_ie_child(e);
		if (ntfs_ie_is_last(e))
			break;
		if (n && key_of(e) <= prev)
			return false;
		prev = key_of(e);
		n++;
	}
	*count = n;
	return true;
}

/* Insert @k at its place if it has room; 1 inserted, 0 full, -1 present. */
static int node_add(struct ntfs_index_header *h, u32 k, u32 klen, u64 vcn)
{
	struct ntfs_index_entry *e = mk(k, klen, ntfs_ix_children(h), vcn);
	u32 ofs;

	if (!ntfs_ix_find(h, cmp_u32, &k, &ofs))
		return -1;
	if (ntfs_ix_free(h) < ntfs_ie_len(e))
		return 0;
	ntfs_ix_insert(h, ofs, e);
	return 1;
}

static void test_fill_and_empty(void)
{
	struct ntfs_index_header *h = node_new(CAP, false, 0);
	u32 n = 0, count = 0, ofs, k;
	bool ok = true;
	int r, i;

	while ((r = node_add(h, rnd_below(1u << 30), rnd_klen(), 0)) != 0)
		n += r > 0;
	tap_result(!ntfs_ix_check(h, CAP, 4) && node_sorted(h, &count, NULL) && count == n,
		   "fill a block with %u random entries: sound, sorted", n);
	for (i = 0; n; i++) {
		ofs = ntfs_ix_first(h);
		for (k = rnd_below(n); k; k--)
			ofs += ntfs_ie_len(ntfs_ix_at(h, ofs));
		ntfs_ix_remove(h, ofs);
		n--;
		if (ntfs_ix_check(h, CAP, 4) || !node_sorted(h, &count, NULL) || count != n)
			ok = false;
	}
	tap_result(ok && ntfs_ix_used(h) == FIRST + NTFS_IE_HDR,
		   "remove them in random order: sound after each, empty at the end");
	free(h);
}

static void test_find(void)
{
	struct ntfs_index_header *h = node_new(CAP, false, 0);
	u32 k, ofs;
	bool ok = true;

	for (k = 10; k <= 100; k += 10)
		node_add(h, k, 4, 0);
	for (k = 5; k <= 105; k += 5) {
		int c = ntfs_ix_find(h, cmp_u32, &k, &ofs);
		const struct ntfs_index_entry *e = ntfs_ix_at(h, ofs);

		if (k > 100)
			ok &= c == 1 && ntfs_ie_is_last(e);
		else if (k % 10)
			ok &= c < 0 && key_of(e) == k + 5;
		else
			ok &= c == 0 && key_of(e) == k;
	}
	tap_result(ok, "find: the first entry not below the key, the end entry past all");
	ofs = ntfs_ix_end(h);
	tap_result(key_of(ntfs_ix_at(h, ntfs_ix_prev(h, ofs))) == 100 &&
		   !ntfs_ix_prev(h, ntfs_ix_first(h)),
		   "prev: the last entry before the end, none before the first");
	free(h);
}

static void test_copy_child(void)
{
	struct ntfs_index_entry *e = mk(7, 9, false, 0), *c = malloc(NTFS_IE_MAX);
	u32 l0 = ntfs_ie_len(e), l1, l2;

	l1 = ntfs_ie_copy(c, e, true, 0x123456789ULL);
	tap_result(l1 == l0 + 8 && ntfs_ie_has_child(c) && ntfs_ie_child(c) == 0x123456789ULL &&
		   key_of(c) == 7, "an entry gains a child: 8 bytes more, the VCN last");
	l2 = ntfs_ie_copy(c, c, false, 0);
	tap_result(l2 == l0 && !ntfs_ie_has_child(c) && key_of(c) == 7,
		   "and loses it again in place");
	free(c);
}

/* Split an overfull node (leaf or interior) and check both halves. */
static void test_split(bool children)
{
	struct ntfs_index_header *s = node_new(2 * BS, children, 999999);
	struct ntfs_index_header *left = node_new(CAP, children, 0);
	struct ntfs_index_entry *med = malloc(NTFS_IE_MAX);
	u64 vcn_in[400], vcn_l[400], vcn_r[400];
	u32 n = 0, nl, nr, i;
	bool ok;

	/* Children numbered by key order, to see that none is lost or moved. */
	while (ntfs_ix_used(s) <= CAP) {
		u32 k = rnd_below(1u << 30);

		n += node_add(s, k, rnd_klen(), k) > 0;
	}
	node_sorted(s, &n, vcn_in);
	ntfs_ix_split(s, left, med);
	ok = !ntfs_ix_check(left, CAP, 4) && !ntfs_ix_check(s, 2 * BS, 4) &&
	     ntfs_ix_used(s) <= CAP && node_sorted(left, &nl, vcn_l) &&
	     node_sorted(s, &nr, vcn_r) && nl + nr + 1 == n && nl && nr;
	tap_result(ok, "split %s of %u entries: halves of %u and %u, each fits a block",
		   children ? "an interior node" : "a leaf", n, nl, nr);
	if (!ok)
		goto out;
	ok = key_of(ntfs_ix_at(left, ntfs_ix_prev(left, ntfs_ix_end(left)))) < key_of(med) &&
	     key_of(med) < key_of(ntfs_ix_at(s, ntfs_ix_first(s)));
	tap_result(ok, "the median sorts between the halves");
	if (children) {
		ok = ntfs_ie_child(med) == vcn_in[nl];
		for (i = 0; i <= nl; i++)
			ok &= vcn_l[i] == (i < nl ? vcn_in[i] : ntfs_ie_child(med));
		for (i = 0; i <= nr; i++)
			ok &= vcn_r[i] == vcn_in[nl + 1 + i];
		tap_result(ok, "children: left keeps its own and the median's, right the rest");
	}
	tap_result(abs((int)ntfs_ix_entry_bytes(left) - (int)ntfs_ix_entry_bytes(s)) <
		   (int)NTFS_IE_MAX, "the halves differ by less than one entry");
out:
	free(s);
	free(left);
	free(med);
}

static void test_merge(bool children)
{
	struct ntfs_index_header *l = node_new(CAP, children, 41);
	struct ntfs_index_header *r = node_new(CAP, children, 43);
	struct ntfs_index_entry *tmp = malloc(NTFS_IE_MAX);
	struct ntfs_index_entry *sep;
	u64 vcns[200];
	u32 k, n, size;
	bool ok;

	/* Small keys: the two halves fit one block together. */
	for (k = 1; k <= 10; k++)
		node_add(l, k, 4 + 2 * rnd_below(60), k);
	for (k = 12; k <= 20; k++)
		node_add(r, k, 4 + 2 * rnd_below(60), k);
	sep = mk(11, 30, true, 42);	/* from the parent: it has a child */
	size = ntfs_ix_merge_size(l, sep, r);
	ntfs_ix_merge(l, sep, r, tmp);
	ok = ntfs_ix_used(r) == size && !ntfs_ix_check(r, CAP, 4) &&
	     node_sorted(r, &n, vcns) && n == 20;
	tap_result(ok, "merge %s: left, separator, right in order, size as told",
		   children ? "interior nodes" : "leaves");
	if (children) {
		ok = vcns[9] == 10 && vcns[10] == 41 && vcns[11] == 12 && vcns[20] == 43;
		tap_result(ok, "the separator takes the left node's end child");
	}
	free(l);
	free(r);
	free(tmp);
}

/* Damaged nodes are refused, and checking random bytes never overruns. */
static void test_check(void)
{
	struct ntfs_index_header *h = node_new(CAP, false, 0);
	struct ntfs_index_entry *e;
	u8 *copy = malloc(CAP);
	unsigned int i, refused = 0;

	for (i = 0; i < 20; i++)
		node_add(h, i, 20, 0);
	e = ntfs_ix_at(h, ntfs_ix_first(h));
	e->length = cpu_to_le16(ntfs_ie_len(e) + 4);
	tap_result(ntfs_ix_check(h, CAP, 4) != NULL, "unaligned entry length refused");
	e->length = cpu_to_le16(ntfs_ie_len(e) - 4);
	e->flags = cpu_to_le16(NTFS_IE_HAS_CHILD);
	tap_result(ntfs_ix_check(h, CAP, 4) != NULL, "child pointer in a leaf refused");
	e->flags = 0;
	h->index_length = cpu_to_le32(ntfs_ix_used(h) + 8);
	tap_result(ntfs_ix_check(h, CAP, 4) != NULL, "bytes after the end entry refused");
	h->index_length = cpu_to_le32(ntfs_ix_used(h) - 8);
	h->allocated_size = cpu_to_le32(CAP + 8);
	tap_result(ntfs_ix_check(h, CAP, 4) != NULL, "allocated size past the buffer refused");
	h->allocated_size = cpu_to_le32(CAP);
	e->key_length = cpu_to_le16(2);
	tap_result(ntfs_ix_check(h, CAP, 4) != NULL, "key shorter than any key refused");
	e->key_length = cpu_to_le16(20);
	tap_result(!ntfs_ix_check(h, CAP, 4), "and the repaired node passes");

	for (i = 0; i < 20000; i++) {
		unsigned int j, n = 1 + rnd_below(8);

		memcpy(copy, h, CAP);
		for (j = 0; j < n; j++)
			copy[rnd_below(ntfs_ix_used(h) + 8)] = rnd();
		if (ntfs_ix_check((void *)copy, CAP, 4)) {
			refused++;
		} else {
			/* A node that passes can be walked to its end. */
			ntfs_ix_end((void *)copy);
		}
	}
	tap_result(1, "20000 mutated nodes checked without overrun (%u refused)", refused);
	free(copy);
	free(h);
}

int main(void)
{
	test_find();
	test_copy_child();
	test_fill_and_empty();
	test_split(false);
	test_split(true);
	test_merge(false);
	test_merge(true);
	test_check();
	return tap_done();
}
