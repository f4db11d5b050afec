# A tiled reduction, out[0] = the sum of x (issue #24): each block loads
# one TILE-element tile of x, sums it with tile_sum and adds the sum to
# out[0] with one atomic, where the plain version, sum_atomic below, adds
# every element with an atomic of its own.  len(x) must be a multiple of
# TILE (the launch has len(x) / TILE blocks).  Both give the sum up to
# float32 rounding (the order of the additions differs); kern bench times
# them side by side, and against NumPy's and PyTorch's sums.
# kern-test: sum_tiled --dim 8 --tiled --block-dim 64 x='rand(float32,2048,seed=1)' out='zeros(float32,1)'
# kern-check: out rtol=1e-5
# kern-test-same: sum_atomic --dim 2048
# kern-bench: sum_tiled --dim B --tiled --block-dim 256 x=rand(float32,N,seed=1) out=zeros(float32,1)
# kern-bench-sizes: N=1048576 B=4096
# kern-bench-check: out rtol=1e-3
# kern-bench-count: bytes=4*N flops=N
# kern-bench-ref: numpy: out = np.sum(x, keepdims=True)
# kern-bench-ref: torch: out = torch.sum(x, 0, keepdim=True)
# kern-bench: sum_atomic --dim N x=rand(float32,N,seed=1) out=zeros(float32,1)
# kern-bench-sizes: N=1048576
# kern-bench-check: out rtol=1e-3
# kern-bench-count: bytes=4*N flops=N
import warp as wp

TILE = wp.constant(256)


@wp.kernel
def sum_tiled(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    b = wp.tid()
    t = wp.tile_load(x, shape=TILE, offset=b * TILE)
    wp.tile_atomic_add(out, wp.tile_sum(t))


@wp.kernel
def sum_atomic(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i])


if __name__ == "__main__":
    import numpy as np

    wp.init()
    n = 1 << 16
    hx = np.random.default_rng(1).random(n, dtype=np.float32)
    x = wp.array(hx)
    tiled = wp.zeros(1, dtype=float)
    plain = wp.zeros(1, dtype=float)
    wp.launch_tiled(sum_tiled, dim=n // TILE, inputs=[x, tiled], block_dim=64)
    wp.launch(sum_atomic, dim=n, inputs=[x, plain])
    print("tiled", tiled.numpy()[0], "plain", plain.numpy()[0], "numpy", hx.astype(np.float64).sum())
