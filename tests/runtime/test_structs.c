/*
 * test_structs.c -- @wp.struct arguments through the C API, on the CPU and
 * on OpenCL and CUDA where they are there.
 *
 * The layout the library reports (kern_kernel_param_field) must be Warp's:
 * the offsets below are those of Warp 1.19's ctypes Structure for the same
 * classes (MyStruct.numpy_dtype() gives the same).  A struct value built
 * from those offsets on the host must read back field for field in the
 * kernel on every backend, so host and device agree on the layout; an
 * array of structs must keep the element size; a struct argument of the
 * wrong size, or of another kind, is refused naming the parameter; and
 * kern_struct_set_array fills Warp's array descriptor.
 */
#include <stddef.h>

#include "test.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.struct\n"
    "class Inner:\n"
    "    v: wp.vec3\n"
    "    k: wp.int8\n"
    "\n"
    "@wp.struct\n"
    "class P:\n"
    "    a: wp.int8\n"
    "    d: wp.float64\n"
    "    v: wp.vec3\n"
    "    b: bool\n"
    "    m: wp.mat22d\n"
    "    inner: Inner\n"
    "    c: wp.uint16\n"
    "\n"
    "@wp.struct\n"
    "class WithArray:\n"
    "    n: int\n"
    "    xs: wp.array(dtype=float)\n"
    "\n"
    "@wp.kernel\n"
    "def read(p: P, items: wp.array(dtype=Inner), out: wp.array(dtype=wp.float64)):\n"
    "    i = wp.tid()\n"
    "    if i == 0:\n"
    "        out[0] = wp.float64(p.a)\n"
    "        out[1] = p.d\n"
    "        out[2] = wp.float64(p.v[2])\n"
    "        out[3] = wp.float64(1.0) if p.b else wp.float64(0.0)\n"
    "        out[4] = p.m[1, 0]\n"
    "        out[5] = wp.float64(p.inner.v[1])\n"
    "        out[6] = wp.float64(p.inner.k)\n"
    "        out[7] = wp.float64(p.c)\n"
    "    items[i].k = items[i].k + wp.int8(i)\n"
    "    items[i].v[1] = p.v[0]\n"
    "\n"
    "@wp.kernel\n"
    "def arr(s: WithArray):\n"
    "    i = wp.tid()\n"
    "    s.xs[i] = s.xs[i] * 2.0 + float(s.n + len(s.xs))\n";

/* Warp 1.19: P.numpy_dtype() offsets and itemsize */
static const struct {
  const char *name;
  size_t offset;
} want_fields[] = {{"a", 0},  {"d", 8},        {"v", 16},
                   {"b", 28}, {"m", 32},       {"inner", 64},
                   {"inner.v", 64}, {"inner.k", 76}, {"c", 80}};
#define P_SIZE 88
#define INNER_SIZE 16

static void put(unsigned char *p, size_t off, const void *v, size_t n) {
  memcpy(p + off, v, n);
}

static void on(kern_context *ctx, kern_device dev, const char *what,
               int opencl) {
  kern_module *m;
  kern_kernel *read, *arr = NULL;
  /* OpenCL refuses structs holding arrays: that kernel goes on its own */
  static const char cut[] = "\n@wp.kernel\ndef arr(";
  size_t len = opencl ? (size_t)(strstr(src, cut) - src) : sizeof src - 1;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "structs.py", src, len, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "read", &read));

  /* the parameter and its fields, as Warp lays them out */
  kern_param_info pi = KERN_PARAM_INFO_INIT;
  ASSERT_OK(ctx, kern_kernel_param(read, 0, &pi));
  ASSERT_EQ(pi.kind, KERN_PARAM_VALUE);
  ASSERT_EQ(pi.type.kind, KERN_KIND_STRUCT);
  ASSERT_EQ(pi.type.rows, P_SIZE);
  ASSERT_EQ(pi.type.cols, 8);
  ASSERT_EQ(kern_type_size(pi.type), P_SIZE);
  ASSERT_TRUE(pi.struct_name && !strcmp(pi.struct_name, "P"));
  int nf = kern_kernel_param_field_count(read, 0);
  ASSERT_EQ(nf, (int)(sizeof want_fields / sizeof want_fields[0]));
  for (int j = 0; j < nf; j++) {
    kern_field_info fi = KERN_FIELD_INFO_INIT;
    ASSERT_OK(ctx, kern_kernel_param_field(read, 0, j, &fi));
    ASSERT_TRUE(!strcmp(fi.name, want_fields[j].name));
    ASSERT_EQ(fi.offset, want_fields[j].offset);
    ASSERT_EQ(fi.depth, strchr(fi.name, '.') ? 1 : 0);
  }
  kern_field_info fi = KERN_FIELD_INFO_INIT;
  ASSERT_OK(ctx, kern_kernel_param_field(read, 0, 4, &fi));
  ASSERT_EQ(fi.type.kind, KERN_KIND_MATRIX);
  ASSERT_EQ(fi.type.scalar, KERN_SCALAR_FLOAT64);
  ASSERT_EQ(fi.size, 32);
  kern_clear_error(ctx);
  ASSERT_EQ(kern_kernel_param_field(read, 0, nf, &fi),
            KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "has 9 struct fields");
  ASSERT_EQ(kern_kernel_param_field_count(read, 2), 0);
  ASSERT_OK(ctx, kern_kernel_param(read, 1, &pi));
  ASSERT_EQ(pi.kind, KERN_PARAM_ARRAY);
  ASSERT_EQ(pi.type.rows, INNER_SIZE);
  ASSERT_TRUE(!strcmp(pi.struct_name, "Inner"));

  /* host bytes at those offsets read back field for field */
  unsigned char p[P_SIZE];
  memset(p, 0, sizeof p);
  int8_t a = -5;
  double d = 2.5, mm[4] = {1, 2, 3, 4};
  float v[3] = {1.5f, 2.5f, 3.5f}, iv[3] = {7, 8, 9};
  uint8_t b = 1;
  int8_t k = 42;
  uint16_t c = 65000;
  put(p, 0, &a, 1);
  put(p, 8, &d, 8);
  put(p, 16, v, 12);
  put(p, 28, &b, 1);
  put(p, 32, mm, 32);
  put(p, 64, iv, 12);
  put(p, 76, &k, 1);
  put(p, 80, &c, 2);
  kern_array *items, *out;
  int64_t n = 4, n8 = 8;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_STRUCT(INNER_SIZE, 4), 1,
                                &n, &items));
  ASSERT_EQ(kern_array_nbytes(items), 4 * INNER_SIZE);
  unsigned char host[4 * INNER_SIZE];
  memset(host, 0, sizeof host);
  for (int i = 0; i < 4; i++) host[i * INNER_SIZE + 12] = (unsigned char)(10 * i);
  ASSERT_OK(ctx, kern_array_upload(items, host, sizeof host));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT64, 1, &n8, &out));
  ASSERT_OK(ctx, kern_array_zero(out));
  kern_arg args[3] = {kern_arg_data(p, sizeof p), kern_arg_array(items),
                      kern_arg_array(out)};
  ASSERT_OK(ctx, kern_launch(read, 1, &n, 3, args));
  double got[8];
  ASSERT_OK(ctx, kern_array_download(out, got, sizeof got));
  double want[8] = {-5, 2.5, 3.5, 1, 3, 8, 42, 65000};
  for (int i = 0; i < 8; i++) ASSERT_EQ(got[i], want[i]);
  ASSERT_OK(ctx, kern_array_download(items, host, sizeof host));
  for (int i = 0; i < 4; i++) {
    float y;
    memcpy(&y, host + i * INNER_SIZE + 4, 4);
    ASSERT_EQ(host[i * INNER_SIZE + 12], 11 * i); /* k += i, rest kept */
    ASSERT_EQ(y, 1.5f);
  }

  /* a struct of the wrong size, or not as bytes: refused, named */
  kern_clear_error(ctx);
  args[0] = kern_arg_data(p, sizeof p - 8);
  ASSERT_EQ(kern_launch(read, 1, &n, 3, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "argument 1 'p' expects P (88 bytes)");
  ASSERT_CONTAINS(kern_last_error(ctx), "got 80 bytes of data");
  kern_clear_error(ctx);
  args[0] = kern_arg_float(1.0);
  ASSERT_EQ(kern_launch(read, 1, &n, 3, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "got a float (kern_arg_float)");
  /* an array of another struct (or of bytes) for the array of Inner */
  kern_array *wrong;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_STRUCT(8, 4), 1, &n,
                                &wrong));
  args[0] = kern_arg_data(p, sizeof p);
  args[1] = kern_arg_array(wrong);
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(read, 1, &n, 3, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "argument 2 'items' expects "
                                        "wp.array(dtype=Inner (16 bytes))");
  kern_array_free(wrong);
  /* struct types that cannot be */
  kern_clear_error(ctx);
  ASSERT_EQ(kern_array_new(ctx, dev, KERN_TYPE_STRUCT(12, 8), 1, &n, &wrong),
            KERN_ERROR_INVALID_ARGUMENT);

  /* an array field: Warp's descriptor, filled by kern_struct_set_array */
  if (!opencl) {
    ASSERT_OK(ctx, kern_module_get_kernel(m, "arr", &arr));
    ASSERT_OK(ctx, kern_kernel_param(arr, 0, &pi));
    ASSERT_EQ(pi.type.rows, 64);
    ASSERT_OK(ctx, kern_kernel_param_field(arr, 0, 1, &fi));
    ASSERT_EQ(fi.kind, KERN_PARAM_ARRAY);
    ASSERT_EQ(fi.offset, 8);
    ASSERT_EQ(fi.size, KERN_STRUCT_ARRAY_SIZE);
    ASSERT_EQ(fi.ndim, 1);
    kern_array *xs;
    float xv[4] = {1, 2, 3, 4};
    ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &xs));
    ASSERT_OK(ctx, kern_array_upload(xs, xv, sizeof xv));
    unsigned char s[64];
    memset(s, 0, sizeof s);
    int32_t nn = 10;
    memcpy(s, &nn, 4);
    ASSERT_OK(ctx, kern_struct_set_array(s + 8, xs));
    int32_t shape0, stride0;
    uint16_t ndim;
    memcpy(&shape0, s + 8 + 16, 4);
    memcpy(&stride0, s + 8 + 32, 4);
    memcpy(&ndim, s + 8 + 48, 2);
    ASSERT_EQ(shape0, 4);
    ASSERT_EQ(stride0, 4);
    ASSERT_EQ(ndim, 1);
    kern_arg sa = kern_arg_data(s, sizeof s);
    ASSERT_OK(ctx, kern_launch(arr, 1, &n, 1, &sa));
    ASSERT_OK(ctx, kern_array_download(xs, xv, sizeof xv));
    for (int i = 0; i < 4; i++) ASSERT_EQ(xv[i], 2.0f * (float)(i + 1) + 14.0f);
    kern_array_free(xs);
  }
  kern_array_free(items);
  kern_array_free(out);
  kern_module_free(m);
  printf("ok   %s\n", what);
}

int main(void) {
  test_setup();
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_device dev;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &dev));
  on(ctx, dev, "cpu", 0);
  static const char *const others[] = {"opencl", "cuda"};
  for (int i = 0; i < 2; i++) {
    kern_clear_error(ctx);
    if (kern_device_find(ctx, others[i], &dev) == KERN_SUCCESS)
      on(ctx, dev, others[i], i == 0);
    else
      printf("skip %s: %s\n", others[i], kern_last_error(ctx));
  }
  /* OpenCL: a struct cannot hold a buffer, and a kernel that takes one
   * does not load */
  kern_clear_error(ctx);
  if (kern_device_find(ctx, "opencl", &dev) == KERN_SUCCESS) {
    kern_array *xs;
    int64_t n = 4;
    unsigned char s[64];
    ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &xs));
    ASSERT_EQ(kern_struct_set_array(s, xs), KERN_ERROR_UNSUPPORTED);
    kern_module *m;
    ASSERT_EQ(kern_module_load_string(ctx, dev, "structs.py", src,
                                      sizeof src - 1, &m),
              KERN_ERROR_UNSUPPORTED);
    ASSERT_CONTAINS(kern_last_error(ctx), "'structs.py': kernel 'arr', "
                    "parameter 's': struct 'WithArray' holds the array field "
                    "'xs', and OpenCL cannot pass arrays inside structs");
    kern_array_free(xs);
  }
  kern_context_free(ctx);
  printf("runtime_structs: all checks passed\n");
  return 0;
}
