# Particle integration with wp.vec3, a wp.constant and a 2-D launch.
import numpy as np

import kern.warp as wp

RESULT = {}

GRAVITY = wp.constant(wp.vec3(0.0, -9.8, 0.0))
DAMPING = wp.constant(0.99)
STEPS = 20


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    vel = v[i] * DAMPING + GRAVITY * dt
    pos = x[i] + vel * dt
    if pos[1] < 0.0:
        pos = wp.vec3(pos[0], -pos[1], pos[2])
        vel = wp.vec3(vel[0], -vel[1], vel[2])
    x[i] = pos
    v[i] = vel


@wp.kernel
def grid(out: wp.array2d(dtype=float), scale: wp.vec2):
    i, j = wp.tid()
    out[i, j] = float(i) * scale[0] + float(j) * scale[1]


n = 64
rng = np.random.default_rng(7)
x = wp.array(rng.uniform(0.0, 2.0, (n, 3)).astype(np.float32), dtype=wp.vec3)
v = wp.zeros(n, dtype=wp.vec3)
v.fill_(wp.vec3(0.5, 1.0, -0.25))
for _ in range(STEPS):
    wp.launch(integrate, dim=n, inputs=[x, v, 1.0 / 60.0])
out = wp.empty((5, 7), dtype=float)
wp.launch(grid, dim=(5, 7), inputs=[out, wp.vec2(10.0, 0.5)])
RESULT["x"] = x.numpy().tolist()
RESULT["v"] = v.numpy().tolist()
RESULT["grid"] = out.numpy().tolist()
