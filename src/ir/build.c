/*
 * build.c -- IR constructors.
 *
 * The checker (lower/check.c) types each AST node and lowers it in the same
 * walk, the way Lua's parser emits code as it parses: typing and lowering
 * make the same case analysis, and doing it once keeps the two from
 * drifting apart.  This file holds the constructors it lowers with, so the
 * IR's invariants (every node typed, variables unique per function) are
 * established in one place.
 */
#include <string.h>
#include "ir.h"

IrVar *ir_var(Compiler *C, IrFunc *f, const char *base, const Type *ty) {
  IrVar *v = arena_alloc(C, sizeof *v);
  /* A prefix keeps user names clear of C keywords and of the prelude's
   * names; the ordinal keeps shadowed temporaries apart.  The count and
   * the tail are kept, not found by walking the list: that made a function
   * of n locals cost n^2 (issue #8, item 12). */
  v->name = arena_printf(C, "v%d_%s", f->nlocals, base);
  v->ty = ty;
  if (!f->locals_tail)
    f->locals_tail = &f->locals;
  *f->locals_tail = v;
  f->locals_tail = &v->next;
  f->nlocals++;
  return v;
}

void ir_var_unlink(IrFunc *f, IrVar *v) {
  IrVar **lt = &f->locals;
  while (*lt != v)
    lt = &(*lt)->next;
  *lt = v->next;
  if (f->locals_tail == &v->next)
    f->locals_tail = lt;
  v->next = NULL;
  f->nlocals--;
}

IrExpr *ir_expr(Compiler *C, IrExprKind k, const Type *ty) {
  IrExpr *e = arena_alloc(C, sizeof *e);
  e->kind = k;
  e->ty = ty;
  e->bi = -1;
  return e;
}

IrExpr *ir_const_int(Compiler *C, const Type *ty, uint64_t v) {
  IrExpr *e = ir_expr(C, E_CONST, ty);
  e->ival = v;
  e->fval = sc_is_signed(ty->sc) ? (double)(int64_t)v : (double)v;
  return e;
}

IrExpr *ir_const_float(Compiler *C, const Type *ty, double v) {
  IrExpr *e = ir_expr(C, E_CONST, ty);
  e->fval = v;
  return e;
}

IrExpr *ir_ref(Compiler *C, IrVar *v) {
  IrExpr *e = ir_expr(C, E_VAR, v->ty);
  e->var = v;
  return e;
}

IrExpr *ir_unary(Compiler *C, int op, IrExpr *a) {
  IrExpr *e = ir_expr(C, E_UNARY, a->ty);
  e->op = op;
  e->a = a;
  return e;
}

IrExpr *ir_binary(Compiler *C, int op, const Type *ty, IrExpr *a, IrExpr *b) {
  IrExpr *e = ir_expr(C, E_BINARY, ty);
  e->op = op;
  e->a = a;
  e->b = b;
  return e;
}

IrExpr *ir_cast(Compiler *C, const Type *ty, IrExpr *a) {
  if (ty_eq(ty, a->ty))
    return a;
  IrExpr *e = ir_expr(C, E_CAST, ty);
  e->a = a;
  return e;
}

IrExpr *ir_call(Compiler *C, int bi, const Type *ty, int nargs, IrExpr **args) {
  IrExpr *e = ir_expr(C, E_CALL, ty);
  e->bi = bi;
  e->nargs = nargs;
  e->args = arena_alloc(C, sizeof(IrExpr *) * (size_t)(nargs ? nargs : 1));
  for (int i = 0; i < nargs; i++)
    e->args[i] = args[i];
  return e;
}

IrExpr *ir_call1(Compiler *C, int bi, const Type *ty, IrExpr *a) {
  return ir_call(C, bi, ty, 1, &a);
}

IrExpr *ir_call2(Compiler *C, int bi, const Type *ty, IrExpr *a, IrExpr *b) {
  IrExpr *args[2] = {a, b};
  return ir_call(C, bi, ty, 2, args);
}

IrStmt *ir_stmt(Compiler *C, IrStmtKind k, Pos pos) {
  IrStmt *s = arena_alloc(C, sizeof *s);
  s->kind = k;
  s->pos = pos;
  return s;
}
