/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memory.c: the NUMA node lists of --mem, read against a flattened
 * topology: numbers and ranges as numactl takes them, "all", and the
 * kinds hwloc gives memory-only nodes (KNL's MCDRAM, POWER9's GPU memory),
 * so that those can be named without knowing their numbers. Which nodes a
 * placement's own are is topotree.c's (tree_local_numa); setting a policy
 * is host.c's. Pure: no system calls.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "memory.h"
#include "num.h"

/* The index in t->numa of node number os, or -1. */
static int memory_node(const struct topology *t, unsigned os)
{
	for (unsigned i = 0; i < t->nnuma; i++)
		if (t->numa[i].os == os)
			return (int)i;
	return -1;
}

void memory_all(const struct topology *t, struct cpuset *nodes)
{
	cpulist_zero(nodes);
	for (unsigned i = 0; i < t->nnuma; i++)
		if (t->numa[i].os < MEMORY_MAX_NODES)
			cpulist_add(nodes, t->numa[i].os);
}

size_t memory_kinds(const struct topology *t, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < t->nnuma; i++) {
		bool seen = !t->numa[i].kind[0];

		for (unsigned k = 0; k < i && !seen; k++)
			seen = !strcasecmp(t->numa[k].kind, t->numa[i].kind);
		if (seen)
			continue;
		len += (size_t)snprintf(len < size ? buf + len : NULL,
					len < size ? size - len : 0, "%s%s",
					len ? ", " : "", t->numa[i].kind);
	}
	return len;
}

static int fail(struct memory_error *err, enum memory_err code, const char *at,
		size_t len)
{
	err->code = code;
	err->at = at;
	err->len = len;
	return -1;
}

/* A node number: decimal digits only, as numactl's lists without its
 * C prefixes. One too large is still a number (item() words it). */
static bool number(const char *p, size_t len, unsigned long *out)
{
	return num_decimal(p, len, 0, MEMORY_MAX_NODES - 1, out, NULL) !=
	       NUM_E_SYNTAX;
}

/* A kind: a word, as hwloc's subtypes are ("GPUMemory", "CXL-DRAM"),
 * matched without regard to case. */
static int kind(const struct topology *t, const char *p, size_t len,
		struct cpuset *nodes, struct memory_error *err)
{
	bool found = false;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) ||
	    strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_-") < len)
		return fail(err, MEMORY_E_ITEM, p, len);
	if (!t)
		return 0;
	for (unsigned i = 0; i < t->nnuma; i++)
		if (strlen(t->numa[i].kind) == len &&
		    !strncasecmp(t->numa[i].kind, p, len) &&
		    t->numa[i].os < MEMORY_MAX_NODES) {
			cpulist_add(nodes, t->numa[i].os);
			found = true;
		}
	return found ? 0 : fail(err, MEMORY_E_NO_KIND, p, len);
}

/* One item, p[0..len): N, N-M, a kind, or "all". */
static int item(const struct topology *t, const char *p, size_t len,
		struct cpuset *nodes, struct memory_error *err)
{
	const char *dash = memchr(p, '-', len);
	unsigned long a, b;

	if (len == 3 && !strncasecmp(p, "all", 3)) {
		if (t) {
			struct cpuset all;

			memory_all(t, &all);
			cpulist_or(nodes, nodes, &all);
		}
		return 0;
	}
	if (number(p, len, &a))
		b = a;
	else if (!dash || !number(p, (size_t)(dash - p), &a) ||
		 !number(dash + 1, len - (size_t)(dash - p) - 1, &b))
		return kind(t, p, len, nodes, err);
	if (a > b) {
		err->value = a;
		err->value2 = b;
		return fail(err, MEMORY_E_REVERSED, p, len);
	}
	if (b >= MEMORY_MAX_NODES)
		return fail(err, MEMORY_E_TOO_LARGE, p, len);
	for (unsigned long n = a; n <= b; n++) {
		if (t && memory_node(t, (unsigned)n) < 0) {
			err->value = n;
			return fail(err, MEMORY_E_NO_NODE, p, len);
		}
		cpulist_add(nodes, (unsigned)n);
	}
	return 0;
}

int memory_parse(const struct topology *t, const char *spec,
		 struct cpuset *nodes, struct memory_error *err)
{
	const char *p = spec;

	memset(err, 0, sizeof(*err));
	cpulist_zero(nodes);
	if (!*spec)
		return fail(err, MEMORY_E_EMPTY, spec, 0);
	for (;;) {
		size_t len = strcspn(p, ",");

		if (!len)
			return fail(err, MEMORY_E_ITEM, p, 0);
		if (item(t, p, len, nodes, err) < 0)
			return -1;
		if (!p[len])
			return 0;
		p += len + 1;
		if (!*p)
			return fail(err, MEMORY_E_ITEM, p, 0);
	}
}

const char *memory_strerror(enum memory_err code)
{
	switch (code) {
	case MEMORY_OK:
		return "no error";
	case MEMORY_E_EMPTY:
		return "no node list after ':'";
	case MEMORY_E_ITEM:
		return "not a node number, a range or a node kind";
	case MEMORY_E_REVERSED:
		return "reversed range";
	case MEMORY_E_TOO_LARGE:
		return "node number too large";
	case MEMORY_E_NO_NODE:
		return "no such NUMA node";
	case MEMORY_E_NO_KIND:
		return "no NUMA node of the kind";
	case MEMORY_E_NCODES: /* a count, not a code */
		break;
	}
	return "unknown error";
}
