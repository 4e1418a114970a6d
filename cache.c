/*
 * cache.c: the topology cache. It keys, names, writes and reads saved
 * flattened topologies; the rules and hwloc are not its business. A file
 * is trusted only if the user owns it, nobody else can write it, its key
 * is the current key exactly, its checksum holds and every index in it is
 * in range; anything else is a miss and the caller loads afresh.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "host.h"
#include "pinrun.h"

/* Bump when the layout below changes. */
#define FORMAT 1
static const char magic[8] = { 'p', 'i', 'n', 'r', 'u', 'n', 'T', '\n' };

extern char **environ;

/* hwloc reads variables of its own that change the topology (and
 * HWLOC_XMLFILE & co. change where it comes from): with any of them set,
 * the cache stays out of the way. */
static int hwloc_environment(void)
{
	for (char **e = environ; *e; e++)
		if (!strncmp(*e, "HWLOC_", 6))
			return 1;
	return 0;
}

int cache_key(enum topo_source_kind kind, const char *arg, char *key,
	      size_t size)
{
	char what[4096 + 256], real[PATH_MAX], lib[PATH_MAX + 64];
	struct stat st, exe;
	int r;

	if (hwloc_environment())
		return -ENOTSUP;
	/* The programs that flatten: another pinrun or hwloc build is
	 * another key, even under the same version numbers. */
	if (stat("/proc/self/exe", &exe) < 0 ||
	    (r = topo_library_id(lib, sizeof(lib))) < 0)
		return -ENOTSUP;
	switch (kind) {
	case TOPO_SRC_LIVE:
		if ((r = host_topology_key(what, sizeof(what))) < 0)
			return r;
		break;
	case TOPO_SRC_XML:
		if (!realpath(arg, real) || stat(real, &st) < 0)
			return -errno;
		snprintf(
		    what, sizeof(what),
		    "xml %s; dev %llu; ino %llu; size %lld; mtime %lld.%09ld",
		    real, (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
		break;
	case TOPO_SRC_SYNTHETIC:
		snprintf(what, sizeof(what), "synthetic %s", arg);
		break;
	default:
		return -ENOTSUP;
	}
	r = snprintf(key, size, "pinrun %s format %d exe %llu.%lld; %s; %s",
		     PINRUN_VERSION, FORMAT, (unsigned long long)exe.st_ino,
		     (long long)exe.st_mtim.tv_nsec +
			 exe.st_mtim.tv_sec * 1000000000LL,
		     lib, what);
	return r < 0 || (size_t)r >= size ? -ENOSPC : 0;
}

static uint64_t fnv1a(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}
#define FNV_START 14695981039346656037ULL

uint64_t cache_checksum(const void *buf, size_t len)
{
	return fnv1a(buf, len, FNV_START);
}

/* $XDG_CACHE_HOME/pinrun, else $HOME/.cache/pinrun. */
static int cache_dir(char *dir, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int r;

	if (xdg && xdg[0] == '/')
		r = snprintf(dir, size, "%s/pinrun", xdg);
	else if (home && home[0] == '/')
		r = snprintf(dir, size, "%s/.cache/pinrun", home);
	else
		return -ENOENT;
	return r < 0 || (size_t)r >= size ? -ENAMETOOLONG : 0;
}

/* A directory of ours that only we can write; with make, created (with
 * its parent, ~/.cache) when missing. */
static int own_dir(char *dir, int make)
{
	struct stat st;

	if (make) {
		char *slash = strrchr(dir, '/');

		*slash = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			*slash = '/';
			return -errno;
		}
		*slash = '/';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -errno;
	}
	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		return -EPERM;
	return 0;
}

int cache_path(enum topo_source_kind kind, const char *arg, char *path,
	       size_t size)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *name = arg;
	int r;

	/* A missing directory is made when there is something to store. */
	if ((r = cache_dir(dir, sizeof(dir))) < 0 ||
	    ((r = own_dir(dir, 0)) < 0 && r != -ENOENT))
		return r;
	/* One file per source, so a changed source replaces its file. */
	if (kind == TOPO_SRC_XML && realpath(arg, real))
		name = real;
	if (kind == TOPO_SRC_LIVE)
		r = snprintf(path, size, "%s/machine.topo", dir);
	else
		r = snprintf(
		    path, size, "%s/%016llx.topo", dir,
		    (unsigned long long)fnv1a(name, strlen(name), FNV_START));
	return r < 0 || (size_t)r >= size ? -ENAMETOOLONG : 0;
}

/* --- the file: little-endian host order, fixed-width fields ----------- */

struct writer {
	unsigned char *buf;
	size_t len, cap;
	int failed;
};

static void put(struct writer *w, const void *data, size_t len)
{
	if (w->failed)
		return;
	if (w->len + len > w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 4096;
		unsigned char *n;

		while (cap < w->len + len)
			cap *= 2;
		if (!(n = realloc(w->buf, cap))) {
			w->failed = 1;
			return;
		}
		w->buf = n;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, data, len);
	w->len += len;
}

static void put32(struct writer *w, uint32_t v)
{
	put(w, &v, sizeof(v));
}

static void put_string(struct writer *w, const char *s)
{
	put32(w, (uint32_t)strlen(s));
	put(w, s, strlen(s));
}

int cache_encode(const char *key, const struct topology *t, void **buf,
		 size_t *len)
{
	struct writer w = { 0 };
	uint64_t sum;

	put(&w, magic, sizeof(magic));
	put32(&w, FORMAT);
	put_string(&w, key);
	put32(&w, t->nobjs);
	for (unsigned i = 0; i < t->nobjs; i++) {
		const struct topo_obj *o = &t->objs[i];

		put32(&w, o->type);
		put32(&w, o->depth);
		put32(&w, o->os);
		put32(&w, (uint32_t)o->parent);
		put32(&w, (uint32_t)o->kind);
	}
	put32(&w, t->nnuma);
	for (unsigned i = 0; i < t->nnuma; i++) {
		put32(&w, t->numa[i].os);
		put32(&w, (uint32_t)t->numa[i].attach);
	}
	put(&w, &t->complete, sizeof(t->complete));
	put32(&w, t->this_system);
	put_string(&w, t->source);
	put_string(&w, t->hwloc_version);
	sum = cache_checksum(w.buf, w.len);
	put(&w, &sum, sizeof(sum));
	if (w.failed) {
		free(w.buf);
		return -ENOMEM;
	}
	*buf = w.buf;
	*len = w.len;
	return 0;
}

int cache_store(const char *path, const char *key, const struct topology *t)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	void *buf;
	size_t len;
	int fd, r;

	if ((r = cache_encode(key, t, &buf, &len)) < 0)
		return r;
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	if ((r = cache_dir(dir, sizeof(dir))) < 0 ||
	    (r = own_dir(dir, 1)) < 0) {
		free(buf);
		return r;
	}
	if ((fd = mkstemp(tmp)) < 0) {
		free(buf);
		return -errno;
	}
	if (write(fd, buf, len) != (ssize_t)len)
		r = errno ? -errno : -EIO;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r)
		unlink(tmp);
	free(buf);
	return r;
}

struct reader {
	const unsigned char *p, *end;
	int bad;
};

static uint32_t get32(struct reader *rd)
{
	uint32_t v = 0;

	if (rd->end - rd->p < 4) {
		rd->bad = 1;
		return 0;
	}
	memcpy(&v, rd->p, 4);
	rd->p += 4;
	return v;
}

static const char *get_bytes(struct reader *rd, size_t len)
{
	const char *s = (const char *)rd->p;

	if ((size_t)(rd->end - rd->p) < len) {
		rd->bad = 1;
		return NULL;
	}
	rd->p += len;
	return s;
}

static void get_string(struct reader *rd, char *buf, size_t size)
{
	uint32_t len = get32(rd);
	const char *s = len < size ? get_bytes(rd, len) : NULL;

	if (!s) {
		rd->bad = 1;
		buf[0] = '\0';
		return;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
}

/* Rebuild the topology through the builder, checking every index. */
static int decode(struct reader *rd, const char *key, struct topology **out)
{
	struct topology *t = tree_new("");
	struct cpuset pus;
	uint32_t n, klen = get32(rd);
	int r;
	const char *k = get_bytes(rd, klen);

	if (!t)
		return -ENOMEM;
	if (!k || klen != strlen(key) || memcmp(k, key, klen)) {
		tree_free(t);
		return rd->bad ? -EBADMSG : -ESTALE;
	}
	n = get32(rd);
	if (n == 0 || n > 1u << 24)
		rd->bad = 1;
	cpulist_zero(&pus);
	for (uint32_t i = 0; i < n && !rd->bad; i++) {
		uint32_t type = get32(rd), depth = get32(rd), os = get32(rd);
		int32_t parent = (int32_t)get32(rd), kind = (int32_t)get32(rd);
		int o;

		if (type >= TOPO_NTYPES || type == TOPO_NUMA ||
		    (i == 0) != (parent == TOPO_NONE) ||
		    (i && (parent < 0 || (uint32_t)parent >= i ||
			   depth <= t->objs[parent].depth ||
			   t->objs[parent].type == TOPO_PU)) ||
		    depth > 1024 || kind < -1 || kind > 255 ||
		    (type == TOPO_PU &&
		     (os >= CPULIST_MAX || cpulist_has(&pus, os)))) {
			rd->bad = 1;
			break;
		}
		if (type == TOPO_PU)
			cpulist_add(&pus, os);
		o = tree_add(t, (enum topo_type)type, parent, (int)depth, os);
		if (o < 0) {
			tree_free(t);
			return -ENOMEM;
		}
		if (kind >= 0)
			tree_set_kind(t, o, kind);
	}
	n = rd->bad ? 0 : get32(rd);
	for (uint32_t i = 0; i < n && !rd->bad; i++) {
		uint32_t os = get32(rd);
		int32_t attach = (int32_t)get32(rd);

		if (attach < 0 || (uint32_t)attach >= t->nobjs ||
		    tree_add_numa(t, attach, os) < 0)
			rd->bad = 1;
	}
	if (!rd->bad) {
		const char *set = get_bytes(rd, sizeof(t->complete));

		if (set)
			memcpy(&t->complete, set, sizeof(t->complete));
	}
	t->this_system = get32(rd) != 0;
	get_string(rd, t->source, sizeof(t->source));
	get_string(rd, t->hwloc_version, sizeof(t->hwloc_version));
	if (rd->bad || rd->p != rd->end) {
		tree_free(t);
		return -EBADMSG;
	}
	if ((r = tree_finish(t)) < 0) {
		tree_free(t);
		return r == -ENOMEM ? r : -EBADMSG;
	}
	*out = t;
	return 0;
}

int cache_decode(const void *data, size_t len, const char *key,
		 struct topology **out)
{
	const unsigned char *buf = data;
	struct reader rd;
	uint64_t sum;

	*out = NULL;
	if (len < sizeof(magic) + 4 + sizeof(sum))
		return -EBADMSG;
	memcpy(&sum, buf + len - sizeof(sum), sizeof(sum));
	if (memcmp(buf, magic, sizeof(magic)) ||
	    sum != cache_checksum(buf, len - sizeof(sum)))
		return -EBADMSG;
	rd.p = buf + sizeof(magic);
	rd.end = buf + len - sizeof(sum);
	rd.bad = 0;
	return get32(&rd) == FORMAT ? decode(&rd, key, out) : -ESTALE;
}

int cache_load(const char *path, const char *key, struct topology **out)
{
	struct stat st;
	unsigned char *buf = NULL;
	int fd, r;

	*out = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out;
	}
	r = -EPERM;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		goto out;
	r = -EBADMSG;
	if (st.st_size > 64 << 20)
		goto out;
	if (!(buf = malloc((size_t)st.st_size + 1))) {
		r = -ENOMEM;
		goto out;
	}
	if (read(fd, buf, (size_t)st.st_size) != st.st_size)
		goto out;
	r = cache_decode(buf, (size_t)st.st_size, key, out);
out:
	free(buf);
	close(fd);
	return r;
}
