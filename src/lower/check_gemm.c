/*
 * check_gemm.c -- recognises Warp's tile GEMM kernel (issue #24) so that
 * the CUDA emitter can give it a tensor-core schedule of its own (Note
 * [tile GEMM] in emit/gemm.c).
 *
 * Note [GEMM recognition]: the kernel is matched on its syntax tree, once
 * it has been checked (so every name and type in it is known good), and
 * only in the one shape Warp's tile GEMM is written in:
 *
 *     i, j = wp.tid()
 *     acc = wp.tile_zeros(shape=(TM, TN), dtype=wp.float32)   (float64)
 *     count = int(A.shape[1] / TK)          (any side-effect-free names)
 *     for k in range(count):                (or range(0, count))
 *         a = wp.tile_load(A, shape=(TM, TK), offset=(i * TM, k * TK))
 *         b = wp.tile_load(B, shape=(TK, TN), offset=(k * TK, j * TN))
 *         wp.tile_matmul(a, b, acc)
 *     [bt = wp.tile_load(bias, shape=(TN,), offset=(j * TN,))]
 *     [t = acc + wp.tile_broadcast(bt, shape=(TM, TN))]  (or acc += ...)
 *     [t = wp.tile_map(f, t)]               (f: a @wp.func float -> float)
 *     wp.tile_store(C, t | wp.tile_astype(t, C's dtype), offset=(i * TM, j * TN))
 *
 * with A and B float16 (or both bfloat16) and the tile shape one the
 * tensor-core schedule takes (TM 64 or 128, TN a multiple of 64 up to
 * 256, TK 64), or A and B float32 (float64, with a float64 accumulator,
 * bias and map) and 128 x 128 tiles, which the SIMT schedule takes.
 * Anything else -- another statement, another offset, alpha, a second
 * use of a name -- leaves the kernel to the ordinary tile lowering, which
 * compiles it on every target anyway: recognition only adds a second,
 * faster kernel beside it (IrFunc.gemm), never changes what the first
 * computes.  The match needs no new rules about what a kernel means:
 * each block (i, j) computes tile (i, j) of A @ B over the first
 * count * TK columns of A, and that is what the schedule computes.
 */
#include <string.h>

#include "check.h"

typedef struct Bind {
  const char *name;
  Node *value; /* NULL: assigned more than once */
} Bind;

typedef struct Match {
  Compiler *C;
  Func *f;
  const char *ti, *tj; /* the names of wp.tid()'s two values */
  const char *acc;
  Bind binds[16];
  int nbinds;
  IrGemm g;
} Match;

static bool is_wp(const Match *M, const Node *n) {
  if (!n || n->kind != N_NAME)
    return false;
  for (int i = 0; i < M->C->mod->nwp; i++)
    if (strcmp(M->C->mod->wps[i], n->name) == 0)
      return true;
  return false;
}

/* A call of wp.NAME(...). */
static bool wp_call(const Match *M, const Node *n, const char *name) {
  return n && n->kind == N_CALL && n->a && n->a->kind == N_ATTR &&
         is_wp(M, n->a->a) && strcmp(n->a->name, name) == 0;
}

static Node *kwarg(const Node *call, const char *name) {
  for (Node *k = call->kwargs; k; k = k->next)
    if (k->name && strcmp(k->name, name) == 0)
      return k->a;
  return NULL;
}

static int nargs(const Node *call) {
  int n = 0;
  for (Node *a = call->args; a; a = a->next)
    n++;
  return n;
}

static Node *arg(const Node *call, int i) {
  Node *a = call->args;
  while (a && i-- > 0)
    a = a->next;
  return a;
}

/* The call's argument at position pos or named name, not both. */
static Node *arg_or_kw(const Node *call, int pos, const char *name) {
  Node *k = kwarg(call, name), *p = arg(call, pos);
  return k && p ? NULL : k ? k : p;
}

/* Only these keyword arguments (storage= changes no value). */
static bool kwargs_within(const Node *call, const char *const *ok) {
  for (Node *k = call->kwargs; k; k = k->next) {
    bool found = false;
    for (int i = 0; ok[i]; i++)
      found |= k->name && strcmp(k->name, ok[i]) == 0;
    if (!found)
      return false;
  }
  return true;
}

static bool is_name(const Node *n, const char *name) {
  return n && n->kind == N_NAME && name && strcmp(n->name, name) == 0;
}

static bool is_local(const Match *M, const char *name) {
  for (Sym *s = M->f->locals; s; s = s->next)
    if (strcmp(s->name, name) == 0)
      return true;
  return false;
}

/* An integer known when compiling: a literal or a module constant. */
static bool const_int(const Match *M, const Node *n, int *v) {
  if (n && n->kind == N_INT) {
    *v = (int)n->ival;
    return n->ival < 1u << 30;
  }
  if (!n || n->kind != N_NAME || is_local(M, n->name))
    return false;
  Sym *s = names_get(&M->C->mod->const_names, n->name);
  if (!s || !s->value || s->value->kind != N_INT || s->value->ival >= 1u << 30)
    return false;
  *v = (int)s->value->ival;
  return true;
}

/* The parameter a name is, or -1 (a local of that name hides it). */
static int param_of(const Match *M, const Node *n) {
  if (!n || n->kind != N_NAME || is_local(M, n->name))
    return -1;
  for (int i = 0; i < M->f->nparams; i++)
    if (strcmp(M->f->params[i].name, n->name) == 0)
      return i;
  return -1;
}

static Node *bound(const Match *M, const Node *n) {
  if (!n || n->kind != N_NAME)
    return NULL;
  for (int i = 0; i < M->nbinds; i++)
    if (strcmp(M->binds[i].name, n->name) == 0)
      return M->binds[i].value;
  return NULL;
}

/* var * scale or scale * var; with scale 0, the literal 0. */
static bool scaled(const Match *M, const Node *e, const char *var, int scale) {
  int v;
  if (e && e->kind == N_BINOP && e->op == OP_MUL)
    return (is_name(e->a, var) && const_int(M, e->b, &v) && v == scale) ||
           (is_name(e->b, var) && const_int(M, e->a, &v) && v == scale);
  return false;
}

/* A tuple of n items (or, for n == 1, the item alone). */
static Node *tuple_item(const Node *t, int n, int i) {
  if (t && t->kind == N_TUPLE) {
    int k = 0;
    for (Node *a = t->args; a; a = a->next)
      k++;
    return k == n ? arg(t, i) : NULL;
  }
  return n == 1 && i == 0 ? (Node *)t : NULL;
}

static bool shape_is(const Match *M, const Node *t, int n, const int *want) {
  for (int i = 0; i < n; i++) {
    int v;
    if (!const_int(M, tuple_item(t, n, i), &v) || v != want[i])
      return false;
  }
  return true;
}

/* wp.tile_load(P, shape=S, offset=O): P's index, with S checked. */
static int tile_load(const Match *M, const Node *c, int nd, const int *shape,
                     Node **off) {
  static const char *const ok[] = {"shape", "offset", "storage", NULL};
  if (!wp_call(M, c, "tile_load") || nargs(c) > 3 || !kwargs_within(c, ok))
    return -1;
  int p = param_of(M, arg(c, 0));
  Node *s = arg_or_kw(c, 1, "shape");
  *off = arg_or_kw(c, 2, "offset");
  if (p < 0 || !s || !*off || !shape_is(M, s, nd, shape))
    return -1;
  const Type *t = M->f->params[p].ty;
  return t && t->kind == TY_ARRAY && t->ndim == nd && !t->strided &&
                 !t->indexed && t->elem->kind == TY_SCALAR
             ? p
             : -1;
}

static kern_scalar param_sc(const Match *M, int p) {
  return M->f->params[p].ty->elem->sc;
}

/* `NAME = value` with one plain name as the target. */
static const char *assign_to(const Node *s) {
  if (s->kind != N_ASSIGN || !s->args || s->args->next ||
      s->args->kind != N_NAME)
    return NULL;
  return s->args->name;
}

/* A prologue value: names, integers, .shape[k], arithmetic and int(). */
static bool pure(const Node *e) {
  if (!e)
    return true;
  switch (e->kind) {
  case N_INT: case N_FLOAT: case N_NAME: return true;
  case N_BINOP: return pure(e->a) && pure(e->b);
  case N_SUBSCRIPT:
    return e->a && e->a->kind == N_ATTR && strcmp(e->a->name, "shape") == 0 &&
           e->a->a && e->a->a->kind == N_NAME && e->args && !e->args->next &&
           e->args->kind == N_INT;
  case N_CALL:
    return e->a && e->a->kind == N_NAME && strcmp(e->a->name, "int") == 0 &&
           nargs(e) == 1 && !e->kwargs && pure(e->args);
  default: return false;
  }
}

static void bind(Match *M, const char *name, Node *value) {
  for (int i = 0; i < M->nbinds; i++)
    if (strcmp(M->binds[i].name, name) == 0) {
      M->binds[i].value = NULL;
      return;
    }
  if (M->nbinds < (int)(sizeof M->binds / sizeof M->binds[0]))
    M->binds[M->nbinds++] = (Bind){name, value};
}

/* The loop's count: int(S / TK) or S // TK, S being P.shape[k] (or a
 * name for one); fills g.kparam and g.kaxis. */
static bool loop_count(Match *M, const Node *e) {
  if (e && e->kind == N_NAME)
    e = bound(M, e);
  if (!e)
    return false;
  const Node *q = e;
  if (e->kind == N_CALL && e->a->kind == N_NAME &&
      strcmp(e->a->name, "int") == 0 && nargs(e) == 1) {
    q = e->args;
    if (q->kind != N_BINOP || q->op != OP_DIV)
      return false;
  } else if (e->kind != N_BINOP || e->op != OP_FLOORDIV) {
    return false;
  }
  if (!const_int(M, q->b, &M->g.tk) || M->g.tk <= 0)
    return false;
  const Node *s = q->a->kind == N_NAME ? bound(M, q->a) : q->a;
  if (!s || s->kind != N_SUBSCRIPT || s->a->kind != N_ATTR)
    return false;
  int p = param_of(M, s->a->a);
  if (p < 0 || M->f->params[p].ty->kind != TY_ARRAY ||
      (int)s->args->ival >= M->f->params[p].ty->ndim)
    return false;
  M->g.kparam = p;
  M->g.kaxis = (int)s->args->ival;
  return true;
}

/* The loop body: the two loads and the product into acc. */
static bool loop_body(Match *M, const Node *body, const char *k) {
  const char *na = NULL, *nb = NULL;
  int shape_a[2] = {M->g.tm, M->g.tk}, shape_b[2] = {M->g.tk, M->g.tn};
  const Node *s = body;
  for (int i = 0; i < 2; i++, s = s->next) {
    const char *name = s ? assign_to(s) : NULL;
    Node *off;
    if (!name)
      return false;
    int p;
    if ((p = tile_load(M, s->a, 2, shape_a, &off)) >= 0 && !na &&
        scaled(M, tuple_item(off, 2, 0), M->ti, M->g.tm) &&
        scaled(M, tuple_item(off, 2, 1), k, M->g.tk)) {
      M->g.a = p;
      na = name;
    } else if ((p = tile_load(M, s->a, 2, shape_b, &off)) >= 0 && !nb &&
               scaled(M, tuple_item(off, 2, 0), k, M->g.tk) &&
               scaled(M, tuple_item(off, 2, 1), M->tj, M->g.tn)) {
      M->g.b = p;
      nb = name;
    } else {
      return false;
    }
  }
  if (!s || s->next || s->kind != N_EXPR ||
      !wp_call(M, s->a, "tile_matmul") || nargs(s->a) != 3 || s->a->kwargs)
    return false;
  return is_name(arg(s->a, 0), na) && is_name(arg(s->a, 1), nb) &&
         is_name(arg(s->a, 2), M->acc) && strcmp(na, nb) != 0;
}

/* A @wp.func of one float32 parameter returning float32, not overloaded. */
static const char *map_func(const Match *M, const Node *n) {
  if (!n || n->kind != N_NAME || is_local(M, n->name))
    return NULL;
  Func *fn = names_get(&M->C->mod->func_names, n->name);
  if (!fn || fn->is_kernel || fn->overload || fn->generic || fn->native ||
      fn->nparams != 1 || !fn->ir || !fn->params[0].ty ||
      !ty_eq(fn->params[0].ty, ty_scalar(M->g.acc)) || !fn->ret ||
      !ty_eq(fn->ret, ty_scalar(M->g.acc)))
    return NULL;
  return ((IrFunc *)fn->ir)->symbol;
}

/* After the loop: the optional bias and map, then the store. */
static bool epilogue(Match *M, const Node *s) {
  const char *cur = M->acc, *bias_tile = NULL;
  M->g.bias = -1;
  for (; s; s = s->next) {
    const char *name = assign_to(s);
    Node *v = s->a, *off;
    int shape_bias[1] = {M->g.tn}, tile2[2] = {M->g.tm, M->g.tn};
    if (name && !bias_tile && M->g.bias < 0 && !M->g.map &&
        (M->g.bias = tile_load(M, v, 1, shape_bias, &off)) >= 0) {
      if (!scaled(M, tuple_item(off, 1, 0), M->tj, M->g.tn) ||
          param_sc(M, M->g.bias) != M->g.acc)
        return false;
      bias_tile = name;
    } else if (bias_tile && *bias_tile && !M->g.map &&
               ((name && v->kind == N_BINOP && v->op == OP_ADD) ||
                (s->kind == N_AUGASSIGN && s->op == OP_ADD &&
                 is_name(s->a, cur)))) {
      /* t = cur + wp.tile_broadcast(bt, ...), or cur += ... */
      Node *x = s->kind == N_AUGASSIGN ? s->b
                : is_name(v->a, cur)   ? v->b
                : is_name(v->b, cur)   ? v->a
                                       : NULL;
      if (!x || !wp_call(M, x, "tile_broadcast") || nargs(x) > 2 ||
          !is_name(arg(x, 0), bias_tile) ||
          !shape_is(M, arg_or_kw(x, 1, "shape"), 2, tile2))
        return false;
      bias_tile = "";
      cur = name ? name : cur;
    } else if (name && wp_call(M, v, "tile_map") && nargs(v) == 2 &&
               !v->kwargs && is_name(arg(v, 1), cur) && !M->g.map &&
               (!bias_tile || !*bias_tile)) {
      if (!(M->g.map = map_func(M, arg(v, 0))))
        return false;
      cur = name;
    } else if (!name && s->kind == N_EXPR && wp_call(M, v, "tile_store")) {
      static const char *const ok[] = {"offset", NULL};
      Node *t = arg(v, 1);
      M->g.c = param_of(M, arg(v, 0));
      off = arg_or_kw(v, 2, "offset");
      if (M->g.c < 0 || !t || !off || nargs(v) > 3 || !kwargs_within(v, ok) ||
          (bias_tile && *bias_tile) || s->next ||
          !scaled(M, tuple_item(off, 2, 0), M->ti, M->g.tm) ||
          !scaled(M, tuple_item(off, 2, 1), M->tj, M->g.tn))
        return false;
      const Type *ct = M->f->params[M->g.c].ty;
      if (ct->kind != TY_ARRAY || ct->ndim != 2 || ct->strided || ct->indexed)
        return false;
      M->g.out = param_sc(M, M->g.c);
      if (wp_call(M, t, "tile_astype") && nargs(t) == 2 && !t->kwargs)
        return is_name(arg(t, 0), cur) &&
               (M->g.out == KERN_SCALAR_FLOAT16 ||
                M->g.out == KERN_SCALAR_BFLOAT16);
      return is_name(t, cur) && M->g.out == M->g.acc;
    } else {
      return false;
    }
  }
  return false;
}

/* tile_zeros(shape=(TM, TN), dtype=float32): fills g.tm and g.tn. */
static bool zeros(Match *M, const Node *c) {
  static const char *const ok[] = {"shape", "dtype", "storage", NULL};
  if (!wp_call(M, c, "tile_zeros") || !kwargs_within(c, ok) || nargs(c) > 2)
    return false;
  Node *s = arg_or_kw(c, 0, "shape"), *d = arg_or_kw(c, 1, "dtype");
  if (d && d->kind == N_NAME && strcmp(d->name, "float") == 0)
    M->g.acc = KERN_SCALAR_FLOAT32;
  else if (d && d->kind == N_ATTR && is_wp(M, d->a) &&
           strcmp(d->name, "float32") == 0)
    M->g.acc = KERN_SCALAR_FLOAT32;
  else if (d && d->kind == N_ATTR && is_wp(M, d->a) &&
           strcmp(d->name, "float64") == 0)
    M->g.acc = KERN_SCALAR_FLOAT64;
  else
    return false;
  return s && const_int(M, tuple_item(s, 2, 0), &M->g.tm) &&
         const_int(M, tuple_item(s, 2, 1), &M->g.tn);
}

static bool match(Match *M) {
  const Node *s = M->f->body;
  while (s && (s->kind == N_PASS ||
               (s->kind == N_EXPR && s->a && s->a->kind == N_STR)))
    s = s->next;
  /* i, j = wp.tid() */
  if (!s || s->kind != N_ASSIGN || !s->args || s->args->next ||
      s->args->kind != N_TUPLE || !wp_call(M, s->a, "tid") || nargs(s->a))
    return false;
  Node *ti = tuple_item(s->args, 2, 0), *tj = tuple_item(s->args, 2, 1);
  if (!ti || !tj || ti->kind != N_NAME || tj->kind != N_NAME)
    return false;
  M->ti = ti->name;
  M->tj = tj->name;
  for (s = s->next; s && s->kind != N_FOR; s = s->next) {
    const char *name = assign_to(s);
    if (!name)
      return false;
    if (!M->acc && zeros(M, s->a))
      M->acc = name;
    else if (pure(s->a))
      bind(M, name, s->a);
    else
      return false;
  }
  if (!M->acc || !s || s->orelse || !s->b || s->b->kind != N_NAME)
    return false;
  const Node *r = s->a;
  if (!r || r->kind != N_CALL || r->a->kind != N_NAME ||
      strcmp(r->a->name, "range") != 0 || r->kwargs || nargs(r) < 1 ||
      nargs(r) > 2)
    return false;
  int start;
  if (nargs(r) == 2 && (!const_int(M, arg(r, 0), &start) || start != 0))
    return false;
  if (!loop_count(M, arg(r, nargs(r) - 1)) || !loop_body(M, s->body, s->b->name))
    return false;
  kern_scalar in = param_sc(M, M->g.a);
  bool lowp = in == KERN_SCALAR_FLOAT16 || in == KERN_SCALAR_BFLOAT16;
  if (param_sc(M, M->g.b) != in ||
      !(lowp || in == KERN_SCALAR_FLOAT32 || in == KERN_SCALAR_FLOAT64) ||
      M->g.acc != (in == KERN_SCALAR_FLOAT64 ? KERN_SCALAR_FLOAT64
                                             : KERN_SCALAR_FLOAT32))
    return false;
  M->g.in = in;
  return epilogue(M, s->next);
}

/* The shapes the schedules take (emit/gemm.c): tensor cores for 16-bit
 * inputs, Note [SIMT GEMM] for float32 and float64. */
static bool schedule_takes(const IrGemm *g) {
  if (g->in == KERN_SCALAR_FLOAT32 || g->in == KERN_SCALAR_FLOAT64)
    return g->tm == 128 && g->tn == 128;
  return (g->tm == 64 || g->tm == 128) && g->tn % 64 == 0 && g->tn >= 64 &&
         g->tn <= 256 && g->tk == 64;
}

void check_gemm(Compiler *C, Func *f) {
  if (!f->is_kernel || f->generic || !f->ir || !f->body ||
      f->tid_dims != 2)
    return;
  Match M;
  memset(&M, 0, sizeof M);
  M.C = C;
  M.f = f;
  M.g.a = M.g.b = M.g.c = M.g.bias = -1;
  if (!match(&M) || !schedule_takes(&M.g))
    return;
  IrGemm *g = arena_alloc(C, sizeof *g);
  *g = M.g;
  ((IrFunc *)f->ir)->gemm = g;
}
