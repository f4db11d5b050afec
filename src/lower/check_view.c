/*
 * check_view.c -- sub-arrays, array slices and vector / matrix slices.
 *
 * Warp lets a kernel index an array with fewer indices than it has
 * dimensions (`a[i]` of a 2-d array is a 1-d array) and with slices
 * (`a[1:5]`, `a[i, :]`, `a[:, j]`, `a[::-1]`), with run-time bounds.  Each
 * is a view: the same elements, another shape, and strides that need not
 * be the row-major ones (a column, a step).  kern's arrays are contiguous,
 * so a view has its own type, an array with `strided` set, whose C struct
 * carries strides; it is the same Warp type as the array (ty_eq ignores
 * the flag), so everything that reads an array reads a view, and a
 * @wp.func whose parameter receives a view is instantiated once more for
 * it (check_generic.c), leaving the code of contiguous arrays unchanged.
 *
 * Chained subscripts are flattened as Warp flattens them: `a[i][j]` of a
 * 2-d array is `a[i, j]`, and so is `a[1:3][0]`, which is therefore column
 * 0 of rows 1 and 2 (not NumPy's row 1).  Indices beyond the array's
 * dimensions index its element (`a[i, j][0]` of an array of vectors).
 *
 * Vector and matrix slices need constant bounds, as in Warp, and lower to
 * a constructor of the selected components: `v[1:3]` is a vec2,
 * `m[:, 0]` a column, `m[0:2, 1:3]` a mat22, a quaternion's or transform's
 * slice a plain vector.
 */
#include <string.h>
#include "check.h"

/* Warp's sentinels for an omitted start and stop (native/builtin.h). */
#define SLICE_BEGIN 2147483647
#define SLICE_END (-2147483647 - 1)

static bool is_slice(Node *n) { return n->kind == N_SLICE; }

/* A slice bound of an array: an int32 at run time, or the sentinel. */
static IrExpr *bound(Ctx *X, Node *n, int64_t absent, const char *what) {
  if (!n)
    return ir_const_int(X->C, t_i32(), (uint64_t)absent);
  IrExpr *e = check_expr(X, n);
  if (!ty_is_int(e->ty) || e->ty->sc != KERN_SCALAR_INT32)
    ERR(n->pos, "the %s of an array slice must be an int32, got %s", what,
        TN(e->ty));
  return e;
}

/* The view of arr selected by idx[0..n) (n <= arr's dimensions), each an
 * integer index or a slice.  See Note [views] in ir/ir.h for its IR. */
static IrExpr *make_view(Ctx *X, IrVar *arr, Node **idx, int n, Pos pos) {
  const Type *at = arr->ty;
  int nslices = 0;
  for (int k = 0; k < n; k++) {
    nslices += is_slice(idx[k]);
    if (at->indexed && is_slice(idx[k]))
      ERR(idx[k]->pos, "an indexed array cannot be sliced (Warp has no "
                       "slices of wp.indexedarray); index it with integers");
  }
  /* an indexed array's sub-array is the indexed array of the remaining
   * dimensions (emit/indexed.c) */
  IrExpr *e = ir_expr(X->C, E_VIEW,
                      at->indexed
                          ? ty_indexed(X->C, at->elem, at->ndim - n)
                          : check_view_type_of(X, at, at->ndim - n + nslices));
  e->var = arr;
  e->pos = pos;
  e->nargs = 3 * n;
  e->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(3 * n));
  for (int k = 0; k < n; k++) {
    Node *x = idx[k];
    if (is_slice(x)) {
      e->ival |= (uint64_t)1 << k;
      e->args[3 * k] = bound(X, x->a, SLICE_BEGIN, "start");
      e->args[3 * k + 1] = bound(X, x->b, SLICE_END, "stop");
      e->args[3 * k + 2] = bound(X, x->c, 1, "step");
      IrExpr *st = e->args[3 * k + 2];
      if (st->kind == E_CONST && st->ival == 0)
        ERR(x->c->pos, "the step of a slice cannot be zero");
    } else {
      /* counted from the end when negative, as an element index is, so
       * debug mode checks what is used */
      IrExpr *i = check_index_expr(X, check_expr(X, x), arr, k, x->pos);
      e->args[3 * k] = ir_cast(X->C, t_i32(), i);
      e->args[3 * k + 1] = ir_const_int(X->C, t_i32(), 0);
      e->args[3 * k + 2] = ir_const_int(X->C, t_i32(), 0);
    }
  }
  if (e->ty->ndim == 0)
    ERR(pos, "internal: a view of no dimensions");
  arr->read = true;
  arr->written = true; /* conservatively: the view may be stored to */
  return e;
}

/* The whole array a as a view (for a variable that is assigned arrays). */
IrExpr *check_full_view(Ctx *X, IrExpr *a, Pos pos) {
  if (a->ty->strided || a->ty->indexed || a->kind != E_VAR)
    return a;
  IrExpr *e = ir_expr(X->C, E_VIEW, check_view_type_of(X, a->ty,
                                                       a->ty->ndim));
  e->var = a->var;
  e->pos = pos;
  a->var->read = true;
  a->var->written = true;
  return e;
}

/* An array value as a variable (a view, a function's result, goes into a
 * temporary), for .shape and len(). */
IrExpr *check_array_var(Ctx *X, IrExpr *a, Pos pos) {
  if (a->kind == E_VAR)
    return a;
  if (!a->ty->strided && a->kind == E_FIELD) /* a struct's array field */
    return check_in_temp(X, a, a->a->ty->fnames[a->ival], pos);
  if (!a->ty->strided && !a->ty->indexed)
    ERR(pos, "this array expression is not supported here; assign the "
             "array to a variable first");
  return check_in_temp(X, a, "view", pos);
}

/* ---------------------------------------------------------------- vectors */

/* Constant bounds of a component slice over length len, as Python's
 * slice.indices(): the indices it selects, in out[], and their count. */
static int comp_slice(Ctx *X, Node *s, int len, int *out) {
  int64_t v[3];
  bool given[3] = {s->a != NULL, s->b != NULL, s->c != NULL};
  Node *parts[3] = {s->a, s->b, s->c};
  for (int k = 0; k < 3; k++) {
    if (!given[k])
      continue;
    IrExpr *e = check_expr(X, parts[k]);
    if (!ty_is_int(e->ty) || e->kind != E_CONST)
      ERR(parts[k]->pos, "a slice of a vector or matrix needs constant "
                         "integer bounds, as in Warp");
    v[k] = (int64_t)e->ival;
  }
  int64_t step = given[2] ? v[2] : 1;
  if (step == 0)
    ERR(s->c->pos, "the step of a slice cannot be zero");
  int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? len - 1 : len;
  int64_t start = step < 0 ? hi : lo, stop = step < 0 ? lo : hi;
  if (given[0]) {
    start = v[0] < 0 ? v[0] + len : v[0];
    start = start < lo ? lo : start > hi ? hi : start;
  }
  if (given[1]) {
    stop = v[1] < 0 ? v[1] + len : v[1];
    stop = stop < lo ? lo : stop > hi ? hi : stop;
  }
  int n = 0;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
    out[n++] = (int)i;
  if (n == 0)
    ERR(s->pos, "this slice selects no components");
  return n;
}

static IrExpr *comp(Ctx *X, IrExpr *base, int i, int j) {
  const Type *bt = base->ty;
  IrExpr *e = ir_expr(X->C, E_COMP, ty_scalar(bt->sc));
  e->a = base;
  e->b = ir_const_int(X->C, t_i32(), (uint64_t)i);
  if (j >= 0)
    e->c = ir_const_int(X->C, t_i32(), (uint64_t)j);
  return e;
}

/* One axis of a matrix or vector subscript: a slice's indices, or the one
 * constant index; *sliced tells which. */
static int axis_indices(Ctx *X, Node *x, int len, int *out, bool *sliced,
                        const char *what) {
  *sliced = is_slice(x);
  if (*sliced)
    return comp_slice(X, x, len, out);
  IrExpr *e = check_expr(X, x);
  if (!ty_is_int(e->ty) || e->kind != E_CONST)
    ERR(x->pos, "with a slice, the other index of a %s must be a constant "
                "integer", what);
  int64_t v = (int64_t)e->ival;
  if (v < 0)
    v += len;
  if (v < 0 || v >= len)
    ERR(x->pos, "%s index %lld is out of range for %d components", what,
        (long long)(int64_t)e->ival, len);
  out[0] = (int)v;
  return 1;
}

/* The components a subscript with a slice selects from a vector or
 * matrix of type bt: rows ri[0..nr) by columns ci[0..nc) (a vector's
 * components are its rows, one column); returns the type of the part. */
typedef struct Part {
  int ri[16], ci[16], nr, nc;
} Part;

static const Type *slice_part(Ctx *X, Node *n, const Type *bt, Part *p) {
  int nidx = check_count_args(n->args);
  bool rs, cs = false;
  p->nc = 1;
  if (bt->kind == TY_VEC) {
    if (nidx != 1)
      ERR(n->pos, "a vector takes one index, got %d", nidx);
    p->nr = axis_indices(X, n->args, bt->rows, p->ri, &rs, "vector");
    p->ci[0] = -1;
    return ty_vec(X->C, bt->sc, p->nr);
  }
  if (nidx > 2)
    ERR(n->pos, "a matrix takes one or two indices, got %d", nidx);
  p->nr = axis_indices(X, n->args, bt->rows, p->ri, &rs, "matrix row");
  if (nidx == 2) {
    p->nc = axis_indices(X, n->args->next, bt->cols, p->ci, &cs,
                         "matrix column");
  } else {
    p->nc = bt->cols;
    for (int k = 0; k < bt->cols; k++)
      p->ci[k] = k;
    cs = true;
  }
  return rs && cs ? ty_mat(X->C, bt->sc, p->nr, p->nc)
                  : ty_vec(X->C, bt->sc, rs ? p->nr : p->nc);
}

/* v[a:b:c], m[a:b], m[i, a:b], m[a:b, j], m[a:b, c:d]. */
IrExpr *check_comp_slice(Ctx *X, Node *n, IrExpr *base) {
  base = check_in_temp(X, base, "sliced", n->pos);
  Part p;
  const Type *rt = slice_part(X, n, base->ty, &p);
  IrExpr *e = ir_expr(X->C, E_MAKE, rt);
  e->nargs = p.nr * p.nc;
  e->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)e->nargs);
  for (int r = 0; r < p.nr; r++)
    for (int c = 0; c < p.nc; c++)
      e->args[r * p.nc + c] = comp(X, base, p.ri[r], p.ci[c]);
  return e;
}

/* v[a:b] = w, m[:, j] = c, m[0:2, 1:3] = n (and the augmented forms, which
 * read the part, combine and come here): one component store per selected
 * component of a variable. */
void check_store_comp_slice(Ctx *X, Node *target, IrExpr *value) {
  IrExpr *base = check_expr(X, target->a);
  const Type *bt = base->ty;
  if (bt->kind == TY_ARRAY)
    ERR(target->pos, "cannot assign to a slice or sub-array of an array "
                     "(Warp stores only to single elements)");
  if (bt->kind != TY_VEC && bt->kind != TY_MAT)
    ERR(target->pos, "a %s cannot be sliced", TN(bt));
  Part p;
  const Type *pt = slice_part(X, target, bt, &p);
  if (!ty_eq(value->ty, pt))
    ERR(target->pos, "cannot assign %s to a slice of type %s", TN(value->ty),
        TN(pt));
  value = check_in_temp(X, value, "part", target->pos);
  if (base->kind != E_VAR)
    ERR(target->pos, "cannot assign to a slice of %s; assign it to a "
                     "variable first (Warp has no such store either)",
        base->kind == E_LOAD ? "an array element" : "this expression");
  IrVar *var = base->var;
  for (int r = 0; r < p.nr; r++)
    for (int c = 0; c < p.nc; c++) {
      IrStmt *s = ir_stmt(X->C, S_SETCOMP, target->pos);
      s->var = var;
      s->a = ir_const_int(X->C, t_i32(), (uint64_t)p.ri[r]);
      if (p.ci[c] >= 0)
        s->b = ir_const_int(X->C, t_i32(), (uint64_t)p.ci[c]);
      /* the value's component in the part's own shape */
      if (pt->kind == TY_MAT)
        s->c = comp(X, value, r, c);
      else
        s->c = comp(X, value, p.nr > 1 ? r : c, -1);
      var->nassign++;
      check_emit(X, s);
    }
}

/* ---------------------------------------------------------------- arrays */

/* Does the subscript n (a chain of them) start at an array variable? */
static Local *array_root(Ctx *X, Node *n) {
  while (n->kind == N_SUBSCRIPT)
    n = n->a;
  if (n->kind != N_NAME)
    return NULL;
  Local *l = check_find_local(X, n->name);
  return l && l->ty->kind == TY_ARRAY ? l : NULL;
}

/* flat[0..nflat) applied to the array variable arr: a view when the
 * first ndim of them include a slice or there are fewer than ndim, else
 * an element; indices beyond the first ndim then index the view (as an
 * array variable) or the element, as Warp's recurse_subscript does. */
static IrExpr *index_var(Ctx *X, IrVar *arr, Node **flat, int nflat,
                         Node **groups, int ngroups, Pos pos) {
  int ndim = arr->ty->ndim, k;
  bool any = false;
  for (k = 0; k < nflat && k < ndim; k++)
    any |= is_slice(flat[k]);
  if (nflat <= ndim && (nflat < ndim || any))
    return make_view(X, arr, flat, nflat, pos);
  if (any) {
    IrExpr *v = check_in_temp(X, make_view(X, arr, flat, ndim, pos), "view",
                              pos);
    return index_var(X, v->var, flat + ndim, nflat - ndim, NULL, 0, pos);
  }
  if (nflat > ndim && arr->ty->elem->kind == TY_SCALAR)
    ERR(pos, "a %d-d array of %s takes %d ind%s, got %d", ndim,
        TN(arr->ty->elem), ndim, ndim == 1 ? "ex" : "ices", nflat);
  IrExpr *e = ir_expr(X->C, E_LOAD, arr->ty->elem);
  e->pos = pos;
  e->var = arr;
  e->nargs = ndim;
  e->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)ndim);
  for (k = 0; k < ndim; k++)
    e->args[k] = check_index_expr(X, check_expr(X, flat[k]), arr, k,
                                  flat[k]->pos);
  arr->read = true;
  /* the rest index the element, one subscript (group) at a time */
  int used = 0, g = 0;
  if (groups)
    for (; g < ngroups && used < ndim; g++)
      used += check_count_args(groups[g]->args);
  if (!groups || used != ndim) {
    if (nflat == ndim)
      return e;
    /* the remaining indices as one subscript of the element */
    Node tmp = {0};
    tmp.kind = N_SUBSCRIPT;
    tmp.pos = flat[ndim]->pos;
    Node **copies = arena_alloc(X->C, sizeof(Node *) * (size_t)(nflat - ndim));
    for (k = ndim; k < nflat; k++) {
      copies[k - ndim] = arena_alloc(X->C, sizeof(Node));
      *copies[k - ndim] = *flat[k];
      copies[k - ndim]->next = k + 1 < nflat ? NULL : NULL;
    }
    for (k = 0; k + 1 < nflat - ndim; k++)
      copies[k]->next = copies[k + 1];
    tmp.args = copies[0];
    return check_subscript_value(X, &tmp, e);
  }
  for (; g < ngroups; g++) {
    Node tmp = *groups[g];
    tmp.a = NULL;
    e = check_subscript_value(X, &tmp, e);
  }
  return e;
}

/* Subscripts with a slice of a vector or matrix; NULL when n is none of
 * this file's business (then check_subscript goes on as before). */
IrExpr *check_view_subscript(Ctx *X, Node *n) {
  Local *root = array_root(X, n);
  if (!root) {
    bool any = false;
    for (Node *a = n->args; a; a = a->next)
      any |= is_slice(a);
    if (!any)
      return NULL;
    IrExpr *base = check_expr(X, n->a);
    if (base->ty->kind == TY_ARRAY && base->ty->tile)
      return check_subscript_value(X, n, base); /* a part of a tile */
    if (base->ty->kind == TY_VEC || base->ty->kind == TY_MAT)
      return check_comp_slice(X, n, base);
    if (base->ty->kind == TY_ARRAY)
      return check_index_array_value(X, n, base);
    ERR(n->pos, "a %s cannot be sliced", TN(base->ty));
  }
  /* Flatten the chain into its index groups, innermost first. */
  int ngroups = 0;
  for (Node *s = n; s->kind == N_SUBSCRIPT; s = s->a)
    ngroups++;
  Node **groups = arena_alloc(X->C, sizeof(Node *) * (size_t)ngroups);
  int g = ngroups;
  for (Node *s = n; s->kind == N_SUBSCRIPT; s = s->a)
    groups[--g] = s;
  int nflat = 0;
  for (g = 0; g < ngroups; g++)
    nflat += check_count_args(groups[g]->args);
  Node **flat = arena_alloc(X->C, sizeof(Node *) * (size_t)nflat);
  int k = 0;
  for (g = 0; g < ngroups; g++)
    for (Node *a = groups[g]->args; a; a = a->next)
      flat[k++] = a;
  if (!X->defined[root - X->locals])
    ERR(n->pos, "'%s' may be read before it is assigned", root->name);
  return index_var(X, root->var, flat, nflat, groups, ngroups, n->pos);
}

/* n's indices on an array that is not a variable (a function's result, a
 * view expression): it goes into a temporary first. */
IrExpr *check_index_array_value(Ctx *X, Node *n, IrExpr *base) {
  if (!base->ty->strided && base->kind == E_FIELD) {
    /* an array field of a struct (Warp's descriptor, docs/ABI.md): its
     * copy in a local is indexed like an array variable */
    IrExpr *v = check_array_var(X, base, n->pos);
    int nflat = check_count_args(n->args), k = 0;
    Node **flat = arena_alloc(X->C, sizeof(Node *) * (size_t)nflat);
    for (Node *a = n->args; a; a = a->next)
      flat[k++] = a;
    return index_var(X, v->var, flat, nflat, NULL, 0, n->pos);
  }
  if (!base->ty->strided && !base->ty->indexed && base->kind != E_VAR)
    ERR(n->pos, "indexing this array expression is not supported; assign "
                "the array to a variable first");
  IrExpr *v = check_in_temp(X, check_full_view(X, base, n->pos), "view",
                            n->pos);
  int nflat = check_count_args(n->args), k = 0;
  Node **flat = arena_alloc(X->C, sizeof(Node *) * (size_t)nflat);
  for (Node *a = n->args; a; a = a->next)
    flat[k++] = a;
  return index_var(X, v->var, flat, nflat, NULL, 0, n->pos);
}
