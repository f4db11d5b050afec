// adjoint_store_order.cu -- why the adjoint's clearing stores come last
// (Note [late clears] in src/ir/adjoint.c).  saxpy's adjoint, written by
// hand in ten orders of its memory operations over 2^24 floats: read
// adj_z[i], clear it, and add into adj_x[i] and adj_y[i] with float
// atomics.  Build and run on the GPU machine (no kern needed):
//   nvcc -O3 -arch=sm_90 -o /tmp/aso bench/adjoint_store_order.cu && /tmp/aso
// Figures: bench/NOTES.md, run 9.
#include <cstdio>
#include <cuda_runtime.h>
#define N (1<<24)
__global__ void fill(float *p, float v, int n){ for(int i=blockIdx.x*blockDim.x+threadIdx.x;i<n;i+=gridDim.x*blockDim.x) p[i]=v; }
template<int V> __global__ void k(float a, float *__restrict__ ax, float *__restrict__ ay, float *__restrict__ az, long n) {
  for (long i = blockIdx.x*(long)blockDim.x+threadIdx.x; i < n; i += (long)gridDim.x*blockDim.x) {
    float g;
    if (V==5) g = atomicExch(&az[i], 0.0f); else g = az[i];
    if (V==2 || V==7) az[i] = 0.0f;
    if (V==4) __stcs(&az[i], 0.0f);
    if (V==6 && g != 0.0f) az[i] = 0.0f;
    if (V==8) { atomicAdd(&ax[i], a*g); continue; }
    if (V==9) { atomicAdd(&ay[i], g); az[i]=0.0f; continue; }
    if (V != 7) { atomicAdd(&ay[i], g); atomicAdd(&ax[i], a*g); }
    if (V==3) az[i] = 0.0f;
    if (V==10) { ay[i] += g; ax[i] += a*g; az[i] = 0.0f; }
  }
}
typedef void (*KF)(float,float*,float*,float*,long);
int main() {
  float *ax,*ay,*az; cudaMalloc(&ax,N*4);cudaMalloc(&ay,N*4);cudaMalloc(&az,N*4);
  cudaMemset(ax,0,N*4);cudaMemset(ay,0,N*4);
  int sms; cudaDeviceGetAttribute(&sms,cudaDevAttrMultiProcessorCount,0);
  KF f[]={k<1>,k<2>,k<3>,k<4>,k<5>,k<6>,k<7>,k<8>,k<9>,k<10>};
  const char *nm[]={"load,RED,RED (no zero)","load,store0,RED,RED (kern/Warp)","load,RED,RED,store0","load,stcs0,RED,RED","atomicExch,RED,RED","load,if(g)store0,RED,RED","load,store0 only","load,RED x only","load,RED y,store0","plain RMW x,y + store0 (no atomics)"};
  cudaEvent_t e0,e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int pass=0; pass<2; pass++)
  for (int grid=0; grid<2; grid++)
  for (int v=0; v<10; v++) {
    int blocks = grid ? N/256 : sms*8;
    float best=1e9, zbest=1e9;
    for (int r=0;r<12;r++){
      for (int z=0; z<2; z++) {
        fill<<<1024,256>>>(az, z ? 0.0f : 1.0f, N);
        cudaEventRecord(e0);
        f[v]<<<blocks,256>>>(2.f,ax,ay,az,N);
        cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms,e0,e1);
        if (r>1) { if (z) { if (ms<zbest) zbest=ms; } else if (ms<best) best=ms; }
      }
    }
    if (pass) printf("%-40s grid %-8d  adj_z=1: %7.1f us   adj_z=0: %7.1f us\n", nm[v], blocks, best*1000, zbest*1000);
  }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
