/*
 * numfmt.c -- printf's "%.<p>g" for short exact binary fractions.
 *
 * The emitters spell every floating-point constant with "%.9g" (float32)
 * or "%.17g" (float64), and glibc's printf takes the general road for each
 * (multi-precision arithmetic): 4% of `kern synth`'s time, whose kernels'
 * constants are all of the kind 0.5, 3.25 or 8.  Those are m / 2^k for a
 * small k, whose decimal expansion is exact and short, and for them "%g"
 * is simply that expansion: printf rounds nothing, and with at most p
 * significant digits and a decimal exponent of at least -4 it picks the
 * "%f" style and drops trailing zeros.  fmt_short_g writes exactly those
 * bytes and declines everything else (the caller then asks printf), so
 * the output is printf's in every case (tests/emit/numfmt_test.c compares
 * them over many values).  src/synth/text.c has the same for the synth
 * floor, which uses only the public API.
 */
#include <math.h>
#include <string.h>
#include "base.h"

int fmt_short_g(char out[48], double v, int prec) {
  if (!(v == v) || v - v != 0) /* NaN or infinite */
    return -1;
  if (v == 0) {
    if (signbit(v))
      return -1;
    out[0] = '0';
    out[1] = 0;
    return 1;
  }
  double a = v < 0 ? -v : v;
  if (a >= 1e15 || a < 1e-4)
    return -1;
  uint64_t ip = (uint64_t)a;
  double fr = a - (double)ip; /* exact: both have a's exponent or less */
  /* At most 30 fraction bits, so that fr * 10 below is exact: fr is
   * m / 2^30 with m < 2^30, and 10 m stays far inside 53 bits. */
  if (fr * 1073741824.0 != floor(fr * 1073741824.0))
    return -1;
  char ibuf[24], fbuf[32];
  int ni = 0, nf = 0;
  for (uint64_t u = ip; u; u /= 10)
    ibuf[ni++] = (char)('0' + u % 10);
  while (fr != 0) { /* each step halves fr's denominator: <= 30 digits */
    fr *= 10;
    int d = (int)fr;
    fbuf[nf++] = (char)('0' + d);
    fr -= d;
  }
  int lz = 0;
  if (ni == 0)
    while (lz < nf && fbuf[lz] == '0')
      lz++;
  /* significant digits; the exponent is >= -4 since a >= 1e-4 */
  if ((ni ? ni + nf : nf - lz) > prec)
    return -1;
  int n = 0;
  if (v < 0)
    out[n++] = '-';
  if (ni == 0)
    out[n++] = '0';
  while (ni)
    out[n++] = ibuf[--ni];
  if (nf) {
    out[n++] = '.';
    memcpy(out + n, fbuf, (size_t)nf);
    n += nf;
  }
  out[n] = 0;
  return n;
}
