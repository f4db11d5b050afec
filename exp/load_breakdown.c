/* load_breakdown.c -- where a cold kern_module_load on CUDA spends its time.
 *
 * Times, in one process, for new sources (a fresh kernel text each round):
 * kern's own compile to CUDA C (kern_compile_source), NVRTC on that text
 * with the backend's options (dlopen'd here), cuModuleLoadData of the
 * cubin, and the whole kern_module_load_string with the cache on and off.
 * Build and run on a GPU machine (exp/fastcompile_gpu.sh does):
 *   cc -O2 -Iinclude exp/load_breakdown.c -o B/load_breakdown -LB -lkern \
 *      -ldl -Wl,-rpath,B && B/load_breakdown
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>

#include "kern.h"

/* The CPUs this thread may run on, and the NVRTC libraries mapped: NVRTC
 * runs helper threads, so both decide its speed. */
static void show_env(const char *when) {
  cpu_set_t set;
  int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
  printf("%s: %d CPUs allowed; mapped:", when, n);
  FILE *f = fopen("/proc/self/maps", "r");
  char line[1024], last[1024] = "";
  while (f && fgets(line, sizeof line, f)) {
    char *p = strchr(line, '/');
    if (p && strstr(p, "nvrtc") && strcmp(p, last)) {
      snprintf(last, sizeof last, "%s", p);
      last[strcspn(last, "\n")] = 0;
      printf(" %s", last);
      snprintf(last, sizeof last, "%s", p);
    }
  }
  if (f) fclose(f);
  printf("\n");
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

typedef int (*create_fn)(void **, const char *, const char *, int,
                         const char *const *, const char *const *);
typedef int (*compile_fn)(void *, int, const char *const *);
typedef int (*size_fn)(void *, size_t *);
typedef int (*get_fn)(void *, char *);
typedef int (*destroy_fn)(void **);
typedef int (*load_fn)(void **, const void *);

int main(void) {
  void *nv = dlopen("libnvrtc.so", RTLD_NOW);
  if (!nv) nv = dlopen("/usr/local/cuda/lib64/libnvrtc.so", RTLD_NOW);
  void *cu = dlopen("libcuda.so.1", RTLD_NOW);
  if (!nv || !cu) { fprintf(stderr, "no nvrtc or libcuda\n"); return 1; }
  create_fn create = (create_fn)dlsym(nv, "nvrtcCreateProgram");
  compile_fn compile = (compile_fn)dlsym(nv, "nvrtcCompileProgram");
  size_fn cubin_size = (size_fn)dlsym(nv, "nvrtcGetCUBINSize");
  get_fn get_cubin = (get_fn)dlsym(nv, "nvrtcGetCUBIN");
  destroy_fn destroy = (destroy_fn)dlsym(nv, "nvrtcDestroyProgram");
  load_fn modload = (load_fn)dlsym(cu, "cuModuleLoadData");

  kern_options o = KERN_OPTIONS_INIT;
  char dir[] = "/tmp/kern-lb.XXXXXX";
  if (!mkdtemp(dir)) return 1;
  o.cache_dir = dir;
  kern_context *ctx = NULL;
  double t = now_ms();
  if (kern_context_new(&o, &ctx)) return 1;
  kern_device dev;
  if (kern_device_find(ctx, "cuda", &dev)) { fprintf(stderr, "%s\n", kern_last_error(ctx)); return 1; }
  kern_array *a = NULL;
  int64_t one = 1;
  kern_array_new(ctx, dev, KERN_TYPE_SCALAR(KERN_SCALAR_FLOAT32), 1, &one, &a); /* the CUDA context exists now */
  printf("context + device start: %.1f ms\n", now_ms() - t);
  show_env("before the rounds");
  const char *opts[] = {"--gpu-architecture=sm_90", "-default-device", "--std=c++17",
                        "-lineinfo", "--fmad=false"};
  for (int r = 0; r < 6; r++) {
    char src[512];
    snprintf(src, sizeof src,
             "import warp as wp\n\n@wp.kernel\ndef s%d(x: wp.array(dtype=wp.float32), "
             "y: wp.array(dtype=wp.float32)):\n    i = wp.tid()\n    y[i] = x[i] * %d.5 + 1.0\n",
             r, r);
    char *cuda = NULL;
    t = now_ms();
    if (kern_compile_source(ctx, "lb.py", src, strlen(src), "cuda", &cuda)) return 1;
    double t_kern = now_ms() - t;
    void *prog = NULL;
    t = now_ms();
    create(&prog, cuda, "k.cu", 0, NULL, NULL);
    int rc = compile(prog, 5, opts);
    double t_nvrtc = now_ms() - t;
    size_t n = 0;
    cubin_size(prog, &n);
    char *bin = malloc(n);
    get_cubin(prog, bin);
    destroy(&prog);
    void *mod = NULL;
    t = now_ms();
    int lrc = modload(&mod, bin);
    double t_load = now_ms() - t;
    free(bin);
    kern_free(cuda);
    /* The whole load of another new text, cache on. */
    snprintf(src, sizeof src,
             "import warp as wp\n\n@wp.kernel\ndef t%d(x: wp.array(dtype=wp.float32), "
             "y: wp.array(dtype=wp.float32)):\n    i = wp.tid()\n    y[i] = x[i] * %d.25 + 2.0\n",
             r, r);
    kern_module *m = NULL;
    t = now_ms();
    if (kern_module_load_string(ctx, dev, "lb2.py", src, strlen(src), &m)) {
      fprintf(stderr, "%s\n", kern_last_error(ctx));
      return 1;
    }
    double t_whole = now_ms() - t;
    kern_module_free(m);
    printf("round %d: kern compile %.2f ms, NVRTC %.2f ms (rc %d, %zu B), "
           "cuModuleLoadData %.2f ms (rc %d); kern_module_load_string %.2f ms\n",
           r, t_kern, t_nvrtc, rc, n, t_load, lrc, t_whole);
  }
  show_env("after the rounds");
  kern_array_free(a);
  kern_context_free(ctx);
  return 0;
}
