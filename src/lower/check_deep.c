/*
 * check_deep.c -- splits expressions nested too deep for a target compiler.
 *
 * Python and Warp accept expressions hundreds of operators deep (Warp emits
 * one C++ statement per operation, so its code stays flat), but kern emits
 * an expression as one nested C expression, about two brackets per level,
 * and OpenCL C compilers built on clang stop at 256 nested brackets
 * ("bracket nesting level exceeded maximum of 256", PoCL).  After lowering,
 * every subexpression of SPLIT_HEIGHT levels is evaluated into a temporary
 * before its statement, so no emitted expression grows deeper than that.
 *
 * Only statements without effects are split (no atomics, random draws or
 * functions with effects), so moving a subexpression in front of the rest
 * of its statement cannot be seen, and only where the subexpression is
 * always evaluated: not inside a branch of x if c else y or the right side
 * of and/or, not in a loop condition (evaluated again every iteration).
 */
#include "check.h"

/* Deep enough that ordinary kernels never see a temporary; shallow enough
 * that the brackets stay well under 256. */
#define SPLIT_HEIGHT 48

typedef struct Split {
  Compiler *C;
  IrFunc *f;
  IrStmt **at; /* where the temporaries go: before the statement */
  Pos pos;
} Split;

static bool calls_with_outs(IrExpr *e) {
  if (!e)
    return false;
  if (e->kind == E_FCALL && e->nouts > 0)
    return true;
  if (calls_with_outs(e->a) || calls_with_outs(e->b) || calls_with_outs(e->c))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (calls_with_outs(e->args[i]))
      return true;
  return false;
}

/* The height of *slot after splitting it; `cond` is set below a branch
 * that is not always evaluated. */
static int split(Split *S, IrExpr **slot, bool cond) {
  IrExpr *e = *slot;
  if (!e)
    return 0;
  bool arms = e->kind == E_SELECT || e->kind == E_AND || e->kind == E_OR;
  int h = split(S, &e->a, cond);
  int hb = split(S, &e->b, cond || arms);
  int hc = split(S, &e->c, cond || arms);
  if (hb > h) h = hb;
  if (hc > h) h = hc;
  for (int i = 0; i < e->nargs; i++) {
    int ha = split(S, &e->args[i], cond);
    if (ha > h) h = ha;
  }
  h++;
  if (h < SPLIT_HEIGHT || cond || !e->ty || !ty_is_value(e->ty) ||
      e->kind == E_VAR || e->kind == E_CONST)
    return h;
  IrVar *t = ir_var(S->C, S->f, "deep", e->ty);
  t->nassign = 1;
  IrStmt *as = ir_stmt(S->C, S_ASSIGN, S->pos);
  as->var = t;
  as->a = e;
  as->next = *S->at;
  *S->at = as;
  S->at = &as->next;
  *slot = ir_ref(S->C, t);
  return 1;
}

static bool splittable(IrStmt *s) {
  IrExpr *v[3] = {s->a, s->b, s->c};
  for (int i = 0; i < 3; i++)
    if (check_has_effects(v[i]) || calls_with_outs(v[i]))
      return false;
  for (int i = 0; i < s->nargs; i++)
    if (check_has_effects(s->args[i]) || calls_with_outs(s->args[i]))
      return false;
  return true;
}

static void split_list(Compiler *C, IrFunc *f, IrStmt **list) {
  for (IrStmt **p = list; *p; p = &(*p)->next) {
    IrStmt *s = *p;
    split_list(C, f, &s->body);
    split_list(C, f, &s->orelse);
    if (!splittable(s))
      continue;
    Split S = {C, f, p, s->pos};
    switch (s->kind) {
    case S_ASSIGN: case S_EXPR: case S_RETURN: case S_IF:
      split(&S, &s->a, false);
      break;
    case S_FOR: /* the start is evaluated once; the bounds are variables */
      split(&S, &s->a, false);
      break;
    case S_SETCOMP:
      split(&S, &s->a, false);
      split(&S, &s->b, false);
      split(&S, &s->c, false);
      break;
    case S_STORE:
      for (int i = 0; i < s->nargs; i++)
        split(&S, &s->args[i], false);
      split(&S, &s->c, false);
      break;
    case S_SETFIELD: /* a is the field chain written */
      split(&S, &s->c, false);
      break;
    default:
      break;
    }
    /* the statement moved behind the temporaries */
    p = S.at;
  }
}

void check_split_deep(Compiler *C, IrModule *m) {
  for (IrFunc *f = m->funcs; f; f = f->next)
    split_list(C, f, &f->body);
  for (IrFunc *f = m->kernels; f; f = f->next)
    split_list(C, f, &f->body);
}
