/*
 * check.c -- Warp's typing rules, name resolution, definite assignment,
 * and lowering to the IR in the same walk (see ir/build.c for why).
 *
 * This file is the lowering floor (lower/lower.h): it reads the AST of
 * lang/ and builds the IR of ir/, which know nothing of each other.
 *
 * The rules are Warp's, strict: operands of an operator have one type
 * (float32 + float64 is an error, and so is float64 * 2.0, because a float
 * literal is float32 as in Warp); a variable keeps the type of its first
 * assignment; array stores need the element type exactly.  Where Warp is
 * silently wrong kern is strict instead: a variable read where it may not
 * have been assigned is an error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lower.h"

typedef struct Local {
  const char *name;
  const Type *ty;
  IrVar *var;
  Pos pos;
  bool is_param;
} Local;

typedef struct Ctx {
  Compiler *C;
  Module *M;
  IrModule *irm;
  Func *f;
  IrFunc *irf;
  Local *locals;
  int nlocals, cap;
  Names local_names; /* name -> 1 + index of its first Local */
  bool *defined;   /* per local: definitely assigned here */
  bool *marked;    /* per local: scratch for merging branches */
  int *trail;      /* locals set in `defined`, in order (Note [defs trail]) */
  int ntrail, captrail;
  IrStmt **tail;   /* where the next statement goes */
  int loop_depth;
  bool dead;       /* the current block has returned/broken */
  bool ret_seen;
  Sym *const_limit; /* evaluating this constant: only names defined above */
  int no_hoist;     /* inside a loop condition or a conditionally evaluated
                       operand: no statements may be emitted before it */
} Ctx;

static IrExpr *expr(Ctx *X, Node *n);
static void stmts(Ctx *X, Node *list);

#define ERR(pos, ...) diag_error(X->C, pos, __VA_ARGS__)
#define TN(t) ty_name(X->C, t)

static const Type *t_i32(void) { return ty_scalar(KERN_SCALAR_INT32); }
static const Type *t_f32(void) { return ty_scalar(KERN_SCALAR_FLOAT32); }
static const Type *t_bool(void) { return ty_scalar(KERN_SCALAR_BOOL); }

/* ---------------------------------------------------------------- names of types */

static const struct {
  const char *name;
  kern_scalar sc;
} scalar_names[] = {
    {"bool", KERN_SCALAR_BOOL},     {"int8", KERN_SCALAR_INT8},       {"int16", KERN_SCALAR_INT16},
    {"int32", KERN_SCALAR_INT32},   {"int64", KERN_SCALAR_INT64},     {"uint8", KERN_SCALAR_UINT8},
    {"uint16", KERN_SCALAR_UINT16}, {"uint32", KERN_SCALAR_UINT32},   {"uint64", KERN_SCALAR_UINT64},
    {"float32", KERN_SCALAR_FLOAT32}, {"float64", KERN_SCALAR_FLOAT64}, {NULL, 0}};

static const struct {
  const char *suffix;
  kern_scalar sc;
} vec_suffixes[] = {{"", KERN_SCALAR_FLOAT32}, {"f", KERN_SCALAR_FLOAT32}, {"d", KERN_SCALAR_FLOAT64},
                    {"i", KERN_SCALAR_INT32},  {"ui", KERN_SCALAR_UINT32}, {"l", KERN_SCALAR_INT64},
                    {"ul", KERN_SCALAR_UINT64}, {"s", KERN_SCALAR_INT16},  {"us", KERN_SCALAR_UINT16},
                    {"b", KERN_SCALAR_INT8},   {"ub", KERN_SCALAR_UINT8},  {NULL, 0}};

/* The type spelled wp.NAME, or NULL.  *second_stage is set for names kern
 * knows but does not support yet. */
static const Type *wp_type_named(Compiler *C, const char *name,
                                 bool *second_stage) {
  *second_stage = false;
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
  if (!strcmp(name, "float16") || !strcmp(name, "half") ||
      (!strncmp(name, "quat", 4) && !strchr(name, '_')) ||
      (!strncmp(name, "transform", 9) && !strchr(name, '_')) ||
      !strncmp(name, "spatial_", 8)) {
    *second_stage = true;
    return NULL;
  }
  if (!strncmp(name, "vec", 3) && name[3] >= '2' && name[3] <= '4') {
    const char *suf = name + 4;
    if (!strcmp(suf, "h")) {
      *second_stage = true;
      return NULL;
    }
    for (int i = 0; vec_suffixes[i].suffix; i++)
      if (!strcmp(suf, vec_suffixes[i].suffix))
        return ty_vec(C, vec_suffixes[i].sc, name[3] - '0');
    return NULL;
  }
  if (!strncmp(name, "mat", 3) && name[3] >= '2' && name[3] <= '4' &&
      name[4] == name[3]) {
    const char *suf = name + 5;
    if (!strcmp(suf, "h")) {
      *second_stage = true;
      return NULL;
    }
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

static bool wp_builtin_constant(const char *name, double *v) {
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

static bool is_wp(Ctx *X, Node *n) {
  return n && n->kind == N_NAME && !strcmp(n->name, X->M->wp);
}

/* "NAME" when n is wp.NAME, else NULL. */
static const char *wp_attr(Ctx *X, Node *n) {
  if (n && n->kind == N_ATTR && is_wp(X, n->a))
    return n->name;
  return NULL;
}

/* Name lookups go through hash tables (names.c) so that checking stays
 * linear in the number of functions, constants and locals. */
static Local *find_local(Ctx *X, const char *name) {
  intptr_t k = (intptr_t)names_get(&X->local_names, name);
  return k ? &X->locals[k - 1] : NULL;
}

/* The module-level value NAME has when the kernel is compiled: its last
 * definition, or while a constant is being evaluated, the last one above
 * it (Note [module-level values] in parse.c). */
static Sym *find_const(Ctx *X, const char *name) {
  /* const_names maps a name to its last definition (check_consts fills
   * it), and each definition links the one it shadows. */
  Sym *s = names_get(&X->M->const_names, name);
  if (X->const_limit)
    while (s && s->order >= X->const_limit->order)
      s = s->shadowed;
  return s;
}

static IrExpr *const_value(Ctx *X, Sym *s, Pos use);
static void const_ctx(Ctx *X, Compiler *C, IrModule *irm, Func *dummy,
                      IrFunc *irf, IrStmt **sink);
static Node *not_constant(Ctx *X, Node *n);
static IrExpr *static_call(Ctx *X, Node *call);
static bool wp_builtin_constant(const char *name, double *v);

static StructDef *find_struct(Ctx *X, const char *name) {
  for (StructDef *d = X->M->structs; d; d = d->next)
    if (!strcmp(d->name, name))
      return d;
  return NULL;
}

/* A value a variable can hold: scalar, vector, matrix or struct. */
static bool is_valuelike(const Type *t) {
  return ty_is_value(t) || t->kind == TY_STRUCT;
}

static const Type *type_expr(Ctx *X, Node *n, const char *what);

/* The type of a @wp.struct, resolved the first time it is named; fields
 * are scalars, vectors, matrices and other structs. */
static const Type *struct_type(Ctx *X, StructDef *d, Pos use) {
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
    const Type *ft = type_expr(X, d->fannots[i], arena_printf(
                                   X->C, "field '%s' of '%s'", d->fnames[i],
                                   d->name));
    if (ft->kind == TY_ARRAY)
      ERR(d->fannots[i]->pos, "array fields of structs are not supported "
                              "yet");
    if (!is_valuelike(ft))
      ERR(d->fannots[i]->pos, "a field of type %s is not supported",
          TN(ft));
    items[i] = ft;
  }
  t->items = items;
  d->ty = t;
  d->resolving = false;
  return t;
}

static Func *find_func(Ctx *X, const char *name) {
  return names_get(&X->M->func_names, name);
}

static const Type *type_expr(Ctx *X, Node *n, const char *what);

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
  const char *fn = wp_attr(X, n->a);
  int ndim = array_kind_ndim(fn);
  int nargs = 0;
  for (Node *a = n->args; a; a = a->next)
    nargs++;
  if (nargs > 2 || (nargs == 2 && strcmp(fn, "array")))
    ERR(n->pos, "wp.%s[...] takes the element type%s", fn,
        strcmp(fn, "array") ? "" : " and optionally the number of dimensions");
  const Type *dtype = type_expr(X, n->args, "array element type");
  if (nargs == 2) {
    Node *d = n->args->next;
    if (d->kind != N_INT || d->ival < 1 || d->ival > 4)
      ERR(d->pos, "the number of dimensions of wp.array[...] must be an "
                  "integer from 1 to 4");
    ndim = (int)d->ival;
  }
  if (dtype->kind == TY_STRUCT)
    ERR(n->pos, "arrays of structs are not supported yet");
  if (!ty_is_value(dtype))
    ERR(n->pos, "arrays of %s are not supported", TN(dtype));
  return ty_array(X->C, dtype, ndim);
}

/* A type written where a type is expected: an annotation, a dtype=. */
static const Type *type_expr(Ctx *X, Node *n, const char *what) {
  if (n->kind == N_NAME) {
    if (!strcmp(n->name, "int"))
      return t_i32();
    if (!strcmp(n->name, "float"))
      return t_f32();
    if (!strcmp(n->name, "bool"))
      return t_bool();
    if (!strcmp(n->name, "Any"))
      ERR(n->pos, "generic (typing.Any) parameters are not supported yet");
    StructDef *sd = find_struct(X, n->name);
    if (sd)
      return struct_type(X, sd, n->pos);
    Sym *s = find_const(X, n->name);
    (void)s;
    ERR(n->pos, "'%s' is not a type kern knows (%s)", n->name, what);
  }
  const char *w = wp_attr(X, n);
  if (w) {
    bool second;
    const Type *t = wp_type_named(X->C, w, &second);
    if (t)
      return t;
    if (second)
      ERR(n->pos, "wp.%s is not supported yet (second stage of the language)",
          w);
    if (!strcmp(w, "array") || !strncmp(w, "array", 5))
      ERR(n->pos, "wp.%s needs a dtype: write wp.%s[float] or "
                  "wp.%s(dtype=float)", w, w, w);
    ERR(n->pos, "wp.%s is not a type kern knows (%s)", w, what);
  }
  if (n->kind == N_SUBSCRIPT && array_kind_ndim(wp_attr(X, n->a)))
    return array_subscript_type(X, n);
  if (n->kind == N_SUBSCRIPT && wp_attr(X, n->a) &&
      (!strncmp(wp_attr(X, n->a), "indexedarray", 12) ||
       !strncmp(wp_attr(X, n->a), "fabricarray", 11) ||
       !strncmp(wp_attr(X, n->a), "tile", 4)))
    ERR(n->pos, "wp.%s is not supported", wp_attr(X, n->a));
  if (n->kind == N_CALL && n->a->kind == N_ATTR &&
      (!strcmp(n->a->name, "vector") || !strcmp(n->a->name, "matrix")) &&
      n->a->a->kind == N_ATTR && !strcmp(n->a->a->name, "types"))
    ERR(n->pos, "custom vector and matrix types (wp.types.%s(...)) are not "
                "supported yet", n->a->name);
  if (n->kind == N_SUBSCRIPT && n->a->kind == N_NAME &&
      (!strcmp(n->a->name, "tuple") || !strcmp(n->a->name, "Tuple")))
    ERR(n->pos, "a tuple type is only supported as a function's return "
                "annotation");
  if ((n->kind == N_NAME && !strcmp(n->name, "Any")) ||
      (n->kind == N_ATTR && !strcmp(n->name, "Any")))
    ERR(n->pos, "generic (typing.Any) parameters are not supported yet");
  if (n->kind == N_CALL) {
    const char *fn = wp_attr(X, n->a);
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
    else if (fn && (!strcmp(fn, "indexedarray") || !strcmp(fn, "fabricarray") ||
                    !strncmp(fn, "indexedarray", 12) || !strncmp(fn, "tile", 4)))
      ERR(n->pos, "wp.%s is not supported", fn);
    if (ndim) {
      const Type *dtype = NULL;
      int pos_i = 0;
      for (Node *a = n->args; a; a = a->next, pos_i++) {
        if (pos_i == 0)
          dtype = type_expr(X, a, "array element type");
        else if (pos_i == 1 && !strcmp(fn, "array")) {
          if (a->kind != N_INT || a->ival < 1 || a->ival > 4)
            ERR(a->pos, "ndim must be an integer from 1 to 4");
          ndim = (int)a->ival;
        } else
          ERR(a->pos, "too many arguments to wp.%s()", fn);
      }
      for (Node *k = n->kwargs; k; k = k->next) {
        if (!strcmp(k->name, "dtype"))
          dtype = type_expr(X, k->a, "array element type");
        else if (!strcmp(k->name, "ndim") && !strcmp(fn, "array")) {
          if (k->a->kind != N_INT || k->a->ival < 1 || k->a->ival > 4)
            ERR(k->a->pos, "ndim must be an integer from 1 to 4");
          ndim = (int)k->a->ival;
        } else
          ERR(k->pos, "unknown argument '%s' to wp.%s()", k->name, fn);
      }
      if (!dtype)
        ERR(n->pos, "wp.%s() needs a dtype", fn);
      if (dtype->kind == TY_STRUCT)
        ERR(n->pos, "arrays of structs are not supported yet");
      if (!ty_is_value(dtype))
        ERR(n->pos, "arrays of %s are not supported", TN(dtype));
      return ty_array(X->C, dtype, ndim);
    }
  }
  if (n->kind == N_STR)
    ERR(n->pos, "string annotations are not supported; write the type");
  ERR(n->pos, "expected a type (%s)", what);
}

/* ---------------------------------------------------------------- locals */

static Local *add_local(Ctx *X, const char *name, const Type *ty, Pos pos) {
  if (X->nlocals == X->cap) {
    int cap = X->cap ? X->cap * 2 : 32;
    Local *l = arena_alloc(X->C, sizeof(Local) * (size_t)cap);
    bool *d = arena_alloc(X->C, sizeof(bool) * (size_t)cap);
    bool *mk = arena_alloc(X->C, sizeof(bool) * (size_t)cap);
    if (X->nlocals) {
      memcpy(l, X->locals, sizeof(Local) * (size_t)X->nlocals);
      memcpy(d, X->defined, sizeof(bool) * (size_t)X->nlocals);
    }
    X->locals = l;
    X->defined = d;
    X->marked = mk;
    X->cap = cap;
  }
  Local *l = &X->locals[X->nlocals];
  X->defined[X->nlocals] = false;
  X->nlocals++;
  /* the first local of a name is the one found, as before the table */
  if (!names_get(&X->local_names, name))
    names_put(X->C, &X->local_names, name, (void *)(intptr_t)X->nlocals);
  l->name = name;
  l->ty = ty;
  l->pos = pos;
  l->var = ir_var(X->C, X->irf, name, ty);
  return l;
}

/* Note [defs trail]: a local only ever becomes defined (false -> true)
 * while a block is checked, so instead of copying the whole `defined`
 * array at every if and loop (which made a function of n locals and n
 * ifs cost n^2 time and memory; issue #8, item 12), every change is
 * recorded on a trail.  A saved state is a position on the trail, and
 * restoring it undoes the changes made since, in time proportional to
 * them.  A local added after the save was not defined then, and every
 * local that becomes defined is on the trail, so undoing covers it. */
typedef int DefSet;

static void def_set(Ctx *X, int i) {
  if (X->defined[i])
    return;
  X->defined[i] = true;
  if (X->ntrail == X->captrail) {
    int cap = X->captrail ? 2 * X->captrail : 64;
    int *t = arena_alloc(X->C, sizeof(int) * (size_t)cap);
    if (X->ntrail)
      memcpy(t, X->trail, sizeof(int) * (size_t)X->ntrail);
    X->trail = t;
    X->captrail = cap;
  }
  X->trail[X->ntrail++] = i;
}

static DefSet defs_save(Ctx *X) { return X->ntrail; }

static void defs_restore(Ctx *X, DefSet s) {
  while (X->ntrail > s)
    X->defined[X->trail[--X->ntrail]] = false;
}

/* A temporary the program cannot name: its name stays out of the table of
 * locals unless the program already has a local of that name (whose entry
 * is kept), so a later variable of the same name is the program's own. */
static Local *add_hidden_local(Ctx *X, const char *base, const Type *ty,
                               Pos pos) {
  bool had = names_get(&X->local_names, base) != NULL;
  Local *l = add_local(X, base, ty, pos);
  if (!had)
    names_put(X->C, &X->local_names, base, NULL);
  l->name = "";
  return l;
}

static void emit(Ctx *X, IrStmt *s) {
  *X->tail = s;
  X->tail = &s->next;
}

/* ---------------------------------------------------------------- conversions */

static bool is_literal(Node *n) {
  if (n->kind == N_UNOP && (n->op == OP_NEG || n->op == OP_POS))
    return is_literal(n->a);
  return n->kind == N_INT || n->kind == N_FLOAT || n->kind == N_BOOL;
}

/* Note [float to integer]: C leaves converting a double that the integer
 * type cannot hold (huge, infinite, NaN) undefined, and UBSan stops on it;
 * the fuzzers found int(1e39), wp.constant(10 ** 100) and friends
 * (tests/fuzz/crashes/ub_*).  Values in [-2^63, 2^64) truncate toward zero
 * and wrap modulo 2^64 like the integer constants below; anything else is
 * reported as not fitting.  Returns false for those. */
static bool float_to_u64(double f, uint64_t *out) {
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
static IrExpr *literal_as(Ctx *X, Node *n, const Type *ty) {
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
    if (!float_to_u64(v, &iv))
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
static IrExpr *truth(Ctx *X, IrExpr *e, Pos pos) {
  if (ty_is_bool(e->ty))
    return e;
  if (e->ty->kind == TY_SCALAR)
    return ir_call1(X->C, BI_TRUTH, t_bool(), e);
  ERR(pos, "a value of type %s cannot be used as a condition", TN(e->ty));
}

/* ---------------------------------------------------------------- calls */

static int count_args(Node *n) {
  int k = 0;
  for (Node *a = n; a; a = a->next)
    k++;
  return k;
}

static void no_kwargs(Ctx *X, Node *call, const char *name) {
  if (call->kwargs)
    ERR(call->kwargs->pos, "%s() takes no keyword arguments", name);
}

static void order_effects(Ctx *X, IrExpr **v, int n, Pos pos);
static bool has_effects(IrExpr *e);
static IrExpr *in_temp(Ctx *X, IrExpr *v, const char *base, Pos pos);

static IrExpr **eval_args(Ctx *X, Node *call, int *n) {
  *n = count_args(call->args);
  IrExpr **v = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(*n ? *n : 1));
  int i = 0;
  for (Node *a = call->args; a; a = a->next)
    v[i++] = expr(X, a);
  order_effects(X, v, *n, call->pos);
  return v;
}

static _Noreturn void bad_args(Ctx *X, Node *call, const char *name,
                               IrExpr **args, int n) {
  Buf b;
  buf_init(&b, X->C);
  for (int i = 0; i < n; i++)
    buf_printf(&b, "%s%s", i ? ", " : "", TN(args[i]->ty));
  ERR(call->pos, "no overload of %s() takes (%s)", name, b.p ? b.p : "");
}

static void nargs_between(Ctx *X, Node *call, const char *name, int n, int lo,
                          int hi) {
  if (n < lo || n > hi) {
    if (lo == hi)
      ERR(call->pos, "%s() takes %d argument%s, got %d", name, lo,
          lo == 1 ? "" : "s", n);
    ERR(call->pos, "%s() takes %d to %d arguments, got %d", name, lo, hi, n);
  }
}

static bool all_same(IrExpr **args, int n) {
  for (int i = 1; i < n; i++)
    if (!ty_eq(args[0]->ty, args[i]->ty))
      return false;
  return true;
}

static const Type *vec_or_scalar_float(const Type *t) {
  if (ty_is_float(t) || (t->kind == TY_VEC && sc_is_float(t->sc)))
    return t;
  return NULL;
}

static IrExpr *index_expr(Ctx *X, IrExpr *i, IrVar *arr, int axis, Pos pos);

static IrExpr *atomic_call(Ctx *X, Node *call, int bi, const char *name) {
  no_kwargs(X, call, name);
  int n = count_args(call->args);
  int extra = bi == BI_ATOMIC_CAS ? 2 : 1;
  if (n < 1 + extra + 1)
    ERR(call->pos, "%s() takes an array, its indices and %s", name,
        bi == BI_ATOMIC_CAS ? "the compare and new values" : "a value");
  Node *arrn = call->args;
  IrExpr *arr = expr(X, arrn);
  if (arr->ty->kind != TY_ARRAY)
    ERR(arrn->pos, "the first argument of %s() must be an array, got %s", name,
        TN(arr->ty));
  int nidx = n - 1 - extra;
  if (nidx != arr->ty->ndim)
    ERR(call->pos, "%s() on a %d-d array needs %d ind%s, got %d", name,
        arr->ty->ndim, arr->ty->ndim, arr->ty->ndim == 1 ? "ex" : "ices",
        nidx);
  IrExpr *e = ir_expr(X->C, E_ATOMIC, arr->ty->elem);
  e->pos = call->pos;
  e->bi = bi;
  e->var = arr->var;
  e->nargs = nidx;
  e->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)nidx);
  Node *a = arrn->next;
  for (int i = 0; i < nidx; i++, a = a->next)
    e->args[i] = index_expr(X, expr(X, a), arr->var, i, a->pos);
  const Type *et = arr->ty->elem;
  if (bi == BI_ATOMIC_CAS) {
    e->b = expr(X, a);
    if (!ty_eq(e->b->ty, et))
      ERR(a->pos, "%s() compare value is %s but the array holds %s", name,
          TN(e->b->ty), TN(et));
    a = a->next;
  }
  e->c = expr(X, a);
  if (!ty_eq(e->c->ty, et))
    ERR(a->pos, "%s() value is %s but the array holds %s", name, TN(e->c->ty),
        TN(et));
  bool int_only = bi == BI_ATOMIC_AND || bi == BI_ATOMIC_OR ||
                  bi == BI_ATOMIC_XOR;
  if (int_only && !ty_is_int(et))
    ERR(call->pos, "%s() needs an integer array, got %s", name, TN(arr->ty));
  if (bi == BI_ATOMIC_CAS && !ty_is_scalar(et))
    ERR(call->pos, "%s() needs an array of scalars", name);
  if (!ty_is_scalar(et) && et->kind != TY_VEC && et->kind != TY_MAT)
    ERR(call->pos, "%s() is not supported on %s", name, TN(arr->ty));
  if (et->kind != TY_SCALAR && bi != BI_ATOMIC_ADD && bi != BI_ATOMIC_SUB &&
      bi != BI_ATOMIC_MIN && bi != BI_ATOMIC_MAX)
    ERR(call->pos, "%s() needs an array of scalars", name);
  if (ty_is_bool(et))
    ERR(call->pos, "%s() is not supported on arrays of bool", name);
  if (et->sc == KERN_SCALAR_INT8 || et->sc == KERN_SCALAR_UINT8 || et->sc == KERN_SCALAR_INT16 ||
      et->sc == KERN_SCALAR_UINT16)
    ERR(call->pos, "%s() needs 32- or 64-bit elements, got %s", name,
        TN(et));
  arr->var->written = true;
  X->irf->uses_atomics = true;
  return e;
}

static IrExpr *rand_state_arg(Ctx *X, Node *a, const char *name) {
  if (a->kind != N_NAME)
    ERR(a->pos, "the state argument of %s() must be a variable holding "
                "wp.rand_init(...)", name);
  IrExpr *s = expr(X, a);
  if (!ty_eq(s->ty, ty_scalar(KERN_SCALAR_UINT32)) || s->kind != E_VAR)
    ERR(a->pos, "the state argument of %s() must be a uint32 variable from "
                "wp.rand_init(), got %s", name, TN(s->ty));
  s->var->nassign++;
  return s;
}

/* wp.vec3(...), wp.mat33(...), wp.float64(x) */
static IrExpr *construct(Ctx *X, Node *call, const Type *t, const char *name) {
  no_kwargs(X, call, name);
  int n = count_args(call->args);
  if (t->kind == TY_SCALAR) {
    if (n != 1)
      ERR(call->pos, "%s() takes 1 argument, got %d", name, n);
    if (is_literal(call->args))
      return literal_as(X, call->args, t);
    IrExpr *a = expr(X, call->args);
    if (a->ty->kind != TY_SCALAR)
      ERR(call->args->pos, "cannot convert %s to %s", TN(a->ty), TN(t));
    return ir_cast(X->C, t, a);
  }
  if (t->xform && n == 2) {
    /* wp.transform(p, q): the 7 components of p then q */
    IrExpr *pq[2];
    pq[0] = expr(X, call->args);
    pq[1] = expr(X, call->args->next);
    const Type *v3 = ty_vec(X->C, t->sc, 3), *qt = ty_quat(X->C, t->sc);
    if (!ty_eq(pq[0]->ty, v3) || !ty_eq(pq[1]->ty, qt))
      ERR(call->pos, "%s() takes a %s and a %s, got %s and %s", name, TN(v3),
          TN(qt), TN(pq[0]->ty), TN(pq[1]->ty));
    IrExpr *e = ir_expr(X->C, E_MAKE, t);
    e->nargs = 7;
    e->args = arena_alloc(X->C, sizeof(IrExpr *) * 7);
    for (int k = 0; k < 7; k++) {
      IrExpr *src = k < 3 ? pq[0] : pq[1];
      if (src->kind != E_VAR && !X->no_hoist)
        src = in_temp(X, src, k < 3 ? "p" : "q", call->pos);
      if (src->kind != E_VAR)
        ERR(call->pos, "%s(p, q) is not supported here; assign p and q to "
                       "variables first", name);
      if (k < 3)
        pq[0] = src;
      else
        pq[1] = src;
      IrExpr *c = ir_expr(X->C, E_COMP, ty_scalar(t->sc));
      c->a = src;
      c->b = ir_const_int(X->C, t_i32(), (uint64_t)(k < 3 ? k : k - 3));
      e->args[k] = c;
    }
    return e;
  }
  int ncomp = t->rows * t->cols;
  IrExpr *e = ir_expr(X->C, E_MAKE, t);
  if (n == 0) {
    e->nargs = 0;
    return e;
  }
  IrExpr **args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)n);
  int i = 0;
  for (Node *a = call->args; a; a = a->next, i++) {
    if (is_literal(a))
      args[i] = literal_as(X, a, ty_scalar(t->sc));
    else
      args[i] = expr(X, a);
  }
  order_effects(X, args, n, call->pos);
  if (n == 1 && args[0]->ty->kind == t->kind && args[0]->ty->rows == t->rows &&
      args[0]->ty->cols == t->cols) {
    /* conversion between component types: wp.vec3(v3d) */
    IrExpr *c = ir_expr(X->C, E_CAST, t);
    c->a = args[0];
    return c;
  }
  if (n == 1 && ty_is_scalar(args[0]->ty)) {
    args[0] = ir_cast(X->C, ty_scalar(t->sc), args[0]);
    e->args = args;
    e->nargs = 1; /* broadcast */
    return e;
  }
  if (t->kind == TY_MAT && n == t->rows && args[0]->ty->kind == TY_VEC)
    ERR(call->pos, "%s() from vectors is ambiguous; construct it from its "
                   "%d components (Warp: use wp.matrix_from_rows() or "
                   "wp.matrix_from_cols())", name, ncomp);
  if (t->kind == TY_MAT && n == t->rows) {
    for (i = 0; i < n; i++) {
      const Type *at = args[i]->ty;
      if (at->kind != TY_VEC || at->rows != t->cols || at->sc != t->sc)
        ERR(call->pos, "%s() from vectors needs %d %s vectors, argument %d "
            "is %s", name, t->rows,
            TN(ty_vec(X->C, t->sc, t->cols)), i + 1, TN(at));
    }
    e->args = args;
    e->nargs = n;
    return e;
  }
  if (n != ncomp)
    ERR(call->pos, "%s() takes %d components, got %d", name, ncomp, n);
  for (i = 0; i < n; i++) {
    if (!ty_is_scalar(args[i]->ty))
      ERR(call->pos, "component %d of %s() is %s, not a scalar", i + 1, name,
          TN(args[i]->ty));
    if (args[i]->ty->sc != t->sc)
      ERR(call->pos, "component %d of %s() is %s but %s holds %s", i + 1,
          name, TN(args[i]->ty), name, TN(ty_scalar(t->sc)));
  }
  e->args = args;
  e->nargs = n;
  return e;
}

/* The value of a parameter's default, at the parameter's type.  Defaults
 * are host Python evaluated where the function is defined, so they may
 * only be compile-time values (literals, module-level constants). */
static IrExpr *default_value(Ctx *X, Func *g, Param *p) {
  Node *d = p->defval;
  if (is_literal(d) && ty_is_scalar(p->ty))
    return literal_as(X, d, p->ty);
  Ctx sub;
  Func dummy;
  IrFunc irf;
  IrStmt *sink;
  const_ctx(&sub, X->C, X->irm, &dummy, &irf, &sink);
  Node *bad = not_constant(&sub, d);
  if (bad)
    ERR(d->pos, "the default value of '%s' in '%s' must be a value known at "
                "compile time", p->name, g->name);
  IrExpr *v = d->kind == N_NAME ? const_value(&sub, find_const(&sub, d->name),
                                              d->pos)
                                : expr(&sub, d);
  if (sink)
    ERR(d->pos, "the default value of '%s' in '%s' must be a value known at "
                "compile time", p->name, g->name);
  if (!ty_eq(v->ty, p->ty))
    ERR(d->pos, "the default value of '%s' is %s but the parameter is %s",
        p->name, TN(v->ty), TN(p->ty));
  return v;
}

/* Binds a call's arguments (already evaluated, in source order) to g's
 * parameters.  Returns NULL when they do not fit; with `why` set, reports
 * the reason instead (the call has a single candidate). */
static IrExpr **bind_args(Ctx *X, Node *call, Func *g, IrExpr **pos_args,
                          int npos, IrExpr **kw_args, bool why) {
  IrExpr **bound = arena_alloc(X->C, sizeof(IrExpr *) *
                                         (size_t)(g->nparams ? g->nparams : 1));
  if (npos > g->nparams) {
    if (!why)
      return NULL;
    ERR(call->pos, "%s() takes %d argument%s, got %d", g->name, g->nparams,
        g->nparams == 1 ? "" : "s", npos);
  }
  for (int i = 0; i < npos; i++)
    bound[i] = pos_args[i];
  int k = 0;
  for (Node *kw = call->kwargs; kw; kw = kw->next, k++) {
    int idx = -1;
    for (int i = 0; i < g->nparams; i++)
      if (!strcmp(g->params[i].name, kw->name))
        idx = i;
    if (idx < 0 || bound[idx]) {
      if (!why)
        return NULL;
      if (idx < 0)
        ERR(kw->pos, "%s() has no parameter '%s'", g->name, kw->name);
      ERR(kw->pos, "%s() got two values for '%s'", g->name, kw->name);
    }
    bound[idx] = kw_args[k];
  }
  for (int i = 0; i < g->nparams; i++) {
    Param *p = &g->params[i];
    if (!p->ty)
      p->ty = type_expr(X, p->annot, arena_printf(X->C, "parameter '%s'",
                                                  p->name));
    if (!bound[i]) {
      if (!p->defval) {
        if (!why)
          return NULL;
        ERR(call->pos, "%s() is missing a value for '%s'", g->name, p->name);
      }
      bound[i] = default_value(X, g, p);
    }
    if (!ty_eq(bound[i]->ty, p->ty)) {
      if (!why)
        return NULL;
      Pos at = call->pos; /* the argument's own position when it has one */
      int j = 0;
      for (Node *a = call->args; a; a = a->next, j++)
        if (j == i)
          at = a->pos;
      for (Node *kw = call->kwargs; kw; kw = kw->next)
        if (!strcmp(kw->name, p->name))
          at = kw->a->pos;
      ERR(at, "argument %d of %s() ('%s') must be %s, got %s", i + 1,
          g->name, p->name, TN(p->ty), TN(bound[i]->ty));
    }
  }
  return bound;
}

static IrExpr *user_call(Ctx *X, Node *call, Func *g) {
  if (g->is_kernel)
    ERR(call->pos, "kernel '%s' cannot be called from a %s", g->name,
        X->f->is_kernel ? "kernel" : "function");
  /* Arguments are evaluated once, left to right, before an overload is
   * chosen by their types. */
  int npos = count_args(call->args), nkw = count_args(call->kwargs);
  IrExpr **pos_args = eval_args(X, call, &npos);
  IrExpr **kw_args = arena_alloc(X->C, sizeof(IrExpr *) *
                                           (size_t)(nkw ? nkw : 1));
  int k = 0;
  for (Node *kw = call->kwargs; kw; kw = kw->next)
    kw_args[k++] = expr(X, kw->a);
  if (nkw) {
    IrExpr **all = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(npos + nkw));
    memcpy(all, pos_args, sizeof(IrExpr *) * (size_t)npos);
    memcpy(all + npos, kw_args, sizeof(IrExpr *) * (size_t)nkw);
    order_effects(X, all, npos + nkw, call->pos);
    memcpy(pos_args, all, sizeof(IrExpr *) * (size_t)npos);
    memcpy(kw_args, all + npos, sizeof(IrExpr *) * (size_t)nkw);
  }
  IrExpr **bound = NULL;
  Func *chosen = NULL;
  if (!g->overload) {
    chosen = g;
    bound = bind_args(X, call, g, pos_args, npos, kw_args, true);
  } else {
    /* the latest definition that fits */
    for (Func *c = g; c; c = c->overload)
      if (bind_args(X, call, c, pos_args, npos, kw_args, false))
        chosen = c;
    if (!chosen) {
      Buf b;
      buf_init(&b, X->C);
      for (int i = 0; i < npos; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", TN(pos_args[i]->ty));
      k = 0;
      for (Node *kw = call->kwargs; kw; kw = kw->next, k++)
        buf_printf(&b, "%s%s=%s", npos + k ? ", " : "", kw->name,
                   TN(kw_args[k]->ty));
      ERR(call->pos, "no overload of %s() takes (%s)", g->name,
          b.p ? b.p : "");
    }
    bound = bind_args(X, call, chosen, pos_args, npos, kw_args, true);
  }
  g = chosen;
  /* Callees are checked before their callers (Note [checking order]), so
   * one that is not checked yet is on a cycle of calls through this one. */
  if (g->checking || !g->checked)
    ERR(call->pos, "recursive call of '%s' is not supported", g->name);
  IrExpr *e = ir_expr(X->C, E_FCALL, g->ret->kind == TY_TUPLE
                                         ? g->ret->items[0] : g->ret);
  e->fn = g->ir;
  e->nargs = g->nparams;
  e->args = bound;
  g->used = true;
  return e;
}

static IrExpr *builtin_call(Ctx *X, Node *call, int bi, const char *name);

/* wp.matrix_from_rows(v0, v1, ...) / wp.matrix_from_cols(...) */
static IrExpr *matrix_from(Ctx *X, Node *call, bool cols) {
  const char *name = cols ? "wp.matrix_from_cols" : "wp.matrix_from_rows";
  no_kwargs(X, call, name);
  int n;
  IrExpr **a = eval_args(X, call, &n);
  if (n < 2 || n > 4)
    ERR(call->pos, "%s() takes 2 to 4 vectors, got %d", name, n);
  const Type *vt = a[0]->ty;
  for (int i = 0; i < n; i++)
    if (a[i]->ty->kind != TY_VEC || !ty_eq(a[i]->ty, vt) ||
        !sc_is_float(vt->sc))
      bad_args(X, call, name, a, n);
  IrExpr *e = ir_expr(X->C, E_MAKE, ty_mat(X->C, vt->sc, n, vt->rows));
  e->args = a;
  e->nargs = n;
  if (!cols)
    return e;
  return ir_call1(X->C, BI_TRANSPOSE, ty_mat(X->C, vt->sc, vt->rows, n), e);
}

/* len(x): the first dimension of an array, the length of a vector, the
 * number of rows of a matrix (an int32, as in Warp). */
static IrExpr *len_call(Ctx *X, Node *call) {
  no_kwargs(X, call, "len");
  if (count_args(call->args) != 1)
    ERR(call->pos, "len() takes exactly one argument");
  IrExpr *v = expr(X, call->args);
  const Type *t = v->ty;
  if (t->kind == TY_ARRAY) {
    IrExpr *e = ir_expr(X->C, E_SHAPE, t_i32());
    e->var = v->var;
    e->ival = 0;
    return e;
  }
  if (t->kind == TY_VEC || t->kind == TY_MAT)
    return ir_const_int(X->C, t_i32(), (uint64_t)t->rows);
  ERR(call->args->pos, "len() of a %s is not supported", TN(t));
}

static IrExpr *call_expr(Ctx *X, Node *n) {
  Node *callee = n->a;
  const char *w = wp_attr(X, callee);
  if (w) {
    bool second;
    const Type *t = wp_type_named(X->C, w, &second);
    if (t)
      return construct(X, n, t, arena_printf(X->C, "wp.%s", w));
    if (second)
      ERR(callee->pos, "wp.%s is not supported yet (second stage of the "
                       "language)", w);
    if (!strcmp(w, "matrix_from_rows") || !strcmp(w, "matrix_from_cols"))
      return matrix_from(X, n, !strcmp(w, "matrix_from_cols"));
    int bi = builtin_lookup(w);
    if (bi >= 0)
      return builtin_call(X, n, bi, arena_printf(X->C, "wp.%s", w));
    if (!strcmp(w, "static"))
      return static_call(X, n);
    if (!strcmp(w, "expect_eq") || !strcmp(w, "expect_neq") ||
        !strcmp(w, "expect_near") || !strcmp(w, "print"))
      ERR(callee->pos, "wp.%s() can only be used as a statement", w);
    static const char *const stage2[] = {
        "zeros", "tile_load", "tile_store", "tile_sum",
        "tile_reduce", "tile_map", "tile_matmul", "launch_tiled", "quat",
        "transform", "struct", "overload", "tile", "untile", NULL};
    for (int i = 0; stage2[i]; i++)
      if (!strcmp(w, stage2[i]))
        ERR(callee->pos, "wp.%s is not supported yet (second stage of the "
                         "language)", w);
    const char *near = suggest_name(w, builtin_names, BI_COUNT);
    if (near)
      ERR(callee->pos, "wp.%s is not a function kern supports; did you mean "
                       "'wp.%s'?", w, near);
    ERR(callee->pos, "wp.%s is not a function kern supports", w);
  }
  if (callee->kind == N_NAME) {
    const char *name = callee->name;
    if (find_local(X, name))
      ERR(callee->pos, "'%s' is a variable, not a function", name);
    Func *g = find_func(X, name);
    if (g)
      return user_call(X, n, g);
    StructDef *sd = find_struct(X, name);
    if (sd) {
      /* Warp constructs a struct in a kernel only as S(), all zero */
      if (n->args || n->kwargs)
        ERR(n->pos, "%s() takes no arguments in a kernel; write s = %s() "
                    "and set its fields", name, name);
      return ir_expr(X->C, E_MAKE, struct_type(X, sd, n->pos));
    }
    if (!strcmp(name, "float") || !strcmp(name, "int") ||
        !strcmp(name, "bool")) {
      const Type *t = !strcmp(name, "float") ? t_f32()
                      : !strcmp(name, "int") ? t_i32() : t_bool();
      return construct(X, n, t, name);
    }
    if (!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "abs") ||
        !strcmp(name, "round") || !strcmp(name, "pow"))
      return builtin_call(X, n, builtin_lookup(name), name);
    if (!strcmp(name, "print"))
      return builtin_call(X, n, BI_PRINTF, "print");
    if (!strcmp(name, "range"))
      ERR(callee->pos, "range() is only supported as the iterable of a 'for' "
                       "loop");
    if (!strcmp(name, "len"))
      return len_call(X, n);
    ERR(callee->pos, "unknown function '%s'", name);
  }
  if (callee->kind == N_ATTR)
    ERR(callee->pos, "method calls are not supported ('.%s()')", callee->name);
  ERR(callee->pos, "this expression cannot be called");
}

static IrExpr *builtin_call(Ctx *X, Node *call, int bi, const char *name) {
  Compiler *C = X->C;
  int n;
  switch (bi) {
  case BI_TID: {
    no_kwargs(X, call, name);
    if (call->args)
      ERR(call->pos, "wp.tid() takes no arguments");
    if (!X->f->is_kernel)
      ERR(call->pos, "wp.tid() can only be called in a kernel");
    /* A lone wp.tid() is the first launch dimension's index, as in Warp. */
    IrExpr *e = ir_expr(C, E_TID, t_i32());
    e->ival = 0;
    if (X->f->tid_dims > 1)
      ERR(call->pos, "wp.tid() is used as one index here but unpacked into "
                     "%d values elsewhere in this kernel", X->f->tid_dims);
    X->f->tid_dims = 1;
    return e;
  }
  case BI_ATOMIC_ADD: case BI_ATOMIC_SUB: case BI_ATOMIC_MIN:
  case BI_ATOMIC_MAX: case BI_ATOMIC_AND: case BI_ATOMIC_OR:
  case BI_ATOMIC_XOR: case BI_ATOMIC_EXCH: case BI_ATOMIC_CAS:
    return atomic_call(X, call, bi, name);
  case BI_RAND_INIT: {
    no_kwargs(X, call, name);
    IrExpr **a = eval_args(X, call, &n);
    nargs_between(X, call, name, n, 1, 2);
    for (int i = 0; i < n; i++)
      if (!ty_eq(a[i]->ty, t_i32()))
        ERR(call->pos, "%s() takes int32 arguments, argument %d is %s", name,
            i + 1, TN(a[i]->ty));
    return ir_call(C, bi, ty_scalar(KERN_SCALAR_UINT32), n, a);
  }
  case BI_RANDF: case BI_RANDI: case BI_RANDN: {
    no_kwargs(X, call, name);
    n = count_args(call->args);
    int hi = bi == BI_RANDN ? 1 : 3;
    nargs_between(X, call, name, n, 1, hi);
    if (n == 2)
      ERR(call->pos, "%s() takes a state, or a state and a range (low, high)",
          name);
    IrExpr *a[3];
    a[0] = rand_state_arg(X, call->args, name);
    const Type *rt = bi == BI_RANDI ? t_i32() : t_f32();
    int i = 1;
    for (Node *an = call->args->next; an; an = an->next, i++) {
      a[i] = expr(X, an);
      if (!ty_eq(a[i]->ty, rt))
        ERR(an->pos, "the range of %s() is %s, got %s", name, TN(rt),
            TN(a[i]->ty));
    }
    return ir_call(C, bi, rt, n, a);
  }
  case BI_PRINTF:
    ERR(call->pos, "%s() can only be used as a statement", name);
  default:
    break;
  }

  /* quat_identity(dtype=float) */
  if (bi == BI_QUAT_IDENTITY || bi == BI_TRANSFORM_IDENTITY) {
    const Type *dt = t_f32();
    for (Node *a = call->args; a; a = a->next)
      dt = type_expr(X, a, "quat_identity dtype");
    for (Node *k = call->kwargs; k; k = k->next) {
      if (strcmp(k->name, "dtype"))
        ERR(k->pos, "%s() takes only dtype", name);
      dt = type_expr(X, k->a, "quat_identity dtype");
    }
    if (count_args(call->args) > 1 || !ty_is_float(dt))
      ERR(call->pos, "%s() takes a float dtype", name);
    return ir_call(C, bi, bi == BI_QUAT_IDENTITY ? ty_quat(C, dt->sc)
                                                 : ty_xform(C, dt->sc),
                   0, NULL);
  }
  /* identity(n=3, dtype=float) has keyword arguments */
  if (bi == BI_IDENTITY) {
    int dim = 0;
    const Type *dt = t_f32();
    int pi = 0;
    for (Node *a = call->args; a; a = a->next, pi++) {
      if (pi == 0 && a->kind == N_INT)
        dim = (int)a->ival;
      else if (pi == 1)
        dt = type_expr(X, a, "identity dtype");
      else
        ERR(a->pos, "wp.identity() takes n and dtype");
    }
    for (Node *k = call->kwargs; k; k = k->next) {
      if (!strcmp(k->name, "n") && k->a->kind == N_INT)
        dim = (int)k->a->ival;
      else if (!strcmp(k->name, "dtype"))
        dt = type_expr(X, k->a, "identity dtype");
      else
        ERR(k->pos, "wp.identity() takes n (an integer constant) and dtype");
    }
    if (dim < 2 || dim > 4)
      ERR(call->pos, "wp.identity() needs n=2, 3 or 4");
    if (!ty_is_float(dt))
      ERR(call->pos, "wp.identity() needs a float dtype");
    IrExpr *e = ir_call(C, bi, ty_mat(C, dt->sc, dim, dim), 0, NULL);
    return e;
  }

  no_kwargs(X, call, name);
  IrExpr **a = eval_args(X, call, &n);
  const Type *t0 = n > 0 ? a[0]->ty : NULL;
#define NARGS(lo, hi) nargs_between(X, call, name, n, lo, hi)
#define BAD() bad_args(X, call, name, a, n)
  switch (bi) {
  case BI_ABS:
    NARGS(1, 1);
    if (!(ty_is_int(t0) || ty_is_float(t0) || (t0->kind == TY_VEC &&
                                                 t0->sc != KERN_SCALAR_BOOL)))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_SIGN: case BI_STEP:
    NARGS(1, 1);
    if (!(ty_is_int(t0) || ty_is_float(t0)) && !(bi == BI_SIGN &&
                                                 t0->kind == TY_VEC))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_MIN: case BI_MAX:
    NARGS(1, 2);
    if (n == 1) {
      if (t0->kind != TY_VEC)
        BAD();
      return ir_call(C, bi, ty_scalar(t0->sc), 1, a);
    }
    if (!all_same(a, n) || !(ty_is_int(t0) || ty_is_float(t0) ||
                              t0->kind == TY_VEC))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_CLAMP:
    NARGS(3, 3);
    if (!all_same(a, n) || !(ty_is_int(t0) || ty_is_float(t0)))
      BAD();
    return ir_call(C, bi, t0, 3, a);
  case BI_SQRT: case BI_CBRT: case BI_EXP: case BI_EXP2: case BI_LOG:
  case BI_LOG2: case BI_LOG10: case BI_SIN: case BI_COS: case BI_TAN:
  case BI_ASIN: case BI_ACOS: case BI_ATAN: case BI_SINH: case BI_COSH:
  case BI_TANH: case BI_DEGREES: case BI_RADIANS: case BI_RINT:
    NARGS(1, 1);
    if (!ty_is_float(t0))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_FLOOR: case BI_CEIL: case BI_ROUND: case BI_TRUNC: case BI_FRAC:
    NARGS(1, 1);
    if (!vec_or_scalar_float(t0))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_ISNAN: case BI_ISINF: case BI_ISFINITE:
    NARGS(1, 1);
    if (!vec_or_scalar_float(t0) && !ty_is_int(t0))
      BAD();
    return ir_call(C, bi, t_bool(), 1, a);
  case BI_POW: case BI_ATAN2:
    NARGS(2, 2);
    if (!all_same(a, n) || !ty_is_float(t0))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_MOD:
    NARGS(2, 2);
    if (!all_same(a, n) || !(ty_is_int(t0) || ty_is_float(t0)))
      BAD();
    return ir_call(C, BI_OP_MOD, t0, 2, a);
  case BI_LERP:
    NARGS(3, 3);
    if (!ty_eq(t0, a[1]->ty) || !ty_is_value(t0) || !sc_is_float(t0->sc) ||
        !ty_eq(a[2]->ty, ty_scalar(t0->sc)))
      BAD();
    return ir_call(C, bi, t0, 3, a);
  case BI_SMOOTHSTEP:
    NARGS(3, 3);
    if (!all_same(a, n) || !ty_is_float(t0))
      BAD();
    return ir_call(C, bi, t0, 3, a);
  case BI_SELECT: case BI_WHERE: {
    NARGS(3, 3);
    if (!X->no_hoist && (has_effects(a[1]) || has_effects(a[2])))
      for (int i = 0; i < 3; i++) /* Warp evaluates all three */
        if (a[i]->kind != E_CONST)
          a[i] = in_temp(X, a[i], "arg", call->pos);
    if (!ty_eq(a[1]->ty, a[2]->ty) || !ty_is_value(a[1]->ty))
      BAD();
    IrExpr *c = truth(X, a[0], call->args->pos);
    IrExpr *e = ir_expr(C, E_SELECT, a[1]->ty);
    e->a = c;
    /* select(cond, value_if_false, value_if_true); where(cond, t, f) */
    e->b = bi == BI_SELECT ? a[2] : a[1];
    e->c = bi == BI_SELECT ? a[1] : a[2];
    return e;
  }
  case BI_DOT:
    NARGS(2, 2);
    if (!all_same(a, n) || t0->kind != TY_VEC)
      BAD();
    return ir_call(C, bi, ty_scalar(t0->sc), 2, a);
  case BI_CROSS:
    NARGS(2, 2);
    if (!all_same(a, n) || t0->kind != TY_VEC || t0->rows != 3)
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_LENGTH: case BI_LENGTH_SQ:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || (bi == BI_LENGTH && !sc_is_float(t0->sc)))
      BAD();
    return ir_call(C, bi, ty_scalar(t0->sc), 1, a);
  case BI_NORMALIZE:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || !sc_is_float(t0->sc))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_OUTER:
    NARGS(2, 2);
    if (t0->kind != TY_VEC || a[1]->ty->kind != TY_VEC ||
        t0->sc != a[1]->ty->sc || !sc_is_float(t0->sc))
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, t0->rows, a[1]->ty->rows), 2, a);
  case BI_TRANSPOSE:
    NARGS(1, 1);
    if (t0->kind != TY_MAT)
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, t0->cols, t0->rows), 1, a);
  case BI_DETERMINANT: case BI_TRACE:
    NARGS(1, 1);
    if (t0->kind != TY_MAT || t0->rows != t0->cols)
      BAD();
    return ir_call(C, bi, ty_scalar(t0->sc), 1, a);
  case BI_INVERSE:
    NARGS(1, 1);
    if (t0->kind != TY_MAT || t0->rows != t0->cols)
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_DIAG:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || !sc_is_float(t0->sc))
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, t0->rows, t0->rows), 1, a);
  case BI_QUAT_ROTATE: case BI_QUAT_ROTATE_INV:
    NARGS(2, 2);
    if (!t0->quat || a[1]->ty->kind != TY_VEC || a[1]->ty->rows != 3 ||
        a[1]->ty->quat || a[1]->ty->sc != t0->sc)
      BAD();
    return ir_call(C, bi, a[1]->ty, 2, a);
  case BI_QUAT_INVERSE:
    NARGS(1, 1);
    if (!t0->quat)
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_ARGMIN: case BI_ARGMAX:
    NARGS(1, 1);
    if (t0->kind != TY_VEC || t0->quat || t0->xform || t0->sc == KERN_SCALAR_BOOL)
      BAD();
    return ir_call(C, bi, ty_scalar(KERN_SCALAR_UINT32), 1, a);
  case BI_NONZERO:
    NARGS(1, 1);
    if (!ty_is_int(t0) && !ty_is_float(t0))
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_GET_DIAG:
    NARGS(1, 1);
    if (t0->kind != TY_MAT || t0->rows != t0->cols)
      BAD();
    return ir_call(C, bi, ty_vec(C, t0->sc, t0->rows), 1, a);
  case BI_QUAT_TO_MATRIX:
    NARGS(1, 1);
    if (!t0->quat)
      BAD();
    return ir_call(C, bi, ty_mat(C, t0->sc, 3, 3), 1, a);
  case BI_TRANSFORM_POINT: case BI_TRANSFORM_VECTOR:
    NARGS(2, 2);
    if (!t0->xform || !ty_eq(a[1]->ty, ty_vec(C, t0->sc, 3)))
      BAD();
    return ir_call(C, bi, a[1]->ty, 2, a);
  case BI_TRANSFORM_MULTIPLY:
    NARGS(2, 2);
    if (!t0->xform || !ty_eq(t0, a[1]->ty))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_TRANSFORM_INVERSE:
    NARGS(1, 1);
    if (!t0->xform)
      BAD();
    return ir_call(C, bi, t0, 1, a);
  case BI_TRANSFORM_GET_TRANSLATION: case BI_TRANSFORM_GET_ROTATION:
    NARGS(1, 1);
    if (!t0->xform)
      BAD();
    return ir_call(C, bi, bi == BI_TRANSFORM_GET_TRANSLATION
                              ? ty_vec(C, t0->sc, 3) : ty_quat(C, t0->sc),
                   1, a);
  case BI_QUAT_FROM_AXIS_ANGLE:
    NARGS(2, 2);
    if (t0->kind != TY_VEC || t0->rows != 3 || t0->quat ||
        !sc_is_float(t0->sc) || !ty_eq(a[1]->ty, ty_scalar(t0->sc)))
      BAD();
    return ir_call(C, bi, ty_quat(C, t0->sc), 2, a);
  case BI_CW_MUL: case BI_CW_DIV:
    NARGS(2, 2);
    if (!all_same(a, n) || (t0->kind != TY_VEC && t0->kind != TY_MAT))
      BAD();
    return ir_call(C, bi, t0, 2, a);
  case BI_MUL: case BI_ADD: case BI_SUB: case BI_DIV: case BI_NEG:
    break;
  default:
    ERR(call->pos, "%s() is not supported here", name);
  }
  /* wp.mul/add/sub/div/neg: the operators by name */
  if (bi == BI_NEG) {
    NARGS(1, 1);
    return ir_unary(C, OP_NEG, a[0]);
  }
  NARGS(2, 2);
  (void)t0;
  return NULL; /* handled by the caller through binop() */
#undef NARGS
#undef BAD
}

/* ---------------------------------------------------------------- operators */

static IrExpr *binop(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos) {
  Compiler *C = X->C;
  const Type *lt = l->ty, *rt = r->ty;
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

static IrExpr *compare(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos) {
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

static IrExpr *index_expr(Ctx *X, IrExpr *i, IrVar *arr, int axis, Pos pos) {
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
  IrExpr *e = expr(X, n);
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
static IrExpr *comp_index(Ctx *X, Node *n, int limit, const char *what) {
  int k = const_index(X, n, limit, what);
  if (k >= 0)
    return ir_const_int(X->C, t_i32(), (uint64_t)k);
  IrExpr *e = expr(X, n);
  IrExpr *lim = ir_const_int(X->C, e->ty, (uint64_t)limit);
  return sc_is_signed(e->ty->sc) ? ir_call2(X->C, BI_WRAP_INDEX, e->ty, e, lim)
                                 : e;
}

static IrExpr *subscript(Ctx *X, Node *n) {
  IrExpr *base = expr(X, n->a);
  const Type *bt = base->ty;
  int nidx = count_args(n->args);
  if (bt->kind == TY_ARRAY) {
    if (nidx != bt->ndim)
      ERR(n->pos, "a %d-d array needs %d ind%s, got %d (sub-arrays are not "
                  "supported)", bt->ndim, bt->ndim,
          bt->ndim == 1 ? "ex" : "ices", nidx);
    IrExpr *e = ir_expr(X->C, E_LOAD, bt->elem);
    e->pos = n->pos;
    e->var = base->var;
    e->nargs = nidx;
    e->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)nidx);
    int i = 0;
    for (Node *a = n->args; a; a = a->next, i++)
      e->args[i] = index_expr(X, expr(X, a), base->var, i, a->pos);
    base->var->read = true;
    return e;
  }
  if (bt->kind == TY_SHAPE) {
    if (nidx != 1)
      ERR(n->pos, "shape takes one index");
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
    e->b = comp_index(X, n->args, bt->rows, "vector");
    return e;
  }
  if (bt->kind == TY_MAT) {
    if (nidx == 1) {
      IrExpr *e = ir_expr(X->C, E_COMP, ty_vec(X->C, bt->sc, bt->cols));
      e->pos = n->pos;
      e->a = base;
      e->b = comp_index(X, n->args, bt->rows, "matrix row");
      return e;
    }
    if (nidx != 2)
      ERR(n->pos, "a matrix takes one or two indices, got %d", nidx);
    IrExpr *e = ir_expr(X->C, E_COMP, ty_scalar(bt->sc));
    e->pos = n->pos;
    e->a = base;
    e->b = comp_index(X, n->args, bt->rows, "matrix row");
    e->c = comp_index(X, n->args->next, bt->cols, "matrix column");
    return e;
  }
  ERR(n->pos, "a %s cannot be indexed", TN(bt));
}

static int swizzle_index(const char *name) {
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

static IrExpr *attribute(Ctx *X, Node *n) {
  if (is_wp(X, n->a)) {
    bool second;
    const Type *t = wp_type_named(X->C, n->name, &second);
    if (t) {
      IrExpr *e = ir_expr(X->C, E_CONST, ty_typeval(X->C, t));
      return e;
    }
    double v;
    if (wp_builtin_constant(n->name, &v))
      return ir_const_float(X->C, t_f32(), (double)(float)v);
    if (builtin_lookup(n->name) >= 0)
      ERR(n->pos, "wp.%s is a function; call it", n->name);
    ERR(n->pos, "wp.%s is not supported", n->name);
  }
  IrExpr *base = expr(X, n->a);
  const Type *bt = base->ty;
  if (bt->kind == TY_ARRAY) {
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
    int k = swizzle_index(n->name);
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
  Local *l = find_local(X, n->name);
  if (l) {
    int idx = (int)(l - X->locals);
    if (!X->defined[idx])
      ERR(n->pos, "'%s' may be read before it is assigned (it is assigned "
                  "only on some paths before this line)", n->name);
    return ir_ref(X->C, l->var);
  }
  Sym *s = find_const(X, n->name);
  if (s)
    return const_value(X, s, n->pos);
  if (is_wp(X, n))
    ERR(n->pos, "the module '%s' cannot be used as a value", n->name);
  if (find_func(X, n->name))
    ERR(n->pos, "function '%s' cannot be used as a value; call it", n->name);
  static const char *const py[] = {"range", "len", "print", "min", "max",
                                   "abs", "float", "int", "bool", NULL};
  for (int i = 0; py[i]; i++)
    if (!strcmp(n->name, py[i]))
      ERR(n->pos, "'%s' cannot be used as a value", n->name);
  ERR(n->pos, "unknown name '%s'", n->name);
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
    return attribute(X, n);
  case N_SUBSCRIPT:
    return subscript(X, n);
  case N_CALL: {
    const char *w = wp_attr(X, n->a);
    int bi = w ? builtin_lookup(w) : -1;
    if (bi == BI_ADD || bi == BI_SUB || bi == BI_MUL || bi == BI_DIV) {
      if (count_args(n->args) != 2 || n->kwargs)
        ERR(n->pos, "wp.%s() takes 2 arguments", w);
      IrExpr *lr[2];
      lr[0] = expr(X, n->args);
      lr[1] = expr(X, n->args->next);
      order_effects(X, lr, 2, n->pos);
      IrExpr *l = lr[0], *r = lr[1];
      int op = bi == BI_ADD ? OP_ADD : bi == BI_SUB ? OP_SUB
               : bi == BI_MUL ? OP_MUL : OP_DIV;
      return binop(X, op, l, r, n->pos);
    }
    IrExpr *e = call_expr(X, n);
    if (e->ty->kind == TY_VOID)
      ERR(n->pos, "this call returns nothing and cannot be used as a value");
    return e;
  }
  case N_BINOP: {
    IrExpr *lr[2];
    lr[0] = expr(X, n->a);
    lr[1] = expr(X, n->b);
    order_effects(X, lr, 2, n->pos);
    return binop(X, n->op, lr[0], lr[1], n->pos);
  }
  case N_UNOP: {
    if (is_literal(n) && n->op == OP_NEG && n->a->kind == N_INT)
      return ir_const_int(C, t_i32(), (uint64_t)(int64_t)(int32_t)(uint32_t)(
                                          0u - (uint32_t)n->a->ival));
    IrExpr *a = expr(X, n->a);
    if (n->op == OP_POS) {
      if (!ty_is_value(a->ty) || ty_is_bool(a->ty))
        ERR(n->pos, "unary + is not defined for %s", TN(a->ty));
      return a;
    }
    if (n->op == OP_NEG) {
      if (!ty_is_value(a->ty) || a->ty->sc == KERN_SCALAR_BOOL)
        ERR(n->pos, "unary - is not defined for %s", TN(a->ty));
      if (a->kind == E_CONST && sc_is_float(a->ty->sc) && a->ty->kind ==
          TY_SCALAR)
        return ir_const_float(C, a->ty, -a->fval);
      if (a->ty->kind != TY_SCALAR)
        return ir_call1(C, BI_NEG, a->ty, a);
      return ir_unary(C, OP_NEG, a);
    }
    if (!ty_is_int(a->ty))
      ERR(n->pos, "~ needs an integer, got %s", TN(a->ty));
    return ir_unary(C, OP_INVERT, a);
  }
  case N_NOT: {
    IrExpr *e = ir_expr(C, E_NOT, t_bool());
    e->a = truth(X, expr(X, n->a), n->a->pos);
    return e;
  }
  case N_AND:
  case N_OR: {
    IrExpr *e = ir_expr(C, n->kind == N_AND ? E_AND : E_OR, t_bool());
    e->a = truth(X, expr(X, n->a), n->a->pos);
    X->no_hoist++; /* evaluated only when a decides it */
    e->b = truth(X, expr(X, n->b), n->b->pos);
    X->no_hoist--;
    return e;
  }
  case N_COMPARE: {
    /* a < b < c is (a < b) and (b < c), b evaluated once: middle operands
     * that are not plain variables or constants go through temporaries. */
    IrExpr *left = expr(X, n->a);
    IrExpr *result = NULL;
    Node *rn = n->args;
    Node *ln = n->a;
    for (int i = 0; i < (int)n->ival; i++, rn = rn->next) {
      IrExpr *right = expr(X, rn);
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
        if (is_literal(rn) && !(rn->kind == N_FLOAT && ty_is_int(left->ty)))
          right = literal_as(X, rn, left->ty);
        else if (ln && is_literal(ln) &&
                 !(ln->kind == N_FLOAT && ty_is_int(right->ty)))
          left = literal_as(X, ln, right->ty);
      }
      ln = rn;
      if (rn->next && right->kind != E_VAR && right->kind != E_CONST) {
        Local *tmp = add_local(X, "cmp", right->ty, rn->pos);
        def_set(X, X->nlocals - 1);
        IrStmt *s = ir_stmt(C, S_ASSIGN, rn->pos);
        s->var = tmp->var;
        s->a = right;
        tmp->var->nassign++;
        emit(X, s);
        right = ir_ref(C, tmp->var);
      }
      IrExpr *c = compare(X, n->ops[i], left, right, n->pos);
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
    IrExpr *c = truth(X, expr(X, n->a), n->a->pos);
    X->no_hoist++; /* only one branch is evaluated */
    IrExpr *t = expr(X, n->b), *f = expr(X, n->c);
    X->no_hoist--;
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
    ERR(n->pos, "tuples are only supported on either side of an assignment "
                "and in return statements");
  case N_LIST:
    ERR(n->pos, "%s literals are not supported in kernels", n->name);
  case N_KEYWORD:
  default:
    break;
  }
  ERR(n->pos, "unsupported expression");
}

/* ---------------------------------------------------------------- assignment */

static Local *assign_local(Ctx *X, Node *target, const Type *ty) {
  Local *l = find_local(X, target->name);
  Sym *cs = find_const(X, target->name);
  /* A kernel variable may shadow a plain module-level name (Python makes
   * it a local); wp.constant() names are kern's, and stay constant. */
  if (cs && !cs->pyglobal && !l)
    ERR(target->pos, "cannot assign to the constant '%s'", target->name);
  if (is_wp(X, target))
    ERR(target->pos, "cannot assign to the module '%s'", target->name);
  if (!is_valuelike(ty))
    ERR(target->pos, "cannot assign a %s to a variable", TN(ty));
  if (!l) {
    l = add_local(X, target->name, ty, target->pos);
  } else {
    if (l->ty->kind == TY_ARRAY)
      ERR(target->pos, "cannot assign to the array parameter '%s'",
          target->name);
    if (!ty_eq(l->ty, ty))
      ERR(target->pos, "cannot assign %s to '%s', which is %s (a variable "
                       "keeps the type of its first assignment)", TN(ty),
          target->name, TN(l->ty));
  }
  def_set(X, l - X->locals);
  l->var->nassign++;
  return l;
}

static void store_to(Ctx *X, Node *target, IrExpr *value, Pos pos);

/* A component store: v.x = e, v[i] = e, m[i, j] = e, m[i] = row, and the
 * same through an array element (read, modify, write back). */
static void store_component(Ctx *X, Node *target, IrExpr *value) {
  Node *basen = target->a;
  IrExpr *base = expr(X, basen);
  const Type *bt = base->ty;
  IrExpr *i = NULL, *j = NULL;
  const Type *ct;
  if (target->kind == N_ATTR && bt->kind == TY_STRUCT) {
    /* s.f = v, s.a.b = v: an lvalue of fields on a variable */
    IrExpr *root = base;
    while (root->kind == E_FIELD)
      root = root->a;
    if (root->kind != E_VAR)
      ERR(target->pos, "cannot assign to a field of this expression; "
                       "assign the struct to a variable first");
    IrExpr *lv = NULL;
    for (int k = 0; k < bt->n; k++)
      if (!strcmp(bt->fnames[k], target->name)) {
        lv = ir_expr(X->C, E_FIELD, bt->items[k]);
        lv->a = base;
        lv->ival = (uint64_t)k;
      }
    if (!lv)
      ERR(target->pos, "struct '%s' has no field '%s'", bt->name,
          target->name);
    if (!ty_eq(value->ty, lv->ty))
      ERR(target->pos, "cannot assign %s to field '%s', which is %s",
          TN(value->ty), target->name, TN(lv->ty));
    IrStmt *st = ir_stmt(X->C, S_SETFIELD, target->pos);
    st->var = root->var;
    st->a = lv;
    st->c = value;
    root->var->nassign++;
    emit(X, st);
    return;
  }
  if (base->kind == E_FIELD)
    ERR(target->pos, "assigning to a component of a struct field is not "
                     "supported yet; assign the whole field");
  if (target->kind == N_ATTR) {
    if (bt->kind == TY_ARRAY && !strcmp(target->name, "shape"))
      ERR(target->pos, "cannot assign to the shape of array '%s'",
          basen->kind == N_NAME ? basen->name : "?");
    if (bt->kind != TY_VEC)
      ERR(target->pos, "cannot assign to attribute '%s' of a %s", target->name,
          TN(bt));
    int k = swizzle_index(target->name);
    if (k < 0 || k >= bt->rows)
      ERR(target->pos, "a %s has no component '%s'", TN(bt), target->name);
    i = ir_const_int(X->C, t_i32(), (uint64_t)k);
    ct = ty_scalar(bt->sc);
  } else {
    if (bt->kind == TY_SHAPE)
      ERR(target->pos, "cannot assign to the shape of an array");
    int nidx = count_args(target->args);
    if (bt->kind == TY_VEC && nidx == 1) {
      i = comp_index(X, target->args, bt->rows, "vector");
      ct = ty_scalar(bt->sc);
    } else if (bt->kind == TY_MAT && nidx == 2) {
      i = comp_index(X, target->args, bt->rows, "matrix row");
      j = comp_index(X, target->args->next, bt->cols, "matrix column");
      ct = ty_scalar(bt->sc);
    } else if (bt->kind == TY_MAT && nidx == 1) {
      i = comp_index(X, target->args, bt->rows, "matrix row");
      ct = ty_vec(X->C, bt->sc, bt->cols);
    } else {
      ERR(target->pos, "cannot assign to an element of a %s", TN(bt));
    }
  }
  if (!ty_eq(value->ty, ct))
    ERR(target->pos, "cannot assign %s to a component of type %s",
        TN(value->ty), TN(ct));
  if (base->kind == E_VAR) {
    /* Parameters are values (a copy), so a parameter's component can be
     * set like a local's, as in Warp. */
    IrStmt *s = ir_stmt(X->C, S_SETCOMP, target->pos);
    s->var = base->var;
    s->a = i;
    s->b = j;
    s->c = value;
    base->var->nassign++;
    emit(X, s);
    return;
  }
  if (base->kind == E_LOAD) {
    /* a[i].x = v: t = a[i]; t.x = v; a[i] = t */
    Local *tmp = add_local(X, "elem", bt, target->pos);
    def_set(X, X->nlocals - 1);
    IrStmt *s = ir_stmt(X->C, S_ASSIGN, target->pos);
    s->var = tmp->var;
    s->a = base;
    tmp->var->nassign += 2;
    emit(X, s);
    IrStmt *sc = ir_stmt(X->C, S_SETCOMP, target->pos);
    sc->var = tmp->var;
    sc->a = i;
    sc->b = j;
    sc->c = value;
    emit(X, sc);
    IrStmt *st = ir_stmt(X->C, S_STORE, base->pos);
    st->var = base->var;
    st->args = base->args;
    st->nargs = base->nargs;
    st->c = ir_ref(X->C, tmp->var);
    base->var->written = true;
    emit(X, st);
    return;
  }
  ERR(target->pos, "cannot assign to this expression");
}

static void store_to(Ctx *X, Node *target, IrExpr *value, Pos pos) {
  switch (target->kind) {
  case N_NAME: {
    Local *l = find_local(X, target->name);
    if (l && l->is_param && l->ty->kind == TY_ARRAY)
      ERR(target->pos, "cannot assign to the array parameter '%s'",
          target->name);
    l = assign_local(X, target, value->ty);
    IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
    s->var = l->var;
    s->a = value;
    emit(X, s);
    return;
  }
  case N_SUBSCRIPT: {
    IrExpr *base = expr(X, target->a);
    if (base->ty->kind == TY_ARRAY) {
      IrExpr *ld = subscript(X, target);
      if (!ty_eq(value->ty, base->ty->elem))
        ERR(target->pos, "cannot store %s into an array of %s (Warp needs "
                         "the element type exactly)", TN(value->ty),
            TN(base->ty->elem));
      IrStmt *s = ir_stmt(X->C, S_STORE, target->pos);
      s->var = ld->var;
      s->args = ld->args;
      s->nargs = ld->nargs;
      s->c = value;
      ld->var->written = true;
      emit(X, s);
      return;
    }
    store_component(X, target, value);
    return;
  }
  case N_ATTR:
    store_component(X, target, value);
    return;
  case N_TUPLE:
    ERR(target->pos, "nested tuple assignment is not supported");
  case N_CALL:
    ERR(target->pos, "cannot assign to a function call");
  default:
    ERR(target->pos, "cannot assign to this expression");
  }
}

static void assign_tuple(Ctx *X, Node *targets, Node *value, Pos pos) {
  int nt = count_args(targets->args);
  /* i, j = wp.tid() */
  if (value->kind == N_CALL) {
    const char *w = wp_attr(X, value->a);
    if (w && !strcmp(w, "tid")) {
      if (!X->f->is_kernel)
        ERR(value->pos, "wp.tid() can only be called in a kernel");
      if (value->args || value->kwargs)
        ERR(value->pos, "wp.tid() takes no arguments");
      if (nt > 4)
        ERR(targets->pos, "wp.tid() has at most 4 dimensions, got %d "
                          "targets", nt);
      if (X->f->tid_dims != 0 && X->f->tid_dims != nt)
        ERR(targets->pos, "wp.tid() is unpacked into %d values here but %d "
                          "elsewhere in this kernel", nt, X->f->tid_dims);
      X->f->tid_dims = nt;
      int k = 0;
      for (Node *t = targets->args; t; t = t->next, k++) {
        if (t->kind != N_NAME)
          ERR(t->pos, "wp.tid() must be unpacked into variables");
        IrExpr *e = ir_expr(X->C, E_TID, t_i32());
        e->ival = (uint64_t)k;
        store_to(X, t, e, pos);
      }
      return;
    }
    /* a, b = f(x) */
    if (value->a->kind == N_NAME && find_func(X, value->a->name) &&
        !find_local(X, value->a->name)) {
      IrExpr *call = expr(X, value);
      IrFunc *g = call->fn; /* the overload the call chose */
      if (g->nrets < 2)
        ERR(targets->pos, "'%s' returns one value, not %d", g->name, nt);
      if (g->nrets != nt)
        ERR(targets->pos, "'%s' returns %d values, but %d targets are given",
            g->name, g->nrets, nt);
      /* Results 2..n come back through out-variables, then everything is
       * assigned in order. */
      call->nouts = nt - 1;
      call->outs = arena_alloc(X->C, sizeof(IrVar *) * (size_t)nt);
      for (int i = 1; i < nt; i++) {
        Local *tmp = add_local(X, "ret", g->rets[i], value->pos);
        def_set(X, X->nlocals - 1);
        tmp->var->nassign++;
        call->outs[i - 1] = tmp->var;
      }
      Local *first = add_local(X, "ret", g->rets[0], value->pos);
      def_set(X, X->nlocals - 1);
      first->var->nassign++;
      IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
      s->var = first->var;
      s->a = call;
      emit(X, s);
      int i = 0;
      for (Node *t = targets->args; t; t = t->next, i++) {
        IrVar *src = i == 0 ? first->var : call->outs[i - 1];
        store_to(X, t, ir_ref(X->C, src), pos);
      }
      return;
    }
  }
  if (value->kind == N_TUPLE) {
    int nv = count_args(value->args);
    if (nv != nt)
      ERR(pos, "%d values are assigned to %d targets", nv, nt);
    /* Evaluate every value before assigning any (a, b = b, a). */
    IrVar **tmps = arena_alloc(X->C, sizeof(IrVar *) * (size_t)nv);
    int i = 0;
    for (Node *v = value->args; v; v = v->next, i++) {
      IrExpr *e = expr(X, v);
      if (!ty_is_value(e->ty))
        ERR(v->pos, "cannot assign a %s", TN(e->ty));
      Local *tmp = add_local(X, "tup", e->ty, v->pos);
      def_set(X, X->nlocals - 1);
      tmp->var->nassign++;
      IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
      s->var = tmp->var;
      s->a = e;
      emit(X, s);
      tmps[i] = tmp->var;
    }
    i = 0;
    for (Node *t = targets->args; t; t = t->next, i++)
      store_to(X, t, ir_ref(X->C, tmps[i]), pos);
    return;
  }
  ERR(value->pos, "cannot unpack this value into %d targets (only wp.tid(), "
                  "function results and tuples can be unpacked)", nt);
}

static void augassign(Ctx *X, Node *n) {
  Node *target = n->a;
  if (target->kind == N_TUPLE)
    ERR(target->pos, "augmented assignment to a tuple is not supported");
  if (target->kind == N_SUBSCRIPT) {
    IrExpr *base = expr(X, target->a);
    const Type *et0 = base->ty->kind == TY_ARRAY ? base->ty->elem : NULL;
    bool wide = et0 && !ty_is_bool(et0) &&
                !(sc_is_int(et0->sc) && sc_bits(et0->sc) < 32);
    bool bitop = n->op == OP_BITAND || n->op == OP_BITOR || n->op == OP_BITXOR;
    /* As in Warp: += and -= on an array element are atomic, and so are
     * &= |= ^= on integers; other operators, and elements narrower than 32
     * bits, are a plain load-op-store. */
    if (wide && (n->op == OP_ADD || n->op == OP_SUB ||
                 (bitop && ty_is_int(et0)))) {
      /* a[i] += v is an atomic add in Warp. */
      IrExpr *ld = subscript(X, target);
      IrExpr *v = expr(X, n->b);
      if (!ty_eq(v->ty, ld->ty))
        ERR(n->pos, "cannot add %s to an element of an array of %s",
            TN(v->ty), TN(ld->ty));
      IrExpr *e = ir_expr(X->C, E_ATOMIC, ld->ty);
      e->pos = target->pos;
      e->bi = n->op == OP_ADD ? BI_ATOMIC_ADD : n->op == OP_SUB ? BI_ATOMIC_SUB
              : n->op == OP_BITAND ? BI_ATOMIC_AND
              : n->op == OP_BITOR ? BI_ATOMIC_OR : BI_ATOMIC_XOR;
      e->var = ld->var;
      e->args = ld->args;
      e->nargs = ld->nargs;
      e->c = v;
      ld->var->written = true;
      X->irf->uses_atomics = true;
      IrStmt *s = ir_stmt(X->C, S_EXPR, n->pos);
      s->a = e;
      emit(X, s);
      return;
    }
  }
  IrExpr *cur = expr(X, target);
  IrExpr *v = expr(X, n->b);
  IrExpr *r = binop(X, n->op, cur, v, n->pos);
  if (!ty_eq(r->ty, cur->ty))
    ERR(n->pos, "'%s=' would change the type of the target from %s to %s",
        op_text(n->op), TN(cur->ty), TN(r->ty));
  if (target->kind == N_NAME) {
    Local *l = find_local(X, target->name);
    if (l && l->is_param && l->ty->kind == TY_ARRAY)
      ERR(target->pos, "cannot assign to the array parameter '%s'",
          target->name);
  }
  store_to(X, target, r, n->pos);
}

/* ---------------------------------------------------------------- statements */

static IrStmt *block_of(Ctx *X, Node *list, bool *dead_out) {
  IrStmt *head = NULL;
  IrStmt **save_tail = X->tail;
  bool save_dead = X->dead;
  X->tail = &head;
  X->dead = false;
  stmts(X, list);
  *dead_out = X->dead;
  X->tail = save_tail;
  X->dead = save_dead;
  return head;
}

static void for_stmt(Ctx *X, Node *n) {
  Compiler *C = X->C;
  Node *it = n->a;
  if (n->b->kind != N_NAME)
    ERR(n->b->pos, "the target of a 'for' loop must be a single variable");
  if (it->kind != N_CALL || it->a->kind != N_NAME ||
      strcmp(it->a->name, "range") || find_local(X, "range"))
    ERR(it->pos, "only 'for ... in range(...)' loops are supported");
  no_kwargs(X, it, "range");
  int na = count_args(it->args);
  if (na < 1 || na > 3)
    ERR(it->pos, "range() takes 1 to 3 arguments, got %d", na);
  IrExpr *a[3];
  int i = 0;
  for (Node *an = it->args; an; an = an->next, i++) {
    a[i] = expr(X, an);
    if (!ty_is_int(a[i]->ty))
      ERR(an->pos, "range() arguments must be integers, got %s",
          TN(a[i]->ty));
    if (i > 0 && !ty_eq(a[i]->ty, a[0]->ty))
      ERR(an->pos, "range() arguments have different types: %s and %s",
          TN(a[0]->ty), TN(a[i]->ty));
  }
  order_effects(X, a, na, it->pos);
  const Type *it_ty = a[0]->ty;
  IrExpr *start = na == 1 ? ir_const_int(C, it_ty, 0) : a[0];
  IrExpr *stop = na == 1 ? a[0] : a[1];
  IrExpr *step = na == 3 ? a[2] : ir_const_int(C, it_ty, 1);
  if (step->kind == E_CONST && step->ival == 0)
    ERR(it->args->next->next->pos, "range() step must not be zero");
  /* Python evaluates the range once: stop and step go into temporaries
   * unless constant. */
  IrStmt *s = ir_stmt(C, S_FOR, n->pos);
  /* hidden: a later variable named i is the program's own, not this */
  Local *ctr = add_hidden_local(X, "i", it_ty, n->pos);
  def_set(X, X->nlocals - 1);
  ctr->var->nassign += 2;
  IrExpr *vals[2] = {stop, step};
  for (int k = 0; k < 2; k++) {
    if (vals[k]->kind == E_CONST || vals[k]->kind == E_VAR)
      continue;
    Local *t = add_hidden_local(X, k ? "step" : "stop", it_ty, n->pos);
    def_set(X, X->nlocals - 1);
    t->var->nassign++;
    IrStmt *as = ir_stmt(C, S_ASSIGN, n->pos);
    as->var = t->var;
    as->a = vals[k];
    emit(X, as);
    vals[k] = ir_ref(C, t->var);
  }
  s->var = ctr->var;
  s->a = start;
  s->b = vals[0];
  s->c = vals[1];

  DefSet before = defs_save(X);
  /* the loop variable: assigned from the counter at the top of the body */
  Local *lv = assign_local(X, n->b, it_ty);
  IrStmt *head = ir_stmt(C, S_ASSIGN, n->pos);
  head->var = lv->var;
  head->a = ir_ref(C, ctr->var);
  X->loop_depth++;
  bool dead;
  IrStmt *body = block_of(X, n->body, &dead);
  X->loop_depth--;
  head->next = body;
  s->body = head;
  defs_restore(X, before);
  emit(X, s);
}

static void stmt(Ctx *X, Node *n);

static void stmts(Ctx *X, Node *list) {
  for (Node *n = list; n; n = n->next) {
    if (X->dead) {
      /* Code after return/break/continue never runs; Warp accepts it, and
       * so does kern, but it is still checked. */
    }
    stmt(X, n);
  }
}

static void printf_stmt(Ctx *X, Node *call, bool is_print) {
  IrStmt *s = ir_stmt(X->C, S_PRINTF, call->pos);
  no_kwargs(X, call, is_print ? "print" : "wp.printf");
  if (is_print) {
    if (count_args(call->args) != 1)
      ERR(call->pos, "print() takes exactly one argument in kernels");
    IrExpr *v = expr(X, call->args);
    if (!ty_is_value(v->ty))
      ERR(call->args->pos, "cannot print a %s", TN(v->ty));
    s->str = NULL; /* print(x): the emitter formats by type */
    s->args = arena_alloc(X->C, sizeof(IrExpr *));
    s->args[0] = v;
    s->nargs = 1;
  } else {
    Node *fmt = call->args;
    if (!fmt || fmt->kind != N_STR)
      ERR(call->pos, "wp.printf() needs a string literal format first");
    s->str = fmt->str;
    s->slen = fmt->slen;
    int n = count_args(fmt->next);
    s->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(n ? n : 1));
    int i = 0;
    for (Node *a = fmt->next; a; a = a->next, i++) {
      IrExpr *v = expr(X, a);
      if (!ty_is_scalar(v->ty))
        ERR(a->pos, "wp.printf() arguments must be scalars, got %s",
            TN(v->ty));
      s->args[i] = v;
    }
    s->nargs = n;
    /* Every conversion must be one fmt_parse() accepts -- the emitter
     * rewrites exactly what it parsed -- and match its argument's type, as
     * C requires. */
    int argi = 0;
    for (int k = 0; k < fmt->slen; k++) {
      /* printf ends its format at a NUL, and OpenCL's printf drops a NUL
       * printed with %c, so no target could print one as written. */
      if (fmt->str[k] == '\0')
        ERR(fmt_pos(X->C, fmt->pos, k),
            "a wp.printf() format cannot contain a NUL character");
      if (fmt->str[k] != '%')
        continue;
      FmtSpec f;
      if (!fmt_parse(fmt->str, fmt->slen, k, &f)) {
        int q = f.end - k; /* quote the conversion, printable part only */
        for (int i = 1; i < q; i++)
          if ((unsigned char)fmt->str[k + i] < 0x20 ||
              (unsigned char)fmt->str[k + i] >= 0x7f)
            q = i;
        ERR(fmt_pos(X->C, fmt->pos, f.error_at),
            "bad conversion '%.*s' in the wp.printf() format: %s", q,
            fmt->str + k, f.error);
      }
      k = f.end - 1;
      if (f.conv == '%')
        continue;
      if (argi >= n)
        ERR(fmt_pos(X->C, fmt->pos, f.start),
            "the format has more conversions than arguments");
      const Type *at = s->args[argi]->ty;
      if (f.is_float != sc_is_float(at->sc))
        ERR(fmt_pos(X->C, fmt->pos, f.start),
            "conversion '%.*s' does not match argument %d, which is %s",
            f.end - f.start, fmt->str + f.start, argi + 2, TN(at));
      argi++;
    }
    if (argi != n)
      ERR(call->pos, "wp.printf() has %d argument%s but the format uses %d",
          n, n == 1 ? "" : "s", argi);
  }
  X->irf->uses_printf = true;
  emit(X, s);
}

/* ---------------------------------------------------------------- Warp's test helpers */

/* A printf statement with a fixed format and arguments. */
static void emit_printf_stmt(Ctx *X, Pos pos, const char *fmt, int n,
                             IrExpr **args) {
  IrStmt *s = ir_stmt(X->C, S_PRINTF, pos);
  s->str = arena_strndup(X->C, fmt, strlen(fmt));
  s->slen = (int)strlen(fmt);
  s->args = args;
  s->nargs = n;
  X->irf->uses_printf = true;
  emit(X, s);
}

/* The value of v in a fresh variable, so it is evaluated once, here. */
static IrExpr *in_temp(Ctx *X, IrExpr *v, const char *base, Pos pos) {
  if (v->kind == E_VAR || v->kind == E_CONST)
    return v;
  Local *t = add_hidden_local(X, base, v->ty, pos);
  def_set(X, X->nlocals - 1);
  t->var->nassign++;
  IrStmt *as = ir_stmt(X->C, S_ASSIGN, pos);
  as->var = t->var;
  as->a = v;
  emit(X, as);
  return ir_ref(X->C, t->var);
}

/* Does evaluating e change state: an atomic, a random draw (which
 * advances its state variable), or a call of a user function? */
static bool has_effects(IrExpr *e) {
  if (!e)
    return false;
  if (e->kind == E_ATOMIC || (e->kind == E_FCALL && e->fn->has_effects))
    return true;
  if (e->kind == E_CALL && (e->bi == BI_RANDF || e->bi == BI_RANDI ||
                            e->bi == BI_RANDN))
    return true;
  if (has_effects(e->a) || has_effects(e->b) || has_effects(e->c))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (has_effects(e->args[i]))
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
  if (eff->kind == E_CALL && (eff->bi == BI_RANDF || eff->bi == BI_RANDI ||
                              eff->bi == BI_RANDN) &&
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
static bool stmts_have_effects(IrStmt *s) {
  for (; s; s = s->next) {
    if (s->kind == S_STORE || s->kind == S_PRINTF || s->kind == S_AGG ||
        s->kind == S_ASSERT)
      return true;
    if (has_effects(s->a) || has_effects(s->b) || has_effects(s->c))
      return true;
    for (int i = 0; i < s->nargs; i++)
      if (has_effects(s->args[i]))
        return true;
    if (stmts_have_effects(s->body) || stmts_have_effects(s->orelse))
      return true;
  }
  return false;
}

static void order_effects(Ctx *X, IrExpr **v, int n, Pos pos) {
  if (X->no_hoist || n < 2)
    return;
  int neff = 0, last = -1, one = -1;
  for (int i = 0; i < n; i++)
    if (has_effects(v[i])) {
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
    Local *t = add_hidden_local(X, "arg", v[i]->ty, pos);
    def_set(X, X->nlocals - 1);
    t->var->nassign++;
    IrStmt *as = ir_stmt(X->C, S_ASSIGN, pos);
    as->var = t->var;
    as->a = v[i];
    emit(X, as);
    v[i] = ir_ref(X->C, t->var);
  }
}

static IrExpr *component(Ctx *X, IrExpr *v, int k) {
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
 * newline, matrices one such line per row.  v must be a variable or a
 * constant (it is read once per component). */
static void print_value(Ctx *X, IrExpr *v, Pos pos) {
  const Type *t = v->ty;
  if (t->kind == TY_SCALAR) {
    if (t->sc == KERN_SCALAR_BOOL) {
      IrStmt *s = ir_stmt(X->C, S_IF, pos);
      s->a = v;
      IrStmt **save = X->tail;
      X->tail = &s->body;
      emit_printf_stmt(X, pos, "True\n", 0, NULL);
      X->tail = &s->orelse;
      emit_printf_stmt(X, pos, "False\n", 0, NULL);
      X->tail = save;
      emit(X, s);
      return;
    }
    IrExpr **a = arena_alloc(X->C, sizeof(IrExpr *));
    a[0] = v;
    emit_printf_stmt(X, pos, sc_is_float(t->sc) ? "%g\n" : sc_is_signed(t->sc)
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
      a[r * cols + c] = ir_cast(X->C, t_f32(), component(X, v, r * cols + c));
    }
    buf_puts(&f, "\n");
  }
  emit_printf_stmt(X, pos, f.p, rows * cols, a);
}

/* wp.expect_eq(a, b), wp.expect_neq(a, b), wp.expect_near(a, b, tol):
 * nothing when the expectation holds, else Warp's report on stdout (its
 * wording and layout, native/builtin.h, vec.h, mat.h); the kernel goes on
 * either way. */
static void expect_stmt(Ctx *X, Node *call, const char *w) {
  Compiler *C = X->C;
  bool near = !strcmp(w, "expect_near");
  const char *name = arena_printf(C, "wp.%s", w);
  int n;
  IrExpr *t0 = NULL;
  for (Node *k = call->kwargs; k; k = k->next)
    if (!near || strcmp(k->name, "tolerance"))
      ERR(k->pos, "%s() has no keyword argument '%s'", name, k->name);
  IrExpr **a = eval_args(X, call, &n);
  if (near && call->kwargs) {
    if (n != 2)
      ERR(call->pos, "%s() got the tolerance twice", name);
    t0 = expr(X, call->kwargs->a);
  }
  nargs_between(X, call, name, n + (t0 != NULL), near ? 2 : 2, near ? 3 : 2);
  const Type *t = a[0]->ty;
  if (!ty_eq(t, a[1]->ty) || !ty_is_value(t))
    bad_args(X, call, name, a, n);
  if (near && !sc_is_float(t->sc))
    bad_args(X, call, name, a, n);
  IrExpr *actual = in_temp(X, a[0], "actual", call->pos);
  IrExpr *expected = in_temp(X, a[1], "expected", call->pos);
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
    emit_printf_stmt(X, call->pos, arena_printf(C, "Error, %s() failed:\n", w),
                     0, NULL);
    emit_printf_stmt(X, call->pos, "\t Expected: ", 0, NULL);
    print_value(X, expected, call->pos);
    emit_printf_stmt(X, call->pos, "\t Actual: ", 0, NULL);
    print_value(X, actual, call->pos);
    X->tail = save;
    emit(X, s);
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
  tol = in_temp(X, tol, "tolerance", call->pos);
  IrExpr *diff;
  if (t->kind == TY_SCALAR) {
    diff = in_temp(X, ir_call1(C, BI_ABS, st, ir_binary(C, OP_SUB, st, actual,
                                                        expected)),
                   "diff", call->pos);
  } else {
    /* the largest component difference, with Warp's max */
    Local *d = add_hidden_local(X, "diff", st, call->pos);
    def_set(X, X->nlocals - 1);
    IrStmt *z = ir_stmt(C, S_ASSIGN, call->pos);
    z->var = d->var;
    z->a = ir_const_float(C, st, 0.0);
    emit(X, z);
    for (int k = 0; k < t->rows * t->cols; k++) {
      IrExpr *dk = ir_call1(C, BI_ABS, st, ir_binary(C, OP_SUB, st,
                                                     component(X, actual, k),
                                                     component(X, expected,
                                                               k)));
      IrStmt *m = ir_stmt(C, S_ASSIGN, call->pos);
      m->var = d->var;
      m->a = ir_call2(C, BI_MAX, st, ir_ref(C, d->var), dk);
      emit(X, m);
    }
    d->var->nassign += 1 + t->rows * t->cols;
    diff = ir_ref(C, d->var);
  }
  s->a = ir_binary(C, OP_GT, t_bool(), diff, tol);
  save = X->tail;
  X->tail = &s->body;
  emit_printf_stmt(X, call->pos, "Error, expect_near() failed with tolerance ",
                   0, NULL);
  print_value(X, tol, call->pos);
  emit_printf_stmt(X, call->pos, "    Expected: ", 0, NULL);
  print_value(X, expected, call->pos);
  emit_printf_stmt(X, call->pos, "    Actual: ", 0, NULL);
  print_value(X, actual, call->pos);
  emit_printf_stmt(X, call->pos, t->kind == TY_SCALAR
                                     ? "    Absolute difference: "
                                     : "    Max absolute difference: ", 0,
                   NULL);
  print_value(X, diff, call->pos);
  X->tail = save;
  emit(X, s);
}

/* wp.print(x) and print(x): Warp's print of one value. */
static void print_stmt(Ctx *X, Node *call, const char *name) {
  no_kwargs(X, call, name);
  if (count_args(call->args) != 1)
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
    emit_printf_stmt(X, call->pos, f.p, 0, NULL);
    return;
  }
  IrExpr *v = expr(X, call->args);
  if (!ty_is_value(v->ty))
    ERR(call->args->pos, "cannot print a %s", TN(v->ty));
  print_value(X, in_temp(X, v, "value", call->pos), call->pos);
}

static void stmt(Ctx *X, Node *n) {
  Compiler *C = X->C;
  switch (n->kind) {
  case N_PASS:
    return;
  case N_EXPR: {
    Node *e = n->a;
    if (e->kind == N_CALL) {
      const char *w = wp_attr(X, e->a);
      if (w && !strcmp(w, "printf")) {
        printf_stmt(X, e, false);
        return;
      }
      if (w && (!strcmp(w, "expect_eq") || !strcmp(w, "expect_neq") ||
                !strcmp(w, "expect_near"))) {
        expect_stmt(X, e, w);
        return;
      }
      if (w && !strcmp(w, "print")) {
        print_stmt(X, e, "wp.print");
        return;
      }
      if (!w && e->a->kind == N_NAME && !strcmp(e->a->name, "print") &&
          !find_func(X, "print")) {
        print_stmt(X, e, "print");
        return;
      }
      if (w && builtin_lookup(w) >= 0 &&
          (builtin_lookup(w) >= BI_ATOMIC_ADD &&
           builtin_lookup(w) <= BI_ATOMIC_CAS)) {
        IrStmt *s = ir_stmt(C, S_EXPR, n->pos);
        s->a = atomic_call(X, e, builtin_lookup(w), arena_printf(C, "wp.%s",
                                                                  w));
        emit(X, s);
        return;
      }
      /* wp.add/sub/mul/div are operators by name: call_expr() leaves them
       * to binop() in expr() and returns NULL, which made an S_EXPR without
       * an expression (found by fuzz_frontend: tests/fuzz/crashes/
       * ubsan_expr_stmt_wp_mul.py). */
      int bi = w ? builtin_lookup(w) : -1;
      IrExpr *v = bi == BI_ADD || bi == BI_SUB || bi == BI_MUL || bi == BI_DIV
                      ? expr(X, e)
                      : call_expr(X, e);
      IrStmt *s = ir_stmt(C, S_EXPR, n->pos);
      s->a = v;
      emit(X, s);
      return;
    }
    if (e->kind == N_STR)
      return; /* a docstring */
    /* Any other expression is evaluated for its effects, as in Python: an
     * atomic or a random draw inside it still happens. */
    IrStmt *es = ir_stmt(C, S_EXPR, n->pos);
    es->a = expr(X, e);
    emit(X, es);
    return;
  }
  case N_ASSIGN: {
    int nt = count_args(n->args);
    if (nt > 1)
      ERR(n->pos, "chained assignment (a = b = ...) is not supported");
    Node *target = n->args;
    if (target->kind == N_TUPLE) {
      assign_tuple(X, target, n->a, n->pos);
      return;
    }
    if (n->a->kind == N_TUPLE)
      ERR(n->a->pos, "a tuple cannot be assigned to a single variable");
    IrExpr *v;
    if (n->a->kind == N_CALL && wp_attr(X, n->a->a) &&
        !strcmp(wp_attr(X, n->a->a), "tid")) {
      v = expr(X, n->a);
    } else {
      v = expr(X, n->a);
      if (v->kind == E_FCALL && v->fn && v->fn->nrets > 1)
        ERR(n->pos, "'%s' returns %d values; unpack them into %d variables",
            n->a->a->name, v->fn->nrets, v->fn->nrets);
    }
    if (target->kind == N_NAME && !is_valuelike(v->ty)) {
      if (v->ty->kind == TY_ARRAY)
        ERR(n->pos, "arrays cannot be assigned to variables in kernels; use "
                    "the parameter directly");
      ERR(n->pos, "cannot assign a %s to a variable", TN(v->ty));
    }
    store_to(X, target, v, n->pos);
    return;
  }
  case N_ANNASSIGN: {
    if (n->a->kind != N_NAME)
      ERR(n->pos, "only a variable can be declared with a type");
    const Type *t = type_expr(X, n->b, "variable annotation");
    if (!n->c)
      ERR(n->pos, "a declaration needs a value ('%s: %s = ...')", n->a->name,
          TN(t));
    IrExpr *v = is_literal(n->c) && ty_is_scalar(t) ? literal_as(X, n->c, t)
                                                    : expr(X, n->c);
    if (!ty_eq(v->ty, t))
      ERR(n->pos, "'%s' is declared %s but assigned %s", n->a->name, TN(t),
          TN(v->ty));
    store_to(X, n->a, v, n->pos);
    return;
  }
  case N_AUGASSIGN:
    augassign(X, n);
    return;
  case N_IF: {
    IrStmt *s = ir_stmt(C, S_IF, n->pos);
    s->a = truth(X, expr(X, n->a), n->a->pos);
    DefSet before = defs_save(X);
    bool dead_then, dead_else = false;
    s->body = block_of(X, n->body, &dead_then);
    /* the locals the then-branch defined (Note [defs trail]) */
    int nthen = X->ntrail - before;
    int *then_set = arena_alloc(C, sizeof(int) * (size_t)(nthen ? nthen : 1));
    memcpy(then_set, X->trail + before, sizeof(int) * (size_t)nthen);
    defs_restore(X, before);
    if (n->orelse)
      s->orelse = block_of(X, n->orelse, &dead_else);
    /* Defined after the if: defined on every branch that falls through. */
    if (dead_then) {
      /* the else-branch's state, as it is */
    } else if (dead_else) {
      defs_restore(X, before);
      for (int k = 0; k < nthen; k++)
        def_set(X, then_set[k]);
    } else {
      /* before, plus what both branches defined */
      int nelse = X->ntrail - before;
      int *else_set = arena_alloc(C, sizeof(int) * (size_t)(nelse ? nelse : 1));
      memcpy(else_set, X->trail + before, sizeof(int) * (size_t)nelse);
      defs_restore(X, before);
      for (int k = 0; k < nthen; k++)
        X->marked[then_set[k]] = true;
      for (int k = 0; k < nelse; k++)
        if (X->marked[else_set[k]])
          def_set(X, else_set[k]);
      for (int k = 0; k < nthen; k++)
        X->marked[then_set[k]] = false;
    }
    if (dead_then && dead_else)
      X->dead = true;
    emit(X, s);
    return;
  }
  case N_FOR:
    for_stmt(X, n);
    return;
  case N_WHILE: {
    IrStmt *s = ir_stmt(C, S_WHILE, n->pos);
    X->no_hoist++; /* evaluated again before every iteration */
    s->a = truth(X, expr(X, n->a), n->a->pos);
    X->no_hoist--;
    DefSet before = defs_save(X);
    X->loop_depth++;
    bool dead;
    s->body = block_of(X, n->body, &dead);
    X->loop_depth--;
    defs_restore(X, before);
    emit(X, s);
    return;
  }
  case N_BREAK:
  case N_CONTINUE:
    if (X->loop_depth == 0)
      ERR(n->pos, "'%s' outside a loop", n->kind == N_BREAK ? "break" :
                                                              "continue");
    emit(X, ir_stmt(C, n->kind == N_BREAK ? S_BREAK : S_CONTINUE, n->pos));
    X->dead = true;
    return;
  case N_RETURN: {
    Func *f = X->f;
    if (f->is_kernel) {
      if (n->a)
        ERR(n->pos, "a kernel cannot return a value");
      if (X->loop_depth > 0)
        X->irf->has_kreturn_in_loop = true;
      emit(X, ir_stmt(C, S_KRETURN, n->pos));
      X->dead = true;
      return;
    }
    IrStmt *s = ir_stmt(C, S_RETURN, n->pos);
    const Type *rt;
    if (!n->a) {
      rt = &ty_void;
    } else if (n->a->kind == N_TUPLE) {
      int k = count_args(n->a->args);
      s->args = arena_alloc(C, sizeof(IrExpr *) * (size_t)k);
      const Type **items = arena_alloc(C, sizeof(Type *) * (size_t)k);
      int i = 0;
      for (Node *v = n->a->args; v; v = v->next, i++) {
        s->args[i] = expr(X, v);
        if (!ty_is_value(s->args[i]->ty))
          ERR(v->pos, "cannot return a %s", TN(s->args[i]->ty));
        items[i] = s->args[i]->ty;
      }
      s->nargs = k;
      rt = ty_tuple(C, k, items);
    } else {
      s->a = expr(X, n->a);
      rt = s->a->ty;
      if (!is_valuelike(rt))
        ERR(n->a->pos, "cannot return a %s", TN(rt));
    }
    if (!f->ret) {
      f->ret = rt;
    } else if (!ty_eq(f->ret, rt)) {
      ERR(n->pos, "'%s' returns %s here but %s %s", f->name, TN(rt),
          f->ret_annot ? "is declared to return" : "returned",
          TN(f->ret));
    }
    X->ret_seen = true;
    emit(X, s);
    X->dead = true;
    return;
  }
  case N_ASSERT: {
    IrStmt *s = ir_stmt(C, S_ASSERT, n->pos);
    s->a = truth(X, expr(X, n->a), n->a->pos);
    emit(X, s);
    return;
  }
  default:
    ERR(n->pos, "unsupported statement");
  }
}

/* ---------------------------------------------------------------- functions */

static void check_func(Compiler *C, IrModule *irm, Func *f) {
  Ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  Ctx *X = &ctx;
  X->C = C;
  X->M = C->mod;
  X->irm = irm;
  X->f = f;
  f->checking = true;

  IrFunc *irf = arena_alloc(C, sizeof *irf);
  irf->name = f->name;
  irf->symbol = f->overload_index
                    ? arena_printf(C, "kern_f%d_%s", f->overload_index,
                                   f->name)
                    : arena_printf(C, "%s_%s", f->is_kernel ? "kern_k"
                                                            : "kern_f",
                                   f->name);
  irf->is_kernel = f->is_kernel;
  irf->pos = f->pos;
  f->ir = irf;
  X->irf = irf;

  if (f->ret_annot) {
    if (f->is_kernel)
      ERR(f->ret_annot->pos, "a kernel cannot return a value");
    if (f->ret_annot->kind == N_NONE) {
      f->ret = &ty_void;
    } else if (f->ret_annot->kind == N_CALL || f->ret_annot->kind == N_NAME ||
               f->ret_annot->kind == N_ATTR) {
      f->ret = type_expr(X, f->ret_annot, "return type");
    } else if (f->ret_annot->kind == N_SUBSCRIPT &&
               f->ret_annot->a->kind == N_NAME &&
               (!strcmp(f->ret_annot->a->name, "tuple") ||
                !strcmp(f->ret_annot->a->name, "Tuple"))) {
      int k = count_args(f->ret_annot->args);
      const Type **items = arena_alloc(C, sizeof(Type *) * (size_t)k);
      int i = 0;
      for (Node *a = f->ret_annot->args; a; a = a->next)
        items[i++] = type_expr(X, a, "return type");
      f->ret = ty_tuple(C, k, items);
    } else {
      f->ret = type_expr(X, f->ret_annot, "return type");
    }
  }

  /* parameters */
  IrVar **ptail = &irf->params;
  for (int i = 0; i < f->nparams; i++) {
    Param *p = &f->params[i];
    for (int j = 0; j < i; j++)
      if (!strcmp(f->params[j].name, p->name))
        ERR(p->pos, "duplicate parameter '%s'", p->name);
    p->ty = type_expr(X, p->annot, arena_printf(C, "parameter '%s'",
                                                p->name));
    if (f->is_kernel && p->ty->kind == TY_STRUCT)
      ERR(p->annot->pos, "struct kernel parameters are not supported yet "
                         "(structs work as locals and in @wp.func)");
    Local *l = add_local(X, p->name, p->ty, p->pos);
    l->is_param = true;
    def_set(X, X->nlocals - 1);
    /* parameters are not locals of the IR function */
    IrVar *v = l->var;
    ir_var_unlink(irf, v);
    v->is_param = true;
    v->index = i;
    v->name = arena_printf(C, "p%d_%s", i, p->name);
    *ptail = v;
    ptail = &v->next;
    irf->nparams++;
  }

  X->tail = &irf->body;
  stmts(X, f->body);

  if (!f->ret)
    f->ret = &ty_void;
  if (!f->is_kernel && f->ret->kind != TY_VOID && !X->dead)
    ERR(f->pos, "'%s' returns %s on some paths but can reach its end without "
                "returning", f->name, TN(f->ret));
  irf->ret = f->ret->kind == TY_TUPLE ? f->ret->items[0] : f->ret;
  if (f->ret->kind == TY_TUPLE) {
    irf->rets = f->ret->items;
    irf->nrets = f->ret->n;
  } else {
    irf->rets = arena_alloc(C, sizeof(Type *));
    irf->rets[0] = f->ret;
    irf->nrets = f->ret->kind == TY_VOID ? 0 : 1;
  }
  irf->tid_dims = f->tid_dims;
  irf->has_effects = stmts_have_effects(irf->body);
  f->checking = false;
  f->checked = true;

  /* Functions go in dependency order: a callee is complete (and appended)
   * before its caller finishes. */
  IrFunc ***tail = f->is_kernel ? &irm->kernels_tail : &irm->funcs_tail;
  if (!*tail)
    *tail = f->is_kernel ? &irm->kernels : &irm->funcs;
  **tail = irf;
  *tail = &irf->next;
}

/* Note [checking order]: a caller needs its callees' signatures, and a
 * callee's return type may only be known from its body, so callees are
 * checked first.  Checking a callee from inside its caller's walk (as kern
 * once did) recursed once per level of a chain of calls, and a valid
 * program with 20,000 functions in a chain overflowed the C stack (issue
 * #8, item 4).  Instead the order is found beforehand by a depth-first
 * search over the calls written in each body, with an explicit stack, and
 * the functions are checked one after another in its post-order.  A callee
 * that is still unchecked when its caller is checked is then on a cycle,
 * which user_call reports as recursion.
 *
 * calls_in collects the user functions called by name in a body.  It
 * recurses over the tree, but only as deep as the parser's limits on
 * block and expression nesting allow; lists are walked with loops. */
typedef struct CallList {
  Func **v;
  int n, cap;
} CallList;

static void calls_in(Compiler *C, Node *n, CallList *out) {
  for (; n; n = n->next) {
    if (n->kind == N_CALL && n->a && n->a->kind == N_NAME) {
      /* every overload of the name: the call may choose any of them */
      for (Func *g = names_get(&C->mod->func_names, n->a->name); g;
           g = g->overload) {
        if (out->n == out->cap) {
          int cap = out->cap ? out->cap * 2 : 8;
          Func **v = arena_alloc(C, sizeof(Func *) * (size_t)cap);
          if (out->n)
            memcpy(v, out->v, sizeof(Func *) * (size_t)out->n);
          out->v = v;
          out->cap = cap;
        }
        out->v[out->n++] = g;
      }
    }
    calls_in(C, n->a, out);
    calls_in(C, n->b, out);
    calls_in(C, n->c, out);
    calls_in(C, n->args, out);
    calls_in(C, n->kwargs, out);
    calls_in(C, n->body, out);
    calls_in(C, n->orelse, out);
  }
}

static void check_in_call_order(Compiler *C, IrModule *irm) {
  int nf = 0;
  for (Func *f = C->mod->funcs; f; f = f->next)
    for (Func *o = f; o; o = o->overload)
      nf++;
  /* Every function is on the stack at most once. */
  typedef struct Frame {
    Func *f;
    CallList calls;
    int next;
  } Frame;
  Frame *stack = arena_alloc(C, sizeof(Frame) * (size_t)(nf ? nf : 1));
  for (Func *first = C->mod->funcs; first; first = first->next)
  for (Func *root = first; root; root = root->overload) {
    if (root->checked || root->checking)
      continue;
    int sp = 0;
    stack[sp].f = root;
    stack[sp].calls = (CallList){NULL, 0, 0};
    calls_in(C, root->body, &stack[sp].calls);
    stack[sp].next = 0;
    root->checking = true; /* here: on the search's stack */
    sp++;
    while (sp > 0) {
      Frame *top = &stack[sp - 1];
      if (top->next < top->calls.n) {
        Func *g = top->calls.v[top->next++];
        if (g->checked || g->checking)
          continue;
        g->checking = true;
        stack[sp].f = g;
        stack[sp].calls = (CallList){NULL, 0, 0};
        calls_in(C, g->body, &stack[sp].calls);
        stack[sp].next = 0;
        sp++;
        continue;
      }
      sp--;
      top->f->checking = false;
      check_func(C, irm, top->f);
    }
  }
}

/* Constants are evaluated as Python evaluates them on the host (unbounded
 * integers approximated by int64, floats as doubles), then converted to the
 * type a constructor names, or int32 / float32 / bool by default. */
typedef enum { PV_INT, PV_FLOAT, PV_BOOL } PvKind;
typedef struct PyVal {
  PvKind kind;
  int64_t i;
  double f;
  const Type *ty;
} PyVal;

static double pv_num(PyVal v) { return v.kind == PV_FLOAT ? v.f : (double)v.i; }

static PyVal py_eval(Ctx *X, Node *n) {
  PyVal r = {PV_INT, 0, 0, NULL};
  switch (n->kind) {
  case N_INT: r.i = (int64_t)n->ival; return r;
  case N_FLOAT: r.kind = PV_FLOAT; r.f = n->fval; return r;
  case N_BOOL: r.kind = PV_BOOL; r.i = (int64_t)n->ival; return r;
  case N_ATTR: {
    double v;
    if (is_wp(X, n->a) && wp_builtin_constant(n->name, &v)) {
      r.kind = PV_FLOAT;
      r.f = v;
      return r;
    }
    ERR(n->pos, "'%s' is not a value kern can evaluate at compile time",
        n->name);
  }
  case N_NAME: {
    if (find_local(X, n->name))
      ERR(n->pos, "'%s' is a variable of the %s; only module-level values "
                  "can be evaluated at compile time", n->name,
          X->f->is_kernel ? "kernel" : "function");
    Sym *s = find_const(X, n->name);
    if (!s)
      ERR(n->pos, "'%s' is not a constant defined above", n->name);
    IrExpr *e = const_value(X, s, n->pos);
    if (e->ty->kind != TY_SCALAR)
      ERR(n->pos, "'%s' is a %s; arithmetic on vector and matrix constants "
                  "at compile time is not supported yet", n->name,
          TN(e->ty));
    r.ty = e->ty;
    if (sc_is_float(e->ty->sc)) { r.kind = PV_FLOAT; r.f = e->fval; }
    else if (e->ty->sc == KERN_SCALAR_BOOL) { r.kind = PV_BOOL; r.i = (int64_t)e->ival; }
    else r.i = (int64_t)e->ival;
    return r;
  }
  case N_UNOP: {
    PyVal a = py_eval(X, n->a);
    if (n->op == OP_NEG) { if (a.kind == PV_FLOAT) a.f = -a.f; else { a.i = (int64_t)(0 - (uint64_t)a.i); a.kind = PV_INT; } } /* wraps, as + - * do */
    else if (n->op == OP_INVERT) { if (a.kind == PV_FLOAT) ERR(n->pos, "~ needs an integer"); a.i = ~a.i; }
    return a;
  }
  case N_BINOP: {
    PyVal a = py_eval(X, n->a), b = py_eval(X, n->b);
    const Type *ty = a.ty ? a.ty : b.ty;
    bool fl = a.kind == PV_FLOAT || b.kind == PV_FLOAT;
    r.ty = ty;
    if (fl || n->op == OP_DIV || n->op == OP_POW) {
      double x = pv_num(a), y = pv_num(b);
      r.kind = PV_FLOAT;
      /* int / int is a Python float: not the int operand's type */
      if (r.ty && !sc_is_float(r.ty->sc))
        r.ty = NULL;
      switch (n->op) {
      case OP_ADD: r.f = x + y; return r;
      case OP_SUB: r.f = x - y; return r;
      case OP_MUL: r.f = x * y; return r;
      case OP_DIV:
        if (y == 0) ERR(n->pos, "division by zero in a constant");
        r.f = x / y; return r;
      case OP_FLOORDIV:
        if (y == 0) ERR(n->pos, "division by zero in a constant");
        r.f = floor(x / y); return r;
      case OP_MOD:
        if (y == 0) ERR(n->pos, "division by zero in a constant");
        r.f = fmod(x, y); if (r.f != 0 && ((r.f < 0) != (y < 0))) r.f += y; return r;
      case OP_POW:
        r.f = pow(x, y);
        if (!fl && y >= 0) {
          uint64_t u; /* Note [float to integer] */
          if (!float_to_u64(r.f, &u))
            ERR(n->pos, "constant %g does not fit in 64 bits", r.f);
          r.kind = PV_INT; r.i = (int64_t)u;
        }
        return r;
      default:
        ERR(n->pos, "operator %s is not defined for floats", op_text(n->op));
      }
    }
    int64_t x = a.i, y = b.i;
    switch (n->op) {
    case OP_ADD: r.i = (int64_t)((uint64_t)x + (uint64_t)y); return r;
    case OP_SUB: r.i = (int64_t)((uint64_t)x - (uint64_t)y); return r;
    case OP_MUL: r.i = (int64_t)((uint64_t)x * (uint64_t)y); return r;
    case OP_FLOORDIV: case OP_MOD: {
      if (y == 0) ERR(n->pos, "division by zero in a constant");
      /* INT64_MIN / -1 overflows (fuzzing): -x wraps, as + - * do */
      int64_t q = y == -1 ? (int64_t)(0 - (uint64_t)x) : x / y;
      int64_t m = y == -1 ? 0 : x % y;
      if (m != 0 && ((m < 0) != (y < 0))) { q--; m += y; }
      r.i = n->op == OP_FLOORDIV ? q : m;
      return r;
    }
    case OP_SHL:
      if (y < 0 || y > 63) ERR(n->pos, "shift count out of range in a constant");
      r.i = (int64_t)((uint64_t)x << y); return r;
    case OP_SHR:
      if (y < 0 || y > 63) ERR(n->pos, "shift count out of range in a constant");
      r.i = x >> y; return r;
    case OP_BITAND: r.i = x & y; return r;
    case OP_BITOR: r.i = x | y; return r;
    case OP_BITXOR: r.i = x ^ y; return r;
    default:
      ERR(n->pos, "operator %s is not supported in a constant", op_text(n->op));
    }
  }
  case N_CALL: {
    const char *w = wp_attr(X, n->a);
    const Type *t = NULL;
    bool second;
    if (w && !strcmp(w, "constant") && count_args(n->args) == 1 &&
        !n->kwargs)
      return py_eval(X, n->args);
    if (n->a->kind == N_NAME && !strcmp(n->a->name, "bool"))
      t = t_bool();
    else if (w)
      t = wp_type_named(X->C, w, &second);
    else if (n->a->kind == N_NAME && !strcmp(n->a->name, "float"))
      t = t_f32();
    else if (n->a->kind == N_NAME && !strcmp(n->a->name, "int"))
      t = t_i32();
    if (t && t->kind != TY_SCALAR)
      ERR(n->pos, "vector and matrix constants are not supported yet; use "
                  "scalar constants");
    if (!t || count_args(n->args) != 1 || n->kwargs)
      ERR(n->pos, "wp.constant() needs a value known at compile time");
    PyVal a = py_eval(X, n->args);
    a.ty = t;
    if (sc_is_float(t->sc) && a.kind != PV_FLOAT) { a.f = (double)a.i; a.kind = PV_FLOAT; }
    if (!sc_is_float(t->sc) && a.kind == PV_FLOAT) {
      uint64_t u; /* Note [float to integer] */
      if (!float_to_u64(a.f, &u))
        ERR(n->pos, "constant %g does not fit in %s", a.f, TN(t));
      a.i = (int64_t)u; a.kind = PV_INT;
    }
    return a;
  }
  default:
    ERR(n->pos, "wp.constant() needs a value known at compile time");
  }
}

/* A Python value at the type Warp gives it in a kernel: a constructor's
 * type when one was named, else int32 / float32 / bool. */
static IrExpr *pyval_ir(Ctx *X, PyVal pv, Pos pos) {
  Compiler *C = X->C;
  const Type *t = pv.ty;
  if (!t)
    t = pv.kind == PV_FLOAT ? t_f32() : pv.kind == PV_BOOL ? t_bool() : t_i32();
  if (pv.kind == PV_FLOAT && !sc_is_float(t->sc)) {
    uint64_t u; /* Note [float to integer] */
    if (!float_to_u64(pv.f, &u))
      ERR(pos, "constant %g does not fit in %s", pv.f, TN(t));
    pv.i = (int64_t)u; pv.kind = PV_INT;
  }
  IrExpr *v = sc_is_float(t->sc)
                  ? ir_const_float(C, t, t->sc == KERN_SCALAR_FLOAT32
                                             ? (double)(float)pv.f : pv.f)
                  : ir_const_int(C, t, (uint64_t)pv.i);
  if (!sc_is_float(t->sc) && sc_bits(t->sc) < 64) {
    /* wrap to the type's width, as the conversion on the host would */
    uint64_t mask = ((uint64_t)1 << sc_bits(t->sc)) - 1, u = v->ival & mask;
    if (sc_is_signed(t->sc) && ((u >> (sc_bits(t->sc) - 1)) & 1))
      u |= ~mask;
    v->ival = t->sc == KERN_SCALAR_BOOL ? (v->ival != 0) : u;
  }
  return v;
}

/* Evaluates constant s (its value node) into s->ty and s->ir. */
static void eval_const_sym(Ctx *X, Sym *s) {
  Node *vn = s->value;
  /* NAME = wp.constant(x) written as a plain module-level value */
  if (vn->kind == N_CALL && wp_attr(X, vn->a) &&
      !strcmp(wp_attr(X, vn->a), "constant") && count_args(vn->args) == 1)
    vn = vn->args;
  const char *cw = vn->kind == N_CALL ? wp_attr(X, vn->a) : NULL;
  bool second;
  const Type *ct = cw ? wp_type_named(X->C, cw, &second) : NULL;
  if (ct && ct->kind != TY_SCALAR) {
    /* vector and matrix constants: every component a literal */
    IrExpr *v = expr(X, vn);
    if (v->kind != E_MAKE)
      ERR(vn->pos, "wp.constant() needs a value known at compile time");
    for (int i = 0; i < v->nargs; i++)
      if (v->args[i]->kind != E_CONST)
        ERR(vn->pos, "the components of a vector or matrix constant must "
                     "be literals or constants");
    s->ty = v->ty;
    s->ir = v;
    return;
  }
  if (vn->kind == N_NAME) {
    /* an alias of another constant, vector or not */
    Sym *o = find_const(X, vn->name);
    if (o) {
      IrExpr *v = const_value(X, o, vn->pos);
      s->ty = v->ty;
      s->ir = v;
      return;
    }
  }
  IrExpr *v = pyval_ir(X, py_eval(X, vn), vn->pos);
  s->ty = v->ty;
  s->ir = v;
}

static void const_ctx(Ctx *X, Compiler *C, IrModule *irm, Func *dummy,
                      IrFunc *irf, IrStmt **sink) {
  memset(X, 0, sizeof *X);
  X->C = C;
  X->M = C->mod;
  X->irm = irm;
  memset(dummy, 0, sizeof *dummy);
  dummy->name = "<constant>";
  X->f = dummy;
  memset(irf, 0, sizeof *irf);
  X->irf = irf;
  *sink = NULL;
  X->tail = sink;
}

/* The first node of n that is not a compile-time value (NULL when all of
 * it is): numbers, booleans, module-level values, Warp's named constants,
 * wp.constant() and scalar, vector and matrix constructors, and arithmetic
 * on them. */
static Node *not_constant(Ctx *X, Node *n) {
  switch (n->kind) {
  case N_INT: case N_FLOAT: case N_BOOL:
    return NULL;
  case N_NAME:
    if (find_local(X, n->name) || !find_const(X, n->name))
      return n;
    return NULL;
  case N_ATTR: {
    double v;
    return is_wp(X, n->a) && wp_builtin_constant(n->name, &v) ? NULL : n;
  }
  case N_UNOP:
    return n->op == OP_NEG || n->op == OP_POS || n->op == OP_INVERT
               ? not_constant(X, n->a) : n;
  case N_BINOP: {
    Node *b = not_constant(X, n->a);
    return b ? b : not_constant(X, n->b);
  }
  case N_CALL: {
    const char *w = wp_attr(X, n->a);
    bool second;
    bool ok = (w && (!strcmp(w, "constant") ||
                     wp_type_named(X->C, w, &second))) ||
              (n->a->kind == N_NAME && (!strcmp(n->a->name, "int") ||
                                        !strcmp(n->a->name, "float") ||
                                        !strcmp(n->a->name, "bool")));
    if (!ok || n->kwargs)
      return n;
    for (Node *a = n->args; a; a = a->next) {
      Node *b = not_constant(X, a);
      if (b)
        return b;
    }
    return NULL;
  }
  default:
    return n;
  }
}

/* The value of a module-level name, evaluated the first time a kernel uses
 * it (a plain `NAME = EXPR` may be host code that is never a constant;
 * Note [module-level values]). */
static IrExpr *const_value(Ctx *X, Sym *s, Pos use) {
  if (s->ir)
    return s->ir;
  if (!s->pyglobal)
    ERR(use, "constant '%s' is used in its own definition", s->name);
  Ctx sub;
  Func dummy;
  IrFunc irf;
  IrStmt *sink;
  const_ctx(&sub, X->C, X->irm, &dummy, &irf, &sink);
  sub.const_limit = s;
  Node *bad = s->value ? not_constant(&sub, s->value) : NULL;
  if (!s->value || bad)
    ERR(use, "'%s' (line %d) is a module-level value kern cannot evaluate "
             "at compile time; kernels can use module-level numbers, "
             "booleans, wp.constant() values and arithmetic on them",
        s->name, s->pos.line);
  eval_const_sym(&sub, s);
  return s->ir;
}

/* wp.static(expr): expr evaluated when the kernel is compiled. */
static IrExpr *static_call(Ctx *X, Node *call) {
  if (count_args(call->args) != 1 || call->kwargs)
    ERR(call->pos, "wp.static() takes one expression");
  Node *a = call->args;
  Node *bad = not_constant(X, a);
  if (bad)
    ERR(bad->pos, "wp.static() needs an expression kern can evaluate at "
                  "compile time (numbers, booleans, module-level constants "
                  "and arithmetic on them)%s",
        bad->kind == N_NAME && find_local(X, bad->name)
            ? arena_printf(X->C, "; '%s' is a variable", bad->name)
            : "");
  if (a->kind == N_NAME)
    return const_value(X, find_const(X, a->name), a->pos);
  const char *w = a->kind == N_CALL ? wp_attr(X, a->a) : NULL;
  bool second;
  const Type *t = w ? wp_type_named(X->C, w, &second) : NULL;
  if (t && t->kind != TY_SCALAR)
    return expr(X, a);
  return pyval_ir(X, py_eval(X, a), a->pos);
}

/* Constants: wp.constant() values are evaluated once, in order, and folded
 * to a literal of their type; plain module-level values when first used. */
static void check_consts(Compiler *C, IrModule *irm) {
  Ctx ctx;
  Func dummy;
  IrFunc irf;
  IrStmt *sink;
  Ctx *X = &ctx;
  const_ctx(X, C, irm, &dummy, &irf, &sink);
  /* The table maps each name to its last definition; each definition
   * links the one before it, so find_const can answer "the last one above
   * this constant" in (almost always) one step. */
  int order = 0;
  for (Sym *s = C->mod->consts; s; s = s->next) {
    s->order = order++;
    s->shadowed = names_get(&C->mod->const_names, s->name);
    if (!s->pyglobal)
      for (Sym *t = s->shadowed; t; t = t->shadowed)
        if (!t->pyglobal)
          ERR(s->pos, "constant '%s' is defined twice", s->name);
    names_put(C, &C->mod->const_names, s->name, s);
  }
  for (Sym *s = C->mod->consts; s; s = s->next) {
    if (s->pyglobal)
      continue;
    X->const_limit = s;
    eval_const_sym(X, s);
  }
}

IrModule *lower_module(Compiler *C) {
  IrModule *irm = arena_alloc(C, sizeof *irm);
  irm->path = C->path;
  check_consts(C, irm);
  check_in_call_order(C, irm);
  return irm;
}

