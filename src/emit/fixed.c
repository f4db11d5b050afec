/*
 * fixed.c -- fixed-size local arrays (lower/check_fixed.c), the same in the
 * three C dialects.
 *
 * The storage of a fixed array is a C array local to the function (a
 * private array in OpenCL C, a local array of the thread in CUDA); the
 * program's variable is a view onto it (view.c).  Two helpers per element
 * type and shape make the view: k_fz_* zeroes the storage and returns a
 * row-major view of it (each wp.zeros() evaluation), k_fc_* copies a view
 * into a caller's storage and returns the view of that (a @wp.func's
 * `return arr`).  Only OpenCL tells the private memory apart: its views of
 * private data have their own struct type (Type.priv, "p" in the type's
 * signature) whose pointer has no address-space qualifier, and so are
 * private; C and CUDA use the ordinary view types.
 */
#include <string.h>
#include "emit.h"

/* The address-space qualifier of a pointer to arr's data. */
const char *emit_array_space(Emit *E, const Type *arr) {
  return arr->priv ? "" : E->T->global;
}

/* A fixed array's storage is declared as a C array; false for any other
 * local. */
bool emit_fixed_local(Emit *E, IrVar *v) {
  if (v->ty->kind != TY_ARRAY || !v->ty->fixed_n)
    return false;
  if (E->T->id == KERN_TARGET_VULKAN)
    return emit_vk_fixed_local(E, v); /* Note [vulkan scratch frame] */
  emit_line(E, "%s %s[%d];", emit_stype(E, v->ty->elem), v->name,
            v->ty->fixed_n);
  return true;
}

/* The strides and shape of a row-major view of the dimensions of t. */
static void row_major(Buf *b, const Type *t) {
  int64_t st = 1;
  for (int k = t->ndim - 1; k >= 0; k--) {
    buf_printf(b, "  r.shape[%d] = %d;\n  r.strides[%d] = %lld;\n", k,
               t->fdims[k], k, (long long)st);
    st *= t->fdims[k];
  }
  for (int k = t->ndim; k < 4; k++)
    buf_printf(b, "  r.shape[%d] = 0;\n  r.strides[%d] = 0;\n", k, k);
}

static int count(const Type *t) {
  int n = 1;
  for (int k = 0; k < t->ndim; k++)
    n *= t->fdims[k];
  return n;
}

static const char *dims_sig(Emit *E, const Type *t) {
  Buf b;
  buf_init(&b, E->C);
  for (int k = 0; k < t->ndim; k++)
    buf_printf(&b, "%s%d", k ? "x" : "", t->fdims[k]);
  return b.p;
}

/* k_fz_<type>_<dims>(d): d[0..n) zeroed, and the view of it. */
static const char *zeros_helper(Emit *E, const Type *t) {
  const char *VT = emit_ctype(E, t), *T = emit_stype(E, t->elem);
  const char *name = arena_printf(E->C, "k_fz_%s_%s", emit_tysig(E, t),
                                  dims_sig(E, t));
  if (!emit_need(E, name))
    return name;
  /* Note [vulkan scratch frame]: there the storage is a buffer reference */
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  const char *zero = !emit_lowp(t->elem) ? emit_zero(E, t->elem)
                     : vk ? arena_printf(E->C, "%s(0)", T) : "0";
  if (emit_vk_boolmem(E, t->elem)) /* Note [vulkan bool memory] */
    zero = arena_printf(E->C, "%s(%s)", emit_vk_conv(E, t->elem, false), zero);
  Buf b;
  buf_init(&b, E->C);
  buf_printf(&b, "%s %s %s(%s%s %sd) {\n  %s r;\n"
                 "  for (int k = 0; k < %d; k++) d%s[k] = %s;\n",
             E->T->fn_qual, VT, name, vk ? "kref_" : "", T, vk ? "" : "*", VT,
             count(t), vk ? ".v" : "", zero);
  row_major(&b, t);
  buf_puts(&b, "  r.data = d;\n  return r;\n}\n");
  emit_pre(E, name, "%s", b.p);
  return name;
}

/* k_fc_<type>_<dims>(d, a): a's elements copied into d in row-major order,
 * and the view of d. */
static const char *copy_helper(Emit *E, const Type *t) {
  const char *VT = emit_ctype(E, t), *T = emit_stype(E, t->elem);
  const char *name = arena_printf(E->C, "k_fc_%s_%s", emit_tysig(E, t),
                                  dims_sig(E, t));
  if (!emit_need(E, name))
    return name;
  Buf b;
  buf_init(&b, E->C);
  bool vk = E->T->id == KERN_TARGET_VULKAN; /* Note [vulkan scratch frame] */
  buf_printf(&b, "%s %s %s(%s%s %sd, %s a) {\n  %s r;\n  int64_t o = 0;\n",
             E->T->fn_qual, VT, name, vk ? "kref_" : "", T, vk ? "" : "*", VT, VT);
  for (int k = 0; k < t->ndim; k++)
    buf_printf(&b, "%*sfor (int64_t i%d = 0; i%d < a.shape[%d]; i%d++)\n",
               2 + 2 * k, "", k, k, k, k);
  buf_printf(&b, "%*sd%s[o++] = a.data[", 2 + 2 * t->ndim, "", vk ? ".v" : "");
  for (int k = 0; k < t->ndim; k++)
    buf_printf(&b, "%si%d * a.strides[%d]", k ? " + " : "", k, k);
  buf_puts(&b, "];\n");
  row_major(&b, t);
  buf_puts(&b, "  r.data = d;\n  return r;\n}\n");
  emit_pre(E, name, "%s", b.p);
  return name;
}

/* BI_FIXED_ZEROS(storage) and BI_FIXED_COPY(storage, view). */
void emit_fixed_call(Emit *E, Buf *b, IrExpr *e) {
  const char *h = e->bi == BI_FIXED_ZEROS ? zeros_helper(E, e->ty)
                                          : copy_helper(E, e->ty);
  buf_printf(b, "%s(", h);
  for (int i = 0; i < e->nargs; i++) {
    if (i)
      buf_puts(b, ", ");
    emit_expr(E, b, e->args[i]);
  }
  buf_puts(b, ")");
}
