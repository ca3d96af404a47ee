// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test module: oopses on load with a NULL-pointer write, so
 * that "make selftest-harness" can prove the console scan catches oopses.
 * Never loaded by "make check".
 */
#include <linux/module.h>

static int *hx_null_ptr;	/* stays NULL */

static int __init hx_oops_init(void)
{
	pr_info("hx_oops: writing through a NULL pointer on purpose\n");
	WRITE_ONCE(*hx_null_ptr, 1);
	return 0;
}

module_init(hx_oops_init);
MODULE_DESCRIPTION("Harness self-test: deliberate oops");
MODULE_LICENSE("GPL");
