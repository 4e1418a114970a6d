/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_env.c: libFuzzer harness for the environment pinrun reads. The
 * first byte, modulo 3, picks which:
 *   0  the rest is HWLOC_SYNTHETIC, and this machine's topology is loaded
 *      (topo_load of the live source, which hwloc then reads from it)
 *   1  the rest is an XML file named by HWLOC_XMLFILE, loaded the same way
 *   2  the rest is a --share value, then NAME=VALUE lines: a launcher's
 *      variables (MASK=LIST is the rank's inherited mask), decided on a
 *      machine of 2 packages, 2 NUMA nodes, 2 L3s, 4 cores, 2 PUs each;
 *      a decision must give a part inside the mask, or an error
 * Whatever loads is checked as fuzz_topology.c checks it; an error must be
 * one that errors.c words. pinrun itself loads these in a child process
 * (loader.c), so hwloc's own crashes are contained: scripts/fuzz replays
 * them through pinrun with the variable set.
 */
#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "launcher.h"
#include "topology.h"

#define MAX_SYNTHETIC_PUS 256

static char scratch[4096];

static void remove_scratch(void)
{
	unlink(scratch);
}

static void load_live(const char *var, const char *value)
{
	struct topology *t = NULL;
	struct topo_error e;

	setenv(var, value, 1);
	if (topo_load(TOPO_SRC_LIVE, NULL, true, &t, &e) < 0) {
		FUZZ_CHECK(!t && e.code > TOPO_OK && e.code < TOPO_E_NCODES);
	} else {
		/* Not this machine's: the variable is named as the source. */
		FUZZ_CHECK(t && !t->this_system && !strcmp(t->source, var));
		FUZZ_CHECK(cpulist_count(&t->usable) == t->npus);
		fuzz_check_policies(t, true);
		tree_free(t);
	}
	unsetenv(var);
}

static struct topology *machine(void)
{
	static struct topology *t;
	unsigned cpu = 0;

	if (t)
		return t;
	t = tree_new("fuzz launcher");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);

	for (unsigned p = 0; p < 2; p++) {
		int pk = tree_add(t, TOPO_PACKAGE, m, -1, p);
		int l3 = tree_add(t, TOPO_L3, pk, -1, p);

		tree_add_numa(t, pk, p);
		for (unsigned c = 0; c < 4; c++) {
			int co = tree_add(t, TOPO_CORE, l3, -1, p * 4 + c);

			tree_add(t, TOPO_PU, co, -1, cpu);
			tree_add(t, TOPO_PU, co, -1, cpu + 8);
			cpu++;
		}
	}
	FUZZ_CHECK(tree_finish(t) == TOPO_OK);
	return t;
}

/* text: a --share value, then the environment, one NAME=VALUE a line. */
static void decide(char *text)
{
	const struct topology *t = machine();
	char *envp[64], *line, *save = NULL, *spec_text;
	struct launcher_decision d;
	struct launcher_error e;
	struct launcher_spec spec;
	struct cpuset mask = t->usable, part;
	struct cpulist_error ce;
	bool pus;
	unsigned n = 0;

	spec_text = strtok_r(text, "\n", &save);
	if (!spec_text || launcher_parse(spec_text, &spec, &e) < 0)
		return;
	while ((line = strtok_r(NULL, "\n", &save)) && n < 63) {
		if (!strncmp(line, "MASK=", 5)) {
			if (cpulist_parse_list(line + 5, &mask, &ce) < 0)
				mask = t->usable;
			continue;
		}
		envp[n++] = line;
	}
	envp[n] = NULL;
	cpulist_and(&mask, &mask, &t->usable);
	if (cpulist_empty(&mask))
		return;
	if (launcher_decide(&spec, envp, t, &mask, &d, &e) < 0) {
		FUZZ_CHECK(e.code > LAUNCHER_OK && e.code < LAUNCHER_E_NCODES);
		return;
	}
	FUZZ_CHECK(d.count >= 1 && d.index < d.count);
	FUZZ_CHECK(cpulist_subset(&d.mask, &mask));
	for (pus = false;; pus = true) {
		if (launcher_part(t, &d, &d.mask, pus, &part, &e) == 0)
			FUZZ_CHECK(!cpulist_empty(&part) &&
				   cpulist_subset(&part, &d.mask));
		else
			FUZZ_CHECK(e.code > LAUNCHER_OK &&
				   e.code < LAUNCHER_E_NCODES);
		if (pus)
			break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	int fd;

	if (size < 1)
		return 0;
	unsetenv("HWLOC_THISSYSTEM");
	text = fuzz_string(data + 1, size - 1);
	if (data[0] % 3 == 2) {
		decide(text);
	} else if (data[0] % 3 == 0) {
		/* An empty variable names nothing: hwloc reads the machine. */
		if (text[0] && topo_synthetic_pus(text) <= MAX_SYNTHETIC_PUS)
			load_live("HWLOC_SYNTHETIC", text);
	} else {
		if (!scratch[0]) {
			const char *dir = getenv("PINRUN_FUZZ_SCRATCH");

			snprintf(scratch, sizeof(scratch),
				 "%s/fuzz_env.%ld.xml",
				 dir && *dir ? dir : "/tmp", (long)getpid());
			atexit(remove_scratch);
		}
		fd = open(scratch, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0600);
		FUZZ_CHECK(fd >= 0);
		FUZZ_CHECK(write(fd, data + 1, size - 1) ==
			   (ssize_t)(size - 1));
		FUZZ_CHECK(close(fd) == 0);
		load_live("HWLOC_XMLFILE", scratch);
	}
	free(text);
	return 0;
}
