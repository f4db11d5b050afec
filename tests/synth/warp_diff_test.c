/*
 * warp_diff_test.c GOLDEN KNOWN DEVICE [I/K] -- the random differential test
 * against real Warp (issue #10), with no Warp installed.
 *
 * GOLDEN (tests/synth/warp_diff_golden.txt, made by tests/synth/warp_diff.py
 * under Warp 1.19 on its CPU) names a `kern synth` run in its first line
 * (seed, count, difficulty) and holds, per kernel, Warp's verdict and a
 * digest of every output.  Here the same kernels are regenerated
 * (synth_pair_warp; each id must equal the golden one, else the generator
 * changed and the golden file must be made again), built a batch at a time
 * into one module on DEVICE (cpu or opencl: one cc run or one OpenCL
 * program per batch), run with the record's inputs, and every output's
 * digest compared with Warp's.
 *
 * A digest is the sum of |x| and the sum of x * (i % 7 + 1) over the finite
 * values, and the counts of NaN, +inf and -inf.  Integer outputs must agree
 * exactly; the counts always; float sums within WD_RTOL of the largest value
 * the sum could take (n * max|x| * 7), with max|x| at least 1 as in kern
 * synth's own comparison (a value that is rounding noise near zero, such as
 * the determinant of a singular matrix, differs by rounding only).  The generator keeps inexact values
 * away from anything discontinuous (Note at the top of src/synth/gen.c), so
 * kern and Warp differ only by the rounding of inexact math.
 *
 * KNOWN (tests/synth/warp_diff_known.txt) lists the kernels known to
 * disagree, per device, each with its cause (docs/synth.md explains them).
 * The test fails when a kernel outside that list disagrees (a previously
 * agreeing kernel, or a new one after regeneration), so the agreement rate
 * can only go up; a listed kernel that now agrees is reported, to be taken
 * off the list.  Kernels Warp rejected count as disagreements and must be
 * listed too (a kern synth kernel Warp rejects is a generator bug).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kern.h"
#include "kern_test.h"
#include "synth.h"
#include "synth_args.h"

/* Relative tolerance of a float digest (see the top of the file). */
#define WD_RTOL 1e-6
/* Kernels per module: one C compiler run or one OpenCL program each.  The
 * module's text and name are exactly those of `kern synth --validate run
 * --batch 100` (module_source in src/synth/driver.c), so the OpenCL
 * programs are byte for byte those of the 1,000-pair run of .ci/run (same
 * seed; ctest's OpenCL shards take the first 10 batches) and PoCL's on-disk kernel cache builds each only once: PoCL's build
 * (about a second a kernel) is most of this test's time. */
#define WD_BATCH 100

/* Over the agreeing float outputs: how many differ from Warp at all, and
 * the largest difference as a fraction of its tolerance (printed, so the
 * docs can say how close the agreement is). */
static int n_float_outs, n_inexact;
static double worst;

typedef struct {
  double sabs, wsum;
  long long nan, pinf, ninf;
} Digest;

/* Warp's digest of output `name` in a golden line, or 0 when absent. */
static int golden(const char *line, const char *name, Digest *d) {
  char key[32];
  snprintf(key, sizeof key, " %s=", name);
  const char *p = strstr(line, key);
  if (!p) return 0;
  return sscanf(p + strlen(key), "%lf:%lf:%lld:%lld:%lld", &d->sabs, &d->wsum, &d->nan,
                &d->pinf, &d->ninf) == 5;
}

/* Runs kernel k of module m; 1 when every output agrees with the golden
 * line, else 0 with the first difference in why. */
static int run_pair(kern_context *ctx, kern_device dev, kern_module *m,
                    const synth_kernel *k, const char *line, char *why, size_t nwhy) {
  kern_kernel *kk = NULL;
  if (kern_module_get_kernel(m, k->name, &kk)) {
    snprintf(why, nwhy, "no kernel: %s", kern_last_error(ctx));
    return 0;
  }
  kern_array *arr[SYNTH_MAX_ARGS] = {0};
  kern_arg args[SYNTH_MAX_ARGS];
  int ok = 1;
  synth_make_args(ctx, dev, k, arr, args);
  if (kern_launch(kk, k->ndim, k->dims, k->nargs, args) || kern_synchronize(ctx, dev)) {
    snprintf(why, nwhy, "launch: %s", kern_last_error(ctx));
    ok = 0;
  }
  for (int a = 0; a < k->nargs; a++) {
    const synth_arg *sa = &k->args[a];
    if (ok && arr[a] && is_out(sa)) {
      int64_t ns = nscalars(sa);
      void *host = malloc((size_t)ns * 4);
      ASSERT(host != NULL);
      ASSERT_OK(ctx, kern_array_download(arr[a], host, (size_t)ns * 4));
      Digest d = {0}, g;
      double mag = 0;
      for (int64_t i = 0; i < ns; i++) {
        double x = sa->kind == SA_INT_OUT ? ((int32_t *)host)[i] : ((float *)host)[i];
        if (isnan(x)) d.nan++;
        else if (isinf(x)) *(x > 0 ? &d.pinf : &d.ninf) += 1;
        else {
          d.sabs += fabs(x);
          d.wsum += x * (double)(i % 7 + 1);
          if (fabs(x) > mag) mag = fabs(x);
        }
      }
      free(host);
      double tol = sa->kind == SA_INT_OUT ? 0 : WD_RTOL * ((double)ns * fmax(1, mag) * 7);
      if (!golden(line, sa->name, &g)) {
        snprintf(why, nwhy, "no golden digest for %s", sa->name);
        ok = 0;
      } else if (d.nan != g.nan || d.pinf != g.pinf || d.ninf != g.ninf ||
                 !(fabs(d.sabs - g.sabs) <= tol) || !(fabs(d.wsum - g.wsum) <= tol)) {
        snprintf(why, nwhy, "%s: kern %.9g:%.9g:%lld:%lld:%lld, Warp %.9g:%.9g:%lld:%lld:%lld "
                 "(tolerance %.3g)", sa->name, d.sabs, d.wsum, d.nan, d.pinf, d.ninf,
                 g.sabs, g.wsum, g.nan, g.pinf, g.ninf, tol);
        ok = 0;
      } else if (sa->kind != SA_INT_OUT) {
        double dd = fmax(fabs(d.sabs - g.sabs), fabs(d.wsum - g.wsum));
        n_float_outs++;
        n_inexact += dd > 0;
        worst = fmax(worst, dd / tol);
      }
    }
    kern_array_free(arr[a]);
  }
  return ok;
}

/* Reads a whole file as lines (the array and the text are malloc'd). */
static char **read_lines(const char *path, int *n) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  int cap = 256;
  char **v = malloc(sizeof *v * (size_t)cap);
  char buf[8192];
  *n = 0;
  while (v && fgets(buf, sizeof buf, f)) {
    if (*n == cap) v = realloc(v, sizeof *v * (size_t)(cap *= 2));
    if (v) v[(*n)++] = strdup(buf);
  }
  fclose(f);
  return v;
}

/* 1 when KNOWN lists kernel `index` for this device ("cpu", "opencl" or
 * "all" in its first column). */
static int known(char **kn, int nk, const char *device, int index, const char *id) {
  for (int i = 0; i < nk; i++) {
    char dev[16], kid[40];
    int idx;
    if (kn[i][0] == '#' || sscanf(kn[i], "%15s %d %39s", dev, &idx, kid) != 3) continue;
    if (idx == index && !strcmp(kid, id) && (!strcmp(dev, device) || !strcmp(dev, "all")))
      return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  ASSERT(argc == 4 || argc == 5);
  setvbuf(stdout, NULL, _IOLBF, 0); /* a killed run still shows what it found */
  const char *device = argv[3];
  /* Shard I of K: the batches b with b % K == I, so that ctest can run the
   * slow OpenCL half on two cores. */
  int shard = 0, nshards = 1;
  if (argc == 5) ASSERT(sscanf(argv[4], "%d/%d", &shard, &nshards) == 2 && shard < nshards);
  int ng = 0, nk = 0;
  char **gl = read_lines(argv[1], &ng);
  char **kn = read_lines(argv[2], &nk);
  ASSERT(gl != NULL && kn != NULL && ng > 1);
  unsigned long long seed;
  int n, difficulty;
  ASSERT(sscanf(gl[0], "# warp %*s cpu; kern synth %*s --seed %llu -n %d --difficulty %d",
                &seed, &n, &difficulty) == 3);
  ASSERT_EQ(ng, n + 1);
  char **line = gl + 1;

  kern_context *ctx = NULL;
  ASSERT_EQ(kern_context_new(NULL, &ctx), KERN_SUCCESS);
  kern_device dev;
  if (kern_device_find(ctx, device, &dev)) {
    printf("skip: no %s device: %s\n", device, kern_last_error(ctx));
    kern_context_free(ctx);
    return 77;
  }

  int agree = 0, rejected = 0, news = 0, stale = 0, tried = 0;
  /* WD_REVERSE=1 takes the batches last first: a second process on the
   * same shard then meets the first in the middle, and PoCL's cache gives
   * each the other's builds (for a quicker run by hand). */
  int reverse = getenv("WD_REVERSE") && !strcmp(getenv("WD_REVERSE"), "1");
  int nbatches = (n + WD_BATCH - 1) / WD_BATCH;
  /* WD_BATCHES=K: the first K batches only (ctest's OpenCL shards: PoCL's
   * builds, about a CPU second a kernel, were 3,460 CPU seconds of a cold
   * CI run for all 2,000; the CPU backend still checks every kernel). */
  const char *lim = getenv("WD_BATCHES");
  if (lim && atoi(lim) > 0 && atoi(lim) < nbatches)
    nbatches = atoi(lim);
  for (int bi = 0; bi < nbatches; bi++) {
    int b = (reverse ? nbatches - 1 - bi : bi) * WD_BATCH;
    if (b / WD_BATCH % nshards != shard) continue;
    int nb = n - b < WD_BATCH ? n - b : WD_BATCH;
    synth_kernel *ks = calloc((size_t)nb, sizeof *ks);
    char **warp = calloc((size_t)nb, sizeof *warp);
    ASSERT(ks != NULL && warp != NULL);
    size_t total = 64 + (size_t)nb;
    for (int j = 0; j < nb; j++) {
      char id[33], want[64];
      warp[j] = synth_pair_warp(seed, b + j, (1u << SC_COUNT) - 1, difficulty, &ks[j], id);
      ASSERT(warp[j] != NULL);
      snprintf(want, sizeof want, "%d %s ", b + j, id);
      if (strncmp(line[b + j], want, strlen(want))) {
        printf("kernel %d is not the one Warp ran (%.50s): the generator changed; make the "
               "golden file again (tests/synth/warp_diff.py)\n", b + j, line[b + j]);
        return 1;
      }
      total += strlen(warp[j]);
    }
    /* One module for the batch, as kern synth builds one. */
    char *src = malloc(total);
    ASSERT(src != NULL);
    strcpy(src, "import warp as wp\n\n");
    for (int j = 0; j < nb; j++) {
      strcat(src, warp[j] + strlen("import warp as wp\n"));
      strcat(src, "\n");
    }
    kern_module *m = NULL;
    if (kern_module_load_string(ctx, dev, "synth_batch.py", src, strlen(src), &m)) m = NULL;
    for (int j = 0; j < nb; j++) {
      int i = b + j;
      char why[512] = "";
      const char *id = line[i] + strcspn(line[i], " ") + 1;
      char kid[33];
      snprintf(kid, sizeof kid, "%.32s", id);
      int ok;
      if (!strncmp(id + 33, "rejected", 8)) {
        rejected++;
        snprintf(why, sizeof why, "Warp %.300s", id + 33);
        why[strcspn(why, "\n")] = 0;
        ok = 0;
      } else if (m) {
        ok = run_pair(ctx, dev, m, &ks[j], line[i], why, sizeof why);
      } else {
        /* The batch did not build: this kernel alone, to find the one. */
        kern_module *m1 = NULL;
        if (kern_module_load_string(ctx, dev, "synth.py", warp[j], strlen(warp[j]), &m1)) {
          snprintf(why, sizeof why, "kern rejects it: %.400s", kern_last_error(ctx));
          ok = 0;
        } else {
          ok = run_pair(ctx, dev, m1, &ks[j], line[i], why, sizeof why);
          kern_module_free(m1);
        }
      }
      int kn_ = known(kn, nk, device, i, kid);
      tried++;
      if (ok) {
        agree++;
        if (kn_) {
          printf("now agrees: %d %s (take it off %s)\n", i, kid, argv[2]);
          stale++;
        }
      } else if (!kn_) {
        printf("NEW DISAGREEMENT: %s %d %s %s\n", device, i, kid, why);
        news++;
      } else {
        printf("known: %d %s %s\n", i, kid, why);
      }
    }
    if (m) kern_module_free(m);
    free(src);
    for (int j = 0; j < nb; j++) {
      free(warp[j]);
      synth_kernel_free(&ks[j]);
    }
    free(ks);
    free(warp);
  }
  kern_context_free(ctx);
  printf("%s (shard %d/%d): %d of %d agree with Warp (%.2f%%); %d rejected by Warp; %d new "
         "disagreements; %d listed kernels now agree\n", device, shard, nshards, agree, tried,
         100.0 * agree / tried, rejected, news, stale);
  printf("float outputs that agree: %d, %d of them not bit for bit; the largest difference "
         "%.3g of its tolerance\n", n_float_outs, n_inexact, worst);
  EXPECT_EQ(news, 0);
  /* The floor, whatever the list says. */
  EXPECT_TRUE(agree * 1000 >= tried * 995);
  for (int i = 0; i < ng; i++) free(gl[i]);
  for (int i = 0; i < nk; i++) free(kn[i]);
  free(gl);
  free(kn);
  return kern_test_report("synth_warp_diff");
}
