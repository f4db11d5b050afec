/*
 * module.c -- loading modules, kernel lookup and kern_launch.
 *
 * A module is one source file compiled for one device: the compiler's result
 * (kept for the kernels' parameter descriptions, which the kern_kernel
 * handles point into), the backend's module handle and one kern_kernel per
 * kernel, resolved once at load so a launch does no lookups.
 *
 * kern_launch is where a user's mistakes are caught, so it checks every
 * argument against the kernel's parameters and names the parameter in the
 * message, in Warp's spelling ("argument 2 'y' expects
 * wp.array(dtype=float32), got an array of float64"; arguments count from 1
 * as in C compilers' messages, and the name removes any doubt).  Backends
 * can then trust what they are given.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "common.h"
#include "runtime.h"

/* ---------------------------------------------------------------- loading */

static void module_unlink(kern_module *m) {
  kern_context *ctx = m->ctx;
  if (m->prev) m->prev->next = m->next;
  else if (ctx->modules == m) ctx->modules = m->next;
  if (m->next) m->next->prev = m->prev;
  m->prev = m->next = NULL;
}

/* An array field of a struct parameter holds a device address (Warp's
 * array_t, docs/ABI.md), and OpenCL 1.2 gives a buffer none: such a kernel
 * is refused on OpenCL when it is loaded, naming the kernel, parameter and
 * field.  The compiler emits the same code for every target (Note
 * [target-independent status] in fuzz/fuzz_compiler.c), so this is the
 * runtime's check. */
static kern_status opencl_struct_arrays(kern_context *ctx, kern_module *m) {
  for (int i = 0; i < m->code.nkernels; i++) {
    const kc_kernel *k = &m->code.kernels[i];
    for (int p = 0; p < k->nparams; p++)
      for (int f = 0; f < k->params[p].nfields; f++)
        if (k->params[p].fields[f].kind == KERN_PARAM_ARRAY ||
            k->params[p].fields[f].kind == KERN_PARAM_INDEXED)
          return kern__error(
              ctx, KERN_ERROR_UNSUPPORTED,
              "'%s': kernel '%s', parameter '%s': struct '%s' holds the "
              "array field '%s', and OpenCL cannot pass arrays inside "
              "structs (an OpenCL 1.2 buffer has no device address)",
              m->name, k->name, k->params[p].name, k->params[p].struct_name,
              k->params[p].fields[f].name);
  }
  return KERN_SUCCESS;
}

kern_status kern__module_from_code(kern_context *ctx, kern_device dev,
                                   const char *name, kc_result *code,
                                   kern_module **out) {
  return kern__module_from_source(ctx, dev, name, code, NULL, out);
}

void kern__ptx_emit(const kern__ptx_request *rq, int sm, kc_result *code) {
  kc_options opts = {0, 0, 0, rq->no_native, sm, 0, NULL, 0,
                     kern__target_block(KERN_TARGET_CUDA)};
  kc_result r;
  memset(&r, 0, sizeof r);
  kern_status st = kern__compile(rq->name, rq->source ? rq->source : "",
                                 rq->length, KERN_TARGET_CUDA, &opts, &r);
  if (st == KERN_SUCCESS) {
    code->ptx = r.ptx;
    code->ptx_len = r.ptx_len;
    code->ptx_why = r.ptx_why;
    r.ptx = NULL;
    r.ptx_why = NULL;
  }
  kern__compile_result_free(&r);
}

kern_status kern__module_from_source(kern_context *ctx, kern_device dev,
                                     const char *name, kc_result *code,
                                     const kern__ptx_request *rq,
                                     kern_module **out) {
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  if (!be) {
    kern__compile_result_free(code);
    memset(code, 0, sizeof *code); /* consumed, whatever free leaves */
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "no device %d (the context has %d)", dev,
                       ctx->ndevices);
  }
  kern_module *m = kern__calloc(1, sizeof *m);
  char *mname = kern__strdup(name ? name : "<string>");
  kern_kernel *ks = kern__calloc(code->nkernels > 0 ? (size_t)code->nkernels : 1,
                           sizeof *ks);
  if (m) m->h = kern__handle_new(KERN__H_MODULE, m);
  if (!m || !m->h || !mname || !ks) {
    if (m) kern__handle_release(m->h, KERN__H_MODULE);
    kern__free(m);
    kern__free(mname);
    kern__free(ks);
    kern__compile_result_free(code);
    memset(code, 0, sizeof *code); /* consumed, whatever free leaves */
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "loading '%s': out of memory", name ? name : "<string>");
  }
  m->ctx = ctx;
  m->dev = dev;
  m->code = *code;
  memset(code, 0, sizeof *code); /* ownership moved into m */
  m->name = mname;
  m->kernels = ks;

  kern_status st = KERN_SUCCESS;
  if (be->kind == KERN_BACKEND_OPENCL && (st = opencl_struct_arrays(ctx, m)))
    goto fail;
  if ((be->kind == KERN_BACKEND_OPENCL || be->kind == KERN_BACKEND_CUDA) &&
      m->code.no_gpu) {
    st = kern__error(ctx, KERN_ERROR_UNSUPPORTED, "%s", m->code.no_gpu);
    goto fail;
  }
  if (be->kind == KERN_BACKEND_OPENCL && m->code.no_opencl) {
    st = kern__error(ctx, KERN_ERROR_UNSUPPORTED, "%s", m->code.no_opencl);
    goto fail;
  }
  st = rq && be->version >= 6 && be->module_build_tiered
           ? be->module_build_tiered(state, index, &m->code, rq, &m->handle)
           : be->module_build(state, index, &m->code, &m->handle);
  if (st != KERN_SUCCESS) {
    kern__error(ctx, st, "building '%s' for %s:%d failed", m->name, be->name,
                index);
    goto fail;
  }
  for (int i = 0; i < m->code.nkernels; i++) {
    ks[i].module = m;
    ks[i].info = &m->code.kernels[i];
    ks[i].h = kern__handle_new(KERN__H_KERNEL, &ks[i]);
    if (!ks[i].h) {
      st = kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "loading '%s': out of memory", m->name);
      goto fail;
    }
    st = be->kernel_get(state, m->handle, ks[i].info, &ks[i].fn);
    if (st != KERN_SUCCESS) {
      kern__error(ctx, st, "'%s': kernel '%s' not found after building",
                  m->name, ks[i].info->name);
      goto fail;
    }
  }
  st = kern__debug_attach(m);
  if (st != KERN_SUCCESS) goto fail;
  m->next = ctx->modules;
  if (ctx->modules) ctx->modules->prev = m;
  ctx->modules = m;
  *out = m;
  return KERN_SUCCESS;

fail:
  kern__debug_detach(m);
  for (int i = 0; i < m->code.nkernels; i++)
    kern__handle_release(ks[i].h, KERN__H_KERNEL);
  kern__handle_release(m->h, KERN__H_MODULE);
  if (m->handle) be->module_free(state, m->handle);
  kern__compile_result_free(&m->code);
  kern__free(m->kernels);
  kern__free(m->name);
  kern__free(m);
  return st;
}

static kern_status load_string(kern_context *ctx, kern_device dev,
                               const char *name, const char *source,
                               size_t length, kern_module **out);

kern_status kern_module_load_string(kern_context *h, kern_device dev,
                                    const char *name, const char *source,
                                    size_t length, kern_module **out) {
  kern_context *ctx = kern__ctx_enter(h);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  return load_string(ctx, dev, name, source, length, out);
}

static kern_status load_string(kern_context *ctx, kern_device dev,
                               const char *name, const char *source,
                               size_t length, kern_module **out) {
  if (!out || (!source && length))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_load_string: %s is NULL",
                       out ? "source" : "out");
  if (!name) name = "<string>";
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  if (!be)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "loading '%s': no device %d (the context has %d)",
                       name, dev, ctx->ndevices);
  /* On CUDA, #line directives make NVRTC errors and compute-sanitizer
   * reports point at the kernel file's lines. */
  kc_options opts = {kern__debug_enabled(ctx), be->target == KERN_TARGET_CUDA, 0,
                     ctx->opts.no_native, 0, kern__expand_enabled(), NULL, 0,
                     kern__target_block(be->target)};
  /* The quick tier of a cold CUDA load is the backend's decision, made
   * after its cache look-up (Note [PTX tier] in cuda_module.c): rq lets it
   * have the PTX compiled then. */
  kern__ptx_request rq = {name, source, length, ctx->opts.no_native};
  kc_result code;
  memset(&code, 0, sizeof code);
  kern_status st = kern__compile(name, source ? source : "", length,
                                 be->target, &opts, &code);
  if (st != KERN_SUCCESS) {
    /* The compiler's diagnostic is the whole message: it already reads
     * "path:line:col: error: ...". */
    kern__error(ctx, st, "%s",
                code.error ? code.error : kern_status_string(st));
    kern__compile_result_free(&code);
    return st;
  }
  kern_module *m;
  st = kern__module_from_source(ctx, dev, name, &code, &rq, &m);
  if (st != KERN_SUCCESS) return st;
  /* A module keeps its source: a launch may ask for an instantiation of a
   * generic kernel the source does not name (generic.c), or a kernel's
   * adjoint (autodiff.c), both compiled from it on demand. */
  {
    m->source = kern__malloc(length + 1);
    if (!m->source) {
      kern__module_free(m);
      return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                         "loading '%s': out of memory", name);
    }
    if (length) memcpy(m->source, source, length);
    m->source[length] = 0;
    m->source_len = length;
  }
  *out = m->h;
  return st;
}

kern_status kern_module_load_file(kern_context *h, kern_device dev,
                                  const char *path, kern_module **out) {
  kern_context *ctx = kern__ctx_enter(h);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!path || !out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_load_file: %s is NULL",
                       path ? "out" : "path");
  FILE *f = fopen(path, "rbe");
  if (!f)
    return kern__error(ctx, KERN_ERROR_IO, "cannot open '%s': %s", path,
                       strerror(errno));
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (cap - len < 4096) {
      size_t ncap = cap ? cap * 2 : 16384;
      char *nb = kern__realloc(buf, ncap);
      if (!nb) {
        kern__free(buf);
        fclose(f);
        return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                           "cannot read '%s': out of memory", path);
      }
      buf = nb;
      cap = ncap;
    }
    size_t n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
    /* One byte past the limit is enough for kern__compile to refuse it;
     * reading on would let /dev/zero exhaust memory. */
    if (n == 0 || len > KERN_MAX_SOURCE_SIZE) break;
  }
  int err = ferror(f) ? errno : 0;
  fclose(f);
  if (err) {
    kern__free(buf);
    return kern__error(ctx, KERN_ERROR_IO, "cannot read '%s': %s", path,
                       strerror(err ? err : EIO));
  }
  buf[len] = 0;
  kern_status st = load_string(ctx, dev, path, buf, len, out);
  kern__free(buf);
  return st;
}

kern_module *kern__module_enter(const kern_module *h) {
  kern_module *m = kern__handle_get(h, KERN__H_MODULE);
  if (m) kern__call_begin(m->ctx);
  return m;
}

kern_kernel *kern__kernel_enter(const kern_kernel *h) {
  kern_kernel *k = kern__handle_get(h, KERN__H_KERNEL);
  if (k) kern__call_begin(k->module->ctx);
  return k;
}

kern_status kern_module_wait_final(kern_module *h) {
  kern_module *m = kern__handle_get(h, KERN__H_MODULE);
  if (!m) return KERN_ERROR_INVALID_HANDLE;
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(m->ctx, m->dev, &state, &index);
  if (!be || be->version < 5 || !be->module_wait_final || !m->handle)
    return KERN_SUCCESS;
  return be->module_wait_final(state, m->handle);
}

void kern_module_free(kern_module *h) {
  kern_module *m = kern__handle_get(h, KERN__H_MODULE);
  if (m) kern__module_free(m); /* NULL or already freed: nothing */
}

void kern__module_free(kern_module *m) {
  /* The modules of its instantiated generic kernels go with it. */
  while (m->instances) kern__module_free(m->instances);
  kern__module_disown(m);
  kern__free(m->source);
  kern__free(m->adjoint_of);
  /* The handles go first (Note [handle table]); compile_result_free may
   * reset nkernels, so before it. */
  for (int i = 0; i < m->code.nkernels; i++)
    kern__handle_release(m->kernels[i].h, KERN__H_KERNEL);
  kern__handle_release(m->h, KERN__H_MODULE);
  kern__debug_detach(m);
  void *state;
  const kern_backend *be = kern__device_backend(m->ctx, m->dev, &state, NULL);
  module_unlink(m);
  if (be && m->handle) be->module_free(state, m->handle);
  kern__compile_result_free(&m->code);
  kern__free(m->kernels);
  kern__free(m->name);
  kern__free(m);
}

int kern_module_kernel_count(const kern_module *h) {
  const kern_module *m = kern__handle_get(h, KERN__H_MODULE);
  return m ? m->code.nkernels : 0;
}

const char *kern_module_kernel_name(const kern_module *h, int i) {
  const kern_module *m = kern__handle_get(h, KERN__H_MODULE);
  if (!m || i < 0 || i >= m->code.nkernels) return NULL;
  return m->code.kernels[i].name;
}

kern_status kern_module_get_kernel(kern_module *h, const char *name,
                                   kern_kernel **out) {
  kern_module *m = kern__module_enter(h);
  if (!m) return KERN_ERROR_INVALID_HANDLE;
  if (!name || !out)
    return kern__error(m->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_get_kernel: %s is NULL",
                       name ? "out" : "name");
  for (int i = 0; i < m->code.nkernels; i++) {
    if (strcmp(m->code.kernels[i].name, name) == 0) {
      *out = m->kernels[i].h;
      return KERN_SUCCESS;
    }
  }
  /* A generic kernel is in the module once per wp.overload(), named
   * NAME[T1,T2,...] (lower/check_generic.c): say so, and list them. */
  char list[512] = "";
  size_t nlen = strlen(name), nused = 0;
  for (int i = 0; i < m->code.nkernels && nused < sizeof list; i++) {
    const char *k = m->code.kernels[i].name;
    if (!strncmp(k, name, nlen) && k[nlen] == '[')
      nused += (size_t)snprintf(list + nused, sizeof list - nused, "%s%s",
                                nused ? ", " : "", k);
  }
  if (nused)
    return kern__error(m->ctx, KERN_ERROR_NOT_FOUND,
                       "'%s' is a generic kernel in '%s'; get one of its "
                       "instantiations by its full name: %s (or instantiate "
                       "it for other types with kern_module_instantiate)",
                       name, m->name, list);
  for (int i = 0; i < m->code.ngenerics; i++)
    if (!strcmp(m->code.generics[i].name, name))
      return kern__error(m->ctx, KERN_ERROR_NOT_FOUND,
                         "'%s' is a generic kernel in '%s' with no "
                         "wp.overload() instantiation; instantiate it for "
                         "its argument types with kern_module_instantiate",
                         name, m->name);
  /* List what there is: the usual cause is a typo. */
  size_t used = 0;
  for (int i = 0; i < m->code.nkernels && used < sizeof list; i++)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                             i ? ", " : "", m->code.kernels[i].name);
  if (m->code.nkernels == 0)
    return kern__error(m->ctx, KERN_ERROR_NOT_FOUND,
                       "'%s' has no kernel '%s' (it defines no kernels)",
                       m->name, name);
  return kern__error(m->ctx, KERN_ERROR_NOT_FOUND,
                     "'%s' has no kernel '%s' (kernels: %s)", m->name, name,
                     list);
}

kern_status kern_compile_source(kern_context *h, const char *name,
                                const char *source, size_t length,
                                const char *target, char **out) {
  kern_context *ctx = kern__ctx_enter(h);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out || (!source && length) || !target)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_compile_source: %s is NULL",
                       !out ? "out" : !target ? "target" : "source");
  /* "T+adjoint:K" or "T+tangent:K": kernel K's adjoint (tangent) as the
   * module kern_kernel_adjoint (kern_kernel_tangent) builds, for target T. */
  char base[32];
  const char *plus = strchr(target, '+'), *diff = NULL;
  int tangent = 0, block = 0;
  /* "T+block:N": for CUDA and OpenCL, the module for block size N where
   * its threads exchange values (Note [block specialisation]) */
  if (plus && strncmp(plus, "+block:", 7) == 0) {
    char *end;
    long n = strtol(plus + 7, &end, 10);
    if (end == plus + 7 || *end || n < 1 || n > 1024 ||
        (size_t)(plus - target) >= sizeof base)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "bad target '%s' (expected TARGET+block:N, N from 1 "
                         "to 1024)", target);
    memcpy(base, target, (size_t)(plus - target));
    base[plus - target] = 0;
    target = base;
    plus = NULL;
    block = (int)n;
  }
  if (plus) {
    if (strncmp(plus, "+adjoint:", 9) == 0) diff = plus + 9;
    else if (strncmp(plus, "+tangent:", 9) == 0) diff = plus + 9, tangent = 1;
    if (!diff || !*diff || (size_t)(plus - target) >= sizeof base)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "bad target '%s' (expected TARGET, TARGET+adjoint:"
                         "KERNEL or TARGET+tangent:KERNEL)", target);
    memcpy(base, target, (size_t)(plus - target));
    base[plus - target] = 0;
    target = base;
  }
  /* "cuda-compact": CUDA in the compact form for datasets (Note [compact
   * CUDA] in emit/cuda.c). */
  int compact = strcmp(target, "cuda-compact") == 0;
  /* "ptx" or "ptx:N": the PTX tier's text for sm_N (default 90), Note [PTX
   * tier] in emit/ptx.c; a module outside its subset is an error. */
  int ptx = 0;
  if (strncmp(target, "ptx", 3) == 0 && (target[3] == 0 || target[3] == ':')) {
    ptx = 90;
    if (target[3] == ':') {
      char *end;
      long sm = strtol(target + 4, &end, 10);
      if (end == target + 4 || *end || sm <= 0 || sm > 1000)
        return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                           "bad target '%s' (expected ptx:N, N an SM version "
                           "such as 90)", target);
      ptx = (int)sm;
    }
  }
  int t;
  for (t = 0; t < KERN_TARGET_COUNT; t++)
    if (strcmp(compact || ptx ? "cuda" : target, kern__target_name((kern__target)t)) == 0) break;
  if (t == KERN_TARGET_COUNT)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "unknown target '%s' (expected c, cuda, opencl or ptx)",
                       target);
  if (!name) name = "<string>";
  /* Many small modules compiled in one context (kern synth) share their
   * helpers (Note [helper memo] in emit/memo.c). */
  if (!ctx->memo) ctx->memo = kern__memo_new();
  kc_options opts = {kern__debug_enabled(ctx), 0, compact, ctx->opts.no_native, ptx,
                     kern__expand_enabled(), diff, tangent,
                     !kern__target_block((kern__target)t) ? 0
                     : block ? block : kern__target_block((kern__target)t)};
  kc_result code;
  memset(&code, 0, sizeof code);
  kern_status st = kern__compile_memo(name, source ? source : "", length,
                                      (kern__target)t, &opts, ctx->memo, &code);
  if (st != KERN_SUCCESS) {
    kern__error(ctx, st, "%s",
                code.error ? code.error : kern_status_string(st));
    kern__compile_result_free(&code);
    return st;
  }
  if (code.no_gpu && (t == KERN_TARGET_CUDA || t == KERN_TARGET_OPENCL)) {
    kern__error(ctx, KERN_ERROR_UNSUPPORTED, "%s", code.no_gpu);
    kern__compile_result_free(&code);
    return KERN_ERROR_UNSUPPORTED;
  }
  if (ptx && !code.ptx) {
    kern__error(ctx, KERN_ERROR_COMPILE, "%s",
                code.ptx_why ? code.ptx_why : "the PTX tier refused the module");
    kern__compile_result_free(&code);
    return KERN_ERROR_COMPILE;
  }
  if (ptx) {
    *out = code.ptx;
    code.ptx = NULL;
  } else {
    *out = code.source;
    code.source = NULL;
  }
  kern__compile_result_free(&code);
  return KERN_SUCCESS;
}

void kern_free(void *p) { kern__free(p); }

/* ---------------------------------------------------------------- kernels */

const char *kern_kernel_name(const kern_kernel *h) {
  const kern_kernel *k = kern__handle_get(h, KERN__H_KERNEL);
  return k ? k->info->name : NULL;
}

/* Parameters as users see them: debug mode's fault record is hidden. */
static int visible_params(const kc_kernel *info) {
  return info->nparams - (info->fault_param ? 1 : 0);
}

int kern_kernel_param_count(const kern_kernel *h) {
  const kern_kernel *k = kern__handle_get(h, KERN__H_KERNEL);
  return k ? visible_params(k->info) : 0;
}

/* Note [block specialisation]: a module whose threads exchange values
 * (wp.tile(x) and the rest, Note [block exchange] in lower/check_tile.c)
 * is compiled for one block size, kc_result.block: loaded for the
 * default one (KERN__DEFAULT_BLOCK).  A kernel set to another block_dim
 * runs the module compiled again from its source for that size: one
 * module per size, owned by the module (its instances, variant_block
 * set), looked up before one is compiled; the kernel's handle stays and
 * its fn moves, so every launch path (streams, graphs) runs it.  The
 * backends' caches key on the generated code, which spells the size
 * out (the tiles' shapes, reqd_work_group_size, __launch_bounds__). */
static kern_status block_variant(kern_kernel *k, int block_dim) {
  kern_module *m = k->module;
  kern_context *ctx = m->ctx;
  int want = block_dim > 0 ? block_dim : KERN__DEFAULT_BLOCK;
  if (!m->code.block) return KERN_SUCCESS;
  kern_module *c = want == m->code.block ? m : NULL;
  for (kern_module *v = m->instances; v && !c; v = v->next_instance)
    if (v->variant_block == want) c = v;
  if (!c) {
    /* an adjoint (tangent) module compiles from its kernel's module's
     * source (autodiff.c) */
    kern_module *src = m->adjoint_of ? m->owner : m;
    if (!src->source)
      return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                         "kern_kernel_set_block_dim of '%s': its module "
                         "keeps no source to compile for block_dim %d",
                         k->info->name, want);
    const kern_backend *be = kern__device_backend(ctx, m->dev, NULL, NULL);
    kc_options opts = {kern__debug_enabled(ctx),
                       be->target == KERN_TARGET_CUDA, 0, ctx->opts.no_native,
                       0, m->adjoint_of ? 0 : kern__expand_enabled(),
                       m->adjoint_of, m->tangent, want};
    kc_result code;
    memset(&code, 0, sizeof code);
    kern_status st = kern__compile(m->name, src->source, src->source_len,
                                   be->target, &opts, &code);
    if (st != KERN_SUCCESS) {
      kern__error(ctx, st, "compiling '%s' for block_dim %d: %s", m->name,
                  want, code.error ? code.error : kern_status_string(st));
      kern__compile_result_free(&code);
      return st;
    }
    st = kern__module_from_code(ctx, m->dev, m->name, &code, &c);
    if (st != KERN_SUCCESS) return st;
    c->variant_block = want;
    c->owner = m;
    c->next_instance = m->instances;
    m->instances = c;
  }
  ptrdiff_t i = k - m->kernels;
  if (i >= c->code.nkernels || strcmp(c->code.kernels[i].name, k->info->name))
    return kern__error(ctx, KERN_ERROR_COMPILE, "'%s': kernel '%s' is not "
                       "where it was in the module compiled for block_dim %d",
                       m->name, k->info->name, want);
  k->fn = c->kernels[i].fn;
  return KERN_SUCCESS;
}

kern_status kern_kernel_set_block_dim(kern_kernel *h, int block_dim) {
  kern_kernel *k = (kern_kernel *)kern__kernel_enter(h);
  if (!k) return KERN_ERROR_INVALID_HANDLE;
  if (block_dim < 0 || block_dim > 1024)
    return kern__error(k->module->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_kernel_set_block_dim of '%s': block_dim must be "
                       "1 to 1024, or 0 for the default, got %d",
                       k->info->name, block_dim);
  k->block_dim = block_dim;
  return block_variant(k, block_dim);
}

int kern_kernel_block_dim(const kern_kernel *h) {
  const kern_kernel *k = kern__kernel_enter(h);
  if (!k) return 0;
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  if (kern__device_get(k->module->ctx, k->module->dev, &di) != KERN_SUCCESS)
    return 0;
  /* Vulkan runs a block as one invocation, as the CPU: its emitter spells
   * wp.block_dim() 1 and a tile's lane 0, and keeps tiles in the
   * invocation's fixed arrays (Note [vulkan scratch frame]) */
  if (di.backend == KERN_BACKEND_CPU || di.backend == KERN_BACKEND_VULKAN)
    return 1;
  return k->block_dim > 0 ? k->block_dim : 256;
}

kern_status kern_kernel_param(const kern_kernel *h, int i,
                              kern_param_info *out) {
  const kern_kernel *k = kern__kernel_enter(h);
  if (!k) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(k->module->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_kernel_param: out is NULL");
  if (kern__struct_check_out(out, KERN_PARAM_INFO_SIZE_V1) != KERN_SUCCESS)
    return kern__error(k->module->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_kernel_param: out->struct_size is %zu, not the "
                       "size of any version of kern_param_info (set it with "
                       "KERN_PARAM_INFO_INIT)",
                       out->struct_size);
  if (i < 0 || i >= visible_params(k->info))
    return kern__error(k->module->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kernel '%s' has %d parameters; there is no "
                       "parameter %d",
                       k->info->name, visible_params(k->info), i);
  const kc_param *p = &k->info->params[i];
  kern_param_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  pi.name = p->name;
  pi.kind = p->kind;
  pi.type = p->type;
  pi.ndim = p->kind != KERN_PARAM_VALUE ? p->ndim : 0;
  pi.struct_name = p->struct_name;
  pi.type_name = p->type_name;
  kern__struct_out(out, &pi, sizeof pi);
  return KERN_SUCCESS;
}

int kern_kernel_param_field_count(const kern_kernel *h, int i) {
  const kern_kernel *k = kern__handle_get(h, KERN__H_KERNEL);
  if (!k || i < 0 || i >= visible_params(k->info)) return 0;
  return k->info->params[i].nfields;
}

kern_status kern_kernel_param_field(const kern_kernel *h, int i, int j,
                                    kern_field_info *out) {
  const kern_kernel *k = kern__kernel_enter(h);
  if (!k) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = k->module->ctx;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_kernel_param_field: out is NULL");
  if (kern__struct_check_out(out, KERN_FIELD_INFO_SIZE_V1) != KERN_SUCCESS)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_kernel_param_field: out->struct_size is %zu, "
                       "not the size of any version of kern_field_info (set "
                       "it with KERN_FIELD_INFO_INIT)",
                       out->struct_size);
  if (i < 0 || i >= visible_params(k->info))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kernel '%s' has %d parameters; there is no "
                       "parameter %d",
                       k->info->name, visible_params(k->info), i);
  const kc_param *p = &k->info->params[i];
  if (j < 0 || j >= p->nfields)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "parameter %d '%s' of kernel '%s' has %d struct "
                       "fields; there is no field %d",
                       i, p->name, k->info->name, p->nfields, j);
  const kc_field *f = &p->fields[j];
  kern_field_info fi;
  memset(&fi, 0, sizeof fi);
  fi.struct_size = sizeof fi;
  fi.name = f->name;
  fi.offset = f->offset;
  fi.size = f->size;
  fi.kind = f->kind;
  fi.type = f->type;
  fi.ndim = f->ndim;
  fi.depth = f->depth;
  kern__struct_out(out, &fi, sizeof fi);
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- launch */

/* "wp.array(dtype=float32)", "wp.array(dtype=vec3, ndim=2)", "float32" */
static const char *param_spelling(const kc_param *p, char *buf, size_t size) {
  char tn[80];
  kern_type_name(p->type, tn, sizeof tn);
  if (p->type_name) /* "quat", not "vec4" */
    snprintf(tn, sizeof tn, "%s", p->type_name);
  if (p->struct_name) /* "Body (48 bytes)" */
    snprintf(tn, sizeof tn, "%.60s (%d bytes)", p->struct_name, p->type.rows);
  if (p->kind == KERN_PARAM_ARRAY || p->kind == KERN_PARAM_INDEXED) {
    const char *kind = p->kind == KERN_PARAM_ARRAY ? "array" : "indexedarray";
    if (p->ndim == 1)
      snprintf(buf, size, "wp.%s(dtype=%s)", kind, tn);
    else
      snprintf(buf, size, "wp.%s(dtype=%s, ndim=%d)", kind, tn, p->ndim);
  } else {
    snprintf(buf, size, "%s", tn);
  }
  return buf;
}

/* What the user passed, for "got ..." */
static const char *arg_spelling(const kern_arg *a, char *buf, size_t size) {
  char tn[80];
  switch ((int)a->kind) { /* kinds appended as macros are not enumerators */
  case KERN_ARG_ARRAY:
    if (!a->u.array) {
      snprintf(buf, size, "a NULL array");
    } else {
      kern_type_name(a->u.array->type, tn, sizeof tn);
      if (a->u.array->ndim == 1)
        snprintf(buf, size, "an array of %s", tn);
      else
        snprintf(buf, size, "a %d-d array of %s", a->u.array->ndim, tn);
    }
    break;
  case KERN_ARG_INT:
    snprintf(buf, size, "an integer (kern_arg_int)");
    break;
  case KERN_ARG_FLOAT:
    snprintf(buf, size, "a float (kern_arg_float)");
    break;
  case KERN_ARG_DATA:
    snprintf(buf, size, "%zu bytes of data (kern_arg_data)", a->size);
    break;
  case KERN_ARG_INDEXED:
    snprintf(buf, size, "an indexed array (kern_arg_indexed)");
    break;
  default:
    snprintf(buf, size, "an argument of unknown kind %d", (int)a->kind);
  }
  return buf;
}

static int is_lowp(kern_scalar s) {
  return s == KERN_SCALAR_FLOAT16 || s == KERN_SCALAR_BFLOAT16;
}

static int is_float(kern_scalar s) {
  return s == KERN_SCALAR_FLOAT32 || s == KERN_SCALAR_FLOAT64 || is_lowp(s);
}

/* The bits of float f in the 16-bit format s. */
static uint16_t lowp_bits(kern_scalar s, float f) {
  return s == KERN_SCALAR_FLOAT16 ? kern_float16_from_float(f)
                                  : kern_bfloat16_from_float(f);
}

/* Note [16-bit floats] in emit/half.c: generated code takes float16 and
 * bfloat16 values as float32, so the n 16-bit components at the start of
 * bytes are widened in place (from the last, which never overwrites one
 * not yet read). */
static void widen_lowp(kern_scalar s, unsigned char *bytes, size_t n) {
  for (size_t k = n; k-- > 0;) {
    uint16_t h;
    memcpy(&h, bytes + 2 * k, 2);
    float f = s == KERN_SCALAR_FLOAT16 ? kern_float16_to_float(h)
                                       : kern_bfloat16_to_float(h);
    memcpy(bytes + 4 * k, &f, 4);
  }
}

size_t kern__value_arg_size(kern_type t) {
  size_t n = kern_type_size(t);
  return is_lowp(t.scalar) ? n * 2 : n;
}

/* Stores integer v as scalar s at dst; 0 when v does not fit. */
static int store_int(kern_scalar s, int64_t v, void *dst) {
  switch (s) {
#define INT_CASE(K, T, LO, HI)                                               \
  case K: {                                                                  \
    if (v < (LO) || v > (HI)) return 0;                                      \
    T x = (T)v;                                                              \
    memcpy(dst, &x, sizeof x);                                               \
    return 1;                                                                \
  }
    INT_CASE(KERN_SCALAR_BOOL, uint8_t, 0, 1)
    INT_CASE(KERN_SCALAR_INT8, int8_t, INT8_MIN, INT8_MAX)
    INT_CASE(KERN_SCALAR_INT16, int16_t, INT16_MIN, INT16_MAX)
    INT_CASE(KERN_SCALAR_INT32, int32_t, INT32_MIN, INT32_MAX)
    INT_CASE(KERN_SCALAR_INT64, int64_t, INT64_MIN, INT64_MAX)
    INT_CASE(KERN_SCALAR_UINT8, uint8_t, 0, UINT8_MAX)
    INT_CASE(KERN_SCALAR_UINT16, uint16_t, 0, UINT16_MAX)
    INT_CASE(KERN_SCALAR_UINT32, uint32_t, 0, UINT32_MAX)
    INT_CASE(KERN_SCALAR_UINT64, uint64_t, 0, INT64_MAX)
#undef INT_CASE
  case KERN_SCALAR_FLOAT32: {
    float x = (float)v;
    memcpy(dst, &x, sizeof x);
    return 1;
  }
  case KERN_SCALAR_FLOAT64: {
    double x = (double)v;
    memcpy(dst, &x, sizeof x);
    return 1;
  }
  case KERN_SCALAR_FLOAT16:
  case KERN_SCALAR_BFLOAT16: {
    uint16_t x = lowp_bits(s, (float)v);
    memcpy(dst, &x, sizeof x);
    return 1;
  }
  default:
    return 0;
  }
}

/* Reads the caller's arguments into la, stepping by the caller's
 * struct_size (Note [struct growth] in kern.h), and turns array handles
 * into arrays, so that everything after works on la and never reads a
 * freed array.  Returns KERN_SUCCESS or the error, recorded on ctx. */
static kern_status read_args(kern_context *ctx, const kc_kernel *info,
                             int nargs, const kern_arg *args, kern_arg *la) {
  const char *kn = info->name;
  size_t stride = args[0].struct_size;
  if (stride < KERN_ARG_SIZE_V1 || stride > KERN__STRUCT_SIZE_MAX)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "launch of '%s': args[0].struct_size is %zu, not the "
                       "size of any version of kern_arg (build arguments "
                       "with kern_arg_* or KERN_ARG_INIT)",
                       kn, stride);
  for (int i = 0; i < nargs; i++) {
    const kern_arg *a =
        (const kern_arg *)(const void *)((const char *)args + stride * (size_t)i);
    memset(&la[i], 0, sizeof la[i]);
    la[i].struct_size = sizeof la[i];
    if (a->struct_size != stride)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': argument %d has struct_size %zu "
                         "but argument 1 has %zu; every kern_arg of one "
                         "launch must have the same",
                         kn, i + 1, a->struct_size, stride);
    if (kern__struct_in(&la[i], sizeof la[i], a, KERN_ARG_SIZE_V1) !=
        KERN_SUCCESS)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': argument %d '%s' sets fields this "
                         "library does not know (struct_size %zu, this "
                         "library's kern_arg has %zu bytes)",
                         kn, i + 1, info->params[i].name, a->struct_size,
                         sizeof(kern_arg));
  }
  /* The array handles are looked up under one acquisition of the handle
   * table's lock: the launch paths stay at a fixed number of lock round
   * trips however many arrays a kernel takes. */
  int dead = -1;
  kern__handle_lock();
  for (int i = 0; i < nargs && dead < 0; i++) {
    if (la[i].kind != KERN_ARG_ARRAY || !la[i].u.array) continue;
    kern_array *arr = kern__handle_get_locked(la[i].u.array, KERN__H_ARRAY);
    if (!arr) dead = i;
    la[i].u.array = arr;
  }
  kern__handle_unlock();
  if (dead >= 0)
    return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "launch of '%s': argument %d '%s' is not a live "
                       "array (already freed?)",
                       kn, dead + 1, info->params[dead].name);
  return KERN_SUCCESS;
}

/* Note [launch dimensionality]: `i, j = wp.tid()` takes the thread's
 * coordinates in a grid of that many dimensions.  A grid of more
 * dimensions is Warp 1.19's: the dimensions after the ones unpacked are
 * folded (Warp's launch_bounds_t.coord_mult), so the threads that differ
 * only in them share one coordinate tuple -- what wp.launch_tiled relies
 * on, which appends block_dim as the last dimension for `i, j = wp.tid()`
 * to give the block's coordinates.  (Before the fold, the first
 * coordinate absorbed the extra dimensions and ran past its axis: issue
 * #8, item 13.)  A grid of fewer dimensions has the missing ones of size
 * 1, so the extra coordinates are 0.  The emitters divide the linear index
 * by the product of the dimensions after the unpacked ones
 * (emit_thread_loop), which is 1 when there are none. */

/* Note [block_dim]: Warp's block size, the threads of one block that
 * cooperate on tiles (wp.launch(..., block_dim=N), wp.launch_tiled;
 * kern_kernel_set_block_dim).  kern__dims.block carries it to the backend:
 * the size asked, -1 for the backend's default, 0 for no block at all.  As
 * in Warp, the CPU (and Vulkan) runs a block as one thread whatever is asked (Warp 1.19
 * resolves a CPU block_dim to 1 unless wp.config.enable_cpu_blocks), so
 * wp.block_dim() is 1 there and wp.launch_tiled's last dimension is 1.
 * CUDA and OpenCL launch blocks (work-groups) of exactly the block size
 * asked, or 256 (Warp's CUDA default) for a kernel that uses tiles or
 * wp.block_dim() when none was asked; other kernels keep the backend's own
 * launch shape.  kern_kernel_block_dim says which, for wp.launch_tiled's
 * last dimension (kern run --tiled, the Python package).  A module whose
 * threads exchange values runs one module per block size there (Note
 * [block specialisation]). */
static int64_t launch_block(const kern_kernel *k) {
  if (k->block_dim > 0) return k->block_dim;
  return k->info->uses_block ? -1 : 0; /* -1: the backend's default */
}

/* Marshals a launch's arguments into p (kern__pack in runtime.h): every
 * check a user's mistake can fail happens here, so kern_launch and the
 * stream, graph and pipeline paths (stream.c, graph.c, pipeline.c) share one
 * set of checks and messages.  k is the kernel object (the caller resolved
 * its handle).  An empty grid passes (p->dims.total == 0): the caller then
 * launches nothing and succeeds. */
/* Checks the launch grid and fills *out with it. */
static kern_status pack_dims(kern_kernel *k, int ndim, const int64_t *dims,
                             kern__dims *out) {
  kern_context *ctx = k->module->ctx;
  const char *kn = k->info->name;
  if (ndim < 1 || ndim > KERN_MAX_DIMS)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "launch of '%s': ndim must be 1 to %d, got %d", kn,
                       KERN_MAX_DIMS, ndim);
  if (!dims)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "launch of '%s': dims is NULL", kn);
  kern__dims d;
  d.total = 1;
  d.chunk = 0;
  d.begin = 0;
  d.block = launch_block(k);
  for (int i = 0; i < KERN_MAX_DIMS; i++) {
    d.dim[i] = i < ndim ? dims[i] : 1;
    if (i >= ndim) continue;
    if (dims[i] < 0)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': dims[%d] must not be negative, got "
                         "%lld",
                         kn, i, (long long)dims[i]);
    /* Thread indices are int32, as in Warp; the emitters rely on it. */
    if (dims[i] > INT32_MAX)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': dims[%d] = %lld exceeds the int32 "
                         "range of a thread index (2147483647)",
                         kn, i, (long long)dims[i]);
    if (__builtin_mul_overflow(d.total, dims[i], &d.total))
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': the grid size overflows int64",
                         kn);
  }
  *out = d;
  return KERN_SUCCESS;
}

/* The expected type is spelled only on a mismatch: the launch path stays
 * free of formatting (an async launch must cost little more than the
 * driver's). */
#define MISMATCH(...)                                                        \
  (param_spelling(p, want, sizeof want),                                     \
   st = kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,                           \
                    "launch of '%s': argument %d '%s' expects %s, "          \
                    __VA_ARGS__))

/* An array argument: its type, dimensionality, context and device must
 * be the parameter's. */
static kern_status pack_array_arg(kern_context *ctx, kern_module *m,
                                  const char *kn, int i, const kc_param *p,
                                  const kern_arg *a, kern__slot *slot) {
  kern_status st = KERN_SUCCESS;
  char want[128], got[128];
  kern_array *arr = a->u.array;
  if (a->kind == KERN_ARG_ARRAY && !arr && m->adjoint_of &&
      strncmp(p->name, m->tangent ? "tan_" : "adj_", 4) == 0 &&
      m->code.nkernels &&
      i >= (m->code.kernels[0].nparams - m->code.kernels[0].fault_param) / 2) {
    /* an adjoint kernel's adj_ array (a tangent kernel's tan_) may be
     * null: skipped, or zero (autodiff.c) */
    memset(&slot->arr, 0, sizeof slot->arr);
    return KERN_SUCCESS;
  }
  if (a->kind != KERN_ARG_ARRAY || !arr) {
    MISMATCH("got %s", kn, i + 1, p->name, want,
             arg_spelling(a, got, sizeof got));
    return st;
  }
  if (!kern__type_equal(arr->type, p->type) || arr->ndim != p->ndim) {
    MISMATCH("got %s", kn, i + 1, p->name, want,
             arg_spelling(a, got, sizeof got));
    return st;
  }
  if (arr->ctx != ctx || arr->dev != m->dev) {
    kern_device_info ai, mi;
    int ok = arr->ctx == ctx &&
             kern__device_get(ctx, arr->dev, &ai) == KERN_SUCCESS &&
             kern__device_get(ctx, m->dev, &mi) == KERN_SUCCESS;
    if (!ok)
      st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "launch of '%s': argument %d '%s' belongs to "
                       "another context",
                       kn, i + 1, p->name);
    else
      st = kern__error(
          ctx, KERN_ERROR_INVALID_ARGUMENT,
          "launch of '%s': argument %d '%s' is on device %s:%d but the "
          "kernel was built for %s:%d",
          kn, i + 1, p->name, ctx->backends[ai.backend]->name, ai.index,
          ctx->backends[mi.backend]->name, mi.index);
    return st;
  }
  slot->arr.data = arr->data;
  for (int j = 0; j < 4; j++) slot->arr.shape[j] = arr->shape[j];
  slot->arr.off = 0;
  return KERN_SUCCESS;
}

/* A value argument: kern_arg_data of the type's size, or an integer or
 * float that fits the parameter's scalar type. */
static kern_status pack_value_arg(kern_context *ctx, const char *kn, int i,
                                  const kc_param *p, const kern_arg *a,
                                  kern__slot *slot) {
  kern_status st = KERN_SUCCESS;
  char want[128], got[128];
  size_t vsize = kern_type_size(p->type);
  if (vsize == 0 || kern__value_arg_size(p->type) > sizeof *slot) {
    st = kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                     "launch of '%s': parameter %d '%s' has a type of "
                     "%zu bytes, larger than a launch argument can be",
                     kn, i + 1, p->name, vsize);
    return st;
  }
  int scalar = p->type.kind == KERN_KIND_SCALAR;
  switch (a->kind) {
  case KERN_ARG_DATA:
    if (!a->u.data || a->size != vsize) {
      MISMATCH("got %s (%s is %zu bytes)", kn, i + 1, p->name, want,
               arg_spelling(a, got, sizeof got), want, vsize);
      break;
    }
    memcpy(slot->bytes, a->u.data, vsize);
    break;
  case KERN_ARG_INT:
    if (!scalar) {
      MISMATCH("got %s; pass it with kern_arg_data", kn, i + 1, p->name, want,
               arg_spelling(a, got, sizeof got));
      break;
    }
    if (!store_int(p->type.scalar, a->u.i, slot->bytes) &&
        param_spelling(p, want, sizeof want))
      st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "launch of '%s': argument %d '%s': %lld is out of "
                       "range for %s",
                       kn, i + 1, p->name, (long long)a->u.i, want);
    break;
  case KERN_ARG_FLOAT:
    if (!scalar || !is_float(p->type.scalar)) {
      MISMATCH("got %s", kn, i + 1, p->name, want,
               arg_spelling(a, got, sizeof got));
      break;
    }
    if (p->type.scalar == KERN_SCALAR_FLOAT64) {
      memcpy(slot->bytes, &a->u.f, sizeof(double));
    } else if (is_lowp(p->type.scalar)) {
      /* rounded twice, through float32, as Warp's wp.float16(x); beyond
       * float32's range (undefined behaviour to convert) is infinity */
      double d = a->u.f;
      float f = isfinite(d) && fabs(d) > FLT_MAX ? (d > 0 ? INFINITY : -INFINITY)
                                                 : (float)d;
      uint16_t x = lowp_bits(p->type.scalar, f);
      memcpy(slot->bytes, &x, sizeof x);
    } else {
      /* Converting a finite double beyond FLT_MAX to float is undefined
       * behaviour in C; infinities and NaN convert exactly. */
      if (isfinite(a->u.f) && fabs(a->u.f) > FLT_MAX) {
        st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': argument %d '%s': %g is out of "
                         "range for float32",
                         kn, i + 1, p->name, a->u.f);
        break;
      }
      float x = (float)a->u.f;
      memcpy(slot->bytes, &x, sizeof x);
    }
    break;
  default:
    MISMATCH("got %s", kn, i + 1, p->name, want,
             arg_spelling(a, got, sizeof got));
  }
  if (st == KERN_SUCCESS && is_lowp(p->type.scalar))
    widen_lowp(p->type.scalar, slot->bytes, vsize / 2);
  return st;
}

/* A wp.indexedarray argument: kern_arg_indexed of a description that
 * indexed.c checks and writes as Warp's indexedarray_t into the slot. */
static kern_status pack_indexed_arg(kern_context *ctx, kern_module *m,
                                    const char *kn, int i, const kc_param *p,
                                    const kern_arg *a, kern__slot *slot) {
  kern_status st = KERN_SUCCESS;
  char want[128], got[128];
  if (a->kind != KERN_ARG_INDEXED) {
    MISMATCH("got %s; pass a kern_indexed with kern_arg_indexed", kn, i + 1,
             p->name, want, arg_spelling(a, got, sizeof got));
    return st;
  }
  char who[160];
  snprintf(who, sizeof who, "launch of '%s': argument %d '%s'", kn, i + 1,
           p->name);
  return kern__indexed_build(ctx, who, (const kern_indexed *)a->u.data,
                             p->type, p->ndim, m->dev, slot->bytes);
}

#undef MISMATCH

kern_status kern__launch_pack(kern_kernel *k, int ndim, const int64_t *dims,
                              int nargs, const kern_arg *args,
                              kern__pack *pk) {
  pk->argv = pk->argv_stack;
  pk->slots = pk->slots_stack;
  pk->la = pk->la_stack;
  pk->nslots = 0;
  kern_module *m = k->module;
  kern_context *ctx = m->ctx;
  const kc_kernel *info = k->info;
  const char *kn = info->name;

  kern_status st = pack_dims(k, ndim, dims, &pk->dims);
  if (st != KERN_SUCCESS) return st;
  const int nvis = visible_params(info);
  if (nargs != nvis || (nargs > 0 && !args)) {
    char list[512] = "";
    size_t used = 0;
    for (int i = 0; i < nvis && used < sizeof list; i++)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                               i ? ", " : "", info->params[i].name);
    if (nargs > 0 && !args)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': args is NULL", kn);
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "launch of '%s': expects %d argument%s (%s), got %d",
                       kn, nvis, nvis == 1 ? "" : "s", list, nargs);
  }

  /* one more slot for debug mode's hidden fault record */
  if (nargs + 1 > KERN__PACK_STACK_ARGS) {
    pk->argv = kern__malloc((size_t)(nargs + 1) * sizeof *pk->argv);
    pk->slots = kern__malloc((size_t)(nargs + 1) * sizeof *pk->slots);
    pk->la = kern__malloc((size_t)(nargs + 1) * sizeof *pk->la);
    if (!pk->argv || !pk->slots || !pk->la) {
      kern__pack_release(pk);
      return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                         "launch of '%s': out of memory", kn);
    }
  }
  void **argv = pk->argv;
  kern__slot *slots = pk->slots;
  kern_arg *la = pk->la;

  st = nargs > 0 ? read_args(ctx, info, nargs, args, la) : KERN_SUCCESS;
  for (int i = 0; i < nargs && st == KERN_SUCCESS; i++) {
    const kc_param *p = &info->params[i];
    const kern_arg *a = &la[i];
    kern__slot *slot = &slots[i];
    argv[i] = slot;
    st = p->kind == KERN_PARAM_ARRAY
             ? pack_array_arg(ctx, m, kn, i, p, a, slot)
         : p->kind == KERN_PARAM_INDEXED
             ? pack_indexed_arg(ctx, m, kn, i, p, a, slot)
             : pack_value_arg(ctx, kn, i, p, a, slot);
  }

  /* An adjoint kernel (autodiff.c) indexes adj_P with P's indices: a
   * non-null adj_P must have P's shape, as Warp requires of a .grad. */
  for (int i = nargs / 2; m->adjoint_of && i < nargs && st == KERN_SUCCESS; i++) {
    const kc_param *p = &info->params[i];
    if (p->kind != KERN_PARAM_ARRAY || !slots[i].arr.data ||
        info->params[i - nargs / 2].kind != KERN_PARAM_ARRAY)
      continue;
    const kern__arr *g = &slots[i].arr, *f = &slots[i - nargs / 2].arr;
    for (int d = 0; d < 4; d++)
      if (g->shape[d] != f->shape[d]) {
        st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "launch of '%s': argument %d '%s' has shape %lld "
                         "on axis %d but '%s' has %lld: %s array "
                         "has its array's shape", kn, i + 1, p->name,
                         (long long)g->shape[d], d,
                         info->params[i - nargs / 2].name,
                         (long long)f->shape[d],
                         m->tangent ? "a tangent" : "an adjoint");
        break;
      }
  }

  if (st == KERN_SUCCESS) {
    pk->nslots = nargs;
    if (info->fault_param) {
      slots[nargs].arr = kern__debug_arg(m);
      argv[nargs] = &slots[nargs];
      pk->nslots = nargs + 1;
    }
  } else {
    kern__pack_release(pk);
  }
  return st;
}

void kern__pack_release(kern__pack *pk) {
  if (pk->argv != pk->argv_stack) kern__free(pk->argv);
  if (pk->slots != pk->slots_stack) kern__free(pk->slots);
  if (pk->la != pk->la_stack) kern__free(pk->la);
  pk->argv = pk->argv_stack;
  pk->slots = pk->slots_stack;
  pk->la = pk->la_stack;
}

kern_status kern_launch(kern_kernel *h, int ndim, const int64_t *dims,
                        int nargs, const kern_arg *args) {
  kern_kernel *k = kern__kernel_enter(h);
  if (!k) return KERN_ERROR_INVALID_HANDLE;
  kern_module *m = k->module;
  kern_context *ctx = m->ctx;
  const kc_kernel *info = k->info;
  kern__pack pk;
  kern_status st = kern__launch_pack(k, ndim, dims, nargs, args, &pk);
  if (st != KERN_SUCCESS) return st;
  /* An empty grid (a dims[i] of 0) runs nothing, as in Warp, once the
   * arguments have been checked. */
  if (pk.dims.total == 0) {
    kern__pack_release(&pk);
    return KERN_SUCCESS;
  }
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, m->dev, &state, &index);
  /* Ordered after work enqueued on the default stream: stream.c. */
  st = kern__sync_launch(ctx, m->dev, be, state, index, k->fn, info,
                         (void *const *)pk.argv, &pk.dims);
  if (st != KERN_SUCCESS)
    kern__error(ctx, st, "launch of '%s' on %s:%d failed", info->name,
                be->name, index);
  else if (info->fault_param)
    st = kern__debug_check(k, pk.la, nargs);
  kern__pack_release(&pk);
  return st;
}

kern_status kern_synchronize(kern_context *h, kern_device dev) {
  kern_context *ctx = kern__ctx_enter(h);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  if (!be)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_synchronize: no device %d (the context has %d)",
                       dev, ctx->ndevices);
  /* Every stream of dev too (stream.c): "all work on dev". */
  kern_status st = kern__sync_device(ctx, dev);
  if (st != KERN_SUCCESS) return st;
  if (!be->synchronize) return KERN_SUCCESS;
  st = be->synchronize(state, index);
  if (st != KERN_SUCCESS)
    return kern__error(ctx, st, "synchronize on %s:%d failed", be->name,
                       index);
  return KERN_SUCCESS;
}
