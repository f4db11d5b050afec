/*
 * test_memo.c -- the shortcuts of `kern synth` round three give the bytes
 * the long way gives.
 *
 *  - Note [helper memo] (src/emit/memo.c): every .py file under the
 *    directories given, compiled for every target (and the compact CUDA
 *    form) through one context, after all the others and in two orders,
 *    so that its helpers come from the context's cache, equals its
 *    compilation without a cache (kern__compile).  Two modules with a
 *    @wp.struct of one name and other fields keep their own fields.
 *  - fmt_short_g (src/base/numfmt.c) and its twin synth_short_g
 *    (src/synth/text.c) write what printf's "%.9g" / "%.17g" write, for
 *    every value they accept, and accept the constants kernels use.
 *
 *   emit_memo DIR...
 */
#include <dirent.h>
#include <stdint.h>
#include "kern.h"
#include "kern_test.h"
#include "base.h"
#include "compile.h"
#include "synth.h"

enum { MAX_FILES = 1024 };
static char *paths[MAX_FILES], *srcs[MAX_FILES];
static int nfiles;

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  if (p) p[n] = 0;
  fclose(f);
  return p;
}

static void add_dir(const char *dir) {
  DIR *d = opendir(dir);
  ASSERT_TRUE(d != NULL);
  struct dirent *e;
  while ((e = readdir(d)) && nfiles < MAX_FILES) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 3, ".py")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char *src = slurp(path);
    if (!src) continue;
    paths[nfiles] = strdup(path);
    srcs[nfiles++] = src;
  }
  closedir(d);
}

static const char *const targets[] = {"c", "cuda", "opencl", "cuda-compact"};

/* The file's code without any cache, or NULL when kern rejects it. */
static char *cold(int i, int t) {
  kern__target tg = t == 0 ? KERN_TARGET_C : t == 2 ? KERN_TARGET_OPENCL : KERN_TARGET_CUDA;
  /* CUDA and OpenCL for the default block size, as kern_compile_source */
  kc_options o = {0, 0, t == 3, 0, 0, 0, NULL, 0, t == 0 ? 0 : 256};
  kc_result r;
  char *code = NULL;
  /* kern_compile_source refuses a CUDA or OpenCL module the runtime
   * cannot run there (kc_result.no_gpu: wp.tile(x) and the rest) */
  if (kern__compile(paths[i], srcs[i], strlen(srcs[i]), tg, &o, &r) == KERN_SUCCESS &&
      !(tg != KERN_TARGET_C && r.no_gpu))
    code = strdup(r.source);
  kern__compile_result_free(&r);
  return code;
}

static void warm_pass(kern_context *ctx, char **want, int reverse) {
  for (int k = 0; k < nfiles; k++) {
    int i = reverse ? nfiles - 1 - k : k;
    for (int t = 0; t < 4; t++) {
      char *code = NULL;
      kern_status st = kern_compile_source(ctx, paths[i], srcs[i], strlen(srcs[i]),
                                           targets[t], &code);
      kern_clear_error(ctx);
      const char *w = want[i * 4 + t];
      EXPECT_EQ(st == KERN_SUCCESS, w != NULL);
      if (st == KERN_SUCCESS && w && strcmp(code, w)) {
        printf("differs with a warm cache: %s, target %s\n", paths[i], targets[t]);
        EXPECT_STREQ(code, w);
      }
      kern_free(code);
    }
  }
}

static void files_with_a_warm_cache(void) {
  char **want = calloc((size_t)nfiles * 4, sizeof *want);
  int ok = 0;
  for (int i = 0; i < nfiles; i++)
    for (int t = 0; t < 4; t++) ok += (want[i * 4 + t] = cold(i, t)) != NULL;
  EXPECT_TRUE(ok > 100); /* the directories were found and compile */
  kern_context *ctx = NULL;
  ASSERT_EQ(kern_context_new(NULL, &ctx), KERN_SUCCESS);
  warm_pass(ctx, want, 0);
  warm_pass(ctx, want, 1);
  kern_context_free(ctx);
  for (int i = 0; i < nfiles * 4; i++) free(want[i]);
  free(want);
}

static const char *struct_a =
    "import warp as wp\n\n@wp.struct\nclass S:\n    a: wp.vec3\n    b: float\n\n"
    "@wp.kernel\ndef k(s: S, out: wp.array(dtype=float)):\n"
    "    i = wp.tid()\n    out[i] = s.b + wp.length(s.a)\n";
static const char *struct_b =
    "import warp as wp\n\n@wp.struct\nclass S:\n    c: int\n\n"
    "@wp.kernel\ndef k(s: S, out: wp.array(dtype=float)):\n"
    "    i = wp.tid()\n    out[i] = float(s.c)\n";

static void structs_of_one_name(void) {
  kern_context *ctx = NULL;
  ASSERT_EQ(kern_context_new(NULL, &ctx), KERN_SUCCESS);
  for (int round = 0; round < 2; round++)
    for (int t = 0; t < 4; t++) {
      char *a = NULL, *b = NULL;
      ASSERT_EQ(kern_compile_source(ctx, "a.py", struct_a, strlen(struct_a), targets[t], &a),
                KERN_SUCCESS);
      ASSERT_EQ(kern_compile_source(ctx, "b.py", struct_b, strlen(struct_b), targets[t], &b),
                KERN_SUCCESS);
      EXPECT_CONTAINS(a, "f_b;");
      EXPECT_TRUE(strstr(b, "f_b;") == NULL);
      EXPECT_CONTAINS(b, "f_c;");
      EXPECT_TRUE(strstr(a, "f_c;") == NULL);
      kern_free(a);
      kern_free(b);
    }
  kern_context_free(ctx);
}

/* v against printf, for both formatters; counts the values they took. */
static int check_g(double v, int prec) {
  char want[64], got[48], got2[48];
  snprintf(want, sizeof want, "%.*g", prec, v);
  int n = fmt_short_g(got, v, prec), n2 = synth_short_g(got2, v, prec);
  EXPECT_EQ(n >= 0, n2 >= 0);
  if (n >= 0) {
    if (strcmp(got, want)) printf("%.17g with %%.%dg\n", v, prec);
    EXPECT_STREQ(got, want);
    EXPECT_EQ(n, (int)strlen(want));
  }
  if (n2 >= 0) EXPECT_STREQ(got2, want);
  return n >= 0;
}

static void numbers_as_printf(void) {
  int took = 0;
  static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.25, -3.75, 8.0, 1e8,
                                   1e9, 123456789.0, 1234567891.0, 0.0001, 0.00015,
                                   0.0000999, 1e15, 1e16, 1e-5, 0.1, 0.1f, 1.0 / 3,
                                   65504.0, 3.4028234663852886e38, 1e300, 5e-324};
  for (size_t i = 0; i < sizeof special / sizeof *special; i++)
    for (int prec = 9; prec <= 17; prec += 8) {
      took += check_g(special[i], prec);
      took += check_g(-special[i], prec);
    }
  took += check_g(INFINITY, 9) + check_g(NAN, 9) + check_g(-INFINITY, 17);
  /* multiples of 2^-k around every magnitude kernels use */
  uint64_t s = 1;
  for (int k = 0; k <= 36; k++)
    for (int j = 0; j < 400; j++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      double m = (double)(s >> (11 + (j % 40)));
      double v = ldexp(m, -k) * ((j & 1) ? -1 : 1);
      took += check_g(v, 9) + check_g(v, 17) + check_g((float)v, 9);
    }
  for (int i = -4096; i <= 4096; i++) took += check_g(i / 8.0, 9) + check_g(i / 8.0, 17);
  EXPECT_TRUE(took > 10000); /* the common constants do take the short way */
  char b[48];
  EXPECT_EQ(fmt_short_g(b, 0.5, 9), 3);
  EXPECT_STREQ(b, "0.5");
  EXPECT_EQ(fmt_short_g(b, -12.125, 17), 7);
  EXPECT_STREQ(b, "-12.125");
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) add_dir(argv[i]);
  numbers_as_printf();
  structs_of_one_name();
  files_with_a_warm_cache();
  for (int i = 0; i < nfiles; i++) {
    free(paths[i]);
    free(srcs[i]);
  }
  return kern_test_report("emit_memo");
}
