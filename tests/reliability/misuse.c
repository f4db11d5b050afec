/*
 * misuse.c -- every public function given what a careless caller passes:
 * NULL handles and out pointers, wrong launch arguments (count, kind, type,
 * dimensions, ranges), arrays of another context or device, bad launch
 * grids, and handles used after kern_*_free.  Each must return a status
 * (never crash) and, where a context is known, leave a message naming the
 * parameter; the tests pin substrings of kern_last_error().
 *
 * Handles are checked against the handle table (Note [handle table] in
 * src/runtime/handle.c), so a NULL, freed or wrong-kind handle is refused
 * with KERN_ERROR_INVALID_HANDLE without reading freed memory; these cases
 * therefore run under ASan and valgrind too.  handles.c covers every order
 * of frees.
 */
#include "test.h"

static const char kSource[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def axpy(a: wp.float32, x: wp.array(dtype=wp.float32),\n"
    "         n: wp.int32, y: wp.array2d(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    y[i, 0] = a * x[i] + wp.float32(n)\n";

/* The call fails with status s and the context's message contains sub;
 * then the error is cleared so the next case starts clean. */
#define EXPECT_ERR(ctx, s, sub, call)                                        \
  do {                                                                       \
    kern_clear_error(ctx);                                                   \
    ASSERT_STATUS(ctx, call, s);                                             \
    ASSERT_CONTAINS(kern_last_error(ctx), sub);                              \
    kern_clear_error(ctx);                                                   \
  } while (0)

/* A NULL or dead handle: no context to hold a message, so the status alone. */
#define EXPECT_INVALID(call) ASSERT_EQ((call), KERN_ERROR_INVALID_HANDLE)

static const kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
static const kern_type f64 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT64, 1, 1};

static void null_handles(kern_context *ctx) {
  kern_array *a = NULL;
  kern_module *m = NULL;
  kern_kernel *k = NULL;
  kern_device dev;
  kern_backend_info bi = KERN_BACKEND_INFO_INIT;
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  kern_param_info pi = KERN_PARAM_INFO_INIT;
  kern_type t;
  char *s = NULL;
  int64_t n = 4;
  float buf[4] = {0};

  ASSERT_EQ(kern_context_new(NULL, NULL), KERN_ERROR_INVALID_ARGUMENT);
  kern_context_free(NULL);
  ASSERT_STREQ(kern_last_error(NULL), "");
  kern_clear_error(NULL);
  EXPECT_INVALID(kern_backend_get(NULL, KERN_BACKEND_CPU, &bi));
  ASSERT_EQ(kern_device_count(NULL), 0);
  EXPECT_INVALID(kern_device_get(NULL, 0, &di));
  EXPECT_INVALID(kern_device_find(NULL, "cpu", &dev));
  EXPECT_INVALID(kern_array_new(NULL, 0, f32, 1, &n, &a));
  EXPECT_INVALID(kern_module_load_file(NULL, 0, "x.py", &m));
  EXPECT_INVALID(kern_module_load_string(NULL, 0, "x", kSource, 3, &m));
  EXPECT_INVALID(kern_compile_source(NULL, "x", kSource, 3, "c", &s));
  EXPECT_INVALID(kern_synchronize(NULL, 0));
  ASSERT_EQ(kern_type_parse(NULL, &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("float32", NULL), KERN_ERROR_INVALID_ARGUMENT);

  kern_array_free(NULL);
  ASSERT_EQ(kern_array_ndim(NULL), 0);
  ASSERT_EQ(kern_array_dim(NULL, 0), 0);
  ASSERT_EQ(kern_array_size(NULL), 0);
  ASSERT_EQ(kern_array_nbytes(NULL), 0);
  ASSERT_EQ(kern_array_device(NULL), -1);
  ASSERT_EQ(kern_array_type(NULL).scalar, KERN_SCALAR_COUNT);
  EXPECT_INVALID(kern_array_upload(NULL, buf, sizeof buf));
  EXPECT_INVALID(kern_array_download(NULL, buf, sizeof buf));
  EXPECT_INVALID(kern_array_fill(NULL, buf));
  EXPECT_INVALID(kern_array_zero(NULL));

  kern_module_free(NULL);
  ASSERT_EQ(kern_module_kernel_count(NULL), 0);
  ASSERT(kern_module_kernel_name(NULL, 0) == NULL);
  EXPECT_INVALID(kern_module_get_kernel(NULL, "axpy", &k));
  ASSERT(kern_kernel_name(NULL) == NULL);
  ASSERT_EQ(kern_kernel_param_count(NULL), 0);
  EXPECT_INVALID(kern_kernel_param(NULL, 0, &pi));
  EXPECT_INVALID(kern_launch(NULL, 1, &n, 0, NULL));
  kern_free(NULL);

  /* NULL out pointers and inputs with a live context: named in the message. */
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "out is NULL",
             kern_backend_get(ctx, KERN_BACKEND_CPU, NULL));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "no backend with kind 7",
             kern_backend_get(ctx, (kern_backend_kind)7, &bi));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "out is NULL",
             kern_device_get(ctx, 0, NULL));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "no device 99",
             kern_device_get(ctx, 99, &di));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "out is NULL",
             kern_device_find(ctx, "cpu", NULL));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "unknown device 'gpu7'",
             kern_device_find(ctx, "gpu7", &dev));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "kern_array_new: out is NULL",
             kern_array_new(ctx, 0, f32, 1, &n, NULL));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "shape is NULL",
             kern_array_new(ctx, 0, f32, 1, NULL, &a));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "no device -1",
             kern_array_new(ctx, -1, f32, 1, &n, &a));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "ndim must be 1 to 4, got 0",
             kern_array_new(ctx, 0, f32, 0, &n, &a));
  int64_t shape5[5] = {1, 1, 1, 1, 1};
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "ndim must be 1 to 4, got 5",
             kern_array_new(ctx, 0, f32, 5, shape5, &a));
  int64_t neg = -3;
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "axis 0 has a negative length (-3)",
             kern_array_new(ctx, 0, f32, 1, &neg, &a));
  kern_type bad = {KERN_KIND_VECTOR, KERN_SCALAR_COUNT, 3, 1};
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "invalid element type",
             kern_array_new(ctx, 0, bad, 1, &n, &a));
  ASSERT(a == NULL); /* outputs are written only on success */
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "out is NULL",
             kern_module_load_string(ctx, 0, "x", kSource, 3, NULL));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "source is NULL",
             kern_module_load_string(ctx, 0, "x", NULL, 3, &m));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "no device 42",
             kern_module_load_string(ctx, 42, "x", kSource, sizeof kSource - 1,
                                     &m));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "path is NULL",
             kern_module_load_file(ctx, 0, NULL, &m));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "out is NULL",
             kern_module_load_file(ctx, 0, "x.py", NULL));
  EXPECT_ERR(ctx, KERN_ERROR_IO, "cannot open '/nonexistent/x.py'",
             kern_module_load_file(ctx, 0, "/nonexistent/x.py", &m));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "out is NULL",
             kern_compile_source(ctx, "x", kSource, 3, "c", NULL));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "target is NULL",
             kern_compile_source(ctx, "x", kSource, 3, NULL, &s));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "unknown target 'metal'",
             kern_compile_source(ctx, "x", kSource, 3, "metal", &s));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "no device 9",
             kern_synchronize(ctx, 9));
  ASSERT(m == NULL && s == NULL);
}

static void array_calls(kern_context *ctx) {
  int64_t n = 4;
  kern_array *a;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 1, &n, &a));
  float buf[4] = {0};
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "src is NULL",
             kern_array_upload(a, NULL, sizeof buf));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "nbytes is 8",
             kern_array_upload(a, buf, 8));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "dst is NULL",
             kern_array_download(a, NULL, sizeof buf));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "nbytes is 20",
             kern_array_download(a, buf, 20));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "value is NULL",
             kern_array_fill(a, NULL));
  ASSERT_EQ(kern_array_dim(a, 1), 0);
  ASSERT_EQ(kern_array_dim(a, -1), 0);
  kern_array_free(a);
}

static void launch_calls(kern_context *ctx, kern_context *other) {
  kern_module *m;
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_load_string(ctx, 0, "misuse.py", kSource,
                                         sizeof kSource - 1, &m));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "name is NULL",
             kern_module_get_kernel(m, NULL, &k));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "out is NULL",
             kern_module_get_kernel(m, "axpy", NULL));
  EXPECT_ERR(ctx, KERN_ERROR_NOT_FOUND, "no kernel 'axpz' (kernels: axpy)",
             kern_module_get_kernel(m, "axpz", &k));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "axpy", &k));
  ASSERT(kern_module_kernel_name(m, 1) == NULL);
  ASSERT(kern_module_kernel_name(m, -1) == NULL);
  kern_param_info pi = KERN_PARAM_INFO_INIT;
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "out is NULL",
             kern_kernel_param(k, 0, NULL));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "there is no parameter 4",
             kern_kernel_param(k, 4, &pi));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "there is no parameter -1",
             kern_kernel_param(k, -1, &pi));

  int64_t n = 8, shape2[2] = {8, 1};
  kern_array *x, *y, *x64, *x2d, *xo;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 2, shape2, &y));
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f64, 1, &n, &x64));
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 2, shape2, &x2d));
  ASSERT_OK(other, kern_array_new(other, 0, f32, 1, &n, &xo));
  ASSERT_OK(ctx, kern_array_zero(x));

  kern_arg ok[4] = {kern_arg_float(2.0), kern_arg_array(x), kern_arg_int(1),
                    kern_arg_array(y)};
  kern_arg args[4];
#define WITH(i, v) (memcpy(args, ok, sizeof ok), args[i] = (v), args)

  /* The grid. */
  int64_t dims[5] = {8, 1, 1, 1, 1};
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "ndim must be 1 to 4, got 0",
             kern_launch(k, 0, dims, 4, ok));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "ndim must be 1 to 4, got 5",
             kern_launch(k, 5, dims, 4, ok));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "ndim must be 1 to 4, got -1",
             kern_launch(k, -1, dims, 4, ok));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "dims is NULL",
             kern_launch(k, 1, NULL, 4, ok));
  int64_t zero = 0, negd = -5, big = (int64_t)INT32_MAX + 1;
  ASSERT_OK(ctx, kern_launch(k, 1, &zero, 4, ok)); /* empty: empty_grid() */
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT,
             "dims[0] must not be negative, got -5",
             kern_launch(k, 1, &negd, 4, ok));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "dims[0] = 2147483648 exceeds",
             kern_launch(k, 1, &big, 4, ok));
  int64_t d2[2] = {8, -1};
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "dims[1] must not be negative",
             kern_launch(k, 2, d2, 4, ok));
  int64_t huge[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "grid size overflows",
             kern_launch(k, 3, huge, 4, ok));

  /* Argument count. */
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT,
             "expects 4 arguments (a, x, n, y), got 3",
             kern_launch(k, 1, &n, 3, ok));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "got -2",
             kern_launch(k, 1, &n, -2, ok));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "got 0",
             kern_launch(k, 1, &n, 0, NULL));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "args is NULL",
             kern_launch(k, 1, &n, 4, NULL));

  /* Argument kinds and types. */
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH,
             "argument 2 'x' expects wp.array(dtype=float32), got an integer",
             kern_launch(k, 1, &n, 4, WITH(1, kern_arg_int(3))));
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH,
             "argument 2 'x' expects wp.array(dtype=float32), got a NULL array",
             kern_launch(k, 1, &n, 4, WITH(1, kern_arg_array(NULL))));
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH,
             "argument 2 'x' expects wp.array(dtype=float32), got an array of "
             "float64",
             kern_launch(k, 1, &n, 4, WITH(1, kern_arg_array(x64))));
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH,
             "argument 2 'x' expects wp.array(dtype=float32), got a 2-d array",
             kern_launch(k, 1, &n, 4, WITH(1, kern_arg_array(x2d))));
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH,
             "argument 4 'y' expects wp.array(dtype=float32, ndim=2), got an "
             "array of float32",
             kern_launch(k, 1, &n, 4, WITH(3, kern_arg_array(x))));
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH, "argument 1 'a' expects float32, got an array",
             kern_launch(k, 1, &n, 4, WITH(0, kern_arg_array(x))));
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH, "argument 3 'n' expects int32, got a float",
             kern_launch(k, 1, &n, 4, WITH(2, kern_arg_float(1.5))));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT,
             "argument 3 'n': 4294967296 is out of range for int32",
             kern_launch(k, 1, &n, 4, WITH(2, kern_arg_int((int64_t)1 << 32))));
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT,
             "argument 1 'a': 1e+300 is out of range for float32",
             kern_launch(k, 1, &n, 4, WITH(0, kern_arg_float(1e300))));
  double dd = 1.0;
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH,
             "argument 1 'a' expects float32, got 8 bytes of data",
             kern_launch(k, 1, &n, 4, WITH(0, kern_arg_data(&dd, sizeof dd))));
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH, "argument 1 'a' expects float32, got 4 bytes",
             kern_launch(k, 1, &n, 4, WITH(0, kern_arg_data(NULL, 4))));
  kern_arg weird = kern_arg_int(0);
  weird.kind = (kern_arg_kind)99;
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH, "argument 3 'n' expects int32, got an argument of unknown kind 99",
             kern_launch(k, 1, &n, 4, WITH(2, weird)));
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH, "argument 2 'x' expects wp.array(dtype=float32), got an argument of unknown kind 99",
             kern_launch(k, 1, &n, 4, WITH(1, weird)));

  /* An array of another context. */
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT,
             "argument 2 'x' belongs to another context",
             kern_launch(k, 1, &n, 4, WITH(1, kern_arg_array(xo))));
  /* An array on another device: OpenCL, when this machine has it. */
  kern_device ocl;
  if (kern_device_find(ctx, "opencl", &ocl) == KERN_SUCCESS) {
    kern_array *xc;
    ASSERT_OK(ctx, kern_array_new(ctx, ocl, f32, 1, &n, &xc));
    EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT,
               "argument 2 'x' is on device opencl:0 but the kernel was built "
               "for cpu:0",
               kern_launch(k, 1, &n, 4, WITH(1, kern_arg_array(xc))));
    kern_array_free(xc);
  } else {
    printf("no OpenCL device: cross-device case skipped\n");
    kern_clear_error(ctx);
  }

  /* Everything right: it runs, and the earlier failures changed nothing. */
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 4, ok));
  float out[8];
  ASSERT_OK(ctx, kern_array_download(y, out, sizeof out));
  for (int i = 0; i < 8; i++) ASSERT(out[i] == 1.0f);

  /* Use after free (Note [handle table]); see the top of the file. */
  kern_array_free(x64);
  EXPECT_INVALID(kern_array_upload(x64, out, sizeof out));
  EXPECT_INVALID(kern_array_zero(x64));
  ASSERT_EQ(kern_array_size(x64), 0);
  kern_array_free(x64); /* double free: ignored */
  kern_array_free(x);
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_HANDLE,
             "argument 2 'x' is not a live array (already freed?)",
             kern_launch(k, 1, &n, 4, ok));
  kern_module_free(m);
  EXPECT_INVALID(kern_launch(k, 1, &n, 4, ok));
  EXPECT_INVALID(kern_kernel_param(k, 0, &pi));
  ASSERT(kern_kernel_name(k) == NULL);
  kern_module_free(m); /* double free: ignored */
  /* A handle of one kind passed as another is refused the same way. */
  EXPECT_INVALID(kern_array_zero((kern_array *)other));
  EXPECT_INVALID(kern_array_zero((kern_array *)ctx));
  EXPECT_INVALID(kern_device_find((kern_context *)y, "cpu", &(kern_device){0}));
  /* And so is a value that was never a handle. */
  EXPECT_INVALID(kern_array_zero((kern_array *)(uintptr_t)0x12345678));
  printf("use-after-free cases checked\n");
}

/* An empty grid (a dims[i] of 0, in any axis) runs nothing and succeeds, as
 * wp.launch does; its arguments are still checked. */
static void empty_grid(kern_context *ctx) {
  static const char src[] =
      "import warp as wp\n\n@wp.kernel\n"
      "def mark(x: wp.array(dtype=wp.float32)):\n"
      "    i = wp.tid()\n"
      "    x[0] = 7.0\n";
  kern_module *m;
  kern_kernel *k;
  kern_array *x;
  int64_t one = 1;
  ASSERT_OK(ctx, kern_module_load_string(ctx, 0, "empty.py", src,
                                         sizeof src - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "mark", &k));
  ASSERT_OK(ctx, kern_array_new(ctx, 0, KERN_TYPE_FLOAT32, 1, &one, &x));
  ASSERT_OK(ctx, kern_array_zero(x));
  kern_arg arg = kern_arg_array(x);
  int64_t grids[][4] = {{0, 0, 0, 0}, {5, 0, 0, 0}, {0, 5, 0, 0},
                        {5, 5, 0, 0}, {5, 5, 5, 0}};
  int nd[] = {1, 2, 2, 3, 4};
  for (size_t g = 0; g < sizeof nd / sizeof nd[0]; g++)
    ASSERT_OK(ctx, kern_launch(k, nd[g], grids[g], 1, &arg));
  /* The largest axis with another of zero: no overflow, still empty. */
  int64_t wide[3] = {INT32_MAX, 0, INT32_MAX};
  ASSERT_OK(ctx, kern_launch(k, 3, wide, 1, &arg));
  float v = -1;
  ASSERT_OK(ctx, kern_array_download(x, &v, sizeof v));
  ASSERT(v == 0.0f); /* nothing ran */
  EXPECT_ERR(ctx, KERN_ERROR_INVALID_ARGUMENT, "expects 1 argument (x), got 0",
             kern_launch(k, 1, grids[0], 0, NULL));
  kern_arg bad = kern_arg_int(1);
  EXPECT_ERR(ctx, KERN_ERROR_TYPE_MISMATCH, "got an integer",
             kern_launch(k, 1, grids[0], 1, &bad));
  /* And the same kernel with a real grid does run. */
  ASSERT_OK(ctx, kern_launch(k, 1, &one, 1, &arg));
  ASSERT_OK(ctx, kern_array_download(x, &v, sizeof v));
  ASSERT(v == 7.0f);
  kern_module_free(m);
  kern_array_free(x);
}

/* kern_last_error reports the most recent failing call; successes and
 * calls on dead handles leave it; kern_clear_error clears it. */
static void error_recency(kern_context *ctx) {
  int64_t n = 4;
  kern_array *a, *dead;
  float buf[4] = {0};
  kern_device dev;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 1, &n, &a));
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 1, &n, &dead));
  kern_array_free(dead);
  kern_clear_error(ctx);
  ASSERT_STREQ(kern_last_error(ctx), "");

  ASSERT_EQ(kern_device_find(ctx, "gpu7", &dev), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "unknown device 'gpu7'");
  /* Successes leave it. */
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &dev));
  ASSERT_OK(ctx, kern_array_upload(a, buf, sizeof buf));
  ASSERT_CONTAINS(kern_last_error(ctx), "unknown device 'gpu7'");
  /* A later failure replaces it, also one on a handle made from ctx. */
  ASSERT_EQ(kern_array_upload(a, buf, 8), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "nbytes is 8");
  ASSERT(!strstr(kern_last_error(ctx), "gpu7"));
  /* A dead handle has no context: the message stays. */
  ASSERT_EQ(kern_array_zero(dead), KERN_ERROR_INVALID_HANDLE);
  ASSERT_CONTAINS(kern_last_error(ctx), "nbytes is 8");
  /* A compile error replaces it with the compiler's diagnostic. */
  kern_module *m = NULL;
  static const char bad[] =
      "import warp as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n"
      "    x[0] = nope\n";
  ASSERT_EQ(kern_module_load_string(ctx, 0, "bad.py", bad, sizeof bad - 1, &m),
            KERN_ERROR_COMPILE);
  ASSERT_CONTAINS(kern_last_error(ctx), "bad.py:5:");
  ASSERT(m == NULL);
  /* And the next failure replaces that. */
  ASSERT(kern_device_find(ctx, "opencl:99", &dev) != KERN_SUCCESS);
  ASSERT(!strstr(kern_last_error(ctx), "bad.py"));
  ASSERT_CONTAINS(kern_last_error(ctx), "opencl:99");
  kern_clear_error(ctx);
  ASSERT_STREQ(kern_last_error(ctx), "");
  kern_array_free(a);
}

int main(void) {
  test_setup();
  kern_context *ctx, *other;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  ASSERT_OK(NULL, kern_context_new(NULL, &other));
  null_handles(ctx);
  array_calls(ctx);
  launch_calls(ctx, other);
  empty_grid(ctx);
  error_recency(ctx);
  kern_context_free(other);
  kern_context_free(ctx);
  /* The context's own handle after free, and a double free of it. */
  EXPECT_INVALID(kern_array_new(ctx, 0, f32, 1, &(int64_t){1}, &(kern_array *){0}));
  ASSERT_STREQ(kern_last_error(ctx), "");
  kern_context_free(ctx);
  printf("misuse: ok\n");
  return 0;
}
