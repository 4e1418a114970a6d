/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpulist.c: fixed-size CPU sets, and the two numeric CPU syntaxes users
 * already know: taskset's decimal list and the kernel's hex mask. Pure: no
 * I/O, no topology. Whether a CPU exists or is allowed is policy.c's business,
 * and hwloc-style locations ("package:1") are location.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "num.h"

#define WORD_BITS (sizeof(unsigned long) * CHAR_BIT)
#define NWORDS	  (CPULIST_MAX / WORD_BITS)

void cpulist_zero(struct cpuset *set)
{
	memset(set, 0, sizeof(*set));
}

void cpulist_add(struct cpuset *set, unsigned cpu)
{
	if (cpu < CPULIST_MAX)
		set->w[cpu / WORD_BITS] |= 1UL << (cpu % WORD_BITS);
}

void cpulist_del(struct cpuset *set, unsigned cpu)
{
	if (cpu < CPULIST_MAX)
		set->w[cpu / WORD_BITS] &= ~(1UL << (cpu % WORD_BITS));
}

bool cpulist_has(const struct cpuset *set, unsigned cpu)
{
	return cpu < CPULIST_MAX &&
	       (set->w[cpu / WORD_BITS] >> (cpu % WORD_BITS)) & 1;
}

unsigned cpulist_count(const struct cpuset *set)
{
	unsigned n = 0;

	for (size_t i = 0; i < NWORDS; i++)
		n += (unsigned)__builtin_popcountl(set->w[i]);
	return n;
}

bool cpulist_empty(const struct cpuset *set)
{
	for (size_t i = 0; i < NWORDS; i++)
		if (set->w[i])
			return false;
	return true;
}

bool cpulist_equal(const struct cpuset *a, const struct cpuset *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

bool cpulist_subset(const struct cpuset *sub, const struct cpuset *set)
{
	for (size_t i = 0; i < NWORDS; i++)
		if (sub->w[i] & ~set->w[i])
			return false;
	return true;
}

bool cpulist_intersects(const struct cpuset *a, const struct cpuset *b)
{
	for (size_t i = 0; i < NWORDS; i++)
		if (a->w[i] & b->w[i])
			return true;
	return false;
}

void cpulist_and(struct cpuset *dst, const struct cpuset *a,
		 const struct cpuset *b)
{
	for (size_t i = 0; i < NWORDS; i++)
		dst->w[i] = a->w[i] & b->w[i];
}

void cpulist_or(struct cpuset *dst, const struct cpuset *a,
		const struct cpuset *b)
{
	for (size_t i = 0; i < NWORDS; i++)
		dst->w[i] = a->w[i] | b->w[i];
}

void cpulist_andnot(struct cpuset *dst, const struct cpuset *a,
		    const struct cpuset *b)
{
	for (size_t i = 0; i < NWORDS; i++)
		dst->w[i] = a->w[i] & ~b->w[i];
}

int cpulist_next(const struct cpuset *set, int prev)
{
	unsigned cpu = (unsigned)(prev + 1);

	while (cpu < CPULIST_MAX) {
		unsigned long w = set->w[cpu / WORD_BITS] >> (cpu % WORD_BITS);

		if (w)
			return (int)(cpu + (unsigned)__builtin_ctzl(w));
		cpu = (cpu / WORD_BITS + 1) * WORD_BITS;
	}
	return -1;
}

int cpulist_last(const struct cpuset *set)
{
	for (size_t i = NWORDS; i-- > 0;)
		if (set->w[i])
			return (int)(i * WORD_BITS + WORD_BITS - 1 -
				     (unsigned)__builtin_clzl(set->w[i]));
	return -1;
}

/* A mask as /proc prints it, without 0x: two or more comma-separated
 * words, every one after the first exactly 8 hex digits. (As a list it
 * would name CPUs of eight digits, which no machine has.) */
static bool proc_mask(const char *s)
{
	size_t n = num_hex_span(s);
	unsigned words = 1;

	if (n < 1 || n > 8)
		return false;
	for (s += n; *s == ','; s += 9, words++)
		if (num_hex_span(s + 1) != 8)
			return false;
	return !*s && words > 1;
}

/* One word of hex digits with at least one letter among them ("ff",
 * "3f"): a mask, as taskset reads it, since no list holds a letter. A
 * word of decimal digits alone stays a list. */
static bool bare_hex(const char *s)
{
	size_t n = num_hex_span(s), i = 0;

	while (i < n && num_hex_digit(s[i]) < 10)
		i++;
	return n && !s[n] && i < n;
}

static bool hex_prefix(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

enum cpulist_syntax cpulist_syntax(const char *spec)
{
	if (hex_prefix(spec) || proc_mask(spec) || bare_hex(spec))
		return CPULIST_SYNTAX_MASK;
	if (*spec && !isdigit((unsigned char)spec[0]) && spec[0] != ',' &&
	    spec[0] != '-')
		return CPULIST_SYNTAX_LOCATION;
	return CPULIST_SYNTAX_LIST;
}

static int fail(struct cpulist_error *err, enum cpulist_err code,
		const char *at, unsigned long value, unsigned long value2)
{
	err->code = code;
	err->at = at;
	err->value = value;
	err->value2 = value2;
	return -1;
}

/* Read a decimal number at *p; 0 when there is no digit there. */
static int number(const char **p, unsigned long *out, struct cpulist_error *err)
{
	size_t n;

	switch (num_decimal(*p, NUM_TO_NUL, 0, CPULIST_MAX - 1, out, &n)) {
	case NUM_E_SYNTAX:
		return 0;
	case NUM_E_RANGE:
		return fail(err, CPULIST_E_TOO_LARGE, *p, *out, 0);
	case NUM_OK:
		break;
	}
	*p += n;
	return 1;
}

/* One item of a list: N, N-M or N-M:S, ending at ',' or the end. */
static int list_item(const char **p, struct cpuset *set,
		     struct cpulist_error *err)
{
	unsigned long first, last, stride = 1;
	const char *s = *p;
	int r;

	if (*s == ',')
		return fail(err, CPULIST_E_EMPTY_ITEM, s, 0, 0);
	if (*s == '-')
		return fail(err, CPULIST_E_NO_START, s, 0, 0);
	if ((r = number(&s, &first, err)) <= 0)
		return r < 0 ? r : fail(err, CPULIST_E_BAD_CHAR, s, 0, 0);
	last = first;
	if (*s == '-') {
		s++;
		if (*s == '\0' || *s == ',' || *s == ':')
			return fail(err, CPULIST_E_NO_END, s, 0, 0);
		if ((r = number(&s, &last, err)) <= 0)
			return r < 0 ? r
				     : fail(err, CPULIST_E_BAD_CHAR, s, 0, 0);
		if (last < first)
			return fail(err, CPULIST_E_REVERSED, s, first, last);
		if (*s == ':') {
			s++;
			if (*s == '\0' || *s == ',')
				return fail(err, CPULIST_E_NO_STRIDE, s, 0, 0);
			if ((r = number(&s, &stride, err)) <= 0)
				return r < 0 ? r
					     : fail(err, CPULIST_E_BAD_CHAR, s,
						    0, 0);
			if (stride == 0)
				return fail(err, CPULIST_E_ZERO_STRIDE, s, 0,
					    0);
		}
	} else if (*s == ':') {
		return fail(err, CPULIST_E_STRIDE_NO_RANGE, s, 0, 0);
	}
	if (*s != '\0' && *s != ',')
		return fail(err, CPULIST_E_BAD_CHAR, s, 0, 0);
	for (unsigned long cpu = first; cpu <= last; cpu += stride)
		cpulist_add(set, (unsigned)cpu);
	*p = s;
	return 0;
}

int cpulist_parse_list(const char *s, struct cpuset *set,
		       struct cpulist_error *err)
{
	cpulist_zero(set);
	if (*s == '\0')
		return fail(err, CPULIST_E_EMPTY, s, 0, 0);
	for (;;) {
		if (list_item(&s, set, err) < 0)
			return -1;
		if (*s == '\0')
			break;
		s++; /* the comma */
		if (*s == '\0')
			return fail(err, CPULIST_E_TRAILING_COMMA, s, 0, 0);
	}
	err->code = CPULIST_OK;
	return 0;
}

int cpulist_parse_mask(const char *s, struct cpuset *set,
		       struct cpulist_error *err)
{
	const char *words[CPULIST_MAX / 32 + 1];
	size_t lens[CPULIST_MAX / 32 + 1];
	size_t nwords = 0;
	const char *p = s;

	cpulist_zero(set);
	/* Split into words first: the last word holds CPUs 0-31. */
	for (;;) {
		const char *w = p;

		if (hex_prefix(p))
			w = p += 2;
		else if (nwords == 0 && !proc_mask(s) && !bare_hex(s))
			return fail(err, CPULIST_E_BAD_CHAR, p, 0, 0);
		while (*p && *p != ',') {
			if (num_hex_digit(*p) < 0)
				return fail(err, CPULIST_E_MASK_BAD_DIGIT, p, 0,
					    0);
			p++;
		}
		if (p == w)
			return fail(err,
				    *p == ',' || nwords
					? CPULIST_E_MASK_EMPTY_WORD
					: CPULIST_E_MASK_NO_DIGITS,
				    p, 0, 0);
		if (nwords == sizeof(words) / sizeof(words[0]))
			return fail(err, CPULIST_E_MASK_TOO_LARGE, p,
				    CPULIST_MAX, 0);
		words[nwords] = w;
		lens[nwords++] = (size_t)(p - w);
		if (*p == '\0')
			break;
		p++;
		if (*p == '\0')
			return fail(err, CPULIST_E_MASK_EMPTY_WORD, p, 0, 0);
	}
	if (nwords > 1)
		for (size_t i = 0; i < nwords; i++)
			if (lens[i] > 8)
				return fail(err, CPULIST_E_MASK_LONG_WORD,
					    words[i], 0, 0);
	for (size_t i = 0; i < nwords; i++) {
		unsigned long base = 32 * (unsigned long)(nwords - 1 - i);

		for (size_t d = 0; d < lens[i]; d++) {
			unsigned long v =
			    (unsigned long)num_hex_digit(words[i][d]);
			unsigned long bit = base + 4 * (lens[i] - 1 - d);

			for (unsigned b = 0; b < 4; b++) {
				if (!(v & (1UL << b)))
					continue;
				if (bit + b >= CPULIST_MAX)
					return fail(err,
						    CPULIST_E_MASK_TOO_LARGE,
						    words[i], bit + b, 0);
				cpulist_add(set, (unsigned)(bit + b));
			}
		}
	}
	if (cpulist_empty(set))
		return fail(err, CPULIST_E_MASK_ZERO, s, 0, 0);
	err->code = CPULIST_OK;
	return 0;
}

size_t cpulist_format(const struct cpuset *set, char *buf, size_t size)
{
	size_t len = 0;
	int cpu = cpulist_next(set, -1);

	if (size)
		buf[0] = '\0';
	while (cpu >= 0) {
		int end = cpu;
		char item[32];
		int n;

		while (cpulist_has(set, (unsigned)end + 1))
			end++;
		if (end > cpu)
			n = snprintf(item, sizeof(item), "%s%d-%d",
				     len ? "," : "", cpu, end);
		else
			n = snprintf(item, sizeof(item), "%s%d", len ? "," : "",
				     cpu);
		if (len + (size_t)n < size)
			memcpy(buf + len, item, (size_t)n + 1);
		len += (size_t)n;
		cpu = cpulist_next(set, end);
	}
	return len;
}

char *cpulist_str(const struct cpuset *set)
{
	size_t len = cpulist_format(set, NULL, 0);
	char *s = malloc(len + 1);

	if (s)
		cpulist_format(set, s, len + 1);
	return s;
}

const char *cpulist_strerror(enum cpulist_err code)
{
	switch (code) {
	case CPULIST_OK:
		return "no error";
	case CPULIST_E_EMPTY:
		return "empty";
	case CPULIST_E_EMPTY_ITEM:
		return "empty item";
	case CPULIST_E_TRAILING_COMMA:
		return "trailing comma";
	case CPULIST_E_BAD_CHAR:
		return "unexpected character";
	case CPULIST_E_NO_START:
		return "missing start of range";
	case CPULIST_E_NO_END:
		return "missing end of range";
	case CPULIST_E_REVERSED:
		return "reversed range";
	case CPULIST_E_NO_STRIDE:
		return "missing stride after ':'";
	case CPULIST_E_ZERO_STRIDE:
		return "stride 0";
	case CPULIST_E_STRIDE_NO_RANGE:
		return "a stride needs a range (N-M:S)";
	case CPULIST_E_TOO_LARGE:
		return "CPU number too large";
	case CPULIST_E_MASK_NO_DIGITS:
		return "no hex digits after 0x";
	case CPULIST_E_MASK_EMPTY_WORD:
		return "empty 32-bit word";
	case CPULIST_E_MASK_LONG_WORD:
		return "a comma-separated word has more than 8 digits";
	case CPULIST_E_MASK_BAD_DIGIT:
		return "not a hex digit";
	case CPULIST_E_MASK_TOO_LARGE:
		return "it sets CPUs beyond the limit";
	case CPULIST_E_MASK_ZERO:
		return "no CPU set";
	case CPULIST_E_NCODES: /* a count, not a code */
		break;
	}
	return "unknown error";
}
