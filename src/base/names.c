/*
 * names.c -- string-keyed hash tables in the compilation's arena.
 *
 * Every name the front end looks up (functions, kernels, constants, the
 * locals of a function) used to be found by walking a list, which made a
 * module of n kernels cost n^2 string comparisons (issue #8, item 12: 40,000
 * small kernels took 24 s).  A table here is open addressing with linear
 * probing, kept at most half full and doubled when it fills, so a lookup is
 * O(1) expected and the whole compile stays linear in the module's size.
 * The tables live in the arena like everything else the compiler allocates,
 * so they need no freeing and an allocation failure longjmps out.
 */
#include <string.h>
#include "base.h"

/* FNV-1a: short names, no adversarial worst case worth a keyed hash (the
 * names come from one source file the user compiles themselves). */
static uint64_t names_hash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211u;
  }
  return h;
}

void *names_get(const Names *t, const char *key) {
  if (!t->cap)
    return NULL;
  size_t mask = t->cap - 1;
  for (size_t i = (size_t)names_hash(key) & mask;; i = (i + 1) & mask) {
    if (!t->keys[i])
      return NULL;
    if (!strcmp(t->keys[i], key))
      return t->vals[i];
  }
}

static void names_grow(Compiler *C, Names *t) {
  size_t ncap = t->cap ? t->cap * 2 : 16;
  /* tables outlive a kernel's scratch (Note [kernel scratch] in
   * emit/common.c) */
  const char **keys = arena_alloc_keep(C, ncap * sizeof *keys);
  void **vals = arena_alloc_keep(C, ncap * sizeof *vals);
  for (size_t j = 0; j < t->cap; j++) {
    if (!t->keys[j])
      continue;
    size_t i = (size_t)names_hash(t->keys[j]) & (ncap - 1);
    while (keys[i])
      i = (i + 1) & (ncap - 1);
    keys[i] = t->keys[j];
    vals[i] = t->vals[j];
  }
  t->keys = keys;
  t->vals = vals;
  t->cap = ncap;
}

void names_put(Compiler *C, Names *t, const char *key, void *val) {
  if (2 * (t->count + 1) > t->cap)
    names_grow(C, t);
  size_t mask = t->cap - 1;
  size_t i = (size_t)names_hash(key) & mask;
  while (t->keys[i] && strcmp(t->keys[i], key))
    i = (i + 1) & mask;
  if (!t->keys[i])
    t->count++;
  t->keys[i] = key;
  t->vals[i] = val;
}
