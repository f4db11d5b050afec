/*
 * cuda_module.c -- the CUDA backend's modules and kernels, and the PTX tier of a
 * cold load with its background build (Note [PTX tier])
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
    return kern__cu_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  memcpy(src, code->source, len); /* NVRTC wants a NUL-terminated string */
  src[len] = 0;
  void *image = NULL;
  size_t size = 0;
  kern__bg_enter_compiler();
  kern_status st = kern__cu_nvrtc_compile(s, b->dev, src, b->arch, &image, &size, &log);
  kern__bg_leave_compiler();
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
  if (!m) return kern__cu_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
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
 * down a pipe; kern__cu_tier_switch looks for it at launches; job_free lets go of
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
  kern_status st = kern__cu_nvrtc_compile(&j->s, -1, j->src, j->arch, image, size,
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
    if (kern__cu_is_sticky(r) && !s->devs[dev].broken) s->devs[dev].broken = r;
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

kern_status kern__cu_module_build_tiered(void *state, int dev,
                                         kc_result *code,
                                         const kern__ptx_request *rq,
                                         void **module) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  cuda_dev *d = &s->devs[dev];
  char arch[32];
  if (!kern__cu_pick_arch(s, d, arch, sizeof arch))
    return kern__cu_error(s, KERN_ERROR_TOOLCHAIN,
                      "cuda: NVRTC %d.%d (%s) cannot compile for sm_%d%d "
                      "(the oldest architecture it supports is sm_%d)",
                      s->nvrtc_major, s->nvrtc_minor, s->nvrtc_path,
                      d->cc_major, d->cc_minor, s->archs[0]);
  /* A tile GEMM's tensor-core kernel needs sm_90a (Note [tile GEMM] in
   * emit/gemm.c); the ordinary kernels are the same there. */
  if (code->sm90a && strcmp(arch, "sm_90") == 0)
    strcat(arch, "a");
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
    key[nkey++] = (kern__key_part){kern__cu_nvrtc_options[i],
                                   strlen(kern__cu_nvrtc_options[i])};
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

kern_status kern__cu_module_build(void *state, int dev,
                                  const kc_result *code, void **module) {
  return kern__cu_module_build_tiered(state, dev, (kc_result *)code, NULL, module);
}

void kern__cu_module_free(void *state, void *module) {
  cuda_state *s = state;
  cuda_module *m = module;
  if (!m) return;
  job_free(m->job);
  if (!s->devs[m->dev].broken && !kern__cu_dev_enter(s, m->dev)) {
    (void)CHECK(s, m->dev, KERN_ERROR_DEVICE, cu, cuModuleUnload(m->mod), "%s",
                "");
    if (m->quick_mod)
      (void)CHECK(s, m->dev, KERN_ERROR_DEVICE, cu, cuModuleUnload(m->quick_mod),
                  "%s", "");
  }
  for (cuda_fn *f = m->fns, *next; f; f = next) {
    next = f->next;
    kern__free(f->gemm);
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

kern_status kern__cu_kernel_get(void *state, void *module,
                                const kc_kernel *k, void **fn) {
  cuda_state *s = state;
  cuda_module *m = module;
  kern_status st = kern__cu_dev_enter(s, m->dev);
  if (st) return st;
  cuda_fn *f = kern__calloc(1, sizeof *f);
  void **params = kern__calloc((size_t)k->nparams + 1, sizeof *params);
  char *symbol = kern__strdup(k->symbol);
  if (!f || !params || !symbol) {
    kern__free(f);
    kern__free(params);
    kern__free(symbol);
    return kern__cu_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  }
  /* Under the lock: the PTX tier's switch replaces m->mod and walks
   * m->fns (kern__cu_tier_switch). */
  pthread_mutex_lock(&m->mu);
  CUfunction cf = NULL;
  st = CHECK(s, m->dev, KERN_ERROR_NOT_FOUND, cu,
             cuModuleGetFunction(&cf, m->mod, k->symbol), "symbol=%s",
             k->symbol);
  /* a block exchange buffer over 48 KiB is dynamic shared memory */
  if (st == KERN_SUCCESS && k->dyn_smem > 0)
    st = s->cu.cuFuncSetAttribute
             ? CHECK(s, m->dev, KERN_ERROR_LAUNCH, cu,
                     cuFuncSetAttribute(cf, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        k->dyn_smem),
                     "symbol=%s bytes=%d", k->symbol, k->dyn_smem)
             : kern__cu_error(s, KERN_ERROR_UNSUPPORTED,
                              "cuda: kernel %s exchanges %d bytes of shared "
                              "memory, over 48 KiB, and this driver lacks "
                              "cuFuncSetAttribute", k->symbol, k->dyn_smem);
  if (st == KERN_SUCCESS) {
    f->fn = cf;
    f->nparams = k->nparams;
    f->params = params;
    f->mod = m;
    f->symbol = symbol;
    choose_shape(s, &s->devs[m->dev], f);
    kern__cu_gemm_get(s, m, f, k); /* Note [tile GEMM launch] */
    f->dyn_smem = (unsigned)k->dyn_smem;
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
 * device's context current (the launch paths' kern__cu_dev_enter).  A build that
 * failed, or that the driver refuses, leaves the PTX in place for good and
 * says why in the context's quiet note. */
void kern__cu_tier_switch(cuda_state *s, cuda_module *m, int wait) {
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


kern_status kern__cu_module_wait_final(void *state, void *module) {
  cuda_state *s = state;
  cuda_module *m = module;
  if (atomic_load_explicit(&m->quick, memory_order_acquire) != QUICK_BUILDING)
    return KERN_SUCCESS;
  kern_status st = kern__cu_dev_enter(s, m->dev);
  if (st) return st;
  kern__cu_tier_switch(s, m, 1);
  return KERN_SUCCESS;
}

int kern__cuda_jobs_selftest(const char *source, const char *arch, int n,
                             const char *dir, char *why, size_t whysz) {
  why[0] = 0;
  if (kern__backends_init() != KERN_SUCCESS || !kern__cu_proc.libnvrtc) {
    snprintf(why, whysz, "NVRTC is not available");
    return 77;
  }
  cuda_state st;
  memset(&st, 0, sizeof st);
  st.libnvrtc = kern__cu_proc.libnvrtc;
  memcpy(st.nvrtc_path, kern__cu_proc.nvrtc_path, sizeof st.nvrtc_path);
  st.nv = kern__cu_proc.nv;
  st.nvrtc_major = kern__cu_proc.nvrtc_major;
  st.nvrtc_minor = kern__cu_proc.nvrtc_minor;
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
      kern__bg_enter_compiler();
      kern_status cst = kern__cu_nvrtc_compile(&st, -1, source, arch, &image,
                                               &size, &log);
      kern__bg_leave_compiler();
      if (cst || !image || !size) {
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

