/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_topology.c: libFuzzer harness for what --topology takes, and for the
 * cache files that stand in for it. The first byte picks the source, by
 * its value modulo 4 (so the digits '1'..'4' name them in a seed file):
 *   1  the rest is a synthetic description (topo_load, synthetic)
 *   2  the rest is an XML file (topo_load, XML)
 *   3  the rest is a cache file, as is (topofile_decode under the key "k")
 *   0  the same with its checksum appended here, so that mutations reach
 *      the decoder rather than stop at the checksum
 * Whatever loads is planned with every policy (fuzz.h) and freed. hwloc is
 * opened at run time by topology.c; it is not instrumented.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "topofile.h"
#include "topology.h"

/* hwloc spends time cubic in the siblings of a level: keep each input
 * fast by skipping descriptions that could make more PUs than this, by
 * pinrun's own bound (which pinrun applies at 8192). */
#define MAX_SYNTHETIC_PUS 256

static void remove_scratch(void);

/* One scratch file per process, reused for every input: in /tmp, or in
 * $PINRUN_FUZZ_SCRATCH (scripts/fuzz points it at its run directory, as
 * libFuzzer's fork mode starts many processes). */
static const char *scratch(void)
{
	static char path[4096];

	if (!path[0]) {
		const char *dir = getenv("PINRUN_FUZZ_SCRATCH");

		snprintf(path, sizeof(path), "%s/fuzz_topology.%ld",
			 dir && *dir ? dir : "/tmp", (long)getpid());
		atexit(remove_scratch);
	}
	return path;
}

static void remove_scratch(void)
{
	unlink(scratch());
}

static void write_scratch(const uint8_t *data, size_t size)
{
	int fd =
	    open(scratch(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write(fd, data, size) == (ssize_t)size);
	FUZZ_CHECK(close(fd) == 0);
}

/* What any loader hands back: a tree that tree_finish indexed. */
static void check_loaded(struct topology *t, bool strict)
{
	FUZZ_CHECK(t && t->nobjs > 0 && t->objs[0].parent == TOPO_NONE);
	FUZZ_CHECK(t->npus <= CPULIST_MAX);
	FUZZ_CHECK(cpulist_count(&t->usable) == t->npus);
	FUZZ_CHECK(cpulist_subset(&t->usable, &t->complete));
	for (unsigned i = 0; i < t->nnuma; i++)
		FUZZ_CHECK(t->numa[i].attach >= 0 &&
			   (unsigned)t->numa[i].attach < t->nobjs);
	fuzz_check_policies(t, strict);
	tree_free(t);
}

static void load_source(enum topo_source_kind kind, const char *arg)
{
	struct topology *t = NULL;
	struct topo_error e;

	if (topo_load(kind, arg, true, &t, &e) < 0) {
		/* Every error is one errors.c words. */
		FUZZ_CHECK(!t && e.code > TOPO_OK && e.code < TOPO_E_NCODES);
		return;
	}
	check_loaded(t, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct topology *t = NULL;
	enum topofile_err r;
	uint64_t sum;
	uint8_t *copy;
	char *desc;

	if (size < 1)
		return 0;
	switch (data[0] % 4) {
	case 1:
		desc = fuzz_string(data + 1, size - 1);
		if (topo_synthetic_pus(desc) <= MAX_SYNTHETIC_PUS)
			load_source(TOPO_SRC_SYNTHETIC, desc);
		free(desc);
		break;
	case 2:
		/* hwloc 2.9's XML reader crashes on some files: scripts/fuzz
		 * runs in fork mode and checks that pinrun contains them. */
		write_scratch(data + 1, size - 1);
		load_source(TOPO_SRC_XML, scratch());
		break;
	case 3:
	case 0:
		copy = malloc(size - 1 + sizeof(sum));
		FUZZ_CHECK(copy != NULL);
		memcpy(copy, data + 1, size - 1);
		sum = topofile_checksum(data + 1, size - 1);
		memcpy(copy + size - 1, &sum, sizeof(sum));
		r = topofile_decode(
		    copy, size - 1 + (data[0] % 4 ? 0 : sizeof(sum)), "k", &t);
		free(copy);
		FUZZ_CHECK(r == TOPOFILE_OK || r == TOPOFILE_STALE ||
			   r == TOPOFILE_CORRUPT || r == TOPOFILE_NOMEM);
		FUZZ_CHECK((r == TOPOFILE_OK) == (t != NULL));
		if (t)
			check_loaded(t, false);
		break;
	}
	return 0;
}
