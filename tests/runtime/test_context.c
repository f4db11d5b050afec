/* Contexts, options, errors and device lookup. */
#include "test.h"
#include "runtime.h"

int main(void) {
  test_setup();
  kern_context *ctx;

  /* Options: explicit values win over the environment. */
  setenv("KERN_NUM_THREADS", "3", 1);
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  ASSERT_EQ(kern__ctx(ctx)->num_threads, 3);
  ASSERT_STREQ(kern__ctx(ctx)->cache_dir, getenv("KERN_CACHE_DIR"));
  kern_context_free(ctx);
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = "/some/where/";
  o.num_threads = 7;
  o.no_cache = 1;
  ASSERT_OK(NULL, kern_context_new(&o, &ctx));
  ASSERT_EQ(kern__ctx(ctx)->num_threads, 7);
  ASSERT_STREQ(kern__ctx(ctx)->cache_dir, "/some/where");
  kern_context_free(ctx);
  setenv("KERN_NUM_THREADS", "bogus", 1);
  unsetenv("KERN_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  ASSERT(kern__ctx(ctx)->num_threads >= 1);
  ASSERT_STREQ(kern__ctx(ctx)->cache_dir, "/xdg/kern");
  kern_context_free(ctx);
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/someone", 1);
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  ASSERT_STREQ(kern__ctx(ctx)->cache_dir, "/home/someone/.cache/kern");
  kern_context_free(ctx);
  unsetenv("KERN_NUM_THREADS");
  test_setup(); /* restore a private KERN_CACHE_DIR */

  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  ASSERT_STREQ(kern_last_error(ctx), "");

  /* Within one call the first error wins (it is the cause); a new call's
   * first error replaces it (Note [error recency] in context.c). */
  kern_context *c = kern__ctx_enter(ctx);
  ASSERT_EQ(kern__error(c, KERN_ERROR_IO, "first %d", 1), KERN_ERROR_IO);
  ASSERT_EQ(kern__error(c, KERN_ERROR_LAUNCH, "second"), KERN_ERROR_LAUNCH);
  ASSERT_STREQ(kern_last_error(ctx), "first 1");
  kern__call_begin(c);
  ASSERT_STREQ(kern_last_error(ctx), "first 1"); /* a call that has not failed */
  ASSERT_EQ(kern__error(c, KERN_ERROR_LAUNCH, "third"), KERN_ERROR_LAUNCH);
  ASSERT_STREQ(kern_last_error(ctx), "third");
  kern_clear_error(ctx);
  ASSERT_STREQ(kern_last_error(ctx), "");

  /* Backends: the CPU is always there and comes first. */
  ASSERT_EQ(kern_backend_count(), 4);
  kern_backend_info bi = KERN_BACKEND_INFO_INIT;
  ASSERT_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_CPU, &bi));
  ASSERT_STREQ(bi.name, "cpu");
  ASSERT(bi.available);
  ASSERT_EQ(bi.device_count, 1);
  ASSERT_STREQ(bi.reason, "");
  ASSERT_EQ(kern_backend_get(ctx, (kern_backend_kind)9, &bi),
            KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  ASSERT(kern_device_count(ctx) >= 1);
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  ASSERT_OK(ctx, kern_device_get(ctx, 0, &di));
  ASSERT_EQ(di.backend, KERN_BACKEND_CPU);
  ASSERT_EQ(di.index, 0);
  ASSERT(di.name[0]);
  ASSERT(di.compute_units >= 1);
  ASSERT(di.memory_bytes > 0);
  /* Device properties (kern_device_info's second version). */
  ASSERT_EQ(di.capability_major, 0);
  ASSERT(di.fp64 && di.int64_atomics);
  ASSERT_EQ(di.warp_size, 1);
  ASSERT_EQ(di.max_group_size, 1);
  ASSERT_CONTAINS(di.driver_version, "Linux"); /* uname: the OS and release */
  ASSERT(strlen(di.driver_version) > strlen("Linux "));
  ASSERT_STREQ(di.pci_bus_id, "");
  for (int i = 0; i < 16; i++) ASSERT_EQ(di.uuid[i], 0);
  /* A struct_size below the first version is refused, and named. */
  kern_device_info small = KERN_DEVICE_INFO_INIT;
  small.struct_size = 8;
  ASSERT_EQ(kern_device_get(ctx, 0, &small), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "out->struct_size is 8");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_device_get(ctx, 99, &di), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "no device 99");
  kern_clear_error(ctx);

  /* Device names. */
  kern_device d = -1;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &d));
  ASSERT_EQ(d, 0);
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu:0", &d));
  ASSERT_EQ(d, 0);
  ASSERT_EQ(kern_device_find(ctx, "cpu:1", &d), KERN_ERROR_NOT_FOUND);
  ASSERT_STREQ(kern_last_error(ctx),
                "device 'cpu:1' not found: backend cpu has 1 device (cpu:0 "
                "to cpu:0)");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_device_find(ctx, "tpu", &d), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "unknown device 'tpu'");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_device_find(ctx, "cuda:x", &d), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  ASSERT_EQ(kern_device_find(ctx, "cpu:", &d), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  /* An explicit backend that is unavailable is an error with its reason. */
  ASSERT_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_CUDA, &bi));
  if (!bi.available) {
    ASSERT(bi.reason[0]);
    ASSERT_EQ(kern_device_find(ctx, "cuda:0", &d),
              KERN_ERROR_BACKEND_UNAVAILABLE);
    ASSERT_CONTAINS(kern_last_error(ctx), "device 'cuda:0': backend cuda is "
                                          "unavailable: ");
    ASSERT_CONTAINS(kern_last_error(ctx), bi.reason);
    kern_clear_error(ctx);
  }
  /* auto, NULL and "" go through $KERN_DEVICE. */
  kern_device a;
  ASSERT_OK(ctx, kern_device_find(ctx, "auto", &a));
  ASSERT_OK(ctx, kern_device_find(ctx, NULL, &d));
  ASSERT_EQ(d, a);
  ASSERT_OK(ctx, kern_device_find(ctx, "", &d));
  ASSERT_EQ(d, a);
  ASSERT_OK(ctx, kern_device_get(ctx, a, &di));
  ASSERT(di.backend == (bi.available ? KERN_BACKEND_CUDA : KERN_BACKEND_CPU));
  setenv("KERN_DEVICE", "cpu", 1);
  ASSERT_OK(ctx, kern_device_find(ctx, NULL, &d));
  ASSERT_EQ(d, 0);
  setenv("KERN_DEVICE", "nonsense", 1);
  ASSERT_EQ(kern_device_find(ctx, "", &d), KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  unsetenv("KERN_DEVICE");

  /* A missing file names the path and the reason. */
  kern_module *m;
  ASSERT_EQ(kern_module_load_file(ctx, 0, "/nonexistent/k.py", &m),
            KERN_ERROR_IO);
  ASSERT_STREQ(kern_last_error(ctx),
                "cannot open '/nonexistent/k.py': No such file or directory");
  kern_clear_error(ctx);

  kern_context_free(ctx);
  kern_context_free(NULL);
  puts("ok");
  return 0;
}
