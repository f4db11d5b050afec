# float16 and bfloat16 kernel parameters passed by value (scalars and a
# vec3h; Warp rounds float16 arguments ties away from zero: 2049 -> 2050,
# 2**-25 -> 2**-24), @wp.func with float16 parameters and results, 2-d arrays of
# float16, and float16 in conditions and loops.
# kern-test: half_params --dim 4,3 s=0.1 t=2049 bs=3.3 v=1.5,2.98023223876953125e-08,-65504 grid='rand(float16,4,3,seed=9)' out='zeros(float16,4,3,4)'
# kern-check: out
import warp as wp


@wp.func
def scaled(x: wp.float16, k: wp.float16) -> wp.float16:
    if x > k:
        return x * k
    return x - k


@wp.kernel
def half_params(s: wp.float16, t: wp.float16, bs: wp.bfloat16, v: wp.vec3h,
                grid: wp.array2d(dtype=wp.float16), out: wp.array3d(dtype=wp.float16)):
    i, j = wp.tid()
    g = grid[i, j]
    out[i, j, 0] = scaled(g, s) + t
    out[i, j, 1] = v[j] * g
    out[i, j, 3] = wp.float16(bs) + v[j]
    acc = wp.float16(0.0)
    for k in range(i + 1):
        acc += g * s
    if acc >= wp.float16(0.05):
        acc = -acc
    out[i, j, 2] = acc
