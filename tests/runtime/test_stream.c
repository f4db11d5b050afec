/*
 * Streams, events, asynchronous copies, graphs and their misuse, on the
 * device named by argv[1] ("cpu", "opencl", "vulkan"; exit 77 when it is missing).
 *
 * Ordering tests make the first stream slow on purpose (a kernel that loops
 * before writing), so a missing wait would let the second stream read stale
 * data and the assertions would fail.
 */
#include <math.h>
#include "test.h"
#include "async.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def scale(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), "
    "a: wp.float32):\n"
    "    i = wp.tid()\n"
    "    y[i] = x[i] * a\n"
    "\n"
    "@wp.kernel\n"
    "def add(x: wp.array(dtype=wp.float32), v: wp.float32):\n"
    "    i = wp.tid()\n"
    "    x[i] = x[i] + v\n"
    "\n"
    "@wp.kernel\n"
    "def slow_fill(x: wp.array(dtype=wp.float32), v: wp.float32, n: "
    "wp.int32):\n"
    "    i = wp.tid()\n"
    "    s = wp.float32(0.0)\n"
    "    for k in range(n):\n"
    "        s = s + wp.sin(wp.float32(k))\n"
    "    x[i] = v + s * 0.0\n";

static const kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};

static kern_context *ctx;
static kern_device dev;
static kern_kernel *k_scale, *k_add, *k_slow;

enum { N = 4096, SLOW = 5000 };

static void check_all(const float *v, int64_t n, float want, int line) {
  for (int64_t i = 0; i < n; i++)
    if (v[i] != want) {
      fprintf(stderr, "line %d: element %lld is %g, want %g\n", line,
              (long long)i, v[i], want);
      kern_test_failed(1);
    }
}

static kern_array *new_array(int64_t n) {
  kern_array *a;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &a));
  return a;
}

/* Stream B waits for A's event: B's kernel must see A's slow write. */
static void test_event_ordering(void) {
  kern_stream *a, *b;
  kern_event *e;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &a));
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &b));
  ASSERT_OK(ctx, kern_event_new(ctx, &e));
  kern_array *x = new_array(N), *y = new_array(N);
  ASSERT_OK(ctx, kern_array_zero(x));
  for (int round = 1; round <= 3; round++) {
    int64_t n = N;
    kern_arg sa[] = {kern_arg_array(x), kern_arg_float(round), kern_arg_int(SLOW)};
    ASSERT_OK(ctx, kern_launch_async(k_slow, a, 1, &n, 3, sa));
    ASSERT_OK(ctx, kern_event_record(e, a));
    ASSERT_OK(ctx, kern_stream_wait_event(b, e));
    kern_arg sb[] = {kern_arg_array(x), kern_arg_array(y), kern_arg_float(2)};
    ASSERT_OK(ctx, kern_launch_async(k_scale, b, 1, &n, 3, sb));
    static float out[N];
    memset(out, 0, sizeof out);
    ASSERT_OK(ctx, kern_array_download_async(y, b, 0, out, sizeof out));
    ASSERT_OK(ctx, kern_stream_synchronize(b));
    check_all(out, N, 2.0f * round, __LINE__);
    int done = 0;
    ASSERT_OK(ctx, kern_event_query(e, &done));
    ASSERT_EQ(done, 1);
  }
  /* Elapsed time between two events around slow work is positive. */
  kern_event *t0, *t1;
  ASSERT_OK(ctx, kern_event_new(ctx, &t0));
  ASSERT_OK(ctx, kern_event_new(ctx, &t1));
  int64_t n = N;
  kern_arg sa[] = {kern_arg_array(x), kern_arg_float(7), kern_arg_int(SLOW)};
  ASSERT_OK(ctx, kern_event_record(t0, a));
  ASSERT_OK(ctx, kern_launch_async(k_slow, a, 1, &n, 3, sa));
  ASSERT_OK(ctx, kern_event_record(t1, a));
  ASSERT_OK(ctx, kern_event_synchronize(t1));
  double ms = -1;
  ASSERT_OK(ctx, kern_event_elapsed(t0, t1, &ms));
  ASSERT(ms > 0);
  int done = 0;
  ASSERT_OK(ctx, kern_stream_query(a, &done));
  ASSERT_EQ(done, 1);
  kern_event_free(t0);
  kern_event_free(t1);
  kern_event_free(e);
  ASSERT_OK(ctx, kern_stream_free(a));
  ASSERT_OK(ctx, kern_stream_free(b));
  kern_array_free(x);
  kern_array_free(y);
}

/* The synchronous API is ordered after async work on the default stream. */
static void test_default_stream(void) {
  kern_array *x = new_array(N);
  ASSERT_OK(ctx, kern_array_zero(x));
  int64_t n = N;
  kern_arg sa[] = {kern_arg_array(x), kern_arg_float(3), kern_arg_int(SLOW)};
  ASSERT_OK(ctx, kern_launch_async(k_slow, NULL, 1, &n, 3, sa));
  kern_arg ad[] = {kern_arg_array(x), kern_arg_float(1)};
  ASSERT_OK(ctx, kern_launch(k_add, 1, &n, 2, ad)); /* after slow_fill */
  static float out[N];
  ASSERT_OK(ctx, kern_array_download(x, out, sizeof out));
  check_all(out, N, 4.0f, __LINE__);
  /* kern_synchronize waits for every stream of the device. */
  kern_stream *other;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &other));
  ASSERT_OK(ctx, kern_launch_async(k_slow, other, 1, &n, 3, sa));
  ASSERT_OK(ctx, kern_synchronize(ctx, dev));
  int done = 0;
  ASSERT_OK(ctx, kern_stream_query(other, &done));
  ASSERT_EQ(done, 1);
  ASSERT_OK(ctx, kern_stream_free(other));
  kern_array_free(x);
}

/* Copies from pinned and pageable memory, whole and partial, and device to
 * device, all queued on one stream without waits in between. */
static void test_copies(void) {
  kern_stream *s;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &s));
  float *pinned;
  ASSERT_OK(ctx, kern_host_alloc(ctx, dev, N * sizeof(float), (void **)&pinned));
  float *pageable = malloc(N * sizeof(float));
  float *back = malloc(N * sizeof(float));
  ASSERT(pageable && back);
  for (int i = 0; i < N; i++) {
    pinned[i] = (float)i;
    pageable[i] = (float)(N - i);
  }
  kern_array *x = new_array(N), *y = new_array(N), *z = new_array(N);
  ASSERT_OK(ctx, kern_array_upload_async(x, s, 0, pinned, N * sizeof(float)));
  ASSERT_OK(ctx, kern_array_upload_async(y, s, 0, pageable, N * sizeof(float)));
  /* z = -1 everywhere, then z[100:300] = x[1000:1200], then z[0:50] from
   * the host at an offset, then z[4000:4096] = y[0:96]. */
  float minus1 = -1;
  ASSERT_OK(ctx, kern_array_fill_async(z, s, &minus1));
  ASSERT_OK(ctx, kern_array_copy_async(z, 100 * 4, x, 1000 * 4, 200 * 4, s));
  ASSERT_OK(ctx, kern_array_upload_async(z, s, 0, pageable + 7, 50 * 4));
  ASSERT_OK(ctx, kern_array_copy_async(z, 4000 * 4, y, 0, 96 * 4, s));
  /* A partial download into the middle of a pinned buffer. */
  float *pback;
  ASSERT_OK(ctx, kern_host_alloc(ctx, dev, N * sizeof(float), (void **)&pback));
  memset(pback, 0, N * sizeof(float));
  ASSERT_OK(ctx, kern_array_download_async(x, s, 8 * 4, pback + 8, 16 * 4));
  ASSERT_OK(ctx, kern_array_download_async(z, s, 0, back, N * sizeof(float)));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  for (int i = 0; i < N; i++) {
    float want = -1;
    if (i < 50) want = (float)(N - (i + 7));
    else if (i >= 100 && i < 300) want = (float)(1000 + i - 100);
    else if (i >= 4000) want = (float)(N - (i - 4000));
    if (back[i] != want) {
      fprintf(stderr, "z[%d] = %g, want %g\n", i, back[i], want);
      kern_test_failed(1);
    }
    float pw = i >= 8 && i < 24 ? (float)i : 0.0f;
    ASSERT(pback[i] == pw);
  }
  /* Whole-array synchronous D2D copy and zero_async. */
  ASSERT_OK(ctx, kern_array_copy(z, x));
  ASSERT_OK(ctx, kern_array_download(z, back, N * sizeof(float)));
  for (int i = 0; i < N; i++) ASSERT(back[i] == (float)i);
  ASSERT_OK(ctx, kern_array_zero_async(z, s));
  ASSERT_OK(ctx, kern_array_download_async(z, s, 0, back, N * sizeof(float)));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  check_all(back, N, 0.0f, __LINE__);
  /* Out-of-range partial copies are refused. */
  ASSERT_EQ(kern_array_upload_async(z, s, 4 * N - 4, pageable, 8),
            KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "outside the array");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_array_copy_async(z, 0, x, 1, 4 * N, s),
            KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  kern_host_free(ctx, pinned);
  kern_host_free(ctx, pback);
  free(pageable);
  free(back);
  kern_array_free(x);
  kern_array_free(y);
  kern_array_free(z);
  ASSERT_OK(ctx, kern_stream_free(s));
}

/* A captured graph replayed equals the same launches one by one, and an
 * argument updated between replays takes effect. */
static void test_graph(void) {
  kern_stream *s;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &s));
  kern_array *x = new_array(N), *y = new_array(N), *x2 = new_array(N);
  static float host[N], out[N], ref[N];
  for (int i = 0; i < N; i++) host[i] = (float)(i % 97);
  int64_t n = N;
  kern_arg a1[] = {kern_arg_array(x), kern_arg_float(1.5)};
  kern_arg a2[] = {kern_arg_array(x), kern_arg_array(y), kern_arg_float(3)};
  kern_arg a3[] = {kern_arg_array(y), kern_arg_float(-2)};
  /* Reference: upload, add, scale, add, download, one by one. */
  ASSERT_OK(ctx, kern_array_upload(x, host, sizeof host));
  for (int r = 0; r < 3; r++) {
    ASSERT_OK(ctx, kern_launch(k_add, 1, &n, 2, a1));
    ASSERT_OK(ctx, kern_launch(k_scale, 1, &n, 3, a2));
    ASSERT_OK(ctx, kern_launch(k_add, 1, &n, 2, a3));
  }
  ASSERT_OK(ctx, kern_array_download(y, ref, sizeof ref));

  kern_graph *g;
  ASSERT_OK(ctx, kern_graph_begin_capture(s));
  ASSERT_OK(ctx, kern_launch_async(k_add, s, 1, &n, 2, a1));
  ASSERT_OK(ctx, kern_launch_async(k_scale, s, 1, &n, 3, a2));
  ASSERT_OK(ctx, kern_launch_async(k_add, s, 1, &n, 2, a3));
  /* Synchronize inside a capture is refused; the capture goes on. */
  ASSERT_EQ(kern_stream_synchronize(s), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  ASSERT_OK(ctx, kern_graph_end_capture(s, &g));
  ASSERT_EQ(kern_graph_launch_count(g), 3);
  ASSERT_OK(ctx, kern_array_upload(x, host, sizeof host));
  for (int r = 0; r < 3; r++) ASSERT_OK(ctx, kern_graph_replay(g, s));
  ASSERT_OK(ctx, kern_array_download_async(y, s, 0, out, sizeof out));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  for (int i = 0; i < N; i++) ASSERT(out[i] == ref[i]);

  /* Update: the scale launch reads x2 and multiplies by 5. */
  for (int i = 0; i < N; i++) host[i] = (float)i;
  ASSERT_OK(ctx, kern_array_upload(x2, host, sizeof host));
  ASSERT_OK(ctx, kern_graph_set_arg(g, 1, 0, kern_arg_array(x2)));
  ASSERT_OK(ctx, kern_graph_set_arg(g, 1, 2, kern_arg_float(5)));
  ASSERT_OK(ctx, kern_graph_replay(g, s));
  ASSERT_OK(ctx, kern_array_download_async(y, s, 0, out, sizeof out));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  /* x2 is also bumped by nothing (launch 0 still adds to x), so y = 5 i - 2. */
  for (int i = 0; i < N; i++) ASSERT(out[i] == 5.0f * i - 2.0f);
  /* A bad update is refused with kern_launch's message. */
  ASSERT_EQ(kern_graph_set_arg(g, 1, 2, kern_arg_array(x)),
            KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "argument 3 'a' expects float32");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_graph_set_arg(g, 3, 0, kern_arg_array(x)),
            KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  kern_graph_free(g);
  kern_array_free(x);
  kern_array_free(x2);
  kern_array_free(y);
  ASSERT_OK(ctx, kern_stream_free(s));
}

/* The schedule of Note [pipeline schedule], read back from the timeline
 * the run reports: each chunk's stages in order; each stage's chunks one
 * after another (one stream per stage); a buffer set reused only after its
 * previous chunk was downloaded.  Then the stage sums agree with the
 * report, and kern's own choice keeps a fixed buffer count and predicts. */
static void test_pipeline_timeline(const float *in, float *out,
                                   const float *ref, int64_t m) {
  enum { U0, U1, K0, K1, D0, D1 };
  kern_kernel *chain[] = {k_scale, k_scale};
  kern_arg e1[] = {kern_arg_float(2)}, e2[] = {kern_arg_float(3)};
  const kern_arg *extra[] = {e1, e2};
  int nextra[] = {1, 1};
  static double tl[64 * 6];
  for (int b = 1; b <= 4; b++) {
    kern_pipeline_config cfg = KERN_PIPELINE_CONFIG_INIT;
    cfg.kernels = chain;
    cfg.nkernels = 2;
    cfg.extra_args = extra;
    cfg.nextra = nextra;
    cfg.input = in;
    cfg.output = out;
    cfg.count = m;
    cfg.chunk = m / 23; /* 24 chunks, the last one short */
    cfg.buffers = b;
    cfg.timeline = tl;
    cfg.timeline_chunks = 64;
    memset(out, 0, (size_t)m * sizeof(float));
    kern_pipeline_report rep = KERN_PIPELINE_REPORT_INIT;
    ASSERT_OK(ctx, kern_pipeline_run(ctx, &cfg, &rep));
    for (int64_t i = 0; i < m; i++) ASSERT(out[i] == ref[i]);
    ASSERT_EQ(rep.chunks, 24);
    ASSERT_EQ(rep.timeline_chunks, 24);
    double sum[3] = {0, 0, 0};
    for (int64_t i = 0; i < rep.chunks; i++) {
      const double *t = tl + i * 6;
      for (int e = U0; e < D1; e++) ASSERT(t[e] <= t[e + 1]);
      for (int s = 0; s < 3; s++) sum[s] += t[2 * s + 1] - t[2 * s];
      if (i > 0)
        for (int s = 0; s < 3; s++) ASSERT(t[2 * s] >= t[2 * s + 1 - 6]);
      if (i >= b) ASSERT(t[U0] >= tl[(i - b) * 6 + D1]);
    }
    ASSERT(fabs(sum[0] - rep.upload_ms) < 1e-6 * (1 + sum[0]));
    ASSERT(fabs(sum[1] - rep.compute_ms) < 1e-6 * (1 + sum[1]));
    ASSERT(fabs(sum[2] - rep.download_ms) < 1e-6 * (1 + sum[2]));
    ASSERT(rep.device_ms > 0 && rep.device_ms <= rep.wall_ms + 1e-3);
    ASSERT(fabs(rep.device_ms - (tl[23 * 6 + D1] - tl[U0])) < 1e-6);
  }
  /* kern chooses the chunk for a fixed buffer count, from its model. */
  kern_pipeline_config cfg = KERN_PIPELINE_CONFIG_INIT;
  cfg.kernels = chain;
  cfg.nkernels = 2;
  cfg.extra_args = extra;
  cfg.nextra = nextra;
  cfg.input = in;
  cfg.output = out;
  cfg.count = m;
  cfg.buffers = 2;
  kern_pipeline_report rep = KERN_PIPELINE_REPORT_INIT;
  ASSERT_OK(ctx, kern_pipeline_run(ctx, &cfg, &rep));
  ASSERT_EQ(rep.buffers, 2);
  ASSERT_EQ(rep.chosen, 2); /* test_pipeline measured this chain already */
  ASSERT(rep.predicted_ms > 0);
  ASSERT(rep.upload_gbs > 0 && rep.compute_gbs > 0 && rep.download_gbs > 0);
  for (int64_t i = 0; i < m; i++) ASSERT(out[i] == ref[i]);
  /* A timeline length without a timeline is refused. */
  cfg.timeline_chunks = 4;
  ASSERT_EQ(kern_pipeline_run(ctx, &cfg, &rep), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "timeline");
  kern_clear_error(ctx);
}

/* Note [pipeline model] on figures like an H100's (55 GB/s each way with
 * 10 us per copy, 2.5 TB/s compute with 5 us per launch, 15 us of stream
 * hand-offs per chunk): for 8 GiB of float32 it picks large chunks and at
 * least double buffering, predicting close to the copy-bound time; it
 * does not fall for the small chunks that win on a short prefix; it keeps a
 * fixed buffer count and the memory budget; and when compute is as slow as
 * the copies it takes three sets, which overlap all three stages. */
static void test_pipeline_model(void) {
  kern__tune t;
  memset(&t, 0, sizeof t);
  t.a[0] = t.a[2] = 0.010;
  t.b[0] = t.b[2] = 4.0 / 55e6; /* ms per float32 at 55 GB/s */
  t.a[1] = 0.005;
  t.b[1] = 8.0 / 2.5e9;
  t.hand = 0.015;
  t.issue = 0.030;
  int64_t count = (int64_t)1 << 31; /* 8 GiB of float32 */
  uint64_t budget = (uint64_t)20 << 30;
  int64_t chunk = 0;
  int sets = 0;
  double pred = 0;
  kern__pipeline_choose(&t, count, 8, budget, 4, &chunk, &sets, &pred);
  double copy_bound = (double)count * 4 / 55e6;
  ASSERT(chunk >= (16 << 20) && chunk <= (64 << 20)); /* 64 to 256 MiB */
  ASSERT_EQ(sets, 3);
  ASSERT(pred > copy_bound && pred < 1.05 * copy_bound);
  /* 4 MiB chunks (the first version's choice) predict worse. */
  ASSERT(kern__pipeline_predict(&t, count, 1 << 20, 3) > 1.02 * pred);
  /* On a prefix of twelve 4 MiB chunks, smaller chunks do win: the fill
   * dominates there, which is why racing on a prefix misled. */
  int64_t pchunk = 0;
  int psets = 0;
  double ppred;
  kern__pipeline_choose(&t, 12 << 20, 8, budget, 4, &pchunk, &psets, &ppred);
  ASSERT(pchunk < chunk);
  /* One set takes turns: about twice the time of two. */
  ASSERT(kern__pipeline_predict(&t, count, chunk, 1) >
         1.9 * kern__pipeline_predict(&t, count, chunk, 2));
  /* A fixed buffer count is kept; the budget bounds sets x chunk. */
  chunk = 0;
  sets = 2;
  kern__pipeline_choose(&t, count, 8, budget, 4, &chunk, &sets, &pred);
  ASSERT_EQ(sets, 2);
  chunk = 0;
  sets = 0;
  kern__pipeline_choose(&t, count, 8, 64 << 20, 4, &chunk, &sets, &pred);
  ASSERT((uint64_t)chunk * (uint64_t)sets * 8 <= (64u << 20));
  /* Compute as slow as the copies: three stages, three sets. */
  t.b[1] = t.b[0];
  chunk = 0;
  sets = 0;
  kern__pipeline_choose(&t, count, 8, budget, 4, &chunk, &sets, &pred);
  ASSERT(sets >= 3);
  ASSERT(kern__pipeline_predict(&t, count, chunk, 2) >
         1.3 * kern__pipeline_predict(&t, count, chunk, 3));
}

/* A pipeline's output equals one big launch of the same chain, for chunk
 * counts that divide the input and that do not, for 1, 2 and 3 buffers,
 * and when kern chooses the chunk and buffer count itself. */
static void test_pipeline(void) {
  enum { M = 100000 };
  float *in = malloc(M * sizeof(float)), *out = malloc(M * sizeof(float));
  float *ref = malloc(M * sizeof(float));
  ASSERT(in && out && ref);
  for (int i = 0; i < M; i++) in[i] = (float)((i * 37) % 1001) * 0.25f;
  /* Reference: the chain y = 3 * (2 * x) as two whole-array launches. */
  int64_t n = M;
  kern_array *x = new_array(M), *t = new_array(M), *y = new_array(M);
  ASSERT_OK(ctx, kern_array_upload(x, in, M * sizeof(float)));
  kern_arg r1[] = {kern_arg_array(x), kern_arg_array(t), kern_arg_float(2)};
  kern_arg r2[] = {kern_arg_array(t), kern_arg_array(y), kern_arg_float(3)};
  ASSERT_OK(ctx, kern_launch(k_scale, 1, &n, 3, r1));
  ASSERT_OK(ctx, kern_launch(k_scale, 1, &n, 3, r2));
  ASSERT_OK(ctx, kern_array_download(y, ref, M * sizeof(float)));
  kern_array_free(x);
  kern_array_free(t);
  kern_array_free(y);

  kern_kernel *chain[] = {k_scale, k_scale};
  kern_arg e1[] = {kern_arg_float(2)}, e2[] = {kern_arg_float(3)};
  const kern_arg *extra[] = {e1, e2};
  int nextra[] = {1, 1};
  const int64_t chunks[] = {25000, 30001, 100000, 7, 0};
  for (size_t ci = 0; ci < sizeof chunks / sizeof *chunks; ci++)
    for (int b = 0; b <= 3; b++) {
      if ((chunks[ci] == 0) != (b == 0)) continue;
      kern_pipeline_config cfg = KERN_PIPELINE_CONFIG_INIT;
      cfg.kernels = chain;
      cfg.nkernels = 2;
      cfg.extra_args = extra;
      cfg.nextra = nextra;
      cfg.input = in;
      cfg.output = out;
      cfg.count = chunks[ci] == 7 ? 20 : M; /* tiny chunks on a short input */
      cfg.chunk = chunks[ci];
      cfg.buffers = b;
      memset(out, 0, M * sizeof(float));
      kern_pipeline_report rep = KERN_PIPELINE_REPORT_INIT;
      ASSERT_OK(ctx, kern_pipeline_run(ctx, &cfg, &rep));
      for (int64_t i = 0; i < cfg.count; i++)
        if (out[i] != ref[i]) {
          fprintf(stderr, "pipeline chunk %lld buffers %d: out[%lld] = %g, "
                  "want %g\n", (long long)chunks[ci], b, (long long)i,
                  out[i], ref[i]);
          kern_test_failed(1);
        }
      int64_t ch = rep.chunk;
      ASSERT(ch > 0);
      ASSERT_EQ(rep.chunks, (cfg.count + ch - 1) / ch);
      if (b) ASSERT_EQ(rep.buffers, b);
      ASSERT(rep.wall_ms > 0 && rep.overlap > 0);
      ASSERT_EQ(rep.chosen, b == 0 ? 1 : 0);
    }
  /* The choice is remembered. */
  kern_pipeline_config cfg = KERN_PIPELINE_CONFIG_INIT;
  cfg.kernels = chain;
  cfg.nkernels = 2;
  cfg.extra_args = extra;
  cfg.nextra = nextra;
  cfg.input = in;
  cfg.output = out;
  cfg.count = M;
  kern_pipeline_report rep = KERN_PIPELINE_REPORT_INIT;
  ASSERT_OK(ctx, kern_pipeline_run(ctx, &cfg, &rep));
  ASSERT_EQ(rep.chosen, 2);
  for (int i = 0; i < M; i++) ASSERT(out[i] == ref[i]);
  /* struct_size below the first version's is refused (COMMON.md). */
  cfg.struct_size = 8;
  ASSERT_EQ(kern_pipeline_run(ctx, &cfg, &rep), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "struct_size");
  kern_clear_error(ctx);
  cfg.struct_size = sizeof cfg;
  /* A chain whose kernel has no (array, array) head is refused. */
  kern_kernel *bad[] = {k_add};
  cfg.kernels = bad;
  cfg.nkernels = 1;
  cfg.extra_args = NULL;
  cfg.nextra = NULL;
  ASSERT_EQ(kern_pipeline_run(ctx, &cfg, &rep), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "must be a 1-D array");
  kern_clear_error(ctx);
  test_pipeline_timeline(in, out, ref, M);
  free(in);
  free(out);
  free(ref);
}

/* A native stream handle wraps back into a usable kern stream (CUDA,
 * OpenCL); the CPU has no native streams to wrap. */
static void test_wrap_stream(void) {
  kern_stream *s, *w;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &s));
  void *native = kern_stream_native(s);
  if (!native) {
    int dummy;
    ASSERT_EQ(kern_stream_wrap(ctx, dev, &dummy, &w), KERN_ERROR_UNSUPPORTED);
    kern_clear_error(ctx);
    ASSERT_OK(ctx, kern_stream_free(s));
    return;
  }
  ASSERT_OK(ctx, kern_stream_wrap(ctx, dev, native, &w));
  ASSERT(kern_stream_native(w) == native);
  kern_array *x = new_array(N);
  static float out[N];
  float two = 2;
  ASSERT_OK(ctx, kern_array_fill_async(x, w, &two));
  int64_t n = N;
  kern_arg ad[] = {kern_arg_array(x), kern_arg_float(1)};
  ASSERT_OK(ctx, kern_launch_async(k_add, w, 1, &n, 2, ad));
  ASSERT_OK(ctx, kern_array_download_async(x, s, 0, out, sizeof out)); /* same queue */
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  check_all(out, N, 3.0f, __LINE__);
  ASSERT_OK(ctx, kern_stream_free(w)); /* kern's handle only */
  ASSERT_OK(ctx, kern_array_fill_async(x, s, &two)); /* s still works */
  ASSERT_OK(ctx, kern_stream_free(s));
  kern_array_free(x);
}

/* Misuse returns statuses; nothing crashes. */
static void test_misuse(void) {
  kern_stream *s, *def;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &s));
  kern_array *x = new_array(N);
  static float out[N];
  /* Freeing a stream with work in flight waits for the work. */
  int64_t n = N;
  kern_arg sa[] = {kern_arg_array(x), kern_arg_float(9), kern_arg_int(SLOW)};
  ASSERT_OK(ctx, kern_launch_async(k_slow, s, 1, &n, 3, sa));
  ASSERT_OK(ctx, kern_array_download_async(x, s, 0, out, sizeof out));
  ASSERT_OK(ctx, kern_stream_free(s));
  check_all(out, N, 9.0f, __LINE__);
  /* The default stream cannot be freed. */
  ASSERT_OK(ctx, kern_stream_default(ctx, dev, &def));
  ASSERT_EQ(kern_stream_free(def), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "default stream");
  kern_clear_error(ctx);
  /* An event of another context. */
  kern_context *other;
  ASSERT_OK(ctx, kern_context_new(NULL, &other));
  kern_event *foreign;
  ASSERT_OK(other, kern_event_new(other, &foreign));
  ASSERT_EQ(kern_stream_wait_event(def, foreign), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "another context");
  kern_clear_error(ctx);
  kern_stream *os;
  ASSERT_OK(other, kern_stream_new(other, 0, &os));
  ASSERT_EQ(kern_event_record(foreign, def), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(other);
  kern_arg ad[] = {kern_arg_array(x), kern_arg_float(1)};
  ASSERT_EQ(kern_launch_async(k_add, os, 1, &n, 2, ad),
            KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "another context");
  kern_clear_error(ctx);
  kern_context_free(other); /* frees its stream and event too */
  /* A stream on another device than the kernel's. */
  if (dev != 0) {
    kern_stream *cpu;
    ASSERT_OK(ctx, kern_stream_new(ctx, 0, &cpu));
    ASSERT_EQ(kern_launch_async(k_add, cpu, 1, &n, 2, ad),
              KERN_ERROR_INVALID_ARGUMENT);
    kern_clear_error(ctx);
    ASSERT_OK(ctx, kern_stream_free(cpu));
  }
  /* Use after free of a stream; double end capture; elapsed of an event
   * never recorded. */
  kern_stream *dead;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &dead));
  ASSERT_OK(ctx, kern_stream_free(dead));
  kern_graph *g;
  ASSERT_EQ(kern_graph_end_capture(def, &g), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  kern_event *e1, *e2;
  ASSERT_OK(ctx, kern_event_new(ctx, &e1));
  ASSERT_OK(ctx, kern_event_new(ctx, &e2));
  double ms;
  ASSERT_EQ(kern_event_elapsed(e1, e2, &ms), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  ASSERT_OK(ctx, kern_event_synchronize(e1)); /* never recorded: complete */
  kern_event_free(e1);
  kern_event_free(e2);
  kern_host_free(ctx, out); /* not from kern_host_alloc: an error, no crash */
  ASSERT_CONTAINS(kern_last_error(ctx), "did not come from kern_host_alloc");
  kern_clear_error(ctx);
  /* Work left queued when the context is freed is finished first. */
  kern_stream *left;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &left));
  ASSERT_OK(ctx, kern_launch_async(k_slow, left, 1, &n, 3, sa));
  kern_array_free(x); /* waits for the queued launch that uses x */
}

int main(int argc, char **argv) {
  test_setup();
  const char *devname = argc > 1 ? argv[1] : "cpu";
  ASSERT_OK(ctx, kern_context_new(NULL, &ctx));
  if (kern_device_find(ctx, devname, &dev) != KERN_SUCCESS) {
    printf("skipped: %s\n", kern_last_error(ctx));
    kern_context_free(ctx);
    return 77;
  }
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "stream_test.py", src,
                                         sizeof src - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "scale", &k_scale));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "add", &k_add));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "slow_fill", &k_slow));
  test_event_ordering();
  test_default_stream();
  test_copies();
  test_graph();
  test_pipeline();
  test_pipeline_model();
  test_wrap_stream();
  test_misuse();
  kern_context_free(ctx);
  printf("ok\n");
  return 0;
}
