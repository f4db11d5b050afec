/*
 * array.c -- device arrays.
 *
 * An array is a contiguous row-major block of backend memory plus its shape
 * and element type.  Everything that touches the memory goes through the
 * owning device's backend table, so this file is the same for CPU, CUDA and
 * OpenCL.  Arrays are linked into their context so kern_context_free can
 * release whatever the user forgot.
 *
 * Each public function turns its handle into the array first (Note [handle
 * table] in handle.c); the kern__array_* functions work on the array itself
 * and serve the runtime's own arrays too.
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "runtime.h"

static const kern_backend *array_backend(const kern_array *a, void **state,
                                         int *index) {
  return kern__device_backend(a->ctx, a->dev, state, index);
}

kern_status kern_array_new(kern_context *h, kern_device dev, kern_type type,
                           int ndim, const int64_t *shape, kern_array **out) {
  kern_context *ctx = kern__ctx_enter(h);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  kern_array *a;
  kern_status st = kern__array_new(ctx, dev, type, ndim, shape, out ? &a : NULL);
  if (st == KERN_SUCCESS) *out = a->h;
  return st;
}

kern_status kern__array_new(kern_context *ctx, kern_device dev, kern_type type,
                            int ndim, const int64_t *shape, kern_array **out) {
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_new: out is NULL");
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  if (!be)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_new: no device %d (the context has %d)",
                       dev, ctx->ndevices);
  if (!kern__type_valid(type))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_new: invalid element type");
  if (ndim < 1 || ndim > KERN_MAX_DIMS)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_new: ndim must be 1 to %d, got %d",
                       KERN_MAX_DIMS, ndim);
  if (!shape)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_new: shape is NULL");
  /* The byte size must fit in size_t and the element count in int64: the
   * generated code indexes with int64. */
  size_t esize = kern_type_size(type);
  int64_t count = 1;
  for (int i = 0; i < ndim; i++) {
    /* An axis of length 0 is allowed, as in Warp: the array holds no
     * elements and no device memory (Note [zero-size arrays]). */
    if (shape[i] < 0)
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "kern_array_new: axis %d has a negative length "
                         "(%lld); an array's shape holds lengths >= 0",
                         i, (long long)shape[i]);
    if (__builtin_mul_overflow(count, shape[i], &count))
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "kern_array_new: the element count overflows");
  }
  size_t nbytes;
  if ((uint64_t)count > SIZE_MAX ||
      __builtin_mul_overflow((size_t)count, esize, &nbytes) ||
      nbytes > (size_t)INT64_MAX)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_new: the size in bytes overflows");

  kern_array *a = kern__calloc(1, sizeof *a);
  if (a) a->h = kern__handle_new(KERN__H_ARRAY, a);
  if (!a || !a->h) {
    kern__free(a);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_array_new: out of memory");
  }
  /* Note [zero-size arrays]: an array of no bytes has no device memory
   * (data is NULL; OpenCL, for one, refuses buffers of size 0), and its
   * copies and fills do nothing.  A kernel may still take it: with a grid
   * of size 0 nothing runs, and any index into it is out of bounds, which
   * debug mode reports. */
  kern_status st = nbytes == 0 ? KERN_SUCCESS
                               : be->mem_alloc(state, index, (nbytes + 3) & ~(size_t)3,
                                              &a->data);
  if (st != KERN_SUCCESS) {
    kern__handle_release(a->h, KERN__H_ARRAY);
    kern__free(a);
    char tn[64];
    return kern__error(ctx, st,
                       "kern_array_new: cannot allocate %zu bytes (%lld x "
                       "%s) on %s:%d",
                       nbytes, (long long)count,
                       kern_type_name(type, tn, sizeof tn), be->name, index);
  }
  a->ctx = ctx;
  a->dev = dev;
  a->type = type;
  a->ndim = ndim;
  for (int i = 0; i < KERN_MAX_DIMS; i++) a->shape[i] = i < ndim ? shape[i] : 1;
  a->size = count;
  a->nbytes = nbytes;
  a->next = ctx->arrays;
  if (ctx->arrays) ctx->arrays->prev = a;
  ctx->arrays = a;
  *out = a;
  return KERN_SUCCESS;
}

kern_array *kern__array_enter(const kern_array *h) {
  kern_array *a = kern__handle_get(h, KERN__H_ARRAY);
  if (a) kern__call_begin(a->ctx);
  return a;
}

void kern_array_free(kern_array *h) {
  /* A freed handle (double free) is ignored: Note [handle table]. */
  kern_array *a = kern__handle_get(h, KERN__H_ARRAY);
  if (a) kern__array_free(a);
}

void kern__array_free(kern_array *a) {
  if (!a) return;
  kern_context *ctx = a->ctx;
  kern__handle_release(a->h, KERN__H_ARRAY);
  void *state;
  int index;
  const kern_backend *be = array_backend(a, &state, &index);
  kern__async_quiesce(ctx); /* no stream may still use the memory */
  if (a->borrowed) {
    if (a->release) a->release(a->release_arg);
  } else if (be && a->nbytes) {
    be->mem_free(state, index, a->data);
  }
  if (a->prev) a->prev->next = a->next;
  else ctx->arrays = a->next;
  if (a->next) a->next->prev = a->prev;
  kern__free(a);
}

/* The queries start no call: they cannot fail, so they leave the error. */
static const kern_array *peek(const kern_array *h) {
  return kern__handle_get(h, KERN__H_ARRAY);
}

int kern_array_ndim(const kern_array *h) {
  const kern_array *a = peek(h);
  return a ? a->ndim : 0;
}

int64_t kern_array_dim(const kern_array *h, int axis) {
  const kern_array *a = peek(h);
  if (!a || axis < 0 || axis >= a->ndim) return 0;
  return a->shape[axis];
}

int64_t kern_array_size(const kern_array *h) {
  const kern_array *a = peek(h);
  return a ? a->size : 0;
}
size_t kern_array_nbytes(const kern_array *h) {
  const kern_array *a = peek(h);
  return a ? a->nbytes : 0;
}

kern_type kern_array_type(const kern_array *h) {
  kern_type none = {KERN_KIND_SCALAR, KERN_SCALAR_COUNT, 0, 0};
  const kern_array *a = peek(h);
  return a ? a->type : none;
}

kern_device kern_array_device(const kern_array *h) {
  const kern_array *a = peek(h);
  return a ? a->dev : -1;
}

kern_status kern_array_upload(kern_array *h, const void *src, size_t nbytes) {
  kern_array *a = kern__array_enter(h);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  if (a->nbytes == 0 && nbytes == 0) return KERN_SUCCESS; /* src may be NULL */
  if (!src)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_upload: src is NULL");
  if (nbytes != a->nbytes)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_upload: nbytes is %zu but the array holds "
                       "%zu bytes",
                       nbytes, a->nbytes);
  void *state;
  int index;
  const kern_backend *be = array_backend(a, &state, &index);
  kern__sync_default(a->ctx, a->dev);
  kern_status st = be->copy_in(state, index, a->data, src, nbytes);
  if (st != KERN_SUCCESS)
    return kern__error(a->ctx, st, "kern_array_upload: copy to %s:%d failed",
                       be->name, index);
  return KERN_SUCCESS;
}

kern_status kern_array_download(const kern_array *h, void *dst,
                                size_t nbytes) {
  const kern_array *a = kern__array_enter(h);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  return kern__array_download(a, dst, nbytes);
}

kern_status kern__array_download(const kern_array *a, void *dst,
                                 size_t nbytes) {
  if (a->nbytes == 0 && nbytes == 0) return KERN_SUCCESS; /* dst may be NULL */
  if (!dst)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_download: dst is NULL");
  if (nbytes != a->nbytes)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_download: nbytes is %zu but the array "
                       "holds %zu bytes",
                       nbytes, a->nbytes);
  void *state;
  int index;
  const kern_backend *be = array_backend(a, &state, &index);
  kern__sync_default(a->ctx, a->dev);
  kern_status st = be->copy_out(state, index, dst, a->data, nbytes);
  if (st != KERN_SUCCESS)
    return kern__error(a->ctx, st,
                       "kern_array_download: copy from %s:%d failed",
                       be->name, index);
  return KERN_SUCCESS;
}

kern_status kern_array_fill(kern_array *h, const void *value) {
  kern_array *a = kern__array_enter(h);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  if (!value)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_fill: value is NULL");
  if (a->nbytes == 0) return KERN_SUCCESS;
  void *state;
  int index;
  const kern_backend *be = array_backend(a, &state, &index);
  kern__sync_default(a->ctx, a->dev);
  kern_status st = be->fill(state, index, a->data, value,
                            kern_type_size(a->type), a->nbytes);
  if (st != KERN_SUCCESS)
    return kern__error(a->ctx, st, "kern_array_fill: fill on %s:%d failed",
                       be->name, index);
  return KERN_SUCCESS;
}

kern_status kern_array_zero(kern_array *h) {
  kern_array *a = kern__array_enter(h);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  return kern__array_zero(a);
}

kern_status kern__array_zero(kern_array *a) {
  static const unsigned char zero = 0;
  if (a->nbytes == 0) return KERN_SUCCESS;
  void *state;
  int index;
  const kern_backend *be = array_backend(a, &state, &index);
  /* A one-byte pattern lets every backend use its memset path. */
  kern__sync_default(a->ctx, a->dev);
  kern_status st = be->fill(state, index, a->data, &zero, 1, a->nbytes);
  if (st != KERN_SUCCESS)
    return kern__error(a->ctx, st, "kern_array_zero: fill on %s:%d failed",
                       be->name, index);
  return KERN_SUCCESS;
}
