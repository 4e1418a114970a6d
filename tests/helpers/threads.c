/* SPDX-License-Identifier: BSD-3-Clause */
/* A process with a few threads that wait: "ready" on stdout once they all
 * exist, then sleep until killed. For --pid tests. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *wait_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(void)
{
	pthread_t t;

	for (int i = 0; i < 3; i++)
		if (pthread_create(&t, NULL, wait_forever, NULL) != 0)
			return 1;
	printf("ready\n");
	fflush(stdout);
	wait_forever(NULL);
	return 0;
}
