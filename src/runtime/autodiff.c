/*
 * autodiff.c -- kern_kernel_adjoint: a kernel's reverse-mode adjoint as a
 * kernel of its own (Note [adjoint] in ir/adjoint.c).
 *
 * Forward-only users pay nothing: the adjoint is compiled the first time it
 * is asked for, from the source the module keeps, into a module the
 * kernel's module owns (as generic.c's instantiations are) and frees with
 * it; later calls find it there.  Its kernel is "adj_NAME", with the
 * forward parameters followed by adj_P for each parameter P.
 */
#include <stdbool.h>
#include <string.h>
#include "runtime.h"

/* The adjoint (tangent) kernel already compiled for the kernel called
 * name, or NULL. */
static kern_kernel *find_adjoint(kern_module *m, const char *name,
                                 bool tangent) {
  for (kern_module *c = m->instances; c; c = c->next_instance) {
    if (!c->adjoint_of || strcmp(c->adjoint_of, name) != 0 ||
        c->tangent != tangent)
      continue;
    return c->code.nkernels ? &c->kernels[0] : NULL;
  }
  return NULL;
}

/* The adjoint, or with tangent the tangent, of h. */
static kern_status derived(kern_kernel *h, kern_kernel **out, bool tangent) {
  const char *api = tangent ? "kern_kernel_tangent" : "kern_kernel_adjoint";
  const char *what = tangent ? "tangent" : "adjoint";
  kern_kernel *k = kern__kernel_enter(h);
  if (!k) return KERN_ERROR_INVALID_HANDLE;
  kern_module *m = k->module;
  kern_context *ctx = m->ctx;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: out is NULL", api);
  const char *name = k->info->name;
  if (m->adjoint_of)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "'%s' is already %s kernel: kern does not "
                       "differentiate derivatives (higher-order autodiff is "
                       "not supported)", name,
                       m->tangent ? "a tangent" : "an adjoint");
  kern_kernel *a = find_adjoint(m, name, tangent);
  if (a) {
    *out = a->h;
    return KERN_SUCCESS;
  }
  if (!m->source)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "'%s': the %s of '%s' cannot be built (its module "
                       "keeps no source)", m->name, what, name);
  char *aname = kern__strdup(name);
  if (!aname)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "out of memory");
  const kern_backend *be = kern__device_backend(ctx, m->dev, NULL, NULL);
  /* for the default block size where a block's threads exchange values,
   * as the kernel's module (Note [block specialisation] in module.c) */
  kc_options opts = {kern__debug_enabled(ctx),
                     be && be->target == KERN_TARGET_CUDA, 0,
                     ctx->opts.no_native, 0, 0, name, tangent,
                     be ? kern__target_block(be->target) : 0};
  kc_result code;
  memset(&code, 0, sizeof code);
  kern_status st = kern__compile(m->name, m->source, m->source_len,
                                 be ? be->target : KERN_TARGET_C, &opts, &code);
  if (st != KERN_SUCCESS) {
    kern__error(ctx, st, "building the %s of '%s': %s", what, name,
                code.error ? code.error : kern_status_string(st));
    kern__compile_result_free(&code);
    kern__free(aname);
    return st;
  }
  kern_module *c;
  st = kern__module_from_code(ctx, m->dev, m->name, &code, &c);
  if (st != KERN_SUCCESS) {
    kern__free(aname);
    return st;
  }
  c->adjoint_of = aname;
  c->tangent = tangent;
  c->owner = m;
  c->next_instance = m->instances;
  m->instances = c;
  a = find_adjoint(m, name, tangent);
  if (!a)
    return kern__error(ctx, KERN_ERROR_COMPILE, "'%s': the %s of '%s' is "
                       "not in the module compiled for it", m->name, what, name);
  *out = a->h;
  return KERN_SUCCESS;
}

kern_status kern_kernel_adjoint(kern_kernel *h, kern_kernel **out) {
  return derived(h, out, false);
}

kern_status kern_kernel_tangent(kern_kernel *h, kern_kernel **out) {
  return derived(h, out, true);
}
