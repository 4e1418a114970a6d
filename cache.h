/* The topology cache: a flattened topology saved under the user's cache
 * directory, keyed by everything that can change it, so that a launch does
 * not pay for hwloc. A cache never changes a placement: anything doubtful
 * is a miss, and the caller loads the topology afresh. */
#ifndef PINRUN_CACHE_H
#define PINRUN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "topology.h"

/* The key of a topology source: for this machine, what the kernel says
 * can change it (boot, online CPUs, the cgroup cpuset); for an XML file,
 * its path, identity, size and modification time; for a synthetic
 * description, the text. Always the versions of pinrun and hwloc too.
 * Returns 0, or -ENOTSUP when the source cannot be keyed reliably (a
 * sysfs tree, hwloc variables in the environment, an unreadable cgroup). */
int cache_key(enum topo_source_kind kind, const char *arg, char *key,
	      size_t size);

/* The cache file for a source, in $XDG_CACHE_HOME/pinrun (else
 * $HOME/.cache/pinrun), created 0700 if need be. Returns 0, or -errno
 * when there is no usable directory (none, not ours, read-only). */
int cache_path(enum topo_source_kind kind, const char *arg, char *path,
	       size_t size);

/* Load the topology saved at path under exactly this key. Returns 0 with
 * *out (freed with tree_free), or a negative errno: -ENOENT (none),
 * -ESTALE (another key), -EBADMSG (corrupt), -EPERM (not the user's). */
int cache_load(const char *path, const char *key, struct topology **out);

/* Save t under key, atomically (a temporary file renamed over path), so
 * concurrent launches never read a torn file. Returns 0 or -errno. */
int cache_store(const char *path, const char *key, const struct topology *t);

/* The checksum that ends a cache file: 64-bit FNV-1a of all before it. */
uint64_t cache_checksum(const void *buf, size_t len);

/* The same format in memory: to pass a topology between processes. The
 * buffer is the caller's to free. */
int cache_encode(const char *key, const struct topology *t, void **buf,
		 size_t *len);
int cache_decode(const void *buf, size_t len, const char *key,
		 struct topology **out);

#endif
