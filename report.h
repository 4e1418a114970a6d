/* SPDX-License-Identifier: BSD-3-Clause */
/* --report FILE: one JSON line per followed process, written when it ends
 * (or is let go). A line is written whole or not at all; a write that
 * fails (EIO, ENOSPC, EFBIG) leaves its errno in err, and the lines after
 * it are still tried. */
#ifndef PINRUN_REPORT_H
#define PINRUN_REPORT_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "cpulist.h"
#include "json.h"
#include "tidmap.h"

struct report {
	int fd;		     /* -1: no report */
	int err;	     /* the first write that failed: its errno, or 0 */
	struct tidmap procs; /* pid -> struct report_proc */
	struct json line;    /* the line being written */
};

/* Open the report file for writing (created, or truncated): never on
 * descriptors 0-2, and without waiting for a reader when it is a FIFO
 * (-ENXIO when none reads it). A symbolic link that another user owns in
 * a shared sticky directory (/tmp) is not followed, as the kernel's
 * fs.protected_symlinks has it: -EACCES, and *link_owner is its owner's
 * uid (-1 otherwise). Returns the descriptor or a negative errno. */
int report_open(const char *path, long long *link_owner);
void report_init(struct report *r, int fd);
void report_free(struct report *r);
/* A process started (cpus: the text of the slot it was given). */
void report_start(struct report *r, pid_t pid, pid_t ppid, const char *cpus);
/* The kernel refused its slot: its line says "cpus":null. */
void report_unplaced(struct report *r, pid_t pid);
/* It exec'd program, with the CPUs ran (NULL: unknown): where it runs,
 * which differs from the slot it was given where it re-pinned itself
 * first, as taskset and numactl do. */
void report_exec(struct report *r, pid_t pid, const char *program,
		 const struct cpuset *ran);
/* A thread of process pid exec'd and took over its pid: the new program
 * runs where that thread ran (cpus: its slot's text; NULL: it was on no
 * slot, and the line keeps the process's). */
void report_moved(struct report *r, pid_t pid, const char *cpus);
/* It ended with a wait status: write its line. */
void report_end(struct report *r, pid_t pid, int status,
		const struct rusage *ru);
/* It was let go while running: write its line, marked detached. */
void report_detached(struct report *r, pid_t pid);

#endif
