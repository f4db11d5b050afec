# wp.transformation's other call forms: p and q by name (in either order,
# with dtype=), p alone (q the identity, Warp's default), and one transform
# argument, which is copied (also through wp.types.transformation).
# kern-test: transformation_forms --dim 3 out='zeros(float32,3,7)' outd='zeros(float64,3,7)'
# kern-check: out
# kern-check: outd
import warp as wp


@wp.kernel
def transformation_forms(out: wp.array2d(dtype=float), outd: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    p = wp.vec3(1.0, 2.0, float(i))
    q = wp.quat(0.0, 0.0, 0.6, 0.8)
    t = wp.transformation(p=p, q=q)
    t2 = wp.transformation(q=q, p=p, dtype=float)
    t3 = wp.types.transformation(t)
    t4 = wp.transformation(p=p)
    t5 = wp.transformation(p, q=q)
    s = t + t2 + t3 + t4 + t5
    pd = wp.vec3d(wp.float64(i), wp.float64(2.0), wp.float64(3.0))
    sd = wp.transformation(wp.transformd(pd, wp.quatd(wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(1.0)))) + wp.transformation(p=pd)
    for k in range(7):
        out[i, k] = s[k]
        outd[i, k] = sd[k]
