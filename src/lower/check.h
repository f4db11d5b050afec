/*
 * check.h -- private to the checker (src/lower/check*.c): its state, its
 * shorthand, and each file's exports under a banner per file (chibicc's
 * chibicc.h).  Everything here is internal to the lowering floor; the
 * floor's interface is lower.h.
 */
#ifndef KERN_LOWER_CHECK_H
#define KERN_LOWER_CHECK_H

#include "lower.h"

/* How a named tile view's elements sit in the tile it is a view of
 * (Note [tile views in place] in check_tile.c). */
typedef struct TileMap {
  IrVar *src;       /* the tile the view was made from */
  int parent;       /* the local it is a view of (its index), -1 none yet */
  int depth;        /* X->loop_depth where it was bound */
  bool flat;        /* reshape, squeeze: the same row-major position */
  bool many;        /* broadcast: elements that share a parent element */
  bool synced;      /* copies between view and parent have been emitted */
  int axis[4];      /* per parent axis: the view's axis, -1 fixed */
  int step[4];
  IrExpr *off[4];   /* per parent axis: constants or hidden variables */
} TileMap;

typedef struct Local {
  const char *name;
  const Type *ty;
  IrVar *var;
  Pos pos;
  bool is_param;
  IrVar *tile_storage; /* a tile local: its own storage (check_tile.c) */
  bool tile_zeroed;    /* zeroed at the function's start (Note [tiles
                          assigned on some paths], check_tile.c) */
  bool tile_aliased;   /* a tile local that is, or has, a view (Warp's
                          tile_view, tile_transpose ...): kern copies, so
                          it may not be written in place (check_tile.c) */
  TileMap *tile_map;   /* a named view kept in step with its parent */
  IrVar **parts;   /* a tuple: one variable per item (check_tuple.c) */
  bool unrolled;   /* the variable of a range() loop Warp would unroll, */
  int64_t ulo, uhi; /* taking the values ulo..uhi */
  int literal;     /* the block depth of a literal last assigned to it, 0
                      none: a constant to Warp (Note [constant locals]) */
} Local;

typedef struct Ctx {
  Compiler *C;
  Module *M;
  IrModule *irm;
  Func *f;
  IrFunc *irf;
  Local *locals;
  int nlocals, cap;
  Names local_names; /* name -> 1 + index of its first Local */
  bool *defined;   /* per local: definitely assigned here */
  bool *marked;    /* per local: scratch for merging branches */
  int *trail;      /* locals set in `defined`, in order (Note [defs trail]) */
  int ntrail, captrail;
  IrStmt **tail;   /* where the next statement goes */
  IrStmt *entry;   /* statements for the function's start, put before its
                      body once it is checked (check_tile_unset_read) */
  int loop_depth;
  bool dead;       /* the current block has returned/broken */
  bool ret_seen;
  Sym *const_limit; /* evaluating this constant: only names defined above */
  int no_hoist;     /* inside a loop condition or a conditionally evaluated
                       operand: no statements may be emitted before it */
  IrStmt **stmt_mark; /* where the current statement's list began */
  Names fn_locals;  /* local names bound to a function (check_fnvalue.c) */
  Names static_vals; /* loop variables of a loop unrolled for wp.static */
  int block_depth;  /* blocks entered by check_stmts (function body: 1) */
  int *lit_trail;   /* locals given a literal, innermost last */
  int nlit, caplit;
  IrVar *tile_view_result; /* the last view builtin's tile (check_tile.c) */
  int tile_view_src;       /* 1 + the local it is a view of, 0 none */
  IrVar *tile_fresh;       /* the last new tile temporary (check_tile.c) */
  IrVar *tile_fresh_storage; /* and its storage */
  TileMap *tile_view_map;  /* how tile_view_result sits in its tile */
  IrStmt **tile_prints;    /* each print(t)'s last printf, and its tile */
  IrVar **tile_print_of;   /* (Note [tile storage] in check_tile.c) */
  int ntile_prints, captile_prints;
  int tile_written[8];     /* tile locals this statement writes in place */
  int ntile_written;
} Ctx;

/* The bytes of fixed-size arrays and tiles one kernel may keep on its
 * thread's stack or in its private memory, its callees' included (Note
 * [fixed-size array limit] in check_fixed.c). */
enum { CHECK_FIXED_MAX_BYTES = 262144 };

#define ERR(pos, ...) diag_error(X->C, pos, __VA_ARGS__)

/* A host Python value while a constant is evaluated (check.c): unbounded
 * integers approximated by int64, floats as doubles; ty is the type a
 * constructor named (NULL: a plain Python number), np marks a numpy scalar
 * of type ty (check_hostval.c). */
typedef enum { PV_INT, PV_FLOAT, PV_BOOL } PvKind;
typedef struct PyVal {
  PvKind kind;
  int64_t i;
  double f;
  const Type *ty;
  bool np;
} PyVal;

#define TN(t) ty_name(X->C, t)

static inline const Type *t_i32(void) { return ty_scalar(KERN_SCALAR_INT32); }
static inline const Type *t_f32(void) { return ty_scalar(KERN_SCALAR_FLOAT32); }
static inline const Type *t_bool(void) { return ty_scalar(KERN_SCALAR_BOOL); }

/* Note [defs trail]: a local only ever becomes defined (false -> true)
 * while a block is checked, so instead of copying the whole `defined`
 * array at every if and loop (which made a function of n locals and n
 * ifs cost n^2 time and memory; issue #8, item 12), every change is
 * recorded on a trail.  A saved state is a position on the trail, and
 * restoring it undoes the changes made since, in time proportional to
 * them.  A local added after the save was not defined then, and every
 * local that becomes defined is on the trail, so undoing covers it. */
typedef int DefSet;

/* check.c */
Local *check_add_local(Ctx *X, const char *name, const Type *ty, Pos pos);
void check_def_set(Ctx *X, int i);
DefSet check_defs_save(Ctx *X);
void check_defs_restore(Ctx *X, DefSet s);
Local *check_add_hidden_local(Ctx *X, const char *base, const Type *ty,
                              Pos pos);
void check_emit(Ctx *X, IrStmt *s);
void check_const_ctx(Ctx *X, Compiler *C, IrModule *irm, Func *dummy,
                     IrFunc *irf, IrStmt **sink);
Node *check_not_constant(Ctx *X, Node *n);
IrExpr *check_const_value(Ctx *X, Sym *s, Pos use);
IrExpr *check_static_call(Ctx *X, Node *call);
PyVal check_py_eval(Ctx *X, Node *n);
IrExpr *check_host_value(Ctx *X, Node *n);
void check_consts(Compiler *C, IrModule *irm);
void check_function(Compiler *C, IrModule *irm, Func *f);
/* Note [GEMM recognition] in check_gemm.c: sets IrFunc.gemm of a checked
 * kernel written as Warp's tile GEMM. */
void check_gemm(Compiler *C, Func *f);

/* check_indexed.c */
const Type *check_indexed_type(Ctx *X, Node *n);
Node *check_unwrap_literal(Node *n);

/* check_type.c */
const Type *check_wp_type_named(Compiler *C, const char *name,
                                bool *second_stage);
bool check_wp_builtin_constant(const char *name, double *v);
bool check_is_wp(Ctx *X, Node *n);
const char *check_wp_attr(Ctx *X, Node *n);
Local *check_find_local(Ctx *X, const char *name);
Sym *check_find_const(Ctx *X, const char *name);
StructDef *check_find_struct(Ctx *X, const char *name);
bool check_is_valuelike(const Type *t);
const Type *check_struct_type(Ctx *X, StructDef *d, Pos use);
Func *check_find_func(Ctx *X, const char *name);
const Type *check_type_expr(Ctx *X, Node *n, const char *what);
const Type *check_type_alias(Ctx *X, const char *name);
bool check_is_ref_annot(Ctx *X, Node *n);
/* check_fnparam.c */
bool check_fnparam_is_function(Ctx *X, const Param *p);
bool check_fnparam_template(Ctx *X, Func *g);
Node *check_fnparam_call(Ctx *X, Node *call, Func *g);
void check_store_to(Ctx *X, Node *target, IrExpr *value, Pos pos);
bool check_is_literal(Node *n);
bool check_float_to_u64(double f, uint64_t *out);
IrExpr *check_literal_as(Ctx *X, Node *n, const Type *ty);
IrExpr *check_truth(Ctx *X, IrExpr *e, Pos pos);

/* check_call.c */
int check_count_args(Node *n);
void check_no_kwargs(Ctx *X, Node *call, const char *name);
IrExpr **check_eval_args(Ctx *X, Node *call, int *n);
_Noreturn void check_bad_args(Ctx *X, Node *call, const char *name,
                              IrExpr **args, int n);
void check_nargs_between(Ctx *X, Node *call, const char *name, int n, int lo,
                         int hi);
IrExpr *check_atomic_call(Ctx *X, Node *call, int bi, const char *name);
IrExpr *check_construct(Ctx *X, Node *call, const Type *t, const char *name);
IrExpr *check_user_call(Ctx *X, Node *call, Func *g);
IrExpr *check_call_expr(Ctx *X, Node *n);
IrExpr *check_builtin_call(Ctx *X, Node *call, int bi, const char *name);

/* check_expr.c */
IrExpr *check_binop(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos);
IrExpr *check_neg_scalar(Ctx *X, IrExpr *a, Pos pos);
IrExpr *check_compare(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos);
IrExpr *check_index_expr(Ctx *X, IrExpr *i, IrVar *arr, int axis, Pos pos);
IrExpr *check_comp_index(Ctx *X, Node *n, int limit, const char *what);
IrExpr *check_subscript(Ctx *X, Node *n);
IrExpr *check_subscript_value(Ctx *X, Node *n, IrExpr *base);
int check_swizzle_index(const char *name);
IrExpr *check_attribute(Ctx *X, Node *n);
IrExpr *check_expr(Ctx *X, Node *n);

/* check_native.c */
void check_native_sig(Ctx *X, Func *f);
void check_native_body(Ctx *X, Func *f, IrFunc *irf);
IrExpr *check_address_of(Ctx *X, Node *call);
void check_literal_assigned(Ctx *X, Node *target, Node *value);
void check_literal_leave(Ctx *X);
void check_not_constant_local(Ctx *X, Node *a, const char *what);

/* check_stmt.c */
void check_stmts(Ctx *X, Node *list);

/* check_print.c */
IrExpr *check_in_temp(Ctx *X, IrExpr *v, const char *base, Pos pos);
bool check_has_effects(IrExpr *e);
void check_split_deep(Compiler *C, IrModule *m);
bool check_stmts_have_effects(IrStmt *s);
void check_order_effects(Ctx *X, IrExpr **v, int n, Pos pos);
IrExpr *check_component(Ctx *X, IrExpr *v, int k);
void check_expect_stmt(Ctx *X, Node *call, const char *w);
void check_print_stmt(Ctx *X, Node *call, const char *name);
void check_emit_printf(Ctx *X, Pos pos, const char *fmt, int n,
                       IrExpr **args);

/* check_extra.c */
IrExpr *check_extra_call(Ctx *X, Node *call, const char *w); /* NULL: not one */
IrExpr **check_extra_unpack(Ctx *X, Node *call, const char *w, int *nparts);
IrExpr *check_extra_set_inplace(Ctx *X, Node *call, const char *w);
Node *check_extra_tuple(Ctx *X, Node *v);
/* check_linalg.c */
IrExpr **check_linalg_unpack(Ctx *X, Node *call, const char *w, int *nparts);
IrExpr **check_linalg_outargs(Ctx *X, Node *call, const char *w, int *nparts);
IrExpr *check_linalg_call(Ctx *X, Node *call, const char *w);
/* check_view.c */
IrExpr *check_view_subscript(Ctx *X, Node *n);
IrExpr *check_comp_slice(Ctx *X, Node *n, IrExpr *base);
void check_store_comp_slice(Ctx *X, Node *target, IrExpr *value);
IrExpr *check_full_view(Ctx *X, IrExpr *a, Pos pos);
IrExpr *check_array_var(Ctx *X, IrExpr *a, Pos pos);
IrExpr *check_index_array_value(Ctx *X, Node *n, IrExpr *base);

/* check_vecn.c */
int check_type_int(Ctx *X, Node *n);
void check_vec_length(Ctx *X, Node *at, const char *what, int n);
void check_mat_shape(Ctx *X, Node *at, const char *what, int r, int c);
Node *check_sized_kwargs(Ctx *X, Node *call, const Type *t, const char *name);
const Type *check_vecn_type(Ctx *X, bool vec, int r, int c, const Type *dt);
bool check_vecn_is_pattern(const Type *t);
bool check_vecn_fits(const Type *param, const Type *arg);
bool check_is_any_node(Node *n);
const Type *check_vecn_subscript(Ctx *X, Node *n);
IrExpr *check_vecn_static_len(Ctx *X, Node *a);

/* check_generic.c */
bool check_ty_fits(const Type *param, const Type *arg);
bool check_func_generic(Ctx *X, Func *g);
Func *check_instance_for_call(Ctx *X, Node *call, Func *g, IrExpr **args);
void check_kernel_overloads(Compiler *C, IrModule *irm);
const Type *check_generic_named(Compiler *C, const char *w);
const Type *check_generic_tuple(Compiler *C, const Type *item);
const Type *check_generic_tile(Compiler *C, const Type *dtype, int nd,
                               const int *dims);
bool check_is_tile_pattern(const Type *t);
const Type *check_generic_tstack(Compiler *C, const Type *dtype, int cap);
bool check_is_tstack_pattern(const Type *t);
const Type *check_type_of(Ctx *X, Node *n);

/* check_hostval.c */
bool check_host_known(Ctx *X, Node *n);
bool check_host_eval(Ctx *X, Node *n, PyVal *out);
void check_host_numpy_operands(Ctx *X, PyVal *a, PyVal *b);
void check_host_numpy_binop(Ctx *X, Node *n, PyVal a, PyVal b, PyVal *r);
const char *check_host_numpy_name(Ctx *X, PyVal v);
const char *check_host_hint(Ctx *X, Node *bad);

/* check_fnvalue.c */
Node *check_fn_value(Ctx *X, Node *e);
Node *check_host_dict_entry(Ctx *X, Node *sub);
bool check_static_loop(Ctx *X, Node *n, IrExpr *start, IrExpr *stop,
                       IrExpr *step, void (*one_loop)(Ctx *, Node *));
bool check_static_loop_value(Ctx *X, const char *name, int64_t *out);
bool check_fn_assign(Ctx *X, Node *target, Node *value);
Node *check_fn_callee(Ctx *X, Node *call);

/* check_tuple.c */
IrExpr *check_tuple_literal(Ctx *X, Node *n);
IrExpr *check_tuple_of_call(Ctx *X, IrExpr *call, Pos pos);
IrExpr *check_tuple_of_builtin(Ctx *X, Node *call);
IrExpr *check_tuple_local(Ctx *X, Local *l);
void check_tuple_assign(Ctx *X, Node *target, IrExpr *t, Pos pos);
IrExpr *check_tuple_subscript(Ctx *X, Node *n, IrExpr *t);
void check_tuple_param(Ctx *X, Local *l, int i, IrVar ***ptail);
IrExpr **check_tuple_spread_args(Ctx *X, Func *g, IrExpr **bound,
                                 int *nargs);
void check_tuple_no_chain(Ctx *X, Node *n);
/* check_fixed.c */
const Type *check_fixed_view_type(Ctx *X, const Type *elem, int ndim,
                                  const int *dims);
const Type *check_view_type_of(Ctx *X, const Type *src, int ndim);
int check_fixed_count(const Type *t);
const Type *check_fixed_annot(Ctx *X, Node *n);
IrExpr *check_fixed_zeros(Ctx *X, Node *call);
IrExpr *check_fixed_new(Ctx *X, const Type *t, Pos pos);
/* check_tile.c: Warp's tiles (issue #24) */
IrExpr *check_tile_call(Ctx *X, Node *call, const char *w); /* NULL: none */
const Type *check_tile_annot(Ctx *X, Node *n); /* NULL: not wp.tile[...] */
bool check_tile_update_param(Ctx *X, Node *target, IrExpr *value, Pos pos);
void check_tile_call_writes(Ctx *X, Node *call, Func *g);
IrExpr *check_tstack_call(Ctx *X, Node *call, const char *w); /* NULL: none */
const Type *check_tstack_annot(Ctx *X, Node *n); /* NULL: not one */
bool check_tstack_fits(const Type *elem, int cap, const Type *arg);
void check_tstack_param(Ctx *X, Local *l, int i, IrVar ***ptail);
int check_tstack_args(Ctx *X, IrExpr *arg, IrExpr **out);
IrExpr *check_tile_binop(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos);
IrExpr *check_tile_neg(Ctx *X, IrExpr *a, Pos pos);
IrExpr *check_tile_elem_op(Ctx *X, int op, IrExpr *l, IrExpr *r, Pos pos);
/* The block's threads exchange values here, for what (Note [block
 * exchange] in check_tile.c; only where C->block > 0); this thread's v
 * into the exchange buffer at byte off, returning the region's end; and
 * thread k's value of type t from the region at off. */
void check_exchange(Ctx *X, const char *what, Pos pos);
int check_xchg_put(Ctx *X, IrExpr *v, int off, Pos pos);
IrExpr *check_xchg_get(Ctx *X, const Type *t, IrExpr *k, int off);
bool check_tile_assign(Ctx *X, Node *target, IrExpr *value, Pos pos);
bool check_tile_unset_read(Ctx *X, Local *l);
void check_tile_mutate(Ctx *X, Node *target, Pos pos);
void check_tile_sync(Ctx *X);
void check_tile_print(Ctx *X, IrExpr *t, Pos pos);
void check_tile_print_storage(Ctx *X);
IrExpr *check_tile_subscript(Ctx *X, Node *n); /* NULL: not a tile part */
IrExpr *check_tile_part(Ctx *X, Node *n, IrExpr **base); /* NULL: one element */
bool check_tile_store_subscript(Ctx *X, Node *target, IrExpr *value, Pos pos);
IrExpr *check_fixed_return(Ctx *X, IrExpr *v, Pos pos);
void check_fixed_call(Ctx *X, IrExpr *e, const Type *ret, Pos pos);
IrExpr *check_fixed_atomic(Ctx *X, IrExpr *e, Pos pos);
void check_fixed_frames(Compiler *C, IrModule *m);
const Type *check_tuple_type(Ctx *X, Node *n, const char *what);

/* check_kwargs.c: a wp.NAME call with keyword arguments as the positional
 * call (the same node when NAME takes none by name here). */
Node *check_builtin_kwargs(Ctx *X, Node *call, const char *w);

#endif
