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

typedef struct npy_array {
  kern_scalar dtype;
  int ndim;                     /* 0 for a NumPy scalar */
  int64_t shape[NPY_MAX_DIMS];
  size_t count;                 /* number of scalars: product of shape */
  size_t nbytes;                /* count * npy_scalar_size(dtype) */
  void *data;                   /* malloc'd; never NULL after npy_read */
} npy_array;

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
