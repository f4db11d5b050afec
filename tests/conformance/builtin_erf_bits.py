# Scalar math: wp.erf, wp.erfc, wp.erfinv, wp.erfcinv (float32 and float64;
# Warp's CPU build computes erfinv in double, erfcinv(x) as erfinv(1 - x);
# kern by its own method, see emit/extra.c Note [erfinv]), wp.copysign with
# signed zeros, wp.bit_count on every integer width (negative values count
# their two's complement bits), wp.cast (the same bits as another type of the
# same size: scalars and vectors),
# wp.inverse_approx (wp.inverse on the CPU).
# kern-test: builtin_erf_bits --dim 16 x='rand(float32,16,seed=21)' y='rand(float64,16,seed=22)' of='zeros(float32,16,10)' od='zeros(float64,16,6)' oi='zeros(int32,16,12)' om='zeros(mat33,16)'
# kern-check: of
# kern-check: od
# kern-check: oi
# kern-check: om
import warp as wp


@wp.kernel
def builtin_erf_bits(x: wp.array(dtype=float), y: wp.array(dtype=wp.float64), of: wp.array2d(dtype=float),
                     od: wp.array2d(dtype=wp.float64), oi: wp.array2d(dtype=int), om: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    s = x[i] * 2.0 - 1.0  # in [-1, 1)
    of[i, 0] = wp.erf(s * 3.0)
    of[i, 1] = wp.erfc(s * 3.0)
    of[i, 2] = wp.erfinv(s)
    of[i, 3] = wp.erfcinv(x[i] * 2.0)
    of[i, 4] = wp.erfinv(wp.erf(s))
    of[i, 5] = wp.copysign(x[i], s)
    of[i, 6] = wp.copysign(1.5, -0.0) + wp.copysign(-2.0, 0.0)
    of[i, 7] = wp.erfinv(0.0) + wp.erfinv(-0.0) + wp.erfinv(0.999999)
    of[i, 8] = wp.erfcinv(1.0e-6) + wp.erfcinv(1.9)
    of[i, 9] = wp.cast(wp.int32(0x40000000) + i, wp.float32)
    t = y[i] * wp.float64(2.0) - wp.float64(1.0)
    od[i, 0] = wp.erf(t * wp.float64(2.5))
    od[i, 1] = wp.erfc(t * wp.float64(2.5))
    od[i, 2] = wp.erfinv(t)
    od[i, 3] = wp.erfcinv(y[i] * wp.float64(2.0))
    od[i, 4] = wp.copysign(y[i], t)
    od[i, 5] = wp.erfinv(wp.float64(0.5) + wp.float64(i) * wp.float64(0.0312))
    n = i * 12345 - 70000
    oi[i, 0] = wp.bit_count(n)
    oi[i, 1] = wp.bit_count(wp.uint32(n))
    oi[i, 2] = wp.bit_count(wp.int8(i - 8))
    oi[i, 3] = wp.bit_count(wp.uint8(i * 17))
    oi[i, 4] = wp.bit_count(wp.int16(n))
    oi[i, 5] = wp.bit_count(wp.uint16(n))
    oi[i, 6] = wp.bit_count(wp.int64(n) * wp.int64(1000003))
    oi[i, 7] = wp.bit_count(wp.uint64(wp.int64(n)))
    oi[i, 8] = wp.cast(x[i], wp.int32) - wp.cast(wp.cast(x[i], wp.uint32), wp.int32)
    c = wp.cast(wp.vec2(x[i], -2.0), wp.vec2i)
    oi[i, 9] = c[0]
    oi[i, 10] = c[1]
    oi[i, 11] = int(wp.cast(wp.vec2ui(wp.uint32(i), wp.uint32(7)), wp.uint64) % wp.uint64(1000003))
    m = wp.mat33(2.0, x[i], 0.0, 1.0, 3.0, 0.5, 0.0, 1.0, 4.0)
    om[i] = wp.inverse_approx(m)
