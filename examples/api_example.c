/*
 * api_example.c -- the kern C API from start to finish.
 *
 * Computes y = a * x + y (SAXPY) on the device named by $KERN_DEVICE (the
 * CPU when it is unset), checks the result on the host and exits 0 when it
 * is right.  With an argument it loads the kernel from that file (for
 * example examples/saxpy.py); without one it compiles the same kernel from
 * a string.
 *
 *   cc api_example.c $(pkg-config --cflags --libs kern) -o api_example
 *   ./api_example [examples/saxpy.py]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kern.h>

static const char SAXPY_SRC[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def saxpy(a: wp.float32, x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    y[i] = a * x[i] + y[i]\n";

/* Prints the failed call, the status and the context's detailed message. */
#define CHECK(call)                                                         \
  do {                                                                      \
    kern_status s_ = (call);                                                \
    if (s_ != KERN_SUCCESS) {                                               \
      fprintf(stderr, "%s failed: %s (%s)\n%s\n", #call,                    \
              kern_status_string(s_), kern_status_name(s_),                 \
              ctx ? kern_last_error(ctx) : "");                             \
      goto done;                                                            \
    }                                                                       \
  } while (0)

int main(int argc, char **argv) {
  enum { N = 1000 };
  const float a = 2.5f;
  float x[N], y[N], result[N];
  int ok = 0;
  kern_context *ctx = NULL;
  kern_module *mod = NULL;
  kern_array *dx = NULL, *dy = NULL;
  kern_kernel *k = NULL;
  kern_device dev;
  kern_device_info info = KERN_DEVICE_INFO_INIT;

  for (int i = 0; i < N; i++) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }

  /* 1. A context with default options (cache dir, threads from the env). */
  CHECK(kern_context_new(NULL, &ctx));

  /* 2. A device: $KERN_DEVICE when set ("cpu", "opencl:0", "cuda:0"),
   *    else the CPU.  An explicit choice that cannot be honoured fails. */
  CHECK(kern_device_find(ctx, getenv("KERN_DEVICE") ? NULL : "cpu", &dev));
  CHECK(kern_device_get(ctx, dev, &info));
  printf("device: %s\n", info.name);

  /* 3. Arrays live on the device; upload copies host memory in. */
  kern_type f32 = KERN_TYPE_FLOAT32; /* or KERN_TYPE_VEC3, KERN_TYPE_MAT33D, ... */
  int64_t shape[1] = {N};
  CHECK(kern_array_new(ctx, dev, f32, 1, shape, &dx));
  CHECK(kern_array_new(ctx, dev, f32, 1, shape, &dy));
  CHECK(kern_array_upload(dx, x, sizeof x));
  CHECK(kern_array_upload(dy, y, sizeof y));

  /* 4. Compile a module (every kernel in the source) for the device. */
  if (argc > 1)
    CHECK(kern_module_load_file(ctx, dev, argv[1], &mod));
  else
    CHECK(kern_module_load_string(ctx, dev, "saxpy.py", SAXPY_SRC,
                                  strlen(SAXPY_SRC), &mod));
  CHECK(kern_module_get_kernel(mod, "saxpy", &k));

  /* 5. Introspect the parameters. */
  for (int i = 0; i < kern_kernel_param_count(k); i++) {
    kern_param_info p = KERN_PARAM_INFO_INIT;
    char tname[32];
    CHECK(kern_kernel_param(k, i, &p));
    kern_type_name(p.type, tname, sizeof tname);
    if (p.kind == KERN_PARAM_ARRAY)
      printf("  param %d: %s: array of %s, %d-d\n", i, p.name, tname, p.ndim);
    else
      printf("  param %d: %s: %s\n", i, p.name, tname);
  }

  /* 6. Launch over N threads; arguments in parameter order. */
  kern_arg args[3] = {kern_arg_float(a), kern_arg_array(dx),
                      kern_arg_array(dy)};
  int64_t dims[1] = {N};
  CHECK(kern_launch(k, 1, dims, 3, args));

  /* 7. Copy the result back and check it. */
  CHECK(kern_array_download(dy, result, sizeof result));
  ok = 1;
  for (int i = 0; i < N; i++) {
    float want = a * x[i] + y[i], err = result[i] - want;
    if (err < 0) err = -err;
    if (err > 1e-5f * want) { /* want >= 1 here */
      fprintf(stderr, "y[%d] = %g, expected %g\n", i, result[i], want);
      ok = 0;
      break;
    }
  }

  /* 8. An error on purpose: there is no kernel "nope". */
  if (kern_module_get_kernel(mod, "nope", &k) == KERN_ERROR_NOT_FOUND)
    printf("expected error: %s\n", kern_last_error(ctx));
  else
    ok = 0;
  kern_clear_error(ctx);

  printf("y[0..3] = %g %g %g %g: %s\n", result[0], result[1], result[2],
         result[3], ok ? "correct" : "WRONG");

done:
  /* 9. Free what was made (kern_context_free alone would free it all). */
  kern_module_free(mod);
  kern_array_free(dx);
  kern_array_free(dy);
  kern_context_free(ctx);
  return ok ? 0 : 1;
}
