# Integer / // % with negative operands (int32 and int64).
# Warp: `//` floors (Python), `/` truncates (C), `%` is C remainder (sign of dividend).
# kern-test: int_divmod_negative --dim 5 a='arange(int32,5)' b='arange(int64,5)' oi='zeros(int32,5,12)' ol='zeros(int64,5,6)'
# kern-check: oi
# kern-check: ol
import warp as wp


@wp.kernel
def int_divmod_negative(a: wp.array(dtype=wp.int32), b: wp.array(dtype=wp.int64),
                        oi: wp.array2d(dtype=wp.int32), ol: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    x = a[i] * 3 - 7      # -7 -4 -1 2 5
    p = 3
    n = -3
    oi[i, 0] = x // p
    oi[i, 1] = x // n
    oi[i, 2] = x % p
    oi[i, 3] = x % n
    oi[i, 4] = x / p
    oi[i, 5] = x / n
    oi[i, 6] = 17 // n
    oi[i, 7] = -17 // p
    oi[i, 8] = 17 % n
    oi[i, 9] = -17 % p
    oi[i, 10] = -17 / p
    oi[i, 11] = wp.mod(x, n)
    y = b[i] * wp.int64(3) - wp.int64(7)
    q = wp.int64(-2)
    ol[i, 0] = y // q
    ol[i, 1] = y % q
    ol[i, 2] = y / q
    ol[i, 3] = y // wp.int64(2)
    ol[i, 4] = y % wp.int64(2)
    ol[i, 5] = y / wp.int64(2)
