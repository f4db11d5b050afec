/*
 * check_stmt.c -- assignment (locals, array elements, components, tuples,
 * augmented assignment) and statements, with definite assignment across
 * branches and loops.  Part of the checker (check.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---------------------------------------------------------------- assignment */

static Local *assign_local(Ctx *X, Node *target, const Type *ty) {
  Local *l = check_find_local(X, target->name);
  Sym *cs = check_find_const(X, target->name);
  /* A kernel variable may shadow a plain module-level name (Python makes
   * it a local); wp.constant() names are kern's, and stay constant. */
  if (cs && !cs->pyglobal && !l)
    ERR(target->pos, "cannot assign to the constant '%s'", target->name);
  if (check_is_wp(X, target))
    ERR(target->pos, "cannot assign to the module '%s'", target->name);
  if (!check_is_valuelike(ty) &&
      !(ty->kind == TY_ARRAY && (ty->strided || ty->indexed)))
    ERR(target->pos, "cannot assign a %s to a variable", TN(ty));
  if (l && !l->is_param && l->ty->kind == TY_ARRAY && ty->kind == TY_ARRAY &&
      !ty_eq(l->ty, ty)) {
    /* Warp lets an array variable be bound to an array of another type
     * (sub = a[:2] then sub = a[:2, 1]): from here on the name is a new
     * variable. */
    l = check_add_local(X, target->name, ty, target->pos);
    names_put(X->C, &X->local_names, target->name,
              (void *)(intptr_t)X->nlocals);
  } else if (!l) {
    l = check_add_local(X, target->name, ty, target->pos);
  } else {
    if (l->ty->kind == TY_ARRAY && l->is_param)
      ERR(target->pos, "cannot assign to the array parameter '%s'",
          target->name);
    if (!ty_eq(l->ty, ty))
      ERR(target->pos, "cannot assign %s to '%s', which is %s (a variable "
                       "keeps the type of its first assignment)", TN(ty),
          target->name, TN(l->ty));
  }
  check_def_set(X, l - X->locals);
  l->literal = 0; /* check_literal_assigned marks a literal afterwards */
  l->var->nassign++;
  return l;
}

static void store_to(Ctx *X, Node *target, IrExpr *value, Pos pos);

/* Note [store paths]: a store to a part of a value -- s.f = v, s.a.b = v,
 * s.v[0] = x, s.m[i, j] = x, and the same through an array element,
 * a[i].f = v, a[i].v[0] = x -- is one S_SETFIELD whose left side is the
 * chain of E_FIELD and E_COMP nodes down to its root, a variable or an
 * array element.  Every target spells such a chain as a C lvalue, so the
 * store writes just that part: two threads that set different fields of
 * one array element do not undo each other's store, as they would with a
 * load of the whole element, a change and a store back.  A matrix row
 * (m[i] = row) has no lvalue spelling and takes that longer way, on a
 * copy. */
static bool store_path_ok(IrExpr *lv) {
  for (IrExpr *e = lv; e->kind == E_FIELD || e->kind == E_COMP; e = e->a)
    if (e->kind == E_COMP && e->a->ty->kind == TY_MAT && !e->c)
      return false;
  return true;
}

static void store_path(Ctx *X, IrExpr *lv, IrExpr *value, Pos pos) {
  IrExpr *root = lv;
  while (root->kind == E_FIELD || root->kind == E_COMP)
    root = root->a;
  if (root->kind != E_VAR && root->kind != E_LOAD)
    ERR(pos, "cannot assign to a part of this expression; assign it to a "
             "variable first");
  IrStmt *st = ir_stmt(X->C, S_SETFIELD, pos);
  st->var = root->var;
  st->a = lv;
  st->c = value;
  if (root->kind == E_LOAD)
    root->var->written = true;
  else
    root->var->nassign++;
  check_emit(X, st);
}

static void store_component(Ctx *X, Node *target, IrExpr *value);

/* t.p = v, t.q = r on a transform (a variable, an array element, a struct
 * field): the value once, into a temporary, then one component store per
 * component of the part, t[0..2] or t[3..6], each by store_component. */
static void store_xform_part(Ctx *X, Node *target, IrExpr *value,
                             const Type *bt) {
  bool p = !strcmp(target->name, "p");
  const Type *want = p ? ty_vec(X->C, bt->sc, 3) : ty_quat(X->C, bt->sc);
  if (!ty_eq(value->ty, want))
    ERR(target->pos, "cannot assign %s to the %s of a %s, which is %s",
        TN(value->ty), p ? "translation p" : "rotation q", TN(bt), TN(want));
  if (check_has_effects(check_expr(X, target->a)))
    ERR(target->pos, "cannot assign through an expression with side "
                     "effects; assign it to a variable first");
  IrExpr *tmp = check_in_temp(X, value, "part", target->pos);
  for (int k = 0; k < (p ? 3 : 4); k++) {
    Node *sub = arena_alloc(X->C, sizeof *sub), *ix = arena_alloc(X->C, sizeof *ix);
    sub->kind = N_SUBSCRIPT;
    sub->pos = target->pos;
    sub->builtin = -1;
    sub->a = target->a;
    sub->depth = target->depth;
    ix->kind = N_INT;
    ix->pos = target->pos;
    ix->ival = (uint64_t)(p ? k : k + 3);
    sub->args = ix;
    IrExpr *c = ir_expr(X->C, E_COMP, ty_scalar(bt->sc));
    c->a = tmp;
    c->b = ir_const_int(X->C, t_i32(), (uint64_t)k);
    store_component(X, sub, c);
  }
}

/* A wp.ref argument t.p.x or t.q[3] of a transform t (Warp's
 * `store(t.p.x, v)`): the component of t itself, t[k] for p and t[k + 3]
 * for q, so that the store back reaches t.  Only for wp.ref arguments:
 * Warp takes the address of the component there, but a plain assignment
 * `t.p.x = v` changes a copy of the part and leaves t as it was, which kern
 * refuses instead (store_component).  NULL when target is not of this
 * form. */
static Node *xform_part_component(Ctx *X, Node *target) {
  Node *part = target->a;
  if (part->kind != N_ATTR ||
      (strcmp(part->name, "p") && strcmp(part->name, "q")))
    return NULL;
  IrExpr *t = check_expr(X, part->a);
  if (t->ty->kind != TY_VEC || !t->ty->xform || check_has_effects(t))
    return NULL;
  bool p = !strcmp(part->name, "p");
  int n = p ? 3 : 4, k;
  if (target->kind == N_ATTR) {
    k = check_swizzle_index(target->name);
  } else if (target->args && !target->args->next &&
             target->args->kind == N_INT && target->args->ival < 4) {
    k = (int)target->args->ival;
  } else {
    return NULL; /* a computed index: the part as a whole */
  }
  if (k < 0 || k >= n)
    ERR(target->pos, "the %s of a transform has no component %s",
        p ? "translation p" : "rotation q",
        target->kind == N_ATTR ? target->name : "of that index");
  Node *sub = arena_alloc(X->C, sizeof *sub), *ix = arena_alloc(X->C, sizeof *ix);
  sub->kind = N_SUBSCRIPT;
  sub->pos = target->pos;
  sub->builtin = -1;
  sub->a = part->a;
  sub->depth = target->depth;
  ix->kind = N_INT;
  ix->pos = target->pos;
  ix->ival = (uint64_t)(p ? k : k + 3);
  sub->args = ix;
  return sub;
}

/* A component store: v.x = e, v[i] = e, m[i, j] = e, m[i] = row, and the
 * same through an array element or a struct field. */
static void store_component(Ctx *X, Node *target, IrExpr *value) {
  if (xform_part_component(X, target))
    ERR(target->pos, "assigning to a component of a transform's %s changes "
                     "a copy in Warp, leaving the transform as it was; "
                     "assign the whole part (t.%s = ...) instead",
        target->a->name, target->a->name);
  Node *basen = target->a;
  IrExpr *base = check_expr(X, basen);
  const Type *bt = base->ty;
  IrExpr *i = NULL, *j = NULL;
  const Type *ct;
  if (target->kind == N_ATTR && bt->kind == TY_STRUCT) {
    IrExpr *lv = NULL;
    for (int k = 0; k < bt->n; k++)
      if (!strcmp(bt->fnames[k], target->name)) {
        lv = ir_expr(X->C, E_FIELD, bt->items[k]);
        lv->a = base;
        lv->ival = (uint64_t)k;
      }
    if (!lv)
      ERR(target->pos, "struct '%s' has no field '%s'", bt->name,
          target->name);
    /* an array field takes an array (Note [array fields in kernels] in
     * emit/common.c), not a view of one */
    if (lv->ty->kind == TY_ARRAY && value->ty->kind == TY_ARRAY &&
        value->ty->strided)
      ERR(target->pos, "the array field '%s' takes an array, not a view of "
                       "one", target->name);
    if (!ty_eq(value->ty, lv->ty))
      ERR(target->pos, "cannot assign %s to field '%s', which is %s",
          TN(value->ty), target->name, TN(lv->ty));
    if (!store_path_ok(base)) {
      /* through a matrix row: on a copy, then the copy back */
      if (check_has_effects(base))
        ERR(target->pos, "cannot assign through an expression with side "
                         "effects; assign it to a variable first");
      IrExpr *tmp = check_in_temp(X, base, "part", target->pos);
      lv->a = tmp;
      store_path(X, lv, value, target->pos);
      store_to(X, basen, tmp, target->pos);
      return;
    }
    store_path(X, lv, value, target->pos);
    return;
  }
  if (target->kind == N_ATTR) {
    if (bt->kind == TY_ARRAY && !strcmp(target->name, "shape"))
      ERR(target->pos, "cannot assign to the shape of array '%s'",
          basen->kind == N_NAME ? basen->name : "?");
    if (bt->kind != TY_VEC)
      ERR(target->pos, "cannot assign to attribute '%s' of a %s", target->name,
          TN(bt));
    if (bt->xform && (!strcmp(target->name, "p") || !strcmp(target->name, "q"))) {
      store_xform_part(X, target, value, bt);
      return;
    }
    int k = check_swizzle_index(target->name);
    if (k < 0 || k >= bt->rows)
      ERR(target->pos, "a %s has no component '%s'", TN(bt), target->name);
    i = ir_const_int(X->C, t_i32(), (uint64_t)k);
    ct = ty_scalar(bt->sc);
  } else {
    if (bt->kind == TY_SHAPE)
      ERR(target->pos, "cannot assign to the shape of an array");
    int nidx = check_count_args(target->args);
    if (bt->kind == TY_VEC && nidx == 1) {
      i = check_comp_index(X, target->args, bt->rows, "vector");
      ct = ty_scalar(bt->sc);
    } else if (bt->kind == TY_MAT && nidx == 2) {
      i = check_comp_index(X, target->args, bt->rows, "matrix row");
      j = check_comp_index(X, target->args->next, bt->cols, "matrix column");
      ct = ty_scalar(bt->sc);
    } else if (bt->kind == TY_MAT && nidx == 1) {
      i = check_comp_index(X, target->args, bt->rows, "matrix row");
      ct = ty_vec(X->C, bt->sc, bt->cols);
    } else {
      ERR(target->pos, "cannot assign to an element of a %s", TN(bt));
    }
  }
  if (!ty_eq(value->ty, ct))
    ERR(target->pos, "cannot assign %s to a component of type %s",
        TN(value->ty), TN(ct));
  if (base->kind == E_FIELD || base->kind == E_COMP) {
    /* s.v[0] = x, a[i].m[0, 1] = x: Note [store paths] */
    if (j || ct->kind == TY_SCALAR) {
      IrExpr *lv = ir_expr(X->C, E_COMP, ct);
      lv->pos = target->pos;
      lv->a = base;
      lv->b = i;
      lv->c = j;
      if (store_path_ok(base)) {
        store_path(X, lv, value, target->pos);
        return;
      }
    }
    if (check_has_effects(base))
      ERR(target->pos, "cannot assign through an expression with side "
                       "effects; assign it to a variable first");
    IrExpr *tmp = check_in_temp(X, base, "part", target->pos);
    IrStmt *s = ir_stmt(X->C, S_SETCOMP, target->pos);
    s->var = tmp->var;
    s->a = i;
    s->b = j;
    s->c = value;
    tmp->var->nassign++;
    check_emit(X, s);
    store_to(X, basen, tmp, target->pos);
    return;
  }
  if (base->kind == E_VAR) {
    /* Parameters are values (a copy), so a parameter's component can be
     * set like a local's, as in Warp. */
    IrStmt *s = ir_stmt(X->C, S_SETCOMP, target->pos);
    s->var = base->var;
    s->a = i;
    s->b = j;
    s->c = value;
    base->var->nassign++;
    check_emit(X, s);
    return;
  }
  if (base->kind == E_LOAD) {
    /* a[i].x = v: t = a[i]; t.x = v; a[i] = t */
    Local *tmp = check_add_local(X, "elem", bt, target->pos);
    check_def_set(X, X->nlocals - 1);
    IrStmt *s = ir_stmt(X->C, S_ASSIGN, target->pos);
    s->var = tmp->var;
    s->a = base;
    tmp->var->nassign += 2;
    check_emit(X, s);
    IrStmt *sc = ir_stmt(X->C, S_SETCOMP, target->pos);
    sc->var = tmp->var;
    sc->a = i;
    sc->b = j;
    sc->c = value;
    check_emit(X, sc);
    IrStmt *st = ir_stmt(X->C, S_STORE, base->pos);
    st->var = base->var;
    st->args = base->args;
    st->nargs = base->nargs;
    st->c = ir_ref(X->C, tmp->var);
    base->var->written = true;
    check_emit(X, st);
    return;
  }
  ERR(target->pos, "cannot assign to this expression");
}

void check_store_to(Ctx *X, Node *target, IrExpr *value, Pos pos) {
  if (target->kind == N_ATTR || target->kind == N_SUBSCRIPT) {
    Node *c = xform_part_component(X, target);
    if (c)
      target = c;
  }
  store_to(X, target, value, pos);
}

static void store_to(Ctx *X, Node *target, IrExpr *value, Pos pos) {
  switch (target->kind) {
  case N_NAME: {
    Local *l = check_find_local(X, target->name);
    if (l && l->is_param && l->ty->kind == TY_ARRAY && !l->ty->tile)
      ERR(target->pos, "cannot assign to the array parameter '%s'",
          target->name);
    if (check_tile_assign(X, target, value, pos)) /* check_tile.c */
      return;
    if (value->ty->kind == TY_ARRAY) /* a variable holds views */
      value = check_full_view(X, value, pos);
    if (value->ty->kind == TY_TUPLE) { /* u = t */
      check_tuple_assign(X, target, value, pos);
      return;
    }
    l = assign_local(X, target, value->ty);
    IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
    s->var = l->var;
    s->a = value;
    check_emit(X, s);
    return;
  }
  case N_SUBSCRIPT: {
    check_tile_mutate(X, target->a, pos); /* check_tile.c */
    if (check_tile_store_subscript(X, target, value, pos))
      return;
    for (Node *a = target->args; a; a = a->next)
      if (a->kind == N_SLICE) {
        check_store_comp_slice(X, target, value); /* check_view.c */
        return;
      }
    IrExpr *base = check_expr(X, target->a);
    if (base->ty->kind == TY_ARRAY) {
      IrExpr *ld = check_subscript(X, target);
      if (ld->kind != E_LOAD)
        ERR(target->pos, "cannot assign to a %s of an array (Warp stores "
                         "only to single elements)",
            ld->kind == E_VIEW ? "slice or sub-array" : "part");
      if (!ty_eq(value->ty, base->ty->elem))
        ERR(target->pos, "cannot store %s into an array of %s (Warp needs "
                         "the element type exactly)", TN(value->ty),
            TN(base->ty->elem));
      IrStmt *s = ir_stmt(X->C, S_STORE, target->pos);
      s->var = ld->var;
      s->args = ld->args;
      s->nargs = ld->nargs;
      s->c = value;
      ld->var->written = true;
      check_emit(X, s);
      return;
    }
    store_component(X, target, value);
    return;
  }
  case N_ATTR:
    store_component(X, target, value);
    return;
  case N_TUPLE:
    ERR(target->pos, "nested tuple assignment is not supported");
  case N_CALL:
    ERR(target->pos, "cannot assign to a function call");
  default:
    ERR(target->pos, "cannot assign to this expression");
  }
}

static void assign_tuple(Ctx *X, Node *targets, Node *value, Pos pos) {
  int nt = check_count_args(targets->args);
  /* i, j = wp.tid() */
  if (value->kind == N_CALL) {
    const char *w = check_wp_attr(X, value->a);
    if (w && !strcmp(w, "tid")) {
      if (!X->f->is_kernel)
        ERR(value->pos, "wp.tid() can only be called in a kernel");
      if (value->args || value->kwargs)
        ERR(value->pos, "wp.tid() takes no arguments");
      if (nt > 4)
        ERR(targets->pos, "wp.tid() has at most 4 dimensions, got %d "
                          "targets", nt);
      /* Value k of any unpacking is coordinate k of the grid, as in Warp,
       * so a kernel may unpack it into different numbers of values (and
       * call it alone, the first coordinate); the kernel runs on grids of
       * at most the largest number (Note [launch dimensionality] in
       * runtime/module.c). */
      if (nt > X->f->tid_dims)
        X->f->tid_dims = nt;
      int k = 0;
      for (Node *t = targets->args; t; t = t->next, k++) {
        if (t->kind != N_NAME)
          ERR(t->pos, "wp.tid() must be unpacked into variables");
        IrExpr *e = ir_expr(X->C, E_TID, t_i32());
        e->ival = (uint64_t)k;
        store_to(X, t, e, pos);
      }
      return;
    }
    /* axis, angle = wp.quat_to_axis_angle(q) and the like */
    int np = 0;
    IrExpr **parts = w ? check_extra_unpack(X, value, w, &np) : NULL;
    if (parts) {
      if (np != nt)
        ERR(targets->pos, "wp.%s() returns %d values, but %d targets are "
                          "given", w, np, nt);
      int i = 0;
      for (Node *t = targets->args; t; t = t->next, i++)
        store_to(X, t, parts[i], pos);
      return;
    }
    /* a, b = f(x) */
    if (value->a->kind == N_NAME && check_find_func(X, value->a->name) &&
        !check_find_local(X, value->a->name)) {
      IrExpr *call = check_expr(X, value);
      if (call->kind != E_FCALL)
        ERR(value->pos, "a function with wp.ref parameters that returns "
                        "several values is not supported yet");
      IrFunc *g = call->fn; /* the overload the call chose */
      if (g->nrets < 2)
        ERR(targets->pos, "'%s' returns one value, not %d", g->name, nt);
      if (g->nrets != nt)
        ERR(targets->pos, "'%s' returns %d values, but %d targets are given",
            g->name, g->nrets, nt);
      /* Results 2..n come back through out-variables, then everything is
       * assigned in order. */
      call->nouts = nt - 1;
      call->outs = arena_alloc(X->C, sizeof(IrVar *) * (size_t)nt);
      for (int i = 1; i < nt; i++) {
        Local *tmp = check_add_local(X, "ret", g->rets[i], value->pos);
        check_def_set(X, X->nlocals - 1);
        tmp->var->nassign++;
        call->outs[i - 1] = tmp->var;
      }
      Local *first = check_add_local(X, "ret", g->rets[0], value->pos);
      check_def_set(X, X->nlocals - 1);
      first->var->nassign++;
      IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
      s->var = first->var;
      s->a = call;
      check_emit(X, s);
      int i = 0;
      for (Node *t = targets->args; t; t = t->next, i++) {
        IrVar *src = i == 0 ? first->var : call->outs[i - 1];
        store_to(X, t, ir_ref(X->C, src), pos);
      }
      return;
    }
  }
  if (value->kind == N_TUPLE) {
    int nv = check_count_args(value->args);
    if (nv != nt)
      ERR(pos, "%d values are assigned to %d targets", nv, nt);
    /* Evaluate every value before assigning any (a, b = b, a). */
    IrVar **tmps = arena_alloc(X->C, sizeof(IrVar *) * (size_t)nv);
    int i = 0;
    for (Node *v = value->args; v; v = v->next, i++) {
      IrExpr *e = check_expr(X, v);
      if (!ty_is_value(e->ty))
        ERR(v->pos, "cannot assign a %s", TN(e->ty));
      Local *tmp = check_add_local(X, "tup", e->ty, v->pos);
      check_def_set(X, X->nlocals - 1);
      tmp->var->nassign++;
      IrStmt *s = ir_stmt(X->C, S_ASSIGN, pos);
      s->var = tmp->var;
      s->a = e;
      check_emit(X, s);
      tmps[i] = tmp->var;
    }
    i = 0;
    for (Node *t = targets->args; t; t = t->next, i++)
      store_to(X, t, ir_ref(X->C, tmps[i]), pos);
    return;
  }
  /* a, b = t for a tuple variable t */
  IrExpr *tv = check_expr(X, value);
  if (tv->ty->kind == TY_TUPLE) {
    if (tv->nargs != nt)
      ERR(targets->pos, "cannot unpack a tuple of %d items into %d targets",
          tv->nargs, nt);
    int i = 0;
    for (Node *t = targets->args; t; t = t->next, i++)
      store_to(X, t, tv->args[i], pos);
    return;
  }
  ERR(value->pos, "cannot unpack this value into %d targets (only wp.tid(), "
                  "function results and tuples can be unpacked)", nt);
}

static void augassign(Ctx *X, Node *n) {
  Node *target = n->a;
  if (target->kind == N_TUPLE)
    ERR(target->pos, "augmented assignment to a tuple is not supported");
  bool tile_elem = false; /* t[i] op= v: check_tile_elem_op */
  if (target->kind == N_SUBSCRIPT) {
    IrExpr *base = check_expr(X, target->a);
    tile_elem = base->ty->kind == TY_ARRAY && base->ty->tile;
    const Type *et0 = base->ty->kind == TY_ARRAY ? base->ty->elem : NULL;
    bool wide = et0 && !ty_is_bool(et0) &&
                !(sc_is_int(et0->sc) && sc_bits(et0->sc) < 32);
    bool bitop = n->op == OP_BITAND || n->op == OP_BITOR || n->op == OP_BITXOR;
    /* As in Warp: += and -= on an array element are atomic, and so are
     * &= |= ^= on integers and their vectors and matrices; other operators, and elements narrower than 32
     * bits, are a plain load-op-store. */
    /* a fixed-size local array belongs to one thread: no atomics */
    /* (bit operators also on vectors and matrices of integers, one atomic
     * per component, as Warp lowers them) */
    bool intlike = et0 && sc_is_int(et0->sc) &&
                   (et0->kind == TY_SCALAR || et0->kind == TY_VEC ||
                    et0->kind == TY_MAT);
    if (wide && !base->ty->priv && (n->op == OP_ADD || n->op == OP_SUB ||
                                    (bitop && intlike))) {
      /* a[i] += v is an atomic add in Warp. */
      IrExpr *ld = check_subscript(X, target);
      if (ld->kind != E_LOAD)
        ERR(target->pos, "cannot update a slice or sub-array of an array in "
                         "place (Warp updates only single elements)");
      IrExpr *v = check_expr(X, n->b);
      if (!ty_eq(v->ty, ld->ty))
        ERR(n->pos, "cannot add %s to an element of an array of %s",
            TN(v->ty), TN(ld->ty));
      IrExpr *e = ir_expr(X->C, E_ATOMIC, ld->ty);
      e->pos = target->pos;
      e->bi = n->op == OP_ADD ? BI_ATOMIC_ADD : n->op == OP_SUB ? BI_ATOMIC_SUB
              : n->op == OP_BITAND ? BI_ATOMIC_AND
              : n->op == OP_BITOR ? BI_ATOMIC_OR : BI_ATOMIC_XOR;
      e->var = ld->var;
      e->args = ld->args;
      e->nargs = ld->nargs;
      e->c = v;
      ld->var->written = true;
      X->irf->uses_atomics = true;
      IrStmt *s = ir_stmt(X->C, S_EXPR, n->pos);
      s->a = e;
      check_emit(X, s);
      return;
    }
  }
  check_tile_mutate(X, target, n->pos); /* check_tile.c */
  IrExpr *cur = check_expr(X, target);
  IrExpr *v = check_expr(X, n->b);
  IrExpr *r = tile_elem ? check_tile_elem_op(X, n->op, cur, v, n->pos)
                        : check_binop(X, n->op, cur, v, n->pos);
  if (!ty_eq(r->ty, cur->ty))
    ERR(n->pos, "'%s=' would change the type of the target from %s to %s",
        op_text(n->op), TN(cur->ty), TN(r->ty));
  if (check_tile_update_param(X, target, r, n->pos)) /* check_tile.c */
    return;
  if (target->kind == N_NAME) {
    Local *l = check_find_local(X, target->name);
    if (l && l->is_param && l->ty->kind == TY_ARRAY)
      ERR(target->pos, "cannot assign to the array parameter '%s'",
          target->name);
  }
  store_to(X, target, r, n->pos);
}

/* ---------------------------------------------------------------- statements */

static IrStmt *block_of(Ctx *X, Node *list, bool *dead_out) {
  IrStmt *head = NULL;
  IrStmt **save_tail = X->tail;
  bool save_dead = X->dead;
  X->tail = &head;
  X->dead = false;
  check_stmts(X, list);
  *dead_out = X->dead;
  X->tail = save_tail;
  X->dead = save_dead;
  return head;
}

/* A value used more than once, in a hidden temporary unless it is a
 * constant or a variable already. */
static IrExpr *once(Ctx *X, IrExpr *v, const char *base, Pos pos) {
  if (v->kind == E_CONST || v->kind == E_VAR)
    return v;
  Local *t = check_add_hidden_local(X, base, v->ty, pos);
  check_def_set(X, X->nlocals - 1);
  t->var->nassign++;
  IrStmt *as = ir_stmt(X->C, S_ASSIGN, pos);
  as->var = t->var;
  as->a = v;
  check_emit(X, as);
  return ir_ref(X->C, t->var);
}

/* reversed(range(a, b, c)) as Warp's iter_reverse() computes it: it starts
 * at a + ((b - a - 1) / c) * c (b - a + 1 for a negative step; C's
 * truncating division), stops before a - c and steps by -c; an empty
 * range becomes a..a.  The range is evaluated once, in order. */
static void reverse_range(Ctx *X, IrExpr **start, IrExpr **stop,
                          IrExpr **step, Pos pos) {
  Compiler *C = X->C;
  const Type *t = (*start)->ty;
  IrExpr *a = once(X, *start, "start", pos);
  IrExpr *b = once(X, *stop, "stop", pos);
  IrExpr *c = once(X, *step, "step", pos);
  IrExpr *one;
  if (c->kind == E_CONST) {
    one = ir_const_int(C, t, sc_is_signed(t->sc) && (int64_t)c->ival < 0
                                 ? (uint64_t)-1 : 1);
  } else {
    one = ir_expr(C, E_SELECT, t);
    one->a = ir_binary(C, OP_GT, t_bool(), c, ir_const_int(C, t, 0));
    one->b = ir_const_int(C, t, 1);
    one->c = ir_const_int(C, t, (uint64_t)-1);
  }
  IrExpr *span = ir_binary(C, OP_SUB, t, ir_binary(C, OP_SUB, t, b, a), one);
  IrExpr *q = ir_call2(C, BI_OP_DIV, t, span, c);
  IrExpr *first = ir_binary(C, OP_ADD, t, a, ir_binary(C, OP_MUL, t, q, c));
  IrExpr *last = ir_binary(C, OP_SUB, t, a, c);
  /* An empty range (a >= b stepping up, a <= b stepping down) is a..a, no
   * trip, as in Warp: the division above would give one spurious trip for
   * range(3, 3, 3). */
  IrExpr *up = ir_binary(C, OP_GE, t_bool(), a, b);
  IrExpr *down = ir_binary(C, OP_LE, t_bool(), a, b);
  IrExpr *empty;
  if (c->kind == E_CONST) {
    empty = sc_is_signed(t->sc) && (int64_t)c->ival < 0 ? down : up;
  } else {
    empty = ir_expr(C, E_SELECT, t_bool());
    empty->a = ir_binary(C, OP_GT, t_bool(), c, ir_const_int(C, t, 0));
    empty->b = up;
    empty->c = down;
  }
  *start = ir_expr(C, E_SELECT, t);
  (*start)->a = empty;
  (*start)->b = a;
  (*start)->c = first;
  *stop = ir_expr(C, E_SELECT, t);
  (*stop)->a = empty;
  (*stop)->b = a;
  (*stop)->c = last;
  *step = c->kind == E_CONST ? ir_const_int(C, t, (uint64_t)0 - c->ival)
                             : ir_unary(C, OP_NEG, c);
}

static void for_stmt(Ctx *X, Node *n) {
  Compiler *C = X->C;
  Node *it = n->a;
  if (n->b->kind != N_NAME)
    ERR(n->b->pos, "the target of a 'for' loop must be a single variable");
  /* for k in reversed(range(...)): Warp's iter_reverse() of the range */
  bool rev = it->kind == N_CALL && it->a->kind == N_NAME &&
             !strcmp(it->a->name, "reversed") &&
             !check_find_local(X, "reversed");
  if (rev) {
    check_no_kwargs(X, it, "reversed");
    if (check_count_args(it->args) != 1)
      ERR(it->pos, "reversed() takes one argument, a range(...)");
    it = it->args;
  }
  if (it->kind != N_CALL || it->a->kind != N_NAME ||
      strcmp(it->a->name, "range") || check_find_local(X, "range"))
    ERR(it->pos, "only 'for ... in range(...)' loops are supported");
  check_no_kwargs(X, it, "range");
  int na = check_count_args(it->args);
  if (na < 1 || na > 3)
    ERR(it->pos, "range() takes 1 to 3 arguments, got %d", na);
  IrExpr *a[3];
  int i = 0;
  for (Node *an = it->args; an; an = an->next, i++) {
    a[i] = check_expr(X, an);
    if (!ty_is_int(a[i]->ty))
      ERR(an->pos, "range() arguments must be integers, got %s",
          TN(a[i]->ty));
    if (i > 0 && !ty_eq(a[i]->ty, a[0]->ty))
      ERR(an->pos, "range() arguments have different types: %s and %s",
          TN(a[0]->ty), TN(a[i]->ty));
  }
  check_order_effects(X, a, na, it->pos);
  const Type *it_ty = a[0]->ty;
  IrExpr *start = na == 1 ? ir_const_int(C, it_ty, 0) : a[0];
  IrExpr *stop = na == 1 ? a[0] : a[1];
  IrExpr *step = na == 3 ? a[2] : ir_const_int(C, it_ty, 1);
  if (step->kind == E_CONST && step->ival == 0)
    ERR(it->args->next->next->pos, "range() step must not be zero");
  if (rev)
    reverse_range(X, &start, &stop, &step, n->pos);
  /* wp.static() of the loop variable: the loop unrolled, each trip a
   * loop of its own (Note [static loop variables]) */
  if (check_static_loop(X, n, start, stop, step, for_stmt))
    return;
  /* Python evaluates the range once: stop and step go into temporaries
   * unless constant. */
  IrStmt *s = ir_stmt(C, S_FOR, n->pos);
  /* hidden: a later variable named i is the program's own, not this */
  Local *ctr = check_add_hidden_local(X, "i", it_ty, n->pos);
  check_def_set(X, X->nlocals - 1);
  ctr->var->nassign += 2;
  IrExpr *vals[2] = {stop, step};
  for (int k = 0; k < 2; k++) {
    if (vals[k]->kind == E_CONST || vals[k]->kind == E_VAR)
      continue;
    Local *t = check_add_hidden_local(X, k ? "step" : "stop", it_ty, n->pos);
    check_def_set(X, X->nlocals - 1);
    t->var->nassign++;
    IrStmt *as = ir_stmt(C, S_ASSIGN, n->pos);
    as->var = t->var;
    as->a = vals[k];
    check_emit(X, as);
    vals[k] = ir_ref(C, t->var);
  }
  s->var = ctr->var;
  s->a = start;
  s->b = vals[0];
  s->c = vals[1];

  DefSet before = check_defs_save(X);
  /* the loop variable: assigned from the counter at the top of the body */
  Local *lv = assign_local(X, n->b, it_ty);
  IrStmt *head = ir_stmt(C, S_ASSIGN, n->pos);
  head->var = lv->var;
  head->a = ir_ref(C, ctr->var);
  /* Warp unrolls a loop of constant bounds and at most 16 trips, which
   * makes its variable a constant a tuple can be indexed with
   * (check_tuple.c).  The index is kept, not the pointer: adding locals
   * moves the table. */
  int lvi = (int)(lv - X->locals);
  bool was_unrolled = lv->unrolled;
  if (start->kind == E_CONST && vals[0]->kind == E_CONST &&
      vals[1]->kind == E_CONST) {
    int64_t b = (int64_t)start->ival, e = (int64_t)vals[0]->ival,
            st = (int64_t)vals[1]->ival;
    if (sc_bits(it_ty->sc) == 32) {
      b = (int32_t)(uint32_t)start->ival;
      e = (int32_t)(uint32_t)vals[0]->ival;
      st = (int32_t)(uint32_t)vals[1]->ival;
    }
    int64_t trips = st > 0 ? (e > b ? (e - b + st - 1) / st : 0)
                           : (b > e ? (b - e - st - 1) / -st : 0);
    lv->unrolled = trips <= 16;
    lv->ulo = trips ? (st > 0 ? b : b + (trips - 1) * st) : 0;
    lv->uhi = trips ? (st > 0 ? b + (trips - 1) * st : b) : -1;
  }
  X->loop_depth++;
  bool dead;
  IrStmt *body = block_of(X, n->body, &dead);
  X->loop_depth--;
  X->locals[lvi].unrolled = was_unrolled;
  head->next = body;
  s->body = head;
  check_defs_restore(X, before);
  check_emit(X, s);
}

static void stmt(Ctx *X, Node *n);

void check_stmts(Ctx *X, Node *list) {
  X->block_depth++;
  for (Node *n = list; n; n = n->next) {
    if (X->dead) {
      /* Code after return/break/continue never runs; Warp accepts it, and
       * so does kern, but it is still checked. */
    }
    IrStmt **save = X->stmt_mark;
    X->stmt_mark = X->tail;
    stmt(X, n);
    check_tile_sync(X); /* check_tile.c */
    X->stmt_mark = save;
  }
  X->block_depth--;
  check_literal_leave(X); /* Note [constant locals] */
}

static void printf_stmt(Ctx *X, Node *call, bool is_print) {
  IrStmt *s = ir_stmt(X->C, S_PRINTF, call->pos);
  check_no_kwargs(X, call, is_print ? "print" : "wp.printf");
  if (is_print) {
    if (check_count_args(call->args) != 1)
      ERR(call->pos, "print() takes exactly one argument in kernels");
    IrExpr *v = check_expr(X, call->args);
    if (!ty_is_value(v->ty))
      ERR(call->args->pos, "cannot print a %s", TN(v->ty));
    s->str = NULL; /* print(x): the emitter formats by type */
    s->args = arena_alloc(X->C, sizeof(IrExpr *));
    s->args[0] = v;
    s->nargs = 1;
  } else {
    Node *fmt = call->args;
    if (!fmt || fmt->kind != N_STR)
      ERR(call->pos, "wp.printf() needs a string literal format first");
    s->str = fmt->str;
    s->slen = fmt->slen;
    int n = check_count_args(fmt->next);
    s->args = arena_alloc(X->C, sizeof(IrExpr *) * (size_t)(n ? n : 1));
    int i = 0;
    for (Node *a = fmt->next; a; a = a->next, i++) {
      IrExpr *v = check_expr(X, a);
      if (!ty_is_scalar(v->ty))
        ERR(a->pos, "wp.printf() arguments must be scalars, got %s",
            TN(v->ty));
      s->args[i] = v;
    }
    s->nargs = n;
    /* Every conversion must be one fmt_parse() accepts -- the emitter
     * rewrites exactly what it parsed -- and match its argument's type, as
     * C requires. */
    int argi = 0;
    for (int k = 0; k < fmt->slen; k++) {
      /* printf ends its format at a NUL, and OpenCL's printf drops a NUL
       * printed with %c, so no target could print one as written. */
      if (fmt->str[k] == '\0')
        ERR(fmt_pos(X->C, fmt->pos, k),
            "a wp.printf() format cannot contain a NUL character");
      if (fmt->str[k] != '%')
        continue;
      FmtSpec f;
      if (!fmt_parse(fmt->str, fmt->slen, k, &f)) {
        int q = f.end - k; /* quote the conversion, printable part only */
        for (int i = 1; i < q; i++)
          if ((unsigned char)fmt->str[k + i] < 0x20 ||
              (unsigned char)fmt->str[k + i] >= 0x7f)
            q = i;
        ERR(fmt_pos(X->C, fmt->pos, f.error_at),
            "bad conversion '%.*s' in the wp.printf() format: %s", q,
            fmt->str + k, f.error);
      }
      k = f.end - 1;
      if (f.conv == '%')
        continue;
      if (argi >= n)
        ERR(fmt_pos(X->C, fmt->pos, f.start),
            "the format has more conversions than arguments");
      const Type *at = s->args[argi]->ty;
      if (f.is_float != sc_is_float(at->sc))
        ERR(fmt_pos(X->C, fmt->pos, f.start),
            "conversion '%.*s' does not match argument %d, which is %s",
            f.end - f.start, fmt->str + f.start, argi + 2, TN(at));
      argi++;
    }
    if (argi != n)
      ERR(call->pos, "wp.printf() has %d argument%s but the format uses %d",
          n, n == 1 ? "" : "s", argi);
  }
  X->irf->uses_printf = true;
  check_emit(X, s);
}

/* An expression statement: the calls that are statements (printf, print,
 * the expect helpers, atomics) or any expression, evaluated for its effects. */
static void expr_stmt(Ctx *X, Node *n) {
  Compiler *C = X->C;
  Node *e = n->a;
  if (e->kind == N_CALL) {
    e = n->a = check_fn_callee(X, e); /* f(x), f bound to a function */
    const char *w = check_wp_attr(X, e->a);
    if (w && !strcmp(w, "printf")) {
      printf_stmt(X, e, false);
      return;
    }
    if (w && (!strcmp(w, "expect_eq") || !strcmp(w, "expect_neq") ||
              !strcmp(w, "expect_near"))) {
      check_expect_stmt(X, e, w);
      return;
    }
    if (w && !strcmp(w, "print")) {
      check_print_stmt(X, e, "wp.print");
      return;
    }
    int nout = 0; /* wp.svd3(A, U, sigma, V): the outputs change */
    IrExpr **outs = w ? check_linalg_outargs(X, e, w, &nout) : NULL;
    if (outs) {
      Node *o = e->args->next;
      for (int i = 0; i < nout; i++, o = o->next)
        store_to(X, o, outs[i], n->pos);
      return;
    }
    IrExpr *set = w ? check_extra_set_inplace(X, e, w) : NULL;
    if (set) { /* wp.transform_set_translation(t, p): t changes */
      store_to(X, e->args, set, n->pos);
      return;
    }
    if (!w && e->a->kind == N_NAME && !strcmp(e->a->name, "print") &&
        !check_find_func(X, "print")) {
      check_print_stmt(X, e, "print");
      return;
    }
    if (w && builtin_lookup(w) >= 0 &&
        (builtin_lookup(w) >= BI_ATOMIC_ADD &&
         builtin_lookup(w) <= BI_ATOMIC_CAS)) {
      IrStmt *s = ir_stmt(C, S_EXPR, n->pos);
      s->a = check_atomic_call(X, e, builtin_lookup(w), arena_printf(C, "wp.%s",
                                                                w));
      check_emit(X, s);
      return;
    }
    /* wp.add/sub/mul/div are operators by name: check_call_expr() leaves them
     * to check_binop() in check_expr() and returns NULL, which made an S_EXPR without
     * an expression (found by fuzz_frontend: tests/fuzz/crashes/
     * ubsan_expr_stmt_wp_mul.py). */
    int bi = w ? builtin_lookup(w) : -1;
    IrExpr *v = bi == BI_ADD || bi == BI_SUB || bi == BI_MUL || bi == BI_DIV
                    ? check_expr(X, e)
                    : check_call_expr(X, e);
    if (v->kind == E_CONST && v->ty->kind == TY_VOID)
      return; /* a call with wp.ref arguments, already emitted */
    IrStmt *s = ir_stmt(C, S_EXPR, n->pos);
    s->a = v;
    check_emit(X, s);
    return;
  }
  if (e->kind == N_STR)
    return; /* a docstring */
  /* Any other expression is evaluated for its effects, as in Python: an
   * atomic or a random draw inside it still happens. */
  IrStmt *es = ir_stmt(C, S_EXPR, n->pos);
  es->a = check_expr(X, e);
  if (es->a->ty->kind == TY_TUPLE)
    return; /* its items were evaluated into temporaries (check_tuple.c) */
  check_emit(X, es);
}

/* name = value, a[i] = value, v.x = value and tuple unpacking. */
static void assign_stmt(Ctx *X, Node *n) {
  int nt = check_count_args(n->args);
  if (nt > 1)
    ERR(n->pos, "chained assignment (a = b = ...) is not supported");
  Node *target = n->args;
  if (target->kind == N_TUPLE) {
    assign_tuple(X, target, n->a, n->pos);
    return;
  }
  if (check_fn_assign(X, target, n->a)) /* f = double_it */
    return;
  IrExpr *v;
  if (n->a->kind == N_CALL && check_wp_attr(X, n->a->a) &&
      !strcmp(check_wp_attr(X, n->a->a), "tid")) {
    v = check_expr(X, n->a);
  } else if (target->kind != N_NAME) {
    if (n->a->kind == N_TUPLE)
      ERR(n->a->pos, "a tuple can only be assigned to a variable");
    v = check_expr(X, n->a);
    if (v->kind == E_FCALL && v->fn && v->fn->nrets > 1)
      ERR(n->pos, "'%s' returns %d values; unpack them into %d variables",
          n->a->a->name, v->fn->nrets, v->fn->nrets);
  } else {
    /* t = (a, b), t = f() of several results, t = wp.quat_to_axis_angle(q):
     * a tuple variable (check_tuple.c) */
    v = n->a->kind == N_CALL ? check_tuple_of_builtin(X, n->a) : NULL;
    if (!v)
      v = check_tuple_of_call(X, check_expr(X, n->a), n->pos);
    if (v->ty->kind == TY_TUPLE) {
      check_tuple_assign(X, target, v, n->pos);
      return;
    }
  }
  if (target->kind == N_NAME && !check_is_valuelike(v->ty) &&
      v->ty->kind != TY_ARRAY) {
    if (v->ty->kind == TY_ARRAY)
      ERR(n->pos, "arrays cannot be assigned to variables in kernels; use "
                  "the parameter directly");
    ERR(n->pos, "cannot assign a %s to a variable", TN(v->ty));
  }
  store_to(X, target, v, n->pos);
  check_literal_assigned(X, target, n->a);
}

/* name: type = value */
static void annassign_stmt(Ctx *X, Node *n) {
  if (n->a->kind != N_NAME)
    ERR(n->pos, "only a variable can be declared with a type");
  const Type *t = check_type_expr(X, n->b, "variable annotation");
  if (!n->c)
    ERR(n->pos, "a declaration needs a value ('%s: %s = ...')", n->a->name,
        TN(t));
  IrExpr *v = check_is_literal(n->c) && ty_is_scalar(t) ? check_literal_as(X, n->c, t)
                                                  : check_expr(X, n->c);
  if (!ty_eq(v->ty, t))
    ERR(n->pos, "'%s' is declared %s but assigned %s", n->a->name, TN(t),
        TN(v->ty));
  store_to(X, n->a, v, n->pos);
}

/* if/elif/else; a local is defined after it where every branch that
 * falls through defined it. */
static void if_stmt(Ctx *X, Node *n) {
  Compiler *C = X->C;
  IrStmt *s = ir_stmt(C, S_IF, n->pos);
  s->a = check_truth(X, check_expr(X, n->a), n->a->pos);
  DefSet before = check_defs_save(X);
  bool dead_then, dead_else = false;
  s->body = block_of(X, n->body, &dead_then);
  /* the locals the then-branch defined (Note [defs trail]) */
  int nthen = X->ntrail - before;
  int *then_set = arena_alloc(C, sizeof(int) * (size_t)(nthen ? nthen : 1));
  memcpy(then_set, X->trail + before, sizeof(int) * (size_t)nthen);
  check_defs_restore(X, before);
  if (n->orelse)
    s->orelse = block_of(X, n->orelse, &dead_else);
  /* Defined after the if: defined on every branch that falls through. */
  if (dead_then) {
    /* the else-branch's state, as it is */
  } else if (dead_else) {
    check_defs_restore(X, before);
    for (int k = 0; k < nthen; k++)
      check_def_set(X, then_set[k]);
  } else {
    /* before, plus what both branches defined */
    int nelse = X->ntrail - before;
    int *else_set = arena_alloc(C, sizeof(int) * (size_t)(nelse ? nelse : 1));
    memcpy(else_set, X->trail + before, sizeof(int) * (size_t)nelse);
    check_defs_restore(X, before);
    for (int k = 0; k < nthen; k++)
      X->marked[then_set[k]] = true;
    for (int k = 0; k < nelse; k++)
      if (X->marked[else_set[k]])
        check_def_set(X, else_set[k]);
    for (int k = 0; k < nthen; k++)
      X->marked[then_set[k]] = false;
  }
  if (dead_then && dead_else)
    X->dead = true;
  check_emit(X, s);
}

/* while: its condition is evaluated before every iteration, so nothing
 * may be hoisted out of it. */
static void while_stmt(Ctx *X, Node *n) {
  Compiler *C = X->C;
  IrStmt *s = ir_stmt(C, S_WHILE, n->pos);
  X->no_hoist++; /* evaluated again before every iteration */
  s->a = check_truth(X, check_expr(X, n->a), n->a->pos);
  X->no_hoist--;
  DefSet before = check_defs_save(X);
  X->loop_depth++;
  bool dead;
  s->body = block_of(X, n->body, &dead);
  X->loop_depth--;
  check_defs_restore(X, before);
  check_emit(X, s);
}

/* return in a kernel (no value) or in a function (the first return fixes
 * the return type unless it is annotated). */
static void return_stmt(Ctx *X, Node *n) {
  Compiler *C = X->C;
  Func *f = X->f;
  if (f->is_kernel) {
    if (n->a)
      ERR(n->pos, "a kernel cannot return a value");
    if (X->loop_depth > 0)
      X->irf->has_kreturn_in_loop = true;
    check_emit(X, ir_stmt(C, S_KRETURN, n->pos));
    X->dead = true;
    return;
  }
  IrStmt *s = ir_stmt(C, S_RETURN, n->pos);
  const Type *rt;
  if (!n->a) {
    rt = &ty_void;
  } else if (n->a->kind == N_TUPLE) {
    int k = check_count_args(n->a->args);
    s->args = arena_alloc(C, sizeof(IrExpr *) * (size_t)k);
    const Type **items = arena_alloc(C, sizeof(Type *) * (size_t)k);
    int i = 0;
    for (Node *v = n->a->args; v; v = v->next, i++) {
      s->args[i] = check_expr(X, v);
      if (!ty_is_value(s->args[i]->ty) && s->args[i]->ty->kind != TY_STRUCT)
        ERR(v->pos, "cannot return a %s", TN(s->args[i]->ty));
      items[i] = s->args[i]->ty;
    }
    s->nargs = k;
    rt = ty_tuple(C, k, items);
  } else if ((s->a = check_tuple_of_call(X, check_expr(X, n->a), n->pos))
                 ->ty->kind == TY_TUPLE) {
    /* return t, return f(): the tuple's items are the results */
    s->args = s->a->args;
    s->nargs = s->a->nargs;
    rt = s->a->ty;
    s->a = NULL;
  } else {
    if (s->a->ty->kind == TY_ARRAY && s->a->ty->priv) {
      /* a fixed array is returned by value (check_fixed.c) */
      s->a = check_fixed_return(X, s->a, n->a->pos);
    } else if (s->a->ty->kind == TY_ARRAY) {
      /* Warp returns arrays (a[i], a parameter); they travel as views */
      s->a = check_full_view(X, s->a, n->a->pos);
      if (f->ret && f->ret->kind == TY_ARRAY && !f->ret->strided)
        f->ret = ty_array_view(C, f->ret->elem, f->ret->ndim);
    }
    rt = s->a->ty;
    if (!check_is_valuelike(rt) && rt->kind != TY_ARRAY)
      ERR(n->a->pos, "cannot return a %s", TN(rt));
  }
  if (!f->ret || (check_is_tile_pattern(f->ret) &&
                  check_ty_fits(f->ret, rt))) { /* -> wp.tile[...] */
    f->ret = rt;
  } else if (!ty_eq(f->ret, rt)) {
    ERR(n->pos, "'%s' returns %s here but %s %s", f->name, TN(rt),
        f->ret_annot ? "is declared to return" : "returned",
        TN(f->ret));
  }
  X->ret_seen = true;
  check_emit(X, s);
  X->dead = true;
}

static void stmt(Ctx *X, Node *n) {
  Compiler *C = X->C;
  switch (n->kind) {
  case N_PASS:
    return;
  case N_EXPR:
    expr_stmt(X, n);
    return;
  case N_ASSIGN:
    n->a = check_extra_tuple(X, n->a); /* a, b = wp.tuple(x, y) */
    assign_stmt(X, n);
    return;
  case N_ANNASSIGN:
    annassign_stmt(X, n);
    return;
  case N_AUGASSIGN:
    augassign(X, n);
    return;
  case N_IF:
    if_stmt(X, n);
    return;
  case N_FOR:
    for_stmt(X, n);
    return;
  case N_WHILE:
    while_stmt(X, n);
    return;
  case N_BREAK:
  case N_CONTINUE:
    if (X->loop_depth == 0)
      ERR(n->pos, "'%s' outside a loop", n->kind == N_BREAK ? "break" :
                                                              "continue");
    check_emit(X, ir_stmt(C, n->kind == N_BREAK ? S_BREAK : S_CONTINUE, n->pos));
    X->dead = true;
    return;
  case N_RETURN:
    n->a = check_extra_tuple(X, n->a); /* return wp.tuple(x, y) */
    return_stmt(X, n);
    return;
  case N_ASSERT: {
    IrStmt *s = ir_stmt(C, S_ASSERT, n->pos);
    s->a = check_truth(X, check_expr(X, n->a), n->a->pos);
    check_emit(X, s);
    return;
  }
  default:
    ERR(n->pos, "unsupported statement");
  }
}
