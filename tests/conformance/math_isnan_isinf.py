# isnan / isinf / isfinite on float32 and float64 values produced by 0/0, 1/0, log(0), sqrt(-1).
# kern-test: math_isnan_isinf --dim 5 x='arange(float32,5)' out='zeros(bool,5,6)' od='zeros(bool,5,3)'
# kern-check: out
# kern-check: od
import warp as wp


@wp.kernel
def math_isnan_isinf(x: wp.array(dtype=wp.float32), out: wp.array2d(dtype=wp.bool), od: wp.array2d(dtype=wp.bool)):
    i = wp.tid()
    z = x[0]                    # 0.0 at runtime
    v = 0.0
    if i == 0:
        v = z / z               # nan
    elif i == 1:
        v = 1.0 / z             # +inf
    elif i == 2:
        v = wp.log(z)           # -inf
    elif i == 3:
        v = wp.sqrt(z - 1.0)    # nan
    else:
        v = 3.5
    out[i, 0] = wp.isnan(v)
    out[i, 1] = wp.isinf(v)
    out[i, 2] = wp.isfinite(v)
    out[i, 3] = v == v
    out[i, 4] = wp.isinf(-v)
    out[i, 5] = v > 1.0e30
    d = wp.float64(v)
    od[i, 0] = wp.isnan(d)
    od[i, 1] = wp.isinf(d)
    od[i, 2] = wp.isfinite(d)
