/* euid: prints its effective user id. The tests make a set-user-ID root
 * copy of it to see whether privileges survive --follow. */
#include <stdio.h>
#include <unistd.h>

#include "nolsan.h"

int main(void)
{
	printf("%u\n", (unsigned)geteuid());
	return 0;
}
