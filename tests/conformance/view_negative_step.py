# Negative-step slices where Warp's clamping of start and stop differs from
# Python's: a[-10::-1] of 8 elements has 1 element in Warp (0 in Python),
# a[:-10:-1] has 7 (8 in Python); with run-time bounds too.  (kern departs
# from Warp only where Warp would read outside the array, a start past the end
# with a negative step; not tested here.)
# kern-test: view_negative_step --dim 1 a='arange(float32,8)' lo=-10 out='zeros(float32,16)'
# kern-check: out
import warp as wp


@wp.kernel
def view_negative_step(a: wp.array(dtype=float), lo: int, out: wp.array(dtype=float)):
    t = a[-10::-1]
    out[0] = float(t.shape[0])
    out[1] = t[0]
    u = a[:-10:-1]
    out[2] = float(u.shape[0])
    out[3] = u[0] + u[6] * 10.0
    v = a[lo::-1]
    out[4] = float(v.shape[0])
    w = a[:lo:-2]
    out[5] = float(w.shape[0])
    out[6] = w[0] + w[3] * 10.0
    x = a[6:-9:-3]
    out[7] = float(x.shape[0]) + x[1] * 10.0
    y = a[-2:1:-1]
    out[8] = float(y.shape[0]) + y[4] * 10.0
    z = a[7:lo:-1]
    out[9] = float(z.shape[0])
