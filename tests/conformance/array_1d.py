# wp.array(dtype=T) 1-d: read, write, index arithmetic, a.shape[0].
# kern-test: array_1d --dim 10 a='arange(float32,10)' out='zeros(float32,10)' n='zeros(int32,10)'
# kern-check: out
# kern-check: n
import warp as wp


@wp.kernel
def array_1d(a: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32), n: wp.array(dtype=wp.int32)):
    i = wp.tid()
    last = a.shape[0] - 1
    out[i] = a[last - i] * 2.0 + a[i]
    n[i] = a.shape[0] * 10 + i
