# Signed zeros in wp.min and wp.max: Warp returns the first argument when the two
# compare equal, so max(-0.0, 0.0) is -0.0 and min(0.0, -0.0) is 0.0 (kern once used
# fmin/fmax); the sign is stored as 1/x < 0, also for float64 and run-time zeros
# (-0.0 made as 0.0 * -1.0: Warp's scalar -x is 0 - x, which gives +0.0).
# kern-test: lang_wd_signed_zero_minmax --dim 4 x='zeros(float,4)' d='zeros(float64,4)' out='zeros(int32,4,8)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_wd_signed_zero_minmax(x: wp.array(dtype=float), d: wp.array(dtype=wp.float64), out: wp.array2d(dtype=int)):
    i = wp.tid()
    pz = x[i]
    nz = x[i] * -1.0
    if i % 2 == 1:
        pz, nz = nz, pz
    out[i, 0] = int(1.0 / wp.max(nz, pz) < 0.0)
    out[i, 1] = int(1.0 / wp.max(pz, nz) < 0.0)
    out[i, 2] = int(1.0 / wp.min(nz, pz) < 0.0)
    out[i, 3] = int(1.0 / wp.min(pz, nz) < 0.0)
    dp = d[i]
    dn = d[i] * wp.float64(-1.0)
    out[i, 4] = int(wp.float64(1.0) / wp.max(dn, dp) < wp.float64(0.0))
    out[i, 5] = int(wp.float64(1.0) / wp.min(dp, dn) < wp.float64(0.0))
    out[i, 6] = int(1.0 / wp.max(-0.0, 0.0) < 0.0)
    out[i, 7] = int(1.0 / wp.min(0.0, -0.0) < 0.0) + 2 * int(1.0 / wp.max(nz, -0.5) < 0.0)
