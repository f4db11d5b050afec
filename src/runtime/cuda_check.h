/*
 * cuda_check.h -- NVRTC entry points of the CUDA backend that need no device.
 *
 *   kern__cuda_nvrtc_compile_check   compile CUDA C for an architecture
 *   kern__cuda_function_handle       the CUfunction behind a kernel handle
 *   kern__cuda_function_block        the block size kern launches it with
 *
 * CI machines have NVRTC but no GPU; compiling the generated CUDA there for
 * "sm_80" / "sm_90" catches emitter bugs without a device.  The check loads
 * NVRTC on its own (dlopen), so it works without a kern_context.
 */
#ifndef KERN_CUDA_CHECK_H
#define KERN_CUDA_CHECK_H

enum {
  KERN__NVRTC_OK = 0,            /* compiled */
  KERN__NVRTC_COMPILE_ERROR = 1, /* the source has errors; *log says which */
  KERN__NVRTC_UNAVAILABLE = 2,   /* NVRTC could not be loaded; *log says why */
  KERN__NVRTC_FAILED = 3         /* any other failure (OOM, bad arch); *log */
};

/* Compiles source (NUL-terminated CUDA C, no includes) with the options the
 * CUDA backend uses, for arch ("sm_90" builds a cubin, "compute_90" PTX).
 * Returns one of the KERN__NVRTC_* codes.  *log receives a malloc'd message
 * (NVRTC's log, possibly only warnings, or the reason for failure), or NULL
 * when there is nothing to say; the caller frees it.  Thread-safe. */
int kern__cuda_nvrtc_compile_check(const char *source, const char *arch,
                                   char **log);

/* Drives the PTX tier's background builds (Note [build threads] in
 * cuda_module.c) without a device: starts n (at most 64) NVRTC builds of
 * source for arch, each in a child process (a start beyond the per-process
 * limit builds in the foreground, as a load would), drops every third at
 * once while it runs, waits for the rest and checks each produced an image
 * (stored under dir as the tier stores it, when dir is not NULL).  0 when all is
 * well, 77 without NVRTC, else 1 with the reason in why.  Callable from
 * several threads at once (the ThreadSanitizer test does). */
int kern__cuda_jobs_selftest(const char *source, const char *arch, int n,
                             const char *dir, char *why, size_t whysz);

/* The CUfunction (as void *) behind a handle from kern__backend_cuda's
 * kernel_get, so a benchmark can time a bare cuLaunchKernel of the very same
 * function next to kern's launch path. */
void *kern__cuda_function_handle(void *fn);
/* The threads per block kern launches that kernel with. */
unsigned kern__cuda_function_block(void *fn);

#endif
