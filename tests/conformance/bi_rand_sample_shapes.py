# Warp's geometric samplers with seeds per thread: sample_unit_sphere,
# sample_unit_sphere_surface, sample_unit_hemisphere(_surface),
# sample_unit_disk, sample_unit_ring, sample_unit_square, sample_unit_cube
# and sample_triangle, several draws from one state (Warp's draw order).
# kern-test: bi_rand_sample_shapes --dim 12 seed='arange(int32,12)' o3='zeros(vec3,12,6)' o2='zeros(vec2,12,4)'
# why: the spherical samplers go through sqrt/sin/cos/acos of the platform (one ulp on OpenCL)
# kern-check: o3 rtol=1e-5 atol=2e-6
# kern-check: o2 rtol=1e-5 atol=2e-6
import warp as wp


@wp.kernel
def bi_rand_sample_shapes(seed: wp.array(dtype=int), o3: wp.array2d(dtype=wp.vec3), o2: wp.array2d(dtype=wp.vec2)):
    i = wp.tid()
    s = wp.rand_init(seed[i] + 4242)
    o3[i, 0] = wp.sample_unit_sphere(s)
    o3[i, 1] = wp.sample_unit_sphere_surface(s)
    o3[i, 2] = wp.sample_unit_hemisphere(s)
    o3[i, 3] = wp.sample_unit_hemisphere_surface(s)
    o3[i, 4] = wp.sample_unit_cube(s)
    o3[i, 5] = wp.sample_unit_sphere(s) + wp.sample_unit_cube(s)
    o2[i, 0] = wp.sample_unit_disk(s)
    o2[i, 1] = wp.sample_unit_ring(s)
    o2[i, 2] = wp.sample_unit_square(s)
    o2[i, 3] = wp.sample_triangle(s)
