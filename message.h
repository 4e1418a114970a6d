/* SPDX-License-Identifier: BSD-3-Clause */
/* pinrun's one message format, "pinrun: what 'value': why" on stderr, and
 * its exits. Only the command-line side (options.c, context.c, act.c,
 * follower.c, output.c, list.c, pinrun.c) calls these: the modules
 * return codes and their phrases, and errors.c composes the messages. */
#ifndef PINRUN_MESSAGE_H
#define PINRUN_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cpulist.h"

/* A message, then exit 125. */
void msg_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
/* A usage error: the message, the --help hint, exit 125. */
void msg_usage(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
/* A message, and go on. */
void msg_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The one message for a --pid, --tid (tid true) or --show that names no
 * task, then exit 125. */
void msg_no_task(pid_t id, bool tid) __attribute__((noreturn));
/* The one message for a task whose affinity cannot be read (err: the
 * errno; ESRCH is msg_no_task's), then exit 125. */
void msg_affinity_unreadable(pid_t id, bool tid, int err)
    __attribute__((noreturn));

/* Called once, first thing in main: at every exit of pinrun's own (not
 * an exec, nor a forked child's exit or _exit), flush stdout and fail
 * with "write error" and 125 if what went there did not arrive (pinrun
 * --help >/dev/full); fail (125) without a word if stderr did. */
void msg_check_streams_at_exit(void);

/* How many results of msg_input (and, apart, of msg_cpus and msg_list) one
 * message may hold at once: each is in one of this many static buffers,
 * used in turn. The most a message of pinrun takes is 4 inputs (a
 * conflict of options) and 3 sets (--explain's cpuset line). */
#define MSG_SLOTS 8

/* Text to echo the user's input in a message: control characters escaped
 * (a newline cannot split the line) and a long value cut with an ellipsis.
 * In one of MSG_SLOTS static buffers. */
const char *msg_input(const char *s);
/* The same for the first len bytes of s. */
const char *msg_input_n(const char *s, size_t len);

/* A CPU set as list text, in one of MSG_SLOTS static buffers. msg_cpus
 * says "(none)" for an empty set; msg_list gives "" (for output, where
 * empty is a value). */
const char *msg_cpus(const struct cpuset *set);
const char *msg_list(const struct cpuset *set);

/* j's text on stdout, one line, and j freed; out of memory (the text is
 * incomplete): the message and exit 125. For every JSON output. */
struct json;
void msg_print_json(struct json *j);

#endif
