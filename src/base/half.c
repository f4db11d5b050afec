/*
 * half.c -- conversions between float32 and the two 16-bit float formats,
 * IEEE binary16 (Warp's float16) and bfloat16 (the upper half of a
 * float32).
 *
 * The host side needs them wherever 16-bit values cross the C API: the
 * launch code widens float16 kernel arguments to the float32 registers the
 * generated code computes in (runtime/module.c), and the kern tool reads
 * and writes half arrays and scalars.  The generated code has its own copy
 * of the same algorithm in each target's dialect (emit/half.c); both round
 * to nearest, ties to even, so a value converted here and one converted in
 * a kernel agree bit for bit.
 *
 * The conversions work on the bit patterns with integer arithmetic only,
 * so they do not depend on the host's floating-point environment (flush to
 * zero, x87 precision) or on a compiler's _Float16 support.
 */
#include <string.h>
#include "kern.h"

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

uint16_t kern_float16_from_float(float f) {
  uint32_t x = bits_of(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) /* infinity, or NaN kept quiet with its payload */
    return (uint16_t)(sign | 0x7c00u |
                      (a > 0x7f800000u ? 0x200u | ((a >> 13) & 0x3ffu) : 0));
  if (a >= 0x477ff000u) /* 65520 and above round to infinity */
    return (uint16_t)(sign | 0x7c00u);
  if (a >= 0x38800000u) { /* a normal half: rebias the exponent by 112 */
    uint32_t m = a - 0x38000000u;
    m += 0xfffu + ((m >> 13) & 1u); /* ties to even */
    return (uint16_t)(sign | (m >> 13));
  }
  if (a < 0x33000000u) /* below half the smallest subnormal: zero */
    return (uint16_t)sign;
  /* A subnormal half counts units of 2^-24: shift the float's significand
   * (with its implicit bit) right and round the bits shifted out. */
  uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
  uint32_t shift = 126 - e; /* 14 .. 24 */
  uint32_t r = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rest > half || (rest == half && (r & 1u)))
    r++;
  return (uint16_t)(sign | r);
}

float kern_float16_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 31)
    return float_of(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    if (m == 0)
      return float_of(sign);
    /* a subnormal: normalise the significand */
    e = 113;
    while (!(m & 0x400u)) {
      m <<= 1;
      e--;
    }
    return float_of(sign | (e << 23) | ((m & 0x3ffu) << 13));
  }
  return float_of(sign | ((e + 112) << 23) | (m << 13));
}

uint16_t kern_bfloat16_from_float(float f) {
  uint32_t x = bits_of(f);
  if ((x & 0x7f800000u) == 0x7f800000u) {
    /* infinity or NaN: truncate, keeping a NaN a NaN (Warp's rule) */
    uint16_t h = (uint16_t)(x >> 16);
    if ((x & 0x7fffffu) && !(h & 0x7fu))
      h |= 0x40u;
    return h;
  }
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

float kern_bfloat16_to_float(uint16_t h) { return float_of((uint32_t)h << 16); }
