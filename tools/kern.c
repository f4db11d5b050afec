/*
 * kern.c -- the `kern` command-line tool.
 *
 * A thin driver over the public API in kern.h: every command is a function
 * that parses its own options, calls the library, and turns a failure into
 * one message and an exit status.  The tool knows nothing the public header
 * does not say, so it doubles as the first user of the API.
 *
 * Exit statuses are part of the interface, because scripts and the test
 * suite branch on them:
 *   0  success
 *   1  the request was understood but failed: a bad SPEC, a missing file,
 *      a compile error, a device that is not there
 *   2  the command line itself is wrong: unknown command or option, a
 *      missing required argument; the message points at --help
 * A one-line "kern: error: ..." goes to stderr in both failure cases, except
 * that a compile error prints the library's multi-line diagnostic
 * (path:line:col, the source line and a caret) as it is.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kern.h"
#include "npy.h"
#include "outfile.h"
#include "spec.h"
#include "suggest.h"

/* `kern bench` lives in src/bench (bench.h). */
int bench_main(int argc, char **argv);
extern const char bench_help[];

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* ---------------------------------------------------------------- help */

static const char help_main[] =
    "Usage: kern COMMAND [OPTIONS]\n"
    "\n"
    "Compile and run kernels written in NVIDIA Warp's kernel dialect on the\n"
    "CPU, CUDA GPUs and OpenCL devices.\n"
    "\n"
    "Commands:\n"
    "  devices    list backends and devices, and why a backend is missing\n"
    "  compile    print the C, CUDA or OpenCL code generated for a file\n"
    "  run        launch one kernel on arguments given on the command line\n"
    "  gradcheck  check a kernel's gradients against finite differences\n"
    "  bench      time a file's kernels on every backend and reference\n"
    "  synth      generate verified (Warp, CUDA) pairs: a dataset and a fuzzer\n"
    "  help       show help for a command: kern help run\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help\n"
    "  -V, --version  print the version\n"
    "\n"
    "Environment:\n"
    "  KERN_DEVICE       default device: cpu, cuda, cuda:1, opencl:0, vulkan:0, auto;\n"
    "                    a list (cuda:0,1, cuda:all) shards 'kern run' and\n"
    "                    adds a group row to 'kern bench'\n"
    "  KERN_NUM_THREADS  CPU backend worker threads (default: one per core)\n"
    "  KERN_CACHE_DIR    compiled-kernel cache (default $XDG_CACHE_HOME/kern,\n"
    "                    else ~/.cache/kern)\n"
    "  KERN_DEBUG        1 checks every array access (kern run does anyway)\n"
    "\n"
    "Exit status: 0 success, 1 error (bad argument value, missing file,\n"
    "compile error, device failure), 2 bad usage (unknown command or option,\n"
    "missing required argument).\n"
    "\n"
    "Run 'kern help COMMAND' (or 'kern COMMAND --help') for the options of a\n"
    "command; the manual page is kern(1), the full reference docs/cli.md.\n";

static const char help_devices[] =
    "Usage: kern devices\n"
    "\n"
    "Lists every backend (cpu, cuda, opencl, vulkan) as available or unavailable with\n"
    "the reason, then each of its devices with the name to select it by:\n"
    "\n"
    "  cpu: available\n"
    "    cpu:0  AMD EPYC 9654  96 cores, 512 GiB\n"
    "  cuda: unavailable (libcuda.so.1 not found)\n"
    "\n"
    "Those names are what 'kern run --device' and $KERN_DEVICE accept.  The\n"
    "last line names the default device and where the choice came from:\n"
    "$KERN_DEVICE, a line of $XDG_CONFIG_HOME/kern/config ('device = cuda:1'),\n"
    "or the built-in 'auto'.\n"
    "Exit status: 0, or 1 if the library cannot start.\n";

static const char help_compile[] =
    "Usage: kern compile FILE [--target c|cuda|opencl|vulkan|ptx] [-o OUT] [--debug]\n"
    "                         [--compact] [--sm N] [--no-native] [--expand]\n"
    "                         [--adjoint K | --tangent K] [--block-dim N]\n"
    "\n"
    "Translates every kernel in the Warp source FILE and prints the generated\n"
    "code, without building or running it.\n"
    "\n"
    "Options:\n"
    "  -t, --target T   c (default), cuda, opencl, vulkan (GLSL compute) or ptx\n"
    "                   (the PTX that CUDA's\n"
    "                   quick tier loads for a module within its subset; a\n"
    "                   module outside it is an error naming the first\n"
    "                   construct the tier does not cover)\n"
    "  --sm N           ptx only: the GPU architecture sm_N (default 90)\n"
    "  --block-dim N    cuda and opencl: the launch's block size, 1 to 1024\n"
    "                   (default 256), where the block's threads exchange\n"
    "                   values (wp.tile(x), tile_from_thread, the scatters,\n"
    "                   tile stacks); the runtime compiles such a module per\n"
    "                   block size\n"
    "  -o, --output OUT write to OUT instead of stdout, through a new unique\n"
    "                   temporary file beside OUT renamed over it, so OUT is\n"
    "                   never half-written\n"
    "  --debug          emit debug mode's bounds checks (see kern run --help)\n"
    "  --compact        CUDA only: the compact form for datasets compiled in\n"
    "                   bulk (one loop, no unrolling, shared __noinline__\n"
    "                   helpers between #ifndef guards); same results,\n"
    "                   slower kernels, 5-10x faster to compile\n"
    "  --no-native      refuse @wp.func_native snippets (native code pasted\n"
    "                   into the program), for files you do not trust\n"
    "  --expand         C only: emit the IR the PTX tier reads, with vectors,\n"
    "                   matrices and composite builtins expanded into scalar\n"
    "                   operations; the first line says whether the expansion\n"
    "                   took the module (KERN_EXPAND=1 does the same for\n"
    "                   kern run on the CPU)\n"
    "  --adjoint K      kernel K's reverse-mode adjoint, adj_K, the kernel\n"
    "                   kern run --adjoint launches (Warp's adjoint=True);\n"
    "                   a construct without an adjoint rule is an error at\n"
    "                   its line\n"
    "  --tangent K      kernel K's forward-mode tangent, tan_K (kern run\n"
    "                   --tangent)\n"
    "  -h, --help       show this help\n"
    "\n"
    "Examples:\n"
    "  kern compile examples/saxpy.py --target cuda\n"
    "  kern compile examples/saxpy.py -t opencl -o saxpy.cl\n"
    "  kern compile examples/saxpy.py -t ptx --sm 80\n"
    "\n"
    "Exit status: 0 success; 1 unreadable file, compile error (printed as\n"
    "path:line:col: error: ... with the source line), unwritable output;\n"
    "2 bad usage.\n";

static const char help_run[] =
    "Usage: kern run FILE KERNEL --dim N[,M...] [NAME=SPEC ...] [OPTIONS]\n"
    "\n"
    "Compiles FILE, launches KERNEL once over a grid of N (or N x M ...)\n"
    "threads with the given arguments, then prints every array argument, or\n"
    "saves it as .npy with --save.\n"
    "\n"
    "A generic KERNEL (typing.Any parameters) runs the first of its\n"
    "wp.overload() instantiations that the arguments fit, preferring one\n"
    "where plain numbers are int32, float32 or bool as in Python; name one\n"
    "exactly as 'KERNEL[T1,T2,...]' (kern compile shows them).  When none\n"
    "fits, it is instantiated for the arguments' types, as wp.launch does:\n"
    "an array SPEC or PATH.npy (its dtype and dimensions) for an array,\n"
    "a typed value (wp.vec3d(1,2,3), float64(2.5)) or a number (int32,\n"
    "float32, bool) for a value, S{...} for a struct S.\n"
    "\n"
    "Every array access is checked by default (debug mode): an index out of\n"
    "bounds fails the launch with the kernel, the source line and column,\n"
    "the index and the shape, and touches no memory.  --unchecked turns the\n"
    "checks off for speed; an out-of-bounds access then corrupts memory.\n"
    "\n"
    "Options:\n"
    "  --dim N[,M...]        launch grid, 1 to 4 dimensions (required)\n"
    "  --backend B           cpu, cuda, opencl, vulkan or auto (the best\n"
    "                        available)\n"
    "  --device NAME         a device as 'kern devices' lists it: cpu,\n"
    "                        cuda:1, opencl:0, vulkan:0 (default: $KERN_DEVICE, else\n"
    "                        auto); an unavailable choice is an error; a\n"
    "                        list (cuda:0,1, cuda:all, cpu:0,0) runs the\n"
    "                        launch sharded over its devices;\n"
    "                        give --backend or --device, not both\n"
    "  --save NAME=PATH.npy  write array NAME to a .npy file instead of\n"
    "                        printing it (repeatable); every PATH is opened\n"
    "                        before the launch, so an unwritable one costs\n"
    "                        nothing\n"
    "  -q, --quiet           print nothing on success\n"
    "  --threads N           CPU worker threads (default $KERN_NUM_THREADS,\n"
    "                        else one per core)\n"
    "  --no-cache            compile afresh, ignoring the kernel cache\n"
    "  --unchecked           do not check array accesses (faster; the\n"
    "                        default checks them); wins over $KERN_DEBUG\n"
    "  --debug               check every array access (the default; kept\n"
    "                        for scripts that ask for it explicitly)\n"
    "  --block-dim N         threads per block, 1 to 1024, as wp.launch's\n"
    "                        block_dim (default 256 on CUDA and OpenCL;\n"
    "                        the CPU runs a block as one thread, as Warp's\n"
    "                        CPU does)\n"
    "  --tiled               launch as wp.launch_tiled: append the block\n"
    "                        size (1 on the CPU) to --dim as the last\n"
    "                        dimension\n"
    "  --no-native           refuse @wp.func_native snippets (native code\n"
    "                        pasted into the program), for files you do\n"
    "                        not trust\n"
    "  --adjoint             launch the kernel, then its reverse-mode adjoint\n"
    "                        (Warp's launch(adjoint=True)) on the same\n"
    "                        arrays, as wp.Tape's backward(): give the\n"
    "                        forward parameters, then adj_NAME=SPEC for\n"
    "                        each parameter NAME (the seeds of the outputs,\n"
    "                        zeros for the inputs); the adj_ arrays of the\n"
    "                        inputs receive the gradients (docs/cli.md)\n"
    "  --tangent             launch the kernel's forward-mode tangent instead\n"
    "                        (a Jacobian-vector product): give the forward\n"
    "                        parameters, then tan_NAME=SPEC for each\n"
    "                        parameter NAME (the direction v for the inputs,\n"
    "                        zeros for the outputs); the outputs are written\n"
    "                        as by a plain run and their tan_ arrays receive\n"
    "                        J v (docs/autodiff.md)\n"
    "  -h, --help            show this help\n"
    "\n"
    "Every kernel parameter is given exactly once as NAME=SPEC.\n"
    "\n"
    "SPEC of a scalar, vector or matrix parameter:\n"
    "  2.5  -3  0x10  1e-3  inf  true  false\n"
    "                        a number, checked against the type: an integer\n"
    "                        parameter refuses 2.5 and out-of-range values\n"
    "  1,2,3                 components of a vector or matrix, row-major,\n"
    "                        comma-separated (mat22: 1,0,0,1); Warp's\n"
    "                        spellings '(1,2,3)' and 'wp.vec3(1,2,3)' work\n"
    "                        too (quote them for the shell)\n"
    "\n"
    "SPEC of an array parameter (T is a Warp type: float32, int32, vec3,\n"
    "mat33d, ... with or without 'wp.'; it must equal the parameter's\n"
    "element type, and the number of sizes must equal its dimensions):\n"
    "  zeros(T,N[,M..])      all zero          zeros(float32,1024)\n"
    "  ones(T,N[,M..])       all one           ones(vec3,16)\n"
    "  full(T,N[,M..],V)     all V (the last number is the value)\n"
    "                                          full(float64,8,8,0.5)\n"
    "  arange(T,N)           1-d; the scalar components count 0,1,2,... in\n"
    "                        row-major order   arange(vec3,4) holds 0..11\n"
    "  rand(T,N[,M..][,seed=S])\n"
    "                        reproducible: SplitMix64 from state S (default\n"
    "                        0); floats in [0,1), integers 0..99, bools 0/1\n"
    "                                          rand(float32,100,seed=7)\n"
    "  PATH.npy              a NumPy file: dtype must match the element's\n"
    "                        scalar type, shape is the array's shape followed\n"
    "                        by (3,) for vec3 or (3, 3) for mat33\n"
    "\n"
    "SPEC of a @wp.struct parameter S (docs/cli.md has the details):\n"
    "  {a=1,v=(1,2,3),inner={k=3},inner.w=2,xs=arange(float32,4)}\n"
    "                        fields by name (dotted or nested), the rest\n"
    "                        zero; an array field takes an array SPEC and\n"
    "                        --save s.xs=PATH saves it after the launch;\n"
    "                        S{...} names the struct first (required for\n"
    "                        a generic kernel's typing.Any parameter)\n"
    "SPEC of an array of structs: zeros(S,N..), ones(S,N..), arange(S,N),\n"
    "  rand(S,N..[,seed=S]) over the scalars of every element's fields in\n"
    "  order, or PATH.npy holding records (NumPy's save of an array of\n"
    "  Warp's S.numpy_dtype()); --save writes records the same way\n"
    "SPEC of a wp.indexedarray parameter (also as a struct field):\n"
    "  indexed(DATA[;IDX0[;IDX1..]])\n"
    "                        DATA an array SPEC; each IDX the index array of\n"
    "                        a dimension: ':' (none), [i,j,..] or an int32\n"
    "                        1-d array SPEC; the data array is printed/saved\n"
    "                                          indexed(arange(float32,8);[7,0])\n"
    "\n"
    "rand, exactly: state += 0x9E3779B97F4A7C15; z = state;\n"
    "  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;\n"
    "  z = (z ^ (z >> 27)) * 0x94D049BB133111EB; z ^= z >> 31;\n"
    "  float: (z >> 11) * 2^-53 in double, then rounded to T;\n"
    "  integer: z % 100; bool: z & 1; drawn over all scalars in row-major\n"
    "  order.\n"
    "\n"
    "Examples (run from the repository's root):\n"
    "  kern run examples/saxpy.py saxpy --dim 1000 a=2.5 \\\n"
    "      x='rand(float32,1000,seed=1)' y='zeros(float32,1000)' --save y=y.npy\n"
    "  kern run examples/matrices.py matrices --dim 4 \\\n"
    "      rot='wp.mat33(0,-1,0,1,0,0,0,0,2)' m='ones(mat33,4)' \\\n"
    "      v='arange(vec3,4)' r='zeros(vec3,4)' t='zeros(vec3,4)' \\\n"
    "      det='zeros(float32,4)' --device cpu\n"
    "\n"
    "Environment: KERN_DEVICE (default device), KERN_NUM_THREADS,\n"
    "KERN_CACHE_DIR (compiled-kernel cache).\n"
    "\n"
    "Exit status: 0 success; 1 bad SPEC, unknown, missing or repeated\n"
    "parameter, unreadable file, compile error, device or launch failure;\n"
    "2 bad usage (unknown option, missing FILE, KERNEL or --dim).\n";

/* ---------------------------------------------------------------- errors */

static void error(const char *fmt, ...) {
  va_list ap;
  fputs("kern: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* Bad usage: one line, then where to look, and exit status 2. */
static int usage(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fputs("kern: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'kern%s%s --help'.\n", cmd ? " " : "",
          cmd ? cmd : "");
  return EXIT_USAGE;
}

/* Reports a failed library call.  A compile diagnostic is already complete
 * ("path:line:col: error: ..." with the source line and a caret), so it is
 * printed untouched; anything else gets the usual one-line prefix. */
static int lib_error(kern_context *ctx, kern_status st, const char *what) {
  const char *msg = ctx ? kern_last_error(ctx) : "";
  if (st == KERN_ERROR_COMPILE && msg[0]) {
    size_t n = strlen(msg);
    fputs(msg, stderr);
    if (msg[n - 1] != '\n') fputc('\n', stderr);
  } else if (msg[0]) {
    error("%s", msg);
  } else {
    error("%s: %s", what, kern_status_string(st));
  }
  return EXIT_FAIL;
}

/* "; did you mean 'NAME'?" when one candidate is a likely typo of word,
 * else "", into buf; returns buf. */
static const char *did_you_mean(const char *word, size_t len,
                                const char *const *cands, size_t n,
                                char *buf, size_t size) {
  const char *best = suggest_best(word, len, cands, n);
  buf[0] = '\0';
  if (best) snprintf(buf, size, "; did you mean '%s'?", best);
  return buf;
}

/* ---------------------------------------------------------------- options */

static int is_help(const char *a) {
  return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

/* Matches argv[*i] against an option that takes a value, spelled
 * "--long VALUE", "--long=VALUE" or "-s VALUE" (short may be NULL).
 * Returns 1 and sets *val (advancing *i past a separate value), 0 when the
 * argument is another option, -1 when the value is missing. */
static int opt_value(int argc, char **argv, int *i, const char *lng,
                     const char *shrt, const char **val) {
  const char *a = argv[*i];
  size_t n = strlen(lng);
  if (strncmp(a, lng, n) == 0 && a[n] == '=') {
    *val = a + n + 1;
    return 1;
  }
  if (strcmp(a, lng) != 0 && !(shrt && strcmp(a, shrt) == 0)) return 0;
  if (*i + 1 >= argc) return -1;
  *val = argv[++*i];
  return 1;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = infile_open(path);
  char *buf = NULL;
  size_t cap = 0, n = 0;
  if (!f) {
    error("cannot open '%s': %s", path, strerror(errno));
    return NULL;
  }
  for (;;) {
    if (n + 4096 + 1 > cap) {
      cap = cap ? cap * 2 : 65536;
      char *nb = realloc(buf, cap);
      if (!nb) {
        error("'%s': out of memory", path);
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    /* Past the library's limit the library reports it; reading on would
     * let /dev/zero exhaust memory. */
    if (got == 0 || n > KERN_MAX_SOURCE_SIZE) break;
  }
  if (ferror(f)) {
    error("cannot read '%s': %s", path, strerror(errno));
    free(buf);
    fclose(f);
    return NULL;
  }
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Writes text to path through a unique temporary and a rename
 * (outfile.h), so a failure never leaves half a file where a build expects
 * a whole one, and nothing planted beside path is followed. */
static int write_file_atomic(const char *path, const char *text) {
  char err[1024];
  outfile o;
  size_t tlen = strlen(text);
  if (outfile_open(&o, path, err, sizeof err) != 0) {
    error("%s", err);
    return -1;
  }
  if (fwrite(text, 1, tlen, o.f) != tlen) {
    snprintf(err, sizeof err, "cannot write '%s': %s", path, strerror(errno));
    outfile_discard(&o);
    error("%s", err);
    return -1;
  }
  if (outfile_commit(&o, err, sizeof err) != 0) {
    error("%s", err);
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------- devices */

static void format_memory(uint64_t bytes, char *buf, size_t size) {
  double gib = (double)bytes / (1024.0 * 1024.0 * 1024.0);
  if (gib >= 10) snprintf(buf, size, "%.0f GiB", gib);
  else if (gib >= 1) snprintf(buf, size, "%.1f GiB", gib);
  else snprintf(buf, size, "%.0f MiB", (double)bytes / (1024.0 * 1024.0));
}

/* The device's properties as fields (kern_device_info), one line under
 * the device's own; what the backend cannot tell is left out. */
static void print_properties(const kern_device_info *di) {
  char mem[32];
  format_memory(di->memory_bytes, mem, sizeof mem);
  printf("      ");
  if (di->backend == KERN_BACKEND_CUDA)
    printf("compute capability %d.%d, ", di->capability_major,
           di->capability_minor);
  else if (di->backend == KERN_BACKEND_OPENCL)
    printf("OpenCL %d.%d, ", di->capability_major, di->capability_minor);
  else if (di->backend == KERN_BACKEND_VULKAN)
    printf("Vulkan %d.%d, ", di->capability_major, di->capability_minor);
  printf("%d compute units, %s, fp64 %s, int64 atomics %s", di->compute_units,
         mem, di->fp64 ? "yes" : "no", di->int64_atomics ? "yes" : "no");
  if (di->warp_size) printf(", warp %d", di->warp_size);
  if (di->max_group_size) printf(", max group %d", di->max_group_size);
  if (di->driver_version[0]) printf(", driver %s", di->driver_version);
  int uuid = 0;
  for (int i = 0; i < 16; i++) uuid |= di->uuid[i];
  if (uuid) {
    printf(", uuid ");
    for (int i = 0; i < 16; i++)
      printf("%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
             di->uuid[i]);
  }
  if (di->pci_bus_id[0]) printf(", pci %s", di->pci_bus_id);
  printf("\n");
}

static int cmd_devices(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) {
      fputs(help_devices, stdout);
      return EXIT_OK;
    }
    if (argv[i][0] == '-')
      return usage("devices", "unknown option '%s'", argv[i]);
    return usage("devices", "unexpected argument '%s'", argv[i]);
  }

  kern_context *ctx;
  kern_status st = kern_context_new(NULL, &ctx);
  if (st != KERN_SUCCESS) {
    error("cannot start kern: %s", kern_status_string(st));
    return EXIT_FAIL;
  }
  int ndev = kern_device_count(ctx);
  for (int b = 0; b < KERN_BACKEND_COUNT; b++) {
    kern_backend_info bi = KERN_BACKEND_INFO_INIT;
    st = kern_backend_get(ctx, (kern_backend_kind)b, &bi);
    if (st != KERN_SUCCESS) {
      int rc = lib_error(ctx, st, "cannot query backend");
      kern_context_free(ctx);
      return rc;
    }
    if (bi.available)
      printf("%s: available\n", bi.name);
    else
      printf("%s: unavailable (%s)\n", bi.name,
             bi.reason && bi.reason[0] ? bi.reason : "no devices");
    for (int d = 0; d < ndev; d++) {
      kern_device_info di = KERN_DEVICE_INFO_INIT;
      if (kern_device_get(ctx, d, &di) != KERN_SUCCESS ||
          (int)di.backend != b)
        continue;
      char id[32], desc[300];
      snprintf(id, sizeof id, "%s:%d", bi.name, di.index);
      if (di.description[0]) {
        snprintf(desc, sizeof desc, "%s", di.description);
      } else {
        /* The library's description is preferred; this is only a fallback
         * so the line is never bare. */
        char mem[32];
        format_memory(di.memory_bytes, mem, sizeof mem);
        snprintf(desc, sizeof desc, "%d %s, %s", di.compute_units,
                 b == KERN_BACKEND_CPU    ? "cores"
                 : b == KERN_BACKEND_CUDA ? "SMs"
                                          : "compute units",
                 mem);
      }
      printf("  %s  %s  %s\n", id, di.name, desc);
      print_properties(&di);
    }
  }
  /* The default device and where that choice comes from ($KERN_DEVICE,
   * the config file's line, or the built-in "auto"). */
  char chosen[256], origin[4200];
  st = kern_device_choice(ctx, chosen, sizeof chosen, origin, sizeof origin);
  if (st != KERN_SUCCESS) {
    int rc = lib_error(ctx, st, "cannot read the device choice");
    kern_context_free(ctx);
    return rc;
  }
  kern_device dd;
  if (kern_device_find(ctx, NULL, &dd) == KERN_SUCCESS) {
    kern_device_info di = KERN_DEVICE_INFO_INIT;
    kern_backend_info bi = KERN_BACKEND_INFO_INIT;
    if (kern_device_get(ctx, dd, &di) == KERN_SUCCESS &&
        kern_backend_get(ctx, di.backend, &bi) == KERN_SUCCESS)
      printf("default device: %s:%d ('%s' from %s)\n", bi.name, di.index,
             chosen, origin);
  } else {
    printf("default device: none ('%s' from %s: %s)\n", chosen, origin,
           kern_last_error(ctx));
  }
  /* A list names a group too (docs/multigpu.md). */
  size_t cl = strlen(chosen);
  if (strchr(chosen, ',') || (cl > 4 && strcmp(chosen + cl - 4, ":all") == 0)) {
    kern_group_options go = KERN_GROUP_OPTIONS_INIT;
    go.devices = chosen;
    go.mpi = -1;
    kern_group *g;
    if (kern_group_new(ctx, &go, &g) == KERN_SUCCESS) {
      printf("device group: %d shards, collectives through %s\n",
             kern_group_size(g), kern_group_transport(g));
      kern_group_free(g);
    } else {
      printf("device group: none ('%s': %s)\n", chosen, kern_last_error(ctx));
    }
  }
  kern_context_free(ctx);
  return EXIT_OK;
}

/* ---------------------------------------------------------------- compile */

static int cmd_compile(int argc, char **argv) {
  const char *file = NULL, *target = "c", *out = NULL, *sm = NULL;
  const char *adjoint = NULL, *tangent = NULL, *block_dim = NULL;
  int only_args = 0, debug = 0, compact = 0, no_native = 0, expand = 0;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int r;
    if (!only_args && a[0] == '-' && a[1] != '\0') {
      if (is_help(a)) {
        fputs(help_compile, stdout);
        return EXIT_OK;
      }
      if (strcmp(a, "--") == 0) {
        only_args = 1;
        continue;
      }
      if (strcmp(a, "--debug") == 0) {
        debug = 1;
        continue;
      }
      if (strcmp(a, "--compact") == 0) {
        compact = 1;
        continue;
      }
      if (strcmp(a, "--no-native") == 0) {
        no_native = 1;
        continue;
      }
      if (strcmp(a, "--expand") == 0) {
        expand = 1;
        continue;
      }
      if ((r = opt_value(argc, argv, &i, "--target", "-t", &target)) ||
          (r = opt_value(argc, argv, &i, "--output", "-o", &out)) ||
          (r = opt_value(argc, argv, &i, "--sm", NULL, &sm)) ||
          (r = opt_value(argc, argv, &i, "--adjoint", NULL, &adjoint)) ||
          (r = opt_value(argc, argv, &i, "--tangent", NULL, &tangent)) ||
          (r = opt_value(argc, argv, &i, "--block-dim", NULL, &block_dim))) {
        if (r < 0) return usage("compile", "%s needs a value", a);
        continue;
      }
      return usage("compile", "unknown option '%s'", a);
    }
    if (file) return usage("compile", "unexpected argument '%s'", a);
    file = a;
  }
  if (!file) return usage("compile", "missing FILE");
  if (strcmp(target, "c") && strcmp(target, "cuda") && strcmp(target, "opencl") &&
      strcmp(target, "vulkan") && strcmp(target, "ptx"))
    return usage("compile", "unknown target '%s' (use c, cuda, opencl, vulkan or ptx)",
                 target);
  if (compact && strcmp(target, "cuda"))
    return usage("compile", "--compact is for --target cuda, not '%s'", target);
  if (sm && strcmp(target, "ptx"))
    return usage("compile", "--sm is for --target ptx, not '%s'", target);
  if (expand && strcmp(target, "c"))
    return usage("compile", "--expand is for --target c, not '%s'", target);
  if (adjoint && tangent)
    return usage("compile", "--adjoint and --tangent: give one");
  if ((adjoint || tangent) && (compact || strcmp(target, "ptx") == 0))
    return usage("compile", "--%s is for --target c, cuda, opencl or vulkan",
                 adjoint ? "adjoint" : "tangent");
  /* the C emitter reads the expanded IR (Note [expansion] in ir/expand.c);
   * the library takes the request from the environment, as kern run does */
  if (expand && setenv("KERN_EXPAND", "1", 1) != 0)
    return usage("compile", "--expand: cannot set KERN_EXPAND");
  char ptx_target[32];
  if (strcmp(target, "ptx") == 0) {
    char *end;
    long n = sm ? strtol(sm, &end, 10) : 90;
    if (sm && (end == sm || *end || n <= 0 || n > 1000))
      return usage("compile", "--sm needs an SM version such as 90, not '%s'", sm);
    snprintf(ptx_target, sizeof ptx_target, "ptx:%ld", n);
    target = ptx_target;
  }

  /* the library's target+adjoint:K form (kern_compile_source) */
  char diff_target[512];
  if (adjoint || tangent) {
    const char *k = adjoint ? adjoint : tangent;
    if (!*k || strlen(k) > 400)
      return usage("compile", "--%s needs a kernel name",
                   adjoint ? "adjoint" : "tangent");
    snprintf(diff_target, sizeof diff_target, "%s+%s:%s", target,
             adjoint ? "adjoint" : "tangent", k);
    target = diff_target;
  }

  /* the library's target+block:N form (kern_compile_source) */
  char block_target[64];
  if (block_dim) {
    char *end;
    long n = strtol(block_dim, &end, 10);
    if (strcmp(target, "cuda") && strcmp(target, "opencl"))
      return usage("compile", "--block-dim is for --target cuda or opencl, "
                   "not '%s'", target);
    if (end == block_dim || *end || n < 1 || n > 1024)
      return usage("compile", "--block-dim '%s' is not an integer from 1 to "
                   "1024", block_dim);
    snprintf(block_target, sizeof block_target, "%s+block:%ld",
             compact ? "cuda-compact" : target, n);
    target = block_target;
    compact = 0;
  }

  size_t len;
  char *src = read_file(file, &len);
  if (!src) return EXIT_FAIL;

  kern_context *ctx;
  kern_options kopts = KERN_OPTIONS_INIT;
  kopts.debug = debug;
  kopts.no_native = no_native;
  kopts.no_devices = 1; /* compiling loads no vendor library */
  kern_status st = kern_context_new(&kopts, &ctx);
  if (st != KERN_SUCCESS) {
    free(src);
    error("cannot start kern: %s", kern_status_string(st));
    return EXIT_FAIL;
  }
  char *code = NULL;
  int rc = EXIT_OK;
  st = kern_compile_source(ctx, file, src, len, compact ? "cuda-compact" : target,
                           &code);
  if (st != KERN_SUCCESS) {
    rc = lib_error(ctx, st, file);
  } else if (out) {
    if (write_file_atomic(out, code) != 0) rc = EXIT_FAIL;
  } else {
    fputs(code, stdout);
    if (fflush(stdout) != 0) {
      error("cannot write output: %s", strerror(errno));
      rc = EXIT_FAIL;
    }
  }
  kern_free(code);
  kern_context_free(ctx);
  free(src);
  return rc;
}

/* ---------------------------------------------------------------- run */

typedef struct assign {
  const char *name; /* points into argv; not NUL-terminated at '=' */
  size_t name_len;
  const char *value;
  int param;        /* index of the parameter it names */
} assign;

/* Splits "NAME=VALUE"; returns 0 unless NAME is an identifier. */
/* NAME=VALUE; NAME may be dotted (--save s.arr=PATH: an array field). */
static int split_assign(const char *a, assign *out) {
  const char *eq = strchr(a, '=');
  if (!eq || eq == a) return 0;
  for (const char *c = a; c < eq; c++)
    if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
          (c > a && ((*c >= '0' && *c <= '9') || *c == '.'))))
      return 0;
  out->name = a;
  out->name_len = (size_t)(eq - a);
  out->value = eq + 1;
  out->param = -1;
  return 1;
}

static int find_param(const kern_param_info *ps, int n, const char *name,
                      size_t len) {
  for (int i = 0; i < n; i++)
    if (strlen(ps[i].name) == len && strncmp(ps[i].name, name, len) == 0)
      return i;
  return -1;
}

/* "x, y, s" into buf, for messages that list what exists. */
static void list_params(const kern_param_info *ps, int n, char *buf,
                        size_t size) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && k < size; i++)
    k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? ", " : "",
                          ps[i].name);
  if (n == 0) snprintf(buf, size, "none");
}

typedef struct run_opts {
  const char *file, *kernel, *dim, *backend, *device;
  int quiet, no_cache, threads, debug, no_native;
  int block_dim, tiled; /* --block-dim N (0: the default), --tiled */
  int adjoint;          /* --adjoint: launch the kernel's adjoint */
  int tangent;          /* --tangent: launch the kernel's tangent instead */
  assign *args;
  int nargs;
  assign *saves;
  int nsaves;
} run_opts;

static int parse_run_args(int argc, char **argv, run_opts *o) {
  int only_args = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    int r;
    if (!only_args && a[0] == '-' && a[1] != '\0') {
      if (is_help(a)) {
        fputs(help_run, stdout);
        return -1;
      }
      if (strcmp(a, "--") == 0) {
        only_args = 1;
        continue;
      }
      if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
        o->quiet = 1;
        continue;
      }
      if (strcmp(a, "--no-cache") == 0) {
        o->no_cache = 1;
        continue;
      }
      if (strcmp(a, "--debug") == 0) {
        o->debug = 1;
        continue;
      }
      if (strcmp(a, "--unchecked") == 0) {
        o->debug = 0;
        continue;
      }
      if (strcmp(a, "--no-native") == 0) {
        o->no_native = 1;
        continue;
      }
      if (strcmp(a, "--tiled") == 0) {
        o->tiled = 1;
        continue;
      }
      if (strcmp(a, "--tangent") == 0 || strcmp(a, "--adjoint") == 0) {
        if (o->adjoint || o->tangent)
          return usage("run", "one of --adjoint and --tangent, once");
        if (a[2] == 'a')
          o->adjoint = 1;
        else
          o->tangent = 1;
        continue;
      }
      if ((r = opt_value(argc, argv, &i, "--block-dim", NULL, &v))) {
        char *end;
        if (r < 0) return usage("run", "%s needs a value", a);
        long t = strtol(v, &end, 10);
        if (*v == '\0' || *end != '\0' || t < 1 || t > 1024)
          return usage("run", "--block-dim '%s' is not an integer from 1 to "
                              "1024", v);
        o->block_dim = (int)t;
        continue;
      }
      if ((r = opt_value(argc, argv, &i, "--dim", NULL, &o->dim)) ||
          (r = opt_value(argc, argv, &i, "--backend", NULL, &o->backend)) ||
          (r = opt_value(argc, argv, &i, "--device", NULL, &o->device))) {
        if (r < 0) return usage("run", "%s needs a value", a);
        continue;
      }
      if ((r = opt_value(argc, argv, &i, "--threads", NULL, &v))) {
        char *end;
        if (r < 0) return usage("run", "%s needs a value", a);
        long t = strtol(v, &end, 10);
        if (*v == '\0' || *end != '\0' || t < 1 || t > 65536)
          return usage("run", "--threads '%s' is not a positive integer", v);
        o->threads = (int)t;
        continue;
      }
      if ((r = opt_value(argc, argv, &i, "--save", NULL, &v))) {
        if (r < 0) return usage("run", "%s needs NAME=PATH.npy", a);
        if (!split_assign(v, &o->saves[o->nsaves]) ||
            o->saves[o->nsaves].value[0] == '\0')
          return usage("run", "--save '%s' is not NAME=PATH.npy", v);
        o->nsaves++;
        continue;
      }
      static const char *const run_options[] = {
          "--dim", "--backend", "--device", "--save", "--quiet", "--threads",
          "--no-cache", "--unchecked", "--debug", "--no-native", "--help",
          "--block-dim", "--tiled", "--adjoint", "--tangent"};
      const char *eq = strchr(a, '=');
      char hint[160];
      return usage("run", "unknown option '%s'%s", a,
                   did_you_mean(a, eq ? (size_t)(eq - a) : strlen(a),
                                run_options,
                                sizeof run_options / sizeof *run_options,
                                hint, sizeof hint));
    }
    if (!o->file) {
      o->file = a;
    } else if (!o->kernel) {
      o->kernel = a;
    } else if (split_assign(a, &o->args[o->nargs])) {
      o->nargs++;
    } else {
      return usage("run",
                   "unexpected argument '%s' (give parameters as NAME=SPEC)",
                   a);
    }
  }
  if (!o->file) return usage("run", "missing FILE");
  if (!o->kernel) return usage("run", "missing KERNEL");
  if (!o->dim) return usage("run", "missing --dim N[,M...] (the launch grid)");
  if (o->backend && strcmp(o->backend, "cpu") && strcmp(o->backend, "cuda") &&
      strcmp(o->backend, "opencl") && strcmp(o->backend, "vulkan") &&
      strcmp(o->backend, "auto"))
    return usage("run", "unknown backend '%s' (use cpu, cuda, opencl, vulkan or auto)",
                 o->backend);
  if (o->backend && o->device)
    return usage("run", "give --backend or --device, not both");
  return 0;
}

/* Everything one `kern run` holds, so its steps can be separate functions
 * that share one clean-up (run_free).  Arrays indexed by parameter have
 * np + 1 entries, so a kernel without parameters still gets non-NULL
 * allocations. */
typedef struct run_state {
  run_opts o;
  kern_context *ctx;
  kern_device dev;
  const char *devname; /* --device or --backend, NULL for the default */
  kern_module *mod;
  kern_kernel *k;
  kern_kernel *fwd; /* --adjoint: the forward kernel, launched first */
  int np;
  kern_param_info *ps;
  spec_array *hosts;
  kern_array **arrays;
  unsigned char **values;
  kern_arg *kargs;
  int *save_of; /* index into o.saves, or -1 */
  /* @wp.struct parameters (spec_struct.c): the layout of each, the array
   * fields a struct value names, their device arrays, and for each --save
   * the array field it names ("s.arr"), or -1 */
  spec_struct *structs;
  spec_struct_arrays *sarrays;
  kern_array **sdev; /* np * SPEC_MAX_STRUCT_ARRAYS */
  int *save_field;
  const char **pnames;
  outfile *outs; /* one per --save, opened before the launch */
  int64_t dims[KERN_MAX_DIMS];
  int ndims;
  /* A device list ("cuda:0,1", "cuda:all", "cpu:0,0"): the launch runs
   * sharded over a group (run_group). */
  kern_group *group;
  kern_sharded **sharded;
  /* wp.indexedarray parameters (spec_indexed.c): the data array is
   * hosts[p] / arrays[p]; these are the index arrays and the description
   * the launch takes */
  spec_indexed *ixs;
  kern_array **ixdev; /* np * KERN_MAX_DIMS */
  kern_array **sixdev; /* np * SPEC_MAX_STRUCT_ARRAYS * KERN_MAX_DIMS */
  kern_indexed *ia;
} run_state;

/* Note [generic kernels]: a kernel with typing.Any parameters is in the
 * module once per wp.overload() instantiation, named NAME[T1,T2,...]
 * (lower/check_generic.c).  `kern run FILE NAME` picks the first of them,
 * in source order, whose parameters every NAME=SPEC fits (names, array
 * element types and dimensions, values that parse as the type),
 * preferring one where each plain number has the type Python code would
 * give wp.launch (int32, float32, bool), as wp.launch picks an overload
 * from its arguments. */
/* The type a plain number has in Python code that wp.launch passes to a
 * typing.Any parameter: an int is int32, a float float32, True bool. */
static kern_scalar natural_scalar(const char *v) {
  if (!strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "True") ||
      !strcmp(v, "False"))
    return KERN_SCALAR_BOOL;
  return strpbrk(v, ".eEnN") && strncmp(v, "0x", 2) ? KERN_SCALAR_FLOAT32
                                                   : KERN_SCALAR_INT32;
}

static bool instance_fits(const kern_kernel *k, const run_opts *o,
                          bool strict) {
  int np = kern_kernel_param_count(k);
  if (np != o->nargs)
    return false;
  char err[256];
  for (int a = 0; a < o->nargs; a++) {
    kern_param_info p = KERN_PARAM_INFO_INIT;
    int i;
    for (i = 0; i < np; i++) {
      if (kern_kernel_param(k, i, &p) != KERN_SUCCESS)
        return false;
      if (strlen(p.name) == o->args[a].name_len &&
          !strncmp(p.name, o->args[a].name, o->args[a].name_len))
        break;
    }
    if (i == np)
      return false;
    if (p.kind == KERN_PARAM_ARRAY) {
      spec_array h;
      memset(&h, 0, sizeof h);
      int bad = spec_parse_array(&p, o->args[a].value, &h, err, sizeof err);
      spec_array_free(&h);
      if (bad)
        return false;
    } else if (p.kind == KERN_PARAM_INDEXED) {
      spec_array h;
      spec_indexed ix;
      int bad = spec_parse_indexed(&p, o->args[a].value, &h, &ix, err,
                                   sizeof err);
      if (!bad) {
        spec_array_free(&h);
        spec_indexed_free(&ix);
      }
      if (bad)
        return false;
    } else {
      unsigned char buf[16 * 16 * 8 + 16];
      if (strict && p.type.rows * p.type.cols == 1 &&
          p.type.scalar != natural_scalar(o->args[a].value))
        return false;
      if (kern_type_size(p.type) > sizeof buf - 16 ||
          spec_parse_value(&p, o->args[a].value, buf, err, sizeof err) != 0)
        return false;
    }
  }
  return true;
}

static bool is_instance_of(const char *name, const char *base) {
  size_t n = strlen(base);
  return !strncmp(name, base, n) && name[n] == '[';
}

static bool pick_instance(run_state *r, const run_opts *o, kern_kernel **out) {
  int nk = kern_module_kernel_count(r->mod);
  /* first where every plain number has the type Python gives it, as
   * wp.launch would choose; then the first where they all convert */
  for (int strict = 1; strict >= 0; strict--)
    for (int i = 0; i < nk; i++) {
      const char *name = kern_module_kernel_name(r->mod, i);
      kern_kernel *k;
      if (!is_instance_of(name, o->kernel) ||
          kern_module_get_kernel(r->mod, name, &k) != KERN_SUCCESS)
        continue;
      if (instance_fits(k, o, strict)) {
        *out = k;
        return true;
      }
    }
  return false;
}

/* The element type and dimensions an array SPEC names: zeros(T,N..),
 * ones(T,N..), full(T,N..,V), arange(T,N), rand(T,N..[,seed=S]).  False
 * for anything else (a .npy file, whose vectors look like a float array
 * with one more dimension, or a struct type). */
static bool spec_array_type(const char *v, kern_param_info *t) {
  /* indexed(DATA;...): the data array's, as an indexed array */
  if (!strncmp(v, "indexed(", 8)) {
    if (!spec_array_type(v + 8, t)) return false;
    t->kind = KERN_PARAM_INDEXED;
    return true;
  }
  static const char *const forms[] = {"zeros(", "ones(", "full(", "arange(",
                                      "rand("};
  const char *p = NULL;
  int form = -1;
  for (int f = 0; f < 5 && !p; f++)
    if (!strncmp(v, forms[f], strlen(forms[f]))) {
      p = v + strlen(forms[f]);
      form = f;
    }
  const char *comma = p ? strchr(p, ',') : NULL;
  if (!comma || comma - p >= 64) return false;
  char tn[64];
  memcpy(tn, p, (size_t)(comma - p));
  tn[comma - p] = 0;
  if (kern_type_parse(tn, &t->type) != KERN_SUCCESS) return false;
  int n = 0;
  for (const char *c = comma; *c && *c != ')'; c++)
    if (*c == ',' && strncmp(c + 1, "seed=", 5)) n++;
  if (form == 2) n--; /* full's last number is the value */
  t->kind = KERN_PARAM_ARRAY;
  t->ndim = n;
  return n >= 1 && n <= 4;
}

/* Note [launch instantiation]: a generic kernel that no wp.overload()
 * instantiation of the source fits is instantiated for the arguments, as
 * wp.launch does (kern_module_instantiate_types): an array SPEC names its
 * element type and dimensions, a plain number is what Python code would
 * pass (int32, float32, bool); spec_generic.c tells .npy files (their
 * dtype and dimensions, as wp.array(np.load(f)) has), typed values
 * (wp.vec3(1,2,3)), struct values (S{...}) and arrays of structs
 * (zeros(S,N)); a tuple or a nameless {...} does not say its type, and
 * then the user is asked for a wp.overload().  Returns EXIT_OK with r->k set, EXIT_FAIL after saying
 * why, or -1 when o->kernel is not a generic kernel. */
static int instantiate_for_specs(run_state *r, const run_opts *o) {
  int np = kern_module_generic_param_count(r->mod, o->kernel);
  if (np < 0) return -1;
  kern_param_info *t = calloc((size_t)(np ? np : 1), sizeof *t);
  /* the struct names the SPECs give (S{...}, zeros(S,N)) */
  char (*names)[128] = calloc((size_t)(np ? np : 1), sizeof *names);
  if (!t || !names) {
    free(t);
    free(names);
    error("out of memory");
    return EXIT_FAIL;
  }
  for (int i = 0; i < np; i++) {
    kern_param_info p = KERN_PARAM_INFO_INIT;
    kern_status st = kern_module_generic_param(r->mod, o->kernel, i, &p);
    if (st != KERN_SUCCESS) {
      free(t);
      free(names);
      return lib_error(r->ctx, st, o->kernel);
    }
    t[i] = p; /* a parameter that is not generic keeps its type */
    if (p.type.scalar != KERN_SCALAR_COUNT) continue;
    const char *v = NULL;
    for (int a = 0; a < o->nargs; a++)
      if (strlen(p.name) == o->args[a].name_len &&
          !strncmp(p.name, o->args[a].name, o->args[a].name_len))
        v = o->args[a].value;
    bool ok = false;
    int told = 0;
    char why[600] = "";
    if (v && spec_array_type(v, &t[i])) {
      ok = true;
    } else if (v && !strpbrk(v, ",({") && !strstr(v, ".npy")) {
      t[i].kind = KERN_PARAM_VALUE;
      t[i].type.kind = KERN_KIND_SCALAR;
      t[i].type.scalar = natural_scalar(v);
      t[i].type.rows = t[i].type.cols = 1;
      ok = true;
    } else if (v) {
      /* .npy files, typed values and structs (spec_generic.c) */
      told = spec_generic_type(v, &t[i], names[i], sizeof names[i], why,
                               sizeof why);
      ok = told == 1;
    }
    if (told < 0) {
      error("%s: %s", p.name, why);
      free(t);
      free(names);
      return EXIT_FAIL;
    }
    if (!ok) {
      error("the generic kernel '%s' has no wp.overload() instantiation "
            "these arguments fit, and the type of its parameter '%s' cannot "
            "be told from %s%s%s%s%s; add wp.overload(%s, [...]) to %s",
            o->kernel, p.name, v ? "'" : "", v ? v : "a missing argument",
            v ? "'" : "", why[0] ? ": " : "", why, o->kernel, o->file);
      free(t);
      free(names);
      return EXIT_FAIL;
    }
  }
  kern_status st = kern_module_instantiate_types(r->mod, o->kernel, np, t,
                                                 &r->k);
  free(t);
  free(names);
  if (st != KERN_SUCCESS) return lib_error(r->ctx, st, o->kernel);
  return EXIT_OK;
}

/* A generic kernel none of whose instantiations fits: says so, and lists
 * them.  False when o->kernel is not a generic kernel's name. */
static bool generic_names(run_state *r, const run_opts *o) {
  char names[1024];
  size_t n = 0;
  int nk = kern_module_kernel_count(r->mod), found = 0;
  names[0] = '\0';
  for (int i = 0; i < nk && n < sizeof names; i++) {
    const char *name = kern_module_kernel_name(r->mod, i);
    if (is_instance_of(name, o->kernel))
      n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
                            found++ ? ", " : "", name);
  }
  if (!found)
    return false;
  error("no instantiation of the generic kernel '%s' fits these arguments "
        "(its instantiations: %s); add one with wp.overload(%s, [...]) in "
        "%s, or name one: kern run %s '%s[...]'", o->kernel, names,
        o->kernel, o->file, o->file, o->kernel);
  return true;
}

/* Starts a context on the chosen device and finds the kernel; each step
 * says which of the user's names it could not use. */
static int run_load(run_state *r) {
  run_opts *o = &r->o;
  /* Check the file before starting devices, for a plain message. */
  /* Without opening it: a FIFO's one writer would be spent on the check
   * and the library's open would then wait forever. */
  struct stat sb;
  int e = stat(o->file, &sb) != 0 ? errno
          : S_ISDIR(sb.st_mode)    ? EISDIR
          : access(o->file, R_OK) != 0 ? errno
                                       : 0;
  if (e) {
    error("cannot open '%s': %s", o->file, strerror(e));
    return EXIT_FAIL;
  }

  /* The command line wins over the environment: the library ORs
   * $KERN_DEBUG into the option, so --unchecked has to clear it. */
  if (!o->debug) unsetenv("KERN_DEBUG");
  kern_options kopts = KERN_OPTIONS_INIT;
  kopts.num_threads = o->threads;
  kopts.no_cache = o->no_cache;
  kopts.debug = o->debug;
  kopts.no_native = o->no_native;
  kern_status st = kern_context_new(&kopts, &r->ctx);
  if (st != KERN_SUCCESS) {
    error("cannot start kern: %s", kern_status_string(st));
    r->ctx = NULL;
    return EXIT_FAIL;
  }

  r->devname = o->device ? o->device : o->backend;
  st = kern_device_find(r->ctx, r->devname, &r->dev);
  if (st != KERN_SUCCESS) return lib_error(r->ctx, st, "cannot select a device");
  st = kern_module_load_file(r->ctx, r->dev, o->file, &r->mod);
  if (st != KERN_SUCCESS) return lib_error(r->ctx, st, o->file);
  st = kern_module_get_kernel(r->mod, o->kernel, &r->k);
  if (st != KERN_SUCCESS && pick_instance(r, o, &r->k))
    st = KERN_SUCCESS;
  if (st != KERN_SUCCESS) {
    int rc = instantiate_for_specs(r, o);
    if (rc == EXIT_OK) st = KERN_SUCCESS;
    else if (rc >= 0) return rc;
  }
  if (st != KERN_SUCCESS && r->k == NULL && generic_names(r, o))
    return EXIT_FAIL;
  if (st != KERN_SUCCESS) {
    char names[512];
    size_t n = 0;
    int nk = kern_module_kernel_count(r->mod);
    names[0] = '\0';
    for (int i = 0; i < nk && n < sizeof names; i++)
      n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                            kern_module_kernel_name(r->mod, i));
    const char **kn = calloc((size_t)nk + 1, sizeof *kn);
    char hint[160] = "";
    if (kn) {
      for (int i = 0; i < nk; i++) kn[i] = kern_module_kernel_name(r->mod, i);
      did_you_mean(o->kernel, strlen(o->kernel), kn, (size_t)nk, hint,
                   sizeof hint);
      free(kn);
    }
    error("no kernel '%s' in %s%s (%s%s)", o->kernel, o->file, hint,
          nk ? "its kernels: " : "it defines no kernels", names);
    return EXIT_FAIL;
  }
  if (o->adjoint) {
    r->fwd = r->k;
    st = kern_kernel_adjoint(r->k, &r->k);
    if (st != KERN_SUCCESS) return lib_error(r->ctx, st, o->file);
  }
  if (o->tangent) {
    st = kern_kernel_tangent(r->k, &r->k);
    if (st != KERN_SUCCESS) return lib_error(r->ctx, st, o->file);
  }
  return EXIT_OK;
}

/* Matches NAME=SPEC and --save NAME=PATH to parameters before touching any
 * device memory, so every naming mistake costs nothing. */
static int run_match(run_state *r) {
  run_opts *o = &r->o;
  int np = r->np = kern_kernel_param_count(r->k);
  r->ps = calloc((size_t)np + 1, sizeof *r->ps);
  r->hosts = calloc((size_t)np + 1, sizeof *r->hosts);
  r->arrays = calloc((size_t)np + 1, sizeof *r->arrays);
  r->values = calloc((size_t)np + 1, sizeof *r->values);
  r->kargs = calloc((size_t)np + 1, sizeof *r->kargs);
  r->save_of = calloc((size_t)np + 1, sizeof *r->save_of);
  r->structs = calloc((size_t)np + 1, sizeof *r->structs);
  r->sarrays = calloc((size_t)np + 1, sizeof *r->sarrays);
  r->sdev = calloc(((size_t)np + 1) * SPEC_MAX_STRUCT_ARRAYS, sizeof *r->sdev);
  r->save_field = calloc((size_t)o->nsaves + 1, sizeof *r->save_field);
  r->ixs = calloc((size_t)np + 1, sizeof *r->ixs);
  r->ixdev = calloc(((size_t)np + 1) * KERN_MAX_DIMS, sizeof *r->ixdev);
  r->ia = calloc((size_t)np + 1, sizeof *r->ia);
  r->sixdev = calloc(((size_t)np + 1) * SPEC_MAX_STRUCT_ARRAYS * KERN_MAX_DIMS,
                     sizeof *r->sixdev);
  if (!r->ixs || !r->ixdev || !r->ia || !r->sixdev) {
    error("out of memory");
    return EXIT_FAIL;
  }
  if (!r->ps || !r->hosts || !r->arrays || !r->values || !r->kargs ||
      !r->save_of || !r->structs || !r->sarrays || !r->sdev ||
      !r->save_field) {
    error("out of memory");
    return EXIT_FAIL;
  }
  kern_param_info *ps = r->ps;
  for (int i = 0; i < np; i++) {
    ps[i].struct_size = sizeof ps[i];
    kern_status st = kern_kernel_param(r->k, i, &ps[i]);
    if (st != KERN_SUCCESS)
      return lib_error(r->ctx, st, "cannot read kernel parameters");
    r->save_of[i] = -1;
  }
  char plist[512], hint[160];
  list_params(ps, np, plist, sizeof plist);
  r->pnames = calloc((size_t)np + 1, sizeof *r->pnames);
  if (!r->pnames) {
    error("out of memory");
    return EXIT_FAIL;
  }
  for (int i = 0; i < np; i++) r->pnames[i] = ps[i].name;
  int *given = calloc((size_t)np + 1, sizeof *given);
  if (!given) {
    error("out of memory");
    return EXIT_FAIL;
  }
  for (int a = 0; a < o->nargs; a++) {
    assign *as = &o->args[a];
    int p = find_param(ps, np, as->name, as->name_len);
    if (p < 0) {
      error("kernel '%s' has no parameter '%.*s'%s (its parameters: %s)",
            o->kernel, (int)as->name_len, as->name,
            did_you_mean(as->name, as->name_len, r->pnames, (size_t)np, hint,
                         sizeof hint),
            plist);
      free(given);
      return EXIT_FAIL;
    }
    if (given[p]++) {
      error("parameter '%s' is given more than once", ps[p].name);
      free(given);
      return EXIT_FAIL;
    }
    as->param = p;
  }
  {
    char missing[512], desc[96];
    size_t n = 0;
    int nmissing = 0;
    for (int p = 0; p < np; p++) {
      if (given[p]) continue;
      if (n < sizeof missing)
        n += (size_t)snprintf(missing + n, sizeof missing - n,
                              "%s'%s' (%s)", nmissing ? ", " : "",
                              ps[p].name,
                              spec_describe(&ps[p], desc, sizeof desc));
      nmissing++;
    }
    free(given);
    if (nmissing) {
      error("missing argument%s for parameter%s %s; give %s", 
            nmissing > 1 ? "s" : "", nmissing > 1 ? "s" : "", missing,
            nmissing > 1 ? "each as NAME=SPEC" : "it as NAME=SPEC");
      return EXIT_FAIL;
    }
  }
  for (int s = 0; s < o->nsaves; s++) {
    assign *sv = &o->saves[s];
    int p = find_param(ps, np, sv->name, sv->name_len);
    const char *dot = memchr(sv->name, '.', sv->name_len);
    r->save_field[s] = -1;
    if (p < 0 && dot) {
      /* --save s.arr=PATH: an array field of a struct value; run_parse
       * checks that the SPEC gave it */
      p = find_param(ps, np, sv->name, (size_t)(dot - sv->name));
      if (p >= 0 && ps[p].kind == KERN_PARAM_VALUE &&
          ps[p].type.kind == KERN_KIND_STRUCT) {
        r->save_field[s] = p;
        sv->param = p;
        continue;
      }
    }
    if (p < 0 || (ps[p].kind != KERN_PARAM_ARRAY &&
                  ps[p].kind != KERN_PARAM_INDEXED)) {
      error("--save %.*s: kernel '%s' has no array parameter '%.*s'%s "
            "(its parameters: %s)", (int)sv->name_len, sv->name, o->kernel,
            (int)sv->name_len, sv->name,
            p < 0 ? did_you_mean(sv->name, sv->name_len, r->pnames,
                                 (size_t)np, hint, sizeof hint)
                  : "",
            plist);
      return EXIT_FAIL;
    }
    if (r->save_of[p] >= 0) {
      error("--save %s is given more than once", ps[p].name);
      return EXIT_FAIL;
    }
    r->save_of[p] = s;
    sv->param = p;
  }
  return EXIT_OK;
}

/* Parses every SPEC on the host first: a mistake in the last argument
 * should not wait for device allocations of the first ones.  Then opens
 * every --save file, so an unwritable path is reported under the user's
 * name before any device work, not after a long launch. */
static int run_parse(run_state *r) {
  run_opts *o = &r->o;
  kern_param_info *ps = r->ps;
  char err[1024];
  for (int a = 0; a < o->nargs; a++) {
    int p = o->args[a].param;
    if (ps[p].kind == KERN_PARAM_INDEXED &&
        ps[p].type.kind == KERN_KIND_STRUCT) {
      error("parameter '%s': kern run has no SPEC for an indexed array of "
            "structs", ps[p].name);
      return EXIT_FAIL;
    }
    if (ps[p].type.kind == KERN_KIND_STRUCT &&
        spec_struct_get(r->k, p, &ps[p], &r->structs[p], err, sizeof err)) {
      error("%s", err);
      return EXIT_FAIL;
    }
    if (ps[p].kind == KERN_PARAM_ARRAY && ps[p].type.kind == KERN_KIND_STRUCT) {
      if (spec_parse_struct_array(&ps[p], &r->structs[p], o->args[a].value,
                                  &r->hosts[p], err, sizeof err) != 0) {
        error("%s", err);
        return EXIT_FAIL;
      }
    } else if (ps[p].type.kind == KERN_KIND_STRUCT) {
      size_t size = kern_type_size(ps[p].type);
      r->values[p] = calloc(1, size + 16);
      if (!r->values[p]) {
        error("out of memory");
        return EXIT_FAIL;
      }
      if (spec_parse_struct(&ps[p], &r->structs[p], o->args[a].value,
                            r->values[p], &r->sarrays[p], err,
                            sizeof err) != 0) {
        error("%s", err);
        return EXIT_FAIL;
      }
      r->kargs[p] = kern_arg_data(r->values[p], size);
    } else if (ps[p].kind == KERN_PARAM_ARRAY) {
      if (spec_parse_array(&ps[p], o->args[a].value, &r->hosts[p], err,
                           sizeof err) != 0) {
        error("%s", err);
        return EXIT_FAIL;
      }
    } else if (ps[p].kind == KERN_PARAM_INDEXED) {
      if (spec_parse_indexed(&ps[p], o->args[a].value, &r->hosts[p],
                             &r->ixs[p], err, sizeof err) != 0) {
        error("%s", err);
        return EXIT_FAIL;
      }
    } else {
      size_t size = kern_type_size(ps[p].type);
      r->values[p] = calloc(1, size + 16);
      if (!r->values[p]) {
        error("out of memory");
        return EXIT_FAIL;
      }
      if (spec_parse_value(&ps[p], o->args[a].value, r->values[p], err,
                           sizeof err) != 0) {
        error("%s", err);
        return EXIT_FAIL;
      }
      r->kargs[p] = kern_arg_data(r->values[p], size);
    }
  }

  for (int s = 0; s < o->nsaves; s++) {
    int p = r->save_field[s];
    if (p < 0) continue;
    int found = 0;
    for (int j = 0; j < r->sarrays[p].n; j++)
      found |= strlen(r->sarrays[p].names[j]) == o->saves[s].name_len &&
               !strncmp(r->sarrays[p].names[j], o->saves[s].name,
                        o->saves[s].name_len);
    if (!found) {
      error("--save %.*s: the SPEC of struct parameter '%s' gives no array "
            "field '%.*s'", (int)o->saves[s].name_len, o->saves[s].name,
            ps[p].name, (int)o->saves[s].name_len, o->saves[s].name);
      return EXIT_FAIL;
    }
  }

  r->outs = calloc((size_t)o->nsaves + 1, sizeof *r->outs);
  if (!r->outs) {
    error("out of memory");
    return EXIT_FAIL;
  }
  for (int s = 0; s < o->nsaves; s++) {
    if (outfile_open(&r->outs[s], o->saves[s].value, err, sizeof err) != 0) {
      error("--save %s: %s", ps[o->saves[s].param].name, err);
      return EXIT_FAIL;
    }
  }
  return EXIT_OK;
}

/* The device list when the run's device names several devices. */
static const char *run_device_list(const run_state *r) {
  const char *name = r->devname ? r->devname : getenv("KERN_DEVICE");
  if (!name) return NULL;
  size_t n = strlen(name);
  return strchr(name, ',') || (n > 4 && strcmp(name + n - 4, ":all") == 0)
             ? name
             : NULL;
}

/* Runs the kernel over every device of a list at once (include/kern.h,
 * "multigpu"): an array whose first axis is the grid's first axis is
 * block-sharded, any other is replicated (a copy on every device), and
 * run_output combines the copies.  Returns -1 when the list has only one
 * device, for the ordinary path. */
static int run_group(run_state *r, const char *list) {
  kern_param_info *ps = r->ps;
  kern_group_options go = KERN_GROUP_OPTIONS_INIT;
  go.devices = list;
  go.mpi = -1;
  if (r->o.adjoint || r->o.tangent) {
    error("--%s runs on one device, not a list (%s)",
          r->o.adjoint ? "adjoint" : "tangent", list);
    return EXIT_FAIL;
  }
  kern_status st = kern_group_new(r->ctx, &go, &r->group);
  if (st != KERN_SUCCESS) return lib_error(r->ctx, st, list);
  if (kern_group_size(r->group) < 2) {
    kern_group_free(r->group);
    r->group = NULL;
    return -1;
  }
  st = kern_group_load_file(r->group, r->o.file);
  if (st != KERN_SUCCESS) return lib_error(r->ctx, st, r->o.file);
  r->sharded = calloc((size_t)r->np + 1, sizeof *r->sharded);
  kern_arg *args = calloc((size_t)r->np + 1, sizeof *args);
  if (!r->sharded || !args) {
    free(args);
    error("out of memory");
    return EXIT_FAIL;
  }
  for (int p = 0; p < r->np; p++) {
    args[p] = r->kargs[p];
    if (ps[p].kind == KERN_PARAM_INDEXED) {
      free(args);
      error("parameter '%s': an indexed array cannot be sharded over a "
            "device list; run on one device", ps[p].name);
      return EXIT_FAIL;
    }
    if (ps[p].kind != KERN_PARAM_ARRAY) continue;
    spec_array *h = &r->hosts[p];
    if (h->shape[0] == r->dims[0])
      st = kern_sharded_new(r->group, ps[p].type, ps[p].ndim, h->shape, 0,
                            &r->sharded[p]);
    else
      st = kern_sharded_new_replicated(r->group, ps[p].type, ps[p].ndim,
                                       h->shape, &r->sharded[p]);
    if (st == KERN_SUCCESS)
      st = kern_sharded_upload(r->sharded[p], h->data, h->nbytes);
    if (st != KERN_SUCCESS) {
      free(args);
      return lib_error(r->ctx, st, ps[p].name);
    }
    args[p] = kern_arg_sharded(r->sharded[p]);
  }
  if (!r->o.quiet) {
    kern_device_info di = KERN_DEVICE_INFO_INIT;
    kern_device_get(r->ctx, kern_group_device(r->group, 0), &di);
    fprintf(stderr, "kern: running on %s: %d shards of %s (%s)\n", list,
            kern_group_size(r->group), di.name,
            kern_group_transport(r->group));
  }
  st = kern_group_launch(r->group, kern_kernel_name(r->k), r->ndims, r->dims,
                         r->np, args);
  free(args);
  if (st != KERN_SUCCESS) return lib_error(r->ctx, st, "launch failed");
  return EXIT_OK;
}

/* A replicated array after a sharded launch: the input plus every copy's
 * change, so what each device accumulated (wp.atomic_add into an output)
 * adds up and what no device wrote stays as it was. */
static void combine_copy(kern_scalar sc, const void *base, const void *copy,
                         void *acc, size_t bytes) {
#define COMBINE(T)                                                             for (size_t i = 0; i < bytes / sizeof(T); i++)                                 ((T *)acc)[i] += ((const T *)copy)[i] - ((const T *)base)[i];
  switch (sc) {
  case KERN_SCALAR_FLOAT32: COMBINE(float) break;
  case KERN_SCALAR_FLOAT64: COMBINE(double) break;
  case KERN_SCALAR_INT32: COMBINE(int32_t) break;
  case KERN_SCALAR_INT64: COMBINE(int64_t) break;
  case KERN_SCALAR_UINT32: COMBINE(uint32_t) break;
  case KERN_SCALAR_UINT64: COMBINE(uint64_t) break;
  default: /* small types: the first device's copy */
    break;
  }
#undef COMBINE
}

static kern_status run_group_download(run_state *r, int p) {
  spec_array *h = &r->hosts[p];
  kern_sharded *s = r->sharded[p];
  kern_status st = KERN_SUCCESS;
  if (h->shape[0] == r->dims[0]) /* block-sharded: gather */
    return kern_sharded_download(s, h->data, h->nbytes);
  unsigned char *base = malloc(h->nbytes + 1), *copy = malloc(h->nbytes + 1);
  if (!base || !copy) {
    free(base);
    free(copy);
    return KERN_ERROR_OUT_OF_MEMORY;
  }
  memcpy(base, h->data, h->nbytes);
  for (int i = 0; i < kern_group_local_size(r->group) && !st; i++) {
    kern_array *a;
    st = kern_sharded_shard(s, i, &a, NULL, NULL, NULL);
    if (!st) st = kern_array_download(a, copy, h->nbytes);
    if (st) break;
    if (i == 0)
      memcpy(h->data, copy, h->nbytes);
    else
      combine_copy(r->ps[p].type.scalar, base, copy, h->data, h->nbytes);
  }
  free(base);
  free(copy);
  return st;
}

/* Makes and fills the device arrays, then launches. */
static int run_launch(run_state *r) {
  kern_param_info *ps = r->ps;
  const char *list = run_device_list(r);
  if (list) {
    for (int p = 0; p < r->np; p++)
      if (r->sarrays[p].n) {
        /* one descriptor cannot name an array on several devices */
        error("parameter '%s': array fields of structs run on one device, "
              "not on the list '%s'", ps[p].name, list);
        return EXIT_FAIL;
      }
    if (r->o.block_dim || r->o.tiled) {
      error("--block-dim and --tiled run on one device, not on the list "
            "'%s'", list);
      return EXIT_FAIL;
    }
    int rc = run_group(r, list);
    if (rc >= 0) return rc;
  }
  /* wp.launch(..., block_dim=N); --tiled is wp.launch_tiled: the block
   * size the device uses (1 on the CPU) appended to the grid */
  if (r->o.block_dim) {
    kern_status bst = kern_kernel_set_block_dim(r->k, r->o.block_dim);
    /* --adjoint: the forward launch before it too, with the same blocks */
    if (bst == KERN_SUCCESS && r->fwd)
      bst = kern_kernel_set_block_dim(r->fwd, r->o.block_dim);
    if (bst != KERN_SUCCESS) return lib_error(r->ctx, bst, "--block-dim");
  }
  if (r->o.tiled) {
    if (r->ndims >= KERN_MAX_DIMS) {
      error("--tiled appends the block size to the grid, which then has "
            "more than %d dimensions; give --dim at most %d",
            KERN_MAX_DIMS - 1, KERN_MAX_DIMS - 1);
      return EXIT_FAIL;
    }
    r->dims[r->ndims++] = kern_kernel_block_dim(r->k);
  }
  /* the array fields of struct values: Warp's descriptor of each */
  for (int p = 0; p < r->np; p++) {
    for (int j = 0; j < r->sarrays[p].n; j++) {
      spec_array *h = &r->sarrays[p].hosts[j];
      kern_array **d = &r->sdev[p * SPEC_MAX_STRUCT_ARRAYS + j];
      kern_status st = kern_array_new(r->ctx, r->dev, h->type, h->ndim,
                                      h->shape, d);
      if (st != KERN_SUCCESS) {
        *d = NULL;
        return lib_error(r->ctx, st, r->sarrays[p].names[j]);
      }
      st = kern_array_upload(*d, h->data, h->nbytes);
      if (st == KERN_SUCCESS && r->sarrays[p].is_indexed[j]) {
        /* an indexedarray field: its index arrays, then Warp's
         * indexedarray_t */
        kern_indexed ia = KERN_INDEXED_INIT;
        ia.data = *d;
        for (int k = 0; k < KERN_MAX_DIMS && st == KERN_SUCCESS; k++) {
          if (!r->sarrays[p].ix[j].has[k]) continue;
          spec_array *x = &r->sarrays[p].ix[j].idx[k];
          kern_array **xd =
              &r->sixdev[(p * SPEC_MAX_STRUCT_ARRAYS + j) * KERN_MAX_DIMS + k];
          st = kern_array_new(r->ctx, r->dev, x->type, 1, x->shape, xd);
          if (st != KERN_SUCCESS) *xd = NULL;
          if (st == KERN_SUCCESS) st = kern_array_upload(*xd, x->data, x->nbytes);
          ia.indices[k] = *xd;
        }
        if (st == KERN_SUCCESS)
          st = kern_struct_set_indexed(
              r->values[p] + r->sarrays[p].offset[j], &ia);
      } else if (st == KERN_SUCCESS)
        st = kern_struct_set_array(r->values[p] + r->sarrays[p].offset[j], *d);
      if (st != KERN_SUCCESS) return lib_error(r->ctx, st, r->sarrays[p].names[j]);
    }
  }
  for (int p = 0; p < r->np; p++) {
    if (ps[p].kind != KERN_PARAM_ARRAY && ps[p].kind != KERN_PARAM_INDEXED)
      continue;
    kern_status st = kern_array_new(r->ctx, r->dev, ps[p].type, ps[p].ndim,
                                    r->hosts[p].shape, &r->arrays[p]);
    if (st != KERN_SUCCESS) {
      r->arrays[p] = NULL;
      return lib_error(r->ctx, st, ps[p].name);
    }
    if (kern_array_nbytes(r->arrays[p]) != r->hosts[p].nbytes) {
      /* Only if the library lays out an element differently from NumPy
       * (say, a padded vec3); uploading would then scramble data. */
      error("parameter '%s': the device array holds %zu bytes but the host "
            "data %zu; element layouts disagree", ps[p].name,
            kern_array_nbytes(r->arrays[p]), r->hosts[p].nbytes);
      return EXIT_FAIL;
    }
    st = kern_array_upload(r->arrays[p], r->hosts[p].data, r->hosts[p].nbytes);
    if (st != KERN_SUCCESS) return lib_error(r->ctx, st, ps[p].name);
    r->kargs[p] = kern_arg_array(r->arrays[p]);
    if (ps[p].kind == KERN_PARAM_INDEXED) {
      kern_indexed *ia = &r->ia[p];
      *ia = (kern_indexed)KERN_INDEXED_INIT;
      ia->data = r->arrays[p];
      for (int k = 0; k < KERN_MAX_DIMS; k++) {
        if (!r->ixs[p].has[k]) continue;
        spec_array *h = &r->ixs[p].idx[k];
        kern_array **d = &r->ixdev[p * KERN_MAX_DIMS + k];
        st = kern_array_new(r->ctx, r->dev, h->type, 1, h->shape, d);
        if (st != KERN_SUCCESS) {
          *d = NULL;
          return lib_error(r->ctx, st, ps[p].name);
        }
        st = kern_array_upload(*d, h->data, h->nbytes);
        if (st != KERN_SUCCESS) return lib_error(r->ctx, st, ps[p].name);
        ia->indices[k] = *d;
      }
      r->kargs[p] = kern_arg_indexed(ia);
    }
  }

  const char *env = getenv("KERN_DEVICE");
  const char *devname = r->devname;
  int automatic = (!devname && (!env || !env[0] || !strcmp(env, "auto"))) ||
                  (devname && !strcmp(devname, "auto"));
  if (automatic && !r->o.quiet) {
    /* "auto" must say what it chose, or a slow run on the CPU fallback
     * looks like a slow GPU. */
    kern_device_info di = KERN_DEVICE_INFO_INIT;
    kern_backend_info bi = KERN_BACKEND_INFO_INIT;
    if (kern_device_get(r->ctx, r->dev, &di) == KERN_SUCCESS &&
        kern_backend_get(r->ctx, di.backend, &bi) == KERN_SUCCESS)
      fprintf(stderr, "kern: running on %s:%d (%s)\n", bi.name, di.index,
              di.name);
  }
  kern_status st;
  if (r->fwd) {
    /* --adjoint: the forward launch, then its adjoint on the same arrays,
     * as wp.Tape records and replays them (the forward parameters are the
     * adjoint's first half) */
    st = kern_launch(r->fwd, r->ndims, r->dims, r->np / 2, r->kargs);
    if (st != KERN_SUCCESS) return lib_error(r->ctx, st, "launch failed");
  }
  st = kern_launch(r->k, r->ndims, r->dims, r->np, r->kargs);
  if (st != KERN_SUCCESS) return lib_error(r->ctx, st, "launch failed");
  return EXIT_OK;
}

/* Downloads every array and saves or prints it. */
static int run_output(run_state *r) {
  kern_param_info *ps = r->ps;
  char err[1024];
  for (int p = 0; p < r->np; p++) {
    if (ps[p].kind != KERN_PARAM_ARRAY && ps[p].kind != KERN_PARAM_INDEXED)
      continue; /* an indexed array's data array is printed or saved */
    spec_array *h = &r->hosts[p];
    kern_status st = r->group ? run_group_download(r, p)
                              : kern_array_download(r->arrays[p], h->data,
                                                    h->nbytes);
    if (st != KERN_SUCCESS) return lib_error(r->ctx, st, ps[p].name);
    if (ps[p].type.kind == KERN_KIND_STRUCT) {
      /* records: NumPy's structured form of Warp's numpy_dtype() */
      if (r->save_of[p] >= 0) {
        outfile *of = &r->outs[r->save_of[p]];
        char *descr = spec_struct_descr(&r->structs[p]);
        if (!descr) {
          error("out of memory");
          return EXIT_FAIL;
        }
        int bad = npy_write_records(of->f, of->path, descr,
                                    r->structs[p].size, ps[p].ndim, h->shape,
                                    h->data, err, sizeof err) != 0 ||
                  outfile_commit(of, err, sizeof err) != 0;
        free(descr);
        if (bad) {
          error("%s", err);
          return EXIT_FAIL;
        }
      } else if (!r->o.quiet) {
        char prefix[160];
        snprintf(prefix, sizeof prefix, "%s = ", ps[p].name);
        spec_print_struct_array(stdout, prefix, &r->structs[p], h);
      }
      continue;
    }
    if (r->save_of[p] >= 0) {
      /* NumPy sees vector and matrix elements as trailing axes. */
      int64_t shape[KERN_MAX_DIMS + 2];
      int nd = 0;
      for (int d = 0; d < ps[p].ndim; d++) shape[nd++] = h->shape[d];
      if (ps[p].type.kind != KERN_KIND_SCALAR) shape[nd++] = ps[p].type.rows;
      if (ps[p].type.kind == KERN_KIND_MATRIX) shape[nd++] = ps[p].type.cols;
      outfile *of = &r->outs[r->save_of[p]];
      if (npy_write_stream(of->f, of->path, ps[p].type.scalar, nd, shape,
                           h->data, err, sizeof err) != 0 ||
          outfile_commit(of, err, sizeof err) != 0) {
        error("%s", err);
        return EXIT_FAIL;
      }
    } else if (!r->o.quiet) {
      char prefix[160];
      snprintf(prefix, sizeof prefix, "%s = ", ps[p].name);
      spec_print_array(stdout, prefix, ps[p].type, ps[p].ndim, h->shape,
                       h->data);
    }
  }
  for (int p = 0; p < r->np; p++) {
    for (int j = 0; j < r->sarrays[p].n; j++) {
      spec_array *h = &r->sarrays[p].hosts[j];
      const char *name = r->sarrays[p].names[j];
      kern_status st = kern_array_download(
          r->sdev[p * SPEC_MAX_STRUCT_ARRAYS + j], h->data, h->nbytes);
      if (st != KERN_SUCCESS) return lib_error(r->ctx, st, name);
      int save = -1;
      for (int s = 0; s < r->o.nsaves; s++)
        if (r->save_field[s] == p && strlen(name) == r->o.saves[s].name_len &&
            !strncmp(name, r->o.saves[s].name, r->o.saves[s].name_len))
          save = s;
      if (save >= 0) {
        int64_t shape[KERN_MAX_DIMS + 2];
        int nd = 0;
        for (int d = 0; d < h->ndim; d++) shape[nd++] = h->shape[d];
        if (h->type.kind != KERN_KIND_SCALAR) shape[nd++] = h->type.rows;
        if (h->type.kind == KERN_KIND_MATRIX) shape[nd++] = h->type.cols;
        outfile *of = &r->outs[save];
        if (npy_write_stream(of->f, of->path, h->type.scalar, nd, shape,
                             h->data, err, sizeof err) != 0 ||
            outfile_commit(of, err, sizeof err) != 0) {
          error("%s", err);
          return EXIT_FAIL;
        }
      } else if (!r->o.quiet) {
        char prefix[160];
        snprintf(prefix, sizeof prefix, "%s = ", name);
        spec_print_array(stdout, prefix, h->type, h->ndim, h->shape, h->data);
      }
    }
  }
  if (fflush(stdout) != 0) {
    error("cannot write output: %s", strerror(errno));
    return EXIT_FAIL;
  }
  return EXIT_OK;
}

/* Frees whatever the steps made; any of them may be missing. */
static void run_free(run_state *r) {
  for (int p = 0; p < r->np; p++) {
    if (r->arrays) kern_array_free(r->arrays[p]);
    if (r->hosts) spec_array_free(&r->hosts[p]);
    if (r->values) free(r->values[p]);
    for (int k = 0; r->ixdev && k < KERN_MAX_DIMS; k++)
      kern_array_free(r->ixdev[p * KERN_MAX_DIMS + k]);
    if (r->ixs) spec_indexed_free(&r->ixs[p]);
    if (r->structs) spec_struct_free(&r->structs[p]);
    for (int j = 0; r->sarrays && j < r->sarrays[p].n; j++) {
      for (int k = 0; r->sixdev && k < KERN_MAX_DIMS; k++)
        kern_array_free(
            r->sixdev[(p * SPEC_MAX_STRUCT_ARRAYS + j) * KERN_MAX_DIMS + k]);
      spec_indexed_free(&r->sarrays[p].ix[j]);
      kern_array_free(r->sdev[p * SPEC_MAX_STRUCT_ARRAYS + j]);
      spec_array_free(&r->sarrays[p].hosts[j]);
    }
  }
  free(r->ixs);
  free(r->ixdev);
  free(r->sixdev);
  free(r->ia);
  free(r->structs);
  free(r->sarrays);
  free(r->sdev);
  free(r->save_field);
  for (int s = 0; r->outs && s < r->o.nsaves; s++)
    outfile_discard(&r->outs[s]);
  free(r->outs);
  free(r->pnames);
  free(r->ps);
  free(r->hosts);
  free(r->arrays);
  free(r->values);
  free(r->kargs);
  free(r->save_of);
  free(r->sharded);
  kern_group_free(r->group);
  kern_module_free(r->mod);
  kern_context_free(r->ctx);
  free(r->o.args);
  free(r->o.saves);
}

static int cmd_run(int argc, char **argv) {
  run_state r;
  memset(&r, 0, sizeof r);
  /* Checked by default: a first run with a too-small array should get a
   * message, not a hang or a heap corruption (--unchecked opts out). */
  r.o.debug = 1;
  /* Each argument is at most one assignment or save, so argc bounds both. */
  r.o.args = calloc((size_t)argc, sizeof *r.o.args);
  r.o.saves = calloc((size_t)argc, sizeof *r.o.saves);
  if (!r.o.args || !r.o.saves) {
    free(r.o.args);
    free(r.o.saves);
    error("out of memory");
    return EXIT_FAIL;
  }

  char err[1024];
  int rc = parse_run_args(argc, argv, &r.o);
  if (rc != 0) {
    rc = rc < 0 ? EXIT_OK : rc; /* -1: help was printed */
  } else if (spec_parse_dims(r.o.dim, r.dims, KERN_MAX_DIMS, &r.ndims, err,
                             sizeof err)) {
    rc = usage("run", "%s", err);
  } else {
    rc = run_load(&r);
    if (rc == EXIT_OK) rc = run_match(&r);
    if (rc == EXIT_OK) rc = run_parse(&r);
    if (rc == EXIT_OK) rc = run_launch(&r);
    if (rc == EXIT_OK) rc = run_output(&r);
  }
  run_free(&r);
  return rc;
}

/* ---------------------------------------------------------------- gradcheck */

static const char help_gradcheck[] =
    "Usage: kern gradcheck FILE KERNEL [OPTIONS] [NAME=SPEC ...]\n"
    "\n"
    "Checks KERNEL's reverse-mode adjoint (kern run --adjoint, Warp's\n"
    "adjoint launch) and forward-mode tangent (kern run --tangent) against\n"
    "central finite differences, as wp.autograd.gradcheck does.  The loss is\n"
    "L = sum over every float array P of <w_P, P after the launch>, with\n"
    "random weights w.  For each float array, each element x: the adjoint's\n"
    "dL/dx against (L(x + eps) - L(x - eps)) / 2 eps.  For a random direction\n"
    "v over the float arrays and float values: the tangent's <J v, w>\n"
    "against the same differences along v.  For each float value parameter\n"
    "(which has no adjoint, as in Warp): the tangent along it.  One table\n"
    "row per parameter and mode: elements checked, the largest absolute and\n"
    "relative error, ok or FAIL.\n"
    "\n"
    "Parameters not given as NAME=SPEC (kern run's syntax) get seeded random\n"
    "values: a float array the shape of --dim (its first axes), uniform in\n"
    "[0.5, 1.5]; a float value the same.  Integer arrays and values, and\n"
    "structs, must be given (an array of structs is checked on its float\n"
    "fields).  Checks run in the kernel's own precision: for a\n"
    "kernel with float32 arrays use float64 (wp.float64) for tight bounds;\n"
    "the defaults loosen when any float array is float32.\n"
    "\n"
    "Options:\n"
    "  --dim N[,M...]   the launch grid (default 8)\n"
    "  --tiled          launch as wp.launch_tiled (kern run --tiled)\n"
    "  --block-dim N    threads per block (kern run --block-dim)\n"
    "  --device NAME    cpu (default), opencl, cuda, cuda:1, ...\n"
    "  --eps E          the finite-difference step (default 1e-6 in float64,\n"
    "                   1e-2 with float32 arrays)\n"
    "  --rtol R         relative tolerance (default 1e-5; 2e-2 with float32)\n"
    "  --atol A         absolute tolerance (default 1e-6; 1e-2 with float32)\n"
    "  --seed S         the random inputs, weights and direction (default 0)\n"
    "  --no-tangent     check only the adjoint\n"
    "  -h, --help       show this help\n"
    "\n"
    "An element passes when |adjoint - fd| <= atol + rtol |fd|.  Kernels\n"
    "that store into an array they also read, or whose gradient Warp does not\n"
    "define as the derivative (a product carried through a dynamic loop,\n"
    "docs/language.md \"Autodiff\"), fail here by design.\n"
    "\n"
    "Exit status: 0 every check passed; 1 a check failed, the kernel cannot\n"
    "be differentiated (the error names the construct and its position), or\n"
    "a bad argument; 2 bad usage.\n"
    "\n"
    "Example:\n"
    "  kern gradcheck examples/saxpy.py saxpy --dim 16 a=2.0\n";

typedef struct gc_state {
  kern_context *ctx;
  kern_device dev;
  kern_kernel *k, *adj, *tan;
  int block;            /* --block-dim N, else 0 */
  int np, ndims;
  int64_t dims[KERN_MAX_DIMS];
  kern_param_info *ps;
  spec_array *host;     /* arrays: their inputs */
  unsigned char **val;  /* values: their bytes (KERN_MAX value size) */
  int *isfloat;         /* a float array or float value */
  double **w;           /* float arrays: the loss weights, per scalar */
  kern_array **dev_arr; /* device arrays, re-uploaded per evaluation */
  kern_arg *args;       /* 2 np: forward, then adj_/tan_ */
  kern_array **aux;     /* np: adj_ / tan_ device arrays */
  unsigned char **auxval;
  uint64_t rng;
  /* arrays: their float scalars (Note [gradcheck slots]) */
  size_t *nslot;
  size_t **off;         /* each one's byte offset in the array's data */
  unsigned char **f64;  /* 1 where it is a float64 */
} gc_state;

static double gc_rand(gc_state *g) { /* splitmix64, in [0, 1) */
  uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 11) / 9007199254740992.0;
}

static int gc_is_float(kern_type t) {
  return t.kind != KERN_KIND_STRUCT &&
         (t.scalar == KERN_SCALAR_FLOAT32 || t.scalar == KERN_SCALAR_FLOAT64);
}

/* Note [gradcheck slots]: the float scalars of an array parameter that
 * gradcheck moves, seeds and reads, by byte offset: every element of a
 * float array; of an array of structs, each float scalar of each
 * element's fields (vectors', matrices' and nested structs' components),
 * the other fields (integers) held as given.  An array field of the
 * struct is refused: its gradient array would be another parameter. */
static size_t gc_count(const gc_state *g, int p) { return g->nslot[p]; }

static double gc_sget(const gc_state *g, int p, const void *d, size_t j) {
  const char *b = (const char *)d + g->off[p][j];
  if (g->f64[p][j]) {
    double v;
    memcpy(&v, b, sizeof v);
    return v;
  }
  float f;
  memcpy(&f, b, sizeof f);
  return f;
}

static void gc_sset(const gc_state *g, int p, void *d, size_t j, double v) {
  char *b = (char *)d + g->off[p][j];
  if (g->f64[p][j]) {
    memcpy(b, &v, sizeof v);
  } else {
    float f = (float)v;
    memcpy(b, &f, sizeof f);
  }
}

/* Appends the slot at offset o (float64 when f64) to parameter p's. */
static int gc_slot(gc_state *g, int p, size_t o, int f64, size_t *cap) {
  if (g->nslot[p] == *cap) {
    size_t nc = *cap ? 2 * *cap : 64;
    size_t *no = realloc(g->off[p], nc * sizeof *no);
    if (no) g->off[p] = no;
    unsigned char *nf = realloc(g->f64[p], nc);
    if (nf) g->f64[p] = nf;
    if (!no || !nf) return error("out of memory"), EXIT_FAIL;
    *cap = nc;
  }
  g->off[p][g->nslot[p]] = o;
  g->f64[p][g->nslot[p]++] = (unsigned char)f64;
  return EXIT_OK;
}

/* Parameter p's slots (Note [gradcheck slots]), its array given. */
static int gc_slots(gc_state *g, int p) {
  const kern_param_info *pi = &g->ps[p];
  const spec_array *a = &g->host[p];
  size_t cap = 0;
  if (pi->type.kind != KERN_KIND_STRUCT) {
    if (!gc_is_float(pi->type)) return EXIT_OK;
    int f64 = pi->type.scalar == KERN_SCALAR_FLOAT64;
    size_t sc = f64 ? 8 : 4;
    for (size_t j = 0; j < a->nbytes / sc; j++)
      if (gc_slot(g, p, j * sc, f64, &cap)) return EXIT_FAIL;
    return EXIT_OK;
  }
  size_t es = kern_type_size(pi->type);
  int nf = kern_kernel_param_field_count(g->k, p);
  for (size_t e = 0; es && e < a->nbytes / es; e++) {
    for (int j = 0; j < nf; j++) {
      kern_field_info fi = KERN_FIELD_INFO_INIT;
      kern_status st = kern_kernel_param_field(g->k, p, j, &fi);
      if (st != KERN_SUCCESS) return lib_error(g->ctx, st, "field");
      if (fi.kind == KERN_PARAM_ARRAY) {
        error("parameter '%s': kern gradcheck takes no array of structs "
              "with an array field (%s)", pi->name, fi.name);
        return EXIT_FAIL;
      }
      if (fi.type.kind == KERN_KIND_STRUCT || !gc_is_float(fi.type))
        continue; /* a nested struct's fields follow it */
      int f64 = fi.type.scalar == KERN_SCALAR_FLOAT64;
      size_t sc = f64 ? 8 : 4;
      for (size_t c = 0; c < fi.size / sc; c++)
        if (gc_slot(g, p, e * es + fi.offset + c * sc, f64, &cap))
          return EXIT_FAIL;
    }
  }
  return EXIT_OK;
}

static double gc_get(kern_type t, const void *p, size_t i) {
  return t.scalar == KERN_SCALAR_FLOAT64 ? ((const double *)p)[i]
                                          : (double)((const float *)p)[i];
}

static void gc_set(kern_type t, void *p, size_t i, double v) {
  if (t.scalar == KERN_SCALAR_FLOAT64)
    ((double *)p)[i] = v;
  else
    ((float *)p)[i] = (float)v;
}

/* Uploads the inputs, with x[i] of array pa moved by h (pa < 0: none) or,
 * dir non-NULL, every float input moved by h along dir; launches the
 * kernel; L = sum <w, arrays after>.  Returns 0, or an exit code. */
static int gc_loss(gc_state *g, int pa, size_t i, double h, double **dir,
                   double *L) {
  for (int p = 0; p < g->np; p++) {
    if (g->ps[p].kind == KERN_PARAM_ARRAY) {
      spec_array *a = &g->host[p];
      void *tmp = malloc(a->nbytes ? a->nbytes : 1);
      if (!tmp) {
        error("out of memory");
        return EXIT_FAIL;
      }
      memcpy(tmp, a->data, a->nbytes);
      if (p == pa)
        gc_sset(g, p, tmp, i, gc_sget(g, p, a->data, i) + h);
      if (dir && g->isfloat[p])
        for (size_t j = 0; j < gc_count(g, p); j++)
          gc_sset(g, p, tmp, j, gc_sget(g, p, a->data, j) + h * dir[p][j]);
      kern_status st = kern_array_upload(g->dev_arr[p], tmp, a->nbytes);
      free(tmp);
      if (st != KERN_SUCCESS) return lib_error(g->ctx, st, "upload");
    } else if (g->isfloat[p]) {
      kern_type t = g->ps[p].type;
      double v = gc_get(t, g->val[p], 0);
      if (dir) v += h * dir[p][0];
      g->args[p] = kern_arg_float(t.scalar == KERN_SCALAR_FLOAT64 ? v
                                                                  : (float)v);
    }
  }
  kern_status st = kern_launch(g->k, g->ndims, g->dims, g->np, g->args);
  if (st != KERN_SUCCESS) return lib_error(g->ctx, st, "launch failed");
  double s = 0;
  for (int p = 0; p < g->np; p++) {
    if (g->ps[p].kind != KERN_PARAM_ARRAY || !g->isfloat[p]) continue;
    spec_array *a = &g->host[p];
    void *tmp = malloc(a->nbytes ? a->nbytes : 1);
    if (!tmp) {
      error("out of memory");
      return EXIT_FAIL;
    }
    st = kern_array_download(g->dev_arr[p], tmp, a->nbytes);
    if (st != KERN_SUCCESS) {
      free(tmp);
      return lib_error(g->ctx, st, "download");
    }
    for (size_t j = 0; j < gc_count(g, p); j++)
      s += g->w[p][j] * gc_sget(g, p, tmp, j);
    free(tmp);
  }
  *L = s;
  return EXIT_OK;
}

static void gc_row(const char *name, const char *mode, size_t n, double ea,
                   double er, int ok) {
  printf("%-16s %-8s %6zu  %12.3e  %12.3e  %s\n", name, mode, n, ea, er,
         ok ? "ok" : "FAIL");
}

static int gc_err(double got, double fd, double atol, double rtol, double *ea,
                  double *er) {
  double e = fabs(got - fd);
  double r = e / (fabs(fd) > 1e-300 ? fabs(fd) : 1);
  if (e > *ea || e != e) *ea = e;
  if (r > *er || r != r) *er = r;
  return e <= atol + rtol * fabs(fd);
}

/* Where a struct value's zero tangent starts in its g->val buffer. */
static size_t gc_half(kern_type t) {
  return (kern_type_size(t) + 31) & ~(size_t)15;
}

/* A struct value parameter (its SPEC must be given): held fixed, as a
 * vector value is, with a zero tangent after its bytes; its float fields
 * are values, whose adjoint Warp discards.  Array fields are refused
 * (spec_parse_struct without arrays). */
static int gc_struct(gc_state *g, int p, const kern_param_info *pi,
                     const char *given) {
  char err[1024];
  if (pi->kind != KERN_PARAM_VALUE || !given) {
    error("parameter '%s': give it as %s={...} (kern gradcheck holds a "
          "struct value fixed)", pi->name, pi->name);
    return EXIT_FAIL;
  }
  spec_struct ss;
  if (spec_struct_get(g->k, p, pi, &ss, err, sizeof err)) {
    error("%s", err);
    return EXIT_FAIL;
  }
  size_t size = kern_type_size(pi->type);
  g->val[p] = calloc(1, 2 * gc_half(pi->type));
  int bad = !g->val[p] ||
            spec_parse_struct(pi, &ss, given, g->val[p], NULL, err, sizeof err);
  spec_struct_free(&ss);
  if (bad) {
    error("%s", g->val[p] ? err : "out of memory");
    return EXIT_FAIL;
  }
  g->isfloat[p] = 0;
  g->args[p] = kern_arg_data(g->val[p], size);
  return EXIT_OK;
}

/* An array of structs given as SPEC (Note [gradcheck slots]) into a. */
static int gc_struct_array(gc_state *g, int p, const char *given,
                           spec_array *a) {
  char err[1024];
  spec_struct ss;
  if (spec_struct_get(g->k, p, &g->ps[p], &ss, err, sizeof err)) {
    error("%s", err);
    return EXIT_FAIL;
  }
  int bad = spec_parse_struct_array(&g->ps[p], &ss, given, a, err, sizeof err);
  spec_struct_free(&ss);
  if (bad) error("%s", err);
  return bad ? EXIT_FAIL : EXIT_OK;
}

static int gc_run(gc_state *g, const char *file, const char *kernel,
                  double eps, double rtol, double atol, int tangent) {
  kern_status st;
  int rc;
  char err[1024];
  (void)err;
  /* the adjoint first: a kernel it refuses is the answer */
  st = kern_kernel_adjoint(g->k, &g->adj);
  if (st == KERN_SUCCESS && g->block)
    st = kern_kernel_set_block_dim(g->adj, g->block);
  if (st != KERN_SUCCESS) return lib_error(g->ctx, st, file);
  if (tangent) {
    st = kern_kernel_tangent(g->k, &g->tan);
    if (st == KERN_SUCCESS && g->block)
      st = kern_kernel_set_block_dim(g->tan, g->block);
    if (st != KERN_SUCCESS) {
      const char *m = kern_last_error(g->ctx);
      printf("tangent: not checked: %s\n", m[0] ? m : kern_status_string(st));
      g->tan = NULL;
    }
  }
  int np = g->np, fails = 0;
  printf("kern gradcheck: %s in %s, dim", kernel, file);
  for (int d = 0; d < g->ndims; d++) printf("%s%lld", d ? "," : " ", (long long)g->dims[d]);
  printf(", eps %g, rtol %g, atol %g\n", eps, rtol, atol);
  printf("%-16s %-8s %6s  %12s  %12s  %s\n", "parameter", "mode", "n",
         "max abs err", "max rel err", "result");
  /* the adjoint: forward, then adj_ = w for the float arrays */
  double base;
  if ((rc = gc_loss(g, -1, 0, 0, NULL, &base))) return rc;
  for (int p = 0; p < np; p++) {
    g->args[np + p] = kern_arg_array(NULL);
    if (g->ps[p].kind != KERN_PARAM_ARRAY) {
      g->args[np + p] = g->args[p]; /* a value's adjoint is not read */
      continue;
    }
    if (!g->isfloat[p]) continue;
    spec_array *a = &g->host[p];
    void *tmp = calloc(1, a->nbytes ? a->nbytes : 1);
    if (!tmp) return error("out of memory"), EXIT_FAIL;
    for (size_t j = 0; j < gc_count(g, p); j++) gc_sset(g, p, tmp, j, g->w[p][j]);
    st = kern_array_upload(g->aux[p], tmp, a->nbytes);
    free(tmp);
    if (st != KERN_SUCCESS) return lib_error(g->ctx, st, "upload");
    g->args[np + p] = kern_arg_array(g->aux[p]);
  }
  st = kern_launch(g->adj, g->ndims, g->dims, 2 * np, g->args);
  if (st != KERN_SUCCESS) return lib_error(g->ctx, st, "adjoint launch failed");
  double **grad = calloc((size_t)np, sizeof *grad);
  if (!grad) return error("out of memory"), EXIT_FAIL;
  rc = EXIT_OK;
  for (int p = 0; p < np && rc == EXIT_OK; p++) {
    if (g->ps[p].kind != KERN_PARAM_ARRAY || !g->isfloat[p]) continue;
    spec_array *a = &g->host[p];
    size_t n = gc_count(g, p);
    void *tmp = malloc(a->nbytes ? a->nbytes : 1);
    grad[p] = calloc(n ? n : 1, sizeof(double));
    if (!tmp || !grad[p]) {
      free(tmp);
      error("out of memory");
      rc = EXIT_FAIL;
      break;
    }
    st = kern_array_download(g->aux[p], tmp, a->nbytes);
    for (size_t j = 0; j < n; j++) grad[p][j] = gc_sget(g, p, tmp, j);
    free(tmp);
    if (st != KERN_SUCCESS) {
      rc = lib_error(g->ctx, st, "download");
      break;
    }
    double ea = 0, er = 0;
    int ok = 1;
    for (size_t j = 0; j < n && rc == EXIT_OK; j++) {
      double lp, lm;
      if ((rc = gc_loss(g, p, j, eps, NULL, &lp))) break;
      if ((rc = gc_loss(g, p, j, -eps, NULL, &lm))) break;
      ok &= gc_err(grad[p][j], (lp - lm) / (2 * eps), atol, rtol, &ea, &er);
    }
    if (rc) break;
    gc_row(g->ps[p].name, "adjoint", n, ea, er, ok);
    fails += !ok;
  }
  /* the tangent: along a random direction, then along each float value */
  double **dir = calloc((size_t)np, sizeof *dir);
  if (!dir && rc == EXIT_OK) rc = (error("out of memory"), EXIT_FAIL);
  for (int p = 0; p < np && rc == EXIT_OK; p++) {
    size_t n = g->ps[p].kind == KERN_PARAM_ARRAY ? gc_count(g, p) : 1;
    dir[p] = calloc(n ? n : 1, sizeof(double));
    if (!dir[p]) rc = (error("out of memory"), EXIT_FAIL);
  }
  for (int q = -1; g->tan && rc == EXIT_OK && q < np; q++) {
    if (q >= 0 && (g->ps[q].kind == KERN_PARAM_ARRAY || !g->isfloat[q]))
      continue;
    for (int p = 0; p < np; p++) {
      if (!g->isfloat[p]) continue;
      size_t n = g->ps[p].kind == KERN_PARAM_ARRAY ? gc_count(g, p) : 1;
      for (size_t j = 0; j < n; j++)
        dir[p][j] = q < 0 ? 2 * gc_rand(g) - 1 : (p == q ? 1.0 : 0.0);
    }
    double lp, lm;
    if ((rc = gc_loss(g, -1, 0, eps, dir, &lp))) break;
    if ((rc = gc_loss(g, -1, 0, -eps, dir, &lm))) break;
    double fd = (lp - lm) / (2 * eps);
    /* the tangent launch on the inputs, tan_ = the direction */
    if ((rc = gc_loss(g, -1, 0, 0, NULL, &base))) break;
    for (int p = 0; p < np && rc == EXIT_OK; p++) {
      g->args[np + p] = kern_arg_array(NULL);
      if (g->ps[p].kind != KERN_PARAM_ARRAY) {
        kern_type t = g->ps[p].type;
        if (t.kind == KERN_KIND_STRUCT) { /* held fixed: a zero tangent */
          g->args[np + p] = kern_arg_data((char *)g->val[p] + gc_half(t),
                                          kern_type_size(t));
          continue;
        }
        g->args[np + p] = !g->isfloat[p] ? g->args[p]
                          : kern_arg_float(t.scalar == KERN_SCALAR_FLOAT64
                                               ? dir[p][0]
                                               : (float)dir[p][0]);
        continue;
      }
      if (!g->isfloat[p]) continue;
      spec_array *a = &g->host[p];
      void *tmp = malloc(a->nbytes ? a->nbytes : 1);
      if (!tmp) {
        rc = (error("out of memory"), EXIT_FAIL);
        break;
      }
      memcpy(tmp, a->data, a->nbytes);
      st = kern_array_upload(g->dev_arr[p], tmp, a->nbytes);
      memset(tmp, 0, a->nbytes); /* a struct's other fields: zero */
      for (size_t j = 0; j < gc_count(g, p); j++) gc_sset(g, p, tmp, j, dir[p][j]);
      if (st == KERN_SUCCESS) st = kern_array_upload(g->aux[p], tmp, a->nbytes);
      free(tmp);
      if (st != KERN_SUCCESS) rc = lib_error(g->ctx, st, "upload");
      g->args[np + p] = kern_arg_array(g->aux[p]);
    }
    if (rc) break;
    st = kern_launch(g->tan, g->ndims, g->dims, 2 * np, g->args);
    if (st != KERN_SUCCESS) {
      rc = lib_error(g->ctx, st, "tangent launch failed");
      break;
    }
    double jvw = 0;
    for (int p = 0; p < np && rc == EXIT_OK; p++) {
      if (g->ps[p].kind != KERN_PARAM_ARRAY || !g->isfloat[p]) continue;
      spec_array *a = &g->host[p];
      void *tmp = malloc(a->nbytes ? a->nbytes : 1);
      if (!tmp) {
        rc = (error("out of memory"), EXIT_FAIL);
        break;
      }
      st = kern_array_download(g->aux[p], tmp, a->nbytes);
      for (size_t j = 0; j < gc_count(g, p); j++)
        jvw += g->w[p][j] * gc_sget(g, p, tmp, j);
      free(tmp);
      if (st != KERN_SUCCESS) rc = lib_error(g->ctx, st, "download");
    }
    if (rc) break;
    double ea = 0, er = 0;
    int ok = gc_err(jvw, fd, atol, rtol, &ea, &er);
    gc_row(q < 0 ? "(random v)" : g->ps[q].name, "tangent", 1, ea, er, ok);
    fails += !ok;
  }
  for (int p = 0; p < np; p++) {
    if (grad) free(grad[p]);
    if (dir) free(dir[p]);
  }
  free(grad);
  free(dir);
  if (rc) return rc;
  printf("%s\n", fails ? "gradcheck: FAILED" : "gradcheck: passed");
  return fails ? EXIT_FAIL : EXIT_OK;
}

static int cmd_gradcheck(int argc, char **argv) {
  const char *file = NULL, *kernel = NULL, *dim = "8", *device = NULL;
  double eps = 0, rtol = -1, atol = -1;
  unsigned long long seed = 0;
  int tangent = 1, nassign = 0, tiled = 0, block = 0;
  const char **assigns = calloc((size_t)argc + 1, sizeof *assigns);
  if (!assigns) return error("out of memory"), EXIT_FAIL;
  int rc = EXIT_OK;
  for (int i = 1; i < argc && rc == EXIT_OK; i++) {
    const char *a = argv[i], *v;
    int r;
    if (is_help(a)) {
      fputs(help_gradcheck, stdout);
      free(assigns);
      return EXIT_OK;
    }
    if ((r = opt_value(argc, argv, &i, "--dim", NULL, &v))) {
      if (r < 0) rc = usage("gradcheck", "%s needs a value", a);
      dim = v;
      continue;
    }
    if ((r = opt_value(argc, argv, &i, "--device", NULL, &v))) {
      if (r < 0) rc = usage("gradcheck", "%s needs a value", a);
      device = v;
      continue;
    }
    if ((r = opt_value(argc, argv, &i, "--block-dim", NULL, &v))) {
      char *end;
      if (r < 0) rc = usage("gradcheck", "%s needs a value", a);
      else {
        long n = strtol(v, &end, 10);
        if (!*v || *end || n < 1 || n > 1024)
          rc = usage("gradcheck", "--block-dim '%s' is not a number from 1 "
                     "to 1024", v);
        block = (int)n;
      }
      continue;
    }
    if ((r = opt_value(argc, argv, &i, "--seed", NULL, &v))) {
      char *end;
      if (r < 0) rc = usage("gradcheck", "%s needs a value", a);
      else {
        seed = strtoull(v, &end, 10);
        if (!*v || *end) rc = usage("gradcheck", "--seed '%s' is not a number", v);
      }
      continue;
    }
    double *dv = NULL;
    const char *dn = NULL;
    static const char *const dnames[3] = {"--eps", "--rtol", "--atol"};
    double *dptr[3] = {&eps, &rtol, &atol};
    for (int d = 0; d < 3 && !dv; d++)
      if ((r = opt_value(argc, argv, &i, dnames[d], NULL, &v))) {
        dv = dptr[d];
        dn = dnames[d];
      }
    if (dv) {
      char *end;
      if (r < 0) {
        rc = usage("gradcheck", "%s needs a value", dn);
        continue;
      }
      *dv = strtod(v, &end);
      if (!*v || *end || !(*dv >= 0) || (dv == &eps && *dv == 0))
        rc = usage("gradcheck", "%s '%s' is not a %s number", dn, v,
                   dv == &eps ? "positive" : "non-negative");
      continue;
    }
    if (strcmp(a, "--no-tangent") == 0) {
      tangent = 0;
      continue;
    }
    if (strcmp(a, "--tiled") == 0) {
      tiled = 1;
      continue;
    }
    if (a[0] == '-' && a[1]) {
      rc = usage("gradcheck", "unknown option '%s'", a);
      continue;
    }
    if (!file) file = a;
    else if (!kernel) kernel = a;
    else if (strchr(a, '=')) assigns[nassign++] = a;
    else rc = usage("gradcheck", "'%s' is not NAME=SPEC", a);
  }
  if (rc == EXIT_OK && (!file || !kernel))
    rc = usage("gradcheck", "missing %s", !file ? "FILE and KERNEL" : "KERNEL");
  gc_state g;
  memset(&g, 0, sizeof g);
  g.rng = seed * 0x9E3779B97F4A7C15ull + 26;
  char err[1024];
  if (rc == EXIT_OK && spec_parse_dims(dim, g.dims, KERN_MAX_DIMS, &g.ndims,
                                       err, sizeof err))
    rc = usage("gradcheck", "%s", err);
  kern_status st;
  if (rc == EXIT_OK) {
    struct stat sb;
    if (stat(file, &sb) != 0 || S_ISDIR(sb.st_mode)) {
      error("cannot open '%s': %s", file, S_ISDIR(sb.st_mode) ? strerror(EISDIR)
                                                               : strerror(errno));
      rc = EXIT_FAIL;
    }
  }
  if (rc == EXIT_OK) {
    kern_options ko = KERN_OPTIONS_INIT;
    st = kern_context_new(&ko, &g.ctx);
    if (st != KERN_SUCCESS) {
      error("cannot start kern: %s", kern_status_string(st));
      g.ctx = NULL;
      rc = EXIT_FAIL;
    }
  }
  kern_module *mod = NULL;
  if (rc == EXIT_OK && (st = kern_device_find(g.ctx, device, &g.dev)))
    rc = lib_error(g.ctx, st, "cannot select a device");
  if (rc == EXIT_OK && (st = kern_module_load_file(g.ctx, g.dev, file, &mod)))
    rc = lib_error(g.ctx, st, file);
  if (rc == EXIT_OK && (st = kern_module_get_kernel(mod, kernel, &g.k)))
    rc = lib_error(g.ctx, st, kernel);
  g.block = block; /* as kern run --block-dim */
  if (rc == EXIT_OK && block && (st = kern_kernel_set_block_dim(g.k, block)))
    rc = lib_error(g.ctx, st, "--block-dim");
  if (rc == EXIT_OK && tiled) { /* as kern run --tiled */
    if (g.ndims >= KERN_MAX_DIMS)
      rc = usage("gradcheck", "--tiled appends the block size to the grid: "
                 "give --dim at most %d sizes", KERN_MAX_DIMS - 1);
    else
      g.dims[g.ndims++] = kern_kernel_block_dim(g.k);
  }
  int np = rc == EXIT_OK ? kern_kernel_param_count(g.k) : 0;
  g.np = np;
  if (rc == EXIT_OK) {
    g.ps = calloc((size_t)np + 1, sizeof *g.ps);
    g.host = calloc((size_t)np + 1, sizeof *g.host);
    g.val = calloc((size_t)np + 1, sizeof *g.val);
    g.isfloat = calloc((size_t)np + 1, sizeof *g.isfloat);
    g.w = calloc((size_t)np + 1, sizeof *g.w);
    g.dev_arr = calloc((size_t)np + 1, sizeof *g.dev_arr);
    g.aux = calloc((size_t)np + 1, sizeof *g.aux);
    g.args = calloc(2 * (size_t)np + 1, sizeof *g.args);
    g.nslot = calloc((size_t)np + 1, sizeof *g.nslot);
    g.off = calloc((size_t)np + 1, sizeof *g.off);
    g.f64 = calloc((size_t)np + 1, sizeof *g.f64);
    if (!g.ps || !g.host || !g.val || !g.isfloat || !g.w || !g.dev_arr ||
        !g.aux || !g.args || !g.nslot || !g.off || !g.f64)
      rc = (error("out of memory"), EXIT_FAIL);
  }
  int any32 = 0;
  for (int p = 0; p < np && rc == EXIT_OK; p++) {
    kern_param_info *pi = &g.ps[p];
    *pi = (kern_param_info)KERN_PARAM_INFO_INIT;
    if ((st = kern_kernel_param(g.k, p, pi))) {
      rc = lib_error(g.ctx, st, "parameter");
      break;
    }
    const char *given = NULL;
    size_t len = strlen(pi->name);
    for (int i = 0; i < nassign; i++)
      if (strncmp(assigns[i], pi->name, len) == 0 && assigns[i][len] == '=')
        given = assigns[i] + len + 1;
    if (pi->kind != KERN_PARAM_ARRAY && pi->kind != KERN_PARAM_VALUE) {
      error("parameter '%s': kern gradcheck takes arrays and values", pi->name);
      rc = EXIT_FAIL;
      break;
    }
    if (pi->type.kind == KERN_KIND_STRUCT && pi->kind != KERN_PARAM_ARRAY) {
      rc = gc_struct(&g, p, pi, given);
      continue;
    }
    g.isfloat[p] = gc_is_float(pi->type);
    if (pi->kind == KERN_PARAM_ARRAY) {
      spec_array *a = &g.host[p];
      if (given && pi->type.kind == KERN_KIND_STRUCT) {
        if (gc_struct_array(&g, p, given, a)) {
          rc = EXIT_FAIL;
          break;
        }
      } else if (given) {
        if (spec_parse_array(pi, given, a, err, sizeof err)) {
          error("%s", err);
          rc = EXIT_FAIL;
          break;
        }
      } else if (!g.isfloat[p] || pi->ndim > g.ndims) {
        error("parameter '%s': give it as %s=SPEC (kern gradcheck makes up "
              "float arrays of at most --dim's %d axes only)", pi->name,
              pi->name, g.ndims);
        rc = EXIT_FAIL;
        break;
      } else {
        /* zeros of --dim's first axes, then random values */
        char spec[256], tn[64];
        int k = snprintf(spec, sizeof spec, "zeros(%s",
                         kern_type_name(pi->type, tn, sizeof tn));
        for (int d = 0; d < pi->ndim; d++)
          k += snprintf(spec + k, sizeof spec - (size_t)k, ",%lld",
                        (long long)g.dims[d]);
        snprintf(spec + k, sizeof spec - (size_t)k, ")");
        if (spec_parse_array(pi, spec, a, err, sizeof err)) {
          error("%s", err);
          rc = EXIT_FAIL;
          break;
        }
        if ((rc = gc_slots(&g, p)))
          break;
        for (size_t j = 0; j < gc_count(&g, p); j++)
          gc_sset(&g, p, a->data, j, 0.5 + gc_rand(&g));
      }
      if (given && (rc = gc_slots(&g, p)))
        break;
      g.isfloat[p] = gc_count(&g, p) > 0;
      if ((st = kern_array_new(g.ctx, g.dev, a->type, a->ndim, a->shape,
                               &g.dev_arr[p])) ||
          (st = kern_array_new(g.ctx, g.dev, a->type, a->ndim, a->shape,
                               &g.aux[p]))) {
        rc = lib_error(g.ctx, st, "array");
        break;
      }
      g.args[p] = kern_arg_array(g.dev_arr[p]);
      if (g.isfloat[p]) {
        size_t n = gc_count(&g, p);
        for (size_t j = 0; j < n; j++) any32 |= !g.f64[p][j];
        g.w[p] = calloc(n ? n : 1, sizeof(double));
        if (!g.w[p]) {
          rc = (error("out of memory"), EXIT_FAIL);
          break;
        }
        for (size_t j = 0; j < n; j++) g.w[p][j] = 2 * gc_rand(&g) - 1;
      }
    } else {
      size_t size = kern_type_size(pi->type);
      g.val[p] = calloc(1, size + 16);
      if (!g.val[p]) {
        rc = (error("out of memory"), EXIT_FAIL);
        break;
      }
      if (given) {
        if (spec_parse_value(pi, given, g.val[p], err, sizeof err)) {
          error("%s", err);
          rc = EXIT_FAIL;
          break;
        }
      } else if (g.isfloat[p] && pi->type.kind == KERN_KIND_SCALAR) {
        gc_set(pi->type, g.val[p], 0, 0.5 + gc_rand(&g));
      } else {
        error("parameter '%s': give it as %s=VALUE (kern gradcheck makes up "
              "float scalars only)", pi->name, pi->name);
        rc = EXIT_FAIL;
        break;
      }
      if (g.isfloat[p] && pi->type.kind != KERN_KIND_SCALAR)
        g.isfloat[p] = 0; /* a vector value: held fixed */
      g.args[p] = kern_arg_data(g.val[p], size);
    }
  }
  for (int i = 0; i < nassign && rc == EXIT_OK; i++) {
    int found = 0;
    for (int p = 0; p < np; p++) {
      size_t len = strlen(g.ps[p].name);
      found |= strncmp(assigns[i], g.ps[p].name, len) == 0 && assigns[i][len] == '=';
    }
    if (!found) {
      char names[512];
      list_params(g.ps, np, names, sizeof names);
      error("'%s': %s has no such parameter (its parameters: %s)", assigns[i],
            kernel, names);
      rc = EXIT_FAIL;
    }
  }
  if (rc == EXIT_OK) {
    if (eps == 0) eps = any32 ? 1e-2 : 1e-6;
    if (rtol < 0) rtol = any32 ? 2e-2 : 1e-5;
    if (atol < 0) atol = any32 ? 1e-2 : 1e-6;
    rc = gc_run(&g, file, kernel, eps, rtol, atol, tangent);
  }
  for (int p = 0; p < np && g.ps; p++) {
    if (g.host) spec_array_free(&g.host[p]);
    if (g.val) free(g.val[p]);
    if (g.w) free(g.w[p]);
    if (g.dev_arr) kern_array_free(g.dev_arr[p]);
    if (g.aux) kern_array_free(g.aux[p]);
    if (g.off) free(g.off[p]);
    if (g.f64) free(g.f64[p]);
  }
  free(g.nslot);
  free(g.off);
  free(g.f64);
  free(g.ps);
  free(g.host);
  free(g.val);
  free(g.isfloat);
  free(g.w);
  free(g.dev_arr);
  free(g.aux);
  free(g.args);
  free(assigns);
  if (g.ctx) kern_context_free(g.ctx);
  return rc;
}

/* ---------------------------------------------------------------- main */

typedef struct command {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *help;
} command;

/* kern synth lives in src/synth/ (issue #13). */
#include "synth.h"
static const char help_synth[] =
    "Usage: kern synth -n N --seed S -o DIR [--categories LIST] [--shard I/K]\n"
    "                  [--jobs J] [--validate none|compile|run]\n"
    "Run 'kern synth --help' for every option.\n";

static const command commands[] = {
    {"devices", cmd_devices, help_devices},
    {"compile", cmd_compile, help_compile},
    {"run", cmd_run, help_run},
    {"gradcheck", cmd_gradcheck, help_gradcheck},
    {"bench", bench_main, bench_help},
    {"synth", synth_main, help_synth},
};

enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static const command *find_command(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

/* "; did you mean 'run'?" for a mistyped command, else "". */
static const char *command_hint(const char *name, char *buf, size_t size) {
  const char *names[NCOMMANDS + 1];
  for (size_t i = 0; i < NCOMMANDS; i++) names[i] = commands[i].name;
  names[NCOMMANDS] = "help";
  return did_you_mean(name, strlen(name), names, NCOMMANDS + 1, buf, size);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("kern: error: missing command\n"
          "Usage: kern COMMAND [OPTIONS]; commands: devices, compile, run\n"
          "Try 'kern --help'.\n", stderr);
    return EXIT_USAGE;
  }
  const char *c = argv[1];
  if (is_help(c)) {
    fputs(help_main, stdout);
    return EXIT_OK;
  }
  if (strcmp(c, "--version") == 0 || strcmp(c, "-V") == 0) {
    printf("kern %s\n", KERN_VERSION_STRING);
    return EXIT_OK;
  }
  if (strcmp(c, "help") == 0) {
    if (argc < 3) {
      fputs(help_main, stdout);
      return EXIT_OK;
    }
    const command *cmd = find_command(argv[2]);
    char hint[160];
    if (strcmp(argv[2], "help") == 0) {
      fputs(help_main, stdout);
      return EXIT_OK;
    }
    if (!cmd)
      return usage(NULL, "unknown command '%s'%s", argv[2],
                   command_hint(argv[2], hint, sizeof hint));
    fputs(cmd->help, stdout);
    return EXIT_OK;
  }
  const command *cmd = find_command(c);
  if (!cmd) {
    if (c[0] == '-') return usage(NULL, "unknown option '%s'", c);
    char hint[160];
    return usage(NULL, "unknown command '%s'%s (commands: devices, compile, "
                 "run, help)", c, command_hint(c, hint, sizeof hint));
  }
  return cmd->fn(argc - 1, argv + 1);
}
