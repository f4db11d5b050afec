# Slices with negative steps: x[::-1], x[::-2], x[8:2:-1], x[-2::-3], a[::-1, 2],
# a[3, ::-2], their lengths and elements, and a store through a reversed view.
# kern-test: lang_slice_negative_step --dim 1 x='rand(float,10,seed=441)' a='rand(float,4,5,seed=442)' y='zeros(float,10)' out='zeros(float,14)'
# kern-check: y
# kern-check: out
import warp as wp


@wp.func
def total(r: wp.array(dtype=float)) -> float:
    s = float(0.0)
    for j in range(len(r)):
        s += r[j] * float(j + 1)
    return s


@wp.kernel
def lang_slice_negative_step(x: wp.array(dtype=float), a: wp.array2d(dtype=float), y: wp.array(dtype=float),
                             out: wp.array(dtype=float)):
    r1 = x[::-1]
    out[0] = total(r1)
    r2 = x[::-2]
    out[1] = float(len(r2))
    out[2] = total(r2)
    r3 = x[8:2:-1]
    out[3] = float(len(r3))
    out[4] = total(r3)
    r4 = x[-2::-3]
    out[5] = float(len(r4))
    out[6] = total(r4)
    c = a[::-1, 2]
    out[7] = float(len(c))
    out[8] = total(c)
    r = a[3, ::-2]
    out[9] = float(len(r))
    out[10] = total(r)
    ry = y[::-1]
    for j in range(len(ry)):
        ry[j] = float(j) * 0.5
    out[11] = r1[0] - x[9]
    out[12] = total(r1[1::2])
    out[13] = total(r2[::-1])
