# float16 matrices: mat33h and mat44h arrays, products with vectors and
# matrices (Warp's order: each product and partial sum rounded),
# transpose, scaling, componentwise operations, rows and entries.
# kern-test: half_matrices --dim 6 a='rand(mat33h,6,seed=31)' b='rand(mat44h,6,seed=32)' v='rand(vec4h,6,seed=33)' m3='zeros(mat33h,6,3)' m4='zeros(mat44h,6,2)' vo='zeros(vec4h,6,3)'
# kern-check: m3
# kern-check: m4
# kern-check: vo
import warp as wp


@wp.kernel
def half_matrices(a: wp.array(dtype=wp.mat33h), b: wp.array(dtype=wp.mat44h), v: wp.array(dtype=wp.vec4h),
                  m3: wp.array2d(dtype=wp.mat33h), m4: wp.array2d(dtype=wp.mat44h),
                  vo: wp.array2d(dtype=wp.vec4h)):
    i = wp.tid()
    p = a[i] * wp.float16(7.0) - a[(i + 1) % 6]
    q = b[i] * wp.float16(5.0)
    w = v[i] * wp.float16(3.0) - wp.vec4h(wp.float16(1.0))
    m3[i, 0] = p * wp.transpose(p)
    m3[i, 1] = p @ a[i] + p
    r = p
    r[1, 2] = p[0, 0] * p[2, 1]
    r[0] = wp.vec3h(p[2, 0], p[1, 1], p[0, 2])
    m3[i, 2] = r / wp.float16(3.0)
    m4[i, 0] = q * q
    m4[i, 1] = wp.transpose(q) - q * wp.float16(0.5)
    vo[i, 0] = q * w
    vo[i, 1] = w * q
    vo[i, 2] = wp.vec4h(wp.dot(w, w), wp.length(w), wp.trace(q), wp.length_sq(v[i]))
