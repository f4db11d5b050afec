/*
 * suggest.h -- "did you mean" for names typed on the command line.
 *
 * A misspelled kernel, parameter, SPEC function or type name is reported
 * with the nearest known name when one is close enough to be a likely typo.
 * Closeness is the edit distance (insertions, deletions, substitutions and
 * swaps of neighbouring letters, case-insensitive), accepted up to about a
 * third of the word's length so that short names are not "corrected" into
 * unrelated ones.
 *
 * Exports:
 *   suggest_distance  the edit distance of two strings (first n of a)
 *   suggest_best      the nearest acceptable candidate, or NULL
 */
#ifndef KERN_TOOLS_SUGGEST_H
#define KERN_TOOLS_SUGGEST_H

#include <stddef.h>

size_t suggest_distance(const char *a, size_t alen, const char *b);

/* word is the first wlen bytes of word; cands has n entries (NULL entries
 * are skipped).  Returns the candidate with the smallest acceptable
 * distance, the first one on ties, or NULL when none is close or word is
 * itself a candidate. */
const char *suggest_best(const char *word, size_t wlen,
                         const char *const *cands, size_t n);

#endif /* KERN_TOOLS_SUGGEST_H */
