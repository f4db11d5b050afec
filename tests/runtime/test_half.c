/*
 * float16 and bfloat16 through the public API: the conversion functions
 * (exhaustively against the rounding rule), arrays of 16-bit values
 * uploaded and downloaded as bits, and kernels that take float16 scalars
 * and vectors by value (as raw bits with kern_arg_data and as a double
 * with kern_arg_float) and update float16 arrays atomically.
 *
 *   runtime_half [cpu|opencl]   (77 when the device is missing)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "kern.h"
#include "kern_test.h"

static float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Every finite float16 round-trips; the midpoint of two neighbours goes
 * to the even one and its float32 neighbours to the nearer one. */
static void check_float16_conversions(void) {
  int bad_trip = 0, bad_tie = 0;
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = kern_float16_to_float((uint16_t)h);
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) {
      if (!isnan(f)) bad_trip++;
      continue;
    }
    if (kern_float16_from_float(f) != h) bad_trip++;
    if ((h & 0x7fff) >= 0x7bff) continue; /* no finite upper neighbour */
    float g = kern_float16_to_float((uint16_t)(h + 1));
    float mid = (f + g) / 2; /* exact: halves have 11 significant bits */
    uint16_t even = (h & 1) ? (uint16_t)(h + 1) : (uint16_t)h;
    if (kern_float16_from_float(mid) != even) bad_tie++;
    if (kern_float16_from_float(nextafterf(mid, f)) != h) bad_tie++;
    if (kern_float16_from_float(nextafterf(mid, g)) != (uint16_t)(h + 1)) bad_tie++;
  }
  EXPECT_EQ(bad_trip, 0);
  EXPECT_EQ(bad_tie, 0);
  EXPECT_EQ(kern_float16_from_float(2049.0f), 0x6800);
  EXPECT_EQ(kern_float16_from_float(2051.0f), 0x6802);
  EXPECT_EQ(kern_float16_from_float(65504.0f), 0x7bff);
  EXPECT_EQ(kern_float16_from_float(65519.99f), 0x7bff);
  EXPECT_EQ(kern_float16_from_float(65520.0f), 0x7c00);
  EXPECT_EQ(kern_float16_from_float(-1e30f), 0xfc00);
  EXPECT_EQ(kern_float16_from_float(0x1p-25f), 0x0000);
  EXPECT_EQ(kern_float16_from_float(0x1.000002p-25f), 0x0001);
  EXPECT_EQ(kern_float16_from_float(0x3p-25f), 0x0002);
  EXPECT_EQ(kern_float16_from_float(-0.0f), 0x8000);
  EXPECT_TRUE(isnan(kern_float16_to_float(kern_float16_from_float(NAN))));
  EXPECT_TRUE(isinf(kern_float16_to_float(0x7c00)));
}

/* bfloat16 is the upper half of a float32, rounded to nearest even. */
static void check_bfloat16_conversions(void) {
  int bad = 0;
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = kern_bfloat16_to_float((uint16_t)h);
    if (isnan(f)) {
      if (!isnan(kern_bfloat16_to_float(kern_bfloat16_from_float(f)))) bad++;
      continue;
    }
    if (kern_bfloat16_from_float(f) != h) bad++;
    if ((h & 0x7f80) == 0x7f80 || (h & 0x7fff) == 0x7f7f) continue;
    uint32_t lo = h << 16;
    uint16_t even = (h & 1) ? (uint16_t)(h + 1) : (uint16_t)h;
    if (kern_bfloat16_from_float(f32_of(lo + 0x8000)) != even) bad++;
    if (kern_bfloat16_from_float(f32_of(lo + 0x7fff)) != h) bad++;
    if (kern_bfloat16_from_float(f32_of(lo + 0x8001)) != (uint16_t)(h + 1)) bad++;
  }
  EXPECT_EQ(bad, 0);
  /* a NaN whose payload sits in the dropped bits stays a NaN */
  EXPECT_TRUE(isnan(kern_bfloat16_to_float(kern_bfloat16_from_float(f32_of(0x7f800001)))));
  EXPECT_EQ(kern_bfloat16_from_float(257.0f), 0x4380); /* 256: ties to even */
}

static const char src[] =
    "import warp as wp\n"
    "@wp.kernel\n"
    "def axpy(s: wp.float16, v: wp.vec3h, x: wp.array(dtype=wp.float16),\n"
    "         y: wp.array(dtype=wp.float16), sum: wp.array(dtype=wp.float16)):\n"
    "    i = wp.tid()\n"
    "    y[i] = s * x[i] + v[i % 3]\n"
    "    wp.atomic_add(sum, i % 3, wp.float16(0.5))\n"
    "@wp.kernel\n"
    "def conv(h: wp.array(dtype=wp.float16), b: wp.array(dtype=wp.bfloat16),\n"
    "         f: wp.array(dtype=float), hf: wp.array(dtype=float), bf: wp.array(dtype=float),\n"
    "         fh: wp.array(dtype=wp.float16), fb: wp.array(dtype=wp.bfloat16)):\n"
    "    i = wp.tid()\n"
    "    hf[i] = float(h[i])\n"
    "    bf[i] = float(b[i])\n"
    "    fh[i] = wp.float16(f[i])\n"
    "    fb[i] = wp.bfloat16(f[i])\n";

/* The generated code's conversions, for every 16-bit pattern and for
 * float32 values at and next to every float16 rounding boundary, agree
 * with the library's. */
static void check_generated_conversions(kern_context *ctx, kern_module *m,
                                        kern_device dev) {
  enum { N = 65536 * 3 };
  static uint16_t h[N], b[N], fh[N], fb[N];
  static float f[N], hf[N], bf[N];
  for (int i = 0; i < N; i++) {
    uint16_t u = (uint16_t)(i % 65536);
    h[i] = b[i] = u;
    /* midpoints between neighbours and the floats either side */
    float lo = kern_float16_to_float(u);
    float hi = kern_float16_to_float((uint16_t)(u + 1));
    float mid = isfinite(lo) && isfinite(hi) && (u & 0x7fff) != 0x7fff ? (lo + hi) / 2 : lo;
    int k = i / 65536;
    f[i] = k == 0 ? mid : k == 1 ? nextafterf(mid, INFINITY) : nextafterf(mid, -INFINITY);
  }
  int64_t n = N;
  kern_array *a[7];
  const kern_type ts[7] = {KERN_TYPE_FLOAT16, KERN_TYPE_BFLOAT16, KERN_TYPE_FLOAT32,
                           KERN_TYPE_FLOAT32, KERN_TYPE_FLOAT32, KERN_TYPE_FLOAT16,
                           KERN_TYPE_BFLOAT16};
  for (int i = 0; i < 7; i++)
    ASSERT_OK(ctx, kern_array_new(ctx, dev, ts[i], 1, &n, &a[i]));
  ASSERT_OK(ctx, kern_array_upload(a[0], h, sizeof h));
  ASSERT_OK(ctx, kern_array_upload(a[1], b, sizeof b));
  ASSERT_OK(ctx, kern_array_upload(a[2], f, sizeof f));
  kern_kernel *k = NULL;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "conv", &k));
  kern_arg args[7];
  for (int i = 0; i < 7; i++) args[i] = kern_arg_array(a[i]);
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 7, args));
  ASSERT_OK(ctx, kern_array_download(a[3], hf, sizeof hf));
  ASSERT_OK(ctx, kern_array_download(a[4], bf, sizeof bf));
  ASSERT_OK(ctx, kern_array_download(a[5], fh, sizeof fh));
  ASSERT_OK(ctx, kern_array_download(a[6], fb, sizeof fb));
  int bad_hf = 0, bad_bf = 0, bad_fh = 0, bad_fb = 0;
  for (int i = 0; i < N; i++) {
    float want = kern_float16_to_float(h[i]);
    if (isnan(want) ? !isnan(hf[i]) : memcmp(&want, &hf[i], 4) != 0) bad_hf++;
    want = kern_bfloat16_to_float(b[i]);
    if (isnan(want) ? !isnan(bf[i]) : memcmp(&want, &bf[i], 4) != 0) bad_bf++;
    uint16_t w16 = kern_float16_from_float(f[i]);
    /* a NaN's payload may differ by target (CUDA's cvt gives one NaN) */
    if (isnan(f[i]) ? (fh[i] & 0x7c00) != 0x7c00 || !(fh[i] & 0x3ff) : fh[i] != w16) bad_fh++;
    w16 = kern_bfloat16_from_float(f[i]);
    if (isnan(f[i]) ? !isnan(kern_bfloat16_to_float(fb[i])) : fb[i] != w16) bad_fb++;
  }
  EXPECT_EQ(bad_hf, 0);
  EXPECT_EQ(bad_bf, 0);
  EXPECT_EQ(bad_fh, 0);
  EXPECT_EQ(bad_fb, 0);
}

static void check_kernels(const char *devname) {
  kern_context *ctx = NULL;
  kern_device dev;
  ASSERT_EQ(kern_context_new(NULL, &ctx), KERN_SUCCESS);
  if (kern_device_find(ctx, devname, &dev) != KERN_SUCCESS) {
    printf("skip: no %s device\n", devname);
    kern_context_free(ctx);
    exit(77);
  }
  kern_module *m = NULL;
  kern_kernel *k = NULL;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "half.py", src, sizeof src - 1, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "axpy", &k));
  check_generated_conversions(ctx, m, dev);
  enum { N = 1001 }; /* odd: the last element's word is half outside */
  int64_t n = N, three = 3;
  kern_array *x, *y, *sum;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT16, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT16, 1, &n, &y));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT16, 1, &three, &sum));
  EXPECT_EQ(kern_array_nbytes(x), (size_t)N * 2);
  static uint16_t hx[N], hy[N];
  uint16_t hs[3] = {0, 0, 0};
  for (int i = 0; i < N; i++)
    hx[i] = kern_float16_from_float((float)i * 0.37f - 100.0f);
  ASSERT_OK(ctx, kern_array_upload(x, hx, sizeof hx));
  ASSERT_OK(ctx, kern_array_upload(sum, hs, sizeof hs));
  uint16_t s = kern_float16_from_float(1.5f);
  uint16_t v[3] = {kern_float16_from_float(0.25f), kern_float16_from_float(-3.0f),
                   kern_float16_from_float(1000.0f)};
  kern_arg args[5] = {kern_arg_data(&s, 2), kern_arg_data(v, 6), kern_arg_array(x),
                      kern_arg_array(y), kern_arg_array(sum)};
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 5, args));
  ASSERT_OK(ctx, kern_array_download(y, hy, sizeof hy));
  ASSERT_OK(ctx, kern_array_download(sum, hs, sizeof hs));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    /* each operation rounded to float16, as Warp computes */
    float p = kern_float16_to_float(kern_float16_from_float(
        kern_float16_to_float(s) * kern_float16_to_float(hx[i])));
    uint16_t want = kern_float16_from_float(p + kern_float16_to_float(v[i % 3]));
    if (hy[i] != want) bad++;
  }
  EXPECT_EQ(bad, 0);
  /* 334, 334 and 333 additions of 0.5: exact in float16 */
  EXPECT_EQ(hs[0], kern_float16_from_float(167.0f));
  EXPECT_EQ(hs[1], kern_float16_from_float(167.0f));
  EXPECT_EQ(hs[2], kern_float16_from_float(166.5f));

  /* A double for a float16 parameter is rounded through float32. */
  args[0] = kern_arg_float(2049.0);
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 5, args));
  ASSERT_OK(ctx, kern_array_download(y, hy, sizeof hy));
  float p = kern_float16_to_float(kern_float16_from_float(2048.0f * kern_float16_to_float(hx[1])));
  EXPECT_EQ(hy[1], kern_float16_from_float(p + kern_float16_to_float(v[1])));
  /* two bytes are a float16; four are not */
  float four = 1.5f;
  args[0] = kern_arg_data(&four, 4);
  EXPECT_STATUS(ctx, kern_launch(k, 1, &n, 5, args), KERN_ERROR_TYPE_MISMATCH);
  char name[32];
  EXPECT_STREQ(kern_type_name(KERN_TYPE_VEC3H, name, sizeof name), "vec3h");
  kern_type t;
  EXPECT_EQ(kern_type_parse("wp.bfloat16", &t), KERN_SUCCESS);
  EXPECT_EQ(t.scalar, KERN_SCALAR_BFLOAT16);
  EXPECT_EQ(kern_type_size(KERN_TYPE_VEC3H), (size_t)6);
  kern_context_free(ctx);
}

int main(int argc, char **argv) {
  const char *dev = argc > 1 ? argv[1] : "cpu";
  check_float16_conversions();
  check_bfloat16_conversions();
  check_kernels(dev);
  return kern_test_report("runtime_half");
}
