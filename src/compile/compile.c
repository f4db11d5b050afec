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
  default: return "?";
  }
}

static const Target *target_of(kern__target t) {
  switch (t) {
  case KERN_TARGET_CUDA: return &target_cuda;
  case KERN_TARGET_OPENCL: return &target_opencl;
  default: return &target_c;
  }
}

void kern__compile_result_free(kc_result *r) {
  if (!r)
    return;
  kern__free(r->source);
  kern__free(r->error);
  for (int i = 0; i < r->nkernels; i++) {
    kc_kernel *k = &r->kernels[i];
    kern__free(k->name);
    kern__free(k->symbol);
    for (int j = 0; j < k->nparams; j++)
      kern__free(k->params[j].name);
    kern__free(k->params);
  }
  kern__free(r->kernels);
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

static void describe_kernels(Compiler *C, IrModule *m, kc_result *out) {
  int n = 0;
  for (IrFunc *f = m->kernels; f; f = f->next)
    n++;
  out->kernels = kern__calloc((size_t)(n ? n : 1), sizeof(kc_kernel));
  if (!out->kernels)
    diag_oom(C);
  bool any_fp64 = false;
  for (IrFunc *f = m->funcs; f; f = f->next)
    any_fp64 |= f->uses_fp64;
  for (IrFunc *f = m->kernels; f; f = f->next) {
    kc_kernel *k = &out->kernels[out->nkernels++];
    k->name = dup_or_oom(C, f->name);
    k->symbol = dup_or_oom(C, f->symbol);
    k->needs_fp64 = f->uses_fp64 || any_fp64;
    k->has_atomics = f->uses_atomics;
    k->fault_param = m->debug;
    k->tid_dims = f->tid_dims;
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
        q->kind = KERN_PARAM_ARRAY;
        q->type = ty_to_kern(p->ty->elem);
        q->ndim = p->ty->ndim;
      } else {
        q->kind = KERN_PARAM_VALUE;
        q->type = ty_to_kern(p->ty);
      }
    }
  }
}

kern_status kern__compile(const char *name, const char *src, size_t len,
                          kern__target target, const kc_options *opts,
                          kc_result *out) {
  memset(out, 0, sizeof *out);
  Compiler *C = kern__calloc(1, sizeof *C);
  if (!C)
    return KERN_ERROR_OUT_OF_MEMORY;
  C->path = name ? name : "<string>";
  C->src = src;
  C->len = len;
  static const kc_options dflt = {0, 0, 0};
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
  if (setjmp(C->jmp) == 0) {
    parse_file(C);
    IrModule *m = lower_module(C);
    m->debug = o->debug != 0;
    /* Debug mode checks every access, so nothing is aggregated there. */
    if (!o->debug)
      ir_aggregate_atomics(C, m);
    ir_analyze(C, m);
    if (o->debug)
      ir_add_fault_param(C, m);
    const char *code = emit_module(C, m, target_of(target), o);
    out->source = dup_or_oom(C, code);
    out->source_len = strlen(out->source);
    describe_kernels(C, m, out);
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
  arena_free_all(&C->arena);
  kern__free(C->error);
  kern__free(C);
  return st;
}
