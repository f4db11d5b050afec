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

/* Streams, events and graphs are handles like arrays (Note [handle table]
 * in handle.c): each object keeps its own in `h`, and public entry points
 * turn the caller's handle into the object with the helpers below, so a
 * NULL, freed or foreign handle is KERN_ERROR_INVALID_HANDLE in any order
 * of frees. */

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
  kern_kernel *kernel_h; /* its handle: a graph checks it before a replay */
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
  /* the handles of the arrays behind dptr and sptr (NULL when none): a
   * graph checks them before a replay, as their memory may be gone */
  const kern_array *arr_h[2];
  unsigned char *pattern;
  size_t pattern_size;
  /* OP_RECORD / OP_WAIT */
  kern__mark *mark;
} kern__cmd;

struct kern_stream {
  kern_stream *h; /* this stream's handle */
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
  kern_event *h; /* this event's handle */
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
  kern_graph *h; /* this graph's handle */
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

/* What kern_pipeline_run measured for one device and chain (Note
 * [pipeline model] in pipeline.c): each stage's time per chunk as a + b *
 * elements, the hand-offs between the stage streams and the host's cost
 * of enqueueing a chunk, all in ms; and the rates it saw, for the report. */
typedef struct kern__tune {
  kern_device dev;
  kern_kernel *first;
  int nkernels;
  double a[3], b[3];
  double hand, issue;
  double gbs[3]; /* upload, compute, download rates in GB/s */
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
  struct kern__pipe_res *pipe_res; /* pipeline.c's idle streams and events */
} kern__async;

/* stream.c */
kern__async *kern__async_get(kern_context *ctx); /* creates on first use */
double kern__now_ms(void);
/* Handle -> object, NULL when the handle is not live; the *_enter forms
 * also start a public call on the object's context (Note [error recency]). */
static inline kern_stream *kern__stream_get(const kern_stream *h) {
  return (kern_stream *)kern__handle_get(h, KERN__H_STREAM);
}
static inline kern_event *kern__event_get(const kern_event *h) {
  return (kern_event *)kern__handle_get(h, KERN__H_EVENT);
}
static inline kern_graph *kern__graph_get(const kern_graph *h) {
  return (kern_graph *)kern__handle_get(h, KERN__H_GRAPH);
}
kern_stream *kern__stream_enter(const kern_stream *h);
kern_event *kern__event_enter(const kern_event *h);
kern_graph *kern__graph_enter(const kern_graph *h);
/* An optional stream argument on ctx: *s is NULL for a NULL handle (the
 * default stream), else the live stream; a handle that is not live is
 * KERN_ERROR_INVALID_HANDLE, recorded on ctx. */
kern_status kern__stream_arg(kern_context *ctx, const kern_stream *h,
                             kern_stream **s, const char *fn);

/* kern_stream_default on the context object (stream.c). */
kern_status kern__stream_default(kern_context *ctx, kern_device dev,
                                 kern_stream **out);
kern_status kern__stream_resolve(kern_context *ctx, kern_device dev,
                                 kern_stream *s, kern_stream **out);
/* Enqueues c (owned by the stream from now on, freed on failure). */
kern_status kern__stream_push(kern_stream *s, kern__cmd *c);
kern_status kern__stream_launch(kern_stream *s, kern_kernel *k,
                                const kern__pack *pk, int ndim,
                                const int64_t *dims, int nargs);
/* kern_stream_synchronize on the stream object: waits for its work and
 * returns (and clears) the first error of its queued work. */
kern_status kern__stream_sync(kern_stream *s);
kern__cmd *kern__cmd_clone(const kern__cmd *c);
void kern__cmd_free(kern_context *ctx, kern__cmd *c);
/* Copies a launch's marshalled arguments into c (argv re-pointed). */
kern_status kern__cmd_set_slots(kern__cmd *c, const kern__pack *pk);

/* pipeline.c: forgets the idle pipeline streams and events (which the
 * context frees with its other streams and events). */
void kern__pipeline_free_all(kern_context *ctx);
/* Note [pipeline model]: the predicted wall time (ms) of count elements in
 * chunks of `chunk` with `sets` buffer sets, and the choice of chunk and
 * sets (each kept when non-zero on entry) with the smallest prediction,
 * within `budget` bytes of device memory at per_elem bytes per element. */
double kern__pipeline_predict(const kern__tune *t, int64_t count,
                              int64_t chunk, int sets);
void kern__pipeline_choose(const kern__tune *t, int64_t count,
                           size_t per_elem, uint64_t budget, size_t esize0,
                           int64_t *chunk, int *sets, double *predicted);

/* graph.c */
kern_status kern__graph_record(struct kern_graph *g, kern__cmd *c);
void kern__graph_free_all(kern_context *ctx);

#endif
