/* SPDX-License-Identifier: GPL-2.0 */
/* Host stub for <linux/build_bug.h>: see kshim.h. */
#include "../../kshim.h"
