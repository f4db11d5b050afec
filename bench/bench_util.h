/* bench_util.h -- small helpers shared by cpu_bench.c and gpu_bench.c. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_dbl);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* SplitMix64 -> uniform double in [0,1): fresh random data, never zeros. */
static void fill_random(double *x, int64_t n, uint64_t seed) {
  uint64_t s = seed;
  for (int64_t i = 0; i < n; i++) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = (double)(z >> 11) * 0x1.0p-53;
  }
}

/* float64 reference, pairwise over blocks of 4096 with Kahan between them. */
static double ref_sumsq(const double *x, int64_t n) {
  double s = 0, c = 0;
  for (int64_t b = 0; b < n; b += 4096) {
    int64_t e = b + 4096 < n ? b + 4096 : n;
    double t = 0;
    for (int64_t i = b; i < e; i++) t += x[i] * x[i];
    double y = t - c, u = s + y;
    c = (u - s) - y;
    s = u;
  }
  return s;
}

#define KCHECK(ctx, call)                                                    \
  do {                                                                       \
    kern_status st_ = (call);                                                \
    if (st_ != KERN_SUCCESS) {                                               \
      fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call,    \
              kern_status_name(st_), (ctx) ? kern_last_error(ctx) : "");     \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

#endif
