/* SPDX-License-Identifier: BSD-3-Clause */
/* forkloop: many short children, one after another.
 *
 *   forkloop N
 *
 * Forks N children in turn; each reads its affinity as its first action
 * and _exits at once with its CPU + 1 when the affinity is one CPU (255
 * for a CPU above 253), or 0 when it may run on several. Prints
 * "forks=N multi=M cpus=LIST": M children had more than one CPU, LIST is
 * the union of the single CPUs the others had. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "where.h"
#include "nolsan.h"

int main(int argc, char **argv)
{
	struct where w;
	cpu_set_t seen;
	struct line l = { .len = 0 };
	long n, multi = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: forkloop N\n");
		return 2;
	}
	n = atol(argv[1]);
	CPU_ZERO(&seen);
	for (long i = 0; i < n; i++) {
		int st;
		pid_t pid = fork();

		if (pid == 0) {
			where_affinity(&w.set);
			if (CPU_COUNT(&w.set) != 1)
				_exit(0);
			for (int c = 0; c < 254; c++)
				if (CPU_ISSET(c, &w.set))
					_exit(c + 1);
			_exit(255);
		}
		if (pid < 0) {
			perror("forkloop: fork");
			return 1;
		}
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR)
				return 1;
		if (!WIFEXITED(st))
			return 1;
		if (WEXITSTATUS(st) == 0)
			multi++;
		else if (WEXITSTATUS(st) < 255)
			CPU_SET(WEXITSTATUS(st) - 1, &seen);
	}
	line_str(&l, "forks=");
	line_num(&l, n);
	line_str(&l, " multi=");
	line_num(&l, multi);
	line_str(&l, " cpus=");
	line_cpus(&l, &seen);
	return line_write(&l) == 0 ? 0 : 1;
}
