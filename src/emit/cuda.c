/*
 * cuda.c -- CUDA C for NVRTC.
 *
 * Self-contained (NVRTC sees no headers): the prelude declares the integer
 * types and the ABI structs of compile.h.  A kernel is a grid-stride loop,
 * so any grid covers any launch; array parameters that the kernel never
 * writes are `const __restrict__`, which lets the compiler use the
 * read-only data path.  An aggregated atomic (Note [atomic aggregation])
 * is combined with warp shuffles, then across the block's warps in shared
 * memory, and leaves the block as one atomic.
 */
#include <string.h>
#include "emit.h"

static void cuda_prelude(Emit *E) {
  /* NVRTC has no system headers, so the fixed-width types are declared
   * here; nvcc includes the host's <stdint.h> itself, where a second
   * declaration of int64_t (long there, long long here) is an error.  The
   * same file must compile with both (issue #13). */
  if (E->T->guard_helpers) {
    emit_line(E, "#ifndef K_H_prelude");
    emit_line(E, "#define K_H_prelude");
  }
  emit_line(E, "#ifndef __CUDACC_RTC__");
  emit_line(E, "#include <stdint.h>");
  emit_line(E, "#else");
  emit_line(E, "typedef signed char int8_t;");
  emit_line(E, "typedef short int16_t;");
  emit_line(E, "typedef int int32_t;");
  emit_line(E, "typedef long long int64_t;");
  emit_line(E, "typedef unsigned char uint8_t;");
  emit_line(E, "typedef unsigned short uint16_t;");
  emit_line(E, "typedef unsigned int uint32_t;");
  emit_line(E, "typedef unsigned long long uint64_t;");
  emit_line(E, "#endif");
  emit_line(E, "typedef unsigned char kbool;");
  emit_line(E, "typedef struct { int64_t dim[4]; int64_t total; int64_t chunk; int64_t begin; int64_t block; } kern__dims;");
  emit_line(E, "#define K_INF_F __int_as_float(0x7f800000)");
  emit_line(E, "#define K_NAN_F __int_as_float(0x7fffffff)");
  if (E->T->guard_helpers)
    emit_line(E, "#endif");
}

/* The CUDA type an atomic intrinsic takes for a kern scalar. */
static const char *cu_atomic_type(kern_scalar sc) {
  switch (sc) {
  case KERN_SCALAR_INT32: return "int";
  case KERN_SCALAR_UINT32: return "unsigned int";
  case KERN_SCALAR_INT64: return "long long";
  case KERN_SCALAR_UINT64: return "unsigned long long";
  case KERN_SCALAR_FLOAT32: return "float";
  case KERN_SCALAR_FLOAT64: return "double";
  default: return "int";
  }
}

static void cuda_atomic(Emit *E, Buf *b, int bi, const Type *t,
                        const char *name) {
  const char *T = emit_ctype(E, t);
  const char *Q = E->T->fn_qual;
  kern_scalar sc = t->sc;
  bool isf = sc_is_float(sc);
  bool is64 = sc_bits(sc) == 64;
  const char *A = cu_atomic_type(sc);
  /* integer view for compare-and-swap loops */
  const char *I = is64 ? "unsigned long long" : "unsigned int";
  const char *tobits = sc == KERN_SCALAR_FLOAT32 ? "(unsigned int)__float_as_int"
                       : sc == KERN_SCALAR_FLOAT64 ? "(unsigned long long)__double_as_longlong"
                       : is64 ? "(unsigned long long)" : "(unsigned int)";
  const char *frombits = sc == KERN_SCALAR_FLOAT32 ? "__int_as_float((int)"
                         : sc == KERN_SCALAR_FLOAT64 ? "__longlong_as_double((long long)"
                         : "(";
  switch (bi) {
  case BI_ATOMIC_ADD:
  case BI_ATOMIC_SUB:
    if (isf || sc == KERN_SCALAR_INT32 || sc == KERN_SCALAR_UINT32) {
      if (bi == BI_ATOMIC_SUB && isf)
        buf_printf(b, "%s %s %s(%s *p, %s v) { return atomicAdd((%s *)p, -v); }\n",
                   Q, T, name, T, T, A);
      else
        buf_printf(b, "%s %s %s(%s *p, %s v) { return atomicAdd((%s *)p, (%s)%sv); }\n",
                   Q, T, name, T, T, A, A, bi == BI_ATOMIC_SUB ? "-" : "");
    } else {
      /* 64-bit integers: two's complement add on the unsigned view */
      buf_printf(b, "%s %s %s(%s *p, %s v) { return (%s)atomicAdd((unsigned long long *)p, "
                    "(unsigned long long)%sv); }\n", Q, T, name, T, T, T,
                 bi == BI_ATOMIC_SUB ? "-" : "");
    }
    return;
  case BI_ATOMIC_MIN:
  case BI_ATOMIC_MAX:
    if (!isf) {
      buf_printf(b, "%s %s %s(%s *p, %s v) { return atomic%s((%s *)p, (%s)v); }\n",
                 Q, T, name, T, T, bi == BI_ATOMIC_MIN ? "Min" : "Max", A, A);
      return;
    } else {
      const char *h = emit_helper(E, bi == BI_ATOMIC_MIN ? BI_MIN : BI_MAX, t,
                                  2, (const Type *[]){t, t});
      const char *tb = sc == KERN_SCALAR_FLOAT32 ? "(unsigned int)__float_as_int"
                                          : "(unsigned long long)__double_as_longlong";
      const char *fb = sc == KERN_SCALAR_FLOAT32 ? "__int_as_float((int)"
                                          : "__longlong_as_double((long long)";
      buf_printf(b, "%s %s %s(%s *p, %s v) {\n"
                    "  %s *q = (%s *)p;\n  %s old = *q, as;\n"
                    "  do {\n    as = old;\n"
                    "    %s nv = %s(%sas), v);\n"
                    "    if (%s(nv) == as) break;\n"
                    "    old = atomicCAS(q, as, %s(nv));\n"
                    "  } while (old != as);\n"
                    "  return %sold);\n}\n",
                 Q, T, name, T, T, I, I, I, T, h, fb, tb, tb, fb);
      return;
    }
  case BI_ATOMIC_AND: case BI_ATOMIC_OR: case BI_ATOMIC_XOR: {
    const char *op = bi == BI_ATOMIC_AND ? "And" : bi == BI_ATOMIC_OR ? "Or" : "Xor";
    const char *U = is64 ? "unsigned long long" : A;
    buf_printf(b, "%s %s %s(%s *p, %s v) { return (%s)atomic%s((%s *)p, (%s)v); }\n",
               Q, T, name, T, T, T, op, U, U);
    return;
  }
  case BI_ATOMIC_EXCH:
    if (sc == KERN_SCALAR_FLOAT64 || sc == KERN_SCALAR_INT64)
      buf_printf(b, "%s %s %s(%s *p, %s v) { return %satomicExch((unsigned long long *)p, "
                    "%s(v))); }\n", Q, T, name, T, T, frombits, tobits);
    else
      buf_printf(b, "%s %s %s(%s *p, %s v) { return (%s)atomicExch((%s *)p, (%s)v); }\n",
                 Q, T, name, T, T, T, A, A);
    return;
  case BI_ATOMIC_CAS:
    buf_printf(b, "%s %s %s(%s *p, %s cmp, %s v) {\n"
                  "  return %satomicCAS((%s *)p, %s(cmp), %s(v)));\n}\n",
               Q, T, name, T, T, T, frombits, I, tobits, tobits);
    return;
  }
}

static void cuda_vector_loop(Emit *E, IrFunc *f, VecPlan *V) {
  int W = 16 / V->size;
  emit_line(E, "const int64_t k_nv = (k_dims.total - k_dims.begin) / %d;", W);
  emit_line(E, "for (int64_t k_g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; "
               "k_g < k_nv; k_g += k_stride) {");
  E->indent++;
  emit_line(E, "const int64_t k_base = k_dims.begin + k_g * %d;", W);
  for (int i = 0; i < V->narr; i++) {
    IrVar *a = V->arr[i];
    const char *T = emit_ctype(E, a->ty->elem);
    /* k_g: a 16-byte group of W elements.  Not k_q, which is the prefix of
     * the quaternion types (k_q4f32 would name both). */
    const char *Q = arena_printf(E->C, "k_g%d%s", W, emit_tysig(E, a->ty->elem));
    if (emit_need(E, Q))
      emit_pre(E, Q, "typedef struct __align__(16) { %s c[%d]; } %s;\n",
               T, W, Q);
    if (a->read)
      emit_line(E, "%s%s k_v_%s = *(const %s *)(%s_d + k_base);",
                V->stored[i] ? "" : "const ", Q, a->name, Q, a->name);
    else
      emit_line(E, "%s k_v_%s;", Q, a->name);
  }
  emit_vec_lanes(E, f, V, W, false);
  for (int i = 0; i < V->narr; i++)
    if (V->stored[i])
      emit_line(E, "*(%s *)(%s_d + k_base) = k_v_%s;",
                arena_printf(E->C, "k_g%d%s", W, emit_tysig(E, V->arr[i]->ty->elem)),
                V->arr[i]->name, V->arr[i]->name);
  E->indent--;
  emit_line(E, "}");
  /* the remainder, one index per thread */
  emit_thread_loop(E, f, NULL,
                   arena_printf(E->C, "for (int64_t k_t = k_dims.begin + k_nv * %d + "
                                "(int64_t)blockIdx.x * blockDim.x + threadIdx.x; "
                                "k_t < k_dims.total; k_t += k_stride) {", W),
                   true);
}

static void cuda_kernel(Emit *E, IrFunc *f) {
  Buf sig;
  buf_init(&sig, E->C);
  /* blocks of exactly the block size the module is compiled for (Note
   * [block exchange] in lower/check_tile.c) */
  if (f->uses_xchg)
    buf_printf(&sig, "extern \"C\" __global__ void __launch_bounds__(%d) "
                     "%s(", E->C->block, f->symbol);
  else
    buf_printf(&sig, "extern \"C\" __global__ void %s(", f->symbol);
  for (IrVar *p = f->params; p; p = p->next)
    if (p->ty->kind == TY_ARRAY && p->ty->indexed) /* emit/indexed.c */
      buf_printf(&sig, "%s %s_w, ", emit_indexed_warp_type(E, p->ty),
                 p->name);
    else
      buf_printf(&sig, "%s %s, ", emit_ctype(E, p->ty), p->name);
  buf_puts(&sig, "kern__dims k_dims) {");
  emit_line(E, "%s", sig.p);
  E->indent++;
  emit_xchg_buffer(E, f);
  for (IrVar *p = f->params; p; p = p->next)
    if (p->ty->kind == TY_ARRAY && p->ty->indexed) {
      /* Warp's indexedarray_t (emit/indexed.c); no __restrict__: its data
       * may alias the other arguments' */
      emit_line(E, "%s %s = %s(%s_w);", emit_ctype(E, p->ty), p->name,
                emit_indexed_from_warp(E, p->ty), p->name);
      emit_line(E, "%s%s *%s_d = %s.data;", p->written ? "" : "const ",
                emit_stype(E, p->ty->elem), p->name, p->name);
    } else if (p->ty->kind == TY_ARRAY)
      emit_line(E, "%s%s *__restrict__ %s_d = %s.data;",
                p->written ? "" : "const ", emit_stype(E, p->ty->elem), p->name,
                p->name);
  for (IrVar *p = f->params; p; p = p->next)
    if (p->ty->kind == TY_ARRAY)
      emit_line(E, "(void)%s_d;", p->name);
  emit_line(E, "const int64_t k_d1 = k_dims.dim[1], k_d2 = k_dims.dim[2], "
               "k_d3 = k_dims.dim[3];");
  emit_line(E, "(void)k_d1; (void)k_d2; (void)k_d3;");
  for (IrAgg *g = f->aggs; g; g = g->next)
    emit_line(E, "%s k_agg%d = %s;", emit_ctype(E, g->ty), g->id,
              emit_agg_identity(g));
  emit_line(E, "const int64_t k_stride = (int64_t)gridDim.x * blockDim.x;");
  /* Straight-line bodies (f->simple_loop; Note [heavy bodies] in
   * ir/passes.c): unrolling the grid-stride loop puts several
   * independent loads in flight per thread, which a memory-bound kernel
   * needs to reach full bandwidth. */
  bool compact = E->T->guard_helpers;
  const char *pragma = f->simple_loop && !f->has_kreturn_in_loop && !compact
                           ? "#pragma unroll 4" : NULL;
  const char *header = "for (int64_t k_t = k_dims.begin + "
                       "(int64_t)blockIdx.x * blockDim.x + "
                       "threadIdx.x; k_t < k_dims.total; k_t += k_stride) {";
  VecPlan V;
  if (!compact && emit_vec_plan(E, f, &V)) {
    /* A shard of a sharded launch starts at k_dims.begin, and its data
     * (offset by its halo) need not be 16-byte aligned there. */
    Buf al;
    buf_init(&al, E->C);
    for (int i = 0; i < V.narr; i++)
      buf_printf(&al, " && ((unsigned long long)(%s_d + k_dims.begin) & 15) == 0",
                 V.arr[i]->name);
    emit_line(E, "if (k_d1 * k_d2 * k_d3 == 1%s) {", al.p);
    E->indent++;
    cuda_vector_loop(E, f, &V);
    E->indent--;
    emit_line(E, "} else {");
    E->indent++;
    emit_thread_loop(E, f, pragma, header, false);
    E->indent--;
    emit_line(E, "}");
  } else if (f->tid_dims <= 1 && !compact) {
    emit_thread_loops(E, f, pragma, header);
  } else {
    emit_thread_loop(E, f, pragma, header, false);
  }
  for (IrAgg *g = f->aggs; g; g = g->next) {
    const char *T = emit_ctype(E, g->ty);
    const char *comb = g->bi == BI_ATOMIC_ADD ? NULL
                       : emit_helper(E, g->bi == BI_ATOMIC_MIN ? BI_MIN : BI_MAX,
                                     g->ty, 2, (const Type *[]){g->ty, g->ty});
    Buf idx;
    buf_init(&idx, E->C);
    emit_index(E, &idx, g->array, g->index, g->nindex);
    const char *step = comb ? arena_printf(E->C, "v = %s(v, __shfl_down_sync(0xffffffffu, v, o));", comb)
                            : "v += __shfl_down_sync(0xffffffffu, v, o);";
    emit_line(E, "{");
    E->indent++;
    emit_line(E, "__shared__ %s k_sh%d[32];", T, g->id);
    emit_line(E, "%s v = k_agg%d;", T, g->id);
    emit_line(E, "for (int o = 16; o > 0; o >>= 1) %s", step);
    emit_line(E, "if ((threadIdx.x & 31) == 0) k_sh%d[threadIdx.x >> 5] = v;", g->id);
    emit_line(E, "__syncthreads();");
    emit_line(E, "if (threadIdx.x < 32) {");
    E->indent++;
    emit_line(E, "v = threadIdx.x < ((blockDim.x + 31) >> 5) ? k_sh%d[threadIdx.x] : (%s)%s;",
              g->id, T, emit_agg_identity(g));
    emit_line(E, "for (int o = 16; o > 0; o >>= 1) %s", step);
    emit_line(E, "if (threadIdx.x == 0) (void)%s(&%s[%s], v);",
              emit_atomic_name(E, g->bi, g->ty), emit_array_data(E, g->array),
              idx.p);
    E->indent--;
    emit_line(E, "}");
    E->indent--;
    emit_line(E, "}");
  }
  E->indent--;
  emit_line(E, "}");
  emit_line(E, "%s", "");
  if (f->gemm && !E->m->debug && E->T == &target_cuda) /* Note [tile GEMM] in gemm.c */
    kern__emit_gemm(E, f);
}

/* Note [compact CUDA]: the form of a kernel that kern synth records when a
 * dataset is compiled in bulk (`kern compile --target cuda --compact`,
 * `kern synth --cuda-form compact`).  NVRTC's cost is NVVM optimising each
 * inlined call site of a math helper (5-11 ms for one sinf), and the
 * production form has each body twice (the 1-D fast path and the general
 * loop; the 16-byte vector loop is a third) and unrolled 4x.  The compact
 * form has one general grid-stride loop, no unrolling, and helpers that
 * are `__noinline__` and guarded by #ifndef (emit_pre), so a program of
 * many modules compiles each helper once.  It computes the same values
 * (the same helpers, the same operations in the same order); it is slower
 * to run, not for production. */
const Target target_cuda_compact = {
    .id = KERN_TARGET_CUDA,
    .fn_qual = "static __device__ __noinline__",
    .global = "",
    .restrict_kw = "__restrict__",
    .int64_fmt = "ll",
    .overloaded_math = false,
    .prelude = cuda_prelude,
    .kernel = cuda_kernel,
    .atomic_helper = cuda_atomic,
    .guard_helpers = true,
};

const Target target_cuda = {
    .id = KERN_TARGET_CUDA,
    .fn_qual = "static __device__ __forceinline__",
    .global = "",
    .restrict_kw = "__restrict__",
    .int64_fmt = "ll",
    .overloaded_math = false,
    .prelude = cuda_prelude,
    .kernel = cuda_kernel,
    .atomic_helper = cuda_atomic,
    .compact = &target_cuda_compact,
};
