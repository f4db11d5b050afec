/*
 * abi_growth.c -- the other direction of Note [struct growth]
 * (include/kern.h): a program built against a later header, whose structs
 * have fields appended that this library does not know, runs against this
 * libkern.so.
 *
 * Each "later" struct is this header's struct followed by one more field,
 * with struct_size covering both, as a future KERN_<NAME>_INIT would set it:
 *  - kern_options and kern_arg with the new field zero are accepted (it
 *    asks for nothing this library could ignore); non-zero is refused with
 *    KERN_ERROR_INVALID_ARGUMENT, never silently ignored;
 *  - kern_launch steps through an array of the larger kern_arg by its
 *    struct_size, so every argument is read from the right place;
 *  - an output struct's unknown tail (kern_device_info, kern_param_info,
 *    kern_backend_info) comes back zeroed, while the known fields are
 *    filled.
 * Linked to the shared library, like any installed program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kern.h"
#include "kern_test.h"


typedef struct options_later {
  kern_options base;
  int64_t new_option;
} options_later;

typedef struct arg_later {
  kern_arg base;
  int64_t new_field;
} arg_later;

typedef struct device_info_later {
  kern_device_info base;
  char new_property[40];
} device_info_later;

typedef struct param_info_later {
  kern_param_info base;
  int64_t new_field;
} param_info_later;

static const char kSaxpy[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def saxpy(a: wp.float32, x: wp.array(dtype=wp.float32),\n"
    "          y: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    y[i] = a * x[i] + y[i]\n";

static int all_zero(const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i]) return 0;
  return 1;
}

int main(void) {
  ASSERT(kern_version() == KERN_VERSION_NUMBER);
  ASSERT(strcmp(kern_version_string(), KERN_VERSION_STRING) == 0);

  options_later o;
  memset(&o, 0, sizeof o);
  o.base.struct_size = sizeof o;
  o.base.no_cache = 1;
  kern_context *ctx = NULL;
  o.new_option = 5;
  ASSERT(kern_context_new(&o.base, &ctx) == KERN_ERROR_INVALID_ARGUMENT);
  ASSERT(ctx == NULL);
  o.new_option = 0;
  /* A garbage struct_size (here what a positional initializer written for
   * the layout before struct_size would leave: a pointer) is refused
   * without reading that far. */
  kern_options garbage = KERN_OPTIONS_INIT;
  garbage.struct_size = (size_t)(uintptr_t)&o;
  ASSERT(kern_context_new(&garbage, &ctx) == KERN_ERROR_INVALID_ARGUMENT);
  garbage = (kern_options)KERN_OPTIONS_INIT;
  garbage.reserved0 = 1; /* reserved fields must be zero */
  ASSERT(kern_context_new(&garbage, &ctx) == KERN_ERROR_INVALID_ARGUMENT);
  garbage = (kern_options)KERN_OPTIONS_INIT;
  garbage.reserved1 = 1;
  ASSERT(kern_context_new(&garbage, &ctx) == KERN_ERROR_INVALID_ARGUMENT);
  /* A context made to compile only (no_devices): no backend probed, no
   * devices, every backend says why, and compiling works. */
  {
    kern_options nd = KERN_OPTIONS_INIT;
    nd.no_devices = 1;
    kern_context *c2 = NULL;
    ASSERT_OK(NULL, kern_context_new(&nd, &c2));
    ASSERT(kern_device_count(c2) == 0);
    kern_backend_info bi = KERN_BACKEND_INFO_INIT;
    ASSERT_OK(c2, kern_backend_get(c2, KERN_BACKEND_CPU, &bi));
    ASSERT(!bi.available && strstr(bi.reason, "not probed"));
    char *code = NULL;
    ASSERT_OK(c2, kern_compile_source(c2, "saxpy.py", kSaxpy, sizeof kSaxpy - 1,
                                      "cuda", &code));
    ASSERT(code && strstr(code, "saxpy"));
    kern_free(code);
    kern_context_free(c2);
  }
  garbage = (kern_options)KERN_OPTIONS_INIT;
  garbage.cuda_tier = 3; /* not a kern_cuda_tier */
  ASSERT(kern_context_new(&garbage, &ctx) == KERN_ERROR_INVALID_ARGUMENT);
  garbage.cuda_tier = -1;
  ASSERT(kern_context_new(&garbage, &ctx) == KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_OK(NULL, kern_context_new(&o.base, &ctx));

  device_info_later d;
  memset(&d, 0xab, sizeof d);
  d.base.struct_size = sizeof d;
  ASSERT_OK(ctx, kern_device_get(ctx, 0, &d.base));
  ASSERT(d.base.struct_size == sizeof d); /* the caller's, kept */
  ASSERT(d.base.name[0] && d.base.compute_units >= 1);
  ASSERT(d.base.max_group_size >= 1);
  ASSERT(all_zero(d.new_property, sizeof d.new_property));

  struct {
    kern_backend_info base;
    int64_t more;
  } b;
  memset(&b, 0xab, sizeof b);
  b.base.struct_size = sizeof b;
  ASSERT_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_CPU, &b.base));
  ASSERT(strcmp(b.base.name, "cpu") == 0 && b.more == 0);

  kern_module *m;
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_load_string(ctx, 0, "saxpy.py", kSaxpy,
                                        sizeof kSaxpy - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "saxpy", &k));
  param_info_later p;
  memset(&p, 0xab, sizeof p);
  p.base.struct_size = sizeof p;
  ASSERT_OK(ctx, kern_kernel_param(k, 2, &p.base));
  ASSERT(strcmp(p.base.name, "y") == 0 && p.new_field == 0);

  enum { N = 64 };
  int64_t n = N;
  kern_array *x, *y;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, KERN_TYPE_FLOAT32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, 0, KERN_TYPE_FLOAT32, 1, &n, &y));
  float hx[N], hy[N];
  for (int i = 0; i < N; i++) hx[i] = (float)i, hy[i] = 3.0f;
  ASSERT_OK(ctx, kern_array_upload(x, hx, sizeof hx));
  ASSERT_OK(ctx, kern_array_upload(y, hy, sizeof hy));

  /* An array of the larger kern_arg: the library must step by 40 bytes,
   * not its own 32, or it reads argument 2 from the middle of argument 1. */
  arg_later args[3];
  memset(args, 0, sizeof args);
  args[0].base = kern_arg_float(0.5);
  args[1].base = kern_arg_array(x);
  args[2].base = kern_arg_array(y);
  for (int i = 0; i < 3; i++) args[i].base.struct_size = sizeof args[i];
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 3, &args[0].base));
  ASSERT_OK(ctx, kern_array_download(y, hy, sizeof hy));
  for (int i = 0; i < N; i++) ASSERT(hy[i] == 0.5f * (float)i + 3.0f);

  /* A field this library does not know, set: refused, and named. */
  args[1].new_field = 1;
  ASSERT(kern_launch(k, 1, &n, 3, &args[0].base) == KERN_ERROR_INVALID_ARGUMENT);
  ASSERT(strstr(kern_last_error(ctx), "argument 2 'x' sets fields this library "
                                     "does not know"));
  args[1].new_field = 0;
  /* Mixed sizes in one array are refused too. */
  args[2].base.struct_size = sizeof(kern_arg);
  ASSERT(kern_launch(k, 1, &n, 3, &args[0].base) == KERN_ERROR_INVALID_ARGUMENT);
  ASSERT(strstr(kern_last_error(ctx), "argument 3 has struct_size 32"));
  /* And one below the first version. */
  kern_arg old = kern_arg_float(1.0);
  old.struct_size = 8;
  kern_arg bad[3] = {old, kern_arg_array(x), kern_arg_array(y)};
  bad[1].struct_size = bad[2].struct_size = 8;
  ASSERT(kern_launch(k, 1, &n, 3, bad) == KERN_ERROR_INVALID_ARGUMENT);
  ASSERT(strstr(kern_last_error(ctx), "args[0].struct_size is 8"));
  kern_device_info huge = KERN_DEVICE_INFO_INIT;
  huge.struct_size = (size_t)1 << 40;
  ASSERT(kern_device_get(ctx, 0, &huge) == KERN_ERROR_INVALID_ARGUMENT);

  kern_context_free(ctx);
  printf("abi growth: ok\n");
  return 0;
}
