/*
 * all_reduce.c -- the bus bandwidth of kern_sharded_all_reduce on float32
 * arrays of 1 MB, 64 MB and 1 GB (KERN_EXAMPLE_MB picks one size), and, on
 * CUDA in one process, of ncclAllReduce called directly on the same
 * buffers and streams (NCCL loaded here with dlopen, like kern does), so
 * the two are measured the same way: host time from the call to the end
 * of the work, median of KERN_EXAMPLE_REPS.
 *
 * Bus bandwidth is NCCL's convention: bytes / time * 2 (P - 1) / P.
 *
 *   KERN_DEVICE=cuda:all ./mg_all_reduce
 */
#include <dlfcn.h>
#include "mg_common.h"

typedef int (*nccl_init_all)(void **, int, const int *);
typedef int (*nccl_all_reduce)(const void *, void *, size_t, int, int, void *,
                               void *);
typedef int (*nccl_group)(void);

static void *nccl_open(void) {
  const char *env = getenv("KERN_NCCL_LIBRARY");
  void *h = NULL;
  if (env && *env) {
    char p[4096];
    snprintf(p, sizeof p, "%s/libnccl.so.2", env);
    h = dlopen(p, RTLD_NOW);
    if (!h) h = dlopen(env, RTLD_NOW);
  }
  return h ? h : dlopen("libnccl.so.2", RTLD_NOW);
}

int main(void) {
  mg_setup("import warp as wp\n");
  int P = kern_group_size(mg.g), L = kern_group_local_size(mg.g);
  int reps = (int)mg_env("KERN_EXAMPLE_REPS", 20);
  int64_t only = mg_env("KERN_EXAMPLE_MB", 0);
  static const int64_t mbs[] = {1, 64, 1024};
  double t[256], last_ratio = 0, kern_bw = 0, nccl_bw = 0;
  if (reps > 256) reps = 256;
  int direct = strcmp(kern_group_transport(mg.g), "nccl") == 0 &&
               kern_group_nranks(mg.g) == 1;
  void *lib = direct ? nccl_open() : NULL;
  void **comms = NULL;
  nccl_all_reduce ar = NULL;
  nccl_group gs = NULL, ge = NULL;
  if (lib) {
    nccl_init_all ia = (nccl_init_all)dlsym(lib, "ncclCommInitAll");
    ar = (nccl_all_reduce)dlsym(lib, "ncclAllReduce");
    gs = (nccl_group)dlsym(lib, "ncclGroupStart");
    ge = (nccl_group)dlsym(lib, "ncclGroupEnd");
    int ord[64];
    for (int i = 0; i < L && i < 64; i++) {
      kern_device_info di = KERN_DEVICE_INFO_INIT;
      MG_CHECK(kern_device_get(mg.ctx, kern_group_device(mg.g, i), &di));
      ord[i] = di.index;
    }
    comms = calloc((size_t)L, sizeof *comms);
    if (!ia || !ar || !gs || !ge || ia(comms, L, ord) != 0) lib = NULL;
  }
  for (size_t s = 0; s < sizeof mbs / sizeof *mbs; s++) {
    if (only && mbs[s] != only) continue;
    int64_t n = mbs[s] << 18; /* float32 elements */
    kern_sharded *a;
    MG_CHECK(kern_sharded_new_replicated(mg.g, KERN_TYPE_FLOAT32, 1, &n, &a));
    float one = 1;
    MG_CHECK(kern_sharded_fill(a, &one));
    for (int r = -2; r < reps; r++) {
      double t0 = mg_now_ms();
      MG_CHECK(kern_sharded_all_reduce(a, KERN_REDUCE_SUM));
      if (r >= 0) t[r] = mg_now_ms() - t0;
    }
    double ms = mg_median(t, reps);
    double bytes = (double)n * 4, factor = P > 1 ? 2.0 * (P - 1) / P : 1;
    kern_bw = bytes / (ms * 1e-3) * factor / 1e9;
    /* sums of P ones, repeatedly: a power of P, exact in float32 here */
    float got = 0;
    kern_array *a0;
    MG_CHECK(kern_sharded_shard(a, 0, &a0, NULL, NULL, NULL));
    MG_CHECK(kern_array_download_async(a0, NULL, 0, &got, sizeof got));
    MG_CHECK(kern_synchronize(mg.ctx, kern_group_device(mg.g, 0)));
    double want = pow((double)P, reps + 2);
    int ok = fabs(got - want) <= 1e-6 * want || !isfinite(want);
    if (mg.rank == 0)
      printf("all-reduce %6lld MB: kern %8.3f ms, bus %7.1f GB/s%s\n",
             (long long)mbs[s], ms, kern_bw, ok ? "" : "  WRONG SUM");
    if (lib) {
      for (int r = -2; r < reps; r++) {
        double t0 = mg_now_ms();
        gs();
        for (int i = 0; i < L; i++) {
          kern_array *ai;
          kern_stream *st;
          MG_CHECK(kern_sharded_shard(a, i, &ai, NULL, NULL, NULL));
          MG_CHECK(kern_group_stream(mg.g, i, &st));
          void *p = kern_array_native(ai);
          ar(p, p, (size_t)n, 7 /* ncclFloat32 */, 0 /* ncclSum */, comms[i],
             kern_stream_native(st));
        }
        ge();
        for (int i = 0; i < L; i++) {
          kern_stream *st;
          MG_CHECK(kern_group_stream(mg.g, i, &st));
          MG_CHECK(kern_stream_synchronize(st));
        }
        if (r >= 0) t[r] = mg_now_ms() - t0;
      }
      double nms = mg_median(t, reps);
      nccl_bw = bytes / (nms * 1e-3) * factor / 1e9;
      last_ratio = kern_bw / nccl_bw;
      printf("all-reduce %6lld MB: NCCL %8.3f ms, bus %7.1f GB/s; kern/NCCL "
             "%.3f\n",
             (long long)mbs[s], nms, nccl_bw, last_ratio);
      if (mg.rank == 0)
        printf("RESULT all_reduce_%lldMB shards=%d kern_busbw=%.2f "
               "nccl_busbw=%.2f ratio=%.4f ok=%d\n",
               (long long)mbs[s], P, kern_bw, nccl_bw, last_ratio, ok);
    } else if (mg.rank == 0) {
      printf("RESULT all_reduce_%lldMB shards=%d kern_busbw=%.2f ok=%d\n",
             (long long)mbs[s], P, kern_bw, ok);
    }
    kern_sharded_free(a);
  }
  kern_group_free(mg.g);
  kern_context_free(mg.ctx);
  return 0;
}
