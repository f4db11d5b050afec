# @wp.func with default parameter values (literals, a module-level constant, a vector
# constant), called with and without them and with keyword arguments; overloads of one
# name by parameter types (float32, float64, int32, vec3, and two parameters); a later
# definition with the same signature replaces the earlier one; functions returning
# vectors and matrices.
# kern-test: func_defaults_overloads --dim 4 x='arange(float32,4)' out='zeros(float32,4,12)' od='zeros(float64,4)' oi='zeros(int32,4)' ov='zeros(vec3,4)' om='zeros(mat22,4)'
# kern-check: out
# kern-check: od
# kern-check: oi
# kern-check: ov
# kern-check: om
import warp as wp

OFFSET = 10.0
ORIGIN = wp.constant(wp.vec3(1.0, 2.0, 3.0))


@wp.func
def affine(x: float, scale: float = 2.0, shift: float = OFFSET) -> float:
    return x * scale + shift


@wp.func
def count(n: int, step: int = 3) -> int:
    return n * step


@wp.func
def moved(p: wp.vec3, by: wp.vec3 = ORIGIN) -> wp.vec3:
    return p + by


@wp.func
def twice(x: float) -> float:
    return x * 3.0  # replaced below


@wp.func
def twice(x: float) -> float:
    return x + x


@wp.func
def twice(x: wp.float64) -> wp.float64:
    return x * wp.float64(2.0) + wp.float64(0.5)


@wp.func
def twice(x: int) -> int:
    return x * 2 + 1


@wp.func
def twice(v: wp.vec3) -> wp.vec3:
    return v * 2.0


@wp.func
def twice(x: float, y: float) -> float:
    return x * 2.0 + y


@wp.func
def rot(a: float) -> wp.mat22:
    c = wp.cos(a)
    s = wp.sin(a)
    return wp.mat22(c, -s, s, c)


@wp.kernel
def func_defaults_overloads(x: wp.array(dtype=float), out: wp.array2d(dtype=float), od: wp.array(dtype=wp.float64),
                            oi: wp.array(dtype=int), ov: wp.array(dtype=wp.vec3), om: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    v = x[i]
    out[i, 0] = affine(v)
    out[i, 1] = affine(v, 3.0)
    out[i, 2] = affine(v, 3.0, 1.0)
    out[i, 3] = affine(v, shift=-1.0)
    out[i, 4] = affine(x=v, scale=0.5)
    out[i, 5] = twice(v)
    out[i, 6] = twice(v, 1.0)
    out[i, 7] = twice(v, y=2.0)
    out[i, 8] = moved(wp.vec3(v, 0.0, 0.0))[0]
    out[i, 9] = moved(wp.vec3(v, 0.0, 0.0), wp.vec3(1.0))[1]
    out[i, 10] = rot(v)[0, 1]
    out[i, 11] = float(count(i) + count(i, 5) + count(step=2, n=i))
    od[i] = twice(wp.float64(v))
    oi[i] = twice(i)
    ov[i] = twice(wp.vec3(v, 1.0, -1.0))
    om[i] = rot(v * 0.5) * rot(v * 0.5)
