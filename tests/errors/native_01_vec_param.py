# expect: 6:17: error: parameter 'v' of a @wp.func_native function is vec3; kern's snippets take and return scalars other than 16-bit floats (a snippet would see kern's C layout of other types, not Warp's C++ classes)
import warp as wp


@wp.func_native("return v.c[0];")
def first(v: wp.vec3) -> float: ...


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = first(wp.vec3(1.0, 2.0, 3.0))
