/*
 * common.c -- allocation with a failure hook for out-of-memory tests.
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"

/* The hook is per thread so concurrent contexts in one process do not see
 * each other's injected failures. */
static _Thread_local long fail_countdown;

static int should_fail(void) {
  if (fail_countdown > 0 && --fail_countdown == 0)
    return 1;
  return 0;
}

void kern__alloc_fail_after(long n) { fail_countdown = n > 0 ? n : 0; }

void *kern__malloc(size_t n) { return should_fail() ? NULL : malloc(n ? n : 1); }

void *kern__calloc(size_t n, size_t size) {
  return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *kern__realloc(void *p, size_t n) {
  return should_fail() ? NULL : realloc(p, n ? n : 1);
}

void kern__free(void *p) { free(p); }

char *kern__strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = kern__malloc(n);
  if (p)
    memcpy(p, s, n);
  return p;
}
