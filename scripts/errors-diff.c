/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errors-diff: every message of errors.c against another revision's, for
 * a change that rewords nothing (scripts/errors-diff builds this with
 * that revision's errors.c renamed olderrors_*). Feeds both the same
 * codes, values and facts, over every combination below, and prints each
 * message that differs; where the old one had no words (": failed", an
 * impossible combination) the new one may say more. Exits 1 if any
 * message differs.
 */
#include "check.h"
#include "errors.h"
#include "old.h"

static unsigned long compared, differ, unworded;

static void compare(const char *now, const char *before)
{
	static char copy[20000];

	snprintf(copy, sizeof(copy), "%s", now);
	compared++;
	if (!strcmp(copy, before))
		return;
	if (strstr(before, "failed") || strstr(before, "{?")) {
		unworded++;
		return;
	}
	if (differ++ < 40)
		printf("before: %s\nnow:    %s\n", before, copy);
}

/* Both calls, the old one's text kept first: each returns its own static
 * buffer, but msg_input's are shared. */
#define BOTH(call)                                                             \
	do {                                                                   \
		static char before[20000];                                     \
		snprintf(before, sizeof(before), "%s", old##call);             \
		compare(call, before);                                         \
	} while (0)

int main(void)
{
	struct topology *t = build_machine(2, 1, 2, 2, false);
	struct topology *td = build_machine(1, 1, 2, 1, false);
	const char *ats[] = { NULL,	"x",	"[pci", "=a",
			      "12345z", "core", "hbm",	"" };
	/* cpulist */
	for (int c = 0; c <= CPULIST_E_NCODES; c++)
		for (unsigned a = 0; a < 8; a++) {
			struct location_error e = {
				.code = LOCATION_E_CPULIST,
				.nelems = 1,
				.list = { .code = (enum cpulist_err)c,
					  .at = ats[a],
					  .value = 3,
					  .value2 = 1 }
			};
			if (!ats[a] && c == CPULIST_E_TOO_LARGE)
				continue;
			if (c > CPULIST_E_MASK_ZERO)
				continue;
			BOTH(errors_spec(NULL, NULL, "0-3\nx", &e));
		}
	/* locations */
	const char *opts[] = { NULL, "--hot=", "--cpus", "--same-chip=" };
	const char *sugg[] = { "", "0", "all ~0", "S0:0" };
	for (int c = 0; c < LOCATION_E_NCODES; c++)
		for (unsigned a = 0; a < 8; a++)
			for (int fo = 0; fo < 4; fo++)
				for (int s = 0; s < 4; s++)
					for (int bits = 0; bits < 64; bits++)
						for (int op = 0; op < 4; op++) {
							struct location_error e = {
								.code =
								    (enum location_err)
									c,
								.foreign =
								    (enum location_foreign)
									fo,
								.at = ats[a],
								.len =
								    ats[a]
									? strlen(
									      ats[a])
									: 0,
								.nelems =
								    (bits & 1)
									? 2
									: 1,
								.chain =
								    bits & 2,
								.io = bits & 4,
								.type =
								    TOPO_CORE,
								.value = 9,
								.value2 = 2,
								.parent =
								    (bits & 8)
									? 1
									: -1,
								.in_numa =
								    bits & 16,
								.parent_numa =
								    1,
								.physical =
								    bits & 32,
								.has_other =
								    s & 1,
								.other = 1,
								.list = { .code =
									      CPULIST_E_NO_END,
									  .at =
									      "x" }
							};
							if (c ==
								LOCATION_E_CPULIST &&
							    !ats[a])
								continue;
							snprintf(
							    e.suggest,
							    sizeof(e.suggest),
							    "%s", sugg[s]);
							if (op & 1)
								snprintf(
								    e.os_indexes,
								    sizeof(
									e.os_indexes),
								    "0-1");
							BOTH(errors_spec(
							    opts[op], t,
							    "package:0.core:9",
							    &e));
							BOTH(errors_spec(
							    NULL, t, "a\tb",
							    &e));
						}
	/* policies */
	struct cpuset some = set_of("0-3"), none, other = set_of("5");
	cpulist_zero(&none);
	const char *specs[] = { NULL, "", "12", "1-2", "a\nb" };
	for (int c = 0; c < POLICY_E_NCODES; c++)
		for (int k = 0; k < 3; k++)
			for (int sp = 0; sp < 5; sp++)
				for (int bits = 0; bits < 64; bits++) {
					enum policy_kind kinds[] = {
						POLICY_SAME_CHIP, POLICY_HOT,
						POLICY_SPREAD
					};
					struct policy_facts f = {
						.what = "--same-chip=1",
						.kind = kinds[k],
						.smt = (bits & 1)
							   ? POLICY_SMT_ALL
							   : POLICY_SMT_DEFAULT,
						.spec = specs[sp],
						.allowed =
						    (bits & 2) ? &some : NULL,
						.usable = &other,
						.complete = &some,
						.domain =
						    (bits & 4) ? &none : &other,
						.all = bits & 8,
						.this_system = bits & 16,
						.offline = bits & 32,
						.has_os_match = bits & 1,
						.os_match = 4
					};
					struct policy_error e = {
						.code = (enum policy_err)c,
						.value = 1,
						.value2 = (bits & 2) ? 1 : 3
					};
					BOTH(errors_policy(&e, &f));
				}
	for (int bits = 0; bits < 8; bits++) {
		struct index_facts f = { .what = "--same-chip=3",
					 .kind = POLICY_SAME_CHIP,
					 .value = 3,
					 .no_os = bits & 1,
					 .has_other = bits & 2,
					 .other = 7 };
		snprintf(f.os_list, sizeof(f.os_list), "%s",
			 bits & 4 ? "0,2" : "");
		BOTH(errors_physical(&f));
	}
	/* launcher */
	const char *vars[][2] = {
		{ "I", NULL },
		{ "N", NULL },
		{ "SLURM_LOCALID", "SLURM_STEP_TASKS_PER_NODE" },
		{ "SLURM_NODEID", "SLURM_JOB_NUM_NODES_TASKS_PER_NODE" },
		{ "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE" },
		{ "SLURM_NODEID", "SLURM_NNODES" }
	};
	for (int c = 0; c < LAUNCHER_E_NCODES; c++)
		for (int w = 0; w < LAUNCHER_WHY_NCODES; w++)
			for (int v = 0; v < 6; v++)
				for (int bits = 0; bits < 8; bits++) {
					struct launcher_error e = {
						.code = (enum launcher_err)c,
						.why = (enum launcher_why)w,
						.var = vars[v][0],
						.value =
						    (bits & 2) ? "5\n" : NULL,
						.var2 = vars[v][1],
						.value2 = "2",
						.number = 5,
						.number2 = (bits & 4) ? 0 : 2,
						.units = (bits & 4) ? 1 : 3
					};
					if (c == LAUNCHER_E_BEYOND &&
					    !vars[v][1])
						continue;
					BOTH(errors_launcher("auto\n", &e,
							     bits & 1));
				}
	/* topology */
	for (int c = 1; c < TOPO_E_NCODES; c++)
		for (int k = 0; k < TOPO_SRC_NKINDS; k++)
			for (int bits = 0; bits < 8; bits++) {
				struct topo_error e = {
					.code = (enum topo_err)c,
					.sys = (bits & 1) ? 2 : 0
				};
				/* An XML source always has its file (an
				 * older errors.c crashes without one). */
				if (k == TOPO_SRC_XML && !(bits & 2))
					continue;
				BOTH(errors_topo(&e, (enum topo_source_kind)k,
						 (bits & 2) ? "x\n.xml" : NULL,
						 (bits & 4) ? "HWLOC_XMLFILE"
							    : NULL));
			}
	/* devices, with and without devices in the topology */
	for (int round = 0; round < 2; round++) {
		for (int c = 0; c < DEVICES_E_NCODES; c++)
			for (int pci = 0; pci < 2; pci++)
				for (int tt = 0; tt < 3; tt++)
					for (int fs = 0; fs < 3; fs++) {
						struct devices_error e = {
							.code =
							    (enum devices_err)c,
							.pci = pci,
							.first = fs - 1,
							.second = 2
						};
						struct topology *tp =
						    tt == 0 ? NULL : td;
						if (tp)
							tp->this_system =
							    tt == 2;
						BOTH(errors_devices("eth\n9",
								    tp, &e));
					}
		if (round == 0) {
			struct topo_dev nic = { .type = TOPO_DEV_PCI,
						.pci = TOPO_NONE },
					eth = { .type = TOPO_DEV_NETWORK,
						.pci = 0 };
			snprintf(nic.busid, sizeof(nic.busid), "0000:3b:00.0");
			tree_add_dev(td, &nic);
			snprintf(eth.name, sizeof(eth.name), "eth0");
			snprintf(eth.busid, sizeof(eth.busid), "0000:3b:00.0");
			tree_add_dev(td, &eth);
			eth.busid[0] = 0;
			tree_add_dev(td, &eth);
		}
	}
	/* memory */
	for (int c = 0; c < MEMORY_E_NCODES; c++)
		for (int tt = 0; tt < 3; tt++)
			for (unsigned a = 0; a < 8; a++) {
				struct memory_error e = {
					.code = (enum memory_err)c,
					.at = ats[a],
					.len = ats[a] ? strlen(ats[a]) : 0,
					.value = 7,
					.value2 = 3
				};
				struct topology *tp = tt == 0	? NULL
						      : tt == 1 ? td
								: t;
				BOTH(errors_memory("bind:7\n", tp, &e));
			}
	/* follow */
	for (int w = 0; w < FOLLOW_NCODES; w++)
		for (int bits = 0; bits < 16; bits++) {
			struct follow_start st = {
				.why = (enum follow_unavailable)w,
				.err = (bits & 1) ? 1 : 0,
				.tracer = 9
			};
			struct follow_facts ff = {
				.seccomp_mode = (bits & 2) ? 2 : 0,
				.yama_scope = (bits & 4)   ? 3
					      : (bits & 8) ? 1
							   : 0,
				.comm = (bits & 8) ? "gdb" : NULL
			};
			BOTH(errors_follow(&st, &ff));
		}
	printf("%lu compared, %lu differ, %lu where the old one had no words\n",
	       compared, differ, unworded);
	return differ != 0;
}
