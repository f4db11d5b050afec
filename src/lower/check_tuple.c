/*
 * check_tuple.c -- tuples as values (issue #10): `t = (1, 2.0)`,
 * `t = f()` for a function with several results, `t[0]`, `len(t)`,
 * `a, b = t`, tuples passed to and returned from @wp.func.
 *
 * A tuple never reaches the IR.  While the checker holds one it is an
 * E_MAKE of tuple type whose operands are its items, each a constant or a
 * reference to a variable; a tuple variable is one hidden variable per
 * item (Local.parts), and a tuple parameter of a function is one IR
 * parameter per item.  Every use takes the items apart again: an index
 * picks one, unpacking assigns them, a call passes them one by one and a
 * return gives them as the function's several results (which the IR
 * already has as out-variables).  So no emitter knows about tuples.
 *
 * Warp 1.19 is strict about tuples, and so is this file: a tuple variable
 * is assigned once (Warp refuses a second assignment even of the same
 * types), items cannot be assigned, a tuple cannot be sliced or nested,
 * and an index must be known when the kernel is compiled -- a constant in
 * range, or the variable of a range() loop that Warp unrolls (constant
 * bounds, at most 16 trips); kern does not unroll such a loop, so there it
 * needs the items to share one type and selects the item at run time.
 */
#include <string.h>

#include "check.h"

/* Warp's wp.config.max_unroll: range() loops with constant bounds and at
 * most this many trips are unrolled, which makes their variable a
 * constant a tuple can be indexed with. */
enum { TUPLE_MAX_UNROLL = 16 };

static IrExpr *make_tuple(Ctx *X, int n, IrExpr **items) {
  const Type **tys = arena_alloc(X->C, sizeof(Type *) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    tys[i] = items[i]->ty;
  IrExpr *e = ir_expr(X->C, E_MAKE, ty_tuple(X->C, n, tys));
  e->args = items;
  e->nargs = n;
  return e;
}

/* An item must be a value a variable can hold. */
static void check_item(Ctx *X, const Type *t, Pos pos) {
  if (t->kind == TY_TUPLE)
    ERR(pos, "a tuple cannot hold another tuple (Warp does not support "
             "nested tuples)");
  if (!check_is_valuelike(t))
    ERR(pos, "a tuple cannot hold a %s (its items are scalars, vectors, "
             "matrices and structs)", TN(t));
}

/* (a, b, ...) as a value: each item is evaluated once, left to right, into
 * a temporary unless it is a constant. */
IrExpr *check_tuple_literal(Ctx *X, Node *n) {
  int k = check_count_args(n->args);
  if (k == 0)
    ERR(n->pos, "an empty tuple is not supported (Warp refuses it too)");
  IrExpr **items = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)k);
  int i = 0;
  for (Node *a = n->args; a; a = a->next, i++) {
    if (a->kind == N_STARRED)
      ERR(a->pos, "unpacking with '*' inside a tuple is not supported");
    IrExpr *e = check_expr(X, a);
    check_item(X, e->ty, a->pos);
    /* A variable is copied too: t = (x, y) keeps x's value even if x
     * changes afterwards.  Where nothing may be evaluated ahead (a loop
     * condition, one branch of `x if c else y`), only constants and
     * variables can be items, taken as they are. */
    if (X->no_hoist && e->kind != E_CONST && e->kind != E_VAR)
      ERR(a->pos, "a tuple in a loop condition or a conditionally evaluated "
                  "operand can only hold constants and variables");
    if (e->kind != E_CONST && !X->no_hoist) {
      Local *t = check_add_hidden_local(X, "tup", e->ty, a->pos);
      check_def_set(X, X->nlocals - 1);
      t->var->nassign++;
      IrStmt *s = ir_stmt(X->C, S_ASSIGN, a->pos);
      s->var = t->var;
      s->a = e;
      check_emit(X, s);
      e = ir_ref(X->C, t->var);
    }
    items[i] = e;
  }
  return make_tuple(X, k, items);
}

/* The results of a call of a function with several results (its first
 * result the call's value, the others out-variables) as a tuple. */
IrExpr *check_tuple_of_call(Ctx *X, IrExpr *call, Pos pos) {
  if (call->kind != E_FCALL || !call->fn || call->fn->nrets < 2)
    return call;
  if (X->no_hoist)
    ERR(pos, "the results of '%s' cannot be taken as a tuple in a loop "
             "condition or a conditionally evaluated operand", call->fn->name);
  IrFunc *g = call->fn;
  int n = g->nrets;
  IrExpr **items = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)n);
  call->nouts = n - 1;
  call->outs = arena_alloc(X->C, sizeof(IrVar *) * (size_t)n);
  for (int i = 1; i < n; i++) {
    Local *tmp = check_add_hidden_local(X, "ret", g->rets[i], pos);
    check_def_set(X, X->nlocals - 1);
    tmp->var->nassign++;
    call->outs[i - 1] = tmp->var;
    items[i] = ir_ref(X->C, tmp->var);
  }
  Local *first = check_add_hidden_local(X, "ret", g->rets[0], pos);
  check_def_set(X, X->nlocals - 1);
  first->var->nassign++;
  IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
  s->var = first->var;
  s->a = call;
  check_emit(X, s);
  items[0] = ir_ref(X->C, first->var);
  return make_tuple(X, n, items);
}

/* A builtin with several results used as a value (t = wp.svd3(...) is not
 * one: those write their results to arguments). */
IrExpr *check_tuple_of_builtin(Ctx *X, Node *call) {
  const char *w = call->kind == N_CALL ? check_wp_attr(X, call->a) : NULL;
  if (!w)
    return NULL;
  int np = 0;
  IrExpr **parts = check_extra_unpack(X, call, w, &np);
  if (!parts)
    return NULL;
  for (int i = 0; i < np; i++)
    parts[i] = check_in_temp(X, parts[i], "ret", call->pos);
  return make_tuple(X, np, parts);
}

/* The value of the tuple variable l. */
IrExpr *check_tuple_local(Ctx *X, Local *l) {
  int n = l->ty->n;
  IrExpr **items = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)n);
  for (int i = 0; i < n; i++)
    items[i] = ir_ref(X->C, l->parts[i]);
  return make_tuple(X, n, items);
}

/* name = tuple: a new tuple variable, one hidden variable per item. */
void check_tuple_assign(Ctx *X, Node *target, IrExpr *t, Pos pos) {
  if (target->kind != N_NAME)
    ERR(target->pos, "a tuple can only be assigned to a variable");
  Local *old = check_find_local(X, target->name);
  if (old && old->ty->kind == TY_TUPLE)
    ERR(target->pos, "the tuple '%s' is already assigned (Warp assigns a "
                     "tuple variable only once)", target->name);
  if (old)
    ERR(target->pos, "cannot assign %s to '%s', which is %s (a variable "
                     "keeps the type of its first assignment)", TN(t->ty),
        target->name, TN(old->ty));
  if (check_find_const(X, target->name) &&
      !check_find_const(X, target->name)->pyglobal)
    ERR(target->pos, "cannot assign to the constant '%s'", target->name);
  Local *l = check_add_local(X, target->name, t->ty, target->pos);
  ir_var_unlink(X->irf, l->var); /* the items hold the value */
  int idx = (int)(l - X->locals);
  IrVar **parts = arena_alloc(X->C, sizeof(IrVar *) * (size_t)t->nargs);
  for (int i = 0; i < t->nargs; i++) {
    const char *base = arena_printf(X->C, "%s_%d", target->name, i);
    Local *p = check_add_hidden_local(X, base, t->args[i]->ty, pos);
    check_def_set(X, X->nlocals - 1);
    p->var->nassign++;
    IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
    s->var = p->var;
    s->a = t->args[i];
    check_emit(X, s);
    parts[i] = p->var;
  }
  X->locals[idx].parts = parts;
  check_def_set(X, idx);
}

/* t[i]: a constant index in range, or the variable of an unrolled loop
 * (see the top of the file). */
IrExpr *check_tuple_subscript(Ctx *X, Node *n, IrExpr *t) {
  if (check_count_args(n->args) != 1 || n->args->kind == N_SLICE)
    ERR(n->pos, "a tuple takes one index (Warp cannot slice a tuple)");
  Node *ix = n->args;
  int len = t->nargs;
  IrExpr *i = check_expr(X, ix);
  if (!ty_is_int(i->ty))
    ERR(ix->pos, "a tuple index must be an integer, got %s", TN(i->ty));
  if (i->kind == E_CONST) {
    int64_t k = (int64_t)i->ival;
    if (sc_bits(i->ty->sc) == 32)
      k = (int32_t)(uint32_t)i->ival;
    if (k < 0)
      ERR(ix->pos, "a tuple index must not be negative (Warp 1.19 fails to "
                   "build t[-1])");
    if (k >= len)
      ERR(ix->pos, "tuple index %lld is out of range for a tuple of %d "
                   "item%s", (long long)k, len, len == 1 ? "" : "s");
    return t->args[k];
  }
  Local *lv = ix->kind == N_NAME ? check_find_local(X, ix->name) : NULL;
  if (!lv || !lv->unrolled)
    ERR(ix->pos, "a tuple index must be known when the kernel is compiled: "
                 "a constant, or the variable of a range() loop with "
                 "constant bounds and at most %d trips", TUPLE_MAX_UNROLL);
  /* Warp checks every unrolled copy's index, even one an if skips. */
  if (lv->ulo < 0 || lv->uhi >= len)
    ERR(ix->pos, "tuple index %lld is out of range for a tuple of %d item%s "
                 "(Warp unrolls this loop and checks the index of every "
                 "trip)", (long long)(lv->ulo < 0 ? lv->ulo : lv->uhi), len,
        len == 1 ? "" : "s");
  for (int k = 1; k < len; k++)
    if (!ty_eq(t->args[k]->ty, t->args[0]->ty))
      ERR(ix->pos, "kern indexes a tuple with a loop variable only when its "
                   "items have one type (this one is %s); Warp unrolls the "
                   "loop, kern does not", TN(t->ty));
  /* i == 0 ? t0 : i == 1 ? t1 : ... : t[len-1]; the loop's bounds keep i
   * in range, as Warp's unrolled copies would. */
  IrExpr *e = t->args[len - 1];
  for (int k = len - 2; k >= 0; k--) {
    IrExpr *sel = ir_expr(X->C, E_SELECT, e->ty);
    sel->a = check_compare(X, OP_EQ, i, ir_const_int(X->C, i->ty, (uint64_t)k),
                           ix->pos);
    sel->b = t->args[k];
    sel->c = e;
    e = sel;
  }
  return e;
}

/* The parameter l of the function being checked is a tuple: it becomes one
 * IR parameter per item, appended at *ptail. */
void check_tuple_param(Ctx *X, Local *l, int i, IrVar ***ptail) {
  if (X->f->is_kernel)
    ERR(l->pos, "a kernel parameter cannot be a tuple (Warp passes tuples "
                "only between functions)");
  const Type *t = l->ty;
  int idx = (int)(l - X->locals);
  ir_var_unlink(X->irf, l->var);
  IrVar **parts = arena_alloc(X->C, sizeof(IrVar *) * (size_t)t->n);
  for (int k = 0; k < t->n; k++) {
    check_item(X, t->items[k], l->pos);
    IrVar *v = ir_var(X->C, X->irf, "p", t->items[k]);
    ir_var_unlink(X->irf, v);
    v->is_param = true;
    v->index = i;
    v->name = arena_printf(X->C, "p%d_%s_%d", i, l->name, k);
    **ptail = v;
    *ptail = &v->next;
    X->irf->nparams++;
    parts[k] = v;
  }
  X->locals[idx].parts = parts;
}

/* A call's arguments bound to g's parameters, with every tuple argument
 * spread into its items, as check_tuple_param made the parameters. */
IrExpr **check_tuple_spread_args(Ctx *X, Func *g, IrExpr **bound,
                                 int *nargs) {
  int n = 0;
  bool any = false;
  for (int i = 0; i < g->nparams; i++) {
    if (g->params[i].ty->kind == TY_TUPLE) {
      n += g->params[i].ty->n;
      any = true;
    } else if (g->params[i].ty->tstack) {
      n += 2; /* check_tstack_param */
      any = true;
    } else {
      n++;
    }
  }
  *nargs = n;
  if (!any)
    return bound;
  IrExpr **out = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)n);
  int k = 0;
  for (int i = 0; i < g->nparams; i++) {
    if (g->params[i].ty->tstack) {
      k += check_tstack_args(X, bound[i], out + k);
      continue;
    }
    if (g->params[i].ty->kind != TY_TUPLE) {
      out[k++] = bound[i];
      continue;
    }
    for (int j = 0; j < bound[i]->nargs; j++)
      out[k++] = bound[i]->args[j];
  }
  return out;
}

/* The type named by tuple[A, B] or typing.Tuple[A, B] (NULL: not one). */
const Type *check_tuple_type(Ctx *X, Node *n, const char *what) {
  if (n->kind != N_SUBSCRIPT)
    return NULL;
  bool named = n->a->kind == N_NAME && (!strcmp(n->a->name, "tuple") ||
                                        !strcmp(n->a->name, "Tuple"));
  bool typing = n->a->kind == N_ATTR && !strcmp(n->a->name, "Tuple") &&
                n->a->a->kind == N_NAME && !strcmp(n->a->a->name, "typing");
  if (!named && !typing)
    return NULL;
  int k = check_count_args(n->args);
  /* tuple[T, ...]: generic, instantiated per length (check_generic.c) */
  if (k == 2 && n->args->next->kind == N_NAME &&
      !strcmp(n->args->next->name, "...")) {
    const Type *it = check_type_expr(X, n->args, what);
    check_item(X, it, n->args->pos);
    return check_generic_tuple(X->C, it);
  }
  const Type **items = arena_alloc(X->C, sizeof(Type *) * (size_t)(k ? k : 1));
  int i = 0;
  for (Node *a = n->args; a; a = a->next, i++) {
    items[i] = check_type_expr(X, a, what);
    check_item(X, items[i], a->pos);
  }
  if (k == 0)
    ERR(n->pos, "an empty tuple type is not supported");
  return ty_tuple(X->C, k, items);
}

/* Warp folds t[2][1] into one subscript of the tuple with two indices,
 * which it has no overload for, so an item of a tuple variable is indexed
 * through a variable of its own.  n is the outer subscript. */
void check_tuple_no_chain(Ctx *X, Node *n) {
  Node *in = n->a;
  if (in->kind != N_SUBSCRIPT || in->a->kind != N_NAME)
    return;
  Local *l = check_find_local(X, in->a->name);
  if (l && l->ty->kind == TY_TUPLE)
    ERR(n->pos, "an item of a tuple cannot be indexed in the same "
                "expression (Warp reads %s[...][...] as one subscript of the "
                "tuple); assign the item to a variable first", in->a->name);
}
