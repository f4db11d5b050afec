# mat44: 16-scalar constructor, indexing, mat*vec with `@` and `*`.
# kern-test: mat44_basic --dim 3 a='arange(mat44,3)' v=1,2,3,4 out='zeros(mat44,3)' r='zeros(vec4,3)'
# kern-check: out
# kern-check: r
import warp as wp


@wp.kernel
def mat44_basic(a: wp.array(dtype=wp.mat44), v: wp.vec4, out: wp.array(dtype=wp.mat44), r: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    m = a[i]
    k = wp.mat44(1.0, 0.0, 0.0, 0.0,
                 0.0, 2.0, 0.0, 0.0,
                 0.0, 0.0, 3.0, 0.0,
                 1.0, 1.0, 1.0, 1.0)
    out[i] = m + k * float(i)
    r[i] = m @ v + k * v
    r[i][3] = m[3, 3]
