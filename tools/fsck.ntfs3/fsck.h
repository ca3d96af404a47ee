/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsck.ntfs3: an offline, read-only consistency checker for NTFS volumes.
 *
 * The on-disk format comes from the driver's own ntfs3/ntfs.h.  The checker
 * works in passes over one in-memory copy of $MFT, read sequentially at the
 * start (see docs/man/fsck.ntfs3.8 and docs/design/fsck.ntfs3.md):
 *
 *   volume.c    device access, boot sectors, loading $MFT, fixups
 *   records.c   every record in use: header, attributes, runlists, sizes
 *   runs.c      decoding mapping pairs
 *   attrlist.c  $ATTRIBUTE_LIST against the extension records
 *   stream.c    reading an attribute's value (resident or through its runs)
 *   clusters.c  $MFTMirr, $MFT:$BITMAP, cluster ownership against $Bitmap
 *   index.c     the generic index walker and every $I30 directory index
 *   meta.c      $UpCase, $Volume, $Secure, reparse points and $Extend\$Reparse
 *   main.c      options, passes, report, exit code
 *
 * A problem is printed as one line "[class] record N, attribute: text"
 * (report()).  A record whose header or attributes are broken is marked
 * REC_BAD and later passes skip it, so one damage gives one class of report.
 */
#ifndef FSCK_NTFS3_H
#define FSCK_NTFS3_H

#include <assert.h>
#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef int8_t s8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

/*
 * The kernel's spellings of the compiler attributes and helpers used here,
 * for userspace.  __attribute__ is only spelled in __fsck_attr().
 */
#define __fsck_attr(...)	__attribute__((__VA_ARGS__))
#define __packed		__fsck_attr(packed)
#define __printf(a, b)		__fsck_attr(format(printf, a, b))
#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))

#include "../../ntfs3/ntfs.h"

#define le16(x) le16toh(x)
#define le32(x) le32toh(x)
#define le64(x) le64toh(x)

/* Names and keys on disk need not be aligned: read them byte-wise. */
static inline u16 get_le16(const void *p)
{
	u16 x;

	__builtin_memcpy(&x, p, sizeof(x));
	return le16toh(x);
}

static inline u32 get_le32(const void *p)
{
	u32 x;

	__builtin_memcpy(&x, p, sizeof(x));
	return le32toh(x);
}

/* Exit codes, as fsck(8). */
#define FSCK_OK		0
#define FSCK_ERRORS	4
#define FSCK_FAILED	8

/* Problem classes: the first word of every problem line, "[class]". */
#define P_BOOT		"boot"		/* boot sector fields, backup disagrees */
#define P_MFTMIRR	"mftmirr"	/* $MFTMirr differs from $MFT */
#define P_FIXUP		"fixup"		/* update sequence array broken */
#define P_RECORD	"record"	/* MFT record header */
#define P_ATTR		"attribute"	/* attribute header, bounds, order, required */
#define P_SIZES		"sizes"		/* data > allocated, initialized > data */
#define P_RUNLIST	"runlist"	/* undecodable, outside the volume, self-overlap */
#define P_LEAKED	"leaked-cluster"	/* $Bitmap bit set, no owner */
#define P_UNMARKED	"cluster-bitmap"	/* owned cluster with $Bitmap bit clear */
#define P_CROSSLINK	"cross-linked-cluster"	/* two owners */
#define P_MFTBITMAP	"mft-bitmap"	/* $MFT:$BITMAP against records in use */
#define P_ATTRLIST	"attr-list"	/* $ATTRIBUTE_LIST against extension records */
#define P_INDEX		"index"		/* index node: fixups, bounds, $BITMAP */
#define P_INDEXORDER	"index-order"	/* entries not in collation order */
#define P_INDEXENTRY	"index-entry"	/* entry names a free record, wrong seq/name */
#define P_ORPHAN	"orphan"	/* $FILE_NAME not found in its parent index */
#define P_LINKCOUNT	"link-count"	/* header link count against names */
#define P_DOSNAME	"dos-name"	/* Win32/DOS name pairs */
#define P_DUPINFO	"dup-info"	/* index entry's copy of $FILE_NAME data */
#define P_SECURE	"secure"	/* $Secure: $SDS, $SII, $SDH, ids in use */
#define P_SDHHASH	"sdh-hash"	/* security descriptor hash mismatch */
#define P_UPCASE	"upcase"	/* $UpCase */
#define P_VOLUME	"volume"	/* $Volume */
#define P_REPARSE	"reparse"	/* reparse points against $Extend\$Reparse */
#define P_OBJID		"objid"		/* $OBJECT_IDs against $Extend\$ObjId */
#define P_QUOTA		"quota"		/* $Extend\$Quota:$Q entries, defaults */

/* What the first pass learned about one MFT record. */
enum rec_state {
	REC_FREE = 0,	/* not in use (in-use flag clear) */
	REC_USED,	/* in use, header and attributes valid */
	REC_BAD,	/* in use or unreadable, and broken: later passes skip it */
};

struct rec {
	u8	state;		/* enum rec_state */
	u16	flags;		/* header flags (NTFS_RECORD_*) */
	u16	seq;		/* header sequence number */
	u16	links;		/* header link count */
	u64	base_ref;	/* header base reference; 0 in a base record */
	u32	ext_first;	/* base: first extension record (0 = none) */
	u32	ext_next;	/* extension: next of the same base (0 = none) */
	u16	names;		/* $FILE_NAME attributes (base + extensions) */
	u16	names_indexed;	/* of those, found in the parent's $I30 (index.c) */
	u32	security_id;	/* $STANDARD_INFORMATION, 0 when none */
	u32	file_attrs;	/* $STANDARD_INFORMATION attributes */
	bool	reparse;	/* has a $REPARSE_POINT attribute */
};

/* One run of a runlist; lcn is LCN_HOLE for a sparse run. */
#define LCN_HOLE	UINT64_MAX
struct run {
	u64	vcn;
	u64	lcn;
	u64	len;
};

struct runs {
	struct run	*v;
	size_t		n;
	size_t		cap;
};

/* An attribute's value: resident bytes, or runs gathered from every extent. */
struct stream {
	u64		rec;		/* base record */
	u32		type;
	bool		resident;
	const u8	*value;		/* resident: points into the $MFT copy */
	u32		value_len;
	struct runs	runs;		/* non-resident: all extents, VCN order */
	u64		alloc_size;
	u64		data_size;
	u64		valid_size;
	u16		flags;		/* NTFS_ATTR_* of the first extent */
};

struct vol {
	const char	*dev;		/* as given on the command line */
	int		fd;
	u64		offset;		/* of the volume in the file (--offset) */
	u64		dev_size;	/* bytes available from offset */
	struct ntfs_boot boot;		/* the boot sector in use */
	u32		sector_size;
	u32		cluster_size;
	unsigned int	cluster_bits;
	u64		clusters;	/* clusters in the volume */
	u32		record_size;
	u32		index_block_size;
	u64		mft_lcn;
	u64		mftmirr_lcn;

	u8		*mft;		/* $MFT:$DATA, fixups applied record by record */
	u64		nrec;		/* records in it */
	struct rec	*recs;		/* nrec entries */
	struct runs	mft_runs;	/* $MFT:$DATA runs */

	u16		*upcase;	/* $UpCase in host order, NULL: ASCII only */
	u32		upcase_len;	/* entries */
	u8		major, minor;	/* NTFS version from $Volume */

	int		verbose;	/* -v */
	int		quiet;		/* -q */
	unsigned long	problems;	/* report() calls */
};

#define NO_REC	UINT64_MAX

/* main.c */
__printf(5, 6)
void report(struct vol *v, const char *cls, u64 rec, const char *where,
	    const char *fmt, ...);
__printf(2, 3) void checked(struct vol *v, const char *fmt, ...);
__printf(1, 2) void fatal(const char *fmt, ...);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n, size_t size);

/* volume.c */
int vol_open(struct vol *v, const char *path, u64 offset, u64 length);
void vol_close(struct vol *v);
int vol_read(struct vol *v, u64 pos, void *buf, size_t len);
int vol_check_boot(struct vol *v);
int vol_load_mft(struct vol *v);
int fixup_apply(u8 *buf, u32 size, u32 sector, const char **why);

static inline u8 *rec_buf(struct vol *v, u64 r)
{
	return v->mft + r * v->record_size;
}

static inline bool rec_ok(const struct vol *v, u64 r)
{
	return r < v->nrec && v->recs[r].state == REC_USED;
}

/* The file a record belongs to: itself, or the base it names. */
static inline u64 record_base(const struct vol *v, u64 r)
{
	return v->recs[r].base_ref ? NTFS_REF_RECORD(v->recs[r].base_ref) : r;
}

/* records.c: attribute iteration over a REC_USED record (bounds checked) */
struct ntfs_attr *attr_step(u8 *buf, u32 used, struct ntfs_attr *prev);
struct ntfs_attr *attr_next(struct vol *v, u64 r, struct ntfs_attr *prev);

/* for_each_attr()'s place: the macro then names each argument once. */
struct attr_iter {
	struct vol		*v;
	u64			r;
	struct ntfs_attr	*a;
};

static inline struct ntfs_attr *attr_iter_next(struct attr_iter *it)
{
	it->a = attr_next(it->v, it->r, it->a);
	return it->a;
}

/* @a is NULL after the loop, unless left with break. */
#define for_each_attr(v, r, a) \
	for (struct attr_iter __attr_it = { (v), (r), NULL }; \
	     ((a) = attr_iter_next(&__attr_it));)
const char *attr_desc(const struct ntfs_attr *a, char *buf, size_t len);
const char *attr_type_name(u32 type);
bool attr_name_is(const struct ntfs_attr *a, const char *ascii);
const void *attr_value(const struct ntfs_attr *a, u32 *len);
void name_utf8(const __le16 *name, unsigned int len, char *out, size_t outlen);
void check_records(struct vol *v);

/*
 * runlist decode: appends to out; on error returns -1, *why says which rule,
 * and the runs decoded before the error stay appended.
 */
int runs_decode(struct vol *v, const struct ntfs_attr *a, struct runs *out,
		const char **why);
void runs_free(struct runs *r);

/* stream.c */
int stream_open(struct vol *v, u64 rec, u32 type, const char *name,
		struct stream *s);
int stream_read(struct vol *v, const struct stream *s, u64 pos, void *buf,
		size_t len);
u64 stream_mapped_bytes(struct vol *v, const struct stream *s);
void stream_free(struct stream *s);

/* attrlist.c */
void check_attr_lists(struct vol *v);

/* clusters.c */
void check_mftmirr(struct vol *v);
void check_mft_bitmap(struct vol *v);
void check_clusters(struct vol *v);

/* index.c */
struct index_walk {
	u64		rec;		/* record holding the index */
	const char	*name;		/* "$I30", "$SII", "$SDH", "$R", "$O" */
	/* called for every entry with a key, in index order */
	int		(*entry)(struct vol *v, struct index_walk *w,
				 const struct ntfs_index_entry *e,
				 const u8 *key, u16 key_len);
	void		*ctx;
	u32		collation;	/* from $INDEX_ROOT */
	u64		entries;	/* entries seen */
	u32		block_size;	/* from $INDEX_ROOT */
	u64		blocks;		/* index blocks reached */
};

/*
 * index_walk: 0 sound, 1 problems reported, -ENOENT no such $INDEX_ROOT
 * (not reported).  A nonzero return of w->entry stops the walk.
 */
int index_walk(struct vol *v, struct index_walk *w);
int name_collate(const struct vol *v, const __le16 *a, unsigned int la,
		 const __le16 *b, unsigned int lb);
void check_directories(struct vol *v);

/* meta.c */
void load_upcase(struct vol *v);
void check_volume(struct vol *v);
void check_secure(struct vol *v);
void check_reparse(struct vol *v);
void check_objid(struct vol *v);
void check_quota(struct vol *v);

#endif /* FSCK_NTFS3_H */
