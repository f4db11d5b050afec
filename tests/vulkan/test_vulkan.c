/*
 * test_vulkan.c -- the Vulkan backend through the public API: arrays round
 * trip (upload, download, fill, copy at an offset through a second
 * upload), a launch whose results are checked element by element, the
 * module's SPIR-V stored in and loaded from kern's cache, and clear
 * errors: a kernel the vulkan target refuses (print) and an array of
 * another device; debug mode's bounds checks (out-of-bounds stores and
 * atomics reported and skipped).
 *
 * Needs a Vulkan device (lavapipe is enough) and a GLSL compiler
 * (libshaderc or glslangValidator); without them it says why and exits
 * 77, which CTest reports as skipped.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kern.h"
#include "kern_test.h"
#include "runtime.h" /* kern__sha256: the cache entries' footer */

static const char saxpy[] =
    "import warp as wp\n"
    "@wp.kernel\n"
    "def saxpy(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32),\n"
    "          a: wp.float32, n: wp.array(dtype=wp.int32)):\n"
    "    i = wp.tid()\n"
    "    y[i] = a * x[i] + y[i]\n"
    "    wp.atomic_add(n, 0, 1)\n";

/* refused: C text is no GLSL */
static const char printing[] =
    "import warp as wp\n"
    "@wp.func_native(\"return a + 1;\")\n"
    "def plus(a: int) -> int: ...\n"
    "@wp.kernel\n"
    "def talk(x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = float(plus(i))\n";

/* Files under dir whose name ends with ext. */
static int count_entries(const char *dir, const char *ext) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  size_t el = strlen(ext);
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l > el && !strcmp(e->d_name + l - el, ext)) n++;
    if (e->d_name[0] != '.' && !strchr(e->d_name, '.')) {
      char sub[4096];
      snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
      n += count_entries(sub, ext);
    }
  }
  closedir(d);
  return n;
}

/* The path of the one entry under dir whose name ends with ext (first
 * found), or "" */
static void find_entry(const char *dir, const char *ext, char *out, size_t n) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  size_t el = strlen(ext);
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l > el && !strcmp(e->d_name + l - el, ext) && e->d_name[0] != '.') {
      snprintf(out, n, "%s/%s", dir, e->d_name);
      break;
    }
    if (e->d_name[0] != '.' && !strchr(e->d_name, '.')) {
      char sub[4096];
      snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
      find_entry(sub, ext, out, n);
      if (*out) break;
    }
  }
  closedir(d);
}

static unsigned char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *b = malloc(1 << 20);
  *size = b ? fread(b, 1, 1 << 20, f) : 0;
  fclose(f);
  return b;
}

static void spill(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  if (fwrite(p, 1, n, f) != n) fprintf(stderr, "short write %s\n", path);
  fclose(f);
}

/* A cache entry as cache.c stores it: payload, "KERNSUM1", the length
 * (8 bytes little-endian), SHA-256 of the payload. */
static void spill_entry(const char *path, const unsigned char *p, size_t n) {
  unsigned char *b = malloc(n + 48);
  if (!b) return;
  memcpy(b, p, n);
  memcpy(b + n, "KERNSUM1", 8);
  for (int i = 0; i < 8; i++) b[n + 8 + i] = (unsigned char)((uint64_t)n >> (8 * i));
  kern__sha256 h;
  kern__sha256_init(&h);
  kern__sha256_update(&h, p, n);
  kern__sha256_final(&h, b + n + 16);
  spill(path, b, n + 48);
  free(b);
}

/* A new context loads saxpy, launches it and checks y; 0 on success. */
static int saxpy_again(const kern_options *o, kern_device dev, const float *hx,
                       const float *hy, int n) {
  kern_context *c;
  kern_module *m;
  kern_kernel *k;
  kern_array *x, *y, *cnt;
  int64_t nn = n, one = 1;
  if (kern_context_new(o, &c) != KERN_SUCCESS) return -1;
  int bad = -1;
  float *back = malloc(sizeof(float) * (size_t)n);
  if (back &&
      kern_module_load_string(c, dev, "saxpy.py", saxpy, sizeof saxpy - 1, &m) == 0 &&
      kern_module_get_kernel(m, "saxpy", &k) == 0 &&
      kern_array_new(c, dev, KERN_TYPE_FLOAT32, 1, &nn, &x) == 0 &&
      kern_array_new(c, dev, KERN_TYPE_FLOAT32, 1, &nn, &y) == 0 &&
      kern_array_new(c, dev, KERN_TYPE_INT32, 1, &one, &cnt) == 0 &&
      kern_array_upload(x, hx, sizeof(float) * (size_t)n) == 0 &&
      kern_array_upload(y, hy, sizeof(float) * (size_t)n) == 0) {
    kern_arg a[] = {kern_arg_array(x), kern_arg_array(y), kern_arg_float(2.0),
                    kern_arg_array(cnt)};
    if (kern_launch(k, 1, &nn, 4, a) == 0 &&
        kern_array_download(y, back, sizeof(float) * (size_t)n) == 0) {
      bad = 0;
      for (int i = 0; i < n; i++) bad += back[i] != 2.0f * hx[i] + hy[i];
    }
  }
  if (bad) fprintf(stderr, "saxpy_again: %s\n", kern_last_error(c));
  free(back);
  kern_context_free(c);
  return bad;
}

int main(void) {
  char cache[] = "/tmp/kern_vk_test.XXXXXX";
  ASSERT_TRUE(mkdtemp(cache) != NULL);
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = cache;
  kern_context *ctx;
  ASSERT_EQ(kern_context_new(&o, &ctx), KERN_SUCCESS);
  kern_device dev;
  if (kern_device_find(ctx, "vulkan:0", &dev) != KERN_SUCCESS) {
    printf("skip: %s\n", kern_last_error(ctx));
    kern_context_free(ctx);
    rmdir(cache);
    return 77;
  }
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  ASSERT_OK(ctx, kern_device_get(ctx, dev, &di));
  EXPECT_EQ(di.backend, KERN_BACKEND_VULKAN);
  printf("device: %s (%s)\n", di.name, di.description);

  /* arrays: round trip, fill */
  enum { N = 1000 };
  int64_t n = N;
  float hx[N], hy[N], back[N];
  for (int i = 0; i < N; i++) {
    hx[i] = (float)i * 0.5f;
    hy[i] = 100.0f - (float)i;
  }
  kern_array *x, *y, *cnt;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &y));
  int64_t one = 1;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &one, &cnt));
  ASSERT_OK(ctx, kern_array_upload(x, hx, sizeof hx));
  ASSERT_OK(ctx, kern_array_download(x, back, sizeof back));
  EXPECT_EQ(memcmp(hx, back, sizeof hx), 0);
  float seven = 7.0f;
  ASSERT_OK(ctx, kern_array_fill(y, &seven));
  ASSERT_OK(ctx, kern_array_download(y, back, sizeof back));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != 7.0f;
  EXPECT_EQ(bad, 0);
  ASSERT_OK(ctx, kern_array_upload(y, hy, sizeof hy));
  ASSERT_OK(ctx, kern_array_zero(cnt));

  /* Copies against a host model (Note [vulkan memory]): run once mapped
   * and once with KERN_VULKAN_STAGING=1 KERN_VULKAN_STAGING_BYTES=1024
   * (vulkan_backend_staging), where 12000-byte arrays take many chunks. */
  {
    const char *stg = getenv("KERN_VULKAN_STAGING");
    if (stg && !strcmp(stg, "1"))
      EXPECT_CONTAINS(di.description, "arrays device-local (staged copies)");
    enum { M = 3000 };
    int64_t m = M;
    static int32_t h[M], model[M], got[M];
    for (int i = 0; i < M; i++) h[i] = model[i] = i * 7 + 1;
    kern_array *p, *q;
    ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &m, &p));
    ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &m, &q));
    ASSERT_OK(ctx, kern_array_upload(p, h, sizeof h));
    kern_stream *ds;
    ASSERT_OK(ctx, kern_stream_default(ctx, dev, &ds));
    /* an upload at an odd offset, spanning chunks */
    int32_t part[700];
    for (int i = 0; i < 700; i++) part[i] = -i;
    ASSERT_OK(ctx, kern_array_upload_async(p, ds, 4 * 333, part, sizeof part));
    memcpy(model + 333, part, sizeof part);
    /* a device copy into another array, then overlapping copies within
     * one array in both directions (memmove) */
    ASSERT_OK(ctx, kern_array_copy(q, p));
    ASSERT_OK(ctx, kern_array_copy_async(p, 4 * 10, p, 0, 4 * 2000, ds));
    memmove(model + 10, model, 4 * 2000);
    ASSERT_OK(ctx, kern_array_copy_async(p, 4 * 5, p, 4 * 900, 4 * 1900, ds));
    memmove(model + 5, model + 900, 4 * 1900);
    ASSERT_OK(ctx, kern_stream_synchronize(ds));
    ASSERT_OK(ctx, kern_array_download(p, got, sizeof got));
    int diff = 0;
    for (int i = 0; i < M; i++) diff += got[i] != model[i];
    EXPECT_EQ(diff, 0);
    /* a download at an offset */
    int32_t back2[500];
    ASSERT_OK(ctx, kern_array_download_async(p, ds, 4 * 2400, back2, sizeof back2));
    ASSERT_OK(ctx, kern_stream_synchronize(ds));
    EXPECT_EQ(memcmp(back2, model + 2400, sizeof back2), 0);
    /* q kept the first copy */
    int32_t first[M];
    memcpy(first, h, sizeof h);
    memcpy(first + 333, part, sizeof part);
    ASSERT_OK(ctx, kern_array_download(q, got, sizeof got));
    EXPECT_EQ(memcmp(got, first, sizeof got), 0);
    /* a 12-byte pattern fill over 1000 elements (chunks a multiple of it) */
    kern_array *v;
    int64_t nv = 1000;
    kern_type v3 = {KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 3, 1};
    ASSERT_OK(ctx, kern_array_new(ctx, dev, v3, 1, &nv, &v));
    float pat[3] = {1.5f, -2.0f, 7.25f};
    ASSERT_OK(ctx, kern_array_fill(v, pat));
    static float vb[3000];
    ASSERT_OK(ctx, kern_array_download(v, vb, sizeof vb));
    diff = 0;
    for (int i = 0; i < 3000; i++) diff += vb[i] != pat[i % 3];
    EXPECT_EQ(diff, 0);
    /* a launch reads what a staged upload wrote and a download sees what
     * it wrote (the barriers between submissions): the saxpy below */
    kern_array_free(p);
    kern_array_free(q);
    kern_array_free(v);
  }

  /* a launch, cold: SPIR-V compiled and stored */
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "saxpy.py", saxpy,
                                         sizeof saxpy - 1, &m));
  EXPECT_EQ(count_entries(cache, ".spv"), 1);
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "saxpy", &k));
  kern_arg args[] = {kern_arg_array(x), kern_arg_array(y), kern_arg_float(3.0),
                     kern_arg_array(cnt)};
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 4, args));
  ASSERT_OK(ctx, kern_array_download(y, back, sizeof back));
  bad = 0;
  for (int i = 0; i < N; i++)
    if (back[i] != 3.0f * hx[i] + hy[i]) {
      if (bad++ < 3)
        fprintf(stderr, "y[%d] = %g, expected %g\n", i, back[i],
                3.0f * hx[i] + hy[i]);
    }
  EXPECT_EQ(bad, 0);
  int32_t c = 0;
  ASSERT_OK(ctx, kern_array_download(cnt, &c, sizeof c));
  EXPECT_EQ(c, N); /* every thread ran once: the atomic counted them */

  /* Events time the device (Note [vulkan device clock]): a launch between
   * two events takes more than nothing, and the host sleeping between two
   * events with nothing enqueued adds nothing (a host clock would count
   * the 300 ms). */
  {
    kern_stream *ds;
    kern_event *e0, *e1, *e2;
    ASSERT_OK(ctx, kern_stream_default(ctx, dev, &ds));
    ASSERT_OK(ctx, kern_event_new(ctx, &e0));
    ASSERT_OK(ctx, kern_event_new(ctx, &e1));
    ASSERT_OK(ctx, kern_event_new(ctx, &e2));
    ASSERT_OK(ctx, kern_event_record(e0, ds));
    ASSERT_OK(ctx, kern_launch_async(k, ds, 1, &n, 4, args));
    ASSERT_OK(ctx, kern_event_record(e1, ds));
    ASSERT_OK(ctx, kern_event_synchronize(e1));
    usleep(300 * 1000);
    ASSERT_OK(ctx, kern_event_record(e2, ds));
    ASSERT_OK(ctx, kern_event_synchronize(e2));
    double ms_launch = -1, ms_idle = -1;
    ASSERT_OK(ctx, kern_event_elapsed(e0, e1, &ms_launch));
    ASSERT_OK(ctx, kern_event_elapsed(e1, e2, &ms_idle));
    printf("events: launch %.4f ms, 300 ms of host sleep %.4f ms\n",
           ms_launch, ms_idle);
    EXPECT_TRUE(ms_launch > 0 && ms_launch < 250);
    EXPECT_TRUE(ms_idle >= 0 && ms_idle < 50);
    kern_event_free(e0);
    kern_event_free(e1);
    kern_event_free(e2);
    /* the launch above ran once more: y = 3x + (3x + y0) */
    ASSERT_OK(ctx, kern_array_upload(y, hy, sizeof hy));
  }

  /* warm: the same module from the cache, in a new context */
  kern_context *ctx2;
  ASSERT_EQ(kern_context_new(&o, &ctx2), KERN_SUCCESS);
  kern_module *m2;
  ASSERT_OK(ctx2, kern_module_load_string(ctx2, dev, "saxpy.py", saxpy,
                                          sizeof saxpy - 1, &m2));
  EXPECT_EQ(count_entries(cache, ".spv"), 1);
  kern_kernel *k2;
  ASSERT_OK(ctx2, kern_module_get_kernel(m2, "saxpy", &k2));
  kern_array *x2, *y2, *c2;
  ASSERT_OK(ctx2, kern_array_new(ctx2, dev, KERN_TYPE_FLOAT32, 1, &n, &x2));
  ASSERT_OK(ctx2, kern_array_new(ctx2, dev, KERN_TYPE_FLOAT32, 1, &n, &y2));
  ASSERT_OK(ctx2, kern_array_new(ctx2, dev, KERN_TYPE_INT32, 1, &one, &c2));
  ASSERT_OK(ctx2, kern_array_upload(x2, hx, sizeof hx));
  ASSERT_OK(ctx2, kern_array_upload(y2, hy, sizeof hy));
  ASSERT_OK(ctx2, kern_array_zero(c2));
  kern_arg args2[] = {kern_arg_array(x2), kern_arg_array(y2),
                      kern_arg_float(-2.0), kern_arg_array(c2)};
  ASSERT_OK(ctx2, kern_launch(k2, 1, &n, 4, args2));
  ASSERT_OK(ctx2, kern_array_download(y2, back, sizeof back));
  bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != -2.0f * hx[i] + hy[i];
  EXPECT_EQ(bad, 0);

  /* an array of another context's device is refused by name */
  kern_arg wrong[] = {kern_arg_array(x), kern_arg_array(y2),
                      kern_arg_float(1.0), kern_arg_array(c2)};
  EXPECT_TRUE(kern_launch(k2, 1, &n, 4, wrong) != KERN_SUCCESS);
  kern_context_free(ctx2);

  /* a kernel the vulkan target refuses: a clear error, no crash */
  kern_module *bm = NULL;
  EXPECT_STATUS(ctx, kern_module_load_string(ctx, dev, "talk.py", printing,
                                             sizeof printing - 1, &bm),
                KERN_ERROR_UNSUPPORTED);
  EXPECT_CONTAINS(kern_last_error(ctx), "vulkan: kernel 'talk'");
  EXPECT_CONTAINS(kern_last_error(ctx),
                  "cannot run @wp.func_native snippets (C and CUDA source)");
  kern_context_free(ctx);

  /* The driver's pipeline cache (Note [vulkan pipeline cache]): one entry,
   * Vulkan's header first; a truncated, a foreign (another device's UUID)
   * and a garbage entry are each ignored, the kernel still runs, and the
   * context writes a good entry back. */
  {
    char pc[4200] = "";
    find_entry(cache, ".vkpc", pc, sizeof pc);
    EXPECT_EQ(count_entries(cache, ".vkpc"), 1);
    size_t sz = 0;
    unsigned char *orig = *pc ? slurp(pc, &sz) : NULL;
    EXPECT_TRUE(orig && sz >= 32 + 48);
    if (orig && sz >= 32 + 48) {
      uint32_t hs, ver;
      memcpy(&hs, orig, 4);
      memcpy(&ver, orig + 4, 4);
      EXPECT_TRUE(hs >= 32 && ver == 1);
      EXPECT_EQ(memcmp(orig + sz - 48, "KERNSUM1", 8), 0);
      size_t payload = sz - 48;
      for (int round = 0; round < 3; round++) {
        if (round == 0) {
          spill(pc, orig, sz / 2); /* truncated */
        } else if (round == 1) {
          unsigned char *f = malloc(payload);
          memcpy(f, orig, payload);
          for (int b = 16; b < 32; b++) f[b] ^= 0x5a; /* another UUID */
          spill_entry(pc, f, payload);
          free(f);
        } else {
          unsigned char g[1000];
          for (int b = 0; b < 1000; b++) g[b] = (unsigned char)(b * 37 + 11);
          spill_entry(pc, g, sizeof g); /* garbage, checksum right */
        }
        EXPECT_EQ(saxpy_again(&o, dev, hx, hy, N), 0);
        size_t nz = 0;
        unsigned char *now = slurp(pc, &nz);
        EXPECT_TRUE(now && nz >= 32 + 48 &&
                    memcmp(now + nz - 48, "KERNSUM1", 8) == 0 &&
                    memcmp(now + 16, orig + 16, 16) == 0);
        free(now);
      }
    }
    free(orig);
  }

  /* Debug mode (Note [debug mode on vulkan] in src/emit/common.c): the
   * in-bounds launch gives the unchecked results; an out-of-bounds index is
   * KERN_ERROR_OUT_OF_BOUNDS with the position, index and shape, as on the
   * other backends, and the skipped store or atomic leaves element 0 as it
   * was (the checked index falls back to 0). */
  o.debug = 1;
  ASSERT_EQ(kern_context_new(&o, &ctx), KERN_SUCCESS);
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "saxpy.py", saxpy,
                                         sizeof saxpy - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "saxpy", &k));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &n, &y));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &one, &cnt));
  ASSERT_OK(ctx, kern_array_upload(x, hx, sizeof hx));
  ASSERT_OK(ctx, kern_array_upload(y, hy, sizeof hy));
  ASSERT_OK(ctx, kern_array_zero(cnt));
  kern_arg dargs[] = {kern_arg_array(x), kern_arg_array(y),
                      kern_arg_float(3.0), kern_arg_array(cnt)};
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 4, dargs));
  ASSERT_OK(ctx, kern_array_download(y, back, sizeof back));
  bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != 3.0f * hx[i] + hy[i];
  EXPECT_EQ(bad, 0);
  ASSERT_OK(ctx, kern_array_download(cnt, &c, sizeof c));
  EXPECT_EQ(c, N);
  int64_t over = N + 7;
  EXPECT_STATUS(ctx, kern_launch(k, 1, &over, 4, dargs),
                KERN_ERROR_OUT_OF_BOUNDS);
  EXPECT_CONTAINS(kern_last_error(ctx), "saxpy.py:6:");
  EXPECT_CONTAINS(kern_last_error(ctx), "kernel 'saxpy'");
  EXPECT_CONTAINS(kern_last_error(ctx), "is out of bounds for axis 0 of array");
  EXPECT_CONTAINS(kern_last_error(ctx), "(length 1000, shape (1000,))");
  /* the record was cleared: the next in-bounds launch succeeds */
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 4, dargs));

  static const char ops[] =
      "import warp as wp\n"
      "@wp.kernel\n"
      "def st(y: wp.array(dtype=wp.float32), j: int):\n"
      "    y[j] = 5.0\n"
      "@wp.kernel\n"
      "def ad(a: wp.array(dtype=wp.int32), j: int):\n"
      "    wp.atomic_add(a, j, 1)\n"
      "@wp.kernel\n"
      "def adf(y: wp.array(dtype=wp.float32), j: int):\n"
      "    wp.atomic_add(y, j, 2.0)\n"
      "@wp.kernel\n"
      "def mn(a: wp.array(dtype=wp.int32), j: int):\n"
      "    wp.atomic_min(a, j, -5)\n"
      "@wp.kernel\n"
      "def mx(a: wp.array(dtype=wp.int64), j: int):\n"
      "    wp.atomic_max(a, j, wp.int64(99))\n"
      "@wp.kernel\n"
      "def an(a: wp.array(dtype=wp.uint32), j: int):\n"
      "    wp.atomic_and(a, j, wp.uint32(0))\n"
      "@wp.kernel\n"
      "def vj(k: wp.array(dtype=wp.int32), o: wp.array(dtype=wp.float32)):\n"
      "    i = wp.tid()\n"
      "    v = wp.vec3(1.0, 2.0, 3.0)\n"
      "    o[i] = v[k[i]]\n";
  kern_module *om;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "ops.py", ops,
                                         sizeof ops - 1, &om));
  static const struct { const char *k; kern_type t; } cases[] = {
      {"st", KERN_TYPE_FLOAT32}, {"ad", KERN_TYPE_INT32},
      {"adf", KERN_TYPE_FLOAT32}, {"mn", KERN_TYPE_INT32},
      {"mx", KERN_TYPE_INT64}, {"an", KERN_TYPE_UINT32}};
  for (size_t ci = 0; ci < sizeof cases / sizeof *cases; ci++) {
    kern_kernel *ok;
    ASSERT_OK(ctx, kern_module_get_kernel(om, cases[ci].k, &ok));
    int64_t four = 4;
    kern_array *a;
    ASSERT_OK(ctx, kern_array_new(ctx, dev, cases[ci].t, 1, &four, &a));
    unsigned char init[32], got[32];
    for (int b = 0; b < 32; b++) init[b] = (unsigned char)(0x11 * (b % 8 + 1));
    if (cases[ci].t.scalar == KERN_SCALAR_FLOAT32) {
      float f[4] = {-0.0f, 1.5f, 2.5f, 3.5f}; /* -0.0: + -0.0 keeps it */
      memcpy(init, f, sizeof f);
    }
    size_t bytes = (size_t)(cases[ci].t.scalar == KERN_SCALAR_INT64 ? 32 : 16);
    ASSERT_OK(ctx, kern_array_upload(a, init, bytes));
    int64_t single = 1;
    kern_arg oa[] = {kern_arg_array(a), kern_arg_int(9)};
    EXPECT_STATUS(ctx, kern_launch(ok, 1, &single, 2, oa),
                  KERN_ERROR_OUT_OF_BOUNDS);
    EXPECT_CONTAINS(kern_last_error(ctx), "index 9 is out of bounds");
    ASSERT_OK(ctx, kern_array_download(a, got, bytes));
    if (memcmp(init, got, bytes) != 0)
      fprintf(stderr, "kernel '%s': an out-of-bounds launch changed the "
                      "array\n", cases[ci].k);
    EXPECT_EQ(memcmp(init, got, bytes), 0);
    /* in bounds, the checked operation happens */
    kern_arg ia[] = {kern_arg_array(a), kern_arg_int(0)};
    ASSERT_OK(ctx, kern_launch(ok, 1, &single, 2, ia));
    ASSERT_OK(ctx, kern_array_download(a, got, bytes));
    EXPECT_TRUE(memcmp(init, got, bytes) != 0);
    kern_array_free(a);
  }
  /* a run-time index into a vector: in bounds no report (lavapipe once
   * reported every one), out of bounds the vector's message */
  {
    kern_kernel *vk;
    ASSERT_OK(ctx, kern_module_get_kernel(om, "vj", &vk));
    int64_t three = 3;
    kern_array *ki, *ko;
    ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &three, &ki));
    ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &three, &ko));
    int32_t idx[3] = {2, 0, 1};
    float vo[3];
    ASSERT_OK(ctx, kern_array_upload(ki, idx, sizeof idx));
    kern_arg va[] = {kern_arg_array(ki), kern_arg_array(ko)};
    ASSERT_OK(ctx, kern_launch(vk, 1, &three, 2, va));
    ASSERT_OK(ctx, kern_array_download(ko, vo, sizeof vo));
    EXPECT_TRUE(vo[0] == 3.0f && vo[1] == 1.0f && vo[2] == 2.0f);
    idx[1] = 3;
    ASSERT_OK(ctx, kern_array_upload(ki, idx, sizeof idx));
    EXPECT_STATUS(ctx, kern_launch(vk, 1, &three, 2, va),
                  KERN_ERROR_OUT_OF_BOUNDS);
    EXPECT_CONTAINS(kern_last_error(ctx),
                    "index 3 is out of bounds for axis 0 of vector 'v'");
    kern_array_free(ki);
    kern_array_free(ko);
  }
  kern_context_free(ctx);

  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", cache);
  return kern_test_report("vulkan_backend");
}
