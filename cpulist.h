/* SPDX-License-Identifier: BSD-3-Clause */
/* CPU sets, and the taskset list and hex mask syntaxes that name them. */
#ifndef PINRUN_CPULIST_H
#define PINRUN_CPULIST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The largest CPU number pinrun handles, plus one (Linux's NR_CPUS maximum). */
#define CPULIST_MAX 8192

struct cpuset {
	unsigned long w[CPULIST_MAX / (sizeof(unsigned long) * CHAR_BIT)];
};

void cpulist_zero(struct cpuset *set);
void cpulist_add(struct cpuset *set, unsigned cpu);
void cpulist_del(struct cpuset *set, unsigned cpu);
bool cpulist_has(const struct cpuset *set, unsigned cpu);
unsigned cpulist_count(const struct cpuset *set);
bool cpulist_empty(const struct cpuset *set);
bool cpulist_equal(const struct cpuset *a, const struct cpuset *b);
bool cpulist_subset(const struct cpuset *sub, const struct cpuset *set);
bool cpulist_intersects(const struct cpuset *a, const struct cpuset *b);
/* dst = a & b, a | b, a & ~b; dst may be a or b. */
void cpulist_and(struct cpuset *dst, const struct cpuset *a,
		 const struct cpuset *b);
void cpulist_or(struct cpuset *dst, const struct cpuset *a,
		const struct cpuset *b);
void cpulist_andnot(struct cpuset *dst, const struct cpuset *a,
		    const struct cpuset *b);
/* The first CPU above prev (-1 to start), or -1 when there is none. */
int cpulist_next(const struct cpuset *set, int prev);
/* The highest CPU, or -1 for an empty set. */
int cpulist_last(const struct cpuset *set);

/* Why a list or mask did not parse; cpulist_strerror gives its phrase. */
enum cpulist_err {
	CPULIST_OK = 0,
	CPULIST_E_EMPTY,	   /* nothing at all */
	CPULIST_E_EMPTY_ITEM,	   /* "1,,2" or ",1" */
	CPULIST_E_TRAILING_COMMA,  /* "1,2," */
	CPULIST_E_BAD_CHAR,	   /* "1a", "1 2": at points to it */
	CPULIST_E_NO_START,	   /* "-3" */
	CPULIST_E_NO_END,	   /* "0-" */
	CPULIST_E_REVERSED,	   /* "3-1": value = start, value2 = end */
	CPULIST_E_NO_STRIDE,	   /* "0-7:" */
	CPULIST_E_ZERO_STRIDE,	   /* "0-7:0" */
	CPULIST_E_STRIDE_NO_RANGE, /* "3:2" */
	CPULIST_E_TOO_LARGE,	   /* a number >= CPULIST_MAX: value */
	CPULIST_E_MASK_NO_DIGITS,  /* "0x" */
	CPULIST_E_MASK_EMPTY_WORD, /* "0x1,,2" */
	CPULIST_E_MASK_LONG_WORD,  /* a comma-separated word over 8 digits */
	CPULIST_E_MASK_BAD_DIGIT,  /* "0xfg": at points to it */
	CPULIST_E_MASK_TOO_LARGE,  /* sets a bit >= CPULIST_MAX */
	CPULIST_E_MASK_ZERO,	   /* "0x0": no CPU at all */
	CPULIST_E_NCODES	   /* how many: not a code */
};

struct cpulist_error {
	enum cpulist_err code;
	const char *at; /* where in the input (every code sets it) */
	unsigned long value, value2;
};

/* The reason phrase of a code, without the values: "empty item". What a user
 * reads is composed by the command line (errors.c), with the values. */
const char *cpulist_strerror(enum cpulist_err code);

/* Which syntax a plain CPU spec is written in, judged from its text: a
 * mask when it starts with "0x" (or "0X"), is one word of hex digits with
 * a letter among them ("ff": no list has letters), or is /proc's
 * "ff,00000000" (words after the first of exactly 8 digits: no list has
 * such CPU numbers); a list when it starts with a digit (so "10" is CPU
 * 10, never mask 0x10), a comma or '-'; anything else is for location.c
 * (a location, or an expression of several). */
enum cpulist_syntax {
	CPULIST_SYNTAX_LIST,
	CPULIST_SYNTAX_MASK,
	CPULIST_SYNTAX_LOCATION,
};
enum cpulist_syntax cpulist_syntax(const char *spec);

/* Parse a taskset list ("0-3,8-11:2") into set. Returns 0 or -1 with err. */
int cpulist_parse_list(const char *s, struct cpuset *set,
		       struct cpulist_error *err);
/* Parse a hex mask ("0xff", "ff", "0x00000001,00000003", or as /proc
 * prints it, "ff,00000000"): 32-bit words separated by commas, most
 * significant first; "0x" on the first unless it is the only word and has
 * a hex letter, or every later word has 8 digits; allowed on the others.
 * Returns 0 or -1 with err. */
int cpulist_parse_mask(const char *s, struct cpuset *set,
		       struct cpulist_error *err);

/* Write set in list form ("0-3,8", ranges as the kernel prints them) into
 * buf; returns the length the full text needs, like snprintf. An empty set
 * is "". */
size_t cpulist_format(const struct cpuset *set, char *buf, size_t size);
/* The same in a new string the caller frees; NULL when out of memory. */
char *cpulist_str(const struct cpuset *set);

#endif
