/*
 * test_conformance_compile.c -- kern__compile succeeds on every
 * tests/conformance .py file (except gen_expected.py) for the C, CUDA and
 * OpenCL targets and yields code and at least one kernel.
 *
 *   lang_conformance_compile DIR
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include "compile.h"
#include "kern_test.h"

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *p = malloc(cap);
  size_t r;
  while (p && (r = fread(p + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap)
      p = realloc(p, cap *= 2);
  }
  fclose(f);
  *len = n;
  return p;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The text after "# kern-targets: " on a line of src (len bytes, not a C
 * string), up to its newline; NULL when there is no such line. */
static const char *targets_line(const char *src, size_t len) {
  static const char mark[] = "\n# kern-targets: ";
  for (size_t k = 0; k + sizeof mark - 1 <= len; k++)
    if (memcmp(src + k, mark, sizeof mark - 1) == 0)
      return src + k + sizeof mark - 1;
  return NULL;
}

/* Whether the space-separated list at p (ended by a newline) names t. */
static bool names_target(const char *p, const char *t) {
  size_t n = strlen(t);
  while (*p && *p != '\n') {
    size_t w = strcspn(p, " \n");
    if (w == n && memcmp(p, t, n) == 0)
      return true;
    p += w;
    while (*p == ' ')
      p++;
  }
  return false;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CONFORMANCE_DIR\n", argv[0]);
    return 2;
  }
  DIR *d = opendir(argv[1]);
  if (!d) {
    perror(argv[1]);
    return 2;
  }
  char *names[4096];
  int nn = 0;
  struct dirent *e;
  while ((e = readdir(d)) && nn < 4096) {
    size_t l = strlen(e->d_name);
    if (l < 4 || strcmp(e->d_name + l - 3, ".py") ||
        !strcmp(e->d_name, "gen_expected.py"))
      continue;
    names[nn++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)nn, sizeof names[0], cmp);
  EXPECT_TRUE(nn >= 50);

  int files = 0;
  for (int i = 0; i < nn; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
    size_t len;
    char *src = slurp(path, &len);
    EXPECT_TRUE(src != NULL);
    if (!src)
      continue;
    files++;
    /* `# kern-targets: c [vulkan]`: a file only those targets take (a
     * kernel the others refuse by design, that refusal pinned by its own
     * test: tests/errors/tile_threads_gpu.sh, tile_stack_gpu.sh) */
    const char *only = targets_line(src, len);
    for (int t = 0; t < KERN_TARGET_COUNT; t++) {
      if (only && !names_target(only, kern__target_name((kern__target)t)))
        continue;
      kc_result r;
      kern_status st = kern__compile(path, src, len, (kern__target)t, NULL, &r);
      EXPECT_EQ(st, KERN_SUCCESS);
      if (st != KERN_SUCCESS) {
        fprintf(stderr, "  %s [%s]: %s\n", names[i],
                kern__target_name((kern__target)t), r.error ? r.error : "?");
      } else {
        EXPECT_TRUE(r.source != NULL && r.source_len > 0);
        /* a file of generic kernels only has them instantiated at launch */
        EXPECT_TRUE(r.nkernels + r.ngenerics >= 1);
        for (int k = 0; k < r.nkernels; k++)
          EXPECT_TRUE(r.kernels[k].name && r.kernels[k].symbol);
      }
      kern__compile_result_free(&r);
    }
    free(src);
    free(names[i]);
  }
  printf("%d files x %d targets\n", files, (int)KERN_TARGET_COUNT);
  return kern_test_report("lang_conformance_compile");
}
