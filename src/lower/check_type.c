/*
 * check_type.c -- names: types (wp.float32, wp.array(dtype=...), structs)
 * and the locals, constants and functions a name may refer to; and the
 * conversions of literals and conditions to the type a context needs.
 * Part of the checker (check.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---------------------------------------------------------------- names of types */

static const struct {
  const char *name;
  kern_scalar sc;
} scalar_names[] = {
    {"bool", KERN_SCALAR_BOOL},     {"int8", KERN_SCALAR_INT8},       {"int16", KERN_SCALAR_INT16},
    {"int32", KERN_SCALAR_INT32},   {"int64", KERN_SCALAR_INT64},     {"uint8", KERN_SCALAR_UINT8},
    {"uint16", KERN_SCALAR_UINT16}, {"uint32", KERN_SCALAR_UINT32},   {"uint64", KERN_SCALAR_UINT64},
    {"float32", KERN_SCALAR_FLOAT32}, {"float64", KERN_SCALAR_FLOAT64},
    {"float16", KERN_SCALAR_FLOAT16}, {"bfloat16", KERN_SCALAR_BFLOAT16}, {NULL, 0}};

static const struct {
  const char *suffix;
  kern_scalar sc;
} vec_suffixes[] = {{"", KERN_SCALAR_FLOAT32}, {"f", KERN_SCALAR_FLOAT32}, {"d", KERN_SCALAR_FLOAT64},
                    {"i", KERN_SCALAR_INT32},  {"ui", KERN_SCALAR_UINT32}, {"l", KERN_SCALAR_INT64},
                    {"ul", KERN_SCALAR_UINT64}, {"s", KERN_SCALAR_INT16},  {"us", KERN_SCALAR_UINT16},
                    {"b", KERN_SCALAR_INT8},   {"ub", KERN_SCALAR_UINT8},
                    {"h", KERN_SCALAR_FLOAT16}, {NULL, 0}};

/* The type spelled wp.NAME, or NULL.  *second_stage is set for names kern
 * knows but does not support yet. */
const Type *check_wp_type_named(Compiler *C, const char *name,
                          bool *second_stage) {
  *second_stage = false;
  switch (name[0]) { /* the first letters of the names below */
  case 'b': case 'i': case 'u': case 'f': case 'q': case 't': case 's':
  case 'v': case 'm':
    break;
  default:
    return NULL; /* most wp.NAMEs are functions: no table walk */
  }
  for (int i = 0; scalar_names[i].name; i++)
    if (!strcmp(name, scalar_names[i].name))
      return ty_scalar(scalar_names[i].sc);
  if (!strcmp(name, "quat") || !strcmp(name, "quatf"))
    return ty_quat(C, KERN_SCALAR_FLOAT32);
  if (!strcmp(name, "quatd"))
    return ty_quat(C, KERN_SCALAR_FLOAT64);
  if (!strcmp(name, "transform") || !strcmp(name, "transformf"))
    return ty_xform(C, KERN_SCALAR_FLOAT32);
  if (!strcmp(name, "transformd"))
    return ty_xform(C, KERN_SCALAR_FLOAT64);
  if (!strcmp(name, "quath"))
    return ty_quat(C, KERN_SCALAR_FLOAT16);
  if (!strcmp(name, "transformh"))
    return ty_xform(C, KERN_SCALAR_FLOAT16);
  /* Warp's spatial vectors and matrices are its 6-vectors and 6x6
   * matrices (spatial.h), so they are kern's too; the suffix h is
   * float16, as for vectors. */
  if (!strncmp(name, "spatial_vector", 14) || !strncmp(name, "spatial_matrix", 14)) {
    const char *suf = name + 14;
    kern_scalar sc = !*suf || !strcmp(suf, "f") ? KERN_SCALAR_FLOAT32
                     : !strcmp(suf, "d")         ? KERN_SCALAR_FLOAT64
                     : !strcmp(suf, "h")         ? KERN_SCALAR_FLOAT16
                                                 : KERN_SCALAR_COUNT;
    if (sc != KERN_SCALAR_COUNT)
      return name[8] == 'v' ? ty_vec(C, sc, 6) : ty_mat(C, sc, 6, 6);
  }
  if ((!strncmp(name, "quat", 4) && !strchr(name, '_')) ||
      (!strncmp(name, "transform", 9) && !strchr(name, '_')) ||
      !strncmp(name, "spatial_", 8)) {
    *second_stage = true;
    return NULL;
  }
  if (!strncmp(name, "vec", 3) && name[3] >= '2' && name[3] <= '4') {
    const char *suf = name + 4;
    for (int i = 0; vec_suffixes[i].suffix; i++)
      if (!strcmp(suf, vec_suffixes[i].suffix))
        return ty_vec(C, vec_suffixes[i].sc, name[3] - '0');
    return NULL;
  }
  if (!strncmp(name, "mat", 3) && name[3] >= '2' && name[3] <= '4' &&
      name[4] == name[3]) {
    const char *suf = name + 5;
    if (!strcmp(suf, "h"))
      return ty_mat(C, KERN_SCALAR_FLOAT16, name[3] - '0', name[3] - '0');
    if (!strcmp(suf, "") || !strcmp(suf, "f"))
      return ty_mat(C, KERN_SCALAR_FLOAT32, name[3] - '0', name[3] - '0');
    if (!strcmp(suf, "d"))
      return ty_mat(C, KERN_SCALAR_FLOAT64, name[3] - '0', name[3] - '0');
  }
  return NULL;
}

/* Warp's named constants (warp/_src/constants.py): Python floats, so a
 * kernel sees them as float32. */
static const struct {
  const char *name;
  double value;
} wp_constants[] = {
    {"e", 2.71828182845904523536},     {"log2e", 1.44269504088896340736},
    {"log10e", 0.43429448190325182765}, {"ln2", 0.69314718055994530942},
    {"ln10", 2.30258509299404568402},  {"phi", 1.61803398874989484820},
    {"pi", 3.14159265358979323846},    {"half_pi", 1.57079632679489661923},
    {"tau", 6.28318530717958647692},   {NULL, 0}};

bool check_wp_builtin_constant(const char *name, double *v) {
  char lower[16];
  size_t n = strlen(name);
  if (n >= sizeof lower)
    return false;
  /* each has an upper-case twin (wp.PI, wp.HALF_PI) */
  bool all_upper = true, all_lower = true;
  for (size_t i = 0; i <= n; i++) {
    char c = name[i];
    if (c >= 'a' && c <= 'z')
      all_upper = false;
    if (c >= 'A' && c <= 'Z') {
      all_lower = false;
      c = (char)(c - 'A' + 'a');
    }
    lower[i] = c;
  }
  if (!all_upper && !all_lower)
    return false;
  if (!strcmp(lower, "inf")) {
    *v = INFINITY;
    return true;
  }
  if (!strcmp(lower, "nan")) {
    *v = NAN;
    return true;
  }
  for (int i = 0; wp_constants[i].name; i++)
    if (!strcmp(lower, wp_constants[i].name)) {
      *v = wp_constants[i].value;
      return true;
    }
  return false;
}

bool check_is_wp(Ctx *X, Node *n) {
  if (!n || n->kind != N_NAME) return false;
  for (int i = 0; i < X->M->nwp; i++)
    if (!strcmp(n->name, X->M->wps[i])) return true;
  return false;
}

/* Is NAME, written without `wp.`, one of Warp's builtin functions or
 * types?  Warp looks a bare name up among its builtins when the module
 * does not define it (`from warp import *` style, `expect_eq(...)` in
 * Warp's own tests); Python's own builtins keep their meaning. */
static bool bare_builtin(Ctx *X, const char *name) {
  static const char *const python[] = {
      "print", "min", "max", "abs", "round", "pow", "len", "range", "float",
      "int", "bool", "type", "isinstance", "tuple", NULL};
  /* Warp resolves these although they are not in builtin_lookup's
   * table; a bare tid() it does not resolve */
  static const char *const stmts[] = {"expect_eq", "expect_neq",
                                      "expect_near", NULL};
  for (int i = 0; python[i]; i++)
    if (!strcmp(name, python[i]))
      return false;
  if (check_find_local(X, name) || check_find_func(X, name) ||
      check_find_struct(X, name) || check_find_const(X, name) ||
      names_get(&X->fn_locals, name)) /* add = wp.static(F["add"]) */
    return false;
  for (int i = 0; stmts[i]; i++)
    if (!strcmp(name, stmts[i]))
      return true;
  bool second = false;
  return builtin_lookup(name) >= 0 || check_wp_type_named(X->C, name, &second);
}

/* "NAME" when n is wp.NAME, wp.types.NAME (Warp's types module, which
 * holds the same constructors) or a bare builtin name (bare_builtin), else
 * NULL. */
const char *check_wp_attr(Ctx *X, Node *n) {
  if (n && n->kind == N_ATTR && check_is_wp(X, n->a))
    return n->name;
  if (n && n->kind == N_ATTR && n->a->kind == N_ATTR &&
      !strcmp(n->a->name, "types") && check_is_wp(X, n->a->a))
    return n->name;
  if (n && n->kind == N_NAME && X->M && bare_builtin(X, n->name))
    return n->name;
  return NULL;
}

/* Name lookups go through hash tables (names.c) so that checking stays
 * linear in the number of functions, constants and locals. */
Local *check_find_local(Ctx *X, const char *name) {
  intptr_t k = (intptr_t)names_get(&X->local_names, name);
  return k ? &X->locals[k - 1] : NULL;
}

/* The module-level value NAME has when the kernel is compiled: its last
 * definition, or while a constant is being evaluated, the last one above
 * it (Note [module-level values] in parse.c). */
Sym *check_find_const(Ctx *X, const char *name) {
  /* const_names maps a name to its last definition (check_consts fills
   * it), and each definition links the one it shadows. */
  Sym *s = names_get(&X->M->const_names, name);
  if (X->const_limit)
    while (s && s->order >= X->const_limit->order)
      s = s->shadowed;
  return s;
}


StructDef *check_find_struct(Ctx *X, const char *name) {
  /* `S1 = S` at the top level names the struct S too; a chain of such
   * aliases is followed a bounded number of steps (a cycle is no struct) */
  for (int hops = 0; name && hops < 16; hops++) {
    for (StructDef *d = X->M->structs; d; d = d->next)
      if (!strcmp(d->name, name))
        return d;
    Sym *s = names_get(&X->M->const_names, name);
    name = s && s->pyglobal && s->value && s->value->kind == N_NAME
               ? s->value->name : NULL;
  }
  return NULL;
}

/* A value a variable can hold: scalar, vector, matrix or struct. */
bool check_is_valuelike(const Type *t) {
  return ty_is_value(t) || t->kind == TY_STRUCT;
}


/* The type of a @wp.struct, resolved the first time it is named; fields
 * are scalars, vectors, matrices and other structs. */
const Type *check_struct_type(Ctx *X, StructDef *d, Pos use) {
  if (d->ty)
    return d->ty;
  if (d->resolving)
    ERR(use, "struct '%s' contains itself", d->name);
  d->resolving = true;
  Type *t = arena_alloc(X->C, sizeof *t);
  t->kind = TY_STRUCT;
  t->name = d->name;
  t->n = d->nfields;
  t->fnames = d->fnames;
  const Type **items = arena_alloc(X->C, sizeof(Type *) * (size_t)d->nfields);
  for (int i = 0; i < d->nfields; i++) {
    const Type *ft = check_type_expr(X, d->fannots[i], arena_printf(
                                   X->C, "field '%s' of '%s'", d->fnames[i],
                                   d->name));
    /* An array field is Warp's array descriptor in the struct's bytes
     * (base/layout.c); kernels read through it. */
    if (!check_is_valuelike(ft) && ft->kind != TY_ARRAY)
      ERR(d->fannots[i]->pos, "a field of type %s is not supported",
          TN(ft));
    items[i] = ft;
  }
  t->items = items; /* none for an empty struct (Note [empty structs]) */
  d->ty = t;
  d->resolving = false;
  return t;
}

Func *check_find_func(Ctx *X, const char *name) {
  return names_get(&X->M->func_names, name);
}


/* The number of dimensions an array type name implies: 1 for wp.array and
 * wp.array1d, N for wp.arrayNd, 0 when fn names no array kind. */
static int array_kind_ndim(const char *fn) {
  if (!fn)
    return 0;
  if (!strcmp(fn, "array") || !strcmp(fn, "array1d"))
    return 1;
  if (!strcmp(fn, "array2d"))
    return 2;
  if (!strcmp(fn, "array3d"))
    return 3;
  if (!strcmp(fn, "array4d"))
    return 4;
  return 0;
}

/* The subscript spelling Warp's documentation uses today: wp.array[float],
 * wp.array[wp.vec3], wp.array2d[float], and wp.array[float, 2] (dtype, then
 * the number of dimensions, only on wp.array itself, as Warp 1.19 has it). */
static const Type *array_subscript_type(Ctx *X, Node *n) {
  const char *fn = check_wp_attr(X, n->a);
  int ndim = array_kind_ndim(fn);
  int nargs = 0;
  for (Node *a = n->args; a; a = a->next)
    nargs++;
  if (nargs > 2 || (nargs == 2 && strcmp(fn, "array")))
    ERR(n->pos, "wp.%s[...] takes the element type%s", fn,
        strcmp(fn, "array") ? "" : " and optionally the number of dimensions");
  const Type *dtype = check_type_expr(X, n->args, "array element type");
  if (nargs == 2) {
    Node *d = check_unwrap_literal(n->args->next); /* check_indexed.c */
    if (d->kind != N_INT || d->ival < 1 || d->ival > 4)
      ERR(d->pos, "the number of dimensions of wp.array[...] must be an "
                  "integer from 1 to 4");
    ndim = (int)d->ival;
  }
  if (!check_is_valuelike(dtype) && dtype->kind != TY_ANY)
    ERR(n->pos, "arrays of %s are not supported", TN(dtype));
  return ty_array(X->C, dtype, ndim);
}

/* An integer constant in a type: a literal or a module-level name bound
 * to one (through wp.constant); -1 otherwise.  A value past
 * TY_MAX_COMPONENTS reads as TY_MAX_COMPONENTS + 1, so that the caller's
 * range check names it as too large. */
int check_type_int(Ctx *X, Node *n) {
  for (int hops = 0; n && hops < 16; hops++) {
    if (n->kind == N_INT)
      return n->ival > TY_MAX_COMPONENTS ? TY_MAX_COMPONENTS + 1 : (int)n->ival;
    if ((n->kind == N_BINOP || n->kind == N_UNOP) && !check_not_constant(X, n)) {
      /* arithmetic on constants: `DIM = wp.constant(4 * NUM_FREQ)` */
      PyVal pv = check_py_eval(X, n);
      if (pv.kind != PV_INT || pv.ty || pv.i < 0)
        return -1;
      return pv.i > TY_MAX_COMPONENTS ? TY_MAX_COMPONENTS + 1 : (int)pv.i;
    }
    if (n->kind != N_NAME)
      return -1;
    Sym *s = check_find_const(X, n->name);
    n = s ? s->value : NULL;
    if (n && n->kind == N_CALL && check_wp_attr(X, n->a) &&
        !strcmp(check_wp_attr(X, n->a), "constant"))
      n = n->args;
  }
  return -1;
}

/* Warp's custom vector and matrix types, wp.types.vector(length=N,
 * dtype=T) (also with the length first, and as wp.vector) and
 * wp.types.matrix(shape=(R, C), dtype=T): the vector or matrix type kern
 * has of that size; NULL when n is not such a call.  Warp makes a new
 * class for each, equal to its wp.vecN/wp.matRC when the size is one of
 * those. */
static const Type *custom_type(Ctx *X, Node *n) {
  if (n->kind != N_CALL || n->a->kind != N_ATTR)
    return NULL;
  const char *w = check_wp_attr(X, n->a);
  if (!w || (strcmp(w, "vector") && strcmp(w, "matrix")))
    return NULL;
  bool vec = !strcmp(w, "vector");
  /* positional: (length, dtype) or (shape, dtype), Warp's parameter
   * order; a first argument that is no integer or shape is a component,
   * so the call is a value, not a type */
  Node *len = NULL, *shape = NULL, *dtype = NULL;
  if (n->args) {
    Node *a0 = n->args;
    if (check_count_args(n->args) > 2)
      return NULL;
    if (vec ? check_type_int(X, a0) < 0 && !check_is_any_node(a0)
            : a0->kind != N_TUPLE)
      return NULL;
    if (vec)
      len = a0;
    else
      shape = a0;
    dtype = a0->next;
  }
  for (Node *k = n->kwargs; k; k = k->next) {
    if (!strcmp(k->name, "length") && vec)
      len = k->a;
    else if (!strcmp(k->name, "shape") && !vec)
      shape = k->a;
    else if (!strcmp(k->name, "dtype"))
      dtype = k->a;
    else
      return NULL;
  }
  const Type *dt = dtype ? check_type_expr(X, dtype, "dtype") : t_f32();
  if (dt->kind != TY_SCALAR &&
      (dt->kind != TY_ANY || check_vecn_is_pattern(dt)))
    ERR(n->pos, "the dtype of wp.types.%s() must be a scalar type, got %s",
        w, TN(dt));
  /* Any as a size, or a generic dtype (wp.Int): a pattern that generic
   * functions and kernels are instantiated from (check_vecn.c) */
  bool open = dt->kind == TY_ANY;
  if (vec && len && check_is_any_node(len))
    return check_vecn_type(X, true, 0, 1, dt);
  if (!vec && shape && shape->kind == N_TUPLE &&
      check_count_args(shape->args) == 2 &&
      (check_is_any_node(shape->args) ||
       check_is_any_node(shape->args->next)))
    open = true;
  if (open && !vec && shape && shape->kind == N_TUPLE &&
      check_count_args(shape->args) == 2) {
    int r = check_is_any_node(shape->args) ? 0 : check_type_int(X, shape->args);
    int c = check_is_any_node(shape->args->next)
                ? 0 : check_type_int(X, shape->args->next);
    if (r >= 0 && c >= 0)
      return check_vecn_type(X, false, r, c, dt);
  }
  if (open && vec && len && check_type_int(X, len) >= 0)
    return check_vecn_type(X, true, check_type_int(X, len), 1, dt);
  if (vec) {
    int l = len ? check_type_int(X, len) : -1;
    if (l < 0)
      ERR(n->pos, "wp.types.vector() needs length= as an integer constant");
    check_vec_length(X, n, "wp.types.vector", l);
    return ty_vec(X->C, dt->sc, l);
  }
  if (!shape || shape->kind != N_TUPLE || check_count_args(shape->args) != 2)
    ERR(n->pos, "wp.types.matrix() needs shape=(rows, cols)");
  int r = check_type_int(X, shape->args), c = check_type_int(X, shape->args->next);
  if (r < 0 || c < 0)
    ERR(n->pos, "wp.types.matrix() needs shape= of two integer constants "
                "(generic shapes are not supported yet)");
  check_mat_shape(X, n, "wp.types.matrix", r, c);
  return ty_mat(X->C, dt->sc, r, c);
}

/* The type a module-level name is bound to (`vec5b = wp.types.vector(
 * length=3, dtype=bool)`, `V = wp.vec3`), followed through a bounded
 * chain of names; NULL when it is bound to something else. */
const Type *check_type_alias(Ctx *X, const char *name) {
  Sym *s = check_find_const(X, name);
  for (int hops = 0; s && s->pyglobal && s->value && hops < 16; hops++) {
    Node *v = s->value;
    if (v->kind == N_CALL)
      return custom_type(X, v);
    if (v->kind == N_ATTR && check_wp_attr(X, v)) {
      bool second;
      return check_wp_type_named(X->C, check_wp_attr(X, v), &second);
    }
    if (v->kind != N_NAME)
      return NULL;
    StructDef *sd = check_find_struct(X, v->name);
    if (sd)
      return NULL; /* check_find_struct resolves struct aliases */
    s = check_find_const(X, v->name);
  }
  return NULL;
}

/* Is the annotation n wp.ref[T], a reference parameter of a @wp.func
 * (Note [reference parameters] in emit/common.c)? */
bool check_is_ref_annot(Ctx *X, Node *n) {
  const char *w = n && n->kind == N_SUBSCRIPT ? check_wp_attr(X, n->a) : NULL;
  return w && !strcmp(w, "ref") && n->args && !n->args->next;
}

/* A type written where a type is expected: an annotation, a dtype=. */
const Type *check_type_expr(Ctx *X, Node *n, const char *what) {
  if (n->kind == N_NAME) {
    if (!strcmp(n->name, "int"))
      return t_i32();
    if (!strcmp(n->name, "float"))
      return t_f32();
    if (!strcmp(n->name, "bool"))
      return t_bool();
    if (!strcmp(n->name, "Any"))
      return &ty_any; /* generic (check_generic.c) */
    StructDef *sd = check_find_struct(X, n->name);
    if (sd)
      return check_struct_type(X, sd, n->pos);
    const Type *at = check_type_alias(X, n->name);
    if (at)
      return at;
    ERR(n->pos, "'%s' is not a type kern knows (%s)", n->name, what);
  }
  const Type *it = check_indexed_type(X, n); /* check_indexed.c */
  if (it)
    return it;
  const char *w = check_wp_attr(X, n);
  if (w) {
    bool second;
    const Type *t = check_wp_type_named(X->C, w, &second);
    if (t)
      return t;
    if ((t = check_generic_named(X->C, w))) /* wp.Int, wp.Float, wp.Scalar */
      return t;
    if (second)
      ERR(n->pos, "wp.%s is not supported yet (second stage of the language)",
          w);
    if (!strcmp(w, "half"))
      ERR(n->pos, "wp.half is not a Warp type; write wp.float16");
    if (!strcmp(w, "array") || !strncmp(w, "array", 5))
      ERR(n->pos, "wp.%s needs a dtype: write wp.%s[float] or "
                  "wp.%s(dtype=float)", w, w, w);
    ERR(n->pos, "wp.%s is not a type kern knows (%s)", w, what);
  }
  if (n->kind == N_SUBSCRIPT && array_kind_ndim(check_wp_attr(X, n->a)))
    return array_subscript_type(X, n);
  if (check_is_ref_annot(X, n)) /* the parameter's type; see check.c */
    return check_type_expr(X, n->args, what);
  if ((it = check_tile_annot(X, n))) /* check_tile.c */
    return it;
  if ((it = check_tstack_annot(X, n))) /* check_tstack.c */
    return it;
  if (n->kind == N_SUBSCRIPT && check_wp_attr(X, n->a) &&
      (!strncmp(check_wp_attr(X, n->a), "fabricarray", 11) ||
       !strncmp(check_wp_attr(X, n->a), "tile", 4)))
    ERR(n->pos, "wp.%s is not supported", check_wp_attr(X, n->a));
  const Type *ct = custom_type(X, n);
  if (ct)
    return ct;
  if ((ct = check_vecn_subscript(X, n))) /* Vector[float, Literal[3]] */
    return ct;
  if (n->kind == N_CALL && check_wp_attr(X, n->a) &&
      !strcmp(check_wp_attr(X, n->a), "fixedarray"))
    return check_fixed_annot(X, n); /* check_fixed.c */
  const Type *tt = check_tuple_type(X, n, what); /* check_tuple.c */
  if (tt)
    return tt;
  if (n->kind == N_ATTR && !strcmp(n->name, "Any") && n->a->kind == N_NAME &&
      !strcmp(n->a->name, "typing"))
    return &ty_any;
  if (n->kind == N_CALL) {
    const char *fn = check_wp_attr(X, n->a);
    int ndim = 0;
    if (fn && !strcmp(fn, "array"))
      ndim = 1;
    else if (fn && !strcmp(fn, "array1d"))
      ndim = 1;
    else if (fn && !strcmp(fn, "array2d"))
      ndim = 2;
    else if (fn && !strcmp(fn, "array3d"))
      ndim = 3;
    else if (fn && !strcmp(fn, "array4d"))
      ndim = 4;
    else if (fn && (!strcmp(fn, "fabricarray") || !strncmp(fn, "tile", 4)))
      ERR(n->pos, "wp.%s is not supported", fn);
    if (ndim) {
      const Type *dtype = NULL;
      int pos_i = 0;
      for (Node *a = n->args; a; a = a->next, pos_i++) {
        if (pos_i == 0)
          dtype = check_type_expr(X, a, "array element type");
        else if (pos_i == 1 && !strcmp(fn, "array")) {
          if (a->kind != N_INT || a->ival < 1 || a->ival > 4)
            ERR(a->pos, "ndim must be an integer from 1 to 4");
          ndim = (int)a->ival;
        } else
          ERR(a->pos, "too many arguments to wp.%s()", fn);
      }
      for (Node *k = n->kwargs; k; k = k->next) {
        if (!strcmp(k->name, "dtype"))
          dtype = check_type_expr(X, k->a, "array element type");
        else if (!strcmp(k->name, "ndim") && !strcmp(fn, "array")) {
          if (k->a->kind != N_INT || k->a->ival < 1 || k->a->ival > 4)
            ERR(k->a->pos, "ndim must be an integer from 1 to 4");
          ndim = (int)k->a->ival;
        } else
          ERR(k->pos, "unknown argument '%s' to wp.%s()", k->name, fn);
      }
      if (!dtype)
        ERR(n->pos, "wp.%s() needs a dtype", fn);
      if (!check_is_valuelike(dtype) && dtype->kind != TY_ANY)
        ERR(n->pos, "arrays of %s are not supported", TN(dtype));
      return ty_array(X->C, dtype, ndim);
    }
  }
  /* dtype=A.dtype, dtype=type(x) (Warp takes them wherever a dtype is
   * expected, e.g. wp.tile_zeros(..., dtype=A.dtype) in a generic kernel) */
  if (n->kind == N_ATTR || n->kind == N_CALL) {
    const Type *vt = check_type_of(X, n); /* check_generic.c */
    if (vt)
      return vt;
  }
  if (n->kind == N_STR)
    ERR(n->pos, "string annotations are not supported; write the type");
  ERR(n->pos, "expected a type (%s)", what);
}

/* ---------------------------------------------------------------- conversions */

bool check_is_literal(Node *n) {
  if (n->kind == N_UNOP && (n->op == OP_NEG || n->op == OP_POS))
    return check_is_literal(n->a);
  return n->kind == N_INT || n->kind == N_FLOAT || n->kind == N_BOOL;
}

/* Note [float to integer]: C leaves converting a double that the integer
 * type cannot hold (huge, infinite, NaN) undefined, and UBSan stops on it;
 * the fuzzers found int(1e39), wp.constant(10 ** 100) and friends
 * (tests/fuzz/crashes/ub_*).  Values in [-2^63, 2^64) truncate toward zero
 * and wrap modulo 2^64 like the integer constants below; anything else is
 * reported as not fitting.  Returns false for those. */
bool check_float_to_u64(double f, uint64_t *out) {
  if (f >= -0x1p63 && f < 0) {
    *out = (uint64_t)(int64_t)f;
    return true;
  }
  if (f >= 0 && f < 0x1p64) {
    *out = (uint64_t)f;
    return true;
  }
  return false;
}

/* Value of a literal node, for constructors that take the literal at the
 * type they construct (wp.float64(0.1) is the double nearest 0.1, and
 * wp.uint32(0xffffffff) is not an int32 overflow). */
IrExpr *check_literal_as(Ctx *X, Node *n, const Type *ty) {
  bool neg = false;
  Node *l = n;
  while (l->kind == N_UNOP) {
    if (l->op == OP_NEG)
      neg = !neg;
    l = l->a;
  }
  /* Note [integer literals]: in Warp an integer literal is an int32
   * constant, and a constructor of a type narrower than 64 bits converts
   * that constant, so a literal beyond int32 wraps first:
   * float(4294967295) is -1.0 and int(0xFFFFFFFF) is -1, while
   * wp.float64(4294967295) and wp.int64(3000000000) are exact. */
  if (l->kind != N_FLOAT && sc_bits(ty->sc) < 64) {
    int32_t v32 = (int32_t)(uint32_t)(neg ? 0 - l->ival : l->ival);
    if (sc_is_float(ty->sc))
      return ir_const_float(X->C, ty, (double)(float)v32);
    if (ty->sc == KERN_SCALAR_BOOL)
      return ir_const_int(X->C, ty, v32 != 0);
    int bits = sc_bits(ty->sc);
    uint64_t mask = bits == 32 ? 0xffffffffu : ((uint64_t)1 << bits) - 1;
    uint64_t v = (uint64_t)(int64_t)v32 & mask;
    if (sc_is_signed(ty->sc) && ((v >> (bits - 1)) & 1))
      v |= ~mask;
    return ir_const_int(X->C, ty, v);
  }
  if (sc_is_float(ty->sc) || (ty->kind == TY_SCALAR && sc_is_float(ty->sc))) {
    double v = l->kind == N_FLOAT ? l->fval : (double)l->ival;
    if (ty->sc == KERN_SCALAR_FLOAT32)
      v = (double)(float)v;
    return ir_const_float(X->C, ty, neg ? -v : v);
  }
  if (l->kind == N_FLOAT) {
    double v = neg ? -l->fval : l->fval;
    if (ty->sc == KERN_SCALAR_BOOL)
      return ir_const_int(X->C, ty, v != 0);
    uint64_t iv; /* Note [float to integer] */
    if (!check_float_to_u64(v, &iv))
      ERR(n->pos, "literal %g does not fit in %s", v, TN(ty));
    return ir_const_int(X->C, ty, iv);
  }
  uint64_t v = l->ival;
  if (ty->sc == KERN_SCALAR_BOOL)
    return ir_const_int(X->C, ty, v != 0);
  if (neg) /* unsigned: negating (int64_t)2^63 would overflow (fuzzing) */
    v = 0 - v;
  int bits = sc_bits(ty->sc);
  if (bits < 64) {
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    bool fits = sc_is_signed(ty->sc)
                    ? ((int64_t)v >= -((int64_t)1 << (bits - 1)) &&
                       (int64_t)v < ((int64_t)1 << (bits - 1)))
                    : (!neg && v <= mask);
    if (!fits)
      ERR(n->pos, "literal %s%llu does not fit in %s", neg ? "-" : "",
          (unsigned long long)l->ival, TN(ty));
    v &= mask;
    if (sc_is_signed(ty->sc) && (v >> (bits - 1)) & 1)
      v |= ~mask;
  }
  return ir_const_int(X->C, ty, v);
}

/* Converts a condition to bool as Python's truth test does. */
IrExpr *check_truth(Ctx *X, IrExpr *e, Pos pos) {
  if (ty_is_bool(e->ty))
    return e;
  if (e->ty->kind == TY_SCALAR)
    return ir_call1(X->C, BI_TRUTH, t_bool(), e);
  if (e->ty->kind == TY_ARRAY) {
    /* Warp's null-array test: true when the array has data */
    IrExpr *r = ir_expr(X->C, E_SHAPE, t_bool());
    r->var = check_array_var(X, e, pos)->var;
    r->ival = IR_NONNULL;
    return r;
  }
  ERR(pos, "a value of type %s cannot be used as a condition", TN(e->ty));
}
