/*
 * json.c -- the JSON that kern bench writes and reads back.
 *
 * kern bench writes its results as JSON (--json) and reads them again for
 * --compare, and the test suite validates that output against the schema in
 * docs/bench-schema.json.  kern has no dependencies, so this is a small
 * complete parser (RFC 8259 minus \u escapes beyond Latin-1, which kern
 * never writes), a writer that only places commas and indentation, and a
 * validator for the part of JSON Schema the schema file uses.
 */
#include "bench.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- parser */

typedef struct jp {
  const char *p, *start;
  char *err;
  size_t errsize;
  int depth;
} jp;

static int jp_fail(jp *j, const char *msg) {
  int line = 1;
  for (const char *q = j->start; q < j->p; q++) line += *q == '\n';
  snprintf(j->err, j->errsize, "line %d: %s", line, msg);
  return -1;
}

static void jp_ws(jp *j) {
  while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
    j->p++;
}

static int jp_string(jp *j, char **out) {
  size_t cap = 16, n = 0;
  char *s = malloc(cap);
  if (!s) return jp_fail(j, "out of memory");
  j->p++; /* the opening quote */
  for (;;) {
    char ch = *j->p++;
    if (ch == '\0') { free(s); j->p--; return jp_fail(j, "unterminated string"); }
    if (ch == '"') break;
    if (ch == '\\') {
      char e = *j->p++;
      switch (e) {
      case 'n': ch = '\n'; break;
      case 't': ch = '\t'; break;
      case 'r': ch = '\r'; break;
      case 'b': ch = '\b'; break;
      case 'f': ch = '\f'; break;
      case '/': case '\\': case '"': ch = e; break;
      case 'u': {
        unsigned v = 0;
        for (int k = 0; k < 4; k++) {
          char h = *j->p++;
          if (!isxdigit((unsigned char)h)) { free(s); return jp_fail(j, "bad \\u escape"); }
          v = v * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower(h) - 'a' + 10));
        }
        ch = v < 128 ? (char)v : '?';
        break;
      }
      default: free(s); return jp_fail(j, "bad escape in string");
      }
    }
    if (n + 2 > cap) {
      char *t = realloc(s, cap *= 2);
      if (!t) { free(s); return jp_fail(j, "out of memory"); }
      s = t;
    }
    s[n++] = ch;
  }
  s[n] = '\0';
  *out = s;
  return 0;
}

static int jp_value(jp *j, bench_json *v);

static int jp_push(jp *j, bench_json *v, int *cap) {
  if (v->n == *cap) {
    int c = *cap ? *cap * 2 : 8;
    bench_json *it = realloc(v->items, (size_t)c * sizeof *it);
    if (!it) return jp_fail(j, "out of memory");
    v->items = it;
    if (v->type == BJ_OBJ) {
      char **k = realloc(v->keys, (size_t)c * sizeof *k);
      if (!k) return jp_fail(j, "out of memory");
      v->keys = k;
    }
    *cap = c;
  }
  memset(&v->items[v->n], 0, sizeof v->items[0]);
  return 0;
}

static int jp_value(jp *j, bench_json *v) {
  memset(v, 0, sizeof *v);
  jp_ws(j);
  if (++j->depth > 64) return jp_fail(j, "nested too deeply");
  int rc = 0;
  char ch = *j->p;
  if (ch == '{' || ch == '[') {
    int obj = ch == '{', cap = 0;
    char close = obj ? '}' : ']';
    v->type = obj ? BJ_OBJ : BJ_ARR;
    j->p++;
    jp_ws(j);
    if (*j->p == close) { j->p++; j->depth--; return 0; }
    for (;;) {
      if (jp_push(j, v, &cap)) return -1;
      if (obj) {
        jp_ws(j);
        if (*j->p != '"') return jp_fail(j, "expected a key string");
        v->keys[v->n] = NULL;
        if (jp_string(j, &v->keys[v->n])) return -1;
        jp_ws(j);
        if (*j->p != ':') { v->n++; return jp_fail(j, "expected ':'"); }
        j->p++;
      }
      rc = jp_value(j, &v->items[v->n]);
      v->n++;
      if (rc) return -1;
      jp_ws(j);
      if (*j->p == ',') { j->p++; continue; }
      if (*j->p == close) { j->p++; break; }
      return jp_fail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
  } else if (ch == '"') {
    v->type = BJ_STR;
    rc = jp_string(j, &v->str);
  } else if (strncmp(j->p, "true", 4) == 0) {
    v->type = BJ_BOOL, v->num = 1, j->p += 4;
  } else if (strncmp(j->p, "false", 5) == 0) {
    v->type = BJ_BOOL, j->p += 5;
  } else if (strncmp(j->p, "null", 4) == 0) {
    v->type = BJ_NULL, j->p += 4;
  } else if (ch == '-' || isdigit((unsigned char)ch)) {
    char *end;
    v->type = BJ_NUM;
    v->num = strtod(j->p, &end);
    if (end == j->p) return jp_fail(j, "bad number");
    j->p = end;
  } else {
    return jp_fail(j, "expected a value");
  }
  j->depth--;
  return rc;
}

int bench_json_parse(const char *text, bench_json *out, char *err,
                     size_t errsize) {
  jp j = {text, text, err, errsize, 0};
  if (jp_value(&j, out)) {
    bench_json_free(out);
    return -1;
  }
  jp_ws(&j);
  if (*j.p) {
    jp_fail(&j, "text after the value");
    bench_json_free(out);
    return -1;
  }
  return 0;
}

const bench_json *bench_json_get(const bench_json *obj, const char *key) {
  if (!obj || obj->type != BJ_OBJ) return NULL;
  for (int i = 0; i < obj->n; i++)
    if (obj->keys[i] && strcmp(obj->keys[i], key) == 0) return &obj->items[i];
  return NULL;
}

void bench_json_free(bench_json *j) {
  if (!j) return;
  for (int i = 0; i < j->n; i++) {
    bench_json_free(&j->items[i]);
    if (j->keys) free(j->keys[i]);
  }
  free(j->items);
  free(j->keys);
  free(j->str);
  memset(j, 0, sizeof *j);
}

/* ---------------------------------------------------------------- validator */

static int type_matches(const char *t, const bench_json *v) {
  if (strcmp(t, "object") == 0) return v->type == BJ_OBJ;
  if (strcmp(t, "array") == 0) return v->type == BJ_ARR;
  if (strcmp(t, "string") == 0) return v->type == BJ_STR;
  if (strcmp(t, "number") == 0) return v->type == BJ_NUM;
  if (strcmp(t, "integer") == 0)
    return v->type == BJ_NUM && v->num == floor(v->num);
  if (strcmp(t, "boolean") == 0) return v->type == BJ_BOOL;
  if (strcmp(t, "null") == 0) return v->type == BJ_NULL;
  return 0;
}

static int jv_fail(char *err, size_t errsize, const char *path,
                   const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(err, errsize, "%s: %s", path[0] ? path : "$", msg);
  return -1;
}

/* Resolves "#/a/b" against the schema's root. */
static const bench_json *resolve_ref(const bench_json *root, const char *ref) {
  if (strncmp(ref, "#/", 2) != 0) return NULL;
  const bench_json *cur = root;
  char part[128];
  for (const char *p = ref + 2; cur && *p;) {
    const char *e = strchr(p, '/');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l >= sizeof part) return NULL;
    memcpy(part, p, l);
    part[l] = '\0';
    cur = bench_json_get(cur, part);
    p = e ? e + 1 : p + l;
  }
  return cur;
}

static int validate(const bench_json *root, const bench_json *sc,
                    const bench_json *v, char *path, size_t plen, char *err,
                    size_t errsize) {
  const bench_json *ref = bench_json_get(sc, "$ref");
  if (ref && ref->type == BJ_STR) {
    const bench_json *target = resolve_ref(root, ref->str);
    if (!target)
      return jv_fail(err, errsize, path, "schema $ref '%s' not found", ref->str);
    sc = target;
  }
  const bench_json *t = bench_json_get(sc, "type");
  if (t) {
    int ok = 0;
    if (t->type == BJ_STR) ok = type_matches(t->str, v);
    else if (t->type == BJ_ARR)
      for (int i = 0; i < t->n; i++)
        ok |= t->items[i].type == BJ_STR && type_matches(t->items[i].str, v);
    if (!ok) return jv_fail(err, errsize, path, "wrong type");
  }
  const bench_json *en = bench_json_get(sc, "enum");
  if (en && en->type == BJ_ARR) {
    int ok = 0;
    for (int i = 0; i < en->n; i++) {
      const bench_json *e = &en->items[i];
      if (e->type == BJ_STR && v->type == BJ_STR && strcmp(e->str, v->str) == 0) ok = 1;
      if (e->type == BJ_NUM && v->type == BJ_NUM && e->num == v->num) ok = 1;
    }
    if (!ok)
      return jv_fail(err, errsize, path, "'%s' is not one of the allowed values",
                     v->type == BJ_STR ? v->str : "(value)");
  }
  const bench_json *mn = bench_json_get(sc, "minimum");
  if (mn && v->type == BJ_NUM && v->num < mn->num)
    return jv_fail(err, errsize, path, "%g is below the minimum %g", v->num, mn->num);
  if (v->type == BJ_OBJ) {
    const bench_json *req = bench_json_get(sc, "required");
    for (int i = 0; req && i < req->n; i++)
      if (req->items[i].type == BJ_STR && !bench_json_get(v, req->items[i].str))
        return jv_fail(err, errsize, path, "missing required key '%s'",
                       req->items[i].str);
    const bench_json *props = bench_json_get(sc, "properties");
    const bench_json *addl = bench_json_get(sc, "additionalProperties");
    for (int i = 0; i < v->n; i++) {
      const bench_json *ps = bench_json_get(props, v->keys[i]);
      size_t n = strlen(path);
      snprintf(path + n, plen - n, ".%s", v->keys[i]);
      int rc = 0;
      if (ps) rc = validate(root, ps, &v->items[i], path, plen, err, errsize);
      else if (addl && addl->type == BJ_BOOL && !addl->num)
        rc = jv_fail(err, errsize, path, "key not allowed by the schema");
      path[n] = '\0';
      if (rc) return rc;
    }
  }
  if (v->type == BJ_ARR) {
    const bench_json *items = bench_json_get(sc, "items");
    for (int i = 0; items && i < v->n; i++) {
      size_t n = strlen(path);
      snprintf(path + n, plen - n, "[%d]", i);
      int rc = validate(root, items, &v->items[i], path, plen, err, errsize);
      path[n] = '\0';
      if (rc) return rc;
    }
  }
  return 0;
}

int bench_json_validate(const bench_json *schema, const bench_json *v,
                        char *err, size_t errsize) {
  char path[512] = "";
  return validate(schema, schema, v, path, sizeof path, err, errsize);
}

/* ---------------------------------------------------------------- writer */

void bench_jw_begin(bench_jw *w, FILE *f) {
  memset(w, 0, sizeof *w);
  w->f = f;
  w->first[0] = 1;
}

static void jw_key(bench_jw *w, const char *key) {
  if (w->depth > 0) {
    fputs(w->first[w->depth] ? "\n" : ",\n", w->f);
    fprintf(w->f, "%*s", 2 * w->depth, "");
  }
  w->first[w->depth] = 0;
  if (key) {
    fputc('"', w->f);
    fputs(key, w->f);
    fputs("\": ", w->f);
  }
}

static void jw_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch == '\n') fputs("\\n", f);
    else if (ch == '\t') fputs("\\t", f);
    else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}

static void jw_open(bench_jw *w, const char *key, char ch) {
  jw_key(w, key);
  fputc(ch, w->f);
  if (w->depth < 31) w->depth++;
  w->first[w->depth] = 1;
}

static void jw_close(bench_jw *w, char ch) {
  int empty = w->first[w->depth];
  w->depth--;
  if (!empty) fprintf(w->f, "\n%*s", 2 * w->depth, "");
  fputc(ch, w->f);
  if (w->depth == 0) fputc('\n', w->f);
}

void bench_jw_obj(bench_jw *w, const char *key) { jw_open(w, key, '{'); }
void bench_jw_arr(bench_jw *w, const char *key) { jw_open(w, key, '['); }
void bench_jw_end_obj(bench_jw *w) { jw_close(w, '}'); }
void bench_jw_end_arr(bench_jw *w) { jw_close(w, ']'); }

void bench_jw_str(bench_jw *w, const char *key, const char *v) {
  jw_key(w, key);
  if (v) jw_string(w->f, v);
  else fputs("null", w->f);
}

void bench_jw_num(bench_jw *w, const char *key, double v) {
  jw_key(w, key);
  if (isfinite(v)) fprintf(w->f, "%.9g", v);
  else fputs("null", w->f);
}

void bench_jw_int(bench_jw *w, const char *key, int64_t v) {
  jw_key(w, key);
  fprintf(w->f, "%lld", (long long)v);
}

void bench_jw_bool(bench_jw *w, const char *key, int v) {
  jw_key(w, key);
  fputs(v ? "true" : "false", w->f);
}
