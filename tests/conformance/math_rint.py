# wp.rint rounds half to even (unlike round, which rounds half away from zero), in
# float32 and float64.
# kern-test: math_rint --dim 12 x='rand(float32,12,seed=5)' xd='rand(float64,12,seed=6)' out='zeros(float32,12,2)' od='zeros(float64,12,2)'
# kern-check: out
# kern-check: od
import warp as wp


@wp.kernel
def math_rint(x: wp.array(dtype=float), xd: wp.array(dtype=wp.float64), out: wp.array2d(dtype=float),
              od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = float(i) * 0.5 - 3.0
    out[i, 0] = wp.rint(h)
    out[i, 1] = wp.rint(x[i] * 10.0 - 5.0)
    od[i, 0] = wp.rint(wp.float64(h))
    od[i, 1] = wp.rint(xd[i] * wp.float64(10.0) - wp.float64(5.0))
