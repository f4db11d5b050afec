# Arrays of @wp.struct passed to @wp.func that reads neighbours and writes elements and
# single fields, and a function returning a struct stored straight into an array.
# kern-test: lang_struct_func_array_write --dim 4 src='rand(Spring,4,seed=1001)' dst='zeros(Spring,4)' out='zeros(float,4)'
# kern-check: dst
# kern-check: out
import warp as wp


@wp.struct
class Spring:
    rest: float
    k: float
    ends: wp.vec2i


@wp.func
def relaxed(s: Spring, f: float) -> Spring:
    r = s
    r.rest = s.rest * f
    r.ends = wp.vec2i(s.ends[1], s.ends[0])
    return r


@wp.func
def energy(a: wp.array(dtype=Spring), i: int, x: float) -> float:
    d = x - a[i].rest
    return 0.5 * a[i].k * d * d


@wp.func
def write_k(a: wp.array(dtype=Spring), i: int, k: float):
    a[i].k = k


@wp.kernel
def lang_struct_func_array_write(src: wp.array(dtype=Spring), dst: wp.array(dtype=Spring), out: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] = relaxed(src[i], 1.5)
    write_k(dst, i, src[(i + 1) % 4].k + 1.0)
    out[i] = energy(src, i, 0.75) + energy(dst, i, 0.25)
