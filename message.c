/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * message.c: how pinrun speaks on stderr and ends. One format for every
 * message, one place that escapes what the user typed before it is echoed,
 * and the check, at exit, that stdout's text arrived and stderr's did;
 * and every JSON output's line on stdout, which running out of memory
 * ends the one way. What a module's error code means in words is
 * errors.c's business, not this file's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "json.h"
#include "message.h"
#include "pinrun.h"

static const char prefix[] = "pinrun: ";
#define PREFIX_COLS (sizeof(prefix) - 1)

/* The width messages wrap at: 0 where stderr is no terminal (a pipe, a
 * file, a CI log: each message one line, for grep); on a terminal,
 * COLUMNS, else the terminal's own width, else 80, and never under 40. */
static size_t wrap_width(void)
{
	static size_t width = (size_t)-1;
	struct winsize ws;
	const char *env;
	unsigned long v;
	char *end;

	if (width != (size_t)-1)
		return width;
	width = 0;
	if (!isatty(STDERR_FILENO))
		return width;
	width = 80;
	env = getenv("COLUMNS");
	if (env && *env) {
		errno = 0;
		v = strtoul(env, &end, 10);
		if (!*end && !errno && v > 0 && v < 10000)
			width = v;
	} else if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 &&
		   ws.ws_col > 0) {
		width = ws.ws_col;
	}
	if (width < 40)
		width = 40;
	return width;
}

/* "pinrun: " and text (len bytes) into out (size bytes), wrapped at
 * width columns: at spaces, each further row indented under the text; a
 * word wider than a row stands alone on its own. Columns are counted in
 * UTF-8 characters. Returns the bytes written, 0 if out is too small. */
static size_t wrap(const char *text, size_t len, size_t width, char *out,
		   size_t size)
{
	size_t i = 0, o = PREFIX_COLS, col = PREFIX_COLS;
	bool first = true;

	if (size < PREFIX_COLS)
		return 0;
	memcpy(out, prefix, PREFIX_COLS);
	for (;;) {
		size_t w = i, cols = 0;

		while (w < len && text[w] != ' ') {
			cols += ((unsigned char)text[w] & 0xc0) != 0x80;
			w++;
		}
		if (!first && col + 1 + cols > width) {
			if (size - o < 1 + PREFIX_COLS)
				return 0;
			out[o++] = '\n';
			memset(out + o, ' ', PREFIX_COLS);
			o += PREFIX_COLS;
			col = PREFIX_COLS;
		} else if (!first) {
			if (size - o < 1)
				return 0;
			out[o++] = ' ';
			col++;
		}
		if (size - o < w - i)
			return 0;
		memcpy(out + o, text + i, w - i);
		o += w - i;
		col += cols;
		first = false;
		if (w >= len)
			return o;
		i = w + 1;
	}
}

/* The line "pinrun: MESSAGE\n" in one write, so that what another
 * process writes to the same stderr (the command, under --follow's
 * helper) cannot land inside it; a line too long for the buffer goes in
 * three. On a terminal, wrapped at its width (wrap_width). */
static void __attribute__((format(printf, 1, 0)))
vmessage(const char *fmt, va_list ap)
{
	static char wrapped[40960];
	char line[20480];
	size_t p = PREFIX_COLS, room = sizeof(line) - p - 1, width, w;
	va_list copy;
	int n;

	memcpy(line, prefix, p);
	va_copy(copy, ap);
	n = vsnprintf(line + p, room, fmt, copy);
	va_end(copy);
	if (n >= 0 && (size_t)n < room) {
		width = wrap_width();
		if (width && p + (size_t)n > width &&
		    (w = wrap(line + p, (size_t)n, width, wrapped,
			      sizeof(wrapped) - 1)) > 0) {
			wrapped[w] = '\n';
			fwrite(wrapped, 1, w + 1, stderr);
			return;
		}
		line[p + (size_t)n] = '\n';
		fwrite(line, 1, p + (size_t)n + 1, stderr);
		return;
	}
	fputs(prefix, stderr);
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

void msg_no_task(pid_t id, bool tid)
{
	msg_die("no %s %d", tid ? "thread with tid" : "process with pid",
		(int)id);
}

void msg_affinity_unreadable(pid_t id, bool tid, int err)
{
	if (err == ESRCH)
		msg_no_task(id, tid);
	msg_die("cannot read the affinity of %s %d: %s", tid ? "tid" : "pid",
		(int)id, strerror(err));
}

/* The process whose streams these are: a forked child that calls exit
 * (the tracer's helper, the command's child under --wait-all) holds a
 * copy of pinrun's buffers, not its output. */
static pid_t streams_owner;

/* util-linux's flush_standard_stream (include/closestream.h): flush, then
 * close a duplicate of the descriptor, so that an error the kernel keeps
 * for the close (NFS) shows while the descriptor itself stays open for
 * what writes after the handlers (a sanitizer's report). 0, or EOF with
 * errno saying why (0 when only an earlier write knows). A stream closed
 * from the start (>&-) with nothing to write is no error. */
static int flush_stream(FILE *f)
{
	bool pending = __fpending(f) != 0, failed = ferror(f) != 0;
	int fd;

	errno = 0;
	/* Flushed even after a failure: errno comes from a fresh write. */
	if (fflush(f) != 0 || failed)
		goto error;
	if ((fd = fileno(f)) < 0 || (fd = dup(fd)) < 0 || close(fd) != 0)
		goto error;
	return 0;
error:
	return errno == EBADF && !pending && !failed ? 0 : EOF;
}

/* atexit's: what went to stdout must have arrived, or pinrun fails
 * (125) with one line, whatever it was about to exit with; a reader that
 * went away (EPIPE, with SIGPIPE ignored) is no failure, as in util-linux;
 * a stderr that failed fails pinrun silently. */
static void close_streams(void)
{
	if (getpid() != streams_owner)
		return;
	if (flush_stream(stdout) != 0 && errno != EPIPE) {
		if (errno)
			msg_note("write error: %s", strerror(errno));
		else
			msg_note("write error");
		_exit(PINRUN_EXIT_FAILURE);
	}
	if (flush_stream(stderr) != 0)
		_exit(PINRUN_EXIT_FAILURE);
}

void msg_check_streams_at_exit(void)
{
	streams_owner = getpid();
	atexit(close_streams);
}

/* The longest input echoed whole; a longer one keeps its head and ends in
 * "...". */
#define INPUT_MAX 200

/* The length of the well-formed UTF-8 sequence at s (at most max bytes),
 * its code point in *cp; 0 when the bytes there are not one. */
static size_t utf8_sequence(const unsigned char *s, size_t max, unsigned *cp)
{
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	unsigned v;

	if (!n || s[0] >= 0xf5 || n > max)
		return 0;
	v = s[0] & (0x7fu >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are no characters. */
	if ((n == 2 && v < 0x80) || (n == 3 && v < 0x800) ||
	    (n == 4 && (v < 0x10000 || v > 0x10ffff)) ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

const char *msg_input_n(const char *s, size_t len)
{
	static char bufs[MSG_SLOTS][INPUT_MAX * 10 + 8];
	static unsigned next;
	char *buf = bufs[next++ % MSG_SLOTS], *p = buf;
	size_t i, n, end = strnlen(s, len);

	/* Whatever is not printable ASCII is escaped, and always whole: a
	 * character as \u2013 (\U0001f600 beyond 16 bits), a byte that is
	 * not part of one as \xc3, so that no message carries half a
	 * character or a byte a terminal would misread. */
	for (i = 0; i < end && p - buf < INPUT_MAX; i += n) {
		unsigned char c = (unsigned char)s[i];
		unsigned cp;

		n = c >= 0x80 ? utf8_sequence((const unsigned char *)s + i,
					      end - i, &cp)
			      : 0;
		if (n && cp > 0xffff)
			p += sprintf(p, "\\U%08x", cp);
		else if (n)
			p += sprintf(p, "\\u%04x", cp);
		else if ((n = 1) && (c < 0x20 || c >= 0x7f))
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = (char)c;
	}
	if (i < end)
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
	static char bufs[MSG_SLOTS][CPULIST_MAX * 6];
	static unsigned next;
	char *buf = bufs[next++ % MSG_SLOTS];

	cpulist_format(set, buf, sizeof(bufs[0]));
	return buf;
}

const char *msg_cpus(const struct cpuset *set)
{
	const char *text = msg_list(set);

	return text[0] ? text : "(none)";
}

void msg_print_json(struct json *j)
{
	if (j->out.failed)
		msg_die("out of memory");
	printf("%s\n", json_text(j));
	json_free(j);
}
