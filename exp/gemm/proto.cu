// Prototype of kern's sm_90a tile GEMM (issue #24): TMA loads into a
// 128B-swizzled shared-memory ring, wgmma from two consumer warpgroups, one
// producer warpgroup.  C[M,N] = A[M,K] @ B[K,N], row-major, fp16/bf16 in,
// fp32 accumulate, fp32/fp16 out.  Build:
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a proto.cu -lcuda -lcublas
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define BM 128
#define BN 256
#define BK 64
#define STAGES 4
#define THREADS 384

#include "wgmma_ops.h"

struct __align__(64) TmaDesc { unsigned long long v[16]; };

__device__ static inline unsigned su32(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
__device__ static inline void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}
__device__ static inline void mbar_expect(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ static inline void mbar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ static inline void mbar_wait(unsigned bar, unsigned parity) {
  asm volatile("{\n.reg .pred p;\nW:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "@!p bra W;\n}\n" ::"r"(bar), "r"(parity) : "memory");
}
__device__ static inline void tma2d(unsigned dst, const TmaDesc *d, unsigned bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%3, %4}], [%2];"
               ::"r"(dst), "l"((unsigned long long)d), "r"(bar), "r"(c0), "r"(c1) : "memory");
}
// A shared-memory matrix descriptor, 128-byte swizzle.
__device__ static inline unsigned long long sdesc(unsigned addr, unsigned lbo, unsigned sbo) {
  return (unsigned long long)((addr >> 4) & 0x3FFF) |
         ((unsigned long long)((lbo >> 4) & 0x3FFF) << 16) |
         ((unsigned long long)((sbo >> 4) & 0x3FFF) << 32) | (1ull << 62);
}

template <typename OutT>
__global__ void __launch_bounds__(THREADS, 1)
gemm(const __grid_constant__ TmaDesc tmA, const __grid_constant__ TmaDesc tmB,
     OutT *C, int M, int N, int nk, int tiles_m, int tiles_n) {
  extern __shared__ unsigned char smem_raw[];
  unsigned base = (su32(smem_raw) + 1023) & ~1023u;
  const unsigned A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;
  const unsigned STAGE = A_BYTES + B_BYTES;
  unsigned bars = base + STAGES * STAGE;  // full[s] at bars+8s, empty[s] at bars+8(STAGES+s)
  int wg = threadIdx.x / 128, t = threadIdx.x % 128;

  // block -> tile, in groups of 8 tile rows for L2 reuse
  int b = blockIdx.x, per = 8 * tiles_n, g = b / per, first = g * 8;
  int gs = tiles_m - first < 8 ? tiles_m - first : 8;
  int ti = first + (b % per) % gs, tj = (b % per) / gs;
  int m0 = ti * BM, n0 = tj * BN;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; s++) {
      mbar_init(bars + 8 * s, 1);
      mbar_init(bars + 8 * (STAGES + s), 2);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();

  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (t == 0) {
      for (int kt = 0; kt < nk; kt++) {
        int s = kt % STAGES;
        unsigned r = kt / STAGES;
        mbar_wait(bars + 8 * (STAGES + s), (r & 1) ^ 1);
        unsigned full = bars + 8 * s, sa = base + s * STAGE, sb = sa + A_BYTES;
        mbar_expect(full, STAGE);
        tma2d(sa, &tmA, full, kt * BK, m0);
        for (int j = 0; j < BN / 64; j++)
          tma2d(sb + j * 64 * BK * 2, &tmB, full, n0 + j * 64, kt * BK);
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    int c = wg - 1;
    float acc[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; i++) acc[i] = 0.f;
    for (int kt = 0; kt < nk; kt++) {
      int s = kt % STAGES;
      unsigned r = kt / STAGES;
      mbar_wait(bars + 8 * s, r & 1);
      unsigned sa = base + s * STAGE + c * 64 * BK * 2, sb = base + s * STAGE + A_BYTES;
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int kk = 0; kk < BK / 16; kk++) {
        // A: K-major, rows of 128 B, 8-row groups 1024 B apart; +32 B per k16
        // B: MN-major, 64-wide N chunks 64*BK*2 B apart (LBO), 8-row K groups 1024 B apart (SBO); +2048 B per k16
        wgmma_f16_n256(acc, sdesc(sa + kk * 32, 16, 1024),
                       sdesc(sb + kk * 2048, 64 * BK * 2, 1024));
      }
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
      if (t == 0) mbar_arrive(bars + 8 * (STAGES + s));
    }
    int w = t / 32, l = t % 32;
    int row = m0 + c * 64 + w * 16 + l / 4;
#pragma unroll
    for (int j = 0; j < BN / 8; j++) {
      int col = n0 + 8 * j + (l % 4) * 2;
#pragma unroll
      for (int h = 0; h < 2; h++) {
        int rr = row + 8 * h;
        if (rr < M) {
          if (col < N) C[(size_t)rr * N + col] = (OutT)acc[4 * j + 2 * h];
          if (col + 1 < N) C[(size_t)rr * N + col + 1] = (OutT)acc[4 * j + 2 * h + 1];
        }
      }
    }
  }
}

// Reference: one thread per output, fp32 accumulate.
__global__ void ref_gemm(const __half *A, const __half *B, float *C, int M, int N, int K) {
  int i = blockIdx.y * 16 + threadIdx.y, j = blockIdx.x * 16 + threadIdx.x;
  if (i >= M || j >= N) return;
  float s = 0;
  for (int k = 0; k < K; k++) s += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * N + j]);
  C[(size_t)i * N + j] = s;
}

#define CK(x) do { CUresult e_ = (x); if (e_) { const char *m_; cuGetErrorString(e_, &m_); printf("%s:%d %s\n", __FILE__, __LINE__, m_); exit(1);} } while (0)
#define RK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

static void make_map(TmaDesc *d, void *p, int rows, int cols, int box_cols, int box_rows) {
  cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
  cuuint64_t strides[1] = {(cuuint64_t)cols * 2};
  cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows};
  cuuint32_t es[2] = {1, 1};
  CK(cuTensorMapEncodeTiled((CUtensorMap *)d, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, p, dims, strides, box, es,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

static float run(int M, int N, int K, bool check, int reps) {
  size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
  __half *hA = (__half *)malloc(na * 2), *hB = (__half *)malloc(nb * 2);
  srand(1);
  for (size_t i = 0; i < na; i++) hA[i] = __float2half((rand() % 2001 - 1000) / 1000.f);
  for (size_t i = 0; i < nb; i++) hB[i] = __float2half((rand() % 2001 - 1000) / 1000.f);
  __half *dA, *dB, *dCh; float *dC, *dR;
  RK(cudaMalloc(&dA, na * 2)); RK(cudaMalloc(&dB, nb * 2));
  RK(cudaMalloc(&dC, nc * 4)); RK(cudaMalloc(&dR, nc * 4)); RK(cudaMalloc(&dCh, nc * 2));
  RK(cudaMemcpy(dA, hA, na * 2, cudaMemcpyHostToDevice));
  RK(cudaMemcpy(dB, hB, nb * 2, cudaMemcpyHostToDevice));
  TmaDesc tA, tB;
  make_map(&tA, dA, M, K, 64, BM);
  make_map(&tB, dB, K, N, 64, BK);
  int tm = (M + BM - 1) / BM, tn = (N + BN - 1) / BN, nk = (K + BK - 1) / BK;
  int smem = STAGES * (BM * BK * 2 + BK * BN * 2) + 1024 + 128;
  RK(cudaFuncSetAttribute(gemm<float>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  RK(cudaFuncSetAttribute(gemm<__half>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  gemm<float><<<tm * tn, THREADS, smem>>>(tA, tB, dC, M, N, nk, tm, tn);
  RK(cudaGetLastError()); RK(cudaDeviceSynchronize());
  if (check) {
    dim3 g((N + 15) / 16, (M + 15) / 16), bl(16, 16);
    ref_gemm<<<g, bl>>>(dA, dB, dR, M, N, K);
    RK(cudaDeviceSynchronize());
    float *c = (float *)malloc(nc * 4), *r = (float *)malloc(nc * 4);
    RK(cudaMemcpy(c, dC, nc * 4, cudaMemcpyDeviceToHost));
    RK(cudaMemcpy(r, dR, nc * 4, cudaMemcpyDeviceToHost));
    double maxe = 0; size_t bad = 0, firstbad = (size_t)-1;
    for (size_t i = 0; i < nc; i++) {
      double e = fabs(c[i] - r[i]);
      if (e > maxe) maxe = e;
      if (e > 1e-2 * sqrt((double)K) * 0.1 + 1e-3) { if (firstbad == (size_t)-1) firstbad = i; bad++; }
    }
    printf("check %dx%dx%d: max err %.3g, bad %zu", M, N, K, maxe, bad);
    if (bad) printf(" first (%zu,%zu) got %g want %g", firstbad / N, firstbad % N, c[firstbad], r[firstbad]);
    printf("\n");
    free(c); free(r);
  }
  float best = 0;
  if (reps) {
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (int w = 0; w < 3; w++) gemm<__half><<<tm * tn, THREADS, smem>>>(tA, tB, dCh, M, N, nk, tm, tn);
    cudaEventRecord(e0);
    for (int i = 0; i < reps; i++) gemm<__half><<<tm * tn, THREADS, smem>>>(tA, tB, dCh, M, N, nk, tm, tn);
    cudaEventRecord(e1); RK(cudaEventSynchronize(e1));
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    double tf = 2.0 * M * N * K / (ms / reps * 1e-3) / 1e12;
    // cuBLAS, fp16 out, fp32 compute: row-major C = A B is column-major C^T = B^T A^T
    cublasHandle_t h; cublasCreate(&h);
    float one = 1, zero = 0;
    for (int w = 0; w < 3; w++)
      cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, dB, CUDA_R_16F, N, dA, CUDA_R_16F, K, &zero, dCh, CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaEventRecord(e0);
    for (int i = 0; i < reps; i++)
      cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, dB, CUDA_R_16F, N, dA, CUDA_R_16F, K, &zero, dCh, CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaEventRecord(e1); RK(cudaEventSynchronize(e1));
    float msb; cudaEventElapsedTime(&msb, e0, e1);
    double tfb = 2.0 * M * N * K / (msb / reps * 1e-3) / 1e12;
    printf("%dx%dx%d fp16: kern-proto %.1f TFLOP/s, cuBLAS %.1f TFLOP/s, ratio %.3f\n", M, N, K, tf, tfb, tf / tfb);
    cublasDestroy(h);
    best = tf;
  }
  cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dR); cudaFree(dCh); free(hA); free(hB);
  return best;
}

int main(int argc, char **argv) {
  run(256, 512, 128, true, 0);
  run(1000, 776, 296, true, 0);
  run(2048, 2048, 2048, true, 0);
  run(4096, 4096, 4096, false, 20);
  run(8192, 8192, 8192, false, 20);
  return 0;
}
