# A struct's array field set in a kernel and in a @wp.func, as Warp
# allows: by the constructor (View(b, 3.0), Pair(w, m)) and by assignment
# (v.xs = xs), then read, written through, measured, copied with its
# struct and returned from a function.
# kern-skip: opencl (structs with array fields: runtime_structs pins the refusal)
# kern-test: struct_array_field_set --dim 4 a='arange(float32,4)' b='ones(float32,4)' m='rand(vec2,2,2,seed=3)' out='zeros(float32,4)'
# kern-check: a
# kern-check: b
# kern-check: out
import warp as wp


@wp.struct
class View:
    xs: wp.array(dtype=float)
    scale: float


@wp.struct
class Pair:
    v: View
    ys: wp.array2d(dtype=wp.vec2)


@wp.func
def make_view(xs: wp.array(dtype=float), s: float) -> View:
    v = View()
    v.xs = xs
    v.scale = s
    return v


@wp.kernel
def struct_array_field_set(a: wp.array(dtype=float), b: wp.array(dtype=float), m: wp.array2d(dtype=wp.vec2),
                           out: wp.array(dtype=float)):
    i = wp.tid()
    v = make_view(a, 2.0)
    w = View(b, 3.0)
    p = Pair(w, m)
    if i % 2 == 0:
        p.v = v
    p.v.xs[i] = p.v.xs[i] * p.v.scale + float(i)
    out[i] = float(p.v.xs.shape[0]) * 100.0 + p.ys[i % 2, 1][0] * 10.0 + float(len(w.xs)) + p.v.xs[i]
