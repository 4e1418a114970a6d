/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * message.c: how pinrun speaks on stderr and ends. One format for every
 * message, one place that escapes what the user typed before it is echoed,
 * and the check that stdout's text arrived. What a module's error code
 * means in words is errors.c's business, not this file's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "pinrun.h"

static void __attribute__((format(printf, 1, 0)))
vmessage(const char *fmt, va_list ap)
{
	fputs("pinrun: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void msg_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	exit(PINRUN_EXIT_FAILURE);
}

void msg_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	fputs("Try 'pinrun --help' for more information.\n", stderr);
	exit(PINRUN_EXIT_FAILURE);
}

void msg_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
}

int msg_close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
		msg_die("write error: %s", strerror(errno ? errno : EIO));
	return status;
}

/* The longest input echoed whole; a longer one keeps its head and ends in
 * "...". */
#define INPUT_MAX 200

const char *msg_input_n(const char *s, size_t len)
{
	static char bufs[4][INPUT_MAX * 4 + 8];
	static unsigned next;
	char *buf = bufs[next++ % 4], *p = buf;
	size_t i;

	for (i = 0; i < len && s[i] && p - buf < INPUT_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = (char)c;
	}
	if (i < len && s[i])
		p += sprintf(p, "...");
	*p = '\0';
	return buf;
}

const char *msg_input(const char *s)
{
	return msg_input_n(s, strlen(s));
}

const char *msg_list(const struct cpuset *set)
{
	static char bufs[3][CPULIST_MAX * 6];
	static unsigned next;
	char *buf = bufs[next++ % 3];

	cpulist_format(set, buf, sizeof(bufs[0]));
	return buf;
}

const char *msg_cpus(const struct cpuset *set)
{
	const char *text = msg_list(set);

	return text[0] ? text : "(none)";
}
