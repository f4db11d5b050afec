/*
 * spec.h -- the argument language of `kern run`, and printing arrays.
 *
 * Each kernel parameter is given on the command line as NAME=SPEC.  A value
 * parameter's SPEC is a number, true/false, or comma-separated components;
 * an array parameter's SPEC is a generator such as zeros(float32,16) or a
 * .npy path.  This file turns a SPEC into host bytes checked against the
 * parameter's type, and prints downloaded arrays the way NumPy does.
 *
 * Exports:
 *   spec_array          a host buffer with the shape and type of an array
 *   spec_parse_value    SPEC of a value parameter -> bytes of its type
 *   spec_parse_array    SPEC of an array parameter -> spec_array
 *   spec_array_free
 *   spec_parse_dims     "N[,M...]" of --dim
 *   spec_print_array    NumPy-style text of an array
 *   spec_describe       "array of vec3, 2-d" for messages
 */
#ifndef KERN_TOOLS_SPEC_H
#define KERN_TOOLS_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kern.h"

typedef struct spec_array {
  kern_type type;               /* element type: the parameter's type */
  int ndim;                     /* the parameter's ndim */
  int64_t shape[KERN_MAX_DIMS];
  void *data;                   /* malloc'd, nbytes long (never NULL) */
  size_t nbytes;
} spec_array;

/* Every parser below returns 0 on success, or -1 with a one-line message
 * in err that names the parameter, meant to follow "kern: error: ". */

/* out must hold kern_type_size(p->type) bytes. */
int spec_parse_value(const kern_param_info *p, const char *text, void *out,
                     char *err, size_t errsize);

int spec_parse_array(const kern_param_info *p, const char *text,
                     spec_array *out, char *err, size_t errsize);
void spec_array_free(spec_array *a);

/* Parses "N[,M...]", 1 to max positive integers, into dims. */
int spec_parse_dims(const char *text, int64_t *dims, int max, int *ndim,
                    char *err, size_t errsize);

/* Writes "prefix[values]\n" with continuation lines indented under the
 * first bracket.  shape is the array's shape; vector and matrix elements add
 * trailing axes, as in NumPy.  Beyond 1000 scalars each long axis shows its
 * first and last 3 entries around "...". */
void spec_print_array(FILE *f, const char *prefix, kern_type type, int ndim,
                      const int64_t *shape, const void *data);

/* "float32", "array of vec3", "2-d array of float32" into buf; returns buf. */
char *spec_describe(const kern_param_info *p, char *buf, size_t size);

/* ---------------------------------------------------------------- indexed
 * spec_indexed.c: wp.indexedarray parameters, indexed(DATA[;IDX...]). */
typedef struct spec_indexed {
  int has[KERN_MAX_DIMS];          /* dimension k has an index array */
  spec_array idx[KERN_MAX_DIMS];   /* 1-d int32 */
} spec_indexed;
/* The data array into *data (the parameter's type and dimensions) and
 * the index arrays into *out. */
int spec_parse_indexed(const kern_param_info *p, const char *text,
                       spec_array *data, spec_indexed *out, char *err,
                       size_t errsize);
void spec_indexed_free(spec_indexed *s);

/* ---------------------------------------------------------------- structs
 * spec_struct.c: @wp.struct parameters (a value or an array of structs);
 * the grammar is at the top of that file. */

typedef struct spec_struct {
  const char *name;          /* the struct's name (owned by the module) */
  size_t size;               /* bytes of one value */
  int nfields;
  kern_field_info *fields;   /* depth first, from kern_kernel_param_field */
} spec_struct;

/* The array fields a struct value's SPEC gave: run.c makes each device
 * array and writes its descriptor at offset. */
#define SPEC_MAX_STRUCT_ARRAYS 16
typedef struct spec_struct_arrays {
  int n;
  char names[SPEC_MAX_STRUCT_ARRAYS][128]; /* "s.arr" */
  size_t offset[SPEC_MAX_STRUCT_ARRAYS];
  spec_array hosts[SPEC_MAX_STRUCT_ARRAYS];
  /* an indexedarray field: hosts[j] is its data, ix[j] its index arrays */
  int is_indexed[SPEC_MAX_STRUCT_ARRAYS];
  spec_indexed ix[SPEC_MAX_STRUCT_ARRAYS];
} spec_struct_arrays;

int spec_struct_get(kern_kernel *k, int param, const kern_param_info *p,
                    spec_struct *out, char *err, size_t errsize);
void spec_struct_free(spec_struct *s);
/* {field=value,...} into out (s->size bytes); array fields go to arrays
 * (NULL refuses them). */
int spec_parse_struct(const kern_param_info *p, const spec_struct *s,
                      const char *text, void *out,
                      spec_struct_arrays *arrays, char *err, size_t errsize);
int spec_parse_struct_array(const kern_param_info *p, const spec_struct *s,
                            const char *text, spec_array *out, char *err,
                            size_t errsize);
/* The .npy descr list of the struct (malloc'd), NumPy's packed form. */
char *spec_struct_descr(const spec_struct *s);
void spec_print_struct_array(FILE *f, const char *prefix,
                             const spec_struct *s, const spec_array *a);

/* Scalars as the generators store them (spec.c): an integer (wrapping,
 * bool as != 0), a rand() draw advancing *state, and short text. */
void spec_store_int(kern_scalar s, void *p, uint64_t v);
void spec_store_random(kern_scalar s, void *p, uint64_t *state);
void spec_format_scalar(kern_scalar s, const void *p, char *buf,
                        size_t size);

/* ---------------------------------------------------------------- generic
 * spec_generic.c: the type a SPEC gives a generic kernel's typing.Any
 * parameter when kern run instantiates it (Note [launch instantiation]):
 * a .npy file, a typed value (wp.vec3(1,2,3), float64(2.5)), a struct
 * value S{...} or an array of structs zeros(S,N..).  Returns 1 with t's
 * kind, type and ndim set (and t->struct_name pointing at name, which the
 * call fills), 0 when the SPEC does not tell the type, -1 when its file
 * cannot be read; why then says what to write instead. */
int spec_generic_type(const char *text, kern_param_info *t, char *name,
                      size_t namesize, char *why, size_t whysize);

#endif /* KERN_TOOLS_SPEC_H */
