/*
 * abi_v1.c -- a program built against the first version of the ABI
 * (kern_v1.h, frozen) runs against the libkern.so.1 built now.
 *
 * It is compiled without include/ on its include path, so it sees only the
 * first version's struct layouts, and linked to the shared library, so it
 * calls the exported symbols as any installed program would.  What it
 * checks is Note [struct growth] in include/kern.h from the old program's
 * side:
 *  - kern_options without `debug`: the fields it has are honoured (the
 *    cache directory it names is the one used), the missing one defaults;
 *  - kern_device_info without the device properties: the library fills the
 *    first version's fields and writes nothing past the struct (a canary
 *    right after it stays intact);
 *  - kern_param_info and kern_arg arrays of the first layout work, and a
 *    launch computes the right answer;
 *  - a struct_size below the first version's is refused.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kern_v1.h"

#ifdef KERN_H
#error "abi_v1.c must not see include/kern.h"
#endif

#define CHECK(e)                                                             \
  do {                                                                       \
    if (!(e)) {                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #e);  \
      exit(1);                                                               \
    }                                                                        \
  } while (0)
#define CHECK_OK(ctx, call)                                                  \
  do {                                                                       \
    kern_status s_ = (call);                                                 \
    if (s_ != KERN_SUCCESS) {                                                \
      fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call,       \
              kern_status_name(s_), kern_last_error(ctx));                   \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

static const char kSaxpy[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def saxpy(a: wp.float32, x: wp.array(dtype=wp.float32),\n"
    "          y: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    y[i] = a * x[i] + y[i]\n";

static char tmp[256];

static void cleanup(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmp);
}

int main(void) {
  snprintf(tmp, sizeof tmp, "%s/kern-abi-v1.XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  CHECK(mkdtemp(tmp) != NULL);
  atexit(cleanup);
  unsetenv("KERN_CACHE_DIR");
  unsetenv("KERN_DEBUG");
  printf("library %s (%d)\n", kern_version_string(), kern_version());
  CHECK(kern_version() >= 100 && kern_version_string()[0]);

  /* kern_options, first version: 24 bytes on LP64. */
  char cache[300];
  snprintf(cache, sizeof cache, "%s/cache", tmp);
  kern_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.cache_dir = cache;
  o.num_threads = 2;
  kern_context *ctx;
  CHECK_OK(NULL, kern_context_new(&o, &ctx));
  kern_options tiny = o;
  tiny.struct_size = sizeof(size_t);
  kern_context *never = NULL;
  CHECK(kern_context_new(&tiny, &never) == KERN_ERROR_INVALID_ARGUMENT);
  CHECK(never == NULL);

  /* kern_device_info, first version, with a canary right after it. */
  struct {
    kern_device_info info;
    unsigned char canary[256];
  } d;
  memset(&d, 0xab, sizeof d);
  d.info.struct_size = sizeof d.info;
  CHECK_OK(ctx, kern_device_get(ctx, 0, &d.info));
  CHECK(d.info.struct_size == sizeof d.info);
  CHECK(d.info.backend == KERN_BACKEND_CPU && d.info.index == 0);
  CHECK(d.info.name[0] && d.info.compute_units >= 1 && d.info.memory_bytes > 0);
  for (size_t i = 0; i < sizeof d.canary; i++) CHECK(d.canary[i] == 0xab);
  d.info.struct_size = 16;
  CHECK(kern_device_get(ctx, 0, &d.info) == KERN_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(kern_last_error(ctx), "struct_size is 16"));

  kern_backend_info b;
  memset(&b, 0, sizeof b);
  b.struct_size = sizeof b;
  CHECK_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_CPU, &b));
  CHECK(strcmp(b.name, "cpu") == 0 && b.available && b.device_count == 1);

  /* A module, its parameters and a launch with first-version kern_args. */
  kern_module *m;
  kern_kernel *k;
  CHECK_OK(ctx, kern_module_load_string(ctx, 0, "saxpy.py", kSaxpy,
                                        sizeof kSaxpy - 1, &m));
  CHECK_OK(ctx, kern_module_get_kernel(m, "saxpy", &k));
  kern_param_info p;
  memset(&p, 0, sizeof p);
  p.struct_size = sizeof p;
  CHECK_OK(ctx, kern_kernel_param(k, 1, &p));
  CHECK(strcmp(p.name, "x") == 0 && p.kind == KERN_PARAM_ARRAY && p.ndim == 1);
  CHECK(p.type.scalar == KERN_SCALAR_FLOAT32);

  enum { N = 100 };
  int64_t n = N;
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  kern_array *x, *y;
  CHECK_OK(ctx, kern_array_new(ctx, 0, f32, 1, &n, &x));
  CHECK_OK(ctx, kern_array_new(ctx, 0, f32, 1, &n, &y));
  float hx[N], hy[N];
  for (int i = 0; i < N; i++) hx[i] = (float)i, hy[i] = 1.0f;
  CHECK_OK(ctx, kern_array_upload(x, hx, sizeof hx));
  CHECK_OK(ctx, kern_array_upload(y, hy, sizeof hy));
  kern_arg args[3];
  memset(args, 0, sizeof args);
  for (int i = 0; i < 3; i++) args[i].struct_size = sizeof args[i];
  args[0].kind = KERN_ARG_FLOAT;
  args[0].u.f = 2.0;
  args[1].kind = KERN_ARG_ARRAY;
  args[1].u.array = x;
  args[2].kind = KERN_ARG_ARRAY;
  args[2].u.array = y;
  CHECK_OK(ctx, kern_launch(k, 1, &n, 3, args));
  CHECK_OK(ctx, kern_array_download(y, hy, sizeof hy));
  for (int i = 0; i < N; i++) CHECK(hy[i] == 2.0f * (float)i + 1.0f);

  /* The cache directory the old struct named is the one in use. */
  struct stat st;
  CHECK(stat(cache, &st) == 0 && S_ISDIR(st.st_mode));

  kern_module_free(m);
  kern_array_free(x);
  kern_array_free(y);
  kern_context_free(ctx);
  /* The handles are dead, whatever order they are used in. */
  CHECK(kern_array_download(y, hy, sizeof hy) == KERN_ERROR_INVALID_HANDLE);
  CHECK(kern_launch(k, 1, &n, 3, args) == KERN_ERROR_INVALID_HANDLE);
  printf("abi v1: ok\n");
  return 0;
}
