/*
 * test.h -- assert-style checks for the front-end unit tests.  A failed
 * check prints file:line, the expression and both values, and the test goes
 * on; test_report() gives the exit status.
 */
#ifndef KERN_TEST_LANG_H
#define KERN_TEST_LANG_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_checks, test_failures;

#define ASSERT_EQ(a, b)                                                      \
  do {                                                                       \
    long long va_ = (long long)(a), vb_ = (long long)(b);                    \
    test_checks++;                                                           \
    if (va_ != vb_) {                                                        \
      test_failures++;                                                       \
      fprintf(stderr, "%s:%d: ASSERT_EQ(%s, %s) failed: %lld != %lld\n",    \
              __FILE__, __LINE__, #a, #b, va_, vb_);                         \
    }                                                                        \
  } while (0)

#define ASSERT_TRUE(e)                                                       \
  do {                                                                       \
    test_checks++;                                                           \
    if (!(e)) {                                                              \
      test_failures++;                                                       \
      fprintf(stderr, "%s:%d: ASSERT_TRUE(%s) failed\n", __FILE__, __LINE__, \
              #e);                                                           \
    }                                                                        \
  } while (0)

#define ASSERT_DBL_EQ(a, b)                                                  \
  do {                                                                       \
    double va_ = (a), vb_ = (b);                                             \
    test_checks++;                                                           \
    if (!(va_ == vb_ || fabs(va_ - vb_) <= 1e-12 * fabs(vb_))) {             \
      test_failures++;                                                       \
      fprintf(stderr, "%s:%d: ASSERT_DBL_EQ(%s, %s) failed: %.17g != %.17g\n", \
              __FILE__, __LINE__, #a, #b, va_, vb_);                         \
    }                                                                        \
  } while (0)

#define ASSERT_STR_EQ(a, b)                                                  \
  do {                                                                       \
    const char *sa_ = (a), *sb_ = (b);                                       \
    test_checks++;                                                           \
    if (!sa_ || !sb_ || strcmp(sa_, sb_)) {                                  \
      test_failures++;                                                       \
      fprintf(stderr, "%s:%d: ASSERT_STR_EQ(%s, %s) failed:\n  \"%s\"\n  "   \
              "!= \"%s\"\n", __FILE__, __LINE__, #a, #b,                     \
              sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)");                   \
    }                                                                        \
  } while (0)

static int test_report(const char *name) {
  printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
  return test_failures ? 1 : 0;
}

#endif
