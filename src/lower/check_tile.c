/*
 * check_tile.c -- Warp's tiles (issue #24, first stage): the tile type and
 * the builtins wp.tile_load, tile_store, tile_zeros, tile_ones, tile_full,
 * tile_arange, tile_map, tile_reduce, tile_sum, tile_min, tile_max,
 * tile_extract, tile_atomic_add, tile_matmul, and + - * on tiles.
 *
 * A tile is a fixed-size local array (check_fixed.c) whose type is marked
 * Type.tile, with its shape known when the kernel is compiled (Warp's
 * tile(dtype, shape)).  Every tile builtin is lowered here to the IR kern
 * already has -- loops over the tile's elements, loads and stores of
 * arrays and of the tile's storage, conditions for the array's edges --
 * so the three C dialects emit tiles without a line of their own, and the
 * IR passes see ordinary code.
 *
 * Note [tiles, first stage]: each thread of a block holds the whole tile
 * and computes every element of it.  On the CPU a block is one thread (as
 * Warp's CPU runs it, Note [block_dim] in runtime/module.c), so this is
 * exactly Warp's semantics.  On CUDA and OpenCL the threads of a block
 * compute identical tiles from the same inputs, so every result agrees;
 * the operations with an effect outside the tile (tile_store,
 * tile_atomic_add) are done by the block's first thread only
 * (BI_TILE_LANE), so a store or an atomic happens once per block as in
 * Warp.  What this stage leaves to the next: tiles in shared memory with
 * the work split over the block's threads (speed), tile_atomic_add's
 * returned old values on the other threads of a GPU block (there they are
 * zero), and the builtins that combine the threads' own values (wp.tile(x),
 * wp.untile), which need the block size when the kernel is compiled.
 *
 * A tile's elements are scalars, vectors, matrices or @wp.struct values
 * (Note [struct tile elements]).
 *
 * A tile local (t = wp.tile_load(...)) owns its storage: assigning copies
 * the elements, so `a = wp.tile_matmul(a, b)` reads a whole before it is
 * overwritten and no two names share a tile.
 */
#include <string.h>

#include "check.h"

static void inplace_dest(Ctx *X, Node *n, const char *fn, const char *what);

/* As fixed arrays (check_fixed.c): a tile lives on the thread's stack or
 * in its private memory. */
enum { TILE_MAX_BYTES = CHECK_FIXED_MAX_BYTES };

static const Type *tile_type(Ctx *X, const Type *elem, int nd,
                             const int *dims, Pos pos, const char *name) {
  double n = 1;
  for (int k = 0; k < nd; k++)
    n *= dims[k];
  if (n * (double)ty_size(elem) > TILE_MAX_BYTES)
    ERR(pos, "%s(): a tile of %.0f %s is %.0f bytes, too large: kern allows "
             "at most %d bytes per tile (it lives on the thread's stack or "
             "in its private memory)", name, n,
        TN(elem), n * (double)ty_size(elem), TILE_MAX_BYTES);
  Type *t = (Type *)check_fixed_view_type(X, elem, nd, dims);
  t->tile = true;
  return t;
}

static int tile_count(const Type *t) {
  int n = 1;
  for (int k = 0; k < t->ndim; k++)
    n *= t->fdims[k];
  return n;
}

/* A new zeroed tile of type tt, in a hidden variable. */
static IrVar *tile_new(Ctx *X, const Type *tt, Pos pos) {
  X->irf->uses_block = true;
  IrExpr *z = check_fixed_new(X, tt, pos);
  Local *l = check_add_hidden_local(X, "tile", tt, pos);
  check_def_set(X, X->nlocals - 1);
  l->var->nassign++;
  IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
  s->var = l->var;
  s->a = z;
  check_emit(X, s);
  X->tile_fresh = l->var;
  X->tile_fresh_storage = z->args[0]->var;
  return l->var;
}

/* The variable holding the tile e. */
static IrVar *tile_var(Ctx *X, IrExpr *e, Pos pos) {
  if (e->kind == E_VAR)
    return e->var;
  return check_in_temp(X, e, "tile", pos)->var;
}

/* ---------------------------------------------------------------- loops */

/* Nested loops over the shape dims[0..nd): idx[k] is the counter of axis
 * k inside them; statements emitted between loop_open and loop_close go
 * into the innermost body. */
typedef struct TLoop {
  IrStmt **save;
  IrStmt *outer;
  IrVar *ctr[4];
  int nd;
} TLoop;

static void loop_open(Ctx *X, TLoop *L, const int *dims, int nd, Pos pos) {
  Compiler *C = X->C;
  L->save = X->tail;
  L->nd = nd;
  L->outer = NULL;
  for (int k = 0; k < nd; k++) {
    Local *c = check_add_hidden_local(X, "e", t_i32(), pos);
    check_def_set(X, X->nlocals - 1);
    c->var->nassign += 2;
    IrStmt *s = ir_stmt(C, S_FOR, pos);
    s->tile = true;
    s->var = c->var;
    s->a = ir_const_int(C, t_i32(), 0);
    s->b = ir_const_int(C, t_i32(), (uint64_t)dims[k]);
    s->c = ir_const_int(C, t_i32(), 1);
    if (k == 0)
      L->outer = s;
    else
      check_emit(X, s);
    X->tail = &s->body;
    L->ctr[k] = c->var;
  }
  X->loop_depth++;
}

static void loop_close(Ctx *X, TLoop *L) {
  X->loop_depth--;
  X->tail = L->save;
  check_emit(X, L->outer);
}

/* One loop `for c in range(lo, hi)` (lo, hi any int32 expressions). */
static IrVar *range_open(Ctx *X, TLoop *L, IrExpr *lo, IrExpr *hi, Pos pos) {
  Compiler *C = X->C;
  L->save = X->tail;
  L->nd = 1;
  Local *c = check_add_hidden_local(X, "e", t_i32(), pos);
  check_def_set(X, X->nlocals - 1);
  c->var->nassign += 2;
  IrStmt *s = ir_stmt(C, S_FOR, pos);
  s->tile = true;
  s->var = c->var;
  s->a = lo;
  s->b = hi;
  s->c = ir_const_int(C, t_i32(), 1);
  L->outer = s;
  X->tail = &s->body;
  L->ctr[0] = c->var;
  X->loop_depth++;
  return c->var;
}

/* Fresh references to the loop counters (an IR node is used once). */
static IrExpr **loop_idx(Ctx *X, TLoop *L) {
  IrExpr **idx = arena_alloc(X->C, sizeof(IrExpr *) * 4);
  for (int k = 0; k < L->nd; k++)
    idx[k] = ir_ref(X->C, L->ctr[k]);
  return idx;
}

static IrExpr *load_at(Ctx *X, IrVar *v, IrExpr **idx, int nd, Pos pos) {
  IrExpr *e = ir_expr(X->C, E_LOAD, v->ty->elem);
  e->var = v;
  e->nargs = nd;
  e->args = idx;
  e->pos = pos;
  return e;
}

static IrStmt *store_at(Ctx *X, IrVar *v, IrExpr **idx, int nd, IrExpr *val,
                        Pos pos) {
  IrStmt *s = ir_stmt(X->C, S_STORE, pos);
  s->var = v;
  s->args = idx;
  s->nargs = nd;
  s->c = val;
  v->written = true;
  return s;
}

/* The element at the loops' indices of tile variable v. */
static IrExpr *elem(Ctx *X, IrVar *v, TLoop *L, Pos pos) {
  return load_at(X, v, loop_idx(X, L), L->nd, pos);
}

static void set_elem(Ctx *X, IrVar *v, TLoop *L, IrExpr *val, Pos pos) {
  check_emit(X, store_at(X, v, loop_idx(X, L), L->nd, val, pos));
}

/* A new local of type ty set to v. */
static IrVar *temp_of(Ctx *X, const char *base, IrExpr *v, Pos pos) {
  Local *l = check_add_hidden_local(X, base, v->ty, pos);
  check_def_set(X, X->nlocals - 1);
  l->var->nassign += 2;
  IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
  s->var = l->var;
  s->a = v;
  check_emit(X, s);
  return l->var;
}

static void assign(Ctx *X, IrVar *v, IrExpr *e, Pos pos) {
  IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
  s->var = v;
  s->a = e;
  check_emit(X, s);
}

/* Note [struct tile elements]: Warp 1.19 lets a tile hold @wp.struct
 * values.  Loads, stores, copies, views, tile_map, tile_sort and
 * tile_extract treat them as any element.  The additive operations -- a
 * tile's + and -, tile_sum, tile_scatter_add, t[i] += v -- work field by
 * field: a field of a scalar, vector or matrix type of int32, int64,
 * uint32, uint64 or a float (quaternions and transforms too) is added or
 * subtracted, a nested struct recursively, and every other field (bool,
 * 8- and 16-bit integers, arrays) keeps the left operand's value, so a
 * sum keeps the first element's.  tile_atomic_add into an array of
 * structs adds the same fields, each atomically (Note [struct tile
 * atomics]).  Warp has no other operator on struct elements (nor +
 * between struct values outside tiles). */

/* A value type or a struct: what a tile may hold. */
static bool tile_elem_ok(const Type *t) {
  return ty_is_value(t) || t->kind == TY_STRUCT;
}

/* Whether a struct field of type t is added (Note [struct tile
 * elements]); nested structs are walked apart. */
static bool field_adds(const Type *t) {
  if (!ty_is_value(t))
    return false;
  switch (t->sc) {
  case KERN_SCALAR_INT32: case KERN_SCALAR_INT64: case KERN_SCALAR_UINT32:
  case KERN_SCALAR_UINT64: case KERN_SCALAR_FLOAT16:
  case KERN_SCALAR_BFLOAT16: case KERN_SCALAR_FLOAT32:
  case KERN_SCALAR_FLOAT64:
    return true;
  default:
    return false;
  }
}

enum { FIELD_DEPTH = 16 };

/* v.path[0].path[1]... as a fresh chain of E_FIELD (st: v's struct). */
static IrExpr *field_path(Ctx *X, IrVar *v, const int *path, int n) {
  IrExpr *e = ir_ref(X->C, v);
  for (int k = 0; k < n; k++) {
    IrExpr *f = ir_expr(X->C, E_FIELD, e->ty->items[path[k]]);
    f->a = e;
    f->ival = (uint64_t)path[k];
    e = f;
  }
  return e;
}

/* r.path op= b.path for every adding field below the struct st at path. */
static void fields_op(Ctx *X, int op, IrVar *r, IrVar *b, const Type *st,
                      int *path, int n, Pos pos) {
  if (n == FIELD_DEPTH)
    ERR(pos, "structs nested more than %d deep in a tile element",
        FIELD_DEPTH);
  for (int k = 0; k < st->n; k++) {
    const Type *ft = st->items[k];
    path[n] = k;
    if (ft->kind == TY_STRUCT) {
      fields_op(X, op, r, b, ft, path, n + 1, pos);
      continue;
    }
    if (!field_adds(ft))
      continue;
    IrExpr *v = check_binop(X, op, field_path(X, r, path, n + 1),
                            field_path(X, b, path, n + 1), pos);
    IrStmt *s = ir_stmt(X->C, S_SETFIELD, pos);
    s->var = r;
    s->a = field_path(X, r, path, n + 1);
    s->c = v;
    r->nassign++;
    check_emit(X, s);
  }
}

/* l op r on two tile elements: field by field for structs (Note [struct
 * tile elements]), else the operator between two values. */
IrExpr *check_tile_elem_op(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos) {
  if (l->ty->kind != TY_STRUCT && r->ty->kind != TY_STRUCT)
    return check_binop(X, op, l, r, pos);
  if (!ty_eq(l->ty, r->ty) || (op != OP_ADD && op != OP_SUB))
    ERR(pos, "unsupported operand types for %s on tile elements: %s and %s "
             "(Warp's tiles of structs have + and - between elements of "
             "one struct type)", op_text(op), TN(l->ty), TN(r->ty));
  IrVar *a = temp_of(X, "sop", l, pos);
  IrVar *b = r->kind == E_VAR ? r->var : temp_of(X, "sop", r, pos);
  int path[FIELD_DEPTH];
  fields_op(X, op, a, b, l->ty, path, 0, pos);
  return ir_ref(X->C, a);
}

/* `if (lane == 0)`: effects outside the tile happen once per block (Note
 * [tiles, first stage]).  Returns where the guarded statements go. */
static IrStmt *lane0_open(Ctx *X, IrStmt ***save, Pos pos) {
  Compiler *C = X->C;
  IrExpr *lane = ir_call(C, BI_TILE_LANE, t_i32(), 0, NULL);
  IrStmt *s = ir_stmt(C, S_IF, pos);
  s->a = ir_binary(C, OP_EQ, t_bool(), lane, ir_const_int(C, t_i32(), 0));
  *save = X->tail;
  X->tail = &s->body;
  return s;
}

static void lane0_close(Ctx *X, IrStmt *s, IrStmt **save) {
  X->tail = save;
  check_emit(X, s);
}

/* ---------------------------------------------------------------- arguments */

/* Argument i (positional) or keyword name of call; NULL when absent.
 * Every keyword must be one of names (NULL-terminated). */
static Node *arg_of(Ctx *X, Node *call, int i, const char *name,
                    const char *const *names, const char *fname) {
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    bool known = false;
    for (int k = 0; names[k]; k++)
      known |= !strcmp(kw->name, names[k]);
    if (!known)
      ERR(kw->pos, "%s() has no argument '%s'", fname, kw->name);
  }
  int k = 0;
  for (Node *a = call->args; a; a = a->next, k++)
    if (k == i) {
      for (Node *kw = call->kwargs; kw; kw = kw->next)
        if (!strcmp(kw->name, name))
          ERR(kw->pos, "%s() got argument '%s' twice", fname, name);
      return a;
    }
  for (Node *kw = call->kwargs; kw; kw = kw->next)
    if (!strcmp(kw->name, name))
      return kw->a;
  return NULL;
}

static void max_positional(Ctx *X, Node *call, int n, const char *fname) {
  int k = check_count_args(call->args);
  if (k > n)
    ERR(call->pos, "%s() takes at most %d positional arguments, got %d",
        fname, n, k);
}

/* A constant integer (a literal, a wp.constant, a module value). */
static int64_t const_int(Ctx *X, Node *n, const char *fname,
                         const char *what) {
  Node *bad = check_not_constant(X, n);
  IrExpr *e = bad ? NULL : check_expr(X, n);
  if (!e || e->kind != E_CONST || !ty_is_int(e->ty))
    ERR(n->pos, "%s(): %s must be an integer constant (the tile's shape is "
                "known when the kernel is compiled)", fname, what);
  return sc_bits(e->ty->sc) == 32 ? (int32_t)(uint32_t)e->ival
                                  : (int64_t)e->ival;
}

/* shape=: an integer constant or a tuple of 1 to 4 of them. */
static int shape_of(Ctx *X, Node *s, int *dims, const char *fname) {
  if (!s)
    ERR(X->f->pos, "%s() needs a shape", fname);
  Node *items = s->kind == N_TUPLE ? s->args : s;
  int n = s->kind == N_TUPLE ? check_count_args(s->args) : 1;
  if (n < 1 || n > 4)
    ERR(s->pos, "%s(): a tile has 1 to 4 dimensions, got %d", fname, n);
  Node *a = items;
  for (int k = 0; k < n; k++, a = a->next) {
    int64_t v = const_int(X, a, fname, "the shape");
    if (v < 1 || v > TILE_MAX_BYTES)
      ERR(a->pos, "%s(): dimension %d of a tile must be 1 to %d, got %lld",
          fname, k, TILE_MAX_BYTES, (long long)v);
    dims[k] = (int)v;
  }
  return n;
}

/* offset=: nd int32 values (a tuple for nd > 1), each in a variable. */
static void offsets_of(Ctx *X, Node *o, int nd, IrExpr **off,
                       const char *fname) {
  Compiler *C = X->C;
  if (!o) {
    for (int k = 0; k < nd; k++)
      off[k] = ir_const_int(C, t_i32(), 0);
    return;
  }
  Node *items = o->kind == N_TUPLE ? o->args : o;
  int n = o->kind == N_TUPLE ? check_count_args(o->args) : 1;
  if (n != nd)
    ERR(o->pos, "%s(): offset has %d value%s but the array has %d "
                "dimension%s", fname, n, n == 1 ? "" : "s", nd,
        nd == 1 ? "" : "s");
  Node *a = items;
  for (int k = 0; k < n; k++, a = a->next) {
    IrExpr *e = check_expr(X, a);
    if (!ty_is_int(e->ty))
      ERR(a->pos, "%s(): an offset must be an integer, got %s", fname,
          TN(e->ty));
    if (e->ty->sc != KERN_SCALAR_INT32)
      e = ir_cast(C, t_i32(), e);
    off[k] = e->kind == E_CONST || e->kind == E_VAR
                 ? e
                 : ir_ref(C, temp_of(X, "off", e, a->pos));
  }
}

static bool bool_const(Ctx *X, Node *n, bool dflt, const char *fname,
                       const char *what) {
  if (!n)
    return dflt;
  IrExpr *e = check_expr(X, n);
  if (e->kind != E_CONST || !ty_is_bool(e->ty))
    ERR(n->pos, "%s(): %s must be True or False", fname, what);
  return e->ival != 0;
}

/* storage= is Warp's choice of registers or shared memory; kern chooses
 * itself, so any of Warp's values is accepted.  True for "shared", which
 * print shows (Note [tile storage]). */
static bool storage_arg(Ctx *X, Node *n, const char *fname) {
  if (!n)
    return false;
  if (n->kind != N_STR || (strcmp(n->str, "register") &&
                           strcmp(n->str, "shared")))
    ERR(n->pos, "%s(): storage must be \"register\" or \"shared\"", fname);
  return !strcmp(n->str, "shared");
}

static IrVar *array_arg(Ctx *X, Node *n, const char *fname) {
  IrExpr *a = check_expr(X, n);
  if (a->ty->kind != TY_ARRAY || a->ty->tile || a->ty->indexed)
    ERR(n->pos, "%s(): the first argument must be an array, got %s", fname,
        TN(a->ty));
  return check_array_var(X, a, n->pos)->var;
}

static IrVar *tile_arg(Ctx *X, Node *n, const char *fname, const char *what) {
  IrExpr *t = check_expr(X, n);
  if (t->ty->kind != TY_ARRAY || !t->ty->tile)
    ERR(n->pos, "%s(): %s must be a tile, got %s", fname, what, TN(t->ty));
  return tile_var(X, t, n->pos);
}

/* 0 <= g_k < a.shape[k] for every axis, the array index of each element
 * in *g. */
static IrExpr *in_bounds_ix(Ctx *X, IrVar *arr, IrExpr **off, TLoop *L,
                            IrExpr **g, bool check, IrVar *ix, int axis) {
  Compiler *C = X->C;
  IrExpr *cond = NULL;
  for (int k = 0; k < L->nd; k++) {
    IrExpr *o = off[k]->kind == E_VAR ? ir_ref(C, off[k]->var) : off[k];
    IrExpr *ck = ir_ref(C, L->ctr[k]);
    if (ix && k == axis) { /* offset + indices[c] along the axis */
      IrExpr **i1 = arena_alloc(C, sizeof(IrExpr *));
      i1[0] = ck;
      ck = load_at(X, ix, i1, 1, L->outer->pos);
      if (ck->ty->sc != KERN_SCALAR_INT32)
        ck = ir_cast(C, t_i32(), ck);
    }
    IrExpr *gk = ir_binary(C, OP_ADD, t_i32(), ck, o);
    IrVar *gv = temp_of(X, "g", gk, L->outer->pos);
    g[k] = ir_ref(C, gv);
    if (!check)
      continue;
    IrExpr *sh = ir_expr(C, E_SHAPE, t_i32());
    sh->var = arr;
    sh->ival = (uint64_t)k;
    IrExpr *lo = ir_binary(C, OP_GE, t_bool(), ir_ref(C, gv),
                           ir_const_int(C, t_i32(), 0));
    IrExpr *hi = ir_binary(C, OP_LT, t_bool(), ir_ref(C, gv), sh);
    IrExpr *both = ir_expr(C, E_AND, t_bool());
    both->a = lo;
    both->b = hi;
    if (!cond) {
      cond = both;
    } else {
      IrExpr *c2 = ir_expr(C, E_AND, t_bool());
      c2->a = cond;
      c2->b = both;
      cond = c2;
    }
  }
  return cond;
}

static IrExpr *in_bounds(Ctx *X, IrVar *arr, IrExpr **off, TLoop *L,
                         IrExpr **g, bool check) {
  return in_bounds_ix(X, arr, off, L, g, check, NULL, 0);
}

/* Emits `if (cond) s` (just s when cond is NULL). */
static void guarded(Ctx *X, IrExpr *cond, IrStmt *s, Pos pos) {
  if (!cond) {
    check_emit(X, s);
    return;
  }
  IrStmt *i = ir_stmt(X->C, S_IF, pos);
  i->a = cond;
  i->body = s;
  check_emit(X, i);
}

/* ---------------------------------------------------------------- builtins */

static const char *const kw_load[] = {"a", "shape", "offset", "storage",
                                      "bounds_check", "aligned", NULL};

/* wp.tile_load(a, shape, offset=0, storage=, bounds_check=True): the
 * elements a[offset + i]; those outside a are zero (Warp's edges). */
static IrExpr *tile_load(Ctx *X, Node *call, const char *fn) {
  max_positional(X, call, 6, fn);
  Node *an = arg_of(X, call, 0, "a", kw_load, fn);
  if (!an)
    ERR(call->pos, "%s() needs an array", fn);
  IrVar *arr = array_arg(X, an, fn);
  int dims[4];
  int nd = shape_of(X, arg_of(X, call, 1, "shape", kw_load, fn), dims, fn);
  if (nd != arr->ty->ndim)
    ERR(call->pos, "%s(): a tile of %d dimension%s from an array of %d", fn,
        nd, nd == 1 ? "" : "s", arr->ty->ndim);
  IrExpr *off[4];
  offsets_of(X, arg_of(X, call, 2, "offset", kw_load, fn), nd, off, fn);
  bool shared = storage_arg(X, arg_of(X, call, 3, "storage", kw_load, fn), fn);
  bool check = bool_const(X, arg_of(X, call, 4, "bounds_check", kw_load, fn),
                          true, fn, "bounds_check");
  bool_const(X, arg_of(X, call, 5, "aligned", kw_load, fn), false, fn,
             "aligned");
  IrVar *t = tile_new(X, tile_type(X, arr->ty->elem, nd, dims, call->pos, fn),
                      call->pos);
  t->tile_shared = shared;
  arr->read = true;
  TLoop L;
  loop_open(X, &L, dims, nd, call->pos);
  IrExpr **g = arena_alloc(X->C, sizeof(IrExpr *) * 4);
  IrExpr *cond = in_bounds(X, arr, off, &L, g, check);
  IrStmt *s = store_at(X, t, loop_idx(X, &L), nd,
                       load_at(X, arr, g, nd, call->pos), call->pos);
  guarded(X, cond, s, call->pos);
  loop_close(X, &L);
  return ir_ref(X->C, t);
}

static const char *const kw_store[] = {"a", "t", "offset", "bounds_check",
                                       "aligned", NULL};

/* The element types tile_atomic_add adds into: scalars but bool and the
 * 8- and 16-bit integers, float vectors and matrices, and structs (Note
 * [struct tile atomics]) whose adding fields are of those types. */
static void atomic_elem_check(Ctx *X, const Type *et, Pos pos,
                              const char *fn) {
  if (et->kind == TY_STRUCT) {
    for (int k = 0; k < et->n; k++)
      if (et->items[k]->kind == TY_STRUCT || field_adds(et->items[k]))
        atomic_elem_check(X, et->items[k], pos, fn);
    return;
  }
  if ((et->kind == TY_SCALAR && !ty_is_bool(et) &&
       !(sc_is_int(et->sc) && sc_bits(et->sc) < 32)) ||
      ((et->kind == TY_VEC || et->kind == TY_MAT) && sc_is_float(et->sc)))
    return;
  ERR(pos, "%s(): atomic addition to an array of %s is not supported%s", fn,
      TN(et), et->kind == TY_VEC || et->kind == TY_MAT
                  ? " yet (kern's atomics on vectors and matrices are of "
                    "floats)" : "");
}

/* Note [struct tile atomics]: Warp's tile_atomic_add into an array of
 * structs adds field by field, each field that adds (Note [struct tile
 * elements]: int32, int64, uint32, uint64 and float scalars, vectors and
 * matrices; a nested struct recursively) by its own atomic, and leaves
 * every other field (bool, 8- and 16-bit integers, arrays) as it is.  The
 * old value it returns has each added field's old value and the others
 * as they were read.  kern reads the element whole into a temporary,
 * then overwrites each adding field with the old value its atomic
 * returns: E_ATOMIC's field path (IrExpr.fpath) names the field of the
 * array's element that the atomic works on, and every emitter addresses
 * that field. */
static void struct_atomics(Ctx *X, IrVar *arr, IrExpr **g, int nd,
                           IrVar *val, IrVar *old, const Type *st, int *path,
                           int n, Pos pos) {
  if (n == FIELD_DEPTH)
    ERR(pos, "structs nested more than %d deep in a tile element",
        FIELD_DEPTH);
  for (int k = 0; k < st->n; k++) {
    const Type *ft = st->items[k];
    path[n] = k;
    if (ft->kind == TY_STRUCT) {
      struct_atomics(X, arr, g, nd, val, old, ft, path, n + 1, pos);
      continue;
    }
    if (!field_adds(ft))
      continue;
    IrExpr *at = ir_expr(X->C, E_ATOMIC, ft);
    at->bi = BI_ATOMIC_ADD;
    at->var = arr;
    at->args = g;
    at->nargs = nd;
    at->c = field_path(X, val, path, n + 1);
    at->pos = pos;
    at->nfpath = n + 1;
    at->fpath = arena_alloc(X->C, sizeof(int) * (size_t)(n + 1));
    memcpy(at->fpath, path, sizeof(int) * (size_t)(n + 1));
    IrStmt *s = ir_stmt(X->C, S_SETFIELD, pos);
    s->var = old;
    s->a = field_path(X, old, path, n + 1);
    s->c = at;
    old->nassign++;
    check_emit(X, s);
  }
}

/* old[oi] = atomic add of v into arr[g]: the statement, or NULL when it
 * was emitted already, under cond, for a struct element (Note [struct
 * tile atomics]). */
static IrStmt *atomic_elem(Ctx *X, IrVar *arr, IrExpr **g, int nd, IrExpr *v,
                           IrVar *old, IrExpr **oi, IrExpr *cond, Pos pos) {
  const Type *et = arr->ty->elem;
  if (et->kind != TY_STRUCT) {
    IrExpr *at = ir_expr(X->C, E_ATOMIC, et);
    at->bi = BI_ATOMIC_ADD;
    at->var = arr;
    at->args = g;
    at->nargs = nd;
    at->c = v;
    at->pos = pos;
    return store_at(X, old, oi, nd, at, pos);
  }
  IrStmt *body = NULL, **save = X->tail;
  if (cond)
    X->tail = &body;
  IrVar *val = temp_of(X, "sval", v, pos);
  IrVar *o = temp_of(X, "sold", load_at(X, arr, g, nd, pos), pos);
  int path[FIELD_DEPTH];
  struct_atomics(X, arr, g, nd, val, o, et, path, 0, pos);
  check_emit(X, store_at(X, old, oi, nd, ir_ref(X->C, o), pos));
  if (cond) {
    X->tail = save;
    IrStmt *i = ir_stmt(X->C, S_IF, pos);
    i->a = cond;
    i->body = body;
    check_emit(X, i);
  }
  return NULL;
}

/* wp.tile_store(a, t, offset=0, bounds_check=True) and
 * wp.tile_atomic_add(a, t, offset=0, bounds_check=True): the elements
 * outside a are skipped. */
static IrExpr *tile_store(Ctx *X, Node *call, const char *fn, bool atomic) {
  Compiler *C = X->C;
  max_positional(X, call, atomic ? 4 : 5, fn);
  Node *an = arg_of(X, call, 0, "a", kw_store, fn);
  Node *tn = arg_of(X, call, 1, "t", kw_store, fn);
  if (!an || !tn)
    ERR(call->pos, "%s() needs an array and a tile", fn);
  IrVar *arr = array_arg(X, an, fn);
  IrVar *t = tile_arg(X, tn, fn, "the second argument");
  int nd = t->ty->ndim;
  if (nd != arr->ty->ndim)
    ERR(call->pos, "%s(): a tile of %d dimension%s into an array of %d", fn,
        nd, nd == 1 ? "" : "s", arr->ty->ndim);
  if (!ty_eq(t->ty->elem, arr->ty->elem))
    ERR(call->pos, "%s(): a tile of %s into an array of %s (Warp needs the "
                   "same type)", fn, TN(t->ty->elem), TN(arr->ty->elem));
  IrExpr *off[4];
  offsets_of(X, arg_of(X, call, 2, "offset", kw_store, fn), nd, off, fn);
  bool check = bool_const(X, arg_of(X, call, 3, "bounds_check", kw_store, fn),
                          true, fn, "bounds_check");
  if (!atomic)
    bool_const(X, arg_of(X, call, 4, "aligned", kw_store, fn), false, fn,
               "aligned");
  const Type *et = arr->ty->elem;
  if (atomic)
    atomic_elem_check(X, et, call->pos, fn);
  IrVar *old = atomic ? tile_new(X, t->ty, call->pos) : NULL;
  arr->written = true;
  if (atomic) {
    arr->read = true;
    X->irf->uses_atomics = true;
  }
  IrStmt **save;
  IrStmt *g0 = lane0_open(X, &save, call->pos);
  TLoop L;
  loop_open(X, &L, t->ty->fdims, nd, call->pos);
  IrExpr **g = arena_alloc(X->C, sizeof(IrExpr *) * 4);
  IrExpr *cond = in_bounds(X, arr, off, &L, g, check);
  IrStmt *s;
  if (atomic) {
    s = atomic_elem(X, arr, g, nd, elem(X, t, &L, call->pos), old,
                    loop_idx(X, &L), cond, call->pos);
  } else {
    s = store_at(X, arr, g, nd, elem(X, t, &L, call->pos), call->pos);
  }
  if (s)
    guarded(X, cond, s, call->pos);
  loop_close(X, &L);
  lane0_close(X, g0, save);
  if (atomic)
    return ir_ref(C, old);
  return ir_expr(C, E_CONST, &ty_void); /* done: nothing more to emit */
}


/* The indices tile and axis= of the _indexed builtins: a 1-d tile of
 * integers, axis a constant axis of the array. */
static IrVar *indices_arg(Ctx *X, Node *n, Node *axn, int nd, int *axis,
                          const char *fn) {
  if (!n)
    ERR(X->f->pos, "%s() needs indices", fn);
  IrVar *ix = tile_arg(X, n, fn, "indices");
  if (ix->ty->ndim != 1 || ix->ty->elem->kind != TY_SCALAR ||
      !sc_is_int(ix->ty->elem->sc))
    ERR(n->pos, "%s(): indices must be a 1-d tile of integers, got %s", fn,
        TN(ix->ty));
  *axis = axn ? (int)const_int(X, axn, fn, "axis") : 0;
  if (*axis < 0 || *axis >= nd)
    ERR(axn->pos, "%s(): axis %d is not an axis of the %d-d array", fn, *axis,
        nd);
  return ix;
}

static const char *const kw_loadix[] = {"a", "indices", "shape", "offset",
                                        "axis", "storage", NULL};

/* wp.tile_load_indexed(a, indices, shape, offset=None, axis=0): element c
 * from a[offset + c] but offset[axis] + indices[c[axis]] along axis;
 * outside a (either side) reads zero. */
static IrExpr *tile_load_indexed(Ctx *X, Node *call, const char *fn) {
  max_positional(X, call, 6, fn);
  Node *an = arg_of(X, call, 0, "a", kw_loadix, fn);
  if (!an)
    ERR(call->pos, "%s() needs an array", fn);
  IrVar *arr = array_arg(X, an, fn);
  int nd0 = arr->ty->ndim, axis;
  IrVar *ix = indices_arg(X, arg_of(X, call, 1, "indices", kw_loadix, fn),
                          arg_of(X, call, 4, "axis", kw_loadix, fn), nd0,
                          &axis, fn);
  int dims[4];
  int nd = shape_of(X, arg_of(X, call, 2, "shape", kw_loadix, fn), dims, fn);
  if (nd != nd0)
    ERR(call->pos, "%s(): a tile of %d dimension%s from an array of %d", fn,
        nd, nd == 1 ? "" : "s", nd0);
  if (dims[axis] != ix->ty->fdims[0])
    ERR(call->pos, "%s(): %d indices for a tile of %d along axis %d", fn,
        ix->ty->fdims[0], dims[axis], axis);
  IrExpr *off[4];
  offsets_of(X, arg_of(X, call, 3, "offset", kw_loadix, fn), nd, off, fn);
  bool shared = storage_arg(X, arg_of(X, call, 5, "storage", kw_loadix, fn), fn);
  IrVar *t = tile_new(X, tile_type(X, arr->ty->elem, nd, dims, call->pos, fn),
                      call->pos);
  t->tile_shared = shared;
  arr->read = true;
  TLoop L;
  loop_open(X, &L, dims, nd, call->pos);
  IrExpr **g = arena_alloc(X->C, sizeof(IrExpr *) * 4);
  IrExpr *cond = in_bounds_ix(X, arr, off, &L, g, true, ix, axis);
  IrStmt *s = store_at(X, t, loop_idx(X, &L), nd,
                       load_at(X, arr, g, nd, call->pos), call->pos);
  guarded(X, cond, s, call->pos);
  loop_close(X, &L);
  return ir_ref(X->C, t);
}

static const char *const kw_storeix[] = {"a", "indices", "t", "offset",
                                         "axis", NULL};

/* wp.tile_store_indexed(a, indices, t, offset=None, axis=0) and
 * tile_atomic_add_indexed: element c to a at offset + c, but
 * offset[axis] + indices[c[axis]] along axis; outside a skipped. */
static IrExpr *tile_store_indexed(Ctx *X, Node *call, const char *fn,
                                  bool atomic) {
  Compiler *C = X->C;
  max_positional(X, call, 5, fn);
  Node *an = arg_of(X, call, 0, "a", kw_storeix, fn);
  Node *tn = arg_of(X, call, 2, "t", kw_storeix, fn);
  if (!an || !tn)
    ERR(call->pos, "%s() needs an array, indices and a tile", fn);
  IrVar *arr = array_arg(X, an, fn);
  int nd = arr->ty->ndim, axis;
  IrVar *ix = indices_arg(X, arg_of(X, call, 1, "indices", kw_storeix, fn),
                          arg_of(X, call, 4, "axis", kw_storeix, fn), nd,
                          &axis, fn);
  IrVar *t = tile_arg(X, tn, fn, "t");
  if (t->ty->ndim != nd)
    ERR(call->pos, "%s(): a tile of %d dimension%s into an array of %d", fn,
        t->ty->ndim, t->ty->ndim == 1 ? "" : "s", nd);
  if (!ty_eq(t->ty->elem, arr->ty->elem))
    ERR(call->pos, "%s(): a tile of %s into an array of %s (Warp needs the "
                   "same type)", fn, TN(t->ty->elem), TN(arr->ty->elem));
  if (t->ty->fdims[axis] != ix->ty->fdims[0])
    ERR(call->pos, "%s(): %d indices for a tile of %d along axis %d", fn,
        ix->ty->fdims[0], t->ty->fdims[axis], axis);
  IrExpr *off[4];
  offsets_of(X, arg_of(X, call, 3, "offset", kw_storeix, fn), nd, off, fn);
  const Type *et = arr->ty->elem;
  if (atomic)
    atomic_elem_check(X, et, call->pos, fn);
  IrVar *old = atomic ? tile_new(X, t->ty, call->pos) : NULL;
  arr->written = true;
  if (atomic) {
    arr->read = true;
    X->irf->uses_atomics = true;
  }
  IrStmt **save;
  IrStmt *g0 = lane0_open(X, &save, call->pos);
  TLoop L;
  loop_open(X, &L, t->ty->fdims, nd, call->pos);
  IrExpr **g = arena_alloc(C, sizeof(IrExpr *) * 4);
  IrExpr *cond = in_bounds_ix(X, arr, off, &L, g, true, ix, axis);
  IrStmt *s;
  if (atomic) {
    s = atomic_elem(X, arr, g, nd, elem(X, t, &L, call->pos), old,
                    loop_idx(X, &L), cond, call->pos);
  } else {
    s = store_at(X, arr, g, nd, elem(X, t, &L, call->pos), call->pos);
  }
  if (s)
    guarded(X, cond, s, call->pos);
  loop_close(X, &L);
  lane0_close(X, g0, save);
  if (atomic)
    return ir_ref(C, old);
  return ir_expr(C, E_CONST, &ty_void);
}

static const char *const kw_make[] = {"shape", "value", "dtype", "storage",
                                      NULL};

/* wp.tile_zeros/ones(shape, dtype=float) and
 * wp.tile_full(shape, value, dtype=None). */
static IrExpr *tile_fill(Ctx *X, Node *call, const char *fn, int which) {
  Compiler *C = X->C;
  bool full = which == 2;
  max_positional(X, call, full ? 4 : 3, fn);
  int dims[4];
  int nd = shape_of(X, arg_of(X, call, 0, "shape", kw_make, fn), dims, fn);
  Node *vn = full ? arg_of(X, call, 1, "value", kw_make, fn) : NULL;
  if (full && !vn)
    ERR(call->pos, "%s() needs a value", fn);
  if (!full)
    for (Node *kw = call->kwargs; kw; kw = kw->next)
      if (!strcmp(kw->name, "value"))
        ERR(kw->pos, "%s() has no argument 'value'", fn);
  Node *dn = arg_of(X, call, full ? 2 : 1, "dtype", kw_make, fn);
  bool shared = storage_arg(X, arg_of(X, call, full ? 3 : 2, "storage",
                                     kw_make, fn), fn);
  const Type *et = dn ? check_type_expr(X, dn, "dtype") : NULL;
  IrExpr *v = NULL;
  if (full) {
    v = et && check_is_literal(vn) ? check_literal_as(X, vn, et)
                                   : check_expr(X, vn);
    if (!et)
      et = v->ty;
    if (!ty_eq(v->ty, et))
      ERR(vn->pos, "%s(): the value is %s but dtype is %s", fn, TN(v->ty),
          TN(et));
  }
  if (!et)
    et = t_f32();
  if (!tile_elem_ok(et) || (which == 1 && et->kind == TY_STRUCT))
    ERR(dn ? dn->pos : call->pos, "%s(): the elements of a tile are %s, "
                                  "not %s", fn,
        which == 1 ? "scalars, vectors or matrices"
                   : "scalars, vectors, matrices or structs", TN(et));
  if (full && v->kind != E_CONST && v->kind != E_VAR)
    v = ir_ref(C, temp_of(X, "fill", v, vn->pos));
  IrVar *t = tile_new(X, tile_type(X, et, nd, dims, call->pos, fn), call->pos);
  t->tile_shared = shared;
  if (which == 0)
    return ir_ref(C, t);
  if (which == 1) {
    IrExpr *one = et->kind == TY_SCALAR
                      ? (sc_is_float(et->sc) ? ir_const_float(C, et, 1.0)
                                             : ir_const_int(C, et, 1))
                      : NULL;
    if (!one) {
      IrExpr *o = sc_is_float(et->sc)
                      ? ir_const_float(C, ty_scalar(et->sc), 1.0)
                      : ir_const_int(C, ty_scalar(et->sc), 1);
      one = ir_expr(C, E_MAKE, et);
      one->nargs = 1;
      one->args = arena_alloc(C, sizeof(IrExpr *));
      one->args[0] = o;
    }
    v = one;
  }
  TLoop L;
  loop_open(X, &L, dims, nd, call->pos);
  set_elem(X, t, &L, v->kind == E_VAR ? ir_ref(C, v->var) : v, call->pos);
  loop_close(X, &L);
  return ir_ref(C, t);
}

/* wp.tile_arange(stop) / (start, stop) / (start, stop, step), dtype=:
 * start + i * step, all constants. */
static IrExpr *tile_arange(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"dtype", "storage", NULL};
  Node *dn = NULL;
  bool shared = false;
  for (Node *kwn = call->kwargs; kwn; kwn = kwn->next) {
    if (!strcmp(kwn->name, "dtype"))
      dn = kwn->a;
    else if (!strcmp(kwn->name, "storage"))
      shared = storage_arg(X, kwn->a, fn);
    else
      ERR(kwn->pos, "%s() has no argument '%s'", fn, kwn->name);
  }
  (void)kw;
  int na = check_count_args(call->args);
  if (na < 1 || na > 3)
    ERR(call->pos, "%s() takes 1 to 3 positional arguments (stop, or start, "
                   "stop[, step]), got %d", fn, na);
  IrExpr *v[3];
  int i = 0;
  for (Node *a = call->args; a; a = a->next, i++) {
    Node *bad = check_not_constant(X, a);
    v[i] = bad ? NULL : check_expr(X, a);
    if (!v[i] || v[i]->kind != E_CONST || v[i]->ty->kind != TY_SCALAR)
      ERR(a->pos, "%s(): the arguments must be constants (the tile's length "
                  "is known when the kernel is compiled)", fn);
  }
  const Type *et = dn ? check_type_expr(X, dn, "dtype") : v[0]->ty;
  if (et->kind != TY_SCALAR || ty_is_bool(et))
    ERR(call->pos, "%s(): dtype must be a numeric scalar type, got %s", fn,
        TN(et));
  double d[3];
  for (int k = 0; k < na; k++)
    d[k] = sc_is_float(v[k]->ty->sc) ? v[k]->fval
           : sc_bits(v[k]->ty->sc) == 32 ? (double)(int32_t)(uint32_t)v[k]->ival
                                         : (double)(int64_t)v[k]->ival;
  double start = na == 1 ? 0 : d[0], stop = na == 1 ? d[0] : d[1],
         step = na == 3 ? d[2] : 1;
  if (!sc_is_float(et->sc)) {
    start = (double)(int64_t)start;
    stop = (double)(int64_t)stop;
    step = (double)(int64_t)step;
  }
  if (step == 0)
    ERR(call->pos, "%s(): step must not be zero", fn);
  double nn = (stop - start) / step;
  int64_t n = (int64_t)nn;
  if ((double)n < nn)
    n++;
  if (n < 1)
    ERR(call->pos, "%s(): the range is empty (a tile has at least one "
                   "element)", fn);
  if (n > TILE_MAX_BYTES)
    ERR(call->pos, "%s(): %lld elements, too many for a tile", fn,
        (long long)n);
  int dims[1] = {(int)n};
  IrVar *t = tile_new(X, tile_type(X, et, 1, dims, call->pos, fn), call->pos);
  t->tile_shared = shared;
  IrExpr *s0 = sc_is_float(et->sc) ? ir_const_float(C, et, start)
                                   : ir_const_int(C, et, (uint64_t)(int64_t)start);
  IrExpr *st = sc_is_float(et->sc) ? ir_const_float(C, et, step)
                                   : ir_const_int(C, et, (uint64_t)(int64_t)step);
  TLoop L;
  loop_open(X, &L, dims, 1, call->pos);
  IrExpr *iv = ir_ref(C, L.ctr[0]);
  if (!ty_eq(et, t_i32()))
    iv = ir_cast(C, et, iv);
  IrExpr *val = ir_binary(C, OP_ADD, et, s0, ir_binary(C, OP_MUL, et, iv, st));
  set_elem(X, t, &L, val, call->pos);
  loop_close(X, &L);
  return ir_ref(C, t);
}

/* The call fn(args...) of a function given as a value (wp.sin, a
 * @wp.func), on the values vals, checked as a call written in the kernel:
 * each value is bound to a hidden name the call's arguments name. */
static IrExpr *call_on(Ctx *X, Node *at, Node *fn, IrExpr **vals, int n) {
  Node *c = arena_alloc(X->C, sizeof *c);
  c->kind = N_CALL;
  c->pos = at->pos;
  c->builtin = -1;
  c->a = fn;
  c->depth = fn->depth + 2;
  Node **tail = &c->args;
  for (int i = 0; i < n; i++) {
    const char *nm = arena_printf(X->C, "*tilearg%d", X->nlocals);
    IrVar *v = temp_of(X, "targ", vals[i], at->pos);
    names_put(X->C, &X->local_names, nm, (void *)(intptr_t)X->nlocals);
    (void)v;
    Node *a = arena_alloc(X->C, sizeof *a);
    a->kind = N_NAME;
    a->pos = at->pos;
    a->builtin = -1;
    a->name = nm;
    a->depth = 1;
    *tail = a;
    tail = &a->next;
  }
  return check_expr(X, c);
}

/* The type fn(vals...) would have, found by checking the call on a
 * scratch list of statements that is then dropped. */
static const Type *call_type(Ctx *X, Node *at, Node *fn, IrExpr **vals,
                             int n) {
  IrStmt *scratch = NULL, **save = X->tail;
  X->tail = &scratch;
  const Type *t = call_on(X, at, fn, vals, n)->ty;
  X->tail = save;
  return t;
}

/* wp.tile_map(op, a, b, ...): op applied element by element; a is a tile,
 * each later argument a tile of a's shape or a value (a scalar, vector or
 * matrix: Warp's "*args: Any"), the same for every element. */
static IrExpr *tile_map(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  check_no_kwargs(X, call, fn);
  int na = check_count_args(call->args);
  if (na < 2 || na > 8)
    ERR(call->pos, "%s() takes a function and 1 to 7 tiles or values, got %d "
                   "arguments", fn, na);
  Node *op = call->args;
  IrVar *ts[8] = {0};
  IrVar *cv[8] = {0}; /* a value argument */
  int k = 0;
  for (Node *a = op->next; a; a = a->next, k++) {
    if (k == 0) {
      ts[0] = tile_arg(X, a, fn, "the first argument after the function");
      continue;
    }
    IrExpr *e = check_expr(X, a);
    if (e->ty->kind == TY_ARRAY && e->ty->tile) {
      ts[k] = tile_var(X, e, a->pos);
      if (ts[k]->ty->ndim != ts[0]->ty->ndim ||
          memcmp(ts[k]->ty->fdims, ts[0]->ty->fdims, sizeof(int) * 4))
        ERR(a->pos, "%s(): the tiles have different shapes: %s and %s", fn,
            TN(ts[0]->ty), TN(ts[k]->ty));
    } else {
      if (!tile_elem_ok(e->ty))
        ERR(a->pos, "%s(): an argument after the function is a tile or a "
                    "scalar, vector, matrix or struct, got %s", fn,
            TN(e->ty));
      cv[k] = temp_of(X, "mapc", e, a->pos);
    }
  }
  int n = na - 1, nd = ts[0]->ty->ndim;
  IrExpr *z[8];
  for (int i = 0; i < n; i++) {
    if (cv[i]) {
      z[i] = ir_ref(C, cv[i]);
      continue;
    }
    IrExpr **idx = arena_alloc(C, sizeof(IrExpr *) * 4);
    for (int d = 0; d < nd; d++)
      idx[d] = ir_const_int(C, t_i32(), 0);
    z[i] = load_at(X, ts[i], idx, nd, call->pos);
  }
  const Type *rt = call_type(X, call, op, z, n);
  if (!tile_elem_ok(rt))
    ERR(op->pos, "%s(): the function returns %s, not a scalar, vector, "
                 "matrix or struct", fn, TN(rt));
  IrVar *t = tile_new(X, tile_type(X, rt, nd, ts[0]->ty->fdims, call->pos, fn),
                      call->pos);
  TLoop L;
  loop_open(X, &L, ts[0]->ty->fdims, nd, call->pos);
  IrExpr *vals[8];
  for (int i = 0; i < n; i++)
    vals[i] = cv[i] ? ir_ref(C, cv[i]) : elem(X, ts[i], &L, call->pos);
  set_elem(X, t, &L, call_on(X, call, op, vals, n), call->pos);
  loop_close(X, &L);
  return ir_ref(C, t);
}

/* The element f of a tile of type tt in row-major order, as indices. */
static IrExpr **flat_idx(Ctx *X, const Type *tt, IrVar *f) {
  Compiler *C = X->C;
  IrExpr **idx = arena_alloc(C, sizeof(IrExpr *) * 4);
  int64_t below = 1;
  for (int k = tt->ndim - 1; k >= 0; k--) {
    IrExpr *q = ir_ref(C, f);
    if (below > 1)
      q = ir_binary(C, OP_DIV, t_i32(), q,
                    ir_const_int(C, t_i32(), (uint64_t)below));
    if (k > 0) { /* q % d as q - q / d * d: the IR's binaries are C's */
      IrExpr *q2 = ir_ref(C, f);
      if (below > 1)
        q2 = ir_binary(C, OP_DIV, t_i32(), q2,
                       ir_const_int(C, t_i32(), (uint64_t)below));
      IrExpr *d = ir_const_int(C, t_i32(), (uint64_t)tt->fdims[k]);
      q = ir_binary(C, OP_SUB, t_i32(), q,
                    ir_binary(C, OP_MUL, t_i32(),
                              ir_binary(C, OP_DIV, t_i32(), q2, d),
                              ir_const_int(C, t_i32(),
                                           (uint64_t)tt->fdims[k])));
    }
    idx[k] = q;
    below *= tt->fdims[k];
  }
  return idx;
}

/* acc op e for tile_reduce's which (0: the function op, 1: +, 2: min,
 * 3: max). */
static IrExpr *reduce_step(Ctx *X, Node *call, Node *op, int which,
                           IrVar *acc, IrExpr *e, const Type *et) {
  Compiler *C = X->C;
  if (which == 0) {
    IrExpr *ab[2] = {ir_ref(C, acc), e};
    return call_on(X, call, op, ab, 2);
  }
  if (which == 1)
    return check_tile_elem_op(X, OP_ADD, ir_ref(C, acc), e, call->pos);
  return ir_call2(C, which == 2 ? BI_MIN : BI_MAX, et, ir_ref(C, acc), e);
}

/* tile_sum(t, axis=k), tile_reduce(op, t, axis=k): the tile without axis
 * k (shape (1,) for a 1-d tile), each element op over the axis from its
 * first element. */
static IrExpr *reduce_axis(Ctx *X, Node *call, Node *op, int which,
                           IrVar *t, Node *axn, const char *fn) {
  Compiler *C = X->C;
  const Type *tt = t->ty, *et = tt->elem;
  int nd = tt->ndim;
  int64_t axis = const_int(X, axn, fn, "axis");
  if (axis < 0 || axis >= nd)
    ERR(axn->pos, "%s(): axis %lld is out of bounds for a tile of %d "
                  "dimension%s", fn, (long long)axis, nd, nd == 1 ? "" : "s");
  int rd[4], rn = 0;
  for (int k = 0; k < nd; k++)
    if (k != axis)
      rd[rn++] = tt->fdims[k];
  if (rn == 0)
    rd[rn++] = 1;
  IrVar *r = tile_new(X, tile_type(X, et, rn, rd, call->pos, fn), call->pos);
  TLoop L;
  loop_open(X, &L, rd, rn, call->pos);
  /* the source index: the result's counters around the axis */
  IrExpr **i0 = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int k = 0, j = 0; k < nd; k++)
    i0[k] = k == axis ? ir_const_int(C, t_i32(), 0)
                      : ir_ref(C, L.ctr[j++]);
  IrVar *acc = temp_of(X, "acc", load_at(X, t, i0, nd, call->pos), call->pos);
  int n = tt->fdims[axis];
  if (n > 1) {
    int dims[1] = {n - 1};
    TLoop K;
    loop_open(X, &K, dims, 1, call->pos);
    IrExpr **ik = arena_alloc(C, sizeof(IrExpr *) * 4);
    for (int k = 0, j = 0; k < nd; k++)
      ik[k] = k == axis ? ir_binary(C, OP_ADD, t_i32(), ir_ref(C, K.ctr[0]),
                                    ir_const_int(C, t_i32(), 1))
                        : ir_ref(C, L.ctr[j++]);
    IrExpr *e = load_at(X, t, ik, nd, call->pos);
    assign(X, acc, reduce_step(X, call, op, which, acc, e, et), call->pos);
    loop_close(X, &K);
  }
  set_elem(X, r, &L, ir_ref(C, acc), call->pos);
  loop_close(X, &L);
  return ir_ref(C, r);
}

/* wp.tile_reduce(op, t[, axis]), tile_sum(t[, axis]), tile_min, tile_max:
 * a tile of shape (1,) holding op over the elements in row-major order,
 * from the first; with axis, reduce_axis. */
static IrExpr *tile_reduce(Ctx *X, Node *call, const char *fn, int which) {
  Compiler *C = X->C;
  static const char *const kw_r[] = {"op", "a", "axis", NULL};
  static const char *const kw_s[] = {"a", "axis", NULL};
  int na = check_count_args(call->args);
  int want = which == 0 ? 2 : 1;
  int can_axis = which <= 1;
  const char *const *kw = which == 0 ? kw_r : kw_s;
  if (!can_axis)
    check_no_kwargs(X, call, fn);
  max_positional(X, call, want + can_axis, fn);
  Node *op = which == 0 ? arg_of(X, call, 0, "op", kw, fn) : NULL;
  Node *tn = arg_of(X, call, want - 1, "a", kw, fn);
  Node *axn = can_axis ? arg_of(X, call, want, "axis", kw, fn) : NULL;
  if (!tn || (which == 0 && !op))
    ERR(call->pos, "%s() takes %s, got %d arguments", fn,
        which == 0 ? "a function and a tile" : "one tile", na);
  IrVar *t = tile_arg(X, tn, fn, "the tile argument");
  const Type *et = t->ty->elem;
  if (which >= 2 && et->kind != TY_SCALAR)
    ERR(tn->pos, "%s(): the elements must be scalars, got %s", fn, TN(et));
  if (op) {
    IrExpr **iz = arena_alloc(C, sizeof(IrExpr *) * 4);
    for (int d = 0; d < t->ty->ndim; d++)
      iz[d] = ir_const_int(C, t_i32(), 0);
    IrExpr *z[2] = {load_at(X, t, iz, t->ty->ndim, call->pos),
                    load_at(X, t, iz, t->ty->ndim, call->pos)};
    const Type *rt = call_type(X, call, op, z, 2);
    if (!ty_eq(rt, et))
      ERR(op->pos, "%s(): the function returns %s for elements of %s (it "
                   "must return the element type)", fn, TN(rt), TN(et));
  }
  if (axn)
    return reduce_axis(X, call, op, which, t, axn, fn);
  IrExpr **i0 = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int d = 0; d < t->ty->ndim; d++)
    i0[d] = ir_const_int(C, t_i32(), 0);
  IrVar *acc = temp_of(X, "acc", load_at(X, t, i0, t->ty->ndim, call->pos),
                       call->pos);
  int n = tile_count(t->ty);
  int one[1] = {1};
  IrVar *r = tile_new(X, tile_type(X, et, 1, one, call->pos, fn), call->pos);
  if (n > 1) {
    int dims[1] = {n - 1};
    TLoop L;
    loop_open(X, &L, dims, 1, call->pos);
    IrVar *f = temp_of(X, "f", ir_binary(C, OP_ADD, t_i32(),
                                         ir_ref(C, L.ctr[0]),
                                         ir_const_int(C, t_i32(), 1)),
                       call->pos);
    IrExpr *e = load_at(X, t, flat_idx(X, t->ty, f), t->ty->ndim, call->pos);
    assign(X, acc, reduce_step(X, call, op, which, acc, e, et), call->pos);
    loop_close(X, &L);
  }
  IrExpr **r0 = arena_alloc(C, sizeof(IrExpr *));
  r0[0] = ir_const_int(C, t_i32(), 0);
  check_emit(X, store_at(X, r, r0, 1, ir_ref(C, acc), call->pos));
  return ir_ref(C, r);
}

/* wp.tile_extract(t, i[, j ...]): one element. */
static IrExpr *tile_extract(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  check_no_kwargs(X, call, fn);
  int na = check_count_args(call->args);
  if (na < 2)
    ERR(call->pos, "%s() takes a tile and its indices", fn);
  IrVar *t = tile_arg(X, call->args, fn, "the first argument");
  t->tile_shared = true; /* Note [tile storage] */
  if (na - 1 != t->ty->ndim)
    ERR(call->pos, "%s(): %d indices for a tile of %d dimension%s", fn,
        na - 1, t->ty->ndim, t->ty->ndim == 1 ? "" : "s");
  IrExpr **idx = arena_alloc(C, sizeof(IrExpr *) * 4);
  int k = 0;
  for (Node *a = call->args->next; a; a = a->next, k++) {
    IrExpr *e = check_expr(X, a);
    if (!ty_is_int(e->ty))
      ERR(a->pos, "%s(): an index must be an integer, got %s", fn,
          TN(e->ty));
    if (e->ty->sc != KERN_SCALAR_INT32)
      e = ir_cast(C, t_i32(), e);
    if (e->kind == E_CONST) {
      int64_t v = (int32_t)(uint32_t)e->ival;
      if (v < 0 || v >= t->ty->fdims[k])
        ERR(a->pos, "%s(): index %lld is outside axis %d of %s", fn,
            (long long)v, k, TN(t->ty));
    }
    idx[k] = e;
  }
  return load_at(X, t, idx, na - 1, call->pos);
}

/* wp.tile_matmul(a, b[, out], alpha=1.0[, beta=1.0]): alpha * a @ b as a
 * new tile, or out = alpha * a @ b + beta * out in place.  Plain loops;
 * each element sums its products in k order. */
static IrExpr *tile_matmul(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"a", "b", "out", "alpha", "beta",
                                   "precision", NULL};
  Node *an = arg_of(X, call, 0, "a", kw, fn);
  Node *bn = arg_of(X, call, 1, "b", kw, fn);
  if (!an || !bn)
    ERR(call->pos, "%s() needs two tiles", fn);
  IrVar *a = tile_arg(X, an, fn, "a");
  IrVar *b = tile_arg(X, bn, fn, "b");
  int np = check_count_args(call->args);
  /* the third positional argument is out when it is a tile */
  Node *on = NULL, *alpha_n = NULL, *beta_n = NULL;
  Node *third = np >= 3 ? call->args->next->next : NULL;
  bool third_tile = false;
  if (third) {
    const Type *tt = check_expr(X, third)->ty;
    third_tile = tt->kind == TY_ARRAY && tt->tile;
  }
  if (third_tile) {
    on = third;
    alpha_n = np >= 4 ? third->next : NULL;
    beta_n = np >= 5 ? third->next->next : NULL;
  } else {
    alpha_n = third;
  }
  for (Node *k = call->kwargs; k; k = k->next) {
    if (!strcmp(k->name, "out"))
      on = k->a;
    else if (!strcmp(k->name, "alpha"))
      alpha_n = k->a;
    else if (!strcmp(k->name, "beta"))
      beta_n = k->a;
    else if (strcmp(k->name, "precision"))
      ERR(k->pos, "%s() has no argument '%s'", fn, k->name);
  }
  if (np > 5)
    ERR(call->pos, "%s() takes at most 5 positional arguments", fn);
  /* Warp: a, b and out are each float16, bfloat16, float32 or float64;
   * the products are summed in out's type (a's type without out), which
   * may not be bfloat16. */
  if (on)
    inplace_dest(X, on, fn, "out");
  IrVar *ot = on ? tile_arg(X, on, fn, "out") : NULL;
  struct { IrVar *t; Node *n; const char *name; } ops[3] = {
      {a, an, "a"}, {b, bn, "b"}, {ot, on, "out"}};
  for (int i = 0; i < 3; i++) {
    if (!ops[i].t)
      continue;
    const Type *t = ops[i].t->ty->elem;
    if (t->kind != TY_SCALAR || !sc_is_float(t->sc))
      ERR(ops[i].n->pos, "%s(): %s must be a tile of float16, bfloat16, "
                         "float32 or float64, got %s", fn, ops[i].name,
          TN(ops[i].t->ty));
  }
  if (a->ty->ndim != 2 || b->ty->ndim != 2)
    ERR(call->pos, "%s(): a and b must be 2-d tiles, got %s and %s", fn,
        TN(a->ty), TN(b->ty));
  const Type *et = ot ? ot->ty->elem : a->ty->elem;
  if (et->sc == KERN_SCALAR_BFLOAT16)
    ERR((on ? on : an)->pos, "%s(): the product is summed in %s's type, "
                             "which may be float16, float32 or float64, "
                             "not bfloat16 (as in Warp)", fn,
        on ? "out" : "a");
  int M = a->ty->fdims[0], K = a->ty->fdims[1], N = b->ty->fdims[1];
  if (b->ty->fdims[0] != K)
    ERR(call->pos, "%s(): the shapes %s and %s do not multiply (a's columns "
                   "must be b's rows)", fn, TN(a->ty), TN(b->ty));
  IrExpr *alpha = NULL, *beta = NULL;
  if (alpha_n) {
    /* Warp: a float literal is float32, and alpha becomes out's type */
    alpha = check_is_literal(alpha_n)
               ? check_literal_as(X, alpha_n, ty_scalar(KERN_SCALAR_FLOAT32))
               : check_expr(X, alpha_n);
    if (alpha->ty->kind != TY_SCALAR || !sc_is_float(alpha->ty->sc))
      ERR(alpha_n->pos, "%s(): alpha must be a float, got %s", fn,
          TN(alpha->ty));
    if (!ty_eq(alpha->ty, et))
      alpha = ir_cast(C, et, alpha);
    if (alpha->kind != E_CONST)
      alpha = ir_ref(C, temp_of(X, "alpha", alpha, alpha_n->pos));
  }
  if (beta_n) {
    if (!on)
      ERR(beta_n->pos, "%s(): beta needs an out tile", fn);
    /* Warp: a float literal is float32, and beta becomes out's type */
    beta = check_is_literal(beta_n)
               ? check_literal_as(X, beta_n, ty_scalar(KERN_SCALAR_FLOAT32))
               : check_expr(X, beta_n);
    if (beta->ty->kind != TY_SCALAR || !sc_is_float(beta->ty->sc))
      ERR(beta_n->pos, "%s(): beta must be a float, got %s", fn,
          TN(beta->ty));
    if (!ty_eq(beta->ty, et))
      beta = ir_cast(C, et, beta);
    if (beta->kind != E_CONST)
      beta = ir_ref(C, temp_of(X, "beta", beta, beta_n->pos));
  }
  IrVar *out;
  int dims[2] = {M, N};
  if (on) {
    out = ot;
    if (out->ty->ndim != 2 || out->ty->fdims[0] != M ||
        out->ty->fdims[1] != N || !ty_eq(out->ty->elem, et))
      ERR(on->pos, "%s(): out is %s but a @ b is a tile of %s of shape "
                   "(%d, %d)", fn, TN(out->ty), TN(et), M, N);
  } else {
    out = tile_new(X, tile_type(X, et, 2, dims, call->pos, fn), call->pos);
  }
  IrExpr *zero = ir_const_float(C, et, 0.0);
  TLoop L;
  loop_open(X, &L, dims, 2, call->pos);
  IrVar *s = temp_of(X, "dot", zero, call->pos);
  int kd[1] = {K};
  TLoop Lk;
  loop_open(X, &Lk, kd, 1, call->pos);
  IrExpr **ia = arena_alloc(C, sizeof(IrExpr *) * 2);
  ia[0] = ir_ref(C, L.ctr[0]);
  ia[1] = ir_ref(C, Lk.ctr[0]);
  IrExpr **ib = arena_alloc(C, sizeof(IrExpr *) * 2);
  ib[0] = ir_ref(C, Lk.ctr[0]);
  ib[1] = ir_ref(C, L.ctr[1]);
  IrExpr *ea = load_at(X, a, ia, 2, call->pos);
  IrExpr *eb = load_at(X, b, ib, 2, call->pos);
  if (!ty_eq(ea->ty, et))
    ea = ir_cast(C, et, ea);
  if (!ty_eq(eb->ty, et))
    eb = ir_cast(C, et, eb);
  IrExpr *p = ir_binary(C, OP_MUL, et, ea, eb);
  assign(X, s, ir_binary(C, OP_ADD, et, ir_ref(C, s), p), call->pos);
  loop_close(X, &Lk);
  IrExpr *v = ir_ref(C, s);
  if (alpha)
    v = ir_binary(C, OP_MUL, et, alpha, v);
  if (on) {
    IrExpr *o = elem(X, out, &L, call->pos);
    if (beta)
      o = ir_binary(C, OP_MUL, et, beta, o);
    v = ir_binary(C, OP_ADD, et, v, o);
  }
  set_elem(X, out, &L, v, call->pos);
  loop_close(X, &L);
  /* Note [tile storage] */
  a->tile_shared = b->tile_shared = out->tile_shared = true;
  return on ? ir_expr(C, E_CONST, &ty_void) : ir_ref(C, out);
}

/* ---------------------------------------------------------------- views */

/* Note [tile views in place]: Warp's tile_view, tile_transpose,
 * tile_broadcast, tile_reshape, tile_squeeze and a tile subscript t[i]
 * return views that alias their tile's storage.  kern copies the elements
 * into a new tile, which reads the same, and keeps the copies coherent
 * where a write in place could show the difference:
 *
 *  - A view bound to a new name (v = wp.tile_view(a, ...)) remembers how
 *    its elements sit in a (a TileMap: per axis of a, the view's axis with
 *    a step, plus an offset held in a hidden variable, or the same
 *    row-major position for reshape and squeeze).
 *  - After each statement that writes a tile in place (tile_assign, +=,
 *    t[i] = x, the _inplace solvers, tile_sort ...; check_tile_mutate
 *    records it), check_tile_sync copies the written tile's elements back
 *    into the tile it is a view of, and so on up, and re-derives every
 *    view of each tile changed so, and their views, that is definitely
 *    bound there.  A map's parent is always an older local, so this ends.
 *
 * What it cannot get right is refused, as before, by marking the names
 * tile_aliased (no write in place): a broadcast view written in place
 * (several of its elements are one element of the parent: Warp's result
 * depends on the order of the stores), a view of an unnamed view, a name
 * bound to a view a second time, or bound to a view after it was bound to
 * something else.  Binding a tile's name again (a = wp.tile_zeros(...))
 * makes its views stand alone (in Warp they keep the old storage) and
 * refused; and where copies were already emitted for them inside a loop
 * deeper than the view's binding, which would run again after the new
 * binding, the binding is an error. */
/* The named tile a view is of, remembered (X->tile_view_src, 1 + its
 * index) until the view is bound to a name (check_tile_assign marks
 * both); a view of an unnamed view keeps the first one's source, a view of
 * any other unnamed tile has none.  A view used where it is made and
 * never named cannot be seen to differ. */
static void view_source(Ctx *X, Node *tn, IrVar *t) {
  t->tile_shared = true; /* Note [tile storage] */
  if (tn->kind == N_NAME) {
    Local *l = check_find_local(X, tn->name);
    X->tile_view_src = l && l->ty->kind == TY_ARRAY && l->ty->tile
                           ? (int)(l - X->locals) + 1 : 0;
  } else if (t != X->tile_view_result) {
    X->tile_view_src = 0;
  }
}

/* An in-place destination: a tile variable (a name), not a view or other
 * expression, whose writes would go to a copy. */
static void inplace_dest(Ctx *X, Node *n, const char *fn, const char *what) {
  if (n->kind != N_NAME)
    ERR(n->pos, "%s(): %s is written in place, so it must be a tile "
                "variable (kern copies views and other tile expressions)",
        fn, what);
  check_tile_mutate(X, n, n->pos);
}

static IrExpr *view_result(Ctx *X, IrVar *t) {
  X->tile_view_result = t;
  t->tile_shared = true; /* Note [tile storage] */
  return ir_ref(X->C, t);
}

/* A new map for a view made from t (the identity so far), to be filled
 * by the view builtin: the one check_tile_assign takes. */
static TileMap *view_map(Ctx *X, IrVar *t) {
  TileMap *m = arena_alloc(X->C, sizeof *m);
  memset(m, 0, sizeof *m);
  m->src = t;
  m->parent = -1;
  for (int k = 0; k < 4; k++) {
    m->axis[k] = k;
    m->step[k] = 1;
    m->off[k] = ir_const_int(X->C, t_i32(), 0);
  }
  X->tile_view_map = m;
  return m;
}

static IrExpr *off_ref(Ctx *X, IrExpr *o) {
  if (o->kind == E_VAR)
    return ir_ref(X->C, o->var);
  return ir_const_int(X->C, t_i32(), o->ival);
}

/* View v (a local with a map) copied from its parent (down) or into it. */
static void map_copy(Ctx *X, int v, bool down, Pos pos) {
  Compiler *C = X->C;
  TileMap *m = X->locals[v].tile_map;
  IrVar *vv = X->locals[v].var, *pv = X->locals[m->parent].var;
  m->synced = true;
  TLoop L;
  if (m->flat) {
    int dims[1] = {tile_count(vv->ty)};
    loop_open(X, &L, dims, 1, pos);
    IrVar *f = temp_of(X, "f", ir_ref(C, L.ctr[0]), pos);
    IrExpr **vi = flat_idx(X, vv->ty, f), **pi = flat_idx(X, pv->ty, f);
    if (down)
      check_emit(X, store_at(X, vv, vi, vv->ty->ndim,
                             load_at(X, pv, pi, pv->ty->ndim, pos), pos));
    else
      check_emit(X, store_at(X, pv, pi, pv->ty->ndim,
                             load_at(X, vv, vi, vv->ty->ndim, pos), pos));
    loop_close(X, &L);
    return;
  }
  loop_open(X, &L, vv->ty->fdims, vv->ty->ndim, pos);
  IrExpr **pi = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int k = 0; k < pv->ty->ndim; k++) {
    pi[k] = off_ref(X, m->off[k]);
    if (m->axis[k] >= 0) {
      IrExpr *c = ir_ref(C, L.ctr[m->axis[k]]);
      if (m->step[k] != 1)
        c = ir_binary(C, OP_MUL, t_i32(), c,
                      ir_const_int(C, t_i32(), (uint64_t)(int64_t)m->step[k]));
      pi[k] = ir_binary(C, OP_ADD, t_i32(), c, pi[k]);
    }
  }
  if (down)
    set_elem(X, vv, &L, load_at(X, pv, pi, pv->ty->ndim, pos), pos);
  else
    check_emit(X, store_at(X, pv, pi, pv->ty->ndim, elem(X, vv, &L, pos),
                           pos));
  loop_close(X, &L);
}

/* Every view of local p bound here, but except, re-derived from p, and
 * their views from them. */
static void sync_down(Ctx *X, int p, int except, Pos pos) {
  for (int v = p + 1; v < X->nlocals; v++) {
    TileMap *m = X->locals[v].tile_map;
    if (!m || m->parent != p || v == except || !X->defined[v])
      continue;
    map_copy(X, v, true, pos);
    sync_down(X, v, -1, pos);
  }
}

/* After the statement: each tile it wrote in place made coherent with
 * its views and the tiles it is a view of (Note [tile views in place]). */
void check_tile_sync(Ctx *X) {
  int n = X->ntile_written;
  X->ntile_written = 0;
  for (int i = 0; i < n; i++) {
    int w = X->tile_written[i];
    Pos pos = X->locals[w].pos;
    sync_down(X, w, -1, pos);
    for (int v = w; X->locals[v].tile_map; v = X->locals[v].tile_map->parent) {
      map_copy(X, v, false, pos);
      sync_down(X, X->locals[v].tile_map->parent, v, pos);
    }
  }
}

/* Local i loses its map (it or its parent is bound again). */
static void map_drop(Ctx *X, int i, Pos pos) {
  Local *l = &X->locals[i];
  TileMap *m = l->tile_map;
  if (m->synced && X->loop_depth > m->depth)
    ERR(pos, "'%s' is bound again inside a loop where its view '%s' is kept "
             "in step with it (Note [tile views in place]): kern copies "
             "views, so this is not supported yet (issue #24)",
        X->locals[m->parent].name, l->name);
  X->locals[m->parent].tile_aliased = true;
  l->tile_aliased = true;
  l->tile_map = NULL;
}

/* Local i bound again (not written in place): it and its views lose
 * their maps. */
static void rebind(Ctx *X, int i, Pos pos) {
  for (int v = i + 1; v < X->nlocals; v++)
    if (X->locals[v].tile_map && X->locals[v].tile_map->parent == i)
      map_drop(X, v, pos);
  if (X->locals[i].tile_map)
    map_drop(X, i, pos);
}

static bool written_here(Ctx *X, int i) {
  for (int k = 0; k < X->ntile_written; k++)
    if (X->tile_written[k] == i)
      return true;
  return false;
}

/* A write in place into the tile named by target (t[i] = x, t += u,
 * tile_assign(t, ...), tile_matmul(a, b, t)). */
void check_tile_mutate(Ctx *X, Node *target, Pos pos) {
  (void)pos;
  while (target->kind == N_SUBSCRIPT)
    target = target->a;
  if (target->kind != N_NAME)
    return;
  Local *l = check_find_local(X, target->name);
  if (!l || l->ty->kind != TY_ARRAY || !l->ty->tile)
    return;
  if (l->is_param)
    for (int i = 0; i < X->f->nparams; i++) /* Note [tile parameters] */
      if (!strcmp(X->f->params[i].name, target->name))
        X->f->params[i].tile_written = true;
  if (l->tile_aliased)
    ERR(target->pos, "'%s' is a tile view or has views (wp.tile_view, "
             "tile_transpose, tile_broadcast, tile_reshape, tile_squeeze) "
             "that kern cannot keep in step (Note [tile views in place]): "
             "kern copies views, so writing such a tile in place is not "
             "supported yet (issue #24)", target->name);
  if (l->tile_map && l->tile_map->many)
    ERR(target->pos, "'%s' is a broadcast view (wp.tile_broadcast): several "
             "of its elements are one element of its tile, so writing it in "
             "place is not supported", target->name);
  if (X->ntile_written == 8)
    ERR(target->pos, "too many tiles written in place in one statement");
  X->tile_written[X->ntile_written++] = (int)(l - X->locals);
}

/* The element of t at the loops' flat position f (row-major), stored at
 * the same flat position of r: reshape and squeeze. */
static IrExpr *copy_flat(Ctx *X, IrVar *t, const Type *rt, Pos pos) {
  Compiler *C = X->C;
  IrVar *r = tile_new(X, rt, pos);
  int n = tile_count(rt);
  int dims[1] = {n};
  TLoop L;
  loop_open(X, &L, dims, 1, pos);
  IrVar *f = temp_of(X, "f", ir_ref(C, L.ctr[0]), pos);
  check_emit(X, store_at(X, r, flat_idx(X, rt, f), rt->ndim,
                         load_at(X, t, flat_idx(X, t->ty, f), t->ty->ndim,
                                 pos), pos));
  loop_close(X, &L);
  return view_result(X, r);
}

/* A tuple (or one) of integer constants, -1 allowed where minus1. */
static int const_tuple(Ctx *X, Node *s, int *v, const char *fn,
                       const char *what) {
  Node *items = s->kind == N_TUPLE ? s->args : s;
  int n = s->kind == N_TUPLE ? check_count_args(s->args) : 1;
  if (n < 1 || n > 4)
    ERR(s->pos, "%s(): %s has 1 to 4 entries, got %d", fn, what, n);
  Node *a = items;
  for (int k = 0; k < n; k++, a = a->next)
    v[k] = (int)const_int(X, a, fn, what);
  return n;
}

/* wp.tile_transpose(a): the 2-d tile a[j, i]. */
static IrExpr *tile_transpose(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"a", NULL};
  max_positional(X, call, 1, fn);
  Node *tn = arg_of(X, call, 0, "a", kw, fn);
  if (!tn)
    ERR(call->pos, "%s() needs a tile", fn);
  IrVar *t = tile_arg(X, tn, fn, "the argument");
  if (t->ty->ndim != 2)
    ERR(tn->pos, "%s(): a 2-d tile, got %s", fn, TN(t->ty));
  view_source(X, tn, t);
  TileMap *m = view_map(X, t);
  m->axis[0] = 1;
  m->axis[1] = 0;
  int dims[2] = {t->ty->fdims[1], t->ty->fdims[0]};
  IrVar *r = tile_new(X, tile_type(X, t->ty->elem, 2, dims, call->pos, fn),
                      call->pos);
  TLoop L;
  loop_open(X, &L, dims, 2, call->pos);
  IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 2);
  ix[0] = ir_ref(C, L.ctr[1]);
  ix[1] = ir_ref(C, L.ctr[0]);
  set_elem(X, r, &L, load_at(X, t, ix, 2, call->pos), call->pos);
  loop_close(X, &L);
  return view_result(X, r);
}

/* wp.tile_broadcast(a, shape): numpy.broadcast_to, aligned from the
 * right. */
static IrExpr *tile_broadcast(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"a", "shape", NULL};
  max_positional(X, call, 2, fn);
  Node *tn = arg_of(X, call, 0, "a", kw, fn);
  Node *sn = arg_of(X, call, 1, "shape", kw, fn);
  if (!tn || !sn)
    ERR(call->pos, "%s() needs a tile and a shape", fn);
  IrVar *t = tile_arg(X, tn, fn, "a");
  int dims[4];
  int nd = shape_of(X, sn, dims, fn), sd = t->ty->ndim;
  if (nd < sd)
    ERR(sn->pos, "%s(): shape has %d dimensions, fewer than %s", fn, nd,
        TN(t->ty));
  for (int k = 0; k < sd; k++) {
    int a = t->ty->fdims[sd - 1 - k], b = dims[nd - 1 - k];
    if (a != b && a != 1)
      ERR(sn->pos, "%s(): cannot broadcast %s to shape with %d in "
                   "dimension %d", fn, TN(t->ty), b, nd - 1 - k);
  }
  view_source(X, tn, t);
  TileMap *m = view_map(X, t);
  for (int k = 0; k < sd; k++) {
    bool fixed = t->ty->fdims[k] == 1 && dims[nd - sd + k] != 1;
    m->axis[k] = fixed ? -1 : nd - sd + k;
  }
  int n = 1;
  for (int k = 0; k < nd; k++)
    n *= dims[k];
  m->many = n > tile_count(t->ty);
  IrVar *r = tile_new(X, tile_type(X, t->ty->elem, nd, dims, call->pos, fn),
                      call->pos);
  TLoop L;
  loop_open(X, &L, dims, nd, call->pos);
  IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int k = 0; k < sd; k++) {
    int d = nd - sd + k;
    ix[k] = t->ty->fdims[k] == 1 && dims[d] != 1
                ? ir_const_int(C, t_i32(), 0)
                : ir_ref(C, L.ctr[d]);
  }
  set_elem(X, r, &L, load_at(X, t, ix, sd, call->pos), call->pos);
  loop_close(X, &L);
  return view_result(X, r);
}

/* wp.tile_reshape(t, shape): the elements in row-major order, one entry
 * of shape may be -1. */
static IrExpr *tile_reshape(Ctx *X, Node *call, const char *fn) {
  static const char *const kw[] = {"t", "shape", NULL};
  max_positional(X, call, 2, fn);
  Node *tn = arg_of(X, call, 0, "t", kw, fn);
  Node *sn = arg_of(X, call, 1, "shape", kw, fn);
  if (!tn || !sn)
    ERR(call->pos, "%s() needs a tile and a shape", fn);
  IrVar *t = tile_arg(X, tn, fn, "t");
  int dims[4];
  if (sn->kind != N_TUPLE)
    ERR(sn->pos, "%s(): shape must be a tuple of constants, such as (12,) "
                 "(as Warp)", fn);
  int nd = const_tuple(X, sn, dims, fn, "shape");
  int n = tile_count(t->ty), known = 1, free = -1;
  for (int k = 0; k < nd; k++) {
    if (dims[k] == -1 && free < 0)
      free = k;
    else if (dims[k] < 1)
      ERR(sn->pos, "%s(): dimension %d of shape must be positive (or one "
                   "-1), got %d", fn, k, dims[k]);
    else
      known *= dims[k];
  }
  if (free >= 0) {
    if (n % known)
      ERR(sn->pos, "%s(): %s does not divide into that shape", fn,
          TN(t->ty));
    dims[free] = n / known;
    known = n;
  }
  if (known != n)
    ERR(sn->pos, "%s(): %s has %d elements, the shape %d", fn, TN(t->ty), n,
        known);
  view_source(X, tn, t);
  view_map(X, t)->flat = true;
  return copy_flat(X, t, tile_type(X, t->ty->elem, nd, dims, call->pos, fn),
                   call->pos);
}

/* wp.tile_squeeze(t, axis=None): without the dimensions of extent one
 * (those named by axis). */
static IrExpr *tile_squeeze(Ctx *X, Node *call, const char *fn) {
  static const char *const kw[] = {"t", "axis", NULL};
  max_positional(X, call, 2, fn);
  Node *tn = arg_of(X, call, 0, "t", kw, fn);
  Node *an = arg_of(X, call, 1, "axis", kw, fn);
  if (!tn)
    ERR(call->pos, "%s() needs a tile", fn);
  IrVar *t = tile_arg(X, tn, fn, "t");
  int sd = t->ty->ndim;
  bool drop[4] = {false, false, false, false};
  if (an) {
    int ax[4];
    if (an->kind != N_TUPLE)
      ERR(an->pos, "%s(): axis must be a tuple of constants, such as (0,) "
                   "(as Warp)", fn);
    int na = const_tuple(X, an, ax, fn, "axis");
    for (int k = 0; k < na; k++) {
      int a = ax[k] < 0 ? ax[k] + sd : ax[k];
      if (a < 0 || a >= sd || t->ty->fdims[a] != 1)
        ERR(an->pos, "%s(): axis %d is not a dimension of extent one of %s",
            fn, ax[k], TN(t->ty));
      drop[a] = true;
    }
  } else {
    for (int k = 0; k < sd; k++)
      drop[k] = t->ty->fdims[k] == 1;
  }
  int dims[4], nd = 0;
  for (int k = 0; k < sd; k++)
    if (!drop[k])
      dims[nd++] = t->ty->fdims[k];
  if (nd == 0)
    ERR(call->pos, "%s(): every dimension of %s would go; kern has no tile "
                   "of no dimensions", fn, TN(t->ty));
  view_source(X, tn, t);
  view_map(X, t)->flat = true;
  return copy_flat(X, t, tile_type(X, t->ty->elem, nd, dims, call->pos, fn),
                   call->pos);
}

/* An integer entry of wp.tile_view's offset, for axis k of t: an int32,
 * not counted from the end (Warp's explicit offset is a coordinate), a
 * constant one checked against the axis. */
static IrExpr *view_offset(Ctx *X, Node *a, IrVar *t, int k, const char *fn) {
  IrExpr *e = check_expr(X, a);
  if (!ty_is_int(e->ty))
    ERR(a->pos, "%s(): an offset must be an integer, got %s", fn, TN(e->ty));
  if (e->ty->sc != KERN_SCALAR_INT32)
    e = ir_cast(X->C, t_i32(), e);
  if (e->kind == E_CONST) {
    int64_t v = (int32_t)(uint32_t)e->ival;
    if (v < 0 || v >= t->ty->fdims[k])
      ERR(a->pos, "%s(): offset %lld is outside dimension %d of %s", fn,
          (long long)v, k, TN(t->ty));
  }
  return e;
}

/* slice(start, stop, step): Warp's slice builtin, an entry of
 * wp.tile_view's offset. */
static bool is_slice_call(Node *a) {
  return a->kind == N_CALL && a->a->kind == N_NAME &&
         !strcmp(a->a->name, "slice");
}

static IrExpr *tile_view_slices(Ctx *X, Node *call, const char *fn, Node *tn,
                                IrVar *t, Node *on, Node *sn);

/* wp.tile_view(t, offset, shape=None): with shape, the part of t from
 * offset (integers, maybe not constant) of that extent; without, each
 * integer of offset selects and removes a leading dimension. */
static IrExpr *tile_view(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"t", "offset", "shape", NULL};
  max_positional(X, call, 3, fn);
  Node *tn = arg_of(X, call, 0, "t", kw, fn);
  Node *on = arg_of(X, call, 1, "offset", kw, fn);
  Node *sn = arg_of(X, call, 2, "shape", kw, fn);
  if (!tn || !on)
    ERR(call->pos, "%s() needs a tile and an offset", fn);
  IrVar *t = tile_arg(X, tn, fn, "t");
  int sd = t->ty->ndim;
  Node *items = on->kind == N_TUPLE ? on->args : on;
  int no = on->kind == N_TUPLE ? check_count_args(on->args) : 1;
  for (Node *a = items; a; a = a->next)
    if (is_slice_call(a))
      return tile_view_slices(X, call, fn, tn, t, on, sn);
  if (no > sd || (sn && no != sd))
    ERR(on->pos, "%s(): offset has %d entries for %s%s", fn, no, TN(t->ty),
        sn ? " (with shape, one per dimension)" : "");
  IrExpr *off[4];
  Node *a = items;
  for (int k = 0; k < no; k++, a = a->next) {
    if (a->kind == N_SLICE)
      ERR(a->pos, "%s(): slices in offset are not supported yet (issue #24)",
          fn);
    IrExpr *e = view_offset(X, a, t, k, fn);
    off[k] = e->kind == E_CONST ? e : ir_ref(C, temp_of(X, "off", e, a->pos));
  }
  for (int k = no; k < sd; k++)
    off[k] = ir_const_int(C, t_i32(), 0);
  int dims[4], nd = 0;
  if (sn) {
    nd = const_tuple(X, sn, dims, fn, "shape");
    if (nd != sd)
      ERR(sn->pos, "%s(): shape has %d entries for %s", fn, nd, TN(t->ty));
    for (int k = 0; k < nd; k++) {
      int64_t o = off[k]->kind == E_CONST ? (int32_t)(uint32_t)off[k]->ival
                                          : 0;
      if (dims[k] < 1 || o + dims[k] > t->ty->fdims[k])
        ERR(sn->pos, "%s(): the view's dimension %d (%d from offset %lld) "
                     "does not fit %s", fn, k, dims[k], (long long)o,
            TN(t->ty));
    }
  } else {
    for (int k = no; k < sd; k++)
      dims[nd++] = t->ty->fdims[k];
    if (nd == 0)
      ERR(on->pos, "%s(): the offset selects one element; kern has no tile "
                   "of no dimensions (use wp.tile_extract)", fn);
  }
  view_source(X, tn, t);
  TileMap *m = view_map(X, t);
  for (int k = 0; k < sd; k++) {
    m->axis[k] = sn ? k : k < no ? -1 : k - no;
    m->off[k] = off[k];
  }
  IrVar *r = tile_new(X, tile_type(X, t->ty->elem, nd, dims, call->pos, fn),
                      call->pos);
  TLoop L;
  loop_open(X, &L, dims, nd, call->pos);
  IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int k = 0; k < sd; k++) {
    int d = sn ? k : k - no; /* the view's axis of source axis k */
    IrExpr *o = off[k]->kind == E_VAR ? ir_ref(C, off[k]->var) : off[k];
    ix[k] = d < 0 ? o : ir_binary(C, OP_ADD, t_i32(), ir_ref(C, L.ctr[d]), o);
  }
  set_elem(X, r, &L, load_at(X, t, ix, sd, call->pos), call->pos);
  loop_close(X, &L);
  return view_result(X, r);
}

/* wp.tile_astype(t, dtype): each scalar element converted (C's rules, as
 * Warp). */
static IrExpr *tile_astype(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"t", "dtype", NULL};
  max_positional(X, call, 2, fn);
  Node *tn = arg_of(X, call, 0, "t", kw, fn);
  Node *dn = arg_of(X, call, 1, "dtype", kw, fn);
  if (!tn || !dn)
    ERR(call->pos, "%s() needs a tile and a dtype", fn);
  IrVar *t = tile_arg(X, tn, fn, "t");
  const Type *et = check_type_expr(X, dn, "dtype");
  if (et->kind != TY_SCALAR || t->ty->elem->kind != TY_SCALAR)
    ERR(call->pos, "%s(): scalar tiles and a scalar dtype, got %s and %s", fn,
        TN(t->ty), TN(et));
  IrVar *r = tile_new(X, tile_type(X, et, t->ty->ndim, t->ty->fdims,
                                   call->pos, fn), call->pos);
  TLoop L;
  loop_open(X, &L, t->ty->fdims, t->ty->ndim, call->pos);
  IrExpr *x = elem(X, t, &L, call->pos);
  set_elem(X, r, &L, ty_eq(et, t->ty->elem) ? x : ir_cast(C, et, x),
           call->pos);
  loop_close(X, &L);
  return ir_ref(C, r);
}

/* wp.tile_assign(dst, src, offset=None): src copied into dst at offset,
 * converted to dst's element type; dst is written in place. */
static IrExpr *tile_assign(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"dst", "src", "offset", NULL};
  max_positional(X, call, 3, fn);
  Node *dn = arg_of(X, call, 0, "dst", kw, fn);
  Node *sn = arg_of(X, call, 1, "src", kw, fn);
  Node *on = arg_of(X, call, 2, "offset", kw, fn);
  if (!dn || !sn)
    ERR(call->pos, "%s() needs dst and src tiles", fn);
  if (dn->kind != N_NAME)
    ERR(dn->pos, "%s(): dst must be a tile variable", fn);
  check_tile_mutate(X, dn, dn->pos);
  IrVar *d = tile_arg(X, dn, fn, "dst");
  IrVar *s = tile_arg(X, sn, fn, "src");
  int nd = d->ty->ndim;
  if (s->ty->ndim != nd)
    ERR(call->pos, "%s(): %s into %s (the same number of dimensions)", fn,
        TN(s->ty), TN(d->ty));
  const Type *de = d->ty->elem, *se = s->ty->elem;
  if (!ty_eq(de, se) && (de->kind != TY_SCALAR || se->kind != TY_SCALAR))
    ERR(call->pos, "%s(): %s into %s", fn, TN(s->ty), TN(d->ty));
  IrExpr *off[4];
  offsets_of(X, on, nd, off, fn);
  for (int k = 0; k < nd; k++) {
    int64_t o = off[k]->kind == E_CONST ? (int32_t)(uint32_t)off[k]->ival : 0;
    if (o < 0 || o + s->ty->fdims[k] > d->ty->fdims[k])
      ERR(call->pos, "%s(): %s does not fit %s at offset %lld in dimension "
                     "%d", fn, TN(s->ty), TN(d->ty), (long long)o, k);
  }
  /* overlapping regions assign like NumPy: src is read whole first */
  if (s == d) {
    IrVar *cp = tile_new(X, s->ty, call->pos);
    TLoop L0;
    loop_open(X, &L0, s->ty->fdims, nd, call->pos);
    set_elem(X, cp, &L0, elem(X, s, &L0, call->pos), call->pos);
    loop_close(X, &L0);
    s = cp;
  }
  TLoop L;
  loop_open(X, &L, s->ty->fdims, nd, call->pos);
  IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int k = 0; k < nd; k++) {
    IrExpr *o = off[k]->kind == E_VAR ? ir_ref(C, off[k]->var) : off[k];
    ix[k] = ir_binary(C, OP_ADD, t_i32(), ir_ref(C, L.ctr[k]), o);
  }
  IrExpr *x = elem(X, s, &L, call->pos);
  check_emit(X, store_at(X, d, ix, nd, ty_eq(de, se) ? x : ir_cast(C, de, x),
                         call->pos));
  loop_close(X, &L);
  return ir_expr(C, E_CONST, &ty_void);
}


/* ---------------------------------------------------------------- linear algebra */

/* Warp's CPU (and non-mathdx CUDA) algorithms, tile_cholesky.h and
 * tile_solve.h: the same operations in the same order. */

static IrExpr *ci(Ctx *X, int v) { return ir_const_int(X->C, t_i32(), (uint64_t)(int64_t)v); }

/* a(i, j) of a square tile, transposed when tr. */
static IrExpr *mat_at(Ctx *X, IrVar *a, IrExpr *i, IrExpr *j, bool tr,
                      Pos pos) {
  IrExpr **ix = arena_alloc(X->C, sizeof(IrExpr *) * 2);
  ix[0] = tr ? j : i;
  ix[1] = tr ? i : j;
  return load_at(X, a, ix, 2, pos);
}

/* v[i] of a 1-d tile, v[i, col] of a 2-d one. */
static IrExpr **vec_ix(Ctx *X, IrVar *v, IrExpr *i, IrVar *col) {
  IrExpr **ix = arena_alloc(X->C, sizeof(IrExpr *) * 2);
  ix[0] = i;
  if (v->ty->ndim == 2)
    ix[1] = ir_ref(X->C, col);
  return ix;
}

/* X[i] = diag != 0 ? s / diag : s */
static void solve_store(Ctx *X, IrVar *x, IrVar *i, IrVar *col, IrVar *s,
                        IrExpr *diag, Pos pos) {
  Compiler *C = X->C;
  const Type *et = x->ty->elem;
  IrVar *d = temp_of(X, "diag", diag, pos);
  IrExpr *e = ir_expr(C, E_SELECT, et);
  e->a = ir_binary(C, OP_NE, t_bool(), ir_ref(C, d), ir_const_float(C, et, 0));
  e->b = ir_binary(C, OP_DIV, et, ir_ref(C, s), ir_ref(C, d));
  e->c = ir_ref(C, s);
  check_emit(X, store_at(X, x, vec_ix(X, x, ir_ref(C, i), col), x->ty->ndim,
                         e, pos));
}

/* Forward substitution: x[i] = (y[i] - sum_{j<i} a(i,j) x[j]) / a(i,i);
 * x may be y. */
static void fwd_sub(Ctx *X, IrVar *a, bool tr, IrVar *x, IrVar *y, Pos pos) {
  Compiler *C = X->C;
  int n = a->ty->fdims[0];
  int m = x->ty->ndim == 2 ? x->ty->fdims[1] : 1;
  TLoop Lc, Li, Lj;
  IrVar *col = range_open(X, &Lc, ci(X, 0), ci(X, m), pos);
  IrVar *i = range_open(X, &Li, ci(X, 0), ci(X, n), pos);
  IrVar *s = temp_of(X, "s", load_at(X, y, vec_ix(X, y, ir_ref(C, i), col),
                                     y->ty->ndim, pos), pos);
  IrVar *j = range_open(X, &Lj, ci(X, 0), ir_ref(C, i), pos);
  assign(X, s, ir_binary(C, OP_SUB, x->ty->elem, ir_ref(C, s),
                         ir_binary(C, OP_MUL, x->ty->elem,
                                   mat_at(X, a, ir_ref(C, i), ir_ref(C, j), tr,
                                          pos),
                                   load_at(X, x, vec_ix(X, x, ir_ref(C, j),
                                                        col),
                                           x->ty->ndim, pos))), pos);
  loop_close(X, &Lj);
  solve_store(X, x, i, col, s, mat_at(X, a, ir_ref(C, i), ir_ref(C, i), tr, pos),
              pos);
  loop_close(X, &Li);
  loop_close(X, &Lc);
}

/* Back substitution in place: for i from n-1 down, x[i] = (x[i] -
 * sum_{j>i} a(i,j) x[j]) / a(i,i). */
static void back_sub(Ctx *X, IrVar *a, bool tr, IrVar *x, Pos pos) {
  Compiler *C = X->C;
  int n = a->ty->fdims[0];
  int m = x->ty->ndim == 2 ? x->ty->fdims[1] : 1;
  TLoop Lc, Lr, Lj;
  IrVar *col = range_open(X, &Lc, ci(X, 0), ci(X, m), pos);
  IrVar *r = range_open(X, &Lr, ci(X, 0), ci(X, n), pos);
  IrVar *i = temp_of(X, "i", ir_binary(C, OP_SUB, t_i32(), ci(X, n - 1),
                                       ir_ref(C, r)), pos);
  IrVar *s = temp_of(X, "s", load_at(X, x, vec_ix(X, x, ir_ref(C, i), col),
                                     x->ty->ndim, pos), pos);
  IrVar *j = range_open(X, &Lj, ir_binary(C, OP_ADD, t_i32(), ir_ref(C, i),
                                          ci(X, 1)), ci(X, n), pos);
  assign(X, s, ir_binary(C, OP_SUB, x->ty->elem, ir_ref(C, s),
                         ir_binary(C, OP_MUL, x->ty->elem,
                                   mat_at(X, a, ir_ref(C, i), ir_ref(C, j), tr,
                                          pos),
                                   load_at(X, x, vec_ix(X, x, ir_ref(C, j),
                                                        col),
                                           x->ty->ndim, pos))), pos);
  loop_close(X, &Lj);
  solve_store(X, x, i, col, s, mat_at(X, a, ir_ref(C, i), ir_ref(C, i), tr, pos),
              pos);
  loop_close(X, &Lr);
  loop_close(X, &Lc);
}

/* The Cholesky factor of a into out (which may be a): lower L, or upper U
 * (stored transposed) when upper; the other triangle zero. */
static void cholesky(Ctx *X, IrVar *a, IrVar *out, bool upper, Pos pos) {
  Compiler *C = X->C;
  const Type *et = a->ty->elem;
  int n = a->ty->fdims[0];
  TLoop Lj, Lk, Li, Lk2, Lz;
  IrVar *j = range_open(X, &Lj, ci(X, 0), ci(X, n), pos);
  IrVar *s = temp_of(X, "s", mat_at(X, a, ir_ref(C, j), ir_ref(C, j), false,
                                    pos), pos);
  IrVar *k = range_open(X, &Lk, ci(X, 0), ir_ref(C, j), pos);
  IrVar *r = temp_of(X, "r", mat_at(X, out, ir_ref(C, j), ir_ref(C, k), upper,
                                    pos), pos);
  assign(X, s, ir_binary(C, OP_SUB, et, ir_ref(C, s),
                         ir_binary(C, OP_MUL, et, ir_ref(C, r), ir_ref(C, r))),
         pos);
  loop_close(X, &Lk);
  assign(X, s, ir_call1(C, BI_SQRT, et, ir_ref(C, s)), pos);
  IrVar *inv = temp_of(X, "inv", ir_binary(C, OP_DIV, et,
                                           ir_const_float(C, et, 1.0),
                                           ir_ref(C, s)), pos);
  IrExpr **dj = arena_alloc(C, sizeof(IrExpr *) * 2);
  dj[0] = ir_ref(C, j);
  dj[1] = ir_ref(C, j);
  check_emit(X, store_at(X, out, dj, 2, ir_ref(C, s), pos));
  IrVar *i = range_open(X, &Li, ir_binary(C, OP_ADD, t_i32(), ir_ref(C, j),
                                          ci(X, 1)), ci(X, n), pos);
  IrVar *si = temp_of(X, "si", mat_at(X, a, ir_ref(C, i), ir_ref(C, j), upper,
                                      pos), pos);
  IrVar *k2 = range_open(X, &Lk2, ci(X, 0), ir_ref(C, j), pos);
  assign(X, si, ir_binary(C, OP_SUB, et, ir_ref(C, si),
                          ir_binary(C, OP_MUL, et,
                                    mat_at(X, out, ir_ref(C, i), ir_ref(C, k2),
                                           upper, pos),
                                    mat_at(X, out, ir_ref(C, j), ir_ref(C, k2),
                                           upper, pos))), pos);
  loop_close(X, &Lk2);
  IrExpr **ij = arena_alloc(C, sizeof(IrExpr *) * 2);
  ij[0] = upper ? ir_ref(C, j) : ir_ref(C, i);
  ij[1] = upper ? ir_ref(C, i) : ir_ref(C, j);
  check_emit(X, store_at(X, out, ij, 2,
                         ir_binary(C, OP_MUL, et, ir_ref(C, si), ir_ref(C, inv)),
                         pos));
  loop_close(X, &Li);
  IrVar *z = range_open(X, &Lz, ir_binary(C, OP_ADD, t_i32(), ir_ref(C, j),
                                          ci(X, 1)), ci(X, n), pos);
  IrExpr **jz = arena_alloc(C, sizeof(IrExpr *) * 2);
  jz[0] = upper ? ir_ref(C, z) : ir_ref(C, j);
  jz[1] = upper ? ir_ref(C, j) : ir_ref(C, z);
  check_emit(X, store_at(X, out, jz, 2, ir_const_float(C, et, 0), pos));
  loop_close(X, &Lz);
  loop_close(X, &Lj);
}

/* A square tile of float32 or float64. */
static IrVar *square_arg(Ctx *X, Node *n, const char *fn, const char *what) {
  IrVar *a = tile_arg(X, n, fn, what);
  const Type *et = a->ty->elem;
  if (a->ty->ndim != 2 || a->ty->fdims[0] != a->ty->fdims[1] ||
      et->kind != TY_SCALAR || !sc_is_float(et->sc) || sc_is_lowp(et->sc))
    ERR(n->pos, "%s(): %s must be a square 2-d tile of float32 or float64, "
                "got %s", fn, what, TN(a->ty));
  return a;
}

static bool fill_mode(Ctx *X, Node *n, const char *fn) {
  if (!n)
    return false;
  if (n->kind != N_STR || (strcmp(n->str, "lower") && strcmp(n->str, "upper")))
    ERR(n->pos, "%s(): fill_mode must be \"lower\" or \"upper\"", fn);
  return !strcmp(n->str, "upper");
}

/* wp.tile_cholesky(A, fill_mode="lower") and _inplace. */
static IrExpr *tile_cholesky(Ctx *X, Node *call, const char *fn,
                             bool inplace) {
  static const char *const kw[] = {"A", "fill_mode", NULL};
  max_positional(X, call, 2, fn);
  Node *an = arg_of(X, call, 0, "A", kw, fn);
  if (!an)
    ERR(call->pos, "%s() needs a tile", fn);
  if (inplace)
    inplace_dest(X, an, fn, "A");
  IrVar *a = square_arg(X, an, fn, "A");
  bool upper = fill_mode(X, arg_of(X, call, 1, "fill_mode", kw, fn), fn);
  IrVar *out = inplace ? a : tile_new(X, a->ty, call->pos);
  cholesky(X, a, out, upper, call->pos);
  return inplace ? ir_expr(X->C, E_CONST, &ty_void) : ir_ref(X->C, out);
}

/* The right-hand side: a tile of a's type, (n,) or (n, k). */
static IrVar *rhs_arg(Ctx *X, Node *n, IrVar *a, const char *fn,
                      const char *what) {
  IrVar *y = tile_arg(X, n, fn, what);
  if (!ty_eq(y->ty->elem, a->ty->elem) || y->ty->ndim > 2 ||
      y->ty->fdims[0] != a->ty->fdims[0])
    ERR(n->pos, "%s(): %s must be a tile of %s of shape (%d,) or (%d, k), "
                "got %s", fn, what, TN(a->ty->elem), a->ty->fdims[0],
        a->ty->fdims[0], TN(y->ty));
  return y;
}

/* which: 0 tile_lower_solve, 1 tile_upper_solve, 2 tile_cholesky_solve. */
static IrExpr *tile_solve(Ctx *X, Node *call, const char *fn, int which,
                          bool inplace) {
  static const char *const kw_l[] = {"L", "y", NULL};
  static const char *const kw_u[] = {"U", "z", NULL};
  static const char *const kw_c[] = {"L", "y", "fill_mode", NULL};
  const char *const *kw = which == 0 ? kw_l : which == 1 ? kw_u : kw_c;
  max_positional(X, call, which == 2 ? 3 : 2, fn);
  Node *an = arg_of(X, call, 0, kw[0], kw, fn);
  Node *yn = arg_of(X, call, 1, kw[1], kw, fn);
  if (!an || !yn)
    ERR(call->pos, "%s() needs a square tile and a right-hand side", fn);
  IrVar *a = square_arg(X, an, fn, kw[0]);
  if (inplace)
    inplace_dest(X, yn, fn, kw[1]);
  IrVar *y = rhs_arg(X, yn, a, fn, kw[1]);
  bool upper = which == 2 &&
               fill_mode(X, arg_of(X, call, 2, "fill_mode", kw, fn), fn);
  IrVar *x = y;
  if (!inplace) { /* x = y, then in place */
    x = tile_new(X, y->ty, call->pos);
    TLoop L;
    loop_open(X, &L, y->ty->fdims, y->ty->ndim, call->pos);
    set_elem(X, x, &L, elem(X, y, &L, call->pos), call->pos);
    loop_close(X, &L);
  }
  if (which == 0) {
    fwd_sub(X, a, false, x, x, call->pos);
  } else if (which == 1) {
    back_sub(X, a, false, x, call->pos);
  } else {
    fwd_sub(X, a, upper, x, x, call->pos);
    back_sub(X, a, !upper, x, call->pos);
  }
  return inplace ? ir_expr(X->C, E_CONST, &ty_void) : ir_ref(X->C, x);
}

/* wp.tile_diag_add(a, d): a with d added to its diagonal. */
static IrExpr *tile_diag_add(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"a", "d", NULL};
  max_positional(X, call, 2, fn);
  Node *an = arg_of(X, call, 0, "a", kw, fn);
  Node *dn = arg_of(X, call, 1, "d", kw, fn);
  if (!an || !dn)
    ERR(call->pos, "%s() needs a square tile and a 1-d tile", fn);
  IrVar *a = tile_arg(X, an, fn, "a");
  IrVar *d = tile_arg(X, dn, fn, "d");
  if (a->ty->ndim != 2 || a->ty->fdims[0] != a->ty->fdims[1])
    ERR(an->pos, "%s(): a must be a square 2-d tile, got %s", fn, TN(a->ty));
  if (d->ty->ndim != 1 || d->ty->fdims[0] != a->ty->fdims[0] ||
      !ty_eq(d->ty->elem, a->ty->elem))
    ERR(dn->pos, "%s(): d must be a tile of %s of shape (%d,), got %s", fn,
        TN(a->ty->elem), a->ty->fdims[0], TN(d->ty));
  IrVar *r = tile_new(X, a->ty, call->pos);
  TLoop L;
  loop_open(X, &L, a->ty->fdims, 2, call->pos);
  set_elem(X, r, &L, elem(X, a, &L, call->pos), call->pos);
  loop_close(X, &L);
  int n1[1] = {a->ty->fdims[0]};
  TLoop D;
  loop_open(X, &D, n1, 1, call->pos);
  IrExpr **ii = arena_alloc(C, sizeof(IrExpr *) * 2);
  ii[0] = ir_ref(C, D.ctr[0]);
  ii[1] = ir_ref(C, D.ctr[0]);
  IrExpr **ii2 = arena_alloc(C, sizeof(IrExpr *) * 2);
  ii2[0] = ir_ref(C, D.ctr[0]);
  ii2[1] = ir_ref(C, D.ctr[0]);
  IrExpr **i1 = arena_alloc(C, sizeof(IrExpr *));
  i1[0] = ir_ref(C, D.ctr[0]);
  check_emit(X, store_at(X, r, ii, 2,
                         check_binop(X, OP_ADD, load_at(X, r, ii2, 2, call->pos),
                                     load_at(X, d, i1, 1, call->pos), call->pos),
                         call->pos));
  loop_close(X, &D);
  return ir_ref(C, r);
}


/* ---------------------------------------------------------------- threads' values */

/* Note [threads' values]: wp.tile(x) and wp.tile_from_thread gather or
 * broadcast the values of the threads of a block.  Where a block is one
 * thread (the C target, as Warp's CPU: "the effective block width is 1")
 * the tile has one entry along the thread axis, at index BI_TILE_SOLO (0).
 * Where the target runs blocks of threads (CUDA, OpenCL) the module is
 * compiled for the launch's block size (kc_options.block, C->block) and
 * the tile has block_dim entries along that axis, which the threads
 * exchange through shared memory (Note [block exchange]); compiled for no
 * block size, the runtime refuses the module there (kc_result.no_gpu).
 * wp.untile reads the thread's own entry, t[lane], which every target
 * can do: each thread holds the whole tile. */
static const char *solo_name(int which) {
  return which == 1 ? "wp.tile_from_thread"
         : which == 2 ? "wp.tile_scatter_add"
         : which == 3 ? "wp.tile_scatter_masked" : "wp.tile";
}

static void solo_mark(Ctx *X, int which, Pos pos) {
  const char *what = solo_name(which);
  if (!X->C->solo_what) {
    X->C->solo_what = what;
    X->C->solo_pos = pos;
  }
}

static IrExpr *solo(Ctx *X, int which, Pos pos) {
  IrExpr *e = ir_call(X->C, BI_TILE_SOLO, t_i32(), 0, NULL);
  e->ival = (uint64_t)which;
  e->pos = pos;
  solo_mark(X, which, pos);
  return e;
}

/* Note [block exchange]: on CUDA and OpenCL the threads of a block
 * exchange values through one buffer in the block's shared (local)
 * memory, k_xbuf, C->xbuf bytes, which each kernel that needs it declares
 * (emit/common.c).  BI_XCHG_PUT waits at a barrier until every thread has
 * read the buffer's last contents, stores this thread's value at its lane,
 * and waits at a barrier again; BI_XCHG_GET then reads any thread's.  As
 * in Warp, every thread of the block must reach the exchange (tile code
 * is block-uniform: no early return, no branch on the thread's values
 * around it), and a launch's size is a multiple of block_dim
 * (wp.launch_tiled's is).  Several values exchanged at once take regions
 * one after the other, each 16-byte aligned.  Both the exchange and the
 * tile sizes depend on block_dim, so such a module is compiled per block
 * size (kc_result.block; Note [block_dim] in runtime/module.c). */
void check_exchange(Ctx *X, const char *what, Pos pos) {
  if (!X->C->solo_what) {
    X->C->solo_what = what;
    X->C->solo_pos = pos;
  }
  X->irf->uses_block = true;
  X->irf->uses_xchg = true;
  if (!X->irf->is_kernel && !X->C->xchg_in_func) {
    X->C->xchg_in_func = true;
    X->C->solo_what = what;
    X->C->solo_pos = pos;
  }
}

static bool exchanges(Ctx *X, int which, Pos pos) {
  if (X->C->block == 0) {
    solo_mark(X, which, pos);
    return false;
  }
  check_exchange(X, solo_name(which), pos);
  return true;
}

/* The type a value of type t is exchanged as: float16 (scalars, vectors,
 * matrices) as float32, exactly, since the emitters compute halves
 * through float and keep no half-typed calls; others as they are. */
static const Type *xchg_wide(Compiler *C, const Type *t) {
  if ((t->kind != TY_SCALAR && t->kind != TY_VEC && t->kind != TY_MAT) ||
      t->sc != KERN_SCALAR_FLOAT16)
    return t;
  kern_scalar f = KERN_SCALAR_FLOAT32;
  return t->kind == TY_SCALAR ? ty_scalar(f)
         : t->kind == TY_VEC ? ty_vec(C, f, t->rows)
                             : ty_mat(C, f, t->rows, t->cols);
}

/* This thread's v into the exchange buffer's region at byte off; returns
 * the end of the region (Note [block exchange]). */
int check_xchg_put(Ctx *X, IrExpr *v, int off, Pos pos) {
  Compiler *C = X->C;
  if (xchg_wide(C, v->ty) != v->ty)
    v = ir_cast(C, xchg_wide(C, v->ty), v);
  IrExpr **a = arena_alloc(C, sizeof(IrExpr *));
  a[0] = v;
  IrExpr *e = ir_call(C, BI_XCHG_PUT, &ty_void, 1, a);
  e->ival = (uint64_t)off;
  e->pos = pos;
  IrStmt *s = ir_stmt(C, S_EXPR, pos);
  s->a = e;
  check_emit(X, s);
  int end = (int)(((size_t)off + (size_t)C->block * ty_size(v->ty) + 15) &
                  ~(size_t)15);
  if (end > C->xbuf)
    C->xbuf = end;
  return end;
}

/* Thread k's value of type t in the region at byte off. */
IrExpr *check_xchg_get(Ctx *X, const Type *t, IrExpr *k, int off) {
  IrExpr **a = arena_alloc(X->C, sizeof(IrExpr *));
  a[0] = k;
  const Type *w = xchg_wide(X->C, t);
  IrExpr *e = ir_call(X->C, BI_XCHG_GET, w, 1, a);
  e->ival = (uint64_t)off;
  return w != t ? ir_cast(X->C, t, e) : e;
}

static IrExpr *comp(Ctx *X, IrExpr *v, int i, int j) {
  Compiler *C = X->C;
  IrExpr *e = ir_expr(C, E_COMP, ty_scalar(v->ty->sc));
  e->a = v->kind == E_VAR ? ir_ref(C, v->var) : v;
  e->b = ci(X, i);
  if (j >= 0)
    e->c = ci(X, j);
  return e;
}

/* wp.tile(x) where the block's threads exchange values: entry k along
 * the thread axis is thread k's x (Note [block exchange]). */
static IrExpr *tile_gather(Ctx *X, IrExpr *x, bool keep, Pos pos,
                           const char *fn) {
  Compiler *C = X->C;
  const Type *xt = x->ty;
  bool whole = keep || xt->kind == TY_SCALAR, mat = xt->kind == TY_MAT;
  int dims[3] = {whole ? C->block : xt->rows, mat ? xt->cols : C->block,
                 C->block};
  int nd = whole ? 1 : mat ? 3 : 2;
  IrVar *t = tile_new(X, tile_type(X, whole ? xt : ty_scalar(xt->sc), nd,
                                   dims, pos, fn), pos);
  check_xchg_put(X, x, 0, pos);
  TLoop L;
  loop_open(X, &L, &dims[nd - 1], 1, pos);
  IrVar *lane = L.ctr[0];
  IrVar *v = temp_of(X, "x", check_xchg_get(X, xt, ir_ref(C, lane), 0), pos);
  for (int i = 0; i < (whole ? 1 : xt->rows); i++)
    for (int j = 0; j < (mat ? xt->cols : 1); j++) {
      IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 3);
      ix[0] = whole ? ir_ref(C, lane) : ci(X, i);
      ix[1] = mat ? ci(X, j) : ir_ref(C, lane);
      ix[2] = ir_ref(C, lane);
      check_emit(X, store_at(X, t, ix, nd,
                             whole ? ir_ref(C, v)
                                   : comp(X, ir_ref(C, v), i, mat ? j : -1),
                             pos));
    }
  loop_close(X, &L);
  return ir_ref(C, t);
}

/* wp.tile(x, preserve_type=False). */
static IrExpr *tile_of(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"x", "preserve_type", NULL};
  max_positional(X, call, 2, fn);
  Node *xn = arg_of(X, call, 0, "x", kw, fn);
  if (!xn)
    ERR(call->pos, "%s() needs a value", fn);
  IrExpr *x = check_expr(X, xn);
  bool keep = bool_const(X, arg_of(X, call, 1, "preserve_type", kw, fn), false,
                         fn, "preserve_type");
  const Type *xt = x->ty;
  bool vm = xt->kind == TY_VEC || xt->kind == TY_MAT;
  if (!(xt->kind == TY_SCALAR || vm || (keep && ty_is_value(xt))))
    ERR(xn->pos, "%s(): the value must be a scalar, vector or matrix%s, got "
                 "%s", fn, keep ? "" : " (other types with preserve_type=True)",
        TN(xt));
  if (x->kind != E_VAR && x->kind != E_CONST)
    x = ir_ref(C, temp_of(X, "x", x, xn->pos));
  if (exchanges(X, 0, call->pos))
    return tile_gather(X, x, keep, call->pos, fn);
  if (keep || xt->kind == TY_SCALAR) {
    int one[1] = {1};
    IrVar *t = tile_new(X, tile_type(X, xt, 1, one, call->pos, fn), call->pos);
    IrExpr **ix = arena_alloc(C, sizeof(IrExpr *));
    ix[0] = solo(X, 0, call->pos);
    check_emit(X, store_at(X, t, ix, 1,
                           x->kind == E_VAR ? ir_ref(C, x->var) : x,
                           call->pos));
    return ir_ref(C, t);
  }
  bool mat = xt->kind == TY_MAT;
  int dims[3] = {xt->rows, mat ? xt->cols : 1, 1};
  if (!mat)
    dims[1] = 1;
  int nd = mat ? 3 : 2;
  IrVar *t = tile_new(X, tile_type(X, ty_scalar(xt->sc), nd, dims, call->pos,
                                   fn), call->pos);
  for (int i = 0; i < xt->rows; i++)
    for (int j = 0; j < (mat ? xt->cols : 1); j++) {
      IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 3);
      ix[0] = ci(X, i);
      ix[1] = mat ? ci(X, j) : solo(X, 0, call->pos);
      if (mat)
        ix[2] = solo(X, 0, call->pos);
      check_emit(X, store_at(X, t, ix, nd, comp(X, x, i, mat ? j : -1),
                             call->pos));
    }
  return ir_ref(C, t);
}

/* wp.untile(a): the thread's entry of a tile (block_dim,) (a scalar or the
 * tile's type), or of (M, block_dim) (a vector of length M). */
/* The vector of a thread's lane l of tile t of shape (M, block_dim), or
 * of row `row` of t of shape (R, M, block_dim) when row >= 0. */
static IrExpr *untile_row(Ctx *X, IrVar *t, int row, IrVar *l, Pos pos,
                          const char *fn) {
  Compiler *C = X->C;
  int nd = row < 0 ? 2 : 3;
  int m = t->ty->fdims[nd - 2];
  if (m < 2 || m > 16)
    ERR(pos, "%s(): %s gives a vector of length %d; kern's vectors have "
             "2 to 16 components here", fn, TN(t->ty), m);
  IrExpr *v = ir_expr(C, E_MAKE, ty_vec(C, t->ty->elem->sc, m));
  v->nargs = m;
  v->args = arena_alloc(C, sizeof(IrExpr *) * (size_t)m);
  for (int i = 0; i < m; i++) {
    IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 3);
    int k = 0;
    if (row >= 0)
      ix[k++] = ci(X, row);
    ix[k++] = ci(X, i);
    ix[k] = ir_ref(C, l);
    v->args[i] = load_at(X, t, ix, nd, pos);
  }
  return v;
}

static IrExpr *untile(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"a", NULL};
  max_positional(X, call, 1, fn);
  Node *an = arg_of(X, call, 0, "a", kw, fn);
  if (!an)
    ERR(call->pos, "%s() needs a tile", fn);
  IrVar *t = tile_arg(X, an, fn, "the argument");
  int nd = t->ty->ndim;
  const Type *et = t->ty->elem;
  if (nd > 3 || (nd >= 2 && et->kind != TY_SCALAR))
    ERR(an->pos, "%s(): a tile of shape (block_dim,), or of scalars of "
                 "shape (M, block_dim) or (M, N, block_dim), got %s", fn,
        TN(t->ty));
  int n = t->ty->fdims[nd - 1];
  /* lane < n ? lane : 0: a block wider than the tile reads entry 0 */
  IrVar *lane = temp_of(X, "lane", ir_call(C, BI_TILE_LANE, t_i32(), 0, NULL),
                        call->pos);
  IrExpr *sel = ir_expr(C, E_SELECT, t_i32());
  sel->a = ir_binary(C, OP_LT, t_bool(), ir_ref(C, lane), ci(X, n));
  sel->b = ir_ref(C, lane);
  sel->c = ci(X, 0);
  IrVar *l = temp_of(X, "lane", sel, call->pos);
  if (nd == 1) {
    IrExpr **ix = arena_alloc(C, sizeof(IrExpr *));
    ix[0] = ir_ref(C, l);
    return load_at(X, t, ix, 1, call->pos);
  }
  if (nd == 2)
    return untile_row(X, t, -1, l, an->pos, fn);
  /* (M, N, block_dim): an M x N matrix, as Warp 1.19 */
  int m = t->ty->fdims[0], cols = t->ty->fdims[1];
  if (m < 2 || m * cols > TY_MAX_COMPONENTS)
    ERR(an->pos, "%s(): %s gives a %d x %d matrix; kern's matrices have "
                 "2 rows or more and at most %d components", fn, TN(t->ty),
        m, cols, TY_MAX_COMPONENTS);
  IrExpr *v = ir_expr(C, E_MAKE, ty_mat(C, et->sc, m, cols));
  v->nargs = m;
  v->args = arena_alloc(C, sizeof(IrExpr *) * (size_t)m);
  for (int i = 0; i < m; i++)
    v->args[i] = untile_row(X, t, i, l, an->pos, fn);
  return v;
}

static const char *const kw_fromthread[] = {"shape", "value", "thread_idx",
                                            "storage", NULL};

/* wp.tile_from_thread(shape, value, thread_idx, storage=): a tile full of
 * the value of thread thread_idx of the block. */
static IrExpr *tile_from_thread(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  max_positional(X, call, 4, fn);
  int dims[4];
  int nd = shape_of(X, arg_of(X, call, 0, "shape", kw_fromthread, fn), dims,
                    fn);
  Node *vn = arg_of(X, call, 1, "value", kw_fromthread, fn);
  Node *in = arg_of(X, call, 2, "thread_idx", kw_fromthread, fn);
  if (!vn || !in)
    ERR(call->pos, "%s() needs a shape, a value and thread_idx", fn);
  bool shared = storage_arg(X, arg_of(X, call, 3, "storage", kw_fromthread, fn),
                            fn);
  IrExpr *v = check_expr(X, vn);
  if (!tile_elem_ok(v->ty))
    ERR(vn->pos, "%s(): the value must be a scalar, vector, matrix or "
                 "struct, got %s", fn, TN(v->ty));
  IrExpr *ti = check_expr(X, in);
  if (!ty_is_int(ti->ty))
    ERR(in->pos, "%s(): thread_idx must be an integer, got %s", fn,
        TN(ti->ty));
  IrVar *val = temp_of(X, "bcast", v, vn->pos);
  IrVar *t = tile_new(X, tile_type(X, v->ty, nd, dims, call->pos, fn),
                      call->pos);
  t->tile_shared = shared;
  bool xchg = exchanges(X, 1, call->pos);
  if (xchg) {
    /* thread thread_idx's value (Note [block exchange]) */
    IrVar *src = temp_of(X, "src", ti->ty->sc == KERN_SCALAR_INT32
                                       ? ti : ir_cast(C, t_i32(), ti),
                         in->pos);
    check_xchg_put(X, ir_ref(C, val), 0, call->pos);
    val = temp_of(X, "bcast", check_xchg_get(X, v->ty, ir_ref(C, src), 0),
                  call->pos);
  }
  TLoop L;
  loop_open(X, &L, dims, nd, call->pos);
  IrExpr **ix = loop_idx(X, &L);
  /* else the value of the block's only thread (BI_TILE_SOLO) */
  if (!xchg)
    ix[0] = ir_binary(C, OP_ADD, t_i32(), ix[0], solo(X, 1, call->pos));
  check_emit(X, store_at(X, t, ix, nd, ir_ref(C, val), call->pos));
  loop_close(X, &L);
  return ir_ref(C, t);
}


/* ---------------------------------------------------------------- arg, scan, sort, random */

/* One scalar tile argument (the only one). */
static IrVar *one_scalar_tile(Ctx *X, Node *call, const char *fn) {
  static const char *const kw[] = {"a", NULL};
  max_positional(X, call, 1, fn);
  Node *an = arg_of(X, call, 0, "a", kw, fn);
  if (!an)
    ERR(call->pos, "%s() needs a tile", fn);
  IrVar *t = tile_arg(X, an, fn, "the argument");
  if (t->ty->elem->kind != TY_SCALAR || ty_is_bool(t->ty->elem))
    ERR(an->pos, "%s(): the elements must be numeric scalars, got %s", fn,
        TN(t->ty));
  return t;
}

/* wp.tile_argmax / tile_argmin: the row-major index of the first largest
 * (smallest) element, a tile (1,) of int32: Warp's CPU takes a later
 * element only when it compares strictly greater (smaller). */
static IrExpr *tile_argext(Ctx *X, Node *call, const char *fn, bool mx) {
  Compiler *C = X->C;
  IrVar *t = one_scalar_tile(X, call, fn);
  const Type *et = t->ty->elem;
  IrExpr **i0 = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int d = 0; d < t->ty->ndim; d++)
    i0[d] = ci(X, 0);
  IrVar *best = temp_of(X, "best", load_at(X, t, i0, t->ty->ndim, call->pos),
                        call->pos);
  IrVar *bi = temp_of(X, "bi", ci(X, 0), call->pos);
  int n = tile_count(t->ty);
  TLoop L;
  IrVar *f = range_open(X, &L, ci(X, 1), ci(X, n), call->pos);
  IrVar *e = temp_of(X, "e", load_at(X, t, flat_idx(X, t->ty, f), t->ty->ndim,
                                     call->pos), call->pos);
  IrStmt *s = ir_stmt(C, S_IF, call->pos);
  s->a = ir_binary(C, mx ? OP_GT : OP_LT, t_bool(), ir_ref(C, e),
                   ir_ref(C, best));
  IrStmt **save = X->tail;
  X->tail = &s->body;
  assign(X, best, ir_ref(C, e), call->pos);
  assign(X, bi, ir_ref(C, f), call->pos);
  X->tail = save;
  check_emit(X, s);
  (void)et;
  loop_close(X, &L);
  int one[1] = {1};
  IrVar *r = tile_new(X, tile_type(X, t_i32(), 1, one, call->pos, fn),
                      call->pos);
  IrExpr **r0 = arena_alloc(C, sizeof(IrExpr *));
  r0[0] = ci(X, 0);
  check_emit(X, store_at(X, r, r0, 1, ir_ref(C, bi), call->pos));
  return ir_ref(C, r);
}

/* wp.tile_scan_inclusive / _exclusive / scan_max_inclusive /
 * scan_min_inclusive (which 0..3) over the row-major sequence. */
static IrExpr *tile_scan(Ctx *X, Node *call, const char *fn, int which) {
  Compiler *C = X->C;
  IrVar *t = one_scalar_tile(X, call, fn);
  const Type *et = t->ty->elem;
  IrVar *r = tile_new(X, t->ty, call->pos);
  IrExpr **i0 = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int d = 0; d < t->ty->ndim; d++)
    i0[d] = ci(X, 0);
  IrVar *acc = which == 1
                   ? temp_of(X, "acc", sc_is_float(et->sc)
                                           ? ir_const_float(C, et, 0)
                                           : ir_const_int(C, et, 0), call->pos)
                   : temp_of(X, "acc", load_at(X, t, i0, t->ty->ndim, call->pos),
                             call->pos);
  int n = tile_count(t->ty);
  TLoop L;
  IrVar *f = range_open(X, &L, ci(X, 0), ci(X, n), call->pos);
  IrExpr *e = load_at(X, t, flat_idx(X, t->ty, f), t->ty->ndim, call->pos);
  if (which == 1) {
    check_emit(X, store_at(X, r, flat_idx(X, t->ty, f), t->ty->ndim,
                           ir_ref(C, acc), call->pos));
    assign(X, acc, ir_binary(C, OP_ADD, et, ir_ref(C, acc), e), call->pos);
  } else {
    /* element 0 is the first element itself: acc starts there, and
     * combining it with itself is skipped by starting from f > 0 */
    IrExpr *v = which == 0 ? ir_binary(C, OP_ADD, et, ir_ref(C, acc), e)
                           : ir_call2(C, which == 2 ? BI_MAX : BI_MIN, et,
                                      ir_ref(C, acc), e);
    IrExpr *sel = ir_expr(C, E_SELECT, et);
    sel->a = ir_binary(C, OP_GT, t_bool(), ir_ref(C, f), ci(X, 0));
    sel->b = v;
    sel->c = ir_ref(C, acc);
    assign(X, acc, sel, call->pos);
    check_emit(X, store_at(X, r, flat_idx(X, t->ty, f), t->ty->ndim,
                           ir_ref(C, acc), call->pos));
  }
  loop_close(X, &L);
  return ir_ref(C, r);
}

/* wp.tile_sort(keys, values): both permuted in place into ascending order
 * of the keys (row-major sequence).  Warp leaves the order of equal keys
 * unspecified; kern's insertion sort keeps it. */
static IrExpr *tile_sort(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"keys", "values", NULL};
  max_positional(X, call, 2, fn);
  Node *kn = arg_of(X, call, 0, "keys", kw, fn);
  Node *vn = arg_of(X, call, 1, "values", kw, fn);
  if (!kn || !vn)
    ERR(call->pos, "%s() needs keys and values tiles", fn);
  inplace_dest(X, kn, fn, "keys");
  inplace_dest(X, vn, fn, "values");
  IrVar *k = tile_arg(X, kn, fn, "keys");
  IrVar *v = tile_arg(X, vn, fn, "values");
  const Type *kt = k->ty->elem;
  if (kt->kind != TY_SCALAR ||
      !(kt->sc == KERN_SCALAR_FLOAT32 || kt->sc == KERN_SCALAR_INT32 ||
        kt->sc == KERN_SCALAR_UINT32 || kt->sc == KERN_SCALAR_INT64 ||
        kt->sc == KERN_SCALAR_UINT64))
    ERR(kn->pos, "%s(): keys of float32, int32, uint32, int64 or uint64, got "
                 "%s", fn, TN(k->ty));
  if (tile_count(v->ty) != tile_count(k->ty) || v->ty->ndim != k->ty->ndim ||
      memcmp(v->ty->fdims, k->ty->fdims, sizeof(int) * 4))
    ERR(vn->pos, "%s(): values %s must have the shape of keys %s", fn,
        TN(v->ty), TN(k->ty));
  if (k == v)
    ERR(vn->pos, "%s(): keys and values are one tile", fn);
  int n = tile_count(k->ty);
  /* for i in 1..n: key = k[i]; j = i; while j > 0 and k[j-1] > key: shift */
  TLoop Li;
  IrVar *i = range_open(X, &Li, ci(X, 1), ci(X, n), call->pos);
  IrVar *key = temp_of(X, "key", load_at(X, k, flat_idx(X, k->ty, i),
                                         k->ty->ndim, call->pos), call->pos);
  IrVar *val = temp_of(X, "val", load_at(X, v, flat_idx(X, v->ty, i),
                                         v->ty->ndim, call->pos), call->pos);
  IrVar *j = temp_of(X, "j", ir_ref(C, i), call->pos);
  /* the inner walk as a counted loop with a break */
  TLoop Lw;
  range_open(X, &Lw, ci(X, 0), ir_ref(C, i), call->pos);
  IrVar *jm = temp_of(X, "jm", ir_binary(C, OP_SUB, t_i32(), ir_ref(C, j),
                                         ci(X, 1)), call->pos);
  IrStmt *brk = ir_stmt(C, S_IF, call->pos);
  brk->a = ir_expr(C, E_NOT, t_bool());
  brk->a->a = ir_binary(C, OP_GT, t_bool(),
                        load_at(X, k, flat_idx(X, k->ty, jm), k->ty->ndim,
                                call->pos),
                        ir_ref(C, key));
  brk->body = ir_stmt(C, S_BREAK, call->pos);
  check_emit(X, brk);
  check_emit(X, store_at(X, k, flat_idx(X, k->ty, j), k->ty->ndim,
                         load_at(X, k, flat_idx(X, k->ty, jm), k->ty->ndim,
                                 call->pos), call->pos));
  check_emit(X, store_at(X, v, flat_idx(X, v->ty, j), v->ty->ndim,
                         load_at(X, v, flat_idx(X, v->ty, jm), v->ty->ndim,
                                 call->pos), call->pos));
  assign(X, j, ir_ref(C, jm), call->pos);
  loop_close(X, &Lw);
  check_emit(X, store_at(X, k, flat_idx(X, k->ty, j), k->ty->ndim,
                         ir_ref(C, key), call->pos));
  check_emit(X, store_at(X, v, flat_idx(X, v->ty, j), v->ty->ndim,
                         ir_ref(C, val), call->pos));
  loop_close(X, &Li);
  return ir_expr(C, E_CONST, &ty_void);
}

/* t's element at flat index base + off (an int32 expression). */
static IrExpr **fft_ix(Ctx *X, IrVar *t, IrVar *base, IrExpr *off, Pos pos) {
  IrVar *f = temp_of(X, "f", ir_binary(X->C, OP_ADD, t_i32(),
                                       ir_ref(X->C, base), off), pos);
  return flat_idx(X, t->ty, f);
}

static IrExpr *make2(Ctx *X, const Type *et, IrExpr *re, IrExpr *im) {
  IrExpr *mk = ir_expr(X->C, E_MAKE, et);
  mk->nargs = 2;
  mk->args = arena_alloc(X->C, sizeof(IrExpr *) * 2);
  mk->args[0] = re;
  mk->args[1] = im;
  return mk;
}

/* In place, every row of n = 2^L: the bit-reversal permutation, then L
 * butterfly stages (unrolled, each with its constant span), as the
 * textbook iterative radix-2; no scratch, so a tile as large as kern's
 * per-kernel limit allows still transforms.  See Note [FFT twiddles]. */
static void fft_radix2(Ctx *X, IrVar *t, int n, int rows, bool inverse,
                       Pos pos) {
  Compiler *C = X->C;
  const Type *et = t->ty->elem;
  const Type *st = ty_scalar(et->sc);
  int L = 0;
  while ((1 << L) < n)
    L++;
  TLoop Lb, Li, Lr, Lq, Lm;
  IrVar *b = range_open(X, &Lb, ci(X, 0), ci(X, rows), pos);
  IrVar *base = temp_of(X, "base", ir_binary(C, OP_MUL, t_i32(), ir_ref(C, b),
                                             ci(X, n)), pos);
  if (L > 1) {
    IrVar *i = range_open(X, &Li, ci(X, 0), ci(X, n), pos);
    IrVar *v = temp_of(X, "v", ir_ref(C, i), pos);
    IrVar *r = temp_of(X, "r", ci(X, 0), pos);
    range_open(X, &Lr, ci(X, 0), ci(X, L), pos);
    /* r = 2 r + v % 2; v = v / 2 */
    IrVar *h = temp_of(X, "h", ir_binary(C, OP_DIV, t_i32(), ir_ref(C, v),
                                         ci(X, 2)), pos);
    assign(X, r, ir_binary(C, OP_ADD, t_i32(),
                           ir_binary(C, OP_MUL, t_i32(), ir_ref(C, r), ci(X, 2)),
                           ir_binary(C, OP_SUB, t_i32(), ir_ref(C, v),
                                     ir_binary(C, OP_MUL, t_i32(), ir_ref(C, h),
                                               ci(X, 2)))), pos);
    assign(X, v, ir_ref(C, h), pos);
    loop_close(X, &Lr);
    IrStmt *sw = ir_stmt(C, S_IF, pos);
    sw->a = ir_binary(C, OP_LT, t_bool(), ir_ref(C, i), ir_ref(C, r));
    IrStmt **save = X->tail;
    X->tail = &sw->body;
    IrVar *a = temp_of(X, "a", load_at(X, t, fft_ix(X, t, base, ir_ref(C, i),
                                                    pos), t->ty->ndim, pos),
                       pos);
    IrExpr **ri = fft_ix(X, t, base, ir_ref(C, r), pos);
    IrExpr **ri2 = fft_ix(X, t, base, ir_ref(C, r), pos);
    IrExpr **ii = fft_ix(X, t, base, ir_ref(C, i), pos);
    check_emit(X, store_at(X, t, ii, t->ty->ndim,
                           load_at(X, t, ri, t->ty->ndim, pos), pos));
    check_emit(X, store_at(X, t, ri2, t->ty->ndim, ir_ref(C, a), pos));
    X->tail = save;
    check_emit(X, sw);
    loop_close(X, &Li);
  }
  for (int sg = 0; sg < L; sg++) {
    int span = 2 << sg, half = span / 2;
    /* exact in float32 too: span is a power of two */
    double w = (inverse ? 2.0 : -2.0) * 3.14159265358979323846 / span;
    IrVar *wr = temp_of(X, "wr", ir_call1(C, BI_COS, st,
                                          ir_const_float(C, st, w)), pos);
    IrVar *wi = temp_of(X, "wi", ir_call1(C, BI_SIN, st,
                                          ir_const_float(C, st, w)), pos);
    IrVar *q = range_open(X, &Lq, ci(X, 0), ci(X, n / span), pos);
    IrVar *c = temp_of(X, "c", ir_const_float(C, st, 1.0), pos);
    IrVar *s = temp_of(X, "s", ir_const_float(C, st, 0.0), pos);
    IrVar *m = range_open(X, &Lm, ci(X, 0), ci(X, half), pos);
    IrVar *lo = temp_of(X, "lo", ir_binary(C, OP_ADD, t_i32(),
                                           ir_binary(C, OP_MUL, t_i32(),
                                                     ir_ref(C, q), ci(X, span)),
                                           ir_ref(C, m)), pos);
    IrVar *u = temp_of(X, "u", load_at(X, t, fft_ix(X, t, base, ir_ref(C, lo),
                                                    pos), t->ty->ndim, pos),
                       pos);
    IrVar *x = temp_of(X, "x", load_at(X, t, fft_ix(X, t, base,
                                                    ir_binary(C, OP_ADD, t_i32(),
                                                              ir_ref(C, lo),
                                                              ci(X, half)),
                                                    pos), t->ty->ndim, pos),
                       pos);
    /* v = x (c + i s) */
    IrVar *vr = temp_of(X, "vr", ir_binary(C, OP_SUB, st,
                                           ir_binary(C, OP_MUL, st,
                                                     comp(X, ir_ref(C, x), 0, -1),
                                                     ir_ref(C, c)),
                                           ir_binary(C, OP_MUL, st,
                                                     comp(X, ir_ref(C, x), 1, -1),
                                                     ir_ref(C, s))), pos);
    IrVar *vi = temp_of(X, "vi", ir_binary(C, OP_ADD, st,
                                           ir_binary(C, OP_MUL, st,
                                                     comp(X, ir_ref(C, x), 0, -1),
                                                     ir_ref(C, s)),
                                           ir_binary(C, OP_MUL, st,
                                                     comp(X, ir_ref(C, x), 1, -1),
                                                     ir_ref(C, c))), pos);
    check_emit(X, store_at(X, t, fft_ix(X, t, base, ir_ref(C, lo), pos),
                           t->ty->ndim,
                           make2(X, et,
                                 ir_binary(C, OP_ADD, st,
                                           comp(X, ir_ref(C, u), 0, -1),
                                           ir_ref(C, vr)),
                                 ir_binary(C, OP_ADD, st,
                                           comp(X, ir_ref(C, u), 1, -1),
                                           ir_ref(C, vi))), pos));
    check_emit(X, store_at(X, t, fft_ix(X, t, base,
                                        ir_binary(C, OP_ADD, t_i32(),
                                                  ir_ref(C, lo), ci(X, half)),
                                        pos),
                           t->ty->ndim,
                           make2(X, et,
                                 ir_binary(C, OP_SUB, st,
                                           comp(X, ir_ref(C, u), 0, -1),
                                           ir_ref(C, vr)),
                                 ir_binary(C, OP_SUB, st,
                                           comp(X, ir_ref(C, u), 1, -1),
                                           ir_ref(C, vi))), pos));
    /* (c + i s) *= (wr + i wi) */
    IrVar *nc = temp_of(X, "nc", ir_binary(C, OP_SUB, st,
                                           ir_binary(C, OP_MUL, st, ir_ref(C, c),
                                                     ir_ref(C, wr)),
                                           ir_binary(C, OP_MUL, st, ir_ref(C, s),
                                                     ir_ref(C, wi))), pos);
    assign(X, s, ir_binary(C, OP_ADD, st,
                           ir_binary(C, OP_MUL, st, ir_ref(C, c), ir_ref(C, wi)),
                           ir_binary(C, OP_MUL, st, ir_ref(C, s), ir_ref(C, wr))),
           pos);
    assign(X, c, ir_ref(C, nc), pos);
    loop_close(X, &Lm);
    loop_close(X, &Lq);
  }
  loop_close(X, &Lb);
}

/* wp.tile_fft(t) and wp.tile_ifft(t), in place: for every row of the
 * last axis (the leading axes are batches), X[k] = sum_j x[j]
 * exp(-+2 pi i k j / N), a vec2 holding (re, im); the inverse unscaled as
 * Warp's (ifft(fft(x)) = N x).  As Warp's CPU: a power-of-two N in place
 * by radix-2 (fft_radix2), any other N (at most 4096, Warp's limit) by the
 * direct sum, each row first into a scratch row.  One thread does all rows
 * (Note [tiles, first stage]).
 *
 * Note [FFT twiddles]: the twiddle factors are made as Warp's CPU makes
 * them, not as accurately as they could be: the radix-2 stages multiply
 * the twiddle by the stage's root of unity from butterfly to butterfly
 * (w *= wm), and the direct sum takes the angle as (+-2 pi / N) k j in the
 * element's precision, unreduced.  Computing each twiddle afresh (or the
 * angle modulo N) is closer to the exact transform but differs from Warp
 * by more than the conformance tolerances (float32 FFTs of 64 points by
 * about 5e-7 relative; float64 DFTs of 48 points by 1e-13 absolute at
 * elements near 0), and Warp's answer is the reference. */
/* The direct sum's angle step, +-2 pi / n, rounded to the element's
 * precision as Warp's CPU rounds it: 2 pi and n first, then the quotient
 * (Note [FFT twiddles]). */
static double dft_base(const Type *st, bool inverse, int n) {
  double two_pi = 6.28318530717958647692528676655900576839433879875021;
  if (st->sc == KERN_SCALAR_FLOAT32) {
    float b = (inverse ? 1.0f : -1.0f) * (float)two_pi;
    return (double)(b / (float)n);
  }
  return (inverse ? 1.0 : -1.0) * two_pi / n;
}

static IrExpr *tile_fft(Ctx *X, Node *call, const char *fn, bool inverse) {
  Compiler *C = X->C;
  static const char *const kw[] = {"inout", NULL};
  max_positional(X, call, 1, fn);
  Node *tn = arg_of(X, call, 0, "inout", kw, fn);
  if (!tn)
    ERR(call->pos, "%s() needs a tile argument", fn);
  IrVar *t = tile_arg(X, tn, fn, "inout");
  const Type *et = t->ty->elem;
  if (et->kind != TY_VEC || et->rows != 2 || et->quat || et->xform ||
      !(et->sc == KERN_SCALAR_FLOAT32 || et->sc == KERN_SCALAR_FLOAT64))
    ERR(tn->pos, "%s(): the tile must be of vec2f or vec2d (complex "
                 "numbers), got %s", fn, TN(t->ty));
  if (t->ty->ndim < 2)
    ERR(tn->pos, "%s(): the tile must have at least 2 dimensions (the FFT "
                 "runs along the last), got %s", fn, TN(t->ty));
  inplace_dest(X, tn, fn, "inout");
  int n = t->ty->fdims[t->ty->ndim - 1];
  if ((n & (n - 1)) != 0 && n > 4096)
    ERR(tn->pos, "%s(): a transform of %d elements, not a power of two, "
                 "is too long: Warp allows at most 4096 then", fn, n);
  int rows = tile_count(t->ty) / n;
  const Type *st = ty_scalar(et->sc);
  Pos pos = call->pos;
  if ((n & (n - 1)) == 0) {
    fft_radix2(X, t, n, rows, inverse, pos);
    return ir_expr(C, E_CONST, &ty_void);
  }
  IrVar *row = tile_new(X, tile_type(X, et, 1, &n, pos, fn), pos);
  double w = dft_base(st, inverse, n);
  TLoop Lb, Lk, Lj, Lc;
  IrVar *b = range_open(X, &Lb, ci(X, 0), ci(X, rows), pos);
  IrVar *base = temp_of(X, "base", ir_binary(C, OP_MUL, t_i32(), ir_ref(C, b),
                                             ci(X, n)), pos);
  IrVar *k = range_open(X, &Lk, ci(X, 0), ci(X, n), pos);
  IrVar *sr = temp_of(X, "sr", ir_const_float(C, st, 0), pos);
  IrVar *si = temp_of(X, "si", ir_const_float(C, st, 0), pos);
  IrVar *j = range_open(X, &Lj, ci(X, 0), ci(X, n), pos);
  /* (w k) j, unreduced (Note [FFT twiddles]) */
  IrVar *ang = temp_of(X, "ang", ir_binary(C, OP_MUL, st,
                                           ir_binary(C, OP_MUL, st,
                                                     ir_const_float(C, st, w),
                                                     ir_cast(C, st, ir_ref(C, k))),
                                           ir_cast(C, st, ir_ref(C, j))), pos);
  IrVar *c = temp_of(X, "c", ir_call1(C, BI_COS, st, ir_ref(C, ang)), pos);
  IrVar *s = temp_of(X, "s", ir_call1(C, BI_SIN, st, ir_ref(C, ang)), pos);
  IrVar *f = temp_of(X, "f", ir_binary(C, OP_ADD, t_i32(), ir_ref(C, base),
                                       ir_ref(C, j)), pos);
  IrVar *x = temp_of(X, "x", load_at(X, t, flat_idx(X, t->ty, f), t->ty->ndim,
                                     pos), pos);
  IrVar *xr = temp_of(X, "xr", comp(X, ir_ref(C, x), 0, -1), pos);
  IrVar *xi = temp_of(X, "xi", comp(X, ir_ref(C, x), 1, -1), pos);
  /* (xr + i xi)(c + i s) */
  assign(X, sr, ir_binary(C, OP_ADD, st, ir_ref(C, sr),
                          ir_binary(C, OP_SUB, st,
                                    ir_binary(C, OP_MUL, st, ir_ref(C, xr),
                                              ir_ref(C, c)),
                                    ir_binary(C, OP_MUL, st, ir_ref(C, xi),
                                              ir_ref(C, s)))), pos);
  assign(X, si, ir_binary(C, OP_ADD, st, ir_ref(C, si),
                          ir_binary(C, OP_ADD, st,
                                    ir_binary(C, OP_MUL, st, ir_ref(C, xr),
                                              ir_ref(C, s)),
                                    ir_binary(C, OP_MUL, st, ir_ref(C, xi),
                                              ir_ref(C, c)))), pos);
  loop_close(X, &Lj);
  IrExpr *mk = ir_expr(C, E_MAKE, et);
  mk->nargs = 2;
  mk->args = arena_alloc(C, sizeof(IrExpr *) * 2);
  mk->args[0] = ir_ref(C, sr);
  mk->args[1] = ir_ref(C, si);
  IrExpr **rk = arena_alloc(C, sizeof(IrExpr *) * 1);
  rk[0] = ir_ref(C, k);
  check_emit(X, store_at(X, row, rk, 1, mk, pos));
  loop_close(X, &Lk);
  IrVar *cc = range_open(X, &Lc, ci(X, 0), ci(X, n), pos);
  IrVar *g = temp_of(X, "g", ir_binary(C, OP_ADD, t_i32(), ir_ref(C, base),
                                       ir_ref(C, cc)), pos);
  IrExpr **rc = arena_alloc(C, sizeof(IrExpr *) * 1);
  rc[0] = ir_ref(C, cc);
  check_emit(X, store_at(X, t, flat_idx(X, t->ty, g), t->ty->ndim,
                         load_at(X, row, rc, 1, pos), pos));
  loop_close(X, &Lc);
  loop_close(X, &Lb);
  return ir_expr(C, E_CONST, &ty_void);
}

static const char *const kw_rand[] = {"shape", "rng", "min", "max",
                                      "storage", NULL};

/* wp.tile_randf(shape, rng[, min, max]) and tile_randi: as Warp's
 * register layout, element e belongs to thread e % block_dim of the block
 * and is that thread's (e / block_dim)-th draw from
 * rand_init(thread + rng); where a block is one thread (the CPU) the draws
 * go in row-major order from rand_init(rng).  rng is left unchanged. */
static IrExpr *tile_rand(Ctx *X, Node *call, const char *fn, bool isf) {
  Compiler *C = X->C;
  max_positional(X, call, 5, fn);
  int dims[4];
  int nd = shape_of(X, arg_of(X, call, 0, "shape", kw_rand, fn), dims, fn);
  Node *rn = arg_of(X, call, 1, "rng", kw_rand, fn);
  Node *lo = arg_of(X, call, 2, "min", kw_rand, fn);
  Node *hi = arg_of(X, call, 3, "max", kw_rand, fn);
  bool shared = storage_arg(X, arg_of(X, call, 4, "storage", kw_rand, fn), fn);
  if (!rn)
    ERR(call->pos, "%s() needs rng", fn);
  if (!lo != !hi)
    ERR(call->pos, "%s() takes both min and max, or neither", fn);
  IrExpr *rng = check_expr(X, rn);
  if (!ty_is_int(rng->ty))
    ERR(rn->pos, "%s(): rng must be a uint32 state, got %s", fn, TN(rng->ty));
  const Type *rt = isf ? t_f32() : t_i32();
  IrExpr *range[2] = {NULL, NULL};
  if (lo) {
    Node *b[2] = {lo, hi};
    for (int k = 0; k < 2; k++) {
      range[k] = check_is_literal(b[k]) ? check_literal_as(X, b[k], rt)
                                        : check_expr(X, b[k]);
      if (!ty_eq(range[k]->ty, rt))
        ERR(b[k]->pos, "%s(): %s is %s, the range is %s", fn,
            k ? "max" : "min", TN(range[k]->ty), TN(rt));
      if (range[k]->kind != E_CONST)
        range[k] = ir_ref(C, temp_of(X, k ? "hi" : "lo", range[k], b[k]->pos));
    }
  }
  IrVar *seed = temp_of(X, "rng", ir_cast(C, ty_scalar(KERN_SCALAR_UINT32),
                                          rng), rn->pos);
  IrVar *bd = temp_of(X, "bd", ir_call(C, BI_BLOCK_DIM, t_i32(), 0, NULL),
                      call->pos);
  IrVar *t = tile_new(X, tile_type(X, rt, nd, dims, call->pos, fn), call->pos);
  t->tile_shared = shared;
  int n = tile_count(t->ty);
  TLoop L;
  IrVar *f = range_open(X, &L, ci(X, 0), ci(X, n), call->pos);
  /* rand_init(int(thread + rng)) */
  IrExpr *lane = ir_binary(C, OP_SUB, t_i32(), ir_ref(C, f),
                           ir_binary(C, OP_MUL, t_i32(),
                                     ir_binary(C, OP_DIV, t_i32(), ir_ref(C, f),
                                               ir_ref(C, bd)),
                                     ir_ref(C, bd)));
  IrExpr *sd = ir_binary(C, OP_ADD, ty_scalar(KERN_SCALAR_UINT32),
                         ir_cast(C, ty_scalar(KERN_SCALAR_UINT32), lane),
                         ir_ref(C, seed));
  IrExpr *ia[1] = {ir_cast(C, t_i32(), sd)};
  IrVar *st = temp_of(X, "state",
                      ir_call(C, BI_RAND_INIT, ty_scalar(KERN_SCALAR_UINT32), 1,
                              ia), call->pos);
  /* the draws before this one: e / block_dim */
  TLoop Ls;
  range_open(X, &Ls, ci(X, 0),
             ir_binary(C, OP_DIV, t_i32(), ir_ref(C, f), ir_ref(C, bd)),
             call->pos);
  IrExpr *a1[1] = {ir_ref(C, st)};
  IrStmt *es = ir_stmt(C, S_EXPR, call->pos);
  es->a = ir_call(C, isf ? BI_RANDF : BI_RANDI, rt, 1, a1);
  check_emit(X, es);
  loop_close(X, &Ls);
  IrExpr *a3[3] = {ir_ref(C, st), NULL, NULL};
  int na = 1;
  if (lo) {
    a3[1] = range[0]->kind == E_VAR ? ir_ref(C, range[0]->var) : range[0];
    a3[2] = range[1]->kind == E_VAR ? ir_ref(C, range[1]->var) : range[1];
    na = 3;
  }
  check_emit(X, store_at(X, t, flat_idx(X, t->ty, f), nd,
                         ir_call(C, isf ? BI_RANDF : BI_RANDI, rt, na, a3),
                         call->pos));
  loop_close(X, &L);
  return ir_ref(C, t);
}

/* wp.tile_dot(a, b): the sum over the elements of a[i] * b[i] (scalars),
 * wp.dot (vectors) or wp.ddot (matrices), a tile (1,) of the scalar
 * type, in row-major order. */
static IrExpr *tile_dot(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"a", "b", NULL};
  max_positional(X, call, 2, fn);
  Node *an = arg_of(X, call, 0, "a", kw, fn);
  Node *bn = arg_of(X, call, 1, "b", kw, fn);
  if (!an || !bn)
    ERR(call->pos, "%s() needs two tiles", fn);
  IrVar *a = tile_arg(X, an, fn, "a");
  IrVar *b = tile_arg(X, bn, fn, "b");
  if (!ty_eq(a->ty, b->ty))
    ERR(call->pos, "%s(): the tiles must have the same shape and type, got "
                   "%s and %s", fn, TN(a->ty), TN(b->ty));
  const Type *et = a->ty->elem;
  if (!(et->kind == TY_SCALAR || et->kind == TY_VEC || et->kind == TY_MAT) ||
      ty_is_bool(et))
    ERR(an->pos, "%s(): tiles of scalars, vectors or matrices, got %s", fn,
        TN(a->ty));
  const Type *st = ty_scalar(et->sc);
  IrVar *acc = temp_of(X, "acc", sc_is_float(st->sc) ? ir_const_float(C, st, 0)
                                                     : ir_const_int(C, st, 0),
                       call->pos);
  TLoop L;
  loop_open(X, &L, a->ty->fdims, a->ty->ndim, call->pos);
  IrExpr *x = elem(X, a, &L, call->pos), *y = elem(X, b, &L, call->pos);
  IrExpr *p = et->kind == TY_SCALAR
                  ? ir_binary(C, OP_MUL, st, x, y)
                  : ir_call2(C, et->kind == TY_VEC ? BI_DOT : BI_DDOT, st, x, y);
  assign(X, acc, ir_binary(C, OP_ADD, st, ir_ref(C, acc), p), call->pos);
  loop_close(X, &L);
  int one[1] = {1};
  IrVar *r = tile_new(X, tile_type(X, st, 1, one, call->pos, fn), call->pos);
  IrExpr **r0 = arena_alloc(C, sizeof(IrExpr *));
  r0[0] = ci(X, 0);
  check_emit(X, store_at(X, r, r0, 1, ir_ref(C, acc), call->pos));
  return ir_ref(C, r);
}

/* wp.tile_axpy(alpha, src, dest): dest += alpha * src in place. */
static IrExpr *tile_axpy(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"alpha", "src", "dest", NULL};
  max_positional(X, call, 3, fn);
  Node *aln = arg_of(X, call, 0, "alpha", kw, fn);
  Node *sn = arg_of(X, call, 1, "src", kw, fn);
  Node *dn = arg_of(X, call, 2, "dest", kw, fn);
  if (!aln || !sn || !dn)
    ERR(call->pos, "%s() needs alpha, src and dest", fn);
  inplace_dest(X, dn, fn, "dest");
  IrVar *src = tile_arg(X, sn, fn, "src");
  IrVar *dst = tile_arg(X, dn, fn, "dest");
  if (!ty_eq(src->ty, dst->ty))
    ERR(call->pos, "%s(): src and dest must have the same shape and type, "
                   "got %s and %s", fn, TN(src->ty), TN(dst->ty));
  const Type *st = ty_scalar(dst->ty->elem->sc);
  IrExpr *al = check_is_literal(aln) ? check_literal_as(X, aln, st)
                                     : check_expr(X, aln);
  if (!ty_eq(al->ty, st))
    ERR(aln->pos, "%s(): alpha is %s, the tiles' scalar type is %s", fn,
        TN(al->ty), TN(st));
  if (al->kind != E_CONST)
    al = ir_ref(C, temp_of(X, "alpha", al, aln->pos));
  TLoop L;
  loop_open(X, &L, dst->ty->fdims, dst->ty->ndim, call->pos);
  IrExpr *alv = al->kind == E_VAR ? ir_ref(C, al->var) : al;
  IrExpr *v = check_binop(X, OP_ADD, elem(X, dst, &L, call->pos),
                          check_binop(X, OP_MUL, alv,
                                      elem(X, src, &L, call->pos), call->pos),
                          call->pos);
  set_elem(X, dst, &L, v, call->pos);
  loop_close(X, &L);
  return ir_expr(C, E_CONST, &ty_void);
}

/* tile_scatter_add/_masked where the block's threads exchange values
 * (Note [block exchange]): every thread puts its indices, value and
 * has_value, then applies the block's updates to its copy of the tile in
 * lane order, one of the orders Warp's atomics may take (colliding writes
 * of tile_scatter_masked are undefined in Warp). */
static IrExpr *scatter_block(Ctx *X, IrVar *t, IrExpr **ix, IrExpr *v,
                             IrExpr *h, bool add, Pos pos) {
  Compiler *C = X->C;
  int nd = t->ty->ndim, off[6], end = 0;
  for (int k = 0; k < nd; k++) {
    off[k] = end;
    end = check_xchg_put(X, ix[k], end, pos);
  }
  off[nd] = end;
  end = check_xchg_put(X, v, end, pos);
  off[nd + 1] = end;
  check_xchg_put(X, ir_cast(C, t_i32(), h), end, pos);
  int dims[1] = {C->block};
  TLoop L;
  loop_open(X, &L, dims, 1, pos);
  /* the value read outside the branch, so that the adjoint's exchange
   * back to its thread (Note [exchange adjoints] in ir/adjoint.c) puts
   * no barrier under a condition */
  IrExpr *nv = ir_ref(C, temp_of(X, "val", check_xchg_get(X, v->ty,
                                 ir_ref(C, L.ctr[0]), off[nd]), pos));
  IrStmt *s = ir_stmt(C, S_IF, pos);
  s->a = ir_binary(C, OP_NE, t_bool(),
                   check_xchg_get(X, t_i32(), ir_ref(C, L.ctr[0]), off[nd + 1]),
                   ci(X, 0));
  IrStmt **save = X->tail;
  X->tail = &s->body;
  IrExpr **at = arena_alloc(C, sizeof(IrExpr *) * 4);
  IrExpr **at2 = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int k = 0; k < nd; k++) {
    IrVar *iv = temp_of(X, "ix", check_xchg_get(X, t_i32(), ir_ref(C, L.ctr[0]),
                                          off[k]), pos);
    at[k] = ir_ref(C, iv);
    at2[k] = ir_ref(C, iv);
  }
  if (add)
    nv = check_tile_elem_op(X, OP_ADD, load_at(X, t, at2, nd, pos), nv, pos);
  check_emit(X, store_at(X, t, at, nd, nv, pos));
  X->tail = save;
  check_emit(X, s);
  loop_close(X, &L);
  return ir_expr(C, E_CONST, &ty_void);
}

/* wp.tile_scatter_add(a, i[, j[, k]], value, has_value, atomic=True) and
 * tile_scatter_masked(a, i[, j[, k]], value, has_value): this thread's
 * value added to (written at) a[i, ...] when has_value; a block of one
 * thread only (BI_TILE_SOLO, Note [threads' values]). */
static IrExpr *tile_scatter(Ctx *X, Node *call, const char *fn, bool add) {
  Compiler *C = X->C;
  int na = check_count_args(call->args);
  Node *at = NULL;
  for (Node *kw = call->kwargs; kw; kw = kw->next)
    if (add && !strcmp(kw->name, "atomic"))
      at = kw->a;
    else
      ERR(kw->pos, "%s() has no keyword argument '%s' here", fn, kw->name);
  if (na < 4)
    ERR(call->pos, "%s() takes a tile, its indices, a value and has_value",
        fn);
  Node *tn = call->args;
  inplace_dest(X, tn, fn, "a");
  IrVar *t = tile_arg(X, tn, fn, "a");
  int nd = t->ty->ndim;
  int extra = add && !at && na == nd + 4 ? 1 : 0; /* atomic positional */
  if (na != nd + 3 + extra)
    ERR(call->pos, "%s(): %d indices for %s", fn, na - 3 - extra, TN(t->ty));
  IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 4);
  Node *a = tn->next;
  for (int k = 0; k < nd; k++, a = a->next) {
    IrExpr *e = check_expr(X, a);
    if (!ty_is_int(e->ty))
      ERR(a->pos, "%s(): an index must be an integer, got %s", fn, TN(e->ty));
    ix[k] = e->ty->sc == KERN_SCALAR_INT32 ? e : ir_cast(C, t_i32(), e);
  }
  IrExpr *v = check_expr(X, a);
  if (!ty_eq(v->ty, t->ty->elem))
    ERR(a->pos, "%s(): the value is %s, the tile's elements %s", fn, TN(v->ty),
        TN(t->ty->elem));
  Node *hn = a->next;
  IrExpr *h = check_expr(X, hn);
  if (!ty_is_bool(h->ty))
    ERR(hn->pos, "%s(): has_value must be a bool, got %s", fn, TN(h->ty));
  if (extra)
    at = hn->next;
  if (at)
    bool_const(X, at, true, fn, "atomic");
  if (exchanges(X, add ? 2 : 3, call->pos))
    return scatter_block(X, t, ix, v, h, add, call->pos);
  IrStmt *s = ir_stmt(C, S_IF, call->pos);
  s->a = h;
  IrStmt **save = X->tail;
  X->tail = &s->body;
  ix[0] = ir_binary(C, OP_ADD, t_i32(), ix[0], solo(X, add ? 2 : 3, call->pos));
  IrExpr *nv = v;
  if (add) {
    IrExpr **ix2 = arena_alloc(C, sizeof(IrExpr *) * 4);
    IrVar *iv[4];
    for (int k = 0; k < nd; k++) {
      iv[k] = temp_of(X, "ix", ix[k], call->pos);
      ix[k] = ir_ref(C, iv[k]);
      ix2[k] = ir_ref(C, iv[k]);
    }
    nv = check_tile_elem_op(X, OP_ADD, load_at(X, t, ix2, nd, call->pos), v,
                            call->pos);
  }
  check_emit(X, store_at(X, t, ix, nd, nv, call->pos));
  X->tail = save;
  check_emit(X, s);
  return ir_expr(C, E_CONST, &ty_void);
}


/* ---------------------------------------------------------------- print */

/* Note [tile print]: print(t) and wp.print(t) of a tile write what Warp
 * 1.19's tile print writes: the elements nested in brackets -- one space
 * between neighbours in a row, each row on a line of its own indented to
 * stand under the first, a blank line between the 2-d blocks of a tile of
 * three or more dimensions -- then " = tile(shape=(2,3), storage=register)"
 * and a newline.  The block's first thread prints, once per block
 * (BI_TILE_LANE), as Warp's thread 0 does.  Warp formats an int32 element
 * with %d and every other element with %g, which is its output for
 * int32, float32 and float64; other scalars reach its printf as a value
 * of the wrong kind and print garbage, so kern prints their value (%d or
 * %u for an integer, %g for a 16-bit float, 1 or 0 for a bool).  Tiles of
 * vectors, matrices and structs, which Warp's print has no output for,
 * are refused.  storage= says what Warp's does (Note [tile storage]),
 * though kern's tiles are never in shared memory (Note [tiles, first
 * stage]).  One difference remains: Warp 1.19 starts the 2-d blocks of a
 * tile of three or more dimensions at wrong offsets (it prints elements
 * 2..7 as the second block of a 2x2x3 tile); kern prints each element. */

/* Note [tile storage]: Warp 1.19 prints storage=shared for a tile whose
 * type says shared memory, and a type is its variable's for the whole
 * kernel: a builtin that needs shared memory moves its operands' types
 * there when the kernel is built, and the C++ declares every variable
 * with its final type, so print(t) before such a use of t prints shared
 * too (measured on the CPU, conformance tile_print_storage).  kern marks
 * the tile's variable (IrVar.tile_shared) and writes each print's
 * storage once the function is checked (check_tile_print_storage).
 * Shared are: a tile made with storage="shared" (tile_load,
 * tile_load_indexed, tile_zeros, tile_ones, tile_full, tile_arange,
 * tile_from_thread, tile_randf, tile_randi); the results and the operands
 * of the view builtins (tile_view, tile_transpose, tile_reshape,
 * tile_squeeze, tile_broadcast, a subscript's part: view_source and
 * view_result); tile_matmul's a, b, out and result; a tile an element is
 * read from (a subscript, tile_extract).  A name takes its value's mark
 * (Warp's copy of a shared tile is shared); arithmetic, tile_map,
 * tile_sum, tile_astype and += make register tiles, as in Warp.  Not
 * followed yet (kern prints register): the other builtins Warp moves to
 * shared memory (tile_sort, the reductions along an axis, the scatters,
 * the Cholesky and triangular solves, tile_diag_add, tile_fft, the index
 * tiles of the indexed loads, stores and atomics, wp.where of tiles), a
 * name given a register tile after a shared one (its one variable keeps
 * the mark), and tiles a @wp.func takes or returns. */

/* What Warp prints between two neighbours along axis k of an nd-d tile. */
static const char *print_sep(Ctx *X, int k, int nd) {
  if (k == nd - 1)
    return " ";
  if (k == nd - 2)
    return arena_printf(X->C, "\n%*s", nd - 1, "");
  return arena_printf(X->C, "\n\n%*s", k + 1, "");
}

/* One element of t at the counters ctr, in Note [tile print]'s format. */
static void print_elem(Ctx *X, IrVar *t, IrVar **ctr, Pos pos) {
  Compiler *C = X->C;
  int nd = t->ty->ndim;
  IrExpr **idx = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int k = 0; k < nd; k++)
    idx[k] = ir_ref(C, ctr[k]);
  IrExpr *e = load_at(X, t, idx, nd, pos);
  kern_scalar sc = t->ty->elem->sc;
  const char *fmt = sc_is_float(sc) ? "%g" : sc_is_signed(sc) ? "%d" : "%u";
  if (sc == KERN_SCALAR_FLOAT16 || sc == KERN_SCALAR_BFLOAT16)
    e = ir_cast(C, t_f32(), e);
  if (sc == KERN_SCALAR_BOOL) {
    e = ir_cast(C, t_i32(), e);
    fmt = "%d";
  }
  IrExpr **a = arena_alloc(C, sizeof(IrExpr *));
  a[0] = e;
  check_emit_printf(X, pos, fmt, 1, a);
}

/* The sub-tile of t along axes k.. at the outer counters ctr[0..k). */
static void print_axis(Ctx *X, IrVar *t, IrVar **ctr, int k, Pos pos) {
  Compiler *C = X->C;
  int nd = t->ty->ndim;
  if (k == nd) {
    print_elem(X, t, ctr, pos);
    return;
  }
  check_emit_printf(X, pos, "[", 0, NULL);
  TLoop L;
  ctr[k] = range_open(X, &L, ci(X, 0), ci(X, t->ty->fdims[k]), pos);
  IrStmt *s = ir_stmt(C, S_IF, pos);
  s->a = ir_binary(C, OP_GT, t_bool(), ir_ref(C, ctr[k]), ci(X, 0));
  IrStmt **save = X->tail;
  X->tail = &s->body;
  check_emit_printf(X, pos, print_sep(X, k, nd), 0, NULL);
  X->tail = save;
  check_emit(X, s);
  print_axis(X, t, ctr, k + 1, pos);
  loop_close(X, &L);
  check_emit_printf(X, pos, "]", 0, NULL);
}

/* print(t), wp.print(t) of the tile t (Note [tile print]). */
void check_tile_print(Ctx *X, IrExpr *t, Pos pos) {
  const Type *et = t->ty->elem;
  if (et->kind != TY_SCALAR)
    ERR(pos, "cannot print a tile of %s: kern prints tiles of scalars "
             "(Warp 1.19 hands each element to printf as a number, which "
             "prints nothing defined for a %s)", TN(et), TN(et));
  IrVar *v = tile_var(X, t, pos);
  IrStmt **save;
  IrStmt *g0 = lane0_open(X, &save, pos);
  IrVar *ctr[4];
  print_axis(X, v, ctr, 0, pos);
  Buf f;
  buf_init(&f, X->C);
  buf_puts(&f, " = tile(shape=(");
  for (int k = 0; k < v->ty->ndim; k++)
    buf_printf(&f, "%s%d", k ? "," : "", v->ty->fdims[k]);
  buf_puts(&f, "), storage=register)\n");
  IrStmt **at = X->tail;
  check_emit_printf(X, pos, f.p, 0, NULL);
  lane0_close(X, g0, save);
  if (X->ntile_prints == X->captile_prints) {
    int n = X->captile_prints ? 2 * X->captile_prints : 8;
    IrStmt **ps = arena_alloc(X->C, sizeof(IrStmt *) * (size_t)n);
    IrVar **pv = arena_alloc(X->C, sizeof(IrVar *) * (size_t)n);
    if (X->ntile_prints) {
      memcpy(ps, X->tile_prints, sizeof(IrStmt *) * (size_t)X->ntile_prints);
      memcpy(pv, X->tile_print_of, sizeof(IrVar *) * (size_t)X->ntile_prints);
    }
    X->tile_prints = ps;
    X->tile_print_of = pv;
    X->captile_prints = n;
  }
  X->tile_prints[X->ntile_prints] = *at;
  X->tile_print_of[X->ntile_prints++] = v;
}

/* At the end of the function (Note [tile storage]): the prints of tiles
 * Warp keeps in shared memory say so. */
void check_tile_print_storage(Ctx *X) {
  static const char reg[] = "register)\n";
  for (int i = 0; i < X->ntile_prints; i++) {
    IrStmt *s = X->tile_prints[i];
    if (!X->tile_print_of[i]->tile_shared)
      continue;
    int keep = s->slen - (int)(sizeof reg - 1);
    s->str = arena_printf(X->C, "%.*sshared)\n", keep, s->str);
    s->slen = (int)strlen(s->str);
  }
}

/* ---------------------------------------------------------------- subscripts */

/* Warp's tile subscripts other than one element: t[i] of a 2-d tile (a
 * row), slices t[2:8, ::-1] with constant bounds, and an integer tile as
 * one axis's index (t[idx, :], tile_slice_indexed).  An integer or an
 * index tile may be negative (from the end).  Warp's results are views
 * (the gather a copy); kern copies (Note at view_source). */
typedef struct TSub {
  int kind[4];      /* 0 integer (axis dropped), 1 slice, 2 index tile */
  IrExpr *at[4];    /* kind 0: the index (a variable or constant) */
  IrVar *ix[4];     /* kind 2 */
  int start[4], step[4];
  int dims[4], nd;  /* the result's shape */
} TSub;

static int slice_bound(Ctx *X, Node *b, const char *what) {
  Node *bad = check_not_constant(X, b);
  IrExpr *e = bad ? NULL : check_expr(X, b);
  if (!e || e->kind != E_CONST || !ty_is_int(e->ty))
    ERR(b->pos, "the %s of a tile slice must be an integer constant (the "
                "part's shape is known when the kernel is compiled)", what);
  int64_t v = sc_bits(e->ty->sc) == 32 ? (int32_t)(uint32_t)e->ival
                                       : (int64_t)e->ival;
  return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int)v;
}

/* A given slice bound v of an axis of length len: counted from the end
 * when negative, then kept within [lower, upper]. */
static int slice_clamp(int v, int len, int lower, int upper) {
  if (v < 0)
    v += len;
  return v < lower ? lower : v > upper ? upper : v;
}

/* The constant slice lo:hi:st (each NULL when omitted) of an axis of
 * length len, bounds clamped as Python's slice.indices() clamps them, so
 * t[0:-1], t[100::-1] and wp.tile_view(t, offset=(slice(-3, 8, 1),))
 * agree with NumPy: the first index in *start, the step in *step; returns
 * the count, 0 or less when the slice is empty. */
static int tile_slice(Ctx *X, Node *lo_n, Node *hi_n, Node *st_n, int len,
                      int *start, int *step) {
  int st = st_n ? slice_bound(X, st_n, "step") : 1;
  if (st == 0)
    ERR(st_n->pos, "a tile slice's step must not be zero");
  int lower = st > 0 ? 0 : -1, upper = st > 0 ? len : len - 1;
  int lo = st > 0 ? lower : upper, hi = st > 0 ? upper : lower;
  if (lo_n)
    lo = slice_clamp(slice_bound(X, lo_n, "start"), len, lower, upper);
  if (hi_n)
    hi = slice_clamp(slice_bound(X, hi_n, "stop"), len, lower, upper);
  *start = lo;
  *step = st;
  return st > 0 ? (hi - lo + st - 1) / st : (lo - hi + (-st) - 1) / (-st);
}

/* A constant integer index e (node a) of axis k, of length len, of a
 * tile: within the axis, counted from the end when negative, as Warp
 * checks it when the kernel is compiled. */
static void const_tile_index(Ctx *X, Node *a, IrExpr *e, int len, int k) {
  int64_t v = sc_is_signed(e->ty->sc) && sc_bits(e->ty->sc) == 32
                  ? (int32_t)(uint32_t)e->ival : (int64_t)e->ival;
  if (v < -len || v >= len)
    ERR(a->pos, "tile index %lld is out of range for axis %d of length %d",
        (long long)v, k, len);
}

/* A gather's other axes, as Warp's tile_slice_indexed takes them: one
 * index tile, every other index a whole axis (:, or a slice as long). */
static void gather_axes(Ctx *X, Node *n, IrVar *t, TSub *S) {
  int ntiles = 0, k = 0;
  for (k = 0; k < t->ty->ndim; k++)
    ntiles += S->kind[k] == 2;
  if (ntiles == 0)
    return;
  k = 0;
  for (Node *a = n->args; a; a = a->next, k++) {
    if (S->kind[k] == 2 && ntiles > 1)
      ERR(a->pos, "a tile subscript takes one index tile (a gather along one "
                  "axis), got %d", ntiles);
    /* no axis before k is dropped here, so dims[k] is axis k's */
    if (S->kind[k] == 0 || (S->kind[k] == 1 &&
        (S->start[k] != 0 || S->step[k] != 1 ||
         S->dims[k] != t->ty->fdims[k])))
      ERR(a->pos, "a tile subscript with an index tile takes ':' on every "
                  "other axis, as Warp's (t[idx, :]); subscript the gathered "
                  "tile for a part of it");
  }
}

/* False when n is no tile subscript this handles (a plain element). */
static bool tile_sub_of(Ctx *X, Node *n, IrVar *t, TSub *S) {
  Compiler *C = X->C;
  int sd = t->ty->ndim, na = check_count_args(n->args);
  if (na > sd)
    ERR(n->pos, "%d indices for %s", na, TN(t->ty));
  bool plain = na == sd;
  for (Node *a = n->args; a; a = a->next)
    if (a->kind == N_SLICE)
      plain = false;
  /* index tiles make it a gather: their types, found on a scratch list
   * of statements that is dropped (an index is evaluated once, below or
   * by the caller) */
  IrExpr *ev[4] = {0};
  int k = 0;
  if (plain) {
    IrStmt *scratch = NULL, **save = X->tail;
    X->tail = &scratch;
    for (Node *a = n->args; a; a = a->next) {
      const Type *it = check_expr(X, a)->ty;
      if (it->kind == TY_ARRAY && it->tile)
        plain = false;
    }
    X->tail = save;
  }
  if (plain)
    return false;
  for (Node *a = n->args; a; a = a->next, k++)
    if (a->kind != N_SLICE)
      ev[k] = check_expr(X, a);
  S->nd = 0;
  k = 0;
  Node *a = n->args;
  for (; k < sd; k++) {
    int len = t->ty->fdims[k];
    if (!a || a->kind == N_SLICE) {
      int lo, st;
      int cnt = tile_slice(X, a ? a->a : NULL, a ? a->b : NULL,
                           a ? a->c : NULL, len, &lo, &st);
      if (cnt <= 0)
        ERR(a ? a->pos : n->pos, "this slice of axis %d of %s is empty; kern "
                                 "has no empty tile", k, TN(t->ty));
      S->kind[k] = 1;
      S->start[k] = lo;
      S->step[k] = st;
      S->dims[S->nd++] = cnt;
    } else {
      IrExpr *e = ev[k];
      if (e->ty->kind == TY_ARRAY && e->ty->tile) {
        if (e->ty->ndim != 1 || e->ty->elem->kind != TY_SCALAR ||
            !sc_is_int(e->ty->elem->sc))
          ERR(a->pos, "a tile index must be a 1-d tile of integers, got %s",
              TN(e->ty));
        S->kind[k] = 2;
        S->ix[k] = tile_var(X, e, a->pos);
        S->dims[S->nd++] = e->ty->fdims[0];
      } else {
        if (!ty_is_int(e->ty))
          ERR(a->pos, "a tile index must be an integer, got %s", TN(e->ty));
        if (e->kind == E_CONST)
          const_tile_index(X, a, e, len, k);
        if (e->ty->sc != KERN_SCALAR_INT32)
          e = ir_cast(C, t_i32(), e);
        e = ir_call2(C, BI_WRAP_INDEX, t_i32(), e, ci(X, len));
        S->kind[k] = 0;
        S->at[k] = ir_ref(C, temp_of(X, "ix", e, a->pos));
      }
    }
    if (a)
      a = a->next;
  }
  if (S->nd == 0)
    return false;
  gather_axes(X, n, t, S);
  return true;
}

/* The source indices of t for the result's loop L. */
static IrExpr **tile_sub_idx(Ctx *X, TSub *S, const int *sdims, int sd,
                             TLoop *L, Pos pos) {
  Compiler *C = X->C;
  IrExpr **ix = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int k = 0, j = 0; k < sd; k++) {
    if (S->kind[k] == 0) {
      ix[k] = ir_ref(C, S->at[k]->var);
    } else if (S->kind[k] == 1) {
      ix[k] = ir_binary(C, OP_ADD, t_i32(), ci(X, S->start[k]),
                        ir_binary(C, OP_MUL, t_i32(), ir_ref(C, L->ctr[j++]),
                                  ci(X, S->step[k])));
    } else {
      IrExpr **i1 = arena_alloc(C, sizeof(IrExpr *));
      i1[0] = ir_ref(C, L->ctr[j++]);
      IrExpr *v = load_at(X, S->ix[k], i1, 1, pos);
      if (v->ty->sc != KERN_SCALAR_INT32)
        v = ir_cast(C, t_i32(), v);
      ix[k] = ir_call2(C, BI_WRAP_INDEX, t_i32(), v, ci(X, sdims[k]));
    }
  }
  return ix;
}

/* The map of the view t[...] described by S (no index tiles): an
 * integer index is a constant or a hidden variable set once here. */
static void sub_map(Ctx *X, IrVar *t, TSub *S) {
  TileMap *m = view_map(X, t);
  for (int k = 0, j = 0; k < t->ty->ndim; k++) {
    if (S->kind[k] == 0) {
      m->axis[k] = -1;
      m->off[k] = S->at[k];
    } else {
      m->axis[k] = j++;
      m->off[k] = ir_const_int(X->C, t_i32(), (uint64_t)(int64_t)S->start[k]);
      m->step[k] = S->step[k];
    }
  }
}

/* The part S of the tile t, copied into a new tile. */
static IrVar *sub_copy(Ctx *X, IrVar *t, TSub *S, Pos pos) {
  IrVar *r = tile_new(X, tile_type(X, t->ty->elem, S->nd, S->dims, pos,
                                   "a tile subscript"), pos);
  TLoop L;
  loop_open(X, &L, S->dims, S->nd, pos);
  int sd = t->ty->ndim;
  set_elem(X, r, &L, load_at(X, t, tile_sub_idx(X, S, t->ty->fdims, sd, &L,
                                                pos), sd, pos), pos);
  loop_close(X, &L);
  return r;
}

/* n's indices on the tile variable t when they select a part: the part, a
 * new tile (NULL when n selects one element).  Without an index tile it
 * is a view in Warp, remembered as one of local src - 1 (t's) or, for src
 * 0, of what t is a view of (Note at view_source); a gather is a copy in
 * Warp too.  (A local is named by its index: adding one moves them.) */
static IrExpr *tile_part(Ctx *X, Node *n, IrVar *t, int src) {
  bool of_view = t == X->tile_view_result;
  t->tile_shared = true; /* an element too (Note [tile storage]) */
  TSub S;
  if (!tile_sub_of(X, n, t, &S))
    return NULL;
  bool gather = false;
  for (int k = 0; k < t->ty->ndim; k++)
    gather |= S.kind[k] == 2;
  IrVar *r = sub_copy(X, t, &S, n->pos);
  if (!gather) {
    r->tile_shared = true;
    sub_map(X, t, &S);
    if (src)
      X->tile_view_src = src;
    else if (!of_view)
      X->tile_view_src = 0;
    X->tile_view_result = r;
  }
  return ir_ref(X->C, r);
}

/* Note [tile subscript chains]: Warp applies a chain of subscripts of a
 * tile, t[a][b]..., bracket by bracket while a bracket re-indexes: it has
 * a slice or an index tile, or it is integers fewer than the tile's
 * dimensions with such a bracket later (t[2][1:9:2]: row 2, then a slice
 * of it).  The brackets left, integers only, are read as one subscript:
 * t[i][j] is t[i, j], and indices beyond the tile's dimensions index its
 * element (t[i][j][0] of a 2-d tile of vectors).  So t[::-1][::2] is every
 * second element of the reversed tile and t[1:3][0] is row 1, as in NumPy
 * (an array's a[1:3][0] is column 0 of rows 1 and 2: check_view.c).  A
 * chain on an unnamed tile (a builtin's result) goes bracket by bracket
 * through check_subscript_value, which gives the same parts. */

/* Does the bracket g re-index: a slice, or an index tile?  The indices'
 * types are found on a scratch list of statements that is dropped. */
static bool bracket_views(Ctx *X, Node *g) {
  bool views = false;
  IrStmt *scratch = NULL, **save = X->tail;
  X->tail = &scratch;
  for (Node *a = g->args; a && !views; a = a->next) {
    const Type *it = a->kind == N_SLICE ? NULL : check_expr(X, a)->ty;
    views = !it || (it->kind == TY_ARRAY && it->tile);
  }
  X->tail = save;
  return views;
}

/* A subscript node of the indices ix[0..n) (copies, each index node's
 * next being its place in one list). */
static Node *sub_node(Ctx *X, Node **ix, int n, Pos pos) {
  Node *s = arena_alloc(X->C, sizeof(Node));
  memset(s, 0, sizeof(Node));
  s->kind = N_SUBSCRIPT;
  s->pos = pos;
  Node **tail = &s->args;
  for (int k = 0; k < n; k++) {
    Node *c = arena_alloc(X->C, sizeof(Node));
    *c = *ix[k];
    c->next = NULL;
    *tail = c;
    tail = &c->next;
  }
  return s;
}

/* The integer brackets g[0..ng) of a chain read as one subscript of the
 * tile t (Note [tile subscript chains]). */
static IrExpr *tile_rest(Ctx *X, Node **g, int ng, IrVar *t, int src) {
  int na = 0, nd = t->ty->ndim;
  for (int k = 0; k < ng; k++)
    na += check_count_args(g[k]->args);
  Node **ix = arena_alloc(X->C, sizeof(Node *) * (size_t)na);
  na = 0;
  for (int k = 0; k < ng; k++)
    for (Node *a = g[k]->args; a; a = a->next)
      ix[na++] = a;
  Pos pos = g[ng - 1]->pos;
  if (na < nd)
    return tile_part(X, ng == 1 ? g[0] : sub_node(X, ix, na, pos), t, src);
  IrExpr *e = check_subscript_value(X, sub_node(X, ix, nd, pos),
                                    ir_ref(X->C, t));
  if (na > nd)
    e = check_subscript_value(X, sub_node(X, ix + nd, na - nd, pos), e);
  return e;
}

/* A chain of ng subscripts, n the last, of the tile local src - 1 (Note
 * [tile subscript chains]). */
static IrExpr *tile_chain(Ctx *X, Node *n, int src, int ng) {
  Node **g = arena_alloc(X->C, sizeof(Node *) * (size_t)ng);
  int i = ng;
  for (Node *s = n; s->kind == N_SUBSCRIPT; s = s->a)
    g[--i] = s;
  IrVar *t = tile_var(X, check_expr(X, g[0]->a), n->pos);
  for (i = 0; i + 1 < ng; i++) {
    bool later = false;
    if (!bracket_views(X, g[i])) {
      if (check_count_args(g[i]->args) >= t->ty->ndim)
        break;
      for (int j = i + 1; j < ng && !later; j++)
        later = bracket_views(X, g[j]);
      if (!later)
        break;
    }
    t = tile_part(X, g[i], t, src)->var;
    src = 0;
  }
  return tile_rest(X, g + i, ng - i, t, src);
}

/* t[...] of a tile local t, or a chain of subscripts of one (Note [tile
 * subscript chains]), when not one element: a new tile (NULL otherwise). */
IrExpr *check_tile_subscript(Ctx *X, Node *n) {
  Node *root = n->a;
  int ng = 1;
  for (; root->kind == N_SUBSCRIPT; root = root->a)
    ng++;
  if (root->kind != N_NAME)
    return NULL;
  Local *l = check_find_local(X, root->name);
  if (!l || l->ty->kind != TY_ARRAY || !l->ty->tile)
    return NULL;
  int src = (int)(l - X->locals) + 1;
  if (ng > 1)
    return tile_chain(X, n, src, ng);
  return tile_part(X, n, tile_var(X, check_expr(X, n->a), n->pos), src);
}

/* n's indices on the tile value *base (a builtin's result, a part of a
 * part): the part, a new tile, or NULL when n selects one element, *base
 * then a reference to the tile's variable. */
IrExpr *check_tile_part(Ctx *X, Node *n, IrExpr **base) {
  IrVar *t = tile_var(X, *base, n->pos);
  *base = ir_ref(X->C, t);
  return tile_part(X, n, t, 0);
}

/* wp.tile_view(t, offset) with slice(start, stop, step) entries in offset
 * (Warp's slice builtin takes three integer constants): a slice keeps its
 * axis, its bounds clamped as a subscript's are (offset=(slice(0, -1, 1),)
 * is t[0:-1]); an integer selects and removes its axis (view_offset); the
 * axes after offset are kept whole.  The slices give the view's shape, so
 * shape= may not be given, as in Warp. */
static IrExpr *tile_view_slices(Ctx *X, Node *call, const char *fn, Node *tn,
                                IrVar *t, Node *on, Node *sn) {
  if (sn)
    ERR(sn->pos, "%s(): shape cannot be given when offset has slices (the "
                 "slices give the view's shape)", fn);
  int no = on->kind == N_TUPLE ? check_count_args(on->args) : 1;
  if (no > t->ty->ndim)
    ERR(on->pos, "%s(): offset has %d entries for %s", fn, no, TN(t->ty));
  TSub S;
  S.nd = 0;
  Node *a = on->kind == N_TUPLE ? on->args : on;
  for (int k = 0; k < t->ty->ndim; k++, a = a ? a->next : NULL) {
    if (a && !is_slice_call(a)) {
      S.kind[k] = 0;
      S.at[k] = ir_ref(X->C, temp_of(X, "off", view_offset(X, a, t, k, fn),
                                     a->pos));
      continue;
    }
    int cnt = t->ty->fdims[k];
    S.kind[k] = 1;
    S.start[k] = 0;
    S.step[k] = 1;
    if (a) {
      if (a->kwargs || check_count_args(a->args) != 3)
        ERR(a->pos, "slice() takes three integer constants: start, stop and "
                    "step");
      Node *b = a->args;
      cnt = tile_slice(X, b, b->next, b->next->next, cnt, &S.start[k],
                       &S.step[k]);
      if (cnt <= 0)
        ERR(a->pos, "%s(): this slice of axis %d of %s is empty; kern has no "
                    "empty tile", fn, k, TN(t->ty));
    }
    S.dims[S.nd++] = cnt;
  }
  view_source(X, tn, t);
  return view_result(X, sub_copy(X, t, &S, call->pos));
}

/* t[...] = u for a tile local t and a subscript that is not one element:
 * u (a tile of the part's shape) copied in.  False when not such a
 * store. */
bool check_tile_store_subscript(Ctx *X, Node *target, IrExpr *value,
                                Pos pos) {
  Node *n = target;
  if (n->a->kind != N_NAME)
    return false;
  Local *l = check_find_local(X, n->a->name);
  if (!l || l->ty->kind != TY_ARRAY || !l->ty->tile)
    return false;
  IrVar *t = tile_var(X, check_expr(X, n->a), n->pos);
  TSub S;
  if (!tile_sub_of(X, n, t, &S))
    return false;
  if (value->ty->kind != TY_ARRAY || !value->ty->tile ||
      value->ty->ndim != S.nd ||
      memcmp(value->ty->fdims, S.dims, sizeof(int) * (size_t)S.nd))
    ERR(pos, "cannot assign %s to a part of %s of %d dimension%s (a tile of "
             "the part's shape is needed)", TN(value->ty), TN(t->ty), S.nd,
        S.nd == 1 ? "" : "s");
  if (!ty_eq(value->ty->elem, t->ty->elem))
    ERR(pos, "cannot assign a tile of %s into a tile of %s", TN(value->ty->elem),
        TN(t->ty->elem));
  IrVar *src = tile_var(X, value, pos);
  if (src == t) { /* read whole first, like NumPy */
    IrVar *cp = tile_new(X, src->ty, pos);
    TLoop L0;
    loop_open(X, &L0, src->ty->fdims, src->ty->ndim, pos);
    set_elem(X, cp, &L0, elem(X, src, &L0, pos), pos);
    loop_close(X, &L0);
    src = cp;
  }
  TLoop L;
  loop_open(X, &L, S.dims, S.nd, pos);
  check_emit(X, store_at(X, t, tile_sub_idx(X, &S, t->ty->fdims, t->ty->ndim, &L, pos),
                         t->ty->ndim, elem(X, src, &L, pos), pos));
  loop_close(X, &L);
  return true;
}

/* ---------------------------------------------------------------- operators */

/* Warp's tile operators: t + u, t - u, t & u, t | u, t ^ u element by
 * element (tiles of one shape and type); t * u and t / u element by
 * element where the shapes agree and one element type is a scalar of the
 * other's scalar type (a tile of float times a tile of vec3); t * c, c * t,
 * t / c, c / t with a scalar, vector or matrix c of the tile's scalar type
 * (one of the two a scalar).  Each element is the operator on the pair, as
 * written between two values. */
IrExpr *check_tile_binop(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos) {
  Compiler *C = X->C;
  bool lt = l->ty->kind == TY_ARRAY && l->ty->tile;
  bool rt = r->ty->kind == TY_ARRAY && r->ty->tile;
  const Type *tt = lt ? l->ty : r->ty;
  bool muldiv = op == OP_MUL || op == OP_DIV;
  if (op != OP_ADD && op != OP_SUB && !muldiv && op != OP_BITAND &&
      op != OP_BITOR && op != OP_BITXOR)
    ERR(pos, "operator %s on tiles is not supported (Warp's tiles have + - "
             "* / & | ^)", op_text(op));
  if (lt && rt) {
    if (muldiv) {
      if (l->ty->ndim != r->ty->ndim ||
          memcmp(l->ty->fdims, r->ty->fdims, sizeof(int) * 4))
        ERR(pos, "operands of %s are tiles of different shapes: %s and %s",
            op_text(op), TN(l->ty), TN(r->ty));
      const Type *a = l->ty->elem, *b = r->ty->elem;
      if (a->sc != b->sc || (a->kind != TY_SCALAR && b->kind != TY_SCALAR))
        ERR(pos, "operands of %s are tiles of %s and %s: Warp needs one "
                 "element type a scalar and the same scalar type",
            op_text(op), TN(a), TN(b));
    } else if (!ty_eq(l->ty, r->ty)) {
      ERR(pos, "operands of %s are tiles of different types or shapes: %s "
               "and %s", op_text(op), TN(l->ty), TN(r->ty));
    }
  } else {
    const Type *st = lt ? r->ty : l->ty;
    if (!muldiv)
      ERR(pos, "%s of a tile and %s: only a tile times or divided by a "
               "scalar, vector or matrix is supported (Warp has no tile %s "
               "scalar)", op_text(op), TN(st), op_text(op));
    if (!ty_is_value(st))
      ERR(pos, "cannot %s a tile by %s", op == OP_MUL ? "multiply" : "divide",
          TN(st));
    if (st->sc != tt->elem->sc ||
        (st->kind != TY_SCALAR && tt->elem->kind != TY_SCALAR))
      ERR(pos, "operands of %s are a tile of %s and %s: Warp needs the same "
               "scalar type and one of them a scalar", op_text(op),
          TN(tt->elem), TN(st));
  }
  IrVar *a = lt ? tile_var(X, l, pos) : NULL;
  IrVar *b = rt ? tile_var(X, r, pos) : NULL;
  IrExpr *sv = NULL;
  if (!lt || !rt) {
    sv = lt ? r : l;
    if (sv->kind != E_CONST && sv->kind != E_VAR)
      sv = ir_ref(C, temp_of(X, "scale", sv, pos));
  }
  /* the result's type: the operator on one element of each */
  IrExpr **i0 = arena_alloc(C, sizeof(IrExpr *) * 4);
  for (int d = 0; d < tt->ndim; d++)
    i0[d] = ir_const_int(C, t_i32(), 0);
  IrStmt *scratch = NULL, **save = X->tail;
  X->tail = &scratch;
  IrExpr *probe = check_tile_elem_op(X, op,
                                     a ? load_at(X, a, i0, tt->ndim, pos) : sv,
                                     b ? load_at(X, b, i0, tt->ndim, pos) : sv,
                                     pos);
  X->tail = save;
  IrVar *t = tile_new(X, tile_type(X, probe->ty, tt->ndim, tt->fdims, pos,
                                   "a tile operator"), pos);
  TLoop L;
  loop_open(X, &L, tt->fdims, tt->ndim, pos);
  IrExpr *x = a ? elem(X, a, &L, pos)
                : (sv->kind == E_VAR ? ir_ref(C, sv->var) : sv);
  IrExpr *y = b ? elem(X, b, &L, pos)
                : (sv->kind == E_VAR ? ir_ref(C, sv->var) : sv);
  set_elem(X, t, &L, check_tile_elem_op(X, op, x, y, pos), pos);
  loop_close(X, &L);
  return ir_ref(C, t);
}

/* -t */
IrExpr *check_tile_neg(Ctx *X, IrExpr *e, Pos pos) {
  Compiler *C = X->C;
  IrVar *a = tile_var(X, e, pos);
  const Type *et = a->ty->elem;
  if (et->kind == TY_STRUCT)
    ERR(pos, "unary - on a tile of %s: Warp's tiles of structs have no "
             "unary operators", TN(et));
  IrVar *t = tile_new(X, a->ty, pos);
  TLoop L;
  loop_open(X, &L, a->ty->fdims, a->ty->ndim, pos);
  IrExpr *x = elem(X, a, &L, pos);
  IrExpr *v = et->kind == TY_SCALAR ? check_neg_scalar(X, x, pos)
                                    : ir_call1(C, BI_NEG, et, x);
  set_elem(X, t, &L, v, pos);
  loop_close(X, &L);
  return ir_ref(C, t);
}

/* Note [tile names own temporaries]
 * `t = wp.tile_load(...)` would otherwise make t's storage and copy the
 * new tile into it, two tiles' worth of stack for one (131072 bytes for
 * Warp's 64x64 vec2d FFT, Note [fixed-size array limit] in check_fixed.c).
 * When the value is the tile temporary made last (tile_new) and the name
 * is new, the name takes that temporary's storage instead: nothing else
 * refers to a temporary once its statement is done, and evaluating the
 * statement again (in a loop) rewrites the name anyway.  Later
 * assignments to the name copy into that storage as usual, so the name
 * still owns its elements (the top of this file). */

/* `name = tile`: the local owns its storage and gets a copy of the
 * elements (see the top of this file).  False when value is no tile. */
bool check_tile_assign(Ctx *X, Node *target, IrExpr *value, Pos pos) {
  Compiler *C = X->C;
  if (value->ty->kind != TY_ARRAY || !value->ty->tile ||
      target->kind != N_NAME)
    return false;
  Local *l = check_find_local(X, target->name);
  if (l && !(l->ty->kind == TY_ARRAY && l->ty->tile))
    return false; /* the usual type error */
  bool new_param = l && l->is_param; /* Note [tile parameters] */
  if (new_param && (X->block_depth > 1 || X->loop_depth))
    ERR(target->pos, "assigning a new tile to the tile parameter '%s' "
                     "inside an if or a loop is not supported: kern binds "
                     "the name to a new tile there; assign it at the "
                     "function's top level or use another name",
        target->name);
  if (new_param)
    l = NULL;
  if (l && !ty_eq(l->ty, value->ty))
    ERR(pos, "'%s' is a %s; it cannot be assigned a %s (a variable keeps "
             "its type)", target->name, TN(l->ty), TN(value->ty));
  IrVar *src = tile_var(X, value, pos);
  if (l && src == l->var)
    return true;
  /* a view bound to a name: Warp's view and its tile share elements, kern
   * copies and keeps them in step (Note [tile views in place]).  u = t
   * copies in Warp too (u[0] = x leaves t as it was). */
  int other = -1; /* an index: adding the new local may move X->locals */
  if (src == X->tile_view_result && X->tile_view_src)
    other = X->tile_view_src - 1;
  bool aliased = src == X->tile_view_result;
  TileMap *m = aliased ? X->tile_view_map : NULL;
  bool fresh = !l;
  if (l && !written_here(X, (int)(l - X->locals)))
    rebind(X, (int)(l - X->locals), target->pos);
  if (!l && !aliased && src == X->tile_fresh) {
    /* Note [tile names own temporaries]; a view is copied (Note [tile
     * views in place]) */
    Local *nl = check_add_local(X, target->name, value->ty, target->pos);
    if (new_param)
      names_put(C, &X->local_names, target->name,
                (void *)(intptr_t)X->nlocals);
    check_def_set(X, X->nlocals - 1);
    nl->var->nassign++;
    nl->tile_storage = X->tile_fresh_storage;
    nl->var->tile_shared = src->tile_shared;
    X->tile_fresh = NULL;
    assign(X, nl->var, ir_ref(C, src), pos);
    return true;
  }
  if (!l) {
    /* a new local: its own storage, which later assignments reuse */
    IrExpr *z = check_fixed_new(X, value->ty, pos);
    Local *nl = check_add_local(X, target->name, value->ty, target->pos);
    if (new_param)
      names_put(C, &X->local_names, target->name,
                (void *)(intptr_t)X->nlocals);
    check_def_set(X, X->nlocals - 1);
    nl->var->nassign++;
    nl->tile_storage = z->args[0]->var;
    assign(X, nl->var, z, pos);
    l = nl;
  } else {
    /* the view again (it may not have been made on this path: a first
     * assignment in one branch of an if) */
    l->var->nassign++;
    IrExpr *z = ir_expr(C, E_CALL, l->ty);
    z->bi = BI_FIXED_ZEROS;
    z->nargs = 1;
    z->args = arena_alloc(C, sizeof(IrExpr *));
    z->args[0] = ir_ref(C, l->tile_storage);
    z->pos = pos;
    assign(X, l->var, z, pos);
    check_def_set(X, (int)(l - X->locals));
  }
  if (aliased && fresh && other >= 0 && m && m->src == X->locals[other].var) {
    m->parent = other;
    m->depth = X->loop_depth;
    l->tile_map = m;
  } else if (aliased) {
    l->tile_aliased = true;
    if (other >= 0)
      X->locals[other].tile_aliased = true;
  }
  l->var->tile_shared |= src->tile_shared; /* Note [tile storage] */
  TLoop L;
  loop_open(X, &L, l->ty->fdims, l->ty->ndim, pos);
  set_elem(X, l->var, &L, elem(X, src, &L, pos), pos);
  loop_close(X, &L);
  return true;
}

/* Note [tiles assigned on some paths]: Warp declares a kernel's tile
 * variables zeroed, so a tile name assigned in some branches only (an
 * if/elif chain without else) holds the zero tile after the branches when
 * none of them ran; Warp 1.19 on the CPU stores zeros for it.  kern does
 * the same: such a name, read where it may be unassigned, gets its storage
 * zeroed at the function's start (X->entry), so the read sees zeros where
 * no assignment ran and the assigned tile where one did.  A scalar (or
 * other non-tile) name stays an error: Warp leaves it uninitialized. */
bool check_tile_unset_read(Ctx *X, Local *l) {
  if (l->ty->kind != TY_ARRAY || !l->ty->tile || !l->tile_storage)
    return false;
  if (!l->tile_zeroed) {
    IrExpr *z = ir_expr(X->C, E_CALL, l->ty);
    z->bi = BI_FIXED_ZEROS;
    z->nargs = 1;
    z->args = arena_alloc(X->C, sizeof(IrExpr *));
    z->args[0] = ir_ref(X->C, l->tile_storage);
    z->pos = l->pos;
    IrStmt *s = ir_stmt(X->C, S_ASSIGN, l->pos);
    s->var = l->var;
    s->a = z;
    s->next = X->entry;
    X->entry = s;
    l->var->nassign++;
    l->tile_zeroed = true;
  }
  check_def_set(X, (int)(l - X->locals));
  return true;
}

/* Note [tile parameters]: a @wp.func may take and return tiles, annotated
 * wp.tile[dtype, M, N], wp.tile[dtype, (M, N)], wp.tile[dtype] (any
 * shape), wp.tile(dtype=..., shape=...) or Any.  The annotation is a
 * generic type (check_generic_tile), so the function is instantiated per
 * tile type it is called with and its body sees the tile's shape, which
 * every tile builtin needs.  The argument travels as the view onto the
 * caller's tile (as a fixed array does, check_fixed.c), so the callee
 * reads it without a copy and an in-place update (t += u, t[i, j] = x)
 * is seen by the caller, as in Warp 1.19; a plain assignment (t = u)
 * binds the name to a new tile and leaves the caller's alone, also as in
 * Warp (only at the function's top level: after an if that rebinds it,
 * Warp's name would be either tile, which kern's one-local-per-name
 * binding cannot say).  A returned tile is copied into storage the caller passes
 * (check_fixed_return).  kern copies Warp's views (tile_view, ...), so a
 * view must not go to a parameter the function writes in place: a write
 * marks the parameter (Param.tile_written) and each call checks its
 * arguments against the marks (check_tile_call_writes). */

/* A tile dimension of an annotation: an integer constant or Literal[N]. */
static int annot_dim(Ctx *X, Node *n) {
  int64_t v = const_int(X, check_unwrap_literal(n), "wp.tile[...]",
                        "a dimension");
  if (v < 1 || v > TILE_MAX_BYTES)
    ERR(n->pos, "wp.tile[...]: a tile dimension must be 1 to %d, got %lld",
        TILE_MAX_BYTES, (long long)v);
  return (int)v;
}

/* The dimensions in list (a list of them, or one tuple of them) into
 * dims; returns how many. */
static int annot_dims(Ctx *X, Node *list, int *dims, Pos pos) {
  if (list && list->kind == N_TUPLE && !list->next)
    list = list->args;
  int nd = 0;
  for (Node *a = list; a; a = a->next) {
    if (nd == 4)
      ERR(pos, "wp.tile[...]: a tile has 1 to 4 dimensions");
    dims[nd++] = annot_dim(X, a);
  }
  return nd;
}

/* wp.tile[dtype, dims...] or wp.tile(dtype=..., shape=...) as a type
 * (Note [tile parameters]); NULL when n is neither. */
const Type *check_tile_annot(Ctx *X, Node *n) {
  if ((n->kind != N_SUBSCRIPT && n->kind != N_CALL) ||
      !check_wp_attr(X, n->a) || strcmp(check_wp_attr(X, n->a), "tile"))
    return NULL;
  Node *dtype = n->args, *shape = dtype ? dtype->next : NULL;
  if (n->kind == N_CALL) {
    if (shape && shape->next)
      ERR(shape->next->pos, "wp.tile() as a type takes dtype= and shape=");
    for (Node *kw = n->kwargs; kw; kw = kw->next)
      if (!strcmp(kw->name, "dtype") && !dtype)
        dtype = kw->a;
      else if (!strcmp(kw->name, "shape") && !shape)
        shape = kw->a;
      else
        ERR(kw->pos, "wp.tile() as a type takes dtype= and shape=, not "
                     "'%s'", kw->name);
  }
  if (!dtype)
    ERR(n->pos, "wp.tile[...] needs a dtype: wp.tile[float, M, N]");
  const Type *et = check_type_expr(X, dtype, "tile element type");
  if (et->kind == TY_ANY) /* Warp 1.19 matches no tile to it */
    ERR(dtype->pos, "wp.tile[...] needs a concrete element type (Warp "
                    "finds no tile that fits wp.tile[Any]); write Any for "
                    "the whole annotation instead");
  if (!check_is_valuelike(et) && et->kind != TY_STRUCT)
    ERR(dtype->pos, "tiles of %s are not supported", TN(et));
  int dims[4] = {0};
  int nd = !shape || check_is_any_node(shape)
               ? 0 : annot_dims(X, shape, dims, n->pos);
  return check_generic_tile(X->C, et, nd, dims);
}

/* A call of g with the arguments of call: a tile g writes in place is
 * written by this function too (a view may not be, as check_tile_mutate
 * says, and a parameter passed on is marked written). */
void check_tile_call_writes(Ctx *X, Node *call, Func *g) {
  int i = 0;
  for (Node *a = call->args; a && i < g->nparams; a = a->next, i++)
    if (g->params[i].tile_written)
      check_tile_mutate(X, a, a->pos);
  for (Node *kw = call->kwargs; kw; kw = kw->next)
    for (int k = 0; k < g->nparams; k++)
      if (g->params[k].tile_written && !strcmp(g->params[k].name, kw->name))
        check_tile_mutate(X, kw->a, kw->a->pos);
}

/* t += u and the like on a tile parameter t: the caller's tile is updated
 * in place (Note [tile parameters]).  False when target names no tile
 * parameter. */
bool check_tile_update_param(Ctx *X, Node *target, IrExpr *value, Pos pos) {
  if (target->kind != N_NAME)
    return false;
  Local *l = check_find_local(X, target->name);
  if (!l || !l->is_param || l->ty->kind != TY_ARRAY || !l->ty->tile)
    return false;
  check_tile_mutate(X, target, pos);
  if (!ty_eq(l->ty, value->ty))
    ERR(pos, "'%s' is a %s; it cannot be assigned a %s", target->name,
        TN(l->ty), TN(value->ty));
  IrVar *src = tile_var(X, value, pos);
  TLoop L;
  loop_open(X, &L, l->ty->fdims, l->ty->ndim, pos);
  set_elem(X, l->var, &L, elem(X, src, &L, pos), pos);
  loop_close(X, &L);
  return true;
}

/* ---------------------------------------------------------------- dispatch */

/* wp.W(...) when W is a tile builtin this stage has, else NULL. */
static IrExpr *tile_builtin(Ctx *X, Node *call, const char *w) {
  if (!strcmp(w, "untile"))
    return untile(X, call, "wp.untile");
  if (strncmp(w, "tile", 4))
    return NULL;
  const char *fn = arena_printf(X->C, "wp.%s", w);
  if (!strcmp(w, "tile_load"))
    return tile_load(X, call, fn);
  if (!strcmp(w, "tile_store"))
    return tile_store(X, call, fn, false);
  if (!strcmp(w, "tile_atomic_add"))
    return tile_store(X, call, fn, true);
  if (!strcmp(w, "tile_zeros"))
    return tile_fill(X, call, fn, 0);
  if (!strcmp(w, "tile_ones"))
    return tile_fill(X, call, fn, 1);
  if (!strcmp(w, "tile_full"))
    return tile_fill(X, call, fn, 2);
  if (!strcmp(w, "tile_arange"))
    return tile_arange(X, call, fn);
  if (!strcmp(w, "tile_map"))
    return tile_map(X, call, fn);
  if (!strcmp(w, "tile_reduce"))
    return tile_reduce(X, call, fn, 0);
  if (!strcmp(w, "tile_sum"))
    return tile_reduce(X, call, fn, 1);
  if (!strcmp(w, "tile_min"))
    return tile_reduce(X, call, fn, 2);
  if (!strcmp(w, "tile_max"))
    return tile_reduce(X, call, fn, 3);
  if (!strcmp(w, "tile_extract"))
    return tile_extract(X, call, fn);
  if (!strcmp(w, "tile_matmul"))
    return tile_matmul(X, call, fn);
  if (!strcmp(w, "tile_load_indexed"))
    return tile_load_indexed(X, call, fn);
  if (!strcmp(w, "tile_store_indexed"))
    return tile_store_indexed(X, call, fn, false);
  if (!strcmp(w, "tile_atomic_add_indexed"))
    return tile_store_indexed(X, call, fn, true);
  if (!strcmp(w, "tile_cholesky"))
    return tile_cholesky(X, call, fn, false);
  if (!strcmp(w, "tile_cholesky_inplace"))
    return tile_cholesky(X, call, fn, true);
  if (!strcmp(w, "tile_lower_solve"))
    return tile_solve(X, call, fn, 0, false);
  if (!strcmp(w, "tile_lower_solve_inplace"))
    return tile_solve(X, call, fn, 0, true);
  if (!strcmp(w, "tile_upper_solve"))
    return tile_solve(X, call, fn, 1, false);
  if (!strcmp(w, "tile_upper_solve_inplace"))
    return tile_solve(X, call, fn, 1, true);
  if (!strcmp(w, "tile_cholesky_solve"))
    return tile_solve(X, call, fn, 2, false);
  if (!strcmp(w, "tile_cholesky_solve_inplace"))
    return tile_solve(X, call, fn, 2, true);
  if (!strcmp(w, "tile_diag_add"))
    return tile_diag_add(X, call, fn);
  if (!strcmp(w, "tile"))
    return tile_of(X, call, fn);
  if (!strcmp(w, "tile_from_thread"))
    return tile_from_thread(X, call, fn);
  if (!strcmp(w, "tile_argmax"))
    return tile_argext(X, call, fn, true);
  if (!strcmp(w, "tile_argmin"))
    return tile_argext(X, call, fn, false);
  if (!strcmp(w, "tile_scan_inclusive"))
    return tile_scan(X, call, fn, 0);
  if (!strcmp(w, "tile_scan_exclusive"))
    return tile_scan(X, call, fn, 1);
  if (!strcmp(w, "tile_scan_max_inclusive"))
    return tile_scan(X, call, fn, 2);
  if (!strcmp(w, "tile_scan_min_inclusive"))
    return tile_scan(X, call, fn, 3);
  if (!strcmp(w, "tile_sort"))
    return tile_sort(X, call, fn);
  if (!strcmp(w, "tile_fft"))
    return tile_fft(X, call, fn, false);
  if (!strcmp(w, "tile_ifft"))
    return tile_fft(X, call, fn, true);
  if (!strcmp(w, "tile_randf"))
    return tile_rand(X, call, fn, true);
  if (!strcmp(w, "tile_randi"))
    return tile_rand(X, call, fn, false);
  if (!strcmp(w, "tile_dot"))
    return tile_dot(X, call, fn);
  if (!strcmp(w, "tile_axpy"))
    return tile_axpy(X, call, fn);
  if (!strcmp(w, "tile_scatter_add"))
    return tile_scatter(X, call, fn, true);
  if (!strcmp(w, "tile_scatter_masked"))
    return tile_scatter(X, call, fn, false);
  if (!strcmp(w, "tile_empty"))
    return tile_fill(X, call, fn, 0);
  if (!strcmp(w, "tile_transpose"))
    return tile_transpose(X, call, fn);
  if (!strcmp(w, "tile_broadcast"))
    return tile_broadcast(X, call, fn);
  if (!strcmp(w, "tile_reshape"))
    return tile_reshape(X, call, fn);
  if (!strcmp(w, "tile_squeeze"))
    return tile_squeeze(X, call, fn);
  if (!strcmp(w, "tile_view"))
    return tile_view(X, call, fn);
  if (!strcmp(w, "tile_astype"))
    return tile_astype(X, call, fn);
  if (!strcmp(w, "tile_assign"))
    return tile_assign(X, call, fn);
  return NULL;
}

/* The tile builtins whose lowering the adjoint differentiates, as Warp
 * 1.19's tile adjoints do (Note [tile adjoints] in ir/adjoint.c). */
static bool tile_has_adjoint(const char *w) {
  static const char *const ok[] = {
      "tile_load", "tile_store", "tile_atomic_add", "tile_zeros",
      "tile_ones", "tile_empty", "tile_map", "tile_sum",
      "tile_extract", "tile_matmul", "tile_transpose", "tile_broadcast",
      "tile_arange", "tile_argmax", "tile_argmin", "tile_astype",
      "tile_reshape", "tile_squeeze", "tile_view", "tile_load_indexed",
      "tile_store_indexed", "tile_atomic_add_indexed", "tile_dot",
      "tile_axpy", "tile_randf", "tile_randi", "tile_assign", "tile", "untile", "tile_scatter_add",
      "tile_scatter_masked", NULL};
  for (int i = 0; ok[i]; i++)
    if (!strcmp(w, ok[i]))
      return true;
  return false;
}

/* Whether r = wp.tile_full(...) (call) is a constant to the adjoint: its
 * value a literal, or its elements integers.  Warp 1.19's tile_full
 * gives its value no gradient (Note [tile adjoints] in ir/adjoint.c). */
static bool tile_full_constant(Ctx *X, Node *call, IrExpr *r) {
  const Type *et = r->ty->elem;
  if (et->kind != TY_STRUCT && !sc_is_float(et->sc))
    return true;
  Node *vn = arg_of(X, call, 1, "value", kw_make, "wp.tile_full");
  return check_is_literal(vn);
}

/* wp.W(...) when W is a tile builtin this stage has, else NULL; the
 * statements lowering one without an adjoint are marked so. */
IrExpr *check_tile_call(Ctx *X, Node *call, const char *w) {
  IrStmt **from = X->tail;
  IrExpr *r = tile_builtin(X, call, w);
  bool full = !strcmp(w, "tile_full");
  if (!r || tile_has_adjoint(w) || (full && tile_full_constant(X, call, r)))
    return r;
  const char *name =
      full ? "wp.tile_full of a value that is not a literal (Warp 1.19 "
             "gives the value no gradient)"
      : !strcmp(w, "tile_from_thread")
          ? "wp.tile_from_thread (Warp 1.19 gives the value no gradient)"
          : arena_printf(X->C, "wp.%s", w);
  for (IrStmt *s = *from; s; s = s->next)
    s->noadj = name;
  return r;
}
