/*
 * OpenCL interop against a cl_context the test makes itself through the
 * ICD loader (dlopen'd here, never linked into kern): kern adopts the
 * caller's context when handed its queue or buffer first (Note [foreign
 * contexts] in backend_opencl.c), runs kernels on the caller's queue and
 * memory, and refuses precisely what cannot work (a context other than
 * the one the device already uses, an out-of-order queue).  Then pinned
 * host memory (Note [pinned host memory]) and, where kern was built with
 * dlpack.h, DLPack export and import of OpenCL arrays.  Exit 77 without an
 * OpenCL device.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include "test.h"
#include "runtime.h"
#ifdef KERN_HAVE_DLPACK
#include <dlpack/dlpack.h>
#endif

static const kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};

static const char src[] =
    "import warp as wp\n"
    "@wp.kernel\n"
    "def twice(x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = x[i] * 2.0\n"
    "@wp.kernel\n"
    "def add(x: wp.array(dtype=wp.float32), v: wp.float32):\n"
    "    i = wp.tid()\n"
    "    x[i] = x[i] + v\n";

/* The few OpenCL entry points the test calls, from the ICD loader. */
static struct {
  cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
  cl_int (*GetDeviceIDs)(cl_platform_id, cl_device_type, cl_uint,
                         cl_device_id *, cl_uint *);
  cl_int (*GetDeviceInfo)(cl_device_id, cl_device_info, size_t, void *,
                          size_t *);
  cl_context (*CreateContext)(const cl_context_properties *, cl_uint,
                              const cl_device_id *, void *, void *,
                              cl_int *);
  cl_command_queue (*CreateCommandQueue)(cl_context, cl_device_id,
                                         cl_command_queue_properties,
                                         cl_int *);
  cl_mem (*CreateBuffer)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
  cl_int (*EnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_bool, size_t,
                               size_t, const void *, cl_uint,
                               const cl_event *, cl_event *);
  cl_int (*EnqueueReadBuffer)(cl_command_queue, cl_mem, cl_bool, size_t,
                              size_t, void *, cl_uint, const cl_event *,
                              cl_event *);
  cl_int (*GetMemObjectInfo)(cl_mem, cl_mem_info, size_t, void *, size_t *);
  cl_int (*ReleaseMemObject)(cl_mem);
  cl_int (*ReleaseCommandQueue)(cl_command_queue);
  cl_int (*ReleaseContext)(cl_context);
} cl;

static int load_cl(void) {
  void *lib = dlopen("libOpenCL.so.1", RTLD_NOW);
  if (!lib) return 0;
#define GET(name) \
  if (!(*(void **)&cl.name = dlsym(lib, "cl" #name))) return 0
  GET(GetPlatformIDs);
  GET(GetDeviceIDs);
  GET(GetDeviceInfo);
  GET(CreateContext);
  GET(CreateCommandQueue);
  GET(CreateBuffer);
  GET(EnqueueWriteBuffer);
  GET(EnqueueReadBuffer);
  GET(GetMemObjectInfo);
  GET(ReleaseMemObject);
  GET(ReleaseCommandQueue);
  GET(ReleaseContext);
#undef GET
  return 1;
}

/* The cl_device_id behind kern's opencl:index: kern numbers every device
 * of every platform in the loader's order, but skips devices it cannot
 * describe, so the name decides when the position does not match. */
static cl_device_id find_device(int index, const char *want,
                                cl_platform_id *plat) {
  cl_platform_id plats[16];
  cl_uint np = 0;
  if (cl.GetPlatformIDs(16, plats, &np) != CL_SUCCESS) return NULL;
  cl_device_id by_name = NULL;
  int k = 0;
  for (cl_uint p = 0; p < np && p < 16; p++) {
    cl_device_id ids[16];
    cl_uint nd = 0;
    if (cl.GetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, ids, &nd) !=
        CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < nd && d < 16; d++, k++) {
      char name[256] = "";
      cl.GetDeviceInfo(ids[d], CL_DEVICE_NAME, sizeof name, name, NULL);
      if (strcmp(name, want) != 0) continue;
      if (k == index || !by_name) {
        by_name = ids[d];
        *plat = plats[p];
      }
      if (k == index) return ids[d];
    }
  }
  return by_name;
}

enum { N = 1000 };

static kern_context *ctx;
static kern_device dev;
static kern_kernel *k_twice, *k_add;
static cl_device_id id;
static cl_context own;
static cl_command_queue q;

/* kern works in the caller's context: wrapped queue and buffer, kern's own
 * arrays and modules made afterwards, events with profiling. */
static void test_adopt(void) {
  float host[N];
  for (int i = 0; i < N; i++) host[i] = (float)i;
  cl_int err;
  cl_mem buf = cl.CreateBuffer(own, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(cl.EnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0,
                                  NULL, NULL),
            CL_SUCCESS);
  kern_stream *ws;
  ASSERT_OK(ctx, kern_stream_wrap(ctx, dev, q, &ws));
  int64_t n = N;
  kern_array *wa;
  ASSERT_OK(ctx, kern_array_wrap(ctx, dev, f32, 1, &n, buf, &wa));
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "interop.py", src,
                                         sizeof src - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "twice", &k_twice));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "add", &k_add));
  kern_event *e0, *e1;
  ASSERT_OK(ctx, kern_event_new(ctx, &e0));
  ASSERT_OK(ctx, kern_event_new(ctx, &e1));
  ASSERT_OK(ctx, kern_event_record(e0, ws));
  kern_arg a = kern_arg_array(wa);
  ASSERT_OK(ctx, kern_launch_async(k_twice, ws, 1, &n, 1, &a));
  /* kern's own array, made in the adopted context, mixes with the
   * caller's buffer on the caller's queue. */
  kern_array *b;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &b));
  ASSERT_OK(ctx, kern_array_copy_async(b, 0, wa, 0, sizeof host, ws));
  kern_arg ad[] = {kern_arg_array(b), kern_arg_float(1)};
  ASSERT_OK(ctx, kern_launch_async(k_add, ws, 1, &n, 2, ad));
  float out[N];
  ASSERT_OK(ctx, kern_array_download_async(b, ws, 0, out, sizeof out));
  ASSERT_OK(ctx, kern_event_record(e1, ws));
  ASSERT_OK(ctx, kern_stream_synchronize(ws));
  for (int i = 0; i < N; i++) ASSERT(out[i] == 2.0f * i + 1.0f);
  double ms = -1;
  ASSERT_OK(ctx, kern_event_elapsed(e0, e1, &ms));
  ASSERT(ms >= 0);
  /* The caller reads its own buffer, written by kern, on its own queue. */
  ASSERT_EQ(cl.EnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0,
                                 NULL, NULL),
            CL_SUCCESS);
  for (int i = 0; i < N; i++) ASSERT(host[i] == 2.0f * i);
  /* kern's default stream works in the adopted context too. */
  ASSERT_OK(ctx, kern_launch(k_twice, 1, &n, 1, &a));
  ASSERT_OK(ctx, kern_array_download(wa, out, sizeof out));
  for (int i = 0; i < N; i++) ASSERT(out[i] == 4.0f * i);
  kern_event_free(e0);
  kern_event_free(e1);
  kern_array_free(b);
  kern_array_free(wa); /* the caller's buffer stays */
  ASSERT_OK(ctx, kern_stream_free(ws)); /* the caller's queue stays */
  ASSERT_EQ(cl.EnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0,
                                 NULL, NULL),
            CL_SUCCESS);
  ASSERT(host[3] == 12.0f);
  cl.ReleaseMemObject(buf);
}

/* What cannot work is refused with the reason, and nothing is used. */
static void test_refuse(void) {
  /* A kern context whose device already works in kern's own context. */
  kern_context *other;
  ASSERT_OK(other, kern_context_new(NULL, &other));
  kern_device od;
  ASSERT_OK(other, kern_device_find(other, "opencl", &od));
  int64_t n = N;
  kern_array *mine;
  ASSERT_OK(other, kern_array_new(other, od, f32, 1, &n, &mine));
  kern_stream *ws;
  ASSERT_EQ(kern_stream_wrap(other, od, q, &ws), KERN_ERROR_UNSUPPORTED);
  ASSERT_CONTAINS(kern_last_error(other), "belongs to another cl_context");
  ASSERT_CONTAINS(kern_last_error(other), "(kern's own)");
  kern_clear_error(other);
  cl_int err;
  cl_mem buf = cl.CreateBuffer(own, CL_MEM_READ_WRITE, 64, NULL, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  kern_array *wa;
  int64_t sixteen = 16;
  ASSERT_EQ(kern_array_wrap(other, od, f32, 1, &sixteen, buf, &wa),
            KERN_ERROR_UNSUPPORTED);
  ASSERT_CONTAINS(kern_last_error(other), "the cl_mem belongs to another");
  kern_clear_error(other);
  kern_array_free(mine);
  kern_context_free(other);
  /* An out-of-order queue, where the device offers one. */
  cl_command_queue ooo = cl.CreateCommandQueue(
      own, id, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (err == CL_SUCCESS) {
    ASSERT_EQ(kern_stream_wrap(ctx, dev, ooo, &ws), KERN_ERROR_UNSUPPORTED);
    ASSERT_CONTAINS(kern_last_error(ctx), "out of order");
    kern_clear_error(ctx);
    cl.ReleaseCommandQueue(ooo);
  } else {
    printf("(the device has no out-of-order queues: not checked)\n");
  }
  cl.ReleaseMemObject(buf);
}

/* kern_host_alloc gives the mapped address of a CL_MEM_ALLOC_HOST_PTR
 * buffer in the device's context, which asynchronous copies use. */
static void test_pinned(void) {
  enum { M = 1 << 16 };
  float *p, *r;
  ASSERT_OK(ctx, kern_host_alloc(ctx, dev, M * sizeof(float), (void **)&p));
  ASSERT_OK(ctx, kern_host_alloc(ctx, dev, M * sizeof(float), (void **)&r));
  void *state = kern__ctx(ctx)->bstate[KERN_BACKEND_OPENCL];
  size_t bytes = 0;
  cl_mem mem = kern__opencl_host_mem(state, p, &bytes);
  ASSERT(mem != NULL);
  ASSERT_EQ(bytes, M * sizeof(float));
  cl_mem_flags flags = 0;
  cl_context c = NULL;
  size_t size = 0;
  ASSERT_EQ(cl.GetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL),
            CL_SUCCESS);
  ASSERT_EQ(cl.GetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof c, &c, NULL),
            CL_SUCCESS);
  ASSERT_EQ(cl.GetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL),
            CL_SUCCESS);
  ASSERT(flags & CL_MEM_ALLOC_HOST_PTR);
  ASSERT(c == own);  /* the device's (adopted) context */
  ASSERT_EQ(size, M * sizeof(float));
  for (int i = 0; i < M; i++) p[i] = (float)(i % 977);
  int64_t n = M;
  kern_array *x;
  kern_stream *s;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &x));
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &s));
  ASSERT_OK(ctx, kern_array_upload_async(x, s, 0, p, M * sizeof(float)));
  kern_arg a = kern_arg_array(x);
  ASSERT_OK(ctx, kern_launch_async(k_twice, s, 1, &n, 1, &a));
  /* A partial copy back at an offset, into the second pinned block. */
  ASSERT_OK(ctx, kern_array_download_async(x, s, 40, r + 10,
                                           (M - 10) * sizeof(float)));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  for (int i = 10; i < M; i++) ASSERT(r[i] == 2.0f * (float)(i % 977));
  ASSERT_OK(ctx, kern_stream_free(s));
  kern_array_free(x);
  kern_host_free(ctx, p);
  ASSERT(kern__opencl_host_mem(state, p, NULL) == NULL);
  kern_host_free(ctx, r);
}

#ifdef KERN_HAVE_DLPACK
/* DLPack 1.x's DLManagedTensorVersioned, from the specification. */
typedef struct {
  struct { uint32_t major, minor; } version;
  void *manager_ctx;
  void (*deleter)(void *self);
  uint64_t flags;
  DLTensor dl_tensor;
} dl_versioned;

static int deleted;
static void count_delete(DLManagedTensor *t) { deleted++; (void)t; }

/* OpenCL arrays out through DLPack (kDLOpenCL, data the cl_mem) and back,
 * and a caller's buffer in with a byte offset, which becomes a sub-buffer
 * at the device's base address alignment and is refused elsewhere. */
static void test_dlpack(void) {
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  ASSERT_OK(ctx, kern_device_get(ctx, dev, &di));
  int64_t shape[2] = {10, 100};
  kern_array *a;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 2, shape, &a));
  float one = 1;
  ASSERT_OK(ctx, kern_array_fill(a, &one));
  void *p;
  ASSERT_OK(ctx, kern_array_to_dlpack(a, &p));
  DLManagedTensor *t = p;
  ASSERT_EQ(t->dl_tensor.device.device_type, kDLOpenCL);
  ASSERT_EQ(t->dl_tensor.device.device_id, di.index);
  ASSERT(t->dl_tensor.data == kern_array_native(a));
  ASSERT_EQ(t->dl_tensor.byte_offset, 0);
  ASSERT_EQ(t->dl_tensor.strides[0], 100);
  kern_array *b;
  ASSERT_OK(ctx, kern_array_from_dlpack(ctx, t, &b));
  ASSERT(kern_array_native(b) == kern_array_native(a));
  int64_t n = 1000;
  kern_array *flat;
  ASSERT_OK(ctx, kern_array_wrap(ctx, dev, f32, 1, &n, kern_array_native(b), &flat));
  kern_arg arg = kern_arg_array(flat);
  ASSERT_OK(ctx, kern_launch(k_twice, 1, &n, 1, &arg));
  float out[1000];
  ASSERT_OK(ctx, kern_array_download(a, out, sizeof out));
  for (int i = 0; i < 1000; i++) ASSERT(out[i] == 2.0f);
  kern_array_free(flat);
  kern_array_free(b); /* runs the export's deleter */
  ASSERT_OK(ctx, kern_array_to_dlpack_versioned(a, &p));
  dl_versioned *v = p;
  ASSERT_EQ(v->version.major, 1);
  ASSERT_EQ(v->dl_tensor.device.device_type, kDLOpenCL);
  ASSERT(v->dl_tensor.data == kern_array_native(a));
  v->deleter(v);
  kern_array_free(a);

  /* The caller's buffer with a byte offset: a sub-buffer. */
  cl_uint bits = 0;
  cl.GetDeviceInfo(id, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits,
                   NULL);
  size_t align = bits / 8 ? bits / 8 : 1;
  size_t lead = align / sizeof(float);
  float host[4096];
  for (int i = 0; i < 4096; i++) host[i] = (float)i;
  ASSERT(lead + 100 <= 4096);
  cl_int err;
  cl_mem buf = cl.CreateBuffer(own, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(cl.EnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0,
                                  NULL, NULL),
            CL_SUCCESS);
  int64_t fshape[1] = {100};
  DLManagedTensor m;
  memset(&m, 0, sizeof m);
  m.dl_tensor.data = buf;
  m.dl_tensor.device.device_type = kDLOpenCL;
  m.dl_tensor.device.device_id = di.index;
  m.dl_tensor.ndim = 1;
  m.dl_tensor.dtype.code = kDLFloat;
  m.dl_tensor.dtype.bits = 32;
  m.dl_tensor.dtype.lanes = 1;
  m.dl_tensor.shape = fshape;
  m.dl_tensor.byte_offset = align;
  m.deleter = count_delete;
  kern_array *c;
  ASSERT_OK(ctx, kern_array_from_dlpack(ctx, &m, &c));
  ASSERT(kern_array_native(c) != (void *)buf); /* a sub-buffer */
  int64_t hundred = 100;
  arg = kern_arg_array(c);
  ASSERT_OK(ctx, kern_launch(k_twice, 1, &hundred, 1, &arg));
  deleted = 0;
  kern_array_free(c); /* the sub-buffer, then the deleter */
  ASSERT_EQ(deleted, 1);
  ASSERT_EQ(cl.EnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0,
                                 NULL, NULL),
            CL_SUCCESS);
  for (size_t i = 0; i < 4096; i++)
    ASSERT(host[i] == (i >= lead && i < lead + 100 ? 2.0f * i : (float)i));
  /* An offset OpenCL cannot start a buffer at. */
  if (align > sizeof(float)) {
    m.dl_tensor.byte_offset = sizeof(float);
    ASSERT_EQ(kern_array_from_dlpack(ctx, &m, &c), KERN_ERROR_UNSUPPORTED);
    ASSERT_CONTAINS(kern_last_error(ctx), "base address alignment");
    kern_clear_error(ctx);
    ASSERT_EQ(deleted, 1);
  }
  /* A device index kern does not have. */
  m.dl_tensor.byte_offset = 0;
  m.dl_tensor.device.device_id = 99;
  ASSERT(kern_array_from_dlpack(ctx, &m, &c) != KERN_SUCCESS);
  ASSERT_CONTAINS(kern_last_error(ctx), "opencl:99");
  kern_clear_error(ctx);
  cl.ReleaseMemObject(buf);
}
#endif

int main(void) {
  test_setup();
  if (!load_cl()) {
    printf("skipped: no libOpenCL.so.1\n");
    return 77;
  }
  ASSERT_OK(ctx, kern_context_new(NULL, &ctx));
  if (kern_device_find(ctx, "opencl", &dev) != KERN_SUCCESS) {
    printf("skipped: %s\n", kern_last_error(ctx));
    kern_context_free(ctx);
    return 77;
  }
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  ASSERT_OK(ctx, kern_device_get(ctx, dev, &di));
  cl_platform_id plat = NULL;
  id = find_device(di.index, di.name, &plat);
  ASSERT(id != NULL);
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)plat, 0};
  cl_int err;
  own = cl.CreateContext(props, 1, &id, NULL, NULL, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  q = cl.CreateCommandQueue(own, id, CL_QUEUE_PROFILING_ENABLE, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  test_adopt();
  test_refuse();
  test_pinned();
#ifdef KERN_HAVE_DLPACK
  test_dlpack();
#endif
  kern_context_free(ctx);
  /* kern retained the adopted context; the caller's references are its
   * own to drop, before or after. */
  cl.ReleaseCommandQueue(q);
  cl.ReleaseContext(own);
  printf("ok\n");
  return 0;
}
