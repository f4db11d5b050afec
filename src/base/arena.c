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

/* Note [simple formats]: the emitters format millions of short pieces
 * ("%s(", "((%s)", "k_%s") per second under `kern synth`, and vsnprintf's
 * general machinery was a quarter of kern's compile time there.  A format
 * whose only conversions are %s, %d, %c and %% is expanded here by hand,
 * which gives the same bytes as printf; any other format (widths,
 * precisions, floats, 64-bit lengths) still goes to vsnprintf. */
static bool simple_format(const char *fmt) {
  for (const char *p = fmt; (p = strchr(p, '%')); p += 2)
    if (!p[1] || !strchr("sdc%", p[1]))
      return false;
  return true;
}

/* Expands a simple format into out[0, cap); returns the full length, which
 * may exceed cap - 1 (then out holds a truncated prefix, as snprintf). */
static size_t simple_vformat(char *out, size_t cap, const char *fmt, va_list ap) {
  size_t n = 0;
#define PUT(src, len)                                                         \
  do {                                                                        \
    size_t l_ = (len);                                                        \
    if (n < cap)                                                              \
      memcpy(out + n, (src), n + l_ < cap ? l_ : cap - n);                    \
    n += l_;                                                                  \
  } while (0)
  for (const char *p = fmt; *p;) {
    const char *q = strchr(p, '%');
    if (!q) {
      PUT(p, strlen(p));
      break;
    }
    PUT(p, (size_t)(q - p));
    char t[16];
    switch (q[1]) {
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s)
        s = "(null)";
      PUT(s, strlen(s));
      break;
    }
    case 'd': {
      int v = va_arg(ap, int);
      unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
      int k = (int)sizeof t;
      do
        t[--k] = (char)('0' + u % 10);
      while (u /= 10);
      if (v < 0)
        t[--k] = '-';
      PUT(t + k, sizeof t - (size_t)k);
      break;
    }
    case 'c':
      t[0] = (char)va_arg(ap, int);
      PUT(t, 1);
      break;
    default:
      PUT("%", 1);
      break;
    }
    p = q + 2;
  }
#undef PUT
  if (cap)
    out[n < cap ? n : cap - 1] = 0;
  return n;
}

static char *arena_vprintf(Compiler *C, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  if (simple_format(fmt)) {
    char tmp[256];
    size_t n = simple_vformat(tmp, sizeof tmp, fmt, ap2);
    va_end(ap2);
    char *p = arena_alloc(C, n + 1);
    if (n < sizeof tmp)
      memcpy(p, tmp, n + 1);
    else
      simple_vformat(p, n + 1, fmt, ap);
    return p;
  }
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
  int n;
  if (simple_format(fmt))
    n = (int)simple_vformat(tmp, sizeof tmp, fmt, ap);
  else
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
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
