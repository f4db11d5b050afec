/*
 * vecplan.c -- which kernels get 16-byte loads and stores (CUDA, Vulkan).
 *
 * Note [16-byte accesses]: a memory-bound kernel reaches the copy bandwidth
 * only with 16-byte loads and stores (measured on an H100 by
 * exp/saxpy_shapes.cu: 0.93 of the D2D copy with 4-byte accesses,
 * 0.96-0.99 with float4).  When every array access of a 1-D kernel is
 * a[i] with i the thread index, the body is straight-line and each array is
 * stored at most once at the top level (after its loads), the kernel gets
 * a loop in which each thread handles W = 16 / element-size consecutive
 * indices: one vector load per array, W copies of the body reading and
 * writing lanes of those vectors, one vector store per stored array.
 * Arrays start at their allocation (256-byte aligned), so k_base * size is
 * 16-byte aligned.  The remainder runs through the scalar loop.
 * Measured on Vulkan too (NVIDIA's driver, H200): bench/NOTES.md run 10.
 */
#include <string.h>
#include "emit.h"

static int vp_find(VecPlan *V, IrVar *a) {
  for (int i = 0; i < V->narr; i++)
    if (V->arr[i] == a)
      return i;
  if (V->narr == 32) {
    V->ok = false;
    return 0;
  }
  V->arr[V->narr] = a;
  V->stored[V->narr] = false;
  return V->narr++;
}

static bool vp_index_ok(VecPlan *V, IrVar *a, IrExpr **idx, int n) {
  /* Only the kernel's own array parameters: their data pointers (NAME_d)
   * are declared before the loop, where the vector loads are.  An array
   * reached through a struct field or a local is assigned inside the
   * body, after those loads (issue #22: `s.x[tid]` named an undeclared
   * v1_x_d). */
  if (!a->is_param || n != 1 || a->ty->ndim != 1 ||
      a->ty->elem->kind != TY_SCALAR ||
      a->ty->indexed) /* gathers through its index array */
    return false;
  int size = sc_bits(a->ty->elem->sc) / 8;
  if (size != 4 && size != 8)
    return false;
  if (V->size && V->size != size)
    return false;
  V->size = size;
  IrExpr *x = idx[0];
  return (x->kind == E_VAR && x->var->from_tid && x->var->ty->sc == KERN_SCALAR_INT32) ||
         (x->kind == E_TID && x->ival == 0);
}

static void vp_expr(VecPlan *V, IrExpr *e) {
  if (!e || !V->ok)
    return;
  if (e->kind == E_ATOMIC || e->kind == E_FCALL || e->kind == E_SHAPE ||
      e->kind == E_VIEW || e->kind == E_ADDR) { /* a view may alias a vectorised array */
    V->ok = false;
    return;
  }
  if (e->kind == E_LOAD) {
    if (!vp_index_ok(V, e->var, e->args, e->nargs)) {
      V->ok = false;
      return;
    }
    int k = vp_find(V, e->var);
    if (V->stored[k])
      V->ok = false; /* a load after the lane's store would see stale data */
    return;
  }
  vp_expr(V, e->a);
  vp_expr(V, e->b);
  vp_expr(V, e->c);
  for (int i = 0; i < e->nargs; i++)
    vp_expr(V, e->args[i]);
}

static void vp_stmts(VecPlan *V, IrStmt *s, int depth) {
  for (; s && V->ok; s = s->next) {
    switch (s->kind) {
    case S_ASSIGN: case S_SETCOMP: case S_AGG: case S_SETFIELD:
      vp_expr(V, s->a);
      vp_expr(V, s->b);
      vp_expr(V, s->c);
      break;
    case S_STORE: {
      vp_expr(V, s->c);
      if (depth > 0 || !vp_index_ok(V, s->var, s->args, s->nargs)) {
        V->ok = false;
        break;
      }
      int k = vp_find(V, s->var);
      if (V->stored[k])
        V->ok = false;
      V->stored[k] = true;
      break;
    }
    case S_IF:
      vp_expr(V, s->a);
      vp_stmts(V, s->body, depth + 1);
      vp_stmts(V, s->orelse, depth + 1);
      break;
    default:
      V->ok = false;
    }
  }
}

/* Fills V and says whether f's 1-D loop gets the vector form. */
bool emit_vec_plan(Emit *E, IrFunc *f, VecPlan *V) {
  memset(V, 0, sizeof *V);
  V->ok = f->tid_dims <= 1 && f->simple_loop && !f->has_kreturn_in_loop &&
          !(E->opts && E->opts->debug);
  if (V->ok)
    vp_stmts(V, f->body, 0);
  return V->ok && V->narr > 0;
}

/* The W copies of f's body on the lanes of a 16-byte group, k_base its
 * first index; the caller has loaded each array's group into k_v_<name>
 * and stores the stored ones back.  glsl: GLSL's int32 constructor, else C's
 * cast. */
void emit_vec_lanes(Emit *E, IrFunc *f, VecPlan *V, int W, bool glsl) {
  E->vec_arrays = V->arr;
  E->nvec_arrays = V->narr;
  for (int j = 0; j < W; j++) {
    emit_line(E, "{");
    E->indent++;
    emit_line(E, "const int64_t k_t = k_base + %d;", j);
    if (glsl) {
      emit_line(E, "const int32_t k_tid0 = int32_t(k_t);");
    } else {
      emit_line(E, "const int32_t k_tid0 = (int32_t)k_t;");
      emit_line(E, "(void)k_t; (void)k_tid0;");
    }
    emit_locals(E, f);
    E->fast_tid = true;
    E->vec_lane = j;
    emit_body(E, f);
    E->vec_lane = -1;
    E->fast_tid = false;
    E->indent--;
    emit_line(E, "}");
  }
  E->vec_arrays = NULL;
  E->nvec_arrays = 0;
}
