# @wp.func taking arrays: 1-d and 2-d arrays read in loops, an output array written
# through a function (arrays are references), an atomic inside a function, and an
# array of vectors.
# kern-test: lang_func_array_params --dim 4 a='rand(float,4,5,seed=281)' w='rand(float,5,seed=282)' v='rand(vec2,4,seed=283)' out='zeros(float,4)' acc='zeros(float,2)' ov='zeros(vec2,4)'
# kern-check: out
# kern-check: acc
# kern-check: ov
import warp as wp


@wp.func
def weighted(a: wp.array2d(dtype=float), w: wp.array(dtype=float), row: int) -> float:
    s = float(0.0)
    for j in range(w.shape[0]):
        s += a[row, j] * w[j]
    return s


@wp.func
def store(dst: wp.array(dtype=float), i: int, val: float):
    dst[i] = val * 2.0


@wp.func
def tally(acc: wp.array(dtype=float), val: float):
    if val > 1.8:
        wp.atomic_add(acc, 0, 1.0)
    else:
        wp.atomic_add(acc, 1, 1.0)


@wp.func
def swap_xy(v: wp.array(dtype=wp.vec2), src: wp.array(dtype=wp.vec2), i: int):
    v[i] = wp.vec2(src[i][1], src[i][0])


@wp.kernel
def lang_func_array_params(a: wp.array2d(dtype=float), w: wp.array(dtype=float), v: wp.array(dtype=wp.vec2),
                           out: wp.array(dtype=float), acc: wp.array(dtype=float), ov: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    s = weighted(a, w, i)
    store(out, i, s)
    tally(acc, s)
    swap_xy(ov, v, i)
