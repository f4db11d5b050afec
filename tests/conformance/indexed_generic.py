# A generic kernel over wp.indexedarray(dtype=Any): kern run instantiates it
# for the data array's type as wp.launch does, and an explicit overload for
# int32 sits beside it.
# kern-test: indexed_generic --dim 3 a='indexed(arange(float64,6);[5,0,2])' out='zeros(float64,3)'
# kern-check: out
# kern-check: a
from typing import Any

import warp as wp


@wp.kernel(enable_backward=False)
def indexed_generic(a: wp.indexedarray(dtype=Any), out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = a[i] * a.dtype(3.0) + a[-1]
    a[i] = a.dtype(i)


wp.overload(indexed_generic, [wp.indexedarray(dtype=wp.int32), wp.array(dtype=wp.int32)])
