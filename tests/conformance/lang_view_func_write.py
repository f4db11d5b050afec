# Sub-arrays passed to @wp.func that write through them: a row a[i] of a 2-d array
# filled by a function, a plane b[i] of a 3-d array updated with atomics inside a
# function, and a strided column slice scaled in place.
# kern-test: lang_view_func_write --dim 3 x='rand(float,3,seed=951)' a='zeros(float,3,5)' b='zeros(int32,3,2,4)' c='rand(float,4,3,seed=952)'
# kern-check: a
# kern-check: b
# kern-check: c
import warp as wp


@wp.func
def fill_row(r: wp.array(dtype=float), v: float):
    for k in range(r.shape[0]):
        r[k] = v * float(k + 1)


@wp.func
def bump_plane(p: wp.array2d(dtype=int), n: int):
    for j in range(p.shape[0]):
        for k in range(p.shape[1]):
            wp.atomic_add(p, j, k, n + j * k)


@wp.func
def scale_all(col: wp.array(dtype=float), s: float):
    for k in range(len(col)):
        col[k] = col[k] * s


@wp.kernel
def lang_view_func_write(x: wp.array(dtype=float), a: wp.array2d(dtype=float), b: wp.array3d(dtype=int),
                         c: wp.array2d(dtype=float)):
    i = wp.tid()
    fill_row(a[i], x[i])
    bump_plane(b[i], i)
    scale_all(c[::2, i], -2.0)
