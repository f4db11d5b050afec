# expect: 8:12: error: an item of a tuple cannot be indexed in the same expression (Warp reads t[...][...] as one subscript of the tuple); assign the item to a variable first
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = (wp.vec3(1.0, 2.0, 3.0), 2)
    a[0] = t[0][1]
