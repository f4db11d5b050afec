# Sum of squares, written the natural Warp way: one atomic_add per element.
# kern recognises the same-address atomic whose result is unused and
# compiles it as a hierarchical reduction (see docs/language.md).
#
# `kern bench examples/sum_of_squares.py` times it on every backend and
# against the libraries below (docs/bench.md):
# kern-bench: sum_of_squares --dim N x=rand(float64,N,seed=3) out=zeros(float64,1)
# kern-bench-sizes: N=10000000
# kern-bench-check: out rtol=1e-9
# kern-bench-count: bytes=8*N flops=2*N
# kern-bench-ref: numpy: out = np.dot(x, x)
# kern-bench-ref: torch: out = torch.linalg.vector_norm(x) ** 2
# kern-bench-ref: torch: out = torch.dot(x, x)
# kern-bench-ref: torch: out = (x * x).sum()
# kern-bench-ref: cupy: out = k(x) where k = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq")
# kern-bench-ref: cupy: out = cp.dot(x, x)
# kern-bench-ref: jax: out = jnp.sum(x * x)
# kern-bench-ref: warp: out = wp.utils.array_inner(x, x)
import warp as wp


@wp.kernel
def sum_of_squares(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])


if __name__ == "__main__":
    import numpy as np

    n = 1000
    x = wp.array(np.arange(n, dtype=np.float64), dtype=wp.float64)
    out = wp.zeros(1, dtype=wp.float64)
    wp.launch(sum_of_squares, dim=n, inputs=[x, out])
    print(out.numpy()[0])
