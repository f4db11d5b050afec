# Array views as Warp's own tests use them: a variable rebound from a 2-d view to
# a 1-d one and to a view of itself, .shape[k] past ndim (0, as in Warp),
# .ndim, run-time start:stop:step with a negative step, a[::-2, 1, 3] of a
# 3-d array, and out-of-range slice bounds.
# kern-test: view_rebind_shape --dim 1 a='arange(int32,32)' b2='rand(int32,8,4,seed=7)' b3='rand(int32,4,8,4,seed=8)' start=5 stop=0 step=-2 out='zeros(int32,40)'
# kern-check: out
import warp as wp


@wp.kernel
def view_rebind_shape(a: wp.array[int], b2: wp.array2d[int], b3: wp.array3d[int],
                      start: int, stop: int, step: int, out: wp.array[int]):
    sub = a[3::-1]
    out[0] = sub.ndim * 100 + sub.shape[0] * 10 + sub.shape[1]
    out[1] = sub[0] * 10 + sub[3]
    sub = a[::-3]
    sub = sub[::2]
    out[2] = sub.shape[0] * 100 + sub[0]
    out[3] = sub[2]
    v = b2[:2]
    out[4] = v.ndim * 1000 + v.shape[0] * 100 + v.shape[1] * 10 + v.shape[2]
    out[5] = v[1, 3]
    v = b2[:2, 1]
    out[6] = v.ndim * 100 + v.shape[0] * 10 + v.shape[3]
    out[7] = v[0] + v[1]
    w = b2[3:5, 3:1:-1]
    out[8] = w[0, 0] * 100 + w[1, 1]
    w = b2[::4]
    w = w[:, ::-3]
    out[9] = w.shape[0] * 10 + w.shape[1]
    out[10] = w[0, 0] * 100 + w[1, 1]
    d = b2[start:stop:step, 1]
    out[11] = d.shape[0]
    out[12] = d[0] * 100 + d[d.shape[0] - 1]
    t = b3[::-2, 1, 3]
    out[13] = t.shape[0] * 1000 + t[0] * 10 + t.shape[1]
    t = b3[0, 2:5, -3]
    out[14] = t.shape[0] * 100 + t[2]
    u = b3[-1:]
    out[15] = u.ndim * 100 + u.shape[0] * 10 + u.shape[3]
    out[16] = u[0, 7, 3]
    u = b3[:1, 3:1:-1]
    out[17] = u.shape[1] * 100 + u[0, 1, 3]
    out[18] = a.shape[1] + b2.shape[3] + b3.ndim
    o = a[-100:100]
    out[19] = o.shape[0]
    o = a[40:50]
    out[20] = o.shape[0]
    o = a[-3:-1]
    out[21] = o[0] * 100 + o[1]
    e = b2[2:2, :]
    out[22] = e.shape[0] * 10 + e.shape[1]
