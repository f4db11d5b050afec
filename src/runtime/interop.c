/*
 * interop.c -- arrays over foreign memory, raw pointers out, and DLPack.
 *
 * A wrapped array is an ordinary kern_array whose memory kern does not own
 * (borrowed = 1): kern_array_free calls the release hook, if any, instead of
 * the backend's free.  Everything else -- launches, copies, streams -- sees
 * no difference, which is the point: memory from PyTorch, CuPy or a caller's
 * own allocator is used in place.
 *
 * DLPack (dlpack.h, v0.6 and later, which share the DLManagedTensor layout):
 * export describes the array's memory without copying and adds the vector
 * and matrix components as trailing axes of the scalar type, the way NumPy
 * sees a Warp vec3 array; import accepts only what kern can index --
 * row-major contiguous memory -- and says why anything else is refused.
 * Without dlpack.h at build time (KERN_HAVE_DLPACK unset) both calls return
 * KERN_ERROR_UNSUPPORTED.
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "async.h"
#ifdef KERN_HAVE_DLPACK
#include <dlpack/dlpack.h>
#endif

static kern_status wrap(kern_context *ctx, kern_device dev, kern_type type,
                        int ndim, const int64_t *shape, void *native,
                        const char *fn, kern_array **out) {
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  if (!be)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: no device %d (the context has %d)", fn, dev,
                       ctx->ndevices);
  if (!kern__type_valid(type))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: invalid element type", fn);
  if (ndim < 1 || ndim > KERN_MAX_DIMS || !shape)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: ndim must be 1 to %d with a shape, got %d", fn,
                       KERN_MAX_DIMS, ndim);
  if (!native)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: the memory to wrap is NULL", fn);
  int64_t count = 1;
  for (int i = 0; i < ndim; i++)
    if (shape[i] <= 0 || __builtin_mul_overflow(count, shape[i], &count))
      return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "%s: shape[%d] = %lld is not positive or the "
                         "element count overflows",
                         fn, i, (long long)shape[i]);
  size_t nbytes;
  if ((uint64_t)count > SIZE_MAX ||
      __builtin_mul_overflow((size_t)count, kern_type_size(type), &nbytes) ||
      nbytes > (size_t)INT64_MAX)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s: the size in bytes overflows", fn);
  kern_array *a = kern__calloc(1, sizeof *a);
  if (a) a->h = kern__handle_new(KERN__H_ARRAY, a);
  if (!a || !a->h) {
    kern__free(a);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
  }
  a->ctx = ctx;
  a->dev = dev;
  a->type = type;
  a->ndim = ndim;
  for (int i = 0; i < KERN_MAX_DIMS; i++) a->shape[i] = i < ndim ? shape[i] : 1;
  a->size = count;
  a->nbytes = nbytes;
  a->data = native;
  a->borrowed = 1;
  a->next = ctx->arrays;
  if (ctx->arrays) ctx->arrays->prev = a;
  ctx->arrays = a;
  *out = a;
  return KERN_SUCCESS;
}

kern_status kern_array_wrap(kern_context *hctx, kern_device dev,
                            kern_type type, int ndim, const int64_t *shape,
                            void *native, kern_array **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  if (!out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_wrap: out is NULL");
  kern_array *a;
  kern_status st =
      wrap(ctx, dev, type, ndim, shape, native, "kern_array_wrap", &a);
  if (st == KERN_SUCCESS) *out = a->h; /* the caller holds the handle */
  return st;
}

void *kern_array_native(const kern_array *h) {
  const kern_array *a = kern__handle_get(h, KERN__H_ARRAY);
  return a ? a->data : NULL;
}

/* ---------------------------------------------------------------- DLPack */

#ifndef KERN_HAVE_DLPACK

kern_status kern_array_to_dlpack(kern_array *ha, void **managed) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  return kern__error(a->ctx, KERN_ERROR_UNSUPPORTED,
                     "kern_array_to_dlpack: kern was built without dlpack.h");
}

kern_status kern_array_from_dlpack(kern_context *hctx, void *managed,
                                   kern_array **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                     "kern_array_from_dlpack: kern was built without "
                     "dlpack.h");
}

#else

/* DLPack's bool code arrived in v0.8; 0.6 headers lack the name. */
enum { DL_BOOL_CODE = 6 };

typedef struct dl_export {
  DLManagedTensor t;
  int64_t shape[KERN_MAX_DIMS + 2];
  int64_t strides[KERN_MAX_DIMS + 2];
} dl_export;

static void dl_export_delete(DLManagedTensor *t) {
  free(t ? t->manager_ctx : NULL);
}

static int dl_code(kern_scalar s, uint8_t *code) {
  switch (s) {
  case KERN_SCALAR_BOOL: *code = DL_BOOL_CODE; return 1;
  case KERN_SCALAR_INT8: case KERN_SCALAR_INT16: case KERN_SCALAR_INT32: case KERN_SCALAR_INT64:
    *code = kDLInt; return 1;
  case KERN_SCALAR_UINT8: case KERN_SCALAR_UINT16: case KERN_SCALAR_UINT32: case KERN_SCALAR_UINT64:
    *code = kDLUInt; return 1;
  case KERN_SCALAR_FLOAT32: case KERN_SCALAR_FLOAT64: case KERN_SCALAR_FLOAT16:
    *code = kDLFloat; return 1;
  case KERN_SCALAR_BFLOAT16:
    *code = kDLBfloat; return 1;
  default:
    return 0;
  }
}

kern_status kern_array_to_dlpack(kern_array *ha, void **managed) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  kern_context *ctx = a->ctx;
  if (!managed)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_to_dlpack: out is NULL");
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, a->dev, &state, &index);
  DLDevice device;
  if (be->kind == KERN_BACKEND_CPU) {
    device.device_type = kDLCPU;
  } else if (be->kind == KERN_BACKEND_CUDA) {
    device.device_type = kDLCUDA;
  } else {
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_array_to_dlpack: %s memory is a cl_mem handle, "
                       "which DLPack cannot describe",
                       be->name);
  }
  device.device_id = be->kind == KERN_BACKEND_CPU ? 0 : index;
  uint8_t code;
  if (!dl_code(a->type.scalar, &code))
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_array_to_dlpack: no DLPack type for this array");
  /* malloc, not kern__malloc: the consumer frees it through the deleter,
   * possibly after kern and its allocation hooks are gone. */
  dl_export *e = calloc(1, sizeof *e);
  if (!e)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kern_array_to_dlpack: out of memory");
  int nd = a->ndim;
  for (int i = 0; i < a->ndim; i++) e->shape[i] = a->shape[i];
  if (a->type.kind != KERN_KIND_SCALAR) e->shape[nd++] = a->type.rows;
  if (a->type.kind == KERN_KIND_MATRIX) e->shape[nd++] = a->type.cols;
  int64_t stride = 1;
  for (int i = nd - 1; i >= 0; i--) {
    e->strides[i] = stride;
    stride *= e->shape[i];
  }
  DLTensor *t = &e->t.dl_tensor;
  t->data = a->data;
  t->device = device;
  t->ndim = nd;
  t->dtype.code = code;
  t->dtype.bits = (uint8_t)(kern_scalar_size(a->type.scalar) * 8);
  t->dtype.lanes = 1;
  t->shape = e->shape;
  t->strides = e->strides;
  t->byte_offset = 0;
  e->t.manager_ctx = e;
  e->t.deleter = dl_export_delete;
  *managed = &e->t;
  return KERN_SUCCESS;
}

static void dl_import_release(void *arg) {
  DLManagedTensor *t = arg;
  if (t->deleter) t->deleter(t);
}

static int dl_scalar(DLDataType d, kern_scalar *s) {
  if (d.lanes != 1) return 0;
  static const struct {
    uint8_t code, bits;
    kern_scalar s;
  } map[] = {
      {DL_BOOL_CODE, 8, KERN_SCALAR_BOOL}, {kDLInt, 8, KERN_SCALAR_INT8},
      {kDLInt, 16, KERN_SCALAR_INT16},     {kDLInt, 32, KERN_SCALAR_INT32},
      {kDLInt, 64, KERN_SCALAR_INT64},     {kDLUInt, 8, KERN_SCALAR_UINT8},
      {kDLUInt, 16, KERN_SCALAR_UINT16},   {kDLUInt, 32, KERN_SCALAR_UINT32},
      {kDLUInt, 64, KERN_SCALAR_UINT64},   {kDLFloat, 32, KERN_SCALAR_FLOAT32},
      {kDLFloat, 64, KERN_SCALAR_FLOAT64}, {kDLFloat, 16, KERN_SCALAR_FLOAT16},
      {kDLBfloat, 16, KERN_SCALAR_BFLOAT16},
  };
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (map[i].code == d.code && map[i].bits == d.bits) {
      *s = map[i].s;
      return 1;
    }
  return 0;
}

kern_status kern_array_from_dlpack(kern_context *hctx, void *managed,
                                   kern_array **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  const char *fn = "kern_array_from_dlpack";
  if (!managed || !out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                       managed ? "out" : "the tensor");
  DLManagedTensor *m = managed;
  DLTensor *t = &m->dl_tensor;
  kern_device dev;
  kern_status st;
  char name[32];
  switch ((int)t->device.device_type) {
  case kDLCPU:
  case kDLCUDAHost:
    snprintf(name, sizeof name, "cpu");
    break;
  case kDLCUDA:
    snprintf(name, sizeof name, "cuda:%d", (int)t->device.device_id);
    break;
  default:
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "%s: DLPack device type %d is not supported (CPU, "
                       "CUDA and CUDA host memory are)",
                       fn, (int)t->device.device_type);
  }
  if ((st = kern_device_find(ctx->h, name, &dev))) return st;
  kern_scalar sc;
  if (!dl_scalar(t->dtype, &sc))
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "%s: DLPack type code %d, %d bits, %d lanes has no "
                       "kern scalar type",
                       fn, t->dtype.code, t->dtype.bits, t->dtype.lanes);
  if (t->ndim < 1 || t->ndim > KERN_MAX_DIMS)
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "%s: %d dimensions; kern arrays have 1 to %d", fn,
                       (int)t->ndim, KERN_MAX_DIMS);
  if (!t->shape)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT, "%s: shape is NULL",
                       fn);
  /* Compact row-major strides only; an axis of length 1 may have any
   * stride, as NumPy and PyTorch leave them arbitrary. */
  if (t->strides) {
    int64_t want = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
      if (t->shape[i] != 1 && t->strides[i] != want)
        return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                           "%s: axis %d has stride %lld elements but a "
                           "row-major contiguous array needs %lld; make the "
                           "tensor contiguous first",
                           fn, i, (long long)t->strides[i], (long long)want);
      want *= t->shape[i];
    }
  }
  kern_type type = {KERN_KIND_SCALAR, sc, 1, 1};
  void *data = (char *)t->data + t->byte_offset;
  kern_array *a;
  if ((st = wrap(ctx, dev, type, t->ndim, t->shape, data, fn, &a))) return st;
  a->release = dl_import_release;
  a->release_arg = m;
  *out = a->h;
  return KERN_SUCCESS;
}

#endif
