/* SPDX-License-Identifier: BSD-3-Clause */
/* leaderexit: the leader leaves first, another thread ends the process.
 *
 * The leader makes a thread and calls pthread_exit (it stays a zombie
 * while the thread runs). The thread waits 200 ms, prints "thread done"
 * and calls exit(5): the process's status is 5. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nolsan.h"

static void *run(void *arg)
{
	struct timespec t = { .tv_sec = 0, .tv_nsec = 200000000L };

	(void)arg;
	nanosleep(&t, NULL);
	printf("thread done\n");
	fflush(stdout);
	exit(5);
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, run, NULL) != 0)
		return 1;
	pthread_exit(NULL);
}
