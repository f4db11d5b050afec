/*
 * training_step.c -- data-parallel training: each device computes the
 * gradient of a least-squares loss on its own rows of the batch, the
 * gradients are all-reduced, and every device applies the same update to
 * its replica of the weights.  Compared with the same steps on one device.
 *
 * X (N x D) and y (N) are block-sharded; w and the gradient g (D) are
 * replicated.  The update kernel has no block-sharded argument, so every
 * device runs all of it on its own replica.  Both timed loops enqueue
 * every step without waiting (the group with kern_group_launch_async and
 * kern_sharded_all_reduce_async, NCCL on the shards' streams on CUDA) and
 * wait once at the end.
 *
 *   KERN_DEVICE=cuda:all KERN_EXAMPLE_N=4000000 ./mg_training_step
 */
#include "mg_common.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def init(X: wp.array2d(dtype=wp.float64), y: wp.array(dtype=wp.float64)):\n"
    "    i = wp.tid()\n"
    "    d = X.shape[1]\n"
    "    s = wp.float64(0.0)\n"
    "    for j in range(d):\n"
    "        v = wp.float64((i * 13 + j * 7) % 17 - 8) * wp.float64(0.125)\n"
    "        X[i, j] = v\n"
    "        s = s + v * wp.float64(j % 5 - 2)\n"
    "    y[i] = s\n"
    "\n"
    "@wp.kernel\n"
    "def grad(X: wp.array2d(dtype=wp.float64), y: wp.array(dtype=wp.float64),\n"
    "         w: wp.array(dtype=wp.float64), g: wp.array(dtype=wp.float64)):\n"
    "    i = wp.tid()\n"
    "    d = X.shape[1]\n"
    "    p = wp.float64(0.0)\n"
    "    for j in range(d):\n"
    "        p = p + X[i, j] * w[j]\n"
    "    e = p - y[i]\n"
    "    for j in range(d):\n"
    "        wp.atomic_add(g, j, e * X[i, j])\n"
    "\n"
    "@wp.kernel\n"
    "def step(w: wp.array(dtype=wp.float64), g: wp.array(dtype=wp.float64), lr: wp.float64):\n"
    "    j = wp.tid()\n"
    "    w[j] = w[j] - lr * g[j]\n"
    "    g[j] = wp.float64(0.0)\n";

enum { D = 16 };

int main(void) {
  kern_module *m = mg_setup(src);
  int64_t n = mg_env("KERN_EXAMPLE_N", 100000), d = D;
  int steps = (int)mg_env("KERN_EXAMPLE_STEPS", 20);
  int64_t xs[2] = {n, D};
  double lr = 0.5 / (double)n, w1[D], wp_[D];

  /* one device */
  kern_kernel *init, *grad, *step;
  MG_CHECK(kern_module_get_kernel(m, "init", &init));
  MG_CHECK(kern_module_get_kernel(m, "grad", &grad));
  MG_CHECK(kern_module_get_kernel(m, "step", &step));
  kern_array *X, *y, *w, *g;
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 2, xs, &X));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &n, &y));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &d, &w));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &d, &g));
  MG_CHECK(kern_array_zero(w));
  MG_CHECK(kern_array_zero(g));
  kern_arg ia[] = {kern_arg_array(X), kern_arg_array(y)};
  MG_CHECK(kern_launch(init, 1, &n, 2, ia));
  double t = mg_now_ms();
  for (int s = 0; s < steps; s++) {
    kern_arg ga[] = {kern_arg_array(X), kern_arg_array(y), kern_arg_array(w),
                     kern_arg_array(g)};
    MG_CHECK(kern_launch_async(grad, NULL, 1, &n, 4, ga));
    kern_arg sa[] = {kern_arg_array(w), kern_arg_array(g), kern_arg_float(lr)};
    MG_CHECK(kern_launch_async(step, NULL, 1, &d, 3, sa));
  }
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));
  MG_CHECK(kern_array_download(w, w1, sizeof w1));
  double one_ms = (mg_now_ms() - t) / steps;

  /* the group */
  kern_sharded *sX, *sy, *sw, *sg;
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT64, 2, xs, 0, &sX));
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT64, 1, &n, 0, &sy));
  MG_CHECK(kern_sharded_new_replicated(mg.g, KERN_TYPE_FLOAT64, 1, &d, &sw));
  MG_CHECK(kern_sharded_new_replicated(mg.g, KERN_TYPE_FLOAT64, 1, &d, &sg));
  double zero = 0;
  MG_CHECK(kern_sharded_fill(sw, &zero));
  MG_CHECK(kern_sharded_fill(sg, &zero));
  kern_arg sia[] = {kern_arg_sharded(sX), kern_arg_sharded(sy)};
  MG_CHECK(kern_group_launch(mg.g, "init", 1, &n, 2, sia));
  t = mg_now_ms();
  for (int s = 0; s < steps; s++) {
    kern_arg ga[] = {kern_arg_sharded(sX), kern_arg_sharded(sy),
                     kern_arg_sharded(sw), kern_arg_sharded(sg)};
    MG_CHECK(kern_group_launch_async(mg.g, "grad", 1, &n, 4, ga));
    MG_CHECK(kern_sharded_all_reduce_async(sg, KERN_REDUCE_SUM));
    kern_arg sa[] = {kern_arg_sharded(sw), kern_arg_sharded(sg),
                     kern_arg_float(lr)};
    MG_CHECK(kern_group_launch_async(mg.g, "step", 1, &d, 3, sa));
  }
  MG_CHECK(kern_group_synchronize(mg.g));
  MG_CHECK(kern_sharded_download(sw, wp_, sizeof wp_));
  double multi_ms = (mg_now_ms() - t) / steps;
  int ok = 1;
  for (int j = 0; j < D; j++)
    ok &= fabs(wp_[j] - w1[j]) <= 1e-6 * (fabs(w1[j]) + 1e-6);
  if (mg.rank == 0)
    printf("training %lld x %d, %d steps: w[0..3] = %.6f %.6f %.6f %.6f "
           "(target -2 -1 0 1); per step\n",
           (long long)n, D, steps, wp_[0], wp_[1], wp_[2], wp_[3]);
  return mg_finish("training_step", one_ms, multi_ms, ok);
}
