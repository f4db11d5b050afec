/*
 * view.c -- array views (Note [views] in ir/ir.h), the same in the three
 * C dialects.
 *
 * A view is a struct of a data pointer, a shape and strides in elements:
 * kern's kernel arguments are contiguous and carry no strides, so the
 * strides of a view of one are computed from its shape, and those of a
 * view of a view are read from it.  E_VIEW calls a helper made per source
 * type, source dimensions and the pattern of indices and slices; the
 * helper follows Warp's view() and slice_adjust_indices() (native/array.h,
 * native/builtin.h) step by step, including how an out-of-range start or
 * stop is clamped (not always as Python does: a[:-10:-1] of 8 elements
 * has 7 in Warp, 8 in Python), so every backend selects what Warp
 * selects, with one exception: a negative step with a start past the end
 * (a[10:0:-1] of 8 elements) starts at the last element, as in Python,
 * where Warp starts one past the end and reads outside the array.  The
 * data pointer passed in is the caller's own name for it (a kernel's
 * restrict pointer), so a view's pointer is based on it.  In debug mode
 * an integer index is checked against its axis like any array index
 * (Note [debug mode] in ir/ir.h), so a view never starts outside its
 * array.
 *
 * Note [vulkan views]: GLSL has no pointer arithmetic, and the vulkan
 * target's data pointer is a buffer reference (Note [GLSL through
 * common.c] in vulkan.c), so a view's start is the source's device
 * address moved by the offset in bytes (the element's C size, which is
 * its std430 array stride: the buffers hold the C layout), and the
 * helper takes no d parameter there.
 */
#include <string.h>
#include "emit.h"

const char *emit_view_type(Emit *E, const Type *t) {
  const char *et = emit_stype(E, t->elem); /* 16-bit floats: their bits */
  const char *name = arena_printf(E->C, "k_s%s", emit_tysig(E, t) + 1);
  emit_elem_size(E, et, t->elem);
  if (emit_need(E, name))
    emit_pre(E, name,
               "typedef struct { %s%s *data; int64_t shape[4]; "
               "int64_t strides[4]; } %s;\n",
               emit_array_space(E, t), et, name);
  return name;
}

/* The zero view, for the declaration of a local. */
const char *emit_view_zero(Emit *E, const Type *t) {
  const char *T = emit_view_type(E, t);
  const char *name = arena_printf(E->C, "k_zero_%s", T + 2);
  if (emit_need(E, name))
    emit_pre(E, name,
               "%s %s %s(void) {\n  %s r;\n  r.data = 0;\n"
               "  for (int k = 0; k < 4; k++) r.shape[k] = r.strides[k] = 0;\n"
               "  return r;\n}\n",
               E->T->fn_qual, T, name, T);
  return name;
}

static const char *view_helper(Emit *E, IrExpr *e) {
  const Type *st = e->var->ty, *rt = e->ty;
  int sd = st->ndim, n = e->nargs / 3;
  const char *ST = emit_ctype(E, st), *RT = emit_ctype(E, rt);
  const char *T = emit_stype(E, st->elem);
  const char *name = arena_printf(E->C, "k_view_%s%d_%d_%d",
                                  emit_tysig(E, st), sd, n, (int)e->ival);
  if (!emit_need(E, name))
    return name;
  Buf b;
  buf_init(&b, E->C);
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  if (vk) /* Note [vulkan views]: no d */
    buf_printf(&b, "%s %s %s(%s a", E->T->fn_qual, RT, name, ST);
  else
    buf_printf(&b, "%s %s %s(%s a, %s%s *d", E->T->fn_qual, RT, name, ST,
               emit_array_space(E, st), T);
  for (int k = 0; k < n; k++)
    buf_printf(&b, ", int32_t b%d, int32_t e%d, int32_t s%d", k, k, k);
  buf_printf(&b, ") {\n  %s r;\n  int64_t st[4];\n  int64_t off = 0;\n", RT);
  if (st->strided)
    buf_printf(&b, "  for (int k = 0; k < 4; k++) st[k] = a.strides[k];\n");
  else {
    buf_printf(&b, "  st[%d] = 1;\n", sd - 1);
    for (int k = sd - 2; k >= 0; k--)
      buf_printf(&b, "  st[%d] = st[%d] * a.shape[%d];\n", k, k + 1, k + 1);
  }
  int o = 0;
  for (int k = 0; k < n; k++) {
    if (!((e->ival >> k) & 1)) {
      /* an index (already counted from the end when negative) */
      buf_printf(&b, "  { int32_t i = b%d; if (i < 0) i += (int32_t)a.shape[%d];"
                     " off += (int64_t)i * st[%d]; }\n", k, k, k);
      continue;
    }
    buf_printf(&b,
               "  {\n    int32_t n = (int32_t)a.shape[%d], b = b%d, e = e%d, "
               "s = s%d;\n"
               "    if (b == 2147483647) b = s < 0 ? n - 1 : 0;\n"
               "    else { b = b < -n ? -n : b > n ? n : b; if (b < 0) b += n; }\n"
               "    if (s < 0 && b > n - 1) b = n - 1;\n"
               "    if (e == (-2147483647 - 1)) e = s < 0 ? -1 : n;\n"
               "    else { e = e < -n ? -n : e > n ? n : e; if (e < 0) e += n; }\n"
               "    int32_t len = s > 0 && b < e ? 1 + (e - b - 1) / s\n"
               "                : s < 0 && b > e ? 1 + (b - e - 1) / -s : 0;\n"
               "    off += (int64_t)b * st[%d];\n"
               "    r.shape[%d] = len;\n    r.strides[%d] = st[%d] * s;\n  }\n",
               k, k, k, k, k, o, o, k);
    o++;
  }
  for (int k = n; k < sd; k++, o++)
    buf_printf(&b, "  r.shape[%d] = a.shape[%d];\n  r.strides[%d] = st[%d];\n",
               o, k, o, k);
  for (; o < 4; o++)
    buf_printf(&b, "  r.shape[%d] = 0;\n  r.strides[%d] = 0;\n", o, o);
  if (vk)
    buf_printf(&b, "  r.data = kref_%s(uint64_t(a.data) == 0ul ? 0ul : "
                   "uint64_t(a.data) + uint64_t(off) * uint64_t(%zu));\n"
                   "  return r;\n}\n", T, ty_size(st->elem));
  else /* a view of a null array (an adjoint's) stays null */
    buf_puts(&b, "  r.data = d ? d + off : 0;\n  return r;\n}\n");
  emit_pre(E, name, "%s", b.p);
  return name;
}

void emit_view(Emit *E, Buf *b, IrExpr *e) {
  if (e->var->ty->indexed) {
    emit_indexed_view(E, b, e); /* indexed.c */
    return;
  }
  const char *h = view_helper(E, e);
  buf_printf(b, "%s(%s", h, e->var->name);
  if (E->T->id != KERN_TARGET_VULKAN) /* Note [vulkan views] */
    buf_printf(b, ", %s", emit_array_data(E, e->var));
  for (int i = 0; i < e->nargs; i++) {
    buf_puts(b, ", ");
    if (i % 3 == 0 && !((e->ival >> (i / 3)) & 1) && E->opts &&
        E->opts->debug)
      emit_checked_index(E, b, e->var, i / 3, e->args[i], e->pos);
    else
      emit_expr(E, b, e->args[i]);
  }
  buf_puts(b, ")");
}
