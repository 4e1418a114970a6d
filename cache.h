/* SPDX-License-Identifier: BSD-3-Clause */
/* The topology cache: flattened topologies saved under the user's cache
 * directory, each under a key of everything that can change it, so that a
 * launch does not pay for hwloc. A cache never changes a placement:
 * anything doubtful is a miss, and the caller loads afresh. */
#ifndef PINRUN_CACHE_H
#define PINRUN_CACHE_H

#include <limits.h>
#include <stdbool.h>

#include "topology.h"

struct cache {
	int dir;	     /* the cache directory, or -1 */
	char base[PATH_MAX]; /* the directory it lives in (for a store) */
	char name[64];	     /* this source's file in it */
	char key[8192];	     /* what the file must have been saved under */
};

/* Why there is no entry to use. */
enum cache_unusable {
	CACHE_USABLE = 0,
	CACHE_NO_KEY,	/* the source cannot be keyed reliably: a sysfs
			 * tree, hwloc variables in the environment, an
			 * unreadable cgroup */
	CACHE_NO_HOME,	/* neither XDG_CACHE_HOME nor HOME is set */
	CACHE_NOT_OURS, /* a directory on the way is a link, is not the
			 * user's (or root's), others can write it, or
			 * it cannot be reached */
};

/* Find the entry of a source: the key (for this machine, what the kernel
 * says can change it: boot, online CPUs, the cgroup cpuset's CPUs and
 * memory nodes; for an XML file, its identity and modification time; for
 * a synthetic description, the text; always the pinrun and hwloc builds),
 * and its directory, $XDG_CACHE_HOME/pinrun or $HOME/.cache/pinrun, each
 * component opened without following links. A missing directory is fine
 * (cache_store makes it). Returns CACHE_USABLE, or why not. */
enum cache_unusable cache_open(struct cache *c, enum topo_source_kind kind,
			       const char *arg);

/* Why the cache is not used, for --explain: "not used for this source". */
const char *cache_strerror(enum cache_unusable why);

/* What the cache did for a load, in --explain's words: "hit". */
enum cache_outcome {
	CACHE_OFF,	  /* --no-cache, PINRUN_NO_CACHE */
	CACHE_HIT,	  /* the entry was there */
	CACHE_STORED,	  /* a miss: loaded, then saved */
	CACHE_NOT_STORED, /* a miss, and the save failed */
};
const char *cache_words(enum cache_outcome what);

/* Read the entry if it is there, saved under exactly this key, by this
 * user, and not writable by others. Returns 0 with *out (freed with
 * tree_free), or -1: a miss. */
int cache_load(const struct cache *c, struct topology **out);

/* Save t as the entry, atomically (a new file renamed over the old), so
 * that concurrent launches never read a torn file; the directory is made
 * if need be, and only under a directory of the user's own. Old entries
 * are pruned. Returns 0 or a negative errno. */
int cache_store(struct cache *c, const struct topology *t);

void cache_close(struct cache *c);

#endif
