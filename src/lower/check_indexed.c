/*
 * check_indexed.c -- the spellings of wp.indexedarray in annotations.
 *
 * A wp.indexedarray is a data array seen through an optional int32 index
 * array per dimension: element (i, j) is data[idx0[i], idx1[j]], a
 * dimension without an index array taking i itself.  Warp spells the type
 * wp.indexedarray(dtype=T, ndim=N) (N defaults to 1),
 * wp.indexedarray1d(dtype=T) to wp.indexedarray4d(dtype=T), and
 * wp.indexedarray[T] or wp.indexedarray[T, N].  Warp's constructor takes
 * the data array first, so a type is only ever written with keywords: a
 * positional argument is refused, as Warp refuses it ("Indexed array data
 * must be a Warp array").  The type is an array type with `indexed` set
 * (base.h); it is a Warp type of its own, so a wp.array parameter does not
 * take one, nor the reverse.  Accesses are emitted by emit/indexed.c.
 */
#include <string.h>
#include "check.h"

/* 1 to 4 for wp.indexedarray (1 until ndim= says more) and the Nd forms;
 * 0 for any other name. */
static int indexed_kind_ndim(const char *fn) {
  if (!fn || strncmp(fn, "indexedarray", 12))
    return 0;
  const char *r = fn + 12;
  if (!*r)
    return 1;
  if (r[0] >= '1' && r[0] <= '4' && r[1] == 'd' && !r[2])
    return r[0] - '0';
  return 0;
}

static const Type *make(Ctx *X, Node *n, const Type *dtype, int ndim) {
  if (!check_is_valuelike(dtype) && dtype->kind != TY_ANY)
    ERR(n->pos, "indexed arrays of %s are not supported", TN(dtype));
  return ty_indexed(X->C, dtype, ndim);
}

/* n itself, or N of typing.Literal[N] (Warp 1.19's wp.indexedarray[T,
 * Literal[2]] and wp.array[T, Literal[2]] unwrap it). */
Node *check_unwrap_literal(Node *n) {
  if (n->kind == N_SUBSCRIPT && n->args && !n->args->next &&
      ((n->a->kind == N_NAME && !strcmp(n->a->name, "Literal")) ||
       (n->a->kind == N_ATTR && !strcmp(n->a->name, "Literal"))))
    return n->args;
  return n;
}

/* The number of dimensions written at n: an integer from 1 to 4. */
static int ndim_of(Ctx *X, Node *n, const char *what) {
  n = check_unwrap_literal(n);
  if (n->kind != N_INT || n->ival < 1 || n->ival > 4)
    ERR(n->pos, "the number of dimensions of %s must be an integer from 1 "
                "to 4", what);
  return (int)n->ival;
}

/* n as a wp.indexedarray type, or NULL when n is no spelling of one. */
const Type *check_indexed_type(Ctx *X, Node *n) {
  if (n->kind == N_ATTR) {
    const char *w = check_wp_attr(X, n);
    if (indexed_kind_ndim(w))
      ERR(n->pos, "wp.%s needs a dtype: write wp.%s(dtype=float)", w, w);
    return NULL;
  }
  if (n->kind == N_SUBSCRIPT) {
    const char *fn = check_wp_attr(X, n->a);
    int ndim = indexed_kind_ndim(fn);
    if (!ndim)
      return NULL;
    if (strcmp(fn, "indexedarray"))
      ERR(n->pos, "wp.%s cannot be subscripted (it is a function in Warp); "
                  "write wp.%s(dtype=...) or wp.indexedarray[dtype, %d]",
          fn, fn, ndim);
    int nargs = check_count_args(n->args);
    if (nargs < 1 || nargs > 2)
      ERR(n->pos, "wp.indexedarray[...] takes the element type and "
                  "optionally the number of dimensions");
    const Type *dtype = check_type_expr(X, n->args, "array element type");
    if (nargs == 2)
      ndim = ndim_of(X, n->args->next, "wp.indexedarray[...]");
    return make(X, n, dtype, ndim);
  }
  if (n->kind != N_CALL)
    return NULL;
  const char *fn = check_wp_attr(X, n->a);
  int ndim = indexed_kind_ndim(fn);
  if (!ndim)
    return NULL;
  if (n->args)
    ERR(n->args->pos, "wp.%s() takes the data array first; a type is "
                      "written with keywords: wp.%s(dtype=float%s)",
        fn, fn, strcmp(fn, "indexedarray") ? "" : ", ndim=1");
  const Type *dtype = NULL;
  for (Node *k = n->kwargs; k; k = k->next) {
    if (!strcmp(k->name, "dtype"))
      dtype = check_type_expr(X, k->a, "array element type");
    else if (!strcmp(k->name, "ndim")) {
      int d = ndim_of(X, k->a, "wp.indexedarray()");
      if (strcmp(fn, "indexedarray") && d != ndim)
        ERR(k->a->pos, "wp.%s has %d dimensions, not ndim=%d", fn, ndim, d);
      ndim = d;
    } else
      ERR(k->pos, "unknown argument '%s' to wp.%s() in a type", k->name, fn);
  }
  if (!dtype)
    ERR(n->pos, "wp.%s() needs a dtype", fn);
  return make(X, n, dtype, ndim);
}
