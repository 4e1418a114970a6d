/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buf.c: the one growing byte buffer. Doubling from 256 bytes; a failed
 * allocation leaves what was written and sets failed, so that writers
 * need not check every call.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"

bool buf_reserve(struct buf *b, size_t n)
{
	size_t cap;
	char *more;

	if (b->failed)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap * 2 : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	if (!(more = realloc(b->data, cap))) {
		b->failed = true;
		return false;
	}
	b->data = more;
	b->cap = cap;
	return true;
}

void buf_add(struct buf *b, const void *data, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_free(struct buf *b)
{
	free(b->data);
	*b = (struct buf){ 0 };
}
