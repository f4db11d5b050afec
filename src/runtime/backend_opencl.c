/*
 * backend_opencl.c -- the OpenCL backend: OpenCL C from the compiler,
 * clBuildProgram, and launches on any OpenCL 1.2 device (GPUs, PoCL on CPUs).
 *
 * The design choice of this file: libOpenCL.so.1 is opened with dlopen and
 * every entry point is looked up into a table that lives in the backend
 * state, never linked.  One kern binary then runs on a machine with no
 * OpenCL at all ("libOpenCL.so.1 not found", zero devices), and there is no
 * global mutable state.  <CL/cl.h> is included only for its types and
 * constants.
 *
 * Every driver call goes through OCL_SUCCEED_OR_RETURN (after Futhark's
 * OPENCL_SUCCEED_OR_RETURN), which turns a failing cl_int into one message
 * naming the call, the CL error and the place:
 *   "opencl: clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE
 *    (backend_opencl.c:123)".
 *
 * Loading the library and enumerating the platforms' devices happen once per
 * process (Note [process-wide OpenCL state]); each kern context then has,
 * per device, one cl_context and one in-order command queue, made on first
 * use so that probing (done by every kern_context_new) stays cheap.
 * Host-side structures come from kern's allocator (common.h), so the
 * out-of-memory tests reach them.
 * Program binaries go into the kernel cache; see Note [program binaries].
 * The launch shape follows the device; see Note [launch shape].
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "runtime.h"

/* ---------------------------------------------------------------- table */

/* Every entry point the backend uses: return type, name, parameter list.
 * One list makes the pointer types, the table and the dlsym loop. */
#define OCL_FUNCTIONS(X)                                                      \
  X(cl_int, clGetPlatformIDs, (cl_uint, cl_platform_id *, cl_uint *))         \
  X(cl_int, clGetPlatformInfo,                                                \
    (cl_platform_id, cl_platform_info, size_t, void *, size_t *))             \
  X(cl_int, clGetDeviceIDs,                                                   \
    (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *))     \
  X(cl_int, clGetDeviceInfo,                                                  \
    (cl_device_id, cl_device_info, size_t, void *, size_t *))                 \
  X(cl_context, clCreateContext,                                              \
    (const cl_context_properties *, cl_uint, const cl_device_id *,            \
     void (CL_CALLBACK *)(const char *, const void *, size_t, void *),        \
     void *, cl_int *))                                                       \
  X(cl_int, clReleaseContext, (cl_context))                                   \
  X(cl_command_queue, clCreateCommandQueue,                                   \
    (cl_context, cl_device_id, cl_command_queue_properties, cl_int *))        \
  X(cl_int, clReleaseCommandQueue, (cl_command_queue))                        \
  X(cl_mem, clCreateBuffer,                                                   \
    (cl_context, cl_mem_flags, size_t, void *, cl_int *))                     \
  X(cl_int, clReleaseMemObject, (cl_mem))                                     \
  X(cl_int, clEnqueueReadBuffer,                                              \
    (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint,      \
     const cl_event *, cl_event *))                                           \
  X(cl_int, clEnqueueWriteBuffer,                                             \
    (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,         \
     cl_uint, const cl_event *, cl_event *))                                  \
  X(cl_program, clCreateProgramWithSource,                                    \
    (cl_context, cl_uint, const char **, const size_t *, cl_int *))           \
  X(cl_program, clCreateProgramWithBinary,                                    \
    (cl_context, cl_uint, const cl_device_id *, const size_t *,               \
     const unsigned char **, cl_int *, cl_int *))                             \
  X(cl_int, clBuildProgram,                                                   \
    (cl_program, cl_uint, const cl_device_id *, const char *,                 \
     void (CL_CALLBACK *)(cl_program, void *), void *))                       \
  X(cl_int, clGetProgramInfo,                                                 \
    (cl_program, cl_program_info, size_t, void *, size_t *))                  \
  X(cl_int, clGetProgramBuildInfo,                                            \
    (cl_program, cl_device_id, cl_program_build_info, size_t, void *,         \
     size_t *))                                                               \
  X(cl_int, clReleaseProgram, (cl_program))                                   \
  X(cl_kernel, clCreateKernel, (cl_program, const char *, cl_int *))          \
  X(cl_int, clReleaseKernel, (cl_kernel))                                     \
  X(cl_int, clSetKernelArg, (cl_kernel, cl_uint, size_t, const void *))       \
  X(cl_int, clGetKernelWorkGroupInfo,                                         \
    (cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *,      \
     size_t *))                                                               \
  X(cl_int, clEnqueueNDRangeKernel,                                           \
    (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,    \
     const size_t *, cl_uint, const cl_event *, cl_event *))                  \
  X(cl_int, clFinish, (cl_command_queue))                                     \
  X(cl_int, clEnqueueCopyBuffer,                                              \
    (cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,       \
     const cl_event *, cl_event *))                                           \
  X(cl_int, clFlush, (cl_command_queue))                                      \
  X(cl_int, clWaitForEvents, (cl_uint, const cl_event *))                     \
  X(cl_int, clGetEventInfo,                                                   \
    (cl_event, cl_event_info, size_t, void *, size_t *))                      \
  X(cl_int, clGetEventProfilingInfo,                                          \
    (cl_event, cl_profiling_info, size_t, void *, size_t *))                  \
  X(cl_int, clReleaseEvent, (cl_event))                                      \
  X(void *, clEnqueueMapBuffer,                                               \
    (cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t,         \
     cl_uint, const cl_event *, cl_event *, cl_int *))                        \
  X(cl_int, clEnqueueUnmapMemObject,                                          \
    (cl_command_queue, cl_mem, void *, cl_uint, const cl_event *,             \
     cl_event *))                                                             \
  X(cl_int, clGetMemObjectInfo,                                               \
    (cl_mem, cl_mem_info, size_t, void *, size_t *))                          \
  X(cl_int, clGetCommandQueueInfo,                                            \
    (cl_command_queue, cl_command_queue_info, size_t, void *, size_t *))      \
  X(cl_int, clGetContextInfo,                                                 \
    (cl_context, cl_context_info, size_t, void *, size_t *))                  \
  X(cl_int, clRetainContext, (cl_context))

/* OpenCL 1.2 entry points an older loader may lack; NULL is handled. */
#define OCL_OPTIONAL_FUNCTIONS(X)                                             \
  X(cl_int, clEnqueueFillBuffer,                                              \
    (cl_command_queue, cl_mem, const void *, size_t, size_t, size_t,          \
     cl_uint, const cl_event *, cl_event *))                                  \
  X(cl_int, clEnqueueMarkerWithWaitList,                                      \
    (cl_command_queue, cl_uint, const cl_event *, cl_event *))                \
  X(cl_int, clEnqueueBarrierWithWaitList,                                     \
    (cl_command_queue, cl_uint, const cl_event *, cl_event *))                \
  X(cl_mem, clCreateSubBuffer,                                                \
    (cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *))

#define OCL_TYPEDEF(ret, name, params) \
  typedef ret(CL_API_CALL *ocl_##name##_fn) params;
OCL_FUNCTIONS(OCL_TYPEDEF)
OCL_OPTIONAL_FUNCTIONS(OCL_TYPEDEF)
#undef OCL_TYPEDEF

typedef struct ocl_fns {
#define OCL_MEMBER(ret, name, params) ocl_##name##_fn name;
  OCL_FUNCTIONS(OCL_MEMBER)
  OCL_OPTIONAL_FUNCTIONS(OCL_MEMBER)
#undef OCL_MEMBER
} ocl_fns;

/* ---------------------------------------------------------------- state */

typedef struct ocl_device {
  cl_platform_id platform;
  cl_device_id id;
  cl_device_type type;
  char *name, *vendor, *version, *driver, *c_version, *extensions;
  char *platform_name, *platform_version;
  cl_uint compute_units;
  cl_ulong global_mem, max_alloc;
  size_t max_work_group;
  int fp64, int64_atomics;
  int c12; /* OpenCL C 1.2 or later: build with -cl-std=CL1.2 */
  /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT: float division and sqrt can be
   * IEEE-rounded, as on the other backends (ocl_module_build). */
  int exact_div_sqrt;
  /* Descriptive properties for kern_device_info (0 / "" when unknown). */
  int version_major, version_minor; /* CL_DEVICE_VERSION */
  int warp_size;
  unsigned char uuid[16];
  char pci_bus_id[32];
  /* Made on first use (ocl_open); NULL until then.  The context may be a
   * caller's instead, adopted from the first foreign queue or buffer that
   * was wrapped before kern needed one (Note [foreign contexts]). */
  cl_context context;
  cl_command_queue queue;
  int adopted;
} ocl_device;

/* Pinned host memory (kern_host_alloc): a mapped CL_MEM_ALLOC_HOST_PTR
 * buffer, kept mapped until freed; Note [pinned host memory]. */
typedef struct ocl_pin {
  void *p;
  cl_mem mem; /* NULL: too large for one buffer, ordinary memory */
  size_t bytes;
  int dev;
  struct ocl_pin *next;
} ocl_pin;

typedef struct ocl_state {
  kern_context *ctx; /* where errors go and whose cache is used */
  void *lib;
  ocl_fns cl;
  int ndevices;
  ocl_device *devices;
  struct ocl_qlast *qlast; /* streams' last commands (stream section) */
  ocl_pin *pins;
} ocl_state;

/* The event of the last command enqueued on a stream's queue, so a query
 * can tell whether the queue has drained without blocking. */
typedef struct ocl_qlast {
  cl_command_queue q;
  cl_event ev;
  struct ocl_qlast *next;
} ocl_qlast;

/* Note [process-wide OpenCL state]
 * The ICD loader and PoCL initialise themselves on the first
 * clGetPlatformIDs / clGetDeviceIDs, without a lock and with a setenv
 * (Note [process-wide backend state] in context.c).  So ocl_init, run once
 * under the runtime's lock, opens the library, looks up the entry points and
 * enumerates and describes every device into ocl_proc (ctx NULL, context and
 * queue unused), and nothing writes ocl_proc after that.  A probe copies the
 * table and the device descriptions into the context's own state; the
 * description strings stay owned by ocl_proc, which lives as long as the
 * process, like the library it describes (loaded RTLD_NODELETE). */
static ocl_state ocl_proc;
static char ocl_proc_reason[256]; /* why there are no devices, or "" */

/* One kernel of a module, created on first kernel_get. */
typedef struct ocl_kernel {
  char *symbol;
  cl_kernel kernel;
  size_t work_group; /* CL_KERNEL_WORK_GROUP_SIZE for this device */
  struct ocl_kernel *next;
} ocl_kernel;

typedef struct ocl_module {
  int dev;
  cl_program program;
  ocl_kernel *kernels;
} ocl_module;

/* ---------------------------------------------------------------- errors */

#define OCL_ERROR_CODES(X)                                                    \
  X(CL_SUCCESS) X(CL_DEVICE_NOT_FOUND) X(CL_DEVICE_NOT_AVAILABLE)             \
  X(CL_COMPILER_NOT_AVAILABLE) X(CL_MEM_OBJECT_ALLOCATION_FAILURE)            \
  X(CL_OUT_OF_RESOURCES) X(CL_OUT_OF_HOST_MEMORY)                             \
  X(CL_PROFILING_INFO_NOT_AVAILABLE) X(CL_MEM_COPY_OVERLAP)                   \
  X(CL_IMAGE_FORMAT_MISMATCH) X(CL_IMAGE_FORMAT_NOT_SUPPORTED)                \
  X(CL_BUILD_PROGRAM_FAILURE) X(CL_MAP_FAILURE)                               \
  X(CL_MISALIGNED_SUB_BUFFER_OFFSET)                                          \
  X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)                             \
  X(CL_COMPILE_PROGRAM_FAILURE) X(CL_LINKER_NOT_AVAILABLE)                    \
  X(CL_LINK_PROGRAM_FAILURE) X(CL_DEVICE_PARTITION_FAILED)                    \
  X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) X(CL_INVALID_VALUE)                     \
  X(CL_INVALID_DEVICE_TYPE) X(CL_INVALID_PLATFORM) X(CL_INVALID_DEVICE)       \
  X(CL_INVALID_CONTEXT) X(CL_INVALID_QUEUE_PROPERTIES)                        \
  X(CL_INVALID_COMMAND_QUEUE) X(CL_INVALID_HOST_PTR)                          \
  X(CL_INVALID_MEM_OBJECT) X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)              \
  X(CL_INVALID_IMAGE_SIZE) X(CL_INVALID_SAMPLER) X(CL_INVALID_BINARY)         \
  X(CL_INVALID_BUILD_OPTIONS) X(CL_INVALID_PROGRAM)                           \
  X(CL_INVALID_PROGRAM_EXECUTABLE) X(CL_INVALID_KERNEL_NAME)                  \
  X(CL_INVALID_KERNEL_DEFINITION) X(CL_INVALID_KERNEL)                        \
  X(CL_INVALID_ARG_INDEX) X(CL_INVALID_ARG_VALUE) X(CL_INVALID_ARG_SIZE)      \
  X(CL_INVALID_KERNEL_ARGS) X(CL_INVALID_WORK_DIMENSION)                      \
  X(CL_INVALID_WORK_GROUP_SIZE) X(CL_INVALID_WORK_ITEM_SIZE)                  \
  X(CL_INVALID_GLOBAL_OFFSET) X(CL_INVALID_EVENT_WAIT_LIST)                   \
  X(CL_INVALID_EVENT) X(CL_INVALID_OPERATION) X(CL_INVALID_GL_OBJECT)         \
  X(CL_INVALID_BUFFER_SIZE) X(CL_INVALID_MIP_LEVEL)                           \
  X(CL_INVALID_GLOBAL_WORK_SIZE) X(CL_INVALID_PROPERTY)                       \
  X(CL_INVALID_IMAGE_DESCRIPTOR) X(CL_INVALID_COMPILER_OPTIONS)               \
  X(CL_INVALID_LINKER_OPTIONS) X(CL_INVALID_DEVICE_PARTITION_COUNT)

/* Codes newer than the 1.2 headers or from extensions, which a newer
 * driver can still return. */
#define OCL_ERROR_CODES_EXTRA(X)                                              \
  X(-69, "CL_INVALID_PIPE_SIZE") X(-70, "CL_INVALID_DEVICE_QUEUE")            \
  X(-71, "CL_INVALID_SPEC_ID") X(-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED")     \
  X(-1000, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR")                          \
  X(-1001, "CL_PLATFORM_NOT_FOUND_KHR")

typedef struct ocl_error_name {
  cl_int code;
  const char *name;
} ocl_error_name;

static const ocl_error_name ocl_error_names[] = {
#define OCL_NAME(code) {code, #code},
    OCL_ERROR_CODES(OCL_NAME)
#undef OCL_NAME
#define OCL_NAME_EXTRA(code, name) {code, name},
    OCL_ERROR_CODES_EXTRA(OCL_NAME_EXTRA)
#undef OCL_NAME_EXTRA
};

/* The name of a CL error code, or NULL for an unknown one. */
static const char *ocl_error_name_of(cl_int code) {
  for (size_t i = 0; i < sizeof ocl_error_names / sizeof *ocl_error_names;
       i++)
    if (ocl_error_names[i].code == code) return ocl_error_names[i].name;
  return NULL;
}

/* Records "opencl: CALL failed: NAME (file:line)" and returns the status.
 * An allocation failure is reported as out of memory whatever the call,
 * because that is what the user can act on. */
static kern_status ocl_fail(ocl_state *st, kern_status s, const char *call,
                            cl_int err, const char *file, int line) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  if (err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
    s = KERN_ERROR_OUT_OF_MEMORY;
  const char *name = ocl_error_name_of(err);
  if (name)
    return kern__error(st->ctx, s, "opencl: %s failed: %s (%s:%d)", call,
                       name, base, line);
  return kern__error(st->ctx, s, "opencl: %s failed: CL error %d (%s:%d)",
                     call, (int)err, base, line);
}

/* The one checking macro: every cl_int a driver call yields passes here. */
#define OCL_SUCCEED_OR_RETURN(st, status, call, expr)                         \
  do {                                                                        \
    cl_int ocl_err_ = (expr);                                                 \
    if (ocl_err_ != CL_SUCCESS)                                               \
      return ocl_fail((st), (status), (call), ocl_err_, __FILE__, __LINE__);  \
  } while (0)

/* For calls that return their cl_int: OCL_CALL(st, s, clFinish, (q)). */
#define OCL_CALL(st, status, fn, args)                                        \
  OCL_SUCCEED_OR_RETURN(st, status, #fn, (st)->cl.fn args)

/* ---------------------------------------------------------------- probe */

/* A platform or device info string, from kern__malloc and NUL-terminated
 * (drivers do not all count the terminator); NULL when the query fails,
 * and then *oom says whether memory ran out. */
static char *ocl_info_string(ocl_state *st, cl_platform_id p, cl_device_id d,
                             cl_uint param, int *oom) {
  size_t n = 0;
  cl_int err = d ? st->cl.clGetDeviceInfo(d, param, 0, NULL, &n)
                 : st->cl.clGetPlatformInfo(p, param, 0, NULL, &n);
  if (err != CL_SUCCESS) return NULL;
  char *s = kern__malloc(n + 1);
  if (!s) {
    *oom = 1;
    return NULL;
  }
  err = d ? st->cl.clGetDeviceInfo(d, param, n, s, NULL)
          : st->cl.clGetPlatformInfo(p, param, n, s, NULL);
  if (err != CL_SUCCESS) {
    kern__free(s);
    return NULL;
  }
  s[n] = '\0';
  return s;
}

/* Whether a space-separated extension list names ext exactly (a prefix
 * such as cl_khr_fp64 inside cl_khr_fp64_foo must not count). */
static int ocl_has_token(const char *list, const char *ext) {
  size_t n = strlen(ext);
  for (const char *p = list; p && (p = strstr(p, ext)) != NULL; p += n) {
    int starts = p == list || p[-1] == ' ';
    int ends = p[n] == '\0' || p[n] == ' ';
    if (starts && ends) return 1;
  }
  return 0;
}

/* Frees a description's strings (ocl_proc's devices only). */
static void ocl_device_clear(ocl_state *st, ocl_device *d) {
  kern__free(d->name);
  kern__free(d->vendor);
  kern__free(d->version);
  kern__free(d->driver);
  kern__free(d->c_version);
  kern__free(d->extensions);
  kern__free(d->platform_name);
  kern__free(d->platform_version);
}

/* Query names from vendor and Khronos extensions (cl_ext.h, which kern
 * does not include); each is asked only when the device lists its
 * extension. */
#define KERN_CL_DEVICE_UUID_KHR 0x106A
#define KERN_CL_DEVICE_PCI_BUS_INFO_KHR 0x410F
#define KERN_CL_DEVICE_WARP_SIZE_NV 0x4003
#define KERN_CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043

/* The properties kern_device_info reports beyond what a launch needs.
 * None is required: a failed query leaves the property unknown. */
static void ocl_device_properties(ocl_state *st, ocl_device *d) {
  /* "OpenCL <major>.<minor> <vendor text>" */
  if (strncmp(d->version, "OpenCL ", 7) == 0) {
    const char *v = d->version + 7;
    d->version_major = atoi(v);
    const char *dot = strchr(v, '.');
    if (dot) d->version_minor = atoi(dot + 1);
  }
  cl_uint w = 0;
  if (ocl_has_token(d->extensions, "cl_nv_device_attribute_query") &&
      st->cl.clGetDeviceInfo(d->id, KERN_CL_DEVICE_WARP_SIZE_NV, sizeof w, &w,
                             NULL) == CL_SUCCESS)
    d->warp_size = (int)w;
  else if (ocl_has_token(d->extensions, "cl_amd_device_attribute_query") &&
           st->cl.clGetDeviceInfo(d->id, KERN_CL_DEVICE_WAVEFRONT_WIDTH_AMD,
                                  sizeof w, &w, NULL) == CL_SUCCESS)
    d->warp_size = (int)w;
  if (ocl_has_token(d->extensions, "cl_khr_device_uuid") &&
      st->cl.clGetDeviceInfo(d->id, KERN_CL_DEVICE_UUID_KHR, sizeof d->uuid,
                             d->uuid, NULL) != CL_SUCCESS)
    memset(d->uuid, 0, sizeof d->uuid);
  struct { cl_uint domain, bus, device, function; } pci;
  if (ocl_has_token(d->extensions, "cl_khr_pci_bus_info") &&
      st->cl.clGetDeviceInfo(d->id, KERN_CL_DEVICE_PCI_BUS_INFO_KHR,
                             sizeof pci, &pci, NULL) == CL_SUCCESS)
    snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "%04x:%02x:%02x.%x",
             pci.domain, pci.bus, pci.device, pci.function);
}

/* Fills d from the driver; returns 0 when the device should be skipped
 * (a query failed, so it is not usable), 1 when it was described and -1
 * when memory ran out. */
static int ocl_device_describe(ocl_state *st, cl_platform_id p,
                               cl_device_id id, ocl_device *d) {
  memset(d, 0, sizeof *d);
  d->platform = p;
  d->id = id;
  int oom = 0;
  d->name = ocl_info_string(st, NULL, id, CL_DEVICE_NAME, &oom);
  d->vendor = ocl_info_string(st, NULL, id, CL_DEVICE_VENDOR, &oom);
  d->version = ocl_info_string(st, NULL, id, CL_DEVICE_VERSION, &oom);
  d->driver = ocl_info_string(st, NULL, id, CL_DRIVER_VERSION, &oom);
  d->c_version = ocl_info_string(st, NULL, id, CL_DEVICE_OPENCL_C_VERSION, &oom);
  d->extensions = ocl_info_string(st, NULL, id, CL_DEVICE_EXTENSIONS, &oom);
  d->platform_name = ocl_info_string(st, p, NULL, CL_PLATFORM_NAME, &oom);
  d->platform_version = ocl_info_string(st, p, NULL, CL_PLATFORM_VERSION, &oom);
  if (!d->name || !d->vendor || !d->version || !d->driver || !d->c_version ||
      !d->extensions || !d->platform_name || !d->platform_version) {
    ocl_device_clear(st, d);
    return oom ? -1 : 0;
  }
  cl_int e = CL_SUCCESS;
  e |= st->cl.clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof d->type, &d->type,
                              NULL);
  e |= st->cl.clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS,
                              sizeof d->compute_units, &d->compute_units,
                              NULL);
  e |= st->cl.clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE,
                              sizeof d->global_mem, &d->global_mem, NULL);
  e |= st->cl.clGetDeviceInfo(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                              sizeof d->max_alloc, &d->max_alloc, NULL);
  e |= st->cl.clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                              sizeof d->max_work_group, &d->max_work_group,
                              NULL);
  if (e != CL_SUCCESS) {
    ocl_device_clear(st, d);
    return 0;
  }
  if (d->compute_units == 0) d->compute_units = 1;
  if (d->max_work_group == 0) d->max_work_group = 1;
  d->fp64 = ocl_has_token(d->extensions, "cl_khr_fp64");
  d->int64_atomics = ocl_has_token(d->extensions, "cl_khr_int64_base_atomics");
  cl_device_fp_config fp32 = 0;
  if (st->cl.clGetDeviceInfo(id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32,
                             &fp32, NULL) == CL_SUCCESS)
    d->exact_div_sqrt = (fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  /* "OpenCL C <major>.<minor> <vendor text>" */
  int major = 0, minor = 0;
  const char *v = d->c_version;
  if (strncmp(v, "OpenCL C ", 9) == 0) {
    v += 9;
    major = atoi(v);
    const char *dot = strchr(v, '.');
    if (dot) minor = atoi(dot + 1);
  }
  d->c12 = major > 1 || (major == 1 && minor >= 2);
  ocl_device_properties(st, d);
  return 1;
}

/* Enumerates every device of every platform.  A platform that fails to
 * list its devices is skipped so that one broken driver hides no other. */
static kern_status ocl_enumerate(ocl_state *st, char *reason,
                                 size_t reason_size) {
  cl_uint np = 0;
  cl_int err = st->cl.clGetPlatformIDs(0, NULL, &np);
  if (err != CL_SUCCESS || np == 0) {
    /* An ICD loader without ICDs says CL_PLATFORM_NOT_FOUND_KHR. */
    snprintf(reason, reason_size, "no OpenCL platforms");
    return KERN_SUCCESS;
  }
  cl_platform_id *plats = kern__calloc(np, sizeof *plats);
  if (!plats) return KERN_ERROR_OUT_OF_MEMORY;
  if (st->cl.clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS) {
    kern__free(plats);
    snprintf(reason, reason_size, "no OpenCL platforms");
    return KERN_SUCCESS;
  }
  kern_status s = KERN_SUCCESS;
  for (cl_uint i = 0; i < np && s == KERN_SUCCESS; i++) {
    cl_uint nd = 0;
    if (st->cl.clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) !=
            CL_SUCCESS ||
        nd == 0)
      continue;
    ocl_device *grown =
        kern__realloc(st->devices, (st->ndevices + nd) * sizeof *st->devices);
    if (grown) st->devices = grown;
    cl_device_id *ids = kern__calloc(nd, sizeof *ids);
    if (!ids || !grown) {
      kern__free(ids);
      s = KERN_ERROR_OUT_OF_MEMORY;
      break;
    }
    if (st->cl.clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, ids, NULL) ==
        CL_SUCCESS) {
      for (cl_uint j = 0; j < nd && s == KERN_SUCCESS; j++) {
        int r = ocl_device_describe(st, plats[i], ids[j],
                                    &st->devices[st->ndevices]);
        if (r < 0) s = KERN_ERROR_OUT_OF_MEMORY;
        else st->ndevices += r;
      }
    }
    kern__free(ids);
  }
  kern__free(plats);
  if (s == KERN_SUCCESS && st->ndevices == 0)
    snprintf(reason, reason_size, "no OpenCL devices");
  return s;
}

/* Undoes a failed ocl_init, so that the next context can try again. */
static void ocl_proc_clear(void) {
  for (int i = 0; i < ocl_proc.ndevices; i++)
    ocl_device_clear(&ocl_proc, &ocl_proc.devices[i]);
  kern__free(ocl_proc.devices);
  if (ocl_proc.lib) dlclose(ocl_proc.lib);
  memset(&ocl_proc, 0, sizeof ocl_proc);
  ocl_proc_reason[0] = '\0';
}

/* Once per process: Note [process-wide OpenCL state]. */
static kern_status ocl_init(void) {
  ocl_state *st = &ocl_proc;
  char *reason = ocl_proc_reason;
  size_t reason_size = sizeof ocl_proc_reason;
  /* RTLD_NODELETE: the ICD loader keeps process-wide state (its vendor
   * list, the vendors' own dlopen handles and threads) that it never frees
   * and that dlclose does not tear down either.  Unmapping it would leave
   * that memory unreachable -- reported as a leak by LeakSanitizer, with no
   * symbols to tell whose -- and a vendor thread still running could call
   * into unmapped code.  Keeping it loaded is what every OpenCL program
   * does implicitly. */
  st->lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!st->lib) {
    snprintf(reason, reason_size, "libOpenCL.so.1 not found");
    return KERN_SUCCESS;
  }
  /* A loader missing a 1.1 entry point is unusable: say which, no devices.
   * dlsym returns void *; the conversion to a function pointer is what
   * POSIX guarantees works, spelled through memcpy to stay ISO C. */
  void *sym;
#define OCL_LOAD(ret, name, params)                                           \
  sym = dlsym(st->lib, #name);                                                \
  if (!sym) {                                                                 \
    snprintf(reason, reason_size, "libOpenCL.so.1 lacks %s", #name);          \
    return KERN_SUCCESS;                                                      \
  }                                                                           \
  memcpy(&st->cl.name, &sym, sizeof sym);
  OCL_FUNCTIONS(OCL_LOAD)
#undef OCL_LOAD
#define OCL_LOAD_OPTIONAL(ret, name, params)                                  \
  sym = dlsym(st->lib, #name);                                                \
  if (sym) memcpy(&st->cl.name, &sym, sizeof sym);
  OCL_OPTIONAL_FUNCTIONS(OCL_LOAD_OPTIONAL)
#undef OCL_LOAD_OPTIONAL
  kern_status s = ocl_enumerate(st, reason, reason_size);
  if (s != KERN_SUCCESS) ocl_proc_clear();
  return s;
}

static void ocl_release(void *state);

static kern_status ocl_probe(kern_context *ctx, void **state, char *reason,
                             size_t reason_size) {
  ocl_state *st = kern__calloc(1, sizeof *st);
  if (!st) return KERN_ERROR_OUT_OF_MEMORY;
  st->ctx = ctx;
  st->cl = ocl_proc.cl;
  snprintf(reason, reason_size, "%s", ocl_proc_reason);
  if (ocl_proc.ndevices > 0) {
    st->devices = kern__calloc((size_t)ocl_proc.ndevices, sizeof *st->devices);
    if (!st->devices) {
      kern__free(st);
      return KERN_ERROR_OUT_OF_MEMORY;
    }
    memcpy(st->devices, ocl_proc.devices,
           (size_t)ocl_proc.ndevices * sizeof *st->devices);
    st->ndevices = ocl_proc.ndevices;
  }
  *state = st;
  return KERN_SUCCESS;
}

/* Releases what the context made; the descriptions belong to ocl_proc. */
static void ocl_pin_drop(ocl_state *st, ocl_pin *pin);

static void ocl_release(void *state) {
  ocl_state *st = state;
  if (!st) return;
  while (st->pins) {
    ocl_pin *pin = st->pins;
    st->pins = pin->next;
    ocl_pin_drop(st, pin);
  }
  while (st->qlast) {
    struct ocl_qlast *e = st->qlast;
    st->qlast = e->next;
    if (e->ev) st->cl.clReleaseEvent(e->ev);
    kern__free(e);
  }
  for (int i = 0; i < st->ndevices; i++) {
    ocl_device *d = &st->devices[i];
    if (d->queue) st->cl.clReleaseCommandQueue(d->queue);
    if (d->context) st->cl.clReleaseContext(d->context);
  }
  kern__free(st->devices);
  kern__free(st);
}

static int ocl_device_count(void *state) {
  return ((ocl_state *)state)->ndevices;
}

/* "OpenCL 3.0 PoCL HSTR: ..." -> "OpenCL 3.0": the rest is vendor noise
 * that would crowd the one-line description. */
static int ocl_short_version(const char *v) {
  const char *sp = strchr(v, ' ');
  if (!sp) return (int)strlen(v);
  const char *sp2 = strchr(sp + 1, ' ');
  return sp2 ? (int)(sp2 - v) : (int)strlen(v);
}

static kern_status ocl_device_info(void *state, int dev,
                                   kern_device_info *out) {
  ocl_state *st = state;
  if (dev < 0 || dev >= st->ndevices) return KERN_ERROR_INVALID_ARGUMENT;
  const ocl_device *d = &st->devices[dev];
  memset(out, 0, sizeof *out);
  out->backend = KERN_BACKEND_OPENCL;
  out->index = dev;
  snprintf(out->name, sizeof out->name, "%s", d->name);
  snprintf(out->description, sizeof out->description,
           "platform %s, %s, %.*s, driver %s, %u compute units, %.1f GiB, "
           "fp64 %s, int64 atomics %s",
           d->platform_name, d->vendor, ocl_short_version(d->version),
           d->version, d->driver, (unsigned)d->compute_units,
           (double)d->global_mem / (1024.0 * 1024.0 * 1024.0),
           d->fp64 ? "yes" : "no", d->int64_atomics ? "yes" : "no");
  out->compute_units = (int)d->compute_units;
  out->memory_bytes = d->global_mem;
  out->capability_major = d->version_major;
  out->capability_minor = d->version_minor;
  out->fp64 = d->fp64;
  out->int64_atomics = d->int64_atomics;
  out->warp_size = d->warp_size;
  out->max_group_size = d->max_work_group > INT32_MAX
                            ? INT32_MAX
                            : (int)d->max_work_group;
  snprintf(out->driver_version, sizeof out->driver_version, "%s", d->driver);
  memcpy(out->uuid, d->uuid, sizeof out->uuid);
  snprintf(out->pci_bus_id, sizeof out->pci_bus_id, "%s", d->pci_bus_id);
  return KERN_SUCCESS;
}

/* The device's context and queue, made on first use. */
static kern_status ocl_open(ocl_state *st, int dev, ocl_device **out) {
  if (dev < 0 || dev >= st->ndevices)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "opencl: no device %d", dev);
  ocl_device *d = &st->devices[dev];
  if (!d->queue) {
    cl_int err;
    if (!d->context) {
      cl_context_properties props[] = {
          CL_CONTEXT_PLATFORM, (cl_context_properties)d->platform, 0};
      d->context = st->cl.clCreateContext(props, 1, &d->id, NULL, NULL, &err);
      OCL_SUCCEED_OR_RETURN(st, KERN_ERROR_DEVICE, "clCreateContext", err);
    }
    /* Profiling on: events recorded on the default stream (this queue,
     * stream.c) report times. */
    d->queue = st->cl.clCreateCommandQueue(d->context, d->id,
                                           CL_QUEUE_PROFILING_ENABLE, &err);
    OCL_SUCCEED_OR_RETURN(st, KERN_ERROR_DEVICE, "clCreateCommandQueue", err);
  }
  *out = d;
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- memory */

static kern_status ocl_mem_alloc(void *state, int dev, size_t bytes,
                                 void **out) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  if (bytes > d->max_alloc)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "opencl: %zu bytes exceed the largest buffer device "
                       "'%s' allows (%llu bytes)",
                       bytes, d->name, (unsigned long long)d->max_alloc);
  /* A zero-sized buffer is invalid in OpenCL; an empty array still needs a
   * handle to pass, so it gets one byte. */
  cl_int err;
  cl_mem m = st->cl.clCreateBuffer(d->context, CL_MEM_READ_WRITE,
                                   bytes ? bytes : 1, NULL, &err);
  OCL_SUCCEED_OR_RETURN(st, KERN_ERROR_OUT_OF_MEMORY, "clCreateBuffer", err);
  *out = (void *)m;
  return KERN_SUCCESS;
}

static void ocl_mem_free(void *state, int dev, void *p) {
  ocl_state *st = state;
  (void)dev; /* a cl_mem knows its context */
  if (p) st->cl.clReleaseMemObject((cl_mem)p);
}

static kern_status ocl_copy_in(void *state, int dev, void *dst,
                               const void *src, size_t bytes) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS || bytes == 0) return s;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueWriteBuffer,
           (d->queue, (cl_mem)dst, CL_TRUE, 0, bytes, src, 0, NULL, NULL));
  return KERN_SUCCESS;
}

static kern_status ocl_copy_out(void *state, int dev, void *dst,
                                const void *src, size_t bytes) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS || bytes == 0) return s;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueReadBuffer,
           (d->queue, (cl_mem)src, CL_TRUE, 0, bytes, dst, 0, NULL, NULL));
  return KERN_SUCCESS;
}

/* Copies at byte offsets for the runtime's generic streams (stream.c): a
 * cl_mem is a handle, so the offset cannot be added to it. */
static kern_status ocl_copy_in_at(void *state, int dev, void *dst, size_t off,
                                  const void *src, size_t bytes) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS || bytes == 0) return s;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueWriteBuffer,
           (d->queue, (cl_mem)dst, CL_TRUE, off, bytes, src, 0, NULL, NULL));
  return KERN_SUCCESS;
}

static kern_status ocl_copy_out_at(void *state, int dev, void *dst,
                                   const void *src, size_t off,
                                   size_t bytes) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS || bytes == 0) return s;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueReadBuffer,
           (d->queue, (cl_mem)src, CL_TRUE, off, bytes, dst, 0, NULL, NULL));
  return KERN_SUCCESS;
}

static kern_status ocl_copy_dd(void *state, int dev, void *dst, size_t doff,
                               const void *src, size_t soff, size_t bytes) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS || bytes == 0) return s;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueCopyBuffer,
           (d->queue, (cl_mem)src, (cl_mem)dst, soff, doff, bytes, 0, NULL,
            NULL));
  OCL_CALL(st, KERN_ERROR_DEVICE, clFinish, (d->queue));
  return KERN_SUCCESS;
}

/* The shortest period of pattern that divides its size: a vec3 of zeros
 * (12 bytes) repeats with period 1, which clEnqueueFillBuffer accepts. */
static size_t ocl_pattern_period(const unsigned char *p, size_t n) {
  for (size_t q = 1; q < n; q++) {
    if (n % q) continue;
    size_t i = q;
    while (i < n && p[i] == p[i - q]) i++;
    if (i == n) return q;
  }
  return n;
}

/* Fill for patterns clEnqueueFillBuffer cannot take (it wants a power of
 * two up to 128 bytes; mat33 is 36): repeat the pattern into a host block
 * and write that block over the buffer. */
static kern_status ocl_fill_by_writes(ocl_state *st, ocl_device *d, cl_mem m,
                                      const void *pattern, size_t psize,
                                      size_t bytes) {
  size_t reps = ((size_t)1 << 20) / psize;
  if (reps == 0) reps = 1;
  size_t block = reps * psize;
  if (block > bytes) block = bytes;
  unsigned char *buf = kern__malloc(block);
  if (!buf)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "opencl: out of memory filling a buffer");
  for (size_t off = 0; off < block; off += psize)
    memcpy(buf + off, pattern, psize);
  cl_int err = CL_SUCCESS;
  for (size_t off = 0; off < bytes && err == CL_SUCCESS; off += block) {
    size_t n = bytes - off < block ? bytes - off : block;
    err = st->cl.clEnqueueWriteBuffer(d->queue, m, CL_TRUE, off, n, buf, 0,
                                      NULL, NULL);
  }
  kern__free(buf);
  OCL_SUCCEED_OR_RETURN(st, KERN_ERROR_DEVICE, "clEnqueueWriteBuffer", err);
  return KERN_SUCCESS;
}

static kern_status ocl_fill(void *state, int dev, void *dst,
                            const void *pattern, size_t pattern_size,
                            size_t bytes) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS || bytes == 0) return s;
  if (pattern_size == 0 || bytes % pattern_size)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "opencl: fill of %zu bytes with a %zu-byte pattern",
                       bytes, pattern_size);
  size_t q = ocl_pattern_period(pattern, pattern_size);
  int pow2 = (q & (q - 1)) == 0 && q <= 128;
  if (!pow2 || !st->cl.clEnqueueFillBuffer || !d->c12)
    return ocl_fill_by_writes(st, d, (cl_mem)dst, pattern, pattern_size,
                              bytes);
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueFillBuffer,
           (d->queue, (cl_mem)dst, pattern, q, 0, bytes, 0, NULL, NULL));
  /* Version 1 calls return when the work is done, so a fill followed by a
   * host read of another buffer sees a finished fill and a fault shows up
   * here, at the call that caused it. */
  OCL_CALL(st, KERN_ERROR_DEVICE, clFinish, (d->queue));
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- modules
 *
 * Note [program binaries]
 * Building OpenCL C costs PoCL half a second or more and NVIDIA a quarter,
 * so the program binary (CL_PROGRAM_BINARIES) is kept in the kernel cache,
 * keyed by everything that changes it: the source, the target, the platform
 * and its version, the device, the driver and the build options.  On a hit
 * the binary is loaded with clCreateProgramWithBinary and built (a driver
 * may still refuse a binary, for example after an update that kept the
 * version string); any failure there is a miss, and the core's cache
 * policy compiles the source, whose binary then replaces the entry (Note
 * [cache policy] in cache.c: cache trouble never fails a build and leaves
 * no error behind).  A cold build keeps the program it built from source
 * for the module, so the binary is only read out for the cache.
 */

static void ocl_module_free(void *state, void *module) {
  ocl_state *st = state;
  ocl_module *m = module;
  if (!m) return;
  while (m->kernels) {
    ocl_kernel *k = m->kernels;
    m->kernels = k->next;
    if (k->kernel) st->cl.clReleaseKernel(k->kernel);
    kern__free(k->symbol);
    kern__free(k);
  }
  if (m->program) st->cl.clReleaseProgram(m->program);
  kern__free(m);
}

/* One build through the cache policy. */
typedef struct ocl_build {
  ocl_state *st;
  ocl_device *d;
  int dev;
  const char *options;
  cl_program built; /* the program compile built from source, until loaded */
  const char *fallback; /* options to retry a refused build with, or NULL */
} ocl_build;

/* Records a failed clCreateProgramWithBinary or its build (a miss: the
 * message only reaches ctx->quiet_note). */
static kern_status ocl_binary_refused(ocl_build *b, const char *call,
                                      cl_int err) {
  const char *name = ocl_error_name_of(err);
  return kern__error(b->st->ctx, KERN_ERROR_CACHE,
                     "opencl: cached program binary refused by %s: %s", call,
                     name ? name : "unknown CL error");
}

/* Builds a program from a cached binary. */
static kern_status ocl_program_from_binary(ocl_build *b, const kern__blob *in,
                                           cl_program *out) {
  ocl_state *st = b->st;
  ocl_device *d = b->d;
  const unsigned char *bins[1] = {in->bytes};
  size_t size = in->size;
  cl_int bin_status = CL_SUCCESS, err;
  cl_program p = st->cl.clCreateProgramWithBinary(d->context, 1, &d->id,
                                                  &size, bins, &bin_status,
                                                  &err);
  if (err == CL_SUCCESS) err = bin_status;
  if (err != CL_SUCCESS) {
    if (p) st->cl.clReleaseProgram(p);
    return ocl_binary_refused(b, "clCreateProgramWithBinary", err);
  }
  err = st->cl.clBuildProgram(p, 1, &d->id, b->options, NULL, NULL);
  if (err != CL_SUCCESS) {
    st->cl.clReleaseProgram(p);
    return ocl_binary_refused(b, "clBuildProgram", err);
  }
  *out = p;
  return KERN_SUCCESS;
}

/* Records the build log of a failed build as the error. */
static kern_status ocl_build_error(ocl_state *st, ocl_device *d, cl_program p,
                                   cl_int build_err) {
  size_t n = 0;
  char *log = NULL;
  if (st->cl.clGetProgramBuildInfo(p, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL,
                                   &n) == CL_SUCCESS &&
      (log = kern__malloc(n + 1)) != NULL) {
    if (st->cl.clGetProgramBuildInfo(p, d->id, CL_PROGRAM_BUILD_LOG, n, log,
                                     NULL) != CL_SUCCESS)
      n = 0;
    log[n] = '\0';
  }
  const char *name = ocl_error_name_of(build_err);
  kern_status s = kern__error(
      st->ctx, KERN_ERROR_COMPILE,
      "opencl: clBuildProgram failed: %s for device '%s'; build log:\n%s",
      name ? name : "unknown CL error", d->name,
      log && log[0] ? log : "(empty)");
  kern__free(log);
  return s;
}

/* Builds from source; on failure the error holds the full build log. */
static kern_status ocl_build_from_source(ocl_state *st, ocl_device *d,
                                         const kc_result *code,
                                         const char *options,
                                         cl_program *out) {
  cl_int err;
  const char *srcs[1] = {code->source};
  size_t lens[1] = {code->source_len};
  cl_program p =
      st->cl.clCreateProgramWithSource(d->context, 1, srcs, lens, &err);
  OCL_SUCCEED_OR_RETURN(st, KERN_ERROR_COMPILE, "clCreateProgramWithSource",
                        err);
  err = st->cl.clBuildProgram(p, 1, &d->id, options, NULL, NULL);
  if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS) {
    kern_status s = ocl_build_error(st, d, p, err);
    st->cl.clReleaseProgram(p);
    return s;
  }
  if (err != CL_SUCCESS) st->cl.clReleaseProgram(p);
  OCL_SUCCEED_OR_RETURN(st, KERN_ERROR_COMPILE, "clBuildProgram", err);
  *out = p;
  return KERN_SUCCESS;
}

/* The program's binary for the cache, or NULL bytes when the driver gives
 * none (nothing is stored then). */
static void ocl_binary_of(ocl_state *st, cl_program p, kern__blob *out) {
  size_t size = 0;
  if (st->cl.clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size,
                              NULL) != CL_SUCCESS ||
      size == 0)
    return;
  unsigned char *bin = kern__malloc(size);
  if (!bin) return;
  unsigned char *bins[1] = {bin};
  if (st->cl.clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins,
                              NULL) != CL_SUCCESS) {
    kern__free(bin);
    return;
  }
  out->bytes = bin;
  out->size = size;
}

static kern_status ocl_compile(void *self, const kc_result *code,
                               int for_cache, kern__blob *out) {
  ocl_build *b = self;
  kern_status s =
      ocl_build_from_source(b->st, b->d, code, b->options, &b->built);
  if (s == KERN_ERROR_COMPILE && b->fallback) {
    /* Insurance: should a driver's compiler refuse the inline PTX, the
     * portable compare-and-swap atomics still build (slower, correct). */
    kern_clear_error(b->st->ctx);
    s = ocl_build_from_source(b->st, b->d, code, b->fallback, &b->built);
  }
  if (s == KERN_SUCCESS && for_cache) ocl_binary_of(b->st, b->built, out);
  return s;
}

static kern_status ocl_load(void *self, const kern__blob *in, void **module) {
  ocl_build *b = self;
  ocl_module *m = kern__calloc(1, sizeof *m);
  if (!m)
    return kern__error(b->st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "opencl: out of memory building a module");
  m->dev = b->dev;
  kern_status s = KERN_SUCCESS;
  if (!in->cached && b->built) {
    m->program = b->built; /* built from source a moment ago */
    b->built = NULL;
  } else {
    s = ocl_program_from_binary(b, in, &m->program);
  }
  if (s != KERN_SUCCESS) {
    kern__free(m);
    return s;
  }
  *module = m;
  return KERN_SUCCESS;
}

/* Which kernels need an extension the device lacks: an UNSUPPORTED error
 * naming the kernel is clearer than the driver's build log. */
static kern_status ocl_check_features(ocl_state *st, const ocl_device *d,
                                      const kc_result *code) {
  for (int i = 0; i < code->nkernels; i++) {
    const kc_kernel *k = &code->kernels[i];
    if (k->needs_fp64 && !d->fp64)
      return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                         "opencl: kernel '%s' uses float64, but device '%s' "
                         "lacks cl_khr_fp64",
                         k->name, d->name);
  }
  /* 64-bit atomics (float64 atomic adds are compare-and-swap loops on the
   * bits) show in the source as the extension's pragma. */
  if (!d->int64_atomics && code->source &&
      strstr(code->source, "cl_khr_int64_base_atomics")) {
    const char *who = "?";
    for (int i = 0; i < code->nkernels; i++)
      if (code->kernels[i].has_atomics) {
        who = code->kernels[i].name;
        break;
      }
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "opencl: kernel '%s' uses 64-bit atomics, but device "
                       "'%s' lacks cl_khr_int64_base_atomics",
                       who, d->name);
  }
  return KERN_SUCCESS;
}

static kern_status ocl_module_build(void *state, int dev, const kc_result *code,
                                    void **module) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  if (!code || !code->source)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "opencl: no source to build");
  s = ocl_check_features(st, d, code);
  if (s != KERN_SUCCESS) return s;
  /* No fast-math: results must match the other backends'.  For the same
   * reason float division and sqrt are IEEE-rounded where the device can
   * (OpenCL allows 2.5 and 3 ulp by default, and NVIDIA's driver uses that
   * latitude: wp.svd3's Jacobi rotations then took other signs than on the
   * CPU and CUDA, whose division and sqrtf are exact). */
  /* KERN_NV_PTX: NVIDIA's compiler takes inline PTX, which the emitted
   * float atomics use there (Note [NVIDIA float atomics] in
   * emit/opencl.c).  The options are part of the cache key. */
  int nv = d->vendor && strstr(d->vendor, "NVIDIA") != NULL;
  char plain[96], options[128];
  snprintf(plain, sizeof plain, "%s%s%s", d->c12 ? "-cl-std=CL1.2" : "",
           d->c12 && d->exact_div_sqrt ? " " : "",
           d->exact_div_sqrt ? "-cl-fp32-correctly-rounded-divide-sqrt" : "");
  snprintf(options, sizeof options, "%s%s%s", plain,
           nv && plain[0] ? " " : "", nv ? "-D KERN_NV_PTX=1" : "");
  /* The key's inputs besides the source: Note [program binaries]. */
  kern__key_part key[] = {
      {d->platform_name, strlen(d->platform_name)},
      {d->platform_version, strlen(d->platform_version)},
      {d->name, strlen(d->name)},
      {d->driver, strlen(d->driver)},
      {options, strlen(options)},
  };
  ocl_build b = {st, d, dev, options, NULL, nv ? plain : NULL};
  kern__builder bd = {"opencl", ".clbin", key, (int)(sizeof key / sizeof *key),
                      0, &b, ocl_compile, ocl_load};
  s = kern__cached_build(st->ctx, &bd, code, module);
  if (b.built) st->cl.clReleaseProgram(b.built); /* compiled, never loaded */
  return s;
}

static kern_status ocl_kernel_get(void *state, void *module,
                                  const kc_kernel *kk, void **fn) {
  ocl_state *st = state;
  ocl_module *m = module;
  for (ocl_kernel *k = m->kernels; k; k = k->next)
    if (strcmp(k->symbol, kk->symbol) == 0) {
      *fn = k;
      return KERN_SUCCESS;
    }
  ocl_kernel *k = kern__calloc(1, sizeof *k);
  size_t n = strlen(kk->symbol);
  if (!k || !(k->symbol = kern__malloc(n + 1))) {
    kern__free(k);
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "opencl: out of memory creating a kernel");
  }
  memcpy(k->symbol, kk->symbol, n + 1);
  cl_int err;
  k->kernel = st->cl.clCreateKernel(m->program, kk->symbol, &err);
  if (err == CL_SUCCESS)
    err = st->cl.clGetKernelWorkGroupInfo(
        k->kernel, st->devices[m->dev].id, CL_KERNEL_WORK_GROUP_SIZE,
        sizeof k->work_group, &k->work_group, NULL);
  if (err != CL_SUCCESS) {
    if (k->kernel) st->cl.clReleaseKernel(k->kernel);
    kern__free(k->symbol);
    kern__free(k);
  }
  OCL_SUCCEED_OR_RETURN(st, err == CL_INVALID_KERNEL_NAME
                                ? KERN_ERROR_NOT_FOUND
                                : KERN_ERROR_DEVICE,
                        "clCreateKernel", err);
  if (k->work_group == 0) k->work_group = 1;
  k->next = m->kernels;
  m->kernels = k;
  *fn = k;
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- launch
 *
 * Note [launch shape]
 * The same generated kernel runs two loop shapes, chosen here through
 * kern__dims.chunk (see compile.h), because the right one differs ~20x by
 * device (PERFORMANCE.md):
 *  - GPUs: chunk = 0, a grid-stride loop, so neighbouring work items touch
 *    neighbouring addresses (coalesced).  256 items per group, and at most
 *    8 groups per compute unit (2048 resident threads per SM on NVIDIA):
 *    enough to fill the device, few enough that the one-atomic-per-group
 *    reductions stay cheap.
 *  - CPUs (PoCL): each work item gets one contiguous chunk, so each core
 *    streams through its own range and the inner loop vectorises.  PoCL
 *    runs a work group on one thread and hands groups to idle threads, so
 *    the group count, not the item count, spreads work over cores; 16
 *    groups per compute unit keep the cores balanced when one of them is
 *    also busy with something else.
 * Measured (float64 sum of squares, 100M elements, 2026-11-25): PoCL 5.0 on
 * a 16-core Xeon, chunk shapes with 4-64 groups per CU and 1 or 8 items per
 * group all ran in 12.7-14.3 ms (OpenMP: 12.8 ms), grid-stride 86-158 ms;
 * PoCL 3.1 on 2 cores, chunk 70-75 ms (OpenMP: 66-68 ms), grid-stride
 * 470-630 ms.  NVIDIA OpenCL on an H200: grid-stride with 8 groups of 256
 * per SM 0.5 ms, 32 groups per SM 4.0 ms (more groups, more contention on
 * the one atomic), chunk shapes 1.5-8.6 ms.
 */
enum {
  OCL_GPU_LOCAL = 256,
  OCL_GPU_GROUPS_PER_CU = 8,
  OCL_CPU_GROUPS_PER_CU = 16,
  OCL_CPU_LOCAL = 1
};

static void ocl_launch_shape(const ocl_device *d, const ocl_kernel *k,
                             int64_t total, size_t *global, size_t *local,
                             int64_t *chunk) {
  size_t limit = k->work_group < d->max_work_group ? k->work_group
                                                   : d->max_work_group;
  uint64_t n = (uint64_t)total;
  if (d->type & CL_DEVICE_TYPE_CPU) {
    size_t l = OCL_CPU_LOCAL < limit ? OCL_CPU_LOCAL : limit;
    uint64_t items = (uint64_t)d->compute_units * OCL_CPU_GROUPS_PER_CU * l;
    uint64_t c = (n + items - 1) / items;
    uint64_t used = (n + c - 1) / c;
    *chunk = (int64_t)c;
    *local = l;
    *global = (size_t)((used + l - 1) / l * l);
  } else {
    size_t l = OCL_GPU_LOCAL < limit ? OCL_GPU_LOCAL : limit;
    uint64_t groups = (n + l - 1) / l;
    uint64_t most = (uint64_t)d->compute_units * OCL_GPU_GROUPS_PER_CU;
    if (groups > most) groups = most;
    *chunk = 0;
    *local = l;
    *global = (size_t)(groups * l);
  }
}

/* Sets the arguments and enqueues the launch on q without waiting.  The
 * arguments are captured at the enqueue, so the kernel object may be
 * launched again at once with others. */
static kern_status ocl_enqueue_launch(ocl_state *st, ocl_device *d,
                                      cl_command_queue q, ocl_kernel *kern,
                                      const kc_kernel *k, void *const *args,
                                      const kern__dims *dims, cl_event *ev) {
  cl_uint a = 0;
  for (int p = 0; p < k->nparams; p++) {
    if (k->params[p].kind == KERN_PARAM_INDEXED) {
      /* Warp's indexedarray_t holding cl_mem handles (runtime/indexed.c)
       * becomes the buffers and kern__ishape of emit/indexed.c. */
      const unsigned char *w = args[p];
      int64_t esize = (int64_t)kern_type_size(k->params[p].type);
      struct {
        int64_t shape[4], dshape[4], strides[4];
      } is;
      uint64_t addr;
      memcpy(&addr, w, 8);
      cl_mem m = (cl_mem)(uintptr_t)addr;
      OCL_CALL(st, KERN_ERROR_LAUNCH, clSetKernelArg,
               (kern->kernel, a++, sizeof m, &m));
      for (int j = 0; j < 4; j++) {
        int32_t ds, dst, sh;
        memcpy(&ds, w + 16 + 4 * j, 4);
        memcpy(&dst, w + 32 + 4 * j, 4);
        memcpy(&sh, w + 88 + 4 * j, 4);
        is.dshape[j] = ds;
        is.strides[j] = esize ? dst / esize : 0;
        is.shape[j] = sh;
        memcpy(&addr, w + 56 + 8 * j, 8);
        cl_mem x = (cl_mem)(uintptr_t)addr;
        OCL_CALL(st, KERN_ERROR_LAUNCH, clSetKernelArg,
                 (kern->kernel, a++, sizeof x, x ? (const void *)&x : NULL));
      }
      OCL_CALL(st, KERN_ERROR_LAUNCH, clSetKernelArg,
               (kern->kernel, a++, sizeof is, &is));
    } else if (k->params[p].kind == KERN_PARAM_ARRAY) {
      const kern__arr *arr = args[p];
      cl_mem m = (cl_mem)arr->data;
      /* The generated kern__shape carries the shard offset (opencl.c). */
      struct {
        int64_t d[4];
        int64_t off;
      } shape;
      memcpy(shape.d, arr->shape, sizeof shape.d);
      shape.off = arr->off;
      OCL_CALL(st, KERN_ERROR_LAUNCH, clSetKernelArg,
               (kern->kernel, a++, sizeof m, &m));
      OCL_CALL(st, KERN_ERROR_LAUNCH, clSetKernelArg,
               (kern->kernel, a++, sizeof shape, &shape));
    } else {
      OCL_CALL(st, KERN_ERROR_LAUNCH, clSetKernelArg,
               (kern->kernel, a++, kern__value_arg_size(k->params[p].type),
                args[p]));
    }
  }
  /* OpenCL rejects an empty NDRange; an empty grid has nothing to run. */
  if (dims->total - dims->begin <= 0) return KERN_SUCCESS;
  kern__dims dd = *dims;
  size_t global, local;
  ocl_launch_shape(d, kern, dims->total - dims->begin, &global, &local,
                   &dd.chunk);
  if (dims->block != 0) {
    /* A block is one work-group of exactly block_dim work-items (Note
     * [block_dim] in runtime/module.c): no chunks, so each group's items
     * are consecutive indices.  The default is Warp's CUDA one, 256. */
    uint64_t l = dims->block > 0 ? (uint64_t)dims->block : 256;
    uint64_t n = (uint64_t)(dims->total - dims->begin);
    dd.chunk = 0;
    dd.block = (int64_t)l;
    local = (size_t)l;
    global = (size_t)((n + l - 1) / l * l);
  }
  OCL_CALL(st, KERN_ERROR_LAUNCH, clSetKernelArg,
           (kern->kernel, a, sizeof dd, &dd));
  OCL_CALL(st, KERN_ERROR_LAUNCH, clEnqueueNDRangeKernel,
           (q, kern->kernel, 1, NULL, &global, &local, 0, NULL, ev));
  return KERN_SUCCESS;
}

static kern_status ocl_launch(void *state, int dev, void *fn,
                              const kc_kernel *k, void *const *args,
                              const kern__dims *dims) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  if ((s = ocl_enqueue_launch(st, d, d->queue, fn, k, args, dims, NULL)))
    return s;
  OCL_CALL(st, KERN_ERROR_LAUNCH, clFinish, (d->queue));
  return KERN_SUCCESS;
}

static kern_status ocl_synchronize(void *state, int dev) {
  ocl_state *st = state;
  if (dev < 0 || dev >= st->ndevices)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "opencl: no device %d", dev);
  ocl_device *d = &st->devices[dev];
  /* A device never used has nothing queued. */
  if (d->queue) OCL_CALL(st, KERN_ERROR_DEVICE, clFinish, (d->queue));
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- streams
 * Native streams (issue #11): a stream is an in-order command queue of the
 * device's context, with profiling on so events carry device timestamps;
 * the default stream is the queue the synchronous calls use, so they are
 * ordered after asynchronous work enqueued there.  Work is enqueued without
 * blocking and flushed, so it starts while the caller goes on.  An event is
 * a box around the marker of its latest record, because every OpenCL marker
 * is a new cl_event.  Markers and barriers with wait lists are OpenCL 1.2:
 * with a 1.1 loader, creating a stream fails with KERN_ERROR_UNSUPPORTED.
 * Graphs are recorded and replayed by the runtime (graph.c). */

static kern_status ocl_need_12(ocl_state *st) {
  if (st->cl.clEnqueueMarkerWithWaitList && st->cl.clEnqueueBarrierWithWaitList)
    return KERN_SUCCESS;
  return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                     "opencl: streams need OpenCL 1.2 markers and barriers, "
                     "which the OpenCL loader lacks");
}

typedef struct ocl_event_box {
  cl_event ev; /* NULL until recorded */
  int dev;
} ocl_event_box;

/* Remembers ev as q's last command (taking ownership of ev). */
static void ocl_set_last(ocl_state *st, cl_command_queue q, cl_event ev) {
  if (!ev) return;
  ocl_qlast *e = st->qlast;
  while (e && e->q != q) e = e->next;
  if (!e && (e = kern__calloc(1, sizeof *e))) {
    e->q = q;
    e->next = st->qlast;
    st->qlast = e;
  }
  if (!e) { /* out of memory: queries then wait less precisely */
    st->cl.clReleaseEvent(ev);
    return;
  }
  if (e->ev) st->cl.clReleaseEvent(e->ev);
  e->ev = ev;
}

static void ocl_forget_queue(ocl_state *st, cl_command_queue q) {
  for (ocl_qlast **pp = &st->qlast; *pp; pp = &(*pp)->next)
    if ((*pp)->q == q) {
      ocl_qlast *e = *pp;
      *pp = e->next;
      if (e->ev) st->cl.clReleaseEvent(e->ev);
      kern__free(e);
      return;
    }
}

static kern_status ocl_stream_new(void *state, int dev, void **out) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_need_12(st);
  if (s == KERN_SUCCESS) s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  cl_int err;
  cl_command_queue q = st->cl.clCreateCommandQueue(
      d->context, d->id, CL_QUEUE_PROFILING_ENABLE, &err);
  OCL_SUCCEED_OR_RETURN(st, KERN_ERROR_DEVICE, "clCreateCommandQueue", err);
  *out = q;
  return KERN_SUCCESS;
}

static kern_status ocl_stream_free(void *state, int dev, void *q) {
  ocl_state *st = state;
  ocl_forget_queue(st, q);
  OCL_CALL(st, KERN_ERROR_DEVICE, clReleaseCommandQueue, ((cl_command_queue)q));
  return KERN_SUCCESS;
}

static kern_status ocl_stream_default(void *state, int dev, void **out) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_need_12(st);
  if (s == KERN_SUCCESS) s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  *out = d->queue;
  return KERN_SUCCESS;
}

static kern_status ocl_stream_sync(void *state, int dev, void *q) {
  ocl_state *st = state;
  OCL_CALL(st, KERN_ERROR_DEVICE, clFinish, ((cl_command_queue)q));
  return KERN_SUCCESS;
}

static kern_status ocl_event_status(ocl_state *st, cl_event ev, int *done) {
  cl_int status = CL_COMPLETE;
  OCL_CALL(st, KERN_ERROR_DEVICE, clGetEventInfo,
           (ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
            NULL));
  if (status < 0)
    return kern__error(st->ctx, KERN_ERROR_DEVICE,
                       "opencl: queued work failed with %s",
                       ocl_error_name_of(status));
  *done = status == CL_COMPLETE;
  return KERN_SUCCESS;
}

static kern_status ocl_stream_query(void *state, int dev, void *q, int *done) {
  ocl_state *st = state;
  ocl_qlast *e = st->qlast;
  while (e && e->q != q) e = e->next;
  if (!e || !e->ev) {
    *done = 1;
    return KERN_SUCCESS;
  }
  return ocl_event_status(st, e->ev, done);
}

static kern_status ocl_event_new(void *state, int dev, void **out) {
  ocl_state *st = state;
  ocl_event_box *b = kern__calloc(1, sizeof *b);
  if (!b)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "opencl: out of memory");
  b->dev = dev;
  *out = b;
  return KERN_SUCCESS;
}

static void ocl_event_free(void *state, int dev, void *e) {
  ocl_state *st = state;
  ocl_event_box *b = e;
  if (!b) return;
  if (b->ev) st->cl.clReleaseEvent(b->ev);
  kern__free(b);
}

static kern_status ocl_event_record(void *state, int dev, void *e, void *q) {
  ocl_state *st = state;
  ocl_event_box *b = e;
  cl_event ev = NULL;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueMarkerWithWaitList,
           ((cl_command_queue)q, 0, NULL, &ev));
  OCL_CALL(st, KERN_ERROR_DEVICE, clFlush, ((cl_command_queue)q));
  if (b->ev) st->cl.clReleaseEvent(b->ev);
  b->ev = ev;
  b->dev = dev;
  return KERN_SUCCESS;
}

static kern_status ocl_event_sync(void *state, int dev, void *e) {
  ocl_state *st = state;
  ocl_event_box *b = e;
  if (!b->ev) return KERN_SUCCESS;
  OCL_CALL(st, KERN_ERROR_DEVICE, clWaitForEvents, (1, &b->ev));
  return KERN_SUCCESS;
}

static kern_status ocl_event_query(void *state, int dev, void *e, int *done) {
  ocl_state *st = state;
  ocl_event_box *b = e;
  if (!b->ev) {
    *done = 1;
    return KERN_SUCCESS;
  }
  return ocl_event_status(st, b->ev, done);
}

static kern_status ocl_event_elapsed(void *state, int dev, void *a, void *b,
                                     double *ms) {
  ocl_state *st = state;
  ocl_event_box *x = a, *y = b;
  int done = 0;
  kern_status s;
  if ((s = ocl_event_query(state, dev, a, &done)) || !done ||
      (s = ocl_event_query(state, dev, b, &done)) || !done)
    return s ? s
             : kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                           "kern_event_elapsed: an event has not completed "
                           "yet (synchronize it first)");
  cl_ulong t0 = 0, t1 = 0;
  OCL_CALL(st, KERN_ERROR_DEVICE, clGetEventProfilingInfo,
           (x->ev, CL_PROFILING_COMMAND_END, sizeof t0, &t0, NULL));
  OCL_CALL(st, KERN_ERROR_DEVICE, clGetEventProfilingInfo,
           (y->ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
  *ms = ((double)t1 - (double)t0) / 1e6;
  return KERN_SUCCESS;
}

static kern_status ocl_stream_wait(void *state, int dev, void *q, void *e) {
  ocl_state *st = state;
  ocl_event_box *b = e;
  if (!b->ev) return KERN_SUCCESS;
  if (b->dev != dev) {
    /* Another device has another cl_context, whose events a queue cannot
     * wait for: the host waits instead. */
    OCL_CALL(st, KERN_ERROR_DEVICE, clWaitForEvents, (1, &b->ev));
    return KERN_SUCCESS;
  }
  cl_event ev = NULL;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueBarrierWithWaitList,
           ((cl_command_queue)q, 1, &b->ev, &ev));
  ocl_set_last(st, q, ev);
  return KERN_SUCCESS;
}

static kern_status ocl_launch_async(void *state, int dev, void *q, void *fn,
                                    const kc_kernel *k, void *const *args,
                                    const kern__dims *dims) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  cl_event ev = NULL;
  if ((s = ocl_enqueue_launch(st, d, q, fn, k, args, dims, &ev))) return s;
  ocl_set_last(st, q, ev);
  OCL_CALL(st, KERN_ERROR_LAUNCH, clFlush, ((cl_command_queue)q));
  return KERN_SUCCESS;
}

/* Host memory of a non-blocking copy must stay untouched until the copy is
 * done, which kern.h asks of the caller. */
static kern_status ocl_copy_in_async(void *state, int dev, void *q, void *dst,
                                     size_t off, const void *src,
                                     size_t bytes) {
  ocl_state *st = state;
  if (bytes == 0) return KERN_SUCCESS;
  cl_event ev = NULL;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueWriteBuffer,
           ((cl_command_queue)q, (cl_mem)dst, CL_FALSE, off, bytes, src, 0,
            NULL, &ev));
  ocl_set_last(st, q, ev);
  OCL_CALL(st, KERN_ERROR_DEVICE, clFlush, ((cl_command_queue)q));
  return KERN_SUCCESS;
}

static kern_status ocl_copy_out_async(void *state, int dev, void *q,
                                      void *dst, const void *src, size_t off,
                                      size_t bytes) {
  ocl_state *st = state;
  if (bytes == 0) return KERN_SUCCESS;
  cl_event ev = NULL;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueReadBuffer,
           ((cl_command_queue)q, (cl_mem)src, CL_FALSE, off, bytes, dst, 0,
            NULL, &ev));
  ocl_set_last(st, q, ev);
  OCL_CALL(st, KERN_ERROR_DEVICE, clFlush, ((cl_command_queue)q));
  return KERN_SUCCESS;
}

static kern_status ocl_copy_dd_async(void *state, int dev, void *q, void *dst,
                                     size_t doff, const void *src,
                                     size_t soff, size_t bytes) {
  ocl_state *st = state;
  if (bytes == 0) return KERN_SUCCESS;
  cl_event ev = NULL;
  OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueCopyBuffer,
           ((cl_command_queue)q, (cl_mem)src, (cl_mem)dst, soff, doff, bytes,
            0, NULL, &ev));
  ocl_set_last(st, q, ev);
  OCL_CALL(st, KERN_ERROR_DEVICE, clFlush, ((cl_command_queue)q));
  return KERN_SUCCESS;
}

/* clEnqueueFillBuffer when the pattern allows it; any other pattern waits
 * for the queue and takes the synchronous path. */
static kern_status ocl_fill_async(void *state, int dev, void *q, void *dst,
                                  const void *pattern, size_t pattern_size,
                                  size_t bytes) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS || bytes == 0) return s;
  size_t period = pattern_size ? ocl_pattern_period(pattern, pattern_size) : 0;
  int pow2 = period && (period & (period - 1)) == 0 && period <= 128;
  if (pow2 && bytes % pattern_size == 0 && st->cl.clEnqueueFillBuffer &&
      d->c12) {
    cl_event ev = NULL;
    OCL_CALL(st, KERN_ERROR_DEVICE, clEnqueueFillBuffer,
             ((cl_command_queue)q, (cl_mem)dst, pattern, period, 0, bytes, 0,
              NULL, &ev));
    ocl_set_last(st, q, ev);
    OCL_CALL(st, KERN_ERROR_DEVICE, clFlush, ((cl_command_queue)q));
    return KERN_SUCCESS;
  }
  OCL_CALL(st, KERN_ERROR_DEVICE, clFinish, ((cl_command_queue)q));
  return ocl_fill(state, dev, dst, pattern, pattern_size, bytes);
}

/* ---------------------------------------------------------------- pinned
 * Note [pinned host memory]
 * OpenCL has no call that pins ordinary memory.  What drivers document
 * instead (NVIDIA's OpenCL best-practices guide among them) is a buffer
 * made with CL_MEM_ALLOC_HOST_PTR, which the driver backs with page-locked
 * host memory, mapped once to get its address: reads and writes between
 * that address and device buffers then go by DMA, without a staging copy,
 * and clEnqueueWriteBuffer / clEnqueueReadBuffer with CL_FALSE are truly
 * asynchronous.  So kern_host_alloc on OpenCL makes such a buffer, maps it
 * for reading and writing, and keeps the cl_mem, mapped, until
 * kern_host_free: the address stays valid and pinned exactly as long as
 * the mapping.  kern never uses the cl_mem itself in a command (the
 * specification leaves commands on a buffer that is mapped for writing
 * undefined); copies name the mapped address as their host pointer.  A
 * request larger than the device's largest buffer
 * (CL_DEVICE_MAX_MEM_ALLOC_SIZE) gets ordinary page-aligned memory, as
 * before: copies from it are correct, only staged. */

static void ocl_pin_drop(ocl_state *st, ocl_pin *pin) {
  if (pin->mem) {
    ocl_device *d = &st->devices[pin->dev];
    if (d->queue) {
      st->cl.clEnqueueUnmapMemObject(d->queue, pin->mem, pin->p, 0, NULL,
                                     NULL);
      st->cl.clFinish(d->queue);
    }
    st->cl.clReleaseMemObject(pin->mem);
  } else {
    free(pin->p); /* from posix_memalign */
  }
  kern__free(pin);
}

static kern_status ocl_host_alloc(void *state, int dev, size_t bytes,
                                  void **out) {
  ocl_state *st = state;
  ocl_device *d = NULL;
  kern_status s = ocl_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  ocl_pin *pin = kern__calloc(1, sizeof *pin);
  if (!pin)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "opencl: out of memory");
  pin->bytes = bytes;
  pin->dev = dev;
  if (bytes > d->max_alloc) {
    if (posix_memalign(&pin->p, 4096, bytes) != 0) {
      kern__free(pin);
      return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                         "opencl: cannot allocate %zu host bytes", bytes);
    }
  } else {
    cl_int err;
    pin->mem = st->cl.clCreateBuffer(
        d->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
        &err);
    if (err != CL_SUCCESS) {
      kern__free(pin);
      return ocl_fail(st, KERN_ERROR_OUT_OF_MEMORY,
                      "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)", err, __FILE__,
                      __LINE__);
    }
    pin->p = st->cl.clEnqueueMapBuffer(d->queue, pin->mem, CL_TRUE,
                                       CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
                                       0, NULL, NULL, &err);
    if (err != CL_SUCCESS || !pin->p) {
      st->cl.clReleaseMemObject(pin->mem);
      kern__free(pin);
      return ocl_fail(st, KERN_ERROR_OUT_OF_MEMORY, "clEnqueueMapBuffer",
                      err != CL_SUCCESS ? err : CL_MAP_FAILURE, __FILE__,
                      __LINE__);
    }
  }
  pin->next = st->pins;
  st->pins = pin;
  *out = pin->p;
  return KERN_SUCCESS;
}

static void ocl_host_free(void *state, int dev, void *p) {
  ocl_state *st = state;
  (void)dev;
  for (ocl_pin **pp = &st->pins; *pp; pp = &(*pp)->next)
    if ((*pp)->p == p) {
      ocl_pin *pin = *pp;
      *pp = pin->next;
      ocl_pin_drop(st, pin);
      return;
    }
}

void *kern__opencl_host_mem(void *state, const void *p, size_t *bytes) {
  ocl_state *st = state;
  for (ocl_pin *pin = st ? st->pins : NULL; pin; pin = pin->next)
    if (pin->p == p) {
      if (bytes) *bytes = pin->bytes;
      return pin->mem;
    }
  return NULL;
}

/* ---------------------------------------------------------------- interop
 * Note [foreign contexts]
 * OpenCL objects work together only within one cl_context: a kernel built
 * in kern's context cannot take a caller's cl_mem from another context,
 * and a queue of another context cannot run it.  So a kern device works in
 * exactly one cl_context.  kern makes its own on first use, unless the
 * caller hands it a queue (kern_stream_wrap) or a buffer (kern_array_wrap,
 * kern_array_from_dlpack) before that: then kern adopts the caller's
 * context (retaining it) and makes its buffers, programs and queues there,
 * so the caller's objects and kern's mix freely.  A queue must be for the
 * very device and in order (a kern stream runs its work in order); a
 * buffer's context must include the device.  Anything from a context other
 * than the one the device already uses is refused with the reason and the
 * remedy, never used: the driver would fail, or worse, later. */

static kern_status ocl_adopt(void *state, int dev, int what, void *native) {
  ocl_state *st = state;
  if (dev < 0 || dev >= st->ndevices)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "opencl: no device %d", dev);
  ocl_device *d = &st->devices[dev];
  const char *kind = what == KERN__NATIVE_STREAM ? "command queue" : "cl_mem";
  cl_context c = NULL;
  if (what == KERN__NATIVE_STREAM) {
    cl_command_queue q = native;
    cl_device_id qd = NULL;
    cl_command_queue_properties props = 0;
    OCL_CALL(st, KERN_ERROR_INVALID_ARGUMENT, clGetCommandQueueInfo,
             (q, CL_QUEUE_CONTEXT, sizeof c, &c, NULL));
    OCL_CALL(st, KERN_ERROR_INVALID_ARGUMENT, clGetCommandQueueInfo,
             (q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL));
    OCL_CALL(st, KERN_ERROR_INVALID_ARGUMENT, clGetCommandQueueInfo,
             (q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    if (qd != d->id) {
      const char *other = "another device";
      for (int i = 0; i < st->ndevices; i++)
        if (st->devices[i].id == qd) other = st->devices[i].name;
      return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "opencl: the command queue is for '%s', not for "
                         "opencl:%d ('%s'); wrap it on its own device",
                         other, dev, d->name);
    }
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
      return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                         "opencl: the command queue runs its commands out of "
                         "order (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), but "
                         "a kern stream runs its work in order; wrap an "
                         "in-order queue");
  } else {
    OCL_CALL(st, KERN_ERROR_INVALID_ARGUMENT, clGetMemObjectInfo,
             ((cl_mem)native, CL_MEM_CONTEXT, sizeof c, &c, NULL));
  }
  if (c == d->context) return KERN_SUCCESS;
  size_t n = 0;
  OCL_CALL(st, KERN_ERROR_INVALID_ARGUMENT, clGetContextInfo,
           (c, CL_CONTEXT_DEVICES, 0, NULL, &n));
  cl_device_id ids[64];
  int found = 0;
  if (n <= sizeof ids) {
    OCL_CALL(st, KERN_ERROR_INVALID_ARGUMENT, clGetContextInfo,
             (c, CL_CONTEXT_DEVICES, n, ids, NULL));
    for (size_t i = 0; i < n / sizeof *ids; i++) found |= ids[i] == d->id;
  }
  if (!found)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "opencl: the %s belongs to a cl_context without "
                       "opencl:%d ('%s')",
                       kind, dev, d->name);
  if (d->context)
    return kern__error(
        st->ctx, KERN_ERROR_UNSUPPORTED,
        "opencl: the %s belongs to another cl_context than the one "
        "opencl:%d ('%s') already works in (%s); a device works in one "
        "cl_context per kern context, so wrap the caller's queue or "
        "buffer before kern allocates, builds or makes a stream on the "
        "device, in a new kern context if need be",
        kind, dev, d->name,
        d->adopted ? "adopted from an earlier wrap" : "kern's own");
  OCL_CALL(st, KERN_ERROR_DEVICE, clRetainContext, (c));
  d->context = c;
  d->adopted = 1;
  return KERN_SUCCESS;
}

/* A sub-buffer for a byte offset into a caller's cl_mem (DLPack imports);
 * its access flags are the parent's.  OpenCL can start one only at the
 * device's base address alignment, which the message names. */
static kern_status ocl_mem_sub(void *state, int dev, void *native,
                               size_t off, size_t bytes, void **out) {
  ocl_state *st = state;
  if (dev < 0 || dev >= st->ndevices)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "opencl: no device %d", dev);
  ocl_device *d = &st->devices[dev];
  if (!st->cl.clCreateSubBuffer)
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "opencl: an offset into a cl_mem needs "
                       "clCreateSubBuffer (OpenCL 1.1), which the loader "
                       "lacks");
  cl_uint bits = 0;
  st->cl.clGetDeviceInfo(d->id, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits,
                         &bits, NULL);
  size_t align = bits / 8 ? bits / 8 : 1;
  if (off % align != 0)
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "opencl: byte offset %zu into a cl_mem is not a "
                       "multiple of opencl:%d's base address alignment "
                       "(CL_DEVICE_MEM_BASE_ADDR_ALIGN, %zu bytes), where "
                       "alone OpenCL can start a buffer",
                       off, dev, align);
  cl_buffer_region region = {off, bytes};
  cl_int err;
  cl_mem m = st->cl.clCreateSubBuffer((cl_mem)native, 0,
                                      CL_BUFFER_CREATE_TYPE_REGION, &region,
                                      &err);
  OCL_SUCCEED_OR_RETURN(st, KERN_ERROR_UNSUPPORTED, "clCreateSubBuffer", err);
  *out = m;
  return KERN_SUCCESS;
}

const kern_backend kern__backend_opencl = {
    .version = 4,
    .name = "opencl",
    .kind = KERN_BACKEND_OPENCL,
    .target = KERN_TARGET_OPENCL,
    .probe = ocl_probe,
    .release = ocl_release,
    .device_count = ocl_device_count,
    .device_info = ocl_device_info,
    .mem_alloc = ocl_mem_alloc,
    .mem_free = ocl_mem_free,
    .copy_in = ocl_copy_in,
    .copy_out = ocl_copy_out,
    .fill = ocl_fill,
    .module_build = ocl_module_build,
    .module_free = ocl_module_free,
    .kernel_get = ocl_kernel_get,
    .launch = ocl_launch,
    .synchronize = ocl_synchronize,
    .init = ocl_init,
    .copy_in_at = ocl_copy_in_at,
    .copy_out_at = ocl_copy_out_at,
    .copy_dd = ocl_copy_dd,
    .stream_new = ocl_stream_new,
    .stream_free = ocl_stream_free,
    .stream_default = ocl_stream_default,
    .stream_sync = ocl_stream_sync,
    .stream_query = ocl_stream_query,
    .stream_wait = ocl_stream_wait,
    .event_new = ocl_event_new,
    .event_free = ocl_event_free,
    .event_record = ocl_event_record,
    .event_sync = ocl_event_sync,
    .event_query = ocl_event_query,
    .event_elapsed = ocl_event_elapsed,
    .launch_async = ocl_launch_async,
    .copy_in_async = ocl_copy_in_async,
    .copy_out_async = ocl_copy_out_async,
    .copy_dd_async = ocl_copy_dd_async,
    .fill_async = ocl_fill_async,
    .host_alloc = ocl_host_alloc,
    .host_free = ocl_host_free,
    .adopt = ocl_adopt,
    .mem_sub = ocl_mem_sub,
};
