# Signed zeros in float64 and float32 as Warp computes them: min/max/clamp
# return the first argument when the two compare equal and the other when
# exactly one is NaN; unary minus is Warp's neg(), `0 - x`, so -x of a zero
# (and wp.neg, and -wp.float32(0.0)) is +0 while x * -1.0 is -0; a Python
# constant (-0.0, -ZERO of a module-level 0.0) is negated exactly. Signs
# are read with copysign.
# kern-test: bi_math_signed_zero64 --dim 8 x='arange(float64,8)' od='zeros(float64,8,10)' of='zeros(float32,8,8)'
# kern-check: od
# kern-check: of
import warp as wp

ZERO = 0.0


@wp.func
def sg(x: wp.float64) -> wp.float64:
    return wp.copysign(wp.float64(1.0), x)


@wp.func
def sgf(x: float) -> float:
    return wp.copysign(1.0, x)


@wp.kernel
def bi_math_signed_zero64(x: wp.array(dtype=wp.float64), od: wp.array2d(dtype=wp.float64), of: wp.array2d(dtype=float)):
    i = wp.tid()
    one = wp.float64(1.0)
    pz = x[i] * wp.float64(0.0)
    nz = pz * wp.float64(-1.0)
    nan = pz / pz
    s = wp.float64(i)
    od[i, 0] = sg(wp.min(nz, pz)) + wp.float64(10.0) * sg(wp.min(pz, nz))
    od[i, 1] = sg(wp.max(nz, pz)) + wp.float64(10.0) * sg(wp.max(pz, nz))
    od[i, 2] = sg(wp.clamp(nz, pz, one)) + wp.float64(10.0) * sg(wp.clamp(pz, nz, nz))
    od[i, 3] = wp.min(nan, s) + wp.max(s, nan)
    od[i, 4] = wp.clamp(s - wp.float64(3.0), nz, wp.float64(2.0))
    od[i, 5] = sg(-pz) + wp.float64(10.0) * sg(-nz)
    od[i, 6] = sg(wp.neg(nz)) + wp.float64(10.0) * sg(nz)
    od[i, 7] = sg(-(s - s)) * (s + one)
    od[i, 8] = sg(pz - s * wp.float64(0.0)) + wp.float64(10.0) * sg(nz + nz)
    od[i, 9] = -s
    f = float(i) * 0.0
    g = f * -1.0
    of[i, 0] = sgf(wp.min(g, f)) + 10.0 * sgf(wp.min(f, g))
    of[i, 1] = sgf(wp.max(g, f)) + 10.0 * sgf(wp.max(f, g))
    of[i, 2] = sgf(wp.clamp(g, f, 1.0)) + 10.0 * sgf(wp.clamp(f, g, g))
    of[i, 3] = wp.max(f / f, float(i))
    of[i, 4] = sgf(-f) + 10.0 * sgf(-g)
    of[i, 5] = sgf(-wp.sin(g)) - float(i)
    of[i, 6] = sgf(-ZERO) + 10.0 * sgf(-0.0) + float(i)
    of[i, 7] = sgf(-wp.float32(0.0)) + 10.0 * sgf(wp.neg(wp.float32(0.0) * -1.0)) - float(i)
