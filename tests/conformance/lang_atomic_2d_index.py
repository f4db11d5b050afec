# Atomics with several indices: atomic_add on 2-d and 3-d arrays, a histogram of
# (row, bin) pairs, atomics through a sub-array a[i] of a 2-d array, and
# atomic_max on a 2-d int array.
# kern-test: lang_atomic_2d_index --dim 24 k='rand(int32,24,seed=691)' h='zeros(int32,3,5)' c='zeros(float,2,2,3)' mx='zeros(int32,2,3)'
# kern-check: h
# kern-check: c
# kern-check: mx
import warp as wp


@wp.kernel
def lang_atomic_2d_index(k: wp.array(dtype=int), h: wp.array2d(dtype=int), c: wp.array3d(dtype=float),
                         mx: wp.array2d(dtype=int)):
    i = wp.tid()
    v = k[i]
    wp.atomic_add(h, i % 3, v % 5, 1)
    wp.atomic_add(c, i % 2, (i // 2) % 2, v % 3, float(v))
    row = h[(i + 1) % 3]
    wp.atomic_add(row, 0, 10)
    wp.atomic_max(mx, i % 2, i % 3, v)
