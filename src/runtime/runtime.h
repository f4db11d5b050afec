/*
 * runtime.h -- internals shared by the runtime's files and its backends.
 *
 *   handle.c          the process-wide handle table (Note [handle table])
 *   abi.c             kern_version, reading/writing the caller's structs
 *   context.c         contexts, errors, backend probing, device lists
 *   array.c           arrays
 *   module.c          module load (compile + backend build), kernels, launch
 *   cache.c           the content-addressed kernel cache
 *   sha256.c          SHA-256 for cache keys and entry checksums
 *   backend_cpu.c     C emitted code -> cc -> .so -> dlopen, thread pool
 *   backend_cuda.c    NVRTC + driver API, loaded with dlopen (and
 *                     cuda_nvrtc.c, cuda_module.c, cuda_stream.c)
 *   bgbuild.c         a build in a child process (the PTX tier's NVRTC build)
 *   backend_opencl.c  OpenCL, loaded with dlopen
 *   backend_vulkan.c  Vulkan (GLSL -> libshaderc -> SPIR-V), loaded with
 *                     dlopen
 *   stream.c, graph.c, pipeline.c, interop.c, config.c
 *                     streams and events, graphs, pipelines, DLPack and
 *                     wrapping, the default device (async.h)
 *
 * A backend is a table of function pointers (like SQLite's VFS).  The table
 * only grows by appending; `version` says how long it is; optional methods
 * may be NULL.  A missing vendor library means zero devices and a reason,
 * never an error.
 */
#ifndef KERN_RUNTIME_H
#define KERN_RUNTIME_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include "kern.h"
#include "common.h" /* base/: the allocator, kern_type helpers */
#include "compile.h"

typedef struct kern_backend kern_backend;
typedef struct kern__ptx_request kern__ptx_request;

struct kern_backend {
  int version; /* 2: init added; 3: the stream methods at the end; 4: adopt;
                5: ptx_sm; 6: module_build_tiered; 7: device_clock_ms */
  const char *name; /* "cpu" */
  kern_backend_kind kind;
  kern__target target;

  /* Loads the vendor library and enumerates devices.  On a machine without
   * the library returns KERN_SUCCESS with *state set, zero devices and the
   * reason written to `reason`.  Errors only for real failures (OOM). */
  kern_status (*probe)(kern_context *ctx, void **state, char *reason,
                       size_t reason_size);
  void (*release)(void *state);
  int (*device_count)(void *state);
  kern_status (*device_info)(void *state, int dev, kern_device_info *out);

  /* Memory.  Device pointers are opaque to the runtime: for CPU and CUDA
   * they are addresses, for OpenCL a cl_mem. */
  kern_status (*mem_alloc)(void *state, int dev, size_t bytes, void **out);
  void (*mem_free)(void *state, int dev, void *p);
  kern_status (*copy_in)(void *state, int dev, void *dst, const void *src,
                         size_t bytes);
  kern_status (*copy_out)(void *state, int dev, void *dst, const void *src,
                          size_t bytes);
  /* Fills bytes with repetitions of pattern (pattern_size divides bytes). */
  kern_status (*fill)(void *state, int dev, void *dst, const void *pattern,
                      size_t pattern_size, size_t bytes);

  /* Builds generated code for dev (through the kernel cache) and returns a
   * module handle; kernel_get finds a kernel's entry by symbol. */
  kern_status (*module_build)(void *state, int dev, const kc_result *code,
                              void **module);
  void (*module_free)(void *state, void *module);
  kern_status (*kernel_get)(void *state, void *module, const kc_kernel *k,
                            void **fn);
  /* args[p] points to parameter p's value; arrays as kern__arr whose data
   * is the backend's device pointer.  Returns when done (version 1 launches
   * are synchronous on CPU; GPU backends may return early and report faults
   * from synchronize). */
  kern_status (*launch)(void *state, int dev, void *fn, const kc_kernel *k,
                        void *const *args, const kern__dims *dims);
  kern_status (*synchronize)(void *state, int dev);

  /* Version 2.  Process-wide set-up, run once before the backend's first
   * probe, under the runtime's lock (Note [process-wide backend state] in
   * context.c): loading the vendor library and its first initialisation,
   * which vendors do not make safe to race.  It keeps its outcome (the
   * library's entry points, or why the backend is unavailable) for every
   * later probe, which must not change it.  May be NULL.  Returns
   * KERN_ERROR_OUT_OF_MEMORY, after undoing its work, to be retried by the
   * next kern_context_new; any other outcome is final for the process. */
  kern_status (*init)(void);

  /* ---- version 3: streams, events, graphs, pinned memory (stream.c).
   * Every method below is optional.  A backend without native streams
   * (stream_new == NULL) gets the runtime's generic streams: one worker
   * thread per stream that calls the synchronous methods above in order
   * (Note [generic streams] in stream.c).  Offsets are in bytes. */
  /* Synchronous copies at byte offsets; NULL means dst/src are flat
   * addresses and the runtime adds the offset itself. */
  kern_status (*copy_in_at)(void *state, int dev, void *dst, size_t off,
                            const void *src, size_t bytes);
  kern_status (*copy_out_at)(void *state, int dev, void *dst,
                             const void *src, size_t off, size_t bytes);
  kern_status (*copy_dd)(void *state, int dev, void *dst, size_t dst_off,
                         const void *src, size_t src_off, size_t bytes);
  /* Native streams and events.  `s` NULL in stream_default's output means
   * the backend has no default native stream. */
  kern_status (*stream_new)(void *state, int dev, void **out);
  kern_status (*stream_free)(void *state, int dev, void *s);
  kern_status (*stream_default)(void *state, int dev, void **out);
  kern_status (*stream_sync)(void *state, int dev, void *s);
  kern_status (*stream_query)(void *state, int dev, void *s, int *done);
  kern_status (*stream_wait)(void *state, int dev, void *s, void *event);
  kern_status (*event_new)(void *state, int dev, void **out);
  void (*event_free)(void *state, int dev, void *e);
  kern_status (*event_record)(void *state, int dev, void *e, void *s);
  kern_status (*event_sync)(void *state, int dev, void *e);
  kern_status (*event_query)(void *state, int dev, void *e, int *done);
  kern_status (*event_elapsed)(void *state, int dev, void *a, void *b,
                               double *ms);
  kern_status (*launch_async)(void *state, int dev, void *s, void *fn,
                              const kc_kernel *k, void *const *args,
                              const kern__dims *dims);
  kern_status (*copy_in_async)(void *state, int dev, void *s, void *dst,
                               size_t off, const void *src, size_t bytes);
  kern_status (*copy_out_async)(void *state, int dev, void *s, void *dst,
                                const void *src, size_t off, size_t bytes);
  kern_status (*copy_dd_async)(void *state, int dev, void *s, void *dst,
                               size_t dst_off, const void *src,
                               size_t src_off, size_t bytes);
  kern_status (*fill_async)(void *state, int dev, void *s, void *dst,
                            const void *pattern, size_t pattern_size,
                            size_t bytes);
  /* Page-locked host memory; NULL means plain aligned malloc. */
  kern_status (*host_alloc)(void *state, int dev, size_t bytes, void **out);
  void (*host_free)(void *state, int dev, void *p);
  /* Native graphs (graph.c): capture the work enqueued on s between
   * capture_begin and capture_end into an executable graph.  capture_node
   * returns the node the last captured launch became, so a launch's
   * arguments can be replaced later with graph_set_launch. */
  kern_status (*capture_begin)(void *state, int dev, void *s);
  kern_status (*capture_end)(void *state, int dev, void *s, void **graph);
  kern_status (*capture_node)(void *state, int dev, void *s, void **node);
  kern_status (*graph_launch)(void *state, int dev, void *graph, void *s);
  kern_status (*graph_set_launch)(void *state, int dev, void *graph,
                                  void *node, void *fn, const kc_kernel *k,
                                  void *const *args, const kern__dims *dims);
  void (*graph_free)(void *state, int dev, void *graph);

  /* ---- version 4: interop.  Checks a caller's native object that kern is
   * to use on dev, a stream (KERN__NATIVE_STREAM) or device memory
   * (KERN__NATIVE_MEMORY), and lets dev work in the object's native context
   * when kern has not made its own yet (OpenCL: Note [foreign contexts]);
   * refuses, with the reason, what cannot work.  NULL: nothing to check. */
  kern_status (*adopt)(void *state, int dev, int what, void *native);
  /* Device memory for bytes at byte offset off into native memory, freed
   * with mem_free (OpenCL: a sub-buffer); NULL where device memory is an
   * address and the runtime adds the offset itself. */
  kern_status (*mem_sub)(void *state, int dev, void *native, size_t off,
                         size_t bytes, void **out);

  /* ---- version 5: the SM version (90 for sm_90) whose PTX a cold load on
   * dev can start from (Note [PTX tier] in cuda_module.c); 0: none. */
  int (*ptx_sm)(void *state, int dev);
  /* Waits for a module's final code (kern_module_wait_final); NULL: every
   * module is final when built. */
  kern_status (*module_wait_final)(void *state, void *module);

  /* ---- version 6: module_build for a module loaded from source, which a
   * backend with a quick tier may build in two steps (Note [PTX tier] in
   * cuda_module.c).  The backend alone decides whether the tier applies
   * (its option, debug mode, the device), looks in the cache first, and
   * only on a miss asks for the PTX through kern__ptx_emit(rq, ...).
   * ptx_sm above is no longer called. */
  kern_status (*module_build_tiered)(void *state, int dev, kc_result *code,
                                     const kern__ptx_request *rq,
                                     void **module);

  /* ---- version 7: for a backend on generic streams (no stream_new), its
   * device clock in milliseconds: what an event recorded on one of its
   * streams stamps instead of the host's clock (stream.c), so that
   * kern_event_elapsed measures the device's own time.  NULL: the host's
   * monotonic clock.  (vulkan: the sum of every launch's duration between
   * GPU timestamps and of its host-side copies; Note [vulkan device
   * clock].) */
  double (*device_clock_ms)(void *state, int dev);
};

/* What the compiler needs to spell a module as PTX after the fact: its
 * source and the options it was compiled with (module.c). */
struct kern__ptx_request {
  const char *name;
  const char *source;
  size_t length;
  int no_native;
};
/* Compiles rq's source again for the PTX tier of sm_N and moves the PTX
 * (or the reason it was refused) into code->ptx / code->ptx_why.  A
 * failure is not an error of the load: the caller builds with NVRTC. */
void kern__ptx_emit(const kern__ptx_request *rq, int sm, kc_result *code);

enum { KERN__NATIVE_STREAM, KERN__NATIVE_MEMORY };

/* backend_opencl.c: the cl_mem behind an address kern_host_alloc gave on
 * OpenCL (and its size), or NULL; for tests. */
void *kern__opencl_host_mem(void *state, const void *p, size_t *bytes);

/* backend_vulkan.c, for tests: whether dev's streams are native (1; 0:
 * generic, Note [vulkan streams]; -1: no such device), the batches native
 * streams submitted and how many of them the device has not finished. */
int kern__vulkan_stream_stats(void *state, int dev, uint64_t *submitted,
                              uint64_t *pending);

/* backend_vulkan.c, for tests: whether p lies in memory kern_host_alloc
 * imported on dev (Note [vulkan pinned memory]); *why: why the latest
 * kern_host_alloc was not imported ("" when it was). */
int kern__vulkan_host_imported(void *state, int dev, const void *p,
                               const char **why);

/* context.c: runs every backend's init once per process (thread-safe).
 * kern_context_new calls it first; code that uses a backend without a
 * context (kern__cuda_nvrtc_compile_check) calls it itself. */
kern_status kern__backends_init(void);

extern const kern_backend kern__backend_cpu;
extern const kern_backend kern__backend_cuda;
extern const kern_backend kern__backend_opencl;
extern const kern_backend kern__backend_vulkan; /* backend_vulkan.c */

/* ---------------------------------------------------------------- context */

typedef struct kern__devent {
  kern_backend_kind backend;
  int index; /* within the backend */
} kern__devent;

/* Handles (Note [handle table] in handle.c).  Public entry points take
 * handles and turn them into the structs below with kern__handle_get (or
 * the typed helpers after the structs); everything inside the library holds
 * real pointers.  Each object keeps its own handle in `h`. */
typedef enum kern__hkind {
  KERN__H_NONE,
  KERN__H_CONTEXT,
  KERN__H_ARRAY,
  KERN__H_MODULE,
  KERN__H_KERNEL,
  KERN__H_STREAM,
  KERN__H_EVENT,
  KERN__H_GRAPH,
  KERN__H_GROUP,   /* multi.c */
  KERN__H_SHARDED, /* multi.c */
  KERN__HKIND_COUNT
} kern__hkind;

/* A new handle for obj, or NULL when out of memory. */
void *kern__handle_new(kern__hkind kind, void *obj);
/* The object behind h when h is a live handle of kind `kind`, else NULL. */
void *kern__handle_get(const void *h, kern__hkind kind);
/* Makes h invalid from now on; a no-op for a handle that is not live. */
void kern__handle_release(const void *h, kern__hkind kind);
/* Two lookups under one acquisition of the table's lock, for the launch
 * paths (the kernel and the stream of an async launch, or a launch's array
 * arguments): kern__handle_lock, any number of kern__handle_get_locked,
 * kern__handle_unlock. */
void kern__handle_lock(void);
void *kern__handle_get_locked(const void *h, kern__hkind kind);
void kern__handle_unlock(void);

struct kern_context {
  kern_context *h; /* this context's handle */
  kern_options opts;
  char cache_dir[4096];
  int num_threads;
  const kern_backend *backends[KERN_BACKEND_COUNT];
  void *bstate[KERN_BACKEND_COUNT];
  char breason[KERN_BACKEND_COUNT][256];
  kern__devent *devices;
  int ndevices;
  kern_status error_status;
  char *error; /* the current message, malloc'd; NULL when none */
  /* Non-zero while the message belongs to the call in progress, so a later
   * error of the same call does not replace its cause; cleared when a new
   * public call starts (Note [error recency] in context.c). */
  int error_fresh;
  /* While quiet > 0, kern__error records nothing in error/error_status but
   * keeps the latest message in quiet_note: the cache policy's attempts
   * (Note [cache policy] in cache.c) may fail without failing the call, and
   * must leave no error behind.  quiet_note says why the cache was last
   * not used, for tests and diagnostics. */
  int quiet;
  char quiet_note[512];
  /* Everything the context still owns, freed with it. */
  struct kern_module *modules;
  struct kern_array *arrays;
  /* Streams, events, graphs, pinned memory; NULL until first used
   * (stream.c). */
  struct kern__async *async;
  /* Groups of devices (multi.c); freed with the context. */
  struct kern_group *groups;
  /* Helpers generated by earlier compilations (Note [helper memo] in
   * emit/memo.c); NULL until kern_compile_source first needs it. */
  struct kc_memo *memo;
};

struct kern_array {
  kern_array *h; /* this array's handle */
  kern_context *ctx;
  kern_device dev;
  kern_type type;
  int ndim;
  int64_t shape[KERN_MAX_DIMS];
  int64_t size;
  size_t nbytes;
  void *data; /* backend device pointer */
  struct kern_array *prev, *next;
  /* A wrapped foreign allocation (interop.c): kern never frees data;
   * release(release_arg), when set, is called by kern_array_free. */
  int borrowed;
  void (*release)(void *arg);
  void *release_arg;
};

struct kern_kernel {
  kern_kernel *h; /* this kernel's handle */
  struct kern_module *module;
  const kc_kernel *info;
  void *fn;
  int block_dim; /* kern_kernel_set_block_dim; 0: the default */
};

struct kern_module {
  kern_module *h; /* this module's handle */
  kern_context *ctx;
  kern_device dev;
  kc_result code;
  void *handle; /* backend module */
  kern_kernel *kernels;
  struct kern_module *prev, *next;
  char *name; /* the file or string name used in messages; malloc'd */
  kern_array *fault; /* debug mode's fault record, or NULL (debug.c) */
  /* Generic kernels instantiated at launch (generic.c): the source, kept
   * to compile them (malloc'd, NULL for a module that is itself such an
   * instantiation); the modules compiled for them, which this one owns;
   * and, in those, the module they belong to. */
  char *source;
  size_t source_len;
  struct kern_module *instances, *next_instance, *owner;
  /* An adjoint module (autodiff.c): the name of the kernel it is the
   * adjoint of (malloc'd), else NULL; with tangent, its tangent module
   * (kern_kernel_tangent) instead. */
  char *adjoint_of;
  int tangent;
  /* A module compiled again for another block size (Note [block
   * specialisation] in module.c): that size, else 0. */
  int variant_block;
};

/* Warp's CUDA block size, a launch's when none is asked (Note [block_dim]
 * in module.c). */
#define KERN__DEFAULT_BLOCK 256

/* kc_options.block for a module compiled for target: the default block
 * size where blocks have threads (CUDA, OpenCL), else 0. */
static inline int kern__target_block(kern__target t) {
  return t == KERN_TARGET_CUDA || t == KERN_TARGET_OPENCL
             ? KERN__DEFAULT_BLOCK : 0;
}

/* Public handle -> object, NULL when the handle is not live.  The context
 * helpers also start a public call (kern__call_begin); the others start it
 * on the object's context. */
kern_context *kern__ctx_enter(const kern_context *h);
kern_array *kern__array_enter(const kern_array *h);
kern_module *kern__module_enter(const kern_module *h);
kern_kernel *kern__kernel_enter(const kern_kernel *h);
/* The context object behind a handle, without starting a call: for tests
 * and tools that look inside. */
static inline kern_context *kern__ctx(const kern_context *h) {
  return (kern_context *)kern__handle_get(h, KERN__H_CONTEXT);
}
/* The stack every thread the runtime starts gets (Note [worker stacks] in
 * context.c). */
#define KERN__THREAD_STACK ((size_t)8 << 20)

/* pthread_create with a stack of KERN__THREAD_STACK bytes; 0 or an errno. */
int kern__thread_create(pthread_t *t, void *(*fn)(void *), void *arg);

/* Marks the start of a public call on ctx: Note [error recency]. */
void kern__call_begin(kern_context *ctx);

/* Records ctx's error unless the call in progress already recorded one
 * (its first error is the cause; Note [error recency] in context.c) and
 * returns s, so `return kern__error(ctx, KERN_ERROR_IO, "...")` reads well. */
kern_status kern__error(kern_context *ctx, kern_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
kern_status kern__verror(kern_context *ctx, kern_status s, const char *fmt,
                         va_list ap);
const kern_backend *kern__device_backend(kern_context *ctx, kern_device dev,
                                         void **state, int *index);
/* kern_device_get on the object: fills every field this library knows. */
kern_status kern__device_get(kern_context *ctx, kern_device dev,
                             kern_device_info *out);

/* array.c: the array calls on objects, for the runtime's own arrays (debug
 * mode's fault record). */
kern_status kern__array_new(kern_context *ctx, kern_device dev, kern_type type,
                            int ndim, const int64_t *shape, kern_array **out);
void kern__array_free(kern_array *a);
kern_status kern__array_download(const kern_array *a, void *dst, size_t nbytes);
kern_status kern__array_zero(kern_array *a);
/* module.c */
void kern__module_free(kern_module *m);
/* generic.c: unlinks an instantiation's module from its owner. */
void kern__module_disown(kern_module *m);

/* abi.c: the caller's extensible structs (Note [struct growth] in kern.h).
 * kern__struct_in reads the caller's struct at src into dst (which holds
 * the defaults and is `known` bytes, this library's sizeof), leaving dst's
 * own struct_size alone; KERN_ERROR_INVALID_ARGUMENT when struct_size is
 * below v1, or above `known` with non-zero bytes there.
 * kern__struct_check_out says whether the caller's output struct at dst is
 * big enough, and kern__struct_out then writes src (this library's full
 * struct) into it: the fields that fit, zeros beyond them. */
kern_status kern__struct_in(void *dst, size_t known, const void *src,
                            size_t v1);
/* No version of any struct will be this large; a struct_size beyond it is
 * garbage (an uninitialised field, or a pointer from a positional
 * initializer written for the layout before struct_size), and reading or
 * zeroing that far would run off the caller's object. */
#define KERN__STRUCT_SIZE_MAX 65536
kern_status kern__struct_check_out(const void *dst, size_t v1);
void kern__struct_out(void *dst, const void *src, size_t known);

/* module.c: builds already generated code for dev and wraps it in a module
 * owned by ctx.  Takes ownership of *code in every case (it is freed on
 * failure), so kern_module_load_string and tests that hand-write generated
 * code share one path. */
kern_status kern__module_from_code(kern_context *ctx, kern_device dev,
                                   const char *name, kc_result *code,
                                   kern_module **out);
/* The same for a module loaded from source, which the backend may build
 * through its quick tier (rq: version 6's module_build_tiered). */
kern_status kern__module_from_source(kern_context *ctx, kern_device dev,
                                     const char *name, kc_result *code,
                                     const kern__ptx_request *rq,
                                     kern_module **out);

/* ---------------------------------------------------------------- launches */

/* A launch's marshalled arguments (module.c): argv[p] points to slots[p],
 * parameter p's value or kern__arr; debug mode's fault record is the last
 * slot.  Up to KERN__PACK_STACK_ARGS arguments need no allocation. */
typedef union kern__slot {
  kern__arr arr;
  double d;
  int64_t i;
  /* a value or struct parameter: up to 512 bytes (a struct of more is
   * refused at launch; CUDA's limit for all parameters is 4 KiB) */
  unsigned char bytes[512];
} kern__slot;

#define KERN__PACK_STACK_ARGS 16
typedef struct kern__pack {
  void **argv;
  kern__slot *slots;
  int nslots; /* slots in use, the fault record included */
  kern__dims dims;
  /* The caller's arguments read by its struct_size, array handles turned
   * into arrays (module.c's read_args); debug mode's check reads them. */
  kern_arg *la;
  void *argv_stack[KERN__PACK_STACK_ARGS];
  kern__slot slots_stack[KERN__PACK_STACK_ARGS];
  kern_arg la_stack[KERN__PACK_STACK_ARGS];
} kern__pack;

/* Checks a launch's grid and arguments against k and marshals them into
 * *p.  On failure the error is recorded and nothing needs releasing; on
 * success the caller calls kern__pack_release. */
kern_status kern__launch_pack(kern_kernel *k, int ndim, const int64_t *dims,
                              int nargs, const kern_arg *args, kern__pack *p);
/* The bytes a value parameter of type t takes in generated code: its size,
 * with float16 and bfloat16 components widened to float32 (Note [16-bit
 * floats] in emit/half.c). */
size_t kern__value_arg_size(kern_type t);
/* indexed.c: checks the kern_indexed at user and writes Warp's
 * indexedarray_t (KERN_STRUCT_INDEXED_SIZE bytes) at out. */
kern_status kern__indexed_build(kern_context *ctx, const char *who,
                                const kern_indexed *user, kern_type want_type,
                                int want_ndim, int dev, unsigned char *out);
void kern__pack_release(kern__pack *p);

/* ---------------------------------------------------------------- streams */

/* stream.c: the hooks the synchronous API calls so that it stays "enqueue
 * on the default stream and wait".  Each is a no-op costing one branch
 * while the context has never used streams. */
kern_status kern__sync_launch(kern_context *ctx, kern_device dev,
                              const kern_backend *be, void *state, int index,
                              void *fn, const kc_kernel *k, void *const *args,
                              const kern__dims *dims);
/* Waits until the default stream of dev has finished what was enqueued on
 * it (before a synchronous copy or fill on dev). */
void kern__sync_default(kern_context *ctx, kern_device dev);
/* Waits for every stream of dev and returns the first error of their work
 * not yet reported (kern_synchronize). */
kern_status kern__sync_device(kern_context *ctx, kern_device dev);
/* Waits for every stream of the context (before an array is freed). */
void kern__async_quiesce(kern_context *ctx);
/* Frees every stream, event, graph and pinned block (context free). */
void kern__async_free(kern_context *ctx);

/* multi.c: frees every group of the context (context free). */
void kern__multi_free(kern_context *ctx);

/* ---------------------------------------------------------------- debug mode */

/* debug.c: Note [debug mode] in ir/ir.h. */
int kern__debug_enabled(const kern_context *ctx);
int kern__expand_enabled(void);
kern_status kern__debug_attach(kern_module *m);
void kern__debug_detach(kern_module *m);
kern__arr kern__debug_arg(kern_module *m);
kern_status kern__debug_check(kern_kernel *k, const kern_arg *args, int nargs);

/* ---------------------------------------------------------------- cache */

/* Cache keys are SHA-256 digests of every input that affects the output. */
typedef struct kern__sha256 {
  uint32_t h[8];
  uint64_t len;
  unsigned char buf[64];
  size_t nbuf;
} kern__sha256;
void kern__sha256_init(kern__sha256 *s);
void kern__sha256_update(kern__sha256 *s, const void *p, size_t n);
void kern__sha256_final(kern__sha256 *s, unsigned char out[32]);
void kern__sha256_hex(const unsigned char d[32], char out[65]);

/* Looks up key (a hex digest) with extension ext (".so", ".cubin").  On a
 * hit, *data and *size hold the verified entry (malloc'd) and, when path is not
 * NULL, the entry's path.  A corrupt, truncated or unsafe entry is a miss
 * (and removed when possible).  Returns KERN_SUCCESS on hit,
 * KERN_ERROR_NOT_FOUND on miss. */
kern_status kern__cache_get(kern_context *ctx, const char *key,
                            const char *ext, void **data, size_t *size,
                            char *path, size_t path_size);
/* Stores an entry atomically (temp file + rename) with its checksum.  When
 * path is not NULL it receives the final path. */
kern_status kern__cache_put(kern_context *ctx, const char *key,
                            const char *ext, const void *data, size_t size,
                            char *path, size_t path_size);
/* Like kern__cache_get, but instead of copying the entry out it returns a
 * read-only descriptor (*fd, O_CLOEXEC) of the inode whose bytes were
 * verified, the payload size and the entry's path.  The payload is the
 * file's first *size bytes (the checksum footer follows it, which the ELF
 * loader ignores).  The CPU backend dlopens the path and then checks that it
 * still names the verified inode; see Note [loading verified code] in
 * cache.c.  The caller closes *fd. */
kern_status kern__cache_open(kern_context *ctx, const char *key,
                             const char *ext, int *fd, size_t *size,
                             char *path, size_t path_size);
/* The cache directory, created 0700 if missing; refuses one that is not
 * owned by the user or is writable by others. */
kern_status kern__cache_dir(kern_context *ctx, const char **dir);

/* ---------------------------------------------------------------- cache policy */

/* Compiled code on its way between a backend and the cache (Note [cache
 * policy] in cache.c).  bytes may be NULL when the code is in a file
 * (path); fd, when >= 0, is a descriptor of the verified cache entry at
 * path (Note [loading verified code]); cached says whether the code came
 * from the cache. */
typedef struct kern__blob {
  const void *bytes;
  size_t size;
  const char *path;
  int fd;
  int cached;
} kern__blob;

/* One extra input of a cache key. */
typedef struct kern__key_part {
  const void *p;
  size_t n;
} kern__key_part;

/* What a backend gives kern__cached_build. */
typedef struct kern__builder {
  const char *backend; /* "cpu": part of the key */
  const char *ext;     /* entry extension: ".so", ".clbin", ".cubin", ".ptx" */
  /* Every input besides the source that changes the compiled code: the
   * compiler's identity, flags, device, driver.  Hashed in order. */
  const kern__key_part *key;
  int nkey;
  /* Hits are opened (kern__cache_open) and loaded by path, not read into
   * memory: the CPU backend's dlopen. */
  int load_by_path;
  void *self; /* passed back to compile and load */
  /* Compiles code.  Fills out->bytes (from kern__malloc; the core frees it)
   * or out->path (owned by self), and out->size.  When for_cache is 0
   * nothing will be stored, and a backend whose load can use what compile
   * already made may leave bytes NULL.  Failures are the load's error. */
  kern_status (*compile)(void *self, const kc_result *code, int for_cache,
                         kern__blob *out);
  /* Makes a module of in: a cache entry (in->cached) or what compile just
   * made.  A cached entry that fails is a miss; the core compiles. */
  kern_status (*load)(void *self, const kern__blob *in, void **module);
} kern__builder;

/* The one place of the cache policy: look-up, compile, store, load.  The
 * cache is an optimisation: whatever goes wrong with it (refused or
 * unwritable directory, full disk, bad entry, entry the driver refuses)
 * never fails the load and leaves no error in ctx (Note [cache policy]). */
/* The CUDA backend's quick tier (Note [PTX tier] in cuda_module.c) splits
 * kern__cached_build: the look-up alone, under the same policy (1 and
 * *module on a hit; on a miss key[] is the entry's key and *dir the cache
 * directory, NULL when the cache is off or refused) ... */
int kern__cached_lookup(kern_context *ctx, const kern__builder *b,
                        const kc_result *code, void **module, char key[65],
                        const char **dir);
/* ... and the store, from any thread and touching no context (its
 * background build): 0 when dir/key+ext now holds data. */
int kern__cache_store(const char *dir, const char *key, const char *ext,
                      const void *data, size_t size);
kern_status kern__cached_build(kern_context *ctx, const kern__builder *b,
                               const kc_result *code, void **module);

#endif
