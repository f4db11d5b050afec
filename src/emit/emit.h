/*
 * emit.h -- emitters: the IR spelled in C, CUDA C and OpenCL C.
 *
 *   common.c  what the three dialects share: types, expressions,
 *             statements, user functions, and the prelude of helper
 *             functions, generated on demand for the (builtin, types)
 *             pairs a module uses so the output stays small and readable
 *   c.c       host C: the kernel as a loop over a range of the grid
 *   cuda.c    CUDA C: grid-stride loop, warp-shuffle aggregation
 *   opencl.c  OpenCL C: strided or chunked loop, work-group aggregation
 *   vulkan.c  GLSL compute for Vulkan: common.c's C spelled as GLSL
 *
 * A target differs from the others only through struct Target.
 */
#ifndef KERN_EMIT_H
#define KERN_EMIT_H

#include "ir.h"
#include "target.h"

typedef struct Emit Emit;

typedef struct Target {
  kern__target id;
  const char *fn_qual;    /* qualifiers of helper and user functions */
  const char *global;     /* address space of array data ("__global ") */
  const char *restrict_kw;
  const char *int64_fmt;  /* printf length modifier for 64-bit ints */
  /* math function name for a scalar type: C "sqrtf", OpenCL "sqrt" */
  bool overloaded_math;
  void (*prelude)(Emit *E);
  void (*kernel)(Emit *E, IrFunc *f);
  /* helper bodies that depend on the target: atomics */
  void (*atomic_helper)(Emit *E, Buf *b, int bi, const Type *t,
                        const char *name);
  /* The compact form's target (kc_options.compact), or NULL. */
  const struct Target *compact;
  /* Put each prelude item between #ifndef guards (emit_pre). */
  bool guard_helpers;
  /* Rewrites the whole module's text at the end, or NULL (vulkan.c: Note
   * [GLSL through common.c]). */
  void (*finish)(Emit *E, Buf *text);
} Target;

/* The line that ends the shared part (prelude, types, helpers) of a
 * compact CUDA module; what follows is the module's own functions and
 * kernels.  kern synth splits batches there (Note [compact CUDA]). */
#define KERN_EMIT_SHARED_END "// kern: end of shared helpers"

struct Emit {
  Compiler *C;
  IrModule *m;
  const Target *T;
  const kc_options *opts;
  Buf pre;        /* types and helpers, in dependency order */
  Buf out;        /* user functions and kernels */
  Buf natives;    /* @wp.func_native bodies, after everything (native.c) */
  const char **have; /* names already in pre */
  int nhave, caphave;
  IrFunc *f;      /* function being emitted */
  int indent;
  int loop_depth;
  /* Inside a loop where thread index 0 equals the loop counter k_t (a 1-D
   * launch): indices that are that thread index address with k_t itself,
   * in 64 bits, so the target compiler sees contiguous accesses. */
  bool fast_tid;
  /* Emitting one body for both loops (Note [one body, two loops] in
   * common.c): a thread index is written between the bytes 1 and 2. */
  bool tid_marks;
  int loop_id;              /* numbers each thread loop's k_next label */
  bool kret_flag;           /* Note [vulkan early return]: k_kret, no goto */
  const char *loop_close;   /* ends a thread loop's header; NULL: "}" */
  /* Inside one lane of a vectorised loop (cuda.c, Note [16-byte
   * accesses]): accesses of arrays in vec_arrays read and write lane
   * vec_lane of the per-array vector variable instead of memory. */
  int vec_lane;             /* -1 outside */
  IrVar **vec_arrays;
  int nvec_arrays;
  Names haveset;            /* the names of `have`, for emit_need */
  struct EmitMemo *memo;    /* Note [helper memo] in memo.c; NULL: off */
  /* The next array load yields the memory form of its element (an
   * S_SETFIELD's target; Note [vulkan bool memory] in common.c). */
  bool vk_raw;
  /* The next array load's index is this text (a debug-mode field store's
   * element index, evaluated before; Note [debug mode on vulkan]). */
  const char *vk_index;
  /* Note [vulkan scratch frame] (vk_fixed.c): each fixed array's offset
   * in the invocation's frame, and the frame's size so far. */
  IrVar **vk_fixv;
  int64_t *vk_fixo;
  int vk_nfix, vk_capfix;
  int64_t vk_frame;
};

/* Emits a whole module; returns the source (arena; arena_take hands it
 * over without a copy) and its length in *len. */
char *emit_module(Compiler *C, IrModule *m, const Target *T,
                  const kc_options *opts, kc_memo *memo, size_t *len);

extern const Target target_c, target_cuda, target_opencl, target_cuda_compact,
    target_vulkan;

/* ptx.c: the module as PTX for sm_<opts->ptx> (Note [PTX tier]), or NULL
 * with *why set ("path:line:col: the PTX tier does not cover ...") when
 * it uses something outside the tier's subset.  Both in the arena. */
const char *emit_ptx(Compiler *C, IrModule *m, const kc_options *opts,
                     const char **why);

/* native.c: @wp.func_native functions and wp.address_of() */
void emit_native_function(Emit *E, IrFunc *f);
void emit_address(Emit *E, Buf *b, IrExpr *e);
/* A path as #line can name it: safe characters kept, the rest %XX. */
const char *emit_line_path(Emit *E, const char *s);

/* common.c, for the targets */
const char *emit_ctype(Emit *E, const Type *t);   /* C spelling of a value type */
/* A CUDA or OpenCL kernel's declaration of its block's exchange buffer,
 * where its threads exchange values (Note [block exchange] in
 * lower/check_tile.c); nothing for other kernels. */
void emit_xchg_buffer(Emit *E, IrFunc *f);
const char *emit_tysig(Emit *E, const Type *t);   /* f32, v3f64, m33f32 */
const char *emit_arrtype(Emit *E, const Type *arr);
void emit_elem_size(Emit *E, const char *et, const Type *elem); /* struct of an array */
const char *emit_helper(Emit *E, int bi, const Type *ret, int n,
                        const Type **args);
const char *emit_atomic_name(Emit *E, int bi, const Type *t);
void emit_body(Emit *E, IrFunc *f);       /* statements of f */
void emit_locals(Emit *E, IrFunc *f);     /* declarations of f's locals */
/* The loop over a kernel's work items: header opens it and defines k_t;
 * fast means k_t is thread index 0 (1-D launch).  emit_thread_loops emits
 * the fast copy and the general one behind a test of the launch shape. */
void emit_thread_loop(Emit *E, IrFunc *f, const char *pragma,
                      const char *header, bool fast);
void emit_thread_loops(Emit *E, IrFunc *f, const char *pragma,
                       const char *header);
void emit_expr(Emit *E, Buf *b, IrExpr *e);
void emit_line(Emit *E, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void emit_index(Emit *E, Buf *b, IrVar *arr, IrExpr **idx, int n);
/* Appends s[0, n) as the body of a string literal, equally safe inside a
 * comment, for every target: the one way user text enters generated code
 * (Note [quoting user text] in common.c). */
void emit_quote(Buf *b, const char *s, size_t n);
/* The same, checking each index in debug mode against its axis and
 * reporting pos (Note [debug mode] in ir/ir.h). */
void emit_index_at(Emit *E, Buf *b, IrVar *arr, IrExpr **idx, int n,
                   const Pos *pos);
const char *emit_array_data(Emit *E, IrVar *arr);
const char *emit_zero(Emit *E, const Type *t);
bool emit_need(Emit *E, const char *name); /* true the first time */
void emit_pre(Emit *E, const char *name, const char *fmt, ...);
bool emit_vec_array(Emit *E, IrVar *v);   /* in E->vec_arrays */
/* Note [16-byte accesses] (vecplan.c): the arrays of a 1-D kernel whose
 * loop can read and write them 16 bytes at a time. */
typedef struct VecPlan {
  IrVar *arr[32];
  bool stored[32];
  int narr, size; /* size: the elements' bytes, 4 or 8 */
  bool ok;
} VecPlan;
bool emit_vec_plan(Emit *E, IrFunc *f, VecPlan *V);
void emit_vec_lanes(Emit *E, IrFunc *f, VecPlan *V, int W, bool glsl);
/* The identity of an aggregated atomic's combine (Note [atomic
 * aggregation]): 0 for add, the largest value for min, the smallest for
 * max, spelled so that every target accepts it. */
const char *emit_agg_identity(const IrAgg *g);

/* Note [vulkan bool memory]: whether t holds a bool on the vulkan target,
 * its memory form, and the conversion into (load) or out of it. */
bool emit_vk_boolmem(Emit *E, const Type *t);
bool emit_vk_cas_form(const Type *t);
const char *emit_vk_bits_ref(Emit *E, int bits);
const char *emit_vk_scalar_ref(Emit *E, kern_scalar sc);
void emit_vk_fault_flush(Emit *E); /* Note [debug mode on vulkan] */
const char *emit_vk_atomic_addr(Emit *E, IrVar *arr, const char *idx,
                                const Type *t);
const char *emit_vk_memtype(Emit *E, const Type *t);
const char *emit_vk_conv(Emit *E, const Type *t, bool load);

/* half.c: float16 and bfloat16 (Note [16-bit floats]) */
bool emit_lowp(const Type *t);                   /* a 16-bit float value type */
const Type *emit_wide(Emit *E, const Type *t);   /* its float32 twin */
const char *emit_stype(Emit *E, const Type *t);  /* C type in memory */
const char *emit_lowp_conv(Emit *E, kern_scalar sc, bool to_float);
const char *emit_lowp_round(Emit *E, const Type *t);
const char *emit_lowp_mem(Emit *E, const Type *t, bool load);
const char *emit_lowp_bits(Emit *E, const Type *t, bool load); /* NaN payloads kept */
const char *emit_lowp_atomic(Emit *E, int bi, const Type *t);
bool emit_lowp_expr(Emit *E, Buf *b, IrExpr *e);
const char *emit_lowp_stored(Emit *E, const Type *t, IrExpr *e);
bool emit_vk_zero_op(Emit *E, Buf *b, IrExpr *e);

/* extra.c: the helper of one of the builtins in BUILTIN_LIST_EXTRA, in b;
 * false if bi is not one of them. */
bool emit_extra_helper(Emit *E, Buf *b, int bi, const Type *ret, int n,
                       const Type **args, const char *name);
/* extra.c: `T *name` on C, CUDA, OpenCL; `inout T name[n]` on Vulkan
 * (Note [vulkan array parameters]) */
const char *emit_array_param(Emit *E, const char *T, const char *name, int n);
/* linalg.c: wp.svd3, svd2, qr3, eig3 (one result per index argument) */
bool emit_linalg_helper(Emit *E, Buf *b, int bi, const Type *ret,
                        const Type **args, const char *name);
/* view.c: array views (Note [views] in ir/ir.h) */
/* fixed.c */
const char *emit_array_space(Emit *E, const Type *arr);
bool emit_fixed_local(Emit *E, IrVar *v);
/* vk_fixed.c: Note [vulkan scratch frame] */
bool emit_vk_fixed_local(Emit *E, IrVar *v);
bool emit_vk_uses_scratch(const IrModule *m);
void emit_fixed_call(Emit *E, Buf *b, IrExpr *e);
const char *emit_view_type(Emit *E, const Type *t);
const char *emit_view_zero(Emit *E, const Type *t);
void emit_view(Emit *E, Buf *b, IrExpr *e);
void emit_checked_index(Emit *E, Buf *b, IrVar *arr, int axis, IrExpr *idx,
                        Pos pos);
void emit_check_open(Emit *E, Buf *b, IrVar *arr, int axis, Pos pos);
/* indexed.c: wp.indexedarray */
const char *emit_indexed_type(Emit *E, const Type *t);
const char *emit_indexed_zero(Emit *E, const Type *t);
const char *emit_indexed_warp_type(Emit *E, const Type *t);
const char *emit_indexed_warp_zero(Emit *E, const Type *t);
const char *emit_indexed_from_warp(Emit *E, const Type *t);
void emit_indexed_offset(Emit *E, Buf *b, IrVar *arr, IrExpr **idx, int n,
                         const Pos *pos);
void emit_indexed_view(Emit *E, Buf *b, IrExpr *e);
void emit_indexed_ocl_params(Emit *E, Buf *sig, IrVar *p);
void emit_indexed_ocl_prologue(Emit *E, IrVar *p);
void emit_indexed_vk_member(Emit *E, Buf *args, IrVar *p);
void emit_indexed_vk_prologue(Emit *E, IrVar *p);

/* memo.c: prelude items of earlier compilations (Note [helper memo]) */
typedef struct EmitMemo EmitMemo;
kc_memo *emit_memo_new(void);              /* NULL when out of memory */
void emit_memo_free(kc_memo *m);           /* NULL: nothing */
void emit_memo_begin(Emit *E, kc_memo *cache);
void emit_memo_end(Emit *E);               /* stores what the module made */
bool emit_memo_replay(Emit *E, const char *name); /* false: not cached */
void emit_memo_dep(Emit *E, const char *name);
void emit_memo_open(Emit *E, const char *name);
void emit_memo_pre(Emit *E, const char *name, size_t off);
void emit_memo_taint(Emit *E); /* the open items depend on this module */

/* gemm.c: Note [tile GEMM]. */
void kern__emit_gemm(Emit *E, IrFunc *f);
int kern__gemm_threads(const IrGemm *g);
int kern__gemm_stages(const IrGemm *g);
int kern__gemm_smem(const IrGemm *g);

#endif
