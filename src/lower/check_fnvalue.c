/*
 * check_fnvalue.c -- functions as compile-time values.
 *
 * Warp lets a kernel or @wp.func bind a function to a local name and call
 * it through that name (`f = double_it; out[0] = f(3.0)`), pass such a name
 * to a wp.Function parameter, and pick a function on the host with
 * wp.static (`h = wp.static(F)`).  A function has no run-time value: kern
 * resolves the name when the function is checked, so that a call through
 * it is a call of the function itself and nothing reaches the emitters.
 * A name bound to a function stays bound to it: binding it to another
 * function, or to a value, is refused, because which binding a call sees
 * would then depend on the control flow that Warp's code generator (which
 * follows the statements in order) and kern would have to agree on.
 */
#include <string.h>
#include "check.h"

static Node *copy_at(Ctx *X, Node *n, Pos pos) {
  Node *c = arena_alloc(X->C, sizeof *c);
  *c = *n;
  c->pos = pos;
  c->next = NULL;
  return c;
}

/* Is the module-level value s a second name of a @wp.func (`F = f`)? */
static bool const_is_func_alias(Ctx *X, Sym *s) {
  return s && s->pyglobal && s->value && s->value->kind == N_NAME &&
         check_find_func(X, s->name);
}

/* D["key"], D a module-level dict of string keys (parse.c, host_dict):
 * the entry's value node; NULL when sub is no such lookup. */
Node *check_host_dict_entry(Ctx *X, Node *sub) {
  if (sub->kind != N_SUBSCRIPT || sub->a->kind != N_NAME ||
      check_find_local(X, sub->a->name))
    return NULL;
  Sym *s = check_find_const(X, sub->a->name);
  if (!s || !s->pyglobal || !s->value || s->value->kind != N_LIST ||
      strcmp(s->value->name, "dict"))
    return NULL;
  if (!sub->args || sub->args->next || sub->args->kind != N_STR)
    ERR(sub->pos, "'%s' is a dict: look it up with a string key",
        sub->a->name);
  for (Node *kw = s->value->args; kw; kw = kw->next)
    if (!strcmp(kw->name, sub->args->str)) {
      /* a later entry of the same key replaces it, as in Python */
      Node *last = kw;
      for (Node *o = kw->next; o; o = o->next)
        if (!strcmp(o->name, kw->name))
          last = o;
      return last->a;
    }
  ERR(sub->args->pos, "the dict '%s' (line %d) has no key \"%s\"",
      sub->a->name, s->pos.line, sub->args->str);
}

/* The function e denotes at compile time, as a node calls understand: an
 * N_NAME holding a @wp.func's own name or an N_ATTR `wp.NAME` naming a
 * Warp builtin; NULL when e is not a function. */
Node *check_fn_value(Ctx *X, Node *e) {
  if (e->kind == N_NAME) {
    Node *b = names_get(&X->fn_locals, e->name);
    if (b)
      return copy_at(X, b, e->pos);
    if (check_find_local(X, e->name))
      return NULL;
    Sym *s = check_find_const(X, e->name);
    if (s && !const_is_func_alias(X, s)) {
      /* F = wp.sin at the top level */
      if (s->pyglobal && s->value && s->value->kind == N_ATTR &&
          check_wp_attr(X, s->value) &&
          builtin_lookup(check_wp_attr(X, s->value)) >= 0)
        return copy_at(X, s->value, e->pos);
      return NULL;
    }
    Func *f = check_find_func(X, e->name);
    if (!f)
      return NULL;
    Node *c = copy_at(X, e, e->pos);
    c->name = f->name; /* its own name, so that aliases find one copy */
    return c;
  }
  if (e->kind == N_ATTR) {
    const char *w = check_wp_attr(X, e);
    return w && builtin_lookup(w) >= 0 ? copy_at(X, e, e->pos) : NULL;
  }
  if (e->kind == N_SUBSCRIPT) { /* F["double"], F a dict of functions */
    Node *v = check_host_dict_entry(X, e);
    return v ? check_fn_value(X, v) : NULL;
  }
  /* wp.static(f): the function itself */
  if (e->kind == N_CALL && check_wp_attr(X, e->a) &&
      !strcmp(check_wp_attr(X, e->a), "static") && e->args &&
      !e->args->next && !e->kwargs)
    return check_fn_value(X, e->args);
  return NULL;
}

/* `NAME = function`: binds NAME for the rest of the function and returns
 * true; false when the statement is an ordinary assignment. */
bool check_fn_assign(Ctx *X, Node *target, Node *value) {
  if (target->kind != N_NAME)
    return false;
  Node *old = names_get(&X->fn_locals, target->name);
  Node *fv = check_fn_value(X, value);
  if (!fv) {
    if (old)
      ERR(target->pos, "'%s' holds the function '%s'; it cannot be "
                       "assigned a value", target->name,
          old->kind == N_NAME ? old->name : old->name);
    return false;
  }
  if (check_find_local(X, target->name))
    ERR(target->pos, "'%s' is a variable; it cannot also hold a function",
        target->name);
  if (old && !(old->kind == fv->kind && !strcmp(old->name, fv->name)))
    ERR(target->pos, "'%s' already holds the function '%s'; binding it to "
                     "another function is not supported", target->name,
        old->name);
  names_put(X->C, &X->fn_locals, target->name, fv);
  return true;
}

/* A call through a name bound to a function: the call of the function. */
Node *check_fn_callee(Ctx *X, Node *call) {
  if (call->a->kind != N_NAME || !names_get(&X->fn_locals, call->a->name))
    return call;
  Node *c = copy_at(X, call, call->pos);
  c->next = call->next;
  c->a = check_fn_value(X, call->a);
  return c;
}

/* Note [static loop variables]: Warp unrolls a `for v in range(...)` loop
 * of constant bounds whose body evaluates wp.static() of v, and evaluates
 * each copy's wp.static() with v's value of that trip (a module-level name
 * v is hidden by the loop variable).  kern does the same: the loop is
 * checked once per value as a loop of one trip, with v bound for
 * wp.static (Ctx.static_vals).  A break or continue would end only that
 * trip's copy, so such loops are refused (Warp 1.19 fails on them with an
 * internal error). */

/* Does the tree n (with its list siblings when list is set) hold
 * wp.static(...) naming `name`? */
static bool static_names(Ctx *X, Node *n, const char *name, bool in_static,
                         bool list) {
  for (; n; n = list ? n->next : NULL) {
    if (in_static && n->kind == N_NAME && !strcmp(n->name, name))
      return true;
    bool st = in_static || (n->kind == N_CALL && check_wp_attr(X, n->a) &&
                            !strcmp(check_wp_attr(X, n->a), "static"));
    if (static_names(X, n->a, name, st, false) ||
        static_names(X, n->b, name, st, false) ||
        static_names(X, n->c, name, st, false) ||
        static_names(X, n->args, name, st, true) ||
        static_names(X, n->kwargs, name, st, true) ||
        static_names(X, n->body, name, st, true) ||
        static_names(X, n->orelse, name, st, true))
      return true;
    if (!list)
      break;
  }
  return false;
}

/* A break or continue of this loop (not of a loop nested in it). */
static Node *loop_exit(Node *n) {
  for (; n; n = n->next) {
    if (n->kind == N_BREAK || n->kind == N_CONTINUE)
      return n;
    if (n->kind == N_FOR || n->kind == N_WHILE) {
      Node *e = loop_exit(n->orelse);
      if (e)
        return e;
      continue;
    }
    Node *e = loop_exit(n->body);
    if (!e)
      e = loop_exit(n->orelse);
    if (e)
      return e;
  }
  return NULL;
}

static Node *int_node(Ctx *X, int64_t v, Pos pos) {
  Node *n = arena_alloc(X->C, sizeof *n);
  n->kind = N_INT;
  n->pos = pos;
  n->ival = (uint64_t)(v < 0 ? -v : v);
  if (v >= 0)
    return n;
  Node *u = arena_alloc(X->C, sizeof *u);
  u->kind = N_UNOP;
  u->op = OP_NEG;
  u->pos = pos;
  u->a = n;
  u->depth = 1;
  return u;
}

bool check_static_loop(Ctx *X, Node *n, IrExpr *start, IrExpr *stop,
                       IrExpr *step, void (*one_loop)(Ctx *, Node *)) {
  const char *v = n->b->name;
  if (!static_names(X, n->body, v, false, true))
    return false;
  if (start->kind != E_CONST || stop->kind != E_CONST ||
      step->kind != E_CONST || start->ty->kind != TY_SCALAR ||
      start->ty->sc != KERN_SCALAR_INT32)
    ERR(n->pos, "wp.static() uses the loop variable '%s', so the loop is "
                "unrolled, which needs range() bounds that are int "
                "constants", v);
  Node *ex = loop_exit(n->body);
  if (ex)
    ERR(ex->pos, "'%s' in a loop unrolled for wp.static() of its variable "
                 "'%s' is not supported", ex->kind == N_BREAK ? "break"
                                                               : "continue", v);
  if (n->orelse)
    ERR(n->pos, "a loop unrolled for wp.static() cannot have an else block");
  int64_t a = (int32_t)start->ival, b = (int32_t)stop->ival,
          s = (int32_t)step->ival;
  int64_t trips = s > 0 ? (b > a ? (b - a + s - 1) / s : 0)
                        : (a > b ? (a - b - s - 1) / -s : 0);
  /* a trip's own one-trip loop, its variable already bound to its value
   * (an inner loop of one trip over the same value means the same) */
  int64_t cur;
  if (trips == 1 && check_static_loop_value(X, v, &cur) && cur == a)
    return false;
  if (trips > 4096)
    ERR(n->pos, "a loop unrolled for wp.static() of '%s' has %lld trips; "
                "kern unrolls at most 4096", v, (long long)trips);
  int64_t *old = names_get(&X->static_vals, v);
  for (int64_t k = 0; k < trips; k++) {
    int64_t *val = arena_alloc(X->C, sizeof *val);
    *val = a + k * s;
    Node *one = arena_alloc(X->C, sizeof *one);
    *one = *n;
    Node *r = arena_alloc(X->C, sizeof *r);
    *r = *n->a;
    r->args = int_node(X, *val, n->a->pos);
    r->args->next = int_node(X, *val + 1, n->a->pos);
    one->a = r;
    names_put(X->C, &X->static_vals, v, val);
    one_loop(X, one);
  }
  names_put(X->C, &X->static_vals, v, old);
  return true;
}

/* The value wp.static() sees for a loop variable being unrolled. */
bool check_static_loop_value(Ctx *X, const char *name, int64_t *out) {
  int64_t *v = names_get(&X->static_vals, name);
  if (v)
    *out = *v;
  return v != NULL;
}
