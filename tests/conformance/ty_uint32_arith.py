# uint32 arithmetic: wraparound on + - * and unary minus, division and
# remainder, logical shifts, comparison with int32 (C's unsigned rules),
# abs/sign of unsigned values, min/max/clamp.
# kern-test: ty_uint32_arith --dim 16 a='rand(uint32,16,seed=199)' o='zeros(uint32,16,10)' flags='zeros(int32,16)'
# kern-check: o
# kern-check: flags
import warp as wp


@wp.kernel
def ty_uint32_arith(a: wp.array(dtype=wp.uint32), o: wp.array2d(dtype=wp.uint32), flags: wp.array(dtype=int)):
    i = wp.tid()
    x = a[i] * wp.uint32(123456789)
    y = wp.uint32(i) * wp.uint32(300000000)
    o[i, 0] = x + y
    o[i, 1] = y - x
    o[i, 2] = -x
    o[i, 3] = x / (y + wp.uint32(3))
    o[i, 4] = x % wp.uint32(1000)
    o[i, 5] = (x >> wp.uint32(28)) | (y << wp.uint32(3))
    o[i, 6] = wp.abs(x) + wp.sign(x)
    o[i, 7] = wp.clamp(x, wp.uint32(1000000000), wp.uint32(3000000000))
    o[i, 8] = wp.max(x, y) - wp.min(x, y)
    o[i, 9] = x // wp.uint32(7)
    f = 0
    if x < wp.uint32(2147483648):
        f = f + 1
    if x > y:
        f = f + 2
    if x >= wp.uint32(i):
        f = f + 4
    flags[i] = f
