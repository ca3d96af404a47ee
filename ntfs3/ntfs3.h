/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-memory objects of the driver and the interfaces between its files,
 * grouped by the file that provides them, from the bottom layer up: a
 * file calls only files of the groups above its own.  docs/design/ntfs3.md
 * explains the objects, their lifetimes, the locking order and the layers
 * (scripts/test/ntfs3-layers.sh checks them).
 */
#ifndef _NTFS3_NTFS3_H
#define _NTFS3_NTFS3_H

#include <linux/blk_types.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/nls.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "ntfs.h"
#include "runlist.h"

#include <linux/xattr.h>

struct export_operations;
struct iomap;
struct iomap_ops;

/* Limits that keep a corrupt volume from making us allocate without bound. */
#define NTFS_MAX_ATTR_LIST	(256 * 1024)
#define NTFS_MAX_EXT_RECORDS	4096
#define NTFS_MAX_INDEX_DEPTH	32

/* VCNs and sizes on disk stay below this (2^62): larger ones are corrupt. */
#define NTFS_MAX_VCN		BIT_ULL(62)

/*
 * Pages read in one request when a metadata stream misses the page cache:
 * 128 KiB of $MFT or of a directory index (a disk reads that about as fast
 * as one page), 1 MiB of $Bitmap (read whole for the free-cluster count).
 */
#define NTFS_META_READ_AROUND	(SZ_128K / PAGE_SIZE)
#define NTFS_BITMAP_READ_AROUND	(SZ_1M / PAGE_SIZE)

/* Fixed-up directory index blocks kept per volume (see index.c). */
#define NTFS_IBLOCK_CACHE_BITS	6
#define NTFS_IBLOCK_CACHE	BIT(NTFS_IBLOCK_CACHE_BITS)

struct ntfs_iblock;

/* MFT records kept between transactions, fixups removed (see record.c). */
#define NTFS_RCACHE		8

/* One of them: record @nr, or none when @buf is NULL. */
struct ntfs_rcache_slot {
	u64			nr;
	void			*buf;
};

/**
 * ntfs_walk_step() - Let a long walk over on-disk structures yield and die
 *
 * Called once per block or record by every walk whose length an image
 * decides (index trees, $SDS, $Bitmap): a crafted volume may make such a
 * walk long, and it must neither hog the CPU nor outlive a kill.
 *
 * Return: 0, or -EINTR when the task has a fatal signal pending.
 */
static inline int ntfs_walk_step(void)
{
	cond_resched();
	return fatal_signal_pending(current) ? -EINTR : 0;
}

/* errors=: what a corruption met while writing does to the volume. */
#define NTFS_ERRORS_REMOUNT_RO	0
#define NTFS_ERRORS_CONTINUE	1

/* Mount options, as parsed. */
struct ntfs_options {
	kuid_t		uid;
	kgid_t		gid;
	umode_t		fmask;
	umode_t		dmask;
	char		*iocharset;
	unsigned int	showmeta:1;
	unsigned int	nohidden:1;
	unsigned int	hide_dot_files:1;
	unsigned int	sys_immutable:1;
	unsigned int	nocase:1;
	unsigned int	force:1;
	unsigned int	discard:1;
	unsigned int	sparse:1;
	unsigned int	prealloc:1;
	unsigned int	nodelalloc:1;	/* allocate when written to the cache */
	unsigned int	windows_names:1;
	unsigned int	noacsrules:1;
	unsigned int	errors:1;	/* NTFS_ERRORS_* */
	unsigned int	acl:1;		/* POSIX ACLs: SB_POSIXACL */
	unsigned int	acl_set:1;	/* acl or noacl given (remount) */
	/* Given explicitly: then they win over WSL's $LX* EAs. */
	unsigned int	uid_set:1;
	unsigned int	gid_set:1;
	unsigned int	fmask_set:1;
	unsigned int	dmask_set:1;
};

/**
 * struct ntfs_sb - One mounted volume
 * @sb:			the VFS super block
 * @opt:		mount options
 * @nls:		character set of @opt.iocharset (NULL for utf8)
 * @sector_size:	bytes per sector, from the boot sector
 * @cluster_size:	bytes per cluster
 * @cluster_bits:	log2(@cluster_size)
 * @record_size:	bytes per MFT record
 * @record_bits:	log2(@record_size)
 * @index_size:		default bytes per index block, from the boot sector
 * @total_clusters:	clusters in the volume
 * @mft_lcn:		first cluster of $MFT
 * @mftmirr_lcn:	first cluster of $MFTMirr
 * @serial:		volume serial number
 * @mft:		stream inode of $MFT:$DATA, reads every MFT record
 * @bitmap:		stream inode of $Bitmap:$DATA
 * @upcase:		upcase table, 65536 UTF-16 units
 * @upcase_len:		number of units in @upcase
 * @major:		NTFS major version from $Volume
 * @minor:		NTFS minor version
 * @vol_flags:		$Volume flags
 * @label:		volume label, in UTF-8, NUL-terminated
 * @ro_reason:		why the volume is mounted read-only, or NULL
 * @free_clusters:	free clusters, or -1 while not counted
 * @mft_records:	number of records $MFT:$DATA holds
 * @attrdef_count:	attribute types defined in $AttrDef
 * @sds_lock:		serialises reading and changing $Secure (secure.c)
 * @sds:		stream inode of $Secure:$SDS, once indexed
 * @sds_failed:		$SDS could not be indexed
 * @sds_map:		security id -> offset of its entry in $SDS
 * @sdh_map:		descriptor hash -> the first id with it
 * @sds_next_id:	the id a new descriptor gets
 * @sds_end:		end of the last entry of $SDS
 * @sii_ix:		$Secure's $SII index, once a descriptor was added
 * @sdh_ix:		its $SDH index
 * @default_security_id: id of the descriptor new files get under a
 *			directory without one, 0 until needed
 */
struct ntfs_sb {
	struct super_block	*sb;
	struct ntfs_options	opt;
	struct nls_table	*nls;

	u32			sector_size;
	u32			cluster_size;
	u8			cluster_bits;
	u32			record_size;
	u8			record_bits;
	u32			index_size;
	u64			total_clusters;
	u64			mft_lcn;
	u64			mftmirr_lcn;
	u64			serial;

	struct inode		*mft;
	struct inode		*bitmap;
	__le16			*upcase;
	u32			upcase_len;

	u8			major;
	u8			minor;
	u16			vol_flags;
	char			label[256 * 3 + 1];
	const char		*ro_reason;
	atomic64_t		free_clusters;
	u64			mft_records;
	u32			attrdef_count;

	spinlock_t		iblock_lock;	/* iblock_cache slots */
	struct ntfs_iblock	*iblock_cache[NTFS_IBLOCK_CACHE];

	spinlock_t		rcache_lock;	/* rcache, rcache_gen, rcache_next */
	u64			rcache_gen;	/* writes of $MFT records so far */
	unsigned int		rcache_next;	/* the slot to reuse next */
	struct ntfs_rcache_slot	rcache[NTFS_RCACHE];

	struct mutex		sds_lock;	/* $Secure */
	spinlock_t		sds_ptr_lock;	/* sds, sii_ix, sdh_ix pointers */
	struct inode		*sds;
	bool			sds_failed;
	struct xarray		sds_map;
	struct xarray		sdh_map;
	u32			sds_next_id;
	u64			sds_end;
	struct inode		*sii_ix;
	struct inode		*sdh_ix;
	u32			default_security_id;

	struct mutex		reparse_lock;	/* finding reparse_ix, objid_ix */
	struct inode		*reparse_ix;	/* $Extend\$Reparse, its $R index */
	struct inode		*objid_ix;	/* $Extend\$ObjId, its $O index */
	bool			reparse_tried;	/* looked for it this mount */
	u64			usn_record;	/* $Extend\$UsnJrnl, 0 for none */
	u64			usn_next;	/* size of its $J: the next USN */
	u64			usn_id;		/* the id it gets on the first change */
	struct inode		*quota_ix;	/* $Extend\$Quota, its $Q index */
	bool			quota_done;	/* marked (or tried) this mount */
	struct work_struct	quota_work;	/* marks it after the first change */

	/* The write path (docs/design/ntfs3.md, "Writing"). */
	struct inode		*mftmirr;	/* stream inode of $MFTMirr:$DATA */
	struct inode		*mft_bitmap;	/* stream inode of $MFT:$BITMAP */
	u32			mirror_records;	/* records $MFTMirr mirrors */
	struct rw_semaphore	trans_rwsem;	/* read: a transaction */
	struct mutex		mft_lock;	/* $MFT:$BITMAP, growing $MFT */
	struct mutex		bitmap_lock;	/* $Bitmap */
	u64			next_lcn;	/* where the allocator looks first */
	u64			da_reserved;	/* clusters delayed data will take (bitmap_lock) */
	u64			next_record;	/* likewise for MFT records */
	bool			volume_dirtied;	/* the dirty flag is on disk */
	bool			mirror_ok;	/* $MFTMirr matched at mount */
	bool			errors_ro;	/* made read-only by errors= */
	bool			shutdown;	/* FS_IOC_SHUTDOWN: refuse all */
	struct delayed_work	meta_flush;	/* writes metadata streams */
	/* files whose names' copies wait for a busy directory (inode.c) */
	spinlock_t		dup_lock;
	struct list_head	dup_later;
	struct work_struct	dup_work;
};

static inline struct ntfs_sb *NTFS_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

/**
 * struct ntfs_stream - The one attribute whose contents an ntfs inode exposes
 * @record:		base MFT record of the file it belongs to (for messages)
 * @type:		attribute type (NTFS_AT_DATA, NTFS_AT_INDEX_ALLOC, ...)
 * @name:		attribute name, UTF-16, or NULL for the unnamed one
 * @name_len:		units in @name
 * @resident:		the value is inside the MFT record
 * @compressed:		LZNT1-compressed (non-resident only)
 * @sparse:		may have holes
 * @encrypted:		EFS-encrypted: not readable
 * @compression_unit:	log2 of clusters per compression unit, 0 if none
 * @read_around:	metadata streams: pages read in one request when
 *			ntfs_read_stream() misses the page cache (0: one page)
 * @data_size:		logical size in bytes
 * @valid_size:		initialized size: bytes past it read as zeros
 * @alloc_size:		allocated bytes
 * @resident_data:	copy of a resident value (@data_size bytes)
 * @run_lock:		protects @runs
 * @runs:		cached runs of every extent, sorted by VCN
 * @nr_runs:		entries in @runs
 * @cap_runs:		capacity of @runs
 * @runs_loaded:	every extent has been decoded into @runs
 * @runs_error:		decoding failed: the stream is unreadable (-EIO)
 */
struct ntfs_stream {
	u64			record;
	u32			type;
	__le16			*name;
	u8			name_len;
	bool			resident;
	bool			compressed;
	bool			sparse;
	bool			encrypted;
	u8			compression_unit;
	u16			read_around;
	u64			data_size;
	u64			valid_size;
	u64			alloc_size;
	void			*resident_data;

	struct rw_semaphore	run_lock;
	struct ntfs_run		*runs;
	unsigned int		nr_runs;
	unsigned int		cap_runs;
	bool			runs_loaded;
	int			runs_error;
};

/**
 * struct ntfs_inode - A file, directory, or one stream of one
 * @vfs_inode:		the VFS inode
 * @record:		number of the base MFT record
 * @seq:		its sequence number
 * @attributes:		FILE_ATTRIBUTE_* from $STANDARD_INFORMATION
 * @security_id:	index into $Secure, 0 if none
 * @reparse_tag:	tag of its $REPARSE_POINT, 0 if none
 * @link_drive_rooted:	symlink whose target was "X:\..." (see ntfs_get_link())
 * @dir_record:		the MFT record says directory (also for junctions)
 * @link:		symlink target; also in i_link unless @link_drive_rooted
 * @owner:		for a stream inode: the file it belongs to; else NULL
 * @stream:		the stream this inode reads
 * @index_root:		directories: copy of the $INDEX_ROOT:$I30 value
 * @index_root_size:	its size
 * @index_block_size:	directories: bytes per index block
 * @index_collation:	directories: collation rule of $I30
 * @lookup_hint:	directories: where the next name after the last one
 *			looked up is (see index.c)
 * @ni_lock:		serialises changes to the file's records, attribute
 *			list, sizes and index, and the copies above
 * @index_gen:		directories: bumped by every index insert and delete
 *			(readdir resumes by key when it changed)
 * @flags:		NTFS_NI_* bits
 *
 * A directory's @stream is its $INDEX_ALLOCATION:$I30, so index blocks live
 * in the directory's own page cache.
 */
struct ntfs_inode {
	struct inode		vfs_inode;
	u64			record;
	u16			seq;
	u32			attributes;
	u32			security_id;
	u32			reparse_tag;
	struct timespec64	btime;		/* creation time (statx) */
	bool			link_drive_rooted;
	bool			dir_record;
	char			*link;
	struct inode		*owner;

	struct ntfs_stream	stream;

	void			*index_root;
	u32			index_root_size;
	u32			index_block_size;
	u32			index_collation;
	atomic64_t		lookup_hint;

	struct mutex		ni_lock;	/* see above */
	u64			index_gen;
	unsigned long		flags;
	u64			da_reserved;	/* its part of sbi->da_reserved (ni_lock) */
	unsigned int		da_writers;	/* delayed writes copying now (ni_lock) */
	struct list_head	dup_entry;	/* on sbi->dup_later */
};

/* Data changed: the copies in the file's names are due (ntfs_update_dup()). */
#define NTFS_NI_DUP_STALE	0
/* Data past what the record says waits in the page cache (writeback.c). */
#define NTFS_NI_DELAYED		1

static inline struct ntfs_inode *NTFS_I(struct inode *inode)
{
	return container_of(inode, struct ntfs_inode, vfs_inode);
}

/* Metafiles other than the root directory keep their records as they are. */
static inline bool ntfs_is_metafile(struct inode *inode)
{
	struct ntfs_inode *ni = NTFS_I(inode);

	return ni->owner || (ni->record < NTFS_FIRST_USER_INO && ni->record != NTFS_ROOT_INO);
}

/**
 * struct ntfs_recset - The base record of a file and its extension records
 * @sbi:		the volume
 * @base:		base record number
 * @rec:		record buffers; @rec[0] is the base record
 * @recnr:		record number of each buffer
 * @nr:			buffers in use
 * @cap:		capacity of @rec and @recnr
 * @attr_list:		the $ATTRIBUTE_LIST value, or NULL
 * @attr_list_size:	its size
 */
struct ntfs_recset {
	struct ntfs_sb	*sbi;
	u64		base;
	void		**rec;
	u64		*recnr;
	unsigned int	nr;
	unsigned int	cap;
	void		*attr_list;
	u32		attr_list_size;
};

struct ntfs_recset_pos {
	unsigned int		rec;
	struct ntfs_attr	*attr;
};

/**
 * struct ntfs_fwalk - A walk over every attribute of a file in a transaction
 * @t:		the transaction
 * @base:	the base record (the transaction's copy)
 * @base_nr:	its number
 * @next:	offset of the next attribute list entry to look at
 * @rec:	the record being walked (NULL before the first)
 * @nr:		its number
 * @a:		the attribute last returned in @rec
 * @list:	a copy of the attribute list value, read once when the walk
 *		leaves the base record (NULL: not read yet, or none)
 * @list_size:	its bytes
 * @list_read:	@list was read (or the file has none)
 * @seen:	extension records walked so far
 * @nr_seen:	how many
 * @cap_seen:	room in @seen
 *
 * ntfs_fwalk_end() frees what a walk holds.
 */
struct ntfs_fwalk {
	struct ntfs_trans	*t;
	struct ntfs_record	*base;
	u64			base_nr;
	u32			next;
	struct ntfs_record	*rec;
	u64			nr;
	struct ntfs_attr	*a;
	u8			*list;
	u32			list_size;
	bool			list_read;
	u64			*seen;
	unsigned int		nr_seen;
	unsigned int		cap_seen;
};

/**
 * struct ntfs_new_attr - An attribute to add to a file (extrec.c)
 * @type:	attribute type
 * @name:	UTF-16 name, NULL for none
 * @name_len:	units in @name
 * @hdr:	header size (NTFS_AREC_*, attrrec.h)
 * @body_len:	resident: value length; non-resident: mapping pairs bytes
 * @lowest_vcn:	non-resident: first VCN of the extent
 * @streams:	extents of data streams and index allocations may leave the
 *		base record to make room for a new list (not while one of
 *		them is being changed)
 */
struct ntfs_new_attr {
	u32		type;
	const __le16	*name;
	u8		name_len;
	u32		hdr;
	u32		body_len;
	u64		lowest_vcn;
	bool		streams;
};

/**
 * struct ntfs_xent - Where one extent of a non-resident attribute lives
 * @vcn:	its first VCN
 * @nr:		number of the record holding it
 * @instance:	its instance number there
 */
struct ntfs_xent {
	u64	vcn;
	u64	nr;
	u16	instance;
};

/*
 * A transaction (trans.c): every change to metadata goes through one.
 * Blocks it changes (MFT records, index blocks) are held as fixed-up
 * copies with their pre-image and written into their stream's page cache
 * only at commit; cluster and record bits taken are returned by abort,
 * bits freed are released at commit.
 */
struct ntfs_tblock {
	struct list_head	link;		/* in ntfs_trans.blocks */
	struct inode		*inode;		/* stream inode holding it; NULL: a cluster */
	u64			pos;		/* byte offset in that stream, or volume */
	u64			nr;		/* record number, or index block VCN */
	u32			size;
	u32			magic;		/* NTFS_MAGIC_FILE, NTFS_MAGIC_INDX */
	void			*buf;		/* the block, fixups removed */
	void			*pre;		/* as it was, NULL for a new block */
	u32			pre_len;	/* bytes in @pre: the record's in use */
	u32			disk_used;	/* bytes in use on disk; 0: unknown */
	bool			tracked;	/* no @pre: written only when @dirty */
	bool			dirty;
	/* read only (ntfs_trans_record_peek()): never written, kept at commit */
	bool			peek;
	u64			gen;		/* ntfs_rcache_gen() before it was read */
	u32			head;		/* only these first bytes changed; 0: any */
	bool			written;	/* reached the page cache at commit */
	/* @buf is lent (ntfs_trans_iblock_lend()): handed back, not freed */
	void			(*give_back)(struct ntfs_tblock *b);
	void			*owner;		/* the lender's, for @give_back */
};

/* A run of bits taken or given back inside a transaction. */
struct ntfs_bits {
	u64			start;
	u64			len;
	bool			mft;		/* $MFT:$BITMAP, else $Bitmap */
	bool			freed;		/* applied at commit; else taken */
};

/* $R and $O when a file goes; one spare. */
#define NTFS_TRANS_HELD		3

struct ntfs_trans {
	struct ntfs_sb		*sbi;
	struct list_head	blocks;
	struct ntfs_bits	*bits;
	unsigned int		nr_bits;
	unsigned int		cap_bits;
	unsigned int		nofs;		/* memalloc_nofs_save() cookie */
	bool			active;
	/* $Extend's index files locked until the end (ntfs_trans_lock()) */
	struct ntfs_inode	*held[NTFS_TRANS_HELD];
	unsigned int		nr_held;
};

/* error.c */
__printf(3, 4) int ntfs_err_ratelimited(struct super_block *sb, u64 nr, const char *fmt, ...);

/* io.c */
struct folio *ntfs_stream_folio(struct inode *inode, pgoff_t index, unsigned int window);
int ntfs_read_stream(struct inode *inode, u64 pos, void *buf, u32 len);
int ntfs_read_volume(struct super_block *sb, u64 pos, void *buf, u32 len);
int ntfs_volume_io(struct super_block *sb, u64 pos, void *buf, u32 len, blk_opf_t op);
int ntfs_write_stream(struct inode *inode, u64 pos, const void *buf, u32 len);
int ntfs_write_stream_used(struct inode *inode, u64 pos, const void *buf, u32 size, u32 used);
int ntfs_write_volume(struct super_block *sb, u64 pos, const void *buf, u32 len);
int ntfs_stream_change_bits(struct inode *bm, u64 start, u64 len, bool set);
int ntfs_write_runs(struct ntfs_sb *sbi, const struct ntfs_run *runs, unsigned int nr,
		    const void *buf, u32 len);

/* name.c */
int ntfs_name_from_utf16(struct ntfs_sb *sbi, const __le16 *name, u32 len, char *buf, int size);
int ntfs_name_to_utf16(struct ntfs_sb *sbi, const char *name, int len, __le16 *out);
int ntfs_name_cmp(const struct ntfs_sb *sbi, const __le16 *a, const u16 *up, u32 alen,
		  const __le16 *b, u32 blen, bool nocase);
bool ntfs_name_windows_ok(const __le16 *name, u32 len);

static inline u16 ntfs_upcase(const struct ntfs_sb *sbi, u16 c)
{
	return c < sbi->upcase_len ? le16_to_cpu(sbi->upcase[c]) : c;
}

/* runlist.c: runlist.h (no kernel headers: the host unit tests build it) */

/* lznt1.c: lznt1.h (likewise) */

/* record.c */
int ntfs_fixup(void *buf, u32 size, u32 magic);
int ntfs_check_record_header(struct ntfs_sb *sbi, const struct ntfs_record *r);
int ntfs_read_record(struct ntfs_sb *sbi, u64 nr, void *buf);
u64 ntfs_rcache_gen(struct ntfs_sb *sbi);
void ntfs_rcache_keep(struct ntfs_sb *sbi, u64 nr, void *buf, u64 gen, bool written);
void *ntfs_rcache_take(struct ntfs_sb *sbi, u64 nr);
void ntfs_rcache_forget(struct ntfs_sb *sbi, u64 nr);
void ntfs_rcache_drop(struct ntfs_sb *sbi);
struct ntfs_attr *ntfs_next_attr(const void *rec, const struct ntfs_attr *prev,
				 const char **why);
void *ntfs_attr_value(const struct ntfs_attr *a, u32 min_len);
bool ntfs_attr_name_is(const struct ntfs_attr *a, const __le16 *name, u8 len);
void ntfs_unfixup(void *buf, u32 size);

/* compress.c */
int ntfs_read_compressed_folio(struct inode *inode, struct folio *folio);
void ntfs_readahead_compressed(struct readahead_control *rac);
bool ntfs_cu_plain(struct ntfs_stream *ns, u64 cu, u8 cb);
bool ntfs_cu_needs_store(struct inode *inode, u64 cu, bool holes);
void *ntfs_cu_unpack(struct inode *inode, u64 cu);

/* stream.c */
void ntfs_stream_release(struct ntfs_stream *ns);
int ntfs_stream_from_attr(struct ntfs_sb *sbi, struct ntfs_stream *ns,
			  const struct ntfs_attr *a);
int ntfs_stream_add_extent(struct ntfs_sb *sbi, struct ntfs_stream *ns,
			   const struct ntfs_attr *a);
int ntfs_stream_finish_runs(struct ntfs_sb *sbi, struct ntfs_stream *ns);
int ntfs_stream_check_meta(struct ntfs_sb *sbi, const struct ntfs_stream *ns);
int ntfs_read_nonres_attr(struct ntfs_sb *sbi, u64 nr, const struct ntfs_attr *a,
			  void *buf, u64 len);
void *ntfs_read_attr_list(struct ntfs_sb *sbi, u64 nr, const struct ntfs_attr *a, u32 room,
			  u32 *size);

/* data.c */
extern const struct iomap_ops ntfs_iomap_ops;
void ntfs_iomap_hole(struct iomap *iomap, loff_t offset, u64 length);
int ntfs_zero_on_disk(struct inode *inode, loff_t start, loff_t end);
int ntfs_read_folio(struct file *file, struct folio *folio);
void ntfs_readahead(struct readahead_control *rac);
sector_t ntfs_bmap(struct address_space *mapping, sector_t block);

/* trans.c */
int ntfs_trans_begin(struct ntfs_sb *sbi, struct ntfs_trans *t);
struct ntfs_record *ntfs_trans_record(struct ntfs_trans *t, u64 nr);
struct ntfs_record *ntfs_trans_record_changed(struct ntfs_trans *t, u64 nr);
struct ntfs_record *ntfs_trans_record_peek(struct ntfs_trans *t, u64 nr);
void ntfs_trans_record_head(struct ntfs_trans *t, u64 nr);
struct ntfs_record *ntfs_trans_new_record(struct ntfs_trans *t, u64 nr);
void ntfs_format_record(struct ntfs_sb *sbi, void *buf, u64 nr, u16 seq, u16 usn, bool in_use);
u32 ntfs_record_room(struct ntfs_sb *sbi);
void *ntfs_trans_iblock(struct ntfs_trans *t, struct inode *dir, u64 vcn, bool create);
bool ntfs_trans_has_iblock(struct ntfs_trans *t, struct inode *dir, u64 vcn);
void *ntfs_trans_iblock_lend(struct ntfs_trans *t, struct inode *dir, u64 vcn, void *buf,
			     void (*give_back)(struct ntfs_tblock *b), void *owner);
bool ntfs_trans_iblock_dirty(struct ntfs_trans *t, struct inode *dir, u64 vcn);
void *ntfs_trans_cluster(struct ntfs_trans *t, u64 lcn, bool change);
int ntfs_trans_note_bits(struct ntfs_trans *t, bool mft, bool freed, u64 start, u64 len);
void ntfs_bits_apply(struct ntfs_sb *sbi, const struct ntfs_bits *b, bool set);
int ntfs_discard_clusters(struct ntfs_sb *sbi, u64 lcn, u64 len);
int ntfs_trans_commit(struct ntfs_trans *t);
void ntfs_trans_abort(struct ntfs_trans *t);
int ntfs_trans_lock(struct ntfs_trans *t, struct ntfs_inode *ni, unsigned int subclass);
void ntfs_trans_fail(struct ntfs_trans *t, int err);
int ntfs_volume_set_flags(struct ntfs_sb *sbi, u16 set, u16 clear);
int ntfs_volume_mark_dirty(struct ntfs_sb *sbi);
int ntfs_trans_flush(struct ntfs_sb *sbi, bool wait);
int ntfs_trans_flush_dir(struct ntfs_sb *sbi, struct inode *dir);

/* balloc.c */
int ntfs_alloc_clusters(struct ntfs_trans *t, u64 hint, u64 want, struct ntfs_run *got);
int ntfs_free_clusters(struct ntfs_trans *t, u64 lcn, u64 len);
int ntfs_find_free_record(struct ntfs_sb *sbi, u64 *nr);
int ntfs_alloc_record(struct ntfs_trans *t, u64 *nr);
int ntfs_alloc_mft_xrecord(struct ntfs_trans *t, u64 *nr);
int ntfs_free_record(struct ntfs_trans *t, u64 nr);
int ntfs_free_attr_clusters(struct ntfs_trans *t, u64 nr, const struct ntfs_attr *a);
int ntfs_alloc_runs(struct ntfs_trans *t, u64 clusters, struct ntfs_run *runs, unsigned int *nr);
s64 ntfs_count_free_clusters(struct ntfs_sb *sbi);
s64 ntfs_unreserved_clusters(struct ntfs_sb *sbi);
int ntfs_trim(struct ntfs_sb *sbi, u64 start, u64 end, u64 minlen, u64 *trimmed);

/* attrib.c */
int ntfs_recset_load(struct ntfs_sb *sbi, u64 nr, struct ntfs_recset *rs);
void ntfs_recset_free(struct ntfs_recset *rs);
struct ntfs_attr *ntfs_recset_next(const struct ntfs_recset *rs, struct ntfs_recset_pos *pos);

/*
 * extrec.c: a file's records in a transaction (under ni_lock).  Insert
 * and remove attributes through ntfs_rec_insert()/ntfs_rec_add() and
 * ntfs_rec_drop() (base record) or ntfs_file_add()/ntfs_file_drop() (any
 * record), which keep an attribute list in step; an index root or EA
 * that the list placed elsewhere comes home before it is changed
 * (ntfs_file_bring_home()).  ntfs_rec_find() is attrrec.c's (attrrec.h).
 */
struct ntfs_attr *ntfs_rec_find(void *rec, u32 type, const __le16 *name, u8 name_len);
struct ntfs_arec_ctx;
void ntfs_rec_ctx(struct ntfs_sb *sbi, struct ntfs_arec_ctx *c);
int ntfs_rec_check(struct ntfs_sb *sbi, void *rec, u64 nr);
struct ntfs_attr *ntfs_rec_add(struct ntfs_trans *t, void *rec, u32 type, const __le16 *name,
			       u8 name_len, u32 hdr, u32 body_len);
struct ntfs_attr *ntfs_rec_insert(struct ntfs_trans *t, void *rec, u32 type,
				  const __le16 *name, u8 name_len, bool nonres, u32 body_len);
int ntfs_rec_drop(struct ntfs_trans *t, void *rec, struct ntfs_attr *a);
void ntfs_fwalk_start(struct ntfs_fwalk *w, struct ntfs_trans *t, struct ntfs_record *base,
		      u64 base_nr);
struct ntfs_attr *ntfs_fwalk_next(struct ntfs_fwalk *w);
void ntfs_fwalk_end(struct ntfs_fwalk *w);
int ntfs_file_make_room(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr, u32 need);
int ntfs_file_bring_home(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
			 u32 type, const __le16 *name, u8 name_len);
int ntfs_file_fits(struct ntfs_trans *t, struct ntfs_record *base, u32 body_len);
int ntfs_store_value(struct ntfs_trans *t, void *rec, struct ntfs_attr *a, const void *buf,
		     u32 len, u32 room);
struct ntfs_attr *ntfs_file_move_out(struct ntfs_trans *t, struct ntfs_record *base,
				     u64 base_nr, struct ntfs_attr *a,
				     struct ntfs_record **where, u64 *where_nr);
struct ntfs_attr *ntfs_file_rehome(struct ntfs_trans *t, struct ntfs_record *base,
				   u64 base_nr, struct ntfs_record *rec, u64 rec_nr,
				   struct ntfs_attr *a, struct ntfs_record **where, u64 *where_nr);
struct ntfs_attr *ntfs_file_add(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
				u32 type, const __le16 *name, u8 name_len, bool nonres,
				u32 body_len, struct ntfs_record **where, u64 *where_nr);
int ntfs_file_drop(struct ntfs_trans *t, struct ntfs_record *base, struct ntfs_record *rec,
		   u64 nr, struct ntfs_attr *a);
struct ntfs_record *ntfs_file_xrec(struct ntfs_trans *t, u64 base_nr, u64 nr);
struct ntfs_attr *ntfs_file_add_extent(struct ntfs_trans *t, struct ntfs_record *base,
				       u64 base_nr, const struct ntfs_new_attr *na, u64 near,
				       struct ntfs_record **where, u64 *where_nr);
int ntfs_file_extents(struct ntfs_trans *t, struct ntfs_record *base, u32 type,
		      const __le16 *name, u8 name_len, struct ntfs_xent **out, unsigned int *n);
struct ntfs_attr *ntfs_file_find(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
				 u32 type, const __le16 *name, u8 name_len,
				 struct ntfs_record **where, u64 *where_nr);
u32 ntfs_file_list_reserve(struct ntfs_trans *t, struct ntfs_record *base);

/* extent.c: a stream's mapping pairs across its extents. */
int ntfs_extents_store(struct ntfs_trans *t, struct ntfs_record *base, u64 base_nr,
		       struct ntfs_xent *first, const struct ntfs_run *runs,
		       unsigned int nr, u64 end, u64 from);

/* attrib.c: changing streams (under ni_lock, inside a transaction). */
int ntfs_rec_set_value_len(struct ntfs_sb *sbi, void *rec, struct ntfs_attr *a, u32 len);
int ntfs_stream_write_resident(struct ntfs_trans *t, struct inode *inode, u64 pos,
			       const void *buf, u32 len);
int ntfs_stream_make_nonresident(struct ntfs_trans *t, struct inode *inode);
int ntfs_stream_allocate(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len);
int ntfs_stream_store_unit(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len,
			   void *data);
int ntfs_stream_set_size(struct ntfs_trans *t, struct inode *inode, u64 size);
int ntfs_stream_set_valid(struct ntfs_trans *t, struct inode *inode, u64 valid);
int ntfs_stream_punch(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len);
int ntfs_stream_collapse(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len);
int ntfs_stream_insert(struct ntfs_trans *t, struct inode *inode, u64 vcn, u64 len);
int ntfs_stream_reload(struct inode *inode);

/* index.c */

/* One node of an index tree: the root, or a shared index block. */
struct ntfs_node {
	struct ntfs_iblock *blk;	/* NULL for the root */
	const struct ntfs_index_header *hdr;
	u32 size;			/* bytes from @hdr to the end of the node */
};

/* An in-order walk of an index tree, resumable. */
struct ntfs_index_cursor {
	int depth;			/* -1: not started */
	/*
	 * VCNs of the index blocks this walk entered.  In a sound tree each
	 * block has one parent; child pointers that are shared or loop could
	 * make a walk exponential in the number of blocks, although the
	 * depth stays small, so entering a block twice is corruption.
	 */
	struct xarray visited;
	bool done;
	struct {
		struct ntfs_node node;
		u32 ofs;		/* current entry */
		bool child_done;	/* its subtree was walked */
	} lvl[NTFS_MAX_INDEX_DEPTH + 1];
};

static inline const struct ntfs_file_name *ntfs_entry_name(const struct ntfs_index_entry *e)
{
	return (const void *)(e + 1);
}

void ntfs_iblock_cache_drop(struct ntfs_sb *sbi);
int ntfs_dir_lookup(struct inode *dir, const __le16 *name, u32 len, u64 *ref);
void ntfs_index_cursor_init(struct ntfs_index_cursor *c);
void ntfs_index_cursor_reset(struct ntfs_index_cursor *c);
const struct ntfs_index_entry *ntfs_index_cursor_next(struct ntfs_inode *ni,
						      struct ntfs_index_cursor *c);
int ntfs_index_insert(struct ntfs_trans *t, struct inode *dir,
		      const struct ntfs_file_name *fn, u64 ref);
int ntfs_index_delete(struct ntfs_trans *t, struct inode *dir,
		      const struct ntfs_file_name *fn, u64 ref);
int ntfs_index_update(struct ntfs_trans *t, struct inode *dir,
		      const struct ntfs_file_name *fn, u64 ref);
int ntfs_index_is_empty(struct inode *dir);
int ntfs_index_forget(struct inode *dir);
int ntfs_reparse_index_add(struct ntfs_trans *t, u32 tag, u64 ref);
int ntfs_reparse_index_del(struct ntfs_trans *t, u32 tag, u64 ref);

/**
 * struct ntfs_view - A view index (not $I30) the index core can change
 * @name:	the index's name ($R, ...)
 * @name_len:	units in @name
 * @key_len:	the length of every key of the index
 * @cmp:	the index's collation: <0, 0, >0 for the key against an entry's
 */
struct ntfs_view {
	const __le16	*name;
	u8		name_len;
	u32		key_len;
	u32		collation;	/* NTFS_COLLATION_* */
	int		(*cmp)(const void *key, const struct ntfs_index_entry *e);
};

int ntfs_ulongs_cmp(const void *key, const struct ntfs_index_entry *e, u32 len);
int ntfs_view_insert(struct ntfs_trans *t, struct inode *ix, const struct ntfs_view *v,
		     const void *key, const void *data, u16 data_len);
int ntfs_view_delete(struct ntfs_trans *t, struct inode *ix, const struct ntfs_view *v,
		     const void *key);
int ntfs_view_update(struct ntfs_trans *t, struct inode *ix, const struct ntfs_view *v,
		     const void *key, int (*edit)(void *data, u32 len, void *arg), void *arg);
int ntfs_index_cursor_seek(struct ntfs_inode *ni, struct ntfs_index_cursor *c,
			   const struct ntfs_file_name *key);

/* mft.c */
int ntfs_mft_ensure_free(struct ntfs_sb *sbi);

/* writeback.c */
int ntfs_change(struct inode *inode,
		int (*fn)(struct ntfs_trans *t, struct inode *inode, u64 a, u64 b),
		u64 a, u64 b);
bool ntfs_delay_begin(struct inode *inode, loff_t pos, size_t count);
void ntfs_delay_end(struct inode *inode);
int ntfs_delay_settle(struct inode *inode);
void ntfs_delay_drop(struct inode *inode);
u64 ntfs_delay_reserved(struct inode *inode);
extern const struct iomap_ops ntfs_delay_iomap_ops;
extern const struct address_space_operations ntfs_aops;

/* inode.c */
struct timespec64 ntfs_time(__le64 t);
__le64 ntfs_time_to_disk(struct timespec64 ts);
struct ntfs_std_info *ntfs_trans_std_info(struct ntfs_trans *t, struct inode *inode);
int ntfs_fill_new_record(struct ntfs_trans *t, struct ntfs_record *r, bool dir,
			 u32 security_id, __le64 now);
struct inode *ntfs_alloc_inode(struct super_block *sb);
void ntfs_free_inode(struct inode *inode);
int ntfs_write_inode(struct inode *inode, struct writeback_control *wbc);
int ntfs_update_dup(struct inode *inode, struct inode *hint, bool wait);
void ntfs_dup_work(struct work_struct *work);
void ntfs_dup_flush(struct ntfs_sb *sbi);
int ntfs_permission(struct mnt_idmap *idmap, struct inode *inode, int mask);
int __init ntfs_inode_cache_init(void);
void ntfs_inode_cache_destroy(void);
struct inode *ntfs_new_stream_inode(struct super_block *sb, struct inode *owner,
				    struct ntfs_stream *ns);
struct inode *ntfs_stream_iget(struct super_block *sb, u64 nr, u32 type,
			       const __le16 *name, u8 name_len);
struct inode *ntfs_view_iget(struct ntfs_sb *sbi, u64 nr, void *rec, const struct ntfs_view *v);
struct inode *ntfs_extend_view_iget(struct inode *ext, const __le16 *name, u8 len,
				    const struct ntfs_view *v);
int ntfs_getattr(struct mnt_idmap *idmap, const struct path *path,
		 struct kstat *stat, u32 mask, unsigned int flags);

/* secure.c */
int ntfs_sds_get(struct ntfs_sb *sbi, u32 id, void **out, u32 *len);
int ntfs_security_set(struct inode *inode, const void *sd, size_t len);
int ntfs_security_default(struct ntfs_sb *sbi, u32 *id);

/* xattr.c */

/**
 * struct ntfs_new_eas - What a new file on an acl mount is made with
 * @mode:	its type and permissions, from posix_acl_create()
 * @buf:	its EA set ($LXMOD, the ACLs it inherits), or NULL
 * @len:	bytes in @buf, 0 for none
 */
struct ntfs_new_eas {
	umode_t		mode;
	void		*buf;
	u32		len;
};

struct posix_acl;
extern const struct xattr_handler * const ntfs_xattr_handlers[];
ssize_t ntfs_listxattr(struct dentry *dentry, char *out, size_t size);
void ntfs_apply_wsl_ea(struct inode *inode, const struct ntfs_recset *rs);
int ntfs_wsl_make_special(struct inode *inode, umode_t mode, dev_t rdev);
int ntfs_setattr_ids(struct mnt_idmap *idmap, struct inode *inode, struct iattr *attr);
int ntfs_ea_move_out(struct ntfs_trans *t, struct inode *inode);
int ntfs_ea_create(struct ntfs_trans *t, struct ntfs_record *r, u64 nr,
		   const struct ntfs_new_eas *ne);
#ifdef CONFIG_FS_POSIX_ACL
struct posix_acl *ntfs_get_inode_acl(struct inode *inode, int type, bool rcu);
int ntfs_set_acl(struct mnt_idmap *idmap, struct dentry *dentry, struct posix_acl *acl,
		 int type);
int ntfs_acl_create(struct inode *dir, umode_t mode, bool lxmod, struct ntfs_new_eas *ne);
#else
#define ntfs_get_inode_acl	NULL
#define ntfs_set_acl		NULL
static inline int ntfs_acl_create(struct inode *dir, umode_t mode, bool lxmod,
				  struct ntfs_new_eas *ne)
{
	return -EOPNOTSUPP;	/* no acl mounts */
}
#endif

/* file.c */
extern const struct inode_operations ntfs_file_iops;
extern const struct file_operations ntfs_file_fops;
long ntfs_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
int ntfs_setattr(struct mnt_idmap *idmap, struct dentry *dentry, struct iattr *attr);

/* reparse.c */
extern const struct inode_operations ntfs_symlink_iops;
int ntfs_load_reparse(struct inode *inode, const struct ntfs_recset *rs,
		      const struct ntfs_attr *a);
char *ntfs_interix_link(struct inode *inode);
struct ntfs_reparse *ntfs_symlink_reparse(struct ntfs_sb *sbi, const char *target, u32 *len);
int ntfs_reparse_index_open(struct ntfs_sb *sbi, struct inode *ext);

/* objid.c */
void ntfs_objid_index_open(struct ntfs_sb *sbi, struct inode *ext);
int ntfs_objid_index_del(struct ntfs_trans *t, const u8 *oid);

/* quota.c */
void ntfs_quota_open(struct ntfs_sb *sbi, struct inode *ext);
void ntfs_quota_work(struct work_struct *work);
void ntfs_quota_flush(struct ntfs_sb *sbi);

/* dir.c */
extern const struct file_operations ntfs_dir_fops;

/* namei.c */
extern const struct inode_operations ntfs_dir_iops;
extern const struct dentry_operations ntfs_nocase_dops;
extern const struct export_operations ntfs_export_ops;
struct inode *ntfs_iget(struct super_block *sb, u64 nr);
void ntfs_evict_inode(struct inode *inode);

/* journal.c */
bool ntfs_logfile_clean(struct super_block *sb, struct ntfs_sb *sbi);
int ntfs_logfile_reset(struct ntfs_sb *sbi);

/* super.c: the top; nothing is called from below. */

#endif /* _NTFS3_NTFS3_H */
