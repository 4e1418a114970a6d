/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pinrun.c: main(), the table of contents. Read the options; find the
 * topology (the cache, else hwloc in a child process); work out the
 * allowed set and plan; then print the plan, re-place --pid, or bind (and
 * follow) and exec the command. Each step is another file's: options.c,
 * cache.c and loader.c, context.c, output.c, act.c, follower.c.
 */
#include <stdlib.h>

#include "act.h"
#include "cache.h"
#include "context.h"
#include "devices.h"
#include "errors.h"
#include "follower.h"
#include "host.h"
#include "list.h"
#include "loader.h"
#include "message.h"
#include "options.h"
#include "output.h"
#include "pinrun.h"

/* The topology from the cache when it holds this source under its current
 * key, else from hwloc (then into the cache). */
static struct topology *load(const struct options *o, struct context *ctx)
{
	enum topo_source_kind kind =
	    o->topology ? topo_source_kind(o->topology) : TOPO_SRC_LIVE;
	enum cache_unusable why = CACHE_NO_KEY;
	const char *env_var = kind == TOPO_SRC_LIVE ? topo_env_source() : NULL;
	bool devices = o->near || o->list;
	struct topo_error e;
	struct topology *t;
	struct cache c;

	ctx->cache = cache_words(CACHE_OFF);
	if (!o->no_cache && (why = cache_open(&c, kind, o->topology)) == 0 &&
	    cache_load(&c, &t) == 0) {
		/* An entry saved without devices, or (this machine) without
		 * the device asked for, which may have come since. */
		if (!devices || (t->devices && (!o->near || !t->this_system ||
						devices_known(t, o->near)))) {
			ctx->cache = cache_words(CACHE_HIT);
			goto loaded;
		}
		tree_free(t);
	}
	if (!o->no_cache && why)
		ctx->cache = cache_strerror(why);
	if (loader_load(kind, o->topology, devices, &t, &e) < 0)
		msg_die("%s",
			errors_topo(&e, kind,
				    env_var ? getenv(env_var) : o->topology,
				    env_var));
	if (!o->no_cache && !why)
		ctx->cache = cache_words(
		    cache_store(&c, t) == 0 ? CACHE_STORED : CACHE_NOT_STORED);
loaded:
	if (!o->no_cache && !why)
		cache_close(&c);
	ctx->t_loaded = context_now_ms();
	if (!t->this_system && !o->topology &&
	    (o->show || (!o->dry_run && !o->json && (o->command || o->pid))))
		msg_die("the topology comes from %s, not from this machine: "
			"unset it (or set HWLOC_THISSYSTEM=1) to %s",
			t->source,
			o->show ? "show a process" : "run a command");
	return t;
}

int main(int argc, char **argv)
{
	struct context ctx = { .t_start = context_now_ms() };
	const struct options *o;
	struct policy_plan plan;
	struct topology *t;
	struct cpuset cpus;

	msg_check_streams_at_exit();
	host_unview();
	o = options_parse(argc, argv);
	if (context_plain_cpus(o, &cpus)) {
		act_bind(0, &cpus);
		act_exec(o->command);
	}
	t = load(o, &ctx);
	if (o->show) {
		output_show(o, t);
		tree_free(t);
		return PINRUN_EXIT_OK;
	}
	context_fill(&ctx, o, t);
	if (o->list && ctx.req.kind == POLICY_NONE) {
		list_print(&ctx, o, NULL);
		tree_free(t);
		return PINRUN_EXIT_OK;
	}
	context_plan(&ctx, o, &plan);
	if (o->explain)
		output_explain(&ctx, o, &plan);
	if (o->list)
		list_print(&ctx, o, &plan);
	else if (o->json)
		output_json(&ctx, o, &plan);
	else if (o->emit)
		output_emit(&ctx, o, &plan);
	else if (o->dry_run && o->tell)
		output_tell(&ctx);
	else if (o->dry_run)
		output_dry_run(&plan);
	if (o->pid && !o->dry_run && !o->json)
		act_replace(o, &plan);
	if (o->command && !o->dry_run && !o->json) {
		/* The memory policy first: it is inherited, and follow mode
		 * as PID 1 never returns here. Follow mode binds the first
		 * slot, or on its fallback the whole placement, as plain runs
		 * do. */
		if (o->mem_given)
			act_memory(&ctx, o);
		if (o->tell)
			act_tell(&ctx.tell);
		if (o->follow)
			follower_start(o, &plan);
		else
			act_bind(0, &plan.cpus);
		tree_free(t);
		policy_plan_free(&plan);
		tell_free(&ctx.tell);
		act_exec(o->command);
	}
	tree_free(t);
	policy_plan_free(&plan);
	tell_free(&ctx.tell);
	return PINRUN_EXIT_OK;
}
