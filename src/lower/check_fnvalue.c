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
