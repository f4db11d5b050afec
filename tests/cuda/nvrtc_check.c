/*
 * nvrtc_check -- compiles CUDA files with NVRTC the way the CUDA backend
 * does, without a GPU, so CI catches CUDA the emitter gets wrong.
 *
 *   nvrtc_check FILE.cu... [--arch sm_90]
 *
 * Exit status: 0 all compiled, 1 a file failed (its log is printed), 2 bad
 * usage or unreadable file, 77 NVRTC not loadable (CTest's skip code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  for (size_t r; buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
    n += r;
    if (cap - n - 1 == 0) {
      char *bigger = realloc(buf, cap *= 2);
      if (!bigger) free(buf);
      buf = bigger;
    }
  }
  fclose(f);
  if (buf) buf[n] = 0;
  return buf;
}

int main(int argc, char **argv) {
  const char *arch = "sm_90";
  int nfiles = 0, failed = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc) {
      arch = argv[++i];
      argv[i - 1] = argv[i] = NULL;
    } else {
      nfiles++;
    }
  }
  if (nfiles == 0) {
    fprintf(stderr, "usage: nvrtc_check FILE.cu... [--arch sm_90]\n");
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    if (!argv[i]) continue;
    char *src = read_file(argv[i]);
    if (!src) {
      fprintf(stderr, "nvrtc_check: cannot read %s\n", argv[i]);
      return 2;
    }
    char *log = NULL;
    int rc = kern__cuda_nvrtc_compile_check(src, arch, &log);
    free(src);
    switch (rc) {
    case KERN__NVRTC_OK:
      printf("ok   %s (%s)\n", argv[i], arch);
      if (log && log[0]) printf("%s\n", log); /* warnings */
      break;
    case KERN__NVRTC_UNAVAILABLE:
      printf("skip: %s\n", log ? log : "NVRTC not loadable");
      free(log);
      return 77;
    default:
      failed = 1;
      printf("FAIL %s (%s)\n%s\n", argv[i], arch, log ? log : "(no log)");
      break;
    }
    free(log);
  }
  return failed;
}
