/* SPDX-License-Identifier: BSD-3-Clause */
/* Near misses: which word of a list a mistyped one was probably meant to
 * be, for the "did you mean" of pinrun's refusals. */
#ifndef PINRUN_SUGGEST_H
#define PINRUN_SUGGEST_H

#include <stddef.h>

/* The index of the word of words[0..n) closest to word[0..len), when it
 * is at most max edits away (insertions, deletions, substitutions and
 * swaps of two neighbours; letters compared without case) and no other
 * word is as close; else -1. */
int suggest_closest(const char *word, size_t len, const char *const *words,
		    size_t n, unsigned max);

#endif
