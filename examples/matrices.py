# wp.mat33 @ wp.vec3: a matrix passed by value and an array of matrices.
# kern-test: matrices --dim 100 rot=0,-1,0,1,0,0,0,0,2 m='rand(mat33,100,seed=9)' v='rand(vec3,100,seed=10)' r='zeros(vec3,100)' t='zeros(vec3,100)' det='zeros(float32,100)'
# kern-check: r
# why: float32 sums of products of order 1
# kern-check: t rtol=1e-5 atol=1e-6
# why: a float32 determinant with cancellation
# kern-check: det rtol=1e-5 atol=1e-6
import warp as wp


@wp.kernel
def matrices(rot: wp.mat33, m: wp.array(dtype=wp.mat33), v: wp.array(dtype=wp.vec3),
             r: wp.array(dtype=wp.vec3), t: wp.array(dtype=wp.vec3), det: wp.array(dtype=wp.float32)):
    i = wp.tid()
    r[i] = rot @ v[i]
    t[i] = wp.transpose(m[i]) @ v[i] + m[i][0]
    det[i] = wp.determinant(m[i])
