extern "C" __global__ void q(int *p){p[threadIdx.x]=2;}
