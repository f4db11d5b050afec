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
