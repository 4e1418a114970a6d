/*
 * report.c: the --report file. It remembers, per followed process, what a
 * line needs (parent, CPUs given, start, program) and writes the line in
 * one write() when the process ends. It decides nothing about placement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report.h"

struct report_proc {
	pid_t ppid;
	const char *cpus; /* owned by the slots */
	double start;
	char *program;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void report_init(struct report *r, int fd)
{
	r->fd = fd;
	tidmap_init(&r->procs, sizeof(struct report_proc));
}

void report_free(struct report *r)
{
	pid_t pid;

	for (size_t i = 0;
	     (i = tidmap_next(&r->procs, i, &pid)) != (size_t)-1;) {
		struct report_proc *p = tidmap_find(&r->procs, pid);

		free(p->program);
	}
	tidmap_free(&r->procs);
}

void report_start(struct report *r, pid_t pid, pid_t ppid, const char *cpus)
{
	struct report_proc *p;

	if (r->fd < 0 || !(p = tidmap_insert(&r->procs, pid)))
		return;
	free(p->program);
	p->ppid = ppid;
	p->cpus = cpus;
	p->start = now();
	p->program = NULL;
}

void report_exec(struct report *r, pid_t pid, const char *program)
{
	struct report_proc *p = tidmap_find(&r->procs, pid);

	if (!p)
		return;
	free(p->program);
	p->program = strdup(program);
}

void report_move(struct report *r, pid_t from, pid_t to)
{
	struct report_proc *f = tidmap_find(&r->procs, from), moved, *t;

	if (!f || from == to)
		return;
	moved = *f;
	tidmap_remove(&r->procs, from);
	if ((t = tidmap_find(&r->procs, to)))
		free(t->program);
	if ((t = tidmap_insert(&r->procs, to)))
		*t = moved;
	else
		free(moved.program);
}

/* A JSON string of a path (quotes, backslashes and controls escaped). */
static size_t json_string(char *buf, size_t size, const char *s)
{
	size_t n = 0;

#define PUT(c)                                                                 \
	do {                                                                   \
		if (n + 1 < size)                                              \
			buf[n] = (c);                                          \
		n++;                                                           \
	} while (0)
	PUT('"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			PUT('\\');
			PUT((char)c);
		} else if (c < 0x20) {
			char hex[8];

			snprintf(hex, sizeof(hex), "\\u%04x", c);
			for (char *h = hex; *h; h++)
				PUT(*h);
		} else {
			PUT((char)c);
		}
	}
	PUT('"');
#undef PUT
	if (size)
		buf[n < size ? n : size - 1] = '\0';
	return n;
}

static void line(struct report *r, pid_t pid, const char *end, const char *tail)
{
	struct report_proc *p = tidmap_find(&r->procs, pid);
	char program[8192], out[16384];
	int n;

	if (!p)
		return;
	if (p->program)
		json_string(program, sizeof(program), p->program);
	else
		snprintf(program, sizeof(program), "null");
	n = snprintf(out, sizeof(out),
		     "{\"pid\":%d,\"ppid\":%d,\"program\":%s,\"cpus\":\"%s\","
		     "\"start\":%.6f,\"end\":%s,%s}\n",
		     (int)pid, (int)p->ppid, program, p->cpus ? p->cpus : "",
		     p->start, end, tail);
	if (n > 0 && (size_t)n < sizeof(out) && write(r->fd, out, (size_t)n)) {
		/* a short or failed write loses one line, nothing else */
	}
	free(p->program);
	tidmap_remove(&r->procs, pid);
}

void report_end(struct report *r, pid_t pid, int status,
		const struct rusage *ru)
{
	char end[32], how[64], tail[256];

	if (r->fd < 0)
		return;
	snprintf(end, sizeof(end), "%.6f", now());
	/* null for whichever of status and signal does not apply */
	if (WIFEXITED(status))
		snprintf(how, sizeof(how), "\"status\":%d,\"signal\":null",
			 WEXITSTATUS(status));
	else
		snprintf(how, sizeof(how), "\"status\":null,\"signal\":%d",
			 WTERMSIG(status));
	/* As wait4 counts it: the children it waited for included. */
	snprintf(
	    tail, sizeof(tail), "%s,\"user\":%.6f,\"sys\":%.6f", how,
	    (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6,
	    (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6);
	line(r, pid, end, tail);
}

void report_detached(struct report *r, pid_t pid)
{
	if (r->fd >= 0)
		line(r, pid, "null",
		     "\"status\":null,\"signal\":null,\"detached\":true");
}
