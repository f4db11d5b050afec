/*
 * bench_test.c -- unit tests of kern bench's parts that need no device:
 * the spec parser and its messages (exact text and column), size
 * expansion and expressions, statistics on samples with known answers, the
 * sampler's stopping rule, the JSON parser and schema validator, and
 * --compare's verdicts on synthetic result files.
 *
 * `bench_test validate SCHEMA FILE` validates a --json file against the
 * schema; the end-to-end test (bench_e2e.sh) runs it on real output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../runtime/test.h"
#include "bench.h"

static char err[2048];

static const char good[] =
    "import warp as wp\n"
    "# kern-bench: k --dim N,M x=rand(float64,N,seed=3) out=zeros(float64,1)\n"
    "# kern-bench-sizes: N=10,20,30 M=4\n"
    "#   kern-bench-check: out rtol=1e-6\n"
    "# kern-bench-count: bytes=8*N+16 flops=2*(N-1)\n"
    "# kern-bench-ref: numpy: out = np.dot(x, x)\n"
    "# kern-bench-ref: torch:out=torch.dot(x,x)\n"
    "@wp.kernel\n"
    "def k(x: wp.array(dtype=wp.float64)):\n"
    "    pass\n"
    "# kern-bench: k2 --dim 5 a=1\n";

static void test_parse_good(void) {
  bench_file f;
  ASSERT_EQ(bench_file_parse("g.py", good, &f, err, sizeof err), 0);
  ASSERT_EQ(f.nspecs, 2);
  bench_spec *s = &f.specs[0];
  ASSERT_STREQ(s->kernel, "k");
  ASSERT_EQ(s->line, 2);
  ASSERT_STREQ(s->dims, "N,M");
  ASSERT_EQ(s->nargs, 2);
  ASSERT_STREQ(s->args[0].name, "x");
  ASSERT_STREQ(s->args[0].text, "rand(float64,N,seed=3)");
  ASSERT_EQ(s->args[0].col, 29); /* the SPEC after "x=" */
  ASSERT_EQ(s->npoints, 3);
  ASSERT_EQ(s->val[0][2], 30);
  ASSERT_EQ(s->val[1][2], 4); /* one value holds at every point */
  ASSERT_EQ(s->nchecks, 1);
  ASSERT_NEAR(s->checks[0].rtol, 1e-6, 0);
  ASSERT(s->checks[0].atol < 0);
  ASSERT_EQ(s->nrefs, 2);
  ASSERT_STREQ(s->refs[1].lib, "torch");
  ASSERT_STREQ(s->refs[1].output, "out");
  ASSERT_STREQ(s->refs[1].expr, "torch.dot(x,x)");
  char buf[128];
  ASSERT_EQ(bench_expand(s, 1, s->args[0].text, buf, sizeof buf), 0);
  ASSERT_STREQ(buf, "rand(float64,20,seed=3)");
  ASSERT_EQ(bench_expand(s, 2, "N,M,NN,xN", buf, sizeof buf), 0);
  ASSERT_STREQ(buf, "30,4,NN,xN");
  ASSERT_EQ(bench_expand(s, 0, "N", buf, 2), -1);
  double v;
  ASSERT_EQ(bench_eval(s, 1, s->bytes_expr, &v, err, sizeof err), 0);
  ASSERT_NEAR(v, 176, 0);
  ASSERT_EQ(bench_eval(s, 2, s->flops_expr, &v, err, sizeof err), 0);
  ASSERT_NEAR(v, 58, 0);
  ASSERT_EQ(bench_eval(s, 0, "(N + M) * 2 / 4 - -1", &v, err, sizeof err), 0);
  ASSERT_NEAR(v, 8, 0);
  ASSERT_EQ(bench_eval(s, 0, "N / (M - 4)", &v, err, sizeof err), -1);
  ASSERT_EQ(f.specs[1].npoints, 1);
  bench_file_free(&f);
}

/* Each bad spec with its exact first message line (path:line:col). */
static const struct {
  const char *src, *msg;
} bad[] = {
    {"# kern-bench-sizes: N=1\n",
     "b.py:1:3: error: 'kern-bench-sizes' before any '# kern-bench:' line"},
    {"# kern-bench: k x=1\n",
     "b.py:1:20: error: missing '--dim N' (the launch dimensions)"},
    {"# kern-bench: 3k --dim 1\n", "b.py:1:15: error: '3k' is not a kernel name"},
    {"# kern-bench: k --dim 1 x\n", "b.py:1:25: error: expected NAME=SPEC, got 'x'"},
    {"# kern-bench: k --dim 1 x=1 x=2\n",
     "b.py:1:29: error: parameter 'x' is given twice"},
    {"# kern-bench: k --dim 1 x=\n", "b.py:1:27: error: missing SPEC after '='"},
    {"# kern-bench: k --dim 1 --dims 2\n",
     "b.py:1:25: error: unknown option '--dims' (a spec takes --dim, "
     "--block-dim, --tiled and NAME=SPEC)"},
    {"# kern-bench: k --dim 1 --block-dim 0 x=1\n",
     "b.py:1:37: error: --block-dim '0' is not an integer from 1 to 1024"},
    {"# kern-bench: k --dim 1 --block-dim 2048 x=1\n",
     "b.py:1:37: error: --block-dim '2048' is not an integer from 1 to 1024"},
    {"# kern-bench: k --dim 1 --block-dim\n",
     "b.py:1:36: error: '--block-dim' needs a value: --block-dim N"},
    {"# kern-bench: k --dim N x=1\n",
     "b.py:1:23: error: 'N' in --dim is neither a positive integer nor a size "
     "named in kern-bench-sizes"},
    {"# kern-bench: k --dim 4,Q x=1\n# kern-bench-sizes: N=2\n",
     "b.py:1:25: error: 'Q' in --dim is neither a positive integer nor a size "
     "named in kern-bench-sizes"},
    {"# kern-bench: k --dim N x=1\n# kern-bench-sizes: N=1,0\n",
     "b.py:2:25: error: '0' is not a positive integer"},
    {"# kern-bench: k --dim N x=1\n# kern-bench-sizes: N=1,2 M=1,2,3\n",
     "b.py:2:27: error: size 'M' has 3 values where another has 2 (sizes of a "
     "sweep have one value or the same number)"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-check: y\n",
     "b.py:2:21: error: 'y' is not an argument of the spec"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-check: x tol=1\n",
     "b.py:2:23: error: expected rtol=R or atol=A, got 'tol=1'"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-check: x rtol=-1\n",
     "b.py:2:28: error: '-1' is not a non-negative number"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-count: bytes=8*N\n",
     "b.py:2:29: error: unknown size 'N' (sizes come from kern-bench-sizes, "
     "above this line)"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-count: ops=1\n",
     "b.py:2:21: error: expected bytes=EXPR or flops=EXPR (no spaces inside "
     "EXPR), got 'ops=1'"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-count: bytes=(2\n",
     "b.py:2:29: error: expected ')'"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-check: x\n# kern-bench-ref: tensorflow: x = 1\n",
     "b.py:3:19: error: unknown library 'tensorflow' (numpy, torch, cupy, jax or warp)"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-ref: numpy: x = 1\n",
     "b.py:2:26: error: 'x' is not a checked output (add '# kern-bench-check: "
     "x' above this line)"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-check: x\n# kern-bench-ref: numpy: x 1\n",
     "b.py:3:28: error: expected '=' after the output name"},
    {"# kern-bench: k --dim 1 x=1\n# kern-bench-timeout: 3\n",
     "b.py:2:3: error: unknown spec line 'kern-bench-timeout' (kern-bench, "
     "kern-bench-sizes, -check, -count, -ref)"},
    {"# kern-bench k --dim 1\n", "b.py:1:13: error: expected ':' after 'kern-bench'"},
    {"import warp as wp\n", "b.py: error: no '# kern-bench:' spec in the file (see docs/bench.md)"},
};

static void test_parse_errors(void) {
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    bench_file f;
    err[0] = '\0';
    int rc = bench_file_parse("b.py", bad[i].src, &f, err, sizeof err);
    char *nl = strchr(err, '\n');
    if (nl) *nl = '\0';
    if (rc != -1 || strcmp(err, bad[i].msg) != 0) {
      fprintf(stderr, "bad spec %zu:\n%s\ngot rc %d:\n  %s\nwant:\n  %s\n", i,
              bad[i].src, rc, err, bad[i].msg);
      exit(1);
    }
  }
  /* --block-dim and --tiled (wp.launch_tiled) are kept with the spec */
  bench_file f;
  ASSERT_EQ(bench_file_parse("b.py", "# kern-bench: k --dim 2,3 --tiled "
                             "--block-dim 64 x=1\n# kern-bench: j --dim 1 y=2\n",
                             &f, err, sizeof err), 0);
  ASSERT_EQ(f.specs[0].tiled, 1);
  ASSERT_EQ(f.specs[0].block_dim, 64);
  ASSERT_EQ(f.specs[1].tiled, 0);
  ASSERT_EQ(f.specs[1].block_dim, 0);
  bench_file_free(&f);
  /* The source line and a caret under the column follow the message. */
  ASSERT_EQ(bench_file_parse("b.py", "# kern-bench: k --dim 1 x\n", &f, err,
                             sizeof err), -1);
  ASSERT_STREQ(strchr(err, '\n'),
                "\n # kern-bench: k --dim 1 x\n                         ^");
}

static void test_stats(void) {
  bench_stats st;
  double x[] = {4, 1, 3, 2, 5};
  bench_stats_compute(x, 5, &st);
  ASSERT_EQ(st.n, 5);
  ASSERT_NEAR(st.median, 3, 0);
  ASSERT_NEAR(st.min, 1, 0);
  ASSERT_NEAR(st.max, 5, 0);
  ASSERT_NEAR(st.mean, 3, 1e-15);
  ASSERT_NEAR(st.stddev, sqrt(2.5), 1e-15); /* sample variance 10/4 */
  ASSERT_NEAR(st.rsd, sqrt(2.5) / 3, 1e-15);
  double y[] = {2, 10, 4, 8};
  bench_stats_compute(y, 4, &st);
  ASSERT_NEAR(st.median, 6, 0); /* mean of the middle two */
  double c[] = {7, 7, 7};
  bench_stats_compute(c, 3, &st);
  ASSERT_NEAR(st.rsd, 0, 0);
  bench_stats_compute(c, 0, &st);
  ASSERT_EQ(st.n, 0);
  ASSERT_NEAR(st.median, 0, 0);
  /* A long tail moves the mean, not the median. */
  double t[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 100};
  bench_stats_compute(t, 10, &st);
  ASSERT_NEAR(st.median, 1, 0);
  ASSERT_NEAR(st.mean, 10.9, 1e-12);
}

static void test_sampler(void) {
  bench_sampler s;
  /* Constant samples: the RSD is 0 once min_samples are in. */
  bench_sampler_init(&s, 0.01, 100, 5, 1000);
  int i = 0, done = 0;
  while (!done) done = bench_sampler_add(&s, 1e-3, 1e-3), i++;
  ASSERT_EQ(i, 5);
  ASSERT_STREQ(s.stop, "rsd");
  bench_sampler_free(&s);
  /* Alternating 1, 3: the RSD stays near 0.5; the budget (each sample
   * costs 0.125 s, budget 1.25 s) stops it after 10. */
  bench_sampler_init(&s, 0.01, 1.25, 5, 1000);
  i = done = 0;
  while (!done) done = bench_sampler_add(&s, i % 2 ? 3 : 1, 0.125), i++;
  ASSERT_EQ(i, 10);
  ASSERT_STREQ(s.stop, "budget");
  bench_sampler_free(&s);
  /* Max samples. */
  bench_sampler_init(&s, 0.0001, 1e9, 2, 7);
  i = done = 0;
  while (!done) done = bench_sampler_add(&s, i % 2 ? 3 : 1, 0), i++;
  ASSERT_EQ(i, 7);
  ASSERT_STREQ(s.stop, "max-samples");
  bench_sampler_free(&s);
  /* A sample longer than the budget still gives one sample. */
  bench_sampler_init(&s, 0.01, 0.5, 10, 100);
  ASSERT_EQ(bench_sampler_add(&s, 2, 2), 1);
  ASSERT_STREQ(s.stop, "budget");
  ASSERT_EQ(s.n, 1);
  bench_sampler_free(&s);
}

static void test_json(void) {
  bench_json j;
  ASSERT_EQ(bench_json_parse("{\"a\": [1, 2.5e1, -3], \"b\": {\"c\": \"x\\ny\\u0041\"},"
                             " \"t\": true, \"f\": false, \"n\": null}",
                             &j, err, sizeof err), 0);
  const bench_json *a = bench_json_get(&j, "a");
  ASSERT(a && a->type == BJ_ARR && a->n == 3);
  ASSERT_NEAR(a->items[1].num, 25, 0);
  ASSERT_NEAR(a->items[2].num, -3, 0);
  ASSERT_STREQ(bench_json_get(bench_json_get(&j, "b"), "c")->str, "x\nyA");
  ASSERT_EQ(bench_json_get(&j, "t")->type, BJ_BOOL);
  ASSERT_EQ(bench_json_get(&j, "n")->type, BJ_NULL);
  ASSERT(bench_json_get(&j, "zz") == NULL);
  bench_json_free(&j);
  ASSERT_EQ(bench_json_parse("{\"a\": 1,\n \"b\" 2}", &j, err, sizeof err), -1);
  ASSERT_STREQ(err, "line 2: expected ':'");
  ASSERT_EQ(bench_json_parse("[1, 2", &j, err, sizeof err), -1);
  ASSERT_EQ(bench_json_parse("[1] x", &j, err, sizeof err), -1);
  ASSERT_STREQ(err, "line 1: text after the value");
  ASSERT_EQ(bench_json_parse("\"abc", &j, err, sizeof err), -1);

  /* The writer's output parses back. */
  FILE *f = tmpfile();
  bench_jw w;
  bench_jw_begin(&w, f);
  bench_jw_obj(&w, NULL);
  bench_jw_str(&w, "s", "q\"uote\\");
  bench_jw_num(&w, "nan", NAN);
  bench_jw_int(&w, "i", -42);
  bench_jw_arr(&w, "e");
  bench_jw_end_arr(&w);
  bench_jw_bool(&w, "b", 1);
  bench_jw_end_obj(&w);
  long n = ftell(f);
  rewind(f);
  char buf[512];
  buf[fread(buf, 1, (size_t)n, f)] = '\0';
  fclose(f);
  ASSERT_EQ(bench_json_parse(buf, &j, err, sizeof err), 0);
  ASSERT_STREQ(bench_json_get(&j, "s")->str, "q\"uote\\");
  ASSERT_EQ(bench_json_get(&j, "nan")->type, BJ_NULL);
  ASSERT_NEAR(bench_json_get(&j, "i")->num, -42, 0);
  ASSERT_EQ(bench_json_get(&j, "e")->n, 0);
  bench_json_free(&j);

  /* The validator: types, required, enum, minimum, $ref, items. */
  bench_json sc, v;
  ASSERT_EQ(bench_json_parse(
                "{\"type\": \"object\", \"required\": [\"r\"], \"properties\": {"
                "\"r\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/definitions/m\"}},"
                "\"k\": {\"type\": \"string\", \"enum\": [\"a\", \"b\"]}},"
                "\"definitions\": {\"m\": {\"type\": [\"object\", \"null\"],"
                "\"required\": [\"n\"], \"properties\": {\"n\": {\"type\": \"integer\", \"minimum\": 1}}}}}",
                &sc, err, sizeof err), 0);
  static const struct { const char *doc, *msg; } cases[] = {
      {"{\"r\": [{\"n\": 2}, null], \"k\": \"a\"}", ""},
      {"{\"k\": \"a\"}", "$: missing required key 'r'"},
      {"{\"r\": [{\"n\": 2}], \"k\": \"c\"}", ".k: 'c' is not one of the allowed values"},
      {"{\"r\": [{\"n\": 2}, {\"n\": 1.5}]}", ".r[1].n: wrong type"},
      {"{\"r\": [{\"n\": 0}]}", ".r[0].n: 0 is below the minimum 1"},
      {"{\"r\": [{}]}", ".r[0]: missing required key 'n'"},
      {"{\"r\": {}}", ".r: wrong type"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ASSERT_EQ(bench_json_parse(cases[i].doc, &v, err, sizeof err), 0);
    err[0] = '\0';
    int rc = bench_json_validate(&sc, &v, err, sizeof err);
    ASSERT_EQ(rc, cases[i].msg[0] ? -1 : 0);
    ASSERT_STREQ(err, cases[i].msg);
    bench_json_free(&v);
  }
  bench_json_free(&sc);
}

/* A minimal result file with one row whose hot mode has median m, rsd r. */
static void write_result(const char *path, double m, double r,
                         const char *status) {
  FILE *f = fopen(path, "w");
  ASSERT(f);
  fprintf(f, "{\"schema\": \"kern-bench\", \"schema_version\": 1, \"rows\": ["
             "{\"bench\": \"k\", \"size\": \"N=1\", \"name\": \"cpu:0\", "
             "\"status\": \"%s\", \"hot\": {\"median_s\": %g, \"rsd\": %g}, "
             "\"cold\": null}]}\n", status, m, r);
  fclose(f);
}

static char *compare_text(const char *a, const char *b, int *rc) {
  FILE *f = tmpfile();
  *rc = bench_compare(f, a, b, err, sizeof err);
  long n = ftell(f);
  rewind(f);
  char *buf = calloc(1, (size_t)n + 1);
  if (fread(buf, 1, (size_t)n, f) != (size_t)n) buf[0] = '\0';
  fclose(f);
  return buf;
}

static void test_compare(void) {
  char dir[] = "/tmp/kern-bench-test-XXXXXX";
  ASSERT(mkdtemp(dir));
  char a[128], b[128];
  snprintf(a, sizeof a, "%s/a.json", dir);
  snprintf(b, sizeof b, "%s/b.json", dir);
  int rc;
  /* 10% slower with 1% noise each: beyond 2*sqrt(2)% = 2.8%. */
  write_result(a, 1e-3, 0.01, "ok");
  write_result(b, 1.1e-3, 0.01, "ok");
  char *t = compare_text(a, b, &rc);
  ASSERT_EQ(rc, 1);
  ASSERT_CONTAINS(t, "+10.0%  SLOWER (noise 2.8%)");
  free(t);
  /* 10% faster. */
  write_result(b, 0.9e-3, 0.01, "ok");
  t = compare_text(a, b, &rc);
  ASSERT_EQ(rc, 0);
  ASSERT_CONTAINS(t, "-10.0%  faster");
  free(t);
  /* The same 10% with 5% RSD each is within 2*sqrt(50)% = 14.1%. */
  write_result(a, 1e-3, 0.05, "ok");
  write_result(b, 1.1e-3, 0.05, "ok");
  t = compare_text(a, b, &rc);
  ASSERT_EQ(rc, 0);
  ASSERT_CONTAINS(t, "+10.0%  within noise (noise 14.1%)");
  free(t);
  /* Not a result file. */
  FILE *f = fopen(b, "w");
  fputs("{\"rows\": []}", f);
  fclose(f);
  t = compare_text(a, b, &rc);
  ASSERT_EQ(rc, -1);
  ASSERT_CONTAINS(err, "not a 'kern bench --json' file");
  free(t);
  remove(a);
  remove(b);
  rmdir(dir);
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *b = calloc(1, (size_t)n + 1);
  if (fread(b, 1, (size_t)n, f) != (size_t)n) b[0] = '\0';
  fclose(f);
  return b;
}

/* Note [gnuplot text]: every byte 1..255 in a path or label comes out as
 * a byte gnuplot gives no meaning inside a single-quoted string or a data
 * field. */
static void test_plot_safe(void) {
  char in[256], out[256];
  for (int c = 1; c < 256; c++) in[c - 1] = (char)c;
  in[255] = '\0';
  bench_plot_safe(in, out, sizeof out);
  ASSERT_EQ((long)strlen(out), 255L);
  for (int i = 0; out[i]; i++) {
    unsigned char c = (unsigned char)out[i];
    int safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9') || strchr("._/+-,:=()*[] ?", c);
    if (!safe) fprintf(stderr, "byte %d came out as %d\n", i + 1, c);
    ASSERT(safe);
    /* A byte is kept as itself or becomes '?'. */
    ASSERT(c == (unsigned char)in[i] || c == '?');
  }
  ASSERT(strchr(out, '`') == NULL && strchr(out, '\'') == NULL &&
         strchr(out, '"') == NULL && strchr(out, '@') == NULL &&
         strchr(out, '$') == NULL && strchr(out, '\\') == NULL);
  /* Cut to the buffer, always terminated. */
  bench_plot_safe("abcdef", out, 4);
  ASSERT_STREQ(out, "abc");
}

/* CSV and Markdown carry the user's text as text: a message that starts
 * like a formula is quoted for spreadsheets, a newline or '|' cannot end a
 * Markdown row. */
static void test_text_formats(void) {
  bench_row row;
  memset(&row, 0, sizeof row);
  strcpy(row.bench, "k");
  strcpy(row.size, "N=1");
  strcpy(row.kind, "backend");
  strcpy(row.name, "cpu:0");
  strcpy(row.status, "failed");
  strcpy(row.message, "=HYPERLINK(\"x\")|a\nb");
  bench_result r;
  memset(&r, 0, sizeof r);
  r.rows = &row;
  r.nrows = r.cap = 1;
  char buf[4096];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  ASSERT(f);
  ASSERT_EQ(bench_write_csv(f, &r), 0);
  fclose(f);
  ASSERT(strstr(buf, ",failed,\"'=HYPERLINK(\"\"x\"\")|a\nb\",") != NULL);
  f = fmemopen(buf, sizeof buf, "w");
  ASSERT(f);
  ASSERT_EQ(bench_write_markdown(f, &r), 0);
  fclose(f);
  ASSERT(strstr(buf, "=HYPERLINK(\"x\")\\|a b") != NULL);
}

/* Note [peak bandwidth], Note [peak label]. */
static void test_peak(void) {
  /* Best of N: the fastest copy of 1 GB, read plus write. */
  double t[] = {0.5, 0.25, 0.4, 0.0, 1.0};
  ASSERT(fabs(bench_peak_gbps(t, 5, 1e9) - 8.0) < 1e-12);
  ASSERT(isnan(bench_peak_gbps(t, 0, 1e9)));
  char b[16];
  bench_peak_text(357.0, 80e6, 32e6, b, sizeof b);
  ASSERT_STREQ(b, ">copy");
  bench_peak_text(100.5, 80e6, 0, b, sizeof b);
  ASSERT_STREQ(b, ">copy");
  bench_peak_text(60.0, 8e6, 32e6, b, sizeof b);
  ASSERT_STREQ(b, "cache");
  bench_peak_text(60.0, 80e6, 32e6, b, sizeof b);
  ASSERT_STREQ(b, "60%");
  bench_peak_text(100.0, 80e6, 0, b, sizeof b);
  ASSERT_STREQ(b, "100%");
  bench_peak_text(NAN, 80e6, 0, b, sizeof b);
  ASSERT_STREQ(b, "-");
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "validate") == 0) {
    char *s = read_file(argv[2]), *d = read_file(argv[3]);
    bench_json sc, v;
    if (!s || !d) { fprintf(stderr, "cannot read input\n"); return 1; }
    if (bench_json_parse(s, &sc, err, sizeof err)) { fprintf(stderr, "%s: %s\n", argv[2], err); return 1; }
    if (bench_json_parse(d, &v, err, sizeof err)) { fprintf(stderr, "%s: %s\n", argv[3], err); return 1; }
    if (bench_json_validate(&sc, &v, err, sizeof err)) {
      fprintf(stderr, "%s does not match %s: %s\n", argv[3], argv[2], err);
      return 1;
    }
    bench_json_free(&sc);
    bench_json_free(&v);
    free(s);
    free(d);
    printf("valid\n");
    return 0;
  }
  test_parse_good();
  test_parse_errors();
  test_stats();
  test_sampler();
  test_json();
  test_compare();
  test_plot_safe();
  test_text_formats();
  test_peak();
  printf("bench_test: ok\n");
  return 0;
}
