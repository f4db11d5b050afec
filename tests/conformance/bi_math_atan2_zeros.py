# wp.atan2 on the axes and with signed zeros (from x * -1.0, as Warp's
# unary minus gives +0): atan2(+0, -1) is pi and atan2(-0, -1) is -pi,
# atan2(+-0, +-0), and quadrant boundaries, in float32 and float64.
# kern-test: bi_math_atan2_zeros --dim 8 x='arange(float32,8)' out='zeros(float32,8,8)' od='zeros(float64,8,4)'
# kern-check: out
# kern-check: od
import warp as wp


@wp.kernel
def bi_math_atan2_zeros(x: wp.array(dtype=float), out: wp.array2d(dtype=float), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    pz = x[i] * 0.0
    nz = pz * -1.0
    one = 1.0 + pz
    s = x[i] + 1.0
    out[i, 0] = wp.atan2(pz, -one)
    out[i, 1] = wp.atan2(nz, -one)
    out[i, 2] = wp.atan2(pz, nz)
    out[i, 3] = wp.atan2(nz, nz)
    out[i, 4] = wp.atan2(nz, pz) + wp.atan2(pz, pz)
    out[i, 5] = wp.atan2(s, pz) + wp.atan2(-s, nz)
    out[i, 6] = wp.atan2(-s, float(i) - 3.5)
    out[i, 7] = wp.atan2(float(i) - 3.0, -s)
    dz = wp.float64(pz)
    dn = dz * wp.float64(-1.0)
    od[i, 0] = wp.atan2(dz, wp.float64(-1.0))
    od[i, 1] = wp.atan2(dn, wp.float64(-1.0))
    od[i, 2] = wp.atan2(dn, dn)
    od[i, 3] = wp.atan2(wp.float64(s), wp.float64(4.0) - wp.float64(s))
