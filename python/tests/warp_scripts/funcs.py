# @wp.func helpers calling each other, constants, quaternions and
# transforms passed from Python, and a module-level int.
import math

import numpy as np

import kern.warp as wp

RESULT = {}

RADIUS = wp.constant(0.75)
ITERS = 4
OFFSET = 0.125


@wp.func
def kernel_weight(r: float, h: float):
    q = r / h
    if q >= 1.0:
        return 0.0
    return (1.0 - q) * (1.0 - q)


@wp.func
def smooth(p: wp.vec3, c: wp.vec3):
    return kernel_weight(wp.length(p - c), RADIUS)


@wp.kernel
def density(pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(pts.shape[0]):
        s += smooth(pts[i], pts[j])
    for k in range(ITERS):
        s = s * 0.5 + OFFSET
    out[i] = s + math.pi * 0.0


@wp.kernel
def move(xf: wp.transform, q: wp.quat, pts: wp.array(dtype=wp.vec3),
         out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.transform_point(xf, wp.quat_rotate(q, pts[i]))


n = 32
rng = np.random.default_rng(3)
pts = wp.array(rng.uniform(-1.0, 1.0, (n, 3)).astype(np.float32), dtype=wp.vec3)
out = wp.zeros(n, dtype=float)
wp.launch(density, dim=n, inputs=[pts, out])
q = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), 0.5)
xf = wp.transform(wp.vec3(1.0, -2.0, 0.5), wp.quat(0.0, 0.0, 0.0, 1.0))
moved = wp.empty(n, dtype=wp.vec3)
wp.launch(move, dim=n, inputs=[xf, q, pts, moved])
RESULT["density"] = out.numpy().tolist()
RESULT["moved"] = moved.numpy().tolist()
