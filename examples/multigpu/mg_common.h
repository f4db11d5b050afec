/*
 * mg_common.h -- what the multi-device examples share: a context, the group
 * of devices named by KERN_DEVICE ("cuda:0,1", "cuda:all", "cpu:0,0"), the
 * single device they are compared with (the group's first), timing, and a
 * last line that scripts can read:
 *
 *   RESULT <name> shards=<P> devices=<D> one_ms=<t1> multi_ms=<tP>
 *          speedup=<t1/tP> one_median_ms=<m1> multi_median_ms=<mP>
 *          rounds=<R> sane=<0|1> ok=<0|1>
 *
 * (one line).  Under mpirun the group spans the ranks (one device each, by
 * local rank); every rank then also runs the one-device version on its own
 * device, and rank 0 prints.
 *
 * Note [fair baseline]: a speedup is only as good as its one-device time.
 * An earlier version timed the one-device loop once, first, and the stencil
 * without a warm-up, while the group's loop ran later; on two H100s that
 * gave 2.34x (sum of squares) and 4.78x (stencil) over a slow baseline,
 * where the same programs under mpirun measured 1.95x and 2.00x (issue
 * #22).  A likely cause is the CUDA backend's cold-load tier: a module
 * loaded cold runs kern's PTX until its NVRTC cubin is built in the
 * background, so whichever side is timed first may time other code.  Now
 *  - the context waits for NVRTC (KERN_CUDA_TIER_NVRTC): both sides run the
 *    final code from the first launch;
 *  - both sides are warmed, then timed in alternating rounds (one device,
 *    group; group, one device; ...), each round the same unit of work
 *    ending in a host wait, so a drift in clocks or load hits both alike;
 *  - the figures are the best round of each side (the medians are printed
 *    too);
 *  - a speedup above the number of distinct devices is flagged (sane=0 and
 *    a MEASUREMENT ERROR line); bench/speedup_check.sh turns that into a
 *    failure of bench/multigpu_gpu.sh unless the run explains it.
 */
#ifndef MG_COMMON_H
#define MG_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kern.h"

static struct {
  kern_context *ctx;
  kern_group *g;
  kern_device one; /* the one-device comparison runs here */
  int rank;
} mg;

#define MG_CHECK(call)                                                       \
  do {                                                                       \
    kern_status mg_s_ = (call);                                              \
    if (mg_s_ != KERN_SUCCESS) {                                             \
      fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call,      \
              kern_status_name(mg_s_), kern_last_error(mg.ctx));             \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

static inline double mg_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static inline int64_t mg_env(const char *name, int64_t dflt) {
  const char *v = getenv(name);
  return v && *v ? (int64_t)atof(v) : dflt;
}

/* The group from KERN_DEVICE (MPI when started by mpirun), the module
 * loaded into it and on the single device. */
static inline kern_module *mg_setup(const char *src) {
  /* Note [fair baseline]: final code on both sides from the first launch. */
  kern_options ko = KERN_OPTIONS_INIT;
  ko.cuda_tier = KERN_CUDA_TIER_NVRTC;
  MG_CHECK(kern_context_new(&ko, &mg.ctx));
  kern_group_options o = KERN_GROUP_OPTIONS_INIT;
  o.shards = (int)mg_env("KERN_EXAMPLE_SHARDS", 0);
  MG_CHECK(kern_group_new(mg.ctx, &o, &mg.g));
  MG_CHECK(kern_group_load_string(mg.g, "example.py", src, strlen(src)));
  mg.rank = kern_group_rank(mg.g);
  mg.one = kern_group_device(mg.g, 0);
  kern_module *m;
  MG_CHECK(kern_module_load_string(mg.ctx, mg.one, "example.py", src,
                                   strlen(src), &m));
  if (mg.rank == 0) {
    kern_device_info di = KERN_DEVICE_INFO_INIT;
    MG_CHECK(kern_device_get(mg.ctx, mg.one, &di));
    printf("group: %d shards (%d ranks), transport %s, first device %s\n",
           kern_group_size(mg.g), kern_group_nranks(mg.g),
           kern_group_transport(mg.g), di.name);
  }
  return m;
}

static inline double mg_median(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One timed unit of work of one side, ending in a host wait; returns ms. */
typedef double (*mg_timed)(void *state);

typedef struct mg_times {
  double one_best, multi_best, one_median, multi_median;
  int rounds;
} mg_times;

enum { MG_MAX_ROUNDS = 64 };

/* Note [fair baseline]: `warm` untimed rounds of each side, then `rounds`
 * timed ones, alternating which side goes first; the best and the median
 * of each side.  Both sides must do the same work per call. */
static inline mg_times mg_time_both(mg_timed one, mg_timed multi, void *state,
                                    int warm, int rounds) {
  double t1[MG_MAX_ROUNDS], tp[MG_MAX_ROUNDS];
  if (rounds < 1) rounds = 1;
  if (rounds > MG_MAX_ROUNDS) rounds = MG_MAX_ROUNDS;
  for (int r = 0; r < warm; r++) {
    one(state);
    multi(state);
  }
  for (int r = 0; r < rounds; r++) {
    if (r % 2 == 0) {
      t1[r] = one(state);
      tp[r] = multi(state);
    } else {
      tp[r] = multi(state);
      t1[r] = one(state);
    }
  }
  mg_times t;
  t.rounds = rounds;
  t.one_median = mg_median(t1, rounds); /* sorts: t1[0] is then the best */
  t.multi_median = mg_median(tp, rounds);
  t.one_best = t1[0];
  t.multi_best = tp[0];
  return t;
}

/* Per-iteration figures from per-round ones. */
static inline mg_times mg_times_per(mg_times t, int iters) {
  t.one_best /= iters;
  t.multi_best /= iters;
  t.one_median /= iters;
  t.multi_median /= iters;
  return t;
}

/* Distinct devices of the group: this process's, times the ranks (each
 * rank has its own; an upper bound if ranks share a device). */
static inline int mg_devices(void) {
  int n = 0, local = kern_group_local_size(mg.g);
  for (int i = 0; i < local; i++) {
    int seen = 0;
    for (int j = 0; j < i; j++)
      seen |= kern_group_device(mg.g, j) == kern_group_device(mg.g, i);
    n += !seen;
  }
  return n * (kern_group_nranks(mg.g) > 1 ? kern_group_nranks(mg.g) : 1);
}

static inline int mg_finish(const char *name, mg_times t, int ok) {
  if (mg.rank == 0) {
    int devices = mg_devices();
    double speedup = t.one_best / t.multi_best;
    int sane = speedup <= devices;
    printf("%s: one device %.3f ms, %d shards %.3f ms (%.2fx), best of %d "
           "rounds (medians %.3f / %.3f ms)%s\n",
           name, t.one_best, kern_group_size(mg.g), t.multi_best, speedup,
           t.rounds, t.one_median, t.multi_median, ok ? "" : "  RESULTS DIFFER");
    if (!sane)
      printf("MEASUREMENT ERROR: %s: speedup %.2fx on %d device%s is more than "
             "the devices can give; the one-device baseline is suspect "
             "(Note [fair baseline] in mg_common.h)\n",
             name, speedup, devices, devices == 1 ? "" : "s");
    printf("RESULT %s shards=%d devices=%d one_ms=%.4f multi_ms=%.4f "
           "speedup=%.3f one_median_ms=%.4f multi_median_ms=%.4f rounds=%d "
           "sane=%d ok=%d\n",
           name, kern_group_size(mg.g), devices, t.one_best, t.multi_best,
           speedup, t.one_median, t.multi_median, t.rounds, sane, ok);
  }
  kern_group_free(mg.g);
  kern_context_free(mg.ctx);
  return ok ? 0 : 1;
}

#endif
