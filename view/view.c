/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * view/view.c: libpinrun-view.so, the placement as the program's machine.
 * `pinrun --tell` (its view family) preloads it into the command and
 * every process the command starts, with PINRUN_VIEW the placement's CPU
 * list. Programs that count CPUs the old way then count the placement:
 *
 *   sysconf(_SC_NPROCESSORS_ONLN), get_nprocs()   the placement's count
 *   /sys/devices/system/cpu/online                the placement's list
 *   /proc/stat        the placement's cpuN lines, under a "cpu" line of
 *                     their sums; the other lines as they are
 *   /proc/cpuinfo     the placement's processors
 *
 * The files are matched by device and inode, not by name (a symlink, a
 * relative path, cpu0/../online all reach them), and only when opened
 * for reading; the answer is a memfd holding the view, made at that open
 * from the real file. _SC_NPROCESSORS_CONF and get_nprocs_conf() stay
 * the machine's: programs size arrays indexed by CPU number from them
 * (nproc --all says the machine too). Without PINRUN_VIEW, or with a list
 * that does not parse, everything is as plainly.
 *
 * A view, not a boundary: static binaries, set-user-ID programs (the
 * loader drops LD_PRELOAD for them), raw system calls and io_uring read
 * the real files. docs/follow.md has the trade-off and the costs.
 *
 * It runs inside other people's programs: it prints nothing, never exits,
 * and when anything fails it falls back to the real call, errno as that
 * call leaves it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "../cpulist.h"
#include "../num.h"

#define EXPORT __attribute__((visibility("default")))

enum { UNREAD, OFF, ON };

/* PINRUN_VIEW, read at the first call that needs it. */
static int state = UNREAD;
static struct cpuset view;
static unsigned nview;

static bool viewing(void)
{
	int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);

	if (s == UNREAD) {
		const char *list = getenv("PINRUN_VIEW");
		struct cpulist_error err;
		struct cpuset set;

		s = OFF;
		if (list && cpulist_parse_list(list, &set, &err) == 0) {
			view = set;
			nview = cpulist_count(&set);
			s = ON;
		}
		__atomic_store_n(&state, s, __ATOMIC_RELEASE);
	}
	return s == ON;
}

/* The real function of that name, further down the search order. */
#define REAL(name)                                                             \
	static __typeof__(name) *real_##name;                                  \
	if (!real_##name)                                                      \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name);

/* The files viewed. */
enum file { NOT_VIEWED = -1, F_ONLINE, F_STAT, F_CPUINFO, NFILES };

static const struct {
	const char *path, *base;
} files[] = {
	[F_ONLINE] = { "/sys/devices/system/cpu/online", "online" },
	[F_STAT] = { "/proc/stat", "stat" },
	[F_CPUINFO] = { "/proc/cpuinfo", "cpuinfo" },
};
_Static_assert(sizeof(files) / sizeof(files[0]) == NFILES,
	       "a path for every viewed file");

/* Which viewed file path names (relative to dirfd), if any. */
static enum file which(int dirfd, const char *path, int flags)
{
	static struct {
		int known; /* UNREAD, OFF (no such file) or ON */
		dev_t dev;
		ino_t ino;
	} id[NFILES];
	const char *base;
	struct stat st;
	int f;

	if (!path || (flags & O_ACCMODE) != O_RDONLY ||
	    (flags & (O_PATH | O_DIRECTORY | O_CREAT)) || !viewing())
		return NOT_VIEWED;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (f = 0; f < NFILES && strcmp(base, files[f].base); f++)
		;
	if (f == NFILES)
		return NOT_VIEWED;
	if (__atomic_load_n(&id[f].known, __ATOMIC_ACQUIRE) == UNREAD) {
		int known = OFF;

		if (stat(files[f].path, &st) == 0) {
			id[f].dev = st.st_dev;
			id[f].ino = st.st_ino;
			known = ON;
		}
		__atomic_store_n(&id[f].known, known, __ATOMIC_RELEASE);
	}
	if (id[f].known != ON || fstatat(dirfd, path, &st, 0) < 0 ||
	    st.st_dev != id[f].dev || st.st_ino != id[f].ino)
		return NOT_VIEWED;
	return (enum file)f;
}

/* A growing text. */
struct text {
	char *s;
	size_t len, size;
	bool failed;
};

static void put(struct text *t, const char *s, size_t len)
{
	if (t->failed)
		return;
	if (t->len + len + 1 > t->size) {
		size_t size = t->size ? t->size : 4096;
		char *n;

		while (size < t->len + len + 1)
			size *= 2;
		if (!(n = realloc(t->s, size))) {
			t->failed = true;
			return;
		}
		t->s = n;
		t->size = size;
	}
	memcpy(t->s + t->len, s, len);
	t->len += len;
	t->s[t->len] = '\0';
}

/* The whole of a real file. */
static bool slurp(const char *path, struct text *t)
{
	REAL(open)
	char buf[8192];
	ssize_t n;
	int fd;

	if (!real_open || (fd = real_open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		put(t, buf, (size_t)n);
	close(fd);
	return n == 0 && !t->failed;
}

/* The number after the name at s ("cpu12 ...", "processor\t: 12"), or -1. */
static long cpu_number(const char *s, size_t len)
{
	unsigned long n;
	size_t used;

	while (len && (*s == ' ' || *s == '\t' || *s == ':')) {
		s++;
		len--;
	}
	if (num_decimal(s, len, 0, CPULIST_MAX - 1, &n, &used) != NUM_OK)
		return -1;
	return (long)n;
}

#define STAT_COLUMNS 16

/* /proc/stat: the aggregate line made again from the placement's lines. */
static bool make_stat(const struct text *in, struct text *out)
{
	unsigned long long sum[STAT_COLUMNS] = { 0 };
	unsigned ncolumns = 0, kept = 0;
	struct text rest = { 0 };
	char word[32];

	for (const char *p = in->s; *p;) {
		size_t len = strcspn(p, "\n");
		size_t next = len + (p[len] == '\n');

		if (!strncmp(p, "cpu ", 4)) {
			/* Made again below. */
		} else if (!strncmp(p, "cpu", 3) && p[3] >= '0' &&
			   p[3] <= '9') {
			long cpu = cpu_number(p + 3, len - 3);
			const char *q = p + 3 + strspn(p + 3, "0123456789");

			if (cpu < 0 || !cpulist_has(&view, (unsigned)cpu)) {
				p += next;
				continue;
			}
			kept++;
			for (unsigned c = 0; c < STAT_COLUMNS; c++) {
				unsigned long long v;
				size_t used;

				q += strspn(q, " ");
				if (num_decimal_ull(q, (size_t)(p + len - q), 0,
						    ULLONG_MAX, &v,
						    &used) != NUM_OK)
					break;
				sum[c] += v;
				q += used;
				if (c + 1 > ncolumns)
					ncolumns = c + 1;
			}
			put(&rest, p, next);
		} else {
			put(&rest, p, next);
		}
		p += next;
	}
	if (!kept || rest.failed) {
		free(rest.s);
		return false;
	}
	put(out, "cpu ", 4);
	for (unsigned c = 0; c < ncolumns; c++) {
		int n = snprintf(word, sizeof(word), " %llu", sum[c]);

		put(out, word, (size_t)n);
	}
	put(out, "\n", 1);
	put(out, rest.s, rest.len);
	free(rest.s);
	return true;
}

/* /proc/cpuinfo: the blocks of the placement's processors (a block that
 * names no processor stays). */
static bool make_cpuinfo(const struct text *in, struct text *out)
{
	unsigned kept = 0;

	for (const char *p = in->s; *p;) {
		const char *end = strstr(p, "\n\n");
		size_t len = end ? (size_t)(end - p) + 2 : strlen(p);

		if (!strncmp(p, "processor", 9)) {
			long cpu = cpu_number(p + 9, len - 9);

			if (cpu < 0 || !cpulist_has(&view, (unsigned)cpu)) {
				p += len;
				continue;
			}
			kept++;
		}
		put(out, p, len);
		p += len;
	}
	return kept > 0;
}

/* The view of file f in a new memfd, or -1. */
static int make_view(enum file f, int flags)
{
	struct text in = { 0 }, out = { 0 };
	bool made = false;
	int fd = -1;

	if (f == F_ONLINE) {
		size_t len = cpulist_format(&view, NULL, 0);
		char *list = malloc(len + 2);

		if (list) {
			cpulist_format(&view, list, len + 1);
			list[len] = '\n';
			put(&out, list, len + 1);
			made = true;
			free(list);
		}
	} else if (slurp(files[f].path, &in)) {
		made = f == F_STAT ? make_stat(&in, &out)
				   : make_cpuinfo(&in, &out);
	}
	if (made && !out.failed &&
	    (fd = memfd_create("pinrun-view",
			       flags & O_CLOEXEC ? MFD_CLOEXEC : 0)) >= 0) {
		size_t done = 0;

		while (done < out.len) {
			ssize_t n = write(fd, out.s + done, out.len - done);

			if (n <= 0)
				break;
			done += (size_t)n;
		}
		if (done < out.len || lseek(fd, 0, SEEK_SET) < 0) {
			close(fd);
			fd = -1;
		}
	}
	free(in.s);
	free(out.s);
	return fd;
}

/* The view's descriptor for this open, or -1 to make the real call. */
static int view_open(int dirfd, const char *path, int flags)
{
	int saved = errno, fd = -1;
	enum file f = which(dirfd, path, flags);

	if (f != NOT_VIEWED)
		fd = make_view(f, flags);
	if (fd < 0)
		errno = saved;
	return fd;
}

static mode_t mode_of(int flags, va_list ap)
{
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		return (mode_t)va_arg(ap, int);
	return 0;
}

#define OPEN_LIKE(name)                                                        \
	EXPORT int name(const char *path, int flags, ...)                      \
	{                                                                      \
		REAL(name)                                                     \
		va_list ap;                                                    \
		mode_t mode;                                                   \
		int fd = view_open(AT_FDCWD, path, flags);                     \
                                                                               \
		if (fd >= 0)                                                   \
			return fd;                                             \
		va_start(ap, flags);                                           \
		mode = mode_of(flags, ap);                                     \
		va_end(ap);                                                    \
		return real_##name(path, flags, mode);                         \
	}

#define OPENAT_LIKE(name)                                                      \
	EXPORT int name(int dirfd, const char *path, int flags, ...)           \
	{                                                                      \
		REAL(name)                                                     \
		va_list ap;                                                    \
		mode_t mode;                                                   \
		int fd = view_open(dirfd, path, flags);                        \
                                                                               \
		if (fd >= 0)                                                   \
			return fd;                                             \
		va_start(ap, flags);                                           \
		mode = mode_of(flags, ap);                                     \
		va_end(ap);                                                    \
		return real_##name(dirfd, path, flags, mode);                  \
	}

/* _FORTIFY_SOURCE's checked forms, which take no mode. */
#define OPEN_2_LIKE(name)                                                      \
	EXPORT int name(const char *path, int flags)                           \
	{                                                                      \
		REAL(name)                                                     \
		int fd = view_open(AT_FDCWD, path, flags);                     \
                                                                               \
		return fd >= 0 ? fd : real_##name(path, flags);                \
	}

#define OPENAT_2_LIKE(name)                                                    \
	EXPORT int name(int dirfd, const char *path, int flags)                \
	{                                                                      \
		REAL(name)                                                     \
		int fd = view_open(dirfd, path, flags);                        \
                                                                               \
		return fd >= 0 ? fd : real_##name(dirfd, path, flags);         \
	}

#define FOPEN_LIKE(name)                                                       \
	EXPORT FILE *name(const char *path, const char *mode)                  \
	{                                                                      \
		REAL(name)                                                     \
		int fd = -1;                                                   \
		FILE *fp;                                                      \
                                                                               \
		if (mode && mode[0] == 'r' && !strchr(mode, '+'))              \
			fd = view_open(                                        \
			    AT_FDCWD, path,                                    \
			    O_RDONLY | (strchr(mode, 'e') ? O_CLOEXEC : 0));   \
		if (fd >= 0 && (fp = fdopen(fd, "r")))                         \
			return fp;                                             \
		if (fd >= 0)                                                   \
			close(fd);                                             \
		return real_##name(path, mode);                                \
	}

/* Declared here: the headers declare some of them as macros or under
 * _FORTIFY_SOURCE only. */
int open64(const char *path, int flags, ...);
int openat64(int dirfd, const char *path, int flags, ...);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
FILE *fopen64(const char *path, const char *mode);

OPEN_LIKE(open)
OPEN_LIKE(open64)
OPENAT_LIKE(openat)
OPENAT_LIKE(openat64)
OPEN_2_LIKE(__open_2)
OPEN_2_LIKE(__open64_2)
OPENAT_2_LIKE(__openat_2)
OPENAT_2_LIKE(__openat64_2)
FOPEN_LIKE(fopen)
FOPEN_LIKE(fopen64)

EXPORT long sysconf(int name)
{
	REAL(sysconf)

	if (name == _SC_NPROCESSORS_ONLN && viewing())
		return (long)nview;
	return real_sysconf(name);
}

EXPORT int get_nprocs(void)
{
	REAL(get_nprocs)

	if (viewing())
		return (int)nview;
	return real_get_nprocs();
}
