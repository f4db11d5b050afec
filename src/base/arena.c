/*
 * arena.c -- one arena per compilation (QBE's alloc/freeall).
 *
 * Everything the front end, the IR and the emitters allocate lives here and
 * is freed in one call when the compilation ends, normally or by longjmp on
 * the first error.  Allocation failure longjmps out as well, so no caller
 * checks for NULL.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base.h"
#include "common.h"

struct ArenaBlock {
  struct ArenaBlock *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
};

void *arena_alloc(Compiler *C, size_t n) {
  n = (n + 15) & ~(size_t)15;
  struct ArenaBlock *b = C->arena.head;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    b = kern__malloc(sizeof *b + cap);
    if (!b)
      diag_oom(C);
    b->used = 0;
    b->cap = cap;
    b->next = C->arena.head;
    C->arena.head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(Compiler *C, const char *s, size_t n) {
  char *p = arena_alloc(C, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

static char *arena_vprintf(Compiler *C, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  char *p = arena_alloc(C, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  return p;
}

char *arena_printf(Compiler *C, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = arena_vprintf(C, fmt, ap);
  va_end(ap);
  return p;
}

void arena_free_all(Arena *a) {
  struct ArenaBlock *b = a->head;
  while (b) {
    struct ArenaBlock *next = b->next;
    kern__free(b);
    b = next;
  }
  a->head = NULL;
}

void buf_init(Buf *b, Compiler *C) {
  b->C = C;
  b->p = NULL;
  b->len = b->cap = 0;
}

void buf_putn(Buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 1024;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *p = arena_alloc(b->C, cap);
    if (b->len)
      memcpy(p, b->p, b->len);
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_putn(b, s, strlen(s)); }

void buf_printf(Buf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < (int)sizeof tmp) {
    buf_putn(b, tmp, (size_t)n);
    return;
  }
  va_start(ap, fmt);
  char *p = arena_vprintf(b->C, fmt, ap);
  va_end(ap);
  buf_putn(b, p, (size_t)n);
}
