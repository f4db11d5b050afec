# Structs built and returned by @wp.func, stored into arrays of structs, passed in
# from a kernel parameter and from array elements, assigned and copied.
# kern-test: struct_func_return --dim 4 s='{v=(1,2,3),n=2}' src='arange(Particle,4)' dst='zeros(Particle,4)' out='zeros(float32,4)'
# kern-check: dst
# kern-check: out
import warp as wp


@wp.struct
class Particle:
    v: wp.vec3
    n: wp.int32


@wp.func
def scaled(p: Particle, s: float) -> Particle:
    r = Particle()
    r.v = p.v * s
    r.n = p.n + 1
    return r


@wp.func
def energy(p: Particle) -> float:
    return wp.dot(p.v, p.v) * float(p.n)


@wp.kernel
def struct_func_return(s: Particle, src: wp.array(dtype=Particle), dst: wp.array(dtype=Particle),
                       out: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] = scaled(src[i], 0.5)
    t = scaled(s, float(i))
    out[i] = energy(t) + energy(dst[i])
    if i == 3:
        dst[i] = t
