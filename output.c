/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output.c: the plan and the process, in words and in JSON. --explain says
 * on stderr what the topology is, what was excluded and why, which object
 * was chosen by which rule; --json carries the same facts on stdout. It
 * computes nothing that changes a placement.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices.h"
#include "emit.h"
#include "errors.h"
#include "host.h"
#include "json.h"
#include "location.h"
#include "message.h"
#include "output.h"

/* The largest objects a set covers, as location text ("core:0-3 pu:9"),
 * in a new string. */
static char *objects_text(const struct topology *t, const struct cpuset *set)
{
	unsigned n = policy_cover(t, set, NULL, 0);
	int *objs = malloc((n + 1) * sizeof(*objs));
	char *text = NULL;
	size_t len;

	if (!objs)
		msg_die("out of memory");
	policy_cover(t, set, objs, n);
	len = location_format(t, objs, n, NULL, 0);
	if (!(text = malloc(len + 1)))
		msg_die("out of memory");
	location_format(t, objs, n, text, len + 1);
	free(objs);
	return text;
}

void output_dry_run(const struct policy_plan *plan)
{
	printf("%s\n", msg_cpus(&plan->cpus));
}

static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

void output_tell(const struct context *ctx)
{
	const struct tell_result *r = &ctx->tell;

	for (unsigned i = 0; i < r->nvars; i++) {
		size_t len;
		char *line;

		if (!r->vars[i].value)
			continue;
		len = tell_shell_line(&r->vars[i], NULL, 0);
		if (!(line = malloc(len + 1)))
			msg_die("out of memory");
		tell_shell_line(&r->vars[i], line, len + 1);
		printf("%s\n", line);
		free(line);
	}
}

/* --tell's reasons: N and where it comes from, then each variable. */
static void explain_tell(const struct context *ctx)
{
	const struct tell_result *r = &ctx->tell;

	if (r->capped)
		msg_note(
		    "tell: N = %u: the placement's %u CPU%s, capped by the "
		    "CPU quota of %llu us per %llu us (%s), rounded up",
		    r->n, r->cpus, plural(r->cpus), ctx->quota, ctx->period,
		    ctx->quota_where);
	else if (ctx->period)
		msg_note(
		    "tell: N = %u: the placement's %u CPU%s (the CPU quota "
		    "of %llu us per %llu us in %s allows more)",
		    r->n, r->cpus, plural(r->cpus), ctx->quota, ctx->period,
		    ctx->quota_where);
	else
		msg_note("tell: N = %u: the placement's %u CPU%s%s", r->n,
			 r->cpus, plural(r->cpus),
			 ctx->t->this_system ? " (no CPU quota)" : "");
	for (unsigned i = 0; i < r->nvars; i++) {
		const struct tell_var *v = &r->vars[i];

		if (v->value)
			msg_note("tell: %s=%s (%s%s)", v->name,
				 msg_input(v->value), v->why,
				 v->appended   ? ", appended to the user's"
				 : v->replaced ? ", in place of the one "
						 "given"
					       : "");
		else
			msg_note("tell: %s left as the user set it: %s",
				 v->name, msg_input(v->user));
	}
}

void output_emit(const struct context *ctx, const struct options *o,
		 const struct policy_plan *plan)
{
	struct emit_plan p = { .t = ctx->t, .cpus = &plan->cpus };
	struct cpuset *parts;
	size_t len;
	char *line;

	if (o->mem_given) {
		p.mem_given = true;
		p.mem = o->mem;
		p.mems = &ctx->mem_nodes;
	}
	context_parts(ctx, o, plan, &parts, &p.nparts);
	p.parts = parts;
	len = o->emit->write(&p, NULL, 0);
	if (!(line = malloc(len + 1)))
		msg_die("out of memory");
	o->emit->write(&p, line, len + 1);
	printf("%s\n", line);
	free(line);
	free(parts);
}

/* The variables --share auto read, as "NAME=value, NAME unset". */
static const char *share_vars(const struct launcher_decision *d)
{
	static char text[4096];
	size_t n = 0;

	text[0] = '\0';
	for (unsigned i = 0; i < d->nvars && n < sizeof(text); i++)
		n += (size_t)snprintf(
		    text + n, sizeof(text) - n, "%s%s%s%s", i ? ", " : "",
		    d->vars[i].name, d->vars[i].value ? "=" : " unset",
		    d->vars[i].value ? msg_input(d->vars[i].value) : "");
	return text;
}

/* What a launcher's processes are called: GNU parallel runs jobs. */
static const char *ranks_word(const struct launcher_decision *d)
{
	return d->kind == LAUNCHER_PARALLEL ? "jobs" : "ranks";
}

/* --share auto: who started pinrun, how it bound the ranks, and the rule
 * that gives this rank its part. */
static void explain_launcher(const struct context *ctx)
{
	const struct launcher_decision *d = &ctx->share;
	const struct topology *t = ctx->t;
	const char *who = launcher_name(d->kind);
	char object[64] = "";
	const char *shared = d->count == 1 ? "no other rank has it: pinrun "
					     "plans inside it, whole"
					   : "the ranks that have it split it";

	if (d->object >= 0)
		location_name(t, d->object, object, sizeof(object));
	switch (d->kind) {
	case LAUNCHER_SLURM_JOB:
		msg_note("share: a Slurm job with no step, a batch script or "
			 "an salloc shell (%s): the one process of the "
			 "allocation",
			 share_vars(d));
		break;
	case LAUNCHER_PARALLEL:
		msg_note("share: GNU parallel, job slot %lu of %lu (%s)",
			 d->rank + 1, d->ranks, share_vars(d));
		break;
	default:
		msg_note("share: %s, %s %lu of the %lu on this node, from 0 "
			 "(%s)",
			 d->kind == LAUNCHER_SLURM_STEP ? "Slurm step" : who,
			 d->kind == LAUNCHER_SLURM_STEP ? "task" : "local rank",
			 d->rank, d->ranks, share_vars(d));
	}
	if (d->mask_from_list)
		msg_note("share: planning for another machine: the task's "
			 "mask is its entry of SLURM_CPU_BIND_LIST");
	switch (d->binding) {
	case LAUNCHER_BINDING_NONE:
		msg_note("share: %s did not bind the %s: the %lu of them "
			 "split CPUs %s",
			 who, ranks_word(d), d->count, msg_cpus(&d->mask));
		break;
	case LAUNCHER_BINDING_ALONE:
		msg_note("share: alone on the allocation: all of CPUs %s",
			 msg_cpus(&d->mask));
		break;
	case LAUNCHER_BINDING_LIST:
		msg_note("share: Slurm bound this task to CPUs %s (entry %lu "
			 "of SLURM_CPU_BIND_LIST): %s",
			 msg_cpus(&d->mask), d->entry + 1,
			 d->count == 1 ? "no other task of the step here has "
					 "it: pinrun plans inside it, whole"
				       : "the step's tasks here that have it "
					 "split it");
		break;
	case LAUNCHER_BINDING_RANK:
		msg_note("share: Slurm bound each task to a CPU of its own "
			 "(--cpu-bind=rank): pinrun plans inside CPUs %s",
			 msg_cpus(&d->mask));
		break;
	case LAUNCHER_BINDING_OBJECTS:
		msg_note("share: %s bound this rank to %s, CPUs %s; its ranks "
			 "go round-robin over the %lu %s%s of the node: %s",
			 who, object, msg_cpus(&d->mask), d->objects,
			 tree_type_name(t->objs[d->object].type),
			 plural((unsigned)d->objects), shared);
		break;
	case LAUNCHER_BINDING_UNITS:
		msg_note("share: %s bound this rank to %s, CPUs %s; its ranks "
			 "fill the cores in order (its mapping policy): %s",
			 who, object, msg_cpus(&d->mask), shared);
		break;
	case LAUNCHER_BINDING_OWN:
		msg_note("share: %s bound this rank to CPUs %s, a set of its "
			 "own: pinrun plans inside it, whole",
			 who, msg_cpus(&d->mask));
		break;
	case LAUNCHER_BINDING_MOVED:
		msg_note("share: CPUs %s are %s, where %s does not map this "
			 "rank: it was moved after launch, and plans inside "
			 "them, whole",
			 msg_cpus(&d->mask), object, who);
		break;
	}
}

static void explain_share(const struct context *ctx, bool pus)
{
	const struct launcher_decision *d = &ctx->share;
	char excluded[4200] = "";

	if (d->kind != LAUNCHER_GIVEN)
		explain_launcher(ctx);
	if (!cpulist_empty(&ctx->excluded[CONTEXT_EXCL_SHARE]))
		snprintf(excluded, sizeof(excluded), "; excluded %s: %s",
			 msg_cpus(&ctx->excluded[CONTEXT_EXCL_SHARE]),
			 context_exclusion(CONTEXT_EXCL_SHARE)->explain);
	if (d->wrapped)
		msg_note("share %lu of %lu: the %lu %s that share CPUs %s "
			 "outnumber its %lu %s: one each, round them: CPUs "
			 "%s%s",
			 d->index % d->units + 1, d->units, d->count,
			 ranks_word(d), msg_cpus(&d->mask), d->units,
			 pus ? (d->units == 1 ? "PU" : "PUs")
			     : (d->units == 1 ? "core" : "cores"),
			 msg_cpus(&ctx->req.allowed), excluded);
	else
		msg_note("share %lu of %lu: CPUs %s%s", d->index + 1, d->count,
			 msg_cpus(&ctx->req.allowed), excluded);
}

/* "mlx5_0 (openfabrics, pci 0003:01:00.0)" */
static void device_words(const struct topology *t, int dev, char *buf,
			 size_t size)
{
	const struct topo_dev *d = &t->devs[dev];

	if (d->type == TOPO_DEV_PCI)
		snprintf(buf, size, "pci=%s (%s)", d->busid,
			 devices_class_name(d->pci_class));
	else
		snprintf(buf, size, "%s (%s%s%s%s%s)", msg_input(d->name),
			 devices_type_name(d->type), d->subtype[0] ? " " : "",
			 msg_input(d->subtype), d->busid[0] ? ", pci " : "",
			 d->busid);
}

static void explain_near(const struct context *ctx, const struct options *o)
{
	const struct topology *t = ctx->t;
	char dev[400], where[64];
	int at = t->devs[ctx->near].attach;

	device_words(t, ctx->near, dev, sizeof(dev));
	location_name(t, at, where, sizeof(where));
	if (at == 0)
		msg_note("near %s: local to the whole machine (%s), not to "
			 "one part of it: every CPU is as near",
			 dev, where);
	else
		msg_note("near %s: local to %s, CPUs %s", dev, where,
			 msg_cpus(&ctx->near_cpus));
	if (!cpulist_empty(&ctx->excluded[CONTEXT_EXCL_NEAR]))
		msg_note("excluded %s: not near %s",
			 msg_cpus(&ctx->excluded[CONTEXT_EXCL_NEAR]),
			 msg_input(o->near));
}

/* --near=gpu: which GPU this rank took, and why. */
static void explain_gpu(const struct context *ctx)
{
	struct devices_gpu_ids ids;
	char dev[400];

	devices_gpu_ids(ctx->t, ctx->near, &ids);
	device_words(ctx->t, ctx->near, dev, sizeof(dev));
	msg_note("near gpu: rank %lu of %lu takes %s, GPU %lu of the %u in "
		 "topology order (by the CPUs they are local to): %s",
		 ctx->gpu_rank, ctx->gpu_ranks, msg_input(ids.name),
		 ctx->gpu_rank % ctx->gpus + 1, ctx->gpus, dev);
	if (ctx->gpu_ranks > ctx->gpus)
		msg_note("near gpu: the %lu ranks outnumber the %u GPUs: they "
			 "take them round-robin, so rank %lu shares %s with "
			 "rank %lu",
			 ctx->gpu_ranks, ctx->gpus, ctx->gpu_rank,
			 msg_input(ids.name),
			 ctx->gpu_rank >= ctx->gpus
			     ? ctx->gpu_rank % ctx->gpus
			     : ctx->gpu_rank + ctx->gpus);
	msg_note("near gpu: local to CPUs %s%s", msg_cpus(&ctx->near_cpus),
		 cpulist_empty(&ctx->excluded[CONTEXT_EXCL_NEAR])
		     ? ""
		     : "; the others are "
		       "excluded");
	if (ctx->gpu_same > 1)
		msg_note("near gpu: %lu ranks have GPUs local to these CPUs: "
			 "rank %lu takes part %lu of them, CPUs %s",
			 ctx->gpu_same, ctx->gpu_rank, ctx->gpu_pos + 1,
			 msg_cpus(&ctx->req.allowed));
}

static void explain_exclusions(const struct context *ctx,
			       const struct options *o)
{
	const struct topology *t = ctx->t;

	for (int i = 0; i < CONTEXT_EXCL_NREASONS; i++)
		if (context_exclusion(i)->explain &&
		    !context_exclusion(i)->explain_apart &&
		    !cpulist_empty(&ctx->excluded[i]))
			msg_note("excluded %s: %s", msg_cpus(&ctx->excluded[i]),
				 context_exclusion(i)->explain);
	if (o->kind != POLICY_CORE_ANY && t->nkinds <= 1)
		msg_note("kind: this topology has one kind of core: --kind "
			 "changes nothing");
	if (o->kind != POLICY_CORE_ANY && t->nkinds > 1)
		msg_note("excluded %s: not of the %s kind (--kind=%s)",
			 msg_cpus(&ctx->excluded[CONTEXT_EXCL_KIND]),
			 policy_core_kind(o->kind)->words,
			 policy_core_kind(o->kind)->name);
	if (ctx->gpu_class && ctx->share.count &&
	    ctx->share.kind != LAUNCHER_GIVEN)
		explain_launcher(ctx);
	if (ctx->gpu_class)
		explain_gpu(ctx);
	else if (ctx->near >= 0)
		explain_near(ctx, o);
	if (ctx->share.count && !ctx->gpu_class)
		explain_share(ctx, o->smt == POLICY_SMT_ALL);
	/* Only a policy that starts from where pinrun runs has a
	 * 'current' to move. */
	if (ctx->outside && o->which == POLICY_WHICH_CURRENT &&
	    (policy_desc(o->policy)->value == POLICY_VALUE_PU ||
	     policy_desc(o->policy)->value == POLICY_VALUE_DOMAIN))
		msg_note("pinrun runs outside its %s: 'current' means the "
			 "first candidate inside it",
			 context_exclusion(ctx->outside_why)->outside);
}

static void explain_memory(const struct context *ctx, const struct options *o)
{
	const char *from = context_mem_from_desc(ctx->mem_from)->explain;

	if (!from)
		msg_note("mem: local: each page on the node of the CPU that "
			 "first touches it");
	else
		msg_note("mem: %s on NUMA node%s %s (%s)", context_mem_arg(o),
			 cpulist_count(&ctx->mem_nodes) == 1 ? "" : "s",
			 msg_cpus(&ctx->mem_nodes), from);
}

/* How --cpus or --hot= read a spec that taskset reads otherwise. */
static void explain_spec(const struct context *ctx, const struct options *o)
{
	const char *s = o->spec, *what = policy_desc(o->policy)->spec_option;

	if (!s)
		return;
	if (*s && strspn(s, "0123456789") == strlen(s))
		msg_note("%s: '%s' read as a CPU list (taskset reads digits "
			 "alone as a mask: its %s is --cpus 0x%s)",
			 what, s, s, s);
	else if (cpulist_syntax(s) == CPULIST_SYNTAX_MASK &&
		 strncasecmp(s, "0x", 2))
		msg_note("%s: '%s' read as a hex mask, as taskset reads it",
			 what, msg_input(s));
	if (!cpulist_empty(&ctx->spec_dropped))
		msg_note("%s: CPUs %s of the mask are beyond this machine's "
			 "and dropped, as taskset drops them",
			 what, msg_cpus(&ctx->spec_dropped));
}

static void explain_choice(const struct context *ctx, const struct options *o,
			   const struct policy_plan *plan)
{
	const struct topology *t = ctx->t;
	char name[64] = "";

	enum policy_value value = policy_desc(o->policy)->value;

	if (!t->this_system && o->which != POLICY_WHICH_INDEX &&
	    (value == POLICY_VALUE_PU || value == POLICY_VALUE_DOMAIN))
		msg_note("planning for another machine: 'current' and 'idle' "
			 "mean the first candidate");
	if (value == POLICY_VALUE_DOMAIN &&
	    policy_desc(o->policy)->level == TOPO_NUMA && plan->domain >= 0)
		snprintf(name, sizeof(name), "numa:%u", plan->domain_numa);
	else if (plan->domain >= 0)
		location_name(t, plan->domain, name, sizeof(name));
	switch (plan->reason) {
	case POLICY_REASON_CURRENT:
		if (o->pid)
			msg_note("%s: %s, which holds CPU %d where pid %d last "
				 "ran",
				 o->policy_text, name, ctx->req.current_cpu,
				 (int)o->pid);
		else
			msg_note("%s: %s, which holds CPU %d where pinrun runs",
				 o->policy_text, name, ctx->req.current_cpu);
		break;
	case POLICY_REASON_IDLE:
		msg_note("%s: %s, the least busy over a %d ms sample",
			 o->policy_text, name, CONTEXT_IDLE_SAMPLE_MS);
		break;
	case POLICY_REASON_FIRST:
		msg_note("%s: %s, the first candidate in topology order",
			 o->policy_text, name);
		break;
	case POLICY_REASON_GIVEN:
		if (o->policy == POLICY_NONE)
			msg_note("--near=%s: every allowed CPU near the device",
				 msg_input(o->near));
		else
			msg_note("%s: as given", o->policy_text);
		break;
	case POLICY_NREASONS: /* a count, never a plan's reason */
		break;
	}
	explain_spec(ctx, o);
	if (o->policy != POLICY_NONE)
		msg_note("rule: %s", policy_desc(o->policy)->rule);
	if (o->mem_given)
		explain_memory(ctx, o);
	if (o->tell)
		explain_tell(ctx);
}

/* Programs that count the online CPUs (sysconf, /sys, /proc) rather than
 * their mask start more workers than the placement has CPUs, unless
 * --tell's view shows them the placement: say so, and for nginx what to
 * give it. */
static void explain_counting(const struct context *ctx, const struct options *o,
			     const struct policy_plan *plan)
{
	const char *name = o->command ? strrchr(o->command[0], '/') : NULL;
	unsigned online, n = cpulist_count(&plan->cpus);

	online = cpulist_count(&ctx->t->complete) -
		 cpulist_count(&ctx->excluded[CONTEXT_EXCL_OFFLINE]);
	if (!o->command || n >= online || tell_viewing(&ctx->tell))
		return;
	name = name ? name + 1 : o->command[0];
	msg_note("count: programs that count the machine's CPUs (nginx's "
		 "worker_processes auto, Python's os.cpu_count() before "
		 "3.13, pigz, pbzip2, zstd -T0, Node's os.cpus()) will count "
		 "%u, not these %u: --tell shows them the placement",
		 online, n);
	if (!strcmp(name, "nginx"))
		msg_note("nginx: 'worker_processes auto' counts the %u online "
			 "CPUs, not these %u: give it -g 'worker_processes "
			 "%u;', or run it under --tell",
			 online, n, n);
}

void output_explain(const struct context *ctx, const struct options *o,
		    const struct policy_plan *plan)
{
	const struct topology *t = ctx->t;
	char *objects, counts[256];

	tree_counts_text(t, false, counts, sizeof(counts));
	msg_note("topology: %s (hwloc %s): %s", t->source, t->hwloc_version,
		 counts);
	explain_exclusions(ctx, o);
	explain_choice(ctx, o, plan);
	if (t->nkinds > 1) {
		struct cpuset fast, slow;

		policy_kind_cpus(t, POLICY_CORE_FAST, &fast);
		cpulist_and(&fast, &fast, &plan->cpus);
		cpulist_andnot(&slow, &plan->cpus, &fast);
		if (!cpulist_empty(&fast) && !cpulist_empty(&slow))
			msg_note("warning: CPUs %s mix core kinds (fastest: "
				 "%s, others: %s): timings may be bimodal; "
				 "--kind=fast or --kind=slow keeps to one",
				 msg_cpus(&plan->cpus), msg_cpus(&fast),
				 msg_cpus(&slow));
	}
	if (!cpulist_empty(&plan->smt_dropped))
		msg_note("excluded %s: SMT siblings (--no-smt)",
			 msg_cpus(&plan->smt_dropped));
	objects = objects_text(t, &plan->cpus);
	msg_note("cpus: %s (%s)", msg_cpus(&plan->cpus), objects);
	free(objects);
	explain_counting(ctx, o, plan);
	msg_note("time: %.2f ms to the topology (cache: %s), %.2f ms to plan",
		 ctx->t_loaded - ctx->t_start, ctx->cache,
		 ctx->t_planned - ctx->t_loaded);
}

/* "core:0-3 pu:9" as ["core:0-3","pu:9"]. */
static void json_objects(struct json *j, const char *objects)
{
	const char *p = objects;

	json_open(j, '[');
	while (*p) {
		size_t n = strcspn(p, " ");
		char item[64];

		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		json_string(j, item);
		p += n + (p[n] == ' ');
	}
	json_close(j, ']');
}

/* "near": the device and where it is. */
static void output_json_near(struct json *j, const struct context *ctx)
{
	json_key(j, "near");
	json_open(j, '{');
	json_device(j, ctx->t, ctx->near);
	json_close(j, '}');
}

/* "gpu": --near=gpu's choice. */
static void output_json_gpu(struct json *j, const struct context *ctx)
{
	struct devices_gpu_ids ids;

	devices_gpu_ids(ctx->t, ctx->near, &ids);
	json_key(j, "gpu");
	json_open(j, '{');
	json_key(j, "name");
	json_string(j, ids.name);
	json_key(j, "rank");
	json_int(j, (long long)ctx->gpu_rank);
	json_key(j, "ranks");
	json_int(j, (long long)ctx->gpu_ranks);
	json_key(j, "gpus");
	json_int(j, ctx->gpus);
	json_key(j, "shared");
	json_bool(j, ctx->gpu_ranks > ctx->gpus);
	json_close(j, '}');
}

/* "mem": the policy and its nodes. */
static void output_json_memory(struct json *j, const struct context *ctx,
			       const struct options *o)
{
	json_key(j, "mem");
	json_open(j, '{');
	json_key(j, "policy");
	json_string(j, host_mempolicy_name(o->mem));
	json_cpuset(j, "nodes", &ctx->mem_nodes);
	json_key(j, "from");
	json_string(j, context_mem_from_desc(ctx->mem_from)->key);
	json_close(j, '}');
}

/* "tell": N, the quota, what was set and what was left. */
static void output_json_tell(struct json *j, const struct context *ctx)
{
	const struct tell_result *r = &ctx->tell;

	json_key(j, "tell");
	json_open(j, '{');
	json_key(j, "n");
	json_int(j, r->n);
	json_key(j, "cpus");
	json_int(j, r->cpus);
	json_key(j, "quota");
	if (ctx->period) {
		json_open(j, '{');
		json_key(j, "quota_us");
		json_int(j, (long long)ctx->quota);
		json_key(j, "period_us");
		json_int(j, (long long)ctx->period);
		json_key(j, "file");
		json_string(j, ctx->quota_where);
		json_key(j, "capped");
		json_bool(j, r->capped);
		json_close(j, '}');
	} else {
		json_null(j);
	}
	for (int set = 1; set >= 0; set--) {
		json_key(j, set ? "set" : "left");
		json_open(j, '{');
		for (unsigned i = 0; i < r->nvars; i++) {
			const struct tell_var *v = &r->vars[i];

			if ((v->value != NULL) != set)
				continue;
			json_key(j, v->name);
			json_string(j, set ? v->value : v->user);
		}
		json_close(j, '}');
	}
	json_close(j, '}');
}

void output_json(const struct context *ctx, const struct options *o,
		 const struct policy_plan *plan)
{
	static const char *const reasons[] = {
		[POLICY_REASON_GIVEN] = "given",
		[POLICY_REASON_CURRENT] = "current",
		[POLICY_REASON_IDLE] = "idle",
		[POLICY_REASON_FIRST] = "first",
	};
	_Static_assert(sizeof(reasons) / sizeof(reasons[0]) == POLICY_NREASONS,
		       "a --json word for every reason");
	const struct topology *t = ctx->t;
	struct json j = { 0 };
	struct cpuset nodes, slot;
	char *objects = objects_text(t, &plan->cpus);

	tree_local_numa(t, &plan->cpus, &nodes);
	json_open(&j, '{');
	json_version(&j);
	json_key(&j, "policy");
	json_string(&j,
		    o->policy == POLICY_NONE ? "near" : policy_name(o->policy));
	json_key(&j, "reason");
	json_string(&j, reasons[plan->reason]);
	json_cpuset(&j, "cpus", &plan->cpus);
	json_key(&j, "count");
	json_int(&j, cpulist_count(&plan->cpus));
	json_key(&j, "objects");
	json_objects(&j, objects);
	json_key(&j, "slots");
	json_open(&j, '[');
	for (unsigned i = 0; i < plan->nslots; i++) {
		policy_slot_cpus(plan, i, &slot);
		json_cpuset(&j, NULL, &slot);
	}
	json_close(&j, ']');
	json_cpuset(&j, "numa", &nodes);
	json_cpuset(&j, "allowed", &ctx->req.allowed);
	json_key(&j, "excluded");
	json_open(&j, '{');
	for (int i = 0; i < CONTEXT_EXCL_NREASONS; i++)
		json_cpuset(&j, context_exclusion(i)->key, &ctx->excluded[i]);
	json_cpuset(&j, "smt", &plan->smt_dropped);
	json_close(&j, '}');
	if (ctx->near >= 0)
		output_json_near(&j, ctx);
	if (ctx->gpu_class)
		output_json_gpu(&j, ctx);
	if (o->mem_given)
		output_json_memory(&j, ctx, o);
	if (o->tell)
		output_json_tell(&j, ctx);
	json_key(&j, "topology");
	json_open(&j, '{');
	json_counts(&j, t);
	json_close(&j, '}');
	json_close(&j, '}');
	free(objects);
	msg_print_json(&j);
}

/* The threads of pid with their CPUs, when any two differ: a new array
 * the caller frees, or NULL. */
static struct thread_cpus {
	pid_t tid;
	struct cpuset cpus;
} * thread_cpus(pid_t pid, const struct topology *t, unsigned *n)
{
	struct thread_cpus *th;
	pid_t *tids;
	bool differ = false;
	unsigned k = 0;

	if (host_threads(pid, &tids, n) < 0)
		return NULL;
	if (*n < 2) {
		free(tids);
		return NULL;
	}
	if (!(th = calloc(*n, sizeof(*th))))
		msg_die("out of memory");
	for (unsigned i = 0; i < *n; i++) {
		/* A thread that ended meanwhile has nothing to show. */
		if (host_get_affinity(tids[i], &th[k].cpus) < 0)
			continue;
		cpulist_and(&th[k].cpus, &th[k].cpus, &t->complete);
		th[k].tid = tids[i];
		differ |= !cpulist_equal(&th[k].cpus, &th[0].cpus);
		k++;
	}
	free(tids);
	*n = k;
	if (!differ) {
		free(th);
		return NULL;
	}
	return th;
}

void output_show(const struct options *o, const struct topology *t)
{
	pid_t pid = o->pid ? o->pid : getpid();
	struct thread_cpus *th;
	struct cpuset cpus, mems;
	unsigned nth = 0;
	char *objects;
	int r;

	if ((r = host_get_affinity(pid, &cpus)) < 0)
		msg_affinity_unreadable(pid, false, -r);
	if (host_mems_allowed(pid, &mems) < 0)
		cpulist_zero(&mems);
	cpulist_and(&cpus, &cpus, &t->complete);
	objects = objects_text(t, &cpus);
	th = thread_cpus(pid, t, &nth);
	if (o->json) {
		struct json j = { 0 };

		json_open(&j, '{');
		json_version(&j);
		json_key(&j, "pid");
		json_int(&j, pid);
		json_cpuset(&j, "cpus", &cpus);
		json_key(&j, "objects");
		json_objects(&j, objects);
		json_cpuset(&j, "mems", &mems);
		if (th) {
			json_key(&j, "threads");
			json_open(&j, '[');
			for (unsigned i = 0; i < nth; i++) {
				char *text = objects_text(t, &th[i].cpus);

				json_open(&j, '{');
				json_key(&j, "tid");
				json_int(&j, th[i].tid);
				json_cpuset(&j, "cpus", &th[i].cpus);
				json_key(&j, "objects");
				json_objects(&j, text);
				json_close(&j, '}');
				free(text);
			}
			json_close(&j, ']');
		}
		json_close(&j, '}');
		msg_print_json(&j);
	} else {
		printf("pid: %d\ncpus: %s\nobjects: %s\nmems: %s\n", (int)pid,
		       msg_list(&cpus), objects, msg_list(&mems));
		for (unsigned i = 0; th && i < nth; i++) {
			char *text = objects_text(t, &th[i].cpus);

			printf("thread %d: %s (%s)\n", (int)th[i].tid,
			       msg_list(&th[i].cpus), text);
			free(text);
		}
	}
	free(th);
	free(objects);
}
