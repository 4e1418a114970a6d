/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * follower.c: --follow between the plan and follow.c. It turns the plan's
 * slots into slots.c's bookkeeping, answers follow.c's callbacks (where a
 * new task goes, what --report writes, what --explain counts), words why
 * ptrace cannot be used, and mirrors the command's end when pinrun is the
 * tracing parent (PID 1). follow.c knows nothing of any of this.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "act.h"
#include "errors.h"
#include "follow.h"
#include "follower.h"
#include "host.h"
#include "message.h"
#include "pinrun.h"
#include "report.h"
#include "slots.h"

/* When the command cannot be exec'd, pinrun exits traced, and
 * LeakSanitizer would attach to it: without the seccomp filter that
 * fails, with it the helper would let go of pinrun only to see it exit.
 * A sanitizer build asks this before checking for leaks at exit. */
int __lsan_is_turned_off(void);
static bool traced_by_helper;

int __lsan_is_turned_off(void)
{
	return traced_by_helper;
}

/* --- the callbacks follow.c calls, in the helper ------------------------ */

struct follower {
	struct slots slots;
	struct report report;
	const struct options *o;
	struct cpuset whole; /* the placement, as a plain run binds it */
	pid_t command_parent;
	unsigned privileged, tracers, unplaced, listeners;
	bool command_seen;  /* place was called for the command */
	bool command_gone;  /* the command was let go (or ended) */
	bool finished;	    /* survivors are being let go */
	bool thread_noted;  /* the note on threads without --threads */
	bool report_warned; /* the warning on a report write that failed */
};

static void on_unplaced(void *ctx, pid_t tid, const void *mask, int err);

/* Whether set is exactly slot's mask. */
static bool on_slot(const struct follower *f, const struct cpuset *set,
		    unsigned slot)
{
	const unsigned char *mask = slots_mask(&f->slots, slot);
	const unsigned char *bytes = (const unsigned char *)set->w;

	if (memcmp(bytes, mask, f->slots.mask_bytes) != 0)
		return false;
	for (size_t i = f->slots.mask_bytes; i < sizeof(set->w); i++)
		if (bytes[i])
			return false;
	return true;
}

/* A thread without --threads: it keeps its process's CPUs; one note says
 * that --threads would place it (for a process on one slot: the command's
 * threads have the whole placement, as in a plain run). */
static void thread_unplaced(struct follower *f, pid_t tid)
{
	long long tgid;
	int slot;
	char comm[64] = "?";

	if (f->thread_noted) /* (then nothing is read: no cost per thread) */
		return;
	tgid = host_status_number(tid, "Tgid");
	slot = tgid > 0 ? slots_slot_of(&f->slots, (pid_t)tgid) : -1;
	if (slot < 0 || (unsigned)slot >= f->slots.n)
		return;
	f->thread_noted = true;
	host_comm((pid_t)tgid, comm, sizeof(comm));
	msg_note("note: process %lld (%s) starts threads, which share its "
		 "CPUs %s; --threads would place each on a slot",
		 tgid, msg_input(comm), f->slots.text[slot]);
}

/* With --threads, a task on its slot that asks for its own affinity is
 * told the whole placement, as a plain run would tell it: it sizes
 * itself to that (nproc, Java's availableProcessors, libgomp, xz -T0),
 * and --threads places each thread it makes. One that moved itself off
 * its slot is told the truth. */
static const void *on_affinity(void *ctx, pid_t tid)
{
	struct follower *f = ctx;
	int slot = slots_slot_of(&f->slots, tid);
	struct cpuset now;

	if (slot < 0 || (unsigned)slot >= f->slots.n ||
	    host_get_affinity(tid, &now) != 0 ||
	    !on_slot(f, &now, (unsigned)slot))
		return NULL;
	return slots_mask(&f->slots, f->slots.n);
}

static const void *on_place(void *ctx, pid_t tid, pid_t parent, bool thread)
{
	struct follower *f = ctx;
	int slot, pslot;
	pid_t from = parent;
	bool off = false;

	/* The command keeps the whole placement, which pinrun bound it to:
	 * programs size themselves to it (nproc, GOMAXPROCS, xz -T0). */
	if (!f->command_seen && !parent && !thread) {
		f->command_seen = true;
		if (slots_whole(&f->slots, tid) < 0)
			return NULL;
		report_start(&f->report, tid, f->command_parent,
			     f->slots.text[f->slots.n]);
		return NULL;
	}
	if (thread && !f->o->threads) {
		thread_unplaced(f, tid);
		return NULL;
	}
	/* Being let go: on the whole placement, as a plain run has it. */
	if (f->finished) {
		if (slots_whole(&f->slots, tid) < 0)
			return NULL;
		if (!thread)
			report_start(&f->report, tid, parent,
				     f->slots.text[f->slots.n]);
		return slots_mask(&f->slots, f->slots.n);
	}
	/* A child inherits its parent's slot only when the parent really is
	 * on it: the child's own mask, the parent's when it forked, says. */
	pslot = parent ? slots_slot_of(&f->slots, parent) : -1;
	if (pslot >= 0 && (unsigned)pslot < f->slots.n) {
		struct cpuset mine;

		if (host_get_affinity(tid, &mine) == 0 &&
		    !on_slot(f, &mine, (unsigned)pslot)) {
			off = true;
			from = 0;
		}
	}
	slot = slots_place(&f->slots, tid, from, thread);
	if (slot < 0)
		return NULL;
	/* The tracer sets no mask that a child has from its parent already
	 * (the same slot): this one does not have it. */
	if (off && slot == pslot &&
	    sched_setaffinity(tid, f->slots.mask_bytes,
			      slots_mask(&f->slots, (unsigned)slot)) < 0 &&
	    errno != ESRCH) {
		int err = errno;

		if (!thread)
			report_start(&f->report, tid, parent,
				     f->slots.text[slot]);
		on_unplaced(f, tid, slots_mask(&f->slots, (unsigned)slot), err);
		return NULL;
	}
	if (!thread)
		report_start(&f->report, tid, parent, f->slots.text[slot]);
	return slots_mask(&f->slots, (unsigned)slot);
}

/* The kernel refused a slot: the task keeps the CPUs it inherited, counts
 * on no slot, and its report line says "cpus":null. */
static void on_unplaced(void *ctx, pid_t tid, const void *mask, int err)
{
	struct follower *f = ctx;
	unsigned slot = 0;

	while (slot < f->slots.n && slots_mask(&f->slots, slot) != mask)
		slot++;
	if (!f->unplaced++)
		msg_note("warning: cannot place process %d on CPUs %s: %s; it "
			 "keeps the CPUs it inherited",
			 (int)tid,
			 slot < f->slots.n ? f->slots.text[slot] : "?",
			 strerror(err));
	slots_gone(&f->slots, tid);
	/* Known still, on no slot. */
	slots_whole(&f->slots, tid);
	report_unplaced(&f->report, tid);
}

static void on_gone(void *ctx, pid_t tid)
{
	slots_gone(&((struct follower *)ctx)->slots, tid);
}

static void on_moved(void *ctx, pid_t from, pid_t to)
{
	struct follower *f = ctx;
	int slot = slots_slot_of(&f->slots, from);

	slots_move(&f->slots, from, to);
	/* A placed thread (--threads) exec'd: the process is on its CPUs. */
	report_moved(&f->report, to,
		     slot >= 0 && (unsigned)slot <= f->slots.n
			 ? f->slots.text[slot]
			 : NULL);
}

static void on_exec(void *ctx, pid_t tid, const char *program)
{
	struct cpuset ran;

	report_exec(&((struct follower *)ctx)->report, tid, program,
		    host_get_affinity(tid, &ran) == 0 ? &ran : NULL);
}

/* A report that cannot be written is one warning, while the command
 * runs on (and, where pinrun gives the command's status, a failure). */
static void report_check(struct follower *f)
{
	if (!f->report.err || f->report_warned)
		return;
	f->report_warned = true;
	msg_note("warning: cannot write report '%s': %s; lines are missing "
		 "from it",
		 msg_input(f->o->report), strerror(f->report.err));
}

static void on_ended(void *ctx, pid_t tid, int status, const struct rusage *ru)
{
	struct follower *f = ctx;

	report_end(&f->report, tid, status, ru);
	report_check(f);
}

/* What a privileged program is, in the warnings. */
static const char *privileged_word(enum follow_why why)
{
	return why == FOLLOW_SETUID   ? "is set-user-ID"
	       : why == FOLLOW_SETGID ? "is set-group-ID"
				      : "has file capabilities";
}

static void on_released(void *ctx, pid_t tid, enum follow_why why,
			const char *program)
{
	struct follower *f = ctx;

	if (slots_slot_of(&f->slots, tid) == (int)f->slots.n && !f->finished)
		f->command_gone = true; /* the command, let go at once */
	if (why == FOLLOW_SETUID || why == FOLLOW_SETGID ||
	    why == FOLLOW_FILECAPS) {
		f->privileged++;
		msg_note("warning: %s %s: it runs without its privileges under "
			 "--follow; stopped following it",
			 msg_input(program), privileged_word(why));
	} else if (why == FOLLOW_TRACER || why == FOLLOW_TRACEE) {
		f->tracers++;
	}
	report_detached(&f->report, tid);
	report_check(f);
}

/* Survivors run on the whole placement once let go, as in a plain run:
 * every thread of every process still followed goes there now, before the
 * tracer lets go (a task placed from now on goes there too). Returns how
 * many processes that is. */
static unsigned widen_survivors(struct follower *f)
{
	unsigned processes = 0;
	pid_t tid;

	f->finished = true;
	for (size_t i = 0;
	     (i = tidmap_next(&f->slots.tasks, i, &tid)) != (size_t)-1;) {
		pid_t *tids = NULL;
		unsigned n = 0;

		if (host_status_number(tid, "Tgid") != tid)
			continue; /* a thread: its process's turn moves it */
		processes++;
		if (host_threads(tid, &tids, &n) < 0)
			continue;
		for (unsigned k = 0; k < n; k++)
			host_set_affinity(tids[k], &f->whole);
		free(tids);
	}
	return processes;
}

static void on_finished(void *ctx, unsigned processes, unsigned pending)
{
	struct follower *f = ctx;
	char counts[4096] = "";
	size_t len = 0;
	unsigned let_go = widen_survivors(f) + pending;

	if (let_go && !f->command_gone && !f->o->wait_all)
		msg_note("note: %u process%s still running when the command "
			 "ended, let go on CPUs %s (the whole placement); "
			 "--wait-all keeps following them",
			 let_go, let_go == 1 ? "" : "es", msg_cpus(&f->whole));
	if (!f->o->explain)
		return;
	for (unsigned i = 0; i < f->slots.n && len < sizeof(counts); i++)
		len += (size_t)snprintf(counts + len, sizeof(counts) - len,
					"%s%s: %u", i ? ", " : "",
					f->slots.text[i], f->slots.given[i]);
	msg_note("follow: %u process%s followed; tasks per slot (CPUs: count) "
		 "%s; let go: %u still running (on CPUs %s%s), %u privileged, "
		 "%u tracing or traced",
		 processes, processes == 1 ? "" : "es", counts, let_go,
		 msg_cpus(&f->whole),
		 f->o->wait_all ? "" : "; --wait-all keeps them", f->privileged,
		 f->tracers);
}

/* The kernel refuses a second seccomp listener in the tree: say it once,
 * at the moment it happens. */
static void on_own_listener(void *ctx, pid_t tid, const char *program)
{
	(void)tid;
	if (!program || (((struct follower *)ctx)->listeners++))
		return;
	msg_note("warning: %s installs a seccomp listener, which the kernel "
		 "refuses under --follow (pinrun's filter has one): its call "
		 "fails with EBUSY",
		 msg_input(program));
}

/* Survivors keep no_new_privs for good: say it once, at the end. */
static void on_nnp_kept(void *ctx, unsigned processes)
{
	(void)ctx;
	msg_note("note: %u process%s still running keep%s no_new_privs, which "
		 "--follow's seccomp filter needed without CAP_SYS_ADMIN: "
		 "set-user-ID programs %s get no privileges",
		 processes, processes == 1 ? "" : "es",
		 processes == 1 ? "s" : "",
		 processes == 1 ? "it runs" : "they run");
}

/* --- when ptrace cannot be used ------------------------------------------ */

/* The processes --follow takes of RLIMIT_NPROC beside the command. */
static unsigned tracer_processes(const struct options *o)
{
	return FOLLOW_PROCESSES + (o->wait_all || getpid() == 1);
}

static const char *unavailable_reason(const struct options *o,
				      const struct follow_start *st)
{
	char comm[64] = "?";
	struct follow_facts facts = {
		.seccomp_mode = host_seccomp_mode(),
		.yama_scope = host_yama_scope(),
		.comm = comm,
		.nproc_limit = -1,
		.nproc_needs = tracer_processes(o),
	};

	if (st->why == FOLLOW_TRACED)
		host_comm(st->tracer, comm, sizeof(comm));
	if (st->why == FOLLOW_NO_HELPER && st->err == EAGAIN &&
	    host_nproc(&facts.nproc_limit, &facts.nproc_running) != 0)
		facts.nproc_limit = -1;
	return errors_follow(st, &facts);
}

/* Whether RLIMIT_NPROC leaves room for the tracer and one process of the
 * command's: else following would take what the command may need, where
 * a plain run has it. */
static bool nproc_room(const struct options *o)
{
	long long limit, running;

	return host_nproc(&limit, &running) != 0 ||
	       limit - running >= (long long)tracer_processes(o) + 1;
}

/* --explain: whether programs that trace work in the followed tree. */
static void explain_filter(const struct follow_start *st)
{
	if (st->notify == FOLLOW_NOTIFY_OFF)
		msg_note("tracers: no seccomp filter (%s): a ptrace attach in "
			 "the tree fails, but by strace, gdb and the other "
			 "known tracers, let go at their exec",
			 st->notify_err == ENOSYS && !host_kernel_at_least(5, 8)
			     ? "it needs Linux 5.8 or later"
			     : strerror(st->notify_err));
	else if (st->notify == FOLLOW_NOTIFY_OUTER)
		msg_note("tracers: the filter of the pinrun --follow that "
			 "runs this one sends each ptrace attach in the tree "
			 "(debuggers, LeakSanitizer) to that pinrun, which "
			 "asks this one to let go of both sides");
	else
		msg_note(
		    "tracers: a seccomp filter sends each ptrace attach "
		    "in the tree (debuggers, LeakSanitizer) to pinrun, "
		    "which lets go of both sides%s",
		    st->notify == FOLLOW_NOTIFY_NNP
			? "; it needs no_new_privs here (no CAP_SYS_ADMIN): "
			  "set-user-ID programs in the tree run without "
			  "their privileges"
			: "");
}

/* One warning, then the whole placement by inheritance (or, with
 * --follow=strict, an error and nothing run). */
static void unavailable(const struct options *o, const char *reason,
			const struct cpuset *whole)
{
	if (o->follow_strict)
		msg_die("--follow=strict: ptrace unavailable (%s)", reason);
	msg_note("warning: --follow unavailable (%s): children inherit CPUs %s",
		 reason, msg_cpus(whole));
}

/* The command's wait status, as pinrun's own: exit with it, or die of the
 * same signal (without a core of pinrun's own); 128+signal where a signal
 * cannot kill pinrun (PID 1). */
static void __attribute__((noreturn)) mirror(int status)
{
	sigset_t set;
	int sig;

	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	exit(128 + sig);
}

/* pinrun's status where it waits for the command: the command's, but a
 * report that lost lines makes a command that succeeded fail (125). */
static void __attribute__((noreturn)) finish(bool report_lost, int status)
{
	if (report_lost && WIFEXITED(status) && !WEXITSTATUS(status))
		exit(PINRUN_EXIT_FAILURE);
	mirror(status);
}

/* What the helper tells the waiting pinrun (--wait-all), as its last
 * word: the tree ended (its report whole, or lost lines); none at all, the
 * helper ended before the tree (killed). The command says it runs
 * unfollowed (no helper). */
#define TREE_ENDED  'E'
#define REPORT_LOST 'R'
#define UNFOLLOWED  'U'

/* The helper ended before the tree did: say what was lost. */
static void tracer_lost(const struct options *o)
{
	msg_note("warning: --follow's tracer ended before the command's tree "
		 "did: the processes started since were neither placed nor "
		 "waited for%s%s%s",
		 o->report ? ", and report '" : "",
		 o->report ? msg_input(o->report) : "",
		 o->report ? "' lacks their lines" : "");
}

/* --- starting ------------------------------------------------------------ */

static void __attribute__((noreturn))
as_parent(const struct options *o, const struct policy_plan *plan,
	  struct follower *f, struct follow_ops *ops)
{
	struct follow_start st;
	int status, exec_error;
	struct cpuset whole = plan->cpus;

	if (follow_parent(ops, o->command, slots_mask(&f->slots, f->slots.n),
			  &whole, o->follow_strict, &st, &status,
			  &exec_error) < 0)
		unavailable(o, unavailable_reason(o, &st), &plan->cpus);
	if (exec_error)
		act_cannot_run(o->command[0], exec_error);
	finish(f->report.err != 0, status);
}

/* slots_init's source of CPUs: the plan's slots. */
static void plan_slot(const void *plan, unsigned i, struct cpuset *set)
{
	policy_slot_cpus(plan, i, set);
}

void follower_start(const struct options *o, const struct policy_plan *plan)
{
	static struct follower f;
	static struct follow_ops ops = {
		.place = on_place,
		.unplaced = on_unplaced,
		.gone = on_gone,
		.moved = on_moved,
		.exec = on_exec,
		.ended = on_ended,
		.released = on_released,
		.finished = on_finished,
		.own_listener = on_own_listener,
		.nnp_kept = on_nnp_kept,
		.ctx = &f,
		.keep_fd = -1,
	};
	struct follow_start st;
	struct cpuset first;
	struct stat self;
	enum host_gain gain;
	int fd = -1;
	long long link_owner;

	policy_slot_cpus(plan, 0, &first);
	/* A command that would lose its privileges runs unfollowed. */
	if (!follow_keeps_privileges() &&
	    (gain = host_privileged_program(o->command[0])) != HOST_GAIN_NONE) {
		char reason[256];

		snprintf(reason, sizeof(reason), "%s %s",
			 msg_input(o->command[0]),
			 privileged_word(follow_why_of_gain(gain)));
		unavailable(o, reason, &plan->cpus);
		act_bind(0, &plan->cpus);
		return;
	}
	if (o->report && (fd = report_open(o->report, &link_owner)) < 0) {
		if (fd == -EACCES && link_owner >= 0)
			msg_die("cannot open report '%s': a symbolic link "
				"owned by uid %lld in a shared sticky "
				"directory, not followed (as "
				"fs.protected_symlinks has it): give a path of "
				"your own",
				msg_input(o->report), link_owner);
		msg_die("cannot open report '%s': %s", msg_input(o->report),
			fd == -ENXIO ? "a FIFO that no process reads"
				     : strerror(-fd));
	}
	if (slots_init(&f.slots, plan->nslots, plan_slot, plan, &plan->cpus))
		msg_die("out of memory");
	report_init(&f.report, fd);
	f.o = o;
	f.whole = plan->cpus;
	/* The command is pinrun's child as PID 1 and with --wait-all; else it
	 * is pinrun itself, exec'd. */
	f.command_parent = getpid() == 1 || o->wait_all ? getpid() : getppid();
	ops.keep_fd = fd;
	ops.mask_bytes = f.slots.mask_bytes;
	ops.affinity = o->threads ? on_affinity : NULL;
	ops.wait_all = o->wait_all;
	ops.want_detail = o->report != NULL;
	if (stat("/proc/self/exe", &self) == 0) {
		ops.nested_dev = self.st_dev; /* a nested pinrun: let go */
		ops.nested_ino = self.st_ino;
	}
	if (!nproc_room(o)) {
		memset(&st, 0, sizeof(st));
		st.why = FOLLOW_NO_HELPER;
		st.err = EAGAIN;
		unavailable(o, unavailable_reason(o, &st), &plan->cpus);
		act_bind(0, &plan->cpus);
		return;
	}
	/* No helper can work as PID 1: trace as the parent. */
	if (getpid() == 1)
		as_parent(o, plan, &f, &ops);
	/* A stop costs several times less when the tracer shares a core
	 * with its tracee than when each stop wakes another CPU: the helper
	 * stays on the first slot, the command's first child's, where a chain
	 * of children that their parents wait for runs. */
	if (follow_start(&st, cpulist_next(&first, -1), o->wait_all,
			 ops.affinity != NULL) < 0) {
		follow_tell(&st, UNFOLLOWED);
		unavailable(o, unavailable_reason(o, &st), &plan->cpus);
		act_bind(0, &plan->cpus);
		return;
	}
	if (st.waiter) {
		char word;
		int status = follow_wait(&st, &word);

		if (!word)
			tracer_lost(o);
		finish(word == REPORT_LOST || (!word && o->report), status);
	}
	if (st.in_tracer) {
		/* Past a file size limit, a write fails (EFBIG), and the
		 * helper goes on following. */
		signal(SIGXFSZ, SIG_IGN);
		follow_run(&ops, &st);
		follow_tell(&st, f.report.err ? REPORT_LOST : TREE_ENDED);
		slots_free(&f.slots);
		report_free(&f.report);
		exit(PINRUN_EXIT_OK);
	}
	traced_by_helper = true;
	if (o->explain)
		explain_filter(&st);
	act_bind(0, &plan->cpus);
}
