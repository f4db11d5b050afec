/*
 * fuzz_compiler.c -- structure-aware libFuzzer harness for the whole
 * compiler: every input is compiled for the C, CUDA and OpenCL targets.
 *
 * Byte-level mutation of Python source mostly breaks the lexer or the
 * indentation, so almost nothing reaches the checker, lowering and the
 * emitters.  This harness therefore brings its own mutator
 * (LLVMFuzzerCustomMutator) that edits the source the way a person would:
 * it works on whole lines (delete, duplicate, swap, move, re-indent, insert
 * a valid Warp statement) and on tokens (replace a name with another name
 * of the file or a wp.* builtin, a number with an edge-case number, an
 * operator with another operator, wrap an expression in a builtin call).
 * A third of the time it defers to libFuzzer's own byte mutations, which
 * also draw on fuzz/kern.dict, and the cross-over splices line ranges of
 * two inputs.  Seeds are the conformance kernels, the examples and the
 * error tests (tests/conformance, tests/errors, examples), so inputs stay close to valid kernels.
 *
 * Besides "never crash, leak or hang", every input checks what the
 * runtime relies on (Note [target-independent status]):
 *   - a success yields source text whose source_len is its strlen, and a
 *     name and symbol for each kernel;
 *   - a failure yields a diagnostic "fuzz.py:LINE:COL: error: ..." (or is
 *     an out-of-memory status);
 *   - all three targets agree on success or failure.
 * A broken invariant calls abort(), which libFuzzer reports as a crash.
 * Set KERN_FUZZ_LAX=1 in the environment to check only for crashes.
 *
 * The debug (bounds checks) and #line options are taken from a hash of the
 * input, so every input is reproducible on its own.
 *
 * Nothing generated is ever built or run: compile only.
 *
 * Note [target-independent status]: the front end, the checker and
 * lowering are shared by all targets and only they report user errors; an
 * emitter may only fail on an internal error.  So a program accepted for
 * one target and rejected for another is a compiler bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* ---------------------------------------------------------------- target */

static int lax = -1;

static void fail(const char *what, int t, const kc_result *r) {
  fprintf(stderr, "fuzz_compiler: invariant broken [%s]: %s\n",
          kern__target_name((kern__target)t), what);
  if (r && r->error)
    fprintf(stderr, "%s\n", r->error);
  abort();
}

static uint32_t fnv1a(const uint8_t *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (lax < 0) {
    const char *e = getenv("KERN_FUZZ_LAX");
    lax = e && *e && *e != '0';
  }
  /* Exact-size copy without a NUL, as kern_module_load_string allows. */
  char *src = malloc(size ? size : 1);
  if (!src)
    return 0;
  if (size)
    memcpy(src, data, size);
  uint32_t h = fnv1a(data, size);
  kc_options opts = {(int)(h & 1), (int)((h >> 1) & 1)};

  kern_status first = KERN_SUCCESS;
  for (int t = 0; t < KERN_TARGET_COUNT; t++) {
    kc_result r;
    kern_status st = kern__compile("fuzz.py", src, size, (kern__target)t,
                                   &opts, &r);
    if (!lax) {
      if (st == KERN_SUCCESS) {
        if (!r.source || r.source_len != strlen(r.source))
          fail("success without source text of source_len bytes", t, &r);
        if (r.nkernels < 0 || (r.nkernels && !r.kernels))
          fail("bad kernel list", t, &r);
        for (int k = 0; k < r.nkernels; k++)
          if (!r.kernels[k].name || !r.kernels[k].symbol ||
              r.kernels[k].nparams < 0)
            fail("kernel without name, symbol or parameters", t, &r);
        if (r.error)
          fail("success with an error message", t, &r);
      } else if (st == KERN_ERROR_COMPILE) {
        /* Only the first line is the message; the rest quotes the source,
         * which may contain anything. */
        const char *msg = r.error ? strstr(r.error, ": error: ") : NULL;
        const char *nl = r.error ? strchr(r.error, '\n') : NULL;
        if (!msg || strncmp(r.error, "fuzz.py:", 8) || (nl && nl < msg))
          fail("compile error without a 'fuzz.py:L:C: error:' diagnostic", t,
               &r);
        if (!strncmp(msg + 9, "internal", 8))
          fail("internal compiler error", t, &r);
      } else if (st != KERN_ERROR_OUT_OF_MEMORY) {
        fail("unexpected status", t, &r);
      }
      if (t == 0)
        first = st;
      else if (st != first)
        fail("targets disagree on success (Note [target-independent status])",
             t, &r);
    }
    kern__compile_result_free(&r);
  }
  free(src);
  return 0;
}

/* ---------------------------------------------------------------- mutator */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n) {
  /* xorshift64*; n > 0 */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 2685821657736338717ull) >> 32) % n;
}

/* Valid Warp statements, inserted at the indentation of a nearby line.  The
 * names match the ones the conformance kernels use most (i, j, a, x, v, m,
 * n) so an inserted line often type-checks. */
static const char *const snippets[] = {
    "i = wp.tid()",
    "i, j = wp.tid()",
    "x = float(i)",
    "x = 1.0",
    "n = 10",
    "v = wp.vec3(1.0, 2.0, 3.0)",
    "v = wp.vec3(x, x, x)",
    "m = wp.mat33(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)",
    "m = wp.identity(n=3, dtype=float)",
    "q = wp.quat(0.0, 0.0, 0.0, 1.0)",
    "v = m * v",
    "x = wp.dot(v, v)",
    "v = wp.normalize(wp.cross(v, v))",
    "x = wp.length(v)",
    "for j in range(3):",
    "for j in range(0, n, 2):",
    "for j in range(n - 1, -1, -1):",
    "while x > 0.0:",
    "if i < 10:",
    "if x >= 0.5 and not i == 3:",
    "elif i > 3:",
    "else:",
    "pass",
    "break",
    "continue",
    "return",
    "return x",
    "return wp.vec3(0.0)",
    "x += 1.0",
    "i -= 1",
    "x = wp.sin(x) * wp.cos(x) + wp.sqrt(wp.abs(x))",
    "x = wp.min(x, 2.0)",
    "x = wp.clamp(x, 0.0, 1.0)",
    "x = wp.select(i > 2, x, 0.0)",
    "x = x if i > 2 else 0.0",
    "i = i // 2 % 3",
    "i = i << 2 | 1",
    "a[i] = x",
    "a[i] = a[i] * 2.0",
    "x = a[i]",
    "x = a[i, j]",
    "a[i, j] = x",
    "n = a.shape[0]",
    "wp.atomic_add(a, i, x)",
    "wp.atomic_max(a, 0, x)",
    "wp.atomic_add(a, 0, 1)",
    "old = wp.atomic_cas(a, i, 0, 1)",
    "wp.printf(\"%d %f\\n\", i, x)",
    "print(x)",
    "assert i >= 0",
    "y: float = 0.0",
    "k: int = 0",
    "t = (1, 2.0)",
    "v[0] = x",
    "x = v.x + v[1]",
    "m[0, 1] = x",
    "x = m[0][1]",
    "s = wp.rand_init(42, i)",
    "x = wp.randf(s)",
    "x = wp.float64(x)",
    "i = wp.int32(x)",
    "u = wp.uint8(255)",
    "x = f(x)",
    "@wp.kernel",
    "@wp.func",
    "def k(a: wp.array(dtype=float)):",
    "def k(a: wp.array(dtype=float), x: float, n: int):",
    "def k(a: wp.array2d(dtype=wp.vec3), v: wp.vec3, m: wp.mat33):",
    "def f(x: float) -> float:",
    "def f(x: float, v: wp.vec3) -> wp.vec3:",
    "import warp as wp",
    "C = wp.constant(3)",
};
#define NSNIPPETS (sizeof snippets / sizeof snippets[0])

static const char *const names[] = {
    "i", "j", "k", "a", "b", "x", "y", "v", "m", "n", "s", "t", "q", "f",
    "wp", "float", "int", "bool", "range", "len", "print", "None", "True",
    "wp.tid", "wp.vec3", "wp.mat33", "wp.float64", "wp.int8", "wp.uint64",
    "wp.sqrt", "wp.dot", "wp.atomic_add", "wp.select", "wp.printf",
    "wp.array", "wp.vec4d", "wp.mat22h", "wp.transpose", "wp.inverse",
    "wp.float16", "wp.pi", "wp.inf",
};
#define NNAMES (sizeof names / sizeof names[0])

static const char *const numbers[] = {
    "0", "1", "-1", "2", "3", "4", "5", "255", "256", "65535", "2147483647",
    "2147483648", "-2147483648", "4294967295", "9223372036854775807",
    "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "99999999999999999999999", "0.0", "-0.0", "0.5", "1.0", "1e38", "1e39",
    "1e308", "1e309", "1e-320", "3.4028235e38", "6.1e-5", "65504.0",
    "0x10", "0b11", "0o7", "1_0",
};
#define NNUMBERS (sizeof numbers / sizeof numbers[0])

static const char *const ops[] = {
    "+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<",
    ">", "<=", ">=", "==", "!=", " and ", " or ", " is ", " in ", "@",
};
#define NOPS (sizeof ops / sizeof ops[0])

static const char *const wrappers[] = {
    "wp.abs(", "wp.sqrt(", "float(", "int(", "wp.float64(", "wp.int8(",
    "wp.uint32(", "wp.vec3(", "wp.length(", "wp.normalize(", "-(", "not (",
    "wp.transpose(", "wp.min(1, ", "wp.max(0.0, ", "wp.select(True, ",
    "wp.vec2(0.0, ", "(", "wp.float16(", "wp.bool(",
};
#define NWRAPPERS (sizeof wrappers / sizeof wrappers[0])

/* A line of the input: [start, start+len) excluding the '\n'. */
typedef struct Line {
  size_t start, len;
} Line;

static size_t split_lines(const uint8_t *d, size_t n, Line *out, size_t max) {
  size_t k = 0, s = 0;
  for (size_t i = 0; i <= n && k < max; i++)
    if (i == n || d[i] == '\n') {
      if (i == n && s == n && k > 0)
        break; /* a final '\n' does not start an empty line */
      out[k].start = s;
      out[k].len = i - s;
      k++;
      s = i + 1;
    }
  return k;
}

static size_t indent_of(const uint8_t *d, Line l) {
  size_t i = 0;
  while (i < l.len && (d[l.start + i] == ' ' || d[l.start + i] == '\t'))
    i++;
  return i;
}

/* Output buffer bounded by max; returns 0 when it does not fit. */
typedef struct Out {
  uint8_t *p;
  size_t n, max;
  int over;
} Out;

static void put(Out *o, const void *s, size_t n) {
  if (o->over || o->n + n > o->max) {
    o->over = 1;
    return;
  }
  memcpy(o->p + o->n, s, n);
  o->n += n;
}
static void puts_(Out *o, const char *s) { put(o, s, strlen(s)); }

#define MAXLINES 4096

/* Line-level edits.  Writes the result to tmp (capacity max) and returns
 * its size, or 0 when the edit does not apply. */
static size_t mutate_lines(const uint8_t *d, size_t n, uint8_t *tmp,
                           size_t max) {
  static Line lines[MAXLINES];
  size_t nl = split_lines(d, n, lines, MAXLINES);
  if (nl == 0)
    return 0;
  size_t a = rnd((uint32_t)nl), b = rnd((uint32_t)nl);
  int op = (int)rnd(7);
  Out o = {tmp, 0, max, 0};
  for (size_t i = 0; i < nl; i++) {
    Line l = lines[i];
    const uint8_t *lp = d + l.start;
    int emit = 1;
    switch (op) {
    case 0: /* delete line a */
      emit = i != a;
      break;
    case 1: /* duplicate line a */
      if (i == a) {
        put(&o, lp, l.len);
        puts_(&o, "\n");
      }
      break;
    case 2: /* swap lines a and b */
      if (i == a)
        l = lines[b];
      else if (i == b)
        l = lines[a];
      lp = d + l.start;
      break;
    case 3: /* move line a before line b */
      if (i == a)
        emit = 0;
      if (i == b) {
        put(&o, d + lines[a].start, lines[a].len);
        puts_(&o, "\n");
      }
      break;
    case 4: { /* re-indent line a by -4, -1, +1, +4 spaces or a tab */
      if (i != a)
        break;
      size_t ind = indent_of(d, l);
      static const int deltas[] = {-4, -1, 1, 4, 8};
      int delta = deltas[rnd(5)];
      if (rnd(6) == 0) {
        put(&o, "\t", 1);
      } else if (delta > 0) {
        put(&o, "        ", (size_t)delta);
      } else {
        size_t cut = (size_t)-delta < ind ? (size_t)-delta : ind;
        lp += cut;
        l.len -= cut;
      }
      break;
    }
    default: /* insert a snippet before line a, indented like line a or
                one level deeper */
      if (i == a) {
        size_t ind = indent_of(d, l);
        put(&o, lp, ind);
        if (rnd(3) == 0)
          puts_(&o, "    ");
        puts_(&o, snippets[rnd(NSNIPPETS)]);
        puts_(&o, "\n");
        if (rnd(4) == 0) { /* and a body for a header */
          put(&o, lp, ind);
          puts_(&o, "    ");
          puts_(&o, snippets[rnd(NSNIPPETS)]);
          puts_(&o, "\n");
        }
      }
      break;
    }
    if (emit) {
      put(&o, lp, l.len);
      if (i + 1 < nl || (n > 0 && d[n - 1] == '\n'))
        puts_(&o, "\n");
    }
  }
  return o.over ? 0 : o.n;
}

static int is_name_start(uint8_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_name_char(uint8_t c) {
  return is_name_start(c) || (c >= '0' && c <= '9');
}
static int is_op_char(uint8_t c) { return c && strchr("+-*/%<>=!&|^@~", c); }

/* Token-level edits: finds the token at a random offset and replaces it. */
static size_t mutate_token(const uint8_t *d, size_t n, uint8_t *tmp,
                           size_t max) {
  if (n == 0)
    return 0;
  for (int tries = 0; tries < 16; tries++) {
    size_t p = rnd((uint32_t)n);
    size_t s = p, e = p;
    const char *rep = NULL;
    char buf[256];
    if (is_name_char(d[p])) {
      while (s > 0 && (is_name_char(d[s - 1]) || d[s - 1] == '.'))
        s--;
      while (e < n && (is_name_char(d[e]) || d[e] == '.'))
        e++;
      int num = d[s] >= '0' && d[s] <= '9';
      if (num) {
        rep = numbers[rnd(NNUMBERS)];
      } else {
        switch (rnd(4)) {
        case 0: { /* another name of this file */
          for (int t = 0; t < 8 && !rep; t++) {
            size_t q = rnd((uint32_t)n), qs = q, qe = q;
            if (!is_name_start(d[q]))
              continue;
            while (qs > 0 && is_name_char(d[qs - 1]))
              qs--;
            while (qe < n && is_name_char(d[qe]))
              qe++;
            if (qe - qs < sizeof buf) {
              memcpy(buf, d + qs, qe - qs);
              buf[qe - qs] = 0;
              rep = buf;
            }
          }
          break;
        }
        case 1: /* wrap in a builtin call */
          if (e - s + 32 < sizeof buf) {
            const char *w = wrappers[rnd(NWRAPPERS)];
            snprintf(buf, sizeof buf, "%s%.*s)", w, (int)(e - s),
                     (const char *)d + s);
            rep = buf;
          }
          break;
        default:
          rep = names[rnd(NNAMES)];
          break;
        }
      }
    } else if (is_op_char(d[p])) {
      while (s > 0 && is_op_char(d[s - 1]))
        s--;
      while (e < n && is_op_char(d[e]))
        e++;
      rep = ops[rnd(NOPS)];
    } else if (d[p] == ')' || d[p] == ']') {
      /* add an argument or an index */
      static const char *const extra[] = {", 1", ", x", ", 0.0", ", i",
                                          ", dtype=float", ", n=2", ",",
                                          ", v", ", -1", "[0]"};
      s = e = p;
      rep = extra[rnd(sizeof extra / sizeof extra[0])];
    }
    if (!rep)
      continue;
    size_t rl = strlen(rep);
    if (n - (e - s) + rl > max)
      return 0;
    memcpy(tmp, d, s);
    memcpy(tmp + s, rep, rl);
    memcpy(tmp + s + rl, d + e, n - e);
    return n - (e - s) + rl;
  }
  return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed) {
  rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1;
  static uint8_t *tmp;
  static size_t tmpcap;
  if (tmpcap < max_size) {
    free(tmp);
    tmp = malloc(max_size);
    tmpcap = tmp ? max_size : 0;
    if (!tmp)
      return LLVMFuzzerMutate(data, size, max_size);
  }
  /* Several structured edits in a row reach further than one. */
  int rounds = 1 + (int)rnd(3);
  size_t n = size;
  for (int r = 0; r < rounds; r++) {
    uint32_t c = rnd(9);
    size_t m = 0;
    if (c < 3)
      m = LLVMFuzzerMutate(data, n, max_size);
    else if (c < 6)
      m = mutate_lines(data, n, tmp, max_size);
    else
      m = mutate_token(data, n, tmp, max_size);
    if (c >= 3 && m > 0) {
      memcpy(data, tmp, m);
      n = m;
    } else if (c < 3) {
      n = m;
    }
  }
  if (n == 0) /* every edit emptied it: start over from nothing */
    return LLVMFuzzerMutate(data, 0, max_size);
  return n;
}

/* Splices a run of lines of data2 into data1 at a line boundary. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                 const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size,
                                 unsigned int seed) {
  rng_state = (uint64_t)seed * 0xD1B54A32D192ED03ull + 7;
  static Line l1[MAXLINES], l2[MAXLINES];
  size_t n1 = split_lines(data1, size1, l1, MAXLINES);
  size_t n2 = split_lines(data2, size2, l2, MAXLINES);
  if (n1 == 0 || n2 == 0)
    return 0;
  size_t at = rnd((uint32_t)n1 + 1);          /* insert before line `at` */
  size_t from = rnd((uint32_t)n2);            /* lines [from, to) of data2 */
  size_t to = from + 1 + rnd((uint32_t)(n2 - from < 20 ? n2 - from : 20));
  if (to > n2)
    to = n2;
  int replace = (int)rnd(2); /* replace as many lines of data1 */
  Out o = {out, 0, max_out_size, 0};
  for (size_t i = 0; i <= n1; i++) {
    if (i == at)
      for (size_t j = from; j < to; j++) {
        put(&o, data2 + l2[j].start, l2[j].len);
        puts_(&o, "\n");
      }
    if (i == n1)
      break;
    if (replace && i >= at && i < at + (to - from))
      continue;
    put(&o, data1 + l1[i].start, l1[i].len);
    puts_(&o, "\n");
  }
  return o.over ? 0 : o.n;
}
