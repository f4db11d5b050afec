# Conversions: int() truncates toward zero, float() of ints, wp.float64/float32,
# narrowing integer constructors wrap, float->unsigned truncates.
# kern-test: conversions --dim 6 x='arange(float32,6)' k='arange(int32,6)' oi='zeros(int32,6,3)' of='zeros(float32,6,3)' od='zeros(float64,6,2)' o8='zeros(int8,6,2)' ou='zeros(uint8,6,2)'
# kern-check: oi
# kern-check: of
# kern-check: od
# kern-check: o8
# kern-check: ou
import warp as wp


@wp.kernel
def conversions(x: wp.array(dtype=wp.float32), k: wp.array(dtype=wp.int32),
                oi: wp.array2d(dtype=wp.int32), of: wp.array2d(dtype=wp.float32),
                od: wp.array2d(dtype=wp.float64), o8: wp.array2d(dtype=wp.int8),
                ou: wp.array2d(dtype=wp.uint8)):
    i = wp.tid()
    v = x[i] * 0.9 - 2.7        # -2.7 -1.8 -0.9 0.0 0.9 1.8 (approximately)
    oi[i, 0] = int(v)
    oi[i, 1] = wp.int32(v * 10.0)
    oi[i, 2] = int(wp.float64(v) * wp.float64(-3.0))
    of[i, 0] = float(k[i] - 3)
    of[i, 1] = wp.float32(wp.int64(k[i]) * wp.int64(1000000007))
    of[i, 2] = float(wp.float64(v) / wp.float64(3.0))
    od[i, 0] = wp.float64(v)
    od[i, 1] = wp.float64(k[i] * 100000)
    o8[i, 0] = wp.int8(k[i] * 60)      # wraps past 127
    o8[i, 1] = wp.int8(v)
    ou[i, 0] = wp.uint8(k[i] * 100)    # wraps past 255
    ou[i, 1] = wp.uint8(k[i] - 3)      # negative -> wraps
