/* SPDX-License-Identifier: BSD-3-Clause */
/* --share: which part of the machine this pinrun takes, as given (I/N) or
 * as the launcher that started it says (Slurm, Open MPI, MPICH's Hydra, GNU
 * parallel). */
#ifndef PINRUN_LAUNCHER_H
#define PINRUN_LAUNCHER_H

#include <stdbool.h>

#include "cpulist.h"
#include "topotree.h"

/* The largest number --share or a launcher variable may hold. */
#define LAUNCHER_MAX 4294967295UL

enum launcher_err {
	LAUNCHER_OK = 0,
	/* Parsing --share (a usage error). */
	LAUNCHER_E_SYNTAX,    /* not I/N, auto or auto/N */
	LAUNCHER_E_TOO_LARGE, /* a number over LAUNCHER_MAX: var "I" or "N" */
	/* Planning. */
	LAUNCHER_E_RANGE,     /* I/N with I not in 1..N: value, value2 */
	LAUNCHER_E_NONE,      /* auto: no launcher variable is set */
	LAUNCHER_E_NO_SLOT,   /* auto/N: PARALLEL_JOBSLOT is not set */
	LAUNCHER_E_BAD_VALUE, /* var's text is wrong: why says how */
	LAUNCHER_E_MISSING,   /* var is set, var2 (which it needs) is not */
	LAUNCHER_E_BEYOND,    /* var's number is not below number2 (var2) */
	LAUNCHER_E_NOMEM,
	LAUNCHER_E_TOO_MANY, /* I/N (number/number2) over the units */
	LAUNCHER_E_NCODES    /* how many: not a code */
};

/* Why a variable's text is wrong (LAUNCHER_E_BAD_VALUE). */
enum launcher_why {
	LAUNCHER_WHY_NUMBER,	 /* not a plain decimal number */
	LAUNCHER_WHY_TOO_LARGE,	 /* a number over LAUNCHER_MAX */
	LAUNCHER_WHY_ZERO,	 /* 0 where a count or a slot from 1 goes */
	LAUNCHER_WHY_FLAG,	 /* neither 0 nor 1 */
	LAUNCHER_WHY_TASKS,	 /* not a task count list: "2(x3),1" */
	LAUNCHER_WHY_BIND_TYPE,	 /* not a type Slurm sets */
	LAUNCHER_WHY_BIND_ENTRY, /* an entry that is no mask or number */
	LAUNCHER_WHY_NOT_HERE,	 /* names no CPU of the topology */
	LAUNCHER_WHY_NCODES	 /* how many: not a code */
};

struct launcher_error {
	enum launcher_err code;
	enum launcher_why why;
	const char *var, *value; /* the variable and its text */
	const char *var2, *value2;
	unsigned long number, number2; /* E_RANGE, E_BEYOND, E_TOO_MANY */
	unsigned long units;	       /* E_TOO_MANY */
};

/* The reason phrase of a code, without the values: "expected I/N (I from 1 to
 * N), auto or auto/N". What a user reads is composed by the command line
 * (errors.c), with the values. */
const char *launcher_strerror(enum launcher_err code);
/* What is wrong with a variable's text: "not a number". */
const char *launcher_why_strerror(enum launcher_why why);

enum launcher_mode {
	LAUNCHER_SHARE_GIVEN,  /* I/N */
	LAUNCHER_SHARE_AUTO,   /* auto: the launcher says */
	LAUNCHER_SHARE_AUTO_N, /* auto/N: GNU parallel's job slot */
};

struct launcher_spec {
	enum launcher_mode mode;
	unsigned long index; /* I, from 1 (LAUNCHER_SHARE_GIVEN) */
	unsigned long
	    count; /* N (LAUNCHER_SHARE_GIVEN, LAUNCHER_SHARE_AUTO_N) */
};

/* Read a --share value. Returns 0, or -1 with LAUNCHER_E_SYNTAX or
 * LAUNCHER_E_TOO_LARGE (var "I" or "N"). */
int launcher_parse(const char *text, struct launcher_spec *spec,
		   struct launcher_error *err);

enum launcher_kind {
	LAUNCHER_GIVEN,	     /* --share I/N */
	LAUNCHER_OPENMPI,    /* OMPI_COMM_WORLD_LOCAL_RANK */
	LAUNCHER_HYDRA,	     /* MPI_LOCALRANKID (MPICH, Intel MPI) */
	LAUNCHER_SLURM_STEP, /* a task of an srun step */
	LAUNCHER_SLURM_JOB,  /* a batch script or salloc shell */
	LAUNCHER_PARALLEL,   /* PARALLEL_JOBSLOT with auto/N */
	LAUNCHER_NKINDS	     /* how many: not a kind */
};

/* Who shares this process's mask, as the launcher bound its ranks. */
enum launcher_binding {
	LAUNCHER_BINDING_NONE,	/* not bound: every local rank has the mask */
	LAUNCHER_BINDING_ALONE, /* the only process: a batch script, salloc */
	LAUNCHER_BINDING_LIST,	/* Slurm's list of task masks: equal entries */
	LAUNCHER_BINDING_RANK,	/* Slurm's --cpu-bind=rank: a CPU each */
	LAUNCHER_BINDING_OBJECTS, /* ranks round-robin over the objects like
				     mask */
	LAUNCHER_BINDING_UNITS,	  /* ranks on the cores (PUs) in order, bound to
				   * the object that holds theirs */
	LAUNCHER_BINDING_OWN,	  /* a set of CPUs no object has: this rank's */
	LAUNCHER_BINDING_MOVED, /* an object, but not the one the launcher maps
				 * this rank to: moved after launch, its own */
};

/* A variable --share auto read, for --explain. */
struct launcher_var {
	const char *name, *value; /* value NULL: not set */
};

#define LAUNCHER_VARS 12

struct launcher_decision {
	enum launcher_kind kind;
	enum launcher_binding binding;
	unsigned long rank, ranks; /* local rank (from 0) and count */
	/* This process takes part index (from 0) of count of mask: count is
	 * how many local ranks share mask, index its place among them. */
	unsigned long index, count;
	struct cpuset mask;
	bool mask_from_list;   /* another machine: mask is the task's entry */
	bool wrapped;	       /* more sharers than units: a unit each, round */
	unsigned long units;   /* with wrapped: the units mask has */
	int object;	       /* OBJECTS, UNITS, MOVED: the object in objs */
	unsigned long objects; /* how many of its level hold CPUs */
	unsigned long entry;   /* LIST: this task's entry, from 0 */
	struct launcher_var vars[LAUNCHER_VARS];
	unsigned nvars;
};

/* Decide which part this process takes. envp is the environment to read
 * (environ); mask is the CPUs it may use (its affinity within t), or NULL
 * when t is another machine (every usable CPU, or a Slurm task's entry).
 * Returns 0, or -1 with err (err's strings point into envp or are static). */
int launcher_decide(const struct launcher_spec *spec, char *const *envp,
		    const struct topology *t, const struct cpuset *mask,
		    struct launcher_decision *d, struct launcher_error *err);

/* The part of allowed (d->mask narrowed further, by --kind) this process
 * takes: its units (cores, PUs when pus) in topology order cut into
 * d->count runs, run d->index. A launcher's ranks that outnumber the
 * units take one unit each, round the units (d->wrapped); for I/N that is
 * LAUNCHER_E_TOO_MANY. Returns 0 or -1 with err. */
int launcher_part(const struct topology *t, struct launcher_decision *d,
		  const struct cpuset *allowed, bool pus, struct cpuset *part,
		  struct launcher_error *err);

/* "Open MPI", "Slurm", ... */
const char *launcher_name(enum launcher_kind kind);

#endif
