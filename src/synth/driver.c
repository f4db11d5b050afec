/*
 * driver.c -- `kern synth`: from generated kernels to a dataset.
 *
 * Work is cut into batches of consecutive indices of this shard.  A batch
 * is generated, compiled to CUDA, OpenCL and C (kern_compile_source), then
 * validated as a whole: its CUDA files are compiled by one NVRTC program,
 * each file inside its own namespace so the text compiled is exactly the
 * text recorded; its kernels are built into one module per backend and
 * run on the CPU and on OpenCL.  Batches run on --jobs threads, each with
 * its own kern_context, and are written strictly in index order, so the
 * output does not depend on the number of threads or on timing.
 *
 * Determinism and resumption: a record depends only on (seed, index,
 * options), contains no time, and is appended whole with one write.  On
 * start the existing pairs.jsonl is read, a torn last line is cut off, and
 * generation continues after the last complete record.  stats.json and
 * README.md are recomputed from pairs.jsonl at the end, so they describe
 * the file as it is, resumed or not.
 */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kern.h"
#include "synth.h"

enum { V_NONE, V_COMPILE, V_RUN };

typedef struct {
  long long n;
  uint64_t seed;
  const char *dir;
  unsigned cats; /* bit mask of categories */
  int shard, nshards;
  int jobs;
  int validate;
  int difficulty;
  const char *arch;
  int batch;
  int quiet;
  int write_sources; /* also DIR/sources/<name>.{py,cu,cl,c} */
  int targets;       /* bit 0 cuda, 1 opencl, 2 c */
  const char *other; /* the device compared with the CPU: "opencl", "cuda" */
  const char *fail_dir;
  int compact;       /* --cuda-form compact (Note [compact CUDA], emit/cuda.c) */
  int output;        /* --nvrtc-output: OUT_CUBIN, OUT_PTX, OUT_LTOIR */
  char arch_buf[64]; /* compute_XX made from sm_XX for --nvrtc-output ptx */
} Opts;

/* What NVRTC is asked to produce (Note [validation output]). */
enum { OUT_DEFAULT = -1, OUT_CUBIN, OUT_PTX, OUT_LTOIR };
static const char *const out_names[] = {"cubin", "ptx", "ltoir"};

/* ----------------------------------------------------------- strings */

typedef struct {
  char *p;
  size_t n, cap;
  int oom;
} Str;

static void s_put(Str *s, const char *t, size_t n) {
  if (s->oom) return;
  if (s->n + n + 1 > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 4096;
    while (s->n + n + 1 > cap) cap *= 2;
    char *p = realloc(s->p, cap);
    if (!p) {
      s->oom = 1;
      return;
    }
    s->p = p;
    s->cap = cap;
  }
  memcpy(s->p + s->n, t, n);
  s->n += n;
  s->p[s->n] = 0;
}
static void s_cat(Str *s, const char *t) { s_put(s, t, strlen(t)); }
static void s_fmt(Str *s, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = synth_vformat(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) {
    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
  }
  if (n >= (int)sizeof tmp) n = sizeof tmp - 1;
  if (n > 0) s_put(s, tmp, (size_t)n);
}
/* A JSON string literal. */
/* Bytes a JSON string must escape (controls, '"', '\\'); 0 ends the text. */
static unsigned char json_special[256];
static void json_init(void) {
  for (int c = 0; c < 0x20; c++) json_special[c] = 1;
  json_special['"'] = json_special['\\'] = 1;
}

static void s_json(Str *s, const char *t) {
  /* Room for the worst case (every byte \u00XX), then straight writes:
   * the sources are most of a record, and per-piece appends were a tenth
   * of generation. */
  size_t n = t ? strlen(t) : 0;
  s_put(s, "", 0);
  if (s->oom) return;
  if (s->n + 6 * n + 3 > s->cap) {
    size_t cap = s->cap ? s->cap : 4096;
    while (s->n + 6 * n + 3 > cap) cap *= 2;
    char *np = realloc(s->p, cap);
    if (!np) {
      s->oom = 1;
      return;
    }
    s->p = np;
    s->cap = cap;
  }
  char *o = s->p + s->n;
  const unsigned char *p = (const unsigned char *)t, *end = p + n;
  *o++ = '"';
  while (p < end) {
    /* eight bytes at a time, copied as they are checked, while no byte of
     * the word is below 0x20, '"' or '\\' (the room reserved above lets
     * a word go out whole) */
    while (end - p >= 8) {
      uint64_t w;
      memcpy(&w, p, 8);
      const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
      uint64_t lt = (w - 0x20 * ones) & ~w & high;
      uint64_t xq = w ^ ('"' * ones), xb = w ^ ('\\' * ones);
      uint64_t eq = ((xq - ones) & ~xq & high) | ((xb - ones) & ~xb & high);
      memcpy(o, &w, 8);
      if (lt | eq) {
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* The lowest flagged byte is a real one (a false flag needs a
         * borrow from a real one below it): the word's bytes before it
         * are plain and already out. */
        int k = __builtin_ctzll(lt | eq) >> 3;
        o += k;
        p += k;
#endif
        break;
      }
      o += 8;
      p += 8;
    }
    /* then byte by byte up to and including the byte that stopped it */
    const unsigned char *stop = end - p > 8 ? p + 8 : end;
    while (p < stop && !json_special[*p]) *o++ = (char)*p++;
    if (p == stop) continue;
    switch (*p) {
    case '"': *o++ = '\\'; *o++ = '"'; break;
    case '\\': *o++ = '\\'; *o++ = '\\'; break;
    case '\n': *o++ = '\\'; *o++ = 'n'; break;
    case '\t': *o++ = '\\'; *o++ = 't'; break;
    case '\r': *o++ = '\\'; *o++ = 'r'; break;
    default:
      o += sprintf(o, "\\u%04x", *p);
    }
    p++;
  }
  *o++ = '"';
  *o = 0;
  s->n = (size_t)(o - s->p);
}

/* 128-bit content hash (two independent FNV-1a-style lanes mixed by
 * splitmix64); not cryptographic, only an identifier. */
static void hash128(const char *t, char out[33]) {
  uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
  for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
    a = (a ^ *p) * 0x100000001b3ULL;
    b = (b ^ (*p + 0x9eU)) * 0x100000001b3ULL;
    b ^= b >> 29;
  }
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)synth_mix(a ^ b),
           (unsigned long long)synth_mix(b + 0x51ed27ULL));
}

static char *replace_all(const char *src, const char *from, const char *to) {
  Str s = {0};
  size_t nf = strlen(from);
  for (const char *p = src; *p;) {
    const char *q = strstr(p, from);
    if (!q) {
      s_cat(&s, p);
      break;
    }
    s_put(&s, p, (size_t)(q - p));
    s_cat(&s, to);
    p = q + nf;
  }
  if (!s.p) s_cat(&s, "");
  return s.p;
}

/* --------------------------------------------------------------- NVRTC */

typedef int (*nvrtcVersion_t)(int *, int *);
typedef int (*nvrtcCreateProgram_t)(void **, const char *, const char *, int,
                                    const char *const *, const char *const *);
typedef int (*nvrtcCompileProgram_t)(void *, int, const char *const *);
typedef int (*nvrtcGetProgramLogSize_t)(void *, size_t *);
typedef int (*nvrtcGetProgramLog_t)(void *, char *);
typedef int (*nvrtcDestroyProgram_t)(void **);
typedef int (*nvrtcGetLTOIRSize_t)(void *, size_t *);
typedef int (*nvrtcGetLTOIR_t)(void *, char *);

static struct {
  int loaded, ok, major, minor;
  nvrtcCreateProgram_t create;
  nvrtcCompileProgram_t compile;
  nvrtcGetProgramLogSize_t logsize;
  nvrtcGetProgramLog_t log;
  nvrtcDestroyProgram_t destroy;
  nvrtcGetLTOIRSize_t ltoir_size; /* NULL in an NVRTC before 12.0 */
  nvrtcGetLTOIR_t ltoir;
  char why[256];
} nv;
static pthread_mutex_t nv_lock = PTHREAD_MUTEX_INITIALIZER;

/* Note [validation options]: NVRTC's options for --validate compile.  The
 * CUDA backend compiles with -default-device --std=c++17 --fmad=false
 * (and -lineinfo); validation adds ptxas' report of registers and spills
 * (--ptxas-options=-v, for a cubin only: nothing else runs ptxas), no
 * warnings (-w: they change no code, and their text was most of the log),
 * and, unless --nvrtc-opt full, NVRTC's --Ofast-compile=mid.  NVVM's
 * optimisation of the kernel bodies is what costs (bench/NOTES.md: ~90 ms
 * a kernel even batched 200 to a program, of which the front end is
 * ~3 ms), and Ofast-compile=mid cuts it about 3x.  The text compiled is
 * still exactly the recorded text; registers and spills are those of this
 * build, and the record lists these options.  An NVRTC without the option
 * (before CUDA 12.8) gets the full set, and the record says so.
 *
 * Note [validation output]: --nvrtc-output says how far NVRTC goes.
 * cubin (the default for sm_XX) runs the whole compiler: front end, NVVM's
 * optimiser and ptxas.  ptx (the default for compute_XX; sm_XX is turned
 * into compute_XX, since NVRTC stops at PTX only for a virtual
 * architecture) leaves out ptxas.  ltoir adds -dlto: NVRTC's front end
 * (parsing, C++ semantics, overloads, templates) lowers the text to NVVM
 * IR for the architecture and stops there, before NVVM's optimiser and
 * ptxas, which a later link-time step would run; the IR is fetched
 * (nvrtcGetLTOIR) so that "compiled" means IR was produced.  It is about
 * 3x cheaper than PTX for the compact form (bench/NOTES.md, round four),
 * but what it checks is less: an error only the optimiser or ptxas finds
 * (inline PTX, resource limits) passes, and there are no registers or
 * spills.  The record names the output (compiler.output) and the dataset
 * card says in words what compile_ok then means. */
static int nv_fast = 1; /* --nvrtc-opt fast (default) and NVRTC accepts it */

/* The options of a validation compile, in the order recorded; returns
 * their number.  archopt is the --gpu-architecture option's storage. */
static int nv_options(const Opts *o, const char *opts[8], char archopt[80]) {
  int n = 0;
  snprintf(archopt, 80, "--gpu-architecture=%s", o->arch);
  opts[n++] = archopt;
  opts[n++] = "-default-device";
  opts[n++] = "--std=c++17";
  opts[n++] = "--fmad=false";
  if (o->output == OUT_CUBIN) opts[n++] = "--ptxas-options=-v";
  opts[n++] = "-w";
  if (nv_fast) opts[n++] = "--Ofast-compile=mid";
  if (o->output == OUT_LTOIR) opts[n++] = "-dlto";
  return n;
}

static int nv_load(void) {
  pthread_mutex_lock(&nv_lock);
  if (!nv.loaded) {
    nv.loaded = 1;
    static const char *names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                  "/usr/local/cuda/lib64/libnvrtc.so"};
    void *h = NULL;
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
      char p[512];
      snprintf(p, sizeof p, "%s/lib64/libnvrtc.so", home);
      h = dlopen(p, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    }
    for (size_t i = 0; !h && i < sizeof names / sizeof *names; i++)
      h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) {
      snprintf(nv.why, sizeof nv.why, "libnvrtc not found");
    } else {
      nvrtcVersion_t ver = (nvrtcVersion_t)dlsym(h, "nvrtcVersion");
      nv.create = (nvrtcCreateProgram_t)dlsym(h, "nvrtcCreateProgram");
      nv.compile = (nvrtcCompileProgram_t)dlsym(h, "nvrtcCompileProgram");
      nv.logsize = (nvrtcGetProgramLogSize_t)dlsym(h, "nvrtcGetProgramLogSize");
      nv.log = (nvrtcGetProgramLog_t)dlsym(h, "nvrtcGetProgramLog");
      nv.destroy = (nvrtcDestroyProgram_t)dlsym(h, "nvrtcDestroyProgram");
      /* Optional: only --nvrtc-output ltoir needs them, and says so. */
      nv.ltoir_size = (nvrtcGetLTOIRSize_t)dlsym(h, "nvrtcGetLTOIRSize");
      nv.ltoir = (nvrtcGetLTOIR_t)dlsym(h, "nvrtcGetLTOIR");
      if (ver && nv.create && nv.compile && nv.logsize && nv.log && nv.destroy &&
          ver(&nv.major, &nv.minor) == 0)
        nv.ok = 1;
      else
        snprintf(nv.why, sizeof nv.why, "libnvrtc lacks an entry point");
    }
  }
  pthread_mutex_unlock(&nv_lock);
  return nv.ok;
}

/* Compiles src; returns 1 when it compiled, 0 on a compile error, -1 when
 * NVRTC failed otherwise.  *log is malloc'd (may be NULL). */
static int nv_compile(const char *src, const Opts *o, char **log) {
  *log = NULL;
  char archopt[80];
  const char *opts[8];
  int nopts = nv_options(o, opts, archopt);
  void *prog = NULL;
  if (nv.create(&prog, src, "synth.cu", 0, NULL, NULL) != 0) return -1;
  int rc = nv.compile(prog, nopts, opts);
  if (rc == 5 /* NVRTC_ERROR_INVALID_OPTION */ && nv_fast) {
    /* An NVRTC before --Ofast-compile: the full set from now on. */
    pthread_mutex_lock(&nv_lock);
    nv_fast = 0;
    pthread_mutex_unlock(&nv_lock);
    nv.destroy(&prog);
    if (nv.create(&prog, src, "synth.cu", 0, NULL, NULL) != 0) return -1;
    nopts = nv_options(o, opts, archopt);
    rc = nv.compile(prog, nopts, opts);
  }
  size_t n = 0;
  if (nv.logsize(prog, &n) == 0 && n > 1) {
    *log = malloc(n);
    if (*log && nv.log(prog, *log) != 0) {
      free(*log);
      *log = NULL;
    }
  }
  if (rc == 0 && o->output == OUT_LTOIR) {
    /* Compiled means the IR exists: fetch it (and drop it; the record
     * keeps the source, not the IR). */
    size_t sz = 0;
    char *ir = NULL;
    if (nv.ltoir_size(prog, &sz) != 0 || sz == 0 || !(ir = malloc(sz)) ||
        nv.ltoir(prog, ir) != 0) {
      free(*log);
      *log = strdup("compiled, but NVRTC returned no LTO IR (-dlto)");
      rc = 6;
    }
    free(ir);
  }
  nv.destroy(&prog);
  return rc == 0 ? 1 : rc == 6 /* NVRTC_ERROR_COMPILATION */ ? 0 : -1;
}

/* ------------------------------------------------------------ pairs */

typedef struct {
  long long index;
  synth_kernel k;
  char id[33], nhash[33], minhash[SYNTH_MH_BINS * 4 + 1];
  char *warp, *cuda, *opencl, *c;
  char compile_err[512];
  int compile_ok; /* -1 not checked, 0 failed, 1 ok */
  int regs, spill_st, spill_ld, stack;
  int run; /* -1 not run, 0 disagree, 1 agree, 2 error */
  char run_msg[512];
  double max_abs, max_rel;
  int dup_in_batch; /* same id as an earlier pair of the batch */
} Pair;

typedef struct {
  const Opts *o;
  kern_context *ctx;
  kern_device cpu, ocl;
  int have_ocl;
  char ocl_why[256];
} Worker;

static int pick_category(const Opts *o, uint64_t seed, long long index) {
  int cats[SC_COUNT], n = 0;
  for (int c = 0; c < SC_COUNT; c++)
    if (o->cats & (1u << c)) cats[n++] = c;
  /* Round robin over the chosen categories keeps them balanced in any
   * prefix of the run and in every shard. */
  (void)seed;
  return cats[index % n];
}

char *synth_pair_warp(uint64_t seed, long long index, unsigned cats, int difficulty,
                      synth_kernel *k, char id[33]) {
  Opts o = {0};
  o.cats = cats;
  int cat = pick_category(&o, seed, index);
  int diff = 1 + (int)(synth_mix(seed * 31 + (uint64_t)index) % (uint64_t)difficulty);
  if (synth_generate(seed, (uint64_t)index, cat, diff, k) != 0) return NULL;
  hash128(k->source, id);
  char name[48];
  snprintf(name, sizeof name, "k%.12s", id);
  char *warp = replace_all(k->source, "@@", name);
  snprintf(k->name, sizeof k->name, "%s", name);
  return warp;
}

static void pair_free(Pair *p) {
  synth_kernel_free(&p->k);
  free(p->warp);
  /* kern_compile_source's text is the library's to free */
  kern_free(p->cuda);
  kern_free(p->opencl);
  kern_free(p->c);
}

static int make_pair(Worker *w, long long index, Pair *p) {
  const Opts *o = w->o;
  memset(p, 0, sizeof *p);
  p->index = index;
  p->compile_ok = -1;
  p->run = -1;
  p->regs = p->spill_st = p->spill_ld = p->stack = -1;
  p->warp = synth_pair_warp(o->seed, index, o->cats, o->difficulty, &p->k, p->id);
  if (!p->warp) return -1;
  synth_normalize(p->k.source, p->nhash, p->minhash);
  const char *name = p->k.name;
  const char *tg[3] = {o->compact ? "cuda-compact" : "cuda", "opencl", "c"};
  char **dst[3] = {&p->cuda, &p->opencl, &p->c};
  char fname[64];
  snprintf(fname, sizeof fname, "%s.py", name);
  for (int t = 0; t < 3; t++) {
    if (!(o->targets & (1 << t))) continue;
    kern_status st = kern_compile_source(w->ctx, fname, p->warp, strlen(p->warp), tg[t], dst[t]);
    if (st) {
      snprintf(p->compile_err, sizeof p->compile_err, "kern: %s", kern_last_error(w->ctx));
      kern_clear_error(w->ctx);
      p->compile_ok = 0;
      return 0;
    }
  }
  return 0;
}

/* The integer written just before p ("... 12 bytes spill stores"). */
static int number_before(const char *start, const char *p) {
  while (p > start && p[-1] == ' ') p--;
  const char *e = p;
  while (p > start && p[-1] >= '0' && p[-1] <= '9') p--;
  return p < e ? atoi(p) : -1;
}

/* Reads ptxas' report (--ptxas-options=-v) for each entry function. */
static void parse_ptxas(Pair *pairs, int n, const char *log) {
  if (!log) return;
  for (int i = 0; i < n; i++) {
    char key[96];
    snprintf(key, sizeof key, "Compiling entry function 'kern_k_%s'", pairs[i].k.name);
    const char *p = strstr(log, key);
    if (!p) continue;
    const char *next = strstr(p + 1, "Compiling entry function");
    const char *fp = strstr(p, "bytes stack frame");
    if (fp && (!next || fp < next)) {
      pairs[i].stack = number_before(p, fp);
      const char *ss = strstr(fp, "bytes spill stores");
      const char *sl = strstr(fp, "bytes spill loads");
      if (ss) pairs[i].spill_st = number_before(fp, ss);
      if (sl) pairs[i].spill_ld = number_before(fp, sl);
    }
    const char *u = strstr(p, "Used ");
    if (u && (!next || u < next)) pairs[i].regs = atoi(u + 5);
  }
}

/* One NVRTC program for a batch: each module in a namespace of its own, so
 * that two modules' helpers and user functions of one name do not clash.
 * A compact module (Note [compact CUDA]) is split where its shared part
 * ends: the guarded helpers stay at file scope, where the guards let the
 * first module's copy serve every module, and only the module's own
 * functions and kernels go in the namespace. */
static char *wrap_cuda(Pair *pairs, int n, int only) {
  static const char mark[] = "// kern: end of shared helpers\n";
  Str s = {0};
  for (int i = 0; i < n; i++) {
    if ((only >= 0 && i != only) || pairs[i].compile_ok == 0 || pairs[i].dup_in_batch ||
        !pairs[i].cuda)
      continue;
    const char *cu = pairs[i].cuda, *own = strstr(cu, mark);
    if (own) {
      own += sizeof mark - 1;
      s_put(&s, cu, (size_t)(own - cu));
    } else {
      own = cu;
    }
    s_fmt(&s, "namespace synth_%d {\n", i);
    s_cat(&s, own);
    s_cat(&s, "\n}\n");
  }
  if (!s.p) s_cat(&s, "");
  return s.p;
}

static void validate_compile(const Opts *o, Pair *pairs, int n) {
  if (!nv_load()) return;
  char *src = wrap_cuda(pairs, n, -1);
  char *log = NULL;
  int rc = src ? nv_compile(src, o, &log) : -1;
  free(src);
  if (rc == 1) {
    parse_ptxas(pairs, n, log);
    for (int i = 0; i < n; i++)
      if (pairs[i].compile_ok != 0 && !pairs[i].dup_in_batch) pairs[i].compile_ok = 1;
  } else {
    /* Find the culprits one by one. */
    for (int i = 0; i < n; i++) {
      if (pairs[i].compile_ok == 0 || pairs[i].dup_in_batch) continue;
      char *one = wrap_cuda(pairs, n, i), *l1 = NULL;
      int r = one ? nv_compile(one, o, &l1) : -1;
      free(one);
      pairs[i].compile_ok = r == 1;
      if (r == 1) parse_ptxas(pairs + i, 1, l1);
      else snprintf(pairs[i].compile_err, sizeof pairs[i].compile_err, "nvrtc: %.480s",
                    l1 ? l1 : "failed");
      free(l1);
    }
  }
  free(log);
  for (int i = 0; i < n; i++)
    if (pairs[i].dup_in_batch) {
      for (int j = 0; j < i; j++)
        if (!strcmp(pairs[j].id, pairs[i].id)) {
          pairs[i].compile_ok = pairs[j].compile_ok;
          pairs[i].regs = pairs[j].regs;
          pairs[i].spill_st = pairs[j].spill_st;
          pairs[i].spill_ld = pairs[j].spill_ld;
          pairs[i].stack = pairs[j].stack;
          break;
        }
    }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------- run */

static kern_type arg_elem(const synth_arg *a) {
  switch (a->kind) {
  case SA_INT_ARRAY: case SA_INT_OUT: case SA_INT_VALUE: return KERN_TYPE_INT32;
  case SA_VEC3_ARRAY: case SA_VEC3_OUT: return KERN_TYPE_VEC3;
  case SA_MAT33_ARRAY: return KERN_TYPE_MAT33;
  default: return KERN_TYPE_FLOAT32;
  }
}
static int arg_is_out(const synth_arg *a) {
  return a->kind == SA_FLOAT_OUT || a->kind == SA_INT_OUT || a->kind == SA_VEC3_OUT;
}
static int64_t arg_nscalars(const synth_arg *a) {
  kern_type t = arg_elem(a);
  int64_t n = a->shape[0] * (a->ndim == 2 ? a->shape[1] : 1);
  return n * t.rows * t.cols;
}

#define RTOL 1e-3
#define ATOL 1e-3

/* Runs pair p's kernel from module m on device dev; outputs into out[a]
 * (malloc'd host copies).  Returns 0 or a kern status. */
static kern_status run_one(Worker *w, kern_module *m, kern_device dev, Pair *p,
                           void **out) {
  kern_kernel *k = NULL;
  kern_status st = kern_module_get_kernel(m, p->k.name, &k);
  if (st) return st;
  kern_array *arr[SYNTH_MAX_ARGS] = {0};
  kern_arg args[SYNTH_MAX_ARGS];
  for (int a = 0; a < p->k.nargs && !st; a++) {
    const synth_arg *sa = &p->k.args[a];
    if (sa->kind == SA_FLOAT_VALUE) {
      args[a] = kern_arg_float(sa->fill);
      continue;
    }
    if (sa->kind == SA_INT_VALUE) {
      args[a] = kern_arg_int((int64_t)sa->fill);
      continue;
    }
    st = kern_array_new(w->ctx, dev, arg_elem(sa), sa->ndim, sa->shape, &arr[a]);
    if (st) break;
    int64_t ns = arg_nscalars(sa);
    void *host = calloc((size_t)ns, 4);
    if (!host) {
      st = KERN_ERROR_OUT_OF_MEMORY;
      break;
    }
    if (arg_is_out(sa)) {
      for (int64_t i = 0; i < ns; i++) {
        if (sa->kind == SA_INT_OUT) ((int32_t *)host)[i] = (int32_t)sa->fill;
        else ((float *)host)[i] = (float)sa->fill;
      }
    } else {
      synth_fill_input(sa, host, ns);
    }
    st = kern_array_upload(arr[a], host, (size_t)ns * 4);
    free(host);
    args[a] = kern_arg_array(arr[a]);
  }
  if (!st) st = kern_launch(k, p->k.ndim, p->k.dims, p->k.nargs, args);
  for (int a = 0; a < p->k.nargs; a++) {
    if (!st && arr[a] && arg_is_out(&p->k.args[a])) {
      size_t nb = (size_t)arg_nscalars(&p->k.args[a]) * 4;
      out[a] = malloc(nb);
      if (!out[a]) st = KERN_ERROR_OUT_OF_MEMORY;
      else st = kern_array_download(arr[a], out[a], nb);
    }
    kern_array_free(arr[a]);
  }
  return st;
}

static void compare(Pair *p, void **ref, void **oth) {
  p->run = 1;
  p->max_abs = p->max_rel = 0;
  for (int a = 0; a < p->k.nargs; a++) {
    if (!ref[a] || !oth[a]) continue;
    const synth_arg *sa = &p->k.args[a];
    int64_t ns = arg_nscalars(sa);
    if (sa->kind == SA_INT_OUT) {
      for (int64_t i = 0; i < ns; i++) {
        int32_t x = ((int32_t *)ref[a])[i], y = ((int32_t *)oth[a])[i];
        if (x != y) {
          double e = fabs((double)x - y);
          if (e > p->max_abs) p->max_abs = e;
          if (p->run == 1)
            snprintf(p->run_msg, sizeof p->run_msg, "%s[%lld]: cpu %d, other %d",
                     sa->name, (long long)i, x, y);
          p->run = 0;
        }
      }
      continue;
    }
    /* Floats: the tolerance is relative to the largest reference value
     * of the output, since inexact values reach outputs through sums in
     * which cancellation is expected. */
    double scale = 1;
    for (int64_t i = 0; i < ns; i++) {
      double x = fabs(((float *)ref[a])[i]);
      if (isfinite(x) && x > scale) scale = x;
    }
    for (int64_t i = 0; i < ns; i++) {
      double x = ((float *)ref[a])[i], y = ((float *)oth[a])[i];
      if (isnan(x) && isnan(y)) continue;
      if (x == y) continue;
      double e = fabs(x - y);
      double rel = e / (fabs(x) > 1e-30 ? fabs(x) : 1e-30);
      if (!(e <= p->max_abs)) p->max_abs = isnan(e) ? INFINITY : e;
      if (rel > p->max_rel) p->max_rel = rel;
      if (!(e <= ATOL * scale + RTOL * fabs(x))) {
        if (p->run == 1)
          snprintf(p->run_msg, sizeof p->run_msg, "%s[%lld]: cpu %.9g, other %.9g",
                   sa->name, (long long)i, x, y);
        p->run = 0;
      }
    }
  }
}

static char *module_source(Pair *pairs, int n, int only) {
  Str s = {0};
  s_cat(&s, "import warp as wp\n\n");
  for (int i = 0; i < n; i++) {
    if ((only >= 0 && i != only) || pairs[i].compile_ok == 0 || pairs[i].dup_in_batch)
      continue;
    s_cat(&s, pairs[i].warp + strlen("import warp as wp\n"));
    s_cat(&s, "\n");
  }
  return s.p;
}

static void save_failure(const Opts *o, const Pair *p) {
  if (!o->fail_dir) return;
  mkdir(o->fail_dir, 0777);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.py", o->fail_dir, p->k.name);
  FILE *f = fopen(path, "w");
  if (!f) return;
  fprintf(f, "# kern synth: backends disagree (seed %llu, index %lld): %s\n%s",
          (unsigned long long)o->seed, p->index, p->run_msg, p->warp);
  fclose(f);
}

static void validate_run(Worker *w, Pair *pairs, int n) {
  if (!w->have_ocl) {
    for (int i = 0; i < n; i++)
      if (pairs[i].compile_ok != 0) {
        pairs[i].run = 2;
        snprintf(pairs[i].run_msg, sizeof pairs[i].run_msg, "opencl: %s", w->ocl_why);
      }
    return;
  }
  kern_module *mc = NULL, *mo = NULL;
  char *src = module_source(pairs, n, -1);
  int timing = getenv("KERN_SYNTH_TIMING") != NULL;
  double t0 = now();
  int whole = src && !kern_module_load_string(w->ctx, w->cpu, "synth_batch.py", src,
                                              strlen(src), &mc);
  double t1 = now();
  whole = whole && !kern_module_load_string(w->ctx, w->ocl, "synth_batch.py", src,
                                            strlen(src), &mo);
  if (timing)
    fprintf(stderr, "kern synth: build cpu %.2f s, opencl %.2f s\n", t1 - t0, now() - t1);
  free(src);
  kern_clear_error(w->ctx);
  for (int i = 0; i < n; i++) {
    Pair *p = &pairs[i];
    if (p->compile_ok == 0 || p->dup_in_batch) continue;
    kern_module *c1 = mc, *o1 = mo;
    if (!whole) {
      c1 = o1 = NULL;
      if (kern_module_load_string(w->ctx, w->cpu, "synth.py", p->warp, strlen(p->warp), &c1) ||
          kern_module_load_string(w->ctx, w->ocl, "synth.py", p->warp, strlen(p->warp), &o1)) {
        p->run = 2;
        snprintf(p->run_msg, sizeof p->run_msg, "build: %.480s", kern_last_error(w->ctx));
        kern_clear_error(w->ctx);
        kern_module_free(c1);
        kern_module_free(o1);
        save_failure(w->o, p);
        continue;
      }
    }
    void *ref[SYNTH_MAX_ARGS] = {0}, *oth[SYNTH_MAX_ARGS] = {0};
    kern_status s1 = run_one(w, c1, w->cpu, p, ref);
    if (s1) snprintf(p->run_msg, sizeof p->run_msg, "cpu: %.480s", kern_last_error(w->ctx));
    kern_clear_error(w->ctx);
    kern_status s2 = s1 ? KERN_SUCCESS : run_one(w, o1, w->ocl, p, oth);
    if (s2) snprintf(p->run_msg, sizeof p->run_msg, "%s: %.480s", w->o->other,
                      kern_last_error(w->ctx));
    kern_clear_error(w->ctx);
    if (s1 || s2) p->run = 2;
    else compare(p, ref, oth);
    if (p->run != 1) save_failure(w->o, p);
    for (int a = 0; a < SYNTH_MAX_ARGS; a++) {
      free(ref[a]);
      free(oth[a]);
    }
    if (!whole) {
      kern_module_free(c1);
      kern_module_free(o1);
    }
  }
  kern_module_free(mc);
  kern_module_free(mo);
  for (int i = 0; i < n; i++)
    if (pairs[i].dup_in_batch)
      for (int j = 0; j < i; j++)
        if (!strcmp(pairs[j].id, pairs[i].id)) {
          pairs[i].run = pairs[j].run;
          pairs[i].max_abs = pairs[j].max_abs;
          pairs[i].max_rel = pairs[j].max_rel;
          memcpy(pairs[i].run_msg, pairs[j].run_msg, sizeof pairs[i].run_msg);
          break;
        }
}

/* ------------------------------------------------------------ records */

static const char *kind_name(synth_arg_kind k) {
  static const char *n[] = {"input", "input", "input", "input", "output",
                            "output", "output", "value", "value"};
  return n[k];
}
static const char *dtype_name(synth_arg_kind k) {
  static const char *n[] = {"float32", "int32", "vec3", "mat33", "float32",
                            "int32", "vec3", "float32", "int32"};
  return n[k];
}

static void fmt_double(Str *s, double v) {
  char b[48];
  if (isnan(v) || isinf(v)) s_cat(s, "null");
  else if (synth_short_g(b, v, 9) >= 0) s_cat(s, b);
  else s_fmt(s, "%.9g", v);
}

/* The tolerances as "%g" writes them, once: formatting them in every
 * record took printf's general path. */
static char tolerances[96];

static void record(const Opts *o, const Pair *p, Str *s) {
  const synth_kernel *k = &p->k;
  s_fmt(s, "{\"schema_version\":%d,\"id\":\"%s\",\"index\":%lld,", SYNTH_SCHEMA_VERSION,
        p->id, p->index);
  s_fmt(s, "\"category\":\"%s\",\"tags\":[", synth_category_names[k->category]);
  for (int t = 0; t < k->ntags; t++) s_fmt(s, "%s\"%s\"", t ? "," : "", k->tags[t]);
  s_fmt(s, "],\"generator\":{\"version\":\"%s\",\"seed\":%llu,\"index\":%lld,"
        "\"difficulty\":%d},", SYNTH_GENERATOR_VERSION, (unsigned long long)o->seed,
        p->index, k->difficulty);
  s_fmt(s, "\"normalized_hash\":\"%s\",\"minhash\":\"%s\",\"lines\":%d,", p->nhash,
        p->minhash, k->lines);
  s_fmt(s, "\"kernel\":{\"name\":\"%s\",\"params\":[", k->name);
  Str sig = {0};
  s_fmt(&sig, "def %s(", k->name);
  for (int a = 0; a < k->nargs; a++) {
    const synth_arg *x = &k->args[a];
    const char *ty;
    if (x->ndim == 0) ty = x->kind == SA_INT_VALUE ? "int" : "float";
    else if (x->ndim == 2)
      ty = x->kind == SA_FLOAT_ARRAY || x->kind == SA_FLOAT_OUT
               ? "wp.array2d(dtype=wp.float32)" : "wp.array2d(dtype=wp.int32)";
    else {
      static const char *one[] = {"wp.array(dtype=wp.float32)", "wp.array(dtype=wp.int32)",
                                  "wp.array(dtype=wp.vec3)", "wp.array(dtype=wp.mat33)",
                                  "wp.array(dtype=wp.float32)", "wp.array(dtype=wp.int32)",
                                  "wp.array(dtype=wp.vec3)"};
      ty = one[x->kind];
    }
    s_fmt(&sig, "%s%s: %s", a ? ", " : "", x->name, ty);
    s_fmt(s, "%s{\"name\":\"%s\",\"type\":\"%s\",\"ndim\":%d}", a ? "," : "", x->name, ty,
          x->ndim);
  }
  s_cat(&sig, ")");
  s_cat(s, "],\"signature\":");
  s_json(s, sig.p);
  free(sig.p);
  s_cat(s, "},\"launch\":{\"dims\":[");
  for (int d = 0; d < k->ndim; d++) s_fmt(s, "%s%lld", d ? "," : "", (long long)k->dims[d]);
  s_cat(s, "]},\"inputs\":[");
  for (int a = 0; a < k->nargs; a++) {
    const synth_arg *x = &k->args[a];
    s_fmt(s, "%s{\"name\":\"%s\",\"role\":\"%s\",\"dtype\":\"%s\",\"shape\":[", a ? "," : "",
          x->name, kind_name(x->kind), dtype_name(x->kind));
    for (int d = 0; d < x->ndim; d++) s_fmt(s, "%s%lld", d ? "," : "", (long long)x->shape[d]);
    s_cat(s, "],");
    if (x->kind == SA_FLOAT_ARRAY || x->kind == SA_VEC3_ARRAY || x->kind == SA_MAT33_ARRAY)
      s_fmt(s, "\"recipe\":\"eighths\",\"seed\":%llu}", (unsigned long long)x->seed);
    else if (x->kind == SA_INT_ARRAY)
      s_fmt(s, "\"recipe\":\"int_uniform\",\"seed\":%llu}", (unsigned long long)x->seed);
    else {
      s_cat(s, "\"recipe\":\"");
      s_cat(s, arg_is_out(x) ? "fill" : "value");
      s_cat(s, "\",\"value\":");
      fmt_double(s, x->fill);
      s_cat(s, "}");
    }
  }
  s_cat(s, "],\"source\":{\"warp\":");
  s_json(s, p->warp);
  s_cat(s, ",\"cuda\":");
  if (p->cuda) s_json(s, p->cuda); else s_cat(s, "null");
  s_cat(s, ",\"opencl\":");
  if (p->opencl) s_json(s, p->opencl); else s_cat(s, "null");
  s_cat(s, ",\"c\":");
  if (p->c) s_json(s, p->c); else s_cat(s, "null");
  s_fmt(s, "},\"compiler\":{\"kern_version\":\"%s\",\"nvrtc_version\":", KERN_VERSION_STRING);
  if (o->validate >= V_COMPILE && nv.ok) s_fmt(s, "\"%d.%d\"", nv.major, nv.minor);
  else s_cat(s, "null");
  char archopt[80];
  const char *opts[8];
  int nopts = nv_options(o, opts, archopt);
  s_fmt(s, ",\"arch\":\"%s\",\"options\":[", o->arch);
  for (int i = 0; i < nopts; i++) s_fmt(s, "%s\"%s\"", i ? "," : "", opts[i]);
  /* What NVRTC produced (Note [validation output]); with --validate none,
   * what it would, as arch and options are. */
  s_fmt(s, "],\"output\":\"%s\"", out_names[o->output]);
  /* Only the compact form is named, so records of the production form keep
   * their bytes; no cuda_form means the CUDA backend's own form. */
  s_cat(s, o->compact ? ",\"cuda_form\":\"compact\"},\"build\":{\"compile_ok\":"
                      : "},\"build\":{\"compile_ok\":");
  s_cat(s, p->compile_ok < 0 ? "null" : p->compile_ok ? "true" : "false");
  s_cat(s, ",\"registers\":");
  if (p->regs >= 0) s_fmt(s, "%d", p->regs); else s_cat(s, "null");
  s_cat(s, ",\"spill_stores\":");
  if (p->spill_st >= 0) s_fmt(s, "%d", p->spill_st); else s_cat(s, "null");
  s_cat(s, ",\"spill_loads\":");
  if (p->spill_ld >= 0) s_fmt(s, "%d", p->spill_ld); else s_cat(s, "null");
  s_cat(s, ",\"stack_bytes\":");
  if (p->stack >= 0) s_fmt(s, "%d", p->stack); else s_cat(s, "null");
  s_cat(s, ",\"error\":");
  if (p->compile_err[0]) s_json(s, p->compile_err); else s_cat(s, "null");
  s_cat(s, "},\"execution\":{\"status\":");
  static const char *rs[] = {"disagree", "agree", "error"};
  s_fmt(s, "\"%s\"", p->run < 0 ? "not_run" : rs[p->run]);
  s_fmt(s, ",\"reference\":\"cpu\",\"other\":\"%s\",%s"
        "\"atol_scale\":\"max(1, max |reference| of the output)\",\"max_abs_error\":",
        o->other, tolerances);
  if (p->run == 0 || p->run == 1) fmt_double(s, p->max_abs); else s_cat(s, "null");
  s_cat(s, ",\"max_rel_error\":");
  if (p->run == 0 || p->run == 1) fmt_double(s, p->max_rel); else s_cat(s, "null");
  s_cat(s, ",\"message\":");
  if (p->run_msg[0]) s_json(s, p->run_msg); else s_cat(s, "null");
  s_cat(s, "}}\n");
}

/* Each pair's files, for tools that want files rather than JSON. */
static void write_sources(const Opts *o, const Pair *p) {
  const char *ext[4] = {"py", "cu", "cl", "c"};
  const char *txt[4] = {p->warp, p->cuda, p->opencl, p->c};
  char path[4096];
  snprintf(path, sizeof path, "%s/sources", o->dir);
  mkdir(path, 0777);
  for (int t = 0; t < 4; t++) {
    if (!txt[t]) continue;
    snprintf(path, sizeof path, "%s/sources/%s.%s", o->dir, p->k.name, ext[t]);
    FILE *f = fopen(path, "w");
    if (!f) continue;
    fputs(txt[t], f);
    fclose(f);
  }
}


/* ------------------------------------------------------------- batches */

typedef struct {
  Worker *w;
  long long first; /* index of the first pair */
  int count;
  Str out;
  int fail;
  long long bad; /* pairs that failed to compile, disagreed or errored */
} Batch;

static long long shard_index(const Opts *o, long long k) {
  return (long long)o->shard + k * o->nshards;
}

static void *run_batch(void *arg) {
  Batch *b = arg;
  Worker *w = b->w;
  const Opts *o = w->o;
  Pair *pairs = calloc((size_t)b->count, sizeof *pairs);
  if (!pairs) {
    b->fail = 1;
    return NULL;
  }
  for (int i = 0; i < b->count; i++) {
    if (make_pair(w, shard_index(o, b->first + i), &pairs[i])) b->fail = 1;
    for (int j = 0; j < i; j++)
      if (!strcmp(pairs[j].id, pairs[i].id)) {
        pairs[i].dup_in_batch = 1;
        break;
      }
  }
  /* $KERN_SYNTH_TIMING=1: seconds per phase on stderr, for bench/NOTES.md */
  int timing = getenv("KERN_SYNTH_TIMING") != NULL;
  double t0 = timing ? now() : 0, t1 = t0, t2 = t0;
  if (!b->fail && o->validate >= V_COMPILE && nv.ok) validate_compile(o, pairs, b->count);
  if (timing) t1 = now();
  if (!b->fail && o->validate >= V_RUN) validate_run(w, pairs, b->count);
  if (timing) {
    t2 = now();
    fprintf(stderr, "kern synth: batch of %d: nvrtc %.2f s, run %.2f s\n", b->count,
            t1 - t0, t2 - t1);
  }
  for (int i = 0; i < b->count && !b->fail; i++) {
    record(o, &pairs[i], &b->out);
    b->bad += pairs[i].compile_ok == 0 || pairs[i].run == 0 || pairs[i].run == 2;
  }
  for (int i = 0; i < b->count && !b->fail && o->write_sources; i++) write_sources(o, &pairs[i]);
  if (b->out.oom) b->fail = 1;
  for (int i = 0; i < b->count; i++) pair_free(&pairs[i]);
  free(pairs);
  return NULL;
}

/* ---------------------------------------------------------- resume */

static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("kern synth: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs("\n", stderr);
  va_end(ap);
  return 1;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  Str s = {0};
  /* One allocation of the file's size (pairs.jsonl is ~10 KB a record, so
   * growing by doubling copied it several times). */
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && st.st_size > 0) {
    s.p = malloc((size_t)st.st_size + 1);
    if (s.p) s.cap = (size_t)st.st_size + 1;
  }
  char buf[65536];
  size_t r;
  if (s.p) {
    while (s.n + 1 < s.cap && (r = fread(s.p + s.n, 1, s.cap - 1 - s.n, f)) > 0) s.n += r;
    s.p[s.n] = 0;
  }
  while ((r = fread(buf, 1, sizeof buf, f)) > 0) s_put(&s, buf, r);
  fclose(f);
  if (!s.p) s_cat(&s, "");
  *len = s.n;
  return s.p;
}

/* Counts the complete records of pairs.jsonl, cutting a torn last line.
 * Returns the number of records, or -1 on a file that is not ours. */
static long long resume(const Opts *o, const char *path) {
  size_t len = 0;
  char *t = slurp(path, &len);
  if (!t) return 0;
  size_t keep = len;
  while (keep > 0 && t[keep - 1] != '\n') keep--;
  long long count = 0;
  long long expect = 0;
  for (size_t i = 0; i < keep;) {
    char *nl = memchr(t + i, '\n', keep - i);
    char *idx = strstr(t + i, "\"index\":");
    char *seed = strstr(t + i, "\"seed\":");
    if (!idx || idx > nl || !seed || seed > nl ||
        atoll(idx + 8) != shard_index(o, expect) ||
        strtoull(seed + 7, NULL, 10) != o->seed) {
      free(t);
      return -1;
    }
    expect++;
    count++;
    i = (size_t)(nl - t) + 1;
  }
  free(t);
  if (keep < len && truncate(path, (off_t)keep) != 0) return -1;
  return count;
}

/* Note [resume arguments]: pairs.jsonl records depend on more than the
 * seed and shard that resume() reads back from them: the categories, the
 * largest difficulty, the targets, the CUDA form, the validation and what
 * it used.  A resumed run with other values would append records of
 * another distribution, and the card would describe only the last run.
 * So a run writes those arguments to DIR/synth-args, one "name value"
 * line each, and a resume refuses any that differs, naming it with both
 * values.  Options that change no record (-n, --jobs, --batch, --quiet,
 * --write-sources, --save-failures) are not in it; nor is --compare
 * unless --validate run uses it, nor are --arch, --nvrtc-output and
 * --nvrtc-opt without validation.  A directory of an older kern, with
 * records but no synth-args, is resumed as before and gets the file. */
static void run_args(const Opts *o, int nvrtc_fast, Str *s) {
  s_fmt(s, "generator %s\nseed %llu\nshard %d/%d\ncategories ", SYNTH_GENERATOR_VERSION,
        (unsigned long long)o->seed, o->shard, o->nshards);
  int first = 1;
  for (int c = 0; c < SC_COUNT; c++)
    if (o->cats & (1u << c)) {
      s_fmt(s, "%s%s", first ? "" : ",", synth_category_names[c]);
      first = 0;
    }
  s_fmt(s, "\ndifficulty %d\ntargets cuda%s%s\ncuda-form %s\nvalidate %s\n", o->difficulty,
        o->targets & 2 ? ",opencl" : "", o->targets & 4 ? ",c" : "",
        o->compact ? "compact" : "production",
        o->validate == V_RUN ? "run" : o->validate == V_COMPILE ? "compile" : "none");
  if (o->validate == V_RUN) s_fmt(s, "compare %s\n", o->other);
  if (o->validate >= V_COMPILE)
    s_fmt(s, "arch %s\nnvrtc-output %s\nnvrtc-opt %s\n", o->arch, out_names[o->output],
          nvrtc_fast ? "fast" : "full");
}

/* The value of line `name` in a synth-args text, copied to out. */
static int arg_value(const char *t, const char *name, char *out, size_t cap) {
  size_t k = strlen(name);
  for (const char *l = t; *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    if (len > k && !strncmp(l, name, k) && l[k] == ' ') {
      snprintf(out, cap, "%.*s", (int)(len - k - 1), l + k + 1);
      return 1;
    }
    l += len + (nl ? 1 : 0);
  }
  return 0;
}

/* Compares this run's arguments with DIR/synth-args when pairs.jsonl
 * holds records (done > 0), then writes them (Note [resume arguments]).
 * Returns 0, or 1 after printing the error. */
static int check_run_args(const Opts *o, int nvrtc_fast, long long done) {
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/synth-args", o->dir);
  Str now = {0};
  run_args(o, nvrtc_fast, &now);
  if (now.oom) return fail("out of memory");
  size_t len;
  char *old = done > 0 ? slurp(path, &len) : NULL;
  if (old) {
    int rc = 0;
    for (const char *l = now.p; *l && !rc;) {
      const char *sp = strchr(l, ' '), *nl = strchr(l, '\n');
      char name[64], was[512], is[512];
      snprintf(name, sizeof name, "%.*s", (int)(sp - l), l);
      snprintf(is, sizeof is, "%.*s", (int)(nl - sp - 1), sp + 1);
      if (!arg_value(old, name, was, sizeof was)) snprintf(was, sizeof was, "(not given)");
      if (strcmp(was, is))
        rc = fail("%s/pairs.jsonl holds %lld records made with %s%s %s; this run has %s%s %s, "
                  "which would change the records: resume with the same arguments, or use a "
                  "new -o DIR", o->dir, done, strcmp(name, "generator") ? "--" : "", name, was,
                  strcmp(name, "generator") ? "--" : "", name, is);
      l = nl + 1;
    }
    /* An argument the old run had and this one has not (--compare of a
     * --validate run resumed without validation). */
    for (const char *l = old; *l && !rc;) {
      const char *sp = strchr(l, ' '), *nl = strchr(l, '\n');
      if (!sp || !nl || sp > nl) break;
      char name[64], is[8];
      snprintf(name, sizeof name, "%.*s", (int)(sp - l), l);
      if (!arg_value(now.p, name, is, sizeof is))
        rc = fail("%s/pairs.jsonl holds %lld records made with --%s %.*s; this run has none: "
                  "resume with the same arguments, or use a new -o DIR", o->dir, done, name,
                  (int)(nl - sp - 1), sp + 1);
      l = nl + 1;
    }
    free(old);
    if (rc) {
      free(now.p);
      return rc;
    }
  }
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  int ok = f && fwrite(now.p, 1, now.n, f) == now.n;
  if (f && fclose(f) != 0) ok = 0;
  if (ok && rename(tmp, path) != 0) ok = 0;
  free(now.p);
  if (!ok) return fail("cannot write %s: %s", path, strerror(errno));
  return 0;
}

/* ---------------------------------------------------------- stats */

static const char *field(const char *line, const char *key, const char *end) {
  size_t k = strlen(key);
  const char *p = line < end ? memmem(line, (size_t)(end - line), key, k) : NULL;
  return p ? p + k : NULL;
}

/* pairs.jsonl a line at a time through one buffer: reading the whole file
 * (~11 KB a record) cost a page fault per 4 KB, as much as the stats
 * themselves (kern synth round three). */
typedef struct {
  FILE *f;
  char *p;
  size_t n, pos, cap;
  int eof, oom;
} Lines;

/* The next complete line, its '\n' in *nl; NULL at the end (a torn last
 * line is not a record) or when out of memory (L->oom). */
static const char *next_line(Lines *L, const char **nl) {
  for (;;) {
    char *start = L->p + L->pos, *e;
    size_t avail = L->n - L->pos;
    if (avail && (e = memchr(start, '\n', avail))) {
      L->pos = (size_t)(e - L->p) + 1;
      *nl = e;
      return start;
    }
    if (L->eof) return NULL;
    memmove(L->p, start, avail);
    L->n = avail;
    L->pos = 0;
    if (L->n + 1 >= L->cap) {
      size_t cap = L->cap * 2;
      char *q = realloc(L->p, cap);
      if (!q) {
        L->oom = 1;
        return NULL;
      }
      L->p = q;
      L->cap = cap;
    }
    size_t r = fread(L->p + L->n, 1, L->cap - 1 - L->n, L->f);
    if (r == 0) L->eof = 1;
    L->n += r;
    L->p[L->n] = 0;
  }
}

/* Where the record's last objects (compiler, build, execution) begin: found
 * from the end, so the stats pass does not scan the sources (~10 KB a
 * record) once per key.  Inside JSON strings every '"' is escaped, so the
 * text searched for cannot occur there. */
static const char *record_tail(const char *line, const char *nl) {
  static const char key[] = "},\"compiler\":{";
  size_t k = sizeof key - 1;
  for (const char *p = nl - k; p >= line; p--)
    if (*p == '}' && !memcmp(p, key, k)) return p;
  return line;
}

/* The closing quote of the JSON string whose text begins at p (the quote
 * after an even run of backslashes), or NULL: the CUDA source's end,
 * without searching its ~7 KB for the key that follows it. */
static const char *json_string_end(const char *p, const char *end) {
  for (const char *q = p; q < end && (q = memchr(q, '"', (size_t)(end - q))); q++) {
    const char *b = q;
    while (b > p && b[-1] == '\\') b--;
    if ((q - b) % 2 == 0) return q;
  }
  return NULL;
}

typedef struct { char h[33]; } H;
static int hcmp(const void *a, const void *b) { return strcmp(a, b); }
static long long dups(H *v, long long n) {
  qsort(v, (size_t)n, sizeof *v, hcmp);
  long long d = 0;
  for (long long i = 1; i < n; i++) d += strcmp(v[i].h, v[i - 1].h) == 0;
  return d;
}

static int write_stats(const Opts *o, const char *dir, double seconds) {
  char path[4096];
  snprintf(path, sizeof path, "%s/pairs.jsonl", dir);
  Lines L = {fopen(path, "rb"), malloc(4 << 20), 0, 0, 4 << 20, 0, 0};
  if (!L.f || !L.p) {
    if (L.f) fclose(L.f);
    free(L.p);
    return fail("cannot read %s", path);
  }
  long long n = 0, cat[SC_COUNT] = {0}, cok[SC_COUNT] = {0}, cchk[SC_COUNT] = {0},
            agree[SC_COUNT] = {0}, ran[SC_COUNT] = {0};
  long long lines_h[8] = {0}, cuda_h[8] = {0};
  long long cap = 1024;
  H *ids = malloc(sizeof *ids * (size_t)cap), *nh = malloc(sizeof *nh * (size_t)cap);
  uint16_t *mh = malloc(sizeof *mh * SYNTH_MH_BINS * (size_t)cap);
  const char *line, *nl;
  while (ids && nh && mh && (line = next_line(&L, &nl))) {
    if (n == cap) {
      cap *= 2;
      H *a = realloc(ids, sizeof *ids * (size_t)cap), *b = realloc(nh, sizeof *nh * (size_t)cap);
      uint16_t *m = realloc(mh, sizeof *mh * SYNTH_MH_BINS * (size_t)cap);
      if (a) ids = a;
      if (b) nh = b;
      if (m) mh = m;
      if (!a || !b || !m) break;
    }
    const char *f;
    if ((f = field(line, "\"id\":\"", nl))) snprintf(ids[n].h, 33, "%.32s", f);
    if ((f = field(line, "\"normalized_hash\":\"", nl))) snprintf(nh[n].h, 33, "%.32s", f);
    memset(mh + (size_t)n * SYNTH_MH_BINS, 0, sizeof *mh * SYNTH_MH_BINS);
    if ((f = field(line, "\"minhash\":\"", nl)) && f + SYNTH_MH_BINS * 4 < nl)
      for (int b = 0; b < SYNTH_MH_BINS; b++) {
        /* four hex digits (strtoul per bin was a tenth of the stats) */
        unsigned v = 0;
        for (int k = 0; k < 4; k++) {
          char ch = f[4 * b + k];
          int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                  : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
          if (d < 0) break;
          v = v * 16 + (unsigned)d;
        }
        mh[(size_t)n * SYNTH_MH_BINS + b] = (uint16_t)v;
      }
    int c = 0;
    if ((f = field(line, "\"category\":\"", nl)))
      for (int k = 0; k < SC_COUNT; k++)
        if (!strncmp(f, synth_category_names[k], strlen(synth_category_names[k])) &&
            f[strlen(synth_category_names[k])] == '"')
          c = k;
    cat[c]++;
    const char *tail = record_tail(line, nl);
    if ((f = field(tail, "\"compile_ok\":", nl)) && *f != 'n') {
      cchk[c]++;
      cok[c] += *f == 't';
    }
    if ((f = field(tail, "\"execution\":{\"status\":\"", nl)) && strncmp(f, "not_run", 7)) {
      ran[c]++;
      agree[c] += !strncmp(f, "agree", 5);
    }
    if ((f = field(line, "\"lines\":", nl))) {
      int l = atoi(f), b = 0;
      while (b < 7 && l >= (10 << b)) b++;
      lines_h[b]++;
    }
    const char *cu = field(line, "\"cuda\":\"", nl), *ocl = cu ? json_string_end(cu, nl) : NULL;
    if (ocl && (size_t)(nl - ocl) > 11 && !memcmp(ocl, "\",\"opencl\":", 11)) ocl += 11;
    else ocl = field(line, "\",\"opencl\":", nl);
    if (cu && ocl) {
      long long sz = ocl - cu, b = 0;
      while (b < 7 && sz >= (1024LL << b)) b++;
      cuda_h[b]++;
    }
    n++;
  }
  fclose(L.f);
  free(L.p);
  if (L.oom) return fail("out of memory reading %s", path);
  long long exact = ids && nh ? dups(ids, n) : 0, structural = ids && nh ? dups(nh, n) : 0;
  long long near = ids && nh && mh ? synth_near_duplicates(mh, n) : 0;
  /* How far kernels are from being duplicates: each of the first 1,000
   * records' similarity to the most similar earlier one (exact, ~20 ms). */
  enum { SIM_SAMPLE = 1000 };
  long long nsim = n < SIM_SAMPLE ? n : SIM_SAMPLE;
  double sim[SIM_SAMPLE];
  if (mh && nsim) synth_similarity_sample(mh, nsim, sim);
  free(ids);
  free(nh);
  free(mh);
  Str s = {0};
  long long tc = 0, tok = 0, tr = 0, ta = 0;
  s_fmt(&s, "{\n  \"schema_version\": %d,\n  \"generator_version\": \"%s\",\n  \"seed\": %llu,\n"
        "  \"pairs\": %lld,\n  \"shard\": \"%d/%d\",\n  \"categories\": {\n", SYNTH_SCHEMA_VERSION,
        SYNTH_GENERATOR_VERSION, (unsigned long long)o->seed, n, o->shard, o->nshards);
  int first = 1;
  for (int c = 0; c < SC_COUNT; c++) {
    if (!cat[c]) continue;
    s_fmt(&s, "%s    \"%s\": {\"count\": %lld, \"compile_checked\": %lld, \"compile_ok\": %lld, "
          "\"run_checked\": %lld, \"agree\": %lld}", first ? "" : ",\n", synth_category_names[c],
          cat[c], cchk[c], cok[c], ran[c], agree[c]);
    first = 0;
    tc += cchk[c], tok += cok[c], tr += ran[c], ta += agree[c];
  }
  s_fmt(&s, "\n  },\n  \"compile_pass_rate\": %s,\n  \"run_agree_rate\": %s,\n",
        tc ? "" : "null", tr ? "" : "null");
  /* rewrite the two rates properly */
  s.n = 0;
  s_fmt(&s, "{\n  \"schema_version\": %d,\n  \"generator_version\": \"%s\",\n  \"seed\": %llu,\n"
        "  \"pairs\": %lld,\n  \"shard\": \"%d/%d\",\n  \"categories\": {\n", SYNTH_SCHEMA_VERSION,
        SYNTH_GENERATOR_VERSION, (unsigned long long)o->seed, n, o->shard, o->nshards);
  first = 1;
  for (int c = 0; c < SC_COUNT; c++) {
    if (!cat[c]) continue;
    s_fmt(&s, "%s    \"%s\": {\"count\": %lld, \"compile_checked\": %lld, \"compile_ok\": %lld, "
          "\"run_checked\": %lld, \"agree\": %lld}", first ? "" : ",\n", synth_category_names[c],
          cat[c], cchk[c], cok[c], ran[c], agree[c]);
    first = 0;
  }
  s_cat(&s, "\n  },\n  \"compile_pass_rate\": ");
  if (tc) s_fmt(&s, "%.6f", (double)tok / tc); else s_cat(&s, "null");
  s_cat(&s, ",\n  \"run_agree_rate\": ");
  if (tr) s_fmt(&s, "%.6f", (double)ta / tr); else s_cat(&s, "null");
  s_fmt(&s, ",\n  \"compile_checked\": %lld,\n  \"compile_ok\": %lld,\n  \"run_checked\": %lld,\n"
        "  \"agree\": %lld,\n", tc, tok, tr, ta);
  s_fmt(&s, "  \"exact_duplicates\": %lld,\n  \"exact_duplicate_rate\": %.6f,\n"
        "  \"structural_duplicates\": %lld,\n  \"structural_duplicate_rate\": %.6f,\n"
        "  \"near_duplicates\": %lld,\n  \"near_duplicate_rate\": %.6f,\n", exact,
        n ? (double)exact / n : 0.0, structural, n ? (double)structural / n : 0.0, near,
        n ? (double)near / n : 0.0);
  s_fmt(&s, "  \"near_duplicate_method\": \"MinHash: %d one-permutation bins over %d-token "
        "shingles of the normalised source (names -> v, numbers -> #); a pair is a near "
        "duplicate of an earlier one at estimated Jaccard >= %.2f (docs/synth.md)\",\n",
        SYNTH_MH_BINS, SYNTH_MH_SHINGLE, SYNTH_NEAR_JACCARD);
  s_fmt(&s, "  \"nearest_similarity\": {\"sample\": %lld", nsim);
  if (nsim) {
    static const double q[] = {0.5, 0.9, 0.99, 1.0};
    static const char *qn[] = {"p50", "p90", "p99", "max"};
    for (int k = 0; k < 4; k++)
      s_fmt(&s, ", \"%s\": %.4f", qn[k], sim[(long long)(q[k] * (double)(nsim - 1) + 0.5)]);
  }
  s_cat(&s, "},\n");
  s_cat(&s, "  \"warp_lines_histogram\": {");
  for (int b = 0; b < 8; b++)
    s_fmt(&s, "%s\"%s%d\": %lld", b ? ", " : "", b == 7 ? ">=" : "<", b == 7 ? 10 << 6 : 10 << b,
          lines_h[b]);
  s_cat(&s, "},\n  \"cuda_bytes_histogram\": {");
  for (int b = 0; b < 8; b++)
    s_fmt(&s, "%s\"%s%d\": %lld", b ? ", " : "", b == 7 ? ">=" : "<",
          b == 7 ? 1024 << 6 : 1024 << b, cuda_h[b]);
  s_cat(&s, "}\n}\n");
  (void)seconds;
  snprintf(path, sizeof path, "%s/stats.json", dir);
  FILE *f = fopen(path, "w");
  if (!f || fwrite(s.p, 1, s.n, f) != s.n || fclose(f) != 0) {
    free(s.p);
    return fail("cannot write %s", path);
  }
  /* The dataset card. */
  Str c = {0};
  s_cat(&c, "# kern synth dataset\n\n");
  s_fmt(&c, "Made by `kern synth` (generator %s, kern %s) with seed %llu, shard %d/%d, "
        "difficulty up to %d, validation `%s`.\n\n", SYNTH_GENERATOR_VERSION, KERN_VERSION_STRING,
        (unsigned long long)o->seed, o->shard, o->nshards, o->difficulty,
        o->validate == V_RUN ? "run" : o->validate == V_COMPILE ? "compile" : "none");
  s_cat(&c, "Each line of `pairs.jsonl` is one pair: a random, well-typed kernel in NVIDIA "
        "Warp's kernel dialect and the CUDA C (with the OpenCL C and C) kern generated for it. "
        "Kernels are grown from the grammar and the type system; integer intervals and float "
        "exactness are tracked so that no kernel has behaviour on which Warp, C, CUDA and "
        "OpenCL may disagree (indices are clamped to known shapes, divisors are never zero, "
        "no signed overflow, shifts are in range, loops are bounded).\n\n");
  s_cat(&c, "With `--validate compile` every CUDA file was compiled by NVRTC for the recorded "
        "architecture (`build`); with `--validate run` every kernel ran on kern's CPU backend and "
        "on OpenCL with the inputs the record's recipe and seeds describe, and the outputs were "
        "compared (`execution`).\n\n");
  /* What compile_ok means depends on how far NVRTC went (Note [validation
   * output]); a reader of the card should not have to know the options. */
  if (o->validate >= V_COMPILE) {
    static const char *const what[] = {
        "NVRTC compiled the record's CUDA text all the way to a cubin for `%s`: front end, "
        "NVVM optimisation and ptxas code generation; `registers`, `spill_stores`, "
        "`spill_loads` and `stack_bytes` are ptxas' report for that build.",
        "NVRTC compiled the record's CUDA text to PTX for `%s` (front end and NVVM "
        "optimisation); ptxas did not run, so no machine code was made, errors only ptxas "
        "finds are not excluded, and `registers`, spills and `stack_bytes` are null.",
        "NVRTC's front end accepted the record's CUDA text (parsing, C++ semantics, overload "
        "resolution) and lowered it to NVVM IR for `%s` (LTO IR, option `-dlto`); NVVM "
        "optimisation and ptxas code generation were not run, so errors only they would find "
        "are not excluded, and `registers`, spills and `stack_bytes` are null."};
    s_fmt(&c, "NVRTC output `%s` (`compiler.output`): `build.compile_ok` true means ",
          out_names[o->output]);
    s_fmt(&c, what[o->output], o->arch);
    s_cat(&c, " `compiler.options` lists every option used.\n\n");
  }
  if (o->compact)
    s_cat(&c, "The CUDA in each record is kern's compact form (`compiler.cuda_form`: one "
          "grid-stride loop, no unrolling, helpers `__noinline__` between `#ifndef` guards; "
          "`kern compile --target cuda --compact`), and that exact text is what NVRTC "
          "compiled.  `--validate run` on CUDA ran the CUDA backend's production form of the "
          "same kernel, which computes the same values with the same helpers.\n\n");
  s_cat(&c, "The record schema is docs/synth.md and docs/synth-schema.json in kern's sources.\n\n");
  s_cat(&c, "## Statistics\n\n```json\n");
  s_put(&c, s.p, s.n);
  s_cat(&c, "```\n");
  free(s.p);
  snprintf(path, sizeof path, "%s/README.md", dir);
  f = fopen(path, "w");
  if (!f || fwrite(c.p, 1, c.n, f) != c.n || fclose(f) != 0) {
    free(c.p);
    return fail("cannot write %s", path);
  }
  free(c.p);
  return 0;
}

/* ------------------------------------------------------------ main */

static const char help[] =
    "Usage: kern synth -n N --seed S -o DIR [OPTIONS]\n"
    "\n"
    "Generates N random Warp kernels and their CUDA, OpenCL and C, and writes\n"
    "DIR/pairs.jsonl (one pair a line), DIR/stats.json and DIR/README.md.\n"
    "The same arguments give the same bytes; an interrupted run resumes when\n"
    "given the same arguments (DIR/synth-args keeps them; a resume with other\n"
    "categories, difficulty, targets or validation is refused).\n"
    "\n"
    "Options:\n"
    "  -n N                   number of pairs (of the whole run, all shards)\n"
    "  --seed S               generator seed (default 1)\n"
    "  -o DIR                 output directory (created if missing)\n"
    "  --categories A,B,...   arithmetic, math, vector, matrix, control, atomic,\n"
    "                         reduction, stencil, random, functions (default all)\n"
    "  --difficulty D         1..5, the largest kernel size (default 3)\n"
    "  --shard I/K            write only indices i with i % K == I\n"
    "  --jobs J               worker threads (default 1)\n"
    "  --validate MODE        none, compile (NVRTC) or run (NVRTC, then CPU vs\n"
    "                         OpenCL); default none\n"
    "  --compare DEV          device compared with the CPU by --validate run:\n"
    "                         opencl (default) or cuda\n"
    "  --arch ARCH            NVRTC architecture (default sm_90)\n"
    "  --nvrtc-output OUT     what compile validation makes: cubin (default for\n"
    "                         sm_XX: front end, NVVM optimiser, ptxas; registers\n"
    "                         and spills recorded), ptx (default for compute_XX;\n"
    "                         sm_XX becomes compute_XX: no ptxas) or ltoir (-dlto:\n"
    "                         front end lowered to NVVM IR only, no optimiser, no\n"
    "                         ptxas; fastest, checks least)\n"
    "  --nvrtc-opt MODE       fast (default: --Ofast-compile=mid, about 3x\n"
    "                         faster) or full (the CUDA backend's optimisation)\n"
    "  --cuda-form FORM       production (default: what the CUDA backend runs)\n"
    "                         or compact (one loop, shared __noinline__ helpers;\n"
    "                         kern compile --compact), much faster to validate\n"
    "  --targets LIST         generated files: cuda (always), opencl, c\n"
    "                         (default cuda,opencl,c)\n"
    "  --batch B              pairs per batch (default 64)\n"
    "  --save-failures DIR    save kernels whose backends disagree (default\n"
    "                         DIR/failures)\n"
    "  --write-sources        also write DIR/sources/NAME.py, .cu, .cl, .c\n"
    "  --quiet                no progress on stderr\n"
    "\n"
    "Exit status: 0 success, 1 error or a disagreement/compile failure,\n"
    "2 bad usage.\n";

/* Settles --nvrtc-output against --arch (Note [validation output]); returns
 * NULL, or why the pair cannot be compiled. */
static const char *resolve_output(Opts *o) {
  int virt = !strncmp(o->arch, "compute_", 8);
  if (o->output == OUT_DEFAULT) o->output = virt ? OUT_PTX : OUT_CUBIN;
  static char why[160];
  if (o->output == OUT_CUBIN && virt) {
    snprintf(why, sizeof why, "--nvrtc-output cubin needs a real architecture (sm_XX), not '%.60s'",
             o->arch);
    return why;
  }
  if (o->output == OUT_PTX && !strncmp(o->arch, "sm_", 3)) {
    snprintf(o->arch_buf, sizeof o->arch_buf, "compute_%s", o->arch + 3);
    o->arch = o->arch_buf;
  }
  return NULL;
}

static int nv_has_ltoir(void) { return nv.ltoir_size && nv.ltoir; }

static int usage(const char *fmt, const char *arg) {
  fputs("kern synth: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'kern synth --help'.\n", stderr);
  return 2;
}


int synth_main(int argc, char **argv) {
  json_init();
  snprintf(tolerances, sizeof tolerances, "\"rtol\":%g,\"atol\":%g,", RTOL, ATOL);
#ifdef M_TRIM_THRESHOLD
  /* Every pair's compilation allocates and frees its arena; glibc would hand
   * that memory back to the kernel and fault it in again each time (a few
   * per cent of generation).  Keep up to 64 MiB of free heap instead. */
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
  Opts o = {0};
  o.n = -1;
  int nv_fast_asked = 1; /* --nvrtc-opt as given (nv_fast may fall back) */
  o.seed = 1;
  o.cats = (1u << SC_COUNT) - 1;
  o.nshards = 1;
  o.jobs = 1;
  o.difficulty = 3;
  o.arch = "sm_90";
  o.output = OUT_DEFAULT;
  o.batch = 64;
  o.targets = 7;
  o.other = "opencl";
  char fail_dir[4096] = "";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    char *end;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(help, stdout);
      return 0;
    } else if (!strcmp(a, "--quiet")) {
      o.quiet = 1;
      continue;
    } else if (!strcmp(a, "--write-sources")) {
      o.write_sources = 1;
      continue;
    }
    if (!v) return usage("option '%s' needs a value", a);
    i++;
    if (!strcmp(a, "-n")) {
      o.n = strtoll(v, &end, 10);
      if (*end || o.n < 0) return usage("-n wants a count, not '%s'", v);
    } else if (!strcmp(a, "--seed")) {
      o.seed = strtoull(v, &end, 10);
      if (*end || !*v) return usage("--seed wants an unsigned integer, not '%s'", v);
    } else if (!strcmp(a, "-o")) {
      o.dir = v;
    } else if (!strcmp(a, "--categories")) {
      o.cats = 0;
      char buf[512];
      snprintf(buf, sizeof buf, "%s", v);
      for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int c = 0;
        while (c < SC_COUNT && strcmp(t, synth_category_names[c])) c++;
        if (c == SC_COUNT) return usage("unknown category '%s'", t);
        o.cats |= 1u << c;
      }
      if (!o.cats) return usage("--categories is empty: '%s'", v);
    } else if (!strcmp(a, "--difficulty")) {
      o.difficulty = (int)strtol(v, &end, 10);
      if (*end || o.difficulty < 1 || o.difficulty > 5)
        return usage("--difficulty wants 1..5, not '%s'", v);
    } else if (!strcmp(a, "--shard")) {
      if (sscanf(v, "%d/%d", &o.shard, &o.nshards) != 2 || o.nshards < 1 || o.shard < 0 ||
          o.shard >= o.nshards)
        return usage("--shard wants I/K with 0 <= I < K, not '%s'", v);
    } else if (!strcmp(a, "--jobs")) {
      o.jobs = (int)strtol(v, &end, 10);
      if (*end || o.jobs < 1 || o.jobs > 256) return usage("--jobs wants 1..256, not '%s'", v);
    } else if (!strcmp(a, "--batch")) {
      o.batch = (int)strtol(v, &end, 10);
      if (*end || o.batch < 1 || o.batch > 4096) return usage("--batch wants 1..4096, not '%s'", v);
    } else if (!strcmp(a, "--validate")) {
      if (!strcmp(v, "none")) o.validate = V_NONE;
      else if (!strcmp(v, "compile")) o.validate = V_COMPILE;
      else if (!strcmp(v, "run")) o.validate = V_RUN;
      else return usage("--validate wants none, compile or run, not '%s'", v);
    } else if (!strcmp(a, "--targets")) {
      o.targets = 0;
      char buf[128];
      snprintf(buf, sizeof buf, "%s", v);
      for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        if (!strcmp(t, "cuda")) o.targets |= 1;
        else if (!strcmp(t, "opencl")) o.targets |= 2;
        else if (!strcmp(t, "c")) o.targets |= 4;
        else return usage("--targets wants cuda, opencl, c; not '%s'", t);
      }
      if (!(o.targets & 1)) return usage("--targets must include cuda: '%s'", v);
    } else if (!strcmp(a, "--compare")) {
      if (strcmp(v, "opencl") && strncmp(v, "opencl:", 7) && strcmp(v, "cuda") &&
          strncmp(v, "cuda:", 5))
        return usage("--compare wants opencl or cuda (opencl:N, cuda:N), not '%s'", v);
      o.other = v;
    } else if (!strcmp(a, "--arch")) {
      o.arch = v;
    } else if (!strcmp(a, "--nvrtc-output")) {
      if (!strcmp(v, "cubin")) o.output = OUT_CUBIN;
      else if (!strcmp(v, "ptx")) o.output = OUT_PTX;
      else if (!strcmp(v, "ltoir")) o.output = OUT_LTOIR;
      else return usage("--nvrtc-output wants cubin, ptx or ltoir, not '%s'", v);
    } else if (!strcmp(a, "--nvrtc-opt")) {
      if (!strcmp(v, "fast")) nv_fast_asked = 1;
      else if (!strcmp(v, "full")) nv_fast_asked = 0;
      else return usage("--nvrtc-opt wants fast or full, not '%s'", v);
    } else if (!strcmp(a, "--cuda-form")) {
      if (!strcmp(v, "production")) o.compact = 0;
      else if (!strcmp(v, "compact")) o.compact = 1;
      else return usage("--cuda-form wants production or compact, not '%s'", v);
    } else if (!strcmp(a, "--save-failures")) {
      snprintf(fail_dir, sizeof fail_dir, "%s", v);
    } else {
      return usage("unknown option '%s'", a);
    }
  }
  nv_fast = nv_fast_asked;
  const char *why = resolve_output(&o);
  if (why) return usage("%s", why);
  if (o.n < 0) return usage("%s", "missing -n N");
  if (!o.dir) return usage("%s", "missing -o DIR");
  if (mkdir(o.dir, 0777) != 0 && errno != EEXIST)
    return fail("cannot create %s: %s", o.dir, strerror(errno));
  if (!fail_dir[0]) snprintf(fail_dir, sizeof fail_dir, "%s/failures", o.dir);
  o.fail_dir = fail_dir;
  /* --validate compile is about NVRTC; --validate run still compares the
   * CPU and OpenCL without it (a CI machine without CUDA), and says so. */
  if (o.validate == V_COMPILE && !nv_load())
    return fail("--validate compile needs NVRTC: %s", nv.why);
  if (o.validate == V_RUN && !nv_load() && !o.quiet)
    fprintf(stderr, "kern synth: warning: NVRTC unavailable (%s): CUDA not compiled, "
            "compile_ok is null\n", nv.why);
  if (o.validate >= V_COMPILE && nv.ok && o.output == OUT_LTOIR && !nv_has_ltoir())
    return fail("--nvrtc-output ltoir needs nvrtcGetLTOIRSize and nvrtcGetLTOIR, which NVRTC "
                "%d.%d lacks (LTO IR output came with NVRTC 12.0)", nv.major, nv.minor);

  /* This shard's indices: shard, shard + K, ... below n. */
  long long total = o.n > o.shard ? (o.n - o.shard + o.nshards - 1) / o.nshards : 0;
  char path[4096];
  snprintf(path, sizeof path, "%s/pairs.jsonl", o.dir);
  /* A FIFO there would block the resume's read (and the append) forever,
   * a directory would read as no records. */
  struct stat pst;
  if (stat(path, &pst) == 0 && !S_ISREG(pst.st_mode))
    return fail("%s is not a regular file; use a new -o DIR", path);
  long long done = resume(&o, path);
  if (done < 0)
    return fail("%s holds records of another run (other seed or shard); use a new -o DIR", path);
  if (check_run_args(&o, nv_fast_asked, done)) return 1;
  if (done > total) done = total;
  FILE *f = fopen(path, "ab");
  if (!f) return fail("cannot open %s: %s", path, strerror(errno));

  Worker *ws = calloc((size_t)o.jobs, sizeof *ws);
  Batch *bs = calloc((size_t)o.jobs, sizeof *bs);
  pthread_t *th = calloc((size_t)o.jobs, sizeof *th);
  if (!ws || !bs || !th) return fail("out of memory");
  int rc = 0;
  for (int j = 0; j < o.jobs && !rc; j++) {
    ws[j].o = &o;
    if (kern_context_new(NULL, &ws[j].ctx)) {
      rc = fail("cannot create a kern context");
      break;
    }
    if (o.validate == V_RUN) {
      if (kern_device_find(ws[j].ctx, "cpu", &ws[j].cpu))
        rc = fail("no CPU device: %s", kern_last_error(ws[j].ctx));
      if (kern_device_find(ws[j].ctx, o.other, &ws[j].ocl) == KERN_SUCCESS) {
        ws[j].have_ocl = 1;
      } else {
        snprintf(ws[j].ocl_why, sizeof ws[j].ocl_why, "%s", kern_last_error(ws[j].ctx));
        kern_clear_error(ws[j].ctx);
        if (j == 0 && !rc) rc = fail("--validate run needs the device '%s': %s", o.other,
                                     ws[j].ocl_why);
      }
    }
  }
  double t0 = now(), last = 0;
  long long start = done;
  long long bad = 0;
  while (!rc && done < total) {
    int nb = 0;
    for (int j = 0; j < o.jobs && done + (long long)nb * o.batch < total; j++, nb++) {
      long long first = done + (long long)nb * o.batch;
      /* The job's buffer is kept from batch to batch: a new one each time
       * was mapped afresh (it outgrows malloc's mmap threshold) and
       * faulted in page by page. */
      Str out = bs[j].out;
      out.n = 0;
      bs[j] = (Batch){&ws[j], first, (int)(total - first < o.batch ? total - first : o.batch),
                      out, 0, 0};
      if (o.jobs == 1) run_batch(&bs[j]);
      else if (pthread_create(&th[j], NULL, run_batch, &bs[j])) {
        rc = fail("cannot start a thread");
        break;
      }
    }
    for (int j = 0; j < nb; j++) {
      if (o.jobs > 1) pthread_join(th[j], NULL);
    }
    for (int j = 0; j < nb && !rc; j++) {
      if (bs[j].fail) {
        rc = fail("out of memory generating pairs");
        break;
      }
      /* one write per batch: a kill leaves at most a torn last line */
      if (fwrite(bs[j].out.p, 1, bs[j].out.n, f) != bs[j].out.n || fflush(f) != 0)
        rc = fail("cannot write %s: %s", path, strerror(errno));
      bad += bs[j].bad;
      done += bs[j].count;
    }
    double t = now();
    if (!o.quiet && (t - last > 1 || done == total)) {
      double rate = (done - start) / (t - t0 > 1e-9 ? t - t0 : 1e-9);
      fprintf(stderr, "kern synth: %lld/%lld pairs, %.0f pairs/s, ETA %.0f s, %lld failed\n",
              done, total, rate, rate > 0 ? (total - done) / rate : 0.0, bad);
      last = t;
    }
  }
  if (fclose(f) != 0 && !rc) rc = fail("cannot write %s", path);
  for (int j = 0; j < o.jobs; j++) kern_context_free(ws[j].ctx);
  for (int j = 0; j < o.jobs; j++) free(bs[j].out.p);
  free(ws);
  free(bs);
  free(th);
  if (!rc) rc = write_stats(&o, o.dir, now() - t0);
  if (!rc && bad) {
    fprintf(stderr, "kern synth: %lld pairs failed validation (kernels saved in %s)\n", bad,
            o.fail_dir);
    rc = 1;
  }
  return rc;
}

/* --------------------------------------------------- validation alone */

int synth_validate_cuda(const char *const *cuda, const char *const *names, int n,
                        const char *arch, const char *output, int *ok, int *regs,
                        char *err, size_t errcap) {
  Opts o = {0};
  o.arch = arch;
  o.output = !output ? OUT_DEFAULT : !strcmp(output, "cubin") ? OUT_CUBIN
             : !strcmp(output, "ptx") ? OUT_PTX : !strcmp(output, "ltoir") ? OUT_LTOIR : -2;
  const char *why = o.output == -2 ? "unknown output" : resolve_output(&o);
  if (!why && !nv_load()) why = nv.why;
  if (!why && o.output == OUT_LTOIR && !nv_has_ltoir()) why = "NVRTC without LTO IR output";
  if (why) {
    if (errcap) snprintf(err, errcap, "%s", why);
    return -1;
  }
  Pair *pairs = calloc((size_t)n, sizeof *pairs);
  if (!pairs) return -1;
  for (int i = 0; i < n; i++) {
    /* Only what validate_compile reads: the text, the kernel's name (for
     * ptxas' report) and the not-yet-checked state. */
    pairs[i].cuda = (char *)cuda[i];
    snprintf(pairs[i].k.name, sizeof pairs[i].k.name, "%s", names[i]);
    snprintf(pairs[i].id, sizeof pairs[i].id, "%d", i);
    pairs[i].compile_ok = -1;
    pairs[i].regs = pairs[i].spill_st = pairs[i].spill_ld = pairs[i].stack = -1;
  }
  validate_compile(&o, pairs, n);
  for (int i = 0; i < n; i++) {
    ok[i] = pairs[i].compile_ok;
    if (regs) regs[i] = pairs[i].regs;
    if (errcap) snprintf(err + (size_t)i * errcap, errcap, "%s", pairs[i].compile_err);
  }
  free(pairs);
  return 0;
}
