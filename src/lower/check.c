/*
 * check.c -- the lowering floor's driver: locals and definite assignment,
 * then each function in call order, module constants, and lower_module().
 *
 * The checker reads the AST of lang/ and builds the IR of ir/ in one walk
 * (see ir/build.c for why), applying Warp's rules strictly: operands of an
 * operator have one type (float32 + float64 is an error, and so is
 * float64 * 2.0, because a float literal is float32 as in Warp); a variable
 * keeps the type of its first assignment; array stores need the element
 * type exactly.  Where Warp is silently wrong kern is strict instead: a
 * variable read where it may not have been assigned is an error.
 *
 * The walk is split by the sections it always had, one file each, sharing
 * the checker's state (Ctx) through check.h: check_type.c (type names and
 * conversions), check_call.c (calls), check_expr.c (operators, subscripts,
 * expressions), check_stmt.c (assignment and statements) and
 * check_print.c (print and Warp's test helpers).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---------------------------------------------------------------- locals */

Local *check_add_local(Ctx *X, const char *name, const Type *ty, Pos pos) {
  if (X->nlocals == X->cap) {
    /* Most functions have a few locals; 32 of them were 2.5 KB a
     * function, kept to the end of the compilation (issue #23). */
    int cap = X->cap ? X->cap * 2 : 4;
    Local *l = arena_alloc(X->C, sizeof(Local) * (size_t)cap);
    bool *d = arena_alloc(X->C, sizeof(bool) * (size_t)cap);
    bool *mk = arena_alloc(X->C, sizeof(bool) * (size_t)cap);
    if (X->nlocals) {
      memcpy(l, X->locals, sizeof(Local) * (size_t)X->nlocals);
      memcpy(d, X->defined, sizeof(bool) * (size_t)X->nlocals);
    }
    X->locals = l;
    X->defined = d;
    X->marked = mk;
    X->cap = cap;
  }
  Local *l = &X->locals[X->nlocals];
  X->defined[X->nlocals] = false;
  X->nlocals++;
  /* the first local of a name is the one found, as before the table */
  if (!names_get(&X->local_names, name))
    names_put(X->C, &X->local_names, name, (void *)(intptr_t)X->nlocals);
  l->name = name;
  l->ty = ty;
  l->pos = pos;
  l->var = ir_var(X->C, X->irf, name, ty);
  return l;
}


void check_def_set(Ctx *X, int i) {
  if (X->defined[i])
    return;
  X->defined[i] = true;
  if (X->ntrail == X->captrail) {
    int cap = X->captrail ? 2 * X->captrail : 64;
    int *t = arena_alloc(X->C, sizeof(int) * (size_t)cap);
    if (X->ntrail)
      memcpy(t, X->trail, sizeof(int) * (size_t)X->ntrail);
    X->trail = t;
    X->captrail = cap;
  }
  X->trail[X->ntrail++] = i;
}

DefSet check_defs_save(Ctx *X) { return X->ntrail; }

void check_defs_restore(Ctx *X, DefSet s) {
  while (X->ntrail > s)
    X->defined[X->trail[--X->ntrail]] = false;
}

/* A temporary the program cannot name: its name stays out of the table of
 * locals unless the program already has a local of that name (whose entry
 * is kept), so a later variable of the same name is the program's own. */
Local *check_add_hidden_local(Ctx *X, const char *base, const Type *ty,
                        Pos pos) {
  bool had = names_get(&X->local_names, base) != NULL;
  Local *l = check_add_local(X, base, ty, pos);
  if (!had)
    names_put(X->C, &X->local_names, base, NULL);
  l->name = "";
  return l;
}

void check_emit(Ctx *X, IrStmt *s) {
  *X->tail = s;
  X->tail = &s->next;
}

/* ---------------------------------------------------------------- functions */

static void check_func(Compiler *C, IrModule *irm, Func *f) {
  Ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  Ctx *X = &ctx;
  X->C = C;
  X->M = C->mod;
  X->irm = irm;
  X->f = f;
  f->checking = true;

  IrFunc *irf = arena_alloc(C, sizeof *irf);
  irf->name = f->name;
  irf->symbol = f->instance_of /* check_generic.c */
                    ? arena_printf(C, "kern_%ci%d_%d_%s",
                                   f->is_kernel ? 'k' : 'f', f->overload_index,
                                   f->ninstances, f->instance_of->name)
                : f->overload_index
                    ? arena_printf(C, "kern_f%d_%s", f->overload_index,
                                   f->name)
                    : arena_printf(C, "%s_%s", f->is_kernel ? "kern_k"
                                                            : "kern_f",
                                   f->name);
  irf->is_kernel = f->is_kernel;
  irf->no_backward = f->enable_backward == 0 ||
                     (f->enable_backward < 0 && C->mod->no_backward);
  irf->no_backward_module = f->enable_backward < 0 && C->mod->no_backward;
  irf->pos = f->pos;
  f->ir = irf;
  X->irf = irf;

  if (f->ret_annot) {
    if (f->is_kernel)
      ERR(f->ret_annot->pos, "a kernel cannot return a value");
    if (f->ret_annot->kind == N_NONE) {
      f->ret = &ty_void;
    } else if (f->ret_annot->kind == N_CALL || f->ret_annot->kind == N_NAME ||
               f->ret_annot->kind == N_ATTR) {
      f->ret = check_type_expr(X, f->ret_annot, "return type");
    } else if (f->ret_annot->kind == N_SUBSCRIPT &&
               f->ret_annot->a->kind == N_NAME &&
               (!strcmp(f->ret_annot->a->name, "tuple") ||
                !strcmp(f->ret_annot->a->name, "Tuple"))) {
      int k = check_count_args(f->ret_annot->args);
      const Type **items = arena_alloc(C, sizeof(Type *) * (size_t)k);
      int i = 0;
      for (Node *a = f->ret_annot->args; a; a = a->next)
        items[i++] = check_type_expr(X, a, "return type");
      f->ret = ty_tuple(C, k, items);
    } else {
      f->ret = check_type_expr(X, f->ret_annot, "return type");
    }
    if (f->ret && f->ret->kind == TY_ANY && !check_is_tile_pattern(f->ret))
      f->ret = NULL; /* a generic result: found from the body; a tile one
                        is checked at each return (check_stmt.c) */
  }

  /* A generic definition is checked once per instantiation instead
   * (check_generic.c). */
  /* one with wp.Function parameters is copied per call instead
   * (check_fnparam.c) */
  if (f->native)
    check_native_sig(X, f); /* scalars only: no generics */
  if (!f->instance_of && check_fnparam_template(X, f)) {
    if (f->is_kernel) /* a launch cannot pass a function */
      for (int i = 0; i < f->nparams; i++)
        if (check_fnparam_is_function(X, &f->params[i]))
          ERR(f->params[i].pos, "kernel parameter '%s' cannot be a "
              "wp.Function (only a @wp.func can take a function)",
              f->params[i].name);
    f->generic = true;
    f->checking = false;
    f->checked = true;
    return;
  }
  if (!f->instance_of && check_func_generic(X, f)) {
    f->generic = true;
    f->checking = false;
    f->checked = true;
    return;
  }

  /* parameters */
  IrVar **ptail = &irf->params;
  for (int i = 0; i < f->nparams; i++) {
    Param *p = &f->params[i];
    for (int j = 0; j < i; j++)
      if (!strcmp(f->params[j].name, p->name))
        ERR(p->pos, "duplicate parameter '%s'", p->name);
    if (!f->instance_of) /* an instantiation's types are given */
      p->ty = check_type_expr(X, p->annot, arena_printf(C, "parameter '%s'",
                                                  p->name));
    Local *l = check_add_local(X, p->name, p->ty, p->pos);
    l->is_param = true;
    check_def_set(X, X->nlocals - 1);
    if (p->ty->kind == TY_TUPLE) { /* one IR parameter per item */
      check_tuple_param(X, l, i, &ptail);
      continue;
    }
    if (p->ty->tstack) { /* its storage and count (check_tstack.c) */
      check_tstack_param(X, l, i, &ptail);
      continue;
    }
    /* parameters are not locals of the IR function */
    IrVar *v = l->var;
    ir_var_unlink(irf, v);
    v->is_param = true;
    v->index = i;
    v->name = arena_printf(C, "p%d_%s", i, p->name);
    if (check_is_ref_annot(X, p->annot)) {
      if (f->is_kernel)
        ERR(p->pos, "wp.ref[...] parameters are for @wp.func, not kernels");
      v->byref = true;
    }
    *ptail = v;
    ptail = &v->next;
    irf->nparams++;
  }

  X->tail = &irf->body;
  if (f->native)
    check_native_body(X, f, irf);
  else
    check_stmts(X, f->body);
  check_tile_print_storage(X);
  if (X->entry) {
    IrStmt *last = X->entry;
    while (last->next)
      last = last->next;
    last->next = irf->body;
    irf->body = X->entry;
  }

  if (!f->ret)
    f->ret = &ty_void;
  if (!f->is_kernel && f->ret->kind != TY_VOID && !X->dead)
    ERR(f->pos, "'%s' returns %s on some paths but can reach its end without "
                "returning", f->name, TN(f->ret));
  irf->ret = f->ret->kind == TY_TUPLE ? f->ret->items[0] : f->ret;
  if (f->ret->kind == TY_TUPLE) {
    irf->rets = f->ret->items;
    irf->nrets = f->ret->n;
  } else {
    irf->rets = arena_alloc(C, sizeof(Type *));
    irf->rets[0] = f->ret;
    irf->nrets = f->ret->kind == TY_VOID ? 0 : 1;
  }
  irf->tid_dims = f->tid_dims;
  irf->has_effects = check_stmts_have_effects(irf->body);
  for (IrVar *p = irf->params; p; p = p->next)
    irf->has_effects |= p->byref; /* it changes the caller's variables */
  irf->has_effects |= irf->native != NULL; /* Note [native snippets] */
  f->checking = false;
  f->checked = true;

  /* Functions go in dependency order: a callee is complete (and appended)
   * before its caller finishes. */
  IrFunc ***tail = f->is_kernel ? &irm->kernels_tail : &irm->funcs_tail;
  if (!*tail)
    *tail = f->is_kernel ? &irm->kernels : &irm->funcs;
  **tail = irf;
  *tail = &irf->next;
}

/* Note [checking order]: a caller needs its callees' signatures, and a
 * callee's return type may only be known from its body, so callees are
 * checked first.  Checking a callee from inside its caller's walk (as kern
 * once did) recursed once per level of a chain of calls, and a valid
 * program with 20,000 functions in a chain overflowed the C stack (issue
 * #8, item 4).  Instead the order is found beforehand by a depth-first
 * search over the calls written in each body, with an explicit stack, and
 * the functions are checked one after another in its post-order.  A callee
 * that is still unchecked when its caller is checked is then on a cycle,
 * which user_call reports as recursion.
 *
 * calls_in collects the user functions called by name in a body.  It
 * recurses over the tree, but only as deep as the parser's limits on
 * block and expression nesting allow; lists are walked with loops. */
typedef struct CallList {
  Func **v;
  int n, cap;
} CallList;

static void calls_in(Compiler *C, Node *n, CallList *out) {
  for (; n; n = n->next) {
    if (n->kind == N_CALL && n->a && n->a->kind == N_NAME) {
      /* every overload of the name: the call may choose any of them */
      for (Func *g = names_get(&C->mod->func_names, n->a->name); g;
           g = g->overload) {
        if (out->n == out->cap) {
          int cap = out->cap ? out->cap * 2 : 8;
          Func **v = arena_alloc(C, sizeof(Func *) * (size_t)cap);
          if (out->n)
            memcpy(v, out->v, sizeof(Func *) * (size_t)out->n);
          out->v = v;
          out->cap = cap;
        }
        out->v[out->n++] = g;
      }
    }
    /* most nodes are leaves: no call for their absent children */
    if (n->a)
      calls_in(C, n->a, out);
    if (n->b)
      calls_in(C, n->b, out);
    if (n->c)
      calls_in(C, n->c, out);
    if (n->args)
      calls_in(C, n->args, out);
    if (n->kwargs)
      calls_in(C, n->kwargs, out);
    if (n->body)
      calls_in(C, n->body, out);
    if (n->orelse)
      calls_in(C, n->orelse, out);
  }
}

/* Note [kernel syntax trees]: a syntax tree is about 200 bytes a node and
 * 4 KB for a two-line kernel, as much as the kernel's IR, and the two
 * used to live side by side until the whole module was lowered (issue
 * #23, item 9).  Nothing calls a kernel, so once a kernel is checked
 * nothing reads its tree again: the parser gives each @wp.kernel's tree
 * an arena of its own (Compiler.tree) and it is freed here, right after
 * the kernel is lowered.  A generic kernel stays: wp.overload and
 * launches instantiate it from its tree (check_generic.c).  Functions'
 * trees are in C->nodes, freed with it after lowering.  The pointers
 * into the tree are cleared so that a late reader finds NULL, not freed
 * memory. */
static void free_kernel_tree(Compiler *C, Func *f) {
  if (!f->is_kernel || f->generic || !f->nodes)
    return;
  arena_recycle(C, f->nodes);
  f->body = NULL;
  f->ret_annot = NULL;
  for (int i = 0; i < f->nparams; i++)
    f->params[i].annot = f->params[i].defval = NULL;
}

static void check_in_call_order(Compiler *C, IrModule *irm) {
  int nf = 0;
  for (Func *f = C->mod->funcs; f; f = f->next)
    for (Func *o = f; o; o = o->overload)
      nf++;
  /* Every function is on the stack at most once. */
  typedef struct Frame {
    Func *f;
    CallList calls;
    int next;
  } Frame;
  Frame *stack = arena_alloc(C, sizeof(Frame) * (size_t)(nf ? nf : 1));
  for (Func *first = C->mod->funcs; first; first = first->next)
  for (Func *root = first; root; root = root->overload) {
    if (root->checked || root->checking)
      continue;
    int sp = 0;
    stack[sp].f = root;
    stack[sp].calls = (CallList){NULL, 0, 0};
    calls_in(C, root->body, &stack[sp].calls);
    stack[sp].next = 0;
    root->checking = true; /* here: on the search's stack */
    sp++;
    while (sp > 0) {
      Frame *top = &stack[sp - 1];
      if (top->next < top->calls.n) {
        Func *g = top->calls.v[top->next++];
        if (g->checked || g->checking)
          continue;
        g->checking = true;
        stack[sp].f = g;
        stack[sp].calls = (CallList){NULL, 0, 0};
        calls_in(C, g->body, &stack[sp].calls);
        stack[sp].next = 0;
        sp++;
        continue;
      }
      sp--;
      top->f->checking = false;
      check_func(C, irm, top->f);
      check_gemm(C, top->f);
      free_kernel_tree(C, top->f);
    }
  }
}

/* Constants are evaluated as Python evaluates them on the host (PyVal,
 * check.h), then converted to the type a constructor names, or int32 /
 * float32 / bool by default. */
static double pv_num(PyVal v) { return v.kind == PV_FLOAT ? v.f : (double)v.i; }

static PyVal py_binop(Ctx *X, Node *n, PyVal a, PyVal b);

PyVal check_py_eval(Ctx *X, Node *n) {
  PyVal r = {PV_INT, 0, 0, NULL, false};
  switch (n->kind) {
  case N_INT: r.i = (int64_t)n->ival; return r;
  case N_FLOAT: r.kind = PV_FLOAT; r.f = n->fval; return r;
  case N_BOOL: r.kind = PV_BOOL; r.i = (int64_t)n->ival; return r;
  case N_ATTR: {
    double v;
    if (check_host_eval(X, n, &r))
      return r;
    if (check_is_wp(X, n->a) && check_wp_builtin_constant(n->name, &v)) {
      r.kind = PV_FLOAT;
      r.f = v;
      return r;
    }
    ERR(n->pos, "'%s' is not a value kern can evaluate at compile time",
        n->name);
  }
  case N_NAME: {
    if (check_static_loop_value(X, n->name, &r.i))
      return r; /* Note [static loop variables] */
    if (check_find_local(X, n->name))
      ERR(n->pos, "'%s' is a variable of the %s; only module-level values "
                  "can be evaluated at compile time", n->name,
          X->f->is_kernel ? "kernel" : "function");
    Sym *s = check_find_const(X, n->name);
    if (!s)
      ERR(n->pos, "'%s' is not a constant defined above", n->name);
    IrExpr *e = check_const_value(X, s, n->pos);
    if (e->ty->kind != TY_SCALAR)
      ERR(n->pos, "'%s' is a %s; arithmetic on vector and matrix constants "
                  "at compile time is not supported yet", n->name,
          TN(e->ty));
    if (s->host)
      return *(PyVal *)s->host; /* as Python holds it, not as captured */
    r.ty = e->ty;
    if (sc_is_float(e->ty->sc)) { r.kind = PV_FLOAT; r.f = e->fval; }
    else if (e->ty->sc == KERN_SCALAR_BOOL) { r.kind = PV_BOOL; r.i = (int64_t)e->ival; }
    else r.i = (int64_t)e->ival;
    return r;
  }
  case N_SUBSCRIPT: {
    Node *v = check_host_dict_entry(X, n);
    if (!v)
      ERR(n->pos, "wp.constant() needs a value known at compile time");
    return check_py_eval(X, v);
  }
  case N_NOT: {
    PyVal a = check_py_eval(X, n->a);
    r.kind = PV_BOOL;
    r.i = pv_num(a) == 0;
    return r;
  }
  case N_AND: case N_OR: {
    /* Python's and/or give one of the operands, not a bool */
    PyVal a = check_py_eval(X, n->a);
    bool t = pv_num(a) != 0;
    return (n->kind == N_AND) == t ? check_py_eval(X, n->b) : a;
  }
  case N_COMPARE: {
    /* a chain a < b < c is (a < b) and (b < c), compared as Python does
     * (exactly for two ints, else as doubles) */
    PyVal a = check_py_eval(X, n->a);
    r.kind = PV_BOOL;
    r.i = 1;
    int k = 0;
    for (Node *bn = n->args; bn; bn = bn->next, k++) {
      PyVal b = check_py_eval(X, bn), next = b;
      check_host_numpy_operands(X, &a, &b); /* this pair's conversion */
      bool ints = a.kind != PV_FLOAT && b.kind != PV_FLOAT;
      double x = pv_num(a), y = pv_num(b);
      int c = ints ? (a.i > b.i) - (a.i < b.i) : (x > y) - (x < y);
      bool ok;
      switch (n->ops[k]) {
      case OP_LT: ok = c < 0; break;
      case OP_LE: ok = c <= 0 && x == x && y == y; break;
      case OP_GT: ok = c > 0; break;
      case OP_GE: ok = c >= 0 && x == x && y == y; break;
      case OP_EQ: ok = c == 0 && x == x && y == y; break;
      case OP_NE: ok = c != 0 || x != x || y != y; break;
      default:
        ERR(n->pos, "operator %s is not supported in a constant",
            op_text(n->ops[k]));
      }
      /* numpy compares give numpy.bool_, which Warp does not capture */
      if (a.np || b.np) { r.np = true; r.ty = t_bool(); }
      if (!ok) { r.i = 0; return r; }
      a = next;
    }
    return r;
  }
  case N_UNOP: {
    PyVal a = check_py_eval(X, n->a);
    if (n->op == OP_NEG) { if (a.kind == PV_FLOAT) a.f = -a.f; else { a.i = (int64_t)(0 - (uint64_t)a.i); a.kind = PV_INT; } } /* wraps, as + - * do */
    else if (n->op == OP_INVERT) { if (a.kind == PV_FLOAT) ERR(n->pos, "~ needs an integer"); a.i = ~a.i; }
    /* a numpy integer wraps to its width (a unary op has one type) */
    if (a.np) { PyVal o = a; check_host_numpy_binop(X, n, o, o, &a); }
    return a;
  }
  case N_BINOP: {
    PyVal a = check_py_eval(X, n->a), b = check_py_eval(X, n->b);
    check_host_numpy_operands(X, &a, &b);
    r = py_binop(X, n, a, b);
    check_host_numpy_binop(X, n, a, b, &r);
    return r;
  }
  case N_CALL: {
    const char *w = check_wp_attr(X, n->a);
    const Type *t = NULL;
    bool second;
    if (check_host_eval(X, n, &r))
      return r;
    /* wp.static(x) inside wp.static() or a constant is x */
    if (w && (!strcmp(w, "constant") || !strcmp(w, "static")) &&
        check_count_args(n->args) == 1 && !n->kwargs)
      return check_py_eval(X, n->args);
    if (n->a->kind == N_NAME && !strcmp(n->a->name, "bool"))
      t = t_bool();
    else if (w)
      t = check_wp_type_named(X->C, w, &second);
    else if (n->a->kind == N_NAME && !strcmp(n->a->name, "float"))
      t = t_f32();
    else if (n->a->kind == N_NAME && !strcmp(n->a->name, "int"))
      t = t_i32();
    else if (n->a->kind == N_NAME)
      t = check_type_alias(X, n->a->name); /* wptype = wp.float32 */
    if (t && t->kind != TY_SCALAR)
      ERR(n->pos, "vector and matrix constants are not supported yet; use "
                  "scalar constants");
    if (!t || check_count_args(n->args) != 1 || n->kwargs)
      ERR(n->pos, "wp.constant() needs a value known at compile time");
    PyVal a = check_py_eval(X, n->args);
    a.ty = t;
    a.np = false; /* float(np.float32(x)) is a Python float */
    if (sc_is_float(t->sc) && a.kind != PV_FLOAT) { a.f = (double)a.i; a.kind = PV_FLOAT; }
    if (!sc_is_float(t->sc) && a.kind == PV_FLOAT) {
      uint64_t u; /* Note [float to integer] */
      if (!check_float_to_u64(a.f, &u))
        ERR(n->pos, "constant %g does not fit in %s", a.f, TN(t));
      a.i = (int64_t)u; a.kind = PV_INT;
    }
    return a;
  }
  default:
    ERR(n->pos, "wp.constant() needs a value known at compile time");
  }
}

/* A binary operation on two host values, as Python computes it. */
static PyVal py_binop(Ctx *X, Node *n, PyVal a, PyVal b) {
  PyVal r = {PV_INT, 0, 0, NULL, false};
  const Type *ty = a.ty ? a.ty : b.ty;
  bool fl = a.kind == PV_FLOAT || b.kind == PV_FLOAT;
  r.ty = ty;
  if (fl || n->op == OP_DIV || n->op == OP_POW) {
    double x = pv_num(a), y = pv_num(b);
    r.kind = PV_FLOAT;
    /* int / int is a Python float: not the int operand's type */
    if (r.ty && !sc_is_float(r.ty->sc))
      r.ty = NULL;
    switch (n->op) {
    case OP_ADD: r.f = x + y; return r;
    case OP_SUB: r.f = x - y; return r;
    case OP_MUL: r.f = x * y; return r;
    case OP_DIV:
      if (y == 0) ERR(n->pos, "division by zero in a constant");
      r.f = x / y; return r;
    case OP_FLOORDIV:
      if (y == 0) ERR(n->pos, "division by zero in a constant");
      r.f = floor(x / y); return r;
    case OP_MOD:
      if (y == 0) ERR(n->pos, "division by zero in a constant");
      r.f = fmod(x, y); if (r.f != 0 && ((r.f < 0) != (y < 0))) r.f += y; return r;
    case OP_POW:
      r.f = pow(x, y);
      if (!fl && y >= 0) {
        uint64_t u; /* Note [float to integer] */
        if (!check_float_to_u64(r.f, &u))
          ERR(n->pos, "constant %g does not fit in 64 bits", r.f);
        r.kind = PV_INT; r.i = (int64_t)u;
      }
      return r;
    default:
      ERR(n->pos, "operator %s is not defined for floats", op_text(n->op));
    }
  }
  int64_t x = a.i, y = b.i;
  switch (n->op) {
  case OP_ADD: r.i = (int64_t)((uint64_t)x + (uint64_t)y); return r;
  case OP_SUB: r.i = (int64_t)((uint64_t)x - (uint64_t)y); return r;
  case OP_MUL: r.i = (int64_t)((uint64_t)x * (uint64_t)y); return r;
  case OP_FLOORDIV: case OP_MOD: {
    if (y == 0) ERR(n->pos, "division by zero in a constant");
    /* INT64_MIN / -1 overflows (fuzzing): -x wraps, as + - * do */
    int64_t q = y == -1 ? (int64_t)(0 - (uint64_t)x) : x / y;
    int64_t m = y == -1 ? 0 : x % y;
    if (m != 0 && ((m < 0) != (y < 0))) { q--; m += y; }
    r.i = n->op == OP_FLOORDIV ? q : m;
    return r;
  }
  case OP_SHL:
    if (y < 0 || y > 63) ERR(n->pos, "shift count out of range in a constant");
    r.i = (int64_t)((uint64_t)x << y); return r;
  case OP_SHR:
    if (y < 0 || y > 63) ERR(n->pos, "shift count out of range in a constant");
    r.i = x >> y; return r;
  case OP_BITAND: r.i = x & y; return r;
  case OP_BITOR: r.i = x | y; return r;
  case OP_BITXOR: r.i = x ^ y; return r;
  default:
    ERR(n->pos, "operator %s is not supported in a constant", op_text(n->op));
  }
}

/* A Python value at the type Warp gives it in a kernel: a constructor's
 * type when one was named, else int32 / float32 / bool. */
static IrExpr *pyval_ir(Ctx *X, PyVal pv, Pos pos) {
  Compiler *C = X->C;
  const Type *t = pv.ty;
  if (pv.np)
    ERR(pos, "the value is a %s scalar, which Warp does not capture in a "
             "kernel; convert it with float(), int() or a Warp type such as "
             "wp.float32()", check_host_numpy_name(X, pv));
  if (!t)
    t = pv.kind == PV_FLOAT ? t_f32() : pv.kind == PV_BOOL ? t_bool() : t_i32();
  if (pv.kind == PV_FLOAT && !sc_is_float(t->sc)) {
    uint64_t u; /* Note [float to integer] */
    if (!check_float_to_u64(pv.f, &u))
      ERR(pos, "constant %g does not fit in %s", pv.f, TN(t));
    pv.i = (int64_t)u; pv.kind = PV_INT;
  }
  IrExpr *v = sc_is_float(t->sc)
                  ? ir_const_float(C, t, t->sc == KERN_SCALAR_FLOAT32
                                             ? (double)(float)pv.f : pv.f)
                  : ir_const_int(C, t, (uint64_t)pv.i);
  if (!sc_is_float(t->sc) && sc_bits(t->sc) < 64) {
    /* wrap to the type's width, as the conversion on the host would */
    uint64_t mask = ((uint64_t)1 << sc_bits(t->sc)) - 1, u = v->ival & mask;
    if (sc_is_signed(t->sc) && ((u >> (sc_bits(t->sc) - 1)) & 1))
      u |= ~mask;
    v->ival = t->sc == KERN_SCALAR_BOOL ? (v->ival != 0) : u;
  }
  return v;
}

/* A host value (math.pi) written in a kernel, as Warp captures it. */
IrExpr *check_host_value(Ctx *X, Node *n) {
  return pyval_ir(X, check_py_eval(X, n), n->pos);
}

/* Note [host-computed components]: a module-level vector is made on the
 * host, so a component written as an expression (`wp.vec2d(wp.float64(1
 * / N), ...)`) is Python's value of it, true division included, converted
 * to the vector's scalar type.  v is the checked constructor; each of its
 * components that did not fold to a constant is replaced by the host
 * value of the argument it came from, when the arguments are one per
 * component and the argument is a compile-time value. */
static void host_components(Ctx *X, Node *vn, IrExpr *v) {
  if (check_count_args(vn->args) != v->nargs || vn->kwargs)
    return;
  Node *a = vn->args;
  for (int i = 0; i < v->nargs; i++, a = a->next) {
    if (v->args[i]->kind == E_CONST || v->args[i]->ty->kind != TY_SCALAR ||
        check_not_constant(X, a))
      continue;
    PyVal pv = check_py_eval(X, a);
    pv.ty = v->args[i]->ty;
    v->args[i] = pyval_ir(X, pv, a->pos);
  }
}

/* Evaluates constant s (its value node) into s->ty and s->ir. */
static void eval_const_sym(Ctx *X, Sym *s) {
  Node *vn = s->value;
  /* NAME = wp.constant(x) written as a plain module-level value */
  if (vn->kind == N_CALL && check_wp_attr(X, vn->a) &&
      !strcmp(check_wp_attr(X, vn->a), "constant") && check_count_args(vn->args) == 1)
    vn = vn->args;
  const char *cw = vn->kind == N_CALL ? check_wp_attr(X, vn->a) : NULL;
  bool second;
  const Type *ct = cw ? check_wp_type_named(X->C, cw, &second) : NULL;
  if (!ct && vn->kind == N_CALL && vn->a->kind == N_NAME)
    ct = check_type_alias(X, vn->a->name); /* vec3b = wp.types.vector(...) */
  if (ct && ct->kind != TY_SCALAR) {
    /* a vector made on the host from a list of its components */
    if (vn->args && !vn->args->next && vn->args->kind == N_LIST &&
        !strcmp(vn->args->name, "list") && !vn->kwargs) {
      Node *c = arena_alloc(X->C, sizeof *c);
      *c = *vn;
      c->args = vn->args->args;
      vn = c;
    }
    /* vector and matrix constants: every component a literal */
    IrExpr *v = check_expr(X, vn);
    if (v->kind != E_MAKE)
      ERR(vn->pos, "wp.constant() needs a value known at compile time");
    host_components(X, vn, v);
    for (int i = 0; i < v->nargs; i++)
      if (v->args[i]->kind != E_CONST)
        ERR(vn->pos, "the components of a vector or matrix constant must "
                     "be literals or constants");
    s->ty = v->ty;
    s->ir = v;
    return;
  }
  if (vn->kind == N_NAME) {
    /* an alias of another constant, vector or not */
    Sym *o = check_find_const(X, vn->name);
    if (o) {
      IrExpr *v = check_const_value(X, o, vn->pos);
      s->ty = v->ty;
      s->ir = v;
      return;
    }
  }
  PyVal pv = check_py_eval(X, vn);
  if (pv.np)
    ERR(vn->pos, "'%s' is a %s scalar, which Warp does not capture in a "
                 "kernel; convert it with float(), int() or a Warp type such "
                 "as wp.float32()", s->name, check_host_numpy_name(X, pv));
  IrExpr *v = pyval_ir(X, pv, vn->pos);
  s->ty = v->ty;
  s->ir = v;
  /* later host code computes with the value Python holds, not with the
   * float32 a kernel captures (`DT = 0.5 * DX` uses the double DX) */
  s->host = arena_alloc(X->C, sizeof pv);
  *(PyVal *)s->host = pv;
}

void check_const_ctx(Ctx *X, Compiler *C, IrModule *irm, Func *dummy,
               IrFunc *irf, IrStmt **sink) {
  memset(X, 0, sizeof *X);
  X->C = C;
  X->M = C->mod;
  X->irm = irm;
  memset(dummy, 0, sizeof *dummy);
  dummy->name = "<constant>";
  X->f = dummy;
  memset(irf, 0, sizeof *irf);
  X->irf = irf;
  *sink = NULL;
  X->tail = sink;
}

/* The first node of n that is not a compile-time value (NULL when all of
 * it is): numbers, booleans, module-level values, Warp's named constants,
 * wp.constant() and scalar, vector and matrix constructors, and arithmetic
 * on them. */
Node *check_not_constant(Ctx *X, Node *n) {
  switch (n->kind) {
  case N_INT: case N_FLOAT: case N_BOOL:
    return NULL;
  case N_NAME: {
    int64_t lv;
    if (check_static_loop_value(X, n->name, &lv))
      return NULL; /* Note [static loop variables] */
    if (check_find_local(X, n->name) || !check_find_const(X, n->name))
      return n;
    return NULL;
  }
  case N_ATTR: {
    double v;
    if (check_host_known(X, n))
      return NULL;
    return check_is_wp(X, n->a) && check_wp_builtin_constant(n->name, &v) ? NULL : n;
  }
  case N_UNOP:
    return n->op == OP_NEG || n->op == OP_POS || n->op == OP_INVERT
               ? check_not_constant(X, n->a) : n;
  case N_BINOP: case N_AND: case N_OR: {
    Node *b = check_not_constant(X, n->a);
    return b ? b : check_not_constant(X, n->b);
  }
  case N_NOT:
    return check_not_constant(X, n->a);
  case N_SUBSCRIPT: { /* D["key"] of a module-level dict */
    Node *v = check_host_dict_entry(X, n);
    return v ? check_not_constant(X, v) : n;
  }
  case N_COMPARE: {
    for (int k = 0; k < (int)n->ival; k++)
      if (n->ops[k] < OP_LT || n->ops[k] > OP_NE)
        return n;
    Node *b = check_not_constant(X, n->a);
    for (Node *a = n->args; a && !b; a = a->next)
      b = check_not_constant(X, a);
    return b;
  }
  case N_CALL: {
    const char *w = check_wp_attr(X, n->a);
    bool second;
    bool ok = (w && (!strcmp(w, "constant") || !strcmp(w, "static") ||
                     check_wp_type_named(X->C, w, &second))) ||
              (n->a->kind == N_NAME && (!strcmp(n->a->name, "int") ||
                                        !strcmp(n->a->name, "float") ||
                                        !strcmp(n->a->name, "bool"))) ||
              check_host_known(X, n) ||
              (n->a->kind == N_NAME && !check_find_local(X, n->a->name) &&
               check_type_alias(X, n->a->name) &&
               check_type_alias(X, n->a->name)->kind == TY_SCALAR);
    if (!ok || n->kwargs)
      return n;
    for (Node *a = n->args; a; a = a->next) {
      Node *b = check_not_constant(X, a);
      if (b)
        return b;
    }
    return NULL;
  }
  default:
    return n;
  }
}

/* The value of a module-level name, evaluated the first time a kernel uses
 * it (a plain `NAME = EXPR` may be host code that is never a constant;
 * Note [module-level values]). */
IrExpr *check_const_value(Ctx *X, Sym *s, Pos use) {
  if (s->ir)
    return s->ir;
  if (!s->pyglobal)
    ERR(use, "constant '%s' is used in its own definition", s->name);
  Ctx sub;
  Func dummy;
  IrFunc irf;
  IrStmt *sink;
  check_const_ctx(&sub, X->C, X->irm, &dummy, &irf, &sink);
  sub.const_limit = s;
  Node *bad = s->value ? check_not_constant(&sub, s->value) : NULL;
  if (!s->value || bad)
    ERR(use, "'%s' (line %d) is a module-level value kern cannot evaluate "
             "at compile time; kernels can use module-level numbers, "
             "booleans, wp.constant() values and arithmetic on them%s",
        s->name, s->pos.line, bad ? check_host_hint(&sub, bad) : "");
  eval_const_sym(&sub, s);
  return s->ir;
}

/* wp.static(expr): expr evaluated when the kernel is compiled. */
IrExpr *check_static_call(Ctx *X, Node *call) {
  if (check_count_args(call->args) != 1 || call->kwargs)
    ERR(call->pos, "wp.static() takes one expression");
  Node *a = call->args;
  /* wp.static(len(t)) of a tuple variable: its length is fixed */
  if (a->kind == N_CALL && a->a->kind == N_NAME && !strcmp(a->a->name, "len") &&
      check_count_args(a->args) == 1 && a->args->kind == N_NAME &&
      check_find_local(X, a->args->name) &&
      check_find_local(X, a->args->name)->ty->kind == TY_TUPLE)
    return ir_const_int(X->C, t_i32(),
                        (uint64_t)check_find_local(X, a->args->name)->ty->n);
  IrExpr *len = check_vecn_static_len(X, a); /* wp.static(len(v)) */
  if (len)
    return len;
  Node *bad = check_not_constant(X, a);
  if (bad && a->kind == N_CALL && a->a->kind == N_NAME &&
      !strcmp(a->a->name, "len") && !check_find_local(X, "len") &&
      !check_find_func(X, "len")) {
    /* len() of a vector, matrix or quaternion variable: its type's
     * length, known when the kernel is compiled (wp.static(len(q))) */
    IrExpr *e = check_expr(X, a);
    if (e->kind == E_CONST)
      return e;
  }
  if (bad)
    ERR(bad->pos, "wp.static() needs an expression kern can evaluate at "
                  "compile time (numbers, booleans, module-level constants "
                  "and arithmetic on them)%s",
        bad->kind == N_NAME && check_find_local(X, bad->name)
            ? arena_printf(X->C, "; '%s' is a variable", bad->name)
            : "");
  int64_t lv;
  if (a->kind == N_NAME && !check_static_loop_value(X, a->name, &lv))
    return check_const_value(X, check_find_const(X, a->name), a->pos);
  const char *w = a->kind == N_CALL ? check_wp_attr(X, a->a) : NULL;
  bool second;
  const Type *t = w ? check_wp_type_named(X->C, w, &second) : NULL;
  if (t && t->kind != TY_SCALAR)
    return check_expr(X, a);
  return pyval_ir(X, check_py_eval(X, a), a->pos);
}

/* Constants: wp.constant() values are evaluated once, in order, and folded
 * to a literal of their type; plain module-level values when first used. */
void check_consts(Compiler *C, IrModule *irm) {
  Ctx ctx;
  Func dummy;
  IrFunc irf;
  IrStmt *sink;
  Ctx *X = &ctx;
  check_const_ctx(X, C, irm, &dummy, &irf, &sink);
  /* The table maps each name to its last definition; each definition
   * links the one before it, so find_const can answer "the last one above
   * this constant" in (almost always) one step. */
  int order = 0;
  for (Sym *s = C->mod->consts; s; s = s->next) {
    s->order = order++;
    s->shadowed = names_get(&C->mod->const_names, s->name);
    if (!s->pyglobal)
      for (Sym *t = s->shadowed; t; t = t->shadowed)
        if (!t->pyglobal)
          ERR(s->pos, "constant '%s' is defined twice", s->name);
    names_put(C, &C->mod->const_names, s->name, s);
  }
  for (Sym *s = C->mod->consts; s; s = s->next) {
    if (s->pyglobal)
      continue;
    X->const_limit = s;
    eval_const_sym(X, s);
  }
}

void check_function(Compiler *C, IrModule *irm, Func *f) {
  check_func(C, irm, f);
}

/* Whether the custom adjoint g fits the function o: o's parameters'
 * types, then one adj_ret per result of its result's type (and the
 * adjoint__P the parser added), as Warp matches them. */
static bool grad_fits(const IrFunc *o, const IrFunc *g) {
  if (g->nparams != 2 * o->nparams + o->nrets)
    return false;
  const IrVar *p = g->params;
  for (const IrVar *q = o->params; q; q = q->next, p = p->next)
    if (!ty_eq(p->ty, q->ty))
      return false;
  for (int i = 0; i < o->nrets; i++, p = p->next)
    if (!ty_eq(p->ty, o->rets[i]))
      return false;
  return true;
}

/* Note [custom adjoints] in ir/adjoint.c: each @wp.func_grad of an
 * overloaded function goes to the overload it fits (the latest when
 * several do), as Warp picks it by the grad function's types. */
static void match_grads(Compiler *C, Func *f) {
  for (Func *g = f->grad; g; g = g->grad_next) {
    Func *hit = NULL;
    for (Func *o = f; o; o = o->overload)
      if (o->ir && g->ir && grad_fits(o->ir, g->ir))
        hit = o;
    if (!hit)
      diag_error(C, g->pos, "no overload of '%s' fits the @wp.func_grad '%s' "
                 "(its parameters' types, then an adj_ret of each result's "
                 "type)", f->name, g->name);
    ((IrFunc *)hit->ir)->grad = g->ir;
  }
}

/* Whether the replay r fits the function o: o's parameters' types and
 * results. */
static bool replay_fits(const IrFunc *o, const IrFunc *r) {
  if (r->nparams != o->nparams || r->nrets != o->nrets)
    return false;
  const IrVar *p = r->params;
  for (const IrVar *q = o->params; q; q = q->next, p = p->next)
    if (!ty_eq(p->ty, q->ty))
      return false;
  for (int i = 0; i < o->nrets; i++)
    if (!ty_eq(r->rets[i], o->rets[i]))
      return false;
  return true;
}

/* Each @wp.func_replay of an overloaded function goes to the overload it
 * fits (the latest when several do), as match_grads does. */
static void match_replays(Compiler *C, Func *f) {
  for (Func *r = f->replay; r; r = r->replay_next) {
    Func *hit = NULL;
    for (Func *o = f; o; o = o->overload)
      if (o->ir && r->ir && replay_fits(o->ir, r->ir))
        hit = o;
    if (!hit)
      diag_error(C, r->pos, "no overload of '%s' fits the @wp.func_replay "
                 "'%s' (its parameters' and results' types)", f->name,
                 r->name);
    ((IrFunc *)hit->ir)->replay = r->ir;
  }
}

IrModule *lower_module(Compiler *C) {
  IrModule *irm = arena_alloc(C, sizeof *irm);
  irm->path = C->path;
  check_consts(C, irm);
  check_in_call_order(C, irm);
  for (Func *f = C->mod->funcs; f; f = f->next)
    if (f->grad && f->overload)
      match_grads(C, f);
    else if (f->grad && f->ir && f->grad->ir)
      ((IrFunc *)f->ir)->grad = f->grad->ir;
  for (Func *f = C->mod->funcs; f; f = f->next)
    if (f->replay && f->overload)
      match_replays(C, f);
    else if (f->replay && f->ir && f->replay->ir)
      ((IrFunc *)f->ir)->replay = f->replay->ir;
  check_kernel_overloads(C, irm);
  check_split_deep(C, irm);
  check_fixed_frames(C, irm);
  return irm;
}
