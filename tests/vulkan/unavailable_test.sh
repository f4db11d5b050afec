#!/bin/sh
# unavailable_test.sh -- kern without a usable Vulkan: `kern devices` lists
# the backend as unavailable with the reason, and `kern run --device
# vulkan:0` fails with that reason (an error, not a crash); the other
# backends still work.
#
#   sh unavailable_test.sh KERN ROOT
set -u
KERN=$1; ROOT=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/kern_vkna.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR=$T/cache
unset KERN_DEVICE
failed=0; n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; sed 's/^/#   /' "$T/out" | tail -n 8; failed=$((failed + 1)); }

# 1. no libvulkan
KERN_VULKAN_LIBRARY=$T/nonexistent/libvulkan.so.1 "$KERN" devices >"$T/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^vulkan: unavailable (.*nonexistent/libvulkan.so.1 not found" "$T/out" &&
   grep -q "^cpu: available" "$T/out"; then
  ok "kern devices: vulkan unavailable, library named"
else
  bad "kern devices without libvulkan (exit $rc)"
fi

F=$ROOT/tests/conformance/array_1d.py
KERN_VULKAN_LIBRARY=$T/nonexistent/libvulkan.so.1 "$KERN" run "$F" array_1d --dim 4 \
  a='arange(float32,4)' out='zeros(float32,4)' n='zeros(int32,4)' --unchecked \
  --device vulkan:0 >"$T/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q "backend vulkan is unavailable" "$T/out"; then
  ok "kern run --device vulkan:0 fails with the reason"
else
  bad "kern run --device vulkan:0 without libvulkan (exit $rc)"
fi

KERN_VULKAN_LIBRARY=$T/nonexistent/libvulkan.so.1 "$KERN" run "$F" array_1d --dim 4 \
  a='arange(float32,4)' out='zeros(float32,4)' n='zeros(int32,4)' --unchecked \
  --device cpu >"$T/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "n = \[40 41 42 43\]" "$T/out"; then
  ok "the CPU still runs"
else
  bad "kern run on the CPU without libvulkan (exit $rc)"
fi

# 2. a library that is not Vulkan's loader
KERN_VULKAN_LIBRARY=libc.so.6 "$KERN" devices >"$T/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^vulkan: unavailable (libc.so.6 lacks vkGetInstanceProcAddr)" "$T/out"; then
  ok "a library without Vulkan's entry points"
else
  bad "kern devices with libc as libvulkan (exit $rc)"
fi

# 3. a loader but no GLSL compiler (only where a device exists: the reason
# names the compiler only after a device was found)
if "$KERN" devices 2>/dev/null | grep -q "^vulkan: available"; then
  KERN_SHADERC_LIBRARY=$T/none.so KERN_GLSLANG=$T/none "$KERN" devices >"$T/out" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -q "^vulkan: unavailable (.*none.so not found.*glslangValidator" "$T/out"; then
    ok "no GLSL compiler: unavailable, both named"
  else
    bad "kern devices without a GLSL compiler (exit $rc)"
  fi
fi

echo "$n checks, $failed failed"
[ $failed -eq 0 ]
