/*
 * linalg.c -- helper bodies of Warp's small decompositions: wp.svd3,
 * wp.svd2, wp.qr3 and wp.eig3 (checked in lower/check_linalg.c).
 *
 * Warp's answers to these are not unique (the signs of singular vectors,
 * the order of equal eigenvalues, how far an iteration has got), so kern
 * follows Warp's algorithms step for step (Note [warp decompositions]) in
 * the scalar type of the matrix, and its results agree with Warp's CPU
 * build to the bit on the C target.
 *
 * A decomposition has several results; each is a call of a helper that
 * takes the matrix and the result's index.  The helpers share one core
 * function per decomposition and scalar type, which computes everything
 * into variables passed by address.  The bodies are written once, with
 * `@` placeholders for the scalar type and its functions (expand()).
 */
#include <string.h>
#include "emit.h"

/* Note [warp decompositions]: what Warp 1.19's native/svd.h does.
 *
 * eig3 of a symmetric A: cyclic Jacobi on its lower triangle, with
 * approximate Givens rotations kept as one quaternion (McAdams et al.,
 * "Computing the SVD of 3x3 matrices with minimal branching", 2011): 4
 * sweeps in float32 and 8 in float64, each sweep the pairs (0,1), (1,2),
 * (0,2).  A rotation's half angle comes from ch = 2(s11 - s22), sh = s21,
 * normalised, unless (3 + sqrt 8) sh^2 >= ch^2, when it is pi/8.  Q is the
 * quaternion's matrix and d the diagonal of Q^T A Q.
 *
 * svd3: eig3's iteration on A^T A gives V; B = A V; B's columns (and V's)
 * are sorted by decreasing squared length, each swap negating the column
 * moved back, so V stays a rotation; then B = U R by three Givens
 * rotations (qr3) and sigma is R's diagonal, so U and V are rotations and
 * sigma[2] carries the sign of det A.
 *
 * qr3: Givens rotations on (0,1), (0,2), (1,2) below the diagonal, each
 * from the pivot a1 and the entry a2: rho = |(a1, a2)|, sh = a2 unless
 * rho <= eps (1e-6, float64 1e-12), ch = |a1| + max(rho, eps), swapped
 * when a1 < 0, then normalised; Q is the product, written out.
 *
 * svd2: closed form from A^T A's eigenvalues; when they are equal (the
 * discriminant is exactly 0) U = V = I and both singular values are
 * sqrt(trace / 2); U's second column completes it with the sign of det A.
 *
 * Warp's CUDA build uses rsqrt for 1/sqrt; kern divides on every target,
 * so its CUDA results follow Warp's CPU results. */

static const char *const jacobi_src =
    /* one Jacobi rotation of the pair (0,1) of the symmetric s (s11, s21,
     * s22, s31, s32, s33), accumulated into the quaternion q (x, y, z,
     * w); then the entries are renamed so the next pair is (0,1) */
    "@Q void k_lin_rot_@X(@s, @q, int i0, int i1, int i2) {\n"
    "  @T ch = (@T)2 * (s[0] - s[2]), sh = s[1];\n"
    "  @B big = @G * sh * sh < ch * ch;\n"
    "  @T w = (@T)1 / @S(ch * ch + sh * sh);\n"
    "  ch = big ? w * ch : 0.9238795325112867@K;\n"
    "  sh = big ? w * sh : 0.3826834323650898@K;\n"
    "  @T sc = ch * ch + sh * sh;\n"
    /* one quotient per declaration, its dividend cast: the vulkan
     * target's k_fdiv (Note [vulkan helper quotients]) */
    "  @T a = (@T)(ch * ch - sh * sh) / sc;\n"
    "  @T b = (@T)((@T)2 * sh * ch) / sc;\n"
    "  @T o11 = s[0], o21 = s[1], o22 = s[2], o31 = s[3], o32 = s[4];\n"
    "  @T n11 = a * (a * o11 + b * o21) + b * (a * o21 + b * o22);\n"
    "  @T n21 = a * (-b * o11 + a * o21) + b * (-b * o21 + a * o22);\n"
    "  @T n22 = -b * (-b * o11 + a * o21) + a * (-b * o21 + a * o22);\n"
    "  @T n31 = a * o31 + b * o32, n32 = -b * o31 + a * o32;\n"
    "  s[0] = n22; s[1] = n32; s[2] = s[5]; s[3] = n21; s[4] = n31; s[5] = n11;\n"
    "  @T t[3];\n"
    "  for (int k = 0; k < 3; k++) t[k] = q[k] * sh;\n"
    "  sh = sh * q[3];\n"
    "  for (int k = 0; k < 4; k++) q[k] = q[k] * ch;\n"
    "  q[i2] = q[i2] + sh;\n"
    "  q[3] = q[3] - t[i2];\n"
    "  q[i0] = q[i0] + t[i1];\n"
    "  q[i1] = q[i1] - t[i0];\n"
    "}\n"
    /* the sweeps, and the rotation's matrix */
    "@P void k_lin_jacobi_@X(@s, @M *m) {\n"
    "  @T q[4] = {0, 0, 0, 1};\n"
    "  for (int it = 0; it < @N; it++) {\n"
    "    k_lin_rot_@X(s, q, 0, 1, 2);\n"
    "    k_lin_rot_@X(s, q, 1, 2, 0);\n"
    "    k_lin_rot_@X(s, q, 2, 0, 1);\n"
    "  }\n"
    "  @T x = q[0], y = q[1], z = q[2], w = q[3];\n"
    "  @T xx = x * x, yy = y * y, zz = z * z, xz = x * z, xy = x * y;\n"
    "  @T yz = y * z, wx = w * x, wy = w * y, wz = w * z;\n"
    "  m->m[0][0] = (@T)1 - (@T)2 * (yy + zz);\n"
    "  m->m[0][1] = (@T)2 * (xy - wz);\n"
    "  m->m[0][2] = (@T)2 * (xz + wy);\n"
    "  m->m[1][0] = (@T)2 * (xy + wz);\n"
    "  m->m[1][1] = (@T)1 - (@T)2 * (xx + zz);\n"
    "  m->m[1][2] = (@T)2 * (yz - wx);\n"
    "  m->m[2][0] = (@T)2 * (xz - wy);\n"
    "  m->m[2][1] = (@T)2 * (yz + wx);\n"
    "  m->m[2][2] = (@T)1 - (@T)2 * (xx + yy);\n"
    "}\n"
    /* r = a^T b (t != 0) or a b, each sum from the first term */
    "@Q @M k_lin_mul_@X(const @M *a, const @M *b, int t) {\n"
    "  @M r;\n"
    "  for (int i = 0; i < 3; i++)\n"
    "    for (int j = 0; j < 3; j++) {\n"
    "      @T v = (@t ? a->m[0][i] : a->m[i][0]) * b->m[0][j];\n"
    "      v = v + (@t ? a->m[1][i] : a->m[i][1]) * b->m[1][j];\n"
    "      r.m[i][j] = v + (@t ? a->m[2][i] : a->m[i][2]) * b->m[2][j];\n"
    "    }\n"
    "  return r;\n"
    "}\n";

static const char *const qr_src =
    /* the Givens rotation that zeroes a2 against the pivot a1 */
    "@Q void k_lin_givens_@X(@T a1, @T a2, @T *ch, @T *sh) {\n"
    "  @T rho = @S(a1 * a1 + a2 * a2);\n"
    "  @T s = rho > @E ? a2 : (@T)0;\n"
    "  @T c = @A(a1) + (rho >= @E ? rho : @E);\n"
    "  if (a1 < (@T)0) { @T t = s; s = c; c = t; }\n"
    "  @T w = (@T)1 / @S(c * c + s * s);\n"
    "  *ch = c * w;\n"
    "  *sh = s * w;\n"
    "}\n"
    /* rows p and q of r become a r_p + b r_q and -b r_p + a r_q */
    "@Q void k_lin_turn_@X(@M *r, int p, int q, @T ch, @T sh) {\n"
    "  @T a = (@T)1 - (@T)2 * sh * sh, b = (@T)2 * ch * sh;\n"
    "  for (int j = 0; j < 3; j++) {\n"
    "    @T u = r->m[p][j], v = r->m[q][j];\n"
    "    r->m[p][j] = a * u + b * v;\n"
    "    r->m[q][j] = -b * u + a * v;\n"
    "  }\n"
    "}\n"
    "@P void k_lin_qr_@X(@M b, @M *q, @M *r) {\n"
    "  @T c1, s1, c2, s2, c3, s3;\n"
    "  k_lin_givens_@X(b.m[0][0], b.m[1][0], &c1, &s1);\n"
    "  k_lin_turn_@X(&b, 0, 1, c1, s1);\n"
    "  k_lin_givens_@X(b.m[0][0], b.m[2][0], &c2, &s2);\n"
    "  k_lin_turn_@X(&b, 0, 2, c2, s2);\n"
    "  k_lin_givens_@X(b.m[1][1], b.m[2][1], &c3, &s3);\n"
    "  k_lin_turn_@X(&b, 1, 2, c3, s3);\n"
    "  *r = b;\n"
    /* Q = Q1 Q2 Q3 written out; g_k = 2 s_k^2 - 1, h2 = 1 - 2 s_2^2 */
    "  @T g1 = (@T)2 * (s1 * s1) - (@T)1, g2 = (@T)2 * (s2 * s2) - (@T)1;\n"
    "  @T g3 = (@T)2 * (s3 * s3) - (@T)1, h2 = (@T)1 - (@T)2 * (s2 * s2);\n"
    "  q->m[0][0] = g1 * g2;\n"
    "  q->m[0][1] = (@T)4 * c2 * c3 * g1 * s2 * s3 + (@T)2 * c1 * s1 * g3;\n"
    "  q->m[0][2] = (@T)4 * c1 * c3 * s1 * s3 - (@T)2 * c2 * g1 * s2 * g3;\n"
    "  q->m[1][0] = (@T)2 * c1 * s1 * h2;\n"
    "  q->m[1][1] = (@T)-8 * c1 * c2 * c3 * s1 * s2 * s3 + g1 * g3;\n"
    "  q->m[1][2] = (@T)-2 * c3 * s3 + (@T)4 * s1 * (c3 * s1 * s3 + c1 * c2 * s2 * g3);\n"
    "  q->m[2][0] = (@T)2 * c2 * s2;\n"
    "  q->m[2][1] = (@T)2 * c3 * h2 * s3;\n"
    "  q->m[2][2] = g2 * g3;\n"
    "}\n";

static const char *const eig3_src =
    "@P void k_lin_eig3_@X(@M a, @M *q, @V *d) {\n"
    "  @T s[6] = {a.m[0][0], a.m[1][0], a.m[1][1], a.m[2][0], a.m[2][1], a.m[2][2]};\n"
    "  k_lin_jacobi_@X(s, q);\n"
    "  @M t = k_lin_mul_@X(q, &a, 1);\n"
    "  @M u = k_lin_mul_@X(&t, q, 0);\n"
    "  for (int k = 0; k < 3; k++) d->c[k] = u.m[k][k];\n"
    "}\n";

static const char *const svd3_src =
    "@P void k_lin_svd3_@X(@M a, @M *u, @V *sigma, @M *v) {\n"
    "  @M n = k_lin_mul_@X(&a, &a, 1);\n"
    "  @T s[6] = {n.m[0][0], n.m[1][0], n.m[1][1], n.m[2][0], n.m[2][1], n.m[2][2]};\n"
    "  k_lin_jacobi_@X(s, v);\n"
    "  @M b = k_lin_mul_@X(&a, v, 0);\n"
    "  @T rho[3];\n"
    "  for (int j = 0; j < 3; j++)\n"
    "    rho[j] = b.m[0][j] * b.m[0][j] + b.m[1][j] * b.m[1][j] + b.m[2][j] * b.m[2][j];\n"
    /* sort the columns: (0,1), (0,2), (1,2); column p takes q's, q takes
     * -p's */
    "  int pq[3][2] = {{0, 1}, {0, 2}, {1, 2}};\n"
    "  for (int k = 0; k < 3; k++) {\n"
    "    int p = pq[k][0], q = pq[k][1];\n"
    "    if (!(rho[p] < rho[q])) continue;\n"
    "    for (int i = 0; i < 3; i++) {\n"
    "      @T t = b.m[i][p]; b.m[i][p] = b.m[i][q]; b.m[i][q] = -t;\n"
    "      t = v->m[i][p]; v->m[i][p] = v->m[i][q]; v->m[i][q] = -t;\n"
    "    }\n"
    "    @T t = rho[p]; rho[p] = rho[q]; rho[q] = t;\n"
    "  }\n"
    "  @M r;\n"
    "  k_lin_qr_@X(b, u, &r);\n"
    "  for (int k = 0; k < 3; k++) sigma->c[k] = r.m[k][k];\n"
    "}\n";

static const char *const svd2_src =
    "@P void k_lin_svd2_@X(@M a, @M *u, @V *sigma, @M *v) {\n"
    "  @T a11 = a.m[0][0], a12 = a.m[0][1], a21 = a.m[1][0], a22 = a.m[1][1];\n"
    "  @T n11 = a11 * a11 + a21 * a21, n12 = a11 * a12 + a21 * a22;\n"
    "  @T n22 = a12 * a12 + a22 * a22;\n"
    "  @T tr = n11 + n22, df = n11 - n22;\n"
    "  @T disc = df * df + (@T)4 * n12 * n12;\n"
    "  if (disc == (@T)0) {\n"
    "    sigma->c[0] = sigma->c[1] = @S((@T)0.5 * tr);\n"
    "    u->m[0][0] = v->m[0][0] = (@T)1; u->m[0][1] = v->m[0][1] = (@T)0;\n"
    "    u->m[1][0] = v->m[1][0] = (@T)0; u->m[1][1] = v->m[1][1] = (@T)1;\n"
    "    return;\n"
    "  }\n"
    "  @T root = @S(disc);\n"
    "  @T l1 = (tr + root) * (@T)0.5, l2 = (tr - root) * (@T)0.5;\n"
    "  @T inv1 = (@T)1 / @S(l1);\n"
    "  @T y = df - root + (@T)2 * n12, x = df + root - (@T)2 * n12;\n"
    "  @T len2 = x * x + y * y;\n"
    "  if (len2 == (@T)0) {\n"
    "    v->m[0][0] = v->m[1][0] = 0.707106781186547524401@K;\n"
    "  } else {\n"
    "    @T il = (@T)1 / @S(len2);\n"
    "    v->m[0][0] = x * il;\n"
    "    v->m[1][0] = y * il;\n"
    "  }\n"
    "  v->m[0][1] = -v->m[1][0];\n"
    "  v->m[1][1] = v->m[0][0];\n"
    "  u->m[0][0] = (a11 * v->m[0][0] + a12 * v->m[1][0]) * inv1;\n"
    "  u->m[1][0] = (a21 * v->m[0][0] + a22 * v->m[1][0]) * inv1;\n"
    "  @T dt = a11 * a22 - a12 * a21;\n"
    "  @T sg = dt < (@T)0 ? (@T)-1 : (@T)1;\n"
    "  u->m[0][1] = -u->m[1][0] * sg;\n"
    "  u->m[1][1] = u->m[0][0] * sg;\n"
    "  @T s1 = (@T)1 / inv1;\n"
    "  sigma->c[0] = s1;\n"
    "  sigma->c[1] = @S(l2);\n"
    "}\n";

/* Note [vulkan helper quotients]: GLSL's float32 division need not be
 * correctly rounded (2.5 ulp), and the vulkan target makes it so by
 * writing k_fdiv (Note [correctly rounded division and sqrt] in
 * vulkan.c) where it can tell the operands are float32: in these helpers'
 * text, a declaration `float x = L / R;` whose L or R is a cast to float.
 * A quotient written otherwise stayed the driver's: svd3's Jacobi
 * rotation (a and b, two quotients in one declaration) and svd2's
 * sigma[0] (an assignment).  On NVIDIA that rotation, on a rank-one
 * matrix (two zero singular values, where the rotation between their
 * vectors is decided by rounding), gave V off by 5e-5 and U's columns
 * negated against Warp's (linalg_svd3, row 2).  So each quotient here is
 * a declaration of its own with a cast operand; C, CUDA and OpenCL read
 * the same arithmetic (a cast of a float to float). */

/* src with its placeholders replaced: @Q the function qualifiers (@P
 * those of the decompositions themselves), @T the scalar type, @X its
 * signature (f32), @M and @V the matrix and vector types, @S( and @A( sqrt
 * and fabs, @K a literal's suffix, @G, @E and @N Warp's constants for the
 * type, @s and @q the parameters s[6] and q[4] of the Jacobi rotation
 * (Note [vulkan array parameters] in extra.c), @B a condition's type and
 * @t the condition "t" (GLSL's conditions are bools). */
static void expand(Emit *E, Buf *b, const char *src, kern_scalar sc, int n) {
  bool f32 = sc == KERN_SCALAR_FLOAT32;
  bool suffix = f32 && !E->T->overloaded_math;
  const char *rep[128] = {0};
  rep['Q'] = E->T->fn_qual;
  /* The decompositions themselves are called, not inlined, on CUDA: the
   * kernel body is emitted twice (the 1-D fast path and the general loop,
   * cuda.c) with a call per result, and inlining all of them made NVRTC take 17 s on a
   * float64 svd3 kernel. */
  rep['P'] = E->T->id == KERN_TARGET_CUDA ? "static __device__ __noinline__"
                                          : E->T->fn_qual;
  rep['T'] = emit_ctype(E, ty_scalar(sc));
  rep['X'] = emit_tysig(E, ty_scalar(sc));
  rep['M'] = emit_ctype(E, ty_mat(E->C, sc, n, n));
  rep['V'] = emit_ctype(E, ty_vec(E->C, sc, n));
  rep['S'] = suffix ? "sqrtf" : "sqrt";
  rep['A'] = suffix ? "fabsf" : "fabs";
  rep['K'] = f32 ? "f" : "";
  /* (3 + sqrt 8) rounded to the type, as Warp's Type(double) */
  rep['G'] = f32 ? "5.82842712474619f" : "5.82842712474619";
  rep['E'] = f32 ? "1e-6f" : "1e-12";
  rep['N'] = f32 ? "4" : "8";
  bool vk = E->T->id == KERN_TARGET_VULKAN;
  rep['B'] = vk ? "bool" : "int";
  rep['t'] = vk ? "t != 0" : "t";
  rep['s'] = emit_array_param(E, rep['T'], "s", 6);
  rep['q'] = emit_array_param(E, rep['T'], "q", 4);
  for (const char *p = src; *p; p++) {
    if (*p == '@' && p[1] > 0 && rep[(int)p[1]]) {
      buf_puts(b, rep[(int)p[1]]);
      p++;
    } else {
      char c[2] = {*p, 0};
      buf_puts(b, c);
    }
  }
}

/* Core function `part` (a template above) for scalar type sc and size n,
 * once per module, after the parts it calls. */
static void need_part(Emit *E, const char *part, kern_scalar sc, int n) {
  const char *name = arena_printf(E->C, "k_lin_%s_%s", part,
                                  emit_tysig(E, ty_scalar(sc)));
  if (!emit_need(E, name))
    return;
  const char *src = svd2_src;
  if (!strcmp(part, "jacobi")) {
    src = jacobi_src;
  } else if (!strcmp(part, "qr")) {
    src = qr_src;
  } else if (!strcmp(part, "eig3")) {
    need_part(E, "jacobi", sc, n);
    src = eig3_src;
  } else if (!strcmp(part, "svd3")) {
    need_part(E, "jacobi", sc, n);
    need_part(E, "qr", sc, n);
    src = svd3_src;
  }
  Buf b;
  buf_init(&b, E->C);
  expand(E, &b, src, sc, n);
  emit_pre(E, name, "%s", b.p);
}

bool emit_linalg_helper(Emit *E, Buf *b, int bi, const Type *ret,
                        const Type **args, const char *name) {
  if (bi != BI_SVD3 && bi != BI_SVD2 && bi != BI_QR3 && bi != BI_EIG3)
    return false;
  const Type *m = args[0];
  kern_scalar sc = m->sc;
  int n = m->rows;
  need_part(E, bi == BI_SVD3 ? "svd3" : bi == BI_SVD2 ? "svd2"
             : bi == BI_QR3 ? "qr" : "eig3", sc, n);
  const char *M = emit_ctype(E, m), *V = emit_ctype(E, ty_vec(E->C, sc, n));
  const char *X = emit_tysig(E, ty_scalar(sc));
  buf_printf(b, "%s %s %s(%s a, int32_t i) {\n", E->T->fn_qual,
             emit_ctype(E, ret), name, M);
  switch (bi) {
  case BI_SVD3: case BI_SVD2:
    buf_printf(b, "  %s u, v; %s s;\n  k_lin_svd%d_%s(a, &u, &s, &v);\n", M,
               V, n, X);
    buf_puts(b, ret->kind == TY_VEC ? "  (void)i;\n  return s;\n"
                                    : "  return i == 0 ? u : v;\n");
    break;
  case BI_QR3:
    buf_printf(b, "  %s q, r;\n  k_lin_qr_%s(a, &q, &r);\n"
                  "  return i == 0 ? q : r;\n", M, X);
    break;
  case BI_EIG3:
    buf_printf(b, "  %s q; %s d;\n  k_lin_eig3_%s(a, &q, &d);\n", M, V, X);
    buf_puts(b, ret->kind == TY_VEC ? "  (void)i;\n  return d;\n"
                                    : "  (void)i;\n  return q;\n");
    break;
  }
  buf_puts(b, "}\n");
  return true;
}
