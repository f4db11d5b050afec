/*
 * kern_test_self.c -- tests the test header itself: a failing check must
 * print file:line, the check as written and both values, ASSERT_* must
 * stop the test with status 1 and EXPECT_* must count and go on.  Each
 * failing check runs in a child process whose stderr comes back through a
 * pipe, so the parent can read what a red CTest log would show.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/wait.h>
#include <unistd.h>
#include "kern_test.h"

/* Runs fn in a child; returns its exit status and its stderr in out. */
static int run_child(void (*fn)(void), char *out, size_t cap) {
  int fd[2];
  ASSERT(pipe(fd) == 0);
  fflush(NULL);
  pid_t pid = fork();
  ASSERT(pid >= 0);
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    kern_test_checks = kern_test_failures = 0;
    fn();
    exit(kern_test_report("child") == 1 ? 3 : 0);
  }
  close(fd[1]);
  size_t n = 0;
  ssize_t r;
  while (n + 1 < cap && (r = read(fd[0], out + n, cap - 1 - n)) > 0)
    n += (size_t)r;
  out[n] = '\0';
  close(fd[0]);
  int st;
  ASSERT(waitpid(pid, &st, 0) == pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The lines of the failing checks, as the messages must name them. */
static const int line_eq = __LINE__ + 3;
static void fail_eq(void) {
  int two = 2;
  ASSERT_EQ(two + 1, 4);
  fprintf(stderr, "not reached\n");
}

static const int line_str = __LINE__ + 2;
static void fail_streq(void) {
  ASSERT_STREQ("abc", "abd");
}

/* Two failing EXPECTs and one passing: the child goes on to report 2. */
static void expect_twice(void) {
  EXPECT_EQ(1, 2);
  EXPECT_TRUE(0 > 1);
  EXPECT_NEAR(1.0, 1.05, 0.1);
  fprintf(stderr, "went on: %d of %d\n", kern_test_failures, kern_test_checks);
}

int main(void) {
  char out[2048], want[256];

  EXPECT_EQ(run_child(fail_eq, out, sizeof out), 1);
  snprintf(want, sizeof want,
           "kern_test_self.c:%d: ASSERT_EQ(two + 1, 4) failed: 3 vs 4",
           line_eq);
  EXPECT_CONTAINS(out, want);
  EXPECT_TRUE(strstr(out, "not reached") == NULL);

  EXPECT_EQ(run_child(fail_streq, out, sizeof out), 1);
  snprintf(want, sizeof want,
           "kern_test_self.c:%d: ASSERT_STREQ(\"abc\", \"abd\") failed:",
           line_str);
  EXPECT_CONTAINS(out, want);
  EXPECT_CONTAINS(out, "\"abc\"\n  \"abd\"");

  /* kern_test_report gives 1 after failures; the child maps that to 3. */
  EXPECT_EQ(run_child(expect_twice, out, sizeof out), 3);
  EXPECT_CONTAINS(out, "EXPECT_EQ(1, 2) failed: 1 vs 2");
  EXPECT_CONTAINS(out, "EXPECT_TRUE(0 > 1) failed");
  EXPECT_CONTAINS(out, "went on: 2 of 3");
  return kern_test_report("kern_test_self");
}
