/*
 * check_fixed.c -- fixed-size local arrays (issue #10): `wp.zeros(shape=
 * (2, 3), dtype=int)` inside a kernel or @wp.func, Warp's fixedarray.
 *
 * Such an array is an ordinary kern array in everything but where its data
 * lives.  Its storage is a hidden local that the emitters declare as a C
 * array of fixed_n elements (Type.fixed_n); the variable the program names
 * is a view (Note [views] in ir/ir.h) onto that storage whose type is
 * marked priv, so element reads and writes, arr[i][j], sub-arrays, slices,
 * .shape and len() are the array code kern already has, and a @wp.func
 * taking wp.array2d[int] is instantiated once more for the private view
 * (check_generic.c), which only OpenCL spells differently (a __private
 * pointer instead of a __global one).  Each evaluation of wp.zeros() zeroes
 * the storage again, as Warp's fixedarray_t constructor does.
 *
 * A function returning a fixed array returns it by value in Warp.  Here
 * the caller passes storage of the array's size as a hidden last
 * parameter, k_fret, and the callee's `return arr` copies arr into it and
 * returns a view of it; the result's shape must be known when the function
 * is compiled (the whole array of a wp.zeros(), not a sub-array of one).
 *
 * Limits: at most 4 dimensions, and at most FIXED_MAX_BYTES bytes per
 * array, since the storage is on the CPU thread's stack, in a GPU thread's
 * local memory and in an OpenCL work-item's private memory.  For the same
 * reason the arrays a kernel can have on its stack at once -- its own and
 * those of the deepest chain of functions it calls -- are bounded by the
 * same total (Note [fixed array frames]).
 */
#include <string.h>

#include "check.h"

/* Note [fixed-size array limit]
 * Where a kernel's fixed-size arrays and tiles live, and what each target
 * can hold (measured 2026-11-29 on this project's machines):
 *   - CPU: the stack of the thread running the kernel.  The runtime's own
 *     threads get 8 MiB (Note [worker stacks] in runtime/context.c), as a
 *     Linux main thread does; 448 KiB of tiles ran right there.
 *   - CUDA: a thread's local memory, at most 512 KiB a thread (the
 *     hardware's limit), shared with the compiler's own spills.
 *   - OpenCL on PoCL: a work-item's private memory, which PoCL keeps on
 *     the stack of the thread running the work-group, once per work-item
 *     of the group: 448 KiB ran right with block_dim 1, but with 256
 *     work-items a group already crashed at 32 KiB a work-item (a PoCL
 *     stack overflow that no per-kernel bound here can prevent: it
 *     scales with the block size, which is known only at launch).
 *   - Vulkan: a frame per invocation in a device buffer (Note [vulkan
 *     scratch frame] in emit/vk_fixed.c), so no size limit of its own;
 *     but lavapipe ends a loop after about 65535 iterations (an inner
 *     loop's counted over the outer loop's), which the loops over a
 *     64x64 tile pass, so such tiles give wrong results there
 *     (tests/conformance/tile_large.py skips it).
 * Warp 1.19 runs its own tile tests on its CPU with 64 KiB tiles and two
 * or three of them in a kernel (a 64x64 FFT of vec2d, a 4-d load), so the
 * old 64 KiB bound refused them.  The bound is 256 KiB a kernel, the
 * callees' arrays included: half of CUDA's local memory, leaving the rest
 * to its spills, and a 32nd of the CPU threads' stacks.  One number for
 * every target keeps the checker target-independent (a kernel compiles or
 * not the same way everywhere). */
enum { FIXED_MAX_BYTES = CHECK_FIXED_MAX_BYTES };

/* A view of dimension ndim onto a fixed array's data of element type elem,
 * with the shape dims when known (NULL: not known). */
const Type *check_fixed_view_type(Ctx *X, const Type *elem, int ndim,
                                  const int *dims) {
  Type *t = (Type *)ty_array_view(X->C, elem, ndim);
  t->priv = true;
  for (int k = 0; k < ndim && dims; k++)
    t->fdims[k] = dims[k];
  return t;
}

/* The view type that make_view and check_full_view give a view of src:
 * the same memory, so private when src's data is. */
const Type *check_view_type_of(Ctx *X, const Type *src, int ndim) {
  if (!src->priv)
    return ty_array_view(X->C, src->elem, ndim);
  return check_fixed_view_type(X, src->elem, ndim,
                               ndim == src->ndim && src->fdims[0] ? src->fdims
                                                                  : NULL);
}

/* The number of elements of a fixed array type with a known shape, else
 * 0. */
int check_fixed_count(const Type *t) {
  if (t->kind != TY_ARRAY || !t->priv || !t->fdims[0])
    return 0;
  int n = 1;
  for (int k = 0; k < t->ndim; k++)
    n *= t->fdims[k];
  return n;
}

/* Hidden storage for n elements of elem. */
static IrVar *storage(Ctx *X, const Type *elem, int n, Pos pos) {
  Type *st = (Type *)ty_array(X->C, elem, 1);
  st->fixed_n = n;
  st->priv = true;
  Local *l = check_add_hidden_local(X, "fixed", st, pos);
  check_def_set(X, X->nlocals - 1);
  l->var->nassign++;
  return l->var;
}

/* The shape= of wp.zeros() or wp.fixedarray(): an integer constant or a
 * tuple of them, into dims; returns the number of dimensions. */
static int const_shape(Ctx *X, Node *s, int *dims, const char *name) {
  Node *one[1] = {s};
  Node *items = s->kind == N_TUPLE ? s->args : NULL;
  int n = s->kind == N_TUPLE ? check_count_args(items) : 1;
  if (n < 1 || n > 4)
    ERR(s->pos, "%s(): a fixed-size array has 1 to 4 dimensions, got %d",
        name, n);
  Node *a = items ? items : one[0];
  for (int k = 0; k < n; k++, a = a->next) {
    Node *bad = check_not_constant(X, a);
    IrExpr *e = bad ? NULL : check_expr(X, a);
    if (!e || e->kind != E_CONST || !ty_is_int(e->ty))
      ERR(a->pos, "%s(): the shape of an array made in a kernel must be an "
                  "integer constant (Warp: \"the `shape` argument must be "
                  "specified as a constant when zero-initializing an "
                  "array\")", name);
    int64_t v = sc_bits(e->ty->sc) == 32 ? (int32_t)(uint32_t)e->ival
                                         : (int64_t)e->ival;
    if (v < 1)
      ERR(a->pos, "%s(): dimension %d of a fixed-size array must be at "
                  "least 1, got %lld", name, k, (long long)v);
    if (v > FIXED_MAX_BYTES)
      ERR(a->pos, "%s(): dimension %d of a fixed-size array is %lld, too "
                  "large: kern allows at most %d bytes per array (it lives "
                  "on the thread's stack or in its private memory)",
          name, k, (long long)v, FIXED_MAX_BYTES);
    dims[k] = (int)v;
    if (!items)
      break;
  }
  return n;
}

/* shape= and dtype= of wp.zeros(shape, dtype) / wp.fixedarray(...), as a
 * fixed view type. */
static const Type *fixed_type(Ctx *X, Node *call, const char *name) {
  Node *shape = NULL, *dtype = NULL;
  int np = check_count_args(call->args);
  if (np > 2)
    ERR(call->pos, "%s() takes shape and dtype, got %d arguments", name, np);
  if (np >= 1)
    shape = call->args;
  if (np >= 2)
    dtype = call->args->next;
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    if (!strcmp(kw->name, "shape") && !shape)
      shape = kw->a;
    else if (!strcmp(kw->name, "dtype") && !dtype)
      dtype = kw->a;
    else
      ERR(kw->pos, "%s() in a kernel takes shape= and dtype= only, not "
                   "'%s=' (the array is made on the thread running it)",
          name, kw->name);
  }
  if (!shape)
    ERR(call->pos, "%s() needs a shape", name);
  int dims[4] = {0};
  int nd = const_shape(X, shape, dims, name);
  if (!dtype)
    ERR(call->pos, "%s() in a kernel needs a dtype (Warp has no default "
                   "there)", name);
  const Type *et = check_type_expr(X, dtype, "dtype");
  if (!check_is_valuelike(et) || ty_has_array(et))
    ERR(dtype->pos, "%s(): the elements of a fixed-size array are scalars, "
                    "vectors, matrices or structs without array fields, not "
                    "%s", name, TN(et));
  /* In double: four dimensions of up to FIXED_MAX_BYTES each overflow an
   * int64_t, and the message needs the size only roughly beyond 2^53. */
  double n = 1;
  for (int k = 0; k < nd; k++)
    n *= dims[k];
  if (n * (double)ty_size(et) > FIXED_MAX_BYTES)
    ERR(shape->pos, "%s(): a fixed-size array of %.0f %s is %.0f bytes, too "
                    "large: kern allows at most %d bytes per array (it lives "
                    "on the thread's stack or in its private memory)", name,
        n, TN(et), n * (double)ty_size(et), FIXED_MAX_BYTES);
  return check_fixed_view_type(X, et, nd, dims);
}

/* The type wp.fixedarray(shape=..., dtype=...) names (a return annotation). */
const Type *check_fixed_annot(Ctx *X, Node *n) {
  return fixed_type(X, n, "wp.fixedarray");
}

/* A zeroed array of type t over new storage. */
static IrExpr *zeros_of(Ctx *X, const Type *t, Pos pos) {
  int n = check_fixed_count(t);
  IrVar *st = storage(X, t->elem, n, pos);
  IrExpr *e = ir_expr(X->C, E_CALL, t);
  e->bi = BI_FIXED_ZEROS;
  e->nargs = 1;
  e->args = arena_alloc(X->C, sizeof(IrExpr *));
  e->args[0] = ir_ref(X->C, st);
  e->pos = pos;
  return e;
}

/* A zeroed fixed array (or tile) of type t over new storage
 * (check_tile.c). */
IrExpr *check_fixed_new(Ctx *X, const Type *t, Pos pos) {
  return zeros_of(X, t, pos);
}

/* wp.zeros(shape=..., dtype=...) in a kernel or function. */
IrExpr *check_fixed_zeros(Ctx *X, Node *call) {
  return zeros_of(X, fixed_type(X, call, "wp.zeros"), call->pos);
}

/* `return arr` of a fixed array: copied into the caller's storage (the
 * hidden parameter k_fret, made at the first such return). */
IrExpr *check_fixed_return(Ctx *X, IrExpr *v, Pos pos) {
  int n = check_fixed_count(v->ty);
  if (!n)
    ERR(pos, "a @wp.func can return a fixed-size array only whole (a "
             "wp.zeros() array, not a sub-array or slice of one)");
  const Type *ret = X->f->ret;
  if (ret && ret->kind == TY_ARRAY && !ret->priv)
    ERR(pos, "'%s' returns a fixed-size array but its return type is "
             "annotated as %s (write wp.fixedarray(shape=..., dtype=...))",
        X->f->name, TN(ret));
  IrVar *fret = NULL;
  for (IrVar *p = X->irf->params; p; p = p->next)
    if (!strcmp(p->name, "k_fret"))
      fret = p;
  if (!fret) {
    Type *st = (Type *)ty_array(X->C, v->ty->elem, 1);
    st->fixed_n = n;
    st->priv = true;
    fret = ir_var(X->C, X->irf, "k_fret", st);
    ir_var_unlink(X->irf, fret);
    fret->is_param = true;
    fret->name = "k_fret";
    fret->index = X->f->nparams;
    IrVar **tail = &X->irf->params;
    while (*tail)
      tail = &(*tail)->next;
    *tail = fret;
    X->irf->nparams++;
  } else if (fret->ty->fixed_n != n || !ty_eq(fret->ty->elem, v->ty->elem)) {
    ERR(pos, "'%s' returns fixed-size arrays of different sizes or types",
        X->f->name);
  }
  v = check_full_view(X, check_array_var(X, v, pos), pos);
  IrExpr *e = ir_expr(X->C, E_CALL, v->ty);
  e->bi = BI_FIXED_COPY;
  e->nargs = 2;
  e->args = arena_alloc(X->C, sizeof(IrExpr *) * 2);
  e->args[0] = ir_ref(X->C, fret);
  e->args[1] = v;
  e->pos = pos;
  return e;
}

/* A call of g, which returns a fixed array: the caller's storage for the
 * result goes last. */
void check_fixed_call(Ctx *X, IrExpr *e, const Type *ret, Pos pos) {
  int n = check_fixed_count(ret);
  if (!n)
    return;
  IrVar *st = storage(X, ret->elem, n, pos);
  IrExpr **args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(e->nargs + 1));
  if (e->nargs)
    memcpy(args, e->args, sizeof(IrExpr *) * (size_t)e->nargs);
  args[e->nargs++] = ir_ref(X->C, st);
  e->args = args;
}

/* wp.atomic_*() on a fixed array: the array belongs to the thread, so the
 * update is a plain read, compute and store (GPU atomics do not work on a
 * thread's local memory, and OpenCL has none on private memory); the
 * result is the old value, as an atomic's is. */
IrExpr *check_fixed_atomic(Ctx *X, IrExpr *e, Pos pos) {
  if (X->no_hoist)
    ERR(pos, "an atomic on a fixed-size local array cannot be used in a "
             "loop condition or a conditionally evaluated operand; assign "
             "its result to a variable first");
  const Type *et = e->ty;
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = check_in_temp(X, e->args[i], "idx", pos);
  IrExpr *cmp = e->b ? check_in_temp(X, e->b, "cmp", pos) : NULL;
  IrExpr *v = check_in_temp(X, e->c, "val", pos);
  IrExpr *ld = ir_expr(X->C, E_LOAD, et);
  ld->var = e->var;
  ld->args = e->args;
  ld->nargs = e->nargs;
  ld->pos = e->pos;
  /* a fresh temporary: the store below changes the element */
  Local *ot = check_add_hidden_local(X, "old", et, pos);
  check_def_set(X, X->nlocals - 1);
  ot->var->nassign++;
  IrStmt *as = ir_stmt(X->C, S_ASSIGN, pos);
  as->var = ot->var;
  as->a = ld;
  check_emit(X, as);
  IrExpr *old = ir_ref(X->C, ot->var);
  IrExpr *nv;
  switch (e->bi) {
  case BI_ATOMIC_ADD: nv = check_binop(X, OP_ADD, old, v, pos); break;
  case BI_ATOMIC_SUB: nv = check_binop(X, OP_SUB, old, v, pos); break;
  case BI_ATOMIC_AND: nv = check_binop(X, OP_BITAND, old, v, pos); break;
  case BI_ATOMIC_OR: nv = check_binop(X, OP_BITOR, old, v, pos); break;
  case BI_ATOMIC_XOR: nv = check_binop(X, OP_BITXOR, old, v, pos); break;
  case BI_ATOMIC_MIN: nv = ir_call2(X->C, BI_MIN, et, old, v); break;
  case BI_ATOMIC_MAX: nv = ir_call2(X->C, BI_MAX, et, old, v); break;
  case BI_ATOMIC_EXCH: nv = v; break;
  default: { /* compare-and-swap */
    nv = ir_expr(X->C, E_SELECT, et);
    nv->a = check_compare(X, OP_EQ, old, cmp, pos);
    nv->b = v;
    nv->c = old;
    break;
  }
  }
  IrStmt *st = ir_stmt(X->C, S_STORE, pos);
  st->var = e->var;
  st->args = e->args;
  st->nargs = e->nargs;
  st->c = nv;
  check_emit(X, st);
  return old;
}

/* Note [fixed array frames]
 * Each fixed-size array is at most FIXED_MAX_BYTES, but a kernel may make
 * many, and the functions it calls make theirs on top: 200 arrays of 64 KiB
 * compiled and then overflowed the CPU worker thread's stack (SIGSEGV, in
 * checked mode too), and PoCL took minutes over 300 of them.  So the bytes
 * a call keeps on the stack -- the function's own arrays (every one is a
 * local of the whole function, however its scopes nest) plus the largest
 * such total among the functions it calls -- are bounded by the same
 * FIXED_MAX_BYTES for every kernel and function.  A GPU thread's local
 * memory and an OpenCL work-item's private memory hold the same arrays, so
 * the one bound serves every target (Note [fixed-size array limit]).  The
 * error points at the wp.zeros() that goes over the bound, or at the call
 * that does. */

typedef struct Frame {
  Compiler *C;
  IrFunc *f;
  int64_t own;  /* the function's own arrays, all of them */
  int64_t run;  /* own arrays met so far in a walk */
  const IrExpr *over; /* where the bound is crossed */
  int64_t over_bytes;
} Frame;

static int64_t storage_bytes(const IrVar *v) {
  return v && v->ty->fixed_n > 0
             ? (int64_t)v->ty->fixed_n * (int64_t)ty_size(v->ty->elem)
             : 0;
}

static int64_t frame_of(Compiler *C, IrFunc *f);

/* The storage a call passes for a fixed-size result (check_fixed_call). */
static const IrVar *call_storage(const IrExpr *e) {
  if (e->kind != E_FCALL || e->nargs == 0) return NULL;
  const IrExpr *last = e->args[e->nargs - 1];
  return last->kind == E_VAR && !last->var->is_param &&
                 last->var->ty->fixed_n > 0
             ? last->var
             : NULL;
}

static void frame_expr(Frame *F, const IrExpr *e) {
  if (!e || F->over) return;
  frame_expr(F, e->a);
  frame_expr(F, e->b);
  frame_expr(F, e->c);
  for (int i = 0; i < e->nargs; i++) frame_expr(F, e->args[i]);
  if (F->over) return;
  const IrVar *st = NULL;
  if (e->kind == E_CALL && e->bi == BI_FIXED_ZEROS && e->nargs == 1 &&
      e->args[0]->kind == E_VAR)
    st = e->args[0]->var;
  else
    st = call_storage(e);
  F->run += storage_bytes(st);
  if (F->run > FIXED_MAX_BYTES && F->own > FIXED_MAX_BYTES) {
    F->over = e;
    F->over_bytes = F->own;
    return;
  }
  if (e->kind == E_FCALL && e->fn &&
      F->own + frame_of(F->C, e->fn) > FIXED_MAX_BYTES) {
    F->over = e;
    F->over_bytes = F->own + e->fn->fixed_frame;
  }
}

static void frame_stmts(Frame *F, const IrStmt *s) {
  for (; s && !F->over; s = s->next) {
    frame_expr(F, s->a);
    frame_expr(F, s->b);
    frame_expr(F, s->c);
    for (int i = 0; i < s->nargs; i++) frame_expr(F, s->args[i]);
    frame_stmts(F, s->body);
    frame_stmts(F, s->orelse);
  }
}

/* The largest callee frame among the calls in e / s. */
static int64_t callee_max(Compiler *C, const IrExpr *e) {
  if (!e) return 0;
  int64_t m = 0, t;
  if (e->kind == E_FCALL && e->fn) m = frame_of(C, e->fn);
  if ((t = callee_max(C, e->a)) > m) m = t;
  if ((t = callee_max(C, e->b)) > m) m = t;
  if ((t = callee_max(C, e->c)) > m) m = t;
  for (int i = 0; i < e->nargs; i++)
    if ((t = callee_max(C, e->args[i])) > m) m = t;
  return m;
}

static int64_t callee_max_stmts(Compiler *C, const IrStmt *s) {
  int64_t m = 0, t;
  for (; s; s = s->next) {
    const IrExpr *es[3] = {s->a, s->b, s->c};
    for (int i = 0; i < 3; i++)
      if ((t = callee_max(C, es[i])) > m) m = t;
    for (int i = 0; i < s->nargs; i++)
      if ((t = callee_max(C, s->args[i])) > m) m = t;
    if ((t = callee_max_stmts(C, s->body)) > m) m = t;
    if ((t = callee_max_stmts(C, s->orelse)) > m) m = t;
  }
  return m;
}

static int64_t frame_of(Compiler *C, IrFunc *f) {
  if (f->fixed_state == 2) return f->fixed_frame;
  if (f->fixed_state == 1) return 0; /* a cycle: the checker refuses those */
  f->fixed_state = 1;
  int64_t own = 0;
  for (IrVar *v = f->locals; v; v = v->next) own += storage_bytes(v);
  int64_t callee = callee_max_stmts(C, f->body);
  f->fixed_frame = own + callee;
  f->fixed_state = 2;
  if (f->fixed_frame <= FIXED_MAX_BYTES) return f->fixed_frame;
  Frame F = {C, f, own, 0, NULL, 0};
  frame_stmts(&F, f->body);
  const char *what = f->is_kernel ? "kernel" : "function";
  if (!F.over)
    diag_error(C, f->pos, "the fixed-size arrays of %s '%s' and the "
               "functions it calls take %lld bytes; kern allows at most %d "
               "bytes of them per kernel on every target (they live on the "
               "thread's stack, in CUDA's local memory of 512 KiB a thread "
               "or in OpenCL's private memory)",
               what, f->name, (long long)f->fixed_frame, FIXED_MAX_BYTES);
  if (F.over->kind == E_FCALL && F.over_bytes != own)
    diag_error(C, F.over->pos, "calling '%s' brings the fixed-size arrays "
               "of %s '%s' and the functions it calls to %lld bytes; kern "
               "allows at most %d bytes of them per kernel on every target "
               "(they live on the thread's stack, in CUDA's local memory of "
               "512 KiB a thread or in OpenCL's private memory)",
               F.over->fn->name, what, f->name, (long long)F.over_bytes,
               FIXED_MAX_BYTES);
  diag_error(C, F.over->pos, "the fixed-size arrays of %s '%s' take %lld "
             "bytes together; kern allows at most %d bytes of them per kernel "
             "on every target, the functions it calls included (they live "
             "on the thread's stack, in CUDA's local memory of 512 KiB a "
             "thread or in OpenCL's private memory)",
             what, f->name, (long long)own, FIXED_MAX_BYTES);
}

/* Note [fixed array frames]: every function and kernel, callees first. */
void check_fixed_frames(Compiler *C, IrModule *m) {
  for (IrFunc *f = m->funcs; f; f = f->next) frame_of(C, f);
  for (IrFunc *f = m->kernels; f; f = f->next) frame_of(C, f);
}
