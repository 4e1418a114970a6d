/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tidmap.c: open addressing with linear probing over task ids, deletion by
 * backward shift (no tombstones), so lookups stay short however many
 * processes come and go. Pure: memory only.
 */
#include <stdlib.h>
#include <string.h>

#include "tidmap.h"

void tidmap_init(struct tidmap *m, size_t record_size)
{
	memset(m, 0, sizeof(*m));
	m->size = record_size;
}

void tidmap_free(struct tidmap *m)
{
	free(m->keys);
	free(m->vals);
	tidmap_init(m, m->size);
}

static size_t slot_of(const struct tidmap *m, pid_t tid)
{
	/* Fibonacci hashing spreads consecutive pids over the table. */
	return (size_t)(((unsigned long long)(unsigned)tid *
			 11400714819323198485ULL) >>
			32) &
	       (m->cap - 1);
}

void *tidmap_find(const struct tidmap *m, pid_t tid)
{
	if (!m->cap || tid <= 0)
		return NULL;
	for (size_t i = slot_of(m, tid);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == tid)
			return m->vals + i * m->size;
		if (!m->keys[i])
			return NULL;
	}
}

static int grow(struct tidmap *m)
{
	struct tidmap bigger = *m;
	size_t cap = m->cap ? m->cap * 2 : 64;

	bigger.cap = cap;
	bigger.used = 0;
	bigger.keys = calloc(cap, sizeof(*bigger.keys));
	bigger.vals = calloc(cap, m->size);
	if (!bigger.keys || !bigger.vals) {
		free(bigger.keys);
		free(bigger.vals);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			memcpy(tidmap_insert(&bigger, m->keys[i]),
			       m->vals + i * m->size, m->size);
	free(m->keys);
	free(m->vals);
	*m = bigger;
	return 0;
}

void *tidmap_insert(struct tidmap *m, pid_t tid)
{
	void *found = tidmap_find(m, tid);
	size_t i;

	if (found)
		return found;
	if (tid <= 0 || ((m->used + 1) * 2 > m->cap && grow(m) < 0))
		return NULL;
	for (i = slot_of(m, tid); m->keys[i]; i = (i + 1) & (m->cap - 1))
		;
	m->keys[i] = tid;
	m->used++;
	memset(m->vals + i * m->size, 0, m->size);
	return m->vals + i * m->size;
}

void tidmap_remove(struct tidmap *m, pid_t tid)
{
	size_t i, j, mask = m->cap - 1;

	if (!tidmap_find(m, tid))
		return;
	for (i = slot_of(m, tid); m->keys[i] != tid; i = (i + 1) & mask)
		;
	/* Shift back every later key of the run that may move into the
	 * hole: one whose home is not cyclically in (i, j]. */
	for (j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		size_t home = slot_of(m, m->keys[j]);

		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		m->keys[i] = m->keys[j];
		memcpy(m->vals + i * m->size, m->vals + j * m->size, m->size);
		i = j;
	}
	m->keys[i] = 0;
	m->used--;
}

size_t tidmap_next(const struct tidmap *m, size_t i, pid_t *tid)
{
	for (; i < m->cap; i++)
		if (m->keys[i]) {
			*tid = m->keys[i];
			return i + 1;
		}
	return (size_t)-1;
}
