/*
 * tier_load -- what a cold CUDA load costs in each tier (Note [PTX tier]),
 * with the device already open, so that only the load is timed.
 *
 *   tier_load [ROUNDS] [--file] [--keep]
 *
 * --file loads each text from a file (kern_module_load_file, as Python's
 * kern.load(path) does); --keep keeps every module until the end instead
 * of freeing it after its load (auto: the background builds then overlap
 * the next loads, as in a program that loads several files).
 * Three contexts (auto, ptx, nvrtc), each with a fresh cache directory and
 * its device opened first (one array).  Each round loads, in every context,
 * a module new to every cache (a salted one-line kernel, as
 * exp/cold_load.py writes) and times kern_module_load_string plus
 * kern_module_get_kernel.  Also times the parts of the PTX tier in this
 * process: kern's compile to PTX (kern_compile_source "ptx:N") and the
 * driver's JIT of that text (cuModuleLoadDataEx).  Prints each row's
 * median and the values.  Needs a GPU; build (tests/gpu/ptx_tier.sh does):
 *   cc -std=c11 -O2 -D_GNU_SOURCE -Iinclude exp/tier_load.c -o tier_load \
 *      -Lbuild -lkern -ldl -Wl,-rpath,$PWD/build
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kern.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  double t[64];
  memcpy(t, v, (size_t)n * sizeof *v);
  qsort(t, (size_t)n, sizeof *t, cmp);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

#define CK(ctx, call)                                                       \
  do {                                                                      \
    kern_status st_ = (call);                                               \
    if (st_) {                                                              \
      fprintf(stderr, "%s: %s\n", #call,                                    \
              (ctx) ? kern_last_error(ctx) : kern_status_string(st_));      \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

static unsigned salt;
static void text(char *buf, size_t n) {
  snprintf(buf, n,
           "import warp as wp\n\n@wp.kernel\ndef s%u(x: wp.array(dtype=wp.float32), "
           "y: wp.array(dtype=wp.float32)):\n    i = wp.tid()\n"
           "    y[i] = x[i] * %u.5 + %u.0\n",
           salt, salt % 97, salt);
  salt++;
}

typedef int (*load_fn)(void **, const void *, unsigned, void *, void *);
typedef int (*unload_fn)(void *);

int main(int argc, char **argv) {
  int rounds = 7, from_file = 0, keep = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--file")) from_file = 1;
    else if (!strcmp(argv[i], "--keep")) keep = 1;
    else rounds = atoi(argv[i]);
  }
  if (rounds < 1 || rounds > 64) rounds = 7;
  kern_module *kept[3][64];
  int nkept[3] = {0, 0, 0};
  salt = (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL);
  const char *names[3] = {"auto", "ptx", "nvrtc"};
  int tiers[3] = {KERN_CUDA_TIER_AUTO, KERN_CUDA_TIER_PTX, KERN_CUDA_TIER_NVRTC};
  kern_context *ctx[3];
  kern_device dev[3];
  char dirs[3][64];
  for (int t = 0; t < 3; t++) {
    snprintf(dirs[t], sizeof dirs[t], "/tmp/kern-tierload-XXXXXX");
    if (!mkdtemp(dirs[t])) return 1;
    kern_options o = KERN_OPTIONS_INIT;
    o.cache_dir = dirs[t];
    o.cuda_tier = tiers[t];
    CK(NULL, kern_context_new(&o, &ctx[t]));
    CK(ctx[t], kern_device_find(ctx[t], "cuda", &dev[t]));
    kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
    int64_t one = 1;
    kern_array *a;
    CK(ctx[t], kern_array_new(ctx[t], dev[t], f32, 1, &one, &a));
    CK(ctx[t], kern_array_zero(a));
    kern_array_free(a);
  }
  double ms[3][64], kc[64], jit[64];
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
  load_fn cuLoad = cuda ? (load_fn)dlsym(cuda, "cuModuleLoadDataEx") : NULL;
  unload_fn cuUnload = cuda ? (unload_fn)dlsym(cuda, "cuModuleUnload") : NULL;
  if (!cuLoad || !cuUnload) return 1;
  kern_device_info info = KERN_DEVICE_INFO_INIT;
  CK(ctx[0], kern_device_get(ctx[0], dev[0], &info));
  char target[16];
  snprintf(target, sizeof target, "ptx:%d%d", info.capability_major,
           info.capability_minor);
  for (int r = 0; r < rounds; r++) {
    for (int t = 0; t < 3; t++) {
      char src[512];
      text(src, sizeof src);
      kern_module *m;
      kern_kernel *k;
      char path[128];
      if (from_file) {
        snprintf(path, sizeof path, "%s/t%d.py", dirs[t], r);
        FILE *f = fopen(path, "w");
        if (!f || fputs(src, f) < 0 || fclose(f)) return 1;
      }
      double a = now_ms();
      if (from_file)
        CK(ctx[t], kern_module_load_file(ctx[t], dev[t], path, &m));
      else
        CK(ctx[t], kern_module_load_string(ctx[t], dev[t], "t.py", src,
                                           strlen(src), &m));
      CK(ctx[t], kern_module_get_kernel(m, kern_module_kernel_name(m, 0), &k));
      ms[t][r] = now_ms() - a;
      if (keep)
        kept[t][nkept[t]++] = m;
      else
        kern_module_free(m); /* auto: waits for the background build */
    }
    char src[512];
    text(src, sizeof src);
    char *ptx = NULL;
    double a = now_ms();
    CK(ctx[0], kern_compile_source(ctx[0], "t.py", src, strlen(src), target, &ptx));
    double b = now_ms();
    void *mod = NULL;
    int rc = cuLoad(&mod, ptx, 0, NULL, NULL);
    double c = now_ms();
    if (rc) { fprintf(stderr, "cuModuleLoadDataEx: %d\n", rc); return 1; }
    cuUnload(mod);
    kern_free(ptx);
    kc[r] = b - a;
    jit[r] = c - b;
  }
  for (int t = 0; t < 3; t++) {
    printf("cold load, tier %-6s median %7.2f ms (", names[t], median(ms[t], rounds));
    for (int r = 0; r < rounds; r++) printf("%s%.1f", r ? " " : "", ms[t][r]);
    printf(")\n");
  }
  printf("kern compile to PTX     median %7.3f ms\n", median(kc, rounds));
  printf("driver JIT of that PTX  median %7.2f ms (", median(jit, rounds));
  for (int r = 0; r < rounds; r++) printf("%s%.1f", r ? " " : "", jit[r]);
  printf(")\n");
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < nkept[t]; i++) kern_module_free(kept[t][i]);
    kern_context_free(ctx[t]);
  }
  return 0;
}
