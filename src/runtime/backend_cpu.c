/*
 * backend_cpu.c -- the host CPU backend: emitted C -> cc -> .so -> dlopen,
 * launches on a pool of threads.
 *
 * Building.  The generated C is compiled by the system C compiler ($CC, else
 * `cc`) into a shared object, stored in the kernel cache and loaded with
 * dlopen.  The compiler is started with posix_spawn and an argument vector,
 * never through a shell, so nothing in a path or in $CC is ever interpreted.
 * The cache key covers everything that changes the object code: the source,
 * the flags, the compiler (its resolved path, size, mtime and inode -- a
 * stat instead of running `cc --version`, so the first load in a fresh
 * process stays well under a millisecond) and the host CPU (model and
 * feature flags: we compile with -march=native, so an object built on one
 * machine may not run on another that shares the home directory).  The
 * cache policy itself (look-up, store, what a cache failure does) is the
 * runtime core's: Note [cache policy] in cache.c.
 *
 * Launching.  Generated code exports
 *     void SYMBOL(void *const *args, int64_t begin, int64_t end,
 *                 const kern__dims *dims);
 * which runs every linear index in [begin, end).  See Note [thread pool].
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common.h"
#include "runtime.h"

extern char **environ;

typedef void (*cpu_fn)(void *const *args, int64_t begin, int64_t end,
                       const kern__dims *dims);

/* Note [thread pool]
 * One pool per context, created on the first launch with ctx->num_threads
 * threads in all: num_threads - 1 workers plus the calling thread, which
 * always takes part (so KERN_NUM_THREADS=1 means no pool at all and every
 * launch runs inline).  A launch splits [0, total) into contiguous chunks of
 * about total / (4 * threads) indices -- contiguous so each thread streams
 * through memory as a static OpenMP schedule would, four per thread so a
 * thread that was descheduled does not hold up the rest -- and threads take
 * chunks from an atomic counter.
 *
 * Workers sleep on a condition variable and wake when the generation
 * counter moves; idle workers never spin.  A launch returns only after every
 * worker has checked in for its generation, which is what makes reusing the
 * job fields for the next launch safe: no worker can still be reading the
 * previous launch's counter or arguments.
 */
typedef struct cpu_pool {
  pthread_mutex_t mu;
  pthread_cond_t wake;  /* generation moved or stop set */
  pthread_cond_t done;  /* busy reached zero */
  pthread_t *threads;
  int nworkers;
  pid_t pid; /* the process that started the workers */
  int stop;
  uint64_t generation;
  int busy; /* workers not yet finished with the current generation */
  /* The current launch; written under mu before generation moves. */
  cpu_fn fn;
  void *const *args;
  const kern__dims *dims;
  int64_t total, chunk;
  _Atomic int64_t next; /* first unclaimed index */
} cpu_pool;

typedef struct cpu_state {
  kern_context *ctx;
  char model[128];
  char machine[80];
  char os[64]; /* "Linux 6.1.0-18-amd64": kern_device_info.driver_version */
  int cores;
  uint64_t memory;
  unsigned char host_id[32]; /* CPU model and features, see host_identity */
  /* The C compiler, resolved on the first build. */
  int cc_resolved;
  char cc_path[4096];
  unsigned char cc_id[32];
  cpu_pool *pool;
} cpu_state;

/* Flags for every build.  -fno-math-errno lets sqrt and friends inline and
 * vectorise (kernels never read errno); -fopenmp-simd honours simd pragmas
 * without pulling in the OpenMP runtime; -fwrapv makes signed overflow wrap,
 * which is what Warp kernels observe and what the other targets do.
 * -std=gnu11 is C11 without trigraphs (-std=c11 translates "??/" into a
 * backslash); the emitter never writes a '?' in user text either (Note
 * [quoting user text] in emit/common.c), so either defence suffices.  GCC's
 * GNU modes also fuse a * b + c into an FMA, which ISO mode does not:
 * -ffp-contract=off keeps the results (and the code) -std=c11 gave.
 *
 * Note [no algebraic rewrites]: without errno, GCC (12 here) also rewrites
 * sin(atan(x)) and cos(atan(x)) into x / sqrt(x*x + 1) and 1 / sqrt(x*x + 1)
 * behind a |x| test, and sinh(atanh(x)), cosh(atanh(x)) likewise; the
 * rewrite gives 1 and 0 for a NaN x, where Warp (and C's own sinf(atanf))
 * give NaN, and 0 instead of cos(pi/2 rounded) = -4.37e-8 for x = 1e30.
 * -fno-builtin-atan* keeps those four calls opaque, so no such rule can
 * match.  A probe of every pair f(g(x)) of 32 libm functions and 9 of two
 * arguments, float and double, on NaN, infinities, zeros, denormals and
 * large values found no other result that -fno-math-errno changes (besides
 * fmin/fmax's choice between 0.0 and -0.0, which no emitted helper calls).
 * Dropping -fno-math-errno instead would also keep the results, but costs
 * the vectorised sqrt (wp.sqrt over 4M floats: 0.6 ms -> 3.3-6.4 ms). */
static const char *const cc_flags[] = {
    "-O3",       "-march=native",      "-fopenmp-simd",
    "-fno-math-errno",   "-fwrapv",    "-fPIC",
    "-shared",   "-std=gnu11",         "-ffp-contract=off",
    "-fno-builtin-atan", "-fno-builtin-atanf", "-fno-builtin-atanh",
    "-fno-builtin-atanhf",
};
#define N_CC_FLAGS (sizeof cc_flags / sizeof cc_flags[0])

/* ---------------------------------------------------------------- probe */

static void trim(char *s) {
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    s[--n] = 0;
}

/* Reads the first processor's block of /proc/cpuinfo: its model name for
 * display, and the lines that identify what -march=native will target for
 * the cache key.  Lines such as "cpu MHz" change from read to read and must
 * stay out of the key. */
static void host_identity(cpu_state *s) {
  static const char *const keys[] = {
      "vendor_id", "cpu family", "model", "model name", "flags", "Features",
      "CPU implementer", "CPU architecture", "CPU variant", "CPU part",
      "isa", "uarch"};
  kern__sha256 h;
  kern__sha256_init(&h);
  struct utsname u;
  if (uname(&u) == 0) {
    snprintf(s->machine, sizeof s->machine, "%s", u.machine);
    snprintf(s->os, sizeof s->os, "%.30s %.32s", u.sysname, u.release);
  }
  kern__sha256_update(&h, s->machine, strlen(s->machine) + 1);
  FILE *f = fopen("/proc/cpuinfo", "re");
  if (f) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
      if (line[0] == '\n') break; /* end of the first processor */
      char *colon = strchr(line, ':');
      if (!colon) continue;
      char *k = line;
      char *kend = colon;
      while (kend > k && (kend[-1] == ' ' || kend[-1] == '\t')) kend--;
      size_t klen = (size_t)(kend - k);
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strlen(keys[i]) != klen || strncmp(keys[i], k, klen) != 0) continue;
        kern__sha256_update(&h, line, (size_t)n);
        if (strcmp(keys[i], "model name") == 0 && !s->model[0]) {
          char *v = colon + 1;
          while (*v == ' ' || *v == '\t') v++;
          snprintf(s->model, sizeof s->model, "%s", v);
          trim(s->model);
        }
      }
    }
    free(line); /* getline's buffer comes from libc */
    fclose(f);
  }
  if (!s->model[0])
    snprintf(s->model, sizeof s->model, "%s CPU",
             s->machine[0] ? s->machine : "host");
  kern__sha256_final(&h, s->host_id);
}

static kern_status cpu_probe(kern_context *ctx, void **state, char *reason,
                             size_t reason_size) {
  cpu_state *s = kern__calloc(1, sizeof *s);
  if (!s) return KERN_ERROR_OUT_OF_MEMORY;
  s->ctx = ctx;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  s->cores = cores > 0 ? (int)cores : 1;
  long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
  s->memory = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
  host_identity(s);
  if (reason && reason_size) reason[0] = 0;
  *state = s;
  return KERN_SUCCESS;
}

static void pool_free(cpu_pool *p);

static void cpu_release(void *state) {
  cpu_state *s = state;
  if (!s) return;
  pool_free(s->pool);
  kern__free(s);
}

static int cpu_device_count(void *state) { return 1; }

static kern_status cpu_device_info(void *state, int dev,
                                   kern_device_info *out) {
  cpu_state *s = state;
  if (dev != 0) return KERN_ERROR_INVALID_ARGUMENT;
  snprintf(out->name, sizeof out->name, "%s", s->model);
  snprintf(out->description, sizeof out->description,
           "%s, %d logical cores, %.1f GiB RAM, %d launch threads",
           s->machine[0] ? s->machine : "host", s->cores,
           (double)s->memory / (1024.0 * 1024.0 * 1024.0),
           s->ctx->num_threads);
  out->compute_units = s->cores;
  out->memory_bytes = s->memory;
  /* The host runs every C type natively, atomics included; one thread
   * runs one index at a time, and there are no work-groups. */
  out->fp64 = 1;
  out->int64_atomics = 1;
  out->warp_size = 1;
  out->max_group_size = 1;
  snprintf(out->driver_version, sizeof out->driver_version, "%s", s->os);
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- memory */

static kern_status cpu_mem_alloc(void *state, int dev, size_t bytes,
                                 void **out) {
  /* 64-byte alignment: a cache line, and enough for any vector load the
   * compiler may emit with -march=native. */
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0)
    return KERN_ERROR_OUT_OF_MEMORY;
  *out = p;
  return KERN_SUCCESS;
}

static void cpu_mem_free(void *state, int dev, void *p) {
  free(p); /* from posix_memalign */
}

static kern_status cpu_copy(void *state, int dev, void *dst, const void *src,
                            size_t bytes) {
  memcpy(dst, src, bytes);
  return KERN_SUCCESS;
}

static kern_status cpu_fill(void *state, int dev, void *dst,
                            const void *pattern, size_t pattern_size,
                            size_t bytes) {
  unsigned char *d = dst;
  const unsigned char *pat = pattern;
  if (bytes == 0) return KERN_SUCCESS;
  if (pattern_size == 0 || bytes % pattern_size)
    return KERN_ERROR_INVALID_ARGUMENT;
  int uniform = 1;
  for (size_t i = 1; i < pattern_size && uniform; i++) uniform = pat[i] == pat[0];
  if (uniform) {
    memset(d, pat[0], bytes);
    return KERN_SUCCESS;
  }
  /* Doubling copies: log2(n) memcpy calls, each at memcpy speed. */
  memcpy(d, pat, pattern_size);
  size_t have = pattern_size;
  while (have < bytes) {
    size_t n = have < bytes - have ? have : bytes - have;
    memcpy(d + have, d, n);
    have += n;
  }
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- compiler */

/* Finds the C compiler: $CC if set (one executable name or path; we never
 * split it into words, so "ccache gcc" is refused rather than guessed at),
 * else `cc`, looked up in $PATH.  Its identity for cache keys is a digest of
 * its resolved path and the stat of the binary that path names. */
static kern_status resolve_cc(cpu_state *s) {
  if (s->cc_resolved) return KERN_SUCCESS;
  kern_context *ctx = s->ctx;
  const char *cc = getenv("CC");
  if (!cc || !*cc) cc = "cc";
  if (strpbrk(cc, " \t\n"))
    return kern__error(ctx, KERN_ERROR_TOOLCHAIN,
                       "CC='%s' contains spaces; set CC to the path or name "
                       "of one C compiler executable",
                       cc);
  char found[4096] = "";
  if (strchr(cc, '/')) {
    if (access(cc, X_OK) == 0) snprintf(found, sizeof found, "%s", cc);
  } else {
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    while (*path && !found[0]) {
      size_t n = strcspn(path, ":");
      char cand[4096];
      int m = snprintf(cand, sizeof cand, "%.*s/%s", (int)n, n ? path : ".",
                       cc);
      if (n == 0) m = snprintf(cand, sizeof cand, "./%s", cc);
      struct stat st;
      if (m > 0 && (size_t)m < sizeof cand && stat(cand, &st) == 0 &&
          S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
        snprintf(found, sizeof found, "%s", cand);
      path += n;
      if (*path == ':') path++;
    }
  }
  if (!found[0])
    return kern__error(ctx, KERN_ERROR_TOOLCHAIN,
                       "C compiler '%s' not found%s; the cpu backend needs "
                       "one (install gcc or clang, or set CC)",
                       cc, strchr(cc, '/') ? "" : " in PATH");
  char real[4096];
  struct stat st;
  if (!realpath(found, real) || stat(real, &st) != 0)
    return kern__error(ctx, KERN_ERROR_TOOLCHAIN,
                       "C compiler '%s': %s", found, strerror(errno));
  kern__sha256 h;
  kern__sha256_init(&h);
  kern__sha256_update(&h, real, strlen(real) + 1);
  int64_t fields[5] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                       (int64_t)st.st_mtim.tv_nsec, (int64_t)st.st_ino,
                       (int64_t)st.st_dev};
  kern__sha256_update(&h, fields, sizeof fields);
  kern__sha256_final(&h, s->cc_id);
  snprintf(s->cc_path, sizeof s->cc_path, "%s", found);
  s->cc_resolved = 1;
  return KERN_SUCCESS;
}

static int write_file(const char *path, const void *data, size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  const char *p = data;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      close(fd);
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return close(fd);
}

/* Reads a whole file (at most limit bytes; the rest is dropped). */
static char *read_file(const char *path, size_t limit, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return NULL;
  }
  size_t n = (size_t)st.st_size < limit ? (size_t)st.st_size : limit;
  char *buf = kern__malloc(n + 1);
  size_t off = 0;
  while (buf && off < n) {
    ssize_t r = read(fd, buf + off, n - off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    off += (size_t)r;
  }
  close(fd);
  if (buf) buf[off] = 0;
  if (len) *len = off;
  return buf;
}

/* Runs the compiler on dir/kernel.c, producing dir/kernel.so; its stdout and
 * stderr go to dir/cc.log, which becomes the error message on failure.
 * `native`: the code holds @wp.func_native snippets, the likeliest cause of
 * a failure (emit/native.c), which the message then names. */
static kern_status run_cc(cpu_state *s, const char *dir, int native) {
  kern_context *ctx = s->ctx;
  char src[4200], out[4200], log[4200];
  snprintf(src, sizeof src, "%s/kernel.c", dir);
  snprintf(out, sizeof out, "%s/kernel.so", dir);
  snprintf(log, sizeof log, "%s/cc.log", dir);
  const char *argv[N_CC_FLAGS + 8];
  size_t a = 0;
  argv[a++] = s->cc_path;
  for (size_t i = 0; i < N_CC_FLAGS; i++) argv[a++] = cc_flags[i];
  argv[a++] = "-o";
  argv[a++] = out;
  argv[a++] = src;
  argv[a++] = "-lm";
  argv[a] = NULL;

  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "cannot start the C compiler: out of memory");
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawn(&pid, s->cc_path, &fa, NULL, (char *const *)argv,
                       environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return kern__error(ctx, KERN_ERROR_TOOLCHAIN,
                       "cannot run the C compiler '%s': %s", s->cc_path,
                       strerror(rc));
  int wstatus = 0;
  pid_t w;
  while ((w = waitpid(pid, &wstatus, 0)) < 0 && errno == EINTR) {
  }
  int ok;
  if (w < 0) /* ECHILD: the application reaps children (SIGCHLD ignored) */
    ok = access(out, R_OK) == 0;
  else
    ok = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
  if (ok) return KERN_SUCCESS;

  char cmd[1024] = "";
  size_t used = 0;
  for (size_t i = 0; argv[i] && used < sizeof cmd; i++)
    used += (size_t)snprintf(cmd + used, sizeof cmd - used, "%s%s",
                             i ? " " : "", argv[i]);
  char how[64];
  if (w >= 0 && WIFSIGNALED(wstatus))
    snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(wstatus));
  else if (w >= 0)
    snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(wstatus));
  else
    snprintf(how, sizeof how, "no output");
  char *text = read_file(log, 64 * 1024, NULL);
  kern__error(ctx, KERN_ERROR_TOOLCHAIN,
              "the C compiler failed on generated code (%s)%s\n$ %s\n%s", how,
              native ? "; the module's @wp.func_native snippets are compiled "
                       "as C11 on the CPU, so C++ in them (references, "
                       "templates, wp:: types) fails here"
                     : "",
              cmd, text ? text : "");
  kern__free(text);
  return KERN_ERROR_TOOLCHAIN;
}

static void remove_build_dir(const char *dir) {
  static const char *const names[] = {"kernel.c", "kernel.so", "cc.log"};
  char p[4200];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
}

static kern_status load_so(cpu_state *s, const char *path, void **dl) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    return kern__error(s->ctx, KERN_ERROR_TOOLCHAIN,
                       "cannot load compiled kernels '%s': %s", path,
                       e ? e : "unknown error");
  }
  *dl = h;
  return KERN_SUCCESS;
}

/* One build through the cache policy (Note [cache policy] in cache.c). */
typedef struct cpu_build {
  cpu_state *s;
  char dir[4160]; /* the private build directory; "" until made */
  char so[4200];  /* dir/kernel.so */
} cpu_build;

/* Compiles in a private directory (mkdtemp: 0700, so nobody else can
 * touch the source or the object between the compiler and dlopen) under
 * $TMPDIR, never inside the cache directory: a read-only or full cache
 * must not stop a build. */
static kern_status cpu_compile(void *self, const kc_result *code,
                               int for_cache, kern__blob *out) {
  cpu_build *b = self;
  cpu_state *s = b->s;
  kern_context *ctx = s->ctx;
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  char dir[sizeof b->dir];
  int n = snprintf(dir, sizeof dir, "%s/.kern-build-XXXXXX", base);
  if (n < 0 || (size_t)n >= sizeof dir || !mkdtemp(dir))
    return kern__error(ctx, KERN_ERROR_IO,
                       "cannot create a build directory in '%s': %s", base,
                       strerror(errno));
  memcpy(b->dir, dir, sizeof dir);
  char src[4200];
  snprintf(src, sizeof src, "%s/kernel.c", dir);
  snprintf(b->so, sizeof b->so, "%s/kernel.so", dir);
  if (write_file(src, code->source, code->source_len) != 0)
    return kern__error(ctx, KERN_ERROR_IO, "cannot write '%s': %s", src,
                       strerror(errno));
  kern_status st =
      run_cc(s, dir, strstr(code->source, "/* @wp.func_native ") != NULL);
  if (st != KERN_SUCCESS) return st;
  out->path = b->so; /* the core reads it only to store it */
  return KERN_SUCCESS;
}

/* Loads a verified cache entry by path and then checks that the path
 * still names the inode that was verified (Note [loading verified code] in
 * cache.c), or loads the compiler's output. */
static kern_status cpu_load(void *self, const kern__blob *in, void **dl) {
  cpu_build *b = self;
  if (in->fd < 0) return load_so(b->s, in->path, dl);
  struct stat a, st;
  if (fstat(in->fd, &a) != 0)
    return kern__error(b->s->ctx, KERN_ERROR_CACHE, "cannot stat '%s': %s",
                       in->path, strerror(errno));
  void *h = NULL;
  kern_status s = load_so(b->s, in->path, &h);
  if (s != KERN_SUCCESS) return s;
  if (stat(in->path, &st) != 0 || a.st_dev != st.st_dev ||
      a.st_ino != st.st_ino) {
    dlclose(h);
    return kern__error(b->s->ctx, KERN_ERROR_CACHE,
                       "kernel cache entry '%s' changed while loading",
                       in->path);
  }
  *dl = h;
  return KERN_SUCCESS;
}

static kern_status cpu_module_build(void *state, int dev, const kc_result *code,
                                    void **module) {
  cpu_state *s = state;
  kern_context *ctx = s->ctx;
  kern_status st = resolve_cc(s);
  if (st != KERN_SUCCESS) return st;
  if (!code || !code->source)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "cpu backend: no generated code to build");
  /* The key's inputs besides the source: the compiler, every flag and the
   * host CPU (-march=native). */
  kern__key_part key[2 + N_CC_FLAGS];
  int nkey = 0;
  key[nkey++] = (kern__key_part){s->cc_id, sizeof s->cc_id};
  for (size_t i = 0; i < N_CC_FLAGS; i++)
    key[nkey++] = (kern__key_part){cc_flags[i], strlen(cc_flags[i])};
  key[nkey++] = (kern__key_part){s->host_id, sizeof s->host_id};
  cpu_build b;
  b.s = s;
  b.dir[0] = 0;
  kern__builder bd = {"cpu", ".so", key, nkey, 1, &b, cpu_compile, cpu_load};
  st = kern__cached_build(ctx, &bd, code, module);
  if (b.dir[0]) remove_build_dir(b.dir);
  return st;
}

static void cpu_module_free(void *state, void *module) {
  if (module) dlclose(module);
}

static kern_status cpu_kernel_get(void *state, void *module,
                                  const kc_kernel *k, void **fn) {
  cpu_state *s = state;
  dlerror();
  void *p = dlsym(module, k->symbol);
  if (!p)
    return kern__error(s->ctx, KERN_ERROR_NOT_FOUND,
                       "kernel '%s': symbol '%s' is missing from the "
                       "compiled module",
                       k->name, k->symbol);
  *fn = p;
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- launch */

static void run_chunks(cpu_pool *p, cpu_fn fn, void *const *args,
                       const kern__dims *dims, int64_t total, int64_t chunk) {
  for (;;) {
    int64_t b = atomic_fetch_add_explicit(&p->next, chunk, memory_order_relaxed);
    if (b >= total) return;
    int64_t e = total - b > chunk ? b + chunk : total;
    fn(args, b, e, dims);
  }
}

static void *worker(void *arg) {
  cpu_pool *p = arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->stop && p->generation == seen) pthread_cond_wait(&p->wake, &p->mu);
    if (p->stop) break;
    seen = p->generation;
    cpu_fn fn = p->fn;
    void *const *args = p->args;
    const kern__dims *dims = p->dims;
    int64_t total = p->total, chunk = p->chunk;
    pthread_mutex_unlock(&p->mu);
    run_chunks(p, fn, args, dims, total, chunk);
    pthread_mutex_lock(&p->mu);
    if (--p->busy == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

static void pool_free(cpu_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nworkers; i++) pthread_join(p->threads[i], NULL);
  pthread_cond_destroy(&p->wake);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  kern__free(p->threads);
  kern__free(p);
}

/* Starts nthreads - 1 workers.  If the system runs out of threads part way
 * the pool simply has fewer; with none, launches run inline. */
static cpu_pool *pool_new(int nthreads) {
  cpu_pool *p = kern__calloc(1, sizeof *p);
  if (!p) return NULL;
  p->threads = kern__calloc((size_t)nthreads, sizeof *p->threads);
  if (!p->threads || pthread_mutex_init(&p->mu, NULL) != 0) {
    kern__free(p->threads);
    kern__free(p);
    return NULL;
  }
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->done, NULL);
  atomic_init(&p->next, 0);
  p->pid = getpid();
  /* Workers block every signal so the application's handlers keep running
   * on the threads it knows about. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  for (int i = 0; i < nthreads - 1; i++) {
    if (kern__thread_create(&p->threads[i], worker, p) != 0) break;
    p->nworkers++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return p;
}

static kern_status cpu_launch(void *state, int dev, void *fnp,
                              const kc_kernel *k, void *const *args,
                              const kern__dims *dims) {
  cpu_state *s = state;
  cpu_fn fn = (cpu_fn)fnp;
  /* A shard of a sharded launch runs [begin, total) of the whole grid. */
  int64_t begin = dims->begin, total = dims->total, count = total - begin;
  if (count <= 0) return KERN_SUCCESS;
  int nthreads = s->ctx->num_threads;
  if (s->pool && s->pool->pid != getpid()) {
    /* We are a fork()ed child: the workers stayed in the parent and the
     * pool's mutex may have been copied locked.  Abandon it (a small leak,
     * once per fork) and start a new one. */
    s->pool = NULL;
  }
  if (nthreads > 1 && count > 1 && !s->pool) {
    s->pool = pool_new(nthreads);
    if (!s->pool)
      return kern__error(s->ctx, KERN_ERROR_OUT_OF_MEMORY,
                         "cpu backend: cannot create the thread pool");
  }
  cpu_pool *p = s->pool;
  if (nthreads <= 1 || count == 1 || !p || p->nworkers == 0) {
    fn(args, begin, total, dims);
    return KERN_SUCCESS;
  }
  int64_t threads = p->nworkers + 1;
  int64_t chunk = count / (threads * 4);
  if (chunk < 1) chunk = 1;

  pthread_mutex_lock(&p->mu);
  p->fn = fn;
  p->args = args;
  p->dims = dims;
  p->total = total;
  p->chunk = chunk;
  atomic_store_explicit(&p->next, begin, memory_order_relaxed);
  p->busy = p->nworkers;
  p->generation++;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);

  run_chunks(p, fn, args, dims, total, chunk);

  pthread_mutex_lock(&p->mu);
  while (p->busy > 0) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
  return KERN_SUCCESS;
}

static kern_status cpu_synchronize(void *state, int dev) {
  return KERN_SUCCESS; /* launches are synchronous */
}

const kern_backend kern__backend_cpu = {
    .version = 2,
    .name = "cpu",
    .kind = KERN_BACKEND_CPU,
    .target = KERN_TARGET_C,
    .probe = cpu_probe,
    .release = cpu_release,
    .device_count = cpu_device_count,
    .device_info = cpu_device_info,
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .copy_in = cpu_copy,
    .copy_out = cpu_copy,
    .fill = cpu_fill,
    .module_build = cpu_module_build,
    .module_free = cpu_module_free,
    .kernel_get = cpu_kernel_get,
    .launch = cpu_launch,
    .synchronize = cpu_synchronize,
    .init = NULL, /* nothing process-wide: the C compiler is per context */
};
