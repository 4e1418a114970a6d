/* SPDX-License-Identifier: BSD-3-Clause */
/* The one reader of numbers in text: unsigned decimal or hex digits, in a
 * range the caller gives, with a code the caller words (with that range).
 * Every option, variable and /proc or /sys field pinrun reads as a number
 * goes through here, but for three readers that need what these do not:
 * /proc/stat's CPU lines and the kernel's release ("6.1.0"), several
 * numbers a line, read by sscanf (host.c); a synthetic description's
 * counts, read as hwloc reads them, strtoull in base 0 (octal, hex, a
 * sign; topology.c's size guard); and the topology cache's record of its
 * source file, sscanf (topology.c). Pure: no I/O. */
#ifndef PINRUN_NUM_H
#define PINRUN_NUM_H

#include <stddef.h>
#include <stdint.h>

/* For len: read up to the string's NUL. */
#define NUM_TO_NUL SIZE_MAX

enum num_err {
	NUM_OK = 0,
	NUM_E_SYNTAX, /* no digit first, or (used NULL) anything after them */
	NUM_E_RANGE,  /* digits, but a value outside min..max */
};

/* Read the unsigned decimal number at s: digits only, no sign, space or
 * base prefix, within s[0..len) and before any NUL. With used NULL the
 * digits must be all of it; else they are the number's start, and *used
 * is how many there are (all of them, also for NUM_E_RANGE). *out is the
 * value for NUM_OK and NUM_E_RANGE (ULONG_MAX when it is beyond that),
 * untouched for NUM_E_SYNTAX. */
enum num_err num_decimal(const char *s, size_t len, unsigned long min,
			 unsigned long max, unsigned long *out, size_t *used);
/* The same in hex digits (0-9, a-f, A-F; the caller takes off any 0x). */
enum num_err num_hex(const char *s, size_t len, unsigned long min,
		     unsigned long max, unsigned long *out, size_t *used);
/* Both into an unsigned long long, for what may be wider than a long
 * (capability sets, kB and microsecond counts on 32-bit machines);
 * ULLONG_MAX when beyond it. */
enum num_err num_decimal_ull(const char *s, size_t len, unsigned long long min,
			     unsigned long long max, unsigned long long *out,
			     size_t *used);
enum num_err num_hex_ull(const char *s, size_t len, unsigned long long min,
			 unsigned long long max, unsigned long long *out,
			 size_t *used);
/* The value of one hex digit, or -1. */
int num_hex_digit(char c);
/* How many hex digits s starts with. */
size_t num_hex_span(const char *s);

#endif
