/*
 * check_linalg.c -- Warp's small matrix decompositions: wp.svd3, wp.svd2,
 * wp.qr3 and wp.eig3 (issue #10).  Part of the checker (check.h).
 *
 * Warp has two forms of each.  One returns a tuple, which kern takes as a
 * tuple assignment (`U, sigma, V = wp.svd3(A)`); the other is a statement
 * that writes its results to variables given after the matrix
 * (`wp.svd3(A, U, sigma, V)`), as Warp's generated code passes them by
 * reference.  Both become the same thing here: A is evaluated once, into
 * a variable, and each result is a call of the builtin's helper with the
 * result's index (emit/linalg.c), assigned to its target.
 */
#include <string.h>
#include "check.h"

/* The results of each decomposition, in Warp's order. */
static const struct {
  int bi;
  int n;          /* rows and columns of A */
  int nparts;
  char kinds[4];  /* 'm' an n x n matrix, 'v' an n-vector */
  const char *form;
} decomps[] = {
    {BI_SVD3, 3, 3, "mvm", "U, sigma, V = wp.svd3(A)"},
    {BI_SVD2, 2, 3, "mvm", "U, sigma, V = wp.svd2(A)"},
    {BI_QR3, 3, 2, "mm", "Q, R = wp.qr3(A)"},
    {BI_EIG3, 3, 2, "mv", "Q, d = wp.eig3(A)"},
};

static int find_decomp(const char *w) {
  int bi = w ? builtin_lookup(w) : -1;
  for (int i = 0; i < 4; i++)
    if (decomps[i].bi == bi)
      return i;
  return -1;
}

/* A, checked against Warp's overloads (an n x n matrix of float32 or
 * float64; Warp's float16 overload is not here yet) and put in a variable
 * so that the helper calls read it once. */
static IrExpr *matrix_arg(Ctx *X, Node *call, int d, const char *name) {
  IrExpr *a = check_expr(X, call->args);
  const Type *t = a->ty;
  int n = decomps[d].n;
  if (t->kind != TY_MAT || t->rows != n || t->cols != n)
    ERR(call->args->pos, "%s() takes a %dx%d matrix, got %s", name, n, n,
        TN(t));
  if (t->sc == KERN_SCALAR_FLOAT16 || t->sc == KERN_SCALAR_BFLOAT16)
    ERR(call->args->pos, "%s() of a %s is not supported yet (float32 and "
                         "float64 are)", name, TN(t));
  if (!sc_is_float(t->sc))
    ERR(call->args->pos, "%s() takes a matrix of floats, got %s", name, TN(t));
  if (a->kind != E_VAR)
    a = check_in_temp(X, a, "arg", call->pos);
  return a;
}

static const Type *part_type(Ctx *X, int d, int i, kern_scalar sc) {
  int n = decomps[d].n;
  return decomps[d].kinds[i] == 'm' ? ty_mat(X->C, sc, n, n)
                                    : ty_vec(X->C, sc, n);
}

static IrExpr **parts_of(Ctx *X, int d, IrExpr *a) {
  IrExpr **parts = arena_alloc(X->C, sizeof(IrExpr *) * 3);
  for (int i = 0; i < decomps[d].nparts; i++) {
    IrExpr *args[2] = {a, ir_const_int(X->C, t_i32(), (uint64_t)i)};
    parts[i] = ir_call(X->C, decomps[d].bi, part_type(X, d, i, a->ty->sc), 2,
                       args);
  }
  return parts;
}

/* U, sigma, V = wp.svd3(A) and the like; NULL if w is none of them. */
IrExpr **check_linalg_unpack(Ctx *X, Node *call, const char *w, int *nparts) {
  int d = find_decomp(w);
  if (d < 0)
    return NULL;
  const char *name = arena_printf(X->C, "wp.%s", w);
  check_no_kwargs(X, call, name);
  int n = check_count_args(call->args);
  if (n != 1)
    ERR(call->pos, "%s() takes 1 argument when its results are unpacked "
                   "(%s), got %d", name, decomps[d].form, n);
  *nparts = decomps[d].nparts;
  return parts_of(X, d, matrix_arg(X, call, d, name));
}

/* wp.svd3(A, U, sigma, V) and the like as a statement: checks that each
 * output is an existing variable of the result's type (Warp passes it by
 * reference, so anything else would leave it unchanged) and returns the
 * values they take; the caller stores them.  NULL if w is none of them. */
IrExpr **check_linalg_outargs(Ctx *X, Node *call, const char *w, int *nparts) {
  int d = find_decomp(w);
  if (d < 0)
    return NULL;
  const char *name = arena_printf(X->C, "wp.%s", w);
  check_no_kwargs(X, call, name);
  int n = check_count_args(call->args);
  int np = decomps[d].nparts;
  if (n != 1 + np)
    ERR(call->pos, "%s() takes the matrix and %d output variables, got %d "
                   "arguments (or unpack its results: %s)", name, np, n,
        decomps[d].form);
  IrExpr *a = matrix_arg(X, call, d, name);
  int i = 0;
  for (Node *o = call->args->next; o; o = o->next, i++) {
    const Type *want = part_type(X, d, i, a->ty->sc);
    Local *l = o->kind == N_NAME ? check_find_local(X, o->name) : NULL;
    if (!l)
      ERR(o->pos, "output %d of %s() must be a variable that already holds "
                  "a %s (for example wp.%s())", i + 1, name, TN(want), TN(want));
    if (!ty_eq(l->ty, want))
      ERR(o->pos, "output %d of %s() must be a %s, but '%s' is a %s", i + 1,
          name, TN(want), o->name, TN(l->ty));
    if (l->is_param && l->ty->kind == TY_ARRAY)
      ERR(o->pos, "cannot assign to the array parameter '%s'", o->name);
  }
  *nparts = np;
  return parts_of(X, d, a);
}

/* wp.svd3(A) anywhere else: the results must be unpacked. */
IrExpr *check_linalg_call(Ctx *X, Node *call, const char *w) {
  int d = find_decomp(w);
  if (d < 0)
    return NULL;
  ERR(call->pos, "wp.%s() returns %d values; unpack them (%s) or pass "
                 "output variables as a statement (wp.%s(A, %s))", w,
      decomps[d].nparts, decomps[d].form, w,
      d < 2 ? "U, sigma, V" : d == 2 ? "Q, R" : "Q, d");
}
