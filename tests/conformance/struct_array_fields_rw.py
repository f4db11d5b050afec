# Arrays of structs (call and subscript annotations, 1-d and 2-d): whole elements
# read and stored, and field writes through an element -- a scalar field, a vector
# component (a[i].v[0], a[i].v.z), a matrix entry and row, a nested struct's field,
# += on a field -- each writing only its part of the element.
# kern-test: struct_array_fields_rw --dim 3 a='arange(Body,3)' g='rand(Body,2,3,seed=5)' out='zeros(Body,3)' f='zeros(float32,3)'
# kern-check: a
# kern-check: g
# kern-check: out
# kern-check: f
import warp as wp


@wp.struct
class Tag:
    k: wp.int32
    on: bool


@wp.struct
class Body:
    x: float
    v: wp.vec3
    m: wp.mat22
    tag: Tag
    big: wp.float64


@wp.kernel
def struct_array_fields_rw(a: wp.array(dtype=Body), g: wp.array2d[Body], out: wp.array[Body],
                           f: wp.array(dtype=float)):
    i = wp.tid()
    b = a[i]
    a[i].x = 1.0 + float(i)
    a[i].v[0] = 2.0 * b.v[0]
    a[i].v.z = -1.0
    a[i].m[0, 1] = 5.0
    a[i].m[1] = wp.vec2(7.0, 8.0)
    a[i].tag.k = a[i].tag.k * 10
    a[i].tag.on = i == 1
    a[i].big += wp.float64(0.5)
    g[1, i].x = g[0, i].x + g[1, i].v[1]
    g[0, i].tag.k = i
    f[i] = a[i].v[0] + a[i].m[1, 1] + b.x + float(a[i].tag.k)
    out[i] = a[i]
    out[i].big = b.big
