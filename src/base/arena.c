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

void *arena_alloc_raw(Compiler *C, size_t n) {
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
  return p;
}

void *arena_alloc(Compiler *C, size_t n) {
  void *p = arena_alloc_raw(C, n);
  memset(p, 0, (n + 15) & ~(size_t)15);
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
 * whose only conversions are %s, %d, %c, %lld, %llu and %% is expanded
 * here by hand, in one pass, which gives the same bytes as printf; at any
 * other conversion (widths, precisions, floats) the expansion stops and
 * vsnprintf does the whole format. */

/* The digits of u (with a '-' when neg), right-aligned in t[0, 24);
 * returns the index of the first. */
static int simple_digits(char t[24], unsigned long long u, bool neg) {
  int k = 24;
  do
    t[--k] = (char)('0' + u % 10);
  while (u /= 10);
  if (neg)
    t[--k] = '-';
  return k;
}

/* Calls put(ctx, piece, len) for each piece of a simple format's
 * expansion; returns false, having stopped, at the first conversion that
 * is not simple (the caller then starts again with vsnprintf, on its own
 * copy of the arguments). */
static bool simple_expand(const char *fmt, va_list ap,
                          void (*put)(void *, const char *, size_t), void *ctx) {
  for (const char *p = fmt;;) {
    const char *q = strchr(p, '%');
    if (!q) {
      if (*p)
        put(ctx, p, strlen(p));
      return true;
    }
    if (q > p)
      put(ctx, p, (size_t)(q - p));
    q++;
    char t[24];
    int k;
    switch (*q) {
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s)
        s = "(null)";
      put(ctx, s, strlen(s));
      break;
    }
    case 'd': {
      int v = va_arg(ap, int);
      k = simple_digits(t, v < 0 ? 0ull - (unsigned long long)(long long)v
                                 : (unsigned long long)v, v < 0);
      put(ctx, t + k, (size_t)(24 - k));
      break;
    }
    case 'l':
      if (q[1] != 'l' || (q[2] != 'd' && q[2] != 'u'))
        return false;
      q += 2;
      if (*q == 'd') {
        long long v = va_arg(ap, long long);
        k = simple_digits(t, v < 0 ? 0ull - (unsigned long long)v
                                   : (unsigned long long)v, v < 0);
      } else {
        k = simple_digits(t, va_arg(ap, unsigned long long), false);
      }
      put(ctx, t + k, (size_t)(24 - k));
      break;
    case 'c':
      t[0] = (char)va_arg(ap, int);
      put(ctx, t, 1);
      break;
    case '%':
      put(ctx, "%", 1);
      break;
    default:
      return false;
    }
    p = q + 1;
  }
}

/* A bounded output, as snprintf's: n counts every byte, stored or not. */
typedef struct Bounded {
  char *out;
  size_t cap, n;
} Bounded;

static void put_bounded(void *ctx, const char *s, size_t len) {
  Bounded *o = ctx;
  if (o->n < o->cap)
    memcpy(o->out + o->n, s, o->n + len < o->cap ? len : o->cap - o->n);
  o->n += len;
}

static void put_buf(void *ctx, const char *s, size_t len) {
  buf_putn(ctx, s, len);
}

static char *arena_vprintf(Compiler *C, const char *fmt, va_list ap) {
  char tmp[256];
  Bounded o = {tmp, sizeof tmp, 0};
  va_list ap2;
  va_copy(ap2, ap);
  bool simple = simple_expand(fmt, ap2, put_bounded, &o);
  va_end(ap2);
  if (simple) {
    char *p = arena_alloc_raw(C, o.n + 1);
    if (o.n < sizeof tmp) {
      memcpy(p, tmp, o.n);
    } else {
      Bounded all = {p, o.n + 1, 0};
      simple_expand(fmt, ap, put_bounded, &all);
    }
    p[o.n] = 0;
    return p;
  }
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
    char *p = arena_alloc_raw(b->C, cap);
    if (b->len)
      memcpy(p, b->p, b->len);
    b->p = p;
    b->cap = cap;
  }
  char *d = b->p + b->len;
  if (n <= 16) { /* most pieces are a few bytes: no call */
    for (size_t i = 0; i < n; i++)
      d[i] = s[i];
  } else {
    memcpy(d, s, n);
  }
  b->len += n;
  b->p[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_putn(b, s, strlen(s)); }

void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  /* Straight into the buffer; a format that is not simple is undone and
   * formatted again by vsnprintf. */
  size_t len = b->len;
  va_list ap2;
  va_copy(ap2, ap);
  bool simple = simple_expand(fmt, ap2, put_buf, b);
  va_end(ap2);
  if (simple)
    return;
  b->len = len;
  if (b->p)
    b->p[len] = 0;
  char tmp[512];
  va_copy(ap2, ap);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap2);
  va_end(ap2);
  if (n < (int)sizeof tmp) {
    buf_putn(b, tmp, (size_t)n);
    return;
  }
  char *p = arena_vprintf(b->C, fmt, ap);
  buf_putn(b, p, (size_t)n);
}

void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}
