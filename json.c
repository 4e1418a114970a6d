/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.c: a small JSON writer. It escapes strings (quotes, backslashes,
 * control characters) and places the commas, so that callers only say
 * what goes in which order. It writes nowhere itself. It also writes the
 * values that several outputs carry (output.c's, list.c's) the one way.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "devices.h"
#include "json.h"
#include "location.h"

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

/* The length of the valid UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_length(const unsigned char *s)
{
	size_t n;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* A string, quoted. A byte that is not part of valid UTF-8 (a file name
 * can be any bytes) is written \udcXX, as Python's surrogateescape does,
 * so that every line is valid JSON and os.fsencode() gives the bytes
 * back. */
static void quoted(struct json *j, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	buf_add(&j->out, "\"", 1);
	while (u && *u) {
		size_t n = utf8_length(u);

		if (*u == '"' || *u == '\\') {
			buf_add(&j->out, "\\", 1);
			buf_add(&j->out, (const char *)u, 1);
		} else if (*u < 0x20) {
			addf(j, "\\u%04x", *u);
		} else if (!n) {
			addf(j, "\\udc%02x", *u);
			n = 1;
		} else {
			buf_add(&j->out, (const char *)u, n);
		}
		u += n ? n : 1;
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

/* --- pinrun's values --------------------------------------------------- */

void json_cpuset(struct json *j, const char *key, const struct cpuset *set)
{
	char *text = cpulist_str(set);

	if (key)
		json_key(j, key);
	if (!text) {
		j->out.failed = true;
		return;
	}
	json_string(j, text);
	free(text);
}

void json_counts(struct json *j, const struct topology *t)
{
	json_key(j, "source");
	json_string(j, t->source);
	json_key(j, "packages");
	json_int(j, tree_count(t, TOPO_PACKAGE));
	json_key(j, "numa_nodes");
	json_int(j, t->nnuma);
	json_key(j, "l3");
	json_int(j, tree_count(t, TOPO_L3));
	json_key(j, "cores");
	json_int(j, tree_count(t, TOPO_CORE));
	json_key(j, "pus");
	json_int(j, t->npus);
}

void json_device(struct json *j, const struct topology *t, int dev)
{
	const struct topo_dev *d = &t->devs[dev];
	struct cpuset cpus, nodes;
	char where[64];

	devices_cpus(t, dev, &cpus);
	tree_local_numa(t, &cpus, &nodes);
	location_name(t, d->attach, where, sizeof(where));
	json_key(j, "name");
	json_string(j, d->name);
	json_key(j, "type");
	json_string(j, devices_type_name(d->type));
	json_key(j, "subtype");
	json_string(j, d->subtype);
	json_key(j, "pci");
	json_string(j, d->busid);
	if (d->type == TOPO_DEV_PCI) {
		json_key(j, "class");
		json_string(j, devices_class_name(d->pci_class));
	}
	json_key(j, "local_to");
	json_string(j, where);
	json_cpuset(j, "cpus", &cpus);
	json_cpuset(j, "numa", &nodes);
}
