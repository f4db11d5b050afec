# Return values of atomics used: per-thread slots so each old value is known
# (atomic_add, atomic_sub, atomic_min, atomic_max, atomic_exch, atomic_cas return what
# the element held before), and a shared counter whose old values index a histogram
# that ends the same whatever the thread order.
# kern-test: lang_atomic_return --dim 8 a='rand(int32,8,seed=661)' f='rand(float,8,seed=662)' cnt='zeros(int32,1)' seen='zeros(int32,8)' out='zeros(int32,8,6)' of='zeros(float,8,2)'
# kern-check: a
# kern-check: f
# kern-check: seen
# kern-check: cnt
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def lang_atomic_return(a: wp.array(dtype=int), f: wp.array(dtype=float), cnt: wp.array(dtype=int),
                       seen: wp.array(dtype=int), out: wp.array2d(dtype=int), of: wp.array2d(dtype=float)):
    i = wp.tid()
    out[i, 0] = wp.atomic_add(a, i, 5)
    out[i, 1] = wp.atomic_sub(a, i, 2)
    out[i, 2] = wp.atomic_max(a, i, 60)
    out[i, 3] = wp.atomic_min(a, i, 40)
    out[i, 4] = wp.atomic_exch(a, i, i * 3)
    out[i, 5] = wp.atomic_cas(a, i, i * 3, -i)
    of[i, 0] = wp.atomic_add(f, i, 0.25)
    of[i, 1] = wp.atomic_max(f, i, 0.5)
    slot = wp.atomic_add(cnt, 0, 1)
    seen[slot] = 1 + slot * 2
