// SPDX-License-Identifier: GPL-2.0
/*
 * $ATTRIBUTE_LIST against the records: every entry must name an attribute
 * that its record really holds (type, name, first VCN, instance), in a
 * record of the same file with the right sequence number, and every
 * attribute of the file's records must have an entry.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

#define MAX_LIST_BYTES	(16u << 20)

/* (record, instance) of one listed attribute. */
struct listed {
	u64 rec;
	u16 instance;
};

static int listed_cmp(const void *x, const void *y)
{
	const struct listed *a = x, *b = y;

	if (a->rec != b->rec)
		return a->rec < b->rec ? -1 : 1;
	return (a->instance > b->instance) - (a->instance < b->instance);
}

/* Is record @x part of the file whose base is @base? */
static bool in_file(struct vol *v, u64 base, u64 x)
{
	return rec_ok(v, x) &&
	       (x == base || NTFS_REF_RECORD(v->recs[x].base_ref) == base);
}

/* The attribute of record @x that entry @e describes, or NULL. */
static struct ntfs_attr *entry_target(struct vol *v, u64 x,
				      const struct ntfs_attr_list_entry *e)
{
	struct ntfs_attr *a;

	for_each_attr(v, x, a) {
		u64 vcn = a->non_resident ? le64(a->nr.lowest_vcn) : 0;

		if (a->type == e->type && a->instance == e->instance &&
		    a->name_length == e->name_length && vcn == le64(e->lowest_vcn) &&
		    !memcmp((u8 *)a + le16(a->name_offset), (const u8 *)e + e->name_offset,
			    2u * e->name_length))
			return a;
	}
	return NULL;
}

/* Check one entry; on success add it to @seen. */
static void check_entry(struct vol *v, u64 base, const struct ntfs_attr_list_entry *e,
			unsigned int idx, struct listed *seen, size_t *nseen)
{
	u64 ref = le64(e->record), x = NTFS_REF_RECORD(ref);
	const char *type = attr_type_name(le32(e->type));

	if (!in_file(v, base, x)) {
		report(v, P_ATTRLIST, base, "$ATTRIBUTE_LIST",
		       "entry %u (%s) names record %llu, which is not a record of this file",
		       idx, type, (unsigned long long)x);
		return;
	}
	if (NTFS_REF_SEQ(ref) != v->recs[x].seq) {
		report(v, P_ATTRLIST, base, "$ATTRIBUTE_LIST",
		       "entry %u (%s) names record %llu with sequence %u, the record has %u",
		       idx, type, (unsigned long long)x, NTFS_REF_SEQ(ref), v->recs[x].seq);
		return;
	}
	if (!entry_target(v, x, e)) {
		report(v, P_ATTRLIST, base, "$ATTRIBUTE_LIST",
		       "entry %u (%s, instance %u, VCN %llu) has no such attribute in record %llu",
		       idx, type, le16(e->instance), (unsigned long long)le64(e->lowest_vcn),
		       (unsigned long long)x);
		return;
	}
	seen[*nseen].rec = x;
	seen[(*nseen)++].instance = le16(e->instance);
}

/* Parse the list; return the number of valid entries put in @seen. */
static size_t parse_list(struct vol *v, u64 base, const u8 *list, u32 len,
			 struct listed *seen)
{
	u32 off = 0, prev_type = 0;
	unsigned int idx = 0;
	size_t nseen = 0;

	while (off < len) {
		const struct ntfs_attr_list_entry *e = (const void *)(list + off);
		u32 elen;

		/* 0 when even the entry's header does not fit */
		elen = len - off < sizeof(*e) ? 0 : le16(e->length);
		if (elen < sizeof(*e) || elen > len - off ||
		    e->name_offset + 2u * e->name_length > elen) {
			report(v, P_ATTRLIST, base, "$ATTRIBUTE_LIST",
			       "entry %u at byte %u: length or name outside the list", idx, off);
			break;
		}
		if (le32(e->type) < prev_type)
			report(v, P_ATTRLIST, base, "$ATTRIBUTE_LIST",
			       "entry %u: type 0x%x after 0x%x, entries out of order",
			       idx, le32(e->type), prev_type);
		prev_type = le32(e->type);
		check_entry(v, base, e, idx, seen, &nseen);
		off += elen;
		idx++;
	}
	return nseen;
}

/* Every attribute of record @x (of the file @base) must be listed. */
static void check_listed(struct vol *v, u64 base, u64 x, const struct listed *seen,
			 size_t nseen)
{
	struct ntfs_attr *a;
	char desc[300];

	for_each_attr(v, x, a) {
		struct listed key = { .rec = x, .instance = le16(a->instance) };

		if (le32(a->type) == NTFS_AT_ATTR_LIST ||
		    bsearch(&key, seen, nseen, sizeof(*seen), listed_cmp))
			continue;
		report(v, P_ATTRLIST, base, "$ATTRIBUTE_LIST",
		       "%s (instance %u) of record %llu has no entry",
		       attr_desc(a, desc, sizeof(desc)), le16(a->instance),
		       (unsigned long long)x);
	}
}

static void check_one_list(struct vol *v, u64 base, struct stream *s)
{
	u8 *list;
	struct listed *seen;
	size_t nseen;
	u32 e;

	if (s->data_size > MAX_LIST_BYTES) {
		report(v, P_ATTRLIST, base, "$ATTRIBUTE_LIST", "%llu bytes long",
		       (unsigned long long)s->data_size);
		return;
	}
	list = xcalloc(1, s->data_size);
	if (stream_read(v, s, 0, list, s->data_size)) {
		report(v, P_ATTRLIST, base, "$ATTRIBUTE_LIST", "cannot be read");
		free(list);
		return;
	}
	seen = xcalloc(s->data_size / sizeof(struct ntfs_attr_list_entry) + 1, sizeof(*seen));
	nseen = parse_list(v, base, list, s->data_size, seen);
	qsort(seen, nseen, sizeof(*seen), listed_cmp);
	check_listed(v, base, base, seen, nseen);
	for (e = v->recs[base].ext_first; e; e = v->recs[e].ext_next)
		check_listed(v, base, e, seen, nseen);
	free(seen);
	free(list);
}

/**
 * check_attr_lists() - every base record's $ATTRIBUTE_LIST against its
 * records; a file with extension records must have one.
 */
void check_attr_lists(struct vol *v)
{
	unsigned long lists = 0;
	struct stream s;
	u64 r;

	for (r = 0; r < v->nrec; r++) {
		int err;

		if (!rec_ok(v, r) || v->recs[r].base_ref)
			continue;
		err = stream_open(v, r, NTFS_AT_ATTR_LIST, "", &s);
		if (err == -ENOENT && v->recs[r].ext_first)
			report(v, P_ATTRLIST, r, "$ATTRIBUTE_LIST",
			       "missing, but record %u is an extension of this file",
			       v->recs[r].ext_first);
		if (err)
			continue;
		check_one_list(v, r, &s);
		stream_free(&s);
		lists++;
	}
	checked(v, "%lu attribute lists", lists);
}
