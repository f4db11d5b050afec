# A 2-d array of @wp.struct (wp.array2d[S] subscript style) read on a 2-d launch:
# neighbouring elements' fields combined, and a struct stored to a second 2-d array.
# kern-test: lang_struct_array2d --dim 3,4 grid='rand(Node,3,4,seed=371)' out='zeros(Node,3,4)'
# kern-check: out
import warp as wp


@wp.struct
class Node:
    h: float
    flow: wp.vec2
    tag: int


@wp.kernel
def lang_struct_array2d(grid: wp.array2d[Node], out: wp.array2d[Node]):
    i, j = wp.tid()
    jn = (j + 1) % grid.shape[1]
    a = grid[i, j]
    b = grid[i, jn]
    n = Node()
    n.h = b.h - a.h
    n.flow = a.flow + b.flow * 0.5
    n.tag = a.tag * 100 + b.tag
    out[i, j] = n
