# wp.degrees and wp.radians multiply by Warp's double constant and round once (kern
# once multiplied by a float32 constant, rounding twice); float32 and float64 inputs
# over a spread of values, compared bit for bit (rtol=0 atol=0).
# kern-test: lang_wd_degrees_radians --dim 16 x='rand(float,16,seed=831)' d='rand(float64,16,seed=832)' out='zeros(float,16,2)' od='zeros(float64,16,2)'
# kern-check: out rtol=0 atol=0
# kern-check: od rtol=0 atol=0
import warp as wp


@wp.kernel
def lang_wd_degrees_radians(x: wp.array(dtype=float), d: wp.array(dtype=wp.float64), out: wp.array2d(dtype=float),
                            od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = (x[i] - 0.5) * 1000.0
    out[i, 0] = wp.degrees(v)
    out[i, 1] = wp.radians(v)
    w = (d[i] - wp.float64(0.5)) * wp.float64(1000.0)
    od[i, 0] = wp.degrees(w)
    od[i, 1] = wp.radians(w)
