/* SPDX-License-Identifier: BSD-3-Clause */
/* euid: prints its effective user id; with -g its effective group id,
 * with -c its effective capabilities (CapEff of /proc/self/status, in
 * hex). The tests make set-user-ID, set-group-ID and file-capability
 * copies of it to see whether privileges survive --follow. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nolsan.h"

int main(int argc, char **argv)
{
	char line[256];
	FILE *f;

	if (argc > 1 && !strcmp(argv[1], "-g")) {
		printf("%u\n", (unsigned)getegid());
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "-c")) {
		if (!(f = fopen("/proc/self/status", "r")))
			return 1;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "CapEff:", 7))
				fputs(line + 7 + strspn(line + 7, " \t"),
				      stdout);
		fclose(f);
		return 0;
	}
	printf("%u\n", (unsigned)geteuid());
	return 0;
}
