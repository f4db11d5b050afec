// abi_saxpy.cu -- hand-written kernels that follow the CUDA ABI of generated
// code (src/compile/compile.h): extern "C" __global__ SYMBOL(P0, ..., kern__dims),
// every parameter by value, arrays as kern__arr, grid-stride loop over
// dims.total.  backend_test.c runs them through kern__backend_cuda; CI
// compiles them with nvrtc_check (no GPU needed).  Self-contained: NVRTC
// gets no include path.

typedef long long int64_t;
typedef signed char int8_t;

struct kern__arr {
  void *data;
  int64_t shape[4];
};

struct kern__dims {
  int64_t dim[4];
  int64_t total;
  int64_t chunk;
};

struct vec3 {
  float x, y, z;
};

// y[i] = a * x[i] + y[i]
extern "C" __global__ void abi_saxpy(kern__arr x, kern__arr y, float a,
                                     kern__dims dims) {
  const float *xs = (const float *)x.data;
  float *ys = (float *)y.data;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
       t < dims.total; t += (int64_t)gridDim.x * blockDim.x)
    ys[t] = a * xs[t] + ys[t];
}

// Parameters of mixed size and alignment (12-byte vec3, 1-byte bool, double,
// int64) between arrays, to pin down that each is passed by value at its own
// layout.  out[t] = t*d + v.x + 2 v.y + 3 v.z + b + i + shape of out.
extern "C" __global__ void abi_mixed(kern__arr out, vec3 v, bool b, double d,
                                     int8_t c, int64_t i, kern__dims dims) {
  double *o = (double *)out.data;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
       t < dims.total; t += (int64_t)gridDim.x * blockDim.x)
    o[t] = (double)t * d + v.x + 2.0 * v.y + 3.0 * v.z + (b ? 1.0 : 0.0) +
           (double)c + (double)i + (double)out.shape[0];
}

// 2-D grid: out[i, j] = 1000 i + j, with (i, j) from the row-major linear
// index over dims.dim[0..1].
extern "C" __global__ void abi_index2d(kern__arr out, kern__dims dims) {
  int *o = (int *)out.data;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
       t < dims.total; t += (int64_t)gridDim.x * blockDim.x) {
    int64_t i = t / dims.dim[1], j = t % dims.dim[1];
    o[i * out.shape[1] + j] = (int)(1000 * i + j);
  }
}

// Does nothing: measures launch overhead.
extern "C" __global__ void abi_empty(kern__dims dims) {}

// Writes through a bad pointer: a device fault (CUDA_ERROR_ILLEGAL_ADDRESS).
extern "C" __global__ void abi_fault(kern__arr x, kern__dims dims) {
  int *p = (int *)x.data;
  if (blockIdx.x == 0 && threadIdx.x == 0) p[0] = 1;
}
