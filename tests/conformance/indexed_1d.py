# wp.indexedarray, 1-d: reads through the index array, writes back,
# .shape, a negative index, the subscript spelling wp.indexedarray[T].
# kern-test: indexed_1d --dim 4 a='indexed(arange(float32,10);[7,2,9,0])' out='zeros(float32,4)' n='zeros(int32,2)'
# kern-check: a
# kern-check: out
# kern-check: n
import warp as wp


@wp.kernel
def indexed_1d(a: wp.indexedarray[float], out: wp.array(dtype=float), n: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = a[i] * 10.0 + a[-1]
    a[i] = a[i] + 100.0 * float(i + 1)
    if i == 0:
        n[0] = a.shape[0] * 2
        n[1] = a.shape[0]
