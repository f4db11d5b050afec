#!/bin/sh
# Note [vulkan cast] (src/emit/extra.c): wp.cast on Vulkan moves the bits
# itself (GLSL has no unions).
#  - scalars, vectors and matrices of 8, 16, 32 and 64-bit components,
#    split (a float64 into a vec2ui, a matrix, four uint16) and joined
#    (two floats, four signed bytes, four uint16 into a uint64): the
#    results equal the CPU's (a C union) bit for bit, in release and
#    debug mode;
#  - 16-bit floats are read and made from their 16 bits: float16(1.5 + i)
#    is 0x3E00, 0x4100, 0x4300 (15872, 16640, 17152), vec2h(h, -2) puts
#    -2's 0xC000 in the high half, uint16 0x3C00 + i is 1 + i * 2^-10.
# Needs a Vulkan device (77 without one).
KERN=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$KERN" devices 2>/dev/null | grep -qE '^ +vulkan:0' || { echo "skip: no Vulkan device"; exit 77; }
fail=0
cat >"$T/k.py" <<'PY'
import warp as wp

vec8ub = wp.types.vector(length=8, dtype=wp.uint8)


@wp.kernel
def casts(x: wp.array(dtype=float), y: wp.array(dtype=wp.float64), n: wp.array(dtype=wp.int64),
          o32: wp.array2d(dtype=wp.uint32), o64: wp.array2d(dtype=wp.uint64)):
    i = wp.tid()
    v = wp.cast(y[i], wp.vec2ui)  # 64 bits split in two
    o32[i, 0] = v[0]
    o32[i, 1] = v[1]
    o64[i, 0] = wp.cast(wp.cast(v, wp.float64), wp.uint64)  # and joined again
    o64[i, 1] = wp.cast(wp.vec2(x[i], -x[i]), wp.uint64)  # two floats joined
    m = wp.cast(wp.vec2d(y[i], -y[i]), wp.mat22)  # two doubles into a matrix's rows
    o32[i, 2] = wp.cast(m[0, 1], wp.uint32)
    o32[i, 3] = wp.cast(m[1, 0], wp.uint32)
    q = wp.cast(wp.mat22(x[i], 2.0, -x[i], 4.0), wp.vec4i)
    o32[i, 4] = wp.uint32(q[0])
    o32[i, 5] = wp.uint32(q[2])
    b = wp.cast(n[i] * wp.int64(-77777777777), wp.vec4us)  # four 16-bit parts
    o32[i, 6] = wp.uint32(b[0])
    o32[i, 7] = wp.uint32(b[3])
    c = wp.cast(wp.int32(n[i]) * -1000003, wp.vec4b)  # signed bytes
    o32[i, 8] = wp.uint32(wp.int32(c[1]))
    o32[i, 9] = wp.uint32(wp.int32(c[3]))
    o32[i, 10] = wp.cast(c, wp.uint32)  # joined again
    d = wp.cast(wp.vec4ub(wp.uint8(i), wp.uint8(255), wp.uint8(0), wp.uint8(128)), wp.vec2s)
    o32[i, 11] = wp.uint32(wp.int32(d[0]))
    o32[i, 12] = wp.uint32(wp.int32(d[1]))
    o64[i, 2] = wp.cast(wp.vec4us(wp.uint16(i), wp.uint16(1), wp.uint16(65535), wp.uint16(7)), wp.uint64)
    o64[i, 3] = wp.uint64(wp.cast(wp.uint64(n[i]), wp.int64) + wp.int64(1))
    e = wp.cast(wp.uint64(n[i] * wp.int64(-77777777777)), vec8ub)  # eight bytes
    o32[i, 13] = wp.uint32(e[1]) | (wp.uint32(e[6]) << wp.uint32(8))
    o32[i, 14] = wp.uint32(wp.cast(wp.vec2s(wp.int16(-2), wp.int16(i)), wp.int32))
    o32[i, 15] = wp.uint32(wp.cast(wp.int8(-3), wp.uint8))
    o32[i, 16] = wp.uint32(wp.int32(wp.cast(wp.uint16(65535), wp.int16)))


@wp.kernel
def halfs(o: wp.array2d(dtype=wp.uint32), of: wp.array2d(dtype=float)):
    i = wp.tid()
    h = wp.float16(1.5) + wp.float16(float(i))
    o[i, 0] = wp.uint32(wp.cast(h, wp.uint16))
    o[i, 1] = wp.cast(wp.vec2h(h, wp.float16(-2.0)), wp.uint32)
    of[i, 0] = float(wp.cast(wp.uint16(0x3C00 + i), wp.float16))
    w = wp.cast(wp.uint32(0xC0003E00), wp.vec2h)
    of[i, 1] = float(w[0])
    of[i, 2] = float(w[1])
PY
args="x=rand(float32,5,seed=1) y=rand(float64,5,seed=2) n=arange(int64,5) o32=zeros(uint32,5,17) o64=zeros(uint64,5,4)"
# shellcheck disable=SC2086
KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" casts --dim 5 --device cpu $args \
  --unchecked --quiet --save o32="$T/cpu32.npy" --save o64="$T/cpu64.npy" >"$T/out.txt" 2>&1 ||
  { echo "FAIL: casts on the cpu:"; head -5 "$T/out.txt"; exit 1; }
for mode in --unchecked --debug; do
  # shellcheck disable=SC2086
  KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" casts --dim 5 --device vulkan:0 $args \
    $mode --quiet --save o32="$T/vk32.npy" --save o64="$T/vk64.npy" >"$T/out.txt" 2>&1 ||
    { echo "FAIL: casts on vulkan ($mode):"; head -5 "$T/out.txt"; fail=1; continue; }
  for w in 32 64; do
    cmp -s "$T/cpu$w.npy" "$T/vk$w.npy" ||
      { echo "FAIL: casts ($mode): o$w differs from the CPU's"; fail=1; }
  done
done
cat >"$T/want.txt" <<'TXT'
o = [[     15872 3221241344]
     [     16640 3221242112]
     [     17152 3221242624]]
of = [[ 1.         1.5       -2.       ]
      [ 1.0009766  1.5       -2.       ]
      [ 1.0019531  1.5       -2.       ]]
TXT
for mode in --unchecked --debug; do
  KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" halfs --dim 3 --device vulkan:0 $mode \
    o='zeros(uint32,3,2)' of='zeros(float32,3,3)' >"$T/got.txt" 2>&1 ||
    { echo "FAIL: halfs on vulkan ($mode):"; head -5 "$T/got.txt"; fail=1; continue; }
  diff -u "$T/want.txt" "$T/got.txt" || { echo "FAIL: halfs ($mode)"; fail=1; }
done
[ $fail = 0 ] && echo "ok: wp.cast on vulkan: the CPU's bits for 8- to 64-bit components, a 16-bit float's own bits"
exit $fail
