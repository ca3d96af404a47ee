// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.ntfs3: the metadata files with a structure of their own.
 *
 *   $UpCase (record 10)   the case table name_collate() folds names with
 *   $Volume (record 3)    version, flags, label
 *   $Secure (record 9)    $SDS against $SII and $SDH, ids in use
 *   reparse points        each $REPARSE_POINT, and $Extend\$Reparse:$R
 *   object ids            each $OBJECT_ID, and $Extend\$ObjId:$O
 *   quotas                $Extend\$Quota:$Q, its defaults entry
 *
 * Format facts from the libyal NTFS document, the Linux-NTFS documentation
 * and [MS-FSCC]/[MS-DTYP]; where a rule was checked against real tables or
 * volumes, the comment says so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* Bytes in an opened stream: the resident value or the data size. */
static u64 stream_size(const struct stream *s)
{
	return s->resident ? s->value_len : s->data_size;
}

/*
 * find_attr() - the first attribute @type named @name ("": unnamed) of
 * the file whose base record is @base, in the base record or one of its
 * extension records.  Only records that passed check_records() are looked
 * at.
 */
static struct ntfs_attr *find_attr(struct vol *v, u64 base, u32 type,
				   const char *name)
{
	struct ntfs_attr *a;
	u64 r = base, steps = 0;

	while (rec_ok(v, r) && steps++ <= v->nrec) {
		for_each_attr(v, r, a) {
			if (le32(a->type) != type)
				continue;
			if (!attr_name_is(a, name))
				continue;
			return a;
		}
		r = r == base ? v->recs[base].ext_first : v->recs[r].ext_next;
		if (!r)
			break;
	}
	return NULL;
}

/* qsort() and bsearch() that accept an empty array (NULL is not allowed). */
static void sort_array(void *base, size_t n, size_t size,
		       int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

static void *find_in_array(const void *key, const void *base, size_t n,
			   size_t size, int (*cmp)(const void *, const void *))
{
	return n ? bsearch(key, base, n, size, cmp) : NULL;
}

/* Is @r a base record in use that passed check_records()? */
static bool base_ok(const struct vol *v, u64 r)
{
	return rec_ok(v, r) && !v->recs[r].base_ref;
}

/* ------------------------------------------------------------------ */
/* $UpCase                                                             */

#define UPCASE_ENTRIES	65536

/*
 * upcase_rule_broken() - the first rule of a usable case table that @t
 * breaks, described in @why; NULL when it keeps them all.
 *
 * Only rules that every real table keeps are checked: the tables of
 * Windows NT..10 and mkntfs differ outside ASCII (checked here on the
 * mkntfs table and on a Windows-formatted volume's), but all of them map
 * 'a'..'z' to 'A'..'Z' and leave the rest of ASCII alone, map nothing to
 * a lowercase ASCII letter (upper case is a fixed point of folding), and
 * leave the UTF-16 surrogates alone (they are halves of characters, which
 * have no case of their own).
 */
static const char *upcase_rule_broken(const u16 *t, char *why, size_t len)
{
	u32 c;

	for (c = 0; c < 0x80; c++) {
		u16 want = c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;

		if (t[c] != want) {
			snprintf(why, len, "entry 0x%04x is 0x%04x, not 0x%04x",
				 c, t[c], want);
			return why;
		}
	}
	for (c = 0x80; c < UPCASE_ENTRIES; c++) {
		if (t[c] >= 'a' && t[c] <= 'z') {
			snprintf(why, len,
				 "entry 0x%04x maps to lowercase '%c'", c, t[c]);
			return why;
		}
		if (c >= 0xd800 && c <= 0xdfff && t[c] != c) {
			snprintf(why, len,
				 "surrogate 0x%04x maps to 0x%04x", c, t[c]);
			return why;
		}
	}
	return NULL;
}

/* Read $UpCase into v->upcase; leave it NULL (ASCII folding) if unusable. */
void load_upcase(struct vol *v)
{
	struct stream s;
	char why[96];
	u16 *t;
	u32 c, differ = 0;

	if (!rec_ok(v, NTFS_UPCASE_INO))
		return;
	if (!find_attr(v, NTFS_UPCASE_INO, NTFS_AT_DATA, "")) {
		report(v, P_UPCASE, NTFS_UPCASE_INO, "$DATA",
		       "no unnamed $DATA: names are folded as ASCII only");
		return;
	}
	/* A $DATA that cannot be opened was reported by check_records(). */
	if (stream_open(v, NTFS_UPCASE_INO, NTFS_AT_DATA, "", &s))
		return;
	if (stream_size(&s) != UPCASE_ENTRIES * 2) {
		report(v, P_UPCASE, NTFS_UPCASE_INO, "$DATA",
		       "size is %llu bytes, not %u (65536 UTF-16 units)",
		       (unsigned long long)stream_size(&s), UPCASE_ENTRIES * 2);
		stream_free(&s);
		return;
	}
	t = xcalloc(UPCASE_ENTRIES, sizeof(*t));
	if (stream_read(v, &s, 0, t, UPCASE_ENTRIES * 2)) {
		stream_free(&s);
		free(t);
		return;
	}
	stream_free(&s);
	for (c = 0; c < UPCASE_ENTRIES; c++) {
		t[c] = le16(t[c]);
		differ += t[c] != c;
	}
	if (upcase_rule_broken(t, why, sizeof(why))) {
		report(v, P_UPCASE, NTFS_UPCASE_INO, "$DATA",
		       "%s: names are folded as ASCII only", why);
		free(t);
		return;
	}
	v->upcase = t;
	v->upcase_len = UPCASE_ENTRIES;
	checked(v, "$UpCase: %u entries, %u of them change a character",
		UPCASE_ENTRIES, differ);
}

/* ------------------------------------------------------------------ */
/* $Volume                                                             */

/*
 * Flags of $VOLUME_INFORMATION that NTFS versions define: 0x0001..0x0020
 * and 0x4000/0x8000 (Linux-NTFS documentation, libyal), and 0x0080, "no
 * short names" (set by Windows 7+ fsutil 8dot3name).  0x0040 is left
 * unknown by every document but is accepted too: Windows' own use of the
 * low byte is not documented completely.
 */
#define VOLUME_KNOWN_FLAGS	0xc0ff
#define VOLUME_NAME_MAX		128	/* UTF-16 units, as a label can hold */

static bool volume_version_known(u8 major, u8 minor)
{
	return (major == 1 && minor == 2) ||
	       (major == 3 && (minor == 0 || minor == 1));
}

static void check_volume_info(struct vol *v)
{
	const struct ntfs_volume_info *vi;
	struct ntfs_attr *a;
	u32 len;
	u16 flags;

	a = find_attr(v, NTFS_VOLUME_INO, NTFS_AT_VOLUME_INFO, "");
	if (!a) {
		report(v, P_VOLUME, NTFS_VOLUME_INO, "$VOLUME_INFORMATION",
		       "missing");
		return;
	}
	if (a->non_resident) {
		report(v, P_VOLUME, NTFS_VOLUME_INO, "$VOLUME_INFORMATION",
		       "non-resident; it is always resident");
		return;
	}
	vi = attr_value(a, &len);
	if (!vi || len < sizeof(*vi)) {
		report(v, P_VOLUME, NTFS_VOLUME_INO, "$VOLUME_INFORMATION",
		       "value is %u bytes, less than %zu", vi ? len : 0,
		       sizeof(*vi));
		return;
	}
	if (!volume_version_known(vi->major, vi->minor)) {
		report(v, P_VOLUME, NTFS_VOLUME_INO, "$VOLUME_INFORMATION",
		       "version %u.%u is none of 1.2, 3.0, 3.1",
		       vi->major, vi->minor);
	} else {
		v->major = vi->major;
		v->minor = vi->minor;
	}
	flags = le16(vi->flags);
	if (flags & ~VOLUME_KNOWN_FLAGS)
		report(v, P_VOLUME, NTFS_VOLUME_INO, "$VOLUME_INFORMATION",
		       "flags 0x%04x have unknown bits 0x%04x", flags,
		       flags & ~VOLUME_KNOWN_FLAGS);
	/* Dirty is a state (chkdsk runs at the next mount), not damage. */
	checked(v, "$Volume: NTFS %u.%u, flags 0x%04x%s", vi->major, vi->minor,
		flags, flags & NTFS_VOLUME_DIRTY ? " (dirty)" : "");
}

static void check_volume_name(struct vol *v)
{
	struct ntfs_attr *a;
	u32 len;

	a = find_attr(v, NTFS_VOLUME_INO, NTFS_AT_VOLUME_NAME, "");
	if (!a)
		return;
	if (a->non_resident) {
		report(v, P_VOLUME, NTFS_VOLUME_INO, "$VOLUME_NAME",
		       "non-resident; it is always resident");
		return;
	}
	if (!attr_value(a, &len))
		len = 0;
	if (len % 2 || len / 2 > VOLUME_NAME_MAX)
		report(v, P_VOLUME, NTFS_VOLUME_INO, "$VOLUME_NAME",
		       "%u bytes: not a whole number of UTF-16 units up to %u",
		       len, VOLUME_NAME_MAX);
}

/* $Volume: version (sets v->major/minor), flags, label. */
void check_volume(struct vol *v)
{
	if (!rec_ok(v, NTFS_VOLUME_INO))
		return;
	check_volume_info(v);
	check_volume_name(v);
}

/* ------------------------------------------------------------------ */
/* $Secure                                                             */

#define SDS_HDR		((u32)sizeof(struct ntfs_sds_header))

/* Self-relative security descriptor ([MS-DTYP] 2.4.6). */
struct sd_rel {
	u8	revision;
	u8	sbz1;
	__le16	control;
	__le32	owner;
	__le32	group;
	__le32	sacl;
	__le32	dacl;
} __packed;

#define SE_SACL_PRESENT		0x0010
#define SE_DACL_PRESENT		0x0004
#define SE_SELF_RELATIVE	0x8000

struct acl_hdr {
	u8	revision;
	u8	sbz1;
	__le16	size;
	__le16	ace_count;
	__le16	sbz2;
} __packed;

struct ace_hdr {
	u8	type;
	u8	flags;
	__le16	size;
} __packed;

/* One $SDS entry, and which indexes name it. */
struct sds_ent {
	u32	id;
	u32	hash;		/* from the header */
	u64	offset;
	u32	length;
	bool	hash_bad;	/* header hash disagrees (already reported) */
	bool	in_sii;
	bool	in_sdh;
};

struct secure {
	struct sds_ent	*ent;
	size_t		n, cap;
	u32		*sii_ids;	/* keys of $SII, sorted after the walk */
	size_t		nsii, capsii;
	bool		sii_ok, sdh_ok;	/* walks completed */
	/*
	 * Parts of $SDS not walked after a reported problem: what the
	 * indexes say is there cannot be compared.
	 */
	struct sds_gap { u64 from, to; } *gaps;
	size_t		ngaps, capgaps;
	bool		sds_unread;	/* a read failed: nothing compares */
};

static void sds_gap_add(struct secure *sec, u64 from, u64 to)
{
	if (sec->ngaps == sec->capgaps) {
		sec->capgaps = sec->capgaps ? 2 * sec->capgaps : 8;
		sec->gaps = xrealloc(sec->gaps, sec->capgaps,
				     sizeof(*sec->gaps));
	}
	sec->gaps[sec->ngaps].from = from;
	sec->gaps[sec->ngaps++].to = to;
}

/* Was the $SDS entry at @off left unwalked after a problem was reported? */
static bool sds_unwalked(const struct secure *sec, u64 off)
{
	size_t i;

	if (sec->sds_unread)
		return true;
	for (i = 0; i < sec->ngaps; i++)
		if (off >= sec->gaps[i].from && off < sec->gaps[i].to)
			return true;
	return false;
}

/*
 * sd_hash() - the hash $SDH keys a descriptor by: over the descriptor's
 * little-endian 32-bit words, hash = rol32(hash, 3) + word from 0 (libyal
 * NTFS document; matches every clean image).  Trailing bytes short of a
 * word do not count; descriptors are made of 4-byte aligned parts anyway.
 */
static u32 sd_hash(const u8 *sd, u32 len)
{
	u32 h = 0, w, i;

	for (i = 0; i + 4 <= len; i += 4) {
		memcpy(&w, sd + i, 4);
		h = ((h << 3) | (h >> 29)) + le32(w);
	}
	return h;
}

/* A SID at @off of the descriptor: 8 bytes then 4 per sub-authority. */
static const char *sid_bad(const u8 *sd, u32 len, u32 off)
{
	if (off < sizeof(struct sd_rel) || off > len || len - off < 8)
		return "outside the descriptor";
	if (sd[off] != 1)
		return "revision is not 1";
	if (len - off - 8 < 4u * sd[off + 1])
		return "sub-authorities run past the end";
	return NULL;
}

/* An ACL at @off: header, then ace_count ACEs, all inside its size. */
static const char *acl_bad(const u8 *sd, u32 len, u32 off)
{
	struct acl_hdr acl;
	struct ace_hdr ace;
	u32 pos, i, size;

	if (off < sizeof(struct sd_rel) || off > len ||
	    len - off < sizeof(acl))
		return "outside the descriptor";
	memcpy(&acl, sd + off, sizeof(acl));
	size = le16(acl.size);
	/* ACL_REVISION 2, ACL_REVISION_DS 4 for object ACEs. */
	if (acl.revision != 2 && acl.revision != 4)
		return "revision is neither 2 nor 4";
	if (size < sizeof(acl) || size > len - off)
		return "size runs past the end";
	for (i = 0, pos = sizeof(acl); i < le16(acl.ace_count); i++) {
		if (size - pos < sizeof(ace))
			return "ACEs run past the ACL's size";
		memcpy(&ace, sd + off + pos, sizeof(ace));
		if (le16(ace.size) < sizeof(ace) ||
		    le16(ace.size) > size - pos)
			return "an ACE runs past the ACL's size";
		pos += le16(ace.size);
	}
	return NULL;
}

/* The first rule of a self-relative descriptor that @sd breaks, or NULL. */
static const char *sd_bad(const u8 *sd, u32 len, char *why, size_t wlen)
{
	struct sd_rel h;
	const char *e = NULL, *part = NULL;
	u16 ctl;

	if (len < sizeof(h))
		return "shorter than its 20-byte header";
	memcpy(&h, sd, sizeof(h));
	ctl = le16(h.control);
	if (h.revision != 1)
		return "revision is not 1";
	if (!(ctl & SE_SELF_RELATIVE))
		return "not self-relative";
	/* the first part found broken, in this order */
	if (le32(h.owner)) {
		e = sid_bad(sd, len, le32(h.owner));
		part = "owner";
	}
	if (!e && le32(h.group)) {
		e = sid_bad(sd, len, le32(h.group));
		part = "group";
	}
	if (!e && (ctl & SE_SACL_PRESENT) && le32(h.sacl)) {
		e = acl_bad(sd, len, le32(h.sacl));
		part = "SACL";
	}
	if (!e && (ctl & SE_DACL_PRESENT) && le32(h.dacl)) {
		e = acl_bad(sd, len, le32(h.dacl));
		part = "DACL";
	}
	if (!e)
		return NULL;
	snprintf(why, wlen, "%s %s", part, e);
	return why;
}

static void sds_add(struct secure *sec, const struct ntfs_sds_header *h,
		    bool hash_bad)
{
	struct sds_ent *e;

	if (sec->n == sec->cap) {
		sec->cap = sec->cap ? 2 * sec->cap : 64;
		sec->ent = xrealloc(sec->ent, sec->cap, sizeof(*sec->ent));
	}
	e = &sec->ent[sec->n++];
	memset(e, 0, sizeof(*e));
	e->id = le32(h->security_id);
	e->hash = le32(h->hash);
	e->offset = le64(h->offset);
	e->length = le32(h->length);
	e->hash_bad = hash_bad;
}

/*
 * sds_entry_check() - one $SDS entry at @pos of the primary block @blk
 * (@base its offset in $SDS): descriptor, hash and the mirror copy in
 * @mir (@mlen bytes of it inside the data size).
 */
static void sds_entry_check(struct vol *v, struct secure *sec, u64 base,
			    const u8 *blk, u32 pos, const u8 *mir, u32 mlen)
{
	struct ntfs_sds_header h;
	const char *bad;
	char why[96];
	u32 len, hash;

	memcpy(&h, blk + pos, sizeof(h));
	len = le32(h.length);
	bad = sd_bad(blk + pos + SDS_HDR, len - SDS_HDR, why, sizeof(why));
	if (bad)
		report(v, P_SECURE, NTFS_SECURE_INO, "$SDS",
		       "descriptor of security id %u at 0x%llx: %s",
		       le32(h.security_id), (unsigned long long)(base + pos),
		       bad);
	hash = sd_hash(blk + pos + SDS_HDR, len - SDS_HDR);
	if (hash != le32(h.hash))
		report(v, P_SDHHASH, NTFS_SECURE_INO, "$SDS",
		       "security id %u at 0x%llx: hash 0x%08x, descriptor hashes to 0x%08x",
		       le32(h.security_id), (unsigned long long)(base + pos),
		       le32(h.hash), hash);
	if (pos + len > mlen)
		report(v, P_SECURE, NTFS_SECURE_INO, "$SDS",
		       "security id %u at 0x%llx: mirror copy at 0x%llx ends past the data size",
		       le32(h.security_id), (unsigned long long)(base + pos),
		       (unsigned long long)(base + NTFS_SDS_BLOCK + pos));
	else if (memcmp(blk + pos, mir + pos, len))
		report(v, P_SECURE, NTFS_SECURE_INO, "$SDS",
		       "security id %u at 0x%llx: mirror copy at 0x%llx differs",
		       le32(h.security_id), (unsigned long long)(base + pos),
		       (unsigned long long)(base + NTFS_SDS_BLOCK + pos));
	sds_add(sec, &h, hash != le32(h.hash));
}

/*
 * sds_block_walk() - the entries of one primary block: each starts 16-byte
 * aligned after the previous one, records its own offset, and lies inside
 * the block; an all-zero header ends the block's entries (the rest of a
 * block an entry does not fit in stays unused).  Returns the entries seen.
 */
static u32 sds_block_walk(struct vol *v, struct secure *sec, u64 base,
			  const u8 *blk, u32 plen, const u8 *mir, u32 mlen)
{
	static const u8 zero[sizeof(struct ntfs_sds_header)];
	struct ntfs_sds_header h;
	u32 pos = 0, len, n = 0;

	while (pos + SDS_HDR <= plen) {
		memcpy(&h, blk + pos, sizeof(h));
		if (!memcmp(&h, zero, sizeof(h)))
			break;
		len = le32(h.length);
		if (le64(h.offset) != base + pos) {
			report(v, P_SECURE, NTFS_SECURE_INO, "$SDS",
			       "entry at 0x%llx: offset field 0x%llx is not its position",
			       (unsigned long long)(base + pos),
			       (unsigned long long)le64(h.offset));
			sds_gap_add(sec, base + pos, base + NTFS_SDS_BLOCK);
			break;
		}
		if (len < SDS_HDR || len > plen - pos) {
			report(v, P_SECURE, NTFS_SECURE_INO, "$SDS",
			       "entry at 0x%llx: length %u is not within %u..%u (%s)",
			       (unsigned long long)(base + pos), len, SDS_HDR,
			       plen - pos, plen < NTFS_SDS_BLOCK ?
			       "end of the data" : "end of the 256 KiB block");
			sds_gap_add(sec, base + pos, base + NTFS_SDS_BLOCK);
			break;
		}
		sds_entry_check(v, sec, base, blk, pos, mir, mlen);
		n++;
		pos = (pos + len + 15) & ~15u;
	}
	return n;
}

/*
 * next_data() - the first byte at or after @pos that is neither in a hole
 * nor past the initialized size (such bytes read as zeros and hold no
 * entry), or @end.  *@ri is a cursor into the runs; @pos only grows.
 */
static u64 next_data(const struct vol *v, const struct stream *s,
		     size_t *ri, u64 pos, u64 end)
{
	const struct run *r;
	u64 vcn = pos >> v->cluster_bits, last;

	if (s->resident)
		return pos;
	if (pos >= s->valid_size)
		return end;
	for (; *ri < s->runs.n; (*ri)++) {
		r = &s->runs.v[*ri];
		if (__builtin_add_overflow(r->vcn, r->len, &last))
			last = UINT64_MAX;
		if (last <= vcn || r->lcn == LCN_HOLE)
			continue;
		if (r->vcn <= vcn)
			return pos;
		if (r->vcn > (end - 1) >> v->cluster_bits)
			return end;
		return r->vcn << v->cluster_bits;
	}
	return end;
}

/* Walk $SDS block by block: primary at 2k * 256 KiB, mirror right after. */
static void sds_walk(struct vol *v, struct secure *sec, struct stream *s)
{
	const u64 pair = 2ull * NTFS_SDS_BLOCK;
	u64 size = stream_size(s), base, data, limit;
	u8 *blk = xcalloc(2, NTFS_SDS_BLOCK), *mir = blk + NTFS_SDS_BLOCK;
	u32 plen, mlen, blocks = 0;
	size_t ri = 0;

	/* A data size past the allocation was reported by check_records(). */
	if (!s->resident && size > s->alloc_size)
		size = s->alloc_size;
	/* Bound the walk by what the volume can hold, whatever the sizes say. */
	if (__builtin_mul_overflow(v->clusters, (u64)v->cluster_size, &limit))
		limit = UINT64_MAX;
	if (size > limit)
		size = limit;
	for (base = 0; base < size; base += pair) {
		/* Skip blocks in holes or past the initialized size: zeros. */
		data = next_data(v, s, &ri, base, size);
		if (data >= size)
			break;
		if (data / pair * pair > base) {
			base = data / pair * pair - pair;
			continue;
		}
		if (data >= base + NTFS_SDS_BLOCK)
			continue;
		plen = size - base < NTFS_SDS_BLOCK ? size - base : NTFS_SDS_BLOCK;
		mlen = size - base <= NTFS_SDS_BLOCK ? 0 :
		       size - base - NTFS_SDS_BLOCK < NTFS_SDS_BLOCK ?
		       size - base - NTFS_SDS_BLOCK : NTFS_SDS_BLOCK;
		if (stream_read(v, s, base, blk, plen) ||
		    (mlen && stream_read(v, s, base + NTFS_SDS_BLOCK, mir, mlen))) {
			sec->sds_unread = true;	/* runs reported already */
			break;
		}
		sds_block_walk(v, sec, base, blk, plen, mir, mlen);
		blocks++;
	}
	free(blk);
	checked(v, "$Secure:$SDS: %zu descriptors in %u blocks", sec->n,
		blocks);
}

static int cmp_sds_id(const void *a, const void *b)
{
	const struct sds_ent *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static struct sds_ent *sds_find(struct secure *sec, u32 id)
{
	struct sds_ent key = { .id = id };

	return find_in_array(&key, sec->ent, sec->n, sizeof(key), cmp_sds_id);
}

/* Sort the $SDS entries by id; two entries with one id are a problem. */
static void sds_sort(struct vol *v, struct secure *sec)
{
	size_t i;

	sort_array(sec->ent, sec->n, sizeof(*sec->ent), cmp_sds_id);
	for (i = 1; i < sec->n; i++)
		if (sec->ent[i].id == sec->ent[i - 1].id)
			report(v, P_SECURE, NTFS_SECURE_INO, "$SDS",
			       "security id %u at 0x%llx and at 0x%llx",
			       sec->ent[i].id,
			       (unsigned long long)sec->ent[i - 1].offset,
			       (unsigned long long)sec->ent[i].offset);
}

/*
 * view_data() - the data part of a view index entry ($SII, $SDH), which
 * must hold a whole $SDS header, or NULL after a report.
 */
static const struct ntfs_sds_header *view_data(struct vol *v,
					       struct index_walk *w,
					       const struct ntfs_index_entry *e)
{
	u16 off = le16(e->view.data_offset), len = le16(e->view.data_length);

	if (len < SDS_HDR || off > le16(e->length) ||
	    le16(e->length) - off < len) {
		report(v, P_SECURE, w->rec, w->name,
		       "entry data %u bytes at %u: not a %u-byte $SDS header inside the %u-byte entry",
		       len, off, SDS_HDR, le16(e->length));
		return NULL;
	}
	return (const void *)((const u8 *)e + off);
}

/*
 * index_data_differs() - compare an index entry's copy of the $SDS header
 * with the entry itself.  A hash the $SDS header got wrong was reported as
 * [sdh-hash]; the index's hash is then compared with the descriptor's.
 */
static bool index_data_differs(struct vol *v, struct index_walk *w,
			       const struct ntfs_sds_header *d,
			       const struct sds_ent *ent)
{
	if (le32(d->security_id) == ent->id && le64(d->offset) == ent->offset &&
	    le32(d->length) == ent->length &&
	    (ent->hash_bad || le32(d->hash) == ent->hash))
		return false;
	report(v, P_SECURE, w->rec, w->name,
	       "security id %u: data {hash 0x%08x, id %u, offset 0x%llx, length %u}, $SDS has {0x%08x, %u, 0x%llx, %u}",
	       ent->id, le32(d->hash), le32(d->security_id),
	       (unsigned long long)le64(d->offset), le32(d->length),
	       ent->hash, ent->id, (unsigned long long)ent->offset,
	       ent->length);
	return true;
}

/* $SII: key = security id (u32), data = copy of the $SDS header. */
static int sii_entry(struct vol *v, struct index_walk *w,
		     const struct ntfs_index_entry *e, const u8 *key,
		     u16 key_len)
{
	struct secure *sec = w->ctx;
	const struct ntfs_sds_header *d;
	struct sds_ent *ent;
	u32 id;

	if (key_len != 4) {
		report(v, P_SECURE, w->rec, w->name,
		       "key is %u bytes, not 4 (a security id)", key_len);
		return 0;
	}
	memcpy(&id, key, 4);
	id = le32(id);
	if (sec->nsii == sec->capsii) {
		sec->capsii = sec->capsii ? 2 * sec->capsii : 64;
		sec->sii_ids = xrealloc(sec->sii_ids, sec->capsii, sizeof(u32));
	}
	sec->sii_ids[sec->nsii++] = id;
	d = view_data(v, w, e);
	if (!d)
		return 0;
	ent = sds_find(sec, id);
	if (!ent && sds_unwalked(sec, le64(d->offset)))
		return 0;
	if (!ent) {
		report(v, P_SECURE, w->rec, w->name,
		       "security id %u: no such entry in $SDS", id);
		return 0;
	}
	if (ent->in_sii)
		report(v, P_SECURE, w->rec, w->name,
		       "security id %u listed twice", id);
	ent->in_sii = true;
	index_data_differs(v, w, d, ent);
	return 0;
}

/* $SDH: key = {hash, security id}, data = copy of the $SDS header. */
static int sdh_entry(struct vol *v, struct index_walk *w,
		     const struct ntfs_index_entry *e, const u8 *key,
		     u16 key_len)
{
	struct secure *sec = w->ctx;
	const struct ntfs_sds_header *d;
	struct sds_ent *ent;
	u32 k[2];

	if (key_len != 8) {
		report(v, P_SECURE, w->rec, w->name,
		       "key is %u bytes, not 8 (hash, security id)", key_len);
		return 0;
	}
	memcpy(k, key, 8);
	k[0] = le32(k[0]);
	k[1] = le32(k[1]);
	d = view_data(v, w, e);
	if (!d)
		return 0;
	ent = sds_find(sec, k[1]);
	if (!ent && sds_unwalked(sec, le64(d->offset)))
		return 0;
	if (!ent) {
		report(v, P_SECURE, w->rec, w->name,
		       "security id %u: no such entry in $SDS", k[1]);
		return 0;
	}
	if (ent->in_sdh)
		report(v, P_SECURE, w->rec, w->name,
		       "security id %u listed twice", k[1]);
	ent->in_sdh = true;
	/* With the $SDS header's hash wrong, the index may hold either. */
	if (k[0] != ent->hash && !ent->hash_bad)
		report(v, P_SDHHASH, w->rec, w->name,
		       "security id %u: key hash 0x%08x, $SDS has 0x%08x",
		       k[1], k[0], ent->hash);
	index_data_differs(v, w, d, ent);
	return 0;
}

/*
 * Walk one of $Secure's indexes with @fn; false if it could not be walked
 * whole.  The collation is part of the format: $SII is keyed by ULONG,
 * $SDH by SECURITY_HASH.
 */
static bool secure_index(struct vol *v, struct secure *sec, const char *name,
			 u32 collation,
			 int (*fn)(struct vol *, struct index_walk *,
				   const struct ntfs_index_entry *,
				   const u8 *, u16))
{
	struct index_walk w = {
		.rec = NTFS_SECURE_INO, .name = name, .entry = fn, .ctx = sec,
	};
	int err = index_walk(v, &w);

	if (err == -ENOENT)
		report(v, P_SECURE, NTFS_SECURE_INO, name, "index missing");
	if (err)
		return false;
	if (w.collation != collation) {
		report(v, P_SECURE, NTFS_SECURE_INO, name,
		       "collation rule 0x%x, not 0x%x", w.collation,
		       collation);
		return false;
	}
	checked(v, "$Secure:%s: %llu entries", name,
		(unsigned long long)w.entries);
	return true;
}

/* Every $SDS entry must be in both indexes (when they were walked whole). */
static void secure_unindexed(struct vol *v, struct secure *sec)
{
	size_t i;

	for (i = 0; i < sec->n; i++) {
		if (sec->sii_ok && !sec->ent[i].in_sii)
			report(v, P_SECURE, NTFS_SECURE_INO, "$SII",
			       "security id %u of $SDS 0x%llx not listed",
			       sec->ent[i].id,
			       (unsigned long long)sec->ent[i].offset);
		if (sec->sdh_ok && !sec->ent[i].in_sdh)
			report(v, P_SECURE, NTFS_SECURE_INO, "$SDH",
			       "security id %u of $SDS 0x%llx not listed",
			       sec->ent[i].id,
			       (unsigned long long)sec->ent[i].offset);
	}
}

/* Every security id a file's $STANDARD_INFORMATION names is in $SII. */
static void secure_ids_in_use(struct vol *v, struct secure *sec)
{
	u64 r;
	u32 id;

	sort_array(sec->sii_ids, sec->nsii, sizeof(u32), cmp_u32);
	for (r = 0; r < v->nrec; r++) {
		id = v->recs[r].security_id;
		if (!id || !base_ok(v, r))
			continue;
		if (!find_in_array(&id, sec->sii_ids, sec->nsii, sizeof(u32),
				   cmp_u32))
			report(v, P_SECURE, r, "$STANDARD_INFORMATION",
			       "security id %u is not defined in $Secure:$SII",
			       id);
	}
}

/* $Secure (NTFS 3.x): $SDS entries against $SII and $SDH, ids in use. */
void check_secure(struct vol *v)
{
	struct secure sec = { 0 };
	struct stream s;

	/* NTFS 1.2 keeps descriptors per file; record 9 is $Quota there. */
	if (v->major == 1 || !rec_ok(v, NTFS_SECURE_INO))
		return;
	if (!find_attr(v, NTFS_SECURE_INO, NTFS_AT_DATA, "$SDS")) {
		report(v, P_SECURE, NTFS_SECURE_INO, "$DATA $SDS", "missing");
		return;
	}
	if (stream_open(v, NTFS_SECURE_INO, NTFS_AT_DATA, "$SDS", &s))
		return;
	sds_walk(v, &sec, &s);
	stream_free(&s);
	sds_sort(v, &sec);
	sec.sii_ok = secure_index(v, &sec, "$SII", NTFS_COLLATION_ULONG,
				  sii_entry);
	sec.sdh_ok = secure_index(v, &sec, "$SDH",
				  NTFS_COLLATION_SECURITY_HASH, sdh_entry);
	secure_unindexed(v, &sec);
	if (sec.sii_ok)
		secure_ids_in_use(v, &sec);
	free(sec.ent);
	free(sec.sii_ids);
	free(sec.gaps);
}

/* ------------------------------------------------------------------ */
/* Reparse points                                                      */

/* A file with a reparse point, as $R should list it. */
struct rp_ent {
	u64	rec;
	u32	tag;
	bool	tag_ok;		/* the value was readable and well formed */
	bool	listed;
};

struct reparse {
	struct rp_ent	*ent;
	size_t		n, cap;
};

/* A tag with bit 31 clear is a third party's: a GUID follows the header. */
#define REPARSE_TAG_MICROSOFT	0x80000000u
#define REPARSE_GUID_LEN	16
#define REPARSE_HDR		8

/*
 * reparse_value_check() - the $REPARSE_POINT of base record @r: an 8-byte
 * header {tag, data length, reserved}, for third-party tags a GUID, then
 * exactly data length bytes ([MS-FSCC] 2.1.2.1, 2.1.2.3).  Returns true
 * and *@tag when the value is well formed.
 */
static bool reparse_value_check(struct vol *v, u64 r, u32 *tag)
{
	struct ntfs_reparse h;
	struct stream s;
	u64 size, want;

	if (stream_open(v, r, NTFS_AT_REPARSE, "", &s))
		return false;
	size = stream_size(&s);
	if (size < REPARSE_HDR) {
		report(v, P_REPARSE, r, "$REPARSE_POINT",
		       "value is %llu bytes, less than its 8-byte header",
		       (unsigned long long)size);
		stream_free(&s);
		return false;
	}
	if (stream_read(v, &s, 0, &h, REPARSE_HDR)) {
		stream_free(&s);
		return false;
	}
	stream_free(&s);
	*tag = le32(h.tag);
	want = REPARSE_HDR + le16(h.data_length) +
	       (*tag & REPARSE_TAG_MICROSOFT ? 0 : REPARSE_GUID_LEN);
	if (want != size) {
		report(v, P_REPARSE, r, "$REPARSE_POINT",
		       "tag 0x%08x: value is %llu bytes, header says %llu",
		       *tag, (unsigned long long)size,
		       (unsigned long long)want);
		return false;
	}
	return true;
}

/* Every file with a $REPARSE_POINT, its value and its reparse attribute. */
static void reparse_collect(struct vol *v, struct reparse *rp)
{
	struct rp_ent *e;
	bool has_attr;
	u64 r;

	for (r = 0; r < v->nrec; r++) {
		if (!base_ok(v, r))
			continue;
		has_attr = v->recs[r].file_attrs & FILE_ATTRIBUTE_REPARSE_POINT;
		if (!v->recs[r].reparse) {
			if (has_attr)
				report(v, P_REPARSE, r, "$STANDARD_INFORMATION",
				       "reparse point attribute 0x400 set, no $REPARSE_POINT");
			continue;
		}
		if (rp->n == rp->cap) {
			rp->cap = rp->cap ? 2 * rp->cap : 64;
			rp->ent = xrealloc(rp->ent, rp->cap, sizeof(*rp->ent));
		}
		e = &rp->ent[rp->n++];
		memset(e, 0, sizeof(*e));
		e->rec = r;
		e->tag_ok = reparse_value_check(v, r, &e->tag);
		if (!has_attr)
			report(v, P_REPARSE, r, "$STANDARD_INFORMATION",
			       "attributes 0x%08x lack reparse point 0x400; the file has a $REPARSE_POINT",
			       v->recs[r].file_attrs);
	}
}

/* Does @fn (a $FILE_NAME value) name @want (ASCII) in $Extend? */
static bool fn_is_extend(const struct ntfs_file_name *fn, u32 len, const char *want)
{
	size_t n = strlen(want);
	unsigned int i;

	if (len < sizeof(*fn) || fn->name_length != n ||
	    len - sizeof(*fn) < 2u * fn->name_length ||
	    NTFS_REF_RECORD(le64(fn->parent)) != NTFS_EXTEND_INO)
		return false;
	for (i = 0; i < fn->name_length; i++)
		if (le16(fn->name[i]) != (u8)want[i])
			return false;
	return true;
}

/* The base record of $Extend\@want, found by its $FILE_NAME; or NO_REC. */
static u64 find_extend(struct vol *v, const char *want)
{
	const struct ntfs_file_name *fn;
	struct ntfs_attr *a;
	u64 r, base;
	u32 len;

	for (r = 0; r < v->nrec; r++) {
		if (!rec_ok(v, r))
			continue;
		for_each_attr(v, r, a) {
			if (le32(a->type) != NTFS_AT_FILE_NAME || a->non_resident)
				continue;
			fn = attr_value(a, &len);
			if (!fn || !fn_is_extend(fn, len, want))
				continue;
			base = record_base(v, r);
			return base_ok(v, base) ? base : NO_REC;
		}
	}
	return NO_REC;
}

static int cmp_rp_rec(const void *a, const void *b)
{
	const struct rp_ent *x = a, *y = b;

	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

/* $R: key = {u32 tag, u64 file reference}, collated as ULONGS, no data. */
static int r_entry(struct vol *v, struct index_walk *w,
		   const struct ntfs_index_entry *e, const u8 *key,
		   u16 key_len)
{
	struct reparse *rp = w->ctx;
	struct rp_ent k, *ent;
	u32 tag;
	u64 ref;

	if (key_len != 12) {
		report(v, P_REPARSE, w->rec, w->name,
		       "key is %u bytes, not 12 (tag, file reference)",
		       key_len);
		return 0;
	}
	memcpy(&tag, key, 4);
	memcpy(&ref, key + 4, 8);
	tag = le32(tag);
	ref = le64(ref);
	k.rec = NTFS_REF_RECORD(ref);
	/* A record check_records() rejected was reported already. */
	if (k.rec < v->nrec && v->recs[k.rec].state == REC_BAD)
		return 0;
	ent = find_in_array(&k, rp->ent, rp->n, sizeof(k), cmp_rp_rec);
	if (!ent) {
		report(v, P_REPARSE, w->rec, w->name,
		       "lists record %llu (tag 0x%08x), which has no reparse point",
		       (unsigned long long)k.rec, tag);
		return 0;
	}
	if (ent->listed)
		report(v, P_REPARSE, w->rec, w->name,
		       "lists record %llu twice", (unsigned long long)k.rec);
	ent->listed = true;
	if (NTFS_REF_SEQ(ref) != v->recs[k.rec].seq)
		report(v, P_REPARSE, w->rec, w->name,
		       "record %llu listed with sequence %u, the record has %u",
		       (unsigned long long)k.rec, NTFS_REF_SEQ(ref),
		       v->recs[k.rec].seq);
	if (ent->tag_ok && tag != ent->tag)
		report(v, P_REPARSE, w->rec, w->name,
		       "record %llu listed with tag 0x%08x, its $REPARSE_POINT has 0x%08x",
		       (unsigned long long)k.rec, tag, ent->tag);
	return 0;
}

/* $Extend\$Reparse:$R lists exactly the files with reparse points. */
static void reparse_index(struct vol *v, struct reparse *rp)
{
	struct index_walk w = { .name = "$R", .entry = r_entry, .ctx = rp };
	size_t i;
	int err;

	w.rec = find_extend(v, "$Reparse");
	if (w.rec == NO_REC)
		return;		/* NTFS 1.2, or not created: nothing to match */
	err = index_walk(v, &w);
	if (err == -ENOENT)
		report(v, P_REPARSE, w.rec, "$R", "index missing");
	if (err)
		return;
	/* Keys {tag, reference} compare as a sequence of u32 (ULONGS). */
	if (w.collation != NTFS_COLLATION_ULONGS) {
		report(v, P_REPARSE, w.rec, "$R",
		       "collation rule 0x%x, not 0x%x (ULONGS)", w.collation,
		       NTFS_COLLATION_ULONGS);
		return;
	}
	for (i = 0; i < rp->n; i++)
		if (!rp->ent[i].listed)
			report(v, P_REPARSE, rp->ent[i].rec, "$REPARSE_POINT",
			       "tag 0x%08x: not listed in $Extend\\$Reparse:$R",
			       rp->ent[i].tag);
	checked(v,
		"$Extend\\$Reparse:$R (record %llu): %llu entries, %zu files with reparse points",
		(unsigned long long)w.rec, (unsigned long long)w.entries,
		rp->n);
}

/* Reparse points: their values, their flag, and $Extend\$Reparse. */
void check_reparse(struct vol *v)
{
	struct reparse rp = { 0 };

	reparse_collect(v, &rp);
	/* Collected in record order: sorted for bsearch already. */
	reparse_index(v, &rp);
	free(rp.ent);
}

/* ------------------------------------------------------------------ */
/* Object ids                                                          */

/* A file with an $OBJECT_ID, as $O should list it. */
struct oid_ent {
	u8	guid[NTFS_OBJECT_ID_LEN];
	u64	rec;
	bool	listed;
};

struct objids {
	struct oid_ent	*ent;
	size_t		n, cap;
};

static int cmp_oid(const void *a, const void *b)
{
	return memcmp(((const struct oid_ent *)a)->guid, ((const struct oid_ent *)b)->guid,
		      NTFS_OBJECT_ID_LEN);
}

/* Every resident $OBJECT_ID of a file in use, by its base record. */
static void objid_collect(struct vol *v, struct objids *o)
{
	struct ntfs_attr *a;
	const u8 *val;
	u64 r, base;
	u32 len;

	for (r = 0; r < v->nrec; r++) {
		if (!rec_ok(v, r))
			continue;
		for_each_attr(v, r, a) {
			if (le32(a->type) != NTFS_AT_OBJECT_ID || a->non_resident)
				continue;
			val = attr_value(a, &len);
			base = record_base(v, r);
			if (!val || len < NTFS_OBJECT_ID_LEN || !base_ok(v, base)) {
				report(v, P_OBJID, r, "$OBJECT_ID",
				       "value is %u bytes, less than its 16-byte GUID", val ? len : 0);
				continue;
			}
			if (o->n == o->cap) {
				o->cap = o->cap ? 2 * o->cap : 64;
				o->ent = xrealloc(o->ent, o->cap, sizeof(*o->ent));
			}
			memcpy(o->ent[o->n].guid, val, NTFS_OBJECT_ID_LEN);
			o->ent[o->n].rec = base;
			o->ent[o->n].listed = false;
			o->n++;
		}
	}
	sort_array(o->ent, o->n, sizeof(*o->ent), cmp_oid);
}

/*
 * $O: key = the 16-byte GUID (ULONGS), data = the file's reference and
 * its birth volume, object and domain ids (56 bytes).
 */
static int o_entry(struct vol *v, struct index_walk *w, const struct ntfs_index_entry *e,
		   const u8 *key, u16 key_len)
{
	struct objids *o = w->ctx;
	struct oid_ent k, *ent;
	u16 doff = le16(e->view.data_offset), dlen = le16(e->view.data_length);
	u64 ref;

	if (key_len != NTFS_OBJECT_ID_LEN || dlen < 8 || doff > le16(e->length) ||
	    le16(e->length) - doff < 8) {
		report(v, P_OBJID, w->rec, w->name,
		       "entry with a key of %u bytes and %u bytes of data: not a GUID and a reference",
		       key_len, dlen);
		return 0;
	}
	memcpy(k.guid, key, NTFS_OBJECT_ID_LEN);
	memcpy(&ref, (const u8 *)e + doff, 8);
	ref = le64(ref);
	ent = find_in_array(&k, o->ent, o->n, sizeof(k), cmp_oid);
	if (!ent) {
		report(v, P_OBJID, w->rec, w->name,
		       "lists an object id of record %llu that no file has",
		       (unsigned long long)NTFS_REF_RECORD(ref));
		return 0;
	}
	if (ent->listed)
		report(v, P_OBJID, w->rec, w->name, "lists the object id of record %llu twice",
		       (unsigned long long)ent->rec);
	ent->listed = true;
	if (NTFS_REF_RECORD(ref) != ent->rec || NTFS_REF_SEQ(ref) != v->recs[ent->rec].seq)
		report(v, P_OBJID, w->rec, w->name,
		       "the object id of record %llu (sequence %u) points at record %llu sequence %u",
		       (unsigned long long)ent->rec, v->recs[ent->rec].seq,
		       (unsigned long long)NTFS_REF_RECORD(ref), NTFS_REF_SEQ(ref));
	return 0;
}

/* Object ids: $Extend\$ObjId:$O lists exactly the files' $OBJECT_IDs. */
void check_objid(struct vol *v)
{
	struct objids o = { 0 };
	struct index_walk w = { .name = "$O", .entry = o_entry, .ctx = &o };
	size_t i;
	int err;

	w.rec = find_extend(v, "$ObjId");
	if (w.rec == NO_REC)
		return;		/* NTFS 1.2, or not created: nothing to match */
	objid_collect(v, &o);
	err = index_walk(v, &w);
	if (err == -ENOENT)
		report(v, P_OBJID, w.rec, "$O", "index missing");
	if (!err && w.collation != NTFS_COLLATION_ULONGS)
		report(v, P_OBJID, w.rec, "$O", "collation rule 0x%x, not 0x%x (ULONGS)",
		       w.collation, NTFS_COLLATION_ULONGS);
	for (i = 0; !err && i < o.n; i++)
		if (!o.ent[i].listed)
			report(v, P_OBJID, o.ent[i].rec, "$OBJECT_ID",
			       "not listed in $Extend\\$ObjId:$O");
	if (!err)
		checked(v, "$Extend\\$ObjId:$O (record %llu): %llu entries, %zu files with object ids",
			(unsigned long long)w.rec, (unsigned long long)w.entries, o.n);
	free(o.ent);
}

/* ------------------------------------------------------------------ */
/* Quotas                                                              */

struct quotas {
	u32	flags;		/* the defaults entry's */
	bool	defaults;	/* the defaults entry was seen */
};

/*
 * $Q: key = the owner id (le32, ULONG), data = a quota control entry of
 * version 2 (48 bytes, then the owner's SID but in the defaults entry).
 */
static int q_entry(struct vol *v, struct index_walk *w, const struct ntfs_index_entry *e,
		   const u8 *key, u16 key_len)
{
	struct quotas *q = w->ctx;
	u16 doff = le16(e->view.data_offset), dlen = le16(e->view.data_length);
	struct ntfs_quota_entry qe;
	u32 id;

	if (key_len != 4 || dlen < sizeof(qe) || doff > le16(e->length) ||
	    le16(e->length) - doff < sizeof(qe)) {
		report(v, P_QUOTA, w->rec, w->name,
		       "entry with a key of %u bytes and %u bytes of data: not an owner id and a quota entry",
		       key_len, dlen);
		return 0;
	}
	memcpy(&id, key, 4);
	memcpy(&qe, (const u8 *)e + doff, sizeof(qe));
	if (le32(qe.version) != NTFS_QUOTA_VERSION)
		report(v, P_QUOTA, w->rec, w->name, "owner id %u: version %u, not %u",
		       le32(id), le32(qe.version), NTFS_QUOTA_VERSION);
	if (le32(id) == NTFS_QUOTA_DEFAULTS_ID) {
		q->defaults = true;
		q->flags = le32(qe.flags);
	}
	return 0;
}

/*
 * Quotas: $Extend\$Quota:$Q is a sound index of quota entries with the
 * defaults entry (owner id 1).  Its out-of-date flag (set by a system
 * that charges nothing, such as ntfs3, for Windows to rebuild the
 * charges) is no problem; the charges themselves are not checked.
 */
void check_quota(struct vol *v)
{
	struct quotas q = { 0 };
	struct index_walk w = { .name = "$Q", .entry = q_entry, .ctx = &q };
	int err;

	w.rec = find_extend(v, "$Quota");
	if (w.rec == NO_REC)
		return;		/* NTFS 1.2, or not created */
	err = index_walk(v, &w);
	if (err == -ENOENT)
		report(v, P_QUOTA, w.rec, "$Q", "index missing");
	if (!err && w.collation != NTFS_COLLATION_ULONG)
		report(v, P_QUOTA, w.rec, "$Q", "collation rule 0x%x, not 0x%x (ULONG)",
		       w.collation, NTFS_COLLATION_ULONG);
	if (!err && !q.defaults)
		report(v, P_QUOTA, w.rec, "$Q", "no defaults entry (owner id %u)",
		       NTFS_QUOTA_DEFAULTS_ID);
	if (!err && q.defaults)
		checked(v, "$Extend\\$Quota:$Q (record %llu): %llu entries, defaults flags 0x%x (%s%s)",
			(unsigned long long)w.rec, (unsigned long long)w.entries, q.flags,
			q.flags & (NTFS_QUOTA_TRACKING | NTFS_QUOTA_ENFORCING |
					NTFS_QUOTA_TRACKING_REQUESTED) ? "tracked" : "not tracked",
			q.flags & NTFS_QUOTA_OUT_OF_DATE ? ", out of date" : "");
}
