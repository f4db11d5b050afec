# A struct with fields of custom sizes (a 5-vector and a 2x6 matrix), passed by value and in an array: read, changed in a local copy, written back.
# kern-test: ty_vecn_struct --dim 2 s='{v=(1,2,3,4,5),m=(1,2,3,4,5,6,7,8,9,10,11,12),k=3}' xs='rand(Rec,2,seed=11)' out='zeros(Rec,2)' f='zeros(float32,2,2)'
# kern-check: out
# kern-check: f
import warp as wp

vec5 = wp.types.vector(length=5, dtype=wp.float32)
mat26 = wp.types.matrix(shape=(2, 6), dtype=wp.float32)


@wp.struct
class Rec:
    v: vec5
    m: mat26
    k: int


@wp.kernel
def ty_vecn_struct(s: Rec, xs: wp.array(dtype=Rec), out: wp.array(dtype=Rec), f: wp.array2d(dtype=float)):
    i = wp.tid()
    r = xs[i]
    r.v = r.v + s.v * float(s.k)
    r.v[4] = s.m[1, 5]
    r.m = s.m + r.m
    r.m[0, 0] = r.v[2]
    r.k = s.k + i
    out[i] = r
    f[i, 0] = wp.dot(r.v, s.v)
    f[i, 1] = (r.m @ wp.transpose(s.m))[1, 0]
