# Module-level Python ints captured as int32 constants: used in arithmetic, as range()
# bounds, as indices, in comparisons and bit operations, one derived from another.
# kern-test: lang_const_module_int --dim 6 a='rand(int32,6,8,seed=111)' out='zeros(int32,6,4)'
# kern-check: out
import warp as wp

WIDTH = 8
HALF = WIDTH // 2
MASK = (1 << 5) - 1
BIAS = -17


@wp.kernel
def lang_const_module_int(a: wp.array2d(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    s = int(0)
    for j in range(HALF, WIDTH):
        s += a[i, j]
    out[i, 0] = s + BIAS
    out[i, 1] = a[i, HALF - 1] & MASK
    out[i, 2] = WIDTH * i + BIAS * HALF
    if a[i, 0] > HALF * 10:
        out[i, 3] = 1
    else:
        out[i, 3] = -1
