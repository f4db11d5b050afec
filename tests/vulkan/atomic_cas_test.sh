#!/bin/sh
# Note [vulkan float atomics] (src/emit/vulkan.c): float atomics the device
# lacks are compare-and-swap loops on the element's bits.  lavapipe has
# float32 add, min, max and exchange natively, so KERN_VULKAN_NO_FLOAT_ATOMICS=1
# forces the loops there too.  20000 invocations hit the same elements:
#  - integer-valued float32 and float64 sums (exact) of add and sub;
#  - every add of 1 returns a distinct old value (each is counted once
#    in seen32/seen64; a lost update or a torn loop makes a duplicate);
#  - float32/float64 max and min of many candidates;
#  - float compare-and-swap and float64 exchange: exactly one invocation
#    wins the CAS of 0 -> its id + 1, and the exchanges form a chain.
# Each mode (native, forced loops, debug mode) prints what the CPU prints.
# Needs a Vulkan device (77 without one).
KERN=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
cat >"$T/k.py" <<'PY'
import warp as wp

@wp.kernel
def contend(c32: wp.array(dtype=wp.float32), c64: wp.array(dtype=wp.float64), seen32: wp.array(dtype=wp.int32),
            seen64: wp.array(dtype=wp.int32), dup: wp.array(dtype=wp.int32), mm32: wp.array(dtype=wp.float32),
            mm64: wp.array(dtype=wp.float64), cas: wp.array(dtype=wp.float32), xch: wp.array(dtype=wp.float64),
            win: wp.array(dtype=wp.int32)):
    i = wp.tid()
    o = int(wp.atomic_add(c32, 0, 1.0))
    if wp.atomic_add(seen32, o, 1) != 0:
        wp.atomic_add(dup, 0, 1)
    p = int(-wp.atomic_sub(c64, 0, wp.float64(1.0)))
    if wp.atomic_add(seen64, p, 1) != 0:
        wp.atomic_add(dup, 1, 1)
    wp.atomic_add(c32, 1, float(i % 8))
    wp.atomic_sub(c64, 1, wp.float64(i % 8))
    wp.atomic_max(mm32, 0, float(i) * 0.5)
    wp.atomic_min(mm32, 1, float(i) * -0.5)
    wp.atomic_max(mm64, 0, wp.float64(i) * wp.float64(0.25))
    wp.atomic_min(mm64, 1, wp.float64(i) * wp.float64(-0.25))
    if wp.atomic_cas(cas, 0, 0.0, float(i + 1)) == 0.0:
        wp.atomic_add(win, 0, 1)
    x = wp.atomic_exch(xch, 0, wp.float64(i + 1))
    wp.atomic_add(win, 1, int(x))
PY
"$KERN" devices 2>/dev/null | grep -qE '^ +vulkan:0' || { echo "skip: no Vulkan device"; exit 77; }
N=20000
run() { # device, checked or --unchecked, then environment
  d=$1; c=$2; shift 2
  [ "$c" = - ] && c=
  env "$@" KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" contend --dim $N --device $d $c \
    'c32=zeros(float32,2)' 'c64=zeros(float64,2)' "seen32=zeros(int32,$N)" \
    "seen64=zeros(int32,$N)" 'dup=zeros(int32,2)' 'mm32=zeros(float32,2)' \
    'mm64=zeros(float64,2)' 'cas=zeros(float32,1)' 'xch=zeros(float64,1)' \
    'win=zeros(int32,2)' 2>&1 | grep -v '^seen'
}
run cpu --unchecked >"$T/cpu.txt"
# the CPU's own totals, known exactly (sum of i%8 over 20000 is 70000)
for want in 'c32 = [20000. 70000.]' 'c64 = [-20000. -70000.]' 'dup = [0 0]' \
            'mm32 = [ 9999.5 -9999.5]' 'mm64 = [ 4999.75 -4999.75]'; do
  grep -qF "$want" "$T/cpu.txt" || { echo "FAIL: the CPU did not print '$want':"; cat "$T/cpu.txt"; fail=1; }
done
# unchecked and checked (debug mode), native atomics and forced loops
for mode in "--unchecked" "--unchecked KERN_VULKAN_NO_FLOAT_ATOMICS=1" - \
            "- KERN_VULKAN_NO_FLOAT_ATOMICS=1"; do
  run vulkan:0 $mode >"$T/vk.txt"
  # cas and xch (who wins) and win[1] (sum of all but the last exchange's value) differ
  # between runs; the CAS has one winner
  [ "$(tr -d '[]' <"$T/vk.txt" | awk '$1 == "win" { print $3 }')" = 1 ] || { echo "FAIL ($mode): not exactly one CAS winner:"; cat "$T/vk.txt"; fail=1; }
  # the exchanges form a chain: the values seen are 0 and all ids but the last one's
  xv=$(tr -d '[].' <"$T/vk.txt" | awk '$1 == "xch" { print $3 }')
  w1=$(tr -d '[]' <"$T/vk.txt" | awk '$1 == "win" { print $4 }')
  [ -n "$xv" ] && [ "$((w1 + xv))" = $((N * (N + 1) / 2)) ] ||
    { echo "FAIL ($mode): exchanges lost a value (win[1]=$w1 last=$xv)"; fail=1; }
  grep -v '^win\|^xch\|^cas' "$T/vk.txt" >"$T/vk.cmp"
  grep -v '^win\|^xch\|^cas' "$T/cpu.txt" >"$T/cpu.cmp"
  cmp -s "$T/cpu.cmp" "$T/vk.cmp" ||
    { echo "FAIL ($mode): vulkan differs from the CPU:"; diff "$T/cpu.cmp" "$T/vk.cmp" | head; fail=1; }
done
[ $fail = 0 ] && echo "ok: $N-way contended float atomics, native and as CAS loops, as the CPU's"
exit $fail
