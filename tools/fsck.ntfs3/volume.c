// SPDX-License-Identifier: GPL-2.0
/*
 * Device access, the boot sectors, and the one sequential read of $MFT.
 *
 * $MFT is read into memory once, run by run, in large requests; every later
 * pass works on that copy.  Records get their fixups applied here and a
 * first state (free, in use, broken) in v->recs.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsck.h"

#define READ_CHUNK	(16u << 20)	/* bytes per request when loading $MFT */
#define MAX_RECORDS	BIT_ULL(32)	/* recs[] links records with u32 */

int vol_open(struct vol *v, const char *path, u64 offset, u64 length)
{
	struct stat st;
	u64 size;

	v->dev = path;
	/* O_EXCL on a block device fails while the kernel has it mounted. */
	v->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (v->fd < 0) {
		fprintf(stderr, "fsck.ntfs3: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(v->fd, &st))
		fatal("%s: %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode)) {
		int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);

		if (fd < 0 && errno == EBUSY)
			fatal("%s is in use (mounted?); unmount it before checking", path);
		if (fd >= 0)
			close(fd);
		if (ioctl(v->fd, BLKGETSIZE64, &size))
			fatal("%s: cannot get the device size: %s", path, strerror(errno));
	} else if (S_ISREG(st.st_mode)) {
		size = st.st_size;
	} else {
		fatal("%s is neither a block device nor a file", path);
	}
	if (offset >= size)
		fatal("%s: --offset %llu is past the end (%llu bytes)", path,
		      (unsigned long long)offset, (unsigned long long)size);
	v->offset = offset;
	v->dev_size = size - offset;
	if (length) {
		if (length > v->dev_size)
			fatal("%s: --size %llu reaches past the end", path,
			      (unsigned long long)length);
		v->dev_size = length;
	}
	return 0;
}

/* Release what the passes kept in @v. */
void vol_close(struct vol *v)
{
	free(v->mft);
	free(v->recs);
	free(v->upcase);
	runs_free(&v->mft_runs);
	if (v->fd >= 0)
		close(v->fd);
	v->mft = NULL;
	v->recs = NULL;
	v->upcase = NULL;
	v->fd = -1;
}

/**
 * vol_read() - read @len bytes at byte @pos of the volume.
 * Return: 0, or -1 when the range is past the device or the read fails.
 */
int vol_read(struct vol *v, u64 pos, void *buf, size_t len)
{
	u8 *p = buf;
	u64 end;

	if (__builtin_add_overflow(pos, (u64)len, &end) || end > v->dev_size) {
		errno = ENXIO;
		return -1;
	}
	while (len) {
		ssize_t n = pread(v->fd, p, len, v->offset + pos);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = ENXIO;
			return -1;
		}
		p += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * fixup_apply() - check and undo the update sequence array of a multi-sector
 * block (record or index block): the last two bytes of each 512-byte stride
 * must hold the update sequence number; the saved bytes go back in place.
 * Return: 0, or -1 with *why naming the rule.
 */
int fixup_apply(u8 *buf, u32 size, u32 sector, const char **why)
{
	const struct ntfs_usa_header *h = (const void *)buf;
	u32 off = le16(h->usa_offset), count = le16(h->usa_count), i;
	u16 usn;

	(void)sector;
	if (size < NTFS_USA_STRIDE || size % NTFS_USA_STRIDE) {
		*why = "block size is not a multiple of 512";
		return -1;
	}
	if (count != size / NTFS_USA_STRIDE + 1) {
		*why = "update sequence count does not match the block size";
		return -1;
	}
	if (off & 1 || off < sizeof(*h) || off + 2 * count > NTFS_USA_STRIDE - 2) {
		*why = "update sequence array outside the first sector";
		return -1;
	}
	memcpy(&usn, buf + off, 2);
	for (i = 1; i < count; i++) {
		u8 *end = buf + i * NTFS_USA_STRIDE - 2;

		if (memcmp(end, &usn, 2)) {
			*why = "a sector's last two bytes differ from the update sequence number";
			return -1;
		}
		memcpy(end, buf + off + 2 * i, 2);
	}
	return 0;
}

static bool is_pow2(u64 x)
{
	return x && !(x & (x - 1));
}

/* Bytes of a record or index block from its boot sector encoding. */
static u32 boot_block_size(s8 enc, u32 cluster_size)
{
	if (enc < 0)
		return enc < -31 ? 0 : 1u << -enc;
	if ((u64)enc * cluster_size > 1u << 20)
		return 0;
	return enc * cluster_size;
}

/**
 * boot_parse() - validate one boot sector and derive the geometry.
 * Return: NULL when usable, else the rule it breaks.
 */
static const char *boot_parse(struct vol *v, const struct ntfs_boot *b)
{
	u32 bps = le16(b->bytes_per_sector), spc = b->sectors_per_cluster;

	if (memcmp(b->oem_id, "NTFS    ", 8))
		return "OEM id is not \"NTFS    \"";
	if (le16(b->end_marker) != 0xaa55)
		return "no 0xaa55 end marker";
	if (bps < 256 || bps > 4096 || !is_pow2(bps))
		return "bytes per sector not a power of two in 256..4096";
	if (spc > 0x80) {
		if (256 - spc > 31)
			return "sectors per cluster exponent too large";
		spc = 1u << (256 - spc);
	}
	if (!spc || !is_pow2(spc) || (u64)spc * bps > (2u << 20))
		return "cluster size not a power of two up to 2 MiB";
	v->sector_size = bps;
	v->cluster_size = spc * bps;
	v->cluster_bits = __builtin_ctz(v->cluster_size);
	v->clusters = le64(b->total_sectors) / spc;
	if (!v->clusters)
		return "volume has no clusters";
	if (le64(b->total_sectors) > v->dev_size / bps)
		return "volume is larger than the device";
	v->mft_lcn = le64(b->mft_lcn);
	v->mftmirr_lcn = le64(b->mftmirr_lcn);
	if (v->mft_lcn >= v->clusters || v->mftmirr_lcn >= v->clusters)
		return "$MFT or $MFTMirr cluster outside the volume";
	v->record_size = boot_block_size(b->record_size, v->cluster_size);
	if (v->record_size < 256 || v->record_size > 65536 || !is_pow2(v->record_size))
		return "MFT record size not a power of two in 256..65536";
	v->index_block_size = boot_block_size(b->index_size, v->cluster_size);
	if (v->index_block_size < 256 || v->index_block_size > 65536 ||
	    !is_pow2(v->index_block_size))
		return "index block size not a power of two in 256..65536";
	return NULL;
}

/* The backup boot sector is the volume's last sector (after the clusters). */
static void check_backup_boot(struct vol *v, const struct ntfs_boot *b)
{
	u64 pos = le64(b->total_sectors) * v->sector_size;
	struct ntfs_boot bb;
	unsigned int i;

	if (vol_read(v, pos, &bb, sizeof(bb))) {
		report(v, P_BOOT, NO_REC, "backup boot sector",
		       "cannot read it at byte %llu (device has %llu bytes)",
		       (unsigned long long)pos, (unsigned long long)v->dev_size);
		return;
	}
	for (i = 0; i < sizeof(bb); i++) {
		if (((u8 *)&bb)[i] != ((const u8 *)b)[i]) {
			report(v, P_BOOT, NO_REC, "backup boot sector",
			       "differs from the boot sector at byte 0x%x (0x%02x, 0x%02x)",
			       i, ((u8 *)&bb)[i], ((const u8 *)b)[i]);
			return;
		}
	}
	checked(v, "boot sector and its backup at sector %llu",
		(unsigned long long)le64(b->total_sectors));
}

/* The backup of a damaged boot sector: try the device's last sectors. */
static const char *boot_from_backup(struct vol *v, struct ntfs_boot *b)
{
	static const u32 sizes[] = { 512, 4096, 1024, 2048 };
	const char *why = "no backup boot sector found";
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u64 pos = v->dev_size / sizes[i] * sizes[i] - sizes[i];

		if (v->dev_size < sizes[i] || vol_read(v, pos, b, sizeof(*b)))
			continue;
		why = boot_parse(v, b);
		/*
		 * The backup sits right after the volume's sectors: one found
		 * elsewhere belongs to a volume that starts elsewhere (the last
		 * partition of a whole-disk image).
		 */
		if (!why && le64(b->total_sectors) * v->sector_size != pos)
			why = "the backup found belongs to a volume that starts elsewhere";
		if (!why)
			return NULL;
	}
	return why;
}

/* Sector 0 of a partitioned disk: an MBR (or GPT's protective MBR). */
static bool looks_partitioned(const struct ntfs_boot *b)
{
	const u8 *p = (const u8 *)b;
	unsigned int i;

	if (le16(b->end_marker) != 0xaa55)
		return false;
	for (i = 0; i < 4; i++)
		if (p[446 + 16 * i + 4])	/* a partition type */
			return true;
	return false;
}

/**
 * vol_check_boot() - read both boot sectors and set the geometry.
 * A usable backup stands in for a broken boot sector (reported).
 * Return: 0, or -1 when neither is usable.
 */
int vol_check_boot(struct vol *v)
{
	struct ntfs_boot b;
	const char *why;

	if (vol_read(v, 0, &b, sizeof(b)))
		fatal("%s: cannot read the boot sector: %s", v->dev, strerror(errno));
	why = boot_parse(v, &b);
	if (!why) {
		v->boot = b;
		check_backup_boot(v, &b);
		return 0;
	}
	if (memcmp(b.oem_id, "NTFS    ", 8) && looks_partitioned(&b))
		fatal("%s: %s", v->dev,
		      "a partitioned disk, not an NTFS volume: give the partition (/dev/sdb1), or --offset and --size");
	if (memcmp(b.oem_id, "NTFS    ", 8) && boot_from_backup(v, &b))
		fatal("%s: not an NTFS volume (no NTFS boot sector)", v->dev);
	report(v, P_BOOT, NO_REC, "boot sector", "%s", why);
	why = boot_from_backup(v, &b);
	if (why) {
		report(v, P_BOOT, NO_REC, "backup boot sector", "%s", why);
		return -1;
	}
	v->boot = b;
	return 0;
}

/* Where VCN @vcn of a runlist is on the volume, or -1 (hole, unmapped). */
static s64 runs_lcn(const struct runs *r, u64 vcn, u64 *left)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct run *x = &r->v[i];

		if (vcn >= x->vcn && vcn - x->vcn < x->len) {
			if (x->lcn == LCN_HOLE)
				return -1;
			*left = x->len - (vcn - x->vcn);
			return x->lcn + (vcn - x->vcn);
		}
	}
	return -1;
}

/* Read record @r of $MFT through the runs known so far (bootstrapping). */
static int read_mft_record(struct vol *v, u64 r, u8 *buf)
{
	u64 pos = r * v->record_size, left = 0, done = 0;

	while (done < v->record_size) {
		s64 lcn = runs_lcn(&v->mft_runs, (pos + done) >> v->cluster_bits, &left);
		u64 in = (pos + done) & (v->cluster_size - 1);
		u64 n;

		if (lcn < 0 || (u64)lcn >= v->clusters)
			return -1;
		n = left > v->record_size ? v->record_size : (left << v->cluster_bits) - in;
		if (n > v->record_size - done)
			n = v->record_size - done;
		if (vol_read(v, ((u64)lcn << v->cluster_bits) + in, buf + done, n))
			return -1;
		done += n;
	}
	return 0;
}

/* Find the unnamed $DATA extent starting at @vcn in a raw record buffer. */
static const struct ntfs_attr *raw_find_data(struct vol *v, u8 *buf, u64 vcn)
{
	u32 used = le32(((const struct ntfs_record *)buf)->bytes_in_use);
	struct ntfs_attr *a = NULL;

	if (used > v->record_size)
		return NULL;
	while ((a = attr_step(buf, used, a)))
		if (le32(a->type) == NTFS_AT_DATA && !a->name_length &&
		    a->non_resident && le32(a->length) >= NTFS_ATTR_NONRES_HDR &&
		    le64(a->nr.lowest_vcn) == vcn)
			return a;
	return NULL;
}

/* Decode the runs of one $MFT:$DATA extent and append them. */
static int mft_add_extent(struct vol *v, const struct ntfs_attr *a)
{
	const char *why;

	if (runs_decode(v, a, &v->mft_runs, &why)) {
		report(v, P_RUNLIST, 0, "$DATA", "%s", why);
		return -1;
	}
	return 0;
}

/* Raw $ATTRIBUTE_LIST of record 0 (resident, or read through its runs). */
static u8 *mft_attr_list(struct vol *v, u8 *rec0, u32 *len)
{
	u32 used = le32(((const struct ntfs_record *)rec0)->bytes_in_use), vlen;
	struct ntfs_attr *a = NULL;
	struct runs r = { 0 };
	const void *val;
	const char *why;
	u8 *out;

	if (used > v->record_size)
		return NULL;
	while ((a = attr_step(rec0, used, a)) && le32(a->type) != NTFS_AT_ATTR_LIST)
		;
	if (!a)
		return NULL;
	if (!a->non_resident) {
		val = attr_value(a, &vlen);
		if (!val)
			return NULL;
		out = xcalloc(1, vlen);
		memcpy(out, val, vlen);
		*len = vlen;
		return out;
	}
	if (le32(a->length) < NTFS_ATTR_NONRES_HDR || le64(a->nr.data_size) > (1u << 24) ||
	    runs_decode(v, a, &r, &why) || r.n != 1 || r.v[0].lcn == LCN_HOLE) {
		runs_free(&r);
		return NULL;
	}
	*len = le64(a->nr.data_size);
	out = xcalloc(1, *len);
	if (r.v[0].len << v->cluster_bits < *len ||
	    vol_read(v, r.v[0].lcn << v->cluster_bits, out, *len)) {
		free(out);
		out = NULL;
	}
	runs_free(&r);
	return out;
}

/*
 * $MFT's own extents beyond the first live in extension records that its
 * attribute list names; they can only be read through the runs known so
 * far, so keep adding extents until none is missing or none can be read.
 */
static void mft_more_extents(struct vol *v, u8 *rec0)
{
	u32 len = 0, off = 0;
	u8 *list = mft_attr_list(v, rec0, &len);
	u8 *buf = xcalloc(1, v->record_size);

	while (list && off + sizeof(struct ntfs_attr_list_entry) <= len) {
		const struct ntfs_attr_list_entry *e = (const void *)(list + off);
		u64 r = NTFS_REF_RECORD(le64(e->record)), vcn = le64(e->lowest_vcn);
		const struct ntfs_attr *a;
		const char *why;

		if (le16(e->length) < sizeof(*e) || le16(e->length) > len - off)
			break;
		off += le16(e->length);
		if (le32(e->type) != NTFS_AT_DATA || e->name_length || !vcn || !r)
			continue;
		if (read_mft_record(v, r, buf) ||
		    fixup_apply(buf, v->record_size, v->sector_size, &why))
			continue;
		a = raw_find_data(v, buf, vcn);
		if (a)
			mft_add_extent(v, a);
	}
	free(list);
	free(buf);
}

/* Mark record @r after its fixups: free, in use, or broken. */
static void classify_record(struct vol *v, u64 r)
{
	u8 *buf = rec_buf(v, r);
	const struct ntfs_record *h = (const void *)buf;
	struct rec *x = &v->recs[r];
	const char *why;

	if (le32(h->usa.magic) != NTFS_MAGIC_FILE) {
		x->state = REC_FREE;
		if (le32(h->usa.magic) == NTFS_MAGIC_BAAD)
			report(v, P_FIXUP, r, "header",
			       "record marked BAAD (a failed multi-sector write)");
		return;
	}
	x->flags = le16(h->flags);
	x->seq = le16(h->sequence);
	x->links = le16(h->link_count);
	x->base_ref = le64(h->base_record);
	if (!(x->flags & NTFS_RECORD_IN_USE)) {
		x->state = REC_FREE;
		return;
	}
	if (fixup_apply(buf, v->record_size, v->sector_size, &why)) {
		report(v, P_FIXUP, r, "header", "%s", why);
		x->state = REC_BAD;
		return;
	}
	x->state = REC_USED;
}

/* Read $MFT:$DATA, run by run, in READ_CHUNK requests. */
static int mft_read_all(struct vol *v, u64 bytes)
{
	size_t i;

	for (i = 0; i < v->mft_runs.n; i++) {
		const struct run *x = &v->mft_runs.v[i];
		u64 pos = x->vcn << v->cluster_bits, end, done;

		if (x->vcn >= (bytes >> v->cluster_bits) + 1 || pos >= bytes)
			break;
		if (x->lcn != LCN_HOLE &&
		    (x->lcn >= v->clusters || x->len > v->clusters - x->lcn)) {
			report(v, P_RUNLIST, 0, "$DATA",
			       "$MFT run at VCN %llu lies outside the volume",
			       (unsigned long long)x->vcn);
			return -1;
		}
		end = x->len > (bytes >> v->cluster_bits) ? bytes :
		      pos + (x->len << v->cluster_bits);
		if (end > bytes)
			end = bytes;
		if (x->lcn == LCN_HOLE) {
			report(v, P_RUNLIST, 0, "$DATA", "$MFT has a hole at VCN %llu",
			       (unsigned long long)x->vcn);
			continue;
		}
		for (done = pos; done < end; done += READ_CHUNK) {
			u64 n = end - done < READ_CHUNK ? end - done : READ_CHUNK;
			u64 at = (x->lcn << v->cluster_bits) + (done - pos);

			if (vol_read(v, at, v->mft + done, n)) {
				report(v, P_RUNLIST, 0, "$DATA",
				       "cannot read $MFT bytes %llu-%llu at volume byte %llu",
				       (unsigned long long)done,
				       (unsigned long long)(done + n - 1),
				       (unsigned long long)at);
				return -1;
			}
		}
	}
	return 0;
}

/**
 * vol_load_mft() - read all of $MFT:$DATA into v->mft and classify records.
 * Return: 0, or -1 when $MFT itself cannot be found or read (reported).
 */
int vol_load_mft(struct vol *v)
{
	u8 *rec0 = xcalloc(1, v->record_size);
	const struct ntfs_attr *a;
	const char *why;
	u64 bytes, covered = 0, r;

	if (vol_read(v, v->mft_lcn << v->cluster_bits, rec0, v->record_size))
		fatal("%s: cannot read $MFT at cluster %llu: %s", v->dev,
		      (unsigned long long)v->mft_lcn, strerror(errno));
	if (le32(((struct ntfs_record *)rec0)->usa.magic) != NTFS_MAGIC_FILE ||
	    fixup_apply(rec0, v->record_size, v->sector_size, &why)) {
		report(v, P_FIXUP, 0, "header", "$MFT's own record is unreadable");
		free(rec0);
		return -1;
	}
	a = raw_find_data(v, rec0, 0);
	if (!a || mft_add_extent(v, a)) {
		if (!a)
			report(v, P_ATTR, 0, "$DATA", "$MFT has no usable unnamed $DATA");
		free(rec0);
		return -1;
	}
	bytes = le64(a->nr.data_size);
	if (le64(a->nr.highest_vcn) + 1 < le64(a->nr.allocated_size) >> v->cluster_bits)
		mft_more_extents(v, rec0);
	free(rec0);
	if (v->mft_runs.n) {
		const struct run *last = &v->mft_runs.v[v->mft_runs.n - 1];

		covered = (last->vcn + last->len) << v->cluster_bits;
	}
	if (bytes > covered) {
		report(v, P_RUNLIST, 0, "$DATA",
		       "runs cover %llu bytes of the %llu in $MFT; checking those",
		       (unsigned long long)covered, (unsigned long long)bytes);
		bytes = covered;
	}
	if (bytes / v->record_size < NTFS_FIRST_USER_INO ||
	    bytes / v->record_size >= MAX_RECORDS) {
		report(v, P_ATTR, 0, "$DATA", "$MFT holds %llu records",
		       (unsigned long long)(bytes / v->record_size));
		return -1;
	}
	v->nrec = bytes / v->record_size;
	v->mft = xcalloc(v->nrec, v->record_size);
	v->recs = xcalloc(v->nrec, sizeof(*v->recs));
	if (mft_read_all(v, v->nrec * v->record_size))
		return -1;
	for (r = 0; r < v->nrec; r++)
		classify_record(v, r);
	checked(v, "$MFT: %llu records of %u bytes in %zu runs",
		(unsigned long long)v->nrec, v->record_size, v->mft_runs.n);
	return 0;
}
