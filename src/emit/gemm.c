/*
 * gemm.c -- the tensor-core kernel of a tile GEMM on Hopper (issue #24).
 *
 * Note [tile GEMM]: a kernel recognised as Warp's tile GEMM (Note [GEMM
 * recognition] in lower/check_gemm.c) gets, beside its ordinary kernel
 * SYMBOL, a second one, SYMBOL_wg, for sm_90a (H100, H200).  Block (i, j)
 * of the launch computes output tile (i, j) of the same shape as the
 * user's tiles, so the two kernels compute the same thing; the runtime
 * launches SYMBOL_wg where it can (Note [tile GEMM launch] in
 * runtime/cuda_gemm.c) and SYMBOL elsewhere.
 *
 * The schedule, per block of 1 + TM / 64 warpgroups (256 or 384 threads):
 *   - warpgroup 0 is the producer: one thread issues the tensor-memory
 *     accelerator's bulk copies (cp.async.bulk.tensor) of A's TM x 64 and
 *     B's 64 x TN tiles into a ring of shared-memory stages, 128-byte
 *     swizzled, each stage completing on an mbarrier ("full");
 *   - each other warpgroup owns 64 rows of the tile and issues wgmma
 *     m64nTNk16 from the stage (A K-major, B N-major: the transpose bit),
 *     accumulating in float32 registers, then frees the stage ("empty");
 *   - the epilogue runs in registers: + bias[col], the tile_map function,
 *     the conversion to C's type, and the store, each element bounds-
 *     checked against C as tile_store is.
 * Out-of-range rows and columns of A and B are read as zero by the copy
 * engine, as tile_load reads them.  Blocks are taken in groups of 8 tile
 * rows so that neighbouring blocks share A's and B's tiles in L2.  The
 * tensor maps are built by the runtime per launch (they hold the arrays'
 * addresses) and passed by value.  Everything is inline PTX: NVRTC needs
 * no header.  The whole of it sits under __CUDA_ARCH_FEAT_SM90_ALL, which
 * only an sm_90a build defines (kc_result.sm90a asks the runtime for one);
 * other builds have SYMBOL alone.
 */
#include "emit.h"

/* What the launch passes besides the tensor maps; runtime/cuda_gemm.c
 * fills the same layout (kern__gemm_args). */
static const char gemm_helpers[] =
    "#ifndef K_GEMM_ARGS\n"
    "#define K_GEMM_ARGS\n"
    "typedef struct __align__(64) { unsigned long long v[16]; } k_tmap;\n"
    "typedef struct { void *c; const void *bias; int64_t m, n, nbias;\n"
    "  int32_t nk, tiles_m, tiles_n, pad; const void *a, *b;\n"
    "  int64_t am, ak, bk, bn; } k_gemm_args;\n"
    "#endif\n"
    "#if defined(__CUDA_ARCH_FEAT_SM90_ALL) && !defined(K_GEMM_SM90)\n"
    "#define K_GEMM_SM90\n"
    "static __device__ __forceinline__ unsigned k_su32(const void *p) {\n"
    "  return (unsigned)__cvta_generic_to_shared(p);\n"
    "}\n"
    "static __device__ __forceinline__ void k_mbar_init(unsigned b, unsigned n) {\n"
    "  asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\" :: \"r\"(b), \"r\"(n));\n"
    "}\n"
    "static __device__ __forceinline__ void k_mbar_expect(unsigned b, unsigned bytes) {\n"
    "  asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\" :: \"r\"(b), \"r\"(bytes) : \"memory\");\n"
    "}\n"
    "static __device__ __forceinline__ void k_mbar_arrive(unsigned b) {\n"
    "  asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\" :: \"r\"(b) : \"memory\");\n"
    "}\n"
    "static __device__ __forceinline__ void k_mbar_wait(unsigned b, unsigned parity) {\n"
    "  asm volatile(\"{\\n.reg .pred p;\\nW:\\n\"\n"
    "               \"mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\\n\"\n"
    "               \"@!p bra W;\\n}\\n\" :: \"r\"(b), \"r\"(parity) : \"memory\");\n"
    "}\n"
    "static __device__ __forceinline__ void k_tma2d(unsigned dst, const k_tmap *m, unsigned b, int c0, int c1) {\n"
    "  asm volatile(\"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes\"\n"
    "               \" [%0], [%1, {%3, %4}], [%2];\"\n"
    "               :: \"r\"(dst), \"l\"((unsigned long long)m), \"r\"(b), \"r\"(c0), \"r\"(c1) : \"memory\");\n"
    "}\n"
    "/* A shared-memory matrix descriptor with the 128-byte swizzle. */\n"
    "static __device__ __forceinline__ unsigned long long k_sdesc(unsigned a, unsigned lbo, unsigned sbo) {\n"
    "  return (unsigned long long)((a >> 4) & 0x3FFF) |\n"
    "         ((unsigned long long)((lbo >> 4) & 0x3FFF) << 16) |\n"
    "         ((unsigned long long)((sbo >> 4) & 0x3FFF) << 32) | (1ull << 62);\n"
    "}\n"
    "static __device__ __forceinline__ uint16_t k_gemm_f2h(float f) {\n"
    "  unsigned short h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h;\n"
    "}\n"
    "static __device__ __forceinline__ uint16_t k_gemm_f2bf(float f) {\n"
    "  unsigned short h; asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h;\n"
    "}\n"
    "#endif\n";

static const char *ptx_type(kern_scalar sc) {
  return sc == KERN_SCALAR_BFLOAT16 ? "bf16" : "f16";
}

/* k_wgmma_TYPE_nN(d, da, db): d += A(da) @ B(db), 64 x N x 16, B N-major. */
static void wgmma_wrapper(Buf *b, kern_scalar in, int n) {
  const char *t = ptx_type(in);
  int nreg = n / 2;
  buf_printf(b, "#if defined(__CUDA_ARCH_FEAT_SM90_ALL) && !defined(K_WGMMA_%s_%d)\n"
                "#define K_WGMMA_%s_%d\n", t, n, t, n);
  buf_printf(b, "static __device__ __forceinline__ void k_wgmma_%s_n%d(float *d, "
                "unsigned long long da, unsigned long long db) {\n", t, n);
  buf_printf(b, "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%d, 0;\\n\"\n",
             nreg + 2);
  buf_printf(b, "    \"wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {", n, t, t);
  for (int i = 0; i < nreg; i++)
    buf_printf(b, "%s%%%d", i ? ", " : "", i);
  buf_printf(b, "}, %%%d, %%%d, p, 1, 1, 0, 1;\\n}\\n\"\n    : ", nreg, nreg + 1);
  for (int i = 0; i < nreg; i++)
    buf_printf(b, "%s\"+f\"(d[%d])", i ? ", " : "", i);
  buf_puts(b, "\n    : \"l\"(da), \"l\"(db), \"r\"(1));\n}\n#endif\n");
}

static bool tensor_cores(const IrGemm *g) {
  return g->in == KERN_SCALAR_FLOAT16 || g->in == KERN_SCALAR_BFLOAT16;
}

int kern__gemm_threads(const IrGemm *g) {
  return tensor_cores(g) ? 128 * (1 + g->tm / 64) : 256;
}

static int stage_bytes(const IrGemm *g) { return (g->tm * 64 + 64 * g->tn) * 2; }

int kern__gemm_stages(const IrGemm *g) {
  int n = 200 * 1024 / stage_bytes(g);
  return n > 4 ? 4 : n;
}

/* Dynamic shared memory: the stages, 1024 bytes to align them, the
 * barriers. */
int kern__gemm_smem(const IrGemm *g) {
  return tensor_cores(g) ? kern__gemm_stages(g) * stage_bytes(g) + 1024 + 256
                         : 0;
}

static const char *store_of(kern_scalar out) {
  return out == KERN_SCALAR_FLOAT16    ? "k_gemm_f2h"
         : out == KERN_SCALAR_BFLOAT16 ? "k_gemm_f2bf"
                                       : "";
}

/* The block -> tile map of both schedules: 8 tile rows at a time, so
 * that the blocks running together share A's and B's tiles in L2. */
static void tile_of_block(Buf *b, const char *tm, const char *tn) {
  buf_printf(b,
             "  int blk = blockIdx.x, per = 8 * k_g.tiles_n, first = blk / per * 8;\n"
             "  int gs = k_g.tiles_m - first < 8 ? k_g.tiles_m - first : 8;\n"
             "  int64_t m0 = (int64_t)(first + (blk %% per) %% gs) * %s, "
             "n0 = (int64_t)((blk %% per) / gs) * %s;\n",
             tm, tn);
}

/* The epilogue of one element v at (r, cc). */
static void epilogue(Buf *b, const IrGemm *g, const char *indent) {
  if (g->bias >= 0)
    buf_printf(b, "%sv += cc < k_g.nbias ? ((const %s *)k_g.bias)[cc] : 0;\n",
               indent, g->acc == KERN_SCALAR_FLOAT64 ? "double" : "float");
  if (g->map)
    buf_printf(b, "%sv = %s(v);\n", indent, g->map);
  buf_printf(b, "%sif (r < k_g.m && cc < k_g.n) C[r * k_g.n + cc] = %s(v);\n",
             indent, store_of(g->out));
}

/* Note [SIMT GEMM]: float32 and float64 tiles of 128 x 128 have no tensor
 * cores of their precision, so their schedule is the classic one: 256
 * threads, each an 8 x 8 block of C in registers (rows ty*4+i and
 * 64+ty*4+i, columns likewise, so that shared-memory reads are 16-byte
 * and conflict-free), A and B staged through two shared-memory buffers 8
 * columns (rows) deep, the next slice loaded into registers while the
 * current one is multiplied. */
static void emit_simt(Emit *E, IrFunc *f) {
  const IrGemm *g = f->gemm;
  Buf *b = &E->out;
  bool dbl = g->in == KERN_SCALAR_FLOAT64;
  const char *T = dbl ? "double" : "float";
  buf_puts(b, gemm_helpers);
  buf_printf(b, "/* Note [SIMT GEMM] in emit/gemm.c: %s's schedule. */\n", f->name);
  buf_printf(b,
             "extern \"C\" __global__ void __launch_bounds__(256, %d) %s_wg(\n"
             "    const __grid_constant__ k_tmap k_ta, const __grid_constant__ k_tmap k_tb,\n"
             "    const k_gemm_args k_g) {\n",
             dbl ? 1 : 2, f->symbol);
  buf_printf(b, "  typedef %s T;\n  enum { TK = %d };\n", T, g->tk);
  /* 4 consecutive T to or from 16-byte aligned memory */
  if (dbl)
    buf_puts(b,
             "#define K_LD4(d, p) do { double2 v0_ = ((const double2 *)(p))[0], "
             "v1_ = ((const double2 *)(p))[1]; \\\n"
             "    d[0] = v0_.x; d[1] = v0_.y; d[2] = v1_.x; d[3] = v1_.y; } while (0)\n"
             "#define K_ST4(p, d) do { ((double2 *)(p))[0] = make_double2(d[0], d[1]); \\\n"
             "    ((double2 *)(p))[1] = make_double2(d[2], d[3]); } while (0)\n");
  else
    buf_puts(b,
             "#define K_LD4(d, p) do { float4 v_ = *(const float4 *)(p); \\\n"
             "    d[0] = v_.x; d[1] = v_.y; d[2] = v_.z; d[3] = v_.w; } while (0)\n"
             "#define K_ST4(p, d) (*(float4 *)(p) = make_float4(d[0], d[1], d[2], d[3]))\n");
  buf_puts(b,
           "  __shared__ __align__(16) T As[2][8][132];\n"
           "  __shared__ __align__(16) T Bs[2][8][128];\n"
           "  const T *A = (const T *)k_g.a, *B = (const T *)k_g.b;\n"
           "  int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;\n");
  tile_of_block(b, "128", "128");
  /* k_g.pad: bit 0, A's rows can be read 4 at a time (16-byte aligned);
   * bit 1, B's (runtime/cuda_gemm.c) */
  buf_puts(b,
           "  const int64_t kc = (int64_t)k_g.nk * TK;\n"
           "  const int64_t ka = kc < k_g.ak ? kc : k_g.ak, kb = kc < k_g.bk ? kc : k_g.bk;\n"
           "  const bool va = k_g.pad & 1, vb = (k_g.pad & 2) != 0;\n"
           "  const int ar = tid / 2, ac = (tid % 2) * 4, br = tid / 32, bc = (tid % 32) * 4;\n"
           "  T ra[4], rb[4], acc[8][8];\n"
           "#pragma unroll\n"
           "  for (int i = 0; i < 8; i++)\n"
           "#pragma unroll\n"
           "    for (int j = 0; j < 8; j++) acc[i][j] = 0;\n"
           "  /* A[m0 + ar, k0 + ac + q] and B[k0 + br, n0 + bc + q], zero outside */\n"
           "  const bool rav = m0 + ar < k_g.am;\n"
           "  const int64_t nb = n0 + bc;\n"
           "  const T *pa = A + (rav ? (m0 + ar) * k_g.ak : 0) + ac, *pb = B + br * k_g.bn + nb;\n"
           "#define K_LOAD(k0) do { \\\n"
           "    int64_t c_ = (k0) + ac, kr_ = (k0) + br; const T *qb_ = pb + (k0) * k_g.bn; \\\n"
           "    if (va && rav && c_ + 3 < ka) K_LD4(ra, pa + (k0)); \\\n"
           "    else _Pragma(\"unroll\") for (int q = 0; q < 4; q++) \\\n"
           "      ra[q] = rav && c_ + q < ka ? pa[(k0) + q] : (T)0; \\\n"
           "    if (vb && kr_ < kb && nb + 3 < k_g.bn) K_LD4(rb, qb_); \\\n"
           "    else _Pragma(\"unroll\") for (int q = 0; q < 4; q++) \\\n"
           "      rb[q] = kr_ < kb && nb + q < k_g.bn ? qb_[q] : (T)0; \\\n"
           "  } while (0)\n"
           "#define K_STORE(s) do { \\\n"
           "    _Pragma(\"unroll\") for (int q = 0; q < 4; q++) As[s][ac + q][ar] = ra[q]; \\\n"
           "    K_ST4(&Bs[s][br][bc], rb); } while (0)\n"
           "  K_LOAD(0);\n"
           "  K_STORE(0);\n"
           "  __syncthreads();\n"
           "  for (int64_t k0 = 0; k0 < kc; k0 += 8) {\n"
           "    int cur = (int)((k0 / 8) & 1);\n"
           "    bool more = k0 + 8 < kc;\n"
           "    if (more) K_LOAD(k0 + 8);\n"
           "#pragma unroll\n"
           "    for (int kk = 0; kk < 8; kk++) {\n"
           "      T a[8], bb[8];\n"
           "      K_LD4(a, &As[cur][kk][ty * 4]);\n"
           "      K_LD4((a + 4), &As[cur][kk][64 + ty * 4]);\n"
           "      K_LD4(bb, &Bs[cur][kk][tx * 4]);\n"
           "      K_LD4((bb + 4), &Bs[cur][kk][64 + tx * 4]);\n"
           "#pragma unroll\n"
           "      for (int i = 0; i < 8; i++)\n"
           "#pragma unroll\n"
           "        for (int j = 0; j < 8; j++) acc[i][j] += a[i] * bb[j];\n"
           "    }\n"
           "    if (more) K_STORE(cur ^ 1);\n"
           "    __syncthreads();\n"
           "  }\n"
           "#undef K_LOAD\n"
           "#undef K_STORE\n"
           "#undef K_LD4\n"
           "#undef K_ST4\n");
  buf_printf(b, "  %s *C = (%s *)k_g.c;\n", T, T);
  buf_puts(b,
           "#pragma unroll\n"
           "  for (int i = 0; i < 8; i++)\n"
           "#pragma unroll\n"
           "    for (int j = 0; j < 8; j++) {\n"
           "      int64_t r = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);\n"
           "      int64_t cc = n0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + j - 4);\n"
           "      T v = acc[i][j];\n");
  epilogue(b, g, "      ");
  buf_puts(b, "    }\n}\n");
}

static void emit_wgmma(Emit *E, IrFunc *f) {
  const IrGemm *g = f->gemm;
  Buf *b = &E->out;
  const char *t = ptx_type(g->in);
  buf_puts(b, gemm_helpers);
  wgmma_wrapper(b, g->in, g->tn);
  buf_puts(b, "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n");
  buf_printf(b, "/* Note [tile GEMM] in emit/gemm.c: %s's tensor-core schedule. */\n",
             f->name);
  buf_printf(b,
             "extern \"C\" __global__ void __launch_bounds__(%d, 1) %s_wg(\n"
             "    const __grid_constant__ k_tmap k_ta, const __grid_constant__ k_tmap k_tb,\n"
             "    const k_gemm_args k_g) {\n",
             kern__gemm_threads(g), f->symbol);
  buf_printf(b,
             "  enum { TM = %d, TN = %d, BK = 64, STAGES = %d };\n"
             "  const unsigned A_BYTES = TM * BK * 2, STAGE = A_BYTES + BK * TN * 2;\n",
             g->tm, g->tn, kern__gemm_stages(g));
  buf_puts(b,
           "  extern __shared__ unsigned char k_smem[];\n"
           "  unsigned base = (k_su32(k_smem) + 1023) & ~1023u;\n"
           "  unsigned bars = base + STAGES * STAGE; /* full[s], then empty[s] */\n"
           "  int wg = threadIdx.x / 128, t = threadIdx.x % 128;\n");
  tile_of_block(b, "TM", "TN");
  buf_puts(b,
           "  if (threadIdx.x == 0) {\n"
           "    for (int s = 0; s < STAGES; s++) {\n"
           "      k_mbar_init(bars + 8 * s, 1);\n"
           "      k_mbar_init(bars + 8 * (STAGES + s), TM / 64);\n"
           "    }\n"
           "    asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");\n"
           "  }\n"
           "  __syncthreads();\n"
           "  if (wg == 0) {\n"
           "    asm volatile(\"setmaxnreg.dec.sync.aligned.u32 40;\");\n"
           "    if (t == 0)\n"
           "      for (int kt = 0; kt < k_g.nk; kt++) {\n"
           "        int s = kt % STAGES;\n"
           "        k_mbar_wait(bars + 8 * (STAGES + s), ((kt / STAGES) & 1) ^ 1);\n"
           "        unsigned full = bars + 8 * s, sa = base + s * STAGE;\n"
           "        k_mbar_expect(full, STAGE);\n"
           "        k_tma2d(sa, &k_ta, full, kt * BK, m0);\n"
           "        for (int j = 0; j < TN / 64; j++)\n"
           "          k_tma2d(sa + A_BYTES + j * 64 * BK * 2, &k_tb, full, n0 + j * 64, kt * BK);\n"
           "      }\n"
           "    return;\n"
           "  }\n"
           "  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 232;\");\n"
           "  int c = wg - 1;\n"
           "  float acc[TN / 2];\n"
           "#pragma unroll\n"
           "  for (int i = 0; i < TN / 2; i++) acc[i] = 0.f;\n"
           "  for (int kt = 0; kt < k_g.nk; kt++) {\n"
           "    int s = kt % STAGES;\n"
           "    k_mbar_wait(bars + 8 * s, (kt / STAGES) & 1);\n"
           "    unsigned sa = base + s * STAGE + c * 64 * BK * 2, sb = base + s * STAGE + A_BYTES;\n"
           "    asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n"
           "#pragma unroll\n"
           "    for (int kk = 0; kk < BK / 16; kk++)\n");
  /* A: K-major rows of 128 bytes, 8-row groups 1024 bytes apart, +32
   * bytes a k16 step; B: N-major 64-wide column blocks 8 KB apart (LBO),
   * 8-row k groups 1024 bytes apart (SBO), +2048 bytes a k16 step. */
  buf_printf(b,
             "      k_wgmma_%s_n%d(acc, k_sdesc(sa + kk * 32, 16, 1024),\n"
             "                     k_sdesc(sb + kk * 2048, 64 * BK * 2, 1024));\n",
             t, g->tn);
  buf_puts(b,
           "    asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");\n"
           "    asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");\n"
           "    if (t == 0) k_mbar_arrive(bars + 8 * (STAGES + s));\n"
           "  }\n"
           "  int w = t / 32, l = t % 32;\n"
           "  int64_t row = m0 + c * 64 + w * 16 + l / 4;\n");
  buf_printf(b, "  %s *C = (%s *)k_g.c;\n",
             g->out == KERN_SCALAR_FLOAT32 ? "float" : "uint16_t",
             g->out == KERN_SCALAR_FLOAT32 ? "float" : "uint16_t");
  buf_puts(b,
           "#pragma unroll\n"
           "  for (int j = 0; j < TN / 8; j++) {\n"
           "    int64_t col = n0 + 8 * j + (l % 4) * 2;\n"
           "#pragma unroll\n"
           "    for (int e = 0; e < 4; e++) {\n"
           "      int64_t r = row + 8 * (e >> 1), cc = col + (e & 1);\n"
           "      float v = acc[4 * j + e];\n");
  epilogue(b, g, "      ");
  buf_puts(b, "    }\n  }\n}\n#endif\n");
}

void kern__emit_gemm(Emit *E, IrFunc *f) {
  if (tensor_cores(f->gemm))
    emit_wgmma(E, f);
  else
    emit_simt(E, f);
}
