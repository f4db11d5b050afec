# float64 arithmetic kept in double precision: sums of values that cancel in float32,
# products, divisions and wp.float64 constants with many digits, mixed with
# conversions to and from float32 and int64.
# kern-test: lang_float64_arith --dim 6 d='rand(float64,6,seed=1041)' out='zeros(float64,6,5)'
# kern-check: out
import warp as wp

THIRD = wp.constant(wp.float64(0.333333333333333314829616256247))


@wp.kernel
def lang_float64_arith(d: wp.array(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    x = d[i]
    big = wp.float64(1.0e8)
    out[i, 0] = (x + big) - big
    out[i, 1] = x * THIRD * wp.float64(3.0) - x
    out[i, 2] = wp.float64(wp.float32(x)) - x
    s = wp.float64(0.0)
    for k in range(10):
        s += x / wp.float64(k + 1)
    out[i, 3] = s
    out[i, 4] = wp.float64(wp.int64(x * wp.float64(1.0e12))) / wp.float64(1.0e12)
