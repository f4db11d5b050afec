/*
 * opencl.c -- OpenCL C 1.2.
 *
 * OpenCL cannot pass a struct holding a pointer to a kernel, so an array
 * parameter arrives as a __global pointer plus a kern__shape and is
 * reassembled into the same struct the other targets use.  The loop shape
 * follows the device (PERFORMANCE.md: a 20x difference either way): the
 * backend sets kern__dims.chunk > 0 on CPUs, where each work item owns a
 * contiguous chunk, and 0 on GPUs, where a grid-stride loop keeps accesses
 * coalesced.  Aggregated atomics combine in local memory and leave each
 * work-group as one atomic; float atomics are compare-and-swap loops on the
 * value's bits, 64-bit ones need cl_khr_int64_base_atomics.
 */
#include <string.h>
#include "emit.h"

/* OpenCL's work-group limit for aggregation scratch; the backend never
 * launches larger groups. */
#define OCL_MAX_GROUP 256

static bool uses_int64_atomics(Emit *E) {
  for (int i = 0; i < E->nhave; i++)
    if (!strncmp(E->have[i], "k_atomic_", 9) &&
        (strstr(E->have[i], "i64") || strstr(E->have[i], "u64") ||
         strstr(E->have[i], "f64")))
      return true;
  return false;
}

static bool uses_fp64(Emit *E) {
  for (IrFunc *f = E->m->kernels; f; f = f->next)
    if (f->uses_fp64)
      return true;
  for (IrFunc *f = E->m->funcs; f; f = f->next)
    if (f->uses_fp64)
      return true;
  for (int i = 0; i < E->nhave; i++)
    if (strstr(E->have[i], "f64"))
      return true;
  return false;
}

static void ocl_prelude(Emit *E) {
  if (uses_fp64(E))
    emit_line(E, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable");
  if (uses_int64_atomics(E)) {
    emit_line(E, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable");
    emit_line(E, "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable");
  }
  /* No contraction of a * b + c into fma: results must match the other
   * targets and Warp's CPU build bit for bit where C allows. */
  emit_line(E, "#pragma OPENCL FP_CONTRACT OFF");
  emit_line(E, "typedef char int8_t;");
  emit_line(E, "typedef short int16_t;");
  emit_line(E, "typedef int int32_t;");
  emit_line(E, "typedef long int64_t;");
  emit_line(E, "typedef uchar uint8_t;");
  emit_line(E, "typedef ushort uint16_t;");
  emit_line(E, "typedef uint uint32_t;");
  emit_line(E, "typedef ulong uint64_t;");
  emit_line(E, "typedef uchar kbool;");
  emit_line(E, "typedef struct { int64_t d[4]; int64_t off; } kern__shape;");
  emit_line(E, "typedef struct { int64_t dim[4]; int64_t total; int64_t chunk; int64_t begin; int64_t block; } kern__dims;");
  emit_line(E, "#define K_INF_F INFINITY");
  emit_line(E, "#define K_NAN_F NAN");
}

static void ocl_atomic(Emit *E, Buf *b, int bi, const Type *t,
                       const char *name) {
  const char *T = emit_ctype(E, t);
  const char *Q = E->T->fn_qual;
  kern_scalar sc = t->sc;
  bool isf = sc_is_float(sc), is64 = sc_bits(sc) == 64;
  const char *pre = is64 ? "atom_" : "atomic_";
  const char *I = is64 ? "long" : "int";
  const char *tb = sc == KERN_SCALAR_FLOAT64 ? "as_long" : sc == KERN_SCALAR_FLOAT32 ? "as_int"
                   : is64 ? "(long)" : "(int)";
  const char *fb = sc == KERN_SCALAR_FLOAT64 ? "as_double" : sc == KERN_SCALAR_FLOAT32
                   ? "as_float" : arena_printf(E->C, "(%s)", T);
  const char *cas = is64 ? "atom_cmpxchg" : "atomic_cmpxchg";
  if (isf || bi == BI_ATOMIC_MIN || bi == BI_ATOMIC_MAX) {
    if (!isf && bi != BI_ATOMIC_ADD && bi != BI_ATOMIC_SUB && bi != BI_ATOMIC_EXCH &&
        bi != BI_ATOMIC_CAS) {
      buf_printf(b, "%s %s %s(__global %s *p, %s v) { return %s%s(p, v); }\n", Q,
                 T, name, T, T, pre, bi == BI_ATOMIC_MIN ? "min" : "max");
      return;
    }
  }
  if (!isf) {
    switch (bi) {
    case BI_ATOMIC_ADD: case BI_ATOMIC_SUB: case BI_ATOMIC_AND:
    case BI_ATOMIC_OR: case BI_ATOMIC_XOR: case BI_ATOMIC_EXCH: {
      const char *op = bi == BI_ATOMIC_ADD ? "add" : bi == BI_ATOMIC_SUB ? "sub"
                       : bi == BI_ATOMIC_AND ? "and" : bi == BI_ATOMIC_OR ? "or"
                       : bi == BI_ATOMIC_XOR ? "xor" : "xchg";
      buf_printf(b, "%s %s %s(__global %s *p, %s v) { return %s%s(p, v); }\n", Q,
                 T, name, T, T, pre, op);
      return;
    }
    case BI_ATOMIC_CAS:
      buf_printf(b, "%s %s %s(__global %s *p, %s cmp, %s v) { return %s(p, cmp, v); }\n",
                 Q, T, name, T, T, T, cas);
      return;
    }
  }
  /* floats: compare-and-swap on the bits */
  const char *upd;
  if (bi == BI_ATOMIC_ADD)
    upd = "o + v";
  else if (bi == BI_ATOMIC_SUB)
    upd = "o - v";
  else if (bi == BI_ATOMIC_MIN)
    upd = "fmin(o, v)";
  else if (bi == BI_ATOMIC_MAX)
    upd = "fmax(o, v)";
  else
    upd = "v";
  if (bi == BI_ATOMIC_CAS) {
    buf_printf(b, "%s %s %s(__global %s *p, %s cmp, %s v) {\n"
                  "  return %s(%s((volatile __global %s *)p, %s(cmp), %s(v)));\n}\n",
               Q, T, name, T, T, T, fb, cas, I, tb, tb);
    return;
  }
  /* Note [NVIDIA float atomics]: OpenCL 1.2 has no float atomics, and a
   * compare-and-swap loop on one address from every work-group of a
   * reduction serialises in the L2 with retries growing with the number of
   * groups (NVIDIA OpenCL on an H200: 8 groups per SM 0.5 ms, 32 per SM
   * 4.0 ms for the same sum of squares, where CUDA's native atomicAdd takes
   * 0.18 ms).  NVIDIA's OpenCL compiler accepts inline PTX, so there, and
   * only there (the backend defines KERN_NV_PTX for NVIDIA devices), add
   * and subtract are the hardware's atom.global.add, as in CUDA. */
  if ((bi == BI_ATOMIC_ADD || bi == BI_ATOMIC_SUB) &&
      (sc == KERN_SCALAR_FLOAT32 || sc == KERN_SCALAR_FLOAT64)) {
    const char *ptx = sc == KERN_SCALAR_FLOAT64 ? "f64" : "f32";
    const char *cons = sc == KERN_SCALAR_FLOAT64 ? "d" : "f";
    buf_printf(b, "#ifdef KERN_NV_PTX\n"
                  "%s %s %s(__global %s *p, %s v) {\n"
                  "  %s o;\n"
                  "  __asm__ volatile(\"atom.global.add.%s %%0, [%%1], %%2;\" : \"=%s\"(o) : "
                  "\"l\"(p), \"%s\"(%sv) : \"memory\");\n"
                  "  return o;\n}\n#else\n",
               Q, T, name, T, T, T, ptx, cons, cons,
               bi == BI_ATOMIC_SUB ? "-" : "");
  }
  buf_printf(b, "%s %s %s(__global %s *p, %s v) {\n"
                "  volatile __global %s *q = (volatile __global %s *)p;\n"
                "  %s old = *q, as;\n"
                "  do {\n    as = old;\n    %s o = %s(as);\n    %s nv = %s;\n"
                "    old = %s(q, as, %s(nv));\n  } while (old != as);\n"
                "  return %s(old);\n}\n",
             Q, T, name, T, T, I, I, I, T, fb, T, upd, cas, tb, fb);
  if ((bi == BI_ATOMIC_ADD || bi == BI_ATOMIC_SUB) &&
      (sc == KERN_SCALAR_FLOAT32 || sc == KERN_SCALAR_FLOAT64))
    buf_puts(b, "#endif\n");
}

static void ocl_kernel(Emit *E, IrFunc *f) {
  Buf sig;
  buf_init(&sig, E->C);
  /* a block of exactly the block size the module is compiled for (Note
   * [block exchange] in lower/check_tile.c) */
  if (f->uses_xchg)
    buf_printf(&sig, "__kernel __attribute__((reqd_work_group_size(%d, 1, 1))) "
                     "void %s(", E->C->block, f->symbol);
  else
    buf_printf(&sig, "__kernel void %s(", f->symbol);
  for (IrVar *p = f->params; p; p = p->next) {
    if (p->ty->kind == TY_ARRAY && p->ty->indexed)
      emit_indexed_ocl_params(E, &sig, p); /* emit/indexed.c */
    else if (p->ty->kind == TY_ARRAY)
      buf_printf(&sig, "__global %s *%s_p, kern__shape %s_s, ",
                 emit_stype(E, p->ty->elem), p->name, p->name);
    else
      buf_printf(&sig, "%s %s, ", emit_ctype(E, p->ty), p->name);
  }
  buf_puts(&sig, "kern__dims k_dims) {");
  emit_line(E, "%s", sig.p);
  E->indent++;
  for (IrAgg *g = f->aggs; g; g = g->next)
    emit_line(E, "__local %s k_sh%d[%d];", emit_ctype(E, g->ty), g->id,
              OCL_MAX_GROUP);
  emit_xchg_buffer(E, f);
  for (IrVar *p = f->params; p; p = p->next) {
    if (p->ty->kind != TY_ARRAY)
      continue;
    if (p->ty->indexed) {
      emit_indexed_ocl_prologue(E, p);
      continue;
    }
    emit_line(E, "%s %s;", emit_ctype(E, p->ty), p->name);
    /* off is non-zero for a shard of a sharded array, indexed with the
     * whole array's indices (Note [shard launch] in runtime/multi.c). */
    emit_line(E, "%s.data = %s_p - %s_s.off;", p->name, p->name, p->name);
    emit_line(E, "for (int k = 0; k < 4; k++) %s.shape[k] = %s_s.d[k];",
              p->name, p->name);
    emit_line(E, "__global %s%s *restrict %s_d = %s.data;",
              p->written ? "" : "const ", emit_stype(E, p->ty->elem), p->name,
              p->name);
    emit_line(E, "(void)%s_d;", p->name);
  }
  emit_line(E, "const int64_t k_d1 = k_dims.dim[1], k_d2 = k_dims.dim[2], "
               "k_d3 = k_dims.dim[3];");
  emit_line(E, "(void)k_d1; (void)k_d2; (void)k_d3;");
  emit_line(E, "const int64_t k_g = get_global_id(0);");
  for (IrAgg *g = f->aggs; g; g = g->next)
    emit_line(E, "%s k_agg%d = %s;", emit_ctype(E, g->ty), g->id,
              emit_agg_identity(g));
  /* Two loop shapes, each a loop the device compiler can see whole (a
   * run-time step would hide the stride-1 loop from the CPU's vectoriser
   * and the constant stride from the GPU's unroller). */
  static const char *const shapes[2][2] = {
      {"if (k_dims.chunk > 0) {",
       "for (int64_t k_t = k_dims.begin + k_g * k_dims.chunk; k_t < k_hi; "
       "k_t++) {"},
      {"} else {",
       "for (int64_t k_t = k_dims.begin + k_g; k_t < k_dims.total; "
       "k_t += k_G) {"}};
  emit_line(E, "const int64_t k_G = get_global_size(0);");
  emit_line(E, "const int64_t k_hi = k_dims.chunk > 0 && k_dims.begin + (k_g + 1) * "
               "k_dims.chunk < k_dims.total ? k_dims.begin + (k_g + 1) * "
               "k_dims.chunk : k_dims.total;");
  const char *unroll = f->simple_loop && !f->has_kreturn_in_loop
                           ? "#pragma unroll 4" : NULL;
  for (int sh = 0; sh < 2; sh++) {
    emit_line(E, "%s", shapes[sh][0]);
    E->indent++;
    if (f->tid_dims <= 1)
      emit_thread_loops(E, f, sh ? unroll : NULL, shapes[sh][1]);
    else
      emit_thread_loop(E, f, sh ? unroll : NULL, shapes[sh][1], false);
    E->indent--;
  }
  emit_line(E, "}");
  for (IrAgg *g = f->aggs; g; g = g->next) {
    const char *comb = g->bi == BI_ATOMIC_ADD ? NULL
                       : emit_helper(E, g->bi == BI_ATOMIC_MIN ? BI_MIN : BI_MAX,
                                     g->ty, 2, (const Type *[]){g->ty, g->ty});
    Buf idx;
    buf_init(&idx, E->C);
    emit_index(E, &idx, g->array, g->index, g->nindex);
    emit_line(E, "{");
    E->indent++;
    emit_line(E, "const int k_lid = get_local_id(0), k_ls = get_local_size(0);");
    emit_line(E, "k_sh%d[k_lid] = k_agg%d;", g->id, g->id);
    emit_line(E, "barrier(CLK_LOCAL_MEM_FENCE);");
    emit_line(E, "for (int k_o = k_ls / 2; k_o > 0; k_o >>= 1) {");
    emit_line(E, "  if (k_lid < k_o) k_sh%d[k_lid] = %s%sk_sh%d[k_lid]%s k_sh%d[k_lid + k_o]%s;",
              g->id, comb ? comb : "", comb ? "(" : "", g->id, comb ? "," : " +",
              g->id, comb ? ")" : "");
    emit_line(E, "  barrier(CLK_LOCAL_MEM_FENCE);");
    emit_line(E, "}");
    emit_line(E, "if (k_lid == 0) (void)%s(&%s[%s], k_sh%d[0]);",
              emit_atomic_name(E, g->bi, g->ty), emit_array_data(E, g->array),
              idx.p, g->id);
    E->indent--;
    emit_line(E, "}");
  }
  E->indent--;
  emit_line(E, "}");
  emit_line(E, "%s", "");
}

const Target target_opencl = {
    .id = KERN_TARGET_OPENCL,
    .fn_qual = "static inline",
    .global = "__global ",
    .restrict_kw = "restrict",
    .int64_fmt = "l",
    .overloaded_math = true,
    .prelude = ocl_prelude,
    .kernel = ocl_kernel,
    .atomic_helper = ocl_atomic,
};
