/*
 * check_tstack.c -- Warp's tile stacks (issue #24): wp.tile_stack(capacity,
 * dtype), tile_stack_push, tile_stack_pop, tile_stack_count and
 * tile_stack_clear, lowered to loads, stores and an int32 count.
 *
 * Note [tile stacks]: Warp's stack is one per block, in shared memory, and
 * a push or pop moves one element per thread of the block.  kern has it
 * where a block is one thread (the C target and Vulkan, Note [block_dim]
 * in runtime/module.c, as Warp's CPU runs it): there the stack is the
 * thread's own, a fixed array of capacity elements (check_fixed.c) and a
 * hidden int32 count, and each operation is Warp's for a block of one:
 *   push(v, h): if h and count < capacity, data[count] = v and the slot
 *               returned is count, which then grows by one; else -1 (a
 *               full stack drops the value, the count stays at capacity);
 *   pop():      if count > 0, count drops by one and (data[count], count)
 *               is returned; else (dtype's zero, -1);
 *   count():    the count;  clear(): the count becomes 0.
 * On CUDA and OpenCL (a module compiled for a block of C->block threads,
 * Note [block exchange] in check_tile.c) every thread of the block holds
 * the same copy of the stack and applies the block's operations to it in
 * lane order, one of the orders Warp's atomics on its one stack may take:
 *   push:  the threads exchange their values and has_value; each thread
 *          pushes lane 0's, lane 1's, ... (the full stack drops the rest)
 *          and returns the slot its own value went to, or -1;
 *   pop:   each thread takes at most one element, lane l the (l+1)-th
 *          from the top: slot count - 1 - l, or -1 when there are fewer;
 *          the count drops by min(count, block_dim);
 * count and clear are the one-thread ones.  As Warp requires, every
 * thread of the block reaches each push and pop.
 *
 * The variable a program binds to wp.tile_stack() is an int32 local whose
 * type is marked (Type.tstack) with the stack it names; the operations
 * find the storage and the count through that mark, never through the
 * local's value, so `t = s` names the same stack, as in Warp.
 */
#include <string.h>

#include "check.h"

struct TStack {
  const Type *elem;
  int cap;
  IrVar *data;  /* a fixed array view of cap elements */
  IrVar *count; /* a fixed array view of one int32, 0..cap */
};

/* Fixed arrays and tiles share this bound (check_fixed.c, check_tile.c). */
enum { TSTACK_MAX_BYTES = 65536 };

/* Argument i (positional) or keyword name of call; NULL when absent. */
static Node *arg_of(Ctx *X, Node *call, int i, const char *name,
                    const char *const *names, const char *fn) {
  int n = check_count_args(call->args);
  int nn = 0;
  while (names[nn])
    nn++;
  if (n > nn)
    ERR(call->pos, "%s() takes %d arguments, got %d", fn, nn, n);
  for (Node *kw = call->kwargs; kw; kw = kw->next) {
    bool known = false;
    for (int k = 0; names[k]; k++)
      known |= !strcmp(kw->name, names[k]);
    if (!known)
      ERR(kw->pos, "%s() has no argument '%s'", fn, kw->name);
  }
  int k = 0;
  for (Node *a = call->args; a; a = a->next, k++)
    if (k == i) {
      for (Node *kw = call->kwargs; kw; kw = kw->next)
        if (!strcmp(kw->name, name))
          ERR(kw->pos, "%s() got argument '%s' twice", fn, name);
      return a;
    }
  for (Node *kw = call->kwargs; kw; kw = kw->next)
    if (!strcmp(kw->name, name))
      return kw->a;
  return NULL;
}

static IrExpr *ci(Ctx *X, int v) {
  return ir_const_int(X->C, t_i32(), (uint64_t)(int64_t)v);
}

/* A new hidden local set to v. */
static IrVar *temp_of(Ctx *X, const char *base, IrExpr *v, Pos pos) {
  Local *l = check_add_hidden_local(X, base, v->ty, pos);
  check_def_set(X, X->nlocals - 1);
  IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
  s->var = l->var;
  s->a = v;
  l->var->nassign += 2; /* assigned again below (set) */
  check_emit(X, s);
  return l->var;
}

static void set(Ctx *X, IrVar *v, IrExpr *e, Pos pos) {
  IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
  s->var = v;
  s->a = e;
  v->nassign++;
  check_emit(X, s);
}

/* a[i] of a 1-d fixed array a. */
static IrExpr *load1(Ctx *X, IrVar *a, IrExpr *i, Pos pos) {
  IrExpr *e = ir_expr(X->C, E_LOAD, a->ty->elem);
  e->var = a;
  e->nargs = 1;
  e->args = arena_alloc(X->C, sizeof(IrExpr *));
  e->args[0] = i;
  e->pos = pos;
  return e;
}

static void data_set(Ctx *X, struct TStack *k, IrExpr *i, IrExpr *v,
                     Pos pos) {
  IrStmt *s = ir_stmt(X->C, S_STORE, pos);
  s->var = k->data;
  s->nargs = 1;
  s->args = arena_alloc(X->C, sizeof(IrExpr *));
  s->args[0] = i;
  s->c = v;
  k->data->written = true;
  check_emit(X, s);
}

/* The stack's count, and setting it.  It is an element of a fixed array,
 * not an int32 local, so that a function taking the stack (Note [tile
 * stack parameters]) updates its caller's count. */
static IrExpr *count_of(Ctx *X, struct TStack *k, Pos pos) {
  return load1(X, k->count, ci(X, 0), pos);
}

static void count_set(Ctx *X, struct TStack *k, IrExpr *v, Pos pos) {
  IrStmt *s = ir_stmt(X->C, S_STORE, pos);
  s->var = k->count;
  s->nargs = 1;
  s->args = arena_alloc(X->C, sizeof(IrExpr *));
  s->args[0] = ci(X, 0);
  s->c = v;
  k->count->written = true;
  check_emit(X, s);
}

/* `if (cond) {`: returns the statement; what is emitted until if_close
 * goes into its body. */
static IrStmt *if_open(Ctx *X, IrExpr *cond, IrStmt ***save, Pos pos) {
  IrStmt *s = ir_stmt(X->C, S_IF, pos);
  s->a = cond;
  *save = X->tail;
  X->tail = &s->body;
  return s;
}

static void if_close(Ctx *X, IrStmt *s, IrStmt **save) {
  X->tail = save;
  check_emit(X, s);
}

/* The type of the int32 handle a program binds to the stack k. */
static const Type *handle_type(Ctx *X, struct TStack *k) {
  Type *ht = arena_alloc(X->C, sizeof *ht);
  *ht = *t_i32();
  ht->tstack = k;
  ht->name = arena_printf(X->C, "tile_stack(capacity=%d, dtype=%s)", k->cap,
                          TN(k->elem));
  return ht;
}

/* wp.tile_stack(capacity, dtype) */
static IrExpr *stack_new(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"capacity", "dtype", NULL};
  Node *cn = arg_of(X, call, 0, "capacity", kw, fn);
  Node *dn = arg_of(X, call, 1, "dtype", kw, fn);
  if (!dn)
    ERR(call->pos, "%s() missing required keyword argument 'dtype'", fn);
  if (!cn)
    ERR(call->pos, "%s() missing required keyword argument 'capacity'", fn);
  const Type *et = check_type_expr(X, dn, "dtype");
  if (!check_is_valuelike(et))
    ERR(dn->pos, "%s(): dtype must be a scalar, vector, matrix or struct "
                 "type, got %s", fn, TN(et));
  Node *bad = check_not_constant(X, cn);
  IrExpr *ce = bad ? NULL : check_expr(X, cn);
  if (!ce || ce->kind != E_CONST || !ty_is_int(ce->ty))
    ERR(cn->pos, "%s() requires capacity to be a positive integer constant "
                 "(known when the kernel is compiled)", fn);
  int64_t cap = sc_bits(ce->ty->sc) == 32 ? (int32_t)(uint32_t)ce->ival
                                          : (int64_t)ce->ival;
  if (cap <= 0)
    ERR(cn->pos, "%s() requires capacity to be a positive integer, got "
                 "%lld", fn, (long long)cap);
  if ((double)cap * (double)ty_size(et) > TSTACK_MAX_BYTES)
    ERR(cn->pos, "%s(): a stack of %lld %s is %.0f bytes, too large: kern "
                 "allows at most %d bytes per stack for now (issue #24)",
        fn, (long long)cap, TN(et), (double)cap * (double)ty_size(et),
        TSTACK_MAX_BYTES);
  struct TStack *k = arena_alloc(C, sizeof *k);
  k->elem = et;
  k->cap = (int)cap;
  int dims[1] = {k->cap};
  k->data = temp_of(X, "stack",
                    check_fixed_new(X, check_fixed_view_type(X, et, 1, dims),
                                    call->pos), call->pos);
  /* Note [tile stacks]: the count of a block's one thread, or of the
   * block's copy */
  IrExpr *zero = C->block ? ci(X, 0) : ir_call(C, BI_TILE_SOLO, t_i32(), 0, NULL);
  X->irf->uses_block = true; /* launched in blocks (Note [block_dim]) */
  zero->pos = call->pos;
  if (!C->solo_what) {
    C->solo_what = "wp.tile_stack";
    C->solo_pos = call->pos;
  }
  int one[1] = {1};
  k->count = temp_of(X, "count",
                     check_fixed_new(X, check_fixed_view_type(X, t_i32(), 1,
                                                              one),
                                     call->pos), call->pos);
  count_set(X, k, zero, call->pos);
  return ir_const_int(C, handle_type(X, k), 0);
}

/* The stack an argument names. */
static struct TStack *stack_arg(Ctx *X, Node *n, const char *fn) {
  if (!n)
    ERR(X->f->pos, "%s() needs a tile stack", fn);
  IrExpr *e = check_expr(X, n);
  if (!e->ty->tstack)
    ERR(n->pos, "%s(): the first argument must be a tile stack (from "
                "wp.tile_stack), got %s", fn, TN(e->ty));
  return (struct TStack *)e->ty->tstack;
}

/* A push where the block's threads share the stack (Note [tile
 * stacks]): the slot this thread's value went to, or -1. */
static IrExpr *push_block(Ctx *X, struct TStack *k, IrVar *vv, IrVar *hv,
                          Pos pos) {
  Compiler *C = X->C;
  check_exchange(X, "wp.tile_stack_push", pos);
  int end = check_xchg_put(X, ir_ref(C, vv), 0, pos);
  check_xchg_put(X, ir_cast(C, t_i32(), ir_ref(C, hv)), end, pos);
  IrVar *slot = temp_of(X, "slot", ci(X, -1), pos);
  IrVar *lane = temp_of(X, "lane", ir_call(C, BI_TILE_LANE, t_i32(), 0, NULL),
                        pos);
  IrVar *l = temp_of(X, "l", ci(X, 0), pos);
  IrStmt *loop = ir_stmt(C, S_WHILE, pos);
  loop->a = ir_binary(C, OP_LT, t_bool(), ir_ref(C, l), ci(X, C->block));
  IrStmt **save = X->tail;
  X->tail = &loop->body;
  IrVar *at = temp_of(X, "at", count_of(X, k, pos), pos);
  IrExpr *cond = ir_expr(C, E_AND, t_bool());
  cond->a = ir_binary(C, OP_NE, t_bool(),
                      check_xchg_get(X, t_i32(), ir_ref(C, l), end), ci(X, 0));
  cond->b = ir_binary(C, OP_LT, t_bool(), ir_ref(C, at), ci(X, k->cap));
  IrStmt **save2;
  IrStmt *s = if_open(X, cond, &save2, pos);
  data_set(X, k, ir_ref(C, at), check_xchg_get(X, k->elem, ir_ref(C, l), 0),
           pos);
  IrStmt **save3;
  IrStmt *mine = if_open(X, ir_binary(C, OP_EQ, t_bool(), ir_ref(C, l),
                                      ir_ref(C, lane)), &save3, pos);
  set(X, slot, ir_ref(C, at), pos);
  if_close(X, mine, save3);
  count_set(X, k, ir_binary(C, OP_ADD, t_i32(), ir_ref(C, at), ci(X, 1)),
            pos);
  if_close(X, s, save2);
  set(X, l, ir_binary(C, OP_ADD, t_i32(), ir_ref(C, l), ci(X, 1)), pos);
  X->tail = save;
  check_emit(X, loop);
  return ir_ref(C, slot);
}

/* wp.tile_stack_push(s, value, has_value): the slot written, or -1. */
static IrExpr *stack_push(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"s", "value", "has_value", NULL};
  Node *vn = arg_of(X, call, 1, "value", kw, fn);
  Node *hn = arg_of(X, call, 2, "has_value", kw, fn);
  struct TStack *k = stack_arg(X, arg_of(X, call, 0, "s", kw, fn), fn);
  if (!vn || !hn)
    ERR(call->pos, "%s() needs a stack, a value and has_value", fn);
  IrExpr *v = check_expr(X, vn);
  if (!ty_eq(v->ty, k->elem))
    ERR(vn->pos, "%s(): value type %s does not match stack dtype %s", fn,
        TN(v->ty), TN(k->elem));
  IrExpr *h = check_expr(X, hn);
  if (!ty_is_bool(h->ty))
    ERR(hn->pos, "%s(): has_value must be a bool, got %s", fn, TN(h->ty));
  IrVar *vv = temp_of(X, "push", v, vn->pos);
  IrVar *hv = temp_of(X, "has", h, hn->pos);
  if (C->block)
    return push_block(X, k, vv, hv, call->pos);
  IrVar *slot = temp_of(X, "slot", ci(X, -1), call->pos);
  IrVar *at = temp_of(X, "at", count_of(X, k, call->pos), call->pos);
  IrExpr *room = ir_binary(C, OP_LT, t_bool(), ir_ref(C, at),
                           ci(X, k->cap));
  IrExpr *cond = ir_expr(C, E_AND, t_bool());
  cond->a = ir_ref(C, hv);
  cond->b = room;
  IrStmt **save;
  IrStmt *s = if_open(X, cond, &save, call->pos);
  data_set(X, k, ir_ref(C, at), ir_ref(C, vv), call->pos);
  set(X, slot, ir_ref(C, at), call->pos);
  count_set(X, k, ir_binary(C, OP_ADD, t_i32(), ir_ref(C, at), ci(X, 1)),
            call->pos);
  if_close(X, s, save);
  return ir_ref(C, slot);
}

/* wp.tile_stack_pop(s): the tuple (value, slot), slot -1 when empty. */
static IrExpr *stack_pop(Ctx *X, Node *call, const char *fn) {
  Compiler *C = X->C;
  static const char *const kw[] = {"s", NULL};
  struct TStack *k = stack_arg(X, arg_of(X, call, 0, "s", kw, fn), fn);
  /* dtype's zero, whatever the type: the element of a new zeroed array */
  int one[1] = {1};
  IrVar *z = temp_of(X, "zero", check_fixed_new(X, check_fixed_view_type(
                                    X, k->elem, 1, one), call->pos),
                     call->pos);
  IrVar *val = temp_of(X, "popped", load1(X, z, ci(X, 0), call->pos),
                       call->pos);
  IrVar *slot = temp_of(X, "slot", ci(X, -1), call->pos);
  IrStmt **save;
  IrVar *at = temp_of(X, "at", count_of(X, k, call->pos), call->pos);
  /* at: the slot this thread takes, plus one; where the block shares
   * the stack, lane l takes the (l+1)-th from the top (Note [tile
   * stacks]) and the count drops by min(count, block_dim) */
  if (C->block) {
    IrVar *left = temp_of(X, "left", ir_binary(C, OP_SUB, t_i32(),
                                               ir_ref(C, at),
                                               ci(X, C->block)), call->pos);
    IrStmt **save0;
    IrStmt *neg = if_open(X, ir_binary(C, OP_LT, t_bool(), ir_ref(C, left),
                                       ci(X, 0)), &save0, call->pos);
    set(X, left, ci(X, 0), call->pos);
    if_close(X, neg, save0);
    count_set(X, k, ir_ref(C, left), call->pos);
    set(X, at, ir_binary(C, OP_SUB, t_i32(), ir_ref(C, at),
                         ir_call(C, BI_TILE_LANE, t_i32(), 0, NULL)),
        call->pos);
  }
  IrStmt *s = if_open(X, ir_binary(C, OP_GT, t_bool(), ir_ref(C, at),
                                   ci(X, 0)), &save, call->pos);
  set(X, slot, ir_binary(C, OP_SUB, t_i32(), ir_ref(C, at), ci(X, 1)),
      call->pos);
  if (!C->block)
    count_set(X, k, ir_ref(C, slot), call->pos);
  set(X, val, load1(X, k->data, ir_ref(C, slot), call->pos), call->pos);
  if_close(X, s, save);
  const Type *items[2] = {k->elem, t_i32()};
  IrExpr *t = ir_expr(C, E_MAKE, ty_tuple(C, 2, items));
  t->nargs = 2;
  t->args = arena_alloc(C, sizeof(IrExpr *) * 2);
  t->args[0] = ir_ref(C, val);
  t->args[1] = ir_ref(C, slot);
  return t;
}

/* Note [tile stack parameters]: a @wp.func may take a stack,
 * `s: wp.tile_stack(capacity=C, dtype=T)`, and its pushes and pops are
 * the caller's, as in Warp (which passes it by reference).  The
 * annotation is a generic type (check_generic_tstack), so the function is
 * instantiated per stack passed (each stack's handle type is its own);
 * the parameter becomes two IR parameters, views of the caller's storage
 * and of its count (a one-element array for that reason), and the
 * callee's handle names a TStack made of them. */

/* wp.tile_stack(capacity=..., dtype=...) as a parameter type; NULL when n
 * is not that call. */
const Type *check_tstack_annot(Ctx *X, Node *n) {
  if (n->kind != N_CALL || !check_wp_attr(X, n->a) ||
      strcmp(check_wp_attr(X, n->a), "tile_stack"))
    return NULL;
  static const char *const kw[] = {"capacity", "dtype", NULL};
  const char *fn = "wp.tile_stack";
  Node *cn = arg_of(X, n, 0, "capacity", kw, fn);
  Node *dn = arg_of(X, n, 1, "dtype", kw, fn);
  if (!cn || !dn)
    ERR(n->pos, "%s() as a type needs capacity= and dtype=", fn);
  const Type *et = check_type_expr(X, dn, "dtype");
  int cap = check_type_int(X, check_unwrap_literal(cn));
  if (cap < 1) {
    Node *bad = check_not_constant(X, cn);
    IrExpr *ce = bad ? NULL : check_expr(X, cn);
    if (!ce || ce->kind != E_CONST || !ty_is_int(ce->ty) ||
        (int64_t)ce->ival < 1 || ce->ival > TSTACK_MAX_BYTES)
      ERR(cn->pos, "%s(): capacity must be a positive integer constant",
          fn);
    cap = (int)ce->ival;
  }
  return check_generic_tstack(X->C, et, cap);
}

bool check_tstack_fits(const Type *elem, int cap, const Type *arg) {
  const struct TStack *k = arg->tstack;
  return k && k->cap == cap && ty_eq(k->elem, elem);
}

/* One IR parameter of the IR function being checked. */
static IrVar *param_var(Ctx *X, const char *name, const Type *t, int i,
                        IrVar ***ptail) {
  IrVar *v = ir_var(X->C, X->irf, "p", t);
  ir_var_unlink(X->irf, v);
  v->is_param = true;
  v->index = i;
  v->name = name;
  **ptail = v;
  *ptail = &v->next;
  X->irf->nparams++;
  return v;
}

/* The stack parameter l (its type the caller's handle): its storage and
 * count as two IR parameters (Note [tile stack parameters]). */
void check_tstack_param(Ctx *X, Local *l, int i, IrVar ***ptail) {
  if (X->f->is_kernel)
    ERR(l->pos, "a kernel parameter cannot be a tile stack");
  const struct TStack *of = l->ty->tstack;
  struct TStack *k = arena_alloc(X->C, sizeof *k);
  k->elem = of->elem;
  k->cap = of->cap;
  int dims[1] = {k->cap}, one[1] = {1};
  k->data = param_var(X, arena_printf(X->C, "p%d_%s_data", i, l->name),
                      check_fixed_view_type(X, k->elem, 1, dims), i, ptail);
  k->count = param_var(X, arena_printf(X->C, "p%d_%s_count", i, l->name),
                       check_fixed_view_type(X, t_i32(), 1, one), i, ptail);
  l->ty = handle_type(X, k);
  l->var->ty = l->ty;
}

/* A stack argument as the two arguments check_tstack_param's parameters
 * take, into out; returns 2. */
int check_tstack_args(Ctx *X, IrExpr *arg, IrExpr **out) {
  const struct TStack *k = arg->ty->tstack;
  out[0] = ir_ref(X->C, k->data);
  out[1] = ir_ref(X->C, k->count);
  return 2;
}

IrExpr *check_tstack_call(Ctx *X, Node *call, const char *w) {
  const char *fn = arena_printf(X->C, "wp.%s", w);
  static const char *const kw[] = {"s", NULL};
  if (!strcmp(w, "tile_stack_count")) {
    /* a plain read, so also in a loop condition (`while count(s) > 0`) */
    struct TStack *k = stack_arg(X, arg_of(X, call, 0, "s", kw, fn), fn);
    if (X->no_hoist)
      return count_of(X, k, call->pos);
    return ir_ref(X->C, temp_of(X, "count", count_of(X, k, call->pos),
                                call->pos));
  }
  if (X->no_hoist)
    ERR(call->pos, "%s() cannot be used in a loop condition or a "
                   "conditionally evaluated operand; call it in a statement "
                   "of its own", fn);
  if (!strcmp(w, "tile_stack"))
    return stack_new(X, call, fn);
  if (!strcmp(w, "tile_stack_push"))
    return stack_push(X, call, fn);
  if (!strcmp(w, "tile_stack_pop"))
    return stack_pop(X, call, fn);
  if (!strcmp(w, "tile_stack_clear")) {
    struct TStack *k = stack_arg(X, arg_of(X, call, 0, "s", kw, fn), fn);
    count_set(X, k, ci(X, 0), call->pos);
    return ir_expr(X->C, E_CONST, &ty_void);
  }
  return NULL;
}
