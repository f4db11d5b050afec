# Tiles (issue #24): wp.tile_fft and wp.tile_ifft in place, along the last
# axis of a 2-d or 3-d tile of vec2f / vec2d (re, im), the leading axes
# batches: power-of-two rows (8, 16) and rows that are not (6), the
# inverse unscaled, and the round trip ifft(fft(x)) = N x.  Goldens from
# real Warp 1.19 on the CPU (its CPU runs tile_fft: radix-2 for powers of
# two, the direct sum otherwise, as kern, its twiddles made as Warp makes
# them: tile_fft_twiddle.py).
# kern-test: tile_fft --dim 2 --tiled --block-dim 1 a='rand(vec2f,2,3,8,seed=41)' b='rand(vec2f,2,2,6,seed=42)' d='rand(vec2d,2,2,16,seed=43)' c='rand(vec2f,2,2,2,4,seed=44)' fa='zeros(vec2f,2,3,8)' ia='zeros(vec2f,2,3,8)' ra='zeros(vec2f,2,3,8)' fb='zeros(vec2f,2,2,6)' ib='zeros(vec2f,2,2,6)' fd='zeros(vec2d,2,2,16)' rd='zeros(vec2d,2,2,16)' fc='zeros(vec2f,2,2,2,4)'
# kern-check: fa
# kern-check: ia
# kern-check: ra
# kern-check: fb
# kern-check: ib
# kern-check: fd
# kern-check: rd
# kern-check: fc
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
