# wp.mod (C remainder, fmod for floats) on int8, int64, uint32, float32 and
# float64 with mixed signs, wp.copysign with zeros of both signs, wp.frac
# and floor division of floats.
# kern-test: bi_math_mod_copysign --dim 16 a='rand(int32,16,seed=219)' o='zeros(int64,16,4)' od='zeros(float64,16,6)'
# kern-check: o
# kern-check: od
import warp as wp


@wp.kernel
def bi_math_mod_copysign(a: wp.array(dtype=int), o: wp.array2d(dtype=wp.int64), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = a[i] - 50
    w = (a[(i + 3) % 16] % 9) - 4
    if w == 0:
        w = 5
    o[i, 0] = wp.int64(wp.mod(wp.int8(v), wp.int8(w)))
    o[i, 1] = wp.mod(wp.int64(v) * wp.int64(10000000000), wp.int64(w) * wp.int64(3000000))
    o[i, 2] = wp.int64(wp.mod(wp.uint32(v), wp.uint32(w + 10)))
    o[i, 3] = wp.int64(wp.mod(v, w)) * wp.int64(100) + wp.int64(v % w)
    d = wp.float64(v) * wp.float64(0.37)
    e = wp.float64(w) * wp.float64(1.1)
    od[i, 0] = wp.mod(d, e)
    od[i, 1] = wp.float64(wp.mod(float(d), float(e)))
    od[i, 2] = wp.copysign(d, e)
    od[i, 3] = wp.copysign(wp.float64(1.0) + d, wp.copysign(wp.float64(0.0), e))
    od[i, 4] = wp.frac(d) + d // e
    od[i, 5] = wp.float64(wp.copysign(float(e), -float(d)))
