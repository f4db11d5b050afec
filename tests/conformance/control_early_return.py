# Early `return` from a kernel (threads leave before writing) and from inside a loop.
# kern-test: control_early_return --dim 16 x='arange(int32,16)' out='full(int32,16,-1)' cnt='zeros(int32,16)'
# kern-check: out
# kern-check: cnt
import warp as wp


@wp.kernel
def control_early_return(x: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32), cnt: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if x[i] % 3 == 0:
        return
    out[i] = x[i] * 2
    for k in range(100):
        cnt[i] = k
        if k * k >= x[i]:
            return
    cnt[i] = 1000
