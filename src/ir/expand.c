/*
 * expand.c -- vectors, matrices, quaternions and transforms expanded into
 * scalar IR (Note [expansion]).
 *
 * The C, CUDA and OpenCL emitters spell a builtin on vectors as a call of
 * a C helper (emit/common.c, extra.c, linalg.c).  A target that cannot
 * share those helpers (the PTX tier, emit/ptx.c) reads the module after
 * this pass instead, so a builtin's meaning is written once more here, as
 * IR, and nowhere else; and because the C emitter can read the expanded
 * IR too (kc_options.expand), the expansion is tested on the CPU against
 * real Warp's outputs (the conformance_cpu_expanded test) without a GPU.
 */
#include <math.h>
#include <setjmp.h>
#include <string.h>
#include "ir.h"

/* Note [expansion]: ir_expand rewrites every function so that no
 * operation computes on a vector, matrix, quaternion or transform
 * ("aggregate") value.  Each aggregate variable becomes one scalar local
 * per component (c[k]; a matrix's m[i][j] at k = i * cols + j, the C
 * struct's order), each builtin on aggregates becomes the scalar
 * operations its helper in emit/common.c performs, in the helper's order
 * and association (a sum starts from 0: `s = 0; s += x * y`), and every
 * intermediate result is a fresh scalar local assigned by its own
 * statement, so the order of operations is explicit and no emitter can
 * contract or reassociate across them.  Composite scalar builtins
 * (lerp, smoothstep, clamp, the random numbers) are expanded the same
 * way, and so are the scalar builtins that are rules of Warp's rather
 * than instructions (min, max, sign, the integer division family, ...;
 * Note [scalar rules]); the scalar builtins that remain (float abs, sqrt,
 * floor, ceil, trunc, the transcendental functions) are the scalar
 * instruction set an emitter spells directly, as QBE's instruction
 * selection spells its IR.
 *
 * Aggregates survive only where a value crosses a boundary whole: a
 * kernel or function parameter (read once, component by component, at
 * entry), an array element (loaded into an aggregate temporary and taken
 * apart with constant E_COMPs; stored, or given to an atomic, as an
 * E_MAKE of scalars), a user function's arguments (E_MAKE) and result
 * (an aggregate temporary), a struct field.  So after the pass the only
 * expressions of aggregate type are E_VAR, E_MAKE of scalars, E_LOAD,
 * E_ATOMIC, E_FCALL and E_FIELD (and, in an autodiff module, the E_CALL
 * of a random vector or of curlnoise it keeps, IR_KEEP_CALL; the noise
 * calls it keeps take their coordinate as an E_MAKE), and the only uses
 * of them are whole moves and E_COMP with constant indices.
 *
 * What the pass does not know how to expand (16-bit float components
 * outside an autodiff module, IrModule.half_aggs; 8/16-bit integer
 * components, a builtin without a form here, structs holding vectors that
 * are written, wp.ref parameters of aggregate type, ...) makes it refuse
 * the module, with the position and a description, and leave the module
 * untouched: the C path then compiles the module as usual and the PTX
 * tier refuses it. */

typedef struct XMap {
  IrVar *var;
  IrExpr **comps; /* E_VAR of the component locals */
} XMap;

typedef struct Xp {
  Compiler *C;
  IrFunc *f;
  IrStmt **tail;   /* where the next statement goes */
  XMap *maps;
  int nmaps, capmaps;
  Pos pos;         /* of the statement being expanded */
  jmp_buf jmp;
  const char *why;
  Pos why_pos;
  bool half_aggs;  /* IrModule.half_aggs */
} Xp;

static _Noreturn void refuse(Xp *X, const char *what) {
  X->why = what;
  X->why_pos = X->pos;
  longjmp(X->jmp, 1);
}

static const char *bname(Xp *X, int bi) {
  (void)X;
  return bi < BI_COUNT ? builtin_names[bi] : "(operator)";
}

/* ---------------------------------------------------------------- types */

static bool is_agg(const Type *t) {
  return t && (t->kind == TY_VEC || t->kind == TY_MAT);
}

static int ncomp(const Type *t) {
  return t->kind == TY_SCALAR ? 1 : t->rows * t->cols;
}

static bool isf(kern_scalar sc) {
  return sc == KERN_SCALAR_FLOAT32 || sc == KERN_SCALAR_FLOAT64;
}

/* The component types the pass expands: those whose C helper computes in
 * the component's own type (not the 16-bit floats, which compute in
 * float32, nor the 8- and 16-bit integers, which C promotes). */
static bool ok_comp(kern_scalar sc) {
  switch (sc) {
  case KERN_SCALAR_INT32: case KERN_SCALAR_UINT32: case KERN_SCALAR_INT64:
  case KERN_SCALAR_UINT64: case KERN_SCALAR_FLOAT32: case KERN_SCALAR_FLOAT64:
    return true;
  default:
    return false;
  }
}

static bool is16(kern_scalar sc) {
  return sc == KERN_SCALAR_FLOAT16 || sc == KERN_SCALAR_BFLOAT16;
}

/* A float type the pass computes in: the 16-bit floats too in an autodiff
 * module (IrModule.half_aggs), each operation rounded to the type. */
static bool isfx(Xp *X, kern_scalar sc) {
  return isf(sc) || (X->half_aggs && is16(sc));
}

/* bool and the 8- and 16-bit integers: components an autodiff module's
 * expansion takes too (IrModule.half_aggs), each scalar operation
 * converted back to the type as the scalar code is; they carry no
 * gradient (a bool or short vector constant in a differentiated kernel,
 * docs/language.md). */
static bool narrow_comp(Xp *X, kern_scalar sc) {
  return X->half_aggs &&
         (sc == KERN_SCALAR_BOOL || sc == KERN_SCALAR_INT8 ||
          sc == KERN_SCALAR_UINT8 || sc == KERN_SCALAR_INT16 ||
          sc == KERN_SCALAR_UINT16);
}

static void need_agg(Xp *X, const Type *t) {
  if (!is_agg(t) ||
      !(ok_comp(t->sc) || isfx(X, t->sc) || narrow_comp(X, t->sc)) ||
      ((t->quat || t->xform) && !isfx(X, t->sc)) ||
      ncomp(t) > 64)
    refuse(X, arena_printf(X->C, "values of type %s", ty_name(X->C, t)));
}

static bool composite(int bi) {
  return bi == BI_LERP || bi == BI_SMOOTHSTEP || bi == BI_CLAMP ||
         bi == BI_DEGREES || bi == BI_RADIANS ||
         bi == BI_RAND_INIT || bi == BI_RANDF || bi == BI_RANDI;
}

static bool rule(const IrExpr *e);

/* Must e be rewritten: does it hold an aggregate or a composite builtin
 * anywhere? */
static bool needs(const IrExpr *e) {
  if (!e)
    return false;
  if (is_agg(e->ty))
    return true;
  if (e->kind == E_CALL && ((composite(e->bi) && e->ival != IR_KEEP_CALL) || rule(e)))
    return true;
  if (e->kind == E_VAR)
    return false;
  for (int i = 0; e->kind == E_FCALL && i < e->nouts; i++)
    if (is_agg(e->outs[i]->ty))
      return true; /* fcall sets its out-variables' components */
  if (needs(e->a) || needs(e->b) || needs(e->c))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (needs(e->args[i]))
      return true;
  return false;
}

/* Could evaluating e earlier than its place change a result?  (It reads
 * memory, calls a function or changes a state.) */
static bool impure(const IrExpr *e) {
  if (!e)
    return false;
  switch (e->kind) {
  case E_LOAD: case E_FCALL: case E_ATOMIC:
    return true;
  case E_CALL:
    if (e->bi == BI_RANDF || e->bi == BI_RANDI || e->bi == BI_RANDN)
      return true;
    break;
  default:
    break;
  }
  if (impure(e->a) || impure(e->b) || impure(e->c))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (impure(e->args[i]))
      return true;
  return false;
}

/* ---------------------------------------------------------------- building */

static void put(Xp *X, IrStmt *s) {
  s->next = NULL;
  *X->tail = s;
  X->tail = &s->next;
}

static void assign(Xp *X, IrVar *v, IrExpr *e) {
  IrStmt *s = ir_stmt(X->C, S_ASSIGN, X->pos);
  s->var = v;
  s->a = e;
  put(X, s);
}

/* e in a fresh local (a variable or constant is already a value). */
static IrExpr *tmp(Xp *X, IrExpr *e) {
  if (e->kind == E_VAR || e->kind == E_CONST)
    return e;
  IrVar *v = ir_var(X->C, X->f, "x", e->ty);
  assign(X, v, e);
  return ir_ref(X->C, v);
}

static const Type *sty(kern_scalar sc) { return ty_scalar(sc); }

static IrExpr *K(Xp *X, kern_scalar sc, double v) {
  if (isf(sc) || is16(sc))
    return ir_const_float(X->C, sty(sc), v);
  return ir_const_int(X->C, sty(sc), (uint64_t)(int64_t)v);
}

static IrExpr *B(Xp *X, int op, kern_scalar sc, IrExpr *a, IrExpr *b) {
  return tmp(X, ir_binary(X->C, op, sty(sc), a, b));
}

static IrExpr *CMP(Xp *X, int op, IrExpr *a, IrExpr *b) {
  return ir_binary(X->C, op, sty(KERN_SCALAR_BOOL), a, b);
}

static IrExpr *NEG(Xp *X, IrExpr *a) {
  return tmp(X, ir_unary(X->C, OP_NEG, a));
}

static IrExpr *SEL(Xp *X, IrExpr *p, IrExpr *a, IrExpr *b) {
  IrExpr *e = ir_expr(X->C, E_SELECT, a->ty);
  e->a = p;
  e->b = a;
  e->c = b;
  return tmp(X, e);
}

/* e as a bool, as C's && and || read it (a NaN is true). */
static IrExpr *truth_of(Xp *X, IrExpr *e) {
  if (e->ty->kind == TY_SCALAR && e->ty->sc == KERN_SCALAR_BOOL)
    return e;
  if (e->ty->kind != TY_SCALAR)
    refuse(X, "this condition");
  return CMP(X, OP_NE, e, K(X, e->ty->sc, 0.0));
}

/* ---------------------------------------------------------------- scalar rules */

/* Note [scalar rules]: the scalar builtins whose meaning is a rule of
 * Warp's rather than one machine instruction are written here as IR
 * operators and selects, the way their helpers in emit/common.c
 * (scalar_body) compute them: min and max with Warp's NaN rule, integer
 * abs, sign, step, nonzero, frac, the isnan family, C's truth, the index
 * wrap, and the integer division family with its guards (a zero divisor
 * gives 0, a divisor of -1 negates without trapping, // rounds down).  So
 * after the pass the only scalar builtins left are instructions every
 * target has with one meaning (float abs, sqrt, floor, ceil, trunc, the
 * transcendental functions, float %), and an integer / or % (E_BINARY,
 * C's truncating division) is only ever reached with a divisor that is
 * neither 0 nor -1.  The selects' operands are locals or constants, so a
 * target may evaluate both sides (PTX's selp) or branch.  16-bit floats
 * keep their calls (their helpers compute in float32). */

static bool rule_type(kern_scalar sc) {
  return sc != KERN_SCALAR_BOOL && sc != KERN_SCALAR_FLOAT16 &&
         sc != KERN_SCALAR_BFLOAT16;
}

/* Is e a call of a scalar rule on scalars of a type the rule covers?
 * (Not a call an autodiff module keeps: IR_KEEP_CALL.) */
static bool rule(const IrExpr *e) {
  if (e->kind != E_CALL || e->ty->kind != TY_SCALAR || e->nargs < 1 ||
      e->nargs > 2 || e->ival == IR_KEEP_CALL)
    return false;
  for (int i = 0; i < e->nargs; i++)
    if (e->args[i]->ty->kind != TY_SCALAR)
      return false;
  kern_scalar sc = e->args[0]->ty->sc, rs = e->ty->sc;
  bool same = rs == sc && (e->nargs == 1 || e->args[1]->ty->sc == sc);
  int n = e->nargs;
  switch (e->bi) {
  case BI_TRUTH:
    return n == 1 && rs == KERN_SCALAR_BOOL &&
           (rule_type(sc) || sc == KERN_SCALAR_BOOL);
  case BI_ISNAN: case BI_ISINF: case BI_ISFINITE:
    return n == 1 && rs == KERN_SCALAR_BOOL && rule_type(sc);
  case BI_MIN: case BI_MAX:
    return n == 2 && same && rule_type(sc);
  case BI_ABS:
    return n == 1 && same && rule_type(sc) && !isf(sc);
  case BI_SIGN: case BI_STEP: case BI_NONZERO:
    return n == 1 && same && rule_type(sc);
  case BI_FRAC:
    return n == 1 && same && isf(sc);
  case BI_WRAP_INDEX: case BI_OP_DIV: case BI_OP_MOD:
    return n == 2 && same && rule_type(sc) && !isf(sc);
  case BI_OP_FLOORDIV:
    return n == 2 && same && rule_type(sc);
  default:
    return false;
  }
}

static IrExpr *CALL(Xp *X, int bi, kern_scalar rs, int n, IrExpr *a, IrExpr *b);

/* The rule e->bi on the values a (already locals or constants). */
static IrExpr *lower_rule(Xp *X, const IrExpr *e, IrExpr **a) {
  kern_scalar sc = e->args[0]->ty->sc;
  bool fl = isf(sc), sg = sc_is_signed(sc);
  IrExpr *zero = K(X, sc, 0.0), *one = K(X, sc, 1.0);
  switch (e->bi) {
  case BI_TRUTH: /* a != 0 (true for NaN) */
    return CMP(X, OP_NE, a[0], zero);
  case BI_ISNAN: /* a != a */
    if (!fl)
      return K(X, KERN_SCALAR_BOOL, 0.0);
    return CMP(X, OP_NE, a[0], a[0]);
  case BI_ISINF: case BI_ISFINITE: { /* |a| == inf, |a| < inf */
    if (!fl)
      return K(X, KERN_SCALAR_BOOL, e->bi == BI_ISFINITE);
    IrExpr *m = CALL(X, BI_ABS, sc, 1, a[0], NULL);
    return CMP(X, e->bi == BI_ISINF ? OP_EQ : OP_LT, m,
                 ir_const_float(X->C, sty(sc), INFINITY));
  }
  case BI_MIN: case BI_MAX: {
    int op = e->bi == BI_MIN ? OP_LT : OP_GT;
    if (!fl) /* a < b ? a : b */
      return SEL(X, CMP(X, op, a[0], a[1]), a[0], a[1]);
    /* (a <= b) ? a : ((b == b) ? b : a): the first when they compare
     * equal, the other when exactly one is NaN */
    IrExpr *t = SEL(X, CMP(X, OP_EQ, a[1], a[1]), a[1], a[0]);
    return SEL(X, CMP(X, op == OP_LT ? OP_LE : OP_GE, a[0], a[1]), a[0], t);
  }
  case BI_ABS: /* integers: a < 0 ? 0 - a : a */
    if (!sg)
      return a[0];
    return SEL(X, CMP(X, OP_LT, a[0], zero), B(X, OP_SUB, sc, zero, a[0]),
               a[0]);
  case BI_SIGN: case BI_STEP: { /* a < 0 ? -1 : 1;  a < 0 ? 1 : 0 */
    bool sign = e->bi == BI_SIGN;
    if (!sg && !fl)
      return sign ? one : zero;
    IrExpr *p = CMP(X, OP_LT, a[0], zero);
    return sign ? SEL(X, p, K(X, sc, -1.0), one) : SEL(X, p, one, zero);
  }
  case BI_NONZERO: /* a == 0 ? 0 : 1 */
    return SEL(X, CMP(X, OP_EQ, a[0], zero), zero, one);
  case BI_FRAC: /* a - trunc(a) */
    return B(X, OP_SUB, sc, a[0], CALL(X, BI_TRUNC, sc, 1, a[0], NULL));
  case BI_WRAP_INDEX: /* a < 0 ? a + b : a */
    return SEL(X, CMP(X, OP_LT, a[0], zero), B(X, OP_ADD, sc, a[0], a[1]),
               a[0]);
  default:
    break;
  }
  int bi = e->bi;
  if (fl) /* a // b of floats: floor(a / b) */
    return CALL(X, BI_FLOOR, sc, 1, B(X, OP_DIV, sc, a[0], a[1]), NULL);
  /* the integer division family: the divisor is made 1 where the helper
   * answers without dividing (0, and -1 when signed), so the division
   * itself never traps; a % 1 is then 0, the helper's answer there.  The
   * comparisons stay expressions (a target compares where it selects). */
  IrExpr *z = CMP(X, OP_EQ, a[1], zero);
  IrExpr *safe = SEL(X, z, one, a[1]);
  IrExpr *m1 = NULL;
  if (sg) {
    m1 = CMP(X, OP_EQ, a[1], K(X, sc, -1.0));
    safe = SEL(X, m1, one, safe);
  }
  if (bi == BI_OP_MOD)
    return B(X, OP_MOD, sc, a[0], safe);
  IrExpr *q = B(X, OP_DIV, sc, a[0], safe);
  if (sg) /* a / -1 is 0 - a, wrapping */
    q = SEL(X, m1, B(X, OP_SUB, sc, zero, a[0]), q);
  q = SEL(X, z, zero, q);
  if (bi == BI_OP_DIV || !sg)
    return q;
  /* a // b: q - 1 when the remainder is nonzero and the signs differ (a
   * divisor of 0 or -1 leaves remainder 0) */
  IrExpr *r = B(X, OP_MOD, sc, a[0], safe);
  IrExpr *differ = CMP(X, OP_LT, B(X, OP_BITXOR, sc, a[0], a[1]), zero);
  IrExpr *d = SEL(X, differ, B(X, OP_SUB, sc, q, one), q);
  return SEL(X, CMP(X, OP_NE, r, zero), d, q);
}

/* The scalar builtin bi on a and b: its rule written out, or a call. */
static IrExpr *CALL(Xp *X, int bi, kern_scalar rs, int n, IrExpr *a, IrExpr *b) {
  IrExpr *args[2] = {a, b};
  IrExpr *e = ir_call(X->C, bi, sty(rs), n, args);
  if (!rule(e))
    return tmp(X, e);
  IrExpr *v[2] = {tmp(X, a), n > 1 ? tmp(X, b) : NULL};
  return lower_rule(X, e, v);
}

static IrExpr *cidx(Xp *X, int k) {
  return ir_const_int(X->C, sty(KERN_SCALAR_INT32), (uint64_t)k);
}

/* Component k of the whole value e (a variable or a temporary). */
static IrExpr *comp_of(Xp *X, IrExpr *e, int k) {
  const Type *t = e->ty;
  IrExpr *c = ir_expr(X->C, E_COMP, sty(t->sc));
  c->a = e;
  if (t->kind == TY_MAT) {
    c->b = cidx(X, k / t->cols);
    c->c = cidx(X, k % t->cols);
  } else {
    c->b = cidx(X, k);
  }
  return c;
}

static IrExpr **comps_new(Xp *X, int n) {
  return arena_alloc(X->C, (size_t)(n ? n : 1) * sizeof(IrExpr *));
}

/* The whole value as an E_MAKE of its components. */
static IrExpr *make_of(Xp *X, const Type *t, IrExpr **c) {
  IrExpr *e = ir_expr(X->C, E_MAKE, t);
  int n = ncomp(t);
  e->nargs = n;
  e->args = comps_new(X, n);
  for (int k = 0; k < n; k++)
    e->args[k] = c[k];
  return e;
}

/* The component locals of the aggregate variable v. */
static IrExpr **var_comps(Xp *X, IrVar *v) {
  for (int i = 0; i < X->nmaps; i++)
    if (X->maps[i].var == v)
      return X->maps[i].comps;
  need_agg(X, v->ty);
  if (X->nmaps == X->capmaps) {
    int cap = X->capmaps ? 2 * X->capmaps : 32;
    XMap *m = arena_alloc(X->C, (size_t)cap * sizeof *m);
    if (X->nmaps)
      memcpy(m, X->maps, (size_t)X->nmaps * sizeof *m);
    X->maps = m;
    X->capmaps = cap;
  }
  int n = ncomp(v->ty);
  IrExpr **c = comps_new(X, n);
  const char *base = strchr(v->name, '_') ? strchr(v->name, '_') + 1 : v->name;
  for (int k = 0; k < n; k++)
    c[k] = ir_ref(X->C, ir_var(X->C, X->f, arena_printf(X->C, "%s_%d", base, k),
                               sty(v->ty->sc)));
  X->maps[X->nmaps].var = v;
  X->maps[X->nmaps].comps = c;
  X->nmaps++;
  return c;
}

/* ---------------------------------------------------------------- expressions */

static IrExpr *xs(Xp *X, IrExpr *e);
static IrExpr **xv(Xp *X, IrExpr *e);

/* A whole value's components through an aggregate temporary. */
static IrExpr **via_tmp(Xp *X, IrExpr *e) {
  IrExpr *t = tmp(X, e);
  int n = ncomp(e->ty);
  IrExpr **r = comps_new(X, n);
  for (int k = 0; k < n; k++)
    r[k] = comp_of(X, t, k);
  return r;
}

/* An argument handed on whole: a scalar expanded, an aggregate remade. */
static IrExpr *whole(Xp *X, IrExpr *e) {
  if (is_agg(e->ty)) {
    need_agg(X, e->ty);
    return make_of(X, e->ty, xv(X, e));
  }
  return xs(X, e);
}

/* The operands of e (a, b, c, then args) rewritten in order; an impure
 * operand before one whose rewrite emits statements is evaluated first,
 * into a local, so the order of effects stays the source's. */
static void operands(Xp *X, IrExpr *e, IrExpr *n) {
  IrExpr **slots[64];
  int ns = 0;
  IrExpr **fixed[3] = {&n->a, &n->b, &n->c};
  for (int i = 0; i < 3; i++)
    if (*fixed[i])
      slots[ns++] = fixed[i];
  if (e->nargs > 60)
    refuse(X, "a call with this many arguments");
  if (e->nargs) {
    n->args = comps_new(X, e->nargs);
    for (int i = 0; i < e->nargs; i++) {
      n->args[i] = e->args[i];
      slots[ns++] = &n->args[i];
    }
  }
  for (int i = 0; i < ns; i++) {
    bool later = false;
    for (int j = i + 1; j < ns; j++)
      later |= needs(*slots[j]);
    IrExpr *v = whole(X, *slots[i]);
    if (later && impure(v) && v->ty->kind == TY_SCALAR)
      v = tmp(X, v);
    *slots[i] = v;
  }
}

/* Statements emitted into a list of their own. */
typedef struct Sub {
  IrStmt *head;
  IrStmt **saved;
} Sub;

static void sub_open(Xp *X, Sub *s) {
  s->head = NULL;
  s->saved = X->tail;
  X->tail = &s->head;
}

static IrStmt *sub_close(Xp *X, Sub *s) {
  X->tail = s->saved;
  return s->head;
}

/* p ? b : c with b and c expanded only on their branch, into r. */
static void branch_into(Xp *X, IrExpr *p, IrExpr *b, IrExpr *c, IrVar **r,
                        int n) {
  IrStmt *s = ir_stmt(X->C, S_IF, X->pos);
  s->a = p;
  for (int side = 0; side < 2; side++) {
    Sub sb;
    sub_open(X, &sb);
    IrExpr *v = side ? c : b;
    if (n == 1 && !is_agg(v->ty)) {
      assign(X, r[0], xs(X, v));
    } else {
      IrExpr **vc = xv(X, v);
      for (int k = 0; k < n; k++)
        assign(X, r[k], vc[k]);
    }
    IrStmt *body = sub_close(X, &sb);
    if (side)
      s->orelse = body;
    else
      s->body = body;
  }
  put(X, s);
}

/* The scalar index i as a local (it is compared several times). */
static IrExpr *index_of(Xp *X, IrExpr *i) {
  if (i->ty->kind != TY_SCALAR || isf(i->ty->sc))
    refuse(X, "a component index of this type");
  return tmp(X, xs(X, i));
}

/* Component i among n values c[base + k * st]: a constant picks; a
 * run-time index selects (the last component when none matches, as the
 * PTX tier has always done; C leaves an index out of range undefined). */
static IrExpr *pick(Xp *X, IrExpr **c, int base, int st, int n, IrExpr *i) {
  if (i->kind == E_CONST) {
    if (i->ival >= (uint64_t)n)
      refuse(X, "a component index out of range");
    return c[base + (int)i->ival * st];
  }
  IrExpr *r = c[base + (n - 1) * st];
  for (int k = n - 2; k >= 0; k--)
    r = SEL(X, CMP(X, OP_EQ, i, ir_const_int(X->C, i->ty, (uint64_t)k)),
            c[base + k * st], r);
  return r;
}

/* s = 0; s += x[k * xs] * y[k * ys], as the helpers sum. */
static IrExpr *dot_sum(Xp *X, kern_scalar sc, IrExpr **x, int xst, IrExpr **y,
                       int yst, int n) {
  IrExpr *s = K(X, sc, 0.0);
  for (int k = 0; k < n; k++)
    s = B(X, OP_ADD, sc, s, B(X, OP_MUL, sc, x[k * xst], y[k * yst]));
  return s;
}

/* wp.dot of two vectors, as the dot helper (common.c) and Warp's vec.h
 * sum: 2 and 3 products directly, so that -0.0 products give -0.0; longer
 * vectors from 0. */
static IrExpr *vdot(Xp *X, kern_scalar sc, IrExpr **x, IrExpr **y, int n) {
  if (n != 2 && n != 3) return dot_sum(X, sc, x, 1, y, 1, n);
  IrExpr *s = B(X, OP_ADD, sc, B(X, OP_MUL, sc, x[0], y[0]),
                B(X, OP_MUL, sc, x[1], y[1]));
  if (n == 3) s = B(X, OP_ADD, sc, s, B(X, OP_MUL, sc, x[2], y[2]));
  return s;
}

/* Warp's quat_rotate (inv: quat_rotate_inv) of b by a, quat_body's terms. */
static void quat_rotate(Xp *X, kern_scalar sc, IrExpr **a, IrExpr **b, bool inv,
                        IrExpr **r) {
  IrExpr *two = K(X, sc, 2.0), *one = K(X, sc, 1.0);
  /* c = 2 * a3 * a3 - 1; d = 2 * (a0 * b0 + a1 * b1 + a2 * b2) */
  IrExpr *c = B(X, OP_SUB, sc, B(X, OP_MUL, sc, B(X, OP_MUL, sc, two, a[3]), a[3]), one);
  IrExpr *dd = B(X, OP_ADD, sc, B(X, OP_MUL, sc, a[0], b[0]), B(X, OP_MUL, sc, a[1], b[1]));
  dd = B(X, OP_ADD, sc, dd, B(X, OP_MUL, sc, a[2], b[2]));
  IrExpr *d = B(X, OP_MUL, sc, two, dd);
  static const int ix[3][2] = {{1, 2}, {2, 0}, {0, 1}};
  for (int k = 0; k < 3; k++) {
    int i = ix[k][0], j = ix[k][1];
    /* b_k * c + a_k * d +- (a_i * b_j - a_j * b_i) * a3 * 2 */
    IrExpr *u = B(X, OP_ADD, sc, B(X, OP_MUL, sc, b[k], c), B(X, OP_MUL, sc, a[k], d));
    IrExpr *x = B(X, OP_SUB, sc, B(X, OP_MUL, sc, a[i], b[j]), B(X, OP_MUL, sc, a[j], b[i]));
    r[k] = B(X, inv ? OP_SUB : OP_ADD, sc, u, B(X, OP_MUL, sc, B(X, OP_MUL, sc, x, a[3]), two));
  }
}

/* The Hamilton product x * y, term for term as vector_arith writes it. */
static void quat_mul(Xp *X, kern_scalar sc, IrExpr **x, IrExpr **y, IrExpr **r) {
  static const int ix[3][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}};
  for (int k = 0; k < 3; k++) {
    int i0 = ix[k][0], i1 = ix[k][1], i2 = ix[k][2];
    /* a3 * b_i0 + b3 * a_i0 + a_i1 * b_i2 - b_i1 * a_i2 */
    IrExpr *u = B(X, OP_ADD, sc, B(X, OP_MUL, sc, x[3], y[i0]), B(X, OP_MUL, sc, y[3], x[i0]));
    u = B(X, OP_ADD, sc, u, B(X, OP_MUL, sc, x[i1], y[i2]));
    r[k] = B(X, OP_SUB, sc, u, B(X, OP_MUL, sc, y[i1], x[i2]));
  }
  IrExpr *w = B(X, OP_SUB, sc, B(X, OP_MUL, sc, x[3], y[3]), B(X, OP_MUL, sc, x[0], y[0]));
  w = B(X, OP_SUB, sc, w, B(X, OP_MUL, sc, x[1], y[1]));
  r[3] = B(X, OP_SUB, sc, w, B(X, OP_MUL, sc, x[2], y[2]));
}

/* The normalised quaternion a into r: l = length(a); !(l > 0): the
 * identity; else a[k] * (1 / l). */
static void quat_normalize(Xp *X, kern_scalar sc, IrExpr **a, IrExpr **r) {
  IrExpr *l = CALL(X, BI_SQRT, sc, 1, vdot(X, sc, a, a, 4), NULL);
  IrExpr *p = tmp(X, CMP(X, OP_GT, l, K(X, sc, 0.0)));
  IrExpr *inv = B(X, OP_DIV, sc, K(X, sc, 1.0), l);
  for (int k = 0; k < 4; k++)
    r[k] = SEL(X, p, ir_binary(X->C, OP_MUL, sty(sc), a[k], inv),
               K(X, sc, k == 3 ? 1.0 : 0.0));
}

/* One case of Warp's quat_from_matrix (quat.h, as extra.c's helper) on
 * the matrix a (cols wide; its top-left 3x3), into the locals q: the
 * positive trace (k < 0), or the largest diagonal entry k. */
static void qfm_case(Xp *X, kern_scalar sc, IrExpr **a, int cols, int k,
                     IrVar **q) {
#define M(i, j) a[(i) * cols + (j)]
  IrExpr *half = K(X, sc, 0.5), *one = K(X, sc, 1.0);
  int d = k < 0 ? 3 : k, i = (d + 1) % 3, j = (d + 2) % 3;
  IrExpr *s = k < 0 ? B(X, OP_ADD, sc, B(X, OP_ADD, sc, M(0, 0), M(1, 1)), M(2, 2))
                    : B(X, OP_SUB, sc, M(k, k), B(X, OP_ADD, sc, M(i, i), M(j, j)));
  IrExpr *h = tmp(X, CALL(X, BI_SQRT, sc, 1, B(X, OP_ADD, sc, s, one), NULL));
  assign(X, q[d], B(X, OP_MUL, sc, half, h));
  h = tmp(X, B(X, OP_DIV, sc, half, h));
  if (k < 0) {
    for (int c = 0; c < 3; c++) /* x = (m21 - m12) h, cyclically */
      assign(X, q[c], B(X, OP_MUL, sc, B(X, OP_SUB, sc, M((c + 2) % 3, (c + 1) % 3),
                                          M((c + 1) % 3, (c + 2) % 3)), h));
    return;
  }
  assign(X, q[i], B(X, OP_MUL, sc, B(X, OP_ADD, sc, M(k, i), M(i, k)), h));
  assign(X, q[j], B(X, OP_MUL, sc, B(X, OP_ADD, sc, M(j, k), M(k, j)), h));
  assign(X, q[3], B(X, OP_MUL, sc, B(X, OP_SUB, sc, M(j, i), M(i, j)), h));
#undef M
}

/* An if statement on p whose branches the callback fills. */
static IrStmt *if_open(Xp *X, IrExpr *p, Sub *sb) {
  IrStmt *s = ir_stmt(X->C, S_IF, X->pos);
  s->a = p;
  sub_open(X, sb);
  return s;
}

/* Warp's quat_from_matrix of a (3x3 or 4x4, cols wide) into r: the
 * branches as statements, so the adjoint follows the one taken, as
 * Warp's adjoint does (its partials are those of this branch). */
static void quat_from_mat(Xp *X, kern_scalar sc, IrExpr **a, int cols, IrExpr **r) {
#define M(i, j) a[(i) * cols + (j)]
  IrVar *q[4];
  IrExpr *qe[4];
  for (int k = 0; k < 4; k++) {
    q[k] = ir_var(X->C, X->f, "qm", sty(sc));
    assign(X, q[k], K(X, sc, 0.0));
    qe[k] = ir_ref(X->C, q[k]);
  }
  IrExpr *tr = tmp(X, B(X, OP_ADD, sc, B(X, OP_ADD, sc, M(0, 0), M(1, 1)), M(2, 2)));
  Sub s0, s1, s2, s3;
  IrStmt *top = if_open(X, tmp(X, CMP(X, OP_GE, tr, K(X, sc, 0.0))), &s0);
  qfm_case(X, sc, a, cols, -1, q);
  top->body = sub_close(X, &s0);
  sub_open(X, &s1);
  /* md = m11 > m00 ? 1 : 0; m22 > m[md][md] ? 2 : md */
  kern_scalar it = KERN_SCALAR_INT32;
  IrExpr *p1 = tmp(X, CMP(X, OP_GT, M(1, 1), M(0, 0)));
  IrExpr *md = SEL(X, p1, K(X, it, 1.0), K(X, it, 0.0));
  IrExpr *dd = SEL(X, p1, M(1, 1), M(0, 0));
  IrExpr *p2 = tmp(X, CMP(X, OP_GT, M(2, 2), dd));
  md = SEL(X, p2, K(X, it, 2.0), md);
  IrStmt *c0 = if_open(X, tmp(X, CMP(X, OP_EQ, md, K(X, it, 0.0))), &s2);
  qfm_case(X, sc, a, cols, 0, q);
  c0->body = sub_close(X, &s2);
  sub_open(X, &s2);
  IrStmt *c1 = if_open(X, tmp(X, CMP(X, OP_EQ, md, K(X, it, 1.0))), &s3);
  qfm_case(X, sc, a, cols, 1, q);
  c1->body = sub_close(X, &s3);
  sub_open(X, &s3);
  qfm_case(X, sc, a, cols, 2, q);
  c1->orelse = sub_close(X, &s3);
  put(X, c1);
  c0->orelse = sub_close(X, &s2);
  put(X, c0);
  top->orelse = sub_close(X, &s1);
  put(X, top);
  quat_normalize(X, sc, qe, r);
#undef M
}

/* Warp's cross(x, y) into r. */
static void cross3(Xp *X, kern_scalar sc, IrExpr **x, IrExpr **y, IrExpr **r) {
  static const int ix[3][4] = {{1, 2, 2, 1}, {2, 0, 0, 2}, {0, 1, 1, 0}};
  for (int k = 0; k < 3; k++)
    r[k] = B(X, OP_SUB, sc, B(X, OP_MUL, sc, x[ix[k][0]], y[ix[k][1]]),
             B(X, OP_MUL, sc, x[ix[k][2]], y[ix[k][3]]));
}

/* Builtins a quaternion or transform takes (their helper is the vector
 * one, or they have a form of their own below). */
static bool quat_ok(int bi) {
  switch (bi) {
  case BI_ADD: case BI_SUB: case BI_NEG: case BI_MUL: case BI_DIV:
  case BI_DOT: case BI_LENGTH: case BI_LENGTH_SQ: case BI_NORMALIZE:
  case BI_VEC_EQ: case BI_VEC_NE: case BI_QUAT_ROTATE: case BI_QUAT_ROTATE_INV:
  case BI_QUAT_INVERSE: case BI_QUAT_IDENTITY: case BI_QUAT_TO_MATRIX:
  case BI_QUAT_FROM_AXIS_ANGLE: case BI_TRANSFORM_GET_ROTATION:
  case BI_QUAT_RPY: case BI_TRANSFORM_SET_ROTATION_COPY:
  case BI_QUAT_TO_RPY: case BI_QUAT_TWIST: case BI_QUAT_TWIST_ANGLE:
  case BI_QUAT_TWIST_ANGLE_SIGNED: case BI_TRANSFORM_COMPOSE:
  case BI_QUAT_FROM_MATRIX: case BI_TRANSFORM_DECOMPOSE:
  case BI_QUAT_TO_AXIS_ANGLE:
    return true;
  default:
    return false;
  }
}

static bool xform_ok(int bi) {
  switch (bi) {
  case BI_ADD: case BI_SUB: case BI_NEG: case BI_MUL: case BI_DIV:
  case BI_VEC_EQ: case BI_VEC_NE: case BI_TRANSFORM_IDENTITY:
  case BI_TRANSFORM_GET_TRANSLATION: case BI_TRANSFORM_GET_ROTATION:
  case BI_TRANSFORM_POINT: case BI_TRANSFORM_VECTOR:
  case BI_TRANSFORM_INVERSE: case BI_TRANSFORM_MULTIPLY:
  case BI_TRANSFORM_TWIST: case BI_TRANSFORM_WRENCH:
  case BI_TRANSFORM_TO_MATRIX: case BI_TRANSFORM_SET_TRANSLATION_COPY:
  case BI_TRANSFORM_SET_ROTATION_COPY: case BI_TRANSFORM_FROM_MATRIX:
    return true;
  default:
    return false;
  }
}

static void check_kinds(Xp *X, IrExpr *e) {
  bool q = e->ty->quat, x = e->ty->xform;
  for (int i = 0; i < e->nargs; i++) {
    q |= e->args[i]->ty->quat;
    x |= e->args[i]->ty->xform;
  }
  if (q && !quat_ok(e->bi))
    refuse(X, arena_printf(X->C, "wp.%s of quaternions", bname(X, e->bi)));
  if (x && !xform_ok(e->bi))
    refuse(X, arena_printf(X->C, "wp.%s of transforms", bname(X, e->bi)));
}

/* The arity of a componentwise builtin (vector_arith's componentwise()). */
static int cw_arity(int bi) {
  return bi == BI_MIN || bi == BI_MAX || bi == BI_OP_MOD || bi == BI_OP_DIV ||
         bi == BI_OP_FLOORDIV ? 2 : 1;
}

/* Warp's norm_l1(v), norm_huber(v, delta), norm_pseudo_huber(v, delta)
 * (@wp.funcs of its math.py, as extra.c's helpers: float32 vectors and
 * quaternions). */
static IrExpr *norm_agg(Xp *X, IrExpr *e) {
  int bi = e->bi;
  const Type *t = e->args[0]->ty;
  if (e->nargs != (bi == BI_NORM_L1 ? 1 : 2) || t->kind != TY_VEC ||
      t->xform || !isfx(X, t->sc) || e->ty->kind != TY_SCALAR ||
      (e->nargs == 2 && (e->args[1]->ty->kind != TY_SCALAR ||
                         e->args[1]->ty->sc != t->sc)))
    refuse(X, arena_printf(X->C, "this wp.%s", bname(X, bi)));
  need_agg(X, t);
  kern_scalar sc = t->sc;
  int n = ncomp(t);
  IrExpr **a = xv(X, e->args[0]);
  if (bi == BI_NORM_L1) { /* s = 0; s += abs(v[k]) */
    IrExpr *s = K(X, sc, 0.0);
    for (int k = 0; k < n; k++)
      s = B(X, OP_ADD, sc, s, CALL(X, BI_ABS, sc, 1, a[k], NULL));
    return s;
  }
  IrExpr *b = tmp(X, xs(X, e->args[1]));
  IrExpr *d = tmp(X, vdot(X, sc, a, a, n));
  IrExpr *bb = B(X, OP_MUL, sc, b, b);
  if (bi == BI_NORM_PSEUDO_HUBER) /* b sqrt(1 + d / b^2) */
    return B(X, OP_MUL, sc, b, CALL(X, BI_SQRT, sc, 1,
                                    B(X, OP_ADD, sc, K(X, sc, 1.0),
                                      B(X, OP_DIV, sc, d, bb)), NULL));
  /* d <= b^2 ? 0.5 d : b (sqrt(d) - 0.5 b) */
  IrExpr *p = tmp(X, CMP(X, OP_LE, d, bb));
  IrExpr *far = B(X, OP_MUL, sc, b,
                  B(X, OP_SUB, sc, CALL(X, BI_SQRT, sc, 1, d, NULL),
                    B(X, OP_MUL, sc, K(X, sc, 0.5), b)));
  return SEL(X, p, B(X, OP_MUL, sc, K(X, sc, 0.5), d), far);
}

/* math.py's quat_twist: the projection of q's vector part on the axis,
 * as extra.c's helper sums it. */
static IrExpr *twist_proj(Xp *X, kern_scalar sc, IrExpr **axis, IrExpr **q) {
  IrExpr *p = B(X, OP_ADD, sc, B(X, OP_MUL, sc, q[0], axis[0]),
                B(X, OP_MUL, sc, q[1], axis[1]));
  return tmp(X, B(X, OP_ADD, sc, p, B(X, OP_MUL, sc, q[2], axis[2])));
}

/* math.py's quat_twist_angle(axis, q) (_signed: without the abs):
 * 2 atan2(|p|, q.w), p the projection above. */
static IrExpr *twist_angle(Xp *X, IrExpr *e) {
  const Type *v3 = e->args[0]->ty, *q = e->args[1]->ty;
  if (e->nargs != 2 || v3->kind != TY_VEC || v3->rows != 3 || v3->quat ||
      !q->quat || v3->sc != KERN_SCALAR_FLOAT32 || q->sc != KERN_SCALAR_FLOAT32)
    refuse(X, arena_printf(X->C, "this wp.%s", bname(X, e->bi)));
  kern_scalar sc = KERN_SCALAR_FLOAT32;
  IrExpr **a = xv(X, e->args[0]), **b = xv(X, e->args[1]);
  IrExpr *p = twist_proj(X, sc, a, b);
  if (e->bi == BI_QUAT_TWIST_ANGLE)
    p = CALL(X, BI_ABS, sc, 1, p, NULL);
  return B(X, OP_MUL, sc, K(X, sc, 2.0), CALL(X, BI_ATAN2, sc, 2, p, b[3]));
}

/* Warp's quat_to_axis_angle of the components a, as extra.c's helper:
 * the normalised vector part v, negated when a.w < 0, into r (unless
 * NULL); 2 atan2(|v|, |a.w|) returned where angle (else NULL).  (Warp's
 * adjoint is this derivative wherever |v| > 0.) */
static IrExpr *axis_angle_of(Xp *X, kern_scalar sc, IrExpr **a, IrExpr **r,
                             bool angle) {
  IrExpr *l = tmp(X, CALL(X, BI_SQRT, sc, 1, vdot(X, sc, a, a, 3), NULL));
  if (r) {
    IrExpr *p = tmp(X, CMP(X, OP_GT, l, K(X, sc, 0.0)));
    IrExpr *neg = tmp(X, CMP(X, OP_LT, a[3], K(X, sc, 0.0)));
    for (int k = 0; k < 3; k++) {
      IrExpr *n = SEL(X, p, ir_binary(X->C, OP_DIV, sty(sc), a[k], l), K(X, sc, 0.0));
      r[k] = SEL(X, neg, NEG(X, n), n);
    }
  }
  if (!angle)
    return NULL;
  IrExpr *w = CALL(X, BI_ABS, sc, 1, a[3], NULL);
  return B(X, OP_MUL, sc, K(X, sc, 2.0), CALL(X, BI_ATAN2, sc, 2, l, w));
}

/* Part b (a constant: 0 the axis, into r, 1 the angle, returned) of
 * wp.quat_to_axis_angle(q). */
static IrExpr *axis_angle(Xp *X, IrExpr *e, IrExpr **r) {
  const Type *q = e->args[0]->ty;
  if (e->nargs != 2 || !q->quat || e->args[1]->kind != E_CONST ||
      e->args[1]->ival != (r ? 0u : 1u))
    refuse(X, "this wp.quat_to_axis_angle");
  need_agg(X, q);
  return axis_angle_of(X, q->sc, xv(X, e->args[0]), r, !r);
}

/* wp.quat_slerp(q0, q1, t), as extra.c's helper: q0 times the rotation
 * about the axis of q0^-1 q1 by t times its angle.  Its gradient is the
 * derivative, as Warp's adj_quat_slerp is (where the vector part of
 * q0^-1 q1 is not zero). */
static IrExpr **slerp(Xp *X, IrExpr *e) {
  const Type *q = e->ty;
  if (e->nargs != 3 || !q->quat || !isfx(X, q->sc) || !ty_eq(e->args[0]->ty, q) ||
      !ty_eq(e->args[1]->ty, q) || e->args[2]->ty->kind != TY_SCALAR ||
      e->args[2]->ty->sc != q->sc)
    refuse(X, "this wp.quat_slerp");
  need_agg(X, q);
  kern_scalar sc = q->sc;
  IrExpr **a = xv(X, e->args[0]), **b = xv(X, e->args[1]);
  IrExpr *t = tmp(X, xs(X, e->args[2]));
  IrExpr *ai[4], *d[4], *ax[3], *turn[4], **r = comps_new(X, 4);
  for (int k = 0; k < 3; k++)
    ai[k] = NEG(X, a[k]);
  ai[3] = a[3];
  quat_mul(X, sc, ai, b, d);
  IrExpr *ang = axis_angle_of(X, sc, d, ax, true);
  IrExpr *h = tmp(X, B(X, OP_MUL, sc, B(X, OP_MUL, sc, t, ang), K(X, sc, 0.5)));
  IrExpr *sh = tmp(X, CALL(X, BI_SIN, sc, 1, h, NULL));
  for (int k = 0; k < 3; k++)
    turn[k] = B(X, OP_MUL, sc, ax[k], sh);
  turn[3] = CALL(X, BI_COS, sc, 1, h, NULL);
  quat_mul(X, sc, a, turn, r);
  return r;
}

/* Note [4x4 inverse]: Warp's 4x4 determinant and inverse (mat.h) take
 * the matrix apart into 2x2 minors y of two columns and 3x3 cofactors z,
 * keeping y, the second two columns' cofactors and the determinant in
 * double and the first two columns' cofactors in the component type;
 * emit/common.c's helper does the same.  So does the expansion, with an
 * explicit cast wherever C converts: a minor is a difference of products
 * in the component type, widened; a cofactor is summed in double (the
 * component widened), the first columns' narrowed again; the determinant
 * is the sum of products in the component type, widened.  A determinant
 * that is not > 0 nor < 0 (zero or NaN) gives the zero matrix.  Its
 * gradient, through these operations, is the derivative, which Warp's
 * adjoints (the cofactors for the determinant, -inv^T g inv^T for the
 * inverse) also are, up to rounding; a singular matrix gets none, as in
 * Warp, where the inverse is the zero matrix.  A 16-bit float matrix
 * (taken in an autodiff module only, IrModule.half_aggs) goes the same
 * way, except that Warp's product of a 16-bit value and a double is
 * 16-bit (builtin.h's mixed operators), so its cofactors are sums of
 * 16-bit products in 16 bits (cof3); the determinant and the inverse's
 * components are then Warp's bit for bit. */

/* x as a double (x itself where already one) */
static IrExpr *wide(Xp *X, IrExpr *x) {
  if (x->ty->sc == KERN_SCALAR_FLOAT64)
    return x;
  return tmp(X, ir_cast(X->C, sty(KERN_SCALAR_FLOAT64), x));
}

static IrExpr *narrow(Xp *X, kern_scalar sc, IrExpr *x) {
  if (sc == KERN_SCALAR_FLOAT64)
    return x;
  return tmp(X, ir_cast(X->C, sty(sc), x));
}

/* the minor a d - b c of components in sc, as a double */
static IrExpr *minor2(Xp *X, kern_scalar sc, IrExpr *a, IrExpr *d, IrExpr *b,
                      IrExpr *c) {
  return wide(X, B(X, OP_SUB, sc, B(X, OP_MUL, sc, a, d), B(X, OP_MUL, sc, b, c)));
}

/* s0 x0 y0 + s1 x1 y1 + s2 x2 y2 in double, left to right (s the signs,
 * the first always +), x components and y doubles.  Of 16-bit x, Warp's
 * mixed product of a 16-bit value and a double is rounded to 16 bits and
 * the sum is of 16-bit values: so here (y, a 16-bit minor widened, is
 * narrowed back exactly). */
static IrExpr *cof3(Xp *X, IrExpr *x0, IrExpr *y0, int s1, IrExpr *x1,
                    IrExpr *y1, int s2, IrExpr *x2, IrExpr *y2) {
  kern_scalar d = KERN_SCALAR_FLOAT64, h = x0->ty->sc;
  if (is16(h)) {
    IrExpr *r = B(X, OP_MUL, h, x0, narrow(X, h, y0));
    r = B(X, s1 > 0 ? OP_ADD : OP_SUB, h, r, B(X, OP_MUL, h, x1, narrow(X, h, y1)));
    return wide(X, B(X, s2 > 0 ? OP_ADD : OP_SUB, h, r,
                     B(X, OP_MUL, h, x2, narrow(X, h, y2))));
  }
  IrExpr *r = B(X, OP_MUL, d, wide(X, x0), y0);
  r = B(X, s1 > 0 ? OP_ADD : OP_SUB, d, r, B(X, OP_MUL, d, wide(X, x1), y1));
  return B(X, s2 > 0 ? OP_ADD : OP_SUB, d, r, B(X, OP_MUL, d, wide(X, x2), y2));
}

/* The 4x4 determinant of the components a (Note [4x4 inverse]), as a
 * double; with r, the inverse's components go there. */
/* The six 2x2 minors of columns c and c + 1 of the 4x4 matrix a, rows
 * 01 02 03 12 13 23, in that order (Note [4x4 inverse]). */
static void minors2(Xp *X, kern_scalar sc, IrExpr **a, int c, IrExpr **y) {
  static const int rows[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (int k = 0; k < 6; k++) {
    int p = rows[k][0], q = rows[k][1];
    y[k] = minor2(X, sc, a[p * 4 + c], a[q * 4 + c + 1], a[q * 4 + c],
                  a[p * 4 + c + 1]);
  }
}

static IrExpr *inv4(Xp *X, kern_scalar sc, IrExpr **a, IrExpr **r) {
#define x(i, j) a[(i) * 4 + (j)]
  IrExpr *y[6], *z[16];
  /* the second two columns' cofactors, from the first two's minors */
  if (r) {
    minors2(X, sc, a, 0, y);
    /* y: 01 02 03 12 13 23; z[i * 4 + j] is z_ij */
    z[15] = cof3(X, x(0, 2), y[3], -1, x(1, 2), y[1], 1, x(2, 2), y[0]);
    z[11] = cof3(X, x(1, 2), y[2], -1, x(3, 2), y[0], -1, x(0, 2), y[4]);
    z[7] = cof3(X, x(0, 2), y[5], -1, x(2, 2), y[2], 1, x(3, 2), y[1]);
    z[3] = cof3(X, x(2, 2), y[4], -1, x(3, 2), y[3], -1, x(1, 2), y[5]);
    z[14] = cof3(X, x(1, 3), y[1], -1, x(2, 3), y[0], -1, x(0, 3), y[3]);
    z[10] = cof3(X, x(0, 3), y[4], -1, x(1, 3), y[2], 1, x(3, 3), y[0]);
    z[6] = cof3(X, x(2, 3), y[2], -1, x(3, 3), y[1], -1, x(0, 3), y[5]);
    z[2] = cof3(X, x(1, 3), y[5], -1, x(2, 3), y[4], 1, x(3, 3), y[3]);
  }
  minors2(X, sc, a, 2, y);
  z[12] = narrow(X, sc, cof3(X, x(1, 1), y[1], -1, x(2, 1), y[0], -1, x(0, 1), y[3]));
  z[8] = narrow(X, sc, cof3(X, x(0, 1), y[4], -1, x(1, 1), y[2], 1, x(3, 1), y[0]));
  z[4] = narrow(X, sc, cof3(X, x(2, 1), y[2], -1, x(3, 1), y[1], -1, x(0, 1), y[5]));
  z[0] = narrow(X, sc, cof3(X, x(1, 1), y[5], -1, x(2, 1), y[4], 1, x(3, 1), y[3]));
  if (r) {
    z[13] = narrow(X, sc, cof3(X, x(0, 0), y[3], -1, x(1, 0), y[1], 1, x(2, 0), y[0]));
    z[9] = narrow(X, sc, cof3(X, x(1, 0), y[2], -1, x(3, 0), y[0], -1, x(0, 0), y[4]));
    z[5] = narrow(X, sc, cof3(X, x(0, 0), y[5], -1, x(2, 0), y[2], 1, x(3, 0), y[1]));
    z[1] = narrow(X, sc, cof3(X, x(2, 0), y[4], -1, x(3, 0), y[3], -1, x(1, 0), y[5]));
  }
  IrExpr *det = B(X, OP_MUL, sc, x(3, 0), z[12]);
  for (int i = 2; i >= 0; i--)
    det = B(X, OP_ADD, sc, det, B(X, OP_MUL, sc, x(i, 0), z[i * 4]));
  det = wide(X, det);
#undef x
  if (!r)
    return det;
  /* r_ij = z_ji / det, where det is not zero nor NaN */
  kern_scalar d = KERN_SCALAR_FLOAT64;
  IrExpr *zero = K(X, d, 0.0);
  IrExpr *ok = ir_expr(X->C, E_OR, sty(KERN_SCALAR_BOOL));
  ok->a = tmp(X, CMP(X, OP_GT, det, zero));
  ok->b = tmp(X, CMP(X, OP_LT, det, zero));
  ok = tmp(X, ok);
  /* 1 / 1 where singular: the unselected products stay finite, so their
   * gradient (zero times rcp) is zero, not NaN */
  IrExpr *rcp = B(X, OP_DIV, d, K(X, d, 1.0), SEL(X, ok, det, K(X, d, 1.0)));
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      IrExpr *v = narrow(X, sc, B(X, OP_MUL, d, wide(X, z[j * 4 + i]), rcp));
      r[i * 4 + j] = SEL(X, ok, v, K(X, sc, 0.0));
    }
  return det;
}

/* Scalar results of builtins on aggregates. */
static IrExpr *scall_agg(Xp *X, IrExpr *e) {
  int bi = e->bi;
  if (bi == BI_NORM_L1 || bi == BI_NORM_HUBER || bi == BI_NORM_PSEUDO_HUBER)
    return norm_agg(X, e);
  if (bi == BI_QUAT_TWIST_ANGLE || bi == BI_QUAT_TWIST_ANGLE_SIGNED)
    return twist_angle(X, e);
  if (bi == BI_QUAT_TO_AXIS_ANGLE)
    return axis_angle(X, e, NULL);
  if (e->nargs < 1 || e->nargs > 2)
    refuse(X, arena_printf(X->C, "wp.%s of vectors", bname(X, bi)));
  const Type *t = e->args[0]->ty;
  switch (bi) {
  case BI_DOT: case BI_LENGTH: case BI_LENGTH_SQ: case BI_MIN: case BI_MAX:
  case BI_VEC_EQ: case BI_VEC_NE: case BI_TRACE: case BI_DETERMINANT:
  case BI_ISNAN: case BI_ISINF: case BI_ISFINITE: case BI_DDOT:
    break;
  default:
    refuse(X, arena_printf(X->C, "wp.%s of vectors", bname(X, bi)));
  }
  for (int i = 0; i < e->nargs; i++)
    need_agg(X, e->args[i]->ty);
  if (e->nargs == 2 && !ty_eq(e->args[1]->ty, t))
    refuse(X, "a builtin on vectors of different types");
  check_kinds(X, e);
  kern_scalar sc = t->sc;
  int n = ncomp(t);
  switch (bi) {
  case BI_DOT: case BI_LENGTH: case BI_LENGTH_SQ:
    if (t->kind != TY_VEC || (bi != BI_DOT) != (e->nargs == 1))
      refuse(X, "this wp.dot");
    if (bi == BI_LENGTH && !isfx(X, sc))
      refuse(X, "wp.length of an integer vector");
    break;
  case BI_MIN: case BI_MAX:
    if (e->nargs != 1 || t->kind != TY_VEC)
      refuse(X, "this wp.min or wp.max");
    break;
  case BI_VEC_EQ: case BI_VEC_NE:
    if (e->nargs != 2)
      refuse(X, "this comparison");
    break;
  case BI_DDOT:
    if (e->nargs != 2 || t->kind != TY_MAT || !isfx(X, sc))
      refuse(X, "this wp.ddot");
    break;
  case BI_TRACE: case BI_DETERMINANT:
    if (e->nargs != 1 || t->kind != TY_MAT || t->rows != t->cols)
      refuse(X, "this matrix function");
    if (bi == BI_DETERMINANT && t->rows == 4 && !isfx(X, sc))
      refuse(X, "wp.determinant of a 4x4 matrix of this type");
    break;
  case BI_ISNAN: case BI_ISINF: case BI_ISFINITE:
    if (e->nargs != 1 || !isfx(X, sc))
      refuse(X, "this test of a vector");
    break;
  default:
    refuse(X, arena_printf(X->C, "wp.%s of vectors", bname(X, bi)));
  }
  if (e->ty->kind != TY_SCALAR)
    refuse(X, "this builtin");
  IrExpr **a = xv(X, e->args[0]);
  IrExpr **b = e->nargs == 2 ? xv(X, e->args[1]) : a;
  switch (bi) {
  case BI_DOT: case BI_LENGTH_SQ:
    return vdot(X, sc, a, b, n);
  case BI_LENGTH:
    return CALL(X, BI_SQRT, sc, 1, vdot(X, sc, a, a, n), NULL);
  case BI_MIN: case BI_MAX: { /* r = a[0]; r = min(r, a[k]) */
    IrExpr *r = a[0];
    for (int k = 1; k < n; k++)
      r = CALL(X, bi, sc, 2, r, a[k]);
    return r;
  }
  case BI_VEC_EQ: case BI_VEC_NE: {
    /* the helper returns at the first component with a != b (C's !=, true
     * when either is NaN); nothing is evaluated after, so OR them */
    IrExpr *p = NULL;
    for (int k = 0; k < n; k++) {
      IrExpr *q = tmp(X, CMP(X, OP_NE, a[k], b[k]));
      p = p ? B(X, OP_BITOR, KERN_SCALAR_BOOL, p, q) : q;
    }
    if (bi == BI_VEC_EQ) {
      IrExpr *nt = ir_expr(X->C, E_NOT, sty(KERN_SCALAR_BOOL));
      nt->a = p;
      p = tmp(X, nt);
    }
    return p;
  }
  case BI_DDOT: /* Warp's mat.h: r = 0; r += a[i][j] * b[i][j], row by row */
    return dot_sum(X, sc, a, 1, b, 1, n);
  case BI_TRACE: { /* s = 0; s += a.m[k][k] */
    IrExpr *s = K(X, sc, 0.0);
    for (int k = 0; k < t->rows; k++)
      s = B(X, OP_ADD, sc, s, a[k * t->cols + k]);
    return s;
  }
  case BI_DETERMINANT: {
    /* warp_det_inverse's expressions */
    if (t->rows == 4)
      return narrow(X, sc, inv4(X, sc, a, NULL));
    if (t->rows == 2)
      return B(X, OP_SUB, sc, B(X, OP_MUL, sc, a[0], a[3]), B(X, OP_MUL, sc, a[2], a[1]));
#define M(i, j) a[(i) * 3 + (j)]
#define MUL(x, y) B(X, OP_MUL, sc, x, y)
#define SUB(x, y) B(X, OP_SUB, sc, x, y)
    IrExpr *c0 = SUB(MUL(M(1, 1), M(2, 2)), MUL(M(1, 2), M(2, 1)));
    IrExpr *c1 = SUB(MUL(M(1, 2), M(2, 0)), MUL(M(1, 0), M(2, 2)));
    IrExpr *c2 = SUB(MUL(M(1, 0), M(2, 1)), MUL(M(1, 1), M(2, 0)));
    IrExpr *d = B(X, OP_ADD, sc, MUL(M(0, 0), c0), MUL(M(0, 1), c1));
    return B(X, OP_ADD, sc, d, MUL(M(0, 2), c2));
#undef M
#undef MUL
#undef SUB
  }
  default: { /* the isnan family: any component (isfinite: every one) */
    IrExpr *p = NULL;
    for (int k = 0; k < n; k++) {
      IrExpr *q = CALL(X, bi, KERN_SCALAR_BOOL, 1, a[k], NULL);
      p = p ? B(X, bi == BI_ISFINITE ? OP_BITAND : OP_BITOR, KERN_SCALAR_BOOL, p, q) : q;
    }
    return p;
  }
  }
}

/* Part b (a constant: 0 the position, 1 the rotation, 2 the scale) of
 * math.py's transform_decompose(m), as extra.c's helper: the scale is the
 * lengths of the first three columns, the rotation quat_from_matrix of
 * those columns divided by their lengths (where not zero). */
static IrExpr **decompose(Xp *X, IrExpr *e) {
  const Type *m = e->args[0]->ty;
  if (e->nargs != 2 || e->args[1]->kind != E_CONST || m->kind != TY_MAT ||
      m->rows != 4 || m->cols != 4 || !isf(m->sc) || e->args[1]->ival > 2)
    refuse(X, "this wp.transform_decompose");
  need_agg(X, m);
  kern_scalar sc = m->sc;
  int part = (int)e->args[1]->ival;
  IrExpr **a = xv(X, e->args[0]), **r = comps_new(X, part == 1 ? 4 : 3);
  IrExpr *s[3], *R[9];
  for (int j = 0; j < 3; j++) {
    IrExpr *d = B(X, OP_ADD, sc, B(X, OP_MUL, sc, a[j], a[j]),
                  B(X, OP_MUL, sc, a[4 + j], a[4 + j]));
    d = B(X, OP_ADD, sc, d, B(X, OP_MUL, sc, a[8 + j], a[8 + j]));
    s[j] = tmp(X, CALL(X, BI_SQRT, sc, 1, d, NULL));
    IrExpr *nz = tmp(X, CMP(X, OP_NE, s[j], K(X, sc, 0.0)));
    for (int i = 0; i < 3; i++)
      R[i * 3 + j] = SEL(X, nz, B(X, OP_DIV, sc, a[i * 4 + j], s[j]), a[i * 4 + j]);
  }
  if (part == 1)
    quat_from_mat(X, sc, R, 3, r);
  for (int k = 0; k < 3 && part != 1; k++)
    r[k] = part == 0 ? a[k * 4 + 3] : s[k];
  return r;
}

/* n == v, of the integer n (a local or constant) */
static IrExpr *is_n(Xp *X, IrExpr *n, int v) {
  return tmp(X, CMP(X, OP_EQ, n, K(X, n->ty->sc, v)));
}

/* math.py's quat_from_euler(e, i, j, k), as extra.c's helper: q_k * (q_j
 * * q_i), q_n the half-angle rotation about axis n (0 x, 1 y, any other
 * z) by e[n] (Python's negative indices).  An axis computed at run time
 * picks its angle and its axis by selects, as Warp's code for math.py's
 * branches on it does (Note [runtime euler axes]). */
static IrExpr **from_euler(Xp *X, IrExpr *e) {
  const Type *v = e->args[0]->ty;
  if (e->nargs != 4 || v->kind != TY_VEC || v->quat || v->rows != 3 || !isf(v->sc))
    refuse(X, "this wp.quat_from_euler");
  for (int n = 1; n < 4; n++) {
    const Type *t = e->args[n]->ty;
    if (t->kind != TY_SCALAR || isf(t->sc) || is16(t->sc) || t->sc == KERN_SCALAR_BOOL)
      refuse(X, "this wp.quat_from_euler");
  }
  need_agg(X, v);
  kern_scalar sc = v->sc;
  IrExpr **a = xv(X, e->args[0]), *q[3][4], *z = K(X, sc, 0.0);
  for (int n = 0; n < 3; n++) {
    IrExpr *ix = e->args[n + 1], *h, *sn;
    if (ix->kind == E_CONST) {
      int64_t c = (int64_t)ix->ival;
      h = tmp(X, B(X, OP_MUL, sc, K(X, sc, 0.5), a[((c % 3) + 3) % 3]));
      sn = tmp(X, CALL(X, BI_SIN, sc, 1, h, NULL));
      int ax = c == 0 ? 0 : c == 1 ? 1 : 2;
      for (int k = 0; k < 3; k++)
        q[n][k] = k == ax ? sn : z;
    } else {
      kern_scalar is = ix->ty->sc;
      IrExpr *x = tmp(X, xs(X, ix)), *three = K(X, is, 3.0);
      IrExpr *w = B(X, OP_MOD, is, B(X, OP_ADD, is, B(X, OP_MOD, is, x, three), three), three);
      h = tmp(X, B(X, OP_MUL, sc, K(X, sc, 0.5),
                   SEL(X, is_n(X, w, 1), a[1], SEL(X, is_n(X, w, 2), a[2], a[0]))));
      sn = tmp(X, CALL(X, BI_SIN, sc, 1, h, NULL));
      IrExpr *x0 = is_n(X, x, 0), *x1 = is_n(X, x, 1);
      q[n][0] = SEL(X, x0, sn, z);
      q[n][1] = SEL(X, x1, sn, z);
      q[n][2] = SEL(X, x0, z, SEL(X, x1, z, sn));
    }
    q[n][3] = tmp(X, CALL(X, BI_COS, sc, 1, h, NULL));
  }
  IrExpr **r = comps_new(X, 4), *ji[4];
  quat_mul(X, sc, q[1], q[0], ji);
  quat_mul(X, sc, q[2], ji, r);
  return r;
}

/* The angles t1, t2, t3 of math.py's quat_to_euler from its a, b, c, d:
 * its three cases (the middle angle near 0, near pi, or neither) are
 * selects, so the gradient is that of the case taken, as Warp's autodiff
 * of the function's body gives. */
static void euler_angles(Xp *X, IrExpr *a, IrExpr *b, IrExpr *c, IrExpr *d,
                         IrExpr **t) {
  kern_scalar sc = KERN_SCALAR_FLOAT32;
#define MUL(x, y) B(X, OP_MUL, sc, x, y)
#define ADD(x, y) B(X, OP_ADD, sc, x, y)
#define SUB(x, y) B(X, OP_SUB, sc, x, y)
  IrExpr *ab = ADD(MUL(a, a), MUL(b, b));
  IrExpr *all = ADD(ADD(ADD(MUL(a, a), MUL(b, b)), MUL(c, c)), MUL(d, d));
  IrExpr *cs = SUB(B(X, OP_DIV, sc, MUL(K(X, sc, 2.0), ab), all), K(X, sc, 1.0));
  IrExpr *t2 = CALL(X, BI_ACOS, sc, 1, cs, NULL);
  IrExpr *tp = CALL(X, BI_ATAN2, sc, 2, b, a), *tm = CALL(X, BI_ATAN2, sc, 2, d, c);
  IrExpr *z = K(X, sc, 0.0), *eps = K(X, sc, 1e-6);
  IrExpr *near0 = tmp(X, CMP(X, OP_LT, CALL(X, BI_ABS, sc, 1, t2, NULL), eps));
  IrExpr *dpi = SUB(t2, K(X, sc, 3.14159265358979323846));
  IrExpr *nearpi = tmp(X, CMP(X, OP_LT, CALL(X, BI_ABS, sc, 1, dpi, NULL), eps));
  /* near 0: t1 = 0, t3 = 2 tp - 0; near pi: t1 = 0, t3 = 2 tm + 0 */
  t[0] = SEL(X, near0, z, SEL(X, nearpi, z, SUB(tp, tm)));
  t[1] = t2;
  t[2] = SEL(X, near0, SUB(MUL(K(X, sc, 2.0), tp), z),
             SEL(X, nearpi, ADD(MUL(K(X, sc, 2.0), tm), z), ADD(tp, tm)));
#undef MUL
#undef ADD
#undef SUB
}

/* math.py's quat_to_euler(q, i, j, k) with constant axes, as extra.c's
 * helper: with the axes known, its integer logic (the Levi-Civita sign
 * e, which components a, b, c, d are, the slots of the result) is done
 * here, and the float operations are written out (euler_angles). */
static IrExpr **to_euler_const(Xp *X, IrExpr *e, IrExpr **q) {
  kern_scalar sc = KERN_SCALAR_FLOAT32;
  IrExpr *qs[4] = {q[3], q[0], q[1], q[2]}; /* scalar first */
  int64_t i = (int64_t)e->args[1]->ival + 1, j = (int64_t)e->args[2]->ival + 1;
  int64_t k = (int64_t)e->args[3]->ival + 1;
  bool proper = i == k;
  if (proper)
    k = 6 - i - j;
  double lc = (double)((i - j) * (j - k) * (k - i)) / 2.0;
  int ii = i >= 1 && i <= 3 ? (int)i : 1, jj = j >= 1 && j <= 3 ? (int)j : 1;
  int kk = k >= 1 && k <= 3 ? (int)k : 1;
  IrExpr *es = K(X, sc, lc);
#define MUL(x, y) B(X, OP_MUL, sc, x, y)
#define ADD(x, y) B(X, OP_ADD, sc, x, y)
#define SUB(x, y) B(X, OP_SUB, sc, x, y)
  IrExpr *a = qs[0], *b = qs[ii], *c = qs[jj], *d = MUL(qs[kk], es);
  if (!proper) {
    a = SUB(a, qs[jj]);
    b = ADD(b, MUL(qs[kk], es));
    c = ADD(c, qs[0]);
    d = SUB(d, qs[ii]);
  }
  IrExpr *t[3];
  euler_angles(X, a, b, c, d, t);
  if (!proper) {
    t[1] = SUB(t[1], K(X, sc, 1.57079632679489661923));
    t[2] = MUL(t[2], es);
  }
#undef MUL
#undef ADD
#undef SUB
  IrExpr **r = comps_new(X, 3);
  r[0] = t[0]; r[1] = t[1]; r[2] = t[2];
  if (i == 2) {
    r[0] = t[1]; r[1] = t[0];
  } else if (i == 3) {
    r[0] = t[2]; r[2] = t[0];
  }
  r[j == 1 ? 0 : j == 2 ? 1 : 2] = t[1];
  r[k == 1 ? 0 : k == 2 ? 1 : 2] = t[2];
  return r;
}

/* qs[n] of math.py's chain `x = q1; if n == 2: x = q2 elif n == 3: x = q3` */
static IrExpr *pick_axis(Xp *X, IrExpr *n, IrExpr **qs) {
  return SEL(X, is_n(X, n, 2), qs[2], SEL(X, is_n(X, n, 3), qs[3], qs[1]));
}

/* Note [runtime euler axes]: math.py's quat_to_euler (and
 * quat_from_euler, from_euler) with axes computed at run time is the same
 * body with its integer logic done in the kernel: each `if` on an axis
 * is a select of the values the branches assign, as Warp's code for a
 * branch in a function is, so the gradient is that of
 * the components the axes pick (Warp's adjoint of a select passes the
 * adjoint to the value taken).  Where the axes are constants the same
 * selects are decided here (to_euler_const); both give Warp's values,
 * operation for operation. */
static IrExpr **to_euler_rt(Xp *X, IrExpr *e, IrExpr **q) {
  kern_scalar sc = KERN_SCALAR_FLOAT32, is = e->args[1]->ty->sc;
  IrExpr *qs[4] = {q[3], q[0], q[1], q[2]}; /* scalar first */
  IrExpr *ax[3];
  for (int n = 0; n < 3; n++)
    ax[n] = tmp(X, B(X, OP_ADD, is, tmp(X, xs(X, e->args[n + 1])), K(X, is, 1.0)));
  IrExpr *i = ax[0], *j = ax[1];
  IrExpr *proper = tmp(X, CMP(X, OP_EQ, i, ax[2]));
  IrExpr *k = SEL(X, proper, B(X, OP_SUB, is, B(X, OP_SUB, is, K(X, is, 6.0), i), j),
                  ax[2]);
  IrExpr *lv = B(X, OP_MUL, is, B(X, OP_MUL, is, B(X, OP_SUB, is, i, j),
                                  B(X, OP_SUB, is, j, k)),
                 B(X, OP_SUB, is, k, i));
  IrExpr *es = B(X, OP_DIV, sc, tmp(X, ir_cast(X->C, sty(sc), lv)), K(X, sc, 2.0));
  IrExpr *a = qs[0], *b = pick_axis(X, i, qs), *c = pick_axis(X, j, qs);
  IrExpr *d = B(X, OP_MUL, sc, pick_axis(X, k, qs), es);
  /* not proper: a -= qj, b += qk e, c += q0, d -= qi */
  IrExpr *a2 = SEL(X, proper, a, B(X, OP_SUB, sc, a, c));
  IrExpr *b2 = SEL(X, proper, b, B(X, OP_ADD, sc, b, d));
  IrExpr *c2 = SEL(X, proper, c, B(X, OP_ADD, sc, c, qs[0]));
  IrExpr *d2 = SEL(X, proper, d, B(X, OP_SUB, sc, d, b));
  IrExpr *t[3];
  euler_angles(X, a2, b2, c2, d2, t);
  t[1] = SEL(X, proper, t[1], B(X, OP_SUB, sc, t[1], K(X, sc, 1.57079632679489661923)));
  t[2] = SEL(X, proper, t[2], B(X, OP_MUL, sc, t[2], es));
  /* the slots: by i, then j's takes t2 and k's t3 */
  IrExpr **r = comps_new(X, 3);
  IrExpr *i2 = is_n(X, i, 2), *i3 = is_n(X, i, 3);
  r[0] = SEL(X, i2, t[1], SEL(X, i3, t[2], t[0]));
  r[1] = SEL(X, i2, t[0], t[1]);
  r[2] = SEL(X, i3, t[0], t[2]);
  for (int n = 1; n < 3; n++) {
    IrExpr *m = n == 1 ? j : k, *v = t[n];
    IrExpr *m1 = is_n(X, m, 1), *m2 = is_n(X, m, 2);
    r[0] = SEL(X, m1, v, r[0]);
    r[1] = SEL(X, m2, v, r[1]);
    r[2] = SEL(X, m1, r[2], SEL(X, m2, r[2], v));
  }
  return r;
}

/* math.py's quat_to_euler(q, i, j, k) (float32, as math.py's). */
static IrExpr **to_euler(Xp *X, IrExpr *e) {
  const Type *v = e->args[0]->ty;
  if (e->nargs != 4 || !v->quat || v->sc != KERN_SCALAR_FLOAT32)
    refuse(X, "this wp.quat_to_euler");
  bool konst = true;
  for (int n = 1; n < 4; n++) {
    const Type *t = e->args[n]->ty;
    if (t->kind != TY_SCALAR || !ty_eq(t, e->args[1]->ty) || isf(t->sc) ||
        is16(t->sc) || t->sc == KERN_SCALAR_BOOL)
      refuse(X, "this wp.quat_to_euler");
    konst = konst && e->args[n]->kind == E_CONST;
  }
  need_agg(X, v);
  IrExpr **q = xv(X, e->args[0]);
  return konst ? to_euler_const(X, e, q) : to_euler_rt(X, e, q);
}

/* Note [edge adjoint]: wp.closest_point_edge_edge is written out as
 * extra.c's helper computes it (Warp's intersect.h): the branches as
 * statements, so that the adjoint follows the one taken, and the 2x2
 * determinants as Kahan's difference of products, whose fused
 * multiply-adds are the internal builtin BI_FMA (one rounding on every
 * target: Note [exact fma] in emit/vulkan.c).  Warp 1.19 gives the
 * function a hand-written adjoint; differentiating these statements
 * gives the same gradient (the compensation terms of a difference of
 * products cancel: their adjoints add to zero) except in two places,
 * which an autodiff module (IrModule.half_aggs) marks with
 * BI_STOP_GRADIENT, an identity with no adjoint:
 *
 *  - edges that are parallel to within sin^2 = 1e-6 (the determinant
 *    at most 1e-6 a e, a and e the squared lengths): Warp holds the
 *    parameter s of the first edge constant there, so that 1/det does
 *    not blow float32 noise up, and passes nothing through it; so s is
 *    stop_gradient(s) in that band.  The gradient there is not the
 *    derivative (docs/language.md).
 *  - a distance of 0: Warp adds nothing (the length's derivative is
 *    undefined); the distance is then stop_gradient of the squared
 *    distance (0, or NaN for NaN points), not its sqrt.
 *
 * The tangent of stop_gradient is x's own: forward mode, which Warp
 * does not have, gives the derivative (what finite differences check). */

static IrExpr *fma3(Xp *X, IrExpr *a, IrExpr *b, IrExpr *c) {
  IrExpr *args[3] = {a, b, c};
  return tmp(X, ir_call(X->C, BI_FMA, sty(KERN_SCALAR_FLOAT32), 3, args));
}

/* a b - c d as Kahan's difference of products (extra.c's helper) */
static IrExpr *diff_product(Xp *X, IrExpr *a, IrExpr *b, IrExpr *c, IrExpr *d) {
  IrExpr *cd = B(X, OP_MUL, KERN_SCALAR_FLOAT32, c, d);
  return B(X, OP_ADD, KERN_SCALAR_FLOAT32, fma3(X, a, b, NEG(X, cd)),
           fma3(X, NEG(X, c), d, cd));
}

/* x with no adjoint in an autodiff module (Note [edge adjoint]) */
static IrExpr *nograd(Xp *X, IrExpr *x) {
  if (!X->half_aggs)
    return x;
  return tmp(X, ir_call(X->C, BI_STOP_GRADIENT, x->ty, 1, &x));
}

/* clamp(x, 0, 1) in float32; an autodiff module keeps the call, for
 * Warp's rule at the bounds (ir_adjoint_prepare's) */
static IrExpr *clamp01(Xp *X, IrExpr *x) {
  kern_scalar f = KERN_SCALAR_FLOAT32;
  IrExpr *a[3] = {x, K(X, f, 0.0), K(X, f, 1.0)};
  IrExpr *c = ir_call(X->C, BI_CLAMP, sty(f), 3, a);
  if (!X->half_aggs)
    return tmp(X, xs(X, c));
  c->ival = IR_KEEP_CALL;
  return tmp(X, c);
}

/* An if on p with an empty body whose else branch is being written:
 * NaN takes the else branch, as in the helper's `if (p) ... else`. */
static IrStmt *else_open(Xp *X, IrExpr *p, Sub *sb) {
  IrStmt *s = if_open(X, tmp(X, p), sb);
  s->body = sub_close(X, sb);
  sub_open(X, sb);
  return s;
}

static void else_close(Xp *X, IrStmt *s, Sub *sb) {
  s->orelse = sub_close(X, sb);
  put(X, s);
}

/* Both edges proper (Note [edge adjoint]): s and t into sv and tv. */
static void edge_general(Xp *X, IrExpr **d1, IrExpr **d2, IrExpr **r,
                         IrExpr *a, IrExpr *e, IrExpr *f, IrVar *sv, IrVar *tv) {
  kern_scalar fl = KERN_SCALAR_FLOAT32;
  IrExpr *c = vdot(X, fl, d1, r, 3), *b = vdot(X, fl, d1, d2, 3);
  IrExpr *den = diff_product(X, a, e, b, b);
  IrVar *s0 = ir_var(X->C, X->f, "ee_s0", sty(fl));
  assign(X, s0, K(X, fl, 0.0));
  Sub sb;
  IrStmt *pos = if_open(X, tmp(X, CMP(X, OP_GT, den, K(X, fl, 0.0))), &sb);
  assign(X, s0, clamp01(X, B(X, OP_DIV, fl, diff_product(X, b, f, c, e), den)));
  pos->body = sub_close(X, &sb);
  put(X, pos);
  IrExpr *s0e = ir_ref(X->C, s0);
  if (X->half_aggs) {
    IrExpr *band = B(X, OP_MUL, fl, B(X, OP_MUL, fl, K(X, fl, 1e-6), a), e);
    IrStmt *stable = else_open(X, CMP(X, OP_GT, den, band), &sb);
    assign(X, s0, nograd(X, s0e));
    else_close(X, stable, &sb);
  }
  IrExpr *t0 = B(X, OP_DIV, fl, B(X, OP_ADD, fl, B(X, OP_MUL, fl, b, s0e), f), e);
  Sub lo, hi, in;
  IrStmt *neg = if_open(X, tmp(X, CMP(X, OP_LT, t0, K(X, fl, 0.0))), &lo);
  assign(X, sv, clamp01(X, B(X, OP_DIV, fl, NEG(X, c), a)));
  neg->body = sub_close(X, &lo);
  sub_open(X, &lo);
  IrStmt *over = if_open(X, tmp(X, CMP(X, OP_GT, t0, K(X, fl, 1.0))), &hi);
  assign(X, sv, clamp01(X, B(X, OP_DIV, fl, B(X, OP_SUB, fl, b, c), a)));
  assign(X, tv, K(X, fl, 1.0));
  over->body = sub_close(X, &hi);
  sub_open(X, &in);
  assign(X, sv, s0e);
  assign(X, tv, t0);
  over->orelse = sub_close(X, &in);
  put(X, over);
  neg->orelse = sub_close(X, &lo);
  put(X, neg);
}

/* wp.closest_point_edge_edge(p1, q1, p2, q2, epsilon): (s, t, distance)
 * (Note [edge adjoint]). */
static IrExpr **edge_edge(Xp *X, IrExpr *e) {
  kern_scalar fl = KERN_SCALAR_FLOAT32;
  IrExpr **p[4];
  for (int i = 0; i < 4; i++) {
    need_agg(X, e->args[i]->ty);
    p[i] = comps_new(X, 3);
    IrExpr **c = xv(X, e->args[i]);
    for (int k = 0; k < 3; k++)
      p[i][k] = tmp(X, c[k]);
  }
  IrExpr *eps = tmp(X, xs(X, e->args[4]));
  IrExpr *d1[3], *d2[3], *r[3];
  for (int k = 0; k < 3; k++) {
    d1[k] = B(X, OP_SUB, fl, p[1][k], p[0][k]);
    d2[k] = B(X, OP_SUB, fl, p[3][k], p[2][k]);
    r[k] = B(X, OP_SUB, fl, p[0][k], p[2][k]);
  }
  IrExpr *a = vdot(X, fl, d1, d1, 3), *ee = vdot(X, fl, d2, d2, 3);
  IrExpr *f = vdot(X, fl, d2, r, 3);
  IrVar *sv = ir_var(X->C, X->f, "ee_s", sty(fl)), *tv = ir_var(X->C, X->f, "ee_t", sty(fl));
  assign(X, sv, K(X, fl, 0.0));
  assign(X, tv, K(X, fl, 0.0));
  Sub one, two;
  IrStmt *pt1 = if_open(X, tmp(X, CMP(X, OP_LE, a, eps)), &one);
  IrStmt *pt12 = else_open(X, CMP(X, OP_LE, ee, eps), &two);
  assign(X, tv, clamp01(X, B(X, OP_DIV, fl, f, ee)));
  else_close(X, pt12, &two);
  pt1->body = sub_close(X, &one);
  sub_open(X, &one);
  IrStmt *pt2 = if_open(X, tmp(X, CMP(X, OP_LE, ee, eps)), &two);
  assign(X, sv, clamp01(X, B(X, OP_DIV, fl, NEG(X, vdot(X, fl, d1, r, 3)), a)));
  pt2->body = sub_close(X, &two);
  sub_open(X, &two);
  edge_general(X, d1, d2, r, a, ee, f, sv, tv);
  pt2->orelse = sub_close(X, &two);
  put(X, pt2);
  pt1->orelse = sub_close(X, &one);
  put(X, pt1);
  IrExpr *w[3], *se = ir_ref(X->C, sv), *te = ir_ref(X->C, tv);
  for (int k = 0; k < 3; k++)
    w[k] = B(X, OP_SUB, fl, B(X, OP_ADD, fl, p[2][k], B(X, OP_MUL, fl, te, d2[k])),
             B(X, OP_ADD, fl, p[0][k], B(X, OP_MUL, fl, se, d1[k])));
  IrExpr *sq = vdot(X, fl, w, w, 3);
  IrVar *dv = ir_var(X->C, X->f, "ee_d", sty(fl));
  Sub ds;
  IrStmt *nz = if_open(X, tmp(X, CMP(X, OP_GT, sq, K(X, fl, 0.0))), &ds);
  assign(X, dv, CALL(X, BI_SQRT, fl, 1, sq, NULL));
  nz->body = sub_close(X, &ds);
  sub_open(X, &ds);
  assign(X, dv, nograd(X, sq));
  nz->orelse = sub_close(X, &ds);
  put(X, nz);
  IrExpr **res = comps_new(X, 3);
  res[0] = se;
  res[1] = te;
  res[2] = ir_ref(X->C, dv);
  return res;
}

/* Aggregate results of builtins, as vector_body's helpers compute them. */
static IrExpr **vcall(Xp *X, IrExpr *e) {
  const Type *t = e->ty;
  need_agg(X, t);
  kern_scalar sc = t->sc;
  int n = ncomp(t), bi = e->bi;
  if (bi == BI_QUAT_FROM_EULER)
    return from_euler(X, e);
  if (bi == BI_QUAT_TO_EULER)
    return to_euler(X, e);
  if (bi == BI_QUAT_SLERP)
    return slerp(X, e);
  if (bi == BI_CLOSEST_POINT_EDGE_EDGE)
    return edge_edge(X, e);
  if (e->nargs > 3)
    refuse(X, "this vector builtin");
  const Type *at[3] = {0};
  for (int i = 0; i < e->nargs; i++)
    at[i] = e->args[i]->ty;
  bool fl = isfx(X, sc);
  check_kinds(X, e);
  if (bi == BI_TRANSFORM_DECOMPOSE)
    return decompose(X, e);
  if (bi == BI_QUAT_TO_AXIS_ANGLE) {
    IrExpr **r = comps_new(X, 3);
    axis_angle(X, e, r);
    return r;
  }
  switch (bi) {
  case BI_ADD: case BI_SUB: case BI_CW_MUL: case BI_CW_DIV:
    if (e->nargs != 2 || !ty_eq(at[0], t) || !ty_eq(at[1], t))
      refuse(X, "this vector operator");
    break;
  case BI_NEG:
    if (e->nargs != 1 || !ty_eq(at[0], t))
      refuse(X, "this vector operator");
    break;
  case BI_ABS: case BI_SIGN: case BI_FLOOR: case BI_CEIL: case BI_TRUNC:
  case BI_FRAC: case BI_MIN: case BI_MAX: case BI_OP_MOD: case BI_OP_DIV:
  case BI_OP_FLOORDIV:
    for (int i = 0; i < e->nargs; i++)
      if (!ty_eq(at[i], t))
        refuse(X, "this componentwise builtin");
    if (e->nargs != cw_arity(bi))
      refuse(X, "this componentwise builtin");
    if (!fl && (bi == BI_FLOOR || bi == BI_CEIL || bi == BI_TRUNC || bi == BI_FRAC))
      refuse(X, arena_printf(X->C, "wp.%s of an integer", bname(X, bi)));
    break;
  case BI_DIV:
    if (e->nargs != 2 || !((ty_eq(at[0], t) && at[1]->kind == TY_SCALAR) ||
                           (at[0]->kind == TY_SCALAR && ty_eq(at[1], t) &&
                            (t->kind == TY_VEC || t->kind == TY_MAT))))
      refuse(X, "this division of a vector");
    break;
  case BI_MUL:
    if (e->nargs != 2)
      refuse(X, "this product");
    if (at[0]->kind == TY_SCALAR || at[1]->kind == TY_SCALAR) {
      if (!ty_eq(at[0]->kind == TY_SCALAR ? at[1] : at[0], t))
        refuse(X, "this product");
    } else if (at[0]->quat || at[1]->quat) {
      if (!at[0]->quat || !at[1]->quat || !ty_eq(at[0], t) || !ty_eq(at[1], t))
        refuse(X, "this product");
    } else if (at[0]->kind == TY_MAT && at[1]->kind == TY_VEC) {
      if (at[0]->cols != at[1]->rows || t->kind != TY_VEC || t->rows != at[0]->rows)
        refuse(X, "this product");
    } else if (at[0]->kind == TY_VEC && at[1]->kind == TY_MAT) {
      if (at[0]->rows != at[1]->rows || t->kind != TY_VEC || t->rows != at[1]->cols)
        refuse(X, "this product");
    } else if (at[0]->kind == TY_MAT && at[1]->kind == TY_MAT) {
      if (at[0]->cols != at[1]->rows || t->kind != TY_MAT ||
          t->rows != at[0]->rows || t->cols != at[1]->cols)
        refuse(X, "this product");
    } else {
      refuse(X, "this product");
    }
    break;
  case BI_LERP:
    if (e->nargs != 3 || !fl || !ty_eq(at[0], t) || !ty_eq(at[1], t) ||
        at[2]->kind != TY_SCALAR)
      refuse(X, "this wp.lerp");
    break;
  case BI_NORMALIZE:
    if (e->nargs != 1 || !fl || t->kind != TY_VEC || !ty_eq(at[0], t))
      refuse(X, "this wp.normalize");
    break;
  case BI_CROSS:
    if (e->nargs != 2 || t->kind != TY_VEC || t->rows != 3 || !ty_eq(at[0], t) ||
        !ty_eq(at[1], t))
      refuse(X, "this wp.cross");
    break;
  case BI_OUTER:
    if (e->nargs != 2 || t->kind != TY_MAT || at[0]->kind != TY_VEC ||
        at[1]->kind != TY_VEC || at[0]->rows != t->rows || at[1]->rows != t->cols)
      refuse(X, "this wp.outer");
    break;
  case BI_TRANSPOSE:
    if (e->nargs != 1 || at[0]->kind != TY_MAT || t->kind != TY_MAT ||
        at[0]->rows != t->cols || at[0]->cols != t->rows)
      refuse(X, "this wp.transpose");
    break;
  case BI_GET_DIAG:
    if (e->nargs != 1 || at[0]->kind != TY_MAT || t->kind != TY_VEC ||
        at[0]->rows != at[0]->cols || t->rows != at[0]->rows)
      refuse(X, "this wp.get_diag");
    break;
  case BI_DIAG:
    if (e->nargs != 1 || at[0]->kind != TY_VEC || t->kind != TY_MAT ||
        t->rows != at[0]->rows || t->cols != at[0]->rows)
      refuse(X, "this wp.diag");
    break;
  case BI_IDENTITY:
    if (e->nargs != 0 || t->kind != TY_MAT)
      refuse(X, "this wp.identity");
    break;
  case BI_QUAT_ROTATE: case BI_QUAT_ROTATE_INV:
    if (e->nargs != 2 || !at[0]->quat || at[1]->kind != TY_VEC || at[1]->rows != 3 ||
        t->kind != TY_VEC || t->rows != 3)
      refuse(X, "this quaternion rotation");
    break;
  case BI_QUAT_INVERSE:
    if (e->nargs != 1 || !at[0]->quat || !t->quat)
      refuse(X, "this wp.quat_inverse");
    break;
  case BI_QUAT_IDENTITY:
    if (e->nargs != 0 || !t->quat)
      refuse(X, "this wp.quat_identity");
    break;
  case BI_QUAT_FROM_AXIS_ANGLE:
    if (e->nargs != 2 || !fl || !t->quat || at[0]->kind != TY_VEC || at[0]->quat ||
        at[0]->rows != 3 || at[1]->kind != TY_SCALAR)
      refuse(X, "this wp.quat_from_axis_angle");
    break;
  case BI_SKEW:
    if (e->nargs != 1 || at[0]->kind != TY_VEC || at[0]->rows != 3 ||
        t->kind != TY_MAT || t->rows != 3 || t->cols != 3)
      refuse(X, "this wp.skew");
    break;
  case BI_SPATIAL_TOP: case BI_SPATIAL_BOTTOM:
    if (e->nargs != 1 || at[0]->kind != TY_VEC || at[0]->rows != 6 ||
        at[0]->quat || at[0]->xform || t->kind != TY_VEC || t->rows != 3)
      refuse(X, "this part of a spatial vector");
    break;
  case BI_SPATIAL_CROSS: case BI_SPATIAL_CROSS_DUAL:
    if (e->nargs != 2 || t->kind != TY_VEC || t->rows != 6 || !ty_eq(at[0], t) ||
        !ty_eq(at[1], t))
      refuse(X, "this spatial cross product");
    break;
  case BI_SPATIAL_ADJOINT:
    if (e->nargs != 2 || t->kind != TY_MAT || t->rows != 6 || t->cols != 6 ||
        at[0]->kind != TY_MAT || at[0]->rows != 3 || at[0]->cols != 3 ||
        !ty_eq(at[0], at[1]))
      refuse(X, "this wp.spatial_adjoint");
    break;
  case BI_QUAT_RPY:
    if (e->nargs != 3 || !fl || !t->quat)
      refuse(X, "this wp.quat_rpy");
    for (int i = 0; i < 3; i++)
      if (at[i]->kind != TY_SCALAR)
        refuse(X, "this wp.quat_rpy");
    break;
  case BI_TRANSFORM_TO_MATRIX:
    if (e->nargs != 1 || !at[0]->xform || t->kind != TY_MAT || t->rows != 4 ||
        t->cols != 4)
      refuse(X, "this wp.transform_to_matrix");
    break;
  case BI_QUAT_FROM_MATRIX: case BI_TRANSFORM_FROM_MATRIX:
    if (e->nargs != 1 || at[0]->kind != TY_MAT || at[0]->rows != at[0]->cols ||
        (at[0]->rows != 3 && at[0]->rows != 4) || !fl ||
        (bi == BI_QUAT_FROM_MATRIX ? !t->quat : !t->xform || at[0]->rows != 4))
      refuse(X, arena_printf(X->C, "this wp.%s", bname(X, bi)));
    break;
  case BI_TRANSFORM_COMPOSE:
    if (e->nargs != 3 || at[0]->kind != TY_VEC || at[0]->quat || at[0]->rows != 3 ||
        !at[1]->quat || !ty_eq(at[2], at[0]) || t->kind != TY_MAT || t->rows != 4 ||
        t->cols != 4)
      refuse(X, "this wp.transform_compose");
    break;
  case BI_QUAT_TO_RPY:
    if (e->nargs != 1 || !at[0]->quat || t->kind != TY_VEC || t->quat ||
        t->rows != 3 || sc != KERN_SCALAR_FLOAT32)
      refuse(X, "this wp.quat_to_rpy");
    break;
  case BI_QUAT_TWIST:
    if (e->nargs != 2 || at[0]->kind != TY_VEC || at[0]->quat ||
        at[0]->rows != 3 || !at[1]->quat || !t->quat || sc != KERN_SCALAR_FLOAT32)
      refuse(X, "this wp.quat_twist");
    break;
  case BI_TRANSFORM_SET_TRANSLATION_COPY: case BI_TRANSFORM_SET_ROTATION_COPY:
    if (e->nargs != 2 || !at[0]->xform || !ty_eq(at[0], t) ||
        at[1]->kind != TY_VEC ||
        at[1]->rows != (bi == BI_TRANSFORM_SET_ROTATION_COPY ? 4 : 3))
      refuse(X, "this copy of a transform");
    break;
  case BI_SMOOTH_NORMALIZE:
    if (e->nargs != 2 || !fl || t->kind != TY_VEC || t->quat || t->xform ||
        !ty_eq(at[0], t) || at[1]->kind != TY_SCALAR)
      refuse(X, "this wp.smooth_normalize");
    break;
  case BI_VELOCITY_AT_POINT:
    if (e->nargs != 2 || at[0]->kind != TY_VEC || at[0]->rows != 6 ||
        at[1]->kind != TY_VEC || at[1]->rows != 3 || t->kind != TY_VEC ||
        t->rows != 3 || at[1]->quat)
      refuse(X, "this wp.velocity_at_point");
    break;
  case BI_TRANSFORM_TWIST: case BI_TRANSFORM_WRENCH:
    if (e->nargs != 2 || !at[0]->xform || at[1]->kind != TY_VEC ||
        at[1]->rows != 6 || !ty_eq(at[1], t))
      refuse(X, "this transform of a spatial vector");
    break;
  case BI_QUAT_TO_MATRIX:
    if (e->nargs != 1 || !at[0]->quat || t->kind != TY_MAT || t->rows != 3 ||
        t->cols != 3)
      refuse(X, "this wp.quat_to_matrix");
    break;
  case BI_TRANSFORM_POINT: case BI_TRANSFORM_VECTOR:
    if (e->nargs != 2 || !((at[0]->kind == TY_MAT && at[0]->rows == 4 &&
                            at[0]->cols == 4) || at[0]->xform) ||
        at[1]->kind != TY_VEC || at[1]->rows != 3 || at[1]->quat ||
        t->kind != TY_VEC || t->rows != 3 || !fl)
      refuse(X, "this transform of a point or vector");
    break;
  case BI_TRANSFORM_IDENTITY:
    if (e->nargs != 0 || !t->xform)
      refuse(X, "this wp.transform_identity");
    break;
  case BI_TRANSFORM_GET_TRANSLATION: case BI_TRANSFORM_GET_ROTATION:
    if (e->nargs != 1 || !at[0]->xform || t->kind != TY_VEC ||
        t->rows != (bi == BI_TRANSFORM_GET_TRANSLATION ? 3 : 4))
      refuse(X, "this part of a transform");
    break;
  case BI_TRANSFORM_INVERSE: case BI_TRANSFORM_MULTIPLY:
    if (e->nargs != (bi == BI_TRANSFORM_INVERSE ? 1 : 2) || !t->xform ||
        !ty_eq(at[0], t) || (e->nargs == 2 && !ty_eq(at[1], t)))
      refuse(X, "this transform");
    break;
  case BI_INVERSE:
    if (e->nargs != 1 || !fl || t->kind != TY_MAT || !ty_eq(at[0], t) ||
        t->rows != t->cols)
      refuse(X, "this wp.inverse");
    break;
  default:
    refuse(X, arena_printf(X->C, "wp.%s of vectors", bname(X, bi)));
  }
  for (int i = 0; i < e->nargs; i++) {
    if (is_agg(at[i]))
      need_agg(X, at[i]);
    else if (at[i]->kind != TY_SCALAR)
      refuse(X, "this vector builtin");
    if (at[i]->sc != sc)
      refuse(X, "a builtin on vectors of mixed types");
  }
  IrExpr **a[3] = {0};
  for (int i = 0; i < e->nargs; i++) {
    if (is_agg(at[i])) {
      a[i] = xv(X, e->args[i]);
    } else {
      a[i] = comps_new(X, 1);
      a[i][0] = tmp(X, xs(X, e->args[i]));
    }
  }
  IrExpr **r = comps_new(X, n);
#define MUL(x, y) B(X, OP_MUL, sc, x, y)
#define SUB(x, y) B(X, OP_SUB, sc, x, y)
#define ADD(x, y) B(X, OP_ADD, sc, x, y)
  switch (bi) {
  case BI_ADD: case BI_SUB: case BI_CW_MUL:
    for (int k = 0; k < n; k++)
      r[k] = B(X, bi == BI_ADD ? OP_ADD : bi == BI_SUB ? OP_SUB : OP_MUL, sc,
               a[0][k], a[1][k]);
    return r;
  case BI_CW_DIV: case BI_DIV: {
    /* floats divide; integers take the scalar idiv helper */
    int s0 = at[0]->kind == TY_SCALAR ? 0 : 1;
    int s1 = at[1]->kind == TY_SCALAR ? 0 : 1;
    for (int k = 0; k < n; k++) {
      IrExpr *x = a[0][k * s0], *y = a[1][k * s1];
      r[k] = fl ? B(X, OP_DIV, sc, x, y) : CALL(X, BI_OP_DIV, sc, 2, x, y);
    }
    return r;
  }
  case BI_NEG: /* -x for floats, 0 - x for integers (E_UNARY's two forms) */
    for (int k = 0; k < n; k++)
      r[k] = NEG(X, a[0][k]);
    return r;
  case BI_MUL: {
    const Type *A = at[0], *Bt = at[1];
    if (A->quat && Bt->quat) {
      quat_mul(X, sc, a[0], a[1], r);
      return r;
    }
    if (A->kind == TY_SCALAR || Bt->kind == TY_SCALAR) {
      int s0 = A->kind == TY_SCALAR ? 0 : 1, s1 = Bt->kind == TY_SCALAR ? 0 : 1;
      for (int k = 0; k < n; k++)
        r[k] = MUL(a[0][k * s0], a[1][k * s1]);
      return r;
    }
    if (A->kind == TY_MAT && Bt->kind == TY_VEC) {
      for (int i = 0; i < A->rows; i++)
        r[i] = dot_sum(X, sc, a[0] + i * A->cols, 1, a[1], 1, A->cols);
      return r;
    }
    if (A->kind == TY_VEC && Bt->kind == TY_MAT) {
      for (int j = 0; j < Bt->cols; j++)
        r[j] = dot_sum(X, sc, a[0], 1, a[1] + j, Bt->cols, Bt->rows);
      return r;
    }
    for (int i = 0; i < A->rows; i++)
      for (int j = 0; j < Bt->cols; j++)
        r[i * Bt->cols + j] = dot_sum(X, sc, a[0] + i * A->cols, 1, a[1] + j,
                                      Bt->cols, A->cols);
    return r;
  }
  case BI_LERP: /* a * ((T)1 - c) + b * c */
    for (int k = 0; k < n; k++) {
      IrExpr *u = SUB(K(X, sc, 1.0), a[2][0]);
      r[k] = ADD(MUL(a[0][k], u), MUL(a[1][k], a[2][0]));
    }
    return r;
  case BI_NORMALIZE: {
    if (t->quat) {
      quat_normalize(X, sc, a[0], r);
      return r;
    }
    IrExpr *l = CALL(X, BI_SQRT, sc, 1, vdot(X, sc, a[0], a[0], n), NULL);
    IrExpr *p = tmp(X, CMP(X, OP_GT, l, K(X, sc, 0.0)));
    /* r[k] = l > 0 ? a[k] / l : 0, dividing only where the helper does */
    for (int k = 0; k < n; k++)
      r[k] = SEL(X, p, ir_binary(X->C, OP_DIV, sty(sc), a[0][k], l), K(X, sc, 0.0));
    return r;
  }
  case BI_QUAT_ROTATE: case BI_QUAT_ROTATE_INV:
    quat_rotate(X, sc, a[0], a[1], bi == BI_QUAT_ROTATE_INV, r);
    return r;
  case BI_QUAT_INVERSE:
    for (int k = 0; k < 3; k++)
      r[k] = NEG(X, a[0][k]);
    r[3] = a[0][3];
    return r;
  case BI_QUAT_IDENTITY:
    for (int k = 0; k < 4; k++)
      r[k] = K(X, sc, k == 3 ? 1.0 : 0.0);
    return r;
  case BI_QUAT_TO_MATRIX:
    /* column j: the quaternion rotating the unit vector e_j */
    for (int j = 0; j < 3; j++) {
      IrExpr *u[3], *c[3];
      for (int i = 0; i < 3; i++)
        u[i] = K(X, sc, i == j ? 1.0 : 0.0);
      quat_rotate(X, sc, a[0], u, false, c);
      for (int i = 0; i < 3; i++)
        r[i * 3 + j] = c[i];
    }
    return r;
  case BI_TRANSFORM_IDENTITY:
    for (int k = 0; k < 7; k++)
      r[k] = K(X, sc, k == 6 ? 1.0 : 0.0);
    return r;
  case BI_TRANSFORM_GET_TRANSLATION: case BI_TRANSFORM_GET_ROTATION:
    for (int k = 0; k < n; k++)
      r[k] = a[0][k + (bi == BI_TRANSFORM_GET_ROTATION ? 3 : 0)];
    return r;
  case BI_TRANSFORM_INVERSE: {
    /* xform_body: qi = quat_inverse(q); p = rotate(qi, p); (-p, qi) */
    IrExpr *qi[4], *pr[3];
    for (int k = 0; k < 3; k++)
      qi[k] = NEG(X, a[0][3 + k]);
    qi[3] = a[0][6];
    quat_rotate(X, sc, qi, a[0], false, pr);
    for (int k = 0; k < 3; k++)
      r[k] = NEG(X, pr[k]);
    for (int k = 0; k < 4; k++)
      r[3 + k] = qi[k];
    return r;
  }
  case BI_TRANSFORM_MULTIPLY: {
    /* p = rotate(aq, bp); m = aq * bq; (p + ap, m) */
    IrExpr *pr[3];
    quat_rotate(X, sc, a[0] + 3, a[1], false, pr);
    IrExpr *m[4];
    quat_mul(X, sc, a[0] + 3, a[1] + 3, m);
    for (int k = 0; k < 3; k++)
      r[k] = ADD(pr[k], a[0][k]);
    for (int k = 0; k < 4; k++)
      r[3 + k] = m[k];
    return r;
  }
  case BI_TRANSFORM_POINT: case BI_TRANSFORM_VECTOR:
    if (at[0]->xform) {
      /* w = rotate(q, v); a point adds p first: p + w */
      IrExpr *w[3];
      quat_rotate(X, sc, a[0] + 3, a[1], false, w);
      for (int k = 0; k < 3; k++)
        r[k] = bi == BI_TRANSFORM_VECTOR ? w[k] : ADD(a[0][k], w[k]);
      return r;
    }
    {
      /* Warp's mat.h overload: s = 0; s += m[i][j] * v[j]; s += m[i][3] * w */
      IrExpr *w = K(X, sc, bi == BI_TRANSFORM_POINT ? 1.0 : 0.0);
      for (int i = 0; i < 3; i++) {
        IrExpr *s0 = dot_sum(X, sc, a[0] + i * 4, 1, a[1], 1, 3);
        r[i] = ADD(s0, MUL(a[0][i * 4 + 3], w));
      }
      return r;
    }
  case BI_CROSS:
    cross3(X, sc, a[0], a[1], r);
    return r;
  case BI_QUAT_FROM_AXIS_ANGLE: { /* Warp's quat.h: h = angle * 0.5 */
    IrExpr *h = tmp(X, MUL(a[1][0], K(X, sc, 0.5)));
    IrExpr *sh = tmp(X, CALL(X, BI_SIN, sc, 1, h, NULL));
    for (int k = 0; k < 3; k++)
      r[k] = MUL(a[0][k], sh);
    r[3] = CALL(X, BI_COS, sc, 1, h, NULL);
    return r;
  }
  case BI_SKEW: { /* (0, -a2, a1; a2, 0, -a0; -a1, a0, 0) */
    static const int ix[9] = {-1, 2, 1, 2, -1, 0, 1, 0, -1};
    static const bool neg[9] = {0, 1, 0, 0, 0, 1, 1, 0, 0};
    for (int k = 0; k < 9; k++)
      r[k] = ix[k] < 0 ? K(X, sc, 0.0) : neg[k] ? NEG(X, a[0][ix[k]]) : a[0][ix[k]];
    return r;
  }
  case BI_SPATIAL_TOP: case BI_SPATIAL_BOTTOM:
    for (int k = 0; k < 3; k++)
      r[k] = a[0][k + (bi == BI_SPATIAL_BOTTOM ? 3 : 0)];
    return r;
  case BI_SPATIAL_ADJOINT: /* (R 0; S R), R = a, S = b, 3x3 blocks */
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 6; j++)
        r[i * 6 + j] = i < 3 && j >= 3 ? K(X, sc, 0.0)
                       : i >= 3 && j < 3 ? a[1][(i - 3) * 3 + j]
                       : a[0][(i % 3) * 3 + j % 3];
    return r;
  case BI_QUAT_RPY: { /* Warp's quat.h, from the half angles */
    IrExpr *c[3], *sn[3]; /* roll, pitch, yaw */
    for (int k = 0; k < 3; k++) {
      IrExpr *h = tmp(X, MUL(a[k][0], K(X, sc, 0.5)));
      c[k] = tmp(X, CALL(X, BI_COS, sc, 1, h, NULL));
      sn[k] = tmp(X, CALL(X, BI_SIN, sc, 1, h, NULL));
    }
    IrExpr *cr = c[0], *sr = sn[0], *cp = c[1], *sp = sn[1], *cy = c[2], *sy = sn[2];
    r[3] = ADD(MUL(MUL(cy, cr), cp), MUL(MUL(sy, sr), sp));
    r[0] = SUB(MUL(MUL(cy, sr), cp), MUL(MUL(sy, cr), sp));
    r[1] = ADD(MUL(MUL(cy, cr), sp), MUL(MUL(sy, sr), cp));
    r[2] = SUB(MUL(MUL(sy, cr), cp), MUL(MUL(cy, sr), sp));
    return r;
  }
  case BI_QUAT_TO_RPY: { /* math.py's, as extra.c's helper */
    IrExpr *x = a[0][0], *y = a[0][1], *z = a[0][2], *w = a[0][3];
    IrExpr *two = K(X, sc, 2.0), *one = K(X, sc, 1.0);
    r[0] = CALL(X, BI_ATAN2, sc, 2, MUL(two, ADD(MUL(w, x), MUL(y, z))),
                SUB(one, MUL(two, ADD(MUL(x, x), MUL(y, y)))));
    IrExpr *cl[3] = {MUL(two, SUB(MUL(w, y), MUL(z, x))), K(X, sc, -1.0), one};
    IrExpr *c = tmp(X, xs(X, ir_call(X->C, BI_CLAMP, sty(sc), 3, cl)));
    r[1] = CALL(X, BI_ASIN, sc, 1, c, NULL);
    r[2] = CALL(X, BI_ATAN2, sc, 2, MUL(two, ADD(MUL(w, z), MUL(x, y))),
                SUB(one, MUL(two, ADD(MUL(y, y), MUL(z, z)))));
    return r;
  }
  case BI_QUAT_FROM_MATRIX:
    quat_from_mat(X, sc, a[0], at[0]->cols, r);
    return r;
  case BI_TRANSFORM_FROM_MATRIX: /* (the last column, quat_from_matrix) */
    for (int k = 0; k < 3; k++)
      r[k] = a[0][k * 4 + 3];
    quat_from_mat(X, sc, a[0], 4, r + 3);
    return r;
  case BI_QUAT_TWIST: { /* math.py: normalize(quat(p axis, q.w)) */
    IrExpr *p = twist_proj(X, sc, a[0], a[1]), *u[4];
    for (int k = 0; k < 3; k++)
      u[k] = MUL(p, a[0][k]);
    u[3] = a[1][3];
    quat_normalize(X, sc, u, r);
    return r;
  }
  case BI_TRANSFORM_TO_MATRIX: /* (R p; 0 0 0 1), R = quat_to_matrix(q) */
  case BI_TRANSFORM_COMPOSE: { /* math.py's: (R diag(s) p; 0 0 0 1) */
    bool cmp = bi == BI_TRANSFORM_COMPOSE;
    for (int j = 0; j < 3; j++) {
      IrExpr *u[3], *col[3];
      for (int i = 0; i < 3; i++)
        u[i] = K(X, sc, i == j ? 1.0 : 0.0);
      quat_rotate(X, sc, cmp ? a[1] : a[0] + 3, u, false, col);
      for (int i = 0; i < 3; i++)
        r[i * 4 + j] = cmp ? MUL(a[2][j], col[i]) : col[i];
    }
    for (int i = 0; i < 3; i++)
      r[i * 4 + 3] = a[0][i];
    for (int j = 0; j < 4; j++)
      r[12 + j] = K(X, sc, j == 3 ? 1.0 : 0.0);
    return r;
  }
  case BI_TRANSFORM_SET_TRANSLATION_COPY: case BI_TRANSFORM_SET_ROTATION_COPY: {
    int at0 = bi == BI_TRANSFORM_SET_ROTATION_COPY ? 3 : 0;
    for (int k = 0; k < 7; k++)
      r[k] = k >= at0 && k < at0 + at[1]->rows ? a[1][k - at0] : a[0][k];
    return r;
  }
  case BI_SMOOTH_NORMALIZE: { /* v / norm_pseudo_huber(v, delta) */
    IrExpr *b = a[1][0];
    IrExpr *h = B(X, OP_MUL, sc, b, CALL(X, BI_SQRT, sc, 1,
                  ADD(K(X, sc, 1.0), B(X, OP_DIV, sc, vdot(X, sc, a[0], a[0], n),
                                       MUL(b, b))), NULL));
    h = tmp(X, h);
    for (int k = 0; k < n; k++)
      r[k] = B(X, OP_DIV, sc, a[0][k], h);
    return r;
  }
  case BI_VELOCITY_AT_POINT: { /* bottom(qd) + cross(top(qd), r) */
    IrExpr *c[3];
    cross3(X, sc, a[0], a[1], c);
    for (int k = 0; k < 3; k++)
      r[k] = ADD(a[0][3 + k], c[k]);
    return r;
  }
  case BI_TRANSFORM_TWIST: case BI_TRANSFORM_WRENCH: {
    /* twist (w, v): w' = R w, v' = R v + p x w'; wrench (tau, f):
     * f' = R f, tau' = R tau + p x f' (Warp's math.py) */
    bool tw = bi == BI_TRANSFORM_TWIST;
    IrExpr **first = a[1] + (tw ? 0 : 3), **second = a[1] + (tw ? 3 : 0);
    IrExpr *m[3], *u[3], *c[3];
    quat_rotate(X, sc, a[0] + 3, first, false, m);
    for (int k = 0; k < 3; k++)
      m[k] = tmp(X, m[k]);
    quat_rotate(X, sc, a[0] + 3, second, false, u);
    cross3(X, sc, a[0], m, c);
    for (int k = 0; k < 3; k++) {
      r[(tw ? 0 : 3) + k] = m[k];
      r[(tw ? 3 : 0) + k] = ADD(u[k], c[k]);
    }
    return r;
  }
  case BI_SPATIAL_CROSS: case BI_SPATIAL_CROSS_DUAL: {
    /* Warp's spatial.h, w the top and v the bottom half:
     * cross: (w_a x w_b, v_a x w_b + w_a x v_b);
     * dual: (w_a x w_b + v_a x v_b, w_a x v_b) */
    IrExpr **wa = a[0], **va = a[0] + 3, **wb = a[1], **vb = a[1] + 3;
    IrExpr *c1[3], *c2[3], *c3[3];
    cross3(X, sc, wa, wb, c1);
    if (bi == BI_SPATIAL_CROSS) {
      cross3(X, sc, va, wb, c2);
      cross3(X, sc, wa, vb, c3);
      for (int k = 0; k < 3; k++) {
        r[k] = c1[k];
        r[3 + k] = ADD(c2[k], c3[k]);
      }
    } else {
      cross3(X, sc, va, vb, c2);
      cross3(X, sc, wa, vb, c3);
      for (int k = 0; k < 3; k++) {
        r[k] = ADD(c1[k], c2[k]);
        r[3 + k] = c3[k];
      }
    }
    return r;
  }
  case BI_OUTER:
    for (int i = 0; i < t->rows; i++)
      for (int j = 0; j < t->cols; j++)
        r[i * t->cols + j] = MUL(a[0][i], a[1][j]);
    return r;
  case BI_TRANSPOSE:
    for (int i = 0; i < t->rows; i++)
      for (int j = 0; j < t->cols; j++)
        r[i * t->cols + j] = a[0][j * at[0]->cols + i];
    return r;
  case BI_GET_DIAG:
    for (int k = 0; k < t->rows; k++)
      r[k] = a[0][k * at[0]->cols + k];
    return r;
  case BI_INVERSE: {
    /* warp_det_inverse's 2x2 and 3x3 expressions; a singular matrix gives
     * the zero matrix (the products are computed anyway: none traps), and
     * no gradient: the reciprocal is of 1 there, so the unselected
     * products stay finite (Note [4x4 inverse]) */
    IrExpr **m = a[0];
#define M(i, j) m[(i) * t->cols + (j)]
    IrExpr *one = K(X, sc, 1.0), *z = K(X, sc, 0.0);
    IrExpr *det, *ok;
    IrExpr *c[9];
    if (t->rows == 4) {
      inv4(X, sc, m, r);
      return r;
    }
    if (t->rows == 2) {
      det = SUB(MUL(M(0, 0), M(1, 1)), MUL(M(1, 0), M(0, 1)));
      /* !(det > 0 || det < -0): zero or NaN */
      ok = ir_expr(X->C, E_OR, sty(KERN_SCALAR_BOOL)); /* GLSL has no bool | */
      ok->a = tmp(X, CMP(X, OP_GT, det, z));
      ok->b = tmp(X, CMP(X, OP_LT, det, z));
      ok = tmp(X, ok);
      IrExpr *rcp = B(X, OP_DIV, sc, one, SEL(X, ok, det, one));
      IrExpr *n01 = NEG(X, M(0, 1)), *n10 = NEG(X, M(1, 0));
      c[0] = MUL(M(1, 1), rcp);
      c[1] = MUL(n01, rcp);
      c[2] = MUL(n10, rcp);
      c[3] = MUL(M(0, 0), rcp);
    } else {
      IrExpr *c0 = SUB(MUL(M(1, 1), M(2, 2)), MUL(M(1, 2), M(2, 1)));
      IrExpr *c1 = SUB(MUL(M(1, 2), M(2, 0)), MUL(M(1, 0), M(2, 2)));
      IrExpr *c2 = SUB(MUL(M(1, 0), M(2, 1)), MUL(M(1, 1), M(2, 0)));
      det = ADD(ADD(MUL(M(0, 0), c0), MUL(M(0, 1), c1)), MUL(M(0, 2), c2));
      /* det == 0 gives zero; NaN goes on */
      ok = tmp(X, CMP(X, OP_NE, det, z));
      IrExpr *w[9];
      w[0] = c0; w[3] = c1; w[6] = c2;
      w[1] = SUB(MUL(M(0, 2), M(2, 1)), MUL(M(0, 1), M(2, 2)));
      w[4] = SUB(MUL(M(0, 0), M(2, 2)), MUL(M(0, 2), M(2, 0)));
      w[7] = SUB(MUL(M(0, 1), M(2, 0)), MUL(M(0, 0), M(2, 1)));
      w[2] = SUB(MUL(M(0, 1), M(1, 2)), MUL(M(0, 2), M(1, 1)));
      w[5] = SUB(MUL(M(0, 2), M(1, 0)), MUL(M(0, 0), M(1, 2)));
      w[8] = SUB(MUL(M(0, 0), M(1, 1)), MUL(M(0, 1), M(1, 0)));
      IrExpr *rcp = B(X, OP_DIV, sc, one, SEL(X, ok, det, one));
      for (int k = 0; k < 9; k++)
        c[k] = MUL(w[k], rcp);
    }
#undef M
    for (int k = 0; k < n; k++)
      r[k] = SEL(X, ok, c[k], z);
    return r;
  }
  case BI_DIAG: case BI_IDENTITY:
    for (int i = 0; i < t->rows; i++)
      for (int j = 0; j < t->cols; j++)
        r[i * t->cols + j] = i != j ? K(X, sc, 0.0)
                             : bi == BI_DIAG ? a[0][i] : K(X, sc, 1.0);
    return r;
  default: /* componentwise: the scalar builtin on each component */
    for (int k = 0; k < n; k++) {
      if (e->ival == IR_KEEP_CALL) { /* an autodiff module's frac */
        IrExpr *args[2] = {a[0][k], e->nargs > 1 ? a[1][k] : NULL};
        IrExpr *c = ir_call(X->C, bi, sty(sc), e->nargs, args);
        c->ival = IR_KEEP_CALL;
        r[k] = tmp(X, c);
        continue;
      }
      r[k] = CALL(X, bi, sc, e->nargs, a[0][k], e->nargs > 1 ? a[1][k] : NULL);
    }
    return r;
  }
#undef MUL
#undef SUB
#undef ADD
}

/* Warp's PCG hash step (k_pcg in common.c) on a uint32. */
static IrExpr *pcg(Xp *X, IrExpr *s) {
  kern_scalar u = KERN_SCALAR_UINT32;
  IrExpr *b = B(X, OP_ADD, u, B(X, OP_MUL, u, s, K(X, u, 747796405.0)),
                K(X, u, 2891336453.0));
  IrExpr *sh = B(X, OP_ADD, u, B(X, OP_SHR, u, b, K(X, u, 28.0)), K(X, u, 4.0));
  IrExpr *c = B(X, OP_MUL, u, B(X, OP_BITXOR, u, B(X, OP_SHR, u, b, sh), b),
                K(X, u, 277803737.0));
  return B(X, OP_BITXOR, u, B(X, OP_SHR, u, c, K(X, u, 22.0)), c);
}

/* The composite scalar builtins, as their helpers compute them. */
static IrExpr *scomposite(Xp *X, IrExpr *e) {
  int bi = e->bi;
  for (int i = 0; i < e->nargs; i++)
    if (e->args[i]->ty->kind != TY_SCALAR)
      refuse(X, arena_printf(X->C, "this wp.%s", bname(X, bi)));
  if (bi == BI_RAND_INIT) {
    if (e->nargs < 1 || e->nargs > 2)
      refuse(X, "this wp.rand_init");
    IrExpr *a[2];
    for (int i = 0; i < e->nargs; i++) {
      if (e->args[i]->ty->sc != KERN_SCALAR_INT32)
        refuse(X, "this wp.rand_init");
      a[i] = tmp(X, xs(X, e->args[i]));
    }
    const Type *u = sty(KERN_SCALAR_UINT32);
    if (e->nargs == 1)
      return pcg(X, tmp(X, ir_cast(X->C, u, a[0])));
    /* k_pcg((uint32_t)a + k_pcg((uint32_t)b)) */
    IrExpr *h = pcg(X, tmp(X, ir_cast(X->C, u, a[1])));
    return pcg(X, B(X, OP_ADD, KERN_SCALAR_UINT32, tmp(X, ir_cast(X->C, u, a[0])), h));
  }
  if (bi == BI_RANDF || bi == BI_RANDI) {
    if ((e->nargs != 1 && e->nargs != 3) || e->args[0]->kind != E_VAR ||
        e->args[0]->ty->sc != KERN_SCALAR_UINT32)
      refuse(X, arena_printf(X->C, "this wp.%s", bname(X, bi)));
    kern_scalar rs = bi == BI_RANDF ? KERN_SCALAR_FLOAT32 : KERN_SCALAR_INT32;
    IrExpr *lo = NULL, *hi = NULL;
    if (e->nargs == 3) {
      if (e->args[1]->ty->sc != rs || e->args[2]->ty->sc != rs)
        refuse(X, arena_printf(X->C, "this wp.%s", bname(X, bi)));
      /* the arguments are evaluated before the helper updates the state */
      lo = tmp(X, xs(X, e->args[1]));
      hi = tmp(X, xs(X, e->args[2]));
    }
    IrVar *st = e->args[0]->var;
    assign(X, st, pcg(X, ir_ref(X->C, st)));
    IrExpr *s = ir_ref(X->C, st);
    if (bi == BI_RANDF) {
      /* (float)(*s >> 8) * (1.0f / 16777216.0f) */
      IrExpr *h = B(X, OP_SHR, KERN_SCALAR_UINT32, s, K(X, KERN_SCALAR_UINT32, 8.0));
      IrExpr *f = tmp(X, ir_cast(X->C, sty(rs), h));
      IrExpr *r = B(X, OP_MUL, rs, f, K(X, rs, 1.0 / 16777216.0));
      if (!lo)
        return r;
      /* (hi - lo) * randf(s) + lo */
      return B(X, OP_ADD, rs, B(X, OP_MUL, rs, B(X, OP_SUB, rs, hi, lo), r), lo);
    }
    if (!lo)
      return tmp(X, ir_cast(X->C, sty(rs), s));
    /* span = (uint32_t)(hi - lo); (int32_t)(span ? *s % span : *s) + lo */
    IrExpr *span = tmp(X, ir_cast(X->C, sty(KERN_SCALAR_UINT32), B(X, OP_SUB, rs, hi, lo)));
    IrExpr *m = CALL(X, BI_OP_MOD, KERN_SCALAR_UINT32, 2, s, span);
    IrExpr *v = SEL(X, CMP(X, OP_NE, span, K(X, KERN_SCALAR_UINT32, 0.0)), m, s);
    return B(X, OP_ADD, rs, tmp(X, ir_cast(X->C, sty(rs), v)), lo);
  }
  kern_scalar sc = e->ty->sc;
  if (bi == BI_DEGREES || bi == BI_RADIANS) {
    if (!isf(sc) || e->nargs != 1 || e->args[0]->ty->sc != sc)
      refuse(X, arena_printf(X->C, "this wp.%s", bname(X, bi)));
    /* Note [degrees and radians] in emit/common.c: (T)(a * K), the product
     * in double, rounded once */
    kern_scalar d = KERN_SCALAR_FLOAT64;
    IrExpr *w = tmp(X, ir_cast(X->C, sty(d), xs(X, e->args[0])));
    IrExpr *m = B(X, OP_MUL, d, w, K(X, d, bi == BI_DEGREES ? 57.29577951308232087679
                                                            : 0.01745329251994329577));
    return tmp(X, ir_cast(X->C, sty(sc), m));
  }
  /* an integer lerp is the same sum in the integer type; clamp is min
   * and max; smoothstep divides, which only a float does here */
  bool narrow_int = !isf(sc) && !ok_comp(sc) && sc != KERN_SCALAR_FLOAT16 &&
                    sc != KERN_SCALAR_BFLOAT16;
  if ((!ok_comp(sc) && !(bi == BI_CLAMP && narrow_int)) ||
      (!isf(sc) && bi == BI_SMOOTHSTEP))
    refuse(X, arena_printf(X->C, "wp.%s of %s", bname(X, bi), ty_name(X->C, e->ty)));
  if (e->nargs != 3)
    refuse(X, arena_printf(X->C, "this wp.%s", bname(X, bi)));
  IrExpr *a[3];
  for (int i = 0; i < 3; i++) {
    if (e->args[i]->ty->sc != sc)
      refuse(X, arena_printf(X->C, "wp.%s of mixed types", bname(X, bi)));
    a[i] = tmp(X, xs(X, e->args[i]));
  }
  switch (bi) {
  case BI_CLAMP: /* min(max(b, a), c) */
    return CALL(X, BI_MIN, sc, 2, CALL(X, BI_MAX, sc, 2, a[1], a[0]), a[2]);
  case BI_LERP: /* a * ((T)1 - c) + b * c */
    return B(X, OP_ADD, sc, B(X, OP_MUL, sc, a[0], B(X, OP_SUB, sc, K(X, sc, 1.0), a[2])),
             B(X, OP_MUL, sc, a[1], a[2]));
  default: { /* t = clamp((c - a) / (b - a), 0, 1); t * t * (3 - 2 * t) */
    IrExpr *q = B(X, OP_DIV, sc, B(X, OP_SUB, sc, a[2], a[0]), B(X, OP_SUB, sc, a[1], a[0]));
    IrExpr *t = CALL(X, BI_MIN, sc, 2, CALL(X, BI_MAX, sc, 2, K(X, sc, 0.0), q),
                     K(X, sc, 1.0));
    IrExpr *u = B(X, OP_SUB, sc, K(X, sc, 3.0), B(X, OP_MUL, sc, K(X, sc, 2.0), t));
    return B(X, OP_MUL, sc, B(X, OP_MUL, sc, t, t), u);
  }
  }
}

/* After a call: the component locals of its out- and reference
 * variables read back from the whole variables it wrote. */
static void sync_from(Xp *X, IrVar *v) {
  if (!is_agg(v->ty))
    return;
  IrExpr **c = var_comps(X, v);
  for (int k = 0; k < ncomp(v->ty); k++)
    assign(X, c[k]->var, comp_of(X, ir_ref(X->C, v), k));
}

/* Before a call: a reference variable made whole from its components. */
static void sync_to(Xp *X, IrVar *v) {
  if (!is_agg(v->ty))
    return;
  assign(X, v, make_of(X, v->ty, var_comps(X, v)));
}

/* A user function's call: arguments whole, out- and reference variables
 * synchronised around it, the result in a temporary. */
static IrExpr *fcall(Xp *X, IrExpr *e) {
  IrExpr *n = arena_alloc(X->C, sizeof *n);
  *n = *e;
  operands(X, e, n);
  for (int i = 0; i < e->nrefs; i++)
    sync_to(X, e->refs[i]);
  bool sync = false;
  for (int i = 0; i < e->nouts; i++)
    sync |= is_agg(e->outs[i]->ty);
  for (int i = 0; i < e->nrefs; i++)
    sync |= is_agg(e->refs[i]->ty);
  if (!sync)
    return n;
  IrExpr *r = NULL; /* a void call: done here, nothing left to evaluate */
  if (e->ty->kind == TY_VOID) {
    IrStmt *s = ir_stmt(X->C, S_EXPR, X->pos);
    s->a = n;
    put(X, s);
  } else {
    r = tmp(X, n);
  }
  for (int i = 0; i < e->nouts; i++)
    sync_from(X, e->outs[i]);
  for (int i = 0; i < e->nrefs; i++)
    sync_from(X, e->refs[i]);
  return r;
}

/* An autodiff module's wp.svd3, svd2, qr3 or eig3 (one result of it,
 * Note [linalg adjoints] in adjoint.c): the matrix handed on whole and
 * the result in a temporary, as a user function's call. */
static IrExpr **kept_decomposition(Xp *X, IrExpr *e) {
  IrExpr *n = arena_alloc(X->C, sizeof *n);
  *n = *e;
  operands(X, e, n);
  return via_tmp(X, n);
}

/* The components of the aggregate expression e. */
static IrExpr **xv(Xp *X, IrExpr *e) {
  const Type *t = e->ty;
  need_agg(X, t);
  int n = ncomp(t);
  kern_scalar sc = t->sc;
  switch (e->kind) {
  case E_VAR:
    return var_comps(X, e->var);
  case E_MAKE: {
    IrExpr **r = comps_new(X, n);
    if (e->nargs == 0) {
      for (int k = 0; k < n; k++)
        r[k] = K(X, sc, 0.0);
      return r;
    }
    if (e->nargs == 1 && e->args[0]->ty->kind == TY_SCALAR) {
      /* the splat: every component the one value */
      if (e->args[0]->ty->sc != sc)
        refuse(X, "a constructor from another type");
      IrExpr *v = tmp(X, xs(X, e->args[0]));
      for (int k = 0; k < n; k++)
        r[k] = v;
      return r;
    }
    if (e->nargs == 1) {
      /* k_cast: a conversion of each component */
      const Type *f = e->args[0]->ty;
      need_agg(X, f);
      if (ncomp(f) != n)
        refuse(X, "this constructor");
      IrExpr **a = xv(X, e->args[0]);
      for (int k = 0; k < n; k++)
        r[k] = tmp(X, ir_cast(X->C, sty(sc), a[k]));
      return r;
    }
    if (t->kind == TY_MAT && e->nargs == t->rows && e->args[0]->ty->kind == TY_VEC) {
      /* k_rows: a matrix from its rows */
      for (int i = 0; i < t->rows; i++) {
        const Type *rt = e->args[i]->ty;
        if (rt->kind != TY_VEC || rt->rows != t->cols || rt->sc != sc)
          refuse(X, "this matrix constructor");
        IrExpr **row = xv(X, e->args[i]);
        for (int j = 0; j < t->cols; j++)
          r[i * t->cols + j] = row[j];
      }
      return r;
    }
    if (e->nargs != n)
      refuse(X, "this constructor");
    for (int k = 0; k < n; k++) {
      if (e->args[k]->ty->kind != TY_SCALAR || e->args[k]->ty->sc != sc)
        refuse(X, "a constructor from another type");
      r[k] = tmp(X, xs(X, e->args[k]));
    }
    return r;
  }
  case E_CAST: {
    const Type *f = e->a->ty;
    need_agg(X, f);
    if (ncomp(f) != n)
      refuse(X, "this conversion");
    IrExpr **a = xv(X, e->a);
    IrExpr **r = comps_new(X, n);
    for (int k = 0; k < n; k++)
      r[k] = tmp(X, ir_cast(X->C, sty(sc), a[k]));
    return r;
  }
  case E_COMP: {
    /* a matrix row */
    const Type *m = e->a->ty;
    need_agg(X, m);
    if (m->kind != TY_MAT || e->c || t->kind != TY_VEC || t->rows != m->cols)
      refuse(X, "this component");
    IrExpr **c = xv(X, e->a);
    IrExpr *i = index_of(X, e->b);
    IrExpr **r = comps_new(X, n);
    for (int k = 0; k < n; k++)
      r[k] = pick(X, c, k, m->cols, m->rows, i);
    return r;
  }
  case E_SELECT: {
    if (!ty_eq(e->b->ty, t) || !ty_eq(e->c->ty, t))
      refuse(X, "a conditional expression of mixed types");
    IrExpr *p = xs(X, e->a);
    IrVar **rv = arena_alloc(X->C, (size_t)n * sizeof *rv);
    IrExpr **r = comps_new(X, n);
    for (int k = 0; k < n; k++) {
      rv[k] = ir_var(X->C, X->f, "sel", sty(sc));
      r[k] = ir_ref(X->C, rv[k]);
    }
    branch_into(X, p, e->b, e->c, rv, n);
    return r;
  }
  case E_CALL:
    if (e->ival == IR_KEEP_CALL && e->bi >= BI_SVD3 && e->bi <= BI_EIG3)
      return kept_decomposition(X, e);
    if (e->bi == BI_RANDN || e->bi >= BI_INTERNAL_COUNT)
      refuse(X, arena_printf(X->C, "wp.%s of vectors", bname(X, e->bi)));
    if (e->ival == IR_KEEP_CALL || e->bi == BI_XCHG_GET) {
      /* an autodiff module's random vector, curlnoise or noise
       * derivative; a thread's value of a block exchange, read whole */
      IrExpr *nx = arena_alloc(X->C, sizeof *nx);
      *nx = *e;
      operands(X, e, nx);
      return via_tmp(X, nx);
    }
    return vcall(X, e);
  case E_FCALL: {
    IrExpr *r = fcall(X, e);
    if (!r)
      refuse(X, "this call");
    return via_tmp(X, r);
  }
  case E_LOAD: case E_ATOMIC: case E_FIELD: {
    IrExpr *nx = arena_alloc(X->C, sizeof *nx);
    *nx = *e;
    operands(X, e, nx);
    return via_tmp(X, nx);
  }
  default:
    refuse(X, "this vector expression");
  }
}

/* The scalar expression e, rewritten where it holds aggregates. */
static IrExpr *xs(Xp *X, IrExpr *e) {
  if (!needs(e))
    return e;
  if (is_agg(e->ty))
    refuse(X, "this expression");
  switch (e->kind) {
  case E_COMP: {
    const Type *t = e->a->ty;
    need_agg(X, t);
    IrExpr **c = xv(X, e->a);
    IrExpr *i = index_of(X, e->b);
    if (t->kind == TY_VEC) {
      if (e->c)
        refuse(X, "this component");
      return pick(X, c, 0, 1, t->rows, i);
    }
    if (!e->c)
      refuse(X, "this matrix component");
    IrExpr *j = index_of(X, e->c);
    /* the row first, then the column within it */
    IrExpr **row = comps_new(X, t->cols);
    for (int k = 0; k < t->cols; k++)
      row[k] = pick(X, c, k, t->cols, t->rows, i);
    return pick(X, row, 0, 1, t->cols, j);
  }
  case E_CALL: {
    if (composite(e->bi) && e->ival != IR_KEEP_CALL)
      return scomposite(X, e);
    if (rule(e)) {
      IrExpr *v[2] = {NULL, NULL};
      for (int i = 0; i < e->nargs; i++)
        v[i] = tmp(X, xs(X, e->args[i]));
      return lower_rule(X, e, v);
    }
    if (e->ival == IR_KEEP_CALL && (e->bi == BI_NOISE || e->bi == BI_PNOISE))
      break; /* an autodiff module's noise: its vector handed on whole */
    if (e->bi == BI_XCHG_PUT) { /* a block exchange: the value put whole */
      IrExpr *n = arena_alloc(X->C, sizeof *n);
      *n = *e;
      operands(X, e, n);
      return n;
    }
    for (int i = 0; i < e->nargs; i++)
      if (is_agg(e->args[i]->ty))
        return scall_agg(X, e);
    break;
  }
  case E_FCALL:
    return fcall(X, e);
  case E_SELECT: {
    if (!needs(e->b) && !needs(e->c))
      break;
    IrExpr *p = xs(X, e->a);
    IrVar *r = ir_var(X->C, X->f, "sel", e->ty);
    branch_into(X, p, e->b, e->c, &r, 1);
    return ir_ref(X->C, r);
  }
  case E_ADDR:
    refuse(X, "wp.address_of of a vector");
  case E_AND: case E_OR: {
    if (!needs(e->b))
      break;
    if (is_agg(e->a->ty) || is_agg(e->b->ty))
      refuse(X, "a vector operand of 'and' or 'or'");
    /* r = a; if (r) r = b (or: if (!r)), so b's statements run only
     * where C evaluates b */
    IrVar *r = ir_var(X->C, X->f, "cc", sty(KERN_SCALAR_BOOL));
    assign(X, r, truth_of(X, xs(X, e->a)));
    IrStmt *is = ir_stmt(X->C, S_IF, X->pos);
    IrExpr *p = ir_ref(X->C, r);
    if (e->kind == E_OR) {
      IrExpr *np = ir_expr(X->C, E_NOT, sty(KERN_SCALAR_BOOL));
      np->a = p;
      p = np;
    }
    is->a = p;
    Sub sb;
    sub_open(X, &sb);
    assign(X, r, truth_of(X, xs(X, e->b)));
    is->body = sub_close(X, &sb);
    put(X, is);
    return ir_ref(X->C, r);
  }
  default:
    break;
  }
  IrExpr *n = arena_alloc(X->C, sizeof *n);
  *n = *e;
  operands(X, e, n);
  return n;
}

/* ---------------------------------------------------------------- statements */

static void stmts(Xp *X, IrStmt *s);

/* dst = src component by component; src may name dst's own components in
 * other places (v = vec3(v[1], v[0], v[2])), so those are copied first. */
static void assign_comps(Xp *X, IrExpr **dst, IrExpr **src, int n) {
  IrExpr **s = comps_new(X, n);
  for (int k = 0; k < n; k++) {
    s[k] = src[k];
    for (int j = 0; j < n; j++)
      if (j != k && src[k]->kind == E_VAR && src[k]->var == dst[j]->var) {
        IrVar *v = ir_var(X->C, X->f, "x", src[k]->ty);
        assign(X, v, src[k]);
        s[k] = ir_ref(X->C, v);
        break;
      }
  }
  for (int k = 0; k < n; k++)
    if (!(s[k]->kind == E_VAR && s[k]->var == dst[k]->var))
      assign(X, dst[k]->var, s[k]);
}

/* The target chain of a field store (fields of loads of variables) with
 * its scalar indices rewritten into locals. */
static IrExpr *lvalue(Xp *X, IrExpr *e) {
  if (!needs(e))
    return e;
  if (is_agg(e->ty) && e->kind != E_LOAD && e->kind != E_FIELD)
    refuse(X, "stores into fields of vector type");
  IrExpr *n = arena_alloc(X->C, sizeof *n);
  *n = *e;
  switch (e->kind) {
  case E_FIELD:
    n->a = lvalue(X, e->a);
    return n;
  case E_COMP: /* a component of a vector or matrix field */
    n->a = lvalue(X, e->a);
    n->b = tmp(X, xs(X, e->b));
    n->c = e->c ? tmp(X, xs(X, e->c)) : NULL;
    return n;
  case E_LOAD:
    n->args = comps_new(X, e->nargs);
    for (int i = 0; i < e->nargs; i++) {
      if (is_agg(e->args[i]->ty))
        refuse(X, "stores into fields of vector type");
      n->args[i] = tmp(X, xs(X, e->args[i]));
    }
    return n;
  default:
    refuse(X, "stores into fields of vector type");
  }
}

/* var[a] = c, var[a][b] = c, or a matrix's row var[a] = c. */
static void setcomp(Xp *X, IrStmt *s) {
  const Type *t = s->var->ty;
  need_agg(X, t);
  IrExpr **c = var_comps(X, s->var);
  bool row = t->kind == TY_MAT && !s->b;
  if (t->kind == TY_VEC && s->b)
    refuse(X, "this component");
  int cols = t->kind == TY_MAT ? t->cols : 1;
  /* the value, then the indices (neither has effects the other sees) */
  IrExpr **v;
  if (row) {
    if (s->c->ty->kind != TY_VEC || s->c->ty->rows != cols || s->c->ty->sc != t->sc)
      refuse(X, "a component of another type");
    IrExpr **w = xv(X, s->c);
    v = comps_new(X, cols);
    for (int k = 0; k < cols; k++)
      v[k] = tmp(X, w[k]);
  } else {
    if (s->c->ty->kind != TY_SCALAR || s->c->ty->sc != t->sc)
      refuse(X, "a component of another type");
    v = comps_new(X, 1);
    v[0] = xs(X, s->c);
    if (v[0]->kind != E_CONST)
      v[0] = tmp(X, v[0]);
  }
  IrExpr *i = index_of(X, s->a);
  IrExpr *j = s->b ? index_of(X, s->b) : NULL;
  if (i->kind == E_CONST && i->ival >= (uint64_t)t->rows)
    refuse(X, "a component index out of range");
  if (j && j->kind == E_CONST && j->ival >= (uint64_t)cols)
    refuse(X, "a component index out of range");
  for (int r = 0; r < t->rows; r++) {
    if (i->kind == E_CONST && (uint64_t)r != i->ival)
      continue;
    for (int k = 0; k < cols; k++) {
      if (!row && !s->b && k)
        break;
      if (j && j->kind == E_CONST && (uint64_t)k != j->ival)
        continue;
      /* the guard: a run-time index that names this component */
      IrExpr *p = NULL;
      if (i->kind != E_CONST)
        p = CMP(X, OP_EQ, i, ir_const_int(X->C, i->ty, (uint64_t)r));
      if (j && j->kind != E_CONST) {
        IrExpr *q = CMP(X, OP_EQ, j, ir_const_int(X->C, j->ty, (uint64_t)k));
        if (p) {
          IrExpr *a = ir_expr(X->C, E_AND, sty(KERN_SCALAR_BOOL));
          a->a = p;
          a->b = q;
          p = a;
        } else {
          p = q;
        }
      }
      IrStmt *as = ir_stmt(X->C, S_ASSIGN, X->pos);
      as->var = c[r * cols + k]->var;
      as->a = row ? v[k] : v[0];
      if (!p) {
        put(X, as);
        continue;
      }
      IrStmt *is = ir_stmt(X->C, S_IF, X->pos);
      is->a = p;
      is->body = as;
      put(X, is);
    }
  }
}

static void stmt(Xp *X, IrStmt *s) {
  if (s->pos.line > 0)
    X->pos = s->pos;
  switch (s->kind) {
  case S_ASSIGN:
    if (is_agg(s->var->ty)) {
      need_agg(X, s->var->ty);
      if (!ty_eq(s->a->ty, s->var->ty))
        refuse(X, "an assignment of another type");
      IrExpr **v = xv(X, s->a);
      assign_comps(X, var_comps(X, s->var), v, ncomp(s->var->ty));
      return;
    }
    s->a = xs(X, s->a);
    put(X, s);
    return;
  case S_SETCOMP:
    setcomp(X, s);
    return;
  case S_STORE: case S_SETFIELD: case S_PRINTF: case S_ASSERT: case S_AGG: {
    IrExpr e = {0};
    e.a = s->a;
    e.b = s->b;
    e.c = s->c;
    e.args = s->args;
    e.nargs = s->nargs;
    bool any = needs(s->a) || needs(s->b) || needs(s->c);
    for (int i = 0; i < s->nargs; i++)
      any |= needs(s->args[i]);
    if (!any) {
      put(X, s);
      return;
    }
    if (s->kind == S_SETFIELD) {
      /* a scalar field: only the value is rewritten (a scalar rule in it) */
      if (is_agg(s->c->ty) || s->nargs)
        refuse(X, "stores into fields of vector type");
      s->c = tmp(X, xs(X, s->c));
      s->a = lvalue(X, s->a); /* then the target's indices, as Python */
      put(X, s);
      return;
    }
    IrExpr n = e;
    operands(X, &e, &n);
    s->a = n.a;
    s->b = n.b;
    s->c = n.c;
    s->args = n.args;
    put(X, s);
    return;
  }
  case S_EXPR:
    if (is_agg(s->a->ty)) {
      (void)xv(X, s->a);
      return;
    }
    s->a = xs(X, s->a);
    if (s->a)
      put(X, s);
    return;
  case S_IF: {
    s->a = xs(X, s->a);
    Sub b;
    sub_open(X, &b);
    stmts(X, s->body);
    s->body = sub_close(X, &b);
    sub_open(X, &b);
    stmts(X, s->orelse);
    s->orelse = sub_close(X, &b);
    put(X, s);
    return;
  }
  case S_FOR: {
    if (needs(s->b) || needs(s->c)) {
      /* range() evaluates its arguments once, in order, before the loop */
      if (is_agg(s->b->ty) || is_agg(s->c->ty))
        refuse(X, "a vector expression in a loop's bound or step");
      s->a = tmp(X, xs(X, s->a));
      s->b = tmp(X, xs(X, s->b));
      s->c = tmp(X, xs(X, s->c));
    }
    s->a = xs(X, s->a);
    Sub b;
    sub_open(X, &b);
    stmts(X, s->body);
    s->body = sub_close(X, &b);
    put(X, s);
    return;
  }
  case S_WHILE: {
    Sub b;
    if (needs(s->a)) {
      /* while (1) { the condition's statements; if (!cond) break; body } */
      sub_open(X, &b);
      IrExpr *p = xs(X, s->a);
      IrStmt *brk = ir_stmt(X->C, S_BREAK, X->pos);
      IrStmt *is = ir_stmt(X->C, S_IF, X->pos);
      IrExpr *np = ir_expr(X->C, E_NOT, sty(KERN_SCALAR_BOOL));
      np->a = p;
      is->a = np;
      is->body = brk;
      put(X, is);
      stmts(X, s->body);
      s->body = sub_close(X, &b);
      s->a = ir_const_int(X->C, sty(KERN_SCALAR_BOOL), 1);
      put(X, s);
      return;
    }
    sub_open(X, &b);
    stmts(X, s->body);
    s->body = sub_close(X, &b);
    put(X, s);
    return;
  }
  case S_RETURN:
    if (s->a)
      s->a = whole(X, s->a);
    for (int i = 0; i < s->nargs; i++)
      s->args[i] = whole(X, s->args[i]);
    put(X, s);
    return;
  default:
    put(X, s);
    return;
  }
}

static void stmts(Xp *X, IrStmt *s) {
  while (s) {
    IrStmt *next = s->next;
    stmt(X, s);
    s = next;
  }
}

static bool any_agg_type(const Type *t) {
  return is_agg(t);
}

/* One function: its aggregate parameters taken apart at entry, then its
 * body. */
static void func(Xp *X, IrFunc *f) {
  if (f->native)
    return;
  X->f = f;
  X->nmaps = 0;
  X->pos = f->pos;
  IrStmt *head = NULL;
  X->tail = &head;
  for (IrVar *p = f->params; p; p = p->next) {
    if (!any_agg_type(p->ty))
      continue;
    if (p->byref)
      refuse(X, "wp.ref parameters of vector type");
    IrExpr **c = var_comps(X, p);
    for (int k = 0; k < ncomp(p->ty); k++)
      assign(X, c[k]->var, comp_of(X, ir_ref(X->C, p), k));
  }
  for (IrVar *v = f->locals; v; v = v->next)
    if (any_agg_type(v->ty))
      need_agg(X, v->ty);
  for (int i = 0; i < f->nrets; i++)
    if (is_agg(f->rets[i]))
      need_agg(X, f->rets[i]);
  stmts(X, f->body);
  f->body = head;
}

/* Deep copies of what the pass rewrites in place (statements and the
 * fields it replaces), so a refusal leaves the module as it was. */
static IrStmt *copy_stmts(Compiler *C, IrStmt *s);

static IrExpr **copy_args(Compiler *C, IrExpr **a, int n) {
  if (!n)
    return a;
  IrExpr **r = arena_alloc(C, (size_t)n * sizeof *r);
  memcpy(r, a, (size_t)n * sizeof *r);
  return r;
}

static IrStmt *copy_stmts(Compiler *C, IrStmt *s) {
  IrStmt *head = NULL, **tail = &head;
  for (; s; s = s->next) {
    IrStmt *n = arena_alloc(C, sizeof *n);
    *n = *s;
    n->args = copy_args(C, s->args, s->nargs);
    n->body = copy_stmts(C, s->body);
    n->orelse = copy_stmts(C, s->orelse);
    n->next = NULL;
    *tail = n;
    tail = &n->next;
  }
  return head;
}

bool ir_expand(Compiler *C, IrModule *m, Pos *pos, const char **what) {
  Xp *X = arena_alloc(C, sizeof *X);
  X->C = C;
  X->half_aggs = m->half_aggs;
  *what = NULL;
  /* the functions as they were, to put back on a refusal */
  int nf = 0;
  for (IrFunc *f = m->funcs; f; f = f->next)
    nf++;
  for (IrFunc *f = m->kernels; f; f = f->next)
    nf++;
  IrFunc **fs = arena_alloc(C, (size_t)(nf ? nf : 1) * sizeof *fs);
  IrStmt **bodies = arena_alloc(C, (size_t)(nf ? nf : 1) * sizeof *bodies);
  IrVar **locals = arena_alloc(C, (size_t)(nf ? nf : 1) * sizeof *locals);
  IrVar ***tails = arena_alloc(C, (size_t)(nf ? nf : 1) * sizeof *tails);
  int *nlocals = arena_alloc(C, (size_t)(nf ? nf : 1) * sizeof *nlocals);
  int i = 0;
  for (int pass = 0; pass < 2; pass++)
    for (IrFunc *f = pass ? m->kernels : m->funcs; f; f = f->next, i++) {
      fs[i] = f;
      bodies[i] = f->body;
      locals[i] = f->locals;
      tails[i] = f->locals_tail;
      nlocals[i] = f->nlocals;
    }
  if (setjmp(X->jmp)) {
    for (int k = 0; k < nf; k++) {
      fs[k]->body = bodies[k];
      /* the locals the pass added are dropped */
      IrVar **lt = &fs[k]->locals;
      for (int j = 0; j < nlocals[k] && *lt; j++)
        lt = &(*lt)->next;
      *lt = NULL;
      fs[k]->locals = locals[k];
      fs[k]->locals_tail = tails[k];
      fs[k]->nlocals = nlocals[k];
    }
    *pos = X->why_pos;
    *what = X->why;
    return false;
  }
  for (int k = 0; k < nf; k++) {
    fs[k]->body = copy_stmts(C, fs[k]->body);
    func(X, fs[k]);
  }
  return true;
}
