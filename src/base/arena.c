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

static void *alloc_in(Compiler *C, Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  struct ArenaBlock *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t min = a->block ? a->block : 65536;
    if (a->block && a->block < 65536)
      a->block *= 2;
    size_t cap = n > min ? n : min;
    if (C->spare && C->spare->cap >= n && n <= 65536) {
      b = C->spare; /* Note [spare blocks] */
      C->spare = b->next;
      cap = b->cap;
    } else {
      b = kern__malloc(sizeof *b + cap);
    }
    if (!b)
      diag_oom(C);
    b->used = 0;
    b->cap = cap;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

/* Where arena_alloc allocates now. */
static Arena *cur(Compiler *C) {
  return C->scratching ? &C->scratch : &C->arena;
}

void *arena_alloc_raw(Compiler *C, size_t n) {
  return alloc_in(C, cur(C), n);
}

void *arena_alloc_keep(Compiler *C, size_t n) {
  void *p = alloc_in(C, &C->arena, n);
  memset(p, 0, (n + 15) & ~(size_t)15);
  return p;
}

char *arena_strdup_keep(Compiler *C, const char *s) {
  size_t n = strlen(s);
  char *p = alloc_in(C, &C->arena, n + 1);
  memcpy(p, s, n + 1);
  return p;
}

void *arena_alloc_node(Compiler *C, size_t n) {
  void *p = alloc_in(C, C->tree ? C->tree : &C->nodes, n);
  memset(p, 0, (n + 15) & ~(size_t)15);
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
 * vsnprintf does the whole format.  The expansion writes straight into
 * the buffer: most pieces are a few bytes, so it copies them a byte at a
 * time, having made room for a run of them at once, and calls strlen and
 * memcpy only for long strings (kern synth round three: the first
 * version, strchr, strlen and a call per piece, was still a sixth of the
 * compile). */

/* Makes room for n more bytes and a NUL after b->len.  b->p may be the
 * caller's own first storage (arena_vprintf's): growing moves it into the
 * arena. */
/* Note [buffer growth]: a Buf's old storage stays in the arena until the
 * compilation ends, so doubling leaves about as much dead copy behind as
 * the text itself, and every Buf started at 1 KB.  The emitters make a
 * Buf for every expression and index they format, so a 5-line kernel
 * cost 4 KB of 1 KB buffers, and the module's text, copied as it grew,
 * 3 more times its size (issue #23, item 9: 28 KB a kernel in all).  A
 * Buf now starts at 64 bytes; past 64 KB its storage is a block of its
 * own, which growing reallocates in place of a copy (arena_grow). */
#define BUF_BIG 65536

/* Resizes p, a block of its own in C's arena of old_cap bytes, to cap
 * bytes; or, where p is not such a block, allocates cap bytes and copies
 * len of them. */
static void *arena_grow(Compiler *C, Arena *a, void *p, size_t old_cap,
                        size_t len, size_t cap) {
  if (p && old_cap > BUF_BIG) {
    for (struct ArenaBlock **pb = &a->head; *pb; pb = &(*pb)->next) {
      struct ArenaBlock *b = *pb;
      if ((void *)b->data != p)
        continue;
      struct ArenaBlock *nb = kern__realloc(b, sizeof *b + cap);
      if (!nb)
        diag_oom(C);
      nb->cap = nb->used = cap;
      *pb = nb;
      return nb->data;
    }
  }
  void *q = alloc_in(C, a, cap);
  if (len)
    memcpy(q, p, len);
  return q;
}

/* The arena b grows in. */
static Arena *buf_arena(Buf *b) {
  return b->keep ? &b->C->arena : cur(b->C);
}

static void buf_reserve(Buf *b, size_t n) {
  if (b->len + n + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap * 2 : 64;
  while (cap < b->len + n + 1)
    cap *= 2;
  /* a dedicated block (arena_alloc_raw gives one past 64 KB) */
  if (cap > BUF_BIG && cap < 2 * BUF_BIG)
    cap = 2 * BUF_BIG;
  b->p = arena_grow(b->C, buf_arena(b), b->p, b->cap, b->len, cap);
  b->cap = cap;
}

/* Appends the literal text at p up to its first '%' or NUL, which it
 * returns. */
static const char *put_literal(Buf *b, const char *p) {
  for (;;) {
    if (b->cap - b->len < 18)
      buf_reserve(b, 17);
    char *d = b->p + b->len;
    for (int i = 0; i < 16; i++) {
      char c = p[i];
      if (c == '%' || c == 0) {
        b->len += (size_t)i;
        return p + i;
      }
      d[i] = c;
    }
    b->len += 16;
    p += 16;
  }
}

/* Appends the string s. */
static void put_string(Buf *b, const char *s) {
  if (b->cap - b->len > 33) {
    char *d = b->p + b->len;
    for (int i = 0; i < 32; i++) {
      if (s[i] == 0) {
        b->len += (size_t)i;
        return;
      }
      d[i] = s[i];
    }
    b->len += 32;
    s += 32;
  }
  size_t n = strlen(s);
  buf_reserve(b, n);
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

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

/* Appends a simple format's expansion to b, without the NUL; returns
 * false, having stopped, at the first conversion that is not simple (the
 * caller then starts again with vsnprintf, on its own copy of the
 * arguments). */
static bool simple_expand(Buf *b, const char *fmt, va_list ap) {
  for (const char *p = fmt;;) {
    p = put_literal(b, p);
    if (*p == 0)
      return true;
    p++;
    char t[24];
    int k;
    switch (*p) {
    case 's': {
      const char *s = va_arg(ap, const char *);
      put_string(b, s ? s : "(null)");
      p++;
      continue;
    }
    case 'd': {
      int v = va_arg(ap, int);
      k = simple_digits(t, v < 0 ? 0ull - (unsigned long long)(long long)v
                                 : (unsigned long long)v, v < 0);
      break;
    }
    case 'l':
      if (p[1] != 'l' || (p[2] != 'd' && p[2] != 'u'))
        return false;
      p += 2;
      if (*p == 'd') {
        long long v = va_arg(ap, long long);
        k = simple_digits(t, v < 0 ? 0ull - (unsigned long long)v
                                   : (unsigned long long)v, v < 0);
      } else {
        k = simple_digits(t, va_arg(ap, unsigned long long), false);
      }
      break;
    case 'c':
      t[23] = (char)va_arg(ap, int);
      k = 23;
      break;
    case '%':
      t[23] = '%';
      k = 23;
      break;
    default:
      return false;
    }
    buf_reserve(b, 24);
    memcpy(b->p + b->len, t + k, (size_t)(24 - k));
    b->len += (size_t)(24 - k);
    p++;
  }
}

static char *arena_vprintf(Compiler *C, const char *fmt, va_list ap) {
  /* Most results are short: they are built on the stack and copied into
   * the arena at their exact size; a long one moves into the arena as it
   * grows and stays where it is. */
  char tmp[256];
  Buf b = {C, tmp, 0, sizeof tmp, false};
  va_list ap2;
  va_copy(ap2, ap);
  bool simple = simple_expand(&b, fmt, ap2);
  va_end(ap2);
  if (simple) {
    if (b.p != tmp) {
      b.p[b.len] = 0;
      return b.p;
    }
    char *p = arena_alloc_raw(C, b.len + 1);
    memcpy(p, tmp, b.len);
    p[b.len] = 0;
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

void arena_free_tokens(Arena *a) {
  kern__free(a->tokens);
  a->tokens = NULL;
}

void arena_free_all(Arena *a) {
  arena_free_tokens(a);
  struct ArenaBlock *b = a->head;
  while (b) {
    struct ArenaBlock *next = b->next;
    kern__free(b);
    b = next;
  }
  a->head = NULL;
}

/* Note [spare blocks]: what a compilation frees before its end (each
 * kernel's syntax tree once it is checked, each kernel's emission
 * scratch, the functions' trees after lowering) is a few KB at a time in
 * blocks of 4 to 64 KB, while the IR and the text grow in 64 KB blocks:
 * given back to malloc, the small blocks stayed in the heap as holes the
 * later blocks did not fit, as resident as before (issue #23, item 9).
 * They are kept on C->spare instead, and a new block of any arena is the
 * first spare when the request fits it.  A spare block smaller than 64 KB
 * only means a block that fills sooner.  Under AddressSanitizer they are
 * freed, so that a pointer kept into freed memory is still reported. */
void arena_recycle(Compiler *C, Arena *a) {
#if defined(__SANITIZE_ADDRESS__)
  (void)C;
  arena_free_all(a);
#else
  arena_free_tokens(a);
  struct ArenaBlock *b = a->head;
  while (b) {
    struct ArenaBlock *next = b->next;
    if (b->cap <= 65536) {
      b->next = C->spare;
      C->spare = b;
    } else {
      kern__free(b);
    }
    b = next;
  }
  a->head = NULL;
#endif
}

void arena_free_spares(Compiler *C) {
  struct ArenaBlock *b = C->spare;
  while (b) {
    struct ArenaBlock *next = b->next;
    kern__free(b);
    b = next;
  }
  C->spare = NULL;
}

void compiler_free_memory(Compiler *C) {
  for (Arena *t = C->trees; t; t = t->next)
    arena_free_all(t);
  C->trees = NULL;
  arena_free_all(&C->arena);
  arena_free_all(&C->scratch);
  arena_free_all(&C->nodes);
  arena_free_spares(C);
}

void buf_reserve_total(Buf *b, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->len + n + 1;
    b->p = arena_grow(b->C, buf_arena(b), b->p, b->cap, b->len, cap);
    b->cap = cap;
  }
}

/* Note [text once]: a module's text is the largest thing a compilation
 * makes (2.4 KB a kernel of CUDA for a two-line kernel), and it used to
 * exist three times at the end: the emitters' buffer of functions and
 * kernels, the module assembled behind its prelude, and the copy
 * kern__compile handed over (issue #23, item 9).  Now the prelude is put
 * in front of the emitters' buffer in place (buf_prepend: past 64 KB the
 * buffer is a block of its own, which grows by realloc) and that block
 * leaves the arena as the result (arena_take), so the text exists once. */
void buf_prepend(Buf *b, const char *s, size_t n) {
  if (n == 0)
    return;
  buf_reserve_total(b, n);
  memmove(b->p + n, b->p, b->len);
  memcpy(b->p, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

char *arena_take(Compiler *C, char *p, size_t n) {
  for (struct ArenaBlock **pb = &C->arena.head; p && *pb; pb = &(*pb)->next) {
    struct ArenaBlock *b = *pb;
    if ((void *)b->data != p || b->cap <= BUF_BIG)
      continue;
    *pb = b->next;
    memmove(b, b->data, n);
    ((char *)b)[n] = 0;
    char *q = kern__realloc(b, n + 1);
    return q ? q : (char *)b; /* a shrink that failed keeps the block */
  }
  char *q = kern__malloc(n + 1);
  if (q) {
    if (n)
      memcpy(q, p, n);
    q[n] = 0;
  }
  return q;
}

void buf_init(Buf *b, Compiler *C) {
  b->C = C;
  b->p = NULL;
  b->len = b->cap = 0;
  b->keep = false;
}

void buf_putn(Buf *b, const char *s, size_t n) {
  buf_reserve(b, n);
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

void buf_puts(Buf *b, const char *s) {
  put_string(b, s);
  b->p[b->len] = 0;
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  /* Straight into the buffer; a format that is not simple is undone and
   * formatted again by vsnprintf. */
  size_t len = b->len;
  va_list ap2;
  va_copy(ap2, ap);
  bool simple = simple_expand(b, fmt, ap2);
  va_end(ap2);
  if (simple) {
    b->p[b->len] = 0;
    return;
  }
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
