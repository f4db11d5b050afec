# Atomics: a histogram with wp.atomic_add into int32 bins, and wp.atomic_max
# for the largest value overall and per bin.
# kern-test: atomics --dim 1000 values='rand(int32,1000,seed=11)' x='rand(float32,1000,seed=12)' bins='zeros(int32,10)' binmax='full(int32,10,-1)' largest='full(float32,1,-1)'
# kern-check: bins
# kern-check: binmax
# kern-check: largest
import warp as wp


@wp.kernel
def atomics(values: wp.array(dtype=wp.int32), x: wp.array(dtype=wp.float32), bins: wp.array(dtype=wp.int32),
            binmax: wp.array(dtype=wp.int32), largest: wp.array(dtype=wp.float32)):
    i = wp.tid()
    v = values[i]          # 0 .. 99
    b = v / 10             # bin 0 .. 9
    wp.atomic_add(bins, b, 1)
    wp.atomic_max(binmax, b, v)
    wp.atomic_max(largest, 0, x[i])
