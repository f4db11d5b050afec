#!/bin/bash
# One device call for @wp.struct (issue #10): builds kern, then on CUDA runs
# runtime_structs (Warp's layout read back field by field, arrays of
# structs, kern_struct_set_array on a CUdeviceptr), the struct conformance
# kernels against Warp's outputs (array fields included), the same kernels
# under compute-sanitizer memcheck, and on NVIDIA OpenCL the conformance
# kernels (the array-field one is skipped: OpenCL refuses it by design).
# Run from the repo root; the summary goes to $OUT/structs.txt (about 3
# minutes on a bare H100 machine, most of it the build).
set -u
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
S="$OUT/structs.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
export PATH=/usr/local/cuda/bin:$PATH
B=build-gpu
say "card: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null)"
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >"$OUT/build.log" 2>&1 &&
  cmake --build $B -j"$(nproc)" >>"$OUT/build.log" 2>&1 || { say "build FAILED"; tail -n 30 "$OUT/build.log" | tee -a "$S"; exit 1; }
K=$B/kern; NPYCMP=$B/tests/npycmp
export KERN_CACHE_DIR=/tmp/kern-structs-cache
say "runtime_structs: $($B/tests/runtime_structs 2>&1 | tr '\n' ' ')"
say "$(sh tests/conformance/run.sh $K $NPYCMP tests/conformance cuda tests/conformance/struct_*.py 2>&1 | tail -n 3 | tr '\n' ' ')"
say "$(KERN_DEBUG=1 sh tests/conformance/run.sh $K $NPYCMP tests/conformance cuda tests/conformance/struct_*.py 2>&1 | tail -n 3 | tr '\n' ' ') (debug mode)"
for f in tests/conformance/struct_*.py; do
  args=$(sed -n 's/^# kern-test: //p' "$f")
  eval "set -- $args"
  compute-sanitizer --tool memcheck --error-exitcode 9 "$K" run "$f" "$@" --backend cuda --quiet --no-cache --unchecked >"$OUT/san.log" 2>&1
  say "memcheck $(basename "$f"): rc $? $(grep -oE 'ERROR SUMMARY: [0-9]+ errors?' "$OUT/san.log" | tail -n1)"
done
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/icd
NVOCL=$($K devices 2>/dev/null | grep -E '^\s+opencl:[0-9]+' | grep -i nvidia | head -n1 | awk '{print $1}')
if [ -n "$NVOCL" ]; then
  sed 's/--backend "\$BACKEND"/--device "$BACKEND"/' tests/conformance/run.sh > /tmp/run_dev.sh
  say "$(sh /tmp/run_dev.sh $K $NPYCMP tests/conformance "$NVOCL" tests/conformance/struct_*.py 2>&1 | tail -n 3 | tr '\n' ' ') ($NVOCL)"
else
  say "NVIDIA OpenCL: not visible to kern"
fi
