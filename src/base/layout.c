/*
 * layout.c -- the bytes a value occupies: size, alignment and the offsets
 * of a @wp.struct's fields.
 *
 * The layout is Warp's (its ctypes Structure for a struct, numpy_dtype()):
 * C's natural layout with vectors and matrices as arrays of their scalar
 * (so a vec3 is 12 bytes aligned to 4, a mat22d 32 bytes aligned to 8),
 * bool one byte, fields in declaration order each at the next multiple of
 * its alignment, the size rounded up to the largest alignment.  An array
 * field is Warp's array descriptor, array_t: a uint64 data address, a
 * uint64 gradient address, int32 shape[4], int32 strides[4] (bytes),
 * uint16 ndim and uint16 flags, 56 bytes aligned to 8; an indexedarray
 * field is Warp's indexedarray_t: that array_t, then four uint64 index
 * array addresses (0 for none) at 56 and int32 shape[4] at 88, 104 bytes
 * aligned to 8.  The emitters spell
 * every type so that C, CUDA and OpenCL C lay it out exactly like this
 * (scalar members only, no vector types), and the runtime describes it to
 * users through kern_kernel_param_field.
 */
#include "base.h"

size_t ty_align(const Type *t) {
  switch (t->kind) {
  case TY_SCALAR: case TY_VEC: case TY_MAT:
    return (size_t)sc_bits(t->sc) / 8;
  case TY_ARRAY:
    return 8;
  case TY_STRUCT: {
    size_t a = 1;
    for (int i = 0; i < t->n; i++)
      if (ty_align(t->items[i]) > a)
        a = ty_align(t->items[i]);
    return a;
  }
  default:
    return 1;
  }
}

size_t ty_size(const Type *t) {
  switch (t->kind) {
  case TY_SCALAR:
    return (size_t)sc_bits(t->sc) / 8;
  case TY_VEC:
    return (size_t)sc_bits(t->sc) / 8 * (size_t)t->rows;
  case TY_MAT:
    return (size_t)sc_bits(t->sc) / 8 * (size_t)t->rows * (size_t)t->cols;
  case TY_ARRAY: /* Warp's indexedarray_t embeds an array_t */
    return t->indexed ? TY_WARP_INDEXED_SIZE : TY_WARP_ARRAY_SIZE;
  case TY_STRUCT: {
    size_t a = ty_align(t);
    size_t end = t->n ? ty_field_offset(t, t->n - 1) +
                            ty_size(t->items[t->n - 1]) : 0;
    /* C gives an empty struct no members; Warp's ctypes one is 0 bytes,
     * but a C compiler needs one, so kern refuses empty structs. */
    return (end + a - 1) / a * a;
  }
  default:
    return 0;
  }
}

size_t ty_field_offset(const Type *t, int k) {
  size_t off = 0;
  for (int i = 0; i <= k; i++) {
    size_t a = ty_align(t->items[i]);
    off = (off + a - 1) / a * a;
    if (i < k)
      off += ty_size(t->items[i]);
  }
  return off;
}

bool ty_has_array(const Type *t) {
  if (t->kind == TY_ARRAY)
    return true;
  if (t->kind == TY_STRUCT)
    for (int i = 0; i < t->n; i++)
      if (ty_has_array(t->items[i]))
        return true;
  return false;
}

bool ty_has_f64(const Type *t) {
  if (t->kind == TY_STRUCT) {
    for (int i = 0; i < t->n; i++)
      if (ty_has_f64(t->items[i]))
        return true;
    return false;
  }
  if (t->kind == TY_ARRAY)
    return ty_has_f64(t->elem);
  return (t->kind == TY_SCALAR || t->kind == TY_VEC || t->kind == TY_MAT) &&
         t->sc == KERN_SCALAR_FLOAT64;
}
