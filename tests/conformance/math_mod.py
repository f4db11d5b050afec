# wp.mod on int32, int64, float32, float64 with negative operands (C fmod / % semantics).
# kern-test: math_mod --dim 8 k='arange(int32,8)' oi='zeros(int32,8,2)' ol='zeros(int64,8)' of='zeros(float32,8,2)' od='zeros(float64,8)'
# kern-check: oi
# kern-check: ol
# kern-check: of
# kern-check: od
import warp as wp


@wp.kernel
def math_mod(k: wp.array(dtype=wp.int32), oi: wp.array2d(dtype=wp.int32), ol: wp.array(dtype=wp.int64),
             of: wp.array2d(dtype=wp.float32), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    n = k[i] * 3 - 10
    oi[i, 0] = wp.mod(n, 4)
    oi[i, 1] = wp.mod(n, -4)
    ol[i] = wp.mod(wp.int64(n) * wp.int64(1000000007), wp.int64(-97))
    f = float(n) * 0.75
    of[i, 0] = wp.mod(f, 2.5)
    of[i, 1] = wp.mod(f, -2.5)
    od[i] = wp.mod(wp.float64(f), wp.float64(1.5))
