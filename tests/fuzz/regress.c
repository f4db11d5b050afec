/*
 * regress.c -- replays inputs the fuzzers once crashed on.
 *
 *   fuzz_regress PATH...
 *
 * Each PATH is a file or a directory of files (tests/fuzz/crashes).  Every
 * file is compiled with kern__compile for the C, CUDA and OpenCL targets,
 * with each combination of the debug and #line options, and must come back
 * cleanly: a success with source text, or a "PATH:LINE:COL: error: ..."
 * diagnostic (or out of memory), the same outcome on every target (Note
 * [target-independent status] in fuzz/fuzz_compiler.c).  A crash is a
 * crash of this program; build it with KERN_SANITIZE=ON to also catch
 * memory errors that do not crash.  It is built with the normal compiler,
 * so these tests run in CI without libFuzzer.  Nothing generated is run.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compile.h"
#include "kern_test.h"

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0, r;
  char *p = malloc(cap);
  while (p && (r = fread(p + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) {
      char *q = realloc(p, cap *= 2);
      if (!q) {
        free(p);
        p = NULL;
      } else {
        p = q;
      }
    }
  }
  fclose(f);
  *len = n;
  return p;
}

static int nfiles;

static void replay(const char *path) {
  size_t len;
  char *src = slurp(path, &len);
  EXPECT_TRUE(src != NULL);
  if (!src) {
    perror(path);
    return;
  }
  nfiles++;
  /* An exact-size copy without a terminating NUL, as the fuzzers pass it. */
  char *exact = malloc(len ? len : 1);
  EXPECT_TRUE(exact != NULL);
  if (!exact) {
    free(src);
    return;
  }
  memcpy(exact, src, len);
  size_t plen = strlen(path);
  for (int o = 0; o < 4; o++) {
    kc_options opts = {o & 1, (o >> 1) & 1, 0, 0, 0, 0, NULL, 0, 0};
    kern_status first = KERN_SUCCESS;
    for (int t = 0; t < KERN_TARGET_COUNT; t++) {
      kc_result r;
      int before = kern_test_failures;
      kern_status st =
          kern__compile(path, exact, len, (kern__target)t, &opts, &r);
      if (st == KERN_SUCCESS) {
        EXPECT_TRUE(r.source != NULL && r.source_len == strlen(r.source));
        EXPECT_TRUE(r.error == NULL);
      } else {
        EXPECT_TRUE(st == KERN_ERROR_COMPILE ||
                    st == KERN_ERROR_OUT_OF_MEMORY);
        if (st == KERN_ERROR_COMPILE) {
          EXPECT_TRUE(r.error != NULL && !strncmp(r.error, path, plen) &&
                      r.error[plen] == ':');
          const char *msg = r.error ? strstr(r.error, ": error: ") : NULL;
          EXPECT_TRUE(msg != NULL && strncmp(msg + 9, "internal", 8) != 0);
        }
      }
      if (t == 0)
        first = st;
      EXPECT_EQ(st, first);
      if (kern_test_failures > before)
        fprintf(stderr, "  in %s [%s, debug=%d, lines=%d]%s%s\n", path,
                kern__target_name((kern__target)t), opts.debug,
                opts.line_directives, r.error ? ": " : "",
                r.error ? r.error : "");
      kern__compile_result_free(&r);
    }
  }
  free(exact);
  free(src);
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *path) {
  struct stat sb;
  if (stat(path, &sb) != 0) {
    perror(path);
    EXPECT_TRUE(0);
    return;
  }
  if (!S_ISDIR(sb.st_mode)) {
    replay(path);
    return;
  }
  DIR *d = opendir(path);
  EXPECT_TRUE(d != NULL);
  if (!d)
    return;
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md"))
      continue;
    if (n == cap) {
      char **q = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
      if (!q)
        break;
      names = q;
    }
    size_t len = strlen(e->d_name) + 1; /* strdup is not C11 */
    if (!(names[n] = malloc(len)))
      break;
    memcpy(names[n++], e->d_name, len);
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp);
  for (size_t i = 0; i < n; i++) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", path, names[i]);
    replay(p);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PATH...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; i++)
    walk(argv[i]);
  printf("%d files x %d targets x 4 option sets\n", nfiles,
         (int)KERN_TARGET_COUNT);
  return kern_test_report("fuzz_regress");
}
