// SPDX-License-Identifier: GPL-2.0
/*
 * Transactions: the one way metadata changes.  A transaction holds the
 * blocks it changes (MFT records, index blocks, clusters of a small value
 * without a page cache) as fixed-up copies and writes them into their
 * streams' page caches (the clusters: to the volume) only at commit,
 * together with $MFTMirr; cluster and record bits it takes are given back by abort,
 * bits it frees are released at commit (docs/design/ntfs3.md, "Writing").
 * Journaling, when it comes, goes into ntfs_trans_commit() alone.
 */

#include <linux/blkdev.h>
#include <linux/list_sort.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/unaligned.h>

#include "ntfs3.h"

/**
 * ntfs_trans_begin() - Start a transaction
 * @sbi:	the volume
 * @t:		the transaction, on the caller's stack
 *
 * Takes @sbi->trans_rwsem for read (freeze, remount-ro and unmount take
 * it for write to wait for every transaction) and enters a NOFS
 * allocation scope: nothing allocated under a transaction may recurse into
 * the file system.  The first transaction of a mount puts the dirty flag
 * on the volume, on disk, before anything else changes.
 *
 * Return: 0; -EROFS on a read-only volume, -EIO on a shut-down one; the
 * error of writing the dirty flag.
 */
int ntfs_trans_begin(struct ntfs_sb *sbi, struct ntfs_trans *t)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->sbi = sbi;
	INIT_LIST_HEAD(&t->blocks);
	if (READ_ONCE(sbi->shutdown))
		return -EIO;
	if (sb_rdonly(sbi->sb))
		return -EROFS;
	down_read(&sbi->trans_rwsem);
	t->nofs = memalloc_nofs_save();
	t->active = true;
	if (!READ_ONCE(sbi->volume_dirtied)) {
		err = ntfs_volume_mark_dirty(sbi);
		if (err) {
			ntfs_trans_abort(t);
			return err;
		}
	}
	return 0;
}

static struct ntfs_tblock *ntfs_trans_find(struct ntfs_trans *t, struct inode *inode, u64 pos)
{
	struct ntfs_tblock *b;

	list_for_each_entry(b, &t->blocks, link)
		if (b->inode == inode && b->pos == pos)
			return b;
	return NULL;
}

/* A block of @size bytes at @pos of @inode; @buf, when given, becomes its own. */
static struct ntfs_tblock *ntfs_tblock_new(struct ntfs_trans *t, struct inode *inode,
					   u64 pos, u32 size, void *buf)
{
	struct ntfs_tblock *b = kzalloc(sizeof(*b), GFP_NOFS);

	if (!b) {
		kfree(buf);
		return NULL;
	}
	b->buf = buf ? buf : kmalloc(size, GFP_NOFS);
	if (!b->buf) {
		kfree(b);
		return NULL;
	}
	b->inode = inode;
	b->pos = pos;
	b->size = size;
	return b;
}

static struct ntfs_tblock *ntfs_tblock_alloc(struct ntfs_trans *t, struct inode *inode,
					     u64 pos, u32 size)
{
	return ntfs_tblock_new(t, inode, pos, size, NULL);
}

static void ntfs_tblock_free(struct ntfs_tblock *b)
{
	if (b->give_back)
		b->give_back(b);
	else
		kfree(b->buf);
	kfree(b->pre);
	kfree(b);
}

/*
 * Keep the pre-image of an MFT record read from disk (a new one has none):
 * its bytes in use only, checked by ntfs_read_record().  What lies past
 * them means nothing, so a record whose bytes in use are the same is
 * the same record.
 */
static int ntfs_tblock_keep_pre(struct ntfs_tblock *b)
{
	const struct ntfs_record *r = b->buf;

	b->pre_len = min(le32_to_cpu(r->bytes_in_use), b->size);
	b->pre = kmemdup(b->buf, b->pre_len, GFP_NOFS);
	return b->pre ? 0 : -ENOMEM;
}

/*
 * The transaction's copy of MFT record @nr, on the first call taken from
 * the record cache (it was checked when it was read) or read.
 */
static struct ntfs_tblock *ntfs_trans_get_record(struct ntfs_trans *t, u64 nr, bool keep_pre)
{
	struct ntfs_sb *sbi = t->sbi;
	u64 pos = nr << sbi->record_bits;
	struct ntfs_tblock *b = ntfs_trans_find(t, sbi->mft, pos);
	void *kept;
	u64 gen;
	int err = 0;

	if (b && b->peek) {
		/* A record only looked at so far: it may change from now on. */
		b->peek = false;
		err = keep_pre ? ntfs_tblock_keep_pre(b) : 0;
		if (err)
			return ERR_PTR(err);
	}
	if (b)
		return b;
	gen = ntfs_rcache_gen(sbi);
	kept = ntfs_rcache_take(sbi, nr);
	b = ntfs_tblock_new(t, sbi->mft, pos, sbi->record_size, kept);
	if (!b)
		return ERR_PTR(-ENOMEM);
	b->nr = nr;
	b->gen = gen;
	b->magic = NTFS_MAGIC_FILE;
	err = kept ? 0 : ntfs_read_record(sbi, nr, b->buf);
	if (!err)
		b->disk_used = le32_to_cpu(((struct ntfs_record *)b->buf)->bytes_in_use);
	if (!err && keep_pre)
		err = ntfs_tblock_keep_pre(b);
	if (err) {
		ntfs_tblock_free(b);
		return ERR_PTR(err);
	}
	list_add_tail(&b->link, &t->blocks);
	return b;
}

/**
 * ntfs_trans_record() - An MFT record, to be changed in a transaction
 * @t:		the transaction
 * @nr:		record number
 *
 * The first call reads and checks the record; later calls for the same
 * record return the same copy.  The copy is written back at commit if it
 * changed.
 *
 * Return: the record with its fixups removed, or an ERR_PTR().
 */
struct ntfs_record *ntfs_trans_record(struct ntfs_trans *t, u64 nr)
{
	struct ntfs_tblock *b = ntfs_trans_get_record(t, nr, true);

	return IS_ERR(b) ? ERR_CAST(b) : b->buf;
}

/**
 * ntfs_trans_record_changed() - An MFT record the transaction will change
 * @t:		the transaction
 * @nr:		record number
 *
 * As ntfs_trans_record(), for a caller that changes the record whatever
 * it holds (a name removed, times set, the record freed): the record is
 * written at commit without keeping a pre-image to compare it with, which
 * would cost a copy now and a compare then.
 *
 * Return: the record with its fixups removed, or an ERR_PTR().
 */
struct ntfs_record *ntfs_trans_record_changed(struct ntfs_trans *t, u64 nr)
{
	struct ntfs_tblock *b = ntfs_trans_get_record(t, nr, false);

	if (IS_ERR(b))
		return ERR_CAST(b);
	kfree(b->pre);
	b->pre = NULL;
	b->tracked = true;
	b->dirty = true;
	return b->buf;
}

/**
 * ntfs_trans_record_peek() - An MFT record the transaction may only read
 * @t:		the transaction
 * @nr:		record number
 *
 * As ntfs_trans_record(), for a caller that will most likely not change
 * the record (the last name of a file removed: the record itself goes at
 * eviction): no pre-image is kept and the record is not written at
 * commit, which hands the copy back to the record cache instead.  A
 * caller that decides to change it after all asks again with
 * ntfs_trans_record() or ntfs_trans_record_changed() first (the same copy).
 *
 * Return: the record with its fixups removed, or an ERR_PTR().
 */
struct ntfs_record *ntfs_trans_record_peek(struct ntfs_trans *t, u64 nr)
{
	struct ntfs_sb *sbi = t->sbi;
	bool known = ntfs_trans_find(t, sbi->mft, nr << sbi->record_bits);
	struct ntfs_tblock *b = ntfs_trans_get_record(t, nr, false);

	if (IS_ERR(b))
		return ERR_CAST(b);
	/* A record the transaction already had stays as it was. */
	if (!known)
		b->peek = true;
	return b->buf;
}

/**
 * ntfs_trans_record_head() - Only the header of a record changes
 * @t:		the transaction
 * @nr:		record number, already in @t
 *
 * For a record being freed (its flags and sequence number change, its
 * attributes stay as they are and nothing changes them after): commit
 * writes its header and update sequence array and the last two bytes of
 * every 512, not the attributes, which the page cache already holds
 * (the transaction's copy came from it or from the record cache).
 */
void ntfs_trans_record_head(struct ntfs_trans *t, u64 nr)
{
	struct ntfs_sb *sbi = t->sbi;
	struct ntfs_tblock *b = ntfs_trans_find(t, sbi->mft, nr << sbi->record_bits);
	const struct ntfs_record *r;
	u32 head;

	if (!b || !b->disk_used)
		return;
	r = b->buf;
	head = le16_to_cpu(r->usa.usa_offset) + 2 * le16_to_cpu(r->usa.usa_count);
	head = round_up(max_t(u32, head, sizeof(*r)), 8);
	if (head < b->size)
		b->head = head;
}

/*
 * The update sequence number to continue from: the one of the block on
 * disk when it is intact, so that a torn write of the new block can never
 * look whole with the old number.
 */
static u16 ntfs_old_usn(const void *old, u32 size, u32 magic)
{
	const struct ntfs_usa_header *h = old;
	u32 ofs = le16_to_cpu(h->usa_offset);

	if (le32_to_cpu(h->magic) != magic || ofs + 2 > size)
		return 0;
	return get_unaligned_le16(old + ofs);
}

/* Set up the update sequence array of a new block starting at @usa_ofs. */
static u32 ntfs_init_usa(void *buf, u32 size, u32 magic, u32 usa_ofs, u16 usn)
{
	struct ntfs_usa_header *h = buf;
	u32 count = size / NTFS_USA_STRIDE + 1;

	h->magic = cpu_to_le32(magic);
	h->usa_offset = cpu_to_le16(usa_ofs);
	h->usa_count = cpu_to_le16(count);
	put_unaligned_le16(usn, buf + usa_ofs);
	return ALIGN(usa_ofs + 2 * count, 8);
}

/**
 * ntfs_format_record() - An MFT record with no attributes
 * @sbi:	the volume
 * @buf:	@sbi->record_size bytes
 * @nr:		its record number
 * @seq:	its sequence number
 * @usn:	its update sequence number (0 is taken as 1)
 * @in_use:	a file's new record, else a free one
 *
 * The record is left with its fixups removed, as a transaction holds it.
 */
void ntfs_format_record(struct ntfs_sb *sbi, void *buf, u64 nr, u16 seq, u16 usn, bool in_use)
{
	struct ntfs_record *r = buf;
	u32 size = sbi->record_size, first;

	memset(buf, 0, size);
	first = ntfs_init_usa(buf, size, NTFS_MAGIC_FILE, sizeof(*r), usn ? usn : 1);
	r->sequence = cpu_to_le16(seq);
	r->attrs_offset = cpu_to_le16(first);
	r->flags = cpu_to_le16(in_use ? NTFS_RECORD_IN_USE : 0);
	r->bytes_in_use = cpu_to_le32(first + 8);
	r->bytes_allocated = cpu_to_le32(size);
	r->record_number = cpu_to_le32(lower_32_bits(nr));
	*(__le32 *)((u8 *)r + first) = cpu_to_le32(NTFS_AT_END);
}

/**
 * ntfs_record_room() - Bytes of attributes a new, empty MFT record holds
 * @sbi:	the volume
 *
 * What ntfs_format_record() leaves between its header (with the update
 * sequence array) and the end marker.
 *
 * Return: the bytes.
 */
u32 ntfs_record_room(struct ntfs_sb *sbi)
{
	u32 size = sbi->record_size;
	u32 first = ALIGN(sizeof(struct ntfs_record) + 2 * (size / NTFS_USA_STRIDE + 1), 8);

	return size - first - 8;
}

/**
 * ntfs_trans_new_record() - Format a just-allocated MFT record
 * @t:		the transaction
 * @nr:		record number, taken from $MFT:$BITMAP by ntfs_alloc_record()
 *
 * The record gets the sequence number the old one left (advanced when it
 * was freed; 0 becomes 1), the in-use flag, no attributes and no links.
 *
 * Return: the record with its fixups removed, or an ERR_PTR().
 */
struct ntfs_record *ntfs_trans_new_record(struct ntfs_trans *t, u64 nr)
{
	struct ntfs_sb *sbi = t->sbi;
	u32 size = sbi->record_size;
	struct ntfs_tblock *b;
	struct ntfs_record *r;
	u16 seq = 1, usn;
	int err;

	if (nr >= sbi->mft_records || ntfs_trans_find(t, sbi->mft, nr << sbi->record_bits))
		return ERR_PTR(-EIO);
	b = ntfs_tblock_alloc(t, sbi->mft, nr << sbi->record_bits, size);
	if (!b)
		return ERR_PTR(-ENOMEM);
	b->nr = nr;
	b->magic = NTFS_MAGIC_FILE;
	err = ntfs_read_stream(sbi->mft, b->pos, b->buf, size);
	if (err) {
		ntfs_tblock_free(b);
		return ERR_PTR(err);
	}
	usn = ntfs_old_usn(b->buf, size, NTFS_MAGIC_FILE) + 1;
	r = b->buf;
	if (!ntfs_fixup(b->buf, size, NTFS_MAGIC_FILE)) {
		if (le16_to_cpu(r->sequence))
			seq = le16_to_cpu(r->sequence);
		/* Past the old bytes in use the disk holds nothing either. */
		b->disk_used = le32_to_cpu(r->bytes_in_use);
	}
	ntfs_format_record(sbi, b->buf, nr, seq, usn, true);
	list_add_tail(&b->link, &t->blocks);
	return r;
}

/* Byte offset of index block @vcn of a directory; see ntfs_iblock_pos(). */
static int ntfs_trans_iblock_pos(struct ntfs_sb *sbi, struct ntfs_inode *ni, u64 vcn,
				 u64 *pos)
{
	u32 bs = ni->index_block_size;
	u8 shift = bs >= sbi->cluster_size ? sbi->cluster_bits : 9;

	if (!bs || check_shl_overflow(vcn, shift, pos) || *pos > ni->stream.data_size ||
	    ni->stream.data_size - *pos < bs)
		return -EIO;
	return 0;
}

/* Bytes of index block @buf in use: its header and entries. */
static u32 ntfs_iblock_used(const void *buf)
{
	const struct ntfs_index_block *ib = buf;

	return offsetof(struct ntfs_index_block, hdr) + le32_to_cpu(ib->hdr.index_length);
}

static void ntfs_init_iblock(struct ntfs_tblock *b, u64 vcn, u16 usn)
{
	struct ntfs_index_block *ib = b->buf;
	u32 first;

	memset(b->buf, 0, b->size);
	first = ntfs_init_usa(b->buf, b->size, NTFS_MAGIC_INDX, sizeof(*ib), usn ? usn : 1);
	ib->vcn = cpu_to_le64(vcn);
	ib->hdr.entries_offset = cpu_to_le32(first - offsetof(struct ntfs_index_block, hdr));
	ib->hdr.index_length = ib->hdr.entries_offset;
	ib->hdr.allocated_size = cpu_to_le32(b->size - offsetof(struct ntfs_index_block, hdr));
}

/*
 * Read block @b of a directory's index for a change and check it.  A walk
 * reads every block on its path but changes few of them: instead of a
 * pre-image to compare at commit (a copy and a compare of the whole block
 * each), the block is tracked, and index.c marks the ones it changes with
 * ntfs_trans_iblock_dirty().
 */
static int ntfs_trans_read_iblock(struct ntfs_sb *sbi, struct ntfs_inode *ni,
				  struct ntfs_tblock *b, u64 vcn)
{
	const struct ntfs_index_block *ib = b->buf;
	int err = ntfs_read_stream(&ni->vfs_inode, b->pos, b->buf, b->size);

	if (err)
		return err;
	if (ntfs_fixup(b->buf, b->size, NTFS_MAGIC_INDX) || le64_to_cpu(ib->vcn) != vcn)
		return ntfs_err_ratelimited(sbi->sb, ni->record,
					    "$I30 index: block %llu is damaged", vcn);
	b->tracked = true;
	b->disk_used = ntfs_iblock_used(b->buf);
	return 0;
}

/**
 * ntfs_trans_iblock() - An index block of a directory, to be changed
 * @t:		the transaction
 * @dir:	the directory (its stream is $INDEX_ALLOCATION:$I30)
 * @vcn:	the block's VCN, inside the allocation
 * @create:	format a new empty block (header and update sequence set, no
 *		entries, not even the end entry) instead of reading it
 *
 * Return: the block with its fixups removed, or an ERR_PTR().
 */
void *ntfs_trans_iblock(struct ntfs_trans *t, struct inode *dir, u64 vcn, bool create)
{
	struct ntfs_sb *sbi = t->sbi;
	struct ntfs_inode *ni = NTFS_I(dir);
	struct ntfs_tblock *b;
	u64 pos;
	int err;

	if (ntfs_trans_iblock_pos(sbi, ni, vcn, &pos))
		return ERR_PTR(ntfs_err_ratelimited(dir->i_sb, ni->record,
						    "$I30 index: block %llu outside the allocation",
						    vcn));
	b = ntfs_trans_find(t, dir, pos);
	if (b && create) {
		ntfs_init_iblock(b, vcn, ntfs_old_usn(b->buf, b->size, NTFS_MAGIC_INDX) + 1);
		b->dirty = true;
	}
	if (b)
		return b->buf;
	b = ntfs_tblock_alloc(t, dir, pos, ni->index_block_size);
	if (!b)
		return ERR_PTR(-ENOMEM);
	b->nr = vcn;
	b->magic = NTFS_MAGIC_INDX;
	if (create) {
		/* Whatever the disk holds there is garbage; its USN is a hint only. */
		err = ntfs_read_stream(dir, pos, b->buf, b->size);
		if (!err)
			ntfs_init_iblock(b, vcn,
					 ntfs_old_usn(b->buf, b->size, NTFS_MAGIC_INDX) + 1);
		b->dirty = true;
	} else {
		err = ntfs_trans_read_iblock(sbi, ni, b, vcn);
	}
	if (err) {
		ntfs_tblock_free(b);
		return ERR_PTR(err);
	}
	list_add_tail(&b->link, &t->blocks);
	return b->buf;
}

/**
 * ntfs_trans_has_iblock() - Whether a transaction holds an index block
 * @t:		the transaction
 * @dir:	the directory
 * @vcn:	the block's VCN
 *
 * Return: true when ntfs_trans_iblock() got it in @t already.
 */
bool ntfs_trans_has_iblock(struct ntfs_trans *t, struct inode *dir, u64 vcn)
{
	u64 pos;

	return !ntfs_trans_iblock_pos(t->sbi, NTFS_I(dir), vcn, &pos) &&
	       ntfs_trans_find(t, dir, pos);
}

/**
 * ntfs_trans_iblock_lend() - Let a transaction change an index block in place
 * @t:		the transaction; it has no copy of the block yet
 * @dir:	the directory
 * @vcn:	the block's VCN, inside the allocation
 * @buf:	the block as the page cache holds it, fixed up and checked
 *		(the index block cache's copy, which readers cannot see
 *		while the directory's index changes)
 * @give_back:	called with the transaction's block when it ends, instead
 *		of freeing @buf; b->written tells whether @buf reached the
 *		page cache
 * @owner:	kept in b->owner for @give_back
 *
 * Copying the block into the transaction, and after the commit reading it
 * again into the cache, would copy the whole block twice for every change
 * of one entry.  Lent, it is changed where it is; the commit writes it
 * with the update sequence put on and taken off again in place, so that
 * @buf then holds the block as written, fixups removed.
 *
 * Return: @buf, or an ERR_PTR().
 */
void *ntfs_trans_iblock_lend(struct ntfs_trans *t, struct inode *dir, u64 vcn, void *buf,
			     void (*give_back)(struct ntfs_tblock *b), void *owner)
{
	struct ntfs_inode *ni = NTFS_I(dir);
	struct ntfs_tblock *b;
	u64 pos;

	if (ntfs_trans_iblock_pos(t->sbi, ni, vcn, &pos) || ntfs_trans_find(t, dir, pos))
		return ERR_PTR(-EIO);
	b = kzalloc(sizeof(*b), GFP_NOFS);
	if (!b)
		return ERR_PTR(-ENOMEM);
	b->inode = dir;
	b->pos = pos;
	b->size = ni->index_block_size;
	b->nr = vcn;
	b->magic = NTFS_MAGIC_INDX;
	b->buf = buf;
	b->tracked = true;
	b->disk_used = ntfs_iblock_used(buf);
	b->give_back = give_back;
	b->owner = owner;
	list_add_tail(&b->link, &t->blocks);
	return buf;
}

/**
 * ntfs_trans_iblock_dirty() - Mark an index block of a transaction changed
 * @t:		the transaction
 * @dir:	the directory (or view index) the block belongs to
 * @vcn:	the block's VCN; the block was got by ntfs_trans_iblock()
 *
 * Only marked blocks are written at commit: see ntfs_trans_read_iblock().
 *
 * Return: false when @t does not hold the block (a caller's bug: its
 * change would be lost).
 */
bool ntfs_trans_iblock_dirty(struct ntfs_trans *t, struct inode *dir, u64 vcn)
{
	struct ntfs_tblock *b;
	u64 pos;

	if (ntfs_trans_iblock_pos(t->sbi, NTFS_I(dir), vcn, &pos))
		return false;
	b = ntfs_trans_find(t, dir, pos);
	if (b)
		b->dirty = true;
	return b;
}

/**
 * ntfs_trans_cluster() - A cluster of a value without a page cache, to change
 * @t:		the transaction
 * @lcn:	the cluster, inside the volume (the caller checked it)
 * @change:	the caller changes it: it is written at commit
 *
 * For a small non-resident value that is changed in place ($BITMAP:$I30):
 * read through the buffer cache on the first call, written back through it
 * at commit, so an abort leaves the cluster as it was.  A cluster got only
 * to be read is not written.
 *
 * Return: the transaction's copy of the cluster, or an ERR_PTR(): -EIO,
 * -ENOMEM.
 */
void *ntfs_trans_cluster(struct ntfs_trans *t, u64 lcn, bool change)
{
	struct ntfs_sb *sbi = t->sbi;
	u64 pos = lcn << sbi->cluster_bits;
	struct ntfs_tblock *b = ntfs_trans_find(t, NULL, pos);
	int err;

	if (!b) {
		b = ntfs_tblock_alloc(t, NULL, pos, sbi->cluster_size);
		if (!b)
			return ERR_PTR(-ENOMEM);
		b->nr = lcn;
		b->tracked = true;
		err = ntfs_read_volume(sbi->sb, pos, b->buf, b->size);
		if (err) {
			ntfs_tblock_free(b);
			return ERR_PTR(err);
		}
		list_add_tail(&b->link, &t->blocks);
	}
	if (change)
		b->dirty = true;
	return b->buf;
}

/**
 * ntfs_trans_note_bits() - Record bits taken or to be freed
 * @t:		the transaction
 * @mft:	$MFT:$BITMAP (records) rather than $Bitmap (clusters)
 * @freed:	the bits are to be cleared at commit; else they were set now
 *		and abort clears them
 * @start:	first bit
 * @len:	number of bits
 *
 * Return: 0 or -ENOMEM.
 */
int ntfs_trans_note_bits(struct ntfs_trans *t, bool mft, bool freed, u64 start, u64 len)
{
	struct ntfs_bits *b;

	if (t->nr_bits == t->cap_bits) {
		unsigned int cap = t->cap_bits ? 2 * t->cap_bits : 8;

		b = krealloc_array(t->bits, cap, sizeof(*b), GFP_NOFS);
		if (!b)
			return -ENOMEM;
		t->bits = b;
		t->cap_bits = cap;
	}
	b = &t->bits[t->nr_bits++];
	b->start = start;
	b->len = len;
	b->mft = mft;
	b->freed = freed;
	return 0;
}

/* Tell the device that clusters are free (discard option, FITRIM). */
int ntfs_discard_clusters(struct ntfs_sb *sbi, u64 lcn, u64 len)
{
	u8 shift = sbi->cluster_bits - sbi->sb->s_blocksize_bits;

	return sb_issue_discard(sbi->sb, lcn << shift, len << shift, GFP_NOFS, 0);
}

/**
 * ntfs_bits_apply() - Set or clear a run of bits noted by a transaction
 * @sbi:	the volume
 * @b:		the run, in $Bitmap or $MFT:$BITMAP
 * @set:	set the bits, else clear them
 *
 * Keeps the free-cluster count in step.  Failing to read the bitmap here
 * leaves bits set (leaked, never doubly used) and is reported.
 */
void ntfs_bits_apply(struct ntfs_sb *sbi, const struct ntfs_bits *b, bool set)
{
	struct mutex *lock = b->mft ? &sbi->mft_lock : &sbi->bitmap_lock;
	struct inode *bm = b->mft ? sbi->mft_bitmap : sbi->bitmap;
	int err;

	mutex_lock(lock);
	err = ntfs_stream_change_bits(bm, b->start, b->len, set);
	if (!err && !b->mft && atomic64_read(&sbi->free_clusters) >= 0)
		atomic64_add(set ? -(s64)b->len : (s64)b->len, &sbi->free_clusters);
	if (!err && !b->mft && !set && sbi->opt.discard)
		ntfs_discard_clusters(sbi, b->start, b->len);
	mutex_unlock(lock);
	if (err)
		ntfs_err_ratelimited(sbi->sb, b->mft ? NTFS_MFT_INO : NTFS_BITMAP_INO,
				     "cannot update the bitmap (%d): run chkdsk", err);
}

static int ntfs_tblock_cmp(void *priv, const struct list_head *a, const struct list_head *b)
{
	const struct ntfs_tblock *x = list_entry(a, struct ntfs_tblock, link);
	const struct ntfs_tblock *y = list_entry(b, struct ntfs_tblock, link);

	/* Clusters without a stream (no inode) first. */
	if (x->inode != y->inode)
		return !x->inode || (y->inode && x->inode->i_ino < y->inode->i_ino) ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * Write one block back, update sequence applied, and its mirror copy.  A
 * block read from disk and left as it was (a walk over a file's records
 * joins them all) is not written.  The update sequence goes onto the
 * transaction's own copy: commit frees it right after (a lent block has
 * it taken off again), so a second copy of every block would be work for
 * nothing.
 */
static int ntfs_tblock_write(struct ntfs_sb *sbi, struct ntfs_tblock *b)
{
	u32 used = 0;
	int err;

	if (b->peek || (b->tracked && !b->dirty))
		return 0;
	if (b->pre && le32_to_cpu(((struct ntfs_record *)b->buf)->bytes_in_use) == b->pre_len &&
	    !memcmp(b->pre, b->buf, b->pre_len))
		return 0;
	if (!b->inode) {
		err = ntfs_write_volume(sbi->sb, b->pos, b->buf, b->size);
		b->written = !err;
		return err;
	}
	/*
	 * What the block uses, now or on disk (0: unknown, all of it): the
	 * rest means nothing, in the page cache as here.
	 */
	if (b->disk_used) {
		used = b->magic == NTFS_MAGIC_FILE ?
		       le32_to_cpu(((struct ntfs_record *)b->buf)->bytes_in_use) :
		       ntfs_iblock_used(b->buf);
		used = used > b->size ? 0 : max(used, b->disk_used);
	}
	if (!used || used > b->size)
		used = b->size;
	if (b->head && b->head < used)
		used = b->head;
	ntfs_unfixup(b->buf, b->size);
	err = ntfs_write_stream_used(b->inode, b->pos, b->buf, b->size, used);
	if (!err && b->inode == sbi->mft && b->nr < sbi->mirror_records && sbi->mftmirr)
		err = ntfs_write_stream(sbi->mftmirr, b->pos, b->buf, b->size);
	/* A lent block goes back as the block it now is: fixups removed. */
	if (b->give_back)
		ntfs_fixup(b->buf, b->size, b->magic);
	b->written = !err;
	return err;
}

/*
 * After writing MFT record @b (the record cache's count of writes was
 * @gen before it, @err the result): the record cache keeps the copy
 * written, fixups removed again, for the next transaction that changes
 * the record, or forgets the record when the page cache may hold part of
 * a failed write.
 */
static void ntfs_tblock_keep(struct ntfs_sb *sbi, struct ntfs_tblock *b, u64 gen, int err)
{
	if (!b->written) {
		if (err)
			ntfs_rcache_forget(sbi, b->nr);
		return;
	}
	if (b->give_back || ntfs_fixup(b->buf, b->size, NTFS_MAGIC_FILE)) {
		ntfs_rcache_forget(sbi, b->nr);
		return;
	}
	ntfs_rcache_keep(sbi, b->nr, b->buf, gen, true);
	b->buf = NULL;
}

static void ntfs_trans_end(struct ntfs_trans *t)
{
	struct ntfs_tblock *b, *n;

	list_for_each_entry_safe(b, n, &t->blocks, link) {
		list_del(&b->link);
		ntfs_tblock_free(b);
	}
	kfree(t->bits);
	t->bits = NULL;
	t->nr_bits = 0;
	t->cap_bits = 0;
	while (t->nr_held)
		mutex_unlock(&t->held[--t->nr_held]->ni_lock);
	memalloc_nofs_restore(t->nofs);
	up_read(&t->sbi->trans_rwsem);
	t->active = false;
}

/**
 * ntfs_trans_lock() - Hold a shared index file until the transaction ends
 * @t:		the transaction
 * @ni:		$Extend\$Reparse, $ObjId or $Quota, whose index it changes
 * @subclass:	the file's lockdep subclass
 *
 * A directory's index is kept from other changes by its i_rwsem, which
 * the VFS holds until the commit.  These indexes have no such lock, and
 * every creation or removal of a file may change them: if @ni's ni_lock
 * were dropped before the commit, a second transaction could take its
 * own copy of a block the first has changed but not yet written, and the
 * later commit would undo the earlier.  So the lock is taken once, on the
 * first change, and released by the commit or the abort, after the
 * blocks are written or dropped.
 *
 * Return: 0, or -EDEADLK when the transaction already holds as many
 * files as it can (a bug: nothing changes more than two).
 */
int ntfs_trans_lock(struct ntfs_trans *t, struct ntfs_inode *ni, unsigned int subclass)
{
	unsigned int i;

	for (i = 0; i < t->nr_held; i++)
		if (t->held[i] == ni)
			return 0;
	if (t->nr_held == ARRAY_SIZE(t->held))
		return -EDEADLK;
	mutex_lock_nested(&ni->ni_lock, subclass);
	t->held[t->nr_held++] = ni;
	return 0;
}

/**
 * ntfs_trans_commit() - Write a transaction's changes and end it
 * @t:		the transaction
 *
 * Blocks go into their page caches in ascending order, each MFT record
 * that $MFTMirr mirrors into it too; then the bits freed are released.
 * The page caches are written by writeback (the metadata flusher, sync).
 * The transaction's copies of the blocks are consumed: the caller must not
 * look at them after this (they are freed anyway).
 *
 * Return: 0, or the error of the page cache (the volume is then marked
 * for chkdsk: part of the change may be in memory).
 */
int ntfs_trans_commit(struct ntfs_trans *t)
{
	struct ntfs_sb *sbi = t->sbi;
	struct ntfs_tblock *b;
	unsigned int i;
	int err = 0;

	/*
	 * Records only read go back to the record cache before this commit's
	 * writes move its count: they still hold what the page cache holds.
	 */
	list_for_each_entry(b, &t->blocks, link) {
		if (b->peek) {
			ntfs_rcache_keep(sbi, b->nr, b->buf, b->gen, false);
			b->buf = NULL;
		}
	}
	list_sort(NULL, &t->blocks, ntfs_tblock_cmp);
	list_for_each_entry(b, &t->blocks, link) {
		u64 gen = b->inode == sbi->mft ? ntfs_rcache_gen(sbi) : 0;

		err = ntfs_tblock_write(sbi, b);
		if (b->inode == sbi->mft)
			ntfs_tblock_keep(sbi, b, gen, err);
		if (err)
			break;
	}
	for (i = 0; i < t->nr_bits; i++)
		if (t->bits[i].freed && !err)
			ntfs_bits_apply(sbi, &t->bits[i], false);
	if (err)
		ntfs_err_ratelimited(sbi->sb, 0, "writing a change failed (%d): run chkdsk", err);
	ntfs_trans_end(t);
	schedule_delayed_work(&sbi->meta_flush, 5 * HZ);
	return err;
}

/**
 * ntfs_trans_abort() - Drop a transaction's changes and end it
 * @t:		the transaction
 *
 * Nothing was written: the blocks are dropped and the bits taken are
 * given back.  In-memory copies the caller changed are its to restore.
 */
void ntfs_trans_abort(struct ntfs_trans *t)
{
	unsigned int i;

	if (!t->active)
		return;
	for (i = t->nr_bits; i-- > 0;)
		if (!t->bits[i].freed)
			ntfs_bits_apply(t->sbi, &t->bits[i], false);
	ntfs_trans_end(t);
}

/* Start writing (@wait false) or wait for a stream's page cache; @err keeps the first error. */
static void ntfs_flush_stream(struct inode *inode, bool wait, int *err)
{
	int e;

	if (!inode)
		return;
	e = wait ? filemap_fdatawait(inode->i_mapping) : filemap_fdatawrite(inode->i_mapping);
	if (!*err)
		*err = e;
}

/*
 * Every dirty metadata stream, and @dir's index when given: all writes are
 * started first, under one plug, and only then waited for, so the device
 * sees them together and the wait is one round trip, not one per stream.
 */
static int ntfs_flush_all(struct ntfs_sb *sbi, struct inode *dir, bool wait)
{
	/* Unhashed stream inodes: writeback never sees their dirty folios. */
	struct inode *streams[] = { sbi->mft, sbi->mftmirr, sbi->bitmap, sbi->mft_bitmap,
				    sbi->reparse_ix, sbi->objid_ix, dir, NULL, NULL, NULL };
	struct blk_plug plug;
	unsigned int i, n = ARRAY_SIZE(streams) - 3;
	int err = 0;

	/*
	 * $Secure's (secure.c) are replaced after a failed change: pinned
	 * here, as its lock is taken outside transactions and this may run
	 * inside the lock that keeps them out.
	 */
	spin_lock(&sbi->sds_ptr_lock);
	streams[n] = sbi->sds ? igrab(sbi->sds) : NULL;
	streams[n + 1] = sbi->sii_ix ? igrab(sbi->sii_ix) : NULL;
	streams[n + 2] = sbi->sdh_ix ? igrab(sbi->sdh_ix) : NULL;
	spin_unlock(&sbi->sds_ptr_lock);
	blk_start_plug(&plug);
	for (i = 0; i < ARRAY_SIZE(streams); i++)
		ntfs_flush_stream(streams[i], false, &err);
	blk_finish_plug(&plug);
	for (i = 0; wait && i < ARRAY_SIZE(streams); i++)
		ntfs_flush_stream(streams[i], true, &err);
	for (i = n; i < ARRAY_SIZE(streams); i++)
		iput(streams[i]);
	return err;
}

/**
 * ntfs_trans_flush() - Start writing every dirty metadata stream
 * @sbi:	the volume
 * @wait:	wait for the writes too
 *
 * Return: 0 or the first error.
 */
int ntfs_trans_flush(struct ntfs_sb *sbi, bool wait)
{
	return ntfs_flush_all(sbi, NULL, wait);
}

/**
 * ntfs_trans_flush_dir() - Write every dirty metadata stream and a directory's index
 * @sbi:	the volume
 * @dir:	the directory whose index blocks must reach the device too
 *
 * For fsync: the file's records, the bits it took and its name in @dir
 * (in @dir's record, in $MFT, or in an index block of @dir's page cache)
 * are on the device when this returns, the device's cache aside.
 *
 * Return: 0 or the first error.
 */
int ntfs_trans_flush_dir(struct ntfs_sb *sbi, struct inode *dir)
{
	return ntfs_flush_all(sbi, dir, true);
}

/**
 * ntfs_trans_fail() - Abort a transaction whose operation failed
 * @t:		the transaction
 * @err:	why it failed
 *
 * A failure that is damage on the volume (-EIO) also protects the volume
 * as errors= says: with remount-ro (the default) no further change is
 * made until a remount.
 */
void ntfs_trans_fail(struct ntfs_trans *t, int err)
{
	struct super_block *sb = t->sbi->sb;

	ntfs_trans_abort(t);
	if (err != -EIO || t->sbi->opt.errors == NTFS_ERRORS_CONTINUE || sb_rdonly(sb))
		return;
	pr_err("ntfs3 (%s): damage found while writing: remounting read-only (run chkdsk)\n",
	       sb->s_id);
	t->sbi->errors_ro = true;
	sb->s_flags |= SB_RDONLY;
}

/* ---- the volume's dirty flag ------------------------------------------- */

/* The $VOLUME_INFORMATION of record 3, in @rec (fixed up). */
static struct ntfs_volume_info *ntfs_find_volume_info(void *rec)
{
	struct ntfs_attr *a = NULL;

	while ((a = ntfs_next_attr(rec, a, NULL)) && !IS_ERR(a))
		if (le32_to_cpu(a->type) == NTFS_AT_VOLUME_INFO)
			return ntfs_attr_value(a, sizeof(struct ntfs_volume_info));
	return NULL;
}

/**
 * ntfs_volume_set_flags() - Change the $Volume flags and write them now
 * @sbi:	the volume
 * @set:	NTFS_VOLUME_* flags to set
 * @clear:	flags to clear
 *
 * Written synchronously (record 3 and its $MFTMirr copy): the dirty flag
 * must be on the disk before any other change, and off only after all.
 *
 * Return: 0 or an error.
 */
int ntfs_volume_set_flags(struct ntfs_sb *sbi, u16 set, u16 clear)
{
	u64 pos = (u64)NTFS_VOLUME_INO << sbi->record_bits;
	struct ntfs_volume_info *vi;
	void *rec;
	int err;

	rec = kmalloc(sbi->record_size, GFP_NOFS);
	if (!rec)
		return -ENOMEM;
	err = ntfs_read_record(sbi, NTFS_VOLUME_INO, rec);
	vi = err ? NULL : ntfs_find_volume_info(rec);
	if (!err && !vi)
		err = ntfs_err_ratelimited(sbi->sb, NTFS_VOLUME_INO,
					   "no $VOLUME_INFORMATION to keep the flags in");
	if (!err) {
		sbi->vol_flags = (sbi->vol_flags | set) & ~clear;
		vi->flags = cpu_to_le16(sbi->vol_flags);
		ntfs_unfixup(rec, sbi->record_size);
		err = ntfs_write_stream(sbi->mft, pos, rec, sbi->record_size);
		ntfs_rcache_forget(sbi, NTFS_VOLUME_INO);
	}
	if (!err && sbi->mftmirr && NTFS_VOLUME_INO < sbi->mirror_records)
		err = ntfs_write_stream(sbi->mftmirr, pos, rec, sbi->record_size);
	kfree(rec);
	if (!err)
		err = filemap_write_and_wait_range(sbi->mft->i_mapping, pos,
						   pos + sbi->record_size - 1);
	if (!err && sbi->mftmirr)
		err = filemap_write_and_wait_range(sbi->mftmirr->i_mapping, pos,
						   pos + sbi->record_size - 1);
	return err;
}

/*
 * Stamp $UsnJrnl:$Max with the id super.c chose and the next USN as the
 * lowest valid one: the journal misses this mount's changes (no USN
 * records are written), and its readers must see the break.  Written at
 * once, as the dirty flag is.  A journal without a resident $Max in its
 * base record is left as it is, with a message.
 */
static int ntfs_usn_stamp(struct ntfs_sb *sbi)
{
	static const __le16 max[] = { cpu_to_le16('$'), cpu_to_le16('M'), cpu_to_le16('a'),
				      cpu_to_le16('x') };
	u64 pos = sbi->usn_record << sbi->record_bits;
	struct ntfs_usn_max *m = NULL;
	struct ntfs_attr *a;
	void *rec;
	int err;

	rec = kmalloc(sbi->record_size, GFP_NOFS);
	if (!rec)
		return -ENOMEM;
	err = ntfs_read_record(sbi, sbi->usn_record, rec);
	a = err ? NULL : ntfs_rec_find(rec, NTFS_AT_DATA, max, ARRAY_SIZE(max));
	if (a && !a->non_resident)
		m = ntfs_attr_value(a, sizeof(*m));
	if (!err && !m)
		pr_warn("ntfs3 (%s): $UsnJrnl has no resident $Max: the change journal is not stamped\n",
			sbi->sb->s_id);
	if (m) {
		if (le64_to_cpu(m->journal_id) == sbi->usn_id)
			sbi->usn_id++;
		m->journal_id = cpu_to_le64(sbi->usn_id);
		m->lowest_valid_usn = cpu_to_le64(sbi->usn_next);
		ntfs_unfixup(rec, sbi->record_size);
		err = ntfs_write_stream(sbi->mft, pos, rec, sbi->record_size);
		ntfs_rcache_forget(sbi, sbi->usn_record);
		if (!err)
			err = filemap_write_and_wait_range(sbi->mft->i_mapping, pos,
							   pos + sbi->record_size - 1);
	}
	kfree(rec);
	return err;
}

/**
 * ntfs_volume_mark_dirty() - Put the dirty flag on the volume, once a mount
 * @sbi:	the volume
 *
 * Return: 0 or the error of writing it.
 */
int ntfs_volume_mark_dirty(struct ntfs_sb *sbi)
{
	int err = 0;

	mutex_lock(&sbi->mft_lock);
	if (!sbi->volume_dirtied) {
		err = ntfs_volume_set_flags(sbi, NTFS_VOLUME_DIRTY, 0);
		/* The change journal once a mount, the first time it is dirtied. */
		if (!err && sbi->usn_record) {
			err = ntfs_usn_stamp(sbi);
			if (!err)
				sbi->usn_record = 0;
		}
		if (!err)
			WRITE_ONCE(sbi->volume_dirtied, true);
		/* The quotas, in a transaction of their own (quota.c). */
		if (!err && sbi->quota_ix && !READ_ONCE(sbi->quota_done))
			queue_work(system_unbound_wq, &sbi->quota_work);
	}
	mutex_unlock(&sbi->mft_lock);
	return err;
}
