/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stub for <linux/types.h>: the C library also includes this name, so
 * pass on to the system header first, then add the kernel names.
 */
#include_next <linux/types.h>
#include "../../kshim.h"
