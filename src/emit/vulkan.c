/*
 * vulkan.c -- GLSL 4.60 compute shaders for Vulkan (compiled to SPIR-V by
 * libshaderc at run time, runtime/backend_vulkan.c).
 *
 * Note [GLSL through common.c]: GLSL is close enough to C that the shared
 * emitter's statements and expressions serve, once a last pass
 * (vk_finish) spells the few C forms GLSL lacks:
 *   - casts `(T)x` become constructors `T(x)` (T a scalar type or a struct
 *     the module defined), and `(void)x;` statements go;
 *   - `typedef struct { ... } N;` becomes `struct N { ... };`, and a
 *     pointer member `T *data` (an array's data) becomes a buffer
 *     reference `kref_T data` (GL_EXT_buffer_reference: arrays are buffer
 *     device addresses, so any number of them fits one launch);
 *     `x.data[i]` reads `kat(x.data, int64_t(i)).v[0]` (Note [vulkan
 *     element addresses]);
 *   - an index `[e]` becomes `[int(e)]` (GLSL indexes with 32-bit ints, so
 *     stage 1 handles arrays below 2^31 elements);
 *   - unary `&` goes (atomics are macros on the lvalue itself), and a
 *     function's pointer parameter `T *p` becomes `inout T p`, its `*p`
 *     and `p->x` then `p` and `p.x` (out-parameters, random states);
 *   - floating literals without `f` are doubles (`lf`), `LL` is `l`;
 *   - `#pragma unroll` and `restrict` go;
 *   - int literals as conditions are bools, `kbool x = 0;` is false, and
 *     a scalar function's `return e;` converts e (typing(), first).
 * What the pass cannot spell is refused, before any compiler runs, by an
 * `#error kern: ...` line that the backend reports as the load's error:
 * bool values in parameters (C's 1-byte bool against GLSL's 4-byte one),
 * printf, float atomics other than add/subtract, 16-bit floats (a view
 * made in the kernel is spelled, Note [vulkan views] in view.c, and an
 * indexed array parameter is, Note [vulkan indexed arrays] in indexed.c).
 *
 * Note [vulkan element addresses]: a kernel parameter's elements are
 * indexed (`p_d[int(i)]`, p.data.v), but an array reached through a
 * variable (a view, a function's parameter) may have a negative stride
 * (x[::-1]), so its index may be negative.  Indexing a runtime array below
 * 0 is out of its bounds: lavapipe computed the address anyway, NVIDIA's
 * driver (580, H200, 2026-11-29) did not, and five view tests read wrong
 * elements there.  Such an element is instead the first of a reference
 * moved by i * KSZ_T bytes, in 64-bit arithmetic, so every access stays
 * within bounds: `x.data[i]` is `kat(x, int64_t(i)).v[0]`, kat overloaded
 * on the array's struct type (glslang tells buffer reference parameters
 * apart by no more than their being references) and KSZ_T the element's
 * C size, which is its std430 array stride.
 *
 * A kernel is a function; each kernel of a module is compiled on its own
 * with KERN_MAIN defined to its symbol.  Its parameters and kern__dims sit
 * in a buffer whose device address is the one push constant; arrays there
 * are kern__arr's first 40 bytes (address, shape), the address already
 * moved back by the shard offset.  The loop is OpenCL's grid-stride loop
 * over gl_GlobalInvocationID.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emit.h"

#define VK_GROUP 64

static void vk_prelude(Emit *E) { (void)E; /* vk_finish writes the head */ }

static void vk_refuse(Emit *E, const char *what) {
  const char *line = arena_printf(E->C, "#error kern: %s\n", what);
  if (emit_need(E, line))
    emit_pre(E, line, "%s", line);
}

/* Note [vulkan float atomics]: a float32 or float64 atomic is spelled
 * twice, chosen when the module compiles: the device's own atomic where
 * the runtime defined the feature's macro (KVK_F32_ADD, KVK_F64_ADD,
 * KVK_F32_MINMAX, KVK_F64_MINMAX, KVK_F32_EXCH; backend_vulkan.c), else a
 * compare-and-swap loop on the element's bits through a uint / uint64_t
 * buffer reference over the same address (float64 then needs
 * shaderBufferInt64Atomics).  GLSL has no address-of, so the call passes
 * the element's lvalue and its address, `h(lvalue, address, v)`
 * (vk_atomic_addr).  Min and max are the CPU backend's: the new value is
 * kern's min/max of old and v, not written where it compares equal to
 * old.  Every form returns the old value, as Warp.  Float compare-and-swap
 * and float64 exchange have no native form and are always the loop. */
bool emit_vk_cas_form(const Type *t) {
  return t->kind == TY_SCALAR && (t->sc == KERN_SCALAR_FLOAT32 ||
                                  t->sc == KERN_SCALAR_FLOAT64);
}

/* The address of arr's element idx (of type t: a scalar, vector or
 * matrix, its size the components' sizes). */
const char *emit_vk_atomic_addr(Emit *E, IrVar *arr, const char *idx,
                                const Type *t) {
  int n = t->kind == TY_SCALAR ? 1 : t->rows * (t->kind == TY_MAT ? t->cols : 1);
  return arena_printf(E->C, "(uint64_t(%s.data) + uint64_t(int64_t(%s) * %dl))",
                      arr->name, idx, n * sc_bits(t->sc) / 8);
}

/* A buffer reference to one scalar of type sc (a vector's component). */
const char *emit_vk_scalar_ref(Emit *E, kern_scalar sc) {
  const char *S = emit_ctype(E, ty_scalar(sc));
  const char *R = arena_printf(E->C, "kvs_%s", S);
  if (emit_need(E, R))
    emit_pre(E, R, "layout(buffer_reference, std430, buffer_reference_align = %d) "
                   "buffer %s { %s v[]; };\n", sc_bits(sc) / 8, R, S);
  return R;
}

/* The uint / uint64_t buffer reference that CAS loops view an element's
 * bits through. */
const char *emit_vk_bits_ref(Emit *E, int bits) {
  const char *R = bits == 64 ? "kcas_u64" : "kcas_u32";
  if (emit_need(E, R))
    emit_pre(E, R, "layout(buffer_reference, std430, buffer_reference_align = %d) "
                   "buffer %s { %s v[]; };\n", bits / 8, R,
             bits == 64 ? "uint64_t" : "uint");
  return R;
}

static void vk_float_atomic(Emit *E, Buf *b, int bi, const Type *t,
                            const char *name) {
  bool d = t->sc == KERN_SCALAR_FLOAT64;
  const char *T = d ? "double" : "float", *U = d ? "uint64_t" : "uint";
  const char *R = d ? "kcas_u64" : "kcas_u32";
  const char *tob = d ? "doubleBitsToUint64" : "floatBitsToUint";
  const char *fromb = d ? "uint64BitsToDouble" : "uintBitsToFloat";
  emit_vk_bits_ref(E, d ? 64 : 32);
  const char *feat = NULL, *native = NULL;
  const char *nv = "v";
  switch (bi) {
  case BI_ATOMIC_ADD: feat = d ? "KVK_F64_ADD" : "KVK_F32_ADD"; native = "atomicAdd(p, v)";
    nv = "o + v"; break;
  case BI_ATOMIC_SUB: feat = d ? "KVK_F64_ADD" : "KVK_F32_ADD"; native = "atomicAdd(p, -(v))";
    nv = "o - v"; break;
  case BI_ATOMIC_MIN: case BI_ATOMIC_MAX:
    feat = d ? "KVK_F64_MINMAX" : "KVK_F32_MINMAX";
    native = bi == BI_ATOMIC_MIN ? "atomicMin(p, v)" : "atomicMax(p, v)";
    nv = arena_printf(E->C, "%s(o, v)",
                      emit_helper(E, bi == BI_ATOMIC_MIN ? BI_MIN : BI_MAX, t, 2,
                                  (const Type *[]){t, t}));
    break;
  case BI_ATOMIC_EXCH:
    if (!d) { feat = "KVK_F32_EXCH"; native = "atomicExchange(p, v)"; }
    break;
  default: break;
  }
  /* the loop: o the value last seen, n its replacement */
  if (bi == BI_ATOMIC_CAS)
    /* compared bitwise, as C's __atomic_compare_exchange; a loop on the
     * value seen rather than one atomicCompSwap on c's bits, which
     * lavapipe (Mesa 22.3) turned into a float cmpxchg its LLVM could not
     * select (the process aborted) */
    buf_printf(b, "%s %s_cas(uint64_t a, %s c, %s v) {\n"
                  "  %s r = %s(a);\n  %s cb = %s(c), ob = r.v[0];\n"
                  "  for (;;) {\n    if (ob != cb) return %s(ob);\n"
                  "    %s pb = atomicCompSwap(r.v[0], ob, %s(v));\n"
                  "    if (pb == ob) return %s(ob);\n    ob = pb;\n  }\n}\n",
               T, name, T, T, R, R, U, tob, fromb, U, tob, fromb);
  else
    buf_printf(b, "%s %s_cas(uint64_t a, %s v) {\n"
                  "  %s r = %s(a);\n  %s ob = r.v[0];\n"
                  "  for (;;) {\n    %s o = %s(ob);\n    precise %s n = %s;\n"
                  "%s"
                  "    %s pb = atomicCompSwap(r.v[0], ob, %s(n));\n"
                  "    if (pb == ob) return o;\n    ob = pb;\n  }\n}\n",
               T, name, T, R, R, U, T, fromb, T, nv,
               bi == BI_ATOMIC_MIN || bi == BI_ATOMIC_MAX
                   ? "    if (n == o) return o;\n" : "",
               U, tob);
  if (bi == BI_ATOMIC_CAS) {
    buf_printf(b, "#define %s(p, a, c, v) %s_cas(a, c, v)\n", name, name);
    return;
  }
  if (feat)
    buf_printf(b, "#ifdef %s\n#define %s(p, a, v) %s\n#else\n", feat, name, native);
  buf_printf(b, "#define %s(p, a, v) %s_cas(a, v)\n", name, name);
  if (feat)
    buf_puts(b, "#endif\n");
}

static void vk_atomic(Emit *E, Buf *b, int bi, const Type *t,
                      const char *name) {
  kern_scalar sc = t->sc;
  bool isf = sc_is_float(sc);
  const char *fn = NULL;
  if (emit_vk_cas_form(t)) {
    vk_float_atomic(E, b, bi, t, name);
    return;
  }
  switch (bi) {
  case BI_ATOMIC_ADD: fn = "atomicAdd"; break;
  case BI_ATOMIC_SUB: fn = "atomicAdd"; break; /* of -v */
  case BI_ATOMIC_MIN: fn = "atomicMin"; break;
  case BI_ATOMIC_MAX: fn = "atomicMax"; break;
  case BI_ATOMIC_AND: fn = "atomicAnd"; break;
  case BI_ATOMIC_OR: fn = "atomicOr"; break;
  case BI_ATOMIC_XOR: fn = "atomicXor"; break;
  case BI_ATOMIC_EXCH: fn = "atomicExchange"; break;
  case BI_ATOMIC_CAS: fn = "atomicCompSwap"; break;
  }
  if (sc_bits(sc) < 32 || isf)
    fn = NULL;
  if (!fn) {
    vk_refuse(E, arena_printf(E->C, "the vulkan target has no %s on %s yet",
                              builtin_names[bi], emit_tysig(E, t)));
    return;
  }
  if (bi == BI_ATOMIC_CAS)
    buf_printf(b, "#define %s(p, c, v) %s(p, c, v)\n", name, fn);
  else if (bi == BI_ATOMIC_SUB)
    buf_printf(b, "#define %s(p, v) %s(p, -(v))\n", name, fn);
  else
    buf_printf(b, "#define %s(p, v) %s(p, v)\n", name, fn);
}

/* The std430 layout of a value's memory form (Note [vulkan bool memory]
 * in common.c) as the GLSL spells it: scalars (a bool as uint8_t) aligned
 * to their size, kern's vectors and matrices structs of a scalar array,
 * arrays in std430 strided by their element, a struct aligned to its
 * largest member and padded to that.  Sets *size and *align; false where a
 * struct's field would not sit at the offset kern's C layout gives it
 * (layout.c), which the argument block and arrays of structs share with
 * the host. */
static bool std430_ok(const Type *t, size_t *size, size_t *align) {
  switch (t->kind) {
  case TY_SCALAR: case TY_VEC: case TY_MAT: {
    size_t s = t->sc == KERN_SCALAR_BOOL ? 1 : (size_t)sc_bits(t->sc) / 8;
    *align = s;
    *size = s * (size_t)(t->kind == TY_SCALAR ? 1 : t->rows) *
            (size_t)(t->kind == TY_MAT ? t->cols : 1);
    return true;
  }
  case TY_ARRAY: /* Warp's array_t (or indexedarray_t): 8-byte members first */
    *align = 8;
    *size = ty_size(t);
    return true;
  case TY_STRUCT: {
    size_t off = 0, al = 1;
    for (int i = 0; i < t->n; i++) {
      size_t s, a;
      if (!std430_ok(t->items[i], &s, &a))
        return false;
      off = (off + a - 1) / a * a;
      if (off != ty_field_offset(t, i))
        return false;
      off += s;
      al = a > al ? a : al;
    }
    *align = al;
    *size = t->n ? (off + al - 1) / al * al : 1;
    return *size == ty_size(t) && al == ty_align(t);
  }
  default:
    return false;
  }
}

/* Note [16-byte accesses] (vecplan.c) on Vulkan: each invocation loads W
 * = 16 / size consecutive elements of each array as one GLSL vector
 * (vec4, dvec2, ivec4, ...) through a buffer reference aligned to 16
 * bytes, runs W copies of the body on its lanes (`k_v_x.c[j]`, a
 * struct whose member c is the vector), and stores each stored array's
 * vector back.  The caller checks every array's alignment at run time;
 * the remainder runs one element per invocation. */
static void vk_vector_loop(Emit *E, IrFunc *f, VecPlan *V) {
  int W = 16 / V->size;
  emit_line(E, "const int64_t k_nv = (k_dims.total - k_dims.begin) / %d;", W);
  emit_line(E, "for (int64_t k_gv = k_g; k_gv < k_nv; k_gv += k_G) {");
  E->indent++;
  emit_line(E, "const int64_t k_base = k_dims.begin + k_gv * %d;", W);
  for (int i = 0; i < V->narr; i++) {
    IrVar *a = V->arr[i];
    kern_scalar sc = a->ty->elem->sc;
    const char *vt = sc == KERN_SCALAR_FLOAT32   ? "vec4"
                     : sc == KERN_SCALAR_FLOAT64 ? "dvec2"
                     : sc == KERN_SCALAR_INT32   ? "ivec4"
                     : sc == KERN_SCALAR_UINT32  ? "uvec4"
                     : sc == KERN_SCALAR_INT64   ? "i64vec2"
                                                 : "u64vec2";
    const char *Q = arena_printf(E->C, "k_g%d%s", W, emit_tysig(E, a->ty->elem));
    if (emit_need(E, Q))
      emit_pre(E, Q, "struct %s { %s c; };\n"
                     "layout(buffer_reference, std430, buffer_reference_align = 16) "
                     "buffer kvec_%s { %s v; };\n", Q, vt, Q, Q);
    const char *at = arena_printf(E->C, "kvec_%s(uint64_t(%s.data) + uint64_t(k_base) * %dul).v",
                                  Q, a->name, V->size);
    if (a->read)
      emit_line(E, "%s k_v_%s = %s;", Q, a->name, at);
    else
      emit_line(E, "%s k_v_%s;", Q, a->name);
  }
  emit_vec_lanes(E, f, V, W, true);
  for (int i = 0; i < V->narr; i++)
    if (V->stored[i])
      emit_line(E, "kvec_k_g%d%s(uint64_t(%s.data) + uint64_t(k_base) * %dul).v = k_v_%s;",
                W, emit_tysig(E, V->arr[i]->ty->elem), V->arr[i]->name, V->size,
                V->arr[i]->name);
  E->indent--;
  emit_line(E, "}");
  /* the remainder, one index per invocation */
  emit_thread_loop(E, f, NULL,
                   arena_printf(E->C, "for (int64_t k_t = k_dims.begin + k_nv * %d + k_g; "
                                "k_t < k_dims.total; k_t += k_G) {", W),
                   true);
}

static void vk_kernel(Emit *E, IrFunc *f) {
  Buf args;
  buf_init(&args, E->C);
  buf_printf(&args, "layout(buffer_reference, std430, buffer_reference_align = 8) "
                    "buffer kargs_%s { ", f->symbol);
  for (IrVar *p = f->params; p; p = p->next) {
    const Type *vt = p->ty->kind == TY_ARRAY ? p->ty->elem : p->ty;
    size_t sz, al;
    if (p->ty->kind == TY_ARRAY && p->ty->indexed) {
      emit_indexed_vk_member(E, &args, p); /* Note [vulkan indexed arrays] */
      continue;
    } else if (p->ty->kind == TY_ARRAY && p->ty->strided)
      vk_refuse(E, "the vulkan target has no views as kernel parameters yet");
    else if (p->ty->kind == TY_ARRAY && vt->kind == TY_STRUCT && ty_has_array(vt))
      /* a struct parameter's array fields are addresses the runtime writes
       * (vk_pack); an array of such structs is in device memory already */
      vk_refuse(E, arena_printf(E->C, "the vulkan runtime does not write the "
                                      "device addresses of arrays held in "
                                      "an array's structs yet (%s)", p->name));
    else if (!std430_ok(vt, &sz, &al))
      vk_refuse(E, arena_printf(E->C, "the std430 layout of %s differs from "
                                      "kern's (%s)", emit_tysig(E, vt), p->name));
    /* Note [vulkan bool memory]: the block holds the memory form */
    buf_printf(&args, "%s %s; ", p->ty->kind != TY_ARRAY && emit_vk_boolmem(E, p->ty)
                                     ? emit_vk_memtype(E, p->ty)
                                     : emit_ctype(E, p->ty), p->name);
  }
  buf_puts(&args, "kern__dims k_dims; };");
  emit_line(E, "%s", args.p);
  emit_line(E, "void %s() {", f->symbol);
  E->indent++;
  emit_line(E, "kargs_%s k_A = kargs_%s(kpc.args);", f->symbol, f->symbol);
  emit_line(E, "kern__dims k_dims = k_A.k_dims;");
  if (emit_vk_uses_scratch(E->m)) /* Note [vulkan scratch frame], vk_fixed.c */
    emit_line(E, "k_scr = kpc.scratch + uint64_t(gl_GlobalInvocationID.x) * K_FRAME;");
  for (IrVar *p = f->params; p; p = p->next) {
    if (p->ty->kind == TY_ARRAY && p->ty->indexed) {
      emit_indexed_vk_prologue(E, p); /* indexed.c */
      continue;
    }
    if (p->ty->kind != TY_ARRAY && emit_vk_boolmem(E, p->ty))
      emit_line(E, "%s %s = %s(k_A.%s);", emit_ctype(E, p->ty), p->name,
                emit_vk_conv(E, p->ty, true), p->name);
    else
      emit_line(E, "%s %s = k_A.%s;", emit_ctype(E, p->ty), p->name, p->name);
    if (p->ty->kind == TY_ARRAY)
      emit_line(E, "#define %s_d %s.data.v", p->name, p->name);
  }
  emit_line(E, "const int64_t k_d1 = k_dims.dim[1], k_d2 = k_dims.dim[2], "
               "k_d3 = k_dims.dim[3];");
  emit_line(E, "const int64_t k_g = int64_t(gl_GlobalInvocationID.x);");
  emit_line(E, "const int64_t k_G = int64_t(gl_NumWorkGroups.x) * %d;", VK_GROUP);
  /* Note [vulkan unroll]: the grid-stride loop, unrolled K_UNROLL times
   * (the runtime defines it from $KERN_VULKAN_UNROLL), so that an
   * invocation's loads of several items can be in flight at once, as in
   * CUDA's loop, which nvcc unrolls.  Each copy checks its own index; a
   * kernel's early return (`continue`) goes on with the next copy.  The
   * default stays 1, the loop as it was, until a GPU run has measured
   * the factors against each other (tests/gpu/vulkan_bench.sh does). */
  const char *header =
      "for (int64_t k_t0 = k_dims.begin + k_g; k_t0 < k_dims.total; "
      "k_t0 += K_UNROLL * k_G) { K_UNROLL_HINT for (int k_u = 0; k_u < K_UNROLL; k_u++) { "
      "const int64_t k_t = k_t0 + int64_t(k_u) * k_G; if (k_t >= k_dims.total) break;";
  E->loop_close = "}}";
  for (IrAgg *g = f->aggs; g; g = g->next)
    emit_line(E, "%s k_agg%d = %s;", emit_ctype(E, g->ty), g->id,
              emit_agg_identity(g));
  VecPlan V;
  if (emit_vec_plan(E, f, &V)) {
    Buf al;
    buf_init(&al, E->C);
    for (int i = 0; i < V.narr; i++)
      buf_printf(&al, " && ((uint64_t(%s.data) + uint64_t(k_dims.begin) * %dul) & 15ul) == 0ul",
                 V.arr[i]->name, V.size);
    emit_line(E, "if (k_d1 * k_d2 * k_d3 == 1%s) {", al.p);
    E->indent++;
    E->loop_close = NULL;
    vk_vector_loop(E, f, &V);
    E->loop_close = "}}";
    E->indent--;
    emit_line(E, "} else {");
    E->indent++;
    emit_thread_loop(E, f, NULL, header, false);
    E->indent--;
    emit_line(E, "}");
  } else if (f->tid_dims <= 1) {
    emit_thread_loops(E, f, NULL, header);
  } else {
    emit_thread_loop(E, f, NULL, header, false);
  }
  E->loop_close = NULL;
  /* Aggregated atomics (Note [atomic aggregation]): each invocation's
   * partial result, combined over its subgroup (subgroupAdd/Min/Max; one
   * atomic per subgroup, as CUDA's warp shuffle) for the 32-bit and float64
   * types that core subgroup arithmetic covers, else one atomic per
   * invocation.  The runtime launches a bounded grid (Note [vulkan grid]),
   * so each invocation's partial covers many items. */
  for (IrAgg *g = f->aggs; g; g = g->next) {
    Buf idx;
    buf_init(&idx, E->C);
    emit_index(E, &idx, g->array, g->index, g->nindex);
    kern_scalar sc = g->ty->sc;
    bool sub = g->ty->kind == TY_SCALAR &&
               (sc == KERN_SCALAR_FLOAT32 || sc == KERN_SCALAR_FLOAT64 ||
                sc == KERN_SCALAR_INT32 || sc == KERN_SCALAR_UINT32);
    const char *op = g->bi == BI_ATOMIC_MIN ? "subgroupMin"
                     : g->bi == BI_ATOMIC_MAX ? "subgroupMax" : "subgroupAdd";
    /* a float's atomic takes the element's address too (Note [vulkan
     * float atomics]) */
    const char *ad = emit_vk_cas_form(g->ty)
                         ? arena_printf(E->C, "%s, ", emit_vk_atomic_addr(E, g->array, idx.p, g->ty))
                         : "";
    if (g->ty->kind != TY_SCALAR)
      emit_line(E, "(void)%s(%s, k_agg%d);", emit_atomic_name(E, g->bi, g->ty),
                emit_vk_atomic_addr(E, g->array, idx.p, g->ty), g->id);
    else if (sub)
      emit_line(E, "{ %s k_v = %s(k_agg%d); if (subgroupElect()) (void)%s(&%s[%s], %sk_v); }",
                emit_ctype(E, g->ty), op, g->id, emit_atomic_name(E, g->bi, g->ty),
                emit_array_data(E, g->array), idx.p, ad);
    else
      emit_line(E, "(void)%s(&%s[%s], %sk_agg%d);", emit_atomic_name(E, g->bi, g->ty),
                emit_array_data(E, g->array), idx.p, ad, g->id);
  }
  if (E->opts && E->opts->debug) /* Note [debug mode on vulkan] */
    emit_vk_fault_flush(E);
  for (IrVar *p = f->params; p; p = p->next)
    if (p->ty->kind == TY_ARRAY)
      emit_line(E, "#undef %s_d", p->name);
  E->indent--;
  emit_line(E, "}");
  emit_line(E, "%s", "");
}

/* ------------------------------------------------ Note [GLSL through common.c] */

typedef struct Rw {
  Emit *E;
  Buf *o;
  const char **types; /* struct names the text defined */
  int ntypes, captypes;
  const char **refs;  /* kref_ types declared */
  int nrefs, caprefs;
  /* Note [vulkan print]: the formats of the module's printf calls, in
   * the order of their ids, each on a line "// kern-print ID FMT"; and
   * which k_print_N helpers (N slots) are used */
  Buf prints;
  int nprints;
  uint64_t print_arities;
  bool print_bad;
} Rw;

static const char *const scalar_names[] = {
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "float", "double", "kbool", "int", "uint", NULL};

static bool is_id(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool known_type(Rw *R, const char *s, size_t n) {
  for (int i = 0; scalar_names[i]; i++)
    if (strlen(scalar_names[i]) == n && !memcmp(scalar_names[i], s, n))
      return true;
  for (int i = 0; i < R->ntypes; i++)
    if (strlen(R->types[i]) == n && !memcmp(R->types[i], s, n))
      return true;
  return false;
}

static void add_name(Rw *R, const char ***v, int *n, int *cap, const char *s) {
  if (*n == *cap) {
    int nc = *cap ? *cap * 2 : 32;
    const char **nv = arena_alloc(R->E->C, nc * sizeof *nv);
    if (*n)
      memcpy(nv, *v, *n * sizeof *nv);
    *v = nv;
    *cap = nc;
  }
  (*v)[(*n)++] = s;
}

/* The end of the bracketed group that opens at s[i] ('(' or '[').  A
 * string literal inside it (a printf format, emit_quote's text: a quote
 * in it is escaped) is skipped, so the brackets of a format such as
 * print's "[" of a tile do not count. */
static size_t match(const char *s, size_t i, size_t n) {
  int depth = 0;
  for (; i < n; i++) {
    if (s[i] == '"') {
      for (i++; i < n && s[i] != '"'; i++)
        if (s[i] == '\\')
          i++;
    } else if (s[i] == '(' || s[i] == '[' || s[i] == '{')
      depth++;
    else if (s[i] == ')' || s[i] == ']' || s[i] == '}') {
      if (--depth == 0)
        return i + 1;
    }
  }
  return n;
}

/* Where the operand that ends the output so far starts: `a.b[2].data`
 * (identifiers, dots, bracketed and parenthesised groups). */
static size_t operand_start(const Buf *o) {
  size_t k = o->len;
  while (k > 0) {
    char c = o->p[k - 1];
    if (is_id(c) || c == '.') {
      k--;
    } else if (c == ']' || c == ')') {
      char open = c == ']' ? '[' : '(';
      int depth = 0;
      while (k > 0) {
        char d = o->p[--k];
        if (d == c)
          depth++;
        else if (d == open && --depth == 0)
          break;
      }
    } else {
      break;
    }
  }
  return k;
}

/* Inserts the string z into b at byte a. */
static void buf_insert(Buf *b, size_t a, const char *z) {
  size_t m = strlen(z), tail = b->len - a;
  for (size_t q = 0; q < m; q++)
    buf_putn(b, " ", 1); /* grows the buffer */
  memmove(b->p + a + m, b->p + a, tail);
  memcpy(b->p + a, z, m);
}

/* `(T)` at s[i] with T a type: the length of "(T)", else 0. */
static size_t cast_at(Rw *R, const char *s, size_t i, size_t n) {
  if (s[i] != '(')
    return 0;
  size_t j = i + 1;
  while (j < n && s[j] == ' ')
    j++;
  size_t a = j;
  while (j < n && is_id(s[j]))
    j++;
  size_t b = j;
  while (j < n && s[j] == ' ')
    j++;
  if (b == a || j >= n || s[j] != ')')
    return 0;
  if (!known_type(R, s + a, b - a) && !(b - a == 4 && !memcmp(s + a, "void", 4)))
    return 0;
  return j + 1 - i;
}

/* The end of the unary expression that starts at s[i]. */
static size_t unary_end(Rw *R, const char *s, size_t i, size_t n) {
  while (i < n && s[i] == ' ')
    i++;
  size_t c = cast_at(R, s, i, n);
  if (c)
    return unary_end(R, s, i + c, n);
  if (i < n && strchr("-+!~&*", s[i])) /* after a cast, `*` is unary */
    return unary_end(R, s, i + 1, n);
  if (i < n && s[i] == '(')
    i = match(s, i, n);
  else {
    bool num = i < n && isdigit((unsigned char)s[i]);
    while (i < n && (is_id(s[i]) || s[i] == '.' ||
                     (num && (s[i] == '-' || s[i] == '+') &&
                      (s[i - 1] == 'e' || s[i - 1] == 'E'))))
      i++;
  }
  for (;;) {
    if (i < n && (s[i] == '[' || s[i] == '('))
      i = match(s, i, n);
    else if (i < n && s[i] == '.' && i + 1 < n && is_id(s[i + 1])) {
      i++;
      while (i < n && is_id(s[i]))
        i++;
    } else
      return i;
  }
}

static void rewrite(Rw *R, const char *s, size_t n);

static void number(Rw *R, const char *s, size_t a, size_t b) {
  Buf *o = R->o;
  bool hex = b - a > 1 && s[a] == '0' && (s[a + 1] == 'x' || s[a + 1] == 'X');
  bool flt = false;
  for (size_t k = a; k < b && !hex; k++)
    if (s[k] == '.' || s[k] == 'e' || s[k] == 'E')
      flt = true;
  size_t e = b;
  while (e > a && strchr("uUlLfF", s[e - 1]) && !(hex && strchr("fF", s[e - 1])))
    e--;
  buf_putn(o, s + a, e - a);
  bool u = false, l = false, f = false;
  for (size_t k = e; k < b; k++) {
    if (s[k] == 'u' || s[k] == 'U')
      u = true;
    else if (s[k] == 'l' || s[k] == 'L')
      l = true;
    else
      f = true;
  }
  if (!flt && !l) {
    /* C gives an integer literal past 32 bits a 64-bit type by itself;
     * GLSL wants the suffix ("hexadecimal literal too big") */
    char buf[32];
    size_t m = e - a < sizeof buf - 1 ? e - a : sizeof buf - 1;
    memcpy(buf, s + a, m);
    buf[m] = 0;
    unsigned long long v = strtoull(buf, NULL, hex ? 16 : 10);
    /* C's rule: a decimal literal without u past INT_MAX is long; with u,
     * or in hex, past UINT_MAX */
    if (hex || u ? v > 0xffffffffULL : v > 0x7fffffffULL) {
      l = true;
      u = u || v > 0x7fffffffffffffffULL;
    }
  }
  if (flt)
    buf_puts(o, f ? "f" : "lf");
  else
    buf_puts(o, l ? (u ? "ul" : "l") : u ? "u" : "");
}

/* typedef struct { BODY } NAME;  ->  struct NAME { BODY' }; */
static size_t typedef_struct(Rw *R, const char *s, size_t i, size_t n) {
  size_t open = i + strlen("typedef struct ");
  while (open < n && s[open] == ' ')
    open++;
  if (open >= n || s[open] != '{')
    return 0;
  size_t close = match(s, open, n);
  size_t a = close;
  while (a < n && s[a] == ' ')
    a++;
  size_t b = a;
  while (b < n && is_id(s[b]))
    b++;
  if (b == a || b >= n || s[b] != ';')
    return 0;
  const char *name = arena_printf(R->E->C, "%.*s", (int)(b - a), s + a);
  /* pointer members first declare their buffer reference types */
  Buf body;
  buf_init(&body, R->E->C);
  Buf *o = R->o;
  const char *data_ref = NULL, *data_et = NULL;
  const char *p = s + open + 1, *end = s + close - 1;
  while (p < end) {
    const char *semi = memchr(p, ';', end - p);
    if (!semi)
      semi = end;
    const char *star = memchr(p, '*', semi - p);
    if (star) {
      const char *t0 = p;
      while (t0 < star && *t0 == ' ')
        t0++;
      if (!strncmp(t0, "const ", 6))
        t0 += 6;
      const char *t1 = t0;
      while (t1 < star && is_id(*t1))
        t1++;
      const char *et = arena_printf(R->E->C, "%.*s", (int)(t1 - t0), t0);
      const char *ref = arena_printf(R->E->C, "kref_%s", et);
      bool have = false;
      for (int k = 0; k < R->nrefs; k++)
        have |= !strcmp(R->refs[k], ref);
      if (!have) {
        add_name(R, &R->refs, &R->nrefs, &R->caprefs, ref);
        int al = strstr(et, "64") || !strcmp(et, "double") ? 8
                 : strstr(et, "16") ? 2 : strstr(et, "8") ? 1 : 4;
        buf_printf(o, "layout(buffer_reference, std430, buffer_reference_align = %d) "
                      "buffer %s { %s v[]; };\n", al, ref, et);
      }
      const char *nm = star + 1;
      while (nm < semi && *nm == ' ')
        nm++;
      buf_printf(&body, " %s %.*s;", ref, (int)(semi - nm), nm);
      if (semi - nm == 4 && !memcmp(nm, "data", 4))
        data_ref = arena_printf(R->E->C, "%s", ref), data_et = et;
    } else {
      Buf *save = R->o;
      R->o = &body;
      rewrite(R, p, (size_t)(semi - p));
      R->o = save;
      if (semi < end)
        buf_puts(&body, ";");
    }
    p = semi + 1;
  }
  buf_printf(o, "struct %s {%s };", name, body.p ? body.p : "");
  if (data_ref) /* Note [vulkan element addresses] */
    buf_printf(o, "\n%s kat(%s a, int64_t i) { return %s(uint64_t(a.data) + "
                  "uint64_t(i * int64_t(KSZ_%s))); }", data_ref, name, data_ref,
               data_et);
  add_name(R, &R->types, &R->ntypes, &R->captypes, name);
  return b + 1 - i;
}

/* A function definition's line "T name(P, ...) {" at the top level: a
 * pointer parameter `T *p` becomes `inout T p` (its callers pass the
 * lvalue, unary & dropped; the body's *p and p->x read p and p.x).
 * Returns the bytes used, 0 when the line is not such a header. */
static size_t header(Rw *R, const char *s, size_t i, size_t n) {
  const char *nl = memchr(s + i, '\n', n - i);
  size_t e = nl ? (size_t)(nl - s) : n;
  if (e - i < 4 || memcmp(s + e - 3, ") {", 3) || !memchr(s + i, '*', e - i))
    return 0;
  const char *open = memchr(s + i, '(', e - i);
  if (!open || open == s + i || !is_id(open[-1]))
    return 0;
  size_t a = (size_t)(open - s);
  if (match(s, a, n) != e - 2)
    return 0;
  rewrite(R, s + i, a + 1 - i);
  size_t p = a + 1;
  while (p < e - 3) {
    size_t q = p;
    int depth = 0;
    while (q < e - 3 && !(depth == 0 && s[q] == ',')) {
      depth += s[q] == '(' || s[q] == '[';
      depth -= s[q] == ')' || s[q] == ']';
      q++;
    }
    const char *star = memchr(s + p, '*', q - p);
    if (star) {
      size_t t0 = p;
      while (t0 < q && s[t0] == ' ')
        t0++;
      if (q - t0 > 6 && !memcmp(s + t0, "const ", 6))
        t0 += 6;
      buf_puts(R->o, "inout ");
      buf_putn(R->o, s + t0, (size_t)(star - s) - t0);
      rewrite(R, star + 1, (size_t)(s + q - star - 1));
    } else {
      rewrite(R, s + p, q - p);
    }
    if (q < e - 3)
      buf_putn(R->o, ",", 1);
    p = q + 1;
  }
  buf_puts(R->o, ") {");
  return e - i;
}

/* Note [vulkan print]: GLSL has no printf (debugPrintfEXT needs the
 * validation layer to see its output), so a module's printf calls write
 * records into a print buffer that the runtime formats on the host
 * (runtime/backend_vulkan.c, vk_print_flush).  The final pass turns each
 * `printf("fmt", a, b)` into `k_print_2(ID, A, B)`: ID numbers the call's
 * format within the module, and each argument becomes one 64-bit slot --
 * a float conversion's value as double bits, an integer's as int64 or
 * uint64 -- so the host can pass it to its own snprintf with the same
 * conversion.  A `%s` argument is always a string literal (the debug
 * assertion's path): it is spliced into the format here.  The formats
 * travel with the GLSL as `// kern-print ID FMT` comment lines (FMT with
 * every byte outside [A-Za-z0-9 ] as a 3-digit octal escape), which the
 * runtime reads from the source when it builds the module.  The helper
 * reserves 1 + N words of the buffer with one atomic add and writes the
 * record there; a record that does not fit is dropped and counted. */

/* Decodes the C string literal at s[i] (a '"') into b; returns the index
 * after its closing quote, or 0 when s[i] is not a literal. */
static size_t c_literal(const char *s, size_t i, size_t n, Buf *b) {
  if (i >= n || s[i] != '"')
    return 0;
  for (i++; i < n && s[i] != '"'; i++) {
    char c = s[i];
    if (c == '\\' && i + 1 < n) {
      c = s[++i];
      if (c >= '0' && c <= '7') {
        int v = 0, k = 0;
        while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7')
          v = v * 8 + (s[i++] - '0'), k++;
        i--;
        c = (char)v;
      } else if (c == 'n') {
        c = '\n';
      } else if (c == 't') {
        c = '\t';
      } else if (c == 'r') {
        c = '\r';
      }
    }
    buf_putn(b, &c, 1);
  }
  return i < n ? i + 1 : 0;
}

/* printf's arguments, the text inside its parentheses: returns false (the
 * call is then refused) where the format is not one kern emits. */
static bool vk_printf(Rw *R, const char *s, size_t n) {
  Buf fmt, lit, call;
  buf_init(&fmt, R->E->C);
  buf_init(&lit, R->E->C);
  buf_init(&call, R->E->C);
  size_t i = 0;
  while (i < n && s[i] == ' ')
    i++;
  size_t e = c_literal(s, i, n, &lit);
  if (!e)
    return false;
  /* the arguments after the format, split at top-level commas */
  const char *arg[64];
  size_t alen[64];
  int na = 0;
  for (i = e; i < n;) {
    while (i < n && (s[i] == ' ' || s[i] == ','))
      i++;
    if (i >= n)
      break;
    size_t a = i;
    int depth = 0;
    while (i < n && !(depth == 0 && s[i] == ',')) {
      if (s[i] == '"') {
        Buf skip;
        buf_init(&skip, R->E->C);
        size_t z = c_literal(s, i, n, &skip);
        if (!z)
          return false;
        i = z;
        continue;
      }
      if (s[i] == '(' || s[i] == '[' || s[i] == '{')
        depth++;
      else if (s[i] == ')' || s[i] == ']' || s[i] == '}')
        depth--;
      i++;
    }
    if (na == 64)
      return false;
    arg[na] = s + a;
    alen[na++] = i - a;
  }
  /* the format, conversion by conversion */
  const char *f = lit.p ? lit.p : "";
  size_t fn = lit.len;
  int used = 0, nslot = 0;
  Buf *save = R->o;
  for (size_t k = 0; k < fn; k++) {
    if (f[k] != '%') {
      buf_putn(&fmt, f + k, 1);
      continue;
    }
    if (k + 1 < fn && f[k + 1] == '%') {
      buf_puts(&fmt, "%%");
      k++;
      continue;
    }
    size_t a = k++;
    while (k < fn && strchr("-+ #0123456789.hlLqjzt", f[k]))
      k++;
    if (k >= fn || used >= na)
      return false;
    char conv = f[k];
    if (conv == 's') { /* a literal, spliced in */
      Buf sl;
      buf_init(&sl, R->E->C);
      size_t q = 0;
      while (q < alen[used] && arg[used][q] == ' ')
        q++;
      if (k != a + 1 || !c_literal(arg[used], q, alen[used], &sl))
        return false;
      for (size_t z = 0; z < sl.len; z++)
        buf_puts(&fmt, sl.p[z] == '%' ? "%%" : (char[]){sl.p[z], 0});
      used++;
      continue;
    }
    const char *wrap = strchr("fFeEgGaA", conv) ? "doubleBitsToUint64(double("
                       : strchr("dic", conv)     ? "uint64_t(int64_t("
                       : strchr("uxXo", conv)    ? "uint64_t(uint64_t("
                                                 : NULL;
    if (!wrap)
      return false;
    buf_putn(&fmt, f + a, k + 1 - a);
    R->o = &call;
    buf_printf(&call, ", %s", wrap);
    rewrite(R, arg[used], alen[used]);
    buf_puts(&call, "))");
    R->o = save;
    used++;
    nslot++;
  }
  if (used != na || nslot > 63)
    return false;
  int id = R->nprints++;
  R->print_arities |= (uint64_t)1 << nslot;
  buf_printf(&R->prints, "// kern-print %d ", id);
  for (size_t z = 0; z < fmt.len; z++) {
    unsigned char c = (unsigned char)fmt.p[z];
    if (isalnum(c) || c == ' ')
      buf_putn(&R->prints, (char *)&c, 1);
    else
      buf_printf(&R->prints, "\\%03o", c);
  }
  buf_puts(&R->prints, "\n");
  buf_printf(R->o, "k_print_%d(%du%s)", nslot, id, call.p ? call.p : "");
  return true;
}

static void rewrite(Rw *R, const char *s, size_t n) {
  Buf *o = R->o;
  size_t i = 0;
  bool bol = true;
  while (i < n) {
    char c = s[i];
    if (bol && c != ' ' && c != '#' && c != '\n' && c != '/' && c != 't') {
      size_t used = header(R, s, i, n);
      if (used) {
        i += used;
        bol = false;
        continue;
      }
    }
    if (bol && c == '#') { /* preprocessor lines pass as they are */
      const char *nl = memchr(s + i, '\n', n - i);
      size_t e = nl ? (size_t)(nl - s) + 1 : n;
      size_t k = i + 1;
      while (k < e && s[k] == ' ')
        k++;
      if (strncmp(s + k, "pragma unroll", 13))
        buf_putn(o, s + i, e - i);
      i = e;
      continue;
    }
    if (c == '\n') {
      buf_putn(o, "\n", 1);
      i++;
      bol = true;
      continue;
    }
    if (c == ' ' && bol) {
      size_t k = i;
      while (k < n && s[k] == ' ')
        k++;
      if (k < n && s[k] == '#') {
        i = k;
        continue;
      }
      buf_putn(o, s + i, k - i);
      i = k;
      continue;
    }
    bol = false;
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      const char *e = strstr(s + i + 2, "*/");
      size_t end = e && (size_t)(e - s) < n ? (size_t)(e - s) + 2 : n;
      buf_putn(o, s + i, end - i);
      i = end;
      continue;
    }
    if (c == '"') {
      size_t k = i + 1;
      while (k < n && s[k] != '"')
        k += s[k] == '\\' ? 2 : 1;
      buf_putn(o, s + i, k + 1 - i);
      i = k + 1;
      continue;
    }
    if (c == '(') {
      size_t cl = cast_at(R, s, i, n);
      if (cl) {
        size_t e = unary_end(R, s, i + cl, n);
        const char *t = s + i + 1;
        while (*t == ' ')
          t++;
        if (!strncmp(t, "void", 4) && !is_id(t[4]) && o->len &&
            is_id(o->p[o->len - 1])) { /* f(void): a parameter list */
          buf_puts(o, "()");
          i += cl;
          continue;
        }
        if (!strncmp(t, "void", 4) && !is_id(t[4])) {
          /* (void)x; goes; (void)f(...) is the call alone */
          size_t a = i + cl;
          while (a < e && s[a] == ' ')
            a++;
          size_t z = a;
          while (z < e && is_id(s[z]))
            z++;
          if (z < e) {
            rewrite(R, s + a, e - a);
            i = e;
            continue;
          }
          while (e < n && s[e] == ' ')
            e++;
          if (e < n && s[e] == ';')
            e++;
          i = e;
          continue;
        }
        size_t tl = 0;
        while (is_id(t[tl]))
          tl++;
        buf_putn(o, t, tl);
        buf_putn(o, "(", 1);
        rewrite(R, s + i + cl, e - i - cl);
        buf_putn(o, ")", 1);
        i = e;
        continue;
      }
      buf_putn(o, "(", 1);
      i++;
      continue;
    }
    if (c == '[') {
      size_t e = match(s, i, n);
      size_t k = i + 1;
      while (k < e - 1 && isdigit((unsigned char)s[k]))
        k++;
      if (k == e - 1) { /* [] or [4] */
        buf_putn(o, s + i, e - i);
      } else {
        buf_puts(o, "[int(");
        rewrite(R, s + i + 1, e - i - 2);
        buf_puts(o, ")]");
      }
      i = e;
      continue;
    }
    if (c == '-' && i + 1 < n && s[i + 1] == '>') { /* p->x: p is inout */
      buf_putn(o, ".", 1);
      i += 2;
      continue;
    }
    if (c == '*' && !(i + 1 < n && s[i + 1] == '=')) {
      /* unary *p: the inout parameter itself */
      size_t k = o->len;
      while (k > 0 && o->p[k - 1] == ' ')
        k--;
      char prev = k ? o->p[k - 1] : '(';
      if (!(is_id(prev) || prev == ')' || prev == ']')) {
        i++;
        continue;
      }
    }
    if (c == '&' && !(i + 1 < n && s[i + 1] == '&')) {
      /* unary when what precedes is not an operand */
      size_t k = o->len;
      while (k > 0 && o->p[k - 1] == ' ')
        k--;
      char prev = k ? o->p[k - 1] : '(';
      if (i > 0 && s[i - 1] == '&') {
        buf_putn(o, "&", 1);
        i++;
        continue;
      }
      if (!(is_id(prev) || prev == ')' || prev == ']')) {
        i++;
        continue;
      }
      buf_putn(o, "&", 1);
      i++;
      continue;
    }
    if (c == '%' && !(i + 1 < n && s[i + 1] == '=')) {
      /* a % b with two names or numbers: k_rem, C's remainder (GLSL leaves
       * % of negative operands undefined) */
      size_t e = o->len;
      while (e > 0 && o->p[e - 1] == ' ')
        e--;
      size_t a = e;
      while (a > 0 && is_id(o->p[a - 1]))
        a--;
      size_t k = i + 1;
      while (k < n && s[k] == ' ')
        k++;
      size_t z = k;
      while (z < n && is_id(s[z]))
        z++;
      bool left = a < e && !(a > 0 && (o->p[a - 1] == '.' || o->p[a - 1] == ')' ||
                                      o->p[a - 1] == ']'));
      bool right = z > k && !(z < n && (s[z] == '(' || s[z] == '[' || s[z] == '.'));
      if (left && right) {
        char *lhs = arena_printf(R->E->C, "%.*s", (int)(e - a), o->p + a);
        o->len = a;
        buf_printf(o, "k_rem(%s, ", lhs);
        rewrite(R, s + k, z - k);
        buf_puts(o, ")");
        i = z;
        continue;
      }
    }
    if (isdigit((unsigned char)c) && (i == 0 || !is_id(s[i - 1]))) {
      size_t k = i;
      while (k < n && (is_id(s[k]) || s[k] == '.' ||
                       ((s[k] == '-' || s[k] == '+') &&
                        (s[k - 1] == 'e' || s[k - 1] == 'E') &&
                        !(s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')))))
        k++;
      number(R, s, i, k);
      i = k;
      continue;
    }
    if (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]) &&
        (i == 0 || !is_id(s[i - 1]))) {
      size_t k = i;
      while (k < n && (is_id(s[k]) || s[k] == '.'))
        k++;
      number(R, s, i, k);
      i = k;
      continue;
    }
    if (is_id(c)) {
      size_t k = i;
      while (k < n && is_id(s[k]))
        k++;
      size_t len = k - i;
      if (len == 7 && !memcmp(s + i, "typedef", 7) && k + 7 < n &&
          !memcmp(s + k, " struct", 7)) {
        size_t used = typedef_struct(R, s, i, n);
        if (used) {
          i += used;
          continue;
        }
      }
      if ((len == 8 && !memcmp(s + i, "restrict", 8)) ||
          (len == 12 && !memcmp(s + i, "__restrict__", 12))) {
        i = k;
        while (i < n && s[i] == ' ')
          i++;
        continue;
      }
      if (len == 6 && !memcmp(s + i, "printf", 6)) { /* Note [vulkan print] */
        size_t q = k;
        while (q < n && s[q] == ' ')
          q++;
        if (q < n && s[q] == '(') {
          size_t e = match(s, q, n);
          if (!vk_printf(R, s + q + 1, e - q - 2))
            R->print_bad = true;
          i = e;
          continue;
        }
      }
      buf_putn(o, s + i, len);
      /* x.data[i] -> kat(x, int64_t(i)).v[0], Note [vulkan element
       * addresses] */
      if (len == 4 && !memcmp(s + i, "data", 4) && i > 0 && s[i - 1] == '.' &&
          k < n && s[k] == '[') {
        o->len -= 5; /* ".data": kat() takes the array itself */
        o->p[o->len] = 0;
        size_t a = operand_start(o);
        size_t e = match(s, k, n);
        buf_puts(o, ", int64_t(");
        rewrite(R, s + k + 1, e - k - 2);
        buf_puts(o, ")).v[0]");
        buf_insert(o, a, "kat(");
        i = e;
        continue;
      }
      i = k;
      continue;
    }
    buf_putn(o, s + i, 1);
    i++;
  }
}

/* Before the main pass, line by line, what GLSL types more strictly than
 * C: an int literal as a condition (`while (1)`, `if (0)`, `1 ? a : b`)
 * is a bool; `kbool x = 0;` is false; and in a function returning a
 * scalar type T, `return e;` is `return T(e);` (GLSL converts no int
 * literal to int8_t or bool on its own). */
static void typing(Emit *E, const char *s, size_t n, Buf *o) {
  static const char *const rets[] = {
      "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
      "uint32_t", "uint64_t", "float", "double", "kbool", NULL};
  const char *ret = NULL;
  size_t i = 0;
  while (i < n) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - s) + 1 : n;
    const char *line = arena_printf(E->C, "%.*s", (int)(e - i), s + i);
    /* helpers start with fn_qual "" and its space */
    const char *hl = line[0] == ' ' && line[1] != ' ' ? line + 1 : line;
    if (line[0] == '}')
      ret = NULL;
    else if (hl[0] != ' ' && hl[0] != '#' && strstr(line, ") {")) {
      ret = NULL;
      for (int k = 0; rets[k]; k++) {
        size_t l = strlen(rets[k]);
        if (!strncmp(hl, rets[k], l) && hl[l] == ' ')
          ret = rets[k];
      }
    }
    Buf b;
    buf_init(&b, E->C);
    for (const char *p = line; *p;) {
      static const struct { const char *from, *to; } lit[] = {
          {"while (1)", "while (true)"}, {"if (1)", "if (true)"},
          {"if (0)", "if (false)"}, {"(1 ? ", "(true ? "},
          {"(0 ? ", "(false ? "}};
      bool done = false;
      for (size_t k = 0; k < sizeof lit / sizeof *lit && !done; k++)
        if (!strncmp(p, lit[k].from, strlen(lit[k].from)) &&
            (p == line || !is_id(p[-1]))) {
          buf_puts(&b, lit[k].to);
          p += strlen(lit[k].from);
          done = true;
        }
      if (done)
        continue;
      if (!strncmp(p, "kbool ", 6) && (p == line || !is_id(p[-1]))) {
        const char *q = p + 6;
        while (is_id(*q))
          q++;
        if (q > p + 6 && (!strncmp(q, " = 0;", 5) || !strncmp(q, " = 1;", 5))) {
          buf_printf(&b, "%.*s = %s;", (int)(q - p), p, q[3] == '1' ? "true" : "false");
          p = q + 5;
          continue;
        }
      }
      if (ret && !strncmp(p, "return ", 7) && (p == line || !is_id(p[-1]))) {
        const char *q = p + 7;
        int depth = 0;
        while (*q && !(depth == 0 && *q == ';')) {
          depth += *q == '(' || *q == '[';
          depth -= *q == ')' || *q == ']';
          q++;
        }
        if (*q == ';') {
          buf_printf(&b, "return %s(%.*s);", ret, (int)(q - p - 7), p + 7);
          p = q + 1;
          continue;
        }
      }
      buf_putn(&b, p, 1);
      p++;
    }
    buf_putn(o, b.p ? b.p : "", b.len);
    i = e;
  }
}

/* Note [correctly rounded division and sqrt]: Vulkan allows float32
 * division 2.5 ulp of error and sqrt that of 1/inversesqrt; kern's CPU,
 * CUDA (-prec-div, -prec-sqrt) and OpenCL targets round both correctly, as
 * IEEE does, and Warp's goldens come from there. The vulkan target
 * computes a float32 quotient or root in float64 and rounds it once
 * (k_fdiv, k_fsqrt; `sqrt` is defined to the latter), then makes the
 * rounding exact whatever the driver's float64 division or sqrt error:
 * with Q the float32 result and u, d its neighbours, the midpoints
 * m = (Q + u) / 2 and (Q + d) / 2 have 25 significant bits, so m * |b|
 * (49 bits) and m * m (50 bits) are exact in float64, and SPIR-V's
 * float64 multiply and compare are exact operations; comparing them with
 * |a| (or x) tells whether the exact result lies past a midpoint, and Q
 * moves one step if it does (an exact result is never on a midpoint for
 * division or sqrt of floats). Infinities, NaNs, zeros and division by
 * zero keep the float64 route's result. The cost: a kernel that divides
 * floats or takes a sqrt needs shaderFloat64 (every desktop GPU driver
 * and lavapipe have it); where a device lacks it, the runtime refuses
 * the kernel by name. User division of float32 scalars is k_fdiv
 * (common.c's operator emission), and so is a helper's `float x = (float)L
 * / R;` line (fdiv_line); other division inside the shared helpers' text
 * is still the driver's. */

/* Note [exact fma]: C's fma rounds once, and Warp's helpers rely on it
 * (Kahan's difference of products in closest_point_edge_edge, ddot's
 * fused accumulation). GLSL's fma need not fuse, and lavapipe's does not:
 * the determinant of two parallel edges came out 0 instead of 2.6e-7. So
 * the vulkan target's fma is k_fma: for float32 the product is exact in
 * float64 and the sum is rounded to odd (TwoSum gives its error; an inexact
 * sum with an even last bit moves one step toward the error), which makes
 * the final rounding to float32 the correctly rounded fma; for float64,
 * Dekker's exact product (Veltkamp's split) and TwoSum, within an ulp of
 * the fused result. Every step is `precise`, so no driver reassociates
 * it. */

/* Note [vulkan constant zeros]: Warp's scalar -x is 0 - x (+0.0 for x =
 * +0.0), and x * 0.0 keeps x's sign (-0.0 for x < 0) and is NaN for an
 * infinite x.  lavapipe's code generator takes an operand that is the
 * constant 0 as a short cut (0 - x gives -x, x * 0 gives 0), `precise` or
 * not, and with SignedZeroInfNanPreserve declared too
 * (KERN_VULKAN_FLOAT_CONTROLS=1, Mesa 22.3.6, 2026-11-29).  So the vulkan target writes a float
 * scalar 0 - x as k_neg0(x), a select with no constant operand to fold,
 * and x * 0 as k_mulz(x, 0), the product's sign bit from the bits (NaN for
 * NaN or infinite x).  Warp code rarely multiplies by a literal zero;
 * negation costs a compare and a select on NVIDIA where it was one add.
 * Division has the same short cuts (x / 0 undefined: 0 for the local
 * z = wp.float64(0.0) of x / z; 0 / x is 0 for x = 0), reached through
 * constants the driver propagates, not only literals: k_fdiv (float32 and
 * float64) takes a zero operand through k_divz, the result from the bits
 * (inf, NaN or a signed zero). */

/* Note [vulkan int64 compares]: lavapipe (Mesa 22.3.6) compares an int64
 * converted from an int32 wrongly with a constant: for v = int64(x - 2)
 * with x = 0, v < 0 and v < 1 were false and -1 < v true, while v >> 32
 * was -1 and v * 3 negative.  wp.sign, wp.step and wp.abs of an int64
 * therefore take the sign bit (a >> 63) on the vulkan target: as cheap as
 * the compare anywhere, and right on lavapipe.  A user's own int64
 * compare is still the driver's. */

/* Note [vulkan float to int64]: lavapipe's (Mesa 22.3.6) float64 trunc
 * returns x itself for |x| >= 2^31 (wp.trunc(3403510261.7) gave
 * 3403510261.7; floor and ceil are right), and it rewrites
 * float64(int64(x)) as trunc(x), so wp.float64(wp.int64(x)) kept x's
 * fraction.  The vulkan target's trunc of a double is floor or ceil by the
 * sign (k_trunc), and a float64 converted to an int64 or uint64 goes
 * through it: the driver's trunc of an integral value is right. */

/* Note [precise: no contraction]: kern's CPU, CUDA (--fmad=false) and
 * OpenCL targets never contract a * b + c into one fma, and Warp's goldens
 * are computed that way. SPIR-V lets a driver contract unless the result
 * is decorated NoContraction, and NVIDIA's does (run 7: conversions'
 * `x * 0.9 - 2.7` came back one ulp off). GLSL's `precise` on a variable or
 * a function's return type makes glslang decorate every operation that
 * feeds it; so every declaration of a float, double, bool or struct type
 * at the start of a line (locals, helper and user function definitions,
 * `const` ones too) gets `precise`, and so do the inout parameters of a
 * definition (C's pointers, written through). Values that reach memory or a call pass
 * through such a variable or return, or are plain loads and conversions.
 * A bool counts because a comparison decides a branch: svd3's Jacobi
 * rotation takes its half angle from `bool big = G * sh * sh < ch * ch`
 * (Note [warp decompositions] in linalg.c), and a driver that fuses one
 * side into an fma flips it where the two sides are within an ulp, as
 * they are for a matrix with two equal singular values -- the singular
 * vectors' signs then differ from Warp's (NVIDIA, linalg_svd3).  glslang
 * marks a precise bool's operands NoContraction as it does a float's.
 * tests/vulkan/precise.sh pins this on the emitted GLSL. */
static bool precise_type(Rw *R, const char *s, size_t n) {
  if ((n == 5 && !memcmp(s, "float", 5)) || (n == 6 && !memcmp(s, "double", 6)) ||
      (n == 4 && !memcmp(s, "bool", 4)))
    return true;
  for (int i = 0; i < R->ntypes; i++)
    if (strlen(R->types[i]) == n && !memcmp(R->types[i], s, n))
      return true;
  return false;
}

/* `float x = L / R;` of the shared helpers' text (`(T)1 / det`), one
 * top-level operator and a float32 operand spelled out: k_fdiv(L, R)
 * (Note [correctly rounded division and sqrt]). Writes the line and
 * returns true when it applies. */
static bool fdiv_line(Buf *o, const char *s, size_t k, size_t e) {
  if (e - k < 6 || memcmp(s + k, "float ", 6))
    return false;
  const char *eq = memchr(s + k, '=', e - k);
  if (!eq || eq[1] != ' ')
    return false;
  size_t a = (size_t)(eq - s) + 2, z = e;
  while (z > a && (s[z - 1] == '\n' || s[z - 1] == ' '))
    z--;
  if (z <= a || s[z - 1] != ';')
    return false;
  z--;
  size_t slash = 0;
  int depth = 0, ops = 0;
  for (size_t q = a; q < z; q++) {
    char c = s[q];
    depth += c == '(' || c == '[';
    depth -= c == ')' || c == ']';
    if (depth == 0 && strchr("+-*/%?:<>=&|!^,", c) && q > a) {
      ops++;
      if (c == '/' && s[q - 1] == ' ' && q + 1 < z && s[q + 1] == ' ')
        slash = q;
    }
    if (depth < 0)
      return false;
  }
  if (ops != 1 || !slash)
    return false;
  bool lf = !strncmp(s + a, "float(", 6), rf = !strncmp(s + slash + 2, "float(", 6);
  if (!lf && !rf)
    return false;
  buf_putn(o, s + k, a - k);
  buf_puts(o, "k_fdiv(");
  buf_putn(o, s + a, slash - 1 - a);
  buf_puts(o, ", ");
  buf_putn(o, s + slash + 2, z - slash - 2);
  buf_puts(o, ");\n");
  return true;
}

static void precise_pass(Rw *R, const char *s, size_t n, Buf *o) {
  size_t i = 0;
  while (i < n) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - s) + 1 : n;
    size_t k = i;
    while (k < e && s[k] == ' ')
      k++;
    size_t t = k;
    if (e - t > 6 && !memcmp(s + t, "const ", 6))
      t += 6;
    size_t z = t;
    while (z < e && is_id(s[z]))
      z++;
    bool decl = false;
    if (z > t && z < e && s[z] == ' ' && precise_type(R, s + t, z - t)) {
      size_t a = z + 1, b = a;
      while (b < e && is_id(s[b]))
        b++;
      decl = b > a && !isdigit((unsigned char)s[a]) && b < e &&
             (s[b] == ' ' || s[b] == ';' || s[b] == ',' || s[b] == '(' ||
              s[b] == '[');
      /* `float x = ...` or `T f(...) {`, not `return x;`-like words */
      if (decl && (b - a == 6 && !memcmp(s + a, "return", 6)))
        decl = false;
    }
    buf_putn(o, s + i, k - i);
    if (decl)
      buf_puts(o, "precise ");
    if (decl && fdiv_line(o, s, k, e))
      i = e;
    else {
    /* inout parameters (C's pointers) of a definition are written through */
    bool def = (decl || (z - t == 4 && !memcmp(s + t, "void", 4))) && e - k > 4 && !memcmp(s + e - 4, ") {\n", 4);
    for (size_t q = k; q < e; q++) {
      if (def && (q == k || !is_id(s[q - 1])) && e - q > 6 &&
          !memcmp(s + q, "inout ", 6))
        buf_puts(o, "precise ");
      buf_putn(o, s + q, 1);
    }
    i = e;
    }
  }
}

/* Note [vulkan float64 math]
 * GLSL has sin, exp, pow, atan, ... for float32 only; sqrt, abs, floor,
 * frexp and ldexp it has for float64 too.  kern's own float64 versions
 * (src/emit/vk_f64.inc, k64_*: argument reduction and Taylor series,
 * log through 2 atanh(f / (2 + f)), pow through the log as a double-double)
 * are written into the shader only where its text calls one of the names
 * below with a float64 argument's overload in mind; the names are
 * overloaded on double beside GLSL's float ones, so float32 calls keep
 * the driver's versions.  Accuracy against glibc: tests/vulkan/f64math.
 *
 * Note [vulkan atan]: GLSL has atan(y, x) for float only, and leaves
 * atan(0, 0) undefined, so float32's atan2 is k64_atan2 (C99's special
 * cases: zeros by sign, infinities) rounded once. */
static const char *const vk_f64_names[][2] = {
    {"sin", "x"}, {"cos", "x"}, {"tan", "x"}, {"asin", "x"}, {"acos", "x"},
    {"atan", "x"}, {"atan2", "y, x"}, {"sinh", "x"}, {"cosh", "x"},
    {"tanh", "x"}, {"exp", "x"}, {"exp2", "x"}, {"log", "x"},
    {"log2", "x"}, {"log10", "x"}, {"pow", "x, y"}, {"cbrt", "x"},
    {"erf", "x"}, {"erfc", "x"},
};

static bool vk_calls(const char *s, size_t n, const char *name);
/* a call of km_NAME (Note [vulkan float32 math]) */
static bool vk_km_calls(const char *s, size_t n, const char *name) {
  char k[32];
  snprintf(k, sizeof k, "km_%s", name);
  return vk_calls(s, n, k);
}

static bool vk_calls(const char *s, size_t n, const char *name) {
  size_t k = strlen(name);
  for (const char *p = s; p && (size_t)(p - s) + k < n;) {
    const char *q = strstr(p, name);
    if (!q || (size_t)(q - s) + k >= n)
      return false;
    bool start = q == s || !(isalnum((unsigned char)q[-1]) || q[-1] == '_');
    if (start && q[k] == '(')
      return true;
    p = q + 1;
  }
  return false;
}

/* Note [vulkan float32 math]
 * GLSL's float32 sin, exp, pow, ... have no required precision (lavapipe's
 * are ~1e-4 relative off libm), pow of a negative base is undefined, and
 * specials (NaN, inf, -0) are the driver's.  So the shader's calls of the
 * names in vk_f64_names are renamed km_NAME (vk_math_rename, after the
 * precise pass) and km_NAME is defined for float32 too: the float64
 * k64_NAME of the argument, rounded once.  k64_* is within ~1 ulp of the
 * exact value in float64, so rounding it to float32 gives the correctly
 * rounded float32 result except when the exact value lies within ~2^-29
 * ulp of a rounding boundary: within 1 ulp of libm's float32 functions
 * everywhere (tests/vulkan/f32math_test.py measures it).  float16 math
 * goes through float32 (the C emitter widens to float first).
 * Method chosen: float64 and round once, over float32 range reduction and
 * minimax polynomials, because it reuses the measured k64_* (one body
 * per function) and the Vulkan target already needs shaderFloat64 for
 * float32 division and sqrt (Note [correctly rounded division and
 * sqrt]).  Its cost: float64 arithmetic, 1/32-1/64 rate on consumer
 * GPUs.  Native float32 polynomial versions are the follow-up for speed. */
static bool vk_id(char c) { return isalnum((unsigned char)c) || c == '_'; }

static void vk_math_rename(Emit *E, Buf *body) {
  if (!body->p)
    return;
  const char *s = body->p;
  size_t n = body->len, nn = sizeof vk_f64_names / sizeof vk_f64_names[0];
  Buf o;
  buf_init(&o, E->C);
  o.keep = true;
  size_t i = 0;
  while (i < n) {
    if (vk_id(s[i]) && (i == 0 || !(vk_id(s[i - 1]) || s[i - 1] == '.'))) {
      size_t j = i;
      while (j < n && vk_id(s[j]))
        j++;
      bool hit = false;
      for (size_t k = 0; k < nn && !hit; k++) {
        size_t l = strlen(vk_f64_names[k][0]);
        hit = j - i == l && j < n && s[j] == '(' &&
              !memcmp(s + i, vk_f64_names[k][0], l);
      }
      if (hit)
        buf_puts(&o, "km_");
      buf_putn(&o, s + i, j - i);
      i = j;
      continue;
    }
    buf_putn(&o, s + i, 1);
    i++;
  }
  *body = o;
}

/* Note [vulkan loop unrolling]: Mesa unrolls every loop whose trip count
 * it knows, and lavapipe then builds the copies with LLVM, eight lanes
 * wide: a 5x5 tile kernel (tests/conformance/tile_linalg.py, 334 loops)
 * took 7 min 23 s to build on lavapipe and 8.6 s with its loops kept
 * (2 cores, 2026-11-29).  So every `for` and `while` loop of the module
 * is marked K_LOOP, which the head defines as [[dont_unroll]] when the
 * runtime defines KVK_NO_UNROLL (on llvmpipe; KERN_VULKAN_LOOP_UNROLL
 * overrides, backend_vulkan.c) and as nothing elsewhere, where the
 * driver's own heuristics stay.  The grid-stride loop's K_UNROLL_HINT
 * copy loop (Note [vulkan unroll]) and a do-while's closing `while` are
 * left as they are. */
static void vk_loop_marks(Emit *E, Buf *text, size_t from) {
  const char *s = text->p;
  size_t n = text->len;
  Buf o;
  buf_init(&o, E->C);
  o.keep = true;
  buf_putn(&o, s, from);
  for (size_t i = from; i < n;) {
    size_t l = !strncmp(s + i, "for (", 5) ? 3 : !strncmp(s + i, "while (", 7) ? 5 : 0;
    if (l && (i == 0 || !vk_id(s[i - 1]))) {
      size_t k = i;
      while (k > 0 && s[k - 1] == ' ')
        k--;
      bool hint = k >= 13 && !strncmp(s + k - 13, "K_UNROLL_HINT", 13);
      bool closing = k > 0 && s[k - 1] == '}' && l == 5;
      if (!hint && !closing)
        buf_puts(&o, "K_LOOP ");
    }
    size_t m = l ? l : 1;
    buf_putn(&o, s + i, m);
    i += m;
  }
  *text = o;
}

/* Note [vulkan float32 denormals]: NVIDIA's Vulkan driver has no float32
 * DenormPreserve (Note [vulkan float controls] in backend_vulkan.c), so a
 * float32 denormal may be flushed to zero by any float32 operation, the
 * conversion to float64 included: km_log(1e-40) gave -inf there, where
 * Warp gives -92.1 (bi_math_special32).  So the float32 km_NAME functions
 * (Note [vulkan float32 math]), atan2, and float32 division and sqrt
 * (k_fdiv, k_fsqrt; k_divz tests zeros by their bits) take their
 * arguments through
 * k_f2d, which reads the bits: a zero exponent with a nonzero mantissa m
 * is m * 2^-149, exact in float64 arithmetic and a normal float64 (so
 * float64 flushing, which some drivers do too, cannot touch it); and
 * they round the result through k_d2f, which builds a result below
 * 2^-126 from its bits (the mantissa is |r| * 2^149 rounded to even), so
 * sin(1e-40) stays 1e-40 where the driver would flush float(r).  Both
 * cost a few integer operations beside the float64 arithmetic.  (k_fdiv
 * rounds a denormal quotient from the float64 one: k_fround1's tie
 * correction reads abs(q), which the driver flushes, so it is skipped
 * there.)  Warp clamps asin's and acos's argument to [-1, 1]; kern's
 * float32 clamp is two selects the driver may make a flushing min and
 * max, so on this target km_asin and km_acos clamp in float64 (k_clamp1,
 * the same selects as k_min and k_max: NaN gives -1, as Warp's clamp
 * does) and the builtin calls them unclamped
 * (common.c).  The driver's own float32 operations on a denormal (abs,
 * negation, compares, +, *) still flush it on NVIDIA: making those
 * exact would mean emulating float32 arithmetic.  On
 * lavapipe, which keeps denormals, results are unchanged
 * (bi_math_special32, vulkan_f32math); KERN_VULKAN_DENORM_FLUSH=1
 * declares float32 DenormFlushToZero to emulate NVIDIA, but lavapipe
 * (Mesa 22.3.6) does not honour it (1e-41 * 3 stays 3e-41), so the
 * flushing itself is only seen on NVIDIA. */
static void vk_f64_math(Buf *o, const char *body, size_t n) {
  if (!body)
    return;
  bool any = false;
  size_t nn = sizeof vk_f64_names / sizeof vk_f64_names[0];
  for (size_t i = 0; i < nn && !any; i++)
    any = vk_calls(body, n, vk_f64_names[i][0]) || vk_km_calls(body, n, vk_f64_names[i][0]);
  if (!any)
    return;
  buf_puts(o,
#include "vk_f64.inc"
  );
  /* Warp's clamp of asin's and acos's argument (Note [vulkan float32 denormals]) */
  buf_puts(o, "precise double k_clamp1(double x) { "
              "precise double m = -1.0lf >= x || isnan(x) ? -1.0lf : x; "
              "return m <= 1.0lf ? m : 1.0lf; }\n");
  for (size_t i = 0; i < nn; i++) {
    const char *f = vk_f64_names[i][0], *a = vk_f64_names[i][1];
    if (vk_km_calls(body, n, f)) { /* Note [vulkan float32 math] */
      bool two = strchr(a, ',') != NULL;
      const char *p = two ? (a[0] == 'y' ? "y, double x" : "x, double y") : "x";
      const char *q = two ? (a[0] == 'y' ? "y, float x" : "x, float y") : "x";
      bool cl = !strcmp(f, "asin") || !strcmp(f, "acos"); /* Warp's clamp */
      const char *c = two ? (a[0] == 'y' ? "k_f2d(y), k_f2d(x)" : "k_f2d(x), k_f2d(y)")
                          : cl ? "k_clamp1(k_f2d(x))" : "k_f2d(x)";
      buf_printf(o, "double km_%s(double %s) { return k64_%s(%s); }\n", f, p, f,
                 cl ? "k_clamp1(x)" : a);
      buf_printf(o, "float km_%s(float %s) { return k_d2f(k64_%s(%s)); }\n", f, q, f, c);
    }
    if (!vk_calls(body, n, f))
      continue;
    bool two = strchr(a, ',') != NULL;
    buf_printf(o, "double %s(double %s%s) { return k64_%s(%s); }\n", f,
               two ? (a[0] == 'y' ? "y, double x" : "x, double y") : "x", "",
               f, a);
    if (!strcmp(f, "atan2"))
      buf_puts(o, "float atan2(float y, float x) { "
                  "return k_d2f(k64_atan2(k_f2d(y), k_f2d(x))); }\n");
  }
}

static void vk_finish(Emit *E, Buf *text) {
  Buf o;
  buf_init(&o, E->C);
  o.keep = true;
  /* the comment line first, then the head */
  const char *nl = text->p ? memchr(text->p, '\n', text->len) : NULL;
  size_t first = nl ? (size_t)(nl - text->p) + 1 : 0;
  buf_putn(&o, text->p, first);
  buf_puts(&o,
           "#version 460\n"
           "#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
           "#extension GL_EXT_buffer_reference : require\n"
           "#extension GL_EXT_shader_atomic_float : enable\n"
           "#extension GL_EXT_shader_atomic_float2 : enable\n"
           "#extension GL_EXT_shader_atomic_int64 : enable\n"
           "#extension GL_KHR_shader_subgroup_basic : enable\n"
           "#extension GL_KHR_shader_subgroup_arithmetic : enable\n"
           "#extension GL_EXT_control_flow_attributes : enable\n"

           "#ifndef K_UNROLL\n#define K_UNROLL 1\n#endif\n#define K_UNROLL_HINT [[unroll]]\n"
           /* Note [vulkan loop unrolling] */
           "#ifdef KVK_NO_UNROLL\n#define K_LOOP [[dont_unroll]]\n#else\n#define K_LOOP\n#endif\n"
           "layout(local_size_x = 64) in;\n");
  size_t marks_from = o.len;
  /* Note [vulkan scratch frame] (vk_fixed.c): a third push constant, the
   * frames' buffer, only where the module has fixed arrays */
  if (emit_vk_uses_scratch(E->m))
    buf_printf(&o, "layout(push_constant) uniform KPC { uint64_t args; uint64_t print; "
                   "uint64_t scratch; } kpc;\n"
                   "uint64_t k_scr;\n#define K_FRAME %lldul\n",
               (long long)((E->vk_frame > 16 ? E->vk_frame : 16) + 15) / 16 * 16);
  else
    buf_puts(&o, "layout(push_constant) uniform KPC { uint64_t args; uint64_t print; } kpc;\n");
  /* Note [debug mode on vulkan] (common.c): the invocation's fault */
  if (E->opts && E->opts->debug)
    buf_puts(&o, "bool k_bad = false;\nint64_t k_fsite, k_fi, k_fn;\n");
  buf_puts(&o,
           "#define kbool bool\n"
           "#define K_INF_F uintBitsToFloat(0x7f800000u)\n"
           "#define K_NAN_F uintBitsToFloat(0x7fffffffu)\n"
           "#define fmin min\n#define fmax max\n#define fminf min\n#define fmaxf max\n"
           "#define fabs abs\n#define fabsf abs\n"
           "#define K_REM(T) T k_rem(T a, T b) { return a - (a / b) * b; }\n"
           "K_REM(int8_t) K_REM(int16_t) K_REM(int32_t) K_REM(int64_t)\n"
           "K_REM(uint8_t) K_REM(uint16_t) K_REM(uint32_t) K_REM(uint64_t)\n"
           /* Note [vulkan float to int64] */
           "precise double k_trunc(double x) { return x < 0.0lf ? ceil(x) : floor(x); }\n"
           "precise float k_trunc(float x) { return trunc(x); }\n#define trunc k_trunc\n"
           "precise float k_cround(float x) { precise float t = trunc(x); "
           "return abs(x - t) >= 0.5f ? t + sign(x) : t; }\n"
           "precise double k_cround(double x) { precise double t = trunc(x); "
           "return abs(x - t) >= 0.5lf ? t + sign(x) : t; }\n"
           "#define round k_cround\n"
           /* C99's rint in the default rounding mode: to nearest, ties to
            * even (lavapipe's float64 roundEven gave -1 for -1.5); exact:
            * x - floor(x) is, and so are the parity test and the steps.
            * isfinite on float and double */
           "#define K_RINT(T) T k_rint(T x) { T t = floor(x); T d = x - t; "
           "if (d > T(0.5) || (d == T(0.5) && t - T(2) * floor(t * T(0.5)) == T(1))) "
           "t += T(1); return t == T(0) && x < T(0) ? -T(0) : t; }\n"
           "K_RINT(float) K_RINT(double)\n"
           "#define rint k_rint\n#define rintf k_rint\n"
           /* C's fmod, exact: subtract |b| scaled by powers of two, each
            * step exact (Sterbenz); GLSL has only floor-based mod */
           "#define K_FMOD(T) T fmod(T a, T b) { T x = abs(a), y = abs(b); "
           "if (isnan(x) || isnan(y) || isinf(x) || y == T(0)) return (x - x) / (y - y); "
           "if (isinf(y) || x < y) return a; "
           "int ey; frexp(y, ey); "
           "while (x >= y) { int ex; frexp(x, ex); T t = ldexp(y, ex - ey); "
           "if (t > x) t = t * T(0.5); x = x - t; } "
           "return a < T(0) ? -x : x; }\n"
           "K_FMOD(float) K_FMOD(double)\n#define fmodf fmod\n"
           /* C's copysign, exact: the magnitude's bits and the sign's */
           "precise float copysign(float a, float b) { return uintBitsToFloat("
           "(floatBitsToUint(a) & 0x7fffffffu) | (floatBitsToUint(b) & 0x80000000u)); }\n"
           "precise double copysign(double a, double b) { return uint64BitsToDouble("
           "(doubleBitsToUint64(a) & 0x7ffffffffffffffful) | "
           "(doubleBitsToUint64(b) & 0x8000000000000000ul)); }\n"
           /* Note [vulkan constant zeros] */
           "#define K_ZERO_OPS(T, BITS, FROM, S, N) "
           "precise T k_neg0(T x) { return x == T(0) ? T(0) : -x; } "
           "precise T k_mulz(T x, T z) { return isnan(x) ? x : isinf(x) ? "
           "FROM(N) : FROM((BITS(x) ^ BITS(z)) & S); }\n"
           "K_ZERO_OPS(float, floatBitsToUint, uintBitsToFloat, 0x80000000u, 0xffc00000u)\n"
           "K_ZERO_OPS(double, doubleBitsToUint64, uint64BitsToDouble, "
           "0x8000000000000000ul, 0xfff8000000000000ul)\n"
           "bool isfinite(float x) { return !isinf(x) && !isnan(x); }\n"
           "bool isfinite(double x) { return !isinf(x) && !isnan(x); }\n"
           /* Note [correctly rounded division and sqrt] */
           /* Note [vulkan float32 denormals] */
           "precise double k_f2d(float x) { uint b = floatBitsToUint(x); "
           "if ((b & 0x7f800000u) != 0u || (b & 0x7fffffu) == 0u) return double(x); "
           "precise double m = ldexp(double(b & 0x7fffffu), -149); "
           "return (b & 0x80000000u) != 0u ? -m : m; }\n"
           "precise float k_d2f(double r) { precise double a = abs(r); "
           "if (!(a < 1.1754943508222875e-38lf) || a == 0.0lf) return float(r); "
           "uint m = uint(roundEven(ldexp(a, 149))); "
           "return uintBitsToFloat(r < 0.0lf ? m | 0x80000000u : m); }\n"
           "precise float k_fround1(float q, double A, double B, bool sq) {\n"
           "  precise float Q = abs(q);\n"
           "  if (isnan(Q) || isinf(Q) || Q == 0.0f) return q;\n"
           "  precise float up = uintBitsToFloat(floatBitsToUint(Q) + 1u);\n"
           "  precise float dn = uintBitsToFloat(floatBitsToUint(Q) - 1u);\n"
           "  precise double mu = (double(Q) + double(up)) * 0.5lf;\n"
           "  precise double md = (double(Q) + double(dn)) * 0.5lf;\n"
           "  precise double pu = sq ? mu * mu : mu * B;\n"
           "  precise double pd = sq ? md * md : md * B;\n"
           "  if (pu < A) Q = up; else if (pd > A) Q = dn;\n"
           "  return q < 0.0f ? -Q : Q;\n}\n"
           /* Note [vulkan constant zeros]: a zero operand of a division */
           "#define K_DIVZ(T, BITS, FROM, S, INF, N, Z) precise T k_divz(T a, T b) { "
           "if (isnan(a) || isnan(b) || ((BITS(a) & ~S) == Z && (BITS(b) & ~S) == Z)) return FROM(N); "
           "return FROM(((BITS(b) & ~S) == Z ? INF : Z) | ((BITS(a) ^ BITS(b)) & S)); }\n"
           "K_DIVZ(float, floatBitsToUint, uintBitsToFloat, 0x80000000u, 0x7f800000u, 0xffc00000u, 0u)\n"
           "K_DIVZ(double, doubleBitsToUint64, uint64BitsToDouble, 0x8000000000000000ul, "
           "0x7ff0000000000000ul, 0xfff8000000000000ul, 0ul)\n"
           "precise float k_fdiv(float a, float b) {\n"
           "  precise double A = k_f2d(a), B = k_f2d(b);\n"
           "  if (A == 0.0lf || B == 0.0lf) return k_divz(a, b);\n"
           "  precise float q = k_d2f(A / B);\n"
           "  if (isinf(a) || isinf(b)) return q;\n"
           "  return k_fround1(q, abs(A), abs(B), false);\n}\n"
           "precise double k_fdiv(double a, double b) { "
           "return a == 0.0lf || b == 0.0lf ? k_divz(a, b) : a / b; }\n"
           "precise float k_fsqrt(float x) {\n"
           "  precise double X = k_f2d(x);\n"
           "  precise float s = float(sqrt(X));\n"
           "  if (!(X > 0.0lf) || isinf(x)) return s;\n"
           "  return k_fround1(s, X, 1.0lf, true);\n}\n"
           "precise double k_fsqrt(double x) { return sqrt(x); }\n"
           "#define sqrt k_fsqrt\n"
           /* Note [exact fma] */
           "precise float k_fma(float a, float b, float c) {\n"
           "  precise double p = double(a) * double(b);\n"
           "  precise double s = p + double(c);\n"
           "  precise double v = s - p;\n"
           "  precise double e = (p - (s - v)) + (double(c) - v);\n"
           "  if (e != 0.0lf && !isinf(s) && !isnan(s) &&\n"
           "      (doubleBitsToUint64(s) & 1ul) == 0ul)\n"
           "    s = uint64BitsToDouble(doubleBitsToUint64(s) + ((e > 0.0lf) == (s > 0.0lf) ? 1ul : ~0ul));\n"
           "  return float(s);\n}\n"
           "precise double k_fma(double a, double b, double c) {\n"
           "  precise double p = a * b;\n"
           "  if (isinf(p) || isnan(p) || abs(a) > 1e150lf || abs(b) > 1e150lf) return p + c;\n"
           "  precise double ka = a * 134217729.0lf, kb = b * 134217729.0lf;\n"
           "  precise double ah = ka - (ka - a), al = a - ah;\n"
           "  precise double bh = kb - (kb - b), bl = b - bh;\n"
           "  precise double pe = ((ah * bh - p) + ah * bl + al * bh) + al * bl;\n"
           "  precise double s = p + c;\n"
           "  precise double v = s - p;\n"
           "  precise double e = (p - (s - v)) + (c - v);\n"
           "  return s + (e + pe);\n}\n"
           "#define fma k_fma\n"
           "struct kern__dims { int64_t dim[4]; int64_t total; int64_t chunk; "
           "int64_t begin; int64_t block; };\n");
  Buf body;
  buf_init(&body, E->C);
  body.keep = true;
  Rw R;
  memset(&R, 0, sizeof R);
  R.E = E;
  R.o = &body;
  buf_init(&R.prints, E->C);
  R.prints.keep = true;
  Buf typed;
  buf_init(&typed, E->C);
  typed.keep = true;
  typing(E, text->p + first, text->len - first, &typed);
  rewrite(&R, typed.p ? typed.p : "", typed.len);
  {
    Buf pr;
    buf_init(&pr, E->C);
    pr.keep = true;
    precise_pass(&R, body.p ? body.p : "", body.len, &pr);
    body = pr;
  }
  vk_math_rename(E, &body); /* Note [vulkan float32 math] */
  /* the correctly rounded float32 division and sqrt compute in float64
   * (Note [correctly rounded division and sqrt]): the device needs
   * shaderFloat64, and the runtime refuses by name where it lacks it */
  if (body.p && (strstr(body.p, "k_fdiv(") || strstr(body.p, "sqrt(") ||
                 strstr(body.p, "doubleBitsToUint64(double(") ||
                 strstr(body.p, "atan2(") || strstr(body.p, "km_"))) {
    for (IrFunc *f = E->m->funcs; f; f = f->next)
      f->uses_fp64 = true;
    for (IrFunc *f = E->m->kernels; f; f = f->next)
      f->uses_fp64 = true;
  }
  if (R.print_bad)
    buf_puts(&o, "#error kern: a printf format the vulkan target does not take\n");
  if (R.nprints) { /* Note [vulkan print] */
    buf_puts(&o, "layout(buffer_reference, std430, buffer_reference_align = 8) "
                 "buffer kern_prbuf { uint n; uint cap; uint64_t w[]; };\n");
    for (int a = 0; a < 64; a++) {
      if (!(R.print_arities >> a & 1))
        continue;
      buf_printf(&o, "void k_print_%d(uint id", a);
      for (int j = 0; j < a; j++)
        buf_printf(&o, ", uint64_t a%d", j);
      buf_printf(&o, ") {\n  if (kpc.print == 0ul) return;\n"
                     "  kern_prbuf b = kern_prbuf(kpc.print);\n"
                     "  uint at = atomicAdd(b.n, %du);\n"
                     "  if (at + %du > b.cap) return;\n"
                     "  b.w[at] = uint64_t(id);\n", a + 1, a + 1);
      for (int j = 0; j < a; j++)
        buf_printf(&o, "  b.w[at + %du] = a%d;\n", j + 1, j);
      buf_puts(&o, "}\n");
    }
  }
  vk_f64_math(&o, body.p, body.len);
  buf_putn(&o, body.p ? body.p : "", body.len);
  if (R.nprints)
    buf_putn(&o, R.prints.p, R.prints.len);
  if (emit_vk_uses_scratch(E->m)) /* Note [vulkan scratch frame] */
    buf_printf(&o, "// kern-scratch %lld\n",
               (long long)((E->vk_frame > 16 ? E->vk_frame : 16) + 15) / 16 * 16);
  buf_puts(&o, "\nvoid main() { KERN_MAIN(); }\n");
  vk_loop_marks(E, &o, marks_from);
  *text = o;
}

const Target target_vulkan = {
    .id = KERN_TARGET_VULKAN,
    .fn_qual = "",
    .global = "",
    .restrict_kw = "",
    .int64_fmt = "l",
    .overloaded_math = true,
    .prelude = vk_prelude,
    .kernel = vk_kernel,
    .atomic_helper = vk_atomic,
    .finish = vk_finish,
};
