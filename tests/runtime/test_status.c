/* Status strings, type sizes, names and parsing. */
#include "test.h"

static kern_type T(kern_kind k, kern_scalar s, int r, int c) {
  kern_type t = {k, s, r, c};
  return t;
}

static void check_name(kern_type t, const char *want) {
  char buf[80];
  ASSERT_STREQ(kern_type_name(t, buf, sizeof buf), want);
}

static void check_parse(const char *name, kern_type want) {
  kern_type t;
  ASSERT_EQ(kern_type_parse(name, &t), KERN_SUCCESS);
  ASSERT_EQ(t.kind, want.kind);
  ASSERT_EQ(t.scalar, want.scalar);
  ASSERT_EQ(t.rows, want.rows);
  ASSERT_EQ(t.cols, want.cols);
}

int main(void) {
  ASSERT_STREQ(kern_status_string(KERN_SUCCESS), "success");
  ASSERT_STREQ(kern_status_string(KERN_ERROR_OUT_OF_MEMORY), "out of memory");
  ASSERT_STREQ(kern_status_string(KERN_ERROR_CACHE), "kernel cache error");
  ASSERT_STREQ(kern_status_name(KERN_ERROR_OUT_OF_MEMORY),
                "ERROR_OUT_OF_MEMORY");
  ASSERT_STREQ(kern_status_name(KERN_ERROR_TOOLCHAIN), "ERROR_TOOLCHAIN");
  ASSERT_STREQ(kern_status_string(KERN_STATUS_COUNT), "unknown status");
  ASSERT_STREQ(kern_status_string((kern_status)-1), "unknown status");
  for (int s = 0; s < KERN_STATUS_COUNT; s++) {
    ASSERT(kern_status_string((kern_status)s)[0] != 0);
    ASSERT(kern_status_name((kern_status)s)[0] != 0);
  }

  ASSERT_EQ(kern_scalar_size(KERN_SCALAR_BOOL), 1);
  ASSERT_EQ(kern_scalar_size(KERN_SCALAR_UINT16), 2);
  ASSERT_EQ(kern_scalar_size(KERN_SCALAR_FLOAT64), 8);
  ASSERT_STREQ(kern_scalar_name(KERN_SCALAR_UINT32), "uint32");
  ASSERT_EQ(kern_type_size(T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 3, 1)), 12);
  ASSERT_EQ(kern_type_size(T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT64, 3, 3)), 72);
  ASSERT_EQ(kern_type_size(T(KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 3, 1)), 0);
  ASSERT_EQ(kern_type_size(T(KERN_KIND_VECTOR, KERN_SCALAR_COUNT, 3, 1)), 0);

  check_name(T(KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1), "float32");
  check_name(T(KERN_KIND_SCALAR, KERN_SCALAR_BOOL, 1, 1), "bool");
  check_name(T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 3, 1), "vec3");
  check_name(T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT64, 3, 1), "vec3d");
  check_name(T(KERN_KIND_VECTOR, KERN_SCALAR_INT32, 2, 1), "vec2i");
  check_name(T(KERN_KIND_VECTOR, KERN_SCALAR_UINT8, 4, 1), "vec4ub");
  check_name(T(KERN_KIND_VECTOR, KERN_SCALAR_UINT64, 4, 1), "vec4ul");
  check_name(T(KERN_KIND_VECTOR, KERN_SCALAR_INT16, 2, 1), "vec2s");
  check_name(T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT32, 3, 3), "mat33");
  check_name(T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT64, 4, 4), "mat44d");
  check_name(T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 5, 1),
             "vector(length=5, dtype=float32)");
  check_name(T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT32, 2, 3),
             "matrix(shape=(2, 3), dtype=float32)");
  check_name(T(KERN_KIND_VECTOR, KERN_SCALAR_BOOL, 3, 1),
             "vector(length=3, dtype=bool)");
  char small[5];
  kern_type_name(T(KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1), small, sizeof small);
  ASSERT_STREQ(small, "floa"); /* truncated, still terminated */

  check_parse("float32", T(KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1));
  check_parse("wp.float64", T(KERN_KIND_SCALAR, KERN_SCALAR_FLOAT64, 1, 1));
  check_parse("int", T(KERN_KIND_SCALAR, KERN_SCALAR_INT32, 1, 1));
  check_parse("float", T(KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1));
  check_parse("bool", T(KERN_KIND_SCALAR, KERN_SCALAR_BOOL, 1, 1));
  check_parse("wp.uint8", T(KERN_KIND_SCALAR, KERN_SCALAR_UINT8, 1, 1));
  check_parse("vec3", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 3, 1));
  check_parse("wp.vec3f", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 3, 1));
  check_parse("wp.vec2d", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT64, 2, 1));
  check_parse("vec4i", T(KERN_KIND_VECTOR, KERN_SCALAR_INT32, 4, 1));
  check_parse("vec3ui", T(KERN_KIND_VECTOR, KERN_SCALAR_UINT32, 3, 1));
  check_parse("wp.mat33d", T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT64, 3, 3));
  check_parse("mat22", T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT32, 2, 2));
  check_parse("wp.spatial_vector", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 6, 1));
  check_parse("spatial_vectord", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT64, 6, 1));
  check_parse("spatial_matrixf", T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT32, 6, 6));
  check_parse("wp.spatial_matrixd", T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT64, 6, 6));
  kern_type t;
  check_parse("spatial_vectorh", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT16, 6, 1));
  check_parse("wp.spatial_matrixh", T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT16, 6, 6));
  ASSERT_EQ(kern_type_parse("spatial_vectori", &t), KERN_ERROR_INVALID_ARGUMENT);
  /* sizes Warp has no alias for: vecN and matRxC with Warp's suffixes */
  check_parse("vec5", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 5, 1));
  check_parse("vec1", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT32, 1, 1));
  check_parse("wp.vec9i", T(KERN_KIND_VECTOR, KERN_SCALAR_INT32, 9, 1));
  check_parse("vec10d", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT64, 10, 1));
  check_parse("mat10x3d", T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT64, 10, 3));
  check_parse("mat2x6", T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT32, 2, 6));
  check_parse("vector(length=7, dtype=uint8)",
              T(KERN_KIND_VECTOR, KERN_SCALAR_UINT8, 7, 1));
  check_parse("matrix(shape=(5, 1), dtype=bool)",
              T(KERN_KIND_MATRIX, KERN_SCALAR_BOOL, 5, 1));
  ASSERT_EQ(kern_type_parse("mat23", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("vec0", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("vec5000", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("vec99999999999", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("mat0x3", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("mat100x100", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("mat3x", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("vec5q", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("vector(length=5, dtype=float32) ", &t),
            KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("vector(length=5, dtype=vec3)", &t),
            KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("matrix(shape=(0, 2), dtype=float32)", &t),
            KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_size(T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT64, 10, 3)), 240);
  ASSERT_EQ(kern_type_size(T(KERN_KIND_MATRIX, KERN_SCALAR_FLOAT32, 65, 64)), 0);
  check_parse("vec3h", T(KERN_KIND_VECTOR, KERN_SCALAR_FLOAT16, 3, 1));
  check_parse("wp.float16", T(KERN_KIND_SCALAR, KERN_SCALAR_FLOAT16, 1, 1));
  check_parse("bfloat16", T(KERN_KIND_SCALAR, KERN_SCALAR_BFLOAT16, 1, 1));
  ASSERT_EQ(kern_type_parse("vec3bf", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("half", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("wp.", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse("float32 ", &t), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_type_parse(NULL, &t), KERN_ERROR_INVALID_ARGUMENT);

  /* Every name we print parses back to the type, aliases and Warp's
   * long spellings of other sizes alike. */
  for (int s = 0; s < KERN_SCALAR_COUNT; s++)
    for (int k = 0; k < 3; k++)
      for (int n = 1; n <= 11; n++) {
        kern_type a = k == 0 ? T(KERN_KIND_SCALAR, (kern_scalar)s, 1, 1)
                      : k == 1 ? T(KERN_KIND_VECTOR, (kern_scalar)s, n, 1)
                               : T(KERN_KIND_MATRIX, (kern_scalar)s, n, 12 - n);
        char buf[80];
        kern_type_name(a, buf, sizeof buf);
        check_parse(buf, a);
      }
  puts("ok");
  return 0;
}
