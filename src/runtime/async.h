/*
 * async.h -- internals shared by the asynchronous part of the runtime.
 *
 *   stream.c    streams, events, async copies and launches, pinned memory,
 *               the hooks that keep the synchronous API ordered
 *   graph.c     capture and replay of recorded work
 *   pipeline.c  chunked, overlapped streaming of host arrays through kernels
 *   interop.c   wrapping foreign memory and streams, DLPack
 *   config.c    the device choice from KERN_DEVICE and the config file
 *
 * Everything here hangs off kern_context.async, created on first use, so a
 * context that never uses streams pays one NULL test per synchronous call.
 */
#ifndef KERN_ASYNC_H
#define KERN_ASYNC_H

#include <pthread.h>
#include "runtime.h"

#define KERN__STREAM_MAGIC 0x6b737472u /* "kstr" */
#define KERN__EVENT_MAGIC 0x6b65766eu  /* "kevn" */
#define KERN__GRAPH_MAGIC 0x6b677270u  /* "kgrp" */

/* A point in a generic stream: reached once the worker has run everything
 * enqueued before it.  Refcounted (under async->mu) because the event that
 * made it, the worker that reaches it and the streams that wait for it
 * live independently. */
typedef struct kern__mark {
  int refs;
  int reached;
  double t_ms; /* host monotonic clock when reached */
} kern__mark;

typedef enum kern__op {
  OP_LAUNCH,
  OP_COPY_IN,
  OP_COPY_OUT,
  OP_COPY_DD,
  OP_FILL,
  OP_RECORD,
  OP_WAIT
} kern__op;

/* One unit of work in a generic stream or in a recorded graph. */
typedef struct kern__cmd {
  kern__op op;
  struct kern__cmd *next;
  /* OP_LAUNCH: the kernel, its marshalled arguments (argv points into
   * slots) and the grid; graphs also keep the caller's arguments so one
   * can be replaced and the whole launch checked again. */
  kern_kernel *kernel;
  int nslots;
  kern__slot *slots;
  void **argv;
  kern__dims dims;
  int ndim;
  int64_t shape[KERN_MAX_DIMS];
  int nargs;
  kern_arg *args;
  kern__slot *argdata; /* copies of KERN_ARG_DATA bytes, one per arg */
  void *node;          /* the native graph node of a captured launch */
  /* copies and fills */
  void *dptr;          /* device pointer (destination for in/dd/fill) */
  void *sptr;          /* device pointer (source for out/dd) */
  size_t doff, soff, bytes;
  void *host;          /* host buffer of a copy */
  unsigned char *pattern;
  size_t pattern_size;
  /* OP_RECORD / OP_WAIT */
  kern__mark *mark;
} kern__cmd;

struct kern_stream {
  unsigned magic;
  kern_context *ctx;
  kern_device dev;
  const kern_backend *be;
  void *state;
  int index;
  void *native;  /* the backend's stream; NULL for a generic stream */
  int is_default;
  int wrapped;   /* native stream not owned by kern */
  /* generic streams: Note [generic streams] in stream.c */
  pthread_t thread;
  int started;
  int stop;
  pthread_cond_t wake;
  kern__cmd *head, *tail;
  uint64_t enqueued, completed;
  kern_status err; /* first failure of queued work not yet reported */
  struct kern_graph *capture; /* recording into this graph, or NULL */
  struct kern_stream *prev, *next;
};

struct kern_event {
  unsigned magic;
  kern_context *ctx;
  int recorded;   /* 0 never, 1 on a generic stream, 2 on a native one */
  kern__mark *mark;
  kern_device dev; /* of the last record */
  const kern_backend *be;
  void *state;
  int index;
  void *native;    /* native event, created for dev */
  kern_device native_dev;
  struct kern_event *prev, *next;
};

struct kern_graph {
  unsigned magic;
  kern_context *ctx;
  kern_device dev;
  const kern_backend *be;
  void *state;
  int index;
  kern__cmd *head, *tail;
  int nlaunches;
  void *native; /* executable native graph, or NULL */
  kern_status capture_err; /* first failure while recording */
  struct kern_graph *prev, *next;
};

typedef struct kern__pin {
  void *p;
  kern_device dev;
  int native; /* from the backend's host_alloc */
  struct kern__pin *next;
} kern__pin;

typedef struct kern__tune {
  kern_device dev;
  kern_kernel *first;
  int nkernels;
  int64_t chunk;
  int buffers;
  struct kern__tune *next;
} kern__tune;

typedef struct kern__async {
  pthread_mutex_t mu;    /* queues, marks, lists */
  pthread_cond_t done;   /* broadcast whenever a command completes */
  pthread_mutex_t exec;  /* one generic launch at a time per context */
  kern_stream *streams;
  kern_stream **defaults; /* per device, created on first use */
  kern_event *events;
  struct kern_graph *graphs;
  kern__pin *pins;
  kern__tune *tunes;
} kern__async;

/* stream.c */
kern__async *kern__async_get(kern_context *ctx); /* creates on first use */
double kern__now_ms(void);
kern_status kern__stream_resolve(kern_context *ctx, kern_device dev,
                                 kern_stream *s, kern_stream **out);
/* Enqueues c (owned by the stream from now on, freed on failure). */
kern_status kern__stream_push(kern_stream *s, kern__cmd *c);
kern_status kern__stream_launch(kern_stream *s, kern_kernel *k,
                                const kern__pack *pk, int ndim,
                                const int64_t *dims, int nargs,
                                const kern_arg *args);
kern__cmd *kern__cmd_clone(const kern__cmd *c);
void kern__cmd_free(kern_context *ctx, kern__cmd *c);
/* Copies a launch's marshalled arguments into c (argv re-pointed). */
kern_status kern__cmd_set_slots(kern__cmd *c, const kern__pack *pk);

/* graph.c */
kern_status kern__graph_record(struct kern_graph *g, kern__cmd *c);
void kern__graph_free_all(kern_context *ctx);

#endif
