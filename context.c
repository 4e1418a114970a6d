/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * context.c: between the options and the plan. It narrows the machine to
 * the allowed set (online, cgroup, inherited affinity, --kind, --share)
 * and remembers why each CPU went (the reasons' words, for --explain,
 * --json and --list, are one table here), reads --cpus and --hot=SPEC against
 * the topology, asks the kernel where pinrun runs and how busy the CPUs
 * are, then has policy.c plan. Errors are worded by errors.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "devices.h"
#include "errors.h"
#include "host.h"
#include "location.h"
#include "memory.h"
#include "message.h"

double context_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const struct context_exclusion exclusions[CONTEXT_EXCL_NREASONS] = {
	[CONTEXT_EXCL_OFFLINE] = { .key = "offline",
				   .explain = "offline",
				   .list = "offline CPUs" },
	[CONTEXT_EXCL_CGROUP] = { .key = "cgroup",
				  .explain = "not in the cgroup's cpuset",
				  .list = "CPUs not in the cgroup's cpuset" },
	[CONTEXT_EXCL_UNUSABLE] = { .key = "unusable",
				    .explain =
					"offline or disallowed by a cgroup",
				    .list = "offline or disallowed CPUs" },
	[CONTEXT_EXCL_AFFINITY] = { .key = "affinity",
				    .explain = "not in the inherited affinity "
					       "(use --all to include them)",
				    .list = "CPUs outside pinrun's affinity "
					    "(--all takes them)" },
	[CONTEXT_EXCL_KIND] = { .key = "kind", .outside = "core kind" },
	[CONTEXT_EXCL_NEAR] = { .key = "near", .outside = "device's CPUs" },
	[CONTEXT_EXCL_SHARE] = { .key = "share",
				 .explain = "the other shares",
				 .explain_apart = true,
				 .outside = "share" },
};

const struct context_exclusion *context_exclusion(enum context_excl why)
{
	return &exclusions[why];
}

static const struct context_mem_from_desc mem_froms[CONTEXT_MEM_FROM_COUNT] = {
	[CONTEXT_MEM_FROM_PLACEMENT] = { "placement", "the placement's own" },
	[CONTEXT_MEM_FROM_DEVICE] = { "device", "local to the device" },
	[CONTEXT_MEM_FROM_GIVEN] = { "given", "as given" },
	[CONTEXT_MEM_FROM_NONE] = { "none", NULL },
};

const struct context_mem_from_desc *
context_mem_from_desc(enum context_mem_from from)
{
	return &mem_froms[from];
}

/* --cpus SPEC or --hot=SPEC: lists, masks and locations, as location.c
 * reads them; "all" is every CPU pinrun may use, as numactl's is. */
static void read_spec(struct context *ctx, const struct options *o)
{
	struct location_error e;
	struct location_opts lo = { .physical = o->physical,
				    .all = &ctx->req.allowed,
				    .dropped = &ctx->spec_dropped };

	if (location_eval(ctx->t, o->spec, &lo, &ctx->req.cpus, &e) < 0)
		msg_die("%s", errors_spec(policy_desc(o->policy)->spec_option,
					  ctx->t, o->spec, &e));
}

/* --same-*=N --physical: N is an OS index; the policy wants the logical
 * one. */
static void physical_index(struct context *ctx, const struct options *o)
{
	enum topo_type type = policy_desc(o->policy)->level;
	struct index_facts f = { .what = o->policy_text,
				 .kind = o->policy,
				 .value = o->index };
	unsigned logical, os = 0;
	int r = location_logical_of(ctx->t, type, o->index, &logical);

	if (r == 0) {
		ctx->req.index = logical;
		return;
	}
	f.no_os = r == -2;
	f.has_other = location_os_of(ctx->t, type, o->index, &os) == 0;
	f.other = os;
	location_os_list(ctx->t, type, f.os_list, sizeof(f.os_list));
	msg_die("%s", errors_physical(&f));
}

/* Take out of the allowed set what is not in keep, for a reason. */
static void narrow(struct context *ctx, const struct cpuset *keep,
		   enum context_excl why)
{
	cpulist_andnot(&ctx->excluded[why], &ctx->req.allowed, keep);
	cpulist_and(&ctx->req.allowed, &ctx->req.allowed, keep);
}

extern char **environ;

/* --share: the part, given or worked out from the launcher's variables
 * and mask, the CPUs the launcher gave pinrun (NULL: another machine's
 * topology, with no mask of its own). */
static void read_share(struct context *ctx, const struct options *o,
		       const struct cpuset *mask)
{
	struct launcher_error e;
	struct cpuset in, part;

	if (launcher_decide(&o->share_spec, environ, ctx->t, mask, &ctx->share,
			    &e) < 0)
		msg_die("%s", errors_launcher(o->share, &e, false));
	cpulist_and(&in, &ctx->req.allowed, &ctx->share.mask);
	if (launcher_part(ctx->t, &ctx->share, &in, o->smt == POLICY_SMT_ALL,
			  &part, &e) < 0)
		msg_die("%s", errors_launcher(o->share, &e,
					      o->smt == POLICY_SMT_ALL));
	narrow(ctx, &part, CONTEXT_EXCL_SHARE);
}

/* --near: keep to the CPUs of the object the device hangs from. */
static void read_near(struct context *ctx, const struct options *o)
{
	const struct topology *t = ctx->t;
	struct devices_error e;
	char where[64];

	if (devices_find(t, o->near, &ctx->near, &e) < 0)
		msg_die("%s", errors_devices(o->near, t, &e));
	devices_cpus(t, ctx->near, &ctx->near_cpus);
	if (cpulist_empty(&ctx->near_cpus)) {
		location_name(t, t->devs[ctx->near].attach, where,
			      sizeof(where));
		msg_die("--near=%s: the device is local to %s, which has no "
			"online CPU that the cgroup allows",
			msg_input(o->near), where);
	}
	if (!cpulist_intersects(&ctx->near_cpus, &ctx->req.allowed))
		msg_die("--near=%s: none of the CPUs near it (%s) is in the "
			"allowed set %s%s",
			msg_input(o->near), msg_cpus(&ctx->near_cpus),
			msg_cpus(&ctx->req.allowed),
			o->all || !t->this_system
			    ? ""
			    : " (use --all to leave the inherited mask)");
	narrow(ctx, &ctx->near_cpus, CONTEXT_EXCL_NEAR);
}

/* --near=gpu: rank's GPU (into *gpu) and its part of base: the GPU's
 * CPUs, split among the ranks whose GPUs have the same CPUs (their
 * place pos of same). Returns false when the GPU's CPUs miss base. */
static bool gpu_part(const struct context *ctx, const struct options *o,
		     const int *gpus, unsigned long rank, unsigned long ranks,
		     const struct cpuset *base, int *gpu, struct cpuset *part,
		     unsigned long *pos, unsigned long *same)
{
	const struct topology *t = ctx->t;
	unsigned n = ctx->gpus;
	struct cpuset near, other, in;
	struct policy_error pe;

	*gpu = gpus[rank % n];
	devices_cpus(t, *gpu, &near);
	*pos = *same = 0;
	for (unsigned long r = 0; r < ranks; r++) {
		devices_cpus(t, gpus[r % n], &other);
		if (!cpulist_equal(&other, &near))
			continue;
		*pos += r < rank;
		(*same)++;
	}
	cpulist_and(&in, base, &near);
	if (cpulist_empty(&in))
		return false;
	if (policy_share(t, &in, o->smt == POLICY_SMT_ALL, (unsigned)*pos,
			 (unsigned)*same, part, &pe) == 0)
		return true;
	/* More ranks than units near it: one each, round them. */
	return pe.value2 && policy_share(t, &in, o->smt == POLICY_SMT_ALL,
					 (unsigned)(*pos % pe.value2),
					 (unsigned)pe.value2, part, &pe) == 0;
}

/* The GPUs of the topology, in a new array; exits when it has none. */
static int *gpu_list(const struct context *ctx, unsigned *n)
{
	int *gpus;

	*n = devices_gpus(ctx->t, NULL, 0);
	if (!*n)
		msg_die(
		    "--near=gpu: the topology has no GPU (a CUDA, OpenCL "
		    "or Level Zero device, an NVML or ROCm SMI one, or a DRM "
		    "render node)");
	if (!(gpus = malloc(*n * sizeof(*gpus))))
		msg_die("out of memory");
	devices_gpus(ctx->t, gpus, *n);
	return gpus;
}

/* --near=gpu: which GPU this rank takes (of --share's ranks, or the
 * only one), and its part of that GPU's CPUs. */
static void read_near_gpu(struct context *ctx, const struct options *o,
			  const struct cpuset *mask)
{
	struct launcher_error e;
	struct cpuset part;
	int *gpus = gpu_list(ctx, &ctx->gpus);

	ctx->gpu_class = true;
	ctx->gpu_ranks = 1;
	if (o->share) {
		if (launcher_decide(&o->share_spec, environ, ctx->t, mask,
				    &ctx->share, &e) < 0)
			msg_die("%s", errors_launcher(o->share, &e, false));
		ctx->gpu_rank = ctx->share.index;
		ctx->gpu_ranks = ctx->share.count;
	}
	ctx->gpu_base = ctx->req.allowed;
	if (!gpu_part(ctx, o, gpus, ctx->gpu_rank, ctx->gpu_ranks,
		      &ctx->req.allowed, &ctx->near, &part, &ctx->gpu_pos,
		      &ctx->gpu_same)) {
		devices_cpus(ctx->t, gpus[ctx->gpu_rank % ctx->gpus],
			     &ctx->near_cpus);
		msg_die("--near=gpu: none of the CPUs near rank %lu's GPU (%s) "
			"is in the allowed set %s",
			ctx->gpu_rank, msg_cpus(&ctx->near_cpus),
			msg_cpus(&ctx->req.allowed));
	}
	free(gpus);
	devices_cpus(ctx->t, ctx->near, &ctx->near_cpus);
	narrow(ctx, &ctx->near_cpus, CONTEXT_EXCL_NEAR);
	narrow(ctx, &part, CONTEXT_EXCL_SHARE);
}

/* The CPUs the topology has but cannot be used, by reason. */
static void unusable(struct context *ctx)
{
	const struct topology *t = ctx->t;
	struct cpuset gone, online;

	cpulist_andnot(&gone, &t->complete, &t->usable);
	if (!t->this_system || host_online(&online) < 0) {
		ctx->excluded[CONTEXT_EXCL_UNUSABLE] = gone;
		return;
	}
	cpulist_andnot(&ctx->excluded[CONTEXT_EXCL_OFFLINE], &gone, &online);
	cpulist_and(&ctx->excluded[CONTEXT_EXCL_CGROUP], &gone, &online);
}

void context_fill(struct context *ctx, const struct options *o,
		  const struct topology *t)
{
	static double busy[CPULIST_MAX];
	struct policy_request *req = &ctx->req;
	struct cpuset set, mask;
	int r;

	ctx->t = t;
	ctx->near = -1;
	req->kind = o->policy;
	req->which = o->which;
	req->index = o->index;
	req->n = o->spread;
	req->smt = o->smt;
	req->current_cpu = -1;
	req->allowed = t->usable;
	unusable(ctx);
	if (t->this_system && !o->all) {
		if ((r = host_get_affinity(0, &set)) < 0)
			msg_die("cannot read pinrun's affinity: %s",
				strerror(-r));
		narrow(ctx, &set, CONTEXT_EXCL_AFFINITY);
	}
	/* What the launcher gave pinrun, before --kind narrows it. */
	mask = req->allowed;
	if (o->kind != POLICY_CORE_ANY) {
		policy_kind_cpus(t, o->kind, &set);
		narrow(ctx, &set, CONTEXT_EXCL_KIND);
	}
	if (o->near && !strcmp(o->near, "gpu"))
		read_near_gpu(ctx, o, t->this_system ? &mask : NULL);
	else if (o->near)
		read_near(ctx, o);
	if (o->share && !ctx->gpu_class)
		read_share(ctx, o, t->this_system ? &mask : NULL);
	if (o->spec)
		read_spec(ctx, o);
	else if (o->physical && o->which == POLICY_WHICH_INDEX)
		physical_index(ctx, o);
	/* --near alone places on every allowed CPU near the device. */
	if (o->near && o->policy == POLICY_NONE) {
		req->kind = POLICY_CPUS;
		req->cpus = req->allowed;
	}
	if (t->this_system && req->which == POLICY_WHICH_CURRENT) {
		r = o->pid ? host_last_cpu(o->pid) : host_current_cpu();
		if (r == -ENOENT && o->pid)
			msg_die("no %s %d",
				o->tid ? "thread with tid" : "process with pid",
				(int)o->pid);
		/* Outside its share or kind, 'current' is the first
		 * candidate inside it. */
		if (r >= 0 &&
		    (o->share || o->kind != POLICY_CORE_ANY || o->near) &&
		    !cpulist_has(&req->allowed, (unsigned)r)) {
			ctx->outside = true;
			ctx->outside_why =
			    cpulist_has(&ctx->excluded[CONTEXT_EXCL_SHARE],
					(unsigned)r)
				? CONTEXT_EXCL_SHARE
			    : cpulist_has(&ctx->excluded[CONTEXT_EXCL_NEAR],
					  (unsigned)r)
				? CONTEXT_EXCL_NEAR
				: CONTEXT_EXCL_KIND;
			r = -1;
		}
		req->current_cpu = r;
	}
	if (t->this_system && req->which == POLICY_WHICH_IDLE &&
	    host_sample_busy(busy, CPULIST_MAX, CONTEXT_IDLE_SAMPLE_MS) == 0) {
		req->busy = busy;
		req->busy_len = CPULIST_MAX;
	}
}

const char *context_mem_arg(const struct options *o)
{
	static char text[256];

	snprintf(text, sizeof(text), "%s%s%s", host_mempolicy_name(o->mem),
		 o->mem_nodes ? ":" : "",
		 o->mem_nodes ? msg_input(o->mem_nodes) : "");
	return text;
}

/* Nodes the kernel has but this process may not use (a cpuset's mems). */
static void __attribute__((noreturn))
die_mems_outside(const char *arg, const struct cpuset *outside,
		 const struct cpuset *allowed)
{
	msg_die("--mem=%s: NUMA node %s is not one this process may use "
		"(Mems_allowed_list %s)",
		arg, msg_cpus(outside), msg_cpus(allowed));
}

/* --mem's nodes: those given, else the device's (--near), else the
 * placement's own. On this machine they must be nodes pinrun may use. */
static void plan_memory(struct context *ctx, const struct options *o,
			const struct policy_plan *plan)
{
	const struct topology *t = ctx->t;
	struct cpuset *nodes = &ctx->mem_nodes, allowed, outside;
	struct memory_error e;
	const char *arg = context_mem_arg(o);

	cpulist_zero(nodes);
	if (!host_mempolicy_nodes(o->mem)) {
		ctx->mem_from = CONTEXT_MEM_FROM_NONE;
		return;
	}
	if (o->mem_nodes) {
		ctx->mem_from = CONTEXT_MEM_FROM_GIVEN;
		if (memory_parse(t, o->mem_nodes, nodes, &e) < 0) {
			/* hwloc leaves out the nodes the cpuset's mems do
			 * not allow: the kernel still has them. */
			unsigned long long bytes;

			if (e.code == MEMORY_E_NO_NODE && t->this_system &&
			    e.value < CPULIST_MAX &&
			    host_node_free((unsigned)e.value, &bytes) == 0 &&
			    host_mems_allowed(getpid(), &allowed) == 0 &&
			    !cpulist_has(&allowed, (unsigned)e.value)) {
				cpulist_zero(&outside);
				cpulist_add(&outside, (unsigned)e.value);
				die_mems_outside(arg, &outside, &allowed);
			}
			msg_die("%s", errors_memory(arg, t, &e));
		}
	} else {
		ctx->mem_from = ctx->near >= 0 ? CONTEXT_MEM_FROM_DEVICE
					       : CONTEXT_MEM_FROM_PLACEMENT;
		tree_local_numa(
		    t, ctx->near >= 0 ? &ctx->near_cpus : &plan->cpus, nodes);
	}
	if (t->this_system && host_mems_allowed(getpid(), &allowed) == 0) {
		cpulist_andnot(&outside, nodes, &allowed);
		if (ctx->mem_from == CONTEXT_MEM_FROM_GIVEN &&
		    !cpulist_empty(&outside))
			die_mems_outside(arg, &outside, &allowed);
		cpulist_and(nodes, nodes, &allowed);
	}
	if (cpulist_empty(nodes) && ctx->mem_from == CONTEXT_MEM_FROM_DEVICE)
		msg_die("--mem=%s: no NUMA node local to %s is allowed", arg,
			msg_input(o->near));
	if (cpulist_empty(nodes))
		msg_die("--mem=%s: no NUMA node local to CPUs %s is allowed",
			arg, msg_cpus(&plan->cpus));
}

/* --tell: the CPU quota (a run here), then the variables for the plan
 * and the environment the command would get. */
static void plan_tell(struct context *ctx, const struct options *o,
		      const struct policy_plan *plan)
{
	struct tell_input in = { .t = ctx->t,
				 .cpus = &plan->cpus,
				 .families = o->tell,
				 .follow = o->follow,
				 .envp = environ,
				 .gpu = -1,
				 .nic = -1 };
	char view[PATH_MAX];

	if (ctx->near >= 0) {
		enum topo_dev_type type = ctx->t->devs[ctx->near].type;
		const char *rdma, *netdev;

		in.gpu = devices_gpu_of(ctx->t, ctx->near);
		devices_nic_names(ctx->t, ctx->near, &rdma, &netdev);
		if (in.gpu < 0 &&
		    (type == TOPO_DEV_NETWORK || type == TOPO_DEV_OPENFABRICS ||
		     ((rdma || netdev) && type == TOPO_DEV_PCI)))
			in.nic = ctx->near;
	}

	if (ctx->t->this_system &&
	    host_cpu_quota(&ctx->quota, &ctx->period, ctx->quota_where,
			   sizeof(ctx->quota_where)) == 0) {
		in.quota = ctx->quota;
		in.period = ctx->period;
	}
	/* The view is this machine's: a plan for another has none. */
	if (ctx->t->this_system && (o->tell & TELL_VIEW)) {
		int r = host_view_library(view, sizeof(view));

		if (r == 0)
			in.view_library = view;
		else
			msg_note("warning: --tell: no CPU view (%s): programs "
				 "that count CPUs from sysconf, /sys or /proc "
				 "will count the machine's",
				 r == -EINVAL
				     ? "LD_PRELOAD cannot name its library, "
				       "whose path has a space or a colon"
				     : "its library, libpinrun-view.so, is "
				       "not beside pinrun nor installed");
	}
	if (tell_compute(&in, &ctx->tell) < 0)
		msg_die("out of memory");
}

void context_plan(struct context *ctx, const struct options *o,
		  struct policy_plan *plan)
{
	const struct topology *t = ctx->t;
	struct policy_error e;
	struct cpuset online, domain;
	unsigned logical;
	char what[300];
	struct policy_facts f = {
		.what = o->policy_text,
		.kind = o->policy,
		.smt = o->smt,
		.spec = o->spec,
		.allowed = &ctx->req.allowed,
		.usable = &t->usable,
		.complete = &t->complete,
		.domain = &domain,
		.all = o->all,
		.this_system = t->this_system,
	};

	if (!o->policy_text[0] && o->near) {
		snprintf(what, sizeof(what), "--near=%s", msg_input(o->near));
		f.what = what;
	}
	if (policy_plan(t, &ctx->req, plan, &e) == 0) {
		if (o->mem_given)
			plan_memory(ctx, o, plan);
		if (o->tell)
			plan_tell(ctx, o, plan);
		ctx->t_planned = context_now_ms();
		return;
	}
	cpulist_zero(&domain);
	if (e.code == POLICY_E_DOMAIN_EMPTY)
		tree_obj_cpus(t, plan->domain, &domain);
	if (e.code == POLICY_E_OFFLINE && t->this_system)
		f.offline = host_online(&online) == 0 &&
			    !cpulist_has(&online, (unsigned)e.value);
	/* --same-numa=8 where OS node 8 is numa:1: say so. */
	if (e.code == POLICY_E_NO_SUCH && e.value <= UINT_MAX &&
	    policy_desc(o->policy)->value == POLICY_VALUE_DOMAIN &&
	    location_logical_of(t, policy_desc(o->policy)->level,
				(unsigned)e.value, &logical) == 0) {
		f.has_os_match = true;
		f.os_match = logical;
	}
	msg_die("%s", errors_policy(&e, &f));
}

void context_parts(const struct context *ctx, const struct options *o,
		   const struct policy_plan *plan, struct cpuset **parts,
		   unsigned *count)
{
	const struct launcher_decision *d = &ctx->share;
	unsigned n = d->count ? (unsigned)d->count : 1;
	struct cpuset before, in;

	if (!(*parts = calloc(n, sizeof(**parts))))
		msg_die("out of memory");
	*count = n;
	/* What the share was cut from: the allowed set before it. */
	cpulist_or(&before, &ctx->req.allowed,
		   &ctx->excluded[CONTEXT_EXCL_SHARE]);
	cpulist_and(&in, &before, &d->mask);
	for (unsigned i = 0; i < n; i++) {
		struct launcher_decision other = *d;
		struct policy_request req = ctx->req;
		struct launcher_error le;
		struct policy_error pe;
		struct policy_plan p;

		if (!d->count || i == d->index) {
			(*parts)[i] = plan->cpus;
			continue;
		}
		other.index = i;
		if (ctx->gpu_class) {
			unsigned long pos, same;
			unsigned ngpus;
			int *gpus = gpu_list(ctx, &ngpus), gpu;
			bool ok = gpu_part(ctx, o, gpus, i, n, &ctx->gpu_base,
					   &gpu, &req.allowed, &pos, &same);

			free(gpus);
			if (!ok)
				msg_die(
				    "--near=gpu: none of the CPUs near rank "
				    "%u's GPU is in the allowed set %s",
				    i, msg_cpus(&ctx->gpu_base));
		} else if (launcher_part(ctx->t, &other, &in,
					 o->smt == POLICY_SMT_ALL, &req.allowed,
					 &le) < 0)
			msg_die("%s",
				errors_launcher(o->share, &le,
						o->smt == POLICY_SMT_ALL));
		if (o->near && o->policy == POLICY_NONE)
			req.cpus = req.allowed;
		req.current_cpu = -1;
		if (policy_plan(ctx->t, &req, &p, &pe) < 0)
			msg_die("--share %s: part %u of %u (CPUs %s) has no "
				"placement for %s",
				msg_input(o->share), i + 1, n,
				msg_cpus(&req.allowed),
				o->policy_text[0] ? o->policy_text : "--near");
		(*parts)[i] = p.cpus;
		policy_plan_free(&p);
	}
}

bool context_plain_cpus(const struct options *o, struct cpuset *cpus)
{
	struct cpuset affinity;
	struct cpulist_error e;
	enum cpulist_syntax syntax;

	if (o->policy != POLICY_CPUS || !o->command || o->all || o->dry_run ||
	    o->explain || o->json || o->mem_given || o->pid || o->follow ||
	    o->share || o->kind != POLICY_CORE_ANY || o->near || o->list ||
	    o->tell)
		return false;
	syntax = cpulist_syntax(o->spec);
	if (syntax == CPULIST_SYNTAX_LOCATION ||
	    (syntax == CPULIST_SYNTAX_LIST
		 ? cpulist_parse_list(o->spec, cpus, &e)
		 : cpulist_parse_mask(o->spec, cpus, &e)) < 0 ||
	    host_get_affinity(0, &affinity) < 0)
		return false;
	return cpulist_subset(cpus, &affinity);
}
