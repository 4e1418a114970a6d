/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * act.c: what pinrun does to processes once it has a plan. Binding goes
 * through sched_setaffinity and is believed only when sched_getaffinity
 * says the same (a fake topology can make hwloc's binding a silent no-op;
 * this file never uses hwloc). It words the kernel's refusals itself:
 * they are errnos, not module codes; and it prints --pid's lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "act.h"
#include "host.h"
#include "message.h"
#include "pinrun.h"

void act_bind(pid_t tid, const struct cpuset *cpus)
{
	struct cpuset got;
	int r = host_set_affinity(tid, cpus);

	if (r == -ESRCH && tid)
		return; /* the thread ended meanwhile */
	if (r < 0 && tid)
		msg_die("cannot re-place pid %d: %s", (int)tid, strerror(-r));
	if (r < 0)
		msg_die("cannot bind to CPUs %s: %s", msg_cpus(cpus),
			strerror(-r));
	/* Trust only what the kernel reports back. */
	if ((r = host_get_affinity(tid, &got)) < 0) {
		if (r == -ESRCH && tid)
			return;
		msg_die("cannot read back the affinity: %s", strerror(-r));
	}
	if (!cpulist_equal(&got, cpus))
		msg_die("the kernel applied CPUs %s instead of %s",
			msg_cpus(&got), msg_cpus(cpus));
}

/* The affinity of task tid before pinrun changes it. */
static void old_affinity(const struct options *o, pid_t tid, struct cpuset *set)
{
	int r = host_get_affinity(tid, set);

	if (r < 0 && tid == o->pid)
		msg_affinity_unreadable(tid, o->tid, -r);
	if (r < 0)
		cpulist_zero(set); /* the thread ended meanwhile */
}

/* One of --pid's lines, as taskset prints them: "pid 42's current
 * affinity list: 0-3" (who "pid" or "tid", when "current" or "new"). */
static void print_affinity(const char *who, pid_t id, const char *when,
			   const struct cpuset *set)
{
	printf("%s %d's %s affinity list: %s\n", who, (int)id, when,
	       msg_list(set));
	fflush(stdout);
}

void act_replace(const struct options *o, const struct policy_plan *plan)
{
	const char *who = o->tid ? "tid" : "pid";
	pid_t *tids = NULL, *done = NULL;
	struct cpuset first, old;
	unsigned n, ndone = 0;
	int r;

	/* taskset's two lines: what it was, then what it is. */
	old_affinity(o, o->pid, &first);
	if (!o->quiet)
		print_affinity(who, o->pid, "current", &first);
	if (o->tid) {
		act_bind(o->pid, &plan->cpus);
		if (!o->quiet)
			print_affinity(who, o->pid, "new", &plan->cpus);
		return;
	}
	/* Threads may start while we work: go round until a pass finds no
	 * new one. */
	for (int pass = 0; pass < 100; pass++) {
		unsigned fresh = 0;
		pid_t *more;

		if ((r = host_threads(o->pid, &tids, &n)) < 0) {
			if (r == -ENOENT && pass == 0)
				msg_no_task(o->pid, false);
			if (r == -ENOENT)
				break; /* it ended after it was re-placed */
			msg_die("cannot list the threads of pid %d: %s",
				(int)o->pid, strerror(-r));
		}
		if (!(more = realloc(done, (ndone + n + 1) * sizeof(*done))))
			msg_die("out of memory");
		done = more;
		for (unsigned i = 0; i < n; i++) {
			bool seen = false;

			for (unsigned k = 0; k < ndone && !seen; k++)
				seen = done[k] == tids[i];
			if (seen)
				continue;
			/* A thread that had other CPUs than the process
			 * gets a line of its own. */
			if (tids[i] != o->pid && !o->quiet) {
				old_affinity(o, tids[i], &old);
				if (!cpulist_empty(&old) &&
				    !cpulist_equal(&old, &first))
					print_affinity("tid", tids[i],
						       "current", &old);
			}
			act_bind(tids[i], &plan->cpus);
			done[ndone++] = tids[i];
			fresh++;
		}
		free(tids);
		if (!fresh)
			break;
	}
	free(done);
	if (!o->quiet)
		print_affinity(who, o->pid, "new", &plan->cpus);
}

void act_tell(const struct tell_result *r)
{
	for (unsigned i = 0; i < r->nvars; i++)
		if (r->vars[i].value &&
		    setenv(r->vars[i].name, r->vars[i].value, 1) < 0)
			msg_die("cannot set %s: %s", r->vars[i].name,
				strerror(errno));
}

void act_memory(const struct context *ctx, const struct options *o)
{
	const struct cpuset *nodes = &ctx->mem_nodes;
	const char *arg = context_mem_arg(o);
	int r = host_set_mempolicy(o->mem, nodes);

	if (r == -EPERM && host_seccomp_mode() == 2)
		msg_die("--mem=%s: set_mempolicy is denied by a seccomp filter "
			"(as in Docker's default profile); nothing was run",
			arg);
	if (r == -EINVAL && o->mem == HOST_MEM_PREFERRED &&
	    cpulist_count(nodes) > 1)
		msg_die(
		    "--mem=%s: the kernel refuses a preference for several "
		    "nodes (%s; MPOL_PREFERRED_MANY needs Linux 5.15): name "
		    "one",
		    arg, msg_cpus(nodes));
	if (r < 0)
		msg_die("cannot set memory policy '%s' on nodes %s: %s", arg,
			msg_cpus(nodes), strerror(-r));
}

void act_exec(char **command)
{
	int err;

	fflush(stdout);
	execvp(command[0], command);
	err = errno;
	act_cannot_run(command[0], err);
}

void act_cannot_run(const char *command, int err)
{
	msg_note("cannot run '%s': %s", msg_input(command), strerror(err));
	exit(pinrun_exec_status(err));
}
