/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report.c: the --report file. It remembers, per followed process, what a
 * line needs (parent, CPUs given, start, program) and writes the line in
 * one write() when the process ends. It decides nothing about placement.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host.h"
#include "report.h"

struct report_proc {
	pid_t ppid;
	const char *cpus; /* owned by the slots; NULL: refused */
	double start;
	char *program;
	char *ran; /* its CPUs at its last exec, or NULL */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Open path as open(2) does, but for what the kernel's protected_symlinks
 * rule refuses (applied here even where the sysctl is off): a last
 * component that is a symbolic link in a world-writable sticky directory,
 * owned by neither the caller nor the directory's owner. Another user may
 * have planted it to have a file of ours truncated; stickiness keeps our
 * own link, once seen, from being swapped. Refused: -1, errno EACCES and
 * *link_owner its owner. */
static int open_unplanted(const char *path, int flags, long long *link_owner)
{
	const char *slash = strrchr(path, '/'),
		   *base = slash ? slash + 1 : path;
	size_t len = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
	char dir[PATH_MAX];
	struct stat ds, ls;
	int dfd, fd, e;

	/* A directory's name, or one too long: open says what it says. */
	if (!*base || len >= sizeof(dir))
		return open(path, flags, 0666);
	memcpy(dir, slash ? path : ".", len);
	dir[len] = '\0';
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return open(path, flags, 0666); /* its own errno */
	if (fstat(dfd, &ds) < 0 || !(ds.st_mode & S_ISVTX) ||
	    !(ds.st_mode & S_IWOTH)) {
		fd = openat(dfd, base, flags, 0666);
		goto done;
	}
	/* A link there is ELOOP (EACCES on some kernels, O_CREAT's). */
	fd = openat(dfd, base, flags | O_NOFOLLOW, 0666);
	if (fd < 0 && (errno == ELOOP || errno == EACCES) &&
	    fstatat(dfd, base, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(ls.st_mode)) {
		if (ls.st_uid != geteuid() && ls.st_uid != ds.st_uid) {
			*link_owner = ls.st_uid;
			errno = EACCES;
		} else {
			fd = openat(dfd, base, flags, 0666);
		}
	}
done:
	e = errno;
	close(dfd);
	errno = e;
	return fd;
}

int report_open(const char *path, long long *link_owner)
{
	/* Non-blocking, so that a FIFO without a reader fails (ENXIO)
	 * instead of waiting for one; the lines are then written blocking. */
	int fd;

	*link_owner = -1;
	fd = open_unplanted(
	    path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK,
	    link_owner);
	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	/* Not on 0-2 (when pinrun was started with one closed): the helper
	 * points those at /dev/null. */
	if ((fd = host_fd_above_stdio(fd)) < 0)
		return -errno;
	return fd;
}

void report_init(struct report *r, int fd)
{
	r->fd = fd;
	r->err = 0;
	tidmap_init(&r->procs, sizeof(struct report_proc));
	memset(&r->line, 0, sizeof(r->line));
}

void report_free(struct report *r)
{
	json_free(&r->line);
	pid_t pid;

	for (size_t i = 0;
	     (i = tidmap_next(&r->procs, i, &pid)) != (size_t)-1;) {
		struct report_proc *p = tidmap_find(&r->procs, pid);

		free(p->program);
		free(p->ran);
	}
	tidmap_free(&r->procs);
}

void report_start(struct report *r, pid_t pid, pid_t ppid, const char *cpus)
{
	struct report_proc *p;

	if (r->fd < 0 || !(p = tidmap_insert(&r->procs, pid)))
		return;
	free(p->program);
	free(p->ran);
	p->ppid = ppid;
	p->cpus = cpus;
	p->start = now();
	p->program = NULL;
	p->ran = NULL;
}

void report_unplaced(struct report *r, pid_t pid)
{
	struct report_proc *p = tidmap_find(&r->procs, pid);

	if (p)
		p->cpus = NULL;
}

static void fail(struct report *r, int err);

void report_exec(struct report *r, pid_t pid, const char *program,
		 const struct cpuset *ran)
{
	struct report_proc *p = tidmap_find(&r->procs, pid);

	if (!p)
		return;
	free(p->program);
	free(p->ran);
	p->ran = NULL;
	if (!(p->program = strdup(program)) ||
	    (ran && !(p->ran = cpulist_str(ran))))
		fail(r, ENOMEM); /* the line would lack its program */
}

void report_moved(struct report *r, pid_t pid, const char *cpus)
{
	struct report_proc *p = tidmap_find(&r->procs, pid);

	if (p && cpus)
		p->cpus = cpus;
}

static void fail(struct report *r, int err)
{
	if (!r->err)
		r->err = err;
}

/* Write a line and its newline, whole or not at all: a short write (a
 * disk that fills up) is finished, or cut back where the line began when
 * the file can be (a regular file), so that no half line stays. A failure
 * is kept (the first errno) for the caller to tell; following goes on. */
static void write_line(struct report *r, const char *text, size_t len)
{
	struct iovec v[2] = { { (void *)text, len }, { "\n", 1 } };
	off_t start = lseek(r->fd, 0, SEEK_CUR);
	size_t total = len + 1, done = 0;

	while (done < total) {
		ssize_t n = writev(r->fd, v, 2);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fail(r, n < 0 ? errno : ENOSPC);
			if (done && start >= 0 && ftruncate(r->fd, start) == 0)
				lseek(r->fd, start, SEEK_SET);
			return;
		}
		done += (size_t)n;
		for (int i = 0; i < 2 && n > 0; i++) {
			size_t k =
			    (size_t)n < v[i].iov_len ? (size_t)n : v[i].iov_len;

			v[i].iov_base = (char *)v[i].iov_base + k;
			v[i].iov_len -= k;
			n -= (ssize_t)k;
		}
	}
}

/* Write pid's line (its end, how it ended, its CPU time) in one write,
 * and forget it. end < 0: let go while running. */
static void line(struct report *r, pid_t pid, double end, int status,
		 const struct rusage *ru)
{
	struct report_proc *p = tidmap_find(&r->procs, pid);
	struct json *j = &r->line;

	if (!p)
		return;
	json_reset(j);
	json_open(j, '{');
	json_version(j);
	json_key(j, "pid");
	json_int(j, pid);
	json_key(j, "ppid");
	json_int(j, p->ppid);
	json_key(j, "program");
	if (p->program)
		json_string(j, p->program);
	else
		json_null(j);
	json_key(j, "cpus");
	if (p->cpus)
		json_string(j, p->cpus);
	else
		json_null(j); /* the kernel refused its slot */
	json_key(j, "ran");
	if (p->ran)
		json_string(j, p->ran);
	else
		json_null(j); /* it never exec'd */
	json_key(j, "start");
	json_number(j, p->start, 6);
	json_key(j, "end");
	if (end < 0)
		json_null(j);
	else
		json_number(j, end, 6);
	/* null for whichever of status and signal does not apply */
	json_key(j, "status");
	if (ru && WIFEXITED(status))
		json_int(j, WEXITSTATUS(status));
	else
		json_null(j);
	json_key(j, "signal");
	if (ru && WIFSIGNALED(status))
		json_int(j, WTERMSIG(status));
	else
		json_null(j);
	if (ru) {
		/* As wait4 counts it: the children it waited for included. */
		json_key(j, "user");
		json_number(j,
			    (double)ru->ru_utime.tv_sec +
				(double)ru->ru_utime.tv_usec / 1e6,
			    6);
		json_key(j, "sys");
		json_number(j,
			    (double)ru->ru_stime.tv_sec +
				(double)ru->ru_stime.tv_usec / 1e6,
			    6);
	} else {
		json_key(j, "detached");
		json_bool(j, true);
	}
	json_close(j, '}');
	if (j->out.failed)
		fail(r, ENOMEM);
	else
		write_line(r, j->out.data, j->out.len);
	free(p->program);
	free(p->ran);
	tidmap_remove(&r->procs, pid);
}

void report_end(struct report *r, pid_t pid, int status,
		const struct rusage *ru)
{
	if (r->fd >= 0)
		line(r, pid, now(), status, ru);
}

void report_detached(struct report *r, pid_t pid)
{
	if (r->fd >= 0)
		line(r, pid, -1, 0, NULL);
}
