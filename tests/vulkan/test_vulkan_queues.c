/*
 * test_vulkan_queues.c -- Note [vulkan queues] in
 * src/runtime/backend_vulkan.c: native streams spread over the device's
 * compute queues.
 *  - the device's description says how many compute queues kern uses,
 *    and of which family;
 *  - with two or more, a kernel on one stream that waits (a bounded spin)
 *    for a flag set by a kernel launched afterwards on another stream sees
 *    the flag: the two streams ran at the same time, not serialized on one
 *    queue.  With one queue (lavapipe) it cannot, and the spin must have
 *    ended before the flag was set (submission order);
 *  - results are right with events between the streams: stream A computes
 *    y = 2x, records an event; stream B waits for it and computes z = 2y,
 *    40 rounds with new x each time, z read back on B.
 * Registered twice: as the device comes, and with KERN_VULKAN_QUEUES=1
 * and KERN_VULKAN_QUEUE_FAMILY naming a family no device has.
 * Needs a Vulkan device with native streams (77 otherwise).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kern.h"
#include "kern_test.h"
#include "runtime.h" /* kern__vulkan_stream_stats */

static const char src[] =
    "import warp as wp\n"
    "@wp.kernel\n"
    "def wait_flag(flag: wp.array(dtype=wp.int32), seen: wp.array(dtype=wp.int32),\n"
    "              iters: wp.int32):\n"
    "    j = int(0)\n"
    "    while j < iters:\n"
    "        if wp.atomic_add(flag, 0, 0) != 0:\n"
    "            seen[0] = 1\n"
    "            j = iters\n"
    "        j = j + 1\n"
    "@wp.kernel\n"
    "def set_flag(flag: wp.array(dtype=wp.int32)):\n"
    "    wp.atomic_add(flag, 0, 1)\n"
    "@wp.kernel\n"
    "def twice(y: wp.array(dtype=wp.float32), x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    y[i] = 2.0 * x[i]\n";

enum { N = 1000 };

int main(void) {
  kern_context *ctx;
  char cache[] = "/tmp/kern_vk_queues.XXXXXX";
  ASSERT_TRUE(mkdtemp(cache) != NULL);
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = cache;
  ASSERT_EQ(kern_context_new(&o, &ctx), KERN_SUCCESS);
  const char *pick = getenv("KERN_TEST_VULKAN_DEVICE");
  if (!pick || !*pick) pick = "vulkan:0";
  kern_device dev;
  kern_stream *a = NULL, *b = NULL;
  if (kern_device_find(ctx, pick, &dev) != KERN_SUCCESS ||
      kern_stream_new(ctx, dev, &a) != KERN_SUCCESS) {
    printf("skip: %s\n", kern_last_error(ctx));
    kern_context_free(ctx);
    rmdir(cache);
    return 77;
  }
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &b));
  void *vstate = NULL;
  int vindex = 0;
  uint64_t sub = 0, pend = 0;
  ASSERT(kern__device_backend(kern__ctx(ctx), dev, &vstate, &vindex) != NULL);
  if (!kern__vulkan_stream_stats(vstate, vindex, &sub, &pend)) {
    printf("skip: %s has no native streams\n", pick);
    kern_stream_free(a);
    kern_stream_free(b);
    kern_context_free(ctx);
    rmdir(cache);
    return 77;
  }
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  ASSERT_OK(ctx, kern_device_get(ctx, dev, &di));
  printf("device: %s: %s\n", di.name, di.description);
  const char *q = strstr(di.description, " compute queue");
  ASSERT_TRUE(q != NULL); /* the description names the queues */
  while (q > di.description && q[-1] >= '0' && q[-1] <= '9') q--;
  int nq = atoi(q);
  ASSERT_TRUE(nq >= 1);
  const char *lim = getenv("KERN_VULKAN_QUEUES");
  if (lim && *lim) EXPECT_TRUE(nq <= atoi(lim));
  /* and which queue family (a compute one without graphics first;
   * $KERN_VULKAN_QUEUE_FAMILY naming one that does not exist falls back) */
  const char *fam = strstr(di.description, "(family ");
  ASSERT_TRUE(fam != NULL);
  printf("queue family %d\n", atoi(fam + 8));

  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "queues.py", src,
                                         sizeof src - 1, &m));
  kern_kernel *kw, *ks, *kt;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "wait_flag", &kw));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "set_flag", &ks));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "twice", &kt));

  /* the spin on a, the flag on b, launched after it */
  int64_t one = 1, n = N;
  kern_array *flag, *seen, *x, *y, *z;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &one, &flag));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &one, &seen));
  ASSERT_OK(ctx, kern_array_zero(flag));
  ASSERT_OK(ctx, kern_array_zero(seen));
  int iters = nq > 1 ? 1 << 22 : 1 << 14; /* 1 << 28 ran past two minutes on an H200 */
  kern_arg wa[] = {kern_arg_array(flag), kern_arg_array(seen),
                   kern_arg_int(iters)};
  kern_arg sa[] = {kern_arg_array(flag)};
  ASSERT_OK(ctx, kern_launch_async(kw, a, 1, &one, 3, wa));
  ASSERT_OK(ctx, kern_launch_async(ks, b, 1, &one, 1, sa));
  ASSERT_OK(ctx, kern_stream_synchronize(a));
  ASSERT_OK(ctx, kern_stream_synchronize(b));
  int32_t hs = -1, hf = -1;
  ASSERT_OK(ctx, kern_array_download(seen, &hs, sizeof hs));
  ASSERT_OK(ctx, kern_array_download(flag, &hf, sizeof hf));
  EXPECT_EQ(hf, 1);
  if (nq > 1) {
    printf("%d compute queues: the spin on stream a %s the flag set on b\n",
           nq, hs ? "saw" : "did not see");
    EXPECT_EQ(hs, 1); /* a and b ran at the same time */
  } else {
    printf("one compute queue: streams run in submission order here\n");
    EXPECT_EQ(hs, 0);
  }

  /* events between the streams */
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &y));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &z));
  kern_event *e;
  ASSERT_OK(ctx, kern_event_new(ctx, &e));
  static float hx[N], hz[N];
  int bad = 0;
  for (int r = 0; r < 40; r++) {
    for (int i = 0; i < N; i++) hx[i] = (float)(i + r);
    kern_arg t1[] = {kern_arg_array(y), kern_arg_array(x)};
    kern_arg t2[] = {kern_arg_array(z), kern_arg_array(y)};
    ASSERT_OK(ctx, kern_array_upload_async(x, a, 0, hx, sizeof hx));
    ASSERT_OK(ctx, kern_launch_async(kt, a, 1, &n, 2, t1));
    ASSERT_OK(ctx, kern_event_record(e, a));
    ASSERT_OK(ctx, kern_stream_wait_event(b, e));
    ASSERT_OK(ctx, kern_launch_async(kt, b, 1, &n, 2, t2));
    ASSERT_OK(ctx, kern_array_download_async(z, b, 0, hz, sizeof hz));
    ASSERT_OK(ctx, kern_stream_synchronize(b));
    for (int i = 0; i < N; i++) bad += hz[i] != 4.0f * (float)(i + r);
  }
  EXPECT_EQ(bad, 0);
  kern_event_free(e);
  ASSERT_OK(ctx, kern_stream_free(a));
  ASSERT_OK(ctx, kern_stream_free(b));
  kern_array_free(flag);
  kern_array_free(seen);
  kern_array_free(x);
  kern_array_free(y);
  kern_array_free(z);
  kern_context_free(ctx);
  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", cache);
  return kern_test_report("vulkan_queues");
}
