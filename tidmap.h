/* SPDX-License-Identifier: BSD-3-Clause */
/* A hash map from task ids to small fixed-size records, for the tracer's
 * per-task state and the slots' per-task bookkeeping. */
#ifndef PINRUN_TIDMAP_H
#define PINRUN_TIDMAP_H

#include <stddef.h>
#include <sys/types.h>

struct tidmap {
	pid_t *keys; /* 0 marks a free bucket */
	unsigned char *vals;
	size_t size;	  /* of one record */
	size_t cap, used; /* cap is a power of two */
};

void tidmap_init(struct tidmap *m, size_t record_size);
void tidmap_free(struct tidmap *m);
/* The record of tid, or NULL. */
void *tidmap_find(const struct tidmap *m, pid_t tid);
/* The record of tid, made (zeroed) if new; NULL when out of memory. Any
 * record pointer obtained before may move. */
void *tidmap_insert(struct tidmap *m, pid_t tid);
void tidmap_remove(struct tidmap *m, pid_t tid);
/* Visit every key: returns the next bucket index after i (start with 0)
 * holding a key, stored in *tid, or (size_t)-1 at the end. */
size_t tidmap_next(const struct tidmap *m, size_t i, pid_t *tid);

#endif
