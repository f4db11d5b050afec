# Tiles (issue #24): wp.tile_fft and wp.tile_ifft in place, along the last
# axis of a 2-d or 3-d tile of vec2f / vec2d (re, im), the leading axes
# batches: power-of-two rows (8, 16) and rows that are not (6), the
# inverse unscaled, and the round trip ifft(fft(x)) = N x.  Goldens from
# real Warp 1.19 on the CPU (its CPU runs tile_fft: radix-2 for powers of
# two, the direct sum otherwise; kern uses the direct sum for all, so the
# results agree to rounding).
# kern-test: tile_fft --dim 2 --tiled --block-dim 1 a='rand(vec2f,2,3,8,seed=41)' b='rand(vec2f,2,2,6,seed=42)' d='rand(vec2d,2,2,16,seed=43)' c='rand(vec2f,2,2,2,4,seed=44)' fa='zeros(vec2f,2,3,8)' ia='zeros(vec2f,2,3,8)' ra='zeros(vec2f,2,3,8)' fb='zeros(vec2f,2,2,6)' ib='zeros(vec2f,2,2,6)' fd='zeros(vec2d,2,2,16)' rd='zeros(vec2d,2,2,16)' fc='zeros(vec2f,2,2,2,4)'
# why: a sum of 8 float32 products, summed in another order than Warp's radix-2
# kern-check: fa rtol=1e-5 atol=1e-5
# why: as fa
# kern-check: ia rtol=1e-5 atol=1e-5
# why: as fa, twice
# kern-check: ra rtol=1e-5 atol=2e-5
# why: a sum of 6 float32 products, the twiddles from another sin/cos than Warp's
# kern-check: fb rtol=1e-5 atol=1e-5
# why: as fb
# kern-check: ib rtol=1e-5 atol=1e-5
# why: 16 float64 products summed in another order than Warp's radix-2
# kern-check: fd rtol=1e-12 atol=1e-13
# why: as fd, twice
# kern-check: rd rtol=1e-12 atol=1e-13
# why: as fa
# kern-check: fc rtol=1e-5 atol=1e-5
import warp as wp


@wp.kernel
def tile_fft(a: wp.array3d(dtype=wp.vec2f), b: wp.array3d(dtype=wp.vec2f), d: wp.array3d(dtype=wp.vec2d),
             c: wp.array4d(dtype=wp.vec2f),
             fa: wp.array3d(dtype=wp.vec2f), ia: wp.array3d(dtype=wp.vec2f), ra: wp.array3d(dtype=wp.vec2f),
             fb: wp.array3d(dtype=wp.vec2f), ib: wp.array3d(dtype=wp.vec2f),
             fd: wp.array3d(dtype=wp.vec2d), rd: wp.array3d(dtype=wp.vec2d),
             fc: wp.array4d(dtype=wp.vec2f)):
    i = wp.tid()
    t = wp.tile_load(a[i], shape=(3, 8))
    wp.tile_fft(t)
    wp.tile_store(fa[i], t)
    wp.tile_ifft(t)
    wp.tile_store(ra[i], t)
    u = wp.tile_load(a[i], shape=(3, 8))
    wp.tile_ifft(u)
    wp.tile_store(ia[i], u)
    v = wp.tile_load(b[i], shape=(2, 6))
    wp.tile_fft(v)
    wp.tile_store(fb[i], v)
    w = wp.tile_load(b[i], shape=(2, 6))
    wp.tile_ifft(w)
    wp.tile_store(ib[i], w)
    x = wp.tile_load(d[i], shape=(2, 16))
    wp.tile_fft(x)
    wp.tile_store(fd[i], x)
    wp.tile_ifft(x)
    wp.tile_store(rd[i], x)
    y = wp.tile_load(c[i], shape=(2, 2, 4))
    wp.tile_fft(y)
    wp.tile_store(fc[i], y)
