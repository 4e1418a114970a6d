/* SPDX-License-Identifier: BSD-3-Clause */
/* A JSON writer: one object or array at a time, into a buffer that grows,
 * with the commas and the escaping done here; and pinrun's values as JSON
 * (a CPU set, the topology's counts, a device), one way for every output.
 * For --json, --list --json, --show --json and --report's lines. */
#ifndef PINRUN_JSON_H
#define PINRUN_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "cpulist.h"
#include "topotree.h"

struct json {
	struct buf out; /* out.failed: out of memory, the text is incomplete */
	unsigned depth;
	unsigned long comma; /* bit d: depth d has had a value */
};

/* Start again from nothing, keeping the buffer. */
void json_reset(struct json *j);
void json_free(struct json *j);

/* A member's name, in an object: the value follows. */
void json_key(struct json *j, const char *key);
/* The version of pinrun's JSON outputs (--json of a plan, --list and
 * --show, --report's lines), the first key of each: within a version keys
 * are only added; one removed, renamed or of another type makes the next
 * version. */
#define JSON_VERSION 1
/* "version": JSON_VERSION, in an open object. */
void json_version(struct json *j);
void json_open(struct json *j, char bracket);  /* '{' or '[' */
void json_close(struct json *j, char bracket); /* '}' or ']' */
void json_string(struct json *j, const char *s);
void json_int(struct json *j, long long v);
void json_number(struct json *j, double v, int decimals);
void json_null(struct json *j);
void json_bool(struct json *j, bool v);

/* The text so far, NUL-terminated ("" when nothing fitted). */
const char *json_text(const struct json *j);

/* A set as its list text ("0-3,8"; "" when empty), a member under key in
 * an open object, or with key NULL a value. */
void json_cpuset(struct json *j, const char *key, const struct cpuset *set);
/* The topology's source and counts (source, packages, numa_nodes, l3,
 * cores, pus), members of an open object. */
void json_counts(struct json *j, const struct topology *t);
/* Device dev's members (name, type, subtype, pci, class, local_to, cpus,
 * numa), in an open object. */
void json_device(struct json *j, const struct topology *t, int dev);

#endif
