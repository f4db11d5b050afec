/*
 * indexed.c -- wp.indexedarray arguments: a kern_indexed (a data array and
 * an int32 index array per dimension) checked and written as Warp's
 * indexedarray_t.
 *
 * The layout is Warp's (docs/ABI.md, "Indexed arrays"): the data array's
 * array_t (address, gradient address 0, int32 shape, contiguous strides in
 * bytes, ndim, flags 0) in the first 56 bytes, the four index arrays'
 * addresses (0 for none) at 56 and the int32 indexed shape at 88, 104
 * bytes in all.  A launch writes it into the parameter's slot on every
 * backend; on OpenCL the "addresses" are the buffers' cl_mem handles,
 * which never leave the runtime: backend_opencl.c turns them back into
 * buffer arguments.  kern_struct_set_indexed writes it into a struct's
 * bytes, where an address must be a real one, so it refuses OpenCL.
 */
#include <stdint.h>
#include <string.h>
#include "common.h"
#include "runtime.h"

/* Reads the caller's description (by its struct_size), checks it and
 * writes the 104 bytes at out.  who prefixes every message ("launch of
 * 'k': argument 2 'a'"); want_type/want_ndim, when want_ndim > 0, are the
 * parameter's; dev >= 0 is the device the data must be on.  Records the
 * error on ctx (or on the data array's context when ctx is NULL). */
kern_status kern__indexed_build(kern_context *ctx, const char *who,
                                const kern_indexed *user, kern_type want_type,
                                int want_ndim, int dev, unsigned char *out) {
  kern_indexed ia;
  memset(&ia, 0, sizeof ia);
  ia.struct_size = sizeof ia;
  if (!user) {
    if (!ctx) return KERN_ERROR_INVALID_ARGUMENT;
    return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                       "%s: the kern_indexed is NULL", who);
  }
  if (kern__struct_in(&ia, sizeof ia, user, KERN_INDEXED_SIZE_V1) !=
      KERN_SUCCESS) {
    if (!ctx) return KERN_ERROR_INVALID_ARGUMENT;
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: the kern_indexed has struct_size %zu; build it "
                       "from KERN_INDEXED_INIT", who, user->struct_size);
  }
  kern_array *d = ia.data ? kern__handle_get(ia.data, KERN__H_ARRAY) : NULL;
  if (!ctx && d) ctx = d->ctx;
  if (!ctx) return ia.data ? KERN_ERROR_INVALID_HANDLE
                           : KERN_ERROR_INVALID_ARGUMENT;
  if (!ia.data)
    return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                       "%s: the indexed array has no data array", who);
  if (!d)
    return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                       "%s: the data array is not a live array (already "
                       "freed?)", who);
  if (d->ctx != ctx)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: the data array belongs to another context", who);
  if (want_ndim > 0 &&
      (!kern__type_equal(d->type, want_type) || d->ndim != want_ndim)) {
    char wt[80], gt[80];
    kern_type_name(want_type, wt, sizeof wt);
    kern_type_name(d->type, gt, sizeof gt);
    return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                       "%s expects wp.indexedarray(dtype=%s, ndim=%d), got "
                       "a data array of %s with %d dimension%s",
                       who, wt, want_ndim, gt, d->ndim,
                       d->ndim == 1 ? "" : "s");
  }
  if (dev >= 0 && d->dev != dev)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: the data array is on device %d but the kernel "
                       "was built for device %d", who, (int)d->dev, dev);
  unsigned char b[KERN_STRUCT_INDEXED_SIZE];
  memset(b, 0, sizeof b);
  uint64_t addr = (uint64_t)(uintptr_t)d->data;
  memcpy(b, &addr, 8);
  int64_t stride = (int64_t)kern_type_size(d->type);
  for (int k = d->ndim - 1; k >= 0; k--) {
    if (d->shape[k] > INT32_MAX)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: axis %d of the data array has %lld elements; "
                         "Warp's descriptor holds int32 shapes",
                         who, k, (long long)d->shape[k]);
    int32_t n = (int32_t)d->shape[k], st = (int32_t)stride;
    memcpy(b + 16 + 4 * k, &n, 4);
    memcpy(b + 32 + 4 * k, &st, 4);
    memcpy(b + 88 + 4 * k, &n, 4); /* the indexed shape, until an index */
    stride *= d->shape[k];
  }
  uint16_t nd = (uint16_t)d->ndim;
  memcpy(b + 48, &nd, 2);
  for (int k = 0; k < KERN_MAX_DIMS; k++) {
    if (!ia.indices[k]) continue;
    if (k >= d->ndim)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: an index array for dimension %d, but the data "
                         "array has %d dimension%s",
                         who, k, d->ndim, d->ndim == 1 ? "" : "s");
    kern_array *x = kern__handle_get(ia.indices[k], KERN__H_ARRAY);
    if (!x)
      return kern__error(ctx, KERN_ERROR_INVALID_HANDLE,
                         "%s: the index array of dimension %d is not a live "
                         "array (already freed?)", who, k);
    char tn[80];
    kern_type_name(x->type, tn, sizeof tn);
    if (x->type.kind != KERN_KIND_SCALAR ||
        x->type.scalar != KERN_SCALAR_INT32 || x->ndim != 1)
      return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                         "%s: the index array of dimension %d must be a 1-d "
                         "array of int32, got a %d-d array of %s",
                         who, k, x->ndim, tn);
    if (x->ctx != d->ctx || x->dev != d->dev)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: the index array of dimension %d is on another "
                         "device (or context) than the data array", who, k);
    if (x->shape[0] > INT32_MAX)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: the index array of dimension %d has %lld "
                         "entries; the indexed shape is int32",
                         who, k, (long long)x->shape[0]);
    uint64_t xa = (uint64_t)(uintptr_t)x->data;
    int32_t n = (int32_t)x->shape[0];
    memcpy(b + 56 + 8 * k, &xa, 8);
    memcpy(b + 88 + 4 * k, &n, 4);
  }
  memcpy(out, b, sizeof b);
  return KERN_SUCCESS;
}

kern_status kern_struct_set_indexed(void *dst, const kern_indexed *ia) {
  kern_array *d = NULL;
  if (ia && ia->struct_size >= KERN_INDEXED_SIZE_V1 && ia->data)
    d = kern__array_enter(ia->data);
  if (!d) /* no context to report to */
    return ia && ia->data ? KERN_ERROR_INVALID_HANDLE
                          : KERN_ERROR_INVALID_ARGUMENT;
  if (!dst)
    return kern__error(d->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_struct_set_indexed: dst is NULL");
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(d->ctx, d->dev, &state, &index);
  if (be && be->kind == KERN_BACKEND_OPENCL)
    return kern__error(d->ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_struct_set_indexed: an OpenCL buffer has no "
                       "device address a struct could hold");
  kern_type none = {0};
  return kern__indexed_build(d->ctx, "kern_struct_set_indexed", ia, none, 0,
                             -1, dst);
}
