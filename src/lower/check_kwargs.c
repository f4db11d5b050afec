/*
 * check_kwargs.c -- keyword arguments of Warp's value builtins
 * (`wp.pow(x=2.0, y=4.0)`, `wp.clamp(v, low=0.0, high=1.0)`).  Part of the
 * checker (check.h).
 *
 * Warp binds a builtin's arguments to the parameter names of its
 * signature, so any argument may be given by name.  The builtins below
 * have one list of names for all their overloads (Warp 1.19's, read from
 * its builtin table); a call to one of them with keywords is rewritten
 * into the positional call before it is checked, so every builtin keeps a
 * single checker.  The rewrite is a new call node: the source tree is
 * left as it is (a generic function's body is checked once per
 * instantiation).  Python and Warp evaluate the arguments as written and
 * the positional call in parameter order, so two keywords written in the
 * other order than their parameters' must be plain names or constants.
 */
#include <string.h>
#include "check.h"

typedef struct {
  const char *name;
  const char *params[3];
} KwSig;

static const KwSig sigs[] = {
    {"abs", {"x"}},           {"acos", {"x"}},
    {"asin", {"x"}},          {"atan", {"x"}},
    {"atan2", {"y", "x"}},    {"cbrt", {"x"}},
    {"ceil", {"x"}},          {"clamp", {"x", "low", "high"}},
    {"copysign", {"x", "y"}}, {"cos", {"x"}},
    {"cosh", {"x"}},          {"cross", {"a", "b"}},
    {"degrees", {"x"}},       {"determinant", {"a"}},
    {"dot", {"a", "b"}},      {"erf", {"x"}},
    {"erfc", {"x"}},          {"erfinv", {"x"}},
    {"erfcinv", {"x"}},       {"exp", {"x"}},
    {"floor", {"x"}},         {"frac", {"x"}},
    {"inverse", {"a"}},       {"length", {"a"}},
    {"length_sq", {"a"}},     {"lerp", {"a", "b", "t"}},
    {"log", {"x"}},           {"log10", {"x"}},
    {"log2", {"x"}},          {"max", {"a", "b"}},
    {"min", {"a", "b"}},      {"mod", {"a", "b"}},
    {"normalize", {"a"}},     {"outer", {"a", "b"}},
    {"pow", {"x", "y"}},      {"radians", {"x"}},
    {"rint", {"x"}},          {"round", {"x"}},
    {"sign", {"x"}},          {"sin", {"x"}},
    {"sinh", {"x"}},          {"smoothstep", {"a", "b", "x"}},
    {"sqrt", {"x"}},          {"step", {"x"}},
    {"tan", {"x"}},           {"tanh", {"x"}},
    {"trace", {"a"}},         {"transpose", {"a"}},
    {"trunc", {"x"}},         {"quat_rotate", {"quat", "vec"}},
    {"quat_rotate_inv", {"quat", "vec"}},
    {"quat_from_axis_angle", {"axis", "angle"}},
    {"quat_inverse", {"quat"}},
    {"cw_mul", {"a", "b"}},   {"cw_div", {"a", "b"}},
    {"quat_to_matrix", {"quat"}},
    {"quat_from_matrix", {"mat"}},
    {"transform_compose", {"position", "rotation", "scale"}},
    {"transform_decompose", {"m"}},
    {"transform_get_translation", {"xform"}},
    {"transform_get_rotation", {"xform"}},
    {"transform_inverse", {"xform"}},
};

/* Does evaluating n have an effect (a call, which may draw a random
 * number, store or print)?  Literals and names do not. */
static bool may_have_effect(Node *n) {
  return !(n->kind == N_INT || n->kind == N_FLOAT || n->kind == N_NAME ||
           check_is_literal(n));
}

Node *check_builtin_kwargs(Ctx *X, Node *call, const char *w) {
  if (!call->kwargs)
    return call;
  const KwSig *s = NULL;
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (!strcmp(sigs[i].name, w))
      s = &sigs[i];
  if (!s)
    return call;
  int np = 0;
  while (np < 3 && s->params[np])
    np++;
  Node *slot[3] = {NULL, NULL, NULL};
  int k = 0;
  for (Node *a = call->args; a; a = a->next, k++)
    if (k < 3)
      slot[k] = a;
  if (k > np)
    ERR(call->pos, "wp.%s() takes at most %d arguments, got %d", w, np, k);
  int last = k - 1; /* the highest parameter given */
  int nkw = 0;
  Node *kws[3];
  int kwp[3];
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    int j = -1;
    for (int p = 0; p < np; p++)
      if (!strcmp(kw->name, s->params[p]))
        j = p;
    if (j < 0)
      ERR(kw->pos, "wp.%s() has no parameter '%s'", w, kw->name);
    if (slot[j])
      ERR(kw->pos, "wp.%s() got parameter '%s' twice", w, kw->name);
    slot[j] = kw->a;
    if (nkw < 3) {
      kws[nkw] = kw->a;
      kwp[nkw++] = j;
    }
    if (j > last)
      last = j;
  }
  /* Warp evaluates the arguments as written; the positional call
   * evaluates them in parameter order. */
  for (int x = 0; x < nkw; x++)
    for (int y = x + 1; y < nkw; y++)
      if (kwp[y] < kwp[x] &&
          (may_have_effect(kws[x]) || may_have_effect(kws[y])))
        ERR(kws[y]->pos, "keyword arguments of wp.%s() out of parameter "
                         "order must be names or constants (a call among "
                         "them would be evaluated out of order)", w);
  for (int p = 0; p <= last; p++)
    if (!slot[p])
      ERR(call->pos, "wp.%s() is missing its argument '%s'", w, s->params[p]);
  /* New nodes for the arguments, so the source's lists stay as written. */
  Node head = {0}, *tail = &head;
  for (int p = 0; p <= last; p++) {
    Node *a = arena_alloc(X->C, sizeof *a);
    *a = *slot[p];
    a->next = NULL;
    tail->next = a;
    tail = a;
  }
  Node *c = arena_alloc(X->C, sizeof *c);
  *c = *call;
  c->args = head.next;
  c->kwargs = NULL;
  return c;
}
