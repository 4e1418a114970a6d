/*
 * json.c: a small JSON writer. It escapes strings (quotes, backslashes,
 * control characters) and places the commas, so that callers only say
 * what goes in which order. It writes nowhere itself.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static void add(struct json *j, const char *s, size_t n)
{
	if (j->failed)
		return;
	if (j->len + n + 1 > j->cap) {
		size_t cap = j->cap ? j->cap * 2 : 256;
		char *more;

		while (cap < j->len + n + 1)
			cap *= 2;
		if (!(more = realloc(j->buf, cap))) {
			j->failed = true;
			return;
		}
		j->buf = more;
		j->cap = cap;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

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
		add(j, tmp,
		    (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* Before a value: a comma if this level has had one. */
static void value(struct json *j)
{
	unsigned long bit = 1UL << (j->depth % (8 * sizeof(j->comma)));

	if (j->comma & bit)
		add(j, ",", 1);
	j->comma |= bit;
}

void json_reset(struct json *j)
{
	j->len = 0;
	j->failed = false;
	j->depth = 0;
	j->comma = 0;
	if (j->buf)
		j->buf[0] = '\0';
}

void json_free(struct json *j)
{
	free(j->buf);
	memset(j, 0, sizeof(*j));
}

static void quoted(struct json *j, const char *s)
{
	add(j, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			add(j, "\\", 1);
			add(j, s, 1);
		} else if (c < 0x20) {
			addf(j, "\\u%04x", c);
		} else {
			add(j, s, 1);
		}
	}
	add(j, "\"", 1);
}

void json_key(struct json *j, const char *key)
{
	value(j);
	quoted(j, key);
	add(j, ":", 1);
	/* the value that follows takes no comma of its own */
	j->comma &= ~(1UL << (j->depth % (8 * sizeof(j->comma))));
}

void json_open(struct json *j, char bracket)
{
	value(j);
	add(j, &bracket, 1);
	j->depth++;
	j->comma &= ~(1UL << (j->depth % (8 * sizeof(j->comma))));
}

void json_close(struct json *j, char bracket)
{
	add(j, &bracket, 1);
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
	add(j, "null", 4);
}

void json_bool(struct json *j, bool v)
{
	value(j);
	add(j, v ? "true" : "false", v ? 4 : 5);
}

const char *json_text(const struct json *j)
{
	return j->buf && !j->failed ? j->buf : "";
}
