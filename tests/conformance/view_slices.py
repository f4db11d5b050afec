# Array slices: a[1:5], a[i, :], a[:, j], a[::-1], a[::2], run-time and negative
# bounds, out-of-range bounds (clamped as Python does), a column passed to a
# @wp.func, stores through a slice, and Warp's flattening of chained subscripts:
# a[1:3][0] is a[1:3, 0], column 0 of rows 1 and 2.
# kern-test: view_slices --dim 1 a='rand(float32,5,6,seed=4)' x='arange(float32,10)' n=3 y='zeros(float32,10)' out='zeros(float32,40)'
# kern-check: y
# kern-check: out
import warp as wp


@wp.func
def total(r: wp.array(dtype=float)) -> float:
    s = float(0.0)
    for k in range(r.shape[0]):
        s += r[k]
    return s


@wp.kernel
def view_slices(a: wp.array2d(dtype=float), x: wp.array(dtype=float), n: int,
                y: wp.array(dtype=float), out: wp.array(dtype=float)):
    s = x[1:5]
    out[0] = s[0]
    out[1] = float(len(s))
    out[2] = total(s)
    rev = x[::-1]
    out[3] = rev[0]
    out[4] = rev[9]
    ev = x[::2]
    out[5] = float(len(ev)) * 100.0 + ev[3]
    rt = x[n:n + 4]
    out[6] = rt[3] + float(len(rt)) * 100.0
    neg = x[-3:]
    out[7] = neg[0] + float(len(neg)) * 100.0
    big = x[5:100]
    out[8] = float(len(big))
    empty = x[7:2]
    out[9] = float(len(empty))
    row = a[2, :]
    out[10] = total(row)
    out[11] = float(len(row))
    col = a[:, 4]
    out[12] = total(col)
    out[13] = float(len(col)) + col[4]
    blk = a[1:4, 2:5]
    out[14] = blk[2, 2] + float(blk.shape[0] * 10 + blk.shape[1]) * 100.0
    q = a[1:3][0]
    out[15] = q[0] + q[1] * 10.0 + float(len(q)) * 100.0
    back = a[::-2, 1]
    out[16] = back[0] + back[1] + back[2] + float(len(back)) * 100.0
    st = a[0, 1::2]
    out[17] = st[2] + float(len(st)) * 100.0
    colr = a[:, -1][::-1]
    out[18] = colr[0]
    dst = y[2:8:2]
    for k in range(len(dst)):
        dst[k] = float(k + 1)
    tail = y[8:]
    tail[1] = total(x[n:])
    out[19] = total(a[1:3, 1])
    sub = blk[1:, :2]
    out[20] = sub[0, 0] + sub[1, 1] + float(len(sub)) * 100.0
    wp.atomic_add(y[2:4], 1, 2.5)
    wp.atomic_sub(a[1:3][0], 1, 0.5)
    out[21] = a[2, 0]
