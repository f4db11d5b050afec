#!/bin/bash
# exp/async_gpu.sh -- issue #11 on a bare H100/H200 machine, one call
# (about 3 minutes, most of it the build): builds kern from source, runs the
# stream tests on CUDA (plain, then under compute-sanitizer racecheck and
# synccheck) and on NVIDIA's OpenCL, the OpenCL interop test, the ctypes
# binding test on CUDA, exp/async_bench (launch overhead vs bare
# cuLaunchKernel, graph replay, an 8 GiB pipeline at 1 to 4 buffers with
# per-stage times against the bidirectional copy rate, and kern's own
# choice of chunk and buffers, all in this run; then a smaller run on
# OpenCL with kern_host_alloc's pinned buffers) and the six buffering
# examples' table.
#
#   bash exp/async_gpu.sh            (from the repository root)
#
# $OUT (default ./async-out) gets summary.txt, async_bench.txt,
# async_bench_opencl.txt, examples.txt, pipeline3-timeline.csv (every
# chunk's stage times of the 3-buffer run) and logs.tgz (the build, test
# and sanitizer logs); the device tool returns at most 8 files.  Everything
# is printed at the end, the summary last.
set -u
OUT=${OUT:-$PWD/async-out}; mkdir -p "$OUT"
L=/tmp/kern-async-logs; rm -rf "$L"; mkdir -p "$L"
export PATH=/usr/local/cuda/bin:$PATH
B=build-async
J=$(nproc)
SUM="$OUT/summary.txt"; : > "$SUM"
say() { echo "$*" | tee -a "$SUM"; }
T0=$(date +%s)
el() { echo "$(( $(date +%s) - T0 ))s"; }
pack() { tar -C "$L" -czf "$OUT/logs.tgz" . 2>/dev/null; }
trap pack EXIT
export KERN_CACHE_DIR=/tmp/kern-async-cache

CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
say "card: ${CARD:-none}  date: $(date -u +%Y-%m-%dT%H:%MZ)  driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)  commit: $(git rev-parse --short HEAD 2>/dev/null)"

# ---- build (only what this script runs)
EXAMPLES="sequential double_buffering triple_buffering training_loop prefetch_queue multi_stream"
TARGETS="kern kern_static kern_tool runtime_stream runtime_opencl_interop"
for e in $EXAMPLES; do TARGETS="$TARGETS async_$e"; done
# shellcheck disable=SC2086
if ! { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release && cmake --build $B -j"$J" --target $TARGETS; } >"$L/build.log" 2>&1; then
  tail -n 40 "$L/build.log"; say "build: FAILED"; exit 1
fi
cc -O2 -std=gnu11 -Iinclude -Isrc/runtime -Isrc/base -Isrc/compile exp/async_bench.c \
  $B/libkern.a -ldl -lpthread -lm -o $B/async_bench >>"$L/build.log" 2>&1 || { say "async_bench build: FAILED"; tail -n 20 "$L/build.log"; exit 1; }
say "build: ok ($(el))"

# ---- stream tests on CUDA: correctness, then the sanitizers
timeout 120 $B/tests/runtime_stream cuda >"$L/stream-cuda.log" 2>&1
say "runtime_stream cuda: rc $? ($(tail -n1 "$L/stream-cuda.log")) ($(el))"
for tool in racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/tests/runtime_stream cuda \
    >"$L/sanitizer-$tool.log" 2>&1
  rc=$?
  s=$(grep -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (error|hazard)[a-z ]*' "$L/sanitizer-$tool.log" | tail -n1)
  say "compute-sanitizer $tool runtime_stream: ${s:-no summary} (rc $rc) ($(el))"
done
# The same tests and the foreign-context interop test on NVIDIA's OpenCL
# (kern_host_alloc's mapped CL_MEM_ALLOC_HOST_PTR buffers, wrapped queues).
# A bare machine registers no ICD for it: a vendors directory holding only
# NVIDIA's makes it opencl:0 for these runs.
mkdir -p /tmp/icd-nv && echo libnvidia-opencl.so.1 > /tmp/icd-nv/nvidia.icd
NV="env OCL_ICD_VENDORS=/tmp/icd-nv"
$NV $B/kern devices >"$L/devices-opencl.txt" 2>&1
timeout 120 $NV $B/tests/runtime_stream opencl >"$L/stream-opencl.log" 2>&1
say "runtime_stream opencl: rc $? ($(tail -n1 "$L/stream-opencl.log"))"
timeout 120 $NV $B/tests/runtime_opencl_interop >"$L/opencl-interop.log" 2>&1
say "runtime_opencl_interop: rc $? ($(tail -n1 "$L/opencl-interop.log")) ($(el))"
if command -v python3 >/dev/null; then
  timeout 120 python3 tests/python/test_ctypes.py $B/libkern.so cuda >"$L/ctypes-cuda.log" 2>&1
  say "ctypes on cuda: rc $? ($(tail -n1 "$L/ctypes-cuda.log"))"
fi

# ---- launch, graph and pipeline figures
timeout 240 $B/async_bench --gb 8 --timeline "$OUT/pipeline3-timeline.csv" >"$OUT/async_bench.txt" 2>&1
say "async_bench: rc $? ($(el))"
timeout 120 $NV $B/async_bench --device opencl --gb 2 >"$OUT/async_bench_opencl.txt" 2>&1
say "async_bench on opencl (2 GiB): rc $? ($(el))"

# ---- the six examples on CUDA, 1 GiB in 16 chunks each
: >"$OUT/examples.txt"
for e in $EXAMPLES; do
  KERN_DEVICE=cuda KERN_EXAMPLE_MB=1024 KERN_EXAMPLE_CHUNKS=16 timeout 120 $B/tests/async_$e \
    >>"$OUT/examples.txt" 2>&1 || echo "$e: FAILED rc $?" >>"$OUT/examples.txt"
done
say "examples done ($(el))"

echo
cat "$OUT/async_bench.txt"
echo
cat "$OUT/async_bench_opencl.txt"
echo
cat "$OUT/examples.txt"
echo
cat "$SUM"
