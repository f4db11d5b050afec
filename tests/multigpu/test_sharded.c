/*
 * Sharded arrays, sharded launches and collectives (issue #15), checked
 * against the same computation on one shard and on the host.
 *
 *   test_sharded cpu|opencl        shard counts 1 to 5 on one process, over
 *                                  sizes that do and do not divide
 *   test_sharded cpu mpi           under mpirun -n 2: the same checks with
 *                                  one shard per rank, then misuse
 *                                  (mismatched shapes, a failed rank)
 *   test_sharded cpu mpi-timeout   under mpirun -n 2: rank 1 skips a
 *                                  collective; rank 0 must time out
 *
 * The asynchronous forms (kern_group_launch_async, kern_sharded_*_async)
 * run the same computations as chains with no wait between the steps, so
 * each step must see the one before it on every shard's stream; their
 * results must equal the synchronous forms' and the host's.
 *
 * Values are small integers in float64, so sums are exact in any order and
 * every comparison is exact.  Exit 77 when the device is missing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kern.h"
#include "kern_test.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def sumsq(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):\n"
    "    i = wp.tid()\n"
    "    wp.atomic_add(out, 0, x[i] * x[i])\n"
    "\n"
    "@wp.kernel\n"
    "def iota(y: wp.array(dtype=wp.float64), base: wp.float64):\n"
    "    i = wp.tid()\n"
    "    y[i] = base + wp.float64(i)\n"
    "\n"
    "@wp.kernel\n"
    "def stencil(a: wp.array2d(dtype=wp.float64), b: wp.array2d(dtype=wp.float64)):\n"
    "    i, j = wp.tid()\n"
    "    n = a.shape[0]\n"
    "    m = a.shape[1]\n"
    "    s = a[i, j] * wp.float64(4.0)\n"
    "    if i > 0:\n"
    "        s = s + a[i - 1, j]\n"
    "    if i < n - 1:\n"
    "        s = s + a[i + 1, j]\n"
    "    if j > 0:\n"
    "        s = s + a[i, j - 1]\n"
    "    if j < m - 1:\n"
    "        s = s + a[i, j + 1]\n"
    "    b[i, j] = wp.floor(s * wp.float64(0.125))\n"
    "\n"
    "@wp.kernel\n"
    "def axpy(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=wp.vec3), a: wp.float32):\n"
    "    i = wp.tid()\n"
    "    y[i] = y[i] + a * x[i]\n"
    "\n"
    "@wp.kernel\n"
    "def scale(y: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):\n"
    "    i = wp.tid()\n"
    "    y[i] = y[i] * out[0]\n";

static const char *device;
static int mpi;
static kern_context *ctx;

static kern_group *group(int shards) {
  kern_group_options o = KERN_GROUP_OPTIONS_INIT;
  char spec[32];
  /* NCCL wants a different GPU per shard: "cuda:all" cut to `shards`
   * entries (and one per rank under MPI); elsewhere the same device
   * listed `shards` times. */
  snprintf(spec, sizeof spec, "%s:%s", device,
           strcmp(device, "cuda") == 0 ? "all" : "0");
  o.devices = spec;
  o.shards = mpi ? 0 : shards;
  o.mpi = mpi ? 1 : -1;
  o.timeout_s = 60;
  kern_group *g;
  ASSERT_OK(ctx, kern_group_new(ctx, &o, &g));
  ASSERT_OK(ctx, kern_group_load_string(g, "sharded.py", src, sizeof src - 1));
  return g;
}

/* The sum of squares over a block-sharded x, one partial per shard in a
 * replicated out, combined by one all-reduce. */
static void test_sumsq(kern_group *g, int64_t n) {
  double *x = malloc((size_t)(n ? n : 1) * sizeof *x), want = 0;
  for (int64_t i = 0; i < n; i++) {
    x[i] = (double)(i % 17) - 8;
    want += x[i] * x[i];
  }
  kern_sharded *sx, *out;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &sx));
  int64_t one = 1;
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &out));
  ASSERT_OK(ctx, kern_sharded_upload(sx, x, (size_t)n * sizeof *x));
  double zero = 0;
  ASSERT_OK(ctx, kern_sharded_fill(out, &zero));
  kern_arg args[] = {kern_arg_sharded(sx), kern_arg_sharded(out)};
  ASSERT_OK(ctx, kern_group_launch(g, "sumsq", 1, &n, 2, args));
  ASSERT_OK(ctx, kern_sharded_all_reduce(out, KERN_REDUCE_SUM));
  /* every shard's copy holds the total */
  for (int i = 0; i < kern_group_local_size(g); i++) {
    kern_array *a;
    double got = -1;
    ASSERT_OK(ctx, kern_sharded_shard(out, i, &a, NULL, NULL, NULL));
    ASSERT_OK(ctx, kern_array_download(a, &got, sizeof got));
    EXPECT_DBL_EQ(got, want);
  }
  /* the partition covers every row once, in order */
  int64_t next = 0;
  for (int i = 0; i < kern_group_local_size(g); i++) {
    int64_t first, rows;
    ASSERT_OK(ctx, kern_sharded_shard(sx, i, NULL, &first, &rows, NULL));
    if (!mpi) EXPECT_EQ(first, next);
    next = first + rows;
    EXPECT_TRUE(rows == n / kern_group_size(g) ||
                rows == n / kern_group_size(g) + 1);
  }
  /* gather gives the array back */
  double *back = calloc((size_t)(n ? n : 1), sizeof *back);
  ASSERT_OK(ctx, kern_sharded_download(sx, back, (size_t)n * sizeof *back));
  EXPECT_TRUE(memcmp(back, x, (size_t)n * sizeof *x) == 0);
  kern_sharded_free(sx);
  kern_sharded_free(out);
  free(x);
  free(back);
}

/* wp.tid() is the global index on every shard. */
static void test_global_tid(kern_group *g, int64_t n) {
  kern_sharded *y;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &y));
  kern_arg args[] = {kern_arg_sharded(y), kern_arg_float(1000)};
  ASSERT_OK(ctx, kern_group_launch(g, "iota", 1, &n, 2, args));
  double *v = calloc((size_t)(n ? n : 1), sizeof *v);
  ASSERT_OK(ctx, kern_sharded_download(y, v, (size_t)n * sizeof *v));
  int bad = 0;
  for (int64_t i = 0; i < n; i++) bad += v[i] != 1000 + (double)i;
  EXPECT_EQ(bad, 0);
  free(v);
  kern_sharded_free(y);
}

/* A 2-D 5-point stencil over `iters` steps with halo exchange equals the
 * same steps on the host. */
static void test_stencil(kern_group *g, int64_t n, int64_t m, int iters,
                         int async) {
  int64_t shape[2] = {n, m};
  size_t cells = (size_t)(n * m);
  double *h = malloc(cells * sizeof *h), *t = malloc(cells * sizeof *t);
  for (size_t c = 0; c < cells; c++) h[c] = (double)((c * 7919) % 1000);
  kern_sharded *a, *b;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 2, shape, 1, &a));
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 2, shape, 1, &b));
  ASSERT_OK(ctx, kern_sharded_upload(a, h, cells * sizeof *h));
  for (int it = 0; it < iters; it++) {
    kern_arg args[] = {kern_arg_sharded(a), kern_arg_sharded(b)};
    if (async) {
      ASSERT_OK(ctx, kern_group_launch_async(g, "stencil", 2, shape, 2, args));
      ASSERT_OK(ctx, kern_sharded_halo_exchange_async(b));
    } else {
      ASSERT_OK(ctx, kern_group_launch(g, "stencil", 2, shape, 2, args));
      ASSERT_OK(ctx, kern_sharded_halo_exchange(b));
    }
    kern_sharded *s = a;
    a = b;
    b = s;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < m; j++) {
        double s4 = h[i * m + j] * 4.0;
        if (i > 0) s4 += h[(i - 1) * m + j];
        if (i < n - 1) s4 += h[(i + 1) * m + j];
        if (j > 0) s4 += h[i * m + j - 1];
        if (j < m - 1) s4 += h[i * m + j + 1];
        t[i * m + j] = floor(s4 * 0.125);
      }
    memcpy(h, t, cells * sizeof *h);
  }
  if (async) ASSERT_OK(ctx, kern_group_synchronize(g));
  ASSERT_OK(ctx, kern_sharded_download(a, t, cells * sizeof *t));
  EXPECT_TRUE(memcmp(h, t, cells * sizeof *t) == 0);
  kern_sharded_free(a);
  kern_sharded_free(b);
  free(h);
  free(t);
}

/* all-gather, reduce-scatter, broadcast, min and max, on vectors too. */
static void test_collectives(kern_group *g, int64_t n) {
  int P = kern_group_size(g), L = kern_group_local_size(g);
  int first = kern_group_first_shard(g);
  kern_sharded *blk, *rep;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &blk));
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &n, &rep));
  double *v = malloc((size_t)n * sizeof *v), *w = malloc((size_t)n * sizeof *w);
  /* all-gather: every copy gets the block array */
  for (int64_t i = 0; i < n; i++) v[i] = (double)(3 * i + 1);
  ASSERT_OK(ctx, kern_sharded_upload(blk, v, (size_t)n * sizeof *v));
  ASSERT_OK(ctx, kern_sharded_all_gather(blk, rep));
  for (int i = 0; i < L; i++) {
    kern_array *a;
    ASSERT_OK(ctx, kern_sharded_shard(rep, i, &a, NULL, NULL, NULL));
    ASSERT_OK(ctx, kern_array_download(a, w, (size_t)n * sizeof *w));
    EXPECT_TRUE(memcmp(v, w, (size_t)n * sizeof *w) == 0);
  }
  /* reduce-scatter: shard s's copy holds (s + 1) * v; the sum is
   * P (P + 1) / 2 * v, scattered by rows */
  for (int i = 0; i < L; i++) {
    kern_array *a;
    ASSERT_OK(ctx, kern_sharded_shard(rep, i, &a, NULL, NULL, NULL));
    for (int64_t j = 0; j < n; j++) w[j] = v[j] * (first + i + 1);
    ASSERT_OK(ctx, kern_array_upload(a, w, (size_t)n * sizeof *w));
  }
  ASSERT_OK(ctx, kern_sharded_reduce_scatter(rep, blk, KERN_REDUCE_SUM));
  ASSERT_OK(ctx, kern_sharded_download(blk, w, (size_t)n * sizeof *w));
  int bad = 0;
  for (int64_t j = 0; j < n; j++) bad += w[j] != v[j] * P * (P + 1) / 2;
  EXPECT_EQ(bad, 0);
  /* min and max all-reduce: shard s holds s - j */
  for (int op = KERN_REDUCE_MIN; op <= KERN_REDUCE_MAX; op++) {
    for (int i = 0; i < L; i++) {
      kern_array *a;
      ASSERT_OK(ctx, kern_sharded_shard(rep, i, &a, NULL, NULL, NULL));
      for (int64_t j = 0; j < n; j++) w[j] = (double)(first + i) - (double)j;
      ASSERT_OK(ctx, kern_array_upload(a, w, (size_t)n * sizeof *w));
    }
    ASSERT_OK(ctx, kern_sharded_all_reduce(rep, (kern_reduce_op)op));
    ASSERT_OK(ctx, kern_sharded_download(rep, w, (size_t)n * sizeof *w));
    bad = 0;
    for (int64_t j = 0; j < n; j++)
      bad += w[j] != (op == KERN_REDUCE_MIN ? 0.0 : (double)(P - 1)) - (double)j;
    EXPECT_EQ(bad, 0);
  }
  /* broadcast from the last shard */
  for (int i = 0; i < L; i++) {
    kern_array *a;
    ASSERT_OK(ctx, kern_sharded_shard(rep, i, &a, NULL, NULL, NULL));
    for (int64_t j = 0; j < n; j++) w[j] = (double)(100 * (first + i)) + (double)j;
    ASSERT_OK(ctx, kern_array_upload(a, w, (size_t)n * sizeof *w));
  }
  ASSERT_OK(ctx, kern_sharded_broadcast(rep, P - 1));
  for (int i = 0; i < L; i++) {
    kern_array *a;
    ASSERT_OK(ctx, kern_sharded_shard(rep, i, &a, NULL, NULL, NULL));
    ASSERT_OK(ctx, kern_array_download(a, w, (size_t)n * sizeof *w));
    bad = 0;
    for (int64_t j = 0; j < n; j++) bad += w[j] != (double)(100 * (P - 1)) + (double)j;
    EXPECT_EQ(bad, 0);
  }
  kern_sharded_free(blk);
  kern_sharded_free(rep);
  /* vec3 arrays, a float32 value argument, a halo of 2 on 1-D */
  kern_sharded *x, *y;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_VEC3, 1, &n, 2, &x));
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_VEC3, 1, &n, 0, &y));
  float *fx = malloc((size_t)n * 3 * sizeof *fx), *fy = malloc((size_t)n * 3 * sizeof *fy);
  for (int64_t j = 0; j < 3 * n; j++) {
    fx[j] = (float)(j % 5);
    fy[j] = 1;
  }
  ASSERT_OK(ctx, kern_sharded_upload(x, fx, (size_t)n * 12));
  ASSERT_OK(ctx, kern_sharded_upload(y, fy, (size_t)n * 12));
  kern_arg args[] = {kern_arg_sharded(x), kern_arg_sharded(y), kern_arg_float(2)};
  ASSERT_OK(ctx, kern_group_launch(g, "axpy", 1, &n, 3, args));
  ASSERT_OK(ctx, kern_sharded_download(y, fy, (size_t)n * 12));
  bad = 0;
  for (int64_t j = 0; j < 3 * n; j++) bad += fy[j] != 1 + 2 * fx[j];
  EXPECT_EQ(bad, 0);
  kern_sharded_free(x);
  kern_sharded_free(y);
  free(fx);
  free(fy);
  free(v);
  free(w);
}

/* The sum of squares as one chain of asynchronous calls, each step
 * consuming the one before on every shard's stream: x uploaded; out set to
 * 0; x squared and summed into out; out all-reduced (S); x scaled by out[0]
 * (so every shard must see the reduced S, not its partial); out set to 0
 * again; x squared and summed and all-reduced again (S^3).  Then the same
 * with the synchronous forms; both equal the host's.  Values are small
 * integers, so every sum is exact in any order.  Also: a fill enqueued
 * after a launch overwrites it, and a launch after a fill sees it. */
static void test_async_chain(kern_group *g, int64_t n) {
  double *x = malloc((size_t)n * sizeof *x), *back = malloc((size_t)n * sizeof *back);
  double s = 0, zero = 0, seven = 7;
  for (int64_t i = 0; i < n; i++) {
    x[i] = (double)(i % 17) - 8;
    s += x[i] * x[i];
  }
  double want[2] = {s, s * s * s};
  int64_t one = 1;
  kern_sharded *sx, *out;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &sx));
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &out));
  kern_arg sa[] = {kern_arg_sharded(sx), kern_arg_sharded(out)};
  for (int async = 1; async >= 0; async--) {
    double got[2] = {-1, -1};
    ASSERT_OK(ctx, kern_sharded_upload(sx, x, (size_t)n * sizeof *x));
    for (int round = 0; round < 2; round++) {
      if (async) {
        if (round) ASSERT_OK(ctx, kern_group_launch_async(g, "scale", 1, &n, 2, sa));
        ASSERT_OK(ctx, kern_sharded_fill_async(out, &zero));
        ASSERT_OK(ctx, kern_group_launch_async(g, "sumsq", 1, &n, 2, sa));
        ASSERT_OK(ctx, kern_sharded_all_reduce_async(out, KERN_REDUCE_SUM));
      } else {
        if (round) ASSERT_OK(ctx, kern_group_launch(g, "scale", 1, &n, 2, sa));
        ASSERT_OK(ctx, kern_sharded_fill(out, &zero));
        ASSERT_OK(ctx, kern_group_launch(g, "sumsq", 1, &n, 2, sa));
        ASSERT_OK(ctx, kern_sharded_all_reduce(out, KERN_REDUCE_SUM));
      }
      if (round == 0 && !async)
        ASSERT_OK(ctx, kern_sharded_download(out, &got[0], sizeof got[0]));
    }
    if (async) ASSERT_OK(ctx, kern_group_synchronize(g));
    /* every shard's copy holds the total */
    for (int i = 0; i < kern_group_local_size(g); i++) {
      kern_array *a;
      double v = -1;
      ASSERT_OK(ctx, kern_sharded_shard(out, i, &a, NULL, NULL, NULL));
      ASSERT_OK(ctx, kern_array_download(a, &v, sizeof v));
      EXPECT_DBL_EQ(v, want[1]);
      got[1] = v;
    }
    if (!async) EXPECT_DBL_EQ(got[0], want[0]);
    EXPECT_DBL_EQ(got[1], want[1]);
  }
  /* a fill after a launch on the same streams wins, and the reverse */
  kern_arg ia[] = {kern_arg_sharded(sx), kern_arg_float(1000)};
  ASSERT_OK(ctx, kern_group_launch_async(g, "iota", 1, &n, 2, ia));
  ASSERT_OK(ctx, kern_sharded_fill_async(sx, &seven));
  ASSERT_OK(ctx, kern_group_synchronize(g));
  ASSERT_OK(ctx, kern_sharded_download(sx, back, (size_t)n * sizeof *back));
  int bad = 0;
  for (int64_t i = 0; i < n; i++) bad += back[i] != 7;
  EXPECT_EQ(bad, 0);
  ASSERT_OK(ctx, kern_sharded_fill_async(sx, &seven));
  ASSERT_OK(ctx, kern_group_launch_async(g, "iota", 1, &n, 2, ia));
  ASSERT_OK(ctx, kern_group_synchronize(g));
  ASSERT_OK(ctx, kern_sharded_download(sx, back, (size_t)n * sizeof *back));
  bad = 0;
  for (int64_t i = 0; i < n; i++) bad += back[i] != 1000 + (double)i;
  EXPECT_EQ(bad, 0);
  kern_sharded_free(sx);
  kern_sharded_free(out);
  free(x);
  free(back);
}

/* The asynchronous collectives chained with no wait between them: an
 * all-gather feeding a reduce-scatter, and a broadcast feeding an
 * all-reduce. */
static void test_collectives_async(kern_group *g, int64_t n) {
  int P = kern_group_size(g), L = kern_group_local_size(g);
  int first = kern_group_first_shard(g);
  kern_sharded *blk, *blk2, *rep;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &blk));
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &blk2));
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &n, &rep));
  double *v = malloc((size_t)n * sizeof *v), *w = malloc((size_t)n * sizeof *w);
  for (int64_t i = 0; i < n; i++) v[i] = (double)(3 * i + 1);
  ASSERT_OK(ctx, kern_sharded_upload(blk, v, (size_t)n * sizeof *v));
  ASSERT_OK(ctx, kern_sharded_all_gather_async(blk, rep));
  ASSERT_OK(ctx, kern_sharded_reduce_scatter_async(rep, blk2, KERN_REDUCE_SUM));
  ASSERT_OK(ctx, kern_group_synchronize(g));
  ASSERT_OK(ctx, kern_sharded_download(blk2, w, (size_t)n * sizeof *w));
  int bad = 0;
  for (int64_t j = 0; j < n; j++) bad += w[j] != v[j] * P;
  EXPECT_EQ(bad, 0);
  /* shard s's copy holds 100 s + j; broadcast from the last, then sum */
  for (int i = 0; i < L; i++) {
    kern_array *a;
    ASSERT_OK(ctx, kern_sharded_shard(rep, i, &a, NULL, NULL, NULL));
    for (int64_t j = 0; j < n; j++) w[j] = (double)(100 * (first + i)) + (double)j;
    ASSERT_OK(ctx, kern_array_upload(a, w, (size_t)n * sizeof *w));
  }
  ASSERT_OK(ctx, kern_sharded_broadcast_async(rep, P - 1));
  ASSERT_OK(ctx, kern_sharded_all_reduce_async(rep, KERN_REDUCE_SUM));
  ASSERT_OK(ctx, kern_group_synchronize(g));
  for (int i = 0; i < L; i++) {
    kern_array *a;
    ASSERT_OK(ctx, kern_sharded_shard(rep, i, &a, NULL, NULL, NULL));
    ASSERT_OK(ctx, kern_array_download(a, w, (size_t)n * sizeof *w));
    bad = 0;
    for (int64_t j = 0; j < n; j++)
      bad += w[j] != P * ((double)(100 * (P - 1)) + (double)j);
    EXPECT_EQ(bad, 0);
  }
  kern_sharded_free(blk);
  kern_sharded_free(blk2);
  kern_sharded_free(rep);
  free(v);
  free(w);
}

/* kern_group_launch keeps the kernels it finds by name; a module loaded
 * later that has a kernel of the same name must win from then on, and the
 * older module's other kernels must still be found. */
static void test_kernel_cache(int shards) {
  static const char src2[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def iota(y: wp.array(dtype=wp.float64), base: wp.float64):\n"
      "    i = wp.tid()\n"
      "    y[i] = base - wp.float64(i)\n";
  kern_group *g = group(shards);
  int64_t n = 10;
  kern_sharded *y;
  double v[10];
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &y));
  kern_arg args[] = {kern_arg_sharded(y), kern_arg_float(100)};
  ASSERT_OK(ctx, kern_group_launch_async(g, "iota", 1, &n, 2, args));
  ASSERT_OK(ctx, kern_sharded_download(y, v, sizeof v));
  EXPECT_DBL_EQ(v[9], 109);
  ASSERT_OK(ctx, kern_group_load_string(g, "shadow.py", src2, sizeof src2 - 1));
  ASSERT_OK(ctx, kern_group_launch(g, "iota", 1, &n, 2, args));
  ASSERT_OK(ctx, kern_sharded_download(y, v, sizeof v));
  EXPECT_DBL_EQ(v[9], 91);
  kern_sharded *out;
  int64_t one = 1;
  double zero = 0, got = -1;
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &out));
  ASSERT_OK(ctx, kern_sharded_fill_async(out, &zero));
  kern_arg sa[] = {kern_arg_sharded(y), kern_arg_sharded(out)};
  ASSERT_OK(ctx, kern_group_launch_async(g, "sumsq", 1, &n, 2, sa));
  ASSERT_OK(ctx, kern_sharded_all_reduce_async(out, KERN_REDUCE_SUM));
  ASSERT_OK(ctx, kern_group_synchronize(g));
  ASSERT_OK(ctx, kern_sharded_download(out, &got, sizeof got));
  double want = 0;
  for (int i = 0; i < 10; i++) want += (100.0 - i) * (100.0 - i);
  EXPECT_DBL_EQ(got, want);
  kern_group_free(g);
}

/* Mistakes of one process: each is an error with a message, never a
 * crash, and a failed group call makes the next collective refuse. */
static void test_misuse_local(void) {
  kern_group *g = group(3);
  int64_t n = 10, one = 1, m = 11;
  kern_sharded *x, *r;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &x));
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &r));
  double buf[16] = {0};
  EXPECT_STATUS(ctx, kern_sharded_upload(x, buf, 3), KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "nbytes");
  EXPECT_STATUS(ctx, kern_sharded_all_reduce(x, KERN_REDUCE_SUM),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "replicated");
  EXPECT_STATUS(ctx, kern_sharded_all_reduce(r, (kern_reduce_op)7),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_STATUS(ctx, kern_sharded_broadcast(r, 3), KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_STATUS(ctx, kern_sharded_fill(r, NULL), KERN_ERROR_INVALID_ARGUMENT);
  /* the asynchronous forms make the same checks before enqueueing */
  EXPECT_STATUS(ctx, kern_sharded_fill_async(r, NULL),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "kern_sharded_fill_async");
  EXPECT_STATUS(ctx, kern_sharded_all_reduce_async(x, KERN_REDUCE_SUM),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "replicated");
  EXPECT_STATUS(ctx, kern_sharded_all_reduce_async(r, (kern_reduce_op)7),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_STATUS(ctx, kern_sharded_broadcast_async(r, 3),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_STATUS(ctx, kern_sharded_all_gather_async(r, x),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_STATUS(ctx, kern_sharded_reduce_scatter_async(x, r, KERN_REDUCE_SUM),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_STATUS(ctx, kern_sharded_all_reduce_async(NULL, KERN_REDUCE_SUM),
                KERN_ERROR_INVALID_HANDLE);
  EXPECT_STATUS(ctx, kern_group_launch_async(NULL, "sumsq", 1, &n, 0, NULL),
                KERN_ERROR_INVALID_HANDLE);
  EXPECT_STATUS(ctx, kern_group_launch_async(g, NULL, 1, &n, 0, NULL),
                KERN_ERROR_INVALID_ARGUMENT);
  /* a piece freed behind the sharded array's back is refused, not used */
  kern_sharded *r2;
  kern_array *piece;
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &r2));
  ASSERT_OK(ctx, kern_sharded_shard(r2, 1, &piece, NULL, NULL, NULL));
  kern_array_free(piece);
  EXPECT_STATUS(ctx, kern_sharded_all_reduce(r2, KERN_REDUCE_SUM),
                KERN_ERROR_INVALID_HANDLE);
  EXPECT_CONTAINS(kern_last_error(ctx), "local shard 1 was freed");
  kern_sharded_free(r2);
  kern_sharded *h;
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 4, &h));
  EXPECT_STATUS(ctx, kern_sharded_halo_exchange(h), KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "halo width");
  EXPECT_STATUS(ctx, kern_sharded_halo_exchange_async(h),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "halo width");
  kern_sharded_free(h);
  kern_group_free(g);

  g = group(2);
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &x));
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &r));
  kern_arg args[] = {kern_arg_sharded(x), kern_arg_sharded(r)};
  EXPECT_STATUS(ctx, kern_group_launch(g, "sumsq", 1, &m, 2, args),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "dims[0]");
  EXPECT_STATUS(ctx, kern_group_launch(g, "nope", 1, &n, 2, args),
                KERN_ERROR_NOT_FOUND);
  /* the group failed: collectives refuse from now on */
  EXPECT_STATUS(ctx, kern_sharded_all_reduce(r, KERN_REDUCE_SUM),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "failed earlier");
  EXPECT_STATUS(ctx, kern_sharded_all_reduce_async(r, KERN_REDUCE_SUM),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "failed earlier");
  kern_group_free(g);

  /* the same through the asynchronous launch: its checks fail the group */
  g = group(2);
  ASSERT_OK(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &x));
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &r));
  kern_arg aargs[] = {kern_arg_sharded(x), kern_arg_sharded(r)};
  EXPECT_STATUS(ctx, kern_group_launch_async(g, "sumsq", 1, &m, 2, aargs),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "dims[0]");
  EXPECT_STATUS(ctx, kern_group_launch_async(g, "nope", 1, &n, 2, aargs),
                KERN_ERROR_NOT_FOUND);
  EXPECT_STATUS(ctx, kern_sharded_halo_exchange_async(x),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "failed earlier");
  kern_group_free(g);
  EXPECT_STATUS(ctx, kern_sharded_all_reduce(r, KERN_REDUCE_SUM),
                KERN_ERROR_INVALID_HANDLE);
  kern_group_options o = KERN_GROUP_OPTIONS_INIT;
  o.devices = "cpu:0,,1";
  o.mpi = -1;
  EXPECT_STATUS(ctx, kern_group_new(ctx, &o, &g), KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "column 7");
  o.devices = "cpu:5";
  EXPECT_TRUE(kern_group_new(ctx, &o, &g) != KERN_SUCCESS);
}

/* Misuse across ranks: every rank gets the error, none hangs. */
static void test_misuse_mpi(void) {
  kern_group *g = group(1);
  int rank = kern_group_rank(g);
  kern_group_free(g);

  /* rank 1 names a device that does not exist: both ranks fail at once */
  kern_group_options o = KERN_GROUP_OPTIONS_INIT;
  char spec[32];
  snprintf(spec, sizeof spec, "%s:%s", device, rank == 1 ? "9" : "0");
  o.devices = strcmp(device, "cuda") == 0 && rank == 0 ? "cuda:all" : spec;
  o.mpi = 1;
  o.timeout_s = 60;
  EXPECT_TRUE(kern_group_new(ctx, &o, &g) != KERN_SUCCESS);
  if (rank == 0) EXPECT_CONTAINS(kern_last_error(ctx), "rank 1 failed earlier");
  printf("rank %d: bad device: %s\n", rank, kern_last_error(ctx));

  g = group(1);
  int64_t n = rank == 0 ? 10 : 12;
  kern_sharded *x;
  EXPECT_STATUS(ctx, kern_sharded_new(g, KERN_TYPE_FLOAT64, 1, &n, 0, &x),
                KERN_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(kern_last_error(ctx), "ranks disagree");
  printf("rank %d: mismatched shapes: %s\n", rank, kern_last_error(ctx));
  kern_group_free(g);

  /* rank 1 fails a group call; the next collective fails everywhere */
  g = group(1);
  int64_t one = 1;
  kern_sharded *r;
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &r));
  if (rank == 1) {
    kern_arg args[] = {kern_arg_sharded(r)};
    EXPECT_STATUS(ctx, kern_group_launch(g, "no_such_kernel", 1, &one, 1, args),
                  KERN_ERROR_NOT_FOUND);
  }
  kern_status st = kern_sharded_all_reduce(r, KERN_REDUCE_SUM);
  EXPECT_EQ(st, KERN_ERROR_NOT_FOUND);
  EXPECT_CONTAINS(kern_last_error(ctx), "rank 1 failed earlier");
  printf("rank %d: failed rank: %s\n", rank, kern_last_error(ctx));
  kern_group_free(g);

  /* rank 1 leaves the group while rank 0 is in a collective */
  g = group(1);
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &r));
  if (rank == 0) {
    EXPECT_STATUS(ctx, kern_sharded_all_reduce(r, KERN_REDUCE_SUM),
                  KERN_ERROR_INVALID_ARGUMENT);
    EXPECT_CONTAINS(kern_last_error(ctx), "kern_group_free");
    printf("rank %d: rank left: %s\n", rank, kern_last_error(ctx));
    kern_group_free(g);
  } else {
    kern_group_free(g);
  }
}

static void test_timeout(void) {
  kern_group_options o = KERN_GROUP_OPTIONS_INIT;
  char spec[32];
  snprintf(spec, sizeof spec, "%s:%s", device,
           strcmp(device, "cuda") == 0 ? "all" : "0");
  o.devices = spec;
  o.mpi = 1;
  o.timeout_s = 2;
  kern_group *g;
  ASSERT_OK(ctx, kern_group_new(ctx, &o, &g));
  int rank = kern_group_rank(g);
  int64_t one = 1;
  kern_sharded *r;
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, KERN_TYPE_FLOAT64, 1, &one, &r));
  if (rank == 0) {
    EXPECT_STATUS(ctx, kern_sharded_all_reduce(r, KERN_REDUCE_SUM),
                  KERN_ERROR_DEVICE);
    EXPECT_CONTAINS(kern_last_error(ctx), "timed out after 2 s");
    printf("rank 0: %s\n", kern_last_error(ctx));
    /* and the group stays refused */
    EXPECT_STATUS(ctx, kern_sharded_all_reduce(r, KERN_REDUCE_SUM),
                  KERN_ERROR_DEVICE);
  } else {
    sleep(4); /* "stuck": never enters the collective */
  }
  kern_group_free(g);
}

int main(int argc, char **argv) {
  device = argc > 1 ? argv[1] : "cpu";
  const char *mode = argc > 2 ? argv[2] : "local";
  mpi = strncmp(mode, "mpi", 3) == 0;
  kern_options opts = KERN_OPTIONS_INIT;
  opts.num_threads = 2;
  ASSERT_TRUE(kern_context_new(&opts, &ctx) == KERN_SUCCESS);
  kern_device dev;
  if (kern_device_find(ctx, device, &dev) != KERN_SUCCESS) {
    printf("skipped: no %s device: %s\n", device, kern_last_error(ctx));
    kern_context_free(ctx);
    return 77;
  }
  if (strcmp(mode, "mpi-timeout") == 0) {
    test_timeout();
    printf("done\n");
    kern_context_free(ctx);
    return kern_test_report("test_sharded mpi-timeout");
  }
  static const int64_t sizes[] = {1, 2, 10, 12, 97, 1000};
  int max_shards = mpi ? 1 : 5;
  int cuda = strcmp(device, "cuda") == 0;
  if (cuda && !mpi) {
    kern_backend_info bi = KERN_BACKEND_INFO_INIT;
    ASSERT_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_CUDA, &bi));
    max_shards = bi.device_count < 5 ? bi.device_count : 5;
  }
  for (int shards = 1; shards <= max_shards; shards++) {
    kern_group *g = group(shards);
    EXPECT_STREQ(kern_group_transport(g), cuda ? "nccl" : mpi ? "mpi" : "host");
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      test_sumsq(g, sizes[k]);
      test_global_tid(g, sizes[k]);
      test_async_chain(g, sizes[k]);
      if (sizes[k] >= 2 * kern_group_size(g)) {
        test_collectives(g, sizes[k]);
        test_collectives_async(g, sizes[k]);
      }
    }
    test_sumsq(g, 0);
    /* rows that do and do not divide, a halo of one row */
    for (int async = 0; async <= 1; async++) {
      test_stencil(g, 3 * kern_group_size(g), 5, 4, async);
      test_stencil(g, 3 * kern_group_size(g) + 2, 7, 5, async);
    }
    kern_group_free(g);
  }
  if (max_shards >= 1) test_kernel_cache(max_shards < 2 ? max_shards : 2);
  if (mpi)
    test_misuse_mpi();
  else if (!cuda) /* it needs more shards than a machine has GPUs */
    test_misuse_local();
  kern_context_free(ctx);
  return kern_test_report(mpi ? "test_sharded mpi" : "test_sharded");
}
