/*
 * common.h -- allocation used by every part of the library.
 *
 * All of kern's heap allocation goes through these four functions so an
 * out-of-memory test can fail the Nth allocation (Lua's ltests.c) and a
 * program embedding kern sees every failure as KERN_ERROR_OUT_OF_MEMORY.
 */
#ifndef KERN_COMMON_H
#define KERN_COMMON_H

#include <stddef.h>
#include "kern.h"

void *kern__malloc(size_t n);
void *kern__calloc(size_t n, size_t size);
void *kern__realloc(void *p, size_t n);
void kern__free(void *p);
char *kern__strdup(const char *s);

/* Test hook: when set to N > 0, the Nth allocation from now fails, and
 * every allocation after it succeeds again.  0 disables it.  Per thread. */
void kern__alloc_fail_after(long n);

/* status.c (on this floor so that types.c, which names types with
 * kern_type_name, never reaches up into the runtime): a kern_type is valid when its kind, scalar and shape make sense
 * (scalars 1x1, vectors rows x 1, matrices rows x cols, at most 64 each). */
int kern__type_valid(kern_type t);
int kern__type_equal(kern_type a, kern_type b);

#endif
