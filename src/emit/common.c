/*
 * common.c -- the part of code generation the three C dialects share.
 *
 * Every builtin becomes a call to a small helper function named after the
 * builtin and its operand types (k_dot_v3f32_v3f32).  Helpers are generated
 * into the prelude the first time they are used, after the helpers and
 * types they need, so the output holds only what the module uses and reads
 * top to bottom.  Vector and matrix helpers loop over components and call
 * the scalar helper, so each scalar rule (Warp's sign(0) == 1, fmin-style
 * min on floats, division by zero) is written once.  The target compilers
 * inline all of it.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "emit.h"

/* ---------------------------------------------------------------- names */

/* Appends one type or helper, named name, to the prelude.  The compact CUDA
 * form (Note [compact CUDA] in cuda.c) puts each between #ifndef guards
 * named after it, so that many modules pasted into one NVRTC program define
 * each shared helper once: a helper's name spells its builtin and operand
 * types, so two modules' helpers of one name have the same text. */
void emit_pre(Emit *E, const char *name, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t off = E->pre.len;
  if (E->T->guard_helpers)
    buf_printf(&E->pre, "#ifndef K_H_%s\n#define K_H_%s\n", name, name);
  buf_vprintf(&E->pre, fmt, ap);
  if (E->T->guard_helpers)
    buf_puts(&E->pre, "#endif\n");
  va_end(ap);
  if (E->memo)
    emit_memo_pre(E, name, off);
}

bool emit_need(Emit *E, const char *name) {
  /* A hash set: a module asks this for every type and helper it spells. */
  const char *have = names_get(&E->haveset, name);
  if (have) {
    if (E->memo)
      emit_memo_dep(E, have); /* the table's copy: kept */
    return false;
  }
  /* the name outlives a kernel's scratch (Note [kernel scratch]) */
  if (E->C->scratching)
    name = arena_strdup_keep(E->C, name);
  if (E->memo) {
    emit_memo_dep(E, name);
    if (emit_memo_replay(E, name))
      return false; /* the text is in, as generating it would have put it */
  }
  names_put(E->C, &E->haveset, name, (void *)name);
  if (E->nhave == E->caphave) {
    int cap = E->caphave ? E->caphave * 2 : 64;
    const char **h = arena_alloc_keep(E->C, sizeof(char *) * (size_t)cap);
    if (E->nhave)
      memcpy(h, E->have, sizeof(char *) * (size_t)E->nhave);
    E->have = h;
    E->caphave = cap;
  }
  E->have[E->nhave++] = name;
  if (E->memo)
    emit_memo_open(E, name);
  return true;
}

static const char *const sc_c[] = {"kbool", "int8_t", "int16_t", "int32_t",
                                   "int64_t", "uint8_t", "uint16_t",
                                   "uint32_t", "uint64_t", "float", "double",
                                   "float", "float"}; /* Note [16-bit floats] */
static const char *const sc_sig[] = {"b", "i8", "i16", "i32", "i64", "u8",
                                     "u16", "u32", "u64", "f32", "f64",
                                     "f16", "bf16"};

/* Names are spelled millions of times under `kern synth` (every use of a
 * type or helper asks for its name): they are joined here at their exact
 * size rather than through a format and a growing buffer. */
static const char *join(Emit *E, const char *const *parts, int n) {
  size_t len[8], total = 1;
  for (int i = 0; i < n; i++)
    total += len[i] = strlen(parts[i]);
  char *p = arena_alloc_raw(E->C, total), *d = p;
  for (int i = 0; i < n; i++) {
    memcpy(d, parts[i], len[i]);
    d += len[i];
  }
  *d = 0;
  return p;
}

const char *emit_tysig(Emit *E, const Type *t) {
  switch (t->kind) {
  case TY_SCALAR: return sc_sig[t->sc];
  case TY_VEC:
    if (t->rows >= 1 && t->rows <= 9) {
      char head[3] = {t->quat ? 'q' : t->xform ? 't' : 'v', (char)('0' + t->rows), 0};
      return join(E, (const char *const[]){head, sc_sig[t->sc]}, 2);
    }
    return arena_printf(E->C, "%c%d%s", t->quat ? 'q' : t->xform ? 't' : 'v',
                        t->rows, sc_sig[t->sc]);
  case TY_MAT:
    if (t->rows >= 1 && t->rows <= 9 && t->cols >= 1 && t->cols <= 9) {
      char head[4] = {'m', (char)('0' + t->rows), (char)('0' + t->cols), 0};
      return join(E, (const char *const[]){head, sc_sig[t->sc]}, 2);
    }
    /* rows and cols past 9 need a separator: (1, 11) and (11, 1) */
    return arena_printf(E->C, "m%dx%d%s", t->rows, t->cols, sc_sig[t->sc]);
  case TY_ARRAY: /* "sa...": a view (view.c); "ia2...": indexed.c; "p": of
                    private data (fixed.c), where the target tells memories
                    apart */
    if (t->indexed)
      return arena_printf(E->C, "ia%d%s", t->ndim, emit_tysig(E, t->elem));
    return arena_printf(E->C, "%s%sa%s", t->strided ? "s" : "",
                        t->priv && E->T->global[0] ? "p" : "",
                        emit_tysig(E, t->elem));
  case TY_STRUCT:
    emit_memo_taint(E); /* its fields are the module's (Note [helper memo]) */
    /* "S" and the name's length keep it apart from every other
     * signature and from other structs' (Python names have no '_'
     * ambiguity this way: S3abc, S4abcd). */
    if (E->T->guard_helpers) {
      /* Note [compact CUDA] shares a prelude item between modules by its
       * name, so two modules' structs of one name but other fields must
       * not share one: the compact form's name carries a hash of the
       * fields' names and types. */
      uint32_t h = 2166136261u;
      for (int i = 0; i < t->n; i++) {
        const char *parts[2] = {t->fnames[i], emit_tysig(E, t->items[i])};
        for (int k = 0; k < 2; k++) {
          for (const char *c = parts[k]; *c; c++)
            h = (h ^ (unsigned char)*c) * 16777619u;
          h = (h ^ ';') * 16777619u;
        }
      }
      return arena_printf(E->C, "S%d%sx%08x", (int)strlen(t->name), t->name,
                          (unsigned)h);
    }
    return arena_printf(E->C, "S%d%s", (int)strlen(t->name), t->name);
  default: return "void";
  }
}

/* An array field of a struct is Warp's array descriptor, array_t
 * (base/layout.c): the addresses are integers, since OpenCL C allows no
 * pointer in a kernel argument and the layout must be the same on every
 * target.  Reading the field converts it to kern's own array value (data
 * pointer and int64 shape, unused axes 1), which the accesses use.  OpenCL
 * 1.2 has no device addresses for buffers, so the runtime refuses to load
 * a kernel whose parameters hold array fields there (runtime/module.c);
 * the code is the same on every target, as the compiler's answer must be
 * (Note [target-independent status] in fuzz/fuzz_compiler.c). */
static const char *warp_array_ctype(Emit *E, const Type *arr) {
  const char *name = arena_printf(E->C, "k_w%s", emit_tysig(E, arr));
  if (emit_need(E, name))
    emit_pre(E, name, "typedef struct { uint64_t data; uint64_t grad; "
               "int32_t shape[4]; int32_t strides[4]; uint16_t ndim; "
               "uint16_t flags; } %s;\n", name);
  return name;
}

static const char *warp_array_zero(Emit *E, const Type *arr) {
  const char *T = warp_array_ctype(E, arr);
  const char *name = arena_printf(E->C, "k_zero_w%s", emit_tysig(E, arr));
  if (emit_need(E, name))
    emit_pre(E, name, "%s %s %s(void) {\n  %s r;\n  r.data = 0; r.grad = 0; "
               "r.ndim = %s; r.flags = %s;\n  for (int k = 0; k < 4; k++) "
               "{ r.shape[k] = 0; r.strides[k] = 0; }\n  return r;\n}\n",
               E->T->fn_qual, T, name, T, emit_zero(E, ty_scalar(KERN_SCALAR_UINT16)),
               emit_zero(E, ty_scalar(KERN_SCALAR_UINT16)));
  return name;
}

static const char *warp_array_read(Emit *E, const Type *arr) {
  const char *W = warp_array_ctype(E, arr);
  const char *A = emit_arrtype(E, arr);
  const char *name = arena_printf(E->C, "k_from_w%s", emit_tysig(E, arr));
  /* GLSL: the address is the buffer reference's constructor's argument
   * (Note [GLSL through common.c]) */
  if (E->T->id == KERN_TARGET_VULKAN && emit_need(E, name))
    emit_pre(E, name, "%s %s %s(%s w) {\n  %s r;\n"
               "  r.data = kref_%s%s(w.data);\n"
               "  for (int k = 0; k < 4; k++) r.shape[k] = k < %d ? "
               "(int64_t)w.shape[k] : 1;\n  return r;\n}\n",
               E->T->fn_qual, A, name, W, A, E->T->global,
               emit_stype(E, arr->elem), arr->ndim);
  else if (E->T->id != KERN_TARGET_VULKAN && emit_need(E, name))
    emit_pre(E, name, "%s %s %s(%s w) {\n  %s r;\n"
               "  r.data = (%s%s *)w.data;\n"
               "  for (int k = 0; k < 4; k++) r.shape[k] = k < %d ? "
               "(int64_t)w.shape[k] : 1;\n  return r;\n}\n",
               E->T->fn_qual, A, name, W, A, E->T->global,
               emit_ctype(E, arr->elem), arr->ndim);
  return name;
}

/* Note [array fields in kernels]: a kernel or function that sets a
 * struct's array field (s.xs = a, S(a, ...)) stores Warp's array_t made
 * from kern's array value: its data pointer, no gradient, the shape, and
 * the contiguous byte strides Warp gives such an array, so the bytes are
 * Warp's whoever reads them. */
static const char *warp_array_write(Emit *E, const Type *arr) {
  const char *W = warp_array_ctype(E, arr);
  const char *A = emit_arrtype(E, arr);
  const char *name = arena_printf(E->C, "k_to_w%s", emit_tysig(E, arr));
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  if (emit_need(E, name))
    emit_pre(E, name, "%s %s %s(%s a) {\n  %s w;\n"
               "  w.data = %s; w.grad = 0;\n"
               "  w.ndim = %s; w.flags = %s;\n"
               "  int32_t st = %s;\n"
               "  for (int k = 3; k >= 0; k--) {\n"
               "    w.shape[k] = k < %d ? (int32_t)a.shape[k] : 0;\n"
               "    w.strides[k] = k < %d ? st : 0;\n"
               "    if (k < %d) st *= w.shape[k];\n  }\n  return w;\n}\n",
               E->T->fn_qual, W, name, A, W,
               vk ? "uint64_t(a.data)" : "(uint64_t)(size_t)a.data",
               vk ? arena_printf(E->C, "uint16_t(%d)", arr->ndim)
                  : arena_printf(E->C, "%d", arr->ndim),
               vk ? "uint16_t(0)" : "0",
               /* GLSL has no sizeof: the element's size in memory, C's */
               vk ? arena_printf(E->C, "int32_t(%zu)", ty_size(arr->elem))
                  : arena_printf(E->C, "(int32_t)sizeof(%s)", emit_stype(E, arr->elem)),
               arr->ndim, arr->ndim, arr->ndim);
  return name;
}

/* A @wp.struct is a C struct with one member f_NAME per field, in order
 * (the prefix keeps field names that are C keywords valid).  Its members
 * are scalars and arrays of scalars, so every target lays it out as Warp
 * does (base/layout.c). */
static const char *struct_ctype(Emit *E, const Type *t) {
  const char *name = arena_printf(E->C, "k_%s", emit_tysig(E, t));
  if (emit_need(E, name)) {
    const char **ft = arena_alloc(E->C, sizeof(char *) * (size_t)t->n);
    for (int i = 0; i < t->n; i++) /* members' types come first */
      ft[i] = t->items[i]->kind != TY_ARRAY ? emit_ctype(E, t->items[i])
              : t->items[i]->indexed ? emit_indexed_warp_type(E, t->items[i])
                                     : warp_array_ctype(E, t->items[i]);
    Buf b;
    buf_init(&b, E->C);
    buf_puts(&b, "typedef struct {");
    for (int i = 0; i < t->n; i++)
      buf_printf(&b, " %s f_%s;", ft[i], t->fnames[i]);
    /* Note [empty structs]: a @wp.struct with no fields is one byte, as
     * in Warp; C, CUDA and OpenCL C need a member for that, and no
     * field's name (f_NAME) can be this one's. */
    if (t->n == 0)
      buf_puts(&b, E->T->id == KERN_TARGET_VULKAN ? " uint8_t empty;"
                                                  : " unsigned char empty;");
    buf_printf(&b, " } %s;\n", name);
    emit_pre(E, name, "%s", b.p);
  }
  return name;
}

/* The zero value of a struct: every field zero, recursively. */
static const char *struct_zero(Emit *E, const Type *t) {
  const char *T = struct_ctype(E, t);
  const char *name = arena_printf(E->C, "k_zero_%s", emit_tysig(E, t));
  if (!emit_need(E, name))
    return name;
  const char **z = arena_alloc(E->C, sizeof(char *) * (size_t)t->n);
  for (int i = 0; i < t->n; i++)
    z[i] = t->items[i]->kind != TY_ARRAY ? emit_zero(E, t->items[i])
           : arena_printf(E->C, "%s()",
                          t->items[i]->indexed
                              ? emit_indexed_warp_zero(E, t->items[i])
                              : warp_array_zero(E, t->items[i]));
  Buf b;
  buf_init(&b, E->C);
  buf_printf(&b, "%s %s %s(void) {\n  %s r;\n", E->T->fn_qual, T, name, T);
  for (int i = 0; i < t->n; i++)
    buf_printf(&b, "  r.f_%s = %s;\n", t->fnames[i], z[i]);
  if (t->n == 0)
    buf_puts(&b, E->T->id == KERN_TARGET_VULKAN ? "  r.empty = uint8_t(0);\n"
                                                : "  r.empty = 0;\n");
  buf_puts(&b, "  return r;\n}\n");
  emit_pre(E, name, "%s", b.p);
  return name;
}

/* Note [vulkan bool memory]: kern's bool is one byte in memory (C's, and
 * Warp's), GLSL's a 32-bit value that only compares. So on the vulkan
 * target a type holding a bool (a bool scalar, vector or matrix, or a
 * struct with such a field, at any depth) has a memory form in which each
 * bool is a uint8_t: arrays' buffer references, the kernel's argument
 * block and fixed arrays hold that form (emit_stype), whose std430 layout
 * is then the C layout, and values convert at the boundary: a load through
 * k_ld_SIG (a byte is true when not zero, as C reads it), a store through
 * k_st_SIG (1 or 0). A field stored through an array element
 * (S_SETFIELD) writes the memory form's field in place. */
bool emit_vk_boolmem(Emit *E, const Type *t) {
  if (E->T->id != KERN_TARGET_VULKAN || !t)
    return false;
  if (t->kind == TY_SCALAR || t->kind == TY_VEC || t->kind == TY_MAT)
    return t->sc == KERN_SCALAR_BOOL;
  if (t->kind == TY_STRUCT)
    for (int i = 0; i < t->n; i++)
      if (emit_vk_boolmem(E, t->items[i]))
        return true;
  return false;
}

static int ncomp(const Type *t);

static const char *struct_field_ctype(Emit *E, const Type *ft) {
  return ft->kind != TY_ARRAY ? emit_ctype(E, ft)
         : ft->indexed ? emit_indexed_warp_type(E, ft)
                       : warp_array_ctype(E, ft);
}

const char *emit_vk_memtype(Emit *E, const Type *t) {
  if (t->kind == TY_SCALAR)
    return "uint8_t";
  const char *name = arena_printf(E->C, "k_mem%s", emit_tysig(E, t));
  if (!emit_need(E, name))
    return name;
  Buf b;
  buf_init(&b, E->C);
  if (t->kind == TY_VEC)
    buf_printf(&b, "typedef struct { uint8_t c[%d]; } %s;\n", t->rows, name);
  else if (t->kind == TY_MAT)
    buf_printf(&b, "typedef struct { uint8_t m[%d][%d]; } %s;\n", t->rows,
               t->cols, name);
  else {
    const char **ft = arena_alloc(E->C, sizeof(char *) * (size_t)t->n);
    for (int i = 0; i < t->n; i++) /* members' types come first */
      ft[i] = emit_vk_boolmem(E, t->items[i]) ? emit_vk_memtype(E, t->items[i])
                                              : struct_field_ctype(E, t->items[i]);
    buf_puts(&b, "typedef struct {");
    for (int i = 0; i < t->n; i++)
      buf_printf(&b, " %s f_%s;", ft[i], t->fnames[i]);
    buf_printf(&b, " } %s;\n", name);
  }
  emit_pre(E, name, "%s", b.p);
  return name;
}

/* k_ld_SIG (load: memory form to value) or k_st_SIG (store) of a type
 * emit_vk_boolmem holds. */
const char *emit_vk_conv(Emit *E, const Type *t, bool load) {
  const char *sig = emit_tysig(E, t);
  const char *name = arena_printf(E->C, "k_%s_%s", load ? "ld" : "st", sig);
  if (!emit_need(E, name))
    return name;
  const char *V = emit_ctype(E, t), *M = emit_vk_memtype(E, t);
  const char *from = load ? M : V, *to = load ? V : M;
  Buf b;
  buf_init(&b, E->C);
  if (t->kind == TY_SCALAR) {
    buf_printf(&b, "%s %s(%s x) { return %s; }\n", to, name, from,
               load ? "x != uint8_t(0)" : "x ? uint8_t(1) : uint8_t(0)");
    emit_pre(E, name, "%s", b.p);
    return name;
  }
  const char **sub = NULL;
  if (t->kind == TY_STRUCT) {
    sub = arena_alloc(E->C, sizeof(char *) * (size_t)t->n);
    for (int i = 0; i < t->n; i++) /* the fields' conversions come first */
      sub[i] = emit_vk_boolmem(E, t->items[i]) ? emit_vk_conv(E, t->items[i], load)
                                               : NULL;
  }
  const char *one = load ? "x%s != uint8_t(0)" : "x%s ? uint8_t(1) : uint8_t(0)";
  buf_printf(&b, "%s %s(%s x) {\n  %s r;\n", to, name, from, to);
  if (t->kind == TY_VEC || t->kind == TY_MAT) {
    const char *at = t->kind == TY_VEC ? ".c[k]" : ".m[k / %d][k %% %d]";
    const char *ix = t->kind == TY_VEC ? at : arena_printf(E->C, at, t->cols, t->cols);
    buf_printf(&b, "  for (int k = 0; k < %d; k++) r%s = ", ncomp(t), ix);
    buf_printf(&b, one, ix);
    buf_puts(&b, ";\n");
  } else {
    for (int i = 0; i < t->n; i++)
      if (sub[i])
        buf_printf(&b, "  r.f_%s = %s(x.f_%s);\n", t->fnames[i], sub[i], t->fnames[i]);
      else
        buf_printf(&b, "  r.f_%s = x.f_%s;\n", t->fnames[i], t->fnames[i]);
  }
  buf_puts(&b, "  return r;\n}\n");
  emit_pre(E, name, "%s", b.p);
  return name;
}

const char *emit_ctype(Emit *E, const Type *t) {
  /* 16-bit vectors and matrices compute as float32 (Note [16-bit floats]) */
  if (t->kind != TY_SCALAR && emit_lowp(t))
    return emit_ctype(E, emit_wide(E, t));
  switch (t->kind) {
  case TY_VOID: return "void";
  case TY_SCALAR: return sc_c[t->sc];
  case TY_VEC: {
    const char *name = join(E, (const char *const[]){"k_", emit_tysig(E, t)}, 2);
    if (emit_need(E, name))
      emit_pre(E, name, "typedef struct { %s c[%d]; } %s;\n", sc_c[t->sc],
                 t->rows, name);
    return name;
  }
  case TY_MAT: {
    const char *name = join(E, (const char *const[]){"k_", emit_tysig(E, t)}, 2);
    if (emit_need(E, name))
      emit_pre(E, name, "typedef struct { %s m[%d][%d]; } %s;\n",
                 sc_c[t->sc], t->rows, t->cols, name);
    return name;
  }
  case TY_ARRAY:
    return emit_arrtype(E, t);
  case TY_STRUCT:
    return struct_ctype(E, t);
  default:
    return "void";
  }
}

/* Vulkan: an array element's size in bytes, KSZ_<et>, for the element
 * addresses of Note [vulkan element addresses] in vulkan.c. */
void emit_elem_size(Emit *E, const char *et, const Type *elem) {
  const char *name = arena_printf(E->C, "KSZ_%s", et);
  if (E->T->id == KERN_TARGET_VULKAN && emit_need(E, name))
    emit_pre(E, name, "#define %s %zu\n", name, ty_size(elem));
}

const char *emit_arrtype(Emit *E, const Type *arr) {
  if (arr->fixed_n) /* a fixed array's storage, passed by pointer */
    return arena_printf(E->C, E->T->id == KERN_TARGET_VULKAN
                                  ? "kref_%s " /* Note [vulkan scratch frame] */
                                  : "%s *", emit_stype(E, arr->elem));
  if (arr->indexed)
    return emit_indexed_type(E, arr);
  if (arr->strided)
    return emit_view_type(E, arr);
  const char *et = emit_stype(E, arr->elem);
  const char *name = join(E, (const char *const[]){"k_a", emit_tysig(E, arr->elem)}, 2);
  emit_elem_size(E, et, arr->elem);
  if (emit_need(E, name))
    emit_pre(E, name, "typedef struct { %s%s *data; int64_t shape[4]; } %s;\n",
               E->T->global, et, name);
  return name;
}

static const char *make_helper(Emit *E, const Type *t, int nargs,
                               const Type *argt);

const char *emit_zero(Emit *E, const Type *t) {
  /* GLSL converts no int literal to int8_t, int16_t or bool on its own
   * (Note [GLSL through common.c]): the vulkan target spells the type */
  if (t->kind == TY_SCALAR && E->T->id == KERN_TARGET_VULKAN)
    return t->sc == KERN_SCALAR_BOOL ? "false"
           : arena_printf(E->C, "((%s)0)", emit_ctype(E, t));
  if (t->kind == TY_SCALAR)
    return "0";
  /* Define the helper too: a caller may be the only user of it (the
   * matrix inverse's singular case was, and its CUDA did not compile;
   * found by kern synth). */
  return arena_printf(E->C, "%s()", make_helper(E, t, 0, NULL));
}

/* ---------------------------------------------------------------- constants */

/* Note [GLSL float literals]: glslang keeps a float literal as the double
 * its digits name and folds double(literal) from that, so the shortest
 * digits that give the float32 back (-1.29999995f) became -1.29999995 in
 * float64 instead of the float's -1.2999999523162842: tile_matmul_lowp's
 * float64 result, beta * c, was 2.3e-9 relative off on lavapipe and on
 * NVIDIA (2026-11-29).  So the vulkan target spells a float32 literal
 * with the digits that give its exact value back as a double; they round
 * to the same float32. */
static void emit_float(Buf *b, const Type *t, double v, bool glsl) {
  bool f32 = t->sc == KERN_SCALAR_FLOAT32;
  if (isnan(v)) {
    buf_puts(b, f32 ? "K_NAN_F" : "((double)K_NAN_F)");
    return;
  }
  if (isinf(v)) {
    buf_puts(b, v > 0 ? (f32 ? "K_INF_F" : "((double)K_INF_F)")
                      : (f32 ? "(-K_INF_F)" : "(-(double)K_INF_F)"));
    return;
  }
  char tmp[64];
  int digits = f32 && !glsl ? 9 : 17;
  if (f32 && glsl && fabs(v) <= FLT_MAX)
    v = (double)(float)v;
  if (fmt_short_g(tmp, v, digits) < 0)
    snprintf(tmp, sizeof tmp, "%.*g", digits, v);
  if (!strpbrk(tmp, ".eEn"))
    strcat(tmp, ".0");
  buf_printf(b, "%s%s%s%s", v < 0 ? "(" : "", tmp, f32 ? "f" : "",
             v < 0 ? ")" : "");
}

static void emit_int(Buf *b, const Type *t, uint64_t v) {
  switch (t->sc) {
  case KERN_SCALAR_BOOL:
    buf_puts(b, v ? "1" : "0");
    return;
  case KERN_SCALAR_INT64:
    if ((int64_t)v == INT64_MIN)
      buf_puts(b, "((int64_t)(-9223372036854775807LL - 1))");
    else
      buf_printf(b, "((int64_t)%lldLL)", (long long)(int64_t)v);
    return;
  case KERN_SCALAR_UINT64:
    buf_printf(b, "((uint64_t)%lluULL)", (unsigned long long)v);
    return;
  case KERN_SCALAR_UINT32:
    buf_printf(b, "((uint32_t)%lluU)", (unsigned long long)(uint32_t)v);
    return;
  case KERN_SCALAR_INT32:
    if ((int32_t)v == INT32_MIN)
      buf_puts(b, "((int32_t)(-2147483647 - 1))");
    else
      buf_printf(b, "((int32_t)%d)", (int32_t)v);
    return;
  default:
    buf_printf(b, "((%s)%lld)", sc_c[t->sc],
               sc_is_signed(t->sc) ? (long long)(int64_t)v : (long long)v);
    return;
  }
}

/* ---------------------------------------------------------------- helpers */

static const char *mfn(Emit *E, const char *base, kern_scalar sc) {
  if (E->T->overloaded_math || sc != KERN_SCALAR_FLOAT32)
    return base;
  return arena_printf(E->C, "%sf", base);
}

/* Component k of a value named `v` of type t, as an lvalue expression. */
static const char *comp(Emit *E, const char *v, const Type *t) {
  if (t->kind == TY_VEC)
    return arena_printf(E->C, "%s.c[k]", v);
  if (t->kind == TY_MAT)
    return arena_printf(E->C, "%s.m[k / %d][k %% %d]", v, t->cols, t->cols);
  return v;
}

static int ncomp(const Type *t) {
  return t->kind == TY_SCALAR ? 1 : t->rows * t->cols;
}

static const char *helper_name(Emit *E, const char *base, int n,
                               const Type **args) {
  if (n <= 3) {
    const char *parts[8] = {"k_", base};
    for (int i = 0; i < n; i++) {
      parts[2 + 2 * i] = "_";
      parts[3 + 2 * i] = emit_tysig(E, args[i]);
    }
    return join(E, parts, 2 + 2 * n);
  }
  Buf b;
  buf_init(&b, E->C);
  buf_printf(&b, "k_%s", base);
  for (int i = 0; i < n; i++)
    buf_printf(&b, "_%s", emit_tysig(E, args[i]));
  return b.p;
}

/* Opens a helper definition: "static inline T name(A0 a, A1 b, ...) {" */
static void open_helper(Emit *E, Buf *b, const Type *ret, const char *name,
                        int n, const Type **args, const char *const *pnames) {
  static const char *const dflt[] = {"a", "b", "c", "d"};
  const char *rt = emit_ctype(E, ret);
  buf_printf(b, "%s %s %s(", E->T->fn_qual, rt, name);
  for (int i = 0; i < n; i++)
    buf_printf(b, "%s%s %s", i ? ", " : "", emit_ctype(E, args[i]),
               pnames ? pnames[i] : dflt[i]);
  if (n == 0)
    buf_puts(b, "void");
  buf_puts(b, ") {\n");
}

static const char *builtin_base(int bi) {
  switch (bi) {
  case BI_OP_FLOORDIV: return "floordiv";
  case BI_OP_DIV: return "idiv";
  case BI_OP_MOD: return "mod";
  case BI_OP_POW: return "pow";
  case BI_OP_MATMUL: return "matmul";
  case BI_VEC_EQ: return "eq";
  case BI_VEC_NE: return "ne";
  case BI_WRAP_INDEX: return "wrap";
  case BI_TRUTH: return "truth";
  case BI_NOISE_GRAD: return "noise_grad";
  case BI_CURLNOISE_ADJ: return "curlnoise_adj";
  case BI_CURLNOISE_TAN: return "curlnoise_tan";
  case BI_FMA: return "fma";
  case BI_STOP_GRADIENT: return "stop_gradient";
  default: return bi < BI_COUNT ? builtin_names[bi] : "op";
  }
}

static const char *scalar_helper(Emit *E, int bi, kern_scalar sc, int n) {
  const Type *st = ty_scalar(sc);
  const Type *args[3] = {st, st, st};
  return emit_helper(E, bi, st, n, args);
}

/* Note [OpenCL special values]: PoCL's library functions (SLEEF-style code
 * that converts to integers on the way) become poison in LLVM when their
 * argument is a constant NaN, or, for rint, an infinity or a float beyond
 * the int range: clang folds fptosi of such a value to poison, and what
 * reached memory was 0 (round(1.0 % 0.0), exp(nan), floor(0.0 / 0.0);
 * sinh and tanh of a NaN in float32).  At run time the same calls were
 * right.  So on OpenCL the rounding functions return their argument where
 * it is already integral, NaN or infinite (|a| >= 2^23, or 2^52 in
 * float64), and the other one-argument functions return a NaN argument
 * unchanged: the test of a constant folds, and the library call is never
 * reached with it.  PoCL's float32 tanh also never reaches 1: it gave
 * 0.99999994 for every |x| above 8.3 (-302.7, infinity), where the
 * correctly rounded value is 1 from |x| > 9.02 on (19.1 in float64), so
 * tanh returns copysign(1, a) past those bounds.  Between 8.3 and 9.02
 * PoCL's float32 tanh stays an ulp off glibc (docs/WARP-DIALECT.md). */
static bool ocl_math_body(Emit *E, Buf *b, int bi, kern_scalar sc) {
  bool f64 = sc == KERN_SCALAR_FLOAT64;
  switch (bi) {
  case BI_FLOOR: case BI_CEIL: case BI_ROUND: case BI_RINT: case BI_TRUNC:
    buf_printf(b, "  return fabs(a) < %s ? %s(a) : a;\n",
               f64 ? "4503599627370496.0" : "8388608.0f", builtin_base(bi));
    return true;
  case BI_FRAC:
    buf_printf(b, "  return a - (fabs(a) < %s ? trunc(a) : a);\n",
               f64 ? "4503599627370496.0" : "8388608.0f");
    return true;
  case BI_OP_FLOORDIV:
    buf_printf(b, "  return %s(a / b);\n", scalar_helper(E, BI_FLOOR, sc, 1));
    return true;
  case BI_TANH:
    buf_printf(b, "  if (fabs(a) > %s) return copysign(%s, a);\n",
               f64 ? "19.1" : "9.1f", f64 ? "1.0" : "1.0f");
    buf_puts(b, "  return isnan(a) ? a : tanh(a);\n");
    return true;
  case BI_SQRT: case BI_CBRT: case BI_EXP: case BI_LOG: case BI_LOG2:
  case BI_LOG10: case BI_SIN: case BI_COS: case BI_TAN: case BI_ATAN:
  case BI_SINH: case BI_COSH:
    buf_printf(b, "  return isnan(a) ? a : %s(a);\n", builtin_base(bi));
    return true;
  }
  return false;
}

/* Body of a scalar builtin; a, b, c are the parameters. */
static void scalar_body(Emit *E, Buf *b, int bi, const Type *ret,
                        const Type **args) {
  kern_scalar sc = args[0]->sc;
  bool isf = sc_is_float(sc), sgn = sc_is_signed(sc);
  const char *T = sc_c[sc];
  if (E->T->id == KERN_TARGET_OPENCL && isf && sc != KERN_SCALAR_FLOAT16 &&
      sc != KERN_SCALAR_BFLOAT16 && ocl_math_body(E, b, bi, sc))
    return;
  if (E->T->id == KERN_TARGET_VULKAN && sc == KERN_SCALAR_INT64 &&
      (bi == BI_ABS || bi == BI_SIGN || bi == BI_STEP)) {
    /* Note [vulkan int64 compares]: the sign bit, not a < 0 */
    buf_puts(b, bi == BI_ABS ? "  return (a ^ (a >> 63)) - (a >> 63);\n"
                : bi == BI_SIGN ? "  return (a >> 63) | 1l;\n"
                : "  return int64_t(uint64_t(a) >> 63);\n");
    return;
  }
  switch (bi) {
  case BI_ABS:
    if (isf)
      buf_printf(b, "  return %s(a);\n", mfn(E, "fabs", sc));
    else if (sgn)
      buf_printf(b, "  return a < 0 ? (%s)(0 - a) : a;\n", T);
    else
      buf_puts(b, "  return a;\n");
    return;
  case BI_SIGN:
    buf_printf(b, sgn || isf ? "  return a < 0 ? (%s)-1 : (%s)1;\n"
                             : "  return (%s)1;%.0s\n", T, T);
    return;
  case BI_STEP:
    buf_printf(b, sgn || isf ? "  return a < 0 ? (%s)1 : (%s)0;\n"
                             : "  return (%s)0;%.0s\n", T, T);
    return;
  case BI_MIN:
  case BI_MAX:
    /* Warp's host min/max (builtin.h, _wp_native_fmin): the first argument
     * when the two compare equal (so min(0.0, -0.0) is 0.0, unlike fmin),
     * the other one when exactly one is NaN. */
    if (isf && E->T->id == KERN_TARGET_VULKAN)
      /* NVIDIA's Vulkan compiler takes b == b for true even under
       * SignedZeroInfNanPreserve (smoothstep(nan, 1, 0.25) was 1, not
       * Warp's 0); isnan it keeps (Note [vulkan float controls]) */
      buf_printf(b, "  return (a %s b) ? a : (!isnan(b) ? b : a);\n",
                 bi == BI_MIN ? "<=" : ">=");
    else if (isf)
      buf_printf(b, "  return (a %s b) ? a : ((b == b) ? b : a);\n",
                 bi == BI_MIN ? "<=" : ">=");
    else
      buf_printf(b, "  return a %s b ? a : b;\n", bi == BI_MIN ? "<" : ">");
    return;
  case BI_CLAMP: {
    const char *mn = scalar_helper(E, BI_MIN, sc, 2);
    const char *mx = scalar_helper(E, BI_MAX, sc, 2);
    buf_printf(b, "  return %s(%s(b, a), c);\n", mn, mx);
    return;
  }
  case BI_ASIN: case BI_ACOS: {
    if (E->T->id == KERN_TARGET_VULKAN) { /* km_asin clamps: Note [vulkan float32 denormals] */
      buf_printf(b, "  return %s(a);\n", mfn(E, bi == BI_ASIN ? "asin" : "acos", sc));
      return;
    }
    const char *cl = scalar_helper(E, BI_CLAMP, sc, 3);
    buf_printf(b, "  return %s(%s(a, (%s)-1, (%s)1));\n",
               mfn(E, bi == BI_ASIN ? "asin" : "acos", sc), cl, T, T);
    return;
  }
  /* Note [degrees and radians]: Warp multiplies by a double constant
   * (RAD_TO_DEG), so a float32 argument is widened, multiplied in double
   * and rounded once. */
  case BI_DEGREES:
    buf_printf(b, "  return (%s)(a * 57.29577951308232087679);\n", T);
    return;
  case BI_RADIANS:
    buf_printf(b, "  return (%s)(a * 0.01745329251994329577);\n", T);
    return;
  case BI_FRAC:
    buf_printf(b, "  return a - %s(a);\n", mfn(E, "trunc", sc));
    return;
  case BI_ROUND:
    buf_printf(b, "  return %s(a);\n", mfn(E, "round", sc));
    return;
  case BI_ISNAN: case BI_ISINF: case BI_ISFINITE:
    if (!isf)
      buf_printf(b, "  (void)a;\n  return %d;\n", bi == BI_ISFINITE);
    else
      buf_printf(b, "  return %s(a) ? 1 : 0;\n",
                 bi == BI_ISNAN ? "isnan" : bi == BI_ISINF ? "isinf"
                                                          : "isfinite");
    return;
  case BI_POW: case BI_ATAN2:
    buf_printf(b, "  return %s(a, b);\n", mfn(E, builtin_base(bi), sc));
    return;
  case BI_LERP:
    buf_printf(b, "  return a * ((%s)1 - c) + b * c;\n", T);
    return;
  case BI_SMOOTHSTEP: {
    const char *cl = scalar_helper(E, BI_CLAMP, sc, 3);
    buf_printf(b, "  %s t = %s((c - a) / (b - a), (%s)0, (%s)1);\n", T, cl, T,
               T);
    buf_printf(b, "  return t * t * ((%s)3 - (%s)2 * t);\n", T, T);
    return;
  }
  case BI_OP_MOD:
    if (isf)
      buf_printf(b, "  return %s(a, b);\n", mfn(E, "fmod", sc));
    else if (sgn)
      /* Division by zero would kill the host process; x % -1 would trap for
       * the most negative x.  Both give 0. */
      buf_puts(b, "  return (b == 0 || b == -1) ? 0 : a % b;\n");
    else
      buf_puts(b, "  return b == 0 ? 0 : a % b;\n");
    return;
  case BI_OP_DIV:
    if (sgn)
      buf_printf(b, "  if (b == 0) return 0;\n"
                    "  if (b == -1) return (%s)(0 - (u%s)a);\n"
                    "  return (%s)(a / b);\n",
                 T, sc == KERN_SCALAR_INT64 ? "int64_t" : sc == KERN_SCALAR_INT32 ? "int32_t"
                    : sc == KERN_SCALAR_INT16 ? "int16_t" : "int8_t", T);
    else
      buf_printf(b, "  return b == 0 ? 0 : (%s)(a / b);\n", T);
    return;
  case BI_OP_FLOORDIV:
    if (isf) {
      buf_printf(b, "  return %s(a / b);\n", mfn(E, "floor", sc));
    } else if (sgn) {
      const char *dv = scalar_helper(E, BI_OP_DIV, sc, 2);
      buf_printf(b, "  %s q = %s(a, b);\n"
                    "  if (b != 0 && b != -1 && a %% b != 0 && ((a < 0) != (b < 0))) q--;\n"
                    "  return q;\n", T, dv);
    } else {
      buf_printf(b, "  return b == 0 ? 0 : (%s)(a / b);\n", T);
    }
    return;
  case BI_WRAP_INDEX:
    buf_puts(b, "  return a < 0 ? a + b : a;\n");
    return;
  case BI_NONZERO:
    buf_printf(b, "  return a == 0 ? (%s)0 : (%s)1;\n", T, T);
    return;
  case BI_TRUTH:
    buf_puts(b, "  return a != 0;\n");
    return;
  case BI_FMA:
    buf_printf(b, "  return %s(a, b, c);\n", mfn(E, "fma", sc));
    return;
  case BI_STOP_GRADIENT:
    buf_puts(b, "  return a;\n");
    return;
  default:
    buf_printf(b, "  return %s(a);\n", mfn(E, builtin_base(bi), sc));
    return;
  }
  (void)ret;
}

/* Builtins applied to each component, calling the scalar helper. */
static bool componentwise(int bi) {
  switch (bi) {
  case BI_ABS: case BI_SIGN: case BI_FLOOR: case BI_CEIL: case BI_ROUND:
  case BI_TRUNC: case BI_FRAC: case BI_MIN: case BI_MAX: case BI_OP_MOD:
  case BI_OP_DIV: case BI_OP_FLOORDIV:
    return true;
  }
  return false;
}

static const char *make_helper(Emit *E, const Type *t, int nargs,
                               const Type *argt);

/* Note [Warp's determinant and inverse]: the formulas, operation order and
 * intermediate precision of Warp's native/mat.h, so results agree to the
 * bit on the CPU: 2x2 and 3x3 in the matrix's type (the 3x3 determinant is
 * dot(row0, cross(row1, row2))), 4x4 by cofactors adapted from USD with
 * some intermediates in double, as Warp has them.  An inverse whose
 * determinant is zero (2x2 and 4x4: or NaN) is the zero matrix; a 3x3 with
 * a NaN determinant goes on and gives NaN, as in Warp. */
static void warp_det_inverse(Emit *E, Buf *b, int bi, const Type *v,
                             const char *RT, const char *T) {
  int R = v->rows;
  if (R == 2) {
    buf_printf(b, "  %s det = a.m[0][0] * a.m[1][1] - a.m[1][0] * a.m[0][1];\n",
               T);
    if (bi == BI_DETERMINANT) {
      buf_puts(b, "  return det;\n");
      return;
    }
    const char *z = make_helper(E, v, 0, NULL);
    buf_printf(b, "  if (!(det > (%s)0 || det < -(%s)0)) return %s();\n"
                  "  %s rcp = (%s)1 / det;\n  %s r;\n"
                  "  r.m[0][0] = a.m[1][1] * rcp; r.m[0][1] = -a.m[0][1] * rcp;\n"
                  "  r.m[1][0] = -a.m[1][0] * rcp; r.m[1][1] = a.m[0][0] * rcp;\n"
                  "  return r;\n", T, T, z, T, T, RT);
    return;
  }
  if (R == 3) {
    buf_printf(b, "  %s c0 = a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1];\n"
                  "  %s c1 = a.m[1][2] * a.m[2][0] - a.m[1][0] * a.m[2][2];\n"
                  "  %s c2 = a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0];\n"
                  "  %s det = a.m[0][0] * c0 + a.m[0][1] * c1 + a.m[0][2] * c2;\n",
               T, T, T, T);
    if (bi == BI_DETERMINANT) {
      buf_puts(b, "  return det;\n");
      return;
    }
    const char *z = make_helper(E, v, 0, NULL);
    buf_printf(b, "  if (det == (%s)0) return %s();\n  %s m;\n"
                  "  m.m[0][0] = c0; m.m[1][0] = c1; m.m[2][0] = c2;\n"
                  "  m.m[0][1] = a.m[0][2] * a.m[2][1] - a.m[0][1] * a.m[2][2];\n"
                  "  m.m[1][1] = a.m[0][0] * a.m[2][2] - a.m[0][2] * a.m[2][0];\n"
                  "  m.m[2][1] = a.m[0][1] * a.m[2][0] - a.m[0][0] * a.m[2][1];\n"
                  "  m.m[0][2] = a.m[0][1] * a.m[1][2] - a.m[0][2] * a.m[1][1];\n"
                  "  m.m[1][2] = a.m[0][2] * a.m[1][0] - a.m[0][0] * a.m[1][2];\n"
                  "  m.m[2][2] = a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0];\n"
                  "  %s rcp = (%s)1 / det;\n"
                  "  for (int i = 0; i < 3; i++)\n"
                  "    for (int j = 0; j < 3; j++) m.m[i][j] = m.m[i][j] * rcp;\n"
                  "  return m;\n", T, z, RT, T, T);
    return;
  }
  /* 4x4: x are the entries; y 2x2 minors, in double; z cofactors (the
   * first two columns' in T, the rest in double).  GLSL narrows the
   * double sums to T only when told (o and c). */
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  const char *o = vk ? arena_printf(E->C, "%s(", T) : "", *c = vk ? ")" : "";
  buf_printf(b, "  %s x00 = a.m[0][0], x01 = a.m[0][1], x02 = a.m[0][2], x03 = a.m[0][3];\n"
                "  %s x10 = a.m[1][0], x11 = a.m[1][1], x12 = a.m[1][2], x13 = a.m[1][3];\n"
                "  %s x20 = a.m[2][0], x21 = a.m[2][1], x22 = a.m[2][2], x23 = a.m[2][3];\n"
                "  %s x30 = a.m[3][0], x31 = a.m[3][1], x32 = a.m[3][2], x33 = a.m[3][3];\n"
                "  double y01, y02, y03, y12, y13, y23;\n",
             T, T, T, T);
  if (bi == BI_INVERSE)
    buf_printf(b, "  y01 = x00 * x11 - x10 * x01;\n  y02 = x00 * x21 - x20 * x01;\n"
                  "  y03 = x00 * x31 - x30 * x01;\n  y12 = x10 * x21 - x20 * x11;\n"
                  "  y13 = x10 * x31 - x30 * x11;\n  y23 = x20 * x31 - x30 * x21;\n"
                  "  double z33 = x02 * y12 - x12 * y02 + x22 * y01;\n"
                  "  double z23 = x12 * y03 - x32 * y01 - x02 * y13;\n"
                  "  double z13 = x02 * y23 - x22 * y03 + x32 * y02;\n"
                  "  double z03 = x22 * y13 - x32 * y12 - x12 * y23;\n"
                  "  double z32 = x13 * y02 - x23 * y01 - x03 * y12;\n"
                  "  double z22 = x03 * y13 - x13 * y03 + x33 * y01;\n"
                  "  double z12 = x23 * y03 - x33 * y02 - x03 * y23;\n"
                  "  double z02 = x13 * y23 - x23 * y13 + x33 * y12;\n");
  buf_printf(b, "  y01 = x02 * x13 - x12 * x03;\n  y02 = x02 * x23 - x22 * x03;\n"
                "  y03 = x02 * x33 - x32 * x03;\n  y12 = x12 * x23 - x22 * x13;\n"
                "  y13 = x12 * x33 - x32 * x13;\n  y23 = x22 * x33 - x32 * x23;\n"
                "  %s z30 = %sx11 * y02 - x21 * y01 - x01 * y12%s;\n"
                "  %s z20 = %sx01 * y13 - x11 * y03 + x31 * y01%s;\n"
                "  %s z10 = %sx21 * y03 - x31 * y02 - x01 * y23%s;\n"
                "  %s z00 = %sx11 * y23 - x21 * y13 + x31 * y12%s;\n",
             T, o, c, T, o, c, T, o, c, T, o, c);
  if (bi == BI_DETERMINANT) {
    buf_printf(b, "  double det = x30 * z30 + x20 * z20 + x10 * z10 + x00 * z00;\n"
                  "  return (%s)det;\n", T);
    return;
  }
  const char *z = make_helper(E, v, 0, NULL);
  buf_printf(b, "  %s z31 = %sx00 * y12 - x10 * y02 + x20 * y01%s;\n"
                "  %s z21 = %sx10 * y03 - x30 * y01 - x00 * y13%s;\n"
                "  %s z11 = %sx00 * y23 - x20 * y03 + x30 * y02%s;\n"
                "  %s z01 = %sx20 * y13 - x30 * y12 - x10 * y23%s;\n"
                "  double det = x30 * z30 + x20 * z20 + x10 * z10 + x00 * z00;\n"
                "  if (!(fabs(det) > 0)) return %s();\n"
                "  double rcp = 1.0 / det;\n  %s r;\n"
                "  r.m[0][0] = (%s)(z00 * rcp); r.m[0][1] = (%s)(z10 * rcp);\n"
                "  r.m[1][0] = (%s)(z01 * rcp); r.m[0][2] = (%s)(z20 * rcp);\n"
                "  r.m[2][0] = (%s)(z02 * rcp); r.m[0][3] = (%s)(z30 * rcp);\n"
                "  r.m[3][0] = (%s)(z03 * rcp); r.m[1][1] = (%s)(z11 * rcp);\n"
                "  r.m[1][2] = (%s)(z21 * rcp); r.m[2][1] = (%s)(z12 * rcp);\n"
                "  r.m[1][3] = (%s)(z31 * rcp); r.m[3][1] = (%s)(z13 * rcp);\n"
                "  r.m[2][2] = (%s)(z22 * rcp); r.m[2][3] = (%s)(z32 * rcp);\n"
                "  r.m[3][2] = (%s)(z23 * rcp); r.m[3][3] = (%s)(z33 * rcp);\n"
                "  return r;\n", T, o, c, T, o, c, T, o, c, T, o, c, z, RT, T, T, T, T,
             T, T, T, T, T, T, T, T, T, T, T, T);
}

/* Warp's transform builtins (spatial.h) on the 7-component layout, through
 * the quaternion helpers so each formula is written once. */
static void xform_body(Emit *E, Buf *b, int bi, const Type *ret, int n,
                       const Type **args) {
  kern_scalar sc = (n ? args[0] : ret)->sc;
  const Type *v3 = ty_vec(E->C, sc, 3), *q = ty_quat(E->C, sc);
  const char *V3 = emit_ctype(E, v3), *Q = emit_ctype(E, q);
  const char *RT = emit_ctype(E, ret);
  const char *rot = emit_helper(E, BI_QUAT_ROTATE, v3, 2,
                                (const Type *[]){q, v3});
  if (bi == BI_TRANSFORM_IDENTITY) {
    buf_printf(b, "  %s r;\n  for (int k = 0; k < 6; k++) r.c[k] = 0;\n"
                  "  r.c[6] = 1;\n  return r;\n", RT);
    return;
  }
  /* p and q of the first argument */
  buf_printf(b, "  %s ap; %s aq;\n"
                "  for (int k = 0; k < 3; k++) ap.c[k] = a.c[k];\n"
                "  for (int k = 0; k < 4; k++) aq.c[k] = a.c[3 + k];\n",
             V3, Q);
  switch (bi) {
  case BI_TRANSFORM_GET_TRANSLATION:
    buf_puts(b, "  (void)aq;\n  return ap;\n");
    return;
  case BI_TRANSFORM_GET_ROTATION:
    buf_puts(b, "  (void)ap;\n  return aq;\n");
    return;
  case BI_TRANSFORM_VECTOR:
    buf_printf(b, "  (void)ap;\n  return %s(aq, b);\n", rot);
    return;
  case BI_TRANSFORM_POINT:
    buf_printf(b, "  %s w = %s(aq, b);\n"
                  "  for (int k = 0; k < 3; k++) w.c[k] = ap.c[k] + w.c[k];\n"
                  "  return w;\n", V3, rot);
    return;
  case BI_TRANSFORM_INVERSE: {
    const char *inv = emit_helper(E, BI_QUAT_INVERSE, q, 1,
                                  (const Type *[]){q});
    buf_printf(b, "  %s qi = %s(aq);\n  %s p = %s(qi, ap);\n  %s r;\n"
                  "  for (int k = 0; k < 3; k++) r.c[k] = -p.c[k];\n"
                  "  for (int k = 0; k < 4; k++) r.c[3 + k] = qi.c[k];\n"
                  "  return r;\n", Q, inv, V3, rot, RT);
    return;
  }
  case BI_TRANSFORM_MULTIPLY: {
    const char *qm = emit_helper(E, BI_MUL, q, 2, (const Type *[]){q, q});
    buf_printf(b, "  %s bp; %s bq;\n"
                  "  for (int k = 0; k < 3; k++) bp.c[k] = b.c[k];\n"
                  "  for (int k = 0; k < 4; k++) bq.c[k] = b.c[3 + k];\n"
                  "  %s p = %s(aq, bp);\n  %s m = %s(aq, bq);\n  %s r;\n"
                  "  for (int k = 0; k < 3; k++) r.c[k] = p.c[k] + ap.c[k];\n"
                  "  for (int k = 0; k < 4; k++) r.c[3 + k] = m.c[k];\n"
                  "  return r;\n", V3, Q, V3, rot, Q, qm, RT);
    return;
  }
  }
}

/* What every vector or matrix helper body needs: the C types of the result
 * and of an element, the operand that fixes the shape (the first vector or
 * matrix argument), its scalar and its component count. */
typedef struct VecForm {
  const char *RT, *T;
  const Type *v;
  kern_scalar sc;
  int N;
} VecForm;

/* Arithmetic: componentwise builtins and operators, min/max over the
 * components, and the vector and matrix products. */
static bool vector_arith(Emit *E, Buf *b, int bi, const Type *ret, int n,
                         const Type **args, const VecForm *f) {
  const char *RT = f->RT, *T = f->T;
  kern_scalar sc = f->sc;
  int N = f->N;
  if (componentwise(bi) && ret->kind != TY_SCALAR) {
    const char *h = scalar_helper(E, bi, sc, n);
    buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) %s = %s(%s%s%s);\n"
                  "  return r;\n", RT, N, comp(E, "r", ret), h,
               comp(E, "a", args[0]), n > 1 ? ", " : "",
               n > 1 ? comp(E, "b", args[1]) : "");
    return true;
  }
  switch (bi) {
  case BI_MIN: case BI_MAX: {
    const char *h = scalar_helper(E, bi, sc, 2);
    buf_printf(b, "  %s r = a.c[0];\n  for (int k = 1; k < %d; k++) r = %s(r, "
                  "a.c[k]);\n  return r;\n", T, N, h);
    return true;
  }
  case BI_ADD: case BI_SUB: case BI_CW_MUL: case BI_CW_DIV: case BI_NEG: {
    const char *op = bi == BI_ADD ? "+" : bi == BI_SUB ? "-"
                     : bi == BI_CW_MUL ? "*" : bi == BI_CW_DIV ? "/" : "-";
    if (bi == BI_CW_DIV && !sc_is_float(sc)) {
      const char *h = scalar_helper(E, BI_OP_DIV, sc, 2);
      buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) %s = %s(%s, %s);\n"
                    "  return r;\n", RT, N, comp(E, "r", ret), h,
                 comp(E, "a", args[0]), comp(E, "b", args[1]));
      return true;
    }
    /* Warp negates vector and matrix components with -x (so +0.0
     * becomes -0.0); integers as 0 - x, which C does not promote away */
    if (bi == BI_NEG)
      buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) %s = (%s)(%s%s);\n"
                    "  return r;\n", RT, N, comp(E, "r", ret), T,
                 sc_is_float(sc) ? "-" : "0 - ", comp(E, "a", args[0]));
    else
      buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) %s = (%s)(%s %s %s);"
                    "\n  return r;\n", RT, N, comp(E, "r", ret), T,
                 comp(E, "a", args[0]), op, comp(E, "b", args[1]));
    return true;
  }
  case BI_DIV: {
    /* vector / scalar, scalar / vector (componentwise), matrix / scalar */
    const char *h = sc_is_float(sc) ? NULL : scalar_helper(E, BI_OP_DIV, sc, 2);
    const char *x = comp(E, "a", args[0]), *y = comp(E, "b", args[1]);
    if (h)
      buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) %s = %s(%s, %s);\n"
                    "  return r;\n", RT, N, comp(E, "r", ret), h, x, y);
    else
      buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) %s = %s / %s;\n"
                    "  return r;\n", RT, N, comp(E, "r", ret), x, y);
    return true;
  }
  case BI_MUL: {
    const Type *A = args[0], *B = args[1];
    if (A->quat && B->quat) {
      /* Warp's quat.h mul(a, b), term for term */
      buf_printf(b, "  %s r;\n"
                    "  r.c[0] = a.c[3] * b.c[0] + b.c[3] * a.c[0] + a.c[1] * b.c[2] - b.c[1] * a.c[2];\n"
                    "  r.c[1] = a.c[3] * b.c[1] + b.c[3] * a.c[1] + a.c[2] * b.c[0] - b.c[2] * a.c[0];\n"
                    "  r.c[2] = a.c[3] * b.c[2] + b.c[3] * a.c[2] + a.c[0] * b.c[1] - b.c[0] * a.c[1];\n"
                    "  r.c[3] = a.c[3] * b.c[3] - a.c[0] * b.c[0] - a.c[1] * b.c[1] - a.c[2] * b.c[2];\n"
                    "  return r;\n", RT);
      return true;
    }
    if (A->kind == TY_SCALAR || B->kind == TY_SCALAR) {
      buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) %s = (%s)(%s * %s);"
                    "\n  return r;\n", RT, N, comp(E, "r", ret), T,
                 comp(E, "a", A), comp(E, "b", B));
      return true;
    }
    if (A->kind == TY_MAT && B->kind == TY_VEC) {
      buf_printf(b, "  %s r;\n  for (int i = 0; i < %d; i++) {\n"
                    "    %s s = 0;\n    for (int j = 0; j < %d; j++) s += a.m[i][j] * b.c[j];\n"
                    "    r.c[i] = s;\n  }\n  return r;\n", RT, A->rows, T, A->cols);
      return true;
    }
    if (A->kind == TY_VEC && B->kind == TY_MAT) {
      buf_printf(b, "  %s r;\n  for (int j = 0; j < %d; j++) {\n"
                    "    %s s = 0;\n    for (int i = 0; i < %d; i++) s += a.c[i] * b.m[i][j];\n"
                    "    r.c[j] = s;\n  }\n  return r;\n", RT, B->cols, T, B->rows);
      return true;
    }
    buf_printf(b, "  %s r;\n  for (int i = 0; i < %d; i++)\n"
                  "    for (int j = 0; j < %d; j++) {\n"
                  "      %s s = 0;\n      for (int k = 0; k < %d; k++) s += a.m[i][k] * b.m[k][j];\n"
                  "      r.m[i][j] = s;\n    }\n  return r;\n",
               RT, A->rows, B->cols, T, A->cols);
    return true;
  }
  default:
    return false;
  }
}

/* Geometry and tests on whole vectors: dot, length, normalize, cross,
 * outer, argmin/argmax, lerp, the isnan family and vector equality. */
static bool vector_geometry(Emit *E, Buf *b, int bi, const Type *ret, int n,
                            const Type **args, const VecForm *f) {
  const char *RT = f->RT, *T = f->T;
  const Type *v = f->v;
  kern_scalar sc = f->sc;
  int N = f->N;
  switch (bi) {
  case BI_DOT:
    /* Warp (vec.h) sums 2 and 3 products directly but starts longer
     * vectors from 0, which turns a sum of -0.0 products into 0.0. */
    if (N == 2 || N == 3)
      buf_printf(b, "  return a.c[0] * b.c[0] + a.c[1] * b.c[1]%s;\n",
                 N == 3 ? " + a.c[2] * b.c[2]" : "");
    else
      buf_printf(b, "  %s s = 0;\n  for (int k = 0; k < %d; k++) s += a.c[k] * b.c[k];\n"
                    "  return s;\n", T, N);
    return true;
  case BI_LENGTH_SQ: {
    const char *d = emit_helper(E, BI_DOT, ty_scalar(sc), 2,
                                (const Type *[]){v, v});
    buf_printf(b, "  return %s(a, a);\n", d);
    return true;
  }
  case BI_LENGTH: {
    const char *d = emit_helper(E, BI_DOT, ty_scalar(sc), 2,
                                (const Type *[]){v, v});
    buf_printf(b, "  return %s(%s(a, a));\n", mfn(E, "sqrt", sc), d);
    return true;
  }
  case BI_ARGMIN: case BI_ARGMAX: {
    /* Warp's argmin/argmax (vec.h): NaN slots skipped, the first extremum,
     * 0 when every slot is NaN */
    bool fl = sc_is_float(sc);
    buf_printf(b, "  uint32_t r = 0;\n");
    if (fl)
      buf_printf(b, "  while (r < %d && isnan(a.c[r])) r++;\n"
                    "  if (r == %d) return 0;\n", N, N);
    buf_printf(b, "  for (uint32_t i = r + 1; i < %d; i++) {\n", N);
    if (fl)
      buf_puts(b, "    if (isnan(a.c[i])) continue;\n");
    buf_printf(b, "    if (a.c[i] %s a.c[r]) r = i;\n  }\n  return r;\n",
               bi == BI_ARGMIN ? "<" : ">");
    return true;
  }
  case BI_NORMALIZE: {
    if (v->quat) {
      /* Warp's quat normalize: times 1/length; zero gives the identity */
      const char *l = emit_helper(E, BI_LENGTH, ty_scalar(sc), 1,
                                  (const Type *[]){v});
      buf_printf(b, "  %s l = %s(a);\n  %s r;\n"
                    "  if (!(l > 0)) { r.c[0] = 0; r.c[1] = 0; r.c[2] = 0; r.c[3] = 1; return r; }\n"
                    "  %s inv = (%s)1 / l;\n"
                    "  for (int k = 0; k < 4; k++) r.c[k] = a.c[k] * inv;\n"
                    "  return r;\n", T, l, RT, T, T);
      return true;
    }
    const char *l = emit_helper(E, BI_LENGTH, ty_scalar(sc), 1,
                                (const Type *[]){v});
    buf_printf(b, "  %s l = %s(a);\n  %s r;\n"
                  "  for (int k = 0; k < %d; k++) r.c[k] = l > 0 ? a.c[k] / l : 0;\n"
                  "  return r;\n", T, l, RT, N);
    return true;
  }
  case BI_CROSS:
    buf_printf(b, "  %s r;\n  r.c[0] = a.c[1] * b.c[2] - a.c[2] * b.c[1];\n"
                  "  r.c[1] = a.c[2] * b.c[0] - a.c[0] * b.c[2];\n"
                  "  r.c[2] = a.c[0] * b.c[1] - a.c[1] * b.c[0];\n  return r;\n", RT);
    return true;
  case BI_OUTER:
    buf_printf(b, "  %s r;\n  for (int i = 0; i < %d; i++)\n"
                  "    for (int j = 0; j < %d; j++) r.m[i][j] = a.c[i] * b.c[j];\n"
                  "  return r;\n", RT, ret->rows, ret->cols);
    return true;
  case BI_LERP:
    buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) %s = %s * ((%s)1 - c) + %s * c;\n"
                  "  return r;\n", RT, N, comp(E, "r", ret), comp(E, "a", v), T,
               comp(E, "b", v));
    return true;
  case BI_ISNAN: case BI_ISINF: case BI_ISFINITE: {
    const char *h = emit_helper(E, bi, ty_scalar(KERN_SCALAR_BOOL), 1,
                                (const Type *[]){ty_scalar(sc)});
    bool all = bi == BI_ISFINITE;
    buf_printf(b, "  for (int k = 0; k < %d; k++) if (%s%s(%s)) return %d;\n"
                  "  return %d;\n", N, all ? "!" : "", h, comp(E, "a", v),
               all ? 0 : 1, all ? 1 : 0);
    return true;
  }
  case BI_VEC_EQ: case BI_VEC_NE:
    buf_printf(b, "  for (int k = 0; k < %d; k++) if (%s != %s) return %d;\n"
                  "  return %d;\n", N, comp(E, "a", v), comp(E, "b", v),
               bi == BI_VEC_NE, bi == BI_VEC_EQ);
    return true;
  default:
    return false;
  }
}

/* Matrix functions: transpose, trace, diag, determinant, inverse and
 * identity. */
static bool matrix_body(Emit *E, Buf *b, int bi, const Type *ret, int n,
                        const Type **args, const VecForm *f) {
  const char *RT = f->RT, *T = f->T;
  const Type *v = f->v;
  int N = f->N;
  switch (bi) {
  case BI_GET_DIAG:
    buf_printf(b, "  %s r;\n  for (int k = 0; k < %d; k++) r.c[k] = a.m[k][k];\n"
                  "  return r;\n", RT, v->rows);
    return true;
  case BI_TRANSPOSE:
    buf_printf(b, "  %s r;\n  for (int i = 0; i < %d; i++)\n"
                  "    for (int j = 0; j < %d; j++) r.m[i][j] = a.m[j][i];\n"
                  "  return r;\n", RT, ret->rows, ret->cols);
    return true;
  case BI_TRACE:
    buf_printf(b, "  %s s = 0;\n  for (int k = 0; k < %d; k++) s += a.m[k][k];\n"
                  "  return s;\n", T, v->rows);
    return true;
  case BI_DIAG:
    buf_printf(b, "  %s r;\n  for (int i = 0; i < %d; i++)\n"
                  "    for (int j = 0; j < %d; j++) r.m[i][j] = i == j ? a.c[i] : 0;\n"
                  "  return r;\n", RT, N, N);
    return true;
  case BI_DETERMINANT:
  case BI_INVERSE:
    warp_det_inverse(E, b, bi, v, RT, T);
    return true;
  case BI_IDENTITY:
    buf_printf(b, "  %s r;\n  for (int i = 0; i < %d; i++)\n"
                  "    for (int j = 0; j < %d; j++) r.m[i][j] = i == j ? 1 : 0;\n"
                  "  return r;\n", RT, ret->rows, ret->cols);
    return true;
  default:
    return false;
  }
}

/* Quaternions and transforms. */
static bool quat_body(Emit *E, Buf *b, int bi, const Type *ret, int n,
                      const Type **args, const VecForm *f) {
  const char *RT = f->RT, *T = f->T;
  const Type *v = f->v;
  kern_scalar sc = f->sc;
  switch (bi) {
  case BI_QUAT_ROTATE: case BI_QUAT_ROTATE_INV: {
    /* Warp's quat_rotate / quat_rotate_inv (quat.h) */
    const char *sg = bi == BI_QUAT_ROTATE ? "+" : "-";
    buf_printf(b, "  %s c = (%s)2 * a.c[3] * a.c[3] - (%s)1;\n"
                  "  %s d = (%s)2 * (a.c[0] * b.c[0] + a.c[1] * b.c[1] + a.c[2] * b.c[2]);\n"
                  "  %s r;\n"
                  "  r.c[0] = b.c[0] * c + a.c[0] * d %s (a.c[1] * b.c[2] - a.c[2] * b.c[1]) * a.c[3] * (%s)2;\n"
                  "  r.c[1] = b.c[1] * c + a.c[1] * d %s (a.c[2] * b.c[0] - a.c[0] * b.c[2]) * a.c[3] * (%s)2;\n"
                  "  r.c[2] = b.c[2] * c + a.c[2] * d %s (a.c[0] * b.c[1] - a.c[1] * b.c[0]) * a.c[3] * (%s)2;\n"
                  "  return r;\n", T, T, T, T, T, RT, sg, T, sg, T, sg, T);
    return true;
  }
  case BI_QUAT_TO_MATRIX: {
    /* columns: q rotating the unit vectors (Warp's quat_to_matrix) */
    const Type *v3 = ty_vec(E->C, sc, 3);
    const char *rot = emit_helper(E, BI_QUAT_ROTATE, v3, 2,
                                  (const Type *[]){v, v3});
    const char *V3 = emit_ctype(E, v3);
    buf_printf(b, "  %s r;\n  for (int j = 0; j < 3; j++) {\n"
                  "    %s e; e.c[0] = 0; e.c[1] = 0; e.c[2] = 0; e.c[j] = 1;\n"
                  "    %s c = %s(a, e);\n"
                  "    for (int i = 0; i < 3; i++) r.m[i][j] = c.c[i];\n  }\n"
                  "  return r;\n", RT, V3, V3, rot);
    return true;
  }
  case BI_TRANSFORM_POINT: case BI_TRANSFORM_VECTOR:
    if (args[0]->kind == TY_MAT) {
      /* Warp's mat.h overload: the first three rows of m * (v, w), w = 1
       * for a point and 0 for a vector, summed in Warp's order (0 * m[i][3]
       * is added too, so a -0 sum or an infinite m[i][3] come out alike). */
      buf_printf(b, "  %s r;\n  for (int i = 0; i < 3; i++) {\n"
                    "    %s s = 0;\n    for (int j = 0; j < 3; j++) s += a.m[i][j] * b.c[j];\n"
                    "    s += a.m[i][3] * (%s)%d;\n    r.c[i] = s;\n  }\n  return r;\n",
                 RT, T, T, bi == BI_TRANSFORM_POINT);
      return true;
    }
    xform_body(E, b, bi, ret, n, args);
    return true;
  case BI_TRANSFORM_MULTIPLY: case BI_TRANSFORM_INVERSE:
  case BI_TRANSFORM_IDENTITY: case BI_TRANSFORM_GET_TRANSLATION:
  case BI_TRANSFORM_GET_ROTATION:
    xform_body(E, b, bi, ret, n, args);
    return true;
  case BI_QUAT_INVERSE:
    buf_printf(b, "  %s r;\n  r.c[0] = -a.c[0]; r.c[1] = -a.c[1]; r.c[2] = -a.c[2];"
                  " r.c[3] = a.c[3];\n  return r;\n", RT);
    return true;
  case BI_QUAT_IDENTITY:
    buf_printf(b, "  %s r;\n  r.c[0] = 0; r.c[1] = 0; r.c[2] = 0; r.c[3] = 1;\n"
                  "  return r;\n", RT);
    return true;
  case BI_QUAT_FROM_AXIS_ANGLE:
    /* Warp's quat_from_axis_angle: the axis is not normalised */
    buf_printf(b, "  %s h = b * (%s)0.5;\n  %s w = %s(h);\n  %s s = %s(h);\n"
                  "  %s r;\n  r.c[0] = a.c[0] * s; r.c[1] = a.c[1] * s; r.c[2] = a.c[2] * s;"
                  " r.c[3] = w;\n  return r;\n", T, T, T, mfn(E, "cos", sc), T,
               mfn(E, "sin", sc), RT);
    return true;
  default:
    return false;
  }
}

static void vector_body(Emit *E, Buf *b, int bi, const Type *ret, int n,
                        const Type **args) {
  const char *RT = emit_ctype(E, ret);
  const Type *v = n == 0 ? ret : args[0]->kind != TY_SCALAR ? args[0]
                  : (n > 1 ? args[1] : args[0]);
  kern_scalar sc = v->sc;
  const char *T = sc_c[sc];
  int N = ncomp(v);
  VecForm f = {RT, T, v, sc, N};
  if (vector_arith(E, b, bi, ret, n, args, &f) ||
      vector_geometry(E, b, bi, ret, n, args, &f) ||
      matrix_body(E, b, bi, ret, n, args, &f) ||
      quat_body(E, b, bi, ret, n, args, &f))
    return;
  diag_error(E->C, (Pos){1, 1, 0}, "internal: no vector form of %s",
             builtin_base(bi));
}

/* Warp's random numbers (documented in Warp's rand.h): a PCG hash step. */
static void rand_helper(Emit *E, Buf *b, int bi, int n, const char *name) {
  const char *Q = E->T->fn_qual;
  if (emit_need(E, "k_pcg"))
    emit_pre(E, "k_pcg", "%s uint32_t k_pcg(uint32_t s) {\n"
               "  uint32_t b = s * 747796405u + 2891336453u;\n"
               "  uint32_t c = ((b >> ((b >> 28u) + 4u)) ^ b) * 277803737u;\n"
               "  return (c >> 22u) ^ c;\n}\n", Q);
  switch (bi) {
  case BI_RAND_INIT:
    if (n == 1)
      buf_printf(b, "%s uint32_t %s(int32_t a) { return k_pcg((uint32_t)a); }\n",
                 Q, name);
    else
      buf_printf(b, "%s uint32_t %s(int32_t a, int32_t b) {\n"
                    "  return k_pcg((uint32_t)a + k_pcg((uint32_t)b));\n}\n",
                 Q, name);
    return;
  case BI_RANDF:
    if (n == 1)
      buf_printf(b, "%s float %s(uint32_t *s) {\n  *s = k_pcg(*s);\n"
                    "  return (float)(*s >> 8) * (1.0f / 16777216.0f);\n}\n",
                 Q, name);
    else {
      const char *f = emit_helper(E, BI_RANDF, ty_scalar(KERN_SCALAR_FLOAT32), 1,
                                  (const Type *[]){ty_scalar(KERN_SCALAR_UINT32)});
      buf_printf(b, "%s float %s(uint32_t *s, float lo, float hi) {\n"
                    "  return (hi - lo) * %s(s) + lo;\n}\n", Q, name, f);
    }
    return;
  case BI_RANDI:
    if (n == 1)
      buf_printf(b, "%s int32_t %s(uint32_t *s) {\n  *s = k_pcg(*s);\n"
                    "  return (int32_t)*s;\n}\n", Q, name);
    else
      buf_printf(b, "%s int32_t %s(uint32_t *s, int32_t lo, int32_t hi) {\n"
                    "  *s = k_pcg(*s);\n"
                    "  uint32_t span = (uint32_t)(hi - lo);\n"
                    "  return (int32_t)(span%s ? *s %% span : *s) + lo;\n}\n", Q, name,
                  E->T->id == KERN_TARGET_VULKAN ? " != 0u" : "");
    return;
  case BI_RANDN: {
    const char *f = emit_helper(E, BI_RANDF, ty_scalar(KERN_SCALAR_FLOAT32), 1,
                                (const Type *[]){ty_scalar(KERN_SCALAR_UINT32)});
    /* The first draw feeds the log, as Warp's CPU build evaluates it. */
    buf_printf(b, "%s float %s(uint32_t *s) {\n  float u = %s(s);\n  float v = %s(s);\n"
                  "  return %s(-2.0f * %s(u + 5.96e-8f)) * %s(6.2831853071795864f * v);\n}\n",
               Q, name, f, f, mfn(E, "sqrt", KERN_SCALAR_FLOAT32),
               mfn(E, "log", KERN_SCALAR_FLOAT32), mfn(E, "cos", KERN_SCALAR_FLOAT32));
    return;
  }
  }
}

const char *emit_helper(Emit *E, int bi, const Type *ret, int n,
                        const Type **args) {
  const char *name = helper_name(E, builtin_base(bi), n, args);
  if (bi == BI_IDENTITY)
    name = arena_printf(E->C, "k_identity_%s", emit_tysig(E, ret));
  if (bi == BI_QUAT_IDENTITY || bi == BI_TRANSFORM_IDENTITY)
    name = arena_printf(E->C, "k_%s_%s", builtin_base(bi),
                        emit_tysig(E, ret));
  if (bi == BI_CAST || bi == BI_QUAT_TO_AXIS_ANGLE ||
      bi == BI_TRANSFORM_DECOMPOSE || (bi >= BI_SVD3 && bi <= BI_EIG3))
    /* one argument type, many results */
    name = arena_printf(E->C, "%s_r%s", name, emit_tysig(E, ret));
  if (!emit_need(E, name))
    return name;
  Buf b;
  buf_init(&b, E->C);
  if (emit_extra_helper(E, &b, bi, ret, n, args, name)) {
    /* extra.c wrote it */
  } else if (bi == BI_RAND_INIT || bi == BI_RANDF || bi == BI_RANDI ||
      bi == BI_RANDN) {
    rand_helper(E, &b, bi, n, name);
  } else {
    emit_ctype(E, ret);
    for (int i = 0; i < n; i++)
      emit_ctype(E, args[i]);
    bool scalar = ret->kind == TY_SCALAR;
    for (int i = 0; i < n; i++)
      if (args[i]->kind != TY_SCALAR)
        scalar = false;
    if (bi == BI_IDENTITY || bi == BI_QUAT_IDENTITY ||
        bi == BI_TRANSFORM_IDENTITY)
      scalar = false;
    Buf body;
    buf_init(&body, E->C);
    if (scalar)
      scalar_body(E, &body, bi, ret, args);
    else
      vector_body(E, &body, bi, ret, n, args);
    open_helper(E, &b, ret, name, n, args, NULL);
    buf_puts(&b, body.p);
    buf_puts(&b, "}\n");
  }
  emit_pre(E, name, "%s", b.p);
  return name;
}

const char *emit_atomic_name(Emit *E, int bi, const Type *t) {
  if (t->kind == TY_SCALAR && emit_lowp(t))
    return emit_lowp_atomic(E, bi, t);
  const char *name = arena_printf(E->C, "k_%s_%s", builtin_names[bi],
                                  emit_tysig(E, t));
  if (emit_need(E, name)) {
    Buf b;
    buf_init(&b, E->C);
    const char *T = emit_ctype(E, t);
    if (t->kind == TY_SCALAR) {
      E->T->atomic_helper(E, &b, bi, t, name);
    } else if (E->T->id == KERN_TARGET_VULKAN) {
      /* Vectors and matrices on vulkan (no pointers, and an atomic's
       * operand must be the buffer's own lvalue): one atomic per component
       * on its address, a + k * size (Note [vulkan float atomics]). */
      const Type *st = ty_scalar(t->sc);
      const char *h = emit_atomic_name(E, bi, st);
      const char *R = emit_lowp(st) ? NULL : emit_vk_scalar_ref(E, t->sc);
      buf_printf(&b, "%s %s(uint64_t a, %s v) {\n  %s r;\n"
                     "  for (int k = 0; k < %d; k++) {\n"
                     "    uint64_t ak = a + uint64_t(k * %d);\n"
                     "    %s = %s(%s%s%s);\n  }\n  return r;\n}\n",
                 T, name, T, T, ncomp(t), sc_bits(t->sc) / 8, comp(E, "r", t), h,
                 emit_lowp(st) ? "ak" : arena_printf(E->C, "%s(ak).v[0]", R),
                 emit_vk_cas_form(st) ? ", ak" : "", arena_printf(E->C, ", %s", comp(E, "v", t)));
    } else {
      /* Vectors and matrices: one atomic per component, as in Warp. */
      const Type *st = ty_scalar(t->sc);
      const char *h = emit_atomic_name(E, bi, st);
      const char *lv = t->kind == TY_VEC
                           ? "&p->c[k]"
                           : arena_printf(E->C, "&p->m[k / %d][k %% %d]",
                                          t->cols, t->cols);
      buf_printf(&b, "%s %s %s(%s%s *p, %s v) {\n  %s r;\n"
                     "  for (int k = 0; k < %d; k++) %s = %s(%s, %s);\n"
                     "  return r;\n}\n", E->T->fn_qual, T, name, E->T->global,
                 emit_stype(E, t), T, T, ncomp(t), comp(E, "r", t), h, lv,
                 comp(E, "v", t));
    }
    emit_pre(E, name, "%s", b.p);
  }
  return name;
}

/* Helpers for constructing and taking apart vectors and matrices. */
static const char *make_helper(Emit *E, const Type *t, int nargs,
                               const Type *argt) {
  if (t->kind == TY_STRUCT)
    return struct_zero(E, t); /* S(): the only struct constructor */
  if (t->kind == TY_ARRAY) /* a local array is a view */
    return t->indexed ? emit_indexed_zero(E, t) : emit_view_zero(E, t);
  const char *sig = emit_tysig(E, t);
  const char *T = emit_ctype(E, t);
  const char *S = sc_c[t->sc];
  int N = ncomp(t);
  const char *name;
  Buf b;
  buf_init(&b, E->C);
  if (nargs == 0) {
    name = arena_printf(E->C, "k_zero_%s", sig);
    if (!emit_need(E, name))
      return name;
    buf_printf(&b, "%s %s %s(void) {\n  %s r;\n  for (int k = 0; k < %d; k++) "
                   "%s = %s;\n  return r;\n}\n", E->T->fn_qual, T, name, T, N,
               comp(E, "r", t), emit_zero(E, ty_scalar(t->sc)));
  } else if (nargs == 1 && argt->kind == TY_SCALAR) {
    name = arena_printf(E->C, "k_splat_%s", sig);
    if (!emit_need(E, name))
      return name;
    buf_printf(&b, "%s %s %s(%s s) {\n  %s r;\n  for (int k = 0; k < %d; k++) "
                   "%s = s;\n  return r;\n}\n", E->T->fn_qual, T, name, S, T,
               N, comp(E, "r", t));
  } else if (nargs == 1) {
    name = arena_printf(E->C, "k_cast_%s_%s", sig, emit_tysig(E, argt));
    if (!emit_need(E, name))
      return name;
    const char *A = emit_ctype(E, argt);
    buf_printf(&b, "%s %s %s(%s a) {\n  %s r;\n  for (int k = 0; k < %d; k++) "
                   "%s = (%s)%s;\n  return r;\n}\n", E->T->fn_qual, T, name, A,
               T, N, comp(E, "r", t), S, comp(E, "a", argt));
  } else if (argt->kind == TY_VEC) {
    /* a matrix from its rows */
    name = arena_printf(E->C, "k_rows_%s", sig);
    if (!emit_need(E, name))
      return name;
    const char *V = emit_ctype(E, argt);
    buf_printf(&b, "%s %s %s(", E->T->fn_qual, T, name);
    for (int k = 0; k < t->rows; k++)
      buf_printf(&b, "%s%s r%d", k ? ", " : "", V, k);
    buf_printf(&b, ") {\n  %s m;\n", T);
    for (int k = 0; k < t->rows; k++)
      buf_printf(&b, "  for (int j = 0; j < %d; j++) m.m[%d][j] = r%d.c[j];\n",
                 t->cols, k, k);
    buf_puts(&b, "  return m;\n}\n");
  } else {
    name = arena_printf(E->C, "k_make_%s", sig);
    if (!emit_need(E, name))
      return name;
    buf_printf(&b, "%s %s %s(", E->T->fn_qual, T, name);
    for (int k = 0; k < N; k++)
      buf_printf(&b, "%s%s x%d", k ? ", " : "", S, k);
    buf_printf(&b, ") {\n  %s r;\n", T);
    for (int k = 0; k < N; k++) {
      if (t->kind == TY_VEC)
        buf_printf(&b, "  r.c[%d] = x%d;\n", k, k);
      else
        buf_printf(&b, "  r.m[%d][%d] = x%d;\n", k / t->cols, k % t->cols, k);
    }
    buf_puts(&b, "  return r;\n}\n");
  }
  emit_pre(E, name, "%s", b.p);
  return name;
}

static const char *row_helper(Emit *E, const Type *m, bool set) {
  const Type *rt = ty_vec(E->C, m->sc, m->cols);
  const char *name = arena_printf(E->C, "k_%srow_%s", set ? "set" : "",
                                  emit_tysig(E, m));
  if (!emit_need(E, name))
    return name;
  const char *M = emit_ctype(E, m), *R = emit_ctype(E, rt);
  if (set)
    emit_pre(E, name, "%s void %s(%s *m, int64_t i, %s r) {\n"
                        "  for (int k = 0; k < %d; k++) m->m[i][k] = r.c[k];\n}\n",
               E->T->fn_qual, name, M, R, m->cols);
  else
    emit_pre(E, name, "%s %s %s(%s m, int64_t i) {\n  %s r;\n"
                        "  for (int k = 0; k < %d; k++) r.c[k] = m.m[i][k];\n"
                        "  return r;\n}\n",
               E->T->fn_qual, R, name, M, R, m->cols);
  return name;
}

/* ---------------------------------------------------------------- expressions */

bool emit_vec_array(Emit *E, IrVar *v) {
  for (int i = 0; i < E->nvec_arrays; i++)
    if (E->vec_arrays[i] == v)
      return true;
  return false;
}

const char *emit_array_data(Emit *E, IrVar *arr) {
  emit_memo_taint(E); /* the function's own names */
  if (E->f->is_kernel && arr->is_param)
    return arena_printf(E->C, "%s_d", arr->name);
  return arena_printf(E->C, "%s.data", arr->name);
}

/* Debug mode's check of one index (Note [debug mode] in ir/ir.h): the index
 * when it is within its axis, else the fault is recorded (first one wins)
 * and 0 is returned, so the access stays inside the array. */
static const char *chk_helper(Emit *E) {
  if (!emit_need(E, "k_chk"))
    return "k_chk";
  if (E->T->id == KERN_TARGET_VULKAN) {
    /* The invocation's own record, k_bad, k_fsite, k_fi and k_fn (Note
     * [debug mode on vulkan]); f, the fault array, is written once at the
     * kernel's end (emit_vk_fault_flush).  One unsigned comparison: with
     * `i >= 0 && i < n`, vector checks (n a literal) failed for every
     * index on lavapipe (Mesa 22.3, glslang 12). */
    emit_pre(E, "k_chk",
             "int64_t k_chk(kref_int64_t f, int64_t line, int64_t col, "
             "int64_t param, int64_t axis, int64_t i, int64_t n) {\n"
             "  bool bad = uint64_t(i) >= uint64_t(n), first = bad && !k_bad;\n"
             "  k_fsite = first ? (line << 40) | ((col & 0xffffl) << 24) | "
             "(((param + 0x8000l) & 0xffffl) << 8) | ((axis + 0x80l) & 0xffl) : k_fsite;\n"
             "  k_fi = first ? i : k_fi;\n  k_fn = first ? n : k_fn;\n"
             "  k_bad = k_bad || bad;\n  return bad ? 0l : i;\n}\n");
    return "k_chk";
  }
  const char *cas = emit_atomic_name(E, BI_ATOMIC_CAS, ty_scalar(KERN_SCALAR_INT64));
  const char *G = E->T->global;
  emit_pre(E, "k_chk",
             "%s int64_t k_chk(%sint64_t *f, int64_t line, int64_t col, "
             "int64_t param, int64_t axis, int64_t i, int64_t n) {\n"
             "  if (i >= 0 && i < n) return i;\n"
             "  if (%s(f, (int64_t)0, (int64_t)1) == 0) {\n"
             "    f[1] = line; f[2] = col; f[3] = param; f[4] = axis; f[5] = i; f[6] = n;\n"
             "  }\n  return 0;\n}\n", E->T->fn_qual, G, cas);
  return "k_chk";
}

/* The array's Python name in the module's table of checked arrays. */
static int fault_name_id(Emit *E, const char *name);
static int array_name_id(Emit *E, IrVar *arr) {
  const char *us = strchr(arr->name, '_');
  return fault_name_id(E, us ? us + 1 : arr->name);
}

/* Note [debug mode] for components: a run-time index into a vector or a
 * matrix row or column is checked like an array index (issue #8, item 6),
 * since an index past the end reads or writes the neighbouring stack.  Its
 * entry in the name table is the whole description, "axis 0 of vector 'v'
 * (length 3, shape (3,))", and the axis in the fault record is -1 - axis,
 * which tells the runtime to print the entry as it is (runtime/debug.c). */
static int fault_name_id(Emit *E, const char *name) {
  IrModule *m = E->m;
  /* a table and a doubling array: linear in the number of names */
  intptr_t k = (intptr_t)names_get(&m->array_name_ids, name);
  if (k)
    return (int)(k - 1);
  if (m->narray_names == m->cap_array_names) {
    int cap = m->cap_array_names ? 2 * m->cap_array_names : 16;
    const char **t = arena_alloc_keep(E->C, sizeof(char *) * (size_t)cap);
    if (m->narray_names)
      memcpy(t, m->array_names, sizeof(char *) * (size_t)m->narray_names);
    m->array_names = t;
    m->cap_array_names = cap;
  }
  name = arena_strdup_keep(E->C, name); /* Note [kernel scratch] */
  m->array_names[m->narray_names] = name;
  names_put(E->C, &m->array_name_ids, name,
            (void *)(intptr_t)(m->narray_names + 1));
  return m->narray_names++;
}

/* Debug mode's check of index idx of axis `axis` of arr, as an int32
 * (views, emit/view.c). */
void emit_checked_index(Emit *E, Buf *b, IrVar *arr, int axis, IrExpr *idx,
                        Pos pos) {
  buf_printf(b, "(int32_t)%s(k_fault.data, %d, %d, %d, %d, (int64_t)",
             chk_helper(E), pos.line, pos.col, array_name_id(E, arr), axis);
  emit_expr(E, b, idx);
  buf_printf(b, ", %s.shape[%d])", arr->name, axis);
}

/* The opening of debug mode's check of an index of axis `axis` of arr:
 * the caller appends the index, ", " and the axis length, and ")". */
void emit_check_open(Emit *E, Buf *b, IrVar *arr, int axis, Pos pos) {
  buf_printf(b, "%s(k_fault.data, %d, %d, %d, %d, (int64_t)", chk_helper(E),
             pos.line, pos.col, array_name_id(E, arr), axis);
}

void emit_index_at(Emit *E, Buf *b, IrVar *arr, IrExpr **idx, int n,
                   const Pos *pos) {
  bool dbg = pos && E->opts && E->opts->debug;
  if (arr->ty->indexed) {
    emit_indexed_offset(E, b, arr, idx, n, pos); /* indexed.c */
    return;
  }
  if (arr->ty->strided) {
    /* a view: i0 * strides[0] + i1 * strides[1] ... */
    buf_puts(b, "(");
    for (int i = 0; i < n; i++) {
      buf_puts(b, i ? " + (" : "(");
      if (dbg)
        buf_printf(b, "%s(k_fault.data, %d, %d, %d, %d, (int64_t)",
                   chk_helper(E), pos->line, pos->col, array_name_id(E, arr),
                   i);
      else
        buf_puts(b, "(int64_t)");
      emit_expr(E, b, idx[i]);
      if (dbg)
        buf_printf(b, ", %s.shape[%d])", arr->name, i);
      buf_printf(b, ") * %s.strides[%d]", arr->name, i);
    }
    buf_puts(b, ")");
    return;
  }
  /* row-major: ((i0 * s1 + i1) * s2 + i2) ... in 64-bit arithmetic */
  for (int i = 0; i < n - 1; i++)
    buf_puts(b, "(");
  for (int i = 0; i < n; i++) {
    if (i > 0)
      buf_printf(b, " * %s.shape[%d] + ", arr->name, i);
    if (dbg) {
      buf_printf(b, "%s(k_fault.data, %d, %d, %d, %d, (int64_t)", chk_helper(E),
                 pos->line, pos->col, array_name_id(E, arr), i);
      emit_expr(E, b, idx[i]);
      buf_printf(b, ", %s.shape[%d])", arr->name, i);
      if (i > 0)
        buf_puts(b, ")");
      continue;
    }
    IrExpr *x = idx[i];
    bool tid = (x->kind == E_VAR && x->var->from_tid &&
                x->var->ty->sc == KERN_SCALAR_INT32) ||
               (x->kind == E_TID && x->ival == 0);
    if (tid && E->tid_marks) { /* Note [one body, two loops] */
      buf_puts(b, "\1(int64_t)");
      emit_expr(E, b, x);
      buf_puts(b, "\2");
    } else if (tid && E->fast_tid) {
      buf_puts(b, "k_t");
    } else {
      buf_puts(b, "(int64_t)");
      emit_expr(E, b, x);
    }
    if (i > 0)
      buf_puts(b, ")");
  }
}

/* The index idx of axis `axis` (0 rows or the vector's components, 1
 * columns) of the vector or matrix `base`, checked in debug mode. */
static void emit_comp_index(Emit *E, Buf *b, IrExpr *idx, const Type *t,
                            const char *base_name, int axis, Pos pos) {
  bool dbg = E->opts && E->opts->debug && idx->kind != E_CONST;
  if (!dbg) {
    emit_expr(E, b, idx);
    return;
  }
  int len = axis == 0 ? t->rows : t->cols;
  const char *what = t->kind == TY_VEC ? "vector" : "matrix";
  const char *shape = t->kind == TY_VEC
                          ? arena_printf(E->C, "(%d,)", t->rows)
                          : arena_printf(E->C, "(%d, %d)", t->rows, t->cols);
  const char *text =
      base_name ? arena_printf(E->C, "axis %d of %s '%s' (length %d, shape %s)",
                               axis, what, base_name, len, shape)
                : arena_printf(E->C, "axis %d of a %s %s (length %d, shape %s)",
                               axis, ty_name(E->C, t), what, len, shape);
  buf_printf(b, "((int32_t)%s(k_fault.data, %d, %d, %d, %d, (int64_t)",
             chk_helper(E), pos.line, pos.col, fault_name_id(E, text),
             -1 - axis);
  emit_expr(E, b, idx);
  buf_printf(b, ", %d))", len);
}

/* The Python name of a vector or matrix operand, or NULL for a value that
 * has none (an array element, a call's result). */
static const char *comp_base_name(IrExpr *base) {
  if (base->kind != E_VAR)
    return NULL;
  const char *us = strchr(base->var->name, '_');
  return us ? us + 1 : base->var->name;
}

static const char *comp_var_name(IrVar *v) {
  const char *us = strchr(v->name, '_');
  return us ? us + 1 : v->name;
}

void emit_index(Emit *E, Buf *b, IrVar *arr, IrExpr **idx, int n) {
  emit_index_at(E, b, arr, idx, n, NULL);
}

static const char *binop_text(int op) {
  switch (op) {
  case OP_ADD: return "+";
  case OP_SUB: return "-";
  case OP_MUL: return "*";
  case OP_DIV: return "/";
  case OP_MOD: return "%"; /* integers, from the expansion (Note [scalar rules]) */
  case OP_BITAND: return "&";
  case OP_BITOR: return "|";
  case OP_BITXOR: return "^";
  case OP_SHL: return "<<";
  case OP_SHR: return ">>";
  case OP_LT: return "<";
  case OP_LE: return "<=";
  case OP_GT: return ">";
  case OP_GE: return ">=";
  case OP_EQ: return "==";
  case OP_NE: return "!=";
  }
  return "?";
}

/* Debug mode: an atomic whose pointer was checked by k_chk is skipped once
 * a fault is recorded, so a bad index never updates element 0. */
/* .f_a.f_b: the field of the array's element an atomic works on
 * (IrExpr.fpath, Note [struct tile atomics] in lower/check_tile.c). */
static void emit_field_path(Buf *b, const IrExpr *e) {
  const Type *t = e->var->ty->elem;
  for (int k = 0; k < e->nfpath; k++) {
    buf_printf(b, ".f_%s", t->fnames[e->fpath[k]]);
    t = t->items[e->fpath[k]];
  }
}

/* The address of the value atomic e works on, for vulkan's atomics by
 * address: the element's, or its field's (IrExpr.fpath) at the field's
 * byte offset in the element. */
static const char *vk_atomic_addr(Emit *E, IrExpr *e, const char *ix) {
  if (!e->nfpath)
    return emit_vk_atomic_addr(E, e->var, ix, e->ty);
  const Type *t = e->var->ty->elem;
  size_t off = 0;
  for (int k = 0; k < e->nfpath; k++) {
    off += ty_field_offset(t, e->fpath[k]);
    t = t->items[e->fpath[k]];
  }
  return arena_printf(E->C, "(uint64_t(%s.data) + uint64_t(int64_t(%s) * "
                            "%dl) + %dul)", e->var->name, ix,
                      (int)ty_size(e->var->ty->elem), (int)off);
}

static const char *dbg_atomic(Emit *E, const char *h, IrExpr *e) {
  const char *name = arena_printf(E->C, "k_dbg_%s", h + 2);
  if (!emit_need(E, name))
    return name;
  const char *T = emit_ctype(E, e->ty), *G = E->T->global;
  const char *P = emit_stype(E, e->ty);
  bool cas = e->bi == BI_ATOMIC_CAS;
  if (e->ty->kind != TY_SCALAR)
    make_helper(E, e->ty, 0, NULL);
  emit_pre(E, name, "%s %s %s(%sint64_t *f, %s%s *p, %s%s%s v) {\n"
             "  if (((volatile %sint64_t *)f)[0]) return %s;\n"
             "  return %s(p, %sv);\n}\n",
             E->T->fn_qual, T, name, G, G, P, cas ? T : "", cas ? " cmp, " : "",
             T, G, emit_zero(E, e->ty), h, cas ? "cmp, " : "");
  return name;
}

/* Note [debug mode on vulkan]: GLSL has neither pointers nor an lvalue
 * that could be chosen at run time, so the C targets' guards (take the
 * element's address, evaluating its checked index, then skip the access
 * when the fault record is set) are spelled without addresses, and the
 * record is the invocation's own until the kernel ends:
 *   - k_chk records the invocation's first fault in private variables
 *     with no memory access and no branch: k_bad, the index and length
 *     (k_fi, k_fn) and the site's line, column, parameter and axis packed
 *     into k_fsite (23, 16, 16 and 8 bits; the last two offset, as they
 *     may be negative), constants once k_chk is inlined; the kernel's last
 *     statement (emit_vk_fault_flush) claims the fault array with one
 *     compare-and-swap and copies its record there, so the first
 *     invocation to finish with a fault wins.  The checks of the C
 *     targets (a compare-and-swap on the fault array and six stores in
 *     each of them, inlined everywhere since Mesa inlines every function)
 *     made lavapipe build a checked tile kernel for over ten minutes
 *     (tile_linalg: 341 checks), and with the record kept under a branch
 *     in private variables for over nine minutes; with selects it takes
 *     22 s (spirv-val 12 s of it).  An invocation whose items are all in
 *     bounds does the same work either way;
 *   - a store evaluates its index into k_i and its value into k_v, then
 *     stores only while the invocation has no fault (so after its first
 *     fault an invocation stores nothing, while other invocations go on
 *     until their own: memory is never corrupted either way);
 *   - an atomic that a fault should skip instead gets its operation's
 *     identity as operand (x + -0.0, x & ~0, min(x, MAX), ...), chosen by
 *     k_dbg_v after the pointer's index and the value were evaluated
 *     (GLSL evaluates arguments left to right), so a bad index leaves
 *     element 0 as it was; k_dbg_r makes its result 0 as in C.  Exchange
 *     and compare-and-swap have no identity operand: they go through the
 *     element's address, skipped on a fault (vk_dbg_atomic). */
void emit_vk_fault_flush(Emit *E) {
  const char *cas = emit_atomic_name(E, BI_ATOMIC_CAS, ty_scalar(KERN_SCALAR_INT64));
  emit_line(E, "if (k_bad && %s(k_fault.data.v[0], (int64_t)0, (int64_t)1) == 0) {", cas);
  emit_line(E, "  k_fault.data.v[1] = k_fsite >> 40; k_fault.data.v[2] = (k_fsite >> 24) & 0xffffl;");
  emit_line(E, "  k_fault.data.v[3] = ((k_fsite >> 8) & 0xffffl) - 0x8000l; "
               "k_fault.data.v[4] = (k_fsite & 0xffl) - 0x80l;");
  emit_line(E, "  k_fault.data.v[5] = k_fi; k_fault.data.v[6] = k_fn;");
  emit_line(E, "}");
}

static const char *vk_dbg_helpers(Emit *E, const Type *t) {
  const char *S = emit_stype(E, t);
  const char *name = arena_printf(E->C, "k_dbg_v_%s", S);
  if (emit_need(E, name)) {
    emit_pre(E, name,
             "%s %s(kref_int64_t f, %s v, %s id) { return k_bad ? id : v; }\n"
             "%s k_dbg_r_%s(kref_int64_t f, %s r) { return k_bad ? %s : r; }\n",
             S, name, S, S, S, S, S, emit_zero(E, t));
  }
  return S;
}

static void vk_dbg_atomic(Emit *E, Buf *b, const char *h, IrExpr *e) {
  const Type *t = e->ty;
  kern_scalar sc = t->sc;
  int bits = sc_bits(sc);
  uint64_t ones = bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  uint64_t top = (uint64_t)1 << (bits - 1);
  Buf id;
  buf_init(&id, E->C);
  bool xc = e->bi == BI_ATOMIC_EXCH || e->bi == BI_ATOMIC_CAS;
  bool fl = emit_vk_cas_form(t) || (xc && (bits == 32 || bits == 64));
  Buf ix;
  buf_init(&ix, E->C);
  if (fl) {
    emit_index_at(E, &ix, e->var, e->args, e->nargs, &e->pos);
    const char *ad = vk_atomic_addr(E, e, ix.p);
    if (e->bi == BI_ATOMIC_EXCH || e->bi == BI_ATOMIC_CAS) {
      /* exchange and compare-and-swap have no identity operand: on the
       * element's address, skipped on a fault.  A float's is the loop
       * (Note [vulkan float atomics]), an integer's the atomic on its
       * bits viewed as unsigned (the same operation). */
      bool cas = e->bi == BI_ATOMIC_CAS;
      const char *T = emit_ctype(E, t);
      const char *name = arena_printf(E->C, "k_dbg_%s", h + 2);
      const char *R = emit_vk_bits_ref(E, bits), *U = bits == 64 ? "uint64_t" : "uint";
      const char *op = sc_is_float(sc)
          ? arena_printf(E->C, "%s_cas(a, %sv)", h, cas ? "c, " : "")
          : cas ? arena_printf(E->C, "%s(atomicCompSwap(%s(a).v[0], %s(c), %s(v)))", T, R, U, U)
                : arena_printf(E->C, "%s(atomicExchange(%s(a).v[0], %s(v)))", T, R, U);
      if (emit_need(E, name))
        emit_pre(E, name, "%s %s(kref_int64_t f, uint64_t a, %s%s%s v) {\n"
                          "  return k_bad ? %s : %s;\n}\n",
                 T, name, cas ? T : "", cas ? " c, " : "", T, emit_zero(E, t), op);
      buf_printf(b, "%s(k_fault.data, %s, ", name, ad);
      if (cas) {
        emit_expr(E, b, e->b);
        buf_puts(b, ", ");
      }
      emit_expr(E, b, e->c);
      buf_puts(b, ")");
      return;
    }
  }
  switch (e->bi) {
  case BI_ATOMIC_ADD: case BI_ATOMIC_SUB:
    if (sc_is_float(sc))
      emit_float(&id, t, e->bi == BI_ATOMIC_ADD ? -0.0 : 0.0, true);
    else
      emit_int(&id, t, 0);
    break;
  case BI_ATOMIC_MIN:
    if (sc_is_float(sc))
      emit_float(&id, t, INFINITY, true);
    else
      emit_int(&id, t, sc_is_signed(sc) ? top - 1 : ones);
    break;
  case BI_ATOMIC_MAX:
    if (sc_is_float(sc))
      emit_float(&id, t, -INFINITY, true);
    else
      emit_int(&id, t, sc_is_signed(sc) ? top : 0);
    break;
  case BI_ATOMIC_AND:
    emit_int(&id, t, ones);
    break;
  case BI_ATOMIC_OR: case BI_ATOMIC_XOR:
    emit_int(&id, t, 0);
    break;
  default: {
    const char *line = arena_printf(
        E->C, "#error kern: debug mode cannot check %s on vulkan yet "
              "(run unchecked)\n",
        builtin_names[e->bi]);
    if (emit_need(E, line))
      emit_pre(E, line, "%s", line);
    buf_puts(b, emit_zero(E, t));
    return;
  }
  }
  const char *S = vk_dbg_helpers(E, t);
  buf_printf(b, "k_dbg_r_%s(k_fault.data, %s(%s[", S, h,
             emit_array_data(E, e->var));
  if (fl) {
    buf_printf(b, "%s]", ix.p);
    emit_field_path(b, e);
    buf_printf(b, ", %s", vk_atomic_addr(E, e, ix.p));
  } else {
    emit_index_at(E, b, e->var, e->args, e->nargs, &e->pos);
    buf_puts(b, "]");
    emit_field_path(b, e);
  }
  buf_printf(b, ", k_dbg_v_%s(k_fault.data, ", S);
  emit_expr(E, b, e->c);
  buf_printf(b, ", %s)))", id.p);
}

static bool is_float_zero(const IrExpr *e) {
  return e->kind == E_CONST && e->ty->kind == TY_SCALAR &&
         sc_is_float(e->ty->sc) && e->fval == 0.0;
}

/* Note [vulkan constant zeros] in vulkan.c: a float scalar 0 - x as
 * k_neg0(x), x * 0 and 0 * x as k_mulz(x, 0). Writes the call and returns
 * true where e is one of them on the vulkan target. */
bool emit_vk_zero_op(Emit *E, Buf *b, IrExpr *e) {
  if (E->T->id != KERN_TARGET_VULKAN || e->kind != E_BINARY ||
      !sc_is_float(e->ty->sc) || e->ty->kind != TY_SCALAR)
    return false;
  if (e->op == OP_SUB && is_float_zero(e->a) && !signbit(e->a->fval)) {
    buf_puts(b, "k_neg0(");
    emit_expr(E, b, e->b);
    buf_puts(b, ")");
    return true;
  }
  if (e->op != OP_MUL || (!is_float_zero(e->a) && !is_float_zero(e->b)))
    return false;
  bool left = is_float_zero(e->a);
  buf_puts(b, "k_mulz(");
  emit_expr(E, b, left ? e->b : e->a);
  buf_puts(b, ", ");
  emit_expr(E, b, left ? e->a : e->b);
  buf_puts(b, ")");
  return true;
}

/* Operators, conditionals and casts: a parenthesized C expression whose
 * result is cast back to the IR type where C would promote it. */
static void emit_operator(Emit *E, Buf *b, IrExpr *e) {
  switch (e->kind) {
  case E_UNARY:
    buf_printf(b, "((%s)(%s", emit_ctype(E, e->ty),
               e->op == OP_NEG ? "0 - " : e->op == OP_INVERT ? "~" : "");
    if (e->op == OP_NEG && sc_is_float(e->ty->sc)) {
      b->len -= 4;
      b->p[b->len] = 0;
      buf_puts(b, "-");
    }
    emit_expr(E, b, e->a);
    buf_puts(b, "))");
    return;
  case E_BINARY: {
    bool cmp = e->op >= OP_LT && e->op <= OP_NE;
    /* Casting the result back keeps C's promotions of narrow integer
     * types from changing results (uint8 + uint8 wraps at 256). */
    if (!cmp)
      buf_printf(b, "((%s)", emit_ctype(E, e->ty));
    if (e->op == OP_DIV && E->T->id == KERN_TARGET_VULKAN &&
        e->ty->kind == TY_SCALAR && (e->ty->sc == KERN_SCALAR_FLOAT32 ||
                                     e->ty->sc == KERN_SCALAR_FLOAT64)) {
      /* Note [correctly rounded division and sqrt] in vulkan.c */
      buf_puts(b, "k_fdiv(");
      emit_expr(E, b, e->a);
      buf_puts(b, ", ");
      emit_expr(E, b, e->b);
      buf_puts(b, "))");
      return;
    }
    if (emit_vk_zero_op(E, b, e)) {
      buf_puts(b, ")");
      return;
    }
    buf_puts(b, "(");
    emit_expr(E, b, e->a);
    buf_printf(b, " %s ", binop_text(e->op));
    emit_expr(E, b, e->b);
    buf_puts(b, ")");
    if (!cmp)
      buf_puts(b, ")");
    return;
  }
  case E_AND:
  case E_OR:
    buf_puts(b, "(");
    emit_expr(E, b, e->a);
    buf_puts(b, e->kind == E_AND ? " && " : " || ");
    emit_expr(E, b, e->b);
    buf_puts(b, ")");
    return;
  case E_NOT:
    buf_puts(b, "(!");
    emit_expr(E, b, e->a);
    buf_puts(b, ")");
    return;
  case E_SELECT:
    buf_puts(b, "(");
    emit_expr(E, b, e->a);
    buf_puts(b, " ? ");
    emit_expr(E, b, e->b);
    buf_puts(b, " : ");
    emit_expr(E, b, e->c);
    buf_puts(b, ")");
    return;
  case E_CAST:
    if (e->ty->kind != TY_SCALAR) {
      buf_printf(b, "%s(", make_helper(E, e->ty, 1, e->a->ty));
      emit_expr(E, b, e->a);
      buf_puts(b, ")");
      return;
    }
    if (e->ty->sc == KERN_SCALAR_BOOL) {
      buf_puts(b, "((");
      emit_expr(E, b, e->a);
      buf_puts(b, ") != 0)");
      return;
    }
    buf_printf(b, "((%s)(", emit_ctype(E, e->ty));
    if (E->T->id == KERN_TARGET_VULKAN && e->a->ty->kind == TY_SCALAR &&
        e->a->ty->sc == KERN_SCALAR_FLOAT64 && (e->ty->sc == KERN_SCALAR_INT64 ||
                                      e->ty->sc == KERN_SCALAR_UINT64)) {
      /* Note [vulkan float to int64] in vulkan.c */
      buf_puts(b, "k_trunc(");
      emit_expr(E, b, e->a);
      buf_puts(b, ")))");
      return;
    }
    emit_expr(E, b, e->a);
    buf_puts(b, "))");
    return;
  default:
    break;
  }
}

/* BI_XCHG_PUT and BI_XCHG_GET: the block's exchange buffer k_xbuf, which
 * the kernel declares (emit_xchg_buffer; Note [block exchange] in
 * lower/check_tile.c). */
static void emit_xchg(Emit *E, Buf *b, IrExpr *e) {
  bool ocl = E->T->id == KERN_TARGET_OPENCL;
  if (!ocl && E->T->id != KERN_TARGET_CUDA)
    diag_error(E->C, e->pos, "internal: a block exchange for a target "
                             "without blocks");
  bool put = e->bi == BI_XCHG_PUT;
  const char *bar = ocl ? "barrier(CLK_LOCAL_MEM_FENCE)" : "__syncthreads()";
  const char *T = emit_ctype(E, put ? e->args[0]->ty : e->ty);
  buf_printf(b, "(%s%s((%s%s *)(k_xbuf + %d))[", put ? bar : "",
             put ? ", " : "", ocl ? "__local " : "", T, (int)e->ival);
  if (put)
    buf_puts(b, ocl ? "get_local_id(0)" : "threadIdx.x");
  else
    emit_expr(E, b, e->args[0]);
  buf_puts(b, "]");
  if (put) {
    buf_puts(b, " = ");
    emit_expr(E, b, e->args[0]);
    buf_printf(b, ", %s", bar);
  }
  buf_puts(b, ")");
}

void emit_xchg_buffer(Emit *E, IrFunc *f) {
  if (!f->uses_xchg)
    return;
  if (E->T->id == KERN_TARGET_OPENCL)
    emit_line(E, "__local unsigned char k_xbuf[%d] "
                 "__attribute__((aligned(16)));", E->C->xbuf);
  else if (E->C->xbuf > KERN_CUDA_STATIC_SHARED)
    /* over the 48 KiB a kernel may declare: the launch asks for it
     * (kc_kernel.dyn_smem, runtime/cuda_module.c) */
    emit_line(E, "extern __shared__ __align__(16) unsigned char k_xbuf[]; "
                 "/* %d bytes */", E->C->xbuf);
  else
    emit_line(E, "__shared__ __align__(16) unsigned char k_xbuf[%d];",
              E->C->xbuf);
}

/* Calls of builtins (through their helpers), of user functions and of
 * the vector and matrix constructors. */
static void emit_call(Emit *E, Buf *b, IrExpr *e) {
  switch (e->kind) {
  case E_CALL: {
    if (e->bi == BI_FIXED_ZEROS || e->bi == BI_FIXED_COPY) {
      emit_fixed_call(E, b, e); /* fixed.c */
      return;
    }
    if (e->bi == BI_XCHG_PUT || e->bi == BI_XCHG_GET) {
      emit_xchg(E, b, e);
      return;
    }
    if (e->bi == BI_TILE_SOLO) { /* lower/check_tile.c */
      /* CUDA and OpenCL compiled for no block size (kc_options.block):
       * the runtime refuses the module (kc_result.no_gpu), and the code
       * says so */
      if ((E->T->id == KERN_TARGET_CUDA || E->T->id == KERN_TARGET_OPENCL) &&
          emit_need(E, "kern_no_gpu"))
        emit_pre(E, "kern_no_gpu", "#error kern: %s collects the values of "
                 "the threads of a block (compile the module for the "
                 "launch's block size)\n",
                 E->C->solo_what ? E->C->solo_what : "wp.tile");
      buf_puts(b, "((int32_t)0)");
      return;
    }
    if (e->bi == BI_TILE_LANE) { /* lower/check_tile.c */
      buf_puts(b, E->T->id == KERN_TARGET_CUDA ? "((int32_t)threadIdx.x)"
                  : E->T->id == KERN_TARGET_OPENCL ? "((int32_t)get_local_id(0))"
                  : "((int32_t)0)");
      return;
    }
    bool rnd = builtin_draws(e->bi);
    const Type *at[8]; /* wp.pnoise and wp.intersect_tri_tri take 6 */
    if (e->nargs > 8)
      diag_error(E->C, e->pos, "internal: a builtin call with %d arguments",
                 e->nargs);
    for (int i = 0; i < e->nargs; i++)
      at[i] = e->args[i]->ty;
    const char *h = emit_helper(E, e->bi, e->ty, e->nargs, at);
    buf_printf(b, "%s(", h);
    for (int i = 0; i < e->nargs; i++) {
      if (i)
        buf_puts(b, ", ");
      if (i == 0 && rnd)
        buf_puts(b, "&");
      emit_expr(E, b, e->args[i]);
    }
    buf_puts(b, ")");
    return;
  }
  case E_FCALL:
    buf_printf(b, "%s(", e->fn->symbol);
    for (int i = 0; i < e->nargs; i++) {
      if (i)
        buf_puts(b, ", ");
      emit_expr(E, b, e->args[i]);
    }
    if (E->opts && E->opts->debug)
      buf_printf(b, "%sk_fault", e->nargs ? ", " : "");
    for (int i = 0; i < e->nouts; i++)
      buf_printf(b, "%s&%s", e->nargs || i || (E->opts && E->opts->debug)
                                 ? ", " : "", e->outs[i]->name);
    if (e->fn->nrets > 1 && e->nouts == 0)
      for (int i = 1; i < e->fn->nrets; i++) {
        const char *sep = e->nargs || i > 1 || (E->opts && E->opts->debug)
                              ? ", " : "";
        if (E->T->id == KERN_TARGET_VULKAN) {
          /* Note [vulkan tuple results]: a sink, not a null pointer */
          const char *T = emit_ctype(E, e->fn->rets[i]);
          const char *sink = arena_printf(E->C, "k_sink_%s",
                                          emit_tysig(E, e->fn->rets[i]));
          if (emit_need(E, sink))
            emit_pre(E, sink, "%s %s;\n", T, sink);
          buf_printf(b, "%s%s", sep, sink);
        } else
          buf_printf(b, "%s(%s *)0", sep, emit_ctype(E, e->fn->rets[i]));
      }
    /* wp.ref parameters: the caller's variables, written back at return */
    for (int i = 0; i < e->nrefs; i++)
      buf_printf(b, ", &%s", e->refs[i]->name);
    buf_puts(b, ")");
    return;
  case E_MAKE: {
    const char *h = make_helper(E, e->ty, e->nargs,
                                e->nargs ? e->args[0]->ty : NULL);
    buf_printf(b, "%s(", h);
    for (int i = 0; i < e->nargs; i++) {
      if (i)
        buf_puts(b, ", ");
      emit_expr(E, b, e->args[i]);
    }
    buf_puts(b, ")");
    return;
  }
  default:
    break;
  }
}

/* Reads and atomic updates of array elements, array shapes, struct fields
 * and vector or matrix components. */
static void emit_access(Emit *E, Buf *b, IrExpr *e) {
  switch (e->kind) {
  case E_LOAD:
    if (E->vec_lane >= 0 && emit_vec_array(E, e->var)) {
      buf_printf(b, "k_v_%s.c[%d]", e->var->name, E->vec_lane);
      return;
    }
    /* Note [vulkan bool memory]: the value form, but for the element
     * whose field S_SETFIELD stores (E->vk_raw, this load only) */
    bool conv = emit_lowp(e->ty) || (emit_vk_boolmem(E, e->ty) && !E->vk_raw);
    const char *given = E->vk_index;
    E->vk_raw = false;
    E->vk_index = NULL;
    if (emit_lowp(e->ty))
      buf_printf(b, "%s(", emit_lowp_mem(E, e->ty, true));
    else if (conv)
      buf_printf(b, "%s(", emit_vk_conv(E, e->ty, true));
    buf_printf(b, "%s[", emit_array_data(E, e->var));
    if (given)
      buf_puts(b, given);
    else
      emit_index_at(E, b, e->var, e->args, e->nargs, &e->pos);
    buf_puts(b, conv ? "])" : "]");
    return;
  case E_SHAPE:
    if (e->ival == IR_NONNULL) {
      /* GLSL compares a buffer reference only as its uint64_t address */
      if (E->T->id == KERN_TARGET_VULKAN)
        buf_printf(b, "(uint64_t(%s.data) != 0ul)", e->var->name);
      else
        buf_printf(b, "(%s != 0)", emit_array_data(E, e->var));
      return;
    }
    buf_printf(b, "((%s)%s.shape[%d])", emit_ctype(E, e->ty), e->var->name,
               (int)e->ival);
    return;
  case E_FIELD:
    if (e->ty->kind == TY_ARRAY) {
      buf_printf(b, "%s((", e->ty->indexed ? emit_indexed_from_warp(E, e->ty)
                                           : warp_array_read(E, e->ty));
      emit_expr(E, b, e->a);
      buf_printf(b, ").f_%s)", e->a->ty->fnames[e->ival]);
      return;
    }
    buf_puts(b, "(");
    emit_expr(E, b, e->a);
    buf_printf(b, ").f_%s", e->a->ty->fnames[e->ival]);
    return;
  case E_COMP:
    if (e->a->ty->kind == TY_MAT && !e->c) {
      buf_printf(b, "%s(", row_helper(E, e->a->ty, false));
      emit_expr(E, b, e->a);
      buf_puts(b, ", ");
      emit_comp_index(E, b, e->b, e->a->ty, comp_base_name(e->a), 0, e->pos);
      buf_puts(b, ")");
      return;
    }
    buf_puts(b, "(");
    emit_expr(E, b, e->a);
    buf_puts(b, e->a->ty->kind == TY_MAT ? ").m[" : ").c[");
    emit_comp_index(E, b, e->b, e->a->ty, comp_base_name(e->a), 0, e->pos);
    buf_puts(b, "]");
    if (e->c) {
      buf_puts(b, "[");
      emit_comp_index(E, b, e->c, e->a->ty, comp_base_name(e->a), 1, e->pos);
      buf_puts(b, "]");
    }
    return;
  case E_ATOMIC: {
    const char *h = emit_atomic_name(E, e->bi, e->ty);
    bool vlow = E->T->id == KERN_TARGET_VULKAN && e->ty->kind == TY_SCALAR &&
                emit_lowp(e->ty);
    if (E->opts && E->opts->debug && E->T->id == KERN_TARGET_VULKAN &&
        e->ty->kind == TY_SCALAR && !vlow) {
      vk_dbg_atomic(E, b, h, e);
      return;
    }
    if (E->T->id == KERN_TARGET_VULKAN && (e->ty->kind != TY_SCALAR || vlow)) {
      /* on the element's address; skipped after a fault in debug mode */
      Buf ix;
      buf_init(&ix, E->C);
      emit_index_at(E, &ix, e->var, e->args, e->nargs, &e->pos);
      if (E->opts && E->opts->debug) {
        /* a 16-bit float's atomic works on a float value */
        const char *T = vlow ? "float" : emit_ctype(E, e->ty);
        const char *name = arena_printf(E->C, "k_dbg_%s", h + 2);
        if (emit_need(E, name))
          emit_pre(E, name, "%s %s(kref_int64_t f, uint64_t a, %s v) {\n"
                            "  return k_bad ? %s : %s(a, v);\n}\n",
                   T, name, T, vlow ? "0.0f" : emit_zero(E, e->ty), h);
        buf_printf(b, "%s(k_fault.data, ", name);
      } else {
        buf_printf(b, "%s(", h);
      }
      buf_printf(b, "%s, ", vk_atomic_addr(E, e, ix.p));
      emit_expr(E, b, e->c);
      buf_puts(b, ")");
      return;
    }
    if (E->opts && E->opts->debug)
      h = dbg_atomic(E, h, e);
    buf_printf(b, "%s(%s&%s[", h, E->opts && E->opts->debug ? "k_fault.data, " : "",
               emit_array_data(E, e->var));
    if (E->T->id == KERN_TARGET_VULKAN && emit_vk_cas_form(e->ty)) {
      /* the element's address too (Note [vulkan float atomics]) */
      Buf ix;
      buf_init(&ix, E->C);
      emit_index_at(E, &ix, e->var, e->args, e->nargs, &e->pos);
      buf_printf(b, "%s]", ix.p);
      emit_field_path(b, e);
      buf_printf(b, ", %s, ", vk_atomic_addr(E, e, ix.p));
    } else {
      emit_index_at(E, b, e->var, e->args, e->nargs, &e->pos);
      buf_puts(b, "]");
      emit_field_path(b, e);
      buf_puts(b, ", ");
    }
    if (e->b) {
      emit_expr(E, b, e->b);
      buf_puts(b, ", ");
    }
    emit_expr(E, b, e->c);
    buf_puts(b, ")");
    return;
  }
  default:
    break;
  }
}

void emit_expr(Emit *E, Buf *b, IrExpr *e) {
  if (emit_lowp_expr(E, b, e))
    return;
  switch (e->kind) {
  case E_CONST:
    if (sc_is_float(e->ty->sc))
      emit_float(b, e->ty, e->fval, E->T->id == KERN_TARGET_VULKAN);
    else if (e->ty->sc == KERN_SCALAR_BOOL && E->T->id == KERN_TARGET_VULKAN)
      buf_puts(b, e->ival ? "true" : "false"); /* GLSL's bool is no int */
    else
      emit_int(b, e->ty, e->ival);
    return;
  case E_VAR:
    buf_puts(b, e->var->name);
    return;
  case E_TID:
    buf_printf(b, "k_tid%d", (int)e->ival);
    return;
  case E_UNARY: case E_BINARY: case E_AND: case E_OR: case E_NOT:
  case E_SELECT: case E_CAST:
    emit_operator(E, b, e);
    return;
  case E_CALL: case E_FCALL: case E_MAKE:
    emit_call(E, b, e);
    return;
  case E_LOAD: case E_SHAPE: case E_FIELD: case E_COMP: case E_ATOMIC:
    emit_access(E, b, e);
    return;
  case E_VIEW:
    emit_view(E, b, e);
    return;
  case E_ADDR:
    emit_address(E, b, e);
    return;
  }
}

/* ---------------------------------------------------------------- statements */

/* A line has no length limit: a sum of many terms or a kernel with many
 * parameters is one line, and cutting it would emit broken code. */
void emit_line(Emit *E, const char *fmt, ...) {
  static const char spaces[] = "                                "
                               "                                ";
  va_list ap;
  va_start(ap, fmt);
  /* the indentation in one piece: a call per level was 3% of kern synth */
  for (int i = E->indent; i > 0; i -= 32)
    buf_putn(&E->out, spaces, 2 * (size_t)(i < 32 ? i : 32));
  buf_vprintf(&E->out, fmt, ap);
  va_end(ap);
  buf_putn(&E->out, "\n", 1);
}

static const char *ex(Emit *E, IrExpr *e) {
  Buf b;
  buf_init(&b, E->C);
  emit_expr(E, &b, e);
  return b.p;
}

/* Note [printf integer widths]: every integer reaches the target's printf
 * widened to 64 bits, so one length modifier serves all types.  Widening
 * must not change what C's printf would show for the value as Warp passes
 * it (an int32 as an int): an int32 of -5 printed with "%x" is fffffffb,
 * not the 64-bit fffffffffffffffb that a plain (unsigned long long) cast
 * gives.  So the value is first converted to the type the conversion
 * reads -- signed or unsigned as the conversion letter says, as wide as
 * the value, or narrower where the user wrote "h" or "hh" -- and only then
 * widened. */
static const char *printf_int_cast(Emit *E, kern_scalar sc, const char *fmt,
                                   const FmtSpec *sp, bool sgn) {
  int bits = sc_bits(sc);
  if (bits < 8)
    bits = 8;
  if (sp->length_len == 2 && fmt[sp->body_end] == 'h')
    bits = 8;
  else if (sp->length_len == 1 && fmt[sp->body_end] == 'h' && bits > 16)
    bits = 16;
  bool ocl = E->T->id == KERN_TARGET_OPENCL;
  if (E->T->id == KERN_TARGET_VULKAN) { /* GLSL's sized types */
    const char *W = sgn ? "int64_t" : "uint64_t";
    if (bits == 64)
      return arena_printf(E->C, "(%s)", W);
    return arena_printf(E->C, "(%s)(%sint%d_t)", W, sgn ? "" : "u", bits);
  }
  static const char *const c_s[] = {"signed char", "short", "int", "long long"};
  static const char *const c_u[] = {"unsigned char", "unsigned short",
                                    "unsigned int", "unsigned long long"};
  static const char *const cl_s[] = {"char", "short", "int", "long"};
  static const char *const cl_u[] = {"uchar", "ushort", "uint", "ulong"};
  int w = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
  const char *narrow = sgn ? (ocl ? cl_s : c_s)[w] : (ocl ? cl_u : c_u)[w];
  const char *wide = sgn ? (ocl ? "long" : "long long")
                         : (ocl ? "ulong" : "unsigned long long");
  if (w == 3)
    return arena_printf(E->C, "(%s)", wide);
  return arena_printf(E->C, "(%s)(%s)", wide, narrow);
}

static void emit_printf(Emit *E, IrStmt *s) {
  Buf f, a;
  buf_init(&f, E->C);
  buf_init(&a, E->C);
  if (!s->str) {
    IrExpr *v = s->args[0];
    const Type *t = v->ty;
    int n = ncomp(t);
    const char *conv = sc_is_float(t->sc) ? "%g" : sc_is_signed(t->sc)
                       ? arena_printf(E->C, "%%%sd", E->T->int64_fmt)
                       : arena_printf(E->C, "%%%su", E->T->int64_fmt);
    const char *cast = sc_is_float(t->sc) ? "(double)" : sc_is_signed(t->sc)
                       ? "(long long)" : "(unsigned long long)";
    if (E->T->id == KERN_TARGET_VULKAN)
      cast = sc_is_float(t->sc) ? "(double)" : sc_is_signed(t->sc)
             ? "(int64_t)" : "(uint64_t)";
    if (E->T->id == KERN_TARGET_OPENCL)
      cast = sc_is_float(t->sc) ? (t->sc == KERN_SCALAR_FLOAT64 ? "(double)"
                                                         : "(float)")
             : sc_is_signed(t->sc) ? "(long)" : "(ulong)";
    const char *val = ex(E, v);
    if (n > 1)
      buf_puts(&f, "[");
    for (int k = 0; k < n; k++) {
      buf_printf(&f, "%s%s", k ? " " : "", conv);
      if (t->kind == TY_SCALAR)
        buf_printf(&a, ", %s%s", cast, val);
      else if (t->kind == TY_VEC)
        buf_printf(&a, ", %s(%s).c[%d]", cast, val, k);
      else
        buf_printf(&a, ", %s(%s).m[%d][%d]", cast, val, k / t->cols,
                   k % t->cols);
    }
    if (n > 1)
      buf_puts(&f, "]");
    buf_puts(&f, "\\n");
  } else {
    /* The format was checked by fmt_parse() (lower/check.c); the same
     * function splits it here, so what is emitted is what was checked.
     * Text between conversions goes through emit_quote() like all user
     * text. */
    int argi = 0, lit = 0;
    for (int k = 0; k < s->slen; k++) {
      char c = s->str[k];
      if (c != '%')
        continue;
      emit_quote(&f, s->str + lit, (size_t)(k - lit));
      FmtSpec sp;
      if (!fmt_parse(s->str, s->slen, k, &sp))
        diag_error(E->C, s->pos, "internal: unchecked printf format (%s)",
                   sp.error);
      k = sp.end - 1;
      lit = sp.end;
      if (sp.conv == '%') {
        buf_puts(&f, "%%");
        continue;
      }
      char conv = sp.conv;
      IrExpr *v = s->args[argi++];
      buf_puts(&f, "%");
      emit_quote(&f, s->str + sp.body_start,
                 (size_t)(sp.body_end - sp.body_start));
      if (sp.is_float) {
        buf_putn(&f, &conv, 1);
        buf_printf(&a, ", %s%s", E->T->id == KERN_TARGET_OPENCL &&
                                     (v->ty->sc == KERN_SCALAR_FLOAT32 ||
                                      sc_is_lowp(v->ty->sc))
                                     ? "(float)" : "(double)", ex(E, v));
      } else {
        bool sgn = conv == 'd' || conv == 'i';
        buf_printf(&f, "%s%c", conv == 'c' ? "" : E->T->int64_fmt, conv);
        if (conv == 'c')
          buf_printf(&a, ", (int%s)%s", E->T->id == KERN_TARGET_VULKAN ? "32_t" : "",
                     ex(E, v));
        else
          buf_printf(&a, ", %s%s", printf_int_cast(E, v->ty->sc, s->str, &sp,
                                                   sgn), ex(E, v));
      }
    }
    emit_quote(&f, s->str + lit, (size_t)(s->slen - lit));
  }
  emit_line(E, "printf(\"%s\"%s);", f.p ? f.p : "", a.p ? a.p : "");
}

static void emit_stmts(Emit *E, IrStmt *s);
static void emit_kret_check(Emit *E);
static void emit_ref_stores(Emit *E);

/* Note [quoting user text]: text the user chose -- the module's path or
 * name, wp.printf() formats -- enters the generated code only through
 * emit_quote(), for every target.  C, OpenCL C and CUDA C++ share the
 * grammar of string literals and comments, so one function serves all
 * three, and its output is safe in both places: bytes outside a short list
 * of harmless ASCII characters become three-digit octal escapes, so the
 * output never holds a quote, a backslash that is not an escape, a
 * newline, a '*' (which could close a comment) or a '?' (which could start
 * a trigraph: "??/" is a backslash to a compiler that translates them, as
 * `cc -std=c11` and OpenCL C compilers do).  Three digits always end an
 * octal escape, so a following digit cannot extend it.  Escaping every
 * other byte, rather than only the dangerous ones, keeps the rule short
 * enough to check by eye; tests/emit/test_text.c checks it over all 256
 * byte values with the real compiler, and fuzz/fuzz_roundtrip.c fuzzes it.
 * Identifiers need no quoting: the lexer admits only ASCII letters, digits
 * and '_' in names, and every name is emitted with a prefix (ir_var,
 * check.c's kern_k_ / kern_f_ symbols) that keeps it clear of C keywords,
 * macros and the prelude's k_ names.
 *
 * The one exception is by design: a @wp.func_native snippet is C, CUDA or
 * OpenCL text that the user wrote to be compiled as it is, so it goes into
 * the program verbatim, with its parameters under their Python names
 * (check_native.c refuses keywords and kern's prefixes among them).  It is
 * native code with the process's rights, like Warp's; emit/native.c
 * (Note [snippet containment]) places it where a malformed snippet can
 * only fail to compile, and kern_options.no_native (`--no-native`) refuses
 * snippets for services that compile files they do not trust. */
void emit_quote(Buf *b, const char *s, size_t n) {
  static const char plain[] = " !#%&'()+,-./:;<=>[]^_{|}~";
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || (c && strchr(plain, c)))
      buf_putn(b, (const char *)&s[i], 1);
    else if (c == '\n')
      buf_puts(b, "\\n"); /* the common ones stay readable */
    else if (c == '\t')
      buf_puts(b, "\\t");
    else
      buf_printf(b, "\\%03o", c);
  }
}

/* s quoted by emit_quote, in the arena. */
static const char *quoted(Emit *E, const char *s) {
  Buf b;
  buf_init(&b, E->C);
  emit_quote(&b, s, strlen(s));
  return b.p ? b.p : "";
}

/* Note [#line paths]: the compiler decodes the path of a #line directive
 * and copies it into its debug information.  NVRTC writes it raw into the
 * PTX `.file` directive, which ptxas parses again, so a newline, quote or
 * '#' in a path breaks the PTX (and could smuggle PTX in).  emit_quote()
 * keeps the C literal safe, not what it decodes to; so #line paths keep
 * only bytes from a conservative set and spell every other byte %XX. */
static const char *line_path(Emit *E, const char *s) {
  Buf b;
  buf_init(&b, E->C);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || (c && strchr("_./+-", c)))
      buf_putn(&b, s, 1);
    else
      buf_printf(&b, "%%%02X", c);
  }
  return b.p ? b.p : "";
}

const char *emit_line_path(Emit *E, const char *s) { return line_path(E, s); }

static void emit_stmt(Emit *E, IrStmt *s) {
  switch (s->kind) {
  case S_ASSIGN:
    emit_line(E, "%s = %s;", s->var->name, ex(E, s->a));
    return;
  case S_SETFIELD:
    if (s->a->kind == E_FIELD && s->a->ty->kind == TY_ARRAY) {
      /* an array field: Warp's descriptor of the array value (Note [array
       * fields in kernels]) */
      const char *lhs = arena_printf(E->C, "(%s).f_%s", ex(E, s->a->a),
                                     s->a->a->ty->fnames[s->a->ival]);
      const char *val = arena_printf(E->C, "%s(%s)",
                                     warp_array_write(E, s->a->ty), ex(E, s->c));
      if (s->var->ty->kind == TY_ARRAY && E->opts && E->opts->debug) {
        const char *T = warp_array_ctype(E, s->a->ty);
        emit_line(E, "{ %s%s *k_p = &%s; %s k_v = %s; "
                     "if (!((volatile %sint64_t *)k_fault.data)[0]) *k_p = k_v; }",
                  E->T->global, T, lhs, T, val, E->T->global);
        return;
      }
      emit_line(E, "%s = %s;", lhs, val);
      return;
    }
    /* Note [store paths] in lower/check_stmt.c.  Through an array element
     * in debug mode the store is skipped after a fault, like S_STORE's. */
    if (s->var->ty->kind == TY_ARRAY && E->T->id == KERN_TARGET_VULKAN &&
        E->opts && E->opts->debug) {
      /* Note [debug mode on vulkan]: the element's index first (it may
       * record a fault), then the value, then the store while the record
       * is clear, through the path with that index (E->vk_index) */
      IrExpr *root = s->a;
      while (root->kind == E_FIELD || root->kind == E_COMP)
        root = root->a;
      Buf idx;
      buf_init(&idx, E->C);
      emit_index_at(E, &idx, root->var, root->args, root->nargs, &root->pos);
      const char *val = ex(E, s->c);
      const char *T = emit_ctype(E, s->a->ty);
      if (emit_vk_boolmem(E, s->a->ty)) {
        val = arena_printf(E->C, "%s(%s)", emit_vk_conv(E, s->a->ty, false), val);
        T = emit_vk_memtype(E, s->a->ty);
      }
      E->vk_raw = emit_vk_boolmem(E, s->var->ty->elem);
      E->vk_index = "k_i";
      const char *lhs = ex(E, s->a);
      E->vk_raw = false;
      E->vk_index = NULL;
      emit_line(E, "{ int64_t k_i = %s; %s k_v = %s; "
                   "if (!k_bad) %s = k_v; }", idx.p, T, val, lhs);
      return;
    }
    if (s->var->ty->kind == TY_ARRAY && emit_vk_boolmem(E, s->var->ty->elem)) {
      /* Note [vulkan bool memory]: the memory form's field, in place */
      E->vk_raw = true;
      const char *lhs = ex(E, s->a);
      E->vk_raw = false;
      const char *val = ex(E, s->c);
      if (emit_vk_boolmem(E, s->a->ty))
        val = arena_printf(E->C, "%s(%s)", emit_vk_conv(E, s->a->ty, false), val);
      emit_line(E, "%s = %s;", lhs, val);
      return;
    }
    if (s->var->ty->kind == TY_ARRAY && E->opts && E->opts->debug) {
      const char *T = emit_ctype(E, s->a->ty);
      emit_line(E, "{ %s%s *k_p = &%s; %s k_v = %s; "
                   "if (!((volatile %sint64_t *)k_fault.data)[0]) *k_p = k_v; }",
                emit_array_space(E, s->var->ty), T, ex(E, s->a), T,
                ex(E, s->c), E->T->global);
      return;
    }
    emit_line(E, "%s = %s;", ex(E, s->a), ex(E, s->c));
    return;
  case S_SETCOMP: {
    /* the indices, checked in debug mode (a fault sets component 0) */
    const char *vn = comp_var_name(s->var);
    Buf i0, i1;
    buf_init(&i0, E->C);
    buf_init(&i1, E->C);
    emit_comp_index(E, &i0, s->a, s->var->ty, vn, 0, s->pos);
    if (s->b)
      emit_comp_index(E, &i1, s->b, s->var->ty, vn, 1, s->pos);
    if (s->var->ty->kind == TY_MAT && !s->b) {
      emit_line(E, "%s(&%s, %s, %s);", row_helper(E, s->var->ty, true),
                s->var->name, i0.p, ex(E, s->c));
      return;
    }
    if (s->var->ty->kind == TY_MAT)
      emit_line(E, "%s.m[%s][%s] = %s;", s->var->name, i0.p, i1.p,
                ex(E, s->c));
    else
      emit_line(E, "%s.c[%s] = %s;", s->var->name, i0.p, ex(E, s->c));
    return;
  }
  case S_STORE: {
    if (E->vec_lane >= 0 && emit_vec_array(E, s->var)) {
      emit_line(E, "k_v_%s.c[%d] = %s;", s->var->name, E->vec_lane,
                ex(E, s->c));
      return;
    }
    Buf b;
    buf_init(&b, E->C);
    emit_index_at(E, &b, s->var, s->args, s->nargs, &s->pos);
    const Type *et = s->var->ty->elem;
    /* a 16-bit element is stored as its bits (Note [16-bit floats]) */
    const char *val = emit_lowp(et) ? emit_lowp_stored(E, et, s->c) : ex(E, s->c);
    if (emit_vk_boolmem(E, et)) /* Note [vulkan bool memory] */
      val = arena_printf(E->C, "%s(%s)", emit_vk_conv(E, et, false), val);
    if (E->opts && E->opts->debug && E->T->id == KERN_TARGET_VULKAN) {
      /* Note [debug mode on vulkan] */
      const char *T = emit_stype(E, et);
      emit_line(E, "{ int64_t k_i = %s; %s k_v = %s; "
                   "if (!k_bad) %s[k_i] = k_v; }",
                b.p, T, val, emit_array_data(E, s->var));
      return;
    }
    if (E->opts && E->opts->debug) {
      /* the index first (it may record a fault), then the guarded store */
      const char *T = emit_stype(E, et);
      emit_line(E, "{ %s%s *k_p = &%s[%s]; %s k_v = %s; "
                   "if (!((volatile %sint64_t *)k_fault.data)[0]) *k_p = k_v; }",
                emit_array_space(E, s->var->ty), T,
                emit_array_data(E, s->var), b.p, T, val, E->T->global);
      return;
    }
    emit_line(E, "%s[%s] = %s;", emit_array_data(E, s->var), b.p, val);
    return;
  }
  case S_EXPR:
    emit_line(E, "(void)%s;", ex(E, s->a));
    return;
  case S_IF:
    emit_line(E, "if (%s) {", ex(E, s->a));
    E->indent++;
    emit_stmts(E, s->body);
    E->indent--;
    if (s->orelse) {
      emit_line(E, "} else {");
      E->indent++;
      emit_stmts(E, s->orelse);
      E->indent--;
    }
    emit_line(E, "}");
    return;
  case S_FOR: {
    const char *v = s->var->name;
    const char *step = ex(E, s->c);
    const char *cond;
    if (s->c->kind == E_CONST)
      cond = arena_printf(E->C, "%s %s %s", v,
                          (int64_t)s->c->ival > 0 || !sc_is_signed(s->c->ty->sc)
                              ? "<" : ">", ex(E, s->b));
    else
      cond = arena_printf(E->C, "(%s > 0 ? %s < %s : %s > %s)", step, v,
                          ex(E, s->b), v, ex(E, s->b));
    emit_line(E, "for (%s = %s; %s; %s = (%s)(%s + %s)) {", v, ex(E, s->a),
              cond, v, emit_ctype(E, s->var->ty), v, step);
    E->indent++;
    E->loop_depth++;
    emit_stmts(E, s->body);
    E->loop_depth--;
    E->indent--;
    emit_line(E, "}");
    emit_kret_check(E);
    return;
  }
  case S_WHILE:
    emit_line(E, "while (%s) {", ex(E, s->a));
    E->indent++;
    E->loop_depth++;
    emit_stmts(E, s->body);
    E->loop_depth--;
    E->indent--;
    emit_line(E, "}");
    emit_kret_check(E);
    return;
  case S_BREAK:
    emit_line(E, "break;");
    return;
  case S_CONTINUE:
    emit_line(E, "continue;");
    return;
  case S_RETURN:
    emit_ref_stores(E);
    if (s->nargs > 1) {
      /* Note [vulkan tuple results]: a user function's further results
       * go out through pointers, null where the caller drops them. GLSL
       * has neither: they are inout parameters there, and a caller that
       * drops them passes a private global of the type (k_sink_SIG,
       * E_CALL), so the store is unconditional. */
      for (int i = 1; i < s->nargs; i++)
        if (E->T->id == KERN_TARGET_VULKAN)
          emit_line(E, "*k_out%d = %s;", i, ex(E, s->args[i]));
        else
          emit_line(E, "if (k_out%d) *k_out%d = %s;", i, i, ex(E, s->args[i]));
      emit_line(E, "return %s;", ex(E, s->args[0]));
    } else if (s->a) {
      emit_line(E, "return %s;", ex(E, s->a));
    } else {
      emit_line(E, "return;");
    }
    return;
  case S_KRETURN:
    if (E->loop_depth > 0 && E->kret_flag)
      emit_line(E, "{ k_kret = 1; break; }");
    else if (E->loop_depth > 0)
      emit_line(E, "goto k_next%d;", E->loop_id);
    else
      emit_line(E, "continue;");
    return;
  case S_AGG:
    if (s->agg->bi == BI_ATOMIC_ADD)
      emit_line(E, "k_agg%d += %s;", s->agg->id, ex(E, s->a));
    else
      emit_line(E, "k_agg%d = %s(k_agg%d, %s);", s->agg->id,
                emit_helper(E, s->agg->bi == BI_ATOMIC_MIN ? BI_MIN : BI_MAX,
                            s->agg->ty, 2,
                            (const Type *[]){s->agg->ty, s->agg->ty}),
                s->agg->id, ex(E, s->a));
    return;
  case S_PRINTF:
    emit_printf(E, s);
    return;
  case S_ASSERT:
    if (E->opts && E->opts->debug)
      emit_line(E, "if (!(%s)) printf(\"%%s:%%d: assertion failed\\n\", \"%s\", %d);",
                ex(E, s->a), quoted(E, E->m->path), s->pos.line);
    return;
  }
}

/* Note [vulkan early return]: a kernel's `return` inside a loop leaves the
 * thread's iteration; C, OpenCL and CUDA jump to a label at the end of the
 * body (k_next), but GLSL has no goto.  On Vulkan the return sets a flag
 * and breaks out of its loop, and each loop of such a kernel is followed
 * by a test of the flag: another break inside an enclosing loop, or the
 * thread loop's continue at the top.  Nothing runs between the return and
 * the end of the iteration, as with the jump. */
static void emit_kret_check(Emit *E) {
  if (!E->kret_flag)
    return;
  emit_line(E, "if (k_kret != 0) %s", E->loop_depth > 0 ? "break;" : "continue;");
}

static void emit_stmts(Emit *E, IrStmt *s) {
  for (; s; s = s->next) {
    if (E->opts && E->opts->line_directives && s->pos.line > 0 &&
        E->T->id != KERN_TARGET_OPENCL)
      buf_printf(&E->out, "#line %d \"%s\"\n", s->pos.line,
                 line_path(E, E->m->path));
    emit_stmt(E, s);
  }
}

void emit_body(Emit *E, IrFunc *f) { emit_stmts(E, f->body); }

const char *emit_agg_identity(const IrAgg *g) {
  if (g->bi == BI_ATOMIC_ADD)
    return "0";
  bool mn = g->bi == BI_ATOMIC_MIN;
  if (sc_is_float(g->ty->sc))
    return mn ? "K_INF_F" : "(-K_INF_F)";
  switch (g->ty->sc) {
  case KERN_SCALAR_INT32:
    return mn ? "((int32_t)2147483647)" : "((int32_t)(-2147483647 - 1))";
  case KERN_SCALAR_UINT32:
    return mn ? "((uint32_t)0xffffffffu)" : "((uint32_t)0u)";
  case KERN_SCALAR_INT64:
    return mn ? "((int64_t)0x7fffffffffffffff)"
              : "((int64_t)(-0x7fffffffffffffff - 1))";
  default:
    return mn ? "((uint64_t)0xffffffffffffffff)" : "((uint64_t)0)";
  }
}

void emit_thread_loop(Emit *E, IrFunc *f, const char *pragma,
                      const char *header, bool fast) {
  if (pragma)
    emit_line(E, "%s", pragma);
  emit_line(E, "%s", header);
  E->indent++;
  E->loop_id++;
  if (fast) {
    emit_line(E, "const int32_t k_tid0 = (int32_t)k_t;");
  } else if (f->tid_dims <= 1) {
    /* a lone wp.tid() is the first coordinate, as in Warp */
    emit_line(E, "const int32_t k_tid0 = (int32_t)(k_t / (k_d1 * k_d2 * k_d3));");
  } else {
    /* the dimensions after the unpacked ones are folded, as in Warp 1.19
     * (Note [launch dimensionality] in runtime/module.c) */
    if (f->tid_dims >= 4) {
      emit_line(E, "int64_t k_r = k_t;");
    } else {
      Buf fold;
      buf_init(&fold, E->C);
      for (int d = f->tid_dims; d <= 3; d++)
        buf_printf(&fold, "%sk_d%d", d > f->tid_dims ? " * " : "", d);
      emit_line(E, "int64_t k_r = k_t / (%s);", fold.p);
    }
    for (int d = f->tid_dims - 1; d >= 1; d--) {
      emit_line(E, "const int32_t k_tid%d = (int32_t)(k_r %% k_d%d);", d, d);
      emit_line(E, "k_r /= k_d%d;", d);
    }
    emit_line(E, "const int32_t k_tid0 = (int32_t)k_r;");
  }
  emit_line(E, "(void)k_tid0;");
  emit_locals(E, f);
  E->loop_depth = 0;
  E->fast_tid = fast;
  /* Note [vulkan early return] */
  E->kret_flag = f->has_kreturn_in_loop && E->T->id == KERN_TARGET_VULKAN;
  if (E->kret_flag)
    emit_line(E, "int32_t k_kret = 0;");
  emit_body(E, f);
  E->fast_tid = false;
  if (f->has_kreturn_in_loop && !E->kret_flag)
    emit_line(E, "k_next%d:;", E->loop_id);
  E->kret_flag = false;
  E->indent--;
  emit_line(E, "%s", E->loop_close ? E->loop_close : "}");
}

/* Note [one body, two loops]: emit_thread_loops' two copies of a kernel's
 * body differ only where an index is the thread index (emit_index_at: k_t
 * in the 1-D copy, the variable in the general one), and emitting each
 * copy was a fifth of `kern synth`'s time.  So the body is emitted once,
 * with each such index written between the bytes 1 and 2, and both copies
 * are made from that text: the 1-D copy puts k_t for each marked span,
 * the general one drops the marks.  No other byte 1 or 2 reaches
 * generated code (user text enters only through emit_quote, which escapes
 * control bytes, and names are ASCII).  The helpers the body needs are
 * generated in the same order as before, since the second copy found them
 * all present.  A body that jumps to the end of its loop numbers the label
 * per copy (k_next), and debug mode numbers its checks per module, so
 * those bodies are still emitted twice. */
static void put_body(Buf *out, const char *s, size_t n, bool fast) {
  if (n == 0) return; /* an empty body's text may be NULL */
  const char *end = s + n;
  while (s < end) {
    const char *m = memchr(s, 1, (size_t)(end - s));
    if (!m) {
      buf_putn(out, s, (size_t)(end - s));
      return;
    }
    buf_putn(out, s, (size_t)(m - s));
    const char *c = memchr(m, 2, (size_t)(end - m));
    if (fast)
      buf_putn(out, "k_t", 3);
    else
      buf_putn(out, m + 1, (size_t)(c - m - 1));
    s = c + 1;
  }
}

void emit_thread_loops(Emit *E, IrFunc *f, const char *pragma,
                       const char *header) {
  /* A 1-D launch (the common case) gets its own copy of the loop in which
   * the thread index is the loop counter; see Emit.fast_tid. */
  if (f->has_kreturn_in_loop || f->tid_dims > 1 ||
      (E->opts && E->opts->debug)) {
    emit_line(E, "if (k_d1 * k_d2 * k_d3 == 1) {");
    E->indent++;
    emit_thread_loop(E, f, pragma, header, true);
    E->indent--;
    emit_line(E, "} else {");
    E->indent++;
    emit_thread_loop(E, f, pragma, header, false);
    E->indent--;
    emit_line(E, "}");
    return;
  }
  /* The body, at the depth it has in both loops, aside. */
  Buf outer = E->out;
  buf_init(&E->out, E->C);
  E->indent += 2;
  emit_locals(E, f);
  E->loop_depth = 0;
  E->tid_marks = true;
  emit_body(E, f);
  E->tid_marks = false;
  E->indent -= 2;
  Buf body = E->out;
  E->out = outer;
  E->loop_id += 2; /* as the two loops would have numbered themselves */
  for (int fast = 1; fast >= 0; fast--) {
    emit_line(E, "%s", fast ? "if (k_d1 * k_d2 * k_d3 == 1) {" : "} else {");
    E->indent++;
    if (pragma)
      emit_line(E, "%s", pragma);
    emit_line(E, "%s", header);
    E->indent++;
    emit_line(E, "%s", fast ? "const int32_t k_tid0 = (int32_t)k_t;"
                            : "const int32_t k_tid0 = (int32_t)(k_t / (k_d1 * k_d2 * k_d3));");
    emit_line(E, "(void)k_tid0;");
    put_body(&E->out, body.p, body.len, fast);
    E->indent--;
    emit_line(E, "%s", E->loop_close ? E->loop_close : "}");
    E->indent--;
  }
  emit_line(E, "}");
}

void emit_locals(Emit *E, IrFunc *f) {
  for (IrVar *v = f->locals; v; v = v->next) {
    if (emit_fixed_local(E, v)) /* fixed.c */
      continue;
    if (v->ty->kind == TY_ARRAY) {
      /* an array field's copy (check_array_var), set before any use */
      emit_line(E, "%s %s;", emit_ctype(E, v->ty), v->name);
      continue;
    }
    emit_line(E, "%s %s = %s;", emit_ctype(E, v->ty), v->name,
              emit_zero(E, v->ty));
  }
  /* zero constructors must exist before use */
  for (IrVar *v = f->locals; v; v = v->next)
    if (v->ty->kind != TY_SCALAR && v->ty->kind != TY_ARRAY)
      make_helper(E, v->ty, 0, NULL);
}

/* Note [reference parameters]: a @wp.func parameter annotated wp.ref[T]
 * is a value parameter like any other plus a pointer k_refN to the
 * caller's variable, given the parameter's last value at every return:
 * copy-in, copy-out (check_call.c).  The caller passes a variable of its
 * own and stores it back to the argument (a variable, an array element, a
 * field) after the call. */
static void emit_ref_stores(Emit *E) {
  if (!E->f || E->f->is_kernel)
    return;
  for (IrVar *p = E->f->params; p; p = p->next)
    if (p->byref)
      emit_line(E, "*k_ref%d = %s;", p->index, p->name);
}

static void emit_function(Emit *E, IrFunc *f) {
  E->f = f;
  if (f->native) {
    emit_native_function(E, f);
    return;
  }
  Buf sig;
  buf_init(&sig, E->C);
  buf_printf(&sig, "%s %s %s(", E->T->fn_qual, emit_ctype(E, f->ret),
             f->symbol);
  int i = 0;
  for (IrVar *p = f->params; p; p = p->next, i++)
    buf_printf(&sig, "%s%s %s", i ? ", " : "", emit_ctype(E, p->ty), p->name);
  for (int k = 1; k < f->nrets; k++)
    buf_printf(&sig, "%s%s *k_out%d", i || k > 1 ? ", " : "",
               emit_ctype(E, f->rets[k]), k);
  bool refs = false;
  for (IrVar *p = f->params; p; p = p->next)
    if (p->byref) {
      buf_printf(&sig, ", %s *k_ref%d", emit_ctype(E, p->ty), p->index);
      refs = true;
    }
  if (i == 0 && f->nrets <= 1)
    buf_puts(&sig, "void");
  buf_puts(&sig, ") {");
  emit_line(E, "%s", sig.p);
  E->indent++;
  emit_locals(E, f);
  emit_body(E, f);
  if (refs && f->ret->kind == TY_VOID)
    emit_ref_stores(E);
  E->indent--;
  emit_line(E, "}");
  emit_line(E, "%s", "");
}

char *emit_module(Compiler *C, IrModule *m, const Target *T,
                  const kc_options *opts, kc_memo *memo, size_t *len) {
  Emit E;
  memset(&E, 0, sizeof E);
  E.C = C;
  E.m = m;
  if (opts && opts->compact && T->compact)
    T = T->compact;
  E.T = T;
  E.opts = opts;
  E.vec_lane = -1;
  buf_init(&E.pre, C);
  buf_init(&E.out, C);
  buf_init(&E.natives, C);
  E.pre.keep = E.out.keep = E.natives.keep = true;
  emit_memo_begin(&E, memo);
  for (IrFunc *f = m->funcs; f; f = f->next)
    emit_function(&E, f);
  /* Note [kernel scratch]: the emitters format every expression, index
   * and name of a kernel in a Buf or string of their own, and the kernel's
   * text is all that is left of them once it is in E.out: 1 KB a kernel
   * of C and 3 KB of CUDA for a two-line kernel, which used to stay until
   * the compilation ended (issue #23, item 9).  Each kernel is emitted
   * with C->arena's allocations going to C->scratch instead, freed as
   * soon as its text is in E.out.  What outlives the kernel is made in
   * C->arena by name: E.pre, E.out and E.natives grow there (Buf.keep),
   * the helper names, their list and their table (emit_need, memo_have,
   * names.c), the helper memo's records (memo.c) and debug mode's array
   * names; emit_memo (a warm memo) and the sanitizer build check it.  The IR, read
   * later by the PTX tier and describe_kernels, was made before and is
   * not written here.  The text is the same bytes (the conformance files
   * on every target, before and after). */
  for (IrFunc *f = m->kernels; f; f = f->next) {
    E.f = f;
    C->scratching = true;
    T->kernel(&E, f);
    C->scratching = false;
    arena_recycle(C, &C->scratch); /* Note [spare blocks] in base/arena.c */
  }
  /* The head of the module: the first line, the prelude and the helpers,
   * put in front of the functions and kernels in place (Note [text once]
   * in base/arena.c). */
  Buf all;
  buf_init(&all, C);
  buf_printf(&all, "/* Generated by kern %s from ", KERN_VERSION_STRING);
  emit_quote(&all, m->path, strlen(m->path));
  buf_puts(&all, ". */\n");
  E.f = NULL;
  emit_memo_end(&E);
  Buf head;
  buf_init(&head, C);
  Emit H = E;
  H.out = head;
  T->prelude(&H);
  buf_reserve_total(&all, H.out.len + E.pre.len +
                              sizeof KERN_EMIT_SHARED_END + 2);
  buf_puts(&all, H.out.p ? H.out.p : "");
  buf_puts(&all, E.pre.p ? E.pre.p : "");
  if (T->guard_helpers)
    buf_puts(&all, KERN_EMIT_SHARED_END "\n");
  buf_puts(&all, "\n");
  buf_reserve_total(&E.out, all.len + E.natives.len);
  buf_prepend(&E.out, all.p, all.len);
  /* last, so that nothing a snippet does reaches kern's own code (Note
   * [snippet containment] in native.c) */
  buf_putn(&E.out, E.natives.p ? E.natives.p : "", E.natives.len);
  if (T->finish)
    T->finish(&E, &E.out);
  *len = E.out.len;
  return E.out.p;
}
