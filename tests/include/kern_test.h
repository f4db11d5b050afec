/*
 * kern_test.h -- the one assertion header of every C test (issue #9).
 *
 * A failed check prints file:line, the check as written and the values it
 * compared, so a red CTest log says what went wrong without a debugger
 * (libuv's ASSERT_EQ, chibicc's ASSERT).  Two families share one body:
 *
 *   ASSERT_*  stop the test at the first failure (exit 1), for checks whose
 *             failure makes the rest meaningless (a NULL handle, a failed
 *             load);
 *   EXPECT_*  count the failure and go on, for tables of independent
 *             checks; the test ends with `return kern_test_report(name);`.
 *
 * The status checks (ASSERT_OK, ASSERT_STATUS) call kern_status_name and
 * kern_last_error, so a file that uses them includes kern.h itself; this
 * header includes no kern header, which lets the ABI tests compile it
 * against an old copy of kern.h.  Everything here is static: each test is
 * one translation unit.
 */
#ifndef KERN_TEST_INCLUDE_H
#define KERN_TEST_INCLUDE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counted with atomics: tests assert from several threads (tests/threads). */
static _Atomic int kern_test_checks, kern_test_failures;

/* Every failure goes through here: the message is already printed. */
static inline void kern_test_failed(int fatal) {
  kern_test_failures++;
  if (fatal) exit(1);
}

/* Prints "N checks, M failed" under the test's name and gives the exit
 * status for main. */
static inline int kern_test_report(const char *name) {
  printf("%s: %d checks, %d failed\n", name, kern_test_checks,
         kern_test_failures);
  return kern_test_failures ? 1 : 0;
}

#define KERN_TEST_TRUE_(fatal, what, e)                                      \
  do {                                                                       \
    kern_test_checks++;                                                      \
    if (!(e)) {                                                              \
      fprintf(stderr, "%s:%d: %s(%s) failed\n", __FILE__, __LINE__, what,    \
              #e);                                                           \
      kern_test_failed(fatal);                                               \
    }                                                                        \
  } while (0)

#define KERN_TEST_CMP_(fatal, what, a, op, b)                                \
  do {                                                                       \
    long long a_ = (long long)(a), b_ = (long long)(b);                      \
    kern_test_checks++;                                                      \
    if (!(a_ op b_)) {                                                       \
      fprintf(stderr, "%s:%d: %s(%s, %s) failed: %lld vs %lld\n", __FILE__,  \
              __LINE__, what, #a, #b, a_, b_);                               \
      kern_test_failed(fatal);                                               \
    }                                                                        \
  } while (0)

#define KERN_TEST_STREQ_(fatal, what, a, b)                                  \
  do {                                                                       \
    const char *a_ = (a), *b_ = (b);                                         \
    kern_test_checks++;                                                      \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                 \
      fprintf(stderr, "%s:%d: %s(%s, %s) failed:\n  \"%s\"\n  \"%s\"\n",     \
              __FILE__, __LINE__, what, #a, #b, a_ ? a_ : "(null)",          \
              b_ ? b_ : "(null)");                                           \
      kern_test_failed(fatal);                                               \
    }                                                                        \
  } while (0)

/* The haystack contains the needle. */
#define KERN_TEST_CONTAINS_(fatal, what, h, n)                               \
  do {                                                                       \
    const char *h_ = (h), *n_ = (n);                                         \
    kern_test_checks++;                                                      \
    if (!h_ || !strstr(h_, n_)) {                                            \
      fprintf(stderr,                                                        \
              "%s:%d: %s(%s, %s) failed:\n  \"%s\"\n  does not contain "     \
              "\"%s\"\n",                                                    \
              __FILE__, __LINE__, what, #h, #n, h_ ? h_ : "(null)", n_);     \
      kern_test_failed(fatal);                                               \
    }                                                                        \
  } while (0)

/* |a - b| <= tol; tol 0 with a relative 1e-12 is ASSERT_DBL_EQ. */
#define KERN_TEST_NEAR_(fatal, what, a, b, tol, rel)                         \
  do {                                                                       \
    double a_ = (a), b_ = (b);                                               \
    kern_test_checks++;                                                      \
    if (!(a_ == b_ || fabs(a_ - b_) <= (tol) + (rel) * fabs(b_))) {          \
      fprintf(stderr, "%s:%d: %s(%s, %s) failed: %.17g vs %.17g\n",          \
              __FILE__, __LINE__, what, #a, #b, a_, b_);                     \
      kern_test_failed(fatal);                                               \
    }                                                                        \
  } while (0)

/* A kern call returns the wanted status; shows the context's message. */
#define KERN_TEST_STATUS_(fatal, what, ctx, call, want)                      \
  do {                                                                       \
    kern_status s_ = (call), w_ = (want);                                    \
    kern_test_checks++;                                                      \
    if (s_ != w_) {                                                          \
      fprintf(stderr, "%s:%d: %s: %s returned %s, expected %s\n  (%s)\n",    \
              __FILE__, __LINE__, what, #call, kern_status_name(s_),         \
              kern_status_name(w_), kern_last_error(ctx));                   \
      kern_test_failed(fatal);                                               \
    }                                                                        \
  } while (0)

#define ASSERT(e) KERN_TEST_TRUE_(1, "ASSERT", e)
#define ASSERT_TRUE(e) KERN_TEST_TRUE_(1, "ASSERT_TRUE", e)
#define ASSERT_EQ(a, b) KERN_TEST_CMP_(1, "ASSERT_EQ", a, ==, b)
#define ASSERT_NE(a, b) KERN_TEST_CMP_(1, "ASSERT_NE", a, !=, b)
#define ASSERT_STREQ(a, b) KERN_TEST_STREQ_(1, "ASSERT_STREQ", a, b)
#define ASSERT_CONTAINS(h, n) KERN_TEST_CONTAINS_(1, "ASSERT_CONTAINS", h, n)
#define ASSERT_DBL_EQ(a, b) KERN_TEST_NEAR_(1, "ASSERT_DBL_EQ", a, b, 0, 1e-12)
#define ASSERT_NEAR(a, b, tol) KERN_TEST_NEAR_(1, "ASSERT_NEAR", a, b, tol, 0)
#define ASSERT_STATUS(ctx, call, want)                                       \
  KERN_TEST_STATUS_(1, "ASSERT_STATUS", ctx, call, want)
#define ASSERT_OK(ctx, call)                                                 \
  KERN_TEST_STATUS_(1, "ASSERT_OK", ctx, call, KERN_SUCCESS)

#define EXPECT_TRUE(e) KERN_TEST_TRUE_(0, "EXPECT_TRUE", e)
#define EXPECT_EQ(a, b) KERN_TEST_CMP_(0, "EXPECT_EQ", a, ==, b)
#define EXPECT_NE(a, b) KERN_TEST_CMP_(0, "EXPECT_NE", a, !=, b)
#define EXPECT_STREQ(a, b) KERN_TEST_STREQ_(0, "EXPECT_STREQ", a, b)
#define EXPECT_CONTAINS(h, n) KERN_TEST_CONTAINS_(0, "EXPECT_CONTAINS", h, n)
#define EXPECT_DBL_EQ(a, b) KERN_TEST_NEAR_(0, "EXPECT_DBL_EQ", a, b, 0, 1e-12)
#define EXPECT_NEAR(a, b, tol) KERN_TEST_NEAR_(0, "EXPECT_NEAR", a, b, tol, 0)
#define EXPECT_STATUS(ctx, call, want)                                       \
  KERN_TEST_STATUS_(0, "EXPECT_STATUS", ctx, call, want)
#define EXPECT_OK(ctx, call)                                                 \
  KERN_TEST_STATUS_(0, "EXPECT_OK", ctx, call, KERN_SUCCESS)

#endif
