/*
 * training_step.c -- data-parallel training: each device computes the
 * gradient of a least-squares loss on its own rows of the batch, the
 * gradients are all-reduced, and every device applies the same update to
 * its replica of the weights.  Compared with the same steps on one device.
 *
 * X (N x D) and y (N) are block-sharded; w and the gradient g (D) are
 * replicated.  The update kernel has no block-sharded argument, so every
 * device runs all of it on its own replica.  Each side's timed unit is
 * STEPS steps enqueued without waiting (the group with
 * kern_group_launch_async and kern_sharded_all_reduce_async, NCCL on the
 * shards' streams on CUDA), one wait and the download of w; the two sides
 * are warmed with one unit each and then timed in alternating rounds, best
 * of KERN_EXAMPLE_REPS (default 3) each (Note [fair baseline] in
 * mg_common.h).  Both take the same steps in all.
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

typedef struct {
  int steps;
  int64_t n, d;
  double lr, w1[D], wp_[D];
  kern_kernel *grad, *step;
  kern_array *X, *y, *w, *g;
  kern_sharded *sX, *sy, *sw, *sg;
} training;

static double one_device(void *p) {
  training *S = p;
  double t = mg_now_ms();
  for (int s = 0; s < S->steps; s++) {
    kern_arg ga[] = {kern_arg_array(S->X), kern_arg_array(S->y),
                     kern_arg_array(S->w), kern_arg_array(S->g)};
    MG_CHECK(kern_launch_async(S->grad, NULL, 1, &S->n, 4, ga));
    kern_arg sa[] = {kern_arg_array(S->w), kern_arg_array(S->g),
                     kern_arg_float(S->lr)};
    MG_CHECK(kern_launch_async(S->step, NULL, 1, &S->d, 3, sa));
  }
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));
  MG_CHECK(kern_array_download(S->w, S->w1, sizeof S->w1));
  return mg_now_ms() - t;
}

static double every_device(void *p) {
  training *S = p;
  double t = mg_now_ms();
  for (int s = 0; s < S->steps; s++) {
    kern_arg ga[] = {kern_arg_sharded(S->sX), kern_arg_sharded(S->sy),
                     kern_arg_sharded(S->sw), kern_arg_sharded(S->sg)};
    MG_CHECK(kern_group_launch_async(mg.g, "grad", 1, &S->n, 4, ga));
    MG_CHECK(kern_sharded_all_reduce_async(S->sg, KERN_REDUCE_SUM));
    kern_arg sa[] = {kern_arg_sharded(S->sw), kern_arg_sharded(S->sg),
                     kern_arg_float(S->lr)};
    MG_CHECK(kern_group_launch_async(mg.g, "step", 1, &S->d, 3, sa));
  }
  MG_CHECK(kern_group_synchronize(mg.g));
  MG_CHECK(kern_sharded_download(S->sw, S->wp_, sizeof S->wp_));
  return mg_now_ms() - t;
}

int main(void) {
  kern_module *m = mg_setup(src);
  training S = {0};
  S.n = mg_env("KERN_EXAMPLE_N", 100000);
  S.d = D;
  S.steps = (int)mg_env("KERN_EXAMPLE_STEPS", 20);
  int reps = (int)mg_env("KERN_EXAMPLE_REPS", 3);
  int64_t xs[2] = {S.n, D};
  S.lr = 0.5 / (double)S.n;

  /* one device */
  kern_kernel *init;
  MG_CHECK(kern_module_get_kernel(m, "init", &init));
  MG_CHECK(kern_module_get_kernel(m, "grad", &S.grad));
  MG_CHECK(kern_module_get_kernel(m, "step", &S.step));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 2, xs, &S.X));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &S.n, &S.y));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &S.d, &S.w));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &S.d, &S.g));
  MG_CHECK(kern_array_zero(S.w));
  MG_CHECK(kern_array_zero(S.g));
  kern_arg ia[] = {kern_arg_array(S.X), kern_arg_array(S.y)};
  MG_CHECK(kern_launch(init, 1, &S.n, 2, ia));
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));

  /* the group */
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT64, 2, xs, 0, &S.sX));
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT64, 1, &S.n, 0, &S.sy));
  MG_CHECK(kern_sharded_new_replicated(mg.g, KERN_TYPE_FLOAT64, 1, &S.d, &S.sw));
  MG_CHECK(kern_sharded_new_replicated(mg.g, KERN_TYPE_FLOAT64, 1, &S.d, &S.sg));
  double zero = 0;
  MG_CHECK(kern_sharded_fill(S.sw, &zero));
  MG_CHECK(kern_sharded_fill(S.sg, &zero));
  kern_arg sia[] = {kern_arg_sharded(S.sX), kern_arg_sharded(S.sy)};
  MG_CHECK(kern_group_launch(mg.g, "init", 1, &S.n, 2, sia));
  MG_CHECK(kern_group_synchronize(mg.g));

  mg_times t = mg_times_per(mg_time_both(one_device, every_device, &S, 1, reps),
                            S.steps);
  int ok = 1;
  for (int j = 0; j < D; j++)
    ok &= fabs(S.wp_[j] - S.w1[j]) <= 1e-6 * (fabs(S.w1[j]) + 1e-6);
  if (mg.rank == 0)
    printf("training %lld x %d, %d steps a round: w[0..3] = %.6f %.6f %.6f %.6f "
           "(target -2 -1 0 1); per step\n",
           (long long)S.n, D, S.steps, S.wp_[0], S.wp_[1], S.wp_[2], S.wp_[3]);
  kern_array_free(S.X);
  kern_array_free(S.y);
  kern_array_free(S.w);
  kern_array_free(S.g);
  return mg_finish("training_step", t, ok);
}
