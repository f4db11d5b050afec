/*
 * extra.c -- helper bodies for the rest of Warp's builtins (issue #10;
 * checked in lower/check_extra.c): scalar math, bit operations on integer
 * vectors, random sampling, lower_bound and Perlin noise.
 *
 * Each body follows the operation order of Warp's CPU build, as its
 * documentation and headers describe the algorithm, so results agree with
 * Warp's to the bit on the C target (same libm) and within the usual
 * ulps elsewhere: the sampling functions draw from the state in the same
 * order and do the same float32 arithmetic; erfinv is computed in double
 * and rounded, as Warp's CPU build does, but by kern's own method (Note
 * [erfinv]).  emit_helper (common.c) calls emit_extra_helper first; a
 * false answer hands the builtin to the older helpers.
 */
#include <string.h>
#include "emit.h"

static const char *mathfn(Emit *E, const char *base, kern_scalar sc) {
  if (E->T->overloaded_math || sc != KERN_SCALAR_FLOAT32)
    return base;
  return arena_printf(E->C, "%sf", base);
}

static const Type *sc_t(kern_scalar sc) { return ty_scalar(sc); }

/* The helper of wp.randf(state) and wp.randf(state, lo, hi); either also
 * defines k_pcg, Warp's PCG step. */
static const char *randf1(Emit *E) {
  return emit_helper(E, BI_RANDF, sc_t(KERN_SCALAR_FLOAT32), 1,
                     (const Type *[]){sc_t(KERN_SCALAR_UINT32)});
}

static const char *randf3(Emit *E) {
  const Type *f = sc_t(KERN_SCALAR_FLOAT32);
  return emit_helper(E, BI_RANDF, f, 3,
                     (const Type *[]){sc_t(KERN_SCALAR_UINT32), f, f});
}

/* Note [erfinv]: Warp's CPU build computes erfinv and erfcinv in double
 * (float32 arguments are widened and the result rounded), erfcinv(x) as
 * erfinv(1 - x).  kern does the same with its own method: Winitzki's
 * closed-form approximation (relative error below 2e-3) refined by four
 * Halley steps on f(x) = erf(x) - z, whose derivative is
 * 2/sqrt(pi) exp(-x^2) and second derivative -2x times that, so a step
 * is x -= f / (f' + x f).  For |z| > 1/2 the residual is formed as
 * (1 - |z|) - erfc(x), which is exact where erf(x) - z would cancel.
 * The result is within an ulp or two of the true value in double, so
 * float32 results round to Warp's. */
static const char *erfinv_core(Emit *E) {
  const char *name = "k_erfinv_core_f64";
  if (!emit_need(E, name))
    return name;
  emit_pre(E, name,
             "%s double %s(double z) {\n"
             "  if (z == 0.0) return 0.0;\n"
             "  if (z == 1.0) return (double)K_INF_F;\n"
             "  if (z == -1.0) return -(double)K_INF_F;\n"
             "  if (!(z > -1.0 && z < 1.0)) return (double)K_NAN_F;\n"
             "  double w = fabs(z);\n"
             "  double l = log((1.0 - w) * (1.0 + w));\n"
             "  double t = 4.330746750799873 + 0.5 * l; /* 2/(pi 0.147) */\n"
             "  double x = sqrt(sqrt(t * t - l / 0.147) - t);\n"
             "  for (int i = 0; i < 4; i++) {\n"
             "    double f = w > 0.5 ? (1.0 - w) - erfc(x) : erf(x) - w;\n"
             "    double d = 1.1283791670955126 * exp(-x * x);\n"
             "    x -= f / (d + x * f);\n"
             "  }\n"
             "  return z < 0.0 ? -x : x;\n}\n", E->T->fn_qual, name);
  return name;
}

/* Note [vulkan cast]: GLSL has no unions, so on the vulkan target
 * wp.cast(a, T) moves the bits itself.  Each component of a becomes the
 * unsigned integer of its width (floatBitsToUint, doubleBitsToUint64, a
 * 16-bit float's own rounding to its 16 bits, Note [16-bit floats] in
 * half.c, a signed integer's constructor); those words are split, or
 * joined, into words of T's component width, low bits first as a union
 * of the two types lays them out in little-endian memory (component 0 of
 * a vec2ui is the low half of the uint64); and each word becomes T's
 * component by the inverse conversion (Note [16-bit cast] for the 16-bit
 * floats). */

/* Note [16-bit cast]: Warp's wp.cast reinterprets a float16 or bfloat16
 * as its 16 bits in memory, but kern holds such a value widened in a
 * float32 register (Note [16-bit floats] in half.c), whose bits are not
 * the value's: a union over the register would make
 * wp.cast(float16(1.5), int16) 0, not 0x3E00.  So emit_lowp_expr passes
 * the 16-bit types themselves to the cast helper on every target, and the
 * helper moves the value through its memory form: a 16-bit source is
 * rounded to its bits as a store would round it (exactly: the register
 * holds a value of the format) and a 16-bit result is widened from its
 * bits as a load would widen it.  On C, CUDA and OpenCL the union is then
 * over the memory types (uint16_t, k_memv2f16 ...), which have Warp's
 * layout; on vulkan the helper converts each component to and from its
 * bits itself.  The conversions are the integer ones (emit_lowp_bits),
 * also on CUDA, whose loads and stores of float16 use the cvt
 * instructions: those are not relied on to keep a NaN's bits.  So a
 * float16 NaN keeps its sign and payload, but a signalling one comes back
 * quiet (0x7C01 as 0x7E01: the conversion to 16 bits sets the quiet bit,
 * as F16C's does), where Warp's cast keeps every bit; bfloat16 NaNs keep
 * every bit.  A NaN that went through a float16 array on CUDA is as cvt
 * left it. */

/* Component i of the value v of type t. */
static const char *cast_comp(Emit *E, const Type *t, const char *v, int i) {
  if (t->kind == TY_VEC)
    return arena_printf(E->C, "%s.c[%d]", v, i);
  if (t->kind == TY_MAT)
    return arena_printf(E->C, "%s.m[%d][%d]", v, i / t->cols, i % t->cols);
  return v;
}

static const char *cast_uint(int bits) {
  return bits == 8 ? "uint8_t" : bits == 16 ? "uint16_t"
         : bits == 32 ? "uint32_t" : "uint64_t";
}

/* The bits of x, of scalar type sc, as an unsigned integer (to) or the
 * value of type sc whose bits are the unsigned integer x (!to). */
static const char *cast_bits(Emit *E, kern_scalar sc, const char *x, bool to) {
  if (sc_is_lowp(sc))
    return arena_printf(E->C, "%s(%s)", emit_lowp_conv(E, sc, !to), x);
  if (sc == KERN_SCALAR_FLOAT32)
    return arena_printf(E->C, to ? "floatBitsToUint(%s)" : "uintBitsToFloat(%s)", x);
  if (sc == KERN_SCALAR_FLOAT64)
    return arena_printf(E->C, to ? "doubleBitsToUint64(%s)"
                                 : "uint64BitsToDouble(%s)", x);
  if (!sc_is_signed(sc))
    return x;
  return arena_printf(E->C, "%s(%s)",
                      to ? cast_uint(sc_bits(sc)) : emit_ctype(E, ty_scalar(sc)), x);
}

static void cast_glsl(Emit *E, Buf *b, const Type *ret, const Type *arg,
                      const char *name) {
  const char *RT = emit_ctype(E, ret);
  int ws = sc_bits(arg->sc), wd = sc_bits(ret->sc);
  int ns = arg->kind == TY_SCALAR ? 1 : arg->rows * arg->cols;
  int nd = ret->kind == TY_SCALAR ? 1 : ret->rows * ret->cols;
  const char *US = cast_uint(ws), *UD = cast_uint(wd);
  buf_printf(b, "%s %s %s(%s a) {\n", E->T->fn_qual, RT, name,
             emit_ctype(E, arg));
  for (int i = 0; i < ns; i++)
    buf_printf(b, "  %s s%d = %s;\n", US, i,
               cast_bits(E, arg->sc, cast_comp(E, arg, "a", i), true));
  if (ret->kind != TY_SCALAR)
    buf_printf(b, "  %s r;\n", RT);
  for (int j = 0; j < nd; j++) {
    Buf w; /* the word of component j */
    buf_init(&w, E->C);
    if (ws == wd)
      buf_printf(&w, "s%d", j);
    else if (ws > wd) /* a part of one source word */
      buf_printf(&w, j % (ws / wd) ? "%s(s%d >> %d)" : "%s(s%d)", UD,
                 j / (ws / wd), j % (ws / wd) * wd);
    else /* source words joined */
      for (int p = 0; p < wd / ws; p++)
        buf_printf(&w, p ? " | (%s(s%d) << %d)" : "%s(s%d)", UD,
                   j * (wd / ws) + p, p * ws);
    const char *v = cast_bits(E, ret->sc, w.p, false);
    if (ret->kind == TY_SCALAR)
      buf_printf(b, "  return %s;\n}\n", v);
    else
      buf_printf(b, "  %s = %s;\n", cast_comp(E, ret, "r", j), v);
  }
  if (ret->kind != TY_SCALAR)
    buf_puts(b, "  return r;\n}\n");
}

/* The same bits read as another type: a union, which C, CUDA C++ and
 * OpenCL C all allow, of the two types as they lie in memory (Note
 * [16-bit cast]). */
static void cast_union(Emit *E, Buf *b, const Type *ret, const Type *arg,
                       const char *name) {
  buf_printf(b, "%s %s %s(%s a) {\n  union { %s a; %s r; } u;\n",
             E->T->fn_qual, emit_ctype(E, ret), name, emit_ctype(E, arg),
             emit_stype(E, arg), emit_stype(E, ret));
  if (emit_lowp(arg))
    buf_printf(b, "  u.a = %s(a);\n", emit_lowp_bits(E, arg, false));
  else
    buf_puts(b, "  u.a = a;\n");
  if (emit_lowp(ret))
    buf_printf(b, "  return %s(u.r);\n}\n", emit_lowp_bits(E, ret, true));
  else
    buf_puts(b, "  return u.r;\n}\n");
}

/* Scalar math: erf, erfc, erfinv, erfcinv, copysign, bit_count, cast. */
static bool math_helper(Emit *E, Buf *b, int bi, const Type *ret,
                        const Type **args, const char *name) {
  const char *Q = E->T->fn_qual;
  kern_scalar sc = args[0]->sc;
  const char *T = emit_ctype(E, args[0]);
  switch (bi) {
  case BI_ERF: case BI_ERFC:
    buf_printf(b, "%s %s %s(%s a) { return %s(a); }\n", Q, T, name, T,
               mathfn(E, builtin_names[bi], sc));
    return true;
  case BI_ERFINV: case BI_ERFCINV: {
    const char *core = erfinv_core(E);
    buf_printf(b, "%s %s %s(%s a) { return (%s)%s(%s(double)a); }\n", Q, T,
               name, T, T, core, bi == BI_ERFCINV ? "1.0 - " : "");
    return true;
  }
  case BI_COPYSIGN:
    buf_printf(b, "%s %s %s(%s a, %s b) { return %s(a, b); }\n", Q, T, name,
               T, T, mathfn(E, "copysign", sc));
    return true;
  case BI_BIT_COUNT: {
    /* The bits of a as unsigned (zero-extended), counted in parallel:
     * pairs, nibbles, bytes, then a multiply sums the bytes.  The masks
     * are cast: OpenCL C reads ULL as a 128-bit type. */
    static const char *const u[] = {"", "uint8_t", "uint16_t", "uint32_t",
                                    "uint64_t"};
    int bits = sc_bits(sc);
    const char *U = u[bits == 8 ? 1 : bits == 16 ? 2 : bits == 32 ? 3 : 4];
    buf_printf(b, "%s int32_t %s(%s a) {\n"
                  "  uint64_t v = (uint64_t)(%s)a;\n"
                  "  v = v - ((v >> 1) & (uint64_t)0x5555555555555555ULL);\n"
                  "  v = (v & (uint64_t)0x3333333333333333ULL) + ((v >> 2) & (uint64_t)0x3333333333333333ULL);\n"
                  "  v = (v + (v >> 4)) & (uint64_t)0x0F0F0F0F0F0F0F0FULL;\n"
                  "  return (int32_t)((v * (uint64_t)0x0101010101010101ULL) >> 56);\n}\n",
               Q, name, T, U);
    return true;
  }
  case BI_CAST:
    if (E->T->id == KERN_TARGET_VULKAN) { /* Note [vulkan cast] */
      cast_glsl(E, b, ret, args[0], name);
      return true;
    }
    cast_union(E, b, ret, args[0], name);
    return true;
  }
  return false;
}

/* wp.bit_and ... wp.invert on integer vectors and matrices: componentwise C operators,
 * each result cast back to the component type. */
static bool bitvec_helper(Emit *E, Buf *b, int bi, const Type *ret, int n,
                          const Type **args, const char *name) {
  const char *op;
  switch (bi) {
  case BI_BIT_AND: op = "&"; break;
  case BI_BIT_OR: op = "|"; break;
  case BI_BIT_XOR: op = "^"; break;
  case BI_LSHIFT: op = "<<"; break;
  case BI_RSHIFT: op = ">>"; break;
  case BI_INVERT: op = "~"; break;
  default: return false;
  }
  const char *V = emit_ctype(E, ret), *T = emit_ctype(E, sc_t(ret->sc));
  /* component k of a vector, or of a matrix in row-major order */
  const char *el = ret->kind == TY_MAT
                       ? arena_printf(E->C, ".m[k / %d][k %% %d]", ret->cols,
                                      ret->cols)
                       : ".c[k]";
  int nc = ret->kind == TY_MAT ? ret->rows * ret->cols : ret->rows;
  if (n == 1)
    buf_printf(b, "%s %s %s(%s a) {\n  %s r;\n"
                  "  for (int k = 0; k < %d; k++) r%s = (%s)~a%s;\n"
                  "  return r;\n}\n", E->T->fn_qual, V, name, V, V, nc, el,
               T, el);
  else
    buf_printf(b, "%s %s %s(%s a, %s b) {\n  %s r;\n"
                  "  for (int k = 0; k < %d; k++) r%s = (%s)(a%s %s b%s);\n"
                  "  return r;\n}\n", E->T->fn_qual, V, name, V, V, V,
               nc, el, T, el, op, el);
  (void)args;
  return true;
}

/* ---------------------------------------------------------------- random */

/* Warp's Poisson sampler (rand.h): for lam < 10 the product of uniform
 * draws until it falls to exp(-lam) (Knuth), for lam >= 10 Hoermann's
 * transformed rejection (PTRS, "The transformed rejection method for
 * generating Poisson random variables", 1993), whose acceptance test
 * needs log(k!) through a Stirling series with the correction terms
 * B_2j / (2j (2j - 1)) (Zhang and Jin's log-gamma), shifted up to x >= 7
 * and brought back by subtracting logs.  All in float32, as in Warp. */
static void poisson_helper(Emit *E, Buf *b, const char *name) {
  const char *Q = E->T->fn_qual, *rf = randf1(E);
  const char *lg = mathfn(E, "log", KERN_SCALAR_FLOAT32);
  if (emit_need(E, "k_loggam_f32"))
    emit_pre(E, "k_loggam_f32",
               "%s float k_loggam_f32(float x) {\n"
               "  if (x == 1.0f || x == 2.0f) return 0.0f;\n"
               "  uint32_t n = x < 7.0f ? (uint32_t)(7.0f - x) : 0u;\n"
               "  float x0 = x + (float)n;\n"
               "  float x2 = (1.0f / x0) * (1.0f / x0);\n"
               "  /* B_2j / (2j (2j - 1)), j = 10 down to 1 */\n"
               "  float g = -1.39243221690590e+00f;\n"
               "  g = g * x2 + 1.796443723688307e-01f;\n"
               "  g = g * x2 + -2.955065359477124e-02f;\n"
               "  g = g * x2 + 6.410256410256410e-03f;\n"
               "  g = g * x2 + -1.917526917526918e-03f;\n"
               "  g = g * x2 + 8.417508417508418e-04f;\n"
               "  g = g * x2 + -5.952380952380952e-04f;\n"
               "  g = g * x2 + 7.936507936507937e-04f;\n"
               "  g = g * x2 + -2.777777777777778e-03f;\n"
               "  g = g * x2 + 8.333333333333333e-02f;\n"
               "  /* ln(2 pi) = 1.8378770664093453 */\n"
               "  float gl = g / x0 + 0.5f * 1.8378770664093453f + (x0 - 0.5f) * %s(x0) - x0;\n"
               "  if (x < 7.0f)\n"
               "    for (uint32_t k = 1; k <= n; k++) { gl -= %s(x0 - 1.0f); x0 -= 1.0f; }\n"
               "  return gl;\n}\n", Q, lg, lg);
  const char *sq = mathfn(E, "sqrt", KERN_SCALAR_FLOAT32);
  const char *fl = mathfn(E, "floor", KERN_SCALAR_FLOAT32);
  const char *ab = mathfn(E, "fabs", KERN_SCALAR_FLOAT32);
  const char *ex = mathfn(E, "exp", KERN_SCALAR_FLOAT32);
  buf_printf(b,
             "%s uint32_t %s(uint32_t *s, float lam) {\n"
             "  if (lam == 0.0f) return 0u;\n"
             "  if (lam < 10.0f) {\n"
             "    float enlam = %s(-lam), prod = 1.0f;\n"
             "    uint32_t x = 0;\n"
             "    for (;;) {\n"
             "      prod *= %s(s);\n"
             "      if (!(prod > enlam)) return x;\n"
             "      x += 1u;\n"
             "    }\n"
             "  }\n"
             "  float slam = %s(lam), loglam = %s(lam);\n"
             "  float bb = 0.931f + 2.53f * slam;\n"
             "  float aa = -0.059f + 0.02483f * bb;\n"
             "  float invalpha = 1.1239f + 1.1328f / (bb - 3.4f);\n"
             "  float vr = 0.9277f - 3.6224f / (bb - 2.0f);\n"
             "  for (;;) {\n"
             "    float u = %s(s) - 0.5f;\n"
             "    float v = %s(s);\n"
             "    float us = 0.5f - %s(u);\n"
             "    float k = %s((2.0f * aa / us + bb) * u + lam + 0.43f);\n"
             "    if (us >= 0.07f && v <= vr) return (uint32_t)k;\n"
             "    if (k < 0.0f || (us < 0.013f && v > us)) continue;\n"
             "    if (%s(v) + %s(invalpha) - %s(aa / (us * us) + bb) <=\n"
             "        -lam + k * loglam - k_loggam_f32(k + 1.0f))\n"
             "      return (uint32_t)k;\n"
             "  }\n}\n",
             Q, name, ex, rf, sq, lg, rf, rf, ab, fl, lg, lg, lg);
}

/* The sampling functions of Warp's rand.h: the same draws in the same
 * order, the same float32 formulas.  An angle is randf(s, 0, 2 pi). */
static bool sample_helper(Emit *E, Buf *b, int bi, const char *name) {
  const char *Q = E->T->fn_qual;
  kern_scalar f = KERN_SCALAR_FLOAT32;
  const char *V2 = emit_ctype(E, ty_vec(E->C, f, 2));
  const char *V3 = emit_ctype(E, ty_vec(E->C, f, 3));
  const char *rf = randf1(E);
  const char *sq = mathfn(E, "sqrt", f), *co = mathfn(E, "cos", f);
  const char *si = mathfn(E, "sin", f), *ac = mathfn(E, "acos", f);
  const char *pw = mathfn(E, "pow", f);
  const char *ang = "6.28318530717958647692f";
  switch (bi) {
  case BI_SAMPLE_TRIANGLE:
    buf_printf(b, "%s %s %s(uint32_t *s) {\n  float r = %s(%s(s));\n"
                  "  %s v;\n  v.c[0] = 1.0f - r;\n  v.c[1] = %s(s) * r;\n"
                  "  return v;\n}\n", Q, V2, name, sq, rf, V2, rf);
    return true;
  case BI_SAMPLE_UNIT_RING: case BI_SAMPLE_UNIT_DISK: {
    const char *r3 = randf3(E);
    bool disk = bi == BI_SAMPLE_UNIT_DISK;
    buf_printf(b, "%s %s %s(uint32_t *s) {\n", Q, V2, name);
    if (disk)
      buf_printf(b, "  float r = %s(%s(s));\n", sq, rf);
    buf_printf(b, "  float th = %s(s, 0.0f, %s);\n  %s v;\n"
                  "  v.c[0] = %s%s(th);\n  v.c[1] = %s%s(th);\n"
                  "  return v;\n}\n", r3, ang, V2, disk ? "r * " : "", co,
               disk ? "r * " : "", si);
    return true;
  }
  case BI_SAMPLE_UNIT_SPHERE_SURFACE: case BI_SAMPLE_UNIT_SPHERE:
  case BI_SAMPLE_UNIT_HEMISPHERE_SURFACE: case BI_SAMPLE_UNIT_HEMISPHERE: {
    const char *r3 = randf3(E);
    bool hemi = bi == BI_SAMPLE_UNIT_HEMISPHERE_SURFACE ||
                bi == BI_SAMPLE_UNIT_HEMISPHERE;
    bool ball = bi == BI_SAMPLE_UNIT_SPHERE || bi == BI_SAMPLE_UNIT_HEMISPHERE;
    buf_printf(b, "%s %s %s(uint32_t *s) {\n"
                  "  float phi = %s(1.0f - %s%s(s));\n"
                  "  float th = %s(s, 0.0f, %s);\n",
               Q, V3, name, ac, hemi ? "" : "2.0f * ", rf, r3, ang);
    if (ball)
      buf_printf(b, "  float r = %s(%s(s), 1.0f / 3.0f);\n", pw, rf);
    const char *r = ball ? "r * " : "";
    buf_printf(b, "  %s v;\n  v.c[0] = %s%s(th) * %s(phi);\n"
                  "  v.c[1] = %s%s(th) * %s(phi);\n  v.c[2] = %s%s(phi);\n"
                  "  return v;\n}\n", V3, r, co, si, r, si, si, r, co);
    return true;
  }
  case BI_SAMPLE_UNIT_SQUARE: case BI_SAMPLE_UNIT_CUBE: {
    int d = bi == BI_SAMPLE_UNIT_SQUARE ? 2 : 3;
    const char *V = d == 2 ? V2 : V3;
    buf_printf(b, "%s %s %s(uint32_t *s) {\n  %s v;\n"
                  "  for (int k = 0; k < %d; k++) v.c[k] = %s(s) - 0.5f;\n"
                  "  return v;\n}\n", Q, V, name, V, d, rf);
    return true;
  }
  }
  return false;
}

static bool random_helper(Emit *E, Buf *b, int bi, int n, const Type **args,
                          const char *name) {
  const char *Q = E->T->fn_qual;
  switch (bi) {
  case BI_RANDU:
    randf1(E); /* defines k_pcg */
    if (n == 1)
      buf_printf(b, "%s uint32_t %s(uint32_t *s) {\n  *s = k_pcg(*s);\n"
                    "  return *s;\n}\n", Q, name);
    else
      /* Warp's state % (hi - lo) + lo; an empty range (which would divide
       * by zero) gives the draw itself, as kern's randi does */
      buf_printf(b, "%s uint32_t %s(uint32_t *s, uint32_t lo, uint32_t hi) {\n"
                    "  *s = k_pcg(*s);\n  uint32_t span = hi - lo;\n"
                    "  return (span%s ? *s %% span : *s) + lo;\n}\n", Q, name,
                  E->T->id == KERN_TARGET_VULKAN ? " != 0u" : "");
    return true;
  case BI_POISSON:
    poisson_helper(E, b, name);
    return true;
  case BI_SAMPLE_CDF: {
    const Type *arr = args[1];
    const char *lb = emit_helper(E, BI_LOWER_BOUND, sc_t(KERN_SCALAR_INT32), 2,
                                 (const Type *[]){arr, arr->elem});
    buf_printf(b, "%s int32_t %s(uint32_t *s, %s cdf) {\n"
                  "  return %s(cdf, %s(s));\n}\n", Q, name,
               emit_ctype(E, arr), lb, randf1(E));
    return true;
  }
  case BI_LOWER_BOUND: {
    /* Warp's lower_bound (array.h): the first index in [begin, end) whose
     * element is not below the value, searching [begin, end - 1], so a
     * value above every element gives end - 1. */
    const Type *arr = args[0];
    const char *A = emit_ctype(E, arr), *T = emit_ctype(E, arr->elem);
    if (n == 2)
      buf_printf(b, "%s int32_t %s(%s a, %s v) {\n"
                    "  int32_t lo = 0, hi = (int32_t)a.shape[0] - 1;\n", Q,
                 name, A, T);
    else
      /* a range outside the array (undefined in Warp) is cut to it, so
       * the search never reads outside */
      buf_printf(b, "%s int32_t %s(%s a, int32_t lo, int32_t end, %s v) {\n"
                    "  int32_t hi = end - 1;\n"
                    "  if (lo < 0) lo = 0;\n"
                    "  if (hi > (int32_t)a.shape[0] - 1) hi = (int32_t)a.shape[0] - 1;\n",
                 Q, name, A, T);
    buf_puts(b, "  while (lo < hi) {\n    int32_t mid = lo + (hi - lo) / 2;\n"
                "    if (a.data[mid] < v) lo = mid + 1; else hi = mid;\n"
                "  }\n  return lo;\n}\n");
    return true;
  }
  }
  return sample_helper(E, b, bi, name);
}

/* ---------------------------------------------------------------- noise */

/* Note [vulkan array parameters]: a helper that hands a small array to
 * another (Perlin noise's lattice cell and gradients, the Jacobi
 * iteration's matrix entries and quaternion, linalg.c) takes a pointer to
 * its first element on C, CUDA and OpenCL.  GLSL has no pointers, and the
 * vulkan rewriter's `T *p` -> `inout T p` (Note [GLSL through common.c])
 * makes one value of it, which cannot be indexed; so on Vulkan such a
 * parameter is spelled `inout T p[N]`, the array itself, copied in and
 * out by value.  That is C's meaning as long as no two arguments of a call
 * share memory, which holds for each of these calls, and the copies are
 * of at most 6 elements.  A null pointer has no spelling there either:
 * k_perlinD's optional gradient is a flag and an array on Vulkan. */
const char *emit_array_param(Emit *E, const char *T, const char *name, int n) {
  if (E->T->id == KERN_TARGET_VULKAN)
    return arena_printf(E->C, "inout %s %s[%d]", T, name, n);
  return arena_printf(E->C, "%s *%s", T, name);
}

/* Note [Perlin noise]: Warp's noise.h, restated.  A position splits into
 * its lattice cell (lo = floor, hi = lo + 1; wp.pnoise takes both modulo
 * the periods with C's %) and its fraction d.  Corner m of the cell (bit k
 * of m set: hi along axis k) gets a gradient from a PCG state seeded by
 * hashing the corner: c0 * 73856093 for 1-d, else (c0 * 73856093) ^
 * (c1 * 19349663) ^ ... ^ (c_last * p_last + seed) with the primes
 * 73856093, 19349663, 53471161, 10000019 (C precedence: the seed is added
 * to the last product before the xor).  The 1-d gradient is
 * randf(s, -1, 1); in 2-4 dimensions it is the normalised
 * sample_unit_square / cube / hypercube.  A corner's value is its offset
 * (d, minus 1 along the hi axes) dotted with the gradient, and the values
 * are blended axis by axis, x first, with the quintic smootherstep
 * S(t) = t^3 (t (6t - 15) + 10): (a1 - a0) S(t) + a0.  The gradient that
 * wp.curlnoise needs is carried through the same blend, plus (a1 - a0)
 * S'(t) e_k, S'(t) = 30 t^2 (t (t - 2) + 1).  Every float32 operation is
 * Warp's, in Warp's order, so the C target agrees to the bit.
 *
 * The autodiff derivatives (Note [noise adjoints] in ir/adjoint.c) reuse
 * both: BI_NOISE_GRAD is wp.noise's or pnoise's body returning that
 * gradient, and curlnoise's Jacobian comes from k_perlin_hessD, the
 * Hessian of one field carried through the blends as Warp composes it:
 * each blend of A and B along axis k with S, S' and S''(t) = 60 t (t (2t
 * - 3) + 1) gives value A + (B - A) S, gradient A' + (B' - A') S plus
 * (B - A) S' e_k, and Hessian A'' + (B'' - A'') S plus (B' - A')_i S' at
 * (i, k) and at (k, i) plus (B - A) S'' at (k, k); the corners' Hessians
 * are zero. */
static const char *perlin_helper(Emit *E, int D) {
  const char *name = arena_printf(E->C, "k_perlin%d", D);
  if (!emit_need(E, name))
    return name;
  const char *Q = E->T->fn_qual, *rf = randf1(E), *r3 = randf3(E);
  const char *sq = mathfn(E, "sqrt", KERN_SCALAR_FLOAT32);
  /* Built aside and added whole, so that the compact form's guard
   * (emit_pre) covers the corner function too. */
  Buf pb;
  buf_init(&pb, E->C);
  Buf *b = &pb;
  /* the gradient of one corner */
  buf_printf(b, "%s void k_perlin_corner%d(uint32_t seed, %s, %s) {\n", Q, D,
             emit_array_param(E, "int32_t", "c", D),
             emit_array_param(E, "float", "g", D));
  if (D == 1) {
    buf_printf(b, "  uint32_t idx = (uint32_t)c[0] * 73856093u + seed;\n"
                  "  g[0] = %s(&idx, -1.0f, 1.0f);\n}\n", r3);
  } else {
    static const char *const p[] = {"73856093u", "19349663u", "53471161u",
                                    "10000019u"};
    buf_puts(b, "  uint32_t idx = ");
    for (int k = 0; k < D; k++)
      buf_printf(b, "%s(uint32_t)c[%d] * %s%s", k ? " ^ " : "", k, p[k],
                 k == D - 1 ? " + seed" : "");
    buf_printf(b, ";\n  for (int k = 0; k < %d; k++) g[k] = %s(&idx) - 0.5f;\n"
                  "  float l = %s(%s", D, rf, sq, D == 4 ? "0.0f + " : "");
    for (int k = 0; k < D; k++)
      buf_printf(b, "%sg[%d] * g[%d]", k ? " + " : "", k, k);
    buf_printf(b, ");\n  for (int k = 0; k < %d; k++) g[k] = l > 0.0f ? g[k] / l : 0.0f;\n}\n",
               D);
  }
  /* value, and with gr != 0 (Vulkan: want) the gradient, at the cell
   * lo/hi, fraction d (Note [vulkan array parameters]) */
  int M = 1 << D;
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  const char *G = vk ? "want" : "gr";
  /* corner m is hi along axis k (GLSL takes no int as a condition) */
  const char *H = vk ? "((m >> k) & 1) != 0" : "(m >> k) & 1";
  buf_printf(b, "%s float %s(uint32_t seed, %s, %s, %s, %s%s) {\n", Q, name,
             emit_array_param(E, "int32_t", "lo", D),
             emit_array_param(E, "int32_t", "hi", D),
             emit_array_param(E, "float", "d", D), vk ? "bool want, " : "",
             emit_array_param(E, "float", "gr", D));
  buf_printf(b,
             "  float v[%d], gv[%d][%d];\n"
             "  for (int m = 0; m < %d; m++) {\n"
             "    int32_t c[%d]; float o[%d];\n"
             "    for (int k = 0; k < %d; k++) {\n"
             "      c[k] = %s ? hi[k] : lo[k];\n"
             "      o[k] = %s ? d[k] - 1.0f : d[k];\n"
             "    }\n"
             "    k_perlin_corner%d(seed, c, gv[m]);\n",
             M, M, D, M, D, D, D, H, H, D);
  /* Warp's value path sums o.g from its first product; the gradient path
   * calls dot(), which for 4-vectors starts from 0 */
  buf_printf(b, "    v[m] = %s ? ", G);
  if (D == 4)
    buf_puts(b, "0.0f + ");
  for (int k = 0; k < D; k++)
    buf_printf(b, "%so[%d] * gv[m][%d]", k ? " + " : "", k, k);
  buf_puts(b, " : ");
  for (int k = 0; k < D; k++)
    buf_printf(b, "%so[%d] * gv[m][%d]", k ? " + " : "", k, k);
  buf_printf(b, ";\n  }\n"
                "  for (int k = 0; k < %d; k++) {\n"
                "    float t = d[k];\n"
                "    float s = t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);\n"
                "    float ds = 30.0f * t * t * (t * (t - 2.0f) + 1.0f);\n"
                "    for (int m = 0; m < %d; m += 2 << k) {\n"
                "      int n = m + (1 << k);\n"
                "      if (%s) {\n"
                "        float q = (v[n] - v[m]) * ds;\n"
                "        for (int j = 0; j < %d; j++)\n"
                "          gv[m][j] = (gv[n][j] - gv[m][j]) * s + q * (j == k ? 1.0f : 0.0f) + gv[m][j];\n"
                "      }\n"
                "      v[m] = (v[n] - v[m]) * s + v[m];\n"
                "    }\n"
                "  }\n"
                "  if (%s) for (int j = 0; j < %d; j++) gr[j] = gv[0][j];\n"
                "  return v[0];\n}\n", D, M, G, D, G, D);
  emit_pre(E, name, "%s", pb.p);
  return name;
}

/* k_perlin_hessD(seed, lo, hi, d, h, g): the Hessian of one field at the
 * cell lo/hi, fraction d, row by row into h, and the gradient composed
 * with it into g (Note [Perlin noise]). */
static const char *perlin_hess(Emit *E, int D) {
  const char *name = arena_printf(E->C, "k_perlin_hess%d", D);
  perlin_helper(E, D); /* k_perlin_cornerD */
  if (!emit_need(E, name))
    return name;
  int M = 1 << D, N = D * D;
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  const char *H = vk ? "((m >> k) & 1) != 0" : "(m >> k) & 1";
  Buf pb;
  buf_init(&pb, E->C);
  Buf *b = &pb;
  buf_printf(b, "%s void %s(uint32_t seed, %s, %s, %s, %s, %s) {\n",
             E->T->fn_qual, name, emit_array_param(E, "int32_t", "lo", D),
             emit_array_param(E, "int32_t", "hi", D),
             emit_array_param(E, "float", "d", D),
             emit_array_param(E, "float", "h", N),
             emit_array_param(E, "float", "g", D));
  buf_printf(b,
             "  float v[%d], gv[%d][%d], hv[%d][%d];\n"
             "  for (int m = 0; m < %d; m++) {\n"
             "    int32_t c[%d]; float o[%d];\n"
             "    for (int k = 0; k < %d; k++) {\n"
             "      c[k] = %s ? hi[k] : lo[k];\n"
             "      o[k] = %s ? d[k] - 1.0f : d[k];\n"
             "    }\n"
             "    k_perlin_corner%d(seed, c, gv[m]);\n"
             "    v[m] = %s",
             M, M, D, M, N, M, D, D, D, H, H, D, D == 4 ? "0.0f + " : "");
  for (int k = 0; k < D; k++)
    buf_printf(b, "%so[%d] * gv[m][%d]", k ? " + " : "", k, k);
  buf_printf(b, ";\n"
                "    for (int j = 0; j < %d; j++) hv[m][j] = 0.0f;\n"
                "  }\n"
                "  for (int k = 0; k < %d; k++) {\n"
                "    float t = d[k];\n"
                "    float s = t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);\n"
                "    float s1 = 30.0f * t * t * (t * (t - 2.0f) + 1.0f);\n"
                "    float s2 = 60.0f * t * (t * (t * 2.0f - 3.0f) + 1.0f);\n"
                "    for (int m = 0; m < %d; m += 2 << k) {\n"
                "      int n = m + (1 << k);\n"
                "      float dv = v[n] - v[m], dg[%d];\n"
                "      v[m] = v[m] + dv * s;\n"
                "      for (int i = 0; i < %d; i++) {\n"
                "        dg[i] = gv[n][i] - gv[m][i];\n"
                "        gv[m][i] = gv[m][i] + dg[i] * s;\n"
                "      }\n"
                "      gv[m][k] = gv[m][k] + dv * s1;\n"
                "      for (int j = 0; j < %d; j++)\n"
                "        hv[m][j] = hv[m][j] + (hv[n][j] - hv[m][j]) * s;\n"
                "      for (int i = 0; i < %d; i++) {\n"
                "        hv[m][i * %d + k] = hv[m][i * %d + k] + dg[i] * s1;\n"
                "        hv[m][k * %d + i] = hv[m][k * %d + i] + dg[i] * s1;\n"
                "      }\n"
                "      hv[m][k * %d + k] = hv[m][k * %d + k] + dv * s2;\n"
                "    }\n"
                "  }\n"
                "  for (int j = 0; j < %d; j++) h[j] = hv[0][j];\n"
                "  for (int j = 0; j < %d; j++) g[j] = gv[0][j];\n}\n",
             N, D, M, D, D, N, D, D, D, D, D, D, D, N, D);
  emit_pre(E, name, "%s", pb.p);
  return name;
}

/* BI_CURLNOISE_ADJ(seed, x, octaves, lacunarity, gain, w): J^T w, J the
 * Jacobian of wp.curlnoise in x, and BI_CURLNOISE_TAN(..., v, dl, dg):
 * the derivative along v in x, dl in lacunarity and dg in gain (Note
 * [noise adjoints] in ir/adjoint.c).  Octave i adds amp C(g(freq x)), g
 * a field's gradient and C its turn or curl; its Jacobian in the point is
 * rows of the fields' Hessians: in 2-d (-H[1][c], H[0][c]) of the one
 * field, in 3-d and 4-d (H3[1][c] - H2[2][c], H1[2][c] - H3[0][c],
 * H2[0][c] - H1[1][c]) of the three.  The adjoint takes amp freq times
 * those, summed per component in Warp's order; the tangent moves the
 * point by freq v + dfreq x and adds damp C(g), dfreq and damp the
 * derivatives of freq = lacunarity^i and amp = gain^i. */
static void curl_deriv_helper(Emit *E, Buf *b, int bi, int D,
                              const Type **args, const Type *ret,
                              const char *name) {
  const char *Q = E->T->fn_qual, *H = perlin_hess(E, D);
  const char *fl = mathfn(E, "floor", KERN_SCALAR_FLOAT32);
  const char *X = emit_ctype(E, args[1]), *W = emit_ctype(E, args[5]);
  const char *R = emit_ctype(E, ret);
  int F = D == 2 ? 1 : 3, N = D * D;
  bool adj = bi == BI_CURLNOISE_ADJ;
  randf1(E); /* k_pcg */
  buf_printf(b, "%s %s %s(uint32_t seed, %s x, uint32_t octaves, float lacunarity, float gain, %s w%s) {\n"
                "  %s r;\n  float freq = 1.0f, amp = 1.0f%s;\n", Q, R, name, X, W,
             adj ? "" : ", float dl, float dg", R,
             adj ? "" : ", dfreq = 0.0f, damp = 0.0f");
  for (int k = 0; k < ret->rows; k++)
    buf_printf(b, "  r.c[%d] = 0.0f;\n", k);
  buf_printf(b, "  for (int i = 0; (uint32_t)i < octaves; i++) {\n"
                "    int32_t lo[%d], hi[%d];\n"
                "    float d[%d], h0[%d], g0[%d]%s;\n"
                "    for (int k = 0; k < %d; k++) {\n"
                "      float pt = freq * x.c[k];\n"
                "      d[k] = pt - %s(pt);\n"
                "      lo[k] = (int32_t)%s(pt);\n"
                "      hi[k] = lo[k] + 1;\n"
                "    }\n"
                "    %s(seed, lo, hi, d, h0, g0);\n", D, D, D, N, D,
             F == 3 ? arena_printf(E->C, ", h1[%d], g1[%d], h2[%d], g2[%d]", N,
                                   D, N, D) : "", D, fl, fl, H);
  if (F == 3)
    buf_printf(b, "    seed = k_pcg(seed + k_pcg(10019689u));\n"
                  "    %s(seed, lo, hi, d, h1, g1);\n"
                  "    seed = k_pcg(seed + k_pcg(13112221u));\n"
                  "    %s(seed, lo, hi, d, h2, g2);\n", H, H);
  if (adj)
    buf_puts(b, "    float kf = amp * freq;\n");
  buf_printf(b, "    for (int c = 0; c < %d; c++) {\n", D);
  if (F == 1)
    buf_printf(b, "      float j0 = -h0[%d + c], j1 = h0[c];\n", D);
  else
    buf_printf(b, "      float j0 = h2[%d + c] - h1[%d + c];\n"
                  "      float j1 = h0[%d + c] - h2[c];\n"
                  "      float j2 = h1[c] - h0[%d + c];\n", D, 2 * D, 2 * D, D);
  if (adj) {
    buf_printf(b, "      r.c[c] = r.c[c] + kf * (w.c[0] * j0 + w.c[1] * j1%s);\n"
                  "    }\n", F == 3 ? " + w.c[2] * j2" : "");
  } else {
    buf_puts(b, "      float dp = freq * w.c[c] + dfreq * x.c[c];\n");
    for (int k = 0; k < ret->rows; k++)
      buf_printf(b, "      r.c[%d] = r.c[%d] + amp * (j%d * dp);\n", k, k, k);
    buf_puts(b, "    }\n");
    if (F == 1)
      buf_puts(b, "    r.c[0] = r.c[0] - damp * g0[1];\n"
                  "    r.c[1] = r.c[1] + damp * g0[0];\n");
    else
      buf_puts(b, "    r.c[0] = r.c[0] + damp * (g2[1] - g1[2]);\n"
                  "    r.c[1] = r.c[1] + damp * (g0[2] - g2[0]);\n"
                  "    r.c[2] = r.c[2] + damp * (g1[0] - g0[1]);\n");
    buf_puts(b, "    damp = damp * gain + amp * dg;\n"
                "    dfreq = dfreq * lacunarity + freq * dl;\n");
  }
  buf_puts(b, "    amp *= gain;\n"
              "    freq *= lacunarity;\n"
              "  }\n  return r;\n}\n");
}

/* wp.noise, wp.pnoise, wp.curlnoise (Note [Perlin noise]) and their
 * derivatives (Note [noise adjoints] in ir/adjoint.c) */
static bool noise_helper(Emit *E, Buf *b, int bi, int n, const Type **args,
                         const Type *ret, const char *name) {
  if (bi != BI_NOISE && bi != BI_PNOISE && bi != BI_CURLNOISE &&
      bi != BI_NOISE_GRAD && bi != BI_CURLNOISE_ADJ && bi != BI_CURLNOISE_TAN)
    return false;
  int D = args[1]->kind == TY_SCALAR ? 1 : args[1]->rows;
  if (bi == BI_CURLNOISE_ADJ || bi == BI_CURLNOISE_TAN) {
    curl_deriv_helper(E, b, bi, D, args, ret, name);
    return true;
  }
  const char *Q = E->T->fn_qual, *P = perlin_helper(E, D);
  const char *fl = mathfn(E, "floor", KERN_SCALAR_FLOAT32);
  const char *X = emit_ctype(E, args[1]);
  const char *x = D == 1 ? "x" : "x.c[k]";
  /* Note [vulkan array parameters]: no null gradient pointer there */
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  if (bi != BI_CURLNOISE) {
    /* noise, pnoise (their periods after x), or the gradient of either */
    bool grad = bi == BI_NOISE_GRAD, per = n > 2;
    buf_printf(b, "%s %s %s(uint32_t seed, %s x", Q, grad ? X : "float",
               name, X);
    for (int k = 0; per && k < D; k++)
      buf_printf(b, ", int32_t p%d", k);
    buf_printf(b, ") {\n  int32_t lo[%d], hi[%d]; float d[%d]", D, D, D);
    if (vk || grad)
      buf_printf(b, ", g[%d]", D); /* the gradient, computed for grad */
    buf_puts(b, ";\n");
    if (per) {
      buf_puts(b, "  int32_t p[] = {");
      for (int k = 0; k < D; k++)
        buf_printf(b, "%sp%d", k ? ", " : "", k);
      buf_puts(b, "};\n");
    }
    buf_printf(b, "  for (int k = 0; k < %d; k++) {\n"
                  "    d[k] = %s - %s(%s);\n"
                  "    lo[k] = (int32_t)%s(%s);\n", D, x, fl, x, fl, x);
    if (per)
      /* C's remainder, as Warp's mod() (on Vulkan k_rem: GLSL leaves % of
       * a negative operand undefined); a zero period gives 0 rather than
       * a division fault */
      buf_puts(b, vk ? "    lo[k] = p[k] != 0 ? k_rem(lo[k], p[k]) : 0;\n"
                       "    hi[k] = p[k] != 0 ? k_rem(lo[k] + 1, p[k]) : 0;\n"
                     : "    lo[k] = p[k] ? lo[k] % p[k] : 0;\n"
                       "    hi[k] = p[k] ? (lo[k] + 1) % p[k] : 0;\n");
    else
      buf_puts(b, "    hi[k] = lo[k] + 1;\n");
    if (!grad) {
      buf_printf(b, "  }\n  return %s(seed, lo, hi, d, %s);\n}\n", P,
                 vk ? "false, g" : "0");
      return true;
    }
    buf_printf(b, "  }\n  %s(seed, lo, hi, d, %sg);\n", P, vk ? "true, " : "");
    if (D == 1) {
      buf_puts(b, "  return g[0];\n}\n");
      return true;
    }
    buf_printf(b, "  %s r;\n", X);
    for (int k = 0; k < D; k++)
      buf_printf(b, "  r.c[%d] = g[%d];\n", k, k);
    buf_puts(b, "  return r;\n}\n");
    return true;
  }
  /* curlnoise: octaves of the gradient field; in 3 and 4 dimensions
   * three fields, the seed advanced by rand_init(seed, 10019689) and
   * rand_init(seed, 13112221) between them, and across octaves */
  const char *R = emit_ctype(E, ret);
  int F = D == 2 ? 1 : 3;
  randf1(E); /* k_pcg */
  /* GLSL's initializer lists name every element */
  const char *zero = vk ? "{{0.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 0.0f}, "
                          "{0.0f, 0.0f, 0.0f, 0.0f}}"
                        : "{{0}}";
  buf_printf(b, "%s %s %s(uint32_t seed, %s x, uint32_t octaves, float lacunarity, float gain) {\n"
                "  float sum[3][4] = %s, freq = 1.0f, amp = 1.0f;\n"
                "  for (int i = 0; (uint32_t)i < octaves; i++) {\n"
                "    int32_t lo[%d], hi[%d]; float d[%d], g[%d];\n"
                "    for (int k = 0; k < %d; k++) {\n"
                "      float pt = freq * x.c[k];\n"
                "      d[k] = pt - %s(pt);\n"
                "      lo[k] = (int32_t)%s(pt);\n"
                "      hi[k] = lo[k] + 1;\n"
                "    }\n"
                "    for (int f = 0; f < %d; f++) {\n"
                "      if (f == 1) seed = k_pcg(seed + k_pcg(10019689u));\n"
                "      if (f == 2) seed = k_pcg(seed + k_pcg(13112221u));\n"
                "      %s(seed, lo, hi, d, %sg);\n"
                "      for (int k = 0; k < %d; k++) sum[f][k] = sum[f][k] + amp * g[k];\n"
                "    }\n"
                "    amp *= gain;\n"
                "    freq *= lacunarity;\n"
                "  }\n  %s r;\n", Q, R, name, X, zero, D, D, D, vk ? D : 4, D, fl, fl, F,
             P, vk ? "true, " : "", D, R);
  if (D == 2)
    buf_puts(b, "  r.c[0] = -sum[0][1];\n  r.c[1] = sum[0][0];\n");
  else
    buf_puts(b, "  r.c[0] = sum[2][1] - sum[1][2];\n"
                "  r.c[1] = sum[0][2] - sum[2][0];\n"
                "  r.c[2] = sum[1][0] - sum[0][1];\n");
  buf_puts(b, "  return r;\n}\n");
  return true;
}

/* ---------------------------------------------------------------- geometry */

/* "Q RT name(A0 a, A1 b, ...) {" */
static void open_fn(Emit *E, Buf *b, const Type *ret, const char *name, int n,
                    const Type **args) {
  static const char *const pn[] = {"a", "b", "c", "d", "e"};
  buf_printf(b, "%s %s %s(", E->T->fn_qual, emit_ctype(E, ret), name);
  for (int i = 0; i < n; i++)
    buf_printf(b, "%s%s %s", i ? ", " : "", emit_ctype(E, args[i]), pn[i]);
  buf_puts(b, ") {\n");
}

static const char *help1(Emit *E, int bi, const Type *ret, const Type *a) {
  return emit_helper(E, bi, ret, 1, (const Type *[]){a});
}

static const char *help2(Emit *E, int bi, const Type *ret, const Type *a,
                         const Type *b) {
  return emit_helper(E, bi, ret, 2, (const Type *[]){a, b});
}

/* Warp's quat_from_matrix (quat.h): from the trace when it is not
 * negative, else from the largest diagonal entry, then normalised. */
static void quat_from_matrix_body(Emit *E, Buf *b, const Type *q,
                                  const char *T) {
  const char *sq = mathfn(E, "sqrt", q->sc);
  const char *nz = help1(E, BI_NORMALIZE, q, q);
  buf_printf(b,
             "  %s tr = a.m[0][0] + a.m[1][1] + a.m[2][2];\n"
             "  %s x = 0, y = 0, z = 0, w = 0, h;\n"
             "  if (tr >= (%s)0) {\n"
             "    h = %s(tr + (%s)1); w = (%s)0.5 * h; h = (%s)0.5 / h;\n"
             "    x = (a.m[2][1] - a.m[1][2]) * h;\n"
             "    y = (a.m[0][2] - a.m[2][0]) * h;\n"
             "    z = (a.m[1][0] - a.m[0][1]) * h;\n"
             "  } else {\n"
             "    int md = 0;\n"
             "    if (a.m[1][1] > a.m[0][0]) md = 1;\n"
             "    if (a.m[2][2] > a.m[md][md]) md = 2;\n"
             "    if (md == 0) {\n"
             "      h = %s((a.m[0][0] - (a.m[1][1] + a.m[2][2])) + (%s)1); x = (%s)0.5 * h; h = (%s)0.5 / h;\n"
             "      y = (a.m[0][1] + a.m[1][0]) * h;\n"
             "      z = (a.m[2][0] + a.m[0][2]) * h;\n"
             "      w = (a.m[2][1] - a.m[1][2]) * h;\n"
             "    } else if (md == 1) {\n"
             "      h = %s((a.m[1][1] - (a.m[2][2] + a.m[0][0])) + (%s)1); y = (%s)0.5 * h; h = (%s)0.5 / h;\n"
             "      z = (a.m[1][2] + a.m[2][1]) * h;\n"
             "      x = (a.m[0][1] + a.m[1][0]) * h;\n"
             "      w = (a.m[0][2] - a.m[2][0]) * h;\n"
             "    } else {\n"
             "      h = %s((a.m[2][2] - (a.m[0][0] + a.m[1][1])) + (%s)1); z = (%s)0.5 * h; h = (%s)0.5 / h;\n"
             "      x = (a.m[2][0] + a.m[0][2]) * h;\n"
             "      y = (a.m[1][2] + a.m[2][1]) * h;\n"
             "      w = (a.m[1][0] - a.m[0][1]) * h;\n"
             "    }\n"
             "  }\n"
             "  %s r; r.c[0] = x; r.c[1] = y; r.c[2] = z; r.c[3] = w;\n"
             "  return %s(r);\n",
             T, T, T, sq, T, T, T, sq, T, T, T, sq, T, T, T, sq, T, T, T,
             emit_ctype(E, q), nz);
}

/* Warp's math.py quat_to_euler, restated: the angles of the rotation
 * about the fixed axes i, j, k (0-based) from the scalar-first
 * components, with the Levi-Civita sign of the axis order. */
static void quat_to_euler_body(Emit *E, Buf *b) {
  const char *ac = help1(E, BI_ACOS, sc_t(KERN_SCALAR_FLOAT32),
                         sc_t(KERN_SCALAR_FLOAT32));
  const char *at = mathfn(E, "atan2", KERN_SCALAR_FLOAT32);
  const char *ab = mathfn(E, "fabs", KERN_SCALAR_FLOAT32);
  buf_printf(b,
             "  float q0 = a.c[3], q1 = a.c[0], q2 = a.c[1], q3 = a.c[2];\n"
             "  int32_t i = b + 1, j = c + 1, k = d + 1;\n"
             "  %s proper = i == k;\n"
             "  if (proper) k = 6 - i - j;\n"
             "  float e = (float)((i - j) * (j - k) * (k - i)) / 2.0f;\n"
             "  float qs[4] = {q0, q1, q2, q3};\n"
             "  int ii = i >= 1 && i <= 3 ? i : 1, jj = j >= 1 && j <= 3 ? j : 1, kk = k >= 1 && k <= 3 ? k : 1;\n"
             "  float aa = q0, bb = qs[ii], cc = qs[jj], dd = qs[kk] * e;\n"
             "  if (!proper) {\n"
             "    aa -= qs[jj]; bb += qs[kk] * e; cc += q0; dd -= qs[ii];\n"
             "  }\n"
             "  float t2 = %s(2.0f * (aa * aa + bb * bb) / (aa * aa + bb * bb + cc * cc + dd * dd) - 1.0f);\n"
             "  float tp = %s(bb, aa), tm = %s(dd, cc);\n"
             "  float t1 = 0.0f, t3 = 0.0f;\n"
             "  if (%s(t2) < 1e-6f) t3 = 2.0f * tp - t1;\n"
             "  else if (%s(t2 - 3.14159265358979323846f) < 1e-6f) t3 = 2.0f * tm + t1;\n"
             "  else { t1 = tp - tm; t3 = tp + tm; }\n"
             "  if (!proper) { t2 -= 1.57079632679489661923f; t3 *= e; }\n"
             "  float ex = t1, ey = t2, ez = t3;\n"
             "  if (i == 2) { ex = t2; ey = t1; } else if (i == 3) { ex = t3; ez = t1; }\n"
             "  if (j == 1) ex = t2; else if (j == 2) ey = t2; else ez = t2;\n"
             "  if (k == 1) ex = t3; else if (k == 2) ey = t3; else ez = t3;\n"
             "  k_v3f32 r; r.c[0] = ex; r.c[1] = ey; r.c[2] = ez;\n"
             "  return r;\n", E->T->id == KERN_TARGET_VULKAN ? "bool" : "int", ac, at, at, ab, ab);
}

/* Vector norms, quaternion and transform helpers (Warp's quat.h, mat.h
 * and math.py, whose float32 formulas are followed operation for
 * operation). */
static bool geom_helper(Emit *E, Buf *b, int bi, const Type *ret, int n,
                        const Type **args, const char *name) {
  const Type *t0 = args[0];
  kern_scalar sc = t0->sc;
  const char *T = emit_ctype(E, sc_t(sc)), *RT = emit_ctype(E, ret);
  const Type *st = sc_t(sc), *v3 = ty_vec(E->C, sc, 3), *q = ty_quat(E->C, sc);
  const Type *m33 = ty_mat(E->C, sc, 3, 3);
  const char *V3 = emit_ctype(E, v3), *Qt = emit_ctype(E, q);
  switch (bi) {
  case BI_NORM_L1: case BI_NORM_HUBER: case BI_NORM_PSEUDO_HUBER:
  case BI_SMOOTH_NORMALIZE: case BI_SKEW: case BI_DDOT:
  case BI_QUAT_FROM_MATRIX: case BI_QUAT_RPY: case BI_QUAT_TO_RPY:
  case BI_QUAT_SLERP: case BI_QUAT_TWIST: case BI_QUAT_TWIST_ANGLE:
  case BI_QUAT_TWIST_ANGLE_SIGNED: case BI_QUAT_FROM_EULER:
  case BI_QUAT_TO_EULER: case BI_QUAT_TO_AXIS_ANGLE:
  case BI_TRANSFORM_TO_MATRIX: case BI_TRANSFORM_FROM_MATRIX:
  case BI_TRANSFORM_COMPOSE: case BI_TRANSFORM_DECOMPOSE:
  case BI_TRANSFORM_SET_TRANSLATION_COPY: case BI_TRANSFORM_SET_ROTATION_COPY:
    break;
  default:
    return false;
  }
  const char *sq = mathfn(E, "sqrt", sc), *si = mathfn(E, "sin", sc);
  const char *co = mathfn(E, "cos", sc), *at = mathfn(E, "atan2", sc);
  const char *ab = mathfn(E, "fabs", sc);
  Buf body;
  buf_init(&body, E->C);
  Buf *o = &body;
  switch (bi) {
  case BI_NORM_L1:
    buf_printf(o, "  %s s = 0;\n  for (int k = 0; k < %d; k++) s = s + %s(a.c[k]);\n"
                  "  return s;\n", T, t0->rows, ab);
    break;
  case BI_NORM_HUBER: case BI_NORM_PSEUDO_HUBER: case BI_SMOOTH_NORMALIZE: {
    const char *dt = help2(E, BI_DOT, st, t0, t0);
    if (bi == BI_NORM_HUBER)
      buf_printf(o, "  %s d = %s(a, a);\n  if (d <= b * b) return (%s)0.5 * d;\n"
                    "  return b * (%s(d) - (%s)0.5 * b);\n", T, dt, T, sq, T);
    else if (bi == BI_NORM_PSEUDO_HUBER)
      buf_printf(o, "  %s d = %s(a, a);\n  return b * %s((%s)1 + d / (b * b));\n",
                 T, dt, sq, T);
    else
      buf_printf(o, "  %s h = %s(a, b);\n  %s r;\n"
                    "  for (int k = 0; k < %d; k++) r.c[k] = a.c[k] / h;\n  return r;\n",
                 T, help2(E, BI_NORM_PSEUDO_HUBER, st, t0, st), RT, t0->rows);
    break;
  }
  case BI_SKEW:
    buf_printf(o, "  %s r;\n"
                  "  r.m[0][0] = 0; r.m[0][1] = -a.c[2]; r.m[0][2] = a.c[1];\n"
                  "  r.m[1][0] = a.c[2]; r.m[1][1] = 0; r.m[1][2] = -a.c[0];\n"
                  "  r.m[2][0] = -a.c[1]; r.m[2][1] = a.c[0]; r.m[2][2] = 0;\n"
                  "  return r;\n", RT);
    break;
  case BI_DDOT:
    /* Warp accumulates with fused multiply-adds (mat.h muladd) */
    buf_printf(o, "  %s r = 0;\n  for (int i = 0; i < %d; i++)\n"
                  "    for (int j = 0; j < %d; j++) r = %s(a.m[i][j], b.m[i][j], r);\n"
                  "  return r;\n", T, t0->rows, t0->cols, mathfn(E, "fma", sc));
    break;
  case BI_QUAT_FROM_MATRIX:
    quat_from_matrix_body(E, o, ret, T);
    break;
  case BI_QUAT_RPY:
    buf_printf(o, "  %s cy = %s(c * (%s)0.5), sy = %s(c * (%s)0.5);\n"
                  "  %s cr = %s(a * (%s)0.5), sr = %s(a * (%s)0.5);\n"
                  "  %s cp = %s(b * (%s)0.5), sp = %s(b * (%s)0.5);\n"
                  "  %s r;\n"
                  "  r.c[3] = (cy * cr * cp + sy * sr * sp);\n"
                  "  r.c[0] = (cy * sr * cp - sy * cr * sp);\n"
                  "  r.c[1] = (cy * cr * sp + sy * sr * cp);\n"
                  "  r.c[2] = (sy * cr * cp - cy * sr * sp);\n  return r;\n",
               T, co, T, si, T, T, co, T, si, T, T, co, T, si, T, RT);
    break;
  case BI_QUAT_TO_RPY: {
    const char *cl = emit_helper(E, BI_CLAMP, st, 3, (const Type *[]){st, st, st});
    const char *as = help1(E, BI_ASIN, st, st);
    buf_printf(o, "  float x = a.c[0], y = a.c[1], z = a.c[2], w = a.c[3];\n"
                  "  %s r;\n"
                  "  r.c[0] = %s(2.0f * (w * x + y * z), 1.0f - 2.0f * (x * x + y * y));\n"
                  "  r.c[1] = %s(%s(2.0f * (w * y - z * x), -1.0f, 1.0f));\n"
                  "  r.c[2] = %s(2.0f * (w * z + x * y), 1.0f - 2.0f * (y * y + z * z));\n"
                  "  return r;\n", RT, at, as, cl, at);
    break;
  }
  case BI_QUAT_TO_AXIS_ANGLE: case BI_QUAT_SLERP: {
    /* Warp's quat_to_axis_angle: the normalised vector part, negated when
     * w < 0, and 2 atan2(|v|, |w|); slerp turns q0 by t times the angle
     * of q0^-1 q1 about its axis */
    const char *nz = help1(E, BI_NORMALIZE, v3, v3);
    const char *ln = help1(E, BI_LENGTH, st, v3);
    const char *mu = help2(E, BI_MUL, q, q, q);
    const char *pre = bi == BI_QUAT_SLERP ? "qq" : "a";
    if (bi == BI_QUAT_SLERP)
      buf_printf(o, "  %s qq = %s(%s(a), b);\n", Qt, mu, help1(E, BI_QUAT_INVERSE, q, q));
    buf_printf(o, "  %s v; v.c[0] = %s.c[0]; v.c[1] = %s.c[1]; v.c[2] = %s.c[2];\n"
                  "  %s ax = %s(v);\n"
                  "  if (%s.c[3] < (%s)0) for (int k = 0; k < 3; k++) ax.c[k] = -ax.c[k];\n"
                  "  %s ang = (%s)2 * %s(%s(v), %s(%s.c[3]));\n",
               V3, pre, pre, pre, V3, nz, pre, T, T, T, at, ln, ab, pre);
    if (bi == BI_QUAT_SLERP)
      buf_printf(o, "  return %s(a, %s(ax, c * ang));\n", mu,
                 help2(E, BI_QUAT_FROM_AXIS_ANGLE, q, v3, st));
    else if (ret->kind == TY_VEC)
      buf_puts(o, "  (void)b; (void)ang;\n  return ax;\n");
    else
      buf_puts(o, "  (void)b; (void)ax;\n  return ang;\n");
    break;
  }
  case BI_QUAT_TWIST: case BI_QUAT_TWIST_ANGLE: case BI_QUAT_TWIST_ANGLE_SIGNED:
    /* math.py: the vector part's projection on the axis */
    buf_puts(o, "  float p = b.c[0] * a.c[0] + b.c[1] * a.c[1] + b.c[2] * a.c[2];\n");
    if (bi == BI_QUAT_TWIST)
      buf_printf(o, "  %s r;\n  for (int k = 0; k < 3; k++) r.c[k] = p * a.c[k];\n"
                    "  r.c[3] = b.c[3];\n  return %s(r);\n", RT,
                 help1(E, BI_NORMALIZE, q, q));
    else
      buf_printf(o, "  return 2.0f * %s(%s%s%s, b.c[3]);\n", at,
                 bi == BI_QUAT_TWIST_ANGLE ? ab : "", bi == BI_QUAT_TWIST_ANGLE ? "(p" : "p",
                 bi == BI_QUAT_TWIST_ANGLE ? ")" : "");
    break;
  case BI_QUAT_FROM_EULER: {
    /* math.py: q_k * (q_j * q_i), each a half-angle rotation about its
     * axis (0 x, 1 y, any other z); the angle is e[i] with Python's
     * negative indices, wrapped so a bad index cannot read past e */
    const char *mu = help2(E, BI_MUL, q, q, q);
    buf_printf(o, "  int32_t ix[3] = {b, c, d};\n  %s r[3];\n"
                  "  for (int n = 0; n < 3; n++) {\n"
                  "    int32_t ax = ix[n] == 0 ? 0 : ix[n] == 1 ? 1 : 2;\n"
                  "    float h = 0.5f * a.c[((ix[n] %% 3) + 3) %% 3];\n"
                  "    r[n].c[0] = 0.0f; r[n].c[1] = 0.0f; r[n].c[2] = 0.0f;\n"
                  "    r[n].c[ax] = %s(h); r[n].c[3] = %s(h);\n  }\n"
                  "  return %s(r[2], %s(r[1], r[0]));\n", Qt, si, co, mu, mu);
    break;
  }
  case BI_QUAT_TO_EULER:
    emit_ctype(E, ty_vec(E->C, KERN_SCALAR_FLOAT32, 3));
    quat_to_euler_body(E, o);
    break;
  case BI_TRANSFORM_TO_MATRIX: case BI_TRANSFORM_COMPOSE: {
    const char *qm = help1(E, BI_QUAT_TO_MATRIX, m33, q);
    if (bi == BI_TRANSFORM_TO_MATRIX)
      buf_printf(o, "  %s p; %s q;\n  for (int k = 0; k < 3; k++) p.c[k] = a.c[k];\n"
                    "  for (int k = 0; k < 4; k++) q.c[k] = a.c[3 + k];\n"
                    "  %s R = %s(q);\n  %s r;\n"
                    "  for (int i = 0; i < 3; i++) {\n"
                    "    for (int j = 0; j < 3; j++) r.m[i][j] = R.m[i][j];\n"
                    "    r.m[i][3] = p.c[i];\n  }\n",
                 V3, Qt, emit_ctype(E, m33), qm, RT);
    else
      buf_printf(o, "  %s R = %s(b);\n  %s r;\n"
                    "  for (int i = 0; i < 3; i++) {\n"
                    "    for (int j = 0; j < 3; j++) r.m[i][j] = c.c[j] * R.m[i][j];\n"
                    "    r.m[i][3] = a.c[i];\n  }\n", emit_ctype(E, m33), qm, RT);
    buf_puts(o, "  r.m[3][0] = 0; r.m[3][1] = 0; r.m[3][2] = 0; r.m[3][3] = 1;\n"
                "  return r;\n");
    break;
  }
  case BI_TRANSFORM_FROM_MATRIX: {
    const char *qf = help1(E, BI_QUAT_FROM_MATRIX, q, t0);
    buf_printf(o, "  %s q = %s(a);\n  %s r;\n"
                  "  for (int k = 0; k < 3; k++) r.c[k] = a.m[k][3];\n"
                  "  for (int k = 0; k < 4; k++) r.c[3 + k] = q.c[k];\n"
                  "  return r;\n", Qt, qf, RT);
    break;
  }
  case BI_TRANSFORM_DECOMPOSE: {
    /* math.py: scale = column lengths, rotation from the columns divided
     * by their (non-zero) lengths, position = the last column */
    const char *qf = help1(E, BI_QUAT_FROM_MATRIX, q, m33);
    buf_printf(o, "  %s s[3]; %s R;\n"
                  "  for (int j = 0; j < 3; j++) {\n"
                  "    s[j] = %s(a.m[0][j] * a.m[0][j] + a.m[1][j] * a.m[1][j] + a.m[2][j] * a.m[2][j]);\n"
                  "    for (int i = 0; i < 3; i++) R.m[i][j] = s[j] != (%s)0 ? a.m[i][j] / s[j] : a.m[i][j];\n"
                  "  }\n", T, emit_ctype(E, m33), sq, T);
    if (ret->quat)
      buf_printf(o, "  (void)b;\n  return %s(R);\n", qf);
    else
      buf_printf(o, "  %s r;\n  for (int k = 0; k < 3; k++) r.c[k] = b == 0 ? a.m[k][3] : s[k];\n"
                    "  return r;\n", RT);
    break;
  }
  case BI_TRANSFORM_SET_TRANSLATION_COPY: case BI_TRANSFORM_SET_ROTATION_COPY: {
    bool tr = bi == BI_TRANSFORM_SET_TRANSLATION_COPY;
    buf_printf(o, "  %s r = a;\n  for (int k = 0; k < %d; k++) r.c[%sk] = b.c[k];\n"
                  "  return r;\n", RT, tr ? 3 : 4, tr ? "" : "3 + ");
    break;
  }
  }
  open_fn(E, b, ret, name, n, args);
  buf_puts(b, body.p);
  buf_puts(b, "}\n");
  return true;
}

/* ---------------------------------------------------------------- intersection */

/* Warp's closest_point_edge_edge (intersect.h): the parameters s and t of
 * the closest points of segments p1 q1 and p2 q2 and their distance, as
 * (s, t, dist); a segment whose squared length is at most epsilon is a
 * point.  The 2x2 determinants a e - b b and b f - c e are Kahan's
 * difference of products: fma(a, b, -c d) + fma(-c, d, c d). */
static bool edge_helper(Emit *E, Buf *b, int bi, const Type *ret,
                        const Type **args, const char *name) {
  if (bi != BI_CLOSEST_POINT_EDGE_EDGE)
    return false;
  const Type *f = sc_t(KERN_SCALAR_FLOAT32);
  const char *cl = emit_helper(E, BI_CLAMP, f, 3, (const Type *[]){f, f, f});
  const char *fm = mathfn(E, "fma", KERN_SCALAR_FLOAT32);
  const char *sq = mathfn(E, "sqrt", KERN_SCALAR_FLOAT32);
  const char *V = emit_ctype(E, ret);
  if (emit_need(E, "k_diff_product_f32"))
    emit_pre(E, "k_diff_product_f32", "%s float k_diff_product_f32(float a, float b, float c, float d) {\n"
               "  float cd = c * d;\n  return %s(a, b, -cd) + %s(-c, d, cd);\n}\n",
               E->T->fn_qual, fm, fm);
  buf_printf(b,
             "%s %s %s(%s p1, %s q1, %s p2, %s q2, float eps) {\n"
             "  float d1[3], d2[3], r[3];\n"
             "  for (int k = 0; k < 3; k++) {\n"
             "    d1[k] = q1.c[k] - p1.c[k]; d2[k] = q2.c[k] - p2.c[k]; r[k] = p1.c[k] - p2.c[k];\n"
             "  }\n"
             "  float a = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2];\n"
             "  float e = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2];\n"
             "  float f = d2[0] * r[0] + d2[1] * r[1] + d2[2] * r[2];\n"
             "  float s = 0.0f, t = 0.0f;\n"
             "  %s dg1 = a <= eps, dg2 = e <= eps;\n"
             "  if (dg1 && dg2) {\n"
             "  } else if (dg1) {\n"
             "    t = %s(f / e, 0.0f, 1.0f);\n"
             "  } else if (dg2) {\n"
             "    s = %s(-(d1[0] * r[0] + d1[1] * r[1] + d1[2] * r[2]) / a, 0.0f, 1.0f);\n"
             "  } else {\n"
             "    float c = d1[0] * r[0] + d1[1] * r[1] + d1[2] * r[2];\n"
             "    float bb = d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2];\n"
             "    float den = k_diff_product_f32(a, e, bb, bb);\n"
             "    float s0 = den > 0.0f ? %s(k_diff_product_f32(bb, f, c, e) / den, 0.0f, 1.0f) : 0.0f;\n"
             "    float t0 = (bb * s0 + f) / e;\n"
             "    if (t0 < 0.0f) s = %s(-c / a, 0.0f, 1.0f);\n"
             "    else if (t0 > 1.0f) { s = %s((bb - c) / a, 0.0f, 1.0f); t = 1.0f; }\n"
             "    else { s = s0; t = t0; }\n"
             "  }\n"
             "  float w[3];\n"
             "  for (int k = 0; k < 3; k++) w[k] = (p2.c[k] + t * d2[k]) - (p1.c[k] + s * d1[k]);\n"
             "  %s o;\n  o.c[0] = s; o.c[1] = t;\n"
             "  o.c[2] = %s(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);\n"
             "  return o;\n}\n",
             E->T->fn_qual, V, name, V, V, V, V,
             E->T->id == KERN_TARGET_VULKAN ? "bool" : "int", cl, cl, cl, cl, cl, V, sq);
  (void)args;
  return true;
}

/* Note [triangle intersection]: Warp's intersect_tri_tri is Moeller's
 * test ("A fast triangle-triangle intersection test", 1997), with signed
 * distances of one triangle's vertices to the other's plane set to zero
 * below 1e-6.  kern decides the same question its own way: the plane
 * tests (all three distances of one side strictly positive or strictly
 * negative: disjoint), then the separating axis theorem on the nine edge
 * cross products for triangles in general position, or, when every
 * distance is zero (coplanar), on the six in-plane edge normals after
 * dropping the normal's largest coordinate.  Intervals that touch count
 * as intersecting.  The answers agree except for touching or nearly
 * degenerate triangles, where both are decided by rounding.
 *
 * GLSL (the vulkan target) spells three things its own way: a row of P
 * or Ed (a vertex or an edge), which C reads through a pointer, is
 * copied into a local array of 3, as GLSL has no pointers; the sign
 * counts add int(d > 0) where C adds the comparison itself; and the
 * coplanar test is `coplanar == 0`, as GLSL's `!` takes only a bool.
 * The other targets keep the C text. */
static bool tri_helper(Emit *E, Buf *b, int bi, const Type **args,
                       const char *name) {
  if (bi != BI_INTERSECT_TRI_TRI)
    return false;
  const char *V = emit_ctype(E, args[0]), *T = emit_ctype(E, sc_t(args[0]->sc));
  const char *ab = mathfn(E, "fabs", args[0]->sc);
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  /* a row's type and its declarators q, a and c */
  const char *R = vk ? T : arena_printf(E->C, "const %s", T);
  const char *q = vk ? "q[3]" : "*q", *a = vk ? "a[3]" : "*a",
             *c = vk ? "c[3]" : "*c";
  const char *signs = vk ? "pos += int(d > 0); neg += int(d < 0);"
                         : "pos += d > 0; neg += d < 0;";
  const char *tilted = vk ? "coplanar == 0" : "!coplanar";
  buf_printf(b,
             "%s int32_t %s(%s v0, %s v1, %s v2, %s u0, %s u1, %s u2) {\n"
             "  %s P[2][3][3];\n"
             "  for (int k = 0; k < 3; k++) {\n"
             "    P[0][0][k] = v0.c[k]; P[0][1][k] = v1.c[k]; P[0][2][k] = v2.c[k];\n"
             "    P[1][0][k] = u0.c[k]; P[1][1][k] = u1.c[k]; P[1][2][k] = u2.c[k];\n"
             "  }\n"
             "  %s Ed[2][3][3], N[2][3];\n"
             "  for (int t = 0; t < 2; t++) {\n"
             "    for (int e = 0; e < 3; e++)\n"
             "      for (int k = 0; k < 3; k++) Ed[t][e][k] = P[t][(e + 1) %% 3][k] - P[t][e][k];\n"
             "    N[t][0] = Ed[t][0][1] * Ed[t][2][2] - Ed[t][0][2] * Ed[t][2][1];\n"
             "    N[t][1] = Ed[t][0][2] * Ed[t][2][0] - Ed[t][0][0] * Ed[t][2][2];\n"
             "    N[t][2] = Ed[t][0][0] * Ed[t][2][1] - Ed[t][0][1] * Ed[t][2][0];\n"
             "  }\n"
             "  /* each triangle's vertices against the other's plane */\n"
             "  int coplanar = 1;\n"
             "  for (int t = 0; t < 2; t++) {\n"
             "    %s d0 = N[t][0] * P[t][0][0] + N[t][1] * P[t][0][1] + N[t][2] * P[t][0][2];\n"
             "    int pos = 0, neg = 0;\n"
             "    for (int i = 0; i < 3; i++) {\n"
             "      %s %s = P[1 - t][i];\n"
             "      %s d = N[t][0] * q[0] + N[t][1] * q[1] + N[t][2] * q[2] - d0;\n"
             "      if (%s(d) < (%s)1e-6) d = 0;\n"
             "      %s\n"
             "      if (d != 0) coplanar = 0;\n"
             "    }\n"
             "    if (pos == 3 || neg == 3) return 0;\n"
             "  }\n"
             "  %s ax[9][3];\n  int nax = 0;\n"
             "  if (%s) {\n"
             "    for (int i = 0; i < 3; i++)\n"
             "      for (int j = 0; j < 3; j++, nax++) {\n"
             "        %s %s = Ed[0][i], %s = Ed[1][j];\n"
             "        ax[nax][0] = a[1] * c[2] - a[2] * c[1];\n"
             "        ax[nax][1] = a[2] * c[0] - a[0] * c[2];\n"
             "        ax[nax][2] = a[0] * c[1] - a[1] * c[0];\n"
             "      }\n"
             "  } else {\n"
             "    /* in the plane: drop the normal's largest coordinate */\n"
             "    int drop = 0;\n"
             "    for (int k = 1; k < 3; k++) if (%s(N[0][k]) > %s(N[0][drop])) drop = k;\n"
             "    for (int t = 0; t < 2; t++)\n"
             "      for (int e = 0; e < 3; e++, nax++) {\n"
             "        int x = drop == 0 ? 1 : 0, y = drop == 2 ? 1 : 2;\n"
             "        ax[nax][0] = 0; ax[nax][1] = 0; ax[nax][2] = 0;\n"
             "        ax[nax][x] = Ed[t][e][y]; ax[nax][y] = -Ed[t][e][x];\n"
             "      }\n"
             "  }\n"
             "  for (int n = 0; n < nax; n++) {\n"
             "    %s lo[2], hi[2];\n"
             "    for (int t = 0; t < 2; t++)\n"
             "      for (int i = 0; i < 3; i++) {\n"
             "        %s d = ax[n][0] * P[t][i][0] + ax[n][1] * P[t][i][1] + ax[n][2] * P[t][i][2];\n"
             "        if (i == 0 || d < lo[t]) lo[t] = d;\n"
             "        if (i == 0 || d > hi[t]) hi[t] = d;\n"
             "      }\n"
             "    if (hi[0] < lo[1] || hi[1] < lo[0]) return 0;\n"
             "  }\n"
             "  return 1;\n}\n",
             E->T->fn_qual, name, V, V, V, V, V, V, T, T, T, R, q, T, ab, T,
             signs, T, tilted, R, a, c, ab, ab, T, T);
  return true;
}

/* ---------------------------------------------------------------- spatial */

/* Warp's spatial algebra (spatial.h, math.py): a spatial vector is
 * (w, v), top then bottom 3-vector, built here from the cross product and
 * quat_rotate helpers so each formula is the one Warp evaluates. */
static bool spatial_helper(Emit *E, Buf *b, int bi, const Type *ret, int n,
                           const Type **args, const char *name) {
  switch (bi) {
  case BI_SPATIAL_TOP: case BI_SPATIAL_BOTTOM: case BI_SPATIAL_CROSS:
  case BI_SPATIAL_CROSS_DUAL: case BI_SPATIAL_ADJOINT:
  case BI_VELOCITY_AT_POINT: case BI_TRANSFORM_TWIST: case BI_TRANSFORM_WRENCH:
    break;
  default:
    return false;
  }
  kern_scalar sc = args[0]->sc;
  const Type *v3 = ty_vec(E->C, sc, 3), *q = ty_quat(E->C, sc);
  const char *V3 = emit_ctype(E, v3), *RT = emit_ctype(E, ret);
  const char *cr = help2(E, BI_CROSS, v3, v3, v3);
  Buf body;
  buf_init(&body, E->C);
  Buf *o = &body;
  /* the halves of a 6-vector argument x as 3-vectors xw, xv */
#define HALVES(x)                                                            \
  buf_printf(o, "  %s " x "w, " x "v;\n  for (int k = 0; k < 3; k++) { " x  \
                "w.c[k] = " x ".c[k]; " x "v.c[k] = " x ".c[3 + k]; }\n", V3)
  switch (bi) {
  case BI_SPATIAL_TOP: case BI_SPATIAL_BOTTOM:
    buf_printf(o, "  %s r;\n  for (int k = 0; k < 3; k++) r.c[k] = a.c[%sk];\n"
                  "  return r;\n", RT, bi == BI_SPATIAL_TOP ? "" : "3 + ");
    break;
  case BI_SPATIAL_CROSS: case BI_SPATIAL_CROSS_DUAL:
    HALVES("a");
    HALVES("b");
    if (bi == BI_SPATIAL_CROSS)
      buf_printf(o, "  %s w = %s(aw, bw), v1 = %s(av, bw), v2 = %s(aw, bv);\n"
                    "  %s r;\n  for (int k = 0; k < 3; k++) { r.c[k] = w.c[k]; r.c[3 + k] = v1.c[k] + v2.c[k]; }\n",
                 V3, cr, cr, cr, RT);
    else
      buf_printf(o, "  %s w1 = %s(aw, bw), w2 = %s(av, bv), v = %s(aw, bv);\n"
                    "  %s r;\n  for (int k = 0; k < 3; k++) { r.c[k] = w1.c[k] + w2.c[k]; r.c[3 + k] = v.c[k]; }\n",
                 V3, cr, cr, cr, RT);
    buf_puts(o, "  return r;\n");
    break;
  case BI_SPATIAL_ADJOINT:
    buf_printf(o, "  %s r;\n  for (int i = 0; i < 6; i++) for (int j = 0; j < 6; j++) r.m[i][j] = 0;\n"
                  "  for (int i = 0; i < 3; i++)\n    for (int j = 0; j < 3; j++) {\n"
                  "      r.m[i][j] = a.m[i][j]; r.m[i + 3][j + 3] = a.m[i][j];\n"
                  "      r.m[i + 3][j] = b.m[i][j];\n    }\n  return r;\n", RT);
    break;
  case BI_VELOCITY_AT_POINT:
    HALVES("a");
    buf_printf(o, "  %s c = %s(aw, b);\n  %s r;\n"
                  "  for (int k = 0; k < 3; k++) r.c[k] = av.c[k] + c.c[k];\n"
                  "  return r;\n", V3, cr, RT);
    break;
  case BI_TRANSFORM_TWIST: case BI_TRANSFORM_WRENCH: {
    /* twist: w' = R w, v' = R v + p x w'; wrench: f' = R f,
     * tau' = R tau + p x f' */
    const char *rot = help2(E, BI_QUAT_ROTATE, v3, q, v3);
    bool tw = bi == BI_TRANSFORM_TWIST;
    HALVES("b");
    buf_printf(o, "  %s p; %s q;\n  for (int k = 0; k < 3; k++) p.c[k] = a.c[k];\n"
                  "  for (int k = 0; k < 4; k++) q.c[k] = a.c[3 + k];\n"
                  "  %s m = %s(q, %s);\n  %s t = %s(q, %s);\n  %s c = %s(p, m);\n"
                  "  %s r;\n  for (int k = 0; k < 3; k++) {\n"
                  "    r.c[%sk] = m.c[k]; r.c[%sk] = t.c[k] + c.c[k];\n  }\n"
                  "  return r;\n", V3, emit_ctype(E, q), V3, rot,
               tw ? "bw" : "bv", V3, rot, tw ? "bv" : "bw", V3, cr, RT,
               tw ? "" : "3 + ", tw ? "3 + " : "");
    break;
  }
  }
#undef HALVES
  open_fn(E, b, ret, name, n, args);
  buf_puts(b, body.p);
  buf_puts(b, "}\n");
  return true;
}

/* wp.block_dim(): the threads of the block (Note [block_dim] in
 * runtime/module.c): 1 on the CPU, as Warp's CPU by default; the CUDA
 * block's or the OpenCL work-group's size, which the runtime sets to the
 * launch's block_dim. */
static bool block_dim_helper(Emit *E, Buf *b, int bi, const char *name) {
  if (bi != BI_BLOCK_DIM)
    return false;
  const char *v = E->T->id == KERN_TARGET_CUDA ? "(int32_t)blockDim.x"
                  : E->T->id == KERN_TARGET_OPENCL ? "(int32_t)get_local_size(0)"
                  : "1";
  buf_printf(b, "%s int32_t %s(void) {\n  return %s;\n}\n", E->T->fn_qual,
             name, v);
  return true;
}

/* wp.breakpoint(): Warp's CPU build traps (SIGTRAP, where a debugger
 * stops; without one the process ends, as under Warp), CUDA's stops in
 * cuda-gdb (__brkpt).  OpenCL C and GLSL have no breakpoint: there it does
 * nothing. */
static bool breakpoint_helper(Emit *E, Buf *b, int bi, const char *name) {
  if (bi != BI_BREAKPOINT)
    return false;
  const char *body =
      E->T->id == KERN_TARGET_CUDA ? "  __brkpt();\n"
      : E->T->id == KERN_TARGET_OPENCL || E->T->id == KERN_TARGET_VULKAN ? ""
      : "#if defined(__x86_64__) || defined(__i386__)\n"
        "  __asm__ volatile(\"int3\");\n"
        "#elif defined(__aarch64__)\n"
        "  __asm__ volatile(\"brk #0xf000\");\n"
        "#else\n"
        "  __builtin_trap();\n"
        "#endif\n";
  buf_printf(b, "%s void %s(void) {\n%s}\n", E->T->fn_qual, name, body);
  return true;
}

bool emit_extra_helper(Emit *E, Buf *b, int bi, const Type *ret, int n,
                       const Type **args, const char *name) {
  bool noise_ad = bi == BI_NOISE_GRAD || bi == BI_CURLNOISE_ADJ ||
                  bi == BI_CURLNOISE_TAN; /* Note [noise adjoints] */
  if ((bi < BI_ERF || bi >= BI_COUNT) && !noise_ad)
    return false;
  for (int i = 0; i < n; i++)
    emit_ctype(E, args[i]);
  emit_ctype(E, ret);
  return breakpoint_helper(E, b, bi, name) ||
         block_dim_helper(E, b, bi, name) ||
         math_helper(E, b, bi, ret, args, name) ||
         bitvec_helper(E, b, bi, ret, n, args, name) ||
         noise_helper(E, b, bi, n, args, ret, name) ||
         geom_helper(E, b, bi, ret, n, args, name) ||
         edge_helper(E, b, bi, ret, args, name) ||
         tri_helper(E, b, bi, args, name) ||
         spatial_helper(E, b, bi, ret, n, args, name) ||
         emit_linalg_helper(E, b, bi, ret, args, name) ||
         random_helper(E, b, bi, n, args, name);
}
