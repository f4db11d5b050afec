/*
 * spec.c -- bench specs: comment lines in a kernel file.
 *
 * A spec lives in the kernel file itself, so the benchmark travels with the
 * kernel and real Warp, which sees only comments, is not disturbed.  One
 * block starts at a `# kern-bench:` line and takes the `# kern-bench-*:`
 * lines after it (docs/bench.md is the reference):
 *
 *   spec   -> '# kern-bench:' KERNEL '--dim' DIMS ['--block-dim' N] ['--tiled']
 *             { NAME '=' SPEC }
 *   sizes  -> '# kern-bench-sizes:' { NAME '=' int { ',' int } }
 *   check  -> '# kern-bench-check:' NAME [ 'rtol=' num ] [ 'atol=' num ]
 *   count  -> '# kern-bench-count:' [ 'bytes=' expr ] [ 'flops=' expr ]
 *   ref    -> '# kern-bench-ref:' LIB ':' OUTPUT '=' python-expression
 *
 * SPEC is exactly `kern run`'s argument grammar (src/cli/spec.c), in which a
 * size name stands for its value: rand(float64,N,seed=3).  Several values
 * of a size make a sweep; sizes with one value hold at every point.
 *
 * Everything that can be checked without a device is checked here, and
 * every error points at the line and column of the offending text, so a
 * spec is fixed in the editor rather than discovered broken at run time.
 */
#include "bench.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct cursor {
  const char *path;
  const char *line;   /* start of the current line */
  size_t len;         /* its length without the newline */
  int lineno;
  char *err;
  size_t errsize;
} cursor;

/* Writes "path:line:col: error: message", the line and a caret. */
static int fail_at(cursor *c, const char *at, const char *fmt, ...) {
  int col = (int)(at - c->line) + 1;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int n = (int)c->len;
  snprintf(c->err, c->errsize, "%s:%d:%d: error: %s\n %.*s\n %*s^", c->path,
           c->lineno, col, msg, n, c->line, col - 1, "");
  return -1;
}

static int is_ident_start(int ch) { return isalpha(ch) || ch == '_'; }
static int is_ident(int ch) { return isalnum(ch) || ch == '_'; }

static const char *skip_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

/* The next space-separated word: [*b, *e). */
static int next_word(const char **p, const char *end, const char **b,
                     const char **e) {
  const char *q = skip_space(*p, end);
  if (q == end) return 0;
  *b = q;
  while (q < end && *q != ' ' && *q != '\t') q++;
  *e = q;
  *p = q;
  return 1;
}

static int copy_word(cursor *c, const char *b, const char *e, char *out,
                     size_t size, const char *what) {
  if ((size_t)(e - b) >= size)
    return fail_at(c, b, "%s is too long (at most %zu characters)", what,
                   size - 1);
  memcpy(out, b, (size_t)(e - b));
  out[e - b] = '\0';
  return 0;
}

static int ident_len(const char *b, const char *e) {
  if (b == e || !is_ident_start((unsigned char)*b)) return 0;
  const char *q = b;
  while (q < e && is_ident((unsigned char)*q)) q++;
  return (int)(q - b);
}

static int find_var(const bench_spec *s, const char *name, size_t len) {
  for (int v = 0; v < s->nvars; v++)
    if (strlen(s->var[v]) == len && strncmp(s->var[v], name, len) == 0)
      return v;
  return -1;
}

static int parse_int(const char *b, const char *e, int64_t *out);

/* spec -> '# kern-bench:' KERNEL '--dim' DIMS ['--block-dim' N] ['--tiled']
 *         { NAME '=' SPEC } */
static int parse_spec_line(cursor *c, const char *p, const char *end,
                           bench_spec *s) {
  const char *b, *e;
  s->line = c->lineno;
  if (!next_word(&p, end, &b, &e))
    return fail_at(c, p, "expected a kernel name after 'kern-bench:'");
  if (ident_len(b, e) != (int)(e - b))
    return fail_at(c, b, "'%.*s' is not a kernel name", (int)(e - b), b);
  if (copy_word(c, b, e, s->kernel, sizeof s->kernel, "kernel name")) return -1;
  int have_dim = 0;
  while (next_word(&p, end, &b, &e)) {
    if ((size_t)(e - b) == 5 && strncmp(b, "--dim", 5) == 0) {
      if (!next_word(&p, end, &b, &e))
        return fail_at(c, p, "'--dim' needs a value: --dim N or --dim N,M");
      if (copy_word(c, b, e, s->dims, sizeof s->dims, "--dim")) return -1;
      s->dims_line = c->lineno;
      s->dims_col = (int)(b - c->line) + 1;
      have_dim = 1;
      continue;
    }
    if ((size_t)(e - b) == 7 && strncmp(b, "--tiled", 7) == 0) {
      s->tiled = 1;
      continue;
    }
    if ((size_t)(e - b) == 11 && strncmp(b, "--block-dim", 11) == 0) {
      if (!next_word(&p, end, &b, &e))
        return fail_at(c, p, "'--block-dim' needs a value: --block-dim N");
      int64_t n;
      if (parse_int(b, e, &n) || n < 1 || n > 1024)
        return fail_at(c, b, "--block-dim '%.*s' is not an integer from 1 "
                       "to 1024", (int)(e - b), b);
      s->block_dim = (int)n;
      continue;
    }
    if (b[0] == '-')
      return fail_at(c, b, "unknown option '%.*s' (a spec takes --dim, "
                     "--block-dim, --tiled and NAME=SPEC)", (int)(e - b), b);
    const char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq)
      return fail_at(c, b, "expected NAME=SPEC, got '%.*s'", (int)(e - b), b);
    int il = ident_len(b, eq);
    if (il == 0 || b + il != eq)
      return fail_at(c, b, "'%.*s' is not a parameter name", (int)(eq - b), b);
    if (eq + 1 == e) return fail_at(c, eq + 1, "missing SPEC after '='");
    if (s->nargs == BENCH_MAX_ARGS)
      return fail_at(c, b, "more than %d arguments", BENCH_MAX_ARGS);
    for (int a = 0; a < s->nargs; a++)
      if (strlen(s->args[a].name) == (size_t)il &&
          strncmp(s->args[a].name, b, (size_t)il) == 0)
        return fail_at(c, b, "parameter '%.*s' is given twice", il, b);
    bench_arg *a = &s->args[s->nargs++];
    if (copy_word(c, b, eq, a->name, sizeof a->name, "parameter name") ||
        copy_word(c, eq + 1, e, a->text, sizeof a->text, "SPEC"))
      return -1;
    a->line = c->lineno;
    a->col = (int)(eq + 1 - c->line) + 1;
  }
  if (!have_dim)
    return fail_at(c, end, "missing '--dim N' (the launch dimensions)");
  return 0;
}

static int parse_int(const char *b, const char *e, int64_t *out) {
  if (b == e || (size_t)(e - b) > 19) return -1;
  int64_t v = 0;
  for (const char *q = b; q < e; q++) {
    if (!isdigit((unsigned char)*q)) return -1;
    v = v * 10 + (*q - '0');
  }
  *out = v;
  return 0;
}

/* sizes -> '# kern-bench-sizes:' { NAME '=' int { ',' int } } */
static int parse_sizes_line(cursor *c, const char *p, const char *end,
                            bench_spec *s) {
  const char *b, *e;
  int any = 0;
  while (next_word(&p, end, &b, &e)) {
    any = 1;
    const char *eq = memchr(b, '=', (size_t)(e - b));
    int il = ident_len(b, eq ? eq : e);
    if (!eq || il == 0 || b + il != eq)
      return fail_at(c, b, "expected NAME=VALUE[,VALUE...], got '%.*s'",
                     (int)(e - b), b);
    if (find_var(s, b, (size_t)il) >= 0)
      return fail_at(c, b, "size '%.*s' is given twice", il, b);
    if (s->nvars == BENCH_MAX_VARS)
      return fail_at(c, b, "more than %d sizes", BENCH_MAX_VARS);
    int v = s->nvars;
    if (copy_word(c, b, eq, s->var[v], sizeof s->var[v], "size name"))
      return -1;
    int n = 0;
    const char *q = eq + 1;
    for (;;) {
      const char *comma = memchr(q, ',', (size_t)(e - q));
      const char *ve = comma ? comma : e;
      int64_t x;
      if (parse_int(q, ve, &x) || x <= 0)
        return fail_at(c, q, "'%.*s' is not a positive integer",
                       (int)(ve - q), q);
      if (n == BENCH_MAX_SWEEP)
        return fail_at(c, q, "more than %d values", BENCH_MAX_SWEEP);
      s->val[v][n++] = x;
      if (!comma) break;
      q = comma + 1;
    }
    if (s->npoints > 1 && n > 1 && n != s->npoints)
      return fail_at(c, b, "size '%s' has %d values where another has %d "
                     "(sizes of a sweep have one value or the same number)",
                     s->var[v], n, s->npoints);
    /* A one-value size holds at every point: spread it now. */
    for (int i = n; i < BENCH_MAX_SWEEP; i++) s->val[v][i] = s->val[v][n - 1];
    if (n > s->npoints) {
      for (int w = 0; w < v; w++)
        for (int i = 1; i < BENCH_MAX_SWEEP; i++) s->val[w][i] = s->val[w][0];
      s->npoints = n;
    }
    s->nvars++;
  }
  if (!any) return fail_at(c, p, "expected NAME=VALUE after 'kern-bench-sizes:'");
  return 0;
}

static int parse_number(const char *b, const char *e, double *out) {
  char buf[64];
  if (b == e || (size_t)(e - b) >= sizeof buf) return -1;
  memcpy(buf, b, (size_t)(e - b));
  buf[e - b] = '\0';
  char *end;
  errno = 0;
  double v = strtod(buf, &end);
  if (*end || errno || !(v >= 0) || isinf(v)) return -1;
  *out = v;
  return 0;
}

static int find_arg(const bench_spec *s, const char *b, size_t n) {
  for (int a = 0; a < s->nargs; a++)
    if (strlen(s->args[a].name) == n && strncmp(s->args[a].name, b, n) == 0)
      return a;
  return -1;
}

/* check -> '# kern-bench-check:' NAME [ 'rtol=' num ] [ 'atol=' num ] */
static int parse_check_line(cursor *c, const char *p, const char *end,
                            bench_spec *s) {
  const char *b, *e;
  if (!next_word(&p, end, &b, &e))
    return fail_at(c, p, "expected the name of an output to check");
  if (find_arg(s, b, (size_t)(e - b)) < 0)
    return fail_at(c, b, "'%.*s' is not an argument of the spec",
                   (int)(e - b), b);
  for (int k = 0; k < s->nchecks; k++)
    if (strlen(s->checks[k].name) == (size_t)(e - b) &&
        strncmp(s->checks[k].name, b, (size_t)(e - b)) == 0)
      return fail_at(c, b, "'%.*s' is checked twice", (int)(e - b), b);
  if (s->nchecks == BENCH_MAX_CHECKS)
    return fail_at(c, b, "more than %d checked outputs", BENCH_MAX_CHECKS);
  bench_check *k = &s->checks[s->nchecks];
  if (copy_word(c, b, e, k->name, sizeof k->name, "output name")) return -1;
  k->rtol = k->atol = -1;
  while (next_word(&p, end, &b, &e)) {
    double *dst = NULL;
    if (e - b > 5 && strncmp(b, "rtol=", 5) == 0) dst = &k->rtol;
    else if (e - b > 5 && strncmp(b, "atol=", 5) == 0) dst = &k->atol;
    else return fail_at(c, b, "expected rtol=R or atol=A, got '%.*s'",
                        (int)(e - b), b);
    if (parse_number(b + 5, e, dst))
      return fail_at(c, b + 5, "'%.*s' is not a non-negative number",
                     (int)(e - b - 5), b + 5);
  }
  s->nchecks++;
  return 0;
}

/* count -> '# kern-bench-count:' [ 'bytes=' expr ] [ 'flops=' expr ] */
static int parse_count_line(cursor *c, const char *p, const char *end,
                            bench_spec *s) {
  const char *b, *e;
  int any = 0;
  while (next_word(&p, end, &b, &e)) {
    char *dst;
    size_t skip;
    if (e - b > 6 && strncmp(b, "bytes=", 6) == 0) dst = s->bytes_expr, skip = 6;
    else if (e - b > 6 && strncmp(b, "flops=", 6) == 0) dst = s->flops_expr, skip = 6;
    else return fail_at(c, b, "expected bytes=EXPR or flops=EXPR (no spaces "
                        "inside EXPR), got '%.*s'", (int)(e - b), b);
    if (copy_word(c, b + skip, e, dst, 128, "expression")) return -1;
    /* fail_at needs the position inside the line, so evaluate in place. */
    char tmp[128];
    memcpy(tmp, dst, sizeof tmp);
    char why[256];
    double v;
    if (bench_eval(s, 0, tmp, &v, why, sizeof why)) {
      char *off = strrchr(why, '@');
      const char *at = b + skip;
      if (off) { at += atoi(off + 1); *off = '\0'; }
      return fail_at(c, at, "%s", why);
    }
    any = 1;
  }
  if (!any) return fail_at(c, p, "expected bytes=EXPR or flops=EXPR");
  return 0;
}

static const char *const ref_libs[] = {"numpy", "torch", "cupy", "jax", "warp"};

/* ref -> '# kern-bench-ref:' LIB ':' OUTPUT '=' python-expression */
static int parse_ref_line(cursor *c, const char *p, const char *end,
                          bench_spec *s) {
  p = skip_space(p, end);
  const char *colon = memchr(p, ':', (size_t)(end - p));
  if (!colon)
    return fail_at(c, p, "expected LIB: OUTPUT = EXPRESSION (LIB is numpy, "
                   "torch, cupy, jax or warp)");
  int lib = -1;
  for (size_t i = 0; i < sizeof ref_libs / sizeof ref_libs[0]; i++)
    if (strlen(ref_libs[i]) == (size_t)(colon - p) &&
        strncmp(ref_libs[i], p, (size_t)(colon - p)) == 0)
      lib = (int)i;
  if (lib < 0)
    return fail_at(c, p, "unknown library '%.*s' (numpy, torch, cupy, jax or "
                   "warp)", (int)(colon - p), p);
  const char *q = skip_space(colon + 1, end);
  int il = ident_len(q, end);
  if (il == 0) return fail_at(c, q, "expected the name of a checked output");
  int checked = 0;
  for (int k = 0; k < s->nchecks; k++)
    if (strlen(s->checks[k].name) == (size_t)il &&
        strncmp(s->checks[k].name, q, (size_t)il) == 0)
      checked = 1;
  if (!checked)
    return fail_at(c, q, "'%.*s' is not a checked output (add "
                   "'# kern-bench-check: %.*s' above this line)", il, q, il, q);
  const char *r = skip_space(q + il, end);
  if (r == end || *r != '=')
    return fail_at(c, r, "expected '=' after the output name");
  r = skip_space(r + 1, end);
  if (r == end) return fail_at(c, r, "missing the Python expression");
  if (s->nrefs == BENCH_MAX_REFS)
    return fail_at(c, p, "more than %d references", BENCH_MAX_REFS);
  bench_ref *rf = &s->refs[s->nrefs];
  snprintf(rf->lib, sizeof rf->lib, "%s", ref_libs[lib]);
  if (copy_word(c, q, q + il, rf->output, sizeof rf->output, "output name") ||
      copy_word(c, r, end, rf->expr, sizeof rf->expr, "expression"))
    return -1;
  rf->line = c->lineno;
  s->nrefs++;
  return 0;
}

/* Checks what can only be checked once the block is complete. */
static int finish_spec(cursor *c, bench_spec *s, const char *line,
                       size_t len, int lineno) {
  if (s->npoints == 0) s->npoints = 1;
  /* --dim: integers or size names, comma-separated. */
  cursor d = *c;
  d.line = line;
  d.len = len;
  d.lineno = lineno;
  const char *p = line + s->dims_col - 1, *end = p + strlen(s->dims);
  for (;;) {
    const char *comma = memchr(p, ',', (size_t)(end - p));
    const char *e = comma ? comma : end;
    int64_t x;
    int il = ident_len(p, e);
    if (!(parse_int(p, e, &x) == 0 && x > 0) &&
        !(il == (int)(e - p) && find_var(s, p, (size_t)il) >= 0))
      return fail_at(&d, p, "'%.*s' in --dim is neither a positive integer "
                     "nor a size named in kern-bench-sizes", (int)(e - p), p);
    if (!comma) break;
    p = comma + 1;
  }
  return 0;
}

int bench_file_parse(const char *path, const char *source, bench_file *out,
                     char *err, size_t errsize) {
  memset(out, 0, sizeof *out);
  cursor c = {path, source, 0, 0, err, errsize};
  bench_spec *cur = NULL;
  const char *spec_line = NULL;
  size_t spec_len = 0;
  int spec_lineno = 0;
  const char *p = source;
  int rc = 0;
  out->path = strdup(path);
  if (!out->path) goto oom;
  while (*p && rc == 0) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    c.line = p;
    c.len = len && p[len - 1] == '\r' ? len - 1 : len;
    c.lineno++;
    const char *end = p + c.len;
    const char *q = skip_space(p, end);
    if (q < end && *q == '#') {
      q = skip_space(q + 1, end);
      if ((size_t)(end - q) >= 10 && strncmp(q, "kern-bench", 10) == 0 &&
          (q + 10 == end || q[10] == ':' || q[10] == '-' || q[10] == ' ' ||
           q[10] == '\t')) {
        const char *kw = q + 10;
        while (kw < end && (isalnum((unsigned char)*kw) || *kw == '-')) kw++;
        if (kw == end || *kw != ':') {
          rc = fail_at(&c, kw, "expected ':' after '%.*s'", (int)(kw - q), q);
          break;
        }
        const char *colon = kw;
        kw = q + 10;
        size_t kl = (size_t)(colon - kw);
        if (kl == 0) {
          if (cur && (rc = finish_spec(&c, cur, spec_line, spec_len,
                                       spec_lineno)))
            break;
          bench_spec *ns = realloc(out->specs,
                                   (size_t)(out->nspecs + 1) * sizeof *ns);
          if (!ns) goto oom;
          out->specs = ns;
          cur = &ns[out->nspecs++];
          memset(cur, 0, sizeof *cur);
          spec_line = c.line, spec_len = c.len, spec_lineno = c.lineno;
          rc = parse_spec_line(&c, colon + 1, end, cur);
        } else if (!cur) {
          rc = fail_at(&c, q, "'%.*s' before any '# kern-bench:' line",
                       (int)(colon - q), q);
        } else if (kl == 6 && strncmp(kw, "-sizes", 6) == 0) {
          rc = parse_sizes_line(&c, colon + 1, end, cur);
        } else if (kl == 6 && strncmp(kw, "-check", 6) == 0) {
          rc = parse_check_line(&c, colon + 1, end, cur);
        } else if (kl == 6 && strncmp(kw, "-count", 6) == 0) {
          rc = parse_count_line(&c, colon + 1, end, cur);
        } else if (kl == 4 && strncmp(kw, "-ref", 4) == 0) {
          rc = parse_ref_line(&c, colon + 1, end, cur);
        } else {
          rc = fail_at(&c, q, "unknown spec line '%.*s' (kern-bench, "
                       "kern-bench-sizes, -check, -count, -ref)",
                       (int)(colon - q), q);
        }
      }
    }
    p = nl ? nl + 1 : p + len;
  }
  if (rc == 0 && cur)
    rc = finish_spec(&c, cur, spec_line, spec_len, spec_lineno);
  if (rc == 0 && out->nspecs == 0) {
    snprintf(err, errsize, "%s: error: no '# kern-bench:' spec in the file "
             "(see docs/bench.md)", path);
    rc = -1;
  }
  if (rc) bench_file_free(out);
  return rc;
oom:
  snprintf(err, errsize, "%s: error: out of memory", path);
  bench_file_free(out);
  return -1;
}

void bench_file_free(bench_file *f) {
  if (!f) return;
  free(f->path);
  free(f->specs);
  memset(f, 0, sizeof *f);
}

int bench_expand(const bench_spec *s, int point, const char *text, char *out,
                 size_t size) {
  size_t n = 0;
  const char *p = text;
  while (*p) {
    char piece[32];
    const char *src = p;
    size_t len = 1;
    if (is_ident_start((unsigned char)*p) &&
        (p == text || !is_ident((unsigned char)p[-1]))) {
      const char *e = p;
      while (is_ident((unsigned char)*e)) e++;
      len = (size_t)(e - p);
      int v = find_var(s, p, len);
      /* "seed=N" names the seed, and "float64" is a type: only a whole
       * word that is a size is replaced. */
      if (v >= 0) {
        snprintf(piece, sizeof piece, "%lld", (long long)s->val[v][point]);
        src = piece;
        p = e;
        size_t pl = strlen(piece);
        if (n + pl >= size) return -1;
        memcpy(out + n, piece, pl);
        n += pl;
        continue;
      }
    }
    if (n + len >= size) return -1;
    memcpy(out + n, src, len);
    n += len;
    p += len;
  }
  out[n] = '\0';
  return 0;
}

/* ---------------------------------------------------------------- expr */

typedef struct evaluator {
  const bench_spec *s;
  int point;
  const char *base, *p;
  char *err;
  size_t errsize;
  int failed;
} evaluator;

static double ev_fail(evaluator *e, const char *fmt, const char *what) {
  if (!e->failed)
    snprintf(e->err, e->errsize, fmt, what);
  if (!e->failed) {
    size_t n = strlen(e->err);
    snprintf(e->err + n, e->errsize - n, "@%d", (int)(e->p - e->base));
  }
  e->failed = 1;
  return 0;
}

static double ev_sum(evaluator *e);

/* primary -> number | NAME | '(' sum ')' | '-' primary */
static double ev_primary(evaluator *e) {
  while (*e->p == ' ') e->p++;
  if (*e->p == '(') {
    e->p++;
    double v = ev_sum(e);
    while (*e->p == ' ') e->p++;
    if (*e->p != ')') return ev_fail(e, "expected ')'%s", "");
    e->p++;
    return v;
  }
  if (*e->p == '-') {
    e->p++;
    return -ev_primary(e);
  }
  if (isdigit((unsigned char)*e->p) || *e->p == '.') {
    char *end;
    double v = strtod(e->p, &end);
    e->p = end;
    return v;
  }
  if (is_ident_start((unsigned char)*e->p)) {
    const char *b = e->p;
    while (is_ident((unsigned char)*e->p)) e->p++;
    int v = find_var(e->s, b, (size_t)(e->p - b));
    if (v < 0) {
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)(e->p - b), b);
      e->p = b;
      return ev_fail(e, "unknown size '%s' (sizes come from "
                     "kern-bench-sizes, above this line)", name);
    }
    return (double)e->s->val[v][e->point];
  }
  return ev_fail(e, "expected a number, a size name or '('%s", "");
}

/* product -> primary { ('*' | '/') primary } */
static double ev_product(evaluator *e) {
  double v = ev_primary(e);
  for (;;) {
    while (*e->p == ' ') e->p++;
    char op = *e->p;
    if (op != '*' && op != '/') return v;
    e->p++;
    double w = ev_primary(e);
    if (op == '/' && w == 0) return ev_fail(e, "division by zero%s", "");
    v = op == '*' ? v * w : v / w;
  }
}

/* sum -> product { ('+' | '-') product } */
static double ev_sum(evaluator *e) {
  double v = ev_product(e);
  for (;;) {
    while (*e->p == ' ') e->p++;
    char op = *e->p;
    if (op != '+' && op != '-') return v;
    e->p++;
    double w = ev_product(e);
    v = op == '+' ? v + w : v - w;
  }
}

int bench_eval(const bench_spec *s, int point, const char *text,
               double *out, char *err, size_t errsize) {
  evaluator e = {s, point, text, text, err, errsize, 0};
  double v = ev_sum(&e);
  if (!e.failed && *e.p) ev_fail(&e, "unexpected '%.1s' in the expression", e.p);
  if (e.failed) return -1;
  *out = v;
  return 0;
}
