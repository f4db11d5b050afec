// ref_sumsq.cu -- hand-written CUDA references for bench/gpu_bench.c:
// sum of squares (16-byte loads, grid-stride, warp shuffle, one atomicAdd
// per block), a device-to-device copy, and an empty kernel launched through
// the bare driver API.  Every timing is a median; C linkage for gpu_bench.c.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <algorithm>
#include <chrono>
#include <vector>

#define CK(x)                                                                 \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,              \
              cudaGetErrorString(e_));                                        \
      return -1;                                                              \
    }                                                                         \
  } while (0)
#define CKD(x)                                                                \
  do {                                                                        \
    CUresult r_ = (x);                                                        \
    if (r_ != CUDA_SUCCESS) {                                                 \
      fprintf(stderr, "%s:%d: %s: CUresult %d\n", __FILE__, __LINE__, #x,     \
              (int)r_);                                                       \
      return -1;                                                              \
    }                                                                         \
  } while (0)

static double wall() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
static double med(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

__global__ void __launch_bounds__(256) sumsq_ref(const double *__restrict__ x,
                                                 long long n, double *out) {
  const double2 *x2 = reinterpret_cast<const double2 *>(x);
  long long n2 = n / 2;
  long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  double a0 = 0, a1 = 0;
  for (; i + stride < n2; i += 2 * stride) {  // two 16-byte loads in flight
    double2 v = __ldg(&x2[i]);
    double2 w = __ldg(&x2[i + stride]);
    a0 += v.x * v.x + v.y * v.y;
    a1 += w.x * w.x + w.y * w.y;
  }
  for (; i < n2; i += stride) {
    double2 v = __ldg(&x2[i]);
    a0 += v.x * v.x + v.y * v.y;
  }
  if ((n & 1) && blockIdx.x == 0 && threadIdx.x == 0) a0 += x[n - 1] * x[n - 1];
  double s = a0 + a1;
  __shared__ double sh[32];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < (blockDim.x >> 5) ? sh[threadIdx.x] : 0.0;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (threadIdx.x == 0) atomicAdd(out, s);
  }
}

__global__ void empty_k(float *p) {}

extern "C" {

int ref_card(char *name, int size) {
  cudaDeviceProp p;
  CK(cudaSetDevice(0));
  CK(cudaGetDeviceProperties(&p, 0));
  snprintf(name, size, "%s", p.name);
  return 0;
}

// Sum of squares over host data x[n]: uploads, checks against ref, times.
int ref_sumsq_bench(const double *hx, long long n, double ref, int reps,
                    double *ms_wall, double *ms_event, double *ms_b2b,
                    double *relerr) {
  double *dx, *dout;
  CK(cudaMalloc(&dx, n * sizeof(double)));
  CK(cudaMalloc(&dout, sizeof(double)));
  CK(cudaMemcpy(dx, hx, n * sizeof(double), cudaMemcpyHostToDevice));
  int dev, sms, per_sm;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sumsq_ref, 256, 0));
  int grid = sms * per_sm;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<double> tw, te;
  double worst = 0;
  for (int r = 0; r < reps + 5; r++) {
    CK(cudaMemset(dout, 0, sizeof(double)));
    CK(cudaDeviceSynchronize());
    double t0 = wall();
    CK(cudaEventRecord(e0));
    sumsq_ref<<<grid, 256>>>(dx, n, dout);
    CK(cudaEventRecord(e1));
    CK(cudaGetLastError());
    CK(cudaEventSynchronize(e1));
    double t1 = wall();
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    double got;
    CK(cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDeviceToHost));
    double rel = fabs(got - ref) / ref;
    if (!(rel < 1e-10)) {
      fprintf(stderr, "ref_sumsq: WRONG %.17g vs %.17g\n", got, ref);
      return -1;
    }
    worst = std::max(worst, rel);
    if (r >= 5) {
      tw.push_back(1e3 * (t1 - t0));
      te.push_back(ms);
    }
  }
  // back to back: reps launches, one sync, / reps
  CK(cudaDeviceSynchronize());
  double t0 = wall();
  for (int r = 0; r < reps; r++) sumsq_ref<<<grid, 256>>>(dx, n, dout);
  CK(cudaDeviceSynchronize());
  *ms_b2b = 1e3 * (wall() - t0) / reps;
  *ms_wall = med(tw);
  *ms_event = med(te);
  *relerr = worst;
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(dx);
  cudaFree(dout);
  return 0;
}

// cudaMemcpy device-to-device of `bytes`; median ms by events and wall.
int ref_d2d_bench(size_t bytes, int reps, double *ms_event, double *ms_wall) {
  void *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 1, bytes));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<double> te, tw;
  for (int r = 0; r < reps + 3; r++) {
    double t0 = wall();
    CK(cudaEventRecord(e0));
    CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    double t1 = wall();
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= 3) {
      te.push_back(ms);
      tw.push_back(1e3 * (t1 - t0));
    }
  }
  *ms_event = med(te);
  *ms_wall = med(tw);
  cudaFree(a);
  cudaFree(b);
  return 0;
}

// Empty kernel through cuLaunchKernel: per launch with cuCtxSynchronize
// (median of reps), and reps back-to-back launches / reps.  Also the
// runtime API <<<>>> + cudaDeviceSynchronize for reference.  Microseconds.
int ref_empty_bench(int reps, double *us_sync, double *us_b2b,
                    double *us_rt_sync) {
  CUfunction f;
  CK(cudaFree(0));
  CK(cudaGetFuncBySymbol(&f, (const void *)empty_k));
  float *p;
  CK(cudaMalloc(&p, 4));
  void *args[] = {&p};
  for (int r = 0; r < 100; r++) CKD(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, 0));
  CKD(cuCtxSynchronize());
  std::vector<double> t;
  for (int r = 0; r < reps; r++) {
    double t0 = wall();
    CKD(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, 0));
    CKD(cuCtxSynchronize());
    t.push_back(1e6 * (wall() - t0));
  }
  *us_sync = med(t);
  double t0 = wall();
  for (int r = 0; r < reps; r++) CKD(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, 0));
  CKD(cuCtxSynchronize());
  *us_b2b = 1e6 * (wall() - t0) / reps;
  t.clear();
  for (int r = 0; r < reps; r++) {
    double t1 = wall();
    empty_k<<<1, 1>>>(p);
    CK(cudaDeviceSynchronize());
    t.push_back(1e6 * (wall() - t1));
  }
  *us_rt_sync = med(t);
  cudaFree(p);
  return 0;
}

}  // extern "C"
