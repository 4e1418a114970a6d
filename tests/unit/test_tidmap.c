/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for tidmap.c: the task-id hash, checked against a plain
 * array through many insertions and removals (backward-shift deletion is
 * where such tables go wrong). */
#include <stdlib.h>

#include "check.h"
#include "tidmap.h"

#define RANGE 5000

TEST(empty_map)
{
	struct tidmap m;
	pid_t tid;

	tidmap_init(&m, sizeof(int));
	EXPECT(tidmap_find(&m, 1) == NULL);
	EXPECT(tidmap_find(&m, 0) == NULL);
	EXPECT(tidmap_next(&m, 0, &tid) == (size_t)-1);
	tidmap_remove(&m, 7); /* nothing to remove is no error */
	tidmap_free(&m);
}

TEST(insert_find_remove)
{
	struct tidmap m;
	int *v;

	tidmap_init(&m, sizeof(int));
	v = tidmap_insert(&m, 42);
	EXPECT(v && *v == 0); /* new records are zeroed */
	*v = 7;
	EXPECT(tidmap_insert(&m, 42) == tidmap_find(&m, 42));
	EXPECT(*(int *)tidmap_find(&m, 42) == 7);
	tidmap_remove(&m, 42);
	EXPECT(tidmap_find(&m, 42) == NULL);
	v = tidmap_insert(&m, 42);
	EXPECT(v && *v == 0);
	tidmap_free(&m);
}

/* Random insertions and removals over a range of tids, compared with a
 * plain array after every step, the iteration included. */
TEST(against_an_array)
{
	static int ref[RANGE];
	struct tidmap m;
	unsigned seed = 12345, live = 0, bad = 0;

	tidmap_init(&m, sizeof(int));
	for (int step = 0; step < 200000; step++) {
		pid_t tid;
		int *v;

		seed = seed * 1103515245 + 12345;
		tid = (pid_t)((seed >> 8) % (RANGE - 1)) + 1;
		if ((seed >> 4) % 3) {
			if (!(v = tidmap_insert(&m, tid)))
				bad++;
			else if (ref[tid] ? *v != ref[tid] : *v != 0)
				bad++;
			if (!ref[tid])
				live++;
			if (v)
				*v = ref[tid] = step + 1;
		} else {
			tidmap_remove(&m, tid);
			if (ref[tid])
				live--;
			ref[tid] = 0;
		}
		if (step % 1000 == 0) {
			unsigned seen = 0;
			size_t i = 0;

			for (pid_t t = 1; t < RANGE; t++) {
				int *f = tidmap_find(&m, t);

				if (ref[t] ? !f || *f != ref[t] : f != NULL)
					bad++;
			}
			while ((i = tidmap_next(&m, i, &tid)) != (size_t)-1) {
				seen++;
				if (tid <= 0 || tid >= RANGE || !ref[tid])
					bad++;
			}
			if (seen != live || m.used != live)
				bad++;
		}
	}
	EXPECT(bad == 0);
	tidmap_free(&m);
}

int main(void)
{
	RUN(empty_map);
	RUN(insert_find_remove);
	RUN(against_an_array);
	return DONE();
}
