/*
 * handle.c -- the process-wide handle table (Note [handle table]).
 *
 * Note [handle table]
 * The values a caller holds as kern_context *, kern_array *, kern_module *
 * and kern_kernel * are not addresses but handles: a slot index, the slot's
 * generation and the kind of object, packed into a pointer-sized integer.
 * Every public entry point turns its handle into the object through
 * kern__handle_get, which checks all three against the table under a lock
 * before anything is read.  Freeing an object releases its slot and bumps
 * the generation, so every copy of the old handle -- held by the caller, or
 * left over from a context that freed its arrays and modules with it -- is
 * refused with KERN_ERROR_INVALID_HANDLE from then on, whatever order things
 * are freed in, without reading freed memory (valgrind- and ASan-clean).  A
 * garbage value is refused too unless it happens to decode to a live slot.
 * A slot is reused only with a new generation, and a slot whose generation
 * would wrap is retired for good, so an old handle never names a new object.
 *
 * This is the library's one piece of global mutable state (STYLE.md asks
 * for none), and it must be: a freed context cannot hold the table that
 * says it is freed.  It is guarded by one mutex, so contexts in different
 * threads can make and free handles at once; a lookup is a short critical
 * section, cheap next to anything a call then does.  The table only grows
 * (its size is the most handles ever alive at once) and is kept until the
 * process ends; memory checkers see it as still reachable, not leaked.
 *
 * The lock protects the table, not the objects: the header's rule that a
 * context and its handles are used by one thread at a time still applies,
 * so freeing a handle while another thread is inside a call on it remains
 * the caller's race.  Streams, events and graphs (stream.c, graph.c) are
 * kinds of their own and use the same functions.  The launch paths look up
 * several handles under one acquisition of the lock (kern__handle_lock),
 * so an async launch costs one lock round trip for its kernel and stream
 * and one for its array arguments.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "common.h"
#include "runtime.h"

/* Layout of a handle value: index in the low bits, then the kind, then the
 * generation.  On 64-bit targets 28 bits of index (268 million live
 * handles), 4 bits of kind and 32 of generation; on 32-bit targets less of
 * each, which only makes a reused slot retire sooner. */
#if UINTPTR_MAX > 0xffffffffu
#define INDEX_BITS 28
#define GEN_BITS 32
#else
#define INDEX_BITS 16
#define GEN_BITS 12
#endif
#define KIND_BITS 4
#define INDEX_MASK ((((uintptr_t)1) << INDEX_BITS) - 1)
#define KIND_MASK ((((uintptr_t)1) << KIND_BITS) - 1)
#define GEN_MAX ((uint32_t)((((uint64_t)1) << GEN_BITS) - 1))

_Static_assert(KERN__HKIND_COUNT <= (1 << KIND_BITS),
               "handle kinds must fit in KIND_BITS");

typedef struct slot {
  void *obj;         /* the live object, NULL when the slot is free */
  uint32_t gen;      /* current generation, 1..GEN_MAX; 0 = never used */
  uint8_t kind;      /* kern__hkind of the live object */
  uint32_t next;     /* next free slot + 1, 0 = end of list */
} slot;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static slot *table;
static uint32_t table_cap, table_used; /* slots allocated, slots ever used */
static uint32_t free_head;             /* first free slot + 1, 0 = none */

static void *encode(uint32_t index, uint32_t gen, kern__hkind kind) {
  uintptr_t v = (uintptr_t)index | ((uintptr_t)kind << INDEX_BITS) |
                ((uintptr_t)gen << (INDEX_BITS + KIND_BITS));
  return (void *)v;
}

void *kern__handle_new(kern__hkind kind, void *obj) {
  void *h = NULL;
  pthread_mutex_lock(&table_lock);
  uint32_t i;
  if (free_head) {
    i = free_head - 1;
    free_head = table[i].next;
  } else {
    if (table_used == table_cap) {
      uint32_t ncap = table_cap ? table_cap * 2 : 64;
      if (ncap > INDEX_MASK + 1) ncap = (uint32_t)(INDEX_MASK + 1);
      slot *nt = ncap > table_cap
                     ? kern__realloc(table, (size_t)ncap * sizeof *nt)
                     : NULL;
      if (!nt) goto out; /* out of memory, or every index in use */
      table = nt;
      table_cap = ncap;
    }
    i = table_used++;
    table[i].gen = 0;
  }
  table[i].gen++; /* 1 on first use; never past GEN_MAX (see release) */
  table[i].obj = obj;
  table[i].kind = (uint8_t)kind;
  table[i].next = 0;
  h = encode(i, table[i].gen, kind);
out:
  pthread_mutex_unlock(&table_lock);
  return h;
}

/* The slot h names when it is live and of kind `kind`; NULL otherwise.
 * Called with the lock held. */
static slot *lookup(const void *h, kern__hkind kind) {
  uintptr_t v = (uintptr_t)h;
  uint32_t i = (uint32_t)(v & INDEX_MASK);
  uint32_t k = (uint32_t)((v >> INDEX_BITS) & KIND_MASK);
  uint32_t gen = (uint32_t)(v >> (INDEX_BITS + KIND_BITS));
  if (!h || k != (uint32_t)kind || i >= table_used) return NULL;
  slot *s = &table[i];
  if (!s->obj || s->gen != gen || s->kind != (uint8_t)kind) return NULL;
  return s;
}

void *kern__handle_get(const void *h, kern__hkind kind) {
  if (!h) return NULL;
  pthread_mutex_lock(&table_lock);
  slot *s = lookup(h, kind);
  void *obj = s ? s->obj : NULL;
  pthread_mutex_unlock(&table_lock);
  return obj;
}

void kern__handle_release(const void *h, kern__hkind kind) {
  if (!h) return;
  pthread_mutex_lock(&table_lock);
  slot *s = lookup(h, kind);
  if (s) {
    s->obj = NULL;
    /* A slot whose generation is spent is never reused: its next handle
     * would repeat an old one. */
    if (s->gen < GEN_MAX) {
      s->next = free_head;
      free_head = (uint32_t)(s - table) + 1;
    }
  }
  pthread_mutex_unlock(&table_lock);
}

void kern__handle_lock(void) { pthread_mutex_lock(&table_lock); }

void kern__handle_unlock(void) { pthread_mutex_unlock(&table_lock); }

void *kern__handle_get_locked(const void *h, kern__hkind kind) {
  slot *s = h ? lookup(h, kind) : NULL;
  return s ? s->obj : NULL;
}
