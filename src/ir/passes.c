/*
 * passes.c -- target-independent passes over the IR, written once.
 *
 *   ir_analyze            facts the emitters use: which arrays are read or
 *                         written (const / __restrict__), which locals are
 *                         thread indices (so Warp's negative-index wrap is
 *                         dropped where the index cannot be negative),
 *                         float64 use, loads contiguous in the thread index
 *   ir_aggregate_atomics  Note [atomic aggregation] in ir.h
 */
#include <string.h>
#include "ir.h"

typedef void (*ExprFn)(IrExpr **slot, void *ud);
typedef void (*StmtFn)(IrStmt *s, void *ud);

static void walk_expr(IrExpr **slot, ExprFn fn, void *ud) {
  IrExpr *e = *slot;
  if (!e)
    return;
  /* most operands are leaves: no call for their absent children */
  if (e->a)
    walk_expr(&e->a, fn, ud);
  if (e->b)
    walk_expr(&e->b, fn, ud);
  if (e->c)
    walk_expr(&e->c, fn, ud);
  for (int i = 0; i < e->nargs; i++)
    walk_expr(&e->args[i], fn, ud);
  fn(slot, ud);
}

static void walk_stmts(IrStmt *s, StmtFn sf, ExprFn ef, void *ud) {
  for (; s; s = s->next) {
    if (ef) {
      walk_expr(&s->a, ef, ud);
      walk_expr(&s->b, ef, ud);
      walk_expr(&s->c, ef, ud);
      for (int i = 0; i < s->nargs; i++)
        walk_expr(&s->args[i], ef, ud);
    }
    if (sf)
      sf(s, ud);
    walk_stmts(s->body, sf, ef, ud);
    walk_stmts(s->orelse, sf, ef, ud);
  }
}

/* ---------------------------------------------------------------- analyze */

/* The count lives on the variable: a table per function indexed by the
 * variable's ordinal cost 16 KB per function and a search per assignment,
 * which made compiling many small kernels quadratic (issue #8, item 12). */
static void count_tid(IrStmt *s, void *ud) {
  (void)ud;
  if (s->kind == S_ASSIGN && s->a->kind == E_TID)
    s->var->ntid_assign++;
}

static bool nonneg(IrExpr *e) {
  if (e->kind == E_CONST)
    return !sc_is_signed(e->ty->sc) || (int64_t)e->ival >= 0;
  if (e->kind == E_VAR)
    return e->var->from_tid;
  if (e->kind == E_TID || e->kind == E_SHAPE)
    return true;
  if (e->kind == E_BINARY && (e->op == OP_ADD || e->op == OP_MUL))
    return false; /* may overflow; keep the wrap */
  return false;
}

static void simplify(IrExpr **slot, void *ud) {
  IrFunc *f = ud;
  IrExpr *e = *slot;
  if (e->kind == E_CALL && e->bi == BI_WRAP_INDEX && nonneg(e->args[0]))
    *slot = e->args[0];
  e = *slot;
  if (e->ty && e->ty->kind == TY_SCALAR && e->ty->sc == KERN_SCALAR_FLOAT64)
    f->uses_fp64 = true;
  if (e->ty && (e->ty->kind == TY_VEC || e->ty->kind == TY_MAT) &&
      e->ty->sc == KERN_SCALAR_FLOAT64)
    f->uses_fp64 = true;
  /* Warp computes these in double even for float32 (Note [Warp's
   * determinant and inverse], Note [degrees and radians] in emit/common.c),
   * so OpenCL needs cl_khr_fp64 for them. */
  if (e->kind == E_CALL && (e->bi == BI_INVERSE || e->bi == BI_DETERMINANT) &&
      e->nargs == 1 && e->args[0]->ty->kind == TY_MAT &&
      e->args[0]->ty->rows == 4)
    f->uses_fp64 = true;
  if (e->kind == E_CALL && (e->bi == BI_DEGREES || e->bi == BI_RADIANS))
    f->uses_fp64 = true;
  if (e->kind == E_LOAD) {
    e->var->read = true;
    /* contiguous: the last index is a thread index variable */
    IrExpr *last = e->args[e->nargs - 1];
    e->contiguous = (last->kind == E_VAR && last->var->from_tid) ||
                    last->kind == E_TID;
  }
  if (e->kind == E_ATOMIC)
    e->var->written = true;
  if (e->kind == E_VIEW)
    e->var->read = e->var->written = true; /* the view may be stored to */
  if (e->kind == E_ADDR) { /* a snippet may store through the address */
    IrExpr *b = e->a;
    while (b->kind == E_FIELD || b->kind == E_COMP)
      b = b->a;
    if (b->kind == E_LOAD)
      b->var->written = true;
  }
}

static void mark_store(IrStmt *s, void *ud) {
  IrFunc *f = ud;
  if (s->kind == S_STORE)
    s->var->written = true;
  /* a field of an array element (Note [store paths], lower/check_stmt.c) */
  if (s->kind == S_SETFIELD && s->var->ty->kind == TY_ARRAY)
    s->var->written = true;
  if (s->kind == S_FOR || s->kind == S_WHILE || s->kind == S_PRINTF)
    f->simple_loop = false;
  if (s->kind == S_EXPR && s->a->kind == E_ATOMIC)
    f->simple_loop = false;
}

static void no_simple(IrExpr **slot, void *ud) {
  IrFunc *f = ud;
  IrExpr *e = *slot;
  if (e->kind == E_FCALL || e->kind == E_ATOMIC || e->kind == E_ADDR ||
      (e->kind == E_CALL && builtin_draws(e->bi)))
    f->simple_loop = false;
}

void ir_analyze(Compiler *C, IrModule *m) {
  IrFunc *lists[2] = {m->funcs, m->kernels};
  for (int l = 0; l < 2; l++) {
    for (IrFunc *f = lists[l]; f; f = f->next) {
      for (IrVar *v = f->locals; v; v = v->next)
        v->ntid_assign = 0;
      walk_stmts(f->body, count_tid, NULL, NULL);
      for (IrVar *v = f->locals; v; v = v->next)
        v->from_tid = v->ntid_assign > 0 && v->ntid_assign == v->nassign;
      f->simple_loop = f->is_kernel;
      walk_stmts(f->body, mark_store, simplify, f);
      walk_stmts(f->body, NULL, no_simple, f);
      /* OpenCL needs cl_khr_fp64 for a struct with a float64 field too */
      for (IrVar *v = f->locals; v; v = v->next)
        if (v->ty->kind == TY_STRUCT && ty_has_f64(v->ty))
          f->uses_fp64 = true;
      for (IrVar *p = f->params; p; p = p->next)
        if ((p->ty->kind == TY_STRUCT ||
             (p->ty->kind == TY_ARRAY && p->ty->elem->kind == TY_STRUCT)) &&
            ty_has_f64(p->ty))
          f->uses_fp64 = true;
        else if (p->ty->kind == TY_SCALAR && p->ty->sc == KERN_SCALAR_FLOAT64)
          f->uses_fp64 = true;
        else if (p->ty->kind != TY_SCALAR && p->ty->sc == KERN_SCALAR_FLOAT64)
          f->uses_fp64 = true;
    }
  }
}

/* ---------------------------------------------------------------- aggregation */

typedef struct AggCtx {
  Compiler *C;
  IrFunc *f;
  bool ok;
  IrVar *arr;
} AggCtx;

static bool uniform(IrExpr *e) {
  switch (e->kind) {
  case E_CONST:
    return true;
  case E_VAR:
    return e->var->is_param && e->var->nassign == 0 &&
           e->var->ty->kind == TY_SCALAR;
  case E_SHAPE:
    return true;
  case E_CAST:
  case E_UNARY:
    return uniform(e->a);
  case E_BINARY:
    return uniform(e->a) && uniform(e->b);
  default:
    return false;
  }
}

static void find_reads(IrExpr **slot, void *ud) {
  AggCtx *A = ud;
  IrExpr *e = *slot;
  if (e->kind == E_LOAD && e->var == A->arr)
    A->ok = false;
  if (e->kind == E_VIEW && e->var == A->arr) /* an alias: not alone */
    A->ok = false;
  if (e->kind == E_ATOMIC && e->var == A->arr)
    A->ok = false; /* another atomic whose result or index differs */
}

static void find_stores(IrStmt *s, void *ud) {
  AggCtx *A = ud;
  if (s->kind == S_STORE && s->var == A->arr)
    A->ok = false;
}

static bool aggregatable_type(const Type *t) {
  if (t->kind != TY_SCALAR)
    return false;
  switch (t->sc) {
  case KERN_SCALAR_INT32: case KERN_SCALAR_UINT32: case KERN_SCALAR_INT64: case KERN_SCALAR_UINT64:
  case KERN_SCALAR_FLOAT32: case KERN_SCALAR_FLOAT64:
    return true;
  default:
    return false;
  }
}

static void aggregate(IrStmt *s, void *ud) {
  AggCtx *A = ud;
  if (s->kind != S_EXPR || s->a->kind != E_ATOMIC)
    return;
  IrExpr *at = s->a;
  if (at->bi != BI_ATOMIC_ADD && at->bi != BI_ATOMIC_SUB &&
      at->bi != BI_ATOMIC_MIN && at->bi != BI_ATOMIC_MAX)
    return;
  if (!aggregatable_type(at->ty) || !at->var->is_param || at->nfpath)
    return; /* a view is a local: out of scope where the sum is flushed */
  for (int i = 0; i < at->nargs; i++)
    if (!uniform(at->args[i]))
      return;
  /* The array must not be read, stored or used by any other atomic in the
   * kernel: only then is the order of the updates unobservable. */
  AggCtx chk = {A->C, A->f, true, at->var};
  IrExpr *saved = s->a;
  s->a = NULL;
  walk_stmts(A->f->body, find_stores, find_reads, &chk);
  s->a = saved;
  if (!chk.ok)
    return;
  for (IrAgg *g = A->f->aggs; g; g = g->next)
    if (g->array == at->var)
      return; /* one aggregate per array keeps the flush simple */

  IrAgg *g = arena_alloc(A->C, sizeof *g);
  int n = 0;
  for (IrAgg *h = A->f->aggs; h; h = h->next)
    n++;
  g->id = n;
  g->bi = at->bi == BI_ATOMIC_SUB ? BI_ATOMIC_ADD : at->bi;
  g->array = at->var;
  g->index = at->args;
  g->nindex = at->nargs;
  g->ty = at->ty;
  IrAgg **tail = &A->f->aggs;
  while (*tail)
    tail = &(*tail)->next;
  *tail = g;

  s->kind = S_AGG;
  s->agg = g;
  s->a = at->bi == BI_ATOMIC_SUB ? ir_unary(A->C, OP_NEG, at->c) : at->c;
}

void ir_aggregate_atomics(Compiler *C, IrModule *m) {
  for (IrFunc *f = m->kernels; f; f = f->next) {
    AggCtx A = {C, f, true, NULL};
    walk_stmts(f->body, aggregate, NULL, &A);
  }
}

/* ---------------------------------------------------------------- debug mode */

/* Note [debug mode] in ir.h: appends the fault record parameter. */
void ir_add_fault_param(Compiler *C, IrModule *m) {
  const Type *t = ty_array(C, ty_scalar(KERN_SCALAR_INT64), 1);
  IrFunc *lists[2] = {m->funcs, m->kernels};
  for (int l = 0; l < 2; l++) {
    for (IrFunc *f = lists[l]; f; f = f->next) {
      IrVar *v = arena_alloc(C, sizeof *v);
      v->name = "k_fault";
      v->ty = t;
      v->is_param = true;
      v->index = f->nparams;
      v->written = true;
      IrVar **tail = &f->params;
      while (*tail)
        tail = &(*tail)->next;
      *tail = v;
      f->nparams++;
    }
  }
}
