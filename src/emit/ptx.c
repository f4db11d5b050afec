/*
 * ptx.c -- a module as PTX, for the CUDA driver's JIT (the quick tier of a
 * cold CUDA load, issue #14).
 *
 * NVRTC takes 100+ ms to compile even a small module; the driver's PTX JIT
 * takes 15-50 ms.  So for a module within a subset of the language
 * (scalars, vectors, matrices and quaternions, contiguous arrays of them,
 * control flow, exact arithmetic builtins, atomics, user functions) kern
 * writes the PTX itself, the runtime loads
 * it at once and swaps in NVRTC's optimised build when that is ready.  The
 * emitter walks the same IR as common.c, keeps every value in a virtual
 * register (ptxas allocates the real ones) and inlines user functions.
 * Anything outside the subset is refused with its position: the module
 * then simply has no quick tier.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emit.h"

/* Note [PTX tier]: the two builds of a module run one after the other in
 * one process (the runtime swaps the PTX build for NVRTC's mid-run), so
 * they must agree bit for bit, and they do by construction:
 *
 *  - The ABI is the CUDA emitter's (cuda.c): the same entry symbol, one
 *    .param per kernel parameter with the C struct's size and alignment
 *    (an array is { T *data; int64_t shape[4]; }, 40 bytes), then
 *    kern__dims (64 bytes); the same grid-stride loop over
 *    [dims.begin, dims.total), and wp.tid() decomposed from the loop
 *    counter as cuda.c does.
 *  - Every operation is the one the emitted C asks for and NVRTC (with
 *    --fmad=false, IEEE division and square root) performs: float
 *    + - * / and sqrt are the correctly rounded .rn instructions (an
 *    exact operation has one result, so no two correct compilers
 *    differ), never contracted; conversions are C's (rzi to integers,
 *    rn to floats); comparisons keep C's NaN rules (!= is unordered);
 *    integers wrap, and narrow integers are kept sign- or zero-extended
 *    to 32 bits as C's promotions and casts back leave them.  Integer
 *    / and % are C's truncating division; the expansion guards their
 *    divisors (Note [scalar rules] in ir/expand.c).
 *  - && and || branch, and so does ?: unless both of its sides are
 *    locals or constants (then selp), so an operand C would not evaluate
 *    (a load that would be out of bounds) is not evaluated here either.
 *
 * Two assumptions: where C leaves a result undefined (a shift by the
 * width or more) the PTX has the instruction NVVM emits for it (shl and
 * shr, which clamp the count); and an index that is the thread index is
 * the int32 wp.tid() value, which equals the CUDA form's 64-bit loop
 * counter for launches of fewer than 2^31 items.
 *
 * Builtins defined once: this emitter reads the module after the IR pass
 * ir_expand (Note [expansion] in ir/expand.c), which rewrites vectors,
 * matrices, quaternions and transforms into scalar locals and every
 * builtin on them, and the composite scalar builtins (lerp, smoothstep,
 * clamp, degrees, radians, rand_init, randf, randi), into the scalar
 * operations of their C helpers, in the helpers' order.  The meaning of
 * those builtins lives there, once; CI runs that expanded IR through the
 * C emitter on the CPU (conformance_cpu_expanded), so the expansion is
 * tested against real Warp without a GPU.  The scalar builtins that are
 * rules rather than instructions (min and max with Warp's NaN rule, sign,
 * step, nonzero, frac, the isnan family, the guarded integer division
 * family, the index wrap) are written out there too, as operators and
 * selects (Note [scalar rules]).  What is left here is the spelling of
 * scalar IR, instruction by instruction (the operators, conversions,
 * constants, and the scalar builtins that are one instruction with one
 * meaning: float abs, sqrt, floor, ceil, trunc), the combine of an atomic
 * min or max (inside its compare-and-swap loop), and the irreducible parts: loads and
 * stores, atomics, the grid loop, control flow, inlined calls, and moving
 * whole vector values across those boundaries (Note [PTX vectors]).  A
 * module the expansion refuses is refused here with its reason.
 *
 * The builtins on vectors the expansion covers: + - * / (by a scalar), unary -, == and !=,
 * cw_mul, cw_div, the componentwise scalar builtins (abs, sign, floor,
 * ceil, trunc, frac, min, max, %, //), min and max over a vector, dot,
 * length, length_sq, normalize, cross, outer, lerp, transpose, trace,
 * diag, get_diag, identity, the isnan family, the 2x2 and 3x3
 * determinant and inverse, matrix-vector and matrix-matrix products,
 * transform_point and transform_vector of a 4x4 matrix; of quaternions
 * the Hamilton product, quat_rotate(_inv), quat_inverse, quat_identity,
 * quat_to_matrix and normalize; of transforms (p, q in 7 components)
 * transform_identity, the translation and rotation parts,
 * transform_point, transform_vector, transform_inverse and
 * transform_multiply (xform_body's sequences); atomics on vector and
 * matrix elements, one per component as emit_atomic_name's helper.  Also
 * the scalar smoothstep, the random numbers rand_init, randf and randi
 * (integer hashing; randf's float is an exact conversion and product),
 * and atomic and, or, xor, exch and cas, which work on the bits.
 *
 * Refused: structs, the transform builtins of extra.c, 16-bit floats,
 * views, indexed arrays, stores into a field or component of an array
 * element (a[i].x = v), the 4x4 determinant and inverse (their
 * intermediates are double), every transcendental function (their
 * results depend on the library's algorithm, and NVRTC's libdevice is not
 * ours to copy), float % and round (no single instruction computes C's
 * fmod or roundf), printf, debug mode, wp.address_of, float-to-narrow-
 * integer casts (C leaves the out-of-range ones undefined, and the two
 * compilers need not agree), atomics on 8- and 16-bit elements, and
 * bitwise atomics of floats.  An aggregated atomic (Note [atomic
 * aggregation]) keeps a per-thread partial and issues one atomic per
 * thread after the loop; the CUDA build combines a block first.  Integer
 * and min/max results are the same; a float sum's rounding depends on the
 * order of its additions
 * in both builds (atomics of different blocks arrive in any order). */

/* Register classes: predicates, 32-bit integers (bool and the narrow
 * integers too), 64-bit integers and addresses, float32, float64. */
enum { RP, RR, RD, RF, RFD, NCLASS };
static const char *const cls_prefix[NCLASS] = {"%p", "%r", "%rd", "%f", "%fd"};
static const char *const cls_decl[NCLASS] = {".pred", ".b32", ".b64", ".f32",
                                             ".f64"};

/* An array parameter's registers: data pointer, then shape[0..3]. */
typedef struct ArrRegs {
  const char *data;
  const char *shape[4];
} ArrRegs;

/* A variable's register, or an array parameter's registers. */
typedef struct Bind {
  IrVar *var;
  const char *reg;
  ArrRegs *arr;
  const char **comps; /* a vector's or matrix's components (Note [PTX vectors]) */
} Bind;

typedef struct Loop {
  int cont, end; /* labels */
} Loop;

typedef struct Px {
  Compiler *C;
  IrModule *m;
  Buf body;
  int nreg[NCLASS];
  int nlabel;
  Bind *binds;
  int nbinds, capbinds;
  Loop loops[64];
  int nloops;
  int next_label;  /* the kernel's label for the next work item */
  /* Inlining a user function: where S_RETURN goes and what it sets. */
  int ret_label;
  const char *ret_reg;
  const char **ret_comps; /* a vector or matrix result */
  const Type *ret_ty;
  int depth;       /* of inlined calls */
  const char **agg_regs; /* by IrAgg id */
  int nagg;
  const char *tid[4];
  /* refusal */
  jmp_buf jmp;
  const char *why;
  Pos pos;
  Pos stmt_pos;    /* of the statement being emitted */
} Px;

static _Noreturn void refuse(Px *X, Pos pos, const char *what) {
  X->why = what;
  /* calls and operators carry no position of their own: their statement's */
  X->pos = pos.line > 0 ? pos : X->stmt_pos;
  longjmp(X->jmp, 1);
}

static void ins(Px *X, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Inlining copies a function's body per call, so a module of small
 * functions calling each other can spell out enormously; past this size
 * the driver's JIT would be no quicker than NVRTC anyway. */
enum { MAX_BODY = 4 << 20 };

static void ins(Px *X, const char *fmt, ...) {
  if (X->body.len > MAX_BODY)
    refuse(X, X->stmt_pos, "a kernel this large (its inlined calls)");
  va_list ap;
  va_start(ap, fmt);
  buf_puts(&X->body, "\t");
  buf_vprintf(&X->body, fmt, ap);
  va_end(ap);
  buf_puts(&X->body, "\n");
}

static int new_label(Px *X) { return X->nlabel++; }
static void put_label(Px *X, int l) { buf_printf(&X->body, "L%d:\n", l); }

static const char *reg(Px *X, int cls) {
  return arena_printf(X->C, "%s%d", cls_prefix[cls], ++X->nreg[cls]);
}

/* ---------------------------------------------------------------- types */

static bool ok_scalar(kern_scalar sc) {
  switch (sc) {
  case KERN_SCALAR_BOOL: case KERN_SCALAR_INT8: case KERN_SCALAR_INT16:
  case KERN_SCALAR_INT32: case KERN_SCALAR_INT64: case KERN_SCALAR_UINT8:
  case KERN_SCALAR_UINT16: case KERN_SCALAR_UINT32: case KERN_SCALAR_UINT64:
  case KERN_SCALAR_FLOAT32: case KERN_SCALAR_FLOAT64:
    return true;
  default:
    return false;
  }
}

static void need_scalar(Px *X, const Type *t, Pos pos) {
  if (!t || t->kind != TY_SCALAR || !ok_scalar(t->sc))
    refuse(X, pos, arena_printf(X->C, "values of type %s",
                                t ? ty_name(X->C, t) : "?"));
}

static int cls_of(kern_scalar sc) {
  if (sc == KERN_SCALAR_FLOAT32)
    return RF;
  if (sc == KERN_SCALAR_FLOAT64)
    return RFD;
  return sc_bits(sc) == 64 ? RD : RR;
}

static bool is64(kern_scalar sc) { return cls_of(sc) == RD; }
static bool isf(kern_scalar sc) {
  return sc == KERN_SCALAR_FLOAT32 || sc == KERN_SCALAR_FLOAT64;
}
/* Narrow integers (and bool) are held in 32 bits, extended as C holds
 * them after a promotion; they compare as signed 32-bit values. */
static bool narrow(kern_scalar sc) { return cls_of(sc) == RR && sc_bits(sc) < 32; }

/* The type suffix of arithmetic on a register of sc. */
static const char *ity(kern_scalar sc) {
  switch (sc) {
  case KERN_SCALAR_UINT32: return "u32";
  case KERN_SCALAR_INT64: return "s64";
  case KERN_SCALAR_UINT64: return "u64";
  case KERN_SCALAR_FLOAT32: return "f32";
  case KERN_SCALAR_FLOAT64: return "f64";
  default: return "s32"; /* int32, narrow integers, bool */
  }
}

/* neg wraps the same for signed and unsigned; ptxas wants a signed type */
static const char *neg_ty(kern_scalar sc) {
  return isf(sc) ? ity(sc) : is64(sc) ? "s64" : "s32";
}

static const char *bty(kern_scalar sc) {
  return isf(sc) ? ity(sc) : is64(sc) ? "b64" : "b32";
}

/* The memory type of an element (ld/st). */
static const char *mty(kern_scalar sc) {
  switch (sc) {
  case KERN_SCALAR_BOOL: case KERN_SCALAR_UINT8: return "u8";
  case KERN_SCALAR_INT8: return "s8";
  case KERN_SCALAR_INT16: return "s16";
  case KERN_SCALAR_UINT16: return "u16";
  case KERN_SCALAR_INT32: return "s32";
  case KERN_SCALAR_UINT32: return "u32";
  case KERN_SCALAR_INT64: return "s64";
  case KERN_SCALAR_UINT64: return "u64";
  case KERN_SCALAR_FLOAT32: return "f32";
  default: return "f64";
  }
}

/* The C cast of a 32-bit result back to a narrow type. */
static void normalize(Px *X, const char *r, kern_scalar sc) {
  switch (sc) {
  case KERN_SCALAR_INT8: ins(X, "cvt.s32.s8 %s, %s;", r, r); return;
  case KERN_SCALAR_INT16: ins(X, "cvt.s32.s16 %s, %s;", r, r); return;
  case KERN_SCALAR_BOOL: /* kbool is an unsigned char */
  case KERN_SCALAR_UINT8: ins(X, "and.b32 %s, %s, 255;", r, r); return;
  case KERN_SCALAR_UINT16: ins(X, "and.b32 %s, %s, 65535;", r, r); return;
  default: return;
  }
}

/* ---------------------------------------------------------------- vars */

static void bind_arr(Px *X, IrVar *v, const char *r, ArrRegs *arr) {
  if (X->nbinds == X->capbinds) {
    int cap = X->capbinds ? 2 * X->capbinds : 64;
    Bind *n = arena_alloc(X->C, (size_t)cap * sizeof *n);
    if (X->nbinds)
      memcpy(n, X->binds, (size_t)X->nbinds * sizeof *n);
    X->binds = n;
    X->capbinds = cap;
  }
  X->binds[X->nbinds].var = v;
  X->binds[X->nbinds].reg = r;
  X->binds[X->nbinds].arr = arr;
  X->binds[X->nbinds].comps = NULL;
  X->nbinds++;
}

static void bind(Px *X, IrVar *v, const char *r) { bind_arr(X, v, r, NULL); }

static const char *var_reg(Px *X, IrVar *v, Pos pos) {
  for (int i = X->nbinds - 1; i >= 0; i--)
    if (X->binds[i].var == v && X->binds[i].reg)
      return X->binds[i].reg;
  refuse(X, pos, arena_printf(X->C, "the variable %s here", v->name));
}

static ArrRegs *arr_regs(Px *X, IrVar *v, Pos pos) {
  for (int i = X->nbinds - 1; i >= 0; i--)
    if (X->binds[i].var == v && X->binds[i].arr)
      return X->binds[i].arr;
  refuse(X, pos, arena_printf(X->C, "the array %s here", v->name));
}

static void zero(Px *X, const char *r, kern_scalar sc) {
  if (sc == KERN_SCALAR_FLOAT32)
    ins(X, "mov.f32 %s, 0f00000000;", r);
  else if (sc == KERN_SCALAR_FLOAT64)
    ins(X, "mov.f64 %s, 0d0000000000000000;", r);
  else
    ins(X, "mov.%s %s, 0;", bty(sc), r);
}

/* ---------------------------------------------------------------- expressions */

static const char *expr(Px *X, IrExpr *e);
static const char *cond(Px *X, IrExpr *e);
static void stmts(Px *X, IrStmt *s);

static const char *float_const(Px *X, kern_scalar sc, double v) {
  if (sc == KERN_SCALAR_FLOAT32) {
    /* common.c writes the constant in decimal with a suffix f, which the C
     * compiler rounds to float once: parse the same text the same way. */
    float f;
    if (isnan(v) || isinf(v)) {
      f = (float)v;
      if (isnan(v)) {
        uint32_t nan = 0x7fffffffu; /* K_NAN_F */
        memcpy(&f, &nan, 4);
      }
    } else {
      char tmp[64];
      if (fmt_short_g(tmp, v, 9) < 0)
        snprintf(tmp, sizeof tmp, "%.9g", v);
      f = strtof(tmp, NULL);
    }
    uint32_t u;
    memcpy(&u, &f, 4);
    return arena_printf(X->C, "0f%08X", u);
  }
  double d = v;
  if (isnan(v)) {
    /* (double)K_NAN_F: the float NaN 0x7fffffff widened */
    float f;
    uint32_t nan = 0x7fffffffu;
    memcpy(&f, &nan, 4);
    d = (double)f;
  } else if (!isinf(v)) {
    char tmp[64];
    if (fmt_short_g(tmp, v, 17) < 0)
      snprintf(tmp, sizeof tmp, "%.17g", v);
    d = strtod(tmp, NULL);
  }
  uint64_t u;
  memcpy(&u, &d, 8);
  return arena_printf(X->C, "0d%016llX", (unsigned long long)u);
}

/* An integer constant as C's emitted literal gives it: the value of the
 * type, extended to the register. */
static const char *int_const(Px *X, kern_scalar sc, uint64_t v) {
  switch (sc) {
  case KERN_SCALAR_BOOL: v = v ? 1 : 0; break;
  case KERN_SCALAR_INT8: v = (uint32_t)(int32_t)(int8_t)v; break;
  case KERN_SCALAR_INT16: v = (uint32_t)(int32_t)(int16_t)v; break;
  case KERN_SCALAR_UINT8: v = (uint8_t)v; break;
  case KERN_SCALAR_UINT16: v = (uint16_t)v; break;
  case KERN_SCALAR_INT32: case KERN_SCALAR_UINT32: v = (uint32_t)v; break;
  default: break;
  }
  /* signed types in signed decimal, as ptxas reads an operand of .s32 */
  if (sc_is_signed(sc) || sc == KERN_SCALAR_BOOL) {
    if (is64(sc))
      return (int64_t)v == INT64_MIN ? "0x8000000000000000"
                                     : arena_printf(X->C, "%lld", (long long)(int64_t)v);
    return arena_printf(X->C, "%d", (int32_t)(uint32_t)v);
  }
  return arena_printf(X->C, "%llu", (unsigned long long)v);
}

static const char *mov_new(Px *X, kern_scalar sc, const char *src) {
  const char *r = reg(X, cls_of(sc));
  ins(X, "mov.%s %s, %s;", bty(sc), r, src);
  return r;
}

/* A register holding the constant v of type sc. */
static const char *kconst(Px *X, kern_scalar sc, uint64_t v) {
  return mov_new(X, sc, int_const(X, sc, v));
}

/* p ? a : b, into a new register */
static const char *sel(Px *X, kern_scalar sc, const char *a, const char *b,
                       const char *p) {
  const char *r = reg(X, cls_of(sc));
  ins(X, "selp.%s %s, %s, %s, %s;", bty(sc), r, a, b, p);
  return r;
}

static const char *setp(Px *X, const char *cmp, kern_scalar sc, const char *a,
                        const char *b) {
  const char *p = reg(X, RP);
  ins(X, "setp.%s.%s %s, %s, %s;", cmp, ity(sc), p, a, b);
  return p;
}

/* A predicate as a bool (0 or 1) register. */
static const char *pred_bool(Px *X, const char *p) {
  const char *r = reg(X, RR);
  ins(X, "selp.u32 %s, 1, 0, %s;", r, p);
  return r;
}

static const char *cmp_name(int op, bool fl) {
  switch (op) {
  case OP_LT: return "lt";
  case OP_LE: return "le";
  case OP_GT: return "gt";
  case OP_GE: return "ge";
  case OP_EQ: return "eq";
  default: return fl ? "neu" : "ne"; /* C's != is true for NaN */
  }
}

/* Integer comparisons of unsigned 32/64-bit types use unsigned order. */
static const char *cmp_ty(kern_scalar sc) {
  switch (sc) {
  case KERN_SCALAR_UINT32: return "u32";
  case KERN_SCALAR_UINT64: return "u64";
  default: return ity(sc);
  }
}

static const char *compare(Px *X, int op, kern_scalar sc, const char *a,
                           const char *b) {
  const char *p = reg(X, RP);
  ins(X, "setp.%s.%s %s, %s, %s;", cmp_name(op, isf(sc)), cmp_ty(sc), p, a, b);
  return p;
}

/* x != 0 as a predicate (C's truth of a scalar) */
static const char *truth(Px *X, kern_scalar sc, const char *x) {
  const char *z = isf(sc) ? float_const(X, sc, 0.0) : "0";
  return compare(X, OP_NE, sc, x, z);
}

static const char *binop(Px *X, int op, kern_scalar sc, const char *a,
                         const char *b, Pos pos) {
  int c = cls_of(sc);
  const char *r = reg(X, c);
  bool fl = isf(sc);
  switch (op) {
  case OP_ADD: case OP_SUB: case OP_MUL: {
    const char *name = op == OP_ADD ? "add" : op == OP_SUB ? "sub" : "mul";
    if (fl)
      ins(X, "%s.rn.%s %s, %s, %s;", name, ity(sc), r, a, b);
    else
      ins(X, "%s%s.%s %s, %s, %s;", name, op == OP_MUL ? ".lo" : "",
          is64(sc) ? "s64" : "s32", r, a, b);
    break;
  }
  case OP_DIV: case OP_MOD:
    if (fl && op == OP_MOD)
      refuse(X, pos, "% of floats (C's fmod)");
    if (fl) {
      ins(X, "div.rn.%s %s, %s, %s;", ity(sc), r, a, b);
      break;
    }
    /* C's truncating division; the expansion guards the divisor (Note
     * [scalar rules]), and narrow types are held extended, so the 32-bit
     * instruction gives C's promoted result */
    ins(X, "%s.%s %s, %s, %s;", op == OP_DIV ? "div" : "rem",
        sc_is_signed(sc) ? (is64(sc) ? "s64" : "s32") : cmp_ty(sc), r, a, b);
    break;
  case OP_BITAND: case OP_BITOR: case OP_BITXOR:
    if (fl)
      refuse(X, pos, "bitwise operators on floats");
    ins(X, "%s.%s %s, %s, %s;", op == OP_BITAND ? "and" : op == OP_BITOR ? "or"
                                                                         : "xor",
        bty(sc), r, a, b);
    break;
  case OP_SHL: case OP_SHR: {
    if (fl)
      refuse(X, pos, "shifts of floats");
    const char *n = b;
    if (is64(sc)) {
      n = reg(X, RR);
      ins(X, "cvt.u32.u64 %s, %s;", n, b);
    }
    if (op == OP_SHL)
      ins(X, "shl.%s %s, %s, %s;", bty(sc), r, a, n);
    else
      ins(X, "shr.%s %s, %s, %s;", cmp_ty(sc), r, a, n);
    break;
  }
  default:
    refuse(X, pos, "this operator");
  }
  if (!fl)
    normalize(X, r, sc);
  return r;
}

/* C's conversion of the value a (type from) to type to. */
static const char *convert(Px *X, kern_scalar to, kern_scalar from,
                           const char *a, Pos pos) {
  if (to == KERN_SCALAR_BOOL)
    return pred_bool(X, truth(X, from, a));
  if (to == from)
    return a;
  const char *r = reg(X, cls_of(to));
  if (isf(to) && isf(from)) {
    if (to == KERN_SCALAR_FLOAT32)
      ins(X, "cvt.rn.f32.f64 %s, %s;", r, a);
    else
      ins(X, "cvt.f64.f32 %s, %s;", r, a);
    return r;
  }
  if (isf(to)) {
    /* from an integer (held extended in 32 bits when narrow) */
    const char *src = is64(from) ? (from == KERN_SCALAR_INT64 ? "s64" : "u64")
                      : from == KERN_SCALAR_UINT32 ? "u32" : "s32";
    ins(X, "cvt.rn.%s.%s %s, %s;", ity(to), src, r, a);
    return r;
  }
  if (isf(from)) {
    if (narrow(to))
      refuse(X, pos, "a conversion of a float to an 8- or 16-bit integer");
    const char *dst = is64(to) ? (to == KERN_SCALAR_INT64 ? "s64" : "u64")
                      : to == KERN_SCALAR_UINT32 ? "u32" : "s32";
    ins(X, "cvt.rzi.%s.%s %s, %s;", dst, ity(from), r, a);
    return r;
  }
  /* integer to integer: two's complement truncation or extension */
  if (is64(to) && is64(from)) {
    ins(X, "mov.b64 %s, %s;", r, a);
  } else if (is64(to)) {
    /* from a 32-bit register: sign-extend unless the source is uint32
     * (narrow types are held extended, so s32 covers them) */
    ins(X, "cvt.%s.%s %s, %s;", to == KERN_SCALAR_INT64 ? "s64" : "u64",
        from == KERN_SCALAR_UINT32 ? "u32" : "s32", r, a);
  } else if (is64(from)) {
    ins(X, "cvt.u32.u64 %s, %s;", r, a);
    normalize(X, r, to);
  } else {
    ins(X, "mov.b32 %s, %s;", r, a);
    normalize(X, r, to);
  }
  return r;
}

static int ncomp(const Type *t) {
  return t->kind == TY_SCALAR ? 1 : t->rows * t->cols;
}

/* The byte size of an array element of type t (a vector or matrix is its
 * components, as the C struct lays them out). */
static int elem_size(const Type *t) {
  int size = sc_bits(t->sc) / 8;
  if (size == 0)
    size = 1;
  return size * ncomp(t);
}

/* The 64-bit element offset of arr[idx...], row-major as emit_index_at. */
static const char *elem_addr(Px *X, IrVar *arr, IrExpr **idx, int n, Pos pos) {
  ArrRegs *A = arr_regs(X, arr, pos);
  const char *acc = NULL;
  for (int i = 0; i < n; i++) {
    need_scalar(X, idx[i]->ty, pos);
    kern_scalar sc = idx[i]->ty->sc;
    if (isf(sc))
      refuse(X, pos, "a float index");
    const char *v = expr(X, idx[i]);
    const char *w = v;
    if (!is64(sc)) {
      w = reg(X, RD);
      ins(X, "cvt.%s.%s %s, %s;", "s64", sc == KERN_SCALAR_UINT32 ? "u32" : "s32",
          w, v);
    }
    if (!acc) {
      acc = w;
    } else {
      const char *r = reg(X, RD);
      ins(X, "mad.lo.s64 %s, %s, %s, %s;", r, acc, A->shape[i], w);
      acc = r;
    }
  }
  const char *addr = reg(X, RD);
  int size = elem_size(arr->ty->elem);
  ins(X, "mad.lo.s64 %s, %s, %d, %s;", addr, acc, size, A->data);
  return addr;
}

static const char *bi_name(int bi) {
  return bi < BI_COUNT ? builtin_names[bi] : "(operator)";
}

/* The scalar builtins this emitter spells: instructions with one meaning
 * on every target.  The rest reach it written out as operators and
 * selects by the expansion (Note [scalar rules] in ir/expand.c); what is
 * still a call here is refused by name. */
static const char *call(Px *X, IrExpr *e) {
  Pos pos = e->pos;
  int bi = e->bi;
  for (int i = 0; i < e->nargs; i++)
    if (e->args[i]->ty->kind == TY_VEC || e->args[i]->ty->kind == TY_MAT)
      refuse(X, pos, arena_printf(X->C, "wp.%s of vectors", bi_name(bi)));
  need_scalar(X, e->ty, pos);
  bool prim = bi == BI_ABS || bi == BI_SQRT || bi == BI_FLOOR || bi == BI_CEIL ||
              bi == BI_TRUNC || bi == BI_FMA;
  if (!prim)
    refuse(X, pos, arena_printf(X->C, "wp.%s", bi_name(bi)));
  if (e->nargs != (bi == BI_FMA ? 3 : 1))
    refuse(X, pos, arena_printf(X->C, "wp.%s with %d arguments", bi_name(bi),
                                e->nargs));
  kern_scalar sc = e->ty->sc;
  for (int i = 0; i < e->nargs; i++) {
    need_scalar(X, e->args[i]->ty, pos);
    if (!isf(sc) || e->args[i]->ty->sc != sc)
      refuse(X, pos, arena_printf(X->C, "wp.%s of %s", bi_name(bi),
                                  ty_name(X->C, e->args[i]->ty)));
  }
  const char *a = expr(X, e->args[0]);
  const char *r = reg(X, cls_of(sc));
  switch (bi) {
  case BI_FMA: { /* the expansion's, Note [edge adjoint] in ir/expand.c */
    const char *b = expr(X, e->args[1]), *c = expr(X, e->args[2]);
    ins(X, "fma.rn.%s %s, %s, %s, %s;", ity(sc), r, a, b, c);
    break;
  }
  case BI_ABS:
    ins(X, "abs.%s %s, %s;", ity(sc), r, a);
    break;
  case BI_SQRT:
    ins(X, "sqrt.rn.%s %s, %s;", ity(sc), r, a);
    break;
  default:
    ins(X, "cvt.%s.%s.%s %s, %s;", bi == BI_FLOOR ? "rmi" : bi == BI_CEIL ? "rpi" : "rzi",
        ity(sc), ity(sc), r, a);
    break;
  }
  return r;
}

/* The combine of an atomic min or max (the compare-and-swap loop of a
 * float and an aggregated atomic's accumulator), which happens inside the
 * atomic and so cannot be an IR select: Warp's rule, Note [scalar rules]
 * in ir/expand.c, the first when they compare equal, the other when
 * exactly one is NaN.  The rule itself is tested through the expansion
 * (conformance_cpu_expanded) and the atomics by the conformance files'
 * PTX on a GPU. */
static const char *minmax(Px *X, bool mn, kern_scalar sc, const char *a,
                          const char *b) {
  if (!isf(sc)) {
    const char *r = reg(X, cls_of(sc));
    ins(X, "%s.%s %s, %s, %s;", mn ? "min" : "max", cmp_ty(sc), r, a, b);
    return r;
  }
  const char *p = setp(X, mn ? "le" : "ge", sc, a, b);
  const char *q = setp(X, "num", sc, b, b);
  const char *t = sel(X, sc, b, a, q);
  return sel(X, sc, a, t, p);
}

/* The atomic bi on the element at addr with value v (type sc); returns
 * the old value, as the helpers of cuda.c do. */
static const char *atomic(Px *X, int bi, kern_scalar sc, const char *addr,
                          const char *v, Pos pos) {
  if (narrow(sc) || !ok_scalar(sc))
    refuse(X, pos, "atomics on 8- or 16-bit elements");
  int c = cls_of(sc);
  const char *r = reg(X, c);
  bool fl = isf(sc);
  switch (bi) {
  case BI_ATOMIC_ADD: case BI_ATOMIC_SUB: {
    const char *val = v;
    if (bi == BI_ATOMIC_SUB) {
      val = reg(X, c);
      ins(X, "neg.%s %s, %s;", neg_ty(sc), val, v);
    }
    ins(X, "atom.global.add.%s %s, [%s], %s;",
        fl ? ity(sc) : is64(sc) ? "u64" : "u32", r, addr, val);
    return r;
  }
  case BI_ATOMIC_MIN: case BI_ATOMIC_MAX:
    if (!fl) {
      ins(X, "atom.global.%s.%s %s, [%s], %s;", bi == BI_ATOMIC_MIN ? "min" : "max",
          cmp_ty(sc), r, addr, v);
      return r;
    }
    {
      /* cuda.c's compare-and-swap loop on the bits */
      int ib = sc == KERN_SCALAR_FLOAT32 ? RR : RD;
      const char *bt = ib == RR ? "b32" : "b64";
      const char *old = reg(X, ib), *as = reg(X, ib), *nb = reg(X, ib);
      const char *f = reg(X, c);
      int top = new_label(X), done = new_label(X);
      ins(X, "ld.global.%s %s, [%s];", bt, old, addr);
      put_label(X, top);
      ins(X, "mov.%s %s, %s;", bt, as, old);
      ins(X, "mov.%s %s, %s;", bt, f, as);
      const char *nv = minmax(X, bi == BI_ATOMIC_MIN, sc, f, v);
      ins(X, "mov.%s %s, %s;", bt, nb, nv);
      const char *p = reg(X, RP);
      ins(X, "setp.eq.%s %s, %s, %s;", bt, p, nb, as);
      ins(X, "@%s bra L%d;", p, done);
      ins(X, "atom.global.cas.%s %s, [%s], %s, %s;", bt, old, addr, as, nb);
      ins(X, "setp.ne.%s %s, %s, %s;", bt, p, old, as);
      ins(X, "@%s bra L%d;", p, top);
      put_label(X, done);
      ins(X, "mov.%s %s, %s;", bt, r, old);
      return r;
    }
  case BI_ATOMIC_AND: case BI_ATOMIC_OR: case BI_ATOMIC_XOR:
    /* atomicAnd/Or/Xor on the unsigned view: bits either way */
    if (fl)
      refuse(X, pos, arena_printf(X->C, "wp.%s of floats", builtin_names[bi]));
    ins(X, "atom.global.%s.%s %s, [%s], %s;",
        bi == BI_ATOMIC_AND ? "and" : bi == BI_ATOMIC_OR ? "or" : "xor",
        is64(sc) ? "b64" : "b32", r, addr, v);
    return r;
  case BI_ATOMIC_EXCH:
    /* atomicExch, of a float's bits too */
    ins(X, "atom.global.exch.%s %s, [%s], %s;",
        sc_bits(sc) == 64 ? "b64" : "b32", r, addr, v);
    return r;
  default:
    refuse(X, pos, arena_printf(X->C, "wp.%s", builtin_names[bi]));
  }
}

/* ---------------------------------------------------------------- vectors */

/* Note [PTX vectors]: a vector or matrix value is its components, one
 * register each, in the order of the C struct's storage (c[k]; m[i][j]
 * row-major at k = i * cols + j), so a kernel parameter, an array element
 * and a value share one layout.  After the expansion (Note [expansion] in
 * ir/expand.c) no operation computes on such a value: it is only moved
 * whole (a parameter, a load or store, an atomic per component, a user
 * function's argument, result or local, an E_MAKE of scalars) and taken
 * apart by E_COMP with constant indices; so this file holds none of the
 * builtins' semantics.  Components of 8- and 16-bit types are refused. */

static bool is_agg(const Type *t) {
  return t && (t->kind == TY_VEC || t->kind == TY_MAT);
}


static void need_agg(Px *X, const Type *t, Pos pos) {
  if (!is_agg(t) || narrow(t->sc) || !ok_scalar(t->sc) ||
      ((t->quat || t->xform) && !isf(t->sc)) ||
      ncomp(t) > 64)
    refuse(X, pos, arena_printf(X->C, "values of type %s",
                                t ? ty_name(X->C, t) : "?"));
}

/* Scalar, vector or matrix: the tier's value types. */
static void need_value(Px *X, const Type *t, Pos pos) {
  if (is_agg(t))
    need_agg(X, t, pos);
  else
    need_scalar(X, t, pos);
}

static const char **comps_new(Px *X, const Type *t) {
  int n = ncomp(t);
  const char **r = arena_alloc(X->C, (size_t)n * sizeof *r);
  for (int k = 0; k < n; k++)
    r[k] = reg(X, cls_of(t->sc));
  return r;
}

static void bind_comps(Px *X, IrVar *v, const char **comps) {
  bind_arr(X, v, NULL, NULL);
  X->binds[X->nbinds - 1].comps = comps;
}

static const char **var_comps(Px *X, IrVar *v, Pos pos) {
  for (int i = X->nbinds - 1; i >= 0; i--)
    if (X->binds[i].var == v && X->binds[i].comps)
      return X->binds[i].comps;
  refuse(X, pos, arena_printf(X->C, "the variable %s here", v->name));
}

/* A fresh, zeroed vector or matrix (emit_zero, a local's start). */
static const char **comps_zero(Px *X, const Type *t) {
  const char **r = comps_new(X, t);
  for (int k = 0; k < ncomp(t); k++)
    zero(X, r[k], t->sc);
  return r;
}

/* dst = src, component by component; src may hold registers of dst in
 * other places (v = vec3(v[1], v[0], v[2])), so it is copied first. */
static void comps_assign(Px *X, const char **dst, const char **src, const Type *t) {
  int n = ncomp(t);
  bool alias = false;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i != j && dst[i] == src[j])
        alias = true;
  if (alias) {
    const char **tmp = comps_new(X, t);
    for (int k = 0; k < n; k++)
      ins(X, "mov.%s %s, %s;", bty(t->sc), tmp[k], src[k]);
    src = tmp;
  }
  for (int k = 0; k < n; k++)
    if (dst[k] != src[k])
      ins(X, "mov.%s %s, %s;", bty(t->sc), dst[k], src[k]);
}

/* The registers of a value: its components, or the scalar itself. */
static const char **vexpr(Px *X, IrExpr *e);
static const char **value(Px *X, IrExpr *e) {
  if (is_agg(e->ty))
    return vexpr(X, e);
  const char **r = arena_alloc(X->C, sizeof *r);
  r[0] = expr(X, e);
  return r;
}

/* A component index: the expansion leaves only constants (Note
 * [expansion]); a run-time index was selected among the components there. */
static int comp_index(Px *X, IrExpr *i, int len, Pos pos) {
  if (i->kind != E_CONST || i->ival >= (uint64_t)len)
    refuse(X, pos, "this component index");
  return (int)i->ival;
}

/* The scalar component of an E_COMP (a vector's c[b], a matrix's m[b][c]). */
static const char *comp_expr(Px *X, IrExpr *e) {
  Pos pos = e->pos.line > 0 ? e->pos : X->stmt_pos;
  const Type *t = e->a->ty;
  need_agg(X, t, pos);
  if ((t->kind == TY_VEC) != (e->c == NULL))
    refuse(X, pos, "this component");
  const char **c = vexpr(X, e->a);
  int i = comp_index(X, e->b, t->rows, pos);
  if (t->kind == TY_VEC)
    return c[i];
  return c[i * t->cols + comp_index(X, e->c, t->cols, pos)];
}

/* Loads of the element at addr, component by component. */
static const char **comps_load(Px *X, const Type *t, const char *addr) {
  const char **r = comps_new(X, t);
  int size = elem_size(t) / ncomp(t);
  for (int k = 0; k < ncomp(t); k++)
    ins(X, "ld.global.%s %s, [%s+%d];", mty(t->sc), r[k], addr, k * size);
  return r;
}

static const char *inline_call(Px *X, IrExpr *e);
static const char **inline_call_v(Px *X, IrExpr *e);
static const char **atomic_v(Px *X, IrExpr *e);

/* A vector- or matrix-valued expression: its component registers. */
static const char **vexpr(Px *X, IrExpr *e) {
  Pos pos = e->pos.line > 0 ? e->pos : X->stmt_pos;
  const Type *t = e->ty;
  need_agg(X, t, pos);
  int n = ncomp(t);
  kern_scalar sc = t->sc;
  switch (e->kind) {
  case E_VAR:
    return var_comps(X, e->var, pos);
  case E_MAKE: {
    /* the expansion's whole value from its components (Note [expansion]) */
    const char **r = arena_alloc(X->C, (size_t)n * sizeof *r);
    if (e->nargs != n)
      refuse(X, pos, "this constructor");
    for (int k = 0; k < n; k++) {
      if (e->args[k]->ty->kind != TY_SCALAR || e->args[k]->ty->sc != sc)
        refuse(X, pos, "a constructor from another type");
      r[k] = expr(X, e->args[k]);
    }
    return r;
  }
  case E_FCALL:
    return inline_call_v(X, e);
  case E_LOAD: {
    if (!ty_eq(e->var->ty->elem, t))
      refuse(X, pos, "this load");
    const char *addr = elem_addr(X, e->var, e->args, e->nargs, pos);
    return comps_load(X, t, addr);
  }
  case E_ATOMIC:
    return atomic_v(X, e);
  default:
    refuse(X, pos, "this vector expression");
  }
}

/* An atomic on a vector or matrix element: one per component, in order,
 * as emit_atomic_name's helper; the old components are the result. */
static const char **atomic_v(Px *X, IrExpr *e) {
  Pos pos = e->pos.line > 0 ? e->pos : X->stmt_pos;
  const Type *t = e->ty;
  if (e->b)
    refuse(X, pos, "wp.atomic_cas");
  if (!ty_eq(e->var->ty->elem, t) || !ty_eq(e->c->ty, t))
    refuse(X, pos, "an atomic of mixed types");
  const char *addr = elem_addr(X, e->var, e->args, e->nargs, pos);
  const char **v = vexpr(X, e->c);
  int n = ncomp(t), size = elem_size(t) / n;
  const char **r = arena_alloc(X->C, (size_t)n * sizeof *r);
  for (int k = 0; k < n; k++) {
    const char *ak = addr;
    if (k) {
      ak = reg(X, RD);
      ins(X, "add.s64 %s, %s, %d;", ak, addr, k * size);
    }
    r[k] = atomic(X, e->bi, t->sc, ak, v[k], pos);
  }
  return r;
}

static const char *expr(Px *X, IrExpr *e) {
  Pos pos = e->pos;
  switch (e->kind) {
  case E_CONST:
    need_scalar(X, e->ty, pos);
    if (isf(e->ty->sc))
      return mov_new(X, e->ty->sc, float_const(X, e->ty->sc, e->fval));
    return kconst(X, e->ty->sc, e->ival);
  case E_VAR:
    need_scalar(X, e->var->ty, pos);
    return var_reg(X, e->var, pos);
  case E_TID:
    if (e->ival > 3 || !X->tid[e->ival])
      refuse(X, pos, "wp.tid() here");
    return X->tid[e->ival];
  case E_UNARY: {
    need_scalar(X, e->ty, pos);
    kern_scalar sc = e->ty->sc;
    const char *a = expr(X, e->a);
    if (e->op == OP_NEG) {
      const char *r = reg(X, cls_of(sc));
      ins(X, "neg.%s %s, %s;", neg_ty(sc), r, a);
      if (!isf(sc))
        normalize(X, r, sc);
      return r;
    }
    if (e->op == OP_INVERT && !isf(sc)) {
      const char *r = reg(X, cls_of(sc));
      ins(X, "not.%s %s, %s;", bty(sc), r, a);
      normalize(X, r, sc);
      return r;
    }
    if (e->op == OP_ADD || e->op == OP_POS)
      return a;
    refuse(X, pos, "this unary operator");
  }
  case E_BINARY: {
    need_scalar(X, e->a->ty, pos);
    need_scalar(X, e->ty, pos);
    if (e->b->ty->sc != e->a->ty->sc)
      refuse(X, pos, "an operator on mixed types");
    bool cmp = e->op >= OP_LT && e->op <= OP_NE;
    if (cmp)
      return pred_bool(X, cond(X, e));
    if (e->ty->sc != e->a->ty->sc)
      refuse(X, pos, "an operator whose type differs from its operands'");
    const char *a = expr(X, e->a);
    const char *b = expr(X, e->b);
    return binop(X, e->op, e->ty->sc, a, b, pos);
  }
  case E_AND: case E_OR: case E_NOT:
    return pred_bool(X, cond(X, e));
  case E_SELECT: {
    need_scalar(X, e->ty, pos);
    kern_scalar sc = e->ty->sc;
    if (e->b->ty->sc != sc || e->c->ty->sc != sc || e->b->ty->kind != TY_SCALAR ||
        e->c->ty->kind != TY_SCALAR)
      refuse(X, pos, "a conditional expression of mixed types");
    bool simple_b = e->b->kind == E_VAR || e->b->kind == E_CONST;
    bool simple_c = e->c->kind == E_VAR || e->c->kind == E_CONST;
    if (simple_b && simple_c) /* nothing to skip: both sides, then selp */
      return sel(X, sc, expr(X, e->b), expr(X, e->c), cond(X, e->a));
    const char *r = reg(X, cls_of(sc));
    int lelse = new_label(X), lend = new_label(X);
    const char *p = cond(X, e->a);
    ins(X, "@!%s bra L%d;", p, lelse);
    ins(X, "mov.%s %s, %s;", bty(sc), r, expr(X, e->b));
    ins(X, "bra.uni L%d;", lend);
    put_label(X, lelse);
    ins(X, "mov.%s %s, %s;", bty(sc), r, expr(X, e->c));
    put_label(X, lend);
    return r;
  }
  case E_CAST:
    need_scalar(X, e->ty, pos);
    need_scalar(X, e->a->ty, pos);
    return convert(X, e->ty->sc, e->a->ty->sc, expr(X, e->a), pos);
  case E_CALL:
    return call(X, e);
  case E_FCALL:
    return inline_call(X, e);
  case E_LOAD: {
    need_scalar(X, e->ty, pos);
    need_scalar(X, e->var->ty->elem, pos);
    kern_scalar sc = e->var->ty->elem->sc;
    const char *addr = elem_addr(X, e->var, e->args, e->nargs, pos);
    const char *r = reg(X, cls_of(sc));
    ins(X, "ld.global.%s %s, [%s];", mty(sc), r, addr);
    return r;
  }
  case E_SHAPE: {
    ArrRegs *A = arr_regs(X, e->var, pos);
    if (e->ival == IR_NONNULL)
      return pred_bool(X, setp(X, "ne", KERN_SCALAR_UINT64, A->data, "0"));
    need_scalar(X, e->ty, pos);
    if (e->ival > 3 || isf(e->ty->sc))
      refuse(X, pos, "this shape");
    return convert(X, e->ty->sc, KERN_SCALAR_INT64, A->shape[e->ival], pos);
  }
  case E_COMP:
    need_scalar(X, e->ty, pos);
    return comp_expr(X, e);
  case E_ATOMIC: {
    need_scalar(X, e->ty, pos);
    if (e->var->ty->elem->kind != TY_SCALAR)
      refuse(X, pos, "this atomic");
    kern_scalar sc = e->var->ty->elem->sc;
    if (e->c->ty->sc != sc || e->c->ty->kind != TY_SCALAR)
      refuse(X, pos, "an atomic of mixed types");
    if (e->b) {
      /* atomicCAS on the bits (a float compares by its bits) */
      need_scalar(X, e->b->ty, pos);
      if (e->b->ty->sc != sc || narrow(sc) || e->bi != BI_ATOMIC_CAS)
        refuse(X, pos, "this wp.atomic_cas");
      const char *addr = elem_addr(X, e->var, e->args, e->nargs, pos);
      const char *cmp = expr(X, e->b);
      const char *v = expr(X, e->c);
      const char *r = reg(X, cls_of(sc));
      ins(X, "atom.global.cas.%s %s, [%s], %s, %s;",
          sc_bits(sc) == 64 ? "b64" : "b32", r, addr, cmp, v);
      return r;
    }
    const char *addr = elem_addr(X, e->var, e->args, e->nargs, pos);
    const char *v = expr(X, e->c);
    return atomic(X, e->bi, sc, addr, v, pos);
  }
  default:
    refuse(X, pos, e->kind == E_MAKE ? "vector and matrix constructors"
                   : e->kind == E_COMP ? "vector and matrix components"
                   : e->kind == E_FIELD ? "struct fields"
                   : e->kind == E_VIEW ? "array views"
                   : e->kind == E_ADDR ? "wp.address_of"
                   : "this expression");
  }
}

/* A condition as a predicate; && || ! and comparisons without a detour
 * through a bool register. */
static const char *cond(Px *X, IrExpr *e) {
  Pos pos = e->pos;
  switch (e->kind) {
  case E_BINARY:
    if (e->op >= OP_LT && e->op <= OP_NE) {
      need_scalar(X, e->a->ty, pos);
      if (e->b->ty->sc != e->a->ty->sc)
        refuse(X, pos, "a comparison of mixed types");
      const char *a = expr(X, e->a);
      const char *b = expr(X, e->b);
      return compare(X, e->op, e->a->ty->sc, a, b);
    }
    break;
  case E_NOT: {
    const char *p = cond(X, e->a);
    const char *q = reg(X, RP);
    ins(X, "not.pred %s, %s;", q, p);
    return q;
  }
  case E_AND: case E_OR: {
    /* C evaluates b only when a does not decide */
    const char *r = reg(X, RP);
    int lend = new_label(X);
    const char *a = cond(X, e->a);
    ins(X, "mov.pred %s, %s;", r, a);
    ins(X, "@%s%s bra L%d;", e->kind == E_AND ? "!" : "", r, lend);
    const char *b = cond(X, e->b);
    ins(X, "mov.pred %s, %s;", r, b);
    put_label(X, lend);
    return r;
  }
  default:
    break;
  }
  need_scalar(X, e->ty, pos);
  return truth(X, e->ty->sc, expr(X, e));
}

/* A user function, inlined: its parameters and locals are fresh
 * registers, its returns jump to the end with the result set. */
/* The call e inlined; a vector or matrix result is set in *vres. */
static const char *inline_any(Px *X, IrExpr *e, const char ***vres) {
  IrFunc *fn = e->fn;
  Pos pos = e->pos;
  if (fn->native)
    refuse(X, pos, "@wp.func_native functions");
  if (fn->nrets > 1 || e->nouts || e->nrefs)
    refuse(X, pos, "functions with several results or wp.ref parameters");
  if (X->depth >= 16)
    refuse(X, pos, "calls nested this deep");
  bool isvoid = fn->ret->kind == TY_VOID;
  if (!isvoid)
    need_value(X, fn->ret, pos);
  if (is_agg(fn->ret) != (vres != NULL))
    refuse(X, pos, "this call");
  const char **args[64];
  if (e->nargs > 64 || e->nargs != fn->nparams)
    refuse(X, pos, "this call");
  int i = 0;
  for (IrVar *p = fn->params; p; p = p->next, i++) {
    need_value(X, p->ty, pos);
    if (p->byref)
      refuse(X, pos, "wp.ref parameters");
    need_value(X, e->args[i]->ty, pos);
    if (!ty_eq(e->args[i]->ty, p->ty) || e->args[i]->ty->sc != p->ty->sc)
      refuse(X, pos, "an argument of another type than its parameter");
    args[i] = value(X, e->args[i]);
  }
  /* the callee's frame */
  int saved_binds = X->nbinds;
  int saved_label = X->ret_label, saved_nloops = X->nloops;
  const char *saved_reg = X->ret_reg;
  const char **saved_comps = X->ret_comps;
  const Type *saved_ty = X->ret_ty;
  i = 0;
  for (IrVar *p = fn->params; p; p = p->next, i++) {
    if (is_agg(p->ty)) {
      const char **c = comps_new(X, p->ty);
      for (int k = 0; k < ncomp(p->ty); k++)
        ins(X, "mov.%s %s, %s;", bty(p->ty->sc), c[k], args[i][k]);
      bind_comps(X, p, c);
    } else {
      bind(X, p, mov_new(X, p->ty->sc, args[i][0]));
    }
  }
  for (IrVar *v = fn->locals; v; v = v->next) {
    need_value(X, v->ty, fn->pos);
    if (is_agg(v->ty)) {
      bind_comps(X, v, comps_zero(X, v->ty));
      continue;
    }
    const char *r = reg(X, cls_of(v->ty->sc));
    zero(X, r, v->ty->sc);
    bind(X, v, r);
  }
  X->ret_label = new_label(X);
  X->ret_reg = isvoid || vres ? NULL : reg(X, cls_of(fn->ret->sc));
  /* a path without return gives 0 */
  X->ret_comps = vres ? comps_zero(X, fn->ret) : NULL;
  X->ret_ty = fn->ret;
  X->nloops = 0;
  X->depth++;
  /* The scope of the callee's loops starts afresh; the caller's stack is
   * kept in place above nloops and restored. */
  Loop saved_loops[64];
  memcpy(saved_loops, X->loops, sizeof saved_loops);
  if (X->ret_reg)
    zero(X, X->ret_reg, fn->ret->sc);
  stmts(X, fn->body);
  put_label(X, X->ret_label);
  const char *result = X->ret_reg;
  if (vres)
    *vres = X->ret_comps;
  memcpy(X->loops, saved_loops, sizeof saved_loops);
  X->depth--;
  X->nloops = saved_nloops;
  X->ret_label = saved_label;
  X->ret_reg = saved_reg;
  X->ret_comps = saved_comps;
  X->ret_ty = saved_ty;
  X->nbinds = saved_binds;
  return result ? result : "0";
}

static const char *inline_call(Px *X, IrExpr *e) {
  return inline_any(X, e, NULL);
}

static const char **inline_call_v(Px *X, IrExpr *e) {
  const char **r = NULL;
  (void)inline_any(X, e, &r);
  return r;
}

/* ---------------------------------------------------------------- statements */

static void stmt(Px *X, IrStmt *s) {
  Pos pos = s->pos;
  if (pos.line > 0)
    X->stmt_pos = pos;
  switch (s->kind) {
  case S_ASSIGN: {
    if (is_agg(s->var->ty)) {
      need_agg(X, s->var->ty, pos);
      if (!ty_eq(s->a->ty, s->var->ty))
        refuse(X, pos, "an assignment of another type");
      const char **v = vexpr(X, s->a);
      comps_assign(X, var_comps(X, s->var, pos), v, s->var->ty);
      return;
    }
    need_scalar(X, s->var->ty, pos);
    need_scalar(X, s->a->ty, pos);
    if (s->a->ty->sc != s->var->ty->sc)
      refuse(X, pos, "an assignment of another type");
    const char *v = expr(X, s->a);
    const char *r = var_reg(X, s->var, pos);
    if (v != r)
      ins(X, "mov.%s %s, %s;", bty(s->var->ty->sc), r, v);
    return;
  }
  case S_STORE: {
    if (s->var->ty->kind != TY_ARRAY)
      refuse(X, pos, "this store");
    if (is_agg(s->var->ty->elem)) {
      const Type *t = s->var->ty->elem;
      need_agg(X, t, pos);
      if (!ty_eq(s->c->ty, t))
        refuse(X, pos, "a store of another type");
      const char *addr = elem_addr(X, s->var, s->args, s->nargs, pos);
      const char **v = vexpr(X, s->c);
      int size = elem_size(t) / ncomp(t);
      for (int k = 0; k < ncomp(t); k++)
        ins(X, "st.global.%s [%s+%d], %s;", mty(t->sc), addr, k * size, v[k]);
      return;
    }
    kern_scalar sc = s->var->ty->elem->sc;
    need_scalar(X, s->c->ty, pos);
    if (s->c->ty->sc != sc)
      refuse(X, pos, "a store of another type");
    /* C evaluates the index and the value in an unspecified order, but
     * neither has effects the other sees in this subset */
    const char *addr = elem_addr(X, s->var, s->args, s->nargs, pos);
    const char *v = expr(X, s->c);
    ins(X, "st.global.%s [%s], %s;", mty(sc), addr, v);
    return;
  }
  case S_EXPR:
    if (is_agg(s->a->ty))
      (void)vexpr(X, s->a);
    else
      (void)expr(X, s->a);
    return;
  case S_IF: {
    int lelse = new_label(X), lend = new_label(X);
    const char *p = cond(X, s->a);
    ins(X, "@!%s bra L%d;", p, lelse);
    stmts(X, s->body);
    if (s->orelse)
      ins(X, "bra.uni L%d;", lend);
    put_label(X, lelse);
    if (s->orelse) {
      stmts(X, s->orelse);
      put_label(X, lend);
    }
    return;
  }
  case S_FOR: {
    /* for (v = a; step > 0 ? v < b : v > b; v = (T)(v + step)), with b
     * and step evaluated where C evaluates them, each time */
    need_scalar(X, s->var->ty, pos);
    kern_scalar sc = s->var->ty->sc;
    if (isf(sc) || s->a->ty->sc != sc || s->b->ty->sc != sc ||
        s->c->ty->sc != sc)
      refuse(X, pos, "this loop");
    const char *v = var_reg(X, s->var, pos);
    ins(X, "mov.%s %s, %s;", bty(sc), v, expr(X, s->a));
    if (X->nloops == 64)
      refuse(X, pos, "loops nested this deep");
    Loop *L = &X->loops[X->nloops++];
    int top = new_label(X);
    L->cont = new_label(X);
    L->end = new_label(X);
    put_label(X, top);
    const char *p;
    if (s->c->kind == E_CONST) {
      bool up = (int64_t)s->c->ival > 0 || !sc_is_signed(sc);
      p = compare(X, up ? OP_LT : OP_GT, sc, v, expr(X, s->b));
    } else {
      const char *step = expr(X, s->c);
      const char *pos_step = compare(X, OP_GT, sc, step, "0");
      int lneg = new_label(X), lj = new_label(X);
      p = reg(X, RP);
      ins(X, "@!%s bra L%d;", pos_step, lneg);
      ins(X, "mov.pred %s, %s;", p, compare(X, OP_LT, sc, v, expr(X, s->b)));
      ins(X, "bra.uni L%d;", lj);
      put_label(X, lneg);
      ins(X, "mov.pred %s, %s;", p, compare(X, OP_GT, sc, v, expr(X, s->b)));
      put_label(X, lj);
    }
    int cont = L->cont, end = L->end;
    ins(X, "@!%s bra L%d;", p, end);
    stmts(X, s->body);
    put_label(X, cont);
    const char *nv = binop(X, OP_ADD, sc, v, expr(X, s->c), pos);
    ins(X, "mov.%s %s, %s;", bty(sc), v, nv);
    ins(X, "bra.uni L%d;", top);
    put_label(X, end);
    X->nloops--;
    return;
  }
  case S_WHILE: {
    if (X->nloops == 64)
      refuse(X, pos, "loops nested this deep");
    Loop *L = &X->loops[X->nloops++];
    L->cont = new_label(X);
    L->end = new_label(X);
    int cont = L->cont, end = L->end;
    put_label(X, cont);
    const char *p = cond(X, s->a);
    ins(X, "@!%s bra L%d;", p, end);
    stmts(X, s->body);
    ins(X, "bra.uni L%d;", cont);
    put_label(X, end);
    X->nloops--;
    return;
  }
  case S_BREAK: case S_CONTINUE:
    if (!X->nloops)
      refuse(X, pos, "break or continue outside a loop");
    ins(X, "bra.uni L%d;", s->kind == S_BREAK ? X->loops[X->nloops - 1].end
                                              : X->loops[X->nloops - 1].cont);
    return;
  case S_RETURN:
    if (X->ret_label < 0 || s->nargs > 1)
      refuse(X, pos, "this return");
    if (s->a && X->ret_comps) {
      if (!ty_eq(s->a->ty, X->ret_ty))
        refuse(X, pos, "a return of another type");
      comps_assign(X, X->ret_comps, vexpr(X, s->a), X->ret_ty);
    } else if (s->a) {
      if (!X->ret_reg)
        refuse(X, pos, "this return");
      need_scalar(X, s->a->ty, pos);
      if (s->a->ty->sc != X->ret_ty->sc)
        refuse(X, pos, "a return of another type");
      ins(X, "mov.%s %s, %s;", bty(X->ret_ty->sc), X->ret_reg, expr(X, s->a));
    }
    ins(X, "bra.uni L%d;", X->ret_label);
    return;
  case S_KRETURN:
    if (X->depth)
      refuse(X, pos, "this return");
    ins(X, "bra.uni L%d;", X->next_label);
    return;
  case S_AGG: {
    IrAgg *g = s->agg;
    need_scalar(X, s->a->ty, pos);
    if (g->id < 0 || g->id >= X->nagg || s->a->ty->sc != g->ty->sc)
      refuse(X, pos, "this aggregated atomic");
    const char *acc = X->agg_regs[g->id];
    const char *v = expr(X, s->a);
    const char *r = g->bi == BI_ATOMIC_ADD ? binop(X, OP_ADD, g->ty->sc, acc, v, pos)
                    : minmax(X, g->bi == BI_ATOMIC_MIN, g->ty->sc, acc, v);
    ins(X, "mov.%s %s, %s;", bty(g->ty->sc), acc, r);
    return;
  }
  case S_PRINTF:
    refuse(X, pos, "print and printf");
  case S_ASSERT:
    refuse(X, pos, "assert");
  default:
    refuse(X, pos, s->kind == S_SETFIELD ? "stores into fields or components of array elements"
                   : "this statement");
  }
}

static void stmts(Px *X, IrStmt *s) {
  for (; s; s = s->next)
    stmt(X, s);
}

/* ---------------------------------------------------------------- kernels */

/* The identity of an aggregated atomic, as emit_agg_identity spells it. */
static const char *agg_identity(Px *X, IrAgg *g) {
  kern_scalar sc = g->ty->sc;
  if (g->bi == BI_ATOMIC_ADD)
    return isf(sc) ? float_const(X, sc, 0.0) : "0";
  bool mn = g->bi == BI_ATOMIC_MIN;
  if (isf(sc))
    return float_const(X, sc, mn ? INFINITY : -INFINITY);
  switch (sc) {
  case KERN_SCALAR_INT32: return mn ? "2147483647" : "-2147483648";
  case KERN_SCALAR_UINT32: return mn ? "0xFFFFFFFF" : "0";
  case KERN_SCALAR_INT64: return mn ? "9223372036854775807" : "0x8000000000000000";
  default: return mn ? "0xFFFFFFFFFFFFFFFF" : "0";
  }
}

static bool ok_elem(const Type *t) {
  if (t->kind == TY_SCALAR)
    return ok_scalar(t->sc);
  return is_agg(t) && ok_scalar(t->sc) && !narrow(t->sc) &&
         (!(t->quat || t->xform) || isf(t->sc)) && ncomp(t) <= 64;
}

static bool ok_array(const Type *t) {
  return t->kind == TY_ARRAY && !t->indexed && !t->strided && !t->fixed_n &&
         t->ndim >= 1 && t->ndim <= 4 && t->elem && ok_elem(t->elem);
}

static void kernel(Px *X, Buf *out, IrFunc *f) {
  Compiler *C = X->C;
  buf_init(&X->body, C);
  memset(X->nreg, 0, sizeof X->nreg);
  X->nbinds = 0;
  X->nloops = 0;
  X->ret_label = -1;
  X->depth = 0;
  memset(X->tid, 0, sizeof X->tid);
  if (f->tid_dims > 4)
    refuse(X, f->pos, "wp.tid() of more than four components");
  const char *sym = f->symbol;
  /* the parameters */
  Buf sig;
  buf_init(&sig, C);
  buf_printf(&sig, ".visible .entry %s(\n", sym);
  int i = 0;
  for (IrVar *p = f->params; p; p = p->next, i++) {
    const Type *t = p->ty;
    if (t->kind == TY_ARRAY) {
      if (!ok_array(t))
        refuse(X, f->pos, arena_printf(C, "parameters of type %s", ty_name(C, t)));
      buf_printf(&sig, "\t.param .align 8 .b8 %s_param_%d[40],\n", sym, i);
      ArrRegs *A = arena_alloc(C, sizeof *A);
      A->data = reg(X, RD);
      ins(X, "ld.param.u64 %s, [%s_param_%d];", A->data, sym, i);
      ins(X, "cvta.to.global.u64 %s, %s;", A->data, A->data);
      for (int d = 0; d < t->ndim; d++) {
        A->shape[d] = reg(X, RD);
        ins(X, "ld.param.u64 %s, [%s_param_%d+%d];", A->shape[d], sym, i, 8 + 8 * d);
      }
      bind_arr(X, p, NULL, A);
      continue;
    }
    if (is_agg(t) && ok_elem(t)) {
      /* the C struct by value: its components at their offsets */
      int size = elem_size(t) / ncomp(t);
      buf_printf(&sig, "\t.param .align %d .b8 %s_param_%d[%d],\n", size, sym, i,
                 elem_size(t));
      const char **c = comps_new(X, t);
      for (int k = 0; k < ncomp(t); k++)
        ins(X, "ld.param.%s %s, [%s_param_%d+%d];", mty(t->sc), c[k], sym, i,
            k * size);
      bind_comps(X, p, c);
      continue;
    }
    if (t->kind != TY_SCALAR || !ok_scalar(t->sc))
      refuse(X, f->pos, arena_printf(C, "parameters of type %s", ty_name(C, t)));
    kern_scalar sc = t->sc;
    const char *pt = sc == KERN_SCALAR_BOOL || sc == KERN_SCALAR_UINT8 ? "u8"
                     : sc == KERN_SCALAR_INT8 ? "s8" : mty(sc);
    /* a narrow parameter is declared at its width and loaded extended */
    buf_printf(&sig, "\t.param .%s %s_param_%d,\n", pt, sym, i);
    const char *r = reg(X, cls_of(sc));
    ins(X, "ld.param.%s %s, [%s_param_%d];", pt, r, sym, i);
    bind(X, p, r);
  }
  buf_printf(&sig, "\t.param .align 8 .b8 %s_param_%d[64]\n)\n", sym, i);
  const char *dims = arena_printf(C, "%s_param_%d", sym, i);
  /* kern__dims: dim[4] at 0, total at 32, chunk at 40, begin at 48,
   * block at 56 (the launch's block size, which kern's PTX never reads:
   * tile kernels and wp.block_dim() are NVRTC's) */
  const char *dd[4], *total = reg(X, RD), *begin = reg(X, RD);
  for (int d = 1; d < 4; d++) {
    dd[d] = reg(X, RD);
    ins(X, "ld.param.u64 %s, [%s+%d];", dd[d], dims, 8 * d);
  }
  ins(X, "ld.param.u64 %s, [%s+32];", total, dims);
  ins(X, "ld.param.u64 %s, [%s+48];", begin, dims);
  const char *prod = reg(X, RD);
  ins(X, "mul.lo.s64 %s, %s, %s;", prod, dd[1], dd[2]);
  ins(X, "mul.lo.s64 %s, %s, %s;", prod, prod, dd[3]);
  const char *one_d = setp(X, "eq", KERN_SCALAR_INT64, prod, "1");
  /* aggregated atomics: a partial per thread */
  int nagg = 0;
  for (IrAgg *g = f->aggs; g; g = g->next)
    if (g->id + 1 > nagg)
      nagg = g->id + 1;
  X->nagg = nagg;
  X->agg_regs = arena_alloc(C, (size_t)(nagg ? nagg : 1) * sizeof(char *));
  for (IrAgg *g = f->aggs; g; g = g->next) {
    if (!ok_scalar(g->ty->sc) || narrow(g->ty->sc))
      refuse(X, f->pos, "this aggregated atomic");
    X->agg_regs[g->id] = mov_new(X, g->ty->sc, agg_identity(X, g));
  }
  /* t = begin + (int64)blockIdx.x * blockDim.x + threadIdx.x */
  const char *r0 = reg(X, RR), *r1 = reg(X, RR), *r2 = reg(X, RR);
  const char *t = reg(X, RD), *stride = reg(X, RD), *w = reg(X, RD);
  ins(X, "mov.u32 %s, %%ctaid.x;", r0);
  ins(X, "mov.u32 %s, %%ntid.x;", r1);
  ins(X, "mov.u32 %s, %%tid.x;", r2);
  ins(X, "mul.wide.u32 %s, %s, %s;", t, r0, r1);
  ins(X, "cvt.u64.u32 %s, %s;", w, r2);
  ins(X, "add.s64 %s, %s, %s;", t, t, w);
  ins(X, "add.s64 %s, %s, %s;", t, t, begin);
  const char *r3 = reg(X, RR);
  ins(X, "mov.u32 %s, %%nctaid.x;", r3);
  ins(X, "mul.wide.u32 %s, %s, %s;", stride, r3, r1);
  int top = new_label(X), exit = new_label(X);
  X->next_label = new_label(X);
  put_label(X, top);
  const char *done = setp(X, "ge", KERN_SCALAR_INT64, t, total);
  ins(X, "@%s bra L%d;", done, exit);
  /* the thread index, as emit_thread_loop decomposes k_t */
  if (f->tid_dims <= 1) {
    const char *tid0 = reg(X, RR);
    int lslow = new_label(X), lj = new_label(X);
    ins(X, "@!%s bra L%d;", one_d, lslow);
    ins(X, "cvt.u32.u64 %s, %s;", tid0, t);
    ins(X, "bra.uni L%d;", lj);
    put_label(X, lslow);
    const char *q = reg(X, RD);
    ins(X, "div.s64 %s, %s, %s;", q, t, prod);
    ins(X, "cvt.u32.u64 %s, %s;", tid0, q);
    put_label(X, lj);
    X->tid[0] = tid0;
  } else {
    const char *rr = reg(X, RD);
    ins(X, "mov.b64 %s, %s;", rr, t);
    /* the dimensions after the unpacked ones are folded, as
     * emit_thread_loop does (Note [launch dimensionality]) */
    for (int d = f->tid_dims; d <= 3; d++)
      ins(X, "div.s64 %s, %s, %s;", rr, rr, dd[d]);
    for (int d = f->tid_dims - 1; d >= 1; d--) {
      const char *m = reg(X, RD), *td = reg(X, RR);
      ins(X, "rem.s64 %s, %s, %s;", m, rr, dd[d]);
      ins(X, "cvt.u32.u64 %s, %s;", td, m);
      ins(X, "div.s64 %s, %s, %s;", rr, rr, dd[d]);
      X->tid[d] = td;
    }
    const char *tid0 = reg(X, RR);
    ins(X, "cvt.u32.u64 %s, %s;", tid0, rr);
    X->tid[0] = tid0;
  }
  /* tiles (lower/check_tile.c) are NVRTC's: said as such, not as the
   * arrays they are made of */
  for (IrVar *v = f->locals; v; v = v->next)
    if (v->ty->kind == TY_ARRAY && v->ty->tile)
      refuse(X, f->pos, "tiles (issue #24)");
  /* the locals, zeroed for each work item as emit_locals declares them */
  for (IrVar *v = f->locals; v; v = v->next) {
    if (is_agg(v->ty) && ok_elem(v->ty)) {
      bind_comps(X, v, comps_zero(X, v->ty));
      continue;
    }
    if (v->ty->kind != TY_SCALAR || !ok_scalar(v->ty->sc))
      refuse(X, f->pos, arena_printf(C, "local variables of type %s",
                                     ty_name(C, v->ty)));
    const char *r = reg(X, cls_of(v->ty->sc));
    zero(X, r, v->ty->sc);
    bind(X, v, r);
  }
  stmts(X, f->body);
  put_label(X, X->next_label);
  ins(X, "add.s64 %s, %s, %s;", t, t, stride);
  ins(X, "bra.uni L%d;", top);
  put_label(X, exit);
  for (IrAgg *g = f->aggs; g; g = g->next) {
    kern_scalar sc = g->ty->sc;
    if (g->array->ty->kind != TY_ARRAY || g->array->ty->elem->kind != TY_SCALAR ||
        g->array->ty->elem->sc != sc)
      refuse(X, f->pos, "this aggregated atomic");
    const char *addr = elem_addr(X, g->array, g->index, g->nindex, f->pos);
    (void)atomic(X, g->bi, sc, addr, X->agg_regs[g->id], f->pos);
  }
  ins(X, "ret;");
  buf_puts(out, sig.p);
  buf_puts(out, "{\n");
  for (int c = 0; c < NCLASS; c++)
    if (X->nreg[c])
      buf_printf(out, "\t.reg %s %s<%d>;\n", cls_decl[c], cls_prefix[c],
                 X->nreg[c] + 1);
  buf_putn(out, X->body.p, X->body.len);
  buf_puts(out, "}\n\n");
}

/* The lowest PTX ISA version that knows sm_N (every instruction used here
 * is older than the architectures listed). */
static const char *isa_for(int sm) {
  switch (sm) {
  case 60: case 61: case 62: return "5.0";
  case 70: return "6.0";
  case 72: return "6.1";
  case 75: return "6.3";
  case 80: return "7.0";
  case 86: return "7.1";
  case 87: return "7.4";
  case 89: case 90: return "7.8";
  case 100: case 101: return "8.6";
  case 120: return "8.7";
  default: return NULL;
  }
}

const char *emit_ptx(Compiler *C, IrModule *m, const kc_options *opts,
                     const char **why) {
  Px *X = arena_alloc(C, sizeof *X);
  X->C = C;
  X->m = m;
  *why = NULL;
  const char *isa = isa_for(opts->ptx);
  Pos start = {0};
  start.line = start.col = 1;
  if (setjmp(X->jmp)) {
    *why = arena_printf(C, "%s:%d:%d: the PTX tier does not cover %s",
                        C->path, X->pos.line, X->pos.col, X->why);
    return NULL;
  }
  if (!isa)
    refuse(X, start, arena_printf(C, "sm_%d", opts->ptx));
  if (opts->debug || m->debug)
    refuse(X, start, "debug mode");
  /* Note [PTX tier]: the builtins on vectors, matrices, quaternions and
   * transforms reach this emitter expanded into scalar IR (Note
   * [expansion] in ir/expand.c), their meaning written once there; a
   * module the expansion refuses is refused here with its reason.  The
   * module is not read again after this emitter (compile.c). */
  const char *what = NULL;
  Pos at = {0};
  if (!ir_expand(C, m, &at, &what))
    refuse(X, at, what);
  Buf out;
  buf_init(&out, C);
  buf_printf(&out, "//\n// Generated by kern (the PTX tier, Note [PTX tier] in "
                   "emit/ptx.c)\n//\n\n.version %s\n.target sm_%d\n"
                   ".address_size 64\n\n", isa, opts->ptx);
  for (IrFunc *f = m->kernels; f; f = f->next)
    kernel(X, &out, f);
  return out.p;
}
