/*
 * graph.c -- recording work on a stream once and replaying it many times.
 *
 * While a stream captures, every launch, copy and fill enqueued on it is
 * appended to the graph as a kern__cmd instead of being run.  The recorded
 * list is the graph on every backend; on a backend with native graphs (CUDA)
 * the same work is also captured by the driver (cuStreamBeginCapture ...
 * cuGraphInstantiate), and replay is one cuGraphLaunch.  Elsewhere replay
 * enqueues a copy of each recorded command on the target stream, which costs
 * one allocation per command but no argument checking.
 *
 * A launch keeps the caller's arguments next to its marshalled slots, so
 * kern_graph_set_arg can replace one argument and run the whole launch
 * through kern__launch_pack again: an update gets exactly kern_launch's
 * checks and messages.  On CUDA the new arguments go to the instantiated
 * graph's kernel node (cuGraphExecKernelNodeSetParams).
 *
 * Note [debug replay]
 * In debug mode a kernel records its first out-of-bounds access in its
 * module's fault record (debug.c), which the runtime reads after each
 * launch; kern_launch_async waits for that (docs/async.md).  A replay does
 * the same: a graph with a checked launch is replayed one command at a
 * time, and after each checked launch the stream is waited for and the
 * record read, so the replay returns the direct launch's
 * KERN_ERROR_OUT_OF_BOUNDS and message, and stops there as a sequence of
 * direct launches would.  A native graph (one cuGraphLaunch) could not stop
 * between launches or say which one failed, so such a graph is replayed
 * from kern's recorded list, which is always up to date.
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "async.h"

kern_graph *kern__graph_enter(const kern_graph *h) {
  kern_graph *g = kern__graph_get(h);
  if (g) kern__call_begin(g->ctx);
  return g;
}

kern_status kern__graph_record(kern_graph *g, kern__cmd *c) {
  c->next = NULL;
  if (g->tail) g->tail->next = c;
  else g->head = c;
  g->tail = c;
  if (c->op == OP_LAUNCH) g->nlaunches++;
  return KERN_SUCCESS;
}

static void graph_destroy(kern_graph *g) {
  /* NULL for a graph still being captured: it never had a handle. */
  kern__handle_release(g->h, KERN__H_GRAPH);
  kern_context *ctx = g->ctx;
  kern__async *a = ctx->async;
  if (g->native && g->be->graph_free) g->be->graph_free(g->state, g->index, g->native);
  for (kern__cmd *c = g->head, *n; c; c = n) {
    n = c->next;
    kern__cmd_free(ctx, c);
  }
  pthread_mutex_lock(&a->mu);
  if (g->prev) g->prev->next = g->next;
  else if (a->graphs == g) a->graphs = g->next;
  if (g->next) g->next->prev = g->prev;
  pthread_mutex_unlock(&a->mu);
  kern__free(g);
}

void kern__graph_free_all(kern_context *ctx) {
  kern__async *a = ctx->async;
  /* A stream still capturing: its graph is dropped, and the native capture
   * ended so the stream can be destroyed. */
  for (kern_stream *s = a->streams; s; s = s->next) {
    if (!s->capture) continue;
    kern_graph *g = s->capture;
    s->capture = NULL;
    if (s->native && s->be->capture_end) {
      void *ng = NULL;
      if (s->be->capture_end(s->state, s->index, s->native, &ng) ==
              KERN_SUCCESS &&
          ng)
        s->be->graph_free(s->state, s->index, ng);
    }
    graph_destroy(g);
  }
  while (a->graphs) graph_destroy(a->graphs);
}

kern_status kern_graph_begin_capture(kern_stream *h) {
  kern_stream *s = kern__stream_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = s->ctx;
  if (s->capture)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_graph_begin_capture: the stream is already "
                       "capturing");
  kern_graph *g = kern__calloc(1, sizeof *g);
  if (!g)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_graph_begin_capture: out of memory");
  g->ctx = ctx;
  g->dev = s->dev;
  g->be = s->be;
  g->state = s->state;
  g->index = s->index;
  /* Native capture where the driver has it (CUDA); elsewhere the recorded
   * list alone is the graph. */
  if (s->native && s->be->capture_begin) {
    kern_status st = s->be->capture_begin(s->state, s->index, s->native);
    if (st != KERN_SUCCESS) {
      kern__free(g);
      return kern__error(ctx, st, "kern_graph_begin_capture on %s:%d failed",
                         s->be->name, s->index);
    }
  }
  /* Not yet in the context's list: it becomes a graph at end_capture. */
  s->capture = g;
  return KERN_SUCCESS;
}

kern_status kern_graph_end_capture(kern_stream *h, kern_graph **out) {
  kern_stream *s = kern__stream_enter(h);
  if (!s) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = s->ctx;
  if (!s->capture)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_graph_end_capture: the stream is not capturing");
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_graph_end_capture: out is NULL");
  kern_graph *g = s->capture;
  g->h = kern__handle_new(KERN__H_GRAPH, g);
  if (!g->h)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_graph_end_capture: out of memory");
  s->capture = NULL;
  kern__async *a = ctx->async;
  pthread_mutex_lock(&a->mu);
  g->next = a->graphs;
  if (a->graphs) a->graphs->prev = g;
  a->graphs = g;
  pthread_mutex_unlock(&a->mu);
  if (s->native && s->be->capture_end) {
    kern_status st = s->be->capture_end(s->state, s->index, s->native,
                                        &g->native);
    if (st != KERN_SUCCESS) {
      graph_destroy(g);
      return kern__error(ctx, st, "kern_graph_end_capture on %s:%d failed",
                         s->be->name, s->index);
    }
  }
  *out = g->h;
  return KERN_SUCCESS;
}

int kern_graph_launch_count(const kern_graph *h) {
  const kern_graph *g = kern__graph_get(h);
  return g ? g->nlaunches : 0;
}

void kern_graph_free(kern_graph *h) {
  kern_graph *g = kern__graph_get(h);
  if (g) graph_destroy(g);
}

/* KERN_ERROR_INVALID_HANDLE when g refers to something freed since the
 * capture: a kernel (freed with its module: its code is gone) or an array
 * a recorded launch, copy or fill uses (its memory is gone).  The graph
 * itself stays valid; the caller may kern_graph_set_arg a live array in. */
static kern_status check_live(kern_graph *g, const char *fn) {
  int i = 0;
  for (kern__cmd *c = g->head; c; c = c->next, i++) {
    const char *what = NULL;
    if (c->op == OP_LAUNCH) {
      if (kern__handle_get(c->kernel_h, KERN__H_KERNEL) != c->kernel)
        what = "its kernel was freed with its module";
      /* a null array is an adjoint's skipped adj_ argument, which the
       * launch accepted (it was never an array to free) */
      for (int a = 0; a < c->nargs && !what; a++)
        if (c->args[a].kind == KERN_ARG_ARRAY && c->args[a].u.array &&
            !kern__handle_get(c->args[a].u.array, KERN__H_ARRAY))
          what = "an array argument was freed";
    }
    for (int a = 0; a < 2 && !what; a++)
      if (c->arr_h[a] && !kern__handle_get(c->arr_h[a], KERN__H_ARRAY))
        what = "an array it copies or fills was freed";
    if (what)
      return kern__error(g->ctx, KERN_ERROR_INVALID_HANDLE,
                         "%s: recorded command %d of the graph cannot run: "
                         "%s",
                         fn, i, what);
  }
  return KERN_SUCCESS;
}

/* Whether a recorded launch was compiled in debug mode. */
static int graph_checked(const kern_graph *g) {
  for (const kern__cmd *c = g->head; c; c = c->next)
    if (c->op == OP_LAUNCH && c->kernel->info->fault_param) return 1;
  return 0;
}

/* After a checked launch of a replay: waits for s and reads the fault
 * record, as kern_launch_async does (Note [debug replay]).  The recorded
 * arguments hold handles; the record's message wants the arrays. */
static kern_status replay_check(kern_stream *s, const kern__cmd *c) {
  kern_status st = kern__stream_sync(s);
  if (st != KERN_SUCCESS) return st;
  kern_arg *args = NULL;
  if (c->nargs > 0) {
    args = kern__malloc((size_t)c->nargs * sizeof *args);
    if (!args)
      return kern__error(s->ctx, KERN_ERROR_OUT_OF_MEMORY,
                         "kern_graph_replay: out of memory");
    for (int i = 0; i < c->nargs; i++) {
      args[i] = c->args[i];
      if (args[i].kind == KERN_ARG_ARRAY)
        args[i].u.array = kern__handle_get(c->args[i].u.array, KERN__H_ARRAY);
    }
  }
  st = kern__debug_check(c->kernel, args, c->nargs);
  kern__free(args);
  return st;
}

kern_status kern_graph_replay(kern_graph *h, kern_stream *hs) {
  kern_graph *g = kern__graph_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = g->ctx;
  kern_status st;
  kern_stream *s;
  if ((st = kern__stream_arg(ctx, hs, &s, "kern_graph_replay"))) return st;
  if (s && s->ctx != ctx)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_graph_replay: the stream is not a live stream "
                       "of the graph's context");
  if ((st = check_live(g, "kern_graph_replay"))) return st;
  if ((st = kern__stream_resolve(ctx, g->dev, s, &s))) return st;
  if (s->capture)
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_graph_replay: the stream is capturing; graphs "
                       "do not nest");
  int checked = graph_checked(g);
  if (g->native && !checked) {
    st = g->be->graph_launch(g->state, g->index, g->native, s->native);
    if (st != KERN_SUCCESS)
      return kern__error(ctx, st, "kern_graph_replay on %s:%d failed",
                         g->be->name, g->index);
    return KERN_SUCCESS;
  }
  if (s->native) {
    /* A native stream without a native graph (the driver cannot capture,
     * or an update could not reach a node): issue the list directly. */
    const kern_backend *be = s->be;
    for (kern__cmd *c = g->head; c && st == KERN_SUCCESS; c = c->next) {
      switch (c->op) {
      case OP_LAUNCH:
        st = be->launch_async(s->state, s->index, s->native, c->kernel->fn,
                              c->kernel->info, (void *const *)c->argv,
                              &c->dims);
        if (st == KERN_SUCCESS && c->kernel->info->fault_param)
          if ((st = replay_check(s, c))) return st;
        break;
      case OP_COPY_IN:
        st = be->copy_in_async(s->state, s->index, s->native, c->dptr,
                               c->doff, c->host, c->bytes);
        break;
      case OP_COPY_OUT:
        st = be->copy_out_async(s->state, s->index, s->native, c->host,
                                c->sptr, c->soff, c->bytes);
        break;
      case OP_COPY_DD:
        st = be->copy_dd_async(s->state, s->index, s->native, c->dptr,
                               c->doff, c->sptr, c->soff, c->bytes);
        break;
      case OP_FILL:
        st = be->fill_async(s->state, s->index, s->native, c->dptr,
                            c->pattern, c->pattern_size, c->bytes);
        break;
      default:
        break;
      }
    }
    if (st != KERN_SUCCESS)
      return kern__error(ctx, st, "kern_graph_replay on %s:%d failed",
                         be->name, s->index);
    return KERN_SUCCESS;
  }
  for (kern__cmd *c = g->head; c; c = c->next) {
    kern__cmd *d = kern__cmd_clone(c);
    if (!d)
      return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                         "kern_graph_replay: out of memory");
    if ((st = kern__stream_push(s, d))) return st;
    if (checked && c->op == OP_LAUNCH && c->kernel->info->fault_param &&
        (st = replay_check(s, c)))
      return st;
  }
  return KERN_SUCCESS;
}

kern_status kern_graph_set_arg(kern_graph *h, int launch_index, int arg_index,
                               kern_arg value) {
  kern_graph *g = kern__graph_enter(h);
  if (!g) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = g->ctx;
  /* The stored arguments are this library's kern_arg (kern__stream_launch);
   * a value passed by value has the same layout or the call itself would
   * not line up. */
  if (value.struct_size != sizeof(kern_arg))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_graph_set_arg: value.struct_size is %zu, not "
                       "%zu (build it with kern_arg_* or KERN_ARG_INIT)",
                       value.struct_size, sizeof(kern_arg));
  kern__cmd *c = g->head;
  int i = 0;
  for (; c; c = c->next)
    if (c->op == OP_LAUNCH && i++ == launch_index) break;
  if (!c || launch_index < 0)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_graph_set_arg: the graph has %d launches; there "
                       "is no launch %d",
                       g->nlaunches, launch_index);
  if (kern__handle_get(c->kernel_h, KERN__H_KERNEL) != c->kernel)
    return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "kern_graph_set_arg: launch %d's kernel was freed "
                       "with its module",
                       launch_index);
  if (arg_index < 0 || arg_index >= c->nargs)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_graph_set_arg: launch %d of '%s' has %d "
                       "arguments; there is no argument %d",
                       launch_index, c->kernel->info->name, c->nargs,
                       arg_index);
  if (value.kind == KERN_ARG_DATA &&
      (!value.u.data || value.size > sizeof(kern__slot)))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_graph_set_arg: the data argument is NULL or "
                       "larger than %zu bytes",
                       sizeof(kern__slot));
  kern_arg *args = kern__malloc((size_t)c->nargs * sizeof *args);
  if (!args)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_graph_set_arg: out of memory");
  memcpy(args, c->args, (size_t)c->nargs * sizeof *args);
  kern__slot data;
  if (value.kind == KERN_ARG_DATA) {
    memcpy(data.bytes, value.u.data, value.size);
    value.u.data = data.bytes;
  }
  /* a kern_indexed is kept by value, as the stream keeps it (stream.c) */
  if (value.kind == KERN_ARG_INDEXED && value.u.data) {
    kern_indexed ia = KERN_INDEXED_INIT;
    if (kern__struct_in(&ia, sizeof ia, value.u.data,
                        KERN_INDEXED_SIZE_V1) == KERN_SUCCESS) {
      memcpy(data.bytes, &ia, sizeof ia);
      value.u.data = data.bytes;
    }
  }
  args[arg_index] = value;
  kern__pack pk;
  kern_status st = kern__launch_pack(c->kernel, c->ndim, c->shape, c->nargs,
                                     args, &pk);
  if (st == KERN_SUCCESS && g->native) {
    kern_status nst = KERN_ERROR_UNSUPPORTED;
    if (c->node)
      nst = g->be->graph_set_launch(g->state, g->index, g->native, c->node,
                                    c->kernel->fn, c->kernel->info,
                                    (void *const *)pk.argv, &pk.dims);
    if (nst != KERN_SUCCESS) {
      /* The native graph cannot take the update: replay kern's list from
       * now on, which is always up to date. */
      g->be->graph_free(g->state, g->index, g->native);
      g->native = NULL;
      kern_clear_error(ctx->h);
    }
  }
  if (st == KERN_SUCCESS) st = kern__cmd_set_slots(c, &pk);
  if (st == KERN_SUCCESS) {
    c->args[arg_index] = value;
    if (value.kind == KERN_ARG_DATA ||
        (value.kind == KERN_ARG_INDEXED && value.u.data == data.bytes)) {
      c->argdata[arg_index] = data;
      c->args[arg_index].u.data = c->argdata[arg_index].bytes;
    }
  }
  if (pk.argv) kern__pack_release(&pk);
  kern__free(args);
  if (st != KERN_SUCCESS)
    return kern__error(ctx, st, "kern_graph_set_arg: launch %d failed to "
                       "update", launch_index);
  return KERN_SUCCESS;
}
