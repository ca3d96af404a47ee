// SPDX-License-Identifier: GPL-2.0
/*
 * Names: UTF-16 as NTFS stores it, converted from and to the mount's
 * character set, and the collation of file names (upcased units first, then
 * the exact ones) that orders $I30 indexes.  The upcase table is loaded at
 * mount (super.c); ntfs_upcase() is in ntfs3.h.
 */

#include <linux/nls.h>

#include "ntfs3.h"

static bool ntfs_utf16_valid(const __le16 *name, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++) {
		u16 c = le16_to_cpu(name[i]);

		if (c >= 0xd800 && c < 0xdc00) {
			if (i + 1 == len)
				return false;
			c = le16_to_cpu(name[++i]);
			if (c < 0xdc00 || c >= 0xe000)
				return false;
		} else if (c >= 0xdc00 && c < 0xe000) {
			return false;
		}
	}
	return true;
}

/**
 * ntfs_name_from_utf16() - Convert an on-disk name for user space
 * @sbi:	the volume (its iocharset)
 * @name:	UTF-16LE name
 * @len:	units in @name
 * @buf:	output
 * @size:	size of @buf
 *
 * Return: bytes written (no NUL), or -EINVAL when the name cannot be
 * represented (unpaired surrogate, character missing from the charset).
 */
int ntfs_name_from_utf16(struct ntfs_sb *sbi, const __le16 *name, u32 len, char *buf, int size)
{
	int n = 0, r;
	u32 i;

	if (!ntfs_utf16_valid(name, len))
		return -EINVAL;
	if (!sbi->nls) {
		n = utf16s_to_utf8s((const wchar_t *)name, len, UTF16_LITTLE_ENDIAN, buf, size);
		return n > 0 || !len ? n : -EINVAL;
	}
	for (i = 0; i < len; i++) {
		r = sbi->nls->uni2char(le16_to_cpu(name[i]), buf + n, size - n);
		if (r <= 0)
			return -EINVAL;
		n += r;
	}
	return n;
}

/**
 * ntfs_name_to_utf16() - Convert a name from user space for a lookup
 * @sbi:	the volume
 * @name:	the name in the mount's character set
 * @len:	its length in bytes
 * @out:	a buffer of NTFS_MAX_NAME units
 *
 * Return: units in @out, or -ENAMETOOLONG / -EINVAL.
 */
int ntfs_name_to_utf16(struct ntfs_sb *sbi, const char *name, int len, __le16 *out)
{
	wchar_t wc;
	int n = 0, r;

	if (!sbi->nls) {
		n = utf8s_to_utf16s(name, len, UTF16_LITTLE_ENDIAN, (wchar_t *)out,
				    NTFS_MAX_NAME + 1);
		if (n < 0)
			return -EINVAL;
		return n > NTFS_MAX_NAME ? -ENAMETOOLONG : n;
	}
	while (len > 0) {
		r = sbi->nls->char2uni(name, len, &wc);
		if (r <= 0)
			return -EINVAL;
		if (n == NTFS_MAX_NAME)
			return -ENAMETOOLONG;
		out[n++] = cpu_to_le16(wc);
		name += r;
		len -= r;
	}
	return n;
}

/*
 * Order of a name against an index entry's: by upcased units, then by
 * length, then (unless @nocase) by the exact units.  @up is @a upcased
 * beforehand, so that each comparison upcases only the entry's side.
 */
int ntfs_name_cmp(const struct ntfs_sb *sbi, const __le16 *a, const u16 *up, u32 alen,
		  const __le16 *b, u32 blen, bool nocase)
{
	u32 i, n = min(alen, blen);

	for (i = 0; i < n; i++) {
		u16 y = ntfs_upcase(sbi, le16_to_cpu(b[i]));

		if (up[i] != y)
			return up[i] < y ? -1 : 1;
	}
	if (alen != blen)
		return alen < blen ? -1 : 1;
	if (nocase)
		return 0;
	for (i = 0; i < n; i++) {
		u16 x = le16_to_cpu(a[i]), y = le16_to_cpu(b[i]);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Whether the first @len units of @name, upcased ASCII, spell @word. */
static bool ntfs_name_word_is(const __le16 *name, u32 len, const char *word)
{
	u32 i;

	if (strlen(word) != len)
		return false;
	for (i = 0; i < len; i++) {
		u16 c = le16_to_cpu(name[i]);

		if (c >= 'a' && c <= 'z')
			c -= 'a' - 'A';
		if (c != word[i])
			return false;
	}
	return true;
}

/* A DOS device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9), alone or with an extension. */
static bool ntfs_name_is_device(const __le16 *name, u32 len)
{
	static const char * const devices[] = { "CON", "PRN", "AUX", "NUL" };
	u32 base = 0, i;
	u16 d;

	while (base < len && le16_to_cpu(name[base]) != '.')
		base++;
	for (i = 0; i < ARRAY_SIZE(devices); i++)
		if (ntfs_name_word_is(name, base, devices[i]))
			return true;
	if (base != 4)
		return false;
	d = le16_to_cpu(name[3]);
	return d >= '1' && d <= '9' &&
	       (ntfs_name_word_is(name, 3, "COM") || ntfs_name_word_is(name, 3, "LPT"));
}

/**
 * ntfs_name_windows_ok() - Whether Windows can create and open a name
 * @name:	UTF-16 name
 * @len:	units in @name, at least 1
 *
 * Windows refuses control characters, " * / : < > ? \ |, a trailing
 * space or dot, and the DOS device names.
 */
bool ntfs_name_windows_ok(const __le16 *name, u32 len)
{
	u16 last = le16_to_cpu(name[len - 1]);
	u32 i;

	for (i = 0; i < len; i++) {
		u16 c = le16_to_cpu(name[i]);

		if (c < 0x20 || (c < 0x80 && strchr("\"*/:<>?\\|", c)))
			return false;
	}
	return last != ' ' && last != '.' && !ntfs_name_is_device(name, len);
}
