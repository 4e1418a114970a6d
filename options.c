/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.c: the command line. getopt_long with a leading '+', so that
 * options after the command are the command's. A value is checked as it
 * is read (the first bad one is the error shown); the combinations are
 * checked once all are read, against one table, so that their order
 * never matters. policy.c's table of policies and the table here of the
 * other options serve the parser and --help alike. It plans nothing and
 * reads no topology.
 */
#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "devices.h"
#include "errors.h"
#include "host.h"
#include "location.h"
#include "memory.h"
#include "message.h"
#include "num.h"
#include "options.h"
#include "pinrun.h"
#include "suggest.h"
#include "tell.h"

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
	OPT_NEAR,
	OPT_LIST,
	OPT_PHYSICAL,
	OPT_TID,
	OPT_EMIT,
	OPT_TELL,
};

/* The policies' options are policy.c's table, from POLICY_HOT on: option
 * OPT_POLICY + i is policy POLICY_HOT + i. */
#define NPOLICIES ((size_t)POLICY_NKINDS - POLICY_HOT)
/* The policies' getopt values end before OPT_SMT's. */
_Static_assert(NPOLICIES <= OPT_SMT - OPT_POLICY,
	       "room for every policy's option before OPT_SMT");

static enum policy_kind policy_at(size_t i)
{
	return (enum policy_kind)(POLICY_HOT + i);
}

/* The policy whose short option is c, or POLICY_NONE. */
static enum policy_kind policy_of_short(int c)
{
	for (size_t i = 0; i < NPOLICIES; i++)
		if (c && policy_desc(policy_at(i))->short_opt == c)
			return policy_at(i);
	return POLICY_NONE;
}

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
	{ "physical", no_argument, OPT_PHYSICAL, "",
	  "location indexes are OS indexes (hwloc's -p)" },
	{ "near", required_argument, OPT_NEAR, "=<device>",
	  "keep to the CPUs near an I/O device: eth0,\n"
	  "                            mlx5_0, cuda0, nvme0n1, pci=<bus id>;\n"
	  "                            gpu: each --share rank its own GPU" },
	{ "mem", required_argument, OPT_MEM, "=<mode>[:<nodes>]",
	  "memory policy bind, interleave, preferred or\n"
	  "                            local, on the placement's NUMA nodes\n"
	  "                            (the device's with --near) or on\n"
	  "                            <nodes>: 0,2  all  mcdram" },
	{ "dry-run", no_argument, 'n', "", "print the CPU list, run nothing" },
	{ "emit", required_argument, OPT_EMIT, "=<format>",
	  "print the plan as another tool takes it, run\n"
	  "                            nothing (see below)" },
	{ "tell", optional_argument, OPT_TELL, "[=<what>]",
	  "tell the command's thread pools the placement:\n"
	  "                            OMP_NUM_THREADS, GOMAXPROCS, "
	  "MAKEFLAGS...,\n"
	  "                            and show it as the machine to "
	  "programs that\n"
	  "                            count CPUs (see below)" },
	{ "explain", no_argument, OPT_EXPLAIN, "", "tell why, on stderr" },
	{ "json", no_argument, OPT_JSON, "",
	  "print the plan as JSON, run nothing" },
	{ "list", no_argument, OPT_LIST, "",
	  "a map of the machine, the placement marked" },
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
	{ "share", required_argument, OPT_SHARE, " <i/n|auto[/n]>",
	  "plan inside the i-th of n parts of the allowed\n"
	  "                            CPUs (auto: from Slurm, MPI or "
	  "parallel)" },
	{ "kind", required_argument, OPT_KIND, "=<kind>",
	  "keep to the fast or slow cores of a hybrid CPU" },
	{ "no-cache", no_argument, OPT_NO_CACHE, "",
	  "load the topology afresh, ignoring the cache" },
	{ "pid", required_argument, OPT_PID, " <pid>",
	  "re-place a running process, all its threads" },
	{ "tid", required_argument, OPT_TID, " <tid>",
	  "re-place one thread of a process" },
	{ "quiet", no_argument, 'q', "", "print no lists for --pid and --tid" },
	{ "show", no_argument, OPT_SHOW, " [<pid>]",
	  "where a process may run (and its threads)" },
	{ "help", no_argument, 'h', "", "display this help" },
	{ "version", no_argument, 'V', "", "display version" },
};
#define NOTHERS (sizeof(other_options) / sizeof(other_options[0]))
/* getopt's letters of other_options (the policies' are policy.c's). */
static const char other_shorts[] = "nf::hVq";

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
	char families[256];

	printf("\nUsage:\n"
	       " pinrun <policy> [options] [--] <command> [<argument>...]\n"
	       " pinrun <policy> [options] --dry-run\n"
	       " pinrun <policy> [options] --pid <pid>\n"
	       " pinrun <policy> [options] --tid <tid>\n"
	       " pinrun --show [--json] [<pid>]\n"
	       " pinrun [<policy>] [options] --list\n\n"
	       "Run a command on CPUs chosen from the machine's topology.\n\n"
	       "Policies (exactly one):\n");
	for (size_t i = 0; i < NPOLICIES; i++) {
		const struct policy_desc *p = policy_desc(policy_at(i));

		print_option(p->short_opt, p->name, p->arg, p->help);
	}
	printf("\nOptions:\n");
	for (size_t i = 0; i < NOTHERS; i++) {
		const struct other_option *o = &other_options[i];

		if (o->val == 'h')
			putchar('\n');
		print_option(o->val < CHAR_MAX ? o->val : 0, o->name, o->arg,
			     o->help);
	}
	printf(
	    "\n<which> is current, idle, or an index: a CPU specification for\n"
	    "--hot, a logical index (as --show and lstopo print them; an OS\n"
	    "index with --physical) for the others. A <spec> is a CPU list\n"
	    "(0-3,8), a mask (0xff, ff, ff,00000000) or hwloc locations\n"
	    "('package:0 ~core:0', 'numa:1.core:0-3').\n"
	    "\n<format> for --emit:\n");
	for (unsigned i = 0; i < emit_nformats; i++)
		printf("  %-10s%s\n", emit_formats[i].name,
		       emit_formats[i].help);
	tell_families(",", ",", families, sizeof(families));
	printf("\n<what> for --tell, comma-separated (all when not given):\n"
	       "  %s\n",
	       families);
	printf("\nFor more details see pinrun(1).\n");
	exit(PINRUN_EXIT_OK);
}

/* --- combinations ------------------------------------------------------- */

/* The options a combination rule speaks of, as bits of what was given. */
enum {
	F_ANY = 1 << 0, /* always set: for rules about what is missing */
	F_POLICY = 1 << 1,
	F_CPUS = 1 << 2,
	F_SMT = 1 << 3,
	F_NO_SMT = 1 << 4,
	F_ALL = 1 << 5,
	F_MEM = 1 << 6,
	F_DRY_RUN = 1 << 7,
	F_EXPLAIN = 1 << 8,
	F_JSON = 1 << 9,
	F_SHOW = 1 << 10,
	F_PID = 1 << 11,
	F_TOPOLOGY = 1 << 12,
	F_FOLLOW = 1 << 13,
	F_THREADS = 1 << 14,
	F_WAIT_ALL = 1 << 15,
	F_REPORT = 1 << 16,
	F_SHARE = 1 << 17,
	F_KIND = 1 << 18,
	F_COMMAND = 1 << 19,
	F_NEAR = 1 << 20,
	F_LIST = 1 << 21,
	F_TID = 1 << 22,
	F_PHYSICAL = 1 << 23,
	F_QUIET = 1 << 24,
	F_INDEX = 1 << 25, /* --cpus, --hot=SPEC or --same-*=N */
	F_EMIT = 1 << 26,
	F_TELL = 1 << 27,
	F_END = 1 << 28, /* one past the last: keep it last */
};

static const char *const flag_names[] = {
	"",	      "a policy", "--cpus",	"--smt",      "--no-smt",
	"--all",      "--mem",	  "--dry-run",	"--explain",  "--json",
	"--show",     "--pid",	  "--topology", "--follow",   "--threads",
	"--wait-all", "--report", "--share",	"--kind",     "a command",
	"--near",     "--list",	  "--tid",	"--physical", "--quiet",
	"an index",   "--emit",	  "--tell",
};
_Static_assert((1u << (sizeof(flag_names) / sizeof(flag_names[0]))) == F_END,
	       "flag_names: one name for each F_ bit");

/* A rule fires when any option of `given` was given, with any of `with`
 * (when not 0) and none of `without`. {opt} in its words names the first
 * of `given` that was, {other} the first of `with`. The first rule that
 * fires is the error; the order is the table's. */
static const struct rule {
	unsigned given, with, without;
	const char *words;
} rules[] = {
	{ F_SHOW,
	  F_POLICY | F_PID | F_TOPOLOGY | F_EXPLAIN | F_DRY_RUN | F_MEM |
	      F_ALL | F_SMT | F_NO_SMT | F_FOLLOW | F_THREADS | F_WAIT_ALL |
	      F_REPORT | F_SHARE | F_KIND | F_NEAR | F_LIST | F_TID |
	      F_PHYSICAL | F_QUIET | F_EMIT | F_TELL,
	  0, "--show takes only a pid (and --json): {other} does not apply" },
	{ F_LIST,
	  F_COMMAND | F_PID | F_TID | F_DRY_RUN | F_FOLLOW | F_THREADS |
	      F_WAIT_ALL | F_REPORT | F_EMIT | F_TELL,
	  0, "--list prints a map and runs nothing: {other} does not apply" },
	{ F_EMIT, F_JSON | F_PID | F_TID | F_FOLLOW | F_TELL, 0,
	  "--emit prints the plan in another tool's words and runs nothing: "
	  "{other} does not apply" },
	{ F_ANY, 0, F_SHOW | F_POLICY | F_NEAR | F_LIST,
	  "no policy given: use one of {policies}" },
	{ F_MEM, F_LIST, F_POLICY | F_NEAR,
	  "--mem with --list marks a placement's memory: give a policy or "
	  "--near" },
	{ F_CPUS, F_SMT | F_NO_SMT, 0,
	  "--cpus places exactly the CPUs given: {other} does not apply" },
	{ F_PID, F_COMMAND, 0,
	  "--pid re-places a running process: give no command" },
	{ F_TID, F_COMMAND, 0,
	  "--tid re-places a running thread: give no command" },
	{ F_PID, F_TID, 0,
	  "--pid moves every thread of a process and --tid one thread: give "
	  "one of them" },
	{ F_THREADS | F_WAIT_ALL | F_REPORT, 0, F_FOLLOW,
	  "{opt} needs --follow" },
	{ F_FOLLOW, F_PID | F_TID, 0,
	  "--follow follows a command it starts: it cannot follow {other}" },
	{ F_PID | F_TID, F_TELL, 0,
	  "--tell sets the environment of a command pinrun starts: it cannot "
	  "change {opt}'s" },
	{ F_PID | F_TID, F_MEM, 0,
	  "--mem sets pinrun's own memory policy for the command: it cannot "
	  "change {opt}'s" },
	{ F_PID | F_TID, F_TOPOLOGY, 0,
	  "{opt} acts on this machine: --topology does not apply" },
	{ F_PHYSICAL, 0, F_INDEX,
	  "--physical reads the indexes of --cpus, --hot= and --same-*=: give "
	  "one of them" },
	{ F_ANY, 0,
	  F_SHOW | F_COMMAND | F_PID | F_TID | F_DRY_RUN | F_JSON | F_EXPLAIN |
	      F_LIST | F_EMIT,
	  "no command given (use --dry-run to print the placement only)" },
	{ F_TOPOLOGY, F_COMMAND | F_PID, F_DRY_RUN | F_JSON | F_EMIT,
	  "--topology is for planning only: add --dry-run, or drop --topology "
	  "to run the command here" },
};

static const char *first_flag(unsigned set)
{
	return flag_names[__builtin_ctz(set)];
}

/* "a, b or c": n words, each after prefix, in a static buffer. */
static const char *or_list(const char *const *words, size_t n,
			   const char *prefix)
{
	static char list[512];
	size_t len = 0;

	list[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(list); i++)
		len +=
		    (size_t)snprintf(list + len, sizeof(list) - len, "%s%s%s",
				     i == 0	 ? ""
				     : i + 1 < n ? ", "
						 : " or ",
				     prefix, words[i]);
	return list;
}

/* "--hot, --same-chip, ... or --cpus": every policy's option. */
static const char *policy_list(void)
{
	const char *names[NPOLICIES];

	for (size_t i = 0; i < NPOLICIES; i++)
		names[i] = policy_name(policy_at(i));
	return or_list(names, NPOLICIES, "--");
}

static void check_rules(unsigned given)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];
		const char *w = r->words, *opt, *other, *policies;

		if (!(given & r->given) || (r->with && !(given & r->with)) ||
		    (given & r->without))
			continue;
		opt = strstr(w, "{opt}");
		other = strstr(w, "{other}");
		policies = strstr(w, "{policies}");
		if (policies)
			msg_usage("%.*s%s%s", (int)(policies - w), w,
				  policy_list(), policies + 10);
		if (opt)
			msg_usage("%.*s%s%s", (int)(opt - w), w,
				  first_flag(given & r->given), opt + 5);
		if (other)
			msg_usage("%.*s%s%s", (int)(other - w), w,
				  first_flag(given & r->with), other + 7);
		msg_usage("%s", w);
	}
}

static unsigned given_flags(const struct options *o)
{
	return F_ANY | (o->policy != POLICY_NONE ? F_POLICY : 0) |
	       (o->policy == POLICY_CPUS ? F_CPUS : 0) |
	       (o->smt == POLICY_SMT_ALL ? F_SMT : 0) |
	       (o->smt == POLICY_SMT_ONE ? F_NO_SMT : 0) |
	       (o->all ? F_ALL : 0) | (o->mem_given ? F_MEM : 0) |
	       (o->dry_run ? F_DRY_RUN : 0) | (o->explain ? F_EXPLAIN : 0) |
	       (o->json ? F_JSON : 0) | (o->show ? F_SHOW : 0) |
	       (o->pid && !o->show ? F_PID : 0) |
	       (o->topology ? F_TOPOLOGY : 0) | (o->follow ? F_FOLLOW : 0) |
	       (o->threads ? F_THREADS : 0) | (o->wait_all ? F_WAIT_ALL : 0) |
	       (o->report ? F_REPORT : 0) | (o->share ? F_SHARE : 0) |
	       (o->kind != POLICY_CORE_ANY ? F_KIND : 0) |
	       (o->command ? F_COMMAND : 0) | (o->near ? F_NEAR : 0) |
	       (o->list ? F_LIST : 0) | (o->physical ? F_PHYSICAL : 0) |
	       (o->quiet ? F_QUIET : 0) | (o->emit ? F_EMIT : 0) |
	       (o->tell ? F_TELL : 0) |
	       (o->spec || o->which == POLICY_WHICH_INDEX ? F_INDEX : 0);
}

/* --- values --------------------------------------------------------------- */

/* A decimal number without sign or junk, below limit. */
static bool parse_number(const char *s, unsigned long limit, unsigned long *out)
{
	return s &&
	       num_decimal(s, NUM_TO_NUL, 0, limit - 1, out, NULL) == NUM_OK;
}

/* A taskset list of indexes ("0,1", "0-3") as a union of locations of
 * type ("numa:0 numa:1", "numa:0-3"), into buf: how a list of domains is
 * written where pinrun takes one. false when list is no such list. */
static bool domain_union(const char *type, const char *list, char *buf,
			 size_t size)
{
	struct cpulist_error e;
	struct cpuset set;
	size_t n = 0;

	if (cpulist_parse_list(list, &set, &e) < 0 || strchr(list, ':'))
		return false;
	buf[0] = '\0';
	for (const char *p = list; *p && n < size; p += *p == ',') {
		size_t len = strcspn(p, ",");

		n += (size_t)snprintf(buf + n, size - n, "%s%s:%.*s",
				      n ? " " : "", type, (int)len, p);
		p += len;
	}
	return n < size;
}

/* "; did you mean --name=WORD?" when arg is a near miss of one of words,
 * else "". */
static const char *near_word(const char *name, const char *arg,
			     const char *const *words, size_t n)
{
	static char buf[96];
	size_t len = strlen(arg);
	int k = suggest_closest(arg, len, words, n, len > 4 ? 2 : 1);

	buf[0] = '\0';
	if (k >= 0)
		snprintf(buf, sizeof(buf), "; did you mean --%s=%s?", name,
			 words[k]);
	return buf;
}

/* "; did you mean --name=1?" for "node1", "numa:1", "l3:1", "package#1":
 * a name of the policy's own type (one of types, any case), then the
 * index. */
static const char *near_index(const char *name, const char *arg,
			      const char *types)
{
	static char buf[96];
	size_t len = strcspn(arg, ":#");
	const char *num = arg + len + 1;
	unsigned long n;
	char type[20];

	buf[0] = '\0';
	if (!arg[len]) { /* "node1" */
		for (len = 0; isalpha((unsigned char)arg[len]); len++)
			;
		num = arg + len;
	}
	if (!len || len + 3 > sizeof(type))
		return buf;
	type[0] = ' ';
	for (size_t i = 0; i < len; i++)
		type[i + 1] = (char)tolower((unsigned char)arg[i]);
	type[len + 1] = ' ';
	type[len + 2] = '\0';
	if (strstr(types, type) && parse_number(num, UINT_MAX, &n))
		snprintf(buf, sizeof(buf), "; did you mean --%s=%lu?", name, n);
	return buf;
}

static void parse_which(struct options *o, const struct policy_desc *p,
			const char *arg)
{
	static const char *const words[] = { "current", "idle" };
	unsigned long n;

	o->which = POLICY_WHICH_CURRENT;
	if (!arg)
		return;
	if (p->value == POLICY_VALUE_COUNT) {
		if (!parse_number(arg, CPULIST_MAX + 1, &n))
			msg_usage("invalid --%s value '%s': expected a number "
				  "of cores%s",
				  p->name, msg_input(arg),
				  strcmp(arg, "all") ? ""
						     : "; --spread alone "
						       "spreads over every "
						       "core");
		if (n == 0)
			msg_usage("invalid --%s value '0': spread over at "
				  "least 1 core",
				  p->name);
		o->spread = (unsigned)n;
		return;
	}
	if (!strcmp(arg, "current"))
		return;
	if (!strcmp(arg, "idle")) {
		o->which = POLICY_WHICH_IDLE;
		return;
	}
	o->which = POLICY_WHICH_INDEX;
	if (p->value == POLICY_VALUE_PU) {
		const char *hint = near_word(p->name, arg, words, 2);

		if (*hint &&
		    strspn(arg, "abcdefghijklmnopqrstuvwxyz") == strlen(arg))
			msg_usage("invalid --%s value '%s': expected current, "
				  "idle or a CPU specification%s",
				  p->name, msg_input(arg), hint);
		o->spec = arg;
		return;
	}
	if (!parse_number(arg, UINT_MAX, &n)) {
		const char *hint = near_word(p->name, arg, words, 2);
		char several[256];

		if (domain_union(p->location_type, arg, several,
				 sizeof(several)))
			msg_usage("invalid --%s value '%s': expected current, "
				  "idle or %s; several at once are --cpus '%s'",
				  p->name, msg_input(arg), p->index_words,
				  several);

		msg_usage("invalid --%s value '%s': expected current, idle or "
			  "%s%s",
			  p->name, msg_input(arg), p->index_words,
			  *hint ? hint : near_index(p->name, arg, p->aliases));
	}
	o->index = (unsigned)n;
}

static void set_policy(struct options *o, enum policy_kind kind,
		       const char *arg)
{
	const struct policy_desc *p = policy_desc(kind);

	if (o->policy == kind)
		msg_usage("--%s given twice: choose one placement", p->name);
	if (o->policy != POLICY_NONE)
		msg_usage("%s and --%s%s%s both given: choose one policy",
			  o->policy_text, p->name, arg ? "=" : "",
			  arg ? msg_input(arg) : "");
	o->policy = kind;
	snprintf(o->policy_text, sizeof(o->policy_text), "--%s%s%s", p->name,
		 arg ? "=" : "", arg ? msg_input(arg) : "");
	if (p->value == POLICY_VALUE_SPEC) {
		o->spec = arg;
		snprintf(o->policy_text, sizeof(o->policy_text), "--%s",
			 p->name);
	} else {
		parse_which(o, p, arg);
	}
}

/* "pinrun --spread 4 -- cmd" would run "4", "pinrun --tell omp -n" a
 * command named omp: getopt's optional arguments need "=". Say so rather
 * than try to run it. end is where the option without its value ended,
 * c what getopt returned for it. */
static void check_detached_argument(char **argv, int end, int c)
{
	const char *w = argv[end];
	unsigned long n;
	unsigned families;
	size_t len;

	if (!w)
		return;
	if (c == OPT_TELL ? tell_parse(w, &families, &w, &len) == 0
	    : c == 'f'	  ? !strcmp(w, "strict")
			  : parse_number(w, ULONG_MAX, &n) ||
			     !strcmp(w, "current") || !strcmp(w, "idle"))
		msg_usage("'%s' after %s would be run as the command: write "
			  "%s%s%s",
			  argv[end], argv[end - 1], argv[end - 1],
			  argv[end - 1][1] == '-' ? "=" : "", argv[end]);
}

/* A value option given twice would leave one of them unused. */
static const char *once(const char *old, const char *value, const char *name)
{
	if (old)
		msg_usage("--%s given twice", name);
	return value;
}

/* --mem=MODE or MODE:NODES; the nodes are read against the topology
 * later (memory.c), their form here. */
static void parse_mem(struct options *o, const char *arg)
{
	size_t len = strcspn(arg, ":");
	struct memory_error e;
	struct cpuset nodes;
	const char *names[HOST_MEM_MODES];

	if (o->mem_given)
		msg_usage("--mem given twice");
	o->mem_given = true;
	for (int m = 0; m < HOST_MEM_MODES; m++) {
		names[m] = host_mempolicy_name(m);
		if (strlen(names[m]) == len && !strncmp(arg, names[m], len)) {
			o->mem = m;
			if (!arg[len])
				return;
			if (!host_mempolicy_nodes(o->mem))
				msg_usage("invalid --mem value '%s': %s "
					  "takes no node list",
					  msg_input(arg), names[m]);
			if (memory_parse(NULL, arg + len + 1, &nodes, &e) < 0)
				msg_usage("%s", errors_memory(arg, NULL, &e));
			o->mem_nodes = arg + len + 1;
			return;
		}
	}
	msg_usage("invalid --mem value '%s': expected %s", msg_input(arg),
		  or_list(names, HOST_MEM_MODES, ""));
}

/* --share's syntax, before anything is read: I/N, auto or auto/N. A part
 * out of range is no usage error, as before. */
static void parse_share(struct options *o)
{
	struct launcher_error e;

	if (launcher_parse(o->share, &o->share_spec, &e) == 0)
		return;
	if (e.code == LAUNCHER_E_RANGE && e.number2)
		msg_die("%s", errors_launcher(o->share, &e, false));
	msg_usage("%s", errors_launcher(o->share, &e, false));
}

static void parse_near(struct options *o, const char *arg)
{
	struct devices_error e;

	o->near = once(o->near, arg, "near");
	if (devices_syntax(arg, &e) < 0)
		msg_usage("%s", errors_devices(arg, NULL, &e));
}

static void parse_tell(struct options *o, const char *arg)
{
	char families[256];
	const char *bad;
	size_t len;

	if (o->tell)
		msg_usage("--tell given twice");
	if (!arg) {
		o->tell = TELL_ALL;
		return;
	}
	tell_families(", ", " or ", families, sizeof(families));
	if (tell_parse(arg, &o->tell, &bad, &len) < 0)
		msg_usage("invalid --tell value '%s': '%s' is none of %s",
			  msg_input(arg), msg_input_n(bad, len), families);
}

/* --emit=FORMAT: an unknown format is refused with the list, one line. */
static void parse_emit(struct options *o, const char *arg)
{
	const char *names[16];
	char list[256];

	if (o->emit)
		msg_usage("--emit given twice");
	if ((o->emit = emit_find(arg)))
		return;
	for (unsigned i = 0; i < emit_nformats && i < 16; i++)
		names[i] = emit_formats[i].name;
	emit_names(list, sizeof(list));
	msg_die("invalid --emit value '%s': expected %s%s", msg_input(arg),
		list, near_word("emit", arg, names, emit_nformats));
}

static void parse_kind(struct options *o, const char *arg, bool *seen)
{
	const char *names[POLICY_CORE_COUNT];

	if (*seen)
		msg_usage("--kind given twice");
	*seen = true;
	for (int k = 0; k < POLICY_CORE_COUNT; k++) {
		if (!strcmp(arg, policy_core_kind(k)->name)) {
			o->kind = k;
			return;
		}
		/* any, the default, is named last */
		names[k ? k - 1 : POLICY_CORE_COUNT - 1] =
		    policy_core_kind(k)->name;
	}
	msg_usage("invalid --kind value '%s': expected %s", msg_input(arg),
		  or_list(names, POLICY_CORE_COUNT, ""));
}

static pid_t parse_pid(const char *arg, const char *what)
{
	unsigned long n;

	if (!parse_number(arg, (unsigned long)INT_MAX + 1, &n) || n == 0)
		msg_usage("invalid %s '%s': expected a process id", what,
			  msg_input(arg));
	return (pid_t)n;
}

/* --- other tools' habits -------------------------------------------------- */

/* What word processors and chat make of "--". */
static const char *dash_name(const char *w)
{
	if (!strncmp(w, "\xe2\x80\x93", 3))
		return "an en dash (U+2013)";
	if (!strncmp(w, "\xe2\x80\x94", 3))
		return "an em dash (U+2014)";
	return NULL;
}

/* A dash pasted for "--": alone, or before an option's name. */
static void check_dash(const char *w)
{
	const char *name = dash_name(w), *rest = w + 3;

	if (!name)
		return;
	rest += strspn(rest, "-");
	if (!*rest)
		msg_usage("'%s' is %s, not --", msg_input(w), name);
	msg_usage("'%s' starts with %s, not --: type %s%s", msg_input(w), name,
		  rest[1] ? "--" : "-", msg_input(rest));
}

/* What a word of a CPU specification is, when the shell split it off or
 * it came before the policy (taskset's and hwloc-bind's places): "a CPU
 * list", "a CPU mask", "a location", or NULL. */
static const char *spec_word(const char *w)
{
	struct cpulist_error e;
	struct cpuset set;

	if (isdigit((unsigned char)w[0]))
		switch (cpulist_syntax(w)) {
		case CPULIST_SYNTAX_MASK:
			return cpulist_parse_mask(w, &set, &e) == 0
				   ? "a CPU mask"
				   : NULL;
		case CPULIST_SYNTAX_LIST:
			return cpulist_parse_list(w, &set, &e) == 0
				   ? "a CPU list"
				   : NULL;
		default:
			return NULL;
		}
	return location_looks_like(w) ? "a location" : NULL;
}

/* The words from command on that belong to a CPU specification, joined
 * as one argument would have them into buf ("package:1 xcore:0-20" from
 * "package:1" "x" "core:0-20"); how many. */
static unsigned spec_words(char **command, char *buf, size_t size)
{
	unsigned n = 0;

	buf[0] = '\0';
	for (; command[n]; n++) {
		const char *w = command[n];
		bool op = strlen(w) == 1 && strchr("~x^", w[0]);
		size_t len = strlen(buf);

		if (op && command[n + 1] && location_looks_like(command[n + 1]))
			snprintf(buf + len, size - len, "%s%s%s",
				 len ? " " : "", w, command[++n]);
		else if (spec_word(w))
			snprintf(buf + len, size - len, "%s%s", len ? " " : "",
				 w);
		else
			break;
	}
	return n;
}

/* The command's first words, when they are what the user meant to give
 * --cpus: taskset's "pinrun 0-3 cmd", hwloc-bind's "pinrun core:0 -- cmd",
 * or a location the shell split off --cpus's argument ("--cpus package:0
 * ~core:0 cmd" would run "~core:0"). After "--" with a policy, the command
 * is what the user said it is. */
static void check_command(const struct options *o, bool after_dashes)
{
	const char *w = o->command[0], *what = spec_word(w);
	char spec[512];
	unsigned n;

	check_dash(w);
	if (o->policy == POLICY_NONE && !o->show && !o->near && !o->list &&
	    what) {
		n = spec_words(o->command, spec, sizeof(spec));
		if (n == 1 && !strcmp(what, "a CPU list") &&
		    strspn(w, "0123456789") == strlen(w))
			msg_usage("'%s' is a CPU list: did you mean --cpus %s? "
				  "(taskset's mask %s is --cpus 0x%s)",
				  w, w, w, w);
		if (n == 1)
			msg_usage("'%s' is %s: did you mean --cpus %s?",
				  msg_input(w), what, msg_input(w));
		msg_usage("'%s' are locations: did you mean --cpus '%s'?",
			  msg_input(spec), msg_input(spec));
	}
	if (o->policy != POLICY_CPUS || after_dashes ||
	    !(n = spec_words(o->command, spec, sizeof(spec))))
		return;
	if (location_looks_like(w))
		msg_usage("'%s' looks like a location: quote the whole --cpus "
			  "argument: --cpus '%s %s'",
			  msg_input(w), msg_input(o->spec), msg_input(spec));
	if (w[0] && !w[1]) /* hwloc's operator, then a space */
		msg_usage("'%s %s' looks like a location: quote the whole "
			  "--cpus argument: --cpus '%s %s'",
			  w, msg_input(o->command[1]), msg_input(o->spec),
			  msg_input(spec));
}

/* An option's value that is the next option: "--cpus --dry-run" would
 * take "--dry-run" as the CPUs and then run the command. */
static void check_value(const char *option, const char *value, const char *arg)
{
	const char *dash = dash_name(value);

	if (value[0] != '-' ||
	    (value[1] != '-' && !isalpha((unsigned char)value[1])))
		;
	else if (strstr(arg, "<file>") || strstr(arg, "<src>"))
		msg_usage("%s took '%s' as its value: write %s%s before it "
			  "(./%s for a file of that name)",
			  msg_input(option), msg_input(value),
			  msg_input(option), arg, msg_input(value));
	else
		msg_usage("%s took '%s' as its value: write %s%s before it",
			  msg_input(option), msg_input(value),
			  msg_input(option), arg);
	if (dash)
		msg_usage("%s took '%s' as its value: it is %s, not --",
			  msg_input(option), msg_input(value), dash);
}

/* What pinrun calls numactl's option opt (its short letter: C, N, m, i, p
 * for --preferred, l, H), with value when one was given and reads as one,
 * into buf. */
static const char *numactl_words(int opt, const char *value, char *buf,
				 size_t size)
{
	char nodes[256];
	const char *mem = opt == 'm'   ? "bind"
			  : opt == 'i' ? "interleave"
				       : "preferred";

	if (opt == 'C' && value && spec_word(value))
		snprintf(buf, size, "--cpus %s", msg_input(value));
	else if (opt == 'C')
		snprintf(buf, size, "--cpus");
	else if (opt == 'N' && value &&
		 strspn(value, "0123456789") == strlen(value) && *value)
		snprintf(buf, size, "--same-numa=%s", value);
	else if (opt == 'N' && value &&
		 domain_union("numa", value, nodes, sizeof(nodes)))
		snprintf(buf, size, "--cpus '%s'", nodes);
	else if (opt == 'N')
		snprintf(buf, size, "--same-numa=<node>");
	else if (opt == 'l')
		snprintf(buf, size, "--mem=local");
	else if (opt == 'H')
		snprintf(buf, size, "--list");
	else if (value && (!strcmp(value, "all") ||
			   domain_union("numa", value, nodes, sizeof(nodes))))
		snprintf(buf, size, "--mem=%s:%s", mem, value);
	else
		snprintf(buf, size, "--mem=%s:<nodes>", mem);
	return buf;
}

/* numactl's short options, which getopt refuses: what pinrun calls them,
 * value included when it reads as one. */
static void __attribute__((noreturn)) numactl_option(int opt, const char *value)
{
	char words[300], plain[300];

	if (opt == 'H')
		msg_usage("invalid option -- 'H': numactl's -H (--hardware) "
			  "is --list");
	if (opt == 'p' && !value)
		msg_usage("invalid option -- 'p': taskset's -p PID is --show "
			  "PID, numactl's -p NODE --mem=preferred:NODE (OS "
			  "indexes are --physical)");
	numactl_words(opt, value, words, sizeof(words));
	numactl_words(opt, NULL, plain, sizeof(plain));
	if (strcmp(words, plain)) /* the value is in the words */
		msg_usage("invalid option -- '%c': numactl's -%c %s is %s", opt,
			  opt, msg_input(value), words);
	msg_usage("invalid option -- '%c': numactl's -%c is %s", opt, opt,
		  words);
}

/* Whether w is a pid as taskset takes one: digits alone. */
static bool pid_word(const char *w)
{
	unsigned long n;

	return w && parse_number(w, INT_MAX, &n) && n > 0;
}

/* taskset's -p and -a, alone or in a cluster (-p PID, -p MASK PID,
 * -pc LIST PID, -ap PID): the one pinrun command that does what it did.
 * -p followed by a command is numactl's --preferred. */
static void taskset_option(char **argv, int optind_now, int opt)
{
	const char *w = argv[optind_now - 1], *a, *b;
	struct cpulist_error e;
	struct cpuset set;
	char mask[300];
	int at = optind_now;

	/* getopt leaves optind on a cluster it has not finished. */
	if (argv[optind_now] && argv[optind_now][0] == '-' &&
	    strchr(argv[optind_now] + 1, opt))
		w = argv[at++];
	if (w[0] != '-' || w[1] == '-' || strspn(w + 1, "acp") != strlen(w + 1))
		return;
	a = argv[at];
	b = a ? argv[at + 1] : NULL;
	if (!strchr(w, 'p')) /* -a alone: what --pid does anyway */
		msg_usage("invalid option -- 'a': taskset's -a is what --pid "
			  "does: it moves every thread of the process (--tid "
			  "moves one)");
	if (pid_word(a) && !b)
		msg_usage("invalid option -- 'p': taskset's %s %s is --show %s "
			  "(to move it: a policy and --pid %s)",
			  msg_input(w), a, a, a);
	if (a && pid_word(b) && !argv[at + 2] && strchr(w, 'c') && spec_word(a))
		msg_usage("invalid option -- 'p': taskset's %s %s %s is --cpus "
			  "%s --pid %s",
			  msg_input(w), msg_input(a), b, msg_input(a), b);
	/* taskset's mask is hex, with or without 0x; pinrun's digits alone
	 * are a list. */
	snprintf(mask, sizeof(mask), "%s%s",
		 a && strncmp(a, "0x", 2) ? "0x" : "", a ? a : "");
	if (a && pid_word(b) && !argv[at + 2] && !strchr(w, 'c') &&
	    cpulist_parse_mask(mask, &set, &e) == 0)
		msg_usage("invalid option -- 'p': taskset's %s %s %s is --cpus "
			  "%s --pid %s",
			  msg_input(w), msg_input(a), b, msg_input(mask), b);
}

/* The other tools' spellings of pinrun's options: what pinrun calls them,
 * or numactl's short letter, whose words say it with the value. */
static const struct {
	const char *name, *instead;
	char numactl;
} elsewhere[] = {
	{ "cpu-list", "--cpus", 0 }, /* taskset */
	{ "all-tasks", "--pid (it moves every thread)", 0 },
	{ "physcpubind", NULL, 'C' }, /* numactl */
	{ "cpunodebind", NULL, 'N' },
	{ "membind", NULL, 'm' },
	{ "interleave", NULL, 'i' },
	{ "preferred", NULL, 'p' },
	{ "localalloc", NULL, 'l' },
	{ "hardware", NULL, 'H' },
	{ "cpubind", "--cpus", 0 }, /* hwloc-bind */
	{ "single", "--hot", 0 },
	{ "get", "--show", 0 },
	{ "logical", "locations without --physical", 0 },
	/* hwloc-calc's: pinrun plans inside the mask it starts with, and
	 * counts nothing but a plan's CPUs. */
	{ "restrict",
	  "taskset -c SET pinrun ... (pinrun plans inside the mask it starts "
	  "with)",
	  0 },
	{ "number-of",
	  "hwloc-calc --number-of (pinrun's --json has a plan's \"count\")",
	  0 },
	{ "intersect",
	  "hwloc-calc --intersect (pinrun's --json has a plan's \"count\")",
	  0 },
};

/* An unknown or ambiguous long option: its candidates, or what it was
 * probably meant to be. next is the word after it. */
static void __attribute__((noreturn))
long_option_error(const char *word, const char *next,
		  const struct option *longopts)
{
	const char *name = word + 2, *names[NPOLICIES + NOTHERS];
	size_t len = strcspn(name, "="), n = 0;
	char words[300];
	int k;

	for (const struct option *l = longopts; l->name; l++)
		if (!strncmp(l->name, name, len))
			names[n++] = l->name;
	if (n > 1)
		msg_usage("option '--%s' is ambiguous: %s",
			  msg_input_n(name, len), or_list(names, n, "--"));
	for (size_t i = 0; i < sizeof(elsewhere) / sizeof(elsewhere[0]); i++) {
		const char *value = name[len] ? name + len + 1 : next;

		if (strlen(elsewhere[i].name) != len ||
		    strncmp(name, elsewhere[i].name, len))
			continue;
		if (elsewhere[i].numactl)
			msg_usage("unrecognized option '%s'; did you mean %s?",
				  msg_input(word),
				  numactl_words(elsewhere[i].numactl, value,
						words, sizeof(words)));
		msg_usage("unrecognized option '%s'; did you mean %s?",
			  msg_input(word), elsewhere[i].instead);
	}
	n = 0;
	for (const struct option *l = longopts; l->name; l++)
		names[n++] = l->name;
	k = suggest_closest(name, len, names, n, len > 5 ? 2 : 1);
	if (k >= 0)
		msg_usage("unrecognized option '%s'; did you mean --%s?",
			  msg_input(word), names[k]);
	msg_usage("unrecognized option '%s'", msg_input(word));
}

/* getopt_long's complaint, worded as util-linux words it, with what was
 * probably meant. */
static void __attribute__((noreturn))
option_error(char **argv, int optind_now, int opt,
	     const struct option *longopts)
{
	const char *word = argv[optind_now - 1], *next = argv[optind_now];

	if (opt == 'p' || opt == 'a')
		taskset_option(argv, optind_now, opt);
	if (opt == 's' && next && spec_word(next))
		msg_usage("invalid option -- 's': likwid-pin's skip mask has "
			  "no pinrun form: --follow --threads places every "
			  "thread the command starts, shepherds included "
			  "(likwid-pin -s %s skips them)",
			  msg_input(next));
	if (opt == 's')
		msg_usage("invalid option -- 's': numactl's -s (--show) is "
			  "--show");
	if (opt && strchr("CNmilpH", opt))
		numactl_option(
		    opt, next && next[0] == '-' && next[1] == opt && next[2]
			     ? next + 2
			 : word[0] == '-' && word[1] == opt && !word[2] ? next
									: NULL);
	if (policy_of_short(opt) != POLICY_NONE)
		msg_usage("option requires an argument -- '%c'", opt);
	if (opt > 0 && opt < CHAR_MAX)
		msg_usage("invalid option -- '%c'", opt);
	for (const struct option *l = longopts; opt && l->name; l++)
		if (l->val == opt)
			msg_usage(l->has_arg == required_argument
				      ? "option '--%s' requires an argument"
				      : "option '--%s' doesn't allow an "
					"argument",
				  l->name);
	if (!strncmp(word, "--", 2) && word[2])
		long_option_error(word, next, longopts);
	msg_usage("unrecognized option '%s'", msg_input(word));
}

/* How --help writes the value of the option getopt returned as c. */
static const char *value_words(int c)
{
	if (c >= OPT_POLICY && c < OPT_POLICY + (int)NPOLICIES)
		return policy_desc(policy_at((size_t)(c - OPT_POLICY)))->arg;
	if (policy_of_short(c) != POLICY_NONE)
		return policy_desc(policy_of_short(c))->arg;
	for (size_t i = 0; i < NOTHERS; i++)
		if (other_options[i].val == c)
			return other_options[i].arg;
	return "";
}

/* getopt's tables: the long options and, into shorts, the short ones. */
static void fill_longopts(struct option *longopts, char *shorts, size_t size)
{
	size_t n = (size_t)snprintf(shorts, size, "+");

	for (size_t i = 0; i < NPOLICIES; i++) {
		const struct policy_desc *p = policy_desc(policy_at(i));
		bool required = p->value == POLICY_VALUE_SPEC;

		longopts[i] = (struct option){ p->name,
					       required ? required_argument
							: optional_argument,
					       NULL, OPT_POLICY + (int)i };
		if (p->short_opt && n < size)
			n += (size_t)snprintf(shorts + n, size - n, "%c%s",
					      p->short_opt,
					      required ? ":" : "::");
	}
	if (n < size)
		snprintf(shorts + n, size - n, "%s", other_shorts);
	for (size_t i = 0; i < NOTHERS; i++)
		longopts[NPOLICIES + i] =
		    (struct option){ other_options[i].name,
				     other_options[i].has_arg, NULL,
				     other_options[i].val };
	memset(&longopts[NPOLICIES + NOTHERS], 0, sizeof(longopts[0]));
}

const struct options *options_parse(int argc, char **argv)
{
	static struct options o;
	struct option longopts[NPOLICIES + NOTHERS + 1];
	char shorts[32];
	const char *env = getenv("PINRUN_NO_CACHE");
	bool kind_seen = false;
	pid_t tid = 0;
	int c, detached = 0, detached_end = 0;

	o.no_cache = env && *env && strcmp(env, "0");
	fill_longopts(longopts, shorts, sizeof(shorts));
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (optarg && optarg == argv[optind - 1] && optind >= 2)
			check_value(argv[optind - 2], optarg, value_words(c));
		if (c >= OPT_POLICY && c < OPT_POLICY + (int)NPOLICIES) {
			set_policy(&o, policy_at((size_t)(c - OPT_POLICY)),
				   optarg);
			detached_end = optarg ? 0 : optind;
			detached = c;
			continue;
		}
		if (policy_of_short(c) != POLICY_NONE) {
			set_policy(&o, policy_of_short(c), optarg);
			continue;
		}
		switch (c) {
		case OPT_SMT:
		case OPT_NO_SMT:
			if (o.smt != POLICY_SMT_DEFAULT &&
			    o.smt != (c == OPT_SMT ? POLICY_SMT_ALL
						   : POLICY_SMT_ONE))
				msg_usage("--smt and --no-smt both given");
			o.smt = c == OPT_SMT ? POLICY_SMT_ALL : POLICY_SMT_ONE;
			break;
		case OPT_ALL:
			o.all = true;
			break;
		case OPT_PHYSICAL:
			o.physical = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case OPT_TID:
			if (tid)
				msg_usage("--tid given twice");
			tid = parse_pid(optarg, "--tid value");
			break;
		case OPT_MEM:
			parse_mem(&o, optarg);
			break;
		case 'n':
			o.dry_run = true;
			break;
		case OPT_EXPLAIN:
			o.explain = true;
			break;
		case OPT_JSON:
			o.json = true;
			break;
		case OPT_SHOW:
			o.show = true;
			break;
		case OPT_PID:
			if (o.pid)
				msg_usage("--pid given twice");
			o.pid = parse_pid(optarg, "--pid value");
			break;
		case OPT_TOPOLOGY:
			o.topology = once(o.topology, optarg, "topology");
			break;
		case OPT_NO_CACHE:
			o.no_cache = true;
			break;
		case 'f':
			if (optarg && strcmp(optarg, "strict"))
				msg_usage("invalid --follow value '%s': "
					  "expected strict",
					  msg_input(optarg));
			o.follow = true;
			o.follow_strict |= optarg != NULL;
			detached_end = optarg ? 0 : optind;
			detached = c;
			break;
		case OPT_THREADS:
			o.threads = true;
			break;
		case OPT_WAIT_ALL:
			o.wait_all = true;
			break;
		case OPT_REPORT:
			o.report = once(o.report, optarg, "report");
			break;
		case OPT_SHARE:
			o.share = once(o.share, optarg, "share");
			parse_share(&o);
			break;
		case OPT_KIND:
			parse_kind(&o, optarg, &kind_seen);
			break;
		case OPT_NEAR:
			parse_near(&o, optarg);
			break;
		case OPT_LIST:
			o.list = true;
			break;
		case OPT_EMIT:
			parse_emit(&o, optarg);
			break;
		case OPT_TELL:
			detached_end = optarg ? 0 : optind;
			detached = c;
			parse_tell(&o, optarg);
			break;
		case 'h':
			usage();
		case 'V':
			printf("pinrun %s\n", PINRUN_VERSION);
			exit(PINRUN_EXIT_OK);
		default:
			option_error(argv, optind, optopt, longopts);
		}
	}
	if (detached_end && detached_end == optind)
		check_detached_argument(argv, detached_end, detached);
	/* --show PID, or as taskset -p has it, --show --pid PID. */
	if (o.show && optind < argc) {
		if (o.pid)
			msg_usage("--show takes one pid: after its options or "
				  "with --pid, not both");
		o.pid = parse_pid(argv[optind], "pid");
		if (optind + 1 < argc)
			msg_usage("--show takes one pid, after its options");
	} else if (optind < argc) {
		o.command = argv + optind;
		check_command(&o, !strcmp(argv[optind - 1], "--"));
	}
	/* taskset -p PID asks; pinrun --pid PID moves, so it needs a policy. */
	if ((o.pid || tid) && !o.show && !o.list && o.policy == POLICY_NONE &&
	    !o.near)
		msg_usage("--%s %d re-places a %s and needs a policy; to see "
			  "where it may run, use --show %d",
			  tid ? "tid" : "pid", tid ? (int)tid : (int)o.pid,
			  tid ? "thread" : "process",
			  tid ? (int)tid : (int)o.pid);
	check_rules(given_flags(&o) | (tid ? F_TID : 0));
	if (tid) {
		o.pid = tid;
		o.tid = true;
	}
	o.dry_run |= o.emit != NULL;
	return &o;
}
