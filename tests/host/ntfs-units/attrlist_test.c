// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of ntfs3/attrlist.c: the resident $ATTRIBUTE_LIST of a
 * base record checked, searched, grown and shrunk in place, the record
 * compared after every edit with a model of what it must hold (written
 * here, independently of attrlist.c).
 *
 *   attrlist_test       run the tests, TAP on stdout
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include "ntfs.h"
#include "attrrec.h"
#include "attrlist.h"
#include "units.h"
#include "record.h"

#define RSIZE	1024
#define FIRST	0x38	/* attrs_offset of a fresh record */
#define HDR	0x1a	/* bytes of a list entry before its name */

/* The base record: record 42, sequence 3. */
#define BASE	(42ULL | 3ULL << 48)
#define REF(nr, seq)	((u64)(nr) | (u64)(seq) << 48)

/*
 * The test record: $STANDARD_INFORMATION, $ATTRIBUTE_LIST, $FILE_NAME and
 * $DATA, resident, unnamed, inserted in that order (instances 0 to 3);
 * their value lengths and the byte every value byte holds.
 */
#define SI_LEN		0x48
#define SI_FILL		0x33
#define SI_ALEN		0x60	/* 0x18 + 0x48 */
#define FN_LEN		0x4a
#define FN_FILL		0x66
#define FN_ALEN		0x68	/* 0x18 + 0x4a, aligned */
#define DATA_LEN	13
#define DATA_FILL	0x88
#define DATA_ALEN	0x28	/* 0x18 + 13, aligned */
/* bytes_in_use with an empty list: header, the four, end marker. */
#define USED0		(FIRST + SI_ALEN + 0x18 + FN_ALEN + DATA_ALEN + 8)

static __le16 upcase[128];
static const struct ntfs_arec_ctx ctx = { RSIZE, upcase, 128 };

/* The model of one list entry. */
struct ment {
	u32 type;
	u8 name_len;
	__le16 name[255];
	u64 vcn;
	u64 ref;
	u16 instance;
};

struct model {
	struct ment e[128];
	unsigned int n;
};

/* Entry length by name length, as the format has it: 8-aligned. */
static u32 mlen(u8 name_len)
{
	return (HDR + 2U * name_len + 7) / 8 * 8;
}

static void name_of(struct ment *x, const char *s)
{
	x->name_len = strlen(s);
	for (unsigned int i = 0; i < x->name_len; i++)
		x->name[i] = (u8)s[i];
}

static struct ment key(u32 type, const char *name, u64 vcn, u64 ref, u16 instance)
{
	struct ment x = { .type = type, .vcn = vcn, .ref = ref, .instance = instance };

	name_of(&x, name);
	return x;
}

/*
 * The order of the list, written independently of attrlist.c: type, then
 * the name upcased, then the shorter name, then the exact units, then the
 * lowest VCN.
 */
static int mcmp(const struct ment *x, const struct ment *y)
{
	int order;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	order = model_name_cmp(x->name, x->name_len, y->name, y->name_len, upcase);
	if (order)
		return order;
	if (x->vcn != y->vcn)
		return x->vcn < y->vcn ? -1 : 1;
	return 0;
}

/* A new entry goes after every entry that sorts equal to it. */
static void model_add(struct model *m, const struct ment *x)
{
	unsigned int i;

	for (i = 0; i < m->n && mcmp(&m->e[i], x) <= 0; i++)
		;
	memmove(&m->e[i + 1], &m->e[i], (m->n - i) * sizeof(*x));
	m->e[i] = *x;
	m->n++;
}

static void model_del(struct model *m, unsigned int i)
{
	memmove(&m->e[i], &m->e[i + 1], (m->n - i - 1) * sizeof(m->e[0]));
	m->n--;
}

static u32 model_size(const struct model *m)
{
	u32 size = 0;

	for (unsigned int i = 0; i < m->n; i++)
		size += mlen(m->e[i].name_len);
	return size;
}

/* Index of the first entry of (type, record number, instance), or -1. */
static int model_find(const struct model *m, u32 type, u64 recnr, u16 instance)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (m->e[i].type == type && (m->e[i].ref & 0xffffffffffffULL) == recnr &&
		    m->e[i].instance == instance)
			return i;
	return -1;
}

static u32 model_ofs(const struct model *m, unsigned int i)
{
	u32 ofs = 0;

	while (i--)
		ofs += mlen(m->e[i].name_len);
	return ofs;
}

static bool model_elsewhere(const struct model *m, const struct ment *x, u64 recnr)
{
	for (unsigned int i = 0; i < m->n; i++) {
		const struct ment *e = &m->e[i];

		if (e->type == x->type && e->name_len == x->name_len &&
		    !memcmp(e->name, x->name, 2 * x->name_len) &&
		    (e->ref & 0xffffffffffffULL) != recnr)
			return true;
	}
	return false;
}

/* The attribute of @type in the record, by walking it; NULL if none. */
static struct ntfs_attr *attr_of(u8 *rec, u32 type)
{
	u32 ofs = FIRST;

	while (ofs + 8 <= RSIZE && *(u32 *)(rec + ofs) != 0xffffffff) {
		struct ntfs_attr *a = (void *)(rec + ofs);

		if (a->type == type)
			return a;
		if (a->length < 0x18 || a->length > RSIZE - ofs)
			return NULL;
		ofs += a->length;
	}
	return NULL;
}

static struct ntfs_attr *list_of(u8 *rec)
{
	return attr_of(rec, NTFS_AT_ATTR_LIST);
}

static u8 *value(struct ntfs_attr *a)
{
	return (u8 *)a + a->r.value_offset;
}

static u32 used(const u8 *rec)
{
	return ((const struct ntfs_record *)rec)->bytes_in_use;
}

/* An empty record: header, end marker, bytes_in_use just after it. */
static void fresh(u8 *rec)
{
	fresh_record(rec, RSIZE, FIRST);
}

/* Write one entry into a list value at @ofs; return the offset after it. */
static u32 put(u8 *v, u32 ofs, const struct ment *x)
{
	struct ntfs_attr_list_entry *e = (void *)(v + ofs);
	u32 len = mlen(x->name_len);

	memset(v + ofs, 0, len);
	e->type = x->type;
	e->length = len;
	e->name_length = x->name_len;
	e->name_offset = HDR;
	e->lowest_vcn = x->vcn;
	e->record = x->ref;
	e->instance = x->instance;
	memcpy(v + ofs + HDR, x->name, 2 * x->name_len);
	return ofs + len;
}

/*
 * The test record with a list of one entry, for $STANDARD_INFORMATION in
 * the base record; the model holds that entry.
 */
static int setup(u8 *rec, struct model *m)
{
	struct ntfs_attr *a;
	int ok = 1;

	fresh(rec);
	ok &= !IS_ERR(ntfs_arec_insert(&ctx, rec, NTFS_AT_STANDARD_INFO, NULL, 0,
				       NTFS_AREC_RESIDENT, SI_LEN));
	ok &= !IS_ERR(ntfs_arec_insert(&ctx, rec, NTFS_AT_ATTR_LIST, NULL, 0,
				       NTFS_AREC_RESIDENT, 0x20));
	ok &= !IS_ERR(ntfs_arec_insert(&ctx, rec, NTFS_AT_FILE_NAME, NULL, 0,
				       NTFS_AREC_RESIDENT, FN_LEN));
	ok &= !IS_ERR(ntfs_arec_insert(&ctx, rec, NTFS_AT_DATA, NULL, 0,
				       NTFS_AREC_RESIDENT, DATA_LEN));
	if (!ok)
		return 0;
	a = attr_of(rec, NTFS_AT_STANDARD_INFO);
	memset(value(a), SI_FILL, SI_LEN);
	a = attr_of(rec, NTFS_AT_FILE_NAME);
	memset(value(a), FN_FILL, FN_LEN);
	a = attr_of(rec, NTFS_AT_DATA);
	memset(value(a), DATA_FILL, DATA_LEN);
	m->n = 0;
	m->e[m->n++] = key(NTFS_AT_STANDARD_INFO, "", 0, BASE, 0);
	put(value(list_of(rec)), 0, &m->e[0]);
	return 1;
}

/* Whether @e holds exactly @x: every field, the name, zero padding. */
static int entry_is(const u8 *p, const struct ment *x)
{
	const struct ntfs_attr_list_entry *e = (const void *)p;
	u32 len = mlen(x->name_len), k;

	if (e->type != x->type || e->length != len || e->name_length != x->name_len ||
	    e->name_offset != HDR || e->lowest_vcn != x->vcn || e->record != x->ref ||
	    e->instance != x->instance || memcmp(p + HDR, x->name, 2 * x->name_len))
		return 0;
	for (k = HDR + 2 * x->name_len; k < len; k++)
		if (p[k])
			return 0;
	return 1;
}

/* A resident unnamed attribute of the test record, intact. */
static int attr_is(const u8 *p, u32 type, u16 instance, u32 len, u32 vlen, u8 fill)
{
	const struct ntfs_attr *a = (const void *)p;
	u32 k;

	if (a->type != type || a->length != len || a->non_resident || a->name_length ||
	    a->instance != instance || a->r.value_offset != 0x18 || a->r.value_length != vlen)
		return 0;
	for (k = 0; k < vlen; k++)
		if (p[0x18 + k] != fill)
			return 0;
	for (k = 0x18 + vlen; k < len; k++)
		if (p[k])
			return 0;
	return 1;
}

/*
 * Whether @rec holds exactly the test record with the model's list: the
 * four attributes in order and intact, the list's value the model's
 * entries, end marker, bytes_in_use, the rest of the record zero.
 */
static int matches(const u8 *rec, const struct model *m, const char **why)
{
	static char buf[80];
	const struct ntfs_record *r = (const void *)rec;
	const struct ntfs_attr *a;
	u32 ofs = FIRST, size = model_size(m), lofs = 0, i, k;

	if (!attr_is(rec + ofs, NTFS_AT_STANDARD_INFO, 0, SI_ALEN, SI_LEN, SI_FILL)) {
		*why = "$STANDARD_INFORMATION";
		return 0;
	}
	ofs += SI_ALEN;
	a = (const void *)(rec + ofs);
	if (a->type != NTFS_AT_ATTR_LIST || a->non_resident || a->name_length ||
	    a->instance != 1 || a->r.value_offset != 0x18 || a->r.value_length != size ||
	    a->length != 0x18 + size) {
		*why = "list header (length, value length)";
		return 0;
	}
	for (i = 0; i < m->n; i++) {
		if (!entry_is(rec + ofs + 0x18 + lofs, &m->e[i])) {
			snprintf(buf, sizeof(buf), "list entry %u of %u", i, m->n);
			*why = buf;
			return 0;
		}
		lofs += mlen(m->e[i].name_len);
	}
	ofs += 0x18 + size;
	if (!attr_is(rec + ofs, NTFS_AT_FILE_NAME, 2, FN_ALEN, FN_LEN, FN_FILL)) {
		*why = "$FILE_NAME after the list";
		return 0;
	}
	ofs += FN_ALEN;
	if (!attr_is(rec + ofs, NTFS_AT_DATA, 3, DATA_ALEN, DATA_LEN, DATA_FILL)) {
		*why = "$DATA after the list";
		return 0;
	}
	ofs += DATA_ALEN;
	if (*(const u32 *)(rec + ofs) != 0xffffffff || r->bytes_in_use != ofs + 8 ||
	    r->bytes_in_use != USED0 + size || r->next_instance != 4) {
		*why = "end marker, bytes_in_use or next_instance";
		return 0;
	}
	for (k = ofs + 4; k < RSIZE; k++)
		if (rec[k]) {
			*why = "bytes past the end not zero";
			return 0;
		}
	return 1;
}

/* ntfs_alist_add() of @x; the model follows.  Returns its result. */
static int add(u8 *rec, struct model *m, const struct ment *x)
{
	struct ntfs_alist_key k = {
		.type = x->type, .name = x->name_len ? x->name : NULL,
		.name_len = x->name_len, .lowest_vcn = x->vcn, .ref = x->ref,
		.instance = x->instance,
	};
	int ret = ntfs_alist_add(&ctx, rec, list_of(rec), &k);

	if (!ret)
		model_add(m, x);
	return ret;
}

/* The order a list must end up in after the adds of test_add(). */
static const struct {
	u32 type;
	const char *name;
	u64 vcn;
	u64 ref;
	u16 instance;
	u32 len;
} sorted[] = {
	{ NTFS_AT_STANDARD_INFO, "", 0, BASE, 0, 0x20 },
	{ NTFS_AT_FILE_NAME, "", 0, BASE, 2, 0x20 },
	{ NTFS_AT_DATA, "", 0, REF(50, 1), 1, 0x20 },
	{ NTFS_AT_DATA, "", 50, REF(52, 7), 0, 0x20 },
	{ NTFS_AT_DATA, "", 50, REF(53, 1), 9, 0x20 },
	{ NTFS_AT_DATA, "", 100, REF(51, 1), 0, 0x20 },
	{ NTFS_AT_DATA, "", 1ULL << 33, REF(54, 1), 0, 0x20 },
	{ NTFS_AT_DATA, "A", 0, REF(44, 1), 6, 0x20 },
	{ NTFS_AT_DATA, "a", 0, REF(43, 1), 7, 0x20 },
	{ NTFS_AT_DATA, "a", 16, REF(43, 1), 10, 0x20 },
	{ NTFS_AT_DATA, "ab", 0, REF(43, 1), 8, 0x20 },
	{ NTFS_AT_DATA, "ab", 0, REF(46, 1), 3, 0x20 },
	{ NTFS_AT_DATA, "B", 0, REF(43, 1), 9, 0x20 },
	{ NTFS_AT_DATA, "b", 0, REF(43, 1), 5, 0x20 },
	{ NTFS_AT_INDEX_ROOT, "$I30", 0, BASE, 4, 0x28 },
	{ NTFS_AT_LOGGED_STREAM, "Stream", 0, REF(45, 1), 1, 0x28 },
};

#define NSORTED	(sizeof(sorted) / sizeof(sorted[0]))

/* The adds of test_add(), in this order; entries equal to one go after it. */
static const unsigned int add_order[] = { 2, 5, 3, 1, 13, 7, 8, 10, 12, 4, 14, 15, 9, 11, 6 };

static struct ment sorted_key(unsigned int i)
{
	return key(sorted[i].type, sorted[i].name, sorted[i].vcn, sorted[i].ref,
		   sorted[i].instance);
}

/* The test record with the whole list of sorted[]; 1 if all went well. */
static int build_sorted(u8 *rec, struct model *m)
{
	unsigned int i;
	int ok = setup(rec, m);

	for (i = 0; ok && i < NSORTED - 1; i++) {
		struct ment x = sorted_key(add_order[i]);

		ok = !add(rec, m, &x);
	}
	return ok;
}

static void test_base_ref(void)
{
	static u8 rec[RSIZE];
	static u8 v[0x60];
	static struct model m;
	struct ment x;
	u64 ref = 0;
	const char *why = "";
	u32 size;
	int ok = setup(rec, &m), ret;

	tap_result(ok && matches(rec, &m, &why) &&
		   list_of(rec)->r.value_length == 0x20 && used(rec) == USED0 + 0x20,
		   "setup: a base record with $STANDARD_INFORMATION, a list of one entry, $FILE_NAME, $DATA (%s)",
		   why);
	ret = ntfs_alist_base_ref(value(list_of(rec)), 0x20, &ref);
	tap_result(!ret && ref == BASE,
		   "base_ref: the reference of the $STANDARD_INFORMATION entry (%d, 0x%llx)",
		   ret, (unsigned long long)ref);

	x = key(NTFS_AT_FILE_NAME, "", 0, REF(42, 3), 2);
	size = put(v, 0, &x);
	x = key(NTFS_AT_DATA, "ab", 0, REF(43, 9), 1);
	size = put(v, size, &x);
	ref = 7;
	tap_result(ntfs_alist_base_ref(v, size, &ref) == -EIO,
		   "base_ref: -EIO for a list with no type-0x10 entry");
	tap_result(ntfs_alist_base_ref(v, 0, &ref) == -EIO,
		   "base_ref: -EIO for an empty list");
	x = key(NTFS_AT_STANDARD_INFO, "", 0, REF(77, 0xfffe), 0);
	size = put(v, size, &x);
	ret = ntfs_alist_base_ref(v, size, &ref);
	tap_result(!ret && ref == REF(77, 0xfffe),
		   "base_ref: a type-0x10 entry after others is found (%d, 0x%llx)",
		   ret, (unsigned long long)ref);
}

static void test_add(void)
{
	static u8 rec[RSIZE];
	static struct model m;
	const char *why = "";
	unsigned int i, step_bad = 0;
	int ok = setup(rec, &m);

	for (i = 0; ok && i < NSORTED - 1; i++) {
		struct ment x = sorted_key(add_order[i]);
		u32 size = list_of(rec)->r.value_length, u = used(rec);
		int ret = add(rec, &m, &x);

		if (ret || list_of(rec)->r.value_length != size + sorted[add_order[i]].len ||
		    used(rec) != u + sorted[add_order[i]].len || !matches(rec, &m, &why)) {
			diag("add %u (entry %u): ret %d, value length 0x%x -> 0x%x, bytes_in_use 0x%x -> 0x%x: %s",
			     i, add_order[i], ret, size, list_of(rec)->r.value_length, u,
			     used(rec), why);
			step_bad++;
		}
	}
	tap_result(ok && !step_bad,
		   "add: each of %zu adds grows the value and bytes_in_use by the entry length, entries and the attributes after the list intact (%s)",
		   NSORTED - 1, why);

	/* The order, every field, against the table rather than the model. */
	{
		const u8 *v = value(list_of(rec));
		u32 ofs = 0, bad = NSORTED;

		for (i = 0; i < NSORTED; i++) {
			const struct ntfs_attr_list_entry *e = (const void *)(v + ofs);
			struct ment x = sorted_key(i);

			if (e->length != sorted[i].len || !entry_is(v + ofs, &x)) {
				bad = i;
				break;
			}
			ofs += sorted[i].len;
		}
		tap_result(bad == NSORTED && list_of(rec)->r.value_length == ofs &&
			   ofs == 14 * 0x20 + 2 * 0x28 && used(rec) == USED0 + ofs,
			   "add: sorted by type, name (A a ab B b), lowest VCN; equal entries in the order added (first wrong: %d)",
			   bad == NSORTED ? -1 : (int)bad);
	}
}

static void test_nospc(void)
{
	static u8 rec[RSIZE], copy[RSIZE];
	static struct model m;
	const char *why = "";
	struct ment x;
	unsigned int i;
	int ok = setup(rec, &m), r1, r2, ret;

	/* 0x218 bytes (a name of 255 units) and 0x40 leave 64 of the 0x298 free. */
	x = key(NTFS_AT_DATA, "", 5, REF(60, 1), 4);
	x.name_len = 255;
	for (i = 0; i < 255; i++)
		x.name[i] = 'a' + i % 26;
	r1 = ok ? add(rec, &m, &x) : -1;
	x.name_len = (0x40 - HDR) / 2;
	x.instance = 5;
	r2 = ok ? add(rec, &m, &x) : -1;
	tap_result(ok && RSIZE - USED0 - 0x20 == 0x298 && !r1 && !r2 &&
		   RSIZE - used(rec) == 64 && list_of(rec)->r.value_length == 0x20 + 0x218 + 0x40 &&
		   matches(rec, &m, &why),
		   "nospc: entries of 0x218 (a name of 255 units) and 0x40 bytes fill the record to 64 free (%s)",
		   why);

	memcpy(copy, rec, RSIZE);
	x = key(NTFS_AT_FILE_NAME, "", 0, REF(61, 1), 1);
	x.name_len = (72 - HDR) / 2;
	for (i = 0; i < x.name_len; i++)
		x.name[i] = 'z';
	ret = add(rec, &m, &x);
	tap_result(ret == -ENOSPC && !memcmp(copy, rec, RSIZE) && matches(rec, &m, &why),
		   "nospc: an entry of 72 bytes with 64 free: -ENOSPC, record unchanged (%d)", ret);
	x.name_len = (64 - HDR) / 2;
	ret = add(rec, &m, &x);
	tap_result(!ret && used(rec) == RSIZE && matches(rec, &m, &why),
		   "nospc: an entry of exactly the 64 free bytes fits (%d, %s)", ret, why);
	memcpy(copy, rec, RSIZE);
	x = key(NTFS_AT_STANDARD_INFO, "", 0, BASE, 9);
	ret = add(rec, &m, &x);
	tap_result(ret == -ENOSPC && !memcmp(copy, rec, RSIZE),
		   "nospc: an unnamed entry (0x20 bytes) into a full record: -ENOSPC, record unchanged (%d)",
		   ret);
}

static void test_find(void)
{
	static u8 rec[RSIZE];
	static struct model m;
	const u8 *v;
	u32 size;
	int ok = build_sorted(rec, &m);
	struct ment x;

	v = value(list_of(rec));
	size = list_of(rec)->r.value_length;
	tap_result(ok && ntfs_alist_find(v, size, NTFS_AT_DATA, 52, 0) == 0x60 &&
		   ntfs_alist_find(v, size, NTFS_AT_DATA, 53, 9) == 0x80 &&
		   ntfs_alist_find(v, size, NTFS_AT_STANDARD_INFO, 42, 0) == 0 &&
		   ntfs_alist_find(v, size, NTFS_AT_FILE_NAME, 42, 2) == 0x20 &&
		   ntfs_alist_find(v, size, NTFS_AT_DATA, 46, 3) == 0x160 &&
		   ntfs_alist_find(v, size, NTFS_AT_LOGGED_STREAM, 45, 1) == 0x1e8,
		   "find: the offset of the entry of (type, record number, instance), sequence ignored");
	tap_result(ntfs_alist_find(v, size, NTFS_AT_DATA, 52, 1) == -ENOENT &&
		   ntfs_alist_find(v, size, NTFS_AT_FILE_NAME, 52, 0) == -ENOENT &&
		   ntfs_alist_find(v, size, NTFS_AT_DATA, 55, 0) == -ENOENT &&
		   ntfs_alist_find(v, size, NTFS_AT_DATA, REF(52, 7), 0) == -ENOENT &&
		   ntfs_alist_find(v, size, NTFS_AT_EA, 42, 0) == -ENOENT &&
		   ntfs_alist_find(v, 0, NTFS_AT_STANDARD_INFO, 42, 0) == -ENOENT,
		   "find: -ENOENT for another instance, type or record, and in an empty list");
	/* The entry of LOGGED_STREAM is the last: a list cut before it lacks it. */
	tap_result(ntfs_alist_find(v, size - 0x28, NTFS_AT_LOGGED_STREAM, 45, 1) == -ENOENT,
		   "find: only within the given size");

#define ELSE(t, n, nr)	(x = key(t, n, 0, 0, 0), \
			 ntfs_alist_names_elsewhere(v, size, t, x.name_len ? x.name : NULL, \
						    x.name_len, nr))
	tap_result(ELSE(NTFS_AT_DATA, "", 42) && ELSE(NTFS_AT_DATA, "", 50) &&
		   ELSE(NTFS_AT_FILE_NAME, "", 43) && ELSE(NTFS_AT_DATA, "A", 43) &&
		   ELSE(NTFS_AT_DATA, "ab", 43) && ELSE(NTFS_AT_DATA, "ab", 46) &&
		   ELSE(NTFS_AT_INDEX_ROOT, "$I30", 43),
		   "names_elsewhere: true when an entry of the type and name names another record");
	tap_result(!ELSE(NTFS_AT_FILE_NAME, "", 42) && !ELSE(NTFS_AT_STANDARD_INFO, "", 42) &&
		   !ELSE(NTFS_AT_DATA, "a", 43) && !ELSE(NTFS_AT_DATA, "A", 44) &&
		   !ELSE(NTFS_AT_DATA, "b", 43) && !ELSE(NTFS_AT_DATA, "c", 42) &&
		   !ELSE(NTFS_AT_INDEX_ROOT, "$i30", 43) && !ELSE(NTFS_AT_INDEX_ROOT, "$I3", 43) &&
		   !ELSE(NTFS_AT_INDEX_ROOT, "$I30", 42) && !ELSE(NTFS_AT_EA, "", 42) &&
		   !ELSE(NTFS_AT_LOGGED_STREAM, "Stream", 45),
		   "names_elsewhere: false for entries only in the record (sequence ignored), another case, length or type");
#undef ELSE
}

static void test_del(void)
{
	static u8 rec[RSIZE], copy[RSIZE];
	static struct model m;
	const char *why = "";
	unsigned int i, bad = 0;
	u32 size, u;
	int ok = build_sorted(rec, &m), ret;

	static const struct {
		u32 type;
		u64 recnr;
		u16 instance;
		unsigned int index;	/* in the model at the time */
		u32 len;
	} dels[] = {
		{ NTFS_AT_DATA, 52, 0, 3, 0x20 },		/* one of two equal */
		{ NTFS_AT_LOGGED_STREAM, 45, 1, 14, 0x28 },	/* the last */
		{ NTFS_AT_STANDARD_INFO, 42, 0, 0, 0x20 },	/* the first */
		{ NTFS_AT_INDEX_ROOT, 42, 4, 12, 0x28 },	/* the last again, named */
		{ NTFS_AT_DATA, 43, 7, 6, 0x20 },		/* named, padded */
	};

	for (i = 0; ok && i < sizeof(dels) / sizeof(dels[0]); i++) {
		size = list_of(rec)->r.value_length;
		u = used(rec);
		ret = ntfs_alist_del(&ctx, rec, list_of(rec), dels[i].type, dels[i].recnr,
				     dels[i].instance);
		if (m.e[dels[i].index].type != dels[i].type ||
		    m.e[dels[i].index].instance != dels[i].instance) {
			diag("del %u: the test's index is wrong", i);
			bad++;
			break;
		}
		model_del(&m, dels[i].index);
		if (ret || list_of(rec)->r.value_length != size - dels[i].len ||
		    used(rec) != u - dels[i].len || !matches(rec, &m, &why)) {
			diag("del %u: ret %d, value length 0x%x -> 0x%x, bytes_in_use 0x%x -> 0x%x: %s",
			     i, ret, size, list_of(rec)->r.value_length, u, used(rec), why);
			bad++;
		}
	}
	tap_result(ok && !bad,
		   "del: first, last, middle, named entries go, the others stay in order, value and bytes_in_use shrink by the entry, the freed tail is zero (%s)",
		   why);

	memcpy(copy, rec, RSIZE);
	tap_result(ntfs_alist_del(&ctx, rec, list_of(rec), NTFS_AT_DATA, 52, 0) == -ENOENT &&
		   ntfs_alist_del(&ctx, rec, list_of(rec), NTFS_AT_DATA, 43, 99) == -ENOENT &&
		   ntfs_alist_del(&ctx, rec, list_of(rec), NTFS_AT_EA, 43, 5) == -ENOENT &&
		   ntfs_alist_del(&ctx, rec, list_of(rec), NTFS_AT_DATA, REF(43, 1), 5) == -ENOENT &&
		   !memcmp(copy, rec, RSIZE),
		   "del: -ENOENT for an entry not in the list, record unchanged");

	/* All the rest, from the middle out; then the empty list takes an entry. */
	while (ok && !bad && m.n) {
		struct ment *x = &m.e[m.n / 2];

		ret = ntfs_alist_del(&ctx, rec, list_of(rec), x->type, x->ref & 0xffffffffffffULL,
				     x->instance);
		model_del(&m, m.n / 2);
		if (ret || !matches(rec, &m, &why))
			bad++;
	}
	tap_result(ok && !bad && list_of(rec)->r.value_length == 0 &&
		   list_of(rec)->length == 0x18 && used(rec) == USED0,
		   "del: every entry removed leaves an empty list value (%s)", why);
	{
		struct ment x = key(NTFS_AT_DATA, "x", 0, REF(70, 1), 3);

		ret = add(rec, &m, &x);
		tap_result(!ret && matches(rec, &m, &why) && used(rec) == USED0 + 0x20,
			   "add: into an empty list (%s)", why);
	}
}

/*
 * ntfs_alist_check() of the first @size bytes of @v, copied into a buffer
 * of exactly that size: ASan stops a read past the value.
 */
static int chk(const u8 *v, u32 size)
{
	u8 *copy = malloc(size ? size : 1);
	int ret;

	if (!copy)
		abort();
	memcpy(copy, v, size);
	ret = ntfs_alist_check(copy, size);
	free(copy);
	return ret;
}

static void test_check(void)
{
	static u8 v[0x100];
	struct ment a = key(NTFS_AT_STANDARD_INFO, "", 0, BASE, 0);
	struct ment b = key(NTFS_AT_DATA, "abc", 0, REF(43, 1), 1);	/* 0x20, no padding */
	struct ntfs_attr_list_entry *e2 = (void *)(v + 0x20), *e0 = (void *)v;
	u32 size, k;
	int bad = 0;

	memset(v, 0xee, sizeof(v));
	size = put(v, 0, &a);
	size = put(v, size, &b);
	size = put(v, size, &a);
	tap_result(chk(v, 0) == 0 && chk(v, size) == 0 && chk(v, 0x40) == 0 && chk(v, 0x20) == 0,
		   "check: accepts an empty list and valid ones (a name ending at the entry's end)");

	e2->length = 0x18;
	tap_result(chk(v, size) == -EIO, "check: an entry length of 0x18 (< 0x1a)");
	e2->length = 0;
	tap_result(chk(v, size) == -EIO, "check: an entry length of 0");
	e2->length = 0x22;
	tap_result(chk(v, size) == -EIO, "check: an entry length of 0x22 (not a multiple of 8)");
	e2->length = 0x20;
	tap_result(chk(v, 0x5c) == -EIO && chk(v, 0x3a) == -EIO,
		   "check: the last entry running past the value (0x1c and 0x1a of its 0x20 there)");
	e2->length = 0x48;
	tap_result(chk(v, size) == -EIO, "check: a middle entry running past the value");
	e2->length = 0x20;
	e2->name_length = 4;
	tap_result(chk(v, size) == -EIO,
		   "check: a name of 4 units at 0x1a in an entry of 0x20 (past its end)");
	e2->name_length = 1;
	e2->name_offset = 0x1f;
	tap_result(chk(v, size) == -EIO,
		   "check: a name of 1 unit at 0x1f in an entry of 0x20 (past its end)");
	e2->name_offset = 0x1e;
	tap_result(chk(v, size) == 0, "check: a name of 1 unit at 0x1e in an entry of 0x20 fits");
	e2->name_offset = HDR;
	e2->name_length = 3;
	tap_result(chk(v, size) == 0, "check: the list restored is valid again");
	for (k = 1; k < HDR; k++)
		bad += chk(v, 0x40 + k) != -EIO;
	tap_result(!bad && chk(v, 1) == -EIO && chk(v, HDR - 1) == -EIO,
		   "check: trailing bytes shorter than an entry header (1 to 0x19 after two entries; a lone 1 or 0x19)");

	/*
	 * Each fault alone, the entry after it valid where the walk would
	 * land: the one rule broken is what rejects it.
	 */
	memset(v, 0, sizeof(v));
	put(v, 0, &a);
	e0->length = 0x18;
	e0->name_offset = 0x18;
	put(v, 0x18, &b);
	tap_result(chk(v, 0x38) == -EIO,
		   "check: an entry of 0x18 bytes (no name, its offset 0x18) before a valid one at 0x18");
	memset(v, 0, sizeof(v));
	put(v, 0, &a);
	e0->length = 0x1c;
	put(v, 0x1c, &b);
	tap_result(chk(v, 0x3c) == -EIO,
		   "check: an entry of 0x1c bytes (no name) before a valid one at 0x1c");
}

/* Add and del on a damaged list, or a non-resident one: nothing changes. */
static void test_damaged(void)
{
	static u8 rec[RSIZE], copy[RSIZE];
	static const struct {
		u32 ofs;	/* in the list value */
		u32 field;	/* 0: length, 1: name_length */
		u32 val;
		const char *what;
	} damage[] = {
		{ 0x40, 0, 0x1c, "an entry length of 0x1c" },
		{ 0x40, 0, 0x18, "an entry length of 0x18" },
		{ 0x1e8, 0, 0x30, "the last entry running past the value" },
		{ 0x1e8, 1, 8, "the last entry's name past its end" },
		{ 0x100, 1, 5, "a middle entry's name past its end" },
		{ 0x40, 0, 0, "an entry length of 0" },
	};
	static struct model m;
	struct ment x = key(NTFS_AT_DATA, "zz", 0, REF(80, 1), 0);
	struct ntfs_alist_key k = { .type = x.type, .name = x.name, .name_len = 2,
				    .ref = x.ref };
	unsigned int i;
	int ok, bad = 0;

	for (i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		struct ntfs_attr_list_entry *e;
		int ra, rd, rd2;

		ok = build_sorted(rec, &m);
		e = (void *)(value(list_of(rec)) + damage[i].ofs);
		if (damage[i].field)
			e->name_length = damage[i].val;
		else
			e->length = damage[i].val;
		memcpy(copy, rec, RSIZE);
		ra = ntfs_alist_add(&ctx, rec, list_of(rec), &k);
		rd = ntfs_alist_del(&ctx, rec, list_of(rec), NTFS_AT_STANDARD_INFO, 42, 0);
		rd2 = ntfs_alist_del(&ctx, rec, list_of(rec), NTFS_AT_EA, 42, 0);
		if (!ok || ra != -EIO || rd != -EIO || rd2 != -EIO || memcmp(copy, rec, RSIZE)) {
			diag("damage %u (%s): add %d, del %d, del of a missing entry %d, record %s",
			     i, damage[i].what, ra, rd, rd2,
			     memcmp(copy, rec, RSIZE) ? "changed" : "unchanged");
			bad++;
		}
	}
	tap_result(!bad,
		   "damaged list (lengths 0x1c, 0, 0x18, past the value; names past the entry): add and del -EIO, record unchanged");

	ok = build_sorted(rec, &m);
	list_of(rec)->non_resident = 1;
	memcpy(copy, rec, RSIZE);
	tap_result(ok && ntfs_alist_add(&ctx, rec, list_of(rec), &k) == -EINVAL &&
		   ntfs_alist_del(&ctx, rec, list_of(rec), NTFS_AT_STANDARD_INFO, 42, 0) == -EINVAL &&
		   !memcmp(copy, rec, RSIZE),
		   "non-resident list: add and del -EINVAL, record unchanged");

	/* A sound list in a record whose attributes after it cannot be walked. */
	ok = build_sorted(rec, &m);
	attr_of(rec, NTFS_AT_FILE_NAME)->length = 0;
	memcpy(copy, rec, RSIZE);
	ok = ok && ntfs_alist_del(&ctx, rec, list_of(rec), NTFS_AT_STANDARD_INFO, 42, 0) == -EIO;
	tap_result(ok && !memcmp(copy, rec, RSIZE),
		   "record not walkable past the list: del -EIO, record unchanged");
}

/* Random adds, deletes and look-ups, the record compared with the model. */
static void test_random(void)
{
	static const u32 types[] = {
		NTFS_AT_STANDARD_INFO, NTFS_AT_FILE_NAME, NTFS_AT_FILE_NAME, NTFS_AT_DATA,
		NTFS_AT_DATA, NTFS_AT_DATA, NTFS_AT_INDEX_ROOT, NTFS_AT_EA,
		NTFS_AT_LOGGED_STREAM,
	};
	static const char *const names[] = {
		"", "", "", "a", "A", "b", "B", "ab", "aB", "$I30", "Zz", "stream_1",
	};
	static const u64 vcns[] = { 0, 0, 7, 16, 100, 1ULL << 33 };
	static const u16 odd[][2] = { { 0xe9 }, { 0xc9 }, { 0x1234, 'a' } };
	static u8 rec[RSIZE], copy[RSIZE];
	unsigned int round, step, bad = 0, adds = 0, nospc = 0, dels = 0, noent = 0, looks = 0;
	const char *why = "";

#define NT	(sizeof(types) / sizeof(types[0]))
#define NN	(sizeof(names) / sizeof(names[0]))
#define NV	(sizeof(vcns) / sizeof(vcns[0]))
	for (round = 0; round < 200 && !bad; round++) {
		static struct model m;

		if (!setup(rec, &m)) {
			bad++;
			break;
		}
		for (step = 0; step < 80 && !bad; step++) {
			unsigned int op = rnd_below(10);
			u32 recnr = 42 + rnd_below(4);
			struct ment x = key(types[rnd_below(NT)], names[rnd_below(NN)],
					    vcns[rnd_below(NV)], REF(recnr, 1 + rnd_below(3)),
					    rnd_below(4));
			int ret, want, i;

			if (rnd_below(8) == 0) {
				unsigned int o = rnd_below(3);

				x.name_len = 1 + (o == 2);
				memcpy(x.name, odd[o], 2 * x.name_len);
			}
			memcpy(copy, rec, RSIZE);
			if (op < 6) {
				u32 free = RSIZE - (USED0 + model_size(&m));

				want = mlen(x.name_len) > free ? -ENOSPC : 0;
				ret = add(rec, &m, &x);
				adds++;
				nospc += ret == -ENOSPC;
			} else if (op < 9) {
				if (m.n && rnd_below(3)) {
					/* An entry there; the first of its triple goes. */
					const struct ment *y = &m.e[rnd_below(m.n)];

					x.type = y->type;
					recnr = y->ref & 0xffffffffffffULL;
					x.instance = y->instance;
				}
				i = model_find(&m, x.type, recnr, x.instance);
				want = i < 0 ? -ENOENT : 0;
				ret = ntfs_alist_del(&ctx, rec, list_of(rec), x.type, recnr,
						     x.instance);
				if (i >= 0)
					model_del(&m, i);
				dels++;
				noent += ret == -ENOENT;
			} else {
				const u8 *v = value(list_of(rec));
				u32 size = list_of(rec)->r.value_length;
				u64 ref = 0;
				int f, wf, b, wb = -EIO;

				i = model_find(&m, x.type, recnr, x.instance);
				wf = i < 0 ? -ENOENT : (int)model_ofs(&m, i);
				f = ntfs_alist_find(v, size, x.type, recnr, x.instance);
				for (i = 0; i < (int)m.n && wb; i++)
					if (m.e[i].type == NTFS_AT_STANDARD_INFO)
						wb = 0;
				b = ntfs_alist_base_ref(v, size, &ref);
				want = ret = 0;
				if (f != wf || b != wb || (!b && ref != m.e[i - 1].ref) ||
				    ntfs_alist_check(v, size) ||
				    ntfs_alist_names_elsewhere(v, size, x.type,
							       x.name_len ? x.name : NULL,
							       x.name_len, recnr) !=
				    model_elsewhere(&m, &x, recnr)) {
					diag("round %u, step %u: find %d (want %d), base_ref %d (want %d), check or names_elsewhere",
					     round, step, f, wf, b, wb);
					bad++;
				}
				looks++;
			}
			if (ret != want || (ret && memcmp(copy, rec, RSIZE)) ||
			    !matches(rec, &m, &why)) {
				diag("round %u, step %u, op %u: ret %d, want %d: %s", round, step,
				     op, ret, want, ret && memcmp(copy, rec, RSIZE) ?
				     "record changed" : why);
				bad++;
			}
		}
	}
#undef NT
#undef NN
#undef NV
	tap_result(!bad && nospc && noent && dels > noent && adds > nospc && looks,
		   "random: 200 rounds, %u adds (%u -ENOSPC), %u dels (%u -ENOENT), %u look-ups match the model",
		   adds, nospc, dels, noent, looks);
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < 128; i++)
		upcase[i] = i >= 'a' && i <= 'z' ? i - 32 : i;
	test_base_ref();
	test_add();
	test_nospc();
	test_find();
	test_del();
	test_check();
	test_damaged();
	test_random();
	return tap_done();
}
