// SPDX-License-Identifier: GPL-2.0
/*
 * Weak stand-ins for passes still being written, so that the tool links
 * while they land; each real definition overrides its stub.
 * (Removed once every pass exists.)
 */
#include "fsck.h"

__attribute__((weak)) void check_mftmirr(struct vol *v) { }
__attribute__((weak)) void check_mft_bitmap(struct vol *v) { }
__attribute__((weak)) void check_clusters(struct vol *v) { }
__attribute__((weak)) int index_walk(struct vol *v, struct index_walk *w) { return 0; }
__attribute__((weak)) int name_collate(const struct vol *v, const __le16 *a, unsigned int la,
				       const __le16 *b, unsigned int lb) { return 0; }
__attribute__((weak)) void check_directories(struct vol *v) { }
__attribute__((weak)) void load_upcase(struct vol *v) { }
__attribute__((weak)) void check_volume(struct vol *v) { }
__attribute__((weak)) void check_secure(struct vol *v) { }
__attribute__((weak)) void check_reparse(struct vol *v) { }
