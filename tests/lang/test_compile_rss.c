/*
 * test_compile_rss.c -- `kern compile`'s peak memory grows little with the
 * number of kernels in a file (issue #23, item 9).
 *
 * usage: lang_compile_rss KERN
 *
 * Runs `kern compile FILE --target c` as a child on generated files of
 * 2,000 and 8,000 small kernels and reads each child's peak resident set
 * from wait4().  The difference divided by 6,000 is what one kernel adds;
 * the fixed part (the backends kern_context_new loads: PoCL and LLVM are
 * about 100 MB) cancels out.  It was 25.6 KB a kernel on a924e7d (1.1 GB
 * for 40,000 kernels); Note [buffer growth] in src/base/arena.c says where
 * it went.  The bound leaves room for allocator noise while failing the
 * old compiler by far.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kern_test.h"

static const char *kern;
static char dir[] = "/tmp/kern-rss.XXXXXX";

/* Writes n kernels to dir/many<n>.py; returns the path (static). */
static const char *write_file(int n) {
  static char path[256];
  snprintf(path, sizeof path, "%s/many%d.py", dir, n);
  FILE *f = fopen(path, "w");
  ASSERT_TRUE(f != NULL);
  fputs("import warp as wp\n\n", f);
  for (int i = 0; i < n; i++)
    fprintf(f, "@wp.kernel\ndef k%d(a: wp.array(dtype=float)):\n"
               "    i = wp.tid()\n    a[i] = a[i] + %d.0\n\n", i, i);
  ASSERT_EQ(fclose(f), 0);
  return path;
}

/* Peak RSS in KB of `kern compile PATH --target c -o dir/out.c`. */
static long peak_kb(const char *path) {
  char out[256];
  snprintf(out, sizeof out, "%s/out.c", dir);
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    execl(kern, kern, "compile", path, "--target", "c", "-o", out, (char *)NULL);
    _exit(127);
  }
  int st;
  struct rusage ru;
  ASSERT_EQ(wait4(pid, &st, 0, &ru), pid);
  ASSERT_TRUE(WIFEXITED(st));
  ASSERT_EQ(WEXITSTATUS(st), 0);
  unlink(out);
  return ru.ru_maxrss; /* KB on Linux */
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: lang_compile_rss KERN\n");
    return 2;
  }
  kern = argv[1];
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  const char *small = write_file(2000);
  long a = peak_kb(small), a2 = peak_kb(small);
  unlink(small);
  const char *big = write_file(8000);
  long b = peak_kb(big), b2 = peak_kb(big);
  unlink(big);
  rmdir(dir);
  /* the smaller of two runs each: RSS is nearly deterministic, but not
   * quite (threads the backends start) */
  a = a2 < a ? a2 : a;
  b = b2 < b ? b2 : b;
  double per_kernel = (double)(b - a) / 6000.0;
  printf("peak RSS: 2,000 kernels %ld KB, 8,000 kernels %ld KB: %.1f KB a kernel "
         "(40,000 kernels: about %.0f MB)\n", a, b, per_kernel,
         (a + per_kernel * 38000) / 1024);
  EXPECT_TRUE(per_kernel < 14.0);
  return kern_test_report("lang_compile_rss");
}
