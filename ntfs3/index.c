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
#include <linux/xarray.h>

#include "ntfs3.h"

/*
 * An index block read and fixed up.  Lookups walk the same few blocks of a
 * directory over and over (the upper levels on every lookup, a leaf for
 * the run of names that ls -l or find stats right after readdir returned
 * them), so fixed-up blocks are shared through a small per-volume cache
 * instead of being copied and checked again for every lookup.  The volume
 * is read-only: a cached block can never go stale.
 */
struct ntfs_iblock {
	refcount_t ref;
	u64 record;			/* the directory's MFT record */
	u16 seq;			/* and its sequence number */
	u32 size;			/* bytes in @data: part of the key */
	u64 vcn;
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

/*
 * Scan @node for @key: the first entry not below it (or the end marker)
 * at *@ofs; *@cmp is 0 when it is @key's entry.  Returns the entry or NULL
 * when the node is damaged.
 */
static const struct ntfs_index_entry *ntfs_node_find(const struct ntfs_sb *sbi,
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
