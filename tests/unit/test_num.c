/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for num.c: the one number reader, its range and its codes. */
#include <limits.h>

#include "check.h"
#include "num.h"

/* s whole, in min..max: the code, and the value in *v. */
static enum num_err whole(const char *s, unsigned long min, unsigned long max,
			  unsigned long *v)
{
	*v = 12345;
	return num_decimal(s, NUM_TO_NUL, min, max, v, NULL);
}

TEST(decimal_whole)
{
	unsigned long v;

	EXPECT(whole("0", 0, 10, &v) == NUM_OK && v == 0);
	EXPECT(whole("10", 0, 10, &v) == NUM_OK && v == 10);
	EXPECT(whole("007", 0, 10, &v) == NUM_OK && v == 7);
	EXPECT(whole("4294967295", 0, ULONG_MAX, &v) == NUM_OK &&
	       v == 4294967295UL);
	/* No sign, space, base prefix or junk; nothing at all is no number,
	 * and *out is left alone. */
	EXPECT(whole("", 0, 10, &v) == NUM_E_SYNTAX && v == 12345);
	EXPECT(whole("-1", 0, 10, &v) == NUM_E_SYNTAX && v == 12345);
	EXPECT(whole("+1", 0, 10, &v) == NUM_E_SYNTAX);
	EXPECT(whole(" 1", 0, 10, &v) == NUM_E_SYNTAX);
	EXPECT(whole("1 ", 0, 10, &v) == NUM_E_SYNTAX);
	EXPECT(whole("0x1", 0, 10, &v) == NUM_E_SYNTAX);
	EXPECT(whole("1a", 0, 10, &v) == NUM_E_SYNTAX);
	/* Junk after digits too many is junk first: no number. */
	EXPECT(whole("99999999999999999999999x", 0, 10, &v) == NUM_E_SYNTAX);
}

TEST(decimal_range)
{
	unsigned long v;

	/* Out of range: the code, and the value for the caller's words. */
	EXPECT(whole("11", 0, 10, &v) == NUM_E_RANGE && v == 11);
	EXPECT(whole("0", 1, 10, &v) == NUM_E_RANGE && v == 0);
	EXPECT(whole("8192", 0, 8191, &v) == NUM_E_RANGE && v == 8192);
	EXPECT(whole("8191", 0, 8191, &v) == NUM_OK && v == 8191);
	/* Beyond unsigned long: ULONG_MAX, never a wrapped value. */
	EXPECT(whole("99999999999999999999999", 0, ULONG_MAX, &v) ==
		   NUM_E_RANGE &&
	       v == ULONG_MAX);
	EXPECT(whole("18446744073709551616", 0, ULONG_MAX, &v) == NUM_E_RANGE &&
	       v == ULONG_MAX);
	if (ULONG_MAX == 18446744073709551615UL)
		EXPECT(whole("18446744073709551615", 0, ULONG_MAX, &v) ==
			   NUM_OK &&
		       v == ULONG_MAX);
}

TEST(decimal_prefix)
{
	unsigned long v = 0;
	size_t used = 99;

	/* With used: the digits at the start, and how many. */
	EXPECT(num_decimal("12-3", NUM_TO_NUL, 0, 100, &v, &used) == NUM_OK &&
	       v == 12 && used == 2);
	EXPECT(num_decimal("123 kB", NUM_TO_NUL, 0, 100, &v, &used) ==
		   NUM_E_RANGE &&
	       v == 123 && used == 3);
	EXPECT(num_decimal("x1", NUM_TO_NUL, 0, 100, &v, &used) ==
		   NUM_E_SYNTAX &&
	       used == 0);
	/* len ends the text as a NUL does. */
	EXPECT(num_decimal("12345", 2, 0, 100, &v, &used) == NUM_OK &&
	       v == 12 && used == 2);
	EXPECT(num_decimal("12345", 2, 0, 100, &v, NULL) == NUM_OK && v == 12);
	EXPECT(num_decimal("12", 0, 0, 100, &v, NULL) == NUM_E_SYNTAX);
}

TEST(hex)
{
	unsigned long v = 0;
	size_t used;

	EXPECT(num_hex_digit('0') == 0 && num_hex_digit('9') == 9);
	EXPECT(num_hex_digit('a') == 10 && num_hex_digit('F') == 15);
	EXPECT(num_hex_digit('g') == -1 && num_hex_digit('x') == -1);
	EXPECT(num_hex_digit('\0') == -1 && num_hex_digit('/') == -1);
	EXPECT(num_hex("ff", NUM_TO_NUL, 0, 255, &v, NULL) == NUM_OK &&
	       v == 255);
	EXPECT(num_hex("1Fff", NUM_TO_NUL, 0, 8191, &v, NULL) == NUM_OK &&
	       v == 8191);
	EXPECT(num_hex("2000", NUM_TO_NUL, 0, 8191, &v, NULL) == NUM_E_RANGE &&
	       v == 8192);
	EXPECT(num_hex("0x1", NUM_TO_NUL, 0, 8191, &v, NULL) == NUM_E_SYNTAX);
	EXPECT(num_hex("3f:1", NUM_TO_NUL, 0, 255, &v, &used) == NUM_OK &&
	       v == 63 && used == 2);
	EXPECT(num_hex_span("09afAF,1") == 6 && num_hex_span("g1") == 0);
	EXPECT(num_hex_span("") == 0 && num_hex_span("0x1") == 1);
}

/* The unsigned long long readers: 64 bits on every machine (a capability
 * set), ULLONG_MAX beyond them. */
TEST(wide)
{
	unsigned long long v = 7;
	size_t used;

	EXPECT(num_hex_ull("000001ffffffffff", NUM_TO_NUL, 0, ULLONG_MAX, &v,
			   NULL) == NUM_OK &&
	       v == 0x1ffffffffffULL);
	EXPECT(num_hex_ull("ffffffffffffffff", NUM_TO_NUL, 0, ULLONG_MAX, &v,
			   NULL) == NUM_OK &&
	       v == ULLONG_MAX);
	EXPECT(num_hex_ull("10000000000000000", NUM_TO_NUL, 0, ULLONG_MAX, &v,
			   &used) == NUM_E_RANGE &&
	       v == ULLONG_MAX && used == 17);
	EXPECT(num_decimal_ull("18446744073709551615 kB", NUM_TO_NUL, 0,
			       ULLONG_MAX, &v, &used) == NUM_OK &&
	       v == ULLONG_MAX && used == 20);
	EXPECT(num_decimal_ull("50000 100000", NUM_TO_NUL, 1, LLONG_MAX, &v,
			       &used) == NUM_OK &&
	       v == 50000 && used == 5);
	EXPECT(num_decimal_ull("0", NUM_TO_NUL, 1, 10, &v, NULL) ==
		   NUM_E_RANGE &&
	       v == 0);
	v = 7;
	EXPECT(num_decimal_ull("max 100000", NUM_TO_NUL, 1, 10, &v, &used) ==
		   NUM_E_SYNTAX &&
	       v == 7 && used == 0);
}

int main(void)
{
	RUN(decimal_whole);
	RUN(decimal_range);
	RUN(decimal_prefix);
	RUN(hex);
	RUN(wide);
	return DONE();
}
