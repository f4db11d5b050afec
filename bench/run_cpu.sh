#!/bin/sh
# Builds kern (if needed) and bench/cpu_bench, runs it once, writes
# bench/results/cpu-<date>.json.  usage: sh bench/run_cpu.sh [cpu_bench args]
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
[ -f "$BUILD/libkern.a" ] || { cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build "$BUILD" -j"$(nproc)" >/dev/null; }
cmake --build "$BUILD" --target kern_static -j"$(nproc)" >/dev/null
cc -std=c11 -O3 -march=native -fopenmp -Iinclude -o "$BUILD/cpu_bench" bench/cpu_bench.c \
   "$BUILD/libkern.a" -lpthread -ldl -lm
mkdir -p bench/results
json=bench/results/cpu-$(date +%Y-%m-%d).json
"$BUILD/cpu_bench" --json "$json" "$@"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; wrote $json"
