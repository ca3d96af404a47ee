// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.ntfs3: the generic index walker and the $I30 directory indexes.
 *
 * An index is a B+ tree: the root node lives in $INDEX_ROOT, the other
 * nodes in fixed-size "INDX" blocks of $INDEX_ALLOCATION, and $BITMAP
 * says which blocks are in use.  index_walk() checks the structure and
 * the collation order and hands every keyed entry, in key order, to the
 * caller.  check_directories() uses it for every $I30 and checks the
 * entries against the records they name, then every $FILE_NAME against
 * its parent's index, the link counts and the Win32/DOS name pairs.
 *
 * Format facts: the Linux-NTFS project's documentation, the libyal NTFS
 * document, [MS-FSCC]; the rules marked "seen on" were read off volumes
 * made by Windows, mkntfs and ntfs-3g.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

#define INDEX_MAX_DEPTH	32	/* a B+ tree of 4 KiB nodes never gets near */
#define ROOT_HDR_OFF	0x10	/* index header inside the $INDEX_ROOT value */
#define BLOCK_HDR_OFF	0x18	/* index header inside an INDX block */
#define ENTRY_HDR	sizeof(struct ntfs_index_entry)
#define ROOT_NODE	UINT64_MAX	/* the vcn of the root node in messages */
#define FN_HDR		offsetof(struct ntfs_file_name, name)

/* State of one walk, private to this file. */
struct walker {
	struct vol		*v;
	struct index_walk	*w;
	char			where[64];	/* "$INDEX_ALLOCATION $I30" */
	char			root_where[64];	/* "$INDEX_ROOT $I30" */
	char			bitmap_where[64];	/* "$BITMAP $I30" */
	u32			block_size;
	u32			vcn_unit;	/* bytes per VCN of a block */
	bool			have_alloc;
	bool			alloc_broken;	/* stream_open said -EIO */
	struct stream		alloc;
	u64			nblocks;	/* blocks in the allocation */
	u8			*visited;	/* per block */
	u8			*prev_key;	/* the last key in index order */
	u32			prev_len;
	bool			have_prev;
	unsigned int		errors;		/* structure and order reports */
	bool			stop;		/* the callback asked to stop */
};

/* ---- collations ---- */

/* Unit i of a name that may sit at any address (attribute values can). */
static u16 unit_at(const __le16 *p, unsigned int i)
{
	__le16 x;

	memcpy(&x, (const u8 *)p + 2 * i, 2);
	return le16(x);
}

/* The name of a $FILE_NAME value, without taking a packed member's address. */
static const __le16 *fn_name(const struct ntfs_file_name *fn)
{
	return (const __le16 *)((const u8 *)fn + FN_HDR);
}

static u16 upcase_unit(const struct vol *v, u16 c)
{
	if (v->upcase)
		return c < v->upcase_len ? v->upcase[c] : c;
	return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
}

/*
 * Compare two UTF-16 names the way $I30 orders them: unit by unit after
 * mapping each through $UpCase, a shorter name first when it is a prefix.
 */
int name_collate(const struct vol *v, const __le16 *a, unsigned int la,
		 const __le16 *b, unsigned int lb)
{
	unsigned int i, n = la < lb ? la : lb;

	for (i = 0; i < n; i++) {
		u16 ca = upcase_unit(v, unit_at(a, i));
		u16 cb = upcase_unit(v, unit_at(b, i));

		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return la == lb ? 0 : la < lb ? -1 : 1;
}

/* Units compared as numbers, without upcasing. */
static int units_cmp(const __le16 *a, unsigned int la, const __le16 *b,
		     unsigned int lb)
{
	unsigned int i, n = la < lb ? la : lb;

	for (i = 0; i < n; i++) {
		u16 ca = unit_at(a, i), cb = unit_at(b, i);

		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return la == lb ? 0 : la < lb ? -1 : 1;
}

/*
 * FILE_NAME collation.  Names equal after upcasing can only both exist in
 * the POSIX namespace; then the plain unit values decide: seen on the
 * special image's twins/ (TWIN.TXT, Twin.Txt, twin.txt in that order).
 * Keys were checked to hold their names before the walk compares them.
 */
static int filename_cmp(const struct vol *v, const u8 *ka, const u8 *kb)
{
	const struct ntfs_file_name *a = (const void *)ka;
	const struct ntfs_file_name *b = (const void *)kb;
	int c = name_collate(v, fn_name(a), a->name_length, fn_name(b),
			     b->name_length);

	if (c)
		return c;
	return units_cmp(fn_name(a), a->name_length, fn_name(b),
			 b->name_length);
}

static int bytes_cmp(const u8 *a, u32 la, const u8 *b, u32 lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);

	if (c)
		return c < 0 ? -1 : 1;
	return la == lb ? 0 : la < lb ? -1 : 1;
}

/* ULONGS: a sequence of little-endian u32 compared in order. */
static int ulongs_cmp(const u8 *a, u32 la, const u8 *b, u32 lb)
{
	u32 i, n = (la < lb ? la : lb) / 4;

	for (i = 0; i < n; i++) {
		u32 x, y;

		memcpy(&x, a + 4 * i, 4);
		memcpy(&y, b + 4 * i, 4);
		x = le32(x);
		y = le32(y);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return la == lb ? 0 : la < lb ? -1 : 1;
}

/* Compare two keys that key_fits() accepted for this collation. */
static int key_cmp(const struct vol *v, u32 collation, const u8 *a, u32 la,
		   const u8 *b, u32 lb)
{
	switch (collation) {
	case NTFS_COLLATION_FILE_NAME:
		return filename_cmp(v, a, b);
	case NTFS_COLLATION_UNICODE:
		return name_collate(v, (const __le16 *)a, la / 2,
				    (const __le16 *)b, lb / 2);
	case NTFS_COLLATION_ULONG:
	case NTFS_COLLATION_ULONGS:
		return ulongs_cmp(a, la, b, lb);
	case NTFS_COLLATION_SECURITY_HASH:
		/* hash, then security id: both u32, so the same rule */
		return ulongs_cmp(a, 8, b, 8);
	default:	/* BINARY, SID */
		return bytes_cmp(a, la, b, lb);
	}
}

static bool collation_known(u32 c)
{
	return c == NTFS_COLLATION_BINARY || c == NTFS_COLLATION_FILE_NAME ||
	       c == NTFS_COLLATION_UNICODE || c == NTFS_COLLATION_ULONG ||
	       c == NTFS_COLLATION_SID || c == NTFS_COLLATION_SECURITY_HASH ||
	       c == NTFS_COLLATION_ULONGS;
}

/* Whether a key of key_len bytes is big enough for its collation. */
static bool key_fits(u32 collation, const u8 *key, u32 key_len)
{
	switch (collation) {
	case NTFS_COLLATION_FILE_NAME:
		return key_len >= FN_HDR &&
		       FN_HDR + 2u * key[offsetof(struct ntfs_file_name,
						 name_length)] <= key_len;
	case NTFS_COLLATION_ULONG:
		return key_len == 4;
	case NTFS_COLLATION_ULONGS:
		return key_len % 4 == 0;
	case NTFS_COLLATION_SECURITY_HASH:
		return key_len == 8;
	case NTFS_COLLATION_SID:
		return key_len >= 8;
	default:
		return true;
	}
}

/* A key as text for a report: the name for $I30, else hex bytes. */
static void key_text(const struct walker *k, const u8 *key, u32 len,
		     char *out, size_t outlen)
{
	u32 i;
	size_t o = 0;

	if (k->w->collation == NTFS_COLLATION_FILE_NAME) {
		const struct ntfs_file_name *fn = (const void *)key;

		out[0] = '"';
		name_utf8(fn_name(fn), fn->name_length, out + 1, outlen - 2);
		strcat(out, "\"");
		return;
	}
	out[0] = 0;
	for (i = 0; i < len && i < 24 && o + 3 < outlen; i++)
		o += snprintf(out + o, outlen - o, "%02x", key[i]);
	if (i < len && o + 4 < outlen)
		snprintf(out + o, outlen - o, "...");
}

/* ---- nodes ---- */

/* Report a broken node once; the walk does not descend into it. */
static __printf(3, 4) void node_bad(struct walker *k, u64 vcn, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (vcn == ROOT_NODE)
		report(k->v, P_INDEX, k->w->rec, k->root_where, "root node: %s",
		       text);
	else
		report(k->v, P_INDEX, k->w->rec, k->where, "block VCN %llu: %s",
		       (unsigned long long)vcn, text);
	k->errors++;
}

/*
 * Check every entry of a node before anything uses it: lengths inside the
 * node, keys that fit their collation, the last entry flagged, a sub-node
 * VCN exactly when the node says it has children.  Returns the number of
 * entries, or -1 after reporting.
 */
static int node_validate(struct walker *k, const u8 *buf, u32 buflen,
			 u32 hdr_off, u64 vcn)
{
	const struct ntfs_index_header *h = (const void *)(buf + hdr_off);
	u32 first = le32(h->entries_offset), used = le32(h->index_length);
	u32 room = le32(h->allocated_size);
	bool children = h->flags & NTFS_INDEX_HAS_CHILDREN;
	u32 off, end;
	int n = 0;

	if (first < sizeof(*h) || first % 8 || first > used || used > room ||
	    room > buflen - hdr_off) {
		node_bad(k, vcn,
			 "header out of bounds: entries at %u, %u bytes used of %u, %u available",
			 first, used, room, buflen - hdr_off);
		return -1;
	}
	off = hdr_off + first;
	end = hdr_off + used;
	for (;;) {
		const struct ntfs_index_entry *e = (const void *)(buf + off);
		u32 len, klen, flags;

		if (end - off < ENTRY_HDR) {
			node_bad(k, vcn, "no last entry before the node ends at %u",
				 used);
			return -1;
		}
		len = le16(e->length);
		klen = le16(e->key_length);
		flags = le16(e->flags);
		if (len < ENTRY_HDR || len % 8 || len > end - off) {
			node_bad(k, vcn, "entry at offset %u: length %u out of bounds",
				 off - hdr_off, len);
			return -1;
		}
		if (!!(flags & NTFS_IE_HAS_CHILD) != children) {
			node_bad(k, vcn, "entry at offset %u: sub-node flag %s, node flag %s",
				 off - hdr_off, children ? "clear" : "set",
				 children ? "set" : "clear");
			return -1;
		}
		if (ENTRY_HDR + klen + (children ? 8 : 0) > len ||
		    (!(flags & NTFS_IE_LAST) &&
		     !key_fits(k->w->collation, buf + off + ENTRY_HDR, klen))) {
			node_bad(k, vcn,
				 "entry at offset %u: key length %u does not fit entry length %u",
				 off - hdr_off, klen, len);
			return -1;
		}
		n++;
		if (flags & NTFS_IE_LAST)
			return n;
		off += len;
	}
}

static u64 entry_child(const u8 *buf, u32 off)
{
	const struct ntfs_index_entry *e = (const void *)(buf + off);
	u64 vcn;

	memcpy(&vcn, buf + off + le16(e->length) - 8, 8);
	return le64(vcn);
}

static void walk_block(struct walker *k, u64 parent, u64 vcn,
		       unsigned int depth);

/* Key order: every key after the previous one in index order. */
static void check_order(struct walker *k, u64 vcn, const u8 *key, u32 klen)
{
	char a[300], b[300];

	if (k->have_prev &&
	    key_cmp(k->v, k->w->collation, k->prev_key, k->prev_len,
		    key, klen) >= 0) {
		key_text(k, k->prev_key, k->prev_len, a, sizeof(a));
		key_text(k, key, klen, b, sizeof(b));
		if (vcn == ROOT_NODE)
			report(k->v, P_INDEXORDER, k->w->rec, k->root_where,
			       "root node: %s comes after %s", b, a);
		else
			report(k->v, P_INDEXORDER, k->w->rec, k->where,
			       "block VCN %llu: %s comes after %s",
			       (unsigned long long)vcn, b, a);
		k->errors++;
	}
	k->prev_key = xrealloc(k->prev_key, klen ? klen : 1, 1);
	memcpy(k->prev_key, key, klen);
	k->prev_len = klen;
	k->have_prev = true;
}

/*
 * Walk one valid node in order: each entry's sub-node first, then the
 * entry itself.  Checking each key against the previous one in this
 * order checks both the order inside a node and the bounds set by the
 * ancestors (left subtree < separator < right subtree).
 */
static void walk_entries(struct walker *k, const u8 *buf, u32 hdr_off,
			 u64 vcn, unsigned int depth)
{
	const struct ntfs_index_header *h = (const void *)(buf + hdr_off);
	u32 off = hdr_off + le32(h->entries_offset);

	for (;;) {
		const struct ntfs_index_entry *e = (const void *)(buf + off);
		u16 flags = le16(e->flags), klen = le16(e->key_length);

		if (flags & NTFS_IE_HAS_CHILD)
			walk_block(k, vcn, entry_child(buf, off), depth + 1);
		if (k->stop)
			return;
		if (!(flags & NTFS_IE_LAST)) {
			const u8 *key = buf + off + ENTRY_HDR;

			check_order(k, vcn, key, klen);
			k->w->entries++;
			if (k->w->entry && k->w->entry(k->v, k->w, e, key, klen)) {
				k->stop = true;
				return;
			}
		}
		if (flags & NTFS_IE_LAST)
			return;
		off += le16(e->length);
	}
}

/* Read, unprotect and check the header of the block at vcn. */
static u8 *block_load(struct walker *k, u64 parent, u64 vcn)
{
	u64 pos, idx;
	u8 *buf;
	const char *why = NULL;
	const struct ntfs_index_block *b;

	if (__builtin_mul_overflow(vcn, (u64)k->vcn_unit, &pos) ||
	    pos % k->block_size || pos / k->block_size >= k->nblocks) {
		node_bad(k, parent,
			 "sub-node VCN %llu outside $INDEX_ALLOCATION (%llu blocks of %u bytes)",
			 (unsigned long long)vcn,
			 (unsigned long long)k->nblocks, k->block_size);
		return NULL;
	}
	idx = pos / k->block_size;
	if (k->visited[idx]) {
		node_bad(k, vcn, "reached twice (a cycle or a shared sub-node)");
		return NULL;
	}
	k->visited[idx] = 1;
	buf = xcalloc(1, k->block_size);
	if (stream_read(k->v, &k->alloc, pos, buf, k->block_size)) {
		node_bad(k, vcn, "unreadable at byte %llu",
			 (unsigned long long)pos);
		goto bad;
	}
	b = (const void *)buf;
	if (le32(b->usa.magic) != NTFS_MAGIC_INDX) {
		node_bad(k, vcn, "magic %#x, not INDX", le32(b->usa.magic));
		goto bad;
	}
	if (fixup_apply(buf, k->block_size, NTFS_USA_STRIDE, &why)) {
		node_bad(k, vcn, "update sequence: %s", why ? why : "broken");
		goto bad;
	}
	if (le64(b->vcn) != vcn) {
		node_bad(k, vcn, "block says VCN %llu",
			 (unsigned long long)le64(b->vcn));
		goto bad;
	}
	return buf;
bad:
	free(buf);
	return NULL;
}

/* One index block: load it, check it, walk it. */
static void walk_block(struct walker *k, u64 parent, u64 vcn,
		       unsigned int depth)
{
	u8 *buf;

	if (k->alloc_broken) {
		k->errors++;	/* no report: a consequence, but no bitmap check */
		return;
	}
	if (!k->have_alloc) {
		node_bad(k, parent, "sub-node VCN %llu but no $INDEX_ALLOCATION",
			 (unsigned long long)vcn);
		return;
	}
	if (depth > INDEX_MAX_DEPTH) {
		node_bad(k, parent, "tree deeper than %d levels",
			 INDEX_MAX_DEPTH);
		return;
	}
	buf = block_load(k, parent, vcn);
	if (!buf)
		return;
	if (node_validate(k, buf, k->block_size, BLOCK_HDR_OFF, vcn) > 0)
		walk_entries(k, buf, BLOCK_HDR_OFF, vcn, depth);
	free(buf);
}

/* ---- the index's attributes ---- */

/* $INDEX_ROOT named name in the base record or one of its extensions. */
static const struct ntfs_attr *find_root(struct vol *v, u64 base,
					 const char *name, u64 *holder)
{
	u64 r = base;
	unsigned int hops = 0;

	while (rec_ok(v, r) && hops++ < v->nrec) {
		struct ntfs_attr *a;

		for_each_attr(v, r, a) {
			if (le32(a->type) == NTFS_AT_INDEX_ROOT &&
			    attr_name_is(a, name)) {
				*holder = r;
				return a;
			}
		}
		r = r == base ? v->recs[base].ext_first : v->recs[r].ext_next;
		if (!r)
			break;
	}
	return NULL;
}

/* Check the $INDEX_ROOT value; on success sets block size and units. */
static const struct ntfs_index_root *root_check(struct walker *k,
						const struct ntfs_attr *a,
						u32 *len)
{
	struct vol *v = k->v;
	const struct ntfs_index_root *ir;
	u32 bs;

	ir = a->non_resident ? NULL : attr_value(a, len);
	if (!ir || *len < sizeof(*ir)) {
		report(v, P_INDEX, k->w->rec, k->root_where,
		       "$INDEX_ROOT value too short or not resident");
		return NULL;
	}
	bs = le32(ir->block_size);
	k->w->collation = le32(ir->collation);
	if (!collation_known(k->w->collation)) {
		report(v, P_INDEX, k->w->rec, k->root_where,
		       "unknown collation rule %#x", k->w->collation);
		return NULL;
	}
	if (bs < NTFS_USA_STRIDE || bs > (1u << 21) || (bs & (bs - 1)) ||
	    (!strcmp(k->w->name, "$I30") && bs != v->index_block_size)) {
		report(v, P_INDEX, k->w->rec, k->root_where,
		       "index block size %u (volume: %u)", bs,
		       v->index_block_size);
		return NULL;
	}
	/*
	 * Blocks are addressed by VCN: in clusters when a block holds at
	 * least one cluster, else in 512-byte units (seen on the 64 KiB
	 * cluster image: 4 KiB blocks at VCN 0, 8, 16...).
	 */
	/* the directory code reads every key as a $FILE_NAME */
	if (!strcmp(k->w->name, "$I30") &&
	    (k->w->collation != NTFS_COLLATION_FILE_NAME ||
	     le32(ir->type) != NTFS_AT_FILE_NAME)) {
		report(v, P_INDEX, k->w->rec, k->root_where,
		       "indexes attribute %#x by collation %#x, want $FILE_NAME by file name",
		       le32(ir->type), k->w->collation);
		return NULL;
	}
	k->block_size = bs;
	k->vcn_unit = bs >= v->cluster_size ? v->cluster_size : 512;
	return ir;
}

/* $INDEX_ALLOCATION: how many whole blocks it holds. */
static void alloc_open(struct walker *k)
{
	int err = stream_open(k->v, k->w->rec, NTFS_AT_INDEX_ALLOC,
			      k->w->name, &k->alloc);

	if (err) {
		/* extents that do not fit together were reported already */
		k->alloc_broken = err != -ENOENT;
		return;
	}
	/* The block count comes from the disk: bound it by what the runs map. */
	if (k->alloc.data_size > stream_mapped_bytes(k->v, &k->alloc)) {
		report(k->v, P_INDEX, k->w->rec, k->where,
		       "$INDEX_ALLOCATION data size %llu beyond the %llu bytes its runs map",
		       (unsigned long long)k->alloc.data_size,
		       (unsigned long long)stream_mapped_bytes(k->v, &k->alloc));
		stream_free(&k->alloc);
		k->alloc_broken = true;
		k->errors++;
		return;
	}
	k->have_alloc = true;
	k->nblocks = k->alloc.data_size / k->block_size;
	k->visited = xcalloc(k->nblocks ? k->nblocks : 1, 1);
}

/*
 * Blocks in use against $BITMAP: bit i is block i.  Bits past the last
 * block must be clear too.  Only compared when every node was valid:
 * a broken node hides the blocks below it.
 */
static void bitmap_check(struct walker *k)
{
	struct stream bm;
	u64 bytes, i, bad = 0, first = 0;
	u8 *bits;
	int err = stream_open(k->v, k->w->rec, NTFS_AT_BITMAP, k->w->name, &bm);

	if (err) {
		if (k->have_alloc && err == -ENOENT)
			report(k->v, P_INDEX, k->w->rec, k->where,
			       "no $BITMAP %s beside it", k->w->name);
		return;
	}
	bytes = bm.resident ? bm.value_len : bm.data_size;
	if (bytes > (k->nblocks + 7) / 8 + 4096)
		bytes = (k->nblocks + 7) / 8 + 4096;	/* bound the read */
	bits = xcalloc(bytes ? bytes : 1, 1);
	if (stream_read(k->v, &bm, 0, bits, bytes)) {
		free(bits);
		stream_free(&bm);
		return;
	}
	for (i = 0; i < bytes * 8; i++) {
		bool set = bits[i / 8] >> (i % 8) & 1;
		bool used = i < k->nblocks && k->visited[i];

		if (set != used && !bad++)
			first = i;
	}
	if (bad)
		report(k->v, P_INDEX, k->w->rec, k->bitmap_where,
		       "$BITMAP disagrees with the blocks in use for %llu blocks, first block %llu (bit %s, block %s)",
		       (unsigned long long)bad, (unsigned long long)first,
		       bits[first / 8] >> (first % 8) & 1 ? "set" : "clear",
		       first < k->nblocks && k->visited[first] ? "in use" : "unused");
	k->errors += !!bad;
	free(bits);
	stream_free(&bm);
}

/*
 * Walk the index w->name of record w->rec: check the root, every block
 * reached, the order of the keys and the $BITMAP, and call w->entry for
 * every keyed entry in index order (a nonzero return stops the walk).
 * Returns 0 when the index is sound, 1 after reporting problems, and
 * -ENOENT (without a report) when the record has no such $INDEX_ROOT.
 */
int index_walk(struct vol *v, struct index_walk *w)
{
	struct walker k = { .v = v, .w = w };
	const struct ntfs_index_root *ir;
	const struct ntfs_attr *a;
	u64 holder;
	u32 len;

	w->entries = 0;
	snprintf(k.where, sizeof(k.where), "$INDEX_ALLOCATION %s", w->name);
	snprintf(k.root_where, sizeof(k.root_where), "$INDEX_ROOT %s", w->name);
	snprintf(k.bitmap_where, sizeof(k.bitmap_where), "$BITMAP %s", w->name);
	a = find_root(v, w->rec, w->name, &holder);
	if (!a)
		return -ENOENT;
	ir = root_check(&k, a, &len);
	if (!ir)
		return 1;
	w->block_size = k.block_size;
	alloc_open(&k);
	if (node_validate(&k, (const u8 *)ir, len, ROOT_HDR_OFF, ROOT_NODE) > 0)
		walk_entries(&k, (const u8 *)ir, ROOT_HDR_OFF, ROOT_NODE, 0);
	if (!k.errors && !k.stop)
		bitmap_check(&k);
	w->blocks = 0;
	for (u64 i = 0; i < k.nblocks; i++)
		w->blocks += k.visited[i];
	if (k.have_alloc)
		stream_free(&k.alloc);
	free(k.visited);
	free(k.prev_key);
	return k.errors ? 1 : 0;
}

/* ---- directories ---- */

/* What check_directories() knows across all directories. */
struct dirs {
	u32	*first;		/* per base record: its first slot in found[] */
	u32	*count;		/* per base record: $FILE_NAME attributes */
	u8	*partial;	/* per base record: an extension is unusable */
	u8	*found;		/* per name slot: seen in the parent's $I30 */
	u8	*walk;		/* per record: WALK_* */
};

enum { WALK_NONE, WALK_CLEAN, WALK_BROKEN };

/* Iterates the $FILE_NAME attributes of a base record and its extensions. */
struct name_iter {
	u64			base;
	u64			r;
	struct ntfs_attr	*a;
	u64			hops;
	bool			partial;	/* met an unusable extension */
};

static void name_iter_start(struct name_iter *it, u64 base)
{
	memset(it, 0, sizeof(*it));
	it->base = base;
	it->r = base;
}

/*
 * The next $FILE_NAME attribute: returns it, with *fn NULL when its value
 * cannot hold its name (records.c reports that); NULL at the end.
 */
static struct ntfs_attr *name_next(struct vol *v, struct name_iter *it,
				   const struct ntfs_file_name **fn)
{
	for (;;) {
		if (!rec_ok(v, it->r)) {
			it->partial = true;
			return NULL;
		}
		while ((it->a = attr_next(v, it->r, it->a))) {
			const struct ntfs_file_name *f;
			u32 len;

			if (le32(it->a->type) != NTFS_AT_FILE_NAME)
				continue;
			f = it->a->non_resident ? NULL : attr_value(it->a, &len);
			if (f && (len < FN_HDR || FN_HDR + 2u * f->name_length > len))
				f = NULL;
			*fn = f;
			return it->a;
		}
		it->r = it->r == it->base ? v->recs[it->base].ext_first :
					    v->recs[it->r].ext_next;
		if (!it->r || ++it->hops > v->nrec)
			return NULL;
	}
}

static bool same_name(const struct ntfs_file_name *a,
		      const struct ntfs_file_name *b)
{
	return a->parent == b->parent && a->name_space == b->name_space &&
	       a->name_length == b->name_length &&
	       !memcmp(fn_name(a), fn_name(b), 2u * a->name_length);
}

/* First pass: number every record's names so found[] has a slot each. */
static void dirs_count_names(struct vol *v, struct dirs *d)
{
	u64 r, total = 0;

	for (r = 0; r < v->nrec; r++) {
		struct name_iter it;
		const struct ntfs_file_name *fn;

		if (!rec_ok(v, r) || v->recs[r].base_ref)
			continue;
		name_iter_start(&it, r);
		d->first[r] = total;
		while (name_next(v, &it, &fn))
			d->count[r]++;
		d->partial[r] = it.partial;
		total += d->count[r];
		if (total > UINT32_MAX / 2)
			fatal("too many file names");
	}
	d->found = xcalloc(total ? total : 1, 1);
}

static void fn_text(const struct ntfs_file_name *fn, char *out, size_t len)
{
	out[0] = '"';
	name_utf8(fn_name(fn), fn->name_length, out + 1, len - 2);
	strcat(out, "\"");
}

/*
 * The index entry's copy of $FILE_NAME data.  Times and sizes are only
 * brought up to date when a name changes, and seen on every clean image
 * to lag behind the record (ntfs-3g and Windows alike); so are most file
 * attribute bits (the root's "." keeps an old archive bit).  What always
 * agrees: the directory and view-index bits, documented as copies of the
 * record header's flags, and the reparse-point bit with whether the file
 * has a $REPARSE_POINT (the bit in $STANDARD_INFORMATION is meta.c's).
 */
static void check_dup_info(struct vol *v, struct index_walk *w, u64 t,
			   const struct ntfs_file_name *key, const char *name)
{
	u32 fa = le32(key->attributes);
	const struct rec *rc = &v->recs[t];
	bool dir = rc->flags & NTFS_RECORD_IS_DIR;
	bool view = rc->flags & NTFS_RECORD_IS_VIEW;
	bool rp = rc->reparse;

	if (!!(fa & FILE_ATTRIBUTE_DUP_DIRECTORY) != dir ||
	    !!(fa & FILE_ATTRIBUTE_DUP_VIEW_INDEX) != view ||
	    !!(fa & FILE_ATTRIBUTE_REPARSE_POINT) != rp)
		report(v, P_DUPINFO, w->rec, "$I30",
		       "entry %s: file attributes %#x, but record %llu: directory %s, view index %s, reparse point %s",
		       name, fa, (unsigned long long)t, dir ? "yes" : "no",
		       view ? "yes" : "no", rp ? "yes" : "no");
}

/* Mark the $FILE_NAME of record t that this entry stands for. */
static bool entry_match(struct vol *v, struct dirs *d, u64 t,
			const struct ntfs_file_name *key)
{
	struct name_iter it;
	const struct ntfs_file_name *fn;
	u32 i = 0;

	name_iter_start(&it, t);
	while (name_next(v, &it, &fn)) {
		if (fn && same_name(fn, key)) {
			if (!d->found[d->first[t] + i]) {
				d->found[d->first[t] + i] = 1;
				if (v->recs[t].names_indexed < UINT16_MAX)
					v->recs[t].names_indexed++;
			}
			return true;
		}
		i++;
	}
	return false;
}

/* One $I30 entry against the record it names. */
static int dir_entry(struct vol *v, struct index_walk *w,
		     const struct ntfs_index_entry *e, const u8 *key,
		     u16 key_len)
{
	struct dirs *d = w->ctx;
	const struct ntfs_file_name *fn = (const void *)key;
	u64 ref = le64(e->ref), t = NTFS_REF_RECORD(ref);
	u64 self = w->rec | (u64)v->recs[w->rec].seq << 48;
	const char *where = "$I30";
	char name[300];

	fn_text(fn, name, sizeof(name));
	if (le64(fn->parent) != self) {
		report(v, P_INDEXENTRY, w->rec, where,
		       "entry %s names parent %llu (sequence %u), not this directory (sequence %u)",
		       name, (unsigned long long)NTFS_REF_RECORD(le64(fn->parent)),
		       NTFS_REF_SEQ(le64(fn->parent)), v->recs[w->rec].seq);
		return 0;
	}
	if (t >= v->nrec || v->recs[t].state == REC_FREE) {
		report(v, P_INDEXENTRY, w->rec, where,
		       "entry %s points to record %llu which is not in use",
		       name, (unsigned long long)t);
		return 0;
	}
	if (v->recs[t].state != REC_USED || d->partial[t])
		return 0;	/* reported by the record checks */
	if (v->recs[t].base_ref) {
		report(v, P_INDEXENTRY, w->rec, where,
		       "entry %s points to record %llu, an extension record",
		       name, (unsigned long long)t);
		return 0;
	}
	if (NTFS_REF_SEQ(ref) != v->recs[t].seq)
		report(v, P_INDEXENTRY, w->rec, where,
		       "entry %s points to record %llu with sequence %u, record has %u",
		       name, (unsigned long long)t, NTFS_REF_SEQ(ref),
		       v->recs[t].seq);
	if (!entry_match(v, d, t, fn)) {
		report(v, P_INDEXENTRY, w->rec, where,
		       "entry %s: record %llu has no such $FILE_NAME (namespace %u) in this directory",
		       name, (unsigned long long)t, fn->name_space);
		return 0;
	}
	check_dup_info(v, w, t, fn, name);
	return 0;
}

/* Walk the $I30 of directory r. */
static void check_dir_index(struct vol *v, struct dirs *d, u64 r)
{
	struct index_walk w = {
		.rec = r, .name = "$I30", .entry = dir_entry, .ctx = d,
	};
	int ret = index_walk(v, &w);

	/* A directory without its root is records.c's [attribute] report. */
	if (ret == -ENOENT) {
		d->walk[r] = WALK_BROKEN;
		return;
	}
	d->walk[r] = ret ? WALK_BROKEN : WALK_CLEAN;
	checked(v, "$I30 of record %llu: %llu entries, %llu blocks",
		(unsigned long long)r, (unsigned long long)w.entries,
		(unsigned long long)w.blocks);
}

/*
 * Why name fn of record r was not found in its parent's index, if not a
 * consequence of something reported already.
 */
static void check_orphan(struct vol *v, struct dirs *d, u64 r,
			 const struct ntfs_file_name *fn)
{
	u64 pref = le64(fn->parent), p = NTFS_REF_RECORD(pref);
	char name[300];

	if (p < v->nrec && (v->recs[p].state == REC_BAD ||
			    d->walk[p] == WALK_BROKEN))
		return;
	fn_text(fn, name, sizeof(name));
	if (!rec_ok(v, p) || v->recs[p].base_ref ||
	    !(v->recs[p].flags & NTFS_RECORD_IS_DIR))
		report(v, P_ORPHAN, r, "$FILE_NAME",
		       "name %s: parent record %llu is not a directory in use",
		       name, (unsigned long long)p);
	else if (NTFS_REF_SEQ(pref) != v->recs[p].seq)
		report(v, P_ORPHAN, r, "$FILE_NAME",
		       "name %s: parent record %llu has sequence %u, the name says %u",
		       name, (unsigned long long)p, v->recs[p].seq,
		       NTFS_REF_SEQ(pref));
	else
		report(v, P_ORPHAN, r, "$FILE_NAME",
		       "name %s not in the index of its parent record %llu",
		       name, (unsigned long long)p);
}

/*
 * A DOS-namespace name must be a valid 8.3 name: 1-8 characters, then
 * optionally a dot and 1-3 more, none lowercase (it must equal its
 * upcased self), no control character, space or character DOS forbids.
 */
static bool dos_name_valid(const struct vol *v, const struct ntfs_file_name *fn)
{
	unsigned int i, base = 0, ext = 0, dots = 0;

	for (i = 0; i < fn->name_length; i++) {
		u16 c = unit_at(fn_name(fn), i);

		if (c == '.') {
			dots++;
			continue;
		}
		if (c <= ' ' || (c < 0x80 && strchr("\"*+,/:;<=>?[\\]|", c)) ||
		    upcase_unit(v, c) != c)
			return false;
		if (dots)
			ext++;
		else
			base++;
	}
	return base >= 1 && base <= 8 && dots <= 1 && (!dots || ext >= 1) &&
	       ext <= 3;
}

/*
 * Win32/DOS pairs: under each parent, a Win32-only name comes with exactly
 * one DOS-only name and the other way round.  names[] is the record's
 * $FILE_NAMEs; each parent is reported once, at its first such name.
 */
static void check_dos_pairs(struct vol *v, u64 r,
			    const struct ntfs_file_name **names, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++) {
		u32 win = 0, dos = 0;
		bool first = true;
		char name[300];

		if (names[i]->name_space != NTFS_NS_WIN32 &&
		    names[i]->name_space != NTFS_NS_DOS)
			continue;
		if (names[i]->name_space == NTFS_NS_DOS &&
		    !dos_name_valid(v, names[i])) {
			fn_text(names[i], name, sizeof(name));
			report(v, P_DOSNAME, r, "$FILE_NAME",
			       "DOS name %s is not a valid 8.3 name", name);
		}
		for (j = 0; j < n; j++) {
			if (names[j]->parent != names[i]->parent)
				continue;
			if (names[j]->name_space == NTFS_NS_WIN32)
				win++;
			else if (names[j]->name_space == NTFS_NS_DOS)
				dos++;
			else
				continue;
			if (j < i)
				first = false;
		}
		if (first && (win != 1 || dos != 1)) {
			fn_text(names[i], name, sizeof(name));
			report(v, P_DOSNAME, r, "$FILE_NAME",
			       "name %s: %u Win32-only and %u DOS-only names under parent %llu, want one of each",
			       name, win, dos, (unsigned long long)
			       NTFS_REF_RECORD(le64(names[i]->parent)));
		}
	}
}

/*
 * After every directory: each name of each record found in its parent's
 * index, the link count, the Win32/DOS pairs.
 *
 * Link count: every $FILE_NAME attribute counts, a DOS-only name as well
 * as its Win32 partner (seen on the mkntfs/ntfs-3g images: a file with a
 * Win32 and a DOS name has link count 2, and the single Win32+DOS name of
 * the metafiles counts 1; the Windows-made forensics image agrees).
 */
static void check_names(struct vol *v, struct dirs *d)
{
	const struct ntfs_file_name **names = NULL;
	u32 cap = 0;
	u64 r;

	for (r = 0; r < v->nrec; r++) {
		struct name_iter it;
		const struct ntfs_file_name *fn;
		u32 i = 0, n = 0;

		if (!rec_ok(v, r) || v->recs[r].base_ref || d->partial[r])
			continue;
		if (v->recs[r].links != d->count[r])
			report(v, P_LINKCOUNT, r, "link count",
			       "header link count %u, record has %u names",
			       v->recs[r].links, d->count[r]);
		name_iter_start(&it, r);
		while (name_next(v, &it, &fn)) {
			if (fn && !d->found[d->first[r] + i])
				check_orphan(v, d, r, fn);
			i++;
			if (!fn)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				names = xrealloc(names, cap, sizeof(*names));
			}
			names[n++] = fn;
		}
		check_dos_pairs(v, r, names, n);
	}
	free(names);
}

/* Every directory's $I30, then every record's names against them. */
void check_directories(struct vol *v)
{
	struct dirs d = { 0 };
	u64 r;

	d.first = xcalloc(v->nrec ? v->nrec : 1, sizeof(*d.first));
	d.count = xcalloc(v->nrec ? v->nrec : 1, sizeof(*d.count));
	d.partial = xcalloc(v->nrec ? v->nrec : 1, 1);
	d.walk = xcalloc(v->nrec ? v->nrec : 1, 1);
	for (r = 0; r < v->nrec; r++)
		v->recs[r].names_indexed = 0;
	dirs_count_names(v, &d);
	for (r = 0; r < v->nrec; r++)
		if (rec_ok(v, r) && !v->recs[r].base_ref &&
		    (v->recs[r].flags & NTFS_RECORD_IS_DIR))
			check_dir_index(v, &d, r);
	check_names(v, &d);
	free(d.first);
	free(d.count);
	free(d.partial);
	free(d.found);
	free(d.walk);
}
