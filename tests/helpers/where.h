/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the --follow test helpers: where the caller runs, read as its
 * very first action, and one line that says so, "LABEL cpu=C cpus=LIST",
 * written with write(2) and no stdio, so that it is safe in a child of a
 * threaded process and in a CLONE_VM child, and atomic on a pipe. */
#ifndef WHERE_H
#define WHERE_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct where {
	int cpu;
	cpu_set_t set;
};

/* The calling thread's affinity as the kernel keeps it: its
 * Cpus_allowed_list (under --follow --threads, sched_getaffinity(2) tells
 * a placed task the whole placement, as a plain run would). Without
 * /proc, what sched_getaffinity says. */
static inline void where_affinity(cpu_set_t *set)
{
	static const char key[] = "Cpus_allowed_list:";
	char buf[8192], *p;
	ssize_t n = 0, got;
	int fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);

	CPU_ZERO(set);
	while (fd >= 0 && n < (ssize_t)sizeof(buf) - 1 &&
	       ((got = read(fd, buf + n, sizeof(buf) - 1 - (size_t)n)) > 0 ||
		(got < 0 && errno == EINTR)))
		n += got > 0 ? got : 0;
	if (fd >= 0)
		close(fd);
	buf[n] = '\0';
	if (fd < 0 || !(p = strstr(buf, key))) {
		if (sched_getaffinity(0, sizeof(*set), set) != 0)
			CPU_ZERO(set);
		return;
	}
	p += sizeof(key) - 1;
	while (*p == '\t' || *p == ' ')
		p++;
	while (*p >= '0' && *p <= '9') {
		long first = 0, last;

		while (*p >= '0' && *p <= '9')
			first = first * 10 + (*p++ - '0');
		last = first;
		if (*p == '-') {
			p++;
			last = 0;
			while (*p >= '0' && *p <= '9')
				last = last * 10 + (*p++ - '0');
		}
		for (long c = first; c <= last && c < CPU_SETSIZE; c++)
			CPU_SET((int)c, set);
		if (*p == ',')
			p++;
	}
}

/* The calling thread's CPU and affinity. */
static inline void where_now(struct where *w)
{
	/* The system call, not glibc's sched_getcpu: that reads the rseq
	 * area in TLS, which a CLONE_VM child shares with its parent (and
	 * would say the parent's CPU). */
	unsigned cpu = 0;

	w->cpu = syscall(SYS_getcpu, &cpu, NULL, NULL) == 0 ? (int)cpu : -1;
	where_affinity(&w->set);
}

struct line {
	char buf[4096];
	size_t len;
};

static inline void line_str(struct line *l, const char *s)
{
	size_t n = strlen(s);

	if (n > sizeof(l->buf) - 1 - l->len)
		n = sizeof(l->buf) - 1 - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static inline void line_num(struct line *l, long v)
{
	char tmp[24];
	int i = (int)sizeof(tmp);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	tmp[--i] = '\0';
	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		tmp[--i] = '-';
	line_str(l, tmp + i);
}

/* A CPU set as the kernel lists it: "0-3,8". Empty: "none". */
static inline void line_cpus(struct line *l, const cpu_set_t *set)
{
	int first = 1;

	for (int c = 0; c < CPU_SETSIZE; c++) {
		int end = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		if (!first)
			line_str(l, ",");
		line_num(l, c);
		if (end > c) {
			line_str(l, "-");
			line_num(l, end);
		}
		first = 0;
		c = end;
	}
	if (first)
		line_str(l, "none");
}

/* Write all of a line to fd 1, in one write when it fits (lines under
 * PIPE_BUF do). */
static inline int line_write(struct line *l)
{
	size_t done = 0;

	line_str(l, "\n");
	while (done < l->len) {
		ssize_t n = write(1, l->buf + done, l->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* "LABEL cpu=C cpus=LIST", or "LABEL INDEX cpu=C cpus=LIST" when index is
 * not negative. */
static inline int where_say(const char *label, long index,
			    const struct where *w)
{
	struct line l = { .len = 0 };

	line_str(&l, label);
	if (index >= 0) {
		line_str(&l, " ");
		line_num(&l, index);
	}
	line_str(&l, " cpu=");
	line_num(&l, w->cpu);
	line_str(&l, " cpus=");
	line_cpus(&l, &w->set);
	return line_write(&l);
}

#endif
