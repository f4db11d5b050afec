/*
 * spec.c -- SPEC arguments of `kern run` and NumPy-style printing.
 *
 * The SPEC grammar is small and exact because scripts and the test suite
 * depend on it (the help text of `kern run` shows the same forms):
 *
 *   value  -> [ [ 'wp.' ] type ] '(' comps ')' | comps
 *   comps  -> scalar { ',' scalar }         one per component, row-major
 *   scalar -> integer | float | 'true' | 'false'
 *   array  -> gen '(' type { ',' int } [ ',' extra ] ')' | path
 *   gen    -> 'zeros' | 'ones' | 'full' | 'arange' | 'rand'
 *   extra  -> scalar (full's fill value) | 'seed=' int (rand's seed)
 *
 * Every literal is checked against the parameter's type before anything is
 * allocated on a device: an integer parameter refuses 2.5, a value outside
 * the type's range is an error rather than a silent wrap, and an array's
 * element type and number of dimensions must equal the parameter's.  The
 * literal rules follow Python where it matters (no octal from a leading 0).
 * A value may be spelled as in a Warp program, wp.vec3(0,-9.8,0) or as a
 * tuple (0,-9.8,0), so a line copied from Python works; the type named
 * there must then be the parameter's type.
 *
 * rand() must give the same numbers on every machine so that results can be
 * checked against files made elsewhere; it is SplitMix64, defined bit for
 * bit in Note [rand], not the C library's rand().
 */
#include "spec.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"
#include "suggest.h"

/* ---------------------------------------------------------------- scalars */

static int is_lowp_scalar(kern_scalar s) {
  return s == KERN_SCALAR_FLOAT16 || s == KERN_SCALAR_BFLOAT16;
}

static int is_int_scalar(kern_scalar s) {
  return s != KERN_SCALAR_BOOL && s != KERN_SCALAR_FLOAT32 &&
         s != KERN_SCALAR_FLOAT64 && !is_lowp_scalar(s);
}

static int is_signed_scalar(kern_scalar s) {
  return s == KERN_SCALAR_INT8 || s == KERN_SCALAR_INT16 || s == KERN_SCALAR_INT32 ||
         s == KERN_SCALAR_INT64;
}

static void put_float(kern_scalar s, void *p, double v) {
  if (is_lowp_scalar(s)) {
    /* through float32, as the kernel's own conversions round (a value
     * beyond float32 is infinite in 16 bits anyway) */
    float f = isfinite(v) && fabs(v) > 3.4e38 ? (float)(v > 0 ? INFINITY : -INFINITY)
                                              : (float)v;
    uint16_t x = s == KERN_SCALAR_FLOAT16 ? kern_float16_from_float(f)
                                          : kern_bfloat16_from_float(f);
    memcpy(p, &x, 2);
  } else if (s == KERN_SCALAR_FLOAT32) {
    float x = (float)v;
    memcpy(p, &x, 4);
  } else {
    memcpy(p, &v, 8);
  }
}

/* Stores v as a scalar of type s.  Integers keep the low bytes (two's
 * complement wrap, as NumPy's astype does for arange on narrow types). */
static void put_int(kern_scalar s, void *p, uint64_t v) {
  if (s == KERN_SCALAR_FLOAT32 || s == KERN_SCALAR_FLOAT64 || is_lowp_scalar(s)) {
    put_float(s, p, (double)v);
    return;
  }
  if (s == KERN_SCALAR_BOOL) v = v != 0;
  switch (npy_scalar_size(s)) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}

/* A value read back for printing or comparing. */
typedef struct scalar_val {
  int64_t i;
  uint64_t u;
  double f;
} scalar_val;

static scalar_val get_scalar(kern_scalar s, const void *p) {
  scalar_val v = {0, 0, 0.0};
  switch (s) {
  case KERN_SCALAR_BOOL: { uint8_t x; memcpy(&x, p, 1); v.i = x != 0; break; }
  case KERN_SCALAR_INT8: { int8_t x; memcpy(&x, p, 1); v.i = x; break; }
  case KERN_SCALAR_INT16: { int16_t x; memcpy(&x, p, 2); v.i = x; break; }
  case KERN_SCALAR_INT32: { int32_t x; memcpy(&x, p, 4); v.i = x; break; }
  case KERN_SCALAR_INT64: { int64_t x; memcpy(&x, p, 8); v.i = x; break; }
  case KERN_SCALAR_UINT8: { uint8_t x; memcpy(&x, p, 1); v.u = x; break; }
  case KERN_SCALAR_UINT16: { uint16_t x; memcpy(&x, p, 2); v.u = x; break; }
  case KERN_SCALAR_UINT32: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
  case KERN_SCALAR_UINT64: { uint64_t x; memcpy(&x, p, 8); v.u = x; break; }
  case KERN_SCALAR_FLOAT32: { float x; memcpy(&x, p, 4); v.f = x; break; }
  case KERN_SCALAR_FLOAT64: { double x; memcpy(&x, p, 8); v.f = x; break; }
  case KERN_SCALAR_FLOAT16: { uint16_t x; memcpy(&x, p, 2); v.f = kern_float16_to_float(x); break; }
  case KERN_SCALAR_BFLOAT16: { uint16_t x; memcpy(&x, p, 2); v.f = kern_bfloat16_to_float(x); break; }
  default: break;
  }
  return v;
}

static int looks_like_float(const char *t) {
  if (t[0] == '+' || t[0] == '-') t++;
  if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
    return strchr(t, '.') || strchr(t, 'p');
  return strpbrk(t, ".eE") != NULL || strncmp(t, "inf", 3) == 0 ||
         strncmp(t, "nan", 3) == 0;
}

/* integer -> [+-] ( digits | 0x hex | 0o oct | 0b bin )
 * Writes the magnitude and sign; returns 0 on bad syntax or if the
 * magnitude exceeds 64 bits (*overflow set). */
static int parse_integer(const char *t, uint64_t *mag, int *neg,
                         int *overflow) {
  int base = 10;
  *neg = 0;
  *overflow = 0;
  if (*t == '+' || *t == '-') *neg = *t++ == '-';
  if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) base = 16, t += 2;
  else if (t[0] == '0' && (t[1] == 'o' || t[1] == 'O')) base = 8, t += 2;
  else if (t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) base = 2, t += 2;
  if (!*t) return 0;
  uint64_t v = 0;
  for (; *t; t++) {
    int d;
    if (isdigit((unsigned char)*t)) d = *t - '0';
    else if (isalpha((unsigned char)*t))
      d = tolower((unsigned char)*t) - 'a' + 10;
    else return 0;
    if (d >= base) return 0;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
      *overflow = 1;
      return 0;
    }
    v = v * (uint64_t)base + (uint64_t)d;
  }
  *mag = v;
  return 1;
}

/* Parses one scalar literal t as type s into out (npy_scalar_size(s)
 * bytes).  On failure writes the reason, which quotes t, into why. */
static int parse_scalar(kern_scalar s, const char *t, void *out, char *why,
                        size_t whysize) {
  const char *sname = npy_dtype_name(s);
  if (*t == '\0') {
    snprintf(why, whysize, "empty value (a %s is needed)", sname);
    return 0;
  }
  if (s == KERN_SCALAR_BOOL) {
    if (!strcmp(t, "true") || !strcmp(t, "True") || !strcmp(t, "1")) {
      put_int(s, out, 1);
    } else if (!strcmp(t, "false") || !strcmp(t, "False") ||
               !strcmp(t, "0")) {
      put_int(s, out, 0);
    } else {
      snprintf(why, whysize, "'%s' is not a bool (use true or false)", t);
      return 0;
    }
    return 1;
  }
  if (is_int_scalar(s)) {
    uint64_t mag;
    int neg, overflow;
    if (!parse_integer(t, &mag, &neg, &overflow)) {
      if (overflow)
        snprintf(why, whysize, "%s is out of range for %s", t, sname);
      else if (looks_like_float(t))
        snprintf(why, whysize, "'%s' is not an integer (the type is %s)", t,
                 sname);
      else
        snprintf(why, whysize, "'%s' is not a number", t);
      return 0;
    }
    int bits = (int)npy_scalar_size(s) * 8;
    if (is_signed_scalar(s)) {
      uint64_t lim = UINT64_C(1) << (bits - 1); /* |min|; max is lim-1 */
      if ((neg && mag > lim) || (!neg && mag > lim - 1)) {
        snprintf(why, whysize,
                 "%s is out of range for %s [%" PRId64 ", %" PRIu64 "]", t,
                 sname, bits == 64 ? INT64_MIN : -(int64_t)lim, lim - 1);
        return 0;
      }
      put_int(s, out, neg ? (uint64_t)0 - mag : mag);
    } else {
      uint64_t max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
      if ((neg && mag != 0) || mag > max) {
        snprintf(why, whysize, "%s is out of range for %s [0, %" PRIu64 "]",
                 t, sname, max);
        return 0;
      }
      put_int(s, out, mag);
    }
    return 1;
  }
  /* Floating point.  strtod would skip leading blanks; SPEC has none. */
  char *end;
  if (isspace((unsigned char)*t)) {
    snprintf(why, whysize, "'%s' is not a number", t);
    return 0;
  }
  errno = 0;
  double v = strtod(t, &end);
  if (end == t || *end != '\0') {
    snprintf(why, whysize, "'%s' is not a number", t);
    return 0;
  }
  /* ERANGE also reports underflow, which rounds to zero or a denormal
   * like NumPy does; only overflow is an error. */
  if ((errno == ERANGE && fabs(v) == HUGE_VAL) ||
      (s == KERN_SCALAR_FLOAT32 && isfinite(v) && isinf((float)v))) {
    snprintf(why, whysize, "%s is out of range for %s", t, sname);
    return 0;
  }
  put_float(s, out, v);
  return 1;
}

/* ---------------------------------------------------------------- messages */

char *spec_describe(const kern_param_info *p, char *buf, size_t size) {
  char tname[64];
  kern_type_name(p->type, tname, sizeof tname);
  if (p->kind == KERN_PARAM_INDEXED) {
    snprintf(buf, size, "%d-d indexed array of %s", p->ndim, tname);
  } else if (p->kind == KERN_PARAM_ARRAY) {
    if (p->ndim == 1)
      snprintf(buf, size, "array of %s", tname);
    else
      snprintf(buf, size, "%d-d array of %s", p->ndim, tname);
  } else {
    snprintf(buf, size, "%s", tname);
  }
  return buf;
}

static int fail_param(char *err, size_t errsize, const kern_param_info *p,
                      const char *fmt, ...) {
  char desc[96];
  va_list ap;
  int n = snprintf(err, errsize, "parameter '%s' (%s): ", p->name,
                   spec_describe(p, desc, sizeof desc));
  if (n < 0) n = 0;
  if ((size_t)n < errsize) {
    va_start(ap, fmt);
    vsnprintf(err + n, errsize - n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static int type_equal(kern_type a, kern_type b) {
  return a.kind == b.kind && a.scalar == b.scalar && a.rows == b.rows &&
         a.cols == b.cols;
}

static int components(kern_type t) {
  return t.kind == KERN_KIND_SCALAR ? 1
         : t.kind == KERN_KIND_VECTOR ? t.rows
                                      : t.rows * t.cols;
}

/* ---------------------------------------------------------------- values */

static char *trim(char *s);

/* Every type name kern_type_parse accepts in its short form ("vec3d"),
 * for "did you mean".  Built from the library's own names so the list can
 * never disagree with the parser. */
static size_t type_names(const char **names, char (*buf)[24], size_t max) {
  size_t n = 0;
  for (int sc = 0; sc < KERN_SCALAR_COUNT; sc++) {
    for (int kind = 0; kind < 3; kind++) {
      for (int r = kind == 0 ? 1 : 2; r <= (kind == 0 ? 1 : 4); r++) {
        kern_type t = {kind == 0   ? KERN_KIND_SCALAR
                       : kind == 1 ? KERN_KIND_VECTOR
                                   : KERN_KIND_MATRIX,
                       (kern_scalar)sc, r, kind == 2 ? r : 1};
        if (n == max) return n;
        kern_type_name(t, buf[n], sizeof buf[n]);
        if (strchr(buf[n], '(')) continue; /* no short name */
        names[n] = buf[n];
        n++;
      }
    }
  }
  return n;
}

/* "; did you mean 'float32'?" for a mistyped type name, else "". */
static const char *type_hint(const char *name, char *hint, size_t size) {
  const char *names[128];
  char buf[128][24];
  if (strncmp(name, "wp.", 3) == 0) name += 3;
  size_t n = type_names(names, buf, 128);
  const char *best = suggest_best(name, strlen(name), names, n);
  hint[0] = '\0';
  if (best) snprintf(hint, size, "; did you mean '%s'?", best);
  return hint;
}

/* Removes Warp's spellings around the components: "(c0,c1)" and
 * "wp.vec2(c0,c1)" give "c0,c1" in buf.  Returns 0, or -1 with a message. */
static int unwrap_value(const kern_param_info *p, const char *text,
                        char *buf, size_t size, char *err, size_t errsize) {
  size_t tl = strlen(text);
  const char *open = strchr(text, '(');
  if (!open) {
    if (strchr(text, ')'))
      return fail_param(err, errsize, p, "unbalanced parentheses in '%s'",
                        text);
    snprintf(buf, size, "%s", text);
    return 0;
  }
  if (text[tl - 1] != ')' || strchr(open + 1, '(') ||
      strchr(open + 1, ')') != text + tl - 1)
    return fail_param(err, errsize, p, "unbalanced parentheses in '%s'",
                      text);
  if (open > text) {
    char tname[64], want[64], hint[96];
    kern_type t;
    size_t nl = (size_t)(open - text);
    if (nl >= sizeof tname)
      return fail_param(err, errsize, p, "unknown type in '%s'", text);
    memcpy(tname, text, nl);
    tname[nl] = '\0';
    if (kern_type_parse(tname, &t) != KERN_SUCCESS)
      return fail_param(err, errsize, p, "unknown type '%s' in '%s'%s",
                        tname, text, type_hint(tname, hint, sizeof hint));
    if (!type_equal(t, p->type))
      return fail_param(err, errsize, p, "'%s' is a %s, not a %s", text,
                        kern_type_name(t, tname, sizeof tname),
                        kern_type_name(p->type, want, sizeof want));
  }
  size_t il = tl - (size_t)(open - text) - 2;
  if (il >= size)
    return fail_param(err, errsize, p, "SPEC '%.40s...' is too long", text);
  memcpy(buf, open + 1, il);
  buf[il] = '\0';
  return 0;
}

/* Note [float16 launch arguments]: Warp converts a float16 kernel
 * argument on the host with its own routine (warp.cpp,
 * wp_float_to_half_bits), which rounds ties away from zero (2049.0 becomes
 * 2050, 2**-25 the smallest subnormal), where kernels and NumPy round ties
 * to even.  kern run reproduces a Warp launch, so a float16 value
 * parameter is rounded Warp's way: the low 12 bits of the float32 are
 * dropped, the exponent rebased by a multiplication (which rounds a
 * subnormal result to nearest even, in float32), and half a unit of the
 * result's last place added before the bits are cut. */
static uint16_t warp_host_half(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = u & 0x80000000u;
  u ^= sign;
  uint16_t h;
  if (u >= 0x7f800000u) {
    h = u > 0x7f800000u ? 0x7e00 : 0x7c00;
  } else {
    u &= ~0xfffu;
    float x, magic;
    uint32_t m = 15u << 23;
    memcpy(&x, &u, 4);
    memcpy(&magic, &m, 4);
    x *= magic;
    memcpy(&u, &x, 4);
    u += 0x1000u;
    if (u > 31u << 23) u = 31u << 23;
    h = (uint16_t)(u >> 13);
  }
  return (uint16_t)(h | (sign >> 16));
}

int spec_parse_value(const kern_param_info *p, const char *spec, void *out,
                     char *err, size_t errsize) {
  int want = components(p->type);
  size_t ssize = npy_scalar_size(p->type.scalar);
  char why[200], tok[128], text[1024];
  int n = 0;

  if (unwrap_value(p, spec, text, sizeof text, err, errsize) != 0) return -1;
  const char *s = text;

  if (want > 1) {
    /* Count first so a wrong count is reported as such, not as whichever
     * component happens to be missing. */
    int got = 1;
    for (const char *c = text; *c; c++) got += *c == ',';
    if (got != want)
      return fail_param(err, errsize, p,
                        "needs %d comma-separated components (row-major), "
                        "got %d in '%s'", want, got, spec);
  } else if (strchr(text, ',')) {
    return fail_param(err, errsize, p, "'%s' is not a single number", spec);
  }
  for (;;) {
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len >= sizeof tok) len = sizeof tok - 1;
    memcpy(tok, s, len);
    tok[len] = '\0';
    /* Spaces after commas come with values copied from Python. */
    if (!parse_scalar(p->type.scalar, trim(tok), (char *)out + (size_t)n * ssize,
                      why, sizeof why))
      return fail_param(err, errsize, p, "%s", why);
    if (p->type.scalar == KERN_SCALAR_FLOAT16) {
      /* parsed (and checked) above; rounded again Warp's way */
      double d = strtod(trim(tok), NULL);
      float f = isfinite(d) && fabs(d) > FLT_MAX ? (float)(d > 0 ? INFINITY : -INFINITY)
                                                 : (float)d;
      uint16_t h = warp_host_half(f);
      memcpy((char *)out + (size_t)n * ssize, &h, 2);
    }
    n++;
    if (!e) break;
    s = e + 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- arrays */

void spec_array_free(spec_array *a) {
  if (!a) return;
  free(a->data);
  memset(a, 0, sizeof *a);
}

/* Note [rand]
 * SplitMix64 (Steele, Lea and Flood 2014), exactly as the help text and the
 * test suite define it: state starts at the seed, each draw adds the golden
 * gamma and mixes.  Floats take the top 53 bits as a double in [0, 1) and
 * then round to the element type; integers take the draw modulo 100 so the
 * values fit every integer type; bools take the lowest bit.  Components are
 * drawn in row-major order over the whole buffer. */
static uint64_t splitmix_next(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

enum { GEN_ZEROS, GEN_ONES, GEN_FULL, GEN_ARANGE, GEN_RAND, GEN_COUNT };
static const char *const gen_names[GEN_COUNT] = {"zeros", "ones", "full",
                                                 "arange", "rand"};
static const char *const gen_forms[GEN_COUNT] = {
    "zeros(T,N[,M..])", "ones(T,N[,M..])", "full(T,N[,M..],V)",
    "arange(T,N)", "rand(T,N[,M..][,seed=S])"};

#define SPEC_MAX_ARGS (KERN_MAX_DIMS + 3)

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
  return s;
}

/* Fills out->shape and allocates out->data for the parameter's element
 * type; the caller fills the scalars. */
static int alloc_array(const kern_param_info *p, int ndim,
                       const int64_t *shape, spec_array *out, char *err,
                       size_t errsize) {
  size_t count = (size_t)components(p->type);
  size_t ssize = npy_scalar_size(p->type.scalar);
  for (int i = 0; i < ndim; i++) {
    uint64_t d = (uint64_t)shape[i];
    if (d != 0 && count > SIZE_MAX / ssize / d)
      return fail_param(err, errsize, p, "shape is too large");
    count *= (size_t)d;
    out->shape[i] = shape[i];
  }
  out->type = p->type;
  out->ndim = ndim;
  out->nbytes = count * ssize;
  out->data = calloc(1, out->nbytes ? out->nbytes : 1);
  if (!out->data)
    return fail_param(err, errsize, p, "out of memory for %zu bytes",
                      out->nbytes);
  return 0;
}

static int parse_generator(const kern_param_info *p, const char *text,
                           int gen, const char *inner, spec_array *out,
                           char *err, size_t errsize) {
  char buf[512], why[200];
  char *args[SPEC_MAX_ARGS + 1];
  int nargs = 0;
  const char *form = gen_forms[gen];

  if (strlen(inner) >= sizeof buf)
    return fail_param(err, errsize, p, "SPEC '%.40s...' is too long", text);
  strcpy(buf, inner);
  for (char *s = buf;;) {
    char *c = strchr(s, ',');
    if (nargs == SPEC_MAX_ARGS)
      return fail_param(err, errsize, p, "too many arguments in '%s' (%s)",
                        text, form);
    if (c) *c = '\0';
    args[nargs++] = trim(s);
    if (!c) break;
    s = c + 1;
  }

  kern_type t;
  if (args[0][0] == '\0')
    return fail_param(err, errsize, p, "'%s' lacks the element type (%s)",
                      text, form);
  if (kern_type_parse(args[0], &t) != KERN_SUCCESS) {
    char hint[96];
    return fail_param(err, errsize, p,
                      "unknown type '%s' in '%s'%s (a Warp type such as "
                      "float32, int32, vec3, mat33d)", args[0], text,
                      type_hint(args[0], hint, sizeof hint));
  }
  if (!type_equal(t, p->type)) {
    char a[64], b[64];
    return fail_param(err, errsize, p,
                      "'%s' makes %s elements but the parameter holds %s",
                      text, kern_type_name(t, a, sizeof a),
                      kern_type_name(p->type, b, sizeof b));
  }

  /* Peel the trailing extra argument off before counting dimensions. */
  int first = 1, last = nargs; /* dims are args[first..last) */
  unsigned char fill[8] = {0};
  uint64_t seed = 0;
  if (gen == GEN_FULL) {
    if (nargs < 3)
      return fail_param(err, errsize, p,
                        "'%s' needs a shape and a fill value: %s", text, form);
    if (!parse_scalar(p->type.scalar, args[nargs - 1], fill, why, sizeof why))
      return fail_param(err, errsize, p, "fill value in '%s': %s", text, why);
    last--;
  } else if (gen == GEN_RAND && nargs > 1 &&
             strncmp(args[nargs - 1], "seed", 4) == 0) {
    char *v = trim(args[nargs - 1] + 4);
    uint64_t mag;
    int neg, overflow;
    if (*v != '=' ||
        !parse_integer(trim(v + 1), &mag, &neg, &overflow) || neg)
      return fail_param(err, errsize, p,
                        "bad seed in '%s': write seed=S with S a non-negative "
                        "integer below 2^64", text);
    seed = mag;
    last--;
  }

  int ndim = last - first;
  int64_t shape[KERN_MAX_DIMS];
  if (ndim == 0)
    return fail_param(err, errsize, p, "'%s' lacks a shape: %s", text, form);
  if (gen == GEN_ARANGE && ndim != 1)
    return fail_param(err, errsize, p, "arange makes 1-d arrays only: %s",
                      form);
  if (ndim != p->ndim)
    return fail_param(err, errsize, p,
                      "'%s' has %d dimension%s but the parameter has %d",
                      text, ndim, ndim == 1 ? "" : "s", p->ndim);
  for (int i = 0; i < ndim; i++) {
    uint64_t mag;
    int neg, overflow;
    const char *a = args[first + i];
    if (!parse_integer(a, &mag, &neg, &overflow) || neg ||
        mag > (uint64_t)INT64_MAX)
      return fail_param(err, errsize, p,
                        "'%s' is not a valid dimension in '%s' (%s)", a,
                        text, form);
    shape[i] = (int64_t)mag;
  }

  if (alloc_array(p, ndim, shape, out, err, errsize) != 0) return -1;

  kern_scalar s = p->type.scalar;
  size_t ssize = npy_scalar_size(s);
  size_t n = out->nbytes / ssize;
  unsigned char *d = out->data;
  uint64_t state = seed;
  switch (gen) {
  case GEN_ZEROS:
    break; /* calloc'd; all-zero bytes are 0, 0.0 and false */
  case GEN_ONES:
    for (size_t i = 0; i < n; i++) put_int(s, d + i * ssize, 1);
    break;
  case GEN_FULL:
    for (size_t i = 0; i < n; i++) memcpy(d + i * ssize, fill, ssize);
    break;
  case GEN_ARANGE:
    for (size_t i = 0; i < n; i++) put_int(s, d + i * ssize, (uint64_t)i);
    break;
  case GEN_RAND:
    for (size_t i = 0; i < n; i++) {
      uint64_t z = splitmix_next(&state);
      if (s == KERN_SCALAR_FLOAT32 || s == KERN_SCALAR_FLOAT64 || is_lowp_scalar(s))
        put_float(s, d + i * ssize, (double)(z >> 11) * 0x1p-53);
      else if (s == KERN_SCALAR_BOOL)
        put_int(s, d + i * ssize, z & 1);
      else
        put_int(s, d + i * ssize, z % 100);
    }
    break;
  }
  return 0;
}

static void format_shape(char *buf, size_t size, int ndim,
                         const int64_t *shape, const char *tail) {
  int n = snprintf(buf, size, "(");
  for (int i = 0; i < ndim && (size_t)n < size; i++)
    n += snprintf(buf + n, size - n, "%s%lld", i ? ", " : "",
                  (long long)shape[i]);
  if ((size_t)n < size)
    snprintf(buf + n, size - n, "%s%s)", ndim == 1 && !*tail ? "," : "",
             tail);
}

static int load_npy(const kern_param_info *p, const char *path,
                    spec_array *out, char *err, size_t errsize) {
  npy_array a;
  char why[512];
  if (npy_read(path, &a, why, sizeof why) != 0)
    return fail_param(err, errsize, p, "%s", why);

  int extra = p->type.kind == KERN_KIND_SCALAR ? 0
              : p->type.kind == KERN_KIND_VECTOR ? 1
                                                 : 2;
  int ok = a.dtype == p->type.scalar && a.ndim == p->ndim + extra &&
           !a.itemsize; /* records are a struct parameter's */
  if (ok && extra >= 1) ok = a.shape[p->ndim] == p->type.rows;
  if (ok && extra == 2) ok = a.shape[p->ndim + 1] == p->type.cols;
  if (!ok) {
    /* Say what shape would fit, in NumPy's terms: (N, M, 3) for a 2-d
     * array of vec3. */
    char want[128], have[128], tail[32] = "", dims[64] = "";
    static const char *const letters[] = {"N", "M", "K", "L"};
    int n = 0;
    for (int i = 0; i < p->ndim && i < 4; i++)
      n += snprintf(dims + n, sizeof dims - n, "%s%s", i ? ", " : "",
                    letters[i]);
    if (extra == 1) snprintf(tail, sizeof tail, ", %d", p->type.rows);
    if (extra == 2)
      snprintf(tail, sizeof tail, ", %d, %d", p->type.rows, p->type.cols);
    snprintf(want, sizeof want, "(%s%s%s)", dims,
             p->ndim == 1 && !extra ? "," : "", tail);
    format_shape(have, sizeof have, a.ndim, a.shape, "");
    int r = fail_param(err, errsize, p,
                       "%s holds %s %s but the parameter needs %s %s", path,
                       npy_dtype_name(a.dtype), have,
                       npy_dtype_name(p->type.scalar), want);
    npy_free(&a);
    return r;
  }
  for (int i = 0; i < p->ndim; i++) out->shape[i] = a.shape[i];
  out->type = p->type;
  out->ndim = p->ndim;
  out->data = a.data;
  out->nbytes = a.nbytes;
  return 0;
}

int spec_parse_array(const kern_param_info *p, const char *text,
                     spec_array *out, char *err, size_t errsize) {
  memset(out, 0, sizeof *out);
  if (p->ndim < 1 || p->ndim > KERN_MAX_DIMS)
    return fail_param(err, errsize, p, "unsupported number of dimensions");

  const char *paren = strchr(text, '(');
  if (paren) {
    size_t len = (size_t)(paren - text);
    for (int g = 0; g < GEN_COUNT; g++) {
      if (strlen(gen_names[g]) != len || strncmp(text, gen_names[g], len))
        continue;
      size_t tl = strlen(text);
      if (text[tl - 1] != ')')
        return fail_param(err, errsize, p, "'%s' lacks the closing ')' (%s)",
                          text, gen_forms[g]);
      char inner[512];
      size_t il = tl - len - 2;
      if (il >= sizeof inner)
        return fail_param(err, errsize, p, "SPEC '%.40s...' is too long",
                          text);
      memcpy(inner, paren + 1, il);
      inner[il] = '\0';
      if (strchr(inner, '(') || strchr(inner, ')'))
        return fail_param(err, errsize, p, "unbalanced parentheses in '%s'",
                          text);
      return parse_generator(p, text, g, inner, out, err, errsize);
    }
  }

  /* Not a generator: a path.  Something that is neither an existing file
   * nor spelled like a .npy path is most likely a mistyped SPEC, and saying
   * "No such file" about it would mislead. */
  size_t tl = strlen(text);
  if (paren && access(text, F_OK) != 0) {
    const char *best = suggest_best(text, (size_t)(paren - text), gen_names,
                                    GEN_COUNT);
    if (best)
      return fail_param(err, errsize, p,
                        "unknown array SPEC function '%.*s' in '%s'; did you "
                        "mean '%s'?", (int)(paren - text), text, text, best);
  }
  if (access(text, F_OK) != 0 &&
      (tl < 4 || strcmp(text + tl - 4, ".npy") != 0))
    return fail_param(err, errsize, p,
                      "'%s' is neither an array SPEC (zeros(T,N), ones(T,N), "
                      "full(T,N,V), arange(T,N), rand(T,N[,seed=S])) nor an "
                      "existing .npy file", text);
  return load_npy(p, text, out, err, errsize);
}

int spec_parse_dims(const char *text, int64_t *dims, int max, int *ndim,
                    char *err, size_t errsize) {
  int n = 0;
  const char *s = text;
  for (;;) {
    char tok[32];
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    uint64_t mag;
    int neg, overflow;
    if (n == max) {
      snprintf(err, errsize, "--dim '%s' has more than %d dimensions", text,
               max);
      return -1;
    }
    if (len >= sizeof tok) len = sizeof tok - 1;
    memcpy(tok, s, len);
    tok[len] = '\0';
    if (!parse_integer(tok, &mag, &neg, &overflow) || neg ||
        mag > (uint64_t)INT64_MAX) {
      snprintf(err, errsize,
               "--dim '%s': '%s' is not a non-negative integer "
               "(write --dim N or --dim N,M)", text, tok);
      return -1;
    }
    dims[n++] = (int64_t)mag;
    if (!e) break;
    s = e + 1;
  }
  *ndim = n;
  return 0;
}

/* ---------------------------------------------------------------- print */

/* Note [numpy printing]
 * The printer imitates numpy's str() with default print options: precision
 * 8, threshold 1000, edgeitems 3, linewidth 75.  Floats use the shortest
 * text that reads back as the same value of the element type, cut to 8
 * digits after the point, padded so the points line up; all-integral float
 * arrays print as "1." like NumPy.  Scientific notation is chosen as NumPy
 * does: when the largest magnitude is >= 1e8, the smallest non-zero one is
 * < 1e-4, or their ratio exceeds 1000.  The format is decided from the
 * entries that are shown, which is what NumPy does when it summarises. */

enum { PF_INT, PF_UINT, PF_BOOL, PF_POS, PF_EXP };

typedef struct printer {
  FILE *f;
  kern_scalar s;
  size_t ssize;
  const unsigned char *data;
  int ndim;
  int64_t shape[KERN_MAX_DIMS + 2];
  size_t stride[KERN_MAX_DIMS + 2]; /* in scalars */
  int summarize;
  int indent; /* width of the prefix */
  int col;    /* current output column */
  /* the format, found by the measuring pass */
  int mode;
  int width;  /* whole field, for ints, bools and specials */
  int ipart;  /* widest text before the point (sign included) */
  int fpart;  /* widest text after the point */
  int epart;  /* most exponent digits */
  /* measuring state */
  double fmax, fmin; /* largest and smallest non-zero finite magnitude */
  int any_finite_nonzero;
} printer;

/* Calls fn(pr, flat scalar index) for every shown entry, in order. */
static void visit(printer *pr, int axis, size_t off,
                  void (*fn)(printer *, size_t)) {
  if (axis < 0 || axis >= (int)(sizeof pr->shape / sizeof pr->shape[0]))
    return;
  int64_t n = pr->shape[axis];
  for (int64_t i = 0; i < n; i++) {
    if (pr->summarize && n > 6 && i == 3) i = n - 3;
    size_t o = off + (size_t)i * pr->stride[axis];
    if (axis + 1 == pr->ndim) fn(pr, o);
    else visit(pr, axis + 1, o, fn);
  }
}

static int float_roundtrips(kern_scalar s, const char *txt, double v) {
  double r = strtod(txt, NULL);
  if (s == KERN_SCALAR_FLOAT32) return (float)r == (float)v;
  if (s == KERN_SCALAR_FLOAT16)
    return kern_float16_from_float((float)r) == kern_float16_from_float((float)v);
  if (s == KERN_SCALAR_BFLOAT16)
    return kern_bfloat16_from_float((float)r) == kern_bfloat16_from_float((float)v);
  return r == v;
}

/* The shortest "%.*f" or "%.*e" text of v with at most 8 fraction digits
 * that reads back as v in the element type. */
static void float_text(kern_scalar s, double v, int expo, char *buf,
                       size_t size) {
  for (int p = 0; p <= 8; p++) {
    snprintf(buf, size, expo ? "%.*e" : "%.*f", p, v);
    if (float_roundtrips(s, buf, v)) return;
  }
  snprintf(buf, size, expo ? "%.8e" : "%.8f", v);
  /* cut to 8 digits: drop the zeros that padding left behind */
  char *e = expo ? strchr(buf, 'e') : buf + strlen(buf);
  char *z = e;
  while (z > buf && z[-1] == '0') z--;
  memmove(z, e, strlen(e) + 1);
}

/* Splits "-1.25e+05" into its widths: before '.', after '.', exponent
 * digits. */
static void float_parts(const char *t, int *ip, int *fp, int *ep) {
  const char *dot = strchr(t, '.');
  const char *e = strchr(t, 'e');
  const char *end = e ? e : t + strlen(t);
  if (!dot || dot > end) {
    *ip = (int)(end - t);
    *fp = 0;
  } else {
    *ip = (int)(dot - t);
    *fp = (int)(end - dot - 1);
  }
  *ep = e ? (int)strlen(e + 2) : 0;
}

static void measure_range(printer *pr, size_t i) {
  double v = get_scalar(pr->s, pr->data + i * pr->ssize).f;
  if (!isfinite(v) || v == 0) return;
  v = fabs(v);
  if (!pr->any_finite_nonzero || v > pr->fmax) pr->fmax = v;
  if (!pr->any_finite_nonzero || v < pr->fmin) pr->fmin = v;
  pr->any_finite_nonzero = 1;
}

static void measure(printer *pr, size_t i) {
  char buf[64];
  scalar_val v = get_scalar(pr->s, pr->data + i * pr->ssize);
  int w;
  switch (pr->mode) {
  case PF_BOOL:
    pr->width = 5;
    return;
  case PF_INT:
    w = snprintf(buf, sizeof buf, "%" PRId64, v.i);
    break;
  case PF_UINT:
    w = snprintf(buf, sizeof buf, "%" PRIu64, v.u);
    break;
  default:
    if (!isfinite(v.f)) {
      w = isnan(v.f) ? 3 : v.f < 0 ? 4 : 3;
      if (w > pr->width) pr->width = w;
      return;
    } else {
      int ip, fp, ep;
      float_text(pr->s, v.f, pr->mode == PF_EXP, buf, sizeof buf);
      float_parts(buf, &ip, &fp, &ep);
      if (ip > pr->ipart) pr->ipart = ip;
      if (fp > pr->fpart) pr->fpart = fp;
      if (ep > pr->epart) pr->epart = ep;
      return;
    }
  }
  if (w > pr->width) pr->width = w;
}

static int format_entry(printer *pr, size_t i, char *out, size_t size) {
  char buf[64];
  scalar_val v = get_scalar(pr->s, pr->data + i * pr->ssize);
  switch (pr->mode) {
  case PF_BOOL:
    return snprintf(out, size, "%*s", pr->width, v.i ? "True" : "False");
  case PF_INT:
    return snprintf(out, size, "%*" PRId64, pr->width, v.i);
  case PF_UINT:
    return snprintf(out, size, "%*" PRIu64, pr->width, v.u);
  default:
    break;
  }
  if (!isfinite(v.f))
    return snprintf(out, size, "%*s", pr->width,
                    isnan(v.f) ? "nan" : v.f < 0 ? "-inf" : "inf");
  /* In scientific notation NumPy fills the fraction to a common length
   * with further true digits of the value, not with padding. */
  if (pr->mode == PF_EXP)
    snprintf(buf, sizeof buf, "%.*e", pr->fpart, v.f);
  else
    float_text(pr->s, v.f, 0, buf, sizeof buf);
  int ip, fp, ep;
  float_parts(buf, &ip, &fp, &ep);
  const char *dot = strchr(buf, '.');
  const char *e = strchr(buf, 'e');
  const char *frac = dot ? dot + 1 : "";
  char exps[16] = "";
  if (e)
    snprintf(exps, sizeof exps, "e%c%0*d", e[1], pr->epart, atoi(e + 2));
  /* positional: spaces after the fraction keep the points aligned */
  return snprintf(out, size, "%*.*s.%.*s%*s%s", pr->ipart, ip, buf, fp,
                  frac, pr->fpart - fp, "", exps);
}

static void put(printer *pr, const char *s) {
  fputs(s, pr->f);
  const char *nl = strrchr(s, '\n');
  pr->col = nl ? (int)strlen(nl + 1) : pr->col + (int)strlen(s);
}

static void newline_indent(printer *pr, int lines, int depth) {
  for (int i = 0; i < lines; i++) fputc('\n', pr->f);
  fprintf(pr->f, "%*s", pr->indent + depth, "");
  pr->col = pr->indent + depth;
}

/* Adds one entry of the innermost axis, after a space or, when the line
 * would pass 75 columns, on a new line under the first entry.  need is the
 * entry's width plus any brackets that must still fit after it. */
static void put_word(printer *pr, const char *word, int need, int first,
                     int depth) {
  if (!first) {
    if (pr->col + 1 + need > 75) newline_indent(pr, 1, depth);
    else put(pr, " ");
  }
  put(pr, word);
}

static void print_axis(printer *pr, int axis, size_t off) {
  int64_t n = pr->shape[axis];
  int last = axis + 1 == pr->ndim;
  char entry[128];
  put(pr, "[");
  for (int64_t i = 0; i < n; i++) {
    if (pr->summarize && n > 6 && i == 3) {
      /* "..." takes the place of the hidden entries, as NumPy does */
      if (last) {
        put_word(pr, "...", 3, 0, axis + 1);
      } else {
        put(pr, "...");
        newline_indent(pr, pr->ndim - axis - 1, axis + 1);
      }
      i = n - 3;
    }
    size_t o = off + (size_t)i * pr->stride[axis];
    if (last) {
      int w = format_entry(pr, o, entry, sizeof entry);
      put_word(pr, entry, w + (i + 1 == n ? axis + 1 : 0), i == 0,
               axis + 1);
    } else {
      print_axis(pr, axis + 1, o);
      if (i + 1 < n) newline_indent(pr, pr->ndim - axis - 1, axis + 1);
    }
  }
  put(pr, "]");
}

void spec_print_array(FILE *f, const char *prefix, kern_type type, int ndim,
                      const int64_t *shape, const void *data) {
  printer pr;
  memset(&pr, 0, sizeof pr);
  pr.f = f;
  pr.s = type.scalar;
  pr.ssize = npy_scalar_size(type.scalar);
  pr.data = data;
  for (int i = 0; i < ndim && i < KERN_MAX_DIMS; i++)
    pr.shape[pr.ndim++] = shape[i];
  if (type.kind != KERN_KIND_SCALAR) pr.shape[pr.ndim++] = type.rows;
  if (type.kind == KERN_KIND_MATRIX) pr.shape[pr.ndim++] = type.cols;
  size_t count = 1;
  for (int i = pr.ndim - 1; i >= 0; i--) {
    pr.stride[i] = count;
    count *= (size_t)pr.shape[i];
  }
  pr.summarize = count > 1000;
  pr.indent = (int)strlen(prefix);

  fputs(prefix, f);
  pr.col = pr.indent;
  if (count == 0) {
    /* NumPy prints [] for any empty array (with the shape in repr). */
    fputs("[]\n", f);
    return;
  }

  if (pr.s == KERN_SCALAR_BOOL) pr.mode = PF_BOOL;
  else if (is_signed_scalar(pr.s)) pr.mode = PF_INT;
  else if (is_int_scalar(pr.s)) pr.mode = PF_UINT;
  else {
    visit(&pr, 0, 0, measure_range);
    pr.mode = pr.any_finite_nonzero &&
                      (pr.fmax >= 1e8 || pr.fmin < 1e-4 ||
                       pr.fmax / pr.fmin > 1e3)
                  ? PF_EXP
                  : PF_POS;
  }
  visit(&pr, 0, 0, measure);
  if (pr.mode == PF_POS || pr.mode == PF_EXP) {
    int w = pr.ipart + 1 + pr.fpart + (pr.mode == PF_EXP ? 2 + pr.epart : 0);
    if (pr.ipart == 0) w = 0; /* only nan/inf shown */
    if (w > pr.width) pr.width = w;
    else if (pr.ipart) pr.ipart += pr.width - w; /* pad under a wide -inf */
  }
  print_axis(&pr, 0, 0);
  fputc('\n', f);
}

/* ---------------------------------------------------------------- for structs */

/* The generators' scalar rules, for spec_struct.c's arrays of structs. */
void spec_store_int(kern_scalar s, void *p, uint64_t v) { put_int(s, p, v); }

void spec_store_random(kern_scalar s, void *p, uint64_t *state) {
  uint64_t z = splitmix_next(state);
  if (s == KERN_SCALAR_FLOAT32 || s == KERN_SCALAR_FLOAT64)
    put_float(s, p, (double)(z >> 11) * 0x1p-53);
  else if (s == KERN_SCALAR_BOOL)
    put_int(s, p, z & 1);
  else
    put_int(s, p, z % 100);
}

void spec_format_scalar(kern_scalar s, const void *p, char *buf,
                        size_t size) {
  scalar_val v = get_scalar(s, p);
  if (s == KERN_SCALAR_BOOL)
    snprintf(buf, size, "%s", v.i ? "True" : "False");
  else if (s == KERN_SCALAR_FLOAT32)
    snprintf(buf, size, "%.9g", v.f);
  else if (s == KERN_SCALAR_FLOAT64)
    snprintf(buf, size, "%.17g", v.f);
  else if (is_signed_scalar(s))
    snprintf(buf, size, "%lld", (long long)v.i);
  else
    snprintf(buf, size, "%llu", (unsigned long long)v.u);
}
