/*
 * test_indexed.c -- wp.indexedarray arguments through the C API, on the CPU
 * and on OpenCL and CUDA where they are there.
 *
 * A kernel reads and writes through a kern_indexed (a data array and an
 * index array per dimension) and must touch exactly the elements the index
 * arrays select; kern_kernel_param reports the parameter as
 * KERN_PARAM_INDEXED; every mistake in the description (no data, freed
 * arrays, index arrays of the wrong type, dimensions or device, one too
 * many, a bad struct_size, a plain array for the parameter) is refused
 * with a message naming the argument; kern_struct_set_indexed writes
 * Warp's 104-byte indexedarray_t at the offsets Warp 1.19's ctypes
 * Structure has; debug mode reports an index array entry outside the data.
 */
#include "test.h"

static const char src[] =
    "import warp as wp\n"
    "\n"
    "@wp.struct\n"
    "class H:\n"
    "    n: int\n"
    "    ia: wp.indexedarray2d(dtype=float)\n"
    "\n"
    "@wp.kernel\n"
    "def scale(a: wp.indexedarray2d(dtype=float), out: wp.array(dtype=int)):\n"
    "    i, j = wp.tid()\n"
    "    a[i, j] = a[i, j] * 10.0\n"
    "    if i == 0 and j == 0:\n"
    "        out[0] = a.shape[0]\n"
    "        out[1] = a.shape[1]\n"
    "\n"
    "@wp.kernel\n"
    "def field(h: H):\n"
    "    i, j = wp.tid()\n"
    "    h.ia[i, j] = h.ia[i, j] + float(h.n)\n";

static void check_data(kern_context *ctx, kern_array *data, const float *want) {
  float got[12];
  ASSERT_OK(ctx, kern_array_download(data, got, sizeof got));
  for (int k = 0; k < 12; k++) ASSERT_EQ(got[k], want[k]);
}

static void on(kern_context *ctx, kern_device dev, const char *what,
               int opencl) {
  kern_module *m;
  kern_kernel *scale;
  static const char cut[] = "\n@wp.kernel\ndef field(";
  size_t len = opencl ? (size_t)(strstr(src, cut) - src) : sizeof src - 1;
  static const char cut2[] = "@wp.struct";
  char text[sizeof src];
  /* OpenCL: neither the struct nor its kernel */
  if (opencl) {
    size_t a = (size_t)(strstr(src, cut2) - src);
    size_t b = (size_t)(strstr(src, "@wp.kernel") - src);
    memcpy(text, src, a);
    memcpy(text + a, src + b, len - b);
    len = a + len - b;
  } else {
    memcpy(text, src, len);
  }
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "indexed.py", text, len, &m));
  ASSERT_OK(ctx, kern_module_get_kernel(m, "scale", &scale));
  kern_param_info pi = KERN_PARAM_INFO_INIT;
  ASSERT_OK(ctx, kern_kernel_param(scale, 0, &pi));
  ASSERT_EQ(pi.kind, KERN_PARAM_INDEXED);
  ASSERT_EQ(pi.ndim, 2);
  ASSERT_EQ(pi.type.scalar, KERN_SCALAR_FLOAT32);

  /* data 3 x 4 = 0..11; rows {2, 0}, every column */
  int64_t shape[2] = {3, 4}, two = 2, three = 3, four = 4;
  float host[12];
  for (int k = 0; k < 12; k++) host[k] = (float)k;
  kern_array *data, *rows, *cols, *out, *f32, *i2d, *bad;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 2, shape, &data));
  ASSERT_OK(ctx, kern_array_upload(data, host, sizeof host));
  int32_t rv[2] = {2, 0}, cv[3] = {3, 1, 0};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &two, &rows));
  ASSERT_OK(ctx, kern_array_upload(rows, rv, sizeof rv));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &three, &cols));
  ASSERT_OK(ctx, kern_array_upload(cols, cv, sizeof cv));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &two, &out));
  kern_indexed ia = KERN_INDEXED_INIT;
  ia.data = data;
  ia.indices[0] = rows;
  kern_arg args[2] = {kern_arg_indexed(&ia), kern_arg_array(out)};
  int64_t dims[2] = {2, 4};
  ASSERT_OK(ctx, kern_launch(scale, 2, dims, 2, args));
  float want[12];
  for (int k = 0; k < 12; k++) want[k] = (float)k * (k < 4 || k >= 8 ? 10 : 1);
  check_data(ctx, data, want);
  int32_t sh[2];
  ASSERT_OK(ctx, kern_array_download(out, sh, sizeof sh));
  ASSERT_EQ(sh[0], 2);
  ASSERT_EQ(sh[1], 4);
  /* both dimensions: rows {2, 0} by columns {3, 1, 0} */
  ia.indices[1] = cols;
  dims[1] = 3;
  ASSERT_OK(ctx, kern_launch(scale, 2, dims, 2, args));
  int sel[6] = {11, 9, 8, 3, 1, 0};
  for (int k = 0; k < 6; k++) want[sel[k]] *= 10;
  check_data(ctx, data, want);
  ASSERT_OK(ctx, kern_array_download(out, sh, sizeof sh));
  ASSERT_EQ(sh[1], 3);

  /* the description's mistakes, each named */
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, &four, &f32));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 2, shape, &i2d));
  kern_indexed b = ia;
  args[0] = kern_arg_indexed(&b);
  b.indices[1] = f32;
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "argument 1 'a': the index array of "
                  "dimension 1 must be a 1-d array of int32, got a 1-d array "
                  "of float32");
  b.indices[1] = i2d;
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "got a 2-d array of int32");
  b = ia;
  b.indices[2] = rows;
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "an index array for dimension 2, but "
                  "the data array has 2 dimensions");
  b = ia;
  b.data = NULL;
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "has no data array");
  b = ia;
  b.data = f32; /* 1-d data for a 2-d parameter */
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "argument 1 'a' expects "
                  "wp.indexedarray(dtype=float32, ndim=2), got a data array "
                  "of float32 with 1 dimension");
  b = ia;
  b.struct_size = 3;
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "KERN_INDEXED_INIT");
  /* a plain array, or an indexed array for a plain array */
  args[0] = kern_arg_array(data);
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "argument 1 'a' expects "
                  "wp.indexedarray(dtype=float32, ndim=2), got a 2-d array "
                  "of float32; pass a kern_indexed with kern_arg_indexed");
  args[0] = kern_arg_indexed(&ia);
  args[1] = kern_arg_indexed(&ia);
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_TYPE_MISMATCH);
  ASSERT_CONTAINS(kern_last_error(ctx), "got an indexed array "
                  "(kern_arg_indexed)");
  args[1] = kern_arg_array(out);
  /* a freed index array */
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &two, &bad));
  b = ia;
  b.indices[0] = bad;
  kern_array_free(bad);
  args[0] = kern_arg_indexed(&b);
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_INVALID_HANDLE);
  ASSERT_CONTAINS(kern_last_error(ctx), "the index array of dimension 0 is "
                  "not a live array");

  /* a struct field: Warp's indexedarray_t at Warp's offsets */
  if (!opencl) {
    kern_kernel *field;
    ASSERT_OK(ctx, kern_module_get_kernel(m, "field", &field));
    ASSERT_OK(ctx, kern_kernel_param(field, 0, &pi));
    ASSERT_EQ(pi.type.rows, 8 + KERN_STRUCT_INDEXED_SIZE); /* Warp: 112 */
    kern_field_info fi = KERN_FIELD_INFO_INIT;
    ASSERT_OK(ctx, kern_kernel_param_field(field, 0, 1, &fi));
    ASSERT_EQ(fi.kind, KERN_PARAM_INDEXED);
    ASSERT_EQ(fi.offset, 8);
    ASSERT_EQ(fi.size, KERN_STRUCT_INDEXED_SIZE);
    unsigned char h[112];
    memset(h, 0, sizeof h);
    int32_t n = 1000;
    memcpy(h, &n, 4);
    ASSERT_OK(ctx, kern_struct_set_indexed(h + 8, &ia));
    int32_t s0, s1, d0;
    memcpy(&d0, h + 8 + 16, 4);  /* array_t shape[0] */
    memcpy(&s0, h + 8 + 88, 4);  /* indexed shape */
    memcpy(&s1, h + 8 + 92, 4);
    ASSERT_EQ(d0, 3);
    ASSERT_EQ(s0, 2);
    ASSERT_EQ(s1, 3);
    uint64_t none;
    memcpy(&none, h + 8 + 56 + 16, 8); /* no index array for dimension 2 */
    ASSERT_EQ(none, 0);
    kern_arg fa = kern_arg_data(h, sizeof h);
    ASSERT_OK(ctx, kern_launch(field, 2, dims, 1, &fa));
    for (int k = 0; k < 6; k++) want[sel[k]] += 1000;
    check_data(ctx, data, want);
    b = ia;
    b.indices[0] = f32;
    kern_clear_error(ctx);
    ASSERT_EQ(kern_struct_set_indexed(h + 8, &b), KERN_ERROR_TYPE_MISMATCH);
    ASSERT_CONTAINS(kern_last_error(ctx), "kern_struct_set_indexed: the index "
                    "array of dimension 0 must be a 1-d array of int32");
  } else {
    unsigned char h[KERN_STRUCT_INDEXED_SIZE];
    kern_clear_error(ctx);
    ASSERT_EQ(kern_struct_set_indexed(h, &ia), KERN_ERROR_UNSUPPORTED);
    /* and the kernel taking a struct that holds one does not load */
    kern_module *whole;
    kern_clear_error(ctx);
    ASSERT_EQ(kern_module_load_string(ctx, dev, "indexed.py", src,
                                      sizeof src - 1, &whole),
              KERN_ERROR_UNSUPPORTED);
    ASSERT_CONTAINS(kern_last_error(ctx), "struct 'H' holds the array field "
                    "'ia'");
  }
  kern_array_free(data);
  kern_array_free(rows);
  kern_array_free(cols);
  kern_array_free(out);
  kern_array_free(f32);
  kern_array_free(i2d);
  kern_module_free(m);
  printf("ok   %s\n", what);
}

/* Debug mode: an index array entry outside the data array is reported. */
static void debug_bounds(void) {
  kern_options o = KERN_OPTIONS_INIT;
  o.debug = 1;
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(&o, &ctx));
  kern_device dev;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &dev));
  kern_module *m;
  size_t len = (size_t)(strstr(src, "@wp.struct") - src);
  char text[sizeof src];
  memcpy(text, src, len);
  const char *k = strstr(src, "@wp.kernel\ndef scale");
  size_t klen = (size_t)(strstr(src, "\n@wp.kernel\ndef field") - k);
  memcpy(text + len, k, klen);
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "indexed.py", text,
                                         len + klen, &m));
  kern_kernel *scale;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "scale", &scale));
  int64_t shape[2] = {3, 4}, two = 2;
  kern_array *data, *rows, *out;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 2, shape, &data));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &two, &rows));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &two, &out));
  int32_t rv[2] = {1, 3}; /* 3 is past the data's 3 rows */
  ASSERT_OK(ctx, kern_array_upload(rows, rv, sizeof rv));
  kern_indexed ia = KERN_INDEXED_INIT;
  ia.data = data;
  ia.indices[0] = rows;
  kern_arg args[2] = {kern_arg_indexed(&ia), kern_arg_array(out)};
  int64_t dims[2] = {2, 4};
  kern_clear_error(ctx);
  ASSERT_EQ(kern_launch(scale, 2, dims, 2, args), KERN_ERROR_OUT_OF_BOUNDS);
  ASSERT_CONTAINS(kern_last_error(ctx), "index 3 is out of bounds for axis 0 "
                  "of array 'a' (length 3)");
  kern_context_free(ctx);
  printf("ok   debug bounds\n");
}

/* A graph keeps the kern_indexed by value: the caller's struct may change
 * or go after the capture and after kern_graph_set_arg. */
static void graph(void) {
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_device dev;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &dev));
  kern_module *m;
  size_t len = (size_t)(strstr(src, "@wp.struct") - src);
  char text[sizeof src];
  memcpy(text, src, len);
  const char *k = strstr(src, "@wp.kernel\ndef scale");
  size_t klen = (size_t)(strstr(src, "\n@wp.kernel\ndef field") - k);
  memcpy(text + len, k, klen);
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "indexed.py", text,
                                         len + klen, &m));
  kern_kernel *scale;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "scale", &scale));
  int64_t shape[2] = {3, 4}, one = 1, two = 2;
  kern_array *data, *r0, *r2, *out;
  float host[12];
  for (int i = 0; i < 12; i++) host[i] = 1;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 2, shape, &data));
  ASSERT_OK(ctx, kern_array_upload(data, host, sizeof host));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &one, &r0));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &one, &r2));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_INT32, 1, &two, &out));
  int32_t v0 = 0, v2 = 2;
  ASSERT_OK(ctx, kern_array_upload(r0, &v0, 4));
  ASSERT_OK(ctx, kern_array_upload(r2, &v2, 4));
  kern_stream *s;
  ASSERT_OK(ctx, kern_stream_new(ctx, dev, &s));
  kern_indexed ia = KERN_INDEXED_INIT;
  ia.data = data;
  ia.indices[0] = r0;
  kern_arg args[2] = {kern_arg_indexed(&ia), kern_arg_array(out)};
  int64_t dims[2] = {1, 4};
  kern_graph *g;
  ASSERT_OK(ctx, kern_graph_begin_capture(s));
  ASSERT_OK(ctx, kern_launch_async(scale, s, 2, dims, 2, args));
  ASSERT_OK(ctx, kern_graph_end_capture(s, &g));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  ia.indices[0] = NULL; /* the graph kept row 0 */
  ia.data = NULL;
  ASSERT_OK(ctx, kern_graph_replay(g, s));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  ASSERT_OK(ctx, kern_array_download(data, host, sizeof host));
  for (int i = 0; i < 12; i++) ASSERT_EQ(host[i], i < 4 ? 10.0f : 1.0f);
  kern_indexed other = KERN_INDEXED_INIT;
  other.data = data;
  other.indices[0] = r2;
  ASSERT_OK(ctx, kern_graph_set_arg(g, 0, 0, kern_arg_indexed(&other)));
  other.indices[0] = r0; /* too late: the graph kept row 2 */
  ASSERT_OK(ctx, kern_graph_replay(g, s));
  ASSERT_OK(ctx, kern_stream_synchronize(s));
  ASSERT_OK(ctx, kern_array_download(data, host, sizeof host));
  for (int i = 0; i < 12; i++)
    ASSERT_EQ(host[i], i < 4 || i >= 8 ? 10.0f : 1.0f);
  kern_graph_free(g);
  kern_stream_free(s);
  kern_context_free(ctx);
  printf("ok   graph\n");
}

int main(void) {
  test_setup();
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_device dev;
  ASSERT_OK(ctx, kern_device_find(ctx, "cpu", &dev));
  on(ctx, dev, "cpu", 0);
  static const char *const others[] = {"opencl", "cuda"};
  for (int i = 0; i < 2; i++) {
    kern_clear_error(ctx);
    if (kern_device_find(ctx, others[i], &dev) == KERN_SUCCESS)
      on(ctx, dev, others[i], i == 0);
    else
      printf("skip %s: %s\n", others[i], kern_last_error(ctx));
  }
  kern_context_free(ctx);
  debug_bounds();
  graph();
  printf("runtime_indexed: all checks passed\n");
  return 0;
}
