# @wp.func taking arrays of structs and structs by value: reads and field writes
# through the array inside the function, a struct returned and stored into an
# element, nested-struct fields updated on a copy.
# kern-test: struct_func_arrays --dim 4 pts='arange(Point,4)' out='zeros(float32,4)'
# kern-check: pts
# kern-check: out
import warp as wp


@wp.struct
class Frame:
    origin: wp.vec3
    scale: float


@wp.struct
class Point:
    p: wp.vec3
    frame: Frame
    id: int


@wp.func
def world(pt: Point) -> wp.vec3:
    return pt.frame.origin + pt.p * pt.frame.scale


@wp.func
def nudge(a: wp.array(dtype=Point), i: int, d: float):
    a[i].p[2] = a[i].p[2] + d
    a[i].frame.scale = 2.0


@wp.func
def moved(pt: Point, by: wp.vec3) -> Point:
    q = pt
    q.frame.origin = q.frame.origin + by
    return q


@wp.kernel
def struct_func_arrays(pts: wp.array(dtype=Point), out: wp.array(dtype=float)):
    i = wp.tid()
    nudge(pts, i, 0.25)
    w = world(pts[i])
    pts[i] = moved(pts[i], wp.vec3(1.0, 0.0, float(i)))
    out[i] = w[0] + w[1] + w[2] + float(pts[i].id)
