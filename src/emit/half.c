/*
 * half.c -- float16 and bfloat16 (mixed precision) in generated code.
 *
 * Note [16-bit floats]: Warp stores float16 and bfloat16 in 2 bytes but
 * computes with them in float32: every operator and math function on a
 * 16-bit value converts its operands to float, computes, and rounds the
 * result back (native/builtin.h, "half operator+(half a, half b) { return
 * float_to_half(half_to_float(a) + half_to_float(b)); }").  kern does the
 * same, in every target alike:
 *
 *  - A 16-bit value lives in a float32 register that holds a value the
 *    format can represent.  Its C type is float, and a vector or matrix of
 *    float16 has the C type of the float32 one (k_v3f32), so every float32
 *    helper applies to it unchanged.
 *  - Every expression whose result is 16-bit is computed as the float32
 *    expression and passed through k_rnd_f16 / k_rnd_bf16 (componentwise
 *    for vectors), which rounds to the format and back.  For + - * / one
 *    float32 operation rounded once to 16 bits is the correctly rounded
 *    16-bit result (float32 has more than twice the precision plus two
 *    bits), so this is also what native half arithmetic gives.
 *  - In memory (arrays, atomics) a value is its 16 bits: loads widen,
 *    stores round.  Kernel parameters arrive as float32; the runtime
 *    widens the caller's 16 bits (runtime/module.c).
 *
 * Conversions round to nearest, ties to even, with integer operations
 * only, so the result does not depend on the target's float environment:
 * the same algorithm as src/base/half.c, spelled for each dialect.  CUDA
 * uses the hardware's cvt instructions for float16 (as Warp does).
 *
 * Atomics on 16-bit elements are compare-and-swap loops: on the element
 * itself on the CPU, on the aligned 32-bit word that holds it on CUDA and
 * OpenCL (core OpenCL has only 32-bit compare-and-swap; arrays are
 * allocated in whole words, runtime/array.c), so no target needs
 * cl_khr_fp16 or a particular GPU generation.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "emit.h"

bool emit_lowp(const Type *t) {
  return (t->kind == TY_SCALAR || t->kind == TY_VEC || t->kind == TY_MAT) &&
         sc_is_lowp(t->sc);
}

/* The float32 type a 16-bit type computes in. */
const Type *emit_wide(Emit *E, const Type *t) {
  if (!emit_lowp(t))
    return t;
  if (t->kind == TY_SCALAR)
    return ty_scalar(KERN_SCALAR_FLOAT32);
  Type *w = arena_alloc(E->C, sizeof *w);
  *w = *t;
  w->sc = KERN_SCALAR_FLOAT32;
  return w;
}

static const char *fmt_name(kern_scalar sc) {
  return sc == KERN_SCALAR_FLOAT16 ? "h" : "bf";
}

/* Bit casts between float and uint32_t, per dialect. */
static void bitcasts(Emit *E) {
  if (!emit_need(E, "k_fbits"))
    return;
  switch (E->T->id) {
  case KERN_TARGET_CUDA:
    emit_pre(E, "k_fbits", "%s", "#define k_fbits(x) __float_as_uint(x)\n"
                      "#define k_bitsf(x) __uint_as_float(x)\n");
    break;
  case KERN_TARGET_OPENCL:
    emit_pre(E, "k_fbits", "%s", "#define k_fbits(x) as_uint(x)\n"
                      "#define k_bitsf(x) as_float(x)\n");
    break;
  case KERN_TARGET_VULKAN:
    emit_pre(E, "k_fbits", "%s", "#define k_fbits(x) floatBitsToUint(x)\n"
                      "#define k_bitsf(x) uintBitsToFloat(x)\n");
    break;
  default:
    /* C allows reading another member of a union (C11 6.5.2.3). */
    emit_pre(E, "k_fbits", "%s",
             "static inline uint32_t k_fbits(float f) {\n"
             "  union { float f; uint32_t u; } x;\n  x.f = f;\n  return x.u;\n}\n"
             "static inline float k_bitsf(uint32_t u) {\n"
             "  union { float f; uint32_t u; } x;\n  x.u = u;\n  return x.f;\n}\n");
    break;
  }
}

/* Whether float16 converts with CUDA's cvt instructions, which are not
 * relied on for a NaN's bits (Note [16-bit cast] in extra.c). */
static bool cvt_f16(Emit *E, kern_scalar sc) {
  return sc == KERN_SCALAR_FLOAT16 && E->T->id == KERN_TARGET_CUDA;
}

/* The conversion of float to the 16 bits of sc (to_float false) or back;
 * returns its name.  hw false asks for the integer code where the target
 * would use cvt (k_h2f_x, k_f2h_x). */
static const char *lowp_conv(Emit *E, kern_scalar sc, bool to_float, bool hw) {
  bool cvt = hw && cvt_f16(E, sc);
  const char *name = arena_printf(E->C, to_float ? "k_%s2f%s" : "k_f2%s%s",
                                  fmt_name(sc),
                                  !hw && cvt_f16(E, sc) ? "_x" : "");
  if (!emit_need(E, name))
    return name;
  const char *Q = E->T->fn_qual;
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  Buf tb;
  buf_init(&tb, E->C);
  Buf *b = &tb; /* emit_pre()d whole at each return */
  if (cvt) {
    if (to_float)
      buf_printf(b, "%s float %s(uint16_t h) {\n  float f;\n"
                    "  asm(\"cvt.f32.f16 %%0, %%1;\" : \"=f\"(f) : \"h\"(h));\n"
                    "  return f;\n}\n", Q, name);
    else
      buf_printf(b, "%s uint16_t %s(float f) {\n  unsigned short h;\n"
                    "  asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(h) : \"f\"(f));\n"
                    "  return h;\n}\n", Q, name);
    { emit_pre(E, name, "%s", tb.p); return name; }
  }
  bitcasts(E);
  /* Host compilers with F16C (x86) and _Float16 convert in one
   * instruction, rounding to nearest even like the integer code below
   * (the runtime test compares the two for every value). */
  bool f16c = sc == KERN_SCALAR_FLOAT16 && E->T->id == KERN_TARGET_C;
  if (f16c) {
    buf_puts(b, "#if defined(__F16C__) && defined(__FLT16_MAX__)\n");
    if (to_float)
      buf_printf(b, "%s float %s(uint16_t h) {\n  _Float16 x;\n"
                    "  __builtin_memcpy(&x, &h, 2);\n  return (float)x;\n}\n",
                 Q, name);
    else
      buf_printf(b, "%s uint16_t %s(float f) {\n  _Float16 x = (_Float16)f;\n"
                    "  uint16_t h;\n  __builtin_memcpy(&h, &x, 2);\n  return h;\n}\n",
                 Q, name);
    buf_puts(b, "#else\n");
  }
  if (sc == KERN_SCALAR_BFLOAT16) {
    if (to_float)
      buf_printf(b, "%s float %s(uint16_t h) { return k_bitsf((uint32_t)h << 16); }\n",
                 Q, name);
    else
      /* Warp's rule: infinity and NaN are truncated, a NaN keeping a
       * nonzero significand; the rest rounds to nearest even. */
      buf_printf(b, "%s uint16_t %s(float f) {\n  uint32_t x = k_fbits(f);\n"
                    "  if ((x & 0x7f800000u) == 0x7f800000u) {\n"
                    "    uint32_t h = x >> 16;\n"
                    "    if (%s) h |= 0x40u;\n"
                    "    return (uint16_t)h;\n  }\n"
                    "  x += 0x7fffu + ((x >> 16) & 1u);\n"
                    "  return (uint16_t)(x >> 16);\n}\n", Q, name,
                 /* GLSL takes no integer as a condition */
                 vk ? "(x & 0x7fffffu) != 0u && (h & 0x7fu) == 0u"
                    : "(x & 0x7fffffu) && !(h & 0x7fu)");
    { emit_pre(E, name, "%s", tb.p); return name; }
  }
  if (to_float && vk) {
    /* Note [vulkan half subnormals]: lavapipe builds a loop at every
     * inlined call, and a float16 adjoint rounds each operation through
     * this (945 calls in tests/autodiff/half_vec.py's), so a subnormal
     * half is m 2^-24 in one exact float multiply, without the loop
     * that normalizes m. */
    buf_printf(b, "%s float %s(uint16_t h) {\n"
                  "  uint32_t s = (uint32_t)(h & 0x8000u) << 16;\n"
                  "  uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;\n"
                  "  if (e == 31) return k_bitsf(s | 0x7f800000u | (m << 13));\n"
                  "  if (e == 0) return k_bitsf(s | k_fbits(float(m) * 5.9604644775390625e-8f));\n"
                  "  return k_bitsf(s | ((e + 112) << 23) | (m << 13));\n}\n",
               Q, name);
    { emit_pre(E, name, "%s", tb.p); return name; }
  }
  if (to_float) {
    buf_printf(b, "%s float %s(uint16_t h) {\n"
                  "  uint32_t s = (uint32_t)(h & 0x8000u) << 16;\n"
                  "  uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;\n"
                  "  if (e == 31) return k_bitsf(s | 0x7f800000u | (m << 13));\n"
                  "  if (e == 0) {\n"
                  "    if (m == 0) return k_bitsf(s);\n"
                  "    e = 113;\n"
                  "    while (!(m & 0x400u)) { m <<= 1; e--; }\n"
                  "    return k_bitsf(s | (e << 23) | ((m & 0x3ffu) << 13));\n"
                  "  }\n"
                  "  return k_bitsf(s | ((e + 112) << 23) | (m << 13));\n}\n",
               Q, name);
    if (f16c)
      buf_puts(b, "#endif\n");
    { emit_pre(E, name, "%s", tb.p); return name; }
  }
  /* Normal halves rebias the exponent and round the 13 bits dropped;
   * subnormal ones shift the significand (with its implicit bit) right by
   * 14 to 24 and round what was shifted out; 65520 and above overflow. */
  buf_printf(b, "%s uint16_t %s(float f) {\n"
                "  uint32_t x = k_fbits(f);\n"
                "  uint32_t s = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;\n"
                "  if (a >= 0x7f800000u)\n"
                "    return (uint16_t)(s | 0x7c00u | (a > 0x7f800000u ? 0x200u | ((a >> 13) & 0x3ffu) : 0u));\n"
                "  if (a >= 0x477ff000u) return (uint16_t)(s | 0x7c00u);\n"
                "  if (a >= 0x38800000u) {\n"
                "    uint32_t m = a - 0x38000000u;\n"
                "    m += 0xfffu + ((m >> 13) & 1u);\n"
                "    return (uint16_t)(s | (m >> 13));\n  }\n"
                "  if (a < 0x33000000u) return (uint16_t)s;\n"
                "  uint32_t sh = 126u - (a >> 23), m = (a & 0x7fffffu) | 0x800000u;\n"
                "  uint32_t r = m >> sh, rest = m & ((1u << sh) - 1u), hf = 1u << (sh - 1u);\n"
                "  if (rest > hf || (rest == hf && %s)) r++;\n"
                "  return (uint16_t)(s | r);\n}\n",
             Q, name, vk ? "(r & 1u) != 0u" : "(r & 1u)");
  if (f16c)
    buf_puts(b, "#endif\n");
  { emit_pre(E, name, "%s", tb.p); return name; }
}

const char *emit_lowp_conv(Emit *E, kern_scalar sc, bool to_float) {
  return lowp_conv(E, sc, to_float, true);
}

static const char *sig_of(kern_scalar sc) {
  return sc == KERN_SCALAR_FLOAT16 ? "f16" : "bf16";
}

/* Loops over the components of a vector or matrix value v. */
static const char *comp_of(Emit *E, const char *v, const Type *t) {
  if (t->kind == TY_VEC)
    return arena_printf(E->C, "%s.c[k]", v);
  if (t->kind == TY_MAT)
    return arena_printf(E->C, "%s.m[k / %d][k %% %d]", v, t->cols, t->cols);
  return v;
}

static int ncomp_of(const Type *t) {
  return t->kind == TY_SCALAR ? 1 : t->rows * t->cols;
}

/* Rounds a float32 value (of the wide type) to t's format, componentwise. */
const char *emit_lowp_round(Emit *E, const Type *t) {
  const char *name = arena_printf(E->C, "k_rnd_%s", emit_tysig(E, t));
  if (!emit_need(E, name))
    return name;
  const char *Q = E->T->fn_qual;
  if (t->kind == TY_SCALAR && t->sc == KERN_SCALAR_FLOAT16 &&
      E->T->id == KERN_TARGET_VULKAN) {
    /* Note [vulkan half rounding]: a float16 adjoint rounds every
     * operation (945 calls in tests/autodiff/half_vec.py's), each inlined
     * by the driver, so vulkan rounds in float32 bits, without the 16-bit
     * code: a normal half keeps 10 bits of the significand, rounded to
     * nearest even as k_f2h does; a subnormal one is a multiple of 2^-24,
     * roundEven of x 2^24 (exact); a NaN keeps k_f2h's quiet bit and its
     * top 10 payload bits; 65520 and above overflow. */
    bitcasts(E);
    emit_pre(E, name, "%s float %s(float x) {\n"
                      "  uint32_t b = k_fbits(x), s = b & 0x80000000u, a = b & 0x7fffffffu;\n"
                      "  if (a > 0x7f800000u) return k_bitsf(s | 0x7fc00000u | (a & 0x7fe000u));\n"
                      "  if (a >= 0x477ff000u) return k_bitsf(s | 0x7f800000u);\n"
                      "  if (a >= 0x38800000u) return k_bitsf(s | ((a + 0xfffu + ((a >> 13) & 1u)) & 0xffffe000u));\n"
                      "  return k_bitsf(s | k_fbits(roundEven(k_bitsf(a) * 16777216.0f) * 5.9604644775390625e-8f));\n"
                      "}\n", Q, name);
    return name;
  }
  const char *to = emit_lowp_conv(E, t->sc, false);
  const char *from = emit_lowp_conv(E, t->sc, true);
  if (t->kind == TY_SCALAR) {
    emit_pre(E, name, "%s float %s(float x) { return %s(%s(x)); }\n", Q,
               name, from, to);
    return name;
  }
  const char *W = emit_ctype(E, t);
  emit_pre(E, name, "%s %s %s(%s a) {\n  for (int k = 0; k < %d; k++) %s = "
                      "%s(%s(%s));\n  return a;\n}\n",
             Q, W, name, W, ncomp_of(t), comp_of(E, "a", t), from, to,
             comp_of(E, "a", t));
  return name;
}

/* The type of t in memory: for 16-bit types the bits, else t's C type. */
const char *emit_stype(Emit *E, const Type *t) {
  if (emit_vk_boolmem(E, t)) /* Note [vulkan bool memory] in common.c */
    return emit_vk_memtype(E, t);
  if (!emit_lowp(t))
    return emit_ctype(E, t);
  if (t->kind == TY_SCALAR)
    return "uint16_t";
  /* "k_mem": view types (view.c) are k_s<array signature> */
  const char *name = arena_printf(E->C, "k_mem%s", emit_tysig(E, t));
  if (emit_need(E, name)) {
    if (t->kind == TY_VEC)
      emit_pre(E, name, "typedef struct { uint16_t c[%d]; } %s;\n", t->rows,
                 name);
    else
      emit_pre(E, name, "typedef struct { uint16_t m[%d][%d]; } %s;\n",
                 t->rows, t->cols, name);
  }
  return name;
}

/* Widens an element read from memory (load) or rounds a value into its
 * memory form (store) by the conversion conv; returns the function's
 * name, k_<pre><ld or st>_<type>. */
static const char *lowp_mem(Emit *E, const Type *t, bool load,
                            const char *conv, const char *pre) {
  if (t->kind == TY_SCALAR)
    return conv;
  const char *S = emit_stype(E, t), *W = emit_ctype(E, t);
  const char *name = arena_printf(E->C, "k_%s%s_%s", pre, load ? "ld" : "st",
                                  emit_tysig(E, t));
  if (!emit_need(E, name))
    return name;
  emit_pre(E, name, "%s %s %s(%s a) {\n  %s r;\n  for (int k = 0; k < %d; k++) "
                      "%s = %s(%s);\n  return r;\n}\n",
             E->T->fn_qual, load ? W : S, name, load ? S : W, load ? W : S,
             ncomp_of(t), comp_of(E, "r", t), conv, comp_of(E, "a", t));
  return name;
}

const char *emit_lowp_mem(Emit *E, const Type *t, bool load) {
  return lowp_mem(E, t, load, emit_lowp_conv(E, t->sc, load), "");
}

/* As emit_lowp_mem, but by the integer conversions on every target, so a
 * NaN keeps its sign and payload (Note [16-bit cast] in extra.c). */
const char *emit_lowp_bits(Emit *E, const Type *t, bool load) {
  if (!cvt_f16(E, t->sc))
    return emit_lowp_mem(E, t, load);
  return lowp_mem(E, t, load, lowp_conv(E, t->sc, load, false), "x");
}

/* An atomic read-modify-write of one 16-bit element: the update applied
 * to the widened old value, rounded, and swapped in if the element did not
 * change meanwhile.  Returns the old value, widened. */
const char *emit_lowp_atomic(Emit *E, int bi, const Type *t) {
  const char *name = arena_printf(E->C, "k_%s_%s", builtin_names[bi],
                                  sig_of(t->sc));
  if (!emit_need(E, name))
    return name;
  const char *from = emit_lowp_conv(E, t->sc, true);
  const char *to = emit_lowp_conv(E, t->sc, false);
  const char *upd;
  switch (bi) {
  case BI_ATOMIC_ADD: upd = "o + v"; break;
  case BI_ATOMIC_SUB: upd = "o - v"; break;
  case BI_ATOMIC_MIN:
  case BI_ATOMIC_MAX:
    upd = arena_printf(E->C, "%s(o, v)",
                       emit_helper(E, bi == BI_ATOMIC_MIN ? BI_MIN : BI_MAX,
                                   ty_scalar(KERN_SCALAR_FLOAT32), 2,
                                   (const Type *[]){ty_scalar(KERN_SCALAR_FLOAT32),
                                                    ty_scalar(KERN_SCALAR_FLOAT32)}));
    break;
  default: upd = "v"; break; /* exchange */
  }
  const char *Q = E->T->fn_qual, *G = E->T->global;
  Buf tb;
  buf_init(&tb, E->C);
  Buf *b = &tb; /* emit_pre()d whole at each return */
  if (E->T->id == KERN_TARGET_C) {
    buf_printf(b, "%s float %s(uint16_t *p, float v) {\n  uint16_t old, nw;\n"
                  "  __atomic_load(p, &old, __ATOMIC_RELAXED);\n"
                  "  do { float o = %s(old); nw = %s(%s); }\n"
                  "  while (!__atomic_compare_exchange(p, &old, &nw, 1, "
                  "__ATOMIC_RELAXED, __ATOMIC_RELAXED));\n"
                  "  return %s(old);\n}\n", Q, name, from, to, upd, from);
    { emit_pre(E, name, "%s", tb.p); return name; }
  }
  if (E->T->id == KERN_TARGET_VULKAN) {
    /* the same on the element's address a (GLSL has no pointers; Note
     * [vulkan float atomics] in vulkan.c) */
    const char *R = emit_vk_bits_ref(E, 32);
    buf_printf(b, "float %s(uint64_t a, float v) {\n"
                  "  %s w = %s(a & ~uint64_t(3));\n"
                  "  uint sh = uint(a & uint64_t(2)) * 8u;\n"
                  "  uint old = w.v[0], as;\n"
                  "  do {\n    as = old;\n"
                  "    float o = %s(uint16_t(as >> sh));\n"
                  "    uint nw = (as & ~(0xffffu << sh)) | (uint(%s(%s)) << sh);\n"
                  "    old = atomicCompSwap(w.v[0], as, nw);\n"
                  "  } while (old != as);\n"
                  "  return %s(uint16_t(old >> sh));\n}\n",
               name, R, R, from, to, upd, from);
    emit_pre(E, name, "%s", tb.p);
    return name;
  }
  /* CUDA and OpenCL: the 32-bit word holding the element; its other half
   * is put back unchanged. */
  bool cuda = E->T->id == KERN_TARGET_CUDA;
  const char *cas = cuda ? "atomicCAS" : "atomic_cmpxchg";
  const char *U = cuda ? "unsigned int" : "uint";
  const char *ptr = cuda ? "unsigned long long" : "ulong";
  buf_printf(b, "%s float %s(%suint16_t *p, float v) {\n"
                "  volatile %s%s *w = (volatile %s%s *)((%s)p & ~(%s)3);\n"
                "  uint32_t sh = ((uint32_t)(%s)p & 2u) * 8u;\n"
                "  %s old = *w, as;\n"
                "  do {\n    as = old;\n"
                "    float o = %s((uint16_t)(as >> sh));\n"
                "    %s nw = (as & ~(0xffffu << sh)) | ((%s)%s(%s) << sh);\n"
                "    old = %s((%s%s *)w, as, nw);\n"
                "  } while (old != as);\n"
                "  return %s((uint16_t)(old >> sh));\n}\n",
             Q, name, G, G, U, G, U, ptr, ptr, ptr, U, from, U, U, to, upd,
             cas, G, U, from);
  { emit_pre(E, name, "%s", tb.p); return name; }
}

/* The 16 bits to store for the value e of 16-bit type t.  An operator's
 * result is converted directly: rounding it to a float first would give
 * the same bits at twice the cost. */
const char *emit_lowp_stored(Emit *E, const Type *t, IrExpr *e) {
  Buf b;
  buf_init(&b, E->C);
  buf_printf(&b, "%s(", emit_lowp_mem(E, t, false));
  if (t->kind == TY_SCALAR && e->kind == E_BINARY &&
      (e->op == OP_ADD || e->op == OP_SUB || e->op == OP_MUL || e->op == OP_DIV)) {
    if (!emit_vk_zero_op(E, &b, e)) {
      buf_puts(&b, "(");
      emit_expr(E, &b, e->a);
      buf_printf(&b, ") %s (", e->op == OP_ADD ? "+" : e->op == OP_SUB ? "-"
                               : e->op == OP_MUL ? "*" : "/");
      emit_expr(E, &b, e->b);
      buf_puts(&b, ")");
    }
  } else {
    emit_expr(E, &b, e);
  }
  buf_puts(&b, ")");
  return b.p;
}

/* A vector or matrix converted componentwise to t from `from`, one of
 * them 16-bit: each component converted as a scalar would be. */
static const char *lowp_vcast(Emit *E, const Type *t, const Type *from) {
  const char *name = arena_printf(E->C, "k_cvt_%s_%s", emit_tysig(E, t),
                                  emit_tysig(E, from));
  if (!emit_need(E, name))
    return name;
  const char *RT = emit_ctype(E, t), *A = emit_ctype(E, from);
  const char *x = comp_of(E, "a", from);
  const char *conv = emit_lowp(t)
      ? arena_printf(E->C, "%s((float)%s)", emit_lowp_round(E, ty_scalar(t->sc)), x)
      : arena_printf(E->C, "(%s)%s", emit_ctype(E, ty_scalar(t->sc)), x);
  emit_pre(E, name, "%s %s %s(%s a) {\n  %s r;\n  for (int k = 0; k < %d; k++) "
                      "%s = %s;\n  return r;\n}\n",
             E->T->fn_qual, RT, name, A, RT, ncomp_of(t), comp_of(E, "r", t),
             conv);
  return name;
}

/* Note [16-bit sums]: where Warp's formula is a chain of 16-bit
 * operations (a dot product, a matrix product, lerp), each product and
 * each partial sum is rounded, in Warp's order, so the result is not the
 * float32 formula rounded once.  These builtins get helpers of their own;
 * every other builtin is one float32 function of its operands (sqrt, sin,
 * min ...), which Warp also rounds once. */
static const char *lowp_special(Emit *E, int bi, const Type *ret, int n,
                                const Type **args) {
  const Type *a = args[0], *b = n > 1 ? args[1] : NULL;
  kern_scalar sc = a->sc;
  switch (bi) {
  case BI_DOT: case BI_LENGTH: case BI_LENGTH_SQ: case BI_NORMALIZE:
  case BI_CROSS: case BI_TRACE: case BI_LERP: case BI_SMOOTHSTEP:
  case BI_OP_FLOORDIV:
    break;
  case BI_QUAT_ROTATE: case BI_QUAT_ROTATE_INV:
  case BI_TRANSFORM_POINT: case BI_TRANSFORM_VECTOR: case BI_TRANSFORM_INVERSE:
  case BI_TRANSFORM_MULTIPLY: case BI_SPATIAL_CROSS: case BI_SPATIAL_CROSS_DUAL:
    break;
  case BI_DETERMINANT: case BI_INVERSE:
    if (a->rows > 3)
      return NULL; /* Warp's 4x4 mixes float16 and double: rounded once */
    break;
  case BI_MUL: case BI_OP_MATMUL:
    if (a->kind == TY_SCALAR || b->kind == TY_SCALAR)
      return NULL; /* one product per component */
    if (a->xform && b->xform)
      bi = BI_TRANSFORM_MULTIPLY;
    break;
  default:
    return NULL;
  }
  if (bi == BI_OP_FLOORDIV && a->kind != TY_SCALAR)
    return NULL;
  Buf nm;
  buf_init(&nm, E->C);
  buf_printf(&nm, "k_%s", bi == BI_OP_FLOORDIV ? "floordiv"
                          : bi == BI_OP_MATMUL ? "mul" : builtin_names[bi]);
  for (int i = 0; i < n; i++)
    buf_printf(&nm, "_%s", emit_tysig(E, args[i]));
  const char *name = nm.p;
  if (!emit_need(E, name))
    return name;
  const char *R = emit_lowp_round(E, ty_scalar(sc));
  const char *RT = emit_ctype(E, ret), *Q = E->T->fn_qual;
  Buf h;
  buf_init(&h, E->C);
  buf_printf(&h, "%s %s %s(", Q, RT, name);
  static const char *const pn[] = {"a", "b", "c"};
  for (int i = 0; i < n; i++)
    buf_printf(&h, "%s%s %s", i ? ", " : "", emit_ctype(E, args[i]), pn[i]);
  buf_puts(&h, ") {\n");
  /* a rounded dot product of x(k) and y(k), k < K, into s */
#define RDOT(s, x, y, K)                                                     \
  buf_printf(&h, "  { int k = 0; " s " = %s(" x " * " y "); }\n"            \
                 "  for (int k = 1; k < %d; k++) " s " = %s(" s " + %s(" x    \
                 " * " y "));\n", R, K, R, R)
  switch (bi) {
  case BI_DOT: case BI_LENGTH_SQ: case BI_LENGTH: case BI_NORMALIZE:
    buf_puts(&h, "  float s;\n");
    if (bi == BI_DOT)
      RDOT("s", "a.c[k]", "b.c[k]", a->rows);
    else
      RDOT("s", "a.c[k]", "a.c[k]", a->rows);
    buf_printf(&h, "  (void)0;\n");
    if (bi == BI_DOT || bi == BI_LENGTH_SQ)
      buf_puts(&h, "  return s;\n");
    else if (bi == BI_LENGTH)
      buf_printf(&h, "  return %s(sqrt%s(s));\n", R,
                 E->T->overloaded_math ? "" : "f");
    else if (a->quat)
      /* quat.h: multiplied by 1 / length; the zero quaternion gives the
       * identity */
      buf_printf(&h, "  float l = %s(sqrt%s(s));\n  %s r;\n"
                     "  float il = l > 0.0f ? %s(1.0f / l) : 0.0f;\n"
                     "  for (int k = 0; k < 4; k++) r.c[k] = l > 0.0f ? %s(a.c[k] * il) : (k == 3 ? 1.0f : 0.0f);\n"
                     "  return r;\n", R, E->T->overloaded_math ? "" : "f", RT, R, R);
    else
      /* Warp's kEps is 0: the zero vector stays zero */
      buf_printf(&h, "  float l = %s(sqrt%s(s));\n  %s r;\n"
                     "  for (int k = 0; k < %d; k++) r.c[k] = l > 0.0f ? %s(a.c[k] / l) : 0.0f;\n"
                     "  return r;\n", R, E->T->overloaded_math ? "" : "f", RT,
                 a->rows, R);
    break;
  case BI_QUAT_ROTATE: case BI_QUAT_ROTATE_INV:
  case BI_TRANSFORM_POINT: case BI_TRANSFORM_VECTOR: {
    /* Warp's quat_rotate (quat.h), left to right: c = 2 w w - 1,
     * d = 2 (q.xyz . x), r = x c + q d +- (q.yzx x.zxy - q.zxy x.yzx) w 2;
     * a transform's point adds p after. */
    bool xf = bi == BI_TRANSFORM_POINT || bi == BI_TRANSFORM_VECTOR;
    bool inv = bi == BI_QUAT_ROTATE_INV;
    const char *q = xf ? "a.c[3 + %d]" : "a.c[%d]";
    char qx[16], qy[16], qz[16], qw[16];
    snprintf(qx, sizeof qx, q, 0);
    snprintf(qy, sizeof qy, q, 1);
    snprintf(qz, sizeof qz, q, 2);
    snprintf(qw, sizeof qw, q, 3);
    buf_printf(&h, "  float c = %s(%s(%s(2.0f * %s) * %s) - 1.0f);\n", R, R, R, qw, qw);
    buf_printf(&h, "  float d = %s(2.0f * %s(%s(%s(%s * b.c[0]) + %s(%s * b.c[1])) + %s(%s * b.c[2])));\n",
               R, R, R, R, qx, R, qy, R, qz);
    buf_printf(&h, "  float u[3] = {%s, %s, %s};\n  %s r;\n", qx, qy, qz, RT);
    buf_printf(&h, "  for (int k = 0; k < 3; k++) {\n"
                   "    int k1 = (k + 1) %% 3, k2 = (k + 2) %% 3;\n"
                   "    float e = %s(%s(%s(%s(u[k1] * b.c[k2]) - %s(u[k2] * b.c[k1])) * %s) * 2.0f);\n"
                   "    r.c[k] = %s(%s(%s(b.c[k] * c) + %s(u[k] * d)) %s e);\n",
               R, R, R, R, R, qw, R, R, R, R, inv ? "-" : "+");
    if (bi == BI_TRANSFORM_POINT)
      buf_printf(&h, "    r.c[k] = %s(a.c[k] + r.c[k]);\n", R);
    buf_puts(&h, "  }\n  return r;\n");
    break;
  }
  case BI_TRANSFORM_INVERSE: case BI_TRANSFORM_MULTIPLY: {
    /* spatial.h: inverse (-rotate(q^-1, p), q^-1); multiply
     * (rotate(a.q, b.p) + a.p, a.q * b.q), with the rounded helpers */
    const Type *v3 = ty_vec(E->C, sc, 3), *qt = ty_quat(E->C, sc);
    const char *rot = lowp_special(E, BI_QUAT_ROTATE, v3, 2, (const Type *[]){qt, v3});
    const char *qm = lowp_special(E, BI_MUL, qt, 2, (const Type *[]){qt, qt});
    const char *V3 = emit_ctype(E, v3), *QT = emit_ctype(E, qt);
    buf_printf(&h, "  %s ap, bp; %s aq, bq;\n  %s r;\n"
                   "  for (int k = 0; k < 3; k++) ap.c[k] = a.c[k];\n"
                   "  for (int k = 0; k < 4; k++) aq.c[k] = a.c[3 + k];\n",
               V3, QT, RT);
    if (bi == BI_TRANSFORM_INVERSE)
      buf_printf(&h, "  (void)bp; (void)bq;\n"
                     "  for (int k = 0; k < 3; k++) aq.c[k] = -aq.c[k];\n"
                     "  %s p = %s(aq, ap);\n"
                     "  for (int k = 0; k < 3; k++) r.c[k] = -p.c[k];\n"
                     "  for (int k = 0; k < 4; k++) r.c[3 + k] = aq.c[k];\n", V3, rot);
    else
      buf_printf(&h, "  for (int k = 0; k < 3; k++) bp.c[k] = b.c[k];\n"
                     "  for (int k = 0; k < 4; k++) bq.c[k] = b.c[3 + k];\n"
                     "  %s p = %s(aq, bp);\n  %s m = %s(aq, bq);\n"
                     "  for (int k = 0; k < 3; k++) r.c[k] = %s(p.c[k] + ap.c[k]);\n"
                     "  for (int k = 0; k < 4; k++) r.c[3 + k] = m.c[k];\n",
                 V3, rot, QT, qm, R);
    buf_puts(&h, "  return r;\n");
    break;
  }
  case BI_DETERMINANT: case BI_INVERSE: {
    /* mat.h: the 2x2 determinant a00 a11 - a10 a01, the 3x3 one
     * dot(row 0, cross(row 1, row 2)); the inverse is the adjugate times
     * 1 / det, zero when det is zero */
    if (a->rows == 2) {
      buf_printf(&h, "  float det = %s(%s(a.m[0][0] * a.m[1][1]) - %s(a.m[1][0] * a.m[0][1]));\n",
                 R, R, R);
      if (bi == BI_DETERMINANT) {
        buf_puts(&h, "  return det;\n");
        break;
      }
      buf_printf(&h, "  %s r;\n"
                     "  if (!(det > 0.0f || det < -0.0f)) {\n"
                     "    for (int k = 0; k < 4; k++) r.m[k / 2][k %% 2] = 0.0f;\n"
                     "    return r;\n  }\n"
                     "  float rcp = %s(1.0f / det);\n"
                     "  r.m[0][0] = %s(a.m[1][1] * rcp); r.m[0][1] = %s(-a.m[0][1] * rcp);\n"
                     "  r.m[1][0] = %s(-a.m[1][0] * rcp); r.m[1][1] = %s(a.m[0][0] * rcp);\n"
                     "  return r;\n", RT, R, R, R, R, R);
      break;
    }
    /* b[i][j] = a[p][q] a[s][t] - a[u][v] a[w][x], as mat.h lists them */
    static const char *const adj[9] = {"11221221", "02210122", "01120211",
                                       "12201022", "00220220", "02100012",
                                       "10211120", "01200021", "00110110"};
    buf_puts(&h, "  float c[9];\n");
    for (int k = 0; k < 9; k++) {
      const char *q = adj[k];
      buf_printf(&h, "  c[%d] = %s(%s(a.m[%c][%c] * a.m[%c][%c]) - %s(a.m[%c][%c] * a.m[%c][%c]));\n",
                 k, R, R, q[0], q[1], q[2], q[3], R, q[4], q[5], q[6], q[7]);
    }
    /* c[3 i + j] is b[i][j]; the determinant uses the cross product
     * b[0][0], b[1][0], b[2][0] */
    buf_printf(&h, "  float det = %s(%s(%s(a.m[0][0] * c[0]) + %s(a.m[0][1] * c[3])) + %s(a.m[0][2] * c[6]));\n",
               R, R, R, R, R);
    if (bi == BI_DETERMINANT) {
      buf_puts(&h, "  return det;\n");
      break;
    }
    buf_printf(&h, "  %s r;\n  float rcp = det != 0.0f ? %s(1.0f / det) : 0.0f;\n"
                   "  for (int k = 0; k < 9; k++) r.m[k / 3][k %% 3] = det != 0.0f ? %s(c[k] * rcp) : 0.0f;\n"
                   "  return r;\n", RT, R, R);
    break;
  }
  case BI_CROSS:
    buf_printf(&h, "  %s r;\n"
                   "  r.c[0] = %s(%s(a.c[1] * b.c[2]) - %s(a.c[2] * b.c[1]));\n"
                   "  r.c[1] = %s(%s(a.c[2] * b.c[0]) - %s(a.c[0] * b.c[2]));\n"
                   "  r.c[2] = %s(%s(a.c[0] * b.c[1]) - %s(a.c[1] * b.c[0]));\n"
                   "  return r;\n", RT, R, R, R, R, R, R, R, R, R);
    break;
  case BI_SPATIAL_CROSS: case BI_SPATIAL_CROSS_DUAL: {
    /* spatial.h: rounded cross products of the halves (w, v), and the
     * sum of two of them rounded; cross: (aw x bw, av x bw + aw x bv),
     * dual: (aw x bw + av x bv, aw x bv) */
    const Type *v3 = ty_vec(E->C, sc, 3);
    const char *cr = lowp_special(E, BI_CROSS, v3, 2, (const Type *[]){v3, v3});
    bool dual = bi == BI_SPATIAL_CROSS_DUAL;
    buf_printf(&h, "  %s aw, av, bw, bv;\n"
                   "  for (int k = 0; k < 3; k++) {\n"
                   "    aw.c[k] = a.c[k]; av.c[k] = a.c[3 + k];\n"
                   "    bw.c[k] = b.c[k]; bv.c[k] = b.c[3 + k];\n  }\n"
                   "  %s x = %s(aw, bw), y = %s(av, %s), z = %s(aw, bv);\n  %s r;\n"
                   "  for (int k = 0; k < 3; k++) {\n",
               emit_ctype(E, v3), emit_ctype(E, v3), cr, cr, dual ? "bv" : "bw",
               cr, RT);
    if (dual)
      buf_printf(&h, "    r.c[k] = %s(x.c[k] + y.c[k]); r.c[3 + k] = z.c[k];\n", R);
    else
      buf_printf(&h, "    r.c[k] = x.c[k]; r.c[3 + k] = %s(y.c[k] + z.c[k]);\n", R);
    buf_puts(&h, "  }\n  return r;\n");
    break;
  }
  case BI_TRACE:
    buf_printf(&h, "  float s = a.m[0][0];\n"
                   "  for (int k = 1; k < %d; k++) s = %s(s + a.m[k][k]);\n"
                   "  return s;\n", a->rows, R);
    break;
  case BI_LERP:
    /* a * (1 - t) + b * t, each operation rounded */
    if (a->kind == TY_SCALAR)
      buf_printf(&h, "  float u = %s(1.0f - c);\n"
                     "  return %s(%s(a * u) + %s(b * c));\n", R, R, R, R);
    else
      buf_printf(&h, "  float u = %s(1.0f - c);\n  %s r;\n"
                     "  for (int k = 0; k < %d; k++) r.c[k] = %s(%s(a.c[k] * u) + %s(b.c[k] * c));\n"
                     "  return r;\n", R, RT, a->rows, R, R, R);
    break;
  case BI_SMOOTHSTEP: {
    const char *cl = emit_helper(E, BI_CLAMP, ty_scalar(KERN_SCALAR_FLOAT32), 3,
                                 (const Type *[]){ty_scalar(KERN_SCALAR_FLOAT32),
                                                  ty_scalar(KERN_SCALAR_FLOAT32),
                                                  ty_scalar(KERN_SCALAR_FLOAT32)});
    buf_printf(&h, "  float x = %s(%s(%s(c - a) / %s(b - a)), 0.0f, 1.0f);\n"
                   "  return %s(%s(x * x) * %s(3.0f - %s(2.0f * x)));\n",
               cl, R, R, R, R, R, R, R);
    break;
  }
  case BI_OP_FLOORDIV:
    /* Warp: floorf(float(a / b)), the quotient rounded first */
    buf_printf(&h, "  return floor%s(%s(a / b));\n",
               E->T->overloaded_math ? "" : "f", R);
    break;
  default: /* products of vectors and matrices (Warp's mat.h order) */
    if (a->quat && b->quat) {
      /* the Hamilton product, quat.h's terms in its order:
       * x = a.w b.x + b.w a.x + a.y b.z - b.y a.z, ...,
       * w = a.w b.w - a.x b.x - a.y b.y - a.z b.z */
      static const char *const terms[4] = {"30+30+12-21", "31+31+20-02",
                                           "32+32+01-10", "33-00-11-22"};
      buf_printf(&h, "  %s r;\n", RT);
      for (int k = 0; k < 4; k++) {
        const char *t = terms[k];
        buf_printf(&h, "  r.c[%d] = %s(%s(%s(%s(a.c[%c] * b.c[%c]) %c %s(a.c[%c] * b.c[%c])) "
                       "%c %s(a.c[%c] * b.c[%c])) %c %s(a.c[%c] * b.c[%c]));\n",
                   k, R, R, R, R, t[0], t[1], t[2], R,
                   k == 3 ? t[3] : t[4], k == 3 ? t[4] : t[3], t[5], R, t[6], t[7],
                   t[8], R, t[9], t[10]);
      }
      buf_puts(&h, "  return r;\n");
    } else if (a->kind == TY_MAT && b->kind == TY_VEC) {
      buf_printf(&h, "  %s r;\n  for (int i = 0; i < %d; i++) {\n", RT, a->rows);
      RDOT("    r.c[i]", "a.m[i][k]", "b.c[k]", a->cols);
      buf_puts(&h, "  }\n  return r;\n");
    } else if (a->kind == TY_VEC && b->kind == TY_MAT) {
      buf_printf(&h, "  %s r;\n  for (int j = 0; j < %d; j++) {\n", RT, b->cols);
      RDOT("    r.c[j]", "a.c[k]", "b.m[k][j]", b->rows);
      buf_puts(&h, "  }\n  return r;\n");
    } else {
      buf_printf(&h, "  %s r;\n  for (int i = 0; i < %d; i++)\n"
                     "  for (int j = 0; j < %d; j++) {\n", RT, a->rows, b->cols);
      RDOT("    r.m[i][j]", "a.m[i][k]", "b.m[k][j]", a->cols);
      buf_puts(&h, "  }\n  return r;\n");
    }
    break;
  }
#undef RDOT
  buf_puts(&h, "}\n");
  emit_pre(E, name, "%s", h.p);
  return name;
}

/* 16-bit expressions (Note [16-bit floats]): constants rounded at compile
 * time, operators and builtins computed in float32 and rounded, loads
 * widened.  Returns false for the expressions the common code spells
 * unchanged (variables, comparisons, constructors, components ...). */
bool emit_lowp_expr(Emit *E, Buf *b, IrExpr *e) {
  const Type *t = e->ty;
  switch (e->kind) {
  case E_CONST: {
    if (!emit_lowp(t))
      return false;
    /* a double beyond float32's range is infinite in 16 bits too (and
     * undefined behaviour to convert) */
    double d = e->fval;
    float f = isfinite(d) && fabs(d) > FLT_MAX ? (d > 0 ? INFINITY : -INFINITY)
                                               : (float)d;
    float r = t->sc == KERN_SCALAR_FLOAT16
                  ? kern_float16_to_float(kern_float16_from_float(f))
                  : kern_bfloat16_to_float(kern_bfloat16_from_float(f));
    if (r != r) {
      buf_puts(b, "K_NAN_F");
    } else if (r - r != 0) {
      buf_puts(b, r > 0 ? "K_INF_F" : "(-K_INF_F)");
    } else {
      char tmp[64];
      /* Note [GLSL float literals] in common.c: all the digits on vulkan */
      if (E->T->id != KERN_TARGET_VULKAN || fmt_short_g(tmp, r, 17) < 0)
        snprintf(tmp, sizeof tmp, E->T->id == KERN_TARGET_VULKAN ? "%.17g" : "%.9g", (double)r);
      if (!strpbrk(tmp, ".eEn"))
        strcat(tmp, ".0");
      buf_printf(b, "%s%sf%s", r < 0 ? "(" : "", tmp, r < 0 ? ")" : "");
    }
    return true;
  }
  case E_BINARY:
    if (!emit_lowp(t) || (e->op >= OP_LT && e->op <= OP_NE))
      return false;
    buf_printf(b, "%s(", emit_lowp_round(E, t));
    if (!emit_vk_zero_op(E, b, e)) {
      buf_puts(b, "(");
      emit_expr(E, b, e->a);
      buf_printf(b, ") %s (", e->op == OP_ADD ? "+" : e->op == OP_SUB ? "-"
                              : e->op == OP_MUL ? "*" : "/");
      emit_expr(E, b, e->b);
      buf_puts(b, ")");
    }
    buf_puts(b, ")");
    return true;
  case E_CAST: {
    const Type *from = e->a->ty;
    if (!emit_lowp(t) && !emit_lowp(from))
      return false;
    if (t->kind == TY_SCALAR && !emit_lowp(t))
      return false; /* from a float register: C's conversion is Warp's */
    if (t->kind == TY_SCALAR) {
      /* Warp converts through float32: a double or an int64 is rounded
       * twice, as half(float(x)). */
      buf_printf(b, "%s((float)(", emit_lowp_round(E, t));
      emit_expr(E, b, e->a);
      buf_puts(b, "))");
      return true;
    }
    buf_printf(b, "%s(", lowp_vcast(E, t, from));
    emit_expr(E, b, e->a);
    buf_puts(b, ")");
    return true;
  }
  case E_MAKE:
    if (e->nargs != 1 || e->args[0]->ty->kind == TY_SCALAR ||
        (!emit_lowp(t) && !emit_lowp(e->args[0]->ty)))
      return false;
    buf_printf(b, "%s(", lowp_vcast(E, t, e->args[0]->ty));
    emit_expr(E, b, e->args[0]);
    buf_puts(b, ")");
    return true;
  case E_CALL: {
    if (e->nargs > 4)
      return false; /* no 16-bit builtin takes more */
    bool any = emit_lowp(t);
    for (int i = 0; i < e->nargs; i++)
      if (emit_lowp(e->args[i]->ty))
        any = true;
    if (!any)
      return false;
    const Type *at[4], *lt[4];
    for (int i = 0; i < e->nargs && i < 4; i++) {
      lt[i] = e->args[i]->ty;
      at[i] = emit_wide(E, e->args[i]->ty);
    }
    if (e->bi == BI_CAST) {
      /* Note [16-bit cast] (extra.c): the helper reads and makes the
       * 16 bits, so it takes the 16-bit types */
      buf_printf(b, "%s(", emit_helper(E, BI_CAST, t, 1, lt));
      emit_expr(E, b, e->args[0]);
      buf_puts(b, ")");
      return true;
    }
    const char *h = e->nargs > 0 && e->nargs <= 3 && emit_lowp(lt[0])
                        ? lowp_special(E, e->bi, t, e->nargs, lt)
                        : NULL; /* quat_identity(dtype=...) has no argument */
    if (h) {
      /* the helper rounds as it goes */
      buf_printf(b, "%s(", h);
      for (int i = 0; i < e->nargs; i++) {
        if (i)
          buf_puts(b, ", ");
        emit_expr(E, b, e->args[i]);
      }
      buf_puts(b, ")");
      return true;
    }
    h = emit_helper(E, e->bi, emit_wide(E, t), e->nargs, at);
    if (emit_lowp(t))
      buf_printf(b, "%s(", emit_lowp_round(E, t));
    buf_printf(b, "%s(", h);
    for (int i = 0; i < e->nargs; i++) {
      if (i)
        buf_puts(b, ", ");
      emit_expr(E, b, e->args[i]);
    }
    buf_puts(b, ")");
    if (emit_lowp(t))
      buf_puts(b, ")");
    return true;
  }
  default:
    return false;
  }
}
