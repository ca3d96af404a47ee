// SPDX-License-Identifier: GPL-2.0
/*
 * Indexes: B+trees whose root is in $INDEX_ROOT and whose other nodes are the
 * index blocks of $INDEX_ALLOCATION.  Today the $I30 index of directories
 * ($FILE_NAME keys in name.c's collation): fixed-up blocks shared through a
 * small per-volume cache, lookup (with a hint for names asked for in index
 * order), and an in-order cursor.
 */

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/overflow.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/unaligned.h>
#include <linux/xarray.h>

#include "idxnode.h"
#include "ntfs3.h"

/*
 * An index block read and fixed up.  Lookups walk the same few blocks of a
 * directory over and over (the upper levels on every lookup, a leaf for
 * the run of names that ls -l or find stats right after readdir returned
 * them), so fixed-up blocks are shared through a small per-volume cache
 * instead of being copied and checked again for every lookup.  A cached
 * block is what the page cache holds.  A change of the index walks these
 * blocks and changes a block it holds in place, lent to its transaction
 * (ntfs_itree_own()): readers of the directory are kept out by its
 * i_rwsem until the commit, which leaves the block as it wrote it, and a
 * block whose change is not written leaves the cache
 * (ntfs_iblock_given_back()).  Blocks it changes through copies of its
 * own are dropped from the cache (ntfs_itree_cache_update()), and the
 * next reader reads them again.
 */
struct ntfs_iblock {
	refcount_t ref;
	u64 record;			/* the directory's MFT record */
	u16 seq;			/* and its sequence number */
	u32 size;			/* bytes in @data: part of the key */
	u64 vcn;
	bool checked;			/* passed ntfs_itree_block()'s checks */
	bool lent;			/* to a transaction (its dir's i_rwsem) */
	u8 data[];			/* @size bytes: the block */
};

static void ntfs_iblock_put(struct ntfs_iblock *blk)
{
	if (blk && refcount_dec_and_test(&blk->ref))
		kfree(blk);
}

/**
 * ntfs_iblock_cache_drop() - Release every cached index block of a volume
 * @sbi:	the volume, being unmounted
 */
void ntfs_iblock_cache_drop(struct ntfs_sb *sbi)
{
	unsigned int i;

	for (i = 0; i < NTFS_IBLOCK_CACHE; i++) {
		ntfs_iblock_put(sbi->iblock_cache[i]);
		sbi->iblock_cache[i] = NULL;
	}
}

static struct ntfs_iblock **ntfs_iblock_slot(struct ntfs_sb *sbi, u64 record, u64 vcn)
{
	return &sbi->iblock_cache[hash_64(record * 31 + vcn, NTFS_IBLOCK_CACHE_BITS)];
}

/*
 * The cached block @vcn of @ni, with a reference, or NULL.  The block size
 * is part of the key: a directory read again after its record changed on
 * the device (same number and sequence) may have another block size, and
 * a small cached block must never be parsed as a large one.
 */
static struct ntfs_iblock *ntfs_iblock_cached(struct ntfs_sb *sbi, struct ntfs_inode *ni, u64 vcn)
{
	struct ntfs_iblock *blk;

	spin_lock(&sbi->iblock_lock);
	blk = *ntfs_iblock_slot(sbi, ni->record, vcn);
	if (blk && blk->record == ni->record && blk->seq == ni->seq && blk->vcn == vcn &&
	    blk->size == ni->index_block_size)
		refcount_inc(&blk->ref);
	else
		blk = NULL;
	spin_unlock(&sbi->iblock_lock);
	return blk;
}

/* Take @blk (whose reference the caller keeps) out of its slot, if there. */
static void ntfs_iblock_unslot(struct ntfs_sb *sbi, struct ntfs_iblock *blk)
{
	struct ntfs_iblock **slot, *old = NULL;

	spin_lock(&sbi->iblock_lock);
	slot = ntfs_iblock_slot(sbi, blk->record, blk->vcn);
	if (*slot == blk) {
		old = blk;
		*slot = NULL;
	}
	spin_unlock(&sbi->iblock_lock);
	ntfs_iblock_put(old);
}

/* Put @blk (whose reference the caller keeps) into its slot. */
static void ntfs_iblock_insert(struct ntfs_sb *sbi, struct ntfs_iblock *blk)
{
	struct ntfs_iblock **slot, *old;

	refcount_inc(&blk->ref);
	spin_lock(&sbi->iblock_lock);
	slot = ntfs_iblock_slot(sbi, blk->record, blk->vcn);
	old = *slot;
	*slot = blk;
	spin_unlock(&sbi->iblock_lock);
	ntfs_iblock_put(old);
}

/*
 * Byte offset of index block @vcn in the index allocation: VCNs count
 * clusters, or 512-byte units when blocks are smaller than a cluster.
 * Return 0 with *@pos set, or -EIO when the block is not inside @ni's
 * index allocation (the shift is checked: @vcn comes from the disk).
 */
static int ntfs_iblock_pos(struct ntfs_sb *sbi, struct ntfs_inode *ni, u64 vcn, u64 *pos)
{
	u32 bs = ni->index_block_size;
	u8 shift = bs >= sbi->cluster_size ? sbi->cluster_bits : 9;

	if (check_shl_overflow(vcn, shift, pos) || *pos > ni->stream.data_size ||
	    ni->stream.data_size - *pos < bs)
		return -EIO;
	return 0;
}

/* Report which rule a directory's index breaks; returns -EIO. */
static int ntfs_index_bad(struct ntfs_inode *ni, const char *rule)
{
	return ntfs_err_ratelimited(ni->vfs_inode.i_sb, ni->record, "$I30 index: %s", rule);
}

/* Read and fix up block @vcn of @ni's index: the block, with a reference, or an ERR_PTR(). */
static struct ntfs_iblock *ntfs_iblock_read(struct ntfs_sb *sbi, struct ntfs_inode *ni, u64 vcn)
{
	u32 bs = ni->index_block_size;
	struct ntfs_index_block *ib;
	struct ntfs_iblock *blk;
	u64 pos;
	int err;

	if (ntfs_iblock_pos(sbi, ni, vcn, &pos))
		return ERR_PTR(ntfs_index_bad(ni, "child VCN outside the index allocation"));
	blk = kmalloc(struct_size(blk, data, bs), GFP_NOFS);
	if (!blk)
		return ERR_PTR(-ENOMEM);
	ib = (struct ntfs_index_block *)blk->data;
	err = ntfs_read_stream(&ni->vfs_inode, pos, blk->data, bs);
	if (!err && ntfs_fixup(blk->data, bs, NTFS_MAGIC_INDX))
		err = ntfs_index_bad(ni, "block without INDX magic, or update sequence broken");
	if (!err && le64_to_cpu(ib->vcn) != vcn)
		err = ntfs_index_bad(ni, "block's own VCN is not the VCN it is read at");
	if (err) {
		kfree(blk);
		return ERR_PTR(err == -ENOMEM ? err : -EIO);
	}
	refcount_set(&blk->ref, 1);
	blk->record = ni->record;
	blk->seq = ni->seq;
	blk->size = bs;
	blk->vcn = vcn;
	blk->checked = false;
	blk->lent = false;
	ntfs_iblock_insert(sbi, blk);
	return blk;
}

static int ntfs_node_root(struct ntfs_inode *ni, struct ntfs_node *node)
{
	const struct ntfs_index_root *ir = ni->index_root;

	node->blk = NULL;
	node->hdr = &ir->hdr;
	node->size = ni->index_root_size - offsetof(struct ntfs_index_root, hdr);
	return 0;
}

/* Point @node at the header of its block @node->blk. */
static void ntfs_node_set_block(struct ntfs_inode *ni, struct ntfs_node *node)
{
	node->hdr = &((struct ntfs_index_block *)node->blk->data)->hdr;
	node->size = ni->index_block_size - offsetof(struct ntfs_index_block, hdr);
}

static int ntfs_node_read(struct ntfs_inode *ni, u64 vcn, struct ntfs_node *node)
{
	struct ntfs_sb *sbi = NTFS_SB(ni->vfs_inode.i_sb);
	struct ntfs_iblock *blk;

	if (!ni->stream.alloc_size)
		return ntfs_index_bad(ni, "an entry has a child, but there is no index allocation");
	blk = ntfs_iblock_cached(sbi, ni, vcn);
	if (!blk)
		blk = ntfs_iblock_read(sbi, ni, vcn);
	if (IS_ERR(blk))
		return PTR_ERR(blk);
	node->blk = blk;
	ntfs_node_set_block(ni, node);
	return 0;
}

static void ntfs_node_put(struct ntfs_node *node)
{
	ntfs_iblock_put(node->blk);
	node->blk = NULL;
}

/*
 * The entry at byte @ofs of a node (from its header), checked: its length,
 * its key ($FILE_NAME with the name inside the key) and its child VCN.
 * Returns NULL when it is out of bounds.
 */
static const struct ntfs_index_entry *ntfs_node_entry(const struct ntfs_node *node, u32 ofs)
{
	const struct ntfs_index_header *h = node->hdr;
	u32 used = le32_to_cpu(h->index_length);
	const struct ntfs_index_entry *e;
	u32 len, klen, flags;

	if (used > node->size || ofs < le32_to_cpu(h->entries_offset) || ofs % 8 ||
	    ofs + sizeof(*e) > used)
		return NULL;
	e = (const void *)h + ofs;
	len = le16_to_cpu(e->length);
	klen = le16_to_cpu(e->key_length);
	flags = le16_to_cpu(e->flags);
	if (len < sizeof(*e) || len % 8 || len > used - ofs)
		return NULL;
	if (flags & NTFS_IE_HAS_CHILD && len < sizeof(*e) + 8)
		return NULL;
	if (flags & NTFS_IE_LAST)
		return e;
	if (klen < sizeof(struct ntfs_file_name) ||
	    sizeof(*e) + klen > len - (flags & NTFS_IE_HAS_CHILD ? 8 : 0))
		return NULL;
	if (sizeof(struct ntfs_file_name) +
	    2 * ((const struct ntfs_file_name *)(e + 1))->name_length > klen)
		return NULL;
	return e;
}

static u64 ntfs_entry_child(const struct ntfs_index_entry *e)
{
	return le64_to_cpu(*(const __le64 *)((const u8 *)e + le16_to_cpu(e->length) - 8));
}

/* ---- lookup ------------------------------------------------------------- */

/* A name being looked up, upcased once. */
struct ntfs_key {
	const __le16 *name;
	u32 len;
	bool nocase;
	u16 up[NTFS_MAX_NAME];
};

/* Order of @key against the (checked, non-end) entry @e. */
static int ntfs_key_cmp(const struct ntfs_sb *sbi, const struct ntfs_key *key,
			const struct ntfs_index_entry *e)
{
	return ntfs_name_cmp(sbi, key->name, key->up, key->len, ntfs_entry_name(e)->name,
			     ntfs_entry_name(e)->name_length, key->nocase);
}

/* ntfs_node_find() in a node with too many entries: one comparison each. */
static const struct ntfs_index_entry *ntfs_node_scan(const struct ntfs_sb *sbi,
						     const struct ntfs_node *node,
						     const struct ntfs_key *key, u32 *ofs, int *cmp)
{
	const struct ntfs_index_entry *e;

	*ofs = le32_to_cpu(node->hdr->entries_offset);
	*cmp = 1;
	for (;;) {
		e = ntfs_node_entry(node, *ofs);
		if (!e || le16_to_cpu(e->flags) & NTFS_IE_LAST)
			return e;
		*cmp = ntfs_key_cmp(sbi, key, e);
		if (*cmp <= 0)
			return e;
		*ofs += le16_to_cpu(e->length);
	}
}

/* Entries of a node that ntfs_node_find() searches by halves. */
#define NTFS_NODE_BSEARCH_MAX	128

/*
 * Search @node for @key: the first entry not below it (or the end marker)
 * at *@ofs; *@cmp is 0 when it is @key's entry.  Every entry is checked
 * on the way to the end marker and its offset kept (a node of more than
 * NTFS_NODE_BSEARCH_MAX entries is scanned instead); the offsets are then
 * searched by halves.  Returns the entry or NULL when the node is damaged.
 */
static const struct ntfs_index_entry *ntfs_node_find(const struct ntfs_sb *sbi,
						     const struct ntfs_node *node,
						     const struct ntfs_key *key, u32 *ofs, int *cmp)
{
	bool checked = node->blk && READ_ONCE(node->blk->checked);
	u16 at[NTFS_NODE_BSEARCH_MAX];
	const struct ntfs_index_entry *e;
	u32 n = 0, lo = 0, hi, mid, o;
	int c;

	*cmp = 1;
	for (o = le32_to_cpu(node->hdr->entries_offset);; o += le16_to_cpu(e->length)) {
		/* A block a change checked whole needs no check per entry. */
		e = checked ? (const void *)node->hdr + o : ntfs_node_entry(node, o);
		if (!e)
			return NULL;
		if (le16_to_cpu(e->flags) & NTFS_IE_LAST)
			break;
		if (n == NTFS_NODE_BSEARCH_MAX || o > U16_MAX)
			return ntfs_node_scan(sbi, node, key, ofs, cmp);
		at[n++] = o;
	}
	hi = n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = ntfs_key_cmp(sbi, key, (const void *)node->hdr + at[mid]);
		if (c > 0) {
			lo = mid + 1;
		} else {
			hi = mid;
			*cmp = c;
		}
	}
	if (lo == n) {
		*cmp = 1;
		*ofs = o;
		return e;
	}
	*ofs = at[lo];
	return (const void *)node->hdr + at[lo];
}

/*
 * The lookup hint: where the entry after the last name found in this
 * directory is ((node VCN + 1) << 16 | offset, node VCN + 1 = 0 for the
 * root; 0: none).  ls -l and find stat names in readdir order, so the
 * next lookup is usually for exactly that entry and costs one comparison
 * instead of a walk from the root.
 */
#define NTFS_HINT_ROOT	U64_MAX

static void ntfs_hint_set(struct ntfs_inode *ni, u64 vcn, u32 ofs)
{
	atomic64_set(&ni->lookup_hint, ((vcn + 1) << 16) | ofs);
}

/* Try the hinted entry (only from a cached block: a hint never reads). */
static int ntfs_lookup_hinted(struct ntfs_sb *sbi, struct ntfs_inode *ni,
			      const struct ntfs_key *key, u64 *ref)
{
	u64 hint = atomic64_read(&ni->lookup_hint), vcn = (hint >> 16) - 1;
	u32 ofs = hint & 0xffff;
	const struct ntfs_index_entry *e;
	struct ntfs_node node;
	int err = -ENOENT;

	if (!hint)
		return -ENOENT;
	if (vcn == NTFS_HINT_ROOT) {
		ntfs_node_root(ni, &node);
	} else {
		node.blk = ntfs_iblock_cached(sbi, ni, vcn);
		if (!node.blk)
			return -ENOENT;
		ntfs_node_set_block(ni, &node);
	}
	e = ntfs_node_entry(&node, ofs);
	if (e && !(le16_to_cpu(e->flags) & NTFS_IE_LAST) && !ntfs_key_cmp(sbi, key, e)) {
		*ref = le64_to_cpu(e->ref);
		ntfs_hint_set(ni, vcn, ofs + le16_to_cpu(e->length));
		err = 0;
	}
	ntfs_node_put(&node);
	return err;
}

/* Walk the tree from the root. */
static int ntfs_lookup_walk(struct ntfs_sb *sbi, struct ntfs_inode *ni,
			    const struct ntfs_key *key, u64 *ref)
{
	u64 vcn = NTFS_HINT_ROOT;
	unsigned int depth = 0;
	struct ntfs_node node;
	int err = ntfs_node_root(ni, &node);

	while (!err) {
		const struct ntfs_index_entry *e;
		u32 ofs;
		int cmp;

		e = ntfs_node_find(sbi, &node, key, &ofs, &cmp);
		if (!e) {
			err = ntfs_index_bad(ni, "entry out of bounds of its node");
			break;
		}
		if (cmp == 0 && !(le16_to_cpu(e->flags) & NTFS_IE_LAST)) {
			*ref = le64_to_cpu(e->ref);
			ntfs_hint_set(ni, vcn, ofs + le16_to_cpu(e->length));
			break;
		}
		if (!(le16_to_cpu(e->flags) & NTFS_IE_HAS_CHILD)) {
			err = -ENOENT;
			break;
		}
		if (++depth > NTFS_MAX_INDEX_DEPTH) {
			err = ntfs_index_bad(ni, "deeper than 32 levels");
			break;
		}
		vcn = ntfs_entry_child(e);
		ntfs_node_put(&node);
		err = ntfs_node_read(ni, vcn, &node);
	}
	ntfs_node_put(&node);
	return err;
}

/**
 * ntfs_dir_lookup() - Find a name in a directory's index
 * @dir:	the directory
 * @name:	UTF-16 name
 * @len:	units in @name
 * @ref:	set to the file reference found
 *
 * The name is looked up exactly first, through the hint and then the tree.
 * Under nocase a name with no exact entry then matches any entry that
 * differs from it in case only, by a walk from the root and never through
 * the hint: the hint may sit on either of two names that differ only in
 * case (POSIX-namespace "case twins"), and a walk reaches the same one of
 * them for every spelling.  So an exact name always finds its own file and
 * every other spelling finds one twin, the same one each time.
 *
 * Return: 0, -ENOENT, -EIO for a damaged index, -ENOMEM.
 */
int ntfs_dir_lookup(struct inode *dir, const __le16 *name, u32 len, u64 *ref)
{
	struct ntfs_sb *sbi = NTFS_SB(dir->i_sb);
	struct ntfs_inode *ni = NTFS_I(dir);
	struct ntfs_key *key;
	int err;
	u32 i;

	if (len > NTFS_MAX_NAME)
		return -ENOENT;
	key = kmalloc(sizeof(*key), GFP_NOFS);
	if (!key)
		return -ENOMEM;
	key->name = name;
	key->len = len;
	key->nocase = false;
	for (i = 0; i < len; i++)
		key->up[i] = ntfs_upcase(sbi, le16_to_cpu(name[i]));
	err = ntfs_lookup_hinted(sbi, ni, key, ref);
	if (err)
		err = ntfs_lookup_walk(sbi, ni, key, ref);
	if (err == -ENOENT && sbi->opt.nocase) {
		key->nocase = true;
		err = ntfs_lookup_walk(sbi, ni, key, ref);
	}
	kfree(key);
	return err;
}

/* ---- in-order cursor ---------------------------------------------------- */

/**
 * ntfs_index_cursor_init() - Make a zeroed cursor ready for its first walk
 * @c:		the cursor
 */
void ntfs_index_cursor_init(struct ntfs_index_cursor *c)
{
	c->depth = -1;
	xa_init(&c->visited);
}

/**
 * ntfs_index_cursor_reset() - Release a cursor's nodes: the next walk starts over
 * @c:		the cursor
 */
void ntfs_index_cursor_reset(struct ntfs_index_cursor *c)
{
	while (c->depth >= 0)
		ntfs_node_put(&c->lvl[c->depth--].node);
	c->depth = -1;
	c->done = false;
	xa_destroy(&c->visited);
}

/* Note that the walk enters block @vcn: -EIO when it did before. */
static int ntfs_cursor_visit(struct ntfs_index_cursor *c, u64 vcn)
{
	int err;

	if (vcn > ULONG_MAX)
		return -EIO;
	err = xa_insert(&c->visited, vcn, xa_mk_value(0), GFP_NOFS);
	return err == -EBUSY ? -EIO : err;
}

/* Enter the child block @vcn of the cursor's current entry. */
static int ntfs_cursor_descend(struct ntfs_inode *ni, struct ntfs_index_cursor *c, u64 vcn)
{
	int err;

	if (c->depth == NTFS_MAX_INDEX_DEPTH)
		return ntfs_index_bad(ni, "deeper than 32 levels");
	err = ntfs_walk_step();
	if (err)
		return err;
	err = ntfs_cursor_visit(c, vcn);
	if (err == -EIO)
		return ntfs_index_bad(ni,
				      "a block is the child of two entries (shared or looping child pointers)");
	if (err)
		return err;
	err = ntfs_node_read(ni, vcn, &c->lvl[c->depth + 1].node);
	if (err && err != -EIO)
		xa_erase(&c->visited, vcn);	/* to be tried again */
	return err;
}

/**
 * ntfs_index_cursor_next() - Advance a cursor to the next entry in key order
 * @ni:		the directory whose index the cursor walks
 * @c:		the cursor
 *
 * Return: the entry, NULL at the end, or an ERR_PTR.
 */
const struct ntfs_index_entry *ntfs_index_cursor_next(struct ntfs_inode *ni,
						      struct ntfs_index_cursor *c)
{
	const struct ntfs_index_entry *e;
	int err;

	if (c->done)
		return NULL;
	if (c->depth < 0) {
		c->depth = 0;
		ntfs_node_root(ni, &c->lvl[0].node);
		c->lvl[0].ofs = le32_to_cpu(c->lvl[0].node.hdr->entries_offset);
		c->lvl[0].child_done = false;
	}
	for (;;) {
		typeof(c->lvl[0]) *l = &c->lvl[c->depth];

		e = ntfs_node_entry(&l->node, l->ofs);
		if (!e)
			return ERR_PTR(ntfs_index_bad(ni, "entry out of bounds of its node"));
		if (!l->child_done && le16_to_cpu(e->flags) & NTFS_IE_HAS_CHILD) {
			err = ntfs_cursor_descend(ni, c, ntfs_entry_child(e));
			/*
			 * A damaged subtree is skipped by the next call, so the
			 * rest of the directory stays listable; a kill or ENOMEM
			 * leaves it to be tried again.
			 */
			if (!err || err == -EIO)
				l->child_done = true;
			if (err)
				return ERR_PTR(err);
			c->depth++;
			l = &c->lvl[c->depth];
			l->ofs = le32_to_cpu(l->node.hdr->entries_offset);
			l->child_done = false;
			continue;
		}
		if (!(le16_to_cpu(e->flags) & NTFS_IE_LAST)) {
			/* Emit it; next time continue after it. */
			l->ofs += le16_to_cpu(e->length);
			l->child_done = false;
			return e;
		}
		/* End of this node: back to the parent's entry after the child. */
		ntfs_node_put(&l->node);
		if (c->depth == 0) {
			c->depth = -1;
			c->done = true;
			return NULL;
		}
		c->depth--;
		l = &c->lvl[c->depth];
		e = ntfs_node_entry(&l->node, l->ofs);
		if (!e)
			return ERR_PTR(ntfs_index_bad(ni, "entry out of bounds of its node"));
		if (!(le16_to_cpu(e->flags) & NTFS_IE_LAST)) {
			l->ofs += le16_to_cpu(e->length);
			l->child_done = false;
			return e;
		}
		/* The parent's last entry: its node is finished too. */
		l->child_done = true;
	}
}

/*
 * The first entry of @node above @key (the end entry if none), checked.
 * A node holds at most size / 16 entries: the walk is bounded.
 */
static const struct ntfs_index_entry *ntfs_node_after(const struct ntfs_sb *sbi,
						      const struct ntfs_node *node,
						      const struct ntfs_file_name *key,
						      const u16 *up, u32 *ofs)
{
	const struct ntfs_index_entry *e;

	for (*ofs = le32_to_cpu(node->hdr->entries_offset);; *ofs += le16_to_cpu(e->length)) {
		const struct ntfs_file_name *efn;
		int c;

		e = ntfs_node_entry(node, *ofs);
		if (!e || le16_to_cpu(e->flags) & NTFS_IE_LAST)
			return e;
		efn = ntfs_entry_name(e);
		c = ntfs_name_cmp(sbi, key->name, up, key->name_length, efn->name,
				  efn->name_length, false);
		if (c < 0 || (!c && key->name_space < efn->name_space))
			return e;
	}
}

/**
 * ntfs_index_cursor_seek() - Start a cursor at the first entry after a key
 * @ni:		the directory
 * @c:		the cursor, reset (ntfs_index_cursor_reset())
 * @key:	the $FILE_NAME of the last entry returned (name and namespace)
 *
 * readdir calls this when the index changed since its cursor's walk
 * began: the nodes the cursor held may have split, merged or gone, but
 * the order of the keys is the same, so the walk goes on after the last
 * key it returned, wherever that key lives now.  The cursor is built as
 * the walk would have left it: on each level the first entry above @key,
 * with the descent into that entry's subtree already made.
 *
 * Return: 0, or an errno (the cursor is then to be reset).
 */
int ntfs_index_cursor_seek(struct ntfs_inode *ni, struct ntfs_index_cursor *c,
			   const struct ntfs_file_name *key)
{
	struct ntfs_sb *sbi = NTFS_SB(ni->vfs_inode.i_sb);
	const struct ntfs_index_entry *e;
	u16 *up;
	int err = 0;
	u32 i;

	up = kmalloc_array(NTFS_MAX_NAME, sizeof(*up), GFP_NOFS);
	if (!up)
		return -ENOMEM;
	for (i = 0; i < key->name_length; i++)
		up[i] = ntfs_upcase(sbi, le16_to_cpu(key->name[i]));
	c->depth = 0;
	ntfs_node_root(ni, &c->lvl[0].node);
	for (;;) {
		typeof(c->lvl[0]) *l = &c->lvl[c->depth];

		e = ntfs_node_after(sbi, &l->node, key, up, &l->ofs);
		if (!e) {
			err = ntfs_index_bad(ni, "entry out of bounds of its node");
			break;
		}
		l->child_done = false;
		if (!(le16_to_cpu(e->flags) & NTFS_IE_HAS_CHILD))
			break;
		err = ntfs_cursor_descend(ni, c, ntfs_entry_child(e));
		if (err)
			break;
		l->child_done = true;
		c->depth++;
	}
	kfree(up);
	return err;
}

/* ---- changing the tree -------------------------------------------------- */

/*
 * Insert and delete work on the transaction's copies of the nodes: the
 * root inside the directory's base record (ntfs_trans_record()) and the
 * index blocks (ntfs_trans_iblock()).  A walk from the root records the
 * path; a change that overflows a node splits it and moves its median up
 * the path, one that leaves a node small merges it with a sibling or
 * takes entries from it.  docs/design/ntfs3.md, "Index changes".
 *
 * A change of $I30 walks from the directory's copy of the root
 * (ni->index_root, which every change keeps in step with the record) and
 * reads the base record into the transaction only when it changes the
 * root or the record (ntfs_itree_fetch()): most changes touch one leaf.
 */

static const __le16 ntfs_i30[] = { cpu_to_le16('$'), cpu_to_le16('I'),
				   cpu_to_le16('3'), cpu_to_le16('0') };

#define NTFS_ROOT_VCN		U64_MAX
#define NTFS_ITREE_CHANGED	64
#define NTFS_ITREE_HELD		16

struct ntfs_itree_lvl {
	u64 vcn;			/* NTFS_ROOT_VCN for the root */
	struct ntfs_index_header *h;	/* the node, in the transaction's copy */
	u32 ofs;			/* the entry the path goes through */
};

/* An index being changed: the path of the current walk and scratch space. */
struct ntfs_itree {
	struct ntfs_trans *t;
	struct inode *dir;
	struct ntfs_inode *ni;
	struct ntfs_sb *sbi;
	struct ntfs_record *rec;	/* the directory's base record, or NULL */
	const __le16 *name;		/* the index's name ($I30, ...) */
	u8 name_len;
	ntfs_ix_cmp_t cmp;		/* the index's order */
	bool (*key_ok)(const struct ntfs_index_entry *e);	/* key inside entry */
	const void *key;		/* what the walk looks for */
	void *owned_key;		/* @key, when the tree allocated it */
	u32 min_key;			/* shortest key the index has */
	u8 shift;			/* VCN units: cluster or 512 bytes */
	int depth;			/* deepest level of the path */
	struct ntfs_itree_lvl lvl[NTFS_MAX_INDEX_DEPTH + 1];
	bool lazy;			/* $I30: cached blocks, the root copy */
	unsigned int nr_held;
	struct ntfs_iblock *held[NTFS_ITREE_HELD];	/* cached blocks walked */
	bool changed_all;		/* more than @changed holds */
	u8 *bm_res;			/* a resident $BITMAP's value */
	u64 bm_len;			/* $BITMAP's value bytes */
	struct ntfs_run *bm_runs;	/* a non-resident $BITMAP's clusters */
	unsigned int bm_nr_runs;
	/* Not zeroed by ntfs_itree_start(): */
	unsigned int nr_changed;
	u64 changed[NTFS_ITREE_CHANGED];	/* blocks changed, for the cache */
	u8 *scratch;			/* two blocks: ntfs_itree_scratch() */
	u64 ent[4][NTFS_IE_MAX / 8 + 1];	/* entries in flight */
};

/* Entries in flight: the new or replacing one, two for medians, a raw copy. */
#define IT_ENT(tr, i)	((struct ntfs_index_entry *)(tr)->ent[i])
#define IT_KEY		0
#define IT_RAW		3

static int ntfs_itree_bad(struct ntfs_itree *tr, const char *rule)
{
	return ntfs_index_bad(tr->ni, rule);
}

/* The key of an $I30 entry: its $FILE_NAME, with the name inside the key. */
static bool ntfs_i30_key_ok(const struct ntfs_index_entry *e)
{
	return le16_to_cpu(e->key_length) >=
	       sizeof(struct ntfs_file_name) + 2 * ntfs_entry_name(e)->name_length;
}

/* A $FILE_NAME to find or insert, upcased once. */
struct ntfs_i30_key {
	const struct ntfs_sb *sbi;
	const struct ntfs_file_name *fn;
	u16 up[NTFS_MAX_NAME];
};

/*
 * The order of an $I30 index: the file-name collation (upcased, then
 * exact), then the namespace, so that a Win32 and a POSIX name that are
 * the same units are two keys and an exact duplicate is one.
 */
static int ntfs_i30_cmp(const void *key, const struct ntfs_index_entry *e)
{
	const struct ntfs_i30_key *k = key;
	const struct ntfs_file_name *efn = ntfs_entry_name(e);
	int c = ntfs_name_cmp(k->sbi, k->fn->name, k->up, k->fn->name_length, efn->name,
			      efn->name_length, false);

	if (c)
		return c;
	if (k->fn->name_space != efn->name_space)
		return k->fn->name_space < efn->name_space ? -1 : 1;
	return 0;
}

static void ntfs_i30_key_init(struct ntfs_i30_key *k, const struct ntfs_sb *sbi,
			      const struct ntfs_file_name *fn)
{
	u32 i;

	k->sbi = sbi;
	k->fn = fn;
	for (i = 0; i < fn->name_length; i++)
		k->up[i] = ntfs_upcase(sbi, le16_to_cpu(fn->name[i]));
}

/* Offset of the first entry of an index block of @bs bytes (after its USA). */
static u32 ntfs_iblock_first(u32 bs)
{
	u32 usa_end = sizeof(struct ntfs_index_block) + 2 * (bs / NTFS_USA_STRIDE + 1);

	return ALIGN(usa_end, 8) - offsetof(struct ntfs_index_block, hdr);
}

/* Bytes of entries (end entry included) an index block holds. */
static u32 ntfs_itree_block_cap(const struct ntfs_itree *tr)
{
	u32 bs = tr->ni->index_block_size;

	return bs - offsetof(struct ntfs_index_block, hdr) - ntfs_iblock_first(bs);
}

/*
 * Node @vcn was changed: its block is written at commit (blocks read only
 * for the walk are not) and its cached copy is dropped at the end.
 */
static void ntfs_itree_changed(struct ntfs_itree *tr, u64 vcn)
{
	unsigned int i;

	if (vcn == NTFS_ROOT_VCN)
		return;
	/* A node changed without ntfs_itree_own() first: the change is lost. */
	WARN_ON_ONCE(!ntfs_trans_iblock_dirty(tr->t, tr->dir, vcn));
	for (i = 0; i < tr->nr_changed; i++)
		if (tr->changed[i] == vcn)
			return;
	if (tr->nr_changed < NTFS_ITREE_CHANGED)
		tr->changed[tr->nr_changed++] = vcn;
	else
		tr->changed_all = true;
}

static struct ntfs_attr *ntfs_itree_root_attr(struct ntfs_itree *tr)
{
	return ntfs_rec_find(tr->rec, NTFS_AT_INDEX_ROOT, tr->name, tr->name_len);
}

/* Every key of a checked node is sound as the index's keys go. */
static const char *ntfs_itree_check_keys(const struct ntfs_itree *tr,
					 const struct ntfs_index_header *h)
{
	u32 ofs;

	for (ofs = ntfs_ix_first(h); !ntfs_ie_is_last(ntfs_ix_at(h, ofs));
	     ofs += ntfs_ie_len(ntfs_ix_at(h, ofs)))
		if (!tr->key_ok(ntfs_ix_at(h, ofs)))
			return "a key's own length is longer than its entry's key";
	return NULL;
}

/*
 * Find the root again (every change of the record may move it) and point
 * level 0 at it; with @check, check it as a node first.
 */
static int ntfs_itree_root(struct ntfs_itree *tr, bool check)
{
	struct ntfs_index_root *ir;
	struct ntfs_attr *a;
	const char *why;
	u32 len;

	if (!tr->rec) {
		/* The directory's copy, read only: ntfs_itree_fetch() first. */
		ir = tr->ni->index_root;
		len = tr->ni->index_root_size;
		if (!ir || len < sizeof(*ir))
			return ntfs_itree_bad(tr, "the copy of $INDEX_ROOT:$I30 is short");
		goto found;
	}
	a = ntfs_itree_root_attr(tr);
	if (!a || a->non_resident)
		return ntfs_itree_bad(tr, "no resident $INDEX_ROOT:$I30 in the base record");
	len = le32_to_cpu(a->r.value_length);
	ir = ntfs_attr_value(a, sizeof(*ir));
	if (!ir || le16_to_cpu(a->r.value_offset) + len > le32_to_cpu(a->length))
		return ntfs_itree_bad(tr, "$INDEX_ROOT:$I30 is short or past its attribute");
found:
	tr->lvl[0].vcn = NTFS_ROOT_VCN;
	tr->lvl[0].h = &ir->hdr;
	if (!check)
		return 0;
	why = ntfs_ix_check(&ir->hdr, len - offsetof(struct ntfs_index_root, hdr),
			    tr->min_key);
	if (!why)
		why = ntfs_itree_check_keys(tr, &ir->hdr);
	return why ? ntfs_itree_bad(tr, why) : 0;
}

/*
 * The index root and bitmap are edited in the base record: an attribute
 * list of a large directory may have placed them elsewhere, and they move
 * home first.  The index allocation is a stream: attrib.c changes it
 * wherever its extents are.
 */
static int ntfs_itree_bring_home(struct ntfs_itree *tr)
{
	static const u32 types[] = { NTFS_AT_INDEX_ROOT, NTFS_AT_BITMAP };
	unsigned int i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(types) && !err; i++)
		err = ntfs_file_bring_home(tr->t, tr->rec, tr->ni->record, types[i],
					   tr->name, tr->name_len);
	return err;
}

/*
 * The directory's base record, read into the transaction before the first
 * change of the root or of the record.  Level 0 of the path shows the
 * record's root from then on: the copy it showed holds the same entries.
 */
static int ntfs_itree_fetch(struct ntfs_itree *tr)
{
	const struct ntfs_index_header *old = tr->lvl[0].h;
	struct ntfs_record *r;
	int err;

	if (tr->rec)
		return 0;
	r = ntfs_trans_record(tr->t, tr->ni->record);
	if (IS_ERR(r))
		return PTR_ERR(r);
	tr->rec = r;
	err = ntfs_itree_bring_home(tr);
	if (!err)
		err = ntfs_itree_root(tr, false);
	if (!err && old && old->index_length != tr->lvl[0].h->index_length)
		err = ntfs_itree_bad(tr, "the copy of the root is not what the record holds");
	return err;
}

/* Resize the root's value so that its node has @alloc bytes. */
static int ntfs_itree_root_resize(struct ntfs_itree *tr, u32 alloc)
{
	int err = ntfs_itree_fetch(tr);

	if (!err)
		err = ntfs_rec_set_value_len(tr->sbi, tr->rec, ntfs_itree_root_attr(tr),
					     offsetof(struct ntfs_index_root, hdr) + alloc);
	if (err)
		return err;
	ntfs_itree_root(tr, false);
	tr->lvl[0].h->allocated_size = cpu_to_le32(alloc);
	return 0;
}

/* The root gives back the bytes it does not use. */
static int ntfs_itree_root_shrink(struct ntfs_itree *tr)
{
	return ntfs_itree_root_resize(tr, ntfs_ix_used(tr->lvl[0].h));
}

/*
 * A directory's block @vcn for the walk, read only: the volume's cached
 * block (read into the cache on a miss), held until ntfs_itree_end().  A
 * walk reads a block on every level but changes few; the ones it changes
 * are copied into the transaction first (ntfs_itree_own()).  NULL when
 * the transaction has its own copy already (it may have changed it), for
 * view indexes (one cache key for two indexes of one file), and when as
 * many blocks are held as fit: the transaction's copy is used then.
 */
static struct ntfs_iblock *ntfs_itree_view(struct ntfs_itree *tr, u64 vcn)
{
	struct ntfs_iblock *blk;

	if (!tr->lazy || tr->nr_held == NTFS_ITREE_HELD ||
	    ntfs_trans_has_iblock(tr->t, tr->dir, vcn))
		return NULL;
	blk = ntfs_iblock_cached(tr->sbi, tr->ni, vcn);
	if (!blk)
		blk = ntfs_iblock_read(tr->sbi, tr->ni, vcn);
	if (!IS_ERR(blk))
		tr->held[tr->nr_held++] = blk;
	return blk;
}

/*
 * Block @vcn of the index, checked, for a walk (ntfs_itree_own() before a
 * change).  A cached block does not change (a new copy replaces it), so
 * it is checked once, by the first walk that reads it.
 */
static int ntfs_itree_block(struct ntfs_itree *tr, u64 vcn, struct ntfs_index_header **hp)
{
	u32 size = tr->ni->index_block_size - offsetof(struct ntfs_index_block, hdr);
	struct ntfs_iblock *blk;
	struct ntfs_index_block *ib;
	const char *why;

	if (!tr->ni->stream.alloc_size)
		return ntfs_itree_bad(tr, "an entry has a child, but there is no index allocation");
	blk = ntfs_itree_view(tr, vcn);
	if (IS_ERR(blk))
		return PTR_ERR(blk);
	if (blk && READ_ONCE(blk->checked)) {
		*hp = &((struct ntfs_index_block *)blk->data)->hdr;
		return 0;
	}
	ib = blk ? (struct ntfs_index_block *)blk->data :
		   ntfs_trans_iblock(tr->t, tr->dir, vcn, false);
	if (IS_ERR(ib))
		return PTR_ERR(ib);
	if (le32_to_cpu(ib->hdr.allocated_size) != size)
		return ntfs_itree_bad(tr, "an index block's allocated size is not its block size");
	why = ntfs_ix_check(&ib->hdr, size, tr->min_key);
	if (!why)
		why = ntfs_itree_check_keys(tr, &ib->hdr);
	if (why)
		return ntfs_itree_bad(tr, why);
	if (blk)
		WRITE_ONCE(blk->checked, true);
	*hp = &ib->hdr;
	return 0;
}

/*
 * A transaction that had a block lent ends (ntfs_trans_iblock_lend()).
 * Unless its change was written, the block's bytes are not the page
 * cache's (an abort, a failed write, or a change that stopped half-way):
 * it leaves the cache.  A written block stays, as the commit left it.
 */
static void ntfs_iblock_given_back(struct ntfs_tblock *b)
{
	struct ntfs_iblock *blk = b->owner;

	blk->lent = false;
	if (!b->written)
		ntfs_iblock_unslot(NTFS_SB(b->inode->i_sb), blk);
	ntfs_iblock_put(blk);
}

/* The checked cached block @vcn the walk holds, or NULL. */
static struct ntfs_iblock *ntfs_itree_held(struct ntfs_itree *tr, u64 vcn)
{
	unsigned int i;

	for (i = 0; i < tr->nr_held; i++)
		if (tr->held[i]->vcn == vcn && READ_ONCE(tr->held[i]->checked))
			return tr->held[i];
	return NULL;
}

/*
 * Node @vcn is about to change: the path (and *@hp, when given) shows the
 * transaction's copy of it from now on.  A cached block the walk holds is
 * lent to the transaction and changed in place; otherwise the transaction
 * reads a copy of its own.  The two hold the same bytes: the cache
 * follows the page cache, and the transaction had no copy of its own when
 * the walk read it.
 */
static int ntfs_itree_own(struct ntfs_itree *tr, u64 vcn, struct ntfs_index_header **hp)
{
	struct ntfs_iblock *blk = NULL;
	struct ntfs_index_block *ib;
	int d;

	if (vcn == NTFS_ROOT_VCN) {
		const struct ntfs_index_header *old = tr->lvl[0].h;
		int err = ntfs_itree_fetch(tr);

		if (!err && hp && *hp == old)
			*hp = tr->lvl[0].h;
		return err;
	}
	if (!ntfs_trans_has_iblock(tr->t, tr->dir, vcn))
		blk = ntfs_itree_held(tr, vcn);
	if (blk) {
		refcount_inc(&blk->ref);
		blk->lent = true;
		ib = ntfs_trans_iblock_lend(tr->t, tr->dir, vcn, blk->data,
					    ntfs_iblock_given_back, blk);
		if (IS_ERR(ib)) {
			blk->lent = false;
			ntfs_iblock_put(blk);
		}
	} else {
		ib = ntfs_trans_iblock(tr->t, tr->dir, vcn, false);
	}
	if (IS_ERR(ib))
		return PTR_ERR(ib);
	if (hp && *hp != &ib->hdr) {
		if ((*hp)->index_length != ib->hdr.index_length)
			return ntfs_itree_bad(tr, "a cached block is not what the disk holds");
		*hp = &ib->hdr;
	}
	for (d = 0; d <= tr->depth; d++) {
		if (tr->lvl[d].vcn != vcn || tr->lvl[d].h == &ib->hdr)
			continue;
		if (tr->lvl[d].h->index_length != ib->hdr.index_length)
			return ntfs_itree_bad(tr, "a cached block is not what the disk holds");
		tr->lvl[d].h = &ib->hdr;
	}
	return 0;
}

/*
 * Walk from the root towards tr->key.  Return 1 when the key is found
 * (at tr->lvl[tr->depth].ofs), 0 when not (the path then ends in the leaf
 * where it would go), or an errno.
 */
static int ntfs_itree_walk(struct ntfs_itree *tr)
{
	int d = 0, err = ntfs_itree_root(tr, true);

	while (!err) {
		struct ntfs_itree_lvl *l = &tr->lvl[d];
		const struct ntfs_index_entry *e;
		int c = ntfs_ix_find(l->h, tr->cmp, tr->key, &l->ofs);

		tr->depth = d;
		if (!c)
			return 1;
		e = ntfs_ix_at(l->h, l->ofs);
		if (!ntfs_ie_has_child(e))
			return 0;
		if (d == NTFS_MAX_INDEX_DEPTH)
			return ntfs_itree_bad(tr, "deeper than 32 levels");
		err = ntfs_walk_step();
		if (err)
			break;
		tr->lvl[++d].vcn = ntfs_ie_child(e);
		err = ntfs_itree_block(tr, tr->lvl[d].vcn, &tr->lvl[d].h);
	}
	return err;
}

/* ---- index blocks: $BITMAP:$I30 and $INDEX_ALLOCATION:$I30 -------------- */

static u64 ntfs_itree_vcn(const struct ntfs_itree *tr, u64 idx)
{
	return (idx * tr->ni->index_block_size) >> tr->shift;
}

static u64 ntfs_itree_idx(const struct ntfs_itree *tr, u64 vcn)
{
	return (vcn << tr->shift) / tr->ni->index_block_size;
}

/*
 * $BITMAP:$I30 has one bit per index block.  It is resident while the base
 * record holds it; when the record is full it moves to clusters of its own
 * (as Windows keeps the bitmap of a large directory), and a non-resident
 * one is changed in place through the transaction's copies of its
 * clusters (ntfs_trans_cluster()), growing within its allocation and
 * moving to larger clusters past it.  Bounded: 1 MiB of bits covers 8 Mi
 * blocks, 32 GiB of index at 4 KiB per block.
 */
#define NTFS_IBITMAP_MAX	SZ_1M

/* The bitmap attribute in the base record, or NULL when there is none. */
static struct ntfs_attr *ntfs_ibm_attr(struct ntfs_itree *tr)
{
	return ntfs_rec_find(tr->rec, NTFS_AT_BITMAP, tr->name, tr->name_len);
}

/*
 * Check a non-resident bitmap @a: one extent from VCN 0 over its whole
 * allocation, sizes in order, no holes; its runs go to tr->bm_runs.
 */
static int ntfs_ibm_load_runs(struct ntfs_itree *tr, const struct ntfs_attr *a)
{
	u64 data = le64_to_cpu(a->nr.data_size), alloc = le64_to_cpu(a->nr.allocated_size);
	u64 last = le64_to_cpu(a->nr.highest_vcn);
	u32 mp = le16_to_cpu(a->nr.mp_offset);
	unsigned int cap = 0, i;
	const char *why = NULL;
	int err;

	kvfree(tr->bm_runs);
	tr->bm_runs = NULL;
	tr->bm_nr_runs = 0;
	if (data > NTFS_IBITMAP_MAX)
		return ntfs_err_ratelimited(tr->sbi->sb, tr->ni->record,
					    "$BITMAP:$I30 over 1 MiB: index changes not supported");
	/* @last is below the volume's clusters first: the shift cannot wrap. */
	if (a->nr.lowest_vcn || last >= tr->sbi->total_clusters || mp > le32_to_cpu(a->length) ||
	    le64_to_cpu(a->nr.valid_size) > data || data > alloc ||
	    alloc != (last + 1) << tr->sbi->cluster_bits)
		return ntfs_itree_bad(tr, "$BITMAP:$I30 sizes disagree");
	err = ntfs_decode_runs((const u8 *)a + mp, le32_to_cpu(a->length) - mp, 0, last,
			       tr->sbi->total_clusters, &tr->bm_runs, &tr->bm_nr_runs, &cap, &why);
	if (err)
		return ntfs_itree_bad(tr, why ? why : "$BITMAP:$I30 mapping pairs");
	for (i = 0; i < tr->bm_nr_runs; i++)
		if (tr->bm_runs[i].lcn == NTFS_LCN_HOLE)
			return ntfs_itree_bad(tr, "$BITMAP:$I30 has a hole");
	return 0;
}

/*
 * Byte @byte of the bitmap, below @end: its value length, or for a
 * non-resident bitmap growing inside its allocation the new length; *@n
 * is set to the bytes before @end that follow it in the same place (the
 * value, or one cluster of it).  @change: the caller changes them.
 */
static u8 *ntfs_ibm_at(struct ntfs_itree *tr, u64 byte, u64 end, bool change, u32 *n)
{
	struct ntfs_sb *sbi = tr->sbi;
	const struct ntfs_run *run;
	u64 vcn = byte >> sbi->cluster_bits;
	u32 off = byte & (sbi->cluster_size - 1);
	u8 *c;

	if (byte >= end || (tr->bm_res && end > tr->bm_len))
		return ERR_PTR(ntfs_itree_bad(tr, "an index block has no bit in $BITMAP:$I30"));
	if (tr->bm_res) {
		*n = end - byte;
		return tr->bm_res + byte;
	}
	run = ntfs_run_lookup(tr->bm_runs, tr->bm_nr_runs, vcn);
	if (!run)
		return ERR_PTR(ntfs_itree_bad(tr, "$BITMAP:$I30 is past its clusters"));
	c = ntfs_trans_cluster(tr->t, run->lcn + vcn - run->vcn, change);
	if (IS_ERR(c))
		return ERR_PTR(PTR_ERR(c));
	*n = min_t(u64, sbi->cluster_size - off, end - byte);
	return c + off;
}

/* Zero the bytes [@from, @to) of the bitmap (inside its value). */
static int ntfs_ibm_zero(struct ntfs_itree *tr, u64 from, u64 to)
{
	int err = 0;
	u32 n;
	u8 *p;

	while (!err && from < to) {
		p = ntfs_ibm_at(tr, from, to, true, &n);
		err = PTR_ERR_OR_ZERO(p);
		if (!err) {
			memset(p, 0, n);
			from += n;
		}
	}
	return err;
}

/*
 * Look at the bitmap again after the base record changed: tr->bm_len, and
 * tr->bm_res (the resident value) or tr->bm_runs.  Bytes of a non-resident
 * bitmap past its valid size are zeroed once, and it is then valid to the
 * end.  0 with tr->bm_len 0: there is no bitmap yet.
 */
static int ntfs_ibm_load(struct ntfs_itree *tr)
{
	struct ntfs_attr *a;
	u64 valid;
	int err = ntfs_itree_fetch(tr);

	if (err)
		return err;
	a = ntfs_ibm_attr(tr);
	tr->bm_res = NULL;
	tr->bm_len = 0;
	if (!a)
		return 0;
	if (!a->non_resident) {
		tr->bm_len = le32_to_cpu(a->r.value_length);
		if (le16_to_cpu(a->r.value_offset) + tr->bm_len > le32_to_cpu(a->length))
			return ntfs_itree_bad(tr, "$BITMAP:$I30 is past its attribute");
		tr->bm_res = ntfs_attr_value(a, 0);
		return 0;
	}
	err = ntfs_ibm_load_runs(tr, a);
	if (err)
		return err;
	tr->bm_len = le64_to_cpu(a->nr.data_size);
	valid = le64_to_cpu(a->nr.valid_size);
	if (valid < tr->bm_len) {
		err = ntfs_ibm_zero(tr, valid, tr->bm_len);
		if (err)
			return err;
		a->nr.valid_size = a->nr.data_size;
	}
	return 0;
}

/* Copy the bitmap's value into @buf (tr->bm_len bytes). */
static int ntfs_ibm_copy(struct ntfs_itree *tr, u8 *buf)
{
	u64 byte = 0;
	u32 n;
	u8 *p;

	while (byte < tr->bm_len) {
		p = ntfs_ibm_at(tr, byte, tr->bm_len, false, &n);
		if (IS_ERR(p))
			return PTR_ERR(p);
		memcpy(buf + byte, p, n);
		byte += n;
	}
	return 0;
}

/*
 * Bytes a non-resident $BITMAP:$I30 takes in the base record: its header,
 * name and mapping pairs of one run, and its attribute list entry.
 */
#define NTFS_IBM_NONRES_ROOM	(80 + 40)

/*
 * A new empty non-resident attribute of the index (@type: its bitmap or
 * allocation) in the base record.  A record too full for it gives up
 * names and index allocation extents to extension records first
 * (ntfs_file_make_room()) until @room bytes are free.
 */
static struct ntfs_attr *ntfs_itree_insert_nonres(struct ntfs_itree *tr, u32 type, u32 room)
{
	struct ntfs_attr *a = ntfs_rec_insert(tr->t, tr->rec, type, tr->name, tr->name_len,
					      true, 8);
	int err;

	if (PTR_ERR_OR_ZERO(a) != -ENOSPC)
		return a;
	err = ntfs_file_make_room(tr->t, tr->rec, tr->ni->record, room);
	if (err)
		return ERR_PTR(err);
	return ntfs_rec_insert(tr->t, tr->rec, type, tr->name, tr->name_len, true, 8);
}

/*
 * Replace the bitmap with a non-resident one of @bytes (its bits, then
 * zeros) in new clusters, with room to grow as much again; the old value's
 * clusters are freed at commit.
 */
static int ntfs_ibm_move(struct ntfs_itree *tr, u32 bytes)
{
	struct ntfs_attr *a = ntfs_ibm_attr(tr);
	u8 *buf = kvzalloc(bytes, GFP_NOFS);
	int err = buf ? 0 : -ENOMEM;

	if (!err && tr->bm_len)
		err = ntfs_ibm_copy(tr, buf);
	if (!err && a && !a->non_resident) {
		err = ntfs_rec_drop(tr->t, tr->rec, a);
		a = NULL;
	}
	if (!err && !a) {
		a = ntfs_itree_insert_nonres(tr, NTFS_AT_BITMAP, NTFS_IBM_NONRES_ROOM);
		err = PTR_ERR_OR_ZERO(a);
	}
	if (!err)
		err = ntfs_store_value(tr->t, tr->rec, a, buf, bytes, 2 * bytes);
	kvfree(buf);
	return err ?: ntfs_ibm_load(tr);
}

/*
 * Make $BITMAP:$I30 at least @bytes long (a multiple of 8), creating it:
 * in the base record while it has room, else in clusters.
 */
static int ntfs_ibm_grow(struct ntfs_itree *tr, u32 bytes)
{
	struct ntfs_attr *a = ntfs_ibm_attr(tr);
	int err;

	if (bytes <= tr->bm_len)
		return 0;
	if (bytes > NTFS_IBITMAP_MAX)
		return -ENOSPC;
	if (!a) {
		a = ntfs_rec_insert(tr->t, tr->rec, NTFS_AT_BITMAP, tr->name, tr->name_len,
				    false, bytes);
		err = PTR_ERR_OR_ZERO(a);
	} else if (!a->non_resident) {
		err = ntfs_rec_set_value_len(tr->sbi, tr->rec, a, bytes);
	} else if (bytes <= le64_to_cpu(a->nr.allocated_size)) {
		err = ntfs_ibm_zero(tr, tr->bm_len, bytes);
		if (!err) {
			a->nr.data_size = cpu_to_le64(bytes);
			a->nr.valid_size = cpu_to_le64(bytes);
		}
	} else {
		err = -ENOSPC;
	}
	if (err == -ENOSPC)
		return ntfs_ibm_move(tr, bytes);
	return err ?: ntfs_ibm_load(tr);
}

/* The first clear bit below @nblocks, or @nblocks when there is none. */
static int ntfs_ibm_find_clear(struct ntfs_itree *tr, u64 nblocks, u64 *bit)
{
	u64 byte = 0, end = min_t(u64, DIV_ROUND_UP(nblocks, 8), tr->bm_len);
	u32 n, k;
	u8 *p;

	while (byte < end) {
		p = ntfs_ibm_at(tr, byte, end, false, &n);
		if (IS_ERR(p))
			return PTR_ERR(p);
		for (k = 0; k < n; k++) {
			if (p[k] != 0xff) {
				*bit = min_t(u64, (byte + k) * 8 + ffz(p[k]), nblocks);
				return 0;
			}
		}
		byte += n;
	}
	*bit = nblocks;
	return 0;
}

/* Set or clear bit @bit of the bitmap. */
static int ntfs_ibm_change(struct ntfs_itree *tr, u64 bit, bool set)
{
	u32 n;
	u8 *p = ntfs_ibm_at(tr, bit / 8, tr->bm_len, true, &n);

	if (IS_ERR(p))
		return PTR_ERR(p);
	if (set)
		*p |= BIT(bit % 8);
	else
		*p &= ~BIT(bit % 8);
	return 0;
}

/*
 * Bytes a directory's base record needs when its first index block
 * appears: a non-resident $INDEX_ALLOCATION:$I30 (header, name, a run)
 * and a resident $BITMAP:$I30 of 8 bytes, each with an attribute list
 * entry.
 */
#define NTFS_IALLOC_ROOM	(80 + 40 + 40 + 40)

/* Give a directory without index blocks an empty $INDEX_ALLOCATION:$I30. */
static int ntfs_itree_alloc_create(struct ntfs_itree *tr)
{
	struct ntfs_stream *ns = &tr->ni->stream;
	struct ntfs_attr *a;

	if (ns->type == NTFS_AT_INDEX_ALLOC)
		return 0;	/* there is one, empty */
	a = ntfs_rec_find(tr->rec, NTFS_AT_INDEX_ALLOC, tr->name, tr->name_len);
	if (a)
		return ntfs_itree_bad(tr, "an $INDEX_ALLOCATION:$I30 the inode did not load");
	/*
	 * A record filled by a long name and EAs (WSL's metadata) gives up
	 * its name, else the directory could not take an entry the root
	 * cannot hold.
	 */
	a = ntfs_itree_insert_nonres(tr, NTFS_AT_INDEX_ALLOC, NTFS_IALLOC_ROOM);
	if (IS_ERR(a))
		return PTR_ERR(a);
	ns->record = tr->ni->record;
	ns->type = NTFS_AT_INDEX_ALLOC;
	ns->resident = false;
	ns->data_size = 0;
	ns->valid_size = 0;
	ns->alloc_size = 0;
	ns->runs_loaded = true;
	ns->read_around = NTFS_META_READ_AROUND;
	return 0;
}

/*
 * Blocks the allocation grows by when it is full: half of what it has, at
 * least one, at most 256.  Growing one block at a time leaves a run per
 * block whenever other allocations come between, and the mapping pairs of
 * a large directory would not fit its record.
 */
#define NTFS_IALLOC_GROW_MAX	256

/*
 * Make the index allocation hold block @idx and those after it that one
 * growth step adds; *@nblocks gets the new block count.  The new blocks
 * are free in $BITMAP:$I30 until they are taken.
 */
static int ntfs_itree_alloc_grow(struct ntfs_itree *tr, u64 idx, u64 *nblocks)
{
	struct ntfs_stream *ns = &tr->ni->stream;
	u32 cs = tr->sbi->cluster_size, bs = tr->ni->index_block_size;
	u64 end;
	int err = 0;

	*nblocks = idx + clamp_t(u64, idx / 2, 1, NTFS_IALLOC_GROW_MAX);
	/* Whole clusters: blocks smaller than a cluster fill it. */
	end = round_up(*nblocks * bs, cs);
	*nblocks = end / bs;
	/* attrib.c finds a stream's attribute by type and name. */
	if (!ns->name) {
		ns->name = (__le16 *)tr->name;
		ns->name_len = tr->name_len;
	}
	if (!ns->alloc_size)
		err = ntfs_itree_alloc_create(tr);
	if (!err && end > ns->alloc_size)
		err = ntfs_stream_allocate(tr->t, tr->dir, ns->alloc_size >> tr->sbi->cluster_bits,
					   (end - ns->alloc_size) >> tr->sbi->cluster_bits);
	if (!err && end > ns->data_size)
		err = ntfs_stream_set_size(tr->t, tr->dir, end);
	if (!err && end > ns->valid_size)
		err = ntfs_stream_set_valid(tr->t, tr->dir, end);
	return err;
}

/* Take a free block: the first clear bit of the bitmap, else one more block. */
static int ntfs_itree_take_block(struct ntfs_itree *tr, u64 *idx)
{
	u64 nblocks = tr->ni->stream.data_size / tr->ni->index_block_size;
	u64 i;
	int err = ntfs_ibm_load(tr);

	if (!err)
		err = ntfs_ibm_find_clear(tr, nblocks, &i);
	if (!err && i == nblocks) {
		if (i >= U32_MAX / 2)
			return -ENOSPC;
		err = ntfs_itree_alloc_grow(tr, i, &nblocks);
		if (!err)
			err = ntfs_ibm_load(tr);
		if (!err)
			err = ntfs_ibm_grow(tr, ALIGN(DIV_ROUND_UP(nblocks, 8), 8));
	}
	if (!err)
		err = ntfs_ibm_change(tr, i, true);
	if (!err)
		*idx = i;
	return err;
}

/* Free block @vcn: clear its bit.  Its clusters stay with the directory. */
static int ntfs_itree_free_block(struct ntfs_itree *tr, u64 vcn)
{
	u64 i = ntfs_itree_idx(tr, vcn);
	unsigned int k;
	int err = ntfs_ibm_load(tr);

	if (!err)
		err = ntfs_ibm_change(tr, i, false);
	if (err)
		return err;
	for (k = 0; k < tr->nr_changed; k++)
		if (tr->changed[k] == vcn)
			tr->changed[k] = NTFS_ROOT_VCN;
	return 0;
}

/*
 * A new empty node in a free block.  Taking the block may change the base
 * record (bitmap, allocation), so the root is found again.
 */
static int ntfs_itree_new_block(struct ntfs_itree *tr, bool children, u64 *vcn,
				struct ntfs_index_header **hp)
{
	struct ntfs_index_block *ib;
	u64 idx;
	int err = ntfs_itree_take_block(tr, &idx);

	if (!err)
		err = ntfs_itree_root(tr, false);
	if (err)
		return err;
	*vcn = ntfs_itree_vcn(tr, idx);
	ib = ntfs_trans_iblock(tr->t, tr->dir, *vcn, true);
	if (IS_ERR(ib))
		return PTR_ERR(ib);
	ntfs_ix_init(&ib->hdr, ntfs_ix_first(&ib->hdr), le32_to_cpu(ib->hdr.allocated_size),
		     children, 0);
	*hp = &ib->hdr;
	ntfs_itree_changed(tr, *vcn);
	return 0;
}

/* ---- insert: split on overflow ------------------------------------------ */

/*
 * Two blocks of scratch space for a node being split or merged, allocated
 * the first time: most changes neither split nor merge.  NULL: no memory.
 */
static struct ntfs_index_header *ntfs_itree_scratch(struct ntfs_itree *tr)
{
	if (!tr->scratch)
		tr->scratch = kmalloc(2 * tr->ni->index_block_size, GFP_NOFS);
	return (struct ntfs_index_header *)tr->scratch;
}

/*
 * Bytes of the base record the root leaves free when it grows: room for
 * $INDEX_ALLOCATION and $BITMAP to appear and grow, and for another name.
 */
#define NTFS_ROOT_RESERVE	256

static u32 ntfs_itree_rec_free(const struct ntfs_itree *tr)
{
	u32 used = le32_to_cpu(tr->rec->bytes_in_use);
	u32 alloc = le32_to_cpu(tr->rec->bytes_allocated);

	return used < alloc ? alloc - used : 0;
}

/*
 * Room for @need more bytes in node @d.  A block has what it has; the root
 * grows inside the base record, but only while its entries would still fit
 * one block (pushing it down then always works) and while the record
 * keeps NTFS_ROOT_RESERVE bytes free.  -ENOSPC: split.
 */
static int ntfs_itree_room(struct ntfs_itree *tr, int d, u32 need)
{
	struct ntfs_index_header *h = tr->lvl[d].h;
	u32 used = ntfs_ix_used(h);
	int err;

	if (ntfs_ix_free(h) >= need)
		return 0;
	if (d)
		return -ENOSPC;
	if (used - ntfs_ix_first(h) + need > ntfs_itree_block_cap(tr))
		return -ENOSPC;
	err = ntfs_itree_fetch(tr);
	if (err)
		return err;
	if (ntfs_itree_rec_free(tr) < need + NTFS_ROOT_RESERVE)
		return -ENOSPC;
	return ntfs_itree_root_resize(tr, used + need);
}

/*
 * The root is full: its entries move into a new block, and the root keeps
 * only its end entry, pointing to that block.  The path gets one level
 * more; its level 1 is the new block.
 */
static int ntfs_itree_push_down(struct ntfs_itree *tr)
{
	struct ntfs_index_header *rh, *bh, *s = ntfs_itree_scratch(tr);
	u32 ofs = tr->lvl[0].ofs, need;
	bool children;
	u64 vcn;
	int err = s ? ntfs_itree_fetch(tr) : -ENOMEM;

	if (err)
		return err;
	rh = tr->lvl[0].h;
	children = ntfs_ix_children(rh);
	if (tr->depth == NTFS_MAX_INDEX_DEPTH)
		return ntfs_itree_bad(tr, "deeper than 32 levels");
	/*
	 * The entries wait in the scratch node while the root shrinks: a
	 * full record may have no room for the block's allocation otherwise.
	 */
	memcpy(s, rh, ntfs_ix_used(rh));
	/*
	 * The root's end entry gains a child pointer: an empty leaf root
	 * (its first entry is long) has no room for those 8 bytes yet.
	 */
	need = ntfs_ix_first(rh) + NTFS_IE_HDR + 8;
	if (le32_to_cpu(rh->allocated_size) < need) {
		err = ntfs_itree_root_resize(tr, need);
		if (err)
			return err;
		rh = tr->lvl[0].h;
	}
	ntfs_ix_init(rh, ntfs_ix_first(rh), le32_to_cpu(rh->allocated_size), true, 0);
	err = ntfs_itree_root_shrink(tr);
	if (!err)
		err = ntfs_itree_new_block(tr, children, &vcn, &bh);
	if (err)
		return err;
	rh = tr->lvl[0].h;
	ntfs_ie_set_child(ntfs_ix_at(rh, ntfs_ix_first(rh)), vcn);
	if (children)
		ntfs_ie_set_child(ntfs_ix_at(bh, ntfs_ix_end(bh)),
				  ntfs_ie_child(ntfs_ix_at(s, ntfs_ix_end(s))));
	ntfs_ix_append(bh, s);
	memmove(&tr->lvl[2], &tr->lvl[1], tr->depth * sizeof(tr->lvl[0]));
	tr->depth++;
	tr->lvl[1].vcn = vcn;
	tr->lvl[1].h = bh;
	tr->lvl[1].ofs = ofs - ntfs_ix_first(s) + ntfs_ix_first(bh);
	tr->lvl[0].ofs = ntfs_ix_first(rh);
	return 0;
}

/*
 * Node @d has no room for @e at its path offset: split it (with @e) at the
 * median into a new left block and itself (the right half, so the parent's
 * pointer to it stays right).  *@up gets the median, pointing to the left
 * block, for the parent.
 */
static int ntfs_itree_split(struct ntfs_itree *tr, int d, const struct ntfs_index_entry *e,
			    struct ntfs_index_entry *up)
{
	struct ntfs_index_header *h, *s = ntfs_itree_scratch(tr), *lh;
	u32 alloc;
	u64 lvcn;
	int err = s ? ntfs_itree_own(tr, tr->lvl[d].vcn, NULL) : -ENOMEM;

	if (err)
		return err;
	h = tr->lvl[d].h;
	alloc = le32_to_cpu(h->allocated_size);
	memcpy(s, h, ntfs_ix_used(h));
	s->allocated_size = cpu_to_le32(2 * tr->ni->index_block_size);
	ntfs_ix_insert(s, tr->lvl[d].ofs, e);
	err = ntfs_itree_new_block(tr, ntfs_ix_children(h), &lvcn, &lh);
	if (err)
		return err;
	ntfs_ix_split(s, lh, IT_ENT(tr, IT_RAW));
	memcpy(h, s, ntfs_ix_used(s));
	h->allocated_size = cpu_to_le32(alloc);
	ntfs_ie_copy(up, IT_ENT(tr, IT_RAW), true, lvcn);
	ntfs_itree_changed(tr, tr->lvl[d].vcn);
	return 0;
}

/*
 * Insert @e into node @d of the path, before the entry at its path
 * offset; a full node splits and its median goes up, a full root is
 * pushed down first.
 */
static int ntfs_itree_insert_at(struct ntfs_itree *tr, int d, struct ntfs_index_entry *e)
{
	for (;;) {
		struct ntfs_index_entry *up;
		int err = ntfs_itree_room(tr, d, ntfs_ie_len(e));

		if (!err)
			err = ntfs_itree_own(tr, tr->lvl[d].vcn, NULL);
		if (!err) {
			ntfs_ix_insert(tr->lvl[d].h, tr->lvl[d].ofs, e);
			ntfs_itree_changed(tr, tr->lvl[d].vcn);
			return 0;
		}
		if (err != -ENOSPC)
			return err;
		if (!d) {
			err = ntfs_itree_push_down(tr);
			if (err)
				return err;
			d = 1;
			continue;
		}
		up = e == IT_ENT(tr, 1) ? IT_ENT(tr, 2) : IT_ENT(tr, 1);
		err = ntfs_itree_split(tr, d, e, up);
		if (err)
			return err;
		e = up;
		d--;
	}
}

/* ---- delete: merge or rebalance on underflow ---------------------------- */

/*
 * Rebalance: all of two siblings and their separator, split again at the
 * median, which replaces the separator in the parent (@pd).  Used when a
 * node is empty and its sibling too full to merge with.
 */
static int ntfs_itree_redistribute(struct ntfs_itree *tr, int pd, u32 sofs,
				   struct ntfs_index_header *lh, u64 lvcn,
				   struct ntfs_index_header *rh, u64 rvcn)
{
	struct ntfs_index_header *s = ntfs_itree_scratch(tr), *ph;
	u32 alloc = le32_to_cpu(rh->allocated_size);
	int err = s ? ntfs_itree_own(tr, lvcn, &lh) : -ENOMEM;

	if (!err)
		err = ntfs_itree_own(tr, rvcn, &rh);
	if (!err)
		err = ntfs_itree_own(tr, tr->lvl[pd].vcn, NULL);
	if (err)
		return err;
	ph = tr->lvl[pd].h;
	memcpy(s, rh, ntfs_ix_used(rh));
	s->allocated_size = cpu_to_le32(2 * tr->ni->index_block_size);
	ntfs_ix_merge(lh, ntfs_ix_at(ph, sofs), s, IT_ENT(tr, IT_RAW));
	ntfs_ix_split(s, lh, IT_ENT(tr, IT_RAW));
	memcpy(rh, s, ntfs_ix_used(s));
	rh->allocated_size = cpu_to_le32(alloc);
	ntfs_ie_copy(IT_ENT(tr, 1), IT_ENT(tr, IT_RAW), true, lvcn);
	ntfs_itree_changed(tr, lvcn);
	ntfs_itree_changed(tr, rvcn);
	ntfs_ix_remove(ph, sofs);
	tr->lvl[pd].ofs = sofs;
	return ntfs_itree_insert_at(tr, pd, IT_ENT(tr, 1));
}

/*
 * The siblings of node @d: the left one, the separator in the parent and
 * the right one; node @d is one of the two.  Return 1 with them set, 0
 * when node @d is its parent's only child, or an errno.
 */
static int ntfs_itree_siblings(struct ntfs_itree *tr, int d, struct ntfs_index_header **lh,
			       u64 *lvcn, u32 *sofs, struct ntfs_index_header **rh, u64 *rvcn)
{
	struct ntfs_index_header *ph = tr->lvl[d - 1].h;
	u32 p = tr->lvl[d - 1].ofs;
	struct ntfs_index_entry *pe = ntfs_ix_at(ph, p);
	int err;

	if (!ntfs_ie_is_last(pe)) {
		*sofs = p;
		*lh = tr->lvl[d].h;
		*lvcn = tr->lvl[d].vcn;
		*rvcn = ntfs_ie_child(ntfs_ix_at(ph, p + ntfs_ie_len(pe)));
		err = ntfs_itree_block(tr, *rvcn, rh);
	} else {
		*sofs = ntfs_ix_prev(ph, p);
		if (!*sofs)
			return 0;
		*rh = tr->lvl[d].h;
		*rvcn = tr->lvl[d].vcn;
		*lvcn = ntfs_ie_child(ntfs_ix_at(ph, *sofs));
		err = ntfs_itree_block(tr, *lvcn, lh);
	}
	if (err)
		return err;
	if (ntfs_ix_children(*lh) != ntfs_ix_children(*rh) || *lvcn == *rvcn)
		return ntfs_itree_bad(tr, "sibling index blocks at different depths");
	return 1;
}

/*
 * Node @d (below the root) lost an entry.  A node left under a third
 * full merges with a sibling when the two and their separator fit one
 * block; the parent then lost an entry, and so on up.  An empty node
 * that cannot merge takes half of its sibling's entries.  Other small
 * nodes stay as they are.
 */
static int ntfs_itree_rebalance(struct ntfs_itree *tr, int d)
{
	for (; d > 0; d--) {
		struct ntfs_index_header *h = tr->lvl[d].h, *lh, *rh, *ph;
		u32 cap = le32_to_cpu(h->allocated_size) - ntfs_ix_first(h), sofs;
		bool empty = ntfs_ix_end(h) == ntfs_ix_first(h);
		u64 lvcn, rvcn;
		int err;

		if (!empty && ntfs_ix_entry_bytes(h) >= cap / 3)
			return 0;
		err = ntfs_itree_siblings(tr, d, &lh, &lvcn, &sofs, &rh, &rvcn);
		if (err <= 0)
			return err;
		ph = tr->lvl[d - 1].h;
		if (ntfs_ix_merge_size(lh, ntfs_ix_at(ph, sofs), rh) >
		    le32_to_cpu(rh->allocated_size))
			return empty ? ntfs_itree_redistribute(tr, d - 1, sofs, lh, lvcn, rh, rvcn)
				     : 0;
		err = ntfs_itree_own(tr, rvcn, &rh);
		if (!err)
			err = ntfs_itree_own(tr, tr->lvl[d - 1].vcn, NULL);
		if (err)
			return err;
		ph = tr->lvl[d - 1].h;
		ntfs_ix_merge(lh, ntfs_ix_at(ph, sofs), rh, IT_ENT(tr, IT_RAW));
		ntfs_ix_remove(ph, sofs);
		tr->lvl[d - 1].ofs = sofs;
		ntfs_itree_changed(tr, rvcn);
		ntfs_itree_changed(tr, tr->lvl[d - 1].vcn);
		err = ntfs_itree_free_block(tr, lvcn);
		if (err)
			return err;
	}
	return ntfs_itree_root_shrink(tr);
}

/*
 * While the root holds only a pointer to one block and that block's
 * entries fit in the base record, move them into the root and free the
 * block: a directory emptied again becomes a small index.
 */
static int ntfs_itree_collapse(struct ntfs_itree *tr)
{
	int i, err;

	for (i = 0; i < NTFS_MAX_INDEX_DEPTH; i++) {
		struct ntfs_index_header *rh, *ch;
		u32 first, n;
		u64 vcn;

		err = ntfs_itree_root(tr, false);
		if (err)
			return err;
		rh = tr->lvl[0].h;
		first = ntfs_ix_first(rh);
		if (!ntfs_ix_children(rh) || ntfs_ix_end(rh) != first)
			return 0;
		err = ntfs_itree_fetch(tr);
		if (err)
			return err;
		rh = tr->lvl[0].h;
		vcn = ntfs_ie_child(ntfs_ix_at(rh, first));
		err = ntfs_itree_block(tr, vcn, &ch);
		if (err)
			return err;
		n = ntfs_ix_used(ch) - ntfs_ix_first(ch);
		if (first + n > ntfs_ix_used(rh) &&
		    ntfs_itree_rec_free(tr) < first + n - ntfs_ix_used(rh) + NTFS_ROOT_RESERVE)
			return 0;
		err = ntfs_itree_root_resize(tr, max(first + n, ntfs_ix_used(rh)));
		if (err == -ENOSPC)
			return 0;
		if (err)
			return err;
		rh = tr->lvl[0].h;
		memcpy(ntfs_ix_at(rh, first), ntfs_ix_at(ch, ntfs_ix_first(ch)), n);
		rh->index_length = cpu_to_le32(first + n);
		rh->flags = ch->flags;
		err = ntfs_itree_root_shrink(tr);
		if (!err)
			err = ntfs_itree_free_block(tr, vcn);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Extend the path from the entry at level @d down to the last leaf of its
 * child's subtree: the leaf that holds the entry's in-order predecessor.
 */
static int ntfs_itree_descend_last(struct ntfs_itree *tr, int d)
{
	struct ntfs_index_entry *e = ntfs_ix_at(tr->lvl[d].h, tr->lvl[d].ofs);
	int err;

	for (;;) {
		if (d == NTFS_MAX_INDEX_DEPTH)
			return ntfs_itree_bad(tr, "deeper than 32 levels");
		tr->lvl[++d].vcn = ntfs_ie_child(e);
		err = ntfs_itree_block(tr, tr->lvl[d].vcn, &tr->lvl[d].h);
		if (err)
			return err;
		tr->lvl[d].ofs = ntfs_ix_end(tr->lvl[d].h);
		e = ntfs_ix_at(tr->lvl[d].h, tr->lvl[d].ofs);
		tr->depth = d;
		if (!ntfs_ie_has_child(e))
			return 0;
	}
}

/*
 * Delete the entry the walk found (at the end of the path).  A leaf entry
 * goes; an interior one is replaced by its in-order predecessor, taken out
 * of its leaf first.  Return 1 when an empty leaf was met instead (fixed
 * now: the caller walks again), 0 or an errno.
 */
static int ntfs_itree_delete_found(struct ntfs_itree *tr)
{
	struct ntfs_index_entry *pred = IT_ENT(tr, IT_KEY), *e;
	int d = tr->depth, leaf, err;
	struct ntfs_index_header *h;
	u32 p;

	if (!ntfs_ix_children(tr->lvl[d].h)) {
		err = ntfs_itree_own(tr, tr->lvl[d].vcn, NULL);
		if (err)
			return err;
		ntfs_ix_remove(tr->lvl[d].h, tr->lvl[d].ofs);
		ntfs_itree_changed(tr, tr->lvl[d].vcn);
		return ntfs_itree_rebalance(tr, d);
	}
	err = ntfs_itree_descend_last(tr, d);
	if (err)
		return err;
	leaf = tr->depth;
	h = tr->lvl[leaf].h;
	p = ntfs_ix_prev(h, tr->lvl[leaf].ofs);
	if (!p) {
		/* An empty leaf (other implementations leave them): fix it first. */
		err = ntfs_itree_rebalance(tr, leaf);
		return err ? err : 1;
	}
	err = ntfs_itree_own(tr, tr->lvl[leaf].vcn, &h);
	if (err)
		return err;
	ntfs_ie_copy(pred, ntfs_ix_at(h, p), false, 0);
	ntfs_ix_remove(h, p);
	ntfs_itree_changed(tr, tr->lvl[leaf].vcn);
	err = ntfs_itree_rebalance(tr, leaf);
	if (err)
		return err;
	/* Merges move separators down: find the entry again. */
	err = ntfs_itree_walk(tr);
	if (err <= 0)
		return err ? err : ntfs_itree_bad(tr, "an entry vanished while it was deleted");
	d = tr->depth;
	err = ntfs_itree_own(tr, tr->lvl[d].vcn, NULL);
	if (err)
		return err;
	e = ntfs_ix_at(tr->lvl[d].h, tr->lvl[d].ofs);
	ntfs_ie_copy(pred, pred, ntfs_ie_has_child(e), ntfs_ie_has_child(e) ? ntfs_ie_child(e) : 0);
	ntfs_ix_remove(tr->lvl[d].h, tr->lvl[d].ofs);
	return ntfs_itree_insert_at(tr, d, pred);
}

/* ---- keeping the in-memory copies in step ------------------------------- */

/* Drop every cached block of @ni from the volume's block cache. */
static void ntfs_iblock_drop_dir(struct ntfs_sb *sbi, struct ntfs_inode *ni)
{
	struct ntfs_iblock *old[NTFS_IBLOCK_CACHE];
	unsigned int i, n = 0;

	spin_lock(&sbi->iblock_lock);
	for (i = 0; i < NTFS_IBLOCK_CACHE; i++) {
		struct ntfs_iblock *blk = sbi->iblock_cache[i];

		if (blk && blk->record == ni->record) {
			old[n++] = blk;
			sbi->iblock_cache[i] = NULL;
		}
	}
	spin_unlock(&sbi->iblock_lock);
	while (n)
		ntfs_iblock_put(old[--n]);
}

/*
 * Drop the cached copies of the blocks @tr changed (all of @ni's when it
 * changed more than it kept count of), but for the blocks lent to the
 * transaction: they are its copies, and hold what the commit writes.  The
 * blocks it only read are still what the cache holds, and a block it
 * freed is no longer reachable from the root (when it is taken again, it
 * is changed).  Readers are kept out until the commit (the directory's
 * i_rwsem): the cache is lossy, so they never relied on it to hide the
 * page cache's older blocks; the next one reads a dropped block again, as
 * the commit left it.
 */
static void ntfs_itree_cache_update(struct ntfs_itree *tr)
{
	struct ntfs_sb *sbi = tr->sbi;
	struct ntfs_inode *ni = tr->ni;
	struct ntfs_iblock *old[NTFS_ITREE_CHANGED];
	unsigned int i, n = 0;

	if (tr->changed_all) {
		ntfs_iblock_drop_dir(sbi, ni);
		return;
	}
	spin_lock(&sbi->iblock_lock);
	for (i = 0; i < tr->nr_changed; i++) {
		struct ntfs_iblock **slot, *blk;

		if (tr->changed[i] == NTFS_ROOT_VCN)
			continue;
		slot = ntfs_iblock_slot(sbi, ni->record, tr->changed[i]);
		blk = *slot;
		if (blk && blk->record == ni->record && blk->vcn == tr->changed[i] &&
		    !blk->lent) {
			old[n++] = blk;
			*slot = NULL;
		}
	}
	spin_unlock(&sbi->iblock_lock);
	while (n)
		ntfs_iblock_put(old[--n]);
}

/*
 * The change is complete: the read path's copy of the root, the block
 * cache, the lookup hint and (@moved: entries came or went) the generation
 * that readdir cursors compare follow it.
 *
 * A readdir cursor keeps pointers into the root copy between getdents
 * calls, and lets go of them only when the generation moved: a root of
 * the same size is copied over the old one (an update rewrites entries in
 * place, and a cursor reads them where they were), and a copy of another
 * size is only freed together with a move of the generation.
 */
static int ntfs_itree_finish(struct ntfs_itree *tr, bool moved)
{
	struct ntfs_inode *ni = tr->ni;
	struct ntfs_attr *a;
	void *copy, *old;
	u32 len;

	/* A change that did not read the record left the root as it was. */
	if (!tr->rec)
		goto cache;
	a = ntfs_itree_root_attr(tr);
	len = a ? le32_to_cpu(a->r.value_length) : 0;
	if (!a || a->non_resident || len < sizeof(struct ntfs_index_root))
		return ntfs_itree_bad(tr, "$INDEX_ROOT:$I30 went missing");
	if (len == ni->index_root_size) {
		memcpy(ni->index_root, ntfs_attr_value(a, 0), len);
	} else {
		copy = kmemdup(ntfs_attr_value(a, 0), len, GFP_NOFS);
		if (!copy)
			return -ENOMEM;
		old = ni->index_root;
		ni->index_root = copy;
		ni->index_root_size = len;
		kfree(old);
		moved = true;
	}
cache:
	ntfs_itree_cache_update(tr);
	atomic64_set(&ni->lookup_hint, 0);
	if (moved)
		WRITE_ONCE(ni->index_gen, ni->index_gen + 1);
	i_size_write(tr->dir, ni->stream.data_size);
	return 0;
}

static void ntfs_itree_end(struct ntfs_itree *tr)
{
	if (!IS_ERR_OR_NULL(tr)) {
		while (tr->nr_held)
			ntfs_iblock_put(tr->held[--tr->nr_held]);
		kfree(tr->scratch);
		kfree(tr->owned_key);
		kvfree(tr->bm_runs);
		kfree(tr);
	}
}

/* Start a change of @dir's $I30 index; the walk will look for @key. */
static struct ntfs_itree *ntfs_itree_start(struct ntfs_trans *t, struct inode *dir,
					   const struct ntfs_i30_key *key, bool lazy)
{
	struct ntfs_inode *ni = NTFS_I(dir);
	struct ntfs_sb *sbi = NTFS_SB(dir->i_sb);
	u32 bs = ni->index_block_size;
	struct ntfs_itree *tr;
	int err;

	if (!ni->index_root || !bs)
		return ERR_PTR(-ENOTDIR);
	/* Most of it is scratch space that every use writes first. */
	tr = kmalloc(sizeof(*tr), GFP_NOFS);
	if (!tr)
		return ERR_PTR(-ENOMEM);
	memset(tr, 0, offsetof(struct ntfs_itree, nr_changed));
	tr->nr_changed = 0;
	tr->scratch = NULL;
	tr->t = t;
	tr->dir = dir;
	tr->ni = ni;
	tr->sbi = sbi;
	tr->name = ntfs_i30;
	tr->name_len = ARRAY_SIZE(ntfs_i30);
	tr->cmp = ntfs_i30_cmp;
	tr->key_ok = ntfs_i30_key_ok;
	tr->key = key;
	tr->min_key = sizeof(struct ntfs_file_name);
	tr->shift = bs >= sbi->cluster_size ? sbi->cluster_bits : 9;
	/* Splits need room for three of the longest entries in a block. */
	if (ntfs_itree_block_cap(tr) < 3 * NTFS_IE_MAX) {
		kfree(tr);
		return ERR_PTR(-EOPNOTSUPP);
	}
	/* $I30: the record is read when the change needs it. */
	tr->lazy = lazy;
	if (lazy)
		return tr;
	tr->rec = ntfs_trans_record(t, ni->record);
	if (IS_ERR(tr->rec)) {
		int err = PTR_ERR(tr->rec);

		ntfs_itree_end(tr);
		return ERR_PTR(err);
	}
	err = ntfs_itree_bring_home(tr);
	if (err) {
		ntfs_itree_end(tr);
		return ERR_PTR(err);
	}
	return tr;
}

/*
 * Start a change of @dir's $I30 index for the entry of $FILE_NAME @fn (its
 * name fits, so its key is what it says); ntfs_itree_end() frees the key.
 */
static struct ntfs_itree *ntfs_i30_open(struct ntfs_trans *t, struct inode *dir,
					const struct ntfs_file_name *fn)
{
	struct ntfs_i30_key *key;
	struct ntfs_itree *tr;

	if (!fn->name_length)
		return ERR_PTR(-EINVAL);
	key = kmalloc(sizeof(*key), GFP_NOFS);
	if (!key)
		return ERR_PTR(-ENOMEM);
	ntfs_i30_key_init(key, NTFS_SB(dir->i_sb), fn);
	tr = ntfs_itree_start(t, dir, key, true);
	if (IS_ERR(tr))
		kfree(key);
	else
		tr->owned_key = key;
	return tr;
}

/**
 * ntfs_index_insert() - Add a name to a directory's index
 * @t:		the transaction
 * @dir:	the directory (i_rwsem and ni_lock held)
 * @fn:		the $FILE_NAME: the key, sizeof(*fn) + 2 * name_length bytes
 * @ref:	the file reference of the named file
 *
 * The entry goes to its place in the collation; a full node splits, a
 * full root moves into a new index block (creating $INDEX_ALLOCATION:$I30
 * and $BITMAP:$I30 when the directory has none).
 *
 * Return: 0, -EEXIST for a name the index has in the same namespace,
 * -ENOSPC, -ENOMEM, -EIO for a damaged index, -EOPNOTSUPP for an index
 * whose $BITMAP is non-resident or whose blocks are too small.
 */
int ntfs_index_insert(struct ntfs_trans *t, struct inode *dir,
		      const struct ntfs_file_name *fn, u64 ref)
{
	u32 klen = sizeof(*fn) + 2 * fn->name_length;
	struct ntfs_itree *tr = ntfs_i30_open(t, dir, fn);
	int err = PTR_ERR_OR_ZERO(tr);
	struct ntfs_index_entry *e;

	if (!err)
		err = ntfs_itree_walk(tr);
	if (err > 0)
		err = -EEXIST;
	if (!err) {
		e = IT_ENT(tr, IT_KEY);
		memset(e, 0, NTFS_IE_MAX);
		e->ref = cpu_to_le64(ref);
		e->length = cpu_to_le16(ALIGN(NTFS_IE_HDR + klen, 8));
		e->key_length = cpu_to_le16(klen);
		memcpy(e + 1, fn, klen);
		err = ntfs_itree_insert_at(tr, tr->depth, e);
	}
	if (!err)
		err = ntfs_itree_finish(tr, true);
	ntfs_itree_end(tr);
	return err;
}

/* Walk to the entry of @tr's key; -ENOENT unless it is there with @ref. */
static int ntfs_itree_find_ref(struct ntfs_itree *tr, u64 ref)
{
	int err = ntfs_itree_walk(tr);
	const struct ntfs_index_entry *e;

	if (err <= 0)
		return err ? err : -ENOENT;
	e = ntfs_ix_at(tr->lvl[tr->depth].h, tr->lvl[tr->depth].ofs);
	return le64_to_cpu(e->ref) == ref ? 0 : -ENOENT;
}

/*
 * Walk to the entry to delete: @tr's key with reference @ref when @by_ref
 * ($I30 names), else the key alone (views).  0 when found, -ENOENT.
 */
static int ntfs_itree_locate(struct ntfs_itree *tr, bool by_ref, u64 ref)
{
	int err;

	if (by_ref)
		return ntfs_itree_find_ref(tr, ref);
	err = ntfs_itree_walk(tr);
	return err == 1 ? 0 : err ? err : -ENOENT;
}

/*
 * Delete the entry ntfs_itree_locate() finds, then shrink the tree and
 * end the change.  Each empty leaf met on the way is fixed before the
 * next try: bounded by the depth.
 */
static int ntfs_itree_delete(struct ntfs_itree *tr, bool by_ref, u64 ref)
{
	int err = 0, tries;

	for (tries = 0; !err; tries++) {
		if (tries > NTFS_MAX_INDEX_DEPTH) {
			err = ntfs_itree_bad(tr, "empty index blocks that cannot be merged");
			break;
		}
		err = ntfs_itree_locate(tr, by_ref, ref);
		if (!err)
			err = ntfs_itree_delete_found(tr);
		if (err != 1)
			break;
		err = 0;
	}
	if (!err)
		err = ntfs_itree_collapse(tr);
	if (!err)
		err = ntfs_itree_finish(tr, true);
	return err;
}

/**
 * ntfs_index_delete() - Remove a name from a directory's index
 * @t:		the transaction
 * @dir:	the directory (i_rwsem and ni_lock held)
 * @fn:		the $FILE_NAME of the entry (name and namespace are the key)
 * @ref:	the file reference the entry must have
 *
 * Nodes left small merge with a sibling; a tree that fits in the base
 * record again moves back into the root.  Freed index blocks have their
 * bit cleared in $BITMAP:$I30; the clusters stay allocated.
 *
 * Return: 0, -ENOENT when no entry has that key and reference, -ENOMEM,
 * -EIO for a damaged index.
 */
int ntfs_index_delete(struct ntfs_trans *t, struct inode *dir,
		      const struct ntfs_file_name *fn, u64 ref)
{
	struct ntfs_itree *tr = ntfs_i30_open(t, dir, fn);
	int err = IS_ERR(tr) ? PTR_ERR(tr) : ntfs_itree_delete(tr, true, ref);

	ntfs_itree_end(tr);
	return err;
}

/**
 * ntfs_index_update() - Rewrite the $FILE_NAME copy of an entry in place
 * @t:		the transaction
 * @dir:	the directory (i_rwsem and ni_lock held)
 * @fn:		the new $FILE_NAME (sizes, times, attributes); same name
 * @ref:	the file reference the entry must have
 *
 * Return: 0, -ENOENT, -ENOMEM, -EIO.
 */
int ntfs_index_update(struct ntfs_trans *t, struct inode *dir,
		      const struct ntfs_file_name *fn, u64 ref)
{
	u32 klen = sizeof(*fn) + 2 * fn->name_length;
	struct ntfs_itree *tr = ntfs_i30_open(t, dir, fn);
	int err = PTR_ERR_OR_ZERO(tr);
	struct ntfs_index_entry *e;

	if (!err)
		err = ntfs_itree_find_ref(tr, ref);
	if (!err)
		err = ntfs_itree_own(tr, tr->lvl[tr->depth].vcn, NULL);
	if (!err) {
		e = ntfs_ix_at(tr->lvl[tr->depth].h, tr->lvl[tr->depth].ofs);
		memcpy(e + 1, fn, klen);
		ntfs_itree_changed(tr, tr->lvl[tr->depth].vcn);
		err = ntfs_itree_finish(tr, false);
	}
	ntfs_itree_end(tr);
	return err;
}

/**
 * ntfs_index_forget() - Undo the read path's view of an aborted index change
 * @dir:	the directory (i_rwsem and ni_lock held)
 *
 * An insert or delete updates the copy of the root, the block cache and
 * the generation as it completes; when the transaction is aborted after
 * that, the caller calls this: the root is read again from the base
 * record (the aborted transaction never wrote it), the directory's cached
 * blocks are dropped (the page cache still holds the old ones) and
 * readdir cursors re-seek.  The directory's stream sizes are attrib.c's.
 *
 * Return: 0, -ENOMEM, -EIO.
 */
int ntfs_index_forget(struct inode *dir)
{
	struct ntfs_sb *sbi = NTFS_SB(dir->i_sb);
	struct ntfs_inode *ni = NTFS_I(dir);
	struct ntfs_attr *a;
	void *rec, *copy = NULL;
	u32 len = 0;
	int err;

	ntfs_iblock_drop_dir(sbi, ni);
	atomic64_set(&ni->lookup_hint, 0);
	WRITE_ONCE(ni->index_gen, ni->index_gen + 1);
	rec = kmalloc(sbi->record_size, GFP_NOFS);
	if (!rec)
		return -ENOMEM;
	err = ntfs_read_record(sbi, ni->record, rec);
	a = err ? NULL : ntfs_rec_find(rec, NTFS_AT_INDEX_ROOT, ntfs_i30, ARRAY_SIZE(ntfs_i30));
	if (!err && (!a || a->non_resident ||
		     le32_to_cpu(a->r.value_length) < sizeof(struct ntfs_index_root)))
		err = ntfs_index_bad(ni, "no resident $INDEX_ROOT:$I30 in the base record");
	if (!err) {
		len = le32_to_cpu(a->r.value_length);
		copy = kmemdup(ntfs_attr_value(a, 0), len, GFP_NOFS);
		if (!copy)
			err = -ENOMEM;
	}
	if (!err) {
		kfree(ni->index_root);
		ni->index_root = copy;
		ni->index_root_size = len;
	}
	kfree(rec);
	return err;
}

/**
 * ntfs_index_is_empty() - Whether a directory has no entries (for rmdir)
 * @dir:	the directory
 *
 * Return: 1 when empty, 0 when not, or an errno.
 */
int ntfs_index_is_empty(struct inode *dir)
{
	struct ntfs_inode *ni = NTFS_I(dir);
	struct ntfs_index_cursor *c;
	const struct ntfs_index_entry *e;

	if (!ni->index_root)
		return -ENOTDIR;
	c = kzalloc(sizeof(*c), GFP_NOFS);
	if (!c)
		return -ENOMEM;
	ntfs_index_cursor_init(c);
	e = ntfs_index_cursor_next(ni, c);
	ntfs_index_cursor_reset(c);
	kfree(c);
	if (IS_ERR(e))
		return PTR_ERR(e);
	return !e;
}

/* ---- view indexes: $R of $Extend\$Reparse, $SII and $SDH of $Secure ------ */

/**
 * ntfs_ulongs_cmp() - Compare a key with an entry's as little-endian u32s
 * @key:	the key
 * @e:		the entry
 * @len:	bytes of the keys, a multiple of 4
 *
 * The collations of view indexes whose keys are numbers: ULONG (one
 * word: $SII), SECURITY_HASH (hash, then id: $SDH), ULONGS (any number:
 * $R, $O) all compare word by word in order.
 *
 * Return: <0, 0 or >0 as @key sorts before, with or after @e's key.
 */
int ntfs_ulongs_cmp(const void *key, const struct ntfs_index_entry *e, u32 len)
{
	const u8 *a = key, *b = (const u8 *)(e + 1);
	u32 i;

	for (i = 0; i + 4 <= len; i += 4) {
		u32 x = get_unaligned_le32(a + i), y = get_unaligned_le32(b + i);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* The keys of a view index have one length, checked by ntfs_ix_check(). */
static bool ntfs_view_key_ok(const struct ntfs_index_entry *e)
{
	return true;
}

/*
 * Start a change of view index @v of @ix, an inode set up as a directory's
 * is for the core (index root copy, block size, stream of the allocation
 * named @v->name, base record); the walk will look for @key.
 */
static struct ntfs_itree *ntfs_view_start(struct ntfs_trans *t, struct inode *ix,
					  const struct ntfs_view *v, const void *key)
{
	struct ntfs_itree *tr = ntfs_itree_start(t, ix, NULL, false);

	if (IS_ERR(tr))
		return tr;
	tr->name = v->name;
	tr->name_len = v->name_len;
	tr->cmp = v->cmp;
	tr->key_ok = ntfs_view_key_ok;
	tr->key = key;
	tr->min_key = v->key_len;
	return tr;
}

/**
 * ntfs_view_insert() - Add a key and its data to a view index
 * @t:		the transaction
 * @ix:		the index's inode (its ni_lock held)
 * @v:		the index
 * @key:	the key, @v->key_len bytes
 * @data:	the entry's data, or NULL
 * @data_len:	its bytes (0 without)
 *
 * The data follows the key; the entry is padded to 8 bytes with zeros,
 * which its data length does not count.  Without data the data offset
 * points just past the key, as Windows writes such entries.
 *
 * Return: 0, -EEXIST, -ENOSPC, -ENOMEM, -EIO, -EOPNOTSUPP (see
 * ntfs_index_insert()); -EINVAL for an entry too long.
 */
int ntfs_view_insert(struct ntfs_trans *t, struct inode *ix, const struct ntfs_view *v,
		     const void *key, const void *data, u16 data_len)
{
	struct ntfs_itree *tr;
	struct ntfs_index_entry *e;
	int err;

	if (ALIGN(NTFS_IE_HDR + v->key_len + data_len, 8) > NTFS_IE_MAX)
		return -EINVAL;
	tr = ntfs_view_start(t, ix, v, key);
	err = PTR_ERR_OR_ZERO(tr);
	if (!err)
		err = ntfs_itree_walk(tr);
	if (err > 0)
		err = -EEXIST;
	if (!err) {
		e = IT_ENT(tr, IT_KEY);
		memset(e, 0, NTFS_IE_MAX);
		e->view.data_offset = cpu_to_le16(NTFS_IE_HDR + v->key_len);
		e->view.data_length = cpu_to_le16(data_len);
		e->length = cpu_to_le16(ALIGN(NTFS_IE_HDR + v->key_len + data_len, 8));
		e->key_length = cpu_to_le16(v->key_len);
		memcpy(e + 1, key, v->key_len);
		if (data_len)
			memcpy((u8 *)(e + 1) + v->key_len, data, data_len);
		err = ntfs_itree_insert_at(tr, tr->depth, e);
	}
	if (!err)
		err = ntfs_itree_finish(tr, true);
	ntfs_itree_end(tr);
	return err;
}

/**
 * ntfs_view_delete() - Remove a key from a view index
 * @t:		the transaction
 * @ix:		the index's inode (its ni_lock held)
 * @v:		the index
 * @key:	the key, @v->key_len bytes
 *
 * Return: 0, -ENOENT when the index does not have the key, -ENOMEM, -EIO.
 */
int ntfs_view_delete(struct ntfs_trans *t, struct inode *ix, const struct ntfs_view *v,
		     const void *key)
{
	struct ntfs_itree *tr = ntfs_view_start(t, ix, v, key);
	int err = IS_ERR(tr) ? PTR_ERR(tr) : ntfs_itree_delete(tr, false, 0);

	ntfs_itree_end(tr);
	return err;
}

/**
 * ntfs_view_update() - Rewrite the data of a view index entry in place
 * @t:		the transaction
 * @ix:		the index's inode (its ni_lock held)
 * @v:		the index
 * @key:	the entry's key, @v->key_len bytes
 * @edit:	called with the entry's data (in the transaction's copy of
 *		its node) and its length; changes it and returns 1, or
 *		returns 0 to leave it as it is, or a negative errno
 * @arg:	passed to @edit
 *
 * The entry keeps its length: only bytes inside its data change, so no
 * node is split or merged.  A node the edit leaves alone is not written.
 *
 * Return: what @edit returned (0 or 1), -ENOENT when the index does not
 * have the key, -ENOMEM, -EIO for a damaged index or an entry whose data
 * runs past it.
 */
int ntfs_view_update(struct ntfs_trans *t, struct inode *ix, const struct ntfs_view *v,
		     const void *key, int (*edit)(void *data, u32 len, void *arg), void *arg)
{
	struct ntfs_itree *tr = ntfs_view_start(t, ix, v, key);
	int err = IS_ERR(tr) ? PTR_ERR(tr) : ntfs_itree_locate(tr, false, 0);
	struct ntfs_itree_lvl *l;
	struct ntfs_index_entry *e;
	u32 ofs, len, end;

	if (err)
		goto out;
	l = &tr->lvl[tr->depth];
	/* Views are walked in the transaction's copies: owning them reads nothing. */
	err = ntfs_itree_own(tr, l->vcn, NULL);
	if (err)
		goto out;
	e = ntfs_ix_at(l->h, l->ofs);
	ofs = le16_to_cpu(e->view.data_offset);
	len = le16_to_cpu(e->view.data_length);
	end = ntfs_ie_len(e) - (ntfs_ie_has_child(e) ? 8 : 0);
	if (ofs < NTFS_IE_HDR + le16_to_cpu(e->key_length) || ofs > end || len > end - ofs) {
		err = ntfs_itree_bad(tr, "a view entry's data runs past the entry");
		goto out;
	}
	err = edit((u8 *)e + ofs, len, arg);
	if (err > 0) {
		ntfs_itree_changed(tr, l->vcn);
		err = ntfs_itree_finish(tr, false);
		if (!err)
			err = 1;
	}
out:
	ntfs_itree_end(tr);
	return err;
}
