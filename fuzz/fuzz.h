/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the libFuzzer harnesses: a check that aborts (so libFuzzer
 * saves the input), and the properties every loaded or hand-built topology
 * must have whatever the input was: locations that pinrun writes parse
 * back to the same CPUs, and every policy either plans inside the allowed
 * set or returns an error. Header-only: each harness is one program. */
#ifndef PINRUN_FUZZ_H
#define PINRUN_FUZZ_H

#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "location.h"
#include "policy.h"
#include "topotree.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where reports go: the stderr the harness started with. topology.c sends
 * stderr to /dev/null while hwloc loads, and a crash inside hwloc must not
 * go unreported. */
static int fuzz_report_fd = 2;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = fcntl(2, F_DUPFD_CLOEXEC, 10);

	(void)argc;
	(void)argv;
	if (fd >= 0) {
		fuzz_report_fd = fd;
		__sanitizer_set_report_fd((void *)(intptr_t)fd);
	}
	return 0;
}

#define FUZZ_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			dprintf(fuzz_report_fd, "%s:%d: check failed: %s\n",   \
				__FILE__, __LINE__, #cond);                    \
			abort();                                               \
		}                                                              \
	} while (0)

/* The input as a C string (it stops at the first NUL, as argv would). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	FUZZ_CHECK(s);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A formatter's short-buffer contract: the full length returned, and a
 * NUL-terminated prefix of the full text in the buffer. */
static inline void fuzz_check_prefix(const char *full, size_t full_len,
				     const char *buf, size_t size, size_t got)
{
	FUZZ_CHECK(got == full_len);
	if (!size)
		return;
	FUZZ_CHECK(memchr(buf, '\0', size));
	FUZZ_CHECK(!strncmp(full, buf, strlen(buf)));
}

/* set (inside the tree's PUs) as policy_cover's objects, written by
 * location_format and parsed back word by word: the same CPUs again.
 * Without strict, only memory safety is checked (a cache file can hold a
 * tree that hwloc never makes, with levels of mixed types). */
static inline void fuzz_check_cover(const struct topology *t,
				    const struct cpuset *set, bool strict)
{
	unsigned max = t->nobjs + 1, n;
	int *objs = malloc(max * sizeof(*objs));
	struct cpuset back, one;
	struct location_error le;
	size_t len, small;
	char *text, *buf, *word, *save;

	FUZZ_CHECK(objs);
	n = policy_cover(t, set, objs, max);
	FUZZ_CHECK(n <= t->nobjs);
	for (unsigned i = 0; i < n; i++)
		FUZZ_CHECK(objs[i] >= 0 && (unsigned)objs[i] < t->nobjs);
	len = location_format(t, objs, n, NULL, 0);
	text = malloc(len + 1);
	FUZZ_CHECK(text);
	FUZZ_CHECK(location_format(t, objs, n, text, len + 1) == len);
	FUZZ_CHECK(strlen(text) == len);
	/* A short buffer holds whole items only. */
	small = len / 2 + 1;
	buf = malloc(small);
	FUZZ_CHECK(buf);
	fuzz_check_prefix(text, len, buf, small,
			  location_format(t, objs, n, buf, small));
	if (buf[0] && strlen(buf) < len)
		FUZZ_CHECK(text[strlen(buf)] == ' ');
	free(buf);
	cpulist_zero(&back);
	for (word = strtok_r(text, " ", &save); word;
	     word = strtok_r(NULL, " ", &save)) {
		if (location_eval(t, word, NULL, &one, &le) < 0) {
			if (!strict)
				continue;
			dprintf(fuzz_report_fd,
				"'%s' does not parse back (error %d)\n", word,
				(int)le.code);
			abort();
		}
		cpulist_or(&back, &back, &one);
	}
	if (strict && !cpulist_equal(&back, set)) {
		char *want = cpulist_str(set), *got = cpulist_str(&back);

		dprintf(fuzz_report_fd, "cover of %s parses back as %s\n", want,
			got);
		abort();
	}
	free(text);
	free(objs);
}

/* A successful plan lies inside what was allowed, and its slots are
 * well-formed: pinrun reads slot_cpus[slot_start[i] .. slot_start[i+1]). */
static inline void fuzz_check_plan(const struct topology *t,
				   const struct policy_request *req,
				   bool strict)
{
	struct policy_plan plan;
	struct policy_error err;
	unsigned count;

	if (policy_plan(t, req, &plan, &err) < 0) {
		FUZZ_CHECK(err.code != POLICY_OK);
		/* pinrun names the domain that had no allowed CPU. */
		if (err.code == POLICY_E_DOMAIN_EMPTY)
			FUZZ_CHECK(plan.domain >= 0 &&
				   (unsigned)plan.domain < t->nobjs);
		policy_plan_free(&plan);
		return;
	}
	FUZZ_CHECK(!cpulist_empty(&plan.cpus));
	FUZZ_CHECK(cpulist_subset(&plan.cpus, &req->allowed));
	FUZZ_CHECK(cpulist_subset(&plan.cpus, &t->usable));
	FUZZ_CHECK(plan.domain == -1 ||
		   (plan.domain >= 0 && (unsigned)plan.domain < t->nobjs));
	count = cpulist_count(&plan.cpus);
	FUZZ_CHECK(plan.nslots <= count);
	if (plan.nslots) {
		FUZZ_CHECK(plan.slot_start && plan.slot_cpus);
		FUZZ_CHECK(plan.slot_start[0] == 0);
		for (unsigned i = 0; i < plan.nslots; i++) {
			FUZZ_CHECK(plan.slot_start[i] <=
				   plan.slot_start[i + 1]);
			FUZZ_CHECK(plan.slot_start[i + 1] <= count);
			for (unsigned k = plan.slot_start[i];
			     k < plan.slot_start[i + 1]; k++)
				FUZZ_CHECK(
				    cpulist_has(&plan.cpus, plan.slot_cpus[k]));
		}
	}
	fuzz_check_cover(t, &plan.cpus, strict);
	policy_plan_free(&plan);
}

/* Every policy, as pinrun asks for them when planning for a topology that
 * is not this machine (no current CPU, no load sample). */
static inline void fuzz_check_policies(const struct topology *t, bool strict)
{
	struct policy_request req;
	struct cpuset part, parts;
	struct policy_error err;
	int first = cpulist_next(&t->usable, -1);

	memset(&req, 0, sizeof(req));
	req.allowed = t->usable;
	req.current_cpu = -1;
	req.kind = POLICY_HOT;
	fuzz_check_plan(t, &req, strict);
	if (first >= 0) {
		req.which = POLICY_WHICH_INDEX;
		cpulist_add(&req.cpus, (unsigned)cpulist_last(&t->usable));
		fuzz_check_plan(t, &req, strict);
	}
	/* Every domain policy, from policy.c's table. */
	for (int k = POLICY_HOT; k < POLICY_NKINDS; k++) {
		if (policy_desc((enum policy_kind)k)->value !=
		    POLICY_VALUE_DOMAIN)
			continue;
		req.kind = (enum policy_kind)k;
		req.which = POLICY_WHICH_CURRENT;
		req.smt = POLICY_SMT_DEFAULT;
		fuzz_check_plan(t, &req, strict);
		req.which = POLICY_WHICH_INDEX;
		req.index = 1;
		req.smt = POLICY_SMT_ONE;
		fuzz_check_plan(t, &req, strict);
	}
	req.kind = POLICY_SPREAD;
	req.which = POLICY_WHICH_CURRENT;
	for (unsigned n = 0; n < 3; n++) {
		req.n = n;
		req.smt = n == 2 ? POLICY_SMT_ALL : POLICY_SMT_DEFAULT;
		fuzz_check_plan(t, &req, strict);
	}
	req.n = 0;
	req.smt = POLICY_SMT_DEFAULT;
	req.kind = POLICY_CPUS;
	req.cpus = t->usable;
	fuzz_check_plan(t, &req, strict);
	/* Less allowed than the machine has: every other CPU. */
	cpulist_zero(&req.allowed);
	for (int c = first, k = 0; c >= 0; c = cpulist_next(&t->usable, c))
		if (k++ % 2 == 0)
			cpulist_add(&req.allowed, (unsigned)c);
	req.kind = POLICY_SPREAD;
	fuzz_check_plan(t, &req, strict);
	req.kind = POLICY_SAME_CHIP;
	fuzz_check_plan(t, &req, strict);
	/* Shares are disjoint and cover the allowed set. */
	for (unsigned count = 1; count <= 3; count++) {
		cpulist_zero(&parts);
		for (unsigned i = 0; i < count; i++) {
			if (policy_share(t, &t->usable, count == 3, i, count,
					 &part, &err) < 0) {
				FUZZ_CHECK(err.code == POLICY_E_TOO_MANY);
				break;
			}
			FUZZ_CHECK(!cpulist_intersects(&part, &parts));
			cpulist_or(&parts, &parts, &part);
			if (i == count - 1)
				FUZZ_CHECK(cpulist_equal(&parts, &t->usable));
		}
	}
	policy_kind_cpus(t, true, &part);
	FUZZ_CHECK(cpulist_subset(&part, &t->usable));
	policy_kind_cpus(t, false, &part);
	FUZZ_CHECK(cpulist_subset(&part, &t->usable));
	fuzz_check_cover(t, &t->usable, strict);
}

#endif
