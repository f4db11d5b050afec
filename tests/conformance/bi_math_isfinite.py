# wp.isfinite, wp.isnan and wp.isinf on float32 and float64 scalars and on
# vectors and matrices (isfinite when every component is, isnan/isinf
# when any is), for finite values,
# computed infinities (x / 0) and NaN (0 / 0, sqrt of a negative).
# kern-test: bi_math_isfinite --dim 12 x='arange(float32,12)' o='zeros(int32,12,12)'
# kern-check: o
import warp as wp


@wp.kernel
def bi_math_isfinite(x: wp.array(dtype=float), o: wp.array2d(dtype=int)):
    i = wp.tid()
    v = x[i] - 4.0
    a = 1.0 / v
    b = wp.sqrt(v)
    c = (v - v) / (v * 0.0)
    o[i, 0] = int(wp.isfinite(a))
    o[i, 1] = int(wp.isinf(a))
    o[i, 2] = int(wp.isnan(b))
    o[i, 3] = int(wp.isfinite(b))
    o[i, 4] = int(wp.isnan(c))
    d = wp.float64(v)
    o[i, 5] = int(wp.isinf(wp.float64(1.0) / d)) + 2 * int(wp.isnan(wp.sqrt(d)))
    o[i, 6] = int(wp.isfinite(wp.float64(a)))
    vv = wp.vec3(1.0, a, 2.0)
    o[i, 7] = int(wp.isfinite(vv))
    o[i, 8] = int(wp.isinf(vv))
    o[i, 9] = int(wp.isnan(wp.vec3(b, 0.0, 0.0)))
    m = wp.mat22(1.0, 2.0, 3.0, b)
    o[i, 10] = int(wp.isfinite(m)) + 2 * int(wp.isnan(m)) + 4 * int(wp.isinf(wp.mat22d(wp.float64(a), wp.float64(0.0), wp.float64(0.0), wp.float64(0.0))))
    o[i, 11] = int(wp.isinf(wp.exp(v * 30.0)))
