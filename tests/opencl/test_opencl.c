/*
 * test_opencl.c -- unit tests of the OpenCL backend, driven through its
 * table (kern__backend_opencl) with hand-written OpenCL C that follows the
 * ABI in compile.h, so the backend is tested without the compiler.
 *
 * Needs an OpenCL platform (PoCL is enough).  Without one the program says
 * so and exits 77, which CTest reports as skipped.  It runs with
 * POCL_KERNEL_CACHE=0 (unless set already) and a fresh kern cache directory,
 * so "cold" really compiles and the second build really comes from kern's
 * cache.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kern_test.h"
#include "runtime.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- kernels
 * The loop heads below are the two shapes of Note [launch shape] in
 * backend_opencl.c: a contiguous chunk per work item when dims.chunk > 0,
 * a grid-stride loop otherwise. */

/* The argument structs exactly as the backend passes them (a shape with the
 * shard offset, the dims with the first index): PoCL takes any size, but
 * NVIDIA's OpenCL checks each argument's size against the kernel's. */
#define PRELUDE                                                               \
  "typedef struct { long d[4]; long off; } kern__shape;\n"                    \
  "typedef struct { long dim[4]; long total; long chunk; long begin; } "       \
  "kern__dims;\n"                                                             \
  "typedef struct { float c[3]; } vec3f;\n"

#define LOOP(body)                                                            \
  "  long g = get_global_id(0);\n"                                            \
  "  if (dims.chunk > 0) {\n"                                                 \
  "    long end = min((g + 1) * dims.chunk, dims.total);\n"                   \
  "    for (long t = g * dims.chunk; t < end; t++) { " body " }\n"            \
  "  } else {\n"                                                              \
  "    long step = get_global_size(0);\n"                                     \
  "    for (long t = g; t < dims.total; t += step) { " body " }\n"            \
  "  }\n"

static const char saxpy_src[] =
    PRELUDE
    "__kernel void k_saxpy(__global const float *x, kern__shape xs,\n"
    "                      __global float *y, kern__shape ys, float a,\n"
    "                      kern__dims dims) {\n"
    LOOP("y[t] = a * x[t] + y[t];")
    "}\n"
    /* A struct value parameter: 12 bytes, laid out as three floats. */
    "__kernel void k_scale3(__global float *out, kern__shape os, vec3f v,\n"
    "                       kern__dims dims) {\n"
    LOOP("for (int c = 0; c < 3; c++) out[3 * t + c] = v.c[c] * (float)t;")
    "}\n";

/* Work-group tree reduction, then one float64 atomic add per group as a
 * compare-and-swap loop on the bits (cl_khr_int64_base_atomics). */
static const char sumsq_src[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    PRELUDE
    "void atomic_add_f64(__global double *p, double v) {\n"
    "  volatile __global long *q = (volatile __global long *)p;\n"
    "  long old = *q, assumed;\n"
    "  do {\n"
    "    assumed = old;\n"
    "    old = atom_cmpxchg(q, assumed, as_long(as_double(assumed) + v));\n"
    "  } while (old != assumed);\n"
    "}\n"
    "__kernel void k_sumsq(__global const double *x, kern__shape xs,\n"
    "                      __global double *out, kern__shape os,\n"
    "                      kern__dims dims) {\n"
    "  __local double part[256];\n"
    "  double acc = 0.0;\n"
    LOOP("acc += x[t] * x[t];")
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  part[lid] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = 1; s < n; s <<= 1) {\n"
    "    if ((lid & (2 * s - 1)) == 0 && lid + s < n)\n"
    "      part[lid] += part[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) atomic_add_f64(out, part[0]);\n"
    "}\n";

static const char broken_src[] =
    PRELUDE
    "__kernel void k_broken(__global float *x, kern__shape xs,\n"
    "                       kern__dims dims) {\n"
    "  x[0] = undefined_function_xyz(1.0f);\n"
    "}\n";

static const kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
static const kern_type f64 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT64, 1, 1};
static const kern_type vec3 = {KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 3, 1};

static kc_param saxpy_params[] = {
    {"x", KERN_PARAM_ARRAY, f32, 1, NULL, 0, NULL, 0, NULL},
    {"y", KERN_PARAM_ARRAY, f32, 1, NULL, 0, NULL, 0, NULL},
    {"a", KERN_PARAM_VALUE, f32, 0, NULL, 0, NULL, 0, NULL},
};
static kc_param scale3_params[] = {
    {"out", KERN_PARAM_ARRAY, vec3, 1, NULL, 0, NULL, 0, NULL},
    {"v", KERN_PARAM_VALUE, vec3, 0, NULL, 0, NULL, 0, NULL},
};
static kc_param sumsq_params[] = {
    {"x", KERN_PARAM_ARRAY, f64, 1, NULL, 0, NULL, 0, NULL},
    {"out", KERN_PARAM_ARRAY, f64, 1, NULL, 0, NULL, 0, NULL},
};
static kc_param broken_params[] = {{"x", KERN_PARAM_ARRAY, f32, 1, NULL, 0, NULL, 0, NULL}};

static kc_kernel saxpy_kernels[] = {
    {"saxpy", "k_saxpy", 3, saxpy_params, 0, 0, 0, 0, 0, {0}, 0},
    {"scale3", "k_scale3", 2, scale3_params, 0, 0, 0, 0, 0, {0}, 0},
};
static kc_kernel sumsq_kernels[] = {{"sumsq", "k_sumsq", 2, sumsq_params, 1, 1, 0, 0, 0, {0}, 0}};
static kc_kernel broken_kernels[] = {
    {"broken", "k_broken", 1, broken_params, 0, 0, 0, 0, 0, {0}, 0}};

/* A kc_result as the compiler would hand it over.  The source is copied so
 * that a nonce can make it unique to this run (no cache, kern's or PoCL's,
 * can already hold it). */
static kc_result make_code(const char *src, int nk, kc_kernel *ks,
                           const char *nonce) {
  kc_result r = {0};
  size_t n = strlen(src) + strlen(nonce) + 32;
  r.source = malloc(n);
  snprintf(r.source, n, "// run %s\n%s", nonce, src);
  r.source_len = strlen(r.source);
  r.nkernels = nk;
  r.kernels = ks;
  return r;
}

static kern__dims dims1(int64_t n) {
  kern__dims d = {{n, 1, 1, 1}, n, 0, 0, 0};
  return d;
}

static kern__arr arr1(void *mem, int64_t n) {
  kern__arr a = {mem, {n, 1, 1, 1}, 0};
  return a;
}

/* ---------------------------------------------------------------- tests */

typedef struct fixture {
  kern_context *ctx;
  const kern_backend *be;
  void *st;
  int dev;
  char nonce[64];
  char cache_dir[256];
} fixture;

static void test_device_info(fixture *f) {
  kern_device_info info;
  EXPECT_STATUS(f->ctx, f->be->device_info(f->st, f->dev, &info),
                KERN_SUCCESS);
  EXPECT_TRUE(info.name[0] != '\0');
  EXPECT_TRUE(info.compute_units > 0);
  EXPECT_TRUE(info.memory_bytes > 0);
  /* Properties as fields: they agree with the description's text. */
  EXPECT_TRUE(info.capability_major >= 1);
  char ver[32];
  snprintf(ver, sizeof ver, "OpenCL %d.%d", info.capability_major,
           info.capability_minor);
  EXPECT_CONTAINS(info.description, ver);
  EXPECT_CONTAINS(info.description, info.fp64 ? "fp64 yes" : "fp64 no");
  EXPECT_CONTAINS(info.description,
                  info.int64_atomics ? "int64 atomics yes" : "int64 atomics no");
  EXPECT_TRUE(info.max_group_size >= 1);
  EXPECT_TRUE(info.driver_version[0]);
  EXPECT_CONTAINS(info.description, info.driver_version);
  EXPECT_TRUE(info.warp_size >= 0);
  printf("  capability %d.%d, max group %d, warp %d, driver %s, pci '%s'\n",
         info.capability_major, info.capability_minor, info.max_group_size,
         info.warp_size, info.driver_version, info.pci_bus_id);
  EXPECT_EQ(info.backend, KERN_BACKEND_OPENCL);
  EXPECT_CONTAINS(info.description, "platform ");
  EXPECT_CONTAINS(info.description, "compute units");
  EXPECT_CONTAINS(info.description, "fp64 ");
  EXPECT_CONTAINS(info.description, "int64 atomics ");
  printf("device opencl:%d: %s\n  %s\n", f->dev, info.name, info.description);
  EXPECT_STATUS(f->ctx, f->be->device_info(f->st, 999, &info),
                KERN_ERROR_INVALID_ARGUMENT);
}

static void test_memory(fixture *f) {
  enum { N = 100003 };
  float *h = malloc(N * sizeof *h), *back = malloc(N * 36);
  void *m = NULL;
  for (int i = 0; i < N; i++) h[i] = (float)i * 0.5f;
  EXPECT_STATUS(f->ctx, f->be->mem_alloc(f->st, f->dev, N * 36, &m),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx,
                f->be->copy_in(f->st, f->dev, m, h, N * sizeof *h),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx,
                f->be->copy_out(f->st, f->dev, back, m, N * sizeof *h),
                KERN_SUCCESS);
  EXPECT_TRUE(memcmp(h, back, N * sizeof *h) == 0);

  /* 4 bytes: clEnqueueFillBuffer. */
  float one = 1.5f;
  EXPECT_STATUS(f->ctx,
                f->be->fill(f->st, f->dev, m, &one, sizeof one, N * 4),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->copy_out(f->st, f->dev, back, m, N * 4),
                KERN_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != 1.5f;
  EXPECT_EQ(bad, 0);

  /* 36 bytes (a mat33): not a size clEnqueueFillBuffer takes, and 3.6 MB
   * so the host-side fill writes several blocks. */
  float mat[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_STATUS(f->ctx,
                f->be->fill(f->st, f->dev, m, mat, sizeof mat, N * 36),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->copy_out(f->st, f->dev, back, m, N * 36),
                KERN_SUCCESS);
  bad = 0;
  for (int i = 0; i < N * 9; i++) bad += back[i] != mat[i % 9];
  EXPECT_EQ(bad, 0);

  /* 12 zero bytes (a vec3 zero) repeat with period 1. */
  float zero3[3] = {0, 0, 0};
  EXPECT_STATUS(f->ctx,
                f->be->fill(f->st, f->dev, m, zero3, sizeof zero3, N * 12),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->copy_out(f->st, f->dev, back, m, N * 36),
                KERN_SUCCESS);
  bad = 0;
  for (int i = 0; i < N * 9; i++) bad += back[i] != (i < N * 3 ? 0 : mat[i % 9]);
  EXPECT_EQ(bad, 0);
  f->be->mem_free(f->st, f->dev, m);

  /* Zero bytes is a valid (empty) array. */
  EXPECT_STATUS(f->ctx, f->be->mem_alloc(f->st, f->dev, 0, &m), KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->copy_in(f->st, f->dev, m, h, 0), KERN_SUCCESS);
  f->be->mem_free(f->st, f->dev, m);

  /* More than the device allows: a clear out-of-memory message. */
  EXPECT_STATUS(f->ctx,
                f->be->mem_alloc(f->st, f->dev, (size_t)1 << 62, &m),
                KERN_ERROR_OUT_OF_MEMORY);
  EXPECT_CONTAINS(kern_last_error(f->ctx), "exceed the largest buffer");
  kern_clear_error(f->ctx);
  free(h);
  free(back);
}

/* Whether some file under dir ends with ext. */
static int tree_has(const char *dir, const char *ext) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *e;
  int found = 0;
  while (!found && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (stat(p, &sb) != 0) continue;
    if (S_ISDIR(sb.st_mode)) {
      found = tree_has(p, ext);
    } else {
      size_t n = strlen(e->d_name), m = strlen(ext);
      found = n >= m && strcmp(e->d_name + n - m, ext) == 0;
    }
  }
  closedir(d);
  return found;
}

static void run_saxpy(fixture *f, void *module, int64_t n) {
  void *fn = NULL;
  EXPECT_STATUS(f->ctx, f->be->kernel_get(f->st, module, &saxpy_kernels[0], &fn),
                KERN_SUCCESS);
  if (!fn) return;
  size_t bytes = (size_t)(n ? n : 1) * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
  for (int64_t i = 0; i < n; i++) {
    x[i] = (float)(i % 1000) * 0.25f;
    y[i] = (float)(i % 7) - 3.0f;
  }
  void *dx = NULL, *dy = NULL;
  EXPECT_STATUS(f->ctx, f->be->mem_alloc(f->st, f->dev, bytes, &dx),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->mem_alloc(f->st, f->dev, bytes, &dy),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->copy_in(f->st, f->dev, dx, x, bytes),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->copy_in(f->st, f->dev, dy, y, bytes),
                KERN_SUCCESS);
  kern__arr ax = arr1(dx, n), ay = arr1(dy, n);
  float a = 2.0f;
  void *args[] = {&ax, &ay, &a};
  kern__dims d = dims1(n);
  EXPECT_STATUS(f->ctx,
                f->be->launch(f->st, f->dev, fn, &saxpy_kernels[0], args, &d),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->copy_out(f->st, f->dev, out, dy, bytes),
                KERN_SUCCESS);
  /* Every element exactly once: a missed or repeated index is off by a
   * whole a*x, far beyond rounding. */
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    float want = a * x[i] + y[i];
    if (fabsf(out[i] - want) > 1e-5f * (1.0f + fabsf(want))) bad++;
  }
  if (bad) fprintf(stderr, "saxpy n=%lld: %lld wrong\n", (long long)n, (long long)bad);
  EXPECT_EQ(bad, 0);
  f->be->mem_free(f->st, f->dev, dx);
  f->be->mem_free(f->st, f->dev, dy);
  free(x);
  free(y);
  free(out);
}

static void test_saxpy_and_cache(fixture *f) {
  kc_result code = make_code(saxpy_src, 2, saxpy_kernels, f->nonce);
  void *mod = NULL, *mod2 = NULL;
  double t0 = now_ms();
  EXPECT_STATUS(f->ctx, f->be->module_build(f->st, f->dev, &code, &mod),
                KERN_SUCCESS);
  double cold = now_ms() - t0;
  if (!mod) {
    free(code.source);
    return;
  }
  EXPECT_TRUE(tree_has(f->cache_dir, ".clbin"));

  /* Sizes around the chunking edges: one item, fewer items than work
   * items, a prime, and a few million. */
  const int64_t sizes[] = {1, 5, 63, 1000003, 4000000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    run_saxpy(f, mod, sizes[i]);

  /* An empty grid launches nothing and succeeds. */
  void *fn = NULL;
  EXPECT_STATUS(f->ctx, f->be->kernel_get(f->st, mod, &saxpy_kernels[0], &fn),
                KERN_SUCCESS);
  void *fn_again = NULL;
  EXPECT_STATUS(f->ctx,
                f->be->kernel_get(f->st, mod, &saxpy_kernels[0], &fn_again),
                KERN_SUCCESS);
  EXPECT_TRUE(fn == fn_again); /* created once per module */

  /* A struct value parameter (vec3). */
  enum { M = 1001 };
  void *dout = NULL;
  float *out = malloc(M * 12);
  EXPECT_STATUS(f->ctx, f->be->mem_alloc(f->st, f->dev, M * 12, &dout),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->kernel_get(f->st, mod, &saxpy_kernels[1], &fn),
                KERN_SUCCESS);
  kern__arr aout = arr1(dout, M);
  float v[3] = {1.0f, -2.0f, 0.5f};
  void *args[] = {&aout, v};
  kern__dims d = dims1(M);
  EXPECT_STATUS(f->ctx,
                f->be->launch(f->st, f->dev, fn, &saxpy_kernels[1], args, &d),
                KERN_SUCCESS);
  EXPECT_STATUS(f->ctx, f->be->copy_out(f->st, f->dev, out, dout, M * 12),
                KERN_SUCCESS);
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int c = 0; c < 3; c++) bad += out[3 * i + c] != v[c] * (float)i;
  EXPECT_EQ(bad, 0);
  kern__dims empty = dims1(0);
  EXPECT_STATUS(f->ctx,
                f->be->launch(f->st, f->dev, fn, &saxpy_kernels[1], args,
                              &empty),
                KERN_SUCCESS);
  f->be->mem_free(f->st, f->dev, dout);
  free(out);

  /* The second build of the same source comes from the cache. */
  t0 = now_ms();
  EXPECT_STATUS(f->ctx, f->be->module_build(f->st, f->dev, &code, &mod2),
                KERN_SUCCESS);
  double warm = now_ms() - t0;
  void *fn2 = NULL;
  t0 = now_ms();
  if (mod2) {
    EXPECT_STATUS(f->ctx,
                  f->be->kernel_get(f->st, mod2, &saxpy_kernels[0], &fn2),
                  KERN_SUCCESS);
    run_saxpy(f, mod2, 12345);
  }
  double first_launch = now_ms() - t0;
  printf("program build: cold %.1f ms, from cached binary %.1f ms "
         "(then kernel_get + first launch %.1f ms)\n",
         cold, warm, first_launch);
  EXPECT_TRUE(warm < cold);

  /* A kernel the program lacks: NOT_FOUND, through the checking macro. */
  kc_kernel missing = {"nope", "k_nope", 0, NULL, 0, 0, 0, 0, 0, {0}, 0};
  EXPECT_STATUS(f->ctx, f->be->kernel_get(f->st, mod, &missing, &fn),
                KERN_ERROR_NOT_FOUND);
  EXPECT_CONTAINS(kern_last_error(f->ctx),
                  "opencl: clCreateKernel failed: CL_INVALID_KERNEL_NAME "
                  "(backend_opencl.c:");
  kern_clear_error(f->ctx);

  f->be->module_free(f->st, mod);
  f->be->module_free(f->st, mod2);
  free(code.source);
}

static void test_sumsq(fixture *f, int fp64) {
  kc_result code = make_code(sumsq_src, 1, sumsq_kernels, f->nonce);
  void *mod = NULL;
  double t0 = now_ms();
  kern_status s = f->be->module_build(f->st, f->dev, &code, &mod);
  double cold = now_ms() - t0;
  if (!fp64) {
    /* A device without cl_khr_fp64 refuses it by name. */
    EXPECT_EQ(s, KERN_ERROR_UNSUPPORTED);
    EXPECT_CONTAINS(kern_last_error(f->ctx), "kernel 'sumsq' uses float64");
    kern_clear_error(f->ctx);
    free(code.source);
    return;
  }
  EXPECT_STATUS(f->ctx, s, KERN_SUCCESS);
  printf("program build: cold %.1f ms (second program in the process)\n",
         cold);
  void *fn = NULL;
  if (mod)
    EXPECT_STATUS(f->ctx, f->be->kernel_get(f->st, mod, &sumsq_kernels[0], &fn),
                  KERN_SUCCESS);
  if (!fn) {
    free(code.source);
    return;
  }
  const int64_t sizes[] = {1, 7, 1000, 3000017};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    int64_t n = sizes[i];
    double *x = malloc((size_t)n * sizeof *x);
    double want = 0.0;
    srand(42);
    for (int64_t j = 0; j < n; j++) {
      x[j] = (double)rand() / RAND_MAX - 0.5;
      want += x[j] * x[j];
    }
    void *dx = NULL, *dout = NULL;
    double zero = 0.0, got = -1.0;
    EXPECT_STATUS(f->ctx,
                  f->be->mem_alloc(f->st, f->dev, (size_t)n * 8, &dx),
                  KERN_SUCCESS);
    EXPECT_STATUS(f->ctx, f->be->mem_alloc(f->st, f->dev, 8, &dout),
                  KERN_SUCCESS);
    EXPECT_STATUS(f->ctx,
                  f->be->copy_in(f->st, f->dev, dx, x, (size_t)n * 8),
                  KERN_SUCCESS);
    EXPECT_STATUS(f->ctx, f->be->fill(f->st, f->dev, dout, &zero, 8, 8),
                  KERN_SUCCESS);
    kern__arr ax = arr1(dx, n), aout = arr1(dout, 1);
    void *args[] = {&ax, &aout};
    kern__dims d = dims1(n);
    EXPECT_STATUS(f->ctx,
                  f->be->launch(f->st, f->dev, fn, &sumsq_kernels[0], args,
                                &d),
                  KERN_SUCCESS);
    EXPECT_STATUS(f->ctx, f->be->synchronize(f->st, f->dev), KERN_SUCCESS);
    EXPECT_STATUS(f->ctx, f->be->copy_out(f->st, f->dev, &got, dout, 8),
                  KERN_SUCCESS);
    /* Summation order differs; 1e-12 relative is far above its rounding
     * and far below a missed or repeated element. */
    if (!(fabs(got - want) <= 1e-12 * want + 1e-300)) {
      fprintf(stderr, "sumsq n=%lld: got %.17g, want %.17g\n", (long long)n,
              got, want);
      kern_test_failures++;
    }
    f->be->mem_free(f->st, f->dev, dx);
    f->be->mem_free(f->st, f->dev, dout);
    free(x);
  }
  f->be->module_free(f->st, mod);
  free(code.source);
}

static void test_build_error(fixture *f) {
  kc_result code = make_code(broken_src, 1, broken_kernels, f->nonce);
  void *mod = NULL;
  EXPECT_STATUS(f->ctx, f->be->module_build(f->st, f->dev, &code, &mod),
                KERN_ERROR_COMPILE);
  EXPECT_TRUE(mod == NULL);
  const char *msg = kern_last_error(f->ctx);
  EXPECT_CONTAINS(msg, "opencl: clBuildProgram failed: "
                       "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_CONTAINS(msg, "build log:");
  /* The log itself, which names the offending identifier. */
  EXPECT_CONTAINS(msg, "undefined_function_xyz");
  kern_clear_error(f->ctx);
  free(code.source);
}

int main(void) {
  /* PoCL keeps its own compiled-kernel cache; switch it off so "cold"
   * below measures a real compile (an explicit setting is respected). */
  setenv("POCL_KERNEL_CACHE", "0", 0);

  fixture f = {0};
  snprintf(f.cache_dir, sizeof f.cache_dir, "%s/kern-opencl-test-XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(f.cache_dir)) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(f.nonce, sizeof f.nonce, "%ld-%ld", (long)getpid(),
           (long)time(NULL));
  kern_options opts = KERN_OPTIONS_INIT;
  opts.cache_dir = f.cache_dir;
  kern_status s = kern_context_new(&opts, &f.ctx);
  if (s != KERN_SUCCESS) {
    fprintf(stderr, "kern_context_new: %s\n", kern_status_name(s));
    return 1;
  }
  /* The backend under test gets its own state, exactly as the context
   * probes it. */
  f.be = &kern__backend_opencl;
  char reason[256] = "";
  EXPECT_STATUS(f.ctx, f.be->probe(kern__ctx(f.ctx), &f.st, reason, sizeof reason),
                KERN_SUCCESS);
  EXPECT_TRUE(f.be->version >= 1);
  EXPECT_EQ(f.be->kind, KERN_BACKEND_OPENCL);
  int n = f.st ? f.be->device_count(f.st) : 0;
  if (n == 0) {
    printf("SKIP: no OpenCL platform or device (%s)\n", reason);
    if (f.st) f.be->release(f.st);
    kern_context_free(f.ctx);
    rmdir(f.cache_dir);
    return kern_test_failures ? 1 : 77;
  }
  EXPECT_EQ(reason[0], '\0');
  for (f.dev = 0; f.dev < n; f.dev++) {
    kern_device_info info;
    f.be->device_info(f.st, f.dev, &info);
    test_device_info(&f);
    test_memory(&f);
    test_saxpy_and_cache(&f);
    test_sumsq(&f, strstr(info.description, "fp64 yes") != NULL);
    test_build_error(&f);
    EXPECT_STATUS(f.ctx, f.be->synchronize(f.st, f.dev), KERN_SUCCESS);
  }
  f.be->release(f.st);
  kern_context_free(f.ctx);
  /* Leave no cache behind: remove the entries, then the directories. */
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", f.cache_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", f.cache_dir);
  if (kern_test_failures) {
    printf("%d FAILED\n", kern_test_failures);
    return 1;
  }
  printf("opencl backend: all tests passed on %d device(s)\n", n);
  return 0;
}
