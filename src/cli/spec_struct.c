/*
 * spec_struct.c -- @wp.struct arguments of `kern run`: values, arrays of
 * structs, .npy structured files, and printing.
 *
 * A struct's layout comes from the kernel (kern_kernel_param_field): the
 * fields, nested ones included, depth first, each with its offset in
 * Warp's layout (docs/ABI.md).  So the tool never computes a layout of its
 * own and cannot disagree with the library.
 *
 *   struct -> [ name ] '{' [ item { ',' item } ] '}'   name: the struct's
 *   item   -> name '=' ( struct | value | array )     name may be dotted
 *
 * A field left out is zero.  A vector or matrix value is written in
 * parentheses or with its type, v=(1,2,3) or v=wp.vec3(1,2,3), since the
 * comma separates items.  An array field takes an array SPEC (a generator
 * or a .npy path); run.c makes the device array and writes its descriptor.
 *
 * An array of structs takes zeros(S,N..), ones(S,N..), arange(S,N),
 * rand(S,N..[,seed=S]) -- S the struct's name, the scalars of every
 * element's value fields numbered or drawn in order (elements, then fields
 * depth first, then components row-major; padding and array fields are
 * left zero) -- or a .npy file of records, such as NumPy saves an array of
 * Warp's MyStruct.numpy_dtype(): every value field must be there under its
 * dotted name, at its offset, with its scalar type and component count.
 */
#include "spec.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"

void spec_struct_free(spec_struct *s) {
  if (!s) return;
  free(s->fields);
  memset(s, 0, sizeof *s);
}

static int fail(char *err, size_t errsize, const char *name, const char *fmt,
                ...) {
  va_list ap;
  int n = snprintf(err, errsize, "parameter '%s': ", name);
  if (n < 0) n = 0;
  if ((size_t)n < errsize) {
    va_start(ap, fmt);
    vsnprintf(err + n, errsize - n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

int spec_struct_get(kern_kernel *k, int param, const kern_param_info *p,
                    spec_struct *out, char *err, size_t errsize) {
  memset(out, 0, sizeof *out);
  out->name = p->struct_name;
  out->size = kern_type_size(p->type);
  int n = kern_kernel_param_field_count(k, param);
  out->fields = calloc((size_t)n + 1, sizeof *out->fields);
  if (!out->fields) return fail(err, errsize, p->name, "out of memory");
  for (int i = 0; i < n; i++) {
    out->fields[i].struct_size = sizeof out->fields[i];
    if (kern_kernel_param_field(k, param, i, &out->fields[i]) != KERN_SUCCESS)
      return fail(err, errsize, p->name, "cannot read the struct's fields");
  }
  out->nfields = n;
  return 0;
}

/* A value field: not a nested struct (its fields come next) and not an
 * array. */
static int is_value_field(const kern_field_info *f) {
  return f->kind == KERN_PARAM_VALUE && f->type.kind != KERN_KIND_STRUCT;
}

static int components(kern_type t) {
  return t.kind == KERN_KIND_MATRIX ? t.rows * t.cols
         : t.kind == KERN_KIND_VECTOR ? t.rows : 1;
}

/* ---------------------------------------------------------------- values */

/* The end of the item starting at s: the next ',' outside brackets. */
static const char *item_end(const char *s) {
  int depth = 0;
  for (; *s; s++) {
    if (*s == '(' || *s == '{' || *s == '[') depth++;
    else if (*s == ')' || *s == '}' || *s == ']') depth--;
    else if (*s == ',' && depth == 0) return s;
  }
  return s;
}

static int find_field(const spec_struct *s, const char *path) {
  for (int i = 0; i < s->nfields; i++)
    if (!strcmp(s->fields[i].name, path)) return i;
  return -1;
}

static int parse_items(const kern_param_info *p, const spec_struct *s,
                       const char *prefix, const char *text, size_t len,
                       unsigned char *out, spec_struct_arrays *arrays,
                       char *err, size_t errsize, int depth);

/* One NAME=VALUE of a struct SPEC, NAME relative to prefix. */
static int parse_item(const kern_param_info *p, const spec_struct *s,
                      const char *prefix, const char *item, size_t len,
                      unsigned char *out, spec_struct_arrays *arrays,
                      char *err, size_t errsize, int depth) {
  char buf[1024], path[256];
  if (len >= sizeof buf)
    return fail(err, errsize, p->name, "SPEC item '%.40s...' is too long",
                item);
  memcpy(buf, item, len);
  buf[len] = '\0';
  char *eq = strchr(buf, '=');
  if (!eq)
    return fail(err, errsize, p->name, "'%s' is not NAME=VALUE (a struct "
                "SPEC is {field=value,...})", buf);
  *eq = '\0';
  char *name = buf, *value = eq + 1;
  while (isspace((unsigned char)*name)) name++;
  char *e = name + strlen(name);
  while (e > name && isspace((unsigned char)e[-1])) *--e = '\0';
  while (isspace((unsigned char)*value)) value++;
  snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", name);
  int fi = find_field(s, path);
  if (fi < 0) {
    char list[512] = "";
    size_t n = 0;
    for (int i = 0; i < s->nfields && n < sizeof list; i++)
      if (!strncmp(s->fields[i].name, prefix, strlen(prefix)))
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
                              n ? ", " : "", s->fields[i].name);
    return fail(err, errsize, p->name, "struct '%s' has no field '%s' (its "
                "fields: %s)", s->name, path, list);
  }
  const kern_field_info *f = &s->fields[fi];
  if (f->kind == KERN_PARAM_ARRAY || f->kind == KERN_PARAM_INDEXED) {
    if (!arrays)
      return fail(err, errsize, p->name, "field '%s' is an array; arrays "
                  "of structs with array fields cannot be given to kern run",
                  path);
    if (f->type.kind == KERN_KIND_STRUCT)
      return fail(err, errsize, p->name, "field '%s' is an array of structs; "
                  "kern run cannot make those inside a struct (the C API "
                  "can: kern_struct_set_array)", path);
    if (arrays->n == SPEC_MAX_STRUCT_ARRAYS)
      return fail(err, errsize, p->name, "more than %d array fields",
                  SPEC_MAX_STRUCT_ARRAYS);
    kern_param_info ap;
    memset(&ap, 0, sizeof ap);
    ap.struct_size = sizeof ap;
    ap.name = arrays->names[arrays->n];
    snprintf(arrays->names[arrays->n], sizeof arrays->names[0], "%.60s.%.60s",
             p->name, path);
    ap.kind = f->kind;
    ap.type = f->type;
    ap.ndim = f->ndim;
    arrays->is_indexed[arrays->n] = f->kind == KERN_PARAM_INDEXED;
    if (f->kind == KERN_PARAM_INDEXED
            ? spec_parse_indexed(&ap, value, &arrays->hosts[arrays->n],
                                 &arrays->ix[arrays->n], err, errsize) != 0
            : spec_parse_array(&ap, value, &arrays->hosts[arrays->n], err,
                               errsize) != 0)
      return -1;
    arrays->offset[arrays->n] = f->offset;
    arrays->n++;
    return 0;
  }
  if (f->type.kind == KERN_KIND_STRUCT) {
    size_t vl = strlen(value);
    if (value[0] != '{' || vl < 2 || value[vl - 1] != '}')
      return fail(err, errsize, p->name, "field '%s' is a struct: give it "
                  "as {field=value,...}", path);
    return parse_items(p, s, path, value + 1, vl - 2, out, arrays, err,
                       errsize, depth + 1);
  }
  kern_param_info vp;
  memset(&vp, 0, sizeof vp);
  vp.struct_size = sizeof vp;
  char full[300];
  snprintf(full, sizeof full, "%s.%s", p->name, path);
  vp.name = full;
  vp.kind = KERN_PARAM_VALUE;
  vp.type = f->type;
  return spec_parse_value(&vp, value, out + f->offset, err, errsize);
}

static int parse_items(const kern_param_info *p, const spec_struct *s,
                       const char *prefix, const char *text, size_t len,
                       unsigned char *out, spec_struct_arrays *arrays,
                       char *err, size_t errsize, int depth) {
  if (depth > 16)
    return fail(err, errsize, p->name, "structs nested too deeply");
  char *buf = malloc(len + 1);
  if (!buf) return fail(err, errsize, p->name, "out of memory");
  memcpy(buf, text, len);
  buf[len] = '\0';
  const char *c = buf;
  while (isspace((unsigned char)*c)) c++;
  int rc = 0;
  while (*c && rc == 0) {
    const char *e = item_end(c);
    rc = parse_item(p, s, prefix, c, (size_t)(e - c), out, arrays, err,
                    errsize, depth);
    c = *e ? e + 1 : e;
    while (isspace((unsigned char)*c)) c++;
  }
  free(buf);
  return rc;
}

int spec_parse_struct(const kern_param_info *p, const spec_struct *s,
                      const char *text, void *out,
                      spec_struct_arrays *arrays, char *err,
                      size_t errsize) {
  /* S{...}: the struct's name may come first (a generic kernel's struct
   * argument says its type so, spec_generic.c), and must then be its own. */
  size_t nl = 0;
  while (isalnum((unsigned char)text[nl]) || text[nl] == '_' || text[nl] == '.')
    nl++;
  if (nl && text[nl] == '{') {
    const char *n = text, *dot = memchr(text, '.', nl);
    size_t len = nl;
    for (; dot; dot = memchr(n, '.', len)) {
      len -= (size_t)(dot + 1 - n);
      n = dot + 1;
    }
    if (strlen(s->name) != len || strncmp(n, s->name, len))
      return fail(err, errsize, p->name, "'%.*s' is not the parameter's "
                  "struct '%s'", (int)nl, text, s->name);
    text += nl;
  }
  size_t tl = strlen(text);
  memset(out, 0, s->size);
  if (tl < 2 || text[0] != '{' || text[tl - 1] != '}')
    return fail(err, errsize, p->name, "'%s' is not a struct SPEC; write "
                "{field=value,...} (struct '%s')", text, s->name);
  int depth = 0;
  for (const char *c = text; *c; c++) {
    depth += *c == '(' || *c == '{' || *c == '[';
    depth -= *c == ')' || *c == '}' || *c == ']';
    if (depth < 0) break;
  }
  if (depth != 0)
    return fail(err, errsize, p->name, "unbalanced brackets in '%s'", text);
  return parse_items(p, s, "", text + 1, tl - 2, out, arrays, err, errsize,
                     0);
}

/* ---------------------------------------------------------------- arrays */

static int load_records(const kern_param_info *p, const spec_struct *s,
                        const char *path, spec_array *out, char *err,
                        size_t errsize) {
  npy_array a;
  char why[512];
  if (npy_read(path, &a, why, sizeof why) != 0)
    return fail(err, errsize, p->name, "%s", why);
  const char *bad = NULL;
  char msg[512];
  if (!a.itemsize) {
    snprintf(msg, sizeof msg, "%s holds %s, not records of struct '%s' "
             "(save an array of Warp's %s.numpy_dtype())", path,
             npy_dtype_name(a.dtype), s->name, s->name);
    bad = msg;
  } else if (a.itemsize != s->size) {
    snprintf(msg, sizeof msg, "%s holds records of %zu bytes but struct "
             "'%s' has %zu", path, a.itemsize, s->name, s->size);
    bad = msg;
  } else if (a.ndim != p->ndim) {
    snprintf(msg, sizeof msg, "%s has %d dimension%s but the parameter has "
             "%d", path, a.ndim, a.ndim == 1 ? "" : "s", p->ndim);
    bad = msg;
  }
  for (int i = 0; !bad && i < s->nfields; i++) {
    const kern_field_info *f = &s->fields[i];
    if (f->kind != KERN_PARAM_VALUE) {
      snprintf(msg, sizeof msg, "field '%s' is an array; arrays of structs "
               "with array fields cannot come from a .npy file", f->name);
      bad = msg;
      break;
    }
    if (!is_value_field(f)) continue;
    int j = 0;
    while (j < a.nfields && strcmp(a.fields[j].name, f->name)) j++;
    if (j == a.nfields) {
      snprintf(msg, sizeof msg, "%s has no field '%s'", path, f->name);
      bad = msg;
    } else if (a.fields[j].offset != f->offset ||
               a.fields[j].dtype != f->type.scalar ||
               a.fields[j].count != components(f->type)) {
      char tn[64];
      snprintf(msg, sizeof msg, "field '%s' of %s is %d x %s at offset %zu "
               "but struct '%s' has %s at offset %zu", f->name, path,
               a.fields[j].count, npy_dtype_name(a.fields[j].dtype),
               a.fields[j].offset, s->name,
               kern_type_name(f->type, tn, sizeof tn), f->offset);
      bad = msg;
    }
  }
  if (bad) {
    npy_free(&a);
    return fail(err, errsize, p->name, "%s", bad);
  }
  for (int i = 0; i < p->ndim; i++) out->shape[i] = a.shape[i];
  out->type = p->type;
  out->ndim = p->ndim;
  out->data = a.data;
  out->nbytes = a.nbytes;
  free(a.fields);
  return 0;
}

int spec_parse_struct_array(const kern_param_info *p, const spec_struct *s,
                            const char *text, spec_array *out, char *err,
                            size_t errsize) {
  static const char *const gens[] = {"zeros", "ones", "arange", "rand"};
  memset(out, 0, sizeof *out);
  const char *paren = strchr(text, '(');
  size_t tl = strlen(text);
  int gen = -1;
  for (int g = 0; paren && g < 4; g++)
    if (strlen(gens[g]) == (size_t)(paren - text) &&
        !strncmp(text, gens[g], strlen(gens[g])))
      gen = g;
  if (gen < 0) {
    if (paren && access(text, F_OK) != 0)
      return fail(err, errsize, p->name, "'%s': an array of struct '%s' "
                  "takes zeros(%s,N..), ones(%s,N..), arange(%s,N), "
                  "rand(%s,N..[,seed=S]) or a .npy file of records", text,
                  s->name, s->name, s->name, s->name, s->name);
    return load_records(p, s, text, out, err, errsize);
  }
  if (text[tl - 1] != ')')
    return fail(err, errsize, p->name, "'%s' lacks the closing ')'", text);
  /* The element type is the struct's name; the rest is the plain
   * generator's grammar, run on a uint8 view for the shape. */
  char inner[512];
  size_t il = tl - (size_t)(paren - text) - 2;
  if (il >= sizeof inner)
    return fail(err, errsize, p->name, "SPEC '%.40s...' is too long", text);
  memcpy(inner, paren + 1, il);
  inner[il] = '\0';
  char *comma = strchr(inner, ',');
  size_t nl = comma ? (size_t)(comma - inner) : strlen(inner);
  if (nl != strlen(s->name) || strncmp(inner, s->name, nl))
    return fail(err, errsize, p->name, "'%s' makes elements of '%.*s' but "
                "the parameter holds struct '%s'", text, (int)nl, inner,
                s->name);
  if (!comma)
    return fail(err, errsize, p->name, "'%s' lacks a shape", text);
  /* shape and seed through the scalar generator: zeros(uint8,...) */
  char shape_spec[600];
  snprintf(shape_spec, sizeof shape_spec, "%s(uint8%s)",
           gen == 3 ? "rand" : gen == 2 ? "arange" : "zeros", comma);
  kern_param_info sp = *p;
  sp.type = (kern_type){KERN_KIND_SCALAR, KERN_SCALAR_UINT8, 1, 1};
  sp.struct_name = NULL;
  spec_array shape;
  if (spec_parse_array(&sp, shape_spec, &shape, err, errsize) != 0)
    return -1;
  size_t n = shape.nbytes;
  for (int i = 0; i < p->ndim; i++) out->shape[i] = shape.shape[i];
  spec_array_free(&shape);
  if (n && s->size > SIZE_MAX / n)
    return fail(err, errsize, p->name, "shape is too large");
  out->type = p->type;
  out->ndim = p->ndim;
  out->nbytes = n * s->size;
  out->data = calloc(1, out->nbytes ? out->nbytes : 1);
  if (!out->data)
    return fail(err, errsize, p->name, "out of memory for %zu bytes",
                out->nbytes);
  uint64_t seed = 0;
  const char *sd = strstr(inner, "seed");
  if (gen == 3 && sd) seed = strtoull(strchr(sd, '=') + 1, NULL, 0);
  uint64_t counter = 0, state = seed;
  unsigned char *d = out->data;
  for (size_t e = 0; e < n && gen > 0; e++) {
    for (int i = 0; i < s->nfields; i++) {
      const kern_field_info *f = &s->fields[i];
      if (f->kind != KERN_PARAM_VALUE) {
        spec_array_free(out);
        return fail(err, errsize, p->name, "field '%s' is an array; arrays "
                    "of structs with array fields cannot be given to kern "
                    "run", f->name);
      }
      if (!is_value_field(f)) continue;
      kern_scalar sc = f->type.scalar;
      size_t ss = kern_scalar_size(sc);
      for (int c = 0; c < components(f->type); c++) {
        void *at = d + e * s->size + f->offset + (size_t)c * ss;
        if (gen == 1)
          spec_store_int(sc, at, 1);
        else if (gen == 2)
          spec_store_int(sc, at, counter++);
        else
          spec_store_random(sc, at, &state);
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- output */

static int put(char **b, size_t *len, size_t *cap, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(*b + *len, *cap - *len, fmt, ap);
    va_end(ap);
    if (n < 0) return -1;
    if ((size_t)n < *cap - *len) {
      *len += (size_t)n;
      return 0;
    }
    char *nb = realloc(*b, *cap * 2 + (size_t)n);
    if (!nb) return -1;
    *b = nb;
    *cap = *cap * 2 + (size_t)n;
  }
}

/* The descr list of the fields at depth `depth` from *i on, spanning
 * [base, base + size): NumPy's packed form with void padding (Note
 * [structured descr] in npy.c). */
static int descr_of(const spec_struct *s, int *i, int depth, size_t base,
                    size_t size, char **b, size_t *len, size_t *cap) {
  size_t pos = base;
  int first = 1;
  if (put(b, len, cap, "[")) return -1;
  while (*i < s->nfields && s->fields[*i].depth == depth) {
    const kern_field_info *f = &s->fields[(*i)++];
    const char *leaf = strrchr(f->name, '.');
    leaf = leaf ? leaf + 1 : f->name;
    if (f->offset > pos &&
        put(b, len, cap, "%s('', '|V%zu')", first ? "" : ", ", f->offset - pos))
      return -1;
    if (f->offset > pos) first = 0;
    if (put(b, len, cap, "%s('%s', ", first ? "" : ", ", leaf)) return -1;
    first = 0;
    if (f->type.kind == KERN_KIND_STRUCT) {
      if (descr_of(s, i, depth + 1, f->offset, f->size, b, len, cap))
        return -1;
      if (put(b, len, cap, ")")) return -1;
    } else if (f->kind == KERN_PARAM_ARRAY) {
      if (put(b, len, cap, "[('data', '<u8'), ('grad', '<u8'), ('shape', "
              "'<i4', (4,)), ('strides', '<i4', (4,)), ('ndim', '<u2'), "
              "('flags', '<u2'), ('', '|V4')])"))
        return -1;
    } else if (f->kind == KERN_PARAM_INDEXED) { /* Warp's indexedarray_t */
      if (put(b, len, cap, "[('data', [('data', '<u8'), ('grad', '<u8'), "
              "('shape', '<i4', (4,)), ('strides', '<i4', (4,)), ('ndim', "
              "'<u2'), ('flags', '<u2'), ('', '|V4')]), ('indices', '<u8', "
              "(4,)), ('shape', '<i4', (4,))])"))
        return -1;
    } else if (f->type.kind == KERN_KIND_SCALAR) {
      if (put(b, len, cap, "'%s')", npy_dtype_descr(f->type.scalar)))
        return -1;
    } else if (f->type.kind == KERN_KIND_VECTOR) {
      if (put(b, len, cap, "'%s', (%d,))", npy_dtype_descr(f->type.scalar),
              f->type.rows))
        return -1;
    } else if (put(b, len, cap, "'%s', (%d, %d))",
                   npy_dtype_descr(f->type.scalar), f->type.rows,
                   f->type.cols)) {
      return -1;
    }
    pos = f->offset + f->size;
  }
  if (pos < base + size &&
      put(b, len, cap, "%s('', '|V%zu')", first ? "" : ", ", base + size - pos))
    return -1;
  return put(b, len, cap, "]");
}

char *spec_struct_descr(const spec_struct *s) {
  size_t cap = 256, len = 0;
  char *b = malloc(cap);
  int i = 0;
  if (!b || descr_of(s, &i, 0, 0, s->size, &b, &len, &cap) != 0) {
    free(b);
    return NULL;
  }
  return b;
}

/* One element as a tuple of its fields, nested structs as tuples and
 * vectors and matrices as lists, as NumPy prints a record. */
static void print_fields(FILE *fp, const spec_struct *s, int *i, int depth,
                         const unsigned char *rec) {
  int first = 1;
  fputc('(', fp);
  while (*i < s->nfields && s->fields[*i].depth == depth) {
    const kern_field_info *f = &s->fields[(*i)++];
    if (!first) fputs(", ", fp);
    first = 0;
    if (f->type.kind == KERN_KIND_STRUCT) {
      print_fields(fp, s, i, depth + 1, rec);
      continue;
    }
    if (f->kind != KERN_PARAM_VALUE) {
      fputs("<array>", fp);
      continue;
    }
    int n = components(f->type);
    size_t ss = kern_scalar_size(f->type.scalar);
    if (n > 1) fputc('[', fp);
    for (int c = 0; c < n; c++) {
      char txt[64];
      spec_format_scalar(f->type.scalar, rec + f->offset + (size_t)c * ss,
                         txt, sizeof txt);
      fprintf(fp, "%s%s", c ? ", " : "", txt);
    }
    if (n > 1) fputc(']', fp);
  }
  fputc(')', fp);
}

void spec_print_struct_array(FILE *fp, const char *prefix,
                             const spec_struct *s, const spec_array *a) {
  size_t n = s->size ? a->nbytes / s->size : 0;
  fprintf(fp, "%s[", prefix);
  for (size_t e = 0; e < n; e++) {
    int i = 0;
    if (e) fprintf(fp, ",\n%*s", (int)strlen(prefix) + 1, "");
    print_fields(fp, s, &i, 0, (const unsigned char *)a->data + e * s->size);
  }
  fputs("]\n", fp);
}
