/*
 * npycmp.c -- compare two .npy files with a tolerance.
 *
 *   npycmp EXPECTED.npy ACTUAL.npy [--rtol R] [--atol A] [--signed-zeros]
 *
 * Tests compare kernel outputs with reference files made by NumPy or Warp,
 * so this must not depend on the kern library it checks: it links only
 * src/cli/npy.c.  Integers and bools compare exactly; floats pass when
 * |actual - expected| <= atol + rtol * |expected| (numpy.isclose's rule),
 * with NaN equal to NaN and an infinity equal only to the same infinity.
 * --signed-zeros also fails an actual zero whose sign differs from an
 * expected zero's (0.0 against -0.0).
 *
 * Exit status: 0 equal, 1 different (dtype, shape or values; the first few
 * differences and the largest errors are printed), 2 bad usage or a file
 * that cannot be read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

#define MAX_SHOWN 10

/* --signed-zeros: set once by main before any comparison. */
static int signed_zeros;

static double load_float(const npy_array *a, size_t i) {
  if (a->dtype == KERN_SCALAR_FLOAT16 || a->dtype == KERN_SCALAR_BFLOAT16) {
    uint16_t h;
    memcpy(&h, (const char *)a->data + i * 2, 2);
    return a->dtype == KERN_SCALAR_FLOAT16 ? kern_float16_to_float(h)
                                           : kern_bfloat16_to_float(h);
  }
  if (a->dtype == KERN_SCALAR_FLOAT32) {
    float f;
    memcpy(&f, (const char *)a->data + i * 4, 4);
    return f;
  }
  double d;
  memcpy(&d, (const char *)a->data + i * 8, 8);
  return d;
}

/* Writes the multi-index of flat index i, "[2, 0]", into buf. */
static void format_index(const npy_array *a, size_t i, char *buf,
                         size_t size) {
  size_t idx[NPY_MAX_DIMS];
  for (int d = a->ndim - 1; d >= 0; d--) {
    size_t n = (size_t)a->shape[d];
    idx[d] = n ? i % n : 0;
    i = n ? i / n : 0;
  }
  size_t k = (size_t)snprintf(buf, size, "[");
  for (int d = 0; d < a->ndim && k < size; d++)
    k += (size_t)snprintf(buf + k, size - k, "%s%zu", d ? ", " : "", idx[d]);
  if (k < size) snprintf(buf + k, size - k, "]");
}

static void format_shape(const npy_array *a, char *buf, size_t size) {
  size_t k = (size_t)snprintf(buf, size, "(");
  for (int d = 0; d < a->ndim && k < size; d++)
    k += (size_t)snprintf(buf + k, size - k, "%s%lld", d ? ", " : "",
                          (long long)a->shape[d]);
  if (k < size) snprintf(buf + k, size - k, "%s)", a->ndim == 1 ? "," : "");
}

static int parse_tol(const char *s, double *out) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end != '\0' || !(v >= 0) || isinf(v)) return 0;
  *out = v;
  return 1;
}

static int usage(const char *msg) {
  fprintf(stderr,
          "npycmp: error: %s\n"
          "Usage: npycmp EXPECTED.npy ACTUAL.npy [--rtol R] [--atol A] "
          "[--signed-zeros]\n"
          "Defaults: float32 rtol=1e-5 atol=1e-6; float64 rtol=1e-12 "
          "atol=1e-14; float16 and bfloat16 exact.\n"
          "Exit status: 0 equal, 1 different, 2 usage or read error.\n",
          msg);
  return 2;
}

/* Integers of any width as a common signed/unsigned 64-bit pair, for exact
 * comparison and printing. */
static void load_int(const npy_array *a, size_t i, long long *s,
                     unsigned long long *u) {
  const unsigned char *p = (const unsigned char *)a->data +
                           i * npy_scalar_size(a->dtype);
  *s = 0;
  *u = 0;
  switch (a->dtype) {
  case KERN_SCALAR_BOOL: *u = p[0] != 0; *s = (long long)*u; break;
  case KERN_SCALAR_INT8: { int8_t x; memcpy(&x, p, 1); *s = x; break; }
  case KERN_SCALAR_INT16: { int16_t x; memcpy(&x, p, 2); *s = x; break; }
  case KERN_SCALAR_INT32: { int32_t x; memcpy(&x, p, 4); *s = x; break; }
  case KERN_SCALAR_INT64: { int64_t x; memcpy(&x, p, 8); *s = x; break; }
  case KERN_SCALAR_UINT8: *u = p[0]; break;
  case KERN_SCALAR_UINT16: { uint16_t x; memcpy(&x, p, 2); *u = x; break; }
  case KERN_SCALAR_UINT32: { uint32_t x; memcpy(&x, p, 4); *u = x; break; }
  case KERN_SCALAR_UINT64: { uint64_t x; memcpy(&x, p, 8); *u = x; break; }
  default: break;
  }
}

/* Compares two plain arrays; field names the record field they were taken
 * from ("" for a plain file), for the messages. */
static int compare(const npy_array *e, const npy_array *g, double rtol,
                   double atol, const char *field) {
  int rc = 0;
  char es[256], gs[256];
  if (e->dtype != g->dtype) {
    printf("dtype differs: expected %s, actual %s\n",
           npy_dtype_name(e->dtype), npy_dtype_name(g->dtype));
    rc = 1;
  }
  int same_shape = e->ndim == g->ndim;
  for (int d = 0; same_shape && d < e->ndim; d++)
    same_shape = e->shape[d] == g->shape[d];
  if (!same_shape) {
    format_shape(e, es, sizeof es);
    format_shape(g, gs, sizeof gs);
    printf("shape differs: expected %s, actual %s\n", es, gs);
    rc = 1;
  }
  if (rc) return rc;

  /* 16-bit floats are compared exactly (any NaN equals any NaN): kern
   * rounds as Warp does, so every bit must agree. */
  int lowp = e->dtype == KERN_SCALAR_FLOAT16 || e->dtype == KERN_SCALAR_BFLOAT16;
  int is_float = e->dtype == KERN_SCALAR_FLOAT32 || e->dtype == KERN_SCALAR_FLOAT64 || lowp;
  if (rtol < 0) rtol = lowp ? 0 : e->dtype == KERN_SCALAR_FLOAT32 ? 1e-5 : 1e-12;
  if (atol < 0) atol = lowp ? 0 : e->dtype == KERN_SCALAR_FLOAT32 ? 1e-6 : 1e-14;

  size_t bad = 0, worst_abs_at = 0, worst_rel_at = 0;
  double worst_abs = 0, worst_rel = 0;
  char idx[128];
  for (size_t i = 0; i < e->count; i++) {
    if (is_float) {
      double x = load_float(e, i), y = load_float(g, i);
      int ok;
      if (isnan(x) || isnan(y)) ok = isnan(x) && isnan(y);
      else if (isinf(x) || isinf(y)) ok = x == y;
      else ok = fabs(y - x) <= atol + rtol * fabs(x);
      if (ok && signed_zeros && x == 0 && y == 0 && signbit(x) != signbit(y))
        ok = 0;
      if (!isnan(x) && !isnan(y) && !isinf(x) && !isinf(y)) {
        double ad = fabs(y - x);
        double rd = x != 0 ? ad / fabs(x) : (ad != 0 ? INFINITY : 0);
        if (ad > worst_abs) worst_abs = ad, worst_abs_at = i;
        if (rd > worst_rel) worst_rel = rd, worst_rel_at = i;
      }
      if (!ok) {
        if (bad < MAX_SHOWN) {
          format_index(e, i, idx, sizeof idx);
          printf("mismatch at %s%s: expected %.17g, actual %.17g\n", field, idx, x,
                 y);
        }
        bad++;
      }
    } else {
      long long xs, ys;
      unsigned long long xu, yu;
      load_int(e, i, &xs, &xu);
      load_int(g, i, &ys, &yu);
      if (xs != ys || xu != yu) {
        if (bad < MAX_SHOWN) {
          format_index(e, i, idx, sizeof idx);
          if (e->dtype == KERN_SCALAR_BOOL)
            printf("mismatch at %s%s: expected %s, actual %s\n", field, idx,
                   xu ? "True" : "False", yu ? "True" : "False");
          else if (e->dtype >= KERN_SCALAR_UINT8 && e->dtype <= KERN_SCALAR_UINT64)
            printf("mismatch at %s%s: expected %llu, actual %llu\n", field, idx, xu,
                   yu);
          else
            printf("mismatch at %s%s: expected %lld, actual %lld\n", field, idx, xs,
                   ys);
        }
        bad++;
      }
    }
  }
  if (bad) {
    if (bad > MAX_SHOWN) printf("... and %zu more\n", bad - MAX_SHOWN);
    printf("%zu of %zu elements differ (%s", bad, e->count,
           npy_dtype_name(e->dtype));
    if (is_float) {
      printf(", rtol=%g atol=%g)\n", rtol, atol);
      format_index(e, worst_abs_at, es, sizeof es);
      format_index(e, worst_rel_at, gs, sizeof gs);
      printf("max abs error %.6g at %s; max rel error %.6g at %s\n",
             worst_abs, es, worst_rel, gs);
    } else {
      printf(", compared exactly)\n");
    }
    rc = 1;
  }

  return rc;
}

/* A record field as a plain array: the field's scalars of every record,
 * the field's components as a trailing axis. */
static int field_array(const npy_array *a, const npy_field *f, npy_array *out) {
  memset(out, 0, sizeof *out);
  size_t ss = npy_scalar_size(f->dtype);
  out->dtype = f->dtype;
  out->ndim = a->ndim;
  for (int d = 0; d < a->ndim; d++) out->shape[d] = a->shape[d];
  if (f->count > 1) out->shape[out->ndim++] = f->count;
  out->count = a->count * (size_t)f->count;
  out->nbytes = out->count * ss;
  out->data = malloc(out->nbytes ? out->nbytes : 1);
  if (!out->data) return -1;
  for (size_t r = 0; r < a->count; r++)
    memcpy((char *)out->data + r * (size_t)f->count * ss,
           (const char *)a->data + r * a->itemsize + f->offset,
           (size_t)f->count * ss);
  return 0;
}

/* Records (an array of Warp structs): the same fields at the same offsets,
 * then each field compared as a plain array with its own type's rule. */
static int compare_records(const npy_array *e, const npy_array *g,
                           double rtol, double atol) {
  int same = e->itemsize == g->itemsize && e->nfields == g->nfields &&
             e->ndim == g->ndim;
  for (int d = 0; same && d < e->ndim; d++) same = e->shape[d] == g->shape[d];
  for (int i = 0; same && i < e->nfields; i++)
    same = !strcmp(e->fields[i].name, g->fields[i].name) &&
           e->fields[i].offset == g->fields[i].offset &&
           e->fields[i].dtype == g->fields[i].dtype &&
           e->fields[i].count == g->fields[i].count;
  if (!same) {
    printf("record layouts or shapes differ (itemsize %zu and %zu, %d and "
           "%d fields)\n", e->itemsize, g->itemsize, e->nfields, g->nfields);
    return 1;
  }
  int rc = 0;
  for (int i = 0; i < e->nfields; i++) {
    npy_array ef, gf;
    if (field_array(e, &e->fields[i], &ef) || field_array(g, &g->fields[i], &gf)) {
      fprintf(stderr, "npycmp: error: out of memory\n");
      exit(2);
    }
    char label[128];
    snprintf(label, sizeof label, "field '%s' ", e->fields[i].name);
    rc |= compare(&ef, &gf, rtol, atol, label);
    npy_free(&ef);
    npy_free(&gf);
  }
  return rc;
}

int main(int argc, char **argv) {
  const char *paths[2] = {NULL, NULL};
  int npaths = 0;
  double rtol = -1, atol = -1;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("Usage: npycmp EXPECTED.npy ACTUAL.npy [--rtol R] [--atol A] "
             "[--signed-zeros]\n"
             "Compares dtype, shape and values; floats pass when\n"
             "|actual - expected| <= atol + rtol * |expected|, NaN == NaN;\n"
             "with --signed-zeros, 0.0 and -0.0 differ.\n"
             "Defaults: float32 rtol=1e-5 atol=1e-6; float64 rtol=1e-12 "
             "atol=1e-14; float16 and bfloat16 exact.\n"
             "Exit status: 0 equal, 1 different, 2 usage or read error.\n");
      return 0;
    }
    if (!strcmp(a, "--rtol") || !strcmp(a, "--atol")) {
      if (i + 1 >= argc) return usage("option needs a value");
      if (!parse_tol(argv[++i], a[2] == 'r' ? &rtol : &atol))
        return usage("tolerance must be a non-negative number");
      continue;
    }
    if (!strncmp(a, "--rtol=", 7) || !strncmp(a, "--atol=", 7)) {
      if (!parse_tol(a + 7, a[2] == 'r' ? &rtol : &atol))
        return usage("tolerance must be a non-negative number");
      continue;
    }
    if (!strcmp(a, "--signed-zeros")) {
      signed_zeros = 1;
      continue;
    }
    if (a[0] == '-' && a[1]) return usage("unknown option");
    if (npaths == 2) return usage("too many files");
    paths[npaths++] = a;
  }
  if (npaths != 2) return usage("need EXPECTED.npy and ACTUAL.npy");

  npy_array e, g;
  char err[512];
  if (npy_read(paths[0], &e, err, sizeof err) != 0) {
    fprintf(stderr, "npycmp: error: %s\n", err);
    return 2;
  }
  if (npy_read(paths[1], &g, err, sizeof err) != 0) {
    fprintf(stderr, "npycmp: error: %s\n", err);
    npy_free(&e);
    return 2;
  }

  int rc;
  if (e.itemsize || g.itemsize) {
    if (!e.itemsize || !g.itemsize) {
      printf("dtype differs: one file holds records, the other %s\n",
             npy_dtype_name(e.itemsize ? g.dtype : e.dtype));
      rc = 1;
    } else {
      rc = compare_records(&e, &g, rtol, atol);
    }
  } else {
    rc = compare(&e, &g, rtol, atol, "");
  }

  npy_free(&e);
  npy_free(&g);
  return rc;
}
