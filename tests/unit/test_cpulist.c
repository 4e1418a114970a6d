/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for cpulist.c: sets, the taskset list syntax, hex masks. */
#include "check.h"

static int parse(const char *s, struct cpuset *set, enum cpulist_err *code)
{
	struct cpulist_error e;
	int r = cpulist_parse_list(s, set, &e);

	*code = e.code;
	return r;
}

static enum cpulist_err list_error(const char *s)
{
	struct cpuset set;
	enum cpulist_err code;

	return parse(s, &set, &code) < 0 ? code : CPULIST_OK;
}

static enum cpulist_err mask_error(const char *s)
{
	struct cpuset set;
	struct cpulist_error e;

	return cpulist_parse_mask(s, &set, &e) < 0 ? e.code : CPULIST_OK;
}

TEST(set_operations)
{
	struct cpuset a, b, c;

	cpulist_zero(&a);
	EXPECT(cpulist_empty(&a));
	EXPECT(cpulist_next(&a, -1) == -1);
	EXPECT(cpulist_last(&a) == -1);
	cpulist_add(&a, 0);
	cpulist_add(&a, 63);
	cpulist_add(&a, 64);
	cpulist_add(&a, CPULIST_MAX - 1);
	cpulist_add(&a, CPULIST_MAX); /* ignored: beyond the set */
	EXPECT(cpulist_count(&a) == 4);
	EXPECT(cpulist_next(&a, 0) == 63);
	EXPECT(cpulist_next(&a, 63) == 64);
	EXPECT(cpulist_next(&a, 64) == CPULIST_MAX - 1);
	EXPECT(cpulist_last(&a) == CPULIST_MAX - 1);
	EXPECT(!cpulist_has(&a, 1));
	cpulist_del(&a, 63);
	EXPECT(!cpulist_has(&a, 63));
	b = set_of("0-3");
	cpulist_and(&c, &a, &b);
	EXPECT_SET(&c, "0");
	cpulist_or(&c, &a, &b);
	EXPECT_SET(&c, "0-3,64,8191");
	cpulist_andnot(&c, &b, &a);
	EXPECT_SET(&c, "1-3");
	EXPECT(cpulist_subset(&c, &b));
	EXPECT(!cpulist_subset(&b, &c));
	EXPECT(cpulist_intersects(&a, &b));
	EXPECT(!cpulist_intersects(&a, &c));
	EXPECT(!cpulist_equal(&a, &b));
}

TEST(list_valid)
{
	struct cpuset s;
	enum cpulist_err code;

	EXPECT(parse("5", &s, &code) == 0);
	EXPECT_SET(&s, "5");
	EXPECT(parse("0-3,8", &s, &code) == 0);
	EXPECT_SET(&s, "0-3,8");
	EXPECT(parse("0-10:3", &s, &code) == 0);
	EXPECT_SET(&s, "0,3,6,9");
	EXPECT(parse("8,1,3-4", &s, &code) == 0);
	EXPECT_SET(&s, "1,3-4,8");
	EXPECT(parse("010", &s, &code) == 0); /* decimal, as taskset */
	EXPECT_SET(&s, "10");
	EXPECT(parse("2-2", &s, &code) == 0);
	EXPECT_SET(&s, "2");
	EXPECT(parse("8191", &s, &code) == 0);
	EXPECT_SET(&s, "8191");
	EXPECT(parse("0-3,2-5", &s, &code) == 0);
	EXPECT_SET(&s, "0-5");
}

TEST(list_errors)
{
	EXPECT(list_error("") == CPULIST_E_EMPTY);
	EXPECT(list_error("1,,2") == CPULIST_E_EMPTY_ITEM);
	EXPECT(list_error(",1") == CPULIST_E_EMPTY_ITEM);
	EXPECT(list_error("1,2,") == CPULIST_E_TRAILING_COMMA);
	EXPECT(list_error("1a") == CPULIST_E_BAD_CHAR);
	EXPECT(list_error("1 ,2") == CPULIST_E_BAD_CHAR);
	EXPECT(list_error("1-2-3") == CPULIST_E_BAD_CHAR);
	EXPECT(list_error("+1") == CPULIST_E_BAD_CHAR);
	EXPECT(list_error("-3") == CPULIST_E_NO_START);
	EXPECT(list_error("0-") == CPULIST_E_NO_END);
	EXPECT(list_error("0-:2") == CPULIST_E_NO_END);
	EXPECT(list_error("3-1") == CPULIST_E_REVERSED);
	EXPECT(list_error("0-7:") == CPULIST_E_NO_STRIDE);
	EXPECT(list_error("0-7:0") == CPULIST_E_ZERO_STRIDE);
	EXPECT(list_error("3:2") == CPULIST_E_STRIDE_NO_RANGE);
	EXPECT(list_error("8192") == CPULIST_E_TOO_LARGE);
	EXPECT(list_error("0-99999999999999999999") == CPULIST_E_TOO_LARGE);
}

TEST(list_too_large_value)
{
	struct cpuset set;
	struct cpulist_error e;
	const char *s = "0,8192-9000";

	/* The number as written, and where it starts. */
	EXPECT(cpulist_parse_list(s, &set, &e) < 0 &&
	       e.code == CPULIST_E_TOO_LARGE && e.value == 8192 &&
	       e.at == s + 2);
	EXPECT(cpulist_parse_list("8191", &set, &e) == 0);
	EXPECT_SET(&set, "8191");
}

TEST(list_error_details)
{
	struct cpuset s;
	struct cpulist_error e;

	EXPECT(cpulist_parse_list("0-3,7-5", &s, &e) < 0);
	EXPECT(e.value == 7 && e.value2 == 5);
	EXPECT(cpulist_parse_list("0,1x", &s, &e) < 0);
	EXPECT(*e.at == 'x');
}

TEST(mask_valid)
{
	struct cpuset s;
	struct cpulist_error e;

	EXPECT(cpulist_parse_mask("0x3", &s, &e) == 0);
	EXPECT_SET(&s, "0-1");
	EXPECT(cpulist_parse_mask("0xF0", &s, &e) == 0);
	EXPECT_SET(&s, "4-7");
	/* /proc's form: most significant 32-bit word first. */
	EXPECT(cpulist_parse_mask("0x00000001,00000003", &s, &e) == 0);
	EXPECT_SET(&s, "0-1,32");
	/* /proc's form without 0x. */
	EXPECT(cpulist_parse_mask("00000001,00000000", &s, &e) == 0);
	EXPECT_SET(&s, "32");
	EXPECT(cpulist_parse_mask("ff,00000000", &s, &e) == 0);
	EXPECT_SET(&s, "32-39");
	/* hwloc's form: 0x on every word. */
	EXPECT(cpulist_parse_mask("0x1,0x0,0x80000000", &s, &e) == 0);
	EXPECT_SET(&s, "31,64");
	/* taskset's bare masks. */
	EXPECT(cpulist_parse_mask("ff", &s, &e) == 0);
	EXPECT_SET(&s, "0-7");
	EXPECT(cpulist_parse_mask("1a", &s, &e) == 0);
	EXPECT_SET(&s, "1,3-4");
	EXPECT(cpulist_parse_mask("0X10", &s, &e) == 0);
	EXPECT_SET(&s, "4");
	/* One long word, as taskset takes it. */
	EXPECT(cpulist_parse_mask("0x10000000000", &s, &e) == 0);
	EXPECT_SET(&s, "40");
	/* Leading zero words beyond the limit are fine. */
	EXPECT(cpulist_parse_mask("0x0000000000000000000000000000000000001", &s,
				  &e) == 0);
	EXPECT_SET(&s, "0");
}

TEST(mask_errors)
{
	EXPECT(mask_error("0x") == CPULIST_E_MASK_NO_DIGITS);
	EXPECT(mask_error("0xfg") == CPULIST_E_MASK_BAD_DIGIT);
	EXPECT(mask_error("0x1,,2") == CPULIST_E_MASK_EMPTY_WORD);
	EXPECT(mask_error("0x1,") == CPULIST_E_MASK_EMPTY_WORD);
	EXPECT(mask_error("0x1,123456789") == CPULIST_E_MASK_LONG_WORD);
	EXPECT(mask_error("0x0") == CPULIST_E_MASK_ZERO);
	EXPECT(mask_error("0x00000000,00000000") == CPULIST_E_MASK_ZERO);
	/* Digits alone are no mask without 0x (as a list, "10" is CPU 10). */
	EXPECT(mask_error("10") == CPULIST_E_BAD_CHAR);
	EXPECT(mask_error("1a,2") == CPULIST_E_BAD_CHAR);
	/* Bit 8192 (2048 hex zeros after the 1), and bit 8191 for contrast. */
	{
		char big[2060] = "0x1";

		memset(big + 3, '0', 2048);
		big[2051] = '\0';
		EXPECT(mask_error(big) == CPULIST_E_MASK_TOO_LARGE);
		big[2050] = '\0';
		big[2] = '8';
		EXPECT(mask_error(big) == CPULIST_OK);
	}
}

TEST(syntax_kinds)
{
	EXPECT(cpulist_syntax("0-3") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax("") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax(",1") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax("0x3") == CPULIST_SYNTAX_MASK);
	EXPECT(cpulist_syntax("ff,00000000") == CPULIST_SYNTAX_MASK);
	EXPECT(cpulist_syntax("00000001,00000000") == CPULIST_SYNTAX_MASK);
	EXPECT(cpulist_syntax("1,00000000") == CPULIST_SYNTAX_MASK);
	EXPECT(cpulist_syntax("1,2") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax("1,0000000") == CPULIST_SYNTAX_LIST);
	/* hwloc takes 0X too. */
	EXPECT(cpulist_syntax("0X3") == CPULIST_SYNTAX_MASK);
	/* taskset's masks without 0x: a hex letter makes one; digits alone
	 * stay a list (CPU 10, not mask 0x10). */
	EXPECT(cpulist_syntax("ff") == CPULIST_SYNTAX_MASK);
	EXPECT(cpulist_syntax("1a") == CPULIST_SYNTAX_MASK);
	EXPECT(cpulist_syntax("F0") == CPULIST_SYNTAX_MASK);
	EXPECT(cpulist_syntax("10") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax("00000003") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax("1a,2") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax("1g") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax("-3") == CPULIST_SYNTAX_LIST);
	EXPECT(cpulist_syntax("package:1") == CPULIST_SYNTAX_LOCATION);
	EXPECT(cpulist_syntax("all") == CPULIST_SYNTAX_LOCATION);
	EXPECT(cpulist_syntax("~core:0") == CPULIST_SYNTAX_LOCATION);
	EXPECT(cpulist_syntax("face:0") == CPULIST_SYNTAX_LOCATION);
}

TEST(format)
{
	struct cpuset s = set_of("0-3,5,7-8,10-12");
	char small[6];

	EXPECT_SET(&s, "0-3,5,7-8,10-12");
	EXPECT(cpulist_format(&s, small, sizeof(small)) ==
	       strlen("0-3,5,7-8,10-12"));
	EXPECT(!strcmp(small, "0-3,5"));
	cpulist_zero(&s);
	EXPECT_SET(&s, "");
	cpulist_add(&s, CPULIST_MAX - 1);
	EXPECT_SET(&s, "8191");
}

TEST(format_round_trip)
{
	/* Every list the formatter writes parses back to the same set. */
	struct cpuset s, back;
	struct cpulist_error e;
	char text[8192];
	unsigned seed = 12345;

	for (int round = 0; round < 200; round++) {
		cpulist_zero(&s);
		for (int i = 0; i < 40; i++) {
			seed = seed * 1103515245 + 12345;
			cpulist_add(&s, (seed >> 8) % 300);
		}
		cpulist_format(&s, text, sizeof(text));
		EXPECT(cpulist_parse_list(text, &back, &e) == 0);
		EXPECT(cpulist_equal(&s, &back));
	}
}

int main(void)
{
	RUN(set_operations);
	RUN(list_valid);
	RUN(list_errors);
	RUN(list_too_large_value);
	RUN(list_error_details);
	RUN(mask_valid);
	RUN(mask_errors);
	RUN(syntax_kinds);
	RUN(format);
	RUN(format_round_trip);
	return DONE();
}
