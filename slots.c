/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * slots.c: follow mode's choice of slot for each new task, and the load
 * bookkeeping behind it. Pure: it knows task ids and slot numbers, not
 * ptrace and not policies (follower.c gives it each slot's CPUs, from the
 * plan policy.c made).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slots.h"

struct slot_task {
	unsigned slot;	    /* n: the whole placement (the command) */
	pid_t parent;	    /* when it shares its parent's slot, else 0 */
	unsigned kids_here; /* live children sharing this task's slot */
};

#define WORD_BITS (8 * sizeof(unsigned long))

/* Slot i's CPUs; slot n is the whole placement, as a plain run binds it. */
static void slot_set(unsigned n, slots_cpus_fn *cpus, const void *arg,
		     const struct cpuset *whole, unsigned i, struct cpuset *set)
{
	if (i < n)
		cpus(arg, i, set);
	else
		*set = *whole;
}

int slots_init(struct slots *s, unsigned n, slots_cpus_fn *cpus,
	       const void *arg, const struct cpuset *whole)
{
	size_t words;
	int last = -1;

	memset(s, 0, sizeof(*s));
	tidmap_init(&s->tasks, sizeof(struct slot_task));
	for (unsigned i = 0; i <= n; i++) {
		struct cpuset set;

		slot_set(n, cpus, arg, whole, i, &set);
		if (cpulist_last(&set) > last)
			last = cpulist_last(&set);
	}
	/* Masks as short as the highest CPU allows: the kernel reads fewer
	 * bytes at every placement. */
	words = (size_t)last / WORD_BITS + 1;
	s->n = n;
	s->mask_bytes = words * sizeof(unsigned long);
	s->masks = calloc((size_t)(n + 1) * words, sizeof(unsigned long));
	s->text = calloc(n + 1, sizeof(*s->text));
	s->load = calloc(n + 1, sizeof(*s->load));
	s->given = calloc(n + 1, sizeof(*s->given));
	if (!s->masks || !s->text || !s->load || !s->given)
		return -1;
	for (unsigned i = 0; i <= n; i++) {
		struct cpuset set;

		slot_set(n, cpus, arg, whole, i, &set);
		memcpy(s->masks + (size_t)i * words, set.w, s->mask_bytes);
		if (!(s->text[i] = cpulist_str(&set)))
			return -1;
	}
	s->last = n - 1; /* so the first least-loaded choice is slot 0 */
	return 0;
}

void slots_free(struct slots *s)
{
	for (unsigned i = 0; s->text && i <= s->n; i++)
		free(s->text[i]);
	free(s->text);
	free(s->masks);
	free(s->load);
	free(s->given);
	tidmap_free(&s->tasks);
}

static int record(struct slots *s, pid_t tid, unsigned slot, pid_t parent)
{
	struct slot_task *t = tidmap_insert(&s->tasks, tid);

	if (!t)
		return -1;
	t->slot = slot;
	t->parent = parent;
	s->load[slot]++;
	s->given[slot]++;
	s->last = slot;
	return (int)slot;
}

/* The slot a task's first child shares: its own; the whole placement's
 * is the first slot. */
static unsigned home(const struct slots *s, const struct slot_task *t)
{
	return t->slot == s->n ? 0 : t->slot;
}

static unsigned least_loaded(const struct slots *s)
{
	unsigned best = (s->last + 1) % s->n;

	/* Ties go to the next slot in spread order after the last one
	 * given, so a run of equal choices still walks the slots. */
	for (unsigned k = 1; k < s->n; k++) {
		unsigned i = (s->last + 1 + k) % s->n;

		if (s->load[i] < s->load[best])
			best = i;
	}
	return best;
}

int slots_place(struct slots *s, pid_t tid, pid_t parent, bool thread)
{
	struct slot_task *p;

	/* A reused tid: forget the old task first, as removing it may move
	 * other records (the parent's) in the hash. */
	if (tidmap_find(&s->tasks, tid))
		slots_gone(s, tid);
	p = thread ? NULL : tidmap_find(&s->tasks, parent);
	if (p && p->kids_here == 0) {
		/* The whole placement's first child goes to the first slot,
		 * where the helper runs. */
		unsigned slot = home(s, p);

		p->kids_here++;
		return record(s, tid, slot, parent);
	}
	return record(s, tid, least_loaded(s), 0);
}

int slots_whole(struct slots *s, pid_t tid)
{
	struct slot_task *t;

	if (tidmap_find(&s->tasks, tid))
		slots_gone(s, tid);
	if (!(t = tidmap_insert(&s->tasks, tid)))
		return -1;
	t->slot = s->n;
	t->parent = 0;
	s->given[s->n]++;
	return (int)s->n;
}

int slots_slot_of(const struct slots *s, pid_t tid)
{
	const struct slot_task *t = tidmap_find(&s->tasks, tid);

	return t ? (int)t->slot : -1;
}

void slots_move(struct slots *s, pid_t from, pid_t to)
{
	struct slot_task *f = tidmap_find(&s->tasks, from), moved, *t;

	if (!f || from == to)
		return;
	moved = *f;
	tidmap_remove(&s->tasks, from);
	if (tidmap_find(&s->tasks, to))
		slots_gone(s, to);
	if ((t = tidmap_insert(&s->tasks, to)))
		*t = moved;
}

void slots_gone(struct slots *s, pid_t tid)
{
	struct slot_task *t = tidmap_find(&s->tasks, tid), *p;

	if (!t)
		return;
	if (t->slot < s->n)
		s->load[t->slot]--;
	if (t->parent && (p = tidmap_find(&s->tasks, t->parent)) &&
	    p->kids_here && home(s, p) == t->slot)
		p->kids_here--;
	tidmap_remove(&s->tasks, tid);
}

const void *slots_mask(const struct slots *s, unsigned slot)
{
	return (const char *)s->masks + (size_t)slot * s->mask_bytes;
}
