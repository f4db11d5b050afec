#!/bin/sh
# Note [vulkan atan] (src/emit/vulkan.c): atan and atan2 of float64 (and
# atan2 of float32, computed in float64), which GLSL lacks, against the C
# library on the CPU backend: 20,000 arguments spanning 1e-300..1e300 of
# both signs, and every special case of C99's atan2 (signed zeros,
# infinities, NaN).  The float64 results must be within 1e-15 relative
# (about 4.5 ulp) of libm's; the float32 ones equal to within 1 ulp.
# Needs a Vulkan device (77 without one).
KERN=$1; NPYCMP=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
cat >"$T/k.py" <<'PY'
import warp as wp

@wp.func
def scale(k: int) -> wp.float64:
    s = wp.float64(1.0)
    if k == 0:
        s = wp.float64(1.0e-300)
    elif k == 1:
        s = wp.float64(1.0e-10)
    elif k == 2:
        s = wp.float64(1.0e-3)
    elif k == 4:
        s = wp.float64(1.0e3)
    elif k == 5:
        s = wp.float64(1.0e10)
    elif k == 6:
        s = wp.float64(1.0e300)
    return s

@wp.kernel
def at(a: wp.array(dtype=wp.float64), b: wp.array(dtype=wp.float64),
       t2: wp.array(dtype=wp.float64), t1: wp.array(dtype=wp.float64), f2: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y = (a[i] * wp.float64(2.0) - wp.float64(1.0)) * scale(i % 7)
    x = (b[i] * wp.float64(2.0) - wp.float64(1.0)) * scale((i / 7) % 7)
    t2[i] = wp.atan2(y, x)
    t1[i] = wp.atan(y)
    f2[i] = wp.atan2(wp.float32(y), wp.float32(x))

@wp.kernel
def special(v: wp.array(dtype=wp.float64), o: wp.array2d(dtype=wp.float64), of: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    o[i, j] = wp.atan2(v[i], v[j])
    of[i, j] = wp.atan2(wp.float32(v[i]), wp.float32(v[j]))
PY
"$KERN" devices 2>/dev/null | grep -qE '^ +vulkan:0' || { echo "skip: no Vulkan device"; exit 77; }
# the special arguments as a .npy file (Python's standard library only)
python3 - "$T/v.npy" <<'PY' || { echo "FAIL: python3 could not write v.npy"; exit 1; }
import struct, sys
v = [float("-inf"), -1.0, -0.0, 0.0, 1.0, float("inf"), float("nan"), 1e-310]
h = "{'descr': '<f8', 'fortran_order': False, 'shape': (8,), }"
h += " " * (63 - (10 + len(h)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
    f.write(struct.pack("<8d", *v))
PY
for d in cpu vulkan:0; do
  KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" at --dim 20000 --device $d \
    'a=rand(float64,20000,seed=11)' 'b=rand(float64,20000,seed=12)' \
    't2=zeros(float64,20000)' 't1=zeros(float64,20000)' 'f2=zeros(float32,20000)' --quiet \
    --save t2="$T/t2.${d%%:*}.npy" --save t1="$T/t1.${d%%:*}.npy" --save f2="$T/f2.${d%%:*}.npy" \
    >"$T/run.txt" 2>&1 || { echo "FAIL: at on $d:"; head -3 "$T/run.txt"; fail=1; }
done
for n in t2 t1; do
  "$NPYCMP" "$T/$n.cpu.npy" "$T/$n.vulkan.npy" --rtol 0 --atol 0 --signed-zeros 2>&1 | grep "max abs" | sed "s/^/  $n vs libm: /"
  "$NPYCMP" "$T/$n.cpu.npy" "$T/$n.vulkan.npy" --rtol 1e-15 --atol 0 --signed-zeros >"$T/cmp" 2>&1 ||
    { echo "FAIL: float64 $n beyond 1e-15 of libm:"; head -4 "$T/cmp"; fail=1; }
done
"$NPYCMP" "$T/f2.cpu.npy" "$T/f2.vulkan.npy" --rtol 1.2e-7 --atol 0 --signed-zeros >"$T/cmp" 2>&1 ||
  { echo "FAIL: float32 atan2 beyond 1 ulp of libm:"; head -4 "$T/cmp"; fail=1; }
# the special cases: every pair of -inf -1 -0 +0 1 inf nan (and 1e-310, a subnormal)
for d in cpu vulkan:0; do
  KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" special --dim 8,8 --device $d \
    "v=$T/v.npy" 'o=zeros(float64,8,8)' 'of=zeros(float32,8,8)' --quiet \
    --save o="$T/o.${d%%:*}.npy" --save of="$T/of.${d%%:*}.npy" >"$T/run.txt" 2>&1 ||
    { echo "FAIL: special on $d:"; head -3 "$T/run.txt"; fail=1; }
done
for n in o of; do
  "$NPYCMP" "$T/$n.cpu.npy" "$T/$n.vulkan.npy" --rtol 0 --atol 0 --signed-zeros 2>&1 | grep "max abs" | sed "s/^/  $n vs libm: /"
  "$NPYCMP" "$T/$n.cpu.npy" "$T/$n.vulkan.npy" --rtol 1e-15 --atol 0 --signed-zeros >"$T/cmp" 2>&1 ||
    { echo "FAIL: atan2 special cases ($n) differ from libm's:"; head -4 "$T/cmp"; fail=1; }
done
[ $fail = 0 ] && echo "ok: float64 atan/atan2 within 1e-15 of libm over 20000 arguments, float32 atan2 within 1 ulp, C99's special cases"
exit $fail
