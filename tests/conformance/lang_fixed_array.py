# Fixed-size local arrays: wp.zeros() in a kernel (shape as a tuple, as an
# int, as a 1-tuple; int, float and vector elements), element reads and
# writes, a[i][j] and a[i, j], rows a[i], slices a[:2, 1:], .shape (0
# beyond a view's dimensions), len(), negative indices, += on elements, a
# fresh zeroed array on every loop trip, and the array's data kept per
# thread.
# kern-test: lang_fixed_array --dim 3 x='arange(float32,3)' out='zeros(float32,3,16)' iout='zeros(int32,3,16)'
# kern-check: out
# kern-check: iout
import warp as wp


@wp.kernel
def lang_fixed_array(x: wp.array(dtype=float), out: wp.array2d(dtype=float), iout: wp.array2d(dtype=int)):
    tid = wp.tid()
    arr = wp.zeros(shape=(2, 3), dtype=int)
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            arr[i][j] = i * arr.shape[1] + j + tid * 100
    iout[tid, 0] = arr[1][2]
    iout[tid, 1] = arr[0, 1]
    r = arr[1]
    iout[tid, 2] = r[0] + r.shape[0] * 10 + r.shape[1] * 1000
    s = arr[:2, 1:]
    iout[tid, 3] = s[1, 0] + s.shape[0] * 10 + s.shape[1] * 1000 + s.shape[2] * 10000
    iout[tid, 4] = len(arr) + arr[-1][-1]
    arr[0][0] += 7
    arr[1, 1] -= 3
    iout[tid, 5] = arr[0, 0] * 1000 + arr[1, 1]
    r[2] = 55
    iout[tid, 6] = arr[1, 2]

    v = wp.zeros(4, dtype=wp.vec3)
    v[1] = wp.vec3(x[tid], 2.0, 3.0)
    v[2][1] = 9.0
    w = v[1] + v[2] + v[0]
    out[tid, 0] = w[0]
    out[tid, 1] = w[1]
    out[tid, 2] = float(v.shape[0])

    acc = float(0.0)
    for k in range(3):
        f = wp.zeros(shape=(5,), dtype=float)
        f[k] = x[tid] + float(k)
        for m in range(5):
            acc += f[m] * float(m + 1)
    out[tid, 3] = acc

    m3 = wp.zeros(shape=(2, 2, 2), dtype=wp.float64)
    m3[1, 0, 1] = wp.float64(x[tid]) * wp.float64(0.5)
    out[tid, 4] = float(m3[1][0][1] + m3[0, 1, 1])
    iout[tid, 7] = m3.shape[0] + m3.shape[1] * 10 + m3.shape[2] * 100 + m3.shape[3] * 1000
    col = arr[:, 1]
    iout[tid, 8] = col[0] + col[1] * 100 + col.shape[0] * 10000
