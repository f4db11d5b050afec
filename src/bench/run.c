/*
 * run.c -- running a bench spec on every device and every reference.
 *
 * The order of work is what makes the figures honest:
 *  1. The CPU backend runs first on freshly generated inputs; its outputs
 *     after one launch are the reference every other row is checked
 *     against.  A row whose output differs is `failed`, and its time is not
 *     reported, because a fast wrong answer is not a result.
 *  2. Compiling, uploading and a warm-up launch happen before the clock
 *     starts.  Hot samples are launches back to back on resident data;
 *     cold samples follow a write of a buffer larger than the device's
 *     caches; --transfers samples add the upload and the download, which is
 *     what a script that copies per call actually measures.
 *  3. Each mode samples until its RSD is at the target or its budget is
 *     spent (stats.c), and records which.
 * A device that fails at any step becomes a row that says why; the loop
 * always goes on to the next device.
 *
 * Note [timing a launch]: time_launches() is the one place that reads a
 * clock around kern's launches.  On GPU backends (CUDA, OpenCL) it records
 * a kern event on the device's default stream, enqueues the launches with
 * kern_launch_async, each followed by another event, waits once at the end
 * and reports each launch as the device-clock time between its two events
 * (timer "events"): per-launch events, the launches back to back with no
 * host synchronisation between them.  On the CPU it keeps the wall clock
 * around the synchronous kern_launch (timer "wall"): CPU events are real
 * host-clock stamps, but they are taken by the stream's worker thread and
 * include its hand-off and the context's launch lock, so the wall clock
 * around a synchronous launch is the plainer figure.  --transfers samples
 * include host copies and are always timed by the wall clock.
 */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "npy.h"
#include "spec.h"

extern char **environ;

const char *const bench_mode_names[BENCH_MODES] = {"hot", "cold", "transfers"};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void progress(const bench_options *o, const char *fmt, const char *a,
                     const char *b) {
  if (o->quiet) return;
  fprintf(stderr, "\r\033[Kkern bench: ");
  fprintf(stderr, fmt, a, b);
  fflush(stderr);
}

static void progress_done(const bench_options *o) {
  if (!o->quiet) fputs("\r\033[K", stderr);
}

/* ---------------------------------------------------------------- rows */

static bench_row *add_row(bench_result *r, const bench_spec *s, int point,
                          const char *kind, const char *name) {
  if (r->nrows == r->cap) {
    int cap = r->cap ? 2 * r->cap : 16;
    bench_row *rows = realloc(r->rows, (size_t)cap * sizeof *rows);
    if (!rows) return NULL;
    r->rows = rows;
    r->cap = cap;
  }
  bench_row *row = &r->rows[r->nrows++];
  memset(row, 0, sizeof *row);
  snprintf(row->bench, sizeof row->bench, "%s", s->kernel);
  row->point = point;
  size_t n = 0;
  for (int v = 0; v < s->nvars && n < sizeof row->size; v++)
    n += (size_t)snprintf(row->size + n, sizeof row->size - n, "%s%s=%lld",
                          v ? " " : "", s->var[v],
                          (long long)s->val[v][point]);
  snprintf(row->kind, sizeof row->kind, "%s", kind);
  snprintf(row->name, sizeof row->name, "%s", name);
  snprintf(row->status, sizeof row->status, "ok");
  snprintf(row->timer, sizeof row->timer, "wall");
  row->bytes = row->flops = row->peak_gbps = row->max_rel_err = NAN;
  return row;
}

static void row_status(bench_row *row, const char *status, const char *msg) {
  snprintf(row->status, sizeof row->status, "%s", status);
  /* Long driver messages are cut to the row's buffer on purpose. */
  size_t n = strlen(msg);
  if (n >= sizeof row->message) n = sizeof row->message - 1;
  memcpy(row->message, msg, n);
  row->message[n] = '\0';
  for (char *p = row->message; *p; p++)
    if (*p == '\n') *p = ' ';
}

/* ---------------------------------------------------------------- inputs */

/* The arguments of one launch, as host buffers and device arrays. */
typedef struct launch_args {
  int np;
  kern_param_info *ps;
  spec_array *hosts;     /* arrays: host data as generated */
  unsigned char (*values)[64];
  char (*names)[64];     /* copies: ps[i].name outlives the module */
  kern_array **arrays;
  kern_arg *kargs;
  int ndim;
  int64_t dims[KERN_MAX_DIMS];
} launch_args;

static void args_free_device(launch_args *a) {
  for (int i = 0; a->arrays && i < a->np; i++) {
    kern_array_free(a->arrays[i]);
    a->arrays[i] = NULL;
  }
}

static void args_free(launch_args *a) {
  args_free_device(a);
  for (int i = 0; a->hosts && i < a->np; i++) spec_array_free(&a->hosts[i]);
  free(a->ps);
  free(a->hosts);
  free(a->values);
  free(a->names);
  free(a->arrays);
  free(a->kargs);
  memset(a, 0, sizeof *a);
}

static int param_index(const launch_args *a, const char *name) {
  for (int i = 0; i < a->np; i++)
    if (strcmp(a->ps[i].name, name) == 0) return i;
  return -1;
}

/* Builds the host side of every argument from the spec.  A mistake is the
 * spec's, so the message points at the spec's line and column. */
static int args_build(const bench_file *f, const bench_spec *s, int point,
                      kern_kernel *k, launch_args *a, char *err,
                      size_t errsize) {
  memset(a, 0, sizeof *a);
  a->np = kern_kernel_param_count(k);
  size_t n = (size_t)(a->np ? a->np : 1);
  a->ps = calloc(n, sizeof *a->ps);
  a->hosts = calloc(n, sizeof *a->hosts);
  a->values = calloc(n, sizeof *a->values);
  a->names = calloc(n, sizeof *a->names);
  a->arrays = calloc(n, sizeof *a->arrays);
  a->kargs = calloc(n, sizeof *a->kargs);
  if (!a->ps || !a->hosts || !a->values || !a->names || !a->arrays ||
      !a->kargs) {
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  for (int i = 0; i < a->np; i++) {
    a->ps[i].struct_size = sizeof a->ps[i];
    kern_kernel_param(k, i, &a->ps[i]);
    snprintf(a->names[i], sizeof a->names[i], "%s", a->ps[i].name);
    a->ps[i].name = a->names[i];
  }
  char text[600], why[512];
  if (bench_expand(s, point, s->dims, text, sizeof text) ||
      spec_parse_dims(text, a->dims, KERN_MAX_DIMS, &a->ndim, why,
                      sizeof why)) {
    snprintf(err, errsize, "%s:%d:%d: error: %s", f->path, s->dims_line,
             s->dims_col, why);
    return -1;
  }
  if (s->tiled) {
    /* wp.launch_tiled: the block size the device uses (1 on the CPU, as
     * Warp's CPU) is the grid's last dimension (load_kernel set it) */
    if (a->ndim >= KERN_MAX_DIMS) {
      snprintf(err, errsize, "%s:%d:%d: error: --tiled appends the block "
               "size to the grid, which then has more than %d dimensions; "
               "give --dim at most %d", f->path, s->dims_line, s->dims_col,
               KERN_MAX_DIMS, KERN_MAX_DIMS - 1);
      return -1;
    }
    a->dims[a->ndim++] = kern_kernel_block_dim(k);
  }
  for (int g = 0; g < s->nargs; g++) {
    const bench_arg *ba = &s->args[g];
    int p = param_index(a, ba->name);
    if (p < 0) {
      char list[512] = "";
      for (int i = 0; i < a->np; i++) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "",
                 a->ps[i].name);
      }
      snprintf(err, errsize, "%s:%d:%d: error: kernel '%s' has no parameter "
               "'%s' (its parameters: %s)", f->path, ba->line,
               ba->col - (int)strlen(ba->name) - 1, s->kernel, ba->name, list);
      return -1;
    }
    int rc;
    if (bench_expand(s, point, ba->text, text, sizeof text)) {
      snprintf(why, sizeof why, "SPEC is too long");
      rc = -1;
    } else if (a->ps[p].kind == KERN_PARAM_INDEXED) {
      snprintf(why, sizeof why, "parameter '%s' is a wp.indexedarray, which "
               "kern bench cannot make (kern run can)", ba->name);
      rc = -1;
    } else if (a->ps[p].kind == KERN_PARAM_ARRAY) {
      rc = spec_parse_array(&a->ps[p], text, &a->hosts[p], why, sizeof why);
    } else if (kern_type_size(a->ps[p].type) > sizeof a->values[p]) {
      snprintf(why, sizeof why, "parameter '%s' is too large a value",
               ba->name);
      rc = -1;
    } else {
      rc = spec_parse_value(&a->ps[p], text, a->values[p], why, sizeof why);
    }
    if (rc) {
      snprintf(err, errsize, "%s:%d:%d: error: %s", f->path, ba->line,
               ba->col, why);
      return -1;
    }
  }
  for (int i = 0; i < a->np; i++) {
    int given = 0;
    for (int g = 0; g < s->nargs; g++)
      given |= strcmp(s->args[g].name, a->ps[i].name) == 0;
    if (!given) {
      snprintf(err, errsize, "%s:%d:1: error: the spec of '%s' does not give "
               "parameter '%s' (add %s=SPEC)", f->path, s->line, s->kernel,
               a->ps[i].name, a->ps[i].name);
      return -1;
    }
  }
  for (int c = 0; c < s->nchecks; c++) {
    int p = param_index(a, s->checks[c].name);
    if (p < 0 || a->ps[p].kind != KERN_PARAM_ARRAY) {
      snprintf(err, errsize, "%s:%d:1: error: checked output '%s' is not an "
               "array parameter of '%s'", f->path, s->line, s->checks[c].name,
               s->kernel);
      return -1;
    }
  }
  return 0;
}

/* Allocates and uploads every array on dev and fills kargs. */
static kern_status args_upload(kern_context *ctx, kern_device dev,
                               launch_args *a) {
  for (int i = 0; i < a->np; i++) {
    if (a->ps[i].kind == KERN_PARAM_ARRAY) {
      spec_array *h = &a->hosts[i];
      kern_status st = kern_array_new(ctx, dev, h->type, h->ndim, h->shape,
                                      &a->arrays[i]);
      if (st) return st;
      if ((st = kern_array_upload(a->arrays[i], h->data, h->nbytes))) return st;
      a->kargs[i] = kern_arg_array(a->arrays[i]);
    } else {
      a->kargs[i] = kern_arg_data(a->values[i], kern_type_size(a->ps[i].type));
    }
  }
  return KERN_SUCCESS;
}

static kern_status args_reupload(launch_args *a) {
  for (int i = 0; i < a->np; i++)
    if (a->arrays[i]) {
      kern_status st = kern_array_upload(a->arrays[i], a->hosts[i].data,
                                         a->hosts[i].nbytes);
      if (st) return st;
    }
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- checks */

/* Downloaded outputs of one launch, in check order. */
typedef struct outputs {
  int n;
  void *data[BENCH_MAX_CHECKS];
  size_t nbytes[BENCH_MAX_CHECKS];
  kern_scalar scalar[BENCH_MAX_CHECKS];
} outputs;

static void outputs_free(outputs *o) {
  for (int i = 0; i < o->n; i++) free(o->data[i]);
  memset(o, 0, sizeof *o);
}

static kern_status download_checks(const bench_spec *s, launch_args *a,
                                   outputs *out) {
  memset(out, 0, sizeof *out);
  for (int c = 0; c < s->nchecks; c++) {
    int p = param_index(a, s->checks[c].name);
    size_t nb = kern_array_nbytes(a->arrays[p]);
    out->data[c] = malloc(nb ? nb : 1);
    out->nbytes[c] = nb;
    out->scalar[c] = a->ps[p].type.scalar;
    out->n = c + 1;
    if (!out->data[c]) return KERN_ERROR_OUT_OF_MEMORY;
    kern_status st = kern_array_download(a->arrays[p], out->data[c], nb);
    if (st) return st;
  }
  return KERN_SUCCESS;
}

static double scalar_at(kern_scalar s, const void *base, size_t i) {
  const unsigned char *p = (const unsigned char *)base + i * npy_scalar_size(s);
  switch (s) {
  case KERN_SCALAR_FLOAT32: { float x; memcpy(&x, p, 4); return x; }
  case KERN_SCALAR_FLOAT64: { double x; memcpy(&x, p, 8); return x; }
  case KERN_SCALAR_BOOL: case KERN_SCALAR_UINT8: return *p;
  case KERN_SCALAR_INT8: return (int8_t)*p;
  case KERN_SCALAR_INT16: { int16_t x; memcpy(&x, p, 2); return x; }
  case KERN_SCALAR_UINT16: { uint16_t x; memcpy(&x, p, 2); return x; }
  case KERN_SCALAR_INT32: { int32_t x; memcpy(&x, p, 4); return x; }
  case KERN_SCALAR_UINT32: { uint32_t x; memcpy(&x, p, 4); return x; }
  case KERN_SCALAR_INT64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
  case KERN_SCALAR_UINT64: { uint64_t x; memcpy(&x, p, 8); return (double)x; }
  default: return 0;
  }
}

/* Default tolerances: float32 results of a reordered sum differ from the
 * CPU's in the last few bits times log(n); integers must be equal. */
static void tolerances(const bench_check *c, kern_scalar s, double *rtol,
                       double *atol) {
  double dr = s == KERN_SCALAR_FLOAT32 ? 1e-5 : s == KERN_SCALAR_FLOAT64 ? 1e-9 : 0;
  *rtol = c->rtol >= 0 ? c->rtol : dr;
  *atol = c->atol >= 0 ? c->atol : 0;
}

/* Compares got with want; returns 0 or -1 with the first mismatch in msg.
 * *max_rel gets the largest relative difference. */
static int compare_outputs(const bench_spec *s, const outputs *want,
                           const outputs *got, double *max_rel, char *msg,
                           size_t size) {
  *max_rel = 0;
  for (int c = 0; c < want->n; c++) {
    if (got->nbytes[c] != want->nbytes[c]) {
      snprintf(msg, size, "output '%s' has %zu bytes, the CPU's %zu",
               s->checks[c].name, got->nbytes[c], want->nbytes[c]);
      return -1;
    }
    double rtol, atol;
    tolerances(&s->checks[c], want->scalar[c], &rtol, &atol);
    size_t n = want->nbytes[c] / npy_scalar_size(want->scalar[c]);
    for (size_t i = 0; i < n; i++) {
      double w = scalar_at(want->scalar[c], want->data[c], i);
      double g = scalar_at(got->scalar[c], got->data[c], i);
      double d = fabs(g - w);
      double rel = w != 0 ? d / fabs(w) : d;
      if (rel > *max_rel || isnan(rel)) *max_rel = rel;
      if (!(d <= atol + rtol * fabs(w))) {
        snprintf(msg, size, "output '%s'[%zu] = %.17g, the CPU backend gives "
                 "%.17g (rtol %g, atol %g)", s->checks[c].name, i, g, w,
                 rtol, atol);
        return -1;
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- timing */

/* Launches timed between events in one go: enough to keep the device busy
 * back to back, few enough that a converged sampler wastes little. */
enum { HOT_BATCH = 8 };

typedef struct device_ctx {
  kern_context *ctx;      /* unchecked: the timed launches */
  kern_context *checked;  /* debug mode: the first, checked launch */
  kern_device dev;
  kern_device_info info;
  kern_array *flush;  /* larger than the device's caches */
  kern_stream *stream;             /* the default stream, when ev[0] is set */
  kern_event *ev[HOT_BATCH + 1];   /* all NULL: time by the wall clock */
} device_ctx;

/* Sets up event timing on GPU backends; on failure (or on the CPU) the
 * device keeps the wall clock, which is still a correct, if coarser,
 * figure. */
static void timer_init(device_ctx *d) {
  if (d->ev[0] || d->info.backend == KERN_BACKEND_CPU) return;
  int ok = kern_stream_default(d->ctx, d->dev, &d->stream) == KERN_SUCCESS;
  for (int i = 0; ok && i <= HOT_BATCH; i++)
    ok = kern_event_new(d->ctx, &d->ev[i]) == KERN_SUCCESS;
  if (!ok) {
    for (int i = 0; i <= HOT_BATCH; i++) {
      kern_event_free(d->ev[i]);
      d->ev[i] = NULL;
    }
    d->stream = NULL;
    kern_clear_error(d->ctx);
  }
}

static void timer_free(device_ctx *d) {
  for (int i = 0; i <= HOT_BATCH; i++) {
    kern_event_free(d->ev[i]);
    d->ev[i] = NULL;
  }
}

/* Times n (at most HOT_BATCH) launches back to back; sec[i] is launch i in
 * seconds.  See Note [timing a launch]. */
static kern_status time_launches(device_ctx *d, kern_kernel *k,
                                 const launch_args *a, int n, double *sec) {
  kern_status st;
  if (!d->ev[0]) {
    for (int i = 0; i < n; i++) {
      double t0 = now_s();
      if ((st = kern_launch(k, a->ndim, a->dims, a->np, a->kargs))) return st;
      sec[i] = now_s() - t0;
    }
    return KERN_SUCCESS;
  }
  if (n > HOT_BATCH) n = HOT_BATCH;
  if ((st = kern_event_record(d->ev[0], d->stream))) return st;
  for (int i = 0; i < n; i++) {
    if ((st = kern_launch_async(k, d->stream, a->ndim, a->dims, a->np,
                                a->kargs)) ||
        (st = kern_event_record(d->ev[i + 1], d->stream))) {
      kern_stream_synchronize(d->stream);
      return st;
    }
  }
  /* The stream's synchronisation reports an error of the launches, which
   * the events alone would not. */
  if ((st = kern_stream_synchronize(d->stream))) return st;
  for (int i = 0; i < n; i++) {
    double ms;
    if ((st = kern_event_elapsed(d->ev[i], d->ev[i + 1], &ms))) return st;
    sec[i] = ms / 1e3;
  }
  return KERN_SUCCESS;
}

/* One mode's samples.  Returns the status of the first failed call. */
static kern_status sample_mode(const bench_options *o, device_ctx *d,
                               kern_kernel *k, const bench_spec *s,
                               launch_args *a, int mode, bench_mode *out) {
  bench_sampler sm;
  bench_sampler_init(&sm, o->target_rsd, o->budget_s, o->min_samples,
                     o->max_samples);
  kern_status st = KERN_SUCCESS;
  for (;;) {
    double t, batch[HOT_BATCH], t0 = now_s();
    int nb = 1;
    if (mode == BENCH_COLD && d->flush) {
      /* Note [cold runs]: zeroing a buffer several times the size of the
       * last-level cache evicts the kernel's inputs, so the launch reads
       * them from memory, as the first launch on fresh data would. */
      if ((st = kern_array_zero(d->flush))) break;
    }
    if (mode == BENCH_TRANSFERS) {
      double t1 = now_s();
      if ((st = args_reupload(a))) break;
      if ((st = kern_launch(k, a->ndim, a->dims, a->np, a->kargs))) break;
      outputs tmp;
      st = download_checks(s, a, &tmp);
      outputs_free(&tmp);
      if (st) break;
      t = now_s() - t1;
      batch[0] = t;
    } else {
      /* Hot launches go back to back in batches; a cold launch alone,
       * after its flush, which is outside the timed region. */
      nb = mode == BENCH_HOT && d->ev[0] ? HOT_BATCH : 1;
      if ((st = time_launches(d, k, a, nb, batch))) break;
    }
    double cost = (now_s() - t0) / nb;
    int done = 0;
    for (int i = 0; i < nb && !done; i++)
      done = bench_sampler_add(&sm, batch[i], cost);
    if (done < 0) { st = KERN_ERROR_OUT_OF_MEMORY; break; }
    if (done) break;
  }
  if (st == KERN_SUCCESS) {
    out->present = 1;
    bench_stats_compute(sm.x, sm.n, &out->st);
    out->stop = sm.stop;
  }
  bench_sampler_free(&sm);
  return st;
}

/* ---------------------------------------------------------------- peaks */

static void cache_dir(const bench_options *o, char *out, size_t size) {
  const char *d = o->cache_dir ? o->cache_dir : getenv("KERN_CACHE_DIR");
  if (d && d[0]) { snprintf(out, size, "%s", d); return; }
  const char *x = getenv("XDG_CACHE_HOME");
  if (x && x[0]) { snprintf(out, size, "%s/kern", x); return; }
  const char *h = getenv("HOME");
  snprintf(out, size, "%s/.cache/kern", h && h[0] ? h : "/tmp");
}

static void peak_key(const device_ctx *d, char *out, size_t size) {
  static const char *const bn[] = {"cpu", "cuda", "opencl", "vulkan"};
  /* Not the description: it holds free memory, which changes. */
  snprintf(out, size, "%s|%s|%d units|%llu", bn[d->info.backend],
           d->info.name, d->info.compute_units,
           (unsigned long long)(d->info.backend == KERN_BACKEND_OPENCL
                                    ? 0 : d->info.memory_bytes >> 30));
  for (char *p = out; *p; p++)
    if (*p == '\t' || *p == '\n') *p = ' ';
}

/* A cached peak is used for a day (Note [peak bandwidth]): long enough
 * that a day of runs costs one measurement, short enough that a peak taken
 * on a busy machine does not stand for ever.  Lines are KEY, GB/s and the
 * time it was measured. */
enum { PEAK_MAX_AGE_S = 24 * 3600 };

static double peak_lookup(const char *path, const char *key) {
  FILE *f = fopen(path, "r");
  if (!f) return NAN;
  char line[1024];
  double v = NAN;
  size_t kl = strlen(key);
  long long now = (long long)time(NULL);
  while (fgets(line, sizeof line, f))
    if (strncmp(line, key, kl) == 0 && line[kl] == '\t') {
      char *e;
      double g = strtod(line + kl + 1, &e);
      long long when = *e == '\t' ? strtoll(e + 1, NULL, 10) : 0;
      v = now - when >= 0 && now - when < PEAK_MAX_AGE_S ? g : NAN;
    }
  fclose(f);
  return v;
}

/* Appends key -> v, rewriting the file through a temporary and a rename so
 * a concurrent reader never sees half a line. */
static void peak_store(const char *dir, const char *path, const char *key,
                       double v) {
  mkdir(dir, 0700);
  char tmp[1200];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  FILE *out = fopen(tmp, "w");
  if (!out) return;
  FILE *in = fopen(path, "r");
  char line[1024];
  size_t kl = strlen(key);
  while (in && fgets(line, sizeof line, in))
    if (!(strncmp(line, key, kl) == 0 && line[kl] == '\t')) fputs(line, out);
  if (in) fclose(in);
  fprintf(out, "%s\t%.6g\t%lld\n", key, v, (long long)time(NULL));
  if (fclose(out) == 0) rename(tmp, path);
  else remove(tmp);
}

typedef struct copy_job {
  char *dst;
  const char *src;
  size_t n;
  int joined;
} copy_job;

static void *copy_slice(void *p) {
  copy_job *j = p;
  memcpy(j->dst, j->src, j->n);
  return NULL;
}

/* Note [peak bandwidth]: the device's peak is what a large copy reaches,
 * counted as bytes read plus bytes written: on the CPU a memcpy split over
 * the cores, on other devices kern_array_copy_async of min(1 GiB, memory/8)
 * bytes between two events (the driver's own device-to-device copy, which
 * is what "the memory's bandwidth" means to users of that device), the
 * best of 7 (stats.c: a peak is what the copy reached at best, the slower
 * runs were disturbed; the median of 7 varied 2.3x between runs on a busy
 * machine and gave "%peak" figures of 150-360%).  It is kept in the kernel
 * cache directory for a day (PEAK_MAX_AGE_S) and then measured again;
 * delete bench-peak-v3.tsv to measure now.  The file's name carries its
 * version: v2 (a median, no time) and the copy-kernel probe's
 * bench-peak.tsv are not read. */
static double measure_peak(const bench_options *o, device_ctx *d,
                           size_t bytes) {
  enum { REPS = 7 };
  double best[REPS];
  int n = 0;
  if (d->info.backend == KERN_BACKEND_CPU) {
    char *a = malloc(bytes), *b = malloc(bytes);
    int nt = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (nt < 1) nt = 1;
    if (nt > 64) nt = 64;
    if (a && b) {
      memset(a, 1, bytes);
      memset(b, 2, bytes);
      for (; n < REPS; n++) {
        /* One memcpy per core on its own slice, as the CPU backend's
         * launch threads read memory. */
        copy_job jobs[64];
        pthread_t th[64];
        size_t slice = bytes / (size_t)nt;
        double t0 = now_s();
        for (int t = 0; t < nt; t++) {
          jobs[t].dst = b + (size_t)t * slice;
          jobs[t].src = a + (size_t)t * slice;
          jobs[t].n = t == nt - 1 ? bytes - (size_t)t * slice : slice;
          if (t > 0 && pthread_create(&th[t], NULL, copy_slice, &jobs[t]) == 0)
            jobs[t].joined = 0;
          else if (t > 0)
            copy_slice(&jobs[t]), jobs[t].joined = 1;
        }
        copy_slice(&jobs[0]);
        for (int t = 1; t < nt; t++)
          if (!jobs[t].joined) pthread_join(th[t], NULL);
        best[n] = now_s() - t0;
        a[n] = b[bytes - 1 - (size_t)n]; /* keep the copy observable */
      }
    }
    free(a);
    free(b);
  } else {
    kern_array *src = NULL, *dst = NULL;
    kern_event *e0 = NULL, *e1 = NULL;
    kern_stream *sd = NULL;
    kern_type u8 = {KERN_KIND_SCALAR, KERN_SCALAR_UINT8, 1, 1};
    /* Halve the buffer until both fit; a device with little free memory
     * still gets a (smaller) peak. */
    for (; bytes >= ((size_t)8 << 20); bytes /= 2) {
      int64_t count = (int64_t)bytes;
      if (kern_array_new(d->ctx, d->dev, u8, 1, &count, &src) ==
              KERN_SUCCESS &&
          kern_array_new(d->ctx, d->dev, u8, 1, &count, &dst) == KERN_SUCCESS)
        break;
      kern_array_free(src);
      kern_array_free(dst);
      src = dst = NULL;
      kern_clear_error(d->ctx);
    }
    /* Zeroing both and one untimed copy take the first-touch costs out. */
    if (src && dst && kern_stream_default(d->ctx, d->dev, &sd) == KERN_SUCCESS &&
        kern_event_new(d->ctx, &e0) == KERN_SUCCESS &&
        kern_event_new(d->ctx, &e1) == KERN_SUCCESS &&
        kern_array_zero(src) == KERN_SUCCESS &&
        kern_array_zero(dst) == KERN_SUCCESS &&
        kern_array_copy(dst, src) == KERN_SUCCESS) {
      for (; n < REPS; n++) {
        double ms;
        if (kern_event_record(e0, sd) ||
            kern_array_copy_async(dst, 0, src, 0, bytes, sd) ||
            kern_event_record(e1, sd) || kern_stream_synchronize(sd) ||
            kern_event_elapsed(e0, e1, &ms) || !(ms > 0))
          break;
        best[n] = ms / 1e3;
      }
    }
    kern_event_free(e0);
    kern_event_free(e1);
    kern_array_free(src);
    kern_array_free(dst);
    kern_clear_error(d->ctx);
  }
  (void)o;
  return bench_peak_gbps(best, n, (double)bytes);
}

/* The copy for the peak of a GPU: a large part of a large memory, but not
 * so much that the two buffers crowd the device. */
static size_t peak_buffer_bytes(const device_ctx *d) {
  uint64_t b = d->info.memory_bytes / 8;
  if (b > ((uint64_t)1 << 30)) b = (uint64_t)1 << 30;
  if (b < ((uint64_t)8 << 20)) b = (uint64_t)8 << 20;
  return (size_t)b;
}

static size_t big_buffer_bytes(const device_ctx *d) {
  /* Several times any cache there is, but a small part of the memory. */
  uint64_t b = d->info.memory_bytes / 32;
  if (b > ((uint64_t)256 << 20)) b = (uint64_t)256 << 20;
  if (b < ((uint64_t)8 << 20)) b = (uint64_t)8 << 20;
  return (size_t)b;
}

static double device_peak(const bench_options *o, device_ctx *d) {
  if (o->no_peak) return NAN;
  char dir[900], path[1000], key[600];
  cache_dir(o, dir, sizeof dir);
  snprintf(path, sizeof path, "%s/bench-peak-v3.tsv", dir);
  peak_key(d, key, sizeof key);
  double v = peak_lookup(path, key);
  if (isfinite(v) && v > 0) return v;
  progress(o, "measuring the peak bandwidth of %s%s", d->info.name, "");
  v = measure_peak(o, d, d->info.backend == KERN_BACKEND_CPU
                              ? big_buffer_bytes(d)
                              : peak_buffer_bytes(d));
  if (isfinite(v) && v > 0) peak_store(dir, path, key, v);
  return v;
}

/* ---------------------------------------------------------------- devices */

static double count_bytes(const bench_spec *s, const launch_args *a) {
  double b = 0;
  for (int i = 0; i < a->np; i++)
    if (a->ps[i].kind == KERN_PARAM_ARRAY) b += (double)a->hosts[i].nbytes;
  /* Outputs are read and written. */
  for (int c = 0; c < s->nchecks; c++) {
    int p = param_index(a, s->checks[c].name);
    if (p >= 0) b += (double)a->hosts[p].nbytes;
  }
  return b;
}

static void fill_counts(const bench_spec *s, int point, const launch_args *a,
                        bench_row *row) {
  char why[256];
  double v;
  row->bytes = s->bytes_expr[0] &&
                       bench_eval(s, point, s->bytes_expr, &v, why,
                                  sizeof why) == 0
                   ? v
                   : count_bytes(s, a);
  if (s->flops_expr[0] &&
      bench_eval(s, point, s->flops_expr, &v, why, sizeof why) == 0)
    row->flops = v;
}

/* The message of ctx's last failure (or st's name), which it clears. */
static const char *ctx_msg(kern_context *ctx, kern_status st, char *buf,
                           size_t size) {
  const char *m = kern_last_error(ctx);
  snprintf(buf, size, "%s", m[0] ? m : kern_status_string(st));
  kern_clear_error(ctx);
  return buf;
}

static const char *lib_msg(device_ctx *d, kern_status st, char *buf,
                           size_t size) {
  return ctx_msg(d->ctx, st, buf, size);
}

/* Note [checked first launch]: a row's first launch runs in debug mode (a
 * second context, opened with kern_options.debug), so a spec whose arrays
 * are shorter than the kernel indexes them (--dim 1000 over 4-element
 * arrays) fails that row with the same message as `kern run` -- the
 * kernel, file:line:col, the index and the shape -- and touches no memory.
 * Unchecked, such a launch writes past kern's own allocations: on the CPU
 * it overwrote the thread pool's mutex and hung the process.  Only after
 * the checked launch passed are the module and the arrays made again in
 * the unchecked context, on fresh copies of the same inputs; that build's
 * first launch gives the output compared with the CPU backend's (the
 * CPU's own unchecked output is the reference), and then it is timed, so
 * the figures are of the code users run without --debug and that code's
 * results are the ones checked.  The checked arrays are freed first: a
 * device holds one copy of the inputs at a time. */

/* Loads the spec's kernel into ctx; on failure the row says why. */
static kern_status load_kernel(kern_context *ctx, kern_device dev,
                               const bench_file *f, const bench_spec *s,
                               kern_module **m, kern_kernel **k,
                               bench_row *row) {
  kern_status st;
  if ((st = kern_module_load_file(ctx, dev, f->path, m)) ||
      (st = kern_module_get_kernel(*m, s->kernel, k)) ||
      (s->block_dim && (st = kern_kernel_set_block_dim(*k, s->block_dim)))) {
    char msg[1024];
    row_status(row, st == KERN_ERROR_UNSUPPORTED ? "unavailable" : "failed",
               ctx_msg(ctx, st, msg, sizeof msg));
  }
  return st;
}

/* Runs one spec point on one device.  `want` is NULL for the CPU backend,
 * whose outputs then fill `got` and become the reference.  See Note
 * [checked first launch]. */
static int run_device(const bench_file *f, const bench_spec *s, int point,
                      const bench_options *o, device_ctx *d,
                      const outputs *want, outputs *got, bench_row *row,
                      launch_args *proto, int timed, char *err,
                      size_t errsize) {
  char msg[1024];
  kern_module *m = NULL, *mc = NULL;
  kern_kernel *k = NULL, *kc = NULL;
  launch_args a = {0};
  outputs out = {0};
  int rc = 0;
  kern_status st;
  snprintf(row->device, sizeof row->device, "%s", d->info.name);
  snprintf(row->description, sizeof row->description, "%s",
           d->info.description);
  progress(o, "%s on %s: compiling", s->kernel, row->name);
  if (load_kernel(d->checked, d->dev, f, s, &mc, &kc, row)) goto done;
  if (args_build(f, s, point, kc, &a, err, errsize)) {
    rc = -1; /* the spec is wrong: stop everything */
    goto done;
  }
  fill_counts(s, point, &a, row);
  if (!proto->np) {
    /* Keep the first device's host inputs for the references. */
    if (args_build(f, s, point, kc, proto, err, errsize)) { rc = -1; goto done; }
  }
  if ((st = args_upload(d->checked, d->dev, &a)) ||
      (st = kern_launch(kc, a.ndim, a.dims, a.np, a.kargs))) {
    row_status(row, st == KERN_ERROR_UNSUPPORTED ? "unavailable" : "failed",
               ctx_msg(d->checked, st, msg, sizeof msg));
    goto done;
  }
  args_free_device(&a);
  /* The same kernel and inputs, unchecked: its output is the one compared,
   * since it is this build that is timed. */
  if (load_kernel(d->ctx, d->dev, f, s, &m, &k, row)) goto done;
  if (kern_kernel_param_count(k) != a.np) {
    row_status(row, "failed", "the unchecked kernel's parameters differ "
               "from the checked kernel's");
    goto done;
  }
  if ((st = args_upload(d->ctx, d->dev, &a)) ||
      (st = kern_launch(k, a.ndim, a.dims, a.np, a.kargs)) ||
      (st = download_checks(s, &a, &out))) {
    row_status(row, st == KERN_ERROR_UNSUPPORTED ? "unavailable" : "failed",
               lib_msg(d, st, msg, sizeof msg));
    goto done;
  }
  if (want && want->n < s->nchecks) {
    row_status(row, "failed", "not checked: the CPU backend gave no output "
               "to compare with");
    goto done;
  }
  if (want) {
    if (compare_outputs(s, want, &out, &row->max_rel_err, msg, sizeof msg)) {
      row_status(row, "failed", msg);
      goto done;
    }
    row->checked = 1;
  } else {
    *got = out;
    memset(&out, 0, sizeof out);
    row->checked = s->nchecks > 0;
    row->max_rel_err = 0;
  }
  if (!timed) goto done; /* only the reference outputs were wanted */
  /* Warm-up: a few launches, or 10% of the budget, outside any sample. */
  timer_init(d);
  snprintf(row->timer, sizeof row->timer, "%s", d->ev[0] ? "events" : "wall");
  double t0 = now_s(), t;
  st = KERN_SUCCESS;
  for (int i = 0; i < 3 && now_s() - t0 < 0.1 * o->budget_s; i++)
    if ((st = time_launches(d, k, &a, 1, &t))) break;
  for (int mode = 0; mode < BENCH_MODES && !st; mode++) {
    if (mode == BENCH_COLD && !o->cold) continue;
    if (mode == BENCH_TRANSFERS && !o->transfers) continue;
    if (mode == BENCH_COLD && !d->flush) {
      int64_t n = (int64_t)big_buffer_bytes(d);
      kern_type u8 = {KERN_KIND_SCALAR, KERN_SCALAR_UINT8, 1, 1};
      if (kern_array_new(d->ctx, d->dev, u8, 1, &n, &d->flush) ||
          kern_array_zero(d->flush)) {
        /* No room to flush: no cold figures.  The first zeroing above
         * also takes the page faults out of the first cold sample. */
        kern_array_free(d->flush);
        d->flush = NULL;
        kern_clear_error(d->ctx);
        continue;
      }
    }
    progress(o, "%s on %s: timing", s->kernel, row->name);
    st = sample_mode(o, d, k, s, &a, mode, &row->mode[mode]);
  }
  if (st) {
    row_status(row, "failed", lib_msg(d, st, msg, sizeof msg));
    goto done;
  }
  row->peak_gbps = device_peak(o, d);
#ifdef _SC_LEVEL3_CACHE_SIZE
  /* The CPU's last-level cache, for the %peak label (Note [peak label]). */
  if (d->info.backend == KERN_BACKEND_CPU) {
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    row->cache_bytes = l3 > 0 ? (double)l3 : l2 > 0 ? (double)l2 : 0;
  }
#endif
done:
  outputs_free(&out);
  args_free(&a);
  kern_module_free(m);
  kern_module_free(mc);
  return rc;
}

/* ---------------------------------------------------------------- groups */

/* Note [group row]
 * When KERN_DEVICE names several devices ("cuda:0,1", "cuda:all"), kern
 * bench adds a row that runs the kernel over all of them at once as a
 * sharded launch (include/kern.h, "multigpu").  An array argument whose
 * first axis is the grid's first axis is block-sharded; any other array is
 * replicated.  A replicated array the spec checks (an output such as
 * sum_of_squares' `out`) starts as the input on the first shard and zeros
 * on the others and is summed by one all-reduce after the launch: right
 * for outputs that kernels accumulate with atomics, which is what a
 * reduction's output is.  The row's time is the wall time of the launch
 * and the all-reduces, and its output is checked like every other row. */

/* The device list in KERN_DEVICE when it names several devices. */
static int group_wanted(void) {
  const char *e = getenv("KERN_DEVICE");
  if (!e) return 0;
  size_t n = strlen(e);
  return strchr(e, ',') != NULL || (n > 4 && strcmp(e + n - 4, ":all") == 0);
}

/* One group with the spec's kernel loaded and its arguments made. */
typedef struct group_run {
  kern_context *ctx;
  kern_group *g;
  kern_module *m;
  kern_kernel *k;
  kern_sharded **sh;
  kern_arg *args;
  char *summed;  /* replicated outputs summed after each launch */
} group_run;

static void group_close(group_run *gr) {
  kern_module_free(gr->m);
  kern_group_free(gr->g); /* frees the sharded arrays */
  free(gr->sh);
  free(gr->args);
  free(gr->summed);
  memset(gr, 0, sizeof *gr);
}

/* Loads the file into every device of gr->g and the kernel on its first
 * device, for the parameters. */
static kern_status group_load(group_run *gr, const bench_file *f,
                              const bench_spec *s) {
  kern_status st;
  if ((st = kern_group_load_file(gr->g, f->path)) ||
      (st = kern_module_load_file(gr->ctx, kern_group_device(gr->g, 0),
                                  f->path, &gr->m)) ||
      (st = kern_module_get_kernel(gr->m, s->kernel, &gr->k)) ||
      (s->block_dim && (st = kern_kernel_set_block_dim(gr->k, s->block_dim))))
    return st;
  return KERN_SUCCESS;
}

/* Makes the sharded arguments from a's host data (Note [group row]). */
static kern_status group_args(group_run *gr, const bench_spec *s,
                              launch_args *a) {
  kern_status st = KERN_SUCCESS;
  gr->sh = calloc((size_t)a->np + 1, sizeof *gr->sh);
  gr->args = calloc((size_t)a->np + 1, sizeof *gr->args);
  gr->summed = calloc((size_t)a->np + 1, 1);
  if (!gr->sh || !gr->args || !gr->summed) return KERN_ERROR_OUT_OF_MEMORY;
  for (int i = 0; i < a->np; i++) {
    if (a->ps[i].kind != KERN_PARAM_ARRAY) {
      gr->args[i] = kern_arg_data(a->values[i], kern_type_size(a->ps[i].type));
      continue;
    }
    spec_array *h = &a->hosts[i];
    int checked = 0;
    for (int c = 0; c < s->nchecks; c++)
      checked |= strcmp(s->checks[c].name, a->ps[i].name) == 0;
    if (h->shape[0] == a->dims[0]) {
      if ((st = kern_sharded_new(gr->g, h->type, h->ndim, h->shape, 0,
                                 &gr->sh[i])) ||
          (st = kern_sharded_upload(gr->sh[i], h->data, h->nbytes)))
        return st;
    } else {
      if ((st = kern_sharded_new_replicated(gr->g, h->type, h->ndim, h->shape,
                                            &gr->sh[i])))
        return st;
      gr->summed[i] = (char)checked;
      for (int j = 0; j < kern_group_local_size(gr->g); j++) {
        kern_array *piece;
        if ((st = kern_sharded_shard(gr->sh[i], j, &piece, NULL, NULL, NULL)) ||
            (st = j > 0 && checked ? kern_array_zero(piece)
                                   : kern_array_upload(piece, h->data,
                                                       h->nbytes)))
          return st;
      }
    }
    gr->args[i] = kern_arg_sharded(gr->sh[i]);
  }
  return st;
}

/* One launch and its all-reduces, enqueued without host waits in between,
 * then one wait: the time of the work, not of the round trips between its
 * steps. */
static kern_status group_launch(group_run *gr, const bench_spec *s,
                                const launch_args *a) {
  kern_status st = kern_group_launch_async(gr->g, s->kernel, a->ndim, a->dims,
                                           a->np, gr->args);
  for (int i = 0; i < a->np && !st; i++)
    if (gr->summed[i])
      st = kern_sharded_all_reduce_async(gr->sh[i], KERN_REDUCE_SUM);
  if (!st) st = kern_group_synchronize(gr->g);
  return st;
}

/* The first launch runs on a group of the debug context, the compared and
 * timed ones on a group of the unchecked context (Note [checked first
 * launch]). */
static int run_group(const bench_file *f, const bench_spec *s, int point,
                     const bench_options *o, kern_context *ctx,
                     kern_context *dctx, const outputs *want, bench_result *r,
                     char *err, size_t errsize) {
  char msg[1024], name[80];
  kern_group_options go = KERN_GROUP_OPTIONS_INIT;
  go.mpi = -1;
  group_run gr = {0};
  launch_args a = {0};
  outputs out = {0};
  bench_sampler sm = {0};
  int rc = 0;
  gr.ctx = dctx;
  kern_status st = kern_group_new(dctx, &go, &gr.g);
  if (st == KERN_SUCCESS && kern_group_size(gr.g) < 2) {
    group_close(&gr);
    return 0;
  }
  snprintf(name, sizeof name, "%s (group)", getenv("KERN_DEVICE"));
  bench_row *row = add_row(r, s, point, "backend", name);
  if (!row) {
    group_close(&gr);
    return -1;
  }
  if (st) goto fail;
  if (s->block_dim || s->tiled) {
    /* a group launch has no per-device block size (kern_group_launch) */
    row_status(row, "unavailable", "--block-dim and --tiled run on one "
               "device, not on a group");
    group_close(&gr);
    return 0;
  }
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  kern_device_get(dctx, kern_group_device(gr.g, 0), &di);
  snprintf(row->device, sizeof row->device, "%d x %s (%s)",
           kern_group_size(gr.g), di.name, kern_group_transport(gr.g));
  snprintf(row->timer, sizeof row->timer, "wall");
  progress(o, "%s on %s: compiling", s->kernel, row->name);
  if ((st = group_load(&gr, f, s))) goto fail;
  if (args_build(f, s, point, gr.k, &a, err, errsize)) {
    rc = -1;
    goto done;
  }
  fill_counts(s, point, &a, row);
  /* The checked launch. */
  if ((st = group_args(&gr, s, &a)) || (st = group_launch(&gr, s, &a)))
    goto fail;
  group_close(&gr);
  /* The unchecked build: its first launch is compared, then timed. */
  gr.ctx = ctx;
  if ((st = kern_group_new(ctx, &go, &gr.g)) || (st = group_load(&gr, f, s)) ||
      (st = group_args(&gr, s, &a)) || (st = group_launch(&gr, s, &a)))
    goto fail;
  for (int c = 0; c < s->nchecks; c++) {
    int p = param_index(&a, s->checks[c].name);
    out.data[c] = malloc(a.hosts[p].nbytes ? a.hosts[p].nbytes : 1);
    out.nbytes[c] = a.hosts[p].nbytes;
    out.scalar[c] = a.ps[p].type.scalar;
    out.n = c + 1;
    if (!out.data[c]) st = KERN_ERROR_OUT_OF_MEMORY;
    else st = kern_sharded_download(gr.sh[p], out.data[c], out.nbytes[c]);
    if (st) goto fail;
  }
  if (want && want->n >= s->nchecks) {
    if (compare_outputs(s, want, &out, &row->max_rel_err, msg, sizeof msg)) {
      row_status(row, "failed", msg);
      goto done;
    }
    row->checked = 1;
  }
  progress(o, "%s on %s: timing", s->kernel, row->name);
  bench_sampler_init(&sm, o->target_rsd, o->budget_s, o->min_samples,
                     o->max_samples);
  for (int warm = 3;; warm--) {
    double t0 = now_s();
    if ((st = group_launch(&gr, s, &a))) goto fail;
    double t = now_s() - t0;
    if (warm > 0) continue;
    int done = bench_sampler_add(&sm, t, t);
    if (done < 0) {
      st = KERN_ERROR_OUT_OF_MEMORY;
      goto fail;
    }
    if (done) break;
  }
  row->mode[BENCH_HOT].present = 1;
  bench_stats_compute(sm.x, sm.n, &row->mode[BENCH_HOT].st);
  row->mode[BENCH_HOT].stop = sm.stop;
  goto done;
fail:
  row_status(row, st == KERN_ERROR_UNSUPPORTED ||
                          st == KERN_ERROR_BACKEND_UNAVAILABLE
                      ? "unavailable" : "failed",
             ctx_msg(gr.ctx, st, msg, sizeof msg));
done:
  bench_sampler_free(&sm);
  outputs_free(&out);
  args_free(&a);
  group_close(&gr);
  return rc;
}

/* ---------------------------------------------------------------- refs */

static int write_all(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  if (!fp) return -1;
  fputs(text, fp);
  return fclose(fp);
}

static char *slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  while (b) {
    size_t got = fread(b + n, 1, cap - n - 1, fp);
    n += got;
    if (n + 1 < cap) break;
    char *nb = realloc(b, cap *= 2);
    if (!nb) { free(b); b = NULL; }
    else b = nb;
  }
  fclose(fp);
  if (b) b[n] = '\0';
  return b;
}

/* Runs argv with stdout and stderr sent to files; no shell is involved, so
 * nothing in a spec is ever interpreted by one.  Returns the exit status,
 * 127 when the program cannot start, -1 on other failures. */
int bench_spawn(char *const argv[], const char *out_path,
                      const char *err_path) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa)) return -1;
  posix_spawn_file_actions_addopen(&fa, 1, out_path,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, err_path,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) return 127;
  int ws;
  while (waitpid(pid, &ws, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

static void fill_mode_from_json(const bench_json *arr, bench_mode *m) {
  if (!arr || arr->type != BJ_ARR || arr->n == 0) return;
  double *x = malloc((size_t)arr->n * sizeof *x);
  if (!x) return;
  for (int i = 0; i < arr->n; i++) x[i] = arr->items[i].num;
  bench_stats_compute(x, arr->n, &m->st);
  m->present = 1;
  free(x);
}

static const char *json_str(const bench_json *o, const char *key,
                            const char *dflt) {
  const bench_json *v = bench_json_get(o, key);
  return v && v->type == BJ_STR ? v->str : dflt;
}

static const char *const stop_names[] = {"rsd", "budget", "max-samples"};

static const char *stop_name(const char *s) {
  for (int i = 0; i < 3; i++)
    if (s && strcmp(s, stop_names[i]) == 0) return stop_names[i];
  return "budget";
}

/* Writes the inputs and the CPU's outputs into dir for the helper script. */
static int write_ref_inputs(const bench_spec *s, const launch_args *a,
                            const outputs *want, const char *dir, char *msg,
                            size_t size) {
  char path[1200], err[512];
  char vals[4096] = "{";
  for (int i = 0; i < a->np; i++) {
    const kern_param_info *p = &a->ps[i];
    if (p->kind == KERN_PARAM_ARRAY) {
      const spec_array *h = &a->hosts[i];
      int ndim = h->ndim;
      int64_t shape[KERN_MAX_DIMS + 2];
      memcpy(shape, h->shape, sizeof h->shape);
      /* Vectors and matrices add trailing axes, as NumPy sees them. */
      if (p->type.rows > 1) shape[ndim++] = p->type.rows;
      if (p->type.cols > 1) shape[ndim++] = p->type.cols;
      snprintf(path, sizeof path, "%s/in_%s.npy", dir, p->name);
      if (npy_write(path, p->type.scalar, ndim, shape, h->data, err,
                    sizeof err)) {
        snprintf(msg, size, "%s", err);
        return -1;
      }
    } else if (p->type.kind == KERN_KIND_SCALAR) {
      /* Python's json reads NaN and Infinity, not C's nan and inf. */
      double v = scalar_at(p->type.scalar, a->values[i], 0);
      char num[40];
      if (isnan(v)) snprintf(num, sizeof num, "NaN");
      else if (isinf(v)) snprintf(num, sizeof num, "%sInfinity", v < 0 ? "-" : "");
      else snprintf(num, sizeof num, "%.17g", v);
      size_t l = strlen(vals);
      snprintf(vals + l, sizeof vals - l, "%s\"%s\": [\"%s\", %s]",
               l > 1 ? ", " : "", p->name, kern_scalar_name(p->type.scalar),
               num);
    }
  }
  strcat(vals, "}\n");
  snprintf(path, sizeof path, "%s/values.json", dir);
  if (write_all(path, vals)) {
    snprintf(msg, size, "cannot write %.400s", path);
    return -1;
  }
  for (int c = 0; c < s->nchecks; c++) {
    int p = param_index(a, s->checks[c].name);
    const spec_array *h = &a->hosts[p];
    int ndim = h->ndim;
    int64_t shape[KERN_MAX_DIMS + 2];
    memcpy(shape, h->shape, sizeof h->shape);
    if (a->ps[p].type.rows > 1) shape[ndim++] = a->ps[p].type.rows;
    if (a->ps[p].type.cols > 1) shape[ndim++] = a->ps[p].type.cols;
    snprintf(path, sizeof path, "%s/want_%s.npy", dir, s->checks[c].name);
    if (npy_write(path, want->scalar[c], ndim, shape, want->data[c], err,
                  sizeof err)) {
      snprintf(msg, size, "%s", err);
      return -1;
    }
  }
  return 0;
}

static void run_ref(const bench_spec *s, const bench_ref *rf,
                    const bench_options *o, const char *dir, bench_row *row) {
  char out_path[1200], err_path[1200], num[6][32], rtol[32], atol[32];
  snprintf(out_path, sizeof out_path, "%s/ref.json", dir);
  snprintf(err_path, sizeof err_path, "%s/ref.err", dir);
  const bench_check *ck = NULL;
  for (int c = 0; c < s->nchecks; c++)
    if (strcmp(s->checks[c].name, rf->output) == 0) ck = &s->checks[c];
  snprintf(rtol, sizeof rtol, "%g", ck && ck->rtol >= 0 ? ck->rtol : -1.0);
  snprintf(atol, sizeof atol, "%g", ck && ck->atol >= 0 ? ck->atol : -1.0);
  snprintf(num[0], sizeof num[0], "%g", o->target_rsd);
  snprintf(num[1], sizeof num[1], "%g", o->budget_s);
  snprintf(num[2], sizeof num[2], "%d", o->min_samples);
  snprintf(num[3], sizeof num[3], "%d", o->max_samples);
  snprintf(num[4], sizeof num[4], "%d", o->cold);
  char *argv[] = {(char *)o->python, (char *)o->ref_script, "--lib",
                  (char *)rf->lib, "--output", (char *)rf->output,
                  "--expr", (char *)rf->expr, "--dir", (char *)dir,
                  "--rtol", rtol, "--atol", atol, "--target-rsd", num[0],
                  "--budget", num[1], "--min-samples", num[2],
                  "--max-samples", num[3], "--cold", num[4],
                  o->file_refs ? "--file-refs" : NULL, NULL};
  int rc = bench_spawn(argv, out_path, err_path);
  char *text = slurp(out_path);
  bench_json j = {0};
  char jerr[256];
  if (rc == 127) {
    char m[300];
    snprintf(m, sizeof m, "%.200s not found", o->python);
    row_status(row, "unavailable", m);
  } else if (!text || bench_json_parse(text, &j, jerr, sizeof jerr) ||
             j.type != BJ_OBJ) {
    char *e = slurp(err_path);
    char msg[512];
    const char *last = e ? e : "";
    /* The last line of a Python traceback says what went wrong. */
    size_t l = strlen(last);
    while (l && last[l - 1] == '\n') l--;
    const char *b = last + l;
    while (b > last && b[-1] != '\n') b--;
    snprintf(msg, sizeof msg, "helper exited %d: %.*s", rc, (int)(last + l - b), b);
    row_status(row, "failed", msg);
    free(e);
  } else {
    row_status(row, json_str(&j, "status", "failed"),
               json_str(&j, "message", ""));
    snprintf(row->device, sizeof row->device, "%s",
             json_str(&j, "device", ""));
    snprintf(row->timer, sizeof row->timer, "%s",
             json_str(&j, "timer", "wall"));
    snprintf(row->description, sizeof row->description, "%s",
             json_str(&j, "version", ""));
    const bench_json *mr = bench_json_get(&j, "max_rel_err");
    if (mr && mr->type == BJ_NUM) row->max_rel_err = mr->num;
    row->checked = strcmp(row->status, "ok") == 0;
    fill_mode_from_json(bench_json_get(&j, "hot"), &row->mode[BENCH_HOT]);
    fill_mode_from_json(bench_json_get(&j, "cold"), &row->mode[BENCH_COLD]);
    row->mode[BENCH_HOT].stop = stop_name(json_str(&j, "hot_stop", NULL));
    row->mode[BENCH_COLD].stop = stop_name(json_str(&j, "cold_stop", NULL));
  }
  bench_json_free(&j);
  free(text);
}

static void run_refs(const bench_spec *s, int point, const bench_options *o,
                     const launch_args *a, const outputs *want,
                     bench_result *r, const bench_row *cpu_row) {
  if (!s->nrefs || !o->refs) return;
  char dir[] = "/tmp/kern-bench-XXXXXX";
  char msg[512] = "";
  int ok = want && want->n && a->np && mkdtemp(dir) != NULL;
  if (ok && write_ref_inputs(s, a, want, dir, msg, sizeof msg)) ok = 0;
  for (int i = 0; i < s->nrefs; i++) {
    const bench_ref *rf = &s->refs[i];
    char name[600];
    snprintf(name, sizeof name, "%s: %s", rf->lib, rf->expr);
    bench_row *row = add_row(r, s, point, "reference", name);
    if (!row) break;
    row->bytes = cpu_row ? cpu_row->bytes : NAN;
    row->flops = cpu_row ? cpu_row->flops : NAN;
    if (!ok) {
      row_status(row, "failed", msg[0] ? msg : "the CPU backend gave no "
                 "output to check the reference against");
      continue;
    }
    progress(o, "reference %s%s", name, "");
    run_ref(s, rf, o, dir, row);
  }
  if (ok) {
    /* The helper only reads these files: remove them and the folder. */
    char path[1200];
    static const char *const fixed[] = {"values.json", "ref.json", "ref.err"};
    for (int i = 0; i < 3; i++) {
      snprintf(path, sizeof path, "%s/%s", dir, fixed[i]);
      remove(path);
    }
    for (int i = 0; i < a->np; i++) {
      snprintf(path, sizeof path, "%s/in_%s.npy", dir, a->ps[i].name);
      remove(path);
    }
    for (int c = 0; c < s->nchecks; c++) {
      snprintf(path, sizeof path, "%s/want_%s.npy", dir, s->checks[c].name);
      remove(path);
    }
    rmdir(dir);
  }
}

/* ---------------------------------------------------------------- env */

static void first_line(char *s) {
  char *nl = strchr(s, '\n');
  if (nl) *nl = '\0';
}

static void read_environment(bench_result *r) {
  gethostname(r->host, sizeof r->host - 1);
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "model name", 10) == 0) {
      char *c = strchr(line, ':');
      if (c) {
        snprintf(r->cpu, sizeof r->cpu, "%s", c + 2);
        first_line(r->cpu);
      }
      break;
    }
  if (f) fclose(f);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  size_t n = strlen(r->cpu);
  snprintf(r->cpu + n, sizeof r->cpu - n, "%s%ld logical cores",
           n ? ", " : "", cores);
  struct utsname u;
  if (uname(&u) == 0)
    snprintf(r->os, sizeof r->os, "%.40s %.64s %.32s", u.sysname, u.release,
             u.machine);
#ifdef __VERSION__
  snprintf(r->compiler, sizeof r->compiler, "%s", __VERSION__);
#endif
#ifdef KERN_GIT_COMMIT
  snprintf(r->commit, sizeof r->commit, "%s", KERN_GIT_COMMIT);
#else
  snprintf(r->commit, sizeof r->commit, "unknown");
#endif
  snprintf(r->kern, sizeof r->kern, "%s", KERN_VERSION_STRING);
  /* The CPU backend compiles kernels with the system's cc: its version is
   * part of what the CPU rows measured. */
  char dir[] = "/tmp/kern-bench-cc-XXXXXX";
  if (mkdtemp(dir)) {
    char out[64], errp[64];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(errp, sizeof errp, "%s/err", dir);
    char *argv[] = {"cc", "--version", NULL};
    if (bench_spawn(argv, out, errp) == 0) {
      char *text = slurp(out);
      if (text) {
        first_line(text);
        snprintf(r->cc, sizeof r->cc, "%.150s", text);
        free(text);
      }
    }
    remove(out);
    remove(errp);
    rmdir(dir);
  }
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---------------------------------------------------------------- main */

static int backend_selected(const bench_options *o, const char *name) {
  if (!o->backends || strcmp(o->backends, "all") == 0) return 1;
  size_t n = strlen(name);
  for (const char *p = o->backends; *p;) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == n && strncmp(p, name, n) == 0) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

int bench_run(const bench_file *f, const bench_options *o, bench_result *r,
              char *err, size_t errsize) {
  memset(r, 0, sizeof *r);
  snprintf(r->file, sizeof r->file, "%s", f->path);
  read_environment(r);
  kern_options ko = KERN_OPTIONS_INIT;
  ko.cache_dir = o->cache_dir;
  /* Timings are of the final code from the first launch: a cold CUDA load
   * waits for NVRTC rather than start on kern's PTX (Note [PTX tier]). */
  ko.cuda_tier = KERN_CUDA_TIER_NVRTC;
  ko.no_native = o->no_native;
  /* Note [checked first launch]: ctx times, dctx checks. */
  kern_options dko = ko;
  dko.debug = 1;
  kern_context *ctx = NULL, *dctx = NULL;
  kern_status st = kern_context_new(&ko, &ctx);
  if (!st) st = kern_context_new(&dko, &dctx);
  if (st) {
    kern_context_free(ctx);
    snprintf(err, errsize, "cannot start kern: %s", kern_status_string(st));
    return -1;
  }
  int ndev = kern_device_count(ctx);
  device_ctx *devs = calloc((size_t)(ndev ? ndev : 1), sizeof *devs);
  if (!devs || kern_device_count(dctx) != ndev) {
    free(devs);
    kern_context_free(dctx);
    kern_context_free(ctx);
    snprintf(err, errsize, devs ? "the checked context sees other devices"
                                : "out of memory");
    return -1;
  }
  for (int i = 0; i < ndev; i++) {
    devs[i].ctx = ctx;
    devs[i].checked = dctx;
    devs[i].dev = i;
    devs[i].info.struct_size = sizeof devs[i].info;
    kern_device_get(ctx, i, &devs[i].info);
    kern_device_info di = KERN_DEVICE_INFO_INIT;
    kern_device_get(dctx, i, &di);
    if (di.backend != devs[i].info.backend || di.index != devs[i].info.index) {
      free(devs);
      kern_context_free(dctx);
      kern_context_free(ctx);
      snprintf(err, errsize, "the checked context sees other devices");
      return -1;
    }
  }
  static const char *const bn[] = {"cpu", "cuda", "opencl", "vulkan"};
  int rc = 0;
  for (int si = 0; si < f->nspecs && rc == 0; si++) {
    const bench_spec *s = &f->specs[si];
    for (int pt = 0; pt < s->npoints && rc == 0; pt++) {
      outputs want = {0};
      launch_args proto = {0};
      bench_row *cpu_row;
      int cpu_index = -1;
      /* The CPU backend first: it is the reference for every other row,
       * even when --backend leaves its row out. */
      for (int i = 0; i < ndev; i++)
        if (devs[i].info.backend == KERN_BACKEND_CPU) { cpu_index = i; break; }
      bench_row cpu_scratch;
      for (int b = 0; b < KERN_BACKEND_COUNT && rc == 0; b++) {
        kern_backend_info bi = KERN_BACKEND_INFO_INIT;
        if (kern_backend_get(ctx, (kern_backend_kind)b, &bi)) continue;
        int selected = backend_selected(o, bn[b]);
        if (!bi.available || bi.device_count == 0) {
          if (!selected) continue;
          bench_row *row = add_row(r, s, pt, "backend", bn[b]);
          if (!row) { rc = -1; break; }
          row_status(row, "unavailable", bi.reason && bi.reason[0]
                                             ? bi.reason : "no device");
          continue;
        }
        for (int i = 0; i < ndev && rc == 0; i++) {
          if ((int)devs[i].info.backend != b) continue;
          char name[64];
          snprintf(name, sizeof name, "%s:%d", bn[b], devs[i].info.index);
          int is_ref = i == cpu_index;
          if (!selected && !is_ref) continue;
          bench_row *row;
          if (selected) {
            row = add_row(r, s, pt, "backend", name);
            if (!row) { rc = -1; break; }
          } else {
            memset(&cpu_scratch, 0, sizeof cpu_scratch);
            row = &cpu_scratch;
          }
          rc = run_device(f, s, pt, o, &devs[i], is_ref ? NULL : &want,
                          &want, row, &proto, selected, err, errsize);
        }
      }
      if (rc == 0) {
        /* cpu_row may have moved when rows grew: find it again. */
        cpu_row = NULL;
        for (int i = r->nrows - 1; i >= 0; i--)
          if (strcmp(r->rows[i].kind, "backend") == 0 &&
              strncmp(r->rows[i].name, "cpu:", 4) == 0 &&
              r->rows[i].point == pt && strcmp(r->rows[i].bench, s->kernel) == 0) {
            cpu_row = &r->rows[i];
            break;
          }
        bench_row copy;
        if (cpu_row) copy = *cpu_row;
        /* Note [group row]: every device of KERN_DEVICE's list at once. */
        if (group_wanted())
          rc = run_group(f, s, pt, o, ctx, dctx, &want, r, err, errsize);
        if (rc == 0)
          run_refs(s, pt, o, &proto, &want, r, cpu_row ? &copy : NULL);
      }
      outputs_free(&want);
      args_free(&proto);
    }
  }
  progress_done(o);
  for (int i = 0; i < ndev; i++) {
    kern_array_free(devs[i].flush);
    timer_free(&devs[i]);
  }
  free(devs);
  kern_context_free(dctx);
  kern_context_free(ctx);
  return rc;
}

void bench_result_free(bench_result *r) {
  free(r->rows);
  memset(r, 0, sizeof *r);
}
