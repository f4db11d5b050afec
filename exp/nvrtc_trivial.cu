extern "C" __global__ void k(float *p) { p[threadIdx.x] = 1.0f; }
