/*
 * pipeline.c -- streaming a host array through a chain of kernels in
 * chunks, with N sets of device buffers on N streams.
 *
 * Chunk i goes to buffer set i mod N and its stream: upload, the chain of
 * launches, download, all on that stream, so the stream's order alone makes
 * reusing a set safe, and with N >= 2 the upload of one chunk, the compute
 * of another and the download of a third run at once (on CUDA on the two
 * copy engines and the SMs; on generic streams on worker threads).  Events
 * around each stage give per-stage times; the host waits for a set's last
 * event only when it comes round again, which also bounds how far ahead the
 * host runs.
 *
 * The last chunk may be shorter: it uses "views" of the same buffers whose
 * shape is the remainder, so kernels that look at their arrays' length see
 * the true length.  Views alias the memory and are never freed by
 * kern_array_free (they are not linked into the context); each has its own
 * array handle (Note [handle table]), released when the run ends, so the
 * public calls the run makes on it check it like any array.
 *
 * Tuning (chunk or buffers 0): a few candidates are timed on a prefix of the
 * input (the output prefix is simply written again by the real run), the
 * fastest is remembered in the context per device and chain, and the report
 * says what was chosen and whether it was measured or remembered.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "async.h"

enum { MAX_SETS = 4, MAX_CHAIN = 8 };


typedef struct pipe_set {
  kern_stream *stream;
  kern_array *buf[MAX_CHAIN + 1];
  kern_array view[MAX_CHAIN + 1]; /* the tail chunk's shorter views */
  kern_array *vh[MAX_CHAIN + 1];  /* their handles, NULL until made */
  kern_event *ev[4];
  int pending; /* events recorded and not yet read */
} pipe_set;

static kern_status param_array(kern_context *ctx, kern_kernel *k, int p,
                               kern_type *t) {
  kern_param_info pi = KERN_PARAM_INFO_INIT;
  kern_status st = kern_kernel_param(k, p, &pi);
  if (st) return st;
  if (pi.kind != KERN_PARAM_ARRAY || pi.ndim != 1)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_pipeline_run: parameter %d '%s' of kernel '%s' "
                       "must be a 1-D array",
                       p + 1, pi.name, kern_kernel_name(k));
  *t = pi.type;
  return KERN_SUCCESS;
}

/* Adds a set's stage times to the totals once its events are done. */
static kern_status collect(pipe_set *ps, double t[3]) {
  if (!ps->pending) return KERN_SUCCESS;
  kern_status st = kern_event_synchronize(ps->ev[3]);
  if (st) return st;
  for (int i = 0; i < 3; i++) {
    double ms = 0;
    if ((st = kern_event_elapsed(ps->ev[i], ps->ev[i + 1], &ms))) return st;
    t[i] += ms;
  }
  ps->pending = 0;
  return KERN_SUCCESS;
}

/* One run over count elements from the start of the input. */
static kern_status run(kern_context *ctx, const kern_pipeline_config *c,
                       const size_t *esize, int64_t count, int64_t chunk,
                       int nsets, kern_pipeline_report *r) {
  kern_device dev =
      ((kern_kernel *)kern__handle_get(c->kernels[0], KERN__H_KERNEL))
          ->module->dev;
  pipe_set sets[MAX_SETS];
  memset(sets, 0, sizeof sets);
  kern_status st = KERN_SUCCESS;
  int nk = c->nkernels;
  kern_type types[MAX_CHAIN + 1];
  for (int j = 0; j < nk && !st; j++) {
    st = param_array(ctx, c->kernels[j], 0, &types[j]);
    if (!st) st = param_array(ctx, c->kernels[j], 1, &types[j + 1]);
  }
  for (int b = 0; b < nsets && !st; b++) {
    pipe_set *ps = &sets[b];
    st = kern_stream_new(ctx->h, dev, &ps->stream);
    for (int j = 0; j <= nk && !st; j++)
      st = kern_array_new(ctx->h, dev, types[j], 1, &chunk, &ps->buf[j]);
    for (int e = 0; e < 4 && !st; e++) st = kern_event_new(ctx->h, &ps->ev[e]);
  }
  double t[3] = {0, 0, 0};
  double t0 = kern__now_ms();
  int64_t chunks = 0;
  kern_arg args[2 + 32];
  for (int64_t at = 0; at < count && !st; at += chunk, chunks++) {
    pipe_set *ps = &sets[chunks % nsets];
    if ((st = collect(ps, t))) break;
    int64_t n = count - at < chunk ? count - at : chunk;
    kern_array *bufs[MAX_CHAIN + 1];
    for (int j = 0; j <= nk; j++) {
      bufs[j] = ps->buf[j];
      if (n < chunk) {
        ps->view[j] = *(kern_array *)kern__handle_get(ps->buf[j], KERN__H_ARRAY);
        ps->view[j].prev = ps->view[j].next = NULL;
        ps->view[j].shape[0] = n;
        ps->view[j].size = n;
        ps->view[j].nbytes = (size_t)n * esize[j];
        if (!ps->vh[j]) ps->vh[j] = kern__handle_new(KERN__H_ARRAY, &ps->view[j]);
        if (!ps->vh[j]) {
          st = kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                           "pipeline: out of memory");
          break;
        }
        ps->view[j].h = ps->vh[j];
        bufs[j] = ps->vh[j];
      }
    }
    kern_stream *s = ps->stream;
    const char *in = (const char *)c->input + (size_t)at * esize[0];
    char *out = (char *)c->output + (size_t)at * esize[nk];
    st = kern_event_record(ps->ev[0], s);
    if (!st)
      st = kern_array_upload_async(bufs[0], s, 0, in, (size_t)n * esize[0]);
    if (!st) st = kern_event_record(ps->ev[1], s);
    for (int j = 0; j < nk && !st; j++) {
      int ne = c->nextra ? c->nextra[j] : 0;
      args[0] = kern_arg_array(bufs[j]);
      args[1] = kern_arg_array(bufs[j + 1]);
      for (int x = 0; x < ne; x++) args[2 + x] = c->extra_args[j][x];
      st = kern_launch_async(c->kernels[j], s, 1, &n, 2 + ne, args);
    }
    if (!st) st = kern_event_record(ps->ev[2], s);
    if (!st)
      st = kern_array_download_async(bufs[nk], s, 0, out,
                                     (size_t)n * esize[nk]);
    if (!st) st = kern_event_record(ps->ev[3], s);
    if (!st) ps->pending = 1;
  }
  for (int b = 0; b < nsets; b++) {
    pipe_set *ps = &sets[b];
    if (ps->stream) {
      kern_status s2 = kern_stream_synchronize(ps->stream);
      if (!st) st = s2;
    }
    if (!st) st = collect(ps, t);
  }
  double wall = kern__now_ms() - t0;
  for (int b = 0; b < nsets; b++) {
    pipe_set *ps = &sets[b];
    kern_status s2 = kern_stream_free(ps->stream);
    if (!st) st = s2;
    for (int j = 0; j <= nk; j++) {
      kern_array_free(ps->buf[j]);
      kern__handle_release(ps->vh[j], KERN__H_ARRAY);
    }
    for (int e = 0; e < 4; e++) kern_event_free(ps->ev[e]);
  }
  if (st) return st;
  r->chunk = chunk;
  r->buffers = nsets;
  r->chunks = chunks;
  r->upload_ms = t[0];
  r->compute_ms = t[1];
  r->download_ms = t[2];
  r->wall_ms = wall;
  r->overlap = wall > 0 ? (t[0] + t[1] + t[2]) / wall : 1;
  return KERN_SUCCESS;
}

/* Writes the fields that fit in the caller's struct (its struct_size may
 * come from an older, the same or a newer kern.h: docs/ABI.md). */
static void report_out(kern_pipeline_report *dst,
                       const kern_pipeline_report *r) {
  if (dst) kern__struct_out(dst, r, sizeof *r);
}

kern_status kern_pipeline_run(kern_context *hctx,
                              const kern_pipeline_config *config,
                              kern_pipeline_report *report) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  /* The caller's structs by their struct_size (docs/ABI.md): the config is
   * read into this library's layout, with defaults for what it lacks. */
  kern_pipeline_config cfg = KERN_PIPELINE_CONFIG_INIT;
  if (!config ||
      kern__struct_in(&cfg, sizeof cfg, config,
                      KERN_PIPELINE_CONFIG_SIZE_V1) != KERN_SUCCESS ||
      cfg.reserved0 != 0)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_pipeline_run: config is NULL, its struct_size "
                       "is not that of any version, or it sets fields this "
                       "library does not know (use "
                       "KERN_PIPELINE_CONFIG_INIT)");
  if (report && kern__struct_check_out(report, KERN_PIPELINE_REPORT_SIZE_V1) !=
                    KERN_SUCCESS)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_pipeline_run: report's struct_size is not that "
                       "of any version (use KERN_PIPELINE_REPORT_INIT)");
  const kern_pipeline_config *c = &cfg;
  /* The extra arguments, read by the caller's kern_arg struct_size into
   * this library's layout, so the launches see one stride. */
  static const kern_arg arg_init = KERN_ARG_INIT;
  kern_arg extra[MAX_CHAIN][32];
  const kern_arg *extra_p[MAX_CHAIN];
  if (!c->kernels || c->nkernels < 1 || c->nkernels > MAX_CHAIN)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_pipeline_run: the chain must have 1 to %d "
                       "kernels",
                       MAX_CHAIN);
  if (!c->input || !c->output || c->count < 0 || c->chunk < 0 ||
      c->buffers < 0 || c->buffers > MAX_SETS)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_pipeline_run: input and output must be set, "
                       "count and chunk non-negative, buffers 0 to %d",
                       MAX_SETS);
  size_t esize[MAX_CHAIN + 1];
  kern_device dev = -1;
  for (int j = 0; j < c->nkernels; j++) {
    kern_kernel *k = kern__handle_get(c->kernels[j], KERN__H_KERNEL);
    if (!k || k->module->ctx != ctx)
      return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                         "kern_pipeline_run: kernel %d is not a live kernel "
                         "of this context",
                         j);
    if (dev >= 0 && k->module->dev != dev)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "kern_pipeline_run: the chain's kernels are built "
                         "for different devices");
    dev = k->module->dev;
    int ne = c->nextra ? c->nextra[j] : 0;
    if (ne < 0 || ne > 32 || (ne > 0 && (!c->extra_args || !c->extra_args[j])))
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "kern_pipeline_run: kernel %d has %d extra "
                         "arguments (0 to 32, with extra_args set)",
                         j, ne);
    extra_p[j] = extra[j];
    for (int x = 0; x < ne; x++) {
      size_t stride = c->extra_args[j][0].struct_size;
      const kern_arg *src = (const kern_arg *)(const void *)(
          (const char *)c->extra_args[j] + stride * (size_t)x);
      extra[j][x] = arg_init;
      if (stride < KERN_ARG_SIZE_V1 || stride > KERN__STRUCT_SIZE_MAX ||
          src->struct_size != stride ||
          kern__struct_in(&extra[j][x], sizeof extra[j][x], src,
                          KERN_ARG_SIZE_V1) != KERN_SUCCESS)
        return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                           "kern_pipeline_run: extra argument %d of kernel "
                           "%d has a bad struct_size (build it with "
                           "kern_arg_* or KERN_ARG_INIT)",
                           x + 1, j);
    }
    kern_type a, b;
    kern_status st;
    if ((st = param_array(ctx, c->kernels[j], 0, &a)) ||
        (st = param_array(ctx, c->kernels[j], 1, &b)))
      return st;
    if (j > 0 && kern_type_size(a) != esize[j])
      return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                         "kern_pipeline_run: kernel %d reads elements of %zu "
                         "bytes but kernel %d writes %zu",
                         j, kern_type_size(a), j - 1, esize[j]);
    esize[j] = kern_type_size(a);
    esize[j + 1] = kern_type_size(b);
  }
  cfg.extra_args = extra_p;
  kern_pipeline_report r;
  memset(&r, 0, sizeof r);
  r.struct_size = sizeof r;
  if (c->count == 0) {
    report_out(report, &r);
    return KERN_SUCCESS;
  }
  int64_t chunk = c->chunk;
  int buffers = c->buffers;
  if (chunk == 0 || buffers == 0) {
    kern__async *a = kern__async_get(ctx);
    if (!a) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "pipeline: out of memory");
    kern__tune *t = a->tunes;
    for (; t; t = t->next)
      if (t->dev == dev && t->first == c->kernels[0] &&
          t->nkernels == c->nkernels)
        break;
    if (t) {
      r.chosen = 2;
    } else {
      /* Candidates: chunks of 1, 4 and 16 MiB of input at the requested
       * (or 1, 2, 3) buffer counts, each timed on a prefix of four chunks
       * per buffer set (less when the input is smaller). */
      static const size_t mib[] = {1, 4, 16};
      double best = 0;
      int64_t best_chunk = 0;
      int best_buffers = 0;
      for (int bi = 1; bi <= 3; bi++) {
        if (buffers && bi != buffers) continue;
        for (size_t ci = 0; ci < sizeof mib / sizeof *mib; ci++) {
          int64_t ch = chunk ? chunk
                             : (int64_t)(mib[ci] * 1024 * 1024 / esize[0]);
          if (ch < 1) ch = 1;
          if (chunk && ci > 0) break;
          if (ch > c->count) ch = c->count;
          int64_t prefix = ch * 4 * bi < c->count ? ch * 4 * bi : c->count;
          kern_pipeline_report tr;
          kern_status st = run(ctx, c, esize, prefix, ch, bi, &tr);
          if (st) return st;
          double rate = (double)prefix / (tr.wall_ms > 1e-6 ? tr.wall_ms : 1e-6);
          if (rate > best) {
            best = rate;
            best_chunk = ch;
            best_buffers = bi;
          }
          if (ch == c->count) break; /* larger chunks are the same */
        }
      }
      t = kern__calloc(1, sizeof *t);
      if (!t) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "pipeline: out of memory");
      t->dev = dev;
      t->first = c->kernels[0];
      t->nkernels = c->nkernels;
      t->chunk = best_chunk;
      t->buffers = best_buffers;
      pthread_mutex_lock(&a->mu);
      t->next = a->tunes;
      a->tunes = t;
      pthread_mutex_unlock(&a->mu);
      r.chosen = 1;
    }
    if (!chunk) chunk = t->chunk;
    if (!buffers) buffers = t->buffers;
  }
  if (chunk > c->count) chunk = c->count;
  int chosen = r.chosen;
  kern_status st = run(ctx, c, esize, c->count, chunk, buffers, &r);
  if (st) return st;
  r.chosen = chosen;
  report_out(report, &r);
  return KERN_SUCCESS;
}
