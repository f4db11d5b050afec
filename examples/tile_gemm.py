# A tiled GEMM, C = A B (issue #24): each block computes one TM x TN tile of
# C, accumulating tile_matmul over the K dimension in TK-wide steps.  The
# matrix sides must be multiples of the tile sides.  kern bench times it
# against torch.matmul (cuBLAS on a GPU) and NumPy's matmul.
# kern-test: gemm --dim 2,3 --tiled --block-dim 64 a='rand(float32,32,48,seed=1)' b='rand(float32,48,48,seed=2)' c='zeros(float32,32,48)'
# kern-check: c rtol=1e-5
# kern-bench: gemm --dim MB,NB --tiled --block-dim 64 a=rand(float32,N,N,seed=1) b=rand(float32,N,N,seed=2) c=zeros(float32,N,N)
# kern-bench-sizes: N=256,512,1024 MB=16,32,64 NB=16,32,64
# kern-bench-check: c rtol=1e-4
# kern-bench-count: bytes=12*N*N flops=2*N*N*N
# kern-bench-ref: numpy: c = np.matmul(a, b)
# kern-bench-ref: torch: c = torch.matmul(a, b)
import warp as wp

TM = wp.constant(16)
TN = wp.constant(16)
TK = wp.constant(16)


@wp.kernel
def gemm(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float),
         c: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TM, TN), dtype=float)
    steps = a.shape[1] // TK
    for k in range(steps):
        ta = wp.tile_load(a, shape=(TM, TK), offset=(i * TM, k * TK))
        tb = wp.tile_load(b, shape=(TK, TN), offset=(k * TK, j * TN))
        wp.tile_matmul(ta, tb, acc)
    wp.tile_store(c, acc, offset=(i * TM, j * TN))


if __name__ == "__main__":
    import numpy as np

    wp.init()
    n = 64
    rng = np.random.default_rng(1)
    ha = rng.random((n, n), dtype=np.float32)
    hb = rng.random((n, n), dtype=np.float32)
    a = wp.array(ha)
    b = wp.array(hb)
    c = wp.zeros((n, n), dtype=float)
    wp.launch_tiled(gemm, dim=(n // 16, n // 16), inputs=[a, b, c], block_dim=64)
    print("max |C - AB| =", float(np.max(np.abs(c.numpy() - ha @ hb))))
