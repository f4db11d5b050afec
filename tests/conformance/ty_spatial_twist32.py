# float32 spatial transforms of twists and wrenches: wp.transform_twist,
# wp.transform_wrench and wp.velocity_at_point for random transforms, the
# identity, and a pure translation; spatial_top/bottom of the results.
# kern-test: ty_spatial_twist32 --dim 10 a='rand(float32,10,13,seed=281)' out='zeros(float32,10,27)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_spatial_twist32(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    q = wp.normalize(wp.quat(a[i, 0] - 0.5, a[i, 1] - 0.5, a[i, 2] - 0.5, a[i, 3]))
    p = wp.vec3(a[i, 4] * 2.0, a[i, 5] - 0.5, a[i, 6])
    t = wp.transform(p, q)
    x = wp.spatial_vector(a[i, 7], a[i, 8] - 0.5, a[i, 9], a[i, 10], a[i, 11] - 0.5, a[i, 12])
    tw = wp.transform_twist(t, x)
    wr = wp.transform_wrench(t, x)
    tid = wp.transform_twist(wp.transform_identity(), x)
    tr = wp.transform_wrench(wp.transform(p, wp.quat_identity()), x)
    for k in range(6):
        out[i, k] = tw[k]
        out[i, 6 + k] = wr[k]
        out[i, 12 + k] = tid[k] + tr[k]
    v = wp.velocity_at_point(x, p)
    for k in range(3):
        out[i, 18 + k] = v[k]
        out[i, 21 + k] = wp.spatial_top(tw)[k] - wp.spatial_bottom(wr)[k]
        out[i, 24 + k] = wp.velocity_at_point(tw, wp.vec3(1.0, 2.0, 3.0))[k]
