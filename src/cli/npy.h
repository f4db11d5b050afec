/*
 * npy.h -- reading and writing NumPy .npy files.
 *
 * Used by the kern tool (to load and save arrays) and by tests/npycmp.c,
 * which must build without the kern library.  So this component calls no
 * kern_ function: it borrows only the kern_scalar enum from kern.h, which is
 * a plain type, and keeps its own table of element sizes.
 *
 * Exports:
 *   npy_array              an array in host memory, C order
 *   npy_read, npy_write    whole-file load and store; errors into a buffer
 *   npy_write_stream       the same bytes into an open file
 *   npy_free               releases what npy_read allocated
 *   npy_scalar_size        bytes of one scalar of a dtype
 *   npy_dtype_name         NumPy's name ("float32") of a dtype
 *   npy_dtype_descr        the .npy descr ("<f4") of a dtype
 */
#ifndef KERN_TOOLS_NPY_H
#define KERN_TOOLS_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kern.h"

/* NumPy allows 64 dimensions; a kern array of vectors or matrices needs at
 * most KERN_MAX_DIMS + 2.  Files with more are refused with a message. */
#define NPY_MAX_DIMS 16

/* One scalar (or sub-array of scalars) leaf of a structured dtype, such as
 * Warp's MyStruct.numpy_dtype(): nested fields are named with dots
 * ("inner.v"), padding is left out. */
typedef struct npy_field {
  char name[96];
  size_t offset;                /* bytes from the start of a record */
  kern_scalar dtype;
  int count;                    /* scalars: the product of its shape */
} npy_field;

typedef struct npy_array {
  kern_scalar dtype;
  int ndim;                     /* 0 for a NumPy scalar */
  int64_t shape[NPY_MAX_DIMS];
  size_t count;                 /* number of scalars: product of shape */
  size_t nbytes;                /* count * npy_scalar_size(dtype) */
  void *data;                   /* malloc'd; never NULL after npy_read */
  /* A structured dtype (a list descr): count is the number of records,
   * each itemsize bytes, nbytes = count * itemsize; dtype is UINT8 and
   * fields[0..nfields) the leaves.  Plain arrays have nfields 0. */
  int nfields;
  npy_field *fields;            /* malloc'd */
  size_t itemsize;
} npy_array;

/* Writes a structured array: descr is the Python literal of the dtype's
 * descr list ("[('x', '<f4'), ('', '|V4')]"), itemsize the record size,
 * shape the record shape.  As npy_write_stream otherwise. */
int npy_write_records(FILE *f, const char *path, const char *descr,
                      size_t itemsize, int ndim, const int64_t *shape,
                      const void *data, char *err, size_t errsize);

/* Reads path into *out.  On failure returns -1 and writes a one-line message
 * that starts with the path into err (always NUL-terminated); *out is left
 * empty.  On success returns 0; free with npy_free. */
int npy_read(const char *path, npy_array *out, char *err, size_t errsize);

/* Writes a C-order array as path, through a unique temporary beside it and
 * a rename (outfile.h), so a reader never sees half a file and no planted
 * link is followed.  Returns 0, or -1 with a message in err. */
int npy_write(const char *path, kern_scalar dtype, int ndim,
              const int64_t *shape, const void *data, char *err,
              size_t errsize);

/* Writes the .npy bytes to f; path is only for messages.  The caller
 * checks fclose as well. */
int npy_write_stream(FILE *f, const char *path, kern_scalar dtype, int ndim,
                     const int64_t *shape, const void *data, char *err,
                     size_t errsize);

void npy_free(npy_array *a);

size_t npy_scalar_size(kern_scalar s);
const char *npy_dtype_name(kern_scalar s);
const char *npy_dtype_descr(kern_scalar s);

#endif /* KERN_TOOLS_NPY_H */
