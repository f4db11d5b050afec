/*
 * test_ptx.c -- the PTX tier's emitter (src/emit/ptx.c, Note [PTX tier]),
 * without a GPU.
 *
 *  - Every conformance file is compiled with kc_options.ptx = 90: the
 *    number of modules the tier covers may not fall below MIN_COVERED,
 *    every covered module's PTX is accepted by ptxas (when one is found:
 *    $PTXAS, PATH, /usr/local/cuda/bin, or the pip wheel .ci/run
 *    installs), the CUDA source is byte for byte the one compiled without
 *    the option, and a second compilation gives the same PTX bytes.
 *  - The ABI: a kernel's .param declarations have the sizes of the
 *    structs the CUDA backend passes (kern__arr's first 40 bytes, the
 *    scalars, vectors and matrices by value, kern__dims), and, where nvcc
 *    is found, the sizes and alignments nvcc declares for the emitted
 *    CUDA of the same kernel.
 *  - Refusals: wp.sin names its line and column; debug mode is refused.
 *  - Vectors: wp.dot sums from 0 as its helper, normalize divides by the
 *    length, the 4x4 inverse keeps Warp's double intermediates (Note [4x4
 *    inverse] in ir/expand.c), and intersect_tri_tri and
 *    quat_from_axis_angle (written out by the expansion, its wp.sin) are
 *    refused.
 *
 *   emit_ptx CONFORMANCE_DIR
 */
#include <dirent.h>
#include <glob.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include "kern.h"
#include "kern_test.h"
#include "base.h"
#include "compile.h"

/* Set from the real count (see the report line) minus a small margin. */
enum { MIN_COVERED = 178 }; /* 184 on 2026-11-26 (91 before vectors) */

static char tmpdir[] = "/tmp/kern_ptx_XXXXXX";

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  if (p) p[n] = 0;
  fclose(f);
  return p;
}

static void spit(const char *path, const char *s) {
  FILE *f = fopen(path, "wb");
  ASSERT_TRUE(f != NULL);
  fputs(s, f);
  fclose(f);
}

/* A program on PATH, or NULL. */
static char *on_path(const char *name) {
  const char *path = getenv("PATH");
  if (!path) return NULL;
  char buf[4096];
  while (*path) {
    const char *c = strchr(path, ':');
    size_t n = c ? (size_t)(c - path) : strlen(path);
    snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name);
    if (n && access(buf, X_OK) == 0) return strdup(buf);
    path += n + (c ? 1 : 0);
  }
  return NULL;
}

static char *find_tool(const char *env, const char *name) {
  const char *e = getenv(env);
  if (e && *e) return access(e, X_OK) == 0 ? strdup(e) : NULL;
  char *p = on_path(name);
  if (p) return p;
  char buf[256];
  snprintf(buf, sizeof buf, "/usr/local/cuda/bin/%s", name);
  if (access(buf, X_OK) == 0) return strdup(buf);
  /* .ci/run's NVIDIA wheels */
  snprintf(buf, sizeof buf, "/opt/kern-cuda/lib/python3*/site-packages/nvidia/cu13/bin/%s", name);
  glob_t g;
  char *found = NULL;
  if (glob(buf, 0, NULL, &g) == 0 && g.gl_pathc > 0) found = strdup(g.gl_pathv[0]);
  globfree(&g);
  return found;
}

static kern_status compile(const char *path, const char *src, int ptx, int debug,
                           kc_result *r) {
  kc_options o = {debug, 0, 0, 0, ptx, 0, NULL, 0, 0};
  return kern__compile(path, src, strlen(src), KERN_TARGET_CUDA, &o, r);
}

/* ---------------------------------------------------------------- conformance */

static void conformance(const char *dir, const char *ptxas) {
  DIR *d = opendir(dir);
  ASSERT_TRUE(d != NULL);
  struct dirent *e;
  int files = 0, covered = 0, assembled = 0, refused = 0;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 3, ".py")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char *src = slurp(path);
    if (!src) continue;
    kc_result plain, r, again;
    if (compile(path, src, 0, 0, &plain) != KERN_SUCCESS) {
      kern__compile_result_free(&plain);
      free(src);
      continue; /* a file of expected errors */
    }
    files++;
    EXPECT_TRUE(plain.ptx == NULL && plain.ptx_why == NULL);
    ASSERT_EQ(compile(path, src, 90, 0, &r), KERN_SUCCESS);
    /* the CUDA source does not change with the option */
    EXPECT_EQ(r.source_len, plain.source_len);
    EXPECT_TRUE(r.source_len == plain.source_len &&
                memcmp(r.source, plain.source, r.source_len) == 0);
    /* exactly one of the PTX and the reason */
    EXPECT_TRUE((r.ptx != NULL) != (r.ptx_why != NULL));
    if (r.ptx) {
      covered++;
      EXPECT_EQ(strlen(r.ptx), r.ptx_len);
      ASSERT_EQ(compile(path, src, 90, 0, &again), KERN_SUCCESS);
      EXPECT_TRUE(again.ptx && strcmp(again.ptx, r.ptx) == 0); /* deterministic */
      kern__compile_result_free(&again);
      EXPECT_CONTAINS(r.ptx, ".target sm_90");
      for (int k = 0; k < r.nkernels; k++) {
        char entry[512];
        snprintf(entry, sizeof entry, ".visible .entry %s(", r.kernels[k].symbol);
        EXPECT_CONTAINS(r.ptx, entry);
      }
      if (ptxas) {
        char ptxfile[4200], cmd[8400];
        snprintf(ptxfile, sizeof ptxfile, "%s/m.ptx", tmpdir);
        spit(ptxfile, r.ptx);
        snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 -o /dev/null '%s'", ptxas, ptxfile);
        int rc = system(cmd);
        if (rc != 0) fprintf(stderr, "ptxas rejects the PTX of %s\n", path);
        EXPECT_EQ(rc, 0);
        assembled += rc == 0;
      }
    } else {
      refused++;
      /* "path:line:col: the PTX tier does not cover ..." */
      EXPECT_TRUE(r.ptx_why && strncmp(r.ptx_why, path, strlen(path)) == 0);
      EXPECT_CONTAINS(r.ptx_why, ": the PTX tier does not cover ");
    }
    kern__compile_result_free(&r);
    kern__compile_result_free(&plain);
    free(src);
  }
  closedir(d);
  printf("ptx_emit: the PTX tier covers %d of %d conformance modules (%d "
         "refused)\n", covered, files, refused);
  if (ptxas)
    printf("ptx_emit: ptxas (%s) accepted %d of %d\n", ptxas, assembled, covered);
  else
    printf("ptx_emit: ptxas was not found, so the PTX was not assembled\n");
  EXPECT_TRUE(covered >= MIN_COVERED);
}

/* ---------------------------------------------------------------- ABI */

static const char abi_src[] =
    "import warp as wp\n"
    "\n"
    "@wp.kernel\n"
    "def k(x: wp.array(dtype=wp.float32), a: wp.float32, n: wp.int32,\n"
    "      m: wp.array2d(dtype=wp.int64), d: wp.float64, b: wp.bool,\n"
    "      v: wp.vec3, vd: wp.vec2d, vi: wp.vec4i, q: wp.mat33, md: wp.mat22d,\n"
    "      m44: wp.mat44, av: wp.array(dtype=wp.vec3), am: wp.array(dtype=wp.mat22d)):\n"
    "    i = wp.tid()\n"
    "    if i < n and b:\n"
    "        x[i] = x[i] * a + v[1] + wp.float32(vd[0]) + wp.float32(vi[3])\n"
    "        x[i] = x[i] + q[2, 1] + wp.float32(md[1, 0]) + m44[3, 3]\n"
    "        av[i] = av[i] + v\n"
    "        am[i] = am[i] * md\n"
    "        m[0, 0] = wp.int64(d)\n";

/* The byte sizes of an entry's .param declarations, in order. */
static int param_sizes(const char *ptx, const char *entry, size_t *out, int max) {
  const char *p = strstr(ptx, entry);
  if (!p) return -1;
  const char *end = strchr(p, ')');
  int n = 0;
  while ((p = strstr(p, ".param")) && p < end && n < max) {
    const char *line_end = strchr(p, '\n');
    const char *br = memchr(p, '[', (size_t)(line_end - p));
    if (br) {
      out[n++] = (size_t)strtoul(br + 1, NULL, 10);
    } else {
      /* .param .TYPE name: the type's bits */
      const char *t = p + 7;
      while (*t == ' ') t++;
      const char *digits = t;
      while (*digits && !(*digits >= '0' && *digits <= '9')) digits++;
      out[n++] = (size_t)strtoul(digits, NULL, 10) / 8;
    }
    p = line_end;
  }
  return n;
}

static void abi(const char *nvcc) {
  kc_result r;
  ASSERT_EQ(compile("abi.py", abi_src, 90, 0, &r), KERN_SUCCESS);
  ASSERT_TRUE(r.ptx != NULL);
  ASSERT_EQ(r.nkernels, 1);
  size_t got[32];
  char entry[256];
  snprintf(entry, sizeof entry, ".entry %s(", r.kernels[0].symbol);
  int n = param_sizes(r.ptx, entry, got, 32);
  ASSERT_EQ(n, r.kernels[0].nparams + 1);
  /* what the CUDA backend passes: kern__arr's first 40 bytes (the C and
   * CUDA targets read only those), scalars, vectors and matrices by value
   * (kern_type_size: the components), kern__dims */
  size_t want[32];
  for (int i = 0; i < r.kernels[0].nparams; i++) {
    const kc_param *p = &r.kernels[0].params[i];
    want[i] = p->kind == KERN_PARAM_ARRAY ? offsetof(kern__arr, off)
              : p->type.kind != KERN_KIND_SCALAR ? kern_type_size(p->type)
              : p->type.scalar == KERN_SCALAR_FLOAT32 ? sizeof(float)
              : p->type.scalar == KERN_SCALAR_FLOAT64 ? sizeof(double)
              : p->type.scalar == KERN_SCALAR_INT32 ? sizeof(int32_t)
              : p->type.scalar == KERN_SCALAR_BOOL ? 1 : 0;
  }
  want[r.kernels[0].nparams] = sizeof(kern__dims);
  for (int i = 0; i < n; i++) EXPECT_EQ(got[i], want[i]);
  EXPECT_EQ(got[0], 40);
  EXPECT_EQ(got[n - 1], 64); /* kern__dims, block included */
  EXPECT_EQ(got[6], 12); /* vec3: 3 floats */
  EXPECT_EQ(got[9], 36); /* mat33 */
  EXPECT_EQ(got[11], 64); /* mat44 */
  EXPECT_CONTAINS(r.ptx, ".param .align 8 .b8");
  /* the alignment of a struct of floats is a float's, of doubles a double's */
  EXPECT_CONTAINS(r.ptx, ".param .align 4 .b8 kern_k_k_param_6[12]");
  EXPECT_CONTAINS(r.ptx, ".param .align 8 .b8 kern_k_k_param_7[16]");
  EXPECT_CONTAINS(r.ptx, ".param .align 8 .b8 kern_k_k_param_10[32]");
  /* nvcc's own declarations for the emitted CUDA of the same kernel */
  if (nvcc) {
    char cu[4200], ptxf[4200], cmd[13000];
    snprintf(cu, sizeof cu, "%s/abi.cu", tmpdir);
    snprintf(ptxf, sizeof ptxf, "%s/abi_nvcc.ptx", tmpdir);
    spit(cu, r.source);
    snprintf(cmd, sizeof cmd, "'%s' -ptx -arch=sm_90 -w -o '%s' '%s'", nvcc, ptxf, cu);
    if (system(cmd) == 0) {
      char *np = slurp(ptxf);
      ASSERT_TRUE(np != NULL);
      size_t theirs[32];
      int m = param_sizes(np, entry, theirs, 32);
      EXPECT_EQ(m, n);
      for (int i = 0; i < n && i < m; i++) EXPECT_EQ(got[i], theirs[i]);
      /* and the alignments */
      int al = 0;
      for (const char *q = np; (q = strstr(q, ".param .align ")); q++) {
        char decl[128];
        snprintf(decl, sizeof decl, ".param .align %.*s", (int)strcspn(q + 14, "\n,"), q + 14);
        if (strstr(decl, "_param_")) {
          EXPECT_CONTAINS(r.ptx, decl);
          al++;
        }
      }
      EXPECT_TRUE(al >= 9);
      printf("ptx_abi: the parameter sizes equal nvcc's for the CUDA form\n");
      free(np);
    } else {
      fprintf(stderr, "nvcc could not compile the CUDA form\n");
      EXPECT_TRUE(0);
    }
  } else {
    printf("ptx_abi: nvcc was not found; sizes checked against compile.h\n");
  }
  kern__compile_result_free(&r);
}

/* ---------------------------------------------------------------- refusals */

static void refusals(void) {
  static const char sin_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(x: wp.array(dtype=wp.float32)):\n"
      "    i = wp.tid()\n"
      "    x[i] = wp.sin(x[i])\n";
  kc_result r;
  ASSERT_EQ(compile("sin.py", sin_src, 90, 0, &r), KERN_SUCCESS);
  EXPECT_TRUE(r.ptx == NULL);
  EXPECT_TRUE(r.source != NULL); /* the CUDA form is still there */
  ASSERT_TRUE(r.ptx_why != NULL);
  /* a call has no position of its own in the IR: its statement's, the
   * store that starts at line 6, column 5 */
  EXPECT_STREQ(r.ptx_why, "sin.py:6:5: the PTX tier does not cover wp.sin");
  kern__compile_result_free(&r);

  static const char ok_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(x: wp.array(dtype=wp.float32)):\n"
      "    i = wp.tid()\n"
      "    x[i] = x[i] + 1.0\n";
  ASSERT_EQ(compile("ok.py", ok_src, 90, 1, &r), KERN_SUCCESS);
  EXPECT_TRUE(r.ptx == NULL);
  EXPECT_TRUE(r.ptx_why && strstr(r.ptx_why, "does not cover debug mode"));
  kern__compile_result_free(&r);
  /* an architecture with no known PTX ISA */
  ASSERT_EQ(compile("ok.py", ok_src, 52, 0, &r), KERN_SUCCESS);
  EXPECT_TRUE(r.ptx == NULL && r.ptx_why && strstr(r.ptx_why, "sm_52"));
  kern__compile_result_free(&r);
  /* ISA versions: sm_80 gets 7.0 */
  ASSERT_EQ(compile("ok.py", ok_src, 80, 0, &r), KERN_SUCCESS);
  EXPECT_TRUE(r.ptx && strstr(r.ptx, ".version 7.0\n.target sm_80\n"));
  kern__compile_result_free(&r);
  /* other targets never get PTX */
  kc_options o = {0, 0, 0, 0, 90, 0, NULL, 0, 0};
  ASSERT_EQ(kern__compile("ok.py", ok_src, strlen(ok_src), KERN_TARGET_C, &o, &r),
            KERN_SUCCESS);
  EXPECT_TRUE(r.ptx == NULL && r.ptx_why == NULL);
  kern__compile_result_free(&r);
}

/* Occurrences of s in the text p. */
static int count(const char *p, const char *s) {
  int n = 0;
  for (; (p = strstr(p, s)); p += strlen(s)) n++;
  return n;
}

/* Vectors and matrices (Note [PTX vectors]): the operations are the
 * helpers' own, in their order, and what is not exact is refused. */
static void vectors(void) {
  kc_result r;
  /* wp.dot of a vec3 sums its products directly, as the helper and Warp's
   * vec.h do (a0*b0 + a1*b1 + a2*b2): two additions for three products,
   * so that -0 products give -0 (a sum from 0 gave +0: issue #23's special
   * values, found by the expanded IR's CPU run) */
  static const char dot_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), o: wp.array(dtype=float)):\n"
      "    i = wp.tid()\n"
      "    o[i] = wp.dot(a[i], b[i])\n";
  ASSERT_EQ(compile("dot.py", dot_src, 90, 0, &r), KERN_SUCCESS);
  ASSERT_TRUE(r.ptx != NULL);
  EXPECT_EQ(count(r.ptx, "mul.rn.f32"), 3);
  EXPECT_EQ(count(r.ptx, "add.rn.f32"), 2);
  EXPECT_EQ(count(r.ptx, "ld.global.f32"), 6);
  EXPECT_CONTAINS(r.ptx, "+8];"); /* the third component of a 12-byte element */
  EXPECT_TRUE(strstr(r.ptx, "fma") == NULL);
  kern__compile_result_free(&r);
  /* normalize divides by the length (not by a reciprocal); a quaternion's
   * multiplies by 1 / length, as Warp's two helpers do */
  static const char norm_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(a: wp.array(dtype=wp.vec3), q: wp.array(dtype=wp.quat)):\n"
      "    i = wp.tid()\n"
      "    a[i] = wp.normalize(a[i])\n"
      "    q[i] = wp.normalize(q[i])\n";
  ASSERT_EQ(compile("norm.py", norm_src, 90, 0, &r), KERN_SUCCESS);
  ASSERT_TRUE(r.ptx != NULL);
  EXPECT_EQ(count(r.ptx, "sqrt.rn.f32"), 2);
  EXPECT_EQ(count(r.ptx, "div.rn.f32"), 3 + 1);
  kern__compile_result_free(&r);
  /* the bitwise atomics, exchange and compare-and-swap work on the bits,
   * as atomicOr, atomicExch and atomicCAS do */
  static const char atom_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(a: wp.array(dtype=wp.int32), f: wp.array(dtype=float), d: wp.array(dtype=wp.float64)):\n"
      "    i = wp.tid()\n"
      "    x = wp.atomic_or(a, 0, i)\n"
      "    y = wp.atomic_exch(f, 1, 1.5)\n"
      "    z = wp.atomic_cas(d, 2, wp.float64(0.0), wp.float64(y))\n"
      "    a[1] = x + wp.int32(z)\n";
  ASSERT_EQ(compile("atom.py", atom_src, 90, 0, &r), KERN_SUCCESS);
  ASSERT_TRUE(r.ptx != NULL);
  EXPECT_CONTAINS(r.ptx, "atom.global.or.b32");
  EXPECT_CONTAINS(r.ptx, "atom.global.exch.b32");
  EXPECT_CONTAINS(r.ptx, "atom.global.cas.b64");
  kern__compile_result_free(&r);
  /* the 4x4 inverse: minors and cofactors partly in double, as Warp's
   * mat.h: 8 cofactors and the 16 results narrowed to float, one double
   * division (the reciprocal of the determinant) */
  static const char inv4_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(a: wp.array(dtype=wp.mat44), d: wp.array(dtype=float)):\n"
      "    i = wp.tid()\n"
      "    d[i] = wp.determinant(a[i])\n"
      "    a[i] = wp.inverse(a[i])\n";
  ASSERT_EQ(compile("inv4.py", inv4_src, 90, 0, &r), KERN_SUCCESS);
  ASSERT_TRUE(r.ptx != NULL);
  EXPECT_EQ(count(r.ptx, "div.rn.f64"), 1);
  EXPECT_EQ(count(r.ptx, "div.rn.f32"), 0);
  EXPECT_EQ(count(r.ptx, "cvt.rn.f32.f64"), (4 + 1) + (8 + 16));
  kern__compile_result_free(&r);
  /* refused: transcendental quaternion builtins, intersect_tri_tri
   * (extra.c's helper; the expansion writes quat_slerp, norm_l1 of a
   * quaternion and closest_point_edge_edge out since the autodiff work) */
  static const char *const bad[][2] = {
      {"    q = wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), x[i])\n"
       "    x[i] = q[0]\n", "bad.py:6:7: the PTX tier does not cover wp.sin"},
      {"    x[i] = float(wp.intersect_tri_tri(wp.vec3(x[i]), wp.vec3(1.0), wp.vec3(2.0), "
       "wp.vec3(3.0), wp.vec3(0.0), wp.vec3(1.0)))\n", "wp.intersect_tri_tri"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char src[1024];
    snprintf(src, sizeof src,
             "import warp as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n"
             "    i = wp.tid()\n%s", bad[k][0]);
    ASSERT_EQ(compile("bad.py", src, 90, 0, &r), KERN_SUCCESS);
    EXPECT_TRUE(r.ptx == NULL);
    EXPECT_TRUE(r.ptx_why && strstr(r.ptx_why, bad[k][1]));
    if (r.ptx_why && !strstr(r.ptx_why, bad[k][1]))
      fprintf(stderr, "refusal: %s\n", r.ptx_why);
    kern__compile_result_free(&r);
  }
}

/* Scalar rules (Note [scalar rules] in ir/expand.c): the PTX spells the
 * operators and selects the expansion wrote, not builtins of its own. */
static void scalar_rules(void) {
  kc_result r;
  static const char src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(a: wp.array(dtype=wp.int32), f: wp.array(dtype=float)):\n"
      "    i = wp.tid()\n"
      "    a[i] = a[i] // a[i + 1] + a[i] % a[i + 2]\n"
      "    f[i] = wp.min(f[i], f[i + 1]) + wp.sign(f[i])\n";
  ASSERT_EQ(compile("rules.py", src, 90, 0, &r), KERN_SUCCESS);
  ASSERT_TRUE(r.ptx != NULL);
  /* // divides once and takes the remainder for its rounding; % once */
  EXPECT_EQ(count(r.ptx, "div.s32"), 1);
  EXPECT_EQ(count(r.ptx, "rem.s32"), 2);
  /* the divisors 0 and -1 are tested (twice each) before any division */
  EXPECT_TRUE(count(r.ptx, ", -1;") >= 2);
  EXPECT_TRUE(strstr(r.ptx, "setp.eq.s32") < strstr(r.ptx, "div.s32"));
  /* Warp's min is two selects (b == b tests for NaN), not min.f32; sign
   * is one */
  EXPECT_TRUE(strstr(r.ptx, "min.f32") == NULL);
  EXPECT_EQ(count(r.ptx, "selp.f32"), 3);
  kern__compile_result_free(&r);
  /* a 16-bit float's min keeps its call (it computes in float32), which
   * this tier refuses by name */
  static const char half_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(h: wp.array(dtype=wp.float16)):\n"
      "    i = wp.tid()\n"
      "    h[i] = wp.min(h[i], h[i + 1])\n";
  ASSERT_EQ(compile("half.py", half_src, 90, 0, &r), KERN_SUCCESS);
  EXPECT_TRUE(r.ptx == NULL);
  EXPECT_TRUE(r.ptx_why != NULL);
  kern__compile_result_free(&r);
}

/* The public entry: kern_compile_source's "ptx" and "ptx:N" targets. */
static void api(void) {
  static const char ok_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(x: wp.array(dtype=wp.float32)):\n"
      "    i = wp.tid()\n"
      "    x[i] = wp.max(x[i], 0.0)\n";
  static const char bad_src[] =
      "import warp as wp\n"
      "\n"
      "@wp.kernel\n"
      "def k(x: wp.array(dtype=wp.float32)):\n"
      "    i = wp.tid()\n"
      "    x[i] = wp.exp(x[i])\n";
  kern_options ko = KERN_OPTIONS_INIT;
  kern_context *ctx;
  ASSERT_EQ(kern_context_new(&ko, &ctx), KERN_SUCCESS);
  char *out = NULL;
  ASSERT_OK(ctx, kern_compile_source(ctx, "ok.py", ok_src, strlen(ok_src), "ptx", &out));
  EXPECT_CONTAINS(out, ".target sm_90");
  EXPECT_CONTAINS(out, ".visible .entry kern_k_k(");
  kern_free(out);
  out = NULL;
  ASSERT_OK(ctx, kern_compile_source(ctx, "ok.py", ok_src, strlen(ok_src), "ptx:86", &out));
  EXPECT_CONTAINS(out, ".version 7.1\n.target sm_86");
  kern_free(out);
  out = NULL;
  EXPECT_STATUS(ctx, kern_compile_source(ctx, "bad.py", bad_src, strlen(bad_src), "ptx", &out),
                KERN_ERROR_COMPILE);
  EXPECT_CONTAINS(kern_last_error(ctx), "bad.py:6:5: the PTX tier does not cover wp.exp");
  EXPECT_TRUE(out == NULL);
  EXPECT_STATUS(ctx, kern_compile_source(ctx, "ok.py", ok_src, strlen(ok_src), "ptx:x", &out),
                KERN_ERROR_INVALID_ARGUMENT);
  kern_context_free(ctx);
}

int main(int argc, char **argv) {
  ASSERT_TRUE(argc == 2);
  ASSERT_TRUE(mkdtemp(tmpdir) != NULL);
  char *ptxas = find_tool("PTXAS", "ptxas");
  char *nvcc = find_tool("NVCC", "nvcc");
  refusals();
  vectors();
  scalar_rules();
  api();
  abi(nvcc);
  conformance(argv[1], ptxas);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmpdir);
  free(ptxas);
  free(nvcc);
  return kern_test_report("emit_ptx");
}
