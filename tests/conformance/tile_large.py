# Tiles (issue #24) past the old 64 KiB a kernel: a 64x64 vec2d FFT round
# trip (64 KiB, one tile: `t = wp.tile_load(...)` names the loaded tile
# without a copy, Note [tile names own temporaries]), a 4-d tile_load at an
# offset and its store (64 KiB) and a sum along the last axis of an
# 8x8x256 tile (64 KiB): 192 KiB of tiles in one kernel, within kern's
# 256 KiB (Note [fixed-size array limit] in src/lower/check_fixed.c).
# Goldens from real Warp 1.19 on the CPU.
# kern-skip: vulkan-llvmpipe (wrong results on lavapipe, measured 2026-11-29: fa, ra, ob and sc all differ, because llvmpipe ends a loop after about 65535 iterations, an inner loop's counted across the outer loop's iterations -- a plain loop of 70000 additions sums 65535 and 300 x 300 nested ones 65101 -- and a 64x64 tile's nested loops run past that; its build and run also took 8 minutes of a CPU)
# kern-test: tile_large --dim 1 --tiled --block-dim 1 a='rand(vec2d,64,64,seed=51)' b='rand(float32,5,8,16,32,seed=52)' c='rand(float32,8,8,256,seed=53)' fa='zeros(vec2d,64,64)' ra='zeros(vec2d,64,64)' ob='zeros(float32,4,8,16,32)' sc='zeros(float32,8,8)'
# kern-check: fa
# why: the round trip adds 12 radix-2 stages of twiddles whose sin/cos round
# differently from Warp's (as in tile_fft.py): 1.3e-12 relative at worst
# kern-check: ra rtol=1e-11 atol=1e-12
# kern-check: ob
# kern-check: sc
import warp as wp


@wp.kernel
def tile_large(a: wp.array2d(dtype=wp.vec2d), b: wp.array4d(dtype=float), c: wp.array3d(dtype=float),
               fa: wp.array2d(dtype=wp.vec2d), ra: wp.array2d(dtype=wp.vec2d),
               ob: wp.array4d(dtype=float), sc: wp.array2d(dtype=float)):
    t = wp.tile_load(a, shape=(64, 64))
    wp.tile_fft(t)
    wp.tile_store(fa, t)
    wp.tile_ifft(t)
    wp.tile_store(ra, t)
    u = wp.tile_load(b, shape=(4, 8, 16, 32), offset=(1, 0, 0, 0))
    wp.tile_store(ob, u)
    v = wp.tile_load(c, shape=(8, 8, 256))
    s = wp.tile_sum(v, axis=2)
    wp.tile_store(sc, s)
