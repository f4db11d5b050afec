# Tiles (issue #24): wp.tile_fft / wp.tile_ifft on rows long enough that
# the way the twiddle factors are made shows (Note [FFT twiddles] in
# src/lower/check_tile.c): 64-point vec2f rows by radix-2, whose twiddles
# Warp's CPU steps from butterfly to butterfly, and 48-point vec2d rows by
# the direct sum, whose angle Warp takes unreduced.  Twiddles computed
# afresh missed Warp's answer here by 5e-7 relative (float32) and 1e-13
# absolute (float64), beyond the tolerances (found by corpus_run.py on
# Warp's test_tile_fft*.py kernels).  One direct sum only: on vulkan
# (lavapipe) a kernel doing a direct-sum fft then ifft of 2x48 vec2d tiles
# stores zeros from the second (2x46 and 1x48 pass, 3x40 and 1x96 fail;
# kern at 8ab5fa6 too): likely lavapipe's budget of 65,535 loop iterations
# an invocation (docs/vulkan.md), which kern's per-element vec2d loops and
# the O(N^2) sums spend.  Goldens from real Warp 1.19 on the CPU.
# kern-test: tile_fft_twiddle --dim 2 --tiled --block-dim 1 a='rand(vec2f,2,8,64,seed=51)' d='rand(vec2d,2,2,48,seed=52)' fa='zeros(vec2f,2,8,64)' ia='zeros(vec2f,2,8,64)' fd='zeros(vec2d,2,2,48)'
# kern-check: fa
# kern-check: ia
# kern-check: fd
import warp as wp


@wp.kernel
def tile_fft_twiddle(a: wp.array3d(dtype=wp.vec2f), d: wp.array3d(dtype=wp.vec2d),
                     fa: wp.array3d(dtype=wp.vec2f), ia: wp.array3d(dtype=wp.vec2f),
                     fd: wp.array3d(dtype=wp.vec2d)):
    i, _lane = wp.tid()
    t = wp.tile_load(a[i], shape=(8, 64))
    wp.tile_fft(t)
    wp.tile_store(fa[i], t)
    u = wp.tile_load(a[i], shape=(8, 64))
    wp.tile_ifft(u)
    wp.tile_store(ia[i], u)
    v = wp.tile_load(d[i], shape=(2, 48))
    wp.tile_fft(v)
    wp.tile_store(fd[i], v)
