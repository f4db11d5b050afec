/* synth_args.h -- the launch arguments of a kern synth kernel, made exactly
 * as `kern synth --validate run` makes them (synth_fill_input for inputs,
 * each output filled with its recorded value), for the tests that run
 * generated kernels against Warp's stored results (warp_golden_test.c,
 * warp_diff_test.c).  Include after kern.h, kern_test.h and synth.h. */
#ifndef KERN_TESTS_SYNTH_ARGS_H
#define KERN_TESTS_SYNTH_ARGS_H

static kern_type elem(const synth_arg *a) {
  switch (a->kind) {
  case SA_INT_ARRAY: case SA_INT_OUT: case SA_INT_VALUE: return KERN_TYPE_INT32;
  case SA_VEC3_ARRAY: case SA_VEC3_OUT: return KERN_TYPE_VEC3;
  case SA_MAT33_ARRAY: return KERN_TYPE_MAT33;
  default: return KERN_TYPE_FLOAT32;
  }
}
static int is_out(const synth_arg *a) {
  return a->kind == SA_FLOAT_OUT || a->kind == SA_INT_OUT || a->kind == SA_VEC3_OUT;
}
static int64_t nscalars(const synth_arg *a) {
  kern_type t = elem(a);
  return a->shape[0] * (a->ndim == 2 ? a->shape[1] : 1) * t.rows * t.cols;
}

/* Fills args (and arr, the arrays it made, NULL for value arguments) for
 * kernel k on device dev.  The caller frees the arrays. */
static void synth_make_args(kern_context *ctx, kern_device dev, const synth_kernel *k,
                            kern_array **arr, kern_arg *args) {
  for (int a = 0; a < k->nargs; a++) {
    const synth_arg *sa = &k->args[a];
    if (sa->kind == SA_FLOAT_VALUE) {
      args[a] = kern_arg_float(sa->fill);
      continue;
    }
    if (sa->kind == SA_INT_VALUE) {
      args[a] = kern_arg_int((int64_t)sa->fill);
      continue;
    }
    ASSERT_OK(ctx, kern_array_new(ctx, dev, elem(sa), sa->ndim, sa->shape, &arr[a]));
    int64_t ns = nscalars(sa);
    void *host = calloc((size_t)ns, 4);
    ASSERT(host != NULL);
    if (is_out(sa)) {
      for (int64_t i = 0; i < ns; i++) {
        if (sa->kind == SA_INT_OUT) ((int32_t *)host)[i] = (int32_t)sa->fill;
        else ((float *)host)[i] = (float)sa->fill;
      }
    } else {
      synth_fill_input(sa, host, ns);
    }
    ASSERT_OK(ctx, kern_array_upload(arr[a], host, (size_t)ns * 4));
    free(host);
    args[a] = kern_arg_array(arr[a]);
  }
}

#endif
