/* SPDX-License-Identifier: BSD-3-Clause */
/* Print the calling process's memory policy, as the tests compare it:
 * "default", "bind 0", "interleave 0,1", "local", "preferred 0",
 * "preferred_many 0,1". */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	static const char *const names[] = { "default", "preferred",
					     "bind",	"interleave",
					     "local",	"preferred_many" };
	unsigned long mask[1024 / (8 * sizeof(unsigned long))] = { 0 };
	int mode = -1, first = 1;

	if (syscall(SYS_get_mempolicy, &mode, mask, 1024UL, NULL, 0UL) < 0) {
		perror("get_mempolicy");
		return 1;
	}
	printf("%s", mode >= 0 && mode <= 5 ? names[mode] : "other");
	for (unsigned n = 0; n < 1024; n++)
		if (mask[n / (8 * sizeof(unsigned long))] >>
			(n % (8 * sizeof(unsigned long))) &
		    1) {
			printf("%s%u", first ? " " : ",", n);
			first = 0;
		}
	putchar('\n');
	return 0;
}
