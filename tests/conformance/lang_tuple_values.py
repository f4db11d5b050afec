# Tuples as values: a tuple variable of mixed items (int, float, vector,
# matrix, struct, the thread index), indexed with constants, measured with
# len() and wp.static(len()), copied, and unpacked; a function's several
# results and a builtin's taken as one tuple.
# kern-test: lang_tuple_values --dim 4 x='arange(float32,4)' out='zeros(float32,4,12)' iout='zeros(int32,4,4)'
# kern-check: out
# kern-check: iout
import warp as wp


@wp.struct
class Frame:
    origin: wp.vec3
    scale: float


@wp.func
def split(x: float, k: int):
    return x * 2.0, k + 7, wp.vec2(x, -x)


@wp.kernel
def lang_tuple_values(x: wp.array(dtype=float), out: wp.array2d(dtype=float), iout: wp.array2d(dtype=int)):
    i = wp.tid()
    f = Frame(wp.vec3(x[i], 1.0, 2.0), 0.5)
    t = (3, x[i] + 0.25, wp.vec3(1.0, x[i], 3.0), wp.mat22(1.0, 2.0, 3.0, x[i]), f, i)
    y = x[i]
    u = (y, 2.0)
    y = 100.0  # the tuple keeps the value it was made from
    c = t
    out[i, 0] = t[1]
    t2 = t[2]
    t3 = t[3]
    out[i, 1] = t2[1] + t3[1, 1]
    out[i, 2] = t[4].origin[0] * t[4].scale
    out[i, 3] = u[0] + u[1] + y
    a, b, v, m, s, j = c
    out[i, 4] = b + v[2] + m[0, 1] + s.scale
    iout[i, 0] = t[0] + j * 10
    iout[i, 1] = len(t) + wp.static(len(u)) * 100

    r = split(x[i], i)
    p, q, w = r
    out[i, 5] = r[0]
    out[i, 6] = w[1] + p
    iout[i, 2] = r[1] + q * 100
    iout[i, 3] = len(r)

    qa = wp.quat_to_axis_angle(wp.quat(1.0, 2.0, x[i], 4.0))
    axis, angle = qa
    out[i, 7] = qa[1]
    qa0 = qa[0]
    out[i, 8] = axis[0] + qa0[2]
    out[i, 9] = angle
    n = (wp.vec3(1.0, 2.0, 3.0) * x[i], wp.vec3(4.0, 5.0, 6.0))
    out[i, 10] = wp.dot(n[0], n[1])
    out[i, 11] = float(len(n)) + wp.tuple(x[i], 1)[0]
