// SPDX-License-Identifier: GPL-2.0
/* Harness self-test: a test that dies after its plan promised 3 results. */
#include <signal.h>
#include <stdio.h>

int main(void)
{
	printf("1..3\nok 1 - first\n");
	fflush(stdout);
	raise(SIGSEGV);
	return 0;
}
