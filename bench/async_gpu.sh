#!/bin/bash
# bench/async_gpu.sh -- issue #11 on a bare H100/H200 machine, one call
# (about 4 minutes): builds kern from source, runs the stream tests on CUDA
# (plain, then under compute-sanitizer racecheck and synccheck), the ctypes
# binding test on CUDA, bench/async_bench (launch overhead vs bare
# cuLaunchKernel, graph replay, an 8 GiB pipeline vs the bidirectional copy
# rate, all in this run) and the six buffering examples' table.
#
#   bash bench/async_gpu.sh            (from the repository root)
#
# Logs and the summary go to $OUT (default ./async-out); the summary is
# printed last.
set -u
OUT=${OUT:-$PWD/async-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
B=build-async
J=$(nproc)
SUM="$OUT/summary.txt"; : > "$SUM"
say() { echo "$*" | tee -a "$SUM"; }
T0=$(date +%s)
el() { echo "$(( $(date +%s) - T0 ))s"; }
export KERN_CACHE_DIR=/tmp/kern-async-cache

CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
say "card: ${CARD:-none}  date: $(date -u +%Y-%m-%dT%H:%MZ)  driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)"

# ---- build (only what this script runs)
EXAMPLES="sequential double_buffering triple_buffering training_loop prefetch_queue multi_stream"
TARGETS="kern kern_static runtime_stream"
for e in $EXAMPLES; do TARGETS="$TARGETS async_$e"; done
# shellcheck disable=SC2086
if ! { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release && cmake --build $B -j"$J" --target $TARGETS; } >"$OUT/build.log" 2>&1; then
  tail -n 40 "$OUT/build.log"; say "build: FAILED"; exit 1
fi
cc -O2 -std=gnu11 -Iinclude -Isrc/runtime -Isrc/base -Isrc/compile bench/async_bench.c \
  $B/libkern.a -ldl -lpthread -lm -o $B/async_bench >>"$OUT/build.log" 2>&1 || { say "async_bench build: FAILED"; tail -n 20 "$OUT/build.log"; exit 1; }
say "build: ok ($(el))"

# ---- stream tests on CUDA: correctness, then the sanitizers
timeout 180 $B/tests/runtime_stream cuda >"$OUT/stream-cuda.log" 2>&1
say "runtime_stream cuda: rc $? ($(tail -n1 "$OUT/stream-cuda.log")) ($(el))"
for tool in racecheck synccheck; do
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 $B/tests/runtime_stream cuda \
    >"$OUT/sanitizer-$tool.log" 2>&1
  rc=$?
  s=$(grep -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (error|hazard)[a-z ]*' "$OUT/sanitizer-$tool.log" | tail -n1)
  say "compute-sanitizer $tool runtime_stream: ${s:-no summary} (rc $rc) ($(el))"
done
if command -v python3 >/dev/null; then
  timeout 120 python3 tests/python/test_ctypes.py $B/libkern.so cuda >"$OUT/ctypes-cuda.log" 2>&1
  say "ctypes on cuda: rc $? ($(tail -n1 "$OUT/ctypes-cuda.log"))"
fi

# ---- launch, graph and pipeline figures
timeout 300 $B/async_bench --gb 8 >"$OUT/async_bench.txt" 2>&1
say "async_bench: rc $? ($(el))"

# ---- the six examples on CUDA, 1 GiB in 16 chunks each
for e in $EXAMPLES; do
  KERN_DEVICE=cuda KERN_EXAMPLE_MB=1024 KERN_EXAMPLE_CHUNKS=16 timeout 120 $B/tests/async_$e \
    >>"$OUT/examples.txt" 2>&1 || echo "$e: FAILED rc $?" >>"$OUT/examples.txt"
done
say "examples done ($(el))"

echo
cat "$OUT/async_bench.txt"
echo
cat "$OUT/examples.txt"
echo
cat "$SUM"
