/* SPDX-License-Identifier: BSD-3-Clause */
/* Follow mode's slot assignment: which slot of a placement each new task
 * gets. Pure bookkeeping over task ids; the tracer asks, this answers. */
#ifndef PINRUN_SLOTS_H
#define PINRUN_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cpulist.h"
#include "tidmap.h"

struct slots {
	unsigned n;	      /* slots, in the policy's spread order; index n
			       * is the whole placement (the plan's CPUs) */
	size_t mask_bytes;    /* of each slot's CPU mask */
	unsigned long *masks; /* n + 1 masks of mask_bytes each */
	char **text;	      /* each slot's CPU list, for reports (n + 1) */
	unsigned *load;	      /* live placed tasks per slot */
	unsigned *given;      /* tasks ever placed per slot, for --explain */
	unsigned last;	      /* the slot chosen last (ties start after it) */
	struct tidmap tasks;  /* tid -> struct slot_task */
};

/* Where slot i's CPUs come from: slots_init asks for each slot with the
 * caller's arg (follower.c answers from the plan). */
typedef void slots_cpus_fn(const void *arg, unsigned i, struct cpuset *set);

/* n slots (n > 0), in the plan's order, slot i's CPUs given by cpus(arg,
 * i, ...); whole: the whole placement (slot n). Returns 0, or -1 when out
 * of memory. */
int slots_init(struct slots *s, unsigned n, slots_cpus_fn *cpus,
	       const void *arg, const struct cpuset *whole);
void slots_free(struct slots *s);

/* Choose a slot for a new task and record it there. parent is the task
 * that created it (0 when unknown). Returns the slot, or -1 when out of
 * memory.
 *
 * The rule: a new process goes to its parent's slot while the parent has
 * no other live child there, because a parent most often waits for its
 * child (shells, make, configure) and the child then runs on a warm core
 * with no cross-core wake-ups; any further child that runs while the first
 * is alive goes to the least-loaded slot (live tasks per slot), ties taken
 * in spread order, so children that run at the same time are spread out.
 * Threads always go to the least-loaded slot. The whole placement's first
 * live child goes to slot 0. parent 0: the least-loaded slot (a parent
 * that is not on its slot any more passes 0: its child inherits nothing).
 */
int slots_place(struct slots *s, pid_t tid, pid_t parent, bool thread);

/* Record the command on the whole placement (slot n), as a plain run has
 * it: it counts as load on no slot, held, running or exited. Returns n or
 * -1 when out of memory. */
int slots_whole(struct slots *s, pid_t tid);

/* The slot tid was given (n: the whole placement), or -1 if none. */
int slots_slot_of(const struct slots *s, pid_t tid);

/* Move a task's record (a thread that exec'd takes over its leader's
 * tid); the leader's old record goes. */
void slots_move(struct slots *s, pid_t from, pid_t to);

/* The task ended: free its place. */
void slots_gone(struct slots *s, pid_t tid);

/* Slot's mask (slot n: the whole placement's). */
const void *slots_mask(const struct slots *s, unsigned slot);

#endif
