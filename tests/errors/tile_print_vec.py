# expect: 8:11: error: cannot print a tile of vec3: kern prints tiles of scalars (Warp 1.19 hands each element to printf as a number, which prints nothing defined for a vec3)
import warp as wp


@wp.kernel
def k(a: wp.array[wp.vec3]):
    t = wp.tile_load(a, shape=4)
    print(t)
