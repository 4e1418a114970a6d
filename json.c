/*
 * json.c: a small JSON writer. It escapes strings (quotes, backslashes,
 * control characters) and places the commas, so that callers only say
 * what goes in which order. It writes nowhere itself.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"

static void __attribute__((format(printf, 2, 3)))
addf(struct json *j, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		buf_add(&j->out, tmp,
			(size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* Before a value: a comma if this level has had one. */
static void value(struct json *j)
{
	unsigned long bit = 1UL << (j->depth % (8 * sizeof(j->comma)));

	if (j->comma & bit)
		buf_add(&j->out, ",", 1);
	j->comma |= bit;
}

void json_reset(struct json *j)
{
	j->out.len = 0;
	j->out.failed = false;
	j->depth = 0;
	j->comma = 0;
	if (j->out.data)
		j->out.data[0] = '\0';
}

void json_free(struct json *j)
{
	buf_free(&j->out);
	memset(j, 0, sizeof(*j));
}

static void quoted(struct json *j, const char *s)
{
	buf_add(&j->out, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			buf_add(&j->out, "\\", 1);
			buf_add(&j->out, s, 1);
		} else if (c < 0x20) {
			addf(j, "\\u%04x", c);
		} else {
			buf_add(&j->out, s, 1);
		}
	}
	buf_add(&j->out, "\"", 1);
}

void json_key(struct json *j, const char *key)
{
	value(j);
	quoted(j, key);
	buf_add(&j->out, ":", 1);
	/* the value that follows takes no comma of its own */
	j->comma &= ~(1UL << (j->depth % (8 * sizeof(j->comma))));
}

void json_open(struct json *j, char bracket)
{
	value(j);
	buf_add(&j->out, &bracket, 1);
	j->depth++;
	j->comma &= ~(1UL << (j->depth % (8 * sizeof(j->comma))));
}

void json_close(struct json *j, char bracket)
{
	buf_add(&j->out, &bracket, 1);
	if (j->depth)
		j->depth--;
	j->comma |= 1UL << (j->depth % (8 * sizeof(j->comma)));
}

void json_string(struct json *j, const char *s)
{
	value(j);
	quoted(j, s);
}

void json_int(struct json *j, long long v)
{
	value(j);
	addf(j, "%lld", v);
}

void json_number(struct json *j, double v, int decimals)
{
	value(j);
	addf(j, "%.*f", decimals, v);
}

void json_null(struct json *j)
{
	value(j);
	buf_add(&j->out, "null", 4);
}

void json_bool(struct json *j, bool v)
{
	value(j);
	buf_add(&j->out, v ? "true" : "false", v ? 4 : 5);
}

const char *json_text(const struct json *j)
{
	return j->out.data && !j->out.failed ? j->out.data : "";
}

void json_version(struct json *j)
{
	json_key(j, "version");
	json_int(j, JSON_VERSION);
}
