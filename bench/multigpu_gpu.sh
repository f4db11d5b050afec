#!/bin/bash
# One device call on a bare machine with two (or more) NVIDIA GPUs
# (nvidia-h100-x2 / nvidia-h200-x2; no internet): build kern, run the
# sharded-array tests on CUDA (NCCL), then measure in the same run
#   1. the sum of squares of 1e9 float64 on every GPU vs one GPU (target
#      >= 1.9x) and vs PyTorch's sharded version (a local dot and an
#      all_reduce with torch.distributed): kern must be faster;
#   2. kern's all-reduce of 1 GB vs ncclAllReduce called directly on the
#      same buffers (bus bandwidth, target >= 95%), and PyTorch's;
#   3. the 2-D stencil with halo exchange, every GPU vs one (>= 1.8x);
#   4. the data-parallel training step (reported, no target);
#   5. the same programs and the tests under `mpirun -n 2`, one GPU per
#      rank, when mpirun exists (reported when it does not).
# NCCL comes from the nvidia-nccl-cu13 pip package (KERN_NCCL_LIBRARY);
# NVLink SHARP/multicast stays off (NCCL_NVLS_ENABLE=0): the machine's
# rules forbid multicast objects.
# Every speedup is the best of alternating rounds of the one-device and
# the multi-device run, both warmed and on final (NVRTC) code (Note [fair
# baseline] in examples/multigpu/mg_common.h); bench/speedup_check.sh then
# checks each against the number of GPUs: a speedup above it is printed as
# a MEASUREMENT ERROR and the script exits 1, unless SPEEDUP_EXPLAIN
# ('NAME=REASON;LABEL NAME=REASON', e.g. 'mpirun stencil=...') explains it.
# Run from the repo root:  OUT=/some/dir bash bench/multigpu_gpu.sh
# Takes about 4 minutes.  Results in $OUT (7 files): summary.txt (the
# verdicts), results.txt (every RESULT line), build.log, tests.log,
# examples.log, torch.log, mpi.log.
set -u
OUT=${OUT:-$PWD/multigpu-gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:/opt/torch/.venv/bin:$PATH
export NCCL_NVLS_ENABLE=0
B=build-multigpu-gpu
J=$(nproc)
T0=$(date +%s)
el() { echo "$(( $(date +%s) - T0 ))s"; }
SUM="$OUT/summary.txt"; : >"$SUM"
RES="$OUT/results.txt"; : >"$RES"
say() { echo "$*" | tee -a "$SUM"; }
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python

NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
say "cards: ${NGPU} x ${CARD:-none}  driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: ${KERN_GIT_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null)}"
nvidia-smi topo -m 2>/dev/null | head -n 4 >>"$SUM"
[ "$NGPU" -ge 2 ] || say "WARNING: fewer than 2 GPUs; the multi-GPU figures mean nothing"

# ---- NCCL from the pip package
NCCL_DIR=$($PY -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null)
if [ -n "$NCCL_DIR" ] && [ -e "$NCCL_DIR/libnccl.so.2" ]; then
  export KERN_NCCL_LIBRARY=$NCCL_DIR
  say "nccl: $NCCL_DIR"
else
  say "nccl: pip package not found; relying on libnccl.so.2 from the loader path"
fi

# ---- mpirun (Open MPI): system, or one a pip package brought
MPIRUN=$(command -v mpirun 2>/dev/null)
if [ -z "$MPIRUN" ]; then
  for d in /opt/torch/.venv/bin /usr/local/bin /opt/*/bin; do
    [ -x "$d/mpirun" ] && { MPIRUN=$d/mpirun; break; }
  done
fi
if [ -n "$MPIRUN" ]; then
  say "mpirun: $MPIRUN ($($MPIRUN --version 2>&1 | head -n1))"
  LIBMPI=$(ls "$(dirname "$MPIRUN")"/../lib/libmpi.so.40 2>/dev/null | head -n1)
  [ -n "$LIBMPI" ] && export KERN_MPI_LIBRARY=$LIBMPI
else
  say "mpirun: NOT FOUND on this machine (no Open MPI): the mpirun -n 2 runs are skipped"
fi

# ---- build (Release) with the tests and examples
if ! { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release &&
       cmake --build $B -j"$J" --target kern_tool test_sharded mg_sum_of_squares \
         mg_stencil mg_training_step mg_all_reduce; } >"$OUT/build.log" 2>&1; then
  tail -n 40 "$OUT/build.log"; say "build: FAILED"; exit 1
fi
say "build: ok ($(el))"
T=$B/tests
export KERN_CACHE_DIR=/tmp/kern-multigpu-cache
$B/kern devices >>"$OUT/build.log" 2>&1

# ---- tests on CUDA (shard counts 1..#GPUs, sizes that do and do not divide)
{
  echo "== test_sharded cuda"; timeout 300 $T/test_sharded cuda; echo "rc=$?"
  echo "== test_sharded cpu"; timeout 300 $T/test_sharded cpu; echo "rc=$?"
} >"$OUT/tests.log" 2>&1
say "tests: $(grep -E 'checks,' "$OUT/tests.log" | tr '\n' ';') ($(el))"

# ---- the examples at full size, every GPU vs one
ex() { # name, env...
  local n=$1; shift
  echo "== $n $*" >>"$OUT/examples.log"
  env KERN_DEVICE=cuda:all "$@" timeout 300 $T/mg_$n >>"$OUT/examples.log" 2>&1
  echo "rc=$?" >>"$OUT/examples.log"
}
ex sum_of_squares KERN_EXAMPLE_N=1000000000 KERN_EXAMPLE_REPS=20
ex all_reduce KERN_EXAMPLE_REPS=20
ex stencil KERN_EXAMPLE_N=32768 KERN_EXAMPLE_ITERS=50
ex stencil KERN_EXAMPLE_N=16384 KERN_EXAMPLE_ITERS=100
ex training_step KERN_EXAMPLE_N=10000000 KERN_EXAMPLE_STEPS=20
grep '^RESULT' "$OUT/examples.log" | sed 's/^/kern /' >>"$RES"
# kern bench's group row: every GPU at once next to each GPU alone
echo "== KERN_DEVICE=cuda:all kern bench sum_of_squares N=2e8" >>"$OUT/examples.log"
KERN_DEVICE=cuda:all timeout 300 $B/kern bench examples/sum_of_squares.py \
  --size N=200000000 --backend cuda --no-refs --budget 0.5 >>"$OUT/examples.log" 2>&1
echo "rc=$?" >>"$OUT/examples.log"
say "examples: done ($(el))"

# ---- PyTorch's sharded sum of squares and all_reduce
timeout 600 $PY bench/multigpu_torch.py 1e9 "$NGPU" >"$OUT/torch.log" 2>&1
echo "rc=$?" >>"$OUT/torch.log"
grep '^RESULT' "$OUT/torch.log" >>"$RES"
say "torch: done ($(el))"

# ---- under mpirun: one GPU per rank
: >"$OUT/mpi.log"
if [ -n "$MPIRUN" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # Containers often forbid the cross-process copies Open MPI's shared
  # memory transport tries first; the plain path always works.
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  MR="$MPIRUN -n 2 --oversubscribe -x KERN_DEVICE=cuda:all -x NCCL_NVLS_ENABLE=0 -x KERN_CACHE_DIR -x PATH"
  [ -n "${LD_LIBRARY_PATH:-}" ] && MR="$MR -x LD_LIBRARY_PATH"
  [ -n "${KERN_NCCL_LIBRARY:-}" ] && MR="$MR -x KERN_NCCL_LIBRARY"
  [ -n "${KERN_MPI_LIBRARY:-}" ] && MR="$MR -x KERN_MPI_LIBRARY"
  mr() {
    echo "== mpirun -n 2 $*" >>"$OUT/mpi.log"
    timeout 300 $MR "$@" >>"$OUT/mpi.log" 2>&1
    echo "rc=$?" >>"$OUT/mpi.log"
  }
  mr $T/test_sharded cuda mpi
  mr -x KERN_EXAMPLE_N=1000000000 -x KERN_EXAMPLE_REPS=20 $T/mg_sum_of_squares
  mr -x KERN_EXAMPLE_N=32768 -x KERN_EXAMPLE_ITERS=50 $T/mg_stencil
  mr -x KERN_EXAMPLE_N=10000000 $T/mg_training_step
  mr -x KERN_EXAMPLE_REPS=20 $T/mg_all_reduce
  grep '^RESULT' "$OUT/mpi.log" | sed 's/^/mpirun /' >>"$RES"
  say "mpirun: $(grep -c 'rc=0' "$OUT/mpi.log") of 5 runs ok ($(el))"
fi

# ---- verdicts
val() { # file-line-prefix key
  grep "$1" "$RES" | head -n1 | tr ' ' '\n' | sed -n "s/^$2=//p"
}
verdict() { # label value op target
  awk -v v="$2" -v t="$4" -v op="$3" -v l="$1" 'BEGIN {
    if (v == "") { printf "%-52s (no figure)\n", l; exit }
    ok = (op == ">=") ? (v + 0 >= t + 0) : (v + 0 < t + 0);
    printf "%-52s %10.3f %s %-8s %s\n", l, v, op, t, ok ? "MET" : "NOT MET" }' | tee -a "$SUM"
}
SS=$(val '^kern RESULT sum_of_squares' speedup)
SS_MS=$(val '^kern RESULT sum_of_squares' multi_ms)
TS_MS=$(val '^RESULT torch_sharded' ms)
AR=$(val '^kern RESULT all_reduce_1024MB' ratio)
ST=$(val '^kern RESULT stencil shards=[0-9]* one_ms' speedup)
say "---- verdicts on ${NGPU} x ${CARD}"
verdict "sum of squares 1e9 f64: all GPUs / one GPU" "$SS" ">=" 1.9
verdict "sum of squares: kern ms vs PyTorch sharded ms ($TS_MS)" "$SS_MS" "<" "${TS_MS:-0}"
verdict "all-reduce 1 GB: kern / direct NCCL bus bandwidth" "$AR" ">=" 0.95
verdict "stencil 32768^2 f32: all GPUs / one GPU" "$ST" ">=" 1.8
grep -h '^\(sum_of_squares\|stencil\|training_step\|all-reduce\|torch\)' \
  "$OUT/examples.log" "$OUT/torch.log" | tee -a "$SUM"
grep -h '^  cuda:' "$OUT/examples.log" | grep -v '^--' | tee -a "$SUM"
[ -s "$OUT/mpi.log" ] && grep -h '^\(sum_of_squares\|stencil\|training_step\|all-reduce\|test_sharded\)' "$OUT/mpi.log" | sed 's/^/mpirun: /' | tee -a "$SUM"
# ---- speedup sanity: no figure may exceed the number of GPUs
say "---- speedup sanity (Note [fair baseline] in examples/multigpu/mg_common.h)"
EXPLAIN=()
IFS=';' read -r -a _ex <<<"${SPEEDUP_EXPLAIN:-}"
for e in ${_ex[@]+"${_ex[@]}"}; do [ -n "$e" ] && EXPLAIN+=(--explain "$e"); done
sh bench/speedup_check.sh --gpus "$NGPU" ${EXPLAIN[@]+"${EXPLAIN[@]}"} "$RES" 2>&1 | tee -a "$SUM"
SANE=${PIPESTATUS[0]}
say "total $(el)"
if [ "$SANE" -ne 0 ]; then
  say "FAILED: a speedup above ${NGPU} GPUs is a measurement error, not a result (see above)"
  exit 1
fi
