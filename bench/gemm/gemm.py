# Tile GEMM kernels for `bench/gemm_gpu.py` (issue #24), written as a Warp
# user writes them (the same file runs under real Warp 1.19).  kern
# recognises each as a tile GEMM (Note [GEMM recognition] in
# src/lower/check_gemm.c) and runs it on Hopper with its tensor-core
# schedule; elsewhere, and on every other backend, as ordinary tiles.
import warp as wp

TILE_M = wp.constant(128)
TILE_N = wp.constant(256)
TILE_K = wp.constant(64)
# The fused kernel's tiles are smaller: its epilogue's tiles must fit
# kern's 256 KiB of fixed-size arrays per kernel on every target.
FUSED_M = wp.constant(64)
FUSED_N = wp.constant(128)


@wp.kernel
def gemm_f16(A: wp.array2d(dtype=wp.float16), B: wp.array2d(dtype=wp.float16),
             C: wp.array2d(dtype=wp.float16)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TILE_M, TILE_N), dtype=wp.float32)
    count = int(A.shape[1] / TILE_K)
    for k in range(count):
        a = wp.tile_load(A, shape=(TILE_M, TILE_K), offset=(i * TILE_M, k * TILE_K))
        b = wp.tile_load(B, shape=(TILE_K, TILE_N), offset=(k * TILE_K, j * TILE_N))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(C, wp.tile_astype(acc, wp.float16), offset=(i * TILE_M, j * TILE_N))


@wp.kernel
def gemm_bf16(A: wp.array2d(dtype=wp.bfloat16), B: wp.array2d(dtype=wp.bfloat16),
              C: wp.array2d(dtype=wp.bfloat16)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TILE_M, TILE_N), dtype=wp.float32)
    count = int(A.shape[1] / TILE_K)
    for k in range(count):
        a = wp.tile_load(A, shape=(TILE_M, TILE_K), offset=(i * TILE_M, k * TILE_K))
        b = wp.tile_load(B, shape=(TILE_K, TILE_N), offset=(k * TILE_K, j * TILE_N))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(C, wp.tile_astype(acc, wp.bfloat16), offset=(i * TILE_M, j * TILE_N))


@wp.kernel
def gemm_f16_f32(A: wp.array2d(dtype=wp.float16), B: wp.array2d(dtype=wp.float16),
                 C: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TILE_M, TILE_N), dtype=wp.float32)
    count = int(A.shape[1] / TILE_K)
    for k in range(count):
        a = wp.tile_load(A, shape=(TILE_M, TILE_K), offset=(i * TILE_M, k * TILE_K))
        b = wp.tile_load(B, shape=(TILE_K, TILE_N), offset=(k * TILE_K, j * TILE_N))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(C, acc, offset=(i * TILE_M, j * TILE_N))


@wp.func
def relu(x: float):
    return wp.max(x, 0.0)


@wp.kernel
def gemm_bias_relu(A: wp.array2d(dtype=wp.float16), B: wp.array2d(dtype=wp.float16),
                   bias: wp.array(dtype=float), C: wp.array2d(dtype=wp.float16)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(FUSED_M, FUSED_N), dtype=wp.float32)
    count = int(A.shape[1] / TILE_K)
    for k in range(count):
        a = wp.tile_load(A, shape=(FUSED_M, TILE_K), offset=(i * FUSED_M, k * TILE_K))
        b = wp.tile_load(B, shape=(TILE_K, FUSED_N), offset=(k * TILE_K, j * FUSED_N))
        wp.tile_matmul(a, b, acc)
    bt = wp.tile_load(bias, shape=(FUSED_N,), offset=(j * FUSED_N,))
    acc += wp.tile_broadcast(bt, shape=(FUSED_M, FUSED_N))
    t = wp.tile_map(relu, acc)
    wp.tile_store(C, wp.tile_astype(t, wp.float16), offset=(i * FUSED_M, j * FUSED_N))


# float32 and float64: no tensor cores of their precision; kern's SIMT
# schedule takes 128 x 128 tiles (Note [SIMT GEMM] in src/emit/gemm.c).
SIMT_M = wp.constant(128)
SIMT_N = wp.constant(128)
SIMT_K = wp.constant(32)


@wp.kernel
def gemm_f32(A: wp.array2d(dtype=wp.float32), B: wp.array2d(dtype=wp.float32),
             C: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(SIMT_M, SIMT_N), dtype=wp.float32)
    count = int(A.shape[1] / SIMT_K)
    for k in range(count):
        a = wp.tile_load(A, shape=(SIMT_M, SIMT_K), offset=(i * SIMT_M, k * SIMT_K))
        b = wp.tile_load(B, shape=(SIMT_K, SIMT_N), offset=(k * SIMT_K, j * SIMT_N))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(C, acc, offset=(i * SIMT_M, j * SIMT_N))


@wp.kernel
def gemm_f64(A: wp.array2d(dtype=wp.float64), B: wp.array2d(dtype=wp.float64),
             C: wp.array2d(dtype=wp.float64)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(SIMT_M, SIMT_N), dtype=wp.float64)
    count = int(A.shape[1] / SIMT_K)
    for k in range(count):
        a = wp.tile_load(A, shape=(SIMT_M, SIMT_K), offset=(i * SIMT_M, k * SIMT_K))
        b = wp.tile_load(B, shape=(SIMT_K, SIMT_N), offset=(k * SIMT_K, j * SIMT_N))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(C, acc, offset=(i * SIMT_M, j * SIMT_N))
