/*
 * indexed.c -- wp.indexedarray in the three C dialects.
 *
 * Inside generated code an indexed array is a struct of the data array's
 * pointer, the indexed shape (an index array's length, or the data
 * array's extent where a dimension has none), the data array's shape and
 * strides (in elements) and one int32 index pointer per dimension, NULL
 * for none.  Element (i, j) is data[idx0[i] * strides[0] + j *
 * strides[1]] when only dimension 0 is indexed, as in Warp's index()
 * (native/array.h): a negative index counts from the end of the indexed
 * shape (check_index_expr), and debug mode checks the index against the
 * indexed shape and the index array's entry against the data array's
 * extent, the two assertions Warp makes.  Indexing with fewer indices than
 * dimensions gives the indexed array of the remaining dimensions, as
 * Warp's view() does.
 *
 * A kernel parameter and a struct field arrive in Warp's host layout,
 * indexedarray_t (docs/ABI.md): array_t (the data array, strides in
 * bytes), four uint64 index addresses and int32 shape[4], 104 bytes; they
 * are converted to the struct above when read.  OpenCL cannot pass
 * addresses, so there the parameter arrives as five buffers (data and the
 * index arrays, NULL for none) and a kern__ishape of the three shapes,
 * which the runtime fills from the same 104 bytes (backend_opencl.c); a
 * struct field holding one cannot be read there, as for array fields.
 */
#include <string.h>
#include "emit.h"

const char *emit_indexed_type(Emit *E, const Type *t) {
  const char *et = emit_stype(E, t->elem);
  const char *name = arena_printf(E->C, "k_%s", emit_tysig(E, t));
  emit_elem_size(E, et, t->elem);
  if (emit_need(E, name))
    emit_pre(E, name,
             "typedef struct { %s%s *data; int64_t shape[4]; "
             "int64_t dshape[4]; int64_t strides[4]; %sconst int32_t "
             "*idx[4]; } %s;\n",
             E->T->global, et, E->T->global, name);
  return name;
}

/* The zero indexed array, for the declaration of a local. */
const char *emit_indexed_zero(Emit *E, const Type *t) {
  const char *T = emit_indexed_type(E, t);
  const char *name = arena_printf(E->C, "k_zero_%s", T + 2);
  bool vk = E->T->id == KERN_TARGET_VULKAN; /* null references */
  if (emit_need(E, name))
    emit_pre(E, name,
             "%s %s %s(void) {\n  %s r;\n  r.data = %s;\n"
             "  for (int k = 0; k < 4; k++) {\n"
             "    r.shape[k] = r.dshape[k] = r.strides[k] = 0; r.idx[k] = %s;\n"
             "  }\n  return r;\n}\n",
             E->T->fn_qual, T, name, T,
             vk ? arena_printf(E->C, "kref_%s(uint64_t(0))",
                               emit_stype(E, t->elem)) : "0",
             vk ? "kref_int32_t(uint64_t(0))" : "0");
  return name;
}

/* Warp's indexedarray_t, byte for byte (base/layout.c). */
const char *emit_indexed_warp_type(Emit *E, const Type *t) {
  const char *name = arena_printf(E->C, "k_w%s", emit_tysig(E, t));
  if (emit_need(E, name))
    emit_pre(E, name,
             "typedef struct { uint64_t data; uint64_t grad; "
             "int32_t dshape[4]; int32_t dstrides[4]; uint16_t ndim; "
             "uint16_t flags; uint32_t pad; uint64_t idx[4]; "
             "int32_t shape[4]; } %s;\n", name);
  return name;
}

const char *emit_indexed_warp_zero(Emit *E, const Type *t) {
  const char *T = emit_indexed_warp_type(E, t);
  const char *name = arena_printf(E->C, "k_zero_w%s", emit_tysig(E, t));
  if (emit_need(E, name))
    emit_pre(E, name,
             "%s %s %s(void) {\n  %s r;\n  r.data = 0; r.grad = 0; "
             "r.ndim = 0; r.flags = 0; r.pad = 0;\n"
             "  for (int k = 0; k < 4; k++) { r.dshape[k] = 0; "
             "r.dstrides[k] = 0; r.idx[k] = 0; r.shape[k] = 0; }\n"
             "  return r;\n}\n",
             E->T->fn_qual, T, name, T);
  return name;
}

/* Converts Warp's layout to the struct the accesses use. */
const char *emit_indexed_from_warp(Emit *E, const Type *t) {
  const char *W = emit_indexed_warp_type(E, t);
  const char *A = emit_indexed_type(E, t);
  const char *S = emit_stype(E, t->elem);
  const char *name = arena_printf(E->C, "k_from_w%s", emit_tysig(E, t));
  if (E->T->id == KERN_TARGET_VULKAN) { /* Note [vulkan indexed arrays] */
    if (emit_need(E, name))
      emit_pre(E, name,
               "%s %s(%s w) {\n  %s r;\n  r.data = kref_%s(w.data);\n"
               "  for (int k = 0; k < 4; k++) {\n"
               "    bool d = k < %d;\n"
               "    r.shape[k] = d ? int64_t(w.shape[k]) : 0;\n"
               "    r.dshape[k] = d ? int64_t(w.dshape[k]) : 0;\n"
               "    r.strides[k] = d ? int64_t(w.dstrides[k]) / %zu : 0;\n"
               "    r.idx[k] = kref_int32_t(d ? w.idx[k] : uint64_t(0));\n"
               "  }\n  return r;\n}\n",
               A, name, W, A, S, t->ndim, ty_size(t->elem));
    return name;
  }
  if (emit_need(E, name))
    emit_pre(E, name,
             "%s %s %s(%s w) {\n  %s r;\n  r.data = (%s%s *)w.data;\n"
             "  for (int k = 0; k < 4; k++) {\n"
             "    int in = k < %d;\n"
             "    r.shape[k] = in ? (int64_t)w.shape[k] : 0;\n"
             "    r.dshape[k] = in ? (int64_t)w.dshape[k] : 0;\n"
             "    r.strides[k] = in ? (int64_t)w.dstrides[k] / "
             "(int64_t)sizeof(%s) : 0;\n"
             "    r.idx[k] = in ? (%sconst int32_t *)w.idx[k] : 0;\n"
             "  }\n  return r;\n}\n",
             E->T->fn_qual, A, name, W, A, E->T->global, S, t->ndim, S,
             E->T->global);
  return name;
}

/* ix ? ix[i] : i, the index into the data array along one dimension. */
static const char *at_helper(Emit *E) {
  const char *name = "k_ia_at";
  if (E->T->id == KERN_TARGET_VULKAN) { /* Note [vulkan indexed arrays] */
    if (emit_need(E, name))
      emit_pre(E, name,
               "int64_t k_ia_at(kref_int32_t ix, int64_t i) {\n"
               "  return uint64_t(ix) != uint64_t(0) ? int64_t(ix.v[int(i)]) "
               ": i;\n}\n");
    return name;
  }
  if (emit_need(E, name))
    emit_pre(E, name,
             "%s int64_t k_ia_at(%sconst int32_t *ix, int64_t i) {\n"
             "  return ix ? (int64_t)ix[i] : i;\n}\n",
             E->T->fn_qual, E->T->global);
  return name;
}

/* The element offset of arr[idx...] (n == arr's dimensions). */
void emit_indexed_offset(Emit *E, Buf *b, IrVar *arr, IrExpr **idx, int n,
                         const Pos *pos) {
  bool dbg = pos && E->opts && E->opts->debug;
  const char *at = at_helper(E);
  buf_puts(b, "(");
  for (int k = 0; k < n; k++) {
    buf_puts(b, k ? " + " : "");
    if (dbg) /* the data array's extent: a bad entry of the index array */
      emit_check_open(E, b, arr, k, *pos);
    buf_printf(b, "%s(%s.idx[%d], ", at, arr->name, k);
    if (dbg) { /* the indexed shape */
      emit_check_open(E, b, arr, k, *pos);
      emit_expr(E, b, idx[k]);
      buf_printf(b, ", %s.shape[%d])", arr->name, k);
    } else {
      buf_puts(b, "(int64_t)");
      emit_expr(E, b, idx[k]);
    }
    buf_puts(b, ")");
    if (dbg)
      buf_printf(b, ", %s.dshape[%d])", arr->name, k);
    buf_printf(b, " * %s.strides[%d]", arr->name, k);
  }
  buf_puts(b, ")");
}

/* arr[i, ...] with fewer indices than dimensions: the indexed array of
 * the remaining ones (check_view.c refuses slices of indexed arrays, as
 * Warp has no view of one with slices). */
void emit_indexed_view(Emit *E, Buf *b, IrExpr *e) {
  const Type *st = e->var->ty, *rt = e->ty;
  int sd = st->ndim, n = e->nargs / 3;
  const char *ST = emit_indexed_type(E, st), *RT = emit_indexed_type(E, rt);
  const char *T = emit_stype(E, st->elem);
  const char *at = at_helper(E);
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  const char *name = arena_printf(E->C, "k_iview_%s%d_%d", emit_tysig(E, st),
                                  sd, n);
  if (emit_need(E, name)) {
    Buf h;
    buf_init(&h, E->C);
    if (vk) /* Note [vulkan views]: no d */
      buf_printf(&h, "%s %s %s(%s a", E->T->fn_qual, RT, name, ST);
    else
      buf_printf(&h, "%s %s %s(%s a, %s%s *d", E->T->fn_qual, RT, name, ST,
                 E->T->global, T);
    for (int k = 0; k < n; k++)
      buf_printf(&h, ", int64_t i%d", k);
    buf_printf(&h, ") {\n  %s r;\n  int64_t off = 0;\n", RT);
    for (int k = 0; k < n; k++)
      buf_printf(&h, "  off += %s(a.idx[%d], i%d) * a.strides[%d];\n", at, k,
                 k, k);
    for (int k = 0; k < 4; k++) {
      if (k + n < sd)
        buf_printf(&h, "  r.shape[%d] = a.shape[%d]; r.dshape[%d] = "
                       "a.dshape[%d]; r.strides[%d] = a.strides[%d]; "
                       "r.idx[%d] = a.idx[%d];\n",
                   k, k + n, k, k + n, k, k + n, k, k + n);
      else
        buf_printf(&h, "  r.shape[%d] = 0; r.dshape[%d] = 0; r.strides[%d] "
                       "= 0; r.idx[%d] = %s;\n", k, k, k, k,
                   vk ? "kref_int32_t(uint64_t(0))" : "0");
    }
    if (vk)
      buf_printf(&h, "  r.data = kref_%s(uint64_t(a.data) + uint64_t(off) * "
                     "uint64_t(%zu));\n  return r;\n}\n", T, ty_size(st->elem));
    else
      buf_puts(&h, "  r.data = d + off;\n  return r;\n}\n");
    emit_pre(E, name, "%s", h.p);
  }
  buf_printf(b, "%s(%s", name, e->var->name);
  if (!vk)
    buf_printf(b, ", %s", emit_array_data(E, e->var));
  for (int k = 0; k < n; k++) {
    buf_puts(b, ", (int64_t)");
    if (E->opts && E->opts->debug)
      emit_checked_index(E, b, e->var, k, e->args[3 * k], e->pos);
    else
      emit_expr(E, b, e->args[3 * k]);
  }
  buf_puts(b, ")");
}

/* OpenCL: the parameter as buffers and a kern__ishape (the runtime's
 * ocl_enqueue_launch sets them in this order). */
void emit_indexed_ocl_params(Emit *E, Buf *sig, IrVar *p) {
  if (emit_need(E, "kern__ishape"))
    emit_pre(E, "kern__ishape",
             "typedef struct { int64_t shape[4]; int64_t dshape[4]; "
             "int64_t strides[4]; } kern__ishape;\n");
  buf_printf(sig, "__global %s *%s_p, ", emit_stype(E, p->ty->elem), p->name);
  for (int k = 0; k < 4; k++)
    buf_printf(sig, "__global const int32_t *%s_i%d, ", p->name, k);
  buf_printf(sig, "kern__ishape %s_s, ", p->name);
}

void emit_indexed_ocl_prologue(Emit *E, IrVar *p) {
  emit_line(E, "%s %s;", emit_ctype(E, p->ty), p->name);
  emit_line(E, "%s.data = %s_p;", p->name, p->name);
  emit_line(E, "for (int k = 0; k < 4; k++) { %s.shape[k] = %s_s.shape[k]; "
               "%s.dshape[k] = %s_s.dshape[k]; %s.strides[k] = "
               "%s_s.strides[k]; }",
            p->name, p->name, p->name, p->name, p->name, p->name);
  for (int k = 0; k < 4; k++)
    emit_line(E, "%s.idx[%d] = %s_i%d;", p->name, k, p->name, k);
  emit_line(E, "__global %s%s *%s_d = %s.data;", p->written ? "" : "const ",
            emit_stype(E, p->ty->elem), p->name, p->name);
  emit_line(E, "(void)%s_d;", p->name);
}

/* Note [vulkan indexed arrays]: GLSL has no pointers, so the indexed
 * array's struct holds buffer references (data, and one kref_int32_t per
 * dimension, a null reference for none: at_helper tests its address).  A
 * kernel parameter arrives in the launch's kargs block as Warp's
 * indexedarray_t, 104 bytes, its addresses the device addresses that the
 * runtime's vk_pack writes in place of kern's buffer handles; the members
 * below spell that layout in std430 (the 16-bit ndim and flags as one
 * uint32, unused), and the prologue converts it as emit_indexed_from_warp
 * does.  A struct's field holds the same 104 bytes (its addresses made
 * device addresses by vk_pack too), and emit_indexed_from_warp's GLSL
 * spelling makes the references from them.  A view of an indexed array
 * moves the data reference by the offset in bytes, as Note [vulkan views]
 * in view.c. */
void emit_indexed_vk_member(Emit *E, Buf *args, IrVar *p) {
  (void)E;
  const char *n = p->name;
  buf_printf(args, "uint64_t %s_wd; uint64_t %s_wg; int32_t %s_wds[4]; "
                   "int32_t %s_wst[4]; uint32_t %s_wnd; uint32_t %s_wpad; "
                   "uint64_t %s_wi[4]; int32_t %s_wsh[4]; ",
             n, n, n, n, n, n, n, n);
}

void emit_indexed_vk_prologue(Emit *E, IrVar *p) {
  const char *n = p->name, *T = emit_stype(E, p->ty->elem);
  emit_line(E, "%s %s;", emit_ctype(E, p->ty), n);
  emit_line(E, "%s.data = kref_%s(k_A.%s_wd);", n, T, n);
  for (int k = 0; k < 4; k++) {
    if (k < p->ty->ndim)
      emit_line(E, "%s.shape[%d] = int64_t(k_A.%s_wsh[%d]); %s.dshape[%d] = "
                   "int64_t(k_A.%s_wds[%d]); %s.strides[%d] = "
                   "int64_t(k_A.%s_wst[%d]) / int64_t(%zu); %s.idx[%d] = "
                   "kref_int32_t(k_A.%s_wi[%d]);",
                n, k, n, k, n, k, n, k, n, k, n, k, ty_size(p->ty->elem), n, k,
                n, k);
    else
      emit_line(E, "%s.shape[%d] = 0; %s.dshape[%d] = 0; %s.strides[%d] = 0; "
                   "%s.idx[%d] = kref_int32_t(uint64_t(0));",
                n, k, n, k, n, k, n, k);
  }
  emit_line(E, "#define %s_d %s.data.v", n, n);
}
