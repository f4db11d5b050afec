# Signed zeros in wp.clamp, which is min(max(x, lo), hi) in Warp with the first argument
# kept on ties: clamp(-0.0, 0.0, 1.0) is -0.0, clamp(0.0, -0.0, 1.0) is 0.0,
# clamp(x, -1.0, -0.0) of +0.0 is -0.0; signs stored as 1/x < 0.
# kern-test: lang_wd_signed_zero_clamp --dim 4 x='zeros(float,4)' out='zeros(int32,4,6)' of='zeros(float,4)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def lang_wd_signed_zero_clamp(x: wp.array(dtype=float), out: wp.array2d(dtype=int), of: wp.array(dtype=float)):
    i = wp.tid()
    pz = x[i]
    nz = x[i] * -1.0
    if i >= 2:
        pz, nz = nz, pz
    out[i, 0] = int(1.0 / wp.clamp(nz, pz, 1.0) < 0.0)
    out[i, 1] = int(1.0 / wp.clamp(pz, nz, 1.0) < 0.0)
    out[i, 2] = int(1.0 / wp.clamp(pz, -1.0, nz) < 0.0)
    out[i, 3] = int(1.0 / wp.clamp(nz, -1.0, pz) < 0.0)
    out[i, 4] = int(1.0 / wp.clamp(nz, nz, pz) < 0.0)
    out[i, 5] = int(1.0 / wp.clamp(-0.0, 0.0, 0.0) < 0.0)
    of[i] = wp.clamp(float(i) - 1.5, -0.5, 0.75)
