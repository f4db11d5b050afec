# Element-wise arithmetic on array fields of a struct parameter, a[tid] with the
# thread index only (issue #22): the shape CUDA's 16-byte vector loop
# (Note [16-byte accesses]) takes for array parameters; arrays reached through
# a struct must take the scalar loop, whose CUDA names their data itself.
# kern-skip: opencl (OpenCL 1.2 buffers have no device address a struct could hold)
# kern-test: struct_array_fields_elementwise --dim 19 pair='{a=arange(float32,19),b=rand(float32,19,seed=7)}' out='zeros(float32,19)'
# kern-check: out
import warp as wp


@wp.struct
class Operands:
    a: wp.array(dtype=float)
    b: wp.array(dtype=float)


@wp.kernel
def struct_array_fields_elementwise(pair: Operands, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = pair.a[i] * pair.b[i]
