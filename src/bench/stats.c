/*
 * stats.c -- robust summaries of timing samples and adaptive sampling.
 *
 * Timings on shared machines have long right tails (a preempted thread, a
 * page fault), so the headline figure is the median and the spread is
 * reported as min, max and the relative standard deviation.  The sampler
 * stops as soon as the RSD is at a target (the figure is stable) or when a
 * time budget is spent (it never will be), and records which, so a reader
 * knows whether the number converged.
 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void bench_stats_compute(const double *x, int n, bench_stats *out) {
  memset(out, 0, sizeof *out);
  if (n <= 0) return;
  double *v = malloc((size_t)n * sizeof *v);
  if (!v) return;
  memcpy(v, x, (size_t)n * sizeof *v);
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  out->n = n;
  out->min = v[0];
  out->max = v[n - 1];
  out->median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += v[i];
  out->mean = sum / n;
  /* Two-pass variance: exact enough for timings and never negative. */
  double ss = 0;
  for (int i = 0; i < n; i++) ss += (v[i] - out->mean) * (v[i] - out->mean);
  out->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0;
  out->rsd = out->mean > 0 ? out->stddev / out->mean : 0;
  free(v);
}

void bench_sampler_init(bench_sampler *s, double target_rsd, double budget_s,
                        int min_samples, int max_samples) {
  memset(s, 0, sizeof *s);
  s->target_rsd = target_rsd;
  s->budget_s = budget_s;
  s->min_samples = min_samples < 2 ? 2 : min_samples;
  s->max_samples = max_samples < s->min_samples ? s->min_samples : max_samples;
}

int bench_sampler_add(bench_sampler *s, double sample, double cost) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 64;
    double *x = realloc(s->x, (size_t)cap * sizeof *x);
    if (!x) return -1;
    s->x = x;
    s->cap = cap;
  }
  s->x[s->n++] = sample;
  s->spent += cost;
  if (s->n >= s->min_samples) {
    bench_stats st;
    bench_stats_compute(s->x, s->n, &st);
    if (st.rsd <= s->target_rsd) {
      s->stop = "rsd";
      return 1;
    }
  }
  if (s->n >= s->max_samples) {
    s->stop = "max-samples";
    return 1;
  }
  /* The budget stops sampling even below min_samples: a kernel that takes
   * longer than the budget gets the samples it managed (at least one). */
  if (s->spent >= s->budget_s) {
    s->stop = "budget";
    return 1;
  }
  return 0;
}

void bench_sampler_free(bench_sampler *s) {
  free(s->x);
  s->x = NULL;
  s->n = s->cap = 0;
}

/* Note [peak bandwidth]: a peak is the best a copy reached, not its
 * median: every slower run was disturbed (another process, a page fault,
 * frequency), and a "peak" below what a kernel reaches reads as more than
 * 100%.  A copy moves `bytes` twice (read and write). */
double bench_peak_gbps(const double *sec, int n, double bytes) {
  double best = INFINITY;
  for (int i = 0; i < n; i++)
    if (sec[i] > 0 && sec[i] < best) best = sec[i];
  return isfinite(best) ? 2.0 * bytes / best / 1e9 : NAN;
}
