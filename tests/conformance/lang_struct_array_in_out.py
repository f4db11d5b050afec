# Arrays of @wp.struct as input and output: whole elements loaded, changed as locals
# and stored, single fields written through an element, and an element's vector
# field updated component by component.
# kern-test: lang_struct_array_in_out --dim 5 src='rand(Particle,5,seed=331)' dst='zeros(Particle,5)' out='zeros(float,5)'
# kern-check: dst
# kern-check: out
import warp as wp


@wp.struct
class Particle:
    pos: wp.vec3
    vel: wp.vec3
    mass: float
    id: int


@wp.kernel
def lang_struct_array_in_out(src: wp.array(dtype=Particle), dst: wp.array(dtype=Particle), out: wp.array(dtype=float)):
    i = wp.tid()
    p = src[i]
    p.pos = p.pos + p.vel * 0.5
    p.id = i * 3
    dst[i] = p
    dst[i].mass = src[i].mass * 2.0
    dst[i].vel[1] = -src[i].vel[1]
    dst[i].vel.z = p.mass
    out[i] = wp.dot(src[i].pos, src[(i + 1) % 5].vel) + float(src[i].id)
