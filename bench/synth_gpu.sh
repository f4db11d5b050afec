#!/bin/bash
# bench/synth_gpu.sh -- issue #13 on a bare H100/H200 machine, in one call:
# builds kern, generates 10,000 kernels with `kern synth`, compiles each
# pair's CUDA with NVRTC (sm_90, batched), runs every kernel on the CUDA
# backend and on the CPU backend with the recorded inputs, and compares.
# Run from the repository root:
#
#   bash bench/synth_gpu.sh            # N=10000 by default; N=... to change
#
# About 5 minutes for N=10000 on a 16-core H100 machine (1 min build, then
# ~4 min: per kernel ~40 ms NVRTC validation, ~90 ms NVRTC in the CUDA
# backend, the CPU module's cc and the launches; the first run of 3,000,
# 2026-11-26, took 74 s on 16 cores).  Batches are sized so that every
# core gets five of them (the last round is not left to two cores).
#
# Writes to $OUT (default ./synth-gpu-out): summary.txt, stats.json, the
# log, and failures.tgz (kernels whose backends disagreed, if any).
# pairs.jsonl stays in /tmp (about 100 MB for 10,000 pairs).
set -u
OUT=${OUT:-$PWD/synth-gpu-out}; mkdir -p "$OUT"
N=${N:-10000}
export PATH=/usr/local/cuda/bin:$PATH
J=$(nproc)
T0=$(date +%s)
CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
{
  echo "card: ${CARD:-none}  date: $(date -u +%Y-%m-%dT%H:%MZ)  cores: $J"
  if ! { cmake -S . -B build-synth -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF &&
         cmake --build build-synth -j"$J" --target kern_tool; } > "$OUT/build.log" 2>&1; then
    tail -n 30 "$OUT/build.log"; echo "build: FAILED"; exit 1
  fi
  echo "build: ok ($(( $(date +%s) - T0 )) s)"
  build-synth/kern devices
  D=/tmp/kern-synth-gpu; rm -rf "$D"
  export KERN_CACHE_DIR=/tmp/kern-synth-cache
  T1=$(date +%s)
  B=$(( (N + 5 * J - 1) / (5 * J) ))
  [ "$B" -lt 20 ] && B=20
  [ "$B" -gt 200 ] && B=200
  TIMEFORMAT="kern synth CPU time: user %U s, sys %S s, wall %R s"
  time build-synth/kern synth -n "$N" --seed 2026 -o "$D" --validate run --compare cuda \
    --jobs "$J" --batch "$B" --targets cuda,c 2> "$OUT/synth.log"
  rc=$?
  T2=$(date +%s)
  tail -n 3 "$OUT/synth.log"
  echo "kern synth: exit $rc, $N pairs in $((T2 - T1)) s on $J cores" \
       "($(( N / (T2 - T1 > 0 ? T2 - T1 : 1) )) pairs/s)"
  cp "$D/stats.json" "$OUT/" 2>/dev/null
  grep -E '"(compile|run_agree)_rate"|"(compile_ok|agree|compile_checked|run_checked)"' "$D/stats.json"
  if [ -d "$D/failures" ]; then
    tar czf "$OUT/failures.tgz" -C "$D" failures
    echo "failures: $(ls "$D/failures" | wc -l) kernels in failures.tgz"
    grep -h '^# kern synth' "$D"/failures/*.py | head -n 20
  fi
} 2>&1 | tee "$OUT/summary.txt"
