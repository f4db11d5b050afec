# randi(state) (full int32 range, can be negative) and randi(state, lo, hi).
# kern-test: random_randi --dim 16 out='zeros(int32,16,5)'
# kern-check: out
import warp as wp


@wp.kernel
def random_randi(out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    s = wp.rand_init(1234, i)
    out[i, 0] = wp.randi(s)
    out[i, 1] = wp.randi(s)
    out[i, 2] = wp.randi(s, 0, 10)
    out[i, 3] = wp.randi(s, -5, 5)
    t = wp.rand_init(i * 7)
    out[i, 4] = wp.randi(t, 100, 1000)
