# kern-test: native_ref_xform --dim 3 x='arange(float32,3)' boxes='zeros(Posed,3)' out='zeros(float32,3,6)'
# kern-check: boxes
# kern-check: out
# wp.ref arguments that are components of a transform's parts: t.p.x,
# t.q.w, t.p[2], of a local and of a struct array element's field, passed to
# a @wp.func_native snippet and to a @wp.func.  The store reaches the
# transform itself (Warp passes the component's address), unlike a plain
# `t.p.x = v`, which in Warp changes a copy and which kern refuses.
import warp as wp


@wp.struct
class Posed:
    xform: wp.transformf
    quat: wp.quatf


@wp.func_native("x = y * 2.0f;", adj_snippet="adj_y += 2.0f * adj_x;")
def store_double(x: wp.ref[wp.float32], y: wp.float32): ...


@wp.func
def set_ref(x: wp.ref[wp.float32], value: wp.float32):
    x = value


@wp.kernel(enable_backward=False)
def native_ref_xform(
    x: wp.array(dtype=wp.float32),
    boxes: wp.array(dtype=Posed),
    out: wp.array2d(dtype=wp.float32),
):
    i = wp.tid()
    t = wp.transformf(wp.vec3f(1.0, 2.0, 3.0), wp.quatf(0.0, 0.0, 0.0, 1.0))
    store_double(t.p.x, x[i])
    store_double(t.q.w, x[i] + 1.0)
    set_ref(t.p[2], x[i] + 10.0)
    out[i, 0] = t.p.x
    out[i, 1] = t.p.y
    out[i, 2] = t.p.z
    out[i, 3] = t.q.w

    store_double(boxes[i].xform.p.x, x[i] + 2.0)
    store_double(boxes[i].xform.q.y, x[i] + 3.0)
    store_double(boxes[i].quat.w, x[i] + 4.0)
    out[i, 4] = boxes[i].xform.p.x
    out[i, 5] = boxes[i].quat.w
