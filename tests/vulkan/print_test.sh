#!/bin/sh
# Note [vulkan print] (src/emit/vulkan.c, runtime/backend_vulkan.c): print
# and printf on Vulkan write records into a print buffer that the host
# formats after the launch.
#  - every conversion kern emits (%d %u %x %c %g %f %e with flags, widths
#    and precisions, %%) from many invocations prints what the CPU backend
#    prints (sorted: the order of invocations differs);
#  - more output than the buffer holds (131072 slots) prints the records
#    that fit, then one line saying the rest was lost.
# Needs a Vulkan device (77 without one).
KERN=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
cat >"$T/k.py" <<'PY'
import warp as wp

@wp.kernel
def many(x: wp.array(dtype=float)):
    i = wp.tid()
    wp.printf("i=%d u=%u x=%x c=%c g=%g f=%8.3f e=%.2e %% [%-5d]\n", i, wp.uint32(i * 7), i * 255, 65 + i % 26,
              x[i], x[i] * 3.0, x[i] * 1.0e6, -i)
    wp.print(wp.vec3(x[i], 1.5, -2.0))
    print(wp.int64(i) * wp.int64(100000000000))

@wp.kernel
def flood(n: int):
    i = wp.tid()
    wp.printf("%d\n", i)
PY
"$KERN" devices 2>/dev/null | grep -qE '^ +vulkan:0' || { echo "skip: no Vulkan device"; exit 77; }
for d in cpu vulkan:0; do
  KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" many --dim 300 --device $d \
    'x=rand(float32,300,seed=5)' --quiet >"$T/$d.txt" 2>&1 ||
    { echo "FAIL: many on $d:"; head -3 "$T/$d.txt"; fail=1; }
  sort "$T/$d.txt" >"$T/$d.sorted"
done
lines=$(wc -l <"$T/cpu.sorted")
[ "$lines" = 900 ] || { echo "FAIL: the CPU printed $lines lines, not 900"; fail=1; }
cmp -s "$T/cpu.sorted" "$T/vulkan:0.sorted" ||
  { echo "FAIL: vulkan's print output differs from the CPU's:"; diff "$T/cpu.sorted" "$T/vulkan:0.sorted" | head -8; fail=1; }
# 100000 records of 2 slots: 65536 fit in 131072
KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" flood --dim 100000 --device vulkan:0 n=1 \
  --quiet --unchecked >"$T/flood.txt" 2>&1 || { echo "FAIL: flood:"; tail -3 "$T/flood.txt"; fail=1; }
nums=$(grep -cE '^[0-9]+$' "$T/flood.txt")
[ "$nums" = 65536 ] || { echo "FAIL: flood printed $nums records, expected the 65536 that fit"; fail=1; }
grep -q 'the rest of its output is lost' "$T/flood.txt" || { echo "FAIL: no line says output was lost"; fail=1; }
[ "$(sort -un "$T/flood.txt" | grep -cE '^[0-9]+$')" = 65536 ] || { echo "FAIL: flood's records are not distinct"; fail=1; }
[ $fail = 0 ] && echo "ok: printf conversions as the CPU's from 300 invocations; overflow reported"
exit $fail
