/*
 * Interop and device choice: wrapped foreign memory, raw pointers, DLPack
 * round trips (strides and byte offsets honoured or refused), and the
 * default device from $KERN_DEVICE and the config file with line numbers.
 */
#include <dlpack/dlpack.h>
#include "test.h"

static const kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
static const kern_type i16 = {KERN_KIND_SCALAR, KERN_SCALAR_INT16, 1, 1};
static const kern_type vec3 = {KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 3, 1};

static const char src[] =
    "import warp as wp\n"
    "@wp.kernel\n"
    "def twice(x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = x[i] * 2.0\n";

static int deleted;
static void count_delete(DLManagedTensor *t) { deleted++; (void)t; }

static void test_wrap(kern_context *ctx, kern_kernel *k) {
  float host[64];
  for (int i = 0; i < 64; i++) host[i] = (float)i;
  int64_t n = 64;
  kern_array *a;
  ASSERT_OK(ctx, kern_array_wrap(ctx, 0, f32, 1, &n, host, &a));
  ASSERT(kern_array_native(a) == host);
  kern_arg arg = kern_arg_array(a);
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 1, &arg));
  for (int i = 0; i < 64; i++) ASSERT(host[i] == 2.0f * i); /* in place */
  kern_array_free(a); /* does not free host[] */
  ASSERT_EQ(kern_array_wrap(ctx, 0, f32, 1, &n, NULL, &a),
            KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
}

static void test_dlpack(kern_context *ctx, kern_kernel *k) {
  /* Export: a 2-D float32 array; the tensor aliases kern's memory. */
  int64_t shape[2] = {4, 8};
  kern_array *a;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 2, shape, &a));
  float v = 1.5f;
  ASSERT_OK(ctx, kern_array_fill(a, &v));
  void *p;
  ASSERT_OK(ctx, kern_array_to_dlpack(a, &p));
  DLManagedTensor *t = p;
  ASSERT_EQ(t->dl_tensor.device.device_type, kDLCPU);
  ASSERT_EQ(t->dl_tensor.ndim, 2);
  ASSERT_EQ(t->dl_tensor.shape[0], 4);
  ASSERT_EQ(t->dl_tensor.shape[1], 8);
  ASSERT_EQ(t->dl_tensor.strides[0], 8);
  ASSERT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  ASSERT_EQ(t->dl_tensor.dtype.bits, 32);
  ASSERT(t->dl_tensor.data == kern_array_native(a));
  /* Round trip: import the exported tensor and launch on it. */
  kern_array *b;
  ASSERT_OK(ctx, kern_array_from_dlpack(ctx, t, &b));
  ASSERT_EQ(kern_array_ndim(b), 2);
  ASSERT_EQ(kern_array_dim(b, 1), 8);
  int64_t n = 32;
  kern_array *flat;
  ASSERT_OK(ctx, kern_array_wrap(ctx, 0, f32, 1, &n, kern_array_native(b), &flat));
  kern_arg arg = kern_arg_array(flat);
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 1, &arg));
  float out[32];
  ASSERT_OK(ctx, kern_array_download(a, out, sizeof out)); /* same memory */
  for (int i = 0; i < 32; i++) ASSERT(out[i] == 3.0f);
  kern_array_free(flat);
  kern_array_free(b); /* calls the export's deleter */
  kern_array_free(a);

  /* Vector arrays export their components as a trailing axis. */
  kern_array *vv;
  int64_t three = 5;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, vec3, 1, &three, &vv));
  ASSERT_OK(ctx, kern_array_to_dlpack(vv, &p));
  t = p;
  ASSERT_EQ(t->dl_tensor.ndim, 2);
  ASSERT_EQ(t->dl_tensor.shape[1], 3);
  t->deleter(t);
  kern_array_free(vv);

  /* Import of foreign memory: byte_offset honoured, deleter called once. */
  static int16_t data[2 + 6];
  for (int i = 0; i < 8; i++) data[i] = (int16_t)(100 + i);
  int64_t fshape[2] = {2, 3};
  DLManagedTensor m;
  memset(&m, 0, sizeof m);
  m.dl_tensor.data = data;
  m.dl_tensor.device.device_type = kDLCPU;
  m.dl_tensor.ndim = 2;
  m.dl_tensor.dtype.code = kDLInt;
  m.dl_tensor.dtype.bits = 16;
  m.dl_tensor.dtype.lanes = 1;
  m.dl_tensor.shape = fshape;
  m.dl_tensor.byte_offset = 2 * sizeof(int16_t);
  m.deleter = count_delete;
  kern_array *c;
  ASSERT_OK(ctx, kern_array_from_dlpack(ctx, &m, &c));
  int16_t got[6];
  ASSERT_OK(ctx, kern_array_download(c, got, sizeof got));
  for (int i = 0; i < 6; i++) ASSERT_EQ(got[i], 102 + i);
  ASSERT_EQ(kern_array_type(c).scalar, i16.scalar);
  ASSERT_EQ(kern_array_type(c).kind, i16.kind);
  deleted = 0;
  kern_array_free(c);
  ASSERT_EQ(deleted, 1);

  /* Non-contiguous strides are refused with the axis named; so are
   * unknown devices and types.  Nothing is wrapped, the deleter not run. */
  int64_t strides[2] = {1, 2}; /* column-major */
  m.dl_tensor.strides = strides;
  ASSERT_EQ(kern_array_from_dlpack(ctx, &m, &c), KERN_ERROR_UNSUPPORTED);
  ASSERT_CONTAINS(kern_last_error(ctx), "axis 1 has stride 2 elements");
  kern_clear_error(ctx);
  int64_t ok_strides[2] = {3, 1};
  m.dl_tensor.strides = ok_strides;
  ASSERT_OK(ctx, kern_array_from_dlpack(ctx, &m, &c));
  kern_array_free(c);
  m.dl_tensor.device.device_type = kDLVulkan;
  ASSERT_EQ(kern_array_from_dlpack(ctx, &m, &c), KERN_ERROR_UNSUPPORTED);
  kern_clear_error(ctx);
  m.dl_tensor.device.device_type = kDLCPU;
  m.dl_tensor.dtype.lanes = 4;
  ASSERT_EQ(kern_array_from_dlpack(ctx, &m, &c), KERN_ERROR_UNSUPPORTED);
  ASSERT_CONTAINS(kern_last_error(ctx), "4 lanes");
  kern_clear_error(ctx);
  ASSERT_EQ(deleted, 2);
}

/* DLPack 1.x's DLManagedTensorVersioned, declared from the specification
 * (dlpack.h 0.6 lacks it), as a consumer or producer would see it. */
typedef struct {
  struct { uint32_t major, minor; } version;
  void *manager_ctx;
  void (*deleter)(void *self);
  uint64_t flags;
  DLTensor dl_tensor;
} dl_versioned;

static int deleted_v;
static void count_delete_v(void *t) { deleted_v++; (void)t; }

static void test_dlpack_versioned(kern_context *ctx, kern_kernel *k) {
  /* Export: version 1.0, no flags, the same tensor as the unversioned. */
  int64_t shape[2] = {3, 5};
  kern_array *a;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 2, shape, &a));
  float v = 2.5f;
  ASSERT_OK(ctx, kern_array_fill(a, &v));
  void *p;
  ASSERT_OK(ctx, kern_array_to_dlpack_versioned(a, &p));
  dl_versioned *t = p;
  ASSERT_EQ(t->version.major, 1);
  ASSERT_EQ(t->version.minor, 0);
  ASSERT_EQ(t->flags, 0);
  ASSERT_EQ(t->dl_tensor.device.device_type, kDLCPU);
  ASSERT_EQ(t->dl_tensor.ndim, 2);
  ASSERT_EQ(t->dl_tensor.shape[1], 5);
  ASSERT_EQ(t->dl_tensor.strides[0], 5);
  ASSERT_EQ(t->dl_tensor.byte_offset, 0);
  ASSERT(t->dl_tensor.data == kern_array_native(a));
  /* Round trip through the versioned import; the deleter runs on free. */
  kern_array *b;
  ASSERT_OK(ctx, kern_array_from_dlpack_versioned(ctx, t, &b));
  ASSERT_EQ(kern_array_dim(b, 0), 3);
  kern_array_free(b);
  kern_array_free(a);

  /* Foreign memory with a byte offset; a later minor version is read. */
  static float data[4 + 6];
  for (int i = 0; i < 10; i++) data[i] = (float)i;
  int64_t fshape[1] = {6};
  dl_versioned m;
  memset(&m, 0, sizeof m);
  m.version.major = 1;
  m.version.minor = 3;
  m.dl_tensor.data = data;
  m.dl_tensor.device.device_type = kDLCPU;
  m.dl_tensor.ndim = 1;
  m.dl_tensor.dtype.code = kDLFloat;
  m.dl_tensor.dtype.bits = 32;
  m.dl_tensor.dtype.lanes = 1;
  m.dl_tensor.shape = fshape;
  m.dl_tensor.byte_offset = 4 * sizeof(float);
  m.deleter = count_delete_v;
  kern_array *c;
  ASSERT_OK(ctx, kern_array_from_dlpack_versioned(ctx, &m, &c));
  int64_t n = 6;
  kern_arg arg = kern_arg_array(c);
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 1, &arg));
  for (int i = 0; i < 4; i++) ASSERT(data[i] == (float)i); /* untouched */
  for (int i = 4; i < 10; i++) ASSERT(data[i] == 2.0f * i);
  deleted_v = 0;
  kern_array_free(c);
  ASSERT_EQ(deleted_v, 1);
  /* Another major version, and read-only tensors, are refused before
   * anything is wrapped; the deleter is not run. */
  m.version.major = 2;
  ASSERT_EQ(kern_array_from_dlpack_versioned(ctx, &m, &c),
            KERN_ERROR_UNSUPPORTED);
  ASSERT_CONTAINS(kern_last_error(ctx), "DLPack 2.3; kern reads major version 1");
  kern_clear_error(ctx);
  m.version.major = 1;
  m.flags = 1; /* DLPACK_FLAG_BITMASK_READ_ONLY */
  ASSERT_EQ(kern_array_from_dlpack_versioned(ctx, &m, &c),
            KERN_ERROR_UNSUPPORTED);
  ASSERT_CONTAINS(kern_last_error(ctx), "read-only");
  kern_clear_error(ctx);
  m.flags = 2; /* IS_COPIED: fine */
  int64_t bad[1] = {2};
  m.dl_tensor.strides = bad;
  ASSERT_EQ(kern_array_from_dlpack_versioned(ctx, &m, &c),
            KERN_ERROR_UNSUPPORTED);
  ASSERT_CONTAINS(kern_last_error(ctx), "axis 0 has stride 2 elements");
  kern_clear_error(ctx);
  ASSERT_EQ(deleted_v, 1);
  ASSERT_EQ(kern_array_from_dlpack_versioned(ctx, NULL, &c),
            KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ASSERT(f);
  fputs(text, f);
  fclose(f);
}

static void test_config(void) {
  char dir[400], path[500];
  snprintf(dir, sizeof dir, "%s/xdg", test_tmp);
  ASSERT(mkdir(dir, 0700) == 0);
  snprintf(path, sizeof path, "%s/kern", dir);
  ASSERT(mkdir(path, 0700) == 0);
  snprintf(path, sizeof path, "%s/kern/config", dir);
  setenv("XDG_CONFIG_HOME", dir, 1);
  unsetenv("KERN_DEVICE");
  kern_context *ctx;
  ASSERT_OK(ctx, kern_context_new(NULL, &ctx));
  char name[64], origin[600], want[600];
  /* No file: auto, by default. */
  ASSERT_OK(ctx, kern_device_choice(ctx, name, sizeof name, origin, sizeof origin));
  ASSERT_STREQ(name, "auto");
  ASSERT_STREQ(origin, "default");
  /* The file's line is the origin. */
  write_file(path, "# comment\n\n  device =  cpu:0 \n");
  ASSERT_OK(ctx, kern_device_choice(ctx, name, sizeof name, origin, sizeof origin));
  ASSERT_STREQ(name, "cpu:0");
  snprintf(want, sizeof want, "%s:3", path);
  ASSERT_STREQ(origin, want);
  kern_device d = -1;
  ASSERT_OK(ctx, kern_device_find(ctx, NULL, &d));
  ASSERT_EQ(d, 0);
  /* The environment wins over the file. */
  setenv("KERN_DEVICE", "auto", 1);
  ASSERT_OK(ctx, kern_device_choice(ctx, name, sizeof name, origin, sizeof origin));
  ASSERT_STREQ(origin, "KERN_DEVICE");
  unsetenv("KERN_DEVICE");
  /* Errors carry path:line. */
  write_file(path, "device = cpu\nspeed = fast\n");
  ASSERT_EQ(kern_device_find(ctx, NULL, &d), KERN_ERROR_INVALID_ARGUMENT);
  snprintf(want, sizeof want, "%s:2: unknown key 'speed'", path);
  ASSERT_CONTAINS(kern_last_error(ctx), want);
  kern_clear_error(ctx);
  write_file(path, "device\n");
  ASSERT_EQ(kern_device_find(ctx, NULL, &d), KERN_ERROR_INVALID_ARGUMENT);
  snprintf(want, sizeof want, "%s:1: expected 'key = value'", path);
  ASSERT_CONTAINS(kern_last_error(ctx), want);
  kern_clear_error(ctx);
  write_file(path, "device =\n");
  ASSERT_EQ(kern_device_find(ctx, NULL, &d), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  /* An explicit choice that cannot be honoured is an error, not a
   * fallback to the CPU. */
  write_file(path, "device = opencl:99\n");
  ASSERT(kern_device_find(ctx, NULL, &d) != KERN_SUCCESS);
  ASSERT_CONTAINS(kern_last_error(ctx), "opencl:99");
  kern_clear_error(ctx);
  kern_context_free(ctx);
  unsetenv("XDG_CONFIG_HOME");
}

int main(void) {
  test_setup();
  kern_context *ctx;
  ASSERT_OK(ctx, kern_context_new(NULL, &ctx));
  kern_module *m;
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_load_string(ctx, 0, "twice.py", src,
                                         sizeof src - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "twice", &k));
  test_wrap(ctx, k);
  test_dlpack(ctx, k);
  test_dlpack_versioned(ctx, k);
  kern_context_free(ctx);
  test_config();
  printf("ok\n");
  return 0;
}
