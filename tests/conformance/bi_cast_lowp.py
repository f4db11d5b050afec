# wp.cast of float16 and bfloat16 (emit/extra.c Note [16-bit cast]): a
# 16-bit float is cast as its 16 bits, as Warp stores it, though kern holds
# it widened in a float32.  Both directions (bits -> 16-bit float ->
# bits round trips, bits of computed values), float16 <-> bfloat16,
# vectors (int32 <-> vec2h, low component first; vec2 of bfloat16; vec4h
# <-> int64), matrices (mat22h <-> vec2ui), on bit patterns with +-0,
# denormals, the largest finite values, infinities and quiet NaNs with
# payloads; and through float32 and float64 (vec2h <-> float32, mat22h <->
# float64).  NaN bits are checked through the integers they cast back to
# (npycmp takes any NaN for any NaN in 16-bit arrays).  A float16
# signalling NaN is left out: kern returns it quiet (Note [16-bit cast]).
# kern-test: bi_cast_lowp --dim 32 x='rand(float32,32,seed=61)' oi='zeros(int32,32,18)' oh='zeros(float16,32,3)' ob='zeros(bfloat16,32,2)' ov='zeros(vec2h,32)' om='zeros(mat22h,32)'
# kern-check: oi
# kern-check: oh
# kern-check: ob
# kern-check: ov
# kern-check: om
import warp as wp

vec2bf = wp.types.vector(length=2, dtype=wp.bfloat16)


@wp.func
def pattern(i: int) -> wp.uint16:
    # float16 (h) and bfloat16 (bf) values of interest; each is also a
    # value of the other format
    p = 0x0000  # +0
    if i == 1:
        p = 0x8000  # -0
    if i == 2:
        p = 0x0001  # smallest h denormal, a bf denormal
    if i == 3:
        p = 0x8001
    if i == 4:
        p = 0x03FF  # largest h denormal
    if i == 5:
        p = 0x0400  # smallest normal h
    if i == 6:
        p = 0x3C00  # 1.0 h
    if i == 7:
        p = 0x3E00  # 1.5 h
    if i == 8:
        p = 0x7BFF  # 65504 h
    if i == 9:
        p = 0x7C00  # +inf h
    if i == 10:
        p = 0xFC00  # -inf h
    if i == 11:
        p = 0x7E00  # quiet NaN h
    if i == 12:
        p = 0xFE01  # quiet NaN h, sign and payload
    if i == 13:
        p = 0x7FFF  # quiet NaN of both
    if i == 14:
        p = 0x007F  # largest bf denormal
    if i == 15:
        p = 0x0080  # smallest normal bf
    if i == 16:
        p = 0x3F80  # 1.0 bf
    if i == 17:
        p = 0x7F7F  # largest finite bf
    if i == 18:
        p = 0x7F80  # +inf bf
    if i == 19:
        p = 0xFF80  # -inf bf
    if i == 20:
        p = 0x7FC0  # quiet NaN bf
    if i == 21:
        p = 0xFFC1  # quiet NaN bf, sign and payload
    if i == 22:
        p = 0xC000  # -2 in both
    if i == 23:
        p = 0x1234
    if i == 24:
        p = 0xABCD
    if i == 25:
        p = 0x5555
    if i == 26:
        p = 0x3555
    if i == 27:
        p = 0x8400  # -smallest normal h
    if i == 28:
        p = 0x83FF  # -largest h denormal
    if i == 29:
        p = 0x807F  # -largest bf denormal
    if i == 30:
        p = 0xFFFF  # quiet NaN of both, all bits
    if i == 31:
        p = 0x4248  # 3.14 h
    return wp.uint16(p)


@wp.kernel
def bi_cast_lowp(x: wp.array(dtype=float), oi: wp.array2d(dtype=int), oh: wp.array2d(dtype=wp.float16),
                 ob: wp.array2d(dtype=wp.bfloat16), ov: wp.array(dtype=wp.vec2h), om: wp.array(dtype=wp.mat22h)):
    i = wp.tid()
    u = pattern(i)
    w = pattern(31 - i)
    # bits -> 16-bit floats, and back
    h = wp.cast(u, wp.float16)
    b = wp.cast(wp.int16(u), wp.bfloat16)
    oh[i, 0] = h
    ob[i, 0] = b
    oi[i, 0] = int(wp.cast(h, wp.uint16))
    oi[i, 1] = int(wp.cast(b, wp.int16))
    if not wp.isnan(h):  # a loaded element (a NaN is as the target's loads leave it)
        oi[i, 2] = int(wp.cast(oh[i, 0], wp.int16))
    # bits of computed values: rounded, denormal, signed zero, overflow
    hx = wp.float16(x[i] * 8.0 - 4.0)
    oi[i, 3] = int(wp.cast(hx, wp.int16))
    oi[i, 4] = int(wp.cast(wp.bfloat16(x[i] * 8.0 - 4.0), wp.uint16))
    oi[i, 5] = int(wp.cast(hx * hx * hx, wp.uint16))
    oi[i, 6] = int(wp.cast(wp.float16(x[i] * 1.0e-5), wp.uint16))
    oi[i, 7] = int(wp.cast(wp.float16(x[i] * -1.0e-8), wp.uint16))  # -0
    oi[i, 8] = int(wp.cast(hx * wp.float16(30000.0), wp.int16))
    # float16 <-> bfloat16: the same 16 bits
    ob[i, 1] = wp.cast(h, wp.bfloat16)
    oh[i, 1] = wp.cast(b, wp.float16)
    oi[i, 9] = int(wp.cast(wp.cast(h, wp.bfloat16), wp.uint16))
    # vectors: component 0 is the low half
    v = wp.cast(wp.int32(wp.uint32(u) | (wp.uint32(w) << wp.uint32(16))), wp.vec2h)
    ov[i] = v
    oi[i, 10] = wp.cast(v, wp.int32)
    oi[i, 11] = wp.cast(wp.vec2h(hx, h), wp.int32)
    vb = wp.cast(wp.uint32(w) | (wp.uint32(u) << wp.uint32(16)), vec2bf)
    oi[i, 12] = wp.cast(vb, wp.int32)
    oh[i, 2] = wp.float16(vb[1]) + hx
    q = wp.cast(wp.vec4h(h, hx, wp.cast(w, wp.float16), wp.float16(1.0)), wp.int64)
    oi[i, 13] = int(q >> wp.int64(32))
    oi[i, 14] = int(wp.cast(wp.cast(q, wp.vec4h), wp.vec2i)[0])
    # matrices, row-major
    m = wp.cast(wp.vec2ui(wp.uint32(u) | (wp.uint32(0x3C00) << wp.uint32(16)),
                          wp.uint32(w) | (wp.uint32(0xC000) << wp.uint32(16))), wp.mat22h)
    om[i] = m
    oi[i, 15] = wp.cast(wp.mat22h(m[1, 1], m[1, 0], hx, m[0, 0]), wp.vec2i)[1]
    # through float32 (six of them NaNs) and float64
    oi[i, 16] = wp.cast(wp.cast(wp.cast(v, float), wp.vec2h), wp.int32)
    oi[i, 17] = wp.cast(wp.cast(wp.cast(m, wp.float64), wp.mat22h), wp.vec2i)[0]
