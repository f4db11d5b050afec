/*
 * check_hostval.c -- the host Python a module-level value may be made of.
 *
 * Warp captures the value a module-level name has when a kernel is
 * compiled, and that value is computed by host Python: `DT = 0.95 * DX /
 * math.sqrt(3.0)`, `DOMAIN = 2 * np.pi`, `N = int(L / H)`.  check.c's
 * evaluator (check_py_eval) does the arithmetic; this file adds the pure
 * functions and constants of Python's `math` module, the builtins abs, min,
 * max and round, and the few numpy scalars and functions whose result is
 * exactly defined (the constructors np.float32 ... np.uint64, np.sqrt,
 * np.abs, np.floor, np.ceil, np.trunc), each evaluated as Python does:
 * doubles for floats, the C library's functions for math's (as CPython
 * calls them), a math domain or range error where Python raises one.
 *
 * Numpy scalars keep their type through arithmetic, by numpy 2's rules
 * (a Python number beside a numpy scalar takes the scalar's type), so that
 * float(np.float32(1.1)) is the float32 nearest 1.1.  Warp itself refuses
 * to capture a numpy scalar (`Invalid external reference type`), so a
 * value that is still one when a kernel uses it is an error (check.c,
 * pyval_ir).  Numpy's transcendental functions are not evaluated: their
 * results depend on numpy's own vectorised implementations.
 */
#include "check.h"

#include <math.h>
#include <string.h>

/* Which host module n names: 1 math, 2 numpy, 0 neither (a local or a
 * module-level value of the same name hides the module, as in Python). */
static int host_module(Ctx *X, Node *n) {
  if (!n || n->kind != N_NAME || check_find_local(X, n->name) ||
      check_find_const(X, n->name))
    return 0;
  if (X->M->math && !strcmp(n->name, X->M->math))
    return 1;
  if (X->M->np && !strcmp(n->name, X->M->np))
    return 2;
  return 0;
}

static const char *const math_consts[] = {"pi", "e", "tau", "inf", "nan",
                                          NULL};
static const char *const np_consts[] = {"pi", "e", "inf", "nan", NULL};

/* math's functions of one float to a float */
static const struct {
  const char *name;
  double (*fn)(double);
} math1[] = {
    {"sqrt", sqrt},   {"sin", sin},     {"cos", cos},     {"tan", tan},
    {"asin", asin},   {"acos", acos},   {"atan", atan},   {"sinh", sinh},
    {"cosh", cosh},   {"tanh", tanh},   {"asinh", asinh}, {"acosh", acosh},
    {"atanh", atanh}, {"exp", exp},     {"expm1", expm1}, {"exp2", exp2},
    {"log2", log2},   {"log10", log10}, {"log1p", log1p}, {"fabs", fabs},
    {"erf", erf},     {"erfc", erfc},   {"cbrt", cbrt},   {NULL, NULL},
};

static const struct {
  const char *name;
  double (*fn)(double, double);
} math2[] = {
    {"pow", pow},           {"atan2", atan2}, {"hypot", hypot},
    {"copysign", copysign}, {"fmod", fmod},   {NULL, NULL},
};

/* math's functions with their own rules (evaluated in host_math) */
static const char *const math_other[] = {
    "floor", "ceil", "trunc", "log", "radians", "degrees", NULL};

static const char *const np_funcs[] = {"sqrt", "abs", "absolute", "fabs",
                                       "floor", "ceil", "trunc", NULL};

static const struct {
  const char *name;
  kern_scalar sc;
} np_types[] = {
    {"float32", KERN_SCALAR_FLOAT32}, {"float64", KERN_SCALAR_FLOAT64},
    {"int8", KERN_SCALAR_INT8},       {"int16", KERN_SCALAR_INT16},
    {"int32", KERN_SCALAR_INT32},     {"int64", KERN_SCALAR_INT64},
    {"uint8", KERN_SCALAR_UINT8},     {"uint16", KERN_SCALAR_UINT16},
    {"uint32", KERN_SCALAR_UINT32},   {"uint64", KERN_SCALAR_UINT64},
    {NULL, 0},
};

static bool in_list(const char *const *list, const char *name) {
  for (int i = 0; list[i]; i++)
    if (!strcmp(list[i], name))
      return true;
  return false;
}

static int np_type_index(const char *name) {
  for (int i = 0; np_types[i].name; i++)
    if (!strcmp(np_types[i].name, name))
      return i;
  return -1;
}

/* A Python builtin the host code may call: not hidden by a local, a
 * module-level value or a @wp.func of the same name. */
static bool py_builtin(Ctx *X, Node *n, const char *name) {
  return n->kind == N_NAME && !strcmp(n->name, name) &&
         !check_find_local(X, name) && !check_find_const(X, name) &&
         !check_find_func(X, name);
}

static const char *const py_builtins[] = {"abs", "min", "max", "round", NULL};

bool check_host_known(Ctx *X, Node *n) {
  if (n->kind == N_ATTR) {
    int m = host_module(X, n->a);
    return (m == 1 && in_list(math_consts, n->name)) ||
           (m == 2 && in_list(np_consts, n->name));
  }
  if (n->kind != N_CALL || n->kwargs)
    return false;
  Node *f = n->a;
  if (f->kind == N_NAME) {
    for (int i = 0; py_builtins[i]; i++)
      if (py_builtin(X, f, py_builtins[i]))
        return true;
    return false;
  }
  if (f->kind != N_ATTR)
    return false;
  int m = host_module(X, f->a);
  if (m == 1) {
    for (int i = 0; math1[i].name; i++)
      if (!strcmp(math1[i].name, f->name))
        return true;
    for (int i = 0; math2[i].name; i++)
      if (!strcmp(math2[i].name, f->name))
        return true;
    return in_list(math_other, f->name);
  }
  return m == 2 && (in_list(np_funcs, f->name) || np_type_index(f->name) >= 0);
}

static double pv_double(PyVal v) {
  return v.kind == PV_FLOAT ? v.f : (double)v.i;
}

static PyVal pv_float(double f) {
  PyVal r = {PV_FLOAT, 0, f, NULL, false};
  return r;
}

static PyVal pv_int(int64_t i) {
  PyVal r = {PV_INT, i, 0, NULL, false};
  return r;
}

/* Wraps an integer to the width of scalar type sc, as numpy's integer
 * arithmetic does. */
static int64_t wrap_to(kern_scalar sc, int64_t v) {
  int bits = sc_bits(sc);
  if (bits >= 64)
    return v;
  uint64_t mask = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & mask;
  if (sc_is_signed(sc) && ((u >> (bits - 1)) & 1))
    u |= ~mask;
  return (int64_t)u;
}

static bool fits(kern_scalar sc, int64_t v) {
  return wrap_to(sc, v) == v && (sc_is_signed(sc) || v >= 0);
}

/* A float Python turns into an int (math.floor, round ...): it must be
 * finite, and kern holds Python's ints in 64 bits. */
static int64_t float_to_int(Ctx *X, double f, Pos pos, const char *what) {
  if (isnan(f) || isinf(f))
    ERR(pos, "%s of %g: Python cannot convert it to an integer", what, f);
  if (!(f >= -0x1p63 && f < 0x1p63))
    ERR(pos, "%s of %g does not fit in 64 bits", what, f);
  return (int64_t)f;
}

/* Python's math module raises ValueError where the C function returns NaN
 * for a number and OverflowError where it returns an infinity for finite
 * numbers. */
static double math_checked(Ctx *X, Node *n, double r, double x, double y) {
  if (isnan(r) && !isnan(x) && !isnan(y))
    ERR(n->pos, "math.%s(): math domain error (Python raises ValueError)",
        n->a->name);
  if (isinf(r) && !isinf(x) && !isinf(y))
    ERR(n->pos, "math.%s(): math range error (Python raises an error)",
        n->a->name);
  return r;
}

static PyVal host_math(Ctx *X, Node *n, PyVal *a, int na) {
  const char *name = n->a->name;
  for (int i = 0; math1[i].name; i++)
    if (!strcmp(math1[i].name, name)) {
      if (na != 1)
        ERR(n->pos, "math.%s() takes one argument", name);
      double x = pv_double(a[0]);
      return pv_float(math_checked(X, n, math1[i].fn(x), x, 0));
    }
  for (int i = 0; math2[i].name; i++)
    if (!strcmp(math2[i].name, name)) {
      if (na != 2)
        ERR(n->pos, "math.%s() takes two arguments", name);
      double x = pv_double(a[0]), y = pv_double(a[1]);
      /* math.fmod(x, inf) is x, and fmod(inf, y) a domain error, as in C */
      return pv_float(math_checked(X, n, math2[i].fn(x, y), x, y));
    }
  if (!strcmp(name, "log")) {
    if (na != 1 && na != 2)
      ERR(n->pos, "math.log() takes one or two arguments");
    double x = pv_double(a[0]);
    if (!(x > 0) && !isnan(x))
      ERR(n->pos, "math.log(): math domain error (Python raises ValueError)");
    if (na == 1)
      return pv_float(log(x));
    /* CPython divides the two logarithms */
    double b = pv_double(a[1]);
    if (!(b > 0) && !isnan(b))
      ERR(n->pos, "math.log(): math domain error (Python raises ValueError)");
    if (log(b) == 0)
      ERR(n->pos, "math.log(): division by zero (base 1)");
    return pv_float(log(x) / log(b));
  }
  if (na != 1)
    ERR(n->pos, "math.%s() takes one argument", name);
  double x = pv_double(a[0]);
  /* CPython multiplies by these two constants */
  if (!strcmp(name, "radians"))
    return pv_float(x * (3.141592653589793238462643383279502884 / 180.0));
  if (!strcmp(name, "degrees"))
    return pv_float(x * (180.0 / 3.141592653589793238462643383279502884));
  /* floor, ceil and trunc of an int are the int itself */
  if (a[0].kind != PV_FLOAT)
    return pv_int(a[0].i);
  double r = !strcmp(name, "floor") ? floor(x)
             : !strcmp(name, "ceil") ? ceil(x) : trunc(x);
  return pv_int(float_to_int(X, r, n->pos, arena_printf(X->C, "math.%s()", name)));
}

static PyVal host_builtin(Ctx *X, Node *n, PyVal *a, int na) {
  const char *name = n->a->name;
  if (!strcmp(name, "abs")) {
    if (na != 1)
      ERR(n->pos, "abs() takes one argument");
    PyVal r = a[0];
    if (r.kind == PV_FLOAT)
      r.f = fabs(r.f);
    else {
      if (r.i == INT64_MIN)
        ERR(n->pos, "abs() of %lld does not fit in 64 bits", (long long)r.i);
      r.i = r.i < 0 ? -r.i : r.i;
      if (r.kind == PV_BOOL)
        r.kind = PV_INT;
      if (r.np)
        r.i = wrap_to(r.ty->sc, r.i);
    }
    return r;
  }
  if (!strcmp(name, "round")) {
    if (na != 1)
      ERR(n->pos, "round() with ndigits is not supported in a constant");
    if (a[0].kind != PV_FLOAT)
      return pv_int(a[0].i);
    /* halves to even: the default rounding mode's rint */
    return pv_int(float_to_int(X, rint(a[0].f), n->pos, "round()"));
  }
  /* min and max: the first of the smallest / largest, compared as Python
   * compares (exactly for two ints, else as doubles) */
  if (na < 2)
    ERR(n->pos, "%s() of a constant needs at least two arguments", name);
  bool is_max = !strcmp(name, "max");
  PyVal best = a[0];
  for (int i = 1; i < na; i++) {
    bool ints = best.kind != PV_FLOAT && a[i].kind != PV_FLOAT;
    bool better = ints ? (is_max ? a[i].i > best.i : a[i].i < best.i)
                       : (is_max ? pv_double(a[i]) > pv_double(best)
                                 : pv_double(a[i]) < pv_double(best));
    if (better)
      best = a[i];
  }
  return best;
}

/* np.float32(x) ...: x converted as numpy converts it. */
static PyVal np_construct(Ctx *X, Node *n, kern_scalar sc, PyVal *a, int na) {
  if (na != 1)
    ERR(n->pos, "%s.%s() takes one argument in a constant", n->a->a->name,
        n->a->name);
  PyVal r = a[0];
  r.ty = ty_scalar(sc);
  r.np = true;
  if (sc_is_float(sc)) {
    double f = pv_double(a[0]);
    r.kind = PV_FLOAT;
    r.f = sc == KERN_SCALAR_FLOAT32 ? (double)(float)f : f;
    return r;
  }
  if (a[0].kind == PV_FLOAT) {
    r.i = float_to_int(X, trunc(a[0].f), n->pos,
                       arena_printf(X->C, "numpy.%s()", n->a->name));
  } else if (!a[0].np && !fits(sc, a[0].i)) {
    /* numpy 2 refuses a Python int out of the type's range */
    ERR(n->pos, "numpy.%s(%lld): Python integer out of bounds (numpy raises "
                "OverflowError)", n->a->name, (long long)a[0].i);
  }
  r.kind = PV_INT;
  r.i = wrap_to(sc, r.i);
  return r;
}

static PyVal host_numpy(Ctx *X, Node *n, PyVal *a, int na) {
  const char *name = n->a->name;
  int ti = np_type_index(name);
  if (ti >= 0)
    return np_construct(X, n, np_types[ti].sc, a, na);
  if (na != 1)
    ERR(n->pos, "numpy.%s() of a constant takes one argument", name);
  PyVal x = a[0];
  bool is_int = x.kind != PV_FLOAT;
  /* abs, floor, ceil and trunc keep an integer's type (numpy 2), a
   * Python int becoming an int64; sqrt and fabs give floats */
  if (is_int && strcmp(name, "sqrt") && strcmp(name, "fabs")) {
    PyVal r = x;
    r.kind = PV_INT;
    if (!r.np) {
      r.ty = ty_scalar(KERN_SCALAR_INT64);
      r.np = true;
    }
    if (!strcmp(name, "abs") || !strcmp(name, "absolute"))
      r.i = wrap_to(r.ty->sc, r.i < 0 ? (int64_t)(0 - (uint64_t)r.i) : r.i);
    return r;
  }
  /* a float32 stays float32, anything else is a float64 */
  kern_scalar sc = x.np && x.ty->sc == KERN_SCALAR_FLOAT32 && !is_int
                       ? KERN_SCALAR_FLOAT32 : KERN_SCALAR_FLOAT64;
  double v = pv_double(x);
  double r = !strcmp(name, "sqrt") ? sqrt(v)
             : !strcmp(name, "floor") ? floor(v)
             : !strcmp(name, "ceil") ? ceil(v)
             : !strcmp(name, "trunc") ? trunc(v) : fabs(v);
  PyVal out = pv_float(sc == KERN_SCALAR_FLOAT32 ? (double)(float)r : r);
  out.ty = ty_scalar(sc);
  out.np = true;
  return out;
}

bool check_host_eval(Ctx *X, Node *n, PyVal *out) {
  if (!check_host_known(X, n))
    return false;
  if (n->kind == N_ATTR) {
    const char *c = n->name;
    double v = !strcmp(c, "pi") ? 3.141592653589793238462643383279502884
               : !strcmp(c, "e") ? 2.718281828459045235360287471352662498
               : !strcmp(c, "tau") ? 6.283185307179586476925286766559005768
               : !strcmp(c, "inf") ? (double)INFINITY : (double)NAN;
    *out = pv_float(v);
    return true;
  }
  PyVal args[8];
  int na = 0;
  for (Node *a = n->args; a; a = a->next) {
    if (na == 8)
      ERR(n->pos, "too many arguments in a constant");
    args[na++] = check_py_eval(X, a);
  }
  if (n->a->kind == N_NAME)
    *out = host_builtin(X, n, args, na);
  else if (host_module(X, n->a->a) == 1)
    *out = host_math(X, n, args, na);
  else
    *out = host_numpy(X, n, args, na);
  return true;
}

/* Before a binary operation: a Python number beside a numpy float scalar
 * is first converted to the scalar's type (numpy 2's rule for "weak"
 * Python scalars), so that np.float32(1.1) + 1.1 adds two float32s. */
void check_host_numpy_operands(Ctx *X, PyVal *a, PyVal *b) {
  (void)X;
  for (int k = 0; k < 2; k++) {
    PyVal *s = k ? b : a, *p = k ? a : b;
    if (!s->np || p->np || p->ty || !sc_is_float(s->ty->sc))
      continue;
    double f = pv_double(*p);
    p->kind = PV_FLOAT;
    p->f = s->ty->sc == KERN_SCALAR_FLOAT32 ? (double)(float)f : f;
  }
}

/* The numpy type of a binary operation's result r (computed as Python
 * computes it) when an operand is a numpy scalar: numpy 2 gives a Python
 * number beside a numpy scalar the scalar's type, except that a float
 * beside a numpy integer makes a float64. */
void check_host_numpy_binop(Ctx *X, Node *n, PyVal a, PyVal b, PyVal *r) {
  if (!a.np && !b.np)
    return;
  if ((a.ty && !a.np) || (b.ty && !b.np))
    ERR(n->pos, "mixing numpy and Warp scalars in a constant is not "
                "supported");
  kern_scalar sc;
  if (a.np && b.np) {
    kern_scalar x = a.ty->sc, y = b.ty->sc;
    if (x == y)
      sc = x;
    else if (sc_is_float(x) && sc_is_float(y))
      sc = KERN_SCALAR_FLOAT64;
    else
      ERR(n->pos, "mixing numpy scalar types %s and %s in a constant is not "
                  "supported", TN(a.ty), TN(b.ty));
  } else {
    PyVal s = a.np ? a : b, p = a.np ? b : a;
    sc = s.ty->sc;
    if (!sc_is_float(sc) && p.kind == PV_FLOAT)
      sc = KERN_SCALAR_FLOAT64;
    else if (!sc_is_float(sc) && !fits(sc, p.i))
      ERR(n->pos, "Python integer %lld is out of bounds for numpy.%s (numpy "
                  "raises OverflowError)", (long long)p.i, TN(s.ty));
  }
  if (!sc_is_float(sc) && n->op == OP_DIV)
    sc = KERN_SCALAR_FLOAT64;
  if (!sc_is_float(sc) && n->op == OP_POW && pv_double(b) < 0)
    ERR(n->pos, "numpy integers to negative integer powers are not allowed");
  r->np = true;
  r->ty = ty_scalar(sc);
  if (sc_is_float(sc)) {
    double f = pv_double(*r);
    r->kind = PV_FLOAT;
    r->f = sc == KERN_SCALAR_FLOAT32 ? (double)(float)f : f;
  } else {
    r->kind = PV_INT;
    r->i = wrap_to(sc, r->i);
  }
}

const char *check_host_numpy_name(Ctx *X, PyVal v) {
  return arena_printf(X->C, "numpy.%s", TN(v.ty));
}

/* Why a call on math or numpy is not a compile-time value: appended to the
 * error that names the module-level value ("" when bad is no such call). */
const char *check_host_hint(Ctx *X, Node *bad) {
  if (bad->kind != N_CALL || bad->a->kind != N_ATTR)
    return "";
  int m = host_module(X, bad->a->a);
  if (m == 2) {
    bool in_math = false;
    for (int i = 0; math1[i].name; i++)
      in_math |= !strcmp(math1[i].name, bad->a->name);
    for (int i = 0; math2[i].name; i++)
      in_math |= !strcmp(math2[i].name, bad->a->name);
    in_math |= in_list(math_other, bad->a->name);
    return arena_printf(X->C, "; numpy.%s is not evaluated at compile time "
                              "(of numpy, only its scalar types and sqrt, "
                              "abs, fabs, floor, ceil and trunc are)%s",
                        bad->a->name,
                        in_math ? arena_printf(X->C, "; use math.%s",
                                               bad->a->name) : "");
  }
  if (m == 1)
    return arena_printf(X->C, "; math.%s is not one of the math functions "
                              "kern evaluates", bad->a->name);
  return "";
}
