/*
 * suggest.c -- the nearest known name to a misspelled one, for the
 * checker's "did you mean" (an unknown wp.* function, say).
 *
 * The distance is optimal string alignment: insertions, deletions,
 * substitutions and swaps of neighbouring letters, the usual typing slips.
 * A candidate is accepted only within about a third of the word's length,
 * so short names are not "corrected" into unrelated ones.  The kern tool
 * has the same rule for command-line names in src/cli/suggest.c; the two are
 * separate because the tool uses only the public API.
 */
#include <string.h>
#include "base.h"

enum { MAX_LEN = 64 };

static size_t distance(const char *a, const char *b) {
  size_t alen = strlen(a), blen = strlen(b);
  size_t d[MAX_LEN + 1][MAX_LEN + 1];
  if (alen > MAX_LEN || blen > MAX_LEN)
    return (size_t)-1;
  for (size_t i = 0; i <= alen; i++)
    d[i][0] = i;
  for (size_t j = 0; j <= blen; j++)
    d[0][j] = j;
  for (size_t i = 1; i <= alen; i++) {
    for (size_t j = 1; j <= blen; j++) {
      size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  }
  return d[alen][blen];
}

const char *suggest_name(const char *word, const char *const *names, int n) {
  size_t wlen = strlen(word);
  size_t limit = wlen <= 5 ? 1 : (wlen + 1) / 3;
  size_t best_d = (size_t)-1;
  const char *best = NULL;
  for (int i = 0; i < n; i++) {
    size_t d = distance(word, names[i]);
    if (d > 0 && d <= limit && d < best_d) {
      best = names[i];
      best_d = d;
    }
  }
  return best;
}
