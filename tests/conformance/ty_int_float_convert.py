# Integer to float conversions: int64 and uint64 values that float32 and
# float64 cannot hold exactly (rounded to nearest), uint32 above 2^31,
# negative int8/int16, and float(x) / wp.float64(x) / wp.float32(x) forms.
# kern-test: ty_int_float_convert --dim 12 a='rand(int64,12,seed=198)' of='zeros(float32,12,6)' od='zeros(float64,12,6)'
# kern-check: of
# kern-check: od
import warp as wp


@wp.kernel
def ty_int_float_convert(a: wp.array(dtype=wp.int64), of: wp.array2d(dtype=float), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    x = a[i] * wp.int64(93824992236885) + wp.int64(i)
    u = wp.uint64(x) * wp.uint64(197)
    w = wp.uint32(a[i]) * wp.uint32(43000000)
    of[i, 0] = float(x)
    of[i, 1] = wp.float32(u)
    of[i, 2] = float(w)
    of[i, 3] = float(wp.int8(x))
    of[i, 4] = wp.float32(wp.int16(x))
    of[i, 5] = float(wp.int32(x))
    od[i, 0] = wp.float64(x)
    od[i, 1] = wp.float64(u)
    od[i, 2] = wp.float64(w)
    od[i, 3] = wp.float64(-x)
    od[i, 4] = wp.float64(wp.uint16(x))
    od[i, 5] = wp.float64(float(x))
