/*
 * multi.h -- internals of groups and sharded arrays (issue #15).
 *
 *   multi.c   groups, sharded arrays, sharded launches, the collectives'
 *             host path and the checks every rank makes before one
 *   mpi.c     the ranks of MPI_COMM_WORLD, libmpi loaded with dlopen: a
 *             handful of point-to-point calls polled against a deadline
 *   nccl.c    NCCL loaded with dlopen: communicators and collectives on
 *             the shards' CUDA streams
 *
 * A group's shards are numbered group-wide: rank r's local shard i is
 * shard first + i, where first counts the shards of the ranks before r.
 * Under MPI each rank has exactly one shard, so shard s lives in rank s.
 */
#ifndef KERN_MULTI_H
#define KERN_MULTI_H

#include "async.h"

typedef struct kern__mpi kern__mpi;
typedef struct kern__nccl kern__nccl;

/* A module loaded into a group: one kern_module per local shard (shards on
 * the same device share one). */
typedef struct kern__gmod {
  kern_module **mods;
  struct kern__gmod *next;
} kern__gmod;

/* A kernel found by name for kern_group_launch: one kernel handle per local
 * shard, from the latest module that has it.  Loading a module into the
 * group forgets them all (the new module may shadow a name). */
typedef struct kern__gkern {
  char *name;
  kern_kernel **ks; /* per local shard: handles */
  struct kern__gkern *next;
} kern__gkern;

typedef enum kern__transport {
  KERN__T_HOST,
  KERN__T_MPI,
  KERN__T_NCCL
} kern__transport;

struct kern_group {
  kern_group *h;
  kern_context *ctx;
  int nlocal, nshards, first;
  int rank, nranks;
  kern_device *dev;      /* per local shard */
  kern_stream **stream;  /* per local shard: handles */
  kern_backend_kind backend;
  kern__transport transport;
  double timeout_s;
  /* Counts the collectives, so every rank can check it is at the same one. */
  uint64_t seq;
  /* The first failure of a group call in this process: every later
   * collective refuses, and tells the other ranks. */
  kern_status failed;
  char failmsg[256];
  int timed_out; /* a peer never answered: the ranks are out of step */
  kern__gmod *mods;
  kern__gkern *kernels; /* kern_group_launch's lookups, kept */
  /* kern_group_launch's per-argument scratch, grown as needed, so that a
   * launch allocates nothing. */
  kern_arg *la;
  struct kern_sharded **sh;
  int scratch_cap;
  struct kern_sharded *sharded;
  kern__mpi *mpi;   /* NULL without MPI */
  kern__nccl *nccl; /* NULL unless the transport is NCCL */
  struct kern_group *prev, *next;
};

struct kern_sharded {
  kern_sharded *h;
  kern_group *g;
  int replicated;
  kern_type type;
  int ndim;
  int64_t shape[KERN_MAX_DIMS];
  int halo;
  int64_t rowelems; /* scalars per row of the first axis */
  size_t rowbytes;
  size_t scalar_size;
  kern_array **arr; /* per local shard: handles */
  /* Group-wide, per shard: first owned row and owned rows.  Replicated
   * arrays own every row in every shard. */
  int64_t *first, *rows;
  struct kern_sharded *prev, *next;
};

/* Halo rows shard s holds before and after its own. */
int64_t kern__shard_halo_lo(const kern_sharded *s, int shard);
int64_t kern__shard_halo_hi(const kern_sharded *s, int shard);

/* The operation code of kern_group_free in the headers below: a rank
 * that meets it in another rank's header knows that rank has left. */
#define KERN__OP_GROUP_FREE 2

/* What every rank says before a collective; rank 0 compares them
 * (Note [rank agreement] in multi.c). */
typedef struct kern__hdr {
  uint32_t magic;
  int32_t status;   /* non-zero: this rank failed (or left the group) */
  uint64_t seq;
  int32_t op;       /* kern__op_code */
  int32_t arg;      /* the reduction or the root */
  uint64_t sig;     /* hash of the arrays' types and shapes */
  char what[96];    /* the operation and shape, for messages */
  char note[160];   /* why this rank failed */
} kern__hdr;

/* mpi.c.  Every call polls its requests until done or the group's
 * deadline; a timeout poisons the group (g->failed). */
kern_status kern__mpi_open(kern_group *g, int *rank, int *nranks);
void kern__mpi_close(kern_group *g);
/* Rank 0 gathers every rank's header and sends back a verdict: success,
 * or the status and message every rank then returns. */
kern_status kern__mpi_agree(kern_group *g, const kern__hdr *mine, char *msg,
                            size_t msg_size);
/* Every rank sends `mine` (counts[rank] bytes) and receives everybody's
 * into all, laid out in rank order (counts[r] bytes each). */
kern_status kern__mpi_allgatherv(kern_group *g, const void *mine, void *all,
                                 const size_t *counts);
/* Rank root's `bytes` bytes at buf to every rank. */
kern_status kern__mpi_bcast(kern_group *g, void *buf, size_t bytes, int root);

/* backend_cuda.c: makes CUDA device dev (an index within the backend)
 * current on this thread, for NCCL. */
kern_status kern__cuda_enter(void *state, int dev);

/* nccl.c */
/* Loads NCCL (once per process) and makes one communicator per local
 * shard; under MPI the unique id travels by kern__mpi_bcast.  Unavailable:
 * KERN_ERROR_BACKEND_UNAVAILABLE "unavailable: libnccl.so.2 not found". */
kern_status kern__nccl_open(kern_group *g);
void kern__nccl_close(kern_group *g);
/* Whether libnccl can be loaded, and why not (for messages). */
int kern__nccl_available(char *why, size_t why_size);
/* Each enqueues its NCCL calls on the shards' streams; with wait it then
 * waits for the streams against the group's deadline, without it returns
 * at once (kern_group_synchronize waits later). */
kern_status kern__nccl_all_reduce(kern_sharded *s, kern_reduce_op op,
                                  int wait);
kern_status kern__nccl_all_gather(const kern_sharded *src, kern_sharded *dst,
                                  int wait);
kern_status kern__nccl_reduce_scatter(const kern_sharded *src,
                                      kern_sharded *dst, kern_reduce_op op,
                                      int wait);
kern_status kern__nccl_broadcast(kern_sharded *s, int root, int wait);
kern_status kern__nccl_halo(kern_sharded *s, int wait);
/* Marks the communicators dead after a wait failed or timed out: they are
 * aborted, not destroyed, when the group is freed. */
void kern__nccl_poison(kern_group *g);

/* multi.c: the internal objects behind local shard i's handles. */
kern_array *kern__shard_array(const kern_sharded *s, int i);
kern_stream *kern__shard_stream(const kern_group *g, int i);
/* Waits for local shard i's stream, failing after the group's timeout
 * (NCCL work of a rank that never arrives would never finish). */
kern_status kern__shard_wait(kern_group *g, int i, const char *what);
/* Records the group's first failure (and returns st). */
kern_status kern__group_fail(kern_group *g, kern_status st);

#endif
