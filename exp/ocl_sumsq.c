/*
 * ocl_sumsq.c -- which part of kern's OpenCL sum of squares costs NVIDIA
 * OpenCL its factor of 2-3 against the CUDA backend (issue #12)?
 *
 * One OpenCL program holds the variants below, each the kernel kern emits
 * for examples/sum_of_squares.py with one thing changed, so the time each
 * saves is the cost of that one thing.  All use kern's GPU launch shape
 * (grid-stride loop, 256 work-items per group, 8 groups per compute unit)
 * unless the variant is about the shape.  Each is checked against a
 * float64 reference, then timed: median of REPS launches by OpenCL
 * profiling events (kernel time only) and by the wall clock around
 * enqueue + clFinish (what kern_launch pays).
 *
 *   cas        kern before this branch: tree reduction in local memory,
 *              one float64 compare-and-swap loop per group
 *   ptx        the same with PTX atom.global.add.f64 (NVIDIA only): what
 *              kern emits now on NVIDIA (Note [NVIDIA float atomics])
 *   partial    no atomic at all: each group stores its partial sum
 *              (a lower bound on the cost of the group flush)
 *   ptx_i32    ptx with a 32-bit loop counter and index
 *   ptx_vec2   ptx with double2 (16-byte) loads
 *   ptx_1024   ptx with 1024-item groups, 2 per compute unit
 *   cas_1024   cas with 1024-item groups, 2 per compute unit (fewer
 *              atomics without PTX)
 *
 * usage: ocl_sumsq [--n N] [--reps R] [--device SUBSTRING]
 * Build: cc -O2 -std=c11 ocl_sumsq.c -lOpenCL -lm
 * (bench/bench_gpu.sh builds and runs it on every OpenCL GPU it finds.)
 */
#define CL_TARGET_OPENCL_VERSION 120
#define _GNU_SOURCE
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char src[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "inline void add_cas(__global double *p, double v) {\n"
    "  volatile __global long *q = (volatile __global long *)p;\n"
    "  long old = *q, as;\n"
    "  do { as = old; old = atom_cmpxchg(q, as, as_long(as_double(as) + v)); } while (old != as);\n"
    "}\n"
    "#ifdef NV\n"
    "inline void add_ptx(__global double *p, double v) {\n"
    "  double o;\n"
    "  __asm__ volatile(\"atom.global.add.f64 %0, [%1], %2;\" : \"=d\"(o) : \"l\"(p), \"d\"(v) : \"memory\");\n"
    "}\n"
    "#else\n"
    "#define add_ptx add_cas\n"
    "#endif\n"
    "#define TREE(acc, sh)                                                  \\\n"
    "  const int lid = get_local_id(0), ls = get_local_size(0);           \\\n"
    "  sh[lid] = acc;                                                      \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);                                       \\\n"
    "  for (int o = ls / 2; o > 0; o >>= 1) {                              \\\n"
    "    if (lid < o) sh[lid] = sh[lid] + sh[lid + o];                     \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);                                     \\\n"
    "  }\n"
    "#define LOOP64(acc)                                                    \\\n"
    "  const long g = get_global_id(0), G = get_global_size(0);           \\\n"
    "  _Pragma(\"unroll 4\")                                                 \\\n"
    "  for (long t = g; t < n; t += G) acc += x[t] * x[t];\n"
    "__kernel void cas(__global const double *restrict x, long n, __global double *out) {\n"
    "  __local double sh[1024]; double acc = 0; LOOP64(acc) TREE(acc, sh)\n"
    "  if (lid == 0) add_cas(out, sh[0]);\n"
    "}\n"
    "__kernel void ptx(__global const double *restrict x, long n, __global double *out) {\n"
    "  __local double sh[1024]; double acc = 0; LOOP64(acc) TREE(acc, sh)\n"
    "  if (lid == 0) add_ptx(out, sh[0]);\n"
    "}\n"
    "__kernel void partial(__global const double *restrict x, long n, __global double *out) {\n"
    "  __local double sh[1024]; double acc = 0; LOOP64(acc) TREE(acc, sh)\n"
    "  if (lid == 0) out[1 + get_group_id(0)] = sh[0];\n"
    "}\n"
    "__kernel void ptx_i32(__global const double *restrict x, long n, __global double *out) {\n"
    "  __local double sh[1024]; double acc = 0;\n"
    "  const int g = get_global_id(0), G = get_global_size(0), n32 = (int)n;\n"
    "  _Pragma(\"unroll 4\")\n"
    "  for (int t = g; t < n32; t += G) acc += x[t] * x[t];\n"
    "  TREE(acc, sh)\n"
    "  if (lid == 0) add_ptx(out, sh[0]);\n"
    "}\n"
    "__kernel void ptx_vec2(__global const double *restrict x, long n, __global double *out) {\n"
    "  __local double sh[1024]; double acc = 0;\n"
    "  const long g = get_global_id(0), G = get_global_size(0), n2 = n / 2;\n"
    "  _Pragma(\"unroll 4\")\n"
    "  for (long t = g; t < n2; t += G) { double2 v = vload2(t, x); acc += v.x * v.x + v.y * v.y; }\n"
    "  if (g == 0 && (n & 1)) acc += x[n - 1] * x[n - 1];\n"
    "  TREE(acc, sh)\n"
    "  if (lid == 0) add_ptx(out, sh[0]);\n"
    "}\n";

typedef struct variant {
  const char *name, *kernel;
  size_t local;
  int groups_per_cu;
  int needs_nv;
} variant;

static const variant variants[] = {
    {"cas (kern before)", "cas", 256, 8, 0},
    {"ptx (kern now, NVIDIA)", "ptx", 256, 8, 1},
    {"partial (no atomic)", "partial", 256, 8, 0},
    {"ptx_i32 (32-bit loop)", "ptx_i32", 256, 8, 1},
    {"ptx_vec2 (16-byte loads)", "ptx_vec2", 256, 8, 1},
    {"ptx_1024 (1024 x 2/CU)", "ptx", 1024, 2, 1},
    {"cas_1024 (1024 x 2/CU)", "cas", 1024, 2, 0},
};

#define CK(x)                                                                  \
  do {                                                                         \
    cl_int e_ = (x);                                                           \
    if (e_ != CL_SUCCESS) {                                                    \
      fprintf(stderr, "%s:%d: %s: error %d\n", __FILE__, __LINE__, #x, e_);    \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmpd);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv) {
  long long n = 100000000;
  int reps = 50;
  const char *want = "";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--device") && i + 1 < argc) want = argv[++i];
    else { fprintf(stderr, "usage: ocl_sumsq [--n N] [--reps R] [--device SUBSTRING]\n"); return 2; }
  }
  cl_platform_id plats[16];
  cl_uint np = 0;
  CK(clGetPlatformIDs(16, plats, &np));
  cl_device_id dev = NULL;
  char name[256] = "", vendor[256] = "";
  for (cl_uint p = 0; p < np && !dev; p++) {
    cl_device_id ids[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, ids, &nd) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < nd && !dev; d++) {
      clGetDeviceInfo(ids[d], CL_DEVICE_NAME, sizeof name, name, NULL);
      if (strstr(name, want)) dev = ids[d];
    }
  }
  if (!dev) { fprintf(stderr, "no OpenCL device matching '%s'\n", want); return 1; }
  clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof vendor, vendor, NULL);
  cl_uint cus = 1;
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  int nv = strstr(vendor, "NVIDIA") != NULL;
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CK(err);
  const char *srcs[1] = {src};
  cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
  CK(err);
  if (clBuildProgram(prog, 1, &dev, nv ? "-cl-std=CL1.2 -D NV=1" : "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
    static char log[1 << 16];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  double *h = malloc((size_t)n * sizeof *h);
  if (!h) return 1;
  uint64_t s = 3;
  for (long long i = 0; i < n; i++) { /* SplitMix64 in [0, 1) */
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    h[i] = (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }
  double ref = 0, c = 0; /* Kahan */
  for (long long i = 0; i < n; i++) {
    double y = h[i] * h[i] - c, t = ref + y;
    c = (t - ref) - y;
    ref = t;
  }
  size_t ngroups_max = (size_t)cus * 8 + 1;
  cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)n * 8, h, &err);
  CK(err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (1 + ngroups_max) * 8, NULL, &err);
  CK(err);
  double *partials = calloc(1 + ngroups_max, sizeof(double));
  printf("ocl_sumsq on %s (%s, %u CUs): n=%lld float64, median of %d\n", name, vendor, cus, n, reps);
  printf("%-28s %10s %10s %9s  %s\n", "variant", "event ms", "wall ms", "GB/s", "check");
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
    const variant *V = &variants[v];
    if (V->needs_nv && !nv) continue;
    cl_kernel k = clCreateKernel(prog, V->kernel, &err);
    CK(err);
    size_t kmax = 0;
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL);
    if (kmax < V->local) { printf("%-28s work-group limit %zu\n", V->name, kmax); clReleaseKernel(k); continue; }
    size_t local = V->local, global = (size_t)cus * V->groups_per_cu * local;
    cl_long nl = n;
    CK(clSetKernelArg(k, 0, sizeof x, &x));
    CK(clSetKernelArg(k, 1, sizeof nl, &nl));
    CK(clSetKernelArg(k, 2, sizeof out, &out));
    double ev[1000], wall[1000], got = 0;
    int r = reps > 1000 ? 1000 : reps;
    for (int i = -3; i < r; i++) {
      double zero = 0;
      CK(clEnqueueWriteBuffer(q, out, CL_TRUE, 0, 8, &zero, 0, NULL, NULL));
      cl_event e;
      double t0 = now();
      CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &e));
      CK(clFinish(q));
      double t1 = now();
      cl_ulong a = 0, b = 0;
      clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
      clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
      clReleaseEvent(e);
      if (i >= 0) { ev[i] = (double)(b - a) * 1e-6; wall[i] = (t1 - t0) * 1e3; }
    }
    size_t groups = global / local;
    CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, (1 + groups) * 8, partials, 0, NULL, NULL));
    if (!strcmp(V->kernel, "partial")) for (size_t g = 0; g < groups; g++) got += partials[1 + g];
    else got = partials[0];
    double rel = fabs(got - ref) / ref, em = median(ev, r), wm = median(wall, r);
    printf("%-28s %10.4f %10.4f %9.0f  %s (rel err %.1e)\n", V->name, em, wm, n * 8.0 / em / 1e6,
           rel < 1e-10 ? "ok" : "WRONG", rel);
    clReleaseKernel(k);
  }
  return 0;
}
