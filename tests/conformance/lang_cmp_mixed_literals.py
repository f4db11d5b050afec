# Comparisons mixing types, which Warp emits as plain C comparisons: int32 values
# against float literals (x < 2.5, x == 3.0), float32 against int literals, float64
# against a float32 literal, int64 against an int literal, in if, where and bool
# stores.
# kern-test: lang_cmp_mixed_literals --dim 8 k='rand(int32,8,seed=731)' x='rand(float,8,seed=732)' d='rand(float64,8,seed=733)' out='zeros(int32,8,8)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_cmp_mixed_literals(k: wp.array(dtype=int), x: wp.array(dtype=float), d: wp.array(dtype=wp.float64),
                            out: wp.array2d(dtype=int)):
    i = wp.tid()
    n = k[i] % 6
    out[i, 0] = int(n < 2.5)
    out[i, 1] = int(n == 3.0)
    out[i, 2] = int(n >= 4.000001)
    f = x[i] * 4.0
    out[i, 3] = int(f > 2)
    out[i, 4] = wp.where(f <= 1, 10, 20)
    out[i, 5] = int(d[i] < 0.5)
    l = wp.int64(k[i]) * wp.int64(1000000)
    out[i, 6] = int(l > 50000000)
    if f < n:
        out[i, 7] = 1
    else:
        out[i, 7] = -1
