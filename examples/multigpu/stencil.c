/*
 * stencil.c -- a 2-D Jacobi stencil over ITERS steps, its rows spread over
 * the group's devices with a halo of one row, against the same on one
 * device.
 *
 * Each step every device updates its own rows, reading one row of each
 * neighbour from its halo, and then the halos are refreshed from the
 * neighbours (NCCL send/receive on CUDA).  The kernel is the one-device
 * kernel unchanged.  Results must be bit-identical: each cell is computed
 * from the same values in the same order.  Each side's timed unit is ITERS
 * steps enqueued without waiting (the group with kern_group_launch_async
 * and kern_sharded_halo_exchange_async) and one wait at the end; the two
 * sides are warmed with one unit each and then timed in alternating
 * rounds, best of KERN_EXAMPLE_REPS (default 5) each (Note [fair baseline]
 * in mg_common.h).  Both sides do the same steps in all, so their final
 * arrays still agree bit for bit.
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

typedef struct {
  int iters;
  int64_t shape[2];
  kern_kernel *k;
  kern_array *a, *b;
  kern_sharded *sa, *sb;
} stencil;

static double one_device(void *p) {
  stencil *S = p;
  double t = mg_now_ms();
  for (int it = 0; it < S->iters; it++) {
    kern_arg args[] = {kern_arg_array(S->a), kern_arg_array(S->b)};
    MG_CHECK(kern_launch_async(S->k, NULL, 2, S->shape, 2, args));
    kern_array *s = S->a;
    S->a = S->b;
    S->b = s;
  }
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));
  return mg_now_ms() - t;
}

static double every_device(void *p) {
  stencil *S = p;
  double t = mg_now_ms();
  for (int it = 0; it < S->iters; it++) {
    kern_arg args[] = {kern_arg_sharded(S->sa), kern_arg_sharded(S->sb)};
    MG_CHECK(kern_group_launch_async(mg.g, "jacobi", 2, S->shape, 2, args));
    MG_CHECK(kern_sharded_halo_exchange_async(S->sb));
    kern_sharded *s = S->sa;
    S->sa = S->sb;
    S->sb = s;
  }
  MG_CHECK(kern_group_synchronize(mg.g));
  return mg_now_ms() - t;
}

int main(void) {
  kern_module *m = mg_setup(src);
  stencil S = {0};
  int64_t n = mg_env("KERN_EXAMPLE_N", 1024);
  S.iters = (int)mg_env("KERN_EXAMPLE_ITERS", 50);
  int reps = (int)mg_env("KERN_EXAMPLE_REPS", 5);
  S.shape[0] = S.shape[1] = n;
  size_t bytes = (size_t)(n * n) * sizeof(float);
  float *r1 = malloc(bytes), *rp = malloc(bytes);
  if (!r1 || !rp) return 1;

  /* one device */
  kern_kernel *init;
  MG_CHECK(kern_module_get_kernel(m, "init", &init));
  MG_CHECK(kern_module_get_kernel(m, "jacobi", &S.k));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT32, 2, S.shape, &S.a));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT32, 2, S.shape, &S.b));
  kern_arg ia[] = {kern_arg_array(S.a)};
  MG_CHECK(kern_launch(init, 2, S.shape, 1, ia));
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));

  /* the group */
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT32, 2, S.shape, 1, &S.sa));
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT32, 2, S.shape, 1, &S.sb));
  kern_arg sia[] = {kern_arg_sharded(S.sa)};
  MG_CHECK(kern_group_launch(mg.g, "init", 2, S.shape, 1, sia));
  MG_CHECK(kern_sharded_halo_exchange(S.sa));
  MG_CHECK(kern_group_synchronize(mg.g));

  mg_times t = mg_times_per(mg_time_both(one_device, every_device, &S, 1, reps),
                            S.iters);
  MG_CHECK(kern_array_download(S.a, r1, bytes));
  MG_CHECK(kern_sharded_download(S.sa, rp, bytes));
  kern_array_free(S.a);
  kern_array_free(S.b);
  int ok = memcmp(r1, rp, bytes) == 0;
  if (mg.rank == 0)
    printf("stencil %lld x %lld, %d steps a round: per step\n", (long long)n,
           (long long)n, S.iters);
  free(r1);
  free(rp);
  return mg_finish("stencil", t, ok);
}
