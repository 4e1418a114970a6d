/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * suggest.c: the closest word to a mistyped one, by edit distance
 * (Damerau's "optimal string alignment": a swap of two neighbours is one
 * edit, as in "idel" for "idle"). Pure. Which words are candidates, and how
 * far is still a near miss, is for the callers to say.
 */
#include <ctype.h>
#include <string.h>

#include "suggest.h"

/* Longer words are never near misses of pinrun's short ones. */
#define LONGEST 64

static int same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

/* The edit distance between a[0..alen) and b. */
static unsigned suggest_distance(const char *a, size_t alen, const char *b)
{
	static unsigned d[LONGEST + 1][LONGEST + 1];
	size_t blen = strlen(b);

	if (alen > LONGEST || blen > LONGEST)
		return LONGEST;
	for (size_t i = 0; i <= alen; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= blen; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= alen; i++)
		for (size_t j = 1; j <= blen; j++) {
			unsigned cost = !same(a[i - 1], b[j - 1]);

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[alen][blen];
}

int suggest_closest(const char *word, size_t len, const char *const *words,
		    size_t n, unsigned max)
{
	unsigned best = max + 1;
	int found = -1, ties = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned dist = suggest_distance(word, len, words[i]);

		if (dist < best) {
			best = dist;
			found = (int)i;
			ties = 0;
		} else if (dist == best) {
			ties++;
		}
	}
	return ties ? -1 : found;
}
