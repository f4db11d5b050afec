#!/bin/sh
# spirv_val_test.sh -- Note [spirv-val] in src/runtime/backend_vulkan.c:
# with $KERN_VULKAN_SPIRV_VAL set, every kernel the Vulkan backend builds
# goes through that validator first.  A module real spirv-val accepts runs;
# a validator that rejects fails the load with its own words, and nothing
# is cached (the next load without it compiles again and runs).  The
# conformance suite's vulkan shards set the variable, so every module they
# build is validated (issue #27).  Skips (77) without a Vulkan device or
# spirv-val (Debian: spirv-tools; tools/setup-debian installs both).
#
#   sh spirv_val_test.sh KERN ROOT
set -u
KERN=$1; ROOT=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/kern_vkval.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR=$T/cache
unset KERN_VULKAN_SPIRV_VAL
"$KERN" devices 2>/dev/null | grep -q '^  vulkan:0 ' || { echo "skip: no Vulkan device"; exit 77; }
VAL=$(command -v spirv-val) || { echo "skip: no spirv-val (Debian: spirv-tools)"; exit 77; }
failed=0; n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; sed 's/^/#   /' "$T/out" | tail -n 8; failed=$((failed + 1)); }
F=$ROOT/examples/saxpy.py
run() {
  "$KERN" run "$F" saxpy --dim 4 a=2 x='arange(float32,4)' y='ones(float32,4)' \
    --device vulkan:0 --unchecked >"$T/out" 2>&1
}

KERN_VULKAN_SPIRV_VAL=$VAL run
if [ $? -eq 0 ] && grep -q "y = \[1\. *3\. *5\. *7\.\]" "$T/out"; then
  ok "spirv-val accepts saxpy's SPIR-V and it runs"
else
  bad "saxpy under spirv-val"
fi

printf '#!/bin/sh\necho "error: made-up rejection of $*" >&2\nexit 1\n' >"$T/reject"
chmod +x "$T/reject"
rm -rf "$KERN_CACHE_DIR"
KERN_VULKAN_SPIRV_VAL=$T/reject run
rc=$?
if [ $rc -ne 0 ] && grep -q "kernel 'saxpy': .*reject rejected its SPIR-V" "$T/out" &&
   grep -q "made-up rejection of --target-env vulkan1.2 " "$T/out"; then
  ok "a rejecting validator fails the load with its words"
else
  bad "rejecting validator (exit $rc)"
fi

run
if [ $? -eq 0 ] && grep -q "y = \[1\. *3\. *5\. *7\.\]" "$T/out"; then
  ok "the rejected module was not cached: a load without the validator runs"
else
  bad "load after the rejection"
fi

rm -rf "$KERN_CACHE_DIR"
KERN_VULKAN_SPIRV_VAL=$T/nonexistent run
rc=$?
if [ $rc -ne 0 ] && grep -q "cannot run \$KERN_VULKAN_SPIRV_VAL" "$T/out"; then
  ok "a missing validator is an error that names the variable"
else
  bad "missing validator (exit $rc)"
fi

echo "1..$n"
[ $failed -eq 0 ]
