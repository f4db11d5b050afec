/*
 * warp_golden_test.c GOLDEN -- kern's CPU backend against real Warp, with no
 * Warp installed: tests/synth/warp_golden.txt holds, for the first 100
 * pairs of `kern synth --seed 13`, the digests of every output as Warp 1.19
 * computed them on its CPU (tests/synth/warp_check.py made it).  Here the
 * same pairs are regenerated (synth_pair_warp), built into one CPU module,
 * run with the record's inputs, and each output's two digests (sum of |x|,
 * sum of x * (i % 7 + 1)) compared with Warp's: integers exactly, floats
 * within 1e-7 of the largest value the digest could take (inexact math may
 * differ between the two compilers by rounding; the generator keeps such
 * values away from anything discontinuous, Note at the top of
 * src/synth/gen.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kern.h"
#include "kern_test.h"
#include "synth.h"
#include "synth_args.h"

/* Warp's digest of output `name` in a golden line, or 0 when absent. */
static int golden(const char *line, const char *name, double *sabs, double *wsum) {
  char key[32];
  snprintf(key, sizeof key, " %s=", name);
  const char *p = strstr(line, key);
  if (!p) return 0;
  return sscanf(p + strlen(key), "%lf:%lf", sabs, wsum) == 2;
}

/* Runs pair k from module m on the CPU; compares with the golden line. */
static void check_pair(kern_context *ctx, kern_device cpu, kern_module *m,
                       const synth_kernel *k, const char *line) {
  kern_kernel *kk = NULL;
  ASSERT_OK(ctx, kern_module_get_kernel(m, k->name, &kk));
  kern_array *arr[SYNTH_MAX_ARGS] = {0};
  kern_arg args[SYNTH_MAX_ARGS];
  synth_make_args(ctx, cpu, k, arr, args);
  ASSERT_OK(ctx, kern_launch(kk, k->ndim, k->dims, k->nargs, args));
  for (int a = 0; a < k->nargs; a++) {
    const synth_arg *sa = &k->args[a];
    if (arr[a] && is_out(sa)) {
      int64_t ns = nscalars(sa);
      void *host = malloc((size_t)ns * 4);
      ASSERT(host != NULL);
      ASSERT_OK(ctx, kern_array_download(arr[a], host, (size_t)ns * 4));
      double sabs = 0, wsum = 0, mag = 0;
      for (int64_t i = 0; i < ns; i++) {
        double x = sa->kind == SA_INT_OUT ? ((int32_t *)host)[i] : ((float *)host)[i];
        sabs += fabs(x);
        wsum += x * (double)(i % 7 + 1);
        if (fabs(x) > mag) mag = fabs(x);
      }
      free(host);
      double gs, gw;
      if (!golden(line, sa->name, &gs, &gw)) {
        fprintf(stderr, "%s: no golden digest for %s\n", k->name, sa->name);
        EXPECT_TRUE(0);
      } else if (sa->kind == SA_INT_OUT) {
        EXPECT_DBL_EQ(sabs, gs);
        EXPECT_DBL_EQ(wsum, gw);
      } else {
        /* a relative 1e-4 of the output's size (n * max |x| * 7) */
        /* 1e-7 of the largest the digests could be; the largest
         * difference seen (2026-11-26, 204 outputs) was 3e-11 of it, and
         * all but one output agreed exactly. */
        double tol = 1e-7 * ((double)ns * mag * 7) + 1e-12;
        if (!(fabs(sabs - gs) <= tol && fabs(wsum - gw) <= tol))
          fprintf(stderr, "%s.%s: kern %.9g:%.9g, Warp %.9g:%.9g (tolerance %.3g)\n",
                  k->name, sa->name, sabs, wsum, gs, gw, tol);
        EXPECT_NEAR(sabs, gs, tol);
        EXPECT_NEAR(wsum, gw, tol);
      }
    }
    kern_array_free(arr[a]);
  }
}

int main(int argc, char **argv) {
  ASSERT(argc == 2);
  FILE *f = fopen(argv[1], "r");
  ASSERT(f != NULL);
  enum { N = 100 };
  static char lines[N][2048];
  int n = 0;
  while (n < N && fgets(lines[n], sizeof lines[n], f)) n++;
  fclose(f);
  ASSERT_EQ(n, N);

  synth_kernel ks[N];
  char *warp[N];
  size_t total = 64;
  for (int i = 0; i < N; i++) {
    char id[33];
    warp[i] = synth_pair_warp(13, i, (1u << SC_COUNT) - 1, 3, &ks[i], id);
    ASSERT(warp[i] != NULL);
    /* the golden line is this pair: index and id */
    char want[64];
    snprintf(want, sizeof want, "%d %s ok ", i, id);
    EXPECT_TRUE(strncmp(lines[i], want, strlen(want)) == 0);
    total += strlen(warp[i]);
  }
  /* One module for all, as kern synth builds a batch: one cc run. */
  char *src = malloc(total);
  ASSERT(src != NULL);
  strcpy(src, "import warp as wp\n\n");
  for (int i = 0; i < N; i++) strcat(src, warp[i] + strlen("import warp as wp\n"));

  kern_context *ctx = NULL;
  ASSERT_EQ(kern_context_new(NULL, &ctx), KERN_SUCCESS);
  kern_device cpu;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &cpu));
  kern_module *m = NULL;
  ASSERT_OK(ctx, kern_module_load_string(ctx, cpu, "warp_golden.py", src, strlen(src), &m));
  for (int i = 0; i < N; i++) check_pair(ctx, cpu, m, &ks[i], lines[i]);
  kern_module_free(m);
  kern_context_free(ctx);
  for (int i = 0; i < N; i++) {
    free(warp[i]);
    synth_kernel_free(&ks[i]);
  }
  free(src);
  return kern_test_report("synth_warp_golden");
}
