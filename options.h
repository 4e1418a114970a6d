/* SPDX-License-Identifier: BSD-3-Clause */
/* What the user asked for: the command line, read once into a struct that
 * nothing changes afterwards (what pinrun works out from it lives in
 * struct context). options.c also owns --help and --version. */
#ifndef PINRUN_OPTIONS_H
#define PINRUN_OPTIONS_H

#include <stdbool.h>
#include <sys/types.h>

#include "emit.h"
#include "launcher.h"
#include "mempolicy.h"
#include "policy.h"

struct options {
	/* The placement. */
	enum policy_kind policy;
	enum policy_which which;
	unsigned index;	 /* --same-*=N */
	unsigned spread; /* --spread=N; 0: every unit */
	enum policy_smt smt;
	char policy_text[64]; /* as typed: "--same-chip=1", "--cpus" */
	const char *spec;     /* --cpus SPEC, or --hot=SPEC */
	bool all;
	bool physical; /* --physical: location indexes are OS indexes */
	enum policy_core kind;
	const char *share;		 /* --share as given, or NULL */
	struct launcher_spec share_spec; /* --share read */
	bool mem_given;
	enum host_mempolicy mem;
	const char *mem_nodes;		/* --mem=MODE:NODES's NODES, or NULL */
	const char *near;		/* --near=DEV, or NULL */
	const struct emit_format *emit; /* --emit=FORMAT, or NULL */
	unsigned tell; /* --tell's families (enum tell_family); 0: none */
	/* What to do with it. --emit sets dry_run too: it runs nothing. */
	bool dry_run, explain, json, show, list;
	pid_t pid;  /* --pid, --tid, or --show's pid; 0: none */
	bool tid;   /* pid came from --tid: one thread, not all */
	bool quiet; /* no --pid/--tid feedback */
	const char *topology;
	bool no_cache; /* --no-cache, or PINRUN_NO_CACHE */
	bool follow, follow_strict, threads, wait_all;
	const char *report;
	char **command; /* NULL: none */
};

/* Read the command line (and PINRUN_NO_CACHE). A usage error, --help and
 * --version exit here; the options returned are final. */
const struct options *options_parse(int argc, char **argv);

#endif
