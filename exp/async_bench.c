/*
 * async_bench.c -- kern's asynchronous API on CUDA against its references,
 * each measured in the same run (issue #11):
 *
 *   1. empty-kernel launches back to back on a stream through
 *      kern_launch_async, against bare cuLaunchKernel of the very same
 *      CUfunction on the same stream with the same grid;
 *   2. graph replay of 100 small kernels (us per kernel), against the same
 *      100 launches through kern_launch_async;
 *   3. an elementwise kernel over GB of pinned host data written back to
 *      the host through kern_pipeline_run with 3 buffers, against the
 *      bidirectional copy rate (host-to-device and device-to-host at once on
 *      two streams, the same chunk size) measured just before.
 *
 *   4. the same pipeline at 1, 2 and 4 buffers and at other chunk sizes,
 *      each with its per-stage times from the run's timeline, and with the
 *      chunk and buffer count left to kern (its model, its prediction and
 *      how close it came to the best fixed configuration).
 *
 * usage: async_bench [--gb G] [--reps R] [--timeline FILE] [--device D]
 *        (G: GiB of float32 input, 8; FILE: the 3-buffer run's per-chunk
 *        stage times as CSV)
 * Prints one line per figure, "name value unit", then a short table.
 * Built by exp/async_gpu.sh against the build's libkern.a; the reference
 * launches use libcuda through dlopen, like kern itself.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kern.h"
#include "cuda_check.h"
#include "runtime.h"

#define CK(call)                                                            \
  do {                                                                      \
    kern_status s_ = (call);                                                \
    if (s_ != KERN_SUCCESS) {                                               \
      fprintf(stderr, "%s:%d: %s: %s\n%s\n", __FILE__, __LINE__, #call,     \
              kern_status_name(s_), kern_last_error(ctx));                  \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

typedef int (*launch_fn)(void *f, unsigned, unsigned, unsigned, unsigned,
                         unsigned, unsigned, unsigned, void *, void **,
                         void **);
typedef int (*sync_fn)(void *stream);

static kern_context *ctx;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static const char SRC[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def empty(x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "\n"
    "@wp.kernel\n"
    "def bump(x: wp.array(dtype=wp.float32), v: wp.float32):\n"
    "    i = wp.tid()\n"
    "    x[i] = x[i] + v\n"
    "\n"
    "@wp.kernel\n"
    "def axpb(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), "
    "a: wp.float32, b: wp.float32):\n"
    "    i = wp.tid()\n"
    "    y[i] = a * x[i] + b\n";

/* What kern's backend_cuda.c passes for a kern__arr parameter and the
 * trailing kern__dims (compile.h); repeated here for the bare launch. */
typedef struct { void *data; int64_t shape[4]; } bare_arr;
typedef struct { int64_t dim[4]; int64_t total, chunk; } bare_dims;

/* Sections 1 and 2 (CUDA only): fills r with the medians of kern's async
 * launch, bare cuLaunchKernel, graph replay per kernel and the same
 * launches one by one, in us. */
static int launches_and_graph(kern_device dev, kern_kernel *k_empty,
                              kern_kernel *k_bump, kern_stream *s, int reps,
                              double r[4]) {
  void *cs = kern_stream_native(s);
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  /* ---- 1. launch overhead, interleaved rounds, median per launch */
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
  launch_fn cuLaunchKernel = cuda ? (launch_fn)dlsym(cuda, "cuLaunchKernel") : NULL;
  sync_fn cuStreamSynchronize = cuda ? (sync_fn)dlsym(cuda, "cuStreamSynchronize") : NULL;
  if (!cuLaunchKernel || !cuStreamSynchronize) {
    fprintf(stderr, "libcuda.so.1 not usable\n");
    return 1;
  }
  int64_t one = 1;
  kern_array *xa;
  CK(kern_array_new(ctx, dev, f32, 1, &one, &xa));
  kern_arg earg = kern_arg_array(xa);
  enum { ROUNDS = 7 };
  double tk[ROUNDS], tb[ROUNDS];
  bare_arr ba = {kern_array_native(xa), {1, 1, 1, 1}};
  bare_dims bd = {{1, 1, 1, 1}, 1, 0};
  void *params[] = {&ba, &bd};
  /* The CUfunction behind kern's kernel handle: the same function with
   * the same grid (one block, of kern's block size, covers one element). */
  /* k_empty is a handle (Note [handle table]); the object holds the code. */
  const kern_kernel *ko = kern__handle_get(k_empty, KERN__H_KERNEL);
  void *cufn = kern__cuda_function_handle(ko->fn);
  unsigned block = kern__cuda_function_block(ko->fn);
  for (int r = 0; r < ROUNDS; r++) {
    CK(kern_stream_synchronize(s));
    double t0 = now_us();
    for (int i = 0; i < reps; i++) CK(kern_launch_async(k_empty, s, 1, &one, 1, &earg));
    CK(kern_stream_synchronize(s));
    tk[r] = (now_us() - t0) / reps;
    t0 = now_us();
    for (int i = 0; i < reps; i++)
      if (cuLaunchKernel(cufn, 1, 1, 1, block, 1, 1, 0, cs, params, NULL)) {
        fprintf(stderr, "bare cuLaunchKernel failed\n");
        return 1;
      }
    cuStreamSynchronize(cs);
    tb[r] = (now_us() - t0) / reps;
  }
  qsort(tk, ROUNDS, sizeof *tk, cmp);
  qsort(tb, ROUNDS, sizeof *tb, cmp);
  printf("launch_async_us %.3f us\n", tk[ROUNDS / 2]);
  printf("cuLaunchKernel_us %.3f us\n", tb[ROUNDS / 2]);

  /* ---- 2. graph of 100 small kernels */
  enum { GN = 100, GREPS = 200 };
  int64_t small = 1024;
  kern_array *ga;
  CK(kern_array_new(ctx, dev, f32, 1, &small, &ga));
  CK(kern_array_zero(ga));
  kern_arg gargs[] = {kern_arg_array(ga), kern_arg_float(1)};
  kern_graph *g;
  CK(kern_graph_begin_capture(s));
  for (int i = 0; i < GN; i++) CK(kern_launch_async(k_bump, s, 1, &small, 2, gargs));
  CK(kern_graph_end_capture(s, &g));
  double tg[ROUNDS], tl[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    CK(kern_stream_synchronize(s));
    double t0 = now_us();
    for (int i = 0; i < GREPS; i++) CK(kern_graph_replay(g, s));
    CK(kern_stream_synchronize(s));
    tg[r] = (now_us() - t0) / (GREPS * GN);
    t0 = now_us();
    for (int i = 0; i < GREPS * GN; i++) CK(kern_launch_async(k_bump, s, 1, &small, 2, gargs));
    CK(kern_stream_synchronize(s));
    tl[r] = (now_us() - t0) / (GREPS * GN);
  }
  qsort(tg, ROUNDS, sizeof *tg, cmp);
  qsort(tl, ROUNDS, sizeof *tl, cmp);
  float gv[1024];
  CK(kern_array_download(ga, gv, sizeof gv));
  double want = (double)ROUNDS * 2 * GREPS * GN;
  if (gv[0] != (float)want || gv[1023] != (float)want) {
    fprintf(stderr, "graph result %g, want %g\n", gv[0], want);
    return 1;
  }
  /* An update between replays takes effect. */
  CK(kern_array_zero(ga));
  CK(kern_graph_set_arg(g, 0, 1, kern_arg_float(1001)));
  CK(kern_graph_replay(g, s));
  CK(kern_stream_synchronize(s));
  CK(kern_array_download(ga, gv, sizeof gv));
  if (gv[5] != 1001.0f + 99.0f) {
    fprintf(stderr, "graph update: %g, want 1100\n", gv[5]);
    return 1;
  }
  printf("graph_us_per_kernel %.3f us\n", tg[ROUNDS / 2]);
  printf("launch_async_small_us %.3f us\n", tl[ROUNDS / 2]);
  kern_graph_free(g);

  r[0] = tk[ROUNDS / 2];
  r[1] = tb[ROUNDS / 2];
  r[2] = tg[ROUNDS / 2];
  r[3] = tl[ROUNDS / 2];
  return 0;
}

int main(int argc, char **argv) {
  double gb = 8;
  int reps = 20000;
  const char *timeline_path = NULL;
  const char *devname = "cuda";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--gb") && i + 1 < argc) gb = atof(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--timeline") && i + 1 < argc) timeline_path = argv[++i];
    else if (!strcmp(argv[i], "--device") && i + 1 < argc) devname = argv[++i];
  }
  CK(kern_context_new(NULL, &ctx));
  kern_device dev;
  CK(kern_device_find(ctx, devname, &dev));
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  CK(kern_device_get(ctx, dev, &di));
  printf("card %s\n", di.name);
  kern_module *m;
  kern_kernel *k_empty, *k_bump, *k_axpb;
  CK(kern_module_load_string(ctx, dev, "async_bench.py", SRC, sizeof SRC - 1, &m));
  CK(kern_module_get_kernel(m, "empty", &k_empty));
  CK(kern_module_get_kernel(m, "bump", &k_bump));
  CK(kern_module_get_kernel(m, "axpb", &k_axpb));
  kern_stream *s;
  CK(kern_stream_new(ctx, dev, &s));
  double lr[4] = {0, 0, 0, 0};
  int is_cuda = kern_stream_native(s) != NULL && !strncmp(devname, "cuda", 4);
  if (is_cuda && launches_and_graph(dev, k_empty, k_bump, s, reps, lr)) return 1;
  double launch_gap = lr[0] - lr[1];
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};

  /* ---- 3. pipeline over pinned host memory vs bidirectional copies */
  int64_t n = (int64_t)(gb * (1 << 30) / 4);
  size_t bytes = (size_t)n * 4;
  float *in, *out;
  double t0 = now_us();
  CK(kern_host_alloc(ctx, dev, bytes, (void **)&in));
  CK(kern_host_alloc(ctx, dev, bytes, (void **)&out));
  for (int64_t i = 0; i < n; i++) in[i] = (float)(i & 1023);
  memset(out, 0, bytes);
  printf("pinned_alloc_and_init_s %.1f s\n", (now_us() - t0) / 1e6);
  int64_t chunk = 32 << 20; /* 128 MiB of float32 */
  if (chunk > n) chunk = n;
  /* Reference: chunks up on one stream and down on another at once. */
  kern_stream *up, *down;
  CK(kern_stream_new(ctx, dev, &up));
  CK(kern_stream_new(ctx, dev, &down));
  kern_array *ub[2], *db[2];
  for (int i = 0; i < 2; i++) {
    CK(kern_array_new(ctx, dev, f32, 1, &chunk, &ub[i]));
    CK(kern_array_new(ctx, dev, f32, 1, &chunk, &db[i]));
  }
  double bidir = 0, h2d = 0, d2h = 0;
  for (int r = 0; r < 2; r++) {
    t0 = now_us();
    for (int64_t at = 0, c = 0; at < n; at += chunk, c++) {
      int64_t len = n - at < chunk ? n - at : chunk;
      CK(kern_array_upload_async(ub[c % 2], up, 0, in + at, (size_t)len * 4));
      CK(kern_array_download_async(db[c % 2], down, 0, out + at, (size_t)len * 4));
    }
    CK(kern_stream_synchronize(up));
    CK(kern_stream_synchronize(down));
    double rate = 2.0 * bytes / ((now_us() - t0) * 1e3);
    if (rate > bidir) bidir = rate;
    t0 = now_us();
    for (int64_t at = 0, c = 0; at < n; at += chunk, c++) {
      int64_t len = n - at < chunk ? n - at : chunk;
      CK(kern_array_upload_async(ub[c % 2], up, 0, in + at, (size_t)len * 4));
    }
    CK(kern_stream_synchronize(up));
    rate = (double)bytes / ((now_us() - t0) * 1e3);
    if (rate > h2d) h2d = rate;
    t0 = now_us();
    for (int64_t at = 0, c = 0; at < n; at += chunk, c++) {
      int64_t len = n - at < chunk ? n - at : chunk;
      CK(kern_array_download_async(db[c % 2], down, 0, out + at, (size_t)len * 4));
    }
    CK(kern_stream_synchronize(down));
    rate = (double)bytes / ((now_us() - t0) * 1e3);
    if (rate > d2h) d2h = rate;
  }
  for (int i = 0; i < 2; i++) {
    kern_array_free(ub[i]);
    kern_array_free(db[i]);
  }
  printf("bidirectional_copy_GBs %.2f GB/s\n", bidir);
  printf("h2d_copy_GBs %.2f GB/s\n", h2d);
  printf("d2h_copy_GBs %.2f GB/s\n", d2h);
  kern_kernel *chain[] = {k_axpb};
  kern_arg ab[] = {kern_arg_float(2), kern_arg_float(1)};
  const kern_arg *extra[] = {ab};
  int nextra[] = {2};
  kern_pipeline_config cfg = KERN_PIPELINE_CONFIG_INIT;
  cfg.kernels = chain;
  cfg.nkernels = 1;
  cfg.extra_args = extra;
  cfg.nextra = nextra;
  cfg.input = in;
  cfg.output = out;
  cfg.count = n;
  /* Every chunk's stage times (6 per chunk) of the run being reported. */
  int64_t tl_cap = n / (1 << 18) + 2; /* enough for 1 MiB chunks */
  double *tline = malloc((size_t)tl_cap * 6 * sizeof *tline);
  double *best_tline = malloc((size_t)tl_cap * 6 * sizeof *tline);
  if (!tline || !best_tline) return 1;
  cfg.timeline = tline;
  cfg.timeline_chunks = tl_cap;
  /* Fixed configurations: 1 to 4 buffers at 128 MiB chunks, then 3
   * buffers at other chunk sizes; the best of two runs each. */
  struct { int64_t chunk; int buffers; } fixed[] = {
      {chunk, 1}, {chunk, 2}, {chunk, 3}, {chunk, 4},
      {chunk / 8, 3}, {chunk / 2, 3}, {chunk * 2, 3}};
  enum { NFIXED = sizeof fixed / sizeof *fixed };
  double fixed_rate[NFIXED];
  kern_pipeline_report best3 = KERN_PIPELINE_REPORT_INIT;
  double best_fixed = 0;
  int best_fixed_i = 0;
  printf("\npipeline, %.1f GiB float32 y = 2x + 1, pinned, rates count bytes "
         "in + out:\n", gb);
  printf("  %-22s %9s %7s %9s %9s %9s %9s %7s %7s %7s\n", "config", "GB/s",
         "/bidir", "wall ms", "device", "up/chunk", "k/chunk", "dn/chunk",
         "up busy", "dn busy");
  for (int f = 0; f < NFIXED; f++) {
    if (fixed[f].chunk > n) fixed[f].chunk = n;
    cfg.chunk = fixed[f].chunk;
    cfg.buffers = fixed[f].buffers;
    kern_pipeline_report best = KERN_PIPELINE_REPORT_INIT;
    for (int r = 0; r < 2; r++) {
      kern_pipeline_report rep = KERN_PIPELINE_REPORT_INIT;
      CK(kern_pipeline_run(ctx, &cfg, &rep));
      if (!best.wall_ms || rep.wall_ms < best.wall_ms) {
        best = rep;
        if (f == 2) memcpy(best_tline, tline, (size_t)tl_cap * 6 * sizeof *tline);
      }
    }
    for (int64_t i = 0; i < n; i += 9973)
      if (out[i] != 2.0f * in[i] + 1.0f) {
        fprintf(stderr, "pipeline out[%lld] = %g, want %g\n", (long long)i,
                out[i], 2.0f * in[i] + 1.0f);
        return 1;
      }
    double rate = 2.0 * bytes / (best.wall_ms * 1e6);
    fixed_rate[f] = rate;
    if (rate > best_fixed) {
      best_fixed = rate;
      best_fixed_i = f;
    }
    if (f == 2) best3 = best;
    double k = (double)best.chunks;
    char name[64];
    snprintf(name, sizeof name, "%d buf, %lld MiB", best.buffers,
             (long long)(best.chunk * 4 >> 20));
    printf("  %-22s %9.2f %7.3f %9.1f %9.1f %9.3f %9.3f %9.3f %7.2f %7.2f\n",
           name, rate, rate / bidir, best.wall_ms, best.device_ms,
           best.upload_ms / k, best.compute_ms / k, best.download_ms / k,
           best.upload_ms / best.device_ms, best.download_ms / best.device_ms);
  }
  for (int b = 0; b < 4; b++)
    printf("pipeline%d_GBs %.2f GB/s (%.3f of bidirectional)\n", b + 1,
           fixed_rate[b], fixed_rate[b] / bidir);
  double prate = fixed_rate[2];
  printf("pipeline3_GBs %.2f GB/s (chunk %lld, %lld chunks, upload %.1f ms, "
         "compute %.1f ms, download %.1f ms, wall %.1f ms, device %.1f ms, "
         "overlap %.2f)\n",
         prate, (long long)best3.chunk, (long long)best3.chunks,
         best3.upload_ms, best3.compute_ms, best3.download_ms, best3.wall_ms,
         best3.device_ms, best3.overlap);
  /* Where the 3-buffer run lost time: the largest idle gaps of each copy
   * direction between consecutive chunks, and the first upload and last
   * download (fill and drain). */
  {
    double gu = 0, gd = 0;
    int64_t k = best3.timeline_chunks;
    for (int64_t i = 1; i < k; i++) {
      double a = best_tline[i * 6 + 0] - best_tline[(i - 1) * 6 + 1];
      double d = best_tline[i * 6 + 4] - best_tline[(i - 1) * 6 + 5];
      if (a > gu) gu = a;
      if (d > gd) gd = d;
    }
    printf("pipeline3_stages first upload %.3f ms, last download %.3f ms, "
           "largest upload gap %.3f ms, largest download gap %.3f ms\n",
           best_tline[1] - best_tline[0], best_tline[(k - 1) * 6 + 5] - best_tline[(k - 1) * 6 + 4],
           gu, gd);
    if (timeline_path) {
      FILE *f = fopen(timeline_path, "w");
      if (f) {
        fprintf(f, "chunk,upload_start,upload_end,compute_start,compute_end,"
                   "download_start,download_end\n");
        for (int64_t i = 0; i < k; i++) {
          fprintf(f, "%lld", (long long)i);
          for (int e = 0; e < 6; e++) fprintf(f, ",%.4f", best_tline[i * 6 + e]);
          fprintf(f, "\n");
        }
        fclose(f);
      }
    }
  }
  /* The same with kern choosing chunk and buffer count: the first call
   * measures its model, the second uses the remembered one. */
  cfg.chunk = 0;
  cfg.buffers = 0;
  cfg.timeline = NULL;
  cfg.timeline_chunks = 0;
  kern_pipeline_report tuned = KERN_PIPELINE_REPORT_INIT;
  t0 = now_us();
  CK(kern_pipeline_run(ctx, &cfg, &tuned));
  double first_ms = (now_us() - t0) / 1e3;
  printf("pipeline_auto_first %.1f ms with measuring (run %.1f ms): chose "
         "chunk %lld MiB, %d buffers; model: upload %.2f GB/s, compute %.2f "
         "GB/s, download %.2f GB/s, predicted %.1f ms\n",
         first_ms, tuned.wall_ms, (long long)(tuned.chunk * 4 >> 20),
         tuned.buffers, tuned.upload_gbs, tuned.compute_gbs,
         tuned.download_gbs, tuned.predicted_ms);
  double auto_rate = 0;
  for (int r = 0; r < 2; r++) {
    CK(kern_pipeline_run(ctx, &cfg, &tuned));
    double rate = 2.0 * bytes / (tuned.wall_ms * 1e6);
    if (rate > auto_rate) auto_rate = rate;
  }
  printf("pipeline_auto_GBs %.2f GB/s (chose chunk %lld MiB, %d buffers, %s; "
         "predicted %.1f ms, ran %.1f ms; %.3f of the best fixed, %d buf %lld "
         "MiB at %.2f GB/s)\n",
         auto_rate, (long long)(tuned.chunk * 4 >> 20), tuned.buffers,
         tuned.chosen == 2 ? "remembered" : "measured", tuned.predicted_ms,
         tuned.wall_ms, auto_rate / best_fixed, fixed[best_fixed_i].buffers,
         (long long)(fixed[best_fixed_i].chunk * 4 >> 20), best_fixed);
  free(tline);
  free(best_tline);

  printf("\n%-44s %12s %12s %8s\n", "what", "kern", "reference", "ratio");
  if (is_cuda) {
    printf("%-44s %9.3f us %9.3f us %+7.3f us (target <= +0.5)\n",
           "empty launch back to back (async vs bare)", lr[0], lr[1],
           launch_gap);
    printf("%-44s %9.3f us %9.3f us %8.2f (target <= 1.5 us)\n",
           "graph replay, 100 small kernels, per kernel", lr[2], lr[3],
           lr[2] / lr[3]);
  }
  printf("%-44s %8.2f GB/s %7.2f GB/s %8.3f (target >= 0.90)\n",
         "pipeline, 3 buffers, vs bidirectional copy", prate, bidir,
         prate / bidir);
  for (int b = 0; b < 4; b++) {
    char name[64];
    snprintf(name, sizeof name, "pipeline, %d buffer%s, vs bidirectional copy",
             b + 1, b ? "s" : "");
    if (b != 2)
      printf("%-44s %8.2f GB/s %7.2f GB/s %8.3f\n", name, fixed_rate[b],
             bidir, fixed_rate[b] / bidir);
  }
  printf("%-44s %8.2f GB/s %7.2f GB/s %8.3f (vs the best fixed)\n",
         "pipeline, chosen by kern", auto_rate, best_fixed,
         auto_rate / best_fixed);
  kern_host_free(ctx, in);
  kern_host_free(ctx, out);
  kern_context_free(ctx);
  return 0;
}
