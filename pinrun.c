/*
 * pinrun.c: the command line. It reads the options into one struct, asks
 * topology.c for the machine, policy.c for the placement and host.c for the
 * kernel's state, then prints the plan or binds and exec's the command. It
 * is the only file that prints an error or exits; the modules return codes
 * and this file words them.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "cpulist.h"
#include "follow.h"
#include "host.h"
#include "launcher.h"
#include "location.h"
#include "pinrun.h"
#include "policy.h"
#include "report.h"
#include "slots.h"
#include "topology.h"

#define IDLE_SAMPLE_MS 100

struct options {
	struct policy_request req;
	char policy_text[64]; /* the policy as typed: "--same-chip=1" */
	const char *spec;     /* --cpus SPEC, or --hot=SPEC */
	bool all, dry_run, explain, json, show, mem_given, pid_given, no_cache;
	bool follow, follow_strict, threads, wait_all;
	const char *report;
	const char *share;    /* --share as given */
	unsigned share_index; /* from 1; 0: no share */
	unsigned share_count;
	char share_source[256]; /* the launcher variables --share auto used */
	enum { KIND_ANY, KIND_FAST, KIND_SLOW } kind;
	bool outside_share; /* the current CPU is not in the share */
	/* What narrowed the allowed set, for --explain. */
	struct cpuset affinity, kind_cpus, before_share;
	bool has_affinity;
	enum host_mempolicy mem;
	pid_t pid;
	const char *topology;
	char **command;
	/* For --explain's timing line. */
	const char *cache;
	double t_start, t_loaded, t_planned;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* --- messages and exits ------------------------------------------------ */

static void __attribute__((format(printf, 1, 0)))
vmessage(const char *fmt, va_list ap)
{
	fputs("pinrun: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	exit(PINRUN_EXIT_FAILURE);
}

static void __attribute__((format(printf, 1, 2), noreturn))
usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	fputs("Try 'pinrun --help' for more information.\n", stderr);
	exit(PINRUN_EXIT_FAILURE);
}

static void __attribute__((format(printf, 1, 2))) note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
}

/* Whatever went to stdout must have arrived (pinrun --help >/dev/full). */
static int close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
		die("write error: %s", strerror(errno ? errno : EIO));
	return status;
}

/* A CPU set as text ("" when empty), in one of a few static buffers:
 * enough for the sets of one message. */
static const char *list_text(const struct cpuset *set)
{
	static char bufs[3][CPULIST_MAX * 6];
	static unsigned next;
	char *buf = bufs[next++ % 3];

	cpulist_format(set, buf, sizeof(bufs[0]));
	return buf;
}

/* The same for messages, where an empty set must still read as one. */
static const char *list(const struct cpuset *set)
{
	const char *text = list_text(set);

	return text[0] ? text : "(none)";
}

/* --- options ------------------------------------------------------------ */

enum {
	OPT_POLICY = CHAR_MAX + 1, /* + index in policy_options */
	OPT_SMT = OPT_POLICY + 16,
	OPT_NO_SMT,
	OPT_ALL,
	OPT_MEM,
	OPT_EXPLAIN,
	OPT_JSON,
	OPT_SHOW,
	OPT_PID,
	OPT_TOPOLOGY,
	OPT_NO_CACHE,
	OPT_FOLLOW,
	OPT_THREADS,
	OPT_WAIT_ALL,
	OPT_REPORT,
	OPT_SHARE,
	OPT_KIND,
};

/* The policies, once: for the parser and for --help. */
static const struct policy_option {
	const char *name;
	enum policy_kind kind;
	int short_opt;
	const char *arg;
	const char *help;
} policy_options[] = {
	{ "hot", POLICY_HOT, 0, "[=<which>]",
	  "one PU: current (default), idle, or a CPU" },
	{ "same-chip", POLICY_SAME_CHIP, 0, "[=<which>]",
	  "every allowed PU of one package" },
	{ "same-numa", POLICY_SAME_NUMA, 0, "[=<which>]",
	  "every allowed PU of one NUMA node" },
	{ "same-cache", POLICY_SAME_CACHE, 0, "[=<which>]",
	  "every allowed PU under one L3 cache" },
	{ "spread", POLICY_SPREAD, 0, "[=<n>]",
	  "one PU on each of n cores, as far apart as can be" },
	{ "cpus", POLICY_CPUS, 'c', " <spec>",
	  "exactly these CPUs: 0-3,8  0xff  package:1" },
};
#define NPOLICIES (sizeof(policy_options) / sizeof(policy_options[0]))

static const struct other_option {
	const char *name;
	int has_arg, val;
	const char *arg, *help;
} other_options[] = {
	{ "smt", no_argument, OPT_SMT, "",
	  "every PU of each chosen core (--spread counts PUs)" },
	{ "no-smt", no_argument, OPT_NO_SMT, "", "one PU per core" },
	{ "all", no_argument, OPT_ALL, "",
	  "leave the inherited affinity: any online allowed PU" },
	{ "mem", required_argument, OPT_MEM, "=<mode>",
	  "memory policy on the local NUMA nodes: bind,\n"
	  "                            interleave or local" },
	{ "dry-run", no_argument, 'n', "", "print the CPU list, run nothing" },
	{ "explain", no_argument, OPT_EXPLAIN, "", "tell why, on stderr" },
	{ "json", no_argument, OPT_JSON, "",
	  "print the plan as JSON, run nothing" },
	{ "topology", required_argument, OPT_TOPOLOGY, " <src>",
	  "plan on an XML file, a synthetic description\n"
	  "                            or a saved sysfs tree" },
	{ "follow", optional_argument, 'f', "[=strict]",
	  "place each new child process on its own slot" },
	{ "threads", no_argument, OPT_THREADS, "",
	  "with --follow, place new threads too" },
	{ "wait-all", no_argument, OPT_WAIT_ALL, "",
	  "with --follow, end when every descendant has" },
	{ "report", required_argument, OPT_REPORT, " <file>",
	  "with --follow, a JSON line per process" },
	{ "share", required_argument, OPT_SHARE, " <i/n|auto>",
	  "plan inside the i-th of n parts of the allowed\n"
	  "                            CPUs (auto: from Slurm, MPI or "
	  "parallel)" },
	{ "kind", required_argument, OPT_KIND, "=<kind>",
	  "keep to the fast or slow cores of a hybrid CPU" },
	{ "no-cache", no_argument, OPT_NO_CACHE, "",
	  "load the topology afresh, ignoring the cache" },
	{ "pid", required_argument, OPT_PID, " <pid>",
	  "re-place a running process, all its threads" },
	{ "show", no_argument, OPT_SHOW, " [<pid>]",
	  "where a process may run" },
	{ "help", no_argument, 'h', "", "display this help" },
	{ "version", no_argument, 'V', "", "display version" },
};
#define NOTHERS (sizeof(other_options) / sizeof(other_options[0]))

static void print_option(int short_opt, const char *name, const char *arg,
			 const char *help)
{
	char left[64];

	if (short_opt)
		snprintf(left, sizeof(left), " -%c, --%s%s", short_opt, name,
			 arg);
	else
		snprintf(left, sizeof(left), "     --%s%s", name, arg);
	printf("%-28s%s\n", left, help);
}

static void __attribute__((noreturn)) usage(void)
{
	printf("\nUsage:\n"
	       " pinrun <policy> [options] [--] <command> [<argument>...]\n"
	       " pinrun <policy> [options] --dry-run\n"
	       " pinrun <policy> [options] --pid <pid>\n"
	       " pinrun --show [<pid>]\n\n"
	       "Run a command on CPUs chosen from the machine's topology.\n\n"
	       "Policies (exactly one):\n");
	for (size_t i = 0; i < NPOLICIES; i++)
		print_option(policy_options[i].short_opt,
			     policy_options[i].name, policy_options[i].arg,
			     policy_options[i].help);
	printf("\nOptions:\n");
	for (size_t i = 0; i < NOTHERS; i++) {
		const struct other_option *o = &other_options[i];

		if (o->val == 'h')
			putchar('\n');
		print_option(o->val == 'n' || o->val == 'h' || o->val == 'V'
				 ? o->val
				 : 0,
			     o->name, o->arg, o->help);
	}
	printf(
	    "\n<which> is current, idle, or an index: a CPU for --hot, a\n"
	    "logical index (as --show and lstopo print them) for the others.\n"
	    "\nFor more details see pinrun(1).\n");
	exit(close_stdout(PINRUN_EXIT_OK));
}

/* A decimal number without sign or junk, below limit. */
static bool parse_number(const char *s, unsigned long limit, unsigned long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return !*end && !errno && *out < limit;
}

static void parse_which(struct options *o, const struct policy_option *p,
			const char *arg)
{
	static const char *const domain_word[] = {
		[POLICY_SAME_CHIP] = "a package number",
		[POLICY_SAME_NUMA] = "a NUMA node number",
		[POLICY_SAME_CACHE] = "an L3 cache number",
	};
	unsigned long n;

	o->req.which = WHICH_CURRENT;
	if (!arg)
		return;
	if (p->kind == POLICY_SPREAD) {
		if (!parse_number(arg, CPULIST_MAX + 1, &n))
			usage_error("invalid --spread value '%s': expected a "
				    "number of cores",
				    arg);
		if (n == 0)
			usage_error("invalid --spread value '0': spread over "
				    "at least 1 core");
		o->req.n = (unsigned)n;
		return;
	}
	if (!strcmp(arg, "current"))
		return;
	if (!strcmp(arg, "idle")) {
		o->req.which = WHICH_IDLE;
		return;
	}
	o->req.which = WHICH_INDEX;
	if (p->kind == POLICY_HOT) {
		o->spec = arg;
		return;
	}
	if (!parse_number(arg, UINT_MAX, &n))
		usage_error("invalid --%s value '%s': expected current, idle "
			    "or %s",
			    p->name, arg, domain_word[p->kind]);
	o->req.index = (unsigned)n;
}

static void set_policy(struct options *o, const struct policy_option *p,
		       const char *arg)
{
	if (o->req.kind == p->kind)
		usage_error("--%s given twice: choose one placement", p->name);
	if (o->req.kind != POLICY_NONE)
		usage_error("%s and --%s%s%s both given: choose one policy",
			    o->policy_text, p->name, arg ? "=" : "",
			    arg ? arg : "");
	o->req.kind = p->kind;
	snprintf(o->policy_text, sizeof(o->policy_text), "--%s%s%s", p->name,
		 arg ? "=" : "", arg ? arg : "");
	if (p->kind == POLICY_CPUS) {
		o->spec = arg;
		snprintf(o->policy_text, sizeof(o->policy_text), "--cpus");
	} else {
		parse_which(o, p, arg);
	}
}

/* "pinrun --spread 4 -- cmd" would run "4": getopt's optional arguments
 * need "=". Say so rather than try to run it. */
static void check_detached_argument(char **argv, int policy_end)
{
	const char *w = argv[policy_end];
	unsigned long n;

	if (w && (parse_number(w, ULONG_MAX, &n) || !strcmp(w, "current") ||
		  !strcmp(w, "idle")))
		usage_error("'%s' after %s would be run as the command: write "
			    "%s=%s",
			    w, argv[policy_end - 1], argv[policy_end - 1], w);
}

static void check_combinations(const struct options *o)
{
	if (o->show) {
		if (o->req.kind != POLICY_NONE || o->pid_given || o->topology ||
		    o->explain || o->dry_run || o->mem_given || o->all ||
		    o->req.smt != SMT_DEFAULT)
			usage_error("--show takes only a pid (and --json)");
		return;
	}
	if (o->req.kind == POLICY_NONE)
		usage_error("no policy given: use one of --hot, --same-chip, "
			    "--same-numa, --same-cache, --spread or --cpus");
	if (o->req.kind == POLICY_CPUS && o->req.smt != SMT_DEFAULT)
		usage_error("--cpus places exactly the CPUs given: --%s does "
			    "not apply",
			    o->req.smt == SMT_ALL ? "smt" : "no-smt");
	if (o->pid && o->command)
		usage_error("--pid re-places a running process: give no "
			    "command");
	if (!o->follow && (o->threads || o->wait_all || o->report))
		usage_error("%s needs --follow", o->threads    ? "--threads"
						 : o->wait_all ? "--wait-all"
							       : "--report");
	if (o->follow && o->pid)
		usage_error("--follow follows a command it starts: it cannot "
			    "follow --pid");
	if (o->pid && o->mem_given)
		usage_error("--mem sets pinrun's own memory policy for the "
			    "command: it cannot change --pid's");
	if (o->pid && o->topology)
		usage_error("--pid acts on this machine: --topology does not "
			    "apply");
	if (!o->command && !o->pid && !o->dry_run && !o->json && !o->explain)
		usage_error("no command given (use --dry-run to print the "
			    "placement only)");
	if (o->topology && (o->command || o->pid) && !o->dry_run && !o->json)
		usage_error("--topology is for planning only: add --dry-run, "
			    "or drop --topology to run the command here");
}

/* --share: the part, given or read from the launcher's variables. */
static void parse_share(struct options *o)
{
	struct launcher_share sh;
	enum launcher_err e;
	const char *s = o->share;

	if (launcher_share(s, &sh, &e) < 0) {
		switch (e) {
		case LAUNCHER_E_SYNTAX:
			usage_error("invalid --share value '%s': expected I/N "
				    "(I from 1 to N), auto or auto/N",
				    s);
		case LAUNCHER_E_NONE:
			die("--share %s: none of the launcher variables is set "
			    "(SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK, "
			    "MPI_LOCALRANKID%s)",
			    s,
			    strchr(s, '/')
				? ", PARALLEL_JOBSLOT"
				: "; or auto/N with PARALLEL_JOBSLOT");
		case LAUNCHER_E_SLURM_COUNT:
			die("--share %s: SLURM_LOCALID is set, but not this "
			    "node's task count (SLURM_STEP_TASKS_PER_NODE with "
			    "SLURM_NODEID)",
			    s);
		default:
			die("invalid --share: part %lu of %lu (parts count "
			    "from 1 to the number of parts)%s%s",
			    sh.index, sh.count, sh.source[0] ? ", from " : "",
			    sh.source);
		}
	}
	o->share_index = (unsigned)sh.index;
	o->share_count = (unsigned)sh.count;
	snprintf(o->share_source, sizeof(o->share_source), "%s", sh.source);
}

/* getopt_long's complaint, worded as util-linux words it. */
static void __attribute__((noreturn))
option_error(const char *word, int opt, const struct option *longopts)
{
	if (opt == 'c')
		usage_error("option requires an argument -- 'c'");
	if (opt > 0 && opt < CHAR_MAX)
		usage_error("invalid option -- '%c'", opt);
	for (const struct option *l = longopts; opt && l->name; l++)
		if (l->val == opt)
			usage_error(l->has_arg == required_argument
					? "option '--%s' requires an argument"
					: "option '--%s' doesn't allow an "
					  "argument",
				    l->name);
	usage_error("unrecognized option '%s'", word);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	struct option longopts[NPOLICIES + NOTHERS + 1];
	int c, policy_end = 0;
	unsigned long n;

	memset(o, 0, sizeof(*o));
	o->req.current_cpu = -1;
	o->t_start = now_ms();
	{
		const char *env = getenv("PINRUN_NO_CACHE");

		o->no_cache = env && *env && strcmp(env, "0");
	}
	for (size_t i = 0; i < NPOLICIES; i++)
		longopts[i] =
		    (struct option){ policy_options[i].name,
				     policy_options[i].kind == POLICY_CPUS
					 ? required_argument
					 : optional_argument,
				     NULL, OPT_POLICY + (int)i };
	for (size_t i = 0; i < NOTHERS; i++)
		longopts[NPOLICIES + i] =
		    (struct option){ other_options[i].name,
				     other_options[i].has_arg, NULL,
				     other_options[i].val };
	memset(&longopts[NPOLICIES + NOTHERS], 0, sizeof(longopts[0]));

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+c:nf::hV", longopts, NULL)) !=
	       -1) {
		if (c >= OPT_POLICY && c < OPT_POLICY + (int)NPOLICIES) {
			set_policy(o, &policy_options[c - OPT_POLICY], optarg);
			policy_end = optarg ? 0 : optind;
			continue;
		}
		switch (c) {
		case 'c':
			set_policy(o, &policy_options[NPOLICIES - 1], optarg);
			break;
		case OPT_SMT:
		case OPT_NO_SMT:
			if (o->req.smt != SMT_DEFAULT &&
			    o->req.smt != (c == OPT_SMT ? SMT_ALL : SMT_ONE))
				usage_error("--smt and --no-smt both given");
			o->req.smt = c == OPT_SMT ? SMT_ALL : SMT_ONE;
			break;
		case OPT_ALL:
			o->all = true;
			break;
		case OPT_MEM:
			o->mem_given = true;
			if (!strcmp(optarg, "bind"))
				o->mem = HOST_MEM_BIND;
			else if (!strcmp(optarg, "interleave"))
				o->mem = HOST_MEM_INTERLEAVE;
			else if (!strcmp(optarg, "local"))
				o->mem = HOST_MEM_LOCAL;
			else
				usage_error(
				    "invalid --mem value '%s': expected "
				    "bind, interleave or local",
				    optarg);
			break;
		case 'n':
			o->dry_run = true;
			break;
		case OPT_EXPLAIN:
			o->explain = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_SHOW:
			o->show = true;
			break;
		case OPT_PID:
			if (!parse_number(optarg, (unsigned long)INT_MAX + 1,
					  &n) ||
			    n == 0)
				usage_error(
				    "invalid --pid value '%s': expected "
				    "a process id",
				    optarg);
			o->pid = (pid_t)n;
			o->pid_given = true;
			break;
		case OPT_TOPOLOGY:
			o->topology = optarg;
			break;
		case OPT_NO_CACHE:
			o->no_cache = true;
			break;
		case 'f':
			if (optarg && strcmp(optarg, "strict"))
				usage_error("invalid --follow value '%s': "
					    "expected strict",
					    optarg);
			o->follow = true;
			o->follow_strict = optarg != NULL;
			break;
		case OPT_THREADS:
			o->threads = true;
			break;
		case OPT_WAIT_ALL:
			o->wait_all = true;
			break;
		case OPT_REPORT:
			o->report = optarg;
			break;
		case OPT_SHARE:
			o->share = optarg;
			break;
		case OPT_KIND:
			if (!strcmp(optarg, "fast"))
				o->kind = KIND_FAST;
			else if (!strcmp(optarg, "slow"))
				o->kind = KIND_SLOW;
			else if (!strcmp(optarg, "any"))
				o->kind = KIND_ANY;
			else
				usage_error("invalid --kind value '%s': "
					    "expected fast, slow or any",
					    optarg);
			break;
		case 'h':
			usage();
		case 'V':
			printf("pinrun %s\n", PINRUN_VERSION);
			exit(close_stdout(PINRUN_EXIT_OK));
		default:
			option_error(argv[optind - 1], optopt, longopts);
		}
	}
	if (policy_end && policy_end == optind)
		check_detached_argument(argv, policy_end);
	if (o->show) {
		if (optind < argc &&
		    (!parse_number(argv[optind], (unsigned long)INT_MAX + 1,
				   &n) ||
		     n == 0))
			usage_error("invalid pid '%s' for --show",
				    argv[optind]);
		if (optind < argc)
			o->pid = (pid_t)n;
		if (optind + 1 < argc)
			usage_error("--show takes one pid, after its options");
	} else if (optind < argc) {
		o->command = argv + optind;
	}
	if (o->share)
		parse_share(o);
	check_combinations(o);
}

/* --- topology and request ---------------------------------------------- */

/* A file or description from the user is read by hwloc in a child
 * process, which hands the flattened topology back through a pipe: a
 * malformed XML that crashes hwloc must not crash pinrun, nor one that
 * keeps it busy hang it. Returns what topo_load would, -ECHILD when the
 * child died before its result, or -ETIMEDOUT when it ran past LOAD_LIMIT_S
 * (the largest topology pinrun takes loads in well under a second). */
#define LOAD_LIMIT_S 20

static int load_apart(enum topo_source_kind kind, const char *arg,
		      struct topology **out)
{
	int fd[2], status, r = 0;
	void *buf = NULL;
	size_t len = 0, cap = 0;
	struct timespec start;
	pid_t child;

	*out = NULL;
	if (pipe2(fd, O_CLOEXEC) < 0)
		return topo_load(kind, arg, out);
	fflush(NULL);
	if ((child = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return topo_load(kind, arg, out);
	}
	if (child == 0) {
		/* The result first, then the topology: a child that dies
		 * before its result (a signal, or a sanitizer's report and
		 * exit status) crashed, whatever its status says. */
		struct topology *t;
		size_t n = 0;

		close(fd[0]);
		if ((r = topo_load(kind, arg, &t)) == 0)
			r = cache_encode("", t, &buf, &len);
		if (write(fd[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		while (r == 0 && n < len) {
			ssize_t w = write(fd[1], (char *)buf + n, len - n);

			if (w <= 0)
				_exit(1);
			n += (size_t)w;
		}
		_exit(0);
	}
	close(fd[1]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd pfd = { .fd = fd[0], .events = POLLIN };
		struct timespec now;
		long left_ms;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left_ms = LOAD_LIMIT_S * 1000L -
			  ((now.tv_sec - start.tv_sec) * 1000L +
			   (now.tv_nsec - start.tv_nsec) / 1000000L);
		if (left_ms > 0 && (n = poll(&pfd, 1, (int)left_ms)) < 0 &&
		    errno == EINTR)
			continue;
		if (left_ms <= 0 || n == 0) {
			kill(child, SIGKILL);
			r = -ETIMEDOUT;
			break;
		}
		if (len == cap) {
			void *more = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!more) {
				r = -ENOMEM;
				break;
			}
			buf = more;
		}
		n = read(fd[0], (char *)buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd[0]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (r == -ETIMEDOUT || r == -ENOMEM)
		;
	else if (!WIFEXITED(status) || WEXITSTATUS(status) || len < sizeof(r))
		r = -ECHILD;
	else {
		memcpy(&r, buf, sizeof(r));
		if (r == 0)
			r = cache_decode((char *)buf + sizeof(r),
					 len - sizeof(r), "", out);
	}
	free(buf);
	return r;
}

/* Why a topology could not be read, in words, from load's error. */
static const char *load_error(enum topo_source_kind kind, int r)
{
	static char msg[128];

	switch (r) {
	case -EINVAL:
		return kind == TOPO_SRC_XML ? "not an hwloc XML topology"
		       : kind == TOPO_SRC_SYNTHETIC ? "not a valid synthetic "
						      "description"
		       : kind == TOPO_SRC_FSROOT    ? "not a saved sysfs tree"
						    : "hwloc could not read it";
	case -ECHILD:
		return "hwloc crashed reading it";
	case -ETIMEDOUT:
		snprintf(msg, sizeof(msg),
			 "hwloc was still reading it after %d seconds",
			 LOAD_LIMIT_S);
		return msg;
	case -EEXIST:
		return "two of its PUs have the same CPU number";
	case -ELOOP:
		return "it has an object inside another of its own type";
	case -E2BIG:
		snprintf(msg, sizeof(msg),
			 "too large for pinrun (at most %d CPUs, numbered "
			 "below %d, and %d children per object)",
			 CPULIST_MAX, CPULIST_MAX, 2048);
		return msg;
	default:
		return strerror(-r);
	}
}

/* The topology from the cache when it holds this source under its current
 * key, else from hwloc (and then into the cache). */
static struct topology *load(struct options *o)
{
	enum topo_source_kind kind =
	    o->topology ? topo_source_kind(o->topology) : TOPO_SRC_LIVE;
	struct topology *t;
	char key[8192], path[4096];
	bool cached = !o->no_cache &&
		      cache_key(kind, o->topology, key, sizeof(key)) == 0 &&
		      cache_path(kind, o->topology, path, sizeof(path)) == 0;
	int r;

	o->cache = o->no_cache ? "disabled" : "not used for this source";
	if (cached && cache_load(path, key, &t) == 0) {
		o->cache = "hit";
		goto loaded;
	}
	r = kind == TOPO_SRC_LIVE ? topo_load(kind, o->topology, &t)
				  : load_apart(kind, o->topology, &t);

	if (r == -EBADR)
		die("cannot read the topology that %s names ('%s'): unset the "
		    "variable, or fix it",
		    topo_env_source(), getenv(topo_env_source()));
	if (r < 0 && kind == TOPO_SRC_LIVE)
		die("cannot read this machine's topology: %s",
		    load_error(kind, r));
	if (r < 0)
		die("cannot read topology '%s': %s", o->topology,
		    load_error(kind, r));
	if (cached)
		o->cache = cache_store(path, key, t) == 0 ? "miss, stored"
							  : "miss, not stored";
loaded:
	o->t_loaded = now_ms();
	if (!t->this_system && !o->topology &&
	    (o->show || (!o->dry_run && !o->json && (o->command || o->pid))))
		die("the topology comes from %s, not from this machine: unset "
		    "it (or set HWLOC_THISSYSTEM=1) to %s",
		    t->source, o->show ? "show a process" : "run a command");
	return t;
}

static void parse_spec(const struct topology *t, struct options *o)
{
	struct cpulist_error e;
	struct location_error le;
	const char *s = o->spec;

	switch (cpulist_syntax(s)) {
	case CPULIST_SYNTAX_LIST: {
		static const char *const why[] = {
			[CPULIST_E_EMPTY] = "empty",
			[CPULIST_E_EMPTY_ITEM] = "empty item",
			[CPULIST_E_TRAILING_COMMA] = "trailing comma",
			[CPULIST_E_NO_START] = "missing start of range",
			[CPULIST_E_NO_END] = "missing end of range",
			[CPULIST_E_NO_STRIDE] = "missing stride after ':'",
			[CPULIST_E_ZERO_STRIDE] = "stride 0",
			[CPULIST_E_STRIDE_NO_RANGE] =
			    "a stride needs a range (N-M:S)",
		};

		if (cpulist_parse_list(s, &o->req.cpus, &e) == 0)
			return;
		if (e.code == CPULIST_E_BAD_CHAR)
			die("invalid CPU list '%s': unexpected '%c'", s, *e.at);
		if (e.code == CPULIST_E_REVERSED)
			die("invalid CPU list '%s': range %lu-%lu is reversed",
			    s, e.value, e.value2);
		if (e.code == CPULIST_E_TOO_LARGE)
			die("invalid CPU list '%s': CPU %.*s is too large "
			    "(the limit is %d)",
			    s, (int)strspn(e.at, "0123456789"), e.at,
			    CPULIST_MAX - 1);
		die("invalid CPU list '%s': %s", s, why[e.code]);
	}
	case CPULIST_SYNTAX_MASK:
		if (cpulist_parse_mask(s, &o->req.cpus, &e) == 0)
			return;
		if (e.code == CPULIST_E_MASK_BAD_DIGIT)
			die("invalid CPU mask '%s': '%c' is not a hex digit", s,
			    *e.at);
		if (e.code == CPULIST_E_MASK_TOO_LARGE)
			die("invalid CPU mask '%s': it sets CPUs beyond %d", s,
			    CPULIST_MAX - 1);
		die("invalid CPU mask '%s': %s", s,
		    e.code == CPULIST_E_MASK_NO_DIGITS
			? "no hex digits after 0x"
		    : e.code == CPULIST_E_MASK_EMPTY_WORD ? "empty 32-bit word"
		    : e.code == CPULIST_E_MASK_LONG_WORD
			? "a comma-separated word has more than 8 digits"
			: "no CPU set");
	case CPULIST_SYNTAX_LOCATION:
		break;
	}
	if (location_parse(t, s, &o->req.cpus, &le) == 0) {
		/* "all" is every CPU pinrun may use, as numactl's is. */
		if (!strcasecmp(s, "all"))
			cpulist_and(&o->req.cpus, &o->req.cpus,
				    &o->req.allowed);
		return;
	}
	switch (le.code) {
	case LOCATION_E_TYPE:
		die("invalid location '%s': unknown object type '%.*s'", s,
		    (int)le.len, le.at);
	case LOCATION_E_NO_LEVEL:
		die("invalid location '%s': this topology has no %s level", s,
		    tree_type_name(le.type));
	case LOCATION_E_GROUPS:
		die("invalid location '%s': there are %lu group levels, name "
		    "one as group0..group%lu",
		    s, le.value, le.value - 1);
	case LOCATION_E_NO_INDEX:
		die("invalid location '%s': '%.*s' needs an index, as in "
		    "'%.*s:0'",
		    s, (int)le.len, le.at, (int)le.len, le.at);
	case LOCATION_E_REVERSED:
		die("invalid location '%s': range '%.*s' is reversed", s,
		    (int)le.len, le.at);
	case LOCATION_E_NO_SUCH: {
		char parent[64] = "the machine";

		if (le.parent >= 0)
			location_name(t, le.parent, parent, sizeof(parent));
		die("invalid location '%s': %s has no %s %lu (it has %lu)", s,
		    parent, tree_type_name(le.type), le.value, le.value2);
	}
	case LOCATION_E_NOT_DEEPER:
		die("invalid location '%s': '%.*s' is not below the step "
		    "before it",
		    s, (int)le.len, le.at);
	case LOCATION_E_EMPTY_STEP:
		die("invalid location '%s': empty step", s);
	case LOCATION_E_NO_CPUS:
		die("location '%s' has no online CPU that the cgroup allows",
		    s);
	default:
		die("invalid location '%s': invalid index '%.*s'", s,
		    (int)le.len, le.at);
	}
}

static void prepare_request(const struct topology *t, struct options *o)
{
	static double busy[CPULIST_MAX];
	struct policy_request *req = &o->req;
	struct cpuset affinity;
	int r;

	req->allowed = t->usable;
	if (t->this_system && !o->all) {
		if ((r = host_get_affinity(0, &affinity)) < 0)
			die("cannot read pinrun's affinity: %s", strerror(-r));
		cpulist_and(&req->allowed, &req->allowed, &affinity);
		o->affinity = affinity;
		o->has_affinity = true;
	}
	if (o->kind != KIND_ANY) {
		policy_kind_cpus(t, o->kind == KIND_FAST, &o->kind_cpus);
		cpulist_and(&req->allowed, &req->allowed, &o->kind_cpus);
	}
	o->before_share = req->allowed;
	if (o->share_count) {
		struct policy_error e;
		struct cpuset part;

		if (policy_share(t, &req->allowed, req->smt == SMT_ALL,
				 o->share_index - 1, o->share_count, &part,
				 &e) < 0)
			die("--share %u/%u: only %lu %s allowed%s",
			    o->share_index, o->share_count, e.value2,
			    req->smt == SMT_ALL ? "PUs are" : "cores are",
			    req->smt == SMT_ALL
				? ""
				: " (--smt shares PUs instead)");
		req->allowed = part;
	}
	if (o->spec)
		parse_spec(t, o);
	if (t->this_system && req->which == WHICH_CURRENT) {
		r = o->pid ? host_last_cpu(o->pid) : host_current_cpu();
		if (r == -ENOENT && o->pid)
			die("no process with pid %d", (int)o->pid);
		/* Outside its share or kind, 'current' is the first
		 * candidate inside it. */
		if (r >= 0 && (o->share_count || o->kind != KIND_ANY) &&
		    !cpulist_has(&req->allowed, (unsigned)r)) {
			o->outside_share = true;
			r = -1;
		}
		req->current_cpu = r;
	}
	if (t->this_system && req->which == WHICH_IDLE &&
	    host_sample_busy(busy, CPULIST_MAX, IDLE_SAMPLE_MS) == 0) {
		req->busy = busy;
		req->busy_len = CPULIST_MAX;
	}
}

/* A plain list or mask inside pinrun's own affinity needs no topology:
 * the kernel already keeps offline and cgroup-disallowed CPUs out of that
 * mask. Anything else, a CPU outside it included, takes the full path,
 * which can say exactly what is wrong. */
static bool plain_cpus(struct options *o)
{
	struct cpuset affinity;
	struct cpulist_error e;
	enum cpulist_syntax syntax;

	if (o->req.kind != POLICY_CPUS || !o->command || o->all || o->dry_run ||
	    o->explain || o->json || o->mem_given || o->pid || o->follow)
		return false;
	syntax = cpulist_syntax(o->spec);
	if (syntax == CPULIST_SYNTAX_LOCATION ||
	    (syntax == CPULIST_SYNTAX_LIST
		 ? cpulist_parse_list(o->spec, &o->req.cpus, &e)
		 : cpulist_parse_mask(o->spec, &o->req.cpus, &e)) < 0 ||
	    host_get_affinity(0, &affinity) < 0)
		return false;
	return cpulist_subset(&o->req.cpus, &affinity);
}

/* --- planning ------------------------------------------------------------ */

static const char *kind_word(enum policy_kind kind)
{
	switch (kind) {
	case POLICY_SAME_CHIP:
		return "package";
	case POLICY_SAME_NUMA:
		return "NUMA node";
	case POLICY_SAME_CACHE:
		return "L3 cache";
	default:
		return "core";
	}
}

static void __attribute__((noreturn))
cpu_error(const struct topology *t, const struct options *o,
	  const struct policy_error *e)
{
	struct cpuset online;
	unsigned cpu = (unsigned)e->value;

	switch (e->code) {
	case POLICY_E_NOT_EXIST:
		die("CPU %u does not exist (%s has CPUs %s)", cpu,
		    t->this_system ? "this machine" : "the topology",
		    list(&t->complete));
	case POLICY_E_OFFLINE:
		if (t->this_system && host_online(&online) == 0 &&
		    !cpulist_has(&online, cpu))
			die("CPU %u is offline", cpu);
		if (t->this_system)
			die("CPU %u is not in this cgroup's cpuset %s", cpu,
			    list(&t->usable));
		die("CPU %u is offline or disallowed in the topology (usable: "
		    "%s)",
		    cpu, list(&t->usable));
	case POLICY_E_NOT_ALLOWED:
		die("CPU %u is not in the allowed set %s (use --all to leave "
		    "the inherited mask)",
		    cpu, list(&o->req.allowed));
	default:
		die("CPU %u cannot be used", cpu);
	}
}

static void plan_or_die(const struct topology *t, const struct options *o,
			struct policy_plan *plan)
{
	struct policy_error e;
	struct cpuset cpus;
	const char *what = o->policy_text;

	if (policy_plan(t, &o->req, plan, &e) == 0)
		return;
	switch (e.code) {
	case POLICY_E_NOT_EXIST:
	case POLICY_E_OFFLINE:
	case POLICY_E_NOT_ALLOWED:
		cpu_error(t, o, &e);
	case POLICY_E_NO_LEVEL:
		die("%s: this topology has no %s level", what,
		    kind_word(o->req.kind));
	case POLICY_E_NO_SUCH:
		die("%s: there is no %s %lu (the topology has %lu)", what,
		    kind_word(o->req.kind), e.value, e.value2);
	case POLICY_E_DOMAIN_EMPTY:
		cpulist_zero(&cpus);
		tree_obj_cpus(t, plan->domain, &cpus);
		if (cpulist_empty(&cpus))
			die("%s: %s %lu has no online CPU that the cgroup "
			    "allows",
			    what, kind_word(o->req.kind), e.value);
		die("%s: no CPU of %s %lu (%s) is in the allowed set %s%s",
		    what, kind_word(o->req.kind), e.value, list(&cpus),
		    list(&o->req.allowed),
		    o->all ? "" : " (use --all to leave the inherited mask)");
	case POLICY_E_TOO_MANY:
		die("%s: only %lu %s allowed", what, e.value2,
		    o->req.smt == SMT_ALL ? "PUs are"
		    : e.value2 == 1	  ? "core is"
					  : "cores are");
	case POLICY_E_HOT_NOT_ONE:
		die("%s: '%s' names %lu CPUs; --hot takes exactly one", what,
		    o->spec, e.value);
	case POLICY_E_CURRENT:
		die("%s: the current CPU %lu is not in the allowed set %s",
		    what, e.value, list(&o->req.allowed));
	case POLICY_E_NOT_UNDER:
		die("%s: CPU %lu, where pinrun runs, is under no %s", what,
		    e.value, kind_word(o->req.kind));
	case POLICY_E_NONE_ALLOWED:
		die("%s: no %s has a CPU in the allowed set %s", what,
		    kind_word(o->req.kind), list(&o->req.allowed));
	case POLICY_E_NOTHING:
		die("%s: no CPU is allowed", what);
	default:
		die("%s: out of memory", what);
	}
}

/* --- output ----------------------------------------------------------------
 */

static const char *const rules[] = {
	[POLICY_HOT] = "one PU (with --smt, its whole core)",
	[POLICY_SAME_CHIP] = "every allowed PU of one package",
	[POLICY_SAME_NUMA] = "every allowed PU of one NUMA node",
	[POLICY_SAME_CACHE] = "every allowed PU under one L3 cache",
	[POLICY_SPREAD] = "one PU on each of N cores, balanced over packages, "
			  "NUMA nodes and L3 caches (hwloc_distrib)",
	[POLICY_CPUS] = "exactly the CPUs given",
};

static char *objects_text(const struct topology *t, const struct cpuset *set)
{
	unsigned n = policy_cover(t, set, NULL, 0);
	int *objs = malloc((n + 1) * sizeof(*objs));
	char *text = NULL;
	size_t len;

	if (!objs)
		die("out of memory");
	policy_cover(t, set, objs, n);
	len = location_format(t, objs, n, NULL, 0);
	text = malloc(len + 1);
	if (!text)
		die("out of memory");
	location_format(t, objs, n, text, len + 1);
	free(objs);
	return text;
}

static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

static void explain(const struct topology *t, const struct options *o,
		    const struct policy_plan *plan)
{
	struct cpuset gone, online;
	char name[64] = "";
	char *objects;

	note("topology: %s (hwloc %s): %u package%s, %u NUMA node%s, %u L3, "
	     "%u core%s, %u PU%s",
	     t->source, t->hwloc_version, tree_count(t, TOPO_PACKAGE),
	     plural(tree_count(t, TOPO_PACKAGE)), t->nnuma, plural(t->nnuma),
	     tree_count(t, TOPO_L3), tree_count(t, TOPO_CORE),
	     plural(tree_count(t, TOPO_CORE)), t->npus, plural(t->npus));
	cpulist_andnot(&gone, &t->complete, &t->usable);
	if (!cpulist_empty(&gone)) {
		if (t->this_system && host_online(&online) == 0) {
			struct cpuset off;

			cpulist_andnot(&off, &gone, &online);
			cpulist_and(&gone, &gone, &online);
			if (!cpulist_empty(&off))
				note("excluded %s: offline", list(&off));
			if (!cpulist_empty(&gone))
				note("excluded %s: not in the cgroup's cpuset",
				     list(&gone));
		} else {
			note("excluded %s: offline or disallowed by a cgroup",
			     list(&gone));
		}
	}
	if (o->has_affinity) {
		cpulist_andnot(&gone, &t->usable, &o->affinity);
		if (!cpulist_empty(&gone))
			note("excluded %s: not in the inherited affinity (use "
			     "--all to include them)",
			     list(&gone));
	}
	if (o->kind != KIND_ANY && t->nkinds <= 1)
		note("kind: this topology has one kind of core: --kind "
		     "changes nothing");
	if (o->kind != KIND_ANY && t->nkinds > 1) {
		cpulist_andnot(&gone, &t->usable, &o->kind_cpus);
		note("excluded %s: not of the %s kind (--kind=%s)", list(&gone),
		     o->kind == KIND_FAST ? "fastest" : "slowest",
		     o->kind == KIND_FAST ? "fast" : "slow");
	}
	if (o->share_count) {
		cpulist_andnot(&gone, &o->before_share, &o->req.allowed);
		note("share %u of %u%s%s%s: CPUs %s; excluded %s: the other "
		     "shares",
		     o->share_index, o->share_count,
		     o->share_source[0] ? " (from " : "", o->share_source,
		     o->share_source[0] ? ")" : "", list(&o->req.allowed),
		     list(&gone));
	}
	if (o->outside_share)
		note("pinrun runs outside its %s: 'current' means the first "
		     "candidate inside it",
		     o->share_count ? "share" : "core kind");
	if (!t->this_system && o->req.which != WHICH_INDEX &&
	    o->req.kind != POLICY_SPREAD && o->req.kind != POLICY_CPUS)
		note("planning for another machine: 'current' and 'idle' mean "
		     "the first candidate");
	if (o->req.kind == POLICY_SAME_NUMA && plan->domain >= 0)
		snprintf(name, sizeof(name), "numa:%u", plan->domain_numa);
	else if (plan->domain >= 0)
		location_name(t, plan->domain, name, sizeof(name));
	switch (plan->reason) {
	case REASON_CURRENT:
		if (o->pid)
			note("%s: %s, which holds CPU %d where pid %d last ran",
			     o->policy_text, name, o->req.current_cpu,
			     (int)o->pid);
		else
			note("%s: %s, which holds CPU %d where pinrun runs",
			     o->policy_text, name, o->req.current_cpu);
		break;
	case REASON_IDLE:
		note("%s: %s, the least busy over a %d ms sample",
		     o->policy_text, name, IDLE_SAMPLE_MS);
		break;
	case REASON_FIRST:
		note("%s: %s, the first candidate in topology order",
		     o->policy_text, name);
		break;
	case REASON_GIVEN:
		note("%s: as given", o->policy_text);
		break;
	}
	note("rule: %s", rules[o->req.kind]);
	if (t->nkinds > 1) {
		struct cpuset fast, slow;

		policy_kind_cpus(t, true, &fast);
		cpulist_and(&fast, &fast, &plan->cpus);
		cpulist_andnot(&slow, &plan->cpus, &fast);
		if (!cpulist_empty(&fast) && !cpulist_empty(&slow))
			note("warning: CPUs %s mix core kinds (fastest: %s, "
			     "others: %s): timings may be bimodal; --kind=fast "
			     "or --kind=slow keeps to one",
			     list(&plan->cpus), list(&fast), list(&slow));
	}
	if (!cpulist_empty(&plan->smt_dropped))
		note("excluded %s: SMT siblings (--no-smt)",
		     list(&plan->smt_dropped));
	objects = objects_text(t, &plan->cpus);
	note("cpus: %s (%s)", list(&plan->cpus), objects);
	free(objects);
	note("time: %.2f ms to the topology (cache: %s), %.2f ms to plan",
	     o->t_loaded - o->t_start, o->cache, o->t_planned - o->t_loaded);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_objects(const char *objects)
{
	const char *p = objects;

	putchar('[');
	while (*p) {
		size_t n = strcspn(p, " ");
		char item[64];

		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		json_string(item);
		p += n;
		if (*p == ' ') {
			p++;
			putchar(',');
		}
	}
	putchar(']');
}

static void print_json(const struct topology *t, const struct options *o,
		       const struct policy_plan *plan)
{
	static const char *const reasons[] = {
		[REASON_GIVEN] = "given",
		[REASON_CURRENT] = "current",
		[REASON_IDLE] = "idle",
		[REASON_FIRST] = "first",
	};
	struct cpuset nodes, slot;
	char *objects = objects_text(t, &plan->cpus);

	tree_local_numa(t, &plan->cpus, &nodes);
	printf("{\"policy\":");
	json_string(policy_name(o->req.kind));
	printf(",\"reason\":\"%s\",\"cpus\":\"%s\"", reasons[plan->reason],
	       list_text(&plan->cpus));
	printf(",\"count\":%u,\"objects\":", cpulist_count(&plan->cpus));
	json_objects(objects);
	printf(",\"slots\":[");
	for (unsigned i = 0; i < plan->nslots; i++) {
		cpulist_zero(&slot);
		for (unsigned j = plan->slot_start[i];
		     j < plan->slot_start[i + 1]; j++)
			cpulist_add(&slot, plan->slot_cpus[j]);
		printf("%s\"%s\"", i ? "," : "", list_text(&slot));
	}
	printf("],\"numa\":\"%s\"", list_text(&nodes));
	printf(",\"allowed\":\"%s\",\"topology\":{\"source\":",
	       list_text(&o->req.allowed));
	json_string(t->source);
	printf(",\"packages\":%u,\"numa_nodes\":%u,\"l3\":%u,\"cores\":%u,"
	       "\"pus\":%u}}\n",
	       tree_count(t, TOPO_PACKAGE), t->nnuma, tree_count(t, TOPO_L3),
	       tree_count(t, TOPO_CORE), t->npus);
	free(objects);
}

/* --show [PID] */
static int show(struct options *o)
{
	pid_t pid = o->pid ? o->pid : getpid();
	struct topology *t = load(o);
	struct cpuset cpus, mems;
	char *objects;
	int r;

	if ((r = host_get_affinity(pid, &cpus)) < 0) {
		if (r == -ESRCH)
			die("no process with pid %d", (int)pid);
		die("cannot read the affinity of pid %d: %s", (int)pid,
		    strerror(-r));
	}
	if (host_mems_allowed(pid, &mems) < 0)
		cpulist_zero(&mems);
	cpulist_and(&cpus, &cpus, &t->complete);
	objects = objects_text(t, &cpus);
	if (o->json) {
		printf("{\"pid\":%d,\"cpus\":\"%s\",\"objects\":", (int)pid,
		       list_text(&cpus));
		json_objects(objects);
		printf(",\"mems\":\"%s\"}\n", list_text(&mems));
	} else {
		printf("pid: %d\ncpus: %s\nobjects: %s\nmems: %s\n", (int)pid,
		       list_text(&cpus), objects, list_text(&mems));
	}
	free(objects);
	tree_free(t);
	return PINRUN_EXIT_OK;
}

/* --- acting ----------------------------------------------------------------
 */

static void bind_or_die(pid_t tid, const struct cpuset *cpus)
{
	struct cpuset got;
	int r = host_set_affinity(tid, cpus);

	if (r == -ESRCH && tid)
		return; /* the thread ended meanwhile */
	if (r < 0 && tid)
		die("cannot re-place pid %d: %s", (int)tid, strerror(-r));
	if (r < 0)
		die("cannot bind to CPUs %s: %s", list(cpus), strerror(-r));
	/* Trust only what the kernel reports back. */
	if ((r = host_get_affinity(tid, &got)) < 0) {
		if (r == -ESRCH && tid)
			return;
		die("cannot read back the affinity: %s", strerror(-r));
	}
	if (!cpulist_equal(&got, cpus)) {
		char *want = cpulist_str(cpus);

		die("the kernel applied CPUs %s instead of %s", list(&got),
		    want ? want : "?");
	}
}

static int replace_process(const struct options *o,
			   const struct policy_plan *plan)
{
	pid_t *tids = NULL, *done = NULL;
	unsigned n, ndone = 0;
	int r;

	/* Threads may start while we work: go round until a pass finds no
	 * new one. */
	for (int pass = 0; pass < 100; pass++) {
		unsigned fresh = 0;

		if ((r = host_threads(o->pid, &tids, &n)) < 0) {
			if (r == -ENOENT && pass == 0)
				die("no process with pid %d", (int)o->pid);
			die("cannot list the threads of pid %d: %s",
			    (int)o->pid, strerror(-r));
		}
		done = realloc(done, (ndone + n) * sizeof(*done));
		if (!done)
			die("out of memory");
		for (unsigned i = 0; i < n; i++) {
			bool seen = false;

			for (unsigned j = 0; j < ndone && !seen; j++)
				seen = done[j] == tids[i];
			if (seen)
				continue;
			bind_or_die(tids[i], &plan->cpus);
			done[ndone++] = tids[i];
			fresh++;
		}
		free(tids);
		if (!fresh)
			break;
	}
	free(done);
	return PINRUN_EXIT_OK;
}

static void set_memory(const struct topology *t, const struct options *o,
		       const struct policy_plan *plan)
{
	static const char *const modes[] = { "bind", "interleave", "local" };
	struct cpuset nodes, allowed;
	int r;

	tree_local_numa(t, &plan->cpus, &nodes);
	if (host_mems_allowed(getpid(), &allowed) == 0)
		cpulist_and(&nodes, &nodes, &allowed);
	if (cpulist_empty(&nodes) && o->mem != HOST_MEM_LOCAL)
		die("--mem=%s: no NUMA node local to CPUs %s is allowed",
		    modes[o->mem], list(&plan->cpus));
	if ((r = host_set_mempolicy(o->mem, &nodes)) < 0 && r == -EPERM &&
	    host_seccomp_mode() == 2)
		die("--mem=%s: set_mempolicy is denied by a seccomp filter (as "
		    "in Docker's default profile); nothing was run",
		    modes[o->mem]);
	if (r < 0)
		die("cannot set memory policy '%s' on nodes %s: %s",
		    modes[o->mem], list(&nodes), strerror(-r));
}

/* LeakSanitizer cannot work in a traced process, and pinrun is one after
 * follow_start when the command cannot be exec'd: a sanitizer build asks
 * this before checking for leaks at exit. */
int __lsan_is_turned_off(void);
static bool traced_by_helper;

int __lsan_is_turned_off(void)
{
	return traced_by_helper;
}

/* --- follow mode: the callbacks follow.c calls, in the tracer -------- */

struct follower {
	struct slots slots;
	struct report report;
	const struct options *o;
	pid_t command, command_parent;
	unsigned setuid, tracers;
};

static const void *on_place(void *ctx, pid_t tid, pid_t parent, bool thread)
{
	struct follower *f = ctx;
	int slot = slots_place(&f->slots, tid, parent, thread);

	if (slot < 0)
		return NULL;
	if (!thread)
		report_start(&f->report, tid,
			     tid == f->command ? f->command_parent : parent,
			     f->slots.text[slot]);
	return slots_mask(&f->slots, (unsigned)slot);
}

static void on_gone(void *ctx, pid_t tid)
{
	slots_gone(&((struct follower *)ctx)->slots, tid);
}

static void on_moved(void *ctx, pid_t from, pid_t to)
{
	struct follower *f = ctx;

	slots_move(&f->slots, from, to);
	report_move(&f->report, from, to);
}

static void on_exec(void *ctx, pid_t tid, const char *program)
{
	report_exec(&((struct follower *)ctx)->report, tid, program);
}

static void on_ended(void *ctx, pid_t tid, int status, const struct rusage *ru)
{
	report_end(&((struct follower *)ctx)->report, tid, status, ru);
}

static void on_released(void *ctx, pid_t tid, enum follow_why why,
			const char *program)
{
	struct follower *f = ctx;

	if (why == FOLLOW_SETUID) {
		f->setuid++;
		note("warning: %s is set-user-ID: it runs without its "
		     "privileges under --follow; stopped following it",
		     program);
	} else if (why == FOLLOW_TRACER) {
		f->tracers++;
	}
	report_detached(&f->report, tid);
}

static void on_finished(void *ctx, unsigned processes, unsigned survivors)
{
	struct follower *f = ctx;
	char counts[4096] = "";
	size_t len = 0;

	if (!f->o->explain)
		return;
	for (unsigned i = 0; i < f->slots.n && len < sizeof(counts); i++)
		len += (size_t)snprintf(counts + len, sizeof(counts) - len,
					"%s%s: %u", i ? ", " : "",
					f->slots.text[i], f->slots.given[i]);
	note("follow: %u process%s followed; tasks per slot (CPUs: count) "
	     "%s; let go: %u still running, %u set-user-ID, %u tracers",
	     processes, processes == 1 ? "" : "es", counts, survivors,
	     f->setuid, f->tracers);
}

static void __attribute__((noreturn)) run(char **command);

/* Why --follow cannot work here, in words. */
static void unavailable_reason(const struct follow_start *st, char *buf,
			       size_t size)
{
	char comm[64] = "?";
	int scope;

	switch (st->why) {
	case FOLLOW_TRACED:
		host_comm(st->tracer, comm, sizeof(comm));
		snprintf(buf, size, "pinrun is being traced by pid %d (%s)",
			 (int)st->tracer, comm);
		break;
	case FOLLOW_DENIED:
		if (host_seccomp_mode() == 2)
			snprintf(buf, size,
				 "ptrace is denied by a seccomp "
				 "filter");
		else if ((scope = host_yama_scope()) >= 2)
			snprintf(buf, size,
				 "ptrace is denied by Yama "
				 "(ptrace_scope %d)",
				 scope);
		else
			snprintf(buf, size, "ptrace is denied: %s",
				 strerror(st->err));
		break;
	case FOLLOW_NO_SEIZE:
		snprintf(buf, size, "the kernel has no PTRACE_SEIZE");
		break;
	default:
		snprintf(buf, size, "cannot start the tracer: %s",
			 strerror(st->err));
	}
}

/* No tracing: one warning, then the whole placement by inheritance
 * (or, with --follow=strict, an error and nothing run). */
static void unavailable(const struct options *o, const char *reason,
			const struct cpuset *whole)
{
	if (o->follow_strict)
		die("--follow=strict: ptrace unavailable (%s)", reason);
	note("warning: --follow unavailable (%s): children inherit CPUs %s",
	     reason, list(whole));
}

/* The command's wait status, as pinrun's own: exit with it, or die of the
 * same signal (without a core of pinrun's own); 128+signal where a signal
 * cannot kill pinrun (PID 1). */
static int __attribute__((noreturn)) mirror(int status)
{
	int sig;

	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
	signal(sig, SIG_DFL);
	{
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	}
	kill(getpid(), sig);
	exit(128 + sig);
}

static void follow_command(const struct options *o,
			   const struct policy_plan *plan)
{
	static struct follower f;
	struct follow_ops ops = {
		.place = on_place,
		.gone = on_gone,
		.moved = on_moved,
		.exec = on_exec,
		.ended = on_ended,
		.released = on_released,
		.finished = on_finished,
		.ctx = &f,
		.keep_fd = -1,
		.threads = o->threads,
		.wait_all = o->wait_all,
		.want_exec = o->report != NULL,
	};
	struct follow_start st;
	struct cpuset first;
	char reason[256];
	int hot = -1, status, exec_error, fd = -1;

	cpulist_zero(&first);
	for (unsigned j = plan->slot_start[0]; j < plan->slot_start[1]; j++)
		cpulist_add(&first, plan->slot_cpus[j]);
	if (host_privileged_program(o->command[0])) {
		snprintf(reason, sizeof(reason), "%s is set-user-ID",
			 o->command[0]);
		unavailable(o, reason, &plan->cpus);
		bind_or_die(0, &plan->cpus);
		return;
	}
	if (o->report &&
	    (fd = open(o->report, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		       0666)) < 0)
		die("cannot open report '%s': %s", o->report, strerror(errno));
	if (slots_init(&f.slots, plan->nslots, plan->slot_start,
		       plan->slot_cpus) < 0)
		die("out of memory");
	report_init(&f.report, fd);
	f.o = o;
	f.command_parent = getppid();
	ops.keep_fd = fd;
	ops.mask_bytes = f.slots.mask_bytes;
	/* A stop costs several times less when the tracer shares a core
	 * with its tracee than when each stop wakes another CPU: the helper
	 * stays on the first slot, the command's, where a chain of children
	 * that their parents wait for runs. */
	hot = cpulist_next(&first, -1);
	if (getpid() == 1) {
		/* No helper can work as PID 1: trace as the parent. */
		f.command = 0;
		if (follow_parent(&ops, o->command, slots_mask(&f.slots, 0),
				  &plan->cpus, &st, &status, &exec_error) < 0) {
			unavailable_reason(&st, reason, sizeof(reason));
			unavailable(o, reason, &plan->cpus);
		}
		if (exec_error) {
			note("cannot run '%s': %s", o->command[0],
			     strerror(exec_error));
			exit(exec_error == ENOENT ? PINRUN_EXIT_NOT_FOUND
						  : PINRUN_EXIT_CANNOT_RUN);
		}
		mirror(status);
	}
	if (follow_start(&st, hot, o->wait_all) < 0) {
		unavailable_reason(&st, reason, sizeof(reason));
		unavailable(o, reason, &plan->cpus);
		bind_or_die(0, &plan->cpus);
		return;
	}
	if (st.in_tracer) {
		f.command = st.command;
		follow_run(&ops, st.command);
		exit(PINRUN_EXIT_OK);
	}
	traced_by_helper = true;
	bind_or_die(0, &first);
}

static void __attribute__((noreturn)) run(char **command)
{
	fflush(stdout);
	execvp(command[0], command);
	note("cannot run '%s': %s", command[0], strerror(errno));
	exit(errno == ENOENT ? PINRUN_EXIT_NOT_FOUND : PINRUN_EXIT_CANNOT_RUN);
}

int main(int argc, char **argv)
{
	struct options o;
	struct topology *t;
	struct policy_plan plan;
	int status = PINRUN_EXIT_OK;

	parse_options(argc, argv, &o);
	if (o.show)
		return close_stdout(show(&o));
	if (plain_cpus(&o)) {
		bind_or_die(0, &o.req.cpus);
		run(o.command);
	}
	t = load(&o);
	prepare_request(t, &o);
	plan_or_die(t, &o, &plan);
	o.t_planned = now_ms();
	if (o.explain)
		explain(t, &o, &plan);
	if (o.dry_run || o.json || (!o.command && !o.pid)) {
		if (o.json)
			print_json(t, &o, &plan);
		else if (o.dry_run)
			printf("%s\n", list(&plan.cpus));
	} else if (o.pid) {
		status = replace_process(&o, &plan);
	} else {
		/* Follow mode binds the first slot, or on its fallback the
		 * whole placement, as plain runs do. */
		if (o.follow)
			follow_command(&o, &plan);
		else
			bind_or_die(0, &plan.cpus);
		if (o.mem_given)
			set_memory(t, &o, &plan);
		tree_free(t);
		policy_plan_free(&plan);
		run(o.command);
	}
	tree_free(t);
	policy_plan_free(&plan);
	return close_stdout(status);
}
