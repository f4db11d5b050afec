/*
 * c.c -- host C for the CPU backend.
 *
 * A kernel becomes a function over a contiguous range of the launch grid;
 * the backend's thread pool calls it on disjoint ranges.  Looping over a
 * range inside the generated function (rather than calling it per index)
 * lets the C compiler vectorise the body, and gives aggregated atomics a
 * natural place to flush: once per range.  When the body is straight-line
 * code, `#pragma omp simd` (with -fopenmp-simd, no OpenMP runtime) tells the
 * compiler the iterations are independent -- which Warp's model guarantees
 * -- so reductions vectorise too.
 */
#include <string.h>
#include "emit.h"

static void c_prelude(Emit *E) {
  emit_line(E, "#include <stdint.h>");
  emit_line(E, "#include <stdio.h>");
  emit_line(E, "#include <math.h>");
  emit_line(E, "typedef unsigned char kbool;");
  emit_line(E, "typedef struct { int64_t dim[4]; int64_t total; int64_t chunk; } kern__dims;");
  emit_line(E, "#define K_INF_F INFINITY");
  emit_line(E, "#define K_NAN_F NAN");
}

static void c_atomic(Emit *E, Buf *b, int bi, const Type *t, const char *name) {
  const char *T = emit_ctype(E, t);
  bool isf = sc_is_float(t->sc);
  const char *Q = E->T->fn_qual;
  const char *R = "__ATOMIC_RELAXED";
  switch (bi) {
  case BI_ATOMIC_ADD:
  case BI_ATOMIC_SUB:
    if (!isf) {
      buf_printf(b, "%s %s %s(%s *p, %s v) { return __atomic_fetch_%s(p, v, %s); }\n",
                 Q, T, name, T, T, bi == BI_ATOMIC_ADD ? "add" : "sub", R);
      return;
    }
    buf_printf(b, "%s %s %s(%s *p, %s v) {\n  %s old, nv;\n"
                  "  __atomic_load(p, &old, %s);\n"
                  "  do { nv = old %s v; } while (!__atomic_compare_exchange(p, &old, &nv, 1, %s, %s));\n"
                  "  return old;\n}\n", Q, T, name, T, T, T, R,
               bi == BI_ATOMIC_ADD ? "+" : "-", R, R);
    return;
  case BI_ATOMIC_MIN:
  case BI_ATOMIC_MAX: {
    const char *h = emit_helper(E, bi == BI_ATOMIC_MIN ? BI_MIN : BI_MAX, t, 2,
                                (const Type *[]){t, t});
    buf_printf(b, "%s %s %s(%s *p, %s v) {\n  %s old, nv;\n"
                  "  __atomic_load(p, &old, %s);\n"
                  "  do { nv = %s(old, v); if (nv == old) break; }\n"
                  "  while (!__atomic_compare_exchange(p, &old, &nv, 1, %s, %s));\n"
                  "  return old;\n}\n", Q, T, name, T, T, T, R, h, R, R);
    return;
  }
  case BI_ATOMIC_AND: case BI_ATOMIC_OR: case BI_ATOMIC_XOR:
    buf_printf(b, "%s %s %s(%s *p, %s v) { return __atomic_fetch_%s(p, v, %s); }\n",
               Q, T, name, T, T, bi == BI_ATOMIC_AND ? "and"
                                 : bi == BI_ATOMIC_OR ? "or" : "xor", R);
    return;
  case BI_ATOMIC_EXCH:
    buf_printf(b, "%s %s %s(%s *p, %s v) {\n  %s old;\n"
                  "  __atomic_exchange(p, &v, &old, %s);\n  return old;\n}\n",
               Q, T, name, T, T, T, R);
    return;
  case BI_ATOMIC_CAS:
    buf_printf(b, "%s %s %s(%s *p, %s cmp, %s v) {\n"
                  "  __atomic_compare_exchange(p, &cmp, &v, 0, %s, %s);\n"
                  "  return cmp;\n}\n", Q, T, name, T, T, T, R, R);
    return;
  }
}

#define C_LOOP "for (int64_t k_t = k_begin; k_t < k_end; k_t++) {"

static void c_kernel(Emit *E, IrFunc *f) {
  emit_line(E, "void %s(void *const *k_args, int64_t k_begin, int64_t k_end, "
               "const kern__dims *k_dims) {", f->symbol);
  E->indent++;
  for (IrVar *p = f->params; p; p = p->next) {
    const char *T = emit_ctype(E, p->ty);
    if (p->ty->kind == TY_ARRAY && p->ty->indexed) {
      /* Warp's indexedarray_t (emit/indexed.c); its data may alias the
       * other arguments' (no restrict) */
      emit_line(E, "%s %s = %s(*(const %s *)k_args[%d]);", T, p->name,
                emit_indexed_from_warp(E, p->ty),
                emit_indexed_warp_type(E, p->ty), p->index);
      emit_line(E, "%s%s *%s_d = %s.data;", p->written ? "" : "const ",
                emit_stype(E, p->ty->elem), p->name, p->name);
      emit_line(E, "(void)%s_d;", p->name);
      continue;
    }
    emit_line(E, "%s %s = *(const %s *)k_args[%d];", T, p->name, T, p->index);
    if (p->ty->kind == TY_ARRAY)
      emit_line(E, "%s%s *restrict %s_d = %s.data;", p->written ? "" : "const ",
                emit_stype(E, p->ty->elem), p->name, p->name);
    if (p->ty->kind == TY_ARRAY)
      emit_line(E, "(void)%s_d;", p->name);
  }
  emit_line(E, "const int64_t k_d1 = k_dims->dim[1], k_d2 = k_dims->dim[2], "
               "k_d3 = k_dims->dim[3];");
  emit_line(E, "(void)k_d1; (void)k_d2; (void)k_d3;");
  Buf red;
  buf_init(&red, E->C);
  for (IrAgg *g = f->aggs; g; g = g->next) {
    const char *T = emit_ctype(E, g->ty);
    emit_line(E, "%s k_agg%d = %s;", T, g->id, emit_agg_identity(g));
    buf_printf(&red, " reduction(%s:k_agg%d)", g->bi == BI_ATOMIC_ADD ? "+"
                     : g->bi == BI_ATOMIC_MIN ? "min" : "max", g->id);
  }
  const char *pragma = f->simple_loop && !f->has_kreturn_in_loop
                           ? arena_printf(E->C, "#pragma omp simd%s",
                                          red.p ? red.p : "")
                           : NULL;
  if (f->tid_dims <= 1) {
    /* A 1-D launch (the common case) gets its own copy of the loop in which
     * the thread index is the loop counter; see Emit.fast_tid. */
    emit_thread_loops(E, f, pragma, C_LOOP);
  } else {
    emit_thread_loop(E, f, pragma, C_LOOP, false);
  }
  for (IrAgg *g = f->aggs; g; g = g->next) {
    Buf idx;
    buf_init(&idx, E->C);
    emit_index(E, &idx, g->array, g->index, g->nindex);
    emit_line(E, "(void)%s(&%s[%s], k_agg%d);",
              emit_atomic_name(E, g->bi, g->ty), emit_array_data(E, g->array),
              idx.p, g->id);
  }
  E->indent--;
  emit_line(E, "}");
  emit_line(E, "%s", "");
}

const Target target_c = {
    .id = KERN_TARGET_C,
    .fn_qual = "static inline",
    .global = "",
    .restrict_kw = "restrict",
    .int64_fmt = "ll",
    .overloaded_math = false,
    .prelude = c_prelude,
    .kernel = c_kernel,
    .atomic_helper = c_atomic,
};
