# Atomics on bfloat16 arrays: wp.atomic_add, wp.atomic_sub, `+=` and `-=`,
# wp.atomic_min and wp.atomic_max (Warp has all of these for bfloat16), with
# every thread hitting a few shared slots of small integers (exact in any
# order).
# kern-test: ty_bf16_atomics --dim 32 x='rand(int32,32,seed=180)' acc='zeros(bfloat16,4)' mn='full(bfloat16,4,100)' mx='full(bfloat16,4,-100)'
# kern-check: acc
# kern-check: mn
# kern-check: mx
import warp as wp


@wp.kernel
def ty_bf16_atomics(x: wp.array(dtype=int), acc: wp.array(dtype=wp.bfloat16), mn: wp.array(dtype=wp.bfloat16),
                    mx: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    v = wp.bfloat16(float(x[i] % 16 - 5))
    wp.atomic_add(acc, 0, v)
    wp.atomic_sub(acc, 1, v)
    acc[2] += wp.bfloat16(2.0)
    acc[3] -= v * wp.bfloat16(2.0)
    wp.atomic_min(mn, i % 4, v)
    wp.atomic_max(mx, i % 4, v)
