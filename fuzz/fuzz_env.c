/*
 * fuzz_env.c: libFuzzer harness for the environment pinrun reads. The
 * first byte, modulo 2, picks which:
 *   0  the rest is HWLOC_SYNTHETIC, and this machine's topology is loaded
 *      (topo_load of the live source, which hwloc then reads from it)
 *   1  the rest is an XML file named by HWLOC_XMLFILE, loaded the same way
 * Whatever loads is checked as fuzz_topology.c checks it; an error must be
 * one that errors.c words. pinrun itself loads these in a child process
 * (loader.c), so hwloc's own crashes are contained: scripts/fuzz replays
 * them through pinrun with the variable set.
 */
#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
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
		FUZZ_CHECK(!t && e.code > TOPO_OK &&
			   e.code <= TOPO_E_TOO_LARGE);
	} else {
		/* Not this machine's: the variable is named as the source. */
		FUZZ_CHECK(t && !t->this_system && !strcmp(t->source, var));
		FUZZ_CHECK(cpulist_count(&t->usable) == t->npus);
		fuzz_check_policies(t, true);
		tree_free(t);
	}
	unsetenv(var);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	int fd;

	if (size < 1)
		return 0;
	unsetenv("HWLOC_THISSYSTEM");
	text = fuzz_string(data + 1, size - 1);
	if (data[0] % 2 == 0) {
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
