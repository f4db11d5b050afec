# A @wp.struct as a kernel parameter: scalar (int8, uint16, bool, float64), vector,
# matrix and nested-struct fields read in the kernel, at Warp's host layout (padding
# after int8 and bool); the parameter is a copy the kernel may change.
# kern-test: struct_kernel_param --dim 4 p='{a=-3,d=2.25,v=(1,2,3),b=true,m=(1,2,3,4),inner={w=(0.5,1.5),k=7,h=wp.mat33(1,0,0,0,2,0,0,0,3)},c=65535}' out='zeros(float32,4,8)' od='zeros(float64,4)'
# kern-check: out
# kern-check: od
import warp as wp


@wp.struct
class Inner:
    w: wp.vec2
    k: wp.int8
    h: wp.mat33


@wp.struct
class Params:
    a: wp.int8
    d: wp.float64
    v: wp.vec3
    b: bool
    m: wp.mat22d
    inner: Inner
    c: wp.uint16


@wp.kernel
def struct_kernel_param(p: Params, out: wp.array2d(dtype=float), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i, 0] = float(p.a) + float(i)
    out[i, 1] = p.v[i % 3]
    out[i, 2] = 1.0 if p.b else 0.0
    out[i, 3] = float(p.m[1, 0])
    out[i, 4] = p.inner.w.y + float(p.inner.k)
    out[i, 5] = p.inner.h[2, 2] * float(i)
    out[i, 6] = float(p.c)
    q = p
    q.v[0] = 10.0
    p.inner.k = wp.int8(1)
    out[i, 7] = q.v[0] + p.v[0] + float(p.inner.k) + float(q.inner.k)
    od[i] = p.d * wp.float64(i) + p.m[0, 1]
