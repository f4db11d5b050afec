#!/bin/sh
# Note [vulkan unroll] (src/emit/vulkan.c): the grid-stride loop is
# unrolled K_UNROLL times ($KERN_VULKAN_UNROLL; the default is 1 until measured).
#  - the GLSL has the unrolled loop, and its SPIR-V (where glslangValidator
#    and spirv-dis exist) marks the inner loop Unroll;
#  - a kernel with an early return, on a grid of one group
#    ($KERN_VULKAN_GROUPS=1, so every invocation runs many copies and a
#    partial last round) gives the CPU's results for every unroll factor,
#    at sizes that are no multiple of the round.
# Needs a Vulkan device for the second part (77 without one).
KERN=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
cat >"$T/k.py" <<'PY'
import warp as wp

@wp.kernel
def skip3(x: wp.array(dtype=float), out: wp.array(dtype=float), cnt: wp.array(dtype=int)):
    i = wp.tid()
    if i % 3 == 0:
        return
    out[i] = x[i] * 2.0 + 1.0
    wp.atomic_add(cnt, 0, 1)
PY
"$KERN" compile "$T/k.py" --target vulkan >"$T/k.glsl" || { echo "FAIL: compile"; exit 1; }
grep -q 'k_t0 += K_UNROLL \* k_G) { K_UNROLL_HINT for (int k_u = 0; k_u < K_UNROLL' "$T/k.glsl" ||
  { echo "FAIL: no unrolled grid-stride loop in the GLSL"; fail=1; }
grep -q '^#define K_UNROLL 1$' "$T/k.glsl" || { echo "FAIL: the default factor is not 1"; fail=1; }
if command -v glslangValidator >/dev/null 2>&1 && command -v spirv-dis >/dev/null 2>&1; then
  k=$(sed -n 's/^void \(kern_[A-Za-z0-9_]*\)() {$/\1/p' "$T/k.glsl" | head -n1)
  glslangValidator -V --target-env vulkan1.2 -S comp -DKERN_MAIN=$k -DK_UNROLL=4 "$T/k.glsl" -o "$T/k.spv" >"$T/log" 2>&1 ||
    { echo "FAIL: glslang"; tail -5 "$T/log"; fail=1; }
  spirv-dis "$T/k.spv" | grep -q 'OpLoopMerge .* Unroll' ||
    { echo "FAIL: no loop marked Unroll in the SPIR-V"; fail=1; }
fi
"$KERN" devices 2>/dev/null | grep -qE '^ +vulkan:0' || { echo "skip: no Vulkan device"; [ $fail = 0 ] && exit 77; exit 1; }
for n in 1 7 64 1001 4099; do
  args="x=arange(float32,$n) out=zeros(float32,$n) cnt=zeros(int32,1)"
  KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" skip3 --dim $n --device cpu $args >"$T/cpu.txt" 2>&1 ||
    { echo "FAIL: cpu n=$n"; fail=1; continue; }
  for u in "" 1 2 3 4 8; do
    KERN_VULKAN_UNROLL=$u KERN_VULKAN_GROUPS=1 KERN_CACHE_DIR="$T/c" \
      "$KERN" run "$T/k.py" skip3 --dim $n --device vulkan:0 $args >"$T/vk.txt" 2>&1 ||
      { echo "FAIL: vulkan n=$n unroll=${u:-default}:"; head -3 "$T/vk.txt"; fail=1; continue; }
    cmp -s "$T/cpu.txt" "$T/vk.txt" ||
      { echo "FAIL: n=$n unroll=${u:-default} differs from the CPU:"; diff "$T/cpu.txt" "$T/vk.txt" | head -6; fail=1; }
  done
done
[ $fail = 0 ] && echo "ok: unrolled loop, Unroll in SPIR-V, results equal the CPU's for unroll 1, 2, 3, 4, 8"
exit $fail
