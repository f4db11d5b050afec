/*
 * compile.c -- kern__compile, the compiler's one entry point.
 *
 * It owns the compilation's arena and the setjmp that every diagnostic
 * longjmps to (Lua's luaD_rawrunprotected): on any error the arena is freed
 * here in one call and the message handed back.  What the runtime keeps
 * (the source, the kernel descriptions) is copied out of the arena with
 * kern__malloc, because it outlives the compilation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "compile.h"
#include "emit.h"
#include "ir.h"
#include "lang.h"
#include "lower.h"

const char *kern__target_name(kern__target t) {
  switch (t) {
  case KERN_TARGET_C: return "c";
  case KERN_TARGET_CUDA: return "cuda";
  case KERN_TARGET_OPENCL: return "opencl";
  case KERN_TARGET_VULKAN: return "vulkan";
  default: return "?";
  }
}

static const Target *target_of(kern__target t) {
  switch (t) {
  case KERN_TARGET_CUDA: return &target_cuda;
  case KERN_TARGET_OPENCL: return &target_opencl;
  case KERN_TARGET_VULKAN: return &target_vulkan;
  default: return &target_c;
  }
}

kc_memo *kern__memo_new(void) { return emit_memo_new(); }
void kern__memo_free(kc_memo *m) { emit_memo_free(m); }

void kern__compile_result_free(kc_result *r) {
  if (!r)
    return;
  kern__free(r->source);
  kern__free(r->error);
  for (int i = 0; i < r->nkernels; i++) {
    kc_kernel *k = &r->kernels[i];
    kern__free(k->name);
    kern__free(k->symbol);
    kern__free(k->gemm.symbol);
    for (int j = 0; j < k->nparams; j++) {
      kern__free(k->params[j].name);
      kern__free(k->params[j].struct_name);
      for (int f = 0; f < k->params[j].nfields; f++)
        kern__free(k->params[j].fields[f].name);
      kern__free(k->params[j].fields);
    }
    kern__free(k->params);
  }
  kern__free(r->kernels);
  for (int i = 0; i < r->ngenerics; i++) {
    kc_kernel *k = &r->generics[i];
    kern__free(k->name);
    for (int j = 0; j < k->nparams; j++) {
      kern__free(k->params[j].name);
      kern__free(k->params[j].struct_name);
      for (int f = 0; f < k->params[j].nfields; f++)
        kern__free(k->params[j].fields[f].name);
      kern__free(k->params[j].fields);
    }
    kern__free(k->params);
  }
  kern__free(r->generics);
  kern__free(r->wp_alias);
  kern__free(r->no_opencl);
  kern__free(r->no_gpu);
  kern__free(r->ptx);
  kern__free(r->ptx_why);
  for (int i = 0; i < r->narray_names; i++)
    kern__free(r->array_names[i]);
  kern__free(r->array_names);
  memset(r, 0, sizeof *r);
}

static char *dup_or_oom(Compiler *C, const char *s) {
  char *p = kern__strdup(s);
  if (!p)
    diag_oom(C);
  return p;
}

static int count_fields(const Type *t) {
  int n = 0;
  for (int i = 0; i < t->n; i++)
    n += 1 + (t->items[i]->kind == TY_STRUCT ? count_fields(t->items[i]) : 0);
  return n;
}

/* Lists the fields of struct t at offset base, depth first, into q. */
static void describe_fields(Compiler *C, const Type *t, const char *prefix,
                            size_t base, int depth, kc_param *q) {
  for (int i = 0; i < t->n; i++) {
    const Type *ft = t->items[i];
    kc_field *f = &q->fields[q->nfields++];
    const char *name = prefix ? arena_printf(C, "%s.%s", prefix, t->fnames[i])
                              : t->fnames[i];
    f->name = dup_or_oom(C, name);
    f->offset = base + ty_field_offset(t, i);
    f->size = ty_size(ft);
    f->depth = depth;
    if (ft->kind == TY_ARRAY) {
      f->kind = ft->indexed ? KERN_PARAM_INDEXED : KERN_PARAM_ARRAY;
      f->type = ty_to_kern(ft->elem);
      f->ndim = ft->ndim;
    } else {
      f->kind = KERN_PARAM_VALUE;
      f->type = ty_to_kern(ft);
    }
    if (ft->kind == TY_STRUCT)
      describe_fields(C, ft, name, f->offset, depth + 1, q);
  }
}

/* kern_type reports a quaternion as a vector of 4 and a transform as one
 * of 7; the parameter keeps Warp's name of the type. */
static const char *quat_xform_name(const Type *t) {
  static const char *const quat[] = {"quat", "quatd", "quath"};
  static const char *const xform[] = {"transform", "transformd", "transformh"};
  if (t->kind != TY_VEC || (!t->quat && !t->xform))
    return NULL;
  int i = t->sc == KERN_SCALAR_FLOAT64 ? 1 : t->sc == KERN_SCALAR_FLOAT16 ? 2 : 0;
  return t->quat ? quat[i] : xform[i];
}

static void describe_struct(Compiler *C, const Type *t, kc_param *q) {
  q->type_name = quat_xform_name(t);
  if (t->kind != TY_STRUCT)
    return;
  q->struct_name = dup_or_oom(C, t->name);
  q->fields = kern__calloc((size_t)count_fields(t), sizeof(kc_field));
  if (!q->fields)
    diag_oom(C);
  describe_fields(C, t, NULL, 0, 0, q);
}

static void describe_kernels(Compiler *C, IrModule *m, kern__target target,
                             kc_result *out) {
  int n = 0;
  for (IrFunc *f = m->kernels; f; f = f->next)
    n++;
  out->kernels = kern__calloc((size_t)(n ? n : 1), sizeof(kc_kernel));
  if (!out->kernels)
    diag_oom(C);
  bool any_fp64 = false, any_block = false;
  for (IrFunc *f = m->funcs; f; f = f->next) {
    any_fp64 |= f->uses_fp64;
    any_block |= f->uses_block;
  }
  for (IrFunc *f = m->kernels; f; f = f->next) {
    kc_kernel *k = &out->kernels[out->nkernels++];
    k->name = dup_or_oom(C, f->name);
    k->symbol = dup_or_oom(C, f->symbol);
    k->needs_fp64 = f->uses_fp64 || any_fp64;
    k->has_atomics = f->uses_atomics;
    k->fault_param = m->debug;
    k->tid_dims = f->tid_dims;
    k->uses_block = f->uses_block || any_block;
    if (target == KERN_TARGET_CUDA && f->uses_xchg &&
        C->xbuf > KERN_CUDA_STATIC_SHARED)
      k->dyn_smem = C->xbuf;
    if (f->gemm && !m->debug) { /* Note [tile GEMM] in emit/gemm.c */
      const IrGemm *g = f->gemm;
      k->gemm = (kc_gemm){arena_printf(C, "%s_wg", f->symbol), g->a, g->b,
                          g->c, g->bias, g->kparam, g->kaxis, g->tm, g->tn,
                          g->tk, (int)g->in, kern__gemm_threads(g),
                          kern__gemm_smem(g)};
      k->gemm.symbol = dup_or_oom(C, k->gemm.symbol);
      out->sm90a |= g->in == KERN_SCALAR_FLOAT16 || g->in == KERN_SCALAR_BFLOAT16;
    }
    k->params = kern__calloc((size_t)(f->nparams ? f->nparams : 1),
                             sizeof(kc_param));
    if (!k->params)
      diag_oom(C);
    for (IrVar *p = f->params; p; p = p->next) {
      kc_param *q = &k->params[k->nparams++];
      /* the Python name: strip the "pN_" prefix */
      const char *us = strchr(p->name, '_');
      q->name = dup_or_oom(C, m->debug && !p->next ? "__kern_fault"
                              : us ? us + 1 : p->name);
      if (p->ty->kind == TY_ARRAY) {
        q->kind = p->ty->indexed ? KERN_PARAM_INDEXED : KERN_PARAM_ARRAY;
        q->type = ty_to_kern(p->ty->elem);
        q->ndim = p->ty->ndim;
        describe_struct(C, p->ty->elem, q);
      } else {
        q->kind = KERN_PARAM_VALUE;
        q->type = ty_to_kern(p->ty);
        describe_struct(C, p->ty, q);
      }
    }
  }
}

/* The generic kernels of the file, with their declared parameters: an
 * Any parameter is marked generic, the others described as in
 * describe_kernels. */
static void describe_generics(Compiler *C, kc_result *out) {
  int n = 0;
  for (Func *f = C->mod->funcs; f; f = f->next)
    n += f->is_kernel && f->generic && !f->instance_of;
  out->wp_alias = dup_or_oom(C, C->mod->wp ? C->mod->wp : "wp");
  if (!n)
    return;
  out->generics = kern__calloc((size_t)n, sizeof(kc_kernel));
  if (!out->generics)
    diag_oom(C);
  for (Func *f = C->mod->funcs; f; f = f->next) {
    if (!f->is_kernel || !f->generic || f->instance_of)
      continue;
    kc_kernel *k = &out->generics[out->ngenerics++];
    k->name = dup_or_oom(C, f->name);
    k->params = kern__calloc((size_t)(f->nparams ? f->nparams : 1),
                             sizeof(kc_param));
    if (!k->params)
      diag_oom(C);
    for (int i = 0; i < f->nparams; i++) {
      const Type *t = f->params[i].ty;
      kc_param *q = &k->params[k->nparams++];
      q->name = dup_or_oom(C, f->params[i].name);
      q->kind = t->kind != TY_ARRAY ? KERN_PARAM_VALUE
                : t->indexed ? KERN_PARAM_INDEXED : KERN_PARAM_ARRAY;
      q->ndim = t->kind == TY_ARRAY ? t->ndim : 0;
      const Type *v = t->kind == TY_ARRAY ? t->elem : t;
      q->generic = ty_is_generic(t);
      if (q->generic) {
        q->type.kind = KERN_KIND_SCALAR;
        q->type.scalar = KERN_SCALAR_COUNT;
        q->type.rows = q->type.cols = 1;
      } else {
        q->type = ty_to_kern(v);
        describe_struct(C, v, q);
      }
    }
  }
}

/* Note [adjoint] in ir/adjoint.c: the module becomes the one kernel
 * adj_NAME, the adjoint of kernel NAME, built from the scalar IR of the
 * expansion (which takes only that kernel and the functions it calls). */
static void adjoint_module(Compiler *C, IrModule *m, const char *name,
                           bool tangent) {
  IrFunc *k = m->kernels;
  while (k && strcmp(k->name, name) != 0)
    k = k->next;
  if (!k)
    diag_error(C, (Pos){1, 1, 0}, "no kernel '%s' to differentiate", name);
  if (k->no_backward && !tangent)
    diag_error(C, k->pos, "kernel '%s' is compiled with enable_backward=False "
               "(%s): it has no adjoint, as Warp builds no backward kernel "
               "for it", name, k->no_backward_module
                   ? "wp.set_module_options" : "@wp.kernel(enable_backward=False)");
  k->next = NULL;
  m->kernels = k;
  m->kernels_tail = &k->next;
  Pos at = {0};
  const char *what = NULL;
  ir_adjoint_prepare(C, m);
  ir_drop_tid_wraps(m);
  if (!ir_expand(C, m, &at, &what))
    diag_error(C, at, "autodiff of %s is not supported yet (issue #26)", what);
  ir_share_loads(C, m); /* Note [shared loads] in ir/passes.c */
  IrFunc *a = tangent ? ir_tangent(C, m, m->kernels)
                      : ir_adjoint(C, m, m->kernels);
  m->kernels = a;
  m->kernels_tail = &a->next;
  /* every call is inlined into it: the functions are not emitted (a
   * struct result's local, Note [struct leaves], is read by the caller) */
  m->funcs = NULL;
  m->funcs_tail = NULL;
}

kern_status kern__compile(const char *name, const char *src, size_t len,
                          kern__target target, const kc_options *opts,
                          kc_result *out) {
  return kern__compile_memo(name, src, len, target, opts, NULL, out);
}

kern_status kern__compile_memo(const char *name, const char *src, size_t len,
                               kern__target target, const kc_options *opts,
                               kc_memo *memo, kc_result *out) {
  memset(out, 0, sizeof *out);
  Compiler *C = kern__calloc(1, sizeof *C);
  if (!C)
    return KERN_ERROR_OUT_OF_MEMORY;
  C->path = name ? name : "<string>";
  C->src = src;
  C->len = len;
  static const kc_options dflt = {0, 0, 0, 0, 0, 0, NULL, 0, 0};
  const kc_options *volatile o = opts ? opts : &dflt;

  kern_status st = KERN_SUCCESS;
  if (len > KERN_MAX_SOURCE_SIZE) {
    /* Checked here, the one entry point every API call compiles through.
     * No source line is quoted: it may be megabytes of one line. */
    char msg[512];
    snprintf(msg, sizeof msg, "%s:1:1: error: the source is larger than "
             "kern's limit of %zu MiB (KERN_MAX_SOURCE_SIZE)", C->path,
             KERN_MAX_SOURCE_SIZE >> 20);
    out->error = kern__strdup(msg);
    kern__free(C);
    return out->error ? KERN_ERROR_COMPILE : KERN_ERROR_OUT_OF_MEMORY;
  }
  C->no_native = o->no_native != 0;
  C->block = o->block > 0 ? o->block : 0;
  if (setjmp(C->jmp) == 0) {
    parse_file(C);
    IrModule *m = lower_module(C);
    /* Nothing reads a Node from here on: the IR, the Funcs and Params
     * describe_* reads and every name and string are in C->arena. */
    arena_recycle(C, &C->nodes);
    for (Arena *t = C->trees; t; t = t->next)
      arena_recycle(C, t);
    m->debug = o->debug != 0;
    /* Debug mode checks every access, so nothing is aggregated there; an
     * adjoint module differentiates the atomics one by one. */
    if (o->adjoint)
      adjoint_module(C, m, o->adjoint, o->tangent != 0);
    else if (!o->debug)
      ir_aggregate_atomics(C, m);
    const char *expanded = NULL;
    if (o->expand && target == KERN_TARGET_C && !o->adjoint) {
      const char *what = NULL;
      Pos at = {0};
      expanded = ir_expand(C, m, &at, &what)
                     ? "expanded into scalar IR"
                     : arena_printf(C, "%s:%d:%d: the expansion does not cover %s",
                                    C->path, at.line, at.col, what);
      /* the reason quotes the path: kept inside its comment */
      char *q = arena_printf(C, "%s", expanded);
      for (char *p = q; *p; p++)
        if (*p == '\n' || (p[0] == '*' && p[1] == '/'))
          *p = ' ';
      expanded = q;
    }
    ir_analyze(C, m);
    if (o->debug)
      ir_add_fault_param(C, m);
    size_t len;
    char *code = emit_module(C, m, target_of(target), o, memo, &len);
    if (expanded) {
      /* Note [expansion]: the first line says whether the expansion took
       * the module (conformance_cpu_expanded counts them) */
      const char *line = arena_printf(
          C, "/* kern: %s (Note [expansion] in ir/expand.c) */\n", expanded);
      Buf b = {C, code, len, len + 1, true};
      buf_prepend(&b, line, strlen(line));
      code = b.p;
      len = b.len;
    }
    /* the text leaves the arena without a copy (Note [text once] in
     * base/arena.c) */
    out->source = arena_take(C, code, len);
    if (!out->source)
      diag_oom(C);
    out->source_len = len;
    if (o->ptx && target == KERN_TARGET_CUDA) {
      /* the quick tier (emit/ptx.c): never an error of the compilation */
      const char *why = NULL;
      const char *ptx = emit_ptx(C, m, o, &why);
      if (ptx) {
        /* no copy where it can be taken (Note [text once]) */
        out->ptx_len = strlen(ptx);
        out->ptx = arena_take(C, (char *)ptx, out->ptx_len);
        if (!out->ptx)
          diag_oom(C);
      } else {
        out->ptx_why = dup_or_oom(C, why);
      }
    }
    describe_kernels(C, m, target, out);
    describe_generics(C, out);
    if (m->has_addr)
      out->no_opencl = dup_or_oom(C, arena_printf(C,
          "%s:%d:%d: wp.address_of() is not available on OpenCL: a "
          "variable's address there belongs to the private or global "
          "address space and does not survive a round trip through a uint64",
          C->path, m->addr_pos.line, m->addr_pos.col));
    if (C->solo_what && C->block == 0)
      out->no_gpu = dup_or_oom(C, arena_printf(C,
          "%s:%d:%d: error: %s collects the values of the threads of a "
          "block: on CUDA and OpenCL the module must be compiled for the "
          "launch's block_dim (issue #24)", C->path, C->solo_pos.line,
          C->solo_pos.col, C->solo_what));
    else if (C->xchg_in_func)
      out->no_gpu = dup_or_oom(C, arena_printf(C,
          "%s:%d:%d: error: %s in a @wp.func: on CUDA and OpenCL the threads "
          "of a block exchange values in a kernel's own body only (issue #24)",
          C->path, C->solo_pos.line, C->solo_pos.col, C->solo_what));
    out->block = C->solo_what ? C->block : 0;
    if (m->narray_names) {
      out->array_names = kern__calloc((size_t)m->narray_names, sizeof(char *));
      if (!out->array_names)
        diag_oom(C);
      out->narray_names = m->narray_names;
      for (int i = 0; i < m->narray_names; i++)
        out->array_names[i] = dup_or_oom(C, m->array_names[i]);
    }
  } else {
    st = C->status ? C->status : KERN_ERROR_COMPILE;
    kern__compile_result_free(out);
    out->error = C->error;
    C->error = NULL;
  }
  compiler_free_memory(C);
  kern__free(C->error);
  kern__free(C);
  return st;
}
