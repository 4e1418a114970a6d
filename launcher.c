/*
 * launcher.c: --share's parts, given as I/N or read from the variables a
 * launcher exports to each process it starts on a node (Open MPI, MPICH
 * and Hydra, Slurm, GNU parallel). It reads the environment and nothing
 * else; pinrun.c words what went wrong.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher.h"

/* A plain decimal number: no sign, no junk. */
static bool number(const char *s, unsigned long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	*out = strtoul(s, &end, 10);
	return !*end && *out <= 0xffffffffUL;
}

static bool env_number(const char *name, unsigned long *out)
{
	return number(getenv(name), out);
}

/* Slurm's task count on this node: SLURM_NTASKS_PER_NODE, or this node's
 * entry of a list such as "2(x3),1" (SLURM_STEP_TASKS_PER_NODE, else
 * SLURM_TASKS_PER_NODE), picked by SLURM_NODEID. */
static bool slurm_local_count(unsigned long *count)
{
	const char *list = getenv("SLURM_STEP_TASKS_PER_NODE");
	unsigned long node, n, times, at = 0;
	char *end;

	if (env_number("SLURM_NTASKS_PER_NODE", count))
		return true;
	if (!list)
		list = getenv("SLURM_TASKS_PER_NODE");
	if (!list || !env_number("SLURM_NODEID", &node))
		return false;
	while (*list) {
		n = strtoul(list, &end, 10);
		if (end == list)
			return false;
		times = 1;
		if (!strncmp(end, "(x", 2)) {
			times = strtoul(end + 2, &end, 10);
			if (*end++ != ')')
				return false;
		}
		if (node < at + times) {
			*count = n;
			return true;
		}
		at += times;
		if (*end == ',')
			end++;
		else if (*end)
			return false;
		list = end;
	}
	return false;
}

/* auto: the most specific launcher first (mpirun under srun sets both). */
static int from_environment(struct launcher_share *sh, enum launcher_err *err)
{
	static const char *const pairs[][2] = {
		{ "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE" },
		{ "MPI_LOCALRANKID", "MPI_LOCALNRANKS" },
	};
	unsigned long rank, n = sh->count;

	for (size_t k = 0; k < 2; k++)
		if (env_number(pairs[k][0], &rank) &&
		    (n || env_number(pairs[k][1], &n))) {
			snprintf(
			    sh->source, sizeof(sh->source), "%s=%lu, %s=%s",
			    pairs[k][0], rank, pairs[k][1],
			    getenv(pairs[k][1]) ? getenv(pairs[k][1]) : "-");
			goto found;
		}
	if (env_number("SLURM_LOCALID", &rank)) {
		if (!n && !slurm_local_count(&n)) {
			*err = LAUNCHER_E_SLURM_COUNT;
			return -1;
		}
		snprintf(sh->source, sizeof(sh->source),
			 "SLURM_LOCALID=%lu, %lu tasks on this node", rank, n);
		goto found;
	}
	/* GNU parallel's job slot counts from 1, and only with auto/N. */
	if (n && env_number("PARALLEL_JOBSLOT", &rank) && rank > 0) {
		snprintf(sh->source, sizeof(sh->source), "PARALLEL_JOBSLOT=%lu",
			 rank);
		rank = (rank - 1) % n;
		goto found;
	}
	*err = LAUNCHER_E_NONE;
	return -1;
found:
	sh->index = rank + 1;
	sh->count = n;
	return 0;
}

int launcher_share(const char *spec, struct launcher_share *share,
		   enum launcher_err *err)
{
	const char *slash = strchr(spec, '/');
	char first[32];

	memset(share, 0, sizeof(*share));
	*err = LAUNCHER_OK;
	if (slash && !number(slash + 1, &share->count)) {
		*err = LAUNCHER_E_SYNTAX;
		return -1;
	}
	snprintf(first, sizeof(first), "%.*s",
		 (int)(slash ? (size_t)(slash - spec) : strlen(spec)), spec);
	if (!strcmp(first, "auto")) {
		if (from_environment(share, err) < 0)
			return -1;
	} else if (!slash || !number(first, &share->index)) {
		*err = LAUNCHER_E_SYNTAX;
		return -1;
	}
	if (!share->count || !share->index || share->index > share->count) {
		*err = LAUNCHER_E_RANGE;
		return -1;
	}
	return 0;
}
