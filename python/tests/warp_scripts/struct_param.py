# A @wp.struct passed by value, with a nested struct, fields set from Python.
import kern.warp as wp

RESULT = {}


@wp.struct
class Material:
    density: float
    tint: wp.vec3


@wp.struct
class Params:
    scale: float
    count: int
    origin: wp.vec3
    rot: wp.mat33
    mat: Material


@wp.kernel
def apply(p: Params, out: wp.array(dtype=wp.vec3), w: wp.array(dtype=float)):
    i = wp.tid()
    if i < p.count:
        q = p.rot * (p.origin + wp.vec3(float(i), 0.0, 0.0) * p.scale)
        out[i] = wp.cw_mul(q, p.mat.tint)
        w[i] = p.mat.density * float(i)


p = Params()
p.scale = 0.5
p.count = 6
p.origin = wp.vec3(1.0, 2.0, 3.0)
p.rot = wp.mat33(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
m = Material()
m.density = 2.5
m.tint = wp.vec3(1.0, 0.5, 2.0)
p.mat = m
out = wp.zeros(8, dtype=wp.vec3)
w = wp.zeros(8, dtype=float)
wp.launch(apply, dim=8, inputs=[p, out, w])
RESULT["out"] = out.numpy().tolist()
RESULT["w"] = w.numpy().tolist()
