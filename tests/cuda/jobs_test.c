/*
 * jobs_test -- the PTX tier's background NVRTC builds (Note [build threads]
 * in src/runtime/cuda_module.c) without a GPU: three threads at once each
 * start builds in child processes, drop some while they run, wait for the
 * others, and check every kept build made a cubin and stored it in the
 * cache directory.  Needs NVRTC (exit 77 without); labelled tsan, so CI
 * also runs it under ThreadSanitizer.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "kern_test.h"

static const char *src =
    "extern \"C\" __global__ void kern_k_t(float *p) { p[threadIdx.x] *= 2.0f; }\n";
static char dir[] = "/tmp/kern-jobs-XXXXXX";

typedef struct {
  int rc;
  char why[256];
} result;

static void *worker(void *arg) {
  result *r = arg;
  r->rc = kern__cuda_jobs_selftest(src, "sm_90", 7, dir, r->why, sizeof r->why);
  return NULL;
}

int main(void) {
  ASSERT(mkdtemp(dir) != NULL);
  result r[3];
  pthread_t t[3];
  for (int i = 0; i < 3; i++) ASSERT(pthread_create(&t[i], NULL, worker, &r[i]) == 0);
  for (int i = 0; i < 3; i++) ASSERT(pthread_join(t[i], NULL) == 0);
  if (r[0].rc == 77) {
    printf("jobs_test: %s; skipped\n", r[0].why);
    return 77;
  }
  for (int i = 0; i < 3; i++) {
    if (r[i].rc) fprintf(stderr, "thread %d: %s\n", i, r[i].why);
    ASSERT_EQ(r[i].rc, 0);
  }
  /* Each thread kept jobs 0, 2, 3, 5, 6 (every third dropped); the kept
   * ones stored their cubins, the dropped ones may have too (a dropped
   * running build still finishes and fills the cache). */
  int cubins = 0;
  DIR *d = opendir(dir);
  ASSERT(d != NULL);
  for (struct dirent *e; (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n > 6 && !strcmp(e->d_name + n - 6, ".cubin")) cubins++;
  }
  closedir(d);
  printf("jobs_test: %d cubins stored\n", cubins);
  ASSERT(cubins >= 15 && cubins <= 21);
  char cmd[96];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) return 1;
  return 0;
}
