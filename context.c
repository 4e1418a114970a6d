/*
 * context.c: between the options and the plan. It narrows the machine to
 * the allowed set (online, cgroup, inherited affinity, --kind, --share)
 * and remembers why each CPU went, reads --cpus and --hot=SPEC against
 * the topology, asks the kernel where pinrun runs and how busy the CPUs
 * are, then has policy.c plan. Errors are worded by errors.c.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "errors.h"
#include "host.h"
#include "location.h"
#include "message.h"

double context_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* --cpus SPEC or --hot=SPEC: a list, a mask or a location. */
static void read_spec(struct context *ctx, const char *s)
{
	struct cpulist_error e;
	struct location_error le;
	struct cpuset *cpus = &ctx->req.cpus;

	switch (cpulist_syntax(s)) {
	case CPULIST_SYNTAX_LIST:
		if (cpulist_parse_list(s, cpus, &e) < 0)
			msg_die("%s", errors_cpulist(s, &e));
		return;
	case CPULIST_SYNTAX_MASK:
		if (cpulist_parse_mask(s, cpus, &e) < 0)
			msg_die("%s", errors_cpulist(s, &e));
		return;
	case CPULIST_SYNTAX_LOCATION:
		break;
	}
	if (location_parse(ctx->t, s, cpus, &le) < 0)
		msg_die("%s", errors_location(ctx->t, s, &le));
	/* "all" is every CPU pinrun may use, as numactl's is. */
	if (!strcasecmp(s, "all"))
		cpulist_and(cpus, cpus, &ctx->req.allowed);
}

/* Take out of the allowed set what is not in keep, for a reason. */
static void narrow(struct context *ctx, const struct cpuset *keep,
		   enum exclusion why)
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
	if (launcher_part(ctx->t, &ctx->share, &in, o->smt == SMT_ALL, &part,
			  &e) < 0)
		msg_die("%s", errors_launcher(o->share, &e, o->smt == SMT_ALL));
	narrow(ctx, &part, EXCL_SHARE);
}

/* The CPUs the topology has but cannot be used, by reason. */
static void unusable(struct context *ctx)
{
	const struct topology *t = ctx->t;
	struct cpuset gone, online;

	cpulist_andnot(&gone, &t->complete, &t->usable);
	if (!t->this_system || host_online(&online) < 0) {
		ctx->excluded[EXCL_UNUSABLE] = gone;
		return;
	}
	cpulist_andnot(&ctx->excluded[EXCL_OFFLINE], &gone, &online);
	cpulist_and(&ctx->excluded[EXCL_CGROUP], &gone, &online);
}

void context_fill(struct context *ctx, const struct options *o,
		  const struct topology *t)
{
	static double busy[CPULIST_MAX];
	struct policy_request *req = &ctx->req;
	struct cpuset set, mask;
	int r;

	ctx->t = t;
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
		narrow(ctx, &set, EXCL_AFFINITY);
	}
	/* What the launcher gave pinrun, before --kind narrows it. */
	mask = req->allowed;
	if (o->kind != KIND_ANY) {
		policy_kind_cpus(t, o->kind == KIND_FAST, &set);
		narrow(ctx, &set, EXCL_KIND);
	}
	if (o->share)
		read_share(ctx, o, t->this_system ? &mask : NULL);
	if (o->spec)
		read_spec(ctx, o->spec);
	if (t->this_system && req->which == WHICH_CURRENT) {
		r = o->pid ? host_last_cpu(o->pid) : host_current_cpu();
		if (r == -ENOENT && o->pid)
			msg_die("no process with pid %d", (int)o->pid);
		/* Outside its share or kind, 'current' is the first
		 * candidate inside it. */
		if (r >= 0 && (o->share || o->kind != KIND_ANY) &&
		    !cpulist_has(&req->allowed, (unsigned)r)) {
			ctx->outside = true;
			r = -1;
		}
		req->current_cpu = r;
	}
	if (t->this_system && req->which == WHICH_IDLE &&
	    host_sample_busy(busy, CPULIST_MAX, CONTEXT_IDLE_SAMPLE_MS) == 0) {
		req->busy = busy;
		req->busy_len = CPULIST_MAX;
	}
}

void context_plan(struct context *ctx, const struct options *o,
		  struct policy_plan *plan)
{
	const struct topology *t = ctx->t;
	struct policy_error e;
	struct cpuset online, domain;
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

	if (policy_plan(t, &ctx->req, plan, &e) == 0) {
		ctx->t_planned = context_now_ms();
		return;
	}
	cpulist_zero(&domain);
	if (e.code == POLICY_E_DOMAIN_EMPTY)
		tree_obj_cpus(t, plan->domain, &domain);
	if (e.code == POLICY_E_OFFLINE && t->this_system)
		f.offline = host_online(&online) == 0 &&
			    !cpulist_has(&online, (unsigned)e.value);
	msg_die("%s", errors_policy(&e, &f));
}

bool context_plain_cpus(const struct options *o, struct cpuset *cpus)
{
	struct cpuset affinity;
	struct cpulist_error e;
	enum cpulist_syntax syntax;

	if (o->policy != POLICY_CPUS || !o->command || o->all || o->dry_run ||
	    o->explain || o->json || o->mem_given || o->pid || o->follow ||
	    o->share || o->kind != KIND_ANY)
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
