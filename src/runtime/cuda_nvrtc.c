/*
 * cuda_nvrtc.c -- the CUDA backend's NVRTC: the options, the compile, the architecture
 * NVRTC builds for
 * (cuda_internal.h lists the backend's files).
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
const char *const kern__cu_nvrtc_options[5] = {
    "-default-device",
    "--std=c++17",
    "-lineinfo",
    "--fmad=false",
    "--minimal",
};
static _Atomic int nvrtc_no_minimal; /* this NVRTC refused --minimal */

/* Compiles src for arch ("sm_90": cubin; "compute_90": PTX).  On success
 * *image and *size hold the binary (PTX NUL-terminated), from kern__malloc.
 * A compile error returns KERN_ERROR_COMPILE with NVRTC's log in *log (from
 * kern__malloc too). */
kern_status kern__cu_nvrtc_compile(cuda_state *s, int dev, const char *src,
                                   const char *arch, void **image, size_t *size,
                                   char **log) {
  char arch_opt[64];
  snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", arch);
  const char *opts[NVRTC_NOPTS];
  opts[0] = arch_opt;
  for (size_t i = 1; i < NVRTC_NOPTS; i++) opts[i] = kern__cu_nvrtc_options[i - 1];
  int cubin = strncmp(arch, "sm_", 3) == 0;
  if (cubin && !s->nv.nvrtcGetCUBIN)
    return kern__cu_error(s, KERN_ERROR_TOOLCHAIN,
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
    st = kern__cu_error(s, KERN_ERROR_COMPILE,
                    "cuda: NVRTC %d.%d failed to compile for %s:\n%s",
                    s->nvrtc_major, s->nvrtc_minor, arch,
                    *log ? *log : "(no log)");
  } else if (rc != NVRTC_SUCCESS) {
    s->nv_rc = rc;
    st = kern__cu_fail(s, dev, KERN_ERROR_TOOLCHAIN, "nv", rc,
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
      st = kern__cu_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
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
int kern__cu_pick_arch(const cuda_state *s, const cuda_dev *d, char *arch,
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

