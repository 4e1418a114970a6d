/* SPDX-License-Identifier: BSD-3-Clause */
/* Follow mode's slots of a plan, in the order they are handed out. */
#ifndef PINRUN_SLOTORDER_H
#define PINRUN_SLOTORDER_H

#include "policy.h"
#include "topotree.h"

/* Cut plan->cpus into slots as the policy's entry says (cores for the
 * domain policies, single PUs for --spread and --cpus, the whole set for
 * --hot) and order them: the plan's slot_start and slot_cpus, allocated
 * here and freed with policy_plan_free. Returns 0 or -1 when out of
 * memory. */
int slotorder_make(const struct topology *t, enum policy_slots slots,
		   struct policy_plan *plan);

#endif
