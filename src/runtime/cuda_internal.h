/*
 * cuda_internal.h -- what the files of the CUDA backend share: the driver
 * and NVRTC ABI kern declares itself, the backend's state, the checking
 * macro, and each file's entry points.
 *
 *   backend_cuda.c  loading, errors, devices, memory, launch, the table
 *   cuda_nvrtc.c    NVRTC: compiling the emitted CUDA C
 *   cuda_module.c   modules, kernels and the PTX tier (Note [PTX tier])
 *   cuda_stream.c   streams, events, asynchronous copies and graphs
 */
#ifndef KERN_CUDA_INTERNAL_H
#define KERN_CUDA_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "runtime.h"
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
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
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

enum {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
};
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
  /* Optional: a tile GEMM's tensor-core kernel (Note [tile GEMM launch] in
   * cuda_gemm.c) needs both, CUDA 12.0 and later. */
  CUresult (*cuFuncSetAttribute)(CUfunction f, int attr, int v);
  CUresult (*cuTensorMapEncodeTiled)(void *map, int dtype, unsigned rank,
                                     void *addr, const uint64_t *dims,
                                     const uint64_t *strides,
                                     const uint32_t *box,
                                     const uint32_t *estrides, int interleave,
                                     int swizzle, int l2, int oob);
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
    S(cuFuncSetAttribute, "cuFuncSetAttribute", 0),
    S(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", 0),
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
/* A tile GEMM's tensor-core kernel and what its launches pass (Note [tile
 * GEMM launch] in cuda_gemm.c). */
typedef struct cuda_gemm {
  CUfunction fn;
  const kc_gemm *g;
  _Alignas(64) unsigned char map_a[128], map_b[128];
  struct {
    void *c;
    const void *bias;
    int64_t m, n, nbias;
    int32_t nk, tiles_m, tiles_n, pad;
    const void *a, *b;
    int64_t am, ak, bk, bn;
  } args;             /* k_gemm_args in emit/gemm.c */
  void *a_key, *b_key; /* the arrays map_a and map_b were made for */
  int64_t a_shape[2], b_shape[2];
  void *params[3];
} cuda_gemm;

typedef struct cuda_fn {
  CUfunction fn;
  cuda_gemm *gemm;   /* NULL: none, or the module was not built for sm_90a */
  unsigned dyn_smem; /* kc_kernel.dyn_smem: each launch's dynamic shared memory */
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
enum { JOB_TIMEOUT_S = 300 };

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

/* Note [one checking macro]
 * CHECK(s, dev, status, lib, call, fmt, ...) runs s->lib.call, keeps its
 * result in s->lib_rc and evaluates to KERN_SUCCESS, or records
 *   "cuda: cuMemAlloc(&p, bytes) failed on cuda:0: CUDA_ERROR_OUT_OF_MEMORY
 *    (out of memory); bytes=800000000 (backend_cuda.c:210)"
 * and evaluates to the status (refined by kern__cu_fail).  fmt and its
 * arguments add the values a reader needs ("bytes=%zu"); pass "%s", "" when
 * there are none.  dev is -1 when no device is involved.  The success path
 * is one indirect call and one compare, cheap enough for launches. */
#define CHECK(s, dev, status, lib, call, ...)                                 \
  (((s)->lib##_rc = (s)->lib.call) == 0                                      \
       ? KERN_SUCCESS                                                        \
       : kern__cu_fail((s), (dev), (status), #lib, (int)(s)->lib##_rc, #call,    \
                   __FILE__, __LINE__, __VA_ARGS__))


static inline CUdeviceptr dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

extern cuda_state kern__cu_proc;
extern char kern__cu_nvrtc_reason[1024];
extern const char *const kern__cu_nvrtc_options[5];
#define NVRTC_NOPTS (1 + 5)

int kern__cu_is_sticky(CUresult r);
const char *kern__cu_error_name(const cuda_state *s, CUresult r);
kern_status kern__cu_fail(cuda_state *s, int dev, kern_status status,
                          const char *lib, int rc, const char *call,
                          const char *file, int line, const char *fmt,
                          ...) __attribute__((format(printf, 9, 10)));
kern_status kern__cu_error(cuda_state *s, kern_status status,
                           const char *fmt, ...) __attribute__((format(printf, 3, 4)));
kern_status kern__cu_launch_failed(cuda_state *s, int dev, CUfunction fnp,
                                   CUresult rc, const kc_kernel *k,
                                   int64_t blocks, unsigned block);
kern_status kern__cu_dev_enter(cuda_state *s, int dev);
kern_status kern__cu_default_wait(cuda_state *s, int dev, kern_status st);
kern_status kern__cu_fill_on(cuda_state *s, int dev, CUstream cs, void *dst,
                             const void *pattern, size_t pattern_size,
                             size_t bytes);
kern_status kern__cu_nvrtc_compile(cuda_state *s, int dev, const char *src,
                                   const char *arch, void **image, size_t *size,
                                   char **log);
int kern__cu_pick_arch(const cuda_state *s, const cuda_dev *d, char *arch,
                       size_t size);
kern_status kern__cu_module_build_tiered(void *state, int dev,
                                         kc_result *code,
                                         const kern__ptx_request *rq,
                                         void **module);
kern_status kern__cu_module_build(void *state, int dev,
                                  const kc_result *code, void **module);
void kern__cu_module_free(void *state, void *module);
kern_status kern__cu_kernel_get(void *state, void *module,
                                const kc_kernel *k, void **fn);
void kern__cu_tier_switch(cuda_state *s, cuda_module *m, int wait);
kern_status kern__cu_module_wait_final(void *state, void *module);
kern_status kern__cu_stream_new(void *state, int dev, void **out);
kern_status kern__cu_stream_free(void *state, int dev, void *cs);
kern_status kern__cu_stream_default(void *state, int dev, void **out);
kern_status kern__cu_stream_sync(void *state, int dev, void *cs);
kern_status kern__cu_stream_query(void *state, int dev, void *cs,
                                  int *done);
kern_status kern__cu_stream_wait(void *state, int dev, void *cs, void *e);
kern_status kern__cu_event_new(void *state, int dev, void **out);
void kern__cu_event_free(void *state, int dev, void *e);
kern_status kern__cu_event_record(void *state, int dev, void *e,
                                  void *cs);
kern_status kern__cu_event_sync(void *state, int dev, void *e);
kern_status kern__cu_event_query(void *state, int dev, void *e,
                                 int *done);
kern_status kern__cu_event_elapsed(void *state, int dev, void *a, void *b,
                                   double *ms);
kern_status kern__cu_launch_async(void *state, int dev, void *cs, void *fn,
                                  const kc_kernel *k, void *const *args,
                                  const kern__dims *dims);
kern_status kern__cu_copy_in_async(void *state, int dev, void *cs,
                                   void *dst, size_t off, const void *src,
                                   size_t bytes);
kern_status kern__cu_copy_out_async(void *state, int dev, void *cs,
                                    void *dst, const void *src, size_t off,
                                    size_t bytes);
kern_status kern__cu_copy_dd_async(void *state, int dev, void *cs,
                                   void *dst, size_t doff, const void *src,
                                   size_t soff, size_t bytes);
kern_status kern__cu_copy_dd(void *state, int dev, void *dst, size_t doff,
                             const void *src, size_t soff, size_t bytes);
kern_status kern__cu_fill_async(void *state, int dev, void *cs, void *dst,
                                const void *pattern, size_t pattern_size,
                                size_t bytes);
kern_status kern__cu_host_alloc(void *state, int dev, size_t bytes,
                                void **out);
void kern__cu_host_free(void *state, int dev, void *p);
kern_status kern__cu_capture_begin(void *state, int dev, void *cs);
kern_status kern__cu_capture_end(void *state, int dev, void *cs,
                                 void **out);
kern_status kern__cu_capture_node(void *state, int dev, void *cs,
                                  void **node);
kern_status kern__cu_graph_launch(void *state, int dev, void *graph,
                                  void *cs);
kern_status kern__cu_graph_set_launch(void *state, int dev, void *graph,
                                      void *node, void *fn,
                                      const kc_kernel *k,
                                      void *const *args,
                                      const kern__dims *dims);
void kern__cu_graph_free(void *state, int dev, void *graph);

/* The block size of a launch: the one asked (Note [block_dim] in
 * runtime/module.c; -1 is Warp's CUDA default, 256), else the one the
 * occupancy calculator chose for f. */
static inline unsigned launch_block(const cuda_fn *f, const kern__dims *dims) {
  if (dims && dims->block > 0) return (unsigned)dims->block;
  if (dims && dims->block < 0) return 256;
  return __atomic_load_n(&f->block, __ATOMIC_RELAXED);
}

/* Blocks for a grid-stride launch over total indices. */
static inline int64_t grid_blocks_of(const cuda_fn *f, int64_t total,
                                     unsigned block) {
  int64_t grid_max = __atomic_load_n(&f->grid_max, __ATOMIC_RELAXED);
  int64_t blocks = total / block + (total % block != 0);
  return blocks > grid_max ? grid_max : blocks;
}

static inline int64_t grid_blocks(const cuda_fn *f, int64_t total) {
  return grid_blocks_of(f, total, __atomic_load_n(&f->block, __ATOMIC_RELAXED));
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
               ? kern__cu_error(s, KERN_ERROR_UNSUPPORTED,
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
  kern__cu_tier_switch(s, m, wait);
  return KERN_SUCCESS;
}

/* cuda_gemm.c: Note [tile GEMM launch]. */
void kern__cu_gemm_get(cuda_state *s, cuda_module *m, cuda_fn *f,
                       const kc_kernel *k);
int kern__cu_gemm_launch(cuda_state *s, int dev, cuda_fn *f,
                         const kc_kernel *k, void *const *args,
                         const kern__dims *dims, CUstream cs,
                         kern_status *st);

#endif
