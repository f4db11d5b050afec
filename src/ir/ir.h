/*
 * ir.h -- the one IR every emitter reads.
 *
 *   build.c   constructors the lowering (lower/check.c) builds the IR with
 *   passes.c  target-independent passes: same-address atomic aggregation,
 *             read-only / contiguity / thread-index facts
 *   adjoint.c a kernel's reverse-mode adjoint, as another kernel
 *   expand.c  vectors, matrices, quaternions, transforms and the composite
 *             builtins expanded into scalar IR (Note [expansion]), for the
 *             PTX tier and, as a test of it, the C emitter
 *
 * The IR is a typed, structured tree: control flow stays structured (if,
 * loops, break/continue) because all three targets are C dialects that want
 * it that way, but everything Python leaves implicit is explicit here:
 * every name is a variable, every call names its builtin and operand types,
 * every conversion is a cast, Python's operator semantics (floor division,
 * wrap of negative indices, array `+=` as an atomic) are spelled out, and
 * tuple results are out-variables.  An emitter never consults the AST.
 */
#ifndef KERN_IR_H
#define KERN_IR_H

/* The IR knows nothing of the AST: it uses only the ground floor's types,
 * positions, operator codes and builtin ids (docs/ARCHITECTURE.md). */
#include "base.h"

typedef struct IrVar IrVar;
typedef struct IrExpr IrExpr;
typedef struct IrStmt IrStmt;
typedef struct IrFunc IrFunc;
typedef struct IrAgg IrAgg;
typedef struct IrGemm IrGemm;

struct IrVar {
  const char *name;  /* C identifier, unique in its function */
  const Type *ty;
  bool is_param;
  int index;         /* parameter index */
  /* facts from passes.c, for arrays */
  bool written;      /* stored to (or atomics) */
  bool read;
  int nassign;       /* assignments to a local */
  bool from_tid;     /* every assignment is a wp.tid() component */
  int ntid_assign;   /* assignments of a wp.tid() component (passes.c) */
  IrVar *next;
  bool byref;        /* a wp.ref[T] parameter: copied back through k_refN */
  bool tile_shared;  /* a tile Warp keeps in shared memory, which print
                        shows (Note [tile storage] in lower/check_tile.c) */
};

typedef enum IrExprKind {
  E_CONST,   /* ival / fval by type */
  E_VAR,     /* var */
  E_UNARY,   /* op a (scalar: -, ~, +) */
  E_BINARY,  /* a op b on scalars of one type, C semantics; cmp yields bool */
  E_AND,     /* a && b */
  E_OR,
  E_NOT,
  E_SELECT,  /* a ? b : c */
  E_CAST,    /* (ty) a, scalar to scalar (vec/mat conversions too) */
  E_CALL,    /* builtin bi on args: an emitter helper per (bi, types) */
  E_FCALL,   /* user function fn(args, &outs...) */
  E_LOAD,    /* var[args...] (array element; indices already wrapped) */
  E_SHAPE,   /* var.shape[ival]; ival IR_NONNULL: var's data is not null */
  E_COMP,    /* a[b] of a vector, a[b] row of a matrix, a[b][c] of a matrix */
  E_MAKE,    /* vector/matrix from nargs components, or broadcast of 1 */
  E_ATOMIC,  /* bi on var[args] with value c (and cmp b for cas) */
  E_TID,     /* thread index component ival */
  E_FIELD,   /* field ival of the struct a */
  E_VIEW,    /* a view of the array var (Note [views]) */
  E_ADDR     /* wp.address_of(a): a's address as a uint64; a is a variable,
                a load, or a field or component of one (check_native.c) */
} IrExprKind;
/* E_SHAPE's ival for the truth value of an array (`if arr:`), a bool: is
 * its data pointer non-null, as Warp tests it (a struct's unset array
 * field is null). */
#define IR_NONNULL 4

/* E_CALL's ival for a float wp.min, wp.max or wp.clamp that an autodiff
 * module keeps a call through the expansion (ir_adjoint_prepare): its
 * adjoint follows Warp's rule for ties, which the expanded form's
 * selection would not; its wp.svd3, svd2, qr3 and eig3, which the
 * expansion hands on whole (Note [linalg adjoints] in adjoint.c); and a
 * random vector (wp.sample_unit_sphere(state), ...), a constant of the
 * adjoint. */
#define IR_KEEP_CALL 7

/* Note [views]: E_VIEW selects from the array var (contiguous or itself a
 * view) with one entry per leading axis, three args each: an integer
 * index (args[3k], then two zeros) or, where bit k of ival is set, a
 * slice's start, stop and step (int32; an omitted start is INT32_MAX and
 * an omitted stop INT32_MIN, Warp's SLICE_BEGIN and SLICE_END).  No
 * entries is the whole array.  Its type is a strided array (Type.strided)
 * of the slices' axes followed by the axes not indexed, as Warp's view(). */

struct IrExpr {
  IrExprKind kind;
  const Type *ty;
  int op;            /* OP_* for unary/binary */
  int bi;            /* BI_* for calls and atomics */
  IrExpr *a, *b, *c;
  IrExpr **args;
  int nargs;
  IrVar *var;
  IrFunc *fn;
  IrVar **outs;      /* E_FCALL: variables receiving results 1..n */
  int nouts;
  uint64_t ival;
  double fval;
  bool contiguous;   /* E_LOAD: index is the thread index plus a constant */
  Pos pos;           /* loads and atomics: where, for debug-mode reports */
  IrVar **refs;      /* E_FCALL: the caller's variables for the callee's
                        wp.ref parameters, in parameter order */
  int nrefs;
  int *fpath;        /* E_ATOMIC on a struct element: the field it adds
                        into, a path of field indices from the element
                        (Note [struct tile atomics] in check_tile.c) */
  int nfpath;
  IrStmt **mark;     /* lowering: where the statement list ended when the
                        checker began this expression (Note [evaluation
                        order] in check_print.c) */
};

typedef enum IrStmtKind {
  S_ASSIGN,   /* var = a */
  S_SETCOMP,  /* var[a] = c  or  var[a][b] = c  (vector/matrix component) */
  S_STORE,    /* var[args] = c */
  S_EXPR,     /* a, evaluated for its effects */
  S_IF,       /* if (a) body else orelse */
  S_FOR,      /* for var = a; step > 0 ? var < b : var > b; var += c */
  S_WHILE,    /* while (a) body */
  S_BREAK,
  S_CONTINUE,
  S_RETURN,   /* return a (functions) */
  S_KRETURN,  /* end this thread's work item (kernels) */
  S_AGG,      /* agg->acc op= a: an aggregated atomic (see passes.c) */
  S_PRINTF,   /* printf(str, args) */
  S_ASSERT,   /* assert a (debug mode only) */
  S_SETFIELD  /* a = c, a a chain of E_FIELD on the variable var */
} IrStmtKind;

struct IrStmt {
  IrStmtKind kind;
  Pos pos;
  IrVar *var;
  IrExpr *a, *b, *c;
  IrExpr **args;
  int nargs;
  IrStmt *body, *orelse;
  IrStmt *next;
  IrAgg *agg;
  const char *str;
  int slen;
  bool tile;          /* S_FOR: a loop of a tile builtin's lowering
                       * (lower/check_tile.c; Note [tile adjoints]) */
  const char *noadj;  /* a statement lowering the tile builtin so named,
                       * whose adjoint kern does not build (Note [tile
                       * adjoints]); NULL for any other */
};

/* Note [atomic aggregation]: `wp.atomic_add(out, k, v)` with k the same for
 * every thread and the result unused is, per thread, `acc += v`; the
 * emitter combines acc across the work a thread, a warp, a block or a
 * chunk owns and issues one atomic for all of them. */
struct IrAgg {
  int id;
  int bi;            /* BI_ATOMIC_ADD / MIN / MAX */
  IrVar *array;
  IrExpr **index;    /* uniform indices */
  int nindex;
  const Type *ty;    /* element type (scalar) */
  IrAgg *next;
};

/* A kernel recognised as Warp's tile GEMM (Note [GEMM recognition] in
 * lower/check_gemm.c): C = epilogue(A @ B) tile by tile, which the CUDA
 * emitter gives a tensor-core kernel of its own (Note [tile GEMM] in
 * emit/gemm.c).  Parameters are indices into the kernel's. */
struct IrGemm {
  int a, b, c;        /* A [M, K], B [K, N], C [M, N], each 2-D */
  int bias;           /* a 1-D array of acc added along N, or -1 */
  int kparam, kaxis;  /* the k loop runs kparam.shape[kaxis] / tk times */
  int tm, tn, tk;     /* the tile shape */
  kern_scalar in;     /* A's and B's element: float16, bfloat16, float32
                         or float64 */
  kern_scalar out;    /* C's: acc, or in's after tile_astype */
  kern_scalar acc;    /* the accumulator's: float32, float64 for float64 */
  const char *map;    /* the @wp.func of tile_map on each element (its C
                         symbol), or NULL */
};

struct IrFunc {
  const char *name;     /* Python name */
  const char *symbol;   /* C name */
  bool is_kernel;
  IrVar *params;        /* in order */
  int nparams;
  IrVar *locals;
  int nlocals;          /* the length of locals */
  IrVar **locals_tail;  /* where ir_var appends; NULL: &locals */
  const Type *ret;      /* first result (void when none) */
  const Type **rets;    /* all results; nrets > 1 means out-parameters */
  int nrets;
  int tid_dims;
  IrStmt *body;
  IrAgg *aggs;
  bool has_kreturn_in_loop; /* kernel return inside a loop: needs goto */
  IrFunc *grad;         /* its @wp.func_grad (Note [custom adjoints] in
                           adjoint.c), or NULL */
  IrFunc *replay;       /* its @wp.func_replay, or NULL */
  /* kernels: enable_backward=False, of @wp.kernel or the module's
   * wp.set_module_options: no adjoint (compile.c), as Warp builds none */
  bool no_backward;
  bool no_backward_module; /* ... and it came from the module option */
  bool uses_fp64, uses_atomics, uses_printf;
  bool uses_block;      /* wp.block_dim() or tiles (kc_kernel.uses_block) */
  IrGemm *gemm;         /* kernels: Note [GEMM recognition], or NULL */
  bool uses_xchg;       /* kernels: its threads exchange values (Note [block
                           exchange] in lower/check_tile.c) */
  bool simple_loop;     /* body has no loops, calls with effects or atomics */
  bool has_effects;     /* functions: a call can be seen (stores, atomics,
                           printing, effectful calls); set by the lowering */
  IrFunc *next;
  Pos pos;
  /* @wp.func_native: the snippet is the body (Note [native snippets] in
   * lower/check_native.c); NULL for other functions */
  const char *native;
  int native_len;
  Pos native_pos;
  const char **native_names; /* the parameters' Python names */
  bool called;          /* some call names it (a native one is emitted only
                           then, as Warp builds only what kernels use) */
  /* lowering (check_fixed.c): bytes of fixed-size arrays on the stack
   * during a call, the deepest chain of callees included; 0 with
   * fixed_state 0 means not yet computed, fixed_state 1 while computing */
  int64_t fixed_frame;
  int fixed_state;
};

/* Note [debug mode]: with kc_options.debug every kernel and function takes
 * a hidden last parameter, the fault record k_fault (an int64 array of
 * KERN__FAULT_WORDS), and every array access checks each index against its
 * axis.  The first out-of-bounds access records where it happened and the
 * offending index; loads then read element 0 and stores and atomics are
 * skipped, so memory is never corrupted.  The runtime reads the record after
 * the launch and reports it. */
typedef struct IrModule {
  IrFunc *funcs;        /* user functions (callees before callers) */
  IrFunc *kernels;
  IrFunc **funcs_tail, **kernels_tail; /* appending in O(1); NULL: empty */
  const char *path;
  bool debug;
  /* debug mode: names of the arrays whose accesses are checked; the fault
   * record holds an index into this table */
  const char **array_names;
  int narray_names, cap_array_names;
  Names array_name_ids; /* name -> 1 + its index in array_names */
  /* the first wp.address_of(), which OpenCL cannot run (check_native.c) */
  bool has_addr;
  Pos addr_pos;
  /* an autodiff module (ir_adjoint_prepare): the expansion takes vectors
   * and matrices of float16 and bfloat16 too, each operation in their own
   * precision, as Warp's adjoint computes them */
  bool half_aggs;
} IrModule;

/* build.c */
IrVar *ir_var(Compiler *C, IrFunc *f, const char *base, const Type *ty);
void ir_var_unlink(IrFunc *f, IrVar *v); /* takes v off f's locals */
IrExpr *ir_expr(Compiler *C, IrExprKind k, const Type *ty);
IrExpr *ir_const_int(Compiler *C, const Type *ty, uint64_t v);
IrExpr *ir_const_float(Compiler *C, const Type *ty, double v);
IrExpr *ir_ref(Compiler *C, IrVar *v);
IrExpr *ir_unary(Compiler *C, int op, IrExpr *a);
IrExpr *ir_binary(Compiler *C, int op, const Type *ty, IrExpr *a, IrExpr *b);
IrExpr *ir_cast(Compiler *C, const Type *ty, IrExpr *a);
IrExpr *ir_call(Compiler *C, int bi, const Type *ty, int nargs, IrExpr **args);
IrExpr *ir_call1(Compiler *C, int bi, const Type *ty, IrExpr *a);
IrExpr *ir_call2(Compiler *C, int bi, const Type *ty, IrExpr *a, IrExpr *b);
IrStmt *ir_stmt(Compiler *C, IrStmtKind k, Pos pos);

/* passes.c */
void ir_aggregate_atomics(Compiler *C, IrModule *m);
void ir_drop_tid_wraps(IrModule *m);
void ir_share_loads(Compiler *C, IrModule *m);
void ir_analyze(Compiler *C, IrModule *m);
void ir_add_fault_param(Compiler *C, IrModule *m);

/* expand.c: rewrites m so that no operation computes on an aggregate
 * (Note [expansion]).  Returns false and leaves m as it was, with *pos and
 * *what ("wp.inverse of a 4x4 matrix") saying what the pass cannot
 * expand. */
bool ir_expand(Compiler *C, IrModule *m, Pos *pos, const char **what);

/* adjoint.c: the reverse-mode adjoint of the kernel K, read after
 * ir_expand, as a new kernel "adj_NAME" (Note [adjoint]); a construct
 * without an adjoint rule is a diagnostic at its position. */
IrFunc *ir_adjoint(Compiler *C, IrModule *m, IrFunc *K);
/* adjoint.c: the forward-mode tangent of K, read after ir_expand, as a new
 * kernel "tan_NAME" (Note [tangent]); refusals as ir_adjoint's. */
IrFunc *ir_tangent(Compiler *C, IrModule *m, IrFunc *K);
/* Before ir_expand, on a module of the one kernel to differentiate:
 * drops the functions it does not call and marks the float min/max/clamp
 * calls, the decompositions, the random vectors and the noise calls
 * IR_KEEP_CALL. */
void ir_adjoint_prepare(Compiler *C, IrModule *m);

/* Internal builtins the lowering introduces for operators. */
enum {
  BI_OP_FLOORDIV = BI_COUNT, /* Python // */
  BI_OP_DIV,                 /* / on integers (zero divisor gives 0) */
  BI_OP_MOD,                 /* % */
  BI_OP_POW,                 /* ** */
  BI_OP_MATMUL,              /* @ */
  BI_OP_SHIFT,
  BI_VEC_EQ,                 /* == on vectors/matrices */
  BI_VEC_NE,
  BI_WRAP_INDEX,             /* i < 0 ? i + n : i (Warp's negative indices) */
  BI_TRUTH,                  /* x != 0 as bool */
  BI_FIXED_ZEROS,            /* (storage): zeroed, and a view of it
                                (lower/check_fixed.c) */
  BI_FIXED_COPY,             /* (storage, view): the view copied into the
                                storage, and a view of that */
  BI_TILE_LANE,              /* the thread's index in its block (int32; 0 on
                                the CPU): lower/check_tile.c */
  BI_TILE_SOLO,              /* 0 (int32) where a block is one thread, the C
                                target and Vulkan; CUDA and OpenCL exchange
                                values instead (BI_XCHG_*): wp.tile(x),
                                tile_from_thread, tile_scatter_add/_masked,
                                lower/check_tile.c; ival 0 to 3 says which */
  BI_XCHG_PUT,               /* (v): this thread's v into the block's
                                exchange buffer at byte ival, between two
                                barriers (Note [block exchange] in
                                lower/check_tile.c); CUDA and OpenCL */
  BI_XCHG_GET,               /* (k): thread k's value there */
  BI_NOISE_GRAD,             /* wp.noise's or wp.pnoise's arguments: the
                                gradient in the coordinate (float or vecN) */
  BI_CURLNOISE_ADJ,          /* wp.curlnoise's arguments and w: J^T w, J the
                                Jacobian in the coordinate */
  BI_CURLNOISE_TAN,          /* wp.curlnoise's arguments, v, dl and dg: the
                                derivative along v, dl in lacunarity and dg
                                in gain (the three: Note [noise adjoints] in
                                adjoint.c) */
  BI_FMA,                    /* (a, b, c): a b + c rounded once (float) */
  BI_STOP_GRADIENT,          /* (x): x, with no adjoint and no tangent
                                (Note [edge adjoint] in ir/expand.c) */
  BI_INTERNAL_COUNT
};

#endif
