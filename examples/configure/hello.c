/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

int main(void)
{
	printf("hello\n");
	return 0;
}
