# Binary arithmetic + - * / // % and precedence/parentheses, int and float.
# kern-test: ops_arith --dim 8 x='rand(float32,8,seed=21)' n='arange(int32,8)' of='zeros(float32,8,6)' oi='zeros(int32,8,4)'
# kern-check: of
# kern-check: oi
import warp as wp


@wp.kernel
def ops_arith(x: wp.array(dtype=wp.float32), n: wp.array(dtype=wp.int32), of: wp.array2d(dtype=wp.float32),
              oi: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    a = x[i] * 10.0 + 1.0
    b = 3.0
    of[i, 0] = a + b * a - b / a
    of[i, 1] = (a + b) * (a - b)
    of[i, 2] = a / b / 2.0
    of[i, 3] = a - b - 1.0
    of[i, 4] = a // b
    of[i, 5] = a % b
    k = n[i] + 3
    oi[i, 0] = k * 7 - 100 // k + k % 4
    oi[i, 1] = (k - 10) * (k + 2) - 3 * -k
    oi[i, 2] = 1000 - k - k * k
    oi[i, 3] = 2 + 3 * 4 - 10 // 3 % 2
