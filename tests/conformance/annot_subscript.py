# Subscript annotations, the style Warp's documentation uses today: wp.array[T] for
# scalars and vectors, wp.array2d[T] .. wp.array4d[T], wp.array[T, 2], next to the call
# style wp.array(dtype=T, ndim=N); Python's float/int/bool and Warp type names as
# element types, in kernel and function parameters and return types.
# kern-test: annot_subscript --dim 4 x='arange(float,4)' v='arange(vec3,4)' m='arange(int32,4)' a2='rand(float32,4,3,seed=1)' a3='rand(float64,4,2,2,seed=2)' a4='rand(int64,4,2,2,2,seed=3)' b2='rand(float32,4,3,seed=4)' flags='full(bool,4,1)' out='zeros(float,4,8)' vout='zeros(vec3,4)' dout='zeros(float64,4)'
# kern-check: out
# kern-check: vout
# kern-check: dout
import warp as wp


@wp.func
def scaled(v: wp.vec3, s: float) -> wp.vec3:
    return v * s


@wp.func
def row_sum(a: wp.array2d[float], i: int) -> float:
    s = float(0.0)
    for j in range(a.shape[1]):
        s += a[i, j]
    return s


@wp.kernel
def annot_subscript(
    x: wp.array[float],
    v: wp.array[wp.vec3],
    m: wp.array[wp.int32],
    a2: wp.array2d[float],
    a3: wp.array3d[wp.float64],
    a4: wp.array4d[wp.int64],
    b2: wp.array[float, 2],
    flags: wp.array1d[bool],
    out: wp.array(dtype=float, ndim=2),
    vout: wp.array[wp.vec3],
    dout: wp.array[wp.float64],
):
    i = wp.tid()
    k = m[i] * 2
    f = x[i] + 0.5
    out[i, 0] = f
    out[i, 1] = float(k)
    out[i, 2] = row_sum(a2, i)
    out[i, 3] = row_sum(b2, i)
    out[i, 4] = float(a4[i, 1, 0, 1] % wp.int64(7))
    out[i, 5] = wp.where(flags[i], 1.0, 2.0)
    out[i, 6] = float(a2.shape[1] + a3.ndim + a4.ndim)
    out[i, 7] = float(b2.shape[0])
    vout[i] = scaled(v[i], f)
    dout[i] = a3[i, 0, 1] + a3[i, 1, 0]
