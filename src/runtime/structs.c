/*
 * structs.c -- the host side of @wp.struct arguments.
 *
 * A struct argument is its bytes in Warp's layout (docs/ABI.md,
 * "Structs"), passed with kern_arg_data; kern_kernel_param_field
 * (module.c) says where each field lies.  An array field holds Warp's
 * array descriptor, array_t, which kern_struct_set_array fills from a kern
 * array: the backend address (a host address on the CPU, a CUdeviceptr on
 * CUDA), the shape as int32 (Warp's), contiguous row-major strides in
 * bytes, ndim and no flags.  kern reads only the address and the shape.
 */
#include <stdint.h>
#include <string.h>
#include "common.h"
#include "runtime.h"

kern_status kern_struct_set_array(void *dst, const kern_array *h) {
  kern_array *a = kern__array_enter(h);
  if (!a) return KERN_ERROR_INVALID_HANDLE;
  if (!dst)
    return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_struct_set_array: dst is NULL");
  void *state;
  int index;
  const kern_backend *be = kern__device_backend(a->ctx, a->dev, &state, &index);
  if (be && be->kind == KERN_BACKEND_OPENCL)
    return kern__error(a->ctx, KERN_ERROR_UNSUPPORTED,
                       "kern_struct_set_array: an OpenCL buffer has no "
                       "device address a struct could hold");
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] > INT32_MAX)
      return kern__error(a->ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "kern_struct_set_array: axis %d has %lld elements; "
                         "Warp's array descriptor holds int32 shapes",
                         i, (long long)a->shape[i]);
  /* Warp's array_t, field by field at its offsets (base/layout.c) */
  unsigned char b[KERN_STRUCT_ARRAY_SIZE];
  memset(b, 0, sizeof b);
  uint64_t data = (uint64_t)(uintptr_t)a->data;
  memcpy(b, &data, 8);
  int64_t stride = (int64_t)kern_type_size(a->type);
  for (int i = a->ndim - 1; i >= 0; i--) {
    int32_t n = (int32_t)a->shape[i], st = (int32_t)stride;
    memcpy(b + 16 + 4 * i, &n, 4);
    memcpy(b + 32 + 4 * i, &st, 4);
    stride *= a->shape[i];
  }
  uint16_t nd = (uint16_t)a->ndim;
  memcpy(b + 48, &nd, 2);
  memcpy(dst, b, sizeof b);
  return KERN_SUCCESS;
}
