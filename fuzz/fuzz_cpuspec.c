/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_cpuspec.c: libFuzzer harness for what --cpus and --hot=SPEC take: a
 * taskset list, a hex mask, or an hwloc location. The input is the spec
 * (up to its first NUL). Every parser sees every input, as pinrun's own
 * syntax guess may be wrong; what parses must format and parse back to the
 * same CPUs. Pure modules only: no hwloc, no I/O.
 */
#include "fuzz.h"

/* A regular machine as tests/unit/check.h builds it: packages x l3s x
 * cores x pus, a NUMA node per package, SMT siblings interleaved. */
static struct topology *regular(void)
{
	struct topology *t = tree_new("fuzz regular");
	unsigned c = 0;
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);

	for (unsigned p = 0; p < 2; p++) {
		int pk = tree_add(t, TOPO_PACKAGE, m, -1, p);

		tree_add_numa(t, pk, p);
		for (unsigned l = 0; l < 2; l++) {
			int l3 = tree_add(t, TOPO_L3, pk, -1, 0);

			for (unsigned k = 0; k < 2; k++, c++) {
				int co = tree_add(t, TOPO_CORE, l3, -1, c);

				for (unsigned u = 0; u < 2; u++)
					tree_add(t, TOPO_PU, co, -1, c + u * 8);
			}
		}
	}
	return t;
}

/* Groups at two levels (s390x drawers and books), NUMA nodes sharing an
 * object (KNL's DDR and MCDRAM), CPU numbers with holes, and hybrid cores:
 * the first core of each book is the fast kind. */
static struct topology *groups(void)
{
	struct topology *t = tree_new("fuzz groups");
	unsigned cpu = 3, node = 0;
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);

	for (int d = 0; d < 2; d++) {
		int g0 = tree_add(t, TOPO_GROUP, m, -1, 0);

		tree_add_numa(t, g0, node++);
		tree_add_numa(t, g0, node++);
		for (int b = 0; b < 2; b++) {
			int g1 = tree_add(t, TOPO_GROUP, g0, -1, 0);

			for (int k = 0; k < 2; k++) {
				int co = tree_add(t, TOPO_CORE, g1, -1, cpu);

				for (int u = 0; u < 2; u++) {
					int pu =
					    tree_add(t, TOPO_PU, co, -1, cpu);

					tree_set_kind(t, pu, k == 0 ? 1 : 0);
					cpu += 5;
				}
			}
		}
	}
	return t;
}

/* Every cache level (private L2 and L1 under each core, which
 * policy_cover names by the core), a die, uneven subtrees, the highest
 * CPU number pinrun takes, and a package and a NUMA node without CPUs
 * (a cgroup took them). Depths are given so levels stay whole. */
static struct topology *caches(void)
{
	struct topology *t = tree_new("fuzz caches");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, 0, 0);
	int p0 = tree_add(t, TOPO_PACKAGE, m, 1, 0);
	int p1;
	unsigned cpu = 0;

	tree_add_numa(t, p0, 0);
	for (int d = 0; d < 2; d++) {
		int die = tree_add(t, TOPO_DIE, p0, 2, (unsigned)d);
		int l3 = tree_add(t, TOPO_L3, die, 3, 0);

		for (int k = 0; k < (d ? 1 : 3); k++) {
			int l2 = tree_add(t, TOPO_L2, l3, 4, 0);
			int l1 = tree_add(t, TOPO_L1, l2, 5, 0);
			int co = tree_add(t, TOPO_CORE, l1, 6, cpu);

			if (d) {
				tree_add(t, TOPO_PU, co, 7, CPULIST_MAX - 1);
				continue;
			}
			tree_add(t, TOPO_PU, co, 7, cpu++);
			tree_add(t, TOPO_PU, co, 7, cpu++);
		}
	}
	p1 = tree_add(t, TOPO_PACKAGE, m, 1, 1);
	tree_add_numa(t, p1, 1);
	return t;
}

/* One CPU and nothing between it and the machine. */
static struct topology *single(void)
{
	struct topology *t = tree_new("fuzz single");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);

	tree_add(t, TOPO_PU, m, -1, 0);
	return t;
}

#define NTOPOS 4
static struct topology *topos[NTOPOS];

static void build(void)
{
	struct topology *(*const makers[NTOPOS])(void) = { regular, groups,
							   caches, single };

	for (int i = 0; i < NTOPOS; i++) {
		topos[i] = makers[i]();
		FUZZ_CHECK(topos[i] && tree_finish(topos[i]) == 0);
	}
}

/* Where a parser says the error is, pinrun prints from: inside the spec. */
static void check_at(const char *spec, const char *at, size_t len)
{
	size_t n = strlen(spec);

	FUZZ_CHECK(at >= spec && at <= spec + n);
	FUZZ_CHECK(len <= (size_t)(spec + n - at));
}

/* set written as a mask ("0x0000000f,ffffffff", most significant word
 * first), for cpulist_parse_mask to read back. */
static char *mask_text(const struct cpuset *set)
{
	int last = cpulist_last(set);
	unsigned words = last < 0 ? 1 : (unsigned)last / 32 + 1;
	char *s = malloc(words * 11 + 3), *p = s;

	FUZZ_CHECK(s);
	for (unsigned w = words; w-- > 0;) {
		unsigned long v = 0;

		for (unsigned b = 0; b < 32; b++)
			if (cpulist_has(set, w * 32 + b))
				v |= 1UL << b;
		p += sprintf(p, "%s%08lx", w == words - 1 ? "0x" : ",", v);
	}
	return s;
}

/* What parsed formats as a list that parses back the same, and as a mask
 * that does too; short buffers hold whole items. */
static void check_set(const struct cpuset *set)
{
	struct cpulist_error err;
	struct cpuset back;
	size_t len = cpulist_format(set, NULL, 0), small = len / 3 + 1;
	char *text = cpulist_str(set), *buf = malloc(small), *mask;

	FUZZ_CHECK(text && buf);
	FUZZ_CHECK(strlen(text) == len);
	fuzz_check_prefix(text, len, buf, small,
			  cpulist_format(set, buf, small));
	free(buf);
	if (!cpulist_empty(set)) {
		FUZZ_CHECK(cpulist_parse_list(text, &back, &err) == 0);
		FUZZ_CHECK(cpulist_equal(&back, set));
		mask = mask_text(set);
		FUZZ_CHECK(cpulist_syntax(mask) == CPULIST_SYNTAX_MASK);
		FUZZ_CHECK(cpulist_parse_mask(mask, &back, &err) == 0);
		FUZZ_CHECK(cpulist_equal(&back, set));
		free(mask);
	}
	free(text);
}

static void check_list(const char *spec)
{
	struct cpulist_error err;
	struct cpuset set;

	if (cpulist_parse_list(spec, &set, &err) < 0) {
		FUZZ_CHECK(err.code != CPULIST_OK);
		/* pinrun prints the character at, and the digits from it. */
		if (err.code == CPULIST_E_BAD_CHAR ||
		    err.code == CPULIST_E_TOO_LARGE) {
			check_at(spec, err.at, 0);
			FUZZ_CHECK(err.code != CPULIST_E_BAD_CHAR || *err.at);
		}
		return;
	}
	FUZZ_CHECK(err.code == CPULIST_OK && !cpulist_empty(&set));
	FUZZ_CHECK(cpulist_last(&set) < CPULIST_MAX);
	check_set(&set);
}

static void check_mask(const char *spec)
{
	struct cpulist_error err;
	struct cpuset set;

	if (cpulist_parse_mask(spec, &set, &err) < 0) {
		FUZZ_CHECK(err.code != CPULIST_OK);
		if (err.code == CPULIST_E_MASK_BAD_DIGIT)
			check_at(spec, err.at, 1);
		return;
	}
	FUZZ_CHECK(err.code == CPULIST_OK && !cpulist_empty(&set));
	check_set(&set);
}

/* Does spec hold locations of the topology only (no list or mask, whose
 * CPUs need not exist)? */
static bool only_objects(const char *spec)
{
	char *copy = strdup(spec), *save = NULL;
	bool only = true;

	FUZZ_CHECK(copy);
	for (char *w = strtok_r(copy, " \t", &save); w && only;
	     w = strtok_r(NULL, " \t", &save)) {
		w += *w == '~' || *w == 'x' || *w == '^';
		only = cpulist_syntax(w) == CPULIST_SYNTAX_LOCATION;
	}
	free(copy);
	return only;
}

static void check_location(const struct topology *t, const char *spec,
			   bool physical)
{
	struct location_opts opts = { .physical = physical };
	struct location_error err;
	struct cpuset set;

	if (location_eval(t, spec, &opts, &set, &err) < 0) {
		FUZZ_CHECK(err.code != LOCATION_OK);
		FUZZ_CHECK(err.physical == physical);
		/* What pinrun's messages read from the error. */
		switch (err.code) {
		case LOCATION_E_TYPE:
		case LOCATION_E_UNSUPPORTED:
		case LOCATION_E_NO_INDEX:
		case LOCATION_E_BAD_INDEX:
		case LOCATION_E_REVERSED:
		case LOCATION_E_NO_SUCH:
		case LOCATION_E_NONE:
		case LOCATION_E_NO_OS_INDEX:
		case LOCATION_E_OPERATOR:
		case LOCATION_E_CPULIST:
			check_at(spec, err.at, err.len);
			break;
		default:
			break;
		}
		FUZZ_CHECK(err.type < TOPO_NTYPES);
		FUZZ_CHECK(
		    err.parent == -1 ||
		    (err.parent >= 0 && (unsigned)err.parent < t->nobjs));
		FUZZ_CHECK(!err.in_numa || err.parent_numa < t->nnuma);
		FUZZ_CHECK(memchr(err.suggest, '\0', sizeof(err.suggest)));
		FUZZ_CHECK(
		    memchr(err.os_indexes, '\0', sizeof(err.os_indexes)));
		if (err.code == LOCATION_E_GROUPS)
			FUZZ_CHECK(err.value >= 2);
		return;
	}
	FUZZ_CHECK(!cpulist_empty(&set));
	if (only_objects(spec)) {
		FUZZ_CHECK(cpulist_subset(&set, &t->usable));
		fuzz_check_cover(t, &set, true);
	}
	check_set(&set);
}

/* The CPUs a list or mask names, planned as --cpus on a topology. */
static void check_cpus_policy(const struct topology *t,
			      const struct cpuset *set)
{
	struct policy_request req;
	struct cpuset inside;

	memset(&req, 0, sizeof(req));
	req.kind = POLICY_CPUS;
	req.which = POLICY_WHICH_INDEX;
	req.cpus = *set;
	req.allowed = t->usable;
	req.current_cpu = -1;
	fuzz_check_plan(t, &req, true);
	cpulist_and(&inside, set, &t->usable);
	if (!cpulist_empty(&inside))
		fuzz_check_cover(t, &inside, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_string(data, size);
	enum cpulist_syntax syntax;
	struct cpulist_error err;
	struct cpuset set;
	int r;

	if (!topos[0])
		build();
	syntax = cpulist_syntax(spec);
	FUZZ_CHECK(syntax == CPULIST_SYNTAX_LIST ||
		   syntax == CPULIST_SYNTAX_MASK ||
		   syntax == CPULIST_SYNTAX_LOCATION);
	check_list(spec);
	check_mask(spec);
	for (int i = 0; i < NTOPOS; i++) {
		check_location(topos[i], spec, false);
		check_location(topos[i], spec, true);
	}
	/* As pinrun reads it. */
	r = syntax == CPULIST_SYNTAX_LIST ? cpulist_parse_list(spec, &set, &err)
	    : syntax == CPULIST_SYNTAX_MASK
		? cpulist_parse_mask(spec, &set, &err)
		: -1;
	if (r == 0)
		for (int i = 0; i < NTOPOS; i++)
			check_cpus_policy(topos[i], &set);
	free(spec);
	return 0;
}
