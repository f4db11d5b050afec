/*
 * kern_v1.h -- a frozen copy of the first version of kern.h's ABI
 * (SOVERSION 1), for abi_v1.c.  Never edit it: it stands for a program
 * compiled against the first header and run against whatever libkern.so.1
 * is built now.  It declares only what abi_v1.c uses, with each struct as
 * its first version was (Note [struct growth] in include/kern.h): the
 * fields later versions appended (kern_options.debug, the device properties
 * of kern_device_info) are absent, so the library must read and write these
 * smaller structs by their struct_size.
 */
#ifndef KERN_V1_H
#define KERN_V1_H

#include <stddef.h>
#include <stdint.h>

typedef enum kern_status {
  KERN_SUCCESS,
  KERN_ERROR_INVALID_ARGUMENT,
  KERN_ERROR_OUT_OF_MEMORY,
  KERN_ERROR_IO,
  KERN_ERROR_COMPILE,
  KERN_ERROR_NOT_FOUND,
  KERN_ERROR_BACKEND_UNAVAILABLE,
  KERN_ERROR_UNSUPPORTED,
  KERN_ERROR_TYPE_MISMATCH,
  KERN_ERROR_LAUNCH,
  KERN_ERROR_DEVICE,
  KERN_ERROR_TOOLCHAIN,
  KERN_ERROR_CACHE,
  KERN_ERROR_OUT_OF_BOUNDS,
  KERN_ERROR_INVALID_HANDLE
} kern_status;

typedef enum kern_scalar {
  KERN_SCALAR_BOOL,
  KERN_SCALAR_INT8,
  KERN_SCALAR_INT16,
  KERN_SCALAR_INT32,
  KERN_SCALAR_INT64,
  KERN_SCALAR_UINT8,
  KERN_SCALAR_UINT16,
  KERN_SCALAR_UINT32,
  KERN_SCALAR_UINT64,
  KERN_SCALAR_FLOAT32,
  KERN_SCALAR_FLOAT64
} kern_scalar;
typedef enum kern_kind {
  KERN_KIND_SCALAR,
  KERN_KIND_VECTOR,
  KERN_KIND_MATRIX
} kern_kind;
typedef struct kern_type {
  kern_kind kind;
  kern_scalar scalar;
  int rows;
  int cols;
} kern_type;

typedef struct kern_context kern_context;
typedef struct kern_array kern_array;
typedef struct kern_module kern_module;
typedef struct kern_kernel kern_kernel;
typedef int kern_device;

typedef struct kern_options {
  size_t struct_size;
  const char *cache_dir;
  int num_threads;
  int no_cache;
} kern_options;

typedef enum kern_backend_kind {
  KERN_BACKEND_CPU,
  KERN_BACKEND_CUDA,
  KERN_BACKEND_OPENCL
} kern_backend_kind;

typedef struct kern_backend_info {
  size_t struct_size;
  const char *name;
  const char *reason;
  kern_backend_kind kind;
  int available;
  int device_count;
  int reserved0;
} kern_backend_info;

typedef struct kern_device_info {
  size_t struct_size;
  kern_backend_kind backend;
  int index;
  char name[128];
  char description[256];
  int compute_units;
  int reserved0;
  uint64_t memory_bytes;
} kern_device_info;

typedef enum kern_param_kind { KERN_PARAM_VALUE, KERN_PARAM_ARRAY } kern_param_kind;
typedef struct kern_param_info {
  size_t struct_size;
  const char *name;
  kern_param_kind kind;
  kern_type type;
  int ndim;
} kern_param_info;

typedef enum kern_arg_kind {
  KERN_ARG_ARRAY,
  KERN_ARG_INT,
  KERN_ARG_FLOAT,
  KERN_ARG_DATA
} kern_arg_kind;
typedef struct kern_arg {
  size_t struct_size;
  kern_arg_kind kind;
  union {
    kern_array *array;
    int64_t i;
    double f;
    const void *data;
  } u;
  size_t size;
} kern_arg;

int kern_version(void);
const char *kern_version_string(void);
const char *kern_status_name(kern_status s);
kern_status kern_context_new(const kern_options *opts, kern_context **out);
void kern_context_free(kern_context *ctx);
const char *kern_last_error(const kern_context *ctx);
kern_status kern_backend_get(kern_context *ctx, kern_backend_kind kind,
                             kern_backend_info *out);
kern_status kern_device_get(kern_context *ctx, kern_device dev,
                            kern_device_info *out);
kern_status kern_array_new(kern_context *ctx, kern_device dev, kern_type type,
                           int ndim, const int64_t *shape, kern_array **out);
void kern_array_free(kern_array *a);
kern_status kern_array_upload(kern_array *a, const void *src, size_t nbytes);
kern_status kern_array_download(const kern_array *a, void *dst, size_t nbytes);
kern_status kern_module_load_string(kern_context *ctx, kern_device dev,
                                    const char *name, const char *source,
                                    size_t length, kern_module **out);
void kern_module_free(kern_module *m);
kern_status kern_module_get_kernel(kern_module *m, const char *name,
                                   kern_kernel **out);
kern_status kern_kernel_param(const kern_kernel *k, int i,
                              kern_param_info *out);
kern_status kern_launch(kern_kernel *k, int ndim, const int64_t *dims,
                        int nargs, const kern_arg *args);

#endif
