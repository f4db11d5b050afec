# Unary minus and signed zero: Warp's scalar negation is 0 - x (so -x of +0.0 is
# +0.0, for float32, float64 and float16, and for wp.neg(x)), while vectors,
# matrices and quaternions negate each component (-0.0); a literal -0.0 stays -0.0.
# kern had it the other way round. Signs are stored as 1/x < 0 (no infinities kept).
# kern-test: lang_wd_negative_zero --dim 3 x='zeros(float,3)' d='zeros(float64,3)' h='zeros(float16,3)' v='zeros(vec3,3)' m='zeros(mat22,3)' q='zeros(vec4,3)' vh='zeros(vec2h,3)' out='zeros(int32,3,12)' of='zeros(float,3)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.func
def neg_sign(f: float) -> int:
    return int(1.0 / f < 0.0)


@wp.kernel
def lang_wd_negative_zero(x: wp.array(dtype=float), d: wp.array(dtype=wp.float64), h: wp.array(dtype=wp.float16),
                          v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22), q: wp.array(dtype=wp.vec4),
                          vh: wp.array(dtype=wp.vec2h), out: wp.array2d(dtype=int), of: wp.array(dtype=float)):
    i = wp.tid()
    out[i, 0] = neg_sign(-x[i])
    out[i, 1] = neg_sign(wp.neg(x[i]))
    out[i, 2] = neg_sign(float(-d[i]))
    out[i, 3] = neg_sign(float(-h[i]))
    nv = -v[i]
    out[i, 4] = neg_sign(nv[0]) + neg_sign(nv[2]) * 2
    nm = -m[i]
    out[i, 5] = neg_sign(nm[1, 0])
    nq = -wp.quat(q[i][0], q[i][1], q[i][2], q[i][3])
    out[i, 6] = neg_sign(nq[3])
    nh = -vh[i]
    out[i, 7] = neg_sign(float(nh[1]))
    out[i, 8] = neg_sign(-0.0)
    y = x[i] * -1.0
    out[i, 9] = neg_sign(-y)
    out[i, 10] = neg_sign(wp.neg(nv)[1])
    out[i, 11] = neg_sign(-(x[i] + float(i)) * 0.0)
    of[i] = -(x[i] + float(i)) * 2.0
