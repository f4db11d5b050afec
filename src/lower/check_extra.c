/*
 * check_extra.c -- the rest of Warp's builtins (issue #10): the call forms
 * of operators (wp.bit_and(a, b) is a & b), Warp's generic constructors
 * (wp.vector, wp.matrix, wp.quaternion, wp.transformation), scalar math
 * (erf ... erfcinv, copysign, bit_count, cast, the *_approx forms), random
 * sampling (randu, poisson, sample_*), lower_bound and Perlin noise.  Part
 * of the checker (check.h).
 *
 * check_call_expr hands every wp.NAME call to check_extra_call first; a
 * NULL answer means the name is not one of these and the older builtins
 * take it.  Keeping them here keeps check_call.c's edits to one line.
 * Each call is typed by Warp's overloads for it and becomes an IR call
 * whose helper is spelled by emit/extra.c, or, for a call form of an
 * operator, exactly what the operator would have given.
 */
#include <string.h>
#include "check.h"

#define NARGS(lo, hi) check_nargs_between(X, call, name, n, lo, hi)
#define BAD() check_bad_args(X, call, name, a, n)

static bool is_float_vec(const Type *t) {
  return t->kind == TY_VEC && !t->quat && !t->xform && sc_is_float(t->sc);
}

static bool is_int_vec(const Type *t) {
  return t->kind == TY_VEC && !t->quat && !t->xform && sc_is_int(t->sc);
}

/* ---------------------------------------------------------------- operators */

static const struct {
  const char *name;
  int op;
  int bi; /* the builtin that takes integer vectors, 0 if none */
} binary_ops[] = {
    {"bit_and", OP_BITAND, BI_BIT_AND}, {"bit_or", OP_BITOR, BI_BIT_OR},
    {"bit_xor", OP_BITXOR, BI_BIT_XOR}, {"lshift", OP_SHL, BI_LSHIFT},
    {"rshift", OP_SHR, BI_RSHIFT},      {"floordiv", OP_FLOORDIV, 0},
    {"div_approx", OP_DIV, 0},          {NULL, 0, 0}};

/* wp.bit_and(a, b) ... wp.rshift(a, b), wp.floordiv(a, b): the operator.
 * Warp also takes two integer vectors of one type for the bit operations,
 * componentwise.  wp.div_approx is Warp's division through approximate
 * GPU intrinsics where it has them and exact division on the CPU; kern
 * divides exactly on every target (docs/WARP-BUILTINS.md). */
static IrExpr *binary_op_call(Ctx *X, Node *call, const char *name, int op,
                              int vbi) {
  check_no_kwargs(X, call, name);
  int n;
  IrExpr **a = check_eval_args(X, call, &n);
  NARGS(2, 2);
  if (vbi && is_int_vec(a[0]->ty) && ty_eq(a[0]->ty, a[1]->ty))
    return ir_call(X->C, vbi, a[0]->ty, 2, a);
  return check_binop(X, op, a[0], a[1], call->pos);
}

/* wp.invert(a), wp.pos(x), wp.unot(a) */
static IrExpr *unary_op_call(Ctx *X, Node *call, const char *name,
                             const char *w) {
  check_no_kwargs(X, call, name);
  int n;
  IrExpr **a = check_eval_args(X, call, &n);
  NARGS(1, 1);
  const Type *t = a[0]->ty;
  if (!strcmp(w, "invert")) {
    if (is_int_vec(t))
      return ir_call(X->C, BI_INVERT, t, 1, a);
    if (!ty_is_int(t))
      BAD();
    return ir_unary(X->C, OP_INVERT, a[0]);
  }
  if (!strcmp(w, "pos")) {
    if (!ty_is_value(t) || ty_is_bool(t))
      BAD();
    return a[0];
  }
  /* unot: Warp takes bool and the integers */
  if (t->kind != TY_SCALAR || sc_is_float(t->sc))
    BAD();
  IrExpr *e = ir_expr(X->C, E_NOT, t_bool());
  e->a = check_truth(X, a[0], call->pos);
  return e;
}

/* ---------------------------------------------------------------- constructors */

/* The dtype= keyword of a constructor, or NULL. */
static const Type *dtype_kwarg(Ctx *X, Node *call, const char *name) {
  for (Node *k = call->kwargs; k; k = k->next)
    if (!strcmp(k->name, "dtype")) {
      const Type *t = check_type_expr(X, k->a, "dtype");
      if (t->kind != TY_SCALAR || ty_is_bool(t))
        ERR(k->a->pos, "the dtype of %s() must be a scalar type, got %s", name,
            TN(t));
      return t;
    }
  return NULL;
}

/* An integer constant keyword argument (length=3, length=N with N a
 * module-level constant), or -1 when it is absent. */
static int int_kwarg(Ctx *X, Node *call, const char *key) {
  for (Node *k = call->kwargs; k; k = k->next)
    if (!strcmp(k->name, key)) {
      int v = check_type_int(X, k->a);
      if (v < 0)
        ERR(k->a->pos, "%s= must be an integer constant", key);
      return v;
    }
  return -1;
}

static void only_kwargs(Ctx *X, Node *call, const char *name,
                        const char *const *allowed) {
  for (Node *k = call->kwargs; k; k = k->next) {
    bool ok = false;
    for (int i = 0; allowed[i]; i++)
      if (!strcmp(k->name, allowed[i]))
        ok = true;
    if (!ok)
      ERR(k->pos, "%s() has no parameter '%s'", name, k->name);
  }
}

/* The positional arguments of a generic constructor, converted to its
 * component type: dtype= when given, else the type of the first argument
 * that is not a literal, else the first literal's own type (1.0 float32,
 * 1 int32), as Warp infers it.  Literals have no effects, so checking
 * them after the other arguments keeps Warp's order of evaluation. */
static IrExpr **component_args(Ctx *X, Node *call, const Type **dt, int *np) {
  int n = check_count_args(call->args);
  IrExpr **a = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(n ? n : 1));
  int i = 0;
  for (Node *an = call->args; an; an = an->next, i++)
    if (!check_is_literal(an)) {
      a[i] = check_expr(X, an);
      if (!*dt && a[i]->ty->kind == TY_SCALAR)
        *dt = a[i]->ty;
    }
  i = 0;
  for (Node *an = call->args; an; an = an->next, i++)
    if (check_is_literal(an)) {
      if (!*dt)
        *dt = check_expr(X, an)->ty;
      a[i] = check_literal_as(X, an, *dt);
    }
  check_order_effects(X, a, n, call->pos);
  *np = n;
  return a;
}

static IrExpr *make_value(Ctx *X, Node *call, const char *name,
                          const Type *t, IrExpr **a, int n) {
  IrExpr *e = ir_expr(X->C, E_MAKE, t);
  for (int i = 0; i < n; i++)
    if (!ty_eq(a[i]->ty, ty_scalar(t->sc)))
      ERR(call->pos, "component %d of %s() is %s but the %s holds %s", i + 1,
          name, TN(a[i]->ty), TN(t), TN(ty_scalar(t->sc)));
  e->args = a;
  e->nargs = n;
  return e;
}

/* A fill value given with dtype=: Warp converts a literal, and refuses
 * a variable of another type. */
static IrExpr *fill_value(Ctx *X, Node *call, const char *name,
                          const Type *dt, IrExpr *v) {
  if (!ty_is_scalar(v->ty))
    ERR(call->pos, "%s() of one argument needs a scalar or a %s, got %s",
        name, strcmp(name, "wp.matrix") ? "vector" : "matrix", TN(v->ty));
  if (!ty_eq(v->ty, dt))
    ERR(call->pos, "the value used to fill this %s is %s, but its dtype is "
                   "%s", strcmp(name, "wp.matrix") ? "vector" : "matrix",
        TN(v->ty), TN(dt));
  return v;
}

/* wp.vector(*args, length=N, dtype=T): Warp's generic vector, in Warp's
 * four forms: zero (length=, dtype float32 by default), a copy of a
 * vector (converted to dtype=), one value filled into length=
 * components, and the components themselves. */
static IrExpr *vector_call(Ctx *X, Node *call, const char *name) {
  only_kwargs(X, call, name, (const char *const[]){"length", "dtype", NULL});
  const Type *dt = dtype_kwarg(X, call, name);
  int len = int_kwarg(X, call, "length");
  if (len >= 0)
    check_vec_length(X, call, name, len);
  int nargs = check_count_args(call->args);
  if (nargs == 0) {
    if (len < 0)
      ERR(call->pos, "%s() needs components, or length= (and dtype=)", name);
    return ir_expr(X->C, E_MAKE, ty_vec(X->C, dt ? dt->sc : KERN_SCALAR_FLOAT32, len));
  }
  if (nargs == 1) {
    IrExpr *v = check_is_literal(call->args)
                    ? check_literal_as(X, call->args,
                                       dt ? dt : check_expr(X, call->args)->ty)
                    : check_expr(X, call->args);
    if (v->ty->kind == TY_VEC) {
      if (v->ty->quat || v->ty->xform)
        ERR(call->pos, "%s() of a %s is not supported (Warp copies plain "
                       "vectors only)", name, TN(v->ty));
      if (len >= 0 && len != v->ty->rows)
        ERR(call->pos, "%s() of length %d is given a vector of length %d",
            name, len, v->ty->rows);
      const Type *t = ty_vec(X->C, dt ? dt->sc : v->ty->sc, v->ty->rows);
      if (ty_eq(t, v->ty))
        return v;
      IrExpr *c = ir_expr(X->C, E_CAST, t);
      c->a = v;
      return c;
    }
    if (len < 0)
      ERR(call->pos, "%s() filled with one value needs length=", name);
    IrExpr **a = arena_alloc(X->C, sizeof *a);
    a[0] = fill_value(X, call, name, dt ? dt : v->ty, v);
    return make_value(X, call, name, ty_vec(X->C, v->ty->sc, len), a, 1);
  }
  int n;
  IrExpr **a = component_args(X, call, &dt, &n);
  if (!dt) /* no component is a scalar */
    ERR(call->pos, "%s() takes scalar components, got %s", name,
        TN(a[0]->ty));
  if (len < 0)
    len = n;
  check_vec_length(X, call, name, len);
  if (n != len)
    ERR(call->pos, "%s() of length %d takes %d components, got %d", name, len,
        len, n);
  return make_value(X, call, name, ty_vec(X->C, dt->sc, len), a, n);
}

/* wp.matrix(*args, shape=(R, C), dtype=T): zero, a copy of a matrix, one
 * value filled in, or the R*C components row by row; shape= is needed
 * except for a copy. */
static IrExpr *matrix_call(Ctx *X, Node *call, const char *name) {
  only_kwargs(X, call, name, (const char *const[]){"shape", "dtype", NULL});
  const Type *dt = dtype_kwarg(X, call, name);
  int r = -1, c = -1;
  for (Node *k = call->kwargs; k; k = k->next)
    if (!strcmp(k->name, "shape")) {
      Node *s = k->a;
      if (s->kind == N_TUPLE && check_count_args(s->args) == 2) {
        r = check_type_int(X, s->args);
        c = check_type_int(X, s->args->next);
      }
      if (r < 0 || c < 0)
        ERR(s->pos, "shape= must be a tuple of two integer constants");
      check_mat_shape(X, call, name, r, c);
    }
  int nargs = check_count_args(call->args);
  if (nargs == 0) {
    if (r < 0)
      ERR(call->pos, "%s() needs components, or shape= (and dtype=)", name);
    return ir_expr(X->C, E_MAKE,
                   ty_mat(X->C, dt ? dt->sc : KERN_SCALAR_FLOAT32, r, c));
  }
  if (nargs == 1) {
    IrExpr *v = check_is_literal(call->args)
                    ? check_literal_as(X, call->args,
                                       dt ? dt : check_expr(X, call->args)->ty)
                    : check_expr(X, call->args);
    if (v->ty->kind == TY_MAT) {
      if (r >= 0 && (r != v->ty->rows || c != v->ty->cols))
        ERR(call->pos, "%s() of shape (%d, %d) is given a matrix of shape "
                       "(%d, %d)", name, r, c, v->ty->rows, v->ty->cols);
      const Type *t = ty_mat(X->C, dt ? dt->sc : v->ty->sc, v->ty->rows,
                             v->ty->cols);
      if (ty_eq(t, v->ty))
        return v;
      IrExpr *e = ir_expr(X->C, E_CAST, t);
      e->a = v;
      return e;
    }
    if (r < 0)
      ERR(call->pos, "%s() filled with one value needs shape=", name);
    IrExpr **a = arena_alloc(X->C, sizeof *a);
    a[0] = fill_value(X, call, name, dt ? dt : v->ty, v);
    return make_value(X, call, name, ty_mat(X->C, v->ty->sc, r, c), a, 1);
  }
  if (r < 0)
    ERR(call->pos, "%s() of components needs shape=(rows, cols)", name);
  int n;
  IrExpr **a = component_args(X, call, &dt, &n);
  bool all_vec = true;
  for (int i = 0; i < n; i++)
    all_vec = all_vec && a[i]->ty->kind == TY_VEC;
  if (all_vec)
    ERR(call->pos, "%s() of vectors is not supported; use "
                   "wp.matrix_from_rows() or wp.matrix_from_cols()", name);
  if (!dt) /* no component is a scalar */
    ERR(call->pos, "%s() takes scalar components, got %s", name,
        TN(a[0]->ty));
  if (n != r * c)
    ERR(call->pos, "%s() of shape (%d, %d) takes %d components, got %d", name,
        r, c, r * c, n);
  return make_value(X, call, name, ty_mat(X->C, dt->sc, r, c), a, n);
}

/* wp.quaternion(x, y, z, w), (ijk, real), (q, dtype=T), (dtype=T); with
 * dt set, wp.quat(ijk, real) and wp.quatd(ijk, real) */
static IrExpr *quaternion_call(Ctx *X, Node *call, const char *name,
                               const Type *dt) {
  only_kwargs(X, call, name, (const char *const[]){"dtype", NULL});
  if (!dt)
    dt = dtype_kwarg(X, call, name);
  int n = check_count_args(call->args);
  if (n == 0) {
    if (!dt)
      ERR(call->pos, "%s() needs components, or dtype=", name);
    return ir_expr(X->C, E_MAKE, ty_quat(X->C, dt->sc));
  }
  if (n == 1 || n == 2) {
    IrExpr *v = check_expr(X, call->args);
    if (n == 1) {
      if (!v->ty->quat)
        ERR(call->pos, "%s() of one argument needs a quaternion", name);
      const Type *t = ty_quat(X->C, dt ? dt->sc : v->ty->sc);
      if (ty_eq(t, v->ty))
        return v;
      IrExpr *c = ir_expr(X->C, E_CAST, t);
      c->a = v;
      return c;
    }
    if (v->ty->kind != TY_VEC || v->ty->rows != 3 || v->ty->quat ||
        !sc_is_float(v->ty->sc))
      ERR(call->pos, "%s(ijk, real) needs a 3-vector of floats, got %s", name,
          TN(v->ty));
    if (dt && dt->sc != v->ty->sc)
      ERR(call->pos, "%s(ijk, real) needs a %s, got %s", name,
          TN(ty_vec(X->C, dt->sc, 3)), TN(v->ty));
    const Type *st = ty_scalar(v->ty->sc);
    Node *rn = call->args->next;
    IrExpr *w = check_is_literal(rn) ? check_literal_as(X, rn, st)
                                     : check_expr(X, rn);
    if (!ty_eq(w->ty, st))
      ERR(rn->pos, "the real part of %s() is %s but the vector holds %s",
          name, TN(w->ty), TN(st));
    IrExpr *pair[2] = {v, w};
    check_order_effects(X, pair, 2, call->pos);
    v = pair[0];
    if (v->kind != E_VAR && !X->no_hoist)
      v = check_in_temp(X, v, "ijk", call->pos);
    if (v->kind != E_VAR)
      ERR(call->pos, "%s(ijk, real) is not supported here; assign ijk to a "
                     "variable first", name);
    IrExpr **c = arena_alloc(X->C, sizeof(IrExpr *) * 4);
    for (int k = 0; k < 3; k++)
      c[k] = check_component(X, v, k);
    c[3] = pair[1];
    return make_value(X, call, name, ty_quat(X->C, v->ty->sc), c, 4);
  }
  IrExpr **a = component_args(X, call, &dt, &n);
  if (n != 4)
    ERR(call->pos, "%s() takes 4 components, got %d", name, n);
  if (!sc_is_float(dt->sc))
    ERR(call->pos, "%s() needs float components, got %s", name, TN(dt));
  return make_value(X, call, name, ty_quat(X->C, dt->sc), a, n);
}

/* wp.transformation(p, q, dtype=T) or its 7 components; p and q also by
 * name, q the identity when left out (Warp's default), and a transform
 * alone, which is copied. */
static IrExpr *transformation_call(Ctx *X, Node *call, const char *name) {
  only_kwargs(X, call, name, (const char *const[]){"dtype", "p", "q", NULL});
  const Type *dt = dtype_kwarg(X, call, name);
  int n = check_count_args(call->args);
  Node *pn = NULL, *qn = NULL;
  for (Node *k = call->kwargs; k; k = k->next) {
    if (!strcmp(k->name, "p")) pn = k->a;
    if (!strcmp(k->name, "q")) qn = k->a;
  }
  if (pn || qn) {
    if (n > 1 || (n == 1 && pn))
      ERR(call->pos, "%s() got p twice, or more arguments than p and q",
          name);
    if (n == 1) pn = call->args;
    if (!pn)
      ERR(call->pos, "%s() needs p when q is given", name);
  } else if (n == 2) {
    pn = call->args;
    qn = call->args->next;
  }
  if (n == 1 && !pn) {
    /* a transform of the same type, copied */
    IrExpr *t = check_expr(X, call->args);
    if (!t->ty->xform || (dt && dt->sc != t->ty->sc))
      ERR(call->pos, "%s() of one argument takes a transform%s%s, got %s",
          name, dt ? " of " : "", dt ? TN(dt) : "", TN(t->ty));
    return t;
  }
  if (pn) {
    IrExpr *pq[2];
    int np = 0;
    /* in the order written: p first unless q was written before it */
    bool q_first = false;
    if (qn && call->kwargs && n == 0)
      for (Node *k = call->kwargs; k; k = k->next) {
        if (!strcmp(k->name, "p")) break;
        if (!strcmp(k->name, "q")) q_first = true;
      }
    if (q_first) {
      pq[1] = check_expr(X, qn);
      pq[0] = check_expr(X, pn);
    } else {
      pq[0] = check_expr(X, pn);
      if (qn) pq[1] = check_expr(X, qn);
    }
    np = qn ? 2 : 1;
    if (q_first) {
      IrExpr *ord[2] = {pq[1], pq[0]};
      check_order_effects(X, ord, 2, call->pos);
      pq[1] = ord[0];
      pq[0] = ord[1];
    } else {
      check_order_effects(X, pq, np, call->pos);
    }
    kern_scalar sc = dt ? dt->sc : pq[0]->ty->sc;
    if (!qn) {
      IrExpr **id = arena_alloc(X->C, sizeof(IrExpr *) * 4);
      for (int k = 0; k < 4; k++)
        id[k] = ir_const_float(X->C, ty_scalar(sc), k == 3 ? 1.0 : 0.0);
      pq[1] = make_value(X, call, name, ty_quat(X->C, sc), id, 4);
    }
    const Type *v3 = ty_vec(X->C, sc, 3), *qt = ty_quat(X->C, sc);
    if (!sc_is_float(sc) || !ty_eq(pq[0]->ty, v3) || !ty_eq(pq[1]->ty, qt))
      ERR(call->pos, "%s() takes a %s and a %s, got %s and %s", name, TN(v3),
          TN(qt), TN(pq[0]->ty), TN(pq[1]->ty));
    IrExpr **c = arena_alloc(X->C, sizeof(IrExpr *) * 7);
    for (int i = 0; i < 2; i++) {
      if (pq[i]->kind != E_VAR && !X->no_hoist)
        pq[i] = check_in_temp(X, pq[i], i ? "q" : "p", call->pos);
      if (pq[i]->kind != E_VAR)
        ERR(call->pos, "%s(p, q) is not supported here; assign p and q to "
                       "variables first", name);
    }
    for (int k = 0; k < 7; k++)
      c[k] = check_component(X, pq[k < 3 ? 0 : 1], k < 3 ? k : k - 3);
    return make_value(X, call, name, ty_xform(X->C, sc), c, 7);
  }
  IrExpr **a = component_args(X, call, &dt, &n);
  if (n != 7)
    ERR(call->pos, "%s() takes p and q, or 7 components; got %d arguments",
        name, n);
  if (!sc_is_float(dt->sc))
    ERR(call->pos, "%s() needs float components, got %s", name, TN(dt));
  return make_value(X, call, name, ty_xform(X->C, dt->sc), a, n);
}

/* ---------------------------------------------------------------- scalar math */

/* wp.cast(a, dtype): a's bits as another value type of the same size */
static IrExpr *cast_call(Ctx *X, Node *call, const char *name) {
  only_kwargs(X, call, name, (const char *const[]){"dtype", NULL});
  int n = check_count_args(call->args);
  if (n < 1 || n > 2 || (n == 2) == (call->kwargs != NULL))
    ERR(call->pos, "%s() takes a value and a dtype", name);
  IrExpr *v = check_expr(X, call->args);
  const Type *t = n == 2 ? check_type_expr(X, call->args->next, "dtype")
                         : check_type_expr(X, call->kwargs->a, "dtype");
  if (!ty_is_value(v->ty) || !ty_is_value(t) || v->ty->sc == KERN_SCALAR_BOOL ||
      t->sc == KERN_SCALAR_BOOL)
    ERR(call->pos, "%s() of %s to %s is not supported yet (kern casts "
                   "scalars, vectors and matrices)", name, TN(v->ty), TN(t));
  int from = sc_bits(v->ty->sc) * v->ty->rows * v->ty->cols;
  int to = sc_bits(t->sc) * t->rows * t->cols;
  if (from != to)
    ERR(call->pos, "%s() needs types of the same size: %s is %d bits, %s is "
                   "%d", name, TN(v->ty), from, TN(t), to);
  if (ty_eq(v->ty, t))
    return v;
  return ir_call1(X->C, BI_CAST, t, v);
}

static IrExpr *math_call(Ctx *X, Node *call, int bi, const char *name,
                         IrExpr **a, int n) {
  const Type *t0 = n ? a[0]->ty : NULL;
  switch (bi) {
  case BI_ERF: case BI_ERFC: case BI_ERFINV: case BI_ERFCINV:
    NARGS(1, 1);
    if (!ty_is_float(t0))
      BAD();
    return ir_call(X->C, bi, t0, 1, a);
  case BI_COPYSIGN:
    NARGS(2, 2);
    if (!ty_is_float(t0) || !ty_eq(t0, a[1]->ty))
      BAD();
    return ir_call(X->C, bi, t0, 2, a);
  case BI_BIT_COUNT:
    NARGS(1, 1);
    if (!ty_is_int(t0))
      BAD();
    return ir_call(X->C, bi, t_i32(), 1, a);
  }
  return NULL;
}

/* ---------------------------------------------------------------- random */

/* The state of a draw: a uint32 variable, which the draw advances. */
static IrExpr *state_arg(Ctx *X, Node *a, const char *name) {
  if (a->kind != N_NAME)
    ERR(a->pos, "the state argument of %s() must be a variable holding "
                "wp.rand_init(...)", name);
  IrExpr *s = check_expr(X, a);
  if (!ty_eq(s->ty, ty_scalar(KERN_SCALAR_UINT32)) || s->kind != E_VAR)
    ERR(a->pos, "the state argument of %s() must be a uint32 variable from "
                "wp.rand_init(), got %s", name, TN(s->ty));
  s->var->nassign++;
  return s;
}

/* An argument that must have type t.  As in Warp, a literal keeps its
 * own type (1 is int32, 1.0 float32): wp.noise(1, x) has no overload. */
static IrExpr *typed_arg(Ctx *X, Node *an, const Type *t, const char *name,
                         const char *what) {
  IrExpr *v = check_expr(X, an);
  if (!ty_eq(v->ty, t))
    ERR(an->pos, "%s of %s() must be %s, got %s", what, name, TN(t),
        TN(v->ty));
  return v;
}

static IrExpr *random_call(Ctx *X, Node *call, int bi, const char *name) {
  Compiler *C = X->C;
  check_no_kwargs(X, call, name);
  int n = check_count_args(call->args);
  const Type *f32 = t_f32(), *u32 = ty_scalar(KERN_SCALAR_UINT32);
  IrExpr *a[3];
  switch (bi) {
  case BI_RANDU:
    NARGS(1, 3);
    if (n == 2)
      ERR(call->pos, "%s() takes a state, or a state and a range (low, high)",
          name);
    a[0] = state_arg(X, call->args, name);
    if (n == 3) {
      a[1] = typed_arg(X, call->args->next, u32, name, "the range");
      a[2] = typed_arg(X, call->args->next->next, u32, name, "the range");
    }
    return ir_call(C, bi, u32, n, a);
  case BI_POISSON:
    NARGS(2, 2);
    a[0] = state_arg(X, call->args, name);
    a[1] = typed_arg(X, call->args->next, f32, name, "lam");
    return ir_call(C, bi, u32, 2, a);
  case BI_SAMPLE_CDF: {
    NARGS(2, 2);
    a[0] = state_arg(X, call->args, name);
    a[1] = check_expr(X, call->args->next);
    const Type *at = a[1]->ty;
    if (at->kind != TY_ARRAY || at->ndim != 1 || !ty_eq(at->elem, f32))
      ERR(call->args->next->pos, "the cdf of %s() must be a 1-d array of "
                                 "float32, got %s", name, TN(at));
    return ir_call(C, bi, t_i32(), 2, a);
  }
  case BI_SAMPLE_TRIANGLE: case BI_SAMPLE_UNIT_RING:
  case BI_SAMPLE_UNIT_DISK: case BI_SAMPLE_UNIT_SQUARE:
    NARGS(1, 1);
    a[0] = state_arg(X, call->args, name);
    return ir_call(C, bi, ty_vec(C, KERN_SCALAR_FLOAT32, 2), 1, a);
  case BI_SAMPLE_UNIT_SPHERE_SURFACE: case BI_SAMPLE_UNIT_SPHERE:
  case BI_SAMPLE_UNIT_HEMISPHERE_SURFACE: case BI_SAMPLE_UNIT_HEMISPHERE:
  case BI_SAMPLE_UNIT_CUBE:
    NARGS(1, 1);
    a[0] = state_arg(X, call->args, name);
    return ir_call(C, bi, ty_vec(C, KERN_SCALAR_FLOAT32, 3), 1, a);
  }
  return NULL;
}

/* wp.lower_bound(arr, value) and (arr, begin, end, value) on 1-d arrays */
static IrExpr *lower_bound_call(Ctx *X, Node *call, const char *name) {
  check_no_kwargs(X, call, name);
  int n = check_count_args(call->args);
  if (n != 2 && n != 4)
    ERR(call->pos, "%s() takes (arr, value) or (arr, begin, end, value), got "
                   "%d arguments", name, n);
  IrExpr **a = arena_alloc(X->C, sizeof(IrExpr *) * 4);
  a[0] = check_expr(X, call->args);
  const Type *at = a[0]->ty;
  if (at->kind != TY_ARRAY || at->ndim != 1 || at->elem->kind != TY_SCALAR ||
      ty_is_bool(at->elem))
    ERR(call->args->pos, "the first argument of %s() must be a 1-d array of "
                         "scalars, got %s", name, TN(at));
  int i = 1;
  for (Node *an = call->args->next; an; an = an->next, i++)
    a[i] = typed_arg(X, an, i < n - 1 ? t_i32() : at->elem, name,
                     i < n - 1 ? "the range" : "the value");
  check_order_effects(X, a, n, call->pos);
  return ir_call(X->C, BI_LOWER_BOUND, t_i32(), n, a);
}

/* ---------------------------------------------------------------- noise */

/* wp.noise(seed, x), wp.pnoise(seed, x, px, ...), wp.curlnoise(seed, x,
 * octaves=1, lacunarity=2.0, gain=0.5): the seed is a value, not a
 * state Warp advances. */
static IrExpr *noise_call(Ctx *X, Node *call, int bi, const char *name) {
  Compiler *C = X->C;
  int n = check_count_args(call->args);
  if (n < 2)
    ERR(call->pos, "%s() takes a seed and a position", name);
  const Type *u32 = ty_scalar(KERN_SCALAR_UINT32), *f32 = t_f32();
  IrExpr **a = arena_alloc(C, sizeof(IrExpr *) * 6);
  a[0] = typed_arg(X, call->args, u32, name, "the seed");
  Node *xn = call->args->next;
  a[1] = check_expr(X, xn);
  const Type *xt = a[1]->ty;
  int dim = ty_eq(xt, f32) ? 1 : is_float_vec(xt) && xt->sc ==
            KERN_SCALAR_FLOAT32 ? xt->rows : 0;
  if (!dim || (bi == BI_CURLNOISE && dim == 1))
    ERR(xn->pos, "the position of %s() must be %s, got %s", name,
        bi == BI_CURLNOISE ? "a vec2, vec3 or vec4"
                           : "a float32, vec2, vec3 or vec4", TN(xt));
  if (bi == BI_NOISE) {
    check_no_kwargs(X, call, name);
    if (n != 2)
      ERR(call->pos, "%s() takes a seed and a position, got %d arguments",
          name, n);
    check_order_effects(X, a, 2, call->pos);
    return ir_call(C, bi, f32, 2, a);
  }
  if (bi == BI_PNOISE) {
    check_no_kwargs(X, call, name);
    if (n != 2 + dim)
      ERR(call->pos, "%s() of a %d-d position takes %d periods, got %d", name,
          dim, dim, n - 2);
    int i = 2;
    for (Node *an = xn->next; an; an = an->next, i++)
      a[i] = typed_arg(X, an, t_i32(), name, "a period");
    check_order_effects(X, a, n, call->pos);
    return ir_call(C, bi, f32, n, a);
  }
  /* curlnoise: octaves, lacunarity and gain, by position or keyword */
  static const char *const kw[] = {"octaves", "lacunarity", "gain"};
  Node *given[3] = {NULL, NULL, NULL};
  int i = 0;
  for (Node *an = xn->next; an; an = an->next, i++) {
    if (i >= 3)
      ERR(an->pos, "%s() takes at most 5 arguments", name);
    given[i] = an;
  }
  for (Node *k = call->kwargs; k; k = k->next) {
    int j = -1;
    for (int m = 0; m < 3; m++)
      if (!strcmp(k->name, kw[m]))
        j = m;
    if (j < 0 || given[j])
      ERR(k->pos, "%s() has no parameter '%s' or got it twice", name,
          k->name);
    given[j] = k->a;
  }
  for (int j = 0; j < 3; j++)
    a[2 + j] = given[j] ? typed_arg(X, given[j], j ? f32 : u32, name, kw[j])
               : j == 0 ? ir_const_int(C, u32, 1)
               : ir_const_float(C, f32, j == 1 ? 2.0 : 0.5);
  check_order_effects(X, a, 5, call->pos);
  return ir_call(C, bi, ty_vec(C, KERN_SCALAR_FLOAT32, dim == 2 ? 2 : 3), 5,
                 a);
}

/* ---------------------------------------------------------------- geometry */

static bool is_vec3(const Type *t) {
  return is_float_vec(t) && t->rows == 3;
}

/* The optional delta of the norms (Warp: delta: float = 1.0). */
static IrExpr *delta_arg(Ctx *X, Node *call, const char *name, int n) {
  Node *d = n == 2 ? call->args->next : NULL;
  for (Node *k = call->kwargs; k; k = k->next) {
    if (strcmp(k->name, "delta") || d)
      ERR(k->pos, "%s() has no parameter '%s' or got it twice", name,
          k->name);
    d = k->a;
  }
  if (!d)
    return ir_const_float(X->C, t_f32(), 1.0);
  return typed_arg(X, d, t_f32(), name, "delta");
}

/* Integer arguments of quat_from_euler / quat_to_euler (axes). */
static IrExpr *int_arg(Ctx *X, Node *an, const char *name) {
  return typed_arg(X, an, t_i32(), name, "an axis index");
}

static IrExpr *geom_call(Ctx *X, Node *call, int bi, const char *name) {
  Compiler *C = X->C;
  int n = check_count_args(call->args);
  IrExpr **a = arena_alloc(C, sizeof(IrExpr *) * 5);
  if (bi == BI_NORM_HUBER || bi == BI_NORM_PSEUDO_HUBER ||
      bi == BI_SMOOTH_NORMALIZE) {
    if (n < 1 || n > 2)
      ERR(call->pos, "%s() takes a vector and an optional delta", name);
    a[0] = check_expr(X, call->args);
    a[1] = delta_arg(X, call, name, n);
    check_order_effects(X, a, 2, call->pos);
    const Type *t = a[0]->ty;
    /* Warp's versions are float32 functions (delta is a float) */
    if (t->kind != TY_VEC || t->xform || t->sc != KERN_SCALAR_FLOAT32)
      ERR(call->args->pos, "%s() needs a vector of float32, got %s", name,
          TN(t));
    return ir_call(C, bi, bi == BI_SMOOTH_NORMALIZE ? t : t_f32(), 2, a);
  }
  const Type *u32 = t_f32();
  (void)u32;
  if (bi == BI_QUAT_RPY) {
    check_no_kwargs(X, call, name);
    NARGS(3, 3);
    const Type *st = NULL;
    a = component_args(X, call, &st, &n);
    if (!ty_is_float(st) || !ty_eq(a[1]->ty, st) || !ty_eq(a[2]->ty, st))
      BAD();
    return ir_call(C, bi, ty_quat(C, st->sc), 3, a);
  }
  if (bi == BI_QUAT_FROM_EULER || bi == BI_QUAT_TO_EULER) {
    check_no_kwargs(X, call, name);
    NARGS(4, 4);
    a[0] = check_expr(X, call->args);
    int i = 1;
    for (Node *an = call->args->next; an; an = an->next, i++)
      a[i] = int_arg(X, an, name);
    check_order_effects(X, a, 4, call->pos);
    const Type *want = bi == BI_QUAT_FROM_EULER ? ty_vec(C, KERN_SCALAR_FLOAT32, 3)
                                                : ty_quat(C, KERN_SCALAR_FLOAT32);
    if (!ty_eq(a[0]->ty, want))
      ERR(call->args->pos, "the first argument of %s() must be %s, got %s",
          name, TN(want), TN(a[0]->ty));
    return ir_call(C, bi, bi == BI_QUAT_FROM_EULER
                              ? ty_quat(C, KERN_SCALAR_FLOAT32)
                              : ty_vec(C, KERN_SCALAR_FLOAT32, 3), 4, a);
  }
  check_no_kwargs(X, call, name);
  a = check_eval_args(X, call, &n);
  const Type *t0 = n ? a[0]->ty : NULL;
  kern_scalar sc = t0 ? t0->sc : KERN_SCALAR_FLOAT32;
  switch (bi) {
  case BI_NORM_L1:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || t0->xform || sc != KERN_SCALAR_FLOAT32)
      BAD();
    return ir_call(C, bi, t_f32(), 1, a);
  case BI_SKEW:
    NARGS(1, 1);
    if (!is_vec3(t0))
      BAD();
    return ir_call(C, bi, ty_mat(C, sc, 3, 3), 1, a);
  case BI_DDOT:
    NARGS(2, 2);
    if (t0->kind != TY_MAT || !sc_is_float(sc) || !ty_eq(t0, a[1]->ty))
      BAD();
    return ir_call(C, bi, ty_scalar(sc), 2, a);
  case BI_QUAT_FROM_MATRIX:
    NARGS(1, 1);
    if (t0->kind != TY_MAT || !sc_is_float(sc) || t0->rows != t0->cols ||
        (t0->rows != 3 && t0->rows != 4))
      BAD();
    return ir_call(C, bi, ty_quat(C, sc), 1, a);
  case BI_QUAT_SLERP:
    NARGS(3, 3);
    if (!t0->quat || !ty_eq(t0, a[1]->ty) || !ty_eq(a[2]->ty, ty_scalar(sc)))
      BAD();
    return ir_call(C, bi, t0, 3, a);
  case BI_QUAT_TO_RPY:
    NARGS(1, 1);
    if (!ty_eq(t0, ty_quat(C, KERN_SCALAR_FLOAT32)))
      BAD();
    return ir_call(C, bi, ty_vec(C, KERN_SCALAR_FLOAT32, 3), 1, a);
  case BI_QUAT_TWIST: case BI_QUAT_TWIST_ANGLE: case BI_QUAT_TWIST_ANGLE_SIGNED:
    NARGS(2, 2);
    if (!ty_eq(t0, ty_vec(C, KERN_SCALAR_FLOAT32, 3)) ||
        !ty_eq(a[1]->ty, ty_quat(C, KERN_SCALAR_FLOAT32)))
      BAD();
    return ir_call(C, bi, bi == BI_QUAT_TWIST ? a[1]->ty : t_f32(), 2, a);
  case BI_TRANSFORM_TO_MATRIX:
    NARGS(1, 1);
    if (!t0->xform)
      BAD();
    return ir_call(C, bi, ty_mat(C, sc, 4, 4), 1, a);
  case BI_TRANSFORM_FROM_MATRIX:
    NARGS(1, 1);
    if (t0->kind != TY_MAT || t0->rows != 4 || t0->cols != 4 ||
        !sc_is_float(sc))
      BAD();
    return ir_call(C, bi, ty_xform(C, sc), 1, a);
  case BI_TRANSFORM_COMPOSE:
    NARGS(3, 3);
    if (!is_vec3(t0) || !ty_eq(a[1]->ty, ty_quat(C, sc)) ||
        !ty_eq(a[2]->ty, t0))
      BAD();
    return ir_call(C, bi, ty_mat(C, sc, 4, 4), 3, a);
  case BI_TRANSFORM_SET_TRANSLATION_COPY: case BI_TRANSFORM_SET_ROTATION_COPY:
    NARGS(2, 2);
    if (!t0->xform || !ty_eq(a[1]->ty, bi == BI_TRANSFORM_SET_TRANSLATION_COPY
                                           ? ty_vec(C, sc, 3) : ty_quat(C, sc)))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_QUAT_TO_AXIS_ANGLE: case BI_TRANSFORM_DECOMPOSE:
    ERR(call->pos, "%s() returns %d values; unpack them: %s", name,
        bi == BI_QUAT_TO_AXIS_ANGLE ? 2 : 3,
        bi == BI_QUAT_TO_AXIS_ANGLE ? "axis, angle = wp.quat_to_axis_angle(q)"
                                    : "p, q, s = wp.transform_decompose(m)");
  }
  return NULL;
}

/* a, b = wp.quat_to_axis_angle(q) and p, q, s = wp.transform_decompose(m):
 * the argument is evaluated once, into a variable, and each result is a
 * call of the builtin's helper with the result's index. */
IrExpr **check_extra_unpack(Ctx *X, Node *call, const char *w, int *nparts) {
  int bi = builtin_lookup(w);
  if (bi >= BI_SVD3 && bi <= BI_EIG3)
    return check_linalg_unpack(X, call, w, nparts);
  if (bi != BI_QUAT_TO_AXIS_ANGLE && bi != BI_TRANSFORM_DECOMPOSE)
    return NULL;
  Compiler *C = X->C;
  const char *name = arena_printf(C, "wp.%s", w);
  check_no_kwargs(X, call, name);
  int n;
  IrExpr **a = check_eval_args(X, call, &n);
  NARGS(1, 1);
  const Type *t0 = a[0]->ty;
  if (bi == BI_QUAT_TO_AXIS_ANGLE ? !t0->quat
                                  : (t0->kind != TY_MAT || t0->rows != 4 ||
                                     t0->cols != 4 || !sc_is_float(t0->sc)))
    BAD();
  IrExpr *v = a[0];
  if (v->kind != E_VAR)
    v = check_in_temp(X, v, "arg", call->pos);
  kern_scalar sc = t0->sc;
  const Type *types[3];
  if (bi == BI_QUAT_TO_AXIS_ANGLE) {
    types[0] = ty_vec(C, sc, 3);
    types[1] = ty_scalar(sc);
    *nparts = 2;
  } else {
    types[0] = ty_vec(C, sc, 3);
    types[1] = ty_quat(C, sc);
    types[2] = ty_vec(C, sc, 3);
    *nparts = 3;
  }
  IrExpr **parts = arena_alloc(C, sizeof(IrExpr *) * 3);
  for (int i = 0; i < *nparts; i++) {
    IrExpr *args[2] = {v, ir_const_int(C, t_i32(), (uint64_t)i)};
    parts[i] = ir_call(C, bi, types[i], 2, args);
  }
  return parts;
}

/* wp.transform_set_translation(t, p) / set_rotation(t, q), statements that
 * change t: the value t takes, wp.transform_set_*_copy(t, v).  NULL if w
 * is neither. */
IrExpr *check_extra_set_inplace(Ctx *X, Node *call, const char *w) {
  int bi = !strcmp(w, "transform_set_translation") ? BI_TRANSFORM_SET_TRANSLATION_COPY
           : !strcmp(w, "transform_set_rotation") ? BI_TRANSFORM_SET_ROTATION_COPY
           : -1;
  if (bi < 0)
    return NULL;
  return geom_call(X, call, bi, arena_printf(X->C, "wp.%s", w));
}

/* ---------------------------------------------------------------- spatial */

static bool is_spatial(const Type *t) {
  return is_float_vec(t) && t->rows == 6;
}

/* wp.spatial_vector(w, v) from two 3-vectors, or its 6 components (and
 * dtype=); wp.spatial_matrix(...) of 36 components, or zero. */
static IrExpr *spatial_ctor(Ctx *X, Node *call, const char *w,
                            const char *name) {
  bool mat = !strncmp(w, "spatial_matrix", 14);
  const Type *dt = dtype_kwarg(X, call, name);
  only_kwargs(X, call, name, (const char *const[]){"dtype", NULL});
  kern_scalar sc = dt ? dt->sc : w[14] == 'd' ? KERN_SCALAR_FLOAT64
                                 : w[14] == 'h' ? KERN_SCALAR_FLOAT16
                                               : KERN_SCALAR_FLOAT32;
  int n = check_count_args(call->args);
  if (!mat && n == 2) {
    IrExpr *wv[2] = {check_expr(X, call->args),
                     check_expr(X, call->args->next)};
    check_order_effects(X, wv, 2, call->pos);
    if (!dt && !w[14]) /* wp.spatial_vector(w, v): the type of w decides */
      sc = wv[0]->ty->sc;
    const Type *v3 = ty_vec(X->C, sc, 3);
    if (!ty_eq(wv[0]->ty, v3) || !ty_eq(wv[1]->ty, v3))
      ERR(call->pos, "%s() takes two %s, got %s and %s", name, TN(v3),
          TN(wv[0]->ty), TN(wv[1]->ty));
    IrExpr **c = arena_alloc(X->C, sizeof(IrExpr *) * 6);
    for (int i = 0; i < 2; i++) {
      if (wv[i]->kind != E_VAR && !X->no_hoist)
        wv[i] = check_in_temp(X, wv[i], i ? "v" : "w", call->pos);
      if (wv[i]->kind != E_VAR)
        ERR(call->pos, "%s(w, v) is not supported here; assign w and v to "
                       "variables first", name);
    }
    for (int k = 0; k < 6; k++)
      c[k] = check_component(X, wv[k / 3], k % 3);
    return make_value(X, call, name, ty_vec(X->C, sc, 6), c, 6);
  }
  const Type *t = mat ? ty_mat(X->C, sc, 6, 6) : ty_vec(X->C, sc, 6);
  const Type *st = ty_scalar(sc);
  IrExpr **a = component_args(X, call, &st, &n);
  if (n != 0 && n != 1 && n != (mat ? 36 : 6))
    ERR(call->pos, "%s() takes %d components, got %d", name, mat ? 36 : 6, n);
  return make_value(X, call, name, t, a, n);
}

static IrExpr *spatial_call(Ctx *X, Node *call, int bi, const char *name) {
  Compiler *C = X->C;
  check_no_kwargs(X, call, name);
  int n;
  IrExpr **a = check_eval_args(X, call, &n);
  const Type *t0 = n ? a[0]->ty : NULL;
  switch (bi) {
  case BI_SPATIAL_TOP: case BI_SPATIAL_BOTTOM:
    NARGS(1, 1);
    if (!is_spatial(t0))
      BAD();
    return ir_call(C, bi, ty_vec(C, t0->sc, 3), 1, a);
  case BI_SPATIAL_DOT:
    NARGS(2, 2);
    if (!is_spatial(t0) || !ty_eq(t0, a[1]->ty))
      BAD();
    return ir_call(C, BI_DOT, ty_scalar(t0->sc), 2, a);
  case BI_SPATIAL_CROSS: case BI_SPATIAL_CROSS_DUAL:
    NARGS(2, 2);
    if (!is_spatial(t0) || !ty_eq(t0, a[1]->ty))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_SPATIAL_ADJOINT:
    NARGS(2, 2);
    if (t0->kind != TY_MAT || t0->rows != 3 || t0->cols != 3 ||
        !sc_is_float(t0->sc) || !ty_eq(t0, a[1]->ty))
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, 6, 6), 2, a);
  case BI_VELOCITY_AT_POINT:
    /* math.py: float32 only */
    NARGS(2, 2);
    if (!ty_eq(t0, ty_vec(C, KERN_SCALAR_FLOAT32, 6)) ||
        !ty_eq(a[1]->ty, ty_vec(C, KERN_SCALAR_FLOAT32, 3)))
      BAD();
    return ir_call(C, bi, a[1]->ty, 2, a);
  case BI_TRANSFORM_TWIST: case BI_TRANSFORM_WRENCH:
    NARGS(2, 2);
    if (!ty_eq(t0, ty_xform(C, KERN_SCALAR_FLOAT32)) ||
        !ty_eq(a[1]->ty, ty_vec(C, KERN_SCALAR_FLOAT32, 6)))
      BAD();
    return ir_call(C, bi, a[1]->ty, 2, a);
  }
  return NULL;
}

/* ---------------------------------------------------------------- tuples */

/* wp.tuple(a, b, ...) where a tuple may stand: the value of a tuple
 * assignment or of a return, where it is the same as (a, b, ...).  Any
 * other node is returned unchanged. */
Node *check_extra_tuple(Ctx *X, Node *v) {
  if (!v || v->kind != N_CALL || v->kwargs)
    return v;
  const char *w = check_wp_attr(X, v->a);
  if (!w || strcmp(w, "tuple"))
    return v;
  Node *t = arena_alloc(X->C, sizeof *t);
  *t = *v;
  t->kind = N_TUPLE;
  t->a = NULL;
  return t;
}

/* ---------------------------------------------------------------- entry */

IrExpr *check_extra_call(Ctx *X, Node *call, const char *w) {
  const char *name = arena_printf(X->C, "wp.%s", w);
  for (int i = 0; binary_ops[i].name; i++)
    if (!strcmp(w, binary_ops[i].name))
      return binary_op_call(X, call, name, binary_ops[i].op, binary_ops[i].bi);
  if (!strcmp(w, "invert") || !strcmp(w, "pos") || !strcmp(w, "unot"))
    return unary_op_call(X, call, name, w);
  if (!strcmp(w, "float") || !strcmp(w, "int"))
    return check_construct(X, call, *w == 'f' ? t_f32() : t_i32(), name);
  if (!strcmp(w, "vector"))
    return vector_call(X, call, name);
  if (!strcmp(w, "matrix"))
    return matrix_call(X, call, name);
  if (!strcmp(w, "quaternion"))
    return quaternion_call(X, call, name, NULL);
  if ((!strcmp(w, "quat") || !strcmp(w, "quatf") || !strcmp(w, "quatd")) &&
      check_count_args(call->args) == 2 && !call->kwargs)
    return quaternion_call(X, call, name, ty_scalar(w[4] == 'd'
                                                        ? KERN_SCALAR_FLOAT64
                                                        : KERN_SCALAR_FLOAT32));
  if (!strcmp(w, "transformation"))
    return transformation_call(X, call, name);
  if (!strcmp(w, "cast"))
    return cast_call(X, call, name);
  if (!strcmp(w, "tuple") && !call->kwargs) /* a tuple value */
    return check_tuple_literal(X, check_extra_tuple(X, call));
  if (!strcmp(w, "tuple"))
    ERR(call->pos, "wp.tuple() takes no keyword arguments");
  if (!strncmp(w, "spatial_vector", 14) || !strncmp(w, "spatial_matrix", 14)) {
    if (w[14] && strcmp(w + 14, "f") && strcmp(w + 14, "d") &&
        strcmp(w + 14, "h"))
      return NULL;
    return spatial_ctor(X, call, w, name);
  }
  if (!strcmp(w, "inverse_approx")) /* Warp's CPU build: wp.inverse */
    return check_builtin_call(X, call, BI_INVERSE, name);
  if (!strcmp(w, "lower_bound"))
    return lower_bound_call(X, call, name);
  if (!strcmp(w, "breakpoint")) {
    /* a trap where a debugger stops, as Warp's (emit/extra.c) */
    check_no_kwargs(X, call, name);
    if (call->args)
      ERR(call->pos, "%s() takes no arguments", name);
    return ir_call(X->C, BI_BREAKPOINT, &ty_void, 0, NULL);
  }
  if (!strcmp(w, "block_dim")) {
    /* the threads of the block (Note [block_dim] in runtime/module.c) */
    check_no_kwargs(X, call, name);
    if (call->args)
      ERR(call->pos, "%s() takes no arguments", name);
    X->irf->uses_block = true;
    return ir_call(X->C, BI_BLOCK_DIM, t_i32(), 0, NULL);
  }
  if (!strcmp(w, "norm_l2")) { /* wp.length */
    check_no_kwargs(X, call, name);
    int n;
    IrExpr **a = check_eval_args(X, call, &n);
    NARGS(1, 1);
    if (a[0]->ty->kind != TY_VEC || a[0]->ty->xform || !sc_is_float(a[0]->ty->sc))
      BAD();
    return ir_call(X->C, BI_LENGTH, ty_scalar(a[0]->ty->sc), 1, a);
  }
  int bi = builtin_lookup(w);
  if (bi < 0)
    return NULL;
  if (bi == BI_NOISE || bi == BI_PNOISE || bi == BI_CURLNOISE)
    return noise_call(X, call, bi, name);
  if (bi >= BI_NORM_L1 && bi <= BI_TRANSFORM_SET_ROTATION_COPY)
    return geom_call(X, call, bi, name);
  if (bi >= BI_SPATIAL_TOP && bi <= BI_TRANSFORM_WRENCH)
    return spatial_call(X, call, bi, name);
  if (bi >= BI_SVD3 && bi <= BI_EIG3)
    return check_linalg_call(X, call, w);
  if (bi == BI_CLOSEST_POINT_EDGE_EDGE || bi == BI_INTERSECT_TRI_TRI) {
    /* float32 vec3 points (intersect_tri_tri: also vec3d), and epsilon */
    check_no_kwargs(X, call, name);
    int n;
    IrExpr **a = check_eval_args(X, call, &n);
    bool edge = bi == BI_CLOSEST_POINT_EDGE_EDGE;
    NARGS(edge ? 5 : 6, edge ? 5 : 6);
    const Type *v = a[0]->ty;
    if (!is_vec3(v) || (edge && v->sc != KERN_SCALAR_FLOAT32))
      BAD();
    for (int i = 1; i < 4 + !edge * 2; i++)
      if (!ty_eq(a[i]->ty, v))
        BAD();
    if (edge && !ty_eq(a[4]->ty, t_f32()))
      BAD();
    return ir_call(X->C, bi, edge ? v : t_i32(), n, a);
  }
  if (builtin_draws(bi) && bi != BI_RANDF && bi != BI_RANDI && bi != BI_RANDN)
    return random_call(X, call, bi, name);
  switch (bi) {
  case BI_ERF: case BI_ERFC: case BI_ERFINV: case BI_ERFCINV:
  case BI_COPYSIGN: case BI_BIT_COUNT: {
    check_no_kwargs(X, call, name);
    int n;
    IrExpr **a = check_eval_args(X, call, &n);
    return math_call(X, call, bi, name, a, n);
  }
  }
  return NULL;
}
