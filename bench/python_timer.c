/* python_timer.c -- the C side of bench/python_gpu.py's comparisons.
 *
 * A tiny shared library the benchmark loads with ctypes into the same
 * process as the kern Python package, so the C API is timed on exactly the
 * kernel, the arguments and the memory the Python calls use (the kern_arg
 * array the package packed, the PyTorch tensor it wrapped): the only
 * difference left between the two figures is the Python call path.  It
 * links against the same libkern.so.1 the package loaded (same SONAME, so
 * the dynamic loader shares one copy and the handles are valid here).
 *
 * Built by bench/python_gpu.sh:
 *   cc -O2 -shared -fPIC -Iinclude bench/python_timer.c -o B/libpython_timer.so \
 *      -LB -lkern -Wl,-rpath,B
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "kern.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median seconds of one synchronous launch (kern_launch returns when the
 * launch has completed), over reps launches after 3 unmeasured ones.
 * Returns a negative kern_status on failure. */
double kpt_sync_median(kern_kernel *k, int ndim, const int64_t *dims,
                       int nargs, const kern_arg *args, int reps) {
  double *t = malloc(sizeof(double) * (size_t)reps);
  if (!t) return -1;
  for (int r = 0; r < reps + 3; r++) {
    double a = now_s();
    kern_status st = kern_launch(k, ndim, dims, nargs, args);
    double b = now_s();
    if (st != KERN_SUCCESS) {
      free(t);
      return -(double)st;
    }
    if (r >= 3) t[r - 3] = b - a;
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_dbl);
  double m = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
  free(t);
  return m;
}

/* Mean seconds per launch of reps asynchronous launches on the default
 * stream back to back, then one wait (the rate a loop can issue them). */
double kpt_async_mean(kern_kernel *k, kern_context *ctx, kern_device dev,
                      int ndim, const int64_t *dims, int nargs,
                      const kern_arg *args, int reps) {
  kern_status st;
  for (int r = 0; r < 10; r++)
    if ((st = kern_launch_async(k, NULL, ndim, dims, nargs, args)))
      return -(double)st;
  if ((st = kern_synchronize(ctx, dev))) return -(double)st;
  double a = now_s();
  for (int r = 0; r < reps; r++)
    if ((st = kern_launch_async(k, NULL, ndim, dims, nargs, args)))
      return -(double)st;
  if ((st = kern_synchronize(ctx, dev))) return -(double)st;
  return (now_s() - a) / reps;
}

/* Seconds one kern_module_load_file of path takes (a new file, so a cold
 * build when the cache has not seen it), the module freed afterwards: the
 * C side of bench/python_gpu.py's cold-load comparison. */
double kpt_load_seconds(kern_context *ctx, kern_device dev, const char *path) {
  kern_module *m = NULL;
  double a = now_s();
  kern_status st = kern_module_load_file(ctx, dev, path, &m);
  double b = now_s();
  if (st != KERN_SUCCESS) return -(double)st;
  kern_module_free(m);
  return b - a;
}
