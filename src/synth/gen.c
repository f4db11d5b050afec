/*
 * gen.c -- the random kernel generator of `kern synth`.
 *
 * In the spirit of Csmith and YARPGen: a kernel is grown statement by
 * statement from the grammar of Warp's kernel dialect, and every
 * expression is built for a requested type from the operators and
 * builtins that produce that type.  There are no templates: the categories
 * only change the weights (a "matrix" kernel draws mostly matrix
 * operations, a "control" kernel mostly branches and loops).
 *
 * Two facts travel with every expression so that the kernel has no
 * behaviour on which Warp, C, CUDA and OpenCL could disagree:
 *
 *  - integers carry an interval [lo, hi].  An operation whose result
 *    could leave +-2^30 is not generated (or its result is masked with
 *    `& 1023`), divisors are made odd (`| 1`, never zero), shift counts
 *    are masked to 0..7 and shift only non-negative values, and array
 *    indices are clamped to the array's known shape;
 *  - floats carry a bound on their magnitude and, when the value is exact
 *    (a multiple of 2^-fb below 2^(23-fb): inputs are multiples of 1/8),
 *    the number of fraction bits.  Sums and products of exact values are
 *    computed exactly by every IEEE machine whatever the order or fused
 *    multiply-add, so only exact values may reach an operation that is
 *    not continuous (comparisons, floor, mod, int(), sign, step, atan2)
 *    or an atomic float sum whose order differs between backends.
 *    Inexact values (sqrt, sin, division) flow only into continuous
 *    operations, so backends differ by rounding, within the tolerance.
 *
 * Loops have literal trip counts (at most 2 + difficulty), a while loop
 * counts its own iterations, so every kernel terminates.
 *
 * Everything is decided by splitmix64 seeded from (seed, index), so a
 * kernel depends on nothing but those two numbers.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

const char *const synth_category_names[SC_COUNT] = {
    "arithmetic", "math", "vector", "matrix", "control",
    "atomic", "reduction", "stencil", "random", "functions"};

uint64_t synth_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

typedef struct { uint64_t s; } Rng;
static uint64_t rnext(Rng *r) {
  r->s += 0x9e3779b97f4a7c15ULL;
  return synth_mix(r->s);
}
static int rn(Rng *r, int n) { return n <= 1 ? 0 : (int)(rnext(r) % (uint64_t)n); }
static int chance(Rng *r, int percent) { return rn(r, 100) < percent; }

/* ------------------------------------------------------------- values */

enum { T_F, T_I, T_V, T_M, T_B };

typedef struct {
  const char *s;  /* the expression's text (arena) */
  int t, n;       /* type; vector length / matrix order */
  int exact;      /* floats: the value is computed exactly everywhere */
  int fb;         /* floats: fraction bits of an exact value */
  double mag;     /* floats: bound on |value| (each component) */
  int64_t lo, hi; /* ints: interval */
} Val;

typedef struct {
  char name[16];
  Val v;
  int locked; /* an accumulator of the loop being generated */
  int konst;  /* Warp holds it as a compile-time constant (warp_constant) */
} Var;

typedef struct {
  char name[24];
  int nparams;
  int ptype[3];   /* T_F or T_V (vec3) */
  int ret;        /* T_F or T_V */
  int disc;       /* body has non-continuous operations */
  Val result;     /* bound of the result under the parameter assumption */
} Func;

#define MAXVARS 96
#define MAXFUNCS 4
#define PARAM_FB 6
#define PARAM_MAG 16.0
#define INT_LIMIT ((int64_t)1 << 30)

typedef struct {
  Rng r;
  int cat, diff;
  struct Chunk *chunks; /* the text arena (sf) */
  /* source being written */
  char *src;
  size_t len, cap;
  int indent;
  Var vars[MAXVARS];
  int nvars, nnames;
  Func funcs[MAXFUNCS];
  int nfuncs;
  int in_func;       /* generating a @wp.func body: no tid, no arrays */
  int func_calls;    /* ... that may call earlier functions */
  /* kernel context */
  int stencil;
  int64_t n, h, w;
  synth_kernel *k;
  int nf_in, ni_in, nv_in, nm_in; /* input arrays */
  int has_scalar, has_seed, has_state;
  int depth, loop_depth, ctl_depth;
  int bitop; /* the one bitwise atomic of this kernel (-1: none yet) */
  int oom;
} G;

static const char *tag_names[] = {
    "add", "sub", "mul", "div", "floordiv", "mod", "neg", "min", "max",
    "abs", "clamp", "where", "compare", "logic", "bitwise", "shift",
    "sqrt", "cbrt", "exp", "log", "pow", "trig", "inverse_trig",
    "hyperbolic", "rounding", "sign_step", "lerp", "smoothstep",
    "dot", "cross", "length", "normalize", "cw_mul", "outer", "matmul",
    "transpose", "determinant", "trace", "inverse", "diag", "identity",
    "if", "for", "while", "break", "continue", "return",
    "atomic_add", "atomic_sub", "atomic_min", "atomic_max",
    "atomic_bitwise", "reduction", "gather", "stencil2d", "rand",
    "func_call", "nested_call", "cast", "vec_ctor", "mat_ctor"};
#define NTAGS (int)(sizeof tag_names / sizeof *tag_names)

static void tag(G *g, const char *name) {
  synth_kernel *k = g->k;
  for (int i = 0; i < k->ntags; i++)
    if (k->tags[i][0] == name[0] && strcmp(k->tags[i], name) == 0) return;
  for (int i = 0; i < NTAGS; i++)
    if (tag_names[i][0] == name[0] && strcmp(tag_names[i], name) == 0 &&
        k->ntags < SYNTH_MAX_TAGS) {
      k->tags[k->ntags++] = tag_names[i];
      return;
    }
}

/* Text in the per-kernel arena: 64 KiB chunks, freed all at once.  (One
 * malloc per piece of text was a tenth of `kern synth`'s time.) */
typedef struct Chunk {
  struct Chunk *next;
  size_t used, cap;
  char data[];
} Chunk;

static char *g_alloc(G *g, size_t n) {
  Chunk *c = g->chunks;
  if (!c || c->cap - c->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    c = malloc(sizeof *c + cap);
    if (!c) {
      g->oom = 1;
      return NULL;
    }
    c->used = 0;
    c->cap = cap;
    c->next = g->chunks;
    g->chunks = c;
  }
  char *p = c->data + c->used;
  c->used += n;
  return p;
}

static const char *sf(G *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char tmp[512];
  int fast = 1;
  int n = synth_vformat(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) {
    fast = 0;
    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
  }
  if (n < 0) n = 0;
  char *p = g_alloc(g, (size_t)n + 1);
  if (!p) return "0";
  if ((size_t)n < sizeof tmp) {
    memcpy(p, tmp, (size_t)n + 1);
  } else {
    va_start(ap, fmt);
    if (fast) synth_vformat(p, (size_t)n + 1, fmt, ap);
    else vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  return p;
}

static void out_raw(G *g, const char *s) {
  size_t n = strlen(s);
  if (g->len + n + 1 > g->cap) {
    size_t cap = g->cap ? g->cap : 1024;
    while (g->len + n + 1 > cap) cap *= 2;
    char *p = realloc(g->src, cap);
    if (!p) {
      g->oom = 1;
      return;
    }
    g->src = p;
    g->cap = cap;
  }
  memcpy(g->src + g->len, s, n + 1);
  g->len += n;
}

static void line(G *g, const char *fmt, ...) {
  char tmp[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = synth_vformat(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) {
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
  }
  for (int i = 0; i < g->indent; i++) out_raw(g, "    ");
  out_raw(g, tmp);
  out_raw(g, "\n");
}

/* A float literal Warp and C read as the same float32. */
static const char *flit(G *g, double v) {
  char b[48];
  if (v == floor(v) && fabs(v) < 1e9) {
    /* "%.1f" of an integer: its digits and ".0" */
    long long iv = (long long)v;
    int n = 0;
    char t[24];
    for (unsigned long long u = (unsigned long long)(iv < 0 ? -iv : iv); u || !n; u /= 10)
      t[n++] = (char)('0' + u % 10);
    int k = 0;
    if (signbit(v)) b[k++] = '-';
    while (n) b[k++] = t[--n];
    memcpy(b + k, ".0", 3);
  } else if (synth_short_g(b, v, 17) < 0) {
    snprintf(b, sizeof b, "%.17g", v);
  }
  return v < 0 ? sf(g, "(%s)", b) : sf(g, "%s", b);
}

static int bits_of(double mag) {
  int b = 0;
  while (mag >= 1.0 && b < 200) {
    mag /= 2;
    b++;
  }
  return b;
}
/* Is a float with fb fraction bits and |v| <= mag representable exactly? */
static int fits(int fb, double mag) { return fb + bits_of(mag) <= 22; }

static Val fval(const char *s, int exact, int fb, double mag) {
  Val v = {s, T_F, 1, exact, fb, mag, 0, 0};
  if (v.exact && !fits(fb, mag)) v.exact = 0;
  return v;
}
static Val ival(const char *s, int64_t lo, int64_t hi) {
  Val v = {s, T_I, 1, 1, 0, 0, lo, hi};
  return v;
}

static const char *vecname(G *g, int n) { return sf(g, "wp.vec%d", n); }

static const char *new_name(G *g) { return sf(g, "v%d", g->nnames++); }

/* snprintf(dst, cap, "%s", s) without printf's machinery. */
static void copy_name(char *dst, size_t cap, const char *s) {
  size_t i = 0;
  for (; i + 1 < cap && s[i]; i++) dst[i] = s[i];
  dst[i] = 0;
}

/* Whether Warp 1.19 holds the value of `name = s` as a compile-time
 * constant: a number literal, a negated one, or a name that is one itself
 * (assigning a name binds the same Warp variable, and negating a constant
 * folds).  Warp refuses to change such a variable inside a loop it does not
 * unroll ("Error mutating a constant ... inside a dynamic loop"), so no loop
 * takes one as an accumulator.  Generator kern-synth-2 did (kernel 1149 of
 * seed 2026: `v3 = (-8)`, then `v3 += ...` in a while loop). */
static int warp_constant(G *g, const char *s) {
  size_t b = 0, e = strlen(s);
  while (b < e && (s[b] == '(' || s[b] == '-' || s[b] == ' ')) b++;
  while (e > b && (s[e - 1] == ')' || s[e - 1] == ' ')) e--;
  if (b == e) return 0;
  if (s[b] >= '0' && s[b] <= '9') {
    for (size_t i = b; i < e; i++)
      if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' || s[i] == 'E' ||
            s[i] == '+' || s[i] == '-'))
        return 0;
    return 1;
  }
  for (int i = 0; i < g->nvars; i++)
    if (g->vars[i].konst && strlen(g->vars[i].name) == e - b &&
        !memcmp(g->vars[i].name, s + b, e - b))
      return 1;
  return 0;
}

static void add_var(G *g, const char *name, Val v) {
  if (g->nvars >= MAXVARS) return;
  int konst = warp_constant(g, v.s);
  Var *x = &g->vars[g->nvars++];
  copy_name(x->name, sizeof x->name, name);
  x->v = v;
  x->v.s = sf(g, "%s", name);
  x->locked = 0;
  x->konst = konst;
}

/* A random variable of type t (length n), or NULL. */
static Var *pick_var(G *g, int t, int n, int need_exact) {
  int idx[MAXVARS], c = 0;
  for (int i = 0; i < g->nvars; i++) {
    Var *x = &g->vars[i];
    if (x->locked || x->v.t != t || (t != T_F && t != T_I && x->v.n != n)) continue;
    if (need_exact && !x->v.exact) continue;
    idx[c++] = i;
  }
  return c ? &g->vars[idx[rn(&g->r, c)]] : NULL;
}

/* Wraps a float whose bound grew too large back into [-64, 64]. */
static Val tame(G *g, Val v) {
  if (v.t == T_F && v.mag > 1e4) {
    tag(g, "clamp");
    return fval(sf(g, "wp.clamp(%s, -64.0, 64.0)", v.s), v.exact, v.fb, 64);
  }
  return v;
}

static Val gen_f(G *g, int d, int need_exact);
static Val gen_i(G *g, int d);
static Val gen_v(G *g, int n, int d, int need_exact);
static Val gen_m(G *g, int n, int d, int need_exact);
static Val gen_b(G *g, int d);

/* The index of the current thread into a 1-D input, or a gather. */
static const char *tid_index(G *g) {
  return g->stencil ? "i, j" : "i";
}

static Val leaf_f(G *g, int need_exact) {
  for (int tries = 0; tries < 4; tries++) {
    switch (rn(&g->r, g->in_func ? 3 : 7)) {
    case 0: {
      Var *x = pick_var(g, T_F, 1, need_exact);
      if (x) return x->v;
      break;
    }
    case 1: {
      double v = (rn(&g->r, 33) - 16) / 4.0;
      if (v == 0) v = 0.5;
      return fval(flit(g, v), 1, 2, fabs(v));
    }
    case 2: {
      Var *x = pick_var(g, T_F, 1, need_exact);
      if (x) return x->v;
      break;
    }
    case 3:
    case 4:
      if (g->nf_in) {
        int a = rn(&g->r, g->nf_in);
        if (!g->stencil && chance(&g->r, 25) && g->depth < 3) {
          g->depth++;
          Val e = gen_i(g, 1);
          g->depth--;
          if (e.lo > -INT_LIMIT && e.hi < INT_LIMIT) {
            tag(g, "gather");
            return fval(sf(g, "x%d[wp.clamp(%s, 0, %lld)]", a, e.s,
                           (long long)g->n - 1), 1, 3, 4);
          }
        }
        return fval(sf(g, "x%d[%s]", a, tid_index(g)), 1, 3, 4);
      }
      break;
    case 5:
      if (g->has_scalar) return fval("s0", 1, 3, 4);
      break;
    case 6:
      if (g->has_state && !need_exact && chance(&g->r, 50)) {
        tag(g, "rand");
        if (chance(&g->r, 50)) return fval("wp.randf(state)", 1, 24, 1);
        if (chance(&g->r, 50))
          return fval("wp.randf(state, -2.0, 2.0)", 0, 0, 2);
        return fval("wp.randn(state)", 0, 0, 8);
      }
      if (g->nv_in && chance(&g->r, 50)) {
        static const char *comp[] = {".x", ".y", ".z", "[0]", "[1]", "[2]"};
        return fval(sf(g, "y%d[i]%s", rn(&g->r, g->nv_in), comp[rn(&g->r, 6)]),
                    1, 3, 4);
      }
      break;
    }
  }
  return fval("0.5", 1, 1, 0.5);
}

static Val leaf_i(G *g) {
  for (int tries = 0; tries < 4; tries++) {
    switch (rn(&g->r, g->in_func ? 2 : 5)) {
    case 0: {
      Var *x = pick_var(g, T_I, 1, 0);
      if (x) return x->v;
      break;
    }
    case 1: {
      int v = rn(&g->r, 19) - 9;
      return ival(v < 0 ? sf(g, "(%d)", v) : sf(g, "%d", v), v, v);
    }
    case 2:
      if (g->ni_in)
        return ival(sf(g, "z%d[%s]", rn(&g->r, g->ni_in), tid_index(g)), -100, 100);
      break;
    case 3:
      if (g->stencil)
        return chance(&g->r, 50) ? ival("i", 0, g->h - 1) : ival("j", 0, g->w - 1);
      return ival("i", 0, g->n - 1);
    case 4:
      if (g->has_state) {
        tag(g, "rand");
        int lo = rn(&g->r, 10) - 5, hi = lo + 1 + rn(&g->r, 20);
        return ival(sf(g, "wp.randi(state, %d, %d)", lo, hi), lo, hi - 1);
      }
      break;
    }
  }
  return ival("1", 1, 1);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t absmax(Val v) { return max64(llabs(v.lo), llabs(v.hi)); }
static int64_t pow2_above(int64_t x) {
  int64_t p = 1;
  while (p <= x) p <<= 1;
  return p;
}

static Val gen_i(G *g, int d) {
  if (d <= 0 || chance(&g->r, 25)) return leaf_i(g);
  Val a = gen_i(g, d - 1);
  int op = rn(&g->r, 10);
  if (op <= 2) {
    Val b = gen_i(g, d - 1);
    const char *o = op == 0 ? "+" : op == 1 ? "-" : "*";
    int64_t lo, hi;
    if (op == 0) lo = a.lo + b.lo, hi = a.hi + b.hi;
    else if (op == 1) lo = a.lo - b.hi, hi = a.hi - b.lo;
    else {
      int64_t c[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
      if (absmax(a) > INT_LIMIT / 2 || absmax(b) > INT_LIMIT / 2) return a;
      lo = min64(min64(c[0], c[1]), min64(c[2], c[3]));
      hi = max64(max64(c[0], c[1]), max64(c[2], c[3]));
    }
    if (lo <= -INT_LIMIT || hi >= INT_LIMIT) {
      tag(g, "bitwise");
      return ival(sf(g, "(%s & 1023)", a.s), a.lo >= 0 ? 0 : 0,
                  a.lo >= 0 ? min64(a.hi, 1023) : 1023);
    }
    tag(g, op == 0 ? "add" : op == 1 ? "sub" : "mul");
    return ival(sf(g, "(%s %s %s)", a.s, o, b.s), lo, hi);
  }
  if (op == 3) {
    /* Division: the divisor is made odd, so never zero. */
    Val b = gen_i(g, d - 1);
    if (b.lo <= -INT_LIMIT / 2 || b.hi >= INT_LIMIT / 2) return a;
    tag(g, "div");
    int64_t m = absmax(a);
    return ival(sf(g, "(%s / (%s | 1))", a.s, b.s), -m, m);
  }
  if (op == 4) {
    /* Floor division and modulo only of non-negative operands, where
     * Python's and C's rules agree. */
    Val b = gen_i(g, d - 1);
    if (absmax(b) > INT_LIMIT / 2) return a;
    int64_t m = absmax(a);
    int64_t bm = absmax(b) + 1;
    if (chance(&g->r, 50)) {
      tag(g, "floordiv");
      tag(g, "abs");
      return ival(sf(g, "(wp.abs(%s) // (wp.abs(%s) + 1))", a.s, b.s), 0, m);
    }
    tag(g, "mod");
    tag(g, "abs");
    return ival(sf(g, "(wp.abs(%s) %% (wp.abs(%s) + 1))", a.s, b.s), 0,
                min64(m, bm - 1));
  }
  if (op == 5) {
    tag(g, "bitwise");
    int mask = (1 << (1 + rn(&g->r, 10))) - 1;
    static const char *ops[] = {"&", "|", "^"};
    int o = rn(&g->r, 3);
    if (o == 0) return ival(sf(g, "(%s & %d)", a.s, mask), 0, mask);
    if (a.lo < 0) return ival(sf(g, "(%s & %d)", a.s, mask), 0, mask);
    int64_t p = pow2_above(max64(a.hi, mask)) - 1;
    return ival(sf(g, "(%s %s %d)", a.s, ops[o], mask), 0, p);
  }
  if (op == 6) {
    tag(g, "shift");
    Val b = gen_i(g, d - 1);
    if (chance(&g->r, 50)) {
      /* left shift of a non-negative value below 2^12 by 0..7 */
      return ival(sf(g, "((%s & 4095) << (%s & 7))", a.s, b.s), 0, 4095 << 7);
    }
    if (a.lo < 0) return ival(sf(g, "((%s & 65535) >> (%s & 7))", a.s, b.s), 0, 65535);
    return ival(sf(g, "(%s >> (%s & 7))", a.s, b.s), 0, a.hi);
  }
  if (op == 7) {
    Val b = gen_i(g, d - 1);
    int w = rn(&g->r, 3);
    if (w == 0) {
      tag(g, "min");
      return ival(sf(g, "wp.min(%s, %s)", a.s, b.s), min64(a.lo, b.lo), min64(a.hi, b.hi));
    }
    if (w == 1) {
      tag(g, "max");
      return ival(sf(g, "wp.max(%s, %s)", a.s, b.s), max64(a.lo, b.lo), max64(a.hi, b.hi));
    }
    tag(g, "abs");
    return ival(sf(g, "wp.abs(%s)", a.s), 0, absmax(a));
  }
  if (op == 8 && g->depth < 3) {
    /* int() of an exact float: truncation is the same everywhere. */
    g->depth++;
    Val f = gen_f(g, d - 1, 1);
    g->depth--;
    if (f.exact && f.mag < INT_LIMIT / 2) {
      tag(g, "cast");
      int64_t m = (int64_t)f.mag + 1;
      return ival(sf(g, "int(%s)", f.s), -m, m);
    }
    return a;
  }
  if (g->depth < 3) {
    g->depth++;
    Val c = gen_b(g, d - 1);
    Val b = gen_i(g, d - 1);
    g->depth--;
    tag(g, "where");
    return ival(sf(g, "wp.where(%s, %s, %s)", c.s, a.s, b.s), min64(a.lo, b.lo),
                max64(a.hi, b.hi));
  }
  tag(g, "neg");
  return ival(sf(g, "(-%s)", a.s), -a.hi, -a.lo);
}

/* Boolean conditions read only exact values. */
static Val gen_b(G *g, int d) {
  Val v = {0};
  v.t = T_B;
  v.n = 1;
  v.exact = 1;
  static const char *cmp[] = {"<", "<=", ">", ">=", "==", "!="};
  int k = rn(&g->r, 10);
  if (d > 0 && k < 2 && g->depth < 4) {
    g->depth++;
    Val a = gen_b(g, d - 1), b = gen_b(g, d - 1);
    g->depth--;
    tag(g, "logic");
    v.s = k == 0 ? sf(g, "(%s and %s)", a.s, b.s) : sf(g, "(%s or %s)", a.s, b.s);
    return v;
  }
  if (k == 2 && g->depth < 4) {
    g->depth++;
    Val a = gen_b(g, d - 1);
    g->depth--;
    tag(g, "logic");
    v.s = sf(g, "(not %s)", a.s);
    return v;
  }
  tag(g, "compare");
  g->depth++;
  if (k < 6) {
    Val a = gen_f(g, d > 0 ? d - 1 : 0, 1);
    Val b = chance(&g->r, 50) ? gen_f(g, 0, 1) : fval(flit(g, (rn(&g->r, 17) - 8) / 2.0), 1, 1, 4);
    g->depth--;
    if (a.exact && b.exact) {
      v.s = sf(g, "(%s %s %s)", a.s, cmp[rn(&g->r, 4)], b.s);
      return v;
    }
  } else {
    Val a = gen_i(g, d > 0 ? d - 1 : 0);
    Val b = leaf_i(g);
    g->depth--;
    v.s = sf(g, "(%s %s %s)", a.s, cmp[rn(&g->r, 6)], b.s);
    return v;
  }
  Val a = leaf_i(g);
  v.s = sf(g, "(%s > %d)", a.s, rn(&g->r, 10) - 5);
  return v;
}

/* Unary math builtins with arguments kept inside their domain. */
static Val math_f(G *g, Val a) {
  int k = rn(&g->r, 19);
  switch (k) {
  case 0:
    tag(g, "sqrt");
    return fval(sf(g, "wp.sqrt(wp.abs(%s))", a.s), 0, 0, sqrt(a.mag) + 1);
  case 1:
    tag(g, "cbrt");
    return fval(sf(g, "wp.cbrt(%s)", a.s), 0, 0, cbrt(a.mag) + 1);
  case 2:
    tag(g, "exp");
    return fval(sf(g, "wp.exp(wp.clamp(%s, -8.0, 8.0))", a.s), 0, 0, 2981);
  case 3: {
    tag(g, "log");
    static const char *f[] = {"log", "log2", "log10"};
    return fval(sf(g, "wp.%s(wp.abs(%s) + 1.0)", f[rn(&g->r, 3)], a.s), 0, 0,
                log2(a.mag + 1) + 1);
  }
  case 4: {
    tag(g, "pow");
    static const double ex[] = {0.5, 1.5, 2.0, 3.0, 0.25};
    double e = ex[rn(&g->r, 5)];
    double m = a.mag > 16 ? 16 : a.mag;
    return fval(sf(g, "wp.pow(wp.clamp(wp.abs(%s), 0.0, 16.0) + 0.5, %s)", a.s,
                   flit(g, e)), 0, 0, pow(m + 0.5, e) + 1);
  }
  case 5:
  case 6: {
    tag(g, "trig");
    static const char *f[] = {"sin", "cos"};
    return fval(sf(g, "wp.%s(%s)", f[k - 5], a.s), 0, 0, 1);
  }
  case 7:
    tag(g, "trig");
    return fval(sf(g, "wp.tan(wp.clamp(%s, -1.2, 1.2))", a.s), 0, 0, 3);
  case 8: {
    tag(g, "inverse_trig");
    static const char *f[] = {"asin", "acos"};
    return fval(sf(g, "wp.%s(wp.clamp(%s, -1.0, 1.0))", f[rn(&g->r, 2)], a.s),
                0, 0, 3.2);
  }
  case 9:
    tag(g, "inverse_trig");
    return fval(sf(g, "wp.atan(%s)", a.s), 0, 0, 1.6);
  case 10: {
    tag(g, "hyperbolic");
    static const char *f[] = {"sinh", "cosh", "tanh"};
    int w = rn(&g->r, 3);
    if (w == 2) return fval(sf(g, "wp.tanh(%s)", a.s), 0, 0, 1);
    return fval(sf(g, "wp.%s(wp.clamp(%s, -5.0, 5.0))", f[w], a.s), 0, 0, 75);
  }
  case 11:
    tag(g, "trig");
    return fval(sf(g, "wp.%s(%s)", chance(&g->r, 50) ? "degrees" : "radians",
                   a.s), 0, 0, a.mag * 58);
  case 12:
  case 13:
    if (a.exact) {
      tag(g, "rounding");
      static const char *f[] = {"floor", "ceil", "round", "trunc"};
      if (chance(&g->r, 25))
        return fval(sf(g, "wp.frac(%s)", a.s), 1, a.fb, 1);
      return fval(sf(g, "wp.%s(%s)", f[rn(&g->r, 4)], a.s), 1, 0, a.mag + 1);
    }
    break;
  case 14:
    if (a.exact) {
      tag(g, "sign_step");
      return fval(sf(g, "wp.%s(%s)", chance(&g->r, 50) ? "sign" : "step", a.s),
                  1, 0, 1);
    }
    break;
  case 15:
    if (a.exact) {
      tag(g, "mod");
      Val b = gen_f(g, 0, 1);
      if (b.exact) {
        int fb = a.fb > b.fb ? a.fb : b.fb;
        return fval(sf(g, "wp.mod(%s, wp.abs(%s) + 0.5)", a.s, b.s), 1, fb, a.mag);
      }
    }
    break;
  case 16: {
    tag(g, "smoothstep");
    double e0 = (rn(&g->r, 9) - 4) / 2.0;
    return fval(sf(g, "wp.smoothstep(%s, %s, %s)", flit(g, e0), flit(g, e0 + 1.5),
                   a.s), 0, 0, 1);
  }
  case 17:
    if (a.exact) {
      Val b = gen_f(g, 0, 1);
      if (b.exact) {
        tag(g, "inverse_trig");
        return fval(sf(g, "wp.atan2(%s, %s)", a.s, b.s), 0, 0, 3.2);
      }
    }
    break;
  case 18: {
    tag(g, "lerp");
    Val b = gen_f(g, 0, 0);
    return fval(sf(g, "wp.lerp(%s, %s, 0.25)", a.s, b.s), a.exact && b.exact,
                (a.fb > b.fb ? a.fb : b.fb) + 2, a.mag + b.mag);
  }
  }
  tag(g, "trig");
  return fval(sf(g, "wp.sin(%s)", a.s), 0, 0, 1);
}

static int vec_weight(G *g) {
  return g->cat == SC_VECTOR ? 30 : g->cat == SC_MATRIX ? 20 : 4;
}

static Val gen_f(G *g, int d, int need_exact) {
  if (d <= 0 || chance(&g->r, 20)) return leaf_f(g, need_exact);
  int math_w = g->cat == SC_MATH ? 45 : g->cat == SC_ARITHMETIC ? 5 : 12;
  int k = rn(&g->r, 100);
  if (!need_exact && k < math_w) {
    Val a = gen_f(g, d - 1, 0);
    return tame(g, math_f(g, a));
  }
  k = rn(&g->r, 100);
  if (k < vec_weight(g) && !g->in_func && g->depth < 3) {
    g->depth++;
    int n = g->cat == SC_MATRIX || chance(&g->r, 70) ? 3 : 2 + rn(&g->r, 3);
    Val r;
    int w = rn(&g->r, g->cat == SC_MATRIX ? 6 : 4);
    if (w == 0) {
      Val a = gen_v(g, n, d - 1, need_exact), b = gen_v(g, n, d - 1, need_exact);
      tag(g, "dot");
      r = fval(sf(g, "wp.dot(%s, %s)", a.s, b.s), a.exact && b.exact,
               a.fb + b.fb, n * a.mag * b.mag);
    } else if (w == 1 && !need_exact) {
      Val a = gen_v(g, n, d - 1, 0);
      tag(g, "length");
      r = fval(sf(g, "wp.length(%s)", a.s), 0, 0, 2 * a.mag);
    } else if (w == 1 || w == 2) {
      Val a = gen_v(g, n, d - 1, need_exact);
      if (chance(&g->r, 50)) {
        tag(g, "length");
        r = fval(sf(g, "wp.length_sq(%s)", a.s), a.exact, 2 * a.fb, n * a.mag * a.mag);
      } else {
        r = fval(sf(g, "%s[%d]", a.s, rn(&g->r, n)), a.exact, a.fb, a.mag);
      }
    } else if (w == 3) {
      Val a = gen_v(g, n, d - 1, need_exact);
      static const char *c[] = {"x", "y", "z", "w"};
      r = fval(sf(g, "%s.%s", a.s, c[rn(&g->r, n)]), a.exact, a.fb, a.mag);
    } else {
      Val m = gen_m(g, n, d - 1, need_exact);
      int q = rn(&g->r, 3);
      if (q == 0) {
        tag(g, "determinant");
        double f = n == 2 ? 2 : n == 3 ? 6 : 24;
        r = fval(sf(g, "wp.determinant(%s)", m.s), m.exact, n * m.fb,
                 f * pow(m.mag, n));
      } else if (q == 1) {
        tag(g, "trace");
        r = fval(sf(g, "wp.trace(%s)", m.s), m.exact, m.fb, n * m.mag);
      } else {
        r = fval(sf(g, "%s[%d, %d]", m.s, rn(&g->r, n), rn(&g->r, n)), m.exact,
                 m.fb, m.mag);
      }
    }
    g->depth--;
    if (!need_exact || r.exact) return tame(g, r);
    return leaf_f(g, 1);
  }
  if (g->nfuncs && (!g->in_func || g->func_calls) && chance(&g->r, g->cat == SC_FUNCTIONS ? 50 : 10)) {
    Func *f = &g->funcs[rn(&g->r, g->nfuncs)];
    if (f->ret == T_F && g->depth < 3) {
      g->depth++;
      const char *args = "";
      int exact = 1;
      for (int p = 0; p < f->nparams; p++) {
        Val a = f->ptype[p] == T_F ? gen_f(g, d - 1, f->disc)
                                   : gen_v(g, 3, d - 1, f->disc);
        /* The body was generated for exact arguments of at most
         * PARAM_FB fraction bits and magnitude PARAM_MAG. */
        const char *s = a.s;
        if (a.mag > PARAM_MAG)
          s = f->ptype[p] == T_F ? sf(g, "wp.clamp(%s, -16.0, 16.0)", a.s)
                                 : sf(g, "wp.normalize(%s)", a.s);
        if (f->ptype[p] == T_V && a.mag > PARAM_MAG) a.exact = 0;
        if (!a.exact || a.fb > PARAM_FB) {
          exact = 0;
          if (f->disc) {
            s = f->ptype[p] == T_F ? "0.5" : "wp.vec3(0.5, 0.25, -1.0)";
          }
        }
        args = sf(g, "%s%s%s", args, p ? ", " : "", s);
      }
      if (f->disc) exact = 1;
      g->depth--;
      tag(g, "func_call");
      Val r = f->result;
      r.s = sf(g, "%s(%s)", f->name, args);
      if (!exact) r.exact = 0;
      if (!need_exact || r.exact) return r;
    }
  }
  Val a = gen_f(g, d - 1, need_exact);
  int op = rn(&g->r, 12);
  if (op <= 3) {
    Val b = gen_f(g, d - 1, need_exact);
    static const char *o[] = {"+", "-", "*", "+"};
    int fb = a.fb > b.fb ? a.fb : b.fb;
    Val r;
    if (op == 2) {
      tag(g, "mul");
      r = fval(sf(g, "(%s * %s)", a.s, b.s), a.exact && b.exact, a.fb + b.fb,
               a.mag * b.mag);
    } else {
      tag(g, op == 1 ? "sub" : "add");
      r = fval(sf(g, "(%s %s %s)", a.s, o[op], b.s), a.exact && b.exact, fb,
               a.mag + b.mag);
    }
    if (need_exact && !r.exact) return a;
    return tame(g, r);
  }
  if (op == 4 && !need_exact) {
    Val b = gen_f(g, d - 1, 0);
    tag(g, "div");
    if (chance(&g->r, 50))
      return tame(g, fval(sf(g, "(%s / (wp.abs(%s) + 0.5))", a.s, b.s), 0, 0, 2 * a.mag));
    return tame(g, fval(sf(g, "(%s / (%s * %s + 1.0))", a.s, b.s, b.s), 0, 0, a.mag));
  }
  if (op == 5) {
    Val b = gen_f(g, d - 1, need_exact);
    int w = rn(&g->r, 3);
    int fb = a.fb > b.fb ? a.fb : b.fb;
    double m = a.mag > b.mag ? a.mag : b.mag;
    tag(g, w == 0 ? "min" : w == 1 ? "max" : "clamp");
    if (w == 2) {
      double lo = -(1 + rn(&g->r, 8)) / 2.0;
      return fval(sf(g, "wp.clamp(%s, %s, %s)", a.s, flit(g, lo), flit(g, -lo + 0.5)),
                  a.exact, a.exact ? (a.fb > 1 ? a.fb : 1) : 0, -lo + 0.5);
    }
    return fval(sf(g, "wp.%s(%s, %s)", w == 0 ? "min" : "max", a.s, b.s),
                a.exact && b.exact, fb, m);
  }
  if (op == 6) {
    tag(g, "neg");
    return fval(sf(g, "(-%s)", a.s), a.exact, a.fb, a.mag);
  }
  if (op == 7) {
    tag(g, "abs");
    return fval(sf(g, "wp.abs(%s)", a.s), a.exact, a.fb, a.mag);
  }
  if (op == 8 && g->depth < 3) {
    g->depth++;
    Val c = gen_b(g, d - 1);
    Val b = gen_f(g, d - 1, need_exact);
    g->depth--;
    tag(g, "where");
    int fb = a.fb > b.fb ? a.fb : b.fb;
    Val r = fval(sf(g, "wp.where(%s, %s, %s)", c.s, a.s, b.s), a.exact && b.exact,
                 fb, a.mag > b.mag ? a.mag : b.mag);
    if (need_exact && !r.exact) return a;
    return r;
  }
  if (op == 9 && g->depth < 3) {
    g->depth++;
    Val i = gen_i(g, d - 1);
    g->depth--;
    if (absmax(i) < (1 << 20)) {
      tag(g, "cast");
      return fval(sf(g, "float(%s)", i.s), 1, 0, (double)absmax(i));
    }
    return a;
  }
  if (op == 10) {
    /* scaling by a power of two keeps a value exact */
    int e = rn(&g->r, 4) - 2;
    double s = ldexp(1.0, e);
    tag(g, "mul");
    return fval(sf(g, "(%s * %s)", a.s, flit(g, s)), a.exact, a.fb + (e < 0 ? -e : 0),
                a.mag * s);
  }
  return a;
}

static Val vecv(const char *s, int n, int exact, int fb, double mag) {
  Val v = fval(s, exact, fb, mag);
  v.t = T_V;
  v.n = n;
  return v;
}
static Val matv(const char *s, int n, int exact, int fb, double mag) {
  Val v = fval(s, exact, fb, mag);
  v.t = T_M;
  v.n = n;
  return v;
}

static Val gen_v(G *g, int n, int d, int need_exact) {
  int k = rn(&g->r, 14);
  if (d <= 0 || k < 3) {
    Var *x = pick_var(g, T_V, n, need_exact);
    if (x && chance(&g->r, 60)) return x->v;
    if (n == 3 && g->nv_in && !g->in_func && chance(&g->r, 70))
      return vecv(sf(g, "y%d[i]", rn(&g->r, g->nv_in)), 3, 1, 3, 4);
    if (chance(&g->r, 30)) {
      Val a = leaf_f(g, need_exact);
      tag(g, "vec_ctor");
      return vecv(sf(g, "%s(%s)", vecname(g, n), a.s), n, a.exact, a.fb, a.mag);
    }
    const char *s = "";
    int exact = 1, fb = 0;
    double mag = 0;
    for (int c = 0; c < n; c++) {
      Val a = leaf_f(g, need_exact);
      s = sf(g, "%s%s%s", s, c ? ", " : "", a.s);
      exact &= a.exact;
      if (a.fb > fb) fb = a.fb;
      if (a.mag > mag) mag = a.mag;
    }
    tag(g, "vec_ctor");
    return vecv(sf(g, "%s(%s)", vecname(g, n), s), n, exact, fb, mag);
  }
  Val a = gen_v(g, n, d - 1, need_exact);
  Val r = a;
  switch (k) {
  case 3:
  case 4: {
    Val b = gen_v(g, n, d - 1, need_exact);
    tag(g, k == 3 ? "add" : "sub");
    r = vecv(sf(g, "(%s %s %s)", a.s, k == 3 ? "+" : "-", b.s), n,
             a.exact && b.exact, a.fb > b.fb ? a.fb : b.fb, a.mag + b.mag);
    break;
  }
  case 5:
  case 6: {
    Val s = gen_f(g, d - 1, need_exact);
    tag(g, "mul");
    r = vecv(k == 5 ? sf(g, "(%s * %s)", a.s, s.s) : sf(g, "(%s * %s)", s.s, a.s),
             n, a.exact && s.exact, a.fb + s.fb, a.mag * s.mag);
    break;
  }
  case 7: {
    Val b = gen_v(g, n, d - 1, need_exact);
    tag(g, "cw_mul");
    r = vecv(sf(g, "wp.cw_mul(%s, %s)", a.s, b.s), n, a.exact && b.exact,
             a.fb + b.fb, a.mag * b.mag);
    break;
  }
  case 8:
    if (n == 3) {
      Val b = gen_v(g, n, d - 1, need_exact);
      tag(g, "cross");
      r = vecv(sf(g, "wp.cross(%s, %s)", a.s, b.s), n, a.exact && b.exact,
               a.fb + b.fb, 2 * a.mag * b.mag);
    }
    break;
  case 9:
    /* Normalising an exact vector: zero stays zero everywhere, and any
     * other exact vector is far above Warp's epsilon. */
    if (!need_exact && a.exact) {
      tag(g, "normalize");
      r = vecv(sf(g, "wp.normalize(%s)", a.s), n, 0, 0, 1);
    }
    break;
  case 10:
  case 11: {
    Val m = gen_m(g, n, d - 1, need_exact);
    tag(g, "matmul");
    if (k == 11) tag(g, "transpose");
    r = vecv(k == 10 ? sf(g, "(%s @ %s)", m.s, a.s)
                     : sf(g, "(wp.transpose(%s) @ %s)", m.s, a.s),
             n, a.exact && m.exact, a.fb + m.fb, n * a.mag * m.mag);
    break;
  }
  case 12: {
    int mn = chance(&g->r, 50);
    tag(g, mn ? "min" : "max");
    Val b = gen_v(g, n, d - 1, need_exact);
    r = vecv(sf(g, "wp.%s(%s, %s)", mn ? "min" : "max", a.s, b.s), n, a.exact && b.exact, a.fb > b.fb ? a.fb : b.fb,
             a.mag > b.mag ? a.mag : b.mag);
    break;
  }
  default:
    tag(g, "neg");
    r = vecv(sf(g, "(-%s)", a.s), n, a.exact, a.fb, a.mag);
  }
  if (need_exact && !r.exact) return a;
  if (r.mag > 1e4) {
    tag(g, "normalize");
    return vecv(sf(g, "wp.normalize(%s)", r.s), n, 0, 0, 1);
  }
  return r;
}

static Val gen_m(G *g, int n, int d, int need_exact) {
  int k = rn(&g->r, 12);
  if (d <= 0 || k < 3) {
    Var *x = pick_var(g, T_M, n, need_exact);
    if (x && chance(&g->r, 60)) return x->v;
    if (n == 3 && g->nm_in && !g->in_func && chance(&g->r, 70))
      return matv(sf(g, "w%d[i]", rn(&g->r, g->nm_in)), 3, 1, 3, 4);
    int w = rn(&g->r, 3);
    if (w == 0) {
      tag(g, "identity");
      return matv(sf(g, "wp.identity(n=%d, dtype=wp.float32)", n), n, 1, 0, 1);
    }
    Val a = gen_v(g, n, 0, need_exact), b = gen_v(g, n, 0, need_exact);
    if (w == 1) {
      tag(g, "outer");
      return matv(sf(g, "wp.outer(%s, %s)", a.s, b.s), n, a.exact && b.exact,
                  a.fb + b.fb, a.mag * b.mag);
    }
    tag(g, "diag");
    return matv(sf(g, "wp.diag(%s)", a.s), n, a.exact, a.fb, a.mag);
  }
  Val a = gen_m(g, n, d - 1, need_exact);
  Val r = a;
  switch (k) {
  case 3:
  case 4: {
    Val b = gen_m(g, n, d - 1, need_exact);
    tag(g, k == 3 ? "add" : "sub");
    r = matv(sf(g, "(%s %s %s)", a.s, k == 3 ? "+" : "-", b.s), n,
             a.exact && b.exact, a.fb > b.fb ? a.fb : b.fb, a.mag + b.mag);
    break;
  }
  case 5:
  case 6: {
    Val b = gen_m(g, n, d - 1, need_exact);
    tag(g, "matmul");
    r = matv(sf(g, "(%s @ %s)", a.s, b.s), n, a.exact && b.exact, a.fb + b.fb,
             n * a.mag * b.mag);
    break;
  }
  case 7: {
    Val s = gen_f(g, d - 1, need_exact);
    tag(g, "mul");
    r = matv(sf(g, "(%s * %s)", a.s, s.s), n, a.exact && s.exact, a.fb + s.fb,
             a.mag * s.mag);
    break;
  }
  case 8:
    tag(g, "transpose");
    r = matv(sf(g, "wp.transpose(%s)", a.s), n, a.exact, a.fb, a.mag);
    break;
  case 9:
    if (!need_exact) {
      /* I + s*A with ||s*A|| <= 1/4 is far from singular. */
      double s = 1;
      while (s * n * a.mag > 0.25) s /= 2;
      tag(g, "inverse");
      r = matv(sf(g, "wp.inverse(wp.identity(n=%d, dtype=wp.float32) + %s * %s)", n,
                  a.s, flit(g, s)), n, 0, 0, 1.5);
    }
    break;
  default:
    tag(g, "neg");
    r = matv(sf(g, "(-%s)", a.s), n, a.exact, a.fb, a.mag);
  }
  if (need_exact && !r.exact) return a;
  if (r.mag > 1e4) {
    r = matv(sf(g, "(%s * %s)", r.s, flit(g, ldexp(1.0, -bits_of(r.mag / 8)))), n,
             0, 0, 8);
  }
  return r;
}

/* ---------------------------------------------------------- statements */

static int expr_depth(G *g) { return 1 + (g->diff + 1) / 2; }

static void decl(G *g) {
  int w = rn(&g->r, 100);
  int vw = vec_weight(g);
  const char *nm = new_name(g);
  Val v;
  if (g->cat == SC_MATRIX && w < 35 && !g->in_func) {
    int n = chance(&g->r, 70) ? 3 : 2 + rn(&g->r, 3);
    v = gen_m(g, n, expr_depth(g), 0);
  } else if (w < vw + 10 && !g->in_func) {
    int n = chance(&g->r, 70) ? 3 : 2 + rn(&g->r, 3);
    v = gen_v(g, n, expr_depth(g), 0);
  } else if (w < vw + 35) {
    v = gen_i(g, expr_depth(g));
  } else {
    v = gen_f(g, expr_depth(g), 0);
  }
  line(g, "%s = %s", nm, v.s);
  add_var(g, nm, v);
}

static void block(G *g, int nstmts);

/* The variables declared inside a branch or loop are not visible after
 * it (a loop may run zero times; Warp and kern's definite assignment
 * agree on that only if we never read them). */
static void assign_to(G *g, Var *x, int delta_mag_factor);
static void assign_existing(G *g, int delta_mag_factor) {
  int cands[MAXVARS], c = 0;
  for (int i = 0; i < g->nvars; i++)
    if (!g->vars[i].locked && (g->vars[i].v.t == T_F || g->vars[i].v.t == T_I))
      cands[c++] = i;
  if (!c || g->loop_depth > 0) {
    decl(g);
    return;
  }
  assign_to(g, &g->vars[cands[rn(&g->r, c)]], delta_mag_factor);
}

/* x = f(x, e) where e does not read x; the bound of x grows as if the
 * statement ran delta_mag_factor times. */
static void assign_to(G *g, Var *x, int delta_mag_factor) {
  int was_locked = x->locked;
  x->locked = 1;
  if (x->v.t == T_F) {
    Val e = gen_f(g, expr_depth(g) - 1, 0);
    int k = rn(&g->r, 3);
    Val nv = x->v;
    if (k == 0) {
      tag(g, "add");
      line(g, "%s += %s", x->name, e.s);
      nv.mag = x->v.mag + delta_mag_factor * e.mag;
      nv.fb = e.fb > nv.fb ? e.fb : nv.fb;
      nv.exact = x->v.exact && e.exact;
    } else {
      tag(g, k == 1 ? "max" : "min");
      line(g, "%s = wp.%s(%s, %s)", x->name, k == 1 ? "max" : "min", x->name, e.s);
      nv.mag = x->v.mag > e.mag ? x->v.mag : e.mag;
      nv.fb = e.fb > nv.fb ? e.fb : nv.fb;
      nv.exact = x->v.exact && e.exact;
    }
    if (nv.exact && !fits(nv.fb, nv.mag)) nv.exact = 0;
    if (nv.mag > 1e4) {
      line(g, "%s = wp.clamp(%s, -64.0, 64.0)", x->name, x->name);
      nv.mag = 64;
    }
    nv.s = x->v.s;
    x->v = nv;
  } else {
    Val e = gen_i(g, expr_depth(g) - 1);
    int64_t lo = x->v.lo + delta_mag_factor * min64(0, e.lo);
    int64_t hi = x->v.hi + delta_mag_factor * max64(0, e.hi);
    if (lo <= -INT_LIMIT || hi >= INT_LIMIT || absmax(e) > INT_LIMIT / 64) {
      tag(g, "bitwise");
      line(g, "%s = (%s ^ %s) & 1023", x->name, x->name, e.s);
      x->v.lo = min64(x->v.lo, 0);
      x->v.hi = max64(x->v.hi, 1023);
    } else {
      tag(g, "add");
      line(g, "%s += %s", x->name, e.s);
      x->v.lo = lo;
      x->v.hi = hi;
    }
  }
  x->locked = was_locked;
}

static void stmt_if(G *g, int nstmts) {
  tag(g, "if");
  Val c = gen_b(g, 1);
  line(g, "if %s:", c.s);
  int save = g->nvars;
  g->indent++;
  g->ctl_depth++;
  block(g, nstmts);
  g->nvars = save;
  g->indent--;
  if (chance(&g->r, 40)) {
    Val c2 = gen_b(g, 1);
    line(g, "elif %s:", c2.s);
    g->indent++;
    block(g, nstmts);
    g->nvars = save;
    g->indent--;
  }
  if (chance(&g->r, 60)) {
    line(g, "else:");
    g->indent++;
    block(g, nstmts);
    g->nvars = save;
    g->indent--;
  }
  g->ctl_depth--;
}

static void stmt_loop(G *g, int nstmts) {
  int trips = 2 + rn(&g->r, 1 + g->diff);
  int save = g->nvars;
  const char *lv = sf(g, "t%d", g->loop_depth);
  int is_while = chance(&g->r, 30);
  /* Loop-carried accumulators declared before the loop, spelled as Warp
   * wants for variables a dynamic loop changes. */
  if (chance(&g->r, 50)) {
    const char *nm = new_name(g);
    line(g, "%s = float(0.0)", nm);
    add_var(g, nm, fval(nm, 1, 0, 0));
  } else {
    const char *nm = new_name(g);
    line(g, "%s = int(0)", nm);
    add_var(g, nm, ival(nm, 0, 0));
  }
  int outer = g->nvars;
  if (is_while) {
    tag(g, "while");
    line(g, "%s = int(0)", lv);
    line(g, "while %s < %d:", lv, trips);
    g->indent++;
    line(g, "%s += 1", lv);
  } else {
    tag(g, "for");
    int start = rn(&g->r, 3);
    if (start) line(g, "for %s in range(%d, %d):", lv, start, start + trips);
    else line(g, "for %s in range(%d):", lv, trips);
    g->indent++;
  }
  g->loop_depth++;
  g->ctl_depth++;
  /* the loop counter is an int in [0, start + trips] */
  add_var(g, lv, ival(lv, 0, trips + 2));
  /* The accumulators (the new variable, and sometimes an older scalar)
   * change from one iteration to the next, so the body never reads them:
   * every other value has the same bound in every iteration, and each
   * update widens its accumulator's bound by the trip count. */
  int accs[2], nacc = 1;
  accs[0] = outer - 1;
  for (int i = rn(&g->r, outer); i < outer - 1 && chance(&g->r, 50); i++)
    if ((g->vars[i].v.t == T_F || g->vars[i].v.t == T_I) && !g->vars[i].konst) {
      accs[nacc++] = i;
      break;
    }
  int locked[2];
  for (int a = 0; a < nacc; a++) {
    locked[a] = g->vars[accs[a]].locked;
    g->vars[accs[a]].locked = 1;
  }
  for (int s = 0; s < nstmts; s++) {
    int w = rn(&g->r, 10);
    if (w < 4) {
      assign_to(g, &g->vars[accs[rn(&g->r, nacc)]], trips + 2);
    } else if (w < 6 && g->ctl_depth < 2) {
      Val c = gen_b(g, 1);
      int brk = chance(&g->r, 50);
      tag(g, brk ? "break" : "continue");
      line(g, "if %s:", c.s);
      g->indent++;
      line(g, brk ? "break" : "continue");
      g->indent--;
    } else if (w < 7 && g->ctl_depth < 2 && g->diff >= 3) {
      stmt_if(g, 1);
    } else {
      decl(g);
    }
  }
  /* at least one update, so the accumulator means something */
  assign_to(g, &g->vars[accs[0]], trips + 2);
  for (int a = 0; a < nacc; a++) g->vars[accs[a]].locked = locked[a];
  g->loop_depth--;
  g->ctl_depth--;
  g->indent--;
  g->nvars = save + 1; /* keep the accumulator, forget the body's */
}

static void block(G *g, int nstmts) {
  for (int s = 0; s < nstmts; s++) {
    int w = rn(&g->r, 100);
    int ctl = g->cat == SC_CONTROL ? 45 : g->diff >= 3 ? 12 : 4;
    if (w < ctl && g->ctl_depth < (g->diff >= 3 ? 2 : 1) && !g->in_func) {
      if (chance(&g->r, 50)) stmt_if(g, 1 + rn(&g->r, 2));
      else stmt_loop(g, 1 + rn(&g->r, 3));
    } else if (w < ctl + 15 && g->ctl_depth > 0) {
      assign_existing(g, 1);
    } else {
      decl(g);
    }
  }
}

/* --------------------------------------------------------- functions */

static void gen_func(G *g, int fi, const char *prefix) {
  Func *f = &g->funcs[fi];
  snprintf(f->name, sizeof f->name, "%s_f%d", prefix, fi);
  f->nparams = 1 + rn(&g->r, 3);
  f->ret = chance(&g->r, 25) ? T_V : T_F;
  const char *params = "";
  int save_vars = g->nvars, save_names = g->nnames;
  g->nvars = 0;
  g->nnames = 0;
  g->in_func = 1;
  for (int p = 0; p < f->nparams; p++) {
    f->ptype[p] = chance(&g->r, 25) ? T_V : T_F;
    const char *pn = sf(g, "p%d", p);
    params = sf(g, "%s%s%s: %s", params, p ? ", " : "", pn,
                f->ptype[p] == T_F ? "float" : "wp.vec3");
    Val pv = f->ptype[p] == T_F ? fval(pn, 1, PARAM_FB, PARAM_MAG)
                                : vecv(pn, 3, 1, PARAM_FB, PARAM_MAG);
    add_var(g, pn, pv);
  }
  line(g, "@wp.func");
  line(g, "def %s(%s) -> %s:", f->name, params, f->ret == T_F ? "float" : "wp.vec3");
  g->indent++;
  int ntags = g->k->ntags;
  /* Earlier functions are visible to this one (calls nest). */
  g->nfuncs = fi;
  int nst = 1 + rn(&g->r, 1 + g->diff / 2);
  for (int s = 0; s < nst; s++) {
    const char *nm = new_name(g);
    Val v;
    g->in_func = 1;
    if (fi > 0 && chance(&g->r, 60)) {
      g->func_calls = 1;
      int save_nf = g->nf_in, save_ni = g->ni_in, save_nv = g->nv_in,
          save_nm = g->nm_in, save_sc = g->has_scalar, save_st = g->has_state;
      g->nf_in = g->ni_in = g->nv_in = g->nm_in = g->has_scalar = g->has_state = 0;
      int save_cat = g->cat;
      g->cat = SC_FUNCTIONS;
      v = gen_f(g, 2, 0);
      g->cat = save_cat;
      g->nf_in = save_nf, g->ni_in = save_ni, g->nv_in = save_nv;
      g->nm_in = save_nm, g->has_scalar = save_sc, g->has_state = save_st;
      g->func_calls = 0;
      tag(g, "nested_call");
    } else {
      v = gen_f(g, expr_depth(g), 0);
    }
    line(g, "%s = %s", nm, v.s);
    add_var(g, nm, v);
  }
  g->in_func = 1;
  Val r;
  if (f->ret == T_F) {
    r = gen_f(g, expr_depth(g), 0);
  } else {
    Var *pv = pick_var(g, T_V, 3, 0);
    Val s = gen_f(g, 1, 0);
    if (pv) {
      r = vecv(sf(g, "(%s * %s)", pv->name, s.s), 3, pv->v.exact && s.exact,
               pv->v.fb + s.fb, pv->v.mag * s.mag);
    } else {
      r = vecv(sf(g, "wp.vec3(%s, 1.0, 0.5)", s.s), 3, s.exact, s.fb, s.mag > 1 ? s.mag : 1);
    }
  }
  r = tame(g, r);
  if (r.t == T_V && r.mag > 1e4) r = vecv(sf(g, "wp.normalize(%s)", r.s), 3, 0, 0, 1);
  line(g, "return %s", r.s);
  g->indent--;
  line(g, "");
  line(g, "");
  /* Non-continuous operations in the body: the tags added while it was
   * generated say so. */
  f->disc = 0;
  for (int t = ntags; t < g->k->ntags; t++) {
    const char *s = g->k->tags[t];
    if (!strcmp(s, "compare") || !strcmp(s, "rounding") || !strcmp(s, "sign_step") ||
        !strcmp(s, "mod") || !strcmp(s, "cast") || !strcmp(s, "where") ||
        !strcmp(s, "inverse_trig") || !strcmp(s, "floordiv") || !strcmp(s, "div"))
      f->disc = 1;
  }
  f->result = r;
  g->nfuncs = fi + 1;
  g->in_func = 0;
  g->nvars = save_vars;
  g->nnames = save_names;
}

/* ------------------------------------------------------------ kernel */

static synth_arg *add_arg(G *g, const char *name, synth_arg_kind kind, int ndim,
                          int64_t d0, int64_t d1, double fill) {
  synth_kernel *k = g->k;
  if (k->nargs >= SYNTH_MAX_ARGS) return NULL;
  synth_arg *a = &k->args[k->nargs++];
  memset(a, 0, sizeof *a);
  copy_name(a->name, sizeof a->name, name);
  a->kind = kind;
  a->ndim = ndim;
  a->shape[0] = d0;
  a->shape[1] = d1;
  a->fill = fill;
  a->seed = rnext(&g->r);
  return a;
}

static const char *arg_type(const synth_arg *a) {
  static const char *one[] = {"wp.array(dtype=wp.float32)", "wp.array(dtype=wp.int32)",
                              "wp.array(dtype=wp.vec3)", "wp.array(dtype=wp.mat33)",
                              "wp.array(dtype=wp.float32)", "wp.array(dtype=wp.int32)",
                              "wp.array(dtype=wp.vec3)", "float", "int"};
  static const char *two[] = {"wp.array2d(dtype=wp.float32)", "wp.array2d(dtype=wp.int32)",
                              "", "", "wp.array2d(dtype=wp.float32)",
                              "wp.array2d(dtype=wp.int32)", "", "float", "int"};
  return a->ndim == 2 ? two[a->kind] : one[a->kind];
}

/* Output writes: each thread owns its element, or an atomic target. */
static void write_outputs(G *g, int nout_f, int has_vout, int has_iout) {
  const char *ix = tid_index(g);
  for (int o = 0; o < nout_f; o++) {
    Val v = gen_f(g, expr_depth(g), 0);
    line(g, "out%d[%s] = %s", o, ix, v.s);
  }
  if (has_vout) {
    Val v = gen_v(g, 3, expr_depth(g), 0);
    line(g, "outv[%s] = %s", ix, v.s);
  }
  if (has_iout) {
    Val v = gen_i(g, expr_depth(g));
    line(g, "outi[%s] = %s", ix, v.s);
  }
}

/* Atomic updates whose result does not depend on the order threads run:
 * integer adds within int32, exact float sums, min/max and bitwise. */
static void atomics(G *g, int count, int reduction) {
  for (int c = 0; c < count; c++) {
    int t = rn(&g->r, 100) < 50 ? T_F : T_I;
    const char *target = t == T_F ? "acc_f" : "acc_i";
    int64_t m = reduction ? 1 : 16;
    const char *idx = "0";
    if (!reduction) {
      Val e = gen_i(g, 1);
      if (absmax(e) < INT_LIMIT) idx = sf(g, "wp.abs(%s) %% %lld", e.s, (long long)m);
      else idx = "i % 16";
      if (chance(&g->r, 30)) idx = sf(g, "wp.clamp(%s, 0, %lld)", e.s, (long long)m - 1);
    }
    tag(g, reduction ? "reduction" : "atomic_add");
    int64_t total = g->n;
    if (t == T_F) {
      Val v = gen_f(g, expr_depth(g), 0);
      int fb = v.fb;
      int add_ok = v.exact && fits(fb, v.mag * (double)total);
      int k = rn(&g->r, 4);
      if (k <= 1 && add_ok) {
        tag(g, k == 0 ? "atomic_add" : "atomic_sub");
        if (k == 0 && chance(&g->r, 30))
          line(g, "%s[%s] += %s", target, idx, v.s);
        else
          line(g, "wp.atomic_%s(%s, %s, %s)", k == 0 ? "add" : "sub", target, idx, v.s);
      } else {
        int mx = rn(&g->r, 2);
        tag(g, mx ? "atomic_max" : "atomic_min");
        line(g, "wp.atomic_%s(acc_%s, %s, %s)", mx ? "max" : "min",
             mx ? "fmax" : "fmin", reduction ? "0" : idx, v.s);
      }
    } else {
      Val v = gen_i(g, expr_depth(g));
      int k = rn(&g->r, 5);
      if (absmax(v) * total >= INT_LIMIT && k <= 1) k = 2;
      if (k <= 1) {
        tag(g, k == 0 ? "atomic_add" : "atomic_sub");
        line(g, "wp.atomic_%s(%s, %s, %s)", k == 0 ? "add" : "sub", target, idx, v.s);
      } else if (k <= 3) {
        int mx = k == 3;
        tag(g, mx ? "atomic_max" : "atomic_min");
        line(g, "wp.atomic_%s(acc_%s, %s, %s)", mx ? "max" : "min",
             mx ? "imax" : "imin", reduction ? "0" : idx, v.s);
      } else {
        /* One bitwise operation per kernel: and, or and xor each commute
         * with themselves, but not with each other, so a mix made the
         * result depend on the order threads ran (three CUDA-vs-CPU
         * disagreements on an H100, generator kern-synth-1).  The draw
         * stays, so kernels without a mix are unchanged. */
        static const char *b[] = {"and", "or", "xor"};
        int op = rn(&g->r, 3);
        if (g->bitop < 0) g->bitop = op;
        tag(g, "atomic_bitwise");
        line(g, "wp.atomic_%s(acc_bits, %s, %s)", b[g->bitop],
             reduction ? "0" : idx, v.s);
      }
    }
  }
}

int synth_generate(uint64_t seed, uint64_t index, int category, int difficulty,
                   synth_kernel *out) {
  G gs;
  G *g = &gs;
  memset(g, 0, sizeof *g);
  memset(out, 0, sizeof *out);
  g->r.s = synth_mix(seed ^ synth_mix(index + 0x1234567ULL));
  g->cat = category;
  g->diff = difficulty < 1 ? 1 : difficulty > 5 ? 5 : difficulty;
  g->k = out;
  g->bitop = -1;
  out->category = category;
  out->difficulty = g->diff;
  const char *prefix = "@@";
  snprintf(out->name, sizeof out->name, "%s", prefix);

  static const int64_t sizes[] = {32, 64, 100, 128, 256};
  g->n = sizes[rn(&g->r, 5)];
  g->stencil = category == SC_STENCIL;
  if (g->stencil) {
    static const int64_t hw[] = {8, 12, 16, 24};
    g->h = hw[rn(&g->r, 4)];
    g->w = hw[rn(&g->r, 4)];
    g->n = g->h * g->w;
    out->ndim = 2;
    out->dims[0] = g->h;
    out->dims[1] = g->w;
  } else {
    out->ndim = 1;
    out->dims[0] = g->n;
  }
  int nd = g->stencil ? 2 : 1;
  int64_t d0 = g->stencil ? g->h : g->n, d1 = g->stencil ? g->w : 0;

  /* Parameters. */
  g->nf_in = 1 + rn(&g->r, 2);
  for (int a = 0; a < g->nf_in; a++)
    add_arg(g, sf(g, "x%d", a), SA_FLOAT_ARRAY, nd, d0, d1, 0);
  if (category == SC_ARITHMETIC || category == SC_CONTROL || chance(&g->r, 40)) {
    g->ni_in = 1;
    add_arg(g, "z0", SA_INT_ARRAY, nd, d0, d1, 0);
  }
  if (!g->stencil && (category == SC_VECTOR || category == SC_MATRIX || chance(&g->r, 15))) {
    g->nv_in = 1;
    add_arg(g, "y0", SA_VEC3_ARRAY, 1, d0, 0, 0);
  }
  if (!g->stencil && category == SC_MATRIX) {
    g->nm_in = 1;
    add_arg(g, "w0", SA_MAT33_ARRAY, 1, d0, 0, 0);
  }
  if (chance(&g->r, 40)) {
    g->has_scalar = 1;
    add_arg(g, "s0", SA_FLOAT_VALUE, 0, 0, 0, (rn(&g->r, 33) - 16) / 8.0);
  }
  if (category == SC_RANDOM) {
    g->has_seed = 1;
    add_arg(g, "seed", SA_INT_VALUE, 0, 0, 0, (double)(rn(&g->r, 100000)));
  }
  int nout_f = 1 + (chance(&g->r, 25) ? 1 : 0);
  for (int o = 0; o < nout_f; o++)
    add_arg(g, sf(g, "out%d", o), SA_FLOAT_OUT, nd, d0, d1, 0);
  int has_vout = !g->stencil && (category == SC_VECTOR || category == SC_MATRIX);
  if (has_vout) add_arg(g, "outv", SA_VEC3_OUT, 1, d0, 0, 0);
  int has_iout = category == SC_ARITHMETIC || category == SC_CONTROL || chance(&g->r, 20);
  if (has_iout) add_arg(g, "outi", SA_INT_OUT, nd, d0, d1, 0);
  int atom = category == SC_ATOMIC || category == SC_REDUCTION;
  if (atom) {
    int64_t m = category == SC_REDUCTION ? 1 : 16;
    add_arg(g, "acc_f", SA_FLOAT_OUT, 1, m, 0, 0);
    add_arg(g, "acc_i", SA_INT_OUT, 1, m, 0, 0);
    add_arg(g, "acc_fmin", SA_FLOAT_OUT, 1, m, 0, 1000.0);
    add_arg(g, "acc_fmax", SA_FLOAT_OUT, 1, m, 0, -1000.0);
    add_arg(g, "acc_imin", SA_INT_OUT, 1, m, 0, 1000000);
    add_arg(g, "acc_imax", SA_INT_OUT, 1, m, 0, -1000000);
    add_arg(g, "acc_bits", SA_INT_OUT, 1, m, 0, 0);
  }

  line(g, "import warp as wp");
  line(g, "");
  line(g, "");
  if (category == SC_FUNCTIONS || chance(&g->r, 10)) {
    int nf = category == SC_FUNCTIONS ? 2 + rn(&g->r, 2) : 1;
    for (int f = 0; f < nf; f++) gen_func(g, f, prefix);
  }
  const char *params = "";
  for (int a = 0; a < out->nargs; a++)
    params = sf(g, "%s%s%s: %s", params, a ? ", " : "", out->args[a].name,
                arg_type(&out->args[a]));
  line(g, "@wp.kernel");
  line(g, "def %s(%s):", prefix, params);
  g->indent = 1;
  line(g, g->stencil ? "i, j = wp.tid()" : "i = wp.tid()");
  if (category == SC_RANDOM) {
    g->has_state = 1;
    line(g, "state = wp.rand_init(seed, %s)", g->stencil ? "i * 64 + j" : "i");
    tag(g, "rand");
  }
  if (g->stencil) {
    /* Neighbourhood reads with indices clamped to the known shape. */
    tag(g, "stencil2d");
    int taps = 2 + rn(&g->r, 3 + g->diff);
    const char *sum = "";
    int fb = 0;
    double mag = 0;
    for (int t = 0; t < taps; t++) {
      int di = rn(&g->r, 5) - 2, dj = rn(&g->r, 5) - 2;
      double wgt = (rn(&g->r, 9) - 4) / 4.0;
      if (wgt == 0) wgt = 1;
      int a = rn(&g->r, g->nf_in);
      sum = sf(g, "%s%sx%d[wp.clamp(i + %d, 0, %lld), wp.clamp(j + %d, 0, %lld)] * %s",
               sum, t ? " + " : "", a, di, (long long)g->h - 1, dj,
               (long long)g->w - 1, flit(g, wgt));
      fb = 5;
      mag += 4 * fabs(wgt);
    }
    const char *nm = new_name(g);
    line(g, "%s = %s", nm, sum);
    add_var(g, nm, fval(nm, 1, fb, mag));
  }
  int nst = 1 + g->diff + rn(&g->r, 2 + g->diff);
  if (g->cat == SC_CONTROL && nst < 3) nst = 3;
  if (g->cat == SC_CONTROL && g->ctl_depth == 0 && chance(&g->r, 15)) {
    Val c = gen_b(g, 0);
    tag(g, "return");
    tag(g, "if");
    line(g, "if %s:", c.s);
    line(g, "    return");
  }
  block(g, nst);
  if (category == SC_CONTROL && !strstr(g->src, "    if ") && !strstr(g->src, "for ") &&
      !strstr(g->src, "while "))
    stmt_loop(g, 2);
  if (atom) atomics(g, 1 + rn(&g->r, 2 + g->diff / 2), category == SC_REDUCTION);
  write_outputs(g, nout_f, has_vout, has_iout);
  g->indent = 0;
  /* acc_bits starts at all ones under atomic_and, so the result shows
   * the operation (from zero it is always zero). */
  if (g->bitop == 0)
    for (int a = 0; a < out->nargs; a++)
      if (!strcmp(out->args[a].name, "acc_bits")) out->args[a].fill = -1;

  while (g->chunks) {
    struct Chunk *c = g->chunks;
    g->chunks = c->next;
    free(c);
  }
  if (g->oom || !g->src) {
    free(g->src);
    return -1;
  }
  out->source = g->src;
  out->lines = 0;
  for (const char *p = g->src; (p = strchr(p, '\n')); p++) out->lines++;
  /* Tags sorted, so records do not depend on generation order. */
  for (int i = 1; i < out->ntags; i++)
    for (int j = i; j > 0 && strcmp(out->tags[j - 1], out->tags[j]) > 0; j--) {
      const char *t = out->tags[j];
      out->tags[j] = out->tags[j - 1];
      out->tags[j - 1] = t;
    }
  return 0;
}

void synth_kernel_free(synth_kernel *k) {
  if (!k) return;
  free(k->source);
  k->source = NULL;
}

void synth_fill_input(const synth_arg *a, void *data, int64_t nscalars) {
  Rng r = {a->seed};
  if (a->kind == SA_INT_ARRAY) {
    int32_t *p = data;
    for (int64_t i = 0; i < nscalars; i++) p[i] = (int32_t)(rn(&r, 201) - 100);
    return;
  }
  float *p = data;
  for (int64_t i = 0; i < nscalars; i++) p[i] = (float)(rn(&r, 65) - 32) / 8.0f;
}
