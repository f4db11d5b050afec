/*
 * mpi.c -- the ranks of MPI_COMM_WORLD, through libmpi loaded with dlopen.
 *
 * kern does not link MPI: a group made under mpirun loads Open MPI's
 * libmpi.so.40 (or $KERN_MPI_LIBRARY) with RTLD_GLOBAL, which Open MPI
 * needs for its own plug-ins to find its symbols, and uses a dozen
 * functions of the MPI standard.  Open MPI's handles are the addresses of
 * its predefined objects (MPI_COMM_WORLD is &ompi_mpi_comm_world), so they
 * are found with dlsym; MPICH's integer handles are not supported.
 *
 * Everything is point-to-point and non-blocking, polled until done or the
 * group's deadline: a rank that never sends makes the others fail with a
 * timeout instead of waiting forever (Note [rank agreement] in multi.c).
 * The library initialises MPI only when nobody has (a program may have
 * called MPI_Init itself, or mpi4py may have) and then finalises it at
 * exit, unless a timeout left messages in flight, when MPI_Finalize could
 * hang: then the process exits without it and mpirun says so.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "multi.h"

typedef void *MPI_Comm;
typedef void *MPI_Datatype;
typedef void *MPI_Request;

static struct {
  pthread_mutex_t mu;
  int tried;
  int ok;
  char why[256];
  void *lib;
  MPI_Comm world;
  MPI_Datatype byte;
  int inited_by_us;
  int broken; /* a timeout left a send in flight: no MPI_Finalize */
  int (*Initialized)(int *);
  int (*Finalized)(int *);
  int (*Init)(int *, char ***);
  int (*Finalize)(void);
  int (*Comm_rank)(MPI_Comm, int *);
  int (*Comm_size)(MPI_Comm, int *);
  int (*Isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm,
               MPI_Request *);
  int (*Irecv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
  int (*Test)(MPI_Request *, int *, void *);
  int (*Cancel)(MPI_Request *);
  int (*Request_free)(MPI_Request *);
} M = {.mu = PTHREAD_MUTEX_INITIALIZER};

struct kern__mpi {
  int rank, nranks;
};

static void at_exit(void) {
  int fin = 1;
  if (!M.inited_by_us || M.broken) return;
  if (M.Finalized(&fin) == 0 && !fin) M.Finalize();
}

/* Loads libmpi and initialises MPI once per process. */
static int mpi_load(void) {
  pthread_mutex_lock(&M.mu);
  if (M.tried) {
    pthread_mutex_unlock(&M.mu);
    return M.ok;
  }
  M.tried = 1;
  const char *names[] = {getenv("KERN_MPI_LIBRARY"), "libmpi.so.40",
                         "libmpi.so"};
  for (int i = 0; i < 3 && !M.lib; i++)
    if (names[i] && names[i][0])
      M.lib = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
  if (!M.lib) {
    snprintf(M.why, sizeof M.why,
             "unavailable: libmpi.so.40 not found (install Open MPI, or set "
             "KERN_MPI_LIBRARY)");
    goto out;
  }
  M.world = dlsym(M.lib, "ompi_mpi_comm_world");
  M.byte = dlsym(M.lib, "ompi_mpi_byte");
#define SYM(n) (*(void **)&M.n = dlsym(M.lib, "MPI_" #n))
  SYM(Initialized);
  SYM(Finalized);
  SYM(Init);
  SYM(Finalize);
  SYM(Comm_rank);
  SYM(Comm_size);
  SYM(Isend);
  SYM(Irecv);
  SYM(Test);
  SYM(Cancel);
  SYM(Request_free);
#undef SYM
  if (!M.world || !M.byte || !M.Initialized || !M.Finalized || !M.Init ||
      !M.Finalize || !M.Comm_rank || !M.Comm_size || !M.Isend || !M.Irecv ||
      !M.Test || !M.Cancel || !M.Request_free) {
    snprintf(M.why, sizeof M.why,
             "unsupported: the MPI library loaded is not Open MPI (kern "
             "needs Open MPI's ABI)");
    goto out;
  }
  int flag = 0;
  M.Initialized(&flag);
  if (!flag) {
    if (M.Init(NULL, NULL) != 0) {
      snprintf(M.why, sizeof M.why, "MPI_Init failed");
      goto out;
    }
    M.inited_by_us = 1;
    atexit(at_exit);
  }
  M.ok = 1;
out:
  pthread_mutex_unlock(&M.mu);
  return M.ok;
}

kern_status kern__mpi_open(kern_group *g, int *rank, int *nranks) {
  if (!mpi_load())
    return kern__error(g->ctx, strncmp(M.why, "unsupported", 11) == 0
                                   ? KERN_ERROR_UNSUPPORTED
                                   : KERN_ERROR_BACKEND_UNAVAILABLE,
                       "kern_group_new: MPI %s", M.why);
  kern__mpi *m = kern__calloc(1, sizeof *m);
  if (!m)
    return kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_group_new: out of memory");
  M.Comm_rank(M.world, &m->rank);
  M.Comm_size(M.world, &m->nranks);
  g->mpi = m;
  *rank = m->rank;
  *nranks = m->nranks;
  return KERN_SUCCESS;
}

void kern__mpi_close(kern_group *g) {
  kern__free(g->mpi);
  g->mpi = NULL;
}

/* ---------------------------------------------------------------- requests */

typedef struct reqs {
  MPI_Request *r;
  int *peer; /* for messages: which rank each request waits for */
  char *send;
  int n, cap;
} reqs;

static int reqs_add(reqs *q, int peer, int send) {
  if (q->n == q->cap) {
    int nc = q->cap ? 2 * q->cap : 16;
    MPI_Request *r = kern__realloc(q->r, (size_t)nc * sizeof *r);
    if (!r) return -1;
    q->r = r;
    int *p = kern__realloc(q->peer, (size_t)nc * sizeof *p);
    if (!p) return -1;
    q->peer = p;
    char *sd = kern__realloc(q->send, (size_t)nc);
    if (!sd) return -1;
    q->send = sd;
    q->cap = nc;
  }
  q->r[q->n] = NULL;
  q->peer[q->n] = peer;
  q->send[q->n] = (char)send;
  return q->n++;
}

static void reqs_free(reqs *q) {
  kern__free(q->r);
  kern__free(q->peer);
  kern__free(q->send);
}

/* Tags: the kind in the low bits, the collective's sequence number above,
 * so a late message of an abandoned collective never matches a newer one. */
enum { TAG_HDR = 1, TAG_VERDICT = 2, TAG_DATA = 3 };
static int tag(const kern_group *g, int kind) {
  return kind + 4 * (int)(g->seq % 8000);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Polls every request until all are done or the deadline passes. */
static kern_status reqs_wait(kern_group *g, reqs *q, const char *what) {
  double deadline = now_s() + g->timeout_s;
  long sleep_ns = 2000;
  int left = q->n;
  char *done = kern__calloc((size_t)q->n + 1, 1);
  if (!done)
    return kern__error(g->ctx, KERN_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                       what);
  while (left > 0) {
    int progress = 0;
    for (int i = 0; i < q->n; i++) {
      if (done[i]) continue;
      int flag = 0;
      if (M.Test(&q->r[i], &flag, NULL) != 0) {
        kern__free(done);
        M.broken = 1;
        g->timed_out = 1;
        return kern__error(g->ctx, KERN_ERROR_DEVICE,
                           "%s: MPI reported an error talking to rank %d",
                           what, q->peer[i]);
      }
      if (flag) {
        done[i] = 1;
        left--;
        progress = 1;
      }
    }
    if (left == 0) break;
    if (now_s() > deadline) {
      char ranks[128] = "";
      size_t k = 0;
      for (int i = 0; i < q->n && k < sizeof ranks - 8; i++)
        if (!done[i]) {
          int dup = 0;
          for (int j = 0; j < i; j++) dup |= !done[j] && q->peer[j] == q->peer[i];
          if (!dup)
            k += (size_t)snprintf(ranks + k, sizeof ranks - k, "%s%d",
                                  k ? ", " : "", q->peer[i]);
        }
      /* Receives can be withdrawn; a send that cannot be may stay in
       * flight, and then MPI_Finalize could hang: it is skipped at exit. */
      for (int i = 0; i < q->n; i++)
        if (!done[i] && (M.Cancel(&q->r[i]) != 0 ||
                         M.Request_free(&q->r[i]) != 0 || q->send[i]))
          M.broken = 1;
      kern__free(done);
      g->timed_out = 1;
      return kern__error(g->ctx, KERN_ERROR_DEVICE,
                         "%s: timed out after %g s waiting for rank %s (set "
                         "KERN_COMM_TIMEOUT or kern_group_options.timeout_s "
                         "to wait longer)",
                         what, g->timeout_s, ranks);
    }
    if (!progress) {
      struct timespec ts = {0, sleep_ns};
      nanosleep(&ts, NULL);
      if (sleep_ns < 500000) sleep_ns *= 2;
    } else {
      sleep_ns = 2000;
    }
  }
  kern__free(done);
  return KERN_SUCCESS;
}

/* MPI counts are int: large messages go in pieces of at most 1 GiB. */
#define PIECE ((size_t)1 << 30)

static int post(reqs *q, int send, void *buf, size_t bytes, int peer,
                int t) {
  char *b = buf;
  size_t off = 0;
  do {
    size_t n = bytes - off < PIECE ? bytes - off : PIECE;
    int i = reqs_add(q, peer, send);
    if (i < 0) return -1;
    int rc = send ? M.Isend(b + off, (int)n, M.byte, peer, t, M.world, &q->r[i])
                  : M.Irecv(b + off, (int)n, M.byte, peer, t, M.world,
                            &q->r[i]);
    if (rc != 0) return -1;
    off += n;
  } while (off < bytes);
  return 0;
}

static kern_status broken(kern_group *g, const char *what) {
  return kern__error(g->ctx, KERN_ERROR_DEVICE,
                     "%s: an earlier MPI failure (a timeout) left the ranks "
                     "out of step; free the group",
                     what);
}

/* ---------------------------------------------------------------- agreement */

typedef struct verdict {
  int32_t status;
  int32_t left; /* some rank has left the group */
  char msg[480];
} verdict;

static void judge(const kern__hdr *h, int n, verdict *v) {
  memset(v, 0, sizeof *v);
  for (int r = 0; r < n; r++)
    if (h[r].magic != 0x6b65726eu) {
      v->status = KERN_ERROR_DEVICE;
      snprintf(v->msg, sizeof v->msg,
               "%s: rank %d sent garbage (not a kern rank?)", h[0].what, r);
      return;
    }
  for (int r = 0; r < n; r++)
    if (h[r].status != 0) {
      v->status = h[r].status;
      snprintf(v->msg, sizeof v->msg, "%s: rank %d failed earlier: %s",
               h[0].what, r, h[r].note[0] ? h[r].note : "(no message)");
      return;
    }
  for (int r = 1; r < n; r++)
    if (h[r].op != h[0].op || h[r].seq != h[0].seq) {
      /* A rank that left will not answer again: the others must not wait
       * for it when they free the group in turn. */
      for (int q = 0; q < n; q++)
        if (h[q].op == KERN__OP_GROUP_FREE) v->left = 1;
      v->status = KERN_ERROR_INVALID_ARGUMENT;
      snprintf(v->msg, sizeof v->msg,
               "ranks out of step: rank 0 is in %s (collective #%llu), rank "
               "%d in %s (collective #%llu)",
               h[0].what, (unsigned long long)h[0].seq, r, h[r].what,
               (unsigned long long)h[r].seq);
      return;
    }
  for (int r = 1; r < n; r++)
    if (h[r].sig != h[0].sig || h[r].arg != h[0].arg) {
      v->status = KERN_ERROR_INVALID_ARGUMENT;
      snprintf(v->msg, sizeof v->msg,
               "ranks disagree: rank 0 calls %s (argument %d), rank %d "
               "calls %s (argument %d)",
               h[0].what, h[0].arg, r, h[r].what, h[r].arg);
      return;
    }
}

kern_status kern__mpi_agree(kern_group *g, const kern__hdr *mine, char *msg,
                            size_t msg_size) {
  if (g->timed_out) {
    kern_status st = broken(g, mine->what);
    snprintf(msg, msg_size, "%s", kern_last_error(g->ctx->h));
    return st;
  }
  kern__mpi *m = g->mpi;
  if (m->nranks == 1) {
    verdict v;
    judge(mine, 1, &v);
    snprintf(msg, msg_size, "%s", v.msg);
    return (kern_status)v.status;
  }
  reqs q = {0};
  verdict v;
  kern_status st = KERN_SUCCESS;
  if (m->rank == 0) {
    kern__hdr *h = kern__calloc((size_t)m->nranks, sizeof *h);
    if (!h) return KERN_ERROR_OUT_OF_MEMORY;
    h[0] = *mine;
    for (int r = 1; r < m->nranks; r++)
      if (post(&q, 0, &h[r], sizeof *h, r, tag(g, TAG_HDR))) st = KERN_ERROR_DEVICE;
    if (st == KERN_SUCCESS) st = reqs_wait(g, &q, mine->what);
    if (st == KERN_SUCCESS) {
      judge(h, m->nranks, &v);
      q.n = 0;
      for (int r = 1; r < m->nranks; r++)
        if (post(&q, 1, &v, sizeof v, r, tag(g, TAG_VERDICT)))
          st = KERN_ERROR_DEVICE;
      if (st == KERN_SUCCESS) st = reqs_wait(g, &q, mine->what);
    }
    kern__free(h);
  } else {
    if (post(&q, 1, (void *)mine, sizeof *mine, 0, tag(g, TAG_HDR)) ||
        post(&q, 0, &v, sizeof v, 0, tag(g, TAG_VERDICT)))
      st = KERN_ERROR_DEVICE;
    if (st == KERN_SUCCESS) st = reqs_wait(g, &q, mine->what);
  }
  reqs_free(&q);
  if (st != KERN_SUCCESS) {
    snprintf(msg, msg_size, "%s", kern_last_error(g->ctx->h));
    return st;
  }
  snprintf(msg, msg_size, "%s", v.msg);
  if (v.left) g->timed_out = 1;
  return (kern_status)v.status;
}

/* ---------------------------------------------------------------- data */

kern_status kern__mpi_allgatherv(kern_group *g, const void *mine, void *all,
                                 const size_t *counts) {
  const char *what = "allgather (MPI)";
  if (g->timed_out) return broken(g, what);
  kern__mpi *m = g->mpi;
  reqs q = {0};
  size_t off = 0;
  int bad = 0;
  for (int r = 0; r < m->nranks; r++) {
    if (r != m->rank && counts[r] > 0)
      bad |= post(&q, 0, (char *)all + off, counts[r], r, tag(g, TAG_DATA));
    off += counts[r];
  }
  for (int r = 0; r < m->nranks; r++)
    if (r != m->rank && counts[m->rank] > 0)
      bad |= post(&q, 1, (void *)mine, counts[m->rank], r, tag(g, TAG_DATA));
  kern_status st = bad ? kern__error(g->ctx, KERN_ERROR_DEVICE,
                                     "%s: MPI refused a message", what)
                       : reqs_wait(g, &q, what);
  reqs_free(&q);
  return st;
}

kern_status kern__mpi_bcast(kern_group *g, void *buf, size_t bytes, int root) {
  const char *what = "broadcast (MPI)";
  if (g->timed_out) return broken(g, what);
  kern__mpi *m = g->mpi;
  reqs q = {0};
  int bad = 0;
  if (m->rank == root) {
    for (int r = 0; r < m->nranks; r++)
      if (r != root) bad |= post(&q, 1, buf, bytes, r, tag(g, TAG_DATA));
  } else {
    bad |= post(&q, 0, buf, bytes, root, tag(g, TAG_DATA));
  }
  kern_status st = bad ? kern__error(g->ctx, KERN_ERROR_DEVICE,
                                     "%s: MPI refused a message", what)
                       : reqs_wait(g, &q, what);
  reqs_free(&q);
  return st;
}
