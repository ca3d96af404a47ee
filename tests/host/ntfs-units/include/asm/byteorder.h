/* SPDX-License-Identifier: GPL-2.0 */
/* Host stub for <asm/byteorder.h>: see kshim.h. */
#include "../../kshim.h"
