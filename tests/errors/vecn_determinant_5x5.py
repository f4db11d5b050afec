# expect: 9:12: error: no overload of wp.determinant() takes (matrix(shape=(5, 5), dtype=float32))
import warp as wp

mat55 = wp.types.matrix(shape=(5, 5), dtype=float)


@wp.kernel
def k(a: wp.array(dtype=mat55)):
    d = wp.determinant(a[0])
