# wp.sign, wp.step, wp.abs on every signed type (int8, int16, int32, int64,
# float32, float64), with zeros and negatives: sign(0) is 1 and step(0) is
# 0 in Warp; and wp.nonzero.
# kern-test: bi_math_sign_step --dim 16 a='rand(int32,16,seed=216)' o='zeros(int32,16,10)' of='zeros(float32,16,4)' od='zeros(float64,16,3)'
# kern-check: o
# kern-check: of
# kern-check: od
import warp as wp


@wp.kernel
def bi_math_sign_step(a: wp.array(dtype=int), o: wp.array2d(dtype=int), of: wp.array2d(dtype=float),
                      od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = (a[i] % 7) - 3
    o[i, 0] = wp.sign(v)
    o[i, 1] = int(wp.sign(wp.int8(v)))
    o[i, 2] = int(wp.sign(wp.int16(v * 1000)))
    o[i, 3] = int(wp.sign(wp.int64(v)))
    o[i, 4] = wp.abs(v * 11)
    o[i, 5] = int(wp.abs(wp.int8(v * 40)))
    o[i, 6] = int(wp.abs(wp.int64(v) * wp.int64(5000000000)) % wp.int64(1000))
    o[i, 7] = int(wp.step(float(v)))
    o[i, 8] = int(wp.step(wp.float64(v)))
    o[i, 9] = int(wp.abs(wp.int16(v * 9000)))
    f = float(v) * 0.5
    of[i, 0] = wp.sign(f)
    of[i, 1] = wp.step(f - 0.25)
    of[i, 2] = wp.abs(f)
    of[i, 3] = wp.nonzero(f)
    d = wp.float64(v) * wp.float64(0.25)
    od[i, 0] = wp.sign(d)
    od[i, 1] = wp.step(d)
    od[i, 2] = wp.abs(d) + wp.nonzero(d)
