/*
 * context.c -- contexts, the error slot, backend probing and device lists.
 *
 * A context owns everything: the probed backends and their state, the flat
 * device list, every module and array still alive, and the error message.
 * There is no global state, so two contexts in one process never interact.
 *
 * Devices are numbered across backends in backend order (cpu, cuda, opencl),
 * so device 0 is always the CPU, which is always available.  A backend whose
 * vendor library is missing contributes no devices and keeps the reason it
 * gave, which kern_backend_get and kern_device_find report.
 *
 * Note [error recency]
 * kern_last_error() reports the most recent failing call, because that is
 * the failure a caller is looking at when it asks; an older message would
 * describe something already handled.  Within one call, though, the first
 * error recorded wins (Futhark's "take care not to override an existing
 * error"): a backend's detailed message ("cc: ... error: ...") is the cause,
 * and the generic one its caller adds on the way out ("building 'x' for
 * cpu:0 failed") would hide it.  So every public entry point starts a call
 * with kern__call_begin, which marks the kept message as belonging to an
 * earlier call; the first error of the new call replaces it, later ones of
 * the same call do not.  Successful calls never touch the message.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "runtime.h"

/* ---------------------------------------------------------------- errors */

void kern__call_begin(kern_context *ctx) {
  if (ctx) ctx->error_fresh = 0;
}

kern_status kern__verror(kern_context *ctx, kern_status s, const char *fmt,
                         va_list ap) {
  if (!ctx || s == KERN_SUCCESS) return s;
  if (ctx->quiet > 0) { /* a cache attempt: noted, never an error */
    vsnprintf(ctx->quiet_note, sizeof ctx->quiet_note, fmt, ap);
    return s;
  }
  if (ctx->error_fresh) return s; /* this call's first error is the cause */
  kern__free(ctx->error);
  ctx->error = NULL;
  ctx->error_status = s;
  ctx->error_fresh = 1;
  /* If the message cannot be allocated the status alone is kept and
   * kern_last_error falls back to its static description. */
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *msg = n >= 0 ? kern__malloc((size_t)n + 1) : NULL;
  if (msg) vsnprintf(msg, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  ctx->error = msg;
  return s;
}

kern_status kern__error(kern_context *ctx, kern_status s, const char *fmt,
                        ...) {
  va_list ap;
  va_start(ap, fmt);
  kern__verror(ctx, s, fmt, ap);
  va_end(ap);
  return s;
}

/* Note [worker stacks]
 * Kernels keep their fixed-size arrays and tiles on the stack of the
 * thread that runs them, up to 256 KiB a kernel (Note [fixed-size array
 * limit] in lower/check_fixed.c).  A thread's default stack is whatever
 * the C library picks: glibc takes RLIMIT_STACK (8 MiB on most Linux
 * systems, but 2 MiB when it is unlimited), musl 128 KiB, which a
 * 256 KiB frame overflows (SIGSEGV).  So the threads the runtime starts
 * -- the CPU backend's pool and the streams' workers -- ask for
 * KERN__THREAD_STACK explicitly: 8 MiB, the usual main thread's stack and
 * 32 kernel frames' worth, reserved address space that costs memory only
 * as far as it is touched.  The caller's own thread also runs part of a
 * CPU launch; its stack is the application's (a main thread's is 8 MiB on
 * Linux by default). */
int kern__thread_create(pthread_t *t, void *(*fn)(void *), void *arg) {
  pthread_attr_t a;
  int rc = pthread_attr_init(&a);
  if (rc != 0) return rc;
  rc = pthread_attr_setstacksize(&a, KERN__THREAD_STACK);
  if (rc == 0) rc = pthread_create(t, &a, fn, arg);
  pthread_attr_destroy(&a);
  return rc;
}

static void clear_error(kern_context *ctx) {
  kern__free(ctx->error);
  ctx->error = NULL;
  ctx->error_status = KERN_SUCCESS;
  ctx->error_fresh = 0;
}

const char *kern_last_error(const kern_context *h) {
  /* Reading the message is not a call that could fail, so it starts no
   * call: it must not change what a later failure of the same call keeps. */
  const kern_context *ctx = kern__ctx(h);
  if (!ctx || ctx->error_status == KERN_SUCCESS) return "";
  return ctx->error ? ctx->error : kern_status_string(ctx->error_status);
}

void kern_clear_error(kern_context *h) {
  kern_context *ctx = kern__ctx(h);
  if (ctx) clear_error(ctx);
}

/* ---------------------------------------------------------------- handles */

kern_context *kern__ctx_enter(const kern_context *h) {
  kern_context *ctx = kern__ctx(h);
  kern__call_begin(ctx);
  return ctx;
}

/* ---------------------------------------------------------------- options */

/* Resolves the cache directory without creating it: creation (and the
 * ownership checks) happen on first use in cache.c, so a context that never
 * compiles never touches the file system. */
static kern_status resolve_cache_dir(kern_context *ctx, const char *opt) {
  const char *env;
  int n;
  if (opt && *opt)
    n = snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s", opt);
  else if ((env = getenv("KERN_CACHE_DIR")) && *env)
    n = snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s", env);
  else if ((env = getenv("XDG_CACHE_HOME")) && *env == '/')
    n = snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s/kern", env);
  else if ((env = getenv("HOME")) && *env)
    n = snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s/.cache/kern",
                 env);
  else {
    /* No home: the cache is unusable, but a context that never compiles
     * (or uses no_cache) still works; cache.c reports it on first use. */
    ctx->cache_dir[0] = 0;
    return KERN_SUCCESS;
  }
  if (n < 0 || (size_t)n >= sizeof ctx->cache_dir)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kernel cache directory path is too long");
  /* Trailing slashes would only make entry paths uglier. */
  while (n > 1 && ctx->cache_dir[n - 1] == '/') ctx->cache_dir[--n] = 0;
  return KERN_SUCCESS;
}

static int resolve_num_threads(int opt) {
  if (opt > 0) return opt;
  const char *env = getenv("KERN_NUM_THREADS");
  if (env && *env) {
    char *end;
    errno = 0;
    long v = strtol(env, &end, 10);
    if (errno == 0 && *end == 0 && v > 0 && v <= 4096) return (int)v;
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1) cores = 1;
  if (cores > 4096) cores = 4096;
  return (int)cores;
}

/* kern_options.cuda_tier, or when it is AUTO $KERN_CUDA_TIER: "nvrtc" or
 * "ptx"; anything else is AUTO, as KERN_NUM_THREADS ignores what it cannot
 * read (there is no context yet to hold an error). */
static int resolve_cuda_tier(int opt) {
  if (opt != KERN_CUDA_TIER_AUTO) return opt;
  const char *env = getenv("KERN_CUDA_TIER");
  if (env && !strcmp(env, "nvrtc")) return KERN_CUDA_TIER_NVRTC;
  if (env && !strcmp(env, "ptx")) return KERN_CUDA_TIER_PTX;
  return KERN_CUDA_TIER_AUTO;
}

/* ---------------------------------------------------------------- backends
 *
 * Note [process-wide backend state]
 * Everything a context uses is its own, with one exception: what a vendor
 * library sets up once per process.  The OpenCL ICD loader and the platforms
 * it loads (PoCL) initialise themselves on the first clGetPlatformIDs /
 * clGetDeviceIDs without a lock -- two threads probing at once crashed
 * inside PoCL -- and PoCL's initialisation calls setenv, which races with any
 * thread reading the environment (getenv, or posix_spawn handing `environ`
 * to the C compiler).  So each backend's init (runtime.h) loads its library
 * and does that first initialisation exactly once, under init_lock, and
 * keeps the outcome in its own file-scope state, written only there and read
 * only after; per-context probes then start from it.
 *
 * kern_context_new runs the inits before it reads the environment itself,
 * and every later kern call that reads the environment or spawns happens on
 * a context, so after them: no thread of ours reads the environment while a
 * vendor writes it.  The application's own threads are its business; the
 * header asks it to create the first context before it runs threads that
 * touch the environment.
 *
 * A mutex and flags rather than pthread_once, because an init that ran out
 * of memory must be retried by the next context instead of leaving the
 * backend unavailable for the rest of the process.
 */

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_done[KERN_BACKEND_COUNT]; /* guarded by init_lock */

static const kern_backend *const all_backends[KERN_BACKEND_COUNT] = {
    [KERN_BACKEND_CPU] = &kern__backend_cpu,
    [KERN_BACKEND_CUDA] = &kern__backend_cuda,
    [KERN_BACKEND_OPENCL] = &kern__backend_opencl,
    [KERN_BACKEND_VULKAN] = &kern__backend_vulkan,
};

kern_status kern__backends_init(void) {
  kern_status st = KERN_SUCCESS;
  pthread_mutex_lock(&init_lock);
  for (int b = 0; b < KERN_BACKEND_COUNT; b++) {
    const kern_backend *be = all_backends[b];
    if (init_done[b]) continue;
    kern_status s = be->version >= 2 && be->init ? be->init() : KERN_SUCCESS;
    if (s == KERN_ERROR_OUT_OF_MEMORY) {
      st = s; /* not done: the next context tries again */
      break;
    }
    init_done[b] = 1;
  }
  pthread_mutex_unlock(&init_lock);
  return st;
}

/* ---------------------------------------------------------------- context */

static void context_destroy(kern_context *ctx);

kern_status kern_context_new(const kern_options *opts, kern_context **out) {
  if (!out) return KERN_ERROR_INVALID_ARGUMENT;
  /* Defaults, then whatever fields the caller's struct has. */
  kern_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  if (opts && kern__struct_in(&o, sizeof o, opts, KERN_OPTIONS_SIZE_V1) !=
                  KERN_SUCCESS)
    return KERN_ERROR_INVALID_ARGUMENT;
  if (o.reserved0 != 0 || o.reserved1 != 0 || o.cuda_tier < KERN_CUDA_TIER_AUTO ||
      o.cuda_tier > KERN_CUDA_TIER_PTX)
    return KERN_ERROR_INVALID_ARGUMENT;
  /* First, before this thread reads the environment: Note
   * [process-wide backend state]. */
  kern_status ist = o.no_devices ? KERN_SUCCESS : kern__backends_init();
  if (ist != KERN_SUCCESS) return ist;
  kern_context *ctx = kern__calloc(1, sizeof *ctx);
  if (!ctx) return KERN_ERROR_OUT_OF_MEMORY;
  ctx->opts = o;
  kern_status st = KERN_SUCCESS;
  ctx->h = kern__handle_new(KERN__H_CONTEXT, ctx);
  if (!ctx->h) {
    st = KERN_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  /* The caller's cache_dir string need not outlive this call. */
  st = resolve_cache_dir(ctx, o.cache_dir);
  ctx->opts.cache_dir = ctx->cache_dir;
  ctx->num_threads = resolve_num_threads(o.num_threads);
  ctx->opts.num_threads = ctx->num_threads;
  ctx->opts.cuda_tier = resolve_cuda_tier(o.cuda_tier);
  if (st != KERN_SUCCESS) goto fail;

  for (int b = 0; b < KERN_BACKEND_COUNT; b++) ctx->backends[b] = all_backends[b];

  int total = 0;
  int counts[KERN_BACKEND_COUNT] = {0};
  for (int b = 0; b < KERN_BACKEND_COUNT; b++) {
    const kern_backend *be = ctx->backends[b];
    char *reason = ctx->breason[b];
    reason[0] = 0;
    if (o.no_devices) {
      snprintf(reason, sizeof ctx->breason[b],
               "%s: not probed (a context made to compile only: "
               "kern_options.no_devices)", be->name);
      continue;
    }
    st = be->probe(ctx, &ctx->bstate[b], reason, sizeof ctx->breason[b]);
    if (st == KERN_ERROR_OUT_OF_MEMORY) goto fail;
    if (st != KERN_SUCCESS) {
      /* A broken driver makes its backend unavailable, not the context:
       * the CPU must keep working on a machine with a bad GPU install. */
      snprintf(reason, sizeof ctx->breason[b], "%s",
               ctx->error ? ctx->error : kern_status_string(st));
      clear_error(ctx);
      if (ctx->bstate[b]) be->release(ctx->bstate[b]);
      ctx->bstate[b] = NULL;
      continue;
    }
    counts[b] = ctx->bstate[b] ? be->device_count(ctx->bstate[b]) : 0;
    if (counts[b] < 0) counts[b] = 0;
    if (counts[b] == 0 && !reason[0])
      snprintf(reason, sizeof ctx->breason[b], "%s: no devices found",
               be->name);
    total += counts[b];
  }
  if (total > 0) {
    ctx->devices = kern__calloc((size_t)total, sizeof *ctx->devices);
    if (!ctx->devices) {
      st = KERN_ERROR_OUT_OF_MEMORY;
      goto fail;
    }
  }
  for (int b = 0; b < KERN_BACKEND_COUNT; b++)
    for (int i = 0; i < counts[b]; i++)
      ctx->devices[ctx->ndevices++] = (kern__devent){(kern_backend_kind)b, i};
  /* A probe may have noted something on its way to "unavailable"; a new
   * context starts with no error. */
  clear_error(ctx);
  *out = ctx->h;
  return KERN_SUCCESS;

fail:
  context_destroy(ctx);
  return st;
}

void kern_context_free(kern_context *h) {
  kern_context *ctx = kern__ctx(h);
  if (ctx) context_destroy(ctx); /* NULL or already freed: nothing */
}

static void context_destroy(kern_context *ctx) {
  /* Groups first: they own streams, arrays and modules of the context. */
  kern__multi_free(ctx);
  /* The handle goes first, so that nothing reaches the context while it is
   * torn down; the arrays' and modules' handles go with them. */
  kern__handle_release(ctx->h, KERN__H_CONTEXT);
  /* Streams finish before the memory they work on goes; their, the
   * events' and the graphs' handles go with them. */
  kern__async_free(ctx);
  /* Modules before arrays before backends: a module's code may be unloaded
   * only while its backend state exists, and arrays are backend memory. */
  while (ctx->modules) kern__module_free(ctx->modules);
  while (ctx->arrays) kern__array_free(ctx->arrays);
  for (int b = 0; b < KERN_BACKEND_COUNT; b++)
    if (ctx->backends[b] && ctx->bstate[b]) ctx->backends[b]->release(ctx->bstate[b]);
  kern__free(ctx->devices);
  kern__free(ctx->error);
  kern__memo_free(ctx->memo);
  kern__free(ctx);
}

/* ---------------------------------------------------------------- devices */

int kern_backend_count(void) { return KERN_BACKEND_COUNT; }

static int backend_devices(const kern_context *ctx, int b) {
  int n = 0;
  for (int i = 0; i < ctx->ndevices; i++) n += ctx->devices[i].backend == (kern_backend_kind)b;
  return n;
}

kern_status kern_backend_get(kern_context *h, kern_backend_kind kind,
                             kern_backend_info *out) {
  kern_context *ctx = kern__ctx_enter(h);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_backend_get: out is NULL");
  if (kern__struct_check_out(out, KERN_BACKEND_INFO_SIZE_V1) != KERN_SUCCESS)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_backend_get: out->struct_size is %zu, not the size "
                       "of any version of kern_backend_info (set it with "
                       "KERN_BACKEND_INFO_INIT)",
                       out->struct_size);
  if ((unsigned)kind >= KERN_BACKEND_COUNT)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "no backend with kind %d (there are %d)", (int)kind,
                       KERN_BACKEND_COUNT);
  kern_backend_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  info.kind = kind;
  info.name = ctx->backends[kind]->name;
  info.device_count = backend_devices(ctx, kind);
  info.available = info.device_count > 0;
  info.reason = info.available ? "" : ctx->breason[kind];
  kern__struct_out(out, &info, sizeof info);
  return KERN_SUCCESS;
}

int kern_device_count(const kern_context *h) {
  const kern_context *ctx = kern__ctx(h);
  return ctx ? ctx->ndevices : 0;
}

const kern_backend *kern__device_backend(kern_context *ctx, kern_device dev,
                                         void **state, int *index) {
  if (!ctx || dev < 0 || dev >= ctx->ndevices) return NULL;
  kern__devent e = ctx->devices[dev];
  if (state) *state = ctx->bstate[e.backend];
  if (index) *index = e.index;
  return ctx->backends[e.backend];
}

kern_status kern_device_get(kern_context *h, kern_device dev,
                            kern_device_info *out) {
  kern_context *ctx = kern__ctx_enter(h);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_device_get: out is NULL");
  if (kern__struct_check_out(out, KERN_DEVICE_INFO_SIZE_V1) != KERN_SUCCESS)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_device_get: out->struct_size is %zu, not the size "
                       "of any version of kern_device_info (set it with "
                       "KERN_DEVICE_INFO_INIT)",
                       out->struct_size);
  kern_device_info info;
  kern_status st = kern__device_get(ctx, dev, &info);
  if (st == KERN_SUCCESS) kern__struct_out(out, &info, sizeof info);
  return st;
}

kern_status kern__device_get(kern_context *ctx, kern_device dev,
                             kern_device_info *out) {
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  if (!be)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "no device %d (the context has %d)", dev,
                       ctx->ndevices);
  kern_device_info info;
  memset(&info, 0, sizeof info);
  kern_status st = be->device_info(state, index, &info);
  if (st != KERN_SUCCESS)
    return kern__error(ctx, st, "%s:%d: cannot query the device", be->name,
                       index);
  info.struct_size = sizeof info;
  info.backend = be->kind;
  info.index = index;
  *out = info;
  return KERN_SUCCESS;
}

static kern_device first_device(const kern_context *ctx, int b, int index) {
  for (int i = 0; i < ctx->ndevices; i++)
    if (ctx->devices[i].backend == (kern_backend_kind)b &&
        ctx->devices[i].index == index)
      return i;
  return -1;
}

kern_status kern_device_find(kern_context *h, const char *name,
                             kern_device *out) {
  kern_context *ctx = kern__ctx_enter(h);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_device_find: out is NULL");
  char chosen[64];
  if (!name || !*name) {
    /* $KERN_DEVICE, else the config file, else "auto" (config.c). */
    kern_status cst = kern_device_choice(ctx->h, chosen, sizeof chosen, NULL, 0);
    if (cst != KERN_SUCCESS) return cst;
    name = chosen;
  }
  /* A device list for groups ("cuda:0,1", "cuda:all"; multi.c) names its
   * first device here, so KERN_DEVICE=cuda:0,1 leaves one-device programs
   * on cuda:0. */
  char first[64];
  size_t flen = strcspn(name, ",");
  if (name[flen] == ',' || (flen >= 4 && strcmp(name + flen - 4, ":all") == 0)) {
    if (flen >= sizeof first) flen = sizeof first - 1;
    memcpy(first, name, flen);
    first[flen] = 0;
    if (flen >= 4 && strcmp(first + flen - 4, ":all") == 0)
      strcpy(first + flen - 3, "0");
    name = first;
  }
  if (strcmp(name, "auto") == 0) {
    /* A CUDA GPU when there is one, else the CPU, which always exists.
     * OpenCL is never picked implicitly: on most machines its only device
     * is PoCL on the same CPU, slower to build for than the C backend. */
    kern_device d = first_device(ctx, KERN_BACKEND_CUDA, 0);
    if (d < 0) d = first_device(ctx, KERN_BACKEND_CPU, 0);
    if (d < 0)
      return kern__error(ctx, KERN_ERROR_BACKEND_UNAVAILABLE,
                         "device 'auto': no device is available");
    *out = d;
    return KERN_SUCCESS;
  }
  /* "<backend>" or "<backend>:<index>" */
  size_t blen = strcspn(name, ":");
  int b;
  for (b = 0; b < KERN_BACKEND_COUNT; b++) {
    const char *bn = ctx->backends[b]->name;
    if (strlen(bn) == blen && strncmp(bn, name, blen) == 0) break;
  }
  long index = 0;
  if (b < KERN_BACKEND_COUNT && name[blen] == ':') {
    const char *p = name + blen + 1;
    char *end;
    errno = 0;
    index = strtol(p, &end, 10);
    if (!*p || *end || errno || index < 0 || index > INT_MAX) b = KERN_BACKEND_COUNT;
  }
  if (b == KERN_BACKEND_COUNT)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "unknown device '%s' (expected cpu, cuda, cuda:N, "
                       "opencl, opencl:N, vulkan, vulkan:N or auto)",
                       name);
  int n = backend_devices(ctx, b);
  if (n == 0)
    return kern__error(ctx, KERN_ERROR_BACKEND_UNAVAILABLE,
                       "device '%s': backend %s is unavailable: %s", name,
                       ctx->backends[b]->name, ctx->breason[b]);
  kern_device d = first_device(ctx, b, (int)index);
  if (d < 0)
    return kern__error(ctx, KERN_ERROR_NOT_FOUND,
                       "device '%s' not found: backend %s has %d device%s "
                       "(%s:0 to %s:%d)",
                       name, ctx->backends[b]->name, n, n == 1 ? "" : "s",
                       ctx->backends[b]->name, ctx->backends[b]->name, n - 1);
  *out = d;
  return KERN_SUCCESS;
}
