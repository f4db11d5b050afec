# expect: 6:9: error: parameter 'default' of a @wp.func_native function has a name the generated code reserves (a C, C++ or OpenCL keyword, or kern's k_/kern/_ prefixes); rename it
import warp as wp


@wp.func_native("return default + 1;")
def inc(default: int) -> int: ...


@wp.kernel
def k(a: wp.array(dtype=int)):
    a[0] = inc(a[0])
