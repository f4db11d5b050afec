# Warp's host min/max/clamp return the first argument when the two compare equal, so the
# sign of a zero result follows the argument order (1/max(-0.0, 0.0) is -inf), and the
# other argument when exactly one is NaN; clamp(x, lo, hi) is min(max(lo, x), hi).
# wp.degrees/wp.radians multiply by Warp's double constant and round once. Results that
# are infinite or NaN are stored as flags.
# kern-test: warp_minmax_signed_zero --dim 1 x='rand(float32,64,seed=3)' xd='rand(float64,64,seed=4)' neg='zeros(int32,16)' deg='zeros(float32,64,2)' degd='zeros(float64,64,2)' vm='zeros(vec3,2)'
# kern-check: neg
# why: Warp rounds x * RAD_TO_DEG (a double) once; the same bits are expected
# kern-check: deg rtol=0 atol=0
# kern-check: degd rtol=0 atol=0
# kern-check: vm
import warp as wp


@wp.func
def is_neg_zero(x: float) -> int:
    return int(x == 0.0 and 1.0 / x < 0.0)


@wp.kernel
def warp_minmax_signed_zero(x: wp.array(dtype=float), xd: wp.array(dtype=wp.float64), neg: wp.array(dtype=int),
                            deg: wp.array2d(dtype=float), degd: wp.array2d(dtype=wp.float64),
                            vm: wp.array(dtype=wp.vec3)):
    nz = -0.0
    pz = 0.0
    neg[0] = is_neg_zero(wp.max(nz, pz))
    neg[1] = is_neg_zero(wp.max(pz, nz))
    neg[2] = is_neg_zero(wp.min(nz, pz))
    neg[3] = is_neg_zero(wp.min(pz, nz))
    neg[4] = is_neg_zero(wp.clamp(nz, pz, 1.0))
    neg[5] = is_neg_zero(wp.clamp(pz, nz, 1.0))
    neg[6] = is_neg_zero(wp.clamp(nz, -1.0, pz))
    neg[7] = is_neg_zero(max(nz, pz))
    neg[8] = is_neg_zero(min(pz, nz))
    n = wp.nan
    neg[9] = int(wp.min(n, 1.0) == 1.0) + 2 * int(wp.max(1.0, n) == 1.0) + 4 * int(wp.isnan(wp.max(n, n)))
    neg[10] = int(wp.clamp(n, 0.0, 1.0) == 0.0)
    d0 = wp.float64(-0.0)
    d1 = wp.float64(0.0)
    neg[11] = int(wp.float64(1.0) / wp.max(d0, d1) < wp.float64(0.0))
    neg[12] = int(wp.float64(1.0) / wp.min(d1, d0) > wp.float64(0.0))
    v = wp.max(wp.vec3(nz, pz, 1.0), wp.vec3(pz, nz, 1.0))
    neg[13] = is_neg_zero(v[0]) + 2 * is_neg_zero(v[1])
    neg[14] = is_neg_zero(wp.max(wp.vec3(nz, pz, nz)))
    neg[15] = int(wp.acos(n) == wp.acos(-1.0))
    vm[0] = wp.min(wp.vec3(1.0, 5.0, 3.0), wp.vec3(2.0, 4.0, 3.0))
    vm[1] = wp.vec3(wp.max(wp.vec3(1.0, 5.0, 3.0)), wp.min(wp.vec3(1.0, 5.0, 3.0)), 0.0)
    for k in range(64):
        deg[k, 0] = wp.degrees(x[k] * 10.0 - 5.0)
        deg[k, 1] = wp.radians(x[k] * 1000.0 - 500.0)
        degd[k, 0] = wp.degrees(xd[k] * wp.float64(10.0))
        degd[k, 1] = wp.radians(xd[k] * wp.float64(1000.0))
