/*
 * header_use.c -- include/kern.h used as a program would, compiled by
 * header.sh as strict C11 and as strict C++11 with every warning an error:
 * the header is self-contained and C++-safe, the KERN_<NAME>_INIT
 * initializers and KERN_TYPE_* constants are valid in both languages, and
 * the inline kern_arg_* helpers set struct_size.  Compiled only, except
 * main's checks, which run: they need no device.
 */
#include "kern.h"
#include "kern.h" /* twice: the include guard holds */

static int check(void) {
  kern_options o = KERN_OPTIONS_INIT;
  kern_device_info d = KERN_DEVICE_INFO_INIT;
  kern_backend_info b = KERN_BACKEND_INFO_INIT;
  kern_param_info p = KERN_PARAM_INFO_INIT;
  kern_arg a = KERN_ARG_INIT;
  kern_arg args[4] = {kern_arg_int(1), kern_arg_float(2.0),
                      kern_arg_data(&o, sizeof o), kern_arg_array(NULL)};
  kern_type t = KERN_TYPE_VEC3;
  kern_type m = KERN_TYPE_MAT33D;
  kern_type s = KERN_TYPE_FLOAT32;
  kern_type g = KERN_TYPE_VECTOR(7, KERN_SCALAR_INT64);
  int ok = o.struct_size == sizeof(kern_options) && o.cache_dir == NULL &&
           d.struct_size == sizeof(kern_device_info) &&
           b.struct_size == sizeof(kern_backend_info) &&
           p.struct_size == sizeof(kern_param_info) &&
           a.struct_size == sizeof(kern_arg);
  for (int i = 0; i < 4; i++) ok = ok && args[i].struct_size == sizeof(kern_arg);
  ok = ok && args[2].kind == KERN_ARG_DATA && args[2].size == sizeof o;
  ok = ok && t.kind == KERN_KIND_VECTOR && t.rows == 3 && t.cols == 1 &&
       t.scalar == KERN_SCALAR_FLOAT32;
  ok = ok && m.kind == KERN_KIND_MATRIX && m.rows == 3 && m.cols == 3 &&
       m.scalar == KERN_SCALAR_FLOAT64;
  ok = ok && s.kind == KERN_KIND_SCALAR && s.rows == 1 &&
       g.rows == 7 && g.scalar == KERN_SCALAR_INT64;
  ok = ok && KERN_VERSION_NUMBER == KERN_VERSION_MAJOR * 10000 +
                                        KERN_VERSION_MINOR * 100 +
                                        KERN_VERSION_PATCH;
  return ok;
}

int main(void) { return check() ? 0 : 1; }
