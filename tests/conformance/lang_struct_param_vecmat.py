# A @wp.struct with vector and matrix fields (vec3, mat33, vec2i, quat-free mat22d)
# as a kernel parameter: fields used in products, indexed, and a field of the
# parameter reassigned in the kernel (the parameter is a copy).
# kern-test: lang_struct_param_vecmat --dim 4 p='{offset=(1,2,3),rot=(0,-1,0,1,0,0,0,0,1),cells=(4,5),m2=(1,2,3,4)}' v='rand(vec3,4,seed=311)' ov='zeros(vec3,4)' od='zeros(float64,4)' oi='zeros(int32,4)'
# kern-check: ov
# kern-check: od
# kern-check: oi
import warp as wp


@wp.struct
class Frame:
    offset: wp.vec3
    rot: wp.mat33
    cells: wp.vec2i
    m2: wp.mat22d


@wp.kernel
def lang_struct_param_vecmat(p: Frame, v: wp.array(dtype=wp.vec3), ov: wp.array(dtype=wp.vec3),
                             od: wp.array(dtype=wp.float64), oi: wp.array(dtype=int)):
    i = wp.tid()
    ov[i] = p.rot * v[i] + p.offset
    od[i] = wp.determinant(p.m2) * wp.float64(v[i][0]) + p.m2[1, 0]
    p.cells = p.cells * (i + 1)
    oi[i] = p.cells[0] * 100 + p.cells[1]
