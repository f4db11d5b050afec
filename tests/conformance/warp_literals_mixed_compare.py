# Integer literals beyond int32 are int32 constants in Warp: float(4294967295) is -1.0,
# int(0xFFFFFFFF) is -1, wp.int8(300) is 44, wp.uint8(-1) is 255, while 64-bit
# constructors (wp.float64, wp.int64, wp.uint64) take the literal exactly. A lone
# comparison of mixed scalar types is C's: int32 < 2.5 compares as float, uint32 <= -1
# compares unsigned (always true), uint8 < -1 compares as int (false), float64 against a
# float literal widens the float32 literal.
# kern-test: warp_literals_mixed_compare --dim 4 xi='arange(int32,4)' xu='arange(uint32,4)' xb='arange(uint8,4)' xd='arange(float64,4)' xl='arange(int64,4)' of='zeros(float32,8)' od='zeros(float64,3)' oi='zeros(int32,8)' ol='zeros(int64,2)' cmp='zeros(int32,4,10)'
# kern-check: of
# kern-check: od
# kern-check: oi
# kern-check: ol
# kern-check: cmp
import warp as wp


@wp.kernel
def warp_literals_mixed_compare(xi: wp.array(dtype=int), xu: wp.array(dtype=wp.uint32), xb: wp.array(dtype=wp.uint8),
                                xd: wp.array(dtype=wp.float64), xl: wp.array(dtype=wp.int64),
                                of: wp.array(dtype=float), od: wp.array(dtype=wp.float64),
                                oi: wp.array(dtype=int), ol: wp.array(dtype=wp.int64),
                                cmp: wp.array2d(dtype=int)):
    i = wp.tid()
    if i == 0:
        of[0] = float(4294967295)
        of[1] = wp.float32(4294967295)
        of[2] = float(3000000000)
        of[3] = float(-3000000000)
        of[4] = wp.float32(16777217)
        of[5] = float(int(0xFFFFFFFF))
        of[6] = float(wp.int8(300))
        of[7] = float(wp.uint8(-1))
        od[0] = wp.float64(4294967295)
        od[1] = wp.float64(3000000000)
        od[2] = wp.float64(-3000000000)
        oi[0] = int(0xFFFFFFFF)
        oi[1] = wp.int32(0xFFFFFFFF)
        oi[2] = int(wp.int16(70000))
        oi[3] = int(wp.uint16(-2))
        oi[4] = int(wp.uint32(0xF0000000) >> wp.uint32(28))
        oi[5] = 3000000000
        oi[6] = int(wp.bool(3))
        oi[7] = int(wp.int8(-129))
        ol[0] = wp.int64(3000000000)
        ol[1] = wp.int64(wp.uint64(18446744073709551615))
    cmp[i, 0] = int(xi[i] < 2.5)
    cmp[i, 1] = int(xu[i] <= -1)
    cmp[i, 2] = int(xi[i] == 2.0)
    cmp[i, 3] = int(xb[i] < -1)
    cmp[i, 4] = int(xd[i] * wp.float64(0.1) == 0.1)
    cmp[i, 5] = int(xl[i] > 1)
    cmp[i, 6] = int(2.5 > xi[i])
    cmp[i, 7] = int(xl[i] < 3000000000)
    cmp[i, 8] = int(xu[i] > xi[i] - 2)
    cmp[i, 9] = int(xd[i] >= 1.5)
