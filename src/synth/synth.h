/*
 * synth.h -- `kern synth`: random, well-typed Warp kernels and the
 * (Warp, CUDA, OpenCL, C) pairs made from them (issue #13).
 *
 * The generator (gen.c) builds one kernel from a seed and an index alone,
 * so any index can be regenerated without the others: that is what makes
 * shards, resumption and byte-identical reruns cheap.  The driver
 * (driver.c) turns kernels into JSONL records, validates them (NVRTC,
 * CPU vs OpenCL) and writes the statistics and the dataset card.
 *
 * The synth floor uses only the public API (kern.h): it is a client of the
 * compiler like any other tool, which keeps it honest as a fuzzer.
 */
#ifndef KERN_SYNTH_H
#define KERN_SYNTH_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define SYNTH_GENERATOR_VERSION "kern-synth-3"
#define SYNTH_SCHEMA_VERSION 2

enum {
  SC_ARITHMETIC,
  SC_MATH,
  SC_VECTOR,
  SC_MATRIX,
  SC_CONTROL,
  SC_ATOMIC,
  SC_REDUCTION,
  SC_STENCIL,
  SC_RANDOM,
  SC_FUNCTIONS,
  SC_COUNT
};

extern const char *const synth_category_names[SC_COUNT];

/* Kinds of launch argument, and how its values are made. */
typedef enum {
  SA_FLOAT_ARRAY, /* float32, multiples of 1/8 in [-4, 4] */
  SA_INT_ARRAY,   /* int32 in [-100, 100] */
  SA_VEC3_ARRAY,  /* vec3, components as SA_FLOAT_ARRAY */
  SA_MAT33_ARRAY, /* mat33, entries as SA_FLOAT_ARRAY */
  SA_FLOAT_OUT,   /* float32 output, filled with `fill` */
  SA_INT_OUT,     /* int32 output, filled with `fill` */
  SA_VEC3_OUT,    /* vec3 output, zeros */
  SA_FLOAT_VALUE, /* float32 by value: `fill` */
  SA_INT_VALUE    /* int32 by value: `fill` */
} synth_arg_kind;

typedef struct {
  char name[16];
  synth_arg_kind kind;
  int ndim;           /* 1 or 2 for arrays, 0 for values */
  int64_t shape[2];
  double fill;        /* outputs' initial value; values' value */
  uint64_t seed;      /* inputs' values come from this seed */
} synth_arg;

#define SYNTH_MAX_ARGS 20
#define SYNTH_MAX_TAGS 48

typedef struct {
  int category;
  int difficulty;
  char *source;         /* Warp source (malloc'd) with kernel name `name` */
  char name[48];        /* kernel name */
  int nargs;
  synth_arg args[SYNTH_MAX_ARGS];
  int ndim;             /* launch dims */
  int64_t dims[2];
  int ntags;
  const char *tags[SYNTH_MAX_TAGS]; /* static strings, sorted, unique */
  int lines;            /* source lines */
} synth_kernel;

/* Generates the kernel of (seed, index) in category `category` with
 * difficulty 1..5.  `name` is the kernel (and prefix of function) names.
 * Returns 0, or -1 when out of memory. */
int synth_generate(uint64_t seed, uint64_t index, int category,
                   int difficulty, synth_kernel *out);
void synth_kernel_free(synth_kernel *k);

/* Fills `n` values of an input argument from its seed, as the record's
 * recipe says (floats/ints; vec3 and mat33 as 3 / 9 floats each). */
void synth_fill_input(const synth_arg *a, void *data, int64_t nscalars);

/* vsnprintf for the formats synth uses (%s %d %c %lld %llu %%), much
 * faster; returns the full length, or -1 at any other conversion, having
 * read some of the arguments: start again with vsnprintf (text.c). */
int synth_vformat(char *out, size_t cap, const char *fmt, va_list ap);
/* printf's "%.<prec>g" of v when v is a short exact binary fraction, else
 * -1 (text.c). */
int synth_short_g(char out[48], double v, int prec);

/* Note [near duplicates] (similar.c).  synth_normalize fills nhash (32 hex
 * digits, the structure's hash) and mh (SYNTH_MH_BINS 16-bit MinHash bins
 * as 4 hex digits each) from a kernel's Warp source. */
#define SYNTH_MH_BINS 64
#define SYNTH_MH_SHINGLE 5
#define SYNTH_NEAR_JACCARD 0.8
void synth_normalize(const char *src, char nhash[33], char mh[SYNTH_MH_BINS * 4 + 1]);
/* Records (mh: n signatures, SYNTH_MH_BINS values each, in file order)
 * with an earlier record at estimated Jaccard >= SYNTH_NEAR_JACCARD. */
long long synth_near_duplicates(const uint16_t *mh, long long n);
/* Each of the first `sample` records' best similarity to an earlier one,
 * sorted ascending into out. */
void synth_similarity_sample(const uint16_t *mh, long long sample, double *out);

/* splitmix64, the one PRNG of synth (never rand()). */
uint64_t synth_mix(uint64_t x);

/* Pair `index` of a run as the driver makes it (category round robin over
 * the bit mask `cats`, difficulty from 1 to `difficulty`): fills *k (the
 * kernel is named k<first 12 digits of id>) and id, and returns the Warp
 * source with that name (malloc'd), or NULL when out of memory. */
char *synth_pair_warp(uint64_t seed, long long index, unsigned cats, int difficulty,
                      synth_kernel *k, char id[33]);

/* `kern synth --validate compile` on given CUDA texts, for tests: the n
 * modules (kernels named kern_k_<names[i]>, as kern compiles a synth pair)
 * are compiled as one batch exactly as a run does, a failing batch pair by
 * pair, for `arch` and `output` ("cubin", "ptx", "ltoir"; NULL: the arch's
 * default).  ok[i] is 1 or 0, regs[i] ptxas' register count or -1 (regs
 * may be NULL), and err + i * errcap NVRTC's message for a failure.
 * Returns 0, or -1 without a usable NVRTC (the reason in err). */
int synth_validate_cuda(const char *const *cuda, const char *const *names, int n,
                        const char *arch, const char *output, int *ok, int *regs,
                        char *err, size_t errcap);

/* `kern synth ...`; returns the process exit status. */
int synth_main(int argc, char **argv);

#endif
