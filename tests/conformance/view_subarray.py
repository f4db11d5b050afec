# Sub-arrays: a[i] of a 2-d array is a 1-d array, a[i] of a 3-d array a 2-d one,
# a[i, j] of a 4-d array a 2-d one; views used as values (variables, @wp.func
# arguments), indexed, stored to, updated atomically, with len(), .shape, .ndim,
# negative indices and chained subscripts (a[i][j] is a[i, j]).
# kern-test: view_subarray --dim 3 a2='rand(float32,3,4,seed=1)' a3='rand(float32,3,2,4,seed=2)' a4='rand(float32,3,2,2,4,seed=3)' b='zeros(float32,3,4)' out='zeros(float32,3,12)'
# kern-check: b
# kern-check: out
import warp as wp


@wp.func
def row_total(r: wp.array(dtype=float)) -> float:
    s = float(0.0)
    for k in range(len(r)):
        s += r[k]
    return s


@wp.func
def plane_total(p: wp.array2d(dtype=float)) -> float:
    s = float(0.0)
    for i in range(p.shape[0]):
        s += row_total(p[i])
    return s


@wp.kernel
def view_subarray(a2: wp.array2d(dtype=float), a3: wp.array3d(dtype=float),
                  a4: wp.array4d(dtype=float), b: wp.array2d(dtype=float),
                  out: wp.array2d(dtype=float)):
    i = wp.tid()
    r = a2[i]
    out[i, 0] = row_total(r)
    out[i, 1] = float(len(r)) + float(r.ndim) * 10.0
    out[i, 2] = r[-1] + a2[i][1]
    p = a3[i]
    out[i, 3] = plane_total(p)
    out[i, 4] = float(p.shape[0] * 100 + p.shape[1])
    q = a4[i, 1]
    out[i, 5] = plane_total(q) + q[1, 3]
    out[i, 6] = row_total(a4[i, 0, 1]) + a4[i][1][0][2]
    last = a2[-1]
    out[i, 7] = last[0]
    w = b[i]
    w[0] = r[0] * 2.0
    w[2] = float(i)
    wp.atomic_add(w, 1, 1.5)
    w[3] += 0.25
    out[i, 8] = plane_total(a3[2 - i])
    # a view passed on from a function to a function
    out[i, 9] = row_total(a3[i, 1])
    r = a2[0]
    out[i, 10] = r[i]
    # b's row i only: another thread's row may not be written yet
    out[i, 11] = row_total(b[i])
