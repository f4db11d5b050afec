# wp.indexedarray4d of vec3: component reads, wp.atomic_add of a vector
# into an indexed element, a[i, j] (a 2-d sub-array) and its shape.
# kern-test: indexed_4d --dim 2,2,2,2 a='indexed(rand(vec3,3,2,4,2,seed=9);[2,0];:;[3,1];[1,0])' out='zeros(float32,2,2,2,2)' acc='indexed(zeros(vec3,4,3,2,2);[1,3];:;[1,0])' sh='zeros(int32,4)'
# kern-check: out
# kern-check: acc
# kern-check: sh
import warp as wp


@wp.kernel
def indexed_4d(
    a: wp.indexedarray4d(dtype=wp.vec3),
    out: wp.array4d(dtype=float),
    acc: wp.indexedarray[wp.vec3, 4],
    sh: wp.array(dtype=int),
):
    i, j, k, l = wp.tid()
    v = a[i, j, k, l]
    out[i, j, k, l] = v[0] + 2.0 * v[1] - v[2]
    wp.atomic_add(acc, i, j % 2, k, l, v)
    sub = a[i, j]
    if i == 1 and j == 1 and k == 1 and l == 1:
        sh[0] = sub.shape[0]
        sh[1] = sub.shape[1]
        sh[2] = a.shape[2]
        sh[3] = acc.shape[1]
