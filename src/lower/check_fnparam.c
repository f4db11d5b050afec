/*
 * check_fnparam.c -- @wp.func parameters of type wp.Function.
 *
 * Warp lets a @wp.func take another function as an argument
 * (`def apply(g: wp.Function, x: float): return g(x)`, called as
 * `apply(double_it, 3.0)` or `apply(wp.sin, 0.5)`), and makes one version
 * of the callee per function passed.  kern does the same before the call is
 * checked: the callee's body is copied with every use of the parameter's
 * name replaced by the function named in the call (a @wp.func, an alias
 * of one, or a Warp builtin `wp.NAME`), the parameter is dropped, and the
 * call is rewritten to call that copy without the argument.  A function
 * value has no run-time representation, so nothing reaches the emitters.
 * Each (function, targets) pair is made once.  A parameter's default
 * (`g: wp.Function = double_it`) is used when the call leaves it out.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* Is the annotation n `wp.Function`? */
static bool is_function_annot(Ctx *X, Node *n) {
  const char *w = check_wp_attr(X, n);
  return w && !strcmp(w, "Function");
}

bool check_fnparam_is_function(Ctx *X, const Param *p) {
  return p->annot && is_function_annot(X, p->annot);
}

bool check_fnparam_template(Ctx *X, Func *g) {
  for (int i = 0; i < g->nparams; i++)
    if (g->params[i].annot && is_function_annot(X, g->params[i].annot))
      return true;
  return false;
}

/* A copy of the tree n (and of its list siblings when list is set) with
 * every N_NAME in names[] replaced by a copy of the matching target. */
static Node *subst(Ctx *X, Node *n, const char **names, Node **targets,
                   int k, bool list) {
  Node head = {0}, *cur = &head;
  for (; n; n = list ? n->next : NULL) {
    Node *c = NULL;
    if (n->kind == N_NAME)
      for (int i = 0; i < k; i++)
        if (!strcmp(n->name, names[i])) {
          c = arena_alloc(X->C, sizeof *c);
          *c = *targets[i];
          c->pos = n->pos;
        }
    if (!c) {
      c = arena_alloc(X->C, sizeof *c);
      *c = *n;
      c->a = subst(X, n->a, names, targets, k, true);
      c->b = subst(X, n->b, names, targets, k, true);
      c->c = subst(X, n->c, names, targets, k, true);
      c->args = subst(X, n->args, names, targets, k, true);
      c->kwargs = subst(X, n->kwargs, names, targets, k, true);
      c->body = subst(X, n->body, names, targets, k, true);
      c->orelse = subst(X, n->orelse, names, targets, k, true);
    }
    c->next = NULL;
    cur = cur->next = c;
    if (!list)
      break;
  }
  return head.next;
}

/* The text that names a target in the copy's name: f, or wp_sin. */
static const char *target_text(Ctx *X, Node *t) {
  if (t->kind == N_NAME)
    return t->name;
  return arena_printf(X->C, "wp_%s", t->name);
}

/* A function argument: a @wp.func (or an alias of one) by name, or wp.NAME
 * for a builtin; anything else is an error naming the parameter. */
static Node *function_arg(Ctx *X, Func *g, Param *p, Node *a) {
  Node *fv = check_fn_value(X, a); /* f = double_it; apply(f, x) */
  if (fv)
    return fv;
  if (a->kind == N_NAME && check_find_func(X, a->name) &&
      !check_find_local(X, a->name)) {
    Node *c = arena_alloc(X->C, sizeof *c);
    *c = *a;
    /* the function's own name, so the copy is found through aliases too */
    c->name = check_find_func(X, a->name)->name;
    c->next = NULL;
    return c;
  }
  if (a->kind == N_NAME && !check_find_local(X, a->name)) {
    /* F = wp.sin at the top level */
    Sym *s = check_find_const(X, a->name);
    if (s && s->pyglobal && s->value && s->value->kind == N_ATTR &&
        check_wp_attr(X, s->value))
      a = s->value;
  }
  if (a->kind == N_ATTR && check_wp_attr(X, a)) {
    Node *c = arena_alloc(X->C, sizeof *c);
    *c = *a;
    c->next = NULL;
    return c;
  }
  ERR(a->pos, "argument '%s' of %s() is a wp.Function: pass a @wp.func or "
              "a Warp builtin by name", p->name, g->name);
}

/* Could overload o take the call's arguments, functions exactly where it
 * has wp.Function parameters? */
static bool fnparam_fits(Ctx *X, Func *o, Node *call) {
  int i = 0;
  for (Node *a = call->args; a; a = a->next, i++) {
    if (i >= o->nparams || a->kind == N_STARRED)
      return false;
    bool fp = o->params[i].annot && is_function_annot(X, o->params[i].annot);
    if (fp != (check_fn_value(X, a) != NULL))
      return false;
    /* a float (a literal or a variable) never goes to an integer
     * parameter, nor an integer to a float one: Warp's overloads do not
     * convert */
    const Local *l = a->kind == N_NAME ? check_find_local(X, a->name) : NULL;
    int kind = a->kind == N_FLOAT ? 1 : a->kind == N_INT ? 2 : 0;
    if (l && l->ty->kind == TY_SCALAR)
      kind = sc_is_float(l->ty->sc) ? 1 : sc_is_int(l->ty->sc) ? 2 : 0;
    if (!fp && kind && o->params[i].annot) {
      const Type *t = check_type_expr(X, o->params[i].annot, "parameter");
      if (t->kind == TY_SCALAR &&
          (kind == 1 ? !sc_is_float(t->sc) : !sc_is_int(t->sc)))
        return false;
    }
  }
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    int j = -1;
    for (int q = 0; q < o->nparams; q++)
      if (!strcmp(o->params[q].name, kw->name))
        j = q;
    if (j < i)
      return false;
    bool fp = o->params[j].annot && is_function_annot(X, o->params[j].annot);
    if (fp != (check_fn_value(X, kw->a) != NULL))
      return false;
  }
  for (; i < o->nparams; i++)
    if (!o->params[i].defval) {
      bool given = false;
      for (Node *kw = call->kwargs; kw; kw = kw->next)
        given |= !strcmp(kw->name, o->params[i].name);
      if (!given)
        return false;
    }
  return true;
}

/* When the call's callee g has wp.Function parameters: the call rewritten
 * to call g's copy for the functions it passes; else the call itself. */
Node *check_fnparam_call(Ctx *X, Node *call, Func *g) {
  bool any = false;
  for (Func *o = g; o; o = o->overload)
    any |= check_fnparam_template(X, o);
  if (!any)
    return call;
  if (g->overload) {
    /* the one overload whose wp.Function parameters get functions */
    Func *pick = NULL;
    int npick = 0;
    for (Func *o = g; o; o = o->overload)
      if (fnparam_fits(X, o, call)) {
        pick = o;
        npick++;
      }
    if (npick != 1)
      ERR(call->pos, "overloads of '%s' with wp.Function parameters: %s",
          g->name, npick ? "more than one fits the arguments"
                         : "none fits the arguments");
    if (!check_fnparam_template(X, pick))
      return call; /* an ordinary overload: resolved as usual */
    g = pick;
  }
  int n = g->nparams, k = 0;
  Node **given = arena_alloc(X->C, sizeof(Node *) * (size_t)n);
  int i = 0;
  for (Node *a = call->args; a; a = a->next, i++) {
    if (a->kind == N_STARRED)
      ERR(a->pos, "'*' arguments to a function with wp.Function parameters "
                  "are not supported");
    if (i >= n)
      ERR(call->pos, "%s() takes %d arguments, got more", g->name, n);
    given[i] = a;
  }
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    int j = -1;
    for (int q = 0; q < n; q++)
      if (!strcmp(g->params[q].name, kw->name))
        j = q;
    if (j < 0)
      ERR(kw->pos, "%s() has no parameter '%s'", g->name, kw->name);
    if (given[j])
      ERR(kw->pos, "%s() got two values for '%s'", g->name, kw->name);
    given[j] = kw->a;
  }
  const char **names = arena_alloc(X->C, sizeof(char *) * (size_t)n);
  Node **targets = arena_alloc(X->C, sizeof(Node *) * (size_t)n);
  Buf key;
  buf_init(&key, X->C);
  buf_printf(&key, "%s__fn", g->name);
  for (int j = 0; j < n; j++) {
    Param *p = &g->params[j];
    if (!p->annot || !is_function_annot(X, p->annot))
      continue;
    Node *a = given[j] ? given[j] : p->defval;
    if (!a)
      ERR(call->pos, "%s() needs the function argument '%s'", g->name,
          p->name);
    names[k] = p->name;
    targets[k] = function_arg(X, g, p, a);
    buf_printf(&key, "_%s", target_text(X, targets[k]));
    k++;
  }
  /* the copy, made once per set of targets */
  Func *h = check_find_func(X, key.p);
  if (!h) {
    h = arena_alloc(X->C, sizeof *h);
    *h = *g;
    h->name = key.p;
    h->params = arena_alloc(X->C, sizeof(Param) * (size_t)n);
    h->nparams = 0;
    for (int j = 0; j < n; j++)
      if (!g->params[j].annot || !is_function_annot(X, g->params[j].annot)) {
        h->params[h->nparams] = g->params[j];
        h->params[h->nparams].ty = NULL;
        h->params[h->nparams].sym = NULL;
        h->nparams++;
      }
    h->body = subst(X, g->body, names, targets, k, true);
    h->nodes = NULL; /* the tree is g's (Note [kernel syntax trees]) */
    h->overload = NULL;
    h->overload_index = 0;
    h->next = NULL;
    h->ir = NULL;
    h->locals = NULL;
    h->nlocals = 0;
    h->ret = NULL;
    h->checked = h->checking = false;
    h->generic = false;
    h->instance_of = NULL;
    h->instances = NULL;
    h->next_instance = NULL;
    h->ninstances = 0;
    names_put(X->C, &X->M->func_names, h->name, h);
    /* the functions passed are checked before the copy that calls them */
    for (int j = 0; j < k; j++)
      if (targets[j]->kind == N_NAME) {
        Func *t = check_find_func(X, targets[j]->name);
        for (; t; t = t->overload)
          if (!t->checked && !t->checking)
            check_function(X->C, X->irm, t);
      }
    check_function(X->C, X->irm, h);
  }
  /* the call without the function arguments */
  Node *c = arena_alloc(X->C, sizeof *c);
  *c = *call;
  Node *callee = arena_alloc(X->C, sizeof *callee);
  *callee = *call->a;
  callee->kind = N_NAME;
  callee->name = h->name;
  c->a = callee;
  Node head = {0}, *cur = &head;
  i = 0;
  for (Node *a = call->args; a; a = a->next, i++)
    if (!(g->params[i].annot && is_function_annot(X, g->params[i].annot))) {
      Node *cp = arena_alloc(X->C, sizeof *cp);
      *cp = *a;
      cp->next = NULL;
      cur = cur->next = cp;
    }
  c->args = head.next;
  Node khead = {0}, *kcur = &khead;
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    bool fn = false;
    for (int j = 0; j < k; j++)
      if (!strcmp(kw->name, names[j]))
        fn = true;
    if (!fn) {
      Node *cp = arena_alloc(X->C, sizeof *cp);
      *cp = *kw;
      cp->next = NULL;
      kcur = kcur->next = cp;
    }
  }
  c->kwargs = khead.next;
  return c;
}
