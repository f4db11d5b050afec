#!/bin/bash
# The CUDA path's stress check (issue #22), one device call on a freshly
# started GPU machine, at most 8 minutes on its 16 cores with the build:
#  1. every conformance file cold on CUDA in the default tier, twice, each
#     `kern run` with a cache of its own (so the PTX tier loads it and its
#     NVRTC build runs in the background while the run ends), in parallel
#     shards, each run limited to RUN_TIMEOUT seconds;
#  2. the Python package's pytest suite on CUDA three times, at the same
#     time as 1, each with a fresh cache;
#  3. loops of cold `kern run` and `kern bench` that exit (or are killed)
#     while their background builds are in flight, three processes loading
#     cold at once on one shared cache, and a check that those builds still
#     filled the caches.
# Every failure is printed with the file and how it ended (exit status,
# signal, timeout).  Exit status 0 only with zero failures.
# usage: bash tests/gpu/stress.sh [BUILD_DIR]   (from the repo root; builds
# BUILD_DIR, default build-gpu, unless KERN_STRESS_NOBUILD=1)
set -u
B=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
L=${STRESS_LOGS:-/tmp/kern-stress}; rm -rf "$L"; mkdir -p "$L"
export PATH=/usr/local/cuda/bin:/opt/torch/.venv/bin:$PATH
J=$(nproc)
T0=$(date +%s)
el() { echo "$(( $(date +%s) - T0 ))s"; }
SUM="$L/stress-summary.txt"; : > "$SUM"
say() { echo "$*" | tee -a "$SUM"; }
CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
say "stress: card ${CARD:-none}  driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)  $(date -u +%Y-%m-%dT%H:%MZ)  commit ${KERN_GIT_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null)}  cores $J"

if [ "${KERN_STRESS_NOBUILD:-0}" != 1 ]; then
  if ! { cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release && cmake --build "$B" -j"$J"; } >"$L/build.log" 2>&1; then
    tail -n 40 "$L/build.log"; say "stress: build FAILED"; exit 1
  fi
  say "stress: build ok ($(el))"
fi
K=$PWD/$B/kern; NPYCMP=$PWD/$B/tests/npycmp
"$K" devices 2>&1 | grep -q "^${STRESS_BACKEND:-cuda}: available" || { say "stress: no CUDA device"; "$K" devices; exit 77; }
unset KERN_CUDA_TIER  # the default tier: auto
# STRESS_BACKEND=cpu tries the script itself on a machine without a GPU.
BE=${STRESS_BACKEND:-cuda}

# ---- 1. conformance, cold, twice, in parallel shards
RUN_TIMEOUT=${RUN_TIMEOUT:-90}
ls tests/conformance/${STRESS_GLOB:-*}.py | grep -v gen_expected.py > "$L/all"
NSH=${SHARDS:-$(( J > 4 ? J - 4 : 2 ))}
split -n r/"$NSH" "$L/all" "$L/part."
conf_pids=""
for round in 1 2; do
  for p in "$L"/part.??; do
    [ -s "$p" ] || { echo "conformance (empty shard): 0 passed, 0 failed, 0 skipped" > "$p.r$round.log"; continue; }
    # shellcheck disable=SC2046
    FRESH_CACHE=1 RUN_TIMEOUT=$RUN_TIMEOUT sh tests/conformance/run.sh "$K" "$NPYCMP" tests/conformance "$BE" $(cat "$p") \
      > "$p.r$round.log" 2>&1 &
    conf_pids="$conf_pids $!"
  done
done

# ---- 2. pytest on CUDA, three times at once, alongside 1
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
py_pids=""
if $PY -c 'import numpy, pytest' 2>/dev/null; then
  for i in 1 2 3; do
    ( export KERN_LIBRARY=$PWD/$B/libkern.so.1 KERN_TOOL=$K PYTHONPATH=$PWD/python \
        PYTHONDONTWRITEBYTECODE=1 XLA_PYTHON_CLIENT_PREALLOCATE=false \
        KERN_TEST_DEVICE=$BE KERN_CACHE_DIR=$(mktemp -d)
      # The tangent of every autodiff file (test_jvp's 170 cases, each a
      # cold NVRTC build of up to 160 KB of CUDA: 10-30 s for the noise
      # files) is gpu.sh's jvp step, once; three copies of it here ran
      # past 300 s (run 14, call A).
      timeout 300 $PY -m pytest -q -rs -p no:cacheprovider python/tests \
        -k 'not test_tangent_of_autodiff_kernels' >"$L/pytest-$i.log" 2>&1
      echo "rc $?" >>"$L/pytest-$i.log" ) &
    py_pids="$py_pids $!"
  done
else
  say "stress: pytest: FAILED: python3 lacks numpy or pytest"
  echo x > "$L/pytest-missing"
fi

# ---- 3. cold runs that end while their builds are in flight
loopfail=0
cold() {  # name timeout cmd...: one cold run, fresh cache; prints a FAIL line
  local name=$1 to=$2; shift 2
  local c; c=$(mktemp -d)
  KERN_CACHE_DIR=$c timeout -k 5 "$to" "$@" >"$L/loop-$name.log" 2>&1
  local rc=$?
  if [ $rc != 0 ]; then
    local how="exit status $rc"
    { [ $rc = 124 ] || [ $rc = 137 ]; } && how="timeout after ${to}s"
    [ $rc -gt 128 ] && [ $rc != 137 ] && how="signal $((rc - 128))"
    echo "FAIL loop $name: $how"; sed 's/^/    /' "$L/loop-$name.log" | head -n 10
    loopfail=$((loopfail + 1))
  fi
  echo "$c" >> "$L/loop-caches"
}
N=1000000
SAX="examples/saxpy.py saxpy --dim $N a=2.5 x=rand(float32,$N,seed=1) y=rand(float32,$N,seed=2)"
SUMSQ="examples/sum_of_squares.py sum_of_squares --dim $N x=rand(float64,$N,seed=3) out=zeros(float64,1)"
: > "$L/loop-caches"
for i in $(seq 1 ${LOOPS:-8}); do
  # shellcheck disable=SC2086
  cold "run-saxpy-$i" 60 "$K" run $SAX --backend "$BE" --quiet
  # shellcheck disable=SC2086
  cold "run-sumsq-$i" 60 "$K" run $SUMSQ --backend "$BE" --quiet
  # shellcheck disable=SC2086
  cold "bench-$i" 120 "$K" bench examples/saxpy.py --backend "$BE" --no-refs --no-peak --no-cold --budget 0.2 --max-samples 50 -q
  # three processes at once on one fresh cache: each loads cold, each
  # leaves a build, the builds store the same entry
  shared=$(mktemp -d)
  for j in 1 2 3; do
    # shellcheck disable=SC2086
    KERN_CACHE_DIR=$shared timeout -k 5 60 "$K" run $SAX --backend "$BE" --quiet >"$L/loop-shared-$i-$j.log" 2>&1 &
  done
  for j in 1 2 3; do
    wait -n; rc=$?
    [ $rc = 0 ] || { echo "FAIL loop shared-$i: exit status $rc"; sed 's/^/    /' "$L"/loop-shared-$i-*.log | head -n 10; }
  done
  echo "$shared" >> "$L/loop-caches"
  # killed while its build runs: only the exit status of the kill is expected
  # shellcheck disable=SC2086
  KERN_CACHE_DIR=$(mktemp -d) "$K" run $SUMSQ --backend "$BE" --quiet >"$L/loop-kill-$i.log" 2>&1 &
  kp=$!
  sleep 0.0$((i % 10))
  kill -TERM $kp 2>/dev/null
  wait $kp 2>/dev/null
  rc=$?
  case $rc in 0|143) ;; *) echo "FAIL loop kill-$i: exit status $rc"; loopfail=$((loopfail + 1)) ;; esac
done 2>&1 | tee "$L/loops.log"
loopfail=$(grep -c '^FAIL' "$L/loops.log")
say "stress: loops of cold run/bench/kill: $(( ${LOOPS:-8} * 7 )) runs, $loopfail failed ($(el))"

# The builds of the runs that ended went on and filled their caches.
for _ in $(seq 1 60); do
  n=0; while read -r c; do [ -n "$(find "$c" -name "*.cubin" 2>/dev/null | head -n1)" ] && n=$((n + 1)); done < "$L/loop-caches"
  [ "$n" -ge "$(wc -l < "$L/loop-caches")" ] && break
  [ "$BE" = cuda ] || break
  sleep 1
done
filled=0; total=0
while read -r c; do
  total=$((total + 1))
  [ -n "$(find "$c" -name "*.cubin" 2>/dev/null | head -n1)" ] && filled=$((filled + 1))
done < "$L/loop-caches"
say "stress: caches filled by builds that outlived their runs: $filled of $total"
# On CUDA every cold run above leaves a cubin in its cache, built in the
# foreground or by a build that went on after the run ended.
[ "$BE" = cuda ] && [ "$filled" != "$total" ] && loopfail=$((loopfail + 1))

# ---- wait for 1 and 2
for p in $conf_pids; do wait "$p"; done
say "stress: conformance done ($(el))"
for p in $py_pids; do wait "$p"; done
say "stress: pytest done ($(el))"

conffail=0
for round in 1 2; do
  pass=$(cat "$L"/part.??.r$round.log | awk '/^conformance/ { p += $3 } END { print p + 0 }')
  fail=$(cat "$L"/part.??.r$round.log | awk '/^conformance/ { f += $5 } END { print f + 0 }')
  done_=$(grep -l '^conformance' "$L"/part.??.r$round.log | wc -l)
  say "stress: conformance $BE cold, round $round: $pass passed, $fail failed, $done_ of $NSH shards finished"
  [ "$done_" -ne "$NSH" ] && fail=$((fail + 1))
  conffail=$((conffail + fail))
  grep -h '^FAIL' "$L"/part.??.r$round.log | sed "s/^/  round $round: /" | tee -a "$SUM"
done
pyfail=0
[ -f "$L/pytest-missing" ] && pyfail=1
for i in 1 2 3; do
  [ -f "$L/pytest-$i.log" ] || continue
  rc=$(sed -n 's/^rc //p' "$L/pytest-$i.log")
  say "stress: pytest cuda run $i: rc ${rc:-?}: $(grep -E '[0-9]+ (passed|failed)' "$L/pytest-$i.log" | tail -n1)"
  [ "$rc" = 0 ] || { pyfail=$((pyfail + 1)); grep -E '^(FAILED|ERROR)' "$L/pytest-$i.log" | head -n 10 | tee -a "$SUM"; }
done
grep -h '^FAIL' "$L/loops.log" | head -n 20 >> "$SUM"
total=$((conffail + pyfail + loopfail))
say "stress: $total failures ($(el)): conformance $conffail, pytest $pyfail, loops $loopfail"
# Under gpu.sh (STRESS_LOGS set) the logs go into its own archive.
if [ -z "${STRESS_LOGS:-}" ]; then
  tar -czf "$OUT/stress-logs.tgz" --exclude='*.npy' --exclude='cache*' -C "$(dirname "$L")" "$(basename "$L")" 2>/dev/null
  cp "$SUM" "$OUT/" 2>/dev/null
fi
[ $total = 0 ]
