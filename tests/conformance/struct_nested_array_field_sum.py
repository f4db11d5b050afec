# An array field of a struct nested in the struct parameter, read at the thread
# index and summed into one element (issue #22): the loads fit CUDA's 16-byte
# vector loop and the sum is an aggregated atomic, but the array is reached
# through two fields, so its data pointer is not a parameter's.  The values are
# small integers, so the float sum is exact in any order.
# kern-skip: opencl (OpenCL 1.2 buffers have no device address a struct could hold)
# kern-test: struct_nested_array_field_sum --dim 21 outer='{inner={vals=arange(float32,21)}}' total='zeros(float32,1)'
# kern-check: total
import warp as wp


@wp.struct
class Leaf:
    vals: wp.array(dtype=float)


@wp.struct
class Holder:
    inner: Leaf


@wp.kernel
def struct_nested_array_field_sum(outer: Holder, total: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, outer.inner.vals[i])
