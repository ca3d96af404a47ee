/* SPDX-License-Identifier: GPL-2.0 */
/* Host stub for <linux/err.h>: see kshim.h. */
#include "../../kshim.h"
