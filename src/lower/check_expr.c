/*
 * check_expr.c -- operators, subscripts and attributes, and the expression
 * walk that dispatches to them and to calls.  Part of the checker
 * (check.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---------------------------------------------------------------- operators */

IrExpr *check_binop(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos) {
  Compiler *C = X->C;
  const Type *lt = l->ty, *rt = r->ty;
  if ((lt->kind == TY_ARRAY && lt->tile) || (rt->kind == TY_ARRAY && rt->tile))
    return check_tile_binop(X, op, l, r, pos); /* check_tile.c */
  if (!ty_is_value(lt) || !ty_is_value(rt))
    ERR(pos, "unsupported operand types for %s: %s and %s", op_text(op),
        TN(lt), TN(rt));
  bool ls = lt->kind == TY_SCALAR, rs = rt->kind == TY_SCALAR;
  if (ls && rs) {
    if (!ty_eq(lt, rt))
      ERR(pos, "operands of %s have different types: %s and %s (Warp does "
               "not convert implicitly; use a constructor such as wp.%s(x))",
          op_text(op), TN(lt), TN(rt), TN(lt));
    bool isf = sc_is_float(lt->sc), isb = lt->sc == KERN_SCALAR_BOOL;
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL:
      if (isb)
        break;
      return ir_binary(C, op, lt, l, r);
    case OP_DIV:
      if (isb)
        break;
      return isf ? ir_binary(C, op, lt, l, r)
                 : ir_call2(C, BI_OP_DIV, lt, l, r);
    case OP_FLOORDIV:
      if (isb)
        break;
      return ir_call2(C, BI_OP_FLOORDIV, lt, l, r);
    case OP_MOD:
      if (isb)
        break;
      return ir_call2(C, BI_OP_MOD, lt, l, r);
    case OP_POW:
      if (!isf)
        ERR(pos, "** needs float operands, got %s (Warp has no integer "
                 "power)", TN(lt));
      return ir_call2(C, BI_POW, lt, l, r);
    case OP_BITAND: case OP_BITOR: case OP_BITXOR:
      if (isf)
        break;
      return ir_binary(C, op, lt, l, r);
    case OP_SHL: case OP_SHR:
      if (isf || isb)
        break;
      return ir_call2(C, BI_OP_SHIFT, lt, l, r)->bi = op == OP_SHL
                 ? BI_OP_SHIFT : BI_OP_SHIFT,
             ir_binary(C, op, lt, l, r);
    case OP_MATMUL:
      break;
    }
    ERR(pos, "operator %s is not defined for %s", op_text(op), TN(lt));
  }
  if (lt->sc != rt->sc)
    ERR(pos, "operands of %s have different component types: %s and %s",
        op_text(op), TN(lt), TN(rt));
  switch (op) {
  case OP_BITAND: case OP_BITOR: case OP_BITXOR: case OP_SHL: case OP_SHR:
    /* integer vectors and matrices, componentwise (check_extra.c's
     * builtins) */
    if (!ty_eq(lt, rt) || (lt->kind != TY_VEC && lt->kind != TY_MAT) ||
        !sc_is_int(lt->sc) || lt->quat || lt->xform)
      break;
    return ir_call2(C, op == OP_BITAND ? BI_BIT_AND : op == OP_BITOR ? BI_BIT_OR
                       : op == OP_BITXOR ? BI_BIT_XOR : op == OP_SHL ? BI_LSHIFT
                       : BI_RSHIFT, lt, l, r);
  case OP_ADD: case OP_SUB:
    if (!ty_eq(lt, rt))
      break;
    return ir_call2(C, op == OP_ADD ? BI_ADD : BI_SUB, lt, l, r);
  case OP_MUL: case OP_MATMUL:
    if (ls || rs) {
      if (op == OP_MATMUL)
        break;
      return ir_call2(C, BI_MUL, ls ? rt : lt, l, r);
    }
    if (lt->kind == TY_MAT && rt->kind == TY_VEC && lt->cols == rt->rows)
      return ir_call2(C, BI_MUL, ty_vec(C, lt->sc, lt->rows), l, r);
    if (lt->kind == TY_VEC && rt->kind == TY_MAT && lt->rows == rt->rows)
      return ir_call2(C, BI_MUL, ty_vec(C, lt->sc, rt->cols), l, r);
    if (lt->kind == TY_MAT && rt->kind == TY_MAT && lt->cols == rt->rows)
      return ir_call2(C, BI_MUL, ty_mat(C, lt->sc, lt->rows, rt->cols), l, r);
    if (lt->quat && rt->quat && op == OP_MUL && ty_eq(lt, rt))
      return ir_call2(C, BI_MUL, lt, l, r); /* the Hamilton product */
    if (lt->xform && rt->xform && op == OP_MUL && ty_eq(lt, rt))
      return ir_call2(C, BI_TRANSFORM_MULTIPLY, lt, l, r);
    if (lt->kind == TY_VEC && rt->kind == TY_VEC)
      ERR(pos, "%s of two vectors is not defined; use wp.dot(), wp.cross(), "
               "wp.outer() or wp.cw_mul()", op_text(op));
    break;
  case OP_MOD:
    /* Warp's vec.h mod(): componentwise, fmod for floats and C's % for
     * integers (as the scalar %). */
    if (!ty_eq(lt, rt) || lt->kind != TY_VEC || lt->quat || lt->xform ||
        lt->sc == KERN_SCALAR_BOOL)
      break;
    return ir_call2(C, BI_OP_MOD, lt, l, r);
  case OP_DIV:
    if (rs && !ls)
      return ir_call2(C, BI_DIV, lt, l, r);
    if (ls && !rs)
      return ir_call2(C, BI_DIV, rt, l, r);
    break;
  default:
    break;
  }
  ERR(pos, "unsupported operand types for %s: %s and %s", op_text(op), TN(lt),
      TN(rt));
}

/* The type C converts both operands of a binary operator to (C11
 * 6.3.1.8): float64, else float32, else the integer promotions (every
 * type narrower than int becomes int32, bool too) and then the wider type,
 * the unsigned one when the widths are equal. */
static const Type *c_common_type(const Type *a, const Type *b) {
  if (a->sc == KERN_SCALAR_FLOAT64 || b->sc == KERN_SCALAR_FLOAT64)
    return ty_scalar(KERN_SCALAR_FLOAT64);
  if (a->sc == KERN_SCALAR_FLOAT32 || b->sc == KERN_SCALAR_FLOAT32)
    return ty_scalar(KERN_SCALAR_FLOAT32);
  kern_scalar x = sc_bits(a->sc) < 32 || a->sc == KERN_SCALAR_BOOL ? KERN_SCALAR_INT32
                                                              : a->sc;
  kern_scalar y = sc_bits(b->sc) < 32 || b->sc == KERN_SCALAR_BOOL ? KERN_SCALAR_INT32
                                                              : b->sc;
  if (x == y)
    return ty_scalar(x);
  if (sc_bits(x) != sc_bits(y))
    return ty_scalar(sc_bits(x) > sc_bits(y) ? x : y);
  return ty_scalar(sc_is_signed(x) ? y : x);
}

IrExpr *check_compare(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos) {
  if (op == OP_IS || op == OP_ISNOT || op == OP_IN || op == OP_NOTIN)
    ERR(pos, "'%s' is not supported in kernels", op_text(op));
  if (!ty_eq(l->ty, r->ty))
    ERR(pos, "cannot compare %s with %s (Warp does not convert implicitly)",
        TN(l->ty), TN(r->ty));
  if (l->ty->kind == TY_SCALAR)
    return ir_binary(X->C, op, t_bool(), l, r);
  if ((l->ty->kind == TY_VEC || l->ty->kind == TY_MAT) &&
      (op == OP_EQ || op == OP_NE))
    return ir_call2(X->C, op == OP_EQ ? BI_VEC_EQ : BI_VEC_NE, t_bool(), l, r);
  ERR(pos, "operator %s is not defined for %s", op_text(op), TN(l->ty));
}

/* ---------------------------------------------------------------- subscripts */

IrExpr *check_index_expr(Ctx *X, IrExpr *i, IrVar *arr, int axis, Pos pos) {
  if (!ty_is_int(i->ty))
    ERR(pos, "array index must be an integer, got %s", TN(i->ty));
  if (!sc_is_signed(i->ty->sc))
    return i;
  if (i->kind == E_CONST && (int64_t)i->ival >= 0)
    return i;
  /* Warp counts a negative index from the end of the axis. */
  IrExpr *shape = ir_expr(X->C, E_SHAPE, i->ty);
  shape->var = arr;
  shape->ival = (uint64_t)axis;
  return ir_call2(X->C, BI_WRAP_INDEX, i->ty, i, shape);
}

static int const_index(Ctx *X, Node *n, int limit, const char *what) {
  IrExpr *e = check_expr(X, n);
  if (!ty_is_int(e->ty))
    ERR(n->pos, "%s index must be an integer, got %s", what, TN(e->ty));
  if (e->kind != E_CONST)
    return -1;
  int64_t v = (int64_t)e->ival;
  if (v < 0)
    v += limit;
  if (v < 0 || v >= limit)
    ERR(n->pos, "%s index %lld is out of range for %d components", what,
        (long long)(int64_t)e->ival, limit);
  return (int)v;
}

/* A component index of a vector or matrix: constant (checked, negative
 * counted from the end) or a run-time integer. */
IrExpr *check_comp_index(Ctx *X, Node *n, int limit, const char *what) {
  int k = const_index(X, n, limit, what);
  if (k >= 0)
    return ir_const_int(X->C, t_i32(), (uint64_t)k);
  IrExpr *e = check_expr(X, n);
  IrExpr *lim = ir_const_int(X->C, e->ty, (uint64_t)limit);
  return sc_is_signed(e->ty->sc) ? ir_call2(X->C, BI_WRAP_INDEX, e->ty, e, lim)
                                 : e;
}

IrExpr *check_subscript(Ctx *X, Node *n) {
  check_tuple_no_chain(X, n); /* t[2][1] (check_tuple.c) */
  IrExpr *tp = check_tile_subscript(X, n); /* a part of a tile (check_tile.c) */
  if (tp)
    return tp;
  /* sub-arrays and slices (check_view.c) */
  IrExpr *v = check_view_subscript(X, n);
  if (v)
    return v;
  return check_subscript_value(X, n, check_expr(X, n->a));
}

/* n's indices applied to base, already evaluated (n->a is not used). */
IrExpr *check_subscript_value(Ctx *X, Node *n, IrExpr *base) {
  const Type *bt = base->ty;
  int nidx = check_count_args(n->args);
  if (bt->kind == TY_TUPLE)
    return check_tuple_subscript(X, n, base); /* check_tuple.c */
  if (bt->kind == TY_ARRAY && bt->tile) {
    IrExpr *p = check_tile_part(X, n, &base); /* check_tile.c */
    if (p)
      return p;
    bt = base->ty;
  }
  if (bt->kind == TY_ARRAY && base->kind != E_VAR)
    return check_index_array_value(X, n, base); /* check_view.c */
  for (Node *a = n->args; a; a = a->next)
    if (a->kind == N_SLICE && (bt->kind == TY_VEC || bt->kind == TY_MAT))
      return check_comp_slice(X, n, base);
    else if (a->kind == N_SLICE)
      ERR(a->pos, "a %s cannot be sliced", TN(bt));
  if (bt->kind == TY_ARRAY) {
    if (nidx != bt->ndim || base->kind != E_VAR)
      ERR(n->pos, "a %d-d array needs %d ind%s here, got %d (sub-arrays "
                  "are supported on array variables)", bt->ndim, bt->ndim,
          bt->ndim == 1 ? "ex" : "ices", nidx);
    IrExpr *e = ir_expr(X->C, E_LOAD, bt->elem);
    e->pos = n->pos;
    e->var = base->var;
    e->nargs = nidx;
    e->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)nidx);
    int i = 0;
    for (Node *a = n->args; a; a = a->next, i++)
      e->args[i] = check_index_expr(X, check_expr(X, a), base->var, i, a->pos);
    base->var->read = true;
    return e;
  }
  if (bt->kind == TY_SHAPE) {
    if (nidx != 1)
      ERR(n->pos, "shape takes one index");
    /* Warp's shape has four entries; those past ndim are 0 */
    IrExpr *ke = n->args->kind == N_INT ? check_expr(X, n->args) : NULL;
    if (ke && (int64_t)ke->ival >= bt->ndim && (int64_t)ke->ival < 4)
      return ir_const_int(X->C, t_i32(), 0);
    int k = const_index(X, n->args, bt->ndim, "shape");
    if (k < 0)
      ERR(n->args->pos, "shape index must be a constant");
    IrExpr *e = ir_expr(X->C, E_SHAPE, t_i32());
    e->var = base->var;
    e->ival = (uint64_t)k;
    return e;
  }
  if (bt->kind == TY_VEC) {
    if (nidx != 1)
      ERR(n->pos, "a vector takes one index, got %d", nidx);
    IrExpr *e = ir_expr(X->C, E_COMP, ty_scalar(bt->sc));
    e->pos = n->pos; /* for debug mode's check of a run-time index */
    e->a = base;
    e->b = check_comp_index(X, n->args, bt->rows, "vector");
    return e;
  }
  if (bt->kind == TY_MAT) {
    if (nidx == 1) {
      IrExpr *e = ir_expr(X->C, E_COMP, ty_vec(X->C, bt->sc, bt->cols));
      e->pos = n->pos;
      e->a = base;
      e->b = check_comp_index(X, n->args, bt->rows, "matrix row");
      return e;
    }
    if (nidx != 2)
      ERR(n->pos, "a matrix takes one or two indices, got %d", nidx);
    IrExpr *e = ir_expr(X->C, E_COMP, ty_scalar(bt->sc));
    e->pos = n->pos;
    e->a = base;
    e->b = check_comp_index(X, n->args, bt->rows, "matrix row");
    e->c = check_comp_index(X, n->args->next, bt->cols, "matrix column");
    return e;
  }
  ERR(n->pos, "a %s cannot be indexed", TN(bt));
}

int check_swizzle_index(const char *name) {
  if (!name[0] || name[1])
    return -1;
  switch (name[0]) {
  case 'x': return 0;
  case 'y': return 1;
  case 'z': return 2;
  case 'w': return 3;
  }
  return -1;
}

IrExpr *check_attribute(Ctx *X, Node *n) {
  if (check_host_known(X, n)) /* math.pi in a kernel: a captured float */
    return check_host_value(X, n);
  if (check_is_wp(X, n->a)) {
    bool second;
    const Type *t = check_wp_type_named(X->C, n->name, &second);
    if (t) {
      IrExpr *e = ir_expr(X->C, E_CONST, ty_typeval(X->C, t));
      return e;
    }
    double v;
    if (check_wp_builtin_constant(n->name, &v))
      return ir_const_float(X->C, t_f32(), (double)(float)v);
    if (builtin_lookup(n->name) >= 0)
      ERR(n->pos, "wp.%s is a function; call it", n->name);
    ERR(n->pos, "wp.%s is not supported", n->name);
  }
  IrExpr *base = check_expr(X, n->a);
  const Type *bt = base->ty;
  if (bt->kind == TY_ARRAY) {
    base = check_array_var(X, base, n->pos);
    if (!strcmp(n->name, "shape")) {
      IrExpr *e = ir_expr(X->C, E_VAR, ty_shape(X->C, bt));
      e->var = base->var;
      return e;
    }
    if (!strcmp(n->name, "ndim"))
      return ir_const_int(X->C, t_i32(), (uint64_t)bt->ndim);
    ERR(n->pos, "arrays have no attribute '%s' in kernels (only .shape and "
                ".ndim)", n->name);
  }
  if (bt->kind == TY_STRUCT) {
    for (int k = 0; k < bt->n; k++)
      if (!strcmp(bt->fnames[k], n->name)) {
        IrExpr *e = ir_expr(X->C, E_FIELD, bt->items[k]);
        e->a = base;
        e->ival = (uint64_t)k;
        return e;
      }
    ERR(n->pos, "struct '%s' has no field '%s'", bt->name, n->name);
  }
  if (bt->xform && (!strcmp(n->name, "p") || !strcmp(n->name, "q")))
    return ir_call1(X->C, n->name[0] == 'p' ? BI_TRANSFORM_GET_TRANSLATION
                                            : BI_TRANSFORM_GET_ROTATION,
                    n->name[0] == 'p' ? ty_vec(X->C, bt->sc, 3)
                                      : ty_quat(X->C, bt->sc), base);
  if (bt->kind == TY_VEC) {
    int k = check_swizzle_index(n->name);
    if (k < 0)
      ERR(n->pos, "vectors have no attribute '%s' (use .x .y .z .w)",
          n->name);
    if (k >= bt->rows)
      ERR(n->pos, "a %s has no component '%s'", TN(bt), n->name);
    IrExpr *e = ir_expr(X->C, E_COMP, ty_scalar(bt->sc));
    e->a = base;
    e->b = ir_const_int(X->C, t_i32(), (uint64_t)k);
    return e;
  }
  ERR(n->pos, "a %s has no attribute '%s'", TN(bt), n->name);
}

/* ---------------------------------------------------------------- expressions */

static IrExpr *name_expr(Ctx *X, Node *n) {
  Local *l = check_find_local(X, n->name);
  if (l) {
    int idx = (int)(l - X->locals);
    if (!X->defined[idx] && !check_tile_unset_read(X, l))
      ERR(n->pos, "'%s' may be read before it is assigned (it is assigned "
                  "only on some paths before this line)", n->name);
    if (l->ty->kind == TY_TUPLE)
      return check_tuple_local(X, l); /* check_tuple.c */
    return ir_ref(X->C, l->var);
  }
  if (names_get(&X->fn_locals, n->name) ||
      (check_find_func(X, n->name) && check_fn_value(X, n)))
    ERR(n->pos, "function '%s' cannot be used as a value; call it or pass "
                "it to a wp.Function parameter", n->name);
  Sym *s = check_find_const(X, n->name);
  if (s)
    return check_const_value(X, s, n->pos);
  if (check_is_wp(X, n))
    ERR(n->pos, "the module '%s' cannot be used as a value", n->name);
  if (check_find_func(X, n->name))
    ERR(n->pos, "function '%s' cannot be used as a value; call it", n->name);
  static const char *const py[] = {"range", "len", "print", "min", "max",
                                   "abs", "float", "int", "bool", NULL};
  for (int i = 0; py[i]; i++)
    if (!strcmp(n->name, py[i]))
      ERR(n->pos, "'%s' cannot be used as a value", n->name);
  ERR(n->pos, "unknown name '%s'", n->name);
}

static IrExpr *expr(Ctx *X, Node *n);

/* Every expression remembers where the statement list ended when its check
 * began, so an operand evaluated into a temporary after a later operand
 * was checked can still go before that operand's statements. */
IrExpr *check_expr(Ctx *X, Node *n) {
  IrStmt **mark = X->tail;
  IrExpr *e = expr(X, n);
  e->mark = mark;
  return e;
}

static IrExpr *expr(Ctx *X, Node *n) {
  Compiler *C = X->C;
  switch (n->kind) {
  case N_INT:
    /* An int literal is int32, and one beyond its range wraps, as in Warp
     * (3000000000 is -1294967296); write wp.int64(...) for the value. */
    return ir_const_int(C, t_i32(), (uint64_t)(int64_t)(int32_t)(uint32_t)n->ival);
  case N_FLOAT:
    return ir_const_float(C, t_f32(), (double)(float)n->fval);
  case N_BOOL:
    return ir_const_int(C, t_bool(), n->ival);
  case N_STR:
    ERR(n->pos, "strings are only supported as the format of wp.printf()");
  case N_NONE:
    ERR(n->pos, "None is not supported in kernels");
  case N_NAME:
    return name_expr(X, n);
  case N_ATTR:
    return check_attribute(X, n);
  case N_SUBSCRIPT:
    return check_subscript(X, n);
  case N_CALL: {
    const char *w = check_wp_attr(X, n->a);
    int bi = w ? builtin_lookup(w) : -1;
    if (bi == BI_ADD || bi == BI_SUB || bi == BI_MUL || bi == BI_DIV) {
      if (check_count_args(n->args) != 2 || n->kwargs)
        ERR(n->pos, "wp.%s() takes 2 arguments", w);
      IrExpr *lr[2];
      lr[0] = check_expr(X, n->args);
      lr[1] = check_expr(X, n->args->next);
      check_order_effects(X, lr, 2, n->pos);
      IrExpr *l = lr[0], *r = lr[1];
      int op = bi == BI_ADD ? OP_ADD : bi == BI_SUB ? OP_SUB
               : bi == BI_MUL ? OP_MUL : OP_DIV;
      return check_binop(X, op, l, r, n->pos);
    }
    IrExpr *e = check_call_expr(X, n);
    if (e->ty->kind == TY_VOID)
      ERR(n->pos, "this call returns nothing and cannot be used as a value");
    return e;
  }
  case N_BINOP: {
    IrExpr *lr[2];
    lr[0] = check_expr(X, n->a);
    lr[1] = check_expr(X, n->b);
    check_order_effects(X, lr, 2, n->pos);
    return check_binop(X, n->op, lr[0], lr[1], n->pos);
  }
  case N_UNOP: {
    if (check_is_literal(n) && n->op == OP_NEG && n->a->kind == N_INT)
      return ir_const_int(C, t_i32(), (uint64_t)(int64_t)(int32_t)(uint32_t)(
                                          0u - (uint32_t)n->a->ival));
    IrExpr *a = check_expr(X, n->a);
    if (n->op == OP_POS) {
      if (!ty_is_value(a->ty) || ty_is_bool(a->ty))
        ERR(n->pos, "unary + is not defined for %s", TN(a->ty));
      return a;
    }
    if (n->op == OP_NEG && a->ty->kind == TY_ARRAY && a->ty->tile)
      return check_tile_neg(X, a, n->pos);
    if (n->op == OP_NEG) {
      if (!ty_is_value(a->ty) || a->ty->sc == KERN_SCALAR_BOOL)
        ERR(n->pos, "unary - is not defined for %s", TN(a->ty));
      /* A Python constant (a literal, a module-level value) is negated
       * exactly, as Warp's codegen folds it; a folded constructor such as
       * wp.float32(0.0) is a call in Warp, negated as 0 - x (Note
       * [negating a float]). */
      if (a->kind == E_CONST && sc_is_float(a->ty->sc) && a->ty->kind ==
          TY_SCALAR && (check_is_literal(n->a) || n->a->kind == N_NAME))
        return ir_const_float(C, a->ty, -a->fval);
      if (a->ty->kind != TY_SCALAR)
        return ir_call1(C, BI_NEG, a->ty, a);
      return check_neg_scalar(X, a, n->pos);
    }
    if ((a->ty->kind == TY_VEC || a->ty->kind == TY_MAT) &&
        sc_is_int(a->ty->sc) && !a->ty->quat && !a->ty->xform)
      return ir_call1(C, BI_INVERT, a->ty, a);
    if (!ty_is_int(a->ty))
      ERR(n->pos, "~ needs an integer, got %s", TN(a->ty));
    return ir_unary(C, OP_INVERT, a);
  }
  case N_NOT: {
    IrExpr *e = ir_expr(C, E_NOT, t_bool());
    e->a = check_truth(X, check_expr(X, n->a), n->a->pos);
    return e;
  }
  case N_AND:
  case N_OR: {
    IrExpr *e = ir_expr(C, n->kind == N_AND ? E_AND : E_OR, t_bool());
    e->a = check_truth(X, check_expr(X, n->a), n->a->pos);
    X->no_hoist++; /* evaluated only when a decides it */
    e->b = check_truth(X, check_expr(X, n->b), n->b->pos);
    X->no_hoist--;
    return e;
  }
  case N_COMPARE: {
    /* a < b < c is (a < b) and (b < c), b evaluated once: middle operands
     * that are not plain variables or constants go through temporaries. */
    IrExpr *left = check_expr(X, n->a);
    IrExpr *result = NULL;
    Node *rn = n->args;
    Node *ln = n->a;
    for (int i = 0; i < (int)n->ival; i++, rn = rn->next) {
      IrExpr *right = check_expr(X, rn);
      /* Warp compares mixed types with C's promotions; kern accepts the
       * common case, a literal on one side, by giving the literal the other
       * side's type, and rejects the rest as ambiguous. */
      if (i == 0 && !ty_eq(left->ty, right->ty) && ty_is_scalar(left->ty) &&
          ty_is_scalar(right->ty)) {
        /* Note [mixed comparisons]: Warp emits a lone comparison as C's
         * `a < b`, without a type check, so mixed scalar types compare
         * after C's usual arithmetic conversions (int32 < 2.5 compares as
         * float; uint32 <= -1 compares unsigned and is always true; a
         * float64 against a float literal widens the float32 literal). */
        const Type *ct = c_common_type(left->ty, right->ty);
        if (!ty_eq(left->ty, ct))
          left = ir_cast(C, ct, left);
        if (!ty_eq(right->ty, ct))
          right = ir_cast(C, ct, right);
      } else if (!ty_eq(left->ty, right->ty) && ty_is_scalar(left->ty) &&
          ty_is_scalar(right->ty)) {
        if (check_is_literal(rn) && !(rn->kind == N_FLOAT && ty_is_int(left->ty)))
          right = check_literal_as(X, rn, left->ty);
        else if (ln && check_is_literal(ln) &&
                 !(ln->kind == N_FLOAT && ty_is_int(right->ty)))
          left = check_literal_as(X, ln, right->ty);
      }
      ln = rn;
      if (rn->next && right->kind != E_VAR && right->kind != E_CONST) {
        Local *tmp = check_add_local(X, "cmp", right->ty, rn->pos);
        check_def_set(X, X->nlocals - 1);
        IrStmt *s = ir_stmt(C, S_ASSIGN, rn->pos);
        s->var = tmp->var;
        s->a = right;
        tmp->var->nassign++;
        check_emit(X, s);
        right = ir_ref(C, tmp->var);
      }
      IrExpr *c = check_compare(X, n->ops[i], left, right, n->pos);
      if (result) {
        IrExpr *e = ir_expr(C, E_AND, t_bool());
        e->a = result;
        e->b = c;
        result = e;
      } else {
        result = c;
      }
      left = right;
    }
    return result;
  }
  case N_IFEXP: {
    IrExpr *c = check_truth(X, check_expr(X, n->a), n->a->pos);
    X->no_hoist++; /* only one branch is evaluated */
    IrExpr *t = check_expr(X, n->b), *f = check_expr(X, n->c);
    X->no_hoist--;
    if (t->ty->kind == TY_TUPLE || f->ty->kind == TY_TUPLE)
      ERR(n->pos, "a conditional expression cannot choose between tuples "
                  "(Warp refuses it too)");
    if (t->ty->kind == TY_ARRAY && t->ty->strided != f->ty->strided) {
      t = check_full_view(X, t, n->pos); /* one C type: both views */
      f = check_full_view(X, f, n->pos);
    }
    if (!ty_eq(t->ty, f->ty))
      ERR(n->pos, "the branches of a conditional expression have different "
                  "types: %s and %s", TN(t->ty), TN(f->ty));
    IrExpr *e = ir_expr(C, E_SELECT, t->ty);
    e->a = c;
    e->b = t;
    e->c = f;
    return e;
  }
  case N_TUPLE:
    return check_tuple_literal(X, n); /* check_tuple.c */
  case N_LIST:
    ERR(n->pos, "%s literals are not supported in kernels", n->name);
  case N_SLICE:
    ERR(n->pos, "a slice can only be used inside [...]");
  case N_STARRED:
    ERR(n->pos, "unpacking with '*' is only supported in a call's "
                "arguments");
  case N_KEYWORD:
  default:
    break;
  }
  ERR(n->pos, "unsupported expression");
}

/* Unary minus of a scalar value.  Warp's scalar neg() is T(0) - x, so the
 * negation of +0.0 is +0.0 (its vector, matrix and quaternion negations
 * are -x, componentwise, and give -0.0); a literal is folded by Python, so
 * -0.0 written in the source stays -0.0 (check_expr folds it). */
IrExpr *check_neg_scalar(Ctx *X, IrExpr *a, Pos pos) {
  if (!sc_is_float(a->ty->sc))
    return ir_unary(X->C, OP_NEG, a);
  return check_binop(X, OP_SUB, ir_const_float(X->C, a->ty, 0.0), a, pos);
}
