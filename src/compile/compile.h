/*
 * compile.h -- the one call through which the runtime reaches the compiler.
 *
 * The runtime never sees the AST or the IR: it hands source text and a
 * target to kern__compile() and gets back generated code plus a description
 * of each kernel's parameters.  This is the only compiler header the
 * runtime includes (with base/target.h, which it pulls in, and
 * base/common.h, the allocator).
 *
 * ---------------------------------------------------------------------
 * ABI of generated code (every target)
 *
 * Value types are laid out as consecutive scalars with the scalar's
 * alignment: vec3 is 12 bytes, mat33d is 72 bytes row-major (as in Warp).
 * bool is one byte.  A @wp.struct has C's natural layout of those, as
 * Warp's ctypes Structure has it, an array field being Warp's 56-byte
 * array_t (base/layout.c); it is passed by value like the other values.
 * float16 and bfloat16 are 2 bytes in arrays, but a value parameter of
 * them arrives widened to float32 (a vec3h parameter is 12 bytes):
 * generated code computes in float32 (Note [16-bit floats] in
 * emit/half.c), and the launch widens the caller's 16 bits.
 *
 * An array argument is the struct kern__arr below: a data pointer to
 * contiguous row-major elements and the shape (unused dims are 1).
 *
 * The launch grid is kern__dims: dims[0..3] (unused are 1), total = their
 * product (the end of the range that runs, which starts at begin: 0 except
 * for the shards of a sharded launch), chunk = items per work item for targets that loop over
 * contiguous chunks (0 = grid-stride loop).  A linear index t in [0,total)
 * maps to (i,j,k,l) in row-major order over dims[0..ndim-1].
 *
 * C target:  void SYMBOL(void *const *args, int64_t begin, int64_t end,
 *                        const kern__dims *dims);
 *   args[p] points to parameter p's value (a kern__arr for arrays).  The
 *   function runs every linear index in [begin, end).  Several threads call
 *   it at once on disjoint ranges.
 *
 * CUDA target: extern "C" __global__ void SYMBOL(P0, P1, ..., kern__dims);
 *   each parameter by value (arrays as kern__arr), dims last.  Any grid and
 *   any 1-D block size up to 1024 covers the grid (grid-stride loop).
 *
 * OpenCL target: __kernel void SYMBOL(...): an array parameter becomes two
 *   arguments, `__global T *` and a kern__shape struct (int64 d[4]); a value
 *   parameter is passed by value; kern__dims is last.  chunk = 0 means a
 *   grid-stride loop over get_global_id(0)/get_global_size(0); chunk > 0
 *   means work item g runs indices [g*chunk, min((g+1)*chunk, total)).
 *   1-D NDRange; any local size up to the device limit works.
 * ---------------------------------------------------------------------
 */
#ifndef KERN_COMPILE_H
#define KERN_COMPILE_H

#include "kern.h"
#include "target.h" /* kern__target, kc_options (base/) */

typedef struct kern__arr {
  void *data;
  int64_t shape[4];
  /* Elements to subtract from data before indexing: a shard of a sharded
   * array is indexed with the whole array's indices (Note [shard launch] in
   * runtime/multi.c).  Only the OpenCL backend reads it (a cl_mem cannot be
   * offset on the host); the C and CUDA targets read the first 40 bytes,
   * and the runtime offsets their flat data pointer instead. */
  int64_t off;
} kern__arr;

typedef struct kern__shape {
  int64_t d[4];
} kern__shape;

typedef struct kern__dims {
  int64_t dim[4];
  int64_t total;
  int64_t chunk;
  /* The first linear index to run: a launch runs [begin, total).  0 for
   * ordinary launches; a shard of a sharded launch runs its own rows of
   * the whole grid (Note [shard launch] in runtime/multi.c).  The C target
   * gets the range as begin/end arguments instead and ignores it. */
  int64_t begin;
  /* The block size of the launch (Warp's block_dim, Note [block_dim] in
   * runtime/module.c): the threads that cooperate on one tile; -1 the
   * backend's default (256 on CUDA); 0 leaves the backend's own launch
   * shape (a kernel without tiles or wp.block_dim()).  The CPU target reads
   * none of it: a block there is one thread. */
  int64_t block;
} kern__dims;

/* One field of a struct parameter (or of an array of structs' element),
 * nested structs' fields included, depth first; kern_field_info is its
 * public form. */
typedef struct kc_field {
  char *name;     /* dotted path: "inner.v" */
  size_t offset;  /* from the start of the outermost struct */
  size_t size;
  kern_param_kind kind; /* KERN_PARAM_ARRAY: Warp's array_t */
  kern_type type;       /* value type, array element type, or the struct */
  int ndim;
  int depth;
} kc_field;

typedef struct kc_param {
  char *name;
  kern_param_kind kind;
  kern_type type; /* value type or array element type */
  int ndim;       /* arrays only */
  /* a struct, or an array of structs: its name and fields */
  char *struct_name;
  int nfields;
  kc_field *fields;
  /* In kc_result.generics: a typing.Any parameter (or an array of Any),
   * whose type is given when the kernel is instantiated; type is then
   * {KERN_KIND_SCALAR, KERN_SCALAR_COUNT}. */
  int generic;
  /* Last, so positional initializers of the fields above stay valid.
   * Warp's name of a quaternion or transform (or array element of one):
   * "quat", "transformd" ...; a static string, NULL for other types
   * (kern_param_info.type_name). */
  const char *type_name;
} kc_param;

/* A tile GEMM's tensor-core kernel (Note [tile GEMM] in emit/gemm.c):
 * threads == 0 when the kernel has none.  Parameters are indices. */
typedef struct kc_gemm {
  char *symbol;     /* SYMBOL_wg, in an sm_90a build only */
  int a, b, c, bias, kparam, kaxis;
  int tm, tn, tk;
  int in;           /* A's and B's kern_scalar: float16 or bfloat16 */
  int threads, smem;
} kc_gemm;

typedef struct kc_kernel {
  char *name;     /* the Python name */
  char *symbol;   /* the generated function's name */
  int nparams;
  kc_param *params;
  int needs_fp64;   /* uses float64 anywhere (OpenCL needs cl_khr_fp64) */
  int has_atomics;  /* uses atomics (CUDA/OpenCL may need 64-bit atomics) */
  /* Debug mode (Note [debug mode] in ir/ir.h): the last parameter is the
   * hidden fault record, an int64 array of KERN__FAULT_WORDS, not part of
   * the kernel's signature as users see it. */
  int fault_param;
  /* How many values the kernel unpacks wp.tid() into (i, j = wp.tid() is
   * 2); 1 for a lone wp.tid(), 0 when it never calls it.  kern_launch
   * refuses grids of more dimensions than this when it is 2 or more. */
  int tid_dims;
  /* Calls wp.block_dim() or uses tiles: its launches get a block size
   * even when none was asked for (Note [block_dim] in runtime/module.c). */
  int uses_block;
  kc_gemm gemm;
  /* CUDA: the bytes of dynamic shared memory each launch asks for, the
   * block exchange buffer where it is over the 48 KiB a kernel may declare
   * (KERN_CUDA_STATIC_SHARED); 0: none. */
  int dyn_smem;
} kc_kernel;

/* The fault record: [0] set to 1 by the first fault, [1] line, [2] column,
 * [3] the array (index into kc_result.array_names), [4] axis, [5] index,
 * [6] axis length. */
#define KERN__FAULT_WORDS 8

typedef struct kc_result {
  char *source;     /* generated code; malloc'd */
  size_t source_len;
  int nkernels;
  kc_kernel *kernels;
  char *error;      /* on failure: full diagnostic (malloc'd) */
  /* debug mode: the fault record's word 3 indexes this table of array names */
  char **array_names;
  int narray_names;
  /* The generic kernels (typing.Any parameters), which are not in
   * kernels: their names and declared parameters (no symbol), for
   * instantiating them at launch (runtime/generic.c); and the name the
   * source imports warp as, to spell an instantiation request. */
  int ngenerics;
  kc_kernel *generics;
  char *wp_alias;
  /* Why the module cannot run on OpenCL ("path:line:col: ..."), or NULL:
   * the runtime refuses to load it there (wp.address_of, check_native.c) */
  char *no_opencl;
  /* kc_options.ptx: the module as PTX for the CUDA driver's JIT (the quick
   * tier of a cold CUDA load, Note [PTX tier] in emit/ptx.c), or NULL and
   * ptx_why says what the PTX emitter does not cover ("path:line:col: ..."). */
  char *ptx;
  size_t ptx_len;
  char *ptx_why;
  /* Last, so positional initializers stay valid.  Why the module cannot run where a block has more than one thread
   * (CUDA, OpenCL): "path:line:col: error: wp.tile collects ..." or NULL
   * (Note [threads' values] in lower/check_tile.c); the runtime refuses
   * to load it or print its CUDA or OpenCL there. */
  char *no_gpu;
  /* The module's threads exchange values (wp.tile(x) and the rest): on
   * CUDA and OpenCL it is compiled per launch block size, this one
   * (kc_options.block; Note [block exchange] in lower/check_tile.c); 0:
   * it is not, or it was compiled for no block size. */
  int block;
  /* A kernel has a tile GEMM kernel (kc_kernel.gemm): on an sm_90 device
   * the module is built for sm_90a, which that kernel needs. */
  int sm90a;
} kc_result;

/* Parses, checks, lowers and emits every kernel of one source file.
 * name is the file name used in diagnostics.  On failure returns the status
 * (KERN_ERROR_COMPILE, KERN_ERROR_OUT_OF_MEMORY) and sets out->error. */
kern_status kern__compile(const char *name, const char *src, size_t len,
                          kern__target target, const kc_options *opts,
                          kc_result *out);
void kern__compile_result_free(kc_result *r);

/* kern__compile with a cache of generated helpers shared by the
 * compilations of one context (Note [helper memo] in emit/memo.c); the
 * output is the same bytes.  memo NULL: none. */
kern_status kern__compile_memo(const char *name, const char *src, size_t len,
                               kern__target target, const kc_options *opts,
                               kc_memo *memo, kc_result *out);

const char *kern__target_name(kern__target t);

/* A cache of generated helpers for kc_options.memo (Note [helper memo] in
 * emit/memo.c), owned by one context; NULL when out of memory, which only
 * means compiling without it.  kern__memo_free(NULL) does nothing. */
kc_memo *kern__memo_new(void);
void kern__memo_free(kc_memo *m);

#endif
