/*
 * memo.c -- prelude items of earlier compilations, replayed (Note [helper
 * memo]).
 *
 * Note [helper memo]: every module spells its types and builtin helpers
 * into the prelude the first time it uses them (emit_need, emit_pre), and
 * `kern synth` compiles tens of thousands of small modules that use the
 * same few hundred helpers: regenerating some 30 helper bodies per module
 * was about a tenth of its compile time.  A helper's name spells its
 * builtin and operand types, so its text, and the names it needs, are a
 * function of the name and the target (the compact CUDA form relies on
 * the same fact to share helpers between modules).  This file keeps, per
 * context, each item's text and the names its generation asked for, and
 * emit_need replays an item it finds instead of letting the caller build
 * it again: the item's name is registered, each needed name that the
 * module lacks is replayed first (in the order the generation asked for
 * them), then the text is appended, which is exactly what generating it
 * would have done.
 *
 * What is recorded is watched rather than trusted: an item is stored only
 * if its generation opened with emit_need, closed with one emit_pre of
 * the same name while no other item was open above it, appended nothing
 * else to the prelude, and every name it needed is itself stored.  Names
 * that are not a function of themselves are never stored: a @wp.struct's
 * type is named after the Python class, and two modules may have classes
 * of one name with other fields, so anything that spells a struct (a
 * capital S, which no other signature has, or a call of emit_tysig on a
 * struct while the item is open) is left out (emit_memo_open); so was
 * k_q4f32 while the CUDA vector loop's 16-byte group of four floats had
 * the quaternion type's name (now k_g4f32: tests/emit/test_memo.c found
 * the clash); debug mode, whose helpers number the module's own arrays,
 * records nothing.
 *
 * The cache belongs to a kern_context (calls on one context never
 * overlap, include/kern.h) and grows to a bound, then stops adding; it is
 * freed with the context.  A failed allocation only means an item is not
 * stored.
 */
#include <string.h>
#include "common.h"
#include "emit.h"

enum { MEMO_MAX_ITEMS = 8192, MEMO_MAX_BYTES = 8 << 20 };

typedef struct MemoItem {
  const Target *T;
  int flags;
  uint64_t hash;
  const char *name;
  const char *text;
  size_t len;
  int ndeps;
  struct MemoItem **deps;
} MemoItem;

struct kc_memo {
  MemoItem **slots; /* open addressing, at most half full */
  size_t cap, count, bytes;
};

/* One item being generated in this compilation (arena). */
typedef struct MemoRec {
  const char *name;
  size_t off, len; /* its text in E->pre, once closed */
  const char **deps;
  int ndeps, capdeps;
  bool bad;
  struct MemoRec *up;   /* the record open below this one */
  struct MemoRec *next; /* closed records, in the order they closed */
} MemoRec;

struct EmitMemo {
  kc_memo *cache;
  int flags;
  MemoRec *top, *first, *last;
  Names closed; /* name -> its closed record */
};

static uint64_t memo_hash(const Target *T, int flags, const char *s) {
  uint64_t h = 1469598103934665603u ^ (uint64_t)(uintptr_t)T ^ (uint64_t)flags;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

kc_memo *emit_memo_new(void) { return kern__calloc(1, sizeof(kc_memo)); }

void emit_memo_free(kc_memo *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->cap; i++)
    kern__free(m->slots[i]);
  kern__free(m->slots);
  kern__free(m);
}

static MemoItem *memo_find(const kc_memo *m, const Target *T, int flags,
                           const char *name) {
  if (!m->cap)
    return NULL;
  uint64_t h = memo_hash(T, flags, name);
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)h & mask; m->slots[i]; i = (i + 1) & mask) {
    MemoItem *it = m->slots[i];
    if (it->hash == h && it->T == T && it->flags == flags &&
        !strcmp(it->name, name))
      return it;
  }
  return NULL;
}

static bool memo_insert(kc_memo *m, MemoItem *it) {
  if (2 * (m->count + 1) > m->cap) {
    size_t ncap = m->cap ? m->cap * 2 : 256;
    MemoItem **s = kern__calloc(ncap, sizeof *s);
    if (!s)
      return false;
    for (size_t j = 0; j < m->cap; j++) {
      if (!m->slots[j])
        continue;
      size_t i = (size_t)m->slots[j]->hash & (ncap - 1);
      while (s[i])
        i = (i + 1) & (ncap - 1);
      s[i] = m->slots[j];
    }
    kern__free(m->slots);
    m->slots = s;
    m->cap = ncap;
  }
  size_t i = (size_t)it->hash & (m->cap - 1);
  while (m->slots[i])
    i = (i + 1) & (m->cap - 1);
  m->slots[i] = it;
  m->count++;
  m->bytes += it->len;
  return true;
}

void emit_memo_begin(Emit *E, kc_memo *cache) {
  E->memo = NULL;
  if (!cache || (E->opts && E->opts->debug))
    return;
  EmitMemo *M = arena_alloc(E->C, sizeof *M);
  M->cache = cache;
  M->flags = E->opts && E->opts->line_directives ? 1 : 0;
  E->memo = M;
}

/* Every open record may depend on what the emitter is looking at now, so
 * none of them is stored. */
void emit_memo_taint(Emit *E) {
  if (!E->memo)
    return;
  for (MemoRec *r = E->memo->top; r; r = r->up)
    r->bad = true;
}

/* Registers name as present, as emit_need does for a new name. */
static void memo_have(Emit *E, const char *name) {
  names_put(E->C, &E->haveset, name, (void *)name);
  if (E->nhave == E->caphave) {
    int cap = E->caphave ? E->caphave * 2 : 64;
    /* kept past a kernel's scratch (Note [kernel scratch] in common.c) */
    const char **h = arena_alloc_keep(E->C, sizeof(char *) * (size_t)cap);
    if (E->nhave)
      memcpy(h, E->have, sizeof(char *) * (size_t)E->nhave);
    E->have = h;
    E->caphave = cap;
  }
  E->have[E->nhave++] = name;
}

static void memo_play(Emit *E, const MemoItem *it) {
  memo_have(E, it->name);
  for (int i = 0; i < it->ndeps; i++)
    if (!names_get(&E->haveset, it->deps[i]->name))
      memo_play(E, it->deps[i]);
  buf_putn(&E->pre, it->text, it->len);
}

bool emit_memo_replay(Emit *E, const char *name) {
  EmitMemo *M = E->memo;
  MemoItem *it = memo_find(M->cache, E->T, M->flags, name);
  if (!it)
    return false;
  memo_play(E, it);
  return true;
}

/* name was asked for while the top record was open: that record needs it. */
void emit_memo_dep(Emit *E, const char *name) {
  MemoRec *r = E->memo->top;
  if (!r)
    return;
  if (r->ndeps == r->capdeps) {
    int cap = r->capdeps ? r->capdeps * 2 : 8;
    const char **d = arena_alloc_keep(E->C, sizeof(char *) * (size_t)cap);
    if (r->ndeps)
      memcpy(d, r->deps, sizeof(char *) * (size_t)r->ndeps);
    r->deps = d;
    r->capdeps = cap;
  }
  r->deps[r->ndeps++] = name;
}

void emit_memo_open(Emit *E, const char *name) {
  EmitMemo *M = E->memo;
  /* kept past a kernel's scratch (Note [kernel scratch] in common.c);
   * emit_need gave a kept name */
  MemoRec *r = arena_alloc_keep(E->C, sizeof *r);
  r->name = name;
  /* A struct's name (see the Note). */
  r->bad = strchr(name, 'S') != NULL;
  r->up = M->top;
  M->top = r;
}

/* emit_pre appended pre[off, E->pre.len) for name. */
void emit_memo_pre(Emit *E, const char *name, size_t off) {
  EmitMemo *M = E->memo;
  MemoRec *done = names_get(&M->closed, name);
  if (done) {
    done->bad = true; /* a second piece of text: not one item */
    emit_memo_taint(E);
    return;
  }
  MemoRec *r = M->top;
  while (r && strcmp(r->name, name))
    r = r->up;
  if (!r) {
    /* text that belongs to no record: whatever is open would miss it */
    emit_memo_taint(E);
    return;
  }
  /* Records above r never got their text (a name asked for only to mark
   * it); r needs them, so r is not stored either. */
  if (r != M->top)
    r->bad = true;
  M->top = r->up;
  r->off = off;
  r->len = E->pre.len - off;
  names_put(E->C, &M->closed, r->name, r);
  if (M->last)
    M->last->next = r;
  else
    M->first = r;
  M->last = r;
}

/* Stores the module's good records; they closed after the items they
 * need, so those are found in the cache by then. */
void emit_memo_end(Emit *E) {
  EmitMemo *M = E->memo;
  if (!M)
    return;
  E->memo = NULL;
  kc_memo *m = M->cache;
  for (MemoRec *r = M->first; r; r = r->next) {
    if (r->bad || m->count >= MEMO_MAX_ITEMS || m->bytes >= MEMO_MAX_BYTES)
      continue;
    if (memo_find(m, E->T, M->flags, r->name))
      continue;
    MemoItem *deps[64];
    if (r->ndeps > 64)
      continue;
    int i;
    for (i = 0; i < r->ndeps; i++)
      if (!(deps[i] = memo_find(m, E->T, M->flags, r->deps[i])))
        break;
    if (i < r->ndeps)
      continue;
    size_t nl = strlen(r->name) + 1;
    size_t dsz = sizeof(MemoItem *) * (size_t)r->ndeps;
    /* one block: the item, its deps, its name, its text */
    MemoItem *it = kern__malloc(sizeof *it + dsz + nl + r->len + 1);
    if (!it)
      return;
    it->T = E->T;
    it->flags = M->flags;
    it->hash = memo_hash(E->T, M->flags, r->name);
    it->ndeps = r->ndeps;
    it->deps = (MemoItem **)(it + 1);
    memcpy(it->deps, deps, dsz);
    char *s = (char *)it->deps + dsz;
    memcpy(s, r->name, nl);
    it->name = s;
    s += nl;
    memcpy(s, E->pre.p + r->off, r->len);
    s[r->len] = 0;
    it->text = s;
    it->len = r->len;
    if (!memo_insert(m, it)) {
      kern__free(it);
      return;
    }
  }
}
