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
#include "cuda_internal.h"

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
int kern__cu_is_sticky(CUresult r) {
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

const char *kern__cu_error_name(const cuda_state *s, CUresult r) {
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
kern_status kern__cu_fail(cuda_state *s, int dev, kern_status status,
                          const char *lib, int rc, const char *call,
                          const char *file, int line, const char *fmt,
                          ...) __attribute__((format(printf, 9, 10)));
kern_status kern__cu_fail(cuda_state *s, int dev, kern_status status,
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
    name = kern__cu_error_name(s, rc);
    text = cu_error_text(s, rc);
    if (rc == CUDA_ERROR_OUT_OF_MEMORY) status = KERN_ERROR_OUT_OF_MEMORY;
    if (kern__cu_is_sticky(rc) && dev >= 0 && dev < s->ndev) {
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

/* Records a failure that is not a driver call's result. */
kern_status kern__cu_error(cuda_state *s, kern_status status,
                           const char *fmt, ...)
                           __attribute__((format(printf, 3, 4)));
kern_status kern__cu_error(cuda_state *s, kern_status status,
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
 * to kern__cu_proc (Note [process-wide CUDA state]). */
static void state_free(cuda_state *s) {
  if (!s) return;
  kern__free(s->devs);
  kern__free(s);
}

/* Note [process-wide CUDA state]
 * Loading libcuda and NVRTC, resolving their entry points, cuInit and the
 * NVRTC version and architecture list happen once per process, in
 * cuda_init under the runtime's lock (Note [process-wide backend state] in
 * context.c), into kern__cu_proc, which nothing writes afterwards.  A probe
 * copies the tables and versions into the context's state and enumerates
 * the devices itself (cuInit has run, and the driver API is thread-safe
 * from there).  NVRTC is loaded even without libcuda, because the
 * standalone NVRTC check (kern__cuda_nvrtc_compile_check) needs only it. */
cuda_state kern__cu_proc;
static char cuda_proc_reason[1024]; /* why the backend has no devices */
char kern__cu_nvrtc_reason[1024]; /* why NVRTC is unusable, or "" */

static kern_status cuda_init(void) {
  cuda_state *s = &kern__cu_proc;
  s->ctx = NULL;
  int nv = nvrtc_load(s, kern__cu_nvrtc_reason, sizeof kern__cu_nvrtc_reason);
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
    snprintf(reason, reason_size, "%s", kern__cu_nvrtc_reason);
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
  s->libcuda = kern__cu_proc.libcuda;
  s->libnvrtc = kern__cu_proc.libnvrtc;
  memcpy(s->nvrtc_path, kern__cu_proc.nvrtc_path, sizeof s->nvrtc_path);
  s->cu = kern__cu_proc.cu;
  s->nv = kern__cu_proc.nv;
  s->driver_version = kern__cu_proc.driver_version;
  s->nvrtc_major = kern__cu_proc.nvrtc_major;
  s->nvrtc_minor = kern__cu_proc.nvrtc_minor;
  s->narchs = kern__cu_proc.narchs;
  s->archs = kern__cu_proc.archs;

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
    return s ? kern__cu_error(s, KERN_ERROR_INVALID_ARGUMENT,
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
  return kern__cu_error(s, KERN_ERROR_DEVICE,
                    "cuda: cuda:%d is unusable after an earlier device fault "
                    "(%s); the CUDA context must be recreated, which the CUDA "
                    "driver allows only in a new process",
                    dev, kern__cu_error_name(s, s->devs[dev].broken));
}

/* Makes dev's primary context current on this thread, retaining it and
 * creating kern's stream on first use.  Every entry point that touches a
 * device calls this first: contexts are per thread in CUDA, and a kern
 * context may move between threads (one at a time). */
kern_status kern__cu_dev_enter(cuda_state *s, int dev) {
  if (dev < 0 || dev >= s->ndev)
    return kern__cu_error(s, KERN_ERROR_INVALID_ARGUMENT,
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
 * primary context, the one kern__cu_dev_enter makes current. */
kern_status kern__cuda_enter(void *state, int dev) {
  return kern__cu_dev_enter(state, dev);
}

/* ---------------------------------------------------------------- memory */


static kern_status cuda_mem_alloc(void *state, int dev, size_t bytes,
                                  void **out) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
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
  if (s->devs[dev].broken || kern__cu_dev_enter(s, dev)) return;
  (void)CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuMemFree(dptr(p)), "ptr=%p", p);
}

/* The end of every synchronous call: wait for the device's default stream,
 * where the call's work went (see the design notes at the top). */
kern_status kern__cu_default_wait(cuda_state *s, int dev, kern_status st) {
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuStreamSynchronize(s->devs[dev].stream), "%s", "");
}

static kern_status cuda_copy_in(void *state, int dev, void *dst,
                                const void *src, size_t bytes) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st || bytes == 0) return st;
  st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
             cuMemcpyHtoDAsync(dptr(dst), src, bytes, s->devs[dev].stream),
             "bytes=%zu", bytes);
  return kern__cu_default_wait(s, dev, st);
}

static kern_status cuda_copy_out(void *state, int dev, void *dst,
                                 const void *src, size_t bytes) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st || bytes == 0) return st;
  st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
             cuMemcpyDtoHAsync(dst, dptr(src), bytes, s->devs[dev].stream),
             "bytes=%zu", bytes);
  return kern__cu_default_wait(s, dev, st);
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
kern_status kern__cu_fill_on(cuda_state *s, int dev, CUstream cs, void *dst,
                             const void *pattern, size_t pattern_size,
                             size_t bytes) {
  kern_status st;
  if (pattern_size == 0 || bytes % pattern_size)
    return kern__cu_error(s, KERN_ERROR_INVALID_ARGUMENT,
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
    return kern__cu_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
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
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st || bytes == 0) return st;
  st = kern__cu_fill_on(s, dev, s->devs[dev].stream, dst, pattern, pattern_size, bytes);
  return kern__cu_default_wait(s, dev, st);
}

/* ---------------------------------------------------------------- launch */

/* A failed cuLaunchKernel.  Out of resources names what the kernel needs a
 * thread: a kernel holding large tiles needs their bytes of local memory in
 * every thread of its block (Note [tiles, first stage] in
 * lower/check_tile.c), so a smaller block_dim is the way out. */
kern_status kern__cu_launch_failed(cuda_state *s, int dev, CUfunction fnp,
                                   CUresult rc, const kc_kernel *k,
                                   int64_t blocks, unsigned block) {
  const char *name = k ? k->symbol : "?";
  int local = 0, regs = 0;
  s->cu_rc = rc;
  if (rc == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES &&
      s->cu.cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                               fnp) == CUDA_SUCCESS &&
      s->cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fnp) ==
          CUDA_SUCCESS)
    return kern__cu_fail(s, dev, KERN_ERROR_LAUNCH, "cu", (int)rc,
                         "cuLaunchKernel", __FILE__, __LINE__,
                         "kernel=%s grid=%lld block=%u: each of the block's "
                         "threads needs %d bytes of local memory and %d "
                         "registers; launch it with a smaller block_dim",
                         name, (long long)blocks, block, local, regs);
  return kern__cu_fail(s, dev, KERN_ERROR_LAUNCH, "cu", (int)rc,
                       "cuLaunchKernel", __FILE__, __LINE__,
                       "kernel=%s grid=%lld block=%u", name,
                       (long long)blocks, block);
}

/* Note [kernelParams]
 * The generated kernel is SYMBOL(P0, ..., Pn-1, kern__dims), every
 * parameter by value.  cuLaunchKernel wants one pointer per parameter to
 * its bytes, which is exactly what the runtime hands us: args[p] points to
 * a value of the parameter's type, or to a 40-byte kern__arr whose data is
 * the CUdeviceptr.  So kernelParams = { args[0], ..., args[n-1], dims }.
 * The driver copies the values during the call, so the slots may be reused
 * by the next launch. */
static kern_status cuda_launch(void *state, int dev, void *fn,
                               const kc_kernel *k, void *const *args,
                               const kern__dims *dims) {
  cuda_state *s = state;
  cuda_fn *f = fn;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  /* A shard of a sharded launch runs [begin, total) of the whole grid. */
  int64_t total = dims->total - dims->begin;
  if (total <= 0) return KERN_SUCCESS; /* a zero-size grid runs nothing */
  CUstream stream = s->devs[dev].stream;
  if ((st = tier_check(s, f, stream, dims))) return st;
  if (f->gemm && kern__cu_gemm_launch(s, dev, f, k, args, dims, stream, &st))
    return st ? st : CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamSynchronize(stream),
                      "after kernel=%s", k->symbol);
  unsigned block = launch_block(f, dims);
  int64_t blocks = grid_blocks_of(f, total, block);
  for (int p = 0; p < f->nparams; p++) f->params[p] = args[p];
  f->params[f->nparams] = (void *)(uintptr_t)dims; /* the driver only reads */
  CUfunction fnp = __atomic_load_n(&f->fn, __ATOMIC_RELAXED);
  CUresult rc = s->cu.cuLaunchKernel(fnp, (unsigned)blocks, 1, 1, block, 1, 1,
                                     f->dyn_smem, stream, f->params, NULL);
  if (rc != CUDA_SUCCESS)
    return kern__cu_launch_failed(s, dev, fnp, rc, k, blocks, block);
  /* Version 1 launches are synchronous so that a fault is reported by the
   * launch that caused it. */
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamSynchronize(stream),
               "after kernel=%s", k ? k->symbol : "?");
}

static kern_status cuda_synchronize(void *state, int dev) {
  cuda_state *s = state;
  if (dev >= 0 && dev < s->ndev && !s->devs[dev].ctx && !s->devs[dev].broken)
    return KERN_SUCCESS; /* never used: nothing to wait for */
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuCtxSynchronize(), "%s", "");
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
    .module_build = kern__cu_module_build,
    .module_free = kern__cu_module_free,
    .kernel_get = kern__cu_kernel_get,
    .launch = cuda_launch,
    .synchronize = cuda_synchronize,
    .init = cuda_init,
    .copy_dd = kern__cu_copy_dd,
    .stream_new = kern__cu_stream_new,
    .stream_free = kern__cu_stream_free,
    .stream_default = kern__cu_stream_default,
    .stream_sync = kern__cu_stream_sync,
    .stream_query = kern__cu_stream_query,
    .stream_wait = kern__cu_stream_wait,
    .event_new = kern__cu_event_new,
    .event_free = kern__cu_event_free,
    .event_record = kern__cu_event_record,
    .event_sync = kern__cu_event_sync,
    .event_query = kern__cu_event_query,
    .event_elapsed = kern__cu_event_elapsed,
    .launch_async = kern__cu_launch_async,
    .module_wait_final = kern__cu_module_wait_final,
    .module_build_tiered = kern__cu_module_build_tiered,
    .copy_in_async = kern__cu_copy_in_async,
    .copy_out_async = kern__cu_copy_out_async,
    .copy_dd_async = kern__cu_copy_dd_async,
    .fill_async = kern__cu_fill_async,
    .host_alloc = kern__cu_host_alloc,
    .host_free = kern__cu_host_free,
    .capture_begin = kern__cu_capture_begin,
    .capture_end = kern__cu_capture_end,
    .capture_node = kern__cu_capture_node,
    .graph_launch = kern__cu_graph_launch,
    .graph_set_launch = kern__cu_graph_set_launch,
    .graph_free = kern__cu_graph_free,
};

/* ---------------------------------------------------------------- checks */

int kern__cuda_nvrtc_compile_check(const char *source, const char *arch,
                                   char **log) {
  *log = NULL;
  /* NVRTC is loaded once per process (Note [process-wide CUDA state]). */
  if (kern__backends_init() != KERN_SUCCESS) return KERN__NVRTC_FAILED;
  if (!kern__cu_proc.libnvrtc) {
    *log = strdup(kern__cu_nvrtc_reason[0] ? kern__cu_nvrtc_reason
                                       : "libnvrtc not found");
    return KERN__NVRTC_UNAVAILABLE;
  }
  cuda_state *s = kern__calloc(1, sizeof *s);
  if (!s) return KERN__NVRTC_FAILED;
  s->libnvrtc = kern__cu_proc.libnvrtc;
  memcpy(s->nvrtc_path, kern__cu_proc.nvrtc_path, sizeof s->nvrtc_path);
  s->nv = kern__cu_proc.nv;
  s->nvrtc_major = kern__cu_proc.nvrtc_major;
  s->nvrtc_minor = kern__cu_proc.nvrtc_minor;
  s->narchs = kern__cu_proc.narchs;
  s->archs = kern__cu_proc.archs;
  void *image = NULL;
  size_t size = 0;
  char *nvlog = NULL;
  kern__bg_enter_compiler();
  kern_status st = kern__cu_nvrtc_compile(s, -1, source, arch, &image, &size, &nvlog);
  kern__bg_leave_compiler();
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

