/*
 * backend_test -- drives kern__backend_cuda through its table, below the
 * public API, with the hand-written ABI kernels of abi_saxpy.cu and a
 * hand-made kc_result (no compiler involved).
 *
 *   backend_test [abi_saxpy.cu]
 *
 * Without a CUDA device it checks that probe reports zero devices with a
 * clear reason, and passes.  With one it checks memory, fills, builds
 * (miss, then cache hit), launch ABI, errors, launch overhead against a
 * bare cuLaunchKernel, and last a device fault: the device must then refuse
 * work clearly, and so must a fresh state (the driver cannot recover).
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuda_check.h"
#include "kern_test.h"
#include "runtime.h"

#ifndef KERN_CUDA_TEST_DIR
#define KERN_CUDA_TEST_DIR "tests/cuda"
#endif

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) buf[n] = 0;
  return buf;
}

/* ---------------------------------------------------------- kc_result */

static kc_param P(const char *name, kern_param_kind kind, kern_scalar s,
                  int rows, int ndim) {
  kc_param p = {(char *)name, kind,
                {rows > 1 ? KERN_KIND_VECTOR : KERN_KIND_SCALAR, s, rows, 1},
                ndim, NULL, 0, NULL, 0, NULL};
  return p;
}

static kc_param saxpy_params[3], mixed_params[6], index2d_params[1],
    fault_params[1];
static kc_kernel kernels[5];

static kc_result make_code(char *source) {
  saxpy_params[0] = P("x", KERN_PARAM_ARRAY, KERN_SCALAR_FLOAT32, 1, 1);
  saxpy_params[1] = P("y", KERN_PARAM_ARRAY, KERN_SCALAR_FLOAT32, 1, 1);
  saxpy_params[2] = P("a", KERN_PARAM_VALUE, KERN_SCALAR_FLOAT32, 1, 0);
  mixed_params[0] = P("out", KERN_PARAM_ARRAY, KERN_SCALAR_FLOAT64, 1, 1);
  mixed_params[1] = P("v", KERN_PARAM_VALUE, KERN_SCALAR_FLOAT32, 3, 0);
  mixed_params[2] = P("b", KERN_PARAM_VALUE, KERN_SCALAR_BOOL, 1, 0);
  mixed_params[3] = P("d", KERN_PARAM_VALUE, KERN_SCALAR_FLOAT64, 1, 0);
  mixed_params[4] = P("c", KERN_PARAM_VALUE, KERN_SCALAR_INT8, 1, 0);
  mixed_params[5] = P("i", KERN_PARAM_VALUE, KERN_SCALAR_INT64, 1, 0);
  index2d_params[0] = P("out", KERN_PARAM_ARRAY, KERN_SCALAR_INT32, 1, 2);
  fault_params[0] = P("x", KERN_PARAM_ARRAY, KERN_SCALAR_INT32, 1, 1);
  kc_kernel k[5] = {
      {"saxpy", "abi_saxpy", 3, saxpy_params, 0, 0, 0, 0, 0, {0}, 0},
      {"mixed", "abi_mixed", 6, mixed_params, 1, 0, 0, 0, 0, {0}, 0},
      {"index2d", "abi_index2d", 1, index2d_params, 0, 0, 0, 0, 0, {0}, 0},
      {"empty", "abi_empty", 0, NULL, 0, 0, 0, 0, 0, {0}, 0},
      {"fault", "abi_fault", 1, fault_params, 0, 0, 0, 0, 0, {0}, 0},
  };
  memcpy(kernels, k, sizeof k);
  kc_result r = {source, strlen(source), 5, kernels, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0, 0};
  return r;
}

static kern__dims dims1(int64_t n) {
  kern__dims d = {{n, 1, 1, 1}, n, 0, 0, 0};
  return d;
}

/* ---------------------------------------------------------- no device */

static int test_no_device(kern_context *ctx, void *st, const char *reason) {
  const kern_backend *b = &kern__backend_cuda;
  printf("cuda: no devices: %s\n", reason);
  EXPECT_TRUE(b->device_count(st) == 0);
  EXPECT_TRUE(reason[0] != 0);
  /* The reason names what is missing or the driver's error. */
  EXPECT_TRUE(strstr(reason, "libcuda.so.1 not found") ||
             strstr(reason, "libnvrtc not found") ||
             strstr(reason, "cuInit") || strstr(reason, "CUDA_ERROR_") ||
             strstr(reason, "no CUDA devices") || strstr(reason, "lacks"));
  /* A missing GPU is not an error. */
  EXPECT_TRUE(kern_last_error(ctx)[0] == 0);
  kern_device_info info;
  EXPECT_TRUE(b->device_info(st, 0, &info) == KERN_ERROR_INVALID_ARGUMENT);
  b->release(st);
  kern_context_free(ctx);
  return kern_test_failures ? 1 : 0;
}

/* ---------------------------------------------------------- with device */

static void test_memory(kern_context *ctx, void *st) {
  const kern_backend *b = &kern__backend_cuda;
  enum { N = 1 << 20 };
  unsigned char *host = malloc(N), *back = malloc(N);
  for (int i = 0; i < N; i++) host[i] = (unsigned char)(i * 7 + 3);
  void *d = NULL;
  ASSERT_STATUS(ctx, b->mem_alloc(st, 0, N, &d), KERN_SUCCESS);
  ASSERT_STATUS(ctx, b->copy_in(st, 0, d, host, N), KERN_SUCCESS);
  ASSERT_STATUS(ctx, b->copy_out(st, 0, back, d, N), KERN_SUCCESS);
  EXPECT_TRUE(memcmp(host, back, N) == 0);

  /* Every fill path: memset D8 / D16 / D32 and the doubling copy, with
   * sizes that are not powers of two. */
  struct {
    size_t psize;
    unsigned char pat[16];
  } fills[] = {
      {1, {0xab}},
      {4, {0, 0, 0, 0}},
      {4, {7, 7, 7, 7}},                    /* int32 that is one byte repeated */
      {2, {1, 2}},                          /* int16 */
      {4, {0, 0, 0x80, 0x3f}},              /* float32 1.0 */
      {8, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f}},  /* float64 1.0 */
      {12, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, /* vec3 */
  };
  for (size_t f = 0; f < sizeof fills / sizeof *fills; f++) {
    size_t ps = fills[f].psize;
    size_t bytes = (N / ps - 5) * ps; /* odd element count */
    memset(back, 0xee, N);
    ASSERT_STATUS(ctx, b->fill(st, 0, d, fills[f].pat, ps, bytes),
                  KERN_SUCCESS);
    ASSERT_STATUS(ctx, b->copy_out(st, 0, back, d, N), KERN_SUCCESS);
    size_t bad = 0;
    for (size_t i = 0; i < bytes; i++)
      bad += back[i] != fills[f].pat[i % ps];
    if (bad) fprintf(stderr, "fill with %zu-byte pattern: %zu wrong bytes\n", ps, bad);
    EXPECT_TRUE(bad == 0);
  }
  b->mem_free(st, 0, d);

  /* Zero bytes is valid and needs no memory. */
  ASSERT_STATUS(ctx, b->mem_alloc(st, 0, 0, &d), KERN_SUCCESS);
  b->mem_free(st, 0, d);

  /* Out of memory is reported with the driver's name for it. */
  kern_clear_error(ctx);
  ASSERT_STATUS(ctx, b->mem_alloc(st, 0, (size_t)1 << 50, &d),
                KERN_ERROR_OUT_OF_MEMORY);
  ASSERT_CONTAINS(kern_last_error(ctx), "cuMemAlloc(&p, bytes) failed on cuda:0: CUDA_ERROR_OUT_OF_MEMORY");
  ASSERT_CONTAINS(kern_last_error(ctx), "bytes=1125899906842624");
  ASSERT_CONTAINS(kern_last_error(ctx), "backend_cuda.c:");
  printf("oom message: %s\n", kern_last_error(ctx));
  kern_clear_error(ctx);
  free(host);
  free(back);
}

static void *kernel(kern_context *ctx, void *st, void *mod, int i) {
  void *fn = NULL;
  ASSERT_STATUS(ctx, kern__backend_cuda.kernel_get(st, mod, &kernels[i], &fn),
                KERN_SUCCESS);
  return fn;
}

static void test_kernels(kern_context *ctx, void *st, void *mod) {
  const kern_backend *b = &kern__backend_cuda;

  /* saxpy over a size that is not a multiple of any block size */
  const int64_t n = 1000003;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int64_t i = 0; i < n; i++) x[i] = (float)i, y[i] = (float)(2 * i);
  void *dx, *dy;
  ASSERT_STATUS(ctx, b->mem_alloc(st, 0, n * sizeof *x, &dx), KERN_SUCCESS);
  ASSERT_STATUS(ctx, b->mem_alloc(st, 0, n * sizeof *y, &dy), KERN_SUCCESS);
  ASSERT_STATUS(ctx, b->copy_in(st, 0, dx, x, n * sizeof *x), KERN_SUCCESS);
  ASSERT_STATUS(ctx, b->copy_in(st, 0, dy, y, n * sizeof *y), KERN_SUCCESS);
  kern__arr ax = {dx, {n, 1, 1, 1}, 0}, ay = {dy, {n, 1, 1, 1}, 0};
  float a = 0.5f;
  void *args[] = {&ax, &ay, &a};
  kern__dims dims = dims1(n);
  void *fn = kernel(ctx, st, mod, 0);
  ASSERT_STATUS(ctx, b->launch(st, 0, fn, &kernels[0], args, &dims),
                KERN_SUCCESS);
  ASSERT_STATUS(ctx, b->copy_out(st, 0, y, dy, n * sizeof *y), KERN_SUCCESS);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) bad += y[i] != 0.5f * (float)i + (float)(2 * i);
  EXPECT_TRUE(bad == 0);

  /* A zero-size grid launches nothing and succeeds. */
  kern__dims zero = dims1(0);
  ASSERT_STATUS(ctx, b->launch(st, 0, fn, &kernels[0], args, &zero),
                KERN_SUCCESS);

  /* mixed parameter layouts */
  const int64_t m = 4099;
  double *out = malloc(m * sizeof *out);
  void *dout;
  ASSERT_STATUS(ctx, b->mem_alloc(st, 0, m * sizeof *out, &dout), KERN_SUCCESS);
  kern__arr aout = {dout, {m, 1, 1, 1}, 0};
  float v[3] = {1.5f, -2.0f, 4.0f};
  unsigned char flag = 1;
  double dd = 0.25;
  signed char c = -3;
  int64_t ii = 1000000000000LL;
  void *margs[] = {&aout, v, &flag, &dd, &c, &ii};
  kern__dims mdims = dims1(m);
  ASSERT_STATUS(ctx, b->launch(st, 0, kernel(ctx, st, mod, 1), &kernels[1],
                               margs, &mdims),
                KERN_SUCCESS);
  ASSERT_STATUS(ctx, b->copy_out(st, 0, out, dout, m * sizeof *out),
                KERN_SUCCESS);
  bad = 0;
  for (int64_t t = 0; t < m; t++) {
    double want = (double)t * dd + 1.5 + 2.0 * -2.0 + 3.0 * 4.0 + 1.0 - 3.0 +
                  1e12 + (double)m;
    bad += out[t] != want;
  }
  EXPECT_TRUE(bad == 0);

  /* 2-D grid: linear index maps row-major onto dims[0..1] */
  const int64_t r = 37, cols = 1029;
  int *grid = malloc(r * cols * sizeof *grid);
  void *dgrid;
  ASSERT_STATUS(ctx, b->mem_alloc(st, 0, r * cols * sizeof *grid, &dgrid),
                KERN_SUCCESS);
  kern__arr agrid = {dgrid, {r, cols, 1, 1}, 0};
  void *gargs[] = {&agrid};
  kern__dims gdims = {{r, cols, 1, 1}, r * cols, 0, 0, 0};
  ASSERT_STATUS(ctx, b->launch(st, 0, kernel(ctx, st, mod, 2), &kernels[2],
                               gargs, &gdims),
                KERN_SUCCESS);
  ASSERT_STATUS(ctx, b->copy_out(st, 0, grid, dgrid, r * cols * sizeof *grid),
                KERN_SUCCESS);
  bad = 0;
  for (int64_t i = 0; i < r; i++)
    for (int64_t j = 0; j < cols; j++)
      bad += grid[i * cols + j] != (int)(1000 * i + j);
  EXPECT_TRUE(bad == 0);
  ASSERT_STATUS(ctx, b->synchronize(st, 0), KERN_SUCCESS);

  /* A symbol the module lacks is KERN_ERROR_NOT_FOUND, naming it. */
  kc_kernel missing = {"nope", "abi_nope", 0, NULL, 0, 0, 0, 0, 0, {0}, 0};
  void *nofn = NULL;
  kern_clear_error(ctx);
  ASSERT_STATUS(ctx, b->kernel_get(st, mod, &missing, &nofn),
                KERN_ERROR_NOT_FOUND);
  ASSERT_CONTAINS(kern_last_error(ctx), "abi_nope");
  kern_clear_error(ctx);

  b->mem_free(st, 0, dx);
  b->mem_free(st, 0, dy);
  b->mem_free(st, 0, dout);
  b->mem_free(st, 0, dgrid);
  free(x);
  free(y);
  free(out);
  free(grid);
}

/* Launch overhead: kern's launch path against a bare cuLaunchKernel of the
 * same function with the same grid, both followed by a stream synchronize,
 * in the same run.  Printed, and bounded loosely (shared machines). */
typedef int (*launch_fn)(void *f, unsigned, unsigned, unsigned, unsigned,
                         unsigned, unsigned, unsigned, void *, void **,
                         void **);
typedef int (*sync_fn)(void *stream);

static void test_overhead(kern_context *ctx, void *st, void *mod) {
  const kern_backend *b = &kern__backend_cuda;
  void *fn = kernel(ctx, st, mod, 3);
  kern__dims dims = dims1(1);
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_TRUE(lib);
  launch_fn launch = (launch_fn)dlsym(lib, "cuLaunchKernel");
  sync_fn sync = (sync_fn)dlsym(lib, "cuStreamSynchronize");
  ASSERT_TRUE(launch && sync);
  void *cf = kern__cuda_function_handle(fn);
  void *params[] = {&dims};
  enum { REPS = 20000 };
  double best_kern = 1e9, best_bare = 1e9;
  for (int round = 0; round < 5; round++) {
    double t0 = now_s();
    for (int i = 0; i < REPS; i++)
      if (b->launch(st, 0, fn, &kernels[3], NULL, &dims)) break;
    double t1 = now_s();
    for (int i = 0; i < REPS; i++) {
      launch(cf, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
      sync(NULL);
    }
    double t2 = now_s();
    if ((t1 - t0) / REPS < best_kern) best_kern = (t1 - t0) / REPS;
    if ((t2 - t1) / REPS < best_bare) best_bare = (t2 - t1) / REPS;
  }
  printf("launch + synchronize, empty kernel, best of 5 x %d: kern %.2f us, "
         "bare cuLaunchKernel %.2f us, overhead %+.2f us\n",
         REPS, best_kern * 1e6, best_bare * 1e6,
         (best_kern - best_bare) * 1e6);
  EXPECT_TRUE(best_kern < best_bare + 5e-6);
  dlclose(lib);
}

static void test_build_errors(kern_context *ctx, void *st) {
  const kern_backend *b = &kern__backend_cuda;
  char bad[] = "extern \"C\" __global__ void k(int *p) { p[0] = no_such; }\n";
  kc_result code = {bad, strlen(bad), 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0, 0};
  void *mod = NULL;
  kern_clear_error(ctx);
  ASSERT_STATUS(ctx, b->module_build(st, 0, &code, &mod), KERN_ERROR_COMPILE);
  ASSERT_CONTAINS(kern_last_error(ctx), "no_such");
  ASSERT_CONTAINS(kern_last_error(ctx), "is undefined");
  kern_clear_error(ctx);
}

/* Last: a fault poisons the context.  The device must refuse work with a
 * clear message, and after release a fresh state must work again. */
static void test_fault(kern_context *ctx, void *st, void *mod, char *source) {
  const kern_backend *b = &kern__backend_cuda;
  kern__arr bogus = {(void *)(uintptr_t)0x10, {1, 1, 1, 1}, 0};
  void *args[] = {&bogus};
  kern__dims dims = dims1(1);
  void *fn = kernel(ctx, st, mod, 4);
  kern_clear_error(ctx);
  ASSERT_STATUS(ctx, b->launch(st, 0, fn, &kernels[4], args, &dims),
                KERN_ERROR_DEVICE);
  printf("fault message: %s\n", kern_last_error(ctx));
  ASSERT_CONTAINS(kern_last_error(ctx), "CUDA_ERROR_");
  ASSERT_CONTAINS(kern_last_error(ctx), "unusable and must be recreated");
  kern_clear_error(ctx);
  void *p = NULL;
  ASSERT_STATUS(ctx, b->mem_alloc(st, 0, 64, &p), KERN_ERROR_DEVICE);
  ASSERT_CONTAINS(kern_last_error(ctx), "earlier device fault");
  kern_clear_error(ctx);
  ASSERT_STATUS(ctx, b->synchronize(st, 0), KERN_ERROR_DEVICE);
  kern_clear_error(ctx);
  b->module_free(st, mod);
  b->release(st);

  /* A new state on the same device.  The driver refuses to recreate the
   * context within this process (Note [sticky errors] in backend_cuda.c),
   * so either it works or it fails clearly; it must not crash. */
  char reason[256];
  void *st2 = NULL;
  ASSERT_STATUS(ctx, b->probe(kern__ctx(ctx), &st2, reason, sizeof reason), KERN_SUCCESS);
  ASSERT_TRUE(b->device_count(st2) > 0);
  kc_result code = make_code(source);
  void *mod2 = NULL;
  kern_status s2 = b->module_build(st2, 0, &code, &mod2);
  if (s2 == KERN_SUCCESS) {
    printf("after fault: a fresh state works again\n");
    b->module_free(st2, mod2);
  } else {
    EXPECT_TRUE(s2 == KERN_ERROR_DEVICE);
    ASSERT_CONTAINS(kern_last_error(ctx), "unusable");
    printf("after fault: a fresh state is refused: %s\n", kern_last_error(ctx));
    kern_clear_error(ctx);
    ASSERT_STATUS(ctx, b->mem_alloc(st2, 0, 64, &p), KERN_ERROR_DEVICE);
    ASSERT_CONTAINS(kern_last_error(ctx), "earlier device fault");
    kern_clear_error(ctx);
  }
  b->release(st2);
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : KERN_CUDA_TEST_DIR "/abi_saxpy.cu";
  const kern_backend *b = &kern__backend_cuda;
  ASSERT_TRUE(b->version >= 1);
  ASSERT_TRUE(strcmp(b->name, "cuda") == 0);
  ASSERT_TRUE(b->kind == KERN_BACKEND_CUDA);
  ASSERT_TRUE(b->target == KERN_TARGET_CUDA);

  /* A private cache directory, so the first build is a miss. */
  char cache[] = "/tmp/kern-cuda-test-XXXXXX";
  ASSERT_TRUE(mkdtemp(cache));
  kern_options opts = KERN_OPTIONS_INIT;
  opts.cache_dir = cache;
  kern_context *ctx = NULL;
  ASSERT_TRUE(kern_context_new(&opts, &ctx) == KERN_SUCCESS);
  kern_clear_error(ctx);

  void *st = NULL;
  char reason[256] = "unset";
  ASSERT_STATUS(ctx, b->probe(kern__ctx(ctx), &st, reason, sizeof reason), KERN_SUCCESS);
  ASSERT_TRUE(st != NULL);
  if (b->device_count(st) == 0) return test_no_device(ctx, st, reason);

  kern_device_info info;
  ASSERT_STATUS(ctx, b->device_info(st, 0, &info), KERN_SUCCESS);
  printf("cuda:0: %s; %s\n", info.name, info.description);
  EXPECT_TRUE(info.compute_units > 0 && info.memory_bytes > 0);
  EXPECT_TRUE(strncmp(info.description, "sm_", 3) == 0);
  /* Properties as fields (cuDeviceGetAttribute, cuDeviceGetUuid,
   * cuDriverGetVersion); they agree with the description's text. */
  char sm[16];
  snprintf(sm, sizeof sm, "sm_%d%d", info.capability_major,
           info.capability_minor);
  EXPECT_TRUE(info.capability_major >= 3 &&
             strncmp(info.description, sm, strlen(sm)) == 0);
  EXPECT_TRUE(info.warp_size == 32);
  EXPECT_TRUE(info.max_group_size >= 512);
  EXPECT_TRUE(info.fp64 && info.int64_atomics);
  EXPECT_TRUE(info.driver_version[0] && strstr(info.description,
                                               info.driver_version));
  EXPECT_TRUE(strlen(info.pci_bus_id) == 12 && info.pci_bus_id[4] == ':');
  int uuid_set = 0;
  for (int i = 0; i < 16; i++) uuid_set |= info.uuid[i];
  EXPECT_TRUE(uuid_set);
  printf("cuda:0: capability %d.%d, warp %d, max block %d, driver %s, pci %s\n",
         info.capability_major, info.capability_minor, info.warp_size,
         info.max_group_size, info.driver_version, info.pci_bus_id);

  char *source = read_file(path);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", path);
    return 1;
  }
  test_memory(ctx, st);
  test_build_errors(ctx, st);

  kc_result code = make_code(source);
  void *mod = NULL;
  double t0 = now_s();
  ASSERT_STATUS(ctx, b->module_build(st, 0, &code, &mod), KERN_SUCCESS);
  double t1 = now_s();
  void *mod_hit = NULL;
  ASSERT_STATUS(ctx, b->module_build(st, 0, &code, &mod_hit), KERN_SUCCESS);
  double t2 = now_s();
  printf("module_build: first %.2f ms, second (cache) %.3f ms\n",
         (t1 - t0) * 1e3, (t2 - t1) * 1e3);
  b->module_free(st, mod_hit);

  test_kernels(ctx, st, mod);
  test_overhead(ctx, st, mod);
  EXPECT_TRUE(kern_last_error(ctx)[0] == 0);
  test_fault(ctx, st, mod, source);

  free(source);
  kern_context_free(ctx);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", cache);
  if (kern_test_failures) fprintf(stderr, "%d check(s) failed\n", kern_test_failures);
  else printf("backend_test: all passed\n");
  return kern_test_failures ? 1 : 0;
}
