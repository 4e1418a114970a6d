/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * num.c: numbers in text, read once for every module (num.h). It returns
 * a code; what a number means, and the words for one out of range, are
 * the caller's. Pure: no I/O.
 */
#include <limits.h>
#include <stdbool.h>

#include "num.h"

int num_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t num_hex_span(const char *s)
{
	size_t n = 0;

	while (num_hex_digit(s[n]) >= 0)
		n++;
	return n;
}

static int digit(char c, unsigned base)
{
	if (base == 10)
		return c >= '0' && c <= '9' ? c - '0' : -1;
	return num_hex_digit(c);
}

static enum num_err number(const char *s, size_t len, unsigned base,
			   unsigned long long min, unsigned long long max,
			   unsigned long long *out, size_t *used)
{
	unsigned long long v = 0;
	bool beyond = false;
	size_t i;
	int d;

	for (i = 0; i < len && s[i] && (d = digit(s[i], base)) >= 0; i++) {
		if (v > (ULLONG_MAX - (unsigned)d) / base)
			beyond = true;
		else
			v = v * base + (unsigned)d;
	}
	if (used)
		*used = i;
	if (!i || (!used && i < len && s[i]))
		return NUM_E_SYNTAX;
	*out = beyond ? ULLONG_MAX : v;
	return beyond || v < min || v > max ? NUM_E_RANGE : NUM_OK;
}

/* number() into an unsigned long: max is one, so a value beyond it is
 * NUM_E_RANGE, and *out is then at most ULONG_MAX. */
static enum num_err number_ul(const char *s, size_t len, unsigned base,
			      unsigned long min, unsigned long max,
			      unsigned long *out, size_t *used)
{
	unsigned long long v;
	enum num_err e = number(s, len, base, min, max, &v, used);

	if (e != NUM_E_SYNTAX)
		*out = v > ULONG_MAX ? ULONG_MAX : (unsigned long)v;
	return e;
}

enum num_err num_decimal(const char *s, size_t len, unsigned long min,
			 unsigned long max, unsigned long *out, size_t *used)
{
	return number_ul(s, len, 10, min, max, out, used);
}

enum num_err num_hex(const char *s, size_t len, unsigned long min,
		     unsigned long max, unsigned long *out, size_t *used)
{
	return number_ul(s, len, 16, min, max, out, used);
}

enum num_err num_decimal_ull(const char *s, size_t len, unsigned long long min,
			     unsigned long long max, unsigned long long *out,
			     size_t *used)
{
	return number(s, len, 10, min, max, out, used);
}

enum num_err num_hex_ull(const char *s, size_t len, unsigned long long min,
			 unsigned long long max, unsigned long long *out,
			 size_t *used)
{
	return number(s, len, 16, min, max, out, used);
}
