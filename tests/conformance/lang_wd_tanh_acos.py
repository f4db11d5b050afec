# wp.tanh, wp.acos, wp.asin and wp.atan over a spread of float32 and float64 arguments
# (the platform's OpenCL tanh and acos are one ulp off glibc; the default tolerance
# absorbs that, the float64 one is as tight as the suite's default).
# kern-test: lang_wd_tanh_acos --dim 32 x='rand(float,32,seed=871)' d='rand(float64,32,seed=872)' out='zeros(float,32,4)' od='zeros(float64,32,3)'
# kern-check: out
# kern-check: od
import warp as wp


@wp.kernel
def lang_wd_tanh_acos(x: wp.array(dtype=float), d: wp.array(dtype=wp.float64), out: wp.array2d(dtype=float),
                      od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = x[i] * 2.0 - 1.0
    out[i, 0] = wp.tanh(v * 4.0)
    out[i, 1] = wp.acos(v)
    out[i, 2] = wp.asin(v)
    out[i, 3] = wp.atan(v * 10.0)
    w = d[i] * wp.float64(2.0) - wp.float64(1.0)
    od[i, 0] = wp.tanh(w * wp.float64(3.0))
    od[i, 1] = wp.acos(w)
    od[i, 2] = wp.asin(w)
