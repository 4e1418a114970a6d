/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errors.c: the words. Every error code a module returns is worded here,
 * one table per enum, each entry a template whose {names} this file fills
 * from the error and the facts the caller gives. The modules never word
 * anything; the command-line side prints these messages and exits. What
 * the user typed goes through msg_input, so an echo is always one line.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "message.h"

/* --- templates ----------------------------------------------------------- */

/* The values a template may name. Strings that came from the user are
 * already escaped when they are put here. */
struct fields {
	const char *input, *item, *what, *level, *type, *parent, *units;
	const char *spec, *cpus, *allowed, *usable, *hint, *machine, *var;
	const char *why, *comm, *value, *var2, *value2, *other, *os;
	unsigned long v, v2, max, arity;
};

static const struct {
	const char *name;
	size_t offset;
	bool number;
} names[] = {
#define S(n)                                                                   \
	{                                                                      \
#n, offsetof(struct fields, n), false                          \
	}
#define N(n)                                                                   \
	{                                                                      \
#n, offsetof(struct fields, n), true                           \
	}
	S(input),  S(item),  S(what),	 S(level),  S(type),
	S(parent), S(units), S(spec),	 S(cpus),   S(allowed),
	S(usable), S(hint),  S(machine), S(var),    S(why),
	S(comm),   S(value), S(var2),	 S(value2), S(other),
	S(os),	   N(v),     N(v2),	 N(max),    N(arity),
#undef S
#undef N
};

static char words[16384];

static const char *string_at(const struct fields *f, size_t i)
{
	const char *s =
	    *(const char *const *)((const char *)f + names[i].offset);

	return s ? s : "";
}

/* Fill template t from f into words. A name not in the table is a bug
 * that shows as "{?name}" (tests/unit/test_errors.c reads every table). */
static const char *expand(const char *t, const struct fields *f)
{
	size_t n = 0;

	while (*t && n + 1 < sizeof(words)) {
		const char *close = *t == '{' ? strchr(t, '}') : NULL;
		size_t i, len;

		if (!close) {
			words[n++] = *t++;
			continue;
		}
		len = (size_t)(close - t - 1);
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    !strncmp(names[i].name, t + 1, len))
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			n += (size_t)snprintf(words + n, sizeof(words) - n,
					      "{?%.*s}", (int)len, t + 1);
		else if (names[i].number)
			n += (size_t)snprintf(
			    words + n, sizeof(words) - n, "%lu",
			    *(const unsigned long *)((const char *)f +
						     names[i].offset));
		else
			n += (size_t)snprintf(words + n, sizeof(words) - n,
					      "%s", string_at(f, i));
		if (n >= sizeof(words))
			n = sizeof(words) - 1;
		t = close + 1;
	}
	words[n] = '\0';
	return words;
}

/* A table whose codes have several wordings, told apart by a variant. */
struct entry {
	int code, variant;
	const char *words;
};

static const char *lookup(const struct entry *table, size_t n, int code,
			  int variant)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].code == code && table[i].variant == variant)
			return table[i].words;
	return "{what}: failed";
}
#define LOOKUP(table, code, variant)                                           \
	lookup(table, sizeof(table) / sizeof(table[0]), (int)(code), variant)

/* --- CPU lists and masks -------------------------------------------------- */

static const char *const cpulist_words[] = {
	[CPULIST_E_EMPTY] = "invalid CPU list '{input}': empty",
	[CPULIST_E_EMPTY_ITEM] = "invalid CPU list '{input}': empty item",
	[CPULIST_E_TRAILING_COMMA] =
	    "invalid CPU list '{input}': trailing comma",
	[CPULIST_E_BAD_CHAR] =
	    "invalid CPU list '{input}': unexpected '{item}'",
	[CPULIST_E_NO_START] =
	    "invalid CPU list '{input}': missing start of range",
	[CPULIST_E_NO_END] = "invalid CPU list '{input}': missing end of range",
	[CPULIST_E_REVERSED] =
	    "invalid CPU list '{input}': range {v}-{v2} is reversed",
	[CPULIST_E_NO_STRIDE] =
	    "invalid CPU list '{input}': missing stride after ':'",
	[CPULIST_E_ZERO_STRIDE] = "invalid CPU list '{input}': stride 0",
	[CPULIST_E_STRIDE_NO_RANGE] =
	    "invalid CPU list '{input}': a stride needs a range (N-M:S)",
	[CPULIST_E_TOO_LARGE] = "invalid CPU list '{input}': CPU {item} is too "
				"large (the limit is {max})",
	[CPULIST_E_MASK_NO_DIGITS] =
	    "invalid CPU mask '{input}': no hex digits after 0x",
	[CPULIST_E_MASK_EMPTY_WORD] =
	    "invalid CPU mask '{input}': empty 32-bit word",
	[CPULIST_E_MASK_LONG_WORD] = "invalid CPU mask '{input}': a "
				     "comma-separated word has more than 8 "
				     "digits",
	[CPULIST_E_MASK_BAD_DIGIT] =
	    "invalid CPU mask '{input}': '{item}' is not a hex digit",
	[CPULIST_E_MASK_TOO_LARGE] =
	    "invalid CPU mask '{input}': it sets CPUs beyond {max}",
	[CPULIST_E_MASK_ZERO] = "invalid CPU mask '{input}': no CPU set",
};

/* The words for e, with input already escaped (it may name more than the
 * list: "1-' in '0-3 ~1-"). */
static const char *cpulist_message(const char *input,
				   const struct cpulist_error *e)
{
	struct fields f = {
		.input = input,
		.v = e->value,
		.v2 = e->value2,
		.max = CPULIST_MAX - 1,
	};

	if (e->code <= CPULIST_OK || e->code > CPULIST_E_MASK_ZERO)
		return expand("invalid CPU list '{input}'", &f);
	if (e->code == CPULIST_E_TOO_LARGE)
		f.item = msg_input_n(e->at, strspn(e->at, "0123456789"));
	else if (e->at)
		f.item = msg_input_n(e->at, 1);
	return expand(cpulist_words[e->code], &f);
}

const char *errors_cpulist(const char *input, const struct cpulist_error *e)
{
	return cpulist_message(msg_input(input), e);
}

/* --- locations --------------------------------------------------------- */

/* Which of a location error's wordings applies. */
enum {
	LOC_PHYSICAL = 1,
	LOC_SUGGEST,
	LOC_FILTER,
	LOC_EXPRESSION,
	LOC_IO,
	LOC_LIKWID,
	LOC_NUMACTL,
	LOC_SPACED,
};

static const struct entry location_words[] = {
	{ LOCATION_E_TYPE, 0,
	  "invalid location '{input}': unknown object type '{item}'" },
	{ LOCATION_E_TYPE, LOC_SUGGEST,
	  "invalid location '{input}': unknown object type '{item}'; did you "
	  "mean {other}?" },
	{ LOCATION_E_TYPE, LOC_LIKWID, "likwid-pin's {item} is {other}" },
	{ LOCATION_E_TYPE, LOC_NUMACTL,
	  "numactl's {item} counts in the allowed set: here it is {other}" },
	{ LOCATION_E_TYPE, LOC_SPACED,
	  "invalid location '{input}': hwloc's '{item}' goes right before its "
	  "location, without a space; did you mean {other}?" },
	{ LOCATION_E_OPERATOR, LOC_SPACED,
	  "invalid location '{input}': hwloc's '{item}' goes right before its "
	  "location, without a space; did you mean {other}?" },
	{ LOCATION_E_UNSUPPORTED, 0,
	  "invalid location '{input}': pinrun has no '{item}' objects (it "
	  "keeps the CPU tree and the NUMA nodes)" },
	{ LOCATION_E_UNSUPPORTED, LOC_IO,
	  "invalid location '{input}': '{item}' objects are I/O devices: "
	  "--near=<device> places near one" },
	{ LOCATION_E_UNSUPPORTED, LOC_FILTER,
	  "invalid location '{input}': '{item}': hwloc's filters and device "
	  "names are not supported" },
	{ LOCATION_E_NO_LEVEL, 0,
	  "invalid location '{input}': this topology has no {type} level" },
	{ LOCATION_E_GROUPS, 0,
	  "invalid location '{input}': there are {v} group levels, name one "
	  "as group0..group{v2}" },
	{ LOCATION_E_NO_INDEX, 0,
	  "invalid location '{input}': '{item}' needs an index, as in "
	  "'{item}:0'" },
	{ LOCATION_E_NO_INDEX, LOC_SUGGEST,
	  "invalid location '{input}': '{item}' needs an index; did you mean "
	  "{other}?" },
	{ LOCATION_E_BAD_INDEX, 0,
	  "invalid location '{input}': invalid index '{item}'" },
	{ LOCATION_E_REVERSED, 0,
	  "invalid location '{input}': range '{item}' is reversed" },
	{ LOCATION_E_NO_SUCH, 0,
	  "invalid location '{input}': {parent} has no {type} {v} (it has "
	  "{v2}){hint}" },
	{ LOCATION_E_NO_SUCH, LOC_PHYSICAL,
	  "invalid location '{input}': {parent} has no {type} with OS index "
	  "{v} ({os}){hint}" },
	{ LOCATION_E_NONE, 0,
	  "invalid location '{input}': '{item}' names no {type} ({parent} "
	  "has {v2})" },
	{ LOCATION_E_NONE, LOC_PHYSICAL,
	  "invalid location '{input}': '{item}' names no {type} ({parent} "
	  "has {os})" },
	{ LOCATION_E_NO_OS_INDEX, 0,
	  "invalid location '{input}': {type} objects have no OS index: give "
	  "a logical index, without --physical" },
	{ LOCATION_E_EMPTY_STEP, 0, "invalid location '{input}': empty step" },
	{ LOCATION_E_NO_CPUS, 0,
	  "location '{input}' has no online CPU that the cgroup allows" },
	{ LOCATION_E_NO_CPUS, LOC_EXPRESSION,
	  "location '{input}' names no CPU" },
	{ LOCATION_E_OPERATOR, 0,
	  "invalid location '{input}': '{item}' needs a location after it" },
	{ LOCATION_E_OPERATOR, LOC_SUGGEST,
	  "invalid location '{input}': '!' is numactl's; did you mean "
	  "{other}?" },
	{ LOCATION_E_NOMEM, 0, "location '{input}': out of memory" },
};

/* The object an index was relative to: "the machine", "package:1", or
 * with OS indexes "package P#1". */
static void parent_name(const struct topology *t,
			const struct location_error *e, char *buf, size_t size)
{
	if (e->in_numa && e->physical)
		snprintf(buf, size, "numa P#%u", t->numa[e->parent_numa].os);
	else if (e->in_numa)
		snprintf(buf, size, "numa:%u", e->parent_numa);
	else if (e->parent >= 0 && e->physical &&
		 t->objs[e->parent].os != UINT_MAX)
		snprintf(buf, size, "%s P#%u",
			 tree_type_name(t->objs[e->parent].type),
			 t->objs[e->parent].os);
	else if (e->parent >= 0)
		location_name(t, e->parent, buf, size);
	else
		snprintf(buf, size, "the machine");
}

const char *errors_spec(const char *option, const struct topology *t,
			const char *input, const struct location_error *e)
{
	char parent[64], hint[128] = "", other[160] = "", os[80];
	const char *type = tree_type_name(e->type);
	struct fields f = {
		.input = msg_input(input),
		.item = e->at ? msg_input_n(e->at, e->len) : "",
		.type = type,
		.parent = parent,
		.hint = hint,
		.other = other,
		.os = os,
		.v = e->value,
		.v2 = e->value2,
	};
	int variant = 0;

	if (e->code == LOCATION_E_CPULIST) {
		char both[600];

		if (e->nelems <= 1)
			return errors_cpulist(input, &e->list);
		snprintf(both, sizeof(both), "%s' in '%s",
			 msg_input_n(e->at, e->len), msg_input(input));
		return cpulist_message(both, &e->list);
	}
	parent_name(t, e, parent, sizeof(parent));
	snprintf(os, sizeof(os), e->os_indexes[0] ? "OS indexes %s" : "none",
		 e->os_indexes);
	if (e->code == LOCATION_E_NO_SUCH && e->has_other && !e->physical)
		snprintf(hint, sizeof(hint),
			 "; %s P#%lu is %s:%lu (--physical reads OS indexes)",
			 type, e->value, type, e->other);
	else if (e->code == LOCATION_E_NO_SUCH && e->has_other)
		snprintf(hint, sizeof(hint),
			 "; without --physical, %s:%lu is P#%lu", type,
			 e->value, e->other);
	if (e->physical &&
	    (e->code == LOCATION_E_NO_SUCH || e->code == LOCATION_E_NONE))
		variant = LOC_PHYSICAL;
	if (e->suggest[0]) {
		variant = LOC_SUGGEST;
		if (option && option[strlen(option) - 1] == '=')
			snprintf(other, sizeof(other), "%s%s", option,
				 msg_input(e->suggest));
		else if (option)
			snprintf(other, sizeof(other),
				 strpbrk(e->suggest, " ~^") ||
					 e->foreign == LOCATION_LIKWID
				     ? "%s '%s'"
				     : "%s %s",
				 option, msg_input(e->suggest));
		else
			snprintf(other, sizeof(other), "'%s'",
				 msg_input(e->suggest));
	}
	if (e->foreign == LOCATION_LIKWID)
		variant = LOC_LIKWID;
	else if (e->foreign == LOCATION_NUMACTL)
		variant = LOC_NUMACTL;
	else if (e->foreign == LOCATION_SPACED)
		variant = LOC_SPACED;
	if (e->code == LOCATION_E_UNSUPPORTED && e->io)
		variant = LOC_IO;
	if (e->code == LOCATION_E_UNSUPPORTED && e->at &&
	    (*e->at == '[' || *e->at == '='))
		variant = LOC_FILTER;
	if (e->code == LOCATION_E_GROUPS)
		f.v2 = e->value - 1;
	if (e->code == LOCATION_E_NO_CPUS && (e->nelems > 1 || !e->chain))
		variant = LOC_EXPRESSION;
	return expand(LOOKUP(location_words, e->code, variant), &f);
}

const char *errors_location(const struct topology *t, const char *input,
			    const struct location_error *e)
{
	return errors_spec(NULL, t, input, e);
}

/* --- policies ------------------------------------------------------------ */

/* Which of an error's wordings applies. */
enum {
	PLAIN,
	UNUSABLE,    /* DOMAIN_EMPTY: the domain has no usable CPU at all */
	IN_KERNEL,   /* OFFLINE: the kernel says so */
	IN_CGROUP,   /* OFFLINE: online, but not in the cgroup's cpuset */
	IN_TOPOLOGY, /* OFFLINE: planning for another machine */
	OS_MATCH,    /* NO_SUCH: an object has that OS index */
	BARE_NUMBER  /* NOT_EXIST: the spec is digits, which taskset reads
		      * as a mask */
};

static const struct entry policy_words[] = {
	{ POLICY_E_NOMEM, PLAIN, "{what}: out of memory" },
	{ POLICY_E_NO_LEVEL, PLAIN,
	  "{what}: this topology has no {level} level" },
	{ POLICY_E_NO_SUCH, PLAIN,
	  "{what}: there is no {level} {v} (the topology has {v2})" },
	{ POLICY_E_NO_SUCH, OS_MATCH,
	  "{what}: there is no {level} {v} (the topology has {v2}); {level} "
	  "P#{v} is --{item}={other} (or add --physical)" },
	{ POLICY_E_DOMAIN_EMPTY, PLAIN,
	  "{what}: no CPU of {level} {v} ({cpus}) is in the allowed set "
	  "{allowed}{hint}" },
	{ POLICY_E_DOMAIN_EMPTY, UNUSABLE,
	  "{what}: {level} {v} has no online CPU that the cgroup allows" },
	{ POLICY_E_TOO_MANY, PLAIN, "{what}: only {v2} {units} allowed" },
	{ POLICY_E_NOT_EXIST, PLAIN,
	  "CPU {v} does not exist ({machine} has CPUs {cpus})" },
	{ POLICY_E_NOT_EXIST, BARE_NUMBER,
	  "CPU {v} does not exist ({machine} has CPUs {cpus}); '{spec}' is "
	  "read as a CPU list: taskset's mask {spec} is --cpus 0x{spec}" },
	{ POLICY_E_OFFLINE, IN_KERNEL, "CPU {v} is offline" },
	{ POLICY_E_OFFLINE, IN_CGROUP,
	  "CPU {v} is not in this cgroup's cpuset {usable}" },
	{ POLICY_E_OFFLINE, IN_TOPOLOGY,
	  "CPU {v} is offline or disallowed in the topology (usable: "
	  "{usable})" },
	{ POLICY_E_NOT_ALLOWED, PLAIN,
	  "CPU {v} is not in the allowed set {allowed}{hint}" },
	{ POLICY_E_HOT_NOT_ONE, PLAIN,
	  "{what}: '{spec}' names {v} CPUs; --hot takes exactly one" },
	{ POLICY_E_CURRENT, PLAIN,
	  "{what}: the current CPU {v} is not in the allowed set {allowed}" },
	{ POLICY_E_NOTHING, PLAIN, "{what}: no CPU is allowed" },
	{ POLICY_E_NOT_UNDER, PLAIN,
	  "{what}: CPU {v}, where pinrun runs, is under no {level}" },
	{ POLICY_E_NONE_ALLOWED, PLAIN,
	  "{what}: no {level} has a CPU in the allowed set {allowed}" },
};

/* "PUs are", "core is", "cores are": what N units are. */
static const char *units_word(bool pus, unsigned long n)
{
	if (pus)
		return n == 1 ? "PU is" : "PUs are";
	return n == 1 ? "core is" : "cores are";
}

const char *errors_policy(const struct policy_error *e,
			  const struct policy_facts *pf)
{
	char other[32];
	struct fields f = {
		.what = pf->what,
		.level = policy_desc(pf->kind)->noun,
		.units = units_word(pf->smt == POLICY_SMT_ALL, e->value2),
		.spec = pf->spec ? msg_input(pf->spec) : "",
		.allowed = pf->allowed ? msg_cpus(pf->allowed) : "",
		.usable = pf->usable ? msg_cpus(pf->usable) : "",
		.hint =
		    pf->all ? "" : " (use --all to leave the inherited mask)",
		.machine = pf->this_system ? "this machine" : "the topology",
		.v = e->value,
		.v2 = e->value2,
	};
	int variant = PLAIN;

	if (e->code == POLICY_E_NOT_EXIST)
		f.cpus = msg_cpus(pf->complete);
	if (e->code == POLICY_E_NOT_EXIST && pf->spec && *pf->spec &&
	    strspn(pf->spec, "0123456789") == strlen(pf->spec))
		variant = BARE_NUMBER;
	if (e->code == POLICY_E_DOMAIN_EMPTY) {
		f.cpus = msg_cpus(pf->domain);
		if (cpulist_empty(pf->domain))
			variant = UNUSABLE;
	}
	if (e->code == POLICY_E_OFFLINE)
		variant = !pf->this_system ? IN_TOPOLOGY
			  : pf->offline	   ? IN_KERNEL
					   : IN_CGROUP;
	if (e->code == POLICY_E_NO_SUCH && pf->has_os_match) {
		snprintf(other, sizeof(other), "%lu", pf->os_match);
		f.item = policy_name(pf->kind);
		f.other = other;
		variant = OS_MATCH;
	}
	return expand(LOOKUP(policy_words, e->code, variant), &f);
}

const char *errors_physical(const struct index_facts *pf)
{
	char hint[128] = "";
	struct fields f = {
		.what = pf->what,
		.level = policy_desc(pf->kind)->noun,
		.os = pf->os_list,
		.hint = hint,
		.v = pf->value,
	};

	if (pf->no_os)
		return expand("{what}: {level}s have no OS index: give a "
			      "logical index, without --physical",
			      &f);
	if (pf->has_other)
		snprintf(hint, sizeof(hint),
			 "; without --physical, %s %lu is OS index %lu",
			 f.level, pf->value, pf->other);
	return expand("{what}: there is no {level} with OS index {v} (OS "
		      "indexes {os}){hint}",
		      &f);
}

/* --- --share ---------------------------------------------------------------
 */

/* The wordings of one launcher error. */
enum { LW_PLAIN, LW_AUTO_N, LW_COUNT, LW_TASKS, LW_NODES };

static const struct entry launcher_words[] = {
	{ LAUNCHER_E_SYNTAX, LW_PLAIN,
	  "invalid --share value '{input}': expected I/N (I from 1 to N), "
	  "auto or auto/N" },
	{ LAUNCHER_E_TOO_LARGE, LW_PLAIN,
	  "invalid --share value '{input}': {what} is over {max}" },
	{ LAUNCHER_E_RANGE, LW_PLAIN,
	  "invalid --share: part {v} of {v2} (parts count from 1 to the "
	  "number of parts)" },
	{ LAUNCHER_E_RANGE, LW_AUTO_N,
	  "invalid --share value '{input}': N counts from 1" },
	{ LAUNCHER_E_NONE, LW_PLAIN,
	  "--share {input}: none of the launcher variables is set "
	  "(OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_STEP_ID, "
	  "SLURM_JOB_ID; or auto/N with PARALLEL_JOBSLOT)" },
	{ LAUNCHER_E_NO_SLOT, LW_PLAIN,
	  "--share {input}: PARALLEL_JOBSLOT is not set (auto/N is for GNU "
	  "parallel's jobs; auto reads Slurm's and MPI's variables)" },
	{ LAUNCHER_E_BAD_VALUE, LW_PLAIN,
	  "--share {input}: invalid {var} '{value}': {why}" },
	{ LAUNCHER_E_MISSING, LW_PLAIN,
	  "--share {input}: {var} is set, but not {var2}" },
	{ LAUNCHER_E_BEYOND, LW_COUNT,
	  "--share {input}: {var}={value} is not below {var2}={value2}" },
	{ LAUNCHER_E_BEYOND, LW_TASKS,
	  "--share {input}: {var}={value} is not below this node's {v2} "
	  "tasks ({var2}={value2})" },
	{ LAUNCHER_E_BEYOND, LW_NODES,
	  "--share {input}: {var}={value} is not below the {v2} nodes of "
	  "{var2}={value2}" },
	{ LAUNCHER_E_NOMEM, LW_PLAIN, "out of memory" },
	{ LAUNCHER_E_TOO_MANY, LW_PLAIN,
	  "--share {v}/{v2}: only {max} {units} allowed{hint}" },
};

static const char *const launcher_why_words[] = {
	[LAUNCHER_WHY_NUMBER] = "not a number",
	[LAUNCHER_WHY_TOO_LARGE] = "a number over 4294967295",
	[LAUNCHER_WHY_ZERO] = "it counts from 1",
	[LAUNCHER_WHY_FLAG] = "expected 0 or 1",
	[LAUNCHER_WHY_TASKS] = "expected task counts such as 2(x3),1",
	[LAUNCHER_WHY_BIND_TYPE] = "not a binding type Slurm sets",
	[LAUNCHER_WHY_BIND_ENTRY] =
	    "expected masks or CPU numbers such as 0x1,0x2",
	[LAUNCHER_WHY_NOT_HERE] =
	    "this task's entry has no CPU of this topology",
};

const char *errors_launcher(const char *spec, const struct launcher_error *e,
			    bool pus)
{
	int variant = LW_PLAIN;
	struct fields f = {
		.input = msg_input(spec),
		.what = e->var && !strcmp(e->var, "I") ? "the part number"
						       : "the number of parts",
		.var = e->var,
		.value = e->value ? msg_input(e->value) : "",
		.var2 = e->var2,
		.value2 = e->value2 ? msg_input(e->value2) : "",
		.why = launcher_why_words[e->why],
		.units = units_word(pus, e->units),
		.hint = pus ? "" : " (--smt shares PUs instead)",
		.v = e->number,
		.v2 = e->number2,
		.max = e->code == LAUNCHER_E_TOO_MANY ? e->units : LAUNCHER_MAX,
	};

	if (e->code == LAUNCHER_E_RANGE && !e->number2)
		variant = LW_AUTO_N;
	if (e->code == LAUNCHER_E_BEYOND)
		variant = !strstr(e->var2, "TASKS_PER_NODE") ? LW_COUNT
			  : !strcmp(e->var, "SLURM_NODEID")  ? LW_NODES
							     : LW_TASKS;
	return expand(LOOKUP(launcher_words, e->code, variant), &f);
}

/* --- topologies ---------------------------------------------------------- */

static const char *const topo_words[] = {
	[TOPO_E_NOMEM] = "out of memory",
	[TOPO_E_SYSTEM] = "{why}",
	[TOPO_E_INVALID] = "{why}",
	[TOPO_E_ENV] = "unset the variable, or fix it",
	[TOPO_E_LIBRARY] = "cannot load libhwloc ({why})",
	[TOPO_E_CRASHED] = "hwloc crashed reading it",
	[TOPO_E_TIMEOUT] = "hwloc was still reading it after {v} seconds",
	[TOPO_E_DUP_PU] = "two of its PUs have the same CPU number",
	[TOPO_E_NESTED] = "it has an object inside another of its own type",
	[TOPO_E_TOO_LARGE] = "too large for pinrun (at most {max} CPUs, "
			     "numbered below {max}, and {arity} children per "
			     "object)",
};

/* What hwloc could not make sense of, by the kind of source. */
static const char *const invalid_words[] = {
	[TOPO_SRC_LIVE] = "hwloc could not read it",
	[TOPO_SRC_XML] = "not an hwloc XML topology",
	[TOPO_SRC_SYNTHETIC] = "not a valid synthetic description",
	[TOPO_SRC_FSROOT] = "not a saved sysfs tree",
};

const char *errors_topo(const struct topo_error *e, enum topo_source_kind kind,
			const char *arg, const char *env_var)
{
	char why[256];
	struct fields f = {
		.why = e->code == TOPO_E_INVALID ? invalid_words[kind]
		       : e->sys			 ? strerror(e->sys)
						 : "",
		.v = TOPO_LOAD_LIMIT_S,
		.max = CPULIST_MAX,
		.arity = TOPO_MAX_ARITY,
	};

	snprintf(why, sizeof(why), "%s", expand(topo_words[e->code], &f));
	f.why = why;
	f.var = env_var;
	f.input = arg ? msg_input(arg) : "";
	if (env_var)
		return expand("cannot read the topology that {var} names "
			      "('{input}'): {why}",
			      &f);
	if (kind == TOPO_SRC_LIVE)
		return expand("cannot read this machine's topology: {why}", &f);
	return expand("cannot read topology '{input}': {why}", &f);
}

/* --- devices (--near) ---------------------------------------------------- */

enum { BY_PCI = 1, NONE_THERE = 2 };

static const struct entry device_words[] = {
	{ DEVICES_E_EMPTY, PLAIN,
	  "invalid --near value '{input}': no device name" },
	{ DEVICES_E_EMPTY, BY_PCI,
	  "invalid --near value '{input}': no PCI bus id after 'pci='" },
	{ DEVICES_E_BAD_PCI, BY_PCI,
	  "invalid --near value '{input}': expected a PCI bus id such as "
	  "0000:3b:00.0" },
	{ DEVICES_E_UNKNOWN, PLAIN,
	  "unknown device '{input}': {machine} has {why}" },
	{ DEVICES_E_UNKNOWN, NONE_THERE,
	  "unknown device '{input}': {machine} has no I/O device{hint}" },
	{ DEVICES_E_UNKNOWN, BY_PCI,
	  "unknown PCI device '{input}': {machine} has {why}" },
	{ DEVICES_E_UNKNOWN, BY_PCI | NONE_THERE,
	  "unknown PCI device '{input}': {machine} has no PCI device{hint}" },
	{ DEVICES_E_AMBIGUOUS, PLAIN,
	  "device name '{input}' is ambiguous: {machine} has two, under "
	  "{item} and {what}: name the one meant as pci=<bus id>" },
	{ DEVICES_E_AMBIGUOUS, BY_PCI,
	  "PCI device '{input}' is ambiguous: {machine} has two, under {item} "
	  "and {what}" },
};

/* Where an OS device is: under its PCI device, or at its object. */
static void device_place(const struct topology *t, int dev, char *buf,
			 size_t size)
{
	if (t->devs[dev].busid[0] && t->devs[dev].type != TOPO_DEV_PCI)
		snprintf(buf, size, "pci=%s", t->devs[dev].busid);
	else
		location_name(t, t->devs[dev].attach, buf, size);
}

const char *errors_devices(const char *spec, const struct topology *t,
			   const struct devices_error *e)
{
	char some[512] = "", a[64] = "", b[64] = "";
	struct fields f = {
		.input = msg_input(spec),
		.machine =
		    t && t->this_system ? "this machine" : "the topology",
		.item = a,
		.what = b,
		/* A cached table may miss a device plugged in since. */
		.hint = t && t->this_system ? " that hwloc finds" : "",
	};
	int variant = e->pci ? BY_PCI : PLAIN;

	if (e->code == DEVICES_E_UNKNOWN && t) {
		devices_some(t, e->pci != 0, 8, some, sizeof(some));
		if (!some[0])
			variant |= NONE_THERE;
	}
	/* Names come from the topology: escaped like input. */
	f.why = msg_input(some);
	if (e->code == DEVICES_E_AMBIGUOUS && t && e->first >= 0 &&
	    e->second >= 0 && (unsigned)e->first < t->ndevs &&
	    (unsigned)e->second < t->ndevs) {
		device_place(t, e->first, a, sizeof(a));
		device_place(t, e->second, b, sizeof(b));
	}
	return expand(LOOKUP(device_words, e->code, variant), &f);
}

/* --- memory nodes (--mem) ------------------------------------------------ */

enum { EMPTY_ITEM = 1, NO_KINDS };

static const struct entry memory_words[] = {
	{ MEMORY_E_EMPTY, PLAIN,
	  "invalid --mem value '{input}': no node list after ':'" },
	{ MEMORY_E_ITEM, PLAIN,
	  "invalid --mem value '{input}': '{item}' is not a node number, a "
	  "range or a node kind" },
	{ MEMORY_E_ITEM, EMPTY_ITEM,
	  "invalid --mem value '{input}': empty item" },
	{ MEMORY_E_REVERSED, PLAIN,
	  "invalid --mem value '{input}': range {v}-{v2} is reversed" },
	{ MEMORY_E_TOO_LARGE, PLAIN,
	  "invalid --mem value '{input}': node {item} is too large (the limit "
	  "is {max})" },
	{ MEMORY_E_NO_NODE, PLAIN,
	  "--mem={input}: {machine} has no NUMA node {v} (its nodes: {why})" },
	{ MEMORY_E_NO_KIND, PLAIN,
	  "--mem={input}: no NUMA node of {machine} is of kind '{item}' (its "
	  "kinds: {why})" },
	{ MEMORY_E_NO_KIND, NO_KINDS,
	  "--mem={input}: no NUMA node of {machine} is of kind '{item}' (its "
	  "nodes have no kind)" },
};

const char *errors_memory(const char *arg, const struct topology *t,
			  const struct memory_error *e)
{
	char some[512] = "";
	struct cpuset nodes;
	struct fields f = {
		.input = msg_input(arg),
		.item = e->at ? msg_input_n(e->at, e->len) : "",
		.machine =
		    t && t->this_system ? "this machine" : "the topology",
		.why = some,
		.v = e->value,
		.v2 = e->value2,
		.max = MEMORY_MAX_NODES - 1,
	};
	int variant = PLAIN;

	if (e->code == MEMORY_E_ITEM && !e->len)
		variant = EMPTY_ITEM;
	if (e->code == MEMORY_E_NO_NODE && t) {
		memory_all(t, &nodes);
		cpulist_format(&nodes, some, sizeof(some));
	}
	if (e->code == MEMORY_E_NO_KIND && t &&
	    !memory_kinds(t, some, sizeof(some)))
		variant = NO_KINDS;
	return expand(LOOKUP(memory_words, e->code, variant), &f);
}

/* --- follow mode ---------------------------------------------------------- */

enum { BY_SECCOMP = 1, BY_YAMA };

static const struct entry follow_words[] = {
	{ FOLLOW_TRACED, PLAIN, "pinrun is being traced by pid {v} ({comm})" },
	{ FOLLOW_DENIED, PLAIN, "ptrace is denied: {why}" },
	{ FOLLOW_DENIED, BY_SECCOMP, "ptrace is denied by a seccomp filter" },
	{ FOLLOW_DENIED, BY_YAMA,
	  "ptrace is denied by Yama (ptrace_scope {v})" },
	{ FOLLOW_NO_SEIZE, PLAIN, "the kernel has no PTRACE_SEIZE" },
	{ FOLLOW_NO_HELPER, PLAIN, "cannot start the tracer: {why}" },
};

const char *errors_follow(const struct follow_start *st,
			  const struct follow_facts *ff)
{
	struct fields f = {
		.comm = ff->comm ? ff->comm : "?",
		.why = st->err ? strerror(st->err) : "",
		.v = st->why == FOLLOW_TRACED ? (unsigned long)st->tracer
					      : (unsigned long)ff->yama_scope,
	};
	int variant = PLAIN;

	if (st->why == FOLLOW_DENIED && ff->seccomp_mode == 2)
		variant = BY_SECCOMP;
	else if (st->why == FOLLOW_DENIED && ff->yama_scope >= 2)
		variant = BY_YAMA;
	return expand(LOOKUP(follow_words, st->why, variant), &f);
}
