/* --share: which part of the machine this pinrun takes, as given (I/N) or
 * as the launcher that started it says (Slurm, MPI, GNU parallel). */
#ifndef PINRUN_LAUNCHER_H
#define PINRUN_LAUNCHER_H

#include <stddef.h>

enum launcher_err {
	LAUNCHER_OK = 0,
	LAUNCHER_E_SYNTAX,	/* not I/N, auto or auto/N */
	LAUNCHER_E_NONE,	/* auto: no launcher variable is set */
	LAUNCHER_E_SLURM_COUNT, /* SLURM_LOCALID without a task count */
	LAUNCHER_E_RANGE,	/* I not in 1..N */
};

struct launcher_share {
	unsigned long index; /* from 1 */
	unsigned long count;
	char source[256]; /* the variables auto read, or "" */
};

/* Read a --share value. Local ranks count from 0, parts from 1 (so that
 * GNU parallel's {%} can be written as it is). Returns 0, or -1 with the
 * reason in err (index and count hold what was read). */
int launcher_share(const char *spec, struct launcher_share *share,
		   enum launcher_err *err);

#endif
