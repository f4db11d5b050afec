# wp.lerp and wp.smoothstep in float64 and on vectors and matrices: lerp of
# scalars, vec3, vec3d, mat22 and quat (componentwise), extrapolation
# (t outside [0, 1]), smoothstep inside, outside and with reversed edges.
# kern-test: bi_math_lerp_smooth64 --dim 12 x='rand(float64,12,seed=218)' od='zeros(float64,12,7)' ov='zeros(vec3,12,2)' of='zeros(float32,12,5)'
# kern-check: od
# kern-check: ov
# kern-check: of
import warp as wp


@wp.kernel
def bi_math_lerp_smooth64(x: wp.array(dtype=wp.float64), od: wp.array2d(dtype=wp.float64), ov: wp.array2d(dtype=wp.vec3),
                          of: wp.array2d(dtype=float)):
    i = wp.tid()
    t = (x[i] - wp.float64(0.25)) * wp.float64(1.5)
    a = wp.float64(i) - wp.float64(4.0)
    b = x[i] * wp.float64(10.0)
    od[i, 0] = wp.lerp(a, b, t)
    od[i, 1] = wp.smoothstep(wp.float64(-1.0), wp.float64(2.0), a * wp.float64(0.3))
    od[i, 2] = wp.smoothstep(b, a, t)
    vd = wp.lerp(wp.vec3d(a, b, t), wp.vec3d(b, t, a), t)
    od[i, 3] = vd[0]
    od[i, 4] = vd[1] + vd[2]
    od[i, 5] = wp.smoothstep(wp.float64(0.0), wp.float64(1.0), t)
    od[i, 6] = wp.lerp(a, b, wp.float64(2.5))
    f = wp.float32(t)
    ov[i, 0] = wp.lerp(wp.vec3(1.0, 2.0, 3.0), wp.vec3(-1.0, float(i), 0.5), f)
    ov[i, 1] = wp.lerp(wp.vec3(0.0), wp.vec3(float(a)), -f)
    m = wp.lerp(wp.mat22(1.0, 2.0, 3.0, 4.0), wp.mat22(float(b), 0.0, -1.0, f), f)
    of[i, 0] = m[0, 0]
    of[i, 1] = m[1, 1]
    q = wp.lerp(wp.quat(0.0, 0.0, 0.0, 1.0), wp.quat(f, 0.5, -0.5, 0.0), f)
    of[i, 2] = q[0] + q[3]
    of[i, 3] = wp.smoothstep(0.0, 1.0, f)
    of[i, 4] = wp.smoothstep(1.0, 0.0, f * 0.5)
