# wp.atomic_*() on fixed-size local arrays (one thread's own array): each
# returns the element's old value and updates it, for int, float and vector
# elements.
# kern-test: lang_fixed_array_atomic --dim 3 x='arange(float32,3)' out='zeros(float32,3,6)' iout='zeros(int32,3,12)'
# kern-check: out
# kern-check: iout
import warp as wp


@wp.kernel
def lang_fixed_array_atomic(x: wp.array(dtype=float), out: wp.array2d(dtype=float), iout: wp.array2d(dtype=int)):
    tid = wp.tid()
    a = wp.zeros(shape=(2, 4), dtype=int)
    a[1, 0] = 12
    a[1, 1] = 10
    a[1, 2] = 6
    a[1, 3] = 9
    iout[tid, 0] = wp.atomic_add(a, 0, 1, tid + 5)
    iout[tid, 1] = wp.atomic_add(a, 0, 1, 3)
    iout[tid, 2] = wp.atomic_sub(a, 0, 1, 1)
    iout[tid, 3] = wp.atomic_min(a, 1, 0, tid + 10)
    iout[tid, 4] = wp.atomic_max(a, 1, 1, tid + 9)
    iout[tid, 5] = wp.atomic_and(a, 1, 2, 3)
    iout[tid, 6] = wp.atomic_or(a, 1, 3, tid)
    iout[tid, 7] = wp.atomic_xor(a, 1, 3, 5)
    iout[tid, 8] = wp.atomic_exch(a, 0, 2, 77)
    iout[tid, 9] = wp.atomic_cas(a, 0, 2, 77, tid)
    iout[tid, 10] = wp.atomic_cas(a, 0, 3, 1, 8)
    iout[tid, 11] = a[0, 1] + a[1, 0] * 100 + a[1, 1] * 10000 + a[0, 2] * 1000000
    f = wp.zeros(3, dtype=float)
    wp.atomic_add(f, 2, x[tid] + 0.5)
    out[tid, 0] = wp.atomic_max(f, 2, 1.0) + f[2]
    v = wp.zeros(shape=2, dtype=wp.vec2)
    old = wp.atomic_add(v, 1, wp.vec2(x[tid], 2.0))
    wp.atomic_sub(v, 1, wp.vec2(0.25, 0.5))
    m = wp.atomic_min(v, 1, wp.vec2(1.0, 1.0))
    out[tid, 1] = old[0] + m[0]
    out[tid, 2] = v[1][0]
    out[tid, 3] = v[1][1]
    out[tid, 4] = m[1]
