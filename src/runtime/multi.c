/*
 * multi.c -- groups of devices, sharded arrays and their collectives
 * (issue #15; docs/multigpu.md).
 *
 * A group is a list of local shards, each a device and a stream of its own,
 * plus, under MPI, the other ranks (one shard each).  A sharded array is an
 * ordinary kern_array per local shard holding the rows it owns and its halo
 * rows.  Launches run every local shard's part of the grid on the shard's
 * stream (Note [shard launch]); the synchronous forms then wait for all of
 * them, the asynchronous ones return (Note [launch cost], Note
 * [asynchronous collectives]).  Collectives go through NCCL on CUDA
 * (nccl.c) and through host memory otherwise: the local shards' data is
 * downloaded, exchanged between ranks with MPI (mpi.c) when there are
 * several, combined, and uploaded again.  That host path is for the CPU
 * backend and OpenCL, where "device memory" is host memory or close to it;
 * its speed is not the point, its agreement with the NCCL path is.
 *
 * Note [rank agreement]
 * A collective that some rank never enters waits forever in NCCL and MPI.
 * So before every collective the ranks agree, through rank 0, on what they
 * are about to do: each sends a header (the operation, a counter of the
 * group's collectives, a hash of the arrays' types and shapes, and whether
 * it has failed), rank 0 compares them and sends every rank the same
 * verdict.  A mismatch, a rank that failed earlier or one that is freeing
 * its group makes every rank return the same error; a rank that does not
 * arrive at all makes the others time out.  Only then does data move, so a
 * data transfer never waits for a rank that is not there, except one that
 * dies in the middle, which the timeout covers too.  The header costs one
 * small message each way (tens of microseconds), once per collective.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "multi.h"

/* The operations, for the agreement's headers and messages. */
enum {
  OP_GROUP_NEW = 1,
  OP_GROUP_FREE = KERN__OP_GROUP_FREE,
  OP_SYNC,
  OP_SHARDED_NEW,
  OP_DOWNLOAD,
  OP_ALL_REDUCE,
  OP_ALL_GATHER,
  OP_REDUCE_SCATTER,
  OP_BROADCAST,
  OP_HALO
};

/* ---------------------------------------------------------------- helpers */

static kern_group *group_enter(const kern_group *h) {
  kern_group *g = kern__handle_get(h, KERN__H_GROUP);
  if (g) kern__call_begin(g->ctx);
  return g;
}

static kern_sharded *sharded_enter(const kern_sharded *h) {
  kern_sharded *s = kern__handle_get(h, KERN__H_SHARDED);
  if (s) kern__call_begin(s->g->ctx);
  return s;
}

kern_array *kern__shard_array(const kern_sharded *s, int i) {
  return kern__handle_get(s->arr[i], KERN__H_ARRAY);
}

kern_stream *kern__shard_stream(const kern_group *g, int i) {
  return kern__handle_get(g->stream[i], KERN__H_STREAM);
}

kern_status kern__group_fail(kern_group *g, kern_status st) {
  if (st != KERN_SUCCESS && g->failed == KERN_SUCCESS) {
    g->failed = st;
    snprintf(g->failmsg, sizeof g->failmsg, "%s", kern_last_error(g->ctx->h));
  }
  return st;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

kern_status kern__shard_wait(kern_group *g, int i, const char *what) {
  /* In one process every shard's work is ours and will finish. */
  if (!g->mpi) return kern_stream_synchronize(g->stream[i]);
  double deadline = now_s() + g->timeout_s;
  long sleep_ns = 1000;
  for (;;) {
    int done = 0;
    kern_status st = kern_stream_query(g->stream[i], &done);
    if (st != KERN_SUCCESS) return kern__group_fail(g, st);
    if (done) return kern_stream_synchronize(g->stream[i]);
    if (now_s() > deadline)
      return kern__group_fail(
          g, kern__error(g->ctx, KERN_ERROR_DEVICE,
                         "%s: timed out after %g s waiting for shard %d "
                         "(another rank stopped?)",
                         what, g->timeout_s, g->first + i));
    struct timespec ts = {0, sleep_ns};
    nanosleep(&ts, NULL);
    /* A short cap: the poll's latency adds to every collective's time. */
    if (sleep_ns < 20000) sleep_ns *= 2;
  }
}

int64_t kern__shard_halo_lo(const kern_sharded *s, int shard) {
  if (s->replicated) return 0;
  int64_t f = s->first[shard];
  return f < s->halo ? f : s->halo;
}

int64_t kern__shard_halo_hi(const kern_sharded *s, int shard) {
  if (s->replicated) return 0;
  int64_t after = s->shape[0] - (s->first[shard] + s->rows[shard]);
  return after < s->halo ? after : s->halo;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

static void shape_text(char *buf, size_t size, const char *prefix,
                       const kern_sharded *s) {
  char tn[32];
  kern_type_name(s->type, tn, sizeof tn);
  size_t k = (size_t)snprintf(buf, size, "%s%s%s(", prefix, tn,
                              s->replicated ? " replicated " : " ");
  for (int i = 0; i < s->ndim && k < size; i++)
    k += (size_t)snprintf(buf + k, size - k, "%s%" PRId64, i ? ", " : "",
                          s->shape[i]);
  if (k < size)
    snprintf(buf + k, size - k, s->replicated || !s->halo ? ")"
                                : ") halo %d", s->halo);
}

static uint64_t sharded_sig(uint64_t h, const kern_sharded *s) {
  h = fnv(h, &s->type, sizeof s->type);
  h = fnv(h, &s->ndim, sizeof s->ndim);
  h = fnv(h, s->shape, sizeof s->shape);
  h = fnv(h, &s->halo, sizeof s->halo);
  return fnv(h, &s->replicated, sizeof s->replicated);
}

/* Note [rank agreement]: every rank calls this before a collective. */
static kern_status agree(kern_group *g, int op, int arg, uint64_t sig,
                         const char *what) {
  kern_context *ctx = g->ctx;
  if (!g->mpi) {
    if (g->failed)
      return kern__error(ctx, g->failed, "%s: the group failed earlier: %s",
                         what, g->failmsg);
    return KERN_SUCCESS;
  }
  kern__hdr h;
  memset(&h, 0, sizeof h);
  h.magic = 0x6b65726eu;
  h.status = (int32_t)g->failed;
  h.seq = ++g->seq;
  h.op = op;
  h.arg = arg;
  h.sig = sig;
  snprintf(h.what, sizeof h.what, "%s", what);
  /* The note is a prefix of the failure message: enough to tell why. */
  memcpy(h.note, g->failmsg, sizeof h.note - 1);
  char msg[512];
  kern_status st = kern__mpi_agree(g, &h, msg, sizeof msg);
  if (st != KERN_SUCCESS) {
    kern__error(ctx, st, "%s", msg);
    return kern__group_fail(g, st);
  }
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- groups */

/* Appends the devices named by one entry of a device list to *devs. */
static kern_status add_devices(kern_context *ctx, const char *entry,
                               char *backend, size_t bsize, kern_device **devs,
                               int *n, int *cap) {
  char name[128];
  const char *colon = strchr(entry, ':');
  int digits = entry[0] && strspn(entry, "0123456789") == strlen(entry);
  if (digits && backend[0]) {
    snprintf(name, sizeof name, "%s:%s", backend, entry);
  } else {
    snprintf(name, sizeof name, "%s", entry);
    size_t bl = colon ? (size_t)(colon - entry) : strlen(entry);
    if (bl >= bsize) bl = bsize - 1;
    memcpy(backend, entry, bl);
    backend[bl] = 0;
  }
  int all = colon && strcmp(colon + 1, "all") == 0;
  int count = 1;
  kern_device first = 0;
  if (all) {
    kern_backend_info bi = KERN_BACKEND_INFO_INIT;
    int b;
    for (b = 0; b < KERN_BACKEND_COUNT; b++)
      if (ctx->backends[b] && strcmp(ctx->backends[b]->name, backend) == 0)
        break;
    if (b == KERN_BACKEND_COUNT)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "device list: unknown backend in '%s'", entry);
    kern_status st = kern_backend_get(ctx->h, (kern_backend_kind)b, &bi);
    if (st) return st;
    if (bi.device_count == 0)
      return kern__error(ctx, KERN_ERROR_NOT_FOUND,
                         "device list: '%s': backend %s has no devices%s%s",
                         entry, backend, bi.reason[0] ? ": " : "", bi.reason);
    count = bi.device_count;
    snprintf(name, sizeof name, "%s:0", backend);
    kern_status fs = kern_device_find(ctx->h, name, &first);
    if (fs) return fs;
  } else {
    kern_status st = kern_device_find(ctx->h, name, &first);
    if (st) return st;
  }
  for (int i = 0; i < count; i++) {
    if (*n == *cap) {
      int nc = *cap ? 2 * *cap : 8;
      kern_device *d = kern__realloc(*devs, (size_t)nc * sizeof *d);
      if (!d)
        return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                           "kern_group_new: out of memory");
      *devs = d;
      *cap = nc;
    }
    (*devs)[(*n)++] = first + i; /* a backend's devices are consecutive */
  }
  return KERN_SUCCESS;
}

/* Parses "cuda:0,1", "cuda:all", "cpu:0,0,0", "cuda:0,cuda:1". */
static kern_status parse_devices(kern_context *ctx, const char *spec,
                                 kern_device **devs, int *n) {
  int cap = 0;
  *devs = NULL;
  *n = 0;
  char backend[32] = "";
  const char *p = spec;
  while (*p) {
    size_t len = strcspn(p, ",");
    char entry[96];
    if (len == 0 || len >= sizeof entry) {
      kern__free(*devs);
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "device list '%s': empty or overlong entry at "
                         "column %d",
                         spec, (int)(p - spec) + 1);
    }
    memcpy(entry, p, len);
    entry[len] = 0;
    kern_status st = add_devices(ctx, entry, backend, sizeof backend, devs, n,
                                 &cap);
    if (st) {
      kern__free(*devs);
      *devs = NULL;
      return st;
    }
    p += len;
    if (*p == ',') p++;
  }
  if (*n == 0)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "device list '%s' names no device", spec);
  return KERN_SUCCESS;
}

static int env_mpi(void) {
  return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") ||
         getenv("PMIX_RANK");
}

static void group_destroy(kern_group *g);
static void forget_kernels(kern_group *g);

kern_status kern_group_new(kern_context *hctx, const kern_group_options *hopts,
                           kern_group **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_group_new: out is NULL");
  kern_group_options o = KERN_GROUP_OPTIONS_INIT;
  if (hopts && kern__struct_in(&o, sizeof o, hopts,
                               KERN_GROUP_OPTIONS_SIZE_V1) != KERN_SUCCESS)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_group_new: bad options.struct_size %zu",
                       hopts->struct_size);
  if (o.shards < 0 || o.mpi < -1 || o.mpi > 1 || !(o.timeout_s >= 0))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_group_new: shards must be >= 0, mpi -1, 0 or 1 "
                       "and timeout_s >= 0");
  int use_mpi = o.mpi == 1 || (o.mpi == 0 && env_mpi());
  double timeout = o.timeout_s;
  if (timeout == 0) {
    const char *e = getenv("KERN_COMM_TIMEOUT");
    timeout = e && atof(e) > 0 ? atof(e) : 300;
  }

  char spec[256];
  if (o.devices && o.devices[0]) {
    snprintf(spec, sizeof spec, "%s", o.devices);
  } else {
    char origin[300];
    kern_status st = kern_device_choice(ctx->h, spec, sizeof spec, origin,
                                        sizeof origin);
    if (st) return st;
  }
  kern_device *list = NULL;
  int nlist = 0;
  kern_status st = parse_devices(ctx, spec, &list, &nlist);
  if (st && !use_mpi) return st;
  /* Under MPI a local mistake is still reported to the other ranks (at the
   * agreement below), so that they fail at once instead of timing out. */
  kern_status early = st;

  kern_group *g = kern__calloc(1, sizeof *g);
  if (!g) {
    kern__free(list);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_group_new: out of memory");
  }
  g->ctx = ctx;
  g->timeout_s = timeout;
  g->nranks = 1;
  if (use_mpi) {
    if (o.shards > 1 && !early)
      early = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                          "kern_group_new: under MPI every rank has one "
                          "shard (shards = %d)",
                          o.shards);
    /* Without MPI there is nobody to tell. */
    if ((st = kern__mpi_open(g, &g->rank, &g->nranks))) {
      kern__free(list);
      kern__free(g);
      return st;
    }
    const char *lr = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    if (!lr) lr = getenv("MPI_LOCALRANKID");
    int local = lr ? atoi(lr) : g->rank;
    if (list) list[0] = list[local % nlist];
    g->nlocal = 1;
    g->nshards = g->nranks;
    g->first = g->rank;
  } else {
    g->nlocal = o.shards > 0 ? o.shards : nlist;
    g->nshards = g->nlocal;
  }
  g->dev = kern__calloc((size_t)g->nlocal, sizeof *g->dev);
  g->stream = kern__calloc((size_t)g->nlocal, sizeof *g->stream);
  if (!g->dev || !g->stream) {
    kern__free(list);
    group_destroy(g);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_group_new: out of memory");
  }
  for (int i = 0; list && i < g->nlocal; i++) g->dev[i] = list[i % nlist];
  kern__free(list);

  st = early;
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++) {
    if ((st = kern__device_get(ctx, g->dev[i], &di))) break;
    if (i == 0) g->backend = di.backend;
    if (di.backend != g->backend)
      st = kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_group_new: '%s' mixes backends; a group's "
                       "devices are all of one backend",
                       spec);
  }
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++)
    st = kern_stream_new(ctx->h, g->dev[i], &g->stream[i]);
  g->transport = g->backend == KERN_BACKEND_CUDA ? KERN__T_NCCL
                 : g->mpi                        ? KERN__T_MPI
                                                 : KERN__T_HOST;
  if (g->mpi) {
    /* Even after a local failure: the others then fail too, at once,
     * instead of timing out. */
    char what[96];
    snprintf(what, sizeof what, "kern_group_new on %s",
             ctx->backends[g->backend]->name);
    if (st) kern__group_fail(g, st);
    kern_status ast = agree(g, OP_GROUP_NEW, (int)g->backend,
                            fnv(14695981039346656037ull, &g->backend,
                                sizeof g->backend),
                            what);
    if (st == KERN_SUCCESS) st = ast;
  }
  if (st == KERN_SUCCESS && !(g->h = kern__handle_new(KERN__H_GROUP, g)))
    st = kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                     "kern_group_new: out of memory");
  if (st) {
    group_destroy(g);
    return st;
  }
  g->next = ctx->groups;
  if (ctx->groups) ctx->groups->prev = g;
  ctx->groups = g;
  *out = g->h;
  return KERN_SUCCESS;
}

static void sharded_destroy(kern_sharded *s);

static void group_destroy(kern_group *g) {
  kern_context *ctx = g->ctx;
  /* Collective: tells the others that this rank leaves (unless a timeout
   * left the ranks out of step, when nobody would answer). */
  if (g->mpi && g->h && !g->timed_out)
    agree(g, OP_GROUP_FREE, 0, 0, "kern_group_free");
  /* Asynchronous collectives may still be in flight: they get the group's
   * deadline to finish, and the communicators are aborted, not destroyed,
   * if they do not (a rank left), before the arrays they use are freed. */
  if (g->nccl) {
    for (int i = 0; i < g->nlocal; i++)
      if (kern__shard_wait(g, i, "kern_group_free") != KERN_SUCCESS)
        kern__nccl_poison(g);
    kern__nccl_close(g);
  }
  while (g->sharded) sharded_destroy(g->sharded);
  forget_kernels(g);
  kern__free(g->la);
  kern__free(g->sh);
  for (kern__gmod *m = g->mods, *next; m; m = next) {
    next = m->next;
    for (int i = 0; i < g->nlocal; i++) {
      int shared = 0;
      for (int j = 0; j < i; j++) shared |= m->mods[j] == m->mods[i];
      if (!shared) kern_module_free(m->mods[i]);
    }
    kern__free(m->mods);
    kern__free(m);
  }
  if (g->stream)
    for (int i = 0; i < g->nlocal; i++)
      if (g->stream[i]) kern_stream_free(g->stream[i]);
  if (g->mpi) kern__mpi_close(g);
  if (g->h) {
    kern__handle_release(g->h, KERN__H_GROUP);
    if (g->prev) g->prev->next = g->next;
    else ctx->groups = g->next;
    if (g->next) g->next->prev = g->prev;
  }
  kern__free(g->dev);
  kern__free(g->stream);
  kern__free(g);
}

void kern_group_free(kern_group *h) {
  kern_group *g = group_enter(h);
  if (g) group_destroy(g);
}

void kern__multi_free(kern_context *ctx) {
  while (ctx->groups) group_destroy(ctx->groups);
}

int kern_group_size(const kern_group *h) {
  kern_group *g = kern__handle_get(h, KERN__H_GROUP);
  return g ? g->nshards : 0;
}

int kern_group_local_size(const kern_group *h) {
  kern_group *g = kern__handle_get(h, KERN__H_GROUP);
  return g ? g->nlocal : 0;
}

int kern_group_rank(const kern_group *h) {
  kern_group *g = kern__handle_get(h, KERN__H_GROUP);
  return g ? g->rank : 0;
}

int kern_group_nranks(const kern_group *h) {
  kern_group *g = kern__handle_get(h, KERN__H_GROUP);
  return g ? g->nranks : 0;
}

int kern_group_first_shard(const kern_group *h) {
  kern_group *g = kern__handle_get(h, KERN__H_GROUP);
  return g ? g->first : 0;
}

kern_device kern_group_device(const kern_group *h, int i) {
  kern_group *g = kern__handle_get(h, KERN__H_GROUP);
  return g && i >= 0 && i < g->nlocal ? g->dev[i] : -1;
}

kern_status kern_group_stream(const kern_group *h, int i, kern_stream **out) {
  kern_group *g = group_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  if (i < 0 || i >= g->nlocal || !out)
    return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_group_stream: no local shard %d (there are %d)",
                       i, g->nlocal);
  *out = g->stream[i];
  return KERN_SUCCESS;
}

const char *kern_group_transport(const kern_group *h) {
  kern_group *g = kern__handle_get(h, KERN__H_GROUP);
  if (!g) return "";
  return g->transport == KERN__T_NCCL ? "nccl"
         : g->transport == KERN__T_MPI ? "mpi"
                                       : "host";
}

static kern_status group_load(kern_group *g, const char *path,
                              const char *name, const char *src, size_t len) {
  kern__gmod *m = kern__calloc(1, sizeof *m);
  kern_module **mods = kern__calloc((size_t)g->nlocal, sizeof *mods);
  if (!m || !mods) {
    kern__free(m);
    kern__free(mods);
    return kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_group_load: out of memory");
  }
  m->mods = mods;
  kern_status st = KERN_SUCCESS;
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++) {
    for (int j = 0; j < i; j++)
      if (g->dev[j] == g->dev[i]) mods[i] = mods[j];
    if (mods[i]) continue;
    st = path ? kern_module_load_file(g->ctx->h, g->dev[i], path, &mods[i])
              : kern_module_load_string(g->ctx->h, g->dev[i], name, src, len,
                                        &mods[i]);
  }
  if (st) {
    for (int i = 0; i < g->nlocal; i++) {
      int shared = 0;
      for (int j = 0; j < i; j++) shared |= mods[j] == mods[i];
      if (!shared && mods[i]) kern_module_free(mods[i]);
    }
    kern__free(mods);
    kern__free(m);
    return kern__group_fail(g, st);
  }
  m->next = g->mods;
  g->mods = m;
  forget_kernels(g); /* the new module may shadow a kernel's name */
  return KERN_SUCCESS;
}

kern_status kern_group_load_file(kern_group *h, const char *path) {
  kern_group *g = group_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  return group_load(g, path, NULL, NULL, 0);
}

kern_status kern_group_load_string(kern_group *h, const char *name,
                                   const char *source, size_t length) {
  kern_group *g = group_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  return group_load(g, NULL, name, source, length);
}

kern_status kern_group_synchronize(kern_group *h) {
  kern_group *g = group_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  /* The asynchronous collectives' NCCL work may wait for a rank that never
   * comes: kern__shard_wait polls against the group's deadline under MPI,
   * and a failed wait leaves the communicators to be aborted. */
  kern_status st = KERN_SUCCESS;
  for (int i = 0; i < g->nlocal; i++) {
    kern_status ws = kern__shard_wait(g, i, "kern_group_synchronize");
    if (st == KERN_SUCCESS) st = ws;
  }
  if (st) {
    kern__nccl_poison(g);
    return kern__group_fail(g, st);
  }
  return agree(g, OP_SYNC, 0, 0, "kern_group_synchronize");
}

/* ---------------------------------------------------------------- arrays */

static kern_status sharded_make(kern_group *g, kern_type type, int ndim,
                                const int64_t *shape, int halo,
                                int replicated, kern_sharded **out) {
  kern_context *ctx = g->ctx;
  const char *fn = replicated ? "kern_sharded_new_replicated"
                              : "kern_sharded_new";
  if (!out || !shape || ndim < 1 || ndim > KERN_MAX_DIMS || halo < 0 ||
      kern_type_size(type) == 0)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: needs a valid type, 1 to %d dimensions, a shape, "
                       "a halo >= 0 and out",
                       fn, KERN_MAX_DIMS);
  kern_sharded *s = kern__calloc(1, sizeof *s);
  if (!s) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
  s->g = g;
  s->replicated = replicated;
  s->type = type;
  s->ndim = ndim;
  s->halo = replicated ? 0 : halo;
  s->rowelems = 1;
  for (int i = 0; i < KERN_MAX_DIMS; i++) {
    s->shape[i] = i < ndim ? shape[i] : 1;
    if (s->shape[i] < 0) {
      kern__free(s);
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: shape[%d] is negative", fn, i);
    }
    if (i > 0) s->rowelems *= s->shape[i];
  }
  s->scalar_size = kern_scalar_size(type.scalar);
  s->rowbytes = (size_t)s->rowelems * kern_type_size(type);
  char what[96];
  shape_text(what, sizeof what, "kern_sharded_new ", s);
  kern_status st = agree(g, OP_SHARDED_NEW, 0,
                         sharded_sig(14695981039346656037ull, s), what);
  if (st) {
    kern__free(s);
    return st;
  }
  s->first = kern__calloc((size_t)g->nshards, sizeof *s->first);
  s->rows = kern__calloc((size_t)g->nshards, sizeof *s->rows);
  s->arr = kern__calloc((size_t)g->nlocal, sizeof *s->arr);
  if (!s->first || !s->rows || !s->arr) {
    st = kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
    goto fail;
  }
  int64_t n = s->shape[0], P = g->nshards;
  for (int k = 0; k < P; k++) {
    if (replicated) {
      s->first[k] = 0;
      s->rows[k] = n;
    } else {
      int64_t base = n / P, rem = n % P;
      s->rows[k] = base + (k < rem);
      s->first[k] = k * base + (k < rem ? k : rem);
    }
  }
  for (int i = 0; i < g->nlocal; i++) {
    int k = g->first + i;
    int64_t lshape[KERN_MAX_DIMS];
    memcpy(lshape, s->shape, sizeof lshape);
    lshape[0] = s->rows[k] + kern__shard_halo_lo(s, k) +
                kern__shard_halo_hi(s, k);
    if ((st = kern_array_new(ctx->h, g->dev[i], type, ndim, lshape,
                             &s->arr[i])))
      goto fail;
  }
  if (!(s->h = kern__handle_new(KERN__H_SHARDED, s))) {
    st = kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
    goto fail;
  }
  s->next = g->sharded;
  if (g->sharded) g->sharded->prev = s;
  g->sharded = s;
  *out = s->h;
  return KERN_SUCCESS;
fail:
  if (s->arr)
    for (int i = 0; i < g->nlocal; i++) kern_array_free(s->arr[i]);
  kern__free(s->arr);
  kern__free(s->first);
  kern__free(s->rows);
  kern__free(s);
  return kern__group_fail(g, st);
}

kern_status kern_sharded_new(kern_group *h, kern_type type, int ndim,
                             const int64_t *shape, int halo,
                             kern_sharded **out) {
  kern_group *g = group_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  return sharded_make(g, type, ndim, shape, halo, 0, out);
}

kern_status kern_sharded_new_replicated(kern_group *h, kern_type type,
                                        int ndim, const int64_t *shape,
                                        kern_sharded **out) {
  kern_group *g = group_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  return sharded_make(g, type, ndim, shape, 0, 1, out);
}

static void sharded_destroy(kern_sharded *s) {
  kern_group *g = s->g;
  for (int i = 0; i < g->nlocal; i++) kern_array_free(s->arr[i]);
  kern__handle_release(s->h, KERN__H_SHARDED);
  if (s->prev) s->prev->next = s->next;
  else g->sharded = s->next;
  if (s->next) s->next->prev = s->prev;
  kern__free(s->arr);
  kern__free(s->first);
  kern__free(s->rows);
  kern__free(s);
}

void kern_sharded_free(kern_sharded *h) {
  kern_sharded *s = sharded_enter(h);
  if (s) sharded_destroy(s);
}

kern_status kern_sharded_shard(const kern_sharded *h, int i,
                               kern_array **array, int64_t *first_row,
                               int64_t *rows, int64_t *halo_lo) {
  kern_sharded *s = sharded_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  if (i < 0 || i >= s->g->nlocal)
    return kern__error(s->g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_sharded_shard: no local shard %d (there are %d)",
                       i, s->g->nlocal);
  int k = s->g->first + i;
  if (array) *array = s->arr[i];
  if (first_row) *first_row = s->first[k];
  if (rows) *rows = s->rows[k];
  if (halo_lo) *halo_lo = kern__shard_halo_lo(s, k);
  return KERN_SUCCESS;
}

int64_t kern_sharded_dim(const kern_sharded *h, int axis) {
  kern_sharded *s = kern__handle_get(h, KERN__H_SHARDED);
  return s && axis >= 0 && axis < s->ndim ? s->shape[axis] : 0;
}

static size_t total_bytes(const kern_sharded *s) {
  return (size_t)s->shape[0] * s->rowbytes;
}

/* Copies between local shard i's array (at byte offset off) and host. */
static kern_status shard_put(kern_sharded *s, int i, size_t off,
                             const void *src, size_t n) {
  if (n == 0) return KERN_SUCCESS;
  kern_status st = kern_array_upload_async(s->arr[i], s->g->stream[i], off,
                                           src, n);
  if (st == KERN_SUCCESS) st = kern_stream_synchronize(s->g->stream[i]);
  return st;
}

static kern_status shard_get(const kern_sharded *s, int i, size_t off,
                             void *dst, size_t n) {
  if (n == 0) return KERN_SUCCESS;
  kern_status st = kern_array_download_async(s->arr[i], s->g->stream[i], off,
                                             dst, n);
  if (st == KERN_SUCCESS) st = kern_stream_synchronize(s->g->stream[i]);
  return st;
}

kern_status kern_sharded_upload(kern_sharded *h, const void *src,
                                size_t nbytes) {
  kern_sharded *s = sharded_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_group *g = s->g;
  if (!src || nbytes != total_bytes(s))
    return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_sharded_upload: nbytes is %zu, the array has "
                       "%zu",
                       nbytes, total_bytes(s));
  const char *b = src;
  for (int i = 0; i < g->nlocal; i++) {
    int k = g->first + i;
    int64_t lo = kern__shard_halo_lo(s, k);
    int64_t n = lo + s->rows[k] + kern__shard_halo_hi(s, k);
    if (n == 0 || s->rowbytes == 0) continue; /* an empty shard */
    kern_status st = kern_array_upload_async(
        s->arr[i], g->stream[i], 0, b + (size_t)(s->first[k] - lo) * s->rowbytes,
        (size_t)n * s->rowbytes);
    if (st) return kern__group_fail(g, st);
  }
  for (int i = 0; i < g->nlocal; i++) {
    kern_status st = kern_stream_synchronize(g->stream[i]);
    if (st) return kern__group_fail(g, st);
  }
  return KERN_SUCCESS;
}

static kern_status sharded_fill(kern_sharded *h, const void *value, int wait,
                                const char *fn) {
  kern_sharded *s = sharded_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_group *g = s->g;
  if (!value)
    return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: value is NULL", fn);
  for (int i = 0; i < g->nlocal; i++) {
    if (kern_array_nbytes(s->arr[i]) == 0) continue; /* an empty shard */
    kern_status st = kern_array_fill_async(s->arr[i], g->stream[i], value);
    if (st) return kern__group_fail(g, st);
  }
  for (int i = 0; wait && i < g->nlocal; i++) {
    kern_status st = kern_stream_synchronize(g->stream[i]);
    if (st) return kern__group_fail(g, st);
  }
  return KERN_SUCCESS;
}

kern_status kern_sharded_fill(kern_sharded *h, const void *value) {
  return sharded_fill(h, value, 1, "kern_sharded_fill");
}

kern_status kern_sharded_fill_async(kern_sharded *h, const void *value) {
  return sharded_fill(h, value, 0, "kern_sharded_fill_async");
}

/* Byte counts per rank of every rank's owned rows (block arrays). */
static size_t *owned_counts(const kern_sharded *s) {
  size_t *c = kern__calloc((size_t)s->g->nshards, sizeof *c);
  if (c)
    for (int k = 0; k < s->g->nshards; k++)
      c[k] = (size_t)s->rows[k] * s->rowbytes;
  return c;
}

/* Writes the whole array into full (every rank), gathering under MPI. */
static kern_status gather_full(const kern_sharded *s, void *full) {
  kern_group *g = s->g;
  char *f = full;
  if (s->replicated) return shard_get(s, 0, 0, f, total_bytes(s));
  if (!g->mpi) {
    for (int i = 0; i < g->nlocal; i++) {
      int k = g->first + i;
      kern_status st = shard_get(s, i,
                                 (size_t)kern__shard_halo_lo(s, k) * s->rowbytes,
                                 f + (size_t)s->first[k] * s->rowbytes,
                                 (size_t)s->rows[k] * s->rowbytes);
      if (st) return st;
    }
    return KERN_SUCCESS;
  }
  size_t *counts = owned_counts(s);
  if (!counts)
    return kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY, "out of memory");
  int k = g->first;
  /* Shard k's rows land at their place in full: the layout in rank order
   * is the array's own. */
  kern_status st = shard_get(s, 0,
                             (size_t)kern__shard_halo_lo(s, k) * s->rowbytes,
                             f + (size_t)s->first[k] * s->rowbytes, counts[k]);
  if (st == KERN_SUCCESS)
    st = kern__mpi_allgatherv(g, f + (size_t)s->first[k] * s->rowbytes, f,
                              counts);
  kern__free(counts);
  return st;
}

kern_status kern_sharded_download(const kern_sharded *h, void *dst,
                                  size_t nbytes) {
  kern_sharded *s = sharded_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_group *g = s->g;
  if (!dst || nbytes != total_bytes(s))
    return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_sharded_download: nbytes is %zu, the array has "
                       "%zu",
                       nbytes, total_bytes(s));
  char what[96];
  shape_text(what, sizeof what, "kern_sharded_download ", s);
  kern_status st = s->replicated ? KERN_SUCCESS
                   : agree(g, OP_DOWNLOAD, 0,
                           sharded_sig(14695981039346656037ull, s), what);
  if (st) return st;
  return kern__group_fail(g, gather_full(s, dst));
}

/* ---------------------------------------------------------------- launches */

/* Note [shard launch]
 * A kernel launched over a sharded array sees the whole array: wp.tid() is
 * the global index and a[i] is global row i.  Each shard runs only its own
 * rows of the grid: the launch's linear range [begin, total) (kern__dims,
 * compile.h) starts at the shard's first row times the size of a grid row,
 * so the emitted loops need no other change.  The shard's data pointer is
 * moved back by the rows before its first held row, so that global index i
 * lands on the right element of the shard's own allocation: on the CPU and
 * CUDA the runtime moves the flat pointer, on OpenCL, whose cl_mem cannot
 * be moved on the host, the kernel subtracts kern__arr.off.  The pointer
 * then points before the allocation, which is never dereferenced: the
 * shard's indices stay within its rows and halo.  The cost is two integers
 * per array argument and one per launch. */

/* The kernel `name` per local shard, from the latest module that has it;
 * found once per name and kept (Note [launch cost]). */
static kern_status find_kernels(kern_group *g, const char *name,
                                kern_kernel ***out) {
  kern_context *ctx = g->ctx;
  for (kern__gkern *c = g->kernels; c; c = c->next)
    if (strcmp(c->name, name) == 0) {
      *out = c->ks;
      return KERN_SUCCESS;
    }
  /* By name, without kern_module_get_kernel's error for the modules that
   * lack it: a successful launch leaves kern_last_error as it was. */
  kern__gmod *m;
  for (m = g->mods; m; m = m->next) {
    int nk = kern_module_kernel_count(m->mods[0]), j;
    for (j = 0; j < nk; j++)
      if (strcmp(kern_module_kernel_name(m->mods[0], j), name) == 0) break;
    if (j < nk) break;
  }
  if (!m)
    return kern__error(ctx, KERN_ERROR_NOT_FOUND,
                       "kern_group_launch: no kernel '%s' in the modules "
                       "loaded into the group",
                       name);
  kern__gkern *c = kern__calloc(1, sizeof *c);
  size_t len = strlen(name);
  if (c) c->name = kern__malloc(len + 1);
  if (c) c->ks = kern__calloc((size_t)g->nlocal, sizeof *c->ks);
  if (!c || !c->name || !c->ks) {
    if (c) kern__free(c->name);
    kern__free(c);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_group_launch: out of memory");
  }
  memcpy(c->name, name, len + 1);
  kern_status st = KERN_SUCCESS;
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++)
    st = kern_module_get_kernel(m->mods[i], name, &c->ks[i]);
  if (st) {
    kern__free(c->ks);
    kern__free(c->name);
    kern__free(c);
    return st;
  }
  c->next = g->kernels;
  g->kernels = c;
  *out = c->ks;
  return KERN_SUCCESS;
}

static void forget_kernels(kern_group *g) {
  while (g->kernels) {
    kern__gkern *c = g->kernels;
    g->kernels = c->next;
    kern__free(c->ks);
    kern__free(c->name);
    kern__free(c);
  }
}

/* Note [launch cost]
 * A sharded launch sits in every step of a data-parallel loop, so it
 * should cost about one kern_launch_async per shard.  The kernels are
 * looked up by name once and kept per group (forgotten when a module is
 * loaded, which may shadow a name), the per-argument scratch is kept and
 * grown, and the asynchronous form returns as soon as every shard's part
 * is enqueued: the host waits only where the caller asks it to
 * (kern_group_synchronize, or any wait on a shard's stream). */
/* Note [sharded debug launch]
 * In debug mode every kernel records its first out-of-bounds access in its
 * module's fault record (debug.c), and a launch is not done until the
 * runtime has read it.  A sharded launch runs one launch per shard, and the
 * shards of one device share a module and so one record: after the last
 * shard is enqueued every shard is waited for (the asynchronous form too,
 * as kern_launch_async waits in debug mode) and each module's record is
 * read once.  The first fault of any shard fails the launch with
 * KERN_ERROR_OUT_OF_BOUNDS and the single-device message; its shape is the
 * sharded array's global shape, which the checks compare against. */
static kern_status group_launch(kern_group *g, const char *name, int ndim,
                                const int64_t *dims, int nargs,
                                const kern_arg *args, int wait) {
  kern_context *ctx = g->ctx;
  if (!name || nargs < 0 || (nargs > 0 && !args) || ndim < 1 ||
      ndim > KERN_MAX_DIMS || !dims)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_group_launch: needs a kernel name, 1 to %d "
                       "dimensions and the arguments",
                       KERN_MAX_DIMS);
  if (nargs + 1 > g->scratch_cap) {
    int cap = nargs + 8;
    kern_arg *la = kern__realloc(g->la, (size_t)cap * sizeof *la);
    if (la) g->la = la;
    kern_sharded **sh = kern__realloc(g->sh, (size_t)cap * sizeof *sh);
    if (sh) g->sh = sh;
    if (!la || !sh)
      return kern__group_fail(g, kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                                             "kern_group_launch: out of "
                                             "memory"));
    g->scratch_cap = cap;
  }
  kern_arg *la = g->la;
  kern_sharded **sh = g->sh;
  kern_kernel **ks = NULL;
  kern_status st = find_kernels(g, name, &ks);
  if (st) return kern__group_fail(g, st);
  /* The arguments, read by the caller's struct_size. */
  size_t stride = nargs > 0 ? args[0].struct_size : 0;
  if (nargs > 0 && (stride < KERN_ARG_SIZE_V1 || stride > KERN__STRUCT_SIZE_MAX))
    return kern__group_fail(
        g, kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_group_launch: bad args[0].struct_size %zu",
                       stride));
  int64_t rows = -1;
  for (int a = 0; a < nargs; a++) {
    const kern_arg *src = (const kern_arg *)((const char *)args + a * stride);
    la[a] = (kern_arg)KERN_ARG_INIT;
    memcpy(&la[a], src, stride < sizeof la[a] ? stride : sizeof la[a]);
    la[a].struct_size = sizeof la[a];
    sh[a] = NULL;
    if (la[a].kind != KERN_ARG_SHARDED) continue;
    sh[a] = kern__handle_get(la[a].u.data, KERN__H_SHARDED);
    if (!sh[a] || sh[a]->g != g)
      return kern__group_fail(
          g, kern__error(ctx, sh[a] ? KERN_ERROR_INVALID_ARGUMENT
                                    : KERN_ERROR_INVALID_HANDLE,
                         "launch of '%s': argument %d is %s", name, a + 1,
                         sh[a] ? "a sharded array of another group"
                               : "not a live sharded array"));
    if (sh[a]->replicated) continue;
    if (rows >= 0 && sh[a]->shape[0] != rows)
      return kern__group_fail(
          g, kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': the sharded arguments disagree on "
                         "the first axis (%" PRId64 " and %" PRId64 ")",
                         name, rows, sh[a]->shape[0]));
    rows = sh[a]->shape[0];
  }
  if (rows >= 0 && dims[0] != rows)
    return kern__group_fail(
        g, kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "launch of '%s': dims[0] is %" PRId64 " but the "
                       "sharded arguments have %" PRId64 " rows; a sharded "
                       "launch splits the grid's first axis like the arrays",
                       name, dims[0], rows));
  int64_t inner = 1;
  for (int d = 1; d < ndim; d++) inner *= dims[d];
  kern_sharded *ref = NULL;
  for (int a = 0; a < nargs; a++)
    if (sh[a] && !sh[a]->replicated) ref = sh[a];
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++) {
    int k = g->first + i;
    if (ref && ref->rows[k] == 0) continue;
    for (int a = 0; a < nargs; a++)
      if (sh[a]) {
        la[a].kind = KERN_ARG_ARRAY;
        la[a].u.array = sh[a]->arr[i];
      }
    kern_kernel *kobj = kern__handle_get(ks[i], KERN__H_KERNEL);
    kern_stream *sobj = kern__shard_stream(g, i);
    if (!kobj || !sobj) {
      /* The group's modules and streams are its own; only a caller that
       * freed them through other handles gets here. */
      forget_kernels(g);
      st = kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "launch of '%s': shard %d's kernel or stream was "
                       "freed",
                       name, k);
      break;
    }
    kern__pack pk;
    if ((st = kern__launch_pack(kobj, ndim, dims, nargs, la, &pk))) break;
    if (pk.dims.total == 0) {
      kern__pack_release(&pk);
      continue;
    }
    for (int a = 0; a < nargs; a++) {
      if (!sh[a] || sh[a]->replicated) continue;
      kern__arr *arr = pk.argv[a];
      /* In elements of the array's type, which kern__arr indexes. */
      int64_t shift = (sh[a]->first[k] - kern__shard_halo_lo(sh[a], k)) *
                      sh[a]->rowelems;
      arr->shape[0] = sh[a]->shape[0];
      /* OpenCL buffers and Vulkan buffers are handles, not addresses: the
       * backend moves the base back by off (backend_vulkan.c's launch
       * subtracts it from the buffer's device address). */
      if (g->backend == KERN_BACKEND_OPENCL || g->backend == KERN_BACKEND_VULKAN)
        arr->off = shift;
      else
        arr->data = (char *)arr->data - shift * (int64_t)kern_type_size(sh[a]->type);
    }
    if (ref) {
      pk.dims.begin = ref->first[k] * inner;
      pk.dims.total = (ref->first[k] + ref->rows[k]) * inner;
    }
    st = kern__stream_launch(sobj, kobj, &pk, ndim, dims, nargs);
    kern__pack_release(&pk);
    if (st)
      kern__error(ctx, st, "launch of '%s' on shard %d failed", name, k);
  }
  /* Debug mode (Note [sharded debug launch]): wait, then read the faults. */
  kern_kernel *k0 = kern__handle_get(ks[0], KERN__H_KERNEL);
  int checked = k0 && k0->info->fault_param;
  /* The shards enqueued before a failure still run: the synchronous form
   * waits for them, the asynchronous one leaves them to the next wait. */
  for (int i = 0; (wait || checked) && i < g->nlocal; i++) {
    kern_status ws = kern_stream_synchronize(g->stream[i]);
    if (st == KERN_SUCCESS) st = ws;
  }
  /* The caller's arguments for the message: a sharded one names its
   * global shape. */
  for (int a = 0; checked && a < nargs; a++)
    if (sh[a]) {
      la[a].kind = KERN_ARG_SHARDED;
      la[a].u.data = sh[a]->h;
    } else if (la[a].kind == KERN_ARG_ARRAY)
      la[a].u.array = kern__handle_get(la[a].u.array, KERN__H_ARRAY);
  for (int i = 0; checked && st == KERN_SUCCESS && i < g->nlocal; i++) {
    kern_kernel *kobj = kern__handle_get(ks[i], KERN__H_KERNEL);
    int seen = !kobj;
    for (int j = 0; j < i && !seen; j++) {
      kern_kernel *kj = kern__handle_get(ks[j], KERN__H_KERNEL);
      seen = kj && kj->module == kobj->module;
    }
    if (!seen) st = kern__debug_check(kobj, la, nargs);
  }
  return kern__group_fail(g, st);
}

kern_status kern_group_launch(kern_group *h, const char *name, int ndim,
                              const int64_t *dims, int nargs,
                              const kern_arg *args) {
  kern_group *g = group_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  return group_launch(g, name, ndim, dims, nargs, args, 1);
}

kern_status kern_group_launch_async(kern_group *h, const char *name, int ndim,
                                    const int64_t *dims, int nargs,
                                    const kern_arg *args) {
  kern_group *g = group_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  return group_launch(g, name, ndim, dims, nargs, args, 0);
}

/* ---------------------------------------------------------------- collectives */

/* dst[i] = op(dst[i], src[i]) for n scalars of type sc. */
static void reduce_into(void *dst, const void *src, size_t n, kern_scalar sc,
                        kern_reduce_op op) {
#define RED(T)                                                               \
  do {                                                                       \
    T *d = dst;                                                              \
    const T *s = src;                                                        \
    for (size_t i = 0; i < n; i++)                                           \
      d[i] = op == KERN_REDUCE_SUM ? (T)(d[i] + s[i])                        \
             : op == KERN_REDUCE_MIN ? (s[i] < d[i] ? s[i] : d[i])           \
                                     : (s[i] > d[i] ? s[i] : d[i]);          \
  } while (0)
  switch (sc) {
  case KERN_SCALAR_BOOL: {
    /* sum and max are "or", min is "and" */
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
      d[i] = op == KERN_REDUCE_MIN ? (d[i] && s[i]) : (d[i] || s[i]);
    break;
  }
  case KERN_SCALAR_INT8: RED(int8_t); break;
  case KERN_SCALAR_INT16: RED(int16_t); break;
  case KERN_SCALAR_INT32: RED(int32_t); break;
  case KERN_SCALAR_INT64: RED(int64_t); break;
  case KERN_SCALAR_UINT8: RED(uint8_t); break;
  case KERN_SCALAR_UINT16: RED(uint16_t); break;
  case KERN_SCALAR_UINT32: RED(uint32_t); break;
  case KERN_SCALAR_UINT64: RED(uint64_t); break;
  case KERN_SCALAR_FLOAT32: RED(float); break;
  case KERN_SCALAR_FLOAT64: RED(double); break;
  default: break;
  }
#undef RED
}

static kern_status check_op(kern_group *g, kern_reduce_op op, const char *fn) {
  if ((int)op < 0 || op >= KERN_REDUCE_COUNT)
    return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: unknown reduction %d", fn, (int)op);
  return KERN_SUCCESS;
}

/* Every copy of a replicated array from every shard, in shard order, into
 * all (nshards * bytes). */
static kern_status gather_copies(const kern_sharded *s, char *all) {
  kern_group *g = s->g;
  size_t nb = total_bytes(s);
  if (!g->mpi) {
    for (int i = 0; i < g->nlocal; i++) {
      kern_status st = shard_get(s, i, 0, all + (size_t)i * nb, nb);
      if (st) return st;
    }
    return KERN_SUCCESS;
  }
  size_t *counts = kern__calloc((size_t)g->nshards, sizeof *counts);
  if (!counts)
    return kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int k = 0; k < g->nshards; k++) counts[k] = nb;
  kern_status st = shard_get(s, 0, 0, all + (size_t)g->first * nb, nb);
  if (st == KERN_SUCCESS)
    st = kern__mpi_allgatherv(g, all + (size_t)g->first * nb, all, counts);
  kern__free(counts);
  return st;
}

/* The checks shared by the collectives: same group, kinds, and agreement. */
/* A piece freed by the caller (kern_sharded_shard hands out the handles)
 * would leave a dead pointer to NCCL. */
static kern_status pieces_live(const kern_sharded *s, const char *fn) {
  for (int i = 0; i < s->g->nlocal; i++)
    if (!kern__shard_array(s, i))
      return kern__error(s->g->ctx, KERN_ERROR_INVALID_HANDLE,
                         "%s: the array of local shard %d was freed; free "
                         "the sharded array instead",
                         fn, i);
  return KERN_SUCCESS;
}

static kern_status coll_begin(kern_sharded *a, kern_sharded *b, int op,
                              int arg, int a_repl, int b_repl, const char *fn) {
  kern_group *g = a->g;
  kern_status ls = pieces_live(a, fn);
  if (ls == KERN_SUCCESS && b) ls = pieces_live(b, fn);
  if (ls) return ls;
  if (a->replicated != a_repl)
    return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: the %sarray must be %s", fn, b ? "first " : "",
                       a_repl ? "replicated" : "block-sharded");
  if (b) {
    if (b->g != g)
      return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: the arrays belong to different groups", fn);
    if (b->replicated != b_repl)
      return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: the second array must be %s", fn,
                         b_repl ? "replicated" : "block-sharded");
    if (!kern__type_equal(a->type, b->type) || a->ndim != b->ndim ||
        memcmp(a->shape, b->shape, sizeof a->shape) != 0)
      return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: the arrays differ in type or shape", fn);
  }
  /* In one process there is nobody to agree with: only an earlier failure
   * matters, and the text and the hash are made only for it. */
  if (!g->mpi && g->failed == KERN_SUCCESS) return KERN_SUCCESS;
  char what[96], pre[48];
  snprintf(pre, sizeof pre, "%s of ", fn + 13); /* without "kern_sharded_" */
  shape_text(what, sizeof what, pre, a);
  uint64_t sig = sharded_sig(14695981039346656037ull, a);
  if (b) sig = sharded_sig(sig, b);
  return agree(g, op, arg, sig, what);
}

static kern_status need_nccl(kern_group *g) {
  if (g->nccl) return KERN_SUCCESS;
  return kern__group_fail(g, kern__nccl_open(g));
}

/* Note [asynchronous collectives]
 * Each collective has a synchronous form and an asynchronous one.  On
 * NCCL the asynchronous form enqueues the NCCL calls on the shards'
 * streams (NCCL is stream-ordered: after the work already there, before
 * the work enqueued next) and returns; the synchronous form then waits for
 * the streams against the group's deadline.  The agreement between ranks
 * (Note [rank agreement]) happens on the host before anything is enqueued,
 * in both forms: it is what keeps a rank from entering a collective the
 * others will not, and within one process it costs nothing.  The host path
 * (CPU, OpenCL, MPI) moves data through host memory, so its asynchronous
 * form waits for the shards' earlier work and completes the collective
 * before returning, like the synchronous one. */

static kern_status all_reduce(kern_sharded *h, kern_reduce_op op, int wait,
                              const char *fn) {
  kern_sharded *s = sharded_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_group *g = s->g;
  kern_status st = check_op(g, op, fn);
  if (st || (st = coll_begin(s, NULL, OP_ALL_REDUCE, (int)op, 1, 0, fn)))
    return st;
  if (g->transport == KERN__T_NCCL) {
    if ((st = need_nccl(g))) return st;
    return kern__group_fail(g, kern__nccl_all_reduce(s, op, wait));
  }
  size_t nb = total_bytes(s);
  char *all = kern__malloc((size_t)g->nshards * nb + 1);
  if (!all)
    return kern__group_fail(g, kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY,
                                           "%s: out of memory", fn));
  st = gather_copies(s, all);
  if (st == KERN_SUCCESS) {
    size_t n = nb / s->scalar_size;
    for (int k = 1; k < g->nshards; k++)
      reduce_into(all, all + (size_t)k * nb, n, s->type.scalar, op);
    for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++)
      st = shard_put(s, i, 0, all, nb);
  }
  kern__free(all);
  return kern__group_fail(g, st);
}

static kern_status all_gather(const kern_sharded *hsrc, kern_sharded *hdst,
                              int wait, const char *fn) {
  kern_sharded *src = sharded_enter(hsrc);
  if (!src) return KERN_ERROR_INVALID_HANDLE;
  kern_sharded *dst = kern__handle_get(hdst, KERN__H_SHARDED);
  kern_group *g = src->g;
  if (!dst)
    return kern__error(g->ctx, KERN_ERROR_INVALID_HANDLE,
                       "%s: dst is not a live sharded array", fn);
  kern_status st = coll_begin(src, dst, OP_ALL_GATHER, 0, 0, 1, fn);
  if (st) return st;
  if (g->transport == KERN__T_NCCL) {
    if ((st = need_nccl(g))) return st;
    return kern__group_fail(g, kern__nccl_all_gather(src, dst, wait));
  }
  size_t nb = total_bytes(src);
  char *full = kern__malloc(nb + 1);
  if (!full)
    return kern__group_fail(g, kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY,
                                           "%s: out of memory", fn));
  st = gather_full(src, full);
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++)
    st = shard_put(dst, i, 0, full, nb);
  kern__free(full);
  return kern__group_fail(g, st);
}

static kern_status reduce_scatter(const kern_sharded *hsrc,
                                  kern_sharded *hdst, kern_reduce_op op,
                                  int wait, const char *fn) {
  kern_sharded *src = sharded_enter(hsrc);
  if (!src) return KERN_ERROR_INVALID_HANDLE;
  kern_sharded *dst = kern__handle_get(hdst, KERN__H_SHARDED);
  kern_group *g = src->g;
  if (!dst)
    return kern__error(g->ctx, KERN_ERROR_INVALID_HANDLE,
                       "%s: dst is not a live sharded array", fn);
  kern_status st = check_op(g, op, fn);
  if (st || (st = coll_begin(src, dst, OP_REDUCE_SCATTER, (int)op, 1, 0, fn)))
    return st;
  if (g->transport == KERN__T_NCCL) {
    if ((st = need_nccl(g))) return st;
    return kern__group_fail(g, kern__nccl_reduce_scatter(src, dst, op, wait));
  }
  size_t nb = total_bytes(src);
  char *all = kern__malloc((size_t)g->nshards * nb + 1);
  if (!all)
    return kern__group_fail(g, kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY,
                                           "%s: out of memory", fn));
  st = gather_copies(src, all);
  if (st == KERN_SUCCESS) {
    size_t n = nb / src->scalar_size;
    for (int k = 1; k < g->nshards; k++)
      reduce_into(all, all + (size_t)k * nb, n, src->type.scalar, op);
    for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++) {
      int k = g->first + i;
      st = shard_put(dst, i, (size_t)kern__shard_halo_lo(dst, k) * dst->rowbytes,
                     all + (size_t)dst->first[k] * dst->rowbytes,
                     (size_t)dst->rows[k] * dst->rowbytes);
    }
  }
  kern__free(all);
  return kern__group_fail(g, st);
}

static kern_status broadcast(kern_sharded *h, int root, int wait,
                             const char *fn) {
  kern_sharded *s = sharded_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_group *g = s->g;
  if (root < 0 || root >= g->nshards)
    return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: root %d is not a shard (the group has %d)", fn,
                       root, g->nshards);
  kern_status st = coll_begin(s, NULL, OP_BROADCAST, root, 1, 0, fn);
  if (st) return st;
  if (g->transport == KERN__T_NCCL) {
    if ((st = need_nccl(g))) return st;
    return kern__group_fail(g, kern__nccl_broadcast(s, root, wait));
  }
  size_t nb = total_bytes(s);
  char *buf = kern__malloc(nb + 1);
  if (!buf)
    return kern__group_fail(g, kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY,
                                           "%s: out of memory", fn));
  int mine = root - g->first;
  if (mine >= 0 && mine < g->nlocal) st = shard_get(s, mine, 0, buf, nb);
  if (st == KERN_SUCCESS && g->mpi) st = kern__mpi_bcast(g, buf, nb, root);
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++)
    if (i != mine) st = shard_put(s, i, 0, buf, nb);
  kern__free(buf);
  return kern__group_fail(g, st);
}

static kern_status halo_exchange(kern_sharded *h, int wait,
                                 const char *fn) {
  kern_sharded *s = sharded_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_group *g = s->g;
  kern_status st = coll_begin(s, NULL, OP_HALO, 0, 0, 0, fn);
  if (st) return st;
  int64_t hw = s->halo;
  if (hw == 0 || g->nshards == 1) return KERN_SUCCESS;
  /* Every rank sees the same partition, so this needs no agreement. */
  for (int k = 0; k < g->nshards; k++)
    if (s->rows[k] < hw)
      return kern__error(g->ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: shard %d owns %" PRId64 " rows, fewer than the "
                         "halo width %d; use fewer shards or a narrower halo",
                         fn, k, s->rows[k], s->halo);
  if (g->transport == KERN__T_NCCL) {
    if ((st = need_nccl(g))) return st;
    return kern__group_fail(g, kern__nccl_halo(s, wait));
  }
  /* Each shard contributes its first and its last hw rows. */
  size_t part = (size_t)hw * s->rowbytes;
  char *all = kern__malloc((size_t)g->nshards * 2 * part + 1);
  if (!all)
    return kern__group_fail(g, kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY,
                                           "%s: out of memory", fn));
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++) {
    int k = g->first + i;
    size_t lo = (size_t)kern__shard_halo_lo(s, k) * s->rowbytes;
    char *mine = all + (size_t)k * 2 * part;
    st = shard_get(s, i, lo, mine, part);
    if (st == KERN_SUCCESS)
      st = shard_get(s, i, lo + (size_t)(s->rows[k] - hw) * s->rowbytes,
                     mine + part, part);
  }
  if (st == KERN_SUCCESS && g->mpi) {
    size_t *counts = kern__calloc((size_t)g->nshards, sizeof *counts);
    if (!counts) {
      st = kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY, "out of memory");
    } else {
      for (int k = 0; k < g->nshards; k++) counts[k] = 2 * part;
      st = kern__mpi_allgatherv(g, all + (size_t)g->first * 2 * part, all,
                                counts);
      kern__free(counts);
    }
  }
  for (int i = 0; i < g->nlocal && st == KERN_SUCCESS; i++) {
    int k = g->first + i;
    if (k > 0) /* the previous shard's last rows */
      st = shard_put(s, i, 0, all + (size_t)(k - 1) * 2 * part + part, part);
    if (st == KERN_SUCCESS && k < g->nshards - 1)
      st = shard_put(s, i,
                     (size_t)(kern__shard_halo_lo(s, k) + s->rows[k]) *
                         s->rowbytes,
                     all + (size_t)(k + 1) * 2 * part, part);
  }
  kern__free(all);
  return kern__group_fail(g, st);
}

/* The public forms (Note [asynchronous collectives]). */

kern_status kern_sharded_all_reduce(kern_sharded *s, kern_reduce_op op) {
  return all_reduce(s, op, 1, "kern_sharded_all_reduce");
}

kern_status kern_sharded_all_reduce_async(kern_sharded *s,
                                          kern_reduce_op op) {
  return all_reduce(s, op, 0, "kern_sharded_all_reduce_async");
}

kern_status kern_sharded_all_gather(const kern_sharded *src,
                                    kern_sharded *dst) {
  return all_gather(src, dst, 1, "kern_sharded_all_gather");
}

kern_status kern_sharded_all_gather_async(const kern_sharded *src,
                                          kern_sharded *dst) {
  return all_gather(src, dst, 0, "kern_sharded_all_gather_async");
}

kern_status kern_sharded_reduce_scatter(const kern_sharded *src,
                                        kern_sharded *dst,
                                        kern_reduce_op op) {
  return reduce_scatter(src, dst, op, 1, "kern_sharded_reduce_scatter");
}

kern_status kern_sharded_reduce_scatter_async(const kern_sharded *src,
                                              kern_sharded *dst,
                                              kern_reduce_op op) {
  return reduce_scatter(src, dst, op, 0, "kern_sharded_reduce_scatter_async");
}

kern_status kern_sharded_broadcast(kern_sharded *s, int root) {
  return broadcast(s, root, 1, "kern_sharded_broadcast");
}

kern_status kern_sharded_broadcast_async(kern_sharded *s, int root) {
  return broadcast(s, root, 0, "kern_sharded_broadcast_async");
}

kern_status kern_sharded_halo_exchange(kern_sharded *s) {
  return halo_exchange(s, 1, "kern_sharded_halo_exchange");
}

kern_status kern_sharded_halo_exchange_async(kern_sharded *s) {
  return halo_exchange(s, 0, "kern_sharded_halo_exchange_async");
}
