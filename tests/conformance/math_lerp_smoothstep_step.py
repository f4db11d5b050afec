# lerp, smoothstep (incl. reversed edges and clamping), step. Warp: step(x) = 1 if x < 0 else 0.
# kern-test: math_lerp_smoothstep_step --dim 9 x='arange(float32,9)' y='arange(float64,9)' of='zeros(float32,9,5)' od='zeros(float64,9,3)' ov='zeros(vec3,9)'
# kern-check: of
# kern-check: od
# kern-check: ov
import warp as wp


@wp.kernel
def math_lerp_smoothstep_step(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float64),
                              of: wp.array2d(dtype=wp.float32), od: wp.array2d(dtype=wp.float64),
                              ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    t = x[i] * 0.25 - 0.5       # -0.5 .. 1.5
    of[i, 0] = wp.lerp(2.0, 6.0, t)
    of[i, 1] = wp.smoothstep(0.0, 1.0, t)
    of[i, 2] = wp.smoothstep(1.0, 0.0, t)
    of[i, 3] = wp.step(t)
    of[i, 4] = wp.step(t - 0.5)
    s = y[i] * wp.float64(0.25) - wp.float64(0.5)
    od[i, 0] = wp.lerp(wp.float64(-1.0), wp.float64(3.0), s)
    od[i, 1] = wp.smoothstep(wp.float64(0.0), wp.float64(2.0), s)
    od[i, 2] = wp.step(s)
    ov[i] = wp.lerp(wp.vec3(0.0, 1.0, 2.0), wp.vec3(4.0, -1.0, 2.0), t)
