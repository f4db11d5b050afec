/*
 * check_generic.c -- generic functions and kernels (typing.Any), and the
 * instantiations that array views need.
 *
 * Warp compiles a @wp.func with an `Any` parameter (or a
 * `wp.array(dtype=Any)`) once per signature it is called with, and a
 * generic kernel once per signature it is launched with.  kern does the
 * same for functions: a call whose argument types fit a generic
 * definition makes (or reuses) an instantiation, a copy of the definition
 * with the argument types as its parameter types, checked then and there
 * like any other function; its body's AST is walked once per
 * instantiation.  The same mechanism gives a function a second body for
 * a view: a parameter annotated `wp.array(...)` that receives a strided
 * view (check_view.c) is instantiated with the view's type.
 *
 * Kernels are compiled ahead of time, before any launch is known, so a
 * generic kernel is instantiated only where the source says so, as Warp's
 * `wp.overload(kernel, [T, ...])`, `wp.overload(kernel, {"name": T})` and
 * `@wp.overload` stubs do; each instantiation is a kernel of its own named
 * `NAME[T1,T2,...]` (Warp's type names, no spaces), and the generic
 * kernel itself is not in the module.  `kern run NAME` picks the one whose
 * parameter types fit the arguments (docs/WARP-DIALECT.md).
 */
#include <string.h>
#include "check.h"

/* Warp's constrained generic types wp.Int, wp.Float and wp.Scalar: an
 * Any (TY_ANY) whose `rows` says which scalars it admits. */
enum { ANY_ALL, ANY_INT, ANY_FLOAT, ANY_SCALAR, ANY_TUPLE, ANY_TILE,
       ANY_TSTACK };

/* tuple[T, ...]: any tuple whose items are all T (check_tuple.c), an Any
 * with rows ANY_TUPLE and elem T. */
const Type *check_generic_tuple(Compiler *C, const Type *item) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_ANY;
  t->rows = ANY_TUPLE;
  t->elem = item;
  t->name = arena_printf(C, "tuple[%s, ...]", ty_name(C, item));
  return t;
}

/* wp.tile[dtype, M, N] as a parameter or result type: any tile whose
 * element type is dtype and whose shape is dims
 * (any when nd is 0), an Any with rows ANY_TILE (Note [tile parameters]
 * in check_tile.c). */
const Type *check_generic_tile(Compiler *C, const Type *dtype, int nd,
                               const int *dims) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_ANY;
  t->rows = ANY_TILE;
  t->elem = dtype;
  t->ndim = nd;
  Buf b;
  buf_init(&b, C);
  buf_printf(&b, "tile(dtype=%s, shape=", ty_name(C, dtype));
  for (int k = 0; k < nd; k++) {
    t->fdims[k] = dims[k];
    buf_printf(&b, "%s%d", k ? ", " : "(", dims[k]);
  }
  buf_puts(&b, !nd ? "Any)" : nd == 1 ? ",))" : "))");
  t->name = b.p;
  return t;
}

/* wp.tile_stack(capacity=cap, dtype=dtype) as a parameter type: any tile
 * stack of that capacity and dtype (Note [tile stack parameters] in
 * check_tstack.c), an Any with rows ANY_TSTACK and cols the capacity. */
const Type *check_generic_tstack(Compiler *C, const Type *dtype, int cap) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_ANY;
  t->rows = ANY_TSTACK;
  t->cols = cap;
  t->elem = dtype;
  t->name = arena_printf(C, "tile_stack(capacity=%d, dtype=%s)", cap,
                         ty_name(C, dtype));
  return t;
}

bool check_is_tstack_pattern(const Type *t) {
  return t && t->kind == TY_ANY && t->rows == ANY_TSTACK;
}

bool check_is_tile_pattern(const Type *t) {
  return t && t->kind == TY_ANY && t->rows == ANY_TILE;
}

static bool tile_fits(const Type *param, const Type *arg) {
  if (arg->kind != TY_ARRAY || !arg->tile)
    return false;
  if (!ty_eq(param->elem, arg->elem))
    return false;
  if (!param->ndim)
    return true;
  if (param->ndim != arg->ndim)
    return false;
  for (int k = 0; k < arg->ndim; k++)
    if (param->fdims[k] != arg->fdims[k])
      return false;
  return true;
}

const Type *check_generic_named(Compiler *C, const char *w) {
  int k = !strcmp(w, "Int") ? ANY_INT : !strcmp(w, "Float") ? ANY_FLOAT
          : !strcmp(w, "Scalar") ? ANY_SCALAR : -1;
  if (k < 0)
    return NULL;
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_ANY;
  t->rows = k;
  t->name = w;
  return t;
}

/* Does an argument of type arg fit a parameter declared param? */
bool check_ty_fits(const Type *param, const Type *arg) {
  /* A fixed-size local array goes where an array does (the function is
   * instantiated for it, check_instance_for_call). */
  if (param->kind == TY_ARRAY && arg->kind == TY_ARRAY && arg->priv &&
      !param->priv) {
    Type a = *arg;
    a.priv = false;
    return check_ty_fits(param, &a);
  }
  if (check_is_tile_pattern(param))
    return tile_fits(param, arg);
  if (check_is_tstack_pattern(param))
    return check_tstack_fits(param->elem, param->cols, arg);
  if (param->kind == TY_ANY && param->rows == ANY_TUPLE) {
    if (arg->kind != TY_TUPLE)
      return false;
    for (int i = 0; i < arg->n; i++)
      if (!ty_eq(arg->items[i], param->elem))
        return false;
    return true;
  }
  if (check_vecn_is_pattern(param)) /* vector(Any, float) (check_vecn.c) */
    return check_vecn_fits(param, arg);
  if (param->kind == TY_ANY && param->rows != ANY_ALL)
    return arg->kind == TY_SCALAR && arg->sc != KERN_SCALAR_BOOL &&
           (param->rows == ANY_SCALAR ||
            (param->rows == ANY_INT) == !sc_is_float(arg->sc));
  if (param->kind == TY_ANY)
    return check_is_valuelike(arg) || arg->kind == TY_ARRAY ||
           arg->kind == TY_TUPLE;
  if (param->kind == TY_ARRAY && param->elem->kind == TY_ANY)
    return arg->kind == TY_ARRAY && arg->ndim == param->ndim &&
           arg->indexed == param->indexed && /* another Warp type */
           ((param->elem->rows == ANY_ALL &&
             !check_vecn_is_pattern(param->elem)) ||
            check_ty_fits(param->elem, arg->elem));
  return ty_eq(param, arg);
}

/* Types g's parameters (once) and says whether any of them is generic. */
bool check_func_generic(Ctx *X, Func *g) {
  bool gen = false;
  for (int i = 0; i < g->nparams; i++) {
    Param *p = &g->params[i];
    if (!p->ty)
      p->ty = check_type_expr(X, p->annot, arena_printf(X->C, "parameter '%s'",
                                                          p->name));
    gen |= ty_is_generic(p->ty);
  }
  return gen;
}

static const char *signature(Compiler *C, const char *name, Param *ps,
                             int n) {
  Buf b;
  buf_init(&b, C);
  buf_printf(&b, "%s[", name);
  for (int i = 0; i < n; i++) {
    const char *t = ty_name(C, ps[i].ty);
    if (i)
      buf_puts(&b, ",");
    for (; *t; t++)
      if (*t != ' ')
        buf_putn(&b, t, 1);
  }
  buf_puts(&b, "]");
  return b.p;
}

/* The instantiation of g for parameter types types[], made and checked
 * the first time. */
static Func *instantiate(Ctx *X, Func *g, const Type **types, Pos use) {
  Compiler *C = X->C;
  for (Func *h = g->instances; h; h = h->next_instance) {
    bool same = true;
    for (int i = 0; i < g->nparams && same; i++)
      same = ty_eq(h->params[i].ty, types[i]) &&
             h->params[i].ty->strided == types[i]->strided;
    if (!same)
      continue;
    if (h->checking)
      ERR(use, "recursive call of '%s' is not supported", g->name);
    return h;
  }
  if (g->ninstances >= 256)
    ERR(use, "'%s' has more than 256 instantiations", g->name);
  Func *h = arena_alloc(C, sizeof *h);
  *h = *g;
  h->params = arena_alloc(C, sizeof(Param) * (size_t)(g->nparams ? g->nparams : 1));
  for (int i = 0; i < g->nparams; i++) {
    h->params[i] = g->params[i];
    h->params[i].ty = types[i];
    h->params[i].sym = NULL;
  }
  h->nodes = NULL; /* the tree is g's (Note [kernel syntax trees]) */
  h->generic = false;
  h->instance_of = g;
  h->instances = NULL;
  h->next_instance = g->instances;
  h->ninstances = ++g->ninstances;
  h->overload = NULL;
  h->next = NULL;
  h->ir = NULL;
  h->locals = NULL;
  h->nlocals = 0;
  h->ret = NULL;
  h->checked = h->checking = false;
  h->tid_dims = 0;
  if (g->is_kernel)
    h->name = signature(C, g->name, h->params, g->nparams);
  g->instances = h;
  /* an error inside says which instantiation, and where it was asked for */
  const char *saved = C->note;
  C->note = arena_printf(C, "%s:%d:%d: note: in %s, instantiated here",
                         C->path, use.line, use.col,
                         signature(C, g->name, h->params, g->nparams));
  check_function(C, X->irm, h);
  C->note = saved;
  return h;
}

/* After overload resolution: the function a call with arguments args
 * really calls, an instantiation where g is generic or an array argument
 * is a view. */
Func *check_instance_for_call(Ctx *X, Node *call, Func *g, IrExpr **args) {
  bool need = g->generic;
  for (int i = 0; i < g->nparams && !need; i++)
    need = args[i]->ty->kind == TY_ARRAY &&
           ((args[i]->ty->strided && !g->params[i].ty->strided) ||
            (args[i]->ty->priv && !g->params[i].ty->priv));
  if (!need)
    return g;
  const Type **types = arena_alloc(X->C, sizeof(Type *) *
                                             (size_t)(g->nparams ? g->nparams : 1));
  for (int i = 0; i < g->nparams; i++) {
    const Type *p = g->params[i].ty, *a = args[i]->ty;
    types[i] = ty_is_generic(p) || (a->kind == TY_ARRAY && a->strided) ? a : p;
    /* One instance serves fixed arrays of every shape: its parameter's
     * shape is not known (a `return` of it is not a fixed array's).  A
     * tile's shape is part of its type (Note [tile parameters]). */
    if (types[i]->kind == TY_ARRAY && types[i]->priv && types[i]->fdims[0] &&
        !types[i]->tile)
      types[i] = check_fixed_view_type(X, types[i]->elem, types[i]->ndim,
                                       NULL);
  }
  Func *base = g->instance_of ? g->instance_of : g;
  return instantiate(X, base, types, call->pos);
}

/* Instantiates the generic kernels as the source's wp.overload() calls
 * and @wp.overload stubs ask. */
void check_kernel_overloads(Compiler *C, IrModule *irm) {
  Ctx ctx;
  Func dummy;
  IrFunc irf;
  IrStmt *sink;
  Ctx *X = &ctx;
  check_const_ctx(X, C, irm, &dummy, &irf, &sink);
  for (KernelOverload *o = C->mod->kernel_overloads; o; o = o->next) {
    Func *g = names_get(&C->mod->func_names, o->kernel);
    /* A name this file does not define is host code about another
     * module's kernel (imported): nothing to compile here. */
    if (!g && !check_find_const(X, o->kernel))
      continue;
    if (!g || !g->is_kernel)
      ERR(o->pos, "wp.overload() of '%s', which is not a kernel in this "
                  "file%s", o->kernel,
          g ? " (kern instantiates generic functions per call)" : "");
    if (!g->generic)
      ERR(o->pos, "wp.overload() of '%s', which has no typing.Any "
                  "parameter", o->kernel);
    const Type **types = arena_alloc(C, sizeof(Type *) * (size_t)g->nparams);
    for (int i = 0; i < g->nparams; i++)
      types[i] = g->params[i].ty;
    if (o->stub) {
      Func *s = o->stub;
      if (s->nparams != g->nparams)
        ERR(s->pos, "this overload of '%s' has %d parameters; the kernel "
                    "has %d", g->name, s->nparams, g->nparams);
      for (int i = 0; i < g->nparams; i++) {
        if (strcmp(s->params[i].name, g->params[i].name))
          ERR(s->params[i].pos, "parameter %d of this overload is '%s'; "
                                "the kernel's is '%s'", i + 1,
              s->params[i].name, g->params[i].name);
        types[i] = check_type_expr(X, s->params[i].annot, "overload type");
        if (!check_ty_fits(g->params[i].ty, types[i]) ||
            ty_is_generic(types[i]))
          ERR(s->params[i].annot->pos, "%s does not instantiate parameter "
                                       "'%s' (%s) of '%s'", TN(types[i]),
              g->params[i].name, TN(g->params[i].ty), g->name);
      }
    } else {
      int i = 0;
      for (Node *t = o->types; t; t = t->next, i++) {
        int k = i;
        if (o->names) {
          k = -1;
          for (int j = 0; j < g->nparams; j++)
            if (!strcmp(g->params[j].name, o->names[i]))
              k = j;
          if (k < 0)
            ERR(t->pos, "'%s' has no parameter '%s'", g->name, o->names[i]);
        } else if (i >= g->nparams) {
          ERR(t->pos, "'%s' has %d parameters; this overload gives more "
                      "types", g->name, g->nparams);
        }
        types[k] = check_type_expr(X, t, "overload type");
        if (!check_ty_fits(g->params[k].ty, types[k]) ||
            ty_is_generic(types[k]))
          ERR(t->pos, "%s does not instantiate parameter '%s' (%s) of '%s'",
              TN(types[k]), g->params[k].name, TN(g->params[k].ty), g->name);
      }
      if (!o->names && i != g->nparams)
        ERR(o->pos, "'%s' has %d parameters; this overload gives %d types",
            g->name, g->nparams, i);
    }
    for (int i = 0; i < g->nparams; i++)
      if (ty_is_generic(types[i]))
        ERR(o->pos, "this overload leaves parameter '%s' of '%s' generic",
            g->params[i].name, g->name);
    instantiate(X, g, types, o->pos);
  }
}

/* The type a callee names when it is computed from a value: type(x),
 * x.dtype of an array (its element type) or of a vector or matrix (its
 * scalar type), and chains of them (type(a).dtype); NULL otherwise. */
const Type *check_type_of(Ctx *X, Node *n) {
  if (n->kind == N_CALL && n->a->kind == N_NAME && !strcmp(n->a->name, "type") &&
      !check_find_local(X, "type") && check_count_args(n->args) == 1 &&
      !n->kwargs) {
    const Type *t = check_type_of(X, n->args);
    if (t)
      return t; /* type(type(x)) is not Warp's, but harmless */
    IrExpr *e = check_expr(X, n->args);
    if (!check_is_valuelike(e->ty) && e->ty->kind != TY_ARRAY)
      ERR(n->args->pos, "type() of a %s is not supported", TN(e->ty));
    return e->ty;
  }
  if (n->kind == N_ATTR && !strcmp(n->name, "dtype")) {
    const Type *t = check_type_of(X, n->a);
    if (!t) {
      if (n->a->kind != N_NAME || !check_find_local(X, n->a->name))
        return NULL;
      t = check_expr(X, n->a)->ty;
    }
    if (t->kind == TY_ARRAY)
      return t->elem;
    if (t->kind == TY_VEC || t->kind == TY_MAT || t->kind == TY_SCALAR)
      return ty_scalar(t->sc);
    ERR(n->pos, "a %s has no dtype", TN(t));
  }
  return NULL;
}
