/*
 * spec_generic.c -- the type a `kern run` SPEC gives a generic kernel's
 * typing.Any parameter, as wp.launch tells it from a Python value.
 *
 * Note [launch instantiation] in kern.c instantiates a generic kernel for
 * its arguments.  Array generators (zeros(T,N)) and plain numbers are told
 * there; this file tells the rest, each the way Warp's launch does for the
 * Python value the SPEC stands for:
 *
 *   PATH.npy           wp.array(np.load(PATH)): the file's scalar dtype and
 *                      all of its dimensions (a (N, 3) float32 file is a
 *                      2-d float32 array, not an array of vec3: NumPy's
 *                      array does not say it holds vectors, and wp.array
 *                      without a dtype does not guess);
 *   wp.vec3(1,2,3)     a value of the named type (vec3 is vec3f, as in
 *   float64(2.5)       Warp); the SPEC of a value of that type anyway;
 *   S{a=1,...}         an instance of @wp.struct S;
 *   zeros(S,N..)       an array of structs S (any generator).
 *
 * What Warp itself cannot launch is refused with a message saying what to
 * write: a tuple ('1,2,3', '(1,2,3)': "Unable to infer the type"), a
 * struct SPEC without its struct's name ({a=1}: kern run would have to
 * guess), and a .npy file of records (wp.array needs the struct as dtype).
 */
#include "spec.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "npy.h"

static int say(char *why, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, size, fmt, ap);
  va_end(ap);
  return 0;
}

/* Length of the Python name (letters, digits, '_' and '.') at s. */
static size_t name_len(const char *s) {
  size_t n = 0;
  while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.') n++;
  return n;
}

/* Copies the struct name at s (n bytes) into buf, without a module prefix
 * ("mod.S" is S: kern names a struct by its class name). */
static int struct_name(const char *s, size_t n, char *buf, size_t size) {
  const char *dot = NULL;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '.') dot = s + i;
  if (dot) {
    n -= (size_t)(dot + 1 - s);
    s = dot + 1;
  }
  if (n == 0 || n >= size || isdigit((unsigned char)s[0])) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  return 1;
}

static int npy_type(const char *path, kern_param_info *t, char *why,
                    size_t size) {
  npy_array a;
  char err[512];
  if (npy_read(path, &a, err, sizeof err) != 0) {
    snprintf(why, size, "%s", err);
    return -1;
  }
  int rc = 1;
  if (a.nfields || a.itemsize)
    rc = say(why, size, "%s holds records, which do not say which "
             "@wp.struct they are (as wp.array needs dtype=S for them)",
             path);
  else if (a.ndim < 1 || a.ndim > KERN_MAX_DIMS)
    rc = say(why, size, "%s has %d dimensions; an array has 1 to %d", path,
             a.ndim, KERN_MAX_DIMS);
  if (rc == 1) {
    t->kind = KERN_PARAM_ARRAY;
    t->type.kind = KERN_KIND_SCALAR;
    t->type.scalar = a.dtype;
    t->type.rows = t->type.cols = 1;
    t->ndim = a.ndim;
  }
  npy_free(&a);
  return rc;
}

int spec_generic_type(const char *text, kern_param_info *t, char *name,
                      size_t namesize, char *why, size_t whysize) {
  size_t tl = strlen(text);
  size_t nl = name_len(text);
  why[0] = '\0';
  if (tl >= 4 && !strcmp(text + tl - 4, ".npy"))
    return npy_type(text, t, why, whysize);

  /* S{...}: a struct value; {...} alone does not name its struct. */
  if (text[nl] == '{') {
    if (nl == 0)
      return say(why, whysize, "a struct SPEC {...} does not say which "
                 "@wp.struct it is; write S{...} with the struct's name");
    if (!struct_name(text, nl, name, namesize))
      return say(why, whysize, "'%.*s' is not a struct's name", (int)nl,
                 text);
    t->kind = KERN_PARAM_VALUE;
    memset(&t->type, 0, sizeof t->type);
    t->type.kind = KERN_KIND_STRUCT;
    t->type.scalar = KERN_SCALAR_UINT8; /* as the library describes structs */
    t->type.rows = t->type.cols = 1;
    t->struct_name = name;
    return 1;
  }

  if (text[nl] != '(' || nl == 0 || text[tl - 1] != ')')
    return say(why, whysize, "a tuple or bare components do not say the "
               "type (Warp cannot infer it either); write wp.vec3(1,2,3) "
               "or the like");
  char tn[64];
  if (nl >= sizeof tn) return say(why, whysize, "unknown type in '%s'", text);
  memcpy(tn, text, nl);
  tn[nl] = '\0';
  kern_type ty;
  static const char *const gens[] = {"zeros", "ones", "full", "arange",
                                     "rand"};
  for (int g = 0; g < 5; g++) {
    if (strcmp(tn, gens[g])) continue;
    /* A generator whose type is not a Warp type: an array of structs. */
    const char *p = text + nl + 1;
    size_t sl = name_len(p);
    if (p[sl] != ',' || !struct_name(p, sl, name, namesize))
      return say(why, whysize, "'%s' does not name its element type", text);
    int n = 0;
    for (const char *c = p + sl; *c && *c != ')'; c++)
      if (*c == ',' && strncmp(c + 1, "seed=", 5)) n++;
    if (g == 2) n--; /* full's last number is the value */
    if (n < 1 || n > KERN_MAX_DIMS)
      return say(why, whysize, "'%s' needs 1 to %d sizes", text,
                 KERN_MAX_DIMS);
    t->kind = KERN_PARAM_ARRAY;
    memset(&t->type, 0, sizeof t->type);
    t->type.kind = KERN_KIND_STRUCT;
    t->type.scalar = KERN_SCALAR_UINT8; /* as the library describes structs */
    t->type.rows = t->type.cols = 1;
    t->struct_name = name;
    t->ndim = n;
    return 1;
  }
  if (kern_type_parse(tn, &ty) != KERN_SUCCESS)
    return say(why, whysize, "unknown type '%s' in '%s'", tn, text);
  t->kind = KERN_PARAM_VALUE;
  t->type = ty;
  t->ndim = 0;
  return 1;
}
