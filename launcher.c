/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher.c: --share's part, given as I/N or worked out from what a
 * launcher tells each process it starts on a node (Open MPI, MPICH's
 * Hydra, Slurm, GNU parallel): the process's local rank and count, and
 * whether the launcher bound the ranks' CPUs and how. It reads the
 * environment and the flattened topology it is handed, and nothing else;
 * errors.c words what went wrong, output.c explains the decision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "envp.h"
#include "launcher.h"
#include "num.h"
#include "policy.h"

/* A plain decimal number of len characters, up to LAUNCHER_MAX. */
static bool number(const char *s, size_t len, unsigned long *out,
		   enum launcher_why *why)
{
	enum num_err r = num_decimal(s, len, 0, LAUNCHER_MAX, out, NULL);

	*why = r == NUM_E_RANGE ? LAUNCHER_WHY_TOO_LARGE : LAUNCHER_WHY_NUMBER;
	return r == NUM_OK;
}

static int fail(struct launcher_error *err, enum launcher_err code,
		const char *var, const char *value)
{
	err->code = code;
	err->var = var;
	err->value = value;
	return -1;
}

static int bad_value(struct launcher_error *err, enum launcher_why why,
		     const char *var, const char *value)
{
	err->why = why;
	return fail(err, LAUNCHER_E_BAD_VALUE, var, value);
}

/* var needs var2, which is not set. */
static int missing(struct launcher_error *err, const char *var,
		   const char *value, const char *var2)
{
	err->var2 = var2;
	return fail(err, LAUNCHER_E_MISSING, var, value);
}

/* var's value (number) is not below number2, which var2 gives. */
static int beyond(struct launcher_error *err, const char *var,
		  const char *value, unsigned long number, const char *var2,
		  const char *value2, unsigned long number2)
{
	err->var2 = var2;
	err->value2 = value2;
	err->number = number;
	err->number2 = number2;
	return fail(err, LAUNCHER_E_BEYOND, var, value);
}

int launcher_parse(const char *text, struct launcher_spec *spec,
		   struct launcher_error *err)
{
	const char *slash = strchr(text, '/');
	size_t head = slash ? (size_t)(slash - text) : strlen(text);
	bool is_auto = head == 4 && !strncmp(text, "auto", 4), ok_i, ok_n;
	enum launcher_why why_i = LAUNCHER_WHY_NUMBER, why_n = why_i;

	memset(spec, 0, sizeof(*spec));
	memset(err, 0, sizeof(*err));
	ok_i = is_auto || (slash && number(text, head, &spec->index, &why_i));
	ok_n = !slash ||
	       number(slash + 1, strlen(slash + 1), &spec->count, &why_n);
	/* Wrong syntax anywhere first, then a number too large. */
	if ((!ok_i && why_i != LAUNCHER_WHY_TOO_LARGE) ||
	    (!ok_n && why_n != LAUNCHER_WHY_TOO_LARGE))
		return fail(err, LAUNCHER_E_SYNTAX, NULL, NULL);
	if (!ok_i)
		return fail(err, LAUNCHER_E_TOO_LARGE, "I", text);
	if (!ok_n)
		return fail(err, LAUNCHER_E_TOO_LARGE, "N", slash + 1);
	spec->mode = !is_auto ? LAUNCHER_SHARE_GIVEN
		     : slash  ? LAUNCHER_SHARE_AUTO_N
			      : LAUNCHER_SHARE_AUTO;
	if (slash &&
	    (!spec->count || (spec->mode == LAUNCHER_SHARE_GIVEN &&
			      (!spec->index || spec->index > spec->count)))) {
		err->number = spec->index;
		err->number2 = spec->count;
		return fail(err, LAUNCHER_E_RANGE, NULL, NULL);
	}
	return 0;
}

/* Remember a variable for --explain. */
static const char *note(struct launcher_decision *d, char *const *envp,
			const char *name)
{
	const char *value = envp_get(envp, name);

	if (d->nvars < LAUNCHER_VARS) {
		d->vars[d->nvars].name = name;
		d->vars[d->nvars++].value = value;
	}
	return value;
}

/* A variable holding a number, or a count (from 1). */
static int env_number(struct launcher_decision *d, char *const *envp,
		      const char *name, bool count, unsigned long *out,
		      struct launcher_error *err)
{
	const char *v = note(d, envp, name);
	enum launcher_why why;

	if (!number(v, v ? strlen(v) : 0, out, &why))
		return bad_value(err, why, name, v);
	if (count && !*out)
		return bad_value(err, LAUNCHER_WHY_ZERO, name, v);
	return 0;
}

/* A flag the launcher sets to 1: false when not set. */
static int env_flag(struct launcher_decision *d, char *const *envp,
		    const char *name, bool *out, struct launcher_error *err)
{
	const char *v = envp_get(envp, name);

	*out = v && !strcmp(v, "1");
	if (v && strcmp(v, "0") && strcmp(v, "1"))
		return bad_value(err, LAUNCHER_WHY_FLAG, name, v);
	note(d, envp, name);
	return 0;
}

/* An MPI launcher's local rank and count of ranks on this node. */
static int rank_pair(struct launcher_decision *d, char *const *envp,
		     const char *rank, const char *size,
		     struct launcher_error *err)
{
	if (env_number(d, envp, rank, false, &d->rank, err) < 0)
		return -1;
	if (!envp_get(envp, size))
		return missing(err, rank, envp_get(envp, rank), size);
	if (env_number(d, envp, size, true, &d->ranks, err) < 0)
		return -1;
	if (d->rank >= d->ranks)
		return beyond(err, rank, envp_get(envp, rank), d->rank, size,
			      envp_get(envp, size), d->ranks);
	return 0;
}

/* The object whose CPUs are exactly mask, or TOPO_NONE: the shallowest
 * that is not a cache or the machine (a core rather than its L2, a
 * package rather than its L3), else the shallowest. */
static int object_of(const struct topology *t, const struct cpuset *mask)
{
	unsigned n = cpulist_count(mask);
	int first = TOPO_NONE;

	for (unsigned o = 0; o < t->nobjs && n; o++) {
		const struct topo_obj *ob = &t->objs[o];
		unsigned i = 0;

		if (ob->pu_count != n)
			continue;
		while (i < n &&
		       cpulist_has(mask, tree_pu_os(t, ob->pu_first + i)))
			i++;
		if (i < n)
			continue;
		if (ob->type != TOPO_MACHINE &&
		    (ob->type < TOPO_L5 || ob->type > TOPO_L1))
			return (int)o;
		if (first == TOPO_NONE)
			first = (int)o;
	}
	return first;
}

/* How many ranks i below end have i % period == pos: the ranks below end
 * that round-robin over period objects puts on object pos. */
static unsigned long below(unsigned long end, unsigned long pos,
			   unsigned long period)
{
	return end > pos ? (end - pos - 1) / period + 1 : 0;
}

/* The launcher bound each rank to a topology object (MPI's --bind-to,
 * Slurm's rank_ldom). Ranks go round-robin over the objects of that level
 * (Open MPI's and Hydra's default mapping), or, by_units, over the cores
 * (PUs with pus) in order, each bound to the object holding its core (Open
 * MPI's --map-by core). The ranks so placed on this rank's object share
 * it; a rank that is not where the launcher maps it was moved after launch
 * and owns its mask. */
static void shared_object(const struct topology *t, struct launcher_decision *d,
			  bool by_units, bool pus)
{
	const struct topo_level *level;
	unsigned long pos = 0, objects = 0, units = 0, u = 0;
	int o = object_of(t, &d->mask), last = TOPO_NONE;
	bool here = false;

	d->index = 0;
	d->count = 1;
	if (o == TOPO_NONE) {
		d->binding = LAUNCHER_BINDING_OWN;
		return;
	}
	d->object = o;
	level = &t->levels[t->objs[o].depth];
	for (unsigned i = 0; i < level->count; i++) {
		if (level->objs[i] == o)
			pos = objects;
		if (t->objs[level->objs[i]].pu_count)
			objects++;
	}
	d->objects = objects;
	if (!by_units) {
		d->binding = LAUNCHER_BINDING_OBJECTS;
		here = d->rank % objects == pos;
		d->index = d->rank / objects;
		d->count = below(d->ranks, pos, objects);
	} else {
		d->binding = LAUNCHER_BINDING_UNITS;
		for (unsigned i = 0; i < t->npus; i++)
			if (pus || t->pu_core[i] != last) {
				units++;
				last = t->pu_core[i];
			}
		d->count = 0;
		last = TOPO_NONE;
		for (unsigned i = 0; i < t->npus; i++) {
			bool in;

			if (!pus && t->pu_core[i] == last)
				continue;
			last = t->pu_core[i];
			in = cpulist_has(&d->mask, tree_pu_os(t, i));
			if (in) {
				d->index += below(d->rank, u, units);
				d->count += below(d->ranks, u, units);
			}
			if (u++ == d->rank % units)
				here = in;
		}
	}
	if (!here) {
		d->binding = LAUNCHER_BINDING_MOVED;
		d->index = 0;
		d->count = 1;
	}
}

/* Open MPI: OMPI_MCA_orte_bound_at_launch says it bound the ranks (to
 * cores by default for up to two processes, to NUMA nodes or packages
 * above); its mapping policy is in the environment when given. */
static int openmpi(struct launcher_decision *d, char *const *envp,
		   const struct topology *t, bool have_mask, const char *var,
		   struct launcher_error *err)
{
	(void)have_mask;
	(void)var;
	const char *binding, *mapping;
	bool bound;

	d->kind = LAUNCHER_OPENMPI;
	if (rank_pair(d, envp, "OMPI_COMM_WORLD_LOCAL_RANK",
		      "OMPI_COMM_WORLD_LOCAL_SIZE", err) < 0 ||
	    env_flag(d, envp, "OMPI_MCA_orte_bound_at_launch", &bound, err) < 0)
		return -1;
	binding = envp_get(envp, "OMPI_MCA_hwloc_base_binding_policy");
	mapping = envp_get(envp, "OMPI_MCA_rmaps_base_mapping_policy");
	if (binding)
		note(d, envp, "OMPI_MCA_hwloc_base_binding_policy");
	if (mapping)
		note(d, envp, "OMPI_MCA_rmaps_base_mapping_policy");
	if (!bound || (binding && !strncasecmp(binding, "none", 4))) {
		d->binding = LAUNCHER_BINDING_NONE;
		return 0;
	}
	/* --map-by X:PE=n binds each rank to n cores of its own. */
	if (mapping && strcasestr(mapping, "PE=")) {
		d->binding = LAUNCHER_BINDING_OWN;
		d->count = 1;
		return 0;
	}
	shared_object(t, d,
		      mapping && (!strncasecmp(mapping, "core", 4) ||
				  !strncasecmp(mapping, "hwthread", 8) ||
				  !strncasecmp(mapping, "slot", 4)),
		      mapping && !strncasecmp(mapping, "hwthread", 8));
	return 0;
}

/* MPICH's Hydra (and Intel MPI's): HYDRA_USER_PROVIDED_BINDING when
 * -bind-to was given (it binds nothing by default), ranks round-robin over
 * the objects of -map-by, which defaults to -bind-to's. */
static int hydra(struct launcher_decision *d, char *const *envp,
		 const struct topology *t, bool have_mask, const char *var,
		 struct launcher_error *err)
{
	bool bound;

	(void)have_mask;
	(void)var;
	d->kind = LAUNCHER_HYDRA;
	if (rank_pair(d, envp, "MPI_LOCALRANKID", "MPI_LOCALNRANKS", err) < 0 ||
	    env_flag(d, envp, "HYDRA_USER_PROVIDED_BINDING", &bound, err) < 0)
		return -1;
	if (!bound)
		d->binding = LAUNCHER_BINDING_NONE;
	else
		shared_object(t, d, false, false);
	return 0;
}

/* This node's entry of a task count list such as "2(x3),1". */
static int tasks_here(const char *var, const char *list, unsigned long node,
		      unsigned long *count, unsigned long *nodes,
		      struct launcher_error *err)
{
	const char *p = list;
	unsigned long n, times;
	enum launcher_why why;
	size_t len;

	*nodes = 0;
	*count = 0;
	while (*p) {
		len = strspn(p, "0123456789");
		if (!number(p, len, &n, &why))
			return bad_value(err,
					 why == LAUNCHER_WHY_TOO_LARGE
					     ? why
					     : LAUNCHER_WHY_TASKS,
					 var, list);
		p += len;
		times = 1;
		if (!strncmp(p, "(x", 2)) {
			len = strspn(p + 2, "0123456789");
			if (!number(p + 2, len, &times, &why) || !times ||
			    p[2 + len] != ')')
				return bad_value(err,
						 why == LAUNCHER_WHY_TOO_LARGE
						     ? why
						     : LAUNCHER_WHY_TASKS,
						 var, list);
			p += len + 3;
		}
		if (node >= *nodes && node - *nodes < times)
			*count = n;
		if (times > LAUNCHER_MAX - *nodes)
			return bad_value(err, LAUNCHER_WHY_TOO_LARGE, var,
					 list);
		*nodes += times;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return bad_value(err, LAUNCHER_WHY_TASKS, var, list);
	}
	if (!*nodes)
		return bad_value(err, LAUNCHER_WHY_TASKS, var, list);
	return 0;
}

/* One entry of SLURM_CPU_BIND_LIST, without its "*count": a hex mask
 * ("0x3", "3") for the mask_ types, a number ("5", "0x5") for the map_
 * types. Returns false for anything else or an empty set. */
static bool bind_entry(const char *s, size_t len, bool map, struct cpuset *set)
{
	bool hex = len > 2 && s[0] == '0' && (s[1] | 0x20) == 'x';

	cpulist_zero(set);
	if (hex) {
		s += 2;
		len -= 2;
	}
	if (!len)
		return false;
	if (map) {
		unsigned long cpu;

		if ((hex ? num_hex(s, len, 0, CPULIST_MAX - 1, &cpu, NULL)
			 : num_decimal(s, len, 0, CPULIST_MAX - 1, &cpu,
				       NULL)) != NUM_OK)
			return false;
		cpulist_add(set, (unsigned)cpu);
		return true;
	}
	for (size_t i = 0; i < len; i++) {
		int v = num_hex_digit(s[len - 1 - i]);

		if (v < 0)
			return false;
		for (unsigned b = 0; b < 4; b++)
			if (v & (1 << b)) {
				if (4 * i + b >= CPULIST_MAX)
					return false;
				cpulist_add(set, (unsigned)(4 * i + b));
			}
	}
	return !cpulist_empty(set);
}

/* How many of the positions below end, in a run of times positions
 * starting at at, there are. */
static unsigned long run_below(unsigned long end, unsigned long at,
			       unsigned long times)
{
	if (end <= at)
		return 0;
	return end - at < times ? end - at : times;
}

struct bind_entry {
	struct cpuset set;
	unsigned long times;
};

/* Slurm's list of task masks (or CPUs, or NUMA nodes): task i has entry
 * i modulo the list's length, an entry "E*n" standing for n of E. The
 * tasks whose entry equals this task's share its mask. */
static int bind_list(struct launcher_decision *d, const char *list, bool map,
		     struct cpuset *cpus, struct launcher_error *err)
{
	const char *var = "SLURM_CPU_BIND_LIST", *p = list;
	struct bind_entry *e;
	size_t n = 0, max = 1, mine = 0;
	unsigned long length = 0, at = 0, rank_at, ranks_at, round = 0,
		      below_rank = 0, below_ranks = 0;
	enum launcher_why why = LAUNCHER_WHY_BIND_ENTRY;

	for (const char *c = list; *c; c++)
		max += *c == ',';
	e = malloc(max * sizeof(*e));
	if (!e)
		return fail(err, LAUNCHER_E_NOMEM, NULL, NULL);
	for (;;) {
		size_t len = strcspn(p, ",*");

		if (!bind_entry(p, len, map, &e[n].set))
			goto bad;
		p += len;
		e[n].times = 1;
		if (*p == '*') {
			len = strcspn(++p, ",");
			if (!number(p, len, &e[n].times, &why) || !e[n].times) {
				if (why != LAUNCHER_WHY_TOO_LARGE)
					why = LAUNCHER_WHY_BIND_ENTRY;
				goto bad;
			}
			p += len;
		}
		if (e[n].times > LAUNCHER_MAX - length) {
			why = LAUNCHER_WHY_TOO_LARGE;
			goto bad;
		}
		length += e[n++].times;
		if (!*p++)
			break;
	}
	rank_at = d->rank % length;
	ranks_at = d->ranks % length;
	for (size_t i = 0; i < n; at += e[i++].times)
		if (rank_at >= at && rank_at - at < e[i].times)
			mine = i;
	at = 0;
	for (size_t i = 0; i < n; at += e[i++].times)
		if (cpulist_equal(&e[i].set, &e[mine].set)) {
			round += e[i].times;
			below_rank += run_below(rank_at, at, e[i].times);
			below_ranks += run_below(ranks_at, at, e[i].times);
		}
	d->binding = LAUNCHER_BINDING_LIST;
	d->entry = rank_at;
	d->index = d->rank / length * round + below_rank;
	d->count = d->ranks / length * round + below_ranks;
	*cpus = e[mine].set;
	free(e);
	return 0;
bad:
	free(e);
	return bad_value(err, why, var, list);
}

/* Slurm's binding of a step's tasks: SLURM_CPU_BIND_TYPE as slurmd sets
 * it, "[ENTITY,]TYPE", and for the list types SLURM_CPU_BIND_LIST. On
 * another machine a task's mask is its entry of the list. */
static int slurm_binding(struct launcher_decision *d, char *const *envp,
			 const struct topology *t, bool have_mask,
			 struct launcher_error *err)
{
	static const char *const entities[] = { "threads", "cores", "sockets",
						"ldoms", "boards" };
	static const char *const lists[] = { "mask_cpu:", "map_cpu:",
					     "mask_ldom:", "map_ldom:" };
	const char *type = note(d, envp, "SLURM_CPU_BIND_TYPE"), *rest = type;
	const char *list;
	struct cpuset cpus;
	size_t k;

	/* No type: no task plugin binds, as with none. */
	if (!type || !*type) {
		d->binding = LAUNCHER_BINDING_NONE;
		return 0;
	}
	for (k = 0; k < sizeof(entities) / sizeof(entities[0]); k++) {
		size_t len = strlen(entities[k]);

		if (!strncmp(rest, entities[k], len) &&
		    (rest[len] == ',' || !rest[len])) {
			rest += len + (rest[len] == ',');
			break;
		}
	}
	if (!strcmp(rest, "none")) {
		d->binding = LAUNCHER_BINDING_NONE;
		return 0;
	}
	if (!strcmp(rest, "rank")) {
		d->binding = LAUNCHER_BINDING_RANK;
		d->count = 1;
		return 0;
	}
	if (!*rest || !strcmp(rest, "rank_ldom")) {
		shared_object(t, d, false, false);
		return 0;
	}
	for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
		if (!strcmp(rest, lists[k]))
			break;
	if (k == sizeof(lists) / sizeof(lists[0]))
		return bad_value(err, LAUNCHER_WHY_BIND_TYPE,
				 "SLURM_CPU_BIND_TYPE", type);
	list = note(d, envp, "SLURM_CPU_BIND_LIST");
	if (!list || !*list)
		return missing(err, "SLURM_CPU_BIND_TYPE", type,
			       "SLURM_CPU_BIND_LIST");
	if (bind_list(d, list, k % 2 == 1, &cpus, err) < 0)
		return -1;
	/* The _cpu types name CPUs; the _ldom ones NUMA nodes. */
	if (!have_mask && k < 2) {
		cpulist_and(&d->mask, &cpus, &t->usable);
		if (cpulist_empty(&d->mask))
			return bad_value(err, LAUNCHER_WHY_NOT_HERE,
					 "SLURM_CPU_BIND_LIST", list);
		d->mask_from_list = true;
	}
	return 0;
}

/* A task of a job step that srun started: SLURM_LOCALID among this node's
 * tasks of the step (SLURM_STEP_TASKS_PER_NODE, which the job's
 * SLURM_TASKS_PER_NODE and SLURM_NTASKS_PER_NODE are not). */
static int slurm_step(struct launcher_decision *d, char *const *envp,
		      const struct topology *t, bool have_mask,
		      const char *step, struct launcher_error *err)
{
	const char *list_var = "SLURM_STEP_TASKS_PER_NODE", *list, *node_text;
	unsigned long node = 0, nodes;

	d->kind = LAUNCHER_SLURM_STEP;
	note(d, envp, step);
	if (!envp_get(envp, "SLURM_LOCALID"))
		return missing(err, step, envp_get(envp, step),
			       "SLURM_LOCALID");
	if (env_number(d, envp, "SLURM_LOCALID", false, &d->rank, err) < 0)
		return -1;
	list = envp_get(envp, list_var);
	if (!list) {
		list_var = "SLURM_TASKS_PER_NODE";
		list = envp_get(envp, list_var);
	}
	if (!list)
		return missing(err, "SLURM_LOCALID",
			       envp_get(envp, "SLURM_LOCALID"),
			       "SLURM_STEP_TASKS_PER_NODE");
	note(d, envp, list_var);
	node_text = envp_get(envp, "SLURM_NODEID");
	if (node_text &&
	    env_number(d, envp, "SLURM_NODEID", false, &node, err) < 0)
		return -1;
	if (tasks_here(list_var, list, node, &d->ranks, &nodes, err) < 0)
		return -1;
	if (nodes > 1 && !node_text)
		return missing(err, list_var, list, "SLURM_NODEID");
	if (node >= nodes)
		return beyond(err, "SLURM_NODEID", node_text, node, list_var,
			      list, nodes);
	if (d->rank >= d->ranks)
		return beyond(err, "SLURM_LOCALID",
			      envp_get(envp, "SLURM_LOCALID"), d->rank,
			      list_var, list, d->ranks);
	return slurm_binding(d, envp, t, have_mask, err);
}

/* A batch script or an salloc shell: the one process of the allocation
 * (SLURM_LOCALID=0 is no step's rank). */
static int slurm_job(struct launcher_decision *d, char *const *envp,
		     const struct topology *t, bool have_mask, const char *job,
		     struct launcher_error *err)
{
	(void)t;
	(void)have_mask;
	(void)err;
	d->kind = LAUNCHER_SLURM_JOB;
	d->binding = LAUNCHER_BINDING_ALONE;
	d->ranks = 1;
	d->count = 1;
	note(d, envp, job);
	note(d, envp, "SLURM_STEP_ID");
	return 0;
}

/* The launchers --share auto reads, one row each, in the order they are
 * looked for (MPI first: mpirun under srun sees both): the name messages
 * give it, the variables that say it started this process (the first set
 * is the decoder's var; the first of each row is "none of ..."'s), and
 * the decoder of its variables. --share I/N and auto/N (GNU parallel)
 * are named by the user, not found. */
typedef int decoder(struct launcher_decision *d, char *const *envp,
		    const struct topology *t, bool have_mask, const char *var,
		    struct launcher_error *err);

static const struct launcher_desc {
	const char *name;
	const char *vars[2];
	decoder *decode;
} launchers[] = {
	[LAUNCHER_GIVEN] = { "--share", { NULL }, NULL },
	[LAUNCHER_OPENMPI] = { "Open MPI",
			       { "OMPI_COMM_WORLD_LOCAL_RANK" },
			       openmpi },
	[LAUNCHER_HYDRA] = { "Hydra", { "MPI_LOCALRANKID" }, hydra },
	[LAUNCHER_SLURM_STEP] = { "Slurm",
				  { "SLURM_STEP_ID", "SLURM_STEPID" },
				  slurm_step },
	[LAUNCHER_SLURM_JOB] = { "Slurm",
				 { "SLURM_JOB_ID", "SLURM_JOBID" },
				 slurm_job },
	[LAUNCHER_PARALLEL] = { "GNU parallel", { NULL }, NULL },
};
_Static_assert(sizeof(launchers) / sizeof(launchers[0]) == LAUNCHER_NKINDS,
	       "a row for every launcher");

/* GNU parallel's job slot, from 1: part slot modulo N. */
static int parallel(struct launcher_decision *d, char *const *envp,
		    unsigned long count, struct launcher_error *err)
{
	unsigned long slot;

	d->kind = LAUNCHER_PARALLEL;
	d->binding = LAUNCHER_BINDING_NONE;
	if (!envp_get(envp, "PARALLEL_JOBSLOT"))
		return fail(err, LAUNCHER_E_NO_SLOT, "PARALLEL_JOBSLOT", NULL);
	if (env_number(d, envp, "PARALLEL_JOBSLOT", true, &slot, err) < 0)
		return -1;
	d->rank = (slot - 1) % count;
	d->ranks = count;
	return 0;
}

int launcher_decide(const struct launcher_spec *spec, char *const *envp,
		    const struct topology *t, const struct cpuset *mask,
		    struct launcher_decision *d, struct launcher_error *err)
{
	int r;

	memset(d, 0, sizeof(*d));
	memset(err, 0, sizeof(*err));
	d->object = TOPO_NONE;
	d->mask = t->usable;
	if (mask)
		cpulist_and(&d->mask, mask, &t->usable);
	if (spec->mode == LAUNCHER_SHARE_GIVEN) {
		d->kind = LAUNCHER_GIVEN;
		d->rank = spec->index - 1;
		d->ranks = spec->count;
		r = 0;
	} else if (spec->mode == LAUNCHER_SHARE_AUTO_N) {
		r = parallel(d, envp, spec->count, err);
	} else {
		const struct launcher_desc *l = NULL;
		const char *var = NULL;

		for (size_t i = 0; i < LAUNCHER_NKINDS && !var; i++)
			for (size_t v = 0; v < 2 && !var; v++)
				if (launchers[i].vars[v] &&
				    envp_get(envp, launchers[i].vars[v])) {
					l = &launchers[i];
					var = l->vars[v];
				}
		if (!l)
			return fail(err, LAUNCHER_E_NONE, NULL, NULL);
		r = l->decode(d, envp, t, mask != NULL, var, err);
	}
	if (r < 0)
		return -1;
	if (d->binding == LAUNCHER_BINDING_NONE) {
		d->index = d->rank;
		d->count = d->ranks;
	}
	return 0;
}

int launcher_part(const struct topology *t, struct launcher_decision *d,
		  const struct cpuset *allowed, bool pus, struct cpuset *part,
		  struct launcher_error *err)
{
	struct policy_error pe;

	memset(err, 0, sizeof(*err));
	d->wrapped = false;
	if (policy_share(t, allowed, pus, (unsigned)d->index,
			 (unsigned)d->count, part, &pe) == 0)
		return 0;
	if (d->kind == LAUNCHER_GIVEN || !pe.value2) {
		err->number = d->index + 1;
		err->number2 = d->count;
		err->units = pe.value2;
		return fail(err, LAUNCHER_E_TOO_MANY, NULL, NULL);
	}
	/* The launcher started more ranks than there are units here: one
	 * each, round the units. */
	d->wrapped = true;
	d->units = pe.value2;
	return policy_share(t, allowed, pus, (unsigned)(d->index % d->units),
			    (unsigned)d->units, part, &pe);
}

const char *launcher_name(enum launcher_kind kind)
{
	return launchers[kind].name;
}

/* "none of the launcher variables is set (A, B, ...; or auto/N with
 * PARALLEL_JOBSLOT)", the first variable of each row, made once. */
static const char *none_set(void)
{
	static char text[256];
	size_t len;

	if (text[0])
		return text;
	len = (size_t)snprintf(text, sizeof(text),
			       "none of the launcher variables is set (");
	for (size_t i = 0; i < LAUNCHER_NKINDS && len < sizeof(text); i++)
		if (launchers[i].vars[0])
			len += (size_t)snprintf(
			    text + len, sizeof(text) - len, "%s%s",
			    text[len - 1] == '(' ? "" : ", ",
			    launchers[i].vars[0]);
	if (len < sizeof(text))
		snprintf(text + len, sizeof(text) - len,
			 "; or auto/N with PARALLEL_JOBSLOT)");
	return text;
}

const char *launcher_strerror(enum launcher_err code)
{
	switch (code) {
	case LAUNCHER_OK:
		return "no error";
	case LAUNCHER_E_SYNTAX:
		return "expected I/N (I from 1 to N), auto or auto/N";
	case LAUNCHER_E_TOO_LARGE:
		return "a number is too large";
	case LAUNCHER_E_RANGE:
		return "parts count from 1 to the number of parts";
	case LAUNCHER_E_NONE:
		return none_set();
	case LAUNCHER_E_NO_SLOT:
		return "PARALLEL_JOBSLOT is not set (auto/N is for GNU "
		       "parallel's jobs; auto reads Slurm's and MPI's "
		       "variables)";
	case LAUNCHER_E_BAD_VALUE:
		return "a launcher variable is invalid";
	case LAUNCHER_E_MISSING:
		return "a launcher variable is missing";
	case LAUNCHER_E_BEYOND:
		return "a launcher variable is out of range";
	case LAUNCHER_E_NOMEM:
		return "out of memory";
	case LAUNCHER_E_TOO_MANY:
		return "more parts than units";
	case LAUNCHER_E_NCODES: /* a count, not a code */
		break;
	}
	return "unknown error";
}

const char *launcher_why_strerror(enum launcher_why why)
{
	switch (why) {
	case LAUNCHER_WHY_NUMBER:
		return "not a number";
	case LAUNCHER_WHY_TOO_LARGE:
		return "a number over 4294967295";
	case LAUNCHER_WHY_ZERO:
		return "it counts from 1";
	case LAUNCHER_WHY_FLAG:
		return "expected 0 or 1";
	case LAUNCHER_WHY_TASKS:
		return "expected task counts such as 2(x3),1";
	case LAUNCHER_WHY_BIND_TYPE:
		return "not a binding type Slurm sets";
	case LAUNCHER_WHY_BIND_ENTRY:
		return "expected masks or CPU numbers such as 0x1,0x2";
	case LAUNCHER_WHY_NOT_HERE:
		return "this task's entry has no CPU of this topology";
	case LAUNCHER_WHY_NCODES: /* a count, not a code */
		break;
	}
	return "invalid";
}
