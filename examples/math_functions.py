# Scalar math builtins on float64.
# kern-test: math_functions --dim 50 x='rand(float64,50,seed=6)' out='zeros(float64,50,20)'
# kern-check: out
import warp as wp


@wp.kernel
def math_functions(x: wp.array(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = x[i] * wp.float64(4.0) - wp.float64(2.0)   # -2 .. 2
    p = x[i] + wp.float64(0.5)                      # 0.5 .. 1.5, positive
    out[i, 0] = wp.abs(v)
    out[i, 1] = wp.sign(v)
    out[i, 2] = wp.sqrt(p)
    out[i, 3] = wp.exp(v)
    out[i, 4] = wp.log(p)
    out[i, 5] = wp.log2(p)
    out[i, 6] = wp.sin(v)
    out[i, 7] = wp.cos(v)
    out[i, 8] = wp.tan(v * wp.float64(0.5))
    out[i, 9] = wp.atan2(v, p)
    out[i, 10] = wp.tanh(v)
    out[i, 11] = wp.pow(p, v)
    out[i, 12] = wp.floor(v)
    out[i, 13] = wp.ceil(v)
    out[i, 14] = wp.min(v, p)
    out[i, 15] = wp.max(v, p)
    out[i, 16] = wp.clamp(v, wp.float64(-1.0), wp.float64(1.0))
    out[i, 17] = wp.lerp(v, p, wp.float64(0.25))
    out[i, 18] = wp.smoothstep(wp.float64(-1.0), wp.float64(1.0), v)
    out[i, 19] = wp.asin(x[i])
