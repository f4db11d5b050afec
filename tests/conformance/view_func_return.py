# Views as values in more places: a @wp.func returning a sub-array or its array
# parameter, a call's result indexed, sliced and measured directly
# (row_of(a)[3], row_of(a)[1:][0], len(row_of(a))), and a conditional
# expression choosing between a view and an array parameter.
# kern-test: view_func_return --dim 3 a='rand(float32,3,5,seed=11)' b='arange(float32,5)' out='zeros(float32,3,8)'
# kern-check: out
import warp as wp


@wp.func
def row_of(a: wp.array2d(dtype=float), i: int):
    return a[i]


@wp.func
def same(b: wp.array(dtype=float)) -> wp.array(dtype=float):
    return b


@wp.func
def pick(a: wp.array2d(dtype=float), b: wp.array(dtype=float), i: int):
    r = a[i] if i > 0 else b
    return r[1] + r[3]


@wp.kernel
def view_func_return(a: wp.array2d(dtype=float), b: wp.array(dtype=float),
                     out: wp.array2d(dtype=float)):
    i = wp.tid()
    out[i, 0] = row_of(a, i)[3]
    out[i, 1] = row_of(a, 2 - i)[1:][0]
    out[i, 2] = float(len(row_of(a, i)))
    r = row_of(a, i)[::-2]
    out[i, 3] = r[0] + r[2] + float(r.shape[0]) * 10.0
    out[i, 4] = pick(a, b, i)
    out[i, 5] = same(b)[i] + same(row_of(a, i))[4]
    t = a[i] if out[i, 0] > 0.5 else b
    out[i, 6] = t[2]
    out[i, 7] = float(same(b[i:]).shape[0])
