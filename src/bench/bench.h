/*
 * bench.h -- `kern bench`: specs, statistics, timing, reports.
 *
 * kern bench reads benchmark specs from comment lines of a kernel file,
 * runs the kernel on every device of every backend through the public API
 * only (kern.h) and the reference libraries through python3, and reports
 * robust statistics as a table, JSON, CSV, Markdown or a plot.  The parts
 * are split by what they know: spec.c knows the comment grammar, stats.c
 * only numbers, json.c only JSON text, run.c the library and the clock,
 * report.c the output formats.  main.c parses the command line.
 *
 * Exports, by file:
 *   spec.c    bench_spec, bench_file_parse, bench_file_free, bench_expand,
 *             bench_eval
 *   stats.c   bench_stats, bench_stats_compute, bench_sampler_*
 *   json.c    bench_json (a parsed value), bench_json_parse, bench_json_get,
 *             bench_json_free, bench_jw_* (a small writer)
 *   run.c     bench_row, bench_result, bench_run
 *   report.c  bench_print_table, bench_write_json, bench_write_csv,
 *             bench_write_markdown, bench_write_plot, bench_plot_safe,
 *             bench_compare
 *   main.c    bench_main (the `kern bench` command)
 */
#ifndef KERN_BENCH_H
#define KERN_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kern.h"

/* Version of the JSON written by --json (docs/bench-schema.json). */
#define BENCH_SCHEMA_VERSION 1

/* ---------------------------------------------------------------- spec.c */

#define BENCH_MAX_ARGS 32
#define BENCH_MAX_VARS 8
#define BENCH_MAX_SWEEP 16
#define BENCH_MAX_CHECKS 8
#define BENCH_MAX_REFS 16

typedef struct bench_arg {
  char name[64];
  char text[512];  /* the SPEC as written, size names not yet replaced */
  int line, col;   /* where the SPEC starts in the file */
} bench_arg;

typedef struct bench_check {
  char name[64];
  double rtol, atol;  /* negative: the default for the element type */
} bench_check;

typedef struct bench_ref {
  char lib[16];      /* numpy, torch, cupy, jax, warp */
  char output[64];   /* the checked output the expression gives */
  char expr[512];    /* Python over the inputs, by parameter name */
  int line;
} bench_ref;

typedef struct bench_spec {
  char kernel[128];
  int line;                      /* of the kern-bench: line */
  char dims[128];                /* --dim text, size names not replaced */
  int dims_line, dims_col;
  int block_dim;                 /* --block-dim N; 0: the device's default */
  int tiled;                     /* --tiled: the block size ends the grid */
  int nargs;
  bench_arg args[BENCH_MAX_ARGS];
  int nvars, npoints;            /* size names; sweep points */
  char var[BENCH_MAX_VARS][32];
  int64_t val[BENCH_MAX_VARS][BENCH_MAX_SWEEP];
  int nchecks;
  bench_check checks[BENCH_MAX_CHECKS];
  char bytes_expr[128], flops_expr[128]; /* "" when not given */
  int nrefs;
  bench_ref refs[BENCH_MAX_REFS];
} bench_spec;

typedef struct bench_file {
  char *path;
  int nspecs;
  bench_spec *specs;
} bench_file;

/* Parses every `# kern-bench...` block of source (path names it in
 * messages).  Returns 0, or -1 with "path:line:col: error: message", the
 * source line and a caret in err.  A file with no spec is an error too. */
int bench_file_parse(const char *path, const char *source, bench_file *out,
                     char *err, size_t errsize);
void bench_file_free(bench_file *f);

/* Replaces each whole-word size name in text by its value at sweep point
 * `point`.  Returns 0, or -1 when out is too small. */
int bench_expand(const bench_spec *s, int point, const char *text, char *out,
                 size_t size);
/* Evaluates an integer expression (+ - * / parentheses, size names) at a
 * sweep point.  Returns 0, or -1 with a message in err. */
int bench_eval(const bench_spec *s, int point, const char *text,
               double *out, char *err, size_t errsize);

/* ---------------------------------------------------------------- stats.c */

typedef struct bench_stats {
  int n;
  double median, min, max, mean, stddev, rsd; /* rsd = stddev / mean */
} bench_stats;

/* Sorts a copy; n == 0 gives all zeros. */
void bench_stats_compute(const double *x, int n, bench_stats *out);

/* Adaptive sampling: keep taking samples until, after at least min_samples,
 * the RSD is at most target, or the budget (seconds of samples plus the
 * time between them) is spent, or max_samples are taken. */
typedef struct bench_sampler {
  double target_rsd, budget_s;
  int min_samples, max_samples;
  double *x;
  int n, cap;
  double spent;
  const char *stop; /* "rsd", "budget", "max-samples" once done */
} bench_sampler;

void bench_sampler_init(bench_sampler *s, double target_rsd, double budget_s,
                        int min_samples, int max_samples);
/* Adds one sample (seconds) and the wall time it cost; returns 1 when the
 * sampler is done (s->stop says why), 0 to go on, -1 on out of memory. */
int bench_sampler_add(bench_sampler *s, double sample, double cost);
void bench_sampler_free(bench_sampler *s);
/* The peak bandwidth of n timed copies of `bytes` (read plus write): the
 * best run, in GB/s; NaN when none ran (Note [peak bandwidth]). */
double bench_peak_gbps(const double *sec, int n, double bytes);

/* ---------------------------------------------------------------- json.c */

typedef enum { BJ_NULL, BJ_BOOL, BJ_NUM, BJ_STR, BJ_ARR, BJ_OBJ } bench_json_type;

typedef struct bench_json {
  bench_json_type type;
  double num;            /* BJ_NUM, BJ_BOOL (0/1) */
  char *str;             /* BJ_STR */
  int n;                 /* BJ_ARR, BJ_OBJ: number of items */
  char **keys;           /* BJ_OBJ */
  struct bench_json *items;
} bench_json;

/* Parses text; returns 0, or -1 with "line L: message" in err. */
int bench_json_parse(const char *text, bench_json *out, char *err,
                     size_t errsize);
/* The member named key of an object, or NULL. */
const bench_json *bench_json_get(const bench_json *obj, const char *key);
void bench_json_free(bench_json *j);
/* Checks v against a JSON Schema subset (type, required, properties,
 * items, enum, minimum, additionalProperties: false).  Returns 0, or -1 with
 * the JSON path of the first mismatch in err. */
int bench_json_validate(const bench_json *schema, const bench_json *v,
                        char *err, size_t errsize);

/* A writer that indents and places commas. */
typedef struct bench_jw {
  FILE *f;
  int depth;
  int first[32];
} bench_jw;
void bench_jw_begin(bench_jw *w, FILE *f);
void bench_jw_obj(bench_jw *w, const char *key);   /* key NULL in arrays */
void bench_jw_arr(bench_jw *w, const char *key);
void bench_jw_end_obj(bench_jw *w);
void bench_jw_end_arr(bench_jw *w);
void bench_jw_str(bench_jw *w, const char *key, const char *v); /* NULL: null */
void bench_jw_num(bench_jw *w, const char *key, double v);      /* NaN: null */
void bench_jw_int(bench_jw *w, const char *key, int64_t v);
void bench_jw_bool(bench_jw *w, const char *key, int v);

/* ---------------------------------------------------------------- run.c */

/* One measured mode of a row. */
typedef struct bench_mode {
  int present;
  bench_stats st;
  const char *stop;  /* "rsd", "budget", "max-samples" */
} bench_mode;

enum { BENCH_HOT, BENCH_COLD, BENCH_TRANSFERS, BENCH_MODES };
extern const char *const bench_mode_names[BENCH_MODES];

typedef struct bench_row {
  char bench[128];     /* kernel name */
  int point;           /* sweep point */
  char size[128];      /* "N=1000000" */
  char kind[12];       /* "backend" or "reference" */
  char name[600];      /* "cuda:0", "torch: torch.dot(x, x)" */
  char device[160];    /* device name */
  char description[256]; /* driver, memory, ... as kern devices shows */
  char status[16];     /* "ok", "unavailable", "failed" */
  char message[512];
  char timer[16];      /* "wall", "events" */
  int checked;         /* output compared with the CPU backend's */
  double max_rel_err;
  bench_mode mode[BENCH_MODES];
  double bytes, flops; /* per launch; NaN when unknown */
  double peak_gbps;    /* measured device peak; NaN when unknown */
  double cache_bytes;  /* the device's last-level cache; 0 when unknown */
} bench_row;

typedef struct bench_options {
  const char *backends;   /* comma list or "all" */
  const char *sizes;      /* "N=1000,2000" override, or NULL */
  double target_rsd, budget_s;
  int min_samples, max_samples;
  int cold, transfers, refs, quiet;
  const char *python;     /* "python3" */
  const char *ref_script; /* path of kern_bench_ref.py */
  const char *cache_dir;
  int no_peak;
  int no_native;          /* refuse @wp.func_native snippets */
  int file_refs;          /* run the file's own reference expressions */
} bench_options;

typedef struct bench_result {
  char file[1024];
  int nrows, cap;
  bench_row *rows;
  /* environment */
  char host[128], cpu[160], os[160], compiler[160], commit[64], kern[32];
  char cc[160];  /* the CPU backend's C compiler, first line of --version */
  char date[32];
} bench_result;

/* Runs every spec of f.  Returns 0 when it ran (rows may still say failed),
 * -1 with a message in err when nothing could run. */
int bench_run(const bench_file *f, const bench_options *o, bench_result *r,
              char *err, size_t errsize);
void bench_result_free(bench_result *r);
/* Runs argv (no shell) with stdout and stderr sent to files; returns the
 * exit status, 127 when it cannot start, -1 on other failures. */
int bench_spawn(char *const argv[], const char *out_path,
                const char *err_path);

/* ---------------------------------------------------------------- report.c */

void bench_print_table(FILE *f, const bench_result *r);
int bench_write_json(FILE *f, const bench_result *r);
int bench_write_csv(FILE *f, const bench_result *r);
int bench_write_markdown(FILE *f, const bench_result *r);
/* .svg (gnuplot when installed, else kern's own) or .png (gnuplot). */
int bench_write_plot(const char *path, const bench_result *r, char *err,
                     size_t errsize);
/* The text of in that may appear in a gnuplot script or data file: letters,
 * digits and ._/+-,:=()*[] and space; any other byte becomes '?' (Note
 * [gnuplot text]).  out always ends in a NUL when size > 0. */
void bench_plot_safe(const char *in, char *out, size_t size);
/* Reads two --json files and prints the per-row change.  Returns 0, 1 when
 * some row got slower beyond the noise, -1 with err on bad input. */
int bench_compare(FILE *f, const char *old_path, const char *new_path,
                  char *err, size_t errsize);

/* The %peak column: "-" when unknown, "cache" when the bytes per launch
 * fit in the last-level cache (cache_bytes > 0) or the figure exceeds 100
 * (Note [peak label]), else "N%". */
void bench_peak_text(double pct, double bytes, double cache_bytes, char *buf,
                     size_t size);

/* Speed-up of a reference against kern on the same kind of device. */
double bench_row_vs_kern(const bench_result *r, const bench_row *row);

/* ---------------------------------------------------------------- main.c */

int bench_main(int argc, char **argv);
extern const char bench_help[];

#endif /* KERN_BENCH_H */
