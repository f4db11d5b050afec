/*
 * backend_cuda.c -- the CUDA backend: NVRTC compiles the emitted CUDA C to a
 * cubin, the driver API loads and launches it.
 *
 * Design choices:
 *  - No link-time dependency on CUDA and no CUDA headers at build time.
 *    libcuda.so.1 and NVRTC are loaded with dlopen and every entry point is
 *    resolved with dlsym into a table in the backend state; the handful of
 *    types, enum values and error codes used are declared below with the
 *    numeric values of cuda.h / nvrtc.h (they are part of the stable ABI).
 *    A machine without the driver or NVRTC gets zero devices and a reason.
 *  - Every driver and NVRTC call goes through CHECK(), which records the call
 *    text, the driver's error name, file:line and the status through
 *    kern__error (see Note [one checking macro]).
 *  - Each device uses its primary context (shared with the CUDA runtime, so
 *    arrays can be handed to PyTorch/CuPy) and one stream created with
 *    default flags, the device's default stream: every synchronous call
 *    (copy, fill, launch) is its asynchronous form on that stream followed
 *    by a wait for it, so copies and launches can never race.  Being a
 *    blocking stream, it is also ordered against the legacy NULL stream
 *    (PyTorch's and CuPy's default), yet not against other blocking streams:
 *    a synchronous call never touches the legacy stream itself, which the
 *    driver refuses while any blocking stream is being captured into a
 *    graph (CUDA_ERROR_STREAM_CAPTURE_IMPLICIT).  The context is retained
 *    lazily on first use: listing devices must not create a context
 *    (hundreds of MB) on every GPU.
 *  - A device fault (illegal address, ...) poisons a CUDA context for good.
 *    The device is then marked broken and every later call on it fails with
 *    KERN_ERROR_DEVICE and the original error, instead of crashing or
 *    returning garbage (see Note [sticky errors]).
 *  - Launch is the hot path (target: within 1 us of a bare cuLaunchKernel).
 *    kernel_get chooses the block size and the maximal resident grid once
 *    from the occupancy API and preallocates the kernelParams array, so a
 *    launch does no allocation and no driver query beyond cuCtxGetCurrent.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "runtime.h"
#include "cuda_check.h"
#include "bgbuild.h"

/* ---------------------------------------------------------------- CUDA ABI
 * Declared here so the build needs no CUDA headers.  Values from cuda.h. */

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef size_t (*CUoccupancyB2DSize)(int block_size);
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUgraphNode_st *CUgraphNode;

/* cuda.h's CUDA_KERNEL_NODE_PARAMS_v2; the v1 entry point reads only the
 * fields up to `extra`, so one struct with the tail zeroed serves both. */
typedef struct cu_kernel_node_params {
  CUfunction func;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void **kernelParams;
  void **extra;
  void *kern; /* CUkernel */
  CUcontext ctx;
} cu_kernel_node_params;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_ECC_UNCORRECTABLE = 214,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
  CUDA_ERROR_INVALID_PC = 718,
  CUDA_ERROR_LAUNCH_FAILED = 719
};

enum {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
  CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
  CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106
};

enum { CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0 };
enum { CU_STREAM_DEFAULT = 0 };
enum { CUDA_ERROR_NOT_READY = 600 };
enum { CU_EVENT_DEFAULT = 0 };
enum { CU_MEMHOSTALLOC_PORTABLE = 1 };
enum { CU_STREAM_CAPTURE_MODE_RELAXED = 2 };
enum {
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
};

/* Values from nvrtc.h. */
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
enum { NVRTC_SUCCESS = 0, NVRTC_ERROR_INVALID_OPTION = 5,
       NVRTC_ERROR_COMPILATION = 6 };

/* The driver entry points.  Fields carry the documented (un-suffixed) names
 * so that messages quote the call as a user reads it in the CUDA manual;
 * cu_syms says which exported symbol fills each. */
typedef struct cu_api {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuGetErrorName)(CUresult r, const char **name);
  CUresult (*cuGetErrorString)(CUresult r, const char **text);
  CUresult (*cuDeviceGetCount)(int *n);
  CUresult (*cuDeviceGet)(CUdevice *d, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int len, CUdevice d);
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice d);
  CUresult (*cuDeviceGetAttribute)(int *v, int attr, CUdevice d);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *c, CUdevice d);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice d);
  CUresult (*cuCtxGetCurrent)(CUcontext *c);
  CUresult (*cuCtxSetCurrent)(CUcontext c);
  CUresult (*cuCtxSynchronize)(void);
  CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream s);
  CUresult (*cuStreamSynchronize)(CUstream s);
  CUresult (*cuMemAlloc)(CUdeviceptr *p, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr p);
  CUresult (*cuModuleLoadDataEx)(CUmodule *m, const void *image, unsigned n,
                                 int *options, void **values);
  CUresult (*cuModuleUnload)(CUmodule m);
  CUresult (*cuModuleGetFunction)(CUfunction *f, CUmodule m,
                                  const char *name);
  CUresult (*cuFuncGetAttribute)(int *v, int attr, CUfunction f);
  CUresult (*cuLaunchKernel)(CUfunction f, unsigned gx, unsigned gy,
                             unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned shmem, CUstream s,
                             void **params, void **extra);
  /* Optional (NULL when missing): the launch falls back to 2048/block. */
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *n,
                                                          CUfunction f,
                                                          int block,
                                                          size_t shmem);
  CUresult (*cuOccupancyMaxPotentialBlockSize)(int *min_grid, int *block,
                                               CUfunction f,
                                               CUoccupancyB2DSize shmem_fn,
                                               size_t shmem, int limit);
  /* Streams, events, async copies, pinned memory (issue #11). */
  CUresult (*cuStreamQuery)(CUstream s);
  CUresult (*cuStreamWaitEvent)(CUstream s, CUevent e, unsigned flags);
  CUresult (*cuEventCreate)(CUevent *e, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent e);
  CUresult (*cuEventRecord)(CUevent e, CUstream s);
  CUresult (*cuEventSynchronize)(CUevent e);
  CUresult (*cuEventQuery)(CUevent e);
  CUresult (*cuEventElapsedTime)(float *ms, CUevent a, CUevent b);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src,
                                size_t bytes, CUstream s);
  CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes,
                                CUstream s);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src,
                                size_t bytes, CUstream s);
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char v, size_t n,
                              CUstream s);
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short v, size_t n,
                               CUstream s);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned int v, size_t n,
                               CUstream s);
  CUresult (*cuMemHostAlloc)(void **p, size_t bytes, unsigned flags);
  CUresult (*cuMemFreeHost)(void *p);
  /* Graphs; optional (NULL: graphs replay kern's recorded list). */
  CUresult (*cuStreamBeginCapture)(CUstream s, int mode);
  CUresult (*cuStreamEndCapture)(CUstream s, CUgraph *g);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *x, CUgraph g,
                                          unsigned long long flags);
  CUresult (*cuGraphLaunch)(CUgraphExec x, CUstream s);
  CUresult (*cuGraphExecDestroy)(CUgraphExec x);
  CUresult (*cuGraphDestroy)(CUgraph g);
  CUresult (*cuStreamGetCaptureInfo)(CUstream s, int *status,
                                     unsigned long long *id, CUgraph *g,
                                     const CUgraphNode **deps, size_t *n);
  CUresult (*cuGraphExecKernelNodeSetParams)(
      CUgraphExec x, CUgraphNode n, const cu_kernel_node_params *p);
  /* Optional: kern_device_info.uuid stays zero without it.  The CUuuid it
   * fills is 16 bytes. */
  CUresult (*cuDeviceGetUuid)(unsigned char *uuid, CUdevice d);
} cu_api;

typedef struct nv_api {
  const char *(*nvrtcGetErrorString)(nvrtcResult r);
  nvrtcResult (*nvrtcVersion)(int *major, int *minor);
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *p, const char *src,
                                    const char *name, int nheaders,
                                    const char *const *headers,
                                    const char *const *include_names);
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *p);
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram p, int nopts,
                                     const char *const *opts);
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram p, size_t *n);
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram p, char *log);
  nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram p, size_t *n);
  nvrtcResult (*nvrtcGetPTX)(nvrtcProgram p, char *ptx);
  /* Optional: CUBIN output is NVRTC 11.1+, the arch list 11.2+. */
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram p, size_t *n);
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram p, char *cubin);
  nvrtcResult (*nvrtcGetNumSupportedArchs)(int *n);
  nvrtcResult (*nvrtcGetSupportedArchs)(int *archs);
} nv_api;

typedef struct sym {
  size_t offset;     /* of the field in cu_api / nv_api */
  const char *names; /* exported names to try, '|'-separated, best first */
  int required;
} sym;

static const sym cu_syms[] = {
#define S(field, names, req) {offsetof(cu_api, field), names, req}
    S(cuInit, "cuInit", 1),
    S(cuDriverGetVersion, "cuDriverGetVersion", 1),
    S(cuGetErrorName, "cuGetErrorName", 1),
    S(cuGetErrorString, "cuGetErrorString", 1),
    S(cuDeviceGetCount, "cuDeviceGetCount", 1),
    S(cuDeviceGet, "cuDeviceGet", 1),
    S(cuDeviceGetName, "cuDeviceGetName", 1),
    S(cuDeviceTotalMem, "cuDeviceTotalMem_v2", 1),
    S(cuDeviceGetAttribute, "cuDeviceGetAttribute", 1),
    S(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 1),
    S(cuDevicePrimaryCtxRelease,
      "cuDevicePrimaryCtxRelease_v2|cuDevicePrimaryCtxRelease", 1),
    S(cuCtxGetCurrent, "cuCtxGetCurrent", 1),
    S(cuCtxSetCurrent, "cuCtxSetCurrent", 1),
    S(cuCtxSynchronize, "cuCtxSynchronize", 1),
    S(cuStreamCreate, "cuStreamCreate", 1),
    S(cuStreamDestroy, "cuStreamDestroy_v2|cuStreamDestroy", 1),
    S(cuStreamSynchronize, "cuStreamSynchronize", 1),
    S(cuMemAlloc, "cuMemAlloc_v2", 1),
    S(cuMemFree, "cuMemFree_v2", 1),
    S(cuModuleLoadDataEx, "cuModuleLoadDataEx", 1),
    S(cuModuleUnload, "cuModuleUnload", 1),
    S(cuModuleGetFunction, "cuModuleGetFunction", 1),
    S(cuFuncGetAttribute, "cuFuncGetAttribute", 1),
    S(cuLaunchKernel, "cuLaunchKernel", 1),
    S(cuOccupancyMaxActiveBlocksPerMultiprocessor,
      "cuOccupancyMaxActiveBlocksPerMultiprocessor", 0),
    S(cuOccupancyMaxPotentialBlockSize, "cuOccupancyMaxPotentialBlockSize", 0),
    S(cuStreamQuery, "cuStreamQuery", 1),
    S(cuStreamWaitEvent, "cuStreamWaitEvent", 1),
    S(cuEventCreate, "cuEventCreate", 1),
    S(cuEventDestroy, "cuEventDestroy_v2|cuEventDestroy", 1),
    S(cuEventRecord, "cuEventRecord", 1),
    S(cuEventSynchronize, "cuEventSynchronize", 1),
    S(cuEventQuery, "cuEventQuery", 1),
    S(cuEventElapsedTime, "cuEventElapsedTime|cuEventElapsedTime_v2", 1),
    S(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", 1),
    S(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", 1),
    S(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", 1),
    S(cuMemsetD8Async, "cuMemsetD8Async", 1),
    S(cuMemsetD16Async, "cuMemsetD16Async", 1),
    S(cuMemsetD32Async, "cuMemsetD32Async", 1),
    S(cuMemHostAlloc, "cuMemHostAlloc", 1),
    S(cuMemFreeHost, "cuMemFreeHost", 1),
    S(cuStreamBeginCapture, "cuStreamBeginCapture_v2", 0),
    S(cuStreamEndCapture, "cuStreamEndCapture", 0),
    S(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", 0),
    S(cuGraphLaunch, "cuGraphLaunch", 0),
    S(cuGraphExecDestroy, "cuGraphExecDestroy", 0),
    S(cuGraphDestroy, "cuGraphDestroy", 0),
    S(cuStreamGetCaptureInfo, "cuStreamGetCaptureInfo_v2", 0),
    S(cuGraphExecKernelNodeSetParams,
      "cuGraphExecKernelNodeSetParams_v2|cuGraphExecKernelNodeSetParams", 0),
    S(cuDeviceGetUuid, "cuDeviceGetUuid_v2|cuDeviceGetUuid", 0),
#undef S
};

static const sym nv_syms[] = {
#define S(field, names, req) {offsetof(nv_api, field), names, req}
    S(nvrtcGetErrorString, "nvrtcGetErrorString", 1),
    S(nvrtcVersion, "nvrtcVersion", 1),
    S(nvrtcCreateProgram, "nvrtcCreateProgram", 1),
    S(nvrtcDestroyProgram, "nvrtcDestroyProgram", 1),
    S(nvrtcCompileProgram, "nvrtcCompileProgram", 1),
    S(nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize", 1),
    S(nvrtcGetProgramLog, "nvrtcGetProgramLog", 1),
    S(nvrtcGetPTXSize, "nvrtcGetPTXSize", 1),
    S(nvrtcGetPTX, "nvrtcGetPTX", 1),
    S(nvrtcGetCUBINSize, "nvrtcGetCUBINSize", 0),
    S(nvrtcGetCUBIN, "nvrtcGetCUBIN", 0),
    S(nvrtcGetNumSupportedArchs, "nvrtcGetNumSupportedArchs", 0),
    S(nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs", 0),
#undef S
};

/* NVRTC's soname carries the CUDA major version and the unversioned name is
 * only present with the development package, so try both, newest first,
 * then the toolkit's usual directories for machines without ldconfig
 * entries. */
static const char *const nvrtc_names[] = {
    "libnvrtc.so",
    "libnvrtc.so.13",
    "libnvrtc.so.12",
    "libnvrtc.so.11.2",
    "/usr/local/cuda/lib64/libnvrtc.so",
    "/usr/local/cuda/lib64/libnvrtc.so.13",
    "/usr/local/cuda/lib64/libnvrtc.so.12",
    "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13",
    "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.12",
    "/usr/local/cuda/targets/sbsa-linux/lib/libnvrtc.so.13",
    "/usr/local/cuda/targets/sbsa-linux/lib/libnvrtc.so.12",
};

/* ---------------------------------------------------------------- state */

typedef struct cuda_dev {
  CUdevice dev;
  char name[128];
  int cc_major, cc_minor;
  int sms;
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int l2_bytes;
  size_t mem_bytes;
  /* Descriptive properties for kern_device_info; 0 when a query failed
   * (they are not needed to run, so they never make a device unusable). */
  int warp_size, max_threads_per_block;
  int pci_domain, pci_bus, pci_device;
  unsigned char uuid[16];
  CUcontext ctx;   /* retained primary context; NULL until first use */
  CUstream stream; /* kern's stream on this device */
  CUresult broken; /* the sticky error that poisoned the context, or 0 */
} cuda_dev;

typedef struct cuda_state {
  kern_context *ctx; /* where errors go; NULL for the standalone check */
  void *libcuda, *libnvrtc;
  char nvrtc_path[256]; /* which NVRTC was loaded */
  cu_api cu;
  nv_api nv;
  CUresult cu_rc;  /* result of the last call made through CHECK */
  nvrtcResult nv_rc;
  int driver_version; /* 13000 for 13.0 */
  int nvrtc_major, nvrtc_minor;
  int narchs;
  int *archs; /* NVRTC's supported sm numbers, ascending; NULL if unknown */
  int ndev;
  cuda_dev *devs;
  char msg[1024]; /* the last failure, also for callers without a context */
} cuda_state;

typedef struct cuda_module cuda_module;

/* fn, block and grid_max change once when the quick tier's module is
 * replaced (Note [PTX tier]); they are read and written with __atomic
 * builtins, relaxed: any of the two functions is a correct launch with
 * either shape. */
typedef struct cuda_fn {
  CUfunction fn;
  unsigned block;    /* threads per block */
  int64_t grid_max;  /* blocks that are resident at once on the device */
  int nparams;
  void **params;     /* nparams + 1 slots, filled at each launch */
  struct cuda_fn *next;
  cuda_module *mod;
  char *symbol;      /* to find it again in the NVRTC build */
} cuda_fn;

/* The NVRTC build of a module that runs on kern's PTX meanwhile, in a child
 * process (Note [background builds] in bgbuild.c): what the child reads,
 * copied at the fork, and the handle on it. */
typedef struct cuda_job {
  cuda_state s;      /* a copy: NVRTC's entry points; errors go to s.msg */
  char *src;
  char arch[32];
  char key[65];
  char *dir;         /* the cache directory to store into, or NULL */
  kern__bg *bg;
} cuda_job;
enum { QUICK_BUILDING = 1, QUICK_ALONE = 2 };
/* A background NVRTC build that takes longer is given up (the largest
 * module of the conformance suite takes about 18 s on the H100 hosts). */
enum { JOB_TIMEOUT_S = 600 };

struct cuda_module {
  int dev;
  CUmodule mod;
  cuda_fn *fns; /* every handle kernel_get gave out; freed with the module */
  /* Nonzero while the kernels run kern's PTX: QUICK_BUILDING while job
   * builds the final code, QUICK_ALONE for KERN_CUDA_TIER_PTX; the launch
   * paths test it (tier_check). */
  _Atomic int quick;
  CUmodule quick_mod; /* the PTX tier's module once replaced; kept for
                         graphs captured before the switch */
  cuda_job *job;
  pthread_mutex_t mu; /* the switch against kernel_get */
};

/* ---------------------------------------------------------------- errors */

/* Note [sticky errors]
 * After a kernel faults, every later call on that CUDA context fails with
 * the same error; the context must be destroyed and recreated.  On driver
 * 580 (CUDA 13) even that is refused within the process: after
 * CUDA_ERROR_ILLEGAL_ADDRESS, releasing and resetting the primary context
 * and retaining it again still returns CUDA_ERROR_ILLEGAL_ADDRESS (tested on
 * an H200), so in practice the process must be restarted.  We remember the
 * first such error per device and refuse further work with a message that
 * says so, instead of crashing or returning garbage. */
static int cu_is_sticky(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return 1;
  default:
    return 0;
  }
}

static const char *cu_error_name(const cuda_state *s, CUresult r) {
  const char *name = NULL;
  if (s->cu.cuGetErrorName == NULL ||
      s->cu.cuGetErrorName(r, &name) != CUDA_SUCCESS || name == NULL)
    return "CUDA_ERROR_UNKNOWN";
  return name;
}

static const char *cu_error_text(const cuda_state *s, CUresult r) {
  const char *text = NULL;
  if (s->cu.cuGetErrorString == NULL ||
      s->cu.cuGetErrorString(r, &text) != CUDA_SUCCESS || text == NULL)
    return "unknown error";
  return text;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Formats the failure into s->msg and records it in the context (the first
 * error wins there).  lib is "cu" or "nv"; rc the call's result.  Driver
 * errors refine the status: out of memory is KERN_ERROR_OUT_OF_MEMORY, a
 * sticky error KERN_ERROR_DEVICE and marks device d broken. */
static kern_status cuda_fail(cuda_state *s, int dev, kern_status status,
                             const char *lib, int rc, const char *call,
                             const char *file, int line, const char *fmt,
                             ...) __attribute__((format(printf, 9, 10)));
static kern_status cuda_fail(cuda_state *s, int dev, kern_status status,
                             const char *lib, int rc, const char *call,
                             const char *file, int line, const char *fmt,
                             ...) {
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);

  const char *name, *text, *after = "";
  if (lib[0] == 'c') {
    name = cu_error_name(s, rc);
    text = cu_error_text(s, rc);
    if (rc == CUDA_ERROR_OUT_OF_MEMORY) status = KERN_ERROR_OUT_OF_MEMORY;
    if (cu_is_sticky(rc) && dev >= 0 && dev < s->ndev) {
      status = KERN_ERROR_DEVICE;
      if (!s->devs[dev].broken) s->devs[dev].broken = rc;
      after = "; the CUDA context is now unusable and must be recreated, "
              "which the CUDA driver allows only in a new process";
    }
  } else {
    name = s->nv.nvrtcGetErrorString ? s->nv.nvrtcGetErrorString(rc)
                                     : "NVRTC_ERROR";
    text = NULL;
  }
  char where[32] = "";
  if (dev >= 0) snprintf(where, sizeof where, " on cuda:%d", dev);
  snprintf(s->msg, sizeof s->msg, "cuda: %s failed%s: %s%s%s%s%s%s%s (%s:%d)",
           call, where, name, text ? " (" : "", text ? text : "",
           text ? ")" : "", detail[0] ? "; " : "", detail, after,
           base_name(file), line);
  if (s->ctx) kern__error(s->ctx, status, "%s", s->msg);
  return status;
}

/* Note [one checking macro]
 * CHECK(s, dev, status, lib, call, fmt, ...) runs s->lib.call, keeps its
 * result in s->lib_rc and evaluates to KERN_SUCCESS, or records
 *   "cuda: cuMemAlloc(&p, bytes) failed on cuda:0: CUDA_ERROR_OUT_OF_MEMORY
 *    (out of memory); bytes=800000000 (backend_cuda.c:210)"
 * and evaluates to the status (refined by cuda_fail).  fmt and its
 * arguments add the values a reader needs ("bytes=%zu"); pass "%s", "" when
 * there are none.  dev is -1 when no device is involved.  The success path
 * is one indirect call and one compare, cheap enough for launches. */
#define CHECK(s, dev, status, lib, call, ...)                                 \
  (((s)->lib##_rc = (s)->lib.call) == 0                                      \
       ? KERN_SUCCESS                                                        \
       : cuda_fail((s), (dev), (status), #lib, (int)(s)->lib##_rc, #call,    \
                   __FILE__, __LINE__, __VA_ARGS__))

/* Records a failure that is not a driver call's result. */
static kern_status cuda_error(cuda_state *s, kern_status status,
                              const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static kern_status cuda_error(cuda_state *s, kern_status status,
                              const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->msg, sizeof s->msg, fmt, ap);
  va_end(ap);
  if (s->ctx) kern__error(s->ctx, status, "%s", s->msg);
  return status;
}

/* ---------------------------------------------------------------- loading */

static int resolve(void *lib, const sym *syms, size_t n, void *api,
                   char *reason, size_t reason_size, const char *libname) {
  for (size_t i = 0; i < n; i++) {
    void *p = NULL;
    char names[128];
    snprintf(names, sizeof names, "%s", syms[i].names);
    for (char *save = NULL, *tok = strtok_r(names, "|", &save);
         tok && !p; tok = strtok_r(NULL, "|", &save))
      p = dlsym(lib, tok);
    if (p == NULL && syms[i].required) {
      snprintf(reason, reason_size, "%s lacks %s", libname, syms[i].names);
      return 0;
    }
    /* memcpy, not a cast through void **: the field is a function pointer. */
    memcpy((char *)api + syms[i].offset, &p, sizeof p);
  }
  return 1;
}

/* Loads NVRTC into s; on failure writes the reason and returns 0 (-1 when
 * memory ran out). */
static int nvrtc_load(cuda_state *s, char *reason, size_t reason_size) {
  char home[256];
  const char *cuda_home = getenv("CUDA_HOME");
  if (cuda_home && cuda_home[0]) {
    snprintf(home, sizeof home, "%s/lib64/libnvrtc.so", cuda_home);
    /* RTLD_NODELETE, as for libOpenCL in backend_opencl.c: NVRTC keeps
     * process-wide allocations it never frees, which unmapping it would
     * turn into (unsymbolizable) leaks, and its threads may outlive us. */
    s->libnvrtc = dlopen(home, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (s->libnvrtc) snprintf(s->nvrtc_path, sizeof s->nvrtc_path, "%s", home);
  }
  for (size_t i = 0; !s->libnvrtc && i < sizeof nvrtc_names / sizeof *nvrtc_names;
       i++) {
    s->libnvrtc = dlopen(nvrtc_names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (s->libnvrtc)
      snprintf(s->nvrtc_path, sizeof s->nvrtc_path, "%s", nvrtc_names[i]);
  }
  if (!s->libnvrtc) {
    snprintf(reason, reason_size, "libnvrtc not found");
    return 0;
  }
  if (!resolve(s->libnvrtc, nv_syms, sizeof nv_syms / sizeof *nv_syms, &s->nv,
               reason, reason_size, s->nvrtc_path))
    return 0;
  if (s->nv.nvrtcVersion(&s->nvrtc_major, &s->nvrtc_minor) != NVRTC_SUCCESS) {
    snprintf(reason, reason_size, "nvrtcVersion failed in %s", s->nvrtc_path);
    return 0;
  }
  int n = 0;
  if (s->nv.nvrtcGetNumSupportedArchs && s->nv.nvrtcGetSupportedArchs &&
      s->nv.nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0) {
    s->archs = kern__calloc((size_t)n, sizeof *s->archs);
    if (!s->archs) {
      snprintf(reason, reason_size, "out of memory");
      return -1;
    }
    if (s->nv.nvrtcGetSupportedArchs(s->archs) == NVRTC_SUCCESS)
      s->narchs = n;
  }
  return 1;
}

/* Frees a context's state; the libraries and the architecture list belong
 * to cuda_proc (Note [process-wide CUDA state]). */
static void state_free(cuda_state *s) {
  if (!s) return;
  kern__free(s->devs);
  kern__free(s);
}

/* Note [process-wide CUDA state]
 * Loading libcuda and NVRTC, resolving their entry points, cuInit and the
 * NVRTC version and architecture list happen once per process, in
 * cuda_init under the runtime's lock (Note [process-wide backend state] in
 * context.c), into cuda_proc, which nothing writes afterwards.  A probe
 * copies the tables and versions into the context's state and enumerates
 * the devices itself (cuInit has run, and the driver API is thread-safe
 * from there).  NVRTC is loaded even without libcuda, because the
 * standalone NVRTC check (kern__cuda_nvrtc_compile_check) needs only it. */
static cuda_state cuda_proc;
static char cuda_proc_reason[1024]; /* why the backend has no devices */
static char cuda_nvrtc_reason[1024]; /* why NVRTC is unusable, or "" */

static kern_status cuda_init(void) {
  cuda_state *s = &cuda_proc;
  s->ctx = NULL;
  int nv = nvrtc_load(s, cuda_nvrtc_reason, sizeof cuda_nvrtc_reason);
  if (nv < 0) {
    memset(s, 0, sizeof *s);
    return KERN_ERROR_OUT_OF_MEMORY; /* retried by the next context */
  }
  if (nv == 0) s->libnvrtc = NULL; /* unusable: probes say why */
  /* RTLD_NODELETE: the driver's threads and global state outlive any
   * context of ours; see libnvrtc above. */
  s->libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  char *reason = cuda_proc_reason;
  size_t reason_size = sizeof cuda_proc_reason;
  if (!s->libcuda) {
    snprintf(reason, reason_size, "libcuda.so.1 not found");
    return KERN_SUCCESS;
  }
  if (!resolve(s->libcuda, cu_syms, sizeof cu_syms / sizeof *cu_syms, &s->cu,
               reason, reason_size, "libcuda.so.1"))
    return KERN_SUCCESS;
  if (!nv) {
    snprintf(reason, reason_size, "%s", cuda_nvrtc_reason);
    return KERN_SUCCESS;
  }
  /* Probing must not record an error anywhere: a machine without a GPU is
   * normal.  The checked message (with the driver's error name) becomes
   * the reason. */
  if (CHECK(s, -1, KERN_ERROR_DEVICE, cu, cuInit(0), "%s", "") ||
      CHECK(s, -1, KERN_ERROR_DEVICE, cu,
            cuDriverGetVersion(&s->driver_version), "%s", ""))
    snprintf(reason, reason_size, "%s", s->msg + strlen("cuda: "));
  return KERN_SUCCESS;
}

static kern_status cuda_probe(kern_context *ctx, void **state, char *reason,
                              size_t reason_size) {
  cuda_state *s = kern__calloc(1, sizeof *s);
  if (!s) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  s->ctx = ctx;
  *state = s;
  reason[0] = 0;
  if (cuda_proc_reason[0]) {
    snprintf(reason, reason_size, "%s", cuda_proc_reason);
    return KERN_SUCCESS;
  }
  s->libcuda = cuda_proc.libcuda;
  s->libnvrtc = cuda_proc.libnvrtc;
  memcpy(s->nvrtc_path, cuda_proc.nvrtc_path, sizeof s->nvrtc_path);
  s->cu = cuda_proc.cu;
  s->nv = cuda_proc.nv;
  s->driver_version = cuda_proc.driver_version;
  s->nvrtc_major = cuda_proc.nvrtc_major;
  s->nvrtc_minor = cuda_proc.nvrtc_minor;
  s->narchs = cuda_proc.narchs;
  s->archs = cuda_proc.archs;

  /* As in cuda_init, the calls run with no context: their message becomes
   * the reason. */
  s->ctx = NULL;
  int n = 0;
  if (CHECK(s, -1, KERN_ERROR_DEVICE, cu, cuDeviceGetCount(&n), "%s", "")) {
    snprintf(reason, reason_size, "%s", s->msg + strlen("cuda: "));
    s->ctx = ctx;
    return KERN_SUCCESS;
  }
  s->ctx = ctx;
  if (n <= 0) {
    snprintf(reason, reason_size, "no CUDA devices");
    return KERN_SUCCESS;
  }
  s->devs = kern__calloc((size_t)n, sizeof *s->devs);
  if (!s->devs)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");

  s->ctx = NULL;
  for (int i = 0; i < n; i++) {
    cuda_dev *d = &s->devs[s->ndev];
    struct { int attr; int *out; } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &d->cc_major},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &d->cc_minor},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &d->sms},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
         &d->max_threads_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
         &d->max_blocks_per_sm},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &d->l2_bytes},
    };
    int ok = !CHECK(s, -1, KERN_ERROR_DEVICE, cu, cuDeviceGet(&d->dev, i),
                    "ordinal=%d", i) &&
             !CHECK(s, -1, KERN_ERROR_DEVICE, cu,
                    cuDeviceGetName(d->name, (int)sizeof d->name, d->dev),
                    "ordinal=%d", i) &&
             !CHECK(s, -1, KERN_ERROR_DEVICE, cu,
                    cuDeviceTotalMem(&d->mem_bytes, d->dev), "ordinal=%d", i);
    for (size_t a = 0; ok && a < sizeof attrs / sizeof *attrs; a++)
      ok = !CHECK(s, -1, KERN_ERROR_DEVICE, cu,
                  cuDeviceGetAttribute(attrs[a].out, attrs[a].attr, d->dev),
                  "ordinal=%d attribute=%d", i, attrs[a].attr);
    /* A device we cannot query (e.g. in a bad state) is skipped rather
     * than failing the whole backend; its message is the reason when no
     * device is left. */
    if (!ok) continue;
    if (d->max_threads_per_sm <= 0) d->max_threads_per_sm = 2048;
    struct { int attr; int *out; } props[] = {
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &d->warp_size},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &d->max_threads_per_block},
        {CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, &d->pci_domain},
        {CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, &d->pci_bus},
        {CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, &d->pci_device},
    };
    for (size_t a = 0; a < sizeof props / sizeof *props; a++)
      if (s->cu.cuDeviceGetAttribute(props[a].out, props[a].attr, d->dev) !=
          CUDA_SUCCESS)
        *props[a].out = 0;
    if (!s->cu.cuDeviceGetUuid ||
        s->cu.cuDeviceGetUuid(d->uuid, d->dev) != CUDA_SUCCESS)
      memset(d->uuid, 0, sizeof d->uuid);
    s->ndev++;
  }
  s->ctx = ctx;
  if (s->ndev == 0) {
    snprintf(reason, reason_size, "no usable CUDA devices: %s",
             s->msg + strlen("cuda: "));
  }
  return KERN_SUCCESS;
}

static void cuda_release(void *state) {
  cuda_state *s = state;
  if (!s) return;
  for (int i = 0; i < s->ndev; i++) {
    cuda_dev *d = &s->devs[i];
    if (!d->ctx) continue;
    /* Errors are ignored here: release cannot report them.  A thread must
     * not keep a context current that is about to be destroyed. */
    CUcontext cur = NULL;
    if (s->cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == d->ctx)
      s->cu.cuCtxSetCurrent(NULL);
    if (!d->broken && s->cu.cuCtxSetCurrent(d->ctx) == CUDA_SUCCESS) {
      s->cu.cuStreamDestroy(d->stream);
      s->cu.cuCtxSetCurrent(NULL);
    }
    s->cu.cuDevicePrimaryCtxRelease(d->dev);
  }
  state_free(s);
}

static int cuda_device_count(void *state) {
  cuda_state *s = state;
  return s ? s->ndev : 0;
}

static kern_status cuda_device_info(void *state, int dev,
                                    kern_device_info *out) {
  cuda_state *s = state;
  if (!s || dev < 0 || dev >= s->ndev)
    return s ? cuda_error(s, KERN_ERROR_INVALID_ARGUMENT,
                          "cuda: no device cuda:%d", dev)
             : KERN_ERROR_INVALID_ARGUMENT;
  const cuda_dev *d = &s->devs[dev];
  memset(out, 0, sizeof *out);
  out->backend = KERN_BACKEND_CUDA;
  out->index = dev;
  snprintf(out->name, sizeof out->name, "%s", d->name);
  out->compute_units = d->sms;
  out->memory_bytes = d->mem_bytes;
  snprintf(out->description, sizeof out->description,
           "sm_%d%d, %d SMs, %.1f GiB, L2 %d MiB, driver %d.%d, nvrtc %d.%d",
           d->cc_major, d->cc_minor, d->sms,
           (double)d->mem_bytes / (1024.0 * 1024.0 * 1024.0),
           d->l2_bytes / (1024 * 1024), s->driver_version / 1000,
           (s->driver_version % 1000) / 10, s->nvrtc_major, s->nvrtc_minor);
  out->capability_major = d->cc_major;
  out->capability_minor = d->cc_minor;
  out->fp64 = 1;          /* every supported GPU has float64 ... */
  out->int64_atomics = 1; /* ... and 64-bit atomicAdd/CAS on global memory */
  out->warp_size = d->warp_size;
  out->max_group_size = d->max_threads_per_block;
  snprintf(out->driver_version, sizeof out->driver_version, "%d.%d",
           s->driver_version / 1000, (s->driver_version % 1000) / 10);
  memcpy(out->uuid, d->uuid, sizeof out->uuid);
  if (d->pci_bus || d->pci_device || d->pci_domain)
    snprintf(out->pci_bus_id, sizeof out->pci_bus_id, "%04x:%02x:%02x.0",
             (unsigned)d->pci_domain, (unsigned)d->pci_bus,
             (unsigned)d->pci_device);
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- devices */

static kern_status broken_error(cuda_state *s, int dev) {
  return cuda_error(s, KERN_ERROR_DEVICE,
                    "cuda: cuda:%d is unusable after an earlier device fault "
                    "(%s); the CUDA context must be recreated, which the CUDA "
                    "driver allows only in a new process",
                    dev, cu_error_name(s, s->devs[dev].broken));
}

/* Makes dev's primary context current on this thread, retaining it and
 * creating kern's stream on first use.  Every entry point that touches a
 * device calls this first: contexts are per thread in CUDA, and a kern
 * context may move between threads (one at a time). */
static kern_status dev_enter(cuda_state *s, int dev) {
  if (dev < 0 || dev >= s->ndev)
    return cuda_error(s, KERN_ERROR_INVALID_ARGUMENT,
                      "cuda: no device cuda:%d", dev);
  cuda_dev *d = &s->devs[dev];
  if (d->broken) return broken_error(s, dev);
  kern_status st;
  if (!d->ctx) {
    CUcontext c = NULL;
    if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                    cuDevicePrimaryCtxRetain(&c, d->dev), "%s", "")))
      return st;
    if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuCtxSetCurrent(c), "%s",
                    ""))) {
      s->cu.cuDevicePrimaryCtxRelease(d->dev);
      return st;
    }
    if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                    cuStreamCreate(&d->stream, CU_STREAM_DEFAULT), "%s",
                    ""))) {
      s->cu.cuDevicePrimaryCtxRelease(d->dev);
      return st;
    }
    d->ctx = c;
    return KERN_SUCCESS;
  }
  CUcontext cur = NULL;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuCtxGetCurrent(&cur), "%s",
                  "")))
    return st;
  if (cur != d->ctx)
    return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuCtxSetCurrent(d->ctx), "%s",
                 "");
  return KERN_SUCCESS;
}

/* nccl.c calls NCCL, which uses the CUDA runtime and so the device's
 * primary context, the one dev_enter makes current. */
kern_status kern__cuda_enter(void *state, int dev) {
  return dev_enter(state, dev);
}

/* ---------------------------------------------------------------- memory */

static CUdeviceptr dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

static kern_status cuda_mem_alloc(void *state, int dev, size_t bytes,
                                  void **out) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  /* cuMemAlloc rejects 0 bytes; an empty array needs no storage. */
  if (bytes == 0) {
    *out = NULL;
    return KERN_SUCCESS;
  }
  CUdeviceptr p = 0;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuMemAlloc(&p, bytes),
                  "bytes=%zu", bytes)))
    return st;
  *out = (void *)(uintptr_t)p;
  return KERN_SUCCESS;
}

static void cuda_mem_free(void *state, int dev, void *p) {
  cuda_state *s = state;
  if (!s || !p || dev < 0 || dev >= s->ndev) return;
  /* After a sticky error the memory went with the context; freeing would
   * only fail again. */
  if (s->devs[dev].broken || dev_enter(s, dev)) return;
  (void)CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuMemFree(dptr(p)), "ptr=%p", p);
}

/* The end of every synchronous call: wait for the device's default stream,
 * where the call's work went (see the design notes at the top). */
static kern_status default_wait(cuda_state *s, int dev, kern_status st) {
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuStreamSynchronize(s->devs[dev].stream), "%s", "");
}

static kern_status cuda_copy_in(void *state, int dev, void *dst,
                                const void *src, size_t bytes) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st || bytes == 0) return st;
  st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
             cuMemcpyHtoDAsync(dptr(dst), src, bytes, s->devs[dev].stream),
             "bytes=%zu", bytes);
  return default_wait(s, dev, st);
}

static kern_status cuda_copy_out(void *state, int dev, void *dst,
                                 const void *src, size_t bytes) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st || bytes == 0) return st;
  st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
             cuMemcpyDtoHAsync(dst, dptr(src), bytes, s->devs[dev].stream),
             "bytes=%zu", bytes);
  return default_wait(s, dev, st);
}

/* Whether the n-byte pattern p is a repetition of its first `unit` bytes. */
static int repeats(const unsigned char *p, size_t n, size_t unit) {
  if (n % unit) return 0;
  for (size_t i = unit; i < n; i++)
    if (p[i] != p[i % unit]) return 0;
  return 1;
}

/* Patterns that repeat every 1, 2 or 4 bytes (zero, int32, float32, int8
 * vectors, ...) use the driver's memset.  Anything else (float64, vec3, ...)
 * is written once from a host buffer of whole patterns and then doubled in
 * place with device-to-device copies: log2(bytes/64 KiB) copies at device
 * bandwidth, no kernel needed. */
static kern_status fill_on(cuda_state *s, int dev, CUstream cs, void *dst,
                           const void *pattern, size_t pattern_size,
                           size_t bytes) {
  kern_status st;
  if (pattern_size == 0 || bytes % pattern_size)
    return cuda_error(s, KERN_ERROR_INVALID_ARGUMENT,
                      "cuda: fill of %zu bytes with a %zu-byte pattern", bytes,
                      pattern_size);
  const unsigned char *p = pattern;
  CUdeviceptr d = dptr(dst);
  if (repeats(p, pattern_size, 1))
    return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                 cuMemsetD8Async(d, p[0], bytes, cs), "bytes=%zu", bytes);
  if (repeats(p, pattern_size, 2) && d % 2 == 0 && bytes % 2 == 0) {
    unsigned short v;
    memcpy(&v, p, 2);
    return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                 cuMemsetD16Async(d, v, bytes / 2, cs), "bytes=%zu", bytes);
  }
  if (repeats(p, pattern_size, 4) && d % 4 == 0 && bytes % 4 == 0) {
    unsigned int v;
    memcpy(&v, p, 4);
    return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                 cuMemsetD32Async(d, v, bytes / 4, cs), "bytes=%zu", bytes);
  }
  size_t first = pattern_size * (65536 / pattern_size + 1);
  if (first > bytes) first = bytes;
  unsigned char *buf = kern__malloc(first);
  if (!buf)
    return cuda_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  for (size_t i = 0; i < first; i += pattern_size)
    memcpy(buf + i, p, pattern_size);
  /* From pageable memory the driver has staged the bytes when this returns,
   * so the buffer may go at once. */
  st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
             cuMemcpyHtoDAsync(d, buf, first, cs), "bytes=%zu", first);
  kern__free(buf);
  /* `done` stays a multiple of the pattern, so every copy is too. */
  for (size_t done = first; !st && done < bytes;) {
    size_t n = bytes - done < done ? bytes - done : done;
    st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuMemcpyDtoDAsync(d + done, d, n, cs), "offset=%zu bytes=%zu",
               done, n);
    done += n;
  }
  return st;
}

static kern_status cuda_fill(void *state, int dev, void *dst,
                             const void *pattern, size_t pattern_size,
                             size_t bytes) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st || bytes == 0) return st;
  st = fill_on(s, dev, s->devs[dev].stream, dst, pattern, pattern_size, bytes);
  return default_wait(s, dev, st);
}

/* ---------------------------------------------------------------- NVRTC */

/* Options shared by the backend and the standalone check; the architecture
 * option comes first and is filled in per call. */
/* --fmad=false: no contraction of a * b + c into fma, so results match the
 * CPU and OpenCL targets (memory-bound kernels do not notice). */
/* --minimal (last, so that it can be dropped): leaves out texture, surface
 * and device-runtime declarations kern's code never uses; 4-12 ms less per
 * compile on an H100 host (bench/NOTES.md, "The floor under a cold build").
 * An NVRTC too old for it answers NVRTC_ERROR_INVALID_OPTION, and from then
 * on the process compiles without it. */
static const char *const nvrtc_fixed_options[] = {
    "-default-device",
    "--std=c++17",
    "-lineinfo",
    "--fmad=false",
    "--minimal",
};
#define NVRTC_NOPTS (1 + sizeof nvrtc_fixed_options / sizeof *nvrtc_fixed_options)
static _Atomic int nvrtc_no_minimal; /* this NVRTC refused --minimal */

/* Compiles src for arch ("sm_90": cubin; "compute_90": PTX).  On success
 * *image and *size hold the binary (PTX NUL-terminated), from kern__malloc.
 * A compile error returns KERN_ERROR_COMPILE with NVRTC's log in *log (from
 * kern__malloc too). */
static kern_status nvrtc_compile(cuda_state *s, int dev, const char *src,
                                 const char *arch, void **image, size_t *size,
                                 char **log) {
  char arch_opt[64];
  snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", arch);
  const char *opts[NVRTC_NOPTS];
  opts[0] = arch_opt;
  for (size_t i = 1; i < NVRTC_NOPTS; i++) opts[i] = nvrtc_fixed_options[i - 1];
  int cubin = strncmp(arch, "sm_", 3) == 0;
  if (cubin && !s->nv.nvrtcGetCUBIN)
    return cuda_error(s, KERN_ERROR_TOOLCHAIN,
                      "cuda: NVRTC %d.%d (%s) cannot produce a cubin for %s",
                      s->nvrtc_major, s->nvrtc_minor, s->nvrtc_path, arch);

  *log = NULL;
  nvrtcProgram prog = NULL;
  kern_status st = CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv,
                         nvrtcCreateProgram(&prog, src, "kern_generated.cu", 0,
                                            NULL, NULL),
                         "%s", "");
  if (st) return st;
  /* Not through CHECK: NVRTC_ERROR_COMPILATION is an expected outcome whose
   * message is the log, which only exists after the call returns. */
  int nopts = nvrtc_no_minimal ? (int)NVRTC_NOPTS - 1 : (int)NVRTC_NOPTS;
  nvrtcResult rc = s->nv.nvrtcCompileProgram(prog, nopts, opts);
  if (rc == NVRTC_ERROR_INVALID_OPTION && nopts == (int)NVRTC_NOPTS) {
    /* A fresh program: NVRTC does not promise a second compile of one. */
    nvrtc_no_minimal = 1;
    s->nv.nvrtcDestroyProgram(&prog);
    st = CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv,
               nvrtcCreateProgram(&prog, src, "kern_generated.cu", 0, NULL,
                                  NULL),
               "%s", "");
    if (st) return st;
    rc = s->nv.nvrtcCompileProgram(prog, nopts - 1, opts);
  }
  size_t nlog = 0;
  if (!CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv,
             nvrtcGetProgramLogSize(prog, &nlog), "%s", "") &&
      nlog > 1) {
    *log = kern__malloc(nlog);
    if (*log && CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv,
                      nvrtcGetProgramLog(prog, *log), "%s", "")) {
      kern__free(*log);
      *log = NULL;
    }
  }
  if (rc == NVRTC_ERROR_COMPILATION) {
    st = cuda_error(s, KERN_ERROR_COMPILE,
                    "cuda: NVRTC %d.%d failed to compile for %s:\n%s",
                    s->nvrtc_major, s->nvrtc_minor, arch,
                    *log ? *log : "(no log)");
  } else if (rc != NVRTC_SUCCESS) {
    s->nv_rc = rc;
    st = cuda_fail(s, dev, KERN_ERROR_TOOLCHAIN, "nv", rc,
                   "nvrtcCompileProgram(prog, nopts, opts)", __FILE__,
                   __LINE__, "arch=%s", arch);
  } else {
    size_t n = 0;
    st = cubin ? CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv,
                       nvrtcGetCUBINSize(prog, &n), "%s", "")
               : CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv,
                       nvrtcGetPTXSize(prog, &n), "%s", "");
    char *bin = st ? NULL : kern__malloc(n ? n : 1);
    if (!st && !bin)
      st = cuda_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
    if (!st)
      st = cubin ? CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv,
                         nvrtcGetCUBIN(prog, bin), "%s", "")
                 : CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv,
                         nvrtcGetPTX(prog, bin), "%s", "");
    if (st) {
      kern__free(bin);
    } else {
      *image = bin;
      *size = n;
    }
  }
  (void)CHECK(s, dev, KERN_ERROR_TOOLCHAIN, nv, nvrtcDestroyProgram(&prog),
              "%s", "");
  return st;
}

/* The code NVRTC should produce for a device: a cubin for the exact
 * architecture when this NVRTC knows it, else PTX for the newest virtual
 * architecture it knows that the device can run (the driver JIT-compiles
 * it); 0 when NVRTC is too new for the device. */
static int pick_arch(const cuda_state *s, const cuda_dev *d, char *arch,
                     size_t size) {
  int want = d->cc_major * 10 + d->cc_minor;
  if (s->narchs == 0) { /* NVRTC older than 11.2: assume it knows the GPU */
    snprintf(arch, size, "%s_%d", s->nv.nvrtcGetCUBIN ? "sm" : "compute", want);
    return 1;
  }
  int best = 0;
  for (int i = 0; i < s->narchs; i++) {
    if (s->archs[i] == want && s->nv.nvrtcGetCUBIN) {
      snprintf(arch, size, "sm_%d", want);
      return 1;
    }
    if (s->archs[i] <= want) best = s->archs[i];
  }
  if (!best) return 0;
  snprintf(arch, size, "compute_%d", best);
  return 1;
}

/* ---------------------------------------------------------------- modules */

/* One build through the cache policy (Note [cache policy] in cache.c). */
typedef struct cuda_build {
  cuda_state *s;
  int dev;
  const char *arch;
} cuda_build;

static kern_status cuda_compile(void *self, const kc_result *code,
                                int for_cache, kern__blob *out) {
  cuda_build *b = self;
  cuda_state *s = b->s;
  size_t len = code->source_len ? code->source_len : strlen(code->source);
  char *src = kern__malloc(len + 1), *log = NULL;
  if (!src)
    return cuda_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  memcpy(src, code->source, len); /* NVRTC wants a NUL-terminated string */
  src[len] = 0;
  void *image = NULL;
  size_t size = 0;
  kern_status st = nvrtc_compile(s, b->dev, src, b->arch, &image, &size, &log);
  kern__free(src);
  kern__free(log);
  if (st) return st;
  out->bytes = image;
  out->size = size;
  return KERN_SUCCESS;
}

/* Loads a cubin or PTX image (cached or just compiled). */
static kern_status cuda_load(void *self, const kern__blob *in, void **module) {
  cuda_build *b = self;
  cuda_state *s = b->s;
  int dev = b->dev;
  cuda_module *m = kern__calloc(1, sizeof *m);
  if (!m) return cuda_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  /* The JIT log says why PTX or a cubin was refused (e.g. a PTX version
   * newer than the driver). */
  char jit_log[2048] = "";
  int jit_opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *jit_vals[] = {jit_log, (void *)(uintptr_t)sizeof jit_log};
  kern_status st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                         cuModuleLoadDataEx(&m->mod, in->bytes, 2, jit_opts,
                                            jit_vals),
                         "%s, %zu bytes%s%s", b->arch, in->size,
                         jit_log[0] ? ", JIT log: " : "", jit_log);
  if (st) {
    kern__free(m);
    return st;
  }
  m->dev = dev;
  pthread_mutex_init(&m->mu, NULL);
  *module = m;
  return KERN_SUCCESS;
}

/* Note [PTX tier]
 * A cold CUDA load used to wait for NVRTC: 100-200 ms for a small module on
 * the H100 hosts, of which NVRTC's own floor (a kernel that stores one
 * constant) is 36-50 ms (bench/NOTES.md, "The floor under a cold build").
 * The driver's JIT turns a short PTX kernel into machine code in 15-25 ms.
 * So when the compiler could spell the module as PTX (kc_result.ptx: a
 * subset of the language, emit/ptx.c) and no cache holds the module, the
 * load takes two steps:
 *  1. the driver loads kern's PTX and the module is returned: every kernel
 *     runs from the first launch;
 *  2. a child process compiles the CUDA C with NVRTC exactly as a load
 *     without the tier would, and stores the cubin in the cache (Note
 *     [build threads], Note [background builds] in bgbuild.c); the next
 *     launch of any of the module's kernels that finds it ready loads it
 *     and switches every kernel handle to it (tier_check).
 * Both produce the same bits: the PTX emitter spells every operation with
 * the rounding the CUDA C gets under --fmad=false (Note [PTX tier] in
 * emit/ptx.c), so switching mid-run changes speed, not results.  What the
 * switch must respect:
 *  - a graph captures the function it saw; a capture must not hold the
 *    quick function if later kern_graph_set_arg updates are to work with
 *    the final one, so a launch on a capturing stream waits for the build
 *    and switches first;
 *  - the quick module stays loaded until the module is freed, for graphs
 *    instantiated before the switch;
 *  - freeing the module, the context or the process does not wait for
 *    the build: the child has a copy of everything it reads, finishes on
 *    its own and stores the cubin for the next load;
 *  - a failed build (or one that could not start: the load then builds in
 *    the foreground) leaves the PTX tier in place, with the reason in the
 *    context's quiet note.
 * kern_options.cuda_tier / $KERN_CUDA_TIER choose: auto (the above), nvrtc
 * (never the PTX tier), ptx (the PTX tier alone, never NVRTC, for tests). */
/* Note [build threads]
 * The background build is a child process, not a thread: Note [background
 * builds] in bgbuild.c says why (a build thread in the process crashed or
 * hung about one cold run in eight on the H100 hosts, issue #22) and what
 * happens to a build when the module, the context or the process goes
 * away.  Here: job_start copies what the build needs and forks; the child
 * runs job_build (NVRTC, then the cache entry) and hands the cubin back
 * down a pipe; tier_switch looks for it at launches; job_free lets go of
 * it without waiting.  When no child can start, the load builds with NVRTC
 * in the foreground, as the nvrtc tier does. */

static void job_destroy(cuda_job *j) {
  if (!j) return;
  kern__free(j->src);
  kern__free(j->dir);
  kern__free(j);
}

/* In the child. */
static int job_build(void *arg, void **image, size_t *size, char *why,
                     size_t whysz) {
  cuda_job *j = arg;
  char *log = NULL;
  kern_status st = nvrtc_compile(&j->s, -1, j->src, j->arch, image, size,
                                 &log);
  if (st != KERN_SUCCESS) {
    snprintf(why, whysz, "%s", j->s.msg[0] ? j->s.msg : "NVRTC failed");
    return 1;
  }
  if (j->dir)
    (void)kern__cache_store(j->dir, j->key,
                            j->arch[0] == 's' ? ".cubin" : ".ptx", *image,
                            *size);
  return 0;
}

/* The module lets go of its job without waiting for it. */
static void job_free(cuda_job *j) {
  if (!j) return;
  kern__bg_free(j->bg);
  job_destroy(j);
}

/* Starts the NVRTC build of code in a child process; NULL when it cannot
 * start (the caller then builds in the foreground). */
static cuda_job *job_start(cuda_state *s, const kc_result *code,
                           const char *arch, const char *key,
                           const char *dir) {
  cuda_job *j = kern__calloc(1, sizeof *j);
  size_t len = code->source_len ? code->source_len : strlen(code->source);
  if (!j || !(j->src = kern__malloc(len + 1)) ||
      (dir && !(j->dir = kern__strdup(dir)))) {
    job_destroy(j);
    return NULL;
  }
  memcpy(j->src, code->source, len);
  j->src[len] = 0;
  j->s = *s;
  j->s.ctx = NULL; /* errors stay in the copy's msg */
  j->s.ndev = 0;
  j->s.devs = NULL;
  j->s.msg[0] = 0;
  snprintf(j->arch, sizeof j->arch, "%s", arch);
  snprintf(j->key, sizeof j->key, "%s", key);
  char why[256];
  j->bg = kern__bg_start(job_build, j, dir, JOB_TIMEOUT_S, why, sizeof why);
  if (!j->bg) {
    if (s->ctx)
      snprintf(s->ctx->quiet_note, sizeof s->ctx->quiet_note,
               "cuda: no background build (%s): NVRTC builds in the "
               "foreground", why);
    job_destroy(j);
    return NULL;
  }
  return j;
}

/* Loads kern's PTX for the quick tier; NULL when the driver refuses it (the
 * load then takes the NVRTC path, which reports any real problem). */
static cuda_module *quick_load(cuda_state *s, int dev, const kc_result *code) {
  cuda_module *m = kern__calloc(1, sizeof *m);
  if (!m) return NULL;
  CUresult r = s->cu.cuModuleLoadDataEx(&m->mod, code->ptx, 0, NULL, NULL);
  if (r != CUDA_SUCCESS) {
    if (cu_is_sticky(r) && !s->devs[dev].broken) s->devs[dev].broken = r;
    kern__free(m);
    return NULL;
  }
  m->dev = dev;
  pthread_mutex_init(&m->mu, NULL);
  return m;
}

/* Note [tier decision]
 * Whether a load uses the PTX tier is decided here and nowhere else:
 * kern_options.cuda_tier (resolved with $KERN_CUDA_TIER in context.c), debug
 * mode (its checks are the NVRTC build's alone), a load from source (rq:
 * module_build_tiered; generic instantiations and hand-made code are built
 * with NVRTC) and a device whose PTX the driver JITs.  The cache is looked
 * up first (tier auto), and only a miss has the compiler spell the module
 * as PTX (kern__ptx_emit), so a warm load costs no PTX. */
static int tier_of(const cuda_state *s, int dev, const kern__ptx_request *rq) {
  if (!rq || !s->ctx || kern__debug_enabled(s->ctx) || dev < 0 ||
      dev >= s->ndev || s->devs[dev].cc_major <= 0)
    return KERN_CUDA_TIER_NVRTC;
  return s->ctx->opts.cuda_tier;
}

static kern_status cuda_module_build_tiered(void *state, int dev,
                                            kc_result *code,
                                            const kern__ptx_request *rq,
                                            void **module) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  cuda_dev *d = &s->devs[dev];
  char arch[32];
  if (!pick_arch(s, d, arch, sizeof arch))
    return cuda_error(s, KERN_ERROR_TOOLCHAIN,
                      "cuda: NVRTC %d.%d (%s) cannot compile for sm_%d%d "
                      "(the oldest architecture it supports is sm_%d)",
                      s->nvrtc_major, s->nvrtc_minor, s->nvrtc_path,
                      d->cc_major, d->cc_minor, s->archs[0]);
  int cubin = arch[0] == 's';
  /* The key's inputs besides the source: every input that changes the
   * binary. */
  char version[32];
  snprintf(version, sizeof version, "%d.%d", s->nvrtc_major, s->nvrtc_minor);
  kern__key_part key[2 + NVRTC_NOPTS - 1];
  int nkey = 0;
  key[nkey++] = (kern__key_part){arch, strlen(arch)};
  key[nkey++] = (kern__key_part){version, strlen(version)};
  for (size_t i = 0; i < NVRTC_NOPTS - 1; i++)
    key[nkey++] = (kern__key_part){nvrtc_fixed_options[i],
                                   strlen(nvrtc_fixed_options[i])};
  cuda_build b = {s, dev, arch};
  kern__builder bd = {"cuda", cubin ? ".cubin" : ".ptx", key, nkey, 0, &b,
                      cuda_compile, cuda_load};
  int tier = tier_of(s, dev, rq);
  if (tier != KERN_CUDA_TIER_NVRTC) {
    char hash[65];
    const char *dir = NULL;
    if (tier == KERN_CUDA_TIER_AUTO &&
        kern__cached_lookup(s->ctx, &bd, code, module, hash, &dir))
      return KERN_SUCCESS;
    if (!code->ptx && !code->ptx_why)
      kern__ptx_emit(rq, d->cc_major * 10 + d->cc_minor, code);
    cuda_module *m = code->ptx ? quick_load(s, dev, code) : NULL;
    if (m && tier == KERN_CUDA_TIER_PTX) {
      atomic_store_explicit(&m->quick, QUICK_ALONE, memory_order_relaxed);
      *module = m;
      return KERN_SUCCESS;
    }
    if (m && (m->job = job_start(s, code, arch, hash, dir))) {
      atomic_store_explicit(&m->quick, QUICK_BUILDING, memory_order_relaxed);
      *module = m;
      return KERN_SUCCESS;
    }
    if (m) {
      (void)s->cu.cuModuleUnload(m->mod);
      pthread_mutex_destroy(&m->mu);
      kern__free(m);
    }
  }
  return kern__cached_build(s->ctx, &bd, code, module);
}

static kern_status cuda_module_build(void *state, int dev,
                                     const kc_result *code, void **module) {
  return cuda_module_build_tiered(state, dev, (kc_result *)code, NULL, module);
}

static void cuda_module_free(void *state, void *module) {
  cuda_state *s = state;
  cuda_module *m = module;
  if (!m) return;
  job_free(m->job);
  if (!s->devs[m->dev].broken && !dev_enter(s, m->dev)) {
    (void)CHECK(s, m->dev, KERN_ERROR_DEVICE, cu, cuModuleUnload(m->mod), "%s",
                "");
    if (m->quick_mod)
      (void)CHECK(s, m->dev, KERN_ERROR_DEVICE, cu, cuModuleUnload(m->quick_mod),
                  "%s", "");
  }
  for (cuda_fn *f = m->fns, *next; f; f = next) {
    next = f->next;
    kern__free(f->params);
    kern__free(f->symbol);
    kern__free(f);
  }
  pthread_mutex_destroy(&m->mu);
  kern__free(m);
}

/* Chooses the launch shape once per kernel.  The generated kernels are
 * grid-stride loops, so the best grid is the one that fills the device
 * exactly once: SMs x resident blocks per SM.  256 threads per block unless
 * the kernel's registers forbid it, or the occupancy calculator finds a
 * block size that keeps more threads resident. */
static void choose_shape(cuda_state *s, const cuda_dev *d, cuda_fn *f) {
  int max_threads = 0;
  if (s->cu.cuFuncGetAttribute(&max_threads,
                               CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                               f->fn) != CUDA_SUCCESS ||
      max_threads <= 0)
    max_threads = 256;
  int block = 256;
  if (block > max_threads) block = max_threads >= 32 ? max_threads / 32 * 32 : max_threads;
  int per_sm = 0;
  if (s->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor) {
    if (s->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f->fn,
                                                          block, 0))
      per_sm = 0;
    int min_grid = 0, best = 0, best_per_sm = 0;
    if (per_sm > 0 && s->cu.cuOccupancyMaxPotentialBlockSize &&
        s->cu.cuOccupancyMaxPotentialBlockSize(&min_grid, &best, f->fn, NULL,
                                               0, max_threads) == 0 &&
        best > 0 &&
        s->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&best_per_sm, f->fn,
                                                          best, 0) == 0 &&
        best_per_sm * best > per_sm * block) {
      block = best;
      per_sm = best_per_sm;
    }
  }
  if (per_sm <= 0) {
    per_sm = d->max_threads_per_sm / block;
    if (d->max_blocks_per_sm > 0 && per_sm > d->max_blocks_per_sm)
      per_sm = d->max_blocks_per_sm;
    if (per_sm <= 0) per_sm = 1;
  }
  f->block = (unsigned)block;
  f->grid_max = (int64_t)d->sms * per_sm;
  if (f->grid_max <= 0) f->grid_max = 1;
}

static kern_status cuda_kernel_get(void *state, void *module,
                                   const kc_kernel *k, void **fn) {
  cuda_state *s = state;
  cuda_module *m = module;
  kern_status st = dev_enter(s, m->dev);
  if (st) return st;
  cuda_fn *f = kern__calloc(1, sizeof *f);
  void **params = kern__calloc((size_t)k->nparams + 1, sizeof *params);
  char *symbol = kern__strdup(k->symbol);
  if (!f || !params || !symbol) {
    kern__free(f);
    kern__free(params);
    kern__free(symbol);
    return cuda_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  }
  /* Under the lock: the PTX tier's switch replaces m->mod and walks
   * m->fns (tier_switch). */
  pthread_mutex_lock(&m->mu);
  CUfunction cf = NULL;
  st = CHECK(s, m->dev, KERN_ERROR_NOT_FOUND, cu,
             cuModuleGetFunction(&cf, m->mod, k->symbol), "symbol=%s",
             k->symbol);
  if (st == KERN_SUCCESS) {
    f->fn = cf;
    f->nparams = k->nparams;
    f->params = params;
    f->mod = m;
    f->symbol = symbol;
    choose_shape(s, &s->devs[m->dev], f);
    f->next = m->fns;
    m->fns = f;
    *fn = f;
  }
  pthread_mutex_unlock(&m->mu);
  if (st != KERN_SUCCESS) {
    kern__free(f);
    kern__free(params);
    kern__free(symbol);
  }
  return st;
}

/* Switches m's kernels from kern's PTX to the NVRTC build when it is
 * ready, or, with wait, once it is (Note [PTX tier]).  Runs with the
 * device's context current (the launch paths' dev_enter).  A build that
 * failed, or that the driver refuses, leaves the PTX in place for good and
 * says why in the context's quiet note. */
static void tier_switch(cuda_state *s, cuda_module *m, int wait) {
  pthread_mutex_lock(&m->mu);
  cuda_job *j = m->job;
  int state = KERN__BG_RUNNING;
  if (atomic_load_explicit(&m->quick, memory_order_relaxed) !=
          QUICK_BUILDING ||
      (state = kern__bg_poll(j->bg, wait)) == KERN__BG_RUNNING) {
    pthread_mutex_unlock(&m->mu);
    return;
  }
  const char *why = NULL;
  CUmodule nm = NULL;
  size_t n = 0;
  const void *image = kern__bg_image(j->bg, &n);
  if (state != KERN__BG_READY || !image)
    why = kern__bg_why(j->bg);
  else if (s->cu.cuModuleLoadDataEx(&nm, image, 0, NULL, NULL) !=
           CUDA_SUCCESS)
    why = "the driver refused the cubin";
  /* Every kernel handed out must exist in the new module before any is
   * switched. */
  for (cuda_fn *f = m->fns; !why && f; f = f->next) {
    CUfunction cf = NULL;
    if (s->cu.cuModuleGetFunction(&cf, nm, f->symbol) != CUDA_SUCCESS)
      why = "a kernel is missing from the cubin";
  }
  if (!why) {
    for (cuda_fn *f = m->fns; f; f = f->next) {
      cuda_fn g = *f;
      (void)s->cu.cuModuleGetFunction(&g.fn, nm, f->symbol);
      choose_shape(s, &s->devs[m->dev], &g);
      __atomic_store_n(&f->block, g.block, __ATOMIC_RELAXED);
      __atomic_store_n(&f->grid_max, g.grid_max, __ATOMIC_RELAXED);
      __atomic_store_n(&f->fn, g.fn, __ATOMIC_RELAXED);
    }
    m->quick_mod = m->mod;
    m->mod = nm;
  } else {
    if (nm) (void)s->cu.cuModuleUnload(nm);
    if (s->ctx)
      snprintf(s->ctx->quiet_note, sizeof s->ctx->quiet_note,
               "cuda: kernels keep running kern's PTX: the background "
               "NVRTC build did not finish: %.300s", why);
  }
  kern__bg_drop_image(j->bg);
  atomic_store_explicit(&m->quick, 0, memory_order_release);
  pthread_mutex_unlock(&m->mu);
}

/* The launch paths' test: one relaxed load while nothing is pending.  A
 * launch on a stream that is being captured waits for the build, so that
 * graphs hold the final code; so does a launch of 2^31 items or more, which
 * the PTX does not address (its array indices from wp.tid() are 32-bit,
 * Note [PTX tier] in emit/ptx.c). */
static inline kern_status tier_check(cuda_state *s, cuda_fn *f, CUstream cs,
                                     const kern__dims *dims) {
  cuda_module *m = f->mod;
  int quick = atomic_load_explicit(&m->quick, memory_order_relaxed);
  if (__builtin_expect(!quick, 1)) return KERN_SUCCESS;
  if (quick == QUICK_ALONE)
    return dims->total > INT32_MAX
               ? cuda_error(s, KERN_ERROR_UNSUPPORTED,
                            "cuda: kern's PTX alone (KERN_CUDA_TIER=ptx) "
                            "cannot launch %lld items, 2^31 or more; the "
                            "auto and nvrtc tiers can",
                            (long long)dims->total)
               : KERN_SUCCESS;
  int wait = dims->total > INT32_MAX, status = 0;
  unsigned long long id = 0;
  CUgraph g = NULL;
  const CUgraphNode *deps = NULL;
  size_t n = 0;
  if (s->cu.cuStreamGetCaptureInfo &&
      s->cu.cuStreamGetCaptureInfo(cs, &status, &id, &g, &deps, &n) ==
          CUDA_SUCCESS &&
      status != 0)
    wait = 1;
  tier_switch(s, m, wait);
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- launch */

/* Note [kernelParams]
 * The generated kernel is SYMBOL(P0, ..., Pn-1, kern__dims), every
 * parameter by value.  cuLaunchKernel wants one pointer per parameter to
 * its bytes, which is exactly what the runtime hands us: args[p] points to
 * a value of the parameter's type, or to a 40-byte kern__arr whose data is
 * the CUdeviceptr.  So kernelParams = { args[0], ..., args[n-1], dims }.
 * The driver copies the values during the call, so the slots may be reused
 * by the next launch. */
/* Blocks for a grid-stride launch over total indices. */
static int64_t grid_blocks(const cuda_fn *f, int64_t total) {
  unsigned block = __atomic_load_n(&f->block, __ATOMIC_RELAXED);
  int64_t grid_max = __atomic_load_n(&f->grid_max, __ATOMIC_RELAXED);
  int64_t blocks = total / block + (total % block != 0);
  return blocks > grid_max ? grid_max : blocks;
}

static kern_status cuda_launch(void *state, int dev, void *fn,
                               const kc_kernel *k, void *const *args,
                               const kern__dims *dims) {
  cuda_state *s = state;
  cuda_fn *f = fn;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  /* A shard of a sharded launch runs [begin, total) of the whole grid. */
  int64_t total = dims->total - dims->begin;
  if (total <= 0) return KERN_SUCCESS; /* a zero-size grid runs nothing */
  CUstream stream = s->devs[dev].stream;
  if ((st = tier_check(s, f, stream, dims))) return st;
  int64_t blocks = grid_blocks(f, total);
  unsigned block = __atomic_load_n(&f->block, __ATOMIC_RELAXED);
  for (int p = 0; p < f->nparams; p++) f->params[p] = args[p];
  f->params[f->nparams] = (void *)(uintptr_t)dims; /* the driver only reads */
  if ((st = CHECK(s, dev, KERN_ERROR_LAUNCH, cu,
                  cuLaunchKernel(__atomic_load_n(&f->fn, __ATOMIC_RELAXED),
                                 (unsigned)blocks, 1, 1, block, 1, 1, 0,
                                 stream, f->params, NULL),
                  "kernel=%s grid=%lld block=%u", k ? k->symbol : "?",
                  (long long)blocks, block)))
    return st;
  /* Version 1 launches are synchronous so that a fault is reported by the
   * launch that caused it. */
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamSynchronize(stream),
               "after kernel=%s", k ? k->symbol : "?");
}

static kern_status cuda_synchronize(void *state, int dev) {
  cuda_state *s = state;
  if (dev >= 0 && dev < s->ndev && !s->devs[dev].ctx && !s->devs[dev].broken)
    return KERN_SUCCESS; /* never used: nothing to wait for */
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuCtxSynchronize(), "%s", "");
}

/* ---------------------------------------------------------------- streams
 * Native streams and events (issue #11): every method is one driver call
 * after dev_enter.  Streams are created with default flags, so they are
 * ordered against the legacy NULL stream that the synchronous copies use.
 * The asynchronous launch is the hot path: the kernelParams array is the
 * function's preallocated one (the driver copies the values during
 * cuLaunchKernel), so it allocates nothing and never synchronizes. */

static kern_status cuda_stream_new(void *state, int dev, void **out) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  CUstream cs = NULL;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuStreamCreate(&cs, CU_STREAM_DEFAULT), "%s", "")))
    return st;
  *out = cs;
  return KERN_SUCCESS;
}

static kern_status cuda_stream_free(void *state, int dev, void *cs) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamDestroy(cs), "%s", "");
}

static kern_status cuda_stream_default(void *state, int dev, void **out) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  *out = s->devs[dev].stream;
  return KERN_SUCCESS;
}

static kern_status cuda_stream_sync(void *state, int dev, void *cs) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamSynchronize(cs), "%s",
               "");
}

static kern_status cuda_stream_query(void *state, int dev, void *cs,
                                     int *done) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  CUresult r = s->cu.cuStreamQuery(cs);
  if (r == CUDA_ERROR_NOT_READY) {
    *done = 0;
    return KERN_SUCCESS;
  }
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamQuery(cs), "%s", "")))
    return st;
  *done = 1;
  return KERN_SUCCESS;
}

static kern_status cuda_stream_wait(void *state, int dev, void *cs, void *e) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamWaitEvent(cs, e, 0),
               "%s", "");
}

static kern_status cuda_event_new(void *state, int dev, void **out) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  CUevent e = NULL;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuEventCreate(&e, CU_EVENT_DEFAULT), "%s", "")))
    return st;
  *out = e;
  return KERN_SUCCESS;
}

static void cuda_event_free(void *state, int dev, void *e) {
  cuda_state *s = state;
  if (!e || s->devs[dev].broken || dev_enter(s, dev)) return;
  (void)CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventDestroy(e), "%s", "");
}

static kern_status cuda_event_record(void *state, int dev, void *e,
                                     void *cs) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventRecord(e, cs), "%s", "");
}

static kern_status cuda_event_sync(void *state, int dev, void *e) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventSynchronize(e), "%s",
               "");
}

static kern_status cuda_event_query(void *state, int dev, void *e,
                                    int *done) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  CUresult r = s->cu.cuEventQuery(e);
  if (r == CUDA_ERROR_NOT_READY) {
    *done = 0;
    return KERN_SUCCESS;
  }
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventQuery(e), "%s", "")))
    return st;
  *done = 1;
  return KERN_SUCCESS;
}

static kern_status cuda_event_elapsed(void *state, int dev, void *a, void *b,
                                      double *ms) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  float f = 0;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventElapsedTime(&f, a, b),
                  "%s", "")))
    return st;
  *ms = f;
  return KERN_SUCCESS;
}

static kern_status cuda_launch_async(void *state, int dev, void *cs, void *fn,
                                     const kc_kernel *k, void *const *args,
                                     const kern__dims *dims) {
  cuda_state *s = state;
  cuda_fn *f = fn;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  int64_t total = dims->total - dims->begin;
  if (total <= 0) return KERN_SUCCESS;
  if ((st = tier_check(s, f, cs, dims))) return st;
  int64_t blocks = grid_blocks(f, total);
  unsigned block = __atomic_load_n(&f->block, __ATOMIC_RELAXED);
  for (int p = 0; p < f->nparams; p++) f->params[p] = args[p];
  f->params[f->nparams] = (void *)(uintptr_t)dims;
  return CHECK(s, dev, KERN_ERROR_LAUNCH, cu,
               cuLaunchKernel(__atomic_load_n(&f->fn, __ATOMIC_RELAXED),
                              (unsigned)blocks, 1, 1, block, 1, 1, 0, cs,
                              f->params, NULL),
               "kernel=%s grid=%lld block=%u", k ? k->symbol : "?",
               (long long)blocks, block);
}

static kern_status cuda_copy_in_async(void *state, int dev, void *cs,
                                      void *dst, size_t off, const void *src,
                                      size_t bytes) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st || bytes == 0) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuMemcpyHtoDAsync(dptr(dst) + off, src, bytes, cs),
               "bytes=%zu", bytes);
}

static kern_status cuda_copy_out_async(void *state, int dev, void *cs,
                                       void *dst, const void *src, size_t off,
                                       size_t bytes) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st || bytes == 0) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuMemcpyDtoHAsync(dst, dptr(src) + off, bytes, cs),
               "bytes=%zu", bytes);
}

static kern_status cuda_copy_dd_async(void *state, int dev, void *cs,
                                      void *dst, size_t doff, const void *src,
                                      size_t soff, size_t bytes) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st || bytes == 0) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuMemcpyDtoDAsync(dptr(dst) + doff, dptr(src) + soff, bytes,
                                 cs),
               "bytes=%zu", bytes);
}

static kern_status cuda_copy_dd(void *state, int dev, void *dst, size_t doff,
                                const void *src, size_t soff, size_t bytes) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st || bytes == 0) return st;
  st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
             cuMemcpyDtoDAsync(dptr(dst) + doff, dptr(src) + soff, bytes,
                               s->devs[dev].stream),
             "bytes=%zu", bytes);
  return default_wait(s, dev, st);
}

/* Patterns of 1, 2 or 4 repeating bytes are one async memset; any other is
 * an upload of whole patterns doubled by device copies, all on the stream
 * (fill_on), so it can be captured too. */
static kern_status cuda_fill_async(void *state, int dev, void *cs, void *dst,
                                   const void *pattern, size_t pattern_size,
                                   size_t bytes) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st || bytes == 0) return st;
  return fill_on(s, dev, cs, dst, pattern, pattern_size, bytes);
}

static kern_status cuda_host_alloc(void *state, int dev, size_t bytes,
                                   void **out) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  void *p = NULL;
  if ((st = CHECK(s, dev, KERN_ERROR_OUT_OF_MEMORY, cu,
                  cuMemHostAlloc(&p, bytes, CU_MEMHOSTALLOC_PORTABLE),
                  "bytes=%zu", bytes)))
    return st;
  *out = p;
  return KERN_SUCCESS;
}

static void cuda_host_free(void *state, int dev, void *p) {
  cuda_state *s = state;
  if (!p || dev_enter(s, dev)) return;
  (void)CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuMemFreeHost(p), "%s", "");
}

/* ---------------------------------------------------------------- graphs */

typedef struct cuda_graph {
  CUgraph graph; /* kept: node handles for updates belong to it */
  CUgraphExec exec;
} cuda_graph;

static int has_graphs(const cuda_state *s) {
  return s->cu.cuStreamBeginCapture && s->cu.cuStreamEndCapture &&
         s->cu.cuGraphInstantiateWithFlags && s->cu.cuGraphLaunch &&
         s->cu.cuGraphExecDestroy && s->cu.cuGraphDestroy;
}

static kern_status cuda_capture_begin(void *state, int dev, void *cs) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  if (!has_graphs(s))
    return cuda_error(s, KERN_ERROR_UNSUPPORTED,
                      "cuda: the driver has no stream capture");
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuStreamBeginCapture(cs, CU_STREAM_CAPTURE_MODE_RELAXED), "%s",
               "");
}

static kern_status cuda_capture_end(void *state, int dev, void *cs,
                                    void **out) {
  cuda_state *s = state;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  cuda_graph *g = kern__calloc(1, sizeof *g);
  if (!g) return cuda_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuStreamEndCapture(cs, &g->graph), "%s", ""))) {
    kern__free(g);
    return st;
  }
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuGraphInstantiateWithFlags(&g->exec, g->graph, 0), "%s",
                  ""))) {
    s->cu.cuGraphDestroy(g->graph);
    kern__free(g);
    return st;
  }
  *out = g;
  return KERN_SUCCESS;
}

static kern_status cuda_capture_node(void *state, int dev, void *cs,
                                     void **node) {
  cuda_state *s = state;
  *node = NULL;
  if (!s->cu.cuStreamGetCaptureInfo || !s->cu.cuGraphExecKernelNodeSetParams)
    return KERN_SUCCESS; /* updates fall back to kern's list */
  int status = 0;
  unsigned long long id = 0;
  CUgraph g = NULL;
  const CUgraphNode *deps = NULL;
  size_t n = 0;
  kern_status st;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuStreamGetCaptureInfo(cs, &status, &id, &g, &deps, &n),
                  "%s", "")))
    return st;
  /* After a launch the capture's frontier is exactly that launch's node. */
  if (n == 1) *node = deps[0];
  return KERN_SUCCESS;
}

static kern_status cuda_graph_launch(void *state, int dev, void *graph,
                                     void *cs) {
  cuda_state *s = state;
  cuda_graph *g = graph;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_LAUNCH, cu, cuGraphLaunch(g->exec, cs), "%s",
               "");
}

static kern_status cuda_graph_set_launch(void *state, int dev, void *graph,
                                         void *node, void *fn,
                                         const kc_kernel *k,
                                         void *const *args,
                                         const kern__dims *dims) {
  cuda_state *s = state;
  cuda_graph *g = graph;
  cuda_fn *f = fn;
  kern_status st = dev_enter(s, dev);
  if (st) return st;
  if (!node || !s->cu.cuGraphExecKernelNodeSetParams)
    return cuda_error(s, KERN_ERROR_UNSUPPORTED,
                      "cuda: this graph's launches cannot be updated");
  void *params[KERN__PACK_STACK_ARGS * 4 + 1];
  if (f->nparams + 1 > (int)(sizeof params / sizeof *params))
    return cuda_error(s, KERN_ERROR_UNSUPPORTED,
                      "cuda: too many parameters to update in a graph");
  for (int p = 0; p < f->nparams; p++) params[p] = args[p];
  params[f->nparams] = (void *)(uintptr_t)dims;
  cu_kernel_node_params np;
  memset(&np, 0, sizeof np);
  /* A capture waited for the final code (tier_check), so the node holds
   * the function f has now. */
  np.func = __atomic_load_n(&f->fn, __ATOMIC_RELAXED);
  np.gridDimX = (unsigned)(dims->total - dims->begin > 0
                               ? grid_blocks(f, dims->total - dims->begin)
                               : 1);
  np.gridDimY = np.gridDimZ = 1;
  np.blockDimX = __atomic_load_n(&f->block, __ATOMIC_RELAXED);
  np.blockDimY = np.blockDimZ = 1;
  np.kernelParams = params;
  return CHECK(s, dev, KERN_ERROR_LAUNCH, cu,
               cuGraphExecKernelNodeSetParams(g->exec, node, &np),
               "kernel=%s", k ? k->symbol : "?");
}

static void cuda_graph_free(void *state, int dev, void *graph) {
  cuda_state *s = state;
  cuda_graph *g = graph;
  if (!g) return;
  if (!s->devs[dev].broken && !dev_enter(s, dev)) {
    if (g->exec) s->cu.cuGraphExecDestroy(g->exec);
    if (g->graph) s->cu.cuGraphDestroy(g->graph);
  }
  kern__free(g);
}

static kern_status cuda_module_wait_final(void *state, void *module) {
  cuda_state *s = state;
  cuda_module *m = module;
  if (atomic_load_explicit(&m->quick, memory_order_acquire) != QUICK_BUILDING)
    return KERN_SUCCESS;
  kern_status st = dev_enter(s, m->dev);
  if (st) return st;
  tier_switch(s, m, 1);
  return KERN_SUCCESS;
}

const kern_backend kern__backend_cuda = {
    .version = 6,
    .name = "cuda",
    .kind = KERN_BACKEND_CUDA,
    .target = KERN_TARGET_CUDA,
    .probe = cuda_probe,
    .release = cuda_release,
    .device_count = cuda_device_count,
    .device_info = cuda_device_info,
    .mem_alloc = cuda_mem_alloc,
    .mem_free = cuda_mem_free,
    .copy_in = cuda_copy_in,
    .copy_out = cuda_copy_out,
    .fill = cuda_fill,
    .module_build = cuda_module_build,
    .module_free = cuda_module_free,
    .kernel_get = cuda_kernel_get,
    .launch = cuda_launch,
    .synchronize = cuda_synchronize,
    .init = cuda_init,
    .copy_dd = cuda_copy_dd,
    .stream_new = cuda_stream_new,
    .stream_free = cuda_stream_free,
    .stream_default = cuda_stream_default,
    .stream_sync = cuda_stream_sync,
    .stream_query = cuda_stream_query,
    .stream_wait = cuda_stream_wait,
    .event_new = cuda_event_new,
    .event_free = cuda_event_free,
    .event_record = cuda_event_record,
    .event_sync = cuda_event_sync,
    .event_query = cuda_event_query,
    .event_elapsed = cuda_event_elapsed,
    .launch_async = cuda_launch_async,
    .module_wait_final = cuda_module_wait_final,
    .module_build_tiered = cuda_module_build_tiered,
    .copy_in_async = cuda_copy_in_async,
    .copy_out_async = cuda_copy_out_async,
    .copy_dd_async = cuda_copy_dd_async,
    .fill_async = cuda_fill_async,
    .host_alloc = cuda_host_alloc,
    .host_free = cuda_host_free,
    .capture_begin = cuda_capture_begin,
    .capture_end = cuda_capture_end,
    .capture_node = cuda_capture_node,
    .graph_launch = cuda_graph_launch,
    .graph_set_launch = cuda_graph_set_launch,
    .graph_free = cuda_graph_free,
};

/* ---------------------------------------------------------------- checks */

int kern__cuda_nvrtc_compile_check(const char *source, const char *arch,
                                   char **log) {
  *log = NULL;
  /* NVRTC is loaded once per process (Note [process-wide CUDA state]). */
  if (kern__backends_init() != KERN_SUCCESS) return KERN__NVRTC_FAILED;
  if (!cuda_proc.libnvrtc) {
    *log = strdup(cuda_nvrtc_reason[0] ? cuda_nvrtc_reason
                                       : "libnvrtc not found");
    return KERN__NVRTC_UNAVAILABLE;
  }
  cuda_state *s = kern__calloc(1, sizeof *s);
  if (!s) return KERN__NVRTC_FAILED;
  s->libnvrtc = cuda_proc.libnvrtc;
  memcpy(s->nvrtc_path, cuda_proc.nvrtc_path, sizeof s->nvrtc_path);
  s->nv = cuda_proc.nv;
  s->nvrtc_major = cuda_proc.nvrtc_major;
  s->nvrtc_minor = cuda_proc.nvrtc_minor;
  s->narchs = cuda_proc.narchs;
  s->archs = cuda_proc.archs;
  void *image = NULL;
  size_t size = 0;
  char *nvlog = NULL;
  kern_status st = nvrtc_compile(s, -1, source, arch, &image, &size, &nvlog);
  kern__free(image);
  int rc = KERN__NVRTC_OK;
  /* The caller frees *log with free(): hand it a strdup'd copy. */
  if (st == KERN_ERROR_COMPILE) {
    rc = KERN__NVRTC_COMPILE_ERROR;
    *log = nvlog ? strdup(nvlog) : NULL;
  } else if (st) {
    /* Not the source's fault (bad arch, OOM): the message says what. */
    rc = KERN__NVRTC_FAILED;
    *log = strdup(s->msg);
  } else {
    *log = nvlog ? strdup(nvlog) : NULL;
  }
  kern__free(nvlog);
  state_free(s);
  return rc;
}

int kern__cuda_jobs_selftest(const char *source, const char *arch, int n,
                             const char *dir, char *why, size_t whysz) {
  why[0] = 0;
  if (kern__backends_init() != KERN_SUCCESS || !cuda_proc.libnvrtc) {
    snprintf(why, whysz, "NVRTC is not available");
    return 77;
  }
  cuda_state st;
  memset(&st, 0, sizeof st);
  st.libnvrtc = cuda_proc.libnvrtc;
  memcpy(st.nvrtc_path, cuda_proc.nvrtc_path, sizeof st.nvrtc_path);
  st.nv = cuda_proc.nv;
  st.nvrtc_major = cuda_proc.nvrtc_major;
  st.nvrtc_minor = cuda_proc.nvrtc_minor;
  kc_result code;
  memset(&code, 0, sizeof code);
  code.source = (char *)source;
  cuda_job *js[64];
  if (n < 1 || n > 64) n = 64;
  int rc = 0, foreground = 0;
  for (int i = 0; i < n; i++) {
    char key[65];
    /* A distinct key per job and per calling thread. */
    snprintf(key, sizeof key, "%016llx%016llx",
             (unsigned long long)(uintptr_t)&st, (unsigned long long)i);
    js[i] = job_start(&st, &code, arch, key, dir);
    if (!js[i]) {
      /* Too many children at once: the load would build in the
       * foreground; so does the test, and it must succeed. */
      foreground++;
      void *image = NULL;
      size_t size = 0;
      char *log = NULL;
      if (nvrtc_compile(&st, -1, source, arch, &image, &size, &log) ||
          !image || !size) {
        if (!rc) snprintf(why, whysz, "job %d in the foreground: %s", i, st.msg);
        rc = 1;
      } else if (dir) {
        (void)kern__cache_store(dir, key, ".cubin", image, size);
      }
      kern__free(image);
      kern__free(log);
      continue;
    }
    if (i % 3 == 1) { /* dropped at once, while it runs */
      job_free(js[i]);
      js[i] = NULL;
    }
  }
  for (int i = 0; i < n; i++) {
    if (!js[i]) continue;
    size_t size = 0;
    if (kern__bg_poll(js[i]->bg, 1) != KERN__BG_READY ||
        !kern__bg_image(js[i]->bg, &size) || !size) {
      if (!rc) snprintf(why, whysz, "job %d: %s", i, kern__bg_why(js[i]->bg));
      rc = 1;
    }
    job_free(js[i]);
  }
  (void)foreground;
  return rc;
}

void *kern__cuda_function_handle(void *fn) {
  return fn ? (void *)__atomic_load_n(&((cuda_fn *)fn)->fn, __ATOMIC_RELAXED)
            : NULL;
}

unsigned kern__cuda_function_block(void *fn) {
  return fn ? __atomic_load_n(&((cuda_fn *)fn)->block, __ATOMIC_RELAXED) : 0;
}
