/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the few kernel names that ntfs3/lznt1.c and ntfs3/runlist.c
 * use, mapped onto the C library, so the same source builds as a user-space
 * unit test.  The stub headers in include/linux/ include this file; the test
 * build puts include/ first on the include path.
 */
#ifndef NTFS_UNITS_KSHIM_H
#define NTFS_UNITS_KSHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <assert.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

#define __packed	__attribute__((packed))

/* The on-disk format is little-endian; so are the hosts the tests run on. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the host unit tests assume a little-endian host"
#endif
#define le16_to_cpu(x)	((u16)(x))
#define le32_to_cpu(x)	((u32)(x))
#define le64_to_cpu(x)	((u64)(x))
#define cpu_to_le16(x)	((__le16)(u16)(x))
#define cpu_to_le32(x)	((__le32)(u32)(x))
#define cpu_to_le64(x)	((__le64)(u64)(x))

/* <linux/err.h> */
#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#ifndef U64_MAX
#define U64_MAX		((u64)~0ULL)
#endif
#ifndef S64_MAX
#define S64_MAX		((s64)(U64_MAX >> 1))
#endif
#ifndef S64_MIN
#define S64_MIN		((s64)(-S64_MAX - 1))
#endif
#ifndef U32_MAX
#define U32_MAX		((u32)~0U)
#endif
#ifndef UINT_MAX
#define UINT_MAX	(~0U)
#endif
#ifndef INT_MAX
#define INT_MAX		((int)(~0U >> 1))
#endif

#define GFP_KERNEL	0u
#define GFP_NOFS	0u

/* Byte-wise, so it is right whatever the host's byte order. */
static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | (b[1] << 8));
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static inline u64 get_unaligned_le64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_le32(b) | (u64)get_unaligned_le32(b + 4) << 32;
}

static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return SIZE_MAX;
	return r;
}

#define array_size(a, b)	size_mul(a, b)

static inline void *kvrealloc(const void *p, size_t size, gfp_t flags)
{
	(void)flags;
	return realloc((void *)p, size);
}

static inline void *kvmalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return malloc(size);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))

#endif /* NTFS_UNITS_KSHIM_H */
