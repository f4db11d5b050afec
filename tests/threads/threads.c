/*
 * threads.c -- kern's thread-safety contract (include/kern.h), exercised
 * the way an application with a thread pool would use it.
 *
 * The test's first act is to start every thread and let them all call
 * kern_context_new at the same moment: those are the process's first
 * contexts, so backend discovery and vendor-library loading (the OpenCL ICD
 * loader and its platforms) race unless the runtime serialises them, which
 * crashed inside the OpenCL platform's first initialisation before it did.
 * Then each thread, on its own context, on the CPU, on OpenCL (when a
 * platform exists) and on CUDA (on a GPU machine):
 *   - compiles a module every thread shares (one cache entry, written by
 *     several threads at once) and one only it has (so several C compilers
 *     run at once, while other threads keep creating contexts: the OpenCL
 *     platform's initialisation must not touch the environment that
 *     posix_spawn hands the C compiler);
 *   - launches both and checks every element;
 *   - fails a load on purpose and checks that the message in its context
 *     is its own.
 * Last, one context is handed from thread to thread (used by one at a time,
 * which the header allows) and keeps working.
 *
 * Built normally it catches crashes and wrong results; built with
 * -DKERN_TSAN=ON (.ci/run) ThreadSanitizer also reports every data race.
 */
#include <pthread.h>
#include "test.h"

#define NTHREADS 4
#define N 1000

/* Under AddressSanitizer (.ci/run's build-asan), a thread of ours that
 * made the process's first context -- and so initialised PoCL -- aborts in
 * ASan's thread teardown ("unable to unmap" its alternate signal stack):
 * the vendor code run by that initialisation installs an alternate signal
 * stack of its own on the calling thread (LLVM does so when it registers
 * its crash handlers), which ASan then tries to unmap as its own.  ASan's
 * alternate stack only serves to report stack overflows, which this test
 * does not need.  Ignored outside ASan builds. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "use_sigaltstack=0"; }

static pthread_barrier_t start;
static int have_opencl = -1; /* set by main after the first wave */
static int have_cuda = -1;

static const char kShared[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def axpb(a: wp.float32, x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = a * x[i] + 1.0\n";

/* One thread's own kernel: x[i] = i * (T + 2) + T, a different source (and
 * cache key) per thread. */
static void own_source(int t, char *buf, size_t size) {
  snprintf(buf, size,
           "import warp as wp\n\n@wp.kernel\n"
           "def own%d(x: wp.array(dtype=wp.int32)):\n"
           "    i = wp.tid()\n"
           "    x[i] = i * %d + %d\n",
           t, t + 2, t);
}

static const char kBad[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def bad(x: wp.array(dtype=wp.float32)):\n"
    "    x[0] = undefined_name_%d\n";

/* Loads, launches and checks the shared and the own kernel on dev. */
static void work(kern_context *ctx, kern_device dev, int t) {
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  kern_type i32 = {KERN_KIND_SCALAR, KERN_SCALAR_INT32, 1, 1};
  int64_t n = N;

  kern_module *m;
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "shared.py", kShared,
                                         sizeof kShared - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "axpb", &k));
  static float host[NTHREADS][N];
  float *h = host[t];
  for (int i = 0; i < N; i++) h[i] = (float)i;
  kern_array *x;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_upload(x, h, N * sizeof *h));
  kern_arg args[2] = {kern_arg_float((double)(t + 1)), kern_arg_array(x)};
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 2, args));
  ASSERT_OK(ctx, kern_array_download(x, h, N * sizeof *h));
  for (int i = 0; i < N; i++)
    if (h[i] != (float)(t + 1) * (float)i + 1.0f) {
      fprintf(stderr, "thread %d, device %d: x[%d] = %g, want %g\n", t, dev,
              i, h[i], (double)((float)(t + 1) * (float)i + 1.0f));
      exit(1);
    }
  kern_array_free(x);
  kern_module_free(m);

  char src[512];
  own_source(t, src, sizeof src);
  char name[32];
  snprintf(name, sizeof name, "own%d", t);
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, name, src, strlen(src), &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, name, &k));
  kern_array *y;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, i32, 1, &n, &y));
  kern_arg arg = kern_arg_array(y);
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 1, &arg));
  static int32_t out[NTHREADS][N];
  ASSERT_OK(ctx, kern_array_download(y, out[t], sizeof out[t]));
  for (int i = 0; i < N; i++) ASSERT_EQ(out[t][i], i * (t + 2) + t);
  kern_module_free(m); /* y stays: the context frees it */

  /* An error stays in the context that made it. */
  snprintf(src, sizeof src, kBad, t);
  kern_clear_error(ctx);
  ASSERT_EQ(kern_module_load_string(ctx, dev, "bad.py", src, strlen(src), &m),
            KERN_ERROR_COMPILE);
  char want[64];
  snprintf(want, sizeof want, "undefined_name_%d", t);
  ASSERT_CONTAINS(kern_last_error(ctx), want);
  kern_clear_error(ctx);
}

static void *first_wave(void *arg) {
  int t = (int)(intptr_t)arg;
  pthread_barrier_wait(&start);
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_device cpu;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &cpu));
  work(ctx, cpu, t);
  kern_context_free(ctx);
  return NULL;
}

/* The second wave: even threads compile and launch on the CPU and OpenCL,
 * odd threads create and free contexts (probing every backend) all the
 * while, so compiler spawns overlap with backend probes. */
static void *second_wave(void *arg) {
  int t = (int)(intptr_t)arg;
  pthread_barrier_wait(&start);
  if (t % 2) {
    for (int r = 0; r < 20; r++) {
      kern_context *ctx;
      ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
      ASSERT(kern_device_count(ctx) >= 1);
      kern_backend_info bi = KERN_BACKEND_INFO_INIT;
      ASSERT_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_OPENCL, &bi));
      ASSERT_EQ(bi.available != 0, have_opencl);
      kern_context_free(ctx);
    }
    return NULL;
  }
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_device cpu, ocl;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &cpu));
  work(ctx, cpu, t);
  if (have_opencl) {
    ASSERT_OK(ctx, kern_device_find(ctx, "opencl", &ocl));
    work(ctx, ocl, t);
  }
  if (have_cuda) {
    kern_device gpu;
    ASSERT_OK(ctx, kern_device_find(ctx, "cuda", &gpu));
    work(ctx, gpu, t);
  }
  kern_context_free(ctx);
  return NULL;
}

/* Third: every thread on one GPU backend at once, so program builds,
 * buffers and queues of several contexts overlap. */
static const char *third_backend;

static void *third_wave(void *arg) {
  int t = (int)(intptr_t)arg;
  pthread_barrier_wait(&start);
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_device dev;
  ASSERT_OK(ctx, kern_device_find(ctx, third_backend, &dev));
  work(ctx, dev, t);
  kern_context_free(ctx);
  return NULL;
}

typedef struct handoff {
  kern_context *ctx;
  kern_device dev;
  int t;
} handoff;

static void *use_handed(void *arg) {
  handoff *h = arg;
  work(h->ctx, h->dev, h->t);
  return NULL;
}

static void wave(void *(*fn)(void *), const char *what) {
  pthread_t th[NTHREADS];
  ASSERT_EQ(pthread_barrier_init(&start, NULL, NTHREADS), 0);
  for (int t = 0; t < NTHREADS; t++)
    ASSERT_EQ(pthread_create(&th[t], NULL, fn, (void *)(intptr_t)t), 0);
  for (int t = 0; t < NTHREADS; t++) ASSERT_EQ(pthread_join(th[t], NULL), 0);
  pthread_barrier_destroy(&start);
  printf("%s: ok\n", what);
}

int main(void) {
  test_setup();
  /* Nothing in this process has called kern yet. */
  wave(first_wave, "first contexts created at once, CPU work");

  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_backend_info bi = KERN_BACKEND_INFO_INIT;
  ASSERT_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_OPENCL, &bi));
  have_opencl = bi.available != 0;
  if (!have_opencl) printf("no OpenCL platform (%s): OpenCL parts skipped\n", bi.reason);
  ASSERT_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_CUDA, &bi));
  have_cuda = bi.available != 0;
  if (!have_cuda) printf("no CUDA device (%s): CUDA parts skipped\n", bi.reason);

  wave(second_wave, "compiles and launches while contexts come and go");
  third_backend = "opencl";
  if (have_opencl) wave(third_wave, "OpenCL from every thread");
  third_backend = "cuda";
  if (have_cuda) wave(third_wave, "CUDA from every thread");

  /* One context, used by one thread at a time, in turn. */
  kern_device cpu;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &cpu));
  for (int t = 0; t < NTHREADS; t++) {
    handoff h = {ctx, cpu, t};
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, use_handed, &h), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
  }
  kern_context_free(ctx);
  printf("one context handed between threads: ok\n");
  return 0;
}
