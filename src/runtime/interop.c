/*
 * interop.c -- arrays over foreign memory, raw pointers out, and DLPack.
 *
 * A wrapped array is an ordinary kern_array whose memory kern does not own
 * (borrowed = 1): kern_array_free calls the release hook, if any, instead of
 * the backend's free.  Everything else -- launches, copies, streams -- sees
 * no difference, which is the point: memory from PyTorch, CuPy or a caller's
 * own allocator is used in place.
 *
 * DLPack (dlpack.h, v0.6 and later, which share the DLManagedTensor layout,
 * and DLPack 1.x's DLManagedTensorVersioned: Note [DLPack versions]):
 * export describes the array's memory without copying and adds the vector
 * and matrix components as trailing axes of the scalar type, the way NumPy
 * sees a Warp vec3 array; import accepts only what kern can index --
 * row-major contiguous memory -- and says why anything else is refused.
 * CPU, CUDA and OpenCL memory go both ways (an OpenCL tensor's data is its
 * cl_mem, and a byte offset into one becomes a sub-buffer).  Without
 * dlpack.h at build time (KERN_HAVE_DLPACK unset) every DLPack call returns
 * KERN_ERROR_UNSUPPORTED.
 */
#include <stddef.h>
#include <stdint.h>
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
  kern_status st;
  if (be->version >= 4 && be->adopt &&
      (st = be->adopt(state, index, KERN__NATIVE_MEMORY, native)))
    return kern__error(ctx, st, "%s: the memory cannot be used on %s:%d", fn,
                       be->name, index);
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

static kern_status no_dlpack_array(kern_array *ha, const char *fn) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  return kern__error(a->ctx, KERN_ERROR_UNSUPPORTED,
                     "%s: kern was built without dlpack.h", fn);
}

static kern_status no_dlpack_ctx(kern_context *hctx, const char *fn) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                     "%s: kern was built without dlpack.h", fn);
}

kern_status kern_array_to_dlpack(kern_array *ha, void **managed) {
  (void)managed;
  return no_dlpack_array(ha, "kern_array_to_dlpack");
}

kern_status kern_array_from_dlpack(kern_context *hctx, void *managed,
                                   kern_array **out) {
  (void)managed;
  (void)out;
  return no_dlpack_ctx(hctx, "kern_array_from_dlpack");
}

kern_status kern_array_to_dlpack_versioned(kern_array *ha, void **managed) {
  (void)managed;
  return no_dlpack_array(ha, "kern_array_to_dlpack_versioned");
}

kern_status kern_array_from_dlpack_versioned(kern_context *hctx,
                                             void *managed,
                                             kern_array **out) {
  (void)managed;
  (void)out;
  return no_dlpack_ctx(hctx, "kern_array_from_dlpack_versioned");
}

#else

/* DLPack's bool code arrived in v0.8; 0.6 headers lack the name. */
enum { DL_BOOL_CODE = 6 };

/* Note [DLPack versions]
 * DLPack 1.0 added DLManagedTensorVersioned, which consumers ask for first
 * (NumPy 2.1 and PyTorch pass max_version=(1, 0) to __dlpack__ and take a
 * "dltensor_versioned" capsule).  Debian ships dlpack.h 0.6, which lacks
 * it, so its layout is declared here from the DLPack 1.0 specification:
 * a version {uint32 major, uint32 minor}, manager_ctx, the deleter taking
 * the versioned struct, uint64 flags (bit 0 read-only, bit 1 a copy), then
 * the same DLTensor as before.  Minor versions of 1.x only add flags and
 * enum values, so kern reads any 1.x tensor and writes 1.0 ones; another
 * major version is refused before anything past the version is read, as
 * the specification asks.  The name is kern's own, so a newer dlpack.h
 * that declares DLManagedTensorVersioned does not clash, and is then held
 * to the same layout by the asserts below. */
typedef struct kern_dl_version {
  uint32_t major, minor;
} kern_dl_version;

typedef struct kern_dl_versioned {
  kern_dl_version version;
  void *manager_ctx;
  void (*deleter)(struct kern_dl_versioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} kern_dl_versioned;

enum { DL_FLAG_READ_ONLY = 1 };

#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
_Static_assert(sizeof(kern_dl_versioned) == sizeof(DLManagedTensorVersioned) &&
                   offsetof(kern_dl_versioned, flags) ==
                       offsetof(DLManagedTensorVersioned, flags) &&
                   offsetof(kern_dl_versioned, dl_tensor) ==
                       offsetof(DLManagedTensorVersioned, dl_tensor),
               "DLManagedTensorVersioned layout");
#endif

typedef struct dl_export {
  union {
    DLManagedTensor t;
    kern_dl_versioned v;
  } u;
  int64_t shape[KERN_MAX_DIMS + 2];
  int64_t strides[KERN_MAX_DIMS + 2];
} dl_export;

static void dl_export_delete(DLManagedTensor *t) {
  free(t ? t->manager_ctx : NULL);
}

static void dl_export_delete_versioned(kern_dl_versioned *t) {
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

/* Describes a (which must outlive it) in a new dl_export, both versions'
 * DLTensor being the same. */
static kern_status dl_export_new(kern_array *a, const char *fn,
                                 dl_export **out) {
  kern_context *ctx = a->ctx;
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, a->dev, &state, &index);
  DLDevice device;
  /* An OpenCL tensor's data is the cl_mem itself, as DLPack specifies for
   * kDLOpenCL, and its device_id kern's OpenCL device index. */
  switch (be->kind) {
  case KERN_BACKEND_CPU: device.device_type = kDLCPU; break;
  case KERN_BACKEND_CUDA: device.device_type = kDLCUDA; break;
  case KERN_BACKEND_OPENCL: device.device_type = kDLOpenCL; break;
  default:
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "%s: DLPack has no device type for backend %s", fn,
                       be->name);
  }
  device.device_id = be->kind == KERN_BACKEND_CPU ? 0 : index;
  uint8_t code;
  if (!dl_code(a->type.scalar, &code))
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "%s: no DLPack type for this array", fn);
  /* malloc, not kern__malloc: the consumer frees it through the deleter,
   * possibly after kern and its allocation hooks are gone. */
  dl_export *e = calloc(1, sizeof *e);
  if (!e)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                       fn);
  int nd = a->ndim;
  for (int i = 0; i < a->ndim; i++) e->shape[i] = a->shape[i];
  if (a->type.kind != KERN_KIND_SCALAR) e->shape[nd++] = a->type.rows;
  if (a->type.kind == KERN_KIND_MATRIX) e->shape[nd++] = a->type.cols;
  int64_t stride = 1;
  for (int i = nd - 1; i >= 0; i--) {
    e->strides[i] = stride;
    stride *= e->shape[i];
  }
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = a->data;
  t.device = device;
  t.ndim = nd;
  t.dtype.code = code;
  t.dtype.bits = (uint8_t)(kern_scalar_size(a->type.scalar) * 8);
  t.dtype.lanes = 1;
  t.shape = e->shape;
  t.strides = e->strides;
  t.byte_offset = 0;
  e->u.t.dl_tensor = t; /* the versioned caller moves it */
  *out = e;
  return KERN_SUCCESS;
}

kern_status kern_array_to_dlpack(kern_array *ha, void **managed) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  if (!managed)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_to_dlpack: out is NULL");
  dl_export *e;
  kern_status st = dl_export_new(a, "kern_array_to_dlpack", &e);
  if (st) return st;
  e->u.t.manager_ctx = e;
  e->u.t.deleter = dl_export_delete;
  *managed = &e->u.t;
  return KERN_SUCCESS;
}

kern_status kern_array_to_dlpack_versioned(kern_array *ha, void **managed) {
  kern_array *a = kern__array_enter(ha);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  if (!managed)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_array_to_dlpack_versioned: out is NULL");
  dl_export *e;
  kern_status st = dl_export_new(a, "kern_array_to_dlpack_versioned", &e);
  if (st) return st;
  DLTensor t = e->u.t.dl_tensor;
  memset(&e->u, 0, sizeof e->u);
  e->u.v.version.major = 1;
  e->u.v.version.minor = 0;
  e->u.v.manager_ctx = e;
  e->u.v.deleter = dl_export_delete_versioned;
  e->u.v.flags = 0;
  e->u.v.dl_tensor = t;
  *managed = &e->u.v;
  return KERN_SUCCESS;
}

/* What an imported array releases when freed: an OpenCL sub-buffer made
 * for a byte offset, then the tensor, through its deleter. */
typedef struct dl_import {
  void *managed;
  int versioned;
  const kern_backend *be;
  void *state;
  int index;
  void *sub;
} dl_import;

static void dl_import_release(void *arg) {
  dl_import *r = arg;
  if (r->sub) r->be->mem_free(r->state, r->index, r->sub);
  if (r->versioned) {
    kern_dl_versioned *v = r->managed;
    if (v->deleter) v->deleter(v);
  } else {
    DLManagedTensor *m = r->managed;
    if (m->deleter) m->deleter(m);
  }
  kern__free(r);
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

/* Wraps the tensor t of `managed` (either version) as a kern array that
 * releases it when freed; nothing is taken over on failure. */
static kern_status dl_import_tensor(kern_context *ctx, const DLTensor *t,
                                    void *managed, int versioned,
                                    const char *fn, kern_array **out) {
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
  case kDLOpenCL:
    snprintf(name, sizeof name, "opencl:%d", (int)t->device.device_id);
    break;
  default:
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "%s: DLPack device type %d is not supported (CPU, "
                       "CUDA, CUDA host and OpenCL memory are)",
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
  int64_t count = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (t->strides && t->shape[i] != 1 && t->strides[i] != count)
      return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                         "%s: axis %d has stride %lld elements but a "
                         "row-major contiguous array needs %lld; make the "
                         "tensor contiguous first",
                         fn, i, (long long)t->strides[i], (long long)count);
    if (t->shape[i] > 0 && count <= INT64_MAX / t->shape[i])
      count *= t->shape[i];
  }
  kern_type type = {KERN_KIND_SCALAR, sc, 1, 1};
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(ctx, dev, &state, &index);
  dl_import *r = kern__calloc(1, sizeof *r);
  if (!r)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
  r->managed = managed;
  r->versioned = versioned;
  r->be = be;
  r->state = state;
  r->index = index;
  void *data = (char *)t->data + t->byte_offset;
  if (be->kind == KERN_BACKEND_OPENCL) {
    /* A cl_mem is a handle, not an address: an offset into it takes a
     * sub-buffer (Note [foreign contexts] covers its context). */
    data = t->data;
    if (t->byte_offset) {
      size_t bytes = (size_t)count * kern_scalar_size(sc);
      if (!(be->version >= 4 && be->mem_sub))
        st = kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                         "%s: backend %s cannot honour a byte_offset", fn,
                         be->name);
      else
        st = be->mem_sub(state, index, t->data, t->byte_offset, bytes,
                         &r->sub);
      if (st) {
        kern__free(r);
        return kern__error(ctx, st, "%s: byte_offset %llu refused", fn,
                           (unsigned long long)t->byte_offset);
      }
      data = r->sub;
    }
  }
  kern_array *a;
  if ((st = wrap(ctx, dev, type, t->ndim, t->shape, data, fn, &a))) {
    if (r->sub) be->mem_free(state, index, r->sub);
    kern__free(r);
    return st;
  }
  a->release = dl_import_release;
  a->release_arg = r;
  *out = a->h;
  return KERN_SUCCESS;
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
  return dl_import_tensor(ctx, &m->dl_tensor, m, 0, fn, out);
}

kern_status kern_array_from_dlpack_versioned(kern_context *hctx,
                                             void *managed,
                                             kern_array **out) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  const char *fn = "kern_array_from_dlpack_versioned";
  if (!managed || !out)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                       managed ? "out" : "the tensor");
  kern_dl_versioned *v = managed;
  if (v->version.major != 1)
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "%s: the tensor is DLPack %u.%u; kern reads major "
                       "version 1",
                       fn, (unsigned)v->version.major,
                       (unsigned)v->version.minor);
  if (v->flags & DL_FLAG_READ_ONLY)
    return kern__error(ctx, KERN_ERROR_UNSUPPORTED,
                       "%s: the tensor is read-only "
                       "(DLPACK_FLAG_BITMASK_READ_ONLY) but kernels may "
                       "write any kern array; pass a writable one",
                       fn);
  return dl_import_tensor(ctx, &v->dl_tensor, v, 1, fn, out);
}

#endif
