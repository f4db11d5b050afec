# Function parameters are values: assigning to a scalar/vector parameter inside the
# function does not change the caller's variable.
# kern-test: func_args_by_value --dim 4 out='zeros(float32,4,3)'
# kern-check: out
import warp as wp


@wp.func
def bump(a: float, v: wp.vec3) -> float:
    a = a + 10.0
    v[0] = 100.0
    return a + v[0]


@wp.kernel
def func_args_by_value(out: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    a = float(i)
    v = wp.vec3(1.0, 2.0, 3.0)
    r = bump(a, v)
    out[i, 0] = r
    out[i, 1] = a
    out[i, 2] = v[0]
