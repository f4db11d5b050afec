/*
 * nccl.c -- collectives of CUDA groups through NCCL, loaded with dlopen.
 *
 * Like the other vendor libraries, NCCL is not needed to build or to run
 * kern: it is loaded on the first collective of a CUDA group, from
 * $KERN_NCCL_LIBRARY (the library itself, or a directory holding
 * libnccl.so.2, such as the nvidia-nccl-cu13 pip package's
 * site-packages/nvidia/nccl/lib), else as libnccl.so.2 from the loader's
 * path.  The few prototypes and enumerations used are declared here from
 * NCCL's documented ABI (nccl.h of NCCL 2.x), so no NCCL header is needed
 * at build time.
 *
 * A group of this process gets its communicators from ncclCommInitAll (one
 * per device; NCCL wants distinct devices).  Under MPI each rank has one
 * device, and rank 0's ncclUniqueId travels to the others over MPI before
 * ncclCommInitRank.  Every collective is one ncclGroupStart/End around a
 * call per local shard, on the shard's stream; the synchronous call then
 * waits for the streams with the group's deadline (the asynchronous forms
 * return at once and kern_group_synchronize waits with the same deadline),
 * so a rank that died in the middle of a collective makes the others fail
 * (and abort their communicators) instead of hanging (Note [rank
 * agreement] in multi.c).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "multi.h"

/* From NCCL's ABI. */
typedef void *ncclComm_t;
typedef int ncclResult_t; /* ncclSuccess = 0 */
typedef struct {
  char internal[128];
} ncclUniqueId;
enum {
  ncclInt8 = 0,
  ncclUint8 = 1,
  ncclInt32 = 2,
  ncclUint32 = 3,
  ncclInt64 = 4,
  ncclUint64 = 5,
  ncclFloat16 = 6,
  ncclFloat32 = 7,
  ncclFloat64 = 8
};
enum { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3 };

static struct {
  pthread_mutex_t mu;
  int tried, ok;
  char why[320];
  void *lib;
  ncclResult_t (*GetVersion)(int *);
  ncclResult_t (*GetUniqueId)(ncclUniqueId *);
  ncclResult_t (*CommInitRank)(ncclComm_t *, int, ncclUniqueId, int);
  ncclResult_t (*CommInitAll)(ncclComm_t *, int, const int *);
  ncclResult_t (*CommDestroy)(ncclComm_t);
  ncclResult_t (*CommAbort)(ncclComm_t);
  const char *(*GetErrorString)(ncclResult_t);
  ncclResult_t (*AllReduce)(const void *, void *, size_t, int, int,
                            ncclComm_t, void *);
  ncclResult_t (*Broadcast)(const void *, void *, size_t, int, int,
                            ncclComm_t, void *);
  ncclResult_t (*Reduce)(const void *, void *, size_t, int, int, int,
                         ncclComm_t, void *);
  ncclResult_t (*AllGather)(const void *, void *, size_t, int, ncclComm_t,
                            void *);
  ncclResult_t (*ReduceScatter)(const void *, void *, size_t, int, int,
                                ncclComm_t, void *);
  ncclResult_t (*Send)(const void *, size_t, int, int, ncclComm_t, void *);
  ncclResult_t (*Recv)(void *, size_t, int, int, ncclComm_t, void *);
  ncclResult_t (*GroupStart)(void);
  ncclResult_t (*GroupEnd)(void);
} N = {.mu = PTHREAD_MUTEX_INITIALIZER};

struct kern__nccl {
  ncclComm_t *comm; /* per local shard */
  int dead;         /* aborted after a timeout */
};

static int nccl_load(void) {
  pthread_mutex_lock(&N.mu);
  if (N.tried) goto out;
  N.tried = 1;
  const char *env = getenv("KERN_NCCL_LIBRARY");
  if (env && env[0]) {
    char path[4096];
    struct stat st;
    if (stat(env, &st) == 0 && S_ISDIR(st.st_mode))
      snprintf(path, sizeof path, "%s/libnccl.so.2", env);
    else
      snprintf(path, sizeof path, "%s", env);
    N.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  }
  if (!N.lib) N.lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!N.lib) {
    snprintf(N.why, sizeof N.why,
             "unavailable: libnccl.so.2 not found (install NCCL or the "
             "nvidia-nccl-cu13 pip package and set KERN_NCCL_LIBRARY to "
             "its nvidia/nccl/lib directory)");
    goto out;
  }
#define SYM(n) (*(void **)&N.n = dlsym(N.lib, "nccl" #n))
  SYM(GetVersion);
  SYM(GetUniqueId);
  SYM(CommInitRank);
  SYM(CommInitAll);
  SYM(CommDestroy);
  SYM(CommAbort);
  SYM(GetErrorString);
  SYM(AllReduce);
  SYM(Broadcast);
  SYM(Reduce);
  SYM(AllGather);
  SYM(ReduceScatter);
  SYM(Send);
  SYM(Recv);
  SYM(GroupStart);
  SYM(GroupEnd);
#undef SYM
  if (!N.GetVersion || !N.GetUniqueId || !N.CommInitRank || !N.CommInitAll ||
      !N.CommDestroy || !N.CommAbort || !N.GetErrorString || !N.AllReduce ||
      !N.Broadcast || !N.Reduce || !N.AllGather || !N.ReduceScatter ||
      !N.Send || !N.Recv || !N.GroupStart || !N.GroupEnd) {
    snprintf(N.why, sizeof N.why,
             "unavailable: the NCCL library found lacks ncclSend/ncclRecv "
             "or another entry point (NCCL 2.7 or later is needed)");
    goto out;
  }
  N.ok = 1;
out:
  pthread_mutex_unlock(&N.mu);
  return N.ok;
}

int kern__nccl_available(char *why, size_t why_size) {
  int ok = nccl_load();
  if (!ok && why) snprintf(why, why_size, "%s", N.why);
  return ok;
}

static kern_status nccl_err(kern_group *g, ncclResult_t r, const char *what) {
  return kern__error(g->ctx, KERN_ERROR_DEVICE, "%s: NCCL error %d: %s", what,
                     r, N.GetErrorString ? N.GetErrorString(r) : "?");
}

static kern_status enter(kern_group *g, int i) {
  void *state;
  int index;
  kern__device_backend(g->ctx, g->dev[i], &state, &index);
  return kern__cuda_enter(state, index);
}

kern_status kern__nccl_open(kern_group *g) {
  if (!nccl_load())
    return kern__error(g->ctx, KERN_ERROR_BACKEND_UNAVAILABLE, "nccl: %s",
                       N.why);
  kern__nccl *n = kern__calloc(1, sizeof *n);
  if (n) n->comm = kern__calloc((size_t)g->nlocal, sizeof *n->comm);
  if (!n || !n->comm) {
    kern__free(n);
    return kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY, "nccl: out of memory");
  }
  kern_status st = KERN_SUCCESS;
  ncclResult_t r = 0;
  if (!g->mpi) {
    int *ord = kern__calloc((size_t)g->nlocal, sizeof *ord);
    if (!ord) {
      kern__free(n->comm);
      kern__free(n);
      return kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY,
                         "nccl: out of memory");
    }
    for (int i = 0; i < g->nlocal; i++) {
      void *state;
      kern__device_backend(g->ctx, g->dev[i], &state, &ord[i]);
      for (int j = 0; j < i; j++)
        if (ord[j] == ord[i])
          st = kern__error(g->ctx, KERN_ERROR_UNSUPPORTED,
                           "nccl: the group lists cuda:%d twice; NCCL needs "
                           "a different GPU per shard",
                           ord[i]);
    }
    if (st == KERN_SUCCESS && (st = enter(g, 0)) == KERN_SUCCESS &&
        (r = N.CommInitAll(n->comm, g->nlocal, ord)) != 0)
      st = nccl_err(g, r, "ncclCommInitAll");
    kern__free(ord);
  } else {
    ncclUniqueId id;
    memset(&id, 0, sizeof id);
    if (g->rank == 0 && (r = N.GetUniqueId(&id)) != 0)
      st = nccl_err(g, r, "ncclGetUniqueId");
    /* Rank 0's failure reaches the others as a timeout-free error through
     * the broadcast of an all-zero id, which NCCL then refuses. */
    if (st == KERN_SUCCESS || g->rank == 0) {
      kern_status bs = kern__mpi_bcast(g, &id, sizeof id, 0);
      if (st == KERN_SUCCESS) st = bs;
    }
    if (st == KERN_SUCCESS && (st = enter(g, 0)) == KERN_SUCCESS &&
        (r = N.CommInitRank(&n->comm[0], g->nranks, id, g->rank)) != 0)
      st = nccl_err(g, r, "ncclCommInitRank");
  }
  if (st) {
    kern__free(n->comm);
    kern__free(n);
    return st;
  }
  g->nccl = n;
  return KERN_SUCCESS;
}

void kern__nccl_close(kern_group *g) {
  kern__nccl *n = g->nccl;
  if (!n) return;
  for (int i = 0; i < g->nlocal; i++)
    if (n->comm[i]) {
      enter(g, i);
      if (n->dead) N.CommAbort(n->comm[i]);
      else N.CommDestroy(n->comm[i]);
    }
  kern__free(n->comm);
  kern__free(n);
  g->nccl = NULL;
}

/* The NCCL type of a sharded array's scalars, or -1. */
static int nccl_type(kern_scalar sc) {
  switch (sc) {
  case KERN_SCALAR_BOOL: return ncclUint8;
  case KERN_SCALAR_INT8: return ncclInt8;
  case KERN_SCALAR_UINT8: return ncclUint8;
  case KERN_SCALAR_INT32: return ncclInt32;
  case KERN_SCALAR_UINT32: return ncclUint32;
  case KERN_SCALAR_INT64: return ncclInt64;
  case KERN_SCALAR_UINT64: return ncclUint64;
  case KERN_SCALAR_FLOAT32: return ncclFloat32;
  case KERN_SCALAR_FLOAT64: return ncclFloat64;
  default: return -1;
  }
}

static int nccl_op(kern_scalar sc, kern_reduce_op op) {
  if (sc == KERN_SCALAR_BOOL) /* sum and max are "or", min is "and" */
    return op == KERN_REDUCE_MIN ? ncclMin : ncclMax;
  return op == KERN_REDUCE_SUM ? ncclSum : op == KERN_REDUCE_MIN ? ncclMin
                                                                 : ncclMax;
}

static char *dptr(const kern_sharded *s, int i, size_t off) {
  return (char *)kern__shard_array(s, i)->data + off;
}

static void *cstream(const kern_group *g, int i) {
  return kern_stream_native(g->stream[i]);
}

void kern__nccl_poison(kern_group *g) {
  if (g->nccl) g->nccl->dead = 1;
}

/* Waits for every local stream against the deadline; a timeout aborts the
 * communicators (the collective can never finish).  Without wait only the
 * enqueueing's result counts: NCCL is ordered on the shards' streams like
 * any other work, so the asynchronous forms leave the wait to
 * kern_group_synchronize (or to a later wait on a shard's stream). */
static kern_status finish(kern_group *g, ncclResult_t r, const char *what,
                          int wait) {
  kern_status st = r != 0 ? nccl_err(g, r, what) : KERN_SUCCESS;
  if (!wait) {
    if (st != KERN_SUCCESS && g->nccl) g->nccl->dead = 1;
    return st;
  }
  for (int i = 0; i < g->nlocal; i++) {
    kern_status ws = kern__shard_wait(g, i, what);
    if (st == KERN_SUCCESS) st = ws;
  }
  if (st != KERN_SUCCESS && g->nccl) g->nccl->dead = 1;
  return st;
}

#define GROUP_BEGIN()                                                        \
  ncclResult_t r = N.GroupStart();                                           \
  kern_status est = KERN_SUCCESS;
#define GROUP_END(what)                                                      \
  {                                                                          \
    ncclResult_t r2 = N.GroupEnd();                                          \
    if (r == 0) r = r2;                                                      \
  }                                                                          \
  if (est != KERN_SUCCESS) return est;                                       \
  return finish(g, r, what, wait);

kern_status kern__nccl_all_reduce(kern_sharded *s, kern_reduce_op op,
                                  int wait) {
  kern_group *g = s->g;
  int dt = nccl_type(s->type.scalar);
  if (dt < 0)
    return kern__error(g->ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_sharded_all_reduce: NCCL has no %s",
                       kern_scalar_name(s->type.scalar));
  size_t count = (size_t)s->shape[0] * s->rowbytes / s->scalar_size;
  if (count == 0) return KERN_SUCCESS; /* the same on every rank */
  GROUP_BEGIN();
  for (int i = 0; i < g->nlocal && r == 0 && est == KERN_SUCCESS; i++) {
    if ((est = enter(g, i))) break;
    r = N.AllReduce(dptr(s, i, 0), dptr(s, i, 0), count, dt,
                    nccl_op(s->type.scalar, op), g->nccl->comm[i],
                    cstream(g, i));
  }
  GROUP_END("ncclAllReduce");
}

kern_status kern__nccl_all_gather(const kern_sharded *src, kern_sharded *dst,
                                  int wait) {
  kern_group *g = src->g;
  int P = g->nshards;
  int even = src->shape[0] % P == 0;
  if (src->shape[0] == 0 || src->rowbytes == 0) return KERN_SUCCESS;
  GROUP_BEGIN();
  for (int i = 0; i < g->nlocal && r == 0 && est == KERN_SUCCESS; i++) {
    int k = g->first + i;
    if ((est = enter(g, i))) break;
    char *mine = dptr(src, i, (size_t)kern__shard_halo_lo(src, k) * src->rowbytes);
    if (even) {
      r = N.AllGather(mine, dptr(dst, i, 0), (size_t)src->rows[k] * src->rowbytes,
                      ncclInt8, g->nccl->comm[i], cstream(g, i));
      continue;
    }
    /* Shards of different sizes: one broadcast per shard. */
    for (int root = 0; root < P && r == 0; root++)
      if (src->rows[root] > 0) /* empty shards send nothing */
        r = N.Broadcast(mine, dptr(dst, i, (size_t)src->first[root] * src->rowbytes),
                      (size_t)src->rows[root] * src->rowbytes, ncclInt8, root,
                      g->nccl->comm[i], cstream(g, i));
  }
  GROUP_END("ncclAllGather");
}

kern_status kern__nccl_reduce_scatter(const kern_sharded *src,
                                      kern_sharded *dst, kern_reduce_op op,
                                      int wait) {
  kern_group *g = src->g;
  int dt = nccl_type(src->type.scalar);
  if (dt < 0)
    return kern__error(g->ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_sharded_reduce_scatter: NCCL has no %s",
                       kern_scalar_name(src->type.scalar));
  int P = g->nshards, o = nccl_op(src->type.scalar, op);
  size_t per_row = src->rowbytes / src->scalar_size;
  int even = src->shape[0] % P == 0;
  if (src->shape[0] == 0 || per_row == 0) return KERN_SUCCESS;
  GROUP_BEGIN();
  for (int i = 0; i < g->nlocal && r == 0 && est == KERN_SUCCESS; i++) {
    int k = g->first + i;
    if ((est = enter(g, i))) break;
    char *mine = dptr(dst, i, (size_t)kern__shard_halo_lo(dst, k) * dst->rowbytes);
    if (even) {
      r = N.ReduceScatter(dptr(src, i, 0), mine, (size_t)dst->rows[k] * per_row,
                          dt, o, g->nccl->comm[i], cstream(g, i));
      continue;
    }
    for (int root = 0; root < P && r == 0; root++)
      if (dst->rows[root] > 0)
        r = N.Reduce(dptr(src, i, (size_t)dst->first[root] * src->rowbytes), mine,
                   (size_t)dst->rows[root] * per_row, dt, o, root,
                   g->nccl->comm[i], cstream(g, i));
  }
  GROUP_END("ncclReduceScatter");
}

kern_status kern__nccl_broadcast(kern_sharded *s, int root, int wait) {
  kern_group *g = s->g;
  size_t nb = (size_t)s->shape[0] * s->rowbytes;
  if (nb == 0) return KERN_SUCCESS;
  GROUP_BEGIN();
  for (int i = 0; i < g->nlocal && r == 0 && est == KERN_SUCCESS; i++) {
    if ((est = enter(g, i))) break;
    r = N.Broadcast(dptr(s, i, 0), dptr(s, i, 0), nb, ncclInt8, root,
                    g->nccl->comm[i], cstream(g, i));
  }
  GROUP_END("ncclBroadcast");
}

kern_status kern__nccl_halo(kern_sharded *s, int wait) {
  kern_group *g = s->g;
  int P = g->nshards;
  size_t part = (size_t)s->halo * s->rowbytes;
  GROUP_BEGIN();
  for (int i = 0; i < g->nlocal && r == 0 && est == KERN_SUCCESS; i++) {
    int k = g->first + i;
    if ((est = enter(g, i))) break;
    size_t lo = (size_t)kern__shard_halo_lo(s, k) * s->rowbytes;
    size_t own = (size_t)s->rows[k] * s->rowbytes;
    ncclComm_t c = g->nccl->comm[i];
    void *cs = cstream(g, i);
    if (k > 0) {
      r = N.Send(dptr(s, i, lo), part, ncclInt8, k - 1, c, cs);
      if (r == 0) r = N.Recv(dptr(s, i, 0), part, ncclInt8, k - 1, c, cs);
    }
    if (r == 0 && k < P - 1) {
      r = N.Send(dptr(s, i, lo + own - part), part, ncclInt8, k + 1, c, cs);
      if (r == 0) r = N.Recv(dptr(s, i, lo + own), part, ncclInt8, k + 1, c, cs);
    }
  }
  GROUP_END("ncclSend/ncclRecv (halo)");
}
