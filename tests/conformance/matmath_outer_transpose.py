# outer (vec2 x vec3 -> 2x3 is not a first-stage type, so square cases), transpose.
# kern-test: matmath_outer_transpose --dim 4 a='rand(vec3,4,seed=33)' b='arange(vec3,4)' m='arange(mat22d,4)' oo='zeros(mat33,4)' ot='zeros(mat33,4)' otd='zeros(mat22d,4)' oo4='zeros(mat44,4)'
# kern-check: oo
# kern-check: ot
# kern-check: otd
# kern-check: oo4
import warp as wp


@wp.kernel
def matmath_outer_transpose(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22d),
                            oo: wp.array(dtype=wp.mat33), ot: wp.array(dtype=wp.mat33), otd: wp.array(dtype=wp.mat22d),
                            oo4: wp.array(dtype=wp.mat44)):
    i = wp.tid()
    o = wp.outer(a[i], b[i])
    oo[i] = o
    ot[i] = wp.transpose(o + wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0))
    otd[i] = wp.transpose(m[i])
    v = wp.vec4(1.0, 2.0, 3.0, float(i))
    oo4[i] = wp.outer(v, v)
