# A tiled stencil, one Jacobi step of the 2-d Laplace equation (issue
# #24): x is the grid with a one-cell border holding the boundary values,
# y the new interior, y[i, j] = (x[i, j+1] + x[i+2, j+1] + x[i+1, j] +
# x[i+1, j+2]) / 4 (the four neighbours of x[i+1, j+1]).  Each block loads
# one (TM+2) x (TN+2) tile of x, its TM x TN cells and their halo, takes
# the four neighbours as views of that tile and stores a TM x TN tile of
# y; the plain version, jacobi below, has a thread per cell read its four
# neighbours from x.  y's sides must be multiples of TM and TN, and x is
# two cells larger each way.  (The halo is inside x: Warp's tile_load
# reads zero past an array's upper end only, so a tile may not start
# before it.)  The two add the same values in the same order, so their
# results are equal; kern bench times them side by side, and NumPy.
# kern-test: jacobi_tiled --dim 2,3 --tiled --block-dim 64 x='rand(float32,34,50,seed=4)' y='zeros(float32,32,48)'
# kern-check: y rtol=0 atol=0
# kern-test-same: jacobi --dim 32,48
# kern-bench: jacobi_tiled --dim MB,NB --tiled --block-dim 64 x=rand(float32,P,P,seed=4) y=zeros(float32,N,N)
# kern-bench-sizes: N=1024 P=1026 MB=64 NB=64
# kern-bench-check: y rtol=0 atol=0
# kern-bench-count: bytes=8*N*N flops=4*N*N
# kern-bench-ref: numpy: y = (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:]) * np.float32(0.25)
# kern-bench: jacobi --dim N,N x=rand(float32,P,P,seed=4) y=zeros(float32,N,N)
# kern-bench-sizes: N=1024 P=1026
# kern-bench-check: y rtol=0 atol=0
# kern-bench-count: bytes=8*N*N flops=4*N*N
import warp as wp

TM = wp.constant(16)
TN = wp.constant(16)
HM = wp.constant(TM + 2)  # the tile with its halo
HN = wp.constant(TN + 2)


@wp.kernel
def jacobi_tiled(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i, j = wp.tid()
    t = wp.tile_load(x, shape=(HM, HN), offset=(i * TM, j * TN))
    up = wp.tile_view(t, offset=(0, 1), shape=(TM, TN))
    down = wp.tile_view(t, offset=(2, 1), shape=(TM, TN))
    left = wp.tile_view(t, offset=(1, 0), shape=(TM, TN))
    right = wp.tile_view(t, offset=(1, 2), shape=(TM, TN))
    wp.tile_store(y, (up + down + left + right) * 0.25, offset=(i * TM, j * TN))


@wp.kernel
def jacobi(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i, j = wp.tid()
    s = x[i, j + 1] + x[i + 2, j + 1] + x[i + 1, j] + x[i + 1, j + 2]
    y[i, j] = s * 0.25


if __name__ == "__main__":
    import numpy as np

    wp.init()
    n = 64
    hx = np.random.default_rng(4).random((n + 2, n + 2), dtype=np.float32)
    x = wp.array(hx)
    tiled = wp.zeros((n, n), dtype=float)
    plain = wp.zeros((n, n), dtype=float)
    wp.launch_tiled(jacobi_tiled, dim=(n // TM, n // TN), inputs=[x, tiled], block_dim=64)
    wp.launch(jacobi, dim=(n, n), inputs=[x, plain])
    print("max |tiled - plain| =", float(np.max(np.abs(tiled.numpy() - plain.numpy()))))
