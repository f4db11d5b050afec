#!/bin/sh
# vulkan_xfail.txt's "stem device=WORD reason" (run.sh): the entry holds on
# the devices whose name contains WORD alone. array_1d passes everywhere:
# listed for this device it must fail the run ("passes, but ... lists
# it"); listed for another device it must simply pass.
KERN=$1; NPYCMP=$2; SRC=$3
dev=$("$KERN" devices 2>/dev/null | awk '$1 == "vulkan:0" {print $2; exit}')
[ -n "$dev" ] || { echo "skipped: no vulkan device"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/c/expected"
cp "$SRC/tests/conformance/array_1d.py" "$T/c/"
cp "$SRC"/tests/conformance/expected/array_1d.* "$T/c/expected/"
echo array_1d > "$T/c/vulkan_pass.txt"
fail=0
echo "array_1d device=$dev listed for this device" > "$T/c/vulkan_xfail.txt"
if KERN_CACHE_DIR="$T/cache" sh "$SRC/tests/conformance/run.sh" "$KERN" "$NPYCMP" "$T/c" vulkan >"$T/a" 2>&1 ||
   ! grep -q "FAIL array_1d: passes, but vulkan_xfail.txt lists it" "$T/a"; then
  echo "FAIL: an entry for this device ($dev) that passes must fail the run:"; cat "$T/a"; fail=1
fi
echo "array_1d device=NoSuchGPU listed for another device" > "$T/c/vulkan_xfail.txt"
if ! KERN_CACHE_DIR="$T/cache" sh "$SRC/tests/conformance/run.sh" "$KERN" "$NPYCMP" "$T/c" vulkan >"$T/b" 2>&1 ||
   ! grep -q "1 passed, 0 failed" "$T/b"; then
  echo "FAIL: an entry for another device must not apply here:"; cat "$T/b"; fail=1
fi
[ $fail = 0 ] && echo "xfail device scope: ok ($dev)"
exit $fail
