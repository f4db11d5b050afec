# Arithmetic on int32 and float32: + - * / // % **, unary minus, bitwise
# operators and shifts.  Integer `/` truncates and `%` takes the sign of the
# dividend (C rules, as in Warp); integer `//` floors, as in Python.
# Float `//` is floor(a / b); float `%` is fmod.
# kern-test: arithmetic --dim 64 a='rand(int32,64,seed=3)' b='rand(int32,64,seed=4)' x='rand(float32,64,seed=5)' iout='zeros(int32,64,13)' fout='zeros(float32,64,7)'
# kern-check: iout
# why: float32 pow and division may round differently from NumPy in the last bit
# kern-check: fout rtol=1e-5 atol=1e-5
import warp as wp


@wp.kernel
def arithmetic(a: wp.array(dtype=wp.int32), b: wp.array(dtype=wp.int32), x: wp.array(dtype=wp.float32),
               iout: wp.array2d(dtype=wp.int32), fout: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    p = a[i] - 50          # -50 .. 49
    q = b[i] + 1           # 1 .. 100, never zero
    iout[i, 0] = p + q
    iout[i, 1] = p - q
    iout[i, 2] = p * q
    iout[i, 3] = p / q     # truncates toward zero
    iout[i, 4] = p // q    # floors
    iout[i, 5] = p % q     # sign of the dividend
    iout[i, 6] = p & q
    iout[i, 7] = p | q
    iout[i, 8] = p ^ q
    iout[i, 9] = q << 3
    iout[i, 10] = p >> 2   # arithmetic shift
    iout[i, 11] = -p
    iout[i, 12] = ~p

    y = x[i] * 4.0 - 2.0   # -2 .. 2
    fout[i, 0] = y + 1.5
    fout[i, 1] = y - 1.5
    fout[i, 2] = y * 3.0
    fout[i, 3] = y / 0.75
    fout[i, 4] = y // 0.5
    fout[i, 5] = y % 0.75
    fout[i, 6] = y ** 2.0
