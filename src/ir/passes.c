/*
 * passes.c -- target-independent passes over the IR, written once.
 *
 *   ir_analyze            facts the emitters use: which arrays are read or
 *                         written (const / __restrict__), which locals are
 *                         thread indices (so Warp's negative-index wrap is
 *                         dropped where the index cannot be negative),
 *                         float64 use, loads contiguous in the thread index
 *   ir_aggregate_atomics  Note [atomic aggregation] in ir.h
 *   ir_drop_tid_wraps,    before an adjoint's expansion: thread indices'
 *   ir_share_loads        wraps, and repeated loads of one element
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
  if (s->kind == S_ASSIGN && (s->a->kind == E_TID ||
                              (s->a->kind == E_VAR && s->a->var->from_tid)))
    s->var->ntid_assign++;
}

/* A copy of a thread index is one too: the adjoint's replay copies `i =
 * wp.tid()` through temporaries (v1 = v0, v0 = tid), and without this its
 * loads kept the negative-index wrap and lost the contiguous form.  Each
 * round can only add variables (a copy of a from_tid one), so it ends. */
static void mark_from_tid(IrFunc *f) {
  for (IrVar *v = f->locals; v; v = v->next)
    v->from_tid = false;
  for (bool more = true; more;) {
    more = false;
    for (IrVar *v = f->locals; v; v = v->next)
      v->ntid_assign = 0;
    walk_stmts(f->body, count_tid, NULL, NULL);
    for (IrVar *v = f->locals; v; v = v->next) {
      bool t = v->ntid_assign > 0 && v->ntid_assign == v->nassign;
      more |= t && !v->from_tid;
      v->from_tid = t;
    }
  }
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

static void drop_wrap(IrExpr **slot, void *ud) {
  (void)ud;
  IrExpr *e = *slot;
  if (e->kind == E_CALL && e->bi == BI_WRAP_INDEX && nonneg(e->args[0]))
    *slot = e->args[0];
}

/* Before the adjoint's expansion writes the wrap of a negative index out
 * as a select (src/ir/expand.c), the wraps of thread indices go, as
 * ir_analyze drops them from a forward kernel: otherwise the adjoint
 * indexes through the select, which the emitters cannot see is the thread
 * index, so its loads are not contiguous (Note [16-byte accesses]). */
void ir_drop_tid_wraps(IrModule *m) {
  IrFunc *lists[2] = {m->funcs, m->kernels};
  for (int l = 0; l < 2; l++)
    for (IrFunc *f = lists[l]; f; f = f->next) {
      mark_from_tid(f);
      walk_stmts(f->body, NULL, drop_wrap, NULL);
    }
}

/* Note [shared loads]: `x[i] * x[i]` reads x[i] twice, and the adjoint
 * adds into adj_x[i] once per read: two atomics on one address where one
 * would do (Warp's adjoint does the same; the sum of squares' adjoint was
 * 1.06x Warp's for it, bench/NOTES.md run 13).  Before the adjoint is
 * built, a load of the element an earlier load of the same statement list
 * read, with nothing between that can change it, becomes a copy of the
 * earlier value, so the reverse pass sums the two adjoints into one local
 * and adds it once.  "Nothing between" is kept strict: any store, atomic,
 * function call, address, view or nested statement forgets every load
 * seen (another array may alias this one); an assignment forgets the
 * loads into that variable and those indexed by it.  Indices must be
 * variables or constants, compared by identity and value. */
enum { SHARE_MAX = 32 };
typedef struct Shared {
  IrExpr *load[SHARE_MAX]; /* the earlier load ... */
  IrVar *into[SHARE_MAX];  /* ... and the variable holding its value */
  int n;
} Shared;

static bool plain_index(IrExpr *e) {
  return e->kind == E_VAR || e->kind == E_CONST;
}

static bool same_index(IrExpr *a, IrExpr *b) {
  if (a->kind != b->kind || a->ty != b->ty)
    return false;
  return a->kind == E_VAR ? a->var == b->var : a->ival == b->ival;
}

static bool same_load(IrExpr *a, IrExpr *b) {
  if (a->var != b->var || a->nargs != b->nargs || a->ty != b->ty)
    return false;
  for (int i = 0; i < a->nargs; i++)
    if (!same_index(a->args[i], b->args[i]))
      return false;
  return true;
}

static bool shareable(IrExpr *e) {
  if (e->kind != E_LOAD || e->var->ty->kind != TY_ARRAY)
    return false;
  for (int i = 0; i < e->nargs; i++)
    if (!plain_index(e->args[i]))
      return false;
  return true;
}

/* an expression with an effect on memory, or that may read it through a
 * path this pass does not follow */
static bool effect(IrExpr *e) {
  if (!e)
    return false;
  if (e->kind == E_ATOMIC || e->kind == E_FCALL || e->kind == E_ADDR ||
      e->kind == E_VIEW)
    return true;
  if (effect(e->a) || effect(e->b) || effect(e->c))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (effect(e->args[i]))
      return true;
  return false;
}

/* `i = a[i]`: after it, i no longer holds the index the load used */
static bool reads_var(IrExpr *load, IrVar *v) {
  if (load->var == v)
    return true;
  for (int j = 0; j < load->nargs; j++)
    if (load->args[j]->kind == E_VAR && load->args[j]->var == v)
      return true;
  return false;
}

static void forget_var(Shared *S, IrVar *v) {
  int k = 0;
  for (int i = 0; i < S->n; i++) {
    if (S->into[i] != v && !reads_var(S->load[i], v)) {
      S->load[k] = S->load[i];
      S->into[k++] = S->into[i];
    }
  }
  S->n = k;
}

/* The loads an expression evaluates whatever its values (not those of a
 * selection's arms or of the right side of `and`/`or`), nor a load under a
 * field or component (the adjoint reads one field of a struct element in
 * place, Note [arrays of structs] in adjoint.c), in evaluation order. */
typedef struct Hoist {
  Compiler *C;
  IrFunc *f;
  Shared *S;
  IrStmt **at;   /* where hoisted loads are inserted (before the statement) */
} Hoist;

static void hoist_in(Hoist *H, IrExpr **slot) {
  IrExpr *e = *slot;
  if (!e || e->kind == E_FIELD || e->kind == E_COMP)
    return;
  if (e->kind == E_SELECT || e->kind == E_AND || e->kind == E_OR) {
    hoist_in(H, &e->a);
    return;
  }
  if (e->a) hoist_in(H, &e->a);
  if (e->b) hoist_in(H, &e->b);
  if (e->c) hoist_in(H, &e->c);
  for (int i = 0; i < e->nargs; i++)
    hoist_in(H, &e->args[i]);
  if (!shareable(e))
    return;
  Shared *S = H->S;
  for (int i = 0; i < S->n; i++)
    if (same_load(S->load[i], e)) {
      *slot = ir_ref(H->C, S->into[i]);
      return;
    }
  if (S->n == SHARE_MAX)
    return;
  IrVar *v = ir_var(H->C, H->f, "ld", e->ty);
  v->nassign = 1;
  IrStmt *st = ir_stmt(H->C, S_ASSIGN, e->pos);
  st->var = v;
  st->a = e;
  st->next = *H->at;
  *H->at = st;
  H->at = &st->next;
  S->load[S->n] = e;
  S->into[S->n++] = v;
  *slot = ir_ref(H->C, v);
}

static void share_list(Compiler *C, IrFunc *f, IrStmt **head) {
  Shared S = {.n = 0};
  for (IrStmt **ps = head; *ps; ps = &(*ps)->next) {
    IrStmt *s = *ps;
    if (s->body || s->orelse) {
      share_list(C, f, &s->body);
      share_list(C, f, &s->orelse);
      S.n = 0;
      continue;
    }
    /* the operands: an atomic statement's, or the statement's own */
    IrExpr *top = s->kind == S_EXPR ? s->a : NULL;
    bool atomic = top && top->kind == E_ATOMIC;
    IrExpr **ops[4 + 8];
    int nops = 0;
    IrExpr *owner = atomic ? top : NULL;
    if (owner) {
      ops[nops++] = &owner->b;
      ops[nops++] = &owner->c;
      for (int i = 0; i < owner->nargs && nops < 12; i++)
        ops[nops++] = &owner->args[i];
    } else if (s->kind == S_ASSIGN || s->kind == S_STORE ||
               s->kind == S_SETCOMP || s->kind == S_SETFIELD) {
      ops[nops++] = &s->a;
      ops[nops++] = &s->b;
      ops[nops++] = &s->c;
      for (int i = 0; i < s->nargs && nops < 12; i++)
        ops[nops++] = &s->args[i];
    }
    bool fx = nops == 0 || (owner ? owner->nargs : s->nargs) > 8;
    for (int i = 0; i < nops && !fx; i++)
      fx = effect(*ops[i]);
    if (fx) {
      S.n = 0;
      continue;
    }
    /* a statement that is itself a load keeps it: it becomes the entry */
    bool bare = s->kind == S_ASSIGN && shareable(s->a);
    Hoist H = {C, f, &S, ps};
    for (int i = 0; i < nops; i++)
      if (!(bare && ops[i] == &s->a))
        hoist_in(&H, ops[i]);
    ps = H.at; /* past the hoisted loads, at s */
    if (bare)
      for (int i = 0; i < S.n; i++)
        if (same_load(S.load[i], s->a)) {
          if (S.into[i] != s->var)
            s->a = ir_ref(C, S.into[i]);
          break;
        }
    if (s->kind == S_ASSIGN || s->kind == S_SETCOMP ||
        (s->kind == S_SETFIELD && s->var->ty->kind != TY_ARRAY))
      forget_var(&S, s->var);
    else
      S.n = 0; /* a store or an atomic: memory changed */
    if (bare && shareable(s->a) && S.n < SHARE_MAX && !reads_var(s->a, s->var)) {
      S.load[S.n] = s->a;
      S.into[S.n++] = s->var;
    }
  }
}

void ir_share_loads(Compiler *C, IrModule *m) {
  for (IrFunc *f = m->kernels; f; f = f->next)
    share_list(C, f, &f->body);
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

/* Note [heavy bodies]: a builtin whose helper is hundreds of lines once
 * inlined (Perlin noise: 2^d corners of hashing and gradients; the 3x3
 * factorisations: Jacobi sweeps) makes the body compute-bound, so the
 * grid-stride loop's unrolling (cuda_kernel, ocl_kernel)
 * buys nothing there, and it multiplies what NVRTC and the OpenCL
 * compilers optimise: bi_noise_periodic's CUDA took NVRTC 99 s unrolled
 * and 19 s not (2026-11-29, a loaded 2-core machine; its tangent 54 s on
 * an H200 in a cold test).  Such a body is not a simple loop. */
static bool heavy_call(int bi) {
  switch (bi) {
  case BI_NOISE: case BI_PNOISE: case BI_CURLNOISE: case BI_NOISE_GRAD:
  case BI_CURLNOISE_ADJ: case BI_CURLNOISE_TAN: case BI_SVD3: case BI_SVD2:
  case BI_QR3: case BI_EIG3:
    return true;
  }
  return false;
}

static void no_simple(IrExpr **slot, void *ud) {
  IrFunc *f = ud;
  IrExpr *e = *slot;
  if (e->kind == E_FCALL || e->kind == E_ATOMIC || e->kind == E_ADDR ||
      (e->kind == E_CALL && (builtin_draws(e->bi) || heavy_call(e->bi))))
    f->simple_loop = false;
}

void ir_analyze(Compiler *C, IrModule *m) {
  IrFunc *lists[2] = {m->funcs, m->kernels};
  for (int l = 0; l < 2; l++) {
    for (IrFunc *f = lists[l]; f; f = f->next) {
      mark_from_tid(f);
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
