/* SPDX-License-Identifier: BSD-3-Clause */
/* A byte buffer that grows: the JSON writer's text, the topology file's
 * bytes, the isolated loader's answer. Out of memory is remembered, not
 * fatal: the owner checks failed once, at the end. */
#ifndef PINRUN_BUF_H
#define PINRUN_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct buf {
	char *data; /* NUL-terminated after len once anything was added */
	size_t len, cap;
	bool failed; /* out of memory: the contents are incomplete */
};

/* Room for n more bytes and a NUL after them; false (and failed) when
 * memory runs out. */
bool buf_reserve(struct buf *b, size_t n);
void buf_add(struct buf *b, const void *data, size_t n);
void buf_free(struct buf *b);

#endif
