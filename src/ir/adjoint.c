/*
 * adjoint.c -- a kernel's reverse-mode adjoint, built as another kernel of
 * the IR (Note [adjoint]), so that every emitter spells it unchanged.
 */
#include <string.h>
#include "ir.h"

/* Note [adjoint]: ir_adjoint reads one kernel after the expansion into
 * scalar IR (Note [expansion] in expand.c), so vectors, matrices,
 * quaternions and the composite builtins arrive as scalar operations and
 * differentiate through them; only scalar rules are written here.  The
 * result is a new kernel ("adj_NAME") whose parameters are the forward
 * parameters followed by one adjoint per parameter, adj_NAME, of the same
 * kind and type: Warp's launch(adjoint=True) order.  Its body is Warp's
 * adjoint kernel, in two parts:
 *
 *  - the forward replay: the kernel's statements again, in single
 *    assignment form (every assignment makes a fresh local, an `if` joins
 *    its branches' versions in a local assigned at the end of each
 *    branch), so the reverse part can read every intermediate value.  As
 *    in Warp, the replay performs no store and no atomic (the arrays keep
 *    what the forward launch left), and it skips the bodies of dynamic
 *    loops: a variable the loop reassigns keeps its value from before the
 *    loop for the rest of the replay.
 *  - the reverse sweep: for each operation, last first, its adjoint rule
 *    adds the result's adjoint, times the partial derivative, into the
 *    adjoints of its operands.  A load of a[i] adds into adj_a[i]
 *    (atomically); a store a[i] = v adds adj_a[i] into v's adjoint and
 *    clears adj_a[i] (Warp's rule when the adjoint array is the array's
 *    .grad, as under wp.Tape); wp.atomic_add/sub(a, i, v) adds (subtracts)
 *    adj_a[i] into v's.  A null adjoint array is skipped.  Integers,
 *    comparisons and wp.tid() carry no adjoint, and neither do value
 *    parameters (Warp discards their adjoints).
 *
 * Loops follow Warp.  A range() of constants with at most 16 iterations
 * (Warp's max_unroll) is unrolled, so its gradient is exact.  Any other
 * range() loop runs again in reverse order of its iterations in the
 * reverse sweep; each iteration replays the body's forward, then its
 * reverse.  A variable assigned before the loop and reassigned in it is
 * Warp's loop-carried variable: one local, which the body reads until it
 * reassigns the variable, and which the body's last version is assigned
 * to at the end of the body; so the reverse rules read its value after
 * the replay, and its assignment passes its adjoint on and clears it
 * (Warp's adj_assign).  That is Warp's gradient, exact for sums, not for
 * products (Warp's own limit; tests/autodiff/loop_carried*.py).  A while
 * loop is the same, except that the reverse sweep evaluates its
 * condition again on the carried variables, so it runs first iteration
 * to last there (dyn_loop).
 *
 * A kernel's early return ends the replay and starts the reverse sweep
 * at that point, as Warp's jump does (norm_returns).  A @wp.func call is
 * inlined (inline_call).  Float min, max and clamp stay calls through the
 * expansion (IR_KEEP_CALL) so that ties follow Warp's rules.  Anything
 * without a rule here is refused at its position: "autodiff of X is not
 * supported yet", never a silently wrong gradient. */

typedef struct Seq {
  IrStmt *head, **tail;
} Seq;

typedef struct Map {   /* pointer -> pointer, open addressing */
  const void **keys;
  void **vals;
  int cap, n;
} Map;

typedef struct Ad {
  Compiler *C;
  IrFunc *K, *A;
  Map ids;          /* K var -> 1 + its index in env */
  IrVar **env;      /* K var -> the A variable holding its value now */
  int nv;
  Map adjs;         /* A var -> its adjoint */
  Map noadj;        /* A vars that carry no adjoint (value parameters) */
  Map atomres;      /* K vars assigned an atomic's result */
  Map fres;         /* user function -> 1 + its result's slot in env */
  int resid;        /* the slot of the function being inlined, or -1 */
  IrVar **made;     /* A value variables made so far (per-iteration zeroing) */
  int nmade, capmade;
  int loop_depth;
  Map adjarr;       /* A array parameter -> its adjoint parameter */
  Map clears;       /* the stores clearing adj_a[i] (Note [late clears]) */
  Map fixed;        /* K fixed-array storage -> the statement making its
                     * adjoint's view, or its tangent storage (Note
                     * [adjoint fixed arrays]) */
  Seq fixpro;       /* the adjoint's start: its fixed arrays zeroed */
  Map kdef;         /* K local assigned once -> its value (fixed_update) */
  int depth;        /* user functions being inlined */
  Pos pos;
  /* forward mode (Note [tangent]) */
  IrVar **tans;     /* the tangent locals, zeroed at the kernel's start */
  int ntans, captans;
  IrVar *ret, *dret; /* the result of the function being inlined, its tangent */
  IrVar **rets;     /* its results when several, rets[0] == ret (Note
                     * [several results]) */
  bool fwd;         /* building the tangent, not the adjoint */
  IrVar **car;      /* the innermost dynamic loop's carried locals, or NULL
                     * outside one (Note [adjoint jumps]) */
  bool jumped;      /* the block being built ended in break or continue */
  int unrolled;     /* unrolled loops being built (outside dynamic ones) */
  int ingrad;       /* custom adjoints being built (Note [custom adjoints]) */
  IrVar *rflag;     /* the innermost dynamic loop's "returned" flag (Note
                     * [adjoint jumps]), or NULL */
  int tail_copies;  /* statements copied by Note [tail paths] */
  int fwrun;        /* function bodies run forward, their loops included
                     * (Note [loops in functions]) */
  int dynloops;     /* loops Warp does not unroll met in functions */
  int tile_rev;     /* tile loops whose reverse is being built (Note [tile
                     * adjoints]) */
  Map tile_reads;   /* a tile's replay storage -> where it is read
                     * (tile_read) */
  Map tile_stor;    /* K tile -> its replay storage (tile_storage) */
  Map xchg;         /* 1 + a block exchange's byte offset in K -> its Xchg
                     * (Note [exchange adjoints]) */
  int xrev, xrev_n; /* the adjoints' region of the exchange buffer and its
                     * bytes per thread (xchg_rev) */
} Ad;

static _Noreturn void refuse(Ad *D, const char *what) {
  diag_error(D->C, D->pos, "%sautodiff of %s is not supported yet (issue #26)",
             D->fwd ? "forward-mode " : "", what);
}

/* ---------------------------------------------------------------- maps */

static unsigned hash(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0x9E3779B1u;
  return (unsigned)(x ^ (x >> 15));
}

static void map_put(Ad *D, Map *m, const void *k, void *v);

static void map_grow(Ad *D, Map *m) {
  Map o = *m;
  m->cap = o.cap ? o.cap * 2 : 64;
  m->n = 0;
  m->keys = arena_alloc(D->C, sizeof(void *) * (size_t)m->cap);
  m->vals = arena_alloc(D->C, sizeof(void *) * (size_t)m->cap);
  memset(m->keys, 0, sizeof(void *) * (size_t)m->cap);
  for (int i = 0; i < o.cap; i++)
    if (o.keys[i])
      map_put(D, m, o.keys[i], o.vals[i]);
}

static void map_put(Ad *D, Map *m, const void *k, void *v) {
  if ((m->n + 1) * 2 > m->cap)
    map_grow(D, m);
  unsigned i = hash(k) & (unsigned)(m->cap - 1);
  while (m->keys[i] && m->keys[i] != k)
    i = (i + 1) & (unsigned)(m->cap - 1);
  if (!m->keys[i])
    m->n++;
  m->keys[i] = k;
  m->vals[i] = v;
}

static void *map_get(const Map *m, const void *k) {
  if (!m->cap)
    return NULL;
  unsigned i = hash(k) & (unsigned)(m->cap - 1);
  while (m->keys[i]) {
    if (m->keys[i] == k)
      return m->vals[i];
    i = (i + 1) & (unsigned)(m->cap - 1);
  }
  return NULL;
}

/* ---------------------------------------------------------------- helpers */

static void seq_init(Seq *s) {
  s->head = NULL;
  s->tail = &s->head;
}

static void put(Seq *s, IrStmt *st) {
  st->next = NULL;
  *s->tail = st;
  s->tail = &st->next;
}

/* chunk's statements go before everything in s */
static void prepend(Seq *s, Seq *chunk) {
  if (!chunk->head)
    return;
  *chunk->tail = s->head;
  if (!s->head)
    s->tail = chunk->tail;
  s->head = chunk->head;
  seq_init(chunk);
}

/* Does t carry an adjoint?  A float type: float16 and bfloat16 too, whose
 * adjoints are computed in their own precision (each operation rounded),
 * as Warp's are. */
static bool fty(const Type *t) {
  return t && (t->kind == TY_SCALAR || t->kind == TY_VEC || t->kind == TY_MAT) &&
         (t->sc == KERN_SCALAR_FLOAT32 || t->sc == KERN_SCALAR_FLOAT64 ||
          t->sc == KERN_SCALAR_FLOAT16 || t->sc == KERN_SCALAR_BFLOAT16);
}

static bool is_agg(const Type *t) {
  return t && (t->kind == TY_VEC || t->kind == TY_MAT);
}

static int ncomp(const Type *t) {
  return t->kind == TY_SCALAR ? 1 : t->rows * t->cols;
}

static int kid(Ad *D, IrVar *v) {
  intptr_t i = (intptr_t)map_get(&D->ids, v);
  if (!i)
    refuse(D, arena_printf(D->C, "the variable %s", v->name));
  return (int)i - 1;
}

static IrVar *newvar(Ad *D, const char *base, const Type *ty) {
  IrVar *v = ir_var(D->C, D->A, base, ty);
  if (D->nmade == D->capmade) {
    int nc = D->capmade ? D->capmade * 2 : 64;
    IrVar **n = arena_alloc(D->C, sizeof(IrVar *) * (size_t)nc);
    if (D->nmade)
      memcpy(n, D->made, sizeof(IrVar *) * (size_t)D->nmade);
    D->made = n;
    D->capmade = nc;
  }
  D->made[D->nmade++] = v;
  return v;
}

static void assign(Ad *D, Seq *s, IrVar *v, IrExpr *e) {
  IrStmt *st = ir_stmt(D->C, S_ASSIGN, D->pos);
  st->var = v;
  st->a = e;
  put(s, st);
}

static IrExpr *ref(Ad *D, IrVar *v) { return ir_ref(D->C, v); }

static IrExpr *fconst(Ad *D, const Type *t, double v) {
  return ir_const_float(D->C, t, v);
}

static IrExpr *icst(Ad *D, int k) {
  return ir_const_int(D->C, ty_scalar(KERN_SCALAR_INT32), (uint64_t)k);
}

static IrExpr *bin(Ad *D, int op, IrExpr *a, IrExpr *b) {
  const Type *t = op >= OP_LT && op <= OP_NE ? ty_scalar(KERN_SCALAR_BOOL) : a->ty;
  return ir_binary(D->C, op, t, a, b);
}

static IrExpr *call1(Ad *D, int bi, IrExpr *a) {
  return ir_call1(D->C, bi, a->ty, a);
}

/* Component k of the aggregate e. */
static IrExpr *comp(Ad *D, IrExpr *e, int k) {
  const Type *t = e->ty;
  IrExpr *c = ir_expr(D->C, E_COMP, ty_scalar(t->sc));
  c->a = e;
  if (t->kind == TY_MAT) {
    c->b = icst(D, k / t->cols);
    c->c = icst(D, k % t->cols);
  } else {
    c->b = icst(D, k);
  }
  return c;
}

static IrExpr *zero_of(Ad *D, const Type *t) {
  if (!is_agg(t))
    return fconst(D, t, 0);
  IrExpr *m = ir_expr(D->C, E_MAKE, t);
  m->nargs = 1;
  m->args = arena_alloc(D->C, sizeof(IrExpr *));
  m->args[0] = fconst(D, ty_scalar(t->sc), 0);
  return m;
}

/* The adjoint of the A variable v, made on first use; NULL when v carries
 * none. */
static IrVar *adj_of(Ad *D, IrVar *v) {
  if (!fty(v->ty) || v->is_param || map_get(&D->noadj, v))
    return NULL;
  IrVar *a = map_get(&D->adjs, v);
  if (!a) {
    a = ir_var(D->C, D->A, "adj", v->ty);
    map_put(D, &D->adjs, v, a);
  }
  return a;
}

/* adj(target) += g (scalar), target an A expression: a variable gets it,
 * a constant does not. */
static void acc(Ad *D, Seq *s, IrExpr *target, IrExpr *g) {
  if (target->kind != E_VAR)
    return;
  IrVar *a = adj_of(D, target->var);
  if (!a)
    return;
  if (is_agg(a->ty)) {
    for (int k = 0; k < ncomp(a->ty); k++) {
      IrStmt *st = ir_stmt(D->C, S_SETCOMP, D->pos);
      st->var = a;
      IrExpr *c = comp(D, ref(D, a), k);
      st->a = c->b;
      st->b = c->c;
      st->c = bin(D, OP_ADD, c, comp(D, g, k));
      put(s, st);
    }
    return;
  }
  assign(D, s, a, bin(D, OP_ADD, ref(D, a), g));
}

/* adj(target)[k] += g for an aggregate variable */
static void acc_comp(Ad *D, Seq *s, IrExpr *target, IrExpr *cb, IrExpr *cc,
                     IrExpr *g) {
  if (target->kind != E_VAR)
    return;
  IrVar *a = adj_of(D, target->var);
  if (!a)
    return;
  IrStmt *st = ir_stmt(D->C, S_SETCOMP, D->pos);
  st->var = a;
  st->a = cb;
  st->b = cc;
  IrExpr *c = ir_expr(D->C, E_COMP, g->ty);
  c->a = ref(D, a);
  c->b = cb;
  c->c = cc;
  st->c = bin(D, OP_ADD, c, g);
  put(s, st);
}

static IrExpr *adjx(Ad *D, IrVar *v) {
  IrVar *a = adj_of(D, v);
  return a ? ref(D, a) : zero_of(D, v->ty);
}

/* A value in a fresh local of the function (a variable or constant is one
 * already). */
static IrExpr *tmp(Ad *D, Seq *fw, IrExpr *e) {
  if (e->kind == E_VAR || e->kind == E_CONST)
    return e;
  IrVar *v = newvar(D, "t", e->ty);
  assign(D, fw, v, e);
  return ref(D, v);
}

/* ---------------------------------------------------------------- values */

static IrExpr *dval(Ad *D, Seq *fw, Seq *rv, IrExpr *e);
static IrExpr *inline_call(Ad *D, Seq *fw, Seq *rv, IrExpr *e);
static bool norm_returns(Ad *D, IrStmt **head);
static void stmt(Ad *D, IrStmt *s, Seq *fw, Seq *rv);
static IrExpr *elem_root(IrExpr *e);

/* The variable at the root of a chain of struct fields, or NULL. */
static IrExpr *field_root(IrExpr *e) {
  while (e->kind == E_FIELD)
    e = e->a;
  return e->kind == E_VAR ? e : NULL;
}

/* The chain of fields e on the struct variable g instead of e's root. */
static IrExpr *same_chain(Ad *D, IrExpr *e, IrVar *g) {
  if (e->kind != E_FIELD)
    return ref(D, g);
  IrExpr *n = ir_expr(D->C, E_FIELD, e->ty);
  *n = *e;
  n->a = same_chain(D, e->a, g);
  return n;
}

static IrExpr *clone(Ad *D, Seq *fw, IrExpr *e);

/* tile_reads' value for a tile read by more than one builtin */
static const Pos tile_read_often;

static bool same_pos(const Pos *a, const Pos *b) {
  return a->line == b->line && a->col == b->col && a->offset == b->offset;
}

static bool is_fixed_zeros(const IrExpr *e);

/* v = a, of a tile v: v's replay storage, which a's is, or the one
 * made for a = BI_FIXED_ZEROS(storage): each inlined call of a @wp.func
 * has its own, and a tile rebound to its own storage (t += u) the same. */
static void tile_storage(Ad *D, IrVar *v, IrExpr *a) {
  if (v->ty->kind != TY_ARRAY || !v->ty->tile)
    return;
  IrVar *st = NULL;
  if (a->kind == E_VAR)
    st = map_get(&D->tile_stor, a->var);
  else if (is_fixed_zeros(a) && a->args[0]->kind == E_VAR)
    st = D->env[kid(D, a->args[0]->var)];
  map_put(D, &D->tile_stor, v, st);
}

/* The key of the tile karr in tile_reads: its replay storage, else karr. */
static const void *tile_key(Ad *D, IrVar *karr) {
  IrVar *st = map_get(&D->tile_stor, karr);
  return st ? (const void *)st : (const void *)karr;
}

/* A read of the tile karr, at D->pos (its builtin's position): refused
 * when karr holds the old values of a wp.tile_atomic_add, which the
 * replay does not have (tile_atomic); remembered for tile_written. */
static void tile_read(Ad *D, IrVar *karr) {
  if (!karr->ty->tile)
    return;
  if (map_get(&D->atomres, karr))
    refuse(D, "the tile wp.tile_atomic_add returns");
  const void *k = tile_key(D, karr);
  const Pos *at = map_get(&D->tile_reads, k);
  if (!at) {
    Pos *p = arena_alloc(D->C, sizeof *p);
    *p = D->pos;
    map_put(D, &D->tile_reads, k, p);
  } else if (at != &tile_read_often && !same_pos(at, &D->pos)) {
    map_put(D, &D->tile_reads, k, (void *)&tile_read_often);
  }
}

/* A store into the tile karr at D->pos (Note [tile adjoints]): refused
 * when another builtin read the tile before (a write in place, as
 * `wp.tile_matmul(a, b, t)` after `u = wp.tile_map(wp.sin, t)`): Warp
 * 1.19's tile adjoints read the tile's last values there, not those the
 * reading builtin saw; a builtin reading and writing its own `out` (+=,
 * tile_matmul's out) is exact. */
static void tile_written(Ad *D, IrVar *karr) {
  const Pos *at = map_get(&D->tile_reads, tile_key(D, karr));
  if (at && (at == &tile_read_often || !same_pos(at, &D->pos)))
    refuse(D, "a tile written in place after another operation read it "
              "(Warp 1.19's tile adjoints read its last values)");
}

/* v = a when a is the tile of a wp.tile_atomic_add's old values: v is
 * one too (tile_read). */
static void tile_alias(Ad *D, IrVar *v, IrExpr *a) {
  if (v->ty->kind == TY_ARRAY && v->ty->tile && a->kind == E_VAR &&
      map_get(&D->atomres, a->var))
    map_put(D, &D->atomres, v, v);
}

/* Note [exchange adjoints]: where a block's threads exchange values
 * (CUDA and OpenCL; Note [block exchange] in lower/check_tile.c), the
 * forward puts each thread's value v into a region of the block's buffer
 * (BI_XCHG_PUT) and reads thread k's there (BI_XCHG_GET(k)): wp.tile(x)
 * and tile_scatter_add/_masked.  Each thread holds a whole tile and its
 * own adjoint of it, the tile's adjoint being the sum over the threads
 * (the stores into arrays, which start the adjoints, happen on one
 * thread), so a read of thread k's value that got the adjoint g here
 * sends g back to thread k: every thread puts its g into a region of its
 * own, and thread k adds up the block's, the threads taking the same k
 * at once (tile code is block-uniform).  Thread k's adjoint of v is then
 * the sum of what every thread's copy of the tile gave it: Warp's, where
 * adj_tile(x) takes the thread's slot of the tile's adjoint.  The
 * adjoint kernel replays the forward before its reverse and re-reads the
 * exchanged values in the reverse of a tile loop (tile_run), so each
 * exchange gets a region of its own there (xchg_region) and no later
 * exchange overwrites it; the adjoints going back share one region
 * (xchg_rev).  The tangent puts v's tangent into a second region next to
 * v's and reads thread k's from it.  The exchange back
 * has barriers, so the lowering reads exchanged floats outside any
 * branch (a scatter's value before its has_value test): a barrier under
 * a condition, even a block-uniform one, kept PoCL's build of a
 * scatter's adjoint from finishing in 5 minutes. */
typedef struct Xchg {
  int off;     /* v's region in the kernel being built */
  int rev;     /* the adjoints' region, or the tangents' */
  IrExpr *val; /* v, an A expression */
} Xchg;

/* A fresh region of the block's exchange buffer for one value of type t
 * per thread (Note [exchange adjoints]). */
static int xchg_region(Ad *D, const Type *t) {
  Compiler *C = D->C;
  int off = (C->xbuf + 15) & ~15;
  C->xbuf = off + C->block * (int)ty_size(t);
  return off;
}

static IrExpr *xchg_call(Ad *D, int bi, const Type *t, IrExpr *a, int off) {
  IrExpr **args = arena_alloc(D->C, sizeof(IrExpr *));
  args[0] = a;
  IrExpr *e = ir_call(D->C, bi, t, 1, args);
  e->ival = (uint64_t)off;
  e->pos = D->pos;
  return e;
}

static void xchg_put_stmt(Ad *D, Seq *s, IrExpr *v, int off) {
  IrStmt *st = ir_stmt(D->C, S_EXPR, D->pos);
  st->a = xchg_call(D, BI_XCHG_PUT, &ty_void, v, off);
  put(s, st);
}

/* The region the adjoints of values of type t go back through: one for
 * every exchange, each use complete between its put's barriers and its
 * sums (Note [exchange adjoints]), grown when t is larger. */
static int xchg_rev(Ad *D, const Type *t) {
  if (!D->xrev_n || D->xrev_n < (int)ty_size(t)) {
    D->xrev = xchg_region(D, t);
    D->xrev_n = (int)ty_size(t);
  }
  return D->xrev;
}

/* The exchange the read e = BI_XCHG_GET(k) of K reads. */
static Xchg *xchg_of(Ad *D, IrExpr *e) {
  Xchg *x = map_get(&D->xchg, (void *)(uintptr_t)(e->ival + 1));
  if (!x)
    refuse(D, "a block exchange read before its values are put");
  return x;
}

/* The put e = BI_XCHG_PUT(v) of K into fw, v (value val) in a fresh
 * region, with one for the adjoints (tangents) of a float v. */
static void xchg_put(Ad *D, Seq *fw, IrExpr *e, IrExpr *val) {
  Xchg *x = arena_alloc(D->C, sizeof(Xchg));
  x->off = xchg_region(D, val->ty);
  x->rev = !fty(val->ty) ? -1
           : D->fwd ? xchg_region(D, val->ty) : xchg_rev(D, val->ty);
  x->val = val;
  xchg_put_stmt(D, fw, val, x->off);
  map_put(D, &D->xchg, (void *)(uintptr_t)(e->ival + 1), x);
}

/* Note [adjoint views]: the array local v is assigned the view e of an
 * array (x_row = x[i], Warp's view): v's adjoint (tangent) array is the same
 * view of that array's adjoint (tangent) array, in the local g (made when
 * NULL), as Warp's adjoint of a view is the view of the adjoint.  A null
 * adjoint array gives a null view (emit/view.c), which the reads and writes
 * then skip.  Returns g, or NULL where the viewed array has none. */
static IrVar *view_local(Ad *D, Seq *fw, IrVar *v, IrExpr *e, IrVar *g) {
  IrVar *src = D->env[kid(D, e->var)];
  IrVar *a = src ? map_get(&D->adjarr, src) : NULL;
  if (!a && g)
    refuse(D, "an array variable assigned a view after an array");
  if (!a)
    return NULL;
  if (a->ty->priv && !D->fwd) /* Note [adjoint fixed arrays] */
    refuse(D, "a view of a fixed-size float array (Warp 1.19's adjoint "
              "drops the gradients through it)");
  if (!g)
    g = newvar(D, D->fwd ? "tanf" : "adjf", e->ty);
  IrExpr *n = ir_expr(D->C, E_VIEW, e->ty);
  *n = *e;
  n->var = a;
  n->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)(e->nargs ? e->nargs : 1));
  for (int i = 0; i < e->nargs; i++)
    n->args[i] = clone(D, fw, e->args[i]);
  assign(D, fw, g, n);
  map_put(D, &D->adjarr, v, g);
  return g;
}

/* Note [adjoint fixed arrays]: a fixed-size local array (wp.zeros() in
 * a kernel, lower/check_fixed.c) is v = BI_FIXED_ZEROS(storage), a view
 * of a hidden storage local.  Its adjoint follows Warp 1.19, whose
 * backward kernel holds the array and its adjoint as locals:
 *  - the replay makes the array again, zeroed, and performs no store
 *    into it (as into any array), so its elements read zero there and a
 *    reverse rule that reads them (t[k] * t[k]) gives what Warp gives,
 *    not the derivative (fixed_replay.py); where the values do not matter
 *    (sums, products by constants) the gradient is the derivative;
 *  - its adjoint is a second array of the same shape, zeroed once at the
 *    adjoint kernel's start (Warp's adjoint local), or at each end of a
 *    @wp.func's reverse (Warp's adjoint function zeroes its own at each
 *    call); a read t[k] adds into adj_t[k] (plainly: it is the thread's
 *    own), a store t[k] = v adds adj_t[k] into v's adjoint and leaves it
 *    (Warp clears only an array's .grad, which a local array has none
 *    of), an atomic t[k] += v passes adj_t[k] to v as on any array.
 *    The lowering writes t[k] += v and wp.atomic_add(t, k, v) as a load
 *    and a store (one thread's array needs no atomic); fixed_update finds
 *    them again through the expansion's temporaries, so a user's own
 *    o = t[k]; t[k] = o + v is taken for the atomic too (Warp would add
 *    the load's adjoint as well).
 * Refused, where Warp 1.19's adjoint is not the derivative for reasons
 * of its own: an array of more than one dimension (its adjoint array is
 * made one-dimensional, strides 0 past the first, so the elements of a
 * row share one gradient), and a view of the array (t[1], a slice: the
 * view's adjoint is an empty array, so the gradients through it are
 * dropped).  An integer array needs neither and is replayed as above.
 * Forward mode is exact: the tangent kernel performs the stores, and the
 * tangent is a second array, zeroed with the array at each wp.zeros(). */

/* Note [tile adjoints]: a tile (lower/check_tile.c) is a fixed array
 * marked Type.tile, and its builtins arrive as loops over its elements
 * (each marked IrStmt.tile).  Warp 1.19's backward kernel replays a
 * tile's operations for real and each tile builtin's adjoint is its
 * derivative (adj_tile_load adds into the array's .grad, adj_tile_matmul
 * adds adj_C B^T and A^T adj_C, ...), so a tile differs from a fixed
 * array (Note [adjoint fixed arrays]) in three ways, and the element
 * loops' ordinary rules then give Warp's gradient:
 *  - the replay performs the stores into a tile (tile_replay_store), so
 *    its elements hold their values there; a tile loop Warp would not
 *    unroll is run forward into the replay (tile_run, as grad_loop runs
 *    a loop; the variables it carries, a reduction's accumulator, hold
 *    their values after it), and the replay of its body in its reverse
 *    loop stores nothing again (tile_rev), since the tile holds its
 *    values already and a matmul's `out` would be added into twice;
 *  - its adjoint is a local of the tile's shape (any number of
 *    dimensions), zeroed at the kernel's start;
 *  - a store t[k] = v passes adj_t[k] to v and clears it, as an
 *    overwritten element's adjoint is (an update t[k] += v leaves it).
 * The lowering makes each tile builtin's result a fresh tile, which
 * nothing writes after, so the values the reverse rules read are the
 * ones the forward computed.  The tile of old values tile_atomic_add
 * returns is not replayed (the replay performs no atomic) and a read of
 * it is refused (tile_read).  A builtin whose adjoint is not built here
 * is refused where its lowering starts (IrStmt.noadj, lower/check_tile.c
 * lists the others): Warp 1.19's tile_reduce, tile_min, tile_max, scans,
 * sort and solvers have no adjoint (their gradient there is zero), its
 * tile_full gives a value that is not a literal no gradient, and the
 * rest are not checked against Warp's yet.  An integer tile (the index
 * tile_argmax returns) is replayed as a float one, for the reads that
 * follow.  The tangent needs none
 * of this: the tangent kernel performs every store, so it is the fixed
 * arrays' (Note [adjoint fixed arrays]). */

static bool is_fixed_zeros(const IrExpr *e) {
  return e->kind == E_CALL && e->bi == BI_FIXED_ZEROS;
}

/* The replay's storage of the fixed array e makes, or of the storage e
 * passed for a @wp.func's result (k_fret, lower/check_fixed.c): a fresh
 * one in each inlined call of a @wp.func, whose locals start unset. */
static void fixed_replay_storage(Ad *D, IrExpr *e) {
  IrVar *ks = e->kind == E_VAR ? e->var : e->args[0]->var;
  int id = kid(D, ks);
  if (!D->env[id])
    D->env[id] = ir_var(D->C, D->A, ks->name, ks->ty);
}

/* v = BI_FIXED_ZEROS(storage) (Note [adjoint fixed arrays]): v's adjoint
 * (tangent) array, in g (made when NULL); NULL for integers. */
static IrVar *fixed_local(Ad *D, Seq *fw, IrVar *v, IrExpr *e, IrVar *g) {
  IrVar *ks = e->args[0]->var;
  if (!fty(e->ty->elem))
    return NULL;
  IrExpr *z = ir_expr(D->C, E_CALL, e->ty);
  *z = *e;
  z->args = arena_alloc(D->C, sizeof(IrExpr *));
  if (D->fwd) {
    IrVar *ts = map_get(&D->fixed, ks);
    if (!ts) {
      ts = ir_var(D->C, D->A, "tanfx", ks->ty);
      map_put(D, &D->fixed, ks, ts);
    }
    if (!g)
      g = newvar(D, "tanf", e->ty);
    z->args[0] = ref(D, ts);
    assign(D, fw, g, z);
    map_put(D, &D->adjarr, v, g);
    return g;
  }
  if (e->ty->ndim > 1 && !e->ty->tile) /* Note [tile adjoints] */
    refuse(D, "a fixed-size float array of more than one dimension (Warp "
              "1.19's adjoint adds the gradients of a row's elements into "
              "one)");
  IrStmt *mk = map_get(&D->fixed, ks);
  if (!mk) {
    z->args[0] = ref(D, ir_var(D->C, D->A, "adjfx", ks->ty));
    mk = ir_stmt(D->C, S_ASSIGN, D->pos);
    mk->var = ir_var(D->C, D->A, "adjf", e->ty);
    mk->a = z;
    put(&D->fixpro, mk);
    map_put(D, &D->fixed, ks, mk);
  }
  map_put(D, &D->adjarr, v, mk->var);
  return mk->var;
}

/* The end of a @wp.func's reverse sweep, in rv before its statement
 * after (Note [adjoint fixed arrays]): the adjoints of F's fixed arrays
 * zeroed again. */
static void fixed_after(Ad *D, IrFunc *F, Seq *rv, IrStmt *after) {
  Seq c;
  seq_init(&c);
  for (IrVar *v = F->locals; v; v = v->next) {
    IrStmt *mk = v->ty->kind == TY_ARRAY && v->ty->fixed_n
                     ? map_get(&D->fixed, v) : NULL;
    if (mk)
      assign(D, &c, mk->var, mk->a);
  }
  if (!c.head)
    return;
  if (rv->head == after) {
    prepend(rv, &c);
    return;
  }
  IrStmt *p = rv->head;
  while (p->next != after)
    p = p->next;
  *c.tail = after;
  p->next = c.head;
  if (!after)
    rv->tail = c.tail;
}

/* Note [struct leaves]: the array local v (of the adjoint or tangent
 * kernel) is assigned the array e of the kernel, a variable or a field of
 * a struct parameter: v's adjoint (tangent) array is that variable's, or
 * the same field of the parameter's adjoint (tangent) struct, put in the
 * local g (made when NULL).  Returns g, or NULL where e has none (a view),
 * whose reads and writes are refused. */
static IrVar *array_local(Ad *D, Seq *fw, IrVar *v, IrExpr *e, IrVar *g) {
  if (is_fixed_zeros(e))
    return fixed_local(D, fw, v, e, g);
  if (e->kind == E_VIEW)
    return view_local(D, fw, v, e, g);
  IrExpr *r = field_root(e);
  IrVar *src = r ? D->env[kid(D, r->var)] : NULL;
  IrVar *a = src ? map_get(&D->adjarr, src) : NULL;
  if (!a && g)
    refuse(D, "an array variable assigned a view after an array");
  if (!a)
    return NULL;
  if (e->kind == E_VAR && !g && !D->fwd) {
    map_put(D, &D->adjarr, v, a);
    return a;
  }
  if (!g)
    g = newvar(D, D->fwd ? "tanf" : "adjf", e->ty);
  assign(D, fw, g, same_chain(D, e, a));
  map_put(D, &D->adjarr, v, g);
  return g;
}

/* e with its variables renamed to their current versions: the
 * non-differentiable parts (integers, comparisons, indices). */
static IrExpr *clone(Ad *D, Seq *fw, IrExpr *e) {
  if (!e)
    return NULL;
  switch (e->kind) {
  case E_ATOMIC:
    refuse(D, "the value an atomic returns");
  case E_FCALL:
    refuse(D, "a call of a user function (@wp.func)");
  case E_FIELD: /* of a kernel's struct parameter (Note [struct leaves]) */
    if (!field_root(e) && !elem_root(e))
      refuse(D, "a field of this struct value");
    break;
  case E_VIEW: /* the view itself (Note [adjoint views]) */
    break;
  case E_ADDR:
    refuse(D, "wp.address_of");
  default:
    break;
  }
  IrExpr *n = ir_expr(D->C, e->kind, e->ty);
  *n = *e;
  if (e->kind == E_VAR) {
    n->var = D->env[kid(D, e->var)];
    if (!n->var && map_get(&D->atomres, e->var))
      refuse(D, "the value an atomic returns");
    if (!n->var)
      refuse(D, arena_printf(D->C, "a variable read before it is assigned (%s)",
                             e->var->name));
    return n;
  }
  if (e->kind == E_LOAD)
    tile_read(D, e->var);
  if (e->kind == E_CALL && e->bi == BI_XCHG_GET) /* Note [exchange adjoints] */
    n->ival = (uint64_t)xchg_of(D, e)->off;
  if ((e->kind == E_LOAD || e->kind == E_SHAPE || e->kind == E_VIEW) && e->var)
    n->var = D->env[kid(D, e->var)];
  n->a = clone(D, fw, e->a);
  n->b = clone(D, fw, e->b);
  n->c = clone(D, fw, e->c);
  if (e->nargs) {
    n->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++)
      n->args[i] = clone(D, fw, e->args[i]);
  }
  return n;
}

/* The indices of a load, store or atomic, each in a local. */
static IrExpr **indices(Ad *D, Seq *fw, IrExpr **args, int n) {
  IrExpr **r = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    r[i] = tmp(D, fw, clone(D, fw, args[i]));
  return r;
}

static IrExpr *nonnull(Ad *D, IrVar *arr) {
  IrExpr *e = ir_expr(D->C, E_SHAPE, ty_scalar(KERN_SCALAR_BOOL));
  e->var = arr;
  e->ival = IR_NONNULL;
  return e;
}

static IrExpr *load(Ad *D, IrVar *arr, IrExpr **idx, int n, const Type *t,
                    Pos pos) {
  IrExpr *e = ir_expr(D->C, E_LOAD, t);
  e->var = arr;
  e->args = idx;
  e->nargs = n;
  e->pos = pos;
  return e;
}

static IrStmt *guarded(Ad *D, IrVar *adjarr, Seq *body) {
  IrStmt *s = ir_stmt(D->C, S_IF, D->pos);
  s->a = nonnull(D, adjarr);
  s->body = body->head;
  return s;
}

/* The adjoint array of the array variable karr (a kernel parameter, or a
 * function's parameter bound to one). */
static IrVar *adj_array(Ad *D, IrVar *karr) {
  IrVar *a = D->env[kid(D, karr)];
  IrVar *g = a ? map_get(&D->adjarr, a) : NULL;
  if (!g)
    refuse(D, "an array that is not a kernel parameter");
  return g;
}

static IrExpr *node(Ad *D, Seq *fw, IrExpr *e) {
  IrVar *v = newvar(D, "t", e->ty);
  assign(D, fw, v, e);
  return ref(D, v);
}

/* Note [arrays of structs]: a field of an element of an array of structs
 * (a[i].f, a[i].inner.v, reaching the expansion as a chain of E_FIELDs
 * on the E_LOAD of the element, see Note [aos leaves] for the whole
 * element) is differentiated as an array element is, through the same
 * field of the adjoint (tangent) array's element, which is an array of
 * the same structs (Warp's a.grad): a read adds its adjoint into
 * adj_a[i].f atomically (E_ATOMIC's field path), a store a[i].f = v
 * (S_SETFIELD on the element) adds adj_a[i].f into v's adjoint and
 * clears that field only, as Warp's adjoint of a store into a slot of an
 * element does under wp.Tape (an integer field's too); the other fields
 * are left alone.  A store into a constant component of a vector or
 * matrix field (a[i].v[0] = x, and each component of a vector field
 * stored whole: Note [aos leaves]) is the same on that component, as in
 * Warp.  In forward mode a read also reads tan_a[i].f and a store also
 * stores the tangent into tan_a[i].f. */

/* The E_LOAD under the chain of struct fields e (at least one), or NULL. */
static IrExpr *elem_root(IrExpr *e) {
  if (e->kind != E_FIELD)
    return NULL;
  while (e->kind == E_FIELD)
    e = e->a;
  return e->kind == E_LOAD ? e : NULL;
}

/* The chain of fields (and a component) e on root instead of e's
 * element. */
static IrExpr *elem_chain(Ad *D, IrExpr *e, IrExpr *root) {
  if (e->kind != E_FIELD && e->kind != E_COMP)
    return root;
  IrExpr *n = ir_expr(D->C, e->kind, e->ty);
  *n = *e;
  n->a = elem_chain(D, e->a, root);
  return n;
}

/* The chain of fields e as field indices from the element (E_ATOMIC's
 * fpath). */
static int *elem_path(Ad *D, IrExpr *e, int *n) {
  *n = 0;
  for (IrExpr *f = e; f->kind == E_FIELD; f = f->a)
    (*n)++;
  int *p = arena_alloc(D->C, sizeof(int) * (size_t)*n), k = *n;
  for (IrExpr *f = e; f->kind == E_FIELD; f = f->a)
    p[--k] = (int)f->ival;
  return p;
}

/* The element under the left side lv of a store into a field (or into a
 * constant component of one) of an array's element, or NULL. */
static IrExpr *store_root(IrExpr *lv) {
  if (lv->kind == E_COMP && (lv->b->kind != E_CONST ||
                             (lv->c && lv->c->kind != E_CONST)))
    return NULL;
  return elem_root(lv->kind == E_COMP ? lv->a : lv);
}

/* The chain e on the element idx of arr, ld being e's element. */
static IrExpr *elem_at(Ad *D, IrExpr *e, IrExpr *ld, IrVar *arr,
                       IrExpr **idx) {
  return elem_chain(D, e, load(D, arr, idx, ld->nargs, ld->ty, ld->pos));
}

/* a[i].f (Note [arrays of structs]): replayed; its adjoint added into
 * adj_a[i].f. */
static IrExpr *aos_read(Ad *D, Seq *fw, Seq *rv, IrExpr *e) {
  IrExpr *ld = elem_root(e);
  IrExpr **idx = indices(D, fw, ld->args, ld->nargs);
  IrExpr *r = node(D, fw, elem_at(D, e, ld, D->env[kid(D, ld->var)], idx));
  IrVar *adjarr = adj_array(D, ld->var);
  IrExpr *at = ir_expr(D->C, E_ATOMIC, e->ty);
  at->bi = BI_ATOMIC_ADD;
  at->var = adjarr;
  at->args = idx;
  at->nargs = ld->nargs;
  at->c = adjx(D, r->var);
  at->pos = ld->pos;
  at->fpath = elem_path(D, e, &at->nfpath);
  IrStmt *st = ir_stmt(D->C, S_EXPR, D->pos);
  st->a = at;
  Seq body, c;
  seq_init(&body);
  seq_init(&c);
  put(&body, st);
  put(&c, guarded(D, adjarr, &body));
  prepend(rv, &c);
  return r;
}

/* a[i].f[k] (a component of a vector or matrix field, constant k). */
static IrExpr *aos_comp(Ad *D, Seq *fw, Seq *rv, IrExpr *e) {
  IrExpr *a = aos_read(D, fw, rv, e->a);
  IrExpr *n = ir_expr(D->C, E_COMP, e->ty);
  *n = *e;
  n->a = a;
  IrExpr *r = node(D, fw, n);
  Seq c;
  seq_init(&c);
  acc_comp(D, &c, a, e->b, e->c, adjx(D, r->var));
  prepend(rv, &c);
  return r;
}

/* a[i].f = v (Note [arrays of structs]): v's adjoint takes adj_a[i].f,
 * which is cleared. */
static void aos_store(Ad *D, IrStmt *s, Seq *fw, Seq *rv) {
  IrExpr *ld = store_root(s->a);
  if (!ld)
    refuse(D, "this assignment into an array of structs' element");
  IrExpr **idx = indices(D, fw, ld->args, ld->nargs);
  IrVar *adjarr = adj_array(D, s->var);
  Seq body, c;
  seq_init(&body);
  seq_init(&c);
  if (!fty(s->c->ty)) { /* an integer field's adjoint is cleared too */
    (void)clone(D, fw, s->c); /* refuses what has no rule */
    if (s->c->ty->kind != TY_SCALAR)
      return;
    IrStmt *z = ir_stmt(D->C, S_SETFIELD, s->pos);
    z->var = adjarr;
    z->a = elem_at(D, s->a, ld, adjarr, idx);
    z->c = ir_const_int(D->C, s->c->ty, 0);
    put(&body, z);
    put(&c, guarded(D, adjarr, &body));
    prepend(rv, &c);
    return;
  }
  IrExpr *v = dval(D, fw, rv, s->c);
  IrVar *g = newvar(D, "g", s->c->ty);
  assign(D, &body, g, elem_at(D, s->a, ld, adjarr, idx));
  IrStmt *z = ir_stmt(D->C, S_SETFIELD, s->pos);
  z->var = adjarr;
  z->a = elem_at(D, s->a, ld, adjarr, idx);
  z->c = zero_of(D, s->c->ty);
  put(&body, z);
  acc(D, &body, v, ref(D, g));
  put(&c, guarded(D, adjarr, &body));
  prepend(rv, &c);
}

static bool is_float_scalar(const Type *t) {
  return t && t->kind == TY_SCALAR && fty(t);
}

static IrExpr *sel(Ad *D, IrExpr *k, IrExpr *a, IrExpr *b) {
  IrExpr *s = ir_expr(D->C, E_SELECT, a->ty);
  s->a = k;
  s->b = a;
  s->c = b;
  return s;
}

/* Note [zero adjoints]: the statements of body under `if (g != 0)`.  A
 * selection's branch not taken still has its reverse rules run, with a
 * zero adjoint; a rule whose partial derivative is infinite there (g / b
 * with b = 0 in normalize's unused branch, 1 / sqrt(0)) would make 0 *
 * inf = NaN of the zero.  Warp does not evaluate the branch not taken, so
 * a zero adjoint contributes nothing here either; a NaN adjoint still
 * passes (NaN != 0). */
static IrStmt *if_nonzero(Ad *D, IrExpr *g, Seq *body) {
  IrStmt *s = ir_stmt(D->C, S_IF, D->pos);
  s->a = bin(D, OP_NE, g, fconst(D, g->ty, 0));
  s->body = body->head;
  return s;
}

/* Does Warp's adj_min (adj_max) give the adjoint to a rather than b?  a
 * NaN loses; then a < b (a > b); a tie goes to b. */
static IrExpr *min_pick(Ad *D, int bi, IrExpr *a, IrExpr *b) {
  IrExpr *an = bin(D, OP_NE, a, a), *bn = bin(D, OP_NE, b, b);
  IrExpr *lt = bin(D, bi == BI_MIN ? OP_LT : OP_GT, a, b);
  IrExpr *o = ir_expr(D->C, E_OR, ty_scalar(KERN_SCALAR_BOOL));
  o->a = bn;
  o->b = lt;
  IrExpr *n = ir_expr(D->C, E_NOT, ty_scalar(KERN_SCALAR_BOOL));
  n->a = an;
  IrExpr *r = ir_expr(D->C, E_AND, ty_scalar(KERN_SCALAR_BOOL));
  r->a = n;
  r->b = o;
  return r;
}

static void minmax(Ad *D, Seq *c, int bi, IrExpr *a, IrExpr *b, IrExpr *g) {
  const Type *t = g->ty;
  IrExpr *k = tmp(D, c, min_pick(D, bi, a, b));
  acc(D, c, a, sel(D, k, g, fconst(D, t, 0)));
  acc(D, c, b, sel(D, k, fconst(D, t, 0), g));
}

/* Warp's partials of the error functions, times g (the adjoint, or in
 * forward mode the tangent): erf, erfc: +-2/sqrt(pi) exp(-x^2); erfinv,
 * erfcinv: +-sqrt(pi)/2 exp(r^2), from the result r. */
static IrExpr *erf_partial(Ad *D, int bi, IrExpr *a, IrExpr *r, IrExpr *g) {
  const Type *t = r->ty;
  bool inv = bi == BI_ERFINV || bi == BI_ERFCINV;
  IrExpr *e = inv ? call1(D, BI_EXP, bin(D, OP_MUL, r, r))
                  : call1(D, BI_EXP, ir_unary(D->C, OP_NEG, bin(D, OP_MUL, a, a)));
  IrExpr *k = fconst(D, t, inv ? 0.88622692545275801365 : 1.12837916709551257390);
  IrExpr *d = bin(D, OP_MUL, bin(D, OP_MUL, k, e), g);
  return bi == BI_ERFC || bi == BI_ERFCINV ? ir_unary(D->C, OP_NEG, d) : d;
}

/* Do a and b have the same sign bit (Warp's adj_copysign compares
 * copysign(1, a) with copysign(1, b), so -0 counts as negative)? */
static IrExpr *same_sign(Ad *D, IrExpr *a, IrExpr *b) {
  const Type *t = a->ty;
  return bin(D, OP_EQ, ir_call2(D->C, BI_COPYSIGN, t, fconst(D, t, 1), a),
             ir_call2(D->C, BI_COPYSIGN, t, fconst(D, t, 1), b));
}

/* The rule of one scalar math builtin: g is the adjoint of r = f(x[, y]),
 * the partials go into the arguments' adjoints. */
static void call_rule(Ad *D, Seq *c, int bi, IrExpr *r, IrExpr **x, int n,
                      IrExpr *g) {
  const Type *t = r->ty;
  IrExpr *a = x[0], *one = fconst(D, t, 1);
  switch (bi) {
  case BI_SQRT: /* g / (2 sqrt x) */
    acc(D, c, a, bin(D, OP_DIV, g, bin(D, OP_MUL, fconst(D, t, 2), r)));
    return;
  case BI_CBRT: /* g / (3 r^2) */
    acc(D, c, a, bin(D, OP_DIV, g, bin(D, OP_MUL, fconst(D, t, 3),
                                       bin(D, OP_MUL, r, r))));
    return;
  case BI_EXP:
    acc(D, c, a, bin(D, OP_MUL, g, r));
    return;
  case BI_EXP2:
    acc(D, c, a, bin(D, OP_MUL, g, bin(D, OP_MUL, r, fconst(D, t, 0.69314718055994530942))));
    return;
  case BI_LOG:
    acc(D, c, a, bin(D, OP_DIV, g, a));
    return;
  case BI_LOG2:
    acc(D, c, a, bin(D, OP_DIV, g, bin(D, OP_MUL, a, fconst(D, t, 0.69314718055994530942))));
    return;
  case BI_LOG10:
    acc(D, c, a, bin(D, OP_DIV, g, bin(D, OP_MUL, a, fconst(D, t, 2.30258509299404568402))));
    return;
  case BI_SIN:
    acc(D, c, a, bin(D, OP_MUL, g, call1(D, BI_COS, a)));
    return;
  case BI_COS:
    acc(D, c, a, ir_unary(D->C, OP_NEG, bin(D, OP_MUL, g, call1(D, BI_SIN, a))));
    return;
  case BI_TAN: { /* g / cos^2 */
    IrExpr *co = call1(D, BI_COS, a);
    acc(D, c, a, bin(D, OP_DIV, g, bin(D, OP_MUL, co, co)));
    return;
  }
  case BI_SINH:
    acc(D, c, a, bin(D, OP_MUL, g, call1(D, BI_COSH, a)));
    return;
  case BI_COSH:
    acc(D, c, a, bin(D, OP_MUL, g, call1(D, BI_SINH, a)));
    return;
  case BI_TANH:
    acc(D, c, a, bin(D, OP_MUL, g, bin(D, OP_SUB, one, bin(D, OP_MUL, r, r))));
    return;
  case BI_ASIN: case BI_ACOS: { /* +-g / sqrt(1 - x^2) */
    IrExpr *rt = tmp(D, c, call1(D, BI_SQRT, bin(D, OP_SUB, one, bin(D, OP_MUL, a, a))));
    /* none where the root is not > 0 (|x| = 1: Warp adds nothing) */
    IrExpr *d = sel(D, bin(D, OP_GT, rt, fconst(D, t, 0)), bin(D, OP_DIV, g, rt),
                    fconst(D, t, 0));
    acc(D, c, a, bi == BI_ASIN ? d : ir_unary(D->C, OP_NEG, d));
    return;
  }
  case BI_ATAN:
    acc(D, c, a, bin(D, OP_DIV, g, bin(D, OP_ADD, one, bin(D, OP_MUL, a, a))));
    return;
  case BI_ATAN2: { /* r = atan2(y=a, x=b) */
    IrExpr *b = x[1];
    IrExpr *den = bin(D, OP_ADD, bin(D, OP_MUL, a, a), bin(D, OP_MUL, b, b));
    acc(D, c, a, bin(D, OP_DIV, bin(D, OP_MUL, g, b), den));
    acc(D, c, b, ir_unary(D->C, OP_NEG, bin(D, OP_DIV, bin(D, OP_MUL, g, a), den)));
    return;
  }
  case BI_ABS: /* Warp: x < 0: -g, else g */
    acc(D, c, a, sel(D, bin(D, OP_LT, a, fconst(D, t, 0)),
                     ir_unary(D->C, OP_NEG, g), g));
    return;
  case BI_MIN: case BI_MAX: /* Warp's adj_min/adj_max (ties: the second) */
    minmax(D, c, bi, a, x[1], g);
    return;
  case BI_CLAMP: { /* Warp: clamp = min(max(lo, x), hi), by their rules */
    IrExpr *lo = x[1], *hi = x[2];
    IrVar *gm = ir_var(D->C, D->A, "gm", t);
    IrExpr *m = tmp(D, c, ir_call2(D->C, BI_MAX, t, lo, a));
    /* adj_min(m, hi): the part for m goes to gm */
    IrExpr *pick = tmp(D, c, min_pick(D, BI_MIN, m, hi));
    assign(D, c, gm, sel(D, pick, g, fconst(D, t, 0)));
    acc(D, c, hi, sel(D, pick, fconst(D, t, 0), g));
    minmax(D, c, BI_MAX, lo, a, ref(D, gm));
    return;
  }
  case BI_FLOOR: case BI_CEIL: case BI_TRUNC: case BI_ROUND: case BI_RINT:
  case BI_SIGN: case BI_STEP: case BI_OP_FLOORDIV:
    return; /* piecewise constant: no gradient (Warp) */
  case BI_FRAC: /* Warp's adj_frac adds nothing */
    return;
  case BI_FMA: /* r = a b + c */
    acc(D, c, a, bin(D, OP_MUL, g, x[1]));
    acc(D, c, x[1], bin(D, OP_MUL, g, a));
    acc(D, c, x[2], g);
    return;
  case BI_STOP_GRADIENT: /* Note [edge adjoint] in expand.c */
    return;
  case BI_POW: case BI_OP_POW: { /* r = a^b */
    IrExpr *b = x[1];
    /* d/da = b a^(b-1); d/db = log(a) r (Warp guards a > 0) */
    IrExpr *pa = ir_call2(D->C, BI_POW, t, a, bin(D, OP_SUB, b, one));
    acc(D, c, a, bin(D, OP_MUL, g, bin(D, OP_MUL, b, pa)));
    acc(D, c, b, bin(D, OP_MUL, bin(D, OP_MUL, call1(D, BI_LOG, a), r), g));
    (void)n;
    return;
  }
  case BI_ERF: case BI_ERFC: /* +-g 2/sqrt(pi) exp(-x^2) */
  case BI_ERFINV: case BI_ERFCINV: /* +-g sqrt(pi)/2 exp(r^2) */
    acc(D, c, a, erf_partial(D, bi, a, r, g));
    return;
  case BI_COPYSIGN: /* Warp: +g where the sign bits agree, else -g; y none */
    acc(D, c, a, sel(D, same_sign(D, a, x[1]), g, ir_unary(D->C, OP_NEG, g)));
    return;
  case BI_MOD: case BI_OP_MOD: /* Warp: adj_a += g; b gets none */
    acc(D, c, a, g);
    return;
  default:
    refuse(D, arena_printf(D->C, "wp.%s", bi < BI_COUNT ? builtin_names[bi]
                                                          : "(an operator)"));
  }
}

/* ---------------------------------------------------------------- linalg */

/* Note [linalg adjoints]: wp.svd3, svd2, qr3 and eig3 are not
 * differentiated through their iterations: Warp's adjoint of each is a
 * closed formula in its results (native/svd.h), and kern applies the same
 * formulas.  The decompositions reach the adjoint whole: the lowering
 * makes each result a call svd3(A, i) (lower/check_linalg.c), keep_expr
 * marks those calls IR_KEEP_CALL and the expansion hands A on whole and
 * the result in a temporary (expand.c), so the adjoint sees one call per
 * result, with the result's adjoint g.  Warp's formulas are linear in
 * the results' adjoints, so each result's part is added on its own:
 *
 *  - svd (A = U S V^T, S = diag(sigma)): with F_ij = 1 / min(s_j^2 -
 *    s_i^2, -eps) above the diagonal and -F_ji below (eps Warp's
 *    SVD_EPSILON: 1e-6, float64 1e-12; the min keeps near-equal singular
 *    values finite), U's part is U (F o (U^T g - g^T U)) S V^T, sigma's
 *    U diag(g) V^T and V's U S (F o (V^T g - g^T V)) V^T.
 *  - qr3 (A = Q R): with L(M) the symmetric matrix of M's lower triangle,
 *    Q's part is (g + Q L(-g^T Q)) R^-T and R's Q L(R g^T) R^-T (R^-1
 *    zero where det R is 0, as Warp's inverse).
 *  - eig3 (Q, d): with F_ij = 1 / (d_j - d_i) above the diagonal, the
 *    difference moved out to +-1e-6 when it is nearer 0 (not when it is
 *    0), Q's part is Q (F o (Q^T g)) Q^T and d's Q diag(g) Q^T (Warp
 *    leaves out Q's term when Q's adjoint is zero; here it is its own
 *    part).
 *
 * These are Warp's gradients, not always the derivatives of the
 * algorithms: eig3 reads only A's lower triangle, while its adjoint is
 * the derivative for symmetric changes of A.  The tangent (forward mode)
 * is the transpose of each formula, so that <J v, w> = <v, J^T w> holds:
 * with P = U^T dA V, dU = U (F o (P S + S P^T)), dsigma = diag(P), dV =
 * V (F o (S P + P^T S)); with W = dA R^-1, G = Q^T W and T the upper
 * triangle of G + G^T with G's diagonal, dQ = W - Q T and dR = T R; with
 * P = Q^T dA Q, dQ = Q (F o P) and dd = diag(P). */

static bool is_linalg(int bi) {
  return bi == BI_SVD3 || bi == BI_SVD2 || bi == BI_QR3 || bi == BI_EIG3;
}

/* An n x n matrix of scalar values (locals or constants), row by row. */
typedef struct Lm {
  IrExpr *e[9];
  int n;
  const Type *t; /* the scalar type */
} Lm;

static Lm lm_new(const Type *t, int n) {
  Lm m;
  memset(&m, 0, sizeof m);
  m.n = n;
  m.t = t;
  return m;
}

/* The components of the aggregate value x (a matrix, or a vector as its
 * diagonal matrix) in locals of s. */
static Lm lm_of(Ad *D, Seq *s, IrExpr *x, int n) {
  Lm m = lm_new(ty_scalar(x->ty->sc), n);
  x = tmp(D, s, x);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      m.e[i * n + j] = x->ty->kind == TY_MAT ? tmp(D, s, comp(D, x, i * n + j))
                       : i == j ? tmp(D, s, comp(D, x, i)) : fconst(D, m.t, 0);
  return m;
}

/* a b, with a (b) transposed where ta (tb) */
static Lm lm_mul(Ad *D, Seq *s, Lm a, bool ta, Lm b, bool tb) {
  int n = a.n;
  Lm r = lm_new(a.t, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      IrExpr *v = NULL;
      for (int k = 0; k < n; k++) {
        IrExpr *x = ta ? a.e[k * n + i] : a.e[i * n + k];
        IrExpr *y = tb ? b.e[j * n + k] : b.e[k * n + j];
        IrExpr *p = bin(D, OP_MUL, x, y);
        v = v ? bin(D, OP_ADD, v, p) : p;
      }
      r.e[i * n + j] = tmp(D, s, v);
    }
  return r;
}

/* a + sb b^T where sb is +-1 (0: a alone) */
static Lm lm_addt(Ad *D, Seq *s, Lm a, Lm b, int sb) {
  int n = a.n;
  Lm r = lm_new(a.t, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      IrExpr *y = b.e[j * n + i];
      r.e[i * n + j] = sb == 0 ? a.e[i * n + j]
                       : tmp(D, s, bin(D, sb > 0 ? OP_ADD : OP_SUB, a.e[i * n + j], y));
    }
  return r;
}

/* a with each entry times f's (f o a) */
static Lm lm_cw(Ad *D, Seq *s, Lm f, Lm a) {
  Lm r = lm_new(a.t, a.n);
  for (int k = 0; k < a.n * a.n; k++)
    r.e[k] = tmp(D, s, bin(D, OP_MUL, f.e[k], a.e[k]));
  return r;
}

/* d a (rows scaled, left) or a d (columns scaled), d diagonal */
static Lm lm_diagmul(Ad *D, Seq *s, Lm d, Lm a, bool left) {
  int n = a.n;
  Lm r = lm_new(a.t, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      r.e[i * n + j] = tmp(D, s, bin(D, OP_MUL, a.e[i * n + j],
                                     d.e[left ? i * n + i : j * n + j]));
  return r;
}

static IrExpr *lm_make(Ad *D, Lm m, const Type *t) {
  IrExpr *r = ir_expr(D->C, E_MAKE, t);
  r->nargs = ncomp(t);
  r->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)r->nargs);
  for (int k = 0; k < r->nargs; k++)
    r->args[k] = t->kind == TY_MAT ? m.e[k] : m.e[k * m.n + k];
  return r;
}

static IrExpr *and2(Ad *D, IrExpr *a, IrExpr *b) {
  IrExpr *r = ir_expr(D->C, E_AND, ty_scalar(KERN_SCALAR_BOOL));
  r->a = a;
  r->b = b;
  return r;
}

/* Result i of the decomposition bi of x (kept whole, Note [linalg
 * adjoints]), in a local of s. */
static IrExpr *lin_part(Ad *D, Seq *s, int bi, IrExpr *x, int i) {
  int n = x->ty->rows;
  bool vec = i == 1 && bi != BI_QR3;
  const Type *t = vec ? ty_vec(D->C, x->ty->sc, n) : x->ty;
  IrExpr *args[2] = {x, icst(D, i)};
  IrExpr *c = ir_call(D->C, bi, t, 2, args);
  c->ival = IR_KEEP_CALL;
  return tmp(D, s, c);
}

/* Warp's F of the adjoint: antisymmetric, from sigma (svd) or d (eig3)
 * on the diagonal of v. */
static Lm lin_f(Ad *D, Seq *s, int bi, Lm v) {
  int n = v.n;
  const Type *t = v.t;
  Lm f = lm_new(t, n);
  bool f64 = t->sc == KERN_SCALAR_FLOAT64;
  for (int i = 0; i < n; i++) {
    f.e[i * n + i] = fconst(D, t, 0);
    for (int j = i + 1; j < n; j++) {
      IrExpr *a = v.e[i * n + i], *b = v.e[j * n + j], *den;
      if (bi == BI_EIG3) {
        IrExpr *dd = tmp(D, s, bin(D, OP_SUB, b, a));
        IrExpr *z = fconst(D, t, 0), *e = fconst(D, t, 1e-6);
        IrExpr *me = fconst(D, t, -1e-6);
        dd = tmp(D, s, sel(D, and2(D, bin(D, OP_LT, dd, z), bin(D, OP_GT, dd, me)),
                           me, dd));
        den = tmp(D, s, sel(D, and2(D, bin(D, OP_GT, dd, z), bin(D, OP_LT, dd, e)),
                            e, dd));
      } else {
        IrExpr *d = tmp(D, s, bin(D, OP_SUB, bin(D, OP_MUL, b, b), bin(D, OP_MUL, a, a)));
        IrExpr *me = fconst(D, t, f64 ? -1e-12 : -1e-6);
        den = tmp(D, s, sel(D, bin(D, OP_LT, d, me), d, me));
      }
      f.e[i * n + j] = tmp(D, s, bin(D, OP_DIV, fconst(D, t, 1), den));
      f.e[j * n + i] = tmp(D, s, ir_unary(D->C, OP_NEG, f.e[i * n + j]));
    }
  }
  return f;
}

/* Warp's inverse of the 3x3 r: the adjugate over the determinant, zero
 * where the determinant is 0. */
static Lm lin_inverse(Ad *D, Seq *s, Lm r) {
  Lm b = lm_new(r.t, 3);
#define R(i, j) r.e[(i) * 3 + (j)]
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      int a0 = (j + 1) % 3, a1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
      b.e[i * 3 + j] = tmp(D, s, bin(D, OP_SUB, bin(D, OP_MUL, R(a0, c0), R(a1, c1)),
                                     bin(D, OP_MUL, R(a0, c1), R(a1, c0))));
    }
  IrExpr *det = tmp(D, s, bin(D, OP_ADD, bin(D, OP_ADD,
                    bin(D, OP_MUL, R(0, 0), b.e[0]), bin(D, OP_MUL, R(0, 1), b.e[3])),
                    bin(D, OP_MUL, R(0, 2), b.e[6])));
#undef R
  IrExpr *z = fconst(D, r.t, 0);
  IrExpr *rd = tmp(D, s, sel(D, bin(D, OP_NE, det, z),
                             bin(D, OP_DIV, fconst(D, r.t, 1), det), z));
  for (int k = 0; k < 9; k++)
    b.e[k] = tmp(D, s, bin(D, OP_MUL, b.e[k], rd));
  return b;
}

/* L(m): m's lower triangle mirrored above the diagonal */
static Lm lin_lower_sym(Lm m) {
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++)
      m.e[i * 3 + j] = m.e[j * 3 + i];
  return m;
}

/* The adjoint of A from result i's adjoint g (Note [linalg adjoints]). */
static Lm linalg_adj(Ad *D, Seq *s, int bi, IrExpr *x, int i, IrExpr *g) {
  int n = x->ty->rows;
  Lm p0 = lm_of(D, s, lin_part(D, s, bi, x, 0), n);
  Lm p1 = lm_of(D, s, lin_part(D, s, bi, x, 1), n);
  Lm gm = lm_of(D, s, g, n);
  if (bi == BI_QR3) {
    Lm ri = lin_inverse(D, s, p1);
    Lm m = i == 0 ? lm_mul(D, s, gm, true, p0, false) : lm_mul(D, s, p1, false, gm, true);
    for (int k = 0; k < 9 && i == 0; k++)
      m.e[k] = tmp(D, s, ir_unary(D->C, OP_NEG, m.e[k]));
    Lm a = lm_mul(D, s, p0, false, lin_lower_sym(m), false);
    if (i == 0)
      for (int k = 0; k < 9; k++)
        a.e[k] = tmp(D, s, bin(D, OP_ADD, gm.e[k], a.e[k]));
    return lm_mul(D, s, a, false, ri, true);
  }
  if (bi == BI_EIG3) {
    Lm mid = i == 1 ? gm : lm_cw(D, s, lin_f(D, s, bi, p1),
                                 lm_mul(D, s, p0, true, gm, false));
    return lm_mul(D, s, lm_mul(D, s, p0, false, mid, false), false, p0, true);
  }
  Lm v = lm_of(D, s, lin_part(D, s, bi, x, 2), n);
  Lm mid = gm;
  if (i != 1) {
    Lm b = i == 0 ? p0 : v;
    Lm bg = lm_mul(D, s, b, true, gm, false);
    Lm k = lm_addt(D, s, bg, bg, -1);
    k = lm_cw(D, s, lin_f(D, s, bi, p1), k);
    mid = lm_diagmul(D, s, p1, k, i == 2);
  }
  return lm_mul(D, s, lm_mul(D, s, p0, false, mid, false), false, v, true);
}

/* The tangent of result i from A's tangent dx (Note [linalg adjoints]). */
static Lm linalg_tan(Ad *D, Seq *s, int bi, IrExpr *x, int i, IrExpr *dx) {
  int n = x->ty->rows;
  Lm p0 = lm_of(D, s, lin_part(D, s, bi, x, 0), n);
  Lm p1 = lm_of(D, s, lin_part(D, s, bi, x, 1), n);
  Lm da = lm_of(D, s, dx, n);
  if (bi == BI_QR3) {
    Lm w = lm_mul(D, s, da, false, lin_inverse(D, s, p1), false);
    Lm g = lm_mul(D, s, p0, true, w, false);
    Lm t = lm_new(g.t, 3);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        t.e[r * 3 + c] = r > c ? fconst(D, g.t, 0) : r == c ? g.e[r * 3 + c]
                         : tmp(D, s, bin(D, OP_ADD, g.e[r * 3 + c], g.e[c * 3 + r]));
    if (i == 1)
      return lm_mul(D, s, t, false, p1, false);
    Lm qt = lm_mul(D, s, p0, false, t, false);
    for (int k = 0; k < 9; k++)
      qt.e[k] = tmp(D, s, bin(D, OP_SUB, w.e[k], qt.e[k]));
    return qt;
  }
  Lm v = bi == BI_EIG3 ? p0 : lm_of(D, s, lin_part(D, s, bi, x, 2), n);
  Lm p = lm_mul(D, s, lm_mul(D, s, p0, true, da, false), false, v, false);
  if (i == 1) {
    for (int r = 0; r < n; r++)
      for (int c = 0; c < n; c++)
        if (r != c)
          p.e[r * n + c] = fconst(D, p.t, 0);
    return p;
  }
  Lm f = lin_f(D, s, bi, p1);
  if (bi == BI_EIG3)
    return lm_mul(D, s, p0, false, lm_cw(D, s, f, p), false);
  /* U: P S + S P^T; V: S P + P^T S */
  Lm a = lm_diagmul(D, s, p1, p, i == 2);
  Lm k = lm_cw(D, s, f, lm_addt(D, s, a, a, 1));
  return lm_mul(D, s, i == 0 ? p0 : v, false, k, false);
}

/* r = result i of the decomposition e (an adjoint's value, its rule in
 * rv); a tangent's value and *dt its tangent where dt is not NULL. */
static IrExpr *linalg_val(Ad *D, Seq *fw, Seq *rv, IrExpr *e, IrExpr **dt);

/* Is bi Perlin noise (Note [noise adjoints])? */
static bool is_noise(int bi) {
  return bi == BI_NOISE || bi == BI_PNOISE || bi == BI_CURLNOISE;
}

/* r = the noise call e (Note [noise adjoints]): an adjoint's value, its
 * rule in rv; a tangent's value and *dt its tangent where dt is not
 * NULL. */
static IrExpr *noise_val(Ad *D, Seq *fw, Seq *rv, IrExpr *e, IrExpr **dt);

/* The A value of the float expression e; its operations are replayed into
 * fw and their reverse rules go in front of rv. */

/* A read e of a fixed array (Note [adjoint fixed arrays]): its adjoint
 * g added into adjarr[idx], the thread's own array, without an atomic
 * (OpenCL has none on private memory). */
static void fixed_read(Ad *D, Seq *rv, IrVar *adjarr, IrExpr **idx,
                       IrExpr *e, IrExpr *g) {
  Seq c;
  seq_init(&c);
  IrStmt *st = ir_stmt(D->C, S_STORE, D->pos);
  st->var = adjarr;
  st->args = idx;
  st->nargs = e->nargs;
  IrExpr *old = load(D, adjarr, idx, e->nargs, e->ty, e->pos);
  if (is_agg(e->ty)) { /* component by component, in a local */
    IrVar *t = newvar(D, "g", e->ty);
    assign(D, &c, t, old);
    for (int k = 0; k < ncomp(e->ty); k++) {
      IrStmt *sc = ir_stmt(D->C, S_SETCOMP, D->pos);
      sc->var = t;
      IrExpr *tc = comp(D, ref(D, t), k);
      sc->a = tc->b;
      sc->b = tc->c;
      sc->c = bin(D, OP_ADD, tc, comp(D, g, k));
      put(&c, sc);
    }
    st->c = ref(D, t);
  } else {
    st->c = bin(D, OP_ADD, old, g);
  }
  put(&c, st);
  prepend(rv, &c);
}

static IrExpr *kresolve(Ad *D, IrExpr *e);

/* Are a and b the same expression (an index written twice), through the
 * locals assigned once that hold their parts?  Only operators and the
 * lowering's own calls (% on integers, ...), which have no effects. */
static bool same_expr(Ad *D, IrExpr *a, IrExpr *b) {
  if (!a || !b)
    return a == b;
  a = kresolve(D, a);
  b = kresolve(D, b);
  if (a->kind != b->kind || !ty_eq(a->ty, b->ty) || a->op != b->op ||
      a->bi != b->bi || a->var != b->var || a->ival != b->ival ||
      a->fval != b->fval || a->nargs != b->nargs || a->kind == E_FCALL ||
      a->kind == E_ATOMIC || a->kind == E_LOAD ||
      (a->kind == E_CALL && a->bi < BI_COUNT))
    return false;
  for (int i = 0; i < a->nargs; i++)
    if (!same_expr(D, a->args[i], b->args[i]))
      return false;
  return same_expr(D, a->a, b->a) && same_expr(D, a->b, b->b) &&
         same_expr(D, a->c, b->c);
}

/* e, through the locals assigned once that hold it (the expansion's
 * temporaries) and casts to its own type. */
static IrExpr *kresolve(Ad *D, IrExpr *e) {
  for (int n = 0; n < 8; n++) {
    IrExpr *d = e->kind == E_VAR ? map_get(&D->kdef, e->var) : NULL;
    if (e->kind == E_CAST && ty_eq(e->a->ty, e->ty))
      d = e->a;
    if (!d)
      return e;
    e = d;
  }
  return e;
}

/* Is e (resolved) the load s->var[s->args], the element s stores? */
static bool same_elem(Ad *D, IrStmt *s, IrExpr *e) {
  IrExpr *ld = kresolve(D, e);
  if (ld->kind != E_LOAD || ld->var != s->var || ld->nargs != s->nargs)
    return false;
  for (int i = 0; i < s->nargs; i++)
    if (!same_expr(D, ld->args[i], s->args[i]))
      return false;
  return true;
}

/* t[i] += v on a fixed array, which the lowering and the expansion make
 * the store t[i] = tmp1 with tmp1 = tmp0 + v, tmp0 = t[i] (or -; of a
 * vector or matrix, a E_MAKE of such sums of t[i]'s components): v,
 * else NULL, and *sub for -=.  Warp's is an atomic, whose adjoint passes
 * adj_t[i] to v alone (Note [adjoint fixed arrays]). */
static IrExpr *fixed_update(Ad *D, IrStmt *s, bool *sub) {
  IrExpr *c = kresolve(D, s->c);
  if (c->kind == E_BINARY && (c->op == OP_ADD || c->op == OP_SUB) &&
      same_elem(D, s, c->a)) {
    *sub = c->op == OP_SUB;
    return c->b;
  }
  if (c->kind != E_MAKE || !is_agg(c->ty) || c->nargs != ncomp(c->ty))
    return NULL;
  IrExpr *v = ir_expr(D->C, E_MAKE, c->ty);
  *v = *c;
  v->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)c->nargs);
  bool minus = false; /* *sub is set only for an update (t[i] = x - y is none) */
  for (int k = 0; k < c->nargs; k++) {
    IrExpr *b = kresolve(D, c->args[k]), *x;
    if (b->kind != E_BINARY || (b->op != OP_ADD && b->op != OP_SUB) ||
        (k && (b->op == OP_SUB) != minus))
      return NULL;
    minus = b->op == OP_SUB;
    x = kresolve(D, b->a);
    IrExpr *want = comp(D, x->kind == E_COMP ? x->a : x, k);
    if (x->kind != E_COMP || !same_elem(D, s, x->a) ||
        !same_expr(D, x->b, want->b) || !same_expr(D, x->c, want->c))
      return NULL;
    v->args[k] = b->b;
  }
  *sub = minus;
  return v;
}

/* r = BI_XCHG_GET(k), thread k's float value of an exchange, in the
 * adjoint: its adjoint goes back to thread k (Note [exchange adjoints]). */
static IrExpr *xchg_get_adj(Ad *D, Seq *fw, Seq *rv, IrExpr *e) {
  Xchg *x = xchg_of(D, e);
  IrExpr *k = tmp(D, fw, clone(D, fw, e->args[0]));
  IrExpr *r = node(D, fw, xchg_call(D, BI_XCHG_GET, e->ty, k, x->off));
  Seq c, sum;
  seq_init(&c);
  seq_init(&sum);
  xchg_put_stmt(D, &c, adjx(D, r->var), x->rev);
  IrVar *j = newvar(D, "lane", ty_scalar(KERN_SCALAR_INT32));
  IrExpr *got = tmp(D, &sum, xchg_call(D, BI_XCHG_GET, e->ty, ref(D, j),
                                       x->rev));
  acc(D, &sum, x->val, got);
  IrStmt *loop = ir_stmt(D->C, S_FOR, D->pos);
  loop->var = j;
  loop->a = icst(D, 0);
  loop->b = icst(D, D->C->block);
  loop->c = icst(D, 1);
  loop->body = sum.head;
  IrStmt *mine = ir_stmt(D->C, S_IF, D->pos);
  mine->a = bin(D, OP_EQ, ir_call(D->C, BI_TILE_LANE,
                                  ty_scalar(KERN_SCALAR_INT32), 0, NULL), k);
  mine->body = loop;
  put(&c, mine);
  prepend(rv, &c);
  return r;
}

static IrExpr *dval(Ad *D, Seq *fw, Seq *rv, IrExpr *e) {
  if (e->kind == E_FCALL)
    return inline_call(D, fw, rv, e);
  if (e->kind == E_CALL && e->bi == BI_XCHG_GET && fty(e->ty))
    return xchg_get_adj(D, fw, rv, e);
  if (!fty(e->ty))
    return tmp(D, fw, clone(D, fw, e));
  Seq c;
  seq_init(&c);
  switch (e->kind) {
  case E_CONST: case E_VAR:
    return clone(D, fw, e);
  case E_UNARY: {
    IrExpr *a = dval(D, fw, rv, e->a);
    if (e->op == OP_POS)
      return a;
    if (e->op != OP_NEG)
      refuse(D, "a unary operator");
    IrExpr *r = node(D, fw, ir_unary(D->C, OP_NEG, a));
    acc(D, &c, a, ir_unary(D->C, OP_NEG, adjx(D, r->var)));
    prepend(rv, &c);
    return r;
  }
  case E_BINARY: {
    if (!is_float_scalar(e->ty))
      refuse(D, "an operator on vectors");
    IrExpr *a = dval(D, fw, rv, e->a), *b = dval(D, fw, rv, e->b);
    IrExpr *r = node(D, fw, bin(D, e->op, a, b));
    IrExpr *g = adjx(D, r->var);
    switch (e->op) {
    case OP_ADD:
      acc(D, &c, a, g);
      acc(D, &c, b, g);
      break;
    case OP_SUB:
      acc(D, &c, a, g);
      acc(D, &c, b, ir_unary(D->C, OP_NEG, g));
      break;
    case OP_MUL:
      acc(D, &c, a, bin(D, OP_MUL, b, g));
      acc(D, &c, b, bin(D, OP_MUL, a, g));
      break;
    case OP_DIV: { /* Warp: adj_a += g / b; adj_b -= g * r / b */
      Seq in;
      seq_init(&in);
      acc(D, &in, a, bin(D, OP_DIV, g, b));
      acc(D, &in, b, ir_unary(D->C, OP_NEG, bin(D, OP_DIV, bin(D, OP_MUL, g, r), b)));
      put(&c, if_nonzero(D, g, &in));
      break;
    }
    case OP_MOD: /* Warp's adj_mod: adj_a += g; b gets none */
      acc(D, &c, a, g);
      break;
    default:
      refuse(D, "this operator on floats");
    }
    prepend(rv, &c);
    return r;
  }
  case E_SELECT: {
    IrExpr *k = tmp(D, fw, clone(D, fw, e->a));
    IrExpr *a = dval(D, fw, rv, e->b), *b = dval(D, fw, rv, e->c);
    IrExpr *s = ir_expr(D->C, E_SELECT, e->ty);
    s->a = k;
    s->b = a;
    s->c = b;
    IrExpr *r = node(D, fw, s);
    IrExpr *g = adjx(D, r->var);
    if (is_agg(e->ty))
      refuse(D, "a selection between vectors");
    IrExpr *ga = ir_expr(D->C, E_SELECT, e->ty), *gb = ir_expr(D->C, E_SELECT, e->ty);
    ga->a = gb->a = k;
    ga->b = g;
    ga->c = fconst(D, e->ty, 0);
    gb->b = fconst(D, e->ty, 0);
    gb->c = g;
    acc(D, &c, a, ga);
    acc(D, &c, b, gb);
    prepend(rv, &c);
    return r;
  }
  case E_CAST: {
    if (!fty(e->a->ty))
      return tmp(D, fw, clone(D, fw, e));
    if (is_agg(e->ty))
      refuse(D, "a conversion of a vector");
    IrExpr *a = dval(D, fw, rv, e->a);
    IrExpr *r = node(D, fw, ir_cast(D->C, e->ty, a));
    acc(D, &c, a, ir_cast(D->C, a->ty, adjx(D, r->var)));
    prepend(rv, &c);
    return r;
  }
  case E_CALL: {
    if (is_linalg(e->bi) && e->ival == IR_KEEP_CALL)
      return linalg_val(D, fw, rv, e, NULL);
    if (is_noise(e->bi) && e->ival == IR_KEEP_CALL)
      return noise_val(D, fw, rv, e, NULL);
    /* a float made from no float (wp.randf(state), a random vector): a
     * constant here */
    bool anyf = false;
    for (int i = 0; i < e->nargs; i++)
      anyf |= fty(e->args[i]->ty);
    if (!anyf)
      return tmp(D, fw, clone(D, fw, e));
    if (!is_float_scalar(e->ty))
      refuse(D, arena_printf(D->C, "wp.%s on vectors", e->bi < BI_COUNT
                                 ? builtin_names[e->bi] : "(operator)"));
    IrExpr **x = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)(e->nargs ? e->nargs : 1));
    for (int i = 0; i < e->nargs; i++) {
      if (!fty(e->args[i]->ty))
        refuse(D, arena_printf(D->C, "wp.%s of a non-float argument",
                               e->bi < BI_COUNT ? builtin_names[e->bi] : "(operator)"));
      x[i] = dval(D, fw, rv, e->args[i]);
    }
    IrExpr *r = node(D, fw, ir_call(D->C, e->bi, e->ty, e->nargs, x));
    IrExpr *g = adjx(D, r->var);
    Seq in;
    seq_init(&in);
    call_rule(D, &in, e->bi, r, x, e->nargs, g);
    put(&c, if_nonzero(D, g, &in));
    prepend(rv, &c);
    return r;
  }
  case E_LOAD: {
    IrVar *karr = e->var;
    tile_read(D, karr);
    IrExpr **idx = indices(D, fw, e->args, e->nargs);
    IrVar *arr = D->env[kid(D, karr)];
    IrExpr *r = node(D, fw, load(D, arr, idx, e->nargs, e->ty, e->pos));
    if (D->ingrad)
      return r; /* a custom adjoint's reverse is dropped */
    IrVar *adjarr = adj_array(D, karr);
    if (adjarr->ty->priv) { /* Note [adjoint fixed arrays] */
      fixed_read(D, rv, adjarr, idx, e, adjx(D, r->var));
      return r;
    }
    IrExpr *at = ir_expr(D->C, E_ATOMIC, e->ty);
    at->bi = BI_ATOMIC_ADD;
    at->var = adjarr;
    at->args = idx;
    at->nargs = e->nargs;
    at->c = adjx(D, r->var);
    at->pos = e->pos;
    IrStmt *st = ir_stmt(D->C, S_EXPR, D->pos);
    st->a = at;
    Seq body;
    seq_init(&body);
    put(&body, st);
    put(&c, guarded(D, adjarr, &body));
    prepend(rv, &c);
    return r;
  }
  case E_FIELD:
    if (elem_root(e))
      return aos_read(D, fw, rv, e);
    return tmp(D, fw, clone(D, fw, e)); /* refuses what it cannot copy */
  case E_COMP: {
    if (elem_root(e->a) && (!e->b || e->b->kind == E_CONST) &&
        (!e->c || e->c->kind == E_CONST))
      return aos_comp(D, fw, rv, e);
    if (e->a->kind != E_VAR || (e->b && e->b->kind != E_CONST) ||
        (e->c && e->c->kind != E_CONST))
      refuse(D, "a component of a computed vector");
    IrExpr *a = clone(D, fw, e->a);
    IrExpr *n = ir_expr(D->C, E_COMP, e->ty);
    *n = *e;
    n->a = a;
    IrExpr *r = node(D, fw, n);
    acc_comp(D, &c, a, e->b, e->c, adjx(D, r->var));
    prepend(rv, &c);
    return r;
  }
  case E_MAKE: {
    IrExpr *n = ir_expr(D->C, E_MAKE, e->ty);
    *n = *e;
    n->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)(e->nargs ? e->nargs : 1));
    for (int i = 0; i < e->nargs; i++)
      n->args[i] = dval(D, fw, rv, e->args[i]);
    IrExpr *r = node(D, fw, n);
    IrExpr *g = adjx(D, r->var);
    for (int k = 0; k < ncomp(e->ty); k++)
      acc(D, &c, n->args[e->nargs == 1 ? 0 : k], comp(D, g, k));
    prepend(rv, &c);
    return r;
  }
  case E_FCALL:
    return inline_call(D, fw, rv, e);
  default:
    return tmp(D, fw, clone(D, fw, e)); /* refuses what it cannot copy */
  }
}

/* A call of a user function, inlined (Warp forbids recursion): its
 * parameters bound to the arguments' values, its body replayed and
 * reversed in place, its result the value of the return that ends the
 * path taken (norm_returns moves what follows a branch that returns into
 * the other branch; the result's slot is joined like a variable). */
/* Note [custom adjoints]: a call of a function F that has a
 * @wp.func_grad G is replayed as any call, but its reverse is G's body,
 * run as forward code in the reverse sweep where F's reverse would be, as
 * Warp's adj_F is G: G's parameters are F's arguments (their replayed
 * values), adj_ret (the adjoint of the call's result; one per result of
 * a function with several, Note [several results]) and, for each
 * parameter P, adjoint__P (the parser's name for wp.adjoint[P]), which
 * starts as the adjoint the argument has gathered so far and whose last
 * value is the argument's adjoint after the call, so `wp.adjoint[x] +=
 * g` adds g to it as in Warp; of an array parameter, adjoint__P is the
 * array's adjoint array, into which G's atomics and stores go
 * (grad_effect).  An overloaded F's G is the overload's whose types it
 * takes (match_grads in lower/check.c; match_replays for a replay).  G's other statements are built
 * as the replay builds them (single assignment), except its loops Warp
 * does not unroll, which the replay would skip: they run forward
 * (grad_loop).  Forward mode (Note
 * [tangent]) differentiates F's body, as Warp has no tangent rule to
 * take. */
static void block(Ad *D, IrStmt *s, Seq *fw, Seq *rv);
static bool norm_returns(Ad *D, IrStmt **head);

/* The value G's parameter p holds at the end of G's statements: the
 * expansion takes an aggregate parameter apart into locals at G's entry
 * (func in expand.c), so it is made again from those locals. */
static IrExpr *param_now(Ad *D, IrFunc *G, IrVar *p) {
  if (!is_agg(p->ty))
    return D->env[kid(D, p)] ? ref(D, D->env[kid(D, p)]) : NULL;
  int n = ncomp(p->ty), k = 0;
  IrExpr *m = ir_expr(D->C, E_MAKE, p->ty);
  m->nargs = n;
  m->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)n);
  for (IrStmt *s = G->body; s && k < n; s = s->next) {
    if (s->kind != S_ASSIGN || s->a->kind != E_COMP ||
        s->a->a->kind != E_VAR || s->a->a->var != p)
      continue;
    IrVar *v = D->env[kid(D, s->var)];
    if (!v)
      return NULL;
    m->args[k++] = ref(D, v);
  }
  return k == n ? m : NULL;
}

/* res: F's results (one per result, Note [several results]), each with
 * its adj_ret parameter of G */
static void custom_adjoint(Ad *D, Seq *rv, IrFunc *F, IrVar **bound,
                           IrVar **res) {
  IrFunc *G = F->grad;
  Seq c, gfw, grv;
  seq_init(&c);
  seq_init(&gfw);
  seq_init(&grv);
  int n = F->nparams, nr = F->nrets, i = 0;
  if (G->nparams != 2 * n + nr)
    diag_error(D->C, G->pos, "the @wp.func_grad '%s' of '%s' must take the "
               "%d parameter(s) of '%s' and then an adj_ret per result (%d)",
               G->name, F->name, n, F->name, nr);
  IrVar **ga = arena_alloc(D->C, sizeof(IrVar *) * (size_t)G->nparams);
  for (IrVar *p = G->params; p; p = p->next)
    ga[i++] = p;
  /* Warp matches the adjoint to the function by these types */
  IrVar *fp = F->params;
  for (i = 0; i < n + nr; i++, fp = fp ? fp->next : NULL)
    if (!ty_eq(ga[i]->ty, i < n ? fp->ty : res[i - n]->ty))
      diag_error(D->C, G->pos, "the @wp.func_grad '%s' of '%s' must take "
                 "the parameters of '%s' (their types) and then adj_ret of "
                 "its result's type; parameter %d differs", G->name,
                 F->name, F->name, i + 1);
  for (i = 0; i < n; i++)
    D->env[kid(D, ga[i])] = bound[i];
  for (i = 0; i < nr; i++) {
    IrVar *ar = newvar(D, "adj_ret", res[i]->ty);
    assign(D, &c, ar, adjx(D, res[i]));
    D->env[kid(D, ga[n + i])] = ar;
  }
  for (i = 0; i < n; i++) {
    if (bound[i]->ty->kind == TY_ARRAY) {
      /* wp.adjoint[a] of an array: its adjoint array, which G's atomics
       * and stores change (grad_effect) */
      D->env[kid(D, ga[n + nr + i])] = map_get(&D->adjarr, bound[i]);
      continue;
    }
    IrVar *ap = newvar(D, "adjoint", bound[i]->ty);
    assign(D, &c, ap, adjx(D, bound[i]));
    D->env[kid(D, ga[n + nr + i])] = ap;
  }
  for (IrVar *v = G->locals; v; v = v->next)
    D->env[kid(D, v)] = NULL;
  (void)norm_returns(D, &G->body);
  int slot = (int)(intptr_t)map_get(&D->fres, G) - 1;
  int outer = D->resid;
  D->resid = slot;
  D->env[slot] = NULL;
  D->depth++;
  D->ingrad++;
  block(D, G->body, &gfw, &grv);
  D->ingrad--;
  D->depth--;
  D->resid = outer;
  if (gfw.head) {
    *c.tail = gfw.head;
    c.tail = gfw.tail;
  }
  for (i = 0; i < n; i++) {
    IrVar *a = bound[i]->ty->kind == TY_ARRAY ? NULL : adj_of(D, bound[i]);
    if (!a)
      continue;
    IrExpr *v = param_now(D, G, ga[n + nr + i]);
    if (!v)
      refuse(D, "this @wp.func_grad (an adjoint it leaves unset)");
    assign(D, &c, a, v);
  }
  prepend(rv, &c);
}

/* F's @wp.func_replay R on F's bound arguments, replayed (its reverse
 * dropped): its result. */
static IrExpr *custom_replay(Ad *D, Seq *fw, IrFunc *F, IrVar **bound) {
  IrFunc *R = F->replay;
  int i = 0;
  IrVar *fp = F->params;
  for (IrVar *p = R->params; p; p = p->next, fp = fp->next, i++) {
    if (!fp || !ty_eq(p->ty, fp->ty))
      diag_error(D->C, R->pos, "the @wp.func_replay '%s' of '%s' must take "
                 "the parameters of '%s' (their types)", R->name, F->name,
                 F->name);
    D->env[kid(D, p)] = bound[i];
  }
  if (!ty_eq(R->ret, F->ret))
    diag_error(D->C, R->pos, "the @wp.func_replay '%s' of '%s' must return "
               "what '%s' returns", R->name, F->name, F->name);
  for (IrVar *v = R->locals; v; v = v->next)
    D->env[kid(D, v)] = NULL;
  (void)norm_returns(D, &R->body);
  int slot = (int)(intptr_t)map_get(&D->fres, R) - 1;
  int outer = D->resid;
  D->resid = slot;
  D->env[slot] = NULL;
  D->depth++;
  Seq junk;
  seq_init(&junk);
  block(D, R->body, fw, &junk);
  D->depth--;
  D->resid = outer;
  if (!D->env[slot])
    refuse(D, "a @wp.func_replay that can end without returning its result");
  return ref(D, D->env[slot]);
}

/* Note [returned tiles]: a @wp.func returns a tile as BI_FIXED_COPY of
 * it into storage its caller passes (check_fixed_return), an identity,
 * so the copy shares the returned tile's adjoint (tangent) array, and so
 * does the caller's local assigned the call (tile_result).  Sharing is
 * exact because nothing writes the copy: the lowering copies a call's
 * result into the local that names it (Note [tile names own
 * temporaries] in lower/check_tile.c).  A tile returned on more than
 * one path (joined like a variable) has no one array to share and is
 * refused, in forward mode by tile_share, in reverse mode where it is
 * read (adj_array), as a float fixed-size array returned is. */
static void tile_share(Ad *D, IrVar *v, IrVar *a) {
  IrVar *had = map_get(&D->adjarr, v);
  if (had && had != a)
    refuse(D, "a tile a @wp.func returns on more than one path");
  map_put(D, &D->adjarr, v, a);
}

/* v = e, of a @wp.func's result e = BI_FIXED_COPY(storage, tile)
 * (Note [returned tiles]). */
static void tile_returned(Ad *D, IrExpr *e, IrVar *v) {
  if (e->kind != E_CALL || e->bi != BI_FIXED_COPY || !e->ty->tile ||
      e->args[1]->kind != E_VAR)
    return;
  IrVar *src = D->env[kid(D, e->args[1]->var)];
  IrVar *a = src ? map_get(&D->adjarr, src) : NULL;
  if (a)
    tile_share(D, v, a);
}

/* v = r, of the tile r a @wp.func returned (Note [returned tiles]). */
static void tile_result(Ad *D, IrVar *v, IrExpr *r) {
  IrVar *a = r->kind == E_VAR ? map_get(&D->adjarr, r->var) : NULL;
  if (v->ty->tile && a)
    tile_share(D, v, a);
}

/* A function's result e in a local (the value of its result's slot). */
static IrVar *ret_value(Ad *D, Seq *fw, Seq *rv, IrExpr *e) {
  IrExpr *x = dval(D, fw, rv, e);
  IrVar *v = x->kind == E_VAR ? x->var : NULL;
  if (!v) {
    v = newvar(D, "ret", x->ty);
    assign(D, fw, v, x);
  }
  tile_returned(D, e, v);
  return v;
}

/* Note [several results]: a function with several results (`return a,
 * b`) has a slot per result in env, each set by the return that ends the
 * path taken and joined by an if like a variable (the first is the
 * call's value).  The call's out-variables (check_tuple_of_call's hidden
 * locals, which `x, y = f(...)` then reads) take the others, each
 * assigned as a variable is, so their adjoints flow back into the
 * returned values and from there through the function's body.  Forward
 * mode (tcall) gives each result a local and a tangent the same way. */
static void bind_outs(Ad *D, Seq *fw, Seq *rv, IrExpr *e, IrVar **res) {
  Seq c;
  seq_init(&c);
  for (int i = 0; i < e->nouts; i++) {
    if (!res[i])
      refuse(D, "a function that can end without returning its result");
    IrVar *v = newvar(D, "v", res[i]->ty);
    assign(D, fw, v, ref(D, res[i]));
    D->env[kid(D, e->outs[i])] = v;
    if (fty(v->ty))
      acc(D, &c, ref(D, res[i]), adjx(D, v));
  }
  prepend(rv, &c);
}

/* Note [loops in functions]: Warp's adjoint replays a @wp.func's call
 * with the function's forward code, its loops Warp does not unroll run
 * as written, so the caller reads the function's true results; the
 * function's adjoint (adj_F) replays the body again, its dynamic loops
 * skipped as a kernel's, then reverses it, each reverse iteration
 * replaying its body first.  Inlined, the call's replay built as a
 * kernel's would skip those loops, and a variable they carry would reach
 * the caller with its value from before them.  So a call whose inlining
 * met such a loop (also in a function it calls) is built twice: the
 * inlined replay and reverse as above (adj_F, whose reverse rules read
 * that replay's values), then the body again, run forward (fwrun: its
 * dynamic loops as grad_loop runs them, its reverse dropped, no store or
 * atomic performed, a nested call run forward likewise, its
 * @wp.func_replay or @wp.func_grad not taken, as F's forward code calls
 * the plain function).  The caller reads the forward run's results, and
 * their adjoints go to the inlined replay's, as a @wp.func_replay's do
 * (Note [custom adjoints]).  So the function's gradient is Warp's: the
 * derivative for sums carried by its loops, Warp's loop gradient for
 * products (tests/autodiff/func_loop*.py).  A return in such a loop is
 * still refused (norm_returns): Warp's adj_F adds the result's adjoint at
 * the return after the loop and again in every reverse iteration whose
 * replay reaches the in-loop return, which the inlined reverse could do
 * with the kernel's "returned" flag (Note [adjoint jumps]), but the
 * forward run would also have to leave the loop and skip the function's
 * rest there (docs/language.md has a measured example). */
static IrExpr *run_forward(Ad *D, Seq *fw, Seq *rv, IrExpr *e, IrVar **bound,
                           IrExpr *r, IrVar **outs) {
  IrFunc *F = e->fn;
  int i = 0, slot = (int)(intptr_t)map_get(&D->fres, F) - 1;
  for (IrVar *p = F->params; p; p = p->next, i++)
    D->env[kid(D, p)] = bound[i];
  for (IrVar *v = F->locals; v; v = v->next)
    D->env[kid(D, v)] = NULL;
  for (i = 0; i <= e->nouts; i++)
    D->env[slot + i] = NULL;
  int outer = D->resid;
  D->resid = slot;
  D->depth++;
  D->fwrun++;
  Seq junk;
  seq_init(&junk);
  for (IrStmt *s = F->body; s; s = s->next)
    stmt(D, s, fw, &junk);
  D->fwrun--;
  D->depth--;
  D->resid = outer;
  Seq c;
  seq_init(&c);
  for (i = 0; i <= e->nouts; i++) {
    IrVar *was = i ? outs[i - 1] : r ? r->var : NULL, *x = D->env[slot + i];
    if (!was)
      continue;
    if (!x)
      refuse(D, "a function that can end without returning its result");
    IrVar *v = newvar(D, "ret", x->ty);
    assign(D, fw, v, ref(D, x));
    if (fty(v->ty) && !F->grad)
      acc(D, &c, ref(D, was), adjx(D, v));
    if (i)
      outs[i - 1] = v;
    else
      r = ref(D, v);
  }
  prepend(rv, &c);
  return r;
}

static IrExpr *inline_call(Ad *D, Seq *fw, Seq *rv, IrExpr *e) {
  IrFunc *F = e->fn;
  if (F->native)
    refuse(D, "a @wp.func_native function");
  if (e->nrefs)
    refuse(D, "a call of a function with wp.ref parameters");
  if (D->depth > 64)
    refuse(D, "calls nested this deep");
  IrVar **save = arena_alloc(D->C, sizeof(IrVar *) * (size_t)D->nv);
  memcpy(save, D->env, sizeof(IrVar *) * (size_t)D->nv);
  IrVar **bound = arena_alloc(D->C, sizeof(IrVar *) * (size_t)(F->nparams + 1));
  int i = 0;
  for (IrVar *p = F->params; p; p = p->next, i++) {
    IrExpr *a = e->args[i];
    IrVar *v;
    if (p->ty->kind == TY_ARRAY) {
      if (a->kind != E_VAR)
        refuse(D, "an array argument that is not a variable");
      if (a->var->ty->fixed_n) /* the storage of a returned fixed array */
        fixed_replay_storage(D, a);
      v = D->env[kid(D, a->var)];
    } else {
      IrExpr *x = dval(D, fw, rv, a);
      if (x->kind == E_VAR) {
        v = x->var;
      } else {
        v = newvar(D, "arg", x->ty);
        assign(D, fw, v, x);
      }
    }
    D->env[kid(D, p)] = v;
    bound[i] = v;
  }
  /* the function's own variables start unset (fresh per call) */
  for (IrVar *v = F->locals; v; v = v->next)
    D->env[kid(D, v)] = NULL;
  /* its returns end its statements (norm_returns); each sets the result
   * slot, which an if joins like a variable */
  Pos at = D->pos;
  (void)norm_returns(D, &F->body);
  int slot = (int)(intptr_t)map_get(&D->fres, F) - 1;
  int outer = D->resid;
  D->resid = slot;
  D->env[slot] = NULL;
  D->depth++;
  Seq junk; /* a custom adjoint replaces the body's reverse */
  seq_init(&junk);
  int loops = D->dynloops;
  bool plain = D->fwrun > 0; /* Note [loops in functions] */
  IrStmt *after = rv->head; /* what runs after the body's reverse */
  for (IrStmt *s = F->body; s; s = s->next)
    stmt(D, s, fw, F->grad || plain ? &junk : rv);
  if (!plain) /* a forward-only run has no reverse to clear for */
    fixed_after(D, F, rv, after);
  D->depth--;
  D->pos = at;
  D->resid = outer;
  IrExpr *r = D->env[slot] ? ref(D, D->env[slot]) : NULL;
  IrVar **outs = arena_alloc(D->C, sizeof(IrVar *) * (size_t)(e->nouts + 1));
  for (i = 0; i < e->nouts; i++)
    outs[i] = D->env[slot + 1 + i];
  if (D->dynloops > loops && !plain && !D->ingrad &&
      !(F->replay && F->nrets == 1)) {
    r = run_forward(D, fw, rv, e, bound, r, outs);
    D->pos = at;
  }
  if (F->replay && F->nrets == 1 && r && !plain) {
    /* Note [custom adjoints]: the caller sees the replay's result, whose
     * adjoint goes to F's; Warp 1.19 replays a function with several
     * results with its own forward code, its @wp.func_replay not taken */
    IrVar *res = newvar(D, "ret", r->ty);
    assign(D, fw, res, custom_replay(D, fw, F, bound));
    Seq c;
    seq_init(&c);
    acc(D, &c, r, adjx(D, res));
    prepend(rv, &c);
    r = ref(D, res);
    D->pos = at;
  }
  if (F->grad && r && !plain) {
    /* the results in fresh locals, whose adjoints are only adj_ret */
    IrVar **res = arena_alloc(D->C, sizeof(IrVar *) * (size_t)F->nrets);
    for (i = 0; i < F->nrets; i++) {
      IrVar *x = i ? D->env[slot + i] : r->var;
      if (!x)
        refuse(D, "a function that can end without returning its result");
      res[i] = newvar(D, "ret", x->ty);
      assign(D, fw, res[i], ref(D, x));
      if (i && i <= e->nouts)
        outs[i - 1] = res[i];
    }
    r = ref(D, res[0]);
    custom_adjoint(D, rv, F, bound, res);
    D->pos = at;
  }
  if (F->grad && !r)
    refuse(D, "a @wp.func_grad of a function without a result");
  /* the caller's variables as they were (a function sees none of them) */
  for (IrVar *v = F->params; v; v = v->next)
    save[kid(D, v)] = D->env[kid(D, v)];
  for (IrVar *v = F->locals; v; v = v->next)
    save[kid(D, v)] = D->env[kid(D, v)];
  memcpy(D->env, save, sizeof(IrVar *) * (size_t)D->nv);
  bind_outs(D, fw, rv, e, outs);
  if (!r) {
    if (e->ty->kind != TY_VOID)
      refuse(D, "a function that can end without returning its result");
    return NULL;
  }
  return r;
}

/* ---------------------------------------------------------------- statements */

static void block(Ad *D, IrStmt *s, Seq *fw, Seq *rv);

/* Marks the K variables assigned anywhere in s. */
static void assigned(Ad *D, IrStmt *s, bool *out) {
  for (; s; s = s->next) {
    if ((s->kind == S_ASSIGN || s->kind == S_FOR || s->kind == S_SETCOMP) && s->var)
      out[kid(D, s->var)] = true;
    assigned(D, s->body, out);
    assigned(D, s->orelse, out);
  }
}

static void stmt_atomic(Ad *D, IrExpr *e, Seq *fw, Seq *rv);

static void stmt_assign(Ad *D, IrStmt *s, Seq *fw, Seq *rv) {
  int id = kid(D, s->var);
  if (s->a->kind == E_ATOMIC) {
    /* the atomic as a statement; its result (the old value, which the
     * replay does not have) may not be read */
    stmt_atomic(D, s->a, fw, rv);
    D->env[id] = NULL;
    map_put(D, &D->atomres, s->var, s->var);
    return;
  }
  Seq c;
  seq_init(&c);
  if (is_fixed_zeros(s->a))
    fixed_replay_storage(D, s->a);
  if (s->var->nassign <= 1 && !s->var->is_param) /* the expansion's: 0 */
    map_put(D, &D->kdef, s->var, s->a);
  tile_alias(D, s->var, s->a);
  tile_storage(D, s->var, s->a);
  IrExpr *r = dval(D, fw, rv, s->a);
  IrVar *v = newvar(D, "v", s->var->ty);
  assign(D, fw, v, r);
  D->env[id] = v;
  if (v->ty->kind == TY_ARRAY)
    (void)array_local(D, fw, v, s->a, NULL);
  if (v->ty->kind == TY_ARRAY && s->a->kind == E_FCALL)
    tile_result(D, v, r);
  if (fty(v->ty))
    acc(D, &c, r, adjx(D, v));
  prepend(rv, &c);
}

static void stmt_if(Ad *D, IrStmt *s, Seq *fw, Seq *rv) {
  IrExpr *k = tmp(D, fw, clone(D, fw, s->a));
  size_t sz = sizeof(IrVar *) * (size_t)D->nv;
  IrVar **before = arena_alloc(D->C, sz), **then = arena_alloc(D->C, sz);
  memcpy(before, D->env, sz);
  Seq f1, r1, f2, r2;
  seq_init(&f1);
  seq_init(&r1);
  seq_init(&f2);
  seq_init(&r2);
  block(D, s->body, &f1, &r1);
  bool jt = D->jumped, je;
  D->jumped = false;
  memcpy(then, D->env, sz);
  memcpy(D->env, before, sz);
  block(D, s->orelse, &f2, &r2);
  je = D->jumped;
  D->jumped = false;
  /* a branch that jumps (Note [adjoint jumps]) leaves the other's values */
  if (jt && je)
    D->jumped = true;
  if (jt)
    memcpy(then, D->env, sz);
  else if (je)
    memcpy(D->env, then, sz);
  /* join: a version assigned at the end of each branch */
  Seq j1, j2;
  seq_init(&j1);
  seq_init(&j2);
  for (int i = 0; i < D->nv; i++) {
    IrVar *t = then[i], *e = D->env[i];
    if (t == before[i] && e == before[i])
      continue;
    if (!t || !e || t == e) { /* assigned in one branch only, unset
                                * before, or the other branch jumps */
      D->env[i] = t ? t : e;
      continue;
    }
    IrVar *p = newvar(D, "phi", t->ty);
    assign(D, &f1, p, ref(D, t));
    assign(D, &f2, p, ref(D, e));
    if (fty(p->ty)) {
      acc(D, &j1, ref(D, t), adjx(D, p));
      acc(D, &j2, ref(D, e), adjx(D, p));
    }
    D->env[i] = p;
  }
  prepend(&r1, &j1);
  prepend(&r2, &j2);
  IrStmt *f = ir_stmt(D->C, S_IF, s->pos);
  f->a = k;
  f->body = f1.head;
  f->orelse = f2.head;
  put(fw, f);
  IrStmt *r = ir_stmt(D->C, S_IF, s->pos);
  r->a = k;
  r->body = r1.head;
  r->orelse = r2.head;
  Seq c;
  seq_init(&c);
  put(&c, r);
  prepend(rv, &c);
}

static void dyn_loop(Ad *D, IrStmt *s, Seq *fw, Seq *rv);

static bool has_kret(IrStmt *s) {
  for (; s; s = s->next)
    if (s->kind == S_KRETURN || has_kret(s->body) || has_kret(s->orelse))
      return true;
  return false;
}

/* chunk's statements appended to s, under `if (!flag)` when flag */
static void put_unless(Ad *D, Seq *s, IrVar *flag, Seq *chunk) {
  if (!chunk->head)
    return;
  if (!flag) {
    *s->tail = chunk->head;
    s->tail = chunk->tail;
    return;
  }
  IrStmt *f = ir_stmt(D->C, S_IF, D->pos);
  IrExpr *n = ir_expr(D->C, E_NOT, flag->ty);
  n->a = ref(D, flag);
  f->a = n;
  f->body = chunk->head;
  put(s, f);
}

/* Note [adjoint jumps]: break and continue in a loop Warp does not unroll
 * (a dynamic range() or while, and any range() with a break, which Warp
 * never unrolls) are Warp's jumps.  Warp's break is `goto end` and its
 * continue `goto start` of the loop, in the forward code and in the
 * replay of the reverse loop alike (materialising the loop-carried
 * variables first).  So in the reverse sweep, where each iteration
 * replays its body and then reverses it, a break reached in the replay
 * ends the whole reverse loop (the iterations before it, and its own
 * statements before the break, get no gradient), and a continue goes on
 * to the next (earlier) iteration without reversing its own.  That is
 * Warp's gradient, not the derivative, and it is what is built here:
 * the jump is kept in the replay of the reverse loop's body, after the
 * carried locals are assigned, and the rest of its block is dropped; an
 * `if` with a branch that jumps joins only the other branch's values.
 * A continue in a range() of constants that Warp unrolls ends its
 * unrolled iteration, as Warp's guard does (norm_conts): there the
 * gradient is the derivative.  A kernel's return in a range() loop Warp
 * does not unroll is Warp's `goto` to the return's point of the reverse
 * sweep: in the reverse loop's replay of an iteration it ends the replay
 * and the iteration's statements before it are reversed, then the
 * earlier iterations; the replay outside skips the loop, so what follows
 * the loop is replayed and reversed as if nothing had returned.  Here
 * the loop body's returns end their paths (norm_returns), and a
 * "returned" flag keeps the carried locals' update at the end of the
 * body, and its reverse, off those paths, as Warp's jump skips them.  In
 * a while loop that would make Warp's reverse loop run forever (its
 * condition reads carried variables the path no longer updates), so it
 * is refused, as is a return in a loop Warp unrolls. */

static bool has_break(IrStmt *s) {
  for (; s; s = s->next) {
    if (s->kind == S_BREAK)
      return true;
    if (s->kind != S_FOR && s->kind != S_WHILE &&
        (has_break(s->body) || has_break(s->orelse)))
      return true;
  }
  return false;
}

static bool has_cont(IrStmt *s) {
  for (; s; s = s->next) {
    if (s->kind == S_CONTINUE)
      return true;
    if (s->kind != S_FOR && s->kind != S_WHILE &&
        (has_cont(s->body) || has_cont(s->orelse)))
      return true;
  }
  return false;
}

static void append(IrStmt **head, IrStmt *rest);
static IrStmt *copy_body(Compiler *C, IrStmt *s);

/* whether s, or a statement nested in it outside loops, is a jump */
static bool has_jump(IrStmt *s, IrStmtKind k) {
  for (; s; s = s->next)
    if (s->kind == k || (k == S_RETURN && s->kind == S_KRETURN) ||
        (s->kind != S_FOR && s->kind != S_WHILE &&
         (has_jump(s->body, k) || has_jump(s->orelse, k))))
      return true;
  return false;
}

/* Note [tail paths]: a branch that jumps (continue; return, k ==
 * S_RETURN) on only some of its paths, `if c: A; if d: jump; B` then
 * REST: the normalized block ends in the `if` holding the jump (the
 * jump's rest moved into its other branch), so REST goes to the end of
 * every path that does not jump, in both branches: `if c: A; if d: jump
 * else: B; REST` else `REST`.  Each path gets its own copy of REST
 * (built once per path, as an unrolled loop's body is once per
 * iteration), so a path that jumps neither runs nor reverses it, as
 * Warp's jump skips it, and the gradient of each path is its own.  Warp
 * guards REST with a flag instead; the copies grow with the paths, so
 * past KERN_TAIL_COPIES copied statements the adjoint is refused. */
enum { KERN_TAIL_COPIES = 20000 };

static int count_stmts(IrStmt *s) {
  int n = 0;
  for (; s; s = s->next)
    n += 1 + count_stmts(s->body) + count_stmts(s->orelse);
  return n;
}

/* appends rest, or a copy of it once *first is false */
static void append_ends_at(Ad *D, IrStmt **head, IrStmt *rest, IrStmtKind k,
                           bool *first) {
  while (*head && (*head)->next)
    head = &(*head)->next;
  IrStmt *s = *head;
  if (s && (s->kind == k || (k == S_RETURN && s->kind == S_KRETURN)))
    return;
  if (s && s->kind == S_IF &&
      (has_jump(s->body, k) || has_jump(s->orelse, k))) {
    append_ends_at(D, &s->body, rest, k, first);
    append_ends_at(D, &s->orelse, rest, k, first);
    return;
  }
  if (!*first) {
    D->tail_copies += count_stmts(rest);
    if (D->tail_copies > KERN_TAIL_COPIES)
      refuse(D, k == S_CONTINUE ? "continues on only some paths of their "
                                  "branches this often (the paths' copies)"
                                : "returns on only some paths of their "
                                  "branches this often (the paths' copies)");
    rest = copy_body(D->C, rest);
  }
  *first = false;
  if (s)
    s->next = rest;
  else
    *head = rest;
}

/* rest at the end of the paths of the `if` s that do not jump */
static void append_ends(Ad *D, IrStmt *s, IrStmt *rest, IrStmtKind k) {
  bool first = true;
  D->pos = s->pos;
  append_ends_at(D, &s->body, rest, k, &first);
  append_ends_at(D, &s->orelse, rest, k, &first);
}

/* Warp guards the rest of an unrolled iteration after a continue
 * (lower_unrolled_continues): the statements after an `if` whose branch
 * always continues move into its other branch, as norm_returns does for
 * returns, so every continue ends its iteration's statements and is a
 * no-op there (Note [tail paths] where it does on only some paths).
 * Returns whether the block always continues. */
static bool norm_conts(Ad *D, IrStmt **head) {
  for (IrStmt **p = head; *p; p = &(*p)->next) {
    IrStmt *s = *p;
    D->pos = s->pos;
    if (s->kind == S_CONTINUE) {
      s->next = NULL;
      return true;
    }
    if (s->kind != S_IF)
      continue;
    bool t = norm_conts(D, &s->body), e = norm_conts(D, &s->orelse);
    IrStmt *rest = s->next;
    if (t && e) {
      s->next = NULL;
      return true;
    }
    if (t || e) {
      s->next = NULL;
      append(t ? &s->orelse : &s->body, rest);
      return norm_conts(D, t ? &s->orelse : &s->body);
    }
    if (has_cont(s->body) || has_cont(s->orelse)) {
      /* a continue on only some paths of a branch: what follows the
       * `if` goes to the end of each of its paths that goes on */
      s->next = NULL;
      bool r = norm_conts(D, &rest);
      append_ends(D, s, rest, S_CONTINUE);
      return r;
    }
  }
  return false;
}

static void stmt_for(Ad *D, IrStmt *s, Seq *fw, Seq *rv) {
  /* Warp does not unroll a loop with a break (a dynamic loop, Note
   * [adjoint jumps]); it unrolls one with only continues, guarding the
   * rest of each iteration, which is not done here yet */
  if (s->a->kind == E_CONST && s->b->kind == E_CONST && s->c->kind == E_CONST &&
      !has_break(s->body)) {
    int64_t a = (int64_t)s->a->ival, b = (int64_t)s->b->ival,
            st = (int64_t)s->c->ival;
    int64_t n = st > 0 ? (b > a ? (b - a + st - 1) / st : 0)
                       : st < 0 ? (a > b ? (a - b - st - 1) / -st : 0) : 0;
    if (n <= 16) { /* Warp unrolls it (max_unroll) */
      Pos at = D->pos;
      (void)norm_conts(D, &s->body);
      D->pos = at;
      IrVar **car = D->car, *rflag = D->rflag;
      D->car = NULL;
      D->rflag = NULL;
      D->unrolled++;
      int jid = kid(D, s->var);
      const Type *jt = s->var->ty;
      for (int64_t t = 0; t < n; t++) {
        IrVar *j = newvar(D, "j", jt);
        assign(D, fw, j, ir_const_int(D->C, jt, (uint64_t)(a + t * st)));
        D->env[jid] = j;
        block(D, s->body, fw, rv);
      }
      D->car = car;
      D->rflag = rflag;
      D->unrolled--;
      return;
    }
  }
  dyn_loop(D, s, fw, rv);
}

/* A loop Warp does not unroll: a dynamic range() (its iterations
 * replayed last to first in the reverse sweep) or a while loop (whose
 * condition Warp evaluates again on the carried variables in the reverse
 * sweep, so its iterations run first to last there). */
/* Note [custom adjoints]: a loop Warp does not unroll in a custom
 * adjoint's body runs forward, as written: the variables it reassigns
 * that were set before it are carried locals (assigned the body's last
 * version at the end of each iteration and at a break or continue), which
 * hold their last values after it. */
static void grad_loop(Ad *D, IrStmt *s, Seq *fw) {
  bool is_while = s->kind == S_WHILE;
  IrStmt *loop = ir_stmt(D->C, s->kind, s->pos);
  if (!is_while) {
    loop->a = tmp(D, fw, clone(D, fw, s->a));
    loop->b = tmp(D, fw, clone(D, fw, s->b));
    loop->c = tmp(D, fw, clone(D, fw, s->c));
    loop->var = newvar(D, "j", s->var->ty);
  }
  bool *w = arena_alloc(D->C, (size_t)D->nv);
  memset(w, 0, (size_t)D->nv);
  assigned(D, s->body, w);
  IrVar **car = arena_alloc(D->C, sizeof(IrVar *) * (size_t)D->nv);
  memset(car, 0, sizeof(IrVar *) * (size_t)D->nv);
  for (int i = 0; i < D->nv; i++) {
    if (!w[i] || (!is_while && i == kid(D, s->var)) || !D->env[i])
      continue;
    car[i] = newvar(D, "carried", D->env[i]->ty);
    assign(D, fw, car[i], ref(D, D->env[i]));
    D->env[i] = car[i];
  }
  if (!is_while)
    D->env[kid(D, s->var)] = loop->var;
  if (is_while) /* the condition on the carried variables */
    loop->a = clone(D, NULL, s->a);
  IrVar **outer = D->car;
  D->car = car;
  Seq bf, junk;
  seq_init(&bf);
  seq_init(&junk);
  block(D, s->body, &bf, &junk);
  D->jumped = false;
  D->car = outer;
  for (int i = 0; i < D->nv; i++) {
    if (!car[i])
      continue;
    if (D->env[i] != car[i])
      assign(D, &bf, car[i], ref(D, D->env[i]));
    D->env[i] = car[i];
  }
  loop->body = bf.head;
  put(fw, loop);
}

/* The tile loop s run forward into the replay fw (Note [tile
 * adjoints]): the variables it carries have their values from before it
 * again after, their values after it in the result (NULL when s is no
 * tile loop to run). */
static IrVar **tile_run(Ad *D, IrStmt *s, Seq *fw) {
  if (!s->tile || D->tile_rev)
    return NULL;
  size_t n = sizeof(IrVar *) * (size_t)D->nv;
  IrVar **pre = arena_alloc(D->C, n), **post = arena_alloc(D->C, n);
  memcpy(pre, D->env, n);
  D->fwrun++;
  grad_loop(D, s, fw);
  D->fwrun--;
  memcpy(post, D->env, n);
  memcpy(D->env, pre, n);
  return post;
}

static void dyn_loop(Ad *D, IrStmt *s, Seq *fw, Seq *rv) {
  if (D->depth > 0) /* Note [loops in functions] */
    D->dynloops++;
  if (D->ingrad || D->fwrun) {
    grad_loop(D, s, fw);
    return;
  }
  IrVar **ran = tile_run(D, s, fw);
  bool is_while = s->kind == S_WHILE;
  int jid = is_while ? -1 : kid(D, s->var);
  const Type *jt = is_while ? NULL : s->var->ty;
  IrExpr *a = NULL, *b = NULL, *st = NULL;
  if (!is_while) {
    /* range() evaluates its bounds once, before the loop */
    a = tmp(D, fw, clone(D, fw, s->a));
    b = tmp(D, fw, clone(D, fw, s->b));
    st = tmp(D, fw, clone(D, fw, s->c));
  }
  bool *w = arena_alloc(D->C, (size_t)D->nv);
  memset(w, 0, (size_t)D->nv);
  assigned(D, s->body, w);
  IrVar **car = arena_alloc(D->C, sizeof(IrVar *) * (size_t)D->nv);
  memset(car, 0, sizeof(IrVar *) * (size_t)D->nv);
  Seq pre;
  seq_init(&pre);
  for (int i = 0; i < D->nv; i++) {
    if (!w[i] || i == jid || !D->env[i])
      continue;
    IrVar *prev = D->env[i];
    IrVar *L = newvar(D, "carried", prev->ty);
    assign(D, fw, L, ref(D, prev));
    if (fty(L->ty))
      acc(D, &pre, ref(D, prev), adjx(D, L));
    D->env[i] = L;
    car[i] = L;
  }
  /* the reverse loop: iterations last to first, each replaying the body */
  int int_made = D->nmade;
  D->loop_depth++;
  IrVar **outer_car = D->car, *outer_rflag = D->rflag;
  D->car = car;
  /* a kernel's return in the body (Note [adjoint jumps]) */
  D->rflag = has_kret(s->body) ? newvar(D, "returned", ty_scalar(KERN_SCALAR_BOOL))
                               : NULL;
  IrVar *rflag = D->rflag;
  IrVar *j = is_while ? NULL : newvar(D, "j", jt);
  if (j)
    D->env[jid] = j;
  Seq bf, br;
  seq_init(&bf);
  seq_init(&br);
  D->tile_rev += s->tile;
  block(D, s->body, &bf, &br);
  D->tile_rev -= s->tile;
  /* Warp's loop-carried variables: the body's last version is assigned
   * to the carried local at the end of the body (so the reverse rules
   * read the carried local's value after the replay); adj_assign passes
   * its adjoint on and clears it, the last assignment's first */
  for (int i = 0; i < D->nv; i++) {
    IrVar *L = car[i];
    if (!L || D->env[i] == L)
      continue;
    IrVar *last = D->env[i];
    Seq c0;
    seq_init(&c0);
    assign(D, &c0, L, ref(D, last));
    put_unless(D, &bf, rflag, &c0);
    IrVar *la = adj_of(D, L);
    if (la) {
      Seq c1;
      seq_init(&c1);
      acc(D, &c1, ref(D, last), ref(D, la));
      assign(D, &c1, la, zero_of(D, la->ty));
      Seq c2;
      seq_init(&c2);
      put_unless(D, &c2, rflag, &c1);
      prepend(&br, &c2);
    }
    D->env[i] = L; /* the replay skips the loop: the value from before */
  }
  for (int i = 0; ran && i < D->nv; i++) /* Note [tile adjoints] */
    if (car[i])
      assign(D, fw, car[i], ref(D, ran[i]));
  D->car = outer_car;
  D->rflag = outer_rflag;
  D->jumped = false;
  D->loop_depth--;
  Seq c, body;
  seq_init(&c);
  seq_init(&body);
  IrVar *t = NULL, *cntv = NULL;
  if (!is_while) {
    /* trip count: step > 0 ? (b > a ? (b - a + step - 1) / step : 0) : ... */
    IrExpr *zero = ir_const_int(D->C, jt, 0), *one = ir_const_int(D->C, jt, 1);
    IrExpr *up = ir_expr(D->C, E_SELECT, jt);
    up->a = bin(D, OP_GT, b, a);
    up->b = bin(D, OP_DIV, bin(D, OP_SUB, bin(D, OP_ADD, bin(D, OP_SUB, b, a), st), one), st);
    up->c = zero;
    IrExpr *down = ir_expr(D->C, E_SELECT, jt);
    down->a = bin(D, OP_GT, a, b);
    down->b = bin(D, OP_DIV, bin(D, OP_SUB, bin(D, OP_SUB, a, b), bin(D, OP_ADD, st, one)),
                  ir_unary(D->C, OP_NEG, st));
    down->c = zero;
    IrExpr *n = ir_expr(D->C, E_SELECT, jt);
    n->a = bin(D, OP_GT, st, zero);
    n->b = up;
    n->c = down;
    cntv = newvar(D, "n", jt);
    t = newvar(D, "it", jt);
    assign(D, &c, cntv, n);
    if (!is_while)
    assign(D, &body, j, bin(D, OP_ADD, a, bin(D, OP_MUL, ref(D, t), st)));
  }
  if (rflag)
    assign(D, &body, rflag, ir_const_int(D->C, rflag->ty, 0));
  /* the adjoints of the body's own values start at zero each iteration */
  for (int i = int_made; i < D->nmade; i++) {
    IrVar *av = map_get(&D->adjs, D->made[i]);
    if (av)
      assign(D, &body, av, zero_of(D, av->ty));
  }
  if (bf.head) {
    *body.tail = bf.head;
    body.tail = bf.tail;
  }
  if (br.head) {
    *body.tail = br.head;
    body.tail = br.tail;
  }
  IrStmt *loop;
  if (is_while) {
    /* the condition on the carried variables as they stand */
    loop = ir_stmt(D->C, S_WHILE, s->pos);
    loop->a = clone(D, NULL, s->a);
  } else {
    loop = ir_stmt(D->C, S_FOR, s->pos);
    loop->var = t;
    loop->a = bin(D, OP_SUB, ref(D, cntv), ir_const_int(D->C, jt, 1));
    loop->b = ir_const_int(D->C, jt, (uint64_t)(int64_t)-1);
    loop->c = ir_const_int(D->C, jt, (uint64_t)(int64_t)-1);
  }
  loop->body = body.head;
  put(&c, loop);
  /* after the loop's reverse, the copies into the carried locals' */
  if (pre.head) {
    *c.tail = pre.head;
    c.tail = pre.tail;
  }
  prepend(rv, &c);
}

/* wp.atomic_min/max on vectors and matrices: Warp's rule for floats
 * (below) on each component: v[k]'s gradient takes adj_a[i][k] when v[k]
 * is what a[i][k] holds after the launch (both NaN counts). */
static void atomic_minmax_agg(Ad *D, IrExpr *e, IrExpr *v, IrExpr **idx,
                              IrVar *adjarr, Seq *rv) {
  Seq body;
  seq_init(&body);
  IrExpr *cur = tmp(D, &body, load(D, D->env[kid(D, e->var)], idx, e->nargs,
                                   e->ty, e->pos));
  IrExpr *ld = tmp(D, &body, load(D, adjarr, idx, e->nargs, e->ty, e->pos));
  IrExpr *vv = tmp(D, &body, v);
  IrVar *g = newvar(D, "g", e->ty);
  assign(D, &body, g, zero_of(D, e->ty));
  for (int k = 0; k < ncomp(e->ty); k++) {
    IrExpr *ck = comp(D, cur, k), *vk = comp(D, vv, k);
    IrExpr *both = ir_expr(D->C, E_AND, ty_scalar(KERN_SCALAR_BOOL));
    both->a = bin(D, OP_NE, vk, vk);
    both->b = bin(D, OP_NE, ck, ck);
    IrExpr *c = ir_expr(D->C, E_OR, ty_scalar(KERN_SCALAR_BOOL));
    c->a = bin(D, OP_EQ, vk, ck);
    c->b = both;
    IrExpr *gk = comp(D, ref(D, g), k);
    IrStmt *st = ir_stmt(D->C, S_SETCOMP, D->pos);
    st->var = g;
    st->a = gk->b;
    st->b = gk->c;
    st->c = sel(D, c, comp(D, ld, k), fconst(D, gk->ty, 0));
    put(&body, st);
  }
  acc(D, &body, v, ref(D, g));
  Seq c2;
  seq_init(&c2);
  put(&c2, guarded(D, adjarr, &body));
  prepend(rv, &c2);
}

/* wp.atomic_add/sub(a, i, v) (also a[i] += v): v's gradient takes
 * adj_a[i] (negated for sub); the atomic is not performed again. */
/* Note [custom adjoints]: an atomic e or a store s (the other NULL) in a
 * custom adjoint's body runs as written, on the array its variable is
 * bound to (wp.adjoint[a] is a's adjoint array), skipped where that
 * array is null, as Warp's custom adjoint changes the .grad arrays it is
 * given. */
static void grad_effect(Ad *D, Seq *fw, Seq *rv, IrStmt *s, IrExpr *e) {
  IrVar *arr = D->env[kid(D, s ? s->var : e->var)];
  if (!arr)
    refuse(D, "this array in a @wp.func_grad");
  IrStmt *st = ir_stmt(D->C, s ? S_STORE : S_EXPR, D->pos);
  if (s) {
    *st = *s;
    st->next = NULL;
    st->var = arr;
    st->args = indices(D, fw, s->args, s->nargs);
    st->c = dval(D, fw, rv, s->c);
  } else {
    IrExpr *x = ir_expr(D->C, E_ATOMIC, e->ty);
    *x = *e;
    x->var = arr;
    x->args = indices(D, fw, e->args, e->nargs);
    x->c = dval(D, fw, rv, e->c);
    st->a = x;
  }
  Seq body;
  seq_init(&body);
  put(&body, st);
  put(fw, guarded(D, arr, &body));
}

static void stmt_atomic(Ad *D, IrExpr *e, Seq *fw, Seq *rv) {
  if (D->ingrad) {
    grad_effect(D, fw, rv, NULL, e);
    return;
  }
  Seq c;
  seq_init(&c);
  if (e->nfpath)
    refuse(D, "an atomic on a struct field");
  if (!fty(e->ty))
    return; /* an integer atomic: no replay, no gradient */
  if (e->bi == BI_ATOMIC_EXCH || e->bi == BI_ATOMIC_CAS)
    return; /* Warp 1.19's adjoints of these are empty: no gradient, and
             * adj_a[i] is left as it is (flow_atomic_exch.py) */
  bool minmax = e->bi == BI_ATOMIC_MIN || e->bi == BI_ATOMIC_MAX;
  if (e->bi != BI_ATOMIC_ADD && e->bi != BI_ATOMIC_SUB && !minmax)
    refuse(D, arena_printf(D->C, "wp.%s on %s", builtin_names[e->bi],
                           is_agg(e->ty) ? "vectors" : "floats"));
  IrExpr **idx = indices(D, fw, e->args, e->nargs);
  IrExpr *v = dval(D, fw, rv, e->c);
  IrVar *adjarr = adj_array(D, e->var);
  Seq body;
  seq_init(&body);
  if (minmax && is_agg(e->ty)) {
    atomic_minmax_agg(D, e, v, idx, adjarr, rv);
    return;
  }
  if (minmax) {
    /* Warp's adj_atomic_minmax: v's gradient takes adj_a[i] when v is
     * what a[i] holds after the launch (both NaN counts) */
    IrExpr *cur = tmp(D, &body, load(D, D->env[kid(D, e->var)], idx, e->nargs,
                                     e->ty, e->pos));
    IrExpr *both = ir_expr(D->C, E_AND, ty_scalar(KERN_SCALAR_BOOL));
    both->a = bin(D, OP_NE, v, v);
    both->b = bin(D, OP_NE, cur, cur);
    IrExpr *k = ir_expr(D->C, E_OR, ty_scalar(KERN_SCALAR_BOOL));
    k->a = bin(D, OP_EQ, v, cur);
    k->b = both;
    acc(D, &body, v, sel(D, k, load(D, adjarr, idx, e->nargs, e->ty, e->pos),
                         fconst(D, e->ty, 0)));
    Seq c2;
    seq_init(&c2);
    put(&c2, guarded(D, adjarr, &body));
    prepend(rv, &c2);
    return;
  }
  IrVar *g = newvar(D, "g", e->ty);
  IrExpr *ld = load(D, adjarr, idx, e->nargs, e->ty, e->pos);
  if (e->bi == BI_ATOMIC_SUB) {
    if (is_agg(e->ty)) {
      assign(D, &body, g, ld);
      for (int k = 0; k < ncomp(e->ty); k++) {
        IrStmt *st = ir_stmt(D->C, S_SETCOMP, D->pos);
        st->var = g;
        IrExpr *cc = comp(D, ref(D, g), k);
        st->a = cc->b;
        st->b = cc->c;
        st->c = ir_unary(D->C, OP_NEG, cc);
        put(&body, st);
      }
    } else {
      assign(D, &body, g, ir_unary(D->C, OP_NEG, ld));
    }
  } else {
    assign(D, &body, g, ld);
  }
  acc(D, &body, v, ref(D, g));
  put(&c, guarded(D, adjarr, &body));
  prepend(rv, &c);
}

/* -e, of a scalar or (a tile of vectors' t[k] -= v) an aggregate. */
static IrExpr *negated(Ad *D, IrExpr *e) {
  return is_agg(e->ty) ? call1(D, BI_NEG, e) : ir_unary(D->C, OP_NEG, e);
}

/* The replay's store of the tile element karr[idx] = v (s's value when
 * v is NULL): a tile is replayed for real (Note [tile adjoints]). */
static void tile_replay_store(Ad *D, Seq *fw, IrVar *karr, IrExpr **idx,
                              IrStmt *s, IrExpr *v) {
  if (D->tile_rev)
    return; /* the tile holds its values already */
  IrStmt *st = ir_stmt(D->C, S_STORE, s->pos);
  st->var = D->env[kid(D, karr)];
  st->args = idx;
  st->nargs = s->nargs;
  st->c = v ? v : clone(D, fw, s->c);
  put(fw, st);
}

/* old[k] = wp.tile_atomic_add's atomic (lower/check_tile.c): the
 * atomic's adjoint; the tile of old values is not replayed (the replay
 * performs no atomic), so a read of it is refused (tile_read). */
static void tile_atomic(Ad *D, IrStmt *s, Seq *fw, Seq *rv) {
  stmt_atomic(D, s->c, fw, rv);
  map_put(D, &D->atomres, s->var, s->var);
}

static void stmt(Ad *D, IrStmt *s, Seq *fw, Seq *rv) {
  D->pos = s->pos;
  if (s->noadj && !D->fwd) /* Note [tile adjoints] */
    refuse(D, s->noadj);
  Seq c;
  seq_init(&c);
  switch (s->kind) {
  case S_ASSIGN:
    stmt_assign(D, s, fw, rv);
    return;
  case S_STORE: {
    if (D->ingrad) {
      grad_effect(D, fw, rv, s, NULL);
      return;
    }
    IrVar *karr = s->var;
    if (karr->ty->tile && s->c->kind == E_ATOMIC) {
      tile_atomic(D, s, fw, rv);
      return;
    }
    IrExpr **idx = indices(D, fw, s->args, s->nargs);
    if (!fty(s->c->ty)) { /* refuses what has no rule */
      IrExpr *v = clone(D, fw, s->c);
      if (karr->ty->tile) /* an integer tile (wp.tile_argmax's) */
        tile_replay_store(D, fw, karr, idx, s, v);
      return;
    }
    bool sub = false;
    IrExpr *upd = karr->ty->priv ? fixed_update(D, s, &sub) : NULL;
    IrExpr *v = dval(D, fw, rv, upd ? upd : s->c);
    if (karr->ty->tile) {
      tile_written(D, karr);
      tile_replay_store(D, fw, karr, idx, s, upd ? NULL : v);
    }
    IrVar *adjarr = adj_array(D, karr);
    Seq body;
    seq_init(&body);
    IrVar *g = newvar(D, "g", s->c->ty);
    IrExpr *ga = load(D, adjarr, idx, s->nargs, s->c->ty, s->pos);
    assign(D, &body, g, sub ? negated(D, ga) : ga);
    if (!adjarr->ty->priv) { /* Note [adjoint fixed arrays]: not cleared */
      IrStmt *z = ir_stmt(D->C, S_STORE, s->pos);
      z->var = adjarr;
      z->args = idx;
      z->nargs = s->nargs;
      z->c = zero_of(D, s->c->ty);
      put(&body, z);
      map_put(D, &D->clears, z, z);
    } else if (karr->ty->tile && !upd) { /* Note [tile adjoints] */
      IrStmt *z = ir_stmt(D->C, S_STORE, s->pos);
      z->var = adjarr;
      z->args = idx;
      z->nargs = s->nargs;
      z->c = zero_of(D, s->c->ty);
      put(&body, z);
    }
    acc(D, &body, v, ref(D, g));
    put(&c, guarded(D, adjarr, &body));
    prepend(rv, &c);
    return;
  }
  case S_EXPR: {
    IrExpr *e = s->a;
    if (e->kind == E_FCALL) {
      (void)inline_call(D, fw, rv, e);
      return;
    }
    if (e->kind == E_CALL && e->bi == BI_XCHG_PUT) {
      IrExpr *a = e->args[0];
      xchg_put(D, fw, e, fty(a->ty) ? dval(D, fw, rv, a)
                                    : tmp(D, fw, clone(D, fw, a)));
      return;
    }
    if (e->kind != E_ATOMIC) {
      (void)clone(D, fw, e);
      return;
    }
    stmt_atomic(D, e, fw, rv);
    return;
  }
  case S_IF:
    stmt_if(D, s, fw, rv);
    return;
  case S_FOR:
    stmt_for(D, s, fw, rv);
    return;
  case S_PRINTF: case S_ASSERT:
    return; /* the replay neither prints nor checks */
  case S_WHILE:
    dyn_loop(D, s, fw, rv);
    return;
  case S_BREAK: case S_CONTINUE: {
    /* Note [adjoint jumps] */
    if (!D->car && s->kind == S_CONTINUE && D->unrolled)
      return; /* the end of its iteration (norm_conts) */
    if (!D->car)
      refuse(D, "break or continue in a loop");
    for (int i = 0; i < D->nv; i++)
      if (D->car[i] && D->env[i] && D->env[i] != D->car[i])
        assign(D, fw, D->car[i], ref(D, D->env[i]));
    put(fw, ir_stmt(D->C, s->kind, s->pos));
    D->jumped = true;
    return;
  }
  case S_RETURN: {
    if (D->resid < 0)
      refuse(D, "a return statement here");
    for (int i = 0; i < s->nargs; i++) /* several results: slot per result */
      D->env[D->resid + i] = ret_value(D, fw, rv, s->args[i]);
    if (!s->a)
      return;
    D->env[D->resid] = ret_value(D, fw, rv, s->a);
    return;
  }
  case S_KRETURN: /* the end of its statements (norm_returns) */
    if (D->rflag) /* in a dynamic loop (Note [adjoint jumps]) */
      assign(D, fw, D->rflag, ir_const_int(D->C, D->rflag->ty, 1));
    return;
  case S_SETFIELD:
    if (s->var->ty->kind == TY_ARRAY) { /* Note [arrays of structs] */
      aos_store(D, s, fw, rv);
      return;
    }
    refuse(D, "an assignment to a struct field");
  case S_SETCOMP:
    refuse(D, "an assignment to a vector component");
  case S_AGG:
    refuse(D, "an aggregated atomic");
  }
}

static void block(Ad *D, IrStmt *s, Seq *fw, Seq *rv) {
  for (; s && !D->jumped; s = s->next)
    stmt(D, s, fw, rv);
}

/* ---------------------------------------------------------------- returns */

static bool has_kreturn(IrStmt *s) {
  for (; s; s = s->next)
    if (s->kind == S_KRETURN || s->kind == S_RETURN || has_kreturn(s->body) ||
        has_kreturn(s->orelse))
      return true;
  return false;
}

/* a return outside the loops in s (those in loops end their iteration) */
static bool has_ret_nl(IrStmt *s) {
  for (; s; s = s->next)
    if (s->kind == S_KRETURN || s->kind == S_RETURN ||
        (s->kind != S_FOR && s->kind != S_WHILE &&
         (has_ret_nl(s->body) || has_ret_nl(s->orelse))))
      return true;
  return false;
}

static bool has_fret(IrStmt *s) {
  for (; s; s = s->next)
    if (s->kind == S_RETURN || has_fret(s->body) || has_fret(s->orelse))
      return true;
  return false;
}

/* whether stmt_for unrolls the loop s, as Warp does */
static bool unrolls(IrStmt *s) {
  if (s->kind != S_FOR || s->a->kind != E_CONST || s->b->kind != E_CONST ||
      s->c->kind != E_CONST || has_break(s->body))
    return false;
  int64_t a = (int64_t)s->a->ival, b = (int64_t)s->b->ival,
          st = (int64_t)s->c->ival;
  int64_t n = st > 0 ? (b > a ? (b - a + st - 1) / st : 0)
                     : st < 0 ? (a > b ? (a - b - st - 1) / -st : 0) : 0;
  return n <= 16;
}

static void append(IrStmt **head, IrStmt *rest) {
  while (*head)
    head = &(*head)->next;
  *head = rest;
}

/* Note [unrolled returns]: Warp unrolls a range() of constants (at most
 * 16 iterations, no break) while building the code, so a return in its
 * body (a kernel's or a @wp.func's) is one jump per iteration, to its own
 * point of the reverse sweep: the iteration that returns ends the work,
 * and neither its later statements, nor the later iterations, nor what
 * follows the loop run or are reversed.  Here the loop is unrolled into
 * the statements before norm_returns goes on: per iteration, the loop
 * variable's constant and a copy of the body, whose continues
 * (norm_conts) end their copy and are dropped; the returns of the copies
 * then end their paths as any other (Note [tail paths]), so the gradient
 * is the derivative, as Warp's. */

/* the iterations of a range() of constants */
static int64_t trips(IrStmt *s) {
  int64_t a = (int64_t)s->a->ival, b = (int64_t)s->b->ival,
          st = (int64_t)s->c->ival;
  return st > 0 ? (b > a ? (b - a + st - 1) / st : 0)
                : st < 0 ? (a > b ? (a - b - st - 1) / -st : 0) : 0;
}

/* the statements of s, copied (their expressions shared) */
static IrStmt *copy_body(Compiler *C, IrStmt *s) {
  IrStmt *head = NULL, **tail = &head;
  for (; s; s = s->next) {
    IrStmt *n = ir_stmt(C, s->kind, s->pos);
    *n = *s;
    n->body = copy_body(C, s->body);
    n->orelse = copy_body(C, s->orelse);
    n->next = NULL;
    *tail = n;
    tail = &n->next;
  }
  return head;
}

/* drops the continues that end the paths of a normalized body */
static void drop_conts(IrStmt **head) {
  for (IrStmt **p = head; *p;) {
    if ((*p)->kind == S_CONTINUE) {
      *p = (*p)->next;
      continue;
    }
    if ((*p)->kind == S_IF) {
      drop_conts(&(*p)->body);
      drop_conts(&(*p)->orelse);
    }
    p = &(*p)->next;
  }
}

/* the unrolled iterations of the loop s, followed by what follows s */
static IrStmt *unroll_returns(Ad *D, IrStmt *s) {
  IrStmt *head = NULL, **tail = &head;
  int64_t n = trips(s), a = (int64_t)s->a->ival, st = (int64_t)s->c->ival;
  for (int64_t t = 0; t < n; t++) {
    IrStmt *j = ir_stmt(D->C, S_ASSIGN, s->pos);
    j->var = s->var;
    j->a = ir_const_int(D->C, s->var->ty, (uint64_t)(a + t * st));
    IrStmt *b = copy_body(D->C, s->body);
    (void)norm_conts(D, &b);
    drop_conts(&b);
    j->next = b;
    *tail = j;
    while (*tail)
      tail = &(*tail)->next;
  }
  *tail = s->next;
  return head;
}

/* Warp ends a kernel's early return by jumping to the matching point of
 * the reverse sweep, so what follows the return neither runs nor is
 * reversed.  The same, structured: the statements after an `if` whose
 * branch always returns move into its other branch, so every return ends
 * the kernel's statements and is dropped; after a branch that returns on
 * only some of its paths, what follows goes to the end of the others
 * (Note [tail paths]).  Returns whether the block always returns. */
static bool norm_returns(Ad *D, IrStmt **head) {
  for (IrStmt **p = head; *p; p = &(*p)->next) {
    IrStmt *s = *p;
    D->pos = s->pos;
    if (s->kind == S_KRETURN || s->kind == S_RETURN) {
      s->next = NULL; /* the rest is unreachable */
      return true;
    }
    if (s->kind == S_FOR || s->kind == S_WHILE) {
      if (!has_kreturn(s->body))
        continue;
      if (unrolls(s) && trips(s) > 0) { /* Note [unrolled returns] */
        *p = unroll_returns(D, s); /* an assignment first: goes on after it */
        continue;
      }
      /* a kernel's return in a loop Warp does not unroll (Note [adjoint
       * jumps]) ends the paths of the body it is on */
      if (D->resid >= 0 || has_fret(s->body))
        refuse(D, "a return statement in a loop");
      /* Warp's reverse while loop would not stop where the replay
       * returns before the carried variables are updated */
      if (s->kind == S_WHILE)
        refuse(D, "a return statement in a while loop");
      (void)norm_returns(D, &s->body);
      D->pos = s->pos;
      continue;
    }
    if (s->kind != S_IF)
      continue;
    bool t = norm_returns(D, &s->body), e = norm_returns(D, &s->orelse);
    IrStmt *rest = s->next;
    if (t && e) {
      s->next = NULL;
      return true;
    }
    if (t || e) {
      s->next = NULL;
      append(t ? &s->orelse : &s->body, rest);
      if (norm_returns(D, t ? &s->orelse : &s->body))
        return true;
      return false;
    }
    if (has_ret_nl(s->body) || has_ret_nl(s->orelse)) {
      s->next = NULL; /* Note [tail paths] */
      bool r = norm_returns(D, &rest);
      append_ends(D, s, rest, S_RETURN);
      return r;
    }
  }
  return false;
}


/* ---------------------------------------------------------------- late clears
 *
 * Note [late clears]
 * The adjoint of a store a[i] = v reads adj_a[i] and clears it.  Emitted
 * where the rule runs, the clearing store comes before the atomics that
 * pass the gradient on (adj_x[i] += ...), and on an H200 a plain store
 * followed by float atomics in one thread made saxpy's adjoint 3.8x
 * slower than the same operations with the store after them (517 vs 135
 * us for 2^24 items, bench/NOTES.md run 9): the atomics wait for the
 * store.  So each clearing store is moved, under its own null test, past
 * the statements after it that neither touch adj_a nor assign a variable
 * its indices read nor leave the block: what any statement sees is
 * unchanged, only the order of independent memory operations is.  Calls
 * and control transfers stop it. */

static bool touches_expr(const IrExpr *e, const IrVar *arr) {
  if (!e)
    return false;
  if (e->kind == E_FCALL)
    return true;
  if ((e->kind == E_LOAD || e->kind == E_ATOMIC || e->kind == E_VIEW ||
       e->kind == E_ADDR) && e->var == arr)
    return true;
  if (touches_expr(e->a, arr) || touches_expr(e->b, arr) ||
      touches_expr(e->c, arr))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (touches_expr(e->args[i], arr))
      return true;
  return false;
}

static bool reads_var(const IrExpr *e, const IrVar *v) {
  if (!e)
    return false;
  if (e->var == v)
    return true;
  if (reads_var(e->a, v) || reads_var(e->b, v) || reads_var(e->c, v))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (reads_var(e->args[i], v))
      return true;
  return false;
}

/* Whether the clearing store z may move past s. */
static bool passable(const IrStmt *s, const IrStmt *z) {
  for (; s; s = s->next) {
    if (s->kind != S_ASSIGN && s->kind != S_SETCOMP && s->kind != S_SETFIELD &&
        s->kind != S_STORE && s->kind != S_EXPR && s->kind != S_IF &&
        s->kind != S_FOR && s->kind != S_WHILE)
      return false; /* control transfers, asserts, prints, aggregates */
    if (s->kind == S_STORE && s->var == z->var)
      return false;
    if (s->kind != S_STORE && s->var)
      for (int i = 0; i < z->nargs; i++)
        if (reads_var(z->args[i], s->var))
          return false;
    if (touches_expr(s->a, z->var) || touches_expr(s->b, z->var) ||
        touches_expr(s->c, z->var))
      return false;
    for (int i = 0; i < s->nargs; i++)
      if (touches_expr(s->args[i], z->var))
        return false;
    if (!passable(s->body, z) || !passable(s->orelse, z))
      return false;
  }
  return true;
}

static void sink_clears(Ad *D, IrStmt **list) {
  for (IrStmt **pp = list; *pp; pp = &(*pp)->next) {
    IrStmt *s = *pp;
    sink_clears(D, &s->body);
    sink_clears(D, &s->orelse);
    if (s->kind != S_IF || s->orelse)
      continue;
    IrStmt **zp = &s->body;
    while (*zp && !map_get(&D->clears, *zp))
      zp = &(*zp)->next;
    IrStmt *z = *zp;
    if (!z)
      continue;
    IrStmt *last = NULL; /* the last statement z may pass */
    for (IrStmt *t = s->next; t; t = t->next) {
      IrStmt one = *t;
      one.next = NULL;
      if (!passable(&one, z))
        break;
      last = t;
    }
    if (!last)
      continue;
    map_put(D, &D->clears, z, NULL); /* moved once: two never swap forever */
    *zp = z->next; /* out of the rule's block ... */
    z->next = NULL;
    IrStmt *g = ir_stmt(D->C, S_IF, z->pos); /* ... into its own, later */
    g->a = s->a;
    g->body = z;
    g->next = last->next;
    last->next = g;
  }
}


/* ---------------------------------------------------------------- entry */

static IrVar *param(Ad *D, IrVar *p, const char *name, int index) {
  IrVar *v = arena_alloc(D->C, sizeof *v);
  *v = *p;
  v->next = NULL;
  v->name = name;
  v->index = index;
  v->is_param = true;
  return v;
}

IrFunc *ir_adjoint(Compiler *C, IrModule *m, IrFunc *K) {
  Ad D0, *D = &D0;
  memset(D, 0, sizeof *D);
  D->C = C;
  D->K = K;
  D->pos = K->pos;
  IrFunc *A = arena_alloc(C, sizeof *A);
  memset(A, 0, sizeof *A);
  D->A = A;
  A->name = arena_printf(C, "adj_%s", K->name);
  A->symbol = arena_printf(C, "%s_adj", K->symbol);
  A->is_kernel = true;
  A->pos = K->pos;
  A->tid_dims = K->tid_dims;
  A->uses_fp64 = K->uses_fp64;
  A->uses_atomics = true;
  A->uses_block = K->uses_block;
  A->uses_xchg = K->uses_xchg; /* Note [exchange adjoints] */
  A->ret = K->ret;
  /* ids for K's variables */
  int nv = 0;
  for (IrVar *v = K->params; v; v = v->next)
    map_put(D, &D->ids, v, (void *)(intptr_t)++nv);
  for (IrVar *v = K->locals; v; v = v->next)
    map_put(D, &D->ids, v, (void *)(intptr_t)++nv);
  for (IrFunc *f = m->funcs; f; f = f->next) {
    for (IrVar *v = f->params; v; v = v->next)
      map_put(D, &D->ids, v, (void *)(intptr_t)++nv);
    for (IrVar *v = f->locals; v; v = v->next)
      map_put(D, &D->ids, v, (void *)(intptr_t)++nv);
    map_put(D, &D->fres, f, (void *)(intptr_t)(nv + 1));
    nv += f->nrets > 1 ? f->nrets : 1; /* a slot per result */
  }
  D->resid = -1;
  D->nv = nv;
  D->env = arena_alloc(C, sizeof(IrVar *) * (size_t)(nv ? nv : 1));
  memset(D->env, 0, sizeof(IrVar *) * (size_t)(nv ? nv : 1));
  /* parameters: the forward ones, then adj_NAME for each */
  IrVar **tail = &A->params;
  int i = 0;
  for (IrVar *p = K->params; p; p = p->next, i++) {
    IrVar *v = param(D, p, p->name, i);
    *tail = v;
    tail = &v->next;
    D->env[kid(D, p)] = v;
  }
  int np = i;
  i = 0;
  for (IrVar *p = K->params; p; p = p->next, i++) {
    const char *us = strchr(p->name, '_');
    IrVar *v = param(D, p, arena_printf(C, "p%d_adj_%s", np + i,
                                        us ? us + 1 : p->name), np + i);
    v->byref = false;
    *tail = v;
    tail = &v->next;
    map_put(D, &D->adjarr, D->env[kid(D, p)], v);
    if (p->byref)
      refuse(D, "a wp.ref parameter");
  }
  A->nparams = 2 * np;
  (void)norm_returns(D, &K->body);
  D->pos = K->pos;
  Seq fw, rv;
  seq_init(&fw);
  seq_init(&rv);
  seq_init(&D->fixpro);
  block(D, K->body, &fw, &rv);
  if (rv.head) {
    *fw.tail = rv.head;
    fw.tail = rv.tail;
  }
  prepend(&fw, &D->fixpro);
  A->body = fw.head;
  sink_clears(D, &A->body);
  return A;
}

/* ---------------------------------------------------------------- keep */

/* Is bi one of Warp's random vectors (a sample drawn from an rng state)? */
static bool random_vector(int bi) {
  switch (bi) {
  case BI_SAMPLE_TRIANGLE: case BI_SAMPLE_UNIT_RING: case BI_SAMPLE_UNIT_DISK:
  case BI_SAMPLE_UNIT_SPHERE_SURFACE: case BI_SAMPLE_UNIT_SPHERE:
  case BI_SAMPLE_UNIT_HEMISPHERE_SURFACE: case BI_SAMPLE_UNIT_HEMISPHERE:
  case BI_SAMPLE_UNIT_SQUARE: case BI_SAMPLE_UNIT_CUBE:
    return true;
  default:
    return false;
  }
}

static void keep_expr(IrExpr *e) {
  if (!e)
    return;
  /* a random vector is computed from no float: kept whole, a constant of
   * the adjoint and the tangent, as in Warp (Note [expansion] keeps it) */
  if (e->kind == E_CALL && random_vector(e->bi))
    e->ival = IR_KEEP_CALL;
  if (e->kind == E_CALL && e->ty->kind == TY_SCALAR && fty(e->ty) &&
      (e->bi == BI_MIN || e->bi == BI_MAX || e->bi == BI_CLAMP))
    e->ival = IR_KEEP_CALL;
  /* frac: Warp's adjoint is zero (its adj_frac is empty), not the
   * derivative of x - trunc(x); on vectors too, componentwise */
  if (e->kind == E_CALL && fty(e->ty) && e->bi == BI_FRAC)
    e->ival = IR_KEEP_CALL;
  if (e->kind == E_CALL && is_linalg(e->bi))
    e->ival = IR_KEEP_CALL; /* Note [linalg adjoints] */
  if (e->kind == E_CALL && is_noise(e->bi))
    e->ival = IR_KEEP_CALL; /* Note [noise adjoints] */
  keep_expr(e->a);
  keep_expr(e->b);
  keep_expr(e->c);
  for (int i = 0; i < e->nargs; i++)
    keep_expr(e->args[i]);
}

static void keep_stmts(IrStmt *s) {
  for (; s; s = s->next) {
    keep_expr(s->a);
    keep_expr(s->b);
    keep_expr(s->c);
    for (int i = 0; i < s->nargs; i++)
      keep_expr(s->args[i]);
    keep_stmts(s->body);
    keep_stmts(s->orelse);
  }
}

/* The functions the kernel calls, directly or not, marked in seen. */
static void reach_expr(Map *seen, Ad *D, IrExpr *e);

static void reach_stmts(Map *seen, Ad *D, IrStmt *s) {
  for (; s; s = s->next) {
    reach_expr(seen, D, s->a);
    reach_expr(seen, D, s->b);
    reach_expr(seen, D, s->c);
    for (int i = 0; i < s->nargs; i++)
      reach_expr(seen, D, s->args[i]);
    reach_stmts(seen, D, s->body);
    reach_stmts(seen, D, s->orelse);
  }
}

static void reach_expr(Map *seen, Ad *D, IrExpr *e) {
  if (!e)
    return;
  if (e->kind == E_FCALL && e->fn && !map_get(seen, e->fn)) {
    map_put(D, seen, e->fn, e->fn);
    reach_stmts(seen, D, e->fn->body);
    IrFunc *g = e->fn->grad; /* Note [custom adjoints] */
    if (g && !map_get(seen, g)) {
      map_put(D, seen, g, g);
      reach_stmts(seen, D, g->body);
    }
    g = e->fn->replay;
    if (g && !map_get(seen, g)) {
      map_put(D, seen, g, g);
      reach_stmts(seen, D, g->body);
    }
  }
  reach_expr(seen, D, e->a);
  reach_expr(seen, D, e->b);
  reach_expr(seen, D, e->c);
  for (int i = 0; i < e->nargs; i++)
    reach_expr(seen, D, e->args[i]);
}

/* ---------------------------------------------------------------- struct leaves
 *
 * Note [struct leaves]: the adjoint and the tangent differentiate structs
 * by taking them apart before the expansion (ir_adjoint_prepare), as the
 * expansion takes vectors apart: every struct variable of the kernel and
 * of the functions it calls becomes one local per leaf field (a field
 * that is not itself a struct, nested structs' fields in place, depth
 * first), so a float field is a float local and gets its gradient as any
 * local does, and an array field is an array local.  s.f reads its leaf,
 * s.f = x assigns it (s.v[k] = x is refused: Warp's adjoint neither
 * replays it nor gives x a gradient), a struct copy (s = t, s.inner = q,
 * S(...), whose fields the lowering sets one by one) assigns leaf by leaf,
 * and a @wp.func's struct parameter becomes one parameter per leaf, so a
 * call passes the leaves.  A kernel's struct parameter stays whole (the
 * launch passes its bytes): its leaves are locals copied from its fields
 * at the kernel's start, so the adjoint reads a field of a parameter only
 * there.  A float field of a parameter is then a value parameter's, whose
 * adjoint Warp discards (its adjoint struct is passed by value), and
 * whose tangent is the same field of the tangent struct; an array field's
 * adjoint (tangent) array is the same field of the adjoint (tangent)
 * struct, which wp.Tape fills with the arrays' .grad (Warp's own kernels
 * reach the same arrays through the .grad address of the array's
 * descriptor; kern leaves that address zero, docs/ABI.md).  A function
 * returning a struct returns nothing here: its return statements assign
 * scalar result locals, one per scalar of its leaves (result_slots), and
 * a call of it is hoisted before its statement, its result copied out of
 * those locals into a fresh struct local's leaves (fl_call), which the
 * adjoint's and the tangent's inlining of the call leaves readable.  An
 * element of an array of structs is read and written leaf by leaf, as
 * field chains on the element (Note [aos leaves]). */

typedef struct Fl {
  Ad *D;            /* its arena and maps */
  Map leaves;       /* struct variable -> IrVar *[nleaves] */
  Map params;       /* function -> its original parameters' types (1 + n) */
  Map fret;         /* function returning a struct -> its result's scalar
                     * locals (result_slots) */
  Map fmulti;       /* function with several results, some structs -> per
                     * result, its struct's scalar locals or NULL
                     * (Note [several results]) */
  IrFunc *f;
  Seq *pre;         /* where a statement's hoisted calls go */
} Fl;

static _Noreturn void fl_refuse(Fl *F, Pos pos, const char *what) {
  diag_error(F->D->C, pos, "autodiff of %s is not supported yet (issue #26)",
             what);
}

static void fl_put(Seq *s, Compiler *C, Pos pos, IrVar *v, IrExpr *e) {
  IrStmt *st = ir_stmt(C, S_ASSIGN, pos);
  st->var = v;
  st->a = e;
  put(s, st);
}

static int nleaves(const Type *t) {
  if (t->kind != TY_STRUCT)
    return 1;
  int n = 0;
  for (int k = 0; k < t->n; k++)
    n += nleaves(t->items[k]);
  return n;
}

/* The type of leaf j of t and its name (the field path joined by _). */
static const Type *leaf_type(Fl *F, const Type *t, int j, const char **name) {
  int k = 0;
  while (j >= nleaves(t->items[k])) /* j < nleaves(t) */
    j -= nleaves(t->items[k++]);
  const char *sub = NULL;
  const Type *r = t->items[k]->kind == TY_STRUCT
                      ? leaf_type(F, t->items[k], j, &sub) : t->items[k];
  *name = sub ? arena_printf(F->D->C, "%s_%s", t->fnames[k], sub) : t->fnames[k];
  return r;
}

/* Leaf j of the struct value e, as a chain of E_FIELDs on e. */
static IrExpr *leaf_chain(Fl *F, IrExpr *e, int j) {
  const Type *t = e->ty;
  if (t->kind != TY_STRUCT)
    return e;
  int k = 0;
  while (j >= nleaves(t->items[k]))
    j -= nleaves(t->items[k++]);
  IrExpr *f = ir_expr(F->D->C, E_FIELD, t->items[k]);
  f->a = e;
  f->ival = (uint64_t)k;
  return leaf_chain(F, f, j);
}

/* The leaves of struct variable v, made on first use. */
static IrVar **leaves_of(Fl *F, IrVar *v) {
  IrVar **l = map_get(&F->leaves, v);
  if (l)
    return l;
  int n = nleaves(v->ty);
  l = arena_alloc(F->D->C, sizeof(IrVar *) * (size_t)n);
  for (int j = 0; j < n; j++) {
    const char *name;
    const Type *t = leaf_type(F, v->ty, j, &name);
    l[j] = ir_var(F->D->C, F->f, name, t);
  }
  map_put(F->D, &F->leaves, v, l);
  return l;
}

/* The field chain e on a struct variable with leaves: the first leaf it
 * covers and how many; -1 when e is no such chain. */
static int chain_leaves(Fl *F, IrExpr *e, IrVar ***root, int *count) {
  if (e->kind == E_VAR && e->var->ty->kind == TY_STRUCT &&
      map_get(&F->leaves, e->var)) {
    *root = map_get(&F->leaves, e->var);
    *count = nleaves(e->ty);
    return 0;
  }
  if (e->kind != E_FIELD)
    return -1;
  int first = chain_leaves(F, e->a, root, count);
  if (first < 0)
    return -1;
  const Type *t = e->a->ty;
  for (int k = 0; k < (int)e->ival; k++)
    first += nleaves(t->items[k]);
  *count = nleaves(e->ty);
  return first;
}

static IrExpr *fl_expr(Fl *F, IrExpr *e, Pos pos);

static void fl_copy(Fl *F, Seq *out, Pos pos, IrVar **dst, int n, IrExpr *e);
static IrExpr **struct_leaves(Fl *F, IrExpr *e, Pos pos);

/* The n leaves l of a struct assigned from a function's result slots. */
static void fl_unslot(Fl *F, Seq *out, Pos pos, IrVar **l, int n,
                      IrVar **slot) {
  Compiler *C = F->D->C;
  for (int j = 0, s = 0; j < n; j++) {
    const Type *lt = l[j]->ty;
    if (lt->kind != TY_VEC && lt->kind != TY_MAT) {
      fl_put(out, C, pos, l[j], ir_ref(C, slot[s++]));
      continue;
    }
    IrExpr *m = ir_expr(C, E_MAKE, lt);
    m->nargs = lt->rows * lt->cols;
    m->args = arena_alloc(C, sizeof(IrExpr *) * (size_t)m->nargs);
    for (int k = 0; k < m->nargs; k++)
      m->args[k] = ir_ref(C, slot[s++]);
    fl_put(out, C, pos, l[j], m);
  }
}

/* A call of a function returning a struct, put before the statement (in
 * F->pre) as a call without a result; its result's leaves are copied
 * into the leaves of a fresh struct local, which is the value. */
static IrExpr *fl_call(Fl *F, IrExpr *e, Pos pos) {
  Compiler *C = F->D->C;
  IrExpr call = *e;
  call.ty = &ty_void;
  IrStmt *st = ir_stmt(C, S_EXPR, pos);
  st->a = fl_expr(F, &call, pos);
  put(F->pre, st);
  IrVar *t = ir_var(C, F->f, "call", e->ty);
  fl_unslot(F, F->pre, pos, leaves_of(F, t), nleaves(e->ty),
            map_get(&F->fret, e->fn));
  return ir_ref(C, t);
}

/* A function's struct result goes out through scalar locals, one per
 * scalar of its leaves (the expansion takes a vector local apart in its
 * own function only, so none crosses to the caller). */
static IrVar **result_slots(Fl *F, IrFunc *f, const Type *t) {
  Compiler *C = F->D->C;
  int n = 0;
  for (int j = 0; j < nleaves(t); j++) {
    const char *name;
    const Type *lt = leaf_type(F, t, j, &name);
    n += lt->kind == TY_VEC || lt->kind == TY_MAT ? lt->rows * lt->cols : 1;
  }
  IrVar **slot = arena_alloc(C, sizeof(IrVar *) * (size_t)n);
  n = 0;
  for (int j = 0; j < nleaves(t); j++) {
    const char *name;
    const Type *lt = leaf_type(F, t, j, &name);
    if (lt->kind != TY_VEC && lt->kind != TY_MAT) {
      slot[n++] = ir_var(C, f, arena_printf(C, "ret_%s", name), lt);
      continue;
    }
    for (int k = 0; k < lt->rows * lt->cols; k++)
      slot[n++] = ir_var(C, f, arena_printf(C, "ret_%s_%d", name, k),
                         ty_scalar(lt->sc));
  }
  return slot;
}

/* return e (a struct) in f: e's scalars into f's result slots. */
static void fl_return(Fl *F, Seq *out, IrExpr *e, Pos pos, IrVar **slot) {
  Compiler *C = F->D->C;
  int n = nleaves(e->ty);
  IrExpr **src = struct_leaves(F, e, pos);
  for (int j = 0, s = 0; j < n; j++) {
    const Type *lt = src[j]->ty;
    if (lt->kind != TY_VEC && lt->kind != TY_MAT) {
      fl_put(out, C, pos, slot[s++], src[j]);
      continue;
    }
    for (int k = 0; k < lt->rows * lt->cols; k++) {
      IrExpr *c = ir_expr(C, E_COMP, ty_scalar(lt->sc));
      c->a = src[j];
      c->b = ir_const_int(C, ty_scalar(KERN_SCALAR_INT32),
                          (uint64_t)(lt->kind == TY_MAT ? k / lt->cols : k));
      if (lt->kind == TY_MAT)
        c->c = ir_const_int(C, ty_scalar(KERN_SCALAR_INT32), (uint64_t)(k % lt->cols));
      fl_put(out, C, pos, slot[s++], c);
    }
  }
}

/* e with a call returning a struct at the root of its fields hoisted. */
static IrExpr *fl_root(Fl *F, IrExpr *e, Pos pos) {
  if (e->kind == E_FCALL && map_get(&F->fret, e->fn))
    return fl_call(F, e, pos);
  if (e->kind != E_FIELD)
    return e;
  IrExpr *a = fl_root(F, e->a, pos);
  if (a == e->a)
    return e;
  IrExpr *n = ir_expr(F->D->C, E_FIELD, e->ty);
  *n = *e;
  n->a = a;
  return n;
}

/* Note [aos leaves]: a whole element of an array of structs (s = a[i],
 * a[i] = s, a[i].inner = q, f(a[i]), a[i] = b[j]) is taken apart into
 * its leaves as a struct variable is (Note [struct leaves]), each leaf
 * read or written as a field chain on the element, so that the adjoint
 * and the tangent differentiate field by field (Note [arrays of
 * structs]): reading it reads each leaf's field (one load each, which
 * the replay may repeat: loads have no effect), storing it stores each
 * leaf's field.  An element with an array field is refused. */

/* Is e an element of an array of structs, or a chain of fields on one? */
static bool is_elem(IrExpr *e) {
  while (e->kind == E_FIELD)
    e = e->a;
  return e->kind == E_LOAD;
}

static void no_array_leaves(Fl *F, const Type *t, Pos pos) {
  for (int j = 0; j < nleaves(t); j++) {
    const char *name;
    if (leaf_type(F, t, j, &name)->kind == TY_ARRAY)
      fl_refuse(F, pos, "a whole struct element with an array field (an "
                        "array of structs)");
  }
}

/* The leaves of the element (or field of one) e, field chains on it. */
static IrExpr **elem_leaves(Fl *F, IrExpr *e, Pos pos) {
  no_array_leaves(F, e->ty, pos);
  int n = nleaves(e->ty);
  IrExpr **r = arena_alloc(F->D->C, sizeof(IrExpr *) * (size_t)n);
  for (int j = 0; j < n; j++)
    r[j] = leaf_chain(F, fl_expr(F, e, pos), j);
  return r;
}

/* The n leaf values of the struct value e (a variable, a field of one, a
 * function's result, an element of an array of structs). */
static IrExpr **struct_leaves(Fl *F, IrExpr *e, Pos pos) {
  e = fl_root(F, e, pos);
  if (is_elem(e))
    return elem_leaves(F, e, pos);
  IrVar **root;
  int n, first = chain_leaves(F, e, &root, &n);
  if (first < 0)
    fl_refuse(F, pos, e->kind == E_FCALL ? "a @wp.func's struct result"
                  : "this struct value");
  IrExpr **r = arena_alloc(F->D->C, sizeof(IrExpr *) * (size_t)n);
  for (int j = 0; j < n; j++)
    r[j] = ir_ref(F->D->C, root[first + j]);
  return r;
}

static IrExpr *fl_expr(Fl *F, IrExpr *e, Pos pos) {
  if (!e)
    return NULL;
  if (e->kind == E_FIELD)
    e = fl_root(F, e, pos);
  if (e->kind == E_FIELD || (e->kind == E_VAR && e->ty->kind == TY_STRUCT)) {
    IrVar **root;
    int n, first = chain_leaves(F, e, &root, &n);
    if (first >= 0 && e->ty->kind != TY_STRUCT)
      return ir_ref(F->D->C, root[first]);
    if (first >= 0)
      fl_refuse(F, pos, "a whole struct value here");
  }
  if (e->kind == E_FCALL && e->ty->kind == TY_STRUCT && map_get(&F->fret, e->fn))
    fl_refuse(F, pos, "a whole struct value here (a struct result)");
  for (int i = 0; e->kind == E_FCALL && i <= e->nouts; i++)
    if ((i ? e->outs[i - 1]->ty : e->ty)->kind == TY_STRUCT)
      fl_refuse(F, pos, "a @wp.func's struct result among several");
  IrExpr *n = ir_expr(F->D->C, e->kind, e->ty);
  *n = *e;
  n->a = fl_expr(F, e->a, pos);
  n->b = fl_expr(F, e->b, pos);
  n->c = fl_expr(F, e->c, pos);
  const Type **pt = e->kind == E_FCALL ? map_get(&F->params, e->fn) : NULL;
  if (!e->nargs)
    return n;
  int na = 0;
  for (int i = 0; i < e->nargs; i++)
    na += pt && pt[i]->kind == TY_STRUCT ? nleaves(pt[i]) : 1;
  n->args = arena_alloc(F->D->C, sizeof(IrExpr *) * (size_t)na);
  n->nargs = 0;
  for (int i = 0; i < e->nargs; i++) {
    if (pt && pt[i]->kind == TY_STRUCT) {
      IrExpr **l = struct_leaves(F, e->args[i], pos);
      for (int j = 0; j < nleaves(pt[i]); j++)
        n->args[n->nargs++] = l[j];
    } else {
      n->args[n->nargs++] = fl_expr(F, e->args[i], pos);
    }
  }
  return n;
}

/* The leaves dst[0..n) assigned the struct value e, leaf by leaf. */
static void fl_copy(Fl *F, Seq *out, Pos pos, IrVar **dst, int n, IrExpr *e) {
  Compiler *C = F->D->C;
  if (e->kind == E_MAKE && !e->nargs) { /* S(): all zero, arrays unset */
    for (int j = 0; j < n; j++) {
      const Type *t = dst[j]->ty;
      if (t->kind == TY_ARRAY)
        continue;
      const Type *st = ty_scalar(t->sc);
      IrExpr *z = sc_is_float(t->sc) ? ir_const_float(C, st, 0)
                                     : ir_const_int(C, st, 0);
      if (t->kind == TY_VEC || t->kind == TY_MAT) {
        IrExpr *m = ir_expr(C, E_MAKE, t);
        m->nargs = 1;
        m->args = arena_alloc(C, sizeof(IrExpr *));
        m->args[0] = z;
        z = m;
      }
      fl_put(out, C, pos, dst[j], z);
    }
    return;
  }
  IrExpr **src = struct_leaves(F, e, pos);
  /* through temporaries: s = s.inner's leaves overlap their targets */
  IrVar **t = arena_alloc(C, sizeof(IrVar *) * (size_t)n);
  for (int j = 0; j < n; j++) {
    t[j] = ir_var(C, F->f, "leaf", dst[j]->ty);
    fl_put(out, C, pos, t[j], src[j]);
  }
  for (int j = 0; j < n; j++)
    fl_put(out, C, pos, dst[j], ir_ref(C, t[j]));
}

static IrStmt *fl_stmts(Fl *F, IrStmt *s);

/* Component k of the vector or matrix e. */
static IrExpr *fl_comp(Compiler *C, IrExpr *e, int k) {
  const Type *t = e->ty;
  IrExpr *c = ir_expr(C, E_COMP, ty_scalar(t->sc));
  c->a = e;
  c->b = ir_const_int(C, ty_scalar(KERN_SCALAR_INT32),
                      (uint64_t)(t->kind == TY_MAT ? k / t->cols : k));
  if (t->kind == TY_MAT)
    c->c = ir_const_int(C, ty_scalar(KERN_SCALAR_INT32), (uint64_t)(k % t->cols));
  return c;
}

/* lv = v into a field (not a struct) of an element of arr, from the
 * local v: one store per component of a vector or matrix field (the
 * expansion stores scalars into fields only). */
static void fl_leaf_store(Fl *F, Seq *out, Pos pos, IrVar *arr, IrExpr *lv,
                          IrVar *v) {
  Compiler *C = F->D->C;
  bool agg = lv->ty->kind == TY_VEC || lv->ty->kind == TY_MAT;
  for (int k = 0; k < (agg ? lv->ty->rows * lv->ty->cols : 1); k++) {
    IrStmt *st = ir_stmt(C, S_SETFIELD, pos);
    st->var = arr;
    st->a = agg ? fl_comp(C, fl_expr(F, lv, pos), k) : fl_expr(F, lv, pos);
    st->c = agg ? fl_comp(C, ir_ref(C, v), k) : ir_ref(C, v);
    put(out, st);
  }
}

/* lv = c, lv a struct element of the array arr or a field of one (Note
 * [aos leaves]): c's leaves into the leaves of a fresh struct local (c
 * into a fresh local for a vector or matrix field), then each into its
 * field of the element. */
static void fl_elem_store(Fl *F, Seq *out, Pos pos, IrVar *arr, IrExpr *lv,
                          IrExpr *c) {
  Compiler *C = F->D->C;
  if (lv->ty->kind != TY_STRUCT) {
    IrVar *t = ir_var(C, F->f, "elem", lv->ty);
    fl_put(out, C, pos, t, fl_expr(F, c, pos));
    fl_leaf_store(F, out, pos, arr, lv, t);
    return;
  }
  no_array_leaves(F, lv->ty, pos);
  int n = nleaves(lv->ty);
  IrVar **t = leaves_of(F, ir_var(C, F->f, "elem", lv->ty));
  fl_copy(F, out, pos, t, n, c);
  for (int j = 0; j < n; j++)
    fl_leaf_store(F, out, pos, arr, leaf_chain(F, lv, j), t[j]);
}

/* s.f... = c on a struct variable with leaves. */
static void fl_setfield(Fl *F, Seq *out, IrStmt *s) {
  Compiler *C = F->D->C;
  IrExpr *lv = s->a;
  IrVar **root;
  int n, first = chain_leaves(F, lv, &root, &n);
  /* Warp 1.19's adjoint neither replays s.v[k] = x nor passes x a
   * gradient: refused rather than differentiated otherwise */
  if (lv->kind == E_COMP)
    fl_refuse(F, s->pos, "an assignment to a component of a struct's "
                         "field (Warp's adjoint drops it)");
  if (first < 0)
    fl_refuse(F, s->pos, "this assignment to a struct field");
  IrExpr *c = s->c->ty->kind == TY_STRUCT ? s->c : fl_expr(F, s->c, s->pos);
  if (lv->ty->kind == TY_STRUCT) {
    fl_copy(F, out, s->pos, root + first, n, c);
    return;
  }
  fl_put(out, C, s->pos, root[first], c);
}

static void fl_multi_call(Fl *F, Seq *out, IrStmt *s, IrVar ***slots);
static void fl_multi_return(Fl *F, Seq *out, IrStmt *s, IrVar ***slots);

/* pre's copy before each continue of the loop body *head (not of loops
 * nested in it) */
static void pre_continues(Compiler *C, IrStmt **head, IrStmt *pre) {
  for (IrStmt **p = head; *p; p = &(*p)->next) {
    IrStmt *s = *p;
    if (s->kind == S_CONTINUE) {
      IrStmt *c = copy_body(C, pre);
      append(&c, s);
      *p = c;
      while (*p != s)
        p = &(*p)->next;
      continue;
    }
    if (s->kind != S_FOR && s->kind != S_WHILE) {
      pre_continues(C, &s->body, pre);
      pre_continues(C, &s->orelse, pre);
    }
  }
}

/* A while loop whose condition calls a function returning a struct: the
 * calls hoisted out of the condition (fl_call) run before the loop and
 * again at the end of each iteration and before each continue, so the
 * condition reads them on the variables as the iteration left them, as
 * Warp evaluates its condition before each iteration (in the adjoint's
 * reverse sweep too, Note [adjoint]: the hoisted struct local is carried
 * by the loop like the variables it is made from). */
static void fl_while(Fl *F, Seq *out, IrStmt *s) {
  Compiler *C = F->D->C;
  Seq pre;
  seq_init(&pre);
  F->pre = &pre;
  IrStmt *n = ir_stmt(C, s->kind, s->pos);
  *n = *s;
  n->a = fl_expr(F, s->a, s->pos);
  n->body = fl_stmts(F, s->body);
  n->orelse = fl_stmts(F, s->orelse);
  if (pre.head) {
    pre_continues(C, &n->body, pre.head);
    append(&n->body, copy_body(C, pre.head));
    *out->tail = pre.head;
    out->tail = pre.tail;
  }
  put(out, n);
}

static void fl_stmt(Fl *F, Seq *out, IrStmt *s) {
  Compiler *C = F->D->C;
  if (s->kind == S_WHILE) {
    fl_while(F, out, s);
    return;
  }
  F->pre = out;
  IrVar ***multi = (s->kind == S_ASSIGN || s->kind == S_EXPR) &&
                           s->a->kind == E_FCALL
                       ? map_get(&F->fmulti, s->a->fn) : NULL;
  if (multi) {
    fl_multi_call(F, out, s, multi);
    return;
  }
  multi = s->kind == S_RETURN ? map_get(&F->fmulti, F->f) : NULL;
  if (multi && s->nargs) {
    fl_multi_return(F, out, s, multi);
    return;
  }
  if (s->kind == S_ASSIGN && s->var->ty->kind == TY_STRUCT) {
    fl_copy(F, out, s->pos, leaves_of(F, s->var), nleaves(s->var->ty), s->a);
    return;
  }
  if (s->kind == S_EXPR && s->a->kind == E_FCALL && map_get(&F->fret, s->a->fn)) {
    (void)fl_call(F, s->a, s->pos); /* the result unused */
    return;
  }
  if (s->kind == S_SETFIELD && map_get(&F->leaves, s->var)) {
    fl_setfield(F, out, s);
    return;
  }
  if (s->kind == S_SETFIELD && s->var->ty->kind == TY_ARRAY &&
      (s->a->ty->kind == TY_STRUCT || s->a->ty->kind == TY_VEC ||
       s->a->ty->kind == TY_MAT)) {
    fl_elem_store(F, out, s->pos, s->var, s->a, s->c);
    return;
  }
  if (s->kind == S_STORE && s->c->ty->kind == TY_STRUCT) {
    IrExpr *ld = ir_expr(C, E_LOAD, s->c->ty);
    ld->var = s->var;
    ld->args = s->args;
    ld->nargs = s->nargs;
    ld->pos = s->pos;
    fl_elem_store(F, out, s->pos, s->var, ld, s->c);
    return;
  }
  if (s->kind == S_RETURN && s->a && s->a->ty->kind == TY_STRUCT) {
    /* the result into the function's result slots, then return */
    fl_return(F, out, s->a, s->pos, map_get(&F->fret, F->f));
    put(out, ir_stmt(C, S_RETURN, s->pos));
    return;
  }
  IrStmt *n = ir_stmt(C, s->kind, s->pos);
  *n = *s;
  n->a = fl_expr(F, s->a, s->pos);
  n->b = fl_expr(F, s->b, s->pos);
  n->c = fl_expr(F, s->c, s->pos);
  if (s->nargs) {
    n->args = arena_alloc(C, sizeof(IrExpr *) * (size_t)s->nargs);
    for (int i = 0; i < s->nargs; i++)
      n->args[i] = fl_expr(F, s->args[i], s->pos);
  }
  n->body = fl_stmts(F, s->body);
  n->orelse = fl_stmts(F, s->orelse);
  put(out, n);
}

static IrStmt *fl_stmts(Fl *F, IrStmt *s) {
  Seq out;
  seq_init(&out);
  for (; s; s = s->next)
    fl_stmt(F, &out, s);
  return out.head;
}

/* Note [several results]: a struct among a function's several results
 * goes out through scalar locals as a lone struct result does (the
 * adjoint and the tangent inline every call); its place among the
 * results becomes an int32 that nothing reads, so the others keep their
 * positions and the call's out-variables theirs. */
static void fl_multi_signature(Fl *F, IrFunc *f) {
  Compiler *C = F->D->C;
  IrVar ***slots = NULL;
  const Type **rets = arena_alloc(C, sizeof(Type *) * (size_t)f->nrets);
  for (int r = 0; r < f->nrets; r++) {
    rets[r] = f->rets[r];
    if (rets[r]->kind != TY_STRUCT)
      continue;
    if (!slots) {
      slots = arena_alloc(C, sizeof(IrVar **) * (size_t)f->nrets);
      memset(slots, 0, sizeof(IrVar **) * (size_t)f->nrets);
    }
    slots[r] = result_slots(F, f, rets[r]);
    rets[r] = ty_scalar(KERN_SCALAR_INT32);
  }
  if (!slots)
    return;
  map_put(F->D, &F->fmulti, f, slots);
  f->rets = rets;
  f->ret = rets[0];
}

/* return a, b, ... in a function of fl_multi_signature: its structs into
 * their slots. */
static void fl_multi_return(Fl *F, Seq *out, IrStmt *s, IrVar ***slots) {
  Compiler *C = F->D->C;
  IrStmt *n = ir_stmt(C, S_RETURN, s->pos);
  *n = *s;
  n->next = NULL;
  n->args = arena_alloc(C, sizeof(IrExpr *) * (size_t)s->nargs);
  for (int r = 0; r < s->nargs; r++) {
    if (!slots[r]) {
      n->args[r] = fl_expr(F, s->args[r], s->pos);
      continue;
    }
    fl_return(F, out, s->args[r], s->pos, slots[r]);
    n->args[r] = ir_const_int(C, ty_scalar(KERN_SCALAR_INT32), 0);
  }
  put(out, n);
}

/* A call of a function of fl_multi_signature (s: `first = f(...)` or the
 * call as a statement): the call with int32 locals in the structs'
 * places, then each struct variable's leaves from its slots. */
static void fl_multi_call(Fl *F, Seq *out, IrStmt *s, IrVar ***slots) {
  Compiler *C = F->D->C;
  const Type *i32 = ty_scalar(KERN_SCALAR_INT32);
  IrExpr *e = s->a, call = *e;
  call.ty = e->fn->ret;
  call.outs = arena_alloc(C, sizeof(IrVar *) * (size_t)(e->nouts + 1));
  for (int i = 0; i < e->nouts; i++)
    call.outs[i] = slots[i + 1] ? ir_var(C, F->f, "unused", i32) : e->outs[i];
  IrStmt *n = ir_stmt(C, s->kind, s->pos);
  *n = *s;
  n->next = NULL;
  n->a = fl_expr(F, &call, s->pos);
  if (s->kind == S_ASSIGN && slots[0])
    n->var = ir_var(C, F->f, "unused", i32);
  put(out, n);
  for (int r = 0; r <= e->nouts; r++) {
    IrVar *v = r ? e->outs[r - 1] : s->kind == S_ASSIGN ? s->var : NULL;
    if (v && slots[r])
      fl_unslot(F, out, s->pos, leaves_of(F, v), nleaves(v->ty), slots[r]);
  }
}

/* A function's struct parameters become one parameter per leaf; their
 * original types are kept for the calls (Fl.params). */
static void fl_signature(Fl *F, IrFunc *f) {
  Compiler *C = F->D->C;
  const Type **pt = arena_alloc(C, sizeof(Type *) * (size_t)(f->nparams + 1));
  bool any = false;
  int i = 0;
  for (IrVar *p = f->params; p; p = p->next)
    any |= (pt[i++] = p->ty)->kind == TY_STRUCT;
  map_put(F->D, &F->params, f, pt);
  F->f = f;
  if (f->nrets == 1 && f->ret->kind == TY_STRUCT) {
    /* its result goes to locals the caller reads after the call (the
     * adjoint and the tangent inline every call) */
    map_put(F->D, &F->fret, f, result_slots(F, f, f->ret));
    f->ret = f->rets[0] = &ty_void;
    f->nrets = 0;
  }
  if (f->nrets > 1)
    fl_multi_signature(F, f);
  if (!any)
    return;
  IrVar **tail = &f->params;
  int index = 0;
  for (IrVar *p = f->params, *next; p; p = next) {
    next = p->next;
    if (p->ty->kind != TY_STRUCT) {
      p->index = index++;
      *tail = p;
      tail = &p->next;
      continue;
    }
    IrVar **l = leaves_of(F, p);
    for (int j = 0; j < nleaves(p->ty); j++) {
      ir_var_unlink(f, l[j]);
      l[j]->name = arena_printf(C, "%s_%d", p->name, j);
      l[j]->is_param = true;
      l[j]->index = index++;
      *tail = l[j];
      tail = &l[j]->next;
    }
  }
  *tail = NULL;
  f->nparams = index;
}

/* The struct locals of f (and a kernel's struct parameters, copied at its
 * start) into leaves, its statements rewritten. */
static void fl_func(Fl *F, IrFunc *f) {
  Compiler *C = F->D->C;
  F->f = f;
  int nstruct = 0;
  for (IrVar *v = f->locals; v; v = v->next)
    nstruct += v->ty->kind == TY_STRUCT;
  IrVar **sv = arena_alloc(C, sizeof(IrVar *) * (size_t)(nstruct + 1));
  nstruct = 0;
  for (IrVar *v = f->locals; v; v = v->next)
    if (v->ty->kind == TY_STRUCT)
      sv[nstruct++] = v;
  for (int i = 0; i < nstruct; i++) /* before any use: a loop reads ahead */
    (void)leaves_of(F, sv[i]);
  Seq entry;
  seq_init(&entry);
  if (f->is_kernel)
    for (IrVar *p = f->params; p; p = p->next) {
      if (p->ty->kind != TY_STRUCT)
        continue;
      IrVar **l = leaves_of(F, p);
      for (int j = 0; j < nleaves(p->ty); j++)
        fl_put(&entry, C, f->pos, l[j], leaf_chain(F, ir_ref(C, p), j));
    }
  IrStmt *body = fl_stmts(F, f->body);
  if (entry.head) {
    *entry.tail = body;
    body = entry.head;
  }
  f->body = body;
}

static void flatten_structs(Compiler *C, IrModule *m) {
  Ad D0;
  memset(&D0, 0, sizeof D0);
  D0.C = C;
  Fl F0 = {0}, *F = &F0;
  F->D = &D0;
  for (IrFunc *f = m->funcs; f; f = f->next)
    fl_signature(F, f);
  for (IrFunc *f = m->funcs; f; f = f->next)
    fl_func(F, f);
  for (IrFunc *f = m->kernels; f; f = f->next)
    fl_func(F, f);
}

void ir_adjoint_prepare(Compiler *C, IrModule *m) {
  /* only what the kernel calls is expanded and differentiated: another
   * function outside the expansion does not stop this kernel's adjoint */
  Ad D0;
  memset(&D0, 0, sizeof D0);
  D0.C = C;
  m->half_aggs = true;
  Map seen = {0};
  for (IrFunc *f = m->kernels; f; f = f->next)
    reach_stmts(&seen, &D0, f->body);
  IrFunc **pf = &m->funcs;
  m->funcs_tail = NULL;
  while (*pf) {
    if (map_get(&seen, *pf)) {
      m->funcs_tail = &(*pf)->next;
      pf = &(*pf)->next;
    } else {
      *pf = (*pf)->next;
    }
  }
  for (IrFunc *f = m->funcs; f; f = f->next)
    keep_stmts(f->body);
  for (IrFunc *f = m->kernels; f; f = f->next)
    keep_stmts(f->body);
  flatten_structs(C, m); /* Note [struct leaves] */
}

/* ---------------------------------------------------------------- forward mode */

/* Note [tangent]: ir_tangent builds a kernel's forward-mode derivative
 * (a Jacobian-vector product) from the same scalar IR as the adjoint,
 * but needs none of its machinery: no replay, no reverse sweep, no
 * single assignment.  The tangent kernel "tan_NAME" takes the kernel's
 * parameters and then tan_P for each parameter P, of the same kind and
 * type (the adjoint's layout).  Its body is the kernel's own statements,
 * in the same order and structure (branches, loops, break, continue and
 * returns are kept as they are, so nothing about control flow is
 * refused), with each float value's tangent computed next to it: every
 * float local v has a tangent local d_v, assigned together with v; a
 * float value parameter's tangent is its tan_ parameter; a load a[i]
 * reads tan_a[i] (zero where tan_a is null); a store a[i] = v also
 * stores v's tangent into tan_a[i]; wp.atomic_add/sub also add (subtract)
 * the tangent into tan_a.  The kernel's stores and atomics are performed:
 * the tangent launch replaces the forward launch and leaves both the
 * values and their tangents, as jax.jvp returns both.  The derivative
 * rules are the adjoint's, transposed, including Warp's rules for min,
 * max, clamp and abs at ties and the zero gradient of floor and its
 * kind, so <J v, w> = <v, J^T w> holds between the two kernels wherever
 * the adjoint is exact (tests/autodiff/test_autodiff.c).  A user
 * function is inlined as in the adjoint.  The value an atomic returns and
 * wp.atomic_min/max are refused: their tangent would depend on the
 * order of the threads' atomics. */

static IrExpr *tconst(Ad *D, IrExpr *d, const Type *t) {
  return d ? d : zero_of(D, t);
}

/* The tangent of the A variable v (a tan_ parameter for a float value
 * parameter), NULL when it has none. */
static IrVar *dvar(Ad *D, IrVar *v) {
  if (!fty(v->ty))
    return NULL;
  if (v->is_param)
    return map_get(&D->adjarr, v);
  IrVar *a = map_get(&D->adjs, v);
  if (!a) {
    a = ir_var(D->C, D->A, arena_printf(D->C, "d_%s", v->name), v->ty);
    map_put(D, &D->adjs, v, a);
    if (D->ntans == D->captans) {
      int nc = D->captans ? D->captans * 2 : 64;
      IrVar **n = arena_alloc(D->C, sizeof(IrVar *) * (size_t)nc);
      if (D->ntans)
        memcpy(n, D->tans, sizeof(IrVar *) * (size_t)D->ntans);
      D->tans = n;
      D->captans = nc;
    }
    D->tans[D->ntans++] = a;
  }
  return a;
}

/* d1 + d2 where NULL is zero */
static IrExpr *tsum(Ad *D, IrExpr *a, IrExpr *b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return bin(D, OP_ADD, a, b);
}

/* d f and d / f, NULL where d is; a zero tangent stays zero where f is
 * infinite or NaN (Note [zero adjoints], the same for tangents). */
static IrExpr *tguard(Ad *D, IrExpr *d, IrExpr *e) {
  if (!is_float_scalar(d->ty))
    return e;
  return sel(D, bin(D, OP_EQ, d, fconst(D, d->ty, 0)), fconst(D, d->ty, 0), e);
}

static IrExpr *tmul(Ad *D, IrExpr *d, IrExpr *f) {
  return d ? tguard(D, d, bin(D, OP_MUL, d, f)) : NULL;
}

static IrExpr *tdiv(Ad *D, IrExpr *d, IrExpr *f) {
  return d ? tguard(D, d, bin(D, OP_DIV, d, f)) : NULL;
}

static IrExpr *tneg(Ad *D, IrExpr *d) {
  return d ? ir_unary(D->C, OP_NEG, d) : NULL;
}

static IrExpr *tsel(Ad *D, IrExpr *k, IrExpr *a, IrExpr *b, const Type *t) {
  if (!a && !b)
    return NULL;
  return sel(D, k, tconst(D, a, t), tconst(D, b, t));
}

/* The tangent of r = bi(x...), given the arguments' tangents dx (NULL:
 * zero); the adjoint's call_rule, transposed. */
static IrExpr *call_tan(Ad *D, Seq *s, int bi, IrExpr *r, IrExpr **x,
                        IrExpr **dx) {
  const Type *t = r->ty;
  IrExpr *a = x[0], *da = dx[0], *one = fconst(D, t, 1);
  switch (bi) {
  case BI_SQRT:
    return tdiv(D, da, bin(D, OP_MUL, fconst(D, t, 2), r));
  case BI_CBRT:
    return tdiv(D, da, bin(D, OP_MUL, fconst(D, t, 3), bin(D, OP_MUL, r, r)));
  case BI_EXP:
    return tmul(D, da, r);
  case BI_EXP2:
    return tmul(D, da, bin(D, OP_MUL, r, fconst(D, t, 0.69314718055994530942)));
  case BI_LOG:
    return tdiv(D, da, a);
  case BI_LOG2:
    return tdiv(D, da, bin(D, OP_MUL, a, fconst(D, t, 0.69314718055994530942)));
  case BI_LOG10:
    return tdiv(D, da, bin(D, OP_MUL, a, fconst(D, t, 2.30258509299404568402)));
  case BI_SIN:
    return tmul(D, da, call1(D, BI_COS, a));
  case BI_COS:
    return tneg(D, tmul(D, da, call1(D, BI_SIN, a)));
  case BI_TAN: {
    IrExpr *co = call1(D, BI_COS, a);
    return tdiv(D, da, bin(D, OP_MUL, co, co));
  }
  case BI_SINH:
    return tmul(D, da, call1(D, BI_COSH, a));
  case BI_COSH:
    return tmul(D, da, call1(D, BI_SINH, a));
  case BI_TANH:
    return tmul(D, da, bin(D, OP_SUB, one, bin(D, OP_MUL, r, r)));
  case BI_ASIN: case BI_ACOS: { /* zero where the root is not > 0 (adjoint) */
    if (!da)
      return NULL;
    IrExpr *rt = call1(D, BI_SQRT, bin(D, OP_SUB, one, bin(D, OP_MUL, a, a)));
    IrExpr *d = sel(D, bin(D, OP_GT, rt, fconst(D, da->ty, 0)), tdiv(D, da, rt),
                    fconst(D, da->ty, 0));
    return bi == BI_ASIN ? d : tneg(D, d);
  }
  case BI_ATAN:
    return tdiv(D, da, bin(D, OP_ADD, one, bin(D, OP_MUL, a, a)));
  case BI_ATAN2: { /* r = atan2(y=a, x=b) */
    IrExpr *b = x[1];
    IrExpr *den = bin(D, OP_ADD, bin(D, OP_MUL, a, a), bin(D, OP_MUL, b, b));
    return tsum(D, tdiv(D, tmul(D, da, b), den),
                tneg(D, tdiv(D, tmul(D, dx[1], a), den)));
  }
  case BI_ABS:
    return da ? sel(D, bin(D, OP_LT, a, fconst(D, t, 0)), tneg(D, da), da)
              : NULL;
  case BI_MIN: case BI_MAX:
    return tsel(D, tmp(D, s, min_pick(D, bi, a, x[1])), da, dx[1], t);
  case BI_CLAMP: { /* min(max(lo, x), hi), each by Warp's rule for ties */
    IrExpr *lo = x[1], *hi = x[2];
    IrExpr *m = tmp(D, s, ir_call2(D->C, BI_MAX, t, lo, a));
    IrExpr *dm = tsel(D, tmp(D, s, min_pick(D, BI_MAX, lo, a)), dx[1], da, t);
    if (dm)
      dm = tmp(D, s, dm);
    return tsel(D, tmp(D, s, min_pick(D, BI_MIN, m, hi)), dm, dx[2], t);
  }
  case BI_FLOOR: case BI_CEIL: case BI_TRUNC: case BI_ROUND: case BI_RINT:
  case BI_SIGN: case BI_STEP: case BI_OP_FLOORDIV:
    return NULL;
  case BI_FRAC: /* x - trunc(x): the derivative, where Warp's adjoint has 0 */
    return da;
  case BI_FMA:
    return tsum(D, tsum(D, tmul(D, da, x[1]), tmul(D, dx[1], a)), dx[2]);
  case BI_STOP_GRADIENT: /* the derivative, where the adjoint has none */
    return da;
  case BI_POW: case BI_OP_POW: {
    IrExpr *b = x[1];
    IrExpr *pa = ir_call2(D->C, BI_POW, t, a, bin(D, OP_SUB, b, one));
    return tsum(D, tmul(D, da, bin(D, OP_MUL, b, pa)),
                tmul(D, dx[1], bin(D, OP_MUL, call1(D, BI_LOG, a), r)));
  }
  case BI_ERF: case BI_ERFC: case BI_ERFINV: case BI_ERFCINV:
    return da ? erf_partial(D, bi, a, r, da) : NULL;
  case BI_COPYSIGN:
    return da ? sel(D, same_sign(D, a, x[1]), da, tneg(D, da)) : NULL;
  case BI_MOD: case BI_OP_MOD:
    return da;
  default:
    refuse(D, arena_printf(D->C, "wp.%s", bi < BI_COUNT ? builtin_names[bi]
                                                          : "(an operator)"));
  }
}

static IrExpr *fv(Ad *D, Seq *s, IrExpr *e, IrExpr **dt);
static void tblock(Ad *D, IrStmt *st, Seq *out);

/* A node of the value e; its tangent d goes in a local too (NULL stays
 * NULL). */
static IrExpr *tnode(Ad *D, Seq *s, IrExpr *d) {
  return d ? tmp(D, s, d) : NULL;
}

/* v = x with its tangent dx (NULL: zero). */
static void tassign(Ad *D, Seq *s, IrVar *v, IrExpr *x, IrExpr *dx) {
  IrVar *dv = dvar(D, v);
  if (dv)
    assign(D, s, dv, tconst(D, dx, v->ty));
  assign(D, s, v, x);
}

/* The locals of F's several results (Note [several results]), rets[0]
 * the caller's D->ret, their tangents zeroed. */
static IrVar **tresults(Ad *D, Seq *s, IrFunc *F) {
  IrVar **rs = arena_alloc(D->C, sizeof(IrVar *) * (size_t)F->nrets);
  rs[0] = D->ret;
  for (int i = 1; i < F->nrets; i++) {
    rs[i] = newvar(D, "ret", F->rets[i]);
    if (dvar(D, rs[i]))
      assign(D, s, dvar(D, rs[i]), zero_of(D, rs[i]->ty));
  }
  return rs;
}

/* A user function's call, inlined: its value, *dt its tangent. */
static IrExpr *tcall(Ad *D, Seq *s, IrExpr *e, IrExpr **dt) {
  IrFunc *F = e->fn;
  *dt = NULL;
  if (F->native)
    refuse(D, "a @wp.func_native function");
  if (e->nrefs)
    refuse(D, "a call of a function with wp.ref parameters");
  if (D->depth > 64)
    refuse(D, "calls nested this deep");
  IrVar **save = arena_alloc(D->C, sizeof(IrVar *) * (size_t)D->nv);
  memcpy(save, D->env, sizeof(IrVar *) * (size_t)D->nv);
  IrVar **bound = arena_alloc(D->C, sizeof(IrVar *) * (size_t)(F->nparams + 1));
  int i = 0;
  for (IrVar *p = F->params; p; p = p->next, i++) {
    IrExpr *a = e->args[i];
    if (p->ty->kind == TY_ARRAY) {
      if (a->kind != E_VAR)
        refuse(D, "an array argument that is not a variable");
      bound[i] = D->env[kid(D, a->var)];
      continue;
    }
    IrExpr *da;
    IrExpr *x = fv(D, s, a, &da);
    IrVar *v = newvar(D, "arg", p->ty);
    assign(D, s, v, x);
    IrVar *dv = dvar(D, v);
    if (dv)
      assign(D, s, dv, tconst(D, da, v->ty));
    bound[i] = v;
  }
  i = 0;
  for (IrVar *p = F->params; p; p = p->next, i++)
    D->env[kid(D, p)] = bound[i];
  for (IrVar *v = F->locals; v; v = v->next)
    D->env[kid(D, v)] = newvar(D, v->name, v->ty);
  Pos at = D->pos;
  (void)norm_returns(D, &F->body);
  IrVar *oret = D->ret, *odret = D->dret, **orets = D->rets;
  D->ret = e->ty->kind == TY_VOID ? NULL : newvar(D, "ret", e->ty);
  D->dret = D->ret ? dvar(D, D->ret) : NULL;
  if (D->dret)
    assign(D, s, D->dret, zero_of(D, D->dret->ty));
  D->rets = F->nrets > 1 ? tresults(D, s, F) : NULL;
  IrVar **rs = D->rets;
  D->depth++;
  tblock(D, F->body, s);
  D->depth--;
  D->pos = at;
  IrVar *r = D->ret, *dr = D->dret;
  D->ret = oret;
  D->dret = odret;
  D->rets = orets;
  /* the caller's variables as they were; the function's keep their last
   * values (a struct result's local is read after the call, Note
   * [struct leaves]) */
  for (IrVar *v = F->params; v; v = v->next)
    save[kid(D, v)] = D->env[kid(D, v)];
  for (IrVar *v = F->locals; v; v = v->next)
    save[kid(D, v)] = D->env[kid(D, v)];
  memcpy(D->env, save, sizeof(IrVar *) * (size_t)D->nv);
  for (i = 0; i < e->nouts; i++)
    tassign(D, s, D->env[kid(D, e->outs[i])], ref(D, rs[1 + i]),
            dvar(D, rs[1 + i]) ? ref(D, dvar(D, rs[1 + i])) : NULL);
  if (!r)
    return NULL;
  *dt = dr ? ref(D, dr) : NULL;
  return ref(D, r);
}

static IrExpr *linalg_val(Ad *D, Seq *fw, Seq *rv, IrExpr *e, IrExpr **dt) {
  if (e->nargs != 2 || e->args[1]->kind != E_CONST)
    refuse(D, arena_printf(D->C, "this wp.%s", builtin_names[e->bi]));
  int i = (int)e->args[1]->ival;
  IrExpr *dx = NULL;
  IrExpr *x = tmp(D, fw, D->fwd ? fv(D, fw, e->args[0], &dx)
                                : dval(D, fw, rv, e->args[0]));
  IrExpr *args[2] = {x, icst(D, i)};
  IrExpr *c = ir_call(D->C, e->bi, e->ty, 2, args);
  c->ival = IR_KEEP_CALL;
  IrExpr *r = node(D, fw, c);
  if (D->fwd) {
    *dt = dx ? tnode(D, fw, lm_make(D, linalg_tan(D, fw, e->bi, x, i,
                                                  tmp(D, fw, dx)), e->ty))
             : NULL;
    return r;
  }
  Seq cs;
  seq_init(&cs);
  Lm a = linalg_adj(D, &cs, e->bi, x, i, adjx(D, r->var));
  acc(D, &cs, x, tmp(D, &cs, lm_make(D, a, x->ty)));
  prepend(rv, &cs);
  return r;
}

/* Note [noise adjoints]: wp.noise, wp.pnoise and wp.curlnoise reach the
 * adjoint whole: keep_expr marks them IR_KEEP_CALL and the expansion
 * hands the coordinate on as one vector, as it does a decomposition's
 * matrix (Note [linalg adjoints]).  Their derivatives are calls of three
 * internal builtins, which the emitters spell next to the noise itself
 * (Note [Perlin noise] in emit/extra.c), each with Warp 1.19's float32
 * operations in Warp's order.  As in Warp, only the coordinate gets a
 * gradient: the seed and the periods are integers, and curlnoise's
 * lacunarity and gain get none (Warp documents it; forward mode, exact
 * where Warp's adjoint is not, as for frac, differentiates in them too).
 *
 *  - noise and pnoise: Warp's adjoint adds g times the analytic gradient
 *    of the blended field, BI_NOISE_GRAD of the same arguments (the
 *    gradient curlnoise sums); the tangent is the gradient's dot product
 *    with the coordinate's tangent.
 *  - curlnoise: octave i adds amp_i times the gradient of the field at
 *    freq_i x, turned ((-d/dy, d/dx) of one field in 2-d, the curl of
 *    three fields in 3-d and 4-d), so the Jacobian in x is a sum of
 *    amp_i freq_i times signed entries of the fields' Hessians, which
 *    Warp computes by carrying second derivatives through the same
 *    smootherstep blends.  BI_CURLNOISE_ADJ(args, g) is the Jacobian's
 *    transpose times g, as Warp's adjoint computes it, and
 *    BI_CURLNOISE_TAN(args, v, dl, dg) the Jacobian times v plus the
 *    derivatives in lacunarity and gain times their tangents dl and dg,
 *    so <J v, w> = <v, J^T w> holds between the modes where those two
 *    carry no tangent.
 *
 * The quintic blend makes the field twice continuously differentiable
 * across cells, so both are the derivatives everywhere and finite
 * differences check them (tests/autodiff/gradcheck.sh). */

/* The call bi(x[0..n)) of type t, kept whole, in a local of s. */
static IrExpr *noise_call(Ad *D, Seq *s, int bi, const Type *t, IrExpr **x,
                          int n) {
  IrExpr *c = ir_call(D->C, bi, t, n, x);
  c->ival = IR_KEEP_CALL;
  return tmp(D, s, c);
}

/* Each component of the vector v times the scalar k, in a local of s. */
static IrExpr *noise_scale(Ad *D, Seq *s, IrExpr *v, IrExpr *k) {
  if (!is_agg(v->ty))
    return tmp(D, s, bin(D, OP_MUL, v, k));
  IrExpr *m = ir_expr(D->C, E_MAKE, v->ty);
  m->nargs = ncomp(v->ty);
  m->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)m->nargs);
  for (int j = 0; j < m->nargs; j++)
    m->args[j] = tmp(D, s, bin(D, OP_MUL, comp(D, v, j), k));
  return tmp(D, s, m);
}

/* The tangent of the noise call bi(x[0..n)) from its arguments' tangents
 * dx[0..n) (NULL: zero), or NULL where it is zero: the coordinate's, and
 * curlnoise's lacunarity's and gain's. */
static IrExpr *noise_tan(Ad *D, Seq *s, int bi, const Type *t, IrExpr **x,
                         int n, IrExpr **dx) {
  if (bi == BI_CURLNOISE) {
    if (!dx[1] && !dx[3] && !dx[4])
      return NULL;
    IrExpr *a[8];
    memcpy(a, x, sizeof(IrExpr *) * (size_t)n);
    a[n] = tmp(D, s, tconst(D, dx[1], x[1]->ty));
    a[n + 1] = tconst(D, dx[3], x[3]->ty);
    a[n + 2] = tconst(D, dx[4], x[4]->ty);
    return noise_call(D, s, BI_CURLNOISE_TAN, t, a, n + 3);
  }
  if (!dx[1])
    return NULL;
  IrExpr *d1 = tmp(D, s, dx[1]);
  IrExpr *gr = noise_call(D, s, BI_NOISE_GRAD, d1->ty, x, n);
  if (!is_agg(d1->ty))
    return bin(D, OP_MUL, gr, d1);
  IrExpr *d = NULL;
  for (int j = 0; j < ncomp(d1->ty); j++) {
    IrExpr *p = bin(D, OP_MUL, comp(D, gr, j), comp(D, d1, j));
    d = d ? bin(D, OP_ADD, d, p) : p;
  }
  return d;
}

static IrExpr *noise_val(Ad *D, Seq *fw, Seq *rv, IrExpr *e, IrExpr **dt) {
  int n = e->nargs;
  if (n < 2 || n > 6 || (e->bi == BI_CURLNOISE && n != 5))
    refuse(D, arena_printf(D->C, "this wp.%s", builtin_names[e->bi]));
  IrExpr *x[7], *dx[6];
  for (int i = 0; i < n; i++) {
    dx[i] = NULL;
    x[i] = tmp(D, fw, D->fwd ? fv(D, fw, e->args[i], &dx[i])
                             : dval(D, fw, rv, e->args[i]));
  }
  IrExpr *r = noise_call(D, fw, e->bi, e->ty, x, n);
  IrExpr *c = x[1];
  if (D->fwd) {
    *dt = tnode(D, fw, noise_tan(D, fw, e->bi, e->ty, x, n, dx));
    return r;
  }
  Seq cs;
  seq_init(&cs);
  IrExpr *g = tmp(D, &cs, adjx(D, r->var));
  if (e->bi == BI_CURLNOISE) {
    x[n] = g;
    acc(D, &cs, c, noise_call(D, &cs, BI_CURLNOISE_ADJ, c->ty, x, n + 1));
  } else {
    IrExpr *gr = noise_call(D, &cs, BI_NOISE_GRAD, c->ty, x, n);
    acc(D, &cs, c, noise_scale(D, &cs, gr, g));
  }
  prepend(rv, &cs);
  return r;
}

/* The value of e in s, in a local or a constant; *dt its tangent, NULL
 * where it is zero. */
/* a[i].f in forward mode (Note [arrays of structs]): its tangent is
 * tan_a[i].f, zero where tan_a is null. */
static IrExpr *aos_tread(Ad *D, Seq *s, IrExpr *e, IrExpr **dt) {
  IrExpr *ld = elem_root(e);
  IrExpr **idx = indices(D, s, ld->args, ld->nargs);
  IrExpr *r = node(D, s, elem_at(D, e, ld, D->env[kid(D, ld->var)], idx));
  IrVar *tarr = adj_array(D, ld->var);
  IrVar *d = newvar(D, "dl", e->ty);
  assign(D, s, d, zero_of(D, e->ty));
  Seq body;
  seq_init(&body);
  assign(D, &body, d, elem_at(D, e, ld, tarr, idx));
  put(s, guarded(D, tarr, &body));
  *dt = ref(D, d);
  return r;
}

/* a[i].f = v in forward mode: the store, and v's tangent into
 * tan_a[i].f. */
static void aos_tstore(Ad *D, IrStmt *st, Seq *s) {
  IrExpr *ld = store_root(st->a);
  if (!ld)
    refuse(D, "this assignment into an array of structs' element");
  IrExpr **idx = indices(D, s, ld->args, ld->nargs);
  IrStmt *z = ir_stmt(D->C, S_SETFIELD, st->pos);
  z->var = D->env[kid(D, st->var)];
  z->a = elem_at(D, st->a, ld, z->var, idx);
  if (!fty(st->c->ty)) {
    z->c = tmp(D, s, clone(D, s, st->c));
    put(s, z);
    return;
  }
  IrExpr *d;
  z->c = fv(D, s, st->c, &d);
  IrVar *tarr = adj_array(D, st->var);
  put(s, z);
  IrStmt *t = ir_stmt(D->C, S_SETFIELD, st->pos);
  t->var = tarr;
  t->a = elem_at(D, st->a, ld, tarr, idx);
  t->c = tconst(D, d, st->c->ty);
  Seq body;
  seq_init(&body);
  put(&body, t);
  put(s, guarded(D, tarr, &body));
}

/* The put e = BI_XCHG_PUT(v) in the tangent: v, and v's tangent into
 * a region next to it (Note [exchange adjoints]). */
static void txchg_put(Ad *D, Seq *s, IrExpr *e) {
  IrExpr *a = e->args[0], *d = NULL;
  IrExpr *v = fty(a->ty) ? fv(D, s, a, &d) : tmp(D, s, clone(D, s, a));
  xchg_put(D, s, e, v);
  if (fty(a->ty))
    xchg_put_stmt(D, s, tmp(D, s, tconst(D, d, a->ty)),
                  xchg_of(D, e)->rev);
}

/* r = BI_XCHG_GET(k) of a float value, and thread k's tangent of it. */
static IrExpr *txchg_get(Ad *D, Seq *s, IrExpr *e, IrExpr **dt) {
  Xchg *x = xchg_of(D, e);
  IrExpr *k = tmp(D, s, clone(D, s, e->args[0]));
  *dt = tnode(D, s, xchg_call(D, BI_XCHG_GET, e->ty, k, x->rev));
  return node(D, s, xchg_call(D, BI_XCHG_GET, e->ty, k, x->off));
}

static IrExpr *fv(Ad *D, Seq *s, IrExpr *e, IrExpr **dt) {
  *dt = NULL;
  if (e->kind == E_FCALL)
    return tcall(D, s, e, dt);
  if (!fty(e->ty))
    return tmp(D, s, clone(D, s, e));
  if (e->kind == E_CALL && e->bi == BI_XCHG_GET)
    return txchg_get(D, s, e, dt);
  switch (e->kind) {
  case E_CONST:
    return clone(D, s, e);
  case E_VAR: {
    if (map_get(&D->atomres, e->var))
      refuse(D, "the value an atomic returns");
    IrExpr *v = clone(D, s, e);
    IrVar *d = dvar(D, v->var);
    *dt = d ? ref(D, d) : NULL;
    return v;
  }
  case E_UNARY: {
    IrExpr *da, *a = fv(D, s, e->a, &da);
    if (e->op == OP_POS) {
      *dt = da;
      return a;
    }
    if (e->op != OP_NEG)
      refuse(D, "a unary operator");
    *dt = tnode(D, s, tneg(D, da));
    return node(D, s, ir_unary(D->C, OP_NEG, a));
  }
  case E_BINARY: {
    if (!is_float_scalar(e->ty))
      refuse(D, "an operator on vectors");
    IrExpr *da, *db;
    IrExpr *a = fv(D, s, e->a, &da), *b = fv(D, s, e->b, &db);
    IrExpr *r = node(D, s, bin(D, e->op, a, b));
    IrExpr *d;
    switch (e->op) {
    case OP_ADD:
      d = tsum(D, da, db);
      break;
    case OP_SUB:
      d = tsum(D, da, tneg(D, db));
      break;
    case OP_MUL:
      d = tsum(D, tmul(D, da, b), tmul(D, db, a));
      break;
    case OP_DIV: /* da / b - db r / b */
      d = tsum(D, tdiv(D, da, b), tneg(D, tdiv(D, tmul(D, db, r), b)));
      break;
    case OP_MOD: /* Warp's adjoint, transposed */
      d = da;
      break;
    default:
      refuse(D, "this operator on floats");
    }
    *dt = tnode(D, s, d);
    return r;
  }
  case E_SELECT: {
    IrExpr *k = tmp(D, s, clone(D, s, e->a));
    IrExpr *da, *db;
    IrExpr *a = fv(D, s, e->b, &da), *b = fv(D, s, e->c, &db);
    *dt = tnode(D, s, tsel(D, k, da, db, e->ty));
    return node(D, s, sel(D, k, a, b));
  }
  case E_CAST: {
    if (!fty(e->a->ty))
      return tmp(D, s, clone(D, s, e));
    IrExpr *da, *a = fv(D, s, e->a, &da);
    *dt = da ? tnode(D, s, ir_cast(D->C, e->ty, da)) : NULL;
    return node(D, s, ir_cast(D->C, e->ty, a));
  }
  case E_CALL: {
    if (is_linalg(e->bi) && e->ival == IR_KEEP_CALL)
      return linalg_val(D, s, NULL, e, dt);
    if (is_noise(e->bi) && e->ival == IR_KEEP_CALL)
      return noise_val(D, s, NULL, e, dt);
    bool anyf = false;
    for (int i = 0; i < e->nargs; i++)
      anyf |= fty(e->args[i]->ty);
    if (!anyf)
      return tmp(D, s, clone(D, s, e));
    if (!is_float_scalar(e->ty))
      refuse(D, arena_printf(D->C, "wp.%s on vectors", e->bi < BI_COUNT
                                 ? builtin_names[e->bi] : "(operator)"));
    int n = e->nargs ? e->nargs : 1;
    IrExpr **x = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)n);
    IrExpr **dx = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)n);
    bool any = false;
    for (int i = 0; i < e->nargs; i++) {
      if (!fty(e->args[i]->ty))
        refuse(D, arena_printf(D->C, "wp.%s of a non-float argument",
                               e->bi < BI_COUNT ? builtin_names[e->bi] : "(operator)"));
      x[i] = fv(D, s, e->args[i], &dx[i]);
      any |= dx[i] != NULL;
    }
    IrExpr *r = node(D, s, ir_call(D->C, e->bi, e->ty, e->nargs, x));
    *dt = any ? tnode(D, s, call_tan(D, s, e->bi, r, x, dx)) : NULL;
    return r;
  }
  case E_LOAD: {
    tile_read(D, e->var);
    IrExpr **idx = indices(D, s, e->args, e->nargs);
    IrVar *arr = D->env[kid(D, e->var)];
    IrExpr *r = node(D, s, load(D, arr, idx, e->nargs, e->ty, e->pos));
    IrVar *tarr = adj_array(D, e->var);
    IrVar *d = newvar(D, "dl", e->ty);
    assign(D, s, d, zero_of(D, e->ty));
    Seq body;
    seq_init(&body);
    assign(D, &body, d, load(D, tarr, idx, e->nargs, e->ty, e->pos));
    put(s, guarded(D, tarr, &body));
    *dt = ref(D, d);
    return r;
  }
  case E_COMP: {
    IrExpr *da, *a = fv(D, s, e->a, &da);
    IrExpr *n = ir_expr(D->C, E_COMP, e->ty);
    *n = *e;
    n->a = a;
    n->b = e->b ? tmp(D, s, clone(D, s, e->b)) : NULL;
    n->c = e->c ? tmp(D, s, clone(D, s, e->c)) : NULL;
    if (da) {
      IrExpr *m = ir_expr(D->C, E_COMP, e->ty);
      *m = *n;
      m->a = da;
      *dt = tnode(D, s, m);
    }
    return node(D, s, n);
  }
  case E_MAKE: {
    IrExpr *n = ir_expr(D->C, E_MAKE, e->ty), *m = ir_expr(D->C, E_MAKE, e->ty);
    *n = *e;
    *m = *e;
    int k = e->nargs ? e->nargs : 1;
    n->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)k);
    m->args = arena_alloc(D->C, sizeof(IrExpr *) * (size_t)k);
    bool any = false;
    for (int i = 0; i < e->nargs; i++) {
      IrExpr *di;
      n->args[i] = fv(D, s, e->args[i], &di);
      m->args[i] = tconst(D, di, e->args[i]->ty);
      any |= di != NULL;
    }
    *dt = any ? tnode(D, s, m) : NULL;
    return node(D, s, n);
  }
  case E_FIELD: { /* of a kernel's struct parameter: the tangent
                  * struct's same field (Note [struct leaves]) */
    if (elem_root(e))
      return aos_tread(D, s, e, dt);
    IrExpr *v = tmp(D, s, clone(D, s, e));
    IrVar *g = map_get(&D->adjarr, D->env[kid(D, field_root(e)->var)]);
    *dt = g ? tnode(D, s, same_chain(D, e, g)) : NULL;
    return v;
  }
  default:
    /* a float value of another kind (an atomic's result): clone refuses
     * what it cannot copy; none has a tangent rule yet */
    (void)clone(D, s, e);
    refuse(D, "this kind of float value");
  }
}

/* A float atomic: the primal atomic (returned, for its statement) and the
 * tangent's, into tan_a, put in s. */
static IrExpr *tatomic(Ad *D, Seq *s, IrExpr *e) {
  if (e->nfpath)
    refuse(D, "an atomic on a struct field");
  IrExpr **idx = indices(D, s, e->args, e->nargs);
  IrExpr *n = ir_expr(D->C, E_ATOMIC, e->ty);
  *n = *e;
  n->var = D->env[kid(D, e->var)];
  n->args = idx;
  if (!fty(e->ty)) {
    n->b = e->b ? tmp(D, s, clone(D, s, e->b)) : NULL;
    n->c = e->c ? tmp(D, s, clone(D, s, e->c)) : NULL;
    return n;
  }
  if (e->bi != BI_ATOMIC_ADD && e->bi != BI_ATOMIC_SUB)
    refuse(D, arena_printf(D->C, "wp.%s on floats (its tangent depends on "
                           "the order of the threads' atomics)",
                           builtin_names[e->bi]));
  IrExpr *dv;
  n->c = fv(D, s, e->c, &dv);
  if (dv) {
    IrVar *tarr = adj_array(D, e->var);
    IrExpr *at = ir_expr(D->C, E_ATOMIC, e->ty);
    *at = *n;
    at->var = tarr;
    at->c = dv;
    IrStmt *st = ir_stmt(D->C, S_EXPR, D->pos);
    st->a = at;
    Seq body;
    seq_init(&body);
    put(&body, st);
    put(s, guarded(D, tarr, &body));
  }
  return n;
}

static void tstmt(Ad *D, IrStmt *st, Seq *s) {
  D->pos = st->pos;
  switch (st->kind) {
  case S_ASSIGN: {
    IrVar *v = D->env[kid(D, st->var)];
    if (st->a->kind == E_ATOMIC) {
      IrExpr *at = tatomic(D, s, st->a);
      if (fty(v->ty)) {
        /* the atomic as a statement; its result may not be read */
        IrStmt *z = ir_stmt(D->C, S_EXPR, st->pos);
        z->a = at;
        put(s, z);
        map_put(D, &D->atomres, st->var, st->var);
        return;
      }
      assign(D, s, v, at);
      return;
    }
    map_put(D, &D->atomres, st->var, NULL);
    tile_alias(D, st->var, st->a);
    IrExpr *d, *r = fv(D, s, st->a, &d);
    IrVar *dv = dvar(D, v);
    if (dv)
      assign(D, s, dv, tconst(D, d, v->ty));
    assign(D, s, v, r);
    if (v->ty->kind == TY_ARRAY && v->ty->tile && st->a->kind == E_FCALL)
      tile_result(D, v, r); /* Note [returned tiles] */
    else if (v->ty->kind == TY_ARRAY)
      (void)array_local(D, s, v, st->a, map_get(&D->adjarr, v));
    return;
  }
  case S_STORE: {
    IrExpr **idx = indices(D, s, st->args, st->nargs);
    IrStmt *z = ir_stmt(D->C, S_STORE, st->pos);
    *z = *st;
    z->next = NULL;
    z->var = D->env[kid(D, st->var)];
    z->args = idx;
    if (st->var->ty->tile && st->c->kind == E_ATOMIC) {
      /* wp.tile_atomic_add: its old values have no tangent (tile_read) */
      z->c = tatomic(D, s, st->c);
      put(s, z);
      map_put(D, &D->atomres, st->var, st->var);
      return;
    }
    if (!fty(st->c->ty)) {
      z->c = tmp(D, s, clone(D, s, st->c));
      put(s, z);
      return;
    }
    IrExpr *d;
    z->c = fv(D, s, st->c, &d);
    IrVar *tarr = adj_array(D, st->var);
    put(s, z);
    IrStmt *t = ir_stmt(D->C, S_STORE, st->pos);
    *t = *z;
    t->next = NULL;
    t->var = tarr;
    t->c = tconst(D, d, st->c->ty);
    Seq body;
    seq_init(&body);
    put(&body, t);
    put(s, guarded(D, tarr, &body));
    return;
  }
  case S_SETCOMP: {
    IrVar *v = D->env[kid(D, st->var)];
    IrStmt *z = ir_stmt(D->C, S_SETCOMP, st->pos);
    *z = *st;
    z->next = NULL;
    z->var = v;
    z->a = st->a ? tmp(D, s, clone(D, s, st->a)) : NULL;
    z->b = st->b ? tmp(D, s, clone(D, s, st->b)) : NULL;
    IrExpr *d;
    z->c = fv(D, s, st->c, &d);
    IrVar *dv = dvar(D, v);
    if (dv) {
      IrStmt *t = ir_stmt(D->C, S_SETCOMP, st->pos);
      *t = *z;
      t->next = NULL;
      t->var = dv;
      t->c = tconst(D, d, st->c->ty);
      put(s, t);
    }
    put(s, z);
    return;
  }
  case S_EXPR: {
    IrExpr *e = st->a;
    IrStmt *z = ir_stmt(D->C, S_EXPR, st->pos);
    if (e->kind == E_FCALL) {
      IrExpr *d;
      (void)tcall(D, s, e, &d);
      return;
    }
    if (e->kind == E_CALL && e->bi == BI_XCHG_PUT) {
      txchg_put(D, s, e);
      return;
    }
    z->a = e->kind == E_ATOMIC ? tatomic(D, s, e) : clone(D, s, e);
    put(s, z);
    return;
  }
  case S_IF: {
    IrStmt *z = ir_stmt(D->C, S_IF, st->pos);
    z->a = tmp(D, s, clone(D, s, st->a));
    Seq b, o;
    seq_init(&b);
    seq_init(&o);
    tblock(D, st->body, &b);
    tblock(D, st->orelse, &o);
    z->body = b.head;
    z->orelse = o.head;
    put(s, z);
    return;
  }
  case S_FOR: case S_WHILE: {
    IrStmt *z = ir_stmt(D->C, st->kind, st->pos);
    *z = *st;
    z->next = NULL;
    if (st->kind == S_FOR) {
      z->var = D->env[kid(D, st->var)];
      z->a = tmp(D, s, clone(D, s, st->a));
      z->b = tmp(D, s, clone(D, s, st->b));
      z->c = tmp(D, s, clone(D, s, st->c));
    } else {
      z->a = clone(D, s, st->a); /* evaluated before each iteration */
    }
    Seq b;
    seq_init(&b);
    tblock(D, st->body, &b);
    z->body = b.head;
    z->orelse = NULL;
    put(s, z);
    return;
  }
  case S_BREAK: case S_CONTINUE: case S_KRETURN: {
    IrStmt *z = ir_stmt(D->C, st->kind, st->pos);
    *z = *st;
    z->next = NULL;
    put(s, z);
    return;
  }
  case S_RETURN: {
    for (int i = 0; D->rets && i < st->nargs; i++) {
      IrExpr *d, *r = fv(D, s, st->args[i], &d);
      tassign(D, s, D->rets[i], r, d);
    }
    if (!D->ret || !st->a)
      return; /* a function without a result; norm_returns ended its path */
    IrExpr *d, *r = fv(D, s, st->a, &d);
    if (D->dret)
      assign(D, s, D->dret, tconst(D, d, D->ret->ty));
    assign(D, s, D->ret, r);
    tile_returned(D, st->a, D->ret); /* Note [returned tiles] */
    return;
  }
  case S_PRINTF: case S_ASSERT:
    return; /* the tangent launch neither prints nor checks again */
  case S_SETFIELD:
    if (st->var->ty->kind == TY_ARRAY) { /* Note [arrays of structs] */
      aos_tstore(D, st, s);
      return;
    }
    refuse(D, "an assignment to a struct field");
  case S_AGG:
    refuse(D, "an aggregated atomic");
  }
}

static void tblock(Ad *D, IrStmt *st, Seq *out) {
  for (; st; st = st->next)
    tstmt(D, st, out);
}

IrFunc *ir_tangent(Compiler *C, IrModule *m, IrFunc *K) {
  Ad D0, *D = &D0;
  memset(D, 0, sizeof *D);
  D->C = C;
  D->K = K;
  D->pos = K->pos;
  D->fwd = true;
  IrFunc *A = arena_alloc(C, sizeof *A);
  memset(A, 0, sizeof *A);
  D->A = A;
  A->name = arena_printf(C, "tan_%s", K->name);
  A->symbol = arena_printf(C, "%s_tan", K->symbol);
  A->is_kernel = true;
  A->pos = K->pos;
  A->tid_dims = K->tid_dims;
  A->uses_fp64 = K->uses_fp64;
  A->uses_atomics = true;
  A->uses_printf = K->uses_printf;
  A->uses_block = K->uses_block;
  A->uses_xchg = K->uses_xchg; /* Note [exchange adjoints] */
  /* The tangents of an exchange between a block's threads are not yet
   * shown right on a GPU: the one CUDA run (bench/NOTES.md, run 15) came
   * from kern.jvp launching 3 threads in blocks of 256 (test_jvp ignores
   * the files' --tiled --block-dim, and kern.jvp gives the tangent kernel
   * the default block), not a launch a tile kernel can have.  Refused
   * there until a tiled launch checks them; the CPU's (a block of one
   * thread) agree with finite differences. */
  if (K->uses_xchg && C->block > 1)
    refuse(D, "a block exchange between the threads of a block (wp.tile(x), "
              "wp.untile, tile scatters) where a block has more than one "
              "thread");
  A->has_kreturn_in_loop = K->has_kreturn_in_loop;
  A->ret = K->ret;
  int nv = 0;
  for (IrVar *v = K->params; v; v = v->next)
    map_put(D, &D->ids, v, (void *)(intptr_t)++nv);
  for (IrVar *v = K->locals; v; v = v->next)
    map_put(D, &D->ids, v, (void *)(intptr_t)++nv);
  for (IrFunc *f = m->funcs; f; f = f->next) {
    for (IrVar *v = f->params; v; v = v->next)
      map_put(D, &D->ids, v, (void *)(intptr_t)++nv);
    for (IrVar *v = f->locals; v; v = v->next)
      map_put(D, &D->ids, v, (void *)(intptr_t)++nv);
  }
  D->resid = -1;
  D->nv = nv;
  D->env = arena_alloc(C, sizeof(IrVar *) * (size_t)(nv ? nv : 1));
  memset(D->env, 0, sizeof(IrVar *) * (size_t)(nv ? nv : 1));
  IrVar **tail = &A->params;
  int i = 0;
  for (IrVar *p = K->params; p; p = p->next, i++) {
    IrVar *v = param(D, p, p->name, i);
    *tail = v;
    tail = &v->next;
    D->env[kid(D, p)] = v;
  }
  int np = i;
  i = 0;
  for (IrVar *p = K->params; p; p = p->next, i++) {
    const char *us = strchr(p->name, '_');
    IrVar *v = param(D, p, arena_printf(C, "p%d_tan_%s", np + i,
                                        us ? us + 1 : p->name), np + i);
    v->byref = false;
    *tail = v;
    tail = &v->next;
    map_put(D, &D->adjarr, D->env[kid(D, p)], v);
    if (p->byref)
      refuse(D, "a wp.ref parameter");
  }
  A->nparams = 2 * np;
  for (IrVar *v = K->locals; v; v = v->next)
    D->env[kid(D, v)] = newvar(D, v->name, v->ty);
  Seq body;
  seq_init(&body);
  tblock(D, K->body, &body);
  /* every tangent local starts at zero (a variable assigned in one
   * branch only, then read, reads a defined tangent) */
  Seq z;
  seq_init(&z);
  for (int k = 0; k < D->ntans; k++)
    assign(D, &z, D->tans[k], zero_of(D, D->tans[k]->ty));
  prepend(&body, &z);
  A->body = body.head;
  return A;
}
