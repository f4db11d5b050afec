/*
 * text.c -- a small formatter for the text `kern synth` builds.
 *
 * The generator and the record writer format millions of short pieces a
 * second ("(%s + %s)", "\"index\":%lld,"); glibc's vsnprintf spends most
 * of its time parsing the format and was the largest single cost of
 * generation.  synth_vformat expands the conversions synth uses (%s, %d,
 * %c, %lld, %llu, %%) by hand, with the same bytes printf would give, and
 * gives up at any other conversion (returning -1) so the caller can start
 * again with vsnprintf on a fresh argument list.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "synth.h"

/* Digits of u, right-aligned in t[0, 24); returns the first index. */
static int digits(char t[24], unsigned long long u) {
  int k = 24;
  do t[--k] = (char)('0' + u % 10);
  while (u /= 10);
  return k;
}

int synth_vformat(char *out, size_t cap, const char *fmt, va_list ap) {
  /* Byte by byte: the pieces are a few bytes, where strchr, strlen and
   * memcpy per piece cost more than the copying (kern synth round three). */
  size_t n = 0;
#define PUTC(ch)                                                           \
  do {                                                                     \
    if (n < cap) out[n] = (ch);                                            \
    n++;                                                                   \
  } while (0)
  for (const char *p = fmt;; p++) {
    char c = *p;
    if (c != '%') {
      if (c == 0) break;
      PUTC(c);
      continue;
    }
    char t[24];
    int k;
    p++;
    switch (*p) {
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s) s = "(null)";
      /* short strings byte by byte, the rest of a long one in one copy */
      for (int i = 0; i < 16 && *s; i++, s++) PUTC(*s);
      if (*s) {
        size_t l = strlen(s);
        if (n < cap) memcpy(out + n, s, n + l < cap ? l : cap - n);
        n += l;
      }
      continue;
    }
    case 'd': {
      int v = va_arg(ap, int);
      k = digits(t, v < 0 ? 0ull - (unsigned long long)(long long)v : (unsigned long long)v);
      if (v < 0) t[--k] = '-';
      break;
    }
    case 'l': {
      if (p[1] != 'l' || (p[2] != 'd' && p[2] != 'u')) return -1;
      p += 2;
      if (*p == 'd') {
        long long v = va_arg(ap, long long);
        k = digits(t, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
        if (v < 0) t[--k] = '-';
      } else {
        k = digits(t, va_arg(ap, unsigned long long));
      }
      break;
    }
    case 'c':
      t[23] = (char)va_arg(ap, int);
      k = 23;
      break;
    case '%':
      t[23] = '%';
      k = 23;
      break;
    default:
      return -1; /* the caller starts again with vsnprintf */
    }
    for (; k < 24; k++) PUTC(t[k]);
  }
#undef PUTC
  if (cap) out[n < cap ? n : cap - 1] = 0;
  return (int)n;
}

/* printf's "%.<prec>g" of v for short exact binary fractions, else -1: the
 * twin of fmt_short_g in src/base/numfmt.c (where the reasoning is), since
 * this floor uses only the public API.  The generator's literals (0.5,
 * 2.25) were formatted by glibc's multi-precision printf. */
int synth_short_g(char out[48], double v, int prec) {
  if (!(v == v) || v - v != 0) return -1;
  if (v == 0) {
    if (signbit(v)) return -1;
    out[0] = '0';
    out[1] = 0;
    return 1;
  }
  double a = v < 0 ? -v : v;
  if (a >= 1e15 || a < 1e-4) return -1;
  uint64_t ip = (uint64_t)a;
  double fr = a - (double)ip;
  if (fr * 1073741824.0 != floor(fr * 1073741824.0)) return -1;
  char ibuf[24], fbuf[32];
  int ni = 0, nf = 0;
  for (uint64_t u = ip; u; u /= 10) ibuf[ni++] = (char)('0' + u % 10);
  while (fr != 0) {
    fr *= 10;
    int d = (int)fr;
    fbuf[nf++] = (char)('0' + d);
    fr -= d;
  }
  int lz = 0;
  if (ni == 0)
    while (lz < nf && fbuf[lz] == '0') lz++;
  if ((ni ? ni + nf : nf - lz) > prec) return -1;
  int n = 0;
  if (v < 0) out[n++] = '-';
  if (ni == 0) out[n++] = '0';
  while (ni) out[n++] = ibuf[--ni];
  if (nf) {
    out[n++] = '.';
    memcpy(out + n, fbuf, (size_t)nf);
    n += nf;
  }
  out[n] = 0;
  return n;
}
