# i, j = wp.tid() over a 2-d launch.
# kern-test: tid_2d --dim 3,5 out='zeros(int32,3,5)' flat='zeros(int32,15)'
# kern-check: out
# kern-check: flat
import warp as wp


@wp.kernel
def tid_2d(out: wp.array2d(dtype=wp.int32), flat: wp.array(dtype=wp.int32)):
    i, j = wp.tid()
    out[i, j] = i * 10 + j
    flat[i * 5 + j] = i - j
