/*
 * spec_indexed.c -- the SPEC of a wp.indexedarray parameter for kern run:
 *
 *   indexed(DATA[;IDX0[;IDX1...]])
 *
 * DATA is an array SPEC of the parameter's element type and dimensions
 * (zeros(...), arange(...), PATH.npy, ...).  Each IDX, one per dimension
 * from the first, is the index array of that dimension: `:` for none (the
 * dimension is not remapped), a list of integers in brackets (`[2,0,1]`),
 * or an array SPEC of a 1-d int32 array (`arange(int32,4)`, `idx.npy`).
 * Dimensions after the last IDX have none.  Which index values are valid
 * is the kernel's business, as in Warp (debug mode checks them).
 * ';' separates the parts because the array SPECs use ','.
 */
#include <stdlib.h>
#include <string.h>

#include "spec.h"

void spec_indexed_free(spec_indexed *s) {
  for (int k = 0; k < KERN_MAX_DIMS; k++)
    if (s->has[k]) spec_array_free(&s->idx[k]);
  memset(s, 0, sizeof *s);
}

static int fail(char *err, size_t errsize, const kern_param_info *p,
                const char *msg, const char *what) {
  snprintf(err, errsize, "parameter '%s' (indexed array): %s%s", p->name,
           msg, what ? what : "");
  return -1;
}

/* "[2,0,1]" into a 1-d int32 host array. */
static int parse_list(const kern_param_info *p, const char *t, spec_array *out,
                      char *err, size_t errsize) {
  size_t n = 0;
  int32_t *v = malloc(strlen(t) * sizeof *v + sizeof *v);
  if (!v) return fail(err, errsize, p, "out of memory", NULL);
  const char *c = t + 1;
  while (*c && *c != ']') {
    char *end;
    long x = strtol(c, &end, 0);
    if (end == c || x < INT32_MIN || x > INT32_MAX) {
      free(v);
      return fail(err, errsize, p, "an index list takes int32 values: ", t);
    }
    v[n++] = (int32_t)x;
    c = end;
    while (*c == ' ') c++;
    if (*c == ',') c++;
    while (*c == ' ') c++;
  }
  if (*c != ']' || c[1]) {
    free(v);
    return fail(err, errsize, p, "an index list is [i,j,...]: ", t);
  }
  memset(out, 0, sizeof *out);
  out->type = (kern_type){KERN_KIND_SCALAR, KERN_SCALAR_INT32, 1, 1};
  out->ndim = 1;
  out->shape[0] = (int64_t)n;
  out->data = v;
  out->nbytes = n * sizeof *v;
  return 0;
}

int spec_parse_indexed(const kern_param_info *p, const char *text,
                       spec_array *data, spec_indexed *out, char *err,
                       size_t errsize) {
  memset(out, 0, sizeof *out);
  memset(data, 0, sizeof *data);
  size_t tl = strlen(text);
  if (tl < 10 || strncmp(text, "indexed(", 8) || text[tl - 1] != ')')
    return fail(err, errsize, p,
                "the SPEC is indexed(DATA[;IDX0[;IDX1...]]) with DATA an "
                "array SPEC and each IDX ':', [i,j,...] or an int32 array "
                "SPEC; got ", text);
  char *inner = malloc(tl);
  if (!inner) return fail(err, errsize, p, "out of memory", NULL);
  memcpy(inner, text + 8, tl - 9);
  inner[tl - 9] = '\0';
  char *parts[1 + KERN_MAX_DIMS + 1];
  int n = 0;
  for (char *s = inner; n < (int)(sizeof parts / sizeof *parts);) {
    parts[n++] = s;
    char *semi = strchr(s, ';');
    if (!semi) break;
    *semi = '\0';
    s = semi + 1;
  }
  int rc = 0;
  if (n - 1 > p->ndim) {
    char what[96];
    snprintf(what, sizeof what, "%d index arrays for %d dimension%s", n - 1,
             p->ndim, p->ndim == 1 ? "" : "s");
    rc = fail(err, errsize, p, "", what);
  }
  kern_param_info dp = *p;
  dp.kind = KERN_PARAM_ARRAY;
  if (!rc) rc = spec_parse_array(&dp, parts[0], data, err, errsize);
  kern_param_info ip = *p;
  ip.kind = KERN_PARAM_ARRAY;
  ip.type = (kern_type){KERN_KIND_SCALAR, KERN_SCALAR_INT32, 1, 1};
  ip.ndim = 1;
  ip.struct_name = NULL;
  for (int k = 0; !rc && k + 1 < n; k++) {
    const char *t = parts[k + 1];
    while (*t == ' ') t++;
    if (!strcmp(t, ":")) continue;
    rc = t[0] == '[' ? parse_list(p, t, &out->idx[k], err, errsize)
                     : spec_parse_array(&ip, t, &out->idx[k], err, errsize);
    if (!rc) out->has[k] = 1;
  }
  free(inner);
  if (rc) {
    spec_indexed_free(out);
    spec_array_free(data);
  }
  return rc;
}
