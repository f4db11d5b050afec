#!/bin/sh
# diff_test.sh KERN [N] -- kern synth as a differential test: N generated
# kernels (default $SYNTH_DIFF_N, else 100) run on the CPU backend and on
# OpenCL must agree, and where NVRTC is installed their CUDA must compile.
# Skips (77) without an OpenCL device.  A failing kernel is kept in
# $SYNTH_DIFF_KEEP (default: the test's temporary directory, printed).
# With SYNTH_REQUIRE_NVRTC=1 (.ci/run, which installs NVRTC) every pair
# must also have been compiled by NVRTC, not only have passed where it ran.
set -u
KERN=$1
N=${2:-${SYNTH_DIFF_N:-100}}
T=$(mktemp -d)
export KERN_CACHE_DIR="$T/cache"
"$KERN" devices 2>/dev/null | grep -q '^opencl: available' || {
  "$KERN" devices 2>&1 | grep -i opencl; echo "skip: no OpenCL device"; rm -rf "$T"; exit 77; }
"$KERN" synth -n "$N" --seed 2026 -o "$T/out" --validate run --jobs 2 --batch 100 2>"$T/log"
rc=$?
grep -v 'warnings\? generated' "$T/log" | tail -5
cat "$T/out/stats.json"
if [ $rc -ne 0 ]; then
  echo "FAIL: see $T/out (failures/ holds the kernels)"
  exit 1
fi
if [ "${SYNTH_REQUIRE_NVRTC:-0}" = 1 ] &&
   ! grep -q "\"compile_ok\": $N,\$" "$T/out/stats.json"; then
  echo "FAIL: NVRTC did not compile all $N pairs (is libnvrtc on the library path?)"
  exit 1
fi
rm -rf "$T"
echo ok
