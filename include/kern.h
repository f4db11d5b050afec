/*
 * kern.h -- the one public header of kern.
 *
 * kern compiles kernels written in the kernel dialect of NVIDIA Warp and runs
 * them on the host CPU, CUDA GPUs and OpenCL devices, on arrays that stay on
 * the device between launches.
 *
 * Conventions that hold for every declaration below:
 *  - Every call that can fail returns a kern_status; KERN_SUCCESS is 0.
 *    The message of the most recent failing call is kept in the context and
 *    read with kern_last_error(); see there for when it is replaced and
 *    cleared.
 *  - Whoever calls a *_new function calls the matching *_free.  Freeing a
 *    context frees every module and array it still owns.  *_free(NULL) is a
 *    no-op.
 *  - Handles (kern_context *, kern_array *, kern_module *, kern_kernel *)
 *    are opaque values, not addresses: never dereference or compare them
 *    other than for equality.  A handle that is NULL, already freed (by its
 *    own *_free or with its owner), or of another kind is refused with
 *    KERN_ERROR_INVALID_HANDLE by every call, in any order of frees; a
 *    *_free of such a handle does nothing.  The library never reads freed
 *    memory on such a call.  Freeing a handle while another thread is
 *    inside a call on it is still a race the caller must avoid.
 *  - Output parameters are written only on success.
 *  - The library never prints and never exits on a user's error.
 *  - Threads.  A context and everything made from it (its arrays, modules
 *    and kernels) may be used by one thread at a time: calls on one context
 *    must not overlap, but the context may move from thread to thread (the
 *    caller's lock or hand-off orders them).  Different contexts may be used
 *    from different threads at the same time, kern_context_new included;
 *    they share only the kernel cache directory (safe across threads and
 *    processes), the handle table (under its own lock) and the vendor
 *    libraries, which the first kern_context_new
 *    of the process loads and initialises once, under a lock.  The message
 *    of kern_last_error belongs to its context: read it before the next
 *    call on that context.  Functions that take no context or handle
 *    (kern_version, kern_version_string, kern_status_string,
 *    kern_status_name, kern_scalar_size,
 *    kern_type_size, kern_scalar_name, kern_type_name, kern_type_parse,
 *    kern_arg_*, kern_backend_count, kern_free) may be called from any
 *    thread at any time.  Vendor initialisation may change the environment
 *    (PoCL sets HWLOC_PLUGINS_PATH), so make the first kern_context_new
 *    before starting threads of your own that read or change it.
 *  - Strings the library returns are owned by the library (except
 *    kern_compile_source's, which the caller frees); each declaration says
 *    how long one lives, and docs/ABI.md has the table.  Strings the caller
 *    passes in are copied when the library keeps them, so they need live
 *    only during the call.
 *
 * Note [struct growth]
 * Every public struct that the library reads from or writes to the caller
 * begins with `size_t struct_size`, which the caller sets to sizeof the
 * struct as the caller's header declared it; the KERN_<NAME>_INIT macros do
 * it (`kern_options o = KERN_OPTIONS_INIT;`).  Fields are only ever appended,
 * and the library touches only the fields that fit inside struct_size:
 *  - a struct_size smaller than the first version's (listed with each
 *    struct as KERN_<NAME>_SIZE_V1), or absurdly large (over 64 KiB), is
 *    KERN_ERROR_INVALID_ARGUMENT;
 *  - from an older, smaller struct the library reads what is there and
 *    takes the default for the missing fields, and into one it writes only
 *    what fits;
 *  - from a newer, larger struct (a program built against a later header
 *    running on this library) it accepts the fields it knows when every
 *    byte beyond them is zero, since a field the library does not know
 *    about cannot be honoured silently, and refuses with
 *    KERN_ERROR_INVALID_ARGUMENT otherwise; an output struct's unknown tail
 *    is zeroed.
 * Each version's fields end exactly at its sizeof (no tail padding), so
 * struct_size tells the versions apart; a version that would end in padding
 * names the padding as a reserved field instead.  kern_arg is passed as an
 * array, and the library steps through it by the caller's struct_size.
 *
 * kern_type has no struct_size on purpose: it is a value, passed and
 * returned by value like an enum, and a by-value struct cannot change size
 * without breaking the calling convention whatever field it carries.  Its
 * four fields are frozen for this SOVERSION; a kind of type that needs more
 * than they can say (a Warp struct, say) will be described through a new
 * handle, not by growing kern_type.
 *
 * Versions.  KERN_VERSION_* give the version of this header and
 * kern_version() that of the library actually loaded.  The shared library's
 * SOVERSION is KERN_ABI_VERSION (libkern.so.1).  It changes exactly when a
 * program built against an earlier header could stop working: a function
 * removed or changed in signature, an enum value renumbered, a struct field
 * moved, retyped or given a new meaning.  Appending functions, enum values
 * (before the *_COUNT markers, which are therefore only the count this
 * header knows: a newer library may return larger values) and struct fields
 * under Note [struct growth] keeps the SOVERSION and bumps the minor
 * version.  Before 1.0 the minor version may also break the API (names,
 * argument lists), but never without a new SOVERSION.
 *
 * Exports.  Every function is declared with KERN_API; the shared library
 * exports those, all named kern_*, and nothing else (everything internal is
 * built with hidden visibility).  Functions declared `static inline` here
 * are compiled into the caller, so they follow the caller's header.
 *
 * The ABI uses only opaque handles, integers, doubles, pointers, strings and
 * the structs above, so any language with a C FFI can bind it.
 */
#ifndef KERN_H
#define KERN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbol visibility: the library is built with hidden visibility and
 * KERN_API marks the exported functions.  A static build may define
 * KERN_API as empty before including this header. */
#ifndef KERN_API
#if defined(_WIN32)
#define KERN_API
#elif defined(__GNUC__)
#define KERN_API __attribute__((visibility("default")))
#else
#define KERN_API
#endif
#endif

/* The version of this header.  KERN_VERSION_NUMBER is
 * major * 10000 + minor * 100 + patch, comparable with kern_version(). */
#define KERN_VERSION_MAJOR 0
#define KERN_VERSION_MINOR 1
#define KERN_VERSION_PATCH 0
#define KERN_VERSION_STRING "0.1.0"
#define KERN_VERSION_NUMBER                                                  \
  (KERN_VERSION_MAJOR * 10000 + KERN_VERSION_MINOR * 100 + KERN_VERSION_PATCH)
/* The shared library's SOVERSION (libkern.so.<KERN_ABI_VERSION>); see
 * "Versions" above for when it changes. */
#define KERN_ABI_VERSION 1

/* The version of the library loaded at run time, which may be newer than
 * the header a program was compiled with: KERN_VERSION_NUMBER's encoding,
 * and the string ("0.1.0", static, never NULL).  Callable from any thread. */
KERN_API int kern_version(void);
KERN_API const char *kern_version_string(void);

/* Status codes.  One list makes the enum, the names and the messages. */
#define KERN_STATUS_MAP(X)                                                   \
  X(SUCCESS, "success")                                                      \
  X(ERROR_INVALID_ARGUMENT, "invalid argument")                              \
  X(ERROR_OUT_OF_MEMORY, "out of memory")                                    \
  X(ERROR_IO, "input/output error")                                          \
  X(ERROR_COMPILE, "compile error")                                          \
  X(ERROR_NOT_FOUND, "not found")                                            \
  X(ERROR_BACKEND_UNAVAILABLE, "backend unavailable")                        \
  X(ERROR_UNSUPPORTED, "unsupported")                                        \
  X(ERROR_TYPE_MISMATCH, "type mismatch")                                    \
  X(ERROR_LAUNCH, "launch failed")                                           \
  X(ERROR_DEVICE, "device error")                                            \
  X(ERROR_TOOLCHAIN, "toolchain error")                                      \
  X(ERROR_CACHE, "kernel cache error")                                      \
  X(ERROR_OUT_OF_BOUNDS, "array index out of bounds")                       \
  X(ERROR_INVALID_HANDLE, "invalid or freed handle")

typedef enum kern_status {
#define KERN__X(name, text) KERN_##name,
  KERN_STATUS_MAP(KERN__X)
#undef KERN__X
  KERN_STATUS_COUNT
} kern_status;

/* A static English description ("out of memory"); never NULL.  Statuses
 * this library does not know give "unknown status". */
KERN_API const char *kern_status_string(kern_status s);
/* The enumerator's name without the prefix ("ERROR_OUT_OF_MEMORY"); static,
 * never NULL ("UNKNOWN" for a status this library does not know). */
KERN_API const char *kern_status_name(kern_status s);

/* ---------------------------------------------------------------- types */

/* Scalar element types, in Warp's spelling order.  Every enumerator carries
 * the KERN_SCALAR_ prefix so that none can collide with the kern_type
 * constants below (KERN_TYPE_FLOAT32) or with a later enum. */
typedef enum kern_scalar {
  KERN_SCALAR_BOOL,
  KERN_SCALAR_INT8,
  KERN_SCALAR_INT16,
  KERN_SCALAR_INT32,
  KERN_SCALAR_INT64,
  KERN_SCALAR_UINT8,
  KERN_SCALAR_UINT16,
  KERN_SCALAR_UINT32,
  KERN_SCALAR_UINT64,
  KERN_SCALAR_FLOAT32,
  KERN_SCALAR_FLOAT64,
  /* IEEE binary16 and bfloat16 (the top half of a float32), 2 bytes each,
   * appended so the numbers above never change.  Host code passes and
   * reads them as raw bits (uint16_t); kern_half_from_float and friends
   * convert. */
  KERN_SCALAR_FLOAT16,
  KERN_SCALAR_BFLOAT16,
  KERN_SCALAR_COUNT
} kern_scalar;

/* The shape of a value: a scalar, a vector of `rows` components, or a
 * rows x cols matrix, each component of type `scalar`. */
typedef enum kern_kind {
  KERN_KIND_SCALAR,
  KERN_KIND_VECTOR,
  KERN_KIND_MATRIX,
  /* A @wp.struct, an opaque record: rows is its size in bytes, cols its
   * alignment, scalar KERN_SCALAR_UINT8 (KERN_TYPE_STRUCT below).  Its
   * fields are described by kern_kernel_param_field; docs/ABI.md gives
   * the layout, which is Warp's. */
  KERN_KIND_STRUCT
} kern_kind;

/* A value type.  No struct_size: see Note [struct growth]. */
typedef struct kern_type {
  kern_kind kind;
  kern_scalar scalar;
  int rows; /* vector length or matrix rows; 1 for a scalar */
  int cols; /* matrix columns; 1 for scalars and vectors */
} kern_type;

/* kern_type constants, as expressions of type kern_type in C and C++:
 * `kern_array_new(ctx, dev, KERN_TYPE_VEC3, 1, &n, &a)`.  In C they are
 * compound literals, so a file-scope (static) initializer uses the braces
 * instead: `static const kern_type t = {KERN_KIND_VECTOR,
 * KERN_SCALAR_FLOAT32, 3, 1};`. */
#ifdef __cplusplus
#define KERN__TYPE(kind, scalar, rows, cols) (kern_type{kind, scalar, rows, cols})
#else
#define KERN__TYPE(kind, scalar, rows, cols)                                 \
  ((kern_type){kind, scalar, rows, cols})
#endif
#define KERN_TYPE_SCALAR(s) KERN__TYPE(KERN_KIND_SCALAR, s, 1, 1)
#define KERN_TYPE_VECTOR(n, s) KERN__TYPE(KERN_KIND_VECTOR, s, n, 1)
#define KERN_TYPE_MATRIX(r, c, s) KERN__TYPE(KERN_KIND_MATRIX, s, r, c)
/* A struct of `size` bytes aligned to `align` (1, 2, 4 or 8); an array of
 * structs is kern_array_new(ctx, dev, KERN_TYPE_STRUCT(size, align), ...).
 * Two structs of equal size and alignment are the same type to the
 * launch's check. */
#define KERN_TYPE_STRUCT(size, align)                                        \
  KERN__TYPE(KERN_KIND_STRUCT, KERN_SCALAR_UINT8, (int)(size), (int)(align))
/* Scalars, Warp's names. */
#define KERN_TYPE_BOOL KERN_TYPE_SCALAR(KERN_SCALAR_BOOL)
#define KERN_TYPE_INT8 KERN_TYPE_SCALAR(KERN_SCALAR_INT8)
#define KERN_TYPE_INT16 KERN_TYPE_SCALAR(KERN_SCALAR_INT16)
#define KERN_TYPE_INT32 KERN_TYPE_SCALAR(KERN_SCALAR_INT32)
#define KERN_TYPE_INT64 KERN_TYPE_SCALAR(KERN_SCALAR_INT64)
#define KERN_TYPE_UINT8 KERN_TYPE_SCALAR(KERN_SCALAR_UINT8)
#define KERN_TYPE_UINT16 KERN_TYPE_SCALAR(KERN_SCALAR_UINT16)
#define KERN_TYPE_UINT32 KERN_TYPE_SCALAR(KERN_SCALAR_UINT32)
#define KERN_TYPE_UINT64 KERN_TYPE_SCALAR(KERN_SCALAR_UINT64)
#define KERN_TYPE_FLOAT32 KERN_TYPE_SCALAR(KERN_SCALAR_FLOAT32)
#define KERN_TYPE_FLOAT64 KERN_TYPE_SCALAR(KERN_SCALAR_FLOAT64)
/* Warp's vector and matrix aliases: no suffix is float32, d float64,
 * i int32 (wp.vec3, wp.vec3d, wp.vec3i, wp.mat33, wp.mat33d). */
#define KERN_TYPE_VEC2 KERN_TYPE_VECTOR(2, KERN_SCALAR_FLOAT32)
#define KERN_TYPE_VEC3 KERN_TYPE_VECTOR(3, KERN_SCALAR_FLOAT32)
#define KERN_TYPE_VEC4 KERN_TYPE_VECTOR(4, KERN_SCALAR_FLOAT32)
#define KERN_TYPE_VEC2D KERN_TYPE_VECTOR(2, KERN_SCALAR_FLOAT64)
#define KERN_TYPE_VEC3D KERN_TYPE_VECTOR(3, KERN_SCALAR_FLOAT64)
#define KERN_TYPE_VEC4D KERN_TYPE_VECTOR(4, KERN_SCALAR_FLOAT64)
#define KERN_TYPE_VEC2I KERN_TYPE_VECTOR(2, KERN_SCALAR_INT32)
#define KERN_TYPE_VEC3I KERN_TYPE_VECTOR(3, KERN_SCALAR_INT32)
#define KERN_TYPE_VEC4I KERN_TYPE_VECTOR(4, KERN_SCALAR_INT32)
#define KERN_TYPE_MAT22 KERN_TYPE_MATRIX(2, 2, KERN_SCALAR_FLOAT32)
#define KERN_TYPE_MAT33 KERN_TYPE_MATRIX(3, 3, KERN_SCALAR_FLOAT32)
#define KERN_TYPE_MAT44 KERN_TYPE_MATRIX(4, 4, KERN_SCALAR_FLOAT32)
#define KERN_TYPE_MAT22D KERN_TYPE_MATRIX(2, 2, KERN_SCALAR_FLOAT64)
#define KERN_TYPE_MAT33D KERN_TYPE_MATRIX(3, 3, KERN_SCALAR_FLOAT64)
#define KERN_TYPE_MAT44D KERN_TYPE_MATRIX(4, 4, KERN_SCALAR_FLOAT64)
/* Mixed precision: h is float16 (wp.vec3h, wp.mat22h); Warp names no
 * bfloat16 vectors or matrices. */
#define KERN_TYPE_FLOAT16 KERN_TYPE_SCALAR(KERN_SCALAR_FLOAT16)
#define KERN_TYPE_BFLOAT16 KERN_TYPE_SCALAR(KERN_SCALAR_BFLOAT16)
#define KERN_TYPE_VEC2H KERN_TYPE_VECTOR(2, KERN_SCALAR_FLOAT16)
#define KERN_TYPE_VEC3H KERN_TYPE_VECTOR(3, KERN_SCALAR_FLOAT16)
#define KERN_TYPE_VEC4H KERN_TYPE_VECTOR(4, KERN_SCALAR_FLOAT16)

/* Size in bytes of one scalar / one value of type t; 0 for an invalid one. */
KERN_API size_t kern_scalar_size(kern_scalar s);
KERN_API size_t kern_type_size(kern_type t);
/* Warp's spelling: "float32", "int64".  A static string, never NULL
 * ("unknown" for a value outside the enum). */
KERN_API const char *kern_scalar_name(kern_scalar s);
/* Writes Warp's spelling of t ("vec3", "mat33d", "vec2i") into buf (always
 * NUL-terminated when size > 0); returns buf. */
KERN_API char *kern_type_name(kern_type t, char *buf, size_t size);
/* Parses "float32", "wp.float32", "vec3", "wp.mat33d", "int" (int32),
 * "float" (float32); vectors and matrices of any size as "vec5", "vec9d",
 * "mat10x3", "mat5x5i" (Warp's suffixes) or as kern_type_name writes them
 * ("vector(length=5, dtype=float32)").  Returns
 * KERN_ERROR_INVALID_ARGUMENT for anything else. */
KERN_API kern_status kern_type_parse(const char *name, kern_type *out);
/* float16 and bfloat16 values are passed and stored as their bit patterns
 * (uint16_t).  These convert float32 to them rounding to nearest, ties to
 * even (65520 and above become infinity, NaN stays NaN), and back
 * exactly; the same rounding as inside kernels. */
KERN_API uint16_t kern_float16_from_float(float f);
KERN_API float kern_float16_to_float(uint16_t h);
KERN_API uint16_t kern_bfloat16_from_float(float f);
KERN_API float kern_bfloat16_to_float(uint16_t h);

/* ---------------------------------------------------------------- context */

typedef struct kern_context kern_context;
typedef struct kern_array kern_array;
typedef struct kern_module kern_module;
typedef struct kern_kernel kern_kernel;

/* Devices are small integers indexing the context's device list. */
typedef int kern_device;

/* Initializers that set struct_size (Note [struct growth]) and zero every
 * other field.  Valid in C and C++ (where a brace list naming only the
 * first field would draw -Wmissing-field-initializers, hence a template,
 * which cannot have C linkage). */
#ifdef __cplusplus
}
template <class T> inline T kern__init_struct() {
  T t = T();
  t.struct_size = sizeof(T);
  return t;
}
extern "C" {
#define KERN__INIT(T) (kern__init_struct<T>())
#else
#define KERN__INIT(T) {.struct_size = sizeof(T)}
#endif

typedef struct kern_options {
  size_t struct_size; /* sizeof(kern_options); KERN_OPTIONS_INIT sets it */
  /* Kernel cache directory; NULL means $KERN_CACHE_DIR, else
   * $XDG_CACHE_HOME/kern, else ~/.cache/kern.  Copied; need not outlive the
   * call. */
  const char *cache_dir;
  /* CPU worker threads; 0 means $KERN_NUM_THREADS, else one per core. */
  int num_threads;
  /* Non-zero disables the kernel cache (always compile). */
  int no_cache;
  /* ---- end of version 1 (KERN_OPTIONS_SIZE_V1) */
  /* Non-zero compiles kernels in debug mode: every array access is checked
   * against its axis, and an out-of-bounds access fails the launch with
   * KERN_ERROR_OUT_OF_BOUNDS naming the kernel, the file:line:col, the index
   * and the shape, instead of touching memory.  $KERN_DEBUG=1 does the same.
   * Zero (the default here; `kern run` checks by default) is unchecked, for
   * speed: an out-of-bounds index reads or writes whatever memory lies
   * there, as in Warp without debug mode, and may corrupt the process
   * (a crash, a hang, or silently wrong results) with no error returned. */
  int debug;
  /* Must be zero (a later version may give it a meaning); it keeps the
   * struct free of tail padding. */
  int reserved0;
  /* Non-zero refuses @wp.func_native functions: loading or compiling a file
   * that defines one fails with KERN_ERROR_COMPILE naming the decorator.  A
   * snippet is native code pasted into the generated program, able to do
   * anything the process can; a service that compiles kernel files it does
   * not trust sets this (Note [snippet containment] in src/emit/native.c).
   * Zero (the default) compiles snippets, as Warp does. */
  int no_native;
  /* How a CUDA load builds a module that no cache holds (Note [PTX tier] in
   * src/runtime/cuda_module.c): one of kern_cuda_tier.  The default,
   * KERN_CUDA_TIER_AUTO, reads $KERN_CUDA_TIER (auto, nvrtc or ptx) and
   * otherwise loads kern's own PTX for the driver to compile when the
   * module is within what kern emits as PTX (tens of ms instead of NVRTC's
   * 100-200), builds the NVRTC cubin in a child process (Note [background
   * builds] in src/runtime/bgbuild.c; nothing waits for it) and switches
   * every kernel to it at a later launch once it is ready; results are
   * the same bits either way.  KERN_CUDA_TIER_NVRTC always waits for NVRTC
   * (what a benchmark of the final code wants from its first launch);
   * KERN_CUDA_TIER_PTX uses kern's PTX alone where it covers the module
   * (for testing).  Other values are refused. */
  int cuda_tier;
  /* Non-zero makes a context that only compiles (kern_compile_source):
   * no backend is probed, so no vendor library is loaded (PoCL and its
   * LLVM alone map about 100 MB) and the context has no devices; every
   * backend is listed as unavailable with the reason "not probed".
   * `kern compile` uses it. */
  int no_devices;
  /* Must be zero; keeps the struct free of tail padding. */
  int reserved1;
} kern_options;
typedef enum kern_cuda_tier {
  KERN_CUDA_TIER_AUTO = 0,
  KERN_CUDA_TIER_NVRTC = 1,
  KERN_CUDA_TIER_PTX = 2
} kern_cuda_tier;
#define KERN_OPTIONS_INIT KERN__INIT(kern_options)
#define KERN_OPTIONS_SIZE_V1 (2 * sizeof(void *) + 2 * sizeof(int))

/* Creates a context.  opts may be NULL for defaults; otherwise its
 * struct_size must be set (KERN_OPTIONS_INIT).  Backends whose vendor
 * library is missing are listed as unavailable, not an error.  Callable from
 * any thread. */
KERN_API kern_status kern_context_new(const kern_options *opts,
                                      kern_context **out);
/* Frees ctx and every module, kernel and array it still owns; all their
 * handles become invalid (KERN_ERROR_INVALID_HANDLE).  Any string the
 * library returned for ctx or its handles dies with it. */
KERN_API void kern_context_free(kern_context *ctx);

/* The message of the most recent failing call on ctx or on any handle made
 * from it ("path:line:col: error: ..." for compile errors), or "" when none
 * failed since the context was made or the error was last cleared.
 *  - Each failing call replaces the message with its own (the first problem
 *    that call met, which is the cause of the rest).
 *  - A successful call leaves it as it was, so check the status first and
 *    read the message only after a failure.
 *  - kern_clear_error() clears it.
 *  - A call refused because its own handle (the first parameter) is not
 *    live has no context to write to and leaves every message as it was.
 * Thread safety: the message lives in the context, which is used by one
 * thread at a time (see the top of this file), so it is that thread's most
 * recent failure; a thread handing the context over should read it first.
 * The string is owned by ctx and stays valid until the next failing call on
 * ctx, kern_clear_error(ctx) or kern_context_free(ctx), whichever is
 * first; copy it to keep it.  For a NULL or freed ctx the result is a static
 * "". */
KERN_API const char *kern_last_error(const kern_context *ctx);
KERN_API void kern_clear_error(kern_context *ctx);

/* ---------------------------------------------------------------- devices */

typedef enum kern_backend_kind {
  KERN_BACKEND_CPU,
  KERN_BACKEND_CUDA,
  KERN_BACKEND_OPENCL,
  KERN_BACKEND_VULKAN, /* Vulkan compute through SPIR-V (docs/vulkan.md) */
  KERN_BACKEND_COUNT
} kern_backend_kind;

typedef struct kern_backend_info {
  size_t struct_size;    /* sizeof(kern_backend_info); KERN_BACKEND_INFO_INIT */
  /* "cpu", "cuda", "opencl": static strings, valid for the whole process. */
  const char *name;
  /* Why the backend is unavailable ("cuda: libcuda.so.1 not found"); ""
   * when available.  Owned by the context: valid until kern_context_free. */
  const char *reason;
  kern_backend_kind kind;
  int available;         /* non-zero when it has at least one device */
  int device_count;
  int reserved0;         /* zero: keeps the struct free of tail padding */
} kern_backend_info;
#define KERN_BACKEND_INFO_INIT KERN__INIT(kern_backend_info)
#define KERN_BACKEND_INFO_SIZE_V1 (3 * sizeof(void *) + 4 * sizeof(int))

/* A device's description.  Strings are arrays inside the struct, so they
 * belong to the caller.  A property the backend cannot tell is 0 (or ""). */
typedef struct kern_device_info {
  size_t struct_size;      /* sizeof(kern_device_info); KERN_DEVICE_INFO_INIT */
  kern_backend_kind backend;
  int index;               /* index within its backend: "cuda:<index>" */
  char name[128];          /* "NVIDIA H100 80GB HBM3", the CPU model, ... */
  char description[256];   /* one line of further properties, for people */
  int compute_units;       /* CPU logical cores, CUDA SMs, OpenCL compute units */
  int reserved0;           /* zero */
  uint64_t memory_bytes;   /* device memory (physical RAM for the CPU) */
  /* ---- end of version 1 (KERN_DEVICE_INFO_SIZE_V1) */
  /* CUDA: the compute capability (9, 0).  OpenCL: the device's OpenCL
   * version (3, 0).  CPU: 0, 0. */
  int capability_major, capability_minor;
  /* Non-zero when float64 arithmetic, and 64-bit integer atomics on global
   * memory, are supported (always on the CPU and on CUDA). */
  int fp64;
  int int64_atomics;
  /* Threads that execute in lockstep: 32 on NVIDIA, 64 on AMD wavefronts,
   * 1 on the CPU; 0 when an OpenCL driver does not say. */
  int warp_size;
  /* The most threads one work-group (CUDA block) may have; the CPU backend
   * has no work-groups and reports 1. */
  int max_group_size;
  /* The driver's version: CUDA "12.4" (cuDriverGetVersion), OpenCL
   * CL_DRIVER_VERSION, CPU the operating system ("Linux 6.1.0-18-amd64"). */
  char driver_version[64];
  /* The device's UUID where the backend has one (CUDA; OpenCL with
   * cl_khr_device_uuid), else all zero. */
  unsigned char uuid[16];
  /* PCI address "dddd:bb:dd.f" where known (CUDA; OpenCL with
   * cl_khr_pci_bus_info), else "". */
  char pci_bus_id[32];
} kern_device_info;
#define KERN_DEVICE_INFO_INIT KERN__INIT(kern_device_info)
#define KERN_DEVICE_INFO_SIZE_V1                                             \
  (sizeof(size_t) + 2 * sizeof(int) + 128 + 256 + 2 * sizeof(int) +          \
   sizeof(uint64_t))

/* The number of backends this library has (KERN_BACKEND_COUNT or more). */
KERN_API int kern_backend_count(void);
/* Describes one backend; out->struct_size must be set. */
KERN_API kern_status kern_backend_get(kern_context *ctx, kern_backend_kind kind,
                                      kern_backend_info *out);

KERN_API int kern_device_count(const kern_context *ctx);
/* Describes one device; out->struct_size must be set. */
KERN_API kern_status kern_device_get(kern_context *ctx, kern_device dev,
                                     kern_device_info *out);
/* Finds a device by name: "cpu", "cuda", "cuda:1", "opencl:0", or "auto"
 * (the best available).  NULL or "" means $KERN_DEVICE, else "auto".
 * A device list for kern_group_new ("cuda:0,1", "cuda:all") names its
 * first device here.
 * An explicit choice that cannot be honoured is an error, never a fallback. */
KERN_API kern_status kern_device_find(kern_context *ctx, const char *name,
                                      kern_device *out);

/* ---------------------------------------------------------------- arrays */

/* A contiguous, row-major array of 1 to 4 dimensions living on one device.
 * Elements are values of kern_type; a vec3 array of shape (n) holds 3n
 * scalars. */
#define KERN_MAX_DIMS 4

KERN_API kern_status kern_array_new(kern_context *ctx, kern_device dev,
                                    kern_type type, int ndim,
                                    const int64_t *shape, kern_array **out);
/* Frees the array; kern_context_free frees the ones left. */
KERN_API void kern_array_free(kern_array *a);

/* Queries.  On an invalid handle they return 0 (ndim, dim, size, nbytes),
 * -1 (device) or a type whose scalar is KERN_SCALAR_COUNT. */
KERN_API int kern_array_ndim(const kern_array *a);
KERN_API int64_t kern_array_dim(const kern_array *a, int axis);
KERN_API int64_t kern_array_size(const kern_array *a); /* number of elements */
KERN_API size_t kern_array_nbytes(const kern_array *a);
KERN_API kern_type kern_array_type(const kern_array *a);
KERN_API kern_device kern_array_device(const kern_array *a);

/* Copies nbytes (must equal kern_array_nbytes) from host memory in / out. */
KERN_API kern_status kern_array_upload(kern_array *a, const void *src,
                                       size_t nbytes);
KERN_API kern_status kern_array_download(const kern_array *a, void *dst,
                                         size_t nbytes);
/* Sets every element to *value, one element of the array's type. */
KERN_API kern_status kern_array_fill(kern_array *a, const void *value);
/* Sets every byte to zero. */
KERN_API kern_status kern_array_zero(kern_array *a);

/* ---------------------------------------------------------------- modules */

/* The largest kernel source kern compiles, in bytes (64 MiB).  A longer
 * source (or a file that never ends, like /dev/zero) fails with
 * KERN_ERROR_COMPILE and "NAME:1:1: error: the source is larger than ...";
 * kern_module_load_file stops reading there. */
#define KERN_MAX_SOURCE_SIZE ((size_t)64 << 20)

/* Compiles every kernel in a Warp source file for device dev.  A compile
 * error returns KERN_ERROR_COMPILE and kern_last_error() holds
 * "path:line:col: error: message", the source line and a caret. */
KERN_API kern_status kern_module_load_file(kern_context *ctx, kern_device dev,
                                           const char *path,
                                           kern_module **out);
/* The same from a string; name is used in messages (may be NULL).  source
 * and name are copied as needed and need not outlive the call. */
KERN_API kern_status kern_module_load_string(kern_context *ctx, kern_device dev,
                                             const char *name,
                                             const char *source, size_t length,
                                             kern_module **out);
/* Frees the module and its kernels; their handles become invalid. */
KERN_API void kern_module_free(kern_module *m);

KERN_API int kern_module_kernel_count(const kern_module *m);
/* The name of kernel i (0 <= i < count), or NULL.  Owned by the module:
 * valid until the module is freed (with its context at the latest). */
KERN_API const char *kern_module_kernel_name(const kern_module *m, int i);
/* The kernel belongs to the module: its handle is valid until the module is
 * freed, and needs no free of its own.  A generic kernel (typing.Any
 * parameters) is in the module once per wp.overload() in its source, named
 * NAME[T1,T2,...] with Warp's type names ("fill[array(dtype=float32),float32]");
 * asking for the bare NAME is KERN_ERROR_NOT_FOUND with a message listing
 * them. */
KERN_API kern_status kern_module_get_kernel(kern_module *m, const char *name,
                                            kern_kernel **out);
/* Waits until every kernel of m runs the module's final code.  A CUDA
 * module loaded cold on kern's PTX (kern_options.cuda_tier) switches to
 * NVRTC's cubin when the background build is done; this waits for that
 * build and switches now, so that a timing that follows measures the final
 * code.  Returns at once on other backends and for modules already final.
 * A background build that failed leaves the PTX in place: still
 * KERN_SUCCESS, the module keeps working. */
KERN_API kern_status kern_module_wait_final(kern_module *m);

/* Generated source for a target ("c", "cuda", "opencl") without building it.
 * "cuda-compact" is CUDA in the compact form for datasets compiled in bulk
 * (docs/cli.md, kern compile --compact).  "ptx" (sm_90) or "ptx:N" (sm_N)
 * is the PTX of CUDA's quick tier (kern compile --target ptx); a module
 * outside that tier's subset is KERN_ERROR_COMPILE, the message naming the
 * first construct it does not cover.  A target followed by "+adjoint:K"
 * ("c+adjoint:saxpy") is the module holding only kernel K's adjoint,
 * adj_K, as kern_kernel_adjoint builds it; "+tangent:K" its tangent,
 * tan_K (kern_kernel_tangent); a kernel without one is KERN_ERROR_COMPILE
 * naming what has no rule at its line.  "cuda+block:N", "opencl+block:N"
 * and "cuda-compact+block:N" (N from 1 to 1024) compile for launches of
 * block size N where the block's threads exchange values (wp.tile(x) and
 * the rest); without it, for 256, the default block size.
 * *out is malloc'd; the caller frees it with kern_free(). */
KERN_API kern_status kern_compile_source(kern_context *ctx, const char *name,
                                         const char *source, size_t length,
                                         const char *target, char **out);
/* Frees memory the library handed over (kern_compile_source's text). */
KERN_API void kern_free(void *p);

/* ---------------------------------------------------------------- kernels */

typedef enum kern_param_kind {
  KERN_PARAM_VALUE, /* scalar, vector or matrix passed by value */
  KERN_PARAM_ARRAY
  /* KERN_PARAM_INDEXED (2), a wp.indexedarray: "Indexed arrays" below */
} kern_param_kind;

typedef struct kern_param_info {
  size_t struct_size; /* sizeof(kern_param_info); KERN_PARAM_INFO_INIT */
  /* The parameter's name as written in the kernel.  Owned by the module:
   * valid until the kernel's module is freed. */
  const char *name;
  kern_param_kind kind;
  kern_type type;   /* the value type, or the array's element type */
  int ndim;         /* array dimensions; 0 for values */
  /* Appended after 0.1.0: the @wp.struct's name when type.kind is
   * KERN_KIND_STRUCT (a struct parameter or an array of structs), else
   * NULL.  Owned by the module. */
  const char *struct_name;
  /* Appended after struct_name: Warp's name of the type where the kind
   * does not tell it, a quaternion or transform ("quat", "quatd",
   * "transform", "transformd", also as an array's element type), which
   * `type` describes as a vector of 4 or 7 components; NULL for every
   * other type.  Static storage. */
  const char *type_name;
} kern_param_info;
#define KERN_PARAM_INFO_INIT KERN__INIT(kern_param_info)
#define KERN_PARAM_INFO_SIZE_V1 (2 * sizeof(void *) + 2 * sizeof(int) +      \
                                 sizeof(kern_type))

/* The kernel's name; owned by its module, valid until the module is freed.
 * NULL for an invalid handle. */
KERN_API const char *kern_kernel_name(const kern_kernel *k);
KERN_API int kern_kernel_param_count(const kern_kernel *k);
/* Describes parameter i; out->struct_size must be set. */
KERN_API kern_status kern_kernel_param(const kern_kernel *k, int i,
                                       kern_param_info *out);

/* One launch argument.  Build them with the helpers below, which set
 * struct_size; a hand-built one starts from KERN_ARG_INIT. */
typedef enum kern_arg_kind {
  KERN_ARG_ARRAY,
  KERN_ARG_INT,     /* converted to the parameter's integer type */
  KERN_ARG_FLOAT,   /* converted to the parameter's float type */
  KERN_ARG_DATA     /* raw bytes of exactly the parameter's type */
} kern_arg_kind;

typedef struct kern_arg {
  size_t struct_size; /* sizeof(kern_arg); the same in every element */
  kern_arg_kind kind;
  union {
    kern_array *array;
    int64_t i;
    double f;
    const void *data;
  } u;
  size_t size; /* bytes at u.data for KERN_ARG_DATA */
} kern_arg;
#define KERN_ARG_INIT KERN__INIT(kern_arg)
#define KERN_ARG_SIZE_V1 (3 * sizeof(size_t) + 8)

/* The helpers are inline so that they fill the struct as the caller's
 * header declares it (a function returning a struct by value could not). */
static inline kern_arg kern_arg_array(kern_array *a) {
  kern_arg r = KERN_ARG_INIT;
  r.kind = KERN_ARG_ARRAY;
  r.u.array = a;
  return r;
}
static inline kern_arg kern_arg_int(int64_t v) {
  kern_arg r = KERN_ARG_INIT;
  r.kind = KERN_ARG_INT;
  r.u.i = v;
  return r;
}
static inline kern_arg kern_arg_float(double v) {
  kern_arg r = KERN_ARG_INIT;
  r.kind = KERN_ARG_FLOAT;
  r.u.f = v;
  return r;
}
static inline kern_arg kern_arg_data(const void *p, size_t size) {
  kern_arg r = KERN_ARG_INIT;
  r.kind = KERN_ARG_DATA;
  r.u.data = p;
  r.size = size;
  return r;
}

/* Runs k over every index of the ndim-dimensional grid dims (1 to 4
 * dimensions) on the device the module was built for, with nargs arguments
 * in parameter order (args[0].struct_size is the stride of the array, and
 * every element must carry the same).  Returns when the launch has
 * completed.  A freed array argument is KERN_ERROR_INVALID_HANDLE, a NULL
 * one KERN_ERROR_TYPE_MISMATCH (kern has no null arrays; only an adjoint
 * kernel's adj_ arrays may be NULL, kern_kernel_adjoint); both name the
 * argument in kern_last_error.
 * A kernel that unpacks wp.tid() into n values (i, j = wp.tid() is n = 2)
 * on a grid of more than n dimensions gets Warp 1.19's coordinates: the
 * dimensions after the first n are folded, so threads that differ only in
 * them share their coordinates (what wp.launch_tiled relies on); on a grid
 * of fewer, as in Warp, the missing dimensions have size 1 and their
 * indices are 0.  A lone wp.tid() is the first coordinate of any grid.
 * Limits: each dims[i] is at most INT32_MAX (2147483647; thread indices are
 * int32, as in Warp) and their product at most INT64_MAX.  A dims[i] of 0
 * makes an empty grid: the arguments are still checked, nothing runs and
 * the call succeeds, as wp.launch with dim 0 does.  A negative dims[i] is
 * KERN_ERROR_INVALID_ARGUMENT. */
KERN_API kern_status kern_launch(kern_kernel *k, int ndim, const int64_t *dims,
                                 int nargs, const kern_arg *args);

/* Sets the block size of k's later launches, Warp's
 * wp.launch(..., block_dim=N): the threads of one block that cooperate on
 * tiles, and what wp.block_dim() returns.  block_dim is 1 to 1024, or 0
 * for the default (256 on CUDA and OpenCL GPUs, as Warp's CUDA default).
 * The CPU backend runs a block as one thread whatever is set, as Warp's CPU
 * does by default, so there wp.block_dim() is 1.  Warp's
 * wp.launch_tiled(k, dim=[M, N], block_dim=B) is a kern_launch of
 * [M, N, B] with block size B (on the CPU [M, N, 1]): `i, j = wp.tid()`
 * then gives the block's coordinates (dimensions after the ones a kernel
 * unpacks are folded, as in Warp 1.19).  The setting stays with the kernel
 * handle until changed; out-of-range values are KERN_ERROR_INVALID_ARGUMENT
 * and change nothing. */
KERN_API kern_status kern_kernel_set_block_dim(kern_kernel *k, int block_dim);
/* The block size k's launches use on its device (what wp.block_dim()
 * returns there): 1 on the CPU, else the one set or 256; 0 for an invalid
 * handle.  wp.launch_tiled's last dimension. */
KERN_API int kern_kernel_block_dim(const kern_kernel *k);

/* Waits for all work on dev; reports a device fault from earlier work. */
KERN_API kern_status kern_synchronize(kern_context *ctx, kern_device dev);

/* Struct parameters (a @wp.struct passed by value, or the element of an
 * array of structs).  A struct argument is kern_arg_data(&bytes, size)
 * with size exactly the struct's (kern_param_info.type.rows); its bytes
 * follow Warp's layout (docs/ABI.md, "Structs"), which these calls
 * describe field by field, nested structs' fields included, depth first:
 * "inner.v" is field v of field inner. */
typedef struct kern_field_info {
  size_t struct_size; /* sizeof(kern_field_info); KERN_FIELD_INFO_INIT */
  const char *name;   /* dotted path from the parameter's struct; module-owned */
  size_t offset;      /* bytes from the start of the parameter's struct */
  size_t size;        /* bytes the field occupies */
  /* KERN_PARAM_VALUE: a scalar, vector, matrix or (KERN_KIND_STRUCT)
   * nested struct; KERN_PARAM_ARRAY: an array field, stored as Warp's
   * array descriptor (kern_struct_set_array fills it). */
  kern_param_kind kind;
  kern_type type;     /* the value type, or the array's element type */
  int ndim;           /* array dimensions; 0 for values */
  int depth;          /* 0 for a field of the parameter's struct, 1 for a
                         field of a struct field, ... */
  int reserved0;      /* zero; names what would be tail padding */
} kern_field_info;
#define KERN_FIELD_INFO_INIT KERN__INIT(kern_field_info)
#define KERN_FIELD_INFO_SIZE_V1                                              \
  (3 * sizeof(size_t) + sizeof(void *) + 4 * sizeof(int) + sizeof(kern_type))
/* Number of fields (nested ones included) of parameter i's struct; 0 when
 * it is not a struct or an array of structs, or on an invalid handle. */
KERN_API int kern_kernel_param_field_count(const kern_kernel *k, int i);
/* Describes field j of parameter i's struct; out->struct_size must be set. */
KERN_API kern_status kern_kernel_param_field(const kern_kernel *k, int i,
                                             int j, kern_field_info *out);
/* Writes Warp's array descriptor for a (its backend address, shape and
 * contiguous strides) into the KERN_STRUCT_ARRAY_SIZE bytes at dst, the
 * place of an array field in a struct's bytes.  The struct argument then
 * refers to a: a must outlive the launches that use it, and be on the
 * kernel's device.  OpenCL has no device addresses for its buffers: there
 * this is KERN_ERROR_UNSUPPORTED, and a module whose kernels take structs
 * holding arrays does not load. */
#define KERN_STRUCT_ARRAY_SIZE 56
KERN_API kern_status kern_struct_set_array(void *dst, const kern_array *a);

/* Generic kernels (typing.Any parameters) instantiated at launch, as
 * wp.launch instantiates them from its arguments' types.  The module
 * compiles the instantiation the first time (its source again, asking for
 * it as wp.overload(NAME, [T, ...]) would) and keeps it: the same types
 * give the same kernel handle, valid until the module is freed.  An
 * instantiation already in the module (a wp.overload of the source) is
 * returned as is, and a NAME that is an ordinary kernel gives that kernel.
 * Arguments that fit no instantiation are KERN_ERROR_TYPE_MISMATCH (or
 * KERN_ERROR_COMPILE when the body does not compile for them), and
 * kern_last_error names the parameter.
 *
 * From launch arguments, in parameter order: an array argument gives its
 * element type and dimensions, KERN_ARG_INT int32 and KERN_ARG_FLOAT
 * float32 (the types wp.launch gives a Python int and float); a
 * KERN_ARG_DATA argument has no type to tell, so a generic parameter
 * needs kern_module_instantiate_types.  A parameter that is not generic
 * keeps its declared type whatever its argument is (kern_launch checks
 * the argument). */
KERN_API kern_status kern_module_instantiate(kern_module *m, const char *name,
                                             int nargs, const kern_arg *args,
                                             kern_kernel **out);
/* From parameter types: types[i] describes parameter i (kind, type, ndim,
 * struct_name for a struct; name is not read).  For a parameter that is
 * not generic, give its declared type, or set type.scalar to
 * KERN_SCALAR_COUNT to mean it. */
KERN_API kern_status kern_module_instantiate_types(kern_module *m,
                                                   const char *name, int n,
                                                   const kern_param_info *types,
                                                   kern_kernel **out);
/* ---------------------------------------------------------------- autodiff */

/* The reverse-mode adjoint of kernel k, Warp's launch(adjoint=True), as a
 * kernel launched with the usual calls (kern_launch and the others).  Its
 * name is "adj_NAME"; its parameters are k's, then one adjoint per
 * parameter, named adj_P for parameter P, of the same kind and type.  A
 * launch over the forward launch's grid adds the gradients of the values
 * it reads into their adj_ arrays, given the adj_ arrays of what the
 * forward launch wrote: a read a[i] adds into adj_a[i] (atomically); a
 * store a[i] = v takes adj_a[i] into v's gradient and clears adj_a[i], as
 * Warp does for an array's .grad under wp.Tape; wp.atomic_add/sub(a, i, v)
 * takes adj_a[i] (negated for sub).  Stores and atomics are not performed
 * again.  An adj_ array argument may be kern_arg_array(NULL), Warp's None:
 * it is skipped; another must have its array's shape
 * (KERN_ERROR_INVALID_ARGUMENT).  Value parameters get no gradient (their adj_ values are
 * not read).  What is differentiable: docs/language.md, "Autodiff".
 *
 * Compiled on the first call for k (forward-only users pay nothing) and
 * kept with k's module, which frees it; later calls return the same
 * handle.  A kernel using something without an adjoint rule yet is
 * KERN_ERROR_COMPILE, kern_last_error() naming it at its position:
 * "path:line:col: error: autodiff of X is not supported yet".  An
 * instantiated generic kernel (kern_module_instantiate) has one too.  The
 * adjoint of an adjoint is KERN_ERROR_INVALID_ARGUMENT. */
KERN_API kern_status kern_kernel_adjoint(kern_kernel *k, kern_kernel **out);

/* The forward-mode tangent of kernel k (a Jacobian-vector product; Warp
 * has none), as a kernel launched with the usual calls.  Its name is
 * "tan_NAME"; its parameters are k's, then one tangent per parameter,
 * named tan_P for parameter P, of the same kind and type (the adjoint's
 * layout).  A launch does what k's launch does (its stores and atomics
 * are performed) and, besides, writes the tangents of what it writes:
 * a read a[i] takes tan_a[i] as its value's tangent (zero where tan_a is
 * NULL), a float value parameter s has the tangent tan_s, a store
 * a[i] = v stores v's tangent into tan_a[i], wp.atomic_add/sub(a, i, v)
 * adds (subtracts) it into tan_a[i].  So tan_ arrays hold v (the
 * direction) for the inputs and receive J v for the outputs; launched in
 * place of the forward launch, on arrays holding the inputs.  A tan_
 * array argument may be kern_arg_array(NULL): zero tangent, and no tangent
 * written; another must have its array's shape (KERN_ERROR_INVALID_ARGUMENT).
 * Control flow (branches, loops with break and continue, returns) is
 * kept as it is.  Refused (KERN_ERROR_COMPILE, at the position): what the
 * adjoint refuses apart from control flow, a float atomic's returned value
 * and wp.atomic_min/max on floats.  Compiled on the first call, kept and
 * freed with k's module; the tangent of a derived kernel, or of an
 * instantiated generic kernel, is KERN_ERROR_INVALID_ARGUMENT.  Any
 * thread may call it; not concurrently with kern_module_free(k's module). */
KERN_API kern_status kern_kernel_tangent(kern_kernel *k, kern_kernel **out);

/* The declared parameters of the generic kernel NAME: their count (-1 when
 * the module has no generic kernel of that name), and parameter i as
 * kern_kernel_param describes one, a generic one (typing.Any, or an array
 * of Any) with type.scalar KERN_SCALAR_COUNT. */
KERN_API int kern_module_generic_param_count(const kern_module *m,
                                             const char *name);
KERN_API kern_status kern_module_generic_param(const kern_module *m,
                                               const char *name, int i,
                                               kern_param_info *out);

/* Indexed arrays (wp.indexedarray): a data array seen through an int32
 * index array per dimension, element (i, j) being data[indices[0][i],
 * indices[1][j]]; a dimension whose index array is NULL is not remapped.
 * Such a parameter is reported by kern_kernel_param as KERN_PARAM_INDEXED
 * (type and ndim those of the data array) and takes kern_arg_indexed(&ia)
 * at launch.  The launch checks the description: data is a live array of
 * the parameter's element type and dimensions; each index array is a live
 * 1-d int32 array of the same context and device, given only for the
 * data's dimensions; its length is that dimension's size (the data's own
 * where none).  Index values are not checked (as in Warp) except in debug
 * mode, where an index outside the indexed shape or an entry outside the
 * data's extent is KERN_ERROR_OUT_OF_BOUNDS.  The kernel receives Warp's
 * indexedarray_t (docs/ABI.md, "Indexed arrays"); the description is read
 * at the call, but its arrays must live until the launch has completed. */
#define KERN_PARAM_INDEXED ((kern_param_kind)2)
#define KERN_ARG_INDEXED ((kern_arg_kind)5)
typedef struct kern_indexed {
  size_t struct_size;                 /* sizeof(kern_indexed); _INIT */
  kern_array *data;                   /* the data array */
  kern_array *indices[KERN_MAX_DIMS]; /* per dimension; NULL: identity */
} kern_indexed;
#define KERN_INDEXED_INIT KERN__INIT(kern_indexed)
#define KERN_INDEXED_SIZE_V1 (sizeof(size_t) + 5 * sizeof(void *))
static inline kern_arg kern_arg_indexed(const kern_indexed *ia) {
  kern_arg r = KERN_ARG_INIT;
  r.kind = KERN_ARG_INDEXED;
  r.u.data = ia;
  return r;
}
/* Size of Warp's indexedarray_t, the bytes of an indexedarray field of a
 * struct (kern_field_info.kind KERN_PARAM_INDEXED). */
#define KERN_STRUCT_INDEXED_SIZE 104
/* Writes Warp's indexedarray_t for ia (checked as at launch, except
 * against a parameter) into the KERN_STRUCT_INDEXED_SIZE bytes at dst, the
 * place of an indexedarray field in a struct's bytes.  As for
 * kern_struct_set_array, the arrays must outlive the launches that use the
 * bytes, and OpenCL, which has no device addresses, refuses it
 * (KERN_ERROR_UNSUPPORTED). */
KERN_API kern_status kern_struct_set_indexed(void *dst, const kern_indexed *ia);

/* ================================================================ async
 * Streams, events, pinned host memory, graphs, pipelines and interop
 * (issue #11).
 *
 * A stream is an ordered queue of work on one device: work enqueued on a
 * stream runs in the order it was enqueued, and work on different streams
 * may run at the same time.  CUDA streams are CUstreams and events
 * CUevents; OpenCL streams are in-order command queues and events their
 * markers; on the CPU every stream is served by its own worker thread, which
 * runs the stream's work in order while the caller goes on.  Each device of a
 * context has a default stream (the stream argument NULL means it), and
 * every synchronous call above behaves as "enqueue on the default stream,
 * then wait", so it is ordered after asynchronous work enqueued there.
 *
 * Errors of asynchronous work are reported by the next call that waits for
 * it (kern_stream_synchronize, kern_event_synchronize, kern_stream_free) and
 * by kern_last_error().  Memory handed to an asynchronous call (host
 * buffers, argument arrays) must stay alive and unmodified until the work
 * has completed.  kern_array_free waits for every stream of the context
 * first, so freeing an array that queued work still uses is safe.
 *
 * Threads: the calls below follow the context's rule (one thread at a time
 * per context); kern's own worker threads never call back into user code. */

typedef struct kern_stream kern_stream;
typedef struct kern_event kern_event;
typedef struct kern_graph kern_graph;

/* Creates a stream on dev. */
KERN_API kern_status kern_stream_new(kern_context *ctx, kern_device dev,
                            kern_stream **out);
/* Waits for the work still queued on s, then frees it.  Returns the first
 * error of that work, if any (the stream is freed either way).  Freeing a
 * default stream (kern_stream_default) is KERN_ERROR_INVALID_ARGUMENT; NULL
 * is a no-op returning KERN_SUCCESS. */
KERN_API kern_status kern_stream_free(kern_stream *s);
/* The default stream of dev; it belongs to the context. */
KERN_API kern_status kern_stream_default(kern_context *ctx, kern_device dev,
                                kern_stream **out);
/* Waits until everything enqueued on s has completed; reports its first
 * error (and forgets it, so the stream can be used again). */
KERN_API kern_status kern_stream_synchronize(kern_stream *s);
/* *done = 1 when everything enqueued on s has completed, else 0. */
KERN_API kern_status kern_stream_query(kern_stream *s, int *done);
KERN_API kern_device kern_stream_device(const kern_stream *s);

/* Events mark a point in a stream.  An event belongs to its context and may
 * be recorded on any stream of that context, again and again. */
KERN_API kern_status kern_event_new(kern_context *ctx, kern_event **out);
KERN_API void kern_event_free(kern_event *e);
/* Marks the point after everything enqueued on s so far (NULL: the default
 * stream of device 0). */
KERN_API kern_status kern_event_record(kern_event *e, kern_stream *s);
/* Waits until the recorded point has been reached.  An event never
 * recorded is complete. */
KERN_API kern_status kern_event_synchronize(kern_event *e);
KERN_API kern_status kern_event_query(kern_event *e, int *done);
/* Milliseconds between two completed events recorded on streams of the
 * same device (the device's clock on CUDA and OpenCL, the host's monotonic
 * clock on the CPU). */
KERN_API kern_status kern_event_elapsed(kern_event *start, kern_event *end,
                               double *ms);
/* Work enqueued on s after this call waits until e's recorded point has
 * been reached.  An event of another context is KERN_ERROR_INVALID_ARGUMENT.
 * When e was recorded on another backend than s's, the calling thread waits
 * for e here instead (correct, but it blocks the caller). */
KERN_API kern_status kern_stream_wait_event(kern_stream *s, kern_event *e);

/* Asynchronous launch: the same checks as kern_launch, then the launch is
 * enqueued on s (NULL: the default stream of the kernel's device) and the
 * call returns.  Value arguments are copied at the call.  In debug mode the
 * call waits for the launch, to report an out-of-bounds access. */
KERN_API kern_status kern_launch_async(kern_kernel *k, kern_stream *s, int ndim,
                              const int64_t *dims, int nargs,
                              const kern_arg *args);

/* Asynchronous copies and fills.  offset and nbytes are in bytes and must
 * lie within the array.  Host memory from kern_host_alloc makes copies truly
 * asynchronous on CUDA; ordinary (pageable) memory works everywhere but the
 * driver stages it, which is slower and may make the call wait. */
KERN_API kern_status kern_array_upload_async(kern_array *a, kern_stream *s,
                                    size_t offset, const void *src,
                                    size_t nbytes);
KERN_API kern_status kern_array_download_async(const kern_array *a, kern_stream *s,
                                      size_t offset, void *dst,
                                      size_t nbytes);
KERN_API kern_status kern_array_fill_async(kern_array *a, kern_stream *s,
                                  const void *value);
KERN_API kern_status kern_array_zero_async(kern_array *a, kern_stream *s);
/* Device-to-device copy of nbytes from src at src_offset to dst at
 * dst_offset; both arrays on s's device. */
KERN_API kern_status kern_array_copy_async(kern_array *dst, size_t dst_offset,
                                  const kern_array *src, size_t src_offset,
                                  size_t nbytes, kern_stream *s);
/* Whole-array device-to-device copy (same size in bytes), synchronous. */
KERN_API kern_status kern_array_copy(kern_array *dst, const kern_array *src);

/* Page-locked host memory for fast asynchronous copies to and from dev
 * (cuMemHostAlloc on CUDA; on OpenCL the mapped address of a
 * CL_MEM_ALLOC_HOST_PTR buffer, kept mapped until freed, or ordinary
 * memory beyond the device's largest buffer; 4 KiB-aligned ordinary memory
 * on the CPU).  Freed with kern_host_free, or with the context. */
KERN_API kern_status kern_host_alloc(kern_context *ctx, kern_device dev, size_t bytes,
                            void **out);
KERN_API void kern_host_free(kern_context *ctx, void *p);

/* Graphs.  Between begin and end, work enqueued on s is recorded instead of
 * run; the graph replays it on any stream of the same device.  Launches,
 * copies and fills may be recorded; events may not.  kern_graph_set_arg
 * replaces argument arg_index of the launch_index-th recorded launch (both
 * from 0) for later replays, with the same checks as kern_launch.  CUDA uses
 * CUDA graphs; other backends replay the recorded list. */
KERN_API kern_status kern_graph_begin_capture(kern_stream *s);
KERN_API kern_status kern_graph_end_capture(kern_stream *s, kern_graph **out);
KERN_API kern_status kern_graph_replay(kern_graph *g, kern_stream *s);
KERN_API kern_status kern_graph_set_arg(kern_graph *g, int launch_index, int arg_index,
                               kern_arg value);
KERN_API int kern_graph_launch_count(const kern_graph *g);
KERN_API void kern_graph_free(kern_graph *g);

/* Pipelines stream a host array through a chain of kernels in chunks,
 * with `buffers` sets of device buffers used round-robin, uploads, launches
 * and downloads each on a stream of their own, so the upload of one chunk,
 * the compute of another and the download of a third overlap (1 =
 * sequential, 2 = double buffering, 3 = triple buffering).  Kernel j takes (x: array(ndim=1), y:
 * array(ndim=1), extra...) and reads buffer j, writes buffer j + 1; the
 * first kernel reads the input chunk and the last writes the output chunk.
 * The launch grid of each kernel is the chunk's length. */
typedef struct kern_pipeline_config {
  size_t struct_size;           /* sizeof(kern_pipeline_config) */
  kern_kernel *const *kernels;  /* the chain, nkernels long */
  int nkernels;
  /* extra_args[j] (may be NULL) holds nextra[j] arguments after the two
   * arrays of kernel j; the same for every chunk. */
  const kern_arg *const *extra_args;
  const int *nextra;
  const void *input;  /* count elements of the first kernel's x type */
  void *output;       /* count elements of the last kernel's y type */
  int64_t count;
  /* Elements per chunk and buffer sets; 0 lets kern choose, from a model
   * of the device and chain it measures on first use and remembers for
   * the context's lifetime (docs/async.md, "Pipelines"). */
  int64_t chunk;
  int buffers;
  int reserved0; /* must be 0; keeps the struct free of tail padding */
  /* ---- end of version 1 (KERN_PIPELINE_CONFIG_SIZE_V1) */
  /* When timeline is not NULL, the run writes six times per chunk, in ms
   * after the run's first event on the device clock (the host's on the
   * CPU), for the first timeline_chunks chunks: upload start, upload end,
   * compute start, compute end, download start, download end. */
  double *timeline;
  int64_t timeline_chunks;
  /* ---- end of version 2 */
} kern_pipeline_config;
#define KERN_PIPELINE_CONFIG_INIT KERN__INIT(kern_pipeline_config)
#define KERN_PIPELINE_CONFIG_SIZE_V1                                         \
  (offsetof(kern_pipeline_config, reserved0) + sizeof(int))

typedef struct kern_pipeline_report {
  size_t struct_size;   /* sizeof(kern_pipeline_report) */
  int64_t chunk;        /* what ran */
  int buffers;
  int64_t chunks;
  /* 0: given by the caller; 1: measured in this call; 2: remembered. */
  int chosen;
  /* Sums over chunks of each stage's time, and the wall time. */
  double upload_ms, compute_ms, download_ms, wall_ms;
  /* (upload + compute + download) / wall: 1 when nothing overlapped, up to
   * 3 when all three stages ran at once all the time. */
  double overlap;
  /* ---- end of version 1 (KERN_PIPELINE_REPORT_SIZE_V1) */
  /* From the first upload's start to the last download's end, on the
   * device clock (the host's on the CPU). */
  double device_ms;
  /* What kern's model of this device and chain predicted for the run (0
   * when there is no model yet: chunk and buffers were both given), and
   * the rates it measured in GB/s (0 likewise): upload and compute per
   * input byte, download per output byte. */
  double predicted_ms;
  double upload_gbs, compute_gbs, download_gbs;
  /* Chunks whose times were written to config.timeline. */
  int64_t timeline_chunks;
  /* ---- end of version 2 */
} kern_pipeline_report;
#define KERN_PIPELINE_REPORT_INIT KERN__INIT(kern_pipeline_report)
#define KERN_PIPELINE_REPORT_SIZE_V1                                         \
  (offsetof(kern_pipeline_report, overlap) + sizeof(double))

/* Runs the pipeline on the chain's device; returns when the output is
 * written.  report may be NULL. */
KERN_API kern_status kern_pipeline_run(kern_context *ctx,
                              const kern_pipeline_config *config,
                              kern_pipeline_report *report);

/* Interop.  A wrapped array uses foreign memory without copying: for the
 * CPU a host address, for CUDA a CUdeviceptr, for OpenCL a cl_mem.  kern
 * never frees it; it must outlive the array.  An OpenCL device works in one
 * cl_context per kern context: kern's own, made on first use, or the
 * caller's, adopted when a cl_mem or queue of it is wrapped before kern
 * needed one; memory or a queue of any other context is
 * KERN_ERROR_UNSUPPORTED, with the reason (docs/async.md, "Interop"). */
KERN_API kern_status kern_array_wrap(kern_context *ctx, kern_device dev,
                            kern_type type, int ndim, const int64_t *shape,
                            void *native, kern_array **out);
/* The array's memory as the backend sees it (host address, CUdeviceptr,
 * cl_mem); valid until the array is freed. */
KERN_API void *kern_array_native(const kern_array *a);
/* Wraps a foreign CUstream (CUDA) or cl_command_queue (OpenCL: an
 * in-order queue for this very device, in the device's cl_context or one
 * it adopts, as above) without taking ownership: kern_stream_free then
 * frees only kern's handle.  CPU: KERN_ERROR_UNSUPPORTED. */
KERN_API kern_status kern_stream_wrap(kern_context *ctx, kern_device dev, void *native,
                             kern_stream **out);
/* The CUstream or cl_command_queue behind s; NULL on the CPU. */
KERN_API void *kern_stream_native(const kern_stream *s);

/* DLPack (dlpack.h v0.6 and later): export hands out a DLManagedTensor *
 * (as void *) describing the array without copying; the consumer calls its
 * deleter, and the array must stay alive until then.  Import wraps a
 * DLManagedTensor's memory as a kern array and calls its deleter when the
 * array is freed; row-major contiguous tensors (strides NULL or compact)
 * on the CPU (also CUDA host memory), CUDA or OpenCL are accepted, with any
 * byte_offset (on OpenCL one at the device's base address alignment, as a
 * sub-buffer); anything else is KERN_ERROR_UNSUPPORTED with the reason.
 * OpenCL tensors carry the cl_mem as data and kern's OpenCL device index as
 * device_id.  The DLPack 1.x forms (DLManagedTensorVersioned) are at the
 * end of this section. */
KERN_API kern_status kern_array_to_dlpack(kern_array *a, void **managed_tensor);
KERN_API kern_status kern_array_from_dlpack(kern_context *ctx, void *managed_tensor,
                                   kern_array **out);

/* Where kern_device_find's choice for a NULL name comes from: writes the
 * device name it would use ("cuda:1", "auto") and its origin ("KERN_DEVICE",
 * "<path>:<line>" of the config file, "default"). */
KERN_API kern_status kern_device_choice(kern_context *ctx, char *name,
                               size_t name_size, char *origin,
                               size_t origin_size);

/* DLPack 1.x: the same as kern_array_to_dlpack / kern_array_from_dlpack
 * with a DLManagedTensorVersioned * (as void *), the form NumPy 2 and
 * PyTorch ask for with max_version=(1, 0).  Export writes version 1.0 and
 * no flags.  Import reads any version 1.x and refuses another major
 * version, and a read-only tensor (kernels may write any kern array), with
 * KERN_ERROR_UNSUPPORTED; the deleter is called when the array is freed. */
KERN_API kern_status kern_array_to_dlpack_versioned(kern_array *a,
                                                    void **managed_tensor);
KERN_API kern_status kern_array_from_dlpack_versioned(kern_context *ctx,
                                                      void *managed_tensor,
                                                      kern_array **out);

/* ================================================================ multigpu
 * Several devices and several processes (issue #15; docs/multigpu.md).
 *
 * A group is the set of devices that sharded arrays are spread over: the
 * devices of this process ("cuda:0,1", "cuda:all"; on the CPU backend the
 * same device listed several times, "cpu:0,0,0", gives as many shards on
 * it), or, under mpirun, one device in each rank of MPI_COMM_WORLD (libmpi
 * is loaded with dlopen; kern itself does not need MPI).  Each shard has a
 * stream of its own, so the shards' work runs concurrently.
 *
 * A sharded array is block-distributed along its first axis: with N rows
 * and P shards, shard s owns N / P rows, the first N % P shards one more,
 * in order.  With a halo of width h each shard also holds up to h rows of
 * each neighbour (fewer at the ends of the array), which
 * kern_sharded_halo_exchange refreshes.  A replicated array has a full copy
 * on every shard.  Each piece is an ordinary kern_array on its device
 * (kern_sharded_shard).
 *
 * Collectives (all-reduce, all-gather, reduce-scatter, broadcast, halo
 * exchange) go through NCCL on CUDA (libnccl.so.2 by dlopen, or the file
 * named by $KERN_NCCL_LIBRARY), through MPI between the ranks of other
 * backends, and through host memory between the shards of one process
 * otherwise.  Under MPI these calls are collective (every rank makes them,
 * in the same order): kern_group_new, kern_group_free,
 * kern_group_synchronize, kern_sharded_new, kern_sharded_new_replicated,
 * kern_sharded_download of a block-sharded array and the five collectives;
 * the others (loads, uploads, fills, launches, frees of sharded arrays,
 * queries) concern this rank alone.  A rank whose group call failed, that freed its group, or that disagrees
 * about shapes or operations makes the call fail on every rank, and a rank
 * that does not arrive within the timeout (kern_group_options.timeout_s)
 * makes it fail with KERN_ERROR_DEVICE ("timed out") instead of hanging.
 * After such a failure the group refuses further collectives: free it. */

typedef struct kern_group kern_group;
typedef struct kern_sharded kern_sharded;

typedef struct kern_group_options {
  size_t struct_size; /* sizeof(kern_group_options); KERN_GROUP_OPTIONS_INIT */
  /* The devices of this process, comma-separated: "cuda:0,1", "cuda:all",
   * "cpu:0,0,0", "opencl:0,0".  NULL means $KERN_DEVICE, else the config
   * file's device, else "auto".  Under MPI a rank takes one entry of the
   * list, by its local rank ($OMPI_COMM_WORLD_LOCAL_RANK) modulo the list's
   * length. */
  const char *devices;
  /* Shards in this process: 0 means one per listed device; n > 0 repeats
   * the list until it has n entries ("cpu:0" with shards 3 is cpu:0,0,0).
   * Must be 0 or 1 under MPI. */
  int shards;
  /* 0 (the default): the ranks of MPI_COMM_WORLD when the process was
   * started by mpirun ($OMPI_COMM_WORLD_SIZE or $PMI_SIZE is set), else
   * this process alone; 1: MPI always (MPI_Init is called if nobody has,
   * MPI_Finalize at exit); -1: this process alone. */
  int mpi;
  /* Seconds a collective waits for the other ranks before failing; 0 means
   * $KERN_COMM_TIMEOUT, else 300. */
  double timeout_s;
  /* ---- end of version 1 (KERN_GROUP_OPTIONS_SIZE_V1) */
} kern_group_options;
#define KERN_GROUP_OPTIONS_INIT KERN__INIT(kern_group_options)
#define KERN_GROUP_OPTIONS_SIZE_V1                                           \
  (offsetof(kern_group_options, timeout_s) + sizeof(double))

/* Makes a group (opts may be NULL: the defaults above).  Freed with
 * kern_group_free or with the context, which frees its sharded arrays and
 * the modules loaded into it. */
KERN_API kern_status kern_group_new(kern_context *ctx,
                                    const kern_group_options *opts,
                                    kern_group **out);
KERN_API void kern_group_free(kern_group *g);
/* Shards in the whole group (every rank) and in this process; this
 * process's rank and the number of ranks (0 and 1 without MPI); the
 * group-wide index of this process's first shard.  0 (or -1 for the device)
 * on an invalid handle. */
KERN_API int kern_group_size(const kern_group *g);
KERN_API int kern_group_local_size(const kern_group *g);
KERN_API int kern_group_rank(const kern_group *g);
KERN_API int kern_group_nranks(const kern_group *g);
KERN_API int kern_group_first_shard(const kern_group *g);
/* The device and stream of local shard i (0 <= i < local size). */
KERN_API kern_device kern_group_device(const kern_group *g, int i);
KERN_API kern_status kern_group_stream(const kern_group *g, int i,
                                       kern_stream **out);
/* How collectives travel: "nccl", "mpi" or "host"; static. */
KERN_API const char *kern_group_transport(const kern_group *g);
/* Compiles a module for every device of the group; kern_group_launch finds
 * kernels by name in the modules loaded so far (the latest first). */
KERN_API kern_status kern_group_load_file(kern_group *g, const char *path);
KERN_API kern_status kern_group_load_string(kern_group *g, const char *name,
                                            const char *source,
                                            size_t length);
/* Waits for the work of every local shard; under MPI also for the other
 * ranks to arrive (a barrier). */
KERN_API kern_status kern_group_synchronize(kern_group *g);

/* A block-distributed array of global shape `shape` (its first axis split
 * over the shards) with halo rows of width halo (0 for none). */
KERN_API kern_status kern_sharded_new(kern_group *g, kern_type type, int ndim,
                                      const int64_t *shape, int halo,
                                      kern_sharded **out);
/* An array with a full copy on every shard. */
KERN_API kern_status kern_sharded_new_replicated(kern_group *g,
                                                 kern_type type, int ndim,
                                                 const int64_t *shape,
                                                 kern_sharded **out);
KERN_API void kern_sharded_free(kern_sharded *s);
/* Local shard i's array (valid until the sharded array is freed; do not
 * free it), the global index of its first owned row, its owned rows, and
 * the halo rows it holds before them (its array's first axis is halo_lo +
 * rows + the halo rows after them).  Any output may be NULL.  A replicated
 * array's piece owns every row. */
KERN_API kern_status kern_sharded_shard(const kern_sharded *s, int i,
                                        kern_array **array,
                                        int64_t *first_row, int64_t *rows,
                                        int64_t *halo_lo);
/* The global shape; 0 on an invalid handle. */
KERN_API int64_t kern_sharded_dim(const kern_sharded *s, int axis);
/* Scatter: src holds the whole array (nbytes = its size) on every rank,
 * and each shard takes its rows, halos included.  Gather: dst receives the
 * whole array on every rank (a replicated array: shard 0's copy). */
KERN_API kern_status kern_sharded_upload(kern_sharded *s, const void *src,
                                         size_t nbytes);
KERN_API kern_status kern_sharded_download(const kern_sharded *s, void *dst,
                                           size_t nbytes);
/* Sets every element (halos included) to *value, one element of s's type. */
KERN_API kern_status kern_sharded_fill(kern_sharded *s, const void *value);

/* A sharded array as a launch argument (KERN_ARG_SHARDED). */
#define KERN_ARG_SHARDED ((kern_arg_kind)4)
static inline kern_arg kern_arg_sharded(kern_sharded *s) {
  kern_arg r = KERN_ARG_INIT;
  r.kind = KERN_ARG_SHARDED;
  r.u.data = s;
  return r;
}

/* Runs kernel `name` on every local shard at once, each on its stream, and
 * returns when all have finished.  A block-sharded argument is passed to
 * each shard as the whole array: wp.tid() and the array's indices and
 * shape are global, and a shard runs the grid rows it owns (dims[0] must
 * be the first axis of every block-sharded argument, which must all have
 * the same).  A shard may read its halo rows; anything else outside its
 * rows is not there.  A replicated argument is the shard's own copy.
 * Without block-sharded arguments every shard runs the whole grid.  Other
 * arguments are as for kern_launch (a plain array must be on the shard's
 * device, so only with one shard). */
KERN_API kern_status kern_group_launch(kern_group *g, const char *name,
                                       int ndim, const int64_t *dims,
                                       int nargs, const kern_arg *args);

typedef enum kern_reduce_op {
  KERN_REDUCE_SUM,
  KERN_REDUCE_MIN,
  KERN_REDUCE_MAX,
  KERN_REDUCE_COUNT
} kern_reduce_op;

/* Replicated s: every copy becomes the element-wise reduction of all
 * copies (in every rank).  Vectors and matrices reduce per component. */
KERN_API kern_status kern_sharded_all_reduce(kern_sharded *s,
                                             kern_reduce_op op);
/* Block-sharded src -> replicated dst of the same shape and type: every
 * copy of dst receives the whole array. */
KERN_API kern_status kern_sharded_all_gather(const kern_sharded *src,
                                             kern_sharded *dst);
/* Replicated src -> block-sharded dst of the same shape and type: shard s
 * of dst receives the reduction over all copies of src of its rows. */
KERN_API kern_status kern_sharded_reduce_scatter(const kern_sharded *src,
                                                 kern_sharded *dst,
                                                 kern_reduce_op op);
/* Replicated s: the copy of shard `root` (group-wide index) to every copy. */
KERN_API kern_status kern_sharded_broadcast(kern_sharded *s, int root);
/* Block-sharded s with a halo: every shard's halo rows receive its
 * neighbours' current rows.  Every shard that has a neighbour must own at
 * least halo rows. */
KERN_API kern_status kern_sharded_halo_exchange(kern_sharded *s);

/* Asynchronous forms.  Each makes the same checks as its synchronous form
 * (and, under MPI, the same agreement between ranks: a collective's
 * _async form is collective too), enqueues the work on the shards' streams
 * and returns without waiting for it; work enqueued later on a shard's
 * stream, by any call, runs after it.  kern_group_synchronize waits for it
 * all (under MPI with the group's timeout) and reports its errors; a
 * synchronous call is its asynchronous form followed by that wait.  On
 * CUDA the collectives are NCCL calls on the shards' streams.  On the CPU
 * and OpenCL, and between ranks through MPI, collectives move data through
 * host memory: their _async form waits for the shards' earlier work and
 * has completed when it returns.  Buffers and values handed over are
 * copied at the call. */
KERN_API kern_status kern_group_launch_async(kern_group *g, const char *name,
                                             int ndim, const int64_t *dims,
                                             int nargs, const kern_arg *args);
KERN_API kern_status kern_sharded_fill_async(kern_sharded *s,
                                             const void *value);
KERN_API kern_status kern_sharded_all_reduce_async(kern_sharded *s,
                                                   kern_reduce_op op);
KERN_API kern_status kern_sharded_all_gather_async(const kern_sharded *src,
                                                   kern_sharded *dst);
KERN_API kern_status kern_sharded_reduce_scatter_async(
    const kern_sharded *src, kern_sharded *dst, kern_reduce_op op);
KERN_API kern_status kern_sharded_broadcast_async(kern_sharded *s, int root);
KERN_API kern_status kern_sharded_halo_exchange_async(kern_sharded *s);

#ifdef __cplusplus
}
#endif
#endif /* KERN_H */
