/*
 * npy.c -- the .npy file format, versions 1.0, 2.0 and 3.0.
 *
 * A .npy file is the magic "\x93NUMPY", two version bytes, a little-endian
 * header length (2 bytes in 1.0, 4 in 2.0/3.0), then a Python dict literal
 * such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and a newline, then the raw data.
 *
 * The header is read by a small hand-written scanner rather than by anything
 * general: the files come from users, so every field is checked and every
 * malformed input ends in a message naming the path and the problem, never
 * in a crash or a huge allocation.  Sizes are checked for size_t overflow,
 * and for regular files the data length is checked against the file size
 * before any buffer is allocated.
 *
 * Only little-endian (or byte-order-free) dtypes and C order are supported,
 * which covers every file NumPy writes on x86-64 and ARM by default.
 */
#include "npy.h"
#include "outfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* NumPy itself refuses headers over 10000 bytes unless told otherwise;
 * anything much larger than that is a damaged file, not a real header. */
#define NPY_MAX_HEADER (1u << 20)

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* Indexed by kern_scalar: size, NumPy name, descr as written. */
static const struct {
  size_t size;
  const char *name;
  const char *descr;
} npy_dtypes[KERN_SCALAR_COUNT] = {
  [KERN_SCALAR_BOOL] = {1, "bool", "|b1"},
  [KERN_SCALAR_INT8] = {1, "int8", "|i1"},
  [KERN_SCALAR_INT16] = {2, "int16", "<i2"},
  [KERN_SCALAR_INT32] = {4, "int32", "<i4"},
  [KERN_SCALAR_INT64] = {8, "int64", "<i8"},
  [KERN_SCALAR_UINT8] = {1, "uint8", "|u1"},
  [KERN_SCALAR_UINT16] = {2, "uint16", "<u2"},
  [KERN_SCALAR_UINT32] = {4, "uint32", "<u4"},
  [KERN_SCALAR_UINT64] = {8, "uint64", "<u8"},
  [KERN_SCALAR_FLOAT32] = {4, "float32", "<f4"},
  [KERN_SCALAR_FLOAT64] = {8, "float64", "<f8"},
  [KERN_SCALAR_FLOAT16] = {2, "float16", "<f2"},
  /* NumPy has no bfloat16: its 16 bits are stored as a 2-byte void type,
   * which NumPy reads back and .view(np.uint16) shows as bits. */
  [KERN_SCALAR_BFLOAT16] = {2, "bfloat16", "|V2"},
};

size_t npy_scalar_size(kern_scalar s) {
  return (unsigned)s < KERN_SCALAR_COUNT ? npy_dtypes[s].size : 0;
}

const char *npy_dtype_name(kern_scalar s) {
  return (unsigned)s < KERN_SCALAR_COUNT ? npy_dtypes[s].name : "?";
}

const char *npy_dtype_descr(kern_scalar s) {
  return (unsigned)s < KERN_SCALAR_COUNT ? npy_dtypes[s].descr : "?";
}

void npy_free(npy_array *a) {
  if (!a) return;
  free(a->data);
  free(a->fields);
  memset(a, 0, sizeof *a);
}

static int fail(char *err, size_t errsize, const char *path, const char *fmt,
                ...) {
  va_list ap;
  int n = snprintf(err, errsize, "%s: ", path);
  if (n < 0) n = 0;
  if ((size_t)n < errsize) {
    va_start(ap, fmt);
    vsnprintf(err + n, errsize - n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* ---------------------------------------------------------------- header */

/* The header scanner: a cursor over the NUL-terminated header text. */
typedef struct hdr {
  const char *p;
} hdr;

/* Up to 12 characters at p for a message, stopping at a control character
 * so the message stays on one line. */
static const char *near(const char *p, char *buf) {
  int n = 0;
  while (n < 12 && p[n] && (unsigned char)p[n] >= ' ') {
    buf[n] = p[n];
    n++;
  }
  buf[n] = '\0';
  return buf;
}

static void skip_space(hdr *h) {
  while (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r')
    h->p++;
}

static int accept(hdr *h, char c) {
  skip_space(h);
  if (*h->p != c) return 0;
  h->p++;
  return 1;
}

/* string -> ' chars ' | " chars "   (no escapes: no valid key or descr
 * contains one).  Copies at most size-1 chars; returns 0 on bad syntax. */
static int parse_string(hdr *h, char *buf, size_t size) {
  skip_space(h);
  char q = *h->p;
  if (q != '\'' && q != '"') return 0;
  const char *s = ++h->p;
  while (*h->p && *h->p != q) h->p++;
  if (*h->p != q) return 0;
  size_t n = (size_t)(h->p - s);
  if (n >= size) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  h->p++;
  return 1;
}

/* shape -> '(' [ int { ',' int } [ ',' ] ] ')'
 * Python prints (3,) for one dimension and () for a scalar; other writers
 * add spaces or a trailing comma anywhere, all of which are accepted. */
static int parse_shape(hdr *h, npy_array *a, char *why, size_t whysize) {
  char nb[16];
  if (!accept(h, '(')) {
    snprintf(why, whysize, "'shape' is not a tuple");
    return 0;
  }
  a->ndim = 0;
  for (;;) {
    if (accept(h, ')')) return 1;
    skip_space(h);
    if (!isdigit((unsigned char)*h->p)) {
      snprintf(why, whysize, "bad dimension in 'shape' near '%s'",
               near(h->p, nb));
      return 0;
    }
    uint64_t v = 0;
    while (isdigit((unsigned char)*h->p)) {
      unsigned d = (unsigned)(*h->p++ - '0');
      if (v > (UINT64_C(0x7fffffffffffffff) - d) / 10) {
        snprintf(why, whysize, "dimension in 'shape' is too large");
        return 0;
      }
      v = v * 10 + d;
    }
    if (*h->p == 'L') h->p++; /* Python 2 long literal, as old NumPy wrote */
    if (a->ndim == NPY_MAX_DIMS) {
      snprintf(why, whysize, "more than %d dimensions", NPY_MAX_DIMS);
      return 0;
    }
    a->shape[a->ndim++] = (int64_t)v;
    if (accept(h, ',')) continue;
    if (accept(h, ')')) return 1;
    snprintf(why, whysize, "expected ',' or ')' in 'shape' near '%s'",
             near(h->p, nb));
    return 0;
  }
}

static int parse_descr(const char *d, kern_scalar *out, char *why,
                       size_t whysize) {
  /* A one-byte type has no byte order, so '<', '|' and '=' all mean the
   * same; for wider types '=' is the writer's native order, which NumPy
   * never stores, so only '<' is taken. */
  if (strlen(d) == 3) {
    for (int s = 0; s < KERN_SCALAR_COUNT; s++) {
      const char *want = npy_dtypes[s].descr;
      if (strcmp(d + 1, want + 1) != 0) continue;
      if (d[0] == want[0] ||
          (npy_dtypes[s].size == 1 && (d[0] == '<' || d[0] == '|' ||
                                       d[0] == '=')) ||
          (npy_dtypes[s].size > 1 && d[0] == '<')) {
        *out = (kern_scalar)s;
        return 1;
      }
      if (d[0] == '>') {
        snprintf(why, whysize,
                 "big-endian dtype '%s' is not supported (use "
                 "arr.astype('<%s'))", d, d + 1);
        return 0;
      }
    }
  }
  snprintf(why, whysize,
           "unsupported dtype '%s' (supported: bool, int8-64, uint8-64, "
           "float16, float32, float64, bfloat16 as |V2)", d);
  return 0;
}

/* Note [structured descr]: NumPy writes a structured dtype's descr as a
 * list, packed, with padding as unnamed void fields:
 *   [('a', '|i1'), ('', '|V7'), ('d', '<f8'), ('v', '<f4', (3,)),
 *    ('inner', [('v', '<f4', (3,)), ('k', '|i1'), ('', '|V3')])]
 * fields -> '[' { '(' string ',' ( string | fields ) [ ',' shape ] ')' ','
 * } ']'.  Leaves are listed with their offsets; *size gets the bytes the
 * list spans.  The depth is bounded, as every input here is a user's. */
#define NPY_MAX_FIELDS 4096

static int add_field(npy_array *a, const char *name, size_t off,
                     kern_scalar dt, int count, char *why, size_t whysize) {
  if (a->nfields == NPY_MAX_FIELDS) {
    snprintf(why, whysize, "more than %d fields", NPY_MAX_FIELDS);
    return 0;
  }
  if (a->nfields % 64 == 0) {
    npy_field *f = realloc(a->fields, (size_t)(a->nfields + 64) * sizeof *f);
    if (!f) {
      snprintf(why, whysize, "out of memory");
      return 0;
    }
    a->fields = f;
  }
  npy_field *f = &a->fields[a->nfields++];
  snprintf(f->name, sizeof f->name, "%s", name);
  f->offset = off;
  f->dtype = dt;
  f->count = count;
  return 1;
}

static int parse_fields(hdr *h, npy_array *a, const char *prefix,
                        size_t base, int depth, size_t *size, char *why,
                        size_t whysize) {
  char nb[16];
  size_t off = 0;
  if (depth > 16 || !accept(h, '[')) {
    snprintf(why, whysize, "malformed structured descr near '%s'",
             near(h->p, nb));
    return 0;
  }
  for (;;) {
    if (accept(h, ']')) break;
    char name[64], fmt[32], full[96];
    if (!accept(h, '(') || !parse_string(h, name, sizeof name) ||
        !accept(h, ',')) {
      snprintf(why, whysize, "malformed structured descr near '%s'",
               near(h->p, nb));
      return 0;
    }
    snprintf(full, sizeof full, "%s%s%s", prefix, *prefix ? "." : "", name);
    skip_space(h);
    size_t fsize = 0;
    if (*h->p == '[') {
      if (!parse_fields(h, a, full, base + off, depth + 1, &fsize, why,
                        whysize))
        return 0;
    } else {
      if (!parse_string(h, fmt, sizeof fmt)) {
        snprintf(why, whysize, "malformed structured descr near '%s'",
                 near(h->p, nb));
        return 0;
      }
      npy_array sub;
      memset(&sub, 0, sizeof sub);
      int count = 1;
      if (accept(h, ',')) {
        if (!parse_shape(h, &sub, why, whysize)) return 0;
        for (int i = 0; i < sub.ndim; i++) {
          if (sub.shape[i] > 1 << 16 || count > (1 << 20) / (int)(sub.shape[i] + 1)) {
            snprintf(why, whysize, "field '%s' is too large", full);
            return 0;
          }
          count *= (int)sub.shape[i];
        }
      }
      if ((fmt[0] == '|' || fmt[0] == '<') && fmt[1] == 'V') {
        long n = strtol(fmt + 2, NULL, 10);
        if (n <= 0 || n > 1 << 20) {
          snprintf(why, whysize, "bad void field '%s'", fmt);
          return 0;
        }
        fsize = (size_t)n * (size_t)count;
      } else {
        kern_scalar dt;
        if (!parse_descr(fmt, &dt, why, whysize)) return 0;
        fsize = npy_dtypes[dt].size * (size_t)count;
        if (name[0] &&
            !add_field(a, full, base + off, dt, count, why, whysize))
          return 0;
      }
    }
    off += fsize;
    if (off > 1 << 24) {
      snprintf(why, whysize, "structured dtype is too large");
      return 0;
    }
    if (!accept(h, ')')) {
      snprintf(why, whysize, "malformed structured descr near '%s'",
               near(h->p, nb));
      return 0;
    }
    if (accept(h, ',')) continue;
    if (accept(h, ']')) break;
    snprintf(why, whysize, "malformed structured descr near '%s'",
             near(h->p, nb));
    return 0;
  }
  *size = off;
  return 1;
}

/* header -> '{' { string ':' value ',' } '}'
 * with the keys 'descr', 'fortran_order' and 'shape', each exactly once. */
static int parse_header(const char *text, npy_array *a, char *why,
                        size_t whysize) {
  hdr h = {text};
  char nb[16];
  int have_descr = 0, have_order = 0, have_shape = 0;
  if (!accept(&h, '{')) {
    snprintf(why, whysize, "header is not a dict");
    return 0;
  }
  for (;;) {
    char key[32], val[64];
    if (accept(&h, '}')) break;
    if (!parse_string(&h, key, sizeof key) || !accept(&h, ':')) {
      snprintf(why, whysize, "malformed header near '%s'", near(h.p, nb));
      return 0;
    }
    if (strcmp(key, "descr") == 0 && !have_descr && accept(&h, '[')) {
      h.p--; /* Note [structured descr] */
      if (!parse_fields(&h, a, "", 0, 0, &a->itemsize, why, whysize))
        return 0;
      if (a->itemsize == 0) {
        snprintf(why, whysize, "structured dtype of 0 bytes");
        return 0;
      }
      a->dtype = KERN_SCALAR_UINT8;
      have_descr = 1;
    } else if (strcmp(key, "descr") == 0 && !have_descr) {
      if (!parse_string(&h, val, sizeof val)) {
        snprintf(why, whysize,
                 "'descr' is not a simple dtype string (structured dtypes "
                 "are not supported)");
        return 0;
      }
      if (!parse_descr(val, &a->dtype, why, whysize)) return 0;
      have_descr = 1;
    } else if (strcmp(key, "fortran_order") == 0 && !have_order) {
      skip_space(&h);
      if (strncmp(h.p, "False", 5) == 0) {
        h.p += 5;
      } else if (strncmp(h.p, "True", 4) == 0) {
        snprintf(why, whysize,
                 "fortran_order is True; only C-order arrays are supported "
                 "(save np.ascontiguousarray(arr))");
        return 0;
      } else {
        snprintf(why, whysize, "'fortran_order' is not True or False");
        return 0;
      }
      have_order = 1;
    } else if (strcmp(key, "shape") == 0 && !have_shape) {
      if (!parse_shape(&h, a, why, whysize)) return 0;
      have_shape = 1;
    } else {
      snprintf(why, whysize, "unexpected or repeated key '%s' in header",
               key);
      return 0;
    }
    if (accept(&h, ',')) continue;
    if (accept(&h, '}')) break;
    snprintf(why, whysize, "expected ',' or '}' in header near '%s'",
             near(h.p, nb));
    return 0;
  }
  skip_space(&h);
  if (*h.p != '\0') {
    snprintf(why, whysize, "trailing characters after header dict");
    return 0;
  }
  if (!have_descr || !have_order || !have_shape) {
    snprintf(why, whysize, "header lacks '%s'",
             !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
    return 0;
  }
  return 1;
}

/* ---------------------------------------------------------------- read */

int npy_read(const char *path, npy_array *out, char *err, size_t errsize) {
  npy_array a;
  unsigned char pre[12];
  char why[200];
  char *header = NULL;
  FILE *f;

  memset(&a, 0, sizeof a);
  memset(out, 0, sizeof *out);
  f = infile_open(path);
  if (!f) return fail(err, errsize, path, "%s", strerror(errno));

  size_t got = fread(pre, 1, 10, f);
  if (got < 8 || memcmp(pre, npy_magic, 6) != 0) {
    fclose(f);
    return fail(err, errsize, path, "not a .npy file (bad magic)");
  }
  unsigned major = pre[6], minor = pre[7];
  size_t hlen, prelen;
  if (major == 1 && got == 10) {
    hlen = pre[8] | (size_t)pre[9] << 8;
    prelen = 10;
  } else if ((major == 2 || major == 3) && got == 10 &&
             fread(pre + 10, 1, 2, f) == 2) {
    hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 |
           (size_t)pre[11] << 24;
    prelen = 12;
  } else if (major < 1 || major > 3) {
    fclose(f);
    return fail(err, errsize, path, "unsupported .npy format version %u.%u",
                major, minor);
  } else {
    fclose(f);
    return fail(err, errsize, path, "truncated header");
  }
  if (hlen > NPY_MAX_HEADER) {
    fclose(f);
    return fail(err, errsize, path, "header length %zu is too long", hlen);
  }
  header = malloc(hlen + 1);
  if (!header) {
    fclose(f);
    return fail(err, errsize, path, "out of memory");
  }
  if (fread(header, 1, hlen, f) != hlen) {
    free(header);
    fclose(f);
    return fail(err, errsize, path, "truncated header");
  }
  header[hlen] = '\0';
  if (strlen(header) != hlen) {
    free(header);
    fclose(f);
    return fail(err, errsize, path, "NUL byte in header");
  }
  int ok = parse_header(header, &a, why, sizeof why);
  free(header);
  if (!ok) {
    free(a.fields);
    fclose(f);
    return fail(err, errsize, path, "%s", why);
  }

  size_t count = 1, elsize = a.nfields || a.itemsize ? a.itemsize
                                                     : npy_scalar_size(a.dtype);
  for (int i = 0; i < a.ndim; i++) {
    uint64_t d = (uint64_t)a.shape[i];
    if (d != 0 && count > SIZE_MAX / d) {
      fclose(f);
      free(a.fields);
      return fail(err, errsize, path, "shape is too large for memory");
    }
    count *= (size_t)d;
  }
  if (count > SIZE_MAX / elsize) {
    fclose(f);
    free(a.fields);
    return fail(err, errsize, path, "shape is too large for memory");
  }
  a.count = count;
  a.nbytes = count * elsize;

  /* Check the length first, so that a corrupt shape cannot make us
   * allocate gigabytes only to find the data missing. */
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
    uint64_t have = (uint64_t)st.st_size > prelen + hlen
                        ? (uint64_t)st.st_size - prelen - hlen
                        : 0;
    if (have < a.nbytes) {
      fclose(f);
      free(a.fields);
      return fail(err, errsize, path,
                  "truncated data: shape needs %zu bytes, file has %llu",
                  a.nbytes, (unsigned long long)have);
    }
  }
  a.data = malloc(a.nbytes ? a.nbytes : 1);
  if (!a.data) {
    fclose(f);
    free(a.fields);
    return fail(err, errsize, path, "out of memory for %zu bytes", a.nbytes);
  }
  got = fread(a.data, 1, a.nbytes, f);
  int rerr = ferror(f);
  fclose(f);
  if (got != a.nbytes) {
    free(a.data);
    free(a.fields);
    if (rerr) return fail(err, errsize, path, "read error");
    return fail(err, errsize, path,
                "truncated data: shape needs %zu bytes, file has %zu",
                a.nbytes, got);
  }
  *out = a;
  return 0;
}

/* ---------------------------------------------------------------- write */

static int write_stream(FILE *f, const char *path, const char *descr,
                        size_t elsize, int ndim, const int64_t *shape,
                        const void *data, char *err, size_t errsize);

int npy_write_stream(FILE *f, const char *path, kern_scalar dtype, int ndim,
                     const int64_t *shape, const void *data, char *err,
                     size_t errsize) {
  char descr[16];
  if ((unsigned)dtype >= KERN_SCALAR_COUNT)
    return fail(err, errsize, path, "cannot write this array as .npy");
  snprintf(descr, sizeof descr, "'%s'", npy_dtypes[dtype].descr);
  return write_stream(f, path, descr, npy_dtypes[dtype].size, ndim, shape,
                      data, err, errsize);
}

int npy_write_records(FILE *f, const char *path, const char *descr,
                      size_t itemsize, int ndim, const int64_t *shape,
                      const void *data, char *err, size_t errsize) {
  return write_stream(f, path, descr, itemsize, ndim, shape, data, err,
                      errsize);
}

static int write_stream(FILE *f, const char *path, const char *descr,
                        size_t elsize, int ndim, const int64_t *shape,
                        const void *data, char *err, size_t errsize) {
  size_t dsize = 64 + NPY_MAX_DIMS * 24 + strlen(descr);
  char *dict = malloc(dsize);
  size_t count = 1;
  int n;

  if (!dict) return fail(err, errsize, path, "out of memory");
  if (ndim < 0 || ndim > NPY_MAX_DIMS || dsize > 60000) {
    free(dict);
    return fail(err, errsize, path, "cannot write this array as .npy");
  }
  n = snprintf(dict, dsize, "{'descr': %s, 'fortran_order': False, "
               "'shape': (", descr);
  for (int i = 0; i < ndim; i++) {
    n += snprintf(dict + n, dsize - n, "%lld,%s",
                  (long long)shape[i], i + 1 < ndim ? " " : "");
    count *= (size_t)shape[i];
  }
  if (ndim > 1) n--; /* NumPy writes (3, 4), but (3,) for one dimension */
  n += snprintf(dict + n, dsize - n, "), }");

  /* The whole preamble is padded to a multiple of 64 bytes so the data is
   * aligned when the file is memory-mapped, as NumPy does. */
  size_t total = 10 + (size_t)n + 1;
  size_t padded = (total + 63) / 64 * 64;
  unsigned char pre[10];
  memcpy(pre, npy_magic, 6);
  pre[6] = 1;
  pre[7] = 0;
  size_t hlen = padded - 10; /* below 65536: dsize is bounded above */
  pre[8] = (unsigned char)(hlen & 0xff);
  pre[9] = (unsigned char)(hlen >> 8);

  int ok = fwrite(pre, 1, 10, f) == 10 &&
           fwrite(dict, 1, (size_t)n, f) == (size_t)n;
  for (size_t i = total; ok && i < padded; i++) ok = fputc(' ', f) != EOF;
  ok = ok && fputc('\n', f) != EOF;
  size_t nbytes = count * elsize;
  ok = ok && (nbytes == 0 || fwrite(data, 1, nbytes, f) == nbytes);
  free(dict);
  if (!ok) return fail(err, errsize, path, "write failed: %s", strerror(errno));
  return 0;
}

int npy_write(const char *path, kern_scalar dtype, int ndim,
              const int64_t *shape, const void *data, char *err,
              size_t errsize) {
  outfile o;
  if (outfile_open(&o, path, err, errsize) != 0) return -1;
  if (npy_write_stream(o.f, path, dtype, ndim, shape, data, err, errsize)) {
    outfile_discard(&o);
    return -1;
  }
  return outfile_commit(&o, err, errsize);
}
