/*
 * base.h -- the ground floor every compiler stage stands on: the
 * compilation's arena and state, diagnostics, value types, operator codes
 * and builtin ids.
 *
 *   arena.c     one arena per compilation, freed in one call
 *   diag.c      "path:line:col: error: msg", source line, caret; longjmp out
 *   types.c     value types (scalars, vectors, matrices, arrays, tuples)
 *   builtins.c  the table of wp.* functions
 *   layout.c    sizes, alignments and struct field offsets (Warp's layout)
 *   format.c    the conversions of a wp.printf() format, one description
 *               for the checker (lower/check.c) and the emitters alike
 *   suggest.c   the nearest known name to a typo ("did you mean")
 *   status.c    status strings and the public kern_type helpers
 *   common.c    the allocator (common.h)
 *
 * These were the first sections of lang/lang.h.  They moved here because
 * the IR (ir/) and the emitters (emit/) need the same types, positions,
 * operator codes and builtin ids as the front end, and a stage may only
 * include the floors below it (docs/ARCHITECTURE.md): with them in lang.h
 * the IR had to include the front end.  The declarations are unchanged.
 */
#ifndef KERN_BASE_H
#define KERN_BASE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kern.h"

/* ---------------------------------------------------------------- arena */

typedef struct Arena Arena;
typedef struct Compiler Compiler;

void *arena_alloc(Compiler *C, size_t n); /* zeroed; longjmps on OOM */
/* Not zeroed: for arrays and buffers written before they are read (the
 * lexer's tokens, Buf); zeroing them was 7% of `kern synth`'s time. */
void *arena_alloc_raw(Compiler *C, size_t n);
/* Zeroed, in C->nodes: the parser's syntax tree, which nothing reads once
 * the module is lowered to IR, so compile.c frees it then (issue #23:
 * a fifth of a compilation's memory). */
void *arena_alloc_node(Compiler *C, size_t n);
/* Zeroed, in C->arena even while a kernel is emitted (Note [kernel
 * scratch] in emit/common.c): for what outlives the kernel. */
void *arena_alloc_keep(Compiler *C, size_t n);
char *arena_strdup_keep(Compiler *C, const char *s);
char *arena_strndup(Compiler *C, const char *s, size_t n);
char *arena_printf(Compiler *C, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void arena_free_all(Arena *a);
/* Frees a's blocks into C's spares, which later blocks of any arena
 * reuse (Note [spare blocks] in arena.c); arena_free_spares frees them. */
void arena_recycle(Compiler *C, Arena *a);
void arena_free_spares(Compiler *C);
/* Frees every arena of C (kernels' trees, arena, scratch, nodes, spares);
 * C itself and C->error stay. */
void compiler_free_memory(Compiler *C);
void arena_free_tokens(Arena *a);

/* A growable string, in the arena. */
typedef struct Buf {
  Compiler *C;
  char *p;
  size_t len, cap;
  bool keep; /* grows in C->arena even in a kernel's scratch (Note
                [kernel scratch] in emit/common.c) */
} Buf;
void buf_init(Buf *b, Compiler *C);
/* Makes room for n more bytes at once (then n bytes of appends do not
 * move b). */
void buf_reserve_total(Buf *b, size_t n);
/* Puts n bytes of s in front of b's text (moved in place where b has a
 * block of its own: Note [text once] in base/arena.c). */
void buf_prepend(Buf *b, const char *s, size_t n);
/* The n bytes at p and a NUL, kern__malloc'd for the caller: p's own
 * block, taken out of the arena, where it has one (Note [text once]),
 * else a copy.  NULL when out of memory. */
char *arena_take(Compiler *C, char *p, size_t n);
void buf_putn(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
/* printf's "%.<prec>g" of v into out when v is a short exact binary
 * fraction (0.5, 3.25, 8); returns its length, or -1 for any other value
 * (then use printf).  numfmt.c. */
int fmt_short_g(char out[48], double v, int prec);

/* A string-keyed hash table in the arena (names.c); keys are not copied.
 * Zero-initialised is empty.  names_put replaces the value of a key that
 * is already there. */
typedef struct Names {
  const char **keys;
  void **vals;
  size_t cap, count;
} Names;
void *names_get(const Names *t, const char *key); /* NULL if absent */
void names_put(Compiler *C, Names *t, const char *key, void *val);

/* ---------------------------------------------------------------- diagnostics */

typedef struct Pos {
  int line, col; /* 1-based; col counts bytes */
  int offset;    /* byte offset of the token in the file */
} Pos;

/* ---------------------------------------------------------------- formats */

/* One conversion of a wp.printf() format, s[start, end) (format.c). */
typedef struct FmtSpec {
  int start, end;            /* the '%' and one past the conversion letter */
  char conv;                 /* 'd', 'g', ...; '%' for "%%" */
  bool is_float;             /* eEfFgGaA */
  bool alt, zero, precision; /* '#' flag, '0' flag, a '.' seen */
  int body_start, body_end;  /* flags, width and precision, as written */
  int length_len;            /* bytes of the length modifier (dropped) */
  const char *error;         /* why it is invalid, or NULL */
  int error_at;              /* offset in s of the offending character */
} FmtSpec;
/* Parses the conversion at s[k] == '%'; false (with f->error) when it is
 * invalid. */
bool fmt_parse(const char *s, int n, int k, FmtSpec *f);
/* The position of byte off of the decoded string token at tok. */
Pos fmt_pos(Compiler *C, Pos tok, int off);

struct Arena {
  struct ArenaBlock *head;
  /* The lexer's token array (malloc'd, grown in place): the parser frees
   * it when it is done (arena_free_tokens), arena_free_all otherwise.
   * In the arena, its doublings were a quarter of a compilation's memory
   * and lived until the end (issue #23, item 9). */
  void *tokens;
  /* The size of the next block, growing by doubling to 64 KB; 0 is 64 KB
   * at once.  A kernel's own syntax tree (Note [kernel syntax trees] in
   * lower/check.c) starts small: it is a few KB. */
  size_t block;
  struct Arena *next; /* Compiler.trees: the next kernel's tree */
};

struct Compiler {
  Arena arena;
  Arena nodes;       /* the parser's Nodes (arena_alloc_node) */
  Arena scratch;     /* while `scratching`, where arena_alloc and the rest
                        allocate (Note [kernel scratch] in emit/common.c) */
  bool scratching;
  struct ArenaBlock *spare; /* arena_recycle's blocks */
  Arena *tree;       /* where arena_alloc_node allocates while a kernel is
                        parsed; NULL: nodes */
  Arena *trees;      /* every kernel's tree, freed at the end if not
                        before (Note [kernel syntax trees], lower/check.c) */
  jmp_buf jmp;
  const char *path;  /* for messages */
  const char *src;
  size_t len;
  kern_status status; /* set before longjmp */
  char *error;        /* malloc'd diagnostic */
  int nest;           /* parser recursion depth */
  struct Module *mod;
  const char *note;   /* a line diag_error adds under the caret, or NULL
                         (where a generic function was instantiated) */
  bool no_native;     /* refuse @wp.func_native (kc_options.no_native) */
  /* The first call that needs a block's threads to exchange values
   * (wp.tile(x) and the rest, Note [threads' values] in lower/check_tile.c):
   * solo_what names it (NULL: none), solo_pos is where; kc_result.no_gpu. */
  const char *solo_what;
  Pos solo_pos;
  /* kc_options.block: the threads of a block where they exchange values
   * through the block's shared memory (0: a block is one thread), and
   * the bytes of that exchange buffer the module needs (Note [block
   * exchange] in lower/check_tile.c). */
  int block;
  int xbuf;
  bool xchg_in_func; /* an exchange in a @wp.func: refused there (no_gpu) */
};

_Noreturn void diag_error(Compiler *C, Pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void diag_oom(Compiler *C);

/* ---------------------------------------------------------------- types */

typedef enum TyKind {
  TY_VOID,
  TY_SCALAR,
  TY_VEC,
  TY_MAT,
  TY_ARRAY,
  TY_TUPLE,
  TY_SHAPE,   /* a.shape */
  TY_MODULE,  /* the name `wp` */
  TY_TYPE,    /* a type used as a value: wp.float32, wp.vec3 */
  TY_FUNC,    /* a user function or builtin used as a value */
  TY_STRING,  /* a string literal (printf formats) */
  TY_STRUCT,  /* a @wp.struct: n fields, items their types, fnames */
  TY_ANY      /* typing.Any in a generic function's or kernel's signature */
} TyKind;

typedef struct Type Type;
struct Type {
  TyKind kind;
  kern_scalar sc;  /* scalar, or component type of vec/mat */
  int rows, cols;  /* vec: rows = n, cols = 1; mat: rows x cols */
  const Type *elem; /* array element; TY_TYPE: the type named */
  int ndim;        /* array */
  int n;           /* tuple; struct: number of fields */
  const Type **items;
  bool quat;           /* TY_VEC of 4: a quaternion (x, y, z, w) */
  bool xform;          /* TY_VEC of 7: a transform (p: vec3, q: quat) */
  const char *name;    /* struct; a tile stack's handle (tstack) */
  const char **fnames; /* struct: field names */
  bool strided;        /* TY_ARRAY: a view (a[i], a[1:5], a[:, j]) with its
                          own strides; the same Warp type as the array */
  bool indexed;        /* TY_ARRAY: a wp.indexedarray (an index array per
                          dimension onto a data array; emit/indexed.c), a
                          Warp type of its own */
  /* Fixed-size local arrays (wp.zeros in a kernel; lower/check_fixed.c):
   * priv marks an array whose data is in the thread's own memory (OpenCL
   * __private), fdims its shape when known (0: not known), and fixed_n
   * marks the storage itself, a C array of fixed_n elements. */
  bool priv;
  int fdims[4];
  int fixed_n;
  /* A tile (issue #24; lower/check_tile.c): a fixed array view (priv,
   * fdims its shape) that the program sees as Warp's tile type. */
  bool tile;
  /* A tile stack's handle (lower/check_tstack.c, Note [tile stacks]): an
   * int32 scalar type marked with the stack it names. */
  const struct TStack *tstack;
};

/* The most components a vector or matrix may have (rows * cols).  Warp
 * sets no bound; this one keeps a value's size far from any overflow and
 * equals the public API's (kern__type_valid in status.c). */
#define TY_MAX_COMPONENTS 4096

extern const Type ty_void, ty_module, ty_string, ty_any;
const Type *ty_scalar(kern_scalar sc);
const Type *ty_vec(Compiler *C, kern_scalar sc, int n);
const Type *ty_mat(Compiler *C, kern_scalar sc, int rows, int cols);
const Type *ty_quat(Compiler *C, kern_scalar sc);
const Type *ty_xform(Compiler *C, kern_scalar sc);
const Type *ty_array(Compiler *C, const Type *elem, int ndim);
/* A strided view of ndim dimensions onto elements of type elem. */
const Type *ty_array_view(Compiler *C, const Type *elem, int ndim);
/* A wp.indexedarray of ndim dimensions of elem. */
const Type *ty_indexed(Compiler *C, const Type *elem, int ndim);
/* Whether t mentions typing.Any (Any, wp.array(dtype=Any)). */
bool ty_is_generic(const Type *t);
const Type *ty_tuple(Compiler *C, int n, const Type **items);
const Type *ty_typeval(Compiler *C, const Type *t);
const Type *ty_shape(Compiler *C, const Type *arr);
bool ty_eq(const Type *a, const Type *b);
bool ty_is_scalar(const Type *t);
bool ty_is_int(const Type *t);    /* integer scalar (not bool) */
bool ty_is_float(const Type *t);  /* float32 or float64 scalar */
bool ty_is_bool(const Type *t);
bool ty_is_value(const Type *t);  /* scalar, vec or mat */
bool sc_is_int(kern_scalar s);
bool sc_is_signed(kern_scalar s);
bool sc_is_float(kern_scalar s); /* float16, bfloat16, float32, float64 */
bool sc_is_lowp(kern_scalar s);  /* float16, bfloat16 */
int sc_bits(kern_scalar s);
/* Warp's spelling of t ("float32", "vec3", "array(dtype=float32)"). */
const char *ty_name(Compiler *C, const Type *t);
/* Converts a value type to the public description. */
kern_type ty_to_kern(const Type *t);

/* layout.c: Warp's host layout of values and structs (an array field is
 * Warp's 56-byte array_t). */
#define TY_WARP_ARRAY_SIZE 56
/* Warp's indexedarray_t: array_t, int32 *indices[4], int32 shape[4]. */
#define TY_WARP_INDEXED_SIZE 104
size_t ty_size(const Type *t);
size_t ty_align(const Type *t);
size_t ty_field_offset(const Type *t, int k);
bool ty_has_array(const Type *t);  /* an array, or a struct holding one */
bool ty_has_f64(const Type *t);    /* float64 anywhere inside */

/* Operators (binary, unary, comparison). */
enum {
  OP_ADD = 1, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_MATMUL,
  OP_BITAND, OP_BITOR, OP_BITXOR, OP_SHL, OP_SHR,
  OP_NEG, OP_POS, OP_INVERT,
  OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
  OP_IS, OP_ISNOT, OP_IN, OP_NOTIN
};

/* ---------------------------------------------------------------- builtins */

/* Every builtin kern knows, named after Warp's function. */
#define BUILTIN_LIST(X) \
  X(TID, "tid") X(ABS, "abs") X(SIGN, "sign") X(MIN, "min") X(MAX, "max") \
  X(CLAMP, "clamp") X(SQRT, "sqrt") X(CBRT, "cbrt") X(EXP, "exp") \
  X(EXP2, "exp2") X(LOG, "log") X(LOG2, "log2") X(LOG10, "log10") \
  X(POW, "pow") X(SIN, "sin") X(COS, "cos") X(TAN, "tan") X(ASIN, "asin") \
  X(ACOS, "acos") X(ATAN, "atan") X(ATAN2, "atan2") X(SINH, "sinh") \
  X(COSH, "cosh") X(TANH, "tanh") X(FLOOR, "floor") X(CEIL, "ceil") \
  X(ROUND, "round") X(TRUNC, "trunc") X(FRAC, "frac") X(MOD, "mod") \
  X(ISNAN, "isnan") X(ISINF, "isinf") X(ISFINITE, "isfinite") \
  X(DEGREES, "degrees") X(RADIANS, "radians") X(LERP, "lerp") \
  X(SMOOTHSTEP, "smoothstep") X(STEP, "step") X(SELECT, "select") \
  X(WHERE, "where") X(DOT, "dot") X(CROSS, "cross") X(LENGTH, "length") \
  X(LENGTH_SQ, "length_sq") X(NORMALIZE, "normalize") X(OUTER, "outer") \
  X(TRANSPOSE, "transpose") X(DETERMINANT, "determinant") \
  X(INVERSE, "inverse") X(TRACE, "trace") X(DIAG, "diag") \
  X(IDENTITY, "identity") X(MUL, "mul") X(CW_MUL, "cw_mul") \
  X(CW_DIV, "cw_div") X(ATOMIC_ADD, "atomic_add") \
  X(ATOMIC_SUB, "atomic_sub") X(ATOMIC_MIN, "atomic_min") \
  X(ATOMIC_MAX, "atomic_max") X(ATOMIC_AND, "atomic_and") \
  X(ATOMIC_OR, "atomic_or") X(ATOMIC_XOR, "atomic_xor") \
  X(ATOMIC_EXCH, "atomic_exch") X(ATOMIC_CAS, "atomic_cas") \
  X(RAND_INIT, "rand_init") X(RANDF, "randf") X(RANDI, "randi") \
  X(RANDN, "randn") X(PRINTF, "printf") X(ADD, "add") X(SUB, "sub") \
  X(DIV, "div") X(NEG, "neg") X(RINT, "rint") \
  X(QUAT_ROTATE, "quat_rotate") X(QUAT_ROTATE_INV, "quat_rotate_inv") \
  X(QUAT_INVERSE, "quat_inverse") X(QUAT_IDENTITY, "quat_identity") \
  X(QUAT_FROM_AXIS_ANGLE, "quat_from_axis_angle") \
  X(QUAT_TO_MATRIX, "quat_to_matrix") \
  X(TRANSFORM_POINT, "transform_point") \
  X(TRANSFORM_VECTOR, "transform_vector") \
  X(TRANSFORM_MULTIPLY, "transform_multiply") \
  X(TRANSFORM_INVERSE, "transform_inverse") \
  X(TRANSFORM_IDENTITY, "transform_identity") \
  X(TRANSFORM_GET_TRANSLATION, "transform_get_translation") \
  X(TRANSFORM_GET_ROTATION, "transform_get_rotation") \
  X(ARGMIN, "argmin") X(ARGMAX, "argmax") X(NONZERO, "nonzero") \
  X(GET_DIAG, "get_diag") BUILTIN_LIST_EXTRA(X)

/* The rest of Warp's builtins (issue #10), checked in check_extra.c and
 * spelled in emit/extra.c: operators' call forms on vectors, scalar math,
 * random sampling, noise, and vector, quaternion and transform helpers. */
#define BUILTIN_LIST_EXTRA(X) \
  X(ERF, "erf") X(ERFC, "erfc") X(ERFINV, "erfinv") X(ERFCINV, "erfcinv") \
  X(COPYSIGN, "copysign") X(BIT_COUNT, "bit_count") X(CAST, "cast") \
  X(BIT_AND, "bit_and") X(BIT_OR, "bit_or") X(BIT_XOR, "bit_xor") \
  X(LSHIFT, "lshift") X(RSHIFT, "rshift") X(INVERT, "invert") \
  X(RANDU, "randu") X(POISSON, "poisson") X(SAMPLE_CDF, "sample_cdf") \
  X(SAMPLE_TRIANGLE, "sample_triangle") \
  X(SAMPLE_UNIT_RING, "sample_unit_ring") \
  X(SAMPLE_UNIT_DISK, "sample_unit_disk") \
  X(SAMPLE_UNIT_SPHERE_SURFACE, "sample_unit_sphere_surface") \
  X(SAMPLE_UNIT_SPHERE, "sample_unit_sphere") \
  X(SAMPLE_UNIT_HEMISPHERE_SURFACE, "sample_unit_hemisphere_surface") \
  X(SAMPLE_UNIT_HEMISPHERE, "sample_unit_hemisphere") \
  X(SAMPLE_UNIT_SQUARE, "sample_unit_square") \
  X(SAMPLE_UNIT_CUBE, "sample_unit_cube") X(LOWER_BOUND, "lower_bound") \
  X(NOISE, "noise") X(PNOISE, "pnoise") X(CURLNOISE, "curlnoise") \
  X(NORM_L1, "norm_l1") X(NORM_HUBER, "norm_huber") \
  X(NORM_PSEUDO_HUBER, "norm_pseudo_huber") \
  X(SMOOTH_NORMALIZE, "smooth_normalize") X(SKEW, "skew") X(DDOT, "ddot") \
  X(QUAT_FROM_MATRIX, "quat_from_matrix") X(QUAT_RPY, "quat_rpy") \
  X(QUAT_TO_RPY, "quat_to_rpy") X(QUAT_SLERP, "quat_slerp") \
  X(QUAT_TWIST, "quat_twist") X(QUAT_TWIST_ANGLE, "quat_twist_angle") \
  X(QUAT_TWIST_ANGLE_SIGNED, "quat_twist_angle_signed") \
  X(QUAT_FROM_EULER, "quat_from_euler") X(QUAT_TO_EULER, "quat_to_euler") \
  X(QUAT_TO_AXIS_ANGLE, "quat_to_axis_angle") \
  X(TRANSFORM_TO_MATRIX, "transform_to_matrix") \
  X(TRANSFORM_FROM_MATRIX, "transform_from_matrix") \
  X(TRANSFORM_COMPOSE, "transform_compose") \
  X(TRANSFORM_DECOMPOSE, "transform_decompose") \
  X(TRANSFORM_SET_TRANSLATION_COPY, "transform_set_translation_copy") \
  X(TRANSFORM_SET_ROTATION_COPY, "transform_set_rotation_copy") \
  X(CLOSEST_POINT_EDGE_EDGE, "closest_point_edge_edge") \
  X(INTERSECT_TRI_TRI, "intersect_tri_tri") \
  X(SPATIAL_TOP, "spatial_top") X(SPATIAL_BOTTOM, "spatial_bottom") \
  X(SPATIAL_DOT, "spatial_dot") X(SPATIAL_CROSS, "spatial_cross") \
  X(SPATIAL_CROSS_DUAL, "spatial_cross_dual") \
  X(SPATIAL_ADJOINT, "spatial_adjoint") \
  X(VELOCITY_AT_POINT, "velocity_at_point") \
  X(TRANSFORM_TWIST, "transform_twist") X(TRANSFORM_WRENCH, "transform_wrench") \
  X(SVD3, "svd3") X(SVD2, "svd2") X(QR3, "qr3") X(EIG3, "eig3") \
  X(BREAKPOINT, "breakpoint") X(BLOCK_DIM, "block_dim")

enum {
#define X(id, name) BI_##id,
  BUILTIN_LIST(X)
#undef X
  BI_COUNT
};
extern const char *const builtin_names[BI_COUNT];
int builtin_lookup(const char *name); /* -1 if none */
/* Does the builtin advance the random state passed as its first argument
 * (wp.randf, wp.poisson, wp.sample_unit_disk ...)? */
bool builtin_draws(int bi);

/* suggest.c: the entry of names[0..n) nearest to word if it is a likely
 * typo of it, else NULL ("did you mean"). */
const char *suggest_name(const char *word, const char *const *names, int n);

#endif
