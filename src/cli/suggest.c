/*
 * suggest.c -- the nearest name to a typo (see suggest.h).
 *
 * The distance is optimal string alignment: Levenshtein's three edits plus
 * the transposition of two neighbouring characters, the commonest typing
 * slip.  Names here are short, so the full table on the stack is fine; a
 * longer name is simply not compared.
 */
#include "suggest.h"

#include <ctype.h>
#include <string.h>

enum { MAX_LEN = 64 };

static size_t min3(size_t a, size_t b, size_t c) {
  size_t m = a < b ? a : b;
  return m < c ? m : c;
}

size_t suggest_distance(const char *a, size_t alen, const char *b) {
  size_t blen = strlen(b);
  size_t d[MAX_LEN + 1][MAX_LEN + 1];
  if (alen > MAX_LEN || blen > MAX_LEN) return (size_t)-1;
  for (size_t i = 0; i <= alen; i++) d[i][0] = i;
  for (size_t j = 0; j <= blen; j++) d[0][j] = j;
  for (size_t i = 1; i <= alen; i++) {
    for (size_t j = 1; j <= blen; j++) {
      int ca = tolower((unsigned char)a[i - 1]);
      int cb = tolower((unsigned char)b[j - 1]);
      size_t cost = ca != cb;
      d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
          tolower((unsigned char)a[i - 2]) == cb &&
          d[i - 2][j - 2] + 1 < d[i][j])
        d[i][j] = d[i - 2][j - 2] + 1;
    }
  }
  return d[alen][blen];
}

const char *suggest_best(const char *word, size_t wlen,
                         const char *const *cands, size_t n) {
  const char *best = NULL;
  size_t best_d = (size_t)-1;
  /* One edit for names up to five letters, then one more per three. */
  size_t limit = wlen <= 5 ? 1 : (wlen + 1) / 3;
  for (size_t i = 0; i < n; i++) {
    if (!cands[i]) continue;
    if (strlen(cands[i]) == wlen && strncmp(cands[i], word, wlen) == 0)
      return NULL;
    size_t d = suggest_distance(word, wlen, cands[i]);
    if (d <= limit && d < best_d) {
      best = cands[i];
      best_d = d;
    }
  }
  return best;
}
