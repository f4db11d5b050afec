/*
 * stencil.c -- a 2-D Jacobi stencil over ITERS steps, its rows spread over
 * the group's devices with a halo of one row, against the same on one
 * device.
 *
 * Each step every device updates its own rows, reading one row of each
 * neighbour from its halo, and then the halos are refreshed from the
 * neighbours (NCCL send/receive on CUDA).  The kernel is the one-device
 * kernel unchanged.  Results must be bit-identical: each cell is computed
 * from the same values in the same order.  Both timed loops enqueue every
 * step without waiting (the group with kern_group_launch_async and
 * kern_sharded_halo_exchange_async) and wait once at the end.
 *
 *   KERN_DEVICE=cuda:all KERN_EXAMPLE_N=16384 KERN_EXAMPLE_ITERS=100 ./mg_stencil
 */
#include "mg_common.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def init(a: wp.array2d(dtype=wp.float32)):\n"
    "    i, j = wp.tid()\n"
    "    a[i, j] = wp.float32((i * 31 + j * 17) % 101)\n"
    "\n"
    "@wp.kernel\n"
    "def jacobi(a: wp.array2d(dtype=wp.float32), b: wp.array2d(dtype=wp.float32)):\n"
    "    i, j = wp.tid()\n"
    "    n = a.shape[0]\n"
    "    m = a.shape[1]\n"
    "    if i == 0 or j == 0 or i == n - 1 or j == m - 1:\n"
    "        b[i, j] = a[i, j]\n"
    "    else:\n"
    "        b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])\n";

int main(void) {
  kern_module *m = mg_setup(src);
  int64_t n = mg_env("KERN_EXAMPLE_N", 1024);
  int iters = (int)mg_env("KERN_EXAMPLE_ITERS", 50);
  int64_t shape[2] = {n, n};
  size_t bytes = (size_t)(n * n) * sizeof(float);
  float *r1 = malloc(bytes), *rp = malloc(bytes);
  if (!r1 || !rp) return 1;

  /* one device */
  kern_kernel *init, *k;
  MG_CHECK(kern_module_get_kernel(m, "init", &init));
  MG_CHECK(kern_module_get_kernel(m, "jacobi", &k));
  kern_array *a, *b;
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT32, 2, shape, &a));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT32, 2, shape, &b));
  kern_arg ia[] = {kern_arg_array(a)};
  MG_CHECK(kern_launch(init, 2, shape, 1, ia));
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));
  double t = mg_now_ms();
  for (int it = 0; it < iters; it++) {
    kern_arg args[] = {kern_arg_array(a), kern_arg_array(b)};
    MG_CHECK(kern_launch_async(k, NULL, 2, shape, 2, args));
    kern_array *s = a;
    a = b;
    b = s;
  }
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));
  double one_ms = (mg_now_ms() - t) / iters;
  MG_CHECK(kern_array_download(a, r1, bytes));
  kern_array_free(a);
  kern_array_free(b);

  /* the group */
  kern_sharded *sa, *sb;
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT32, 2, shape, 1, &sa));
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT32, 2, shape, 1, &sb));
  kern_arg sia[] = {kern_arg_sharded(sa)};
  MG_CHECK(kern_group_launch(mg.g, "init", 2, shape, 1, sia));
  MG_CHECK(kern_sharded_halo_exchange(sa));
  MG_CHECK(kern_group_synchronize(mg.g));
  t = mg_now_ms();
  for (int it = 0; it < iters; it++) {
    kern_arg args[] = {kern_arg_sharded(sa), kern_arg_sharded(sb)};
    MG_CHECK(kern_group_launch_async(mg.g, "jacobi", 2, shape, 2, args));
    MG_CHECK(kern_sharded_halo_exchange_async(sb));
    kern_sharded *s = sa;
    sa = sb;
    sb = s;
  }
  MG_CHECK(kern_group_synchronize(mg.g));
  double multi_ms = (mg_now_ms() - t) / iters;
  MG_CHECK(kern_sharded_download(sa, rp, bytes));
  int ok = memcmp(r1, rp, bytes) == 0;
  if (mg.rank == 0)
    printf("stencil %lld x %lld, %d steps: per step\n", (long long)n,
           (long long)n, iters);
  free(r1);
  free(rp);
  return mg_finish("stencil", one_ms, multi_ms, ok);
}
