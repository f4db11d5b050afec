# wp.expect_eq and wp.expect_neq on quaternions, transforms, float64
# matrices, float16 vectors and spatial vectors, failing and holding; the
# reports print each value in Warp's format for its type (quaternions and
# transforms have their own), compared with Warp's output byte for byte.
# kern-test: bi_expect_quat_xform --dim 1 x='arange(float32,4)' out='zeros(float32,2)'
# kern-check: out
# kern-stdout
import warp as wp


@wp.kernel
def bi_expect_quat_xform(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    q = wp.quat(x[1], x[2], x[0], x[3])
    wp.expect_eq(q, wp.quat(1.0, 2.0, 0.0, 3.0))
    wp.expect_eq(q, wp.quat_identity())
    wp.expect_neq(q, wp.quat(1.0, 2.0, 0.0, 3.0))
    t = wp.transform(wp.vec3(x[3], x[2], x[1]), q)
    wp.expect_eq(t, wp.transform_identity())
    wp.expect_neq(t, t)
    m = wp.mat22d(wp.float64(x[1]), wp.float64(x[2]), wp.float64(x[3]), wp.float64(0.5))
    wp.expect_eq(m, wp.mat22d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0), wp.float64(0.25)))
    h = wp.vec3h(wp.float16(x[1]), wp.float16(x[2] * 0.1), wp.float16(x[3]))
    wp.expect_eq(h, wp.vec3h(wp.float16(1.0), wp.float16(0.2), wp.float16(3.0)))
    s = wp.spatial_vector(x[0], x[1], x[2], x[3], 4.0, 5.0)
    wp.expect_eq(s, wp.spatial_vector(0.0, 1.0, 2.0, 3.0, 4.0, 6.0))
    out[0] = q[3]
    out[1] = t[0]
