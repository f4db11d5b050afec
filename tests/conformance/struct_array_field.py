# Array fields of a struct parameter (Warp's array descriptor in the struct's bytes):
# elements read and written, atomics, .shape, len(), a 2-d array of vectors, and the
# same arrays read through a struct copied to a local.
# kern-skip: opencl (OpenCL 1.2 buffers have no device address a struct could hold)
# kern-test: struct_array_field --dim 4 s='{scale=2,xs=arange(float32,4),grid=rand(vec3,2,4,seed=3),hits=zeros(int32,2)}' out='zeros(float32,4)'
# kern-check: out
# kern-check: s.xs
# kern-check: s.hits
import warp as wp


@wp.struct
class Scene:
    scale: float
    xs: wp.array(dtype=float)
    grid: wp.array2d(dtype=wp.vec3)
    hits: wp.array(dtype=wp.int32)


@wp.kernel
def struct_array_field(s: Scene, out: wp.array(dtype=float)):
    i = wp.tid()
    c = s
    out[i] = c.xs[i] * s.scale + s.grid[1, i].z + float(s.grid.shape[1]) + float(len(s.xs))
    s.xs[i] = s.xs[i] + 100.0
    wp.atomic_add(s.hits, i % 2, 1)
    s.hits[1] += 10
