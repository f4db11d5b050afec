/*
 * check_vecn.c -- the sizes of vectors and matrices.
 *
 * Warp's vectors may have any positive length and its matrices any
 * positive shape (wp.types.vector(length=9, dtype=...), a (10, 3)
 * matrix); kern's types and emitters are generic in the size, so the only
 * question left is which sizes a program may name.  Warp refuses a length
 * or dimension below 1; kern also refuses more than TY_MAX_COMPONENTS
 * components in all, a bound no real program reaches.  Part of the
 * checker (check.h).
 */
#include <string.h>
#include "check.h"

/* Refuses a vector length Warp or kern cannot have; `what` names the
 * construct for the message (wp.types.vector). */
void check_vec_length(Ctx *X, Node *at, const char *what, int n) {
  if (n < 1)
    ERR(at->pos, "%s() needs a length of at least 1, got %d", what, n);
  if (n > TY_MAX_COMPONENTS)
    ERR(at->pos, "%s() of length over %d is not supported (kern's limit on "
                 "the components of a vector or matrix)", what,
        TY_MAX_COMPONENTS);
}

/* The same for a matrix of r rows and c columns. */
void check_mat_shape(Ctx *X, Node *at, const char *what, int r, int c) {
  if (r < 1 || c < 1)
    ERR(at->pos, "%s() needs a shape of at least (1, 1), got (%d, %d)", what,
        r, c);
  if (r > TY_MAX_COMPONENTS || c > TY_MAX_COMPONENTS ||
      r * c > TY_MAX_COMPONENTS)
    ERR(at->pos, "%s() of more than %d components is not supported (kern's "
                 "limit on the components of a vector or matrix)", what,
        TY_MAX_COMPONENTS);
}

/* A vector or matrix type called with Warp's keywords, mat32d(m,
 * shape=(3, 2)), vec5(length=5): Warp checks them against the type's own
 * size (and dtype), so kern does too and then drops them. */
Node *check_sized_kwargs(Ctx *X, Node *call, const Type *t, const char *name) {
  for (Node *k = call->kwargs; k; k = k->next) {
    if (!strcmp(k->name, "length") && t->kind == TY_VEC) {
      if (check_type_int(X, k->a) != t->rows)
        ERR(k->a->pos, "%s() has length %d; length= must say so", name,
            t->rows);
    } else if (!strcmp(k->name, "shape") && t->kind == TY_MAT) {
      Node *s = k->a;
      if (s->kind != N_TUPLE || check_count_args(s->args) != 2 ||
          check_type_int(X, s->args) != t->rows ||
          check_type_int(X, s->args->next) != t->cols)
        ERR(s->pos, "%s() has shape (%d, %d); shape= must say so", name,
            t->rows, t->cols);
    } else if (!strcmp(k->name, "dtype")) {
      const Type *d = check_type_expr(X, k->a, "dtype");
      if (!ty_eq(d, ty_scalar(t->sc)))
        ERR(k->a->pos, "%s() holds %s; dtype= must say so", name,
            TN(ty_scalar(t->sc)));
    } else {
      ERR(k->pos, "%s() has no parameter '%s'", name, k->name);
    }
  }
  Node *c = arena_alloc(X->C, sizeof *c);
  *c = *call;
  c->kwargs = NULL;
  return c;
}

/* ---------------------------------------------------------------- generic sizes */

/* Warp's partly generic vector and matrix types, wp.types.vector(Any,
 * float), wp.types.matrix((Any, Any), float), wp.types.vector(3, wp.Int):
 * a TY_ANY (so ty_is_generic() holds and a function or kernel with such a
 * parameter is instantiated per argument type, check_generic.c) whose
 * items are the pattern, a TY_VEC or TY_MAT with 0 for a size left open,
 * and the dtype, a scalar or a constrained Any (wp.Int, wp.Float,
 * wp.Scalar, Any). */
static const char *size_name(Compiler *C, int k) {
  return k ? arena_printf(C, "%d", k) : "Any";
}

const Type *check_vecn_type(Ctx *X, bool vec, int r, int c, const Type *dt) {
  if (dt->kind == TY_SCALAR && r > 0 && (vec || c > 0))
    return vec ? ty_vec(X->C, dt->sc, r) : ty_mat(X->C, dt->sc, r, c);
  Type *p = arena_alloc(X->C, sizeof *p);
  p->kind = vec ? TY_VEC : TY_MAT;
  p->rows = r;
  p->cols = vec ? 1 : c;
  p->sc = dt->kind == TY_SCALAR ? dt->sc : KERN_SCALAR_FLOAT32;
  const Type **items = arena_alloc(X->C, sizeof(Type *) * 2);
  items[0] = p;
  items[1] = dt;
  Type *t = arena_alloc(X->C, sizeof *t);
  t->kind = TY_ANY;
  t->n = 2;
  t->items = items;
  const char *dn = ty_name(X->C, dt);
  t->name = vec ? arena_printf(X->C, "vector(length=%s, dtype=%s)",
                               size_name(X->C, r), dn)
                : arena_printf(X->C, "matrix(shape=(%s, %s), dtype=%s)",
                               size_name(X->C, r), size_name(X->C, c), dn);
  return t;
}

bool check_vecn_is_pattern(const Type *t) {
  return t->kind == TY_ANY && t->n == 2 && t->items;
}

/* Does a value of type arg fit the pattern param? */
bool check_vecn_fits(const Type *param, const Type *arg) {
  const Type *p = param->items[0], *dt = param->items[1];
  if (arg->kind != p->kind || arg->quat || arg->xform)
    return false;
  if ((p->rows && p->rows != arg->rows) || (p->cols && p->cols != arg->cols))
    return false;
  if (dt->kind == TY_SCALAR)
    return dt->sc == arg->sc;
  return check_ty_fits(dt, ty_scalar(arg->sc));
}

/* Is n `Any` (typing.Any, bare or qualified)? */
bool check_is_any_node(Node *n) {
  return (n->kind == N_NAME && !strcmp(n->name, "Any")) ||
         (n->kind == N_ATTR && !strcmp(n->name, "Any"));
}

/* A size in a type: an integer constant, Literal[N], or Any (0). */
static int size_arg(Ctx *X, Node *n, const char *what) {
  if (check_is_any_node(n))
    return 0;
  if (n->kind == N_SUBSCRIPT && n->a->kind == N_NAME &&
      !strcmp(n->a->name, "Literal") && n->args && !n->args->next)
    n = n->args;
  int k = check_type_int(X, n);
  if (k < 0)
    ERR(n->pos, "%s needs sizes that are integer constants, Literal[N] or "
                "Any", what);
  return k;
}

/* Warp's subscript type hints, Vector[dtype, Literal[N]] and
 * Matrix[dtype, Literal[R], Literal[C]] (from warp.types); NULL when n is
 * not one. */
const Type *check_vecn_subscript(Ctx *X, Node *n) {
  if (n->kind != N_SUBSCRIPT)
    return NULL;
  const char *base = n->a->kind == N_NAME ? n->a->name
                     : n->a->kind == N_ATTR ? n->a->name : NULL;
  if (!base || (strcmp(base, "Vector") && strcmp(base, "Matrix")))
    return NULL;
  bool vec = base[0] == 'V';
  const char *what = vec ? "Vector[dtype, length]" : "Matrix[dtype, rows, cols]";
  if (check_count_args(n->args) != (vec ? 2 : 3))
    ERR(n->pos, "%s takes %d parameters", what, vec ? 2 : 3);
  const Type *dt = check_type_expr(X, n->args, "dtype");
  if (dt->kind != TY_SCALAR && (dt->kind != TY_ANY || check_vecn_is_pattern(dt)))
    ERR(n->args->pos, "the dtype of %s must be a scalar type, got %s", what,
        TN(dt));
  int r = size_arg(X, n->args->next, what);
  int c = vec ? 1 : size_arg(X, n->args->next->next, what);
  if (vec && r)
    check_vec_length(X, n, "Vector", r);
  if (!vec && r && c)
    check_mat_shape(X, n, "Matrix", r, c);
  return check_vecn_type(X, vec, r, c, dt);
}

/* wp.static(len(v)) with v a vector or matrix variable: its length is
 * part of its type, known when the kernel is compiled, so Warp evaluates
 * it there; NULL when the expression is something else. */
IrExpr *check_vecn_static_len(Ctx *X, Node *a) {
  if (a->kind != N_CALL || a->a->kind != N_NAME || strcmp(a->a->name, "len") ||
      !a->args || a->args->next || a->kwargs || a->args->kind != N_NAME)
    return NULL;
  Local *l = check_find_local(X, a->args->name);
  if (!l || (l->ty->kind != TY_VEC && l->ty->kind != TY_MAT))
    return NULL;
  return ir_const_int(X->C, ty_scalar(KERN_SCALAR_INT32), (uint64_t)l->ty->rows);
}
