/*
 * similar.c -- how alike generated kernels are (Note [near duplicates]).
 *
 * synth_normalize reduces a kernel's Warp source to its structure and
 * hashes it twice: once whole (equal hashes are kernels that differ only
 * in names and constants) and once as a MinHash signature of its 5-token
 * shingles, whose agreement estimates the Jaccard similarity of two
 * kernels.  synth_near_duplicates and synth_similarity_sample read those
 * signatures back for stats.json.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

/* Note [near duplicates]: two measures of how alike kernels are, both on
 * the Warp source reduced to its structure.  The reduction is a token
 * stream in which every name that is not Python syntax, a builtin type or
 * the attribute after a '.' (so `wp.sin`, `.x` stay) becomes `v`, every
 * number becomes `#`, and each line begins with a token for its
 * indentation; comments and spacing are gone.  (The first version renamed
 * only locals and replaced numbers, so any other difference, an array or
 * a name, kept kernels apart: 0 near duplicates in 10,000.)
 *
 *  - normalized_hash: a hash of that stream.  Equal values are kernels
 *    that differ only in names and constants ("structural duplicates").
 *  - minhash: 64 one-permutation MinHash bins (16 bits each, 256 hex
 *    digits) over the shingles of 5 consecutive tokens.  The fraction of
 *    equal bins estimates the Jaccard similarity of the two kernels'
 *    shingle sets; stats.json counts a kernel as a near duplicate when an
 *    earlier kernel of the file reaches SYNTH_NEAR_JACCARD (candidates
 *    found by 16 bands of 4 bins, the usual locality-sensitive hashing). */
static int keep_name(const char *p, size_t n) {
  static const struct { const char *s; size_t n; } kw[] = {
      {"def", 3}, {"return", 6}, {"if", 2}, {"elif", 4}, {"else", 4}, {"for", 3},
      {"while", 5}, {"in", 2}, {"range", 5}, {"and", 3}, {"or", 2}, {"not", 3},
      {"break", 5}, {"continue", 8}, {"import", 6}, {"as", 2}, {"float", 5},
      {"int", 3}, {"True", 4}, {"False", 5}, {"None", 4}, {"wp", 2}};
  switch (p[0]) { /* most names are the kernel's own: no list walk */
  case 'd': case 'r': case 'i': case 'e': case 'f': case 'w': case 'a': case 'o':
  case 'n': case 'b': case 'c': case 'T': case 'F': case 'N':
    break;
  default:
    return 0;
  }
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (kw[i].n == n && kw[i].s[0] == p[0] && !memcmp(kw[i].s, p, n)) return 1;
  return 0;
}

/* The bytes of a name after its first: a table, one load a byte. */
#define NC(c) [c] = 1
static const unsigned char name_char[256] = {
    NC('_'), NC('0'), NC('1'), NC('2'), NC('3'), NC('4'), NC('5'), NC('6'), NC('7'), NC('8'),
    NC('9'), NC('a'), NC('b'), NC('c'), NC('d'), NC('e'), NC('f'), NC('g'), NC('h'), NC('i'),
    NC('j'), NC('k'), NC('l'), NC('m'), NC('n'), NC('o'), NC('p'), NC('q'), NC('r'), NC('s'),
    NC('t'), NC('u'), NC('v'), NC('w'), NC('x'), NC('y'), NC('z'), NC('A'), NC('B'), NC('C'),
    NC('D'), NC('E'), NC('F'), NC('G'), NC('H'), NC('I'), NC('J'), NC('K'), NC('L'), NC('M'),
    NC('N'), NC('O'), NC('P'), NC('Q'), NC('R'), NC('S'), NC('T'), NC('U'), NC('V'), NC('W'),
    NC('X'), NC('Y'), NC('Z')};
#undef NC

static uint64_t fnv(uint64_t h, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
  return h;
}

/* Fills nhash (32 hex digits) and mh (SYNTH_MH_BINS * 4 hex digits). */
void synth_normalize(const char *src, char nhash[33], char mh[SYNTH_MH_BINS * 4 + 1]) {
  uint64_t whole_a = 0xcbf29ce484222325ULL, whole_b = 0x6c62272e07bb0142ULL;
  uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0;
#if SYNTH_MH_SHINGLE != 5
#error "synth_normalize keeps a shingle of five tokens in w0..w4"
#endif
  long long ntok = 0;
  uint32_t sig[SYNTH_MH_BINS];
  for (int b = 0; b < SYNTH_MH_BINS; b++) sig[b] = UINT32_MAX;
  int line_start = 1, after_dot = 0;
  for (const char *p = src; *p;) {
    char tb[16];
    const char *t = tb;
    size_t n = 0;
    if (*p == '\n') {
      p++;
      line_start = 1;
      continue;
    }
    if (line_start) {
      int ind = 0;
      while (*p == ' ') ind++, p++;
      if (*p == '\n' || *p == '#' || !*p) {
        while (*p && *p != '\n') p++;
        continue;
      }
      line_start = 0;
      tb[0] = '\n';
      tb[1] = (char)('0' + (ind / 4 < 70 ? ind / 4 : 70));
      n = 2;
    } else if (*p == ' ' || *p == '\t' || *p == '\r') {
      p++;
      continue;
    } else if (*p == '#') {
      while (*p && *p != '\n') p++;
      continue;
    } else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == '@') {
      const char *q = p;
      if (*q == '@' && q[1] == '@') q += 2; /* the kernel's name prefix */
      else if (*q == '@') q++;
      while (name_char[(unsigned char)*q]) q++;
      if (*p == '@' && p[1] != '@') {
        t = "@";
        n = 1;
        q = p + 1;
      } else if (after_dot || keep_name(p, (size_t)(q - p))) {
        t = p;
        n = (size_t)(q - p);
      } else {
        t = "v";
        n = 1;
      }
      p = q;
    } else if (*p >= '0' && *p <= '9') {
      while ((*p >= '0' && *p <= '9') || *p == '.' ||
             ((*p == 'e' || *p == 'E') && (p[1] == '-' || p[1] == '+' ||
                                            (p[1] >= '0' && p[1] <= '9'))))
        p += (*p == 'e' || *p == 'E') ? 2 : 1;
      t = "#";
      n = 1;
    } else {
      t = p++;
      n = 1;
    }
    after_dot = n == 1 && t[0] == '.';
    uint64_t th = fnv(0xcbf29ce484222325ULL, t, n);
    whole_a = (whole_a ^ th) * 0x100000001b3ULL;
    whole_b = (whole_b ^ (th >> 7)) * 0x9e3779b97f4a7c15ULL + 1;
    /* The last SYNTH_MH_SHINGLE (5) token hashes, oldest first, in
     * registers. */
    w0 = w1;
    w1 = w2;
    w2 = w3;
    w3 = w4;
    w4 = th;
    ntok++;
    if (ntok >= SYNTH_MH_SHINGLE) {
      /* One mix a shingle: the tokens' hashes rotated by their position. */
      uint64_t h = 0x51ed270b27a3e1c5ULL ^ w0 ^ (w1 << 13 | w1 >> 51) ^
                   (w2 << 26 | w2 >> 38) ^ (w3 << 39 | w3 >> 25) ^ (w4 << 52 | w4 >> 12);
      h = synth_mix(h);
      int bin = (int)(h % SYNTH_MH_BINS);
      uint32_t v = (uint32_t)(h >> 32);
      if (v < sig[bin]) sig[bin] = v;
    }
  }
  uint64_t hv[2] = {synth_mix(whole_a), synth_mix(whole_b)};
  for (int d = 0; d < 32; d++)
    nhash[d] = "0123456789abcdef"[(hv[d / 16] >> (60 - 4 * (d % 16))) & 15];
  nhash[32] = 0;
  /* Empty bins (short kernels) take the next filled bin's value, mixed
   * with the distance, so equal kernels still have equal signatures. */
  for (int b = 0; b < SYNTH_MH_BINS; b++) {
    uint32_t v = sig[b];
    for (int d = 1; v == UINT32_MAX && d < SYNTH_MH_BINS; d++)
      if (sig[(b + d) % SYNTH_MH_BINS] != UINT32_MAX)
        v = (uint32_t)synth_mix(sig[(b + d) % SYNTH_MH_BINS] + (uint64_t)d * 0x9e3779b9U);
    unsigned x = (unsigned)(synth_mix(v) & 0xffff);
    for (int d = 0; d < 4; d++) mh[4 * b + d] = "0123456789abcdef"[(x >> (12 - 4 * d)) & 15];
  }
  mh[4 * SYNTH_MH_BINS] = 0;
}

/* Note [near duplicates]: the records (in file order) that have an earlier
 * record whose MinHash signature agrees in at least SYNTH_NEAR_JACCARD of
 * its bins.  Candidates share one of 16 bands of 4 bins (a pair at
 * Jaccard 0.8 shares one with probability 1 - (1 - 0.8^4)^16 > 0.99); each
 * candidate is compared with at most 64 earlier members of its band, which
 * bounds the time on sets with many similar kernels. */
typedef struct { uint64_t key; long long idx; } Band;
static int band_cmp(const void *a, const void *b) {
  const Band *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}
long long synth_near_duplicates(const uint16_t *mh, long long n) {
  enum { BANDS = 16, ROWS = SYNTH_MH_BINS / BANDS, CHECK = 64 };
  unsigned char *dup = calloc((size_t)n + 1, 1);
  Band *bs = malloc(sizeof *bs * ((size_t)n + 1));
  if (!dup || !bs) {
    free(dup);
    free(bs);
    return 0;
  }
  int need = (int)ceil(SYNTH_NEAR_JACCARD * SYNTH_MH_BINS);
  for (int band = 0; band < BANDS; band++) {
    for (long long i = 0; i < n; i++) {
      uint64_t k = 0x9e3779b97f4a7c15ULL * (uint64_t)(band + 1);
      for (int r = 0; r < ROWS; r++) k = synth_mix(k ^ mh[(size_t)i * SYNTH_MH_BINS + band * ROWS + r]);
      bs[i] = (Band){k, i};
    }
    qsort(bs, (size_t)n, sizeof *bs, band_cmp);
    for (long long g = 0; g < n;) {
      long long e = g + 1;
      while (e < n && bs[e].key == bs[g].key) e++;
      for (long long a = g + 1; a < e; a++) {
        long long ia = bs[a].idx;
        if (dup[ia]) continue;
        for (long long b = a - 1; b >= g && b >= a - CHECK; b--) {
          const uint16_t *x = mh + (size_t)ia * SYNTH_MH_BINS, *y = mh + (size_t)bs[b].idx * SYNTH_MH_BINS;
          int same = 0;
          for (int k = 0; k < SYNTH_MH_BINS; k++) same += x[k] == y[k];
          if (same >= need) {
            dup[ia] = 1;
            break;
          }
        }
      }
      g = e;
    }
  }
  long long c = 0;
  for (long long i = 0; i < n; i++) c += dup[i];
  free(dup);
  free(bs);
  return c;
}


/* The estimated similarity of each of the first `sample` records to the
 * most similar earlier one, sorted ascending into out[0, sample); exact
 * (every earlier record is compared), so quadratic, hence the sample. */
static int dcmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
void synth_similarity_sample(const uint16_t *mh, long long sample, double *out) {
  for (long long i = 0; i < sample; i++) {
    int best = 0;
    for (long long j = 0; j < i; j++) {
      const uint16_t *x = mh + (size_t)i * SYNTH_MH_BINS, *y = mh + (size_t)j * SYNTH_MH_BINS;
      int same = 0;
      for (int k = 0; k < SYNTH_MH_BINS; k++) same += x[k] == y[k];
      if (same > best) best = same;
    }
    out[i] = (double)best / SYNTH_MH_BINS;
  }
  qsort(out, (size_t)sample, sizeof *out, dcmp);
}
