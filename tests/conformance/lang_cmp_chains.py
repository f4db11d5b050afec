# Chained comparisons (0 < x < 5, a <= b < c, a == b == c, a != b != c, four-way
# chains) on ints and floats, in if, where and bool stores; each operand after the first
# has the type of the one before it, as Warp requires.
# kern-test: lang_cmp_chains --dim 8 k='rand(int32,8,3,seed=971)' x='rand(float,8,seed=972)' out='zeros(int32,8,7)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_cmp_chains(k: wp.array2d(dtype=int), x: wp.array(dtype=float), out: wp.array2d(dtype=int)):
    i = wp.tid()
    a = k[i, 0]
    b = k[i, 1]
    c = k[i, 2]
    out[i, 0] = int(0 < a % 10 < 5)
    out[i, 1] = int(a <= b < c)
    out[i, 2] = int(a % 3 == b % 3 == c % 3)
    out[i, 3] = int(a != b != c)
    out[i, 4] = int(10 < a < b < 90)
    f = x[i]
    out[i, 5] = wp.where(0.25 < f <= 0.75, 1, 0)
    if a < 50 <= b:
        out[i, 6] = 1
    elif c > b > a:
        out[i, 6] = 2
