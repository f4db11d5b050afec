/*
 * tier_test -- the PTX tier of a cold CUDA load (Note [PTX tier] in
 * src/runtime/cuda_module.c), through the public API.
 *
 *   tier_test
 *
 * Needs a CUDA device (exit 77 without one).  Every module is a text new
 * to kern's cache (a fresh cache directory) and to NVRTC's (a salt), and
 * checks:
 *  - auto: the load returns kern's PTX module, every launch gives the
 *    exact results, and within a bounded time a launch switches the kernel
 *    to the NVRTC cubin, which the background build stored in the cache;
 *    results are bit-identical before and after;
 *  - a second load of the same text is a cache hit (no PTX tier, and no
 *    PTX emitted: the cache is looked up first);
 *  - kern_module_wait_final switches at once;
 *  - a launch on a capturing stream waits for the cubin, so the graph
 *    holds it, and the graph's replays and argument updates work;
 *  - freeing a module while its build runs does not wait for it (the build
 *    finishes on its own and still fills the cache);
 *  - KERN_CUDA_TIER_PTX keeps the PTX; KERN_CUDA_TIER_NVRTC never uses it.
 * Prints the cold load's time for each mode (informative only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuda_check.h"
#include "kern_test.h"
#include "runtime.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

enum { N = 1 << 20 };
static unsigned salt;

/* A saxpy with an integer twist, new to every cache: salt is in the text. */
static char *source(void) {
  static char buf[1024];
  snprintf(buf, sizeof buf,
           "import warp as wp\n\n"
           "@wp.kernel\n"
           "def t%u(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float),\n"
           "        c: wp.array(dtype=int)):\n"
           "    i = wp.tid()\n"
           "    y[i] = a * x[i] + y[i] / 3.0\n"
           "    c[i] = c[i] * 7 + i %% 5 + %u\n",
           salt, salt % 1000);
  salt++;
  return buf;
}

static kern_context *new_ctx(int tier, char *dir) {
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = dir;
  o.cuda_tier = tier;
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(&o, &ctx));
  return ctx;
}

static void *cufn(kern_kernel *k) {
  const kern_kernel *ko = kern__handle_get(k, KERN__H_KERNEL);
  return kern__cuda_function_handle(ko->fn);
}

static int has_ptx(kern_module *m) {
  const kern_module *mo = kern__handle_get(m, KERN__H_MODULE);
  return mo->code.ptx != NULL;
}

typedef struct {
  kern_array *x, *y, *c;
  float *hx, *hy, *out;
  int *hc, *outc;
} data;

static void data_new(kern_context *ctx, kern_device dev, data *d) {
  int64_t n = N;
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  kern_type i32 = {KERN_KIND_SCALAR, KERN_SCALAR_INT32, 1, 1};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &d->x));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &d->y));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, i32, 1, &n, &d->c));
  d->hx = malloc(N * sizeof(float));
  d->hy = malloc(N * sizeof(float));
  d->out = malloc(N * sizeof(float));
  d->hc = malloc(N * sizeof(int));
  d->outc = malloc(N * sizeof(int));
  ASSERT(d->hx && d->hy && d->out && d->hc && d->outc);
  for (int i = 0; i < N; i++) {
    d->hx[i] = (float)(i % 1013) * 0.37f - 11.0f;
    d->hy[i] = (float)(i % 89) * 1.7f + 0.1f;
    d->hc[i] = i * 31 - 5;
  }
}

static void data_free(data *d) {
  kern_array_free(d->x);
  kern_array_free(d->y);
  kern_array_free(d->c);
  free(d->hx);
  free(d->hy);
  free(d->out);
  free(d->hc);
  free(d->outc);
}

/* One launch from fresh inputs; the outputs land in d->out / d->outc. */
static void run_once(kern_context *ctx, kern_kernel *k, data *d) {
  ASSERT_OK(ctx, kern_array_upload(d->x, d->hx, N * sizeof(float)));
  ASSERT_OK(ctx, kern_array_upload(d->y, d->hy, N * sizeof(float)));
  ASSERT_OK(ctx, kern_array_upload(d->c, d->hc, N * sizeof(int)));
  int64_t n = N;
  kern_arg a[] = {kern_arg_float(2.5), kern_arg_array(d->x),
                  kern_arg_array(d->y), kern_arg_array(d->c)};
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 4, a));
  ASSERT_OK(ctx, kern_array_download(d->y, d->out, N * sizeof(float)));
  ASSERT_OK(ctx, kern_array_download(d->c, d->outc, N * sizeof(int)));
}

/* The auto tier: PTX first, then the cubin, same bits throughout. */
static void test_auto(kern_device dev, char *dir) {
  kern_context *ctx = new_ctx(KERN_CUDA_TIER_AUTO, dir);
  const char *src = source();
  char text[1024];
  snprintf(text, sizeof text, "%s", src);
  kern_module *m;
  double t0 = now_ms();
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "tier.py", text,
                                         strlen(text), &m));
  printf("auto: cold load %.1f ms\n", now_ms() - t0);
  ASSERT(has_ptx(m)); /* the PTX emitter covers this kernel */
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_get_kernel(m, kern_module_kernel_name(m, 0), &k));
  void *first = cufn(k);
  data d;
  data_new(ctx, dev, &d);
  run_once(ctx, k, &d);
  float *ref = malloc(N * sizeof(float));
  int *refc = malloc(N * sizeof(int));
  ASSERT(ref && refc);
  memcpy(ref, d.out, N * sizeof(float));
  memcpy(refc, d.outc, N * sizeof(int));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(refc[i], d.hc[i] * 7 + i % 5 + (int)((salt - 1) % 1000));
  int switched = 0;
  double t1 = now_ms();
  while (now_ms() - t1 < 60000) {
    run_once(ctx, k, &d);
    ASSERT(memcmp(d.out, ref, N * sizeof(float)) == 0);
    ASSERT(memcmp(d.outc, refc, N * sizeof(int)) == 0);
    if (cufn(k) != first) {
      switched = 1;
      break;
    }
    usleep(2000);
  }
  printf("auto: switched to the NVRTC build %.1f ms after the load\n",
         now_ms() - t0);
  ASSERT(switched);
  /* The launch after the switch, on the cubin: the same bits. */
  run_once(ctx, k, &d);
  ASSERT(memcmp(d.out, ref, N * sizeof(float)) == 0);
  ASSERT(memcmp(d.outc, refc, N * sizeof(int)) == 0);
  kern_module_free(m);

  /* The background build stored the cubin: a second load is a hit. */
  t0 = now_ms();
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "tier.py", text,
                                         strlen(text), &m));
  printf("auto: warm load %.2f ms\n", now_ms() - t0);
  ASSERT_OK(ctx, kern_module_get_kernel(m, kern_module_kernel_name(m, 0), &k));
  /* The cache is looked up before any PTX is made (Note [tier decision]):
   * a hit never emits it. */
  ASSERT(!has_ptx(m));
  const kern_module *mo = kern__handle_get(m, KERN__H_MODULE);
  void *h = mo->handle;
  /* A hit is never quick: the first launch already runs the cubin, and the
   * handle does not change after it. */
  run_once(ctx, k, &d);
  void *after = cufn(k);
  run_once(ctx, k, &d);
  ASSERT(cufn(k) == after && h == mo->handle);
  ASSERT(memcmp(d.out, ref, N * sizeof(float)) == 0);
  kern_module_free(m);
  free(ref);
  free(refc);
  data_free(&d);
  kern_context_free(ctx);
}

/* kern_module_wait_final switches at once, with the same bits. */
static void test_wait_final(kern_device dev, char *dir) {
  kern_context *ctx = new_ctx(KERN_CUDA_TIER_AUTO, dir);
  const char *src = source();
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "w.py", src, strlen(src),
                                         &m));
  ASSERT(has_ptx(m));
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_get_kernel(m, kern_module_kernel_name(m, 0), &k));
  void *first = cufn(k);
  data d;
  data_new(ctx, dev, &d);
  run_once(ctx, k, &d);
  float *ref = malloc(N * sizeof(float));
  ASSERT(ref);
  memcpy(ref, d.out, N * sizeof(float));
  double t0 = now_ms();
  ASSERT_OK(ctx, kern_module_wait_final(m));
  printf("wait_final: %.1f ms\n", now_ms() - t0);
  ASSERT(cufn(k) != first);
  ASSERT_OK(ctx, kern_module_wait_final(m)); /* final already: at once */
  run_once(ctx, k, &d);
  ASSERT(memcmp(d.out, ref, N * sizeof(float)) == 0);
  free(ref);
  data_free(&d);
  kern_module_free(m);
  kern_context_free(ctx);
}

/* A capture waits for the cubin; the graph replays and updates. */
static void test_capture(kern_device dev, char *dir) {
  kern_context *ctx = new_ctx(KERN_CUDA_TIER_AUTO, dir);
  const char *src = source();
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "cap.py", src, strlen(src),
                                         &m));
  ASSERT(has_ptx(m));
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_get_kernel(m, kern_module_kernel_name(m, 0), &k));
  void *first = cufn(k);
  data d;
  data_new(ctx, dev, &d);
  run_once(ctx, k, &d); /* the reference, very likely still on PTX */
  float *ref = malloc(N * sizeof(float));
  ASSERT(ref);
  memcpy(ref, d.out, N * sizeof(float));
  kern_stream *s;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &s));
  ASSERT_OK(ctx, kern_array_upload(d.x, d.hx, N * sizeof(float)));
  ASSERT_OK(ctx, kern_array_upload(d.y, d.hy, N * sizeof(float)));
  ASSERT_OK(ctx, kern_array_upload(d.c, d.hc, N * sizeof(int)));
  int64_t n = N;
  kern_arg a[] = {kern_arg_float(2.5), kern_arg_array(d.x),
                  kern_arg_array(d.y), kern_arg_array(d.c)};
  kern_graph *g;
  ASSERT_OK(ctx, kern_graph_begin_capture(s));
  ASSERT_OK(ctx, kern_launch_async(k, s, 1, &n, 4, a));
  ASSERT_OK(ctx, kern_graph_end_capture(s, &g));
  ASSERT(cufn(k) != first); /* the capture waited and switched */
  ASSERT_OK(ctx, kern_graph_replay(g, s));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  ASSERT_OK(ctx, kern_array_download(d.y, d.out, N * sizeof(float)));
  ASSERT(memcmp(d.out, ref, N * sizeof(float)) == 0);
  /* An update of the captured launch (the final function's node). */
  ASSERT_OK(ctx, kern_graph_set_arg(g, 0, 0, kern_arg_float(0)));
  ASSERT_OK(ctx, kern_array_upload(d.y, d.hy, N * sizeof(float)));
  ASSERT_OK(ctx, kern_graph_replay(g, s));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  ASSERT_OK(ctx, kern_array_download(d.y, d.out, N * sizeof(float)));
  for (int i = 0; i < N; i++) {
    volatile float q = d.hy[i] / 3.0f, z = 0.0f * d.hx[i];
    ASSERT(d.out[i] == (float)(z + q));
  }
  kern_graph_free(g);
  ASSERT_OK(ctx, kern_stream_free(s));
  kern_module_free(m);
  free(ref);
  data_free(&d);
  kern_context_free(ctx);
}

/* Freeing modules whose builds still run, then the context: neither waits
 * for NVRTC (the builds finish on their own), and nothing crashes at exit. */
static void test_free_while_building(kern_device dev, char *dir) {
  kern_context *ctx = new_ctx(KERN_CUDA_TIER_AUTO, dir);
  double t0 = now_ms(), worst = 0;
  for (int r = 0; r < 3; r++) {
    const char *src = source();
    kern_module *m;
    ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "f.py", src, strlen(src),
                                           &m));
    ASSERT(has_ptx(m));
    double a = now_ms();
    if (r != 1) kern_module_free(m); /* r == 1: the context frees it */
    if (now_ms() - a > worst) worst = now_ms() - a;
  }
  kern_context_free(ctx);
  printf("free while building: 3 loads and frees %.1f ms, slowest free "
         "%.2f ms\n", now_ms() - t0, worst);
  /* NVRTC takes 90 ms or more for any of these; a free that waited for it
   * would show. */
  ASSERT(worst < 50);
}

/* The two fixed tiers. */
static void test_fixed(kern_device dev, char *dir, int tier) {
  kern_context *ctx = new_ctx(tier, dir);
  const char *src = source();
  kern_module *m;
  double t0 = now_ms();
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "x.py", src, strlen(src),
                                         &m));
  printf("%s: cold load %.1f ms\n", tier == KERN_CUDA_TIER_PTX ? "ptx" : "nvrtc",
         now_ms() - t0);
  ASSERT(has_ptx(m) == (tier == KERN_CUDA_TIER_PTX));
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_get_kernel(m, kern_module_kernel_name(m, 0), &k));
  void *first = cufn(k);
  data d;
  data_new(ctx, dev, &d);
  for (int r = 0; r < 5; r++) {
    run_once(ctx, k, &d);
    usleep(50000);
  }
  ASSERT(cufn(k) == first);
  data_free(&d);
  kern_module_free(m);
  kern_context_free(ctx);
}

int main(void) {
  salt = (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL);
  kern_context *probe;
  ASSERT_OK(NULL, kern_context_new(NULL, &probe));
  kern_device dev;
  if (kern_device_find(probe, "cuda", &dev) != KERN_SUCCESS) {
    printf("tier_test: no CUDA device; skipped\n");
    kern_context_free(probe);
    return 77;
  }
  kern_context_free(probe);
  char dir[] = "/tmp/kern-tier-XXXXXX";
  ASSERT(mkdtemp(dir) != NULL);
  test_auto(dev, dir);
  test_wait_final(dev, dir);
  test_capture(dev, dir);
  test_free_while_building(dev, dir);
  test_fixed(dev, dir, KERN_CUDA_TIER_PTX);
  test_fixed(dev, dir, KERN_CUDA_TIER_NVRTC);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) return 1;
  printf("tier_test: ok\n");
  return 0;
}
