/*
 * oom.c -- out-of-memory test mode (Lua's ltests.c): for N = 1, 2, 3, ...
 * fail kern's Nth allocation and run a whole job, until N passes the last
 * allocation and the job succeeds.  Every failing N must
 *   - return KERN_ERROR_OUT_OF_MEMORY from the step that hit it (a step may
 *     also absorb the failure, e.g. a cache write that is skipped, and then
 *     the job must still compute the right answer),
 *   - never crash, and never report success with a wrong result,
 *   - free everything: kern__alloc_live() (common.c) must be back where it
 *     started, and under the ASan build LeakSanitizer checks at exit too.
 *
 * Jobs: context_new + module_load_string + array new/upload + launch +
 * download + free on the CPU backend (1) with no_cache, so the compiler and
 * cc run every time; (2) with a warm cache; (3) with a cache emptied before
 * every N, so the store path runs.  Then the OpenCL backend (PoCL is
 * enough) and the CUDA backend, each skipped without a device, whose
 * host-side structures come from
 * kern's allocator too: the job with the compiler's own allocations left
 * out (it compiles with the failure paused, then builds the code through
 * kern__module_from_code), so every N lands in the context, the backend,
 * the cache and the arrays, with a warm and a cold cache.  Then
 * kern__compile alone on every
 * tests/conformance file for every target under every N.  Last, device
 * memory exhaustion: a 2^60-byte array fails with a status and the context
 * stays usable.
 *
 *   reliability_oom CONFORMANCE_DIR
 */
#include <dirent.h>
#include "test.h"
#include "common.h"
#include "compile.h"
#include "runtime.h"

/* Test hooks in src/base/common.c (deliberately not in common.h). */
long kern__alloc_live(void);
long kern__alloc_fail_pending(void);

/* Under ASan an absurd allocation aborts by default ("requested allocation
 * size exceeds maximum supported size"); a real allocator returns NULL, which
 * is what the device-exhaustion case is about.  ASAN_OPTIONS still wins. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "allocator_may_return_null=1";
}

static const char kSource[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def scale(a: wp.float32, x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = a * x[i] + 1.0\n";

#define N_ELEMS 1000

/* Runs the whole job once.  Returns the first failing status, with the step
 * name in *step; KERN_SUCCESS only when the result was checked correct. */
static kern_status job(const char *cache_dir, int no_cache, const char **step,
                       char *msg, size_t msg_size) {
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = cache_dir;
  o.num_threads = 2;
  o.no_cache = no_cache;
  kern_context *ctx = NULL;
  kern_module *m = NULL;
  kern_kernel *k = NULL;
  kern_array *x = NULL;
  kern_device dev = 0;
  float host[N_ELEMS];
  for (int i = 0; i < N_ELEMS; i++) host[i] = (float)i;
  int64_t n = N_ELEMS;
  kern_status st;
  msg[0] = 0;
#define STEP(name, call)                                                     \
  do {                                                                       \
    *step = name;                                                            \
    st = (call);                                                             \
    if (st != KERN_SUCCESS) goto out;                                        \
  } while (0)
  STEP("kern_context_new", kern_context_new(&o, &ctx));
  STEP("kern_device_find", kern_device_find(ctx, "cpu", &dev));
  STEP("kern_module_load_string",
       kern_module_load_string(ctx, dev, "oom.py", kSource, sizeof kSource - 1,
                               &m));
  STEP("kern_module_get_kernel", kern_module_get_kernel(m, "scale", &k));
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  STEP("kern_array_new", kern_array_new(ctx, dev, f32, 1, &n, &x));
  STEP("kern_array_upload", kern_array_upload(x, host, sizeof host));
  kern_arg args[2] = {kern_arg_float(2.0), kern_arg_array(x)};
  STEP("kern_launch", kern_launch(k, 1, &n, 2, args));
  STEP("kern_array_download", kern_array_download(x, host, sizeof host));
  *step = "result";
  for (int i = 0; i < N_ELEMS; i++)
    if (host[i] != 2.0f * (float)i + 1.0f) {
      fprintf(stderr, "wrong result: x[%d] = %g, want %g\n", i, host[i],
              2.0 * i + 1.0);
      exit(1);
    }
#undef STEP
out:
  if (st != KERN_SUCCESS && ctx)
    snprintf(msg, msg_size, "%s", kern_last_error(ctx));
  kern_array_free(x);
  kern_module_free(m);
  kern_context_free(ctx);
  return st;
}

static void rm_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char p[1024];
  while ((e = readdir(d)))
    if (e->d_name[0] != '.' || strncmp(e->d_name, ".tmp-", 5) == 0) {
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      unlink(p);
    }
  closedir(d);
}

/* A GPU backend's job (OpenCL or CUDA): as job(), on the backend's first
 * device, but the compiler runs with the injected failure paused (its
 * allocations are covered by compiler_loop), so the loop's N reach the
 * backend.  *none is set when the backend has no device. */
static kern_status gpu_job(kern_backend_kind kind, const char *cache_dir,
                           int no_cache, const char **step, char *msg,
                           size_t msg_size, int *none) {
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = cache_dir;
  o.num_threads = 2;
  o.no_cache = no_cache;
  kern_context *ctx = NULL;
  kern_module *m = NULL;
  kern_kernel *k = NULL;
  kern_array *x = NULL;
  kern_device dev = 0;
  float host[N_ELEMS];
  for (int i = 0; i < N_ELEMS; i++) host[i] = (float)i;
  int64_t n = N_ELEMS;
  kern_status st;
  msg[0] = 0;
#define STEP(name, call)                                                     \
  do {                                                                       \
    *step = name;                                                            \
    st = (call);                                                             \
    if (st != KERN_SUCCESS) goto out;                                        \
  } while (0)
  STEP("kern_context_new", kern_context_new(&o, &ctx));
  kern_backend_info bi = KERN_BACKEND_INFO_INIT;
  STEP("kern_backend_get", kern_backend_get(ctx, kind, &bi));
  if (!bi.available) {
    *none = 1;
    goto out;
  }
  STEP("kern_device_find", kern_device_find(ctx, bi.name, &dev));
  long left = kern__alloc_fail_pending();
  kern__alloc_fail_after(0);
  kc_options co = {0, 0, 0, 0, 0, 0, NULL, 0, 0};
  kc_result code;
  memset(&code, 0, sizeof code);
  kern_status cst = kern__compile(
      "oom.py", kSource, sizeof kSource - 1,
      kind == KERN_BACKEND_CUDA ? KERN_TARGET_CUDA : KERN_TARGET_OPENCL, &co,
      &code);
  kern__alloc_fail_after(left);
  ASSERT_EQ(cst, KERN_SUCCESS);
  /* The internal call takes the context and gives the module as objects
   * (Note [handle table]); the public calls below take their handles. */
  kern_module *mo = NULL;
  STEP("kern__module_from_code",
       kern__module_from_code(kern__ctx_enter(ctx), dev, "oom.py", &code, &mo));
  m = mo->h;
  STEP("kern_module_get_kernel", kern_module_get_kernel(m, "scale", &k));
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  STEP("kern_array_new", kern_array_new(ctx, dev, f32, 1, &n, &x));
  STEP("kern_array_upload", kern_array_upload(x, host, sizeof host));
  kern_arg args[2] = {kern_arg_float(2.0), kern_arg_array(x)};
  STEP("kern_launch", kern_launch(k, 1, &n, 2, args));
  STEP("kern_array_download", kern_array_download(x, host, sizeof host));
  *step = "result";
  for (int i = 0; i < N_ELEMS; i++)
    if (host[i] != 2.0f * (float)i + 1.0f) {
      fprintf(stderr, "%s: wrong result: x[%d] = %g, want %g\n", bi.name, i,
              host[i], 2.0 * i + 1.0);
      exit(1);
    }
#undef STEP
out:
  if (st != KERN_SUCCESS && ctx)
    snprintf(msg, msg_size, "%s", kern_last_error(ctx));
  kern_array_free(x);
  kern_module_free(m);
  kern_context_free(ctx);
  return st;
}

/* The N loop over job(), or gpu_job() when gpu is "opencl" or "cuda"
 * (returning 0 at once when that backend has no device).  cold: empty the
 * cache before every N. */
static int oom_loop_on(const char *label, const char *cache_dir, int no_cache,
                       int cold, const char *gpu) {
  long n, fails = 0, backend_fails = 0;
  for (n = 1;; n++) {
    if (cold) rm_entries(cache_dir);
    long live0 = kern__alloc_live();
    const char *step = "";
    char msg[512];
    int none = 0;
    kern__alloc_fail_after(n);
    kern_backend_kind kind =
        gpu && !strcmp(gpu, "cuda") ? KERN_BACKEND_CUDA : KERN_BACKEND_OPENCL;
    kern_status st =
        gpu ? gpu_job(kind, cache_dir, no_cache, &step, msg, sizeof msg, &none)
            : job(cache_dir, no_cache, &step, msg, sizeof msg);
    long pending = kern__alloc_fail_pending();
    kern__alloc_fail_after(0);
    long live1 = kern__alloc_live();
    if (live1 != live0) {
      fprintf(stderr,
              "%s: N=%ld: %ld block(s) leaked (%s at step %s: %s)\n", label,
              n, live1 - live0, kern_status_name(st), step, msg);
      exit(1);
    }
    if (st == KERN_SUCCESS && none) {
      kern__alloc_fail_after(0);
      printf("%s: no %s device, skipped\n", label, gpu);
      return 0;
    }
    if (st == KERN_SUCCESS) {
      if (pending) break; /* N passed the last allocation: done */
      continue;           /* the failure was absorbed; result was checked */
    }
    if (pending) {
      fprintf(stderr, "%s: N=%ld: %s failed without an injected failure: %s: %s\n",
              label, n, step, kern_status_name(st), msg);
      exit(1);
    }
    if (st != KERN_ERROR_OUT_OF_MEMORY) {
      fprintf(stderr, "%s: N=%ld: %s returned %s, not ERROR_OUT_OF_MEMORY: %s\n",
              label, n, step, kern_status_name(st), msg);
      exit(1);
    }
    fails++;
    if (getenv("KERN_OOM_VERBOSE"))
      printf("  N=%ld: %s: %s\n", n, step, msg);
    if (gpu && strstr(msg, gpu)) backend_fails++;
  }
  printf("%s: %ld allocations, each failure handled (%ld reported OOM)\n",
         label, n - 1, fails);
  /* The backend's own structures (modules, kernels) come from kern's
   * allocator, so some injected failures must surface from the backend. */
  if (gpu && backend_fails == 0) {
    fprintf(stderr, "%s: no failure reached the %s backend\n", label, gpu);
    exit(1);
  }
  return 1;
}

static void oom_loop(const char *label, const char *cache_dir, int no_cache,
                     int cold) {
  oom_loop_on(label, cache_dir, no_cache, cold, NULL);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *p = malloc(1 << 20);
  *len = p ? fread(p, 1, (1 << 20) - 1, f) : 0;
  fclose(f);
  return p;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* kern__compile on every conformance file for every target under every N. */
static void compiler_loop(const char *dirname) {
  DIR *d = opendir(dirname);
  ASSERT(d != NULL);
  char *names[1024];
  int nn = 0;
  struct dirent *e;
  while ((e = readdir(d)) && nn < 1024) {
    size_t l = strlen(e->d_name);
    if (l > 3 && !strcmp(e->d_name + l - 3, ".py") &&
        strcmp(e->d_name, "gen_expected.py"))
      names[nn++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)nn, sizeof names[0], cmp);
  ASSERT(nn >= 50);
  long total_runs = 0;
  for (int i = 0; i < nn; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dirname, names[i]);
    size_t len;
    char *src = slurp(path, &len);
    ASSERT(src != NULL);
    for (int t = 0; t < KERN_TARGET_COUNT; t++) {
      kc_options opts = {0, 0, 0, 0, 0, 0, NULL, 0, 0};
      for (long n = 1;; n++) {
        kc_result r;
        memset(&r, 0, sizeof r);
        long live0 = kern__alloc_live();
        kern__alloc_fail_after(n);
        kern_status st =
            kern__compile(names[i], src, len, (kern__target)t, &opts, &r);
        long pending = kern__alloc_fail_pending();
        kern__alloc_fail_after(0);
        /* a file of generic kernels only has them instantiated at launch */
        if (st == KERN_SUCCESS && (!r.source || r.nkernels + r.ngenerics < 1)) {
          fprintf(stderr, "%s (%s), N=%ld: success without code\n", names[i],
                  kern__target_name((kern__target)t), n);
          exit(1);
        }
        if (st != KERN_SUCCESS && st != KERN_ERROR_OUT_OF_MEMORY) {
          fprintf(stderr, "%s (%s), N=%ld: %s, not ERROR_OUT_OF_MEMORY: %s\n",
                  names[i], kern__target_name((kern__target)t), n,
                  kern_status_name(st), r.error ? r.error : "");
          exit(1);
        }
        kern__compile_result_free(&r);
        long live1 = kern__alloc_live();
        if (live1 != live0) {
          fprintf(stderr, "%s (%s), N=%ld: %ld block(s) leaked (%s)\n",
                  names[i], kern__target_name((kern__target)t), n,
                  live1 - live0, kern_status_name(st));
          exit(1);
        }
        total_runs++;
        if (st == KERN_SUCCESS && pending) break;
      }
    }
    free(src);
    free(names[i]);
  }
  printf("compiler: %d files x %d targets, %ld compilations under OOM\n", nn,
         KERN_TARGET_COUNT, total_runs);
}

/* A 2^60-byte array fails with a status naming the size, and the context
 * still runs a normal launch afterwards. */
static void device_exhaustion(void) {
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_module *m;
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_load_string(ctx, 0, "oom.py", kSource,
                                         sizeof kSource - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "scale", &k));
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  for (int d = 0; d < kern_device_count(ctx); d++) {
    int64_t huge = (int64_t)1 << 58; /* x 4 bytes = 2^60 bytes */
    kern_array *a = NULL;
    kern_status st = kern_array_new(ctx, d, f32, 1, &huge, &a);
    ASSERT_EQ(st, KERN_ERROR_OUT_OF_MEMORY);
    ASSERT(a == NULL);
    /* the size, however the backend words it (CUDA: "bytes=N") */
    ASSERT_CONTAINS(kern_last_error(ctx), "1152921504606846976");
    kern_clear_error(ctx);
  }
  int64_t n = N_ELEMS;
  kern_array *x;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, f32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_zero(x));
  kern_arg args[2] = {kern_arg_float(3.0), kern_arg_array(x)};
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 2, args));
  float host[N_ELEMS];
  ASSERT_OK(ctx, kern_array_download(x, host, sizeof host));
  for (int i = 0; i < N_ELEMS; i++) ASSERT(host[i] == 1.0f);
  kern_context_free(ctx);
  printf("device exhaustion: refused with a status, context still usable\n");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CONFORMANCE_DIR\n", argv[0]);
    return 2;
  }
  test_setup();
  const char *cache = getenv("KERN_CACHE_DIR");
  device_exhaustion();
  oom_loop("no_cache", cache, 1, 0);
  oom_loop("warm cache", cache, 0, 0); /* the first success fills it */
  oom_loop("warm cache", cache, 0, 0);
  oom_loop("cold cache", cache, 0, 1);
  static const char *const gpus[] = {"opencl", "cuda"};
  for (int g = 0; g < 2; g++) {
    char label[64];
    snprintf(label, sizeof label, "%s, warm cache", gpus[g]);
    if (!oom_loop_on(label, cache, 0, 0, gpus[g])) continue; /* fills it */
    oom_loop_on(label, cache, 0, 0, gpus[g]);
    snprintf(label, sizeof label, "%s, cold cache", gpus[g]);
    oom_loop_on(label, cache, 0, 1, gpus[g]);
    snprintf(label, sizeof label, "%s, no cache", gpus[g]);
    oom_loop_on(label, cache, 1, 0, gpus[g]);
  }
  compiler_loop(argv[1]);
  return 0;
}
