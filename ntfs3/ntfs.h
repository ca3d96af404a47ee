/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk layout of NTFS 1.2 and 3.x, as far as the driver uses it.
 *
 * Written from the libyal "New Technologies File System (NTFS)" format
 * document, the Linux-NTFS project's NTFS documentation and Microsoft's
 * [MS-FSCC].  All multi-byte fields are little endian.  Offsets in the
 * comments are from the start of the structure.
 */
#ifndef _NTFS3_NTFS_H
#define _NTFS3_NTFS_H

#include <linux/types.h>

/* Boot sector, at byte 0 of the volume and again in its last sector. */
struct ntfs_boot {
	u8	jump[3];
	u8	oem_id[8];		/* 0x03 "NTFS    " */
	__le16	bytes_per_sector;	/* 0x0b */
	u8	sectors_per_cluster;	/* 0x0d >0x80: 2^(256-v) sectors */
	__le16	reserved_sectors;	/* 0x0e must be 0 */
	u8	fats;			/* 0x10 must be 0 */
	__le16	root_entries;		/* 0x11 must be 0 */
	__le16	sectors16;		/* 0x13 must be 0 */
	u8	media;			/* 0x15 */
	__le16	sectors_per_fat;	/* 0x16 must be 0 */
	__le16	sectors_per_track;	/* 0x18 */
	__le16	heads;			/* 0x1a */
	__le32	hidden_sectors;		/* 0x1c */
	__le32	sectors32;		/* 0x20 must be 0 */
	u8	drive;			/* 0x24 */
	u8	pad1[3];		/* 0x25 */
	__le64	total_sectors;		/* 0x28 */
	__le64	mft_lcn;		/* 0x30 */
	__le64	mftmirr_lcn;		/* 0x38 */
	s8	record_size;		/* 0x40 clusters, or <0: 2^-v bytes */
	u8	pad2[3];
	s8	index_size;		/* 0x44 clusters, or <0: 2^-v bytes */
	u8	pad3[3];
	__le64	serial;			/* 0x48 */
	__le32	checksum;		/* 0x50 */
	u8	bootstrap[426];		/* 0x54 */
	__le16	end_marker;		/* 0x1fe 0xaa55 */
} __packed;

static_assert(sizeof(struct ntfs_boot) == 512);

/* Update sequence protected block header ("FILE", "INDX", "RSTR", "RCRD"). */
struct ntfs_usa_header {
	__le32	magic;
	__le16	usa_offset;
	__le16	usa_count;		/* 1 + number of 512-byte sectors */
};

#define NTFS_MAGIC_FILE		0x454c4946	/* "FILE" */
#define NTFS_MAGIC_INDX		0x58444e49	/* "INDX" */
#define NTFS_MAGIC_RSTR		0x52545352	/* "RSTR" */
#define NTFS_MAGIC_RCRD		0x44524352	/* "RCRD" */
#define NTFS_MAGIC_BAAD		0x44414142	/* "BAAD": failed fixup */
#define NTFS_USA_STRIDE		512

/* MFT record header. */
struct ntfs_record {
	struct ntfs_usa_header usa;	/* 0x00 */
	__le64	lsn;			/* 0x08 */
	__le16	sequence;		/* 0x10 */
	__le16	link_count;		/* 0x12 */
	__le16	attrs_offset;		/* 0x14 */
	__le16	flags;			/* 0x16 NTFS_RECORD_* */
	__le32	bytes_in_use;		/* 0x18 */
	__le32	bytes_allocated;	/* 0x1c */
	__le64	base_record;		/* 0x20 reference of the base record, 0 in a base */
	__le16	next_instance;		/* 0x28 */
	__le16	pad;			/* 0x2a NTFS 3.1 */
	__le32	record_number;		/* 0x2c NTFS 3.1 */
} __packed;

#define NTFS_RECORD_IN_USE	0x0001
#define NTFS_RECORD_IS_DIR	0x0002	/* has a $I30 index */
#define NTFS_RECORD_IS_4	0x0004
#define NTFS_RECORD_IS_VIEW	0x0008	/* has another index ($Secure, $Quota...) */

/* A file reference: record number in the low 48 bits, sequence above. */
#define NTFS_REF_RECORD(r)	((r) & 0xffffffffffffULL)
#define NTFS_REF_SEQ(r)		((u16)((r) >> 48))

/* Records of the system files. */
enum {
	NTFS_MFT_INO		= 0,
	NTFS_MFTMIRR_INO	= 1,
	NTFS_LOGFILE_INO	= 2,
	NTFS_VOLUME_INO		= 3,
	NTFS_ATTRDEF_INO	= 4,
	NTFS_ROOT_INO		= 5,
	NTFS_BITMAP_INO		= 6,
	NTFS_BOOT_INO		= 7,
	NTFS_BADCLUS_INO	= 8,
	NTFS_SECURE_INO		= 9,
	NTFS_UPCASE_INO		= 10,
	NTFS_EXTEND_INO		= 11,
	NTFS_FIRST_USER_INO	= 16,	/* 12..15 reserved */
};

/* Attribute types. */
enum {
	NTFS_AT_STANDARD_INFO	= 0x10,
	NTFS_AT_ATTR_LIST	= 0x20,
	NTFS_AT_FILE_NAME	= 0x30,
	NTFS_AT_OBJECT_ID	= 0x40,
	NTFS_AT_SECURITY	= 0x50,
	NTFS_AT_VOLUME_NAME	= 0x60,
	NTFS_AT_VOLUME_INFO	= 0x70,
	NTFS_AT_DATA		= 0x80,
	NTFS_AT_INDEX_ROOT	= 0x90,
	NTFS_AT_INDEX_ALLOC	= 0xa0,
	NTFS_AT_BITMAP		= 0xb0,
	NTFS_AT_REPARSE		= 0xc0,
	NTFS_AT_EA_INFO		= 0xd0,
	NTFS_AT_EA		= 0xe0,
	NTFS_AT_LOGGED_STREAM	= 0x100,
	NTFS_AT_END		= 0xffffffff,
};

/* Attribute header, common part. */
struct ntfs_attr {
	__le32	type;			/* 0x00 */
	__le32	length;			/* 0x04 whole attribute, 8-byte aligned */
	u8	non_resident;		/* 0x08 */
	u8	name_length;		/* 0x09 UTF-16 units */
	__le16	name_offset;		/* 0x0a */
	__le16	flags;			/* 0x0c NTFS_ATTR_* */
	__le16	instance;		/* 0x0e */
	union {
		struct {
			__le32	value_length;	/* 0x10 */
			__le16	value_offset;	/* 0x14 */
			u8	indexed;	/* 0x16 */
			u8	pad;
		} __packed r;
		struct {
			__le64	lowest_vcn;	/* 0x10 */
			__le64	highest_vcn;	/* 0x18 */
			__le16	mp_offset;	/* 0x20 mapping pairs */
			u8	compression_unit; /* 0x22 log2 clusters, 0 = none */
			u8	pad[5];
			__le64	allocated_size;	/* 0x28 */
			__le64	data_size;	/* 0x30 */
			__le64	valid_size;	/* 0x38 initialized size */
			__le64	compressed_size; /* 0x40 compressed or sparse only */
		} __packed nr;
	};
} __packed;

#define NTFS_ATTR_RESIDENT_HDR	0x18
#define NTFS_ATTR_NONRES_HDR	0x40
#define NTFS_ATTR_NONRES_HDR_C	0x48

#define NTFS_ATTR_COMPRESSED	0x0001
#define NTFS_ATTR_COMPR_MASK	0x00ff
#define NTFS_ATTR_ENCRYPTED	0x4000
#define NTFS_ATTR_SPARSE	0x8000

/* $STANDARD_INFORMATION (0x30 bytes in NTFS 1.2, 0x48 in 3.x). */
struct ntfs_std_info {
	__le64	creation_time;		/* 0x00 100 ns units since 1601 */
	__le64	data_time;		/* 0x08 */
	__le64	mft_time;		/* 0x10 */
	__le64	access_time;		/* 0x18 */
	__le32	attributes;		/* 0x20 FILE_ATTRIBUTE_* */
	__le32	max_versions;		/* 0x24 */
	__le32	version;		/* 0x28 */
	__le32	class_id;		/* 0x2c */
	__le32	owner_id;		/* 0x30 3.x */
	__le32	security_id;		/* 0x34 3.x */
	__le64	quota_charged;		/* 0x38 3.x */
	__le64	usn;			/* 0x40 3.x */
} __packed;

#define NTFS_STD_INFO_V1_SIZE	0x30

/* File attribute flags ([MS-FSCC] 2.6). */
#define FILE_ATTRIBUTE_READONLY		0x00000001
#define FILE_ATTRIBUTE_HIDDEN		0x00000002
#define FILE_ATTRIBUTE_SYSTEM		0x00000004
#define FILE_ATTRIBUTE_DIRECTORY	0x00000010
#define FILE_ATTRIBUTE_ARCHIVE		0x00000020
#define FILE_ATTRIBUTE_DEVICE		0x00000040
#define FILE_ATTRIBUTE_NORMAL		0x00000080
#define FILE_ATTRIBUTE_TEMPORARY	0x00000100
#define FILE_ATTRIBUTE_SPARSE_FILE	0x00000200
#define FILE_ATTRIBUTE_REPARSE_POINT	0x00000400
#define FILE_ATTRIBUTE_COMPRESSED	0x00000800
#define FILE_ATTRIBUTE_OFFLINE		0x00001000
#define FILE_ATTRIBUTE_NOT_INDEXED	0x00002000
#define FILE_ATTRIBUTE_ENCRYPTED	0x00004000
#define FILE_ATTRIBUTE_RECALL_ON_OPEN	0x00040000	/* WSL sets it on its special files */
#define FILE_ATTRIBUTE_DUP_DIRECTORY	0x10000000	/* in $FILE_NAME: is a directory */
#define FILE_ATTRIBUTE_DUP_VIEW_INDEX	0x20000000

/* $ATTRIBUTE_LIST entry. */
struct ntfs_attr_list_entry {
	__le32	type;			/* 0x00 */
	__le16	length;			/* 0x04 */
	u8	name_length;		/* 0x06 */
	u8	name_offset;		/* 0x07 */
	__le64	lowest_vcn;		/* 0x08 */
	__le64	record;			/* 0x10 file reference of the holding record */
	__le16	instance;		/* 0x18 */
	__le16	name[];			/* 0x1a */
} __packed;

/* $FILE_NAME. */
struct ntfs_file_name {
	__le64	parent;			/* 0x00 reference of the parent directory */
	__le64	creation_time;		/* 0x08 */
	__le64	data_time;		/* 0x10 */
	__le64	mft_time;		/* 0x18 */
	__le64	access_time;		/* 0x20 */
	__le64	allocated_size;		/* 0x28 */
	__le64	data_size;		/* 0x30 */
	__le32	attributes;		/* 0x38 */
	__le32	ea_or_reparse;		/* 0x3c */
	u8	name_length;		/* 0x40 UTF-16 units */
	u8	name_space;		/* 0x41 NTFS_NS_* */
	__le16	name[];			/* 0x42 */
} __packed;

#define NTFS_NS_POSIX		0
#define NTFS_NS_WIN32		1
#define NTFS_NS_DOS		2
#define NTFS_NS_WIN32_AND_DOS	3

/* The longest name, in UTF-16 units (name_length is a byte). */
#define NTFS_MAX_NAME		255

/* $VOLUME_INFORMATION. */
struct ntfs_volume_info {
	__le64	reserved;
	u8	major;
	u8	minor;
	__le16	flags;			/* NTFS_VOLUME_* */
} __packed;

#define NTFS_VOLUME_DIRTY		0x0001
#define NTFS_VOLUME_RESIZE_LOG		0x0002
#define NTFS_VOLUME_UPGRADE		0x0004
#define NTFS_VOLUME_MOUNTED_NT4		0x0008
#define NTFS_VOLUME_DELETE_USN		0x0010
#define NTFS_VOLUME_REPAIR_OBJID	0x0020
#define NTFS_VOLUME_CHKDSK		0x4000
#define NTFS_VOLUME_MODIFIED_CHKDSK	0x8000

/* Header of the node of an index, in $INDEX_ROOT and in every index block. */
struct ntfs_index_header {
	__le32	entries_offset;		/* from this header */
	__le32	index_length;		/* bytes in use, from this header */
	__le32	allocated_size;
	u8	flags;			/* NTFS_INDEX_HAS_CHILDREN */
	u8	pad[3];
} __packed;

#define NTFS_INDEX_HAS_CHILDREN	0x01

/* $INDEX_ROOT value. */
struct ntfs_index_root {
	__le32	type;			/* indexed attribute, 0x30 for $I30 */
	__le32	collation;		/* NTFS_COLLATION_* */
	__le32	block_size;		/* bytes per index block */
	u8	clusters_per_block;
	u8	pad[3];
	struct ntfs_index_header hdr;	/* 0x10 */
} __packed;

#define NTFS_COLLATION_BINARY		0x00
#define NTFS_COLLATION_FILE_NAME	0x01
#define NTFS_COLLATION_UNICODE		0x02
#define NTFS_COLLATION_ULONG		0x10
#define NTFS_COLLATION_SID		0x11
#define NTFS_COLLATION_SECURITY_HASH	0x12
#define NTFS_COLLATION_ULONGS		0x13

/* Index block ("INDX"). */
struct ntfs_index_block {
	struct ntfs_usa_header usa;	/* 0x00 */
	__le64	lsn;			/* 0x08 */
	__le64	vcn;			/* 0x10 this block's VCN in $INDEX_ALLOCATION */
	struct ntfs_index_header hdr;	/* 0x18 */
} __packed;

/* Index entry; a sub-node VCN is in the last 8 bytes when it has one. */
struct ntfs_index_entry {
	union {
		__le64	ref;		/* $I30: the file */
		struct {
			__le16	data_offset;
			__le16	data_length;
			__le32	reserved;
		} __packed view;	/* other indexes: data after the key */
	};
	__le16	length;			/* 0x08 */
	__le16	key_length;		/* 0x0a */
	__le16	flags;			/* 0x0c NTFS_IE_* */
	__le16	pad;			/* 0x0e */
	/* 0x10 key */
} __packed;

#define NTFS_IE_HAS_CHILD	0x0001
#define NTFS_IE_LAST		0x0002

/* $REPARSE_POINT value ([MS-FSCC] 2.1.2). */
struct ntfs_reparse {
	__le32	tag;
	__le16	data_length;
	__le16	reserved;
	u8	data[];
} __packed;

#define IO_REPARSE_TAG_MOUNT_POINT	0xa0000003
#define IO_REPARSE_TAG_SYMLINK		0xa000000c
#define IO_REPARSE_TAG_WOF		0x80000017
#define IO_REPARSE_TAG_LX_SYMLINK	0xa000001d
#define IO_REPARSE_TAG_AF_UNIX		0x80000023
#define IO_REPARSE_TAG_LX_FIFO		0x80000024
#define IO_REPARSE_TAG_LX_CHR		0x80000025
#define IO_REPARSE_TAG_LX_BLK		0x80000026
#define IO_REPARSE_TAG_DEDUP		0x80000013

/* Symbolic link and mount point buffers: names in UTF-16 after the header. */
struct ntfs_reparse_link {
	__le16	subst_offset;
	__le16	subst_length;		/* bytes */
	__le16	print_offset;
	__le16	print_length;		/* bytes */
	__le32	flags;			/* symlink only: NTFS_SYMLINK_RELATIVE */
} __packed;

#define NTFS_SYMLINK_RELATIVE	0x00000001

/* $EA_INFORMATION and one $EA entry (FILE_FULL_EA_INFORMATION). */
struct ntfs_ea_info {
	__le16	packed_size;
	__le16	need_ea_count;
	__le32	unpacked_size;
} __packed;

struct ntfs_ea {
	__le32	next_offset;
	u8	flags;
	u8	name_length;
	__le16	value_length;
	char	name[];			/* NUL-terminated, then the value */
} __packed;

/* $Secure:$SDS entry header, and the data of a $Secure:$SII index entry. */
struct ntfs_sds_header {
	__le32	hash;
	__le32	security_id;
	__le64	offset;			/* of this header in $SDS */
	__le32	length;			/* header + descriptor */
} __packed;

#define NTFS_SDS_BLOCK		0x40000	/* each 256 KiB block is mirrored once */

/* $OBJECT_ID: a GUID, the key of $Extend\$ObjId:$O (birth ids may follow). */
#define NTFS_OBJECT_ID_LEN	16

/* $Extend\$UsnJrnl:$Max, the change journal's parameters. */
struct ntfs_usn_max {
	__le64	max_size;
	__le64	alloc_delta;
	__le64	journal_id;		/* an NTFS time when Windows stamps it */
	__le64	lowest_valid_usn;
} __packed;

/*
 * $Extend\$Quota:$Q, the quota control entries keyed by owner id (a le32,
 * ULONG collation); owner id 1 is the volume's defaults entry, whose
 * flags say whether Windows tracks and enforces quotas.  The owner's SID
 * follows, but not in the defaults entry.
 */
struct ntfs_quota_entry {
	__le32	version;		/* NTFS_QUOTA_VERSION */
	__le32	flags;			/* NTFS_QUOTA_* */
	__le64	bytes_used;		/* charged to the owner */
	__le64	change_time;
	__le64	threshold;		/* the warning level */
	__le64	limit;
	__le64	exceeded_time;
	/* 0x30: the owner's SID */
} __packed;

#define NTFS_QUOTA_VERSION		2
#define NTFS_QUOTA_DEFAULTS_ID		1
#define NTFS_QUOTA_DEFAULT_LIMITS	0x0001
#define NTFS_QUOTA_TRACKING		0x0010	/* charges are kept */
#define NTFS_QUOTA_ENFORCING		0x0020	/* limits are enforced */
#define NTFS_QUOTA_TRACKING_REQUESTED	0x0040
#define NTFS_QUOTA_OUT_OF_DATE		0x0200	/* Windows rebuilds the charges */

/* NTFS time: 100 ns units since 1601-01-01; this many seconds before 1970. */
#define NTFS_TIME_OFFSET	11644473600LL

#endif /* _NTFS3_NTFS_H */
