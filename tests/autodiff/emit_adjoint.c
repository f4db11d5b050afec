/*
 * emit_adjoint -- writes the adjoint kernel's generated code for each
 * autodiff test file (Note [adjoint] in ir/adjoint.c), so that
 * nvrtc_check.sh can compile the CUDA with NVRTC without a GPU.
 *
 *   emit_adjoint TARGET OUTDIR FILE.py...   (TARGET c, cuda or opencl)
 *
 * The kernel is the first word of the file's `# kern-test:` line; the
 * output is OUTDIR/<stem>.<cu|c|cl>.  Exit status 0, or 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "compile.h"

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b) b[n] = 0;
  *len = (size_t)n;
  return b;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: emit_adjoint TARGET OUTDIR FILE.py...\n");
    return 2;
  }
  kern__target t = !strcmp(argv[1], "cuda") ? KERN_TARGET_CUDA
                   : !strcmp(argv[1], "opencl") ? KERN_TARGET_OPENCL
                                                : KERN_TARGET_C;
  const char *ext = t == KERN_TARGET_CUDA ? "cu" : t == KERN_TARGET_OPENCL ? "cl" : "c";
  int fail = 0;
  for (int i = 3; i < argc; i++) {
    size_t len;
    char *src = slurp(argv[i], &len);
    if (!src) {
      fprintf(stderr, "FAIL: cannot read %s\n", argv[i]);
      return 1;
    }
    char kernel[128] = "";
    const char *h = strstr(src, "# kern-test: ");
    if (h) sscanf(h + 13, "%127s", kernel);
    /* the adjoint, then the tangent (Note [tangent]; a kernel forward
     * mode refuses, wp.atomic_min/max, is skipped there) */
    for (int tan = 0; tan < 2; tan++) {
      /* CUDA and OpenCL for the runtime's default block size (its
       * kern__target_block), which a block exchange is compiled for */
      kc_options o = {0, 0, 0, 0, 0, 0, kernel, tan,
                      t == KERN_TARGET_C ? 0 : 256};
      kc_result r;
      if (kern__compile(argv[i], src, len, t, &o, &r) != KERN_SUCCESS) {
        if (!(tan && r.error && strstr(r.error, "forward-mode autodiff of"))) {
          fprintf(stderr, "FAIL: %s: %s\n", argv[i], r.error ? r.error : "?");
          fail = 1;
        }
      } else {
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        char out[4096];
        snprintf(out, sizeof out, "%s/%.*s%s.%s", argv[2],
                 (int)(strlen(base) - 3), base, tan ? "_tan" : "", ext);
        FILE *f = fopen(out, "wb");
        if (!f || fwrite(r.source, 1, r.source_len, f) != r.source_len) fail = 1;
        if (f) fclose(f);
      }
      kern__compile_result_free(&r);
    }
    free(src);
  }
  return fail;
}
