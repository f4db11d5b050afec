/*
 * status.c -- status strings and the kern_type helpers.
 *
 * Status names and messages come from KERN_STATUS_MAP, the same X-macro list
 * that makes the enum, so the three can never disagree.  Type names follow
 * Warp's spelling exactly ("float32", "vec3", "vec3d", "mat33i") because
 * kernel files are Warp files: a message that says "vec3d" means the same to
 * a Warp user as it does to kern.  Types Warp has no short alias for (a
 * vector of 5, a 2x3 matrix, a vector of bool) are written the way Warp's
 * generic constructors spell them: "vector(length=5, dtype=float32)".
 */
#include <stdio.h>
#include <string.h>
#include "common.h"

static const char *const status_text[] = {
#define KERN__X(name, text) text,
    KERN_STATUS_MAP(KERN__X)
#undef KERN__X
};

static const char *const status_names[] = {
#define KERN__X(name, text) #name,
    KERN_STATUS_MAP(KERN__X)
#undef KERN__X
};

const char *kern_status_string(kern_status s) {
  if ((unsigned)s >= KERN_STATUS_COUNT) return "unknown status";
  return status_text[s];
}

const char *kern_status_name(kern_status s) {
  if ((unsigned)s >= KERN_STATUS_COUNT) return "UNKNOWN";
  return status_names[s];
}

/* One row per scalar, in kern_scalar order: size, Warp's name, and the
 * suffix Warp appends to vecN/matNN ("" for float32: wp.vec3 is float32).
 * bool has no vector alias in Warp, hence NULL. */
static const struct {
  size_t size;
  const char *name;
  const char *suffix;
} scalars[KERN_SCALAR_COUNT] = {
    [KERN_SCALAR_BOOL] = {1, "bool", NULL},
    [KERN_SCALAR_INT8] = {1, "int8", "b"},
    [KERN_SCALAR_INT16] = {2, "int16", "s"},
    [KERN_SCALAR_INT32] = {4, "int32", "i"},
    [KERN_SCALAR_INT64] = {8, "int64", "l"},
    [KERN_SCALAR_UINT8] = {1, "uint8", "ub"},
    [KERN_SCALAR_UINT16] = {2, "uint16", "us"},
    [KERN_SCALAR_UINT32] = {4, "uint32", "ui"},
    [KERN_SCALAR_UINT64] = {8, "uint64", "ul"},
    [KERN_SCALAR_FLOAT32] = {4, "float32", ""},
    [KERN_SCALAR_FLOAT64] = {8, "float64", "d"},
    [KERN_SCALAR_FLOAT16] = {2, "float16", "h"},
    [KERN_SCALAR_BFLOAT16] = {2, "bfloat16", NULL},
};

size_t kern_scalar_size(kern_scalar s) {
  if ((unsigned)s >= KERN_SCALAR_COUNT) return 0;
  return scalars[s].size;
}

const char *kern_scalar_name(kern_scalar s) {
  if ((unsigned)s >= KERN_SCALAR_COUNT) return "unknown";
  return scalars[s].name;
}

/* Bounds chosen so a value's size always fits comfortably in size_t and in
 * the launch code's argument slots: at most this many components in all,
 * as the compiler allows (TY_MAX_COMPONENTS in base.h).  Warp names
 * aliases up to 4x4 only, but its vectors and matrices have any size. */
#define KERN__MAX_COMPONENTS 4096
/* A struct of up to 1 MiB: far beyond any kernel parameter, room for an
 * array element. */
#define KERN__MAX_STRUCT_BYTES (1 << 20)

int kern__type_valid(kern_type t) {
  if ((unsigned)t.scalar >= KERN_SCALAR_COUNT) return 0;
  switch (t.kind) {
  case KERN_KIND_SCALAR:
    return t.rows == 1 && t.cols == 1;
  case KERN_KIND_VECTOR:
    return t.rows >= 1 && t.rows <= KERN__MAX_COMPONENTS && t.cols == 1;
  case KERN_KIND_MATRIX:
    return t.rows >= 1 && t.cols >= 1 && t.rows <= KERN__MAX_COMPONENTS &&
           t.cols <= KERN__MAX_COMPONENTS &&
           t.rows * t.cols <= KERN__MAX_COMPONENTS;
  case KERN_KIND_STRUCT:
    /* rows bytes aligned to cols: the size a multiple of the alignment,
     * as C lays out a struct */
    return t.scalar == KERN_SCALAR_UINT8 && t.rows >= 1 &&
           t.rows <= KERN__MAX_STRUCT_BYTES &&
           (t.cols == 1 || t.cols == 2 || t.cols == 4 || t.cols == 8) &&
           t.rows % t.cols == 0;
  }
  return 0;
}

int kern__type_equal(kern_type a, kern_type b) {
  return a.kind == b.kind && a.scalar == b.scalar && a.rows == b.rows &&
         a.cols == b.cols;
}

size_t kern_type_size(kern_type t) {
  if (!kern__type_valid(t)) return 0;
  if (t.kind == KERN_KIND_STRUCT) return (size_t)t.rows;
  return scalars[t.scalar].size * (size_t)t.rows * (size_t)t.cols;
}

char *kern_type_name(kern_type t, char *buf, size_t size) {
  if (!buf || size == 0) return buf;
  if (!kern__type_valid(t)) {
    snprintf(buf, size, "<invalid type>");
    return buf;
  }
  const char *sname = scalars[t.scalar].name;
  const char *suffix = scalars[t.scalar].suffix;
  switch (t.kind) {
  case KERN_KIND_SCALAR:
    snprintf(buf, size, "%s", sname);
    break;
  case KERN_KIND_VECTOR:
    if (suffix && t.rows >= 2 && t.rows <= 4)
      snprintf(buf, size, "vec%d%s", t.rows, suffix);
    else
      snprintf(buf, size, "vector(length=%d, dtype=%s)", t.rows, sname);
    break;
  case KERN_KIND_MATRIX:
    if (suffix && t.rows == t.cols && t.rows >= 2 && t.rows <= 4)
      snprintf(buf, size, "mat%d%d%s", t.rows, t.cols, suffix);
    else
      snprintf(buf, size, "matrix(shape=(%d, %d), dtype=%s)", t.rows, t.cols,
               sname);
    break;
  case KERN_KIND_STRUCT:
    snprintf(buf, size, "struct(size=%d, align=%d)", t.rows, t.cols);
    break;
  }
  return buf;
}

/* Finds the scalar whose vector suffix is s; "f" is Warp's explicit float32
 * spelling (wp.vec3f is wp.vec3). */
static int suffix_scalar(const char *s, kern_scalar *out) {
  if (strcmp(s, "f") == 0) {
    *out = KERN_SCALAR_FLOAT32;
    return 1;
  }
  for (int i = 0; i < KERN_SCALAR_COUNT; i++) {
    if (scalars[i].suffix && strcmp(scalars[i].suffix, s) == 0) {
      *out = (kern_scalar)i;
      return 1;
    }
  }
  return 0;
}

/* The decimal number at *p (at most 5 digits, no sign), advancing *p; -1
 * when there is none. */
static int parse_dim(const char **p) {
  int n = 0, k = 0;
  while (**p >= '0' && **p <= '9') {
    if (++k > 5) return -1;
    n = n * 10 + (*(*p)++ - '0');
  }
  return k ? n : -1;
}

/* "vector(length=N, dtype=T)" and "matrix(shape=(R, C), dtype=T)", the
 * names kern_type_name gives sizes Warp has no alias for. */
static kern_status parse_long(const char *name, kern_type *out) {
  kern_type t = {KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 1, 1};
  char sc[24];
  int r = 0, c = 1, used = 0;
  if (name[0] == 'v') {
    if (sscanf(name, "vector(length=%d, dtype=%23[a-z0-9])%n", &r, sc,
               &used) != 2)
      return KERN_ERROR_INVALID_ARGUMENT;
  } else {
    t.kind = KERN_KIND_MATRIX;
    if (sscanf(name, "matrix(shape=(%d, %d), dtype=%23[a-z0-9])%n", &r, &c,
               sc, &used) != 3)
      return KERN_ERROR_INVALID_ARGUMENT;
  }
  if (used == 0 || name[used] != '\0') return KERN_ERROR_INVALID_ARGUMENT;
  kern_type s;
  if (kern_type_parse(sc, &s) != KERN_SUCCESS || s.kind != KERN_KIND_SCALAR)
    return KERN_ERROR_INVALID_ARGUMENT;
  t.scalar = s.scalar;
  t.rows = r;
  t.cols = c;
  if (!kern__type_valid(t)) return KERN_ERROR_INVALID_ARGUMENT;
  *out = t;
  return KERN_SUCCESS;
}

kern_status kern_type_parse(const char *name, kern_type *out) {
  if (!name || !out) return KERN_ERROR_INVALID_ARGUMENT;
  if (strncmp(name, "wp.", 3) == 0) name += 3;
  kern_type t = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};

  /* Python's builtins, as Warp maps them in annotations. */
  if (strcmp(name, "int") == 0) {
    t.scalar = KERN_SCALAR_INT32;
    *out = t;
    return KERN_SUCCESS;
  }
  if (strcmp(name, "float") == 0) {
    *out = t;
    return KERN_SUCCESS;
  }
  for (int i = 0; i < KERN_SCALAR_COUNT; i++) {
    if (strcmp(name, scalars[i].name) == 0) {
      t.scalar = (kern_scalar)i;
      *out = t;
      return KERN_SUCCESS;
    }
  }
  /* vecN<suffix> with N in 2..4, Warp's aliases; and with any N, the
   * short name kern gives wp.types.vector(length=N, dtype=...) */
  if (strncmp(name, "vec", 3) == 0 && name[3] >= '1' && name[3] <= '9') {
    const char *p = name + 3;
    int n = parse_dim(&p);
    if (n < 1 || !suffix_scalar(p, &t.scalar)) return KERN_ERROR_INVALID_ARGUMENT;
    t.kind = KERN_KIND_VECTOR;
    t.rows = n;
    if (!kern__type_valid(t)) return KERN_ERROR_INVALID_ARGUMENT;
    *out = t;
    return KERN_SUCCESS;
  }
  /* matRxC<suffix>: any shape, kern's short name for
   * wp.types.matrix(shape=(R, C), dtype=...) */
  if (strncmp(name, "mat", 3) == 0 && name[3] >= '1' && name[3] <= '9' &&
      strchr(name, 'x')) {
    const char *p = name + 3;
    int r = parse_dim(&p), c = -1;
    if (*p == 'x') {
      p++;
      c = parse_dim(&p);
    }
    if (r < 1 || c < 1 || !suffix_scalar(p, &t.scalar))
      return KERN_ERROR_INVALID_ARGUMENT;
    t.kind = KERN_KIND_MATRIX;
    t.rows = r;
    t.cols = c;
    if (!kern__type_valid(t)) return KERN_ERROR_INVALID_ARGUMENT;
    *out = t;
    return KERN_SUCCESS;
  }
  /* Warp's long spellings, as kern_type_name writes them */
  if (strncmp(name, "vector(", 7) == 0 || strncmp(name, "matrix(", 7) == 0)
    return parse_long(name, out);
  /* Warp's spatial_vector[f|d|h] and spatial_matrix[f|d|h]: 6 and 6x6 */
  if (strncmp(name, "spatial_vector", 14) == 0 ||
      strncmp(name, "spatial_matrix", 14) == 0) {
    const char *suf = name + 14;
    if (*suf && strcmp(suf, "f") != 0 && strcmp(suf, "d") != 0 &&
        strcmp(suf, "h") != 0)
      return KERN_ERROR_INVALID_ARGUMENT;
    t.scalar = *suf == 'd'   ? KERN_SCALAR_FLOAT64
               : *suf == 'h' ? KERN_SCALAR_FLOAT16
                             : KERN_SCALAR_FLOAT32;
    t.kind = name[8] == 'v' ? KERN_KIND_VECTOR : KERN_KIND_MATRIX;
    t.rows = 6;
    t.cols = t.kind == KERN_KIND_MATRIX ? 6 : 1;
    *out = t;
    return KERN_SUCCESS;
  }
  /* matNN<suffix>: Warp's aliases are square, 2..4 */
  if (strncmp(name, "mat", 3) == 0 && name[3] >= '2' && name[3] <= '4' &&
      name[4] == name[3]) {
    if (!suffix_scalar(name + 5, &t.scalar)) return KERN_ERROR_INVALID_ARGUMENT;
    t.kind = KERN_KIND_MATRIX;
    t.rows = t.cols = name[3] - '0';
    *out = t;
    return KERN_SUCCESS;
  }
  return KERN_ERROR_INVALID_ARGUMENT;
}
