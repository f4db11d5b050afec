/*
 * common.c -- allocation with a failure hook for out-of-memory tests.
 */
#include <stdatomic.h>
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

/* Test hook: the number of blocks from these functions not yet given back
 * to kern__free, so the out-of-memory test (tests/reliability/oom.c) can
 * check that every failure path frees what it allocated, even in a build
 * without LeakSanitizer.  Process-wide and atomic because launches and
 * contexts may allocate on several threads; a relaxed increment costs
 * nothing next to malloc.  Not in common.h (test-only); oom.c declares it. */
long kern__alloc_live(void);
static atomic_long live_blocks;

/* Test hook: non-zero while the failure armed by kern__alloc_fail_after has
 * not happened yet, which is how oom.c knows that N has passed the last
 * allocation and the loop is done. */
long kern__alloc_fail_pending(void);
long kern__alloc_fail_pending(void) { return fail_countdown; }

long kern__alloc_live(void) {
  return atomic_load_explicit(&live_blocks, memory_order_relaxed);
}

static void *counted(void *p) {
  if (p) atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
  return p;
}

void *kern__malloc(size_t n) {
  return should_fail() ? NULL : counted(malloc(n ? n : 1));
}

void *kern__calloc(size_t n, size_t size) {
  return should_fail() ? NULL : counted(calloc(n ? n : 1, size ? size : 1));
}

void *kern__realloc(void *p, size_t n) {
  if (should_fail()) return NULL;
  void *q = realloc(p, n ? n : 1);
  /* Only realloc(NULL, n) makes a new block; resizing keeps the count. */
  return p ? q : counted(q);
}

void kern__free(void *p) {
  if (p) atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
  free(p);
}

char *kern__strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = kern__malloc(n);
  if (p)
    memcpy(p, s, n);
  return p;
}
