/*
 * Debug mode's bounds checks in the launches that are not one plain
 * kern_launch (issue 23, items 4 and 5), on the device named by argv[1]
 * ("cpu", "opencl", "vulkan"; exit 77 when it is missing):
 *  - sharded launches over two and three shards of one device, synchronous
 *    and asynchronous: an out-of-bounds index in any shard fails the launch
 *    with the single-device message (a sharded array's global shape);
 *  - graph replay: a replayed launch that goes out of bounds reports
 *    KERN_ERROR_OUT_OF_BOUNDS with the direct launch's message, at the
 *    latest from the synchronize that covers it.
 * Each faulting launch has exactly one faulting thread, so the message is
 * the same however the work is spread.
 */
#include "test.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def shift(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), "
    "k: wp.int32):\n"
    "    i = wp.tid()\n"
    "    y[i] = x[i + k] + 1.0\n"
    "\n"
    "@wp.kernel\n"
    "def poke(y: wp.array(dtype=wp.float32), k: wp.int32):\n"
    "    i = wp.tid()\n"
    "    if i == 0:\n"
    "        y[k] = 5.0\n";

static const kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
enum { N = 8 };

static kern_context *ctx;
static kern_device dev;
static const char *devname;

static const char x_msg[] =
    "dbg.py:6:12: kernel 'shift': index 8 is out of bounds for axis 0 of "
    "array 'x' (length 8, shape (8,))";

/* One sharded launch of `name` that must fail with msg; async: the
 * asynchronous form, whose error may come from kern_group_synchronize. */
static void expect_group_fault(kern_group *g, const char *name, int nargs,
                               const kern_arg *args, int async,
                               const char *msg) {
  int64_t n = N;
  kern_status st = async ? kern_group_launch_async(g, name, 1, &n, nargs, args)
                         : kern_group_launch(g, name, 1, &n, nargs, args);
  if (st == KERN_SUCCESS) st = kern_group_synchronize(g);
  ASSERT_EQ(st, KERN_ERROR_OUT_OF_BOUNDS);
  ASSERT_CONTAINS(kern_last_error(ctx), msg);
  kern_clear_error(ctx);
}

static void test_sharded(int shards) {
  char list[64];
  snprintf(list, sizeof list, "%s:0%s", devname, shards == 3 ? ",0,0" : ",0");
  kern_group_options go = KERN_GROUP_OPTIONS_INIT;
  go.devices = list;
  go.mpi = -1;
  kern_group *g;
  ASSERT_OK(ctx, kern_group_new(ctx, &go, &g));
  ASSERT_EQ(kern_group_size(g), shards);
  ASSERT_OK(ctx, kern_group_load_string(g, "dbg.py", src, sizeof src - 1));
  int64_t n = N;
  kern_sharded *x, *y;
  ASSERT_OK(ctx, kern_sharded_new_replicated(g, f32, 1, &n, &x));
  ASSERT_OK(ctx, kern_sharded_new(g, f32, 1, &n, 0, &y));
  float h[N], out[N];
  for (int i = 0; i < N; i++) h[i] = (float)i;
  ASSERT_OK(ctx, kern_sharded_upload(x, h, sizeof h));
  int32_t one = 1, zero = 0, eight = 8;
  kern_arg a[3] = {kern_arg_sharded(x), kern_arg_sharded(y),
                   kern_arg_int(zero)};
  /* In bounds: no false report, every shard wrote.  (A failed launch
   * fails the group's later collectives, so this comes first.) */
  ASSERT_OK(ctx, kern_group_launch(g, "shift", 1, &n, 3, a));
  ASSERT_OK(ctx, kern_sharded_download(y, out, sizeof out));
  for (int i = 0; i < N; i++) ASSERT_EQ(out[i], (float)i + 1.0f);
  a[2] = kern_arg_int(one);
  /* Thread 7, in the last shard, reads the replicated x[8]. */
  for (int async = 0; async < 2; async++)
    for (int rep = 0; rep < 3; rep++)
      expect_group_fault(g, "shift", 3, a, async, x_msg);
  /* Thread 0, in the first shard, writes the sharded y[8]: the message
   * names y's global shape. */
  kern_arg p[2] = {kern_arg_sharded(y), kern_arg_int(eight)};
  for (int async = 0; async < 2; async++)
    expect_group_fault(g, "poke", 2, p, async,
                       "dbg.py:12:9: kernel 'poke': index 8 is out of bounds "
                       "for axis 0 of array 'y' (length 8, shape (8,))");
  /* In bounds again: each fault record was cleared when it was read. */
  a[2] = kern_arg_int(zero);
  ASSERT_OK(ctx, kern_group_launch(g, "shift", 1, &n, 3, a));
  ASSERT_OK(ctx, kern_group_launch_async(g, "shift", 1, &n, 3, a));
  kern_group_free(g);
}

/* The first error among replay, stream synchronize and kern_synchronize. */
static kern_status replay_status(kern_graph *gr, kern_stream *s) {
  kern_status st = kern_graph_replay(gr, s);
  if (st == KERN_SUCCESS) st = kern_stream_synchronize(s);
  if (st == KERN_SUCCESS) st = kern_synchronize(ctx, dev);
  return st;
}

static void test_graph_replay(void) {
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "dbg.py", src,
                                         sizeof src - 1, &m));
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "shift", &k));
  int64_t n = N;
  kern_array *x, *y;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &y));
  float h[N], out[N];
  for (int i = 0; i < N; i++) h[i] = (float)i;
  ASSERT_OK(ctx, kern_array_upload(x, h, sizeof h));
  kern_arg a[3] = {kern_arg_array(x), kern_arg_array(y), kern_arg_int(1)};
  /* The direct launch's report, which the replay must repeat. */
  ASSERT_EQ(kern_launch(k, 1, &n, 3, a), KERN_ERROR_OUT_OF_BOUNDS);
  char direct[512];
  snprintf(direct, sizeof direct, "%s", kern_last_error(ctx));
  ASSERT_CONTAINS(direct, x_msg);
  kern_clear_error(ctx);

  kern_stream *s;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &s));
  float zeros[N] = {0};
  kern_graph *gr;
  ASSERT_OK(ctx, kern_graph_begin_capture(s));
  ASSERT_OK(ctx, kern_array_upload_async(y, s, 0, zeros, sizeof zeros));
  ASSERT_OK(ctx, kern_launch_async(k, s, 1, &n, 3, a));
  ASSERT_OK(ctx, kern_graph_end_capture(s, &gr));
  for (int rep = 0; rep < 3; rep++) {
    ASSERT_EQ(replay_status(gr, s), KERN_ERROR_OUT_OF_BOUNDS);
    ASSERT_STREQ(kern_last_error(ctx), direct);
    kern_clear_error(ctx);
  }
  /* On the default stream too. */
  ASSERT_EQ(replay_status(gr, NULL), KERN_ERROR_OUT_OF_BOUNDS);
  ASSERT_STREQ(kern_last_error(ctx), direct);
  kern_clear_error(ctx);
  /* In bounds after an update: the record was cleared. */
  ASSERT_OK(ctx, kern_graph_set_arg(gr, 0, 2, kern_arg_int(0)));
  ASSERT_OK(ctx, replay_status(gr, s));
  ASSERT_OK(ctx, kern_array_download(y, out, sizeof out));
  for (int i = 0; i < N; i++) ASSERT_EQ(out[i], (float)i + 1.0f);
  kern_graph_free(gr);
  ASSERT_OK(ctx, kern_stream_free(s));
  kern_array_free(x);
  kern_array_free(y);
  kern_module_free(m);
}

int main(int argc, char **argv) {
  test_setup();
  devname = argc > 1 ? argv[1] : "cpu";
  kern_options o = KERN_OPTIONS_INIT;
  o.debug = 1;
  ASSERT_OK(ctx, kern_context_new(&o, &ctx));
  if (kern_device_find(ctx, devname, &dev) != KERN_SUCCESS) {
    printf("skipped: %s\n", kern_last_error(ctx));
    kern_context_free(ctx);
    return 77;
  }
  test_graph_replay();
  test_sharded(2);
  test_sharded(3);
  kern_context_free(ctx);
  printf("ok\n");
  return 0;
}
