# Every float64 math builtin kern has, on special values: NaN, +-inf,
# +-0, denormals (+-1e-310 and 5e-324, the smallest), 1e30, -1e300 and a few
# ordinary ones (special() below).  Row j of out1/x1: each unary builtin
# (un, unx) of value j; row i of out2/x2: each binary one (bi, bix) of
# values i // 16 and i % 16.  c1 and c2: the builtins on literal arguments
# written out in the kernel, so a compiler's constant folding is checked
# too (PoCL folded round(1.0 % 0.0) and exp(nan) to 0).  x1, x2, c1, c2
# hold results every correct implementation gives exactly (rounding,
# sign, min/max, IEEE arithmetic, saturation: tanh(-302.7) is -1), so
# they are compared exactly; the rest with the default tolerance, which
# never lets a number pass for a NaN or an infinity (npycmp).  Zeros
# must have Warp's sign everywhere.  bi_math_special32.py is this
# file in float32; both are written by one template (issue #23).
# kern-test: bi_math_special64 --dim 256 out1='zeros(float64,16,24)' x1='zeros(float64,16,23)' out2='zeros(float64,256,3)' x2='zeros(float64,256,23)' c1='zeros(float64,147)' c2='zeros(float64,104)'
# kern-check: out1 signed-zeros
# kern-check: out2 signed-zeros
# why: exact results, compared exactly
# kern-check: x1 rtol=0 atol=0 signed-zeros
# why: exact results, compared exactly
# kern-check: x2 rtol=0 atol=0 signed-zeros
# why: special arguments give exact results (NaN, inf, 0, 1, pi/2)
# kern-check: c1 rtol=0 atol=0 signed-zeros
# why: special arguments give exact results (NaN, inf, 0, 1, pi/2)
# kern-check: c2 rtol=0 atol=0 signed-zeros
import warp as wp


@wp.func
def special(j: int) -> wp.float64:
    r = wp.float64(0.0)
    if j == 0:
        r = wp.float64(wp.nan)
    elif j == 1:
        r = wp.float64(wp.inf)
    elif j == 2:
        r = wp.float64(-wp.inf)
    elif j == 3:
        r = wp.float64(0.0)
    elif j == 4:
        r = wp.float64(-0.0)
    elif j == 5:
        r = wp.float64(1.0e-310)
    elif j == 6:
        r = wp.float64(-1.0e-310)
    elif j == 7:
        r = wp.float64(5.0e-324)
    elif j == 8:
        r = wp.float64(1.0e30)
    elif j == 9:
        r = wp.float64(-1.0e300)
    elif j == 10:
        r = wp.float64(1.0)
    elif j == 11:
        r = wp.float64(-1.0)
    elif j == 12:
        r = wp.float64(0.5)
    elif j == 13:
        r = wp.float64(-2.5)
    elif j == 14:
        r = wp.float64(-302.7)
    elif j == 15:
        r = wp.float64(3.75)
    return r


@wp.func
def un(k: int, a: wp.float64) -> wp.float64:
    zero = wp.float64(0.0)
    one = wp.float64(1.0)
    quarter = wp.float64(0.25)
    big = wp.float64(1000.0)
    r = zero
    if k == 0:
        r = wp.sin(a)
    elif k == 1:
        r = wp.cos(a)
    elif k == 2:
        r = wp.tan(a)
    elif k == 3:
        r = wp.asin(a)
    elif k == 4:
        r = wp.acos(a)
    elif k == 5:
        r = wp.atan(a)
    elif k == 6:
        r = wp.sinh(a)
    elif k == 7:
        r = wp.cosh(a)
    elif k == 8:
        r = wp.tanh(a)
    elif k == 9:
        r = wp.exp(a)
    elif k == 10:
        r = wp.log(a)
    elif k == 11:
        r = wp.log2(a)
    elif k == 12:
        r = wp.log10(a)
    elif k == 13:
        r = wp.cbrt(a)
    elif k == 14:
        r = wp.degrees(a)
    elif k == 15:
        r = wp.radians(a)
    elif k == 16:
        r = wp.erf(a)
    elif k == 17:
        r = wp.erfc(a)
    elif k == 18:
        r = wp.erfinv(a)
    elif k == 19:
        r = wp.erfcinv(a)
    elif k == 20:
        r = wp.sin(wp.atan(a))
    elif k == 21:
        r = wp.cos(wp.atan(a))
    elif k == 22:
        r = wp.exp(wp.log(a))
    elif k == 23:
        r = wp.log(wp.exp(a))
    return r


@wp.func
def unx(k: int, a: wp.float64) -> wp.float64:
    zero = wp.float64(0.0)
    one = wp.float64(1.0)
    quarter = wp.float64(0.25)
    big = wp.float64(1000.0)
    r = zero
    if k == 0:
        r = wp.sqrt(a)
    elif k == 1:
        r = wp.floor(a)
    elif k == 2:
        r = wp.ceil(a)
    elif k == 3:
        r = wp.round(a)
    elif k == 4:
        r = wp.rint(a)
    elif k == 5:
        r = wp.trunc(a)
    elif k == 6:
        r = wp.frac(a)
    elif k == 7:
        r = wp.abs(a)
    elif k == 8:
        r = wp.sign(a)
    elif k == 9:
        r = wp.step(a)
    elif k == 10:
        r = -a
    elif k == 11:
        r = wp.neg(a)
    elif k == 12:
        r = wp.pos(a)
    elif k == 13:
        r = wp.nonzero(a)
    elif k == 14:
        r = wp.where(wp.isnan(a), one, zero)
    elif k == 15:
        r = wp.where(wp.isinf(a), one, zero)
    elif k == 16:
        r = wp.where(wp.isfinite(a), one, zero)
    elif k == 17:
        r = wp.sqrt(a * a)
    elif k == 18:
        r = wp.round(a % zero)
    elif k == 19:
        r = wp.floor(a / zero)
    elif k == 20:
        r = wp.tanh(a * big)
    elif k == 21:
        r = wp.exp(-wp.abs(a) * big)
    elif k == 22:
        r = wp.exp(wp.abs(a) * big)
    return r


@wp.func
def bi(k: int, a: wp.float64, b: wp.float64) -> wp.float64:
    zero = wp.float64(0.0)
    one = wp.float64(1.0)
    quarter = wp.float64(0.25)
    big = wp.float64(1000.0)
    r = zero
    if k == 0:
        r = wp.atan2(a, b)
    elif k == 1:
        r = wp.pow(a, b)
    elif k == 2:
        r = a ** b
    return r


@wp.func
def bix(k: int, a: wp.float64, b: wp.float64) -> wp.float64:
    zero = wp.float64(0.0)
    one = wp.float64(1.0)
    quarter = wp.float64(0.25)
    big = wp.float64(1000.0)
    r = zero
    if k == 0:
        r = wp.min(a, b)
    elif k == 1:
        r = wp.max(a, b)
    elif k == 2:
        r = a % b
    elif k == 3:
        r = wp.mod(a, b)
    elif k == 4:
        r = a // b
    elif k == 5:
        r = wp.floordiv(a, b)
    elif k == 6:
        r = a / b
    elif k == 7:
        r = wp.div(a, b)
    elif k == 8:
        r = a + b
    elif k == 9:
        r = a - b
    elif k == 10:
        r = a * b
    elif k == 11:
        r = wp.copysign(a, b)
    elif k == 12:
        r = wp.clamp(a, b, one)
    elif k == 13:
        r = wp.clamp(one, a, b)
    elif k == 14:
        r = wp.lerp(a, b, quarter)
    elif k == 15:
        r = wp.smoothstep(a, b, quarter)
    elif k == 16:
        r = wp.length(wp.vec2d(a, b))
    elif k == 17:
        r = wp.length_sq(wp.vec2d(a, b))
    elif k == 18:
        r = wp.normalize(wp.vec2d(a, b))[0]
    elif k == 19:
        r = wp.dot(wp.vec2d(a, b), wp.vec2d(b, a))
    elif k == 20:
        r = wp.where(a < b, one, zero)
    elif k == 21:
        r = wp.where(a == b, one, zero)
    elif k == 22:
        r = wp.where(a >= b, one, zero)
    return r


@wp.kernel
def bi_math_special64(out1: wp.array2d(dtype=wp.float64), x1: wp.array2d(dtype=wp.float64), out2: wp.array2d(dtype=wp.float64), x2: wp.array2d(dtype=wp.float64), c1: wp.array(dtype=wp.float64), c2: wp.array(dtype=wp.float64)):
    i = wp.tid()
    a = special(i // 16)
    b = special(i % 16)
    for k in range(3):
        out2[i, k] = bi(k, a, b)
    for k in range(23):
        x2[i, k] = bix(k, a, b)
    if i < 16:
        for k in range(24):
            out1[i, k] = un(k, special(i))
        for k in range(23):
            x1[i, k] = unx(k, special(i))
    if i == 0:
        zero = wp.float64(0.0)
        one = wp.float64(1.0)
        quarter = wp.float64(0.25)
        big = wp.float64(1000.0)
        c1[0] = wp.sin((wp.float64(wp.nan)))
        c1[1] = wp.cos((wp.float64(wp.nan)))
        c1[2] = wp.tan((wp.float64(wp.nan)))
        c1[3] = wp.asin((wp.float64(wp.nan)))
        c1[4] = wp.acos((wp.float64(wp.nan)))
        c1[5] = wp.atan((wp.float64(wp.nan)))
        c1[6] = wp.sinh((wp.float64(wp.nan)))
        c1[7] = wp.cosh((wp.float64(wp.nan)))
        c1[8] = wp.tanh((wp.float64(wp.nan)))
        c1[9] = wp.exp((wp.float64(wp.nan)))
        c1[10] = wp.log((wp.float64(wp.nan)))
        c1[11] = wp.log2((wp.float64(wp.nan)))
        c1[12] = wp.log10((wp.float64(wp.nan)))
        c1[13] = wp.cbrt((wp.float64(wp.nan)))
        c1[14] = wp.degrees((wp.float64(wp.nan)))
        c1[15] = wp.radians((wp.float64(wp.nan)))
        c1[16] = wp.erf((wp.float64(wp.nan)))
        c1[17] = wp.erfc((wp.float64(wp.nan)))
        c1[18] = wp.erfinv((wp.float64(wp.nan)))
        c1[19] = wp.erfcinv((wp.float64(wp.nan)))
        c1[20] = wp.sin(wp.atan((wp.float64(wp.nan))))
        c1[21] = wp.cos(wp.atan((wp.float64(wp.nan))))
        c1[22] = wp.exp(wp.log((wp.float64(wp.nan))))
        c1[23] = wp.log(wp.exp((wp.float64(wp.nan))))
        c1[24] = wp.sqrt((wp.float64(wp.nan)))
        c1[25] = wp.floor((wp.float64(wp.nan)))
        c1[26] = wp.ceil((wp.float64(wp.nan)))
        c1[27] = wp.round((wp.float64(wp.nan)))
        c1[28] = wp.rint((wp.float64(wp.nan)))
        c1[29] = wp.trunc((wp.float64(wp.nan)))
        c1[30] = wp.frac((wp.float64(wp.nan)))
        c1[31] = wp.abs((wp.float64(wp.nan)))
        c1[32] = wp.sign((wp.float64(wp.nan)))
        c1[33] = wp.step((wp.float64(wp.nan)))
        c1[34] = -(wp.float64(wp.nan))
        c1[35] = wp.neg((wp.float64(wp.nan)))
        c1[36] = wp.pos((wp.float64(wp.nan)))
        c1[37] = wp.nonzero((wp.float64(wp.nan)))
        c1[38] = wp.where(wp.isnan((wp.float64(wp.nan))), one, zero)
        c1[39] = wp.where(wp.isinf((wp.float64(wp.nan))), one, zero)
        c1[40] = wp.where(wp.isfinite((wp.float64(wp.nan))), one, zero)
        c1[41] = wp.sqrt((wp.float64(wp.nan)) * (wp.float64(wp.nan)))
        c1[42] = wp.round((wp.float64(wp.nan)) % zero)
        c1[43] = wp.floor((wp.float64(wp.nan)) / zero)
        c1[44] = wp.tanh((wp.float64(wp.nan)) * big)
        c1[45] = wp.exp(-wp.abs((wp.float64(wp.nan))) * big)
        c1[46] = wp.exp(wp.abs((wp.float64(wp.nan))) * big)
        c1[47] = wp.sin((wp.float64(wp.inf)))
        c1[48] = wp.cos((wp.float64(wp.inf)))
        c1[49] = wp.tan((wp.float64(wp.inf)))
        c1[50] = wp.asin((wp.float64(wp.inf)))
        c1[51] = wp.acos((wp.float64(wp.inf)))
        c1[52] = wp.atan((wp.float64(wp.inf)))
        c1[53] = wp.sinh((wp.float64(wp.inf)))
        c1[54] = wp.cosh((wp.float64(wp.inf)))
        c1[55] = wp.tanh((wp.float64(wp.inf)))
        c1[56] = wp.exp((wp.float64(wp.inf)))
        c1[57] = wp.log((wp.float64(wp.inf)))
        c1[58] = wp.log2((wp.float64(wp.inf)))
        c1[59] = wp.log10((wp.float64(wp.inf)))
        c1[60] = wp.cbrt((wp.float64(wp.inf)))
        c1[61] = wp.degrees((wp.float64(wp.inf)))
        c1[62] = wp.radians((wp.float64(wp.inf)))
        c1[63] = wp.erf((wp.float64(wp.inf)))
        c1[64] = wp.erfc((wp.float64(wp.inf)))
        c1[65] = wp.erfinv((wp.float64(wp.inf)))
        c1[66] = wp.erfcinv((wp.float64(wp.inf)))
        c1[67] = wp.sin(wp.atan((wp.float64(wp.inf))))
        c1[68] = wp.cos(wp.atan((wp.float64(wp.inf))))
        c1[69] = wp.exp(wp.log((wp.float64(wp.inf))))
        c1[70] = wp.log(wp.exp((wp.float64(wp.inf))))
        c1[71] = wp.sqrt((wp.float64(wp.inf)))
        c1[72] = wp.floor((wp.float64(wp.inf)))
        c1[73] = wp.ceil((wp.float64(wp.inf)))
        c1[74] = wp.round((wp.float64(wp.inf)))
        c1[75] = wp.rint((wp.float64(wp.inf)))
        c1[76] = wp.trunc((wp.float64(wp.inf)))
        c1[77] = wp.frac((wp.float64(wp.inf)))
        c1[78] = wp.abs((wp.float64(wp.inf)))
        c1[79] = wp.sign((wp.float64(wp.inf)))
        c1[80] = wp.step((wp.float64(wp.inf)))
        c1[81] = -(wp.float64(wp.inf))
        c1[82] = wp.neg((wp.float64(wp.inf)))
        c1[83] = wp.pos((wp.float64(wp.inf)))
        c1[84] = wp.nonzero((wp.float64(wp.inf)))
        c1[85] = wp.where(wp.isnan((wp.float64(wp.inf))), one, zero)
        c1[86] = wp.where(wp.isinf((wp.float64(wp.inf))), one, zero)
        c1[87] = wp.where(wp.isfinite((wp.float64(wp.inf))), one, zero)
        c1[88] = wp.sqrt((wp.float64(wp.inf)) * (wp.float64(wp.inf)))
        c1[89] = wp.round((wp.float64(wp.inf)) % zero)
        c1[90] = wp.floor((wp.float64(wp.inf)) / zero)
        c1[91] = wp.tanh((wp.float64(wp.inf)) * big)
        c1[92] = wp.exp(-wp.abs((wp.float64(wp.inf))) * big)
        c1[93] = wp.exp(wp.abs((wp.float64(wp.inf))) * big)
        c1[94] = wp.sin((wp.float64(-0.0)))
        c1[95] = wp.cos((wp.float64(-0.0)))
        c1[96] = wp.tan((wp.float64(-0.0)))
        c1[97] = wp.asin((wp.float64(-0.0)))
        c1[98] = wp.acos((wp.float64(-0.0)))
        c1[99] = wp.atan((wp.float64(-0.0)))
        c1[100] = wp.sinh((wp.float64(-0.0)))
        c1[101] = wp.cosh((wp.float64(-0.0)))
        c1[102] = wp.tanh((wp.float64(-0.0)))
        c1[103] = wp.exp((wp.float64(-0.0)))
        c1[104] = wp.log((wp.float64(-0.0)))
        c1[105] = wp.log2((wp.float64(-0.0)))
        c1[106] = wp.log10((wp.float64(-0.0)))
        c1[107] = wp.cbrt((wp.float64(-0.0)))
        c1[108] = wp.degrees((wp.float64(-0.0)))
        c1[109] = wp.radians((wp.float64(-0.0)))
        c1[110] = wp.erf((wp.float64(-0.0)))
        c1[111] = wp.erfc((wp.float64(-0.0)))
        c1[112] = wp.erfinv((wp.float64(-0.0)))
        c1[113] = wp.erfcinv((wp.float64(-0.0)))
        c1[114] = wp.sin(wp.atan((wp.float64(-0.0))))
        c1[115] = wp.cos(wp.atan((wp.float64(-0.0))))
        c1[116] = wp.exp(wp.log((wp.float64(-0.0))))
        c1[117] = wp.log(wp.exp((wp.float64(-0.0))))
        c1[118] = wp.sqrt((wp.float64(-0.0)))
        c1[119] = wp.floor((wp.float64(-0.0)))
        c1[120] = wp.ceil((wp.float64(-0.0)))
        c1[121] = wp.round((wp.float64(-0.0)))
        c1[122] = wp.rint((wp.float64(-0.0)))
        c1[123] = wp.trunc((wp.float64(-0.0)))
        c1[124] = wp.frac((wp.float64(-0.0)))
        c1[125] = wp.abs((wp.float64(-0.0)))
        c1[126] = wp.sign((wp.float64(-0.0)))
        c1[127] = wp.step((wp.float64(-0.0)))
        c1[128] = -(wp.float64(-0.0))
        c1[129] = wp.neg((wp.float64(-0.0)))
        c1[130] = wp.pos((wp.float64(-0.0)))
        c1[131] = wp.nonzero((wp.float64(-0.0)))
        c1[132] = wp.where(wp.isnan((wp.float64(-0.0))), one, zero)
        c1[133] = wp.where(wp.isinf((wp.float64(-0.0))), one, zero)
        c1[134] = wp.where(wp.isfinite((wp.float64(-0.0))), one, zero)
        c1[135] = wp.sqrt((wp.float64(-0.0)) * (wp.float64(-0.0)))
        c1[136] = wp.round((wp.float64(-0.0)) % zero)
        c1[137] = wp.floor((wp.float64(-0.0)) / zero)
        c1[138] = wp.tanh((wp.float64(-0.0)) * big)
        c1[139] = wp.exp(-wp.abs((wp.float64(-0.0))) * big)
        c1[140] = wp.exp(wp.abs((wp.float64(-0.0))) * big)
        c1[141] = wp.round((wp.float64(1.0)) % (wp.float64(0.0)))
        c1[142] = wp.floor((wp.float64(1.0)) % (wp.float64(0.0)))
        c1[143] = wp.round((wp.float64(0.0)) / (wp.float64(0.0)))
        c1[144] = wp.tanh((wp.float64(-302.7)))
        c1[145] = wp.exp((wp.float64(0.0)) / (wp.float64(0.0)))
        c1[146] = wp.ceil((wp.float64(0.0)) / (wp.float64(0.0)))
        c2[0] = wp.atan2((wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[1] = wp.pow((wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[2] = (wp.float64(wp.nan)) ** (wp.float64(1.0))
        c2[3] = wp.min((wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[4] = wp.max((wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[5] = (wp.float64(wp.nan)) % (wp.float64(1.0))
        c2[6] = wp.mod((wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[7] = (wp.float64(wp.nan)) // (wp.float64(1.0))
        c2[8] = wp.floordiv((wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[9] = (wp.float64(wp.nan)) / (wp.float64(1.0))
        c2[10] = wp.div((wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[11] = (wp.float64(wp.nan)) + (wp.float64(1.0))
        c2[12] = (wp.float64(wp.nan)) - (wp.float64(1.0))
        c2[13] = (wp.float64(wp.nan)) * (wp.float64(1.0))
        c2[14] = wp.copysign((wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[15] = wp.clamp((wp.float64(wp.nan)), (wp.float64(1.0)), one)
        c2[16] = wp.clamp(one, (wp.float64(wp.nan)), (wp.float64(1.0)))
        c2[17] = wp.lerp((wp.float64(wp.nan)), (wp.float64(1.0)), quarter)
        c2[18] = wp.smoothstep((wp.float64(wp.nan)), (wp.float64(1.0)), quarter)
        c2[19] = wp.length(wp.vec2d((wp.float64(wp.nan)), (wp.float64(1.0))))
        c2[20] = wp.length_sq(wp.vec2d((wp.float64(wp.nan)), (wp.float64(1.0))))
        c2[21] = wp.normalize(wp.vec2d((wp.float64(wp.nan)), (wp.float64(1.0))))[0]
        c2[22] = wp.dot(wp.vec2d((wp.float64(wp.nan)), (wp.float64(1.0))), wp.vec2d((wp.float64(1.0)), (wp.float64(wp.nan))))
        c2[23] = wp.where((wp.float64(wp.nan)) < (wp.float64(1.0)), one, zero)
        c2[24] = wp.where((wp.float64(wp.nan)) == (wp.float64(1.0)), one, zero)
        c2[25] = wp.where((wp.float64(wp.nan)) >= (wp.float64(1.0)), one, zero)
        c2[26] = wp.atan2((wp.float64(1.0)), (wp.float64(0.0)))
        c2[27] = wp.pow((wp.float64(1.0)), (wp.float64(0.0)))
        c2[28] = (wp.float64(1.0)) ** (wp.float64(0.0))
        c2[29] = wp.min((wp.float64(1.0)), (wp.float64(0.0)))
        c2[30] = wp.max((wp.float64(1.0)), (wp.float64(0.0)))
        c2[31] = (wp.float64(1.0)) % (wp.float64(0.0))
        c2[32] = wp.mod((wp.float64(1.0)), (wp.float64(0.0)))
        c2[33] = (wp.float64(1.0)) // (wp.float64(0.0))
        c2[34] = wp.floordiv((wp.float64(1.0)), (wp.float64(0.0)))
        c2[35] = (wp.float64(1.0)) / (wp.float64(0.0))
        c2[36] = wp.div((wp.float64(1.0)), (wp.float64(0.0)))
        c2[37] = (wp.float64(1.0)) + (wp.float64(0.0))
        c2[38] = (wp.float64(1.0)) - (wp.float64(0.0))
        c2[39] = (wp.float64(1.0)) * (wp.float64(0.0))
        c2[40] = wp.copysign((wp.float64(1.0)), (wp.float64(0.0)))
        c2[41] = wp.clamp((wp.float64(1.0)), (wp.float64(0.0)), one)
        c2[42] = wp.clamp(one, (wp.float64(1.0)), (wp.float64(0.0)))
        c2[43] = wp.lerp((wp.float64(1.0)), (wp.float64(0.0)), quarter)
        c2[44] = wp.smoothstep((wp.float64(1.0)), (wp.float64(0.0)), quarter)
        c2[45] = wp.length(wp.vec2d((wp.float64(1.0)), (wp.float64(0.0))))
        c2[46] = wp.length_sq(wp.vec2d((wp.float64(1.0)), (wp.float64(0.0))))
        c2[47] = wp.normalize(wp.vec2d((wp.float64(1.0)), (wp.float64(0.0))))[0]
        c2[48] = wp.dot(wp.vec2d((wp.float64(1.0)), (wp.float64(0.0))), wp.vec2d((wp.float64(0.0)), (wp.float64(1.0))))
        c2[49] = wp.where((wp.float64(1.0)) < (wp.float64(0.0)), one, zero)
        c2[50] = wp.where((wp.float64(1.0)) == (wp.float64(0.0)), one, zero)
        c2[51] = wp.where((wp.float64(1.0)) >= (wp.float64(0.0)), one, zero)
        c2[52] = wp.atan2((wp.float64(0.0)), (wp.float64(0.0)))
        c2[53] = wp.pow((wp.float64(0.0)), (wp.float64(0.0)))
        c2[54] = (wp.float64(0.0)) ** (wp.float64(0.0))
        c2[55] = wp.min((wp.float64(0.0)), (wp.float64(0.0)))
        c2[56] = wp.max((wp.float64(0.0)), (wp.float64(0.0)))
        c2[57] = (wp.float64(0.0)) % (wp.float64(0.0))
        c2[58] = wp.mod((wp.float64(0.0)), (wp.float64(0.0)))
        c2[59] = (wp.float64(0.0)) // (wp.float64(0.0))
        c2[60] = wp.floordiv((wp.float64(0.0)), (wp.float64(0.0)))
        c2[61] = (wp.float64(0.0)) / (wp.float64(0.0))
        c2[62] = wp.div((wp.float64(0.0)), (wp.float64(0.0)))
        c2[63] = (wp.float64(0.0)) + (wp.float64(0.0))
        c2[64] = (wp.float64(0.0)) - (wp.float64(0.0))
        c2[65] = (wp.float64(0.0)) * (wp.float64(0.0))
        c2[66] = wp.copysign((wp.float64(0.0)), (wp.float64(0.0)))
        c2[67] = wp.clamp((wp.float64(0.0)), (wp.float64(0.0)), one)
        c2[68] = wp.clamp(one, (wp.float64(0.0)), (wp.float64(0.0)))
        c2[69] = wp.lerp((wp.float64(0.0)), (wp.float64(0.0)), quarter)
        c2[70] = wp.smoothstep((wp.float64(0.0)), (wp.float64(0.0)), quarter)
        c2[71] = wp.length(wp.vec2d((wp.float64(0.0)), (wp.float64(0.0))))
        c2[72] = wp.length_sq(wp.vec2d((wp.float64(0.0)), (wp.float64(0.0))))
        c2[73] = wp.normalize(wp.vec2d((wp.float64(0.0)), (wp.float64(0.0))))[0]
        c2[74] = wp.dot(wp.vec2d((wp.float64(0.0)), (wp.float64(0.0))), wp.vec2d((wp.float64(0.0)), (wp.float64(0.0))))
        c2[75] = wp.where((wp.float64(0.0)) < (wp.float64(0.0)), one, zero)
        c2[76] = wp.where((wp.float64(0.0)) == (wp.float64(0.0)), one, zero)
        c2[77] = wp.where((wp.float64(0.0)) >= (wp.float64(0.0)), one, zero)
        c2[78] = wp.atan2((wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[79] = wp.pow((wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[80] = (wp.float64(-0.0)) ** (wp.float64(wp.inf))
        c2[81] = wp.min((wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[82] = wp.max((wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[83] = (wp.float64(-0.0)) % (wp.float64(wp.inf))
        c2[84] = wp.mod((wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[85] = (wp.float64(-0.0)) // (wp.float64(wp.inf))
        c2[86] = wp.floordiv((wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[87] = (wp.float64(-0.0)) / (wp.float64(wp.inf))
        c2[88] = wp.div((wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[89] = (wp.float64(-0.0)) + (wp.float64(wp.inf))
        c2[90] = (wp.float64(-0.0)) - (wp.float64(wp.inf))
        c2[91] = (wp.float64(-0.0)) * (wp.float64(wp.inf))
        c2[92] = wp.copysign((wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[93] = wp.clamp((wp.float64(-0.0)), (wp.float64(wp.inf)), one)
        c2[94] = wp.clamp(one, (wp.float64(-0.0)), (wp.float64(wp.inf)))
        c2[95] = wp.lerp((wp.float64(-0.0)), (wp.float64(wp.inf)), quarter)
        c2[96] = wp.smoothstep((wp.float64(-0.0)), (wp.float64(wp.inf)), quarter)
        c2[97] = wp.length(wp.vec2d((wp.float64(-0.0)), (wp.float64(wp.inf))))
        c2[98] = wp.length_sq(wp.vec2d((wp.float64(-0.0)), (wp.float64(wp.inf))))
        c2[99] = wp.normalize(wp.vec2d((wp.float64(-0.0)), (wp.float64(wp.inf))))[0]
        c2[100] = wp.dot(wp.vec2d((wp.float64(-0.0)), (wp.float64(wp.inf))), wp.vec2d((wp.float64(wp.inf)), (wp.float64(-0.0))))
        c2[101] = wp.where((wp.float64(-0.0)) < (wp.float64(wp.inf)), one, zero)
        c2[102] = wp.where((wp.float64(-0.0)) == (wp.float64(wp.inf)), one, zero)
        c2[103] = wp.where((wp.float64(-0.0)) >= (wp.float64(wp.inf)), one, zero)
