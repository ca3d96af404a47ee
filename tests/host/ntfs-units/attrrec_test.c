// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of ntfs3/attrrec.c: attributes inserted, removed and
 * resized in one MFT record, checked against a model of what the record
 * must hold.
 *
 *   attrrec_test        run the tests, TAP on stdout
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include "ntfs.h"
#include "attrrec.h"
#include "units.h"
#include "record.h"

#define RSIZE	1024
#define FIRST	0x38	/* attrs_offset of a fresh record */

static __le16 upcase[128];
static const struct ntfs_arec_ctx ctx = { RSIZE, upcase, 128 };

/* An empty record: header, end marker, bytes_in_use just after it. */
static void fresh(u8 *rec)
{
	fresh_record(rec, RSIZE, FIRST);
}

/* The model of one attribute: what the record must hold for it. */
struct mattr {
	u32 type;
	u8 name_len;
	__le16 name[8];
	bool nonres;
	u16 instance;
	u32 body_len;		/* value or mapping pairs bytes */
	u8 fill;		/* every byte of the body */
};

struct model {
	struct mattr a[64];
	unsigned int n;
	u16 next_instance;
};

/* The order of attrrec.c, written independently: type, upcased name, exact. */
static int mcmp(const struct mattr *x, const struct mattr *y)
{
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return model_name_cmp(x->name, x->name_len, y->name, y->name_len, upcase);
}

static u8 *body(struct ntfs_attr *a)
{
	return (u8 *)a + (a->non_resident ? a->nr.mp_offset : a->r.value_offset);
}

/*
 * Whether @rec holds exactly the model: the attributes in order, sound
 * headers, aligned lengths, bodies intact, end marker, bytes_in_use, the
 * rest of the record zero.
 */
static int matches(const u8 *rec, const struct model *m, const char **why)
{
	const struct ntfs_record *r = (const void *)rec;
	u32 ofs = FIRST, i, k;

	for (i = 0; i < m->n; i++) {
		struct ntfs_attr *a = (void *)(rec + ofs);
		const struct mattr *x = &m->a[i];
		u32 hdr = x->nonres ? NTFS_AREC_NONRES : NTFS_AREC_RESIDENT;
		u32 bofs = (hdr + 2 * x->name_len + 7) & ~7U;

		if (ofs + 24 > RSIZE || a->type != x->type) {
			*why = "type or order";
			return 0;
		}
		if (a->length % 8 || a->length != ((bofs + x->body_len + 7) & ~7U) ||
		    a->non_resident != x->nonres || a->instance != x->instance ||
		    a->name_length != x->name_len || a->name_offset != hdr ||
		    memcmp((u8 *)a + hdr, x->name, 2 * x->name_len)) {
			*why = "header";
			return 0;
		}
		if (x->nonres ? a->nr.mp_offset != bofs || a->nr.highest_vcn != ~0ULL :
		    a->r.value_offset != bofs || a->r.value_length != x->body_len) {
			*why = "body offset or length";
			return 0;
		}
		for (k = 0; k < x->body_len; k++)
			if (body(a)[k] != x->fill) {
				*why = "body bytes";
				return 0;
			}
		for (k = bofs + x->body_len; k < a->length; k++)
			if (((u8 *)a)[k]) {
				*why = "padding not zero";
				return 0;
			}
		ofs += a->length;
	}
	if (*(const u32 *)(rec + ofs) != 0xffffffff || r->bytes_in_use != ofs + 8 ||
	    r->next_instance != m->next_instance) {
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

static void name_of(struct mattr *x, const char *s)
{
	x->name_len = strlen(s);
	for (unsigned int i = 0; i < x->name_len; i++)
		x->name[i] = (u8)s[i];
}

/* Insert into record and model; return the attrrec.c result. */
static struct ntfs_attr *ins(u8 *rec, struct model *m, u32 type, const char *name,
			     bool nonres, u32 body_len, u8 fill)
{
	struct mattr x = { .type = type, .nonres = nonres, .body_len = body_len, .fill = fill };
	struct ntfs_attr *a;
	unsigned int i;

	name_of(&x, name);
	if (nonres && !x.body_len)
		x.body_len = 1;
	a = ntfs_arec_insert(&ctx, rec, type, x.name, x.name_len,
			     nonres ? NTFS_AREC_NONRES : NTFS_AREC_RESIDENT, body_len);
	if (IS_ERR(a))
		return a;
	memset(body(a), fill, x.body_len);
	x.instance = m->next_instance++;
	for (i = 0; i < m->n && mcmp(&m->a[i], &x) <= 0; i++)
		;
	memmove(&m->a[i + 1], &m->a[i], (m->n - i) * sizeof(x));
	m->a[i] = x;
	m->n++;
	return a;
}

/* The @i-th attribute of the record, by walking it. */
static struct ntfs_attr *nth(u8 *rec, unsigned int i)
{
	u32 ofs = FIRST;

	while (i--)
		ofs += ((struct ntfs_attr *)(rec + ofs))->length;
	return (void *)(rec + ofs);
}

/* First unit of an attribute's name. */
static u16 name0(struct ntfs_attr *a)
{
	return *(u16 *)((u8 *)a + a->name_offset);
}

static void test_order(void)
{
	static u8 rec[RSIZE];
	struct model m = { 0 };
	const char *why = "";
	struct ntfs_attr *a;
	int ok = 1;

	fresh(rec);
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_DATA, "b", false, 5, 0x11));
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_DATA, "", false, 10, 0x22));
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_STANDARD_INFO, "", false, 0x48, 0x33));
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_DATA, "a", true, 3, 0x44));
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_DATA, "A", false, 0, 0x55));
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_FILE_NAME, "", false, 0x4a, 0x66));
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_FILE_NAME, "", false, 0x52, 0x77));
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_DATA, "B", false, 1, 0x88));
	ok &= !IS_ERR(ins(rec, &m, NTFS_AT_DATA, "ab", false, 1, 0x99));
	tap_result(ok && matches(rec, &m, &why),
		   "insert: sorted by type, then upcased name, exact name, insertion (%s)", why);
	a = nth(rec, 0);
	tap_result(a->type == NTFS_AT_STANDARD_INFO && a->instance == 2 &&
		   nth(rec, 3)->name_length == 0 && nth(rec, 3)->instance == 1 &&
		   name0(nth(rec, 4)) == 'A' && name0(nth(rec, 5)) == 'a' &&
		   nth(rec, 6)->name_length == 2 && name0(nth(rec, 7)) == 'B' &&
		   nth(rec, 1)->r.value_length == 0x4a,
		   "insert: the expected order (unnamed first; A a ab B b; $FILE_NAME by insertion)");
	a = nth(rec, 5);
	tap_result(a->non_resident && a->nr.mp_offset == 0x48 && a->length == 0x50 &&
		   a->nr.lowest_vcn == 0 && a->nr.highest_vcn == ~0ULL,
		   "insert: non-resident header 0x40, name, mapping pairs 8-aligned after it, empty VCN range");

	tap_result(ntfs_rec_find(rec, NTFS_AT_DATA, NULL, 0) == nth(rec, 3) &&
		   ntfs_rec_find(rec, NTFS_AT_DATA, (const __le16[]){ 'a' }, 1) == nth(rec, 5) &&
		   !ntfs_rec_find(rec, NTFS_AT_DATA, (const __le16[]){ 'c' }, 1) &&
		   !ntfs_rec_find(rec, NTFS_AT_EA, NULL, 0) &&
		   ntfs_rec_find(rec, NTFS_AT_FILE_NAME, NULL, 0) == nth(rec, 1),
		   "find: by type and exact name, the first of equal ones");
	nth(rec, 5)->nr.lowest_vcn = 5;
	tap_result(!ntfs_rec_find(rec, NTFS_AT_DATA, (const __le16[]){ 'a' }, 1),
		   "find: a non-resident extent that does not start at VCN 0 is skipped");
	nth(rec, 5)->nr.lowest_vcn = 0;

	ntfs_rec_remove(rec, nth(rec, 1));
	memmove(&m.a[1], &m.a[2], (m.n - 2) * sizeof(m.a[0]));
	m.n--;
	tap_result(matches(rec, &m, &why), "remove: the rest moves down, the freed tail is zero (%s)",
		   why);
}

static void test_resize(void)
{
	static u8 rec[RSIZE], copy[RSIZE];
	struct model m = { 0 };
	const char *why = "";
	struct ntfs_attr *a;
	u32 free0;
	int ret;

	fresh(rec);
	ins(rec, &m, NTFS_AT_STANDARD_INFO, "", false, 0x48, 0x33);
	a = ins(rec, &m, NTFS_AT_DATA, "", false, 3, 0x44);
	ins(rec, &m, NTFS_AT_EA, "", false, 20, 0x55);
	free0 = ntfs_arec_free(&ctx, rec);

	ret = ntfs_arec_set_value_len(&ctx, rec, a, 100);
	m.a[1].body_len = 100;
	memset(body(a) + 3, 0x44, 97);	/* the model's fill (zeros: below) */
	tap_result(!ret && free0 - ntfs_arec_free(&ctx, rec) == 96 && matches(rec, &m, &why),
		   "value grows to 100: zero-filled, the next attribute moved intact (%s)", why);
	ret = ntfs_arec_set_value_len(&ctx, rec, a, 1);
	m.a[1].body_len = 1;
	tap_result(!ret && ntfs_arec_free(&ctx, rec) == free0 && matches(rec, &m, &why),
		   "value shrinks to 1: the record gets its bytes back, zeroed (%s)", why);
	ret = ntfs_arec_set_value_len(&ctx, rec, a, 300);
	tap_result(!ret && body(a)[0] == 0x44 && body(a)[1] == 0 && body(a)[299] == 0,
		   "value grows: the new bytes are zero");
	ntfs_arec_set_value_len(&ctx, rec, a, 1);

	memcpy(copy, rec, RSIZE);
	ret = ntfs_arec_set_value_len(&ctx, rec, a, free0 + 9);
	tap_result(ret == -ENOSPC && !memcmp(copy, rec, RSIZE),
		   "value larger than the free space: -ENOSPC, record unchanged");
	ret = ntfs_arec_set_value_len(&ctx, rec, a, free0 + 8);
	tap_result(!ret && ntfs_arec_free(&ctx, rec) == 0,
		   "value growing into exactly the free space fits");
	memcpy(copy, rec, RSIZE);
	a = ntfs_arec_insert(&ctx, rec, NTFS_AT_DATA, (const __le16[]){ 'x' }, 1,
			     NTFS_AREC_RESIDENT, 0);
	tap_result(a == ERR_PTR(-ENOSPC) && !memcmp(copy, rec, RSIZE),
		   "insert into a full record: -ENOSPC, record unchanged");
	tap_result(ntfs_arec_set_mp_len(&ctx, rec, nth(rec, 1), 4) == -EINVAL &&
		   ntfs_arec_set_value_len(&ctx, rec, nth(rec, 1), 4) == 0,
		   "mapping pairs length of a resident attribute: -EINVAL");
}

static void test_instances(void)
{
	static u8 rec[RSIZE];
	struct ntfs_record *r = (void *)rec;
	struct ntfs_attr *a;

	fresh(rec);
	r->next_instance = 0xfffe;
	a = ntfs_arec_insert(&ctx, rec, NTFS_AT_STANDARD_INFO, NULL, 0, NTFS_AREC_RESIDENT, 8);
	tap_result(a->instance == 0xfffe && r->next_instance == 0xffff,
		   "instance: the counter is handed out and moves on");
	a = ntfs_arec_insert(&ctx, rec, NTFS_AT_DATA, NULL, 0, NTFS_AREC_RESIDENT, 8);
	nth(rec, 0)->instance = 0;
	a = ntfs_arec_insert(&ctx, rec, NTFS_AT_EA, NULL, 0, NTFS_AREC_RESIDENT, 8);
	tap_result(!IS_ERR(a) && a->instance != 0 && a->instance != nth(rec, 1)->instance &&
		   a->instance != 0xffff && r->next_instance == 0xffff,
		   "instance: an exhausted counter gives a number no attribute uses (%u)",
		   a->instance);
}

static void test_damage(void)
{
	static u8 rec[RSIZE];
	struct model m = { 0 };
	struct ntfs_attr *a;

	fresh(rec);
	ins(rec, &m, NTFS_AT_STANDARD_INFO, "", false, 0x48, 0x33);
	a = ins(rec, &m, NTFS_AT_DATA, "", false, 3, 0x44);
	a->length = 0;
	tap_result(ntfs_arec_insert(&ctx, rec, NTFS_AT_EA, NULL, 0, NTFS_AREC_RESIDENT, 8) ==
		   ERR_PTR(-EIO) && !ntfs_rec_find(rec, NTFS_AT_DATA, NULL, 0) &&
		   ntfs_arec_free(&ctx, rec) == 0,
		   "damage: an attribute of length 0 stops the walk (-EIO, not found)");
	a->length = 0x7ffffff8;
	tap_result(ntfs_arec_insert(&ctx, rec, NTFS_AT_EA, NULL, 0, NTFS_AREC_RESIDENT, 8) ==
		   ERR_PTR(-EIO) && ntfs_arec_resize(&ctx, rec, nth(rec, 0), 0x60) == -EIO,
		   "damage: an attribute reaching past bytes_in_use stops the walk");
	a->length = 0x20;
	((struct ntfs_record *)rec)->bytes_in_use = RSIZE + 8;
	tap_result(ntfs_arec_insert(&ctx, rec, NTFS_AT_EA, NULL, 0, NTFS_AREC_RESIDENT, 8) ==
		   ERR_PTR(-EIO), "damage: bytes_in_use past the record");
	fresh(rec);
	memset(rec + FIRST, 0, 4);
	((struct ntfs_record *)rec)->bytes_in_use = RSIZE;
	tap_result(ntfs_arec_insert(&ctx, rec, NTFS_AT_EA, NULL, 0, NTFS_AREC_RESIDENT, 8) ==
		   ERR_PTR(-EIO), "damage: no end marker");
}

/* Random inserts, removes and resizes, the record compared with the model. */
static void test_random(void)
{
	static const u32 types[] = {
		NTFS_AT_STANDARD_INFO, NTFS_AT_FILE_NAME, NTFS_AT_DATA,
		NTFS_AT_INDEX_ROOT, NTFS_AT_EA,
	};
	static const char *const names[] = { "", "", "a", "A", "b", "ab", "$I30", "Zz" };
	static u8 rec[RSIZE];
	unsigned int iter, bad = 0, nospc = 0, ops = 0;
	const char *why = "";

	for (iter = 0; iter < 2000 && !bad; iter++) {
		struct model m = { 0 };
		unsigned int k;

		fresh(rec);
		for (k = 0; k < 60 && !bad; k++) {
			unsigned int op = rnd_below(4);

			ops++;
			if (op <= 1 || !m.n) {
				struct ntfs_attr *a;

				a = ins(rec, &m, types[rnd_below(5)], names[rnd_below(8)],
					rnd_below(3) == 0, rnd_below(op ? 40 : 200),
					(u8)rnd());
				if (a == ERR_PTR(-ENOSPC))
					nospc++;
				else if (IS_ERR(a))
					bad++;
			} else if (op == 2) {
				unsigned int i = rnd_below(m.n);

				ntfs_rec_remove(rec, nth(rec, i));
				memmove(&m.a[i], &m.a[i + 1], (m.n - i - 1) * sizeof(m.a[0]));
				m.n--;
			} else {
				unsigned int i = rnd_below(m.n);
				struct ntfs_attr *a = nth(rec, i);
				u32 len = rnd_below(300), old = m.a[i].body_len;
				int ret;

				if (m.a[i].nonres) {
					len++;
					ret = ntfs_arec_set_mp_len(&ctx, rec, a, len);
				} else {
					ret = ntfs_arec_set_value_len(&ctx, rec, a, len);
				}
				if (!ret) {
					m.a[i].body_len = len;
					if (len > old)
						memset(body(a) + old, m.a[i].fill, len - old);
				} else if (ret == -ENOSPC) {
					nospc++;
				} else {
					bad++;
				}
			}
			if (!matches(rec, &m, &why)) {
				bad++;
				diag("iteration %u, step %u: %s", iter, k, why);
			}
		}
	}
	tap_result(!bad, "random: %u inserts, removes and resizes (%u -ENOSPC) match the model",
		   ops, nospc);
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < 128; i++)
		upcase[i] = i >= 'a' && i <= 'z' ? i - 32 : i;
	test_order();
	test_resize();
	test_instances();
	test_damage();
	test_random();
	return tap_done();
}
