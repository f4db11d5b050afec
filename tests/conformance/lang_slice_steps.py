# Array slices with steps: x[::3], x[1::2], x[2:9:3], x[a:b:k] with run-time bounds and
# step, a 2-d block a[::2, 1::2]; lengths and elements of each.
# kern-test: lang_slice_steps --dim 1 x='rand(float,12,seed=431)' a='rand(float,5,6,seed=432)' k=2 out='zeros(float,16)'
# kern-check: out
import warp as wp


@wp.func
def total(r: wp.array(dtype=float)) -> float:
    s = float(0.0)
    for j in range(len(r)):
        s += r[j] * float(j + 1)
    return s


@wp.kernel
def lang_slice_steps(x: wp.array(dtype=float), a: wp.array2d(dtype=float), k: int, out: wp.array(dtype=float)):
    s1 = x[::3]
    out[0] = float(len(s1))
    out[1] = total(s1)
    s2 = x[1::2]
    out[2] = float(len(s2))
    out[3] = total(s2)
    s3 = x[2:9:3]
    out[4] = float(len(s3))
    out[5] = total(s3)
    s4 = x[k:k + 7:k]
    out[6] = float(len(s4))
    out[7] = total(s4)
    b = a[::2, 1::2]
    out[8] = float(b.shape[0] * 10 + b.shape[1])
    out[9] = b[1, 1] + b[2, 0]
    s5 = x[k * 3::k + 1]
    out[10] = float(len(s5))
    out[11] = total(s5)
    s6 = s2[1::2]
    out[12] = float(len(s6))
    out[13] = total(s6)
    out[14] = total(a[1, ::2])
    out[15] = total(a[::3, 5])
