# expect: 9:11: error: unknown name 'foo'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
	i = wp.tid()
	if i > 0:
		a[i] = 	foo
