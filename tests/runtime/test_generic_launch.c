/*
 * test_generic_launch.c -- generic kernels instantiated at launch
 * (runtime/generic.c), on the CPU and on OpenCL and CUDA where they are.
 *
 * The source names no wp.overload for `scale` and one for `fill`: the
 * launch arguments pick the instantiation (an array's element type and
 * dimensions, int32 for an int, float32 for a float), it is compiled once
 * and the same types give the same handle; an existing overload is reused;
 * arguments that fit no instantiation are refused with the parameter's
 * name; and the instantiation's kernel runs like any other.
 */
#include "test.h"

static const char src[] =
    "import warp as wp\n"
    "from typing import Any\n"
    "\n"
    "@wp.kernel\n"
    "def scale(a: wp.array(dtype=Any), s: Any, n: wp.int64):\n"
    "    i = wp.tid()\n"
    "    a[i] = a[i] * s + type(s)(n)\n"
    "\n"
    "@wp.kernel\n"
    "def fill(a: wp.array(dtype=Any), v: Any):\n"
    "    i = wp.tid()\n"
    "    a[i] = v\n"
    "\n"
    "@wp.kernel\n"
    "def total(a: wp.array2d(dtype=Any), out: wp.array(dtype=Any)):\n"
    "    i, j = wp.tid()\n"
    "    wp.atomic_add(out, 0, a[i, j])\n"
    "\n"
    "@wp.kernel\n"
    "def plain(a: wp.array(dtype=float)):\n"
    "    a[wp.tid()] = 1.0\n"
    "\n"
    "wp.overload(fill, [wp.array(dtype=float), float])\n";

static void on(kern_context *ctx, kern_device dev, const char *what) {
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "gl.py", src,
                                         sizeof src - 1, &m));
  ASSERT_EQ(kern_module_kernel_count(m), 2); /* fill[...] and plain */

  /* the declared parameters */
  ASSERT_EQ(kern_module_generic_param_count(m, "scale"), 3);
  ASSERT_EQ(kern_module_generic_param_count(m, "plain"), -1);
  ASSERT_EQ(kern_module_generic_param_count(m, "nope"), -1);
  kern_param_info p = KERN_PARAM_INFO_INIT;
  ASSERT_OK(ctx, kern_module_generic_param(m, "scale", 0, &p));
  ASSERT_STREQ(p.name, "a");
  ASSERT_EQ(p.kind, KERN_PARAM_ARRAY);
  ASSERT_EQ(p.ndim, 1);
  ASSERT_EQ(p.type.scalar, KERN_SCALAR_COUNT);
  ASSERT_OK(ctx, kern_module_generic_param(m, "scale", 2, &p));
  ASSERT_EQ(p.type.scalar, KERN_SCALAR_INT64);
  kern_clear_error(ctx);
  ASSERT_EQ(kern_module_generic_param(m, "scale", 3, &p),
            KERN_ERROR_INVALID_ARGUMENT);

  /* float64 array, float via a typed value: from launch arguments the
   * float would be float32, so ask by types */
  int64_t n = 5;
  kern_array *ad, *af;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT64, 1, &n, &ad));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &af));
  double one_d[5] = {1, 2, 3, 4, 5};
  float one_f[5] = {1, 2, 3, 4, 5};
  ASSERT_OK(ctx, kern_array_upload(ad, one_d, sizeof one_d));
  ASSERT_OK(ctx, kern_array_upload(af, one_f, sizeof one_f));

  kern_param_info t[3] = {KERN_PARAM_INFO_INIT, KERN_PARAM_INFO_INIT,
                          KERN_PARAM_INFO_INIT};
  t[0].kind = KERN_PARAM_ARRAY;
  t[0].type = KERN_TYPE_FLOAT64;
  t[0].ndim = 1;
  t[1].kind = KERN_PARAM_VALUE;
  t[1].type = KERN_TYPE_FLOAT64;
  t[2].kind = KERN_PARAM_VALUE;
  t[2].type = KERN_TYPE_SCALAR(KERN_SCALAR_COUNT); /* the declared int64 */
  kern_kernel *kd, *kd2;
  ASSERT_OK(ctx, kern_module_instantiate_types(m, "scale", 3, t, &kd));
  ASSERT_STREQ(kern_kernel_name(kd), "scale[array(dtype=float64),float64,int64]");
  ASSERT_OK(ctx, kern_module_instantiate_types(m, "scale", 3, t, &kd2));
  ASSERT_TRUE(kd == kd2); /* compiled once */
  double s = 2.0;
  kern_arg da[3] = {kern_arg_array(ad), kern_arg_data(&s, sizeof s),
                    kern_arg_int(10)};
  ASSERT_OK(ctx, kern_launch(kd, 1, &n, 3, da));
  double got_d[5];
  ASSERT_OK(ctx, kern_array_download(ad, got_d, sizeof got_d));
  for (int i = 0; i < 5; i++) ASSERT_DBL_EQ(got_d[i], one_d[i] * 2 + 10);

  /* from launch arguments: float32 array and a float (float32) */
  kern_arg fa[3] = {kern_arg_array(af), kern_arg_float(0.5), kern_arg_int(1)};
  kern_kernel *kf, *kf2;
  ASSERT_OK(ctx, kern_module_instantiate(m, "scale", 3, fa, &kf));
  ASSERT_STREQ(kern_kernel_name(kf), "scale[array(dtype=float32),float32,int64]");
  ASSERT_TRUE(kf != kd);
  ASSERT_OK(ctx, kern_module_instantiate(m, "scale", 3, fa, &kf2));
  ASSERT_TRUE(kf == kf2);
  ASSERT_OK(ctx, kern_launch(kf, 1, &n, 3, fa));
  float got_f[5];
  ASSERT_OK(ctx, kern_array_download(af, got_f, sizeof got_f));
  for (int i = 0; i < 5; i++) ASSERT_DBL_EQ(got_f[i], one_f[i] * 0.5f + 1);

  /* the source's own overload is reused, not compiled again */
  kern_kernel *kfill, *kown;
  kern_arg fill_args[2] = {kern_arg_array(af), kern_arg_float(7.0)};
  ASSERT_OK(ctx, kern_module_instantiate(m, "fill", 2, fill_args, &kfill));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "fill[array(dtype=float32),float32]",
                                        &kown));
  ASSERT_TRUE(kfill == kown);

  /* a 2-d array and an int32 array: integers add exactly */
  int64_t sh[2] = {3, 4};
  kern_array *a2, *out;
  int64_t one = 1;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 2, sh, &a2));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &one, &out));
  int32_t v = 3;
  ASSERT_OK(ctx, kern_array_fill(a2, &v));
  ASSERT_OK(ctx, kern_array_zero(out));
  kern_arg ta[2] = {kern_arg_array(a2), kern_arg_array(out)};
  kern_kernel *kt;
  ASSERT_OK(ctx, kern_module_instantiate(m, "total", 2, ta, &kt));
  ASSERT_OK(ctx, kern_launch(kt, 2, sh, 2, ta));
  int32_t sum;
  ASSERT_OK(ctx, kern_array_download(out, &sum, sizeof sum));
  ASSERT_EQ(sum, 36);

  /* an ordinary kernel is itself */
  kern_kernel *kp, *kp2;
  ASSERT_OK(ctx, kern_module_instantiate(m, "plain", 1, fill_args, &kp));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "plain", &kp2));
  ASSERT_TRUE(kp == kp2);

  /* misfits name the parameter */
  kern_clear_error(ctx);
  kern_arg bad[2] = {kern_arg_array(af), kern_arg_array(out)}; /* 1-d, not 2-d */
  ASSERT_EQ(kern_module_instantiate(m, "total", 2, bad, &kt),
            KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "parameter 1 'a' of 'total'");
  kern_clear_error(ctx);
  kern_arg raw[3] = {kern_arg_array(af), kern_arg_data(&s, sizeof s),
                     kern_arg_int(1)};
  ASSERT_EQ(kern_module_instantiate(m, "scale", 3, raw, &kt),
            KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "argument 2 's' of 'scale'");
  kern_clear_error(ctx);
  t[2].type = KERN_TYPE_FLOAT32; /* n is declared int64 */
  ASSERT_EQ(kern_module_instantiate_types(m, "scale", 3, t, &kt),
            KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "parameter 3 'n' of 'scale' is not generic");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_module_instantiate(m, "scale", 2, fa, &kt),
            KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "has 3 parameters");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_module_instantiate(m, "nope", 2, fa, &kt), KERN_ERROR_NOT_FOUND);
  /* a value type the body cannot take: the compiler's error, with the
   * instantiation it was compiling */
  kern_clear_error(ctx);
  kern_arg bools[2] = {kern_arg_array(af), kern_arg_int(1)};
  ASSERT_EQ(kern_module_instantiate(m, "fill", 2, bools, &kt),
            KERN_ERROR_COMPILE);
  ASSERT_CONTAINS(kern_last_error(ctx), "instantiating the generic kernel 'fill'");

  kern_array_free(ad);
  kern_array_free(af);
  kern_array_free(a2);
  kern_array_free(out);
  kern_module_free(m);
  /* the instantiations went with the module */
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(kf, 1, &n, 3, fa), KERN_ERROR_INVALID_HANDLE);
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
  /* a context freed with a module and its instantiations still loaded */
  kern_module *m;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &dev));
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "gl.py", src,
                                         sizeof src - 1, &m));
  kern_kernel *k;
  kern_param_info t[2] = {KERN_PARAM_INFO_INIT, KERN_PARAM_INFO_INIT};
  t[0].kind = KERN_PARAM_ARRAY;
  t[0].type = KERN_TYPE_VEC3;
  t[0].ndim = 1;
  t[1].type = KERN_TYPE_VEC3;
  ASSERT_OK(ctx, kern_module_instantiate_types(m, "fill", 2, t, &k));
  ASSERT_STREQ(kern_kernel_name(k), "fill[array(dtype=vec3),vec3]");
  kern_context_free(ctx);
  printf("runtime_generic_launch: all checks passed\n");
  return 0;
}
