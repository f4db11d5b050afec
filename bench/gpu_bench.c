/* gpu_bench.c -- kern on CUDA against hand-written CUDA in the same run:
 * sum of squares (100M float64), saxpy (100M float32) vs a D2D copy, empty
 * kernel launch overhead vs cuLaunchKernel, cold compile vs warm cache load.
 * usage: gpu_bench [--n N] [--reps R] [--json PATH]
 * Built by tests/gpu/gpu.sh: cc -c this, nvcc -c bench/ref_sumsq.cu, link
 * with libkern.a -lcuda. */
#define _GNU_SOURCE
#include <math.h>
#include <unistd.h>

#include "bench_util.h"

int ref_card(char *name, int size);
int ref_sumsq_bench(const double *hx, long long n, double ref, int reps,
                    double *ms_wall, double *ms_event, double *ms_b2b,
                    double *relerr);
int ref_d2d_bench(size_t bytes, int reps, double *ms_event, double *ms_wall);
int ref_empty_bench(int reps, double *us_sync, double *us_b2b, double *us_rt_sync);

#define SUMSQ "examples/sum_of_squares.py"
#define SAXPY "examples/saxpy.py"
static const char EMPTY_SRC[] =
    "import warp as wp\n\n@wp.kernel\ndef empty(x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n";

/* Copies src to dst; 0 on success. */
static int copy_file(const char *src, const char *dst) {
  FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
  if (!in || !out) {
    perror(src);
    if (in) fclose(in);
    if (out) fclose(out);
    return 1;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
  fclose(in);
  return fclose(out) != 0;
}

int main(int argc, char **argv) {
  int64_t n = 100000000;
  int reps = 50;
  const char *json = NULL, *ocl = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
    else if (!strcmp(argv[i], "--opencl") && i + 1 < argc) ocl = argv[++i];
    else { fprintf(stderr, "usage: gpu_bench [--n N] [--reps R] [--json PATH]\n"); return 2; }
  }
  if (reps < 10) reps = 10;
  if (reps > 1000) reps = 1000;
  char card[256] = "?";
  if (ref_card(card, sizeof card)) return 1;

  char cachedir[] = "/tmp/kern-gpubench-cache.XXXXXX";
  if (!mkdtemp(cachedir)) { perror("mkdtemp"); return 1; }
  kern_options opts = KERN_OPTIONS_INIT;
  opts.cache_dir = cachedir;
  /* Every figure but the quick-tier row times NVRTC's build, from the
   * first launch (Note [PTX tier]). */
  opts.cuda_tier = KERN_CUDA_TIER_NVRTC;
  kern_context *ctx = NULL;
  double t0 = now_s();
  KCHECK(ctx, kern_context_new(&opts, &ctx));
  double ctx_first_ms = 1e3 * (now_s() - t0);
  kern_device gpu;
  KCHECK(ctx, kern_device_find(ctx, "cuda", &gpu));

  /* ---- compile: cold, then warm loads in fresh contexts */
  kern_module *mod;
  kern_kernel *k;
  t0 = now_s();
  /* A copy under the fresh cache directory: the generated CUDA names its
   * source path, so the text is new to NVRTC's own cache (NVRTC 12.9+,
   * which outlives the process) and the build is cold there too. */
  char cold_path[sizeof cachedir + 32];
  snprintf(cold_path, sizeof cold_path, "%s/sum_of_squares.py", cachedir);
  if (copy_file(SUMSQ, cold_path)) return 1;
  KCHECK(ctx, kern_module_load_file(ctx, gpu, cold_path, &mod));
  KCHECK(ctx, kern_module_get_kernel(mod, "sum_of_squares", &k));
  double cold_ms = 1e3 * (now_s() - t0);
  enum { WARM = 21 };
  double warm[WARM], ctxnew[WARM];
  for (int r = 0; r < WARM; r++) {
    kern_context *c2 = NULL;
    double a = now_s();
    KCHECK(c2, kern_context_new(&opts, &c2));
    double b = now_s();
    kern_device d2;
    KCHECK(c2, kern_device_find(c2, "cuda", &d2));
    kern_module *m2;
    kern_kernel *k2;
    double c = now_s();
    KCHECK(c2, kern_module_load_file(c2, d2, cold_path, &m2));
    KCHECK(c2, kern_module_get_kernel(m2, "sum_of_squares", &k2));
    warm[r] = 1e3 * (now_s() - c);
    ctxnew[r] = 1e3 * (b - a);
    kern_module_free(m2);
    kern_context_free(c2);
  }
  double warm_ms = median(warm, WARM), ctxnew_ms = median(ctxnew, WARM);

  /* The same cold build with the PTX tier (the default): a second copy
   * under another name is again new to both caches.  The load returns on
   * kern's PTX; the NVRTC build finishes behind it. */
  double quick_ms;
  {
    char qpath[sizeof cachedir + 40];
    snprintf(qpath, sizeof qpath, "%s/sum_of_squares_quick.py", cachedir);
    if (copy_file(SUMSQ, qpath)) return 1;
    kern_options qo = opts;
    qo.cuda_tier = KERN_CUDA_TIER_AUTO;
    kern_context *cq = NULL;
    KCHECK(cq, kern_context_new(&qo, &cq));
    kern_device dq;
    KCHECK(cq, kern_device_find(cq, "cuda", &dq));
    kern_module *mq;
    kern_kernel *kq;
    double a = now_s();
    KCHECK(cq, kern_module_load_file(cq, dq, qpath, &mq));
    KCHECK(cq, kern_module_get_kernel(mq, "sum_of_squares", &kq));
    quick_ms = 1e3 * (now_s() - a);
    kern_module_free(mq); /* waits for the background build */
    kern_context_free(cq);
  }

  /* ---- sum of squares */
  double *x = aligned_alloc(64, (size_t)n * sizeof(double));
  fill_random(x, n, 777);
  double ref = ref_sumsq(x, n);
  kern_type f64 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT64, 1, 1};
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  int64_t shape[1] = {n}, one[1] = {1};
  kern_array *dx, *dout;
  KCHECK(ctx, kern_array_new(ctx, gpu, f64, 1, shape, &dx));
  KCHECK(ctx, kern_array_new(ctx, gpu, f64, 1, one, &dout));
  KCHECK(ctx, kern_array_upload(dx, x, (size_t)n * 8));
  kern_arg sargs[2] = {kern_arg_array(dx), kern_arg_array(dout)};
  double *ts = malloc(sizeof(double) * 1000), worst = 0, zero = 0, got;
  for (int r = 0; r < reps + 5; r++) {
    KCHECK(ctx, kern_array_fill(dout, &zero));
    KCHECK(ctx, kern_synchronize(ctx, gpu));
    double a = now_s();
    KCHECK(ctx, kern_launch(k, 1, shape, 2, sargs));
    double b = now_s();
    KCHECK(ctx, kern_array_download(dout, &got, 8));
    double rel = fabs(got - ref) / ref;
    if (!(rel < 1e-10)) { fprintf(stderr, "kern sumsq WRONG %.17g vs %.17g\n", got, ref); return 1; }
    if (rel > worst) worst = rel;
    if (r >= 5) ts[r - 5] = 1e3 * (b - a);
  }
  double k_sum_ms = median(ts, reps);
  KCHECK(ctx, kern_array_fill(dout, &zero));
  t0 = now_s();
  for (int r = 0; r < reps; r++) KCHECK(ctx, kern_launch(k, 1, shape, 2, sargs));
  KCHECK(ctx, kern_synchronize(ctx, gpu));
  double k_sum_b2b = 1e3 * (now_s() - t0) / reps;
  KCHECK(ctx, kern_array_download(dout, &got, 8));
  if (!(fabs(got - reps * ref) / (reps * ref) < 1e-9)) { fprintf(stderr, "kern sumsq b2b WRONG\n"); return 1; }
  double r_wall, r_event, r_b2b, r_rel;
  if (ref_sumsq_bench(x, n, ref, reps, &r_wall, &r_event, &r_b2b, &r_rel)) return 1;
  /* ---- the same kernel through OpenCL on the same GPU (NVIDIA's driver) */
  double o_sum_ms = -1;
  if (ocl) {
    kern_device od;
    if (kern_device_find(ctx, ocl, &od) == KERN_SUCCESS) {
      kern_module *om;
      kern_kernel *ok;
      kern_array *ox, *oout;
      KCHECK(ctx, kern_module_load_file(ctx, od, SUMSQ, &om));
      KCHECK(ctx, kern_module_get_kernel(om, "sum_of_squares", &ok));
      KCHECK(ctx, kern_array_new(ctx, od, f64, 1, shape, &ox));
      KCHECK(ctx, kern_array_new(ctx, od, f64, 1, one, &oout));
      KCHECK(ctx, kern_array_upload(ox, x, (size_t)n * 8));
      kern_arg oargs[2] = {kern_arg_array(ox), kern_arg_array(oout)};
      for (int r = 0; r < reps + 5; r++) {
        KCHECK(ctx, kern_array_fill(oout, &zero));
        double a = now_s();
        KCHECK(ctx, kern_launch(ok, 1, shape, 2, oargs));
        double b = now_s();
        KCHECK(ctx, kern_array_download(oout, &got, 8));
        if (!(fabs(got - ref) / ref < 1e-10)) { fprintf(stderr, "kern opencl sumsq WRONG %.17g vs %.17g\n", got, ref); return 1; }
        if (r >= 5) ts[r - 5] = 1e3 * (b - a);
      }
      o_sum_ms = median(ts, reps);
      kern_array_free(ox);
      kern_array_free(oout);
      kern_module_free(om);
    } else {
      fprintf(stderr, "no OpenCL device '%s': %s\n", ocl, kern_last_error(ctx));
      kern_clear_error(ctx);
    }
  }
  kern_array_free(dx);
  free(x);

  /* ---- saxpy vs D2D copy */
  float *hx = malloc((size_t)n * 4), *hy = malloc((size_t)n * 4), *hr = malloc((size_t)n * 4);
  for (int64_t i = 0; i < n; i++) {
    hx[i] = (float)((i * 2654435761u) % 1000) * 1e-3f;
    hy[i] = (float)((i * 40503u) % 977) * 1e-3f;
  }
  kern_module *smod;
  kern_kernel *sk;
  KCHECK(ctx, kern_module_load_file(ctx, gpu, SAXPY, &smod));
  KCHECK(ctx, kern_module_get_kernel(smod, "saxpy", &sk));
  kern_array *sx, *sy;
  KCHECK(ctx, kern_array_new(ctx, gpu, f32, 1, shape, &sx));
  KCHECK(ctx, kern_array_new(ctx, gpu, f32, 1, shape, &sy));
  KCHECK(ctx, kern_array_upload(sx, hx, (size_t)n * 4));
  KCHECK(ctx, kern_array_upload(sy, hy, (size_t)n * 4));
  kern_arg yargs[3] = {kern_arg_float(2.5), kern_arg_array(sx), kern_arg_array(sy)};
  KCHECK(ctx, kern_launch(sk, 1, shape, 3, yargs));
  KCHECK(ctx, kern_array_download(sy, hr, (size_t)n * 4));
  for (int64_t i = 0; i < n; i++) {
    float want = 2.5f * hx[i] + hy[i];
    if (fabsf(hr[i] - want) > 1e-6f * (1 + fabsf(want))) {
      fprintf(stderr, "kern saxpy WRONG at %lld: %g vs %g\n", (long long)i, hr[i], want);
      return 1;
    }
  }
  yargs[0] = kern_arg_float(1e-3);
  for (int r = 0; r < reps + 5; r++) {
    double a = now_s();
    KCHECK(ctx, kern_launch(sk, 1, shape, 3, yargs));
    if (r >= 5) ts[r - 5] = 1e3 * (now_s() - a);
  }
  double k_saxpy_ms = median(ts, reps);
  double d2d_event, d2d_wall;
  if (ref_d2d_bench((size_t)n * 4, reps, &d2d_event, &d2d_wall)) return 1;
  double saxpy_gbs = 12.0 * n / 1e9 / (k_saxpy_ms * 1e-3);
  double copy_gbs = 8.0 * n / 1e9 / (d2d_event * 1e-3);
  kern_array_free(sx);
  kern_array_free(sy);
  free(hx); free(hy); free(hr);

  /* ---- empty kernel launch overhead */
  kern_module *emod;
  kern_kernel *ek;
  KCHECK(ctx, kern_module_load_string(ctx, gpu, "empty.py", EMPTY_SRC, strlen(EMPTY_SRC), &emod));
  KCHECK(ctx, kern_module_get_kernel(emod, "empty", &ek));
  kern_array *ea;
  KCHECK(ctx, kern_array_new(ctx, gpu, f32, 1, one, &ea));
  kern_arg eargs[1] = {kern_arg_array(ea)};
  int ereps = 1000;
  double *te = malloc(sizeof(double) * ereps);
  for (int r = 0; r < 100; r++) KCHECK(ctx, kern_launch(ek, 1, one, 1, eargs));
  for (int r = 0; r < ereps; r++) {
    double a = now_s();
    KCHECK(ctx, kern_launch(ek, 1, one, 1, eargs));
    te[r] = 1e6 * (now_s() - a);
  }
  double k_empty_us = median(te, ereps);
  t0 = now_s();
  for (int r = 0; r < ereps; r++) KCHECK(ctx, kern_launch(ek, 1, one, 1, eargs));
  KCHECK(ctx, kern_synchronize(ctx, gpu));
  double k_empty_b2b = 1e6 * (now_s() - t0) / ereps;
  double cu_sync, cu_b2b, rt_sync;
  if (ref_empty_bench(ereps, &cu_sync, &cu_b2b, &rt_sync)) return 1;

  double gb = 8.0 * n / 1e9;
  printf("gpu_bench on %s: n=%lld, median of %d\n", card, (long long)n, reps);
  printf("%-46s %10s %9s\n", "sum of squares (float64)", "ms", "GB/s");
  printf("%-46s %10.4f %9.0f\n", "kern_launch (wall, launch+sync)", k_sum_ms, gb / k_sum_ms * 1e3);
  printf("%-46s %10.4f %9.0f\n", "kern_launch back-to-back / N", k_sum_b2b, gb / k_sum_b2b * 1e3);
  printf("%-46s %10.4f %9.0f\n", "hand CUDA (wall, launch+sync)", r_wall, gb / r_wall * 1e3);
  printf("%-46s %10.4f %9.0f\n", "hand CUDA (cuda events)", r_event, gb / r_event * 1e3);
  printf("%-46s %10.4f %9.0f\n", "hand CUDA back-to-back / N", r_b2b, gb / r_b2b * 1e3);
  if (o_sum_ms > 0)
    printf("%-46s %10.4f %9.0f\n", "kern_launch on OpenCL (same GPU, launch+sync)",
           o_sum_ms, gb / o_sum_ms * 1e3);
  printf("kern / hand (wall) = %.3f, b2b = %.3f; rel err kern %.2g hand %.2g\n",
         k_sum_ms / r_wall, k_sum_b2b / r_b2b, worst, r_rel);
  printf("%-46s %10.4f %9.0f\n", "saxpy float32 kern_launch (12 B/elem)", k_saxpy_ms, saxpy_gbs);
  printf("%-46s %10.4f %9.0f\n", "cudaMemcpy D2D 4n bytes (events, r+w)", d2d_event, copy_gbs);
  printf("saxpy GB/s / copy GB/s = %.3f\n", saxpy_gbs / copy_gbs);
  printf("%-46s %10.2f us\n", "empty kern_launch (sync each)", k_empty_us);
  printf("%-46s %10.2f us\n", "empty cuLaunchKernel+cuCtxSynchronize", cu_sync);
  printf("%-46s %10.2f us\n", "empty <<<>>>+cudaDeviceSynchronize", rt_sync);
  printf("%-46s %10.2f us\n", "empty kern_launch back-to-back / N", k_empty_b2b);
  printf("%-46s %10.2f us\n", "empty cuLaunchKernel back-to-back / N", cu_b2b);
  printf("%-46s %10.2f ms\n", "cold compile sum_of_squares (cuda)", cold_ms);
  printf("%-46s %10.2f ms\n", "cold load, PTX tier (KERN_CUDA_TIER auto)", quick_ms);
  printf("%-46s %10.3f ms  (%s 1 ms)\n", "warm cache load (fresh ctx, median 21)", warm_ms,
         warm_ms < 1 ? "PASS <" : "FAIL >=");
  printf("%-46s %10.3f ms (first %.1f ms)\n", "kern_context_new", ctxnew_ms, ctx_first_ms);
  if (json) {
    FILE *f = fopen(json, "w");
    if (!f) { perror(json); return 1; }
    fprintf(f,
            "{\"card\": \"%s\", \"n\": %lld, \"reps\": %d,\n"
            " \"sumsq_ms\": {\"kern_wall\": %.5f, \"kern_b2b\": %.5f, \"hand_wall\": %.5f, \"hand_event\": %.5f, \"hand_b2b\": %.5f},\n"
            " \"sumsq_relerr\": {\"kern\": %.3g, \"hand\": %.3g},\n"
            " \"saxpy_ms\": %.5f, \"saxpy_gbs\": %.1f, \"d2d_ms\": %.5f, \"d2d_wall_ms\": %.5f, \"d2d_gbs\": %.1f,\n"
            " \"empty_us\": {\"kern_sync\": %.3f, \"cu_sync\": %.3f, \"rt_sync\": %.3f, \"kern_b2b\": %.3f, \"cu_b2b\": %.3f},\n"
            " \"cold_compile_ms\": %.3f, \"cold_quick_ms\": %.3f, \"warm_load_ms\": %.4f, \"context_new_ms\": %.4f, \"first_context_ms\": %.3f}\n",
            card, (long long)n, reps, k_sum_ms, k_sum_b2b, r_wall, r_event, r_b2b, worst, r_rel,
            k_saxpy_ms, saxpy_gbs, d2d_event, d2d_wall, copy_gbs, k_empty_us, cu_sync, rt_sync,
            k_empty_b2b, cu_b2b, cold_ms, quick_ms, warm_ms, ctxnew_ms, ctx_first_ms);
    fclose(f);
  }
  kern_context_free(ctx);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cachedir);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", cachedir);
  return 0;
}
