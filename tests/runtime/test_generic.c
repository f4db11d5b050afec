/*
 * test_generic.c -- generic kernels through the C API, on the CPU and on
 * OpenCL and CUDA where they are there.
 *
 * A kernel with typing.Any parameters is in the module once per
 * wp.overload() in its source, named NAME[T1,T2,...]
 * (lower/check_generic.c).  The bare name is not a kernel: asking for it
 * says that it is generic and lists the instantiations, and each of them
 * is got, described and launched like any other kernel.
 */
#include "test.h"

static const char src[] =
    "import warp as wp\n"
    "from typing import Any\n"
    "\n"
    "@wp.kernel\n"
    "def fill(a: wp.array(dtype=Any), v: Any):\n"
    "    i = wp.tid()\n"
    "    a[i] = v + type(v)(i)\n"
    "\n"
    "wp.overload(fill, [wp.array(dtype=int), int])\n"
    "wp.overload(fill, {'a': wp.array(dtype=float), 'v': float})\n";

static void on(kern_context *ctx, kern_device dev, const char *what) {
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "generic.py", src,
                                         sizeof src - 1, &m));
  ASSERT_EQ(kern_module_kernel_count(m), 2);
  ASSERT_STREQ(kern_module_kernel_name(m, 0), "fill[array(dtype=int32),int32]");
  ASSERT_STREQ(kern_module_kernel_name(m, 1),
               "fill[array(dtype=float32),float32]");

  kern_kernel *k;
  kern_clear_error(ctx);
  ASSERT_EQ(kern_module_get_kernel(m, "fill", &k), KERN_ERROR_NOT_FOUND);
  ASSERT_CONTAINS(kern_last_error(ctx), "'fill' is a generic kernel");
  ASSERT_CONTAINS(kern_last_error(ctx), "fill[array(dtype=float32),float32]");

  ASSERT_OK(ctx, kern_module_get_kernel(m, "fill[array(dtype=float32),float32]",
                                        &k));
  kern_param_info p = KERN_PARAM_INFO_INIT;
  ASSERT_OK(ctx, kern_kernel_param(k, 1, &p));
  ASSERT_EQ(p.kind, KERN_PARAM_VALUE);
  ASSERT_EQ(p.type.scalar, KERN_SCALAR_FLOAT32);

  kern_array *a;
  int64_t n = 4;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &a));
  kern_arg args[2] = {kern_arg_array(a), kern_arg_float(0.5)};
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 2, args));
  float got[4];
  ASSERT_OK(ctx, kern_array_download(a, got, sizeof got));
  for (int i = 0; i < 4; i++)
    ASSERT_DBL_EQ(got[i], 0.5 + i);

  /* the int32 instantiation refuses the float32 array */
  ASSERT_OK(ctx, kern_module_get_kernel(m, "fill[array(dtype=int32),int32]", &k));
  kern_arg iargs[2] = {kern_arg_array(a), kern_arg_int(3)};
  kern_clear_error(ctx);
  ASSERT_NE(kern_launch(k, 1, &n, 2, iargs), KERN_SUCCESS);

  kern_array_free(a);
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
  printf("runtime_generic: all checks passed\n");
  return 0;
}
