# Assigning to vector and matrix slices: v[1:3] = w, v[::2] += w, v[1:3] *= s,
# m[0:2, 1] = c (part of a column), m[2, 1:] = r, m[:2] = rows, m[:, ::-1] = n,
# on variables (Warp rejects a slice of an array element as a target).
# kern-test: vec_mat_slice_assign --dim 2 v='arange(vec4,2)' m='arange(mat33,2)' vo='zeros(vec4,2)' mo='zeros(mat33,2)'
# kern-check: vo
# kern-check: mo
import warp as wp


@wp.kernel
def vec_mat_slice_assign(v: wp.array(dtype=wp.vec4), m: wp.array(dtype=wp.mat33),
                         vo: wp.array(dtype=wp.vec4), mo: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    a = v[i]
    a[1:3] = wp.vec2(10.0, 20.0)
    a[::2] += wp.vec2(100.0, 200.0)
    a[-2:] *= 2.0
    vo[i] = a
    b = m[i]
    b[0:2, 1] = wp.vec2(-1.0, -2.0)
    b[2, 1:] = wp.vec2(-3.0, -4.0)
    b[:2] = wp.matrix_from_rows(wp.vec3(7.0, 8.0, 9.0), b[2])
    mo[i] = b
    c = m[i]
    c[:, ::-1] = wp.transpose(b)
    c[1] = b[0] + c[2, ::-1]
    mo[i] = mo[i] + c
