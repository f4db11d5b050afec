# Random sampling from Warp's rand.h, which kern follows draw for draw:
# wp.randu (whole and ranged), wp.poisson (lam 0, below 10: products of
# uniforms; 10 and above: Hoermann's transformed rejection with the float32
# log-gamma), wp.sample_cdf over a cumulative array, wp.sample_triangle,
# sample_unit_ring/disk/square (vec2), sample_unit_sphere(_surface),
# sample_unit_hemisphere(_surface), sample_unit_cube (vec3), and
# wp.lower_bound (whole array, a sub-range, a value above every element
# gives the range's last index, as in Warp).
# kern-test: builtin_sampling --dim 32 seed=7 cdf='arange(float32,10)' ou='zeros(uint32,32,6)' oi='zeros(int32,32,6)' o2='zeros(vec2,32,4)' o3='zeros(vec3,32,5)'
# kern-check: ou
# kern-check: oi
# kern-check: o2
# kern-check: o3
import warp as wp


@wp.kernel
def builtin_sampling(seed: int, cdf: wp.array(dtype=float), ou: wp.array2d(dtype=wp.uint32),
                     oi: wp.array2d(dtype=int), o2: wp.array2d(dtype=wp.vec2), o3: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    s = wp.rand_init(seed, i)
    ou[i, 0] = wp.randu(s)
    ou[i, 1] = wp.randu(s, wp.uint32(10), wp.uint32(1000))
    ou[i, 2] = wp.poisson(s, 0.0)
    ou[i, 3] = wp.poisson(s, 3.5)
    ou[i, 4] = wp.poisson(s, float(i) * 4.0 + 10.0)
    ou[i, 5] = wp.poisson(s, 250.0)
    oi[i, 0] = wp.sample_cdf(s, cdf)
    oi[i, 1] = wp.lower_bound(cdf, float(i) * 0.3)
    oi[i, 2] = wp.lower_bound(cdf, 2, 7, float(i) * 0.3)
    oi[i, 3] = wp.lower_bound(cdf, 100.0)
    oi[i, 4] = int(wp.randu(s) % wp.uint32(1000))
    oi[i, 5] = wp.randi(s)
    o2[i, 0] = wp.sample_triangle(s)
    o2[i, 1] = wp.sample_unit_ring(s)
    o2[i, 2] = wp.sample_unit_disk(s)
    o2[i, 3] = wp.sample_unit_square(s)
    o3[i, 0] = wp.sample_unit_sphere_surface(s)
    o3[i, 1] = wp.sample_unit_sphere(s)
    o3[i, 2] = wp.sample_unit_hemisphere_surface(s)
    o3[i, 3] = wp.sample_unit_hemisphere(s)
    o3[i, 4] = wp.sample_unit_cube(s)
