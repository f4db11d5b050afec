# Conversions to and from float16 and bfloat16: from float32 and float64
# (Warp goes through float32, so a float64 is rounded twice), from and to
# integers (truncation toward zero), between the two 16-bit formats, and
# of whole vectors (vec3h from vec3 and vec3d, and back).
# kern-test: half_convert --dim 12 f='rand(float32,12,seed=21)' d='rand(float64,12,seed=22)' n='rand(int64,12,seed=23)' hout='zeros(float16,12,6)' bout='zeros(bfloat16,12,3)' iout='zeros(int32,12,4)' fout='zeros(float64,12,2)' vout='zeros(vec3h,12)' vback='zeros(vec3d,12)'
# kern-check: hout
# kern-check: bout
# kern-check: iout
# kern-check: fout
# kern-check: vout
# kern-check: vback
import warp as wp


@wp.kernel
def half_convert(f: wp.array(dtype=float), d: wp.array(dtype=wp.float64), n: wp.array(dtype=wp.int64),
                 hout: wp.array2d(dtype=wp.float16), bout: wp.array2d(dtype=wp.bfloat16),
                 iout: wp.array2d(dtype=int), fout: wp.array2d(dtype=wp.float64),
                 vout: wp.array(dtype=wp.vec3h), vback: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    x = f[i] * 3000.0 - 1000.0
    y = d[i] * wp.float64(70000.0) - wp.float64(35000.0)
    hout[i, 0] = wp.float16(x)
    hout[i, 1] = wp.float16(y)
    hout[i, 2] = wp.float16(n[i] * wp.int64(1000) - wp.int64(40000))
    hout[i, 3] = wp.float16(i * 1000 - 3333)
    hout[i, 4] = wp.float16(wp.bfloat16(x))
    hout[i, 5] = wp.float16(wp.uint8(i * 20))
    bout[i, 0] = wp.bfloat16(y)
    bout[i, 1] = wp.bfloat16(wp.float16(x))
    bout[i, 2] = wp.bfloat16(n[i] * wp.int64(123456789))
    h = wp.float16(x)
    iout[i, 0] = int(h)
    iout[i, 1] = int(wp.int8(wp.float16(f[i] * 200.0 - 100.0)))
    iout[i, 2] = int(wp.uint16(wp.float16(f[i] * 60000.0)))
    iout[i, 3] = int(wp.bfloat16(x))
    fout[i, 0] = wp.float64(h)
    fout[i, 1] = wp.float64(wp.bfloat16(y))
    v = wp.vec3(x, f[i], -x * 0.001)
    vout[i] = wp.vec3h(v) + wp.vec3h(wp.vec3d(y, d[i], wp.float64(1.0e-6)))
    vback[i] = wp.vec3d(vout[i])
