# wp.tid() in 1-d is an int32 and mixes with int32 arithmetic.
# kern-test: tid_1d --dim 37 out='zeros(int32,37)' of='zeros(float32,37)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def tid_1d(out: wp.array(dtype=wp.int32), of: wp.array(dtype=wp.float32)):
    i = wp.tid()
    out[i] = i * i - 5
    of[i] = float(i) * 0.5
