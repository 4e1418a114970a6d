/* SPDX-License-Identifier: BSD-3-Clause */
/* A flattened topology as bytes: the topology cache's file format, and
 * what the isolated loader hands back on its pipe. Pure: no I/O. */
#ifndef PINRUN_TOPOFILE_H
#define PINRUN_TOPOFILE_H

#include <stddef.h>
#include <stdint.h>

#include "topotree.h"

enum topofile_err {
	TOPOFILE_OK = 0,
	TOPOFILE_NOMEM,
	TOPOFILE_STALE,	  /* another key, or another format version */
	TOPOFILE_CORRUPT, /* not the format, a bad checksum, an index out of
			   * range, or a tree tree_finish refuses */
};

/* Write t under key into a new buffer (*buf, *len) the caller frees.
 * Returns TOPOFILE_OK or TOPOFILE_NOMEM. */
enum topofile_err topofile_encode(const char *key, const struct topology *t,
				  void **buf, size_t *len);

/* Read a topology saved under exactly key. Every index is checked before
 * it is used; *out is freed with tree_free. */
enum topofile_err topofile_decode(const void *buf, size_t len, const char *key,
				  struct topology **out);

/* The checksum that ends the bytes: 64-bit FNV-1a of all before it. */
uint64_t topofile_checksum(const void *buf, size_t len);

#endif
