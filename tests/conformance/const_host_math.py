# Module-level values computed by host Python with the math module, numpy scalars and
# the builtins abs/min/max/round, captured as Warp captures them: a Python float as
# float32, an int as int32, a wp.float64() value as float64.  The float64 outputs show
# that kern evaluates in double precision as Python does (a chain of module-level floats
# keeps the double, not the captured float32), that numpy's float32 rounds, and that a
# numpy integer wraps to its width.
# kern-test: const_host_math --dim 2 of='zeros(float32,2,13)' od='zeros(float64,2,16)' oi='zeros(int32,2,14)'
# kern-check: of rtol=0 atol=0
# kern-check: od rtol=0 atol=0
# kern-check: oi
import math

import numpy as np

import warp as wp

HALF_WIDTH = 4.25
N_GRID = 128
DX = 2.0 * HALF_WIDTH / (N_GRID - 1)
DT = 0.95 * DX / math.sqrt(3.0)
DOMAIN = 2 * np.pi
H = DOMAIN / 512
wptype = wp.float64
PI64 = wptype(math.pi)
TWO_PI = wp.constant(wp.float64(2.0 * math.pi))
F32_OF_1_1 = float(np.float32(1.1))
NP_SQRT = float(np.sqrt(np.float32(2.0)))
NP_F64 = float(np.float64(0.1) * 3)
WRAP8 = int(np.int8(100) + 100)
WRAPU8 = int(np.uint8(250) + np.uint8(10))
NP_FLOOR = float(np.floor(np.float32(2.7)))
NP_ABS = int(np.abs(np.int32(-5)))
HALF_NP = int(np.float32(2.75) * 2)
# numpy 2 converts the Python float to float32 before adding: a tie, to even (1.0)
WEAK = float(np.float32(1.0) + (2.0**-24 + 2.0**-50))
V_OF6 = math.radians(90.0) + math.degrees(1.0)
V_OF7 = abs(-2.5) + min(3, 1.5, 2)
V_OF8 = math.pow(2.0, 0.5) + math.fmod(7.5, 2.0)
V_OF9 = math.copysign(3.0, -0.0) + math.expm1(1.0e-5) + math.log1p(1.0e-5)
V_OD0 = wp.float64(DT)
V_OD1 = wp.float64(math.sin(0.5) + math.cos(0.5))
V_OD2 = wp.float64(math.exp(1.5) * math.log(3.0))
V_OD3 = wp.float64(math.log(8.0, 2.0) + math.log10(1000.0) + math.log2(0.125))
V_OD4 = wp.float64(math.atan2(1.0, 2.0) + math.hypot(3.0, 4.0))
V_OD7 = wp.float64(F32_OF_1_1)
V_OD8 = wp.float64(NP_SQRT)
V_OD9 = wp.float64(NP_F64)
V_OD10 = wp.float64(H)
V_OD11 = wp.float64(math.tan(0.3) + math.asin(0.2) + math.acos(0.2) + math.atan(2.0))
V_OD12 = wp.float64(math.sinh(0.5) + math.cosh(0.5) + math.tanh(0.5))
V_OD13 = wp.float64(math.sqrt(DX) * math.exp(-DT))
V_OD14 = wp.float64(math.erf(0.5) + math.erfc(0.5) * math.fabs(-3.0))
V_OD15 = wp.float64(math.degrees(math.pi / 3.0))
V_OI0 = math.floor(-2.5)
V_OI1 = math.ceil(2.1)
V_OI2 = math.trunc(-2.7)
V_OI3 = round(2.5)
V_OI4 = round(3.5) + round(-0.5)
V_OI5 = abs(-7)
V_OI6 = max(2, 7, 5)
V_OI11 = int(N_GRID / 3)
V_OI12 = math.floor(np.float32(2.5)) + math.floor(7)
V_OI13 = min(4, 4.0) + max(-1, -1.5)


@wp.kernel
def const_host_math(of: wp.array2d(dtype=float), od: wp.array2d(dtype=wp.float64), oi: wp.array2d(dtype=int)):
    i = wp.tid()
    of[i, 0] = DT
    of[i, 1] = DT / DX
    of[i, 2] = H * float(i + 1)
    of[i, 3] = math.pi
    of[i, 4] = np.pi + math.e
    of[i, 5] = math.tau
    of[i, 6] = V_OF6
    of[i, 7] = V_OF7
    of[i, 8] = V_OF8
    of[i, 9] = V_OF9
    of[i, 10] = F32_OF_1_1
    of[i, 11] = NP_FLOOR
    of[i, 12] = WEAK
    od[i, 0] = V_OD0
    od[i, 1] = V_OD1
    od[i, 2] = V_OD2
    od[i, 3] = V_OD3
    od[i, 4] = V_OD4
    od[i, 5] = PI64
    od[i, 6] = TWO_PI * wp.float64(i)
    od[i, 7] = V_OD7
    od[i, 8] = V_OD8
    od[i, 9] = V_OD9
    od[i, 10] = V_OD10
    od[i, 11] = V_OD11
    od[i, 12] = V_OD12
    od[i, 13] = V_OD13
    od[i, 14] = V_OD14
    od[i, 15] = V_OD15
    oi[i, 0] = V_OI0
    oi[i, 1] = V_OI1
    oi[i, 2] = V_OI2
    oi[i, 3] = V_OI3
    oi[i, 4] = V_OI4
    oi[i, 5] = V_OI5
    oi[i, 6] = V_OI6 + i
    oi[i, 7] = WRAP8
    oi[i, 8] = WRAPU8
    oi[i, 9] = NP_ABS
    oi[i, 10] = HALF_NP
    oi[i, 11] = V_OI11
    oi[i, 12] = V_OI12
    oi[i, 13] = V_OI13
