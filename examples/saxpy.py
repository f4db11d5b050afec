# SAXPY: y = a * x + y, one thread per element, float32.
# kern-test: saxpy --dim 1000 a=2.5 x='rand(float32,1000,seed=1)' y='rand(float32,1000,seed=2)'
# kern-check: y
# kern-bench: saxpy --dim N a=2.5 x=rand(float32,N,seed=1) y=rand(float32,N,seed=2)
# kern-bench-sizes: N=10000000
# kern-bench-check: y
# kern-bench-count: bytes=12*N flops=2*N
# kern-bench-ref: numpy: y = a * x + y
# kern-bench-ref: torch: y = torch.add(y, x, alpha=a)
# kern-bench-ref: cupy: y = a * x + y
# kern-bench-ref: jax: y = a * x + y
import warp as wp


@wp.kernel
def saxpy(a: wp.float32, x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


if __name__ == "__main__":
    import numpy as np

    n = 1000
    x = wp.array(np.arange(n, dtype=np.float32), dtype=wp.float32)
    y = wp.ones(n, dtype=wp.float32)
    wp.launch(saxpy, dim=n, inputs=[2.5, x, y])
    print(y.numpy()[:4])
