/*
 * check_print.c -- print and Warp's test helpers (wp.expect_eq and
 * friends), which print what failed; their arguments are evaluated once,
 * in order, as Warp does.  Part of the checker (check.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---------------------------------------------------------------- Warp's test helpers */

/* A printf statement with a fixed format and arguments. */
void check_emit_printf(Ctx *X, Pos pos, const char *fmt, int n,
                             IrExpr **args) {
  IrStmt *s = ir_stmt(X->C, S_PRINTF, pos);
  s->str = arena_strndup(X->C, fmt, strlen(fmt));
  s->slen = (int)strlen(fmt);
  s->args = args;
  s->nargs = n;
  X->irf->uses_printf = true;
  check_emit(X, s);
}

/* The value of v in a fresh variable, so it is evaluated once, here. */
IrExpr *check_in_temp(Ctx *X, IrExpr *v, const char *base, Pos pos) {
  if (v->kind == E_VAR || v->kind == E_CONST)
    return v;
  Local *t = check_add_hidden_local(X, base, v->ty, pos);
  check_def_set(X, X->nlocals - 1);
  t->var->nassign++;
  IrStmt *as = ir_stmt(X->C, S_ASSIGN, pos);
  as->var = t->var;
  as->a = v;
  check_emit(X, as);
  return ir_ref(X->C, t->var);
}

/* Does evaluating e change state: an atomic, a random draw (which
 * advances its state variable), or a call of a user function? */
bool check_has_effects(IrExpr *e) {
  if (!e)
    return false;
  if (e->kind == E_ATOMIC || (e->kind == E_FCALL && e->fn->has_effects))
    return true;
  if (e->kind == E_CALL && builtin_draws(e->bi))
    return true;
  if (check_has_effects(e->a) || check_has_effects(e->b) || check_has_effects(e->c))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (check_has_effects(e->args[i]))
      return true;
  return false;
}

/* Note [evaluation order]: Warp evaluates the operands of an operator and
 * the arguments of a call once each, left to right, and all arguments of
 * wp.where; C leaves the order unspecified (gcc goes right to left) and
 * `?:` evaluates one side.  When two operands have effects, every operand
 * up to the last of them that is not a constant is evaluated into a
 * temporary, in order, before the expression (wp.where: when either value
 * has one, see builtin_call).  With one effect the order can only be seen
 * through another operand reading what it changes (f(s, wp.randf(s)), an
 * array an atomic updates), and then all are; a function's effects on
 * arrays read elsewhere are not traced.  Without effects nothing
 * changes.  Where statements cannot go before the expression (a loop
 * condition, the right side of and/or, the branches of x if c else y), the
 * order stays C's. */
/* Does e read a variable or an array that evaluating eff changes: the
 * state variable of a random draw, the array of an atomic? */
static bool changes_var(IrExpr *eff, IrVar *v) {
  if (!eff)
    return false;
  if (eff->kind == E_CALL && builtin_draws(eff->bi) &&
      eff->nargs > 0 && eff->args[0]->kind == E_VAR &&
      eff->args[0]->var == v)
    return true;
  if (eff->kind == E_ATOMIC && eff->var == v)
    return true;
  if (changes_var(eff->a, v) || changes_var(eff->b, v) ||
      changes_var(eff->c, v))
    return true;
  for (int i = 0; i < eff->nargs; i++)
    if (changes_var(eff->args[i], v))
      return true;
  return false;
}

static bool reads_changed(IrExpr *e, IrExpr *eff) {
  if (!e)
    return false;
  if ((e->kind == E_VAR || e->kind == E_LOAD) && e->var &&
      changes_var(eff, e->var))
    return true;
  if (reads_changed(e->a, eff) || reads_changed(e->b, eff) ||
      reads_changed(e->c, eff))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (reads_changed(e->args[i], eff))
      return true;
  return false;
}

/* Whether running the statements s can be seen outside a function: its
 * parameters are values, so only stores to arrays, atomics, printing and
 * calls of such functions can. */
bool check_stmts_have_effects(IrStmt *s) {
  for (; s; s = s->next) {
    if (s->kind == S_STORE || s->kind == S_PRINTF || s->kind == S_AGG ||
        s->kind == S_ASSERT)
      return true;
    if (check_has_effects(s->a) || check_has_effects(s->b) || check_has_effects(s->c))
      return true;
    for (int i = 0; i < s->nargs; i++)
      if (check_has_effects(s->args[i]))
        return true;
    if (check_stmts_have_effects(s->body) || check_stmts_have_effects(s->orelse))
      return true;
  }
  return false;
}

/* Is mark a position in the statement list being built for the current
 * statement (a mark of a shared expression, a module constant, may be
 * stale)? */
static bool in_statement(Ctx *X, IrStmt **mark) {
  if (!mark || !X->stmt_mark)
    return false;
  for (IrStmt **p = X->stmt_mark;; p = &(*p)->next) {
    if (p == mark)
      return true;
    if (p == X->tail || !*p)
      return false;
  }
}

/* Did checking v[i] emit statements (an operand's own operands evaluated
 * into temporaries because they have effects)?  Its effects are then in
 * those statements, no longer in v[i]. */
static bool emitted(Ctx *X, IrExpr **v, int n, int i) {
  if (!in_statement(X, v[i]->mark))
    return false;
  IrStmt **end = X->tail;
  for (int j = i + 1; j < n; j++)
    if (in_statement(X, v[j]->mark)) {
      end = v[j]->mark;
      break;
    }
  return v[i]->mark != end;
}

void check_order_effects(Ctx *X, IrExpr **v, int n, Pos pos) {
  if (X->no_hoist || n < 2)
    return;
  int neff = 0, last = -1, one = -1;
  for (int i = 0; i < n; i++)
    if (check_has_effects(v[i]) || emitted(X, v, n, i)) {
      neff++;
      last = i;
      one = i;
    }
  if (neff == 1) {
    /* one effect: the order shows only if another operand reads what it
     * changes (a random state it advances, an array it updates) */
    bool seen = false;
    for (int i = 0; i < n; i++)
      if (i != one && reads_changed(v[i], v[one]))
        seen = true;
    if (!seen)
      return;
    last = n - 1;
  } else if (neff < 2) {
    return;
  }
  for (int i = 0; i <= last; i++) {
    if (v[i]->kind == E_CONST || !ty_is_value(v[i]->ty))
      continue;
    /* a variable is copied too: a later operand may change it */
    Local *t = check_add_hidden_local(X, "arg", v[i]->ty, pos);
    check_def_set(X, X->nlocals - 1);
    t->var->nassign++;
    IrStmt *as = ir_stmt(X->C, S_ASSIGN, pos);
    as->var = t->var;
    as->a = v[i];
    /* before the statements the later operands' checks emitted (their
     * own temporaries), which run after this operand in Warp */
    IrStmt **at = NULL;
    for (int j = i + 1; j < n && !at; j++)
      if (in_statement(X, v[j]->mark))
        at = v[j]->mark;
    if (!at)
      at = X->tail;
    if (at == X->tail) {
      check_emit(X, as);
    } else {
      as->next = *at;
      *at = as;
    }
    /* later operands that emitted nothing now begin after this one */
    for (int j = i + 1; j < n; j++)
      if (v[j]->mark == at)
        v[j]->mark = &as->next;
    v[i] = ir_ref(X->C, t->var);
  }
}

IrExpr *check_component(Ctx *X, IrExpr *v, int k) {
  const Type *t = v->ty;
  IrExpr *e = ir_expr(X->C, E_COMP, ty_scalar(t->sc));
  e->a = v;
  if (t->kind == TY_VEC) {
    e->b = ir_const_int(X->C, t_i32(), (uint64_t)k);
  } else {
    e->b = ir_const_int(X->C, t_i32(), (uint64_t)(k / t->cols));
    e->c = ir_const_int(X->C, t_i32(), (uint64_t)(k % t->cols));
  }
  return e;
}

/* Prints v the way Warp's print() does (native/builtin.h): scalars with
 * %g, %d or %u and a newline, bool as True/False, vectors as their
 * components converted to float32, each followed by a space, then a
 * newline, matrices one such line per row; quaternions and transforms
 * in their own formats.  v must be a variable or a
 * constant (it is read once per component). */
static void print_value(Ctx *X, IrExpr *v, Pos pos) {
  const Type *t = v->ty;
  if (t->kind == TY_SCALAR) {
    if (t->sc == KERN_SCALAR_BOOL) {
      IrStmt *s = ir_stmt(X->C, S_IF, pos);
      s->a = v;
      IrStmt **save = X->tail;
      X->tail = &s->body;
      check_emit_printf(X, pos, "True\n", 0, NULL);
      X->tail = &s->orelse;
      check_emit_printf(X, pos, "False\n", 0, NULL);
      X->tail = save;
      check_emit(X, s);
      return;
    }
    IrExpr **a = arena_alloc(X->C, sizeof(IrExpr *));
    a[0] = v;
    check_emit_printf(X, pos, sc_is_float(t->sc) ? "%g\n" : sc_is_signed(t->sc)
                                                ? "%d\n" : "%u\n", 1, a);
    return;
  }
  if (t->kind != TY_VEC && t->kind != TY_MAT)
    ERR(pos, "cannot print a %s", TN(t));
  int rows = t->kind == TY_VEC ? 1 : t->rows;
  int cols = t->kind == TY_VEC ? t->rows : t->cols;
  Buf f;
  buf_init(&f, X->C);
  IrExpr **a = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(rows * cols));
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      buf_puts(&f, "%g ");
      a[r * cols + c] = ir_cast(X->C, t_f32(), check_component(X, v, r * cols + c));
    }
    buf_puts(&f, "\n");
  }
  /* Warp's quat_t and transform_t have print() overloads of their own:
   * no trailing space, and a transform as "(p) (q)". */
  const char *fmt = t->quat ? "%g %g %g %g\n"
                    : t->xform ? "(%g %g %g) (%g %g %g %g)\n" : f.p;
  check_emit_printf(X, pos, fmt, rows * cols, a);
}

/* wp.expect_eq(a, b), wp.expect_neq(a, b), wp.expect_near(a, b, tol):
 * nothing when the expectation holds, else Warp's report on stdout (its
 * wording and layout, native/builtin.h, vec.h, mat.h); the kernel goes on
 * either way. */
void check_expect_stmt(Ctx *X, Node *call, const char *w) {
  Compiler *C = X->C;
  bool near = !strcmp(w, "expect_near");
  const char *name = arena_printf(C, "wp.%s", w);
  int n;
  IrExpr *t0 = NULL;
  for (Node *k = call->kwargs; k; k = k->next)
    if (!near || strcmp(k->name, "tolerance"))
      ERR(k->pos, "%s() has no keyword argument '%s'", name, k->name);
  IrExpr **a = check_eval_args(X, call, &n);
  if (near && call->kwargs) {
    if (n != 2)
      ERR(call->pos, "%s() got the tolerance twice", name);
    t0 = check_expr(X, call->kwargs->a);
  }
  check_nargs_between(X, call, name, n + (t0 != NULL), near ? 2 : 2, near ? 3 : 2);
  const Type *t = a[0]->ty;
  if (!ty_eq(t, a[1]->ty) || !ty_is_value(t))
    check_bad_args(X, call, name, a, n);
  if (near && !sc_is_float(t->sc))
    check_bad_args(X, call, name, a, n);
  IrExpr *actual = check_in_temp(X, a[0], "actual", call->pos);
  IrExpr *expected = check_in_temp(X, a[1], "expected", call->pos);
  IrStmt *s = ir_stmt(C, S_IF, call->pos);
  IrStmt **save;
  if (!near) {
    IrExpr *eq = t->kind == TY_SCALAR
                     ? ir_binary(C, OP_EQ, t_bool(), actual, expected)
                     : ir_call2(C, BI_VEC_EQ, t_bool(), actual, expected);
    if (!strcmp(w, "expect_eq")) {
      IrExpr *ne = ir_expr(C, E_NOT, t_bool());
      ne->a = eq;
      eq = ne;
    }
    s->a = eq;
    save = X->tail;
    X->tail = &s->body;
    check_emit_printf(X, call->pos, arena_printf(C, "Error, %s() failed:\n", w),
                     0, NULL);
    check_emit_printf(X, call->pos, "\t Expected: ", 0, NULL);
    print_value(X, expected, call->pos);
    check_emit_printf(X, call->pos, "\t Actual: ", 0, NULL);
    print_value(X, actual, call->pos);
    X->tail = save;
    check_emit(X, s);
    return;
  }
  const Type *st = ty_scalar(t->sc);
  IrExpr *tol = n == 3 ? a[2] : t0;
  if (!tol)
    tol = ir_const_float(C, st, st->sc == KERN_SCALAR_FLOAT32 ? (double)1.0e-6f
                                                       : 1.0e-6);
  else if (!ty_eq(tol->ty, st))
    ERR(call->pos, "the tolerance of %s() is %s but the values hold %s", name,
        TN(tol->ty), TN(st));
  tol = check_in_temp(X, tol, "tolerance", call->pos);
  IrExpr *diff;
  if (t->kind == TY_SCALAR) {
    diff = check_in_temp(X, ir_call1(C, BI_ABS, st, ir_binary(C, OP_SUB, st, actual,
                                                        expected)),
                   "diff", call->pos);
  } else {
    /* the largest component difference, with Warp's max */
    Local *d = check_add_hidden_local(X, "diff", st, call->pos);
    check_def_set(X, X->nlocals - 1);
    IrStmt *z = ir_stmt(C, S_ASSIGN, call->pos);
    z->var = d->var;
    z->a = ir_const_float(C, st, 0.0);
    check_emit(X, z);
    for (int k = 0; k < t->rows * t->cols; k++) {
      IrExpr *dk = ir_call1(C, BI_ABS, st, ir_binary(C, OP_SUB, st,
                                                     check_component(X, actual, k),
                                                     check_component(X, expected,
                                                               k)));
      IrStmt *m = ir_stmt(C, S_ASSIGN, call->pos);
      m->var = d->var;
      m->a = ir_call2(C, BI_MAX, st, ir_ref(C, d->var), dk);
      check_emit(X, m);
    }
    d->var->nassign += 1 + t->rows * t->cols;
    diff = ir_ref(C, d->var);
  }
  s->a = ir_binary(C, OP_GT, t_bool(), diff, tol);
  save = X->tail;
  X->tail = &s->body;
  check_emit_printf(X, call->pos, "Error, expect_near() failed with tolerance ",
                   0, NULL);
  print_value(X, tol, call->pos);
  check_emit_printf(X, call->pos, "    Expected: ", 0, NULL);
  print_value(X, expected, call->pos);
  check_emit_printf(X, call->pos, "    Actual: ", 0, NULL);
  print_value(X, actual, call->pos);
  check_emit_printf(X, call->pos, t->kind == TY_SCALAR
                                     ? "    Absolute difference: "
                                     : "    Max absolute difference: ", 0,
                   NULL);
  print_value(X, diff, call->pos);
  X->tail = save;
  check_emit(X, s);
}

/* wp.print(x) and print(x): Warp's print of one value or tile. */
void check_print_stmt(Ctx *X, Node *call, const char *name) {
  check_no_kwargs(X, call, name);
  if (check_count_args(call->args) != 1)
    ERR(call->pos, "%s() takes exactly one argument in kernels", name);
  if (call->args->kind == N_STR) {
    /* print("text"): the text and a newline, as Warp's print(str) */
    Buf f;
    buf_init(&f, X->C);
    for (int k = 0; k < call->args->slen; k++) {
      if (call->args->str[k] == '%')
        buf_puts(&f, "%");
      buf_putn(&f, &call->args->str[k], 1);
    }
    buf_puts(&f, "\n");
    check_emit_printf(X, call->pos, f.p, 0, NULL);
    return;
  }
  IrExpr *v = check_expr(X, call->args);
  if (v->ty->kind == TY_ARRAY && v->ty->tile) {
    check_tile_print(X, v, call->args->pos);
    return;
  }
  if (!ty_is_value(v->ty))
    ERR(call->args->pos, "cannot print a %s", TN(v->ty));
  print_value(X, check_in_temp(X, v, "value", call->pos), call->pos);
}
