# The same computation in float32 and float64 gives different (precision-dependent) results.
# kern-test: float32_vs_float64 --dim 8 x='rand(float32,8,seed=11)' y='rand(float64,8,seed=11)' of='zeros(float32,8)' od='zeros(float64,8)'
# kern-check: of
# kern-check: od
import warp as wp


@wp.kernel
def float32_vs_float64(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float64),
                       of: wp.array(dtype=wp.float32), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    s = float(0.0)
    for k in range(1000):
        s = s + x[i] * 0.001
    of[i] = s - x[i] + 1.0e-4 * 100000.0
    t = wp.float64(0.0)
    for k in range(1000):
        t = t + y[i] * wp.float64(0.001)
    od[i] = t - y[i] + wp.float64(1.0e-4) * wp.float64(100000.0)
