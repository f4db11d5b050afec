/*
 * test_autodiff.c -- kern_kernel_adjoint (runtime/autodiff.c, Note
 * [adjoint] in ir/adjoint.c) through the C API:
 *
 *  - the adjoint kernel's name, parameters (the forward ones, then adj_P),
 *    the same handle on a second call, a NULL adj_ array skipped, no
 *    adjoint of an adjoint;
 *  - gradients against central finite differences in float64 on kernels
 *    of arithmetic, math builtins, vectors, a branch, a dynamic loop (a
 *    sum: Warp's replay of loop-carried variables is exact only for
 *    those, tests/autodiff/loop_carried.py), a function call (also one
 *    with dynamic loops, Note [loops in functions]), atomics and
 *    the decompositions (wp.svd3, svd2, qr3, eig3): loss = sum(w * out), dloss/dx from the
 *    adjoint launch against (loss(x + h) - loss(x - h)) / 2h;
 *  - an array of structs' adjoint and tangent, arrays of the same structs
 *    (aos_api);
 *  - Perlin noise in float32 (noise_api): the tangent against central
 *    differences and <J v, w> = <v, J^T w> against the adjoint;
 *  - what autodiff does not cover yet is refused with a compile error at
 *    its line: "autodiff of X is not supported yet".
 *
 * usage: test_autodiff [cpu|opencl]  (opencl: skipped, 77, without one)
 */
#include <math.h>
#include <stdbool.h>
#include "test.h"

static const char fd_src[] =
    "import warp as wp\n"
    "\n"
    "@wp.func\n"
    "def g(v: wp.float64, c: wp.float64):\n"
    "    t = v * c\n"
    "    return wp.sin(t) + t * t\n"
    "\n"
    "@wp.kernel\n"
    "def k_math(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    v = x[i] + wp.float64(0.5)\n"
    "    out[i] = wp.sin(v) * wp.exp(wp.float64(0.3) * v) + wp.sqrt(v * v + wp.float64(1.0)) + wp.atan2(v, wp.float64(2.0)) + wp.tanh(v) * wp.pow(v, wp.float64(2.5)) - wp.log(v) / (wp.float64(1.0) + wp.cos(v) * wp.cos(v))\n"
    "\n"
    "@wp.kernel\n"
    "def k_vec(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    v = wp.vec3d(x[i], x[i] * wp.float64(2.0), wp.float64(1.0))\n"
    "    m = wp.mat33d(x[i], wp.float64(1.0), wp.float64(0.0), wp.float64(0.5), x[i] * x[i], wp.float64(1.0), wp.float64(0.0), wp.float64(2.0), wp.float64(3.0))\n"
    "    w = m * wp.cross(v, wp.vec3d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0)))\n"
    "    out[i] = wp.length(w) + wp.dot(wp.normalize(v), w) + wp.determinant(m)\n"
    "\n"
    "@wp.kernel\n"
    "def k_branch(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    v = x[i]\n"
    "    y = v * wp.float64(3.0)\n"
    "    if i % 2 == 0:\n"
    "        y = v * v * v\n"
    "    else:\n"
    "        y = wp.sin(y) * v\n"
    "    out[i] = wp.max(y, wp.float64(-10.0)) + wp.min(v, wp.float64(100.0))\n"
    "\n"
    "@wp.kernel\n"
    "def k_loop(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    p = x[i]\n"
    "    for k in range(3):\n"
    "        p = p * (x[i] + wp.float64(k))\n"
    "    s = wp.float64(0.0)\n"
    "    for j in range(n):\n"
    "        t = x[j] * p\n"
    "        s = s + wp.sin(t) + g(x[j], wp.float64(0.5))\n"
    "    out[i] = s + p\n"
    "\n"
    "@wp.kernel\n"
    "def k_atomic(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    wp.atomic_add(out, 0, x[i] * x[i] * x[i])\n"
    "    wp.atomic_sub(out, i, g(x[i], wp.float64(2.0)))\n"
    "    out[(i + 1) % n] += wp.exp(x[i])\n"
    "\n"
    "# a zero adjoint through a branch not taken with an infinite partial\n"
    "# (normalize of a zero vector: g / 0), piecewise constant builtins, a\n"
    "# float from no float (wp.randf), a random vector: no NaN, no refusal\n"
    "@wp.kernel\n"
    "def k_zero(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    state = wp.rand_init(7, i)\n"
    "    v1 = wp.where(x[i] > wp.float64(100.0), x[i], wp.float64(0.0))\n"
    "    u = wp.normalize(wp.vec3d(x[i], x[i], x[i]) * v1)\n"
    "    r = wp.sqrt(x[i] * v1)\n"
    "    out[i] = x[i] * x[i] + wp.sign(x[i]) + wp.step(x[i]) + x[i] // wp.float64(0.25) + wp.float64(wp.randf(state))\n"
    "    p = wp.sample_unit_sphere(state)\n"
    "    out[i] += x[i] * wp.float64(p[0] + p[1] * 2.0)\n"
    "\n"
    "# a continue and a return that end only some paths of their branch\n"
    "@wp.kernel\n"
    "def k_paths(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    s = x[i] + wp.float64(0.5)\n"
    "    for k in range(4):\n"
    "        if (k + i) % 2 == 0:\n"
    "            s = s * wp.float64(0.75) + wp.sin(s)\n"
    "            if k == 2:\n"
    "                continue\n"
    "            s = s * s\n"
    "        s = s * wp.float64(0.5) + x[i]\n"
    "    if i % 3 != 1:\n"
    "        s = wp.exp(s * wp.float64(0.1))\n"
    "        if i == 2:\n"
    "            out[i] = s * x[i]\n"
    "            return\n"
    "        s = s + x[i] * x[i]\n"
    "    out[i] = s * wp.cos(x[i])\n"
    "\n"
    "# a return in a range() Warp unrolls, of a kernel and of a function\n"
    "@wp.func\n"
    "def g_over(v: wp.float64, t: wp.float64):\n"
    "    s = wp.float64(1.0)\n"
    "    for k in range(4):\n"
    "        s = s * v + wp.float64(0.5)\n"
    "        if s > t:\n"
    "            return s * wp.float64(3.0)\n"
    "    return s + v\n"
    "\n"
    "@wp.kernel\n"
    "def k_uret(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    s = g_over(x[i] * wp.float64(0.3) + wp.float64(0.7), wp.float64(2.2))\n"
    "    for k in range(3):\n"
    "        s = s * wp.sin(x[i] + wp.float64(k))\n"
    "        if k == i:\n"
    "            out[i] = s\n"
    "            return\n"
    "    out[i] = s * x[i]\n"
    "\n"
    "# forward mode only: the adjoint refuses break, continue and a return in a loop\n"
    "@wp.kernel\n"
    "def k_jump(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    s = wp.float64(0.0)\n"
    "    for j in range(n):\n"
    "        if j == i:\n"
    "            continue\n"
    "        s = s + x[j] * wp.cos(x[i])\n"
    "        if s > wp.float64(2.0):\n"
    "            break\n"
    "    k = 0\n"
    "    while s < wp.float64(9.0):\n"
    "        s = s * wp.float64(1.5) + wp.abs(x[i]) + wp.float64(0.1)\n"
    "        k = k + 1\n"
    "        if i == 5 and k == 2:\n"
    "            out[i] = s * s\n"
    "            return\n"
    "    out[i] = wp.clamp(s, wp.float64(0.0), wp.float64(100.0)) + wp.max(x[i], wp.float64(0.5))\n"
    "\n"
    "# a sum carried by a dynamic loop in a function, whose result the caller\n"
    "# reads (Note [loops in functions]): exact, as Warp's\n"
    "@wp.func\n"
    "def fsum(v: wp.float64, n: int):\n"
    "    s = wp.float64(0.0)\n"
    "    k = 0\n"
    "    while k < 2:\n"
    "        s = s + v * v\n"
    "        k = k + 1\n"
    "    for j in range(n):\n"
    "        s = s + wp.sin(v * wp.float64(j + 1))\n"
    "    return s\n"
    "\n"
    "@wp.kernel\n"
    "def k_floop(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    s = fsum(x[i], n)\n"
    "    out[i] = s * s * x[i]\n"
    "\n"
    "# the decompositions (Note [linalg adjoints]): distinct singular values\n"
    "# and eigenvalues, eig3 of a symmetric matrix\n"
    "@wp.kernel\n"
    "def k_linalg(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    t = x[i]\n"
    "    A = wp.mat33d(t + wp.float64(3.0), wp.float64(0.2), t * wp.float64(0.5), wp.float64(-0.1), wp.float64(1.0) + t * t, wp.float64(0.3), wp.float64(0.4), t, wp.float64(-2.0))\n"
    "    U, s, V = wp.svd3(A)\n"
    "    Q, R = wp.qr3(A)\n"
    "    E, d = wp.eig3(A + wp.transpose(A))\n"
    "    U2, s2, V2 = wp.svd2(wp.mat22d(t + wp.float64(2.0), wp.float64(0.3), t * t, wp.float64(-1.0)))\n"
    "    out[i] = s[0] * s[2] + U[0, 1] * V[1, 2] + Q[2, 1] + R[0, 2] * R[1, 1] + d[1] * E[0, 2] + s2[1] + U2[1, 0] * V2[0, 1]\n"
    "\n"
    "# the 4x4 determinant and inverse (Note [4x4 inverse] in ir/expand.c)\n"
    "@wp.kernel\n"
    "def k_mat4(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), n: int):\n"
    "    i = wp.tid()\n"
    "    t = x[i]\n"
    "    o = wp.float64(1.0)\n"
    "    A = wp.mat44d(t + wp.float64(3.0), o, t * t, wp.float64(0.2), wp.float64(0.5), o + t, o, wp.float64(-0.3), t, wp.float64(0.1), wp.float64(2.0), t * wp.float64(0.5), o, wp.float64(-1.0), wp.float64(0.4), t + wp.float64(4.0))\n"
    "    B = wp.inverse(A)\n"
    "    out[i] = wp.determinant(A) * wp.float64(0.1) + B[0, 1] + B[2, 3] * wp.float64(3.0) + B[3, 0] * B[1, 1]\n";

#define N 6

static kern_context *ctx;
static kern_device dev;

static kern_array *arr(const double *v, int n) {
  kern_array *a;
  int64_t shape[1] = {n};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT64, 1, shape, &a));
  ASSERT_OK(ctx, kern_array_upload(a, v, sizeof(double) * (size_t)n));
  return a;
}

static const double wts[N] = {1.0, -0.5, 2.0, 0.25, 1.5, -1.0};

/* loss = sum(w * out) after a forward launch on x */
static double loss(kern_kernel *k, const double *x) {
  double zero[N] = {0}, out[N];
  kern_array *xa = arr(x, N), *oa = arr(zero, N);
  kern_arg args[3] = {kern_arg_array(xa), kern_arg_array(oa), kern_arg_int(N)};
  int64_t dims[1] = {N};
  ASSERT_OK(ctx, kern_launch(k, 1, dims, 3, args));
  ASSERT_OK(ctx, kern_array_download(oa, out, sizeof out));
  kern_array_free(xa);
  kern_array_free(oa);
  double s = 0;
  for (int i = 0; i < N; i++) s += wts[i] * out[i];
  return s;
}

static void finite_differences(kern_module *m, const char *name) {
  kern_kernel *k, *a;
  ASSERT_OK(ctx, kern_module_get_kernel(m, name, &k));
  ASSERT_OK(ctx, kern_kernel_adjoint(k, &a));
  double x[N] = {0.3, 0.7, 1.1, 0.45, 0.9, 1.35}, zero[N] = {0};
  /* the forward launch, then the adjoint on the same arrays (wp.Tape) */
  kern_array *xa = arr(x, N), *oa = arr(zero, N), *gx = arr(zero, N),
             *go = arr(wts, N);
  kern_arg args[6] = {kern_arg_array(xa), kern_arg_array(oa), kern_arg_int(N),
                      kern_arg_array(gx), kern_arg_array(go), kern_arg_int(0)};
  int64_t dims[1] = {N};
  ASSERT_OK(ctx, kern_launch(k, 1, dims, 3, args));
  ASSERT_OK(ctx, kern_launch(a, 1, dims, 6, args));
  double grad[N];
  ASSERT_OK(ctx, kern_array_download(gx, grad, sizeof grad));
  for (int j = 0; j < N; j++) {
    const double h = 1e-6;
    double xp[N], xm[N];
    memcpy(xp, x, sizeof x);
    memcpy(xm, x, sizeof x);
    xp[j] += h;
    xm[j] -= h;
    double fd = (loss(k, xp) - loss(k, xm)) / (2 * h);
    double tol = 1e-6 * (1 + fabs(fd));
    if (fabs(fd - grad[j]) > tol) {
      printf("FAIL %s: d loss / d x[%d]: adjoint %.12g, finite differences "
             "%.12g\n", name, j, grad[j], fd);
      exit(1);
    }
  }
  kern_array_free(xa);
  kern_array_free(oa);
  kern_array_free(gx);
  kern_array_free(go);
  printf("ok %s: the adjoint equals central differences\n", name);
}

/* The tangent kernel (Note [tangent]) in the direction v: its outputs
 * equal the forward launch's, its tan_out equals central differences of
 * out along v, and <J v, w> = <v, J^T w> with the adjoint's J^T w (when
 * with_adjoint: the kernel has one). */
static void tangent(kern_module *m, const char *name, bool with_adjoint) {
  kern_kernel *k, *t, *a;
  ASSERT_OK(ctx, kern_module_get_kernel(m, name, &k));
  ASSERT_OK(ctx, kern_kernel_tangent(k, &t));
  ASSERT_TRUE(strncmp(kern_kernel_name(t), "tan_", 4) == 0 &&
              strcmp(kern_kernel_name(t) + 4, name) == 0);
  double x[N] = {0.3, 0.7, 1.1, 0.45, 0.9, 1.35}, zero[N] = {0};
  double v[N] = {0.8, -0.6, 0.35, 1.2, -0.25, 0.5};
  kern_array *xa = arr(x, N), *oa = arr(zero, N), *tx = arr(v, N),
             *to = arr(zero, N);
  kern_arg args[6] = {kern_arg_array(xa), kern_arg_array(oa), kern_arg_int(N),
                      kern_arg_array(tx), kern_arg_array(to), kern_arg_int(0)};
  int64_t dims[1] = {N};
  ASSERT_OK(ctx, kern_launch(t, 1, dims, 6, args));
  double out[N], jv[N], ref[N];
  ASSERT_OK(ctx, kern_array_download(oa, out, sizeof out));
  ASSERT_OK(ctx, kern_array_download(to, jv, sizeof jv));
  /* the forward launch's values */
  kern_array *ra = arr(zero, N);
  kern_arg fargs[3] = {kern_arg_array(xa), kern_arg_array(ra), kern_arg_int(N)};
  ASSERT_OK(ctx, kern_launch(k, 1, dims, 3, fargs));
  ASSERT_OK(ctx, kern_array_download(ra, ref, sizeof ref));
  for (int i = 0; i < N; i++)
    ASSERT_NEAR(out[i], ref[i], 1e-12 * (1 + fabs(ref[i])));
  /* central differences of out along v */
  const double h = 1e-6;
  double xp[N], xm[N], op[N], om[N];
  for (int j = 0; j < N; j++) {
    xp[j] = x[j] + h * v[j];
    xm[j] = x[j] - h * v[j];
  }
  double *xs[2] = {xp, xm}, *os[2] = {op, om};
  for (int s = 0; s < 2; s++) {
    kern_array *pa = arr(xs[s], N), *qa = arr(zero, N);
    kern_arg pargs[3] = {kern_arg_array(pa), kern_arg_array(qa), kern_arg_int(N)};
    ASSERT_OK(ctx, kern_launch(k, 1, dims, 3, pargs));
    ASSERT_OK(ctx, kern_array_download(qa, os[s], sizeof op));
    kern_array_free(pa);
    kern_array_free(qa);
  }
  for (int i = 0; i < N; i++) {
    double fd = (op[i] - om[i]) / (2 * h);
    if (fabs(fd - jv[i]) > 1e-6 * (1 + fabs(fd))) {
      printf("FAIL %s: (J v)[%d]: tangent %.12g, finite differences %.12g\n",
             name, i, jv[i], fd);
      exit(1);
    }
  }
  if (with_adjoint) {
    ASSERT_OK(ctx, kern_kernel_adjoint(k, &a));
    kern_array *gx = arr(zero, N), *go = arr(wts, N);
    kern_arg aargs[6] = {kern_arg_array(xa), kern_arg_array(ra), kern_arg_int(N),
                         kern_arg_array(gx), kern_arg_array(go), kern_arg_int(0)};
    ASSERT_OK(ctx, kern_launch(a, 1, dims, 6, aargs));
    double g[N], lhs = 0, rhs = 0;
    ASSERT_OK(ctx, kern_array_download(gx, g, sizeof g));
    for (int i = 0; i < N; i++) {
      lhs += jv[i] * wts[i];
      rhs += v[i] * g[i];
    }
    if (fabs(lhs - rhs) > 1e-10 * (1 + fabs(lhs))) {
      printf("FAIL %s: <J v, w> = %.15g but <v, J^T w> = %.15g\n", name, lhs, rhs);
      exit(1);
    }
    kern_array_free(gx);
    kern_array_free(go);
  }
  kern_array_free(xa);
  kern_array_free(oa);
  kern_array_free(tx);
  kern_array_free(to);
  kern_array_free(ra);
  printf("ok %s: the tangent equals central differences%s\n", name,
         with_adjoint ? " and <J v, w> = <v, J^T w>" : "");
}

static const char api_src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def f(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float), s: float):\n"
    "    i = wp.tid()\n"
    "    out[i] = a[i] * b[i] * s\n"
    "\n"
    "# outside the expansion, but f does not call it: f's adjoint is built\n"
    "@wp.func\n"
    "def turn(x: float):\n"
    "    return x * float(wp.intersect_tri_tri(wp.vec3(x, 0.0, 0.0), wp.vec3(1.0), wp.vec3(0.0, 1.0, 0.0), wp.vec3(1.0, 1.0, 0.0), wp.vec3(0.0), wp.vec3(2.0)))\n"
    "\n"
    "@wp.kernel\n"
    "def other(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
    "    i = wp.tid()\n"
    "    out[i] = turn(a[i])\n";

static void api(void) {
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "api.py", api_src,
                                         sizeof api_src - 1, &m));
  kern_kernel *k, *a, *a2, *aa;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "f", &k));
  ASSERT_OK(ctx, kern_kernel_adjoint(k, &a));
  ASSERT_STREQ(kern_kernel_name(a), "adj_f");
  ASSERT_EQ(kern_kernel_param_count(a), 8);
  static const char *const names[8] = {"a", "b", "out", "s",
                                       "adj_a", "adj_b", "adj_out", "adj_s"};
  for (int i = 0; i < 8; i++) {
    kern_param_info p = KERN_PARAM_INFO_INIT;
    ASSERT_OK(ctx, kern_kernel_param(a, i, &p));
    ASSERT_STREQ(p.name, names[i]);
    ASSERT_EQ(p.kind, i % 4 == 3 ? KERN_PARAM_VALUE : KERN_PARAM_ARRAY);
  }
  ASSERT_OK(ctx, kern_kernel_adjoint(k, &a2));
  ASSERT_TRUE(a == a2); /* compiled once, kept with the module */
  kern_kernel *o, *oa = NULL;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "other", &o));
  kern_clear_error(ctx);
  ASSERT_EQ(kern_kernel_adjoint(o, &oa), KERN_ERROR_COMPILE);
  ASSERT_CONTAINS(kern_last_error(ctx), "api.py:11:");
  ASSERT_CONTAINS(kern_last_error(ctx), "autodiff of wp.intersect_tri_tri of vectors is not supported yet");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_kernel_adjoint(a, &aa), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "already an adjoint");
  ASSERT_EQ(kern_kernel_adjoint(k, NULL), KERN_ERROR_INVALID_ARGUMENT);
  /* adj_b NULL (Warp's None): skipped; adj_a gets b * s * adj_out */
  kern_array *fa, *fb, *fo, *ga, *go;
  int64_t shape[1] = {4};
  float av[4] = {1, 2, 3, 4}, bv[4] = {5, 6, 7, 8}, one[4] = {1, 1, 1, 1},
        zero[4] = {0};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, shape, &fa));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, shape, &fb));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, shape, &fo));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, shape, &ga));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, shape, &go));
  ASSERT_OK(ctx, kern_array_upload(fa, av, sizeof av));
  ASSERT_OK(ctx, kern_array_upload(fb, bv, sizeof bv));
  ASSERT_OK(ctx, kern_array_upload(fo, zero, sizeof zero));
  ASSERT_OK(ctx, kern_array_upload(ga, zero, sizeof zero));
  ASSERT_OK(ctx, kern_array_upload(go, one, sizeof one));
  kern_arg args[8] = {kern_arg_array(fa), kern_arg_array(fb),
                      kern_arg_array(fo), kern_arg_float(2.0),
                      kern_arg_array(ga), kern_arg_array(NULL),
                      kern_arg_array(go), kern_arg_float(0.0)};
  int64_t dims[1] = {4};
  ASSERT_OK(ctx, kern_launch(a, 1, dims, 8, args));
  float g[4], gout[4];
  ASSERT_OK(ctx, kern_array_download(ga, g, sizeof g));
  ASSERT_OK(ctx, kern_array_download(go, gout, sizeof gout));
  for (int i = 0; i < 4; i++) {
    ASSERT_NEAR(g[i], bv[i] * 2.0, 1e-6);
    ASSERT_NEAR(gout[i], 0.0, 0); /* the store's adjoint was taken */
  }
  /* an adjoint array has its array's shape */
  kern_array *small;
  int64_t three[1] = {3};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, three, &small));
  kern_clear_error(ctx);
  args[4] = kern_arg_array(small);
  ASSERT_EQ(kern_launch(a, 1, dims, 8, args), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "'adj_a' has shape 3");
  args[4] = kern_arg_array(ga);
  kern_array_free(small);
  /* a forward array may not be NULL */
  kern_clear_error(ctx);
  args[0] = kern_arg_array(NULL);
  ASSERT_EQ(kern_launch(a, 1, dims, 8, args), KERN_ERROR_TYPE_MISMATCH);
  kern_module_free(m);
  printf("ok api\n");
}

/* kern_kernel_tangent's kernel: its name and parameters, the same handle
 * again, a NULL tan_ array (zero tangent in, none written), no tangent
 * of a derived kernel, and what forward mode refuses at its line. */
static void tangent_api(void) {
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "api.py", api_src,
                                         sizeof api_src - 1, &m));
  kern_kernel *k, *t, *t2, *tt, *a;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "f", &k));
  ASSERT_OK(ctx, kern_kernel_tangent(k, &t));
  ASSERT_STREQ(kern_kernel_name(t), "tan_f");
  ASSERT_EQ(kern_kernel_param_count(t), 8);
  static const char *const names[8] = {"a", "b", "out", "s",
                                       "tan_a", "tan_b", "tan_out", "tan_s"};
  for (int i = 0; i < 8; i++) {
    kern_param_info p = KERN_PARAM_INFO_INIT;
    ASSERT_OK(ctx, kern_kernel_param(t, i, &p));
    ASSERT_STREQ(p.name, names[i]);
  }
  ASSERT_OK(ctx, kern_kernel_tangent(k, &t2));
  ASSERT_TRUE(t == t2);
  ASSERT_OK(ctx, kern_kernel_adjoint(k, &a));
  ASSERT_TRUE(a != t); /* the adjoint and the tangent are two kernels */
  kern_clear_error(ctx);
  ASSERT_EQ(kern_kernel_tangent(t, &tt), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "already a tangent");
  ASSERT_EQ(kern_kernel_tangent(a, &tt), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kern_kernel_tangent(k, NULL), KERN_ERROR_INVALID_ARGUMENT);
  /* out = a b s: tan_out = tan_a b s + a tan_b s + a b tan_s, tan_b NULL */
  kern_array *fa, *fb, *fo, *ta, *to;
  int64_t shape[1] = {4};
  float av[4] = {1, 2, 3, 4}, bv[4] = {5, 6, 7, 8}, da[4] = {1, -1, 0.5f, 2},
        zero[4] = {0};
  kern_array **all[5] = {&fa, &fb, &fo, &ta, &to};
  for (int i = 0; i < 5; i++)
    ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, shape, all[i]));
  ASSERT_OK(ctx, kern_array_upload(fa, av, sizeof av));
  ASSERT_OK(ctx, kern_array_upload(fb, bv, sizeof bv));
  ASSERT_OK(ctx, kern_array_upload(fo, zero, sizeof zero));
  ASSERT_OK(ctx, kern_array_upload(ta, da, sizeof da));
  ASSERT_OK(ctx, kern_array_upload(to, zero, sizeof zero));
  kern_arg args[8] = {kern_arg_array(fa), kern_arg_array(fb),
                      kern_arg_array(fo), kern_arg_float(2.0),
                      kern_arg_array(ta), kern_arg_array(NULL),
                      kern_arg_array(to), kern_arg_float(0.5)};
  int64_t dims[1] = {4};
  ASSERT_OK(ctx, kern_launch(t, 1, dims, 8, args));
  float o[4], d[4];
  ASSERT_OK(ctx, kern_array_download(fo, o, sizeof o));
  ASSERT_OK(ctx, kern_array_download(to, d, sizeof d));
  for (int i = 0; i < 4; i++) {
    ASSERT_NEAR(o[i], av[i] * bv[i] * 2.0, 1e-5);
    ASSERT_NEAR(d[i], da[i] * bv[i] * 2.0 + av[i] * bv[i] * 0.5, 1e-4);
  }
  /* tan_out NULL: nothing written, the values still are */
  args[6] = kern_arg_array(NULL);
  ASSERT_OK(ctx, kern_array_upload(fo, zero, sizeof zero));
  ASSERT_OK(ctx, kern_launch(t, 1, dims, 8, args));
  ASSERT_OK(ctx, kern_array_download(fo, o, sizeof o));
  ASSERT_NEAR(o[3], 64.0, 1e-5);
  /* a tangent array has its array's shape */
  kern_array *small;
  int64_t three[1] = {3};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, three, &small));
  kern_clear_error(ctx);
  args[4] = kern_arg_array(small);
  ASSERT_EQ(kern_launch(t, 1, dims, 8, args), KERN_ERROR_INVALID_ARGUMENT);
  ASSERT_CONTAINS(kern_last_error(ctx), "'tan_a' has shape 3");
  kern_array_free(small);
  for (int i = 0; i < 5; i++)
    kern_array_free(*all[i]);
  kern_module_free(m);
  /* refused in forward mode, at the line */
  static const struct {
    const char *body, *what;
    int line;
  } tref[] = {
      {"    wp.atomic_max(out, 0, x)\n",
       "forward-mode autodiff of wp.atomic_max on floats", 7},
      {"    wp.atomic_exch(out, 0, x)\n",
       "forward-mode autodiff of wp.atomic_exch on floats", 7},
      {"    old = wp.atomic_add(out, 0, x)\n    out[i] = old\n",
       "forward-mode autodiff of the value an atomic returns", 8},
  };
  for (size_t i = 0; i < sizeof tref / sizeof tref[0]; i++) {
    char src[1024];
    snprintf(src, sizeof src,
             "import warp as wp\n\n@wp.kernel\n"
             "def r(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
             "    i = wp.tid()\n    x = a[i]\n%s", tref[i].body);
    ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "r.py", src, strlen(src), &m));
    kern_kernel *r, *rt = NULL;
    ASSERT_OK(ctx, kern_module_get_kernel(m, "r", &r));
    kern_clear_error(ctx);
    ASSERT_EQ(kern_kernel_tangent(r, &rt), KERN_ERROR_COMPILE);
    ASSERT_TRUE(rt == NULL);
    ASSERT_CONTAINS(kern_last_error(ctx), tref[i].what);
    char at[32];
    snprintf(at, sizeof at, "r.py:%d:", tref[i].line);
    ASSERT_CONTAINS(kern_last_error(ctx), at);
    kern_module_free(m);
  }
  printf("ok tangent api\n");
}

/* enable_backward=False, of the kernel or the module: no adjoint, as Warp
 * builds no backward kernel (its adjoint launch raises "Failed to find
 * backward kernel"); the kernel's own True wins over the module's False,
 * as Warp merges kernel options over module options; forward mode is not
 * Warp's backward and stays available. */
static void enable_backward(void) {
  static const struct {
    const char *head, *deco;
    int refused, line;
    const char *what;
  } cases[] = {
      {"", "@wp.kernel(enable_backward=False)", 1, 4,
       "@wp.kernel(enable_backward=False)"},
      {"wp.set_module_options({\"enable_backward\": False})\n", "@wp.kernel", 1, 5,
       "wp.set_module_options"},
      {"wp.set_module_options({'mode': 'release', 'enable_backward': False})\n",
       "@wp.kernel(enable_backward=True)", 0, 0, NULL},
      {"wp.set_module_options({\"enable_backward\": True})\n", "@wp.kernel", 0, 0,
       NULL},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    char src[1024];
    snprintf(src, sizeof src,
             "import warp as wp\n%s\n%s\n"
             "def k(x: wp.array(dtype=float), y: wp.array(dtype=float)):\n"
             "    i = wp.tid()\n"
             "    y[i] = x[i] * x[i]\n", cases[c].head, cases[c].deco);
    kern_module *m;
    ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "eb.py", src, strlen(src), &m));
    kern_kernel *k, *a = NULL, *t = NULL;
    ASSERT_OK(ctx, kern_module_get_kernel(m, "k", &k));
    kern_clear_error(ctx);
    if (cases[c].refused) {
      ASSERT_EQ(kern_kernel_adjoint(k, &a), KERN_ERROR_COMPILE);
      ASSERT_CONTAINS(kern_last_error(ctx), "enable_backward=False");
      ASSERT_CONTAINS(kern_last_error(ctx), cases[c].what);
      char at[32];
      snprintf(at, sizeof at, "eb.py:%d:", cases[c].line);
      ASSERT_CONTAINS(kern_last_error(ctx), at);
      ASSERT_TRUE(a == NULL);
    } else {
      ASSERT_OK(ctx, kern_kernel_adjoint(k, &a));
    }
    ASSERT_OK(ctx, kern_kernel_tangent(k, &t));
    kern_module_free(m);
  }
  printf("ok enable_backward\n");
}

/* What is refused: the kernel, the line of the construct and the words. */
static const struct {
  const char *body, *what;
  int line;
} refusals[] = {
    {"    while x < 9.0:\n        if x > 2.0:\n            return\n"
     "        x = x * 2.0\n    out[i] = x\n",
     "autodiff of a return statement in a while loop is not supported yet", 7},
    /* Note [tail paths]: past its copies' bound */
    {"    for k in range(16):\n        if x > float(k):\n"
     "            if x > float(2 * k):\n                return\n"
     "            x = x * 2.0\n    out[i] = x\n",
     "autodiff of returns on only some paths of their branches this often", 8},
    {"    old = wp.atomic_add(out, 0, x)\n    out[i] = old\n",
     "autodiff of the value an atomic returns is not supported yet", 8},
    /* what the expansion into scalar IR does not cover (its refusal) */
    {"    out[i] = x * float(wp.intersect_tri_tri(wp.vec3(x, 0.0, 0.0), wp.vec3(1.0), wp.vec3(0.0, 1.0, 0.0), wp.vec3(1.0, 1.0, 0.0), wp.vec3(0.0), wp.vec3(2.0)))\n",
     "autodiff of wp.intersect_tri_tri of vectors is not supported yet", 7},
    /* Note [adjoint fixed arrays]: where Warp 1.19's adjoint of a local
     * array is not the derivative for reasons of its own */
    {"    t = wp.zeros(shape=(2, 2), dtype=float)\n    t[1, 0] = x\n"
     "    out[i] = t[1, 0]\n",
     "autodiff of a fixed-size float array of more than one dimension", 7},
    {"    t = wp.zeros(shape=4, dtype=float)\n    t[1] = x\n"
     "    r = t[1:]\n    out[i] = r[0]\n",
     "autodiff of a view of a fixed-size float array", 9},
    /* Note [tile adjoints]: Warp 1.19 has no adjoint for tile_max (its
     * gradient is zero), and reads a tile's last values where it is
     * written in place after another operation read it; the old values
     * of tile_atomic_add are not replayed */
    {"    t = wp.tile_load(a, shape=4, offset=i * 4)\n"
     "    wp.tile_store(out, wp.tile_max(t), offset=i)\n",
     "autodiff of wp.tile_max is not supported yet", 8},
    {"    t = wp.tile_load(a, shape=4, offset=i * 4)\n"
     "    wp.tile_store(out, wp.tile_reduce(wp.add, t), offset=i)\n",
     "autodiff of wp.tile_reduce is not supported yet", 8},
    /* Warp 1.19's tile_full gives its value no gradient: a literal only */
    {"    t = wp.tile_load(a, shape=4, offset=i * 4)\n"
     "    f = wp.tile_full(shape=4, value=x, dtype=float)\n"
     "    wp.tile_store(out, t * f, offset=i * 4)\n",
     "autodiff of wp.tile_full of a value that is not a literal", 8},
    /* nor tile_from_thread (not differentiable there) */
    {"    f = wp.tile_from_thread(shape=(4,), value=x, thread_idx=0)\n"
     "    wp.tile_store(out, f, offset=i * 4)\n",
     "autodiff of wp.tile_from_thread (Warp 1.19 gives the value no gradient)",
     7},
    {"    t = wp.tile_load(a, shape=4, offset=i * 4)\n"
     "    u = wp.tile_map(wp.sin, t)\n    t += u\n"
     "    wp.tile_store(out, u * t, offset=i * 4)\n",
     "autodiff of a tile written in place after another operation read it", 9},
    {"    t = wp.tile_load(a, shape=4, offset=i * 4)\n"
     "    o = wp.tile_atomic_add(out, t, offset=i * 4)\n"
     "    wp.tile_store(out, o * t, offset=i * 4)\n",
     "autodiff of the tile wp.tile_atomic_add returns", 9},
};

static void refuse(void) {
  for (size_t t = 0; t < sizeof refusals / sizeof refusals[0]; t++) {
    char src[2048];
    snprintf(src, sizeof src,
             "import warp as wp\n"
             "\n"
             "@wp.kernel\n"
             "def r(a: wp.array(dtype=float), out: wp.array(dtype=float), n: int):\n"
             "    i = wp.tid()\n"
             "    x = a[i]\n"
             "%s", refusals[t].body);
    kern_module *m;
    ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "r.py", src, strlen(src), &m));
    kern_kernel *k, *a = NULL;
    ASSERT_OK(ctx, kern_module_get_kernel(m, "r", &k));
    kern_clear_error(ctx);
    ASSERT_EQ(kern_kernel_adjoint(k, &a), KERN_ERROR_COMPILE);
    ASSERT_TRUE(a == NULL);
    const char *e = kern_last_error(ctx);
    ASSERT_CONTAINS(e, refusals[t].what);
    char at[32];
    snprintf(at, sizeof at, "r.py:%d:", refusals[t].line);
    ASSERT_CONTAINS(e, at);
    /* the forward kernel still runs: the refusal cost nothing else */
    kern_module_free(m);
  }
  printf("ok refusals\n");
}

/* A return in a @wp.func's loop Warp does not unroll is refused in both
 * modes, at the return's loop: Warp 1.19's gradient there is not the
 * derivative (docs/language.md). */
static void func_loop_refuse(void) {
  static const char src[] =
      "import warp as wp\n"
      "\n"
      "@wp.func\n"
      "def f(x: float, n: int):\n"
      "    for k in range(n):\n"
      "        if x > 2.0:\n"
      "            return x\n"
      "        x = x * 2.0\n"
      "    return x\n"
      "\n"
      "@wp.kernel\n"
      "def r(a: wp.array(dtype=float), out: wp.array(dtype=float), n: int):\n"
      "    i = wp.tid()\n"
      "    out[i] = f(a[i], n)\n";
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "fl.py", src, sizeof src - 1, &m));
  kern_kernel *k, *a = NULL;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "r", &k));
  kern_clear_error(ctx);
  ASSERT_EQ(kern_kernel_adjoint(k, &a), KERN_ERROR_COMPILE);
  ASSERT_CONTAINS(kern_last_error(ctx),
                  "autodiff of a return statement in a loop is not supported yet");
  ASSERT_CONTAINS(kern_last_error(ctx), "fl.py:5:");
  kern_clear_error(ctx);
  ASSERT_EQ(kern_kernel_tangent(k, &a), KERN_ERROR_COMPILE);
  ASSERT_CONTAINS(kern_last_error(ctx), "fl.py:5:");
  kern_module_free(m);
  printf("ok a return in a function's dynamic loop refused\n");
}

/* Structs the adjoint refuses (Note [struct leaves]), at their line. */
static const struct {
  const char *body, *what;
} struct_refusals[] = {
    /* a component of an element's field at an index known only at run
     * time (Note [arrays of structs]) */
    {"    ps[i].v[int(a[i])] = a[i]\n",
     "autodiff of this assignment into an array of structs' element"},
    {"    p.v[1] = a[i]\n    out[i] = p.v[1]\n",
     "autodiff of an assignment to a component of a struct's field"},
};

static void struct_refuse(void) {
  for (size_t t = 0; t < sizeof struct_refusals / sizeof struct_refusals[0]; t++) {
    char src[2048];
    snprintf(src, sizeof src,
             "import warp as wp\n"
             "\n"
             "@wp.struct\n"
             "class P:\n"
             "    x: float\n"
             "    v: wp.vec3\n"
             "\n"
             "@wp.kernel\n"
             "def r(a: wp.array(dtype=float), ps: wp.array(dtype=P), out: wp.array(dtype=float)):\n"
             "    i = wp.tid()\n"
             "    p = P()\n"
             "%s", struct_refusals[t].body);
    kern_module *m;
    ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "rs.py", src, strlen(src), &m));
    kern_kernel *k, *a = NULL;
    ASSERT_OK(ctx, kern_module_get_kernel(m, "r", &k));
    kern_clear_error(ctx);
    ASSERT_EQ(kern_kernel_adjoint(k, &a), KERN_ERROR_COMPILE);
    const char *e = kern_last_error(ctx);
    ASSERT_CONTAINS(e, struct_refusals[t].what);
    ASSERT_CONTAINS(e, "rs.py:12:");
    kern_clear_error(ctx);
    ASSERT_EQ(kern_kernel_tangent(k, &a), KERN_ERROR_COMPILE);
    ASSERT_CONTAINS(kern_last_error(ctx), "rs.py:12:");
    kern_module_free(m);
  }
  printf("ok struct refusals\n");
}

/* Custom adjoints (Note [custom adjoints]): the user's mistakes are
 * errors at their line, at load or when the adjoint is built. */
static const struct {
  const char *fn;  /* the custom adjoint or replay after f */
  bool at_load;    /* the load fails (else the adjoint does) */
  const char *what;
  int line;
} custom_errors[] = {
    {"@wp.func_grad(f)\ndef g(y: float, adj_ret: float):\n"
     "    wp.adjoint[x] += adj_ret\n", true,
     "wp.adjoint[...] takes one of the first 1 parameters of 'g'", 7},
    {"@wp.func_grad(h)\ndef g(y: float, adj_ret: float):\n    pass\n", true,
     "@wp.func_grad: no @wp.func 'h' above", 5},
    {"@wp.func_grad(f)\ndef g(y: float):\n    pass\n", true,
     "takes its 1 parameter(s) and then adj_ret (1 given)", 6},
    {"@wp.func_grad(f)\ndef g(y: float, adj_ret: wp.float64):\n    pass\n",
     false, "parameter 2 differs", 6},
    {"@wp.func_grad(f)\ndef g(y: float, adj_a: float, adj_b: float):\n"
     "    pass\n", false, "then an adj_ret per result (1)", 6},
    {"@wp.func\ndef f(x: wp.vec2):\n    return x\n"
     "@wp.func_grad(f)\ndef g(y: wp.vec3, adj_ret: wp.vec3):\n    pass\n",
     true, "no overload of 'f' fits the @wp.func_grad 'g'", 9},
    {"@wp.func\ndef f(x: wp.vec2):\n    return x\n"
     "@wp.func_replay(f)\ndef g(y: wp.vec3):\n    return y\n", true,
     "no overload of 'f' fits the @wp.func_replay 'g'", 9},
    {"@wp.func_replay(f)\ndef g(y: int):\n    return 1.0\n", false,
     "must take the parameters of 'f'", 6},
};

static void custom(void) {
  for (size_t t = 0; t < sizeof custom_errors / sizeof custom_errors[0]; t++) {
    char src[2048];
    snprintf(src, sizeof src,
             "import warp as wp\n"
             "@wp.func\n"
             "def f(x: float):\n"
             "    return x * x\n"
             "%s"
             "@wp.kernel\n"
             "def r(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
             "    i = wp.tid()\n"
             "    out[i] = f(a[i])\n", custom_errors[t].fn);
    kern_module *m = NULL;
    kern_clear_error(ctx);
    kern_status st = kern_module_load_string(ctx, dev, "c.py", src, strlen(src), &m);
    if (custom_errors[t].at_load) {
      ASSERT_EQ(st, KERN_ERROR_COMPILE);
    } else {
      ASSERT_OK(ctx, st);
      kern_kernel *k, *a = NULL;
      ASSERT_OK(ctx, kern_module_get_kernel(m, "r", &k));
      kern_clear_error(ctx);
      ASSERT_EQ(kern_kernel_adjoint(k, &a), KERN_ERROR_COMPILE);
      ASSERT_TRUE(a == NULL);
    }
    const char *e = kern_last_error(ctx);
    ASSERT_CONTAINS(e, custom_errors[t].what);
    char at[32];
    snprintf(at, sizeof at, "c.py:%d:", custom_errors[t].line);
    ASSERT_CONTAINS(e, at);
    if (m)
      kern_module_free(m);
  }
  printf("ok custom adjoint errors\n");
}

static const char struct_src[] =
    "import warp as wp\n"
    "\n"
    "@wp.struct\n"
    "class S:\n"
    "    xs: wp.array(dtype=wp.float64)\n"
    "    k: wp.float64\n"
    "\n"
    "@wp.kernel\n"
    "def sk(s: S, out: wp.array(dtype=wp.float64)):\n"
    "    i = wp.tid()\n"
    "    out[i] = s.k * s.xs[i] * s.xs[i]\n";

/* The offset of field name of parameter p's struct. */
static size_t field_at(kern_kernel *k, int p, const char *name) {
  for (int j = 0; j < kern_kernel_param_field_count(k, p); j++) {
    kern_field_info f = KERN_FIELD_INFO_INIT;
    ASSERT_OK(ctx, kern_kernel_param_field(k, p, j, &f));
    if (!strcmp(f.name, name))
      return f.offset;
  }
  ASSERT_TRUE(!"no such field");
  return 0;
}

/* Note [struct leaves]: the adjoint of a kernel taking a struct takes an
 * adjoint struct (kern_arg_data) whose array fields, set with
 * kern_struct_set_array, receive the gradients; its float field is a
 * value, not read. */
static void struct_api(void) {
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "sk.py", struct_src,
                                         sizeof struct_src - 1, &m));
  kern_kernel *k, *a;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "sk", &k));
  ASSERT_OK(ctx, kern_kernel_adjoint(k, &a));
  kern_param_info p = KERN_PARAM_INFO_INIT;
  ASSERT_OK(ctx, kern_kernel_param(a, 2, &p));
  ASSERT_STREQ(p.name, "adj_s");
  ASSERT_EQ(p.kind, KERN_PARAM_VALUE);
  ASSERT_EQ(p.type.kind, KERN_KIND_STRUCT);
  ASSERT_STREQ(p.struct_name, "S");
  size_t size = (size_t)p.type.rows, xs = field_at(a, 2, "xs"),
         ko = field_at(a, 2, "k");
  double x[N] = {0.5, -1, 2, 0.25, 3, -2}, zero[N] = {0}, seed[N], g[N], o[N];
  for (int i = 0; i < N; i++) seed[i] = wts[i];
  kern_array *fx = arr(x, N), *fo = arr(zero, N), *gx = arr(zero, N),
             *go = arr(seed, N);
  unsigned char s[256] = {0}, adj[256] = {0};
  ASSERT_TRUE(size <= sizeof s);
  double kv = 1.5;
  memcpy(s + ko, &kv, sizeof kv);
  memcpy(adj + ko, &kv, sizeof kv); /* not read: a value's adjoint */
  ASSERT_OK(ctx, kern_struct_set_array(s + xs, fx));
  ASSERT_OK(ctx, kern_struct_set_array(adj + xs, gx));
  kern_arg args[4] = {kern_arg_data(s, size), kern_arg_array(fo),
                      kern_arg_data(adj, size), kern_arg_array(go)};
  int64_t dims[1] = {N};
  ASSERT_OK(ctx, kern_launch(k, 1, dims, 2, args));
  ASSERT_OK(ctx, kern_launch(a, 1, dims, 4, args));
  ASSERT_OK(ctx, kern_array_download(fo, o, sizeof o));
  ASSERT_OK(ctx, kern_array_download(gx, g, sizeof g));
  for (int i = 0; i < N; i++) {
    ASSERT_NEAR(o[i], 1.5 * x[i] * x[i], 1e-12);
    ASSERT_NEAR(g[i], 2 * 1.5 * x[i] * wts[i], 1e-12); /* d out / d xs */
  }
  ASSERT_OK(ctx, kern_array_download(go, g, sizeof g));
  for (int i = 0; i < N; i++)
    ASSERT_NEAR(g[i], 0.0, 0); /* the store's adjoint was taken */
  kern_array_free(fx);
  kern_array_free(fo);
  kern_array_free(gx);
  kern_array_free(go);
  kern_module_free(m);
  printf("ok struct api\n");
}

/* Note [arrays of structs]: through the C API, an array of structs'
 * adjoint and tangent are arrays of the same structs (KERN_TYPE_STRUCT),
 * filled field by field: out[i].x = b.x b.v[0], out[i].v = (sin b.x,
 * b.v[1]^2) from b = bs[i], in float64 against the derivatives. */
static const char aos_src[] =
    "import warp as wp\n"
    "\n"
    "@wp.struct\n"
    "class B:\n"
    "    x: wp.float64\n"
    "    v: wp.vec2d\n"
    "    n: int\n"
    "\n"
    "@wp.kernel\n"
    "def ka(bs: wp.array(dtype=B), out: wp.array(dtype=B)):\n"
    "    i = wp.tid()\n"
    "    b = bs[i]\n"
    "    out[i].x = b.x * b.v[0]\n"
    "    out[i].v = wp.vec2d(wp.sin(b.x), b.v[1] * b.v[1])\n";

typedef struct { size_t size, x, v; } AosLayout;

static kern_array *aos_arr(AosLayout L, const double (*rec)[3], int n) {
  unsigned char buf[N * 64] = {0};
  ASSERT_TRUE(L.size * (size_t)n <= sizeof buf);
  for (int i = 0; i < n && rec; i++) {
    memcpy(buf + L.size * (size_t)i + L.x, &rec[i][0], sizeof(double));
    memcpy(buf + L.size * (size_t)i + L.v, &rec[i][1], 2 * sizeof(double));
  }
  kern_array *a;
  int64_t shape[1] = {n};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_STRUCT(L.size, 8), 1, shape, &a));
  ASSERT_OK(ctx, kern_array_upload(a, buf, L.size * (size_t)n));
  return a;
}

static void aos_get(AosLayout L, kern_array *a, double (*rec)[3], int n) {
  unsigned char buf[N * 64];
  ASSERT_OK(ctx, kern_array_download(a, buf, L.size * (size_t)n));
  for (int i = 0; i < n; i++) {
    memcpy(&rec[i][0], buf + L.size * (size_t)i + L.x, sizeof(double));
    memcpy(&rec[i][1], buf + L.size * (size_t)i + L.v, 2 * sizeof(double));
  }
}

static void aos_api(void) {
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "aos.py", aos_src,
                                         sizeof aos_src - 1, &m));
  kern_kernel *k, *a, *t;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "ka", &k));
  ASSERT_OK(ctx, kern_kernel_adjoint(k, &a));
  ASSERT_OK(ctx, kern_kernel_tangent(k, &t));
  kern_param_info p = KERN_PARAM_INFO_INIT;
  ASSERT_OK(ctx, kern_kernel_param(a, 2, &p));
  ASSERT_STREQ(p.name, "adj_bs");
  ASSERT_EQ(p.kind, KERN_PARAM_ARRAY);
  ASSERT_EQ(p.type.kind, KERN_KIND_STRUCT);
  AosLayout L = {(size_t)p.type.rows, field_at(k, 0, "x"), field_at(k, 0, "v")};
  double in[N][3], seed[N][3], dir[N][3], g[N][3], o[N][3];
  for (int i = 0; i < N; i++)
    for (int c = 0; c < 3; c++) {
      in[i][c] = 0.3 + 0.25 * i + 0.5 * c;
      seed[i][c] = wts[(i + c) % N];
      dir[i][c] = wts[(i + 2 * c + 1) % N];
    }
  kern_array *bs = aos_arr(L, in, N), *out = aos_arr(L, NULL, N),
             *gb = aos_arr(L, NULL, N), *go = aos_arr(L, seed, N),
             *tb = aos_arr(L, dir, N), *to = aos_arr(L, NULL, N);
  int64_t dims[1] = {N};
  kern_arg args[4] = {kern_arg_array(bs), kern_arg_array(out),
                      kern_arg_array(gb), kern_arg_array(go)};
  ASSERT_OK(ctx, kern_launch(k, 1, dims, 2, args));
  ASSERT_OK(ctx, kern_launch(a, 1, dims, 4, args));
  aos_get(L, gb, g, N);
  for (int i = 0; i < N; i++) {
    const double *b = in[i], *w = seed[i];
    ASSERT_NEAR(g[i][0], w[0] * b[1] + w[1] * cos(b[0]), 1e-12);
    ASSERT_NEAR(g[i][1], w[0] * b[0], 1e-12);
    ASSERT_NEAR(g[i][2], w[2] * 2 * b[2], 1e-12);
  }
  aos_get(L, go, g, N);
  for (int i = 0; i < N; i++) /* the stores took out's gradient */
    ASSERT_TRUE(g[i][0] == 0 && g[i][1] == 0 && g[i][2] == 0);
  kern_arg targs[4] = {kern_arg_array(bs), kern_arg_array(out),
                       kern_arg_array(tb), kern_arg_array(to)};
  ASSERT_OK(ctx, kern_launch(t, 1, dims, 4, targs));
  aos_get(L, to, o, N);
  for (int i = 0; i < N; i++) {
    const double *b = in[i], *d = dir[i];
    ASSERT_NEAR(o[i][0], d[0] * b[1] + b[0] * d[1], 1e-12);
    ASSERT_NEAR(o[i][1], cos(b[0]) * d[0], 1e-12);
    ASSERT_NEAR(o[i][2], 2 * b[2] * d[2], 1e-12);
  }
  kern_array_free(bs);
  kern_array_free(out);
  kern_array_free(gb);
  kern_array_free(go);
  kern_array_free(tb);
  kern_array_free(to);
  kern_module_free(m);
  printf("ok arrays of structs api\n");
}

/* Perlin noise (Note [noise adjoints] in ir/adjoint.c), which computes in
 * float32 only: the tangent along v equals central differences (a step
 * of 1e-3, float32's bounds) and <J v, w> = <v, J^T w> holds against the
 * adjoint, through noise, pnoise and curlnoise in one kernel. */
static const char noise_src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def k_noise(x: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
    "    i = wp.tid()\n"
    "    s = wp.rand_init(3, i)\n"
    "    p = wp.vec3(x[i], x[(i + 1) % 6] * 1.5, 0.25 - x[i])\n"
    "    c = wp.curlnoise(s, p, wp.uint32(2), 2.0, 0.5)\n"
    "    q = wp.pnoise(s, wp.vec4(x[i], p[1], p[2], 0.5), 3, 2, 2, 4)\n"
    "    out[i] = wp.noise(s, x[i] * 2.0) + q * c[0] - c[2] * wp.noise(s, p)\n";

static kern_array *arr32(const float *v) {
  kern_array *a;
  int64_t shape[1] = {N};
  ASSERT_OK(ctx, kern_array_new(ctx, dev, KERN_TYPE_FLOAT32, 1, shape, &a));
  ASSERT_OK(ctx, kern_array_upload(a, v, sizeof(float) * N));
  return a;
}

/* out of k_noise at x, launched as k (its forward, tangent or adjoint
 * kernel) with the extra arrays t (NULL: the forward's two) */
static void noise_run(kern_kernel *k, const float *x, float *out,
                      const float *t0, const float *t1, float *g0, float *g1) {
  float zero[N] = {0};
  kern_array *xa = arr32(x), *oa = arr32(zero);
  kern_array *ta = t0 ? arr32(t0) : NULL, *tb = t0 ? arr32(t1) : NULL;
  kern_arg args[4] = {kern_arg_array(xa), kern_arg_array(oa),
                      kern_arg_array(ta), kern_arg_array(tb)};
  int64_t dims[1] = {N};
  ASSERT_OK(ctx, kern_launch(k, 1, dims, t0 ? 4 : 2, args));
  ASSERT_OK(ctx, kern_array_download(oa, out, sizeof zero));
  if (t0) {
    ASSERT_OK(ctx, kern_array_download(ta, g0, sizeof zero));
    ASSERT_OK(ctx, kern_array_download(tb, g1, sizeof zero));
    kern_array_free(ta);
    kern_array_free(tb);
  }
  kern_array_free(xa);
  kern_array_free(oa);
}

static void noise_api(void) {
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "noise.py", noise_src,
                                         sizeof noise_src - 1, &m));
  kern_kernel *k, *t, *a;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "k_noise", &k));
  ASSERT_OK(ctx, kern_kernel_tangent(k, &t));
  ASSERT_OK(ctx, kern_kernel_adjoint(k, &a));
  const float x[N] = {0.3f, -0.7f, 1.1f, 0.45f, -0.9f, 1.35f};
  const float v[N] = {0.8f, -0.6f, 0.35f, 1.2f, -0.25f, 0.5f};
  float zero[N] = {0}, out[N], ref[N], tv[N], jv[N], gx[N], go[N];
  noise_run(k, x, ref, NULL, NULL, NULL, NULL);
  noise_run(t, x, out, v, zero, tv, jv);
  const float h = 1e-3f;
  float xp[N], xm[N], op[N], om[N];
  for (int j = 0; j < N; j++) {
    xp[j] = x[j] + h * v[j];
    xm[j] = x[j] - h * v[j];
  }
  noise_run(k, xp, op, NULL, NULL, NULL, NULL);
  noise_run(k, xm, om, NULL, NULL, NULL, NULL);
  double lhs = 0, rhs = 0, mag = 1;
  for (int i = 0; i < N; i++) {
    ASSERT_NEAR(out[i], ref[i], 0.0);
    double fd = ((double)op[i] - om[i]) / (2.0 * h);
    if (fabs(fd - jv[i]) > 1e-2 * (1 + fabs(fd))) {
      printf("FAIL k_noise: (J v)[%d]: tangent %.9g, finite differences %.9g\n",
             i, jv[i], fd);
      exit(1);
    }
    ASSERT_TRUE(jv[i] != 0.0f);
  }
  float w[N];
  for (int i = 0; i < N; i++)
    w[i] = (float)wts[i];
  noise_run(a, x, out, zero, w, gx, go);
  for (int i = 0; i < N; i++) {
    lhs += (double)jv[i] * w[i];
    rhs += (double)v[i] * gx[i];
    mag += fabs((double)jv[i] * w[i]);
  }
  if (fabs(lhs - rhs) > 1e-5 * mag) {
    printf("FAIL k_noise: <J v, w> = %.9g but <v, J^T w> = %.9g\n", lhs, rhs);
    exit(1);
  }
  kern_module_free(m);
  printf("ok k_noise: the tangent equals central differences and "
         "<J v, w> = <v, J^T w>\n");
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "cpu";
  test_setup();
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  if (kern_device_find(ctx, which, &dev) != KERN_SUCCESS) {
    printf("skip: no %s device: %s\n", which, kern_last_error(ctx));
    kern_context_free(ctx);
    return 77;
  }
  api();
  if (strncmp(which, "opencl", 6) != 0) /* no struct holds an OpenCL buffer */
    struct_api();
  aos_api();
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "fd.py", fd_src,
                                         sizeof fd_src - 1, &m));
  finite_differences(m, "k_math");
  finite_differences(m, "k_vec");
  finite_differences(m, "k_branch");
  finite_differences(m, "k_loop");
  finite_differences(m, "k_atomic");
  finite_differences(m, "k_zero");
  finite_differences(m, "k_paths");
  finite_differences(m, "k_uret");
  finite_differences(m, "k_linalg");
  finite_differences(m, "k_mat4");
  finite_differences(m, "k_floop");
  tangent(m, "k_math", true);
  tangent(m, "k_vec", true);
  tangent(m, "k_branch", true);
  tangent(m, "k_loop", true);
  tangent(m, "k_atomic", true);
  tangent(m, "k_zero", true);
  tangent(m, "k_paths", true);
  tangent(m, "k_uret", true);
  tangent(m, "k_linalg", true);
  tangent(m, "k_mat4", true);
  tangent(m, "k_floop", true);
  tangent(m, "k_jump", false);
  tangent_api();
  noise_api();
  enable_backward();
  refuse();
  func_loop_refuse();
  struct_refuse();
  custom();
  kern_context_free(ctx);
  printf("test_autodiff (%s): all checks passed\n", which);
  return 0;
}
