/*
 * sum_of_squares.c -- the sum of squares of N float64 over every device of
 * the group, against the same on one device.
 *
 * x is block-sharded, so each device squares and sums its own rows into
 * its copy of a replicated one-element `out`; one all-reduce then leaves
 * the total in every copy.  The kernel is the one-device kernel unchanged:
 * wp.tid() is the global index on every shard.
 *
 * Both timed loops wait on the host once per iteration, for the result:
 * the one device enqueues its zeroing, launch and download on its default
 * stream; the group enqueues its fill, launch and all-reduce with the
 * asynchronous calls (NCCL on the shards' streams on CUDA) and downloads
 * shard 0's copy on shard 0's stream, which the all-reduce orders after
 * every shard's partial.
 *
 *   KERN_DEVICE=cuda:all ./mg_sum_of_squares        (N from KERN_EXAMPLE_N,
 *   mpirun -n 2 ./mg_sum_of_squares                  default 1e8)
 */
#include "mg_common.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def init(x: wp.array(dtype=wp.float64)):\n"
    "    i = wp.tid()\n"
    "    x[i] = wp.float64(i % 1000) * wp.float64(0.001)\n"
    "\n"
    "@wp.kernel\n"
    "def sum_of_squares(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):\n"
    "    i = wp.tid()\n"
    "    wp.atomic_add(out, 0, x[i] * x[i])\n";

int main(void) {
  kern_module *m = mg_setup(src);
  int64_t n = mg_env("KERN_EXAMPLE_N", 100000000), one = 1;
  int reps = (int)mg_env("KERN_EXAMPLE_REPS", 10);
  double t1[64], tp[64], r1 = 0, rp = 0;
  if (reps > 64) reps = 64;

  /* one device */
  kern_kernel *init, *k;
  MG_CHECK(kern_module_get_kernel(m, "init", &init));
  MG_CHECK(kern_module_get_kernel(m, "sum_of_squares", &k));
  kern_array *x, *out;
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &n, &x));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &one, &out));
  kern_arg ia[] = {kern_arg_array(x)};
  MG_CHECK(kern_launch(init, 1, &n, 1, ia));
  kern_arg a[] = {kern_arg_array(x), kern_arg_array(out)};
  kern_stream *s1;
  MG_CHECK(kern_stream_default(mg.ctx, mg.one, &s1));
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));
  for (int r = -1; r < reps; r++) { /* r = -1 warms up */
    double t = mg_now_ms();
    MG_CHECK(kern_array_zero_async(out, s1));
    MG_CHECK(kern_launch_async(k, s1, 1, &n, 2, a));
    MG_CHECK(kern_array_download_async(out, s1, 0, &r1, sizeof r1));
    MG_CHECK(kern_stream_synchronize(s1));
    if (r >= 0) t1[r] = mg_now_ms() - t;
  }
  kern_array_free(x);
  kern_array_free(out);

  /* every device of the group */
  kern_sharded *sx, *sout;
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT64, 1, &n, 0, &sx));
  MG_CHECK(kern_sharded_new_replicated(mg.g, KERN_TYPE_FLOAT64, 1, &one, &sout));
  kern_arg sia[] = {kern_arg_sharded(sx)};
  MG_CHECK(kern_group_launch(mg.g, "init", 1, &n, 1, sia));
  kern_arg sa[] = {kern_arg_sharded(sx), kern_arg_sharded(sout)};
  kern_array *out0;
  kern_stream *s0;
  MG_CHECK(kern_sharded_shard(sout, 0, &out0, NULL, NULL, NULL));
  MG_CHECK(kern_group_stream(mg.g, 0, &s0));
  MG_CHECK(kern_group_synchronize(mg.g));
  double zero = 0;
  for (int r = -1; r < reps; r++) {
    double t = mg_now_ms();
    MG_CHECK(kern_sharded_fill_async(sout, &zero));
    MG_CHECK(kern_group_launch_async(mg.g, "sum_of_squares", 1, &n, 2, sa));
    MG_CHECK(kern_sharded_all_reduce_async(sout, KERN_REDUCE_SUM));
    MG_CHECK(kern_array_download_async(out0, s0, 0, &rp, sizeof rp));
    MG_CHECK(kern_stream_synchronize(s0));
    if (r >= 0) tp[r] = mg_now_ms() - t;
  }
  /* The other shards' streams hold nothing after their all-reduce, which
   * has finished with shard 0's; this only collects their errors. */
  MG_CHECK(kern_group_synchronize(mg.g));
  if (mg.rank == 0) printf("sum of squares of %lld float64: %.10g (one device %.10g)\n",
                           (long long)n, rp, r1);
  int ok = fabs(rp - r1) <= 1e-9 * fabs(r1);
  return mg_finish("sum_of_squares", mg_median(t1, reps), mg_median(tp, reps), ok);
}
