/*
 * test.h -- the runtime unit tests' temporary-directory helpers; the
 * assertions come from tests/include/kern_test.h, shared by every C test.
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

#include "kern_test.h"

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
