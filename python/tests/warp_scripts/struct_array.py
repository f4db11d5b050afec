# Arrays of @wp.struct: filled by a kernel, made from instances on the
# host, read back as NumPy records.
import kern.warp as wp

RESULT = {}


@wp.struct
class Body:
    pos: wp.vec3
    mass: float
    tag: int


@wp.kernel
def init(bodies: wp.array(dtype=Body)):
    i = wp.tid()
    bodies[i].pos = wp.vec3(float(i), 1.0, -float(i))
    bodies[i].mass = 0.5 + float(i)
    bodies[i].tag = i * 3


@wp.kernel
def total(bodies: wp.array(dtype=Body), out: wp.array(dtype=float)):
    i = wp.tid()
    b = bodies[i]
    wp.atomic_add(out, 0, b.mass * b.pos[0] + float(b.tag))


bodies = wp.zeros(6, dtype=Body)
wp.launch(init, dim=6, inputs=[bodies])
out = wp.zeros(1, dtype=float)
wp.launch(total, dim=6, inputs=[bodies, out])
host = []
for k in range(3):
    b = Body()
    b.pos = wp.vec3(1.0, 2.0, float(k))
    b.mass = 2.0
    b.tag = k
    host.append(b)
more = wp.array(host, dtype=Body)
out2 = wp.zeros(1, dtype=float)
wp.launch(total, dim=3, inputs=[more, out2])
rec = bodies.numpy()
RESULT["pos"] = rec["pos"].tolist()
RESULT["mass"] = rec["mass"].tolist()
RESULT["tag"] = rec["tag"].tolist()
RESULT["total"] = out.numpy().tolist()
RESULT["total_host"] = out2.numpy().tolist()
