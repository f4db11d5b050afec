/*
 * async_common.h -- what the six buffering examples share.
 *
 * Every example streams the same host data (pinned, from kern_host_alloc)
 * through the same kernels, times its pattern against the plain sequential
 * version (upload, compute, download, one after the other on one stream),
 * checks that both give the same bytes, and prints one row:
 *
 *   double buffering      12.31 ms   sequential   20.02 ms   speedup 1.63x
 *
 * Sizes come from the environment so the same programs serve CI (small,
 * the default) and the GPU benchmark (exp/async_gpu.sh):
 *   KERN_EXAMPLE_MB     MiB of float32 input in all (default 32)
 *   KERN_EXAMPLE_CHUNKS chunks / batches it is cut into (default 16)
 *   KERN_EXAMPLE_ITERS  arithmetic per element in the kernel (default 16)
 * The device is kern's default ($KERN_DEVICE, the config file, else auto).
 * Each time is the median of five runs after one warm-up.
 */
#ifndef KERN_ASYNC_COMMON_H
#define KERN_ASYNC_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <kern.h>

static const char EX_SRC[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def work(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), "
    "iters: wp.int32):\n"
    "    i = wp.tid()\n"
    "    v = x[i]\n"
    "    for k in range(iters):\n"
    "        v = v * 0.999 + 0.5\n"
    "    y[i] = v\n"
    "\n"
    "@wp.kernel\n"
    "def accumulate(w: wp.array(dtype=wp.float32), g: wp.array(dtype=wp.float32), "
    "lr: wp.float32):\n"
    "    i = wp.tid()\n"
    "    w[i] = w[i] + lr * g[i]\n";

#define EX_CHECK(call)                                                      \
  do {                                                                      \
    kern_status s_ = (call);                                                \
    if (s_ != KERN_SUCCESS) {                                               \
      fprintf(stderr, "%s:%d: %s failed: %s\n%s\n", __FILE__, __LINE__,     \
              #call, kern_status_name(s_), kern_last_error(ex.ctx));        \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

typedef struct ex_state {
  kern_context *ctx;
  kern_device dev;
  kern_kernel *work, *accumulate;
  int64_t n;      /* elements in all */
  int chunks;
  int64_t chunk;  /* elements per chunk (the last may be shorter) */
  int iters;
  float *in, *out, *ref; /* pinned host memory */
} ex_state;

static ex_state ex;

static inline double ex_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static inline long ex_env(const char *name, long dflt) {
  const char *v = getenv(name);
  long x = v && *v ? strtol(v, NULL, 10) : 0;
  return x > 0 ? x : dflt;
}

static inline void ex_setup(void) {
  EX_CHECK(kern_context_new(NULL, &ex.ctx));
  EX_CHECK(kern_device_find(ex.ctx, NULL, &ex.dev));
  kern_module *m;
  EX_CHECK(kern_module_load_string(ex.ctx, ex.dev, "async_example.py", EX_SRC,
                                   sizeof EX_SRC - 1, &m));
  EX_CHECK(kern_module_get_kernel(m, "work", &ex.work));
  EX_CHECK(kern_module_get_kernel(m, "accumulate", &ex.accumulate));
  ex.n = ex_env("KERN_EXAMPLE_MB", 32) * 1024 * 1024 / 4;
  ex.chunks = (int)ex_env("KERN_EXAMPLE_CHUNKS", 16);
  ex.chunk = (ex.n + ex.chunks - 1) / ex.chunks;
  ex.iters = (int)ex_env("KERN_EXAMPLE_ITERS", 16);
  size_t bytes = (size_t)ex.n * sizeof(float);
  EX_CHECK(kern_host_alloc(ex.ctx, ex.dev, bytes, (void **)&ex.in));
  EX_CHECK(kern_host_alloc(ex.ctx, ex.dev, bytes, (void **)&ex.out));
  EX_CHECK(kern_host_alloc(ex.ctx, ex.dev, bytes, (void **)&ex.ref));
  for (int64_t i = 0; i < ex.n; i++) ex.in[i] = (float)(i % 1000) * 0.01f;
}

static inline int64_t ex_len(int c) {
  int64_t at = (int64_t)c * ex.chunk;
  return ex.n - at < ex.chunk ? ex.n - at : ex.chunk;
}

static kern_array *ex_array(int64_t n) {
  kern_array *a;
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  EX_CHECK(kern_array_new(ex.ctx, ex.dev, f32, 1, &n, &a));
  return a;
}

/* Launches work(x, y, iters) over n elements on s. */
static inline void ex_work(kern_stream *s, kern_array *x, kern_array *y, int64_t n) {
  kern_arg a[] = {kern_arg_array(x), kern_arg_array(y),
                  kern_arg_int(ex.iters)};
  EX_CHECK(kern_launch_async(ex.work, s, 1, &n, 3, a));
}

/* The tail chunk: an array over the first n elements of a chunk buffer. */
static kern_array *ex_view(kern_array *a, int64_t n) {
  kern_array *v;
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  EX_CHECK(kern_array_wrap(ex.ctx, ex.dev, f32, 1, &n, kern_array_native(a), &v));
  return v;
}

/* The reference pattern: one stream, each chunk's upload, compute and
 * download in turn, waiting for each chunk before starting the next. */
static inline void ex_sequential(float *out) {
  kern_stream *s;
  EX_CHECK(kern_stream_new(ex.ctx, ex.dev, &s));
  kern_array *x = ex_array(ex.chunk), *y = ex_array(ex.chunk);
  for (int c = 0; c < ex.chunks; c++) {
    int64_t n = ex_len(c), at = (int64_t)c * ex.chunk;
    kern_array *xv = n < ex.chunk ? ex_view(x, n) : x;
    kern_array *yv = n < ex.chunk ? ex_view(y, n) : y;
    EX_CHECK(kern_array_upload_async(xv, s, 0, ex.in + at, n * 4));
    ex_work(s, xv, yv, n);
    EX_CHECK(kern_array_download_async(yv, s, 0, out + at, n * 4));
    EX_CHECK(kern_stream_synchronize(s));
    if (xv != x) kern_array_free(xv);
    if (yv != y) kern_array_free(yv);
  }
  kern_array_free(x);
  kern_array_free(y);
  EX_CHECK(kern_stream_free(s));
}

static inline int ex_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median of five timed runs of fn after a warm-up. */
static inline double ex_time(void (*fn)(float *), float *out) {
  double t[5];
  fn(out);
  for (int i = 0; i < 5; i++) {
    double t0 = ex_now_ms();
    fn(out);
    t[i] = ex_now_ms() - t0;
  }
  qsort(t, 5, sizeof *t, ex_cmp_double);
  return t[2];
}

static inline void ex_compare(const float *got, const float *want, int64_t n,
                       const char *what) {
  if (memcmp(got, want, (size_t)n * sizeof(float)) != 0) {
    for (int64_t i = 0; i < n; i++)
      if (got[i] != want[i]) {
        fprintf(stderr, "%s: element %lld is %g, sequential gave %g\n", what,
                (long long)i, got[i], want[i]);
        break;
      }
    exit(1);
  }
}

static inline void ex_row(const char *name, double ms, double seq_ms) {
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  char dev[160] = "?";
  if (kern_device_get(ex.ctx, ex.dev, &di) == KERN_SUCCESS)
    snprintf(dev, sizeof dev, "%s", di.name);
  printf("%-22s %9.2f ms   sequential %9.2f ms   speedup %.2fx   "
         "(%.0f MiB, %d chunks, %s)\n",
         name, ms, seq_ms, seq_ms / ms, (double)ex.n * 4 / (1 << 20),
         ex.chunks, dev);
}

/* A training loop over the chunks as batches: g = work(batch), then
 * w += 0.001 g, for every batch in order; the final w goes to out.
 *
 * depth 0 is the sequential loop: upload a batch, compute, wait, repeat.
 * depth >= 2 prefetches: a copy stream uploads batches into a ring of
 * `depth` device buffers up to depth - 1 batches ahead of the compute
 * stream.  Two events per slot keep them in step: `ready` (the upload into
 * the slot is done; compute waits for it) and `free` (the compute that read
 * the slot is done; the next upload into it waits for that). */
static inline void ex_train(float *out, int depth) {
  enum { MAXQ = 8 };
  int q = depth < 1 ? 1 : depth > MAXQ ? MAXQ : depth;
  kern_stream *copy, *compute;
  EX_CHECK(kern_stream_new(ex.ctx, ex.dev, &copy));
  EX_CHECK(kern_stream_new(ex.ctx, ex.dev, &compute));
  kern_array *w = ex_array(ex.chunk), *g = ex_array(ex.chunk);
  EX_CHECK(kern_array_zero_async(w, compute));
  kern_array *buf[MAXQ];
  kern_event *ready[MAXQ], *freed[MAXQ];
  for (int i = 0; i < q; i++) {
    buf[i] = ex_array(ex.chunk);
    EX_CHECK(kern_event_new(ex.ctx, &ready[i]));
    EX_CHECK(kern_event_new(ex.ctx, &freed[i]));
  }
  kern_array *views[3] = {0};
  for (int c = 0; c < ex.chunks; c++) {
    int slot = c % q;
    int64_t n = ex_len(c), at = (int64_t)c * ex.chunk;
    kern_array *bv = buf[slot], *gv = g, *wv = w;
    if (n < ex.chunk) {
      bv = views[0] = ex_view(buf[slot], n);
      gv = views[1] = ex_view(g, n);
      wv = views[2] = ex_view(w, n);
    }
    if (depth == 0) {
      EX_CHECK(kern_array_upload_async(bv, compute, 0, ex.in + at, n * 4));
    } else {
      /* Upload into the slot once the compute that last read it is done. */
      EX_CHECK(kern_stream_wait_event(copy, freed[slot]));
      EX_CHECK(kern_array_upload_async(bv, copy, 0, ex.in + at, n * 4));
      EX_CHECK(kern_event_record(ready[slot], copy));
      EX_CHECK(kern_stream_wait_event(compute, ready[slot]));
    }
    ex_work(compute, bv, gv, n);
    kern_arg a[] = {kern_arg_array(wv), kern_arg_array(gv),
                    kern_arg_float(0.001)};
    EX_CHECK(kern_launch_async(ex.accumulate, compute, 1, &n, 3, a));
    if (depth == 0) EX_CHECK(kern_stream_synchronize(compute));
    else EX_CHECK(kern_event_record(freed[slot], compute));
  }
  EX_CHECK(kern_array_download_async(w, compute, 0, out, ex.chunk * 4));
  EX_CHECK(kern_stream_synchronize(compute));
  EX_CHECK(kern_stream_synchronize(copy));
  for (int i = 0; i < 3; i++) kern_array_free(views[i]);
  for (int i = 0; i < q; i++) {
    kern_array_free(buf[i]);
    kern_event_free(ready[i]);
    kern_event_free(freed[i]);
  }
  kern_array_free(w);
  kern_array_free(g);
  EX_CHECK(kern_stream_free(copy));
  EX_CHECK(kern_stream_free(compute));
}

static inline void ex_train_sequential(float *out) { ex_train(out, 0); }

static inline void ex_teardown(void) {
  kern_host_free(ex.ctx, ex.in);
  kern_host_free(ex.ctx, ex.out);
  kern_host_free(ex.ctx, ex.ref);
  kern_context_free(ex.ctx);
}

#endif
