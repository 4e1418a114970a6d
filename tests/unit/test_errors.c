/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the words: every code of every module has a reason
 * phrase, errors.c composes a whole message for each (never a fallback,
 * never a missing value), and what the user typed is echoed safely. */
#include <errno.h>

#include "check.h"
#include "errors.h"
#include "message.h"

/* Words that say something, on one line, with every value given. */
static bool worded(const char *w)
{
	if (!w[0] || strstr(w, "failed") || strstr(w, "(null)") ||
	    strchr(w, '\n')) {
		printf("# badly worded: '%s'\n", w);
		return false;
	}
	return true;
}

/* The message for a CPU list or mask that did not parse. */
static const char *cpulist_words_of(const char *input,
				    const struct cpulist_error *e)
{
	struct location_error le = { .code = LOCATION_E_CPULIST,
				     .nelems = 1,
				     .list = *e };

	return errors_spec(NULL, NULL, input, &le);
}

/* A phrase for each code: a few words, none the fallback's. */
static bool phrase(const char *w)
{
	if (!w[0] || !strcmp(w, "unknown error") || strchr(w, '\n')) {
		printf("# no phrase: '%s'\n", w);
		return false;
	}
	return true;
}

TEST(every_code_has_a_phrase)
{
	for (int c = CPULIST_E_EMPTY; c < CPULIST_E_NCODES; c++)
		EXPECT(phrase(cpulist_strerror((enum cpulist_err)c)));
	for (int c = LOCATION_E_TYPE; c < LOCATION_E_NCODES; c++)
		EXPECT(phrase(location_strerror((enum location_err)c)));
	for (int c = POLICY_E_NOMEM; c < POLICY_E_NCODES; c++)
		EXPECT(phrase(policy_strerror((enum policy_err)c)));
	for (int c = LAUNCHER_E_SYNTAX; c < LAUNCHER_E_NCODES; c++)
		EXPECT(phrase(launcher_strerror((enum launcher_err)c)));
	for (int w = LAUNCHER_WHY_NUMBER; w < LAUNCHER_WHY_NCODES; w++)
		EXPECT(phrase(launcher_why_strerror((enum launcher_why)w)));
	for (int c = TOPO_E_NOMEM; c < TOPO_E_NCODES; c++)
		EXPECT(phrase(topo_strerror((enum topo_err)c)));
	for (int c = DEVICES_E_EMPTY; c < DEVICES_E_NCODES; c++)
		EXPECT(phrase(devices_strerror((enum devices_err)c)));
	for (int c = MEMORY_E_EMPTY; c < MEMORY_E_NCODES; c++)
		EXPECT(phrase(memory_strerror((enum memory_err)c)));
	for (int w = FOLLOW_TRACED; w < FOLLOW_NCODES; w++)
		EXPECT(phrase(follow_strerror((enum follow_unavailable)w)));
	/* A code beyond the table (a newer module, an old caller). */
	EXPECT(
	    !strcmp(cpulist_strerror((enum cpulist_err)99), "unknown error"));
	/* The phrase is the message's reason where it needs no value. */
	EXPECT(
	    !strcmp(memory_strerror(MEMORY_E_EMPTY), "no node list after ':'"));
	EXPECT(!strcmp(follow_strerror(FOLLOW_NO_SEIZE),
		       "the kernel has no PTRACE_SEIZE"));
}

/* Out of memory is one line wherever it happens, as message.c's own. */
TEST(out_of_memory_is_one_line)
{
	struct topology *t = build_machine(1, 1, 2, 1, false);
	struct location_error le = { .code = LOCATION_E_NOMEM, .parent = -1 };
	struct policy_error pe = { .code = POLICY_E_NOMEM };
	struct policy_facts pf = { .what = "--spread", .kind = POLICY_SPREAD };
	struct launcher_error ae = { .code = LAUNCHER_E_NOMEM };
	struct topo_error te = { .code = TOPO_E_NOMEM };

	EXPECT(!strcmp(errors_spec(NULL, t, "core:0", &le), "out of memory"));
	EXPECT(!strcmp(errors_policy(&pe, &pf), "out of memory"));
	EXPECT(!strcmp(errors_launcher("1/2", &ae, false), "out of memory"));
	EXPECT(!strcmp(errors_topo(&te, TOPO_SRC_XML, "x.xml", NULL),
		       "out of memory"));
	EXPECT(!strcmp(errors_topo(&te, TOPO_SRC_LIVE, NULL, "HWLOC_XMLFILE"),
		       "out of memory"));
	tree_free(t);
}

TEST(cpulist_words)
{
	static const char input[] = "0-3x";
	struct cpulist_error e = { .at = input + 3, .value = 3, .value2 = 1 };

	for (int c = CPULIST_E_EMPTY; c < CPULIST_E_NCODES; c++) {
		e.code = (enum cpulist_err)c;
		EXPECT(worded(cpulist_words_of(input, &e)));
	}
	e.code = CPULIST_E_BAD_CHAR;
	EXPECT(!strcmp(cpulist_words_of(input, &e),
		       "invalid CPU list '0-3x': unexpected 'x'"));
	e.code = CPULIST_E_REVERSED;
	EXPECT(!strcmp(cpulist_words_of("3-1", &e),
		       "invalid CPU list '3-1': range 3-1 is reversed"));
}

TEST(location_words)
{
	struct topology *t = build_machine(2, 1, 2, 1, false);
	struct location_error e = { .at = "core",
				    .len = 4,
				    .value = 9,
				    .value2 = 2,
				    .type = TOPO_CORE,
				    .parent = 1,
				    .list = { .code = CPULIST_E_NO_END } };

	for (int c = LOCATION_E_TYPE; c < LOCATION_E_NCODES; c++) {
		e.code = (enum location_err)c;
		for (int v = 0; v < 4; v++) {
			e.physical = v & 1;
			e.nelems = v & 2 ? 2 : 1;
			EXPECT(worded(
			    errors_spec(NULL, t, "package:0.core:9", &e)));
		}
	}
	e.physical = false;
	e.nelems = 1;
	e.code = LOCATION_E_NO_SUCH;
	EXPECT(!strcmp(errors_spec(NULL, t, "package:0.core:9", &e),
		       "invalid location 'package:0.core:9': package:0 has no "
		       "core 9 (it has 2)"));
	/* The same object by its OS index, and the other way round. */
	e.has_other = true;
	e.other = 1;
	EXPECT(!strcmp(errors_spec(NULL, t, "package:0.core:9", &e),
		       "invalid location 'package:0.core:9': package:0 has no "
		       "core 9 (it has 2); core P#9 is core:1 (--physical "
		       "reads OS indexes)"));
	e.physical = true;
	snprintf(e.os_indexes, sizeof(e.os_indexes), "0-1");
	EXPECT(!strcmp(errors_spec(NULL, t, "package:0.core:9", &e),
		       "invalid location 'package:0.core:9': package P#0 has "
		       "no core with OS index 9 (OS indexes 0-1); without "
		       "--physical, core:9 is P#1"));
	/* A near miss, given as the option it came with. */
	e.code = LOCATION_E_TYPE;
	e.at = "cpu0";
	snprintf(e.suggest, sizeof(e.suggest), "0");
	EXPECT(!strcmp(errors_spec("--hot=", t, "cpu0", &e),
		       "invalid location 'cpu0': unknown object type 'cpu0'; "
		       "did you mean --hot=0?"));
	snprintf(e.suggest, sizeof(e.suggest), "all ~0");
	EXPECT(!strcmp(errors_spec("--cpus", t, "cpu0", &e),
		       "invalid location 'cpu0': unknown object type 'cpu0'; "
		       "did you mean --cpus 'all ~0'?"));
	/* A list inside an expression names both. */
	e.code = LOCATION_E_CPULIST;
	e.nelems = 2;
	e.at = "1-";
	e.len = 2;
	EXPECT(!strcmp(errors_spec(NULL, t, "0-3 ~1-", &e),
		       "invalid CPU list '1-' in '0-3 ~1-': missing end of "
		       "range"));
	tree_free(t);
}

TEST(policy_words)
{
	struct cpuset some = set_of("0-3"), none;
	struct policy_facts f = { .what = "--same-chip=1",
				  .kind = POLICY_SAME_CHIP,
				  .allowed = &some,
				  .usable = &some,
				  .complete = &some,
				  .domain = &some,
				  .spec = "1-2" };
	struct policy_error e = { .value = 1, .value2 = 2 };

	cpulist_zero(&none);
	for (int c = POLICY_E_NOMEM; c < POLICY_E_NCODES; c++) {
		e.code = (enum policy_err)c;
		f.this_system = false;
		EXPECT(worded(errors_policy(&e, &f)));
		f.this_system = true;
		EXPECT(worded(errors_policy(&e, &f)));
		f.offline = true;
		EXPECT(worded(errors_policy(&e, &f)));
		f.domain = &none;
		EXPECT(worded(errors_policy(&e, &f)));
		f.domain = &some;
		f.offline = false;
	}
	e.code = POLICY_E_TOO_MANY;
	e.value2 = 1;
	EXPECT(!strcmp(errors_policy(&e, &f),
		       "--same-chip=1: only 1 core is allowed"));
}

TEST(topology_words)
{
	struct topo_error e = { .sys = 2 };

	for (int c = TOPO_E_NOMEM; c < TOPO_E_NCODES; c++) {
		e.code = (enum topo_err)c;
		EXPECT(worded(errors_topo(&e, TOPO_SRC_XML, "x.xml", NULL)));
		/* No file name (never from pinrun): words, no crash. */
		EXPECT(worded(errors_topo(&e, TOPO_SRC_XML, NULL, NULL)));
		EXPECT(worded(errors_topo(&e, TOPO_SRC_LIVE, NULL, NULL)));
		EXPECT(worded(
		    errors_topo(&e, TOPO_SRC_LIVE, "y", "HWLOC_XMLFILE")));
	}
	e.code = TOPO_E_SYSTEM;
	EXPECT(!strcmp(errors_topo(&e, TOPO_SRC_XML, "x.xml", NULL),
		       "cannot read topology 'x.xml': No such file or "
		       "directory"));
}

TEST(launcher_and_follow_words)
{
	struct launcher_error le = { .var = "SLURM_LOCALID",
				     .value = "5",
				     .var2 = "SLURM_STEP_TASKS_PER_NODE",
				     .value2 = "2",
				     .number = 5,
				     .number2 = 2 };
	struct follow_start st = { .err = 1, .tracer = 9 };
	struct follow_facts ff = { .comm = "gdb", .yama_scope = 3 };

	for (int c = LAUNCHER_E_SYNTAX; c < LAUNCHER_E_NCODES; c++) {
		le.code = (enum launcher_err)c;
		EXPECT(worded(errors_launcher("auto", &le, false)));
	}
	for (int w = LAUNCHER_WHY_NUMBER; w < LAUNCHER_WHY_NCODES; w++) {
		le.code = LAUNCHER_E_BAD_VALUE;
		le.why = (enum launcher_why)w;
		EXPECT(worded(errors_launcher("auto", &le, false)));
	}
	le.code = LAUNCHER_E_BEYOND;
	EXPECT(!strcmp(errors_launcher("auto", &le, false),
		       "--share auto: SLURM_LOCALID=5 is not below this "
		       "node's 2 tasks (SLURM_STEP_TASKS_PER_NODE=2)"));
	le.code = LAUNCHER_E_RANGE;
	le.number2 = 0;
	EXPECT(!strcmp(errors_launcher("auto/0", &le, false),
		       "invalid --share value 'auto/0': N counts from 1"));
	for (int w = FOLLOW_TRACED; w < FOLLOW_NCODES; w++) {
		st.why = (enum follow_unavailable)w;
		EXPECT(worded(errors_follow(&st, &ff)));
	}
	st.why = FOLLOW_DENIED;
	EXPECT(!strcmp(errors_follow(&st, &ff),
		       "ptrace is denied by Yama (ptrace_scope 3)"));
	/* RLIMIT_NPROC's words where it is known, the errno's otherwise. */
	st.why = FOLLOW_NO_HELPER;
	st.err = EAGAIN;
	ff.nproc_limit = 3;
	ff.nproc_running = 1;
	ff.nproc_needs = 2;
	EXPECT(!strcmp(errors_follow(&st, &ff),
		       "cannot start the tracer: the user's process limit "
		       "(RLIMIT_NPROC 3, 1 running) has no room for its 2 "
		       "processes and one of the command's"));
	ff.nproc_limit = -1;
	EXPECT(!strcmp(errors_follow(&st, &ff),
		       "cannot start the tracer: Resource temporarily "
		       "unavailable"));
}

TEST(device_and_memory_words)
{
	struct topology *t = build_machine(1, 1, 2, 1, false);
	struct topo_dev nic = { .type = TOPO_DEV_PCI, .pci = TOPO_NONE },
			eth = { .type = TOPO_DEV_NETWORK, .pci = 0 };
	struct devices_error de = { .first = 1, .second = 2 };
	struct memory_error me = { .at = "hbm", .len = 3, .value = 7 };

	for (int pci = 0; pci < 2; pci++)
		for (int c = DEVICES_E_EMPTY; c < DEVICES_E_NCODES; c++) {
			de.code = (enum devices_err)c;
			de.pci = pci;
			if (c == DEVICES_E_BAD_PCI && !pci)
				continue; /* only a pci= value is malformed */
			EXPECT(worded(errors_devices("x", NULL, &de)));
			EXPECT(worded(errors_devices("x", t, &de)));
		}
	de.code = DEVICES_E_UNKNOWN;
	de.pci = 0;
	EXPECT(!strcmp(errors_devices("eth9", t, &de),
		       "unknown device 'eth9': the topology has no I/O "
		       "device"));
	snprintf(nic.busid, sizeof(nic.busid), "0000:3b:00.0");
	EXPECT(tree_add_dev(t, &nic) == 0);
	eth.busid[0] = '\0';
	snprintf(eth.name, sizeof(eth.name), "eth\n0");
	EXPECT(tree_add_dev(t, &eth) == 1);
	EXPECT(tree_add_dev(t, &eth) == 2);
	EXPECT(!strcmp(errors_devices("eth9", t, &de),
		       "unknown device 'eth9': the topology has eth\\x0a0, "
		       "eth\\x0a0"));
	de.code = DEVICES_E_AMBIGUOUS;
	EXPECT(!strcmp(errors_devices("x", t, &de),
		       "device name 'x' is ambiguous: the topology has two, "
		       "under machine:0 and machine:0: name the one meant as "
		       "pci=<bus id>"));
	for (int c = MEMORY_E_EMPTY; c < MEMORY_E_NCODES; c++) {
		me.code = (enum memory_err)c;
		EXPECT(worded(errors_memory("bind:hbm", NULL, &me)));
		EXPECT(worded(errors_memory("bind:hbm", t, &me)));
	}
	me.code = MEMORY_E_NO_NODE;
	EXPECT(!strcmp(errors_memory("bind:7", t, &me),
		       "--mem=bind:7: the topology has no NUMA node 7 (its "
		       "nodes: 0)"));
	tree_free(t);
}

TEST(input_is_escaped_and_cut)
{
	static char big[100001];
	struct cpulist_error e = { .code = CPULIST_E_EMPTY_ITEM };
	const char *w;

	EXPECT(!strcmp(cpulist_words_of("1,\n,2", &e),
		       "invalid CPU list '1,\\x0a,2': empty item"));
	memset(big, '1', sizeof(big) - 1);
	w = cpulist_words_of(big, &e);
	EXPECT(strlen(w) < 300);
	EXPECT(strstr(w, "...': empty item") != NULL);
	/* MSG_SLOTS echoes in one message stay each its own. */
	{
		const char *in[MSG_SLOTS];
		char want[8];

		for (int i = 0; i < MSG_SLOTS; i++) {
			snprintf(want, sizeof(want), "v%d", i);
			in[i] = msg_input(want);
		}
		for (int i = 0; i < MSG_SLOTS; i++) {
			snprintf(want, sizeof(want), "v%d", i);
			EXPECT(!strcmp(in[i], want));
		}
	}
}

int main(void)
{
	RUN(every_code_has_a_phrase);
	RUN(out_of_memory_is_one_line);
	RUN(cpulist_words);
	RUN(location_words);
	RUN(policy_words);
	RUN(topology_words);
	RUN(launcher_and_follow_words);
	RUN(device_and_memory_words);
	RUN(input_is_escaped_and_cut);
	return DONE();
}
