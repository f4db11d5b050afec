# Atomics on float16 arrays: atomic_add and atomic_sub (also a[i] += v),
# on scalars and on vec3h components.  The values added are small
# integers and halves, so every order of the additions gives the same sum.
# kern-test: half_atomics --dim 64 acc='zeros(float16,4)' vacc='zeros(vec3h,2)' old='zeros(float16,64)'
# kern-check: acc
# kern-check: vacc
import warp as wp


@wp.kernel
def half_atomics(acc: wp.array(dtype=wp.float16), vacc: wp.array(dtype=wp.vec3h),
                 old: wp.array(dtype=wp.float16)):
    i = wp.tid()
    x = wp.float16(float(i % 4) * 0.5)
    wp.atomic_add(acc, 0, x)
    wp.atomic_sub(acc, 1, wp.float16(1.0))
    acc[2] += wp.float16(2.0)
    acc[3] -= x
    wp.atomic_add(vacc, i % 2, wp.vec3h(x, wp.float16(1.0), -x))
    old[i] = wp.atomic_add(acc, 0, wp.float16(0.0))
