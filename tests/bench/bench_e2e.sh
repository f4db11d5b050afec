#!/bin/sh
# End-to-end `kern bench` on the backends CI has (CPU, OpenCL through PoCL)
# with a tiny time budget: the table, the JSON (validated against
# docs/bench-schema.json), CSV, Markdown, the SVG plot, --compare,
# --transfers, spec errors at file:line:col, and a missing backend or
# reference library shown as a row instead of stopping the run.
# Usage: bench_e2e.sh KERN BENCH_TEST SOURCE_DIR
set -u
K=$1; BT=$2; SRC=$3
T=$(mktemp -d /tmp/kern-bench-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache" KERN_BENCH_NO_GNUPLOT=1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
has() { grep -q -- "$2" "$1" || { fail "$1 lacks '$2'"; sed 's/^/  | /' "$1"; }; }

FAST="--budget 0.05 --min-samples 3 --max-samples 50"
# CI has PoCL; on a machine without OpenCL its row must say unavailable, and
# the tests that need a second backend check that instead.
OCL=0; "$K" devices | grep -q '^opencl: available' && OCL=1

# ---- the README's command, small: CPU and OpenCL, references, JSON, plot
"$K" bench "$SRC/examples/sum_of_squares.py" --backend cpu,opencl --size N=100000 \
  $FAST --json "$T/a.json" --plot "$T/a.svg" >"$T/table.txt" 2>"$T/err.txt"
rc=$?
[ $rc = 0 ] || { fail "kern bench exited $rc"; cat "$T/err.txt"; }
has "$T/table.txt" "sum_of_squares  N=100000"
has "$T/table.txt" "cpu:0 .* hot "
has "$T/table.txt" "^ *cold "
# With OpenCL its row must have run and passed the check against the CPU.
if [ $OCL = 1 ]; then
  has "$T/table.txt" "opencl:0 .* hot "
  grep -q '"name": "opencl:0"' "$T/a.json" || fail "no opencl:0 row in the JSON"
  # GPU backends (OpenCL here) are timed by kern events, the CPU by the wall
  # clock.
  grep -A12 '"name": "opencl:0"' "$T/a.json" | grep -q '"timer": "events"' ||
    fail "the opencl:0 row is not timed by events"
  grep -A12 '"name": "cpu:0"' "$T/a.json" | grep -q '"timer": "wall"' ||
    fail "the cpu:0 row is not timed by the wall clock"
  has "$T/table.txt" "timed by device events"
else
  has "$T/table.txt" "^  opencl .*unavailable: "
fi
# Every backend row that ran was checked against the CPU backend.
if grep -A12 '"kind": "backend"' "$T/a.json" | grep -q '"checked": false'; then
  grep -B2 -A12 '"checked": false' "$T/a.json" | grep -q '"status": "ok"' &&
    fail "a backend row is ok but unchecked"
fi
# Each reference is a row: ok when the library imports, else unavailable.
for lib in numpy torch cupy jax warp; do
  grep -Eq "^  $lib: .*(unavailable: |  *hot )" "$T/table.txt" ||
    { grep -Eq "^  $lib: .*failed: " "$T/table.txt" && fail "reference $lib failed"; } ||
    fail "no $lib reference row"
done
"$BT" validate "$SRC/docs/bench-schema.json" "$T/a.json" >/dev/null || fail "JSON does not match the schema"
for key in '"cpu_backend_cc": "' '"schema": "kern-bench"' '"schema_version": 1' '"commit": ' '"cpu": ' '"os": ' '"compiler": ' '"description": ' '"stopped_by": ' '"peak_gbps": '; do
  has "$T/a.json" "$key"
done
head -c 5 "$T/a.svg" | grep -q '<svg' || fail "the plot is not an SVG"
has "$T/a.svg" "cpu:0"
# The peak was measured once and cached.
[ -s "$KERN_CACHE_DIR/bench-peak-v3.tsv" ] || fail "no cached peak"
if [ $OCL = 1 ]; then
  grep -q '^opencl|' "$KERN_CACHE_DIR/bench-peak-v3.tsv" || fail "no cached OpenCL peak"
fi

# ---- --compare: a run against itself is within the noise
"$K" bench --compare "$T/a.json" "$T/a.json" >"$T/cmp.txt" 2>&1 || fail "--compare exited $?"
has "$T/cmp.txt" "cpu:0 *hot .*+0.0%  within noise"

# ---- CSV, Markdown, --transfers, another example, --no-refs
"$K" bench "$SRC/examples/saxpy.py" --backend cpu --size N=20000 $FAST --no-refs --csv --transfers --no-cold >"$T/a.csv" 2>"$T/err.txt" || fail "--csv exited $?"
has "$T/a.csv" "^bench,size,kind,name,device,status,message,mode,median_s"
has "$T/a.csv" "^saxpy,N=20000,backend,cpu:0,.*,ok,,hot,"
has "$T/a.csv" ",ok,,transfers,"
grep -q ",cold," "$T/a.csv" && fail "--no-cold still timed cold runs"
"$K" bench "$SRC/examples/saxpy.py" --backend cpu,cuda --size N=20000 $FAST --no-refs --markdown >"$T/a.md" 2>"$T/err.txt" || fail "--markdown exited $?"
has "$T/a.md" "^### saxpy N=20000"
has "$T/a.md" "^| cpu:0 | .* | hot | "
# CUDA is a row whether or not this machine has it.
grep -Eq "^\| cuda(:0)? \|" "$T/a.md" || fail "no cuda row in the Markdown"

# ---- no Python: every reference is a row that says so
"$K" bench "$SRC/examples/saxpy.py" --backend cpu --size N=1000 $FAST --no-cold --python /nonexistent/python3 >"$T/nopy.txt" 2>&1 || fail "no python exited $?"
has "$T/nopy.txt" "numpy: a \* x + y .*unavailable: /nonexistent/python3 not found"

# ---- a sweep over two sizes gives a block per size
"$K" bench "$SRC/examples/saxpy.py" --backend cpu --size N=1000,2000 $FAST --no-refs --no-cold --no-peak >"$T/sweep.txt" 2>&1 || fail "sweep exited $?"
has "$T/sweep.txt" "saxpy  N=1000$"
has "$T/sweep.txt" "saxpy  N=2000$"

# ---- a row whose output differs from the CPU's fails; the others go on.
# A float32 sum in another order differs in the last bits, so with rtol=0
# the OpenCL row cannot pass the check.
cat >"$T/f32.py" <<'PY'
import warp as wp
# kern-bench: f32sum --dim N x=rand(float32,N,seed=5) out=zeros(float32,1)
# kern-bench-sizes: N=100000
# kern-bench-check: out rtol=0 atol=0
# kern-bench: f32sum --dim 1000 x=rand(float32,1000,seed=5) out=zeros(float32,1)
# kern-bench-check: out rtol=1e-4
@wp.kernel
def f32sum(x: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i])
PY
"$K" bench "$T/f32.py" --backend cpu,opencl $FAST --no-refs --no-cold --json "$T/f.json" >"$T/f.txt" 2>&1
[ $? = 0 ] || fail "a failed row must not fail the run"
has "$T/f.txt" "cpu:0 .* hot "
if [ $OCL = 1 ]; then
  has "$T/f.txt" "opencl:0 *failed: output 'out'\[0\] = .*, the CPU backend gives .* (rtol 0, atol 0)"
  # The second spec of the file still ran, on both backends.
  [ "$(grep -c 'opencl:0 .* hot ' "$T/f.txt")" = 1 ] || fail "the second spec's OpenCL row did not run"
  has "$T/f.json" '"status": "failed"'
else
  has "$T/f.json" '"status": "unavailable"'
fi
"$BT" validate "$SRC/docs/bench-schema.json" "$T/f.json" >/dev/null || fail "the JSON with a failed row does not match the schema"

# ---- errors point at the spec
cat >"$T/bad.py" <<'PY'
import warp as wp
# kern-bench: saxpy --dim N a=2.5 x=rand(float32,N) z=zeros(float32,N)
# kern-bench-sizes: N=100
@wp.kernel
def saxpy(a: wp.float32, x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]
PY
"$K" bench "$T/bad.py" --backend cpu $FAST >"$T/out.txt" 2>"$T/err.txt"
[ $? = 1 ] || fail "a spec naming a missing parameter should exit 1"
has "$T/err.txt" "bad.py:2:53: error: kernel 'saxpy' has no parameter 'z' (its parameters: a, x, y)"
sed -i 's/z=zeros(float32,N)/y=zeros(float64,N)/' "$T/bad.py"
"$K" bench "$T/bad.py" --backend cpu $FAST >"$T/out.txt" 2>"$T/err.txt"
[ $? = 1 ] || fail "a SPEC of the wrong type should exit 1"
has "$T/err.txt" "bad.py:2:55: error: parameter 'y'"
sed -i 's/--dim N/--dim M/' "$T/bad.py"
"$K" bench "$T/bad.py" >"$T/out.txt" 2>"$T/err.txt"
[ $? = 1 ] || fail "an unknown size should exit 1"
has "$T/err.txt" "bad.py:2:27: error: 'M' in --dim is neither"
has "$T/err.txt" "^ *\^$"
"$K" bench "$SRC/examples/saxpy.py" --size Q=3 >"$T/out.txt" 2>"$T/err.txt"
[ $? = 1 ] || fail "--size of an unknown name should exit 1"
has "$T/err.txt" "no spec has a size named 'Q'"
"$K" bench "$SRC/examples/saxpy.py" --budget x >"$T/out.txt" 2>"$T/err.txt"
[ $? = 2 ] || fail "a bad --budget should exit 2"
"$K" bench "$SRC/examples/saxpy.py" --backend cpu,cdua >"$T/out.txt" 2>"$T/err.txt"
[ $? = 2 ] || fail "an unknown backend should exit 2"
has "$T/err.txt" "each name is cpu, cuda, opencl, vulkan or all"
"$K" bench --help | grep -q "Usage: kern bench FILE" || fail "kern bench --help"

# ---- a tiled spec (--tiled --block-dim, wp.launch_tiled): the tile GEMM
# example at 64x64, its OpenCL row checked against the CPU backend's (a
# wrong grid would leave tiles of C unwritten and fail the check)
"$K" bench "$SRC/examples/tile_gemm.py" --backend cpu,opencl --size N=64 \
  --size MB=4 --size NB=4 $FAST --no-refs --json "$T/g.json" >"$T/g.txt" 2>"$T/g.err" ||
  { fail "kern bench tile_gemm exited $?"; cat "$T/g.err"; }
has "$T/g.txt" "gemm  N=64 MB=4 NB=4"
has "$T/g.txt" "cpu:0 .* hot "
if [ $OCL = 1 ]; then
  grep -A14 '"name": "opencl:0"' "$T/g.json" | grep -q '"checked": true' ||
    { fail "the tiled opencl:0 row was not checked"; cat "$T/g.txt"; }
fi

if [ $fails = 0 ]; then echo "bench_e2e: all passed"; else echo "bench_e2e: $fails failed"; exit 1; fi
