/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * runbench: time commands side by side. Each round runs every command once,
 * in a fresh random order, so the drift of a shared machine hits them all
 * alike; the time of a run is from fork to wait, with output to /dev/null.
 *
 *   runbench [-n RUNS] [-w WARMUP] [-s SEED] FILE
 *
 * FILE holds one command per line: a label, a tab, then the command's
 * words separated by spaces ("double quotes" keep spaces in a word).
 * Prints "round<TAB>label<TAB>nanoseconds" for every measured run; exits 1
 * if a command fails.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCMDS	 64
#define MAXWORDS 64

struct command {
	char *label;
	char *argv[MAXWORDS + 1];
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int split(char *line, struct command *c)
{
	char *tab = strchr(line, '\t'), *p, *w;
	int n = 0;

	if (!tab)
		return -1;
	*tab = '\0';
	c->label = line;
	for (p = tab + 1; *p && n < MAXWORDS;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (*p == '"') {
			w = ++p;
			while (*p && *p != '"')
				p++;
		} else {
			w = p;
			while (*p && *p != ' ')
				p++;
		}
		if (*p)
			*p++ = '\0';
		c->argv[n++] = w;
	}
	c->argv[n] = NULL;
	return n ? 0 : -1;
}

static long long run(const struct command *c)
{
	long long start = now_ns();
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execvp(c->argv[0], c->argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return now_ns() - start;
}

int main(int argc, char **argv)
{
	static struct command cmds[MAXCMDS];
	static char lines[MAXCMDS][4096];
	int runs = 200, warmup = 20, n = 0, opt, order[MAXCMDS];
	unsigned seed = (unsigned)time(NULL);
	FILE *f;

	while ((opt = getopt(argc, argv, "n:w:s:h")) != -1) {
		switch (opt) {
		case 'n':
			runs = atoi(optarg);
			break;
		case 'w':
			warmup = atoi(optarg);
			break;
		case 's':
			seed = (unsigned)strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: runbench [-n RUNS] [-w WARMUP] "
					"[-s SEED] FILE\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind + 1 != argc || !(f = fopen(argv[optind], "r"))) {
		fprintf(stderr, "runbench: cannot read the command file\n");
		return 2;
	}
	while (n < MAXCMDS && fgets(lines[n], sizeof(lines[n]), f)) {
		lines[n][strcspn(lines[n], "\n")] = '\0';
		if (lines[n][0] && split(lines[n], &cmds[n]) == 0)
			n++;
	}
	fclose(f);
	srand(seed);
	for (int round = -warmup; round < runs; round++) {
		for (int i = 0; i < n; i++)
			order[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = rand() % (i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (int k = 0; k < n; k++) {
			long long ns = run(&cmds[order[k]]);

			if (ns < 0) {
				fprintf(stderr, "runbench: '%s' failed\n",
					cmds[order[k]].label);
				return 1;
			}
			if (round >= 0)
				printf("%d\t%s\t%lld\n", round,
				       cmds[order[k]].label, ns);
		}
	}
	return 0;
}
