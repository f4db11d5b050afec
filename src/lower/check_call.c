/*
 * check_call.c -- calls: Warp's builtins, constructors, atomics, random
 * numbers and user functions, each checked against its signature and
 * lowered to an IR call.  Part of the checker (check.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---------------------------------------------------------------- calls */

int check_count_args(Node *n) {
  int k = 0;
  for (Node *a = n; a; a = a->next)
    k++;
  return k;
}

void check_no_kwargs(Ctx *X, Node *call, const char *name) {
  if (call->kwargs)
    ERR(call->kwargs->pos, "%s() takes no keyword arguments", name);
}


IrExpr **check_eval_args(Ctx *X, Node *call, int *n) {
  *n = check_count_args(call->args);
  IrExpr **v = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(*n ? *n : 1));
  int i = 0;
  for (Node *a = call->args; a; a = a->next)
    v[i++] = check_expr(X, a);
  check_order_effects(X, v, *n, call->pos);
  return v;
}

_Noreturn void check_bad_args(Ctx *X, Node *call, const char *name,
                        IrExpr **args, int n) {
  Buf b;
  buf_init(&b, X->C);
  for (int i = 0; i < n; i++)
    buf_printf(&b, "%s%s", i ? ", " : "", TN(args[i]->ty));
  ERR(call->pos, "no overload of %s() takes (%s)", name, b.p ? b.p : "");
}

void check_nargs_between(Ctx *X, Node *call, const char *name, int n, int lo,
                   int hi) {
  if (n < lo || n > hi) {
    if (lo == hi)
      ERR(call->pos, "%s() takes %d argument%s, got %d", name, lo,
          lo == 1 ? "" : "s", n);
    ERR(call->pos, "%s() takes %d to %d arguments, got %d", name, lo, hi, n);
  }
}

static bool all_same(IrExpr **args, int n) {
  for (int i = 1; i < n; i++)
    if (!ty_eq(args[0]->ty, args[i]->ty))
      return false;
  return true;
}

static const Type *vec_or_scalar_float(const Type *t) {
  if (ty_is_float(t) || (t->kind == TY_VEC && sc_is_float(t->sc)))
    return t;
  return NULL;
}


IrExpr *check_atomic_call(Ctx *X, Node *call, int bi, const char *name) {
  check_no_kwargs(X, call, name);
  int n = check_count_args(call->args);
  int extra = bi == BI_ATOMIC_CAS ? 2 : 1;
  if (n < 1 + extra + 1)
    ERR(call->pos, "%s() takes an array, its indices and %s", name,
        bi == BI_ATOMIC_CAS ? "the compare and new values" : "a value");
  Node *arrn = call->args;
  IrExpr *arr = check_expr(X, arrn);
  if (arr->ty->kind != TY_ARRAY)
    ERR(arrn->pos, "the first argument of %s() must be an array, got %s", name,
        TN(arr->ty));
  arr = check_array_var(X, arr, arrn->pos); /* a view, a call's result */
  int nidx = n - 1 - extra;
  if (nidx != arr->ty->ndim)
    ERR(call->pos, "%s() on a %d-d array needs %d ind%s, got %d", name,
        arr->ty->ndim, arr->ty->ndim, arr->ty->ndim == 1 ? "ex" : "ices",
        nidx);
  IrExpr *e = ir_expr(X->C, E_ATOMIC, arr->ty->elem);
  e->pos = call->pos;
  e->bi = bi;
  e->var = arr->var;
  e->nargs = nidx;
  e->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)nidx);
  Node *a = arrn->next;
  for (int i = 0; i < nidx; i++, a = a->next)
    e->args[i] = check_index_expr(X, check_expr(X, a), arr->var, i, a->pos);
  const Type *et = arr->ty->elem;
  if (bi == BI_ATOMIC_CAS) {
    e->b = check_expr(X, a);
    if (!ty_eq(e->b->ty, et))
      ERR(a->pos, "%s() compare value is %s but the array holds %s", name,
          TN(e->b->ty), TN(et));
    a = a->next;
  }
  e->c = check_expr(X, a);
  if (!ty_eq(e->c->ty, et))
    ERR(a->pos, "%s() value is %s but the array holds %s", name, TN(e->c->ty),
        TN(et));
  bool int_only = bi == BI_ATOMIC_AND || bi == BI_ATOMIC_OR ||
                  bi == BI_ATOMIC_XOR;
  /* and, or and xor also on integer vectors and matrices, one atomic per
   * component as Warp does (emit_atomic_name) */
  if (int_only && (!sc_is_int(et->sc) || et->quat || et->xform ||
                   (!ty_is_scalar(et) && et->kind != TY_VEC && et->kind != TY_MAT)))
    ERR(call->pos, "%s() needs an integer array, got %s", name, TN(arr->ty));
  if (bi == BI_ATOMIC_CAS && !ty_is_scalar(et))
    ERR(call->pos, "%s() needs an array of scalars", name);
  if (!ty_is_scalar(et) && et->kind != TY_VEC && et->kind != TY_MAT)
    ERR(call->pos, "%s() is not supported on %s", name, TN(arr->ty));
  if (et->kind != TY_SCALAR && bi != BI_ATOMIC_ADD && bi != BI_ATOMIC_SUB &&
      bi != BI_ATOMIC_MIN && bi != BI_ATOMIC_MAX && !int_only)
    ERR(call->pos, "%s() needs an array of scalars", name);
  if (ty_is_bool(et))
    ERR(call->pos, "%s() is not supported on arrays of bool", name);
  if (et->sc == KERN_SCALAR_INT8 || et->sc == KERN_SCALAR_UINT8 || et->sc == KERN_SCALAR_INT16 ||
      et->sc == KERN_SCALAR_UINT16)
    ERR(call->pos, "%s() needs 32- or 64-bit elements, got %s", name,
        TN(et));
  /* Warp's 16-bit atomics: add and sub on both formats, min and max on
   * bfloat16 only, no exchange or compare-and-swap. */
  if (sc_is_lowp(et->sc) &&
      (bi == BI_ATOMIC_EXCH || bi == BI_ATOMIC_CAS ||
       (et->sc == KERN_SCALAR_FLOAT16 && bi != BI_ATOMIC_ADD && bi != BI_ATOMIC_SUB)))
    ERR(call->pos, "%s() is not supported on arrays of %s (Warp has %s)", name,
        TN(et), et->sc == KERN_SCALAR_FLOAT16 ? "atomic_add and atomic_sub for float16"
               : "atomic_add, atomic_sub, atomic_min and atomic_max for bfloat16");
  arr->var->written = true;
  if (arr->ty->priv) /* one thread's own array: a plain update */
    return check_fixed_atomic(X, e, call->pos); /* check_fixed.c */
  X->irf->uses_atomics = true;
  return e;
}

static IrExpr *rand_state_arg(Ctx *X, Node *a, const char *name) {
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

/* wp.vec3(...), wp.mat33(...), wp.float64(x) */
/* wp.NAME as a node, for calls the checker writes itself. */
static Node *wp_name_node(Ctx *X, Node *at, const char *name) {
  Node *w = arena_alloc(X->C, sizeof *w), *m = arena_alloc(X->C, sizeof *m);
  w->kind = N_NAME;
  w->pos = at->pos;
  w->name = X->M->wp;
  w->builtin = -1;
  m->kind = N_ATTR;
  m->pos = at->pos;
  m->a = w;
  m->name = name;
  m->builtin = -1;
  m->depth = 2;
  return m;
}

/* wp.FN(dtype=wp.SC): a default value of a transform's part. */
static Node *typed_call_node(Ctx *X, Node *at, const char *fn,
                             kern_scalar sc, int length) {
  Node *c = arena_alloc(X->C, sizeof *c);
  c->kind = N_CALL;
  c->pos = at->pos;
  c->builtin = -1;
  c->depth = 3;
  c->a = wp_name_node(X, at, fn);
  Node *kw = arena_alloc(X->C, sizeof *kw);
  kw->kind = N_KEYWORD;
  kw->pos = at->pos;
  kw->name = "dtype";
  kw->a = wp_name_node(X, at, TN(ty_scalar(sc)));
  c->kwargs = kw;
  if (length) {
    Node *l = arena_alloc(X->C, sizeof *l), *li = arena_alloc(X->C, sizeof *li);
    l->kind = N_KEYWORD;
    l->pos = at->pos;
    l->name = "length";
    li->kind = N_INT;
    li->pos = at->pos;
    li->ival = (uint64_t)length;
    l->a = li;
    kw->next = l;
  }
  return c;
}

/* wp.transform(p=v, q=r), wp.transform(p=v): Warp's keyword parameters,
 * q the identity by default, rewritten as wp.transform(p, q). */
static Node *xform_kwargs(Ctx *X, Node *call, const Type *t,
                          const char *name) {
  Node *p = call->args, *q = p ? p->next : NULL;
  if (q && q->next)
    return call;
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    if (!strcmp(kw->name, "p") && !p)
      p = kw->a;
    else if (!strcmp(kw->name, "q") && !q)
      q = kw->a;
    else
      ERR(kw->pos, "%s() has no parameter '%s' (or it is given twice)",
          name, kw->name);
  }
  if (!p)
    ERR(call->pos, "%s() needs p when q is given (Warp 1.19 has no "
                   "transform(q=...))", name);
  Node *c = arena_alloc(X->C, sizeof *c);
  *c = *call;
  c->kwargs = NULL;
  Node *pc = arena_alloc(X->C, sizeof *pc), *qc = arena_alloc(X->C, sizeof *qc);
  *pc = *p;
  *qc = q ? *q : *typed_call_node(X, call, "quat_identity", t->sc, 0);
  pc->next = qc;
  qc->next = NULL;
  c->args = pc;
  return c;
}

/* Warp's named constants (wp.PI, -wp.E, wp.TAU) are Python floats, which
 * a constructor converts to its component type at full precision, as it
 * does a literal: wp.vec3d(wp.PI, ...) holds pi in float64, not pi
 * rounded to float32.  (kern keeps module-level floats as float32 values,
 * so they stay an error in a float64 constructor.)  Other values keep
 * their type. */
static IrExpr *named_float_as(Ctx *X, IrExpr *e, Node *a, kern_scalar sc) {
  Node *b = a;
  double sign = 1.0, v;
  for (; b->kind == N_UNOP && b->op == OP_NEG; b = b->a)
    sign = -sign;
  if (b->kind != N_ATTR || !check_is_wp(X, b->a) ||
      !check_wp_builtin_constant(b->name, &v) || !sc_is_float(sc) ||
      sc == KERN_SCALAR_FLOAT32)
    return e;
  return ir_const_float(X->C, ty_scalar(sc), sign * v);
}

IrExpr *check_construct(Ctx *X, Node *call, const Type *t, const char *name) {
  if (t->xform && call->kwargs)
    call = xform_kwargs(X, call, t, name);
  if (call->kwargs && (t->kind == TY_VEC || t->kind == TY_MAT) && !t->quat)
    call = check_sized_kwargs(X, call, t, name);
  check_no_kwargs(X, call, name);
  int n = check_count_args(call->args);
  if (t->kind == TY_SCALAR) {
    if (n != 1)
      ERR(call->pos, "%s() takes 1 argument, got %d", name, n);
    if (check_is_literal(call->args))
      return check_literal_as(X, call->args, t);
    IrExpr *a = check_expr(X, call->args);
    if (a->ty->kind != TY_SCALAR)
      ERR(call->args->pos, "cannot convert %s to %s", TN(a->ty), TN(t));
    return ir_cast(X->C, t, a);
  }
  if (t->xform && n == 2) {
    /* wp.transform(p, q): the 7 components of p then q */
    IrExpr *pq[2];
    pq[0] = check_expr(X, call->args);
    pq[1] = check_expr(X, call->args->next);
    const Type *v3 = ty_vec(X->C, t->sc, 3), *qt = ty_quat(X->C, t->sc);
    if (!ty_eq(pq[0]->ty, v3) || !ty_eq(pq[1]->ty, qt))
      ERR(call->pos, "%s() takes a %s and a %s, got %s and %s", name, TN(v3),
          TN(qt), TN(pq[0]->ty), TN(pq[1]->ty));
    IrExpr *e = ir_expr(X->C, E_MAKE, t);
    e->nargs = 7;
    e->args = arena_alloc(X->C, sizeof(IrExpr *) * 7);
    for (int k = 0; k < 7; k++) {
      IrExpr *src = k < 3 ? pq[0] : pq[1];
      if (src->kind != E_VAR && !X->no_hoist)
        src = check_in_temp(X, src, k < 3 ? "p" : "q", call->pos);
      if (src->kind != E_VAR)
        ERR(call->pos, "%s(p, q) is not supported here; assign p and q to "
                       "variables first", name);
      if (k < 3)
        pq[0] = src;
      else
        pq[1] = src;
      IrExpr *c = ir_expr(X->C, E_COMP, ty_scalar(t->sc));
      c->a = src;
      c->b = ir_const_int(X->C, t_i32(), (uint64_t)(k < 3 ? k : k - 3));
      e->args[k] = c;
    }
    return e;
  }
  int ncomp = t->rows * t->cols;
  IrExpr *e = ir_expr(X->C, E_MAKE, t);
  if (n == 0) {
    e->nargs = 0;
    return e;
  }
  IrExpr **args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)n);
  int i = 0;
  for (Node *a = call->args; a; a = a->next, i++) {
    if (check_is_literal(a))
      args[i] = check_literal_as(X, a, ty_scalar(t->sc));
    else
      args[i] = named_float_as(X, check_expr(X, a), a, t->sc);
  }
  check_order_effects(X, args, n, call->pos);
  if (n == 1 && args[0]->ty->kind == t->kind && args[0]->ty->rows == t->rows &&
      args[0]->ty->cols == t->cols) {
    /* conversion between component types: wp.vec3(v3d) */
    IrExpr *c = ir_expr(X->C, E_CAST, t);
    c->a = args[0];
    return c;
  }
  if (n == 1 && ty_is_scalar(args[0]->ty)) {
    args[0] = ir_cast(X->C, ty_scalar(t->sc), args[0]);
    e->args = args;
    e->nargs = 1; /* broadcast */
    return e;
  }
  if (t->kind == TY_MAT && n == t->rows && args[0]->ty->kind == TY_VEC)
    ERR(call->pos, "%s() from vectors is ambiguous; construct it from its "
                   "%d components (Warp: use wp.matrix_from_rows() or "
                   "wp.matrix_from_cols())", name, ncomp);
  if (t->kind == TY_MAT && n == t->rows && n != ncomp) {
    for (i = 0; i < n; i++) {
      const Type *at = args[i]->ty;
      if (at->kind != TY_VEC || at->rows != t->cols || at->sc != t->sc)
        ERR(call->pos, "%s() from vectors needs %d %s vectors, argument %d "
            "is %s", name, t->rows,
            TN(ty_vec(X->C, t->sc, t->cols)), i + 1, TN(at));
    }
    e->args = args;
    e->nargs = n;
    return e;
  }
  if (n != ncomp)
    ERR(call->pos, "%s() takes %d components, got %d", name, ncomp, n);
  for (i = 0; i < n; i++) {
    if (!ty_is_scalar(args[i]->ty))
      ERR(call->pos, "component %d of %s() is %s, not a scalar", i + 1, name,
          TN(args[i]->ty));
    if (args[i]->ty->sc != t->sc)
      ERR(call->pos, "component %d of %s() is %s but %s holds %s", i + 1,
          name, TN(args[i]->ty), name, TN(ty_scalar(t->sc)));
  }
  e->args = args;
  e->nargs = n;
  return e;
}

/* The value of a parameter's default, at the parameter's type.  Defaults
 * are host Python evaluated where the function is defined, so they may
 * only be compile-time values (literals, module-level constants). */
static IrExpr *default_value(Ctx *X, Func *g, Param *p) {
  Node *d = p->defval;
  if (check_is_literal(d) && ty_is_scalar(p->ty))
    return check_literal_as(X, d, p->ty);
  Ctx sub;
  Func dummy;
  IrFunc irf;
  IrStmt *sink;
  check_const_ctx(&sub, X->C, X->irm, &dummy, &irf, &sink);
  Node *bad = check_not_constant(&sub, d);
  if (bad)
    ERR(d->pos, "the default value of '%s' in '%s' must be a value known at "
                "compile time", p->name, g->name);
  IrExpr *v = d->kind == N_NAME ? check_const_value(&sub, check_find_const(&sub, d->name),
                                              d->pos)
                                : check_expr(&sub, d);
  if (sink)
    ERR(d->pos, "the default value of '%s' in '%s' must be a value known at "
                "compile time", p->name, g->name);
  if (!check_ty_fits(p->ty, v->ty)) /* Any: the value's own type */
    ERR(d->pos, "the default value of '%s' is %s but the parameter is %s",
        p->name, TN(v->ty), TN(p->ty));
  return v;
}

/* The argument node a call gives g's parameter i; NULL for a default. */
static Node *arg_node(Node *call, Func *g, int i) {
  int k = 0;
  for (Node *a = call->args; a; a = a->next, k++)
    if (k == i)
      return a;
  for (Node *kw = call->kwargs; kw; kw = kw->next)
    if (!strcmp(kw->name, g->params[i].name))
      return kw->a;
  return NULL;
}

/* A call of a @wp.func with wp.ref parameters (Note [reference
 * parameters] in emit/common.c): each such argument goes through a
 * variable of the caller's, which the callee writes back at its return;
 * the call is made here, as a statement of its own, and then each variable
 * is stored back to its argument, which must be something assignable.
 * The call's value (a temporary) is what the expression sees. */
static IrExpr *ref_call(Ctx *X, Node *call, Func *g, IrExpr *e) {
  int n = 0;
  for (int i = 0; i < g->nparams; i++)
    n += check_is_ref_annot(X, g->params[i].annot);
  e->refs = arena_alloc(X->C, sizeof(IrVar *) * (size_t)n);
  Node **targets = arena_alloc(X->C, sizeof(Node *) * (size_t)n);
  for (int i = 0; i < g->nparams; i++) {
    if (!check_is_ref_annot(X, g->params[i].annot))
      continue;
    Node *a = arg_node(call, g, i);
    if (a && a->kind != N_NAME && a->kind != N_ATTR && a->kind != N_SUBSCRIPT)
      ERR(a->pos, "argument '%s' of %s() is a wp.ref parameter and needs "
                  "something assignable (a variable, an array element, a "
                  "field or component), not an expression",
          g->params[i].name, g->name);
    if (a)
      check_not_constant_local(X, a, "a wp.ref parameter cannot take");
    Local *t = check_add_hidden_local(X, "ref", e->args[i]->ty, call->pos);
    check_def_set(X, X->nlocals - 1);
    t->var->nassign += 2; /* set here and by the callee */
    IrStmt *as = ir_stmt(X->C, S_ASSIGN, call->pos);
    as->var = t->var;
    as->a = e->args[i];
    check_emit(X, as);
    e->args[i] = ir_ref(X->C, t->var);
    targets[e->nrefs] = a;
    e->refs[e->nrefs++] = t->var;
  }
  IrExpr *result;
  if (e->ty->kind == TY_VOID) {
    IrStmt *s = ir_stmt(X->C, S_EXPR, call->pos);
    s->a = e;
    check_emit(X, s);
    result = ir_expr(X->C, E_CONST, &ty_void);
  } else {
    Local *r = check_add_hidden_local(X, "ret", e->ty, call->pos);
    check_def_set(X, X->nlocals - 1);
    r->var->nassign++;
    IrStmt *s = ir_stmt(X->C, S_ASSIGN, call->pos);
    s->var = r->var;
    s->a = e;
    check_emit(X, s);
    result = ir_ref(X->C, r->var);
  }
  for (int k = 0; k < e->nrefs; k++)
    if (targets[k])
      check_store_to(X, targets[k], ir_ref(X->C, e->refs[k]), call->pos);
  return result;
}

/* Binds a call's arguments (already evaluated, in source order) to g's
 * parameters.  Returns NULL when they do not fit; with `why` set, reports
 * the reason instead (the call has a single candidate). */
static IrExpr **bind_args(Ctx *X, Node *call, Func *g, IrExpr **pos_args,
                          int npos, IrExpr **kw_args, bool why) {
  IrExpr **bound = arena_alloc(X->C, sizeof(IrExpr *) *
                                         (size_t)(g->nparams ? g->nparams : 1));
  if (npos > g->nparams) {
    if (!why)
      return NULL;
    ERR(call->pos, "%s() takes %d argument%s, got %d", g->name, g->nparams,
        g->nparams == 1 ? "" : "s", npos);
  }
  for (int i = 0; i < npos; i++)
    bound[i] = pos_args[i];
  int k = 0;
  for (Node *kw = call->kwargs; kw; kw = kw->next, k++) {
    int idx = -1;
    for (int i = 0; i < g->nparams; i++)
      if (!strcmp(g->params[i].name, kw->name))
        idx = i;
    if (idx < 0 || bound[idx]) {
      if (!why)
        return NULL;
      if (idx < 0)
        ERR(kw->pos, "%s() has no parameter '%s'", g->name, kw->name);
      ERR(kw->pos, "%s() got two values for '%s'", g->name, kw->name);
    }
    bound[idx] = kw_args[k];
  }
  for (int i = 0; i < g->nparams; i++) {
    Param *p = &g->params[i];
    if (!p->ty)
      p->ty = check_type_expr(X, p->annot, arena_printf(X->C, "parameter '%s'",
                                                  p->name));
    if (!bound[i]) {
      if (!p->defval) {
        if (!why)
          return NULL;
        ERR(call->pos, "%s() is missing a value for '%s'", g->name, p->name);
      }
      bound[i] = default_value(X, g, p);
    }
    if (!check_ty_fits(p->ty, bound[i]->ty)) {
      if (!why)
        return NULL;
      Pos at = call->pos; /* the argument's own position when it has one */
      int j = 0;
      for (Node *a = call->args; a; a = a->next, j++)
        if (j == i)
          at = a->pos;
      for (Node *kw = call->kwargs; kw; kw = kw->next)
        if (!strcmp(kw->name, p->name))
          at = kw->a->pos;
      ERR(at, "argument %d of %s() ('%s') must be %s, got %s", i + 1,
          g->name, p->name, TN(p->ty), TN(bound[i]->ty));
    }
  }
  return bound;
}

IrExpr *check_user_call(Ctx *X, Node *call, Func *g) {
  if (g->is_kernel)
    ERR(call->pos, "kernel '%s' cannot be called from a %s", g->name,
        X->f->is_kernel ? "kernel" : "function");
  /* Arguments are evaluated once, left to right, before an overload is
   * chosen by their types. */
  int npos = check_count_args(call->args), nkw = check_count_args(call->kwargs);
  IrExpr **pos_args = check_eval_args(X, call, &npos);
  IrExpr **kw_args = arena_alloc(X->C, sizeof(IrExpr *) *
                                           (size_t)(nkw ? nkw : 1));
  int k = 0;
  for (Node *kw = call->kwargs; kw; kw = kw->next)
    kw_args[k++] = check_expr(X, kw->a);
  if (nkw) {
    IrExpr **all = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(npos + nkw));
    memcpy(all, pos_args, sizeof(IrExpr *) * (size_t)npos);
    memcpy(all + npos, kw_args, sizeof(IrExpr *) * (size_t)nkw);
    check_order_effects(X, all, npos + nkw, call->pos);
    memcpy(pos_args, all, sizeof(IrExpr *) * (size_t)npos);
    memcpy(kw_args, all + npos, sizeof(IrExpr *) * (size_t)nkw);
  }
  IrExpr **bound = NULL;
  Func *chosen = NULL;
  if (!g->overload) {
    chosen = g;
    bound = bind_args(X, call, g, pos_args, npos, kw_args, true);
  } else {
    /* the latest definition that fits; a generic one only when no
     * definition with concrete types does, as in Warp */
    /* through an alias f1 = f, only the definitions above the alias (a
     * later same-signature one replaces f's body for f, not for f1) */
    Sym *at = call->a->kind == N_NAME
                  ? names_get(&X->M->func_alias_at, call->a->name) : NULL;
    for (int pass = 0; pass < 2 && !chosen; pass++)
      for (Func *c = g; c; c = c->overload)
        if ((!at || c == g || c->pos.line < at->pos.line) &&
            !check_fnparam_template(X, c) && /* copied per call instead */
            check_func_generic(X, c) == (pass == 1) &&
            bind_args(X, call, c, pos_args, npos, kw_args, false))
          chosen = c;
    if (!chosen) {
      Buf b;
      buf_init(&b, X->C);
      for (int i = 0; i < npos; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", TN(pos_args[i]->ty));
      k = 0;
      for (Node *kw = call->kwargs; kw; kw = kw->next, k++)
        buf_printf(&b, "%s%s=%s", npos + k ? ", " : "", kw->name,
                   TN(kw_args[k]->ty));
      ERR(call->pos, "no overload of %s() takes (%s)", g->name,
          b.p ? b.p : "");
    }
    bound = bind_args(X, call, chosen, pos_args, npos, kw_args, true);
  }
  g = chosen;
  /* Callees are checked before their callers (Note [checking order]), so
   * one that is not checked yet is on a cycle of calls through this one. */
  if (g->checking || !g->checked)
    ERR(call->pos, "recursive call of '%s' is not supported", g->name);
  g = check_instance_for_call(X, call, g, bound); /* generics, views */
  check_tile_call_writes(X, call, g); /* check_tile.c */
  IrExpr *e = ir_expr(X->C, E_FCALL, g->ret->kind == TY_TUPLE
                                         ? g->ret->items[0] : g->ret);
  e->fn = g->ir;
  e->fn->called = true;
  e->pos = call->pos; /* for check_fixed_frames' message */
  e->nargs = g->nparams;
  e->args = bound;
  g->used = true;
  for (int i = 0; i < g->nparams; i++)
    if (check_is_ref_annot(X, g->params[i].annot)) {
      if (check_fixed_count(g->ret))
        ERR(call->pos, "a function with wp.ref parameters that returns a "
                       "fixed-size array is not supported");
      for (int j = 0; j < g->nparams; j++)
        if (g->params[j].ty->kind == TY_TUPLE)
          ERR(call->pos, "a function with both wp.ref and tuple parameters "
                         "is not supported");
      return ref_call(X, call, g, e);
    }
  /* tuple arguments travel as their items (check_tuple.c) */
  e->args = check_tuple_spread_args(X, g, bound, &e->nargs);
  check_fixed_call(X, e, g->ret, call->pos); /* storage for its result */
  return e;
}


/* wp.matrix_from_rows(v0, v1, ...) / wp.matrix_from_cols(...) */
static IrExpr *matrix_from(Ctx *X, Node *call, bool cols) {
  const char *name = cols ? "wp.matrix_from_cols" : "wp.matrix_from_rows";
  check_no_kwargs(X, call, name);
  int n;
  IrExpr **a = check_eval_args(X, call, &n);
  if (n < 1)
    ERR(call->pos, "%s() takes one vector or more", name);
  const Type *vt = a[0]->ty;
  for (int i = 0; i < n; i++)
    if (a[i]->ty->kind != TY_VEC || !ty_eq(a[i]->ty, vt) || vt->quat ||
        vt->xform)
      check_bad_args(X, call, name, a, n);
  check_mat_shape(X, call, name, n, vt->rows);
  IrExpr *e = ir_expr(X->C, E_MAKE, ty_mat(X->C, vt->sc, n, vt->rows));
  e->args = a;
  e->nargs = n;
  if (!cols)
    return e;
  return ir_call1(X->C, BI_TRANSPOSE, ty_mat(X->C, vt->sc, vt->rows, n), e);
}

/* len(x): the first dimension of an array or tile (a tile's a constant,
 * so wp.static(len(t)) works), the length of a vector, the number of rows
 * of a matrix (an int32, as in Warp). */
static IrExpr *len_call(Ctx *X, Node *call) {
  check_no_kwargs(X, call, "len");
  if (check_count_args(call->args) != 1)
    ERR(call->pos, "len() takes exactly one argument");
  IrExpr *v = check_expr(X, call->args);
  const Type *t = v->ty;
  if (t->kind == TY_ARRAY && t->indexed) /* Warp 1.19 has no overload */
    ERR(call->args->pos, "len() of a wp.indexedarray is not supported by "
                         "Warp; write a.shape[0]");
  if (t->kind == TY_ARRAY && t->tile) /* a tile's shape is fixed */
    return ir_const_int(X->C, t_i32(), (uint64_t)t->fdims[0]);
  if (t->kind == TY_ARRAY) {
    v = check_array_var(X, v, call->pos);
    IrExpr *e = ir_expr(X->C, E_SHAPE, t_i32());
    e->var = check_array_var(X, v, call->args->pos)->var;
    e->ival = 0;
    return e;
  }
  if (t->kind == TY_VEC || t->kind == TY_MAT)
    return ir_const_int(X->C, t_i32(), (uint64_t)t->rows);
  if (t->kind == TY_TUPLE)
    return ir_const_int(X->C, t_i32(), (uint64_t)t->n);
  ERR(call->args->pos, "len() of a %s is not supported", TN(t));
}

/* The value a struct constructor gives field k, of exactly the field's
 * type as Warp requires (a literal 2 for a float field is an error in
 * Warp too). */
static IrExpr *field_init(Ctx *X, Node *a, const Type *st, int k) {
  const Type *ft = st->items[k];
  IrExpr *v = check_expr(X, a);
  if (ft->kind == TY_ARRAY && v->ty->kind == TY_ARRAY && v->ty->strided)
    ERR(a->pos, "%s(): field '%s' takes an array, not a view of one",
        st->name, st->fnames[k]);
  if (!ty_eq(v->ty, ft))
    ERR(a->pos, "%s(): field '%s' is %s, got %s", st->name, st->fnames[k],
        TN(ft), TN(v->ty));
  return v;
}

/* S(a, b, ...) or S(x=a, ...): Warp's struct constructor in a kernel,
 * every field given, in declaration order or by name.  Built as a
 * zero struct in a hidden variable whose fields are then set, in the
 * order the arguments are written (Warp evaluates them left to right). */
static IrExpr *struct_ctor(Ctx *X, Node *call, const Type *st) {
  IrExpr **vals = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)st->n);
  int *order = arena_alloc(X->C, sizeof(int) * (size_t)st->n);
  int nset = 0, k = 0;
  for (Node *a = call->args; a; a = a->next, k++) {
    if (k >= st->n)
      ERR(a->pos, "%s() has %d fields, got %d arguments", st->name, st->n,
          check_count_args(call->args));
    vals[k] = field_init(X, a, st, k);
    order[nset++] = k;
  }
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    int idx = -1;
    for (int i = 0; i < st->n; i++)
      if (!strcmp(st->fnames[i], kw->name))
        idx = i;
    if (idx < 0)
      ERR(kw->pos, "struct '%s' has no field '%s'", st->name, kw->name);
    if (vals[idx])
      ERR(kw->pos, "%s(): field '%s' is given twice", st->name, kw->name);
    vals[idx] = field_init(X, kw->a, st, idx);
    order[nset++] = idx;
  }
  if (nset != st->n)
    ERR(call->pos, "%s() takes all %d fields or none, got %d", st->name,
        st->n, nset);
  /* every value first, into temporaries where it has effects, so that
   * the stores below see them in the order written */
  for (int i = 0; i < nset; i++)
    if (check_has_effects(vals[order[i]]))
      vals[order[i]] = check_in_temp(X, vals[order[i]], "field", call->pos);
  Local *t = check_add_hidden_local(X, "st", st, call->pos);
  check_def_set(X, X->nlocals - 1);
  t->var->nassign++;
  IrStmt *as = ir_stmt(X->C, S_ASSIGN, call->pos);
  as->var = t->var;
  as->a = ir_expr(X->C, E_MAKE, st);
  check_emit(X, as);
  for (int i = 0; i < nset; i++) {
    IrExpr *lv = ir_expr(X->C, E_FIELD, st->items[order[i]]);
    lv->a = ir_ref(X->C, t->var);
    lv->ival = (uint64_t)order[i];
    IrStmt *sf = ir_stmt(X->C, S_SETFIELD, call->pos);
    sf->var = t->var;
    sf->a = lv;
    sf->c = vals[order[i]];
    t->var->nassign++;
    check_emit(X, sf);
  }
  return ir_ref(X->C, t->var);
}

/* Note [star arguments]: f(*v) passes the components of v as arguments,
 * which Warp allows where the count is known when the kernel is compiled:
 * a vector or quaternion (its components), a matrix (its rows), a vector
 * or matrix slice, or a slice of a 1-d array with constant bounds
 * (`*a[:3]`, `*a[0:4:2]`).  The call is rewritten, on a copy (the tree is
 * shared by every instantiation of a generic function), into one with
 * v[0], v[1], ...; a v that is not a variable is first put in a temporary
 * so it is evaluated once.  The temporary's name cannot be written in Python,
 * so it never meets a program's variable. */
static Node *node_like(Ctx *X, NodeKind k, Node *at) {
  Node *m = arena_alloc(X->C, sizeof *m);
  m->kind = k;
  m->pos = at->pos;
  m->builtin = -1;
  m->depth = at->depth + 1;
  return m;
}

static Node *int_node(Ctx *X, Node *at, int64_t v) {
  Node *m = node_like(X, v < 0 ? N_UNOP : N_INT, at);
  if (v < 0) {
    m->op = OP_NEG;
    m->a = int_node(X, at, -v);
  } else {
    m->ival = (uint64_t)v;
  }
  return m;
}

static bool has_call(Node *n) {
  for (; n; n = n->next)
    if (n->kind == N_CALL || has_call(n->a) || has_call(n->b) ||
        has_call(n->c) || has_call(n->args))
      return true;
  return false;
}

/* A constant slice bound: an integer literal, maybe negated; def when
 * omitted. */
static bool slice_bound(Node *n, int64_t def, int64_t *out) {
  bool neg = false;
  if (!n) {
    *out = def;
    return true;
  }
  while (n->kind == N_UNOP && (n->op == OP_NEG || n->op == OP_POS)) {
    neg ^= n->op == OP_NEG;
    n = n->a;
  }
  if (n->kind != N_INT || n->ival > INT32_MAX)
    return false;
  *out = neg ? -(int64_t)n->ival : (int64_t)n->ival;
  return true;
}

static Node *expand_star_args(Ctx *X, Node *call) {
  Node head = {0}, *cur = &head;
  for (Node *a = call->args; a; a = a->next) {
    if (a->kind != N_STARRED) {
      Node *c = arena_alloc(X->C, sizeof *c);
      *c = *a;
      c->next = NULL;
      cur = cur->next = c;
      continue;
    }
    Node *v = a->a;
    int64_t lo, hi, step, n = -1;
    Node *base = v;
    if (v->kind == N_SUBSCRIPT && v->args && !v->args->next &&
        v->args->kind == N_SLICE && !has_call(v->a) &&
        check_expr(X, v->a)->ty->kind == TY_ARRAY) {
      Node *sl = v->args;
      const Type *at = check_expr(X, v->a)->ty;
      if (at->ndim != 1)
        ERR(a->pos, "unpacking a slice with '*' is supported for 1-d arrays, "
                    "not %s", TN(at));
      if (!slice_bound(sl->c, 1, &step) || step <= 0 ||
          !slice_bound(sl->a, 0, &lo) || !sl->b || !slice_bound(sl->b, 0, &hi) ||
          lo < 0 || hi < 0)
        ERR(a->pos, "unpacking an array slice with '*' needs constant, "
                    "non-negative bounds and a positive step (the number of "
                    "arguments must be known when the kernel is compiled)");
      n = hi > lo ? (hi - lo + step - 1) / step : 0;
      base = v->a;
    } else {
      IrExpr *e = check_expr(X, v);
      if (e->ty->kind != TY_VEC && e->ty->kind != TY_MAT)
        ERR(a->pos, "cannot unpack a %s with '*' (vectors, matrices (by "
                    "rows) and array slices with constant bounds can be "
                    "unpacked)", TN(e->ty));
      lo = 0;
      step = 1;
      n = e->ty->rows;
      if (v->kind != N_NAME) {
        const char *nm = arena_printf(X->C, "*unpack%d", X->nlocals);
        Local *l = check_add_hidden_local(X, "unpack", e->ty, a->pos);
        names_put(X->C, &X->local_names, nm, (void *)(intptr_t)X->nlocals);
        check_def_set(X, X->nlocals - 1);
        l->var->nassign++;
        IrStmt *as = ir_stmt(X->C, S_ASSIGN, a->pos);
        as->var = l->var;
        as->a = e;
        check_emit(X, as);
        base = node_like(X, N_NAME, v);
        base->name = nm;
      }
    }
    for (int64_t k = 0; k < n; k++) {
      Node *s = node_like(X, N_SUBSCRIPT, base);
      s->a = base;
      s->args = int_node(X, base, lo + k * step);
      s->depth = base->depth + 2;
      cur = cur->next = s;
    }
  }
  Node *c = arena_alloc(X->C, sizeof *c);
  *c = *call;
  c->args = head.next;
  return c;
}

IrExpr *check_call_expr(Ctx *X, Node *n) {
  n = check_fn_callee(X, n); /* f(x), f bound to a function */
  for (Node *a = n->args; a; a = a->next)
    if (a->kind == N_STARRED) {
      n = expand_star_args(X, n);
      break;
    }
  Node *callee = n->a;
  const char *w = check_wp_attr(X, callee);
  if (w && !strcmp(w, "zeros")) /* a fixed-size local array */
    return check_fixed_zeros(X, n);
  if (w && !strncmp(w, "tile_stack", 10)) {
    IrExpr *stack = check_tstack_call(X, n, w); /* check_tstack.c */
    if (stack)
      return stack;
  }
  if (w) {
    IrExpr *tile = check_tile_call(X, n, w); /* check_tile.c */
    if (tile)
      return tile;
  }
  if (w && n->kwargs)
    n = check_builtin_kwargs(X, n, w); /* wp.pow(x=a, y=b): check_kwargs.c */
  if (w) {
    if (!strcmp(w, "address_of"))
      return check_address_of(X, n);
    IrExpr *extra = check_extra_call(X, n, w);
    if (extra)
      return extra;
    bool second;
    const Type *t = check_wp_type_named(X->C, w, &second);
    if (t)
      return check_construct(X, n, t, arena_printf(X->C, "wp.%s", w));
    if (second)
      ERR(callee->pos, "wp.%s is not supported yet (second stage of the "
                       "language)", w);
    if (!strncmp(w, "tile", 4) || !strcmp(w, "untile"))
      /* Warp's tile builtins that check_tile.c does not have yet (issue
       * #24): named, not the generic unknown-function message */
      ERR(callee->pos, "wp.%s is not supported yet (issue #24)", w);
    if (!strcmp(w, "matrix_from_rows") || !strcmp(w, "matrix_from_cols"))
      return matrix_from(X, n, !strcmp(w, "matrix_from_cols"));
    int bi = builtin_lookup(w);
    if (bi >= 0)
      return check_builtin_call(X, n, bi, arena_printf(X->C, "wp.%s", w));
    if (!strcmp(w, "static"))
      return check_static_call(X, n);
    if (!strcmp(w, "expect_eq") || !strcmp(w, "expect_neq") ||
        !strcmp(w, "expect_near") || !strcmp(w, "print"))
      ERR(callee->pos, "wp.%s() can only be used as a statement", w);
    static const char *const stage2[] = {
        "zeros", "tile_load", "tile_store", "tile_sum",
        "tile_reduce", "tile_map", "tile_matmul", "launch_tiled", "quat",
        "transform", "struct", "overload", "tile", "untile", NULL};
    for (int i = 0; stage2[i]; i++)
      if (!strcmp(w, stage2[i]))
        ERR(callee->pos, "wp.%s is not supported yet (second stage of the "
                         "language)", w);
    const char *near = suggest_name(w, builtin_names, BI_COUNT);
    if (near)
      ERR(callee->pos, "wp.%s is not a function kern supports; did you mean "
                       "'wp.%s'?", w, near);
    ERR(callee->pos, "wp.%s is not a function kern supports", w);
  }
  if (callee->kind == N_NAME) {
    const char *name = callee->name;
    if (check_find_local(X, name))
      ERR(callee->pos, "'%s' is a variable, not a function", name);
    Func *g = check_find_func(X, name);
    if (g) {
      Node *m = check_fnparam_call(X, n, g); /* wp.Function arguments */
      return m != n ? check_call_expr(X, m) : check_user_call(X, n, g);
    }
    StructDef *sd = check_find_struct(X, name);
    if (sd) {
      const Type *st = check_struct_type(X, sd, n->pos);
      if (n->args || n->kwargs)
        return struct_ctor(X, n, st);
      return ir_expr(X->C, E_MAKE, st); /* all zero */
    }
    if (!strcmp(name, "float") || !strcmp(name, "int") ||
        !strcmp(name, "bool")) {
      const Type *t = !strcmp(name, "float") ? t_f32()
                      : !strcmp(name, "int") ? t_i32() : t_bool();
      return check_construct(X, n, t, name);
    }
    if (!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "abs") ||
        !strcmp(name, "round") || !strcmp(name, "pow"))
      return check_builtin_call(X, n, builtin_lookup(name), name);
    if (!strcmp(name, "print"))
      return check_builtin_call(X, n, BI_PRINTF, "print");
    if (!strcmp(name, "range"))
      ERR(callee->pos, "range() is only supported as the iterable of a 'for' "
                       "loop");
    if (!strcmp(name, "len"))
      return len_call(X, n);
    const Type *at = check_type_alias(X, name); /* V = wp.types.vector(...) */
    if (at)
      return check_construct(X, n, at, name);
    ERR(callee->pos, "unknown function '%s'", name);
  }
  /* type(x)(...), a.dtype(...): constructors of a type found from a value,
   * which generic code uses (check_generic.c) */
  const Type *ct = check_type_of(X, callee);
  if (ct)
    return check_construct(X, n, ct, TN(ct));
  if (callee->kind == N_ATTR)
    ERR(callee->pos, "method calls are not supported ('.%s()')", callee->name);
  ERR(callee->pos, "this expression cannot be called");
}

/* wp.identity's n: an integer known at compile time (a literal, a
 * module-level constant, wp.static(...)), as Warp needs it to pick the
 * matrix type. */
static int identity_n(Ctx *X, Node *n) {
  int v = check_type_int(X, n);
  if (v >= 0)
    return v;
  IrExpr *e = check_expr(X, n);
  if (e->kind != E_CONST || e->ty->kind != TY_SCALAR || !sc_is_int(e->ty->sc))
    ERR(n->pos, "wp.identity() takes n (an integer constant) and dtype");
  return (int)(int64_t)e->ival;
}

/* The builtins whose arguments are not plain values, checked before any
 * argument is evaluated: wp.tid(), atomics, random numbers, printf and
 * the identities, which take a dtype.  NULL if bi is not one of them. */
static IrExpr *special_builtin(Ctx *X, Node *call, int bi,
                               const char *name) {
  Compiler *C = X->C;
  int n;
  switch (bi) {
  case BI_TID: {
    check_no_kwargs(X, call, name);
    if (call->args)
      ERR(call->pos, "wp.tid() takes no arguments");
    if (!X->f->is_kernel)
      ERR(call->pos, "wp.tid() can only be called in a kernel");
    /* A lone wp.tid() is the first launch dimension's index, as in Warp. */
    IrExpr *e = ir_expr(C, E_TID, t_i32());
    e->ival = 0;
    /* ... also where the kernel unpacks it elsewhere (i, j = wp.tid()):
     * Warp allows both in one kernel, and the first coordinate is the same
     * whatever the grid's dimensions. */
    if (X->f->tid_dims == 0)
      X->f->tid_dims = 1;
    return e;
  }
  case BI_ATOMIC_ADD: case BI_ATOMIC_SUB: case BI_ATOMIC_MIN:
  case BI_ATOMIC_MAX: case BI_ATOMIC_AND: case BI_ATOMIC_OR:
  case BI_ATOMIC_XOR: case BI_ATOMIC_EXCH: case BI_ATOMIC_CAS:
    return check_atomic_call(X, call, bi, name);
  case BI_RAND_INIT: {
    check_no_kwargs(X, call, name);
    IrExpr **a = check_eval_args(X, call, &n);
    check_nargs_between(X, call, name, n, 1, 2);
    for (int i = 0; i < n; i++)
      if (!ty_eq(a[i]->ty, t_i32()))
        ERR(call->pos, "%s() takes int32 arguments, argument %d is %s", name,
            i + 1, TN(a[i]->ty));
    return ir_call(C, bi, ty_scalar(KERN_SCALAR_UINT32), n, a);
  }
  case BI_RANDF: case BI_RANDI: case BI_RANDN: {
    check_no_kwargs(X, call, name);
    n = check_count_args(call->args);
    int hi = bi == BI_RANDN ? 1 : 3;
    check_nargs_between(X, call, name, n, 1, hi);
    if (n == 2)
      ERR(call->pos, "%s() takes a state, or a state and a range (low, high)",
          name);
    IrExpr *a[3];
    a[0] = rand_state_arg(X, call->args, name);
    const Type *rt = bi == BI_RANDI ? t_i32() : t_f32();
    int i = 1;
    for (Node *an = call->args->next; an; an = an->next, i++) {
      a[i] = check_expr(X, an);
      if (!ty_eq(a[i]->ty, rt))
        ERR(an->pos, "the range of %s() is %s, got %s", name, TN(rt),
            TN(a[i]->ty));
    }
    return ir_call(C, bi, rt, n, a);
  }
  case BI_PRINTF:
    ERR(call->pos, "%s() can only be used as a statement", name);
  default:
    break;
  }

  /* quat_identity(dtype=float) */
  if (bi == BI_QUAT_IDENTITY || bi == BI_TRANSFORM_IDENTITY) {
    const Type *dt = t_f32();
    for (Node *a = call->args; a; a = a->next)
      dt = check_type_expr(X, a, "quat_identity dtype");
    for (Node *k = call->kwargs; k; k = k->next) {
      if (strcmp(k->name, "dtype"))
        ERR(k->pos, "%s() takes only dtype", name);
      dt = check_type_expr(X, k->a, "quat_identity dtype");
    }
    if (check_count_args(call->args) > 1 || !ty_is_float(dt))
      ERR(call->pos, "%s() takes a float dtype", name);
    return ir_call(C, bi, bi == BI_QUAT_IDENTITY ? ty_quat(C, dt->sc)
                                                 : ty_xform(C, dt->sc),
                   0, NULL);
  }
  /* identity(n=3, dtype=float) has keyword arguments */
  if (bi == BI_IDENTITY) {
    int dim = -1;
    const Type *dt = t_f32();
    int pi = 0;
    for (Node *a = call->args; a; a = a->next, pi++) {
      if (pi == 0)
        dim = identity_n(X, a);
      else if (pi == 1)
        dt = check_type_expr(X, a, "identity dtype");
      else
        ERR(a->pos, "wp.identity() takes n and dtype");
    }
    for (Node *k = call->kwargs; k; k = k->next) {
      if (!strcmp(k->name, "n"))
        dim = identity_n(X, k->a);
      else if (!strcmp(k->name, "dtype"))
        dt = check_type_expr(X, k->a, "identity dtype");
      else
        ERR(k->pos, "wp.identity() takes n (an integer constant) and dtype");
    }
    if (dim < 0)
      ERR(call->pos, "wp.identity() needs n= as an integer constant");
    check_mat_shape(X, call, "wp.identity", dim, dim);
    if (!ty_is_float(dt))
      ERR(call->pos, "wp.identity() needs a float dtype");
    IrExpr *e = ir_call(C, bi, ty_mat(C, dt->sc, dim, dim), 0, NULL);
    return e;
  }
  return NULL;
}

#define NARGS(lo, hi) check_nargs_between(X, call, name, n, lo, hi)
#define BAD() check_bad_args(X, call, name, a, n)

/* Scalar math and the functions that apply to each component or choose
 * between values: abs ... smoothstep, select and where.  NULL if bi is
 * not one of them. */
static IrExpr *math_builtin(Ctx *X, Node *call, int bi, const char *name,
                            IrExpr **a, int n) {
  Compiler *C = X->C;
  const Type *t0 = n > 0 ? a[0]->ty : NULL;
  switch (bi) {
  case BI_ABS:
    NARGS(1, 1);
    if (!(ty_is_int(t0) || ty_is_float(t0) || (t0->kind == TY_VEC &&
                                                 t0->sc != KERN_SCALAR_BOOL)))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_SIGN: case BI_STEP:
    NARGS(1, 1);
    if (!(ty_is_int(t0) || ty_is_float(t0)) && !(bi == BI_SIGN &&
                                                 t0->kind == TY_VEC))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_MIN: case BI_MAX:
    NARGS(1, 2);
    if (n == 1) {
      if (t0->kind != TY_VEC)
        BAD();
      return ir_call(C, bi, ty_scalar(t0->sc), 1, a);
    }
    if (!all_same(a, n) || !(ty_is_int(t0) || ty_is_float(t0) ||
                              t0->kind == TY_VEC))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_CLAMP:
    NARGS(3, 3);
    if (!all_same(a, n) || !(ty_is_int(t0) || ty_is_float(t0)))
      BAD();
    return ir_call(C, bi, t0, 3, a);
  case BI_SQRT: case BI_CBRT: case BI_EXP: case BI_EXP2: case BI_LOG:
  case BI_LOG2: case BI_LOG10: case BI_SIN: case BI_COS: case BI_TAN:
  case BI_ASIN: case BI_ACOS: case BI_ATAN: case BI_SINH: case BI_COSH:
  case BI_TANH: case BI_DEGREES: case BI_RADIANS: case BI_RINT:
    NARGS(1, 1);
    if (!ty_is_float(t0))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_FLOOR: case BI_CEIL: case BI_ROUND: case BI_TRUNC: case BI_FRAC:
    NARGS(1, 1);
    if (!vec_or_scalar_float(t0))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_ISNAN: case BI_ISINF: case BI_ISFINITE:
    NARGS(1, 1);
    /* matrices too, any component counting (Warp's mat.h overloads) */
    if (!vec_or_scalar_float(t0) && !ty_is_int(t0) &&
        !(t0->kind == TY_MAT && sc_is_float(t0->sc)))
      BAD();
    return ir_call(C, bi, t_bool(), 1, a);
  case BI_POW: case BI_ATAN2:
    NARGS(2, 2);
    if (!all_same(a, n) || !ty_is_float(t0))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_MOD:
    NARGS(2, 2);
    /* vectors too, componentwise (Warp's vec.h mod, as `v % w`) */
    if (!all_same(a, n) || !(ty_is_int(t0) || ty_is_float(t0) ||
                             (t0->kind == TY_VEC && !t0->quat && !t0->xform &&
                              t0->sc != KERN_SCALAR_BOOL)))
      BAD();
    return ir_call(C, BI_OP_MOD, t0, 2, a);
  case BI_LERP:
    NARGS(3, 3);
    if (!ty_eq(t0, a[1]->ty) || !ty_is_value(t0) || !sc_is_float(t0->sc) ||
        !ty_eq(a[2]->ty, ty_scalar(t0->sc)))
      BAD();
    return ir_call(C, bi, t0, 3, a);
  case BI_SMOOTHSTEP:
    NARGS(3, 3);
    if (!all_same(a, n) || !ty_is_float(t0))
      BAD();
    return ir_call(C, bi, t0, 3, a);
  case BI_SELECT: case BI_WHERE: {
    NARGS(3, 3);
    if (!X->no_hoist && (check_has_effects(a[1]) || check_has_effects(a[2])))
      for (int i = 0; i < 3; i++) /* Warp evaluates all three */
        if (a[i]->kind != E_CONST)
          a[i] = check_in_temp(X, a[i], "arg", call->pos);
    if (!ty_eq(a[1]->ty, a[2]->ty) || !ty_is_value(a[1]->ty))
      BAD();
    IrExpr *c = check_truth(X, a[0], call->args->pos);
    IrExpr *e = ir_expr(C, E_SELECT, a[1]->ty);
    e->a = c;
    /* select(cond, value_if_false, value_if_true); where(cond, t, f) */
    e->b = bi == BI_SELECT ? a[2] : a[1];
    e->c = bi == BI_SELECT ? a[1] : a[2];
    return e;
  }
  case BI_NONZERO:
    NARGS(1, 1);
    if (!ty_is_int(t0) && !ty_is_float(t0))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  default:
    return NULL;
  }
}

/* Vector and matrix functions: dot, cross, length, transpose, inverse and
 * the like.  NULL if bi is not one of them. */
static IrExpr *linalg_builtin(Ctx *X, Node *call, int bi, const char *name,
                              IrExpr **a, int n) {
  Compiler *C = X->C;
  const Type *t0 = n > 0 ? a[0]->ty : NULL;
  switch (bi) {
  case BI_DOT:
    NARGS(2, 2);
    if (!all_same(a, n) || t0->kind != TY_VEC)
      BAD();
    return ir_call(C, bi, ty_scalar(t0->sc), 2, a);
  case BI_CROSS:
    NARGS(2, 2);
    if (!all_same(a, n) || t0->kind != TY_VEC || t0->rows != 3)
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_LENGTH: case BI_LENGTH_SQ:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || (bi == BI_LENGTH && !sc_is_float(t0->sc)))
      BAD();
    return ir_call(C, bi, ty_scalar(t0->sc), 1, a);
  case BI_NORMALIZE:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || !sc_is_float(t0->sc))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_OUTER:
    NARGS(2, 2);
    if (t0->kind != TY_VEC || a[1]->ty->kind != TY_VEC ||
        t0->sc != a[1]->ty->sc || !sc_is_float(t0->sc))
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, t0->rows, a[1]->ty->rows), 2, a);
  case BI_TRANSPOSE:
    NARGS(1, 1);
    if (t0->kind != TY_MAT)
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, t0->cols, t0->rows), 1, a);
  case BI_DETERMINANT: case BI_TRACE:
    NARGS(1, 1);
    if (t0->kind != TY_MAT || t0->rows != t0->cols)
      BAD();
    if (bi == BI_DETERMINANT && (t0->rows < 2 || t0->rows > 4))
      BAD(); /* Warp's overloads are 2x2, 3x3 and 4x4 */
    return ir_call(C, bi, ty_scalar(t0->sc), 1, a);
  case BI_INVERSE:
    NARGS(1, 1);
    if (t0->kind != TY_MAT || t0->rows != t0->cols || t0->rows < 2 ||
        t0->rows > 4)
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_DIAG:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || !sc_is_float(t0->sc))
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, t0->rows, t0->rows), 1, a);
  case BI_ARGMIN: case BI_ARGMAX:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || t0->quat || t0->xform || t0->sc == KERN_SCALAR_BOOL)
      BAD();
    return ir_call(C, bi, ty_scalar(KERN_SCALAR_UINT32), 1, a);
  case BI_GET_DIAG:
    NARGS(1, 1);
    if (t0->kind != TY_MAT || t0->rows != t0->cols)
      BAD();
    return ir_call(C, bi, ty_vec(C, t0->sc, t0->rows), 1, a);
  case BI_CW_MUL: case BI_CW_DIV:
    NARGS(2, 2);
    if (!all_same(a, n) || (t0->kind != TY_VEC && t0->kind != TY_MAT))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  default:
    return NULL;
  }
}

/* Quaternions and transforms.  NULL if bi is not one of them. */
static IrExpr *quat_builtin(Ctx *X, Node *call, int bi, const char *name,
                            IrExpr **a, int n) {
  Compiler *C = X->C;
  const Type *t0 = n > 0 ? a[0]->ty : NULL;
  switch (bi) {
  case BI_QUAT_ROTATE: case BI_QUAT_ROTATE_INV:
    NARGS(2, 2);
    if (!t0->quat || a[1]->ty->kind != TY_VEC || a[1]->ty->rows != 3 ||
        a[1]->ty->quat || a[1]->ty->sc != t0->sc)
      BAD();
    return ir_call(C, bi, a[1]->ty, 2, a);
  case BI_QUAT_INVERSE:
    NARGS(1, 1);
    if (!t0->quat)
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_QUAT_TO_MATRIX:
    NARGS(1, 1);
    if (!t0->quat)
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, 3, 3), 1, a);
  case BI_TRANSFORM_POINT: case BI_TRANSFORM_VECTOR:
    NARGS(2, 2);
    /* Warp also applies a 4x4 matrix (mat.h: m * (v, 1) or m * (v, 0));
     * the 16-bit matrices would need Warp's per-step rounding, not here. */
    if (t0->kind == TY_MAT && t0->rows == 4 && t0->cols == 4 &&
        (t0->sc == KERN_SCALAR_FLOAT32 || t0->sc == KERN_SCALAR_FLOAT64) &&
        ty_eq(a[1]->ty, ty_vec(C, t0->sc, 3)))
      return ir_call(C, bi, a[1]->ty, 2, a);
    if (!t0->xform || !ty_eq(a[1]->ty, ty_vec(C, t0->sc, 3)))
      BAD();
    return ir_call(C, bi, a[1]->ty, 2, a);
  case BI_TRANSFORM_MULTIPLY:
    NARGS(2, 2);
    if (!t0->xform || !ty_eq(t0, a[1]->ty))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_TRANSFORM_INVERSE:
    NARGS(1, 1);
    if (!t0->xform)
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_TRANSFORM_GET_TRANSLATION: case BI_TRANSFORM_GET_ROTATION:
    NARGS(1, 1);
    if (!t0->xform)
      BAD();
    return ir_call(C, bi, bi == BI_TRANSFORM_GET_TRANSLATION
                              ? ty_vec(C, t0->sc, 3) : ty_quat(C, t0->sc),
                   1, a);
  case BI_QUAT_FROM_AXIS_ANGLE:
    NARGS(2, 2);
    if (t0->kind != TY_VEC || t0->rows != 3 || t0->quat ||
        !sc_is_float(t0->sc) || !ty_eq(a[1]->ty, ty_scalar(t0->sc)))
      BAD();
    return ir_call(C, bi, ty_quat(C, t0->sc), 2, a);
  default:
    return NULL;
  }
}

IrExpr *check_builtin_call(Ctx *X, Node *call, int bi, const char *name) {
  IrExpr *e = special_builtin(X, call, bi, name);
  if (e)
    return e;
  int n;
  check_no_kwargs(X, call, name);
  IrExpr **a = check_eval_args(X, call, &n);
  if ((e = math_builtin(X, call, bi, name, a, n)) ||
      (e = linalg_builtin(X, call, bi, name, a, n)) ||
      (e = quat_builtin(X, call, bi, name, a, n)))
    return e;
  switch (bi) {
  case BI_MUL: case BI_ADD: case BI_SUB: case BI_DIV: case BI_NEG:
    break;
  default:
    ERR(call->pos, "%s() is not supported here", name);
  }
  /* wp.mul/add/sub/div/neg: the operators by name */
  if (bi == BI_NEG) {
    NARGS(1, 1);
    if (!ty_is_value(a[0]->ty) || a[0]->ty->sc == KERN_SCALAR_BOOL)
      BAD();
    if (a[0]->ty->kind == TY_SCALAR)
      return check_neg_scalar(X, a[0], call->pos);
    return ir_call1(X->C, BI_NEG, a[0]->ty, a[0]);
  }
  NARGS(2, 2);
  return NULL; /* handled by the caller through check_binop() */
#undef NARGS
#undef BAD
}
