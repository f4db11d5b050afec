# & | ^ ~ << >> on int32 (incl. negative: >> is arithmetic) and int64.
# kern-test: ops_bitwise --dim 8 x='rand(int32,8,seed=25)' oi='zeros(int32,8,7)' ol='zeros(int64,8,3)'
# kern-check: oi
# kern-check: ol
import warp as wp


@wp.kernel
def ops_bitwise(x: wp.array(dtype=wp.int32), oi: wp.array2d(dtype=wp.int32), ol: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    a = x[i] - 50
    oi[i, 0] = a & 0x3C
    oi[i, 1] = a | 0x100
    oi[i, 2] = a ^ -1
    oi[i, 3] = ~a
    oi[i, 4] = a << 4
    oi[i, 5] = a >> 2
    oi[i, 6] = (a & 7) | ((a >> 3) ^ 5) << 8
    b = wp.int64(a) << wp.int64(40)
    ol[i, 0] = b
    ol[i, 1] = b >> wp.int64(20)
    ol[i, 2] = b ^ wp.int64(0x123456789)
