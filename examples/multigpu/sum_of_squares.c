/*
 * sum_of_squares.c -- the sum of squares of N float64 over every device of
 * the group, against the same on one device.
 *
 * x is block-sharded, so each device squares and sums its own rows into
 * its copy of a replicated one-element `out`; one all-reduce then leaves
 * the total in every copy.  The kernel is the one-device kernel unchanged:
 * wp.tid() is the global index on every shard.
 *
 * Each side's timed unit is one sum that ends with the result on the
 * host: the one device enqueues its zeroing, launch and download on its
 * default stream; the group enqueues its fill, launch and all-reduce with
 * the asynchronous calls (NCCL on the shards' streams on CUDA) and
 * downloads shard 0's copy on shard 0's stream, which the all-reduce
 * orders after every shard's partial.  The two sides are warmed and then
 * timed in alternating rounds, best of KERN_EXAMPLE_REPS each (Note [fair
 * baseline] in mg_common.h).
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

typedef struct {
  int64_t n;
  kern_kernel *k;
  kern_array *out;
  kern_stream *s1, *s0;
  kern_arg a[2], sa[2];
  kern_sharded *sout;
  kern_array *out0;
  double r1, rp;
} sumsq;

static double one_device(void *p) {
  sumsq *S = p;
  double t = mg_now_ms();
  MG_CHECK(kern_array_zero_async(S->out, S->s1));
  MG_CHECK(kern_launch_async(S->k, S->s1, 1, &S->n, 2, S->a));
  MG_CHECK(kern_array_download_async(S->out, S->s1, 0, &S->r1, sizeof S->r1));
  MG_CHECK(kern_stream_synchronize(S->s1));
  return mg_now_ms() - t;
}

static double every_device(void *p) {
  sumsq *S = p;
  double zero = 0;
  double t = mg_now_ms();
  MG_CHECK(kern_sharded_fill_async(S->sout, &zero));
  MG_CHECK(kern_group_launch_async(mg.g, "sum_of_squares", 1, &S->n, 2, S->sa));
  MG_CHECK(kern_sharded_all_reduce_async(S->sout, KERN_REDUCE_SUM));
  MG_CHECK(kern_array_download_async(S->out0, S->s0, 0, &S->rp, sizeof S->rp));
  MG_CHECK(kern_stream_synchronize(S->s0));
  return mg_now_ms() - t;
}

int main(void) {
  kern_module *m = mg_setup(src);
  sumsq S = {0};
  int64_t one = 1;
  S.n = mg_env("KERN_EXAMPLE_N", 100000000);
  int reps = (int)mg_env("KERN_EXAMPLE_REPS", 10);

  /* one device */
  kern_kernel *init;
  MG_CHECK(kern_module_get_kernel(m, "init", &init));
  MG_CHECK(kern_module_get_kernel(m, "sum_of_squares", &S.k));
  kern_array *x;
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &S.n, &x));
  MG_CHECK(kern_array_new(mg.ctx, mg.one, KERN_TYPE_FLOAT64, 1, &one, &S.out));
  kern_arg ia[] = {kern_arg_array(x)};
  MG_CHECK(kern_launch(init, 1, &S.n, 1, ia));
  S.a[0] = kern_arg_array(x);
  S.a[1] = kern_arg_array(S.out);
  MG_CHECK(kern_stream_default(mg.ctx, mg.one, &S.s1));
  MG_CHECK(kern_synchronize(mg.ctx, mg.one));

  /* every device of the group */
  kern_sharded *sx;
  MG_CHECK(kern_sharded_new(mg.g, KERN_TYPE_FLOAT64, 1, &S.n, 0, &sx));
  MG_CHECK(kern_sharded_new_replicated(mg.g, KERN_TYPE_FLOAT64, 1, &one, &S.sout));
  kern_arg sia[] = {kern_arg_sharded(sx)};
  MG_CHECK(kern_group_launch(mg.g, "init", 1, &S.n, 1, sia));
  S.sa[0] = kern_arg_sharded(sx);
  S.sa[1] = kern_arg_sharded(S.sout);
  MG_CHECK(kern_sharded_shard(S.sout, 0, &S.out0, NULL, NULL, NULL));
  MG_CHECK(kern_group_stream(mg.g, 0, &S.s0));
  MG_CHECK(kern_group_synchronize(mg.g));

  mg_times t = mg_time_both(one_device, every_device, &S, 3, reps);
  /* The other shards' streams hold nothing after their all-reduce, which
   * has finished with shard 0's; this only collects their errors. */
  MG_CHECK(kern_group_synchronize(mg.g));
  kern_array_free(x);
  kern_array_free(S.out);
  if (mg.rank == 0) printf("sum of squares of %lld float64: %.10g (one device %.10g)\n",
                           (long long)S.n, S.rp, S.r1);
  int ok = fabs(S.rp - S.r1) <= 1e-9 * fabs(S.r1);
  return mg_finish("sum_of_squares", t, ok);
}
