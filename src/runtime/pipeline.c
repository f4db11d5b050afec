/*
 * pipeline.c -- streaming a host array through a chain of kernels in
 * chunks, with N sets of device buffers, and choosing the chunk size and N.
 *
 * Note [pipeline schedule]
 * Three streams, one per stage: every upload goes on the upload stream,
 * every chain of launches on the compute stream and every download on the
 * download stream, each in chunk order; chunk i uses buffer set i mod N.
 * Events order the stages of one chunk (its compute waits for its upload,
 * its download for its compute) and free a set for reuse (the upload of
 * chunk i waits for the download of chunk i - N, the last use of the set).
 * So with N = 1 the stages take turns; with N = 2 the upload of chunk i + 1
 * runs while chunk i is downloaded; with N = 3 compute joins in; a fourth
 * set only adds slack.
 *
 * The first version put each set on its own stream (upload, compute and
 * download of a chunk in order on that stream, as
 * examples/async/double_buffering.c does by hand).  Then nothing orders
 * the uploads of different chunks: a set's next upload starts as soon as
 * the set is free, even while the previous chunk's upload is still going.
 * On a GPU two uploads then share the host-to-device link and both finish
 * late; the downloads waiting behind them start late and the device-to-host
 * direction idles.  The more sets, the more often it happens, which is how
 * three buffers came out slower than two on an H100 (bench/NOTES.md).  With
 * one stream per direction each copy engine sees its copies strictly one
 * after another in chunk order, so another buffer set can never add
 * contention, only slack.
 *
 * Nothing in the loop waits on the host per chunk: each chunk records six
 * events (start and end of each stage) into a ring of RING slots, and the
 * host waits for a slot's last event only when the slot comes round again,
 * RING chunks later, which bounds how far ahead it runs.  The events' times
 * after one event recorded first give each chunk's stage times: the sums
 * and the device span go into the report, and the caller may ask for the
 * whole timeline.  Device buffers are made once per run, before the loop,
 * and the streams and events are kept in the context for the next run
 * (kern__pipe_res); the loop allocates nothing on the device.
 *
 * The last chunk may be shorter: it uses "views" of the same buffers whose
 * shape is the remainder, so kernels that look at their arrays' length see
 * the true length.  Views alias the memory and are never freed by
 * kern_array_free (they are not linked into the context); each has its own
 * array handle (Note [handle table]), released when the run ends, so the
 * public calls the run makes on it check it like any array.
 *
 * Tuning (chunk or buffers 0): Note [pipeline model].
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "async.h"

enum { MAX_SETS = 4, MAX_CHAIN = 8, MAX_EXTRA = 32, RING = 16 };
enum { UP, COMPUTE, DOWN, NSTAGE };
enum { EV_U0, EV_U1, EV_K0, EV_K1, EV_D0, EV_D1, NEV };

typedef struct pipe_set {
  kern_array *buf[MAX_CHAIN + 1];
  kern_array view[MAX_CHAIN + 1]; /* the tail chunk's shorter views */
  kern_array *vh[MAX_CHAIN + 1];  /* their handles, NULL until made */
} pipe_set;

typedef struct pipe_slot {
  kern_event *ev[NEV];
  int64_t chunk; /* whose events these are; -1 when none are pending */
} pipe_slot;

/* A run's streams and events, kept in the context between runs on the
 * same device: making 3 streams and up to 97 events (and destroying them)
 * costs a few hundred microseconds on CUDA, a percent of a run of a
 * gigabyte.  Device memory is not kept: the buffers are made per run, so
 * a finished pipeline holds no device memory. */
typedef struct kern__pipe_res {
  kern_device dev;
  kern_stream *s[NSTAGE];
  kern_event *t0;
  kern_event *ev[RING][NEV]; /* NULL until first needed */
  struct kern__pipe_res *next;
} kern__pipe_res;

/* Takes the context's idle resources for dev, or new ones. */
static kern__pipe_res *res_take(kern_context *ctx, kern_device dev) {
  kern__async *a = kern__async_get(ctx);
  if (!a) return NULL;
  for (kern__pipe_res **pp = &a->pipe_res; *pp; pp = &(*pp)->next)
    if ((*pp)->dev == dev) {
      kern__pipe_res *r = *pp;
      *pp = r->next;
      return r;
    }
  kern__pipe_res *r = kern__calloc(1, sizeof *r);
  if (r) r->dev = dev;
  return r;
}

/* Gives them back after a run that left nothing queued on them; after a
 * failure they are freed instead, so no broken state is kept. */
static void res_give(kern_context *ctx, kern__pipe_res *r, int ok) {
  if (!r) return;
  kern__async *a = ctx->async;
  if (ok && a) {
    r->next = a->pipe_res;
    a->pipe_res = r;
    return;
  }
  for (int k = 0; k < NSTAGE; k++) (void)kern_stream_free(r->s[k]);
  kern_event_free(r->t0);
  for (int i = 0; i < RING; i++)
    for (int e = 0; e < NEV; e++) kern_event_free(r->ev[i][e]);
  kern__free(r);
}

void kern__pipeline_free_all(kern_context *ctx) {
  kern__async *a = ctx->async;
  while (a && a->pipe_res) {
    kern__pipe_res *r = a->pipe_res;
    a->pipe_res = r->next;
    kern__free(r); /* its streams and events go with the context's */
  }
}

/* What one run measured. */
typedef struct pipe_stats {
  double stage[NSTAGE]; /* summed stage times */
  double first, last;   /* earliest upload start, latest download end */
  double issue_ms;      /* host time spent enqueueing */
  double wall_ms;
  int64_t chunks;
  double *timeline; /* NEV times per chunk, or NULL */
  int64_t cap, written;
} pipe_stats;

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

/* Reads a slot's events once its chunk is done: the stage sums, the span
 * and the caller's timeline. */
static kern_status collect(pipe_slot *sl, kern_event *t0, pipe_stats *ps) {
  if (sl->chunk < 0) return KERN_SUCCESS;
  kern_status st = kern_event_synchronize(sl->ev[EV_D1]);
  double t[NEV];
  for (int e = 0; e < NEV && !st; e++)
    st = kern_event_elapsed(t0, sl->ev[e], &t[e]);
  if (st) return st;
  for (int s = 0; s < NSTAGE; s++) ps->stage[s] += t[2 * s + 1] - t[2 * s];
  if (t[EV_U0] < ps->first) ps->first = t[EV_U0];
  if (t[EV_D1] > ps->last) ps->last = t[EV_D1];
  if (ps->timeline && sl->chunk < ps->cap) {
    memcpy(ps->timeline + sl->chunk * NEV, t, sizeof t);
    if (sl->chunk + 1 > ps->written) ps->written = sl->chunk + 1;
  }
  sl->chunk = -1;
  return KERN_SUCCESS;
}

/* The device buffers of chunk i: the set's own, or views of them for a
 * shorter tail chunk of n elements. */
static kern_status chunk_buffers(kern_context *ctx, pipe_set *set, int nk,
                                 int64_t n, int64_t chunk,
                                 const size_t *esize, kern_array **bufs) {
  for (int j = 0; j <= nk; j++) {
    bufs[j] = set->buf[j];
    if (n == chunk) continue;
    set->view[j] = *(kern_array *)kern__handle_get(set->buf[j], KERN__H_ARRAY);
    set->view[j].prev = set->view[j].next = NULL;
    set->view[j].shape[0] = n;
    set->view[j].size = n;
    set->view[j].nbytes = (size_t)n * esize[j];
    if (!set->vh[j]) set->vh[j] = kern__handle_new(KERN__H_ARRAY, &set->view[j]);
    if (!set->vh[j])
      return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                         "pipeline: out of memory");
    set->view[j].h = set->vh[j];
    bufs[j] = set->vh[j];
  }
  return KERN_SUCCESS;
}

/* Enqueues chunk i (n elements at element `at`) on the three streams:
 * Note [pipeline schedule]. */
static kern_status enqueue_chunk(const kern_pipeline_config *c,
                                 const size_t *esize, kern_stream **s,
                                 pipe_slot *ring, int ring_n, int64_t i,
                                 int nsets, kern_array **bufs, int64_t at,
                                 int64_t n) {
  int nk = c->nkernels;
  pipe_slot *sl = &ring[i % ring_n];
  kern_event **ev = sl->ev;
  const char *in = (const char *)c->input + (size_t)at * esize[0];
  char *out = (char *)c->output + (size_t)at * esize[nk];
  kern_status st = KERN_SUCCESS;
  if (i >= nsets)
    st = kern_stream_wait_event(s[UP], ring[(i - nsets) % ring_n].ev[EV_D1]);
  if (!st) st = kern_event_record(ev[EV_U0], s[UP]);
  if (!st)
    st = kern_array_upload_async(bufs[0], s[UP], 0, in, (size_t)n * esize[0]);
  if (!st) st = kern_event_record(ev[EV_U1], s[UP]);
  if (!st) st = kern_stream_wait_event(s[COMPUTE], ev[EV_U1]);
  if (!st) st = kern_event_record(ev[EV_K0], s[COMPUTE]);
  kern_arg args[2 + MAX_EXTRA];
  for (int j = 0; j < nk && !st; j++) {
    int ne = c->nextra ? c->nextra[j] : 0;
    args[0] = kern_arg_array(bufs[j]);
    args[1] = kern_arg_array(bufs[j + 1]);
    for (int x = 0; x < ne; x++) args[2 + x] = c->extra_args[j][x];
    st = kern_launch_async(c->kernels[j], s[COMPUTE], 1, &n, 2 + ne, args);
  }
  if (!st) st = kern_event_record(ev[EV_K1], s[COMPUTE]);
  if (!st) st = kern_stream_wait_event(s[DOWN], ev[EV_K1]);
  if (!st) st = kern_event_record(ev[EV_D0], s[DOWN]);
  if (!st)
    st = kern_array_download_async(bufs[nk], s[DOWN], 0, out,
                                   (size_t)n * esize[nk]);
  if (!st) st = kern_event_record(ev[EV_D1], s[DOWN]);
  if (!st) sl->chunk = i;
  return st;
}

/* One run over count elements from the start of the input. */
static kern_status run(kern_context *ctx, const kern_pipeline_config *c,
                       const size_t *esize, int64_t count, int64_t chunk,
                       int nsets, pipe_stats *ps) {
  kern_device dev =
      ((kern_kernel *)kern__handle_get(c->kernels[0], KERN__H_KERNEL))
          ->module->dev;
  int nk = c->nkernels;
  int64_t chunks = (count + chunk - 1) / chunk;
  /* Sets and slots beyond the chunk count would never be used. */
  int nalloc = chunks < nsets ? (int)chunks : nsets;
  int ring_n = chunks < RING ? (int)chunks : RING;
  pipe_set sets[MAX_SETS];
  pipe_slot ring[RING];
  memset(sets, 0, sizeof sets);
  memset(ring, 0, sizeof ring);
  ps->first = 1e300;
  ps->last = 0;
  kern__pipe_res *res = res_take(ctx, dev);
  if (!res) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "pipeline: out of memory");
  kern_stream **s = res->s;
  kern_status st = KERN_SUCCESS;
  kern_type types[MAX_CHAIN + 1];
  for (int j = 0; j < nk && !st; j++) {
    st = param_array(ctx, c->kernels[j], 0, &types[j]);
    if (!st) st = param_array(ctx, c->kernels[j], 1, &types[j + 1]);
  }
  for (int k = 0; k < NSTAGE && !st; k++)
    if (!s[k]) st = kern_stream_new(ctx->h, dev, &s[k]);
  if (!st && !res->t0) st = kern_event_new(ctx->h, &res->t0);
  kern_event *t0 = res->t0;
  for (int b = 0; b < nalloc && !st; b++)
    for (int j = 0; j <= nk && !st; j++)
      st = kern_array_new(ctx->h, dev, types[j], 1, &chunk, &sets[b].buf[j]);
  for (int r = 0; r < ring_n; r++) {
    ring[r].chunk = -1;
    for (int e = 0; e < NEV && !st; e++) {
      if (!res->ev[r][e]) st = kern_event_new(ctx->h, &res->ev[r][e]);
      ring[r].ev[e] = res->ev[r][e];
    }
  }
  double h0 = kern__now_ms();
  if (!st) st = kern_event_record(t0, s[UP]);
  int64_t i = 0;
  for (int64_t at = 0; at < count && !st; at += chunk, i++) {
    if ((st = collect(&ring[i % ring_n], t0, ps))) break;
    double hi = kern__now_ms();
    int64_t n = count - at < chunk ? count - at : chunk;
    kern_array *bufs[MAX_CHAIN + 1];
    st = chunk_buffers(ctx, &sets[i % nsets], nk, n, chunk, esize, bufs);
    if (!st) st = enqueue_chunk(c, esize, s, ring, ring_n, i, nsets, bufs, at, n);
    ps->issue_ms += kern__now_ms() - hi;
  }
  for (int k = 0; k < NSTAGE; k++)
    if (s[k]) {
      kern_status s2 = kern_stream_synchronize(s[k]);
      if (!st) st = s2;
    }
  /* Oldest first, so the sums do not depend on where the ring stopped. */
  for (int64_t j = i - ring_n; j < i && !st; j++)
    if (j >= 0) st = collect(&ring[j % ring_n], t0, ps);
  ps->wall_ms = kern__now_ms() - h0;
  ps->chunks = i;
  for (int b = 0; b < nalloc; b++)
    for (int j = 0; j <= nk; j++) {
      kern_array_free(sets[b].buf[j]);
      kern__handle_release(sets[b].vh[j], KERN__H_ARRAY);
    }
  res_give(ctx, res, st == KERN_SUCCESS);
  return st;
}

/* Note [pipeline model]
 * With chunk or buffers 0, kern chooses them from a model of the device
 * and chain rather than by racing candidates.  Racing them on a prefix of
 * the input, as the first version did, favours small chunks: a prefix of a
 * few chunks is mostly pipeline fill and drain, which small chunks shorten,
 * while the real run is mostly steady state, where their per-chunk overhead
 * costs; on an H100 that choice reached 0.87 of the best fixed chunk.
 *
 * The model comes from two short runs with one buffer set (the stages
 * take turns, so each is timed alone), at a small and a large chunk, three
 * chunks each; the first chunk of each is a warm-up and not used.  Each
 * stage's time per chunk is fitted as a + b * elements; the gaps between
 * one stage's end and the next one's start, on the other stream, are the
 * hand-off cost; the host's time to enqueue a chunk is measured too.  For
 * a candidate of K chunks of c elements and N sets:
 *
 *   cycle  = upload + compute + download + hand-offs      (one chunk alone)
 *   period = max(slowest stage + its share of the hand-offs,
 *                cycle / N,                (each set serves one chunk per
 *                                           cycle, N sets at once)
 *                host enqueue time)
 *   wall   = cycle + (K - 1) * period      (fill once, then steady state)
 *
 * and kern takes the candidate with the smallest predicted wall: chunks of
 * 1 to 256 MiB of input in powers of two (and the whole input when it is
 * smaller), 1 to 4 sets, within a quarter of the device's memory.  A
 * candidate within 1% of the best counts as equal; the order of the search
 * settles ties toward 3 sets (slack against jitter without the memory of a
 * fourth) and larger chunks (fewer per-chunk costs the model may miss).
 * The model is kept per device and chain for the context's lifetime, so a
 * later run with another count is chosen without measuring again. */

/* The smallest of chunks 1..k-1 (or chunk 0 alone) of a stage, from a
 * timeline. */
static double stage_min(const double *tl, int64_t k, int s) {
  double best = 1e300;
  for (int64_t i = k > 1 ? 1 : 0; i < k; i++) {
    double d = tl[i * NEV + 2 * s + 1] - tl[i * NEV + 2 * s];
    if (d < best) best = d;
  }
  return best < 0 ? 0 : best;
}

/* Mean hand-off time per chunk: upload end to compute start, compute end
 * to download start, and the previous download's end to this upload. */
static double handoffs(const double *tl, int64_t k) {
  double sum = 0;
  int64_t m = 0;
  for (int64_t i = 1; i < k; i++, m++) {
    const double *t = tl + i * NEV;
    sum += (t[EV_K0] - t[EV_U1]) + (t[EV_D0] - t[EV_K1]) +
           (t[EV_U0] - t[-NEV + EV_D1]);
  }
  return m ? (sum > 0 ? sum / (double)m : 0) : 0;
}

static kern_status measure(kern_context *ctx, const kern_pipeline_config *c,
                           const size_t *esize, kern__tune *t) {
  enum { K = 3 };
  int nk = c->nkernels;
  int64_t hi = (int64_t)((16u << 20) / esize[0]);
  if (hi > c->count / (K + 1)) hi = c->count / (K + 1);
  if (hi < 1) hi = 1;
  int64_t lo = hi / 16 > 0 ? hi / 16 : 1;
  int64_t size[2] = {lo, hi};
  double ts[2][NSTAGE], hand = 0, issue = 0;
  for (int r = 0; r < 2; r++) {
    int64_t k = c->count / size[r] < K ? c->count / size[r] : K;
    if (k < 1) k = 1;
    double tl[K * NEV];
    pipe_stats ps;
    memset(&ps, 0, sizeof ps);
    ps.timeline = tl;
    ps.cap = K;
    kern_status st = run(ctx, c, esize, k * size[r], size[r], 1, &ps);
    if (st) return st;
    for (int s = 0; s < NSTAGE; s++) ts[r][s] = stage_min(tl, k, s);
    hand += handoffs(tl, k) / 2;
    issue += ps.issue_ms / (double)k / 2;
  }
  for (int s = 0; s < NSTAGE; s++) {
    double b = hi > lo ? (ts[1][s] - ts[0][s]) / (double)(hi - lo)
                       : ts[1][s] / (double)hi;
    if (b < 0) b = 0;
    double a = ts[1][s] - b * (double)hi;
    t->a[s] = a > 0 ? a : 0;
    t->b[s] = b;
  }
  t->hand = hand;
  t->issue = issue;
  /* bytes / (ms * 1e6) is GB/s. */
  double bytes[NSTAGE] = {(double)esize[0], (double)esize[0],
                          (double)esize[nk]};
  for (int s = 0; s < NSTAGE; s++)
    t->gbs[s] = ts[1][s] > 0 ? bytes[s] * (double)hi / (ts[1][s] * 1e6) : 0;
  return KERN_SUCCESS;
}

double kern__pipeline_predict(const kern__tune *t, int64_t count,
                              int64_t chunk, int sets) {
  double st[NSTAGE], cycle = t->hand, slow = 0;
  for (int s = 0; s < NSTAGE; s++) {
    st[s] = t->a[s] + t->b[s] * (double)chunk;
    cycle += st[s];
    if (st[s] > slow) slow = st[s];
  }
  double period = slow + t->hand / NSTAGE;
  if (cycle / sets > period) period = cycle / sets;
  if (t->issue > period) period = t->issue;
  int64_t k = (count + chunk - 1) / chunk;
  return cycle + (double)(k - 1) * period;
}

/* Chooses the chunk and set count (each unless fixed by the caller) with
 * the smallest predicted wall time. */
void kern__pipeline_choose(const kern__tune *t, int64_t count,
                           size_t per_elem, uint64_t budget, size_t esize0,
                           int64_t *chunk, int *sets, double *predicted) {
  static const int set_order[] = {3, 2, 4, 1};
  int64_t cand[11];
  int nc = 0;
  if (*chunk) {
    cand[nc++] = *chunk;
  } else {
    for (int k = 8; k >= 0; k--) {
      int64_t ch = (int64_t)(((uint64_t)1 << (20 + k)) / esize0);
      if (ch < 1) ch = 1;
      if (ch >= count) ch = count;
      if (nc && cand[nc - 1] == ch) continue;
      cand[nc++] = ch;
    }
  }
  double best = 0;
  int64_t best_c = cand[nc - 1];
  int best_n = *sets ? *sets : 2;
  for (int oi = 0; oi < 4; oi++) {
    int n = set_order[oi];
    if (*sets && n != *sets) continue;
    for (int ci = 0; ci < nc; ci++) {
      /* The caller's own choices are never refused for memory. */
      if (!*chunk && (double)n * (double)cand[ci] * (double)per_elem >
                         (double)budget)
        continue;
      double p = kern__pipeline_predict(t, count, cand[ci], n);
      if (best == 0 || p < best * 0.99) {
        best = p;
        best_c = cand[ci];
        best_n = n;
      }
    }
  }
  if (best == 0) best = kern__pipeline_predict(t, count, best_c, best_n);
  *chunk = best_c;
  *sets = best_n;
  *predicted = best;
}

/* Writes the fields that fit in the caller's struct (its struct_size may
 * come from an older, the same or a newer kern.h: docs/ABI.md). */
static void report_out(kern_pipeline_report *dst,
                       const kern_pipeline_report *r) {
  if (dst) kern__struct_out(dst, r, sizeof *r);
}

/* The model of this device and chain: remembered, or measured now. */
static kern_status tune_get(kern_context *ctx, const kern_pipeline_config *c,
                            const size_t *esize, kern_device dev,
                            kern__tune **out, int *chosen) {
  kern__async *a = kern__async_get(ctx);
  if (!a) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "pipeline: out of memory");
  kern__tune *t = a->tunes;
  for (; t; t = t->next)
    if (t->dev == dev && t->first == c->kernels[0] &&
        t->nkernels == c->nkernels)
      break;
  if (t) {
    *chosen = 2;
    *out = t;
    return KERN_SUCCESS;
  }
  t = kern__calloc(1, sizeof *t);
  if (!t) return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "pipeline: out of memory");
  kern_status st = measure(ctx, c, esize, t);
  if (st) {
    kern__free(t);
    return st;
  }
  t->dev = dev;
  t->first = c->kernels[0];
  t->nkernels = c->nkernels;
  pthread_mutex_lock(&a->mu);
  t->next = a->tunes;
  a->tunes = t;
  pthread_mutex_unlock(&a->mu);
  *chosen = 1;
  *out = t;
  return KERN_SUCCESS;
}

/* Checks the chain and reads the caller's extra arguments into extra
 * (this library's kern_arg layout); esize gets each buffer's element size. */
static kern_status check_chain(kern_context *ctx, const kern_pipeline_config *c,
                               kern_arg extra[][MAX_EXTRA], size_t *esize,
                               kern_device *devp) {
  static const kern_arg arg_init = KERN_ARG_INIT;
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
    if (ne < 0 || ne > MAX_EXTRA ||
        (ne > 0 && (!c->extra_args || !c->extra_args[j])))
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "kern_pipeline_run: kernel %d has %d extra "
                         "arguments (0 to %d, with extra_args set)",
                         j, ne, MAX_EXTRA);
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
  *devp = dev;
  return KERN_SUCCESS;
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
  if (!c->kernels || c->nkernels < 1 || c->nkernels > MAX_CHAIN)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_pipeline_run: the chain must have 1 to %d "
                       "kernels",
                       MAX_CHAIN);
  if (!c->input || !c->output || c->count < 0 || c->chunk < 0 ||
      c->buffers < 0 || c->buffers > MAX_SETS || c->timeline_chunks < 0 ||
      (c->timeline_chunks > 0 && !c->timeline))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_pipeline_run: input and output must be set, "
                       "count, chunk and timeline_chunks non-negative (with "
                       "timeline set when positive), buffers 0 to %d",
                       MAX_SETS);
  kern_arg extra[MAX_CHAIN][MAX_EXTRA];
  const kern_arg *extra_p[MAX_CHAIN];
  size_t esize[MAX_CHAIN + 1];
  kern_device dev = 0;
  kern_status st = check_chain(ctx, c, extra, esize, &dev);
  if (st) return st;
  for (int j = 0; j < c->nkernels; j++) extra_p[j] = extra[j];
  cfg.extra_args = extra_p;
  kern_pipeline_report r;
  memset(&r, 0, sizeof r);
  r.struct_size = sizeof r;
  if (c->count == 0) {
    report_out(report, &r);
    return KERN_SUCCESS;
  }
  int64_t chunk = c->chunk < c->count ? c->chunk : c->count;
  int buffers = c->buffers;
  kern__tune *t = NULL;
  if (chunk == 0 || buffers == 0) {
    if ((st = tune_get(ctx, c, esize, dev, &t, &r.chosen))) return st;
    size_t per_elem = 0;
    for (int j = 0; j <= c->nkernels; j++) per_elem += esize[j];
    kern_device_info di = KERN_DEVICE_INFO_INIT;
    uint64_t budget = kern__device_get(ctx, dev, &di) == KERN_SUCCESS &&
                              di.memory_bytes
                          ? di.memory_bytes / 4
                          : (uint64_t)1 << 30;
    kern__pipeline_choose(t, c->count, per_elem, budget, esize[0], &chunk,
                          &buffers, &r.predicted_ms);
  } else {
    /* A model measured before still predicts the caller's choice. */
    kern__async *a = ctx->async;
    for (t = a ? a->tunes : NULL; t; t = t->next)
      if (t->dev == dev && t->first == c->kernels[0] &&
          t->nkernels == c->nkernels)
        break;
    if (t) r.predicted_ms = kern__pipeline_predict(t, c->count, chunk, buffers);
  }
  pipe_stats ps;
  memset(&ps, 0, sizeof ps);
  ps.timeline = c->timeline;
  ps.cap = c->timeline ? c->timeline_chunks : 0;
  if ((st = run(ctx, c, esize, c->count, chunk, buffers, &ps))) return st;
  r.chunk = chunk;
  r.buffers = buffers;
  r.chunks = ps.chunks;
  r.upload_ms = ps.stage[UP];
  r.compute_ms = ps.stage[COMPUTE];
  r.download_ms = ps.stage[DOWN];
  r.wall_ms = ps.wall_ms;
  double sum = ps.stage[UP] + ps.stage[COMPUTE] + ps.stage[DOWN];
  r.overlap = ps.wall_ms > 0 ? sum / ps.wall_ms : 1;
  r.device_ms = ps.last > ps.first ? ps.last - ps.first : 0;
  if (t) {
    r.upload_gbs = t->gbs[UP];
    r.compute_gbs = t->gbs[COMPUTE];
    r.download_gbs = t->gbs[DOWN];
  }
  r.timeline_chunks = ps.written;
  report_out(report, &r);
  return KERN_SUCCESS;
}
