#!/bin/bash
# The PTX tier of a cold CUDA load (Note [PTX tier] in
# src/runtime/backend_cuda.c) on a GPU machine, in one device call: build,
# the tier's C test, the conformance suite with KERN_CUDA_TIER=ptx (every
# file the PTX emitter covers runs on kern's PTX alone and must give Warp's
# answer; the others build with NVRTC as usual) and with the default (auto:
# each `kern run` starts on PTX and exits, or switches, while NVRTC builds),
# then the cold-load figures from Python, both tiers.  Run from the repo
# root; a summary goes to $OUT/ptx_tier.txt.  About 6 minutes on an H100.
set -u
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
SUM="$OUT/ptx_tier.txt"; : > "$SUM"
say() { echo "$*" | tee -a "$SUM"; }
export PATH=/usr/local/cuda/bin:$PATH
B=${B:-build-gpu}
J=$(nproc)
say "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null)"
if ! { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release && cmake --build $B -j"$J"; } > "$OUT/build.log" 2>&1; then
  tail -n 30 "$OUT/build.log"; say "build: FAILED"; exit 1
fi
K=$B/kern; NPYCMP=$B/tests/npycmp

say "== cuda_tier_test"
$B/tests/cuda/cuda_tier_test 2>&1 | tee -a "$SUM" | tail -n 12

covered=0; total=0
for f in tests/conformance/*.py; do
  case $f in *gen_expected.py) continue ;; esac
  total=$((total + 1))
  $K compile --target ptx --sm 90 "$f" > /dev/null 2>&1 && covered=$((covered + 1))
done
say "conformance files the PTX emitter covers: $covered of $total"

say "== conformance, KERN_CUDA_TIER=ptx"
KERN_CUDA_TIER=ptx timeout 280 sh tests/gpu/conformance_sharded.sh $K $NPYCMP cuda 16 2>&1 | tail -n 40 | tee -a "$SUM"
say "== conformance, default tier (auto)"
timeout 280 sh tests/gpu/conformance_sharded.sh $K $NPYCMP cuda 16 2>&1 | tail -n 20 | tee -a "$SUM"

say "== cold kern.load from Python"
export PYTHONPATH=$PWD/python KERN_LIBRARY=$PWD/$B/libkern.so.1 KERN_TOOL=$PWD/$B/kern PYTHONDONTWRITEBYTECODE=1
for t in auto nvrtc auto; do
  say "-- cuda_tier=$t"
  timeout 120 python3 exp/cold_load.py --cuda-tier $t 2>&1 | tail -n 3 | tee -a "$SUM"
done

say "== cold load from C, device open (exp/tier_load.c)"
if cc -std=c11 -O2 -D_GNU_SOURCE -Iinclude exp/tier_load.c -o /tmp/tier_load \
     -L$B -lkern -ldl -Wl,-rpath,$PWD/$B; then
  /tmp/tier_load 9 --file --keep 2>&1 | tee -a "$SUM"
fi
