# Assignment forms on array elements: a[i] op= v for + - (atomic in Warp) and * / (load,
# op, store), on float, int and vec3 arrays and a 2-d array, one thread per element so
# the result does not depend on thread order; component updates a[i][1] += v.
# kern-test: lang_assign_array_elems --dim 5 a='rand(float,5,seed=621)' b='rand(int32,5,seed=622)' v='rand(vec3,5,seed=623)' g='rand(float,5,3,seed=624)'
# kern-check: a
# kern-check: b
# kern-check: v
# kern-check: g
import warp as wp


@wp.kernel(enable_backward=False)
def lang_assign_array_elems(a: wp.array(dtype=float), b: wp.array(dtype=int), v: wp.array(dtype=wp.vec3),
                            g: wp.array2d(dtype=float)):
    i = wp.tid()
    a[i] += 1.5
    a[i] *= float(i + 1)
    a[i] -= 0.25
    a[i] /= 2.0
    b[i] -= 10
    b[i] *= 3
    b[i] //= 4
    b[i] %= 17
    v[i] += wp.vec3(1.0, 2.0, 3.0)
    v[i][1] += a[i]
    v[i] *= 0.5
    g[i, 2] += g[i, 0]
    g[i, 1] *= g[i, 2]
