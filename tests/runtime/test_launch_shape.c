/*
 * test_launch_shape.c -- the launch grid against the kernel's wp.tid(), and
 * arrays with an axis of length 0 (issue #8, item 13), on the CPU and on
 * OpenCL and CUDA where they are there.
 *
 * `i, j = wp.tid()` on a 3-d grid once ran with i past its axis and
 * corrupted the heap; the extra dimensions are now folded as in Warp 1.19
 * (threads differing only in them share i, j; Note [launch
 * dimensionality] in runtime/module.c), which wp.launch_tiled relies on,
 * and kern_kernel_set_block_dim / kern_kernel_block_dim give the block
 * size (Note [block_dim]).  A grid of fewer dimensions is
 * Warp's: the missing coordinates are 0.  Arrays of shape (0,) and (0, 3)
 * can be created, copied with 0 bytes and passed to kernels, as in Warp
 * (Note [zero-size arrays] in runtime/array.c).
 */
#include "test.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def two(a: wp.array2d(dtype=float)):\n"
    "    i, j = wp.tid()\n"
    "    a[i, j] = float(i * 10 + j + 1)\n"
    "\n"
    "@wp.kernel\n"
    "def lone(a: wp.array(dtype=float)):\n"
    "    i = wp.tid()\n"
    "    wp.atomic_add(a, i, 1.0)\n"
    "\n"
    "@wp.kernel\n"
    "def guarded(a: wp.array(dtype=float), n: int):\n"
    "    i = wp.tid()\n"
    "    if i < a.shape[0]:\n"
    "        a[i] = float(n)\n"
    "\n"
    "@wp.kernel\n"
    "def rows(a: wp.array2d(dtype=float)):\n"
    "    i = wp.tid()\n"
    "    if i < a.shape[0]:\n"
    "        a[i, 0] = 1.0\n";

static const kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};

static void on(kern_context *ctx, kern_device dev, const char *what) {
  kern_module *m;
  kern_kernel *two, *lone, *guarded, *rows;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "shape.py", src,
                                         sizeof src - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "two", &two));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "lone", &lone));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "guarded", &guarded));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "rows", &rows));

  /* more grid dimensions than wp.tid() unpacks: folded (Warp 1.19), so
   * each (i, j) is written by the 2 threads of its last dimension and
   * nothing lands outside the array */
  kern_array *a;
  int64_t shape[2] = {2, 2};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 2, shape, &a));
  ASSERT_OK(ctx, kern_array_zero(a));
  kern_arg arg = kern_arg_array(a);
  int64_t d3[3] = {2, 2, 2};
  float out[4];
  ASSERT_OK(ctx, kern_launch(two, 3, d3, 1, &arg));
  ASSERT_OK(ctx, kern_array_download(a, out, sizeof out));
  ASSERT_EQ(out[0], 1); ASSERT_EQ(out[1], 2);
  ASSERT_EQ(out[2], 11); ASSERT_EQ(out[3], 12);
  int64_t d4[4] = {2, 2, 3, 2};
  ASSERT_OK(ctx, kern_array_zero(a));
  ASSERT_OK(ctx, kern_launch(two, 4, d4, 1, &arg));
  ASSERT_OK(ctx, kern_array_download(a, out, sizeof out));
  ASSERT_EQ(out[0], 1); ASSERT_EQ(out[3], 12);

  /* the block size: out of range refused, 1 on the CPU whatever is set,
   * else the one set or 256 */
  kern_clear_error(ctx);
  ASSERT_EQ(kern_kernel_set_block_dim(two, 1025), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_STREQ(kern_last_error(ctx),
               "kern_kernel_set_block_dim of 'two': block_dim must be 1 to "
               "1024, or 0 for the default, got 1025");
  ASSERT_EQ(kern_kernel_set_block_dim(two, -1), KERN_ERROR_INVALID_ARGUMENT);
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  ASSERT_OK(ctx, kern_device_get(ctx, dev, &di));
  int cpu = di.backend == KERN_BACKEND_CPU;
  ASSERT_EQ(kern_kernel_block_dim(two), cpu ? 1 : 256);
  ASSERT_OK(ctx, kern_kernel_set_block_dim(two, 32));
  ASSERT_EQ(kern_kernel_block_dim(two), cpu ? 1 : 32);
  ASSERT_OK(ctx, kern_array_zero(a));
  ASSERT_OK(ctx, kern_launch(two, 3, d3, 1, &arg));
  ASSERT_OK(ctx, kern_array_download(a, out, sizeof out));
  ASSERT_EQ(out[0], 1); ASSERT_EQ(out[3], 12);
  ASSERT_OK(ctx, kern_kernel_set_block_dim(two, 0));
  ASSERT_EQ(kern_kernel_block_dim(two), cpu ? 1 : 256);
  ASSERT_EQ(kern_kernel_block_dim(NULL), 0);

  /* exactly as many: every element */
  ASSERT_OK(ctx, kern_array_zero(a));
  ASSERT_OK(ctx, kern_launch(two, 2, d3, 1, &arg));
  ASSERT_OK(ctx, kern_array_download(a, out, sizeof out));
  ASSERT_EQ(out[0], 1); ASSERT_EQ(out[1], 2);
  ASSERT_EQ(out[2], 11); ASSERT_EQ(out[3], 12);

  /* fewer (Warp's semantics): the missing dimension has size 1, j is 0 */
  ASSERT_OK(ctx, kern_array_zero(a));
  int64_t d1[1] = {2};
  ASSERT_OK(ctx, kern_launch(two, 1, d1, 1, &arg));
  ASSERT_OK(ctx, kern_array_download(a, out, sizeof out));
  ASSERT_EQ(out[0], 1); ASSERT_EQ(out[1], 0);
  ASSERT_EQ(out[2], 11); ASSERT_EQ(out[3], 0);
  kern_array_free(a);

  /* a lone wp.tid() is the first coordinate of any grid: 2 x 3 threads,
   * three per first coordinate */
  int64_t n2 = 2;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n2, &a));
  ASSERT_OK(ctx, kern_array_zero(a));
  arg = kern_arg_array(a);
  int64_t g23[2] = {2, 3};
  ASSERT_OK(ctx, kern_launch(lone, 2, g23, 1, &arg));
  ASSERT_OK(ctx, kern_array_download(a, out, 2 * sizeof(float)));
  ASSERT_EQ(out[0], 3); ASSERT_EQ(out[1], 3);
  kern_array_free(a);

  /* zero-size arrays: created, copied with 0 bytes, passed to kernels */
  int64_t zero = 0;
  kern_array *z;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &zero, &z));
  ASSERT_EQ(kern_array_size(z), 0);
  ASSERT_EQ(kern_array_nbytes(z), 0);
  ASSERT_EQ(kern_array_dim(z, 0), 0);
  ASSERT_OK(ctx, kern_array_upload(z, NULL, 0));
  ASSERT_OK(ctx, kern_array_download(z, NULL, 0));
  ASSERT_OK(ctx, kern_array_upload(z, out, 0));
  ASSERT_OK(ctx, kern_array_download(z, out, 0));
  ASSERT_OK(ctx, kern_array_zero(z));
  float one = 1;
  ASSERT_OK(ctx, kern_array_fill(z, &one));
  ASSERT_EQ(kern_array_upload(z, out, 4), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  kern_arg args[2] = {kern_arg_array(z), kern_arg_int(7)};
  int64_t g4 = 4;
  ASSERT_OK(ctx, kern_launch(guarded, 1, &g4, 2, args));
  kern_array_free(z);

  int64_t s03[2] = {0, 3};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 2, s03, &z));
  ASSERT_EQ(kern_array_size(z), 0);
  arg = kern_arg_array(z);
  ASSERT_OK(ctx, kern_launch(rows, 1, &g4, 1, &arg));
  kern_array_free(z);

  /* a negative length is refused, naming the axis */
  int64_t bad[2] = {2, -1};
  kern_clear_error(ctx);
  ASSERT_EQ(kern_array_new(ctx, dev, f32, 2, bad, &z),
            KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "axis 1 has a negative length (-1)");

  kern_module_free(m);
  printf("ok   %s\n", what);
}

int main(void) {
  test_setup();
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_device dev;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &dev));
  on(ctx, dev, "cpu");
  static const char *const others[] = {"opencl", "cuda"};
  for (int i = 0; i < 2; i++) {
    kern_clear_error(ctx);
    if (kern_device_find(ctx, others[i], &dev) == KERN_SUCCESS)
      on(ctx, dev, others[i]);
    else
      printf("skip %s: %s\n", others[i], kern_last_error(ctx));
  }
  kern_context_free(ctx);
  printf("runtime_launch_shape: all checks passed\n");
  return 0;
}
