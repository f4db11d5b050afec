# Compute-bound kernels for comparing NVRTC option sets (exp/fastcompile_gpu.sh):
# the memory-bound examples cannot show an optimisation NVRTC drops.
import warp as wp

# kern-bench: poly_trig --dim N x=rand(float32,N,seed=1) y=zeros(float32,N)
# kern-bench-sizes: N=4000000
# kern-bench-check: y rtol=1e-4 atol=1e-5
# kern-bench-count: bytes=8*N flops=400*N


@wp.kernel
def poly_trig(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    acc = float(0.0)
    for k in range(50):
        acc = acc + wp.sin(v * float(k) * 0.01) * wp.cos(v + float(k) * 0.02)
        v = v * 0.999 + 0.001
    y[i] = acc


# kern-bench: mat_chain --dim N x=rand(float32,N,seed=2) y=zeros(float32,N)
# kern-bench-sizes: N=4000000
# kern-bench-check: y rtol=1e-3 atol=1e-4
# kern-bench-count: bytes=8*N flops=2000*N


@wp.kernel
def mat_chain(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i] * 0.1
    m = wp.mat44(1.0, s, 0.0, 0.0, 0.0, 1.0, s, 0.0, 0.0, 0.0, 1.0, s, s, 0.0, 0.0, 1.0)
    acc = wp.identity(n=4, dtype=float)
    for k in range(16):
        acc = acc * m * 0.5
    v = acc * wp.vec4(1.0, 2.0, 3.0, 4.0)
    y[i] = wp.dot(v, v)
