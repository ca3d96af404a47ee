// SPDX-License-Identifier: GPL-2.0
/*
 * Every MFT record in use: its header, the bounds and order of its
 * attributes, the attributes a file needs, sizes and runlists.
 *
 * The structural checks come first and mark a broken record REC_BAD, so
 * that attr_next() afterwards only ever walks well-formed records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

static const struct {
	u32 type;
	const char *name;
} attr_names[] = {
	{ NTFS_AT_STANDARD_INFO, "$STANDARD_INFORMATION" },
	{ NTFS_AT_ATTR_LIST, "$ATTRIBUTE_LIST" },
	{ NTFS_AT_FILE_NAME, "$FILE_NAME" },
	{ NTFS_AT_OBJECT_ID, "$OBJECT_ID" },
	{ NTFS_AT_SECURITY, "$SECURITY_DESCRIPTOR" },
	{ NTFS_AT_VOLUME_NAME, "$VOLUME_NAME" },
	{ NTFS_AT_VOLUME_INFO, "$VOLUME_INFORMATION" },
	{ NTFS_AT_DATA, "$DATA" },
	{ NTFS_AT_INDEX_ROOT, "$INDEX_ROOT" },
	{ NTFS_AT_INDEX_ALLOC, "$INDEX_ALLOCATION" },
	{ NTFS_AT_BITMAP, "$BITMAP" },
	{ NTFS_AT_REPARSE, "$REPARSE_POINT" },
	{ NTFS_AT_EA_INFO, "$EA_INFORMATION" },
	{ NTFS_AT_EA, "$EA" },
	{ NTFS_AT_LOGGED_STREAM, "$LOGGED_UTILITY_STREAM" },
};

const char *attr_type_name(u32 type)
{
	static char buf[16];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(attr_names); i++)
		if (attr_names[i].type == type)
			return attr_names[i].name;
	snprintf(buf, sizeof(buf), "0x%x", type);
	return buf;
}

/* UTF-16LE to UTF-8 for messages; unpaired surrogates become '?'. */
void name_utf8(const __le16 *name, unsigned int len, char *out, size_t outlen)
{
	size_t o = 0;
	unsigned int i;

	for (i = 0; i < len && o + 5 < outlen; i++) {
		u32 c = get_le16(&name[i]);
		u32 next = i + 1 < len ? get_le16(&name[i + 1]) : 0;

		if (c >= 0xd800 && c < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
			i++;
		} else if (c >= 0xd800 && c < 0xe000) {
			c = '?';
		}
		if (c < 0x20 || c == 0x7f)
			c = '?';
		if (c < 0x80) {
			out[o++] = c;
		} else if (c < 0x800) {
			out[o++] = 0xc0 | c >> 6;
			out[o++] = 0x80 | (c & 0x3f);
		} else if (c < 0x10000) {
			out[o++] = 0xe0 | c >> 12;
			out[o++] = 0x80 | ((c >> 6) & 0x3f);
			out[o++] = 0x80 | (c & 0x3f);
		} else {
			out[o++] = 0xf0 | c >> 18;
			out[o++] = 0x80 | ((c >> 12) & 0x3f);
			out[o++] = 0x80 | ((c >> 6) & 0x3f);
			out[o++] = 0x80 | (c & 0x3f);
		}
	}
	out[o] = 0;
}

static const __le16 *attr_name(const struct ntfs_attr *a)
{
	return (const __le16 *)((const u8 *)a + le16(a->name_offset));
}

/* "$DATA", or "$DATA:name" for a named attribute. */
const char *attr_desc(const struct ntfs_attr *a, char *buf, size_t len)
{
	char name[256];

	if (!a->name_length) {
		snprintf(buf, len, "%s", attr_type_name(le32(a->type)));
	} else {
		name_utf8(attr_name(a), a->name_length, name, sizeof(name));
		snprintf(buf, len, "%s:%s", attr_type_name(le32(a->type)), name);
	}
	return buf;
}

bool attr_name_is(const struct ntfs_attr *a, const char *ascii)
{
	const __le16 *n = attr_name(a);
	size_t i, len = strlen(ascii);

	if (a->name_length != len)
		return false;
	for (i = 0; i < len; i++)
		if (get_le16(&n[i]) != (u8)ascii[i])
			return false;
	return true;
}

/* A resident attribute's value, bounds already checked by check_records. */
const void *attr_value(const struct ntfs_attr *a, u32 *len)
{
	u32 off = le16(a->r.value_offset), vlen = le32(a->r.value_length);

	if (a->non_resident || off > le32(a->length) || vlen > le32(a->length) - off)
		return NULL;
	*len = vlen;
	return (const u8 *)a + off;
}

/*
 * The next attribute of a record buffer whose first @used bytes are in use,
 * or NULL at the end or at one that does not fit (also for records not
 * checked yet: volume.c finds $MFT's own extents with it).
 */
struct ntfs_attr *attr_step(u8 *buf, u32 used, struct ntfs_attr *prev)
{
	const struct ntfs_record *h = (const void *)buf;
	u32 off = prev ? (u32)((u8 *)prev - buf) + le32(prev->length) :
			 le16(h->attrs_offset);
	struct ntfs_attr *a;

	if (off > used || used - off < 8)
		return NULL;
	a = (struct ntfs_attr *)(buf + off);
	if (le32(a->type) == NTFS_AT_END || le32(a->length) < NTFS_ATTR_RESIDENT_HDR ||
	    le32(a->length) > used - off || le32(a->length) & 7)
		return NULL;
	return a;
}

struct ntfs_attr *attr_next(struct vol *v, u64 r, struct ntfs_attr *prev)
{
	u8 *buf;

	if (!rec_ok(v, r))
		return NULL;
	buf = rec_buf(v, r);
	return attr_step(buf, le32(((struct ntfs_record *)buf)->bytes_in_use), prev);
}

/* Header of an in-use record.  Return: NULL, or the rule it breaks. */
static const char *header_rule(struct vol *v, u64 r)
{
	const struct ntfs_record *h = (const void *)rec_buf(v, r);
	u32 aoff = le16(h->attrs_offset), used = le32(h->bytes_in_use);
	u32 usa_end = le16(h->usa.usa_offset) + 2 * le16(h->usa.usa_count);

	if (le32(h->bytes_allocated) != v->record_size)
		return "bytes allocated differs from the record size";
	if (used > v->record_size || used & 7)
		return "bytes in use beyond the record or not 8-byte aligned";
	if (aoff & 7 || aoff < usa_end || aoff > used || used - aoff < 8)
		return "first attribute offset outside the record";
	if (le16(h->usa.usa_offset) >= 0x30 && le32(h->record_number) != (u32)r)
		return "record number field differs from the record's position";
	return NULL;
}

/* Bounds of one attribute header.  Return: NULL, or the rule it breaks. */
static const char *attr_rule(const struct ntfs_attr *a)
{
	u32 len = le32(a->length), noff = le16(a->name_offset);
	u32 nend = noff + 2 * a->name_length, data;

	if (len & 7)
		return "length not 8-byte aligned";
	if (a->non_resident > 1)
		return "non-resident flag neither 0 nor 1";
	if (a->non_resident) {
		u32 hdr = (le16(a->flags) & NTFS_ATTR_COMPR_MASK) || a->nr.compression_unit ?
			  NTFS_ATTR_NONRES_HDR_C : NTFS_ATTR_NONRES_HDR;

		if (len < NTFS_ATTR_NONRES_HDR)
			return "non-resident header longer than the attribute";
		if (hdr > len)
			hdr = NTFS_ATTR_NONRES_HDR;
		data = le16(a->nr.mp_offset);
		if (data < hdr || data >= len)
			return "mapping pairs offset outside the attribute";
	} else {
		data = le16(a->r.value_offset);
		if (data < NTFS_ATTR_RESIDENT_HDR || data > len ||
		    le32(a->r.value_length) > len - data)
			return "resident value outside the attribute";
	}
	if (a->name_length &&
	    (noff < NTFS_ATTR_RESIDENT_HDR || nend > len ||
	     (nend > data &&
	      noff < data + (a->non_resident ? 0 : le32(a->r.value_length)))))
		return "name outside the header or over the value";
	return NULL;
}

/* Walk the attribute headers of record @r; REC_BAD on the first bad one. */
static void check_structure(struct vol *v, u64 r)
{
	u8 *buf = rec_buf(v, r);
	const struct ntfs_record *h = (const void *)buf;
	const char *why = header_rule(v, r);
	u32 used = le32(h->bytes_in_use), off, count = 0;
	char desc[300];

	if (why) {
		report(v, P_RECORD, r, "header", "%s", why);
		v->recs[r].state = REC_BAD;
		return;
	}
	for (off = le16(h->attrs_offset); ; count++) {
		const struct ntfs_attr *a = (const void *)(buf + off);
		u32 len;

		if (used - off < 4 || (le32(a->type) != NTFS_AT_END &&
				       used - off < NTFS_ATTR_RESIDENT_HDR)) {
			why = "no end marker inside the bytes in use";
			break;
		}
		if (le32(a->type) == NTFS_AT_END)
			return;
		len = le32(a->length);
		if (len < NTFS_ATTR_RESIDENT_HDR || len > used - off) {
			why = "attribute length runs outside the record";
			break;
		}
		why = attr_rule(a);
		if (why) {
			report(v, P_ATTR, r, attr_desc(a, desc, sizeof(desc)), "%s", why);
			v->recs[r].state = REC_BAD;
			return;
		}
		off += len;
	}
	report(v, P_ATTR, r, "attribute list of the record", "%s (attribute %u)", why, count);
	v->recs[r].state = REC_BAD;
}

/* An extension record must name a live base record with its sequence. */
static void check_extension(struct vol *v, u64 r)
{
	struct rec *x = &v->recs[r];
	u64 b = NTFS_REF_RECORD(x->base_ref);

	if (b >= v->nrec || b == r || v->recs[b].state != REC_USED ||
	    v->recs[b].base_ref) {
		report(v, P_RECORD, r, "base reference",
		       "extension record of record %llu, which is not a base record in use",
		       (unsigned long long)b);
		x->state = REC_BAD;
		return;
	}
	if (v->recs[b].seq != NTFS_REF_SEQ(x->base_ref)) {
		report(v, P_RECORD, r, "base reference",
		       "names sequence %u of record %llu, which has %u",
		       NTFS_REF_SEQ(x->base_ref), (unsigned long long)b, v->recs[b].seq);
		x->state = REC_BAD;
		return;
	}
	x->ext_next = v->recs[b].ext_first;
	v->recs[b].ext_first = r;
}

/* Runs of a non-resident extent: decodable, inside the volume, complete. */
static void check_runs(struct vol *v, u64 r, const struct ntfs_attr *a, const char *desc)
{
	u64 lo = le64(a->nr.lowest_vcn), hi = le64(a->nr.highest_vcn), total = 0;
	struct runs runs = { 0 };
	const char *why;
	size_t i;

	if (hi == UINT64_MAX)
		return;
	if (hi < lo) {
		report(v, P_RUNLIST, r, desc, "highest VCN %llu below lowest VCN %llu",
		       (unsigned long long)hi, (unsigned long long)lo);
		return;
	}
	if (runs_decode(v, a, &runs, &why)) {
		report(v, P_RUNLIST, r, desc, "%s", why);
		runs_free(&runs);
		return;
	}
	for (i = 0; i < runs.n; i++) {
		const struct run *x = &runs.v[i];

		total += x->len;
		if (x->lcn != LCN_HOLE && (x->lcn >= v->clusters || x->len > v->clusters - x->lcn))
			report(v, P_RUNLIST, r, desc,
			       "run %zu (clusters %llu-%llu) ends past the volume's %llu clusters",
			       i, (unsigned long long)x->lcn,
			       (unsigned long long)(x->lcn + x->len - 1),
			       (unsigned long long)v->clusters);
	}
	if (total != hi - lo + 1)
		report(v, P_RUNLIST, r, desc, "runs cover %llu clusters, VCNs %llu-%llu need %llu",
		       (unsigned long long)total, (unsigned long long)lo,
		       (unsigned long long)hi, (unsigned long long)(hi - lo + 1));
	runs_free(&runs);
}

/* Sizes of a non-resident attribute's first extent. */
static void check_sizes(struct vol *v, u64 r, const struct ntfs_attr *a, const char *desc)
{
	u64 alloc = le64(a->nr.allocated_size), data = le64(a->nr.data_size);
	u64 valid = le64(a->nr.valid_size);

	if (le64(a->nr.lowest_vcn))
		return;
	if (alloc & (v->cluster_size - 1))
		report(v, P_SIZES, r, desc,
		       "allocated size %llu is not a multiple of the cluster size",
		       (unsigned long long)alloc);
	if (data > alloc)
		report(v, P_SIZES, r, desc, "data size %llu exceeds the allocated size %llu",
		       (unsigned long long)data, (unsigned long long)alloc);
	if (valid > data)
		report(v, P_SIZES, r, desc, "initialized size %llu exceeds the data size %llu",
		       (unsigned long long)valid, (unsigned long long)data);
}

/* Attributes that NTFS always keeps resident. */
static bool must_be_resident(u32 type)
{
	return type == NTFS_AT_STANDARD_INFO || type == NTFS_AT_FILE_NAME ||
	       type == NTFS_AT_OBJECT_ID || type == NTFS_AT_VOLUME_NAME ||
	       type == NTFS_AT_VOLUME_INFO || type == NTFS_AT_INDEX_ROOT;
}

/* $FILE_NAME value; counts the name for its base record. */
static void check_file_name(struct vol *v, u64 r, u64 base, const struct ntfs_attr *a)
{
	u32 len = 0;
	const struct ntfs_file_name *fn = attr_value(a, &len);

	if (!fn || len < sizeof(*fn) || !fn->name_length ||
	    len < sizeof(*fn) + 2u * fn->name_length) {
		report(v, P_ATTR, r, "$FILE_NAME", "value of %u bytes too short for its name", len);
		return;
	}
	if (fn->name_space > NTFS_NS_WIN32_AND_DOS)
		report(v, P_ATTR, r, "$FILE_NAME", "unknown namespace %u", fn->name_space);
	v->recs[base].names++;
}

/* $STANDARD_INFORMATION: size; remembers attributes and security id. */
static void check_std_info(struct vol *v, u64 r, const struct ntfs_attr *a)
{
	u32 len = 0;
	const struct ntfs_std_info *si = attr_value(a, &len);

	if (!si || len < NTFS_STD_INFO_V1_SIZE) {
		report(v, P_ATTR, r, "$STANDARD_INFORMATION",
		       "value of %u bytes is too short", len);
		return;
	}
	v->recs[r].file_attrs = le32(si->attributes);
	if (len >= offsetof(struct ntfs_std_info, quota_charged))
		v->recs[r].security_id = le32(si->security_id);
}

/* Instance numbers: unique in the record and below the next instance. */
static void check_instances(struct vol *v, u64 r)
{
	const struct ntfs_record *h = (const void *)rec_buf(v, r);
	struct ntfs_attr *a, *b;

	for_each_attr(v, r, a) {
		if (le16(a->instance) >= le16(h->next_instance))
			report(v, P_ATTR, r, attr_type_name(le32(a->type)),
			       "instance %u not below the record's next instance %u",
			       le16(a->instance), le16(h->next_instance));
		for (b = attr_next(v, r, a); b; b = attr_next(v, r, b))
			if (a->instance == b->instance)
				report(v, P_ATTR, r, attr_type_name(le32(a->type)),
				       "instance %u used twice", le16(a->instance));
	}
}

/* Contents of one well-formed record: order, residency, values, runs. */
static void check_contents(struct vol *v, u64 r)
{
	u64 base = record_base(v, r);
	struct ntfs_attr *a;
	u32 prev = 0;
	char desc[300];

	/* Sequence 0 is never handed out: references to it would match stale ones. */
	if (r >= NTFS_FIRST_USER_INO && !v->recs[r].seq)
		report(v, P_RECORD, r, "sequence", "record in use has sequence number 0");
	for_each_attr(v, r, a) {
		u32 type = le32(a->type);

		attr_desc(a, desc, sizeof(desc));
		if (type < prev)
			report(v, P_ATTR, r, desc,
			       "type 0x%x after type 0x%x: attributes out of order",
			       type, prev);
		prev = type;
		if (a->non_resident && must_be_resident(type)) {
			report(v, P_ATTR, r, desc, "must be resident");
			continue;
		}
		if (type == NTFS_AT_FILE_NAME)
			check_file_name(v, r, base, a);
		else if (type == NTFS_AT_STANDARD_INFO)
			check_std_info(v, r, a);
		else if (type == NTFS_AT_REPARSE)
			v->recs[base].reparse = true;
		if (a->non_resident) {
			check_sizes(v, r, a, desc);
			check_runs(v, r, a, desc);
		}
	}
	check_instances(v, r);
}

/* Does record @r hold the $INDEX_ROOT of a $I30 index? */
static bool has_i30_root(struct vol *v, u64 r)
{
	struct ntfs_attr *a;

	for_each_attr(v, r, a)
		if (le32(a->type) == NTFS_AT_INDEX_ROOT && attr_name_is(a, "$I30"))
			return true;
	return false;
}

/* A base record needs $STANDARD_INFORMATION; a directory its $I30 root. */
static void check_required(struct vol *v, u64 r)
{
	struct ntfs_attr *a = attr_next(v, r, NULL);
	bool i30 = has_i30_root(v, r);
	u32 e;

	if (!a || le32(a->type) != NTFS_AT_STANDARD_INFO)
		report(v, P_ATTR, r, "$STANDARD_INFORMATION",
		       "missing (must be the first attribute)");
	for (e = v->recs[r].ext_first; e && !i30; e = v->recs[e].ext_next)
		i30 = has_i30_root(v, e);
	if ((v->recs[r].flags & NTFS_RECORD_IS_DIR) && !i30)
		report(v, P_ATTR, r, "$INDEX_ROOT:$I30",
		       "directory flag set but no $I30 index root");
	if (!(v->recs[r].flags & NTFS_RECORD_IS_DIR) && i30)
		report(v, P_RECORD, r, "flags",
		       "has a $I30 index root but no directory flag");
}

/**
 * check_records() - pass 1 over every record in use: structure first (bad
 * records become REC_BAD), then base references, then contents.
 */
void check_records(struct vol *v)
{
	u64 r;

	for (r = 0; r < v->nrec; r++)
		if (v->recs[r].state == REC_USED)
			check_structure(v, r);
	/* Extension records last to first, so each base's list is ascending. */
	for (r = v->nrec; r-- > 0;)
		if (v->recs[r].state == REC_USED && v->recs[r].base_ref)
			check_extension(v, r);
	for (r = 0; r < v->nrec; r++)
		if (v->recs[r].state == REC_USED)
			check_contents(v, r);
	for (r = 0; r < v->nrec; r++)
		if (v->recs[r].state == REC_USED && !v->recs[r].base_ref)
			check_required(v, r);
	/* The system files up to $UpCase ($Extend exists only in NTFS 3.x). */
	for (r = 0; r <= NTFS_UPCASE_INO; r++)
		if (v->recs[r].state == REC_FREE)
			report(v, P_RECORD, r, "header", "system file record not in use");
	checked(v, "%llu MFT records: headers, attributes, runlists, sizes",
		(unsigned long long)v->nrec);
}
