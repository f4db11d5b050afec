# Nested @wp.struct three levels deep as a kernel parameter and as a local: fields of
# fields read, a nested field written through the chain, and an inner struct copied out
# and changed independently.
# kern-test: lang_struct_nested --dim 4 p='{name=7,body={mass=2.5,pos=(1,2,3),shape={radius=0.5,sides=6}}}' x='rand(float,4,seed=321)' out='zeros(float,4,6)'
# kern-check: out
import warp as wp


@wp.struct
class Shape:
    radius: float
    sides: int


@wp.struct
class Body:
    mass: float
    pos: wp.vec3
    shape: Shape


@wp.struct
class World:
    name: int
    body: Body


@wp.kernel
def lang_struct_nested(p: World, x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    w = p
    w.body.shape.radius = w.body.shape.radius + x[i]
    sh = w.body.shape
    sh.sides = sh.sides * 2
    out[i, 0] = p.body.shape.radius
    out[i, 1] = w.body.shape.radius
    out[i, 2] = float(sh.sides + w.body.shape.sides)
    out[i, 3] = p.body.mass * p.body.pos[1] + float(p.name)
    w.body.pos[2] = x[i]
    out[i, 4] = wp.length(w.body.pos)
    out[i, 5] = sh.radius * float(sh.sides)
