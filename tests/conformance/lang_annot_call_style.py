# The call style of array annotations next to the subscript one in one signature:
# wp.array(dtype=T), wp.array(dtype=T, ndim=2), wp.array2d(dtype=T), wp.array3d(dtype=T),
# and the same in @wp.func parameters.
# kern-test: lang_annot_call_style --dim 3 a='rand(float,3,seed=51)' b='rand(vec4,3,2,seed=52)' c='rand(float64,3,2,seed=53)' d='rand(int16,3,2,2,seed=54)' out='zeros(float,3,4)'
# kern-check: out
import warp as wp


@wp.func
def row_total(r: wp.array(dtype=wp.vec4, ndim=2), i: int) -> float:
    return wp.dot(r[i, 0], r[i, 1])


@wp.func
def cube_total(d: wp.array3d(dtype=wp.int16), i: int) -> int:
    return int(d[i, 0, 0]) + int(d[i, 0, 1]) * 2 + int(d[i, 1, 0]) * 3 + int(d[i, 1, 1]) * 4


@wp.kernel
def lang_annot_call_style(a: wp.array(dtype=float), b: wp.array(dtype=wp.vec4, ndim=2),
                          c: wp.array2d(dtype=wp.float64), d: wp.array3d(dtype=wp.int16),
                          out: wp.array[float, 2]):
    i = wp.tid()
    out[i, 0] = a[i] * 2.0
    out[i, 1] = row_total(b, i)
    out[i, 2] = float(c[i, 0] - c[i, 1])
    out[i, 3] = float(cube_total(d, i))
