/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cache.c: the topology cache's store: the key of a source, where its file
 * lives, and reading and writing that file safely. The bytes in the file
 * are topofile.c's; hwloc and the rules are not this file's business.
 * Nothing here is trusted that someone else could have put there: the
 * links of the base (a home reached through /home -> var/home) are
 * resolved, then every directory on the way to the resolved one is opened
 * without following links and must be the
 * user's (or root's) and not writable by others, a file must be the
 * user's, regular and private, and its key must be the current key
 * exactly; anything else is a miss.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "host.h"
#include "pinrun.h"
#include "topofile.h"

/* Entries written this long ago, or beyond this many (the oldest), go
 * when one is stored; a hit does not touch its entry (a read-only
 * launch stays read-only), so one in use is at worst written again. */
#define PRUNE_AGE_S (30 * 24 * 3600)
#define PRUNE_KEEP  64
/* A temporary file this old was left by a launch that died. */
#define STALE_TMP_S 3600

extern char **environ;

/* hwloc reads variables of its own that change the topology (and
 * HWLOC_XMLFILE & co. change where it comes from): with any of them set,
 * the cache stays out of the way. */
static bool hwloc_environment(void)
{
	for (char **e = environ; *e; e++)
		if (!strncmp(*e, "HWLOC_", 6))
			return true;
	return false;
}

/* The programs that flatten: another pinrun or hwloc build is another
 * key, and another file, so that two builds sharing a home do not evict
 * each other. */
static int build_id(char *buf, size_t size)
{
	char lib[PATH_MAX + 64];
	struct stat exe;
	int r;

	if (stat("/proc/self/exe", &exe) < 0 ||
	    topo_library_id(lib, sizeof(lib)) < 0)
		return -1;
	r = snprintf(
	    buf, size, "pinrun %s exe %llu.%llu.%lld; %s", PINRUN_VERSION,
	    (unsigned long long)exe.st_dev, (unsigned long long)exe.st_ino,
	    (long long)exe.st_mtim.tv_nsec + exe.st_mtim.tv_sec * 1000000000LL,
	    lib);
	return r < 0 || (size_t)r >= size ? -1 : 0;
}

/* The key, and the file name: a hash of what names the source and of the
 * build. */
static int make_key(struct cache *c, enum topo_source_kind kind,
		    const char *arg)
{
	char build[PATH_MAX + 256], what[4096 + 256], real[PATH_MAX];
	const char *name = "";
	struct stat st;
	int r;

	if (hwloc_environment() || build_id(build, sizeof(build)) < 0)
		return -1;
	switch (kind) {
	case TOPO_SRC_LIVE:
		if (host_topology_key(what, sizeof(what)) < 0)
			return -1;
		break;
	case TOPO_SRC_XML:
		if (!realpath(arg, real) || stat(real, &st) < 0)
			return -1;
		snprintf(
		    what, sizeof(what),
		    "xml %s; dev %llu; ino %llu; size %lld; mtime %lld.%09ld",
		    real, (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
		name = real;
		break;
	case TOPO_SRC_SYNTHETIC:
		snprintf(what, sizeof(what), "synthetic %s", arg);
		name = arg;
		break;
	default:
		return -1;
	}
	r = snprintf(c->key, sizeof(c->key), "%s; %s", build, what);
	if (r < 0 || (size_t)r >= sizeof(c->key))
		return -1;
	snprintf(c->name, sizeof(c->name), "%s%016llx.topo",
		 kind == TOPO_SRC_LIVE ? "machine-" : "",
		 (unsigned long long)(topofile_checksum(name, strlen(name)) ^
				      topofile_checksum(build, strlen(build))));
	return 0;
}

/* --- directories -----------------------------------------------------------
 */

/* A directory on the way may be root's or the user's; one that others
 * can write must be sticky (/tmp), so that only its owner can replace
 * what is in it. The cache directory itself is the user's alone. */
static bool trusted(const struct stat *st, bool last)
{
	uid_t me = geteuid();

	if (!S_ISDIR(st->st_mode))
		return false;
	if (last)
		return st->st_uid == me && !(st->st_mode & 022);
	return (st->st_uid == me || st->st_uid == 0) &&
	       (!(st->st_mode & 022) || (st->st_mode & S_ISVTX));
}

/* Open the directory path (absolute) component by component, following no
 * link. With create, the last ncreate components are made when missing,
 * each only inside a directory the user owns (never in someone else's
 * home). Returns a descriptor, -ENOENT when something is missing, -EPERM
 * when something is not to be trusted, or another negative errno. */
static int open_dir(const char *path, int ncreate, bool create)
{
	char copy[PATH_MAX], *parts[128], *save = NULL;
	int n = 0, fd;
	struct stat st;

	if (path[0] != '/' ||
	    snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return -EPERM;
	for (char *p = strtok_r(copy, "/", &save); p;
	     p = strtok_r(NULL, "/", &save)) {
		if (!strcmp(p, "."))
			continue;
		if (n == 128) /* deeper than any home: not to be trusted */
			return -EPERM;
		parts[n++] = p;
	}
	if ((fd = host_fd_above_stdio(
		 open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC))) < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -EPERM;
	}
	for (int i = 0; i < n; i++) {
		bool last = i == n - 1;
		int next; /* st is still fd's, the parent's */

		if (!strcmp(parts[i], "..")) {
			close(fd);
			return -EPERM;
		}
		next = host_fd_above_stdio(
		    openat(fd, parts[i],
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
		if (next < 0 && errno == ENOENT && create && i >= n - ncreate &&
		    st.st_uid == geteuid()) {
			if (mkdirat(fd, parts[i], 0700) < 0 &&
			    errno != EEXIST) {
				int e = -errno;

				close(fd);
				return e;
			}
			next = host_fd_above_stdio(openat(
			    fd, parts[i],
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
		}
		if (next < 0) {
			int e = errno == ELOOP || errno == ENOTDIR ? -EPERM
								   : -errno;

			close(fd);
			return e;
		}
		close(fd);
		fd = next;
		if (fstat(fd, &st) < 0 || !trusted(&st, last)) {
			close(fd);
			return -EPERM;
		}
	}
	return fd;
}

/* The links in the cache's base (a home reached through /home -> var/home,
 * a ~/.cache that points to scratch space) resolved, so that open_dir
 * judges the directories they lead to by its rules rather than refusing
 * the links. The longest part that exists is resolved and the rest kept
 * as written (cache_store makes it). The pinrun directory itself is not
 * part of the base: pinrun makes it, and a link there is someone else's.
 * Returns 0, or -1 leaving path as it was (open_dir then refuses). */
static int resolve_base(char *path, size_t size)
{
	char head[PATH_MAX], real[PATH_MAX], *cut;
	size_t len = strlen(path), kept = len, n;

	if (len >= sizeof(head) || path[0] != '/')
		return -1;
	memcpy(head, path, len + 1);
	while (!realpath(head, real)) {
		if ((errno != ENOENT && errno != ENOTDIR) ||
		    !(cut = strrchr(head, '/')))
			return -1;
		kept = (size_t)(cut - head);
		if (!kept) {
			snprintf(real, sizeof(real), "/");
			break;
		}
		*cut = '\0';
	}
	n = strlen(real);
	if (n == 1) /* "/" and "/rest": one slash */
		n = 0;
	if (n + len - kept >= size || n + len - kept >= sizeof(real))
		return -1;
	memcpy(real + n, path + kept, len - kept + 1);
	memcpy(path, real, n + len - kept + 1);
	return 0;
}

enum cache_unusable cache_open(struct cache *c, enum topo_source_kind kind,
			       const char *arg)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char dir[PATH_MAX];
	int r;

	c->dir = -1;
	if (make_key(c, kind, arg) < 0)
		return CACHE_NO_KEY;
	if (xdg && xdg[0] == '/')
		r = snprintf(c->base, sizeof(c->base), "%s", xdg);
	else if (home && home[0] == '/')
		r = snprintf(c->base, sizeof(c->base), "%s/.cache", home);
	else
		return CACHE_NO_HOME;
	if (r < 0 || (size_t)r >= sizeof(c->base) ||
	    resolve_base(c->base, sizeof(c->base)) < 0 ||
	    snprintf(dir, sizeof(dir), "%s/pinrun", c->base) >=
		(int)sizeof(dir))
		return CACHE_NOT_OURS;
	c->dir = open_dir(dir, 2, false);
	/* Missing is fine: a store makes it. */
	if (c->dir == -ENOENT)
		c->dir = -1;
	else if (c->dir < 0)
		return CACHE_NOT_OURS;
	return CACHE_USABLE;
}

void cache_close(struct cache *c)
{
	if (c->dir >= 0)
		close(c->dir);
	c->dir = -1;
}

/* --- entries ---------------------------------------------------------------
 */

int cache_load(const struct cache *c, struct topology **out)
{
	struct stat st;
	char *buf = NULL;
	int fd, r = -1;

	*out = NULL;
	if (c->dir < 0)
		return -1;
	/* Non-blocking: a FIFO put there must not hang the launch. */
	fd = host_fd_above_stdio(openat(
	    c->dir, c->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_uid == geteuid() && !(st.st_mode & 022) &&
	    st.st_size <= 64 << 20 && (buf = malloc((size_t)st.st_size + 1)) &&
	    read(fd, buf, (size_t)st.st_size) == st.st_size &&
	    topofile_decode(buf, (size_t)st.st_size, c->key, out) ==
		TOPOFILE_OK) {
		r = 0;
		/* Made with a library that is no longer there: a miss. */
		if (!topo_library_same((*out)->hwloc_library)) {
			tree_free(*out);
			*out = NULL;
			r = -1;
		}
	}
	free(buf);
	close(fd);
	return r;
}

struct entry {
	char name[64];
	struct timespec mtime;
};

static int newer_first(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec > y->mtime.tv_sec ? -1 : 1;
	return x->mtime.tv_nsec > y->mtime.tv_nsec   ? -1
	       : x->mtime.tv_nsec < y->mtime.tv_nsec ? 1
						     : 0;
}

/* Remove what is old: temporary files a dead launch left, entries written
 * long ago, and the oldest beyond PRUNE_KEEP, never stored (the entry just
 * written: entries written within the same second as it were once ranked
 * by name, and it could go). Failures do not matter. */
static void prune(int dir, const char *stored)
{
	struct entry *all = NULL;
	size_t n = 0, cap = 0;
	time_t now = time(NULL);
	struct dirent *e;
	DIR *d;
	int fd = host_fd_above_stdio(dup(dir));

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		bool tmp = strstr(e->d_name, ".topo.") != NULL;
		struct stat st;

		if ((!tmp &&
		     (len < 5 || strcmp(e->d_name + len - 5, ".topo"))) ||
		    len >= sizeof(all->name) ||
		    fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (now - st.st_mtime > (tmp ? STALE_TMP_S : PRUNE_AGE_S)) {
			unlinkat(dir, e->d_name, 0);
			continue;
		}
		if (tmp || !strcmp(e->d_name, stored))
			continue;
		if (n == cap) {
			struct entry *more =
			    realloc(all, (cap * 2 + 16) * sizeof(*all));

			if (!more)
				break;
			all = more;
			cap = cap * 2 + 16;
		}
		snprintf(all[n].name, sizeof(all[n].name), "%s", e->d_name);
		all[n++].mtime = st.st_mtim;
	}
	closedir(d);
	/* stored is one of the PRUNE_KEEP. */
	if (n > PRUNE_KEEP - 1) {
		qsort(all, n, sizeof(*all), newer_first);
		for (size_t i = PRUNE_KEEP - 1; i < n; i++)
			unlinkat(dir, all[i].name, 0);
	}
	free(all);
}

int cache_store(struct cache *c, const struct topology *t)
{
	char dir[PATH_MAX + 8], tmp[sizeof(c->name) + 32];
	void *buf;
	size_t len;
	int fd, r = 0;

	if (c->dir < 0) {
		snprintf(dir, sizeof(dir), "%s/pinrun", c->base);
		if ((c->dir = open_dir(dir, 2, true)) < 0) {
			r = c->dir;
			c->dir = -1;
			return r;
		}
	}
	if (topofile_encode(c->key, t, &buf, &len) != TOPOFILE_OK)
		return -ENOMEM;
	for (unsigned tries = 0;; tries++) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(tmp, sizeof(tmp), "%s.%ld.%ld", c->name,
			 (long)getpid(), ts.tv_nsec);
		fd = host_fd_above_stdio(
		    openat(c->dir, tmp,
			   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			   0600));
		if (fd >= 0 || errno != EEXIST || tries == 8)
			break;
	}
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	if (write(fd, buf, len) != (ssize_t)len)
		r = errno ? -errno : -EIO;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && renameat(c->dir, tmp, c->dir, c->name) < 0)
		r = -errno;
	if (r)
		unlinkat(c->dir, tmp, 0);
	free(buf);
	if (!r)
		prune(c->dir, c->name);
	return r;
}

const char *cache_strerror(enum cache_unusable why)
{
	switch (why) {
	case CACHE_USABLE:
		return "used";
	case CACHE_NO_KEY:
		return "not used for this source";
	case CACHE_NO_HOME:
		return "not used: no HOME or XDG_CACHE_HOME";
	case CACHE_NOT_OURS:
		return "not used: no cache directory of this user's own";
	}
	return "not used";
}

const char *cache_words(enum cache_outcome what)
{
	switch (what) {
	case CACHE_OFF:
		return "disabled";
	case CACHE_HIT:
		return "hit";
	case CACHE_STORED:
		return "miss, stored";
	case CACHE_NOT_STORED:
		return "miss, not stored";
	}
	return "?";
}
