/*
 * debug.c -- debug mode's fault record (Note [debug mode] in ir/ir.h).
 *
 * A module compiled in debug mode owns one small device array, the fault
 * record, passed to every kernel as its hidden last argument.  Generated
 * code records the first out-of-bounds access there and keeps memory
 * untouched; after each launch the runtime reads the record back, turns it
 * into KERN_ERROR_OUT_OF_BOUNDS with the kernel, the source position, the
 * index and the shape, and clears it for the next launch.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "multi.h"

int kern__debug_enabled(const kern_context *ctx) {
  const char *e = getenv("KERN_DEBUG");
  return ctx->opts.debug || (e && *e && strcmp(e, "0") != 0);
}

/* KERN_EXPAND=1: the C target compiles the module from the IR expanded
 * into scalar operations (Note [expansion] in ir/expand.c), the form the
 * PTX tier reads; a test of that expansion on the CPU. */
int kern__expand_enabled(void) {
  const char *e = getenv("KERN_EXPAND");
  return e && *e && strcmp(e, "0") != 0;
}

kern_status kern__debug_attach(kern_module *m) {
  bool any = false;
  for (int i = 0; i < m->code.nkernels; i++)
    any |= m->code.kernels[i].fault_param != 0;
  if (!any)
    return KERN_SUCCESS;
  int64_t n = KERN__FAULT_WORDS;
  kern_type t = {KERN_KIND_SCALAR, KERN_SCALAR_INT64, 1, 1};
  kern_status st = kern__array_new(m->ctx, m->dev, t, 1, &n, &m->fault);
  if (st != KERN_SUCCESS)
    return st;
  return kern__array_zero(m->fault);
}

void kern__debug_detach(kern_module *m) {
  kern__array_free(m->fault);
  m->fault = NULL;
}

/* Appends the module's fault record to a launch's arguments. */
kern__arr kern__debug_arg(kern_module *m) {
  kern__arr a;
  memset(&a, 0, sizeof a);
  a.data = m->fault->data;
  a.shape[0] = KERN__FAULT_WORDS;
  a.shape[1] = a.shape[2] = a.shape[3] = 1;
  return a;
}

static void shape_text(char *buf, size_t size, int ndim,
                       const int64_t *shape) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, size - k, "(");
  for (int i = 0; i < ndim && k < size; i++)
    k += (size_t)snprintf(buf + k, size - k, "%s%" PRId64, i ? ", " : "",
                          shape[i]);
  if (k < size)
    snprintf(buf + k, size - k, ndim == 1 ? ",)" : ")");
}

kern_status kern__debug_check(kern_kernel *k, const kern_arg *args,
                              int nargs) {
  kern_module *m = k->module;
  int64_t rec[KERN__FAULT_WORDS];
  kern_status st = kern__array_download(m->fault, rec, sizeof rec);
  if (st != KERN_SUCCESS)
    return st;
  if (rec[0] == 0)
    return KERN_SUCCESS;
  kern__array_zero(m->fault);
  int id = (int)rec[3];
  /* A vector or matrix index: the table holds the whole description and
   * the axis is -1 - axis (Note [debug mode] for components, emit/common.c). */
  if (rec[4] < 0)
    return kern__error(m->ctx, KERN_ERROR_OUT_OF_BOUNDS,
                       "%s:%" PRId64 ":%" PRId64 ": kernel '%s': index %" PRId64
                       " is out of bounds for %s",
                       m->name ? m->name : "<string>", rec[1], rec[2],
                       k->info->name, rec[5],
                       id >= 0 && id < m->code.narray_names
                           ? m->code.array_names[id] : "a vector or matrix");
  const char *pname = id >= 0 && id < m->code.narray_names
                          ? m->code.array_names[id] : "?";
  /* The shape is known when the array is one of this kernel's parameters
   * (an access inside a @wp.func names the function's parameter). */
  char shape[160] = "";
  for (int p = 0; p < k->info->nparams && p < nargs; p++) {
    if (strcmp(k->info->params[p].name, pname) != 0) continue;
    if (args[p].kind == KERN_ARG_ARRAY && args[p].u.array)
      shape_text(shape, sizeof shape, args[p].u.array->ndim,
                 args[p].u.array->shape);
    /* A sharded launch (multi.c) passes the sharded array: its global
     * shape, which the checks compare against. */
    const kern_sharded *sa = args[p].kind == KERN_ARG_SHARDED
                                 ? kern__handle_get(args[p].u.data,
                                                    KERN__H_SHARDED)
                                 : NULL;
    if (sa) shape_text(shape, sizeof shape, sa->ndim, sa->shape);
  }
  return kern__error(m->ctx, KERN_ERROR_OUT_OF_BOUNDS,
                     "%s:%" PRId64 ":%" PRId64 ": kernel '%s': index %" PRId64
                     " is out of bounds for axis %" PRId64 " of array '%s' "
                     "(length %" PRId64 "%s%s)",
                     m->name ? m->name : "<string>", rec[1], rec[2],
                     k->info->name, rec[5], rec[4], pname, rec[6],
                     shape[0] ? ", shape " : "", shape);
}
