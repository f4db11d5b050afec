# Vectors and matrices of bool, int8 and int16 in a differentiated kernel
# (a module constant, values computed from a parameter): the expansion
# into scalar IR takes them in an autodiff module, and they carry no
# gradient, as in Warp.
# kern-test: narrow_vec --adjoint --dim 4 x='arange(float32,4)' n=5 y='zeros(float32,4)' adj_x='zeros(float32,4)' adj_n=0 adj_y='full(float32,4,1.5)'
# kern-check: adj_x
# kern-check: adj_y
import warp as wp

vec3bool = wp.types.vector(length=3, dtype=wp.bool)
sel = wp.constant(vec3bool(True, False, True))
mat22bool = wp.types.matrix((2, 2), dtype=wp.bool)
msel = wp.constant(mat22bool(False, True, True, False))


@wp.kernel
def narrow_vec(x: wp.array(dtype=float), n: int, y: wp.array(dtype=float)):
    i = wp.tid()
    w = wp.vec3s(wp.int16(n), wp.int16(2), wp.int16(i)) + wp.vec3s(wp.int16(1), wp.int16(2), wp.int16(3))
    b = wp.vec2b(wp.int8(3), wp.int8(-2)) * wp.int8(2)
    acc = float(0.0)
    for k in range(3):
        if sel[k]:
            acc += x[i] * float(w[k])
    if msel[0, 1]:
        acc += wp.sin(x[i])
    if msel[1, 1]:
        acc += x[i] * 100.0
    y[i] = acc + x[i] * x[i] * float(b[0]) + float(b[1])
