/*
 * test.h -- the runtime unit tests' assertions and helpers.
 *
 * ASSERT_* print the expression, both values and file:line, then exit, so a
 * failing CTest run says exactly what went wrong (libuv's ASSERT_EQ).
 * Every test runs with its own KERN_CACHE_DIR under a fresh mkdtemp
 * directory, removed at exit, so tests never share or pollute a cache.
 */
#ifndef KERN_TEST_H
#define KERN_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ftw.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kern.h"

#define ASSERT(e)                                                            \
  do {                                                                       \
    if (!(e)) {                                                              \
      fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__,   \
              #e);                                                           \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

#define ASSERT_EQ(a, b)                                                      \
  do {                                                                       \
    long long a_ = (long long)(a), b_ = (long long)(b);                      \
    if (a_ != b_) {                                                          \
      fprintf(stderr, "%s:%d: ASSERT_EQ(%s, %s) failed: %lld != %lld\n",     \
              __FILE__, __LINE__, #a, #b, a_, b_);                           \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

#define ASSERT_STR_EQ(a, b)                                                  \
  do {                                                                       \
    const char *a_ = (a), *b_ = (b);                                         \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                 \
      fprintf(stderr,                                                        \
              "%s:%d: ASSERT_STR_EQ(%s, %s) failed:\n  \"%s\"\n  \"%s\"\n",  \
              __FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)",                \
              b_ ? b_ : "(null)");                                           \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

/* haystack contains needle */
#define ASSERT_CONTAINS(h, n)                                                \
  do {                                                                       \
    const char *h_ = (h), *n_ = (n);                                         \
    if (!h_ || !strstr(h_, n_)) {                                            \
      fprintf(stderr,                                                        \
              "%s:%d: ASSERT_CONTAINS(%s, %s) failed:\n  \"%s\"\n  does not " \
              "contain \"%s\"\n",                                            \
              __FILE__, __LINE__, #h, #n, h_ ? h_ : "(null)", n_);           \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

/* A call that must succeed; prints the context's message if not. */
#define ASSERT_OK(ctx, call)                                                 \
  do {                                                                       \
    kern_status s_ = (call);                                                 \
    if (s_ != KERN_SUCCESS) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__,      \
              #call, kern_status_name(s_), kern_last_error(ctx));            \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

static char test_tmp[256];

static inline int test_rm_one(const char *p, const struct stat *st, int flag,
                       struct FTW *f) {
  (void)st;
  (void)flag;
  (void)f;
  chmod(p, 0700); /* tests make read-only and odd-mode files */
  remove(p);
  return 0;
}

static inline void test_cleanup(void) {
  if (test_tmp[0]) nftw(test_tmp, test_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Makes a fresh temporary directory and points KERN_CACHE_DIR at a
 * not-yet-existing "cache" inside it (so creation is exercised too). */
static inline void test_setup(void) {
  const char *t = getenv("TMPDIR");
  snprintf(test_tmp, sizeof test_tmp, "%s/kern-test-XXXXXX",
           t && *t ? t : "/tmp");
  ASSERT(mkdtemp(test_tmp) != NULL);
  atexit(test_cleanup);
  char cache[300];
  snprintf(cache, sizeof cache, "%s/cache", test_tmp);
  setenv("KERN_CACHE_DIR", cache, 1);
  unsetenv("KERN_DEVICE");
  unsetenv("KERN_NUM_THREADS");
}

#endif
