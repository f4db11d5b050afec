// Which saxpy loop shape reaches the copy bandwidth on this GPU?  Variants
// of the same y = a*x + y over 1e8 float32, timed with events, median of 30,
// next to cudaMemcpy D2D of the same bytes.  Used to choose what kern emits.
#include <cstdio>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>
typedef long long i64;
__global__ void g64(float a, const float *__restrict__ x, float *__restrict__ y, i64 n) {
  i64 s = (i64)gridDim.x * blockDim.x;
#pragma unroll 4
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += s) y[t] = a * x[t] + y[t];
}
__global__ void g32(float a, const float *__restrict__ x, float *__restrict__ y, int n) {
  int s = gridDim.x * blockDim.x;
#pragma unroll 4
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += s) y[t] = a * x[t] + y[t];
}
__global__ void one(float a, const float *__restrict__ x, float *__restrict__ y, i64 n) {
  i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = a * x[t] + y[t];
}
__global__ void vec4(float a, const float *__restrict__ x, float *__restrict__ y, i64 n) {
  i64 s = (i64)gridDim.x * blockDim.x;
  i64 n4 = n / 4;
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < n4; t += s) {
    float4 xv = ((const float4 *)x)[t], yv = ((float4 *)y)[t];
    yv.x = a * xv.x + yv.x; yv.y = a * xv.y + yv.y; yv.z = a * xv.z + yv.z; yv.w = a * xv.w + yv.w;
    ((float4 *)y)[t] = yv;
  }
  for (i64 t = n4 * 4 + (i64)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += s) y[t] = a * x[t] + y[t];
}
__global__ void nounroll(float a, const float *__restrict__ x, float *__restrict__ y, i64 n) {
  i64 s = (i64)gridDim.x * blockDim.x;
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += s) y[t] = a * x[t] + y[t];
}
template <class F> float timeit(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> v;
  for (int r = 0; r < 35; r++) {
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); if (r >= 5) v.push_back(ms);
  }
  std::sort(v.begin(), v.end()); return v[v.size() / 2];
}
int main() {
  i64 n = 100000000; size_t bytes = n * 4;
  float *x, *y, *z; cudaMalloc(&x, bytes); cudaMalloc(&y, bytes); cudaMalloc(&z, bytes);
  cudaMemset(x, 0, bytes); cudaMemset(y, 0, bytes);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float copy = timeit([&] { cudaMemcpy(z, x, bytes, cudaMemcpyDeviceToDevice); });
  double cg = 2.0 * bytes / copy / 1e6;
  printf("copy D2D: %.4f ms %.0f GB/s\n", copy, cg);
  int full = sms * 8;
  struct { const char *name; float ms; } r[16]; int k = 0;
  for (int bpm : {4, 8, 16, 32}) {
    int g = sms * bpm;
    r[k++] = {"g64 unroll4", timeit([&] { g64<<<g, 256>>>(2.f, x, y, n); })};
    printf("grid %d x 256 (%d/SM): g64 unroll4 %.4f ms  ratio %.3f\n", g, bpm, r[k-1].ms, 3.0 * bytes / r[k-1].ms / 1e6 / cg);
    float m = timeit([&] { g32<<<g, 256>>>(2.f, x, y, (int)n); });
    printf("  g32 unroll4 %.4f ratio %.3f\n", m, 3.0 * bytes / m / 1e6 / cg);
    m = timeit([&] { nounroll<<<g, 256>>>(2.f, x, y, n); });
    printf("  g64 no unroll %.4f ratio %.3f\n", m, 3.0 * bytes / m / 1e6 / cg);
    m = timeit([&] { vec4<<<g, 256>>>(2.f, x, y, n); });
    printf("  vec4 %.4f ratio %.3f\n", m, 3.0 * bytes / m / 1e6 / cg);
  }
  float m = timeit([&] { one<<<(n + 255) / 256, 256>>>(2.f, x, y, n); });
  printf("one per thread %.4f ratio %.3f\n", m, 3.0 * bytes / m / 1e6 / cg);
  (void)full;
  return 0;
}
