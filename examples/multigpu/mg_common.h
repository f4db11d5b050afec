/*
 * mg_common.h -- what the multi-device examples share: a context, the group
 * of devices named by KERN_DEVICE ("cuda:0,1", "cuda:all", "cpu:0,0"), the
 * single device they are compared with (the group's first), timing, and a
 * last line that scripts can read:
 *
 *   RESULT <name> shards=<P> one_ms=<t1> multi_ms=<tP> speedup=<t1/tP> ok=1
 *
 * Under mpirun the group spans the ranks (one device each, by local rank);
 * every rank then also runs the one-device version on its own device, and
 * rank 0 prints.
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
  MG_CHECK(kern_context_new(NULL, &mg.ctx));
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

static inline int mg_finish(const char *name, double one_ms, double multi_ms, int ok) {
  if (mg.rank == 0) {
    printf("%s: one device %.3f ms, %d shards %.3f ms (%.2fx)%s\n", name,
           one_ms, kern_group_size(mg.g), multi_ms, one_ms / multi_ms,
           ok ? "" : "  RESULTS DIFFER");
    printf("RESULT %s shards=%d one_ms=%.4f multi_ms=%.4f speedup=%.3f ok=%d\n",
           name, kern_group_size(mg.g), one_ms, multi_ms, one_ms / multi_ms,
           ok);
  }
  kern_group_free(mg.g);
  kern_context_free(mg.ctx);
  return ok ? 0 : 1;
}

#endif
