#!/bin/sh
# Note [vulkan scratch frame] (src/emit/vk_fixed.c) and Note [vulkan
# scratch] (runtime/backend_vulkan.c): fixed-size local arrays on Vulkan
# live in a per-invocation frame of a device scratch buffer.
#  - a kernel with fixed arrays in itself and in @wp.funcs (one passed to a
#    func that writes it, one returned from a func, a view of a slice
#    passed on) over 20000 items gives the CPU's results, with the
#    default cap and with a scratch cap of 1 byte (one group of 64
#    invocations, each doing some 300 items: the frame reused per item);
#  - a module without fixed arrays declares no scratch push constant.
# Needs a Vulkan device (77 without one).
KERN=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
cat >"$T/k.py" <<'PY'
import warp as wp

@wp.func
def fill(a: wp.array(dtype=float), v: float):
    for i in range(a.shape[0]):
        a[i] = v + float(i)

@wp.func
def made(k: int):
    b = wp.zeros(shape=(3, 2), dtype=int)
    for i in range(3):
        b[i, 1] = k * 10 + i
    return b

@wp.func
def total(a: wp.array(dtype=float)):
    s = float(0.0)
    for i in range(a.shape[0]):
        s += a[i]
    return s

@wp.kernel
def fixed(x: wp.array(dtype=float), out: wp.array2d(dtype=float), iout: wp.array2d(dtype=int)):
    t = wp.tid()
    a = wp.zeros(shape=(6,), dtype=float)
    a[t % 6] = x[t]
    fill(a[2:], x[t] * 2.0)
    out[t, 0] = total(a)
    out[t, 1] = a[0] + a[5]
    b = made(t)
    iout[t, 0] = b[2, 1] + b[0, 0]
    iout[t, 1] = b.shape[0] * 10 + b.shape[1]
    c = made(t + 1)
    iout[t, 2] = c[1, 1] - b[1, 1]
    m = wp.zeros(shape=(2, 2), dtype=wp.vec3)
    m[1, 0] = wp.vec3(x[t], 1.0, 2.0)
    out[t, 2] = wp.length(m[1, 0] + m[0, 1])
PY
cat >"$T/plain.py" <<'PY'
import warp as wp

@wp.kernel
def plain(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0
PY
"$KERN" devices 2>/dev/null | grep -qE '^ +vulkan:0' || { echo "skip: no Vulkan device"; exit 77; }
N=20000
args="x=rand(float32,$N,seed=3) out=zeros(float32,$N,3) iout=zeros(int32,$N,3)"
KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" fixed --dim $N --device cpu $args \
  --quiet --save "out=$T/cpu_out.npy" --save "iout=$T/cpu_iout.npy" >"$T/cpu.txt" 2>&1 ||
  { echo "FAIL: cpu:"; head -5 "$T/cpu.txt"; exit 1; }
for cap in "" 1; do
  KERN_VULKAN_SCRATCH=$cap KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" fixed --dim $N \
    --device vulkan:0 $args --quiet --save "out=$T/vk_out.npy" --save "iout=$T/vk_iout.npy" \
    >"$T/vk.txt" 2>&1 || { echo "FAIL: vulkan (cap '$cap'):"; head -5 "$T/vk.txt"; fail=1; continue; }
  cmp -s "$T/cpu_out.npy" "$T/vk_out.npy" || { echo "FAIL: out differs from the CPU's (cap '$cap')"; fail=1; }
  cmp -s "$T/cpu_iout.npy" "$T/vk_iout.npy" || { echo "FAIL: iout differs from the CPU's (cap '$cap')"; fail=1; }
done
"$KERN" compile "$T/k.py" --target vulkan >"$T/k.comp" 2>&1
grep -q 'uint64_t scratch; } kpc;' "$T/k.comp" || { echo "FAIL: no scratch push constant in a module with fixed arrays"; fail=1; }
grep -q '^// kern-scratch [1-9]' "$T/k.comp" || { echo "FAIL: no kern-scratch line"; fail=1; }
"$KERN" compile "$T/plain.py" --target vulkan >"$T/plain.comp" 2>&1
grep -q 'scratch' "$T/plain.comp" && { echo "FAIL: a module without fixed arrays mentions scratch"; fail=1; }
[ $fail = 0 ] && echo "ok: fixed arrays in kernels and funcs as the CPU's, with the default and a 1-byte scratch cap"
exit $fail
