/*
 * test_vulkan_chunks.c -- Note [vulkan chunked copies] in
 * src/runtime/backend_vulkan.c: asynchronous copies of pageable memory
 * larger than the staging size go in chunks (run with
 * KERN_VULKAN_STAGING_BYTES=4096: a copy of ~1 MiB is 257 chunks).
 *  - an async upload is split into batches (the submitted count grows by
 *    the number of chunks), reads the caller's memory before it returns
 *    (the buffer is overwritten right after the call) and arrives whole;
 *  - an async download in chunks lands whole in the caller's memory after
 *    the stream's synchronize;
 *  - upload, kernel, download on one stream, three rounds: right results;
 *  - kern_host_alloc's memory is still copied straight (one batch).
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
    "def twice(y: wp.array(dtype=wp.float32), x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    y[i] = 2.0 * x[i]\n";

enum { N = 262169 }; /* 1 MiB + 100 bytes of float32 */

int main(void) {
  kern_context *ctx;
  char cache[] = "/tmp/kern_vk_chunks.XXXXXX";
  ASSERT_TRUE(mkdtemp(cache) != NULL);
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = cache;
  ASSERT_EQ(kern_context_new(&o, &ctx), KERN_SUCCESS);
  const char *pick = getenv("KERN_TEST_VULKAN_DEVICE");
  if (!pick || !*pick) pick = "vulkan:0";
  kern_device dev;
  kern_stream *s = NULL;
  void *vstate = NULL;
  int vindex = 0;
  uint64_t sub0 = 0, sub1 = 0, pend = 0;
  if (kern_device_find(ctx, pick, &dev) != KERN_SUCCESS ||
      kern_stream_new(ctx, dev, &s) != KERN_SUCCESS ||
      !kern__device_backend(kern__ctx(ctx), dev, &vstate, &vindex) ||
      kern__vulkan_stream_stats(vstate, vindex, &sub0, &pend) != 1) {
    printf("skip: no Vulkan device with native streams (%s)\n",
           kern_last_error(ctx));
    if (s) kern_stream_free(s);
    kern_context_free(ctx);
    rmdir(cache);
    return 77;
  }
  const char *sb = getenv("KERN_VULKAN_STAGING_BYTES");
  size_t chunk = sb && *sb ? (size_t)atoll(sb) : (size_t)64 << 20;
  size_t bytes = (size_t)N * 4, nchunks = (bytes + chunk - 1) / chunk;
  printf("%zu bytes in chunks of %zu: %zu chunks\n", bytes, chunk, nchunks);

  kern_module *m;
  kern_kernel *kt;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "chunks.py", src,
                                         sizeof src - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "twice", &kt));
  int64_t n = N;
  kern_array *x, *y;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &y));
  float *h = malloc(bytes), *back = malloc(bytes);
  ASSERT_TRUE(h && back);

  /* upload: chunks, the caller's memory read at the call */
  for (int i = 0; i < N; i++) h[i] = (float)i * 0.5f;
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  ASSERT_EQ(kern__vulkan_stream_stats(vstate, vindex, &sub0, &pend), 1);
  ASSERT_OK(ctx, kern_array_upload_async(x, s, 0, h, bytes));
  ASSERT_EQ(kern__vulkan_stream_stats(vstate, vindex, &sub1, &pend), 1);
  memset(h, 0xff, bytes); /* the upload has read it already */
  printf("upload: %llu batches\n", (unsigned long long)(sub1 - sub0));
  EXPECT_EQ(sub1 - sub0, (uint64_t)nchunks);
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  ASSERT_OK(ctx, kern_array_download(x, back, bytes));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != (float)i * 0.5f;
  EXPECT_EQ(bad, 0);

  /* download in chunks */
  memset(back, 0, bytes);
  ASSERT_OK(ctx, kern_array_download_async(x, s, 0, back, bytes));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != (float)i * 0.5f;
  EXPECT_EQ(bad, 0);

  /* upload, kernel, download on one stream */
  for (int r = 0; r < 3; r++) {
    for (int i = 0; i < N; i++) h[i] = (float)(i % 1000 + r);
    kern_arg a[] = {kern_arg_array(y), kern_arg_array(x)};
    ASSERT_OK(ctx, kern_array_upload_async(x, s, 0, h, bytes));
    memset(h, 0, bytes);
    ASSERT_OK(ctx, kern_launch_async(kt, s, 1, &n, 2, a));
    ASSERT_OK(ctx, kern_array_download_async(y, s, 0, back, bytes));
    ASSERT_OK(ctx, kern_stream_synchronize(s));
    bad = 0;
    for (int i = 0; i < N; i++) bad += back[i] != 2.0f * (float)(i % 1000 + r);
    EXPECT_EQ(bad, 0);
  }

  /* pinned memory: straight, one batch */
  float *p = NULL;
  if (kern_host_alloc(ctx, dev, bytes, (void **)&p) == KERN_SUCCESS) {
    for (int i = 0; i < N; i++) p[i] = (float)(N - i);
    ASSERT_EQ(kern__vulkan_stream_stats(vstate, vindex, &sub0, &pend), 1);
    ASSERT_OK(ctx, kern_array_upload_async(x, s, 0, p, bytes));
    ASSERT_OK(ctx, kern_stream_synchronize(s));
    ASSERT_EQ(kern__vulkan_stream_stats(vstate, vindex, &sub1, &pend), 1);
    ASSERT_OK(ctx, kern_array_download(x, back, bytes));
    bad = 0;
    for (int i = 0; i < N; i++) bad += back[i] != (float)(N - i);
    EXPECT_EQ(bad, 0);
    printf("pinned upload: %llu batches\n", (unsigned long long)(sub1 - sub0));
    kern_host_free(ctx, p);
  }

  free(h);
  free(back);
  kern_array_free(x);
  kern_array_free(y);
  ASSERT_OK(ctx, kern_stream_free(s));
  kern_context_free(ctx);
  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", cache);
  return kern_test_report("vulkan_chunks");
}
