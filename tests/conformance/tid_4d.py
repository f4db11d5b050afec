# i, j, k, l = wp.tid() over a 4-d launch, writing a flat array.
# kern-test: tid_4d --dim 2,3,2,3 out='zeros(int32,36)' out4='zeros(int32,2,3,2,3)'
# kern-check: out
# kern-check: out4
import warp as wp


@wp.kernel
def tid_4d(out: wp.array(dtype=wp.int32), out4: wp.array4d(dtype=wp.int32)):
    i, j, k, l = wp.tid()
    out[((i * 3 + j) * 2 + k) * 3 + l] = i * 1000 + j * 100 + k * 10 + l
    out4[i, j, k, l] = l - i
