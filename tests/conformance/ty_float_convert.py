# Conversions between float32 and float64 (rounding to nearest even,
# values near the float32 limits, subnormals), float to bool, bool to
# float, and float16 from float64 (two roundings, as Warp).
# kern-test: ty_float_convert --dim 12 d='rand(float64,12,seed=278)' of='zeros(float32,12,5)' od='zeros(float64,12,3)' oh='zeros(float16,12)'
# kern-check: of
# kern-check: od
# kern-check: oh
import warp as wp


@wp.kernel
def ty_float_convert(d: wp.array(dtype=wp.float64), of: wp.array2d(dtype=float), od: wp.array2d(dtype=wp.float64),
                     oh: wp.array(dtype=wp.float16)):
    i = wp.tid()
    x = (d[i] - wp.float64(0.5)) * wp.float64(1e30)
    of[i, 0] = wp.float32(x)
    of[i, 1] = float(d[i] * wp.float64(1e-40))
    of[i, 2] = wp.float32(wp.float64(1.0) + d[i] * wp.float64(1e-7))
    of[i, 3] = float(bool(d[i] > wp.float64(0.5))) + float(bool(i))
    of[i, 4] = float(d[i] * wp.float64(3.4e38))
    f = wp.float32(d[i])
    od[i, 0] = wp.float64(f) - d[i]
    od[i, 1] = wp.float64(f * 1e-38)
    od[i, 2] = wp.float64(wp.float32(x)) / x
    oh[i] = wp.float16(d[i] * wp.float64(70000.0) - wp.float64(35000.0))
