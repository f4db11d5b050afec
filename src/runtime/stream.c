/*
 * stream.c -- streams, events, asynchronous copies and launches, pinned host
 * memory, and the hooks that keep the synchronous API ordered.
 *
 * Two kinds of stream share one public handle.  A backend with native
 * streams (CUDA: CUstream and CUevent) gets every call passed straight
 * through, so an asynchronous launch costs the argument checks plus one
 * cuLaunchKernel.  Every other backend gets generic streams: Note [generic
 * streams].  The kind is fixed per backend, so one stream never mixes them.
 *
 * The context's asynchronous state (kern__async) is made on first use; until
 * then the synchronous API's hooks below cost one NULL test.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common.h"
#include "async.h"

/* Note [generic streams]
 * A generic stream is a FIFO of commands (kern__cmd) served by one worker
 * thread, started on the first enqueue.  The worker takes the head, runs it
 * through the backend's synchronous methods, then pops it and counts it as
 * completed; so work on one stream runs in order, work on two streams runs
 * concurrently, and the caller never waits for an enqueue.  Launches from
 * several workers (and synchronous launches) take the context's exec lock:
 * the CPU backend has one thread pool per context and OpenCL kernels carry
 * their arguments, so two launches at once would trample each other; copies
 * run without it, which is where the overlap comes from.
 *
 * Events on generic streams are marks (kern__mark): a record enqueues a
 * command that stamps the mark with the host's monotonic clock when the
 * worker reaches it, and a wait enqueues a command that blocks the worker
 * until the mark is reached.  Marks are refcounted, so freeing an event or
 * a stream while another stream still waits for its mark is safe.
 *
 * One mutex per context (async->mu) guards every queue and mark, and one
 * condition variable (async->done) is broadcast whenever any command
 * completes; waiters recheck their own condition.  Streams are few and
 * commands coarse, so the simplicity is worth more than finer locks. */

double kern__now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- state */

kern__async *kern__async_get(kern_context *ctx) {
  if (ctx->async) return ctx->async;
  kern__async *a = kern__calloc(1, sizeof *a);
  if (!a) return NULL;
  a->defaults = kern__calloc((size_t)(ctx->ndevices ? ctx->ndevices : 1),
                             sizeof *a->defaults);
  if (!a->defaults) {
    kern__free(a);
    return NULL;
  }
  pthread_mutex_init(&a->mu, NULL);
  pthread_cond_init(&a->done, NULL);
  pthread_mutex_init(&a->exec, NULL);
  ctx->async = a;
  return a;
}

static kern__mark *mark_new(void) {
  kern__mark *m = kern__calloc(1, sizeof *m);
  if (m) m->refs = 1;
  return m;
}

/* Under async->mu. */
static void mark_unref(kern__mark *m) {
  if (m && --m->refs == 0) kern__free(m);
}

void kern__cmd_free(kern_context *ctx, kern__cmd *c) {
  if (!c) return;
  if (c->mark) {
    kern__async *a = ctx->async;
    pthread_mutex_lock(&a->mu);
    mark_unref(c->mark);
    pthread_mutex_unlock(&a->mu);
  }
  kern__free(c->slots);
  kern__free(c->argv);
  kern__free(c->args);
  kern__free(c->argdata);
  kern__free(c->pattern);
  kern__free(c);
}

kern_status kern__cmd_set_slots(kern__cmd *c, const kern__pack *pk) {
  size_t n = (size_t)(pk->nslots ? pk->nslots : 1);
  kern__slot *slots = kern__malloc(n * sizeof *slots);
  void **argv = kern__malloc(n * sizeof *argv);
  if (!slots || !argv) {
    kern__free(slots);
    kern__free(argv);
    return KERN_ERROR_OUT_OF_MEMORY;
  }
  for (int i = 0; i < pk->nslots; i++) {
    slots[i] = pk->slots[i];
    argv[i] = &slots[i];
  }
  kern__free(c->slots);
  kern__free(c->argv);
  c->slots = slots;
  c->argv = argv;
  c->nslots = pk->nslots;
  c->dims = pk->dims;
  return KERN_SUCCESS;
}

kern__cmd *kern__cmd_clone(const kern__cmd *c) {
  kern__cmd *d = kern__calloc(1, sizeof *d);
  if (!d) return NULL;
  *d = *c;
  d->next = NULL;
  d->slots = NULL;
  d->argv = NULL;
  d->args = NULL;
  d->argdata = NULL;
  d->pattern = NULL;
  d->mark = NULL; /* graphs never hold marks */
  d->nargs = 0;
  if (c->op == OP_LAUNCH) {
    kern__pack pk;
    pk.nslots = c->nslots;
    pk.slots = c->slots;
    pk.dims = c->dims;
    if (kern__cmd_set_slots(d, &pk) != KERN_SUCCESS) goto oom;
  }
  if (c->pattern) {
    d->pattern = kern__malloc(c->pattern_size);
    if (!d->pattern) goto oom;
    memcpy(d->pattern, c->pattern, c->pattern_size);
  }
  return d;
oom:
  kern__free(d->slots);
  kern__free(d->argv);
  kern__free(d);
  return NULL;
}

/* ---------------------------------------------------------------- worker */

static kern_status run_cmd(kern_stream *s, kern__cmd *c) {
  const kern_backend *be = s->be;
  kern__async *a = s->ctx->async;
  switch (c->op) {
  case OP_LAUNCH: {
    pthread_mutex_lock(&a->exec);
    kern_status st = be->launch(s->state, s->index, c->kernel->fn,
                                c->kernel->info, (void *const *)c->argv,
                                &c->dims);
    pthread_mutex_unlock(&a->exec);
    return st;
  }
  case OP_COPY_IN:
    if (be->copy_in_at)
      return be->copy_in_at(s->state, s->index, c->dptr, c->doff, c->host,
                            c->bytes);
    return be->copy_in(s->state, s->index, (char *)c->dptr + c->doff,
                       c->host, c->bytes);
  case OP_COPY_OUT:
    if (be->copy_out_at)
      return be->copy_out_at(s->state, s->index, c->host, c->sptr, c->soff,
                             c->bytes);
    return be->copy_out(s->state, s->index, c->host,
                        (char *)c->sptr + c->soff, c->bytes);
  case OP_COPY_DD:
    if (be->copy_dd)
      return be->copy_dd(s->state, s->index, c->dptr, c->doff, c->sptr,
                         c->soff, c->bytes);
    memmove((char *)c->dptr + c->doff, (char *)c->sptr + c->soff, c->bytes);
    return KERN_SUCCESS;
  case OP_FILL:
    return be->fill(s->state, s->index, c->dptr, c->pattern, c->pattern_size,
                    c->bytes);
  case OP_RECORD: {
    double t = be->version >= 7 && be->device_clock_ms
                   ? be->device_clock_ms(s->state, s->index)
                   : kern__now_ms();
    /* `reached` is set when the command is counted complete (the worker
     * loop), so a caller that saw the event complete also sees the
     * stream's work up to it complete. */
    pthread_mutex_lock(&a->mu);
    c->mark->t_ms = t;
    pthread_mutex_unlock(&a->mu);
    return KERN_SUCCESS;
  }
  case OP_WAIT:
    pthread_mutex_lock(&a->mu);
    while (!c->mark->reached) pthread_cond_wait(&a->done, &a->mu);
    pthread_mutex_unlock(&a->mu);
    return KERN_SUCCESS;
  }
  return KERN_ERROR_INVALID_ARGUMENT;
}

static void *stream_worker(void *arg) {
  kern_stream *s = arg;
  kern__async *a = s->ctx->async;
  pthread_mutex_lock(&a->mu);
  for (;;) {
    while (!s->head && !s->stop) pthread_cond_wait(&s->wake, &a->mu);
    if (!s->head) break; /* stop and drained */
    kern__cmd *c = s->head;
    pthread_mutex_unlock(&a->mu);
    kern_status st = run_cmd(s, c);
    pthread_mutex_lock(&a->mu);
    s->head = c->next;
    if (!s->head) s->tail = NULL;
    if (st != KERN_SUCCESS && s->err == KERN_SUCCESS) s->err = st;
    s->completed++;
    if (c->op == OP_RECORD) c->mark->reached = 1;
    if (c->mark) {
      mark_unref(c->mark);
      c->mark = NULL;
    }
    pthread_cond_broadcast(&a->done);
    pthread_mutex_unlock(&a->mu);
    kern__cmd_free(s->ctx, c); /* takes no lock: the mark is gone */
    pthread_mutex_lock(&a->mu);
  }
  pthread_mutex_unlock(&a->mu);
  return NULL;
}

/* Under async->mu. */
static kern_status worker_start(kern_stream *s) {
  if (s->started) return KERN_SUCCESS;
  /* Workers block every signal so the application's handlers keep running
   * on the threads it knows about. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = kern__thread_create(&s->thread, stream_worker, s);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) return KERN_ERROR_OUT_OF_MEMORY;
  s->started = 1;
  return KERN_SUCCESS;
}

kern_status kern__stream_push(kern_stream *s, kern__cmd *c) {
  kern__async *a = s->ctx->async;
  pthread_mutex_lock(&a->mu);
  kern_status st = worker_start(s);
  if (st != KERN_SUCCESS) {
    pthread_mutex_unlock(&a->mu);
    kern__cmd_free(s->ctx, c);
    return kern__error(s->ctx, st, "stream: cannot start a worker thread");
  }
  c->next = NULL;
  if (s->tail) s->tail->next = c;
  else s->head = c;
  s->tail = c;
  s->enqueued++;
  pthread_cond_signal(&s->wake);
  pthread_mutex_unlock(&a->mu);
  return KERN_SUCCESS;
}

/* Under async->mu. */
static void generic_wait_idle(kern_stream *s) {
  kern__async *a = s->ctx->async;
  while (s->completed < s->enqueued) pthread_cond_wait(&a->done, &a->mu);
}

/* ---------------------------------------------------------------- streams */

static kern_status stream_make(kern_context *ctx, kern_device dev,
                               int is_default, void *wrap,
                               kern_stream **out) {
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  if (!be)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "stream: no device %d (the context has %d)", dev,
                       ctx->ndevices);
  kern__async *a = kern__async_get(ctx);
  if (!a) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "stream: out of memory");
  kern_stream *s = kern__calloc(1, sizeof *s);
  if (!s) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "stream: out of memory");
  s->ctx = ctx;
  s->dev = dev;
  s->be = be;
  s->state = state;
  s->index = index;
  s->is_default = is_default;
  kern_status st = KERN_SUCCESS;
  if (wrap) {
    if (!be->stream_new) {
      kern__free(s);
      return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                         "kern_stream_wrap: backend %s has no native streams "
                         "to wrap",
                         be->name);
    }
    if (be->version >= 4 && be->adopt &&
        (st = be->adopt(state, index, KERN__NATIVE_STREAM, wrap))) {
      kern__free(s);
      return kern__error(ctx, st, "kern_stream_wrap: the queue cannot be "
                         "used on %s:%d", be->name, index);
    }
    s->native = wrap;
    s->wrapped = 1;
  } else if (be->stream_new) {
    if (is_default && be->stream_default) {
      st = be->stream_default(state, index, &s->native);
      s->wrapped = 1; /* the backend's own stream */
    } else {
      st = be->stream_new(state, index, &s->native);
    }
    /* A backend whose device cannot have native streams (vulkan without
     * timeline semaphores: Note [vulkan streams]) says so with
     * KERN_ERROR_UNSUPPORTED, and the stream is a generic one. */
    if (st == KERN_ERROR_UNSUPPORTED) {
      st = KERN_SUCCESS;
      s->native = NULL;
      s->wrapped = 0;
    }
  }
  if (st != KERN_SUCCESS) {
    kern__free(s);
    return kern__error(ctx, st, "stream: cannot create a stream on %s:%d",
                       be->name, index);
  }
  s->h = kern__handle_new(KERN__H_STREAM, s);
  if (!s->h) {
    if (s->native && !s->wrapped) be->stream_free(state, index, s->native);
    kern__free(s);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "stream: out of memory");
  }
  pthread_cond_init(&s->wake, NULL);
  pthread_mutex_lock(&a->mu);
  s->next = a->streams;
  if (a->streams) a->streams->prev = s;
  a->streams = s;
  pthread_mutex_unlock(&a->mu);
  *out = s;
  return KERN_SUCCESS;
}

static kern_status stream_sync(kern_stream *s);
static kern_status event_sync(kern_event *e);

kern_status kern_stream_new(kern_context *hctx, kern_device dev,
                            kern_stream **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_new: out is NULL");
  kern_stream *s;
  kern_status st = stream_make(ctx, dev, 0, NULL, &s);
  if (st == KERN_SUCCESS) *out = s->h;
  return st;
}

kern_status kern_stream_wrap(kern_context *hctx, kern_device dev, void *native,
                             kern_stream **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out || !native)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_wrap: %s is NULL", out ? "native" : "out");
  kern_stream *s;
  kern_status st = stream_make(ctx, dev, 0, native, &s);
  if (st == KERN_SUCCESS) *out = s->h;
  return st;
}

kern_status kern_stream_default(kern_context *hctx, kern_device dev,
                                kern_stream **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  kern_stream *s;
  kern_status st = kern__stream_default(ctx, dev, out ? &s : NULL);
  if (st == KERN_SUCCESS) *out = s->h;
  return st;
}

/* kern_stream_default on the context object, for the library's own use. */
kern_status kern__stream_default(kern_context *ctx, kern_device dev,
                                 kern_stream **out) {
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_default: out is NULL");
  if (dev < 0 || dev >= ctx->ndevices)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_default: no device %d (the context has "
                       "%d)",
                       dev, ctx->ndevices);
  kern__async *a = kern__async_get(ctx);
  if (!a) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "stream: out of memory");
  if (!a->defaults[dev]) {
    kern_stream *s;
    kern_status st = stream_make(ctx, dev, 1, NULL, &s);
    if (st != KERN_SUCCESS) return st;
    a->defaults[dev] = s;
  }
  *out = a->defaults[dev];
  return KERN_SUCCESS;
}

/* The stream an async call uses: s itself after checks, or the default
 * stream of dev for NULL. */
kern_status kern__stream_resolve(kern_context *ctx, kern_device dev,
                                 kern_stream *s, kern_stream **out) {
  if (!s) return kern__stream_default(ctx, dev, out);
  if (s->ctx != ctx)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "stream belongs to another context");
  if (s->dev != dev)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "stream is on device %d but the work is for device "
                       "%d",
                       s->dev, dev);
  *out = s;
  return KERN_SUCCESS;
}

kern_stream *kern__stream_enter(const kern_stream *h) {
  kern_stream *s = kern__stream_get(h);
  if (s) kern__call_begin(s->ctx);
  return s;
}

kern_event *kern__event_enter(const kern_event *h) {
  kern_event *e = kern__event_get(h);
  if (e) kern__call_begin(e->ctx);
  return e;
}

kern_status kern__stream_arg(kern_context *ctx, const kern_stream *h,
                             kern_stream **s, const char *fn) {
  *s = NULL;
  if (!h) return KERN_SUCCESS;
  if (!(*s = kern__stream_get(h)))
    return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "%s: the stream is not a live stream (already "
                       "freed?)",
                       fn);
  return KERN_SUCCESS;
}

/* The queries start no call: they cannot fail, so they leave the error. */
kern_device kern_stream_device(const kern_stream *h) {
  const kern_stream *s = kern__stream_get(h);
  return s ? s->dev : -1;
}

void *kern_stream_native(const kern_stream *h) {
  const kern_stream *s = kern__stream_get(h);
  return s ? s->native : NULL;
}

kern_status kern_stream_synchronize(kern_stream *h) {
  kern_stream *s = kern__stream_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  return stream_sync(s);
}

kern_status kern__stream_sync(kern_stream *s) { return stream_sync(s); }

static kern_status stream_sync(kern_stream *s) {
  if (s->capture)
    return kern__error(s->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_synchronize: the stream is capturing a "
                       "graph");
  if (s->native) {
    kern_status st = s->be->stream_sync(s->state, s->index, s->native);
    if (st != KERN_SUCCESS)
      return kern__error(s->ctx, st, "stream on %s:%d failed", s->be->name,
                         s->index);
    return KERN_SUCCESS;
  }
  kern__async *a = s->ctx->async;
  pthread_mutex_lock(&a->mu);
  generic_wait_idle(s);
  kern_status st = s->err;
  s->err = KERN_SUCCESS;
  pthread_mutex_unlock(&a->mu);
  if (st != KERN_SUCCESS)
    return kern__error(s->ctx, st, "work on a stream of %s:%d failed",
                       s->be->name, s->index);
  return KERN_SUCCESS;
}

kern_status kern_stream_query(kern_stream *h, int *done) {
  kern_stream *s = kern__stream_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  if (!done)
    return kern__error(s->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_query: done is NULL");
  if (s->native) {
    kern_status st = s->be->stream_query(s->state, s->index, s->native, done);
    if (st != KERN_SUCCESS)
      return kern__error(s->ctx, st, "stream on %s:%d failed", s->be->name,
                         s->index);
    return KERN_SUCCESS;
  }
  kern__async *a = s->ctx->async;
  pthread_mutex_lock(&a->mu);
  *done = s->completed == s->enqueued;
  pthread_mutex_unlock(&a->mu);
  return KERN_SUCCESS;
}

/* Stops and frees s; its queue has drained.  Not for default streams while
 * the context lives. */
static kern_status stream_destroy(kern_stream *s) {
  /* The handle goes first: nothing reaches the stream while it drains. */
  kern__handle_release(s->h, KERN__H_STREAM);
  kern_context *ctx = s->ctx;
  kern__async *a = ctx->async;
  kern_status st = KERN_SUCCESS;
  if (s->native) {
    st = s->be->stream_sync(s->state, s->index, s->native);
    if (!s->wrapped) {
      kern_status st2 = s->be->stream_free(s->state, s->index, s->native);
      if (st == KERN_SUCCESS) st = st2;
    }
  }
  pthread_mutex_lock(&a->mu);
  generic_wait_idle(s);
  if (st == KERN_SUCCESS) st = s->err;
  s->stop = 1;
  pthread_cond_signal(&s->wake);
  int started = s->started;
  pthread_mutex_unlock(&a->mu);
  if (started) pthread_join(s->thread, NULL);
  pthread_mutex_lock(&a->mu);
  if (s->prev) s->prev->next = s->next;
  else a->streams = s->next;
  if (s->next) s->next->prev = s->prev;
  pthread_mutex_unlock(&a->mu);
  pthread_cond_destroy(&s->wake);
  kern__free(s);
  return st;
}

kern_status kern_stream_free(kern_stream *h) {
  /* A freed stream (also one freed with its context) is left alone, as by
   * every *_free (Note [handle table]); the status says it was not live. */
  if (!h) return KERN_SUCCESS;
  kern_stream *s = kern__stream_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = s->ctx;
  if (s->is_default)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_free: a default stream belongs to its "
                       "context and is freed with it");
  if (s->capture)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_free: the stream is capturing a graph; "
                       "end the capture first");
  /* Work still in flight is waited for, not abandoned: its buffers belong
   * to the caller, who expects it to happen. */
  const char *bn = s->be->name;
  int index = s->index;
  kern_status st = stream_destroy(s);
  if (st != KERN_SUCCESS)
    return kern__error(ctx, st, "work on a freed stream of %s:%d failed", bn,
                       index);
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- events */

kern_status kern_event_new(kern_context *hctx, kern_event **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_event_new: out is NULL");
  kern__async *a = kern__async_get(ctx);
  kern_event *e = a ? kern__calloc(1, sizeof *e) : NULL;
  if (e) e->h = kern__handle_new(KERN__H_EVENT, e);
  if (!e || !e->h) {
    kern__free(e);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "event: out of memory");
  }
  e->ctx = ctx;
  e->dev = -1;
  e->native_dev = -1;
  pthread_mutex_lock(&a->mu);
  e->next = a->events;
  if (a->events) a->events->prev = e;
  a->events = e;
  pthread_mutex_unlock(&a->mu);
  *out = e->h;
  return KERN_SUCCESS;
}

static void event_destroy(kern_event *e) {
  kern__handle_release(e->h, KERN__H_EVENT);
  kern__async *a = e->ctx->async;
  if (e->native) e->be->event_free(e->state, e->index, e->native);
  pthread_mutex_lock(&a->mu);
  mark_unref(e->mark);
  if (e->prev) e->prev->next = e->next;
  else a->events = e->next;
  if (e->next) e->next->prev = e->prev;
  pthread_mutex_unlock(&a->mu);
  kern__free(e);
}

void kern_event_free(kern_event *h) {
  kern_event *e = kern__event_get(h);
  if (!e) return;
  event_destroy(e);
}

kern_status kern_event_record(kern_event *h, kern_stream *hs) {
  kern_event *e = kern__event_enter(h);
  if (!e) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = e->ctx;
  kern_stream *s;
  kern_status st;
  if ((st = kern__stream_arg(ctx, hs, &s, "kern_event_record"))) return st;
  if (!s && (st = kern__stream_default(ctx, 0, &s))) return st;
  if (s->ctx != ctx)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_event_record: event and stream belong to "
                       "different contexts");
  if (s->capture)
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_event_record: events cannot be recorded into a "
                       "graph");
  kern__async *a = ctx->async;
  if (s->native) {
    if (e->native && e->native_dev != s->dev) {
      e->be->event_free(e->state, e->index, e->native);
      e->native = NULL;
    }
    if (!e->native) {
      st = s->be->event_new(s->state, s->index, &e->native);
      if (st != KERN_SUCCESS)
        return kern__error(ctx, st, "event: cannot create an event on %s:%d",
                           s->be->name, s->index);
      e->be = s->be;
      e->state = s->state;
      e->index = s->index;
      e->native_dev = s->dev;
    }
    st = s->be->event_record(s->state, s->index, e->native, s->native);
    if (st != KERN_SUCCESS)
      return kern__error(ctx, st, "event record on %s:%d failed",
                         s->be->name, s->index);
    e->recorded = 2;
    e->dev = s->dev;
    return KERN_SUCCESS;
  }
  kern__mark *m = mark_new();
  kern__cmd *c = kern__calloc(1, sizeof *c);
  if (!m || !c) {
    kern__free(m);
    kern__free(c);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "event: out of memory");
  }
  m->refs = 2; /* the event and the command */
  c->op = OP_RECORD;
  c->mark = m;
  pthread_mutex_lock(&a->mu);
  mark_unref(e->mark);
  e->mark = m;
  pthread_mutex_unlock(&a->mu);
  /* e->be and e->native stay as they are: they describe the native event,
   * which is kept for a later record on a native stream. */
  e->recorded = 1;
  e->dev = s->dev;
  return kern__stream_push(s, c);
}

kern_status kern_event_synchronize(kern_event *h) {
  kern_event *e = kern__event_enter(h);
  if (!e) return KERN_ERROR_INVALID_HANDLE;
  return event_sync(e);
}

static kern_status event_sync(kern_event *e) {
  if (e->recorded == 2) {
    kern_status st = e->be->event_sync(e->state, e->index, e->native);
    if (st != KERN_SUCCESS)
      return kern__error(e->ctx, st, "event on %s:%d failed", e->be->name,
                         e->index);
    return KERN_SUCCESS;
  }
  if (e->recorded == 1) {
    kern__async *a = e->ctx->async;
    pthread_mutex_lock(&a->mu);
    while (!e->mark->reached) pthread_cond_wait(&a->done, &a->mu);
    pthread_mutex_unlock(&a->mu);
  }
  return KERN_SUCCESS;
}

kern_status kern_event_query(kern_event *h, int *done) {
  kern_event *e = kern__event_enter(h);
  if (!e) return KERN_ERROR_INVALID_HANDLE;
  if (!done)
    return kern__error(e->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_event_query: done is NULL");
  if (e->recorded == 2) {
    kern_status st = e->be->event_query(e->state, e->index, e->native, done);
    if (st != KERN_SUCCESS)
      return kern__error(e->ctx, st, "event on %s:%d failed", e->be->name,
                         e->index);
    return KERN_SUCCESS;
  }
  if (e->recorded == 1) {
    kern__async *a = e->ctx->async;
    pthread_mutex_lock(&a->mu);
    *done = e->mark->reached;
    pthread_mutex_unlock(&a->mu);
  } else {
    *done = 1;
  }
  return KERN_SUCCESS;
}

kern_status kern_event_elapsed(kern_event *hstart, kern_event *hend,
                               double *ms) {
  kern_event *start = kern__event_enter(hstart);
  if (!start) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = start->ctx;
  kern_event *end = kern__event_get(hend);
  if (!end)
    return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "kern_event_elapsed: the end event is not live");
  if (end->ctx != ctx)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_event_elapsed: the events belong to different "
                       "contexts");
  if (!ms)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_event_elapsed: ms is NULL");
  if (!start->recorded || !end->recorded)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_event_elapsed: an event was never recorded");
  if (start->recorded != end->recorded || start->dev != end->dev)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_event_elapsed: the events were recorded on "
                       "different devices");
  if (start->recorded == 2) {
    kern_status st = start->be->event_elapsed(start->state, start->index,
                                              start->native, end->native, ms);
    if (st != KERN_SUCCESS)
      return kern__error(ctx, st, "kern_event_elapsed on %s:%d failed",
                         start->be->name, start->index);
    return KERN_SUCCESS;
  }
  kern__async *a = ctx->async;
  pthread_mutex_lock(&a->mu);
  int ready = start->mark->reached && end->mark->reached;
  double d = end->mark->t_ms - start->mark->t_ms;
  pthread_mutex_unlock(&a->mu);
  if (!ready)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_event_elapsed: an event has not completed yet "
                       "(synchronize it first)");
  *ms = d;
  return KERN_SUCCESS;
}

kern_status kern_stream_wait_event(kern_stream *h, kern_event *he) {
  kern_stream *s = kern__stream_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = s->ctx;
  kern_event *e = kern__event_get(he);
  if (!e)
    return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "kern_stream_wait_event: the event is not live");
  if (e->ctx != ctx)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_stream_wait_event: the event belongs to another "
                       "context");
  if (s->capture)
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_stream_wait_event: events cannot be waited for "
                       "inside a graph");
  if (!e->recorded) return KERN_SUCCESS; /* nothing to wait for */
  if (e->recorded == 2 && s->native && e->be == s->be) {
    kern_status st = s->be->stream_wait(s->state, s->index, s->native,
                                        e->native);
    if (st != KERN_SUCCESS)
      return kern__error(ctx, st, "kern_stream_wait_event on %s:%d failed",
                         s->be->name, s->index);
    return KERN_SUCCESS;
  }
  if (e->recorded == 1 && !s->native) {
    kern__cmd *c = kern__calloc(1, sizeof *c);
    if (!c) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "event: out of memory");
    kern__async *a = ctx->async;
    pthread_mutex_lock(&a->mu);
    c->op = OP_WAIT;
    c->mark = e->mark;
    e->mark->refs++;
    pthread_mutex_unlock(&a->mu);
    return kern__stream_push(s, c);
  }
  /* Across kinds of stream (a CUDA stream waiting for a CPU stream's
   * event): the caller waits, which orders everything it enqueues later. */
  return event_sync(e);
}

/* ---------------------------------------------------------------- work */

/* Whether captured work also goes to the driver's own capture (CUDA); on
 * other native backends a capture only records, and replay issues the
 * recorded list (graph.c). */
static int native_capture(const kern_stream *s) {
  return s->native && s->be->capture_begin;
}

kern_status kern__stream_launch(kern_stream *s, kern_kernel *k,
                                const kern__pack *pk, int ndim,
                                const int64_t *dims, int nargs) {
  /* A graph keeps the arguments as read by the launch (pk->la, this
   * library's kern_arg whatever the caller's struct_size) with array
   * handles again, so a replay or kern_graph_set_arg checks them anew. */
  const kern_arg *args = pk->la;
  kern_context *ctx = s->ctx;
  if (s->native && !s->capture)
    return s->be->launch_async(s->state, s->index, s->native, k->fn, k->info,
                               (void *const *)pk->argv, &pk->dims);
  kern__cmd *c = kern__calloc(1, sizeof *c);
  if (!c || kern__cmd_set_slots(c, pk) != KERN_SUCCESS) {
    kern__free(c);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "launch: out of memory");
  }
  c->op = OP_LAUNCH;
  c->kernel = k;
  c->kernel_h = k->h;
  if (s->capture) {
    c->ndim = ndim;
    for (int i = 0; i < ndim; i++) c->shape[i] = dims[i];
    c->nargs = nargs;
    if (nargs > 0) {
      c->args = kern__malloc((size_t)nargs * sizeof *c->args);
      c->argdata = kern__malloc((size_t)nargs * sizeof *c->argdata);
      if (!c->args || !c->argdata) {
        kern__cmd_free(ctx, c);
        return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                           "launch: out of memory");
      }
      for (int i = 0; i < nargs; i++) {
        c->args[i] = args[i];
        if (args[i].kind == KERN_ARG_ARRAY && args[i].u.array)
          c->args[i].u.array = args[i].u.array->h;
        /* kern__launch_pack checked that DATA fits a slot. */
        if (args[i].kind == KERN_ARG_DATA) {
          memcpy(c->argdata[i].bytes, args[i].u.data, args[i].size);
          c->args[i].u.data = c->argdata[i].bytes;
        }
        /* a kern_indexed is read again when a graph replays the launch */
        if (args[i].kind == KERN_ARG_INDEXED && args[i].u.data) {
          kern_indexed ia = KERN_INDEXED_INIT;
          (void)kern__struct_in(&ia, sizeof ia, args[i].u.data,
                                KERN_INDEXED_SIZE_V1);
          memcpy(c->argdata[i].bytes, &ia, sizeof ia);
          c->args[i].u.data = c->argdata[i].bytes;
        }
      }
    }
    kern_status st = KERN_SUCCESS;
    if (native_capture(s)) {
      st = s->be->launch_async(s->state, s->index, s->native, k->fn, k->info,
                               (void *const *)pk->argv, &pk->dims);
      if (st == KERN_SUCCESS && s->be->capture_node)
        st = s->be->capture_node(s->state, s->index, s->native, &c->node);
    }
    if (st != KERN_SUCCESS) {
      kern__cmd_free(ctx, c);
      return st;
    }
    return kern__graph_record(s->capture, c);
  }
  return kern__stream_push(s, c);
}

kern_status kern_launch_async(kern_kernel *hk, kern_stream *hs, int ndim,
                              const int64_t *dims, int nargs,
                              const kern_arg *args) {
  /* The kernel and the stream in one round trip to the handle table: the
   * launch path's budget (issue #11) is a fraction of a microsecond. */
  kern__handle_lock();
  kern_kernel *k = kern__handle_get_locked(hk, KERN__H_KERNEL);
  kern_stream *s = kern__handle_get_locked(hs, KERN__H_STREAM);
  kern__handle_unlock();
  if (!k) return KERN_ERROR_INVALID_HANDLE;
  kern_module *m = k->module;
  kern_context *ctx = m->ctx;
  kern__call_begin(ctx);
  kern_status st;
  if (hs && !s)
    return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "kern_launch_async: the stream is not a live stream "
                       "(already freed?)");
  if (!s || s->ctx != ctx || s->dev != m->dev)
    if ((st = kern__stream_resolve(ctx, m->dev, s, &s))) return st;
  kern__pack pk;
  if ((st = kern__launch_pack(k, ndim, dims, nargs, args, &pk))) return st;
  /* An empty grid runs nothing once its arguments are checked (docs/ABI.md),
   * and a capture does not record it (a driver refuses a grid of 0 blocks),
   * so kern_graph_set_arg's launch indices count only non-empty launches. */
  if (pk.dims.total == 0) {
    kern__pack_release(&pk);
    return KERN_SUCCESS;
  }
  st = kern__stream_launch(s, k, &pk, ndim, dims, nargs);
  if (st != KERN_SUCCESS) {
    kern__pack_release(&pk);
    return kern__error(ctx, st, "launch of '%s' on %s:%d failed",
                       k->info->name, s->be->name, s->index);
  }
  if (k->info->fault_param && !s->capture) {
    /* Debug mode reads the fault record after the launch. */
    if ((st = stream_sync(s)) == KERN_SUCCESS)
      st = kern__debug_check(k, pk.la, nargs);
  }
  kern__pack_release(&pk);
  return st;
}

static kern_status range_check(const kern_array *a, size_t off, size_t n,
                               const char *fn) {
  if (off > a->nbytes || n > a->nbytes - off)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: bytes [%zu, %zu + %zu) are outside the array's "
                       "%zu bytes",
                       fn, off, off, n, a->nbytes);
  return KERN_SUCCESS;
}

/* Enqueues a copy or fill command, or passes it to the native stream. */
static kern_status enqueue(kern_stream *s, kern__cmd *c, const char *fn) {
  kern_context *ctx = s->ctx;
  kern_status st = KERN_SUCCESS;
  if (s->native && s->capture && !native_capture(s))
    return kern__graph_record(s->capture, c);
  if (s->native) {
    const kern_backend *be = s->be;
    switch (c->op) {
    case OP_COPY_IN:
      st = be->copy_in_async(s->state, s->index, s->native, c->dptr, c->doff,
                             c->host, c->bytes);
      break;
    case OP_COPY_OUT:
      st = be->copy_out_async(s->state, s->index, s->native, c->host,
                              c->sptr, c->soff, c->bytes);
      break;
    case OP_COPY_DD:
      st = be->copy_dd_async(s->state, s->index, s->native, c->dptr, c->doff,
                             c->sptr, c->soff, c->bytes);
      break;
    case OP_FILL:
      st = be->fill_async(s->state, s->index, s->native, c->dptr, c->pattern,
                          c->pattern_size, c->bytes);
      break;
    default:
      st = KERN_ERROR_INVALID_ARGUMENT;
    }
    if (st == KERN_SUCCESS && s->capture) {
      c->node = NULL;
      return kern__graph_record(s->capture, c);
    }
    kern__cmd_free(ctx, c);
    if (st != KERN_SUCCESS)
      return kern__error(ctx, st, "%s on %s:%d failed", fn, s->be->name,
                         s->index);
    return KERN_SUCCESS;
  }
  if (s->capture) return kern__graph_record(s->capture, c);
  return kern__stream_push(s, c);
}

static kern__cmd *cmd_new(kern_context *ctx, kern__op op) {
  kern__cmd *c = kern__calloc(1, sizeof *c);
  if (!c) kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "stream: out of memory");
  else c->op = op;
  return c;
}

kern_status kern_array_upload_async(kern_array *ha, kern_stream *hs,
                                    size_t offset, const void *src,
                                    size_t nbytes) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  kern_status st;
  if (!src)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_upload_async: src is NULL");
  if ((st = range_check(a, offset, nbytes, "kern_array_upload_async")))
    return st;
  kern_stream *s;
  if ((st = kern__stream_arg(a->ctx, hs, &s, "kern_array_upload_async")) ||
      (st = kern__stream_resolve(a->ctx, a->dev, s, &s)))
    return st;
  if (nbytes == 0) return KERN_SUCCESS;
  kern__cmd *c = cmd_new(a->ctx, OP_COPY_IN);
  if (!c) return KERN_ERROR_OUT_OF_MEMORY;
  c->dptr = a->data;
  c->arr_h[0] = a->h;
  c->doff = offset;
  c->host = (void *)src;
  c->bytes = nbytes;
  return enqueue(s, c, "kern_array_upload_async");
}

kern_status kern_array_download_async(const kern_array *ha, kern_stream *hs,
                                      size_t offset, void *dst,
                                      size_t nbytes) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  kern_status st;
  if (!dst)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_download_async: dst is NULL");
  if ((st = range_check(a, offset, nbytes, "kern_array_download_async")))
    return st;
  kern_stream *s;
  if ((st = kern__stream_arg(a->ctx, hs, &s, "kern_array_download_async")) ||
      (st = kern__stream_resolve(a->ctx, a->dev, s, &s)))
    return st;
  if (nbytes == 0) return KERN_SUCCESS;
  kern__cmd *c = cmd_new(a->ctx, OP_COPY_OUT);
  if (!c) return KERN_ERROR_OUT_OF_MEMORY;
  c->sptr = a->data;
  c->arr_h[1] = a->h;
  c->soff = offset;
  c->host = dst;
  c->bytes = nbytes;
  return enqueue(s, c, "kern_array_download_async");
}

static kern_status fill_async(kern_array *a, const kern_stream *hs,
                              const void *value, size_t size,
                              const char *fn) {
  kern_status st;
  kern_stream *s;
  if ((st = kern__stream_arg(a->ctx, hs, &s, fn)) ||
      (st = kern__stream_resolve(a->ctx, a->dev, s, &s)))
    return st;
  kern__cmd *c = cmd_new(a->ctx, OP_FILL);
  if (!c) return KERN_ERROR_OUT_OF_MEMORY;
  c->pattern = kern__malloc(size);
  if (!c->pattern) {
    kern__free(c);
    return kern__error(a->ctx, KERN_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
  }
  memcpy(c->pattern, value, size);
  c->pattern_size = size;
  c->dptr = a->data;
  c->arr_h[0] = a->h;
  c->bytes = a->nbytes;
  return enqueue(s, c, fn);
}

kern_status kern_array_fill_async(kern_array *ha, kern_stream *s,
                                  const void *value) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  if (!value)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_fill_async: value is NULL");
  return fill_async(a, s, value, kern_type_size(a->type),
                    "kern_array_fill_async");
}

kern_status kern_array_zero_async(kern_array *ha, kern_stream *s) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  static const unsigned char zero = 0;
  return fill_async(a, s, &zero, 1, "kern_array_zero_async");
}

kern_status kern_array_copy_async(kern_array *hdst, size_t dst_offset,
                                  const kern_array *hsrc, size_t src_offset,
                                  size_t nbytes, kern_stream *hs) {
  kern_array *dst = kern__array_enter(hdst);
  if (!dst) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = dst->ctx;
  const kern_array *src = kern__handle_get(hsrc, KERN__H_ARRAY);
  if (!src)
    return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "kern_array_copy_async: src is not a live array");
  if (src->ctx != ctx || src->dev != dst->dev)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_copy_async: src and dst are on different "
                       "devices or contexts");
  kern_status st;
  if ((st = range_check(dst, dst_offset, nbytes, "kern_array_copy_async")) ||
      (st = range_check(src, src_offset, nbytes, "kern_array_copy_async")))
    return st;
  kern_stream *s;
  if ((st = kern__stream_arg(ctx, hs, &s, "kern_array_copy_async")) ||
      (st = kern__stream_resolve(ctx, dst->dev, s, &s)))
    return st;
  if (nbytes == 0) return KERN_SUCCESS;
  kern__cmd *c = cmd_new(ctx, OP_COPY_DD);
  if (!c) return KERN_ERROR_OUT_OF_MEMORY;
  c->dptr = dst->data;
  c->arr_h[0] = dst->h;
  c->doff = dst_offset;
  c->sptr = src->data;
  c->arr_h[1] = src->h;
  c->soff = src_offset;
  c->bytes = nbytes;
  return enqueue(s, c, "kern_array_copy_async");
}

kern_status kern_array_copy(kern_array *hdst, const kern_array *hsrc) {
  kern_array *dst = kern__array_enter(hdst);
  if (!dst) return KERN_ERROR_INVALID_HANDLE;
  const kern_array *src = kern__handle_get(hsrc, KERN__H_ARRAY);
  if (!src)
    return kern__error(dst->ctx, KERN_ERROR_INVALID_HANDLE,
                       "kern_array_copy: src is not a live array");
  if (src->nbytes != dst->nbytes)
    return kern__error(dst->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_copy: src holds %zu bytes, dst %zu",
                       src->nbytes, dst->nbytes);
  kern_stream *s;
  kern_status st = kern__stream_default(dst->ctx, dst->dev, &s);
  if (st != KERN_SUCCESS) return st;
  if ((st = kern_array_copy_async(hdst, 0, hsrc, 0, src->nbytes, s->h)))
    return st;
  return stream_sync(s);
}

/* ---------------------------------------------------------------- pinned */

kern_status kern_host_alloc(kern_context *hctx, kern_device dev, size_t bytes,
                            void **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_host_alloc: out is NULL");
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  if (!be)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_host_alloc: no device %d (the context has %d)",
                       dev, ctx->ndevices);
  kern__async *a = kern__async_get(ctx);
  kern__pin *pin = a ? kern__calloc(1, sizeof *pin) : NULL;
  if (!pin)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_host_alloc: out of memory");
  void *p = NULL;
  if (be->host_alloc) {
    kern_status st = be->host_alloc(state, index, bytes ? bytes : 1, &p);
    if (st != KERN_SUCCESS) {
      kern__free(pin);
      return kern__error(ctx, st,
                         "kern_host_alloc: cannot allocate %zu pinned bytes "
                         "for %s:%d",
                         bytes, be->name, index);
    }
    pin->native = 1;
  } else if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0) {
    kern__free(pin);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_host_alloc: cannot allocate %zu bytes", bytes);
  }
  pin->p = p;
  pin->dev = dev;
  pthread_mutex_lock(&a->mu);
  pin->next = a->pins;
  a->pins = pin;
  pthread_mutex_unlock(&a->mu);
  *out = p;
  return KERN_SUCCESS;
}

static void pin_release(kern_context *ctx, kern__pin *pin) {
  if (pin->native) {
    void *state;
    int index;
    const kern_backend *be = kern__device_backend(ctx, pin->dev, &state, &index);
    be->host_free(state, index, pin->p);
  } else {
    free(pin->p); /* from posix_memalign */
  }
  kern__free(pin);
}

void kern_host_free(kern_context *hctx, void *p) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx || !p || !ctx->async) return;
  kern__async *a = ctx->async;
  pthread_mutex_lock(&a->mu);
  kern__pin **pp = &a->pins;
  while (*pp && (*pp)->p != p) pp = &(*pp)->next;
  kern__pin *pin = *pp;
  if (pin) *pp = pin->next;
  pthread_mutex_unlock(&a->mu);
  if (!pin) {
    kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                "kern_host_free: %p did not come from kern_host_alloc", p);
    return;
  }
  pin_release(ctx, pin);
}

/* ---------------------------------------------------------------- hooks */

static int generic_backend(const kern_backend *be) { return !be->stream_new; }

void kern__sync_default(kern_context *ctx, kern_device dev) {
  kern__async *a = ctx->async;
  if (!a || dev < 0 || dev >= ctx->ndevices) return;
  kern_stream *s = a->defaults[dev];
  if (!s || s->native) return; /* native streams are ordered by the driver */
  pthread_mutex_lock(&a->mu);
  generic_wait_idle(s);
  pthread_mutex_unlock(&a->mu);
}

kern_status kern__sync_launch(kern_context *ctx, kern_device dev,
                              const kern_backend *be, void *state, int index,
                              void *fn, const kc_kernel *k, void *const *args,
                              const kern__dims *dims) {
  kern__async *a = ctx->async;
  /* a native backend's device may still have generic streams (the
   * fallback above): its default stream says which */
  kern_stream *ds = a && dev >= 0 && dev < ctx->ndevices ? a->defaults[dev]
                                                         : NULL;
  if (!a || (!generic_backend(be) && (!ds || ds->native)))
    return be->launch(state, index, fn, k, args, dims);
  kern__sync_default(ctx, dev);
  pthread_mutex_lock(&a->exec);
  kern_status st = be->launch(state, index, fn, k, args, dims);
  pthread_mutex_unlock(&a->exec);
  return st;
}

kern_status kern__sync_device(kern_context *ctx, kern_device dev) {
  kern__async *a = ctx->async;
  if (!a) return KERN_SUCCESS;
  kern_status first = KERN_SUCCESS;
  for (kern_stream *s = a->streams; s; s = s->next) {
    if (s->dev != dev || s->capture) continue;
    kern_status st = stream_sync(s);
    if (first == KERN_SUCCESS) first = st;
  }
  return first;
}

void kern__async_quiesce(kern_context *ctx) {
  kern__async *a = ctx->async;
  if (!a) return;
  pthread_mutex_lock(&a->mu);
  for (kern_stream *s = a->streams; s; s = s->next)
    if (!s->native) generic_wait_idle(s);
  pthread_mutex_unlock(&a->mu);
  for (kern_stream *s = a->streams; s; s = s->next)
    if (s->native && !s->capture)
      (void)s->be->stream_sync(s->state, s->index, s->native);
}

void kern__async_free(kern_context *ctx) {
  kern__async *a = ctx->async;
  if (!a) return;
  kern__graph_free_all(ctx);
  while (a->streams) (void)stream_destroy(a->streams);
  while (a->events) event_destroy(a->events);
  while (a->pins) {
    kern__pin *p = a->pins;
    a->pins = p->next;
    pin_release(ctx, p);
  }
  kern__pipeline_free_all(ctx);
  while (a->tunes) {
    kern__tune *t = a->tunes;
    a->tunes = t->next;
    kern__free(t);
  }
  pthread_mutex_destroy(&a->mu);
  pthread_cond_destroy(&a->done);
  pthread_mutex_destroy(&a->exec);
  kern__free(a->defaults);
  kern__free(a);
  ctx->async = NULL;
}
