# Transforms as Warp's tests build and change them: wp.transform(p=..., q=...)
# or p alone (q the identity; Warp 1.19 has no q alone), and assigning the
# translation and the rotation (t.p = v, t.q = r) of a local, in float32 and
# float64. (Warp 1.19 refuses t.p = v through a struct field or an array
# element, which newer Warp allows and kern accepts.)
# kern-test: corpus_xform_parts --dim 4 x='arange(vec3,4)' out='zeros(float32,4,7)' outd='zeros(float64,4,7)' outs='zeros(float32,4,7)'
# kern-check: out
# kern-check: outd
# kern-check: outs
import warp as wp


@wp.struct
class Body:
    xf: wp.transform
    m: float


@wp.kernel
def corpus_xform_parts(
    x: wp.array(dtype=wp.vec3),
    out: wp.array2d(dtype=float),
    outd: wp.array2d(dtype=wp.float64),
    outs: wp.array2d(dtype=float),
):
    i = wp.tid()
    t = wp.transform(p=x[i], q=wp.quat(0.0, 0.0, 0.6, 0.8))
    u = wp.transform(wp.vec3(0.0), wp.quat(0.0, 0.6, 0.0, 0.8))
    v = wp.transform(p=wp.vec3(1.0, 2.0, 3.0))
    w = t * u * v
    w.p = w.p + wp.vec3(0.5)
    for k in range(7):
        out[i, k] = w[k]
    d = wp.transformd(p=wp.vec3d(), q=wp.quatd(wp.float64(0.0), wp.float64(0.6), wp.float64(0.0), wp.float64(0.8)))
    d.p = wp.vec3d(wp.float64(1.0), wp.float64(float(i)), wp.float64(3.0))
    for k in range(7):
        outd[i, k] = d[k]
    b = Body()
    xf = b.xf
    xf.p = x[i] * 2.0
    xf.q = wp.quat(0.0, 0.0, 0.0, 1.0)
    b.xf = xf
    for k in range(7):
        outs[i, k] = b.xf[k]
